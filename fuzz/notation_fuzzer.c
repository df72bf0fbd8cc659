/*
 * notation_fuzzer: any bytes through the JSON reader and the value notation reader
 * (notation/, spec/notation.md), which the judge, the C runner, the CLI and the tests all
 * depend on. Properties:
 *  - smct_json_parse and smct_notation_read end with a known status, an offset within the
 *    text and a message; nothing is read outside the text (ASan) and nothing leaks;
 *  - JSON: a parsed text written back by smct_json_write parses to an equal tree;
 *  - notation: a value that reads writes back (compact) to text that reads to an equal
 *    value, and writing that again gives the same text (the compact form is canonical);
 *    the pretty form reads to the same value too;
 *  - bytes: an encodable value encodes to bytes that strict mode decodes to an equal value.
 * Input: one option byte (bits 0-1: entry point message / call / envelope; 3 guesses it
 * from the form), then the text.
 */
#include <stdlib.h>
#include <string.h>

#include "fuzz_helpers.h"
#include "smct_json.h"
#include "smct_notation.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static bool known_status(smct_status_t st)
{
    return st == SMCT_OK || st == SMCT_ERR_SYNTAX || st == SMCT_ERR_DEPTH ||
           st == SMCT_ERR_NOTATION || st == SMCT_ERR_NOMEM || st == SMCT_ERR_NO_NOTATION;
}

static void check_error(smct_status_t st, const smct_error_t *e, size_t len, const char *what)
{
    FUZZ_ASSERTF(known_status(st), "%s: unknown status %d", what, (int)st);
    if (st != SMCT_OK) {
        FUZZ_ASSERTF(e->status == st, "%s: error status %d, returned %d", what, (int)e->status,
                     (int)st);
        FUZZ_ASSERTF(e->offset <= len, "%s: offset %zu beyond the text (%zu bytes)", what,
                     e->offset, len);
        FUZZ_ASSERTF(e->message != NULL && e->message[0] != '\0', "%s: no message", what);
    }
}

/* Text → doc through JSON and notation, in a fresh arena; `arena` holds the result. */
static smct_status_t read_doc(const char *text, size_t len, smc_entry_t entry, smc_arena_t *arena,
                              smct_doc_t *doc, smct_error_t *e)
{
    smct_json_t *json = NULL;
    smct_status_t st = smct_json_parse(text, len, NULL, arena, &json, e);
    check_error(st, e, len, "smct_json_parse");
    if (st != SMCT_OK) {
        return st;
    }
    st = smct_notation_read(json, entry, arena, doc, e);
    check_error(st, e, len, "smct_notation_read");
    return st;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size == 0) {
        return 0;
    }
    static const smc_entry_t entries[] = {SMC_ENTRY_MESSAGE, SMC_ENTRY_CALL, SMC_ENTRY_ENVELOPE,
                                          SMC_ENTRY_MESSAGE};
    uint8_t option = data[0];
    size_t len = size - 1;
    char *text = (char *)fuzz_input_copy(data + 1, len); /* ends exactly at the text's end */

    smc_arena_t arena;
    smc_arena_init_allocator(&arena, fuzz_counting_allocator());
    smct_json_t *json = NULL;
    smct_error_t e;
    smct_status_t st = smct_json_parse(text, len, NULL, &arena, &json, &e);
    check_error(st, &e, len, "smct_json_parse");
    if (st == SMCT_OK) {
        /* JSON round trip: the writer's text parses to the same tree. */
        smct_buf_t jtext;
        smct_buf_init(&jtext);
        smct_json_write(&jtext, json);
        FUZZ_ASSERT(smct_buf_ok(&jtext), "host out of memory");
        smc_arena_t arena2;
        smc_arena_init_allocator(&arena2, fuzz_counting_allocator());
        smct_json_t *again = NULL;
        smct_error_t e2;
        FUZZ_ASSERTF(smct_json_parse(jtext.data, jtext.len, NULL, &arena2, &again, &e2) == SMCT_OK,
                     "smct_json_write output does not parse: %s at %zu", e2.message, e2.offset);
        FUZZ_ASSERT(smct_json_equal(json, again), "JSON written back parses to another tree");
        smc_arena_free(&arena2);
        smct_buf_free(&jtext);

        smc_entry_t entry = option & 0x08 ? smct_notation_guess_entry(json) : entries[option & 3];
        smct_doc_t doc;
        st = smct_notation_read(json, entry, &arena, &doc, &e);
        check_error(st, &e, len, "smct_notation_read");
        if (st == SMCT_OK) {
            /* Notation round trip: compact text reads back equal and is a fixpoint. */
            smct_buf_t compact, pretty, compact2;
            smct_buf_init(&compact);
            smct_buf_init(&pretty);
            smct_buf_init(&compact2);
            smct_status_t wst = smct_notation_write(&compact, &doc, SMCT_NOTATION_COMPACT, &e);
            FUZZ_ASSERTF(wst == SMCT_OK || wst == SMCT_ERR_NO_NOTATION,
                         "a value read from notation cannot be written (%d: %s)", (int)wst,
                         e.message);
            if (wst == SMCT_OK) {
                smc_arena_t arena3;
                smc_arena_init_allocator(&arena3, fuzz_counting_allocator());
                smct_doc_t back;
                FUZZ_ASSERTF(read_doc(compact.data, compact.len, entry, &arena3, &back, &e) ==
                                 SMCT_OK,
                             "written notation does not read back: %s at %zu", e.message, e.offset);
                FUZZ_ASSERT(smct_doc_equal(&doc, &back),
                            "notation written back reads to another value");
                FUZZ_ASSERT(smct_notation_write(&compact2, &back, SMCT_NOTATION_COMPACT, &e) ==
                                    SMCT_OK &&
                                compact2.len == compact.len &&
                                memcmp(compact2.data, compact.data, compact.len) == 0,
                            "compact notation is not a fixpoint");
                smct_doc_t pback;
                FUZZ_ASSERT(smct_notation_write(&pretty, &doc, SMCT_NOTATION_PRETTY, &e) == SMCT_OK,
                            "pretty notation cannot be written");
                FUZZ_ASSERTF(read_doc(pretty.data, pretty.len, entry, &arena3, &pback, &e) ==
                                     SMCT_OK &&
                                 smct_doc_equal(&doc, &pback),
                             "pretty notation reads to another value (%s)", e.message);
                smc_arena_free(&arena3);
            }
            smct_buf_free(&compact);
            smct_buf_free(&pretty);
            smct_buf_free(&compact2);

            /* Bytes: what encodes decodes (strict mode: canonical) to the same value. */
            smct_buf_t bytes;
            smct_buf_init(&bytes);
            smc_error_t err;
            smc_status_t est = smct_doc_encode(&doc, &bytes, &err);
            FUZZ_ASSERTF(est == SMC_OK || est == SMC_ERR_NOT_ENCODABLE || est == SMC_ERR_DEPTH,
                         "encoding a notation value gives %s", smc_status_name(est));
            if (est == SMC_OK) {
                smc_arena_t arena4;
                smc_arena_init_allocator(&arena4, fuzz_counting_allocator());
                smc_decode_opts_t opts = {SMC_MODE_STRICT, SMC_MAX_DEPTH_LIMIT};
                smct_doc_t decoded;
                smc_status_t dst = smct_doc_decode((const uint8_t *)bytes.data, bytes.len, entry,
                                                   &opts, &arena4, &decoded, &err);
                FUZZ_ASSERTF(dst == SMC_OK,
                             "strict mode rejects the encoding of a notation value: %s at %zu",
                             smc_status_name(dst), err.offset);
                FUZZ_ASSERT(smct_doc_equal(&doc, &decoded), "bytes decode to another value");
                smc_arena_free(&arena4);
            }
            smct_buf_free(&bytes);
        }
    }
    smc_arena_free(&arena);
    FUZZ_ASSERT(fuzz_live_blocks() == 0, "allocator blocks leaked");
    free(text);
    return 0;
}
