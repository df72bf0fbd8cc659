/*
 * Runner lines against runners/protocol.schema.json (protocol_check.h). The schema is
 * compiled once, on the first line checked; a judge built with a schema its validator
 * cannot read stops at once (a build fault, never a runner's).
 */
#define _POSIX_C_SOURCE 200809L
#include "protocol_check.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "alloc.h"
#include "escape.h"
#include "json_keys.h"
#include "schema.h"

static smcj_schema_t *g_schema;

static const smcj_schema_t *schema(void)
{
    if (!g_schema) {
        char err[256] = "";
        g_schema = smcj_schema_compile((const char *)smcj_protocol_schema_text,
                                       smcj_protocol_schema_text_len,
                                       "runners/protocol.schema.json", err, sizeof err);
        if (!g_schema && !smcj_out_of_memory()) {
            fprintf(stderr, "smc-judge: runners/protocol.schema.json as built: %s\n", err);
            abort(); /* a judge built wrongly: no verdict can be trusted */
        }
    }
    return g_schema;
}

void smcj_protocol_schema_free(void)
{
    smcj_schema_free(g_schema);
    g_schema = NULL;
}

typedef struct sink_ctx {
    smct_buf_t first; /* the first violation, with its field */
    bool have;
    smct_buf_t *unknown;
} sink_ctx_t;

static void on_problem(void *ctx, const smcj_path_seg_t *path, size_t n, const char *msg)
{
    sink_ctx_t *c = ctx;
    if (c->have) {
        return;
    }
    c->have = true;
    if (n == 0) {
        smct_buf_printf(&c->first, "the line %s", msg);
        return;
    }
    smct_buf_putc(&c->first, '`');
    smcj_path_text(&c->first, path, 0, n);
    smct_buf_printf(&c->first, "` %s", msg);
}

static void on_unknown(void *ctx, const smcj_path_seg_t *path, size_t n)
{
    sink_ctx_t *c = ctx;
    if (!c->unknown) {
        return;
    }
    smct_buf_puts(c->unknown, c->unknown->len ? ", " : "");
    smcj_path_text(c->unknown, path, 0, n);
}

/* A runner line's first doubled key, as the fault of its request (P.3); NULL if none (or out
 * of memory, recorded). */
static char *duplicate_keys(const smct_json_t *line)
{
    bool oom = false;
    const smct_str_t *dup = smcj_json_doubled_key(line, &oom);
    if (!dup) {
        return NULL;
    }
    smct_buf_t b = {0};
    smct_buf_puts(&b, "the key `");
    smcj_buf_excerpt(&b, dup->ptr, dup->len, 60);
    smct_buf_puts(&b, "` appears twice in one object (P.3: no duplicate keys)");
    char *fault = smcj_buf_ok(&b) ? smcj_buf_take(&b) : NULL;
    smct_buf_free(&b);
    return fault;
}

char *smcj_protocol_fault(const smct_json_t *line, const char *def, smct_buf_t *unknown)
{
    const smcj_schema_t *s = schema();
    if (!s) {
        return NULL; /* out of memory (recorded): the run stops */
    }
    char *dup = duplicate_keys(line);
    if (dup) {
        return dup;
    }
    sink_ctx_t c = {{0}, false, unknown};
    smcj_schema_sink_t sink = {on_problem, on_unknown, &c};
    smcj_schema_check_def(s, line, def, &sink);
    char *fault = NULL;
    if (c.have && smcj_buf_ok(&c.first)) {
        fault = smcj_asprintf("%s (runners/protocol.schema.json $defs/%s)", c.first.data, def);
    }
    smct_buf_free(&c.first);
    return fault;
}
