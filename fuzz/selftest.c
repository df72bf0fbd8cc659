/*
 * Self-test of the fuzz checks: a property checker that never fires finds nothing, so each
 * case below hands a checker a deliberately wrong decoder result and expects it to abort,
 * and each control case hands it a right one and expects it to return. Each case runs in a
 * child process (fork), so an abort is observed, not suffered. Run by CTest.
 */
#define _POSIX_C_SOURCE 200809L

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "fuzz_helpers.h"

typedef void (*case_fn)(void);

static const uint8_t str_ab[] = {0x07, 0x02, 0x61, 0x62};
static const uint8_t u8s_bad_size[] = {0x07, 0xfe, 0x02, 0x00, 0x61, 0x62};

static smc_decode_opts_t flutter_opts(void)
{
    smc_decode_opts_t o = {SMC_MODE_FLUTTER, 0};
    return o;
}

static smc_decode_opts_t strict_opts(void)
{
    smc_decode_opts_t o = {SMC_MODE_STRICT, 0};
    return o;
}

/* ---- must abort ---- */
static void truncated_not_at_length(void)
{
    smc_error_t e = {SMC_ERR_TRUNCATED, 2};
    smc_decode_opts_t o = flutter_opts();
    fuzz_check_decode_status(SMC_ERR_TRUNCATED, &e, str_ab, 3, &o, FUZZ_ENTRY_MESSAGE);
}
static void unknown_tag_on_known_byte(void)
{
    smc_error_t e = {SMC_ERR_UNKNOWN_TAG, 0};
    smc_decode_opts_t o = flutter_opts();
    fuzz_check_decode_status(SMC_ERR_UNKNOWN_TAG, &e, str_ab, sizeof str_ab, &o,
                             FUZZ_ENTRY_MESSAGE);
}
static void not_canonical_in_flutter_mode(void)
{
    smc_error_t e = {SMC_ERR_NONMINIMAL_SIZE, 1};
    smc_decode_opts_t o = flutter_opts();
    fuzz_check_decode_status(SMC_ERR_NONMINIMAL_SIZE, &e, u8s_bad_size, sizeof u8s_bad_size, &o,
                             FUZZ_ENTRY_MESSAGE);
}
static void offset_past_input(void)
{
    smc_error_t e = {SMC_ERR_TRAILING_BYTES, 9};
    smc_decode_opts_t o = flutter_opts();
    fuzz_check_decode_status(SMC_ERR_TRAILING_BYTES, &e, str_ab, sizeof str_ab, &o,
                             FUZZ_ENTRY_MESSAGE);
}
static void usage_from_decoder(void)
{
    smc_error_t e = {SMC_ERR_USAGE, 0};
    smc_decode_opts_t o = flutter_opts();
    fuzz_check_decode_status(SMC_ERR_USAGE, &e, str_ab, sizeof str_ab, &o, FUZZ_ENTRY_MESSAGE);
}
static void bad_envelope_in_a_message(void)
{
    smc_error_t e = {SMC_ERR_BAD_METHOD_NAME, 0};
    smc_decode_opts_t o = flutter_opts();
    fuzz_check_decode_status(SMC_ERR_BAD_METHOD_NAME, &e, str_ab, sizeof str_ab, &o,
                             FUZZ_ENTRY_MESSAGE);
}
static void strict_accepts_flutter_rejects(void)
{
    smc_error_t f = {SMC_ERR_TRUNCATED, 4}, s = {SMC_OK, 0};
    fuzz_check_mode_relation(SMC_ERR_TRUNCATED, &f, SMC_OK, &s, str_ab, sizeof str_ab);
}
static void modes_disagree_on_common_fault(void)
{
    smc_error_t f = {SMC_ERR_TRAILING_BYTES, 3}, s = {SMC_ERR_TRAILING_BYTES, 2};
    fuzz_check_mode_relation(SMC_ERR_TRAILING_BYTES, &f, SMC_ERR_TRAILING_BYTES, &s, str_ab,
                             sizeof str_ab);
}
static void tree_with_bad_utf8(void)
{
    smc_arena_t a;
    smc_arena_init_allocator(&a, NULL);
    smc_value_t *v = smc_value_make_str(&a, "\xc0\x80", 2); /* overlong NUL */
    fuzz_check_tree(v, NULL, NULL);
}
static void alias_view_outside_input(void)
{
    smc_arena_t a;
    smc_arena_init_allocator(&a, NULL);
    smc_value_t *v = smc_value_make_u8s(&a, "xy", 2); /* lives in the arena, not the input */
    fuzz_check_tree(v, str_ab, str_ab + sizeof str_ab);
}
static void allocator_free_with_wrong_size(void)
{
    const smc_allocator_t *al = fuzz_counting_allocator();
    void *p = al->alloc(al->ctx, 16);
    al->free(al->ctx, p, 15);
}

/* ---- must return ---- */
static void right_answers_pass(void)
{
    smc_decode_opts_t f = flutter_opts(), s = strict_opts();
    smc_error_t t = {SMC_ERR_TRUNCATED, 3}, n = {SMC_ERR_NONMINIMAL_SIZE, 1}, ok = {SMC_OK, 0};
    fuzz_check_decode_status(SMC_ERR_TRUNCATED, &t, str_ab, 3, &f, FUZZ_ENTRY_MESSAGE);
    fuzz_check_decode_status(SMC_ERR_NONMINIMAL_SIZE, &n, u8s_bad_size, sizeof u8s_bad_size, &s,
                             FUZZ_ENTRY_MESSAGE);
    fuzz_check_mode_relation(SMC_OK, &ok, SMC_ERR_NONMINIMAL_SIZE, &n, u8s_bad_size,
                             sizeof u8s_bad_size);
    smc_arena_t a;
    smc_arena_init_allocator(&a, fuzz_counting_allocator());
    smc_value_t *v = smc_value_make_str(&a, "h\xe2\x98\xba", 4);
    fuzz_check_tree(v, NULL, NULL);
    smc_arena_free(&a);
    FUZZ_ASSERT(fuzz_live_blocks() == 0, "counting allocator balanced");
    fuzz_options_t o = fuzz_options_from_byte(0xff);
    FUZZ_ASSERT(o.strict && o.no_custom && o.alias && o.max_depth == SMC_MAX_DEPTH_LIMIT,
                "option byte 0xff");
    o = fuzz_options_from_byte(0x00);
    FUZZ_ASSERT(!o.strict && o.max_depth == 0 && o.effective_depth == SMC_DEFAULT_MAX_DEPTH,
                "option byte 0x00");
    o = fuzz_options_from_byte((uint8_t)(5u << FUZZ_OPT_DEPTH_SHIFT));
    FUZZ_ASSERT(o.max_depth == 5, "depth selector 5");
}

static int run_case(const char *name, case_fn fn, int must_abort)
{
    pid_t pid = fork();
    if (pid < 0) {
        perror("fork");
        return 1;
    }
    if (pid == 0) {
        if (must_abort) { /* the expected failure message would only confuse a reader */
            int null = open("/dev/null", O_WRONLY);
            if (null >= 0) {
                dup2(null, 2);
            }
        }
        fn();
        _exit(0);
    }
    int status = 0;
    waitpid(pid, &status, 0);
    int aborted = !(WIFEXITED(status) && WEXITSTATUS(status) == 0);
    int ok = aborted == must_abort;
    printf("%s %s (%s)\n", ok ? "ok  " : "FAIL", name, must_abort ? "must abort" : "must pass");
    return ok ? 0 : 1;
}

int main(void)
{
    int failures = 0;
#define MUST_ABORT(fn) failures += run_case(#fn, fn, 1)
    MUST_ABORT(truncated_not_at_length);
    MUST_ABORT(unknown_tag_on_known_byte);
    MUST_ABORT(not_canonical_in_flutter_mode);
    MUST_ABORT(offset_past_input);
    MUST_ABORT(usage_from_decoder);
    MUST_ABORT(bad_envelope_in_a_message);
    MUST_ABORT(strict_accepts_flutter_rejects);
    MUST_ABORT(modes_disagree_on_common_fault);
    MUST_ABORT(tree_with_bad_utf8);
    MUST_ABORT(alias_view_outside_input);
    MUST_ABORT(allocator_free_with_wrong_size);
#undef MUST_ABORT
    failures += run_case("right_answers_pass", right_answers_pass, 0);
    printf("%d failure(s)\n", failures);
    return failures ? 1 : 0;
}
