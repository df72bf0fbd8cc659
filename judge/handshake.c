/*
 * The hello answer (runners/PROTOCOL.md P.1). What the runner declares decides which checks
 * it gets (plan.c), so the answer is read strictly: every list must be an array of strings.
 * Unknown words are named in the report and ignored rather than refused, because a new
 * vocabulary word in a newer runner must not stop an older judge; but they are never silently
 * dropped, since a misspelt word would otherwise turn checks off unnoticed.
 */
#define _POSIX_C_SOURCE 200809L
#include "handshake.h"

#include <stdlib.h>
#include <string.h>

#include "alloc.h"
#include "escape.h"
#include "plan.h"
#include "smct_vocab.h"

/* A JSON array of strings, copied; false if `j` is anything else (the caller frees what was
 * copied). */
static bool json_str_array(const smct_json_t *j, char ***out, size_t *n)
{
    if (!j || j->type != SMCT_JSON_ARRAY) {
        return false;
    }
    *out = smcj_calloc(j->array.count, sizeof(char *));
    *n = 0;
    for (size_t i = 0; *out && i < j->array.count; i++) {
        const smct_json_t *e = &j->array.items[i];
        char *word = e->type == SMCT_JSON_STRING ? smcj_strndup(e->str.ptr, e->str.len) : NULL;
        if (!word) {
            return false; /* not a string, or out of memory (recorded) */
        }
        (*out)[(*n)++] = word;
    }
    return *out != NULL;
}

static char *opt_str(const smct_json_t *obj, const char *key)
{
    const smct_json_t *j = smct_json_get(obj, key);
    return j && j->type == SMCT_JSON_STRING ? smcj_strndup(j->str.ptr, j->str.len) : NULL;
}

/* Words a runner may declare: the feature words of the vector format (vectors/schema.json,
 * spec/vectors.md V.3) as capabilities, and the options of runners/PROTOCOL.md P.1, which
 * this judge defines. */
static const char *const KNOWN_FEATURES[] = {SMCT_FEATURE_LIST(SMCT_VOCAB_ITEM)};
static const char *const KNOWN_OPTIONS[] = {"error-offsets", "shift"};

/* Appends to `b` every word of `words` not in `known`: a misspelt option or capability
 * would otherwise silently turn checks off (e.g. "error-offset": offsets never compared). */
static void unknown_words(smct_buf_t *b, const char *what, char *const *words, size_t n,
                          const char *const *known, size_t n_known)
{
    for (size_t i = 0; i < n; i++) {
        bool found = false;
        for (size_t k = 0; k < n_known && !found; k++) {
            found = strcmp(words[i], known[k]) == 0;
        }
        if (!found) {
            smct_buf_printf(b, "%sunknown %s \"", b->len ? "; " : "", what);
            smcj_buf_excerpt(b, words[i], strlen(words[i]), 60);
            smct_buf_puts(b, "\" ignored");
        }
    }
}

char *smcj_handshake_take(smcj_runner_t *r, const smct_json_t *resp, bool first_start)
{
    int64_t seq, proto;
    if (!smct_json_get_i64(smct_json_get(resp, "seq"), &seq) || seq != 0) {
        return smcj_strdup("hello answer does not carry seq 0");
    }
    if (!smct_json_is_str(smct_json_get(resp, "status"), "ok")) {
        return smcj_strdup("hello answer status is not \"ok\"");
    }
    if (!smct_json_get_i64(smct_json_get(resp, "protocol"), &proto)) {
        return smcj_strdup("hello answer has no integer \"protocol\"");
    }
    if (proto != 1) {
        return smcj_asprintf("runner speaks protocol %lld; this judge speaks protocol 1",
                             (long long)proto);
    }
    char **entries = NULL, **dec = NULL, **enc = NULL, **opts = NULL;
    size_t ne = 0, nd = 0, nn = 0, no = 0;
    const smct_json_t *caps = smct_json_get(resp, "capabilities");
    const smct_json_t *jopts = smct_json_get(resp, "options");
    bool ok = json_str_array(smct_json_get(resp, "entries"), &entries, &ne) &&
              json_str_array(smct_json_get(caps, "decode"), &dec, &nd) &&
              json_str_array(smct_json_get(caps, "encode"), &enc, &nn) &&
              (jopts == NULL || json_str_array(jopts, &opts, &no));
    if (!ok) {
        smcj_free_strs(entries, ne);
        smcj_free_strs(dec, nd);
        smcj_free_strs(enc, nn);
        smcj_free_strs(opts, no);
        return smcj_strdup("hello answer needs \"entries\", \"capabilities\": {\"decode\", "
                           "\"encode\"} as arrays of "
                           "strings, and \"options\" as an array of strings (P.1)");
    }
    if (!first_start) {
        /* A respawned runner is the same program; keep the first capabilities. */
        smcj_free_strs(entries, ne);
        smcj_free_strs(dec, nd);
        smcj_free_strs(enc, nn);
        smcj_free_strs(opts, no);
        return NULL;
    }
    const smct_json_t *codec = smct_json_get(resp, "codec");
    r->codec_name = opt_str(codec, "name");
    r->codec_version = opt_str(codec, "version");
    r->codec_language = opt_str(codec, "language");
    for (size_t i = 0; i < ne; i++) {
        smc_entry_t e;
        if (smct_entry_from_name(entries[i], strlen(entries[i]), &e)) {
            r->entry_ok[e] = true;
        }
    }
    smcj_free_strs(entries, ne);
    r->decode_caps = dec;
    r->n_decode_caps = nd;
    r->encode_caps = enc;
    r->n_encode_caps = nn;
    smct_buf_t note = {0};
    size_t nf = sizeof KNOWN_FEATURES / sizeof KNOWN_FEATURES[0];
    unknown_words(&note, "decode capability", dec, nd, KNOWN_FEATURES, nf);
    unknown_words(&note, "encode capability", enc, nn, KNOWN_FEATURES, nf);
    unknown_words(&note, "option", opts, no, KNOWN_OPTIONS,
                  sizeof KNOWN_OPTIONS / sizeof KNOWN_OPTIONS[0]);
    /* a failed note records out of memory (smcj_buf_ok): never a silently empty one */
    r->handshake_note = smcj_buf_ok(&note) && note.len ? smcj_buf_take(&note) : NULL;
    smct_buf_free(&note);
    r->opt_error_offsets = smcj_caps_have(opts, no, "error-offsets");
    r->opt_shift = smcj_caps_have(opts, no, "shift");
    r->map_order = smcj_caps_have(dec, nd, "map-order");
    smcj_free_strs(opts, no);
    return NULL;
}
