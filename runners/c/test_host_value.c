/*
 * The kit's host-value reader and writer (runner_host_value.c) on the literals of spec §17.1,
 * the utf16 literal above all: {"utf16": H} reaches a hook as its code units, lone surrogates
 * included, and is written back as it came; anything else shaped like an object is no
 * literal. A reader that dropped the form, or read its digits wrong, fails here.
 */
#include <stdio.h>
#include <string.h>

#include "runner_host_value.h"

static int g_failed;

static void expect(bool ok, const char *what)
{
    if (!ok) {
        fprintf(stderr, "FAIL: %s\n", what);
        g_failed = 1;
    }
}

/* The tree of `text`, or NULL when the reader refuses it. */
static smc_runner_host_value_t *read_text(const char *text, smc_arena_t *arena)
{
    smct_json_t *json = NULL;
    smct_error_t err;
    if (smct_json_parse(text, strlen(text), NULL, arena, &json, &err) != SMCT_OK) {
        return NULL;
    }
    return smc_runner_host_value_read(json, arena);
}

/* `text` read and written back gives `text` again. */
static void round_trip(const char *text, smc_arena_t *arena)
{
    smc_runner_host_value_t *hv = read_text(text, arena);
    smct_buf_t out = {0};
    bool ok =
        hv && smc_runner_host_value_write(&out, hv) && out.data && strcmp(out.data, text) == 0;
    expect(ok, text);
    smct_buf_free(&out);
}

int main(void)
{
    smc_arena_t arena;
    smc_arena_init_allocator(&arena, NULL);

    smc_runner_host_value_t *hv =
        read_text("{\"type\":\"String\",\"value\":{\"utf16\":\"0061d8000062\"}}", &arena);
    expect(hv && hv->literal == SMC_RUNNER_LITERAL_UTF16 && hv->count == 3 && hv->units &&
               hv->units[0] == 0x61 && hv->units[1] == 0xd800 && hv->units[2] == 0x62,
           "a lone high surrogate arrives as three code units");
    hv = read_text("{\"type\":\"String\",\"value\":{\"utf16\":\"\"}}", &arena);
    expect(hv && hv->literal == SMC_RUNNER_LITERAL_UTF16 && hv->count == 0, "no code units");

    round_trip("{\"type\":\"String\",\"value\":{\"utf16\":\"dc00d800\"}}", &arena);
    round_trip(
        "{\"type\":\"List\",\"value\":[{\"type\":\"String\",\"value\":{\"utf16\":\"d83dde00\"}}]}",
        &arena);
    round_trip("{\"type\":\"String\",\"value\":\"plain\"}", &arena);

    static const char *const refused[] = {
        "{\"type\":\"String\",\"value\":{\"utf16\":\"0061D800\"}}", /* upper-case digits */
        "{\"type\":\"String\",\"value\":{\"utf16\":\"006\"}}",      /* not 4 per unit */
        "{\"type\":\"String\",\"value\":{\"utf16\":\"00g1\"}}",
        "{\"type\":\"String\",\"value\":{\"utf16\":\"0061\",\"x\":1}}",
        "{\"type\":\"String\",\"value\":{\"utf8\":\"61\"}}",
        "{\"type\":\"String\",\"value\":{\"utf16\":97}}",
        "{\"type\":\"String\",\"value\":\"a\\ud800b\"}", /* JSON escapes stay refused */
    };
    for (size_t i = 0; i < sizeof refused / sizeof refused[0]; i++) {
        expect(read_text(refused[i], &arena) == NULL, refused[i]);
    }
    smc_arena_free(&arena);
    if (!g_failed) {
        printf("test_host_value: all passed\n");
    }
    return g_failed;
}
