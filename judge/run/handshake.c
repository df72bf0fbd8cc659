/*
 * The hello answer (runners/PROTOCOL.md P.1, version 1 or 2). What the runner declares decides
 * what the judge expects of each check (expect.c), so the answer is read strictly: every list
 * must be an array of strings, and a `per_entry` object holds only those lists.
 * Unknown words are named in the report and ignored rather than refused, because a new
 * vocabulary word in a newer runner must not stop an older judge; but they are never silently
 * dropped, since a misspelt word would otherwise turn checks off unnoticed.
 */
#define _POSIX_C_SOURCE 200809L
#include "handshake.h"
#include "protocol_check.h"

#include <stdlib.h>
#include <string.h>

#include "alloc.h"
#include "escape.h"
#include "host_absent.h"
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

/* A name the runner gives itself, as every report shows it: control characters, terminal
 * escapes and invalid UTF-8 made visible, at most 200 bytes (escape.h). A codec named
 * "x\n\nGATE PASSED\n" must not print a line of its own. */
static char *opt_str(const smct_json_t *obj, const char *key)
{
    const smct_json_t *j = smct_json_get(obj, key);
    if (!j || j->type != SMCT_JSON_STRING) {
        return NULL;
    }
    smct_buf_t b = {0};
    smcj_buf_excerpt(&b, j->str.ptr, j->str.len, 200);
    return smcj_buf_take(&b);
}

/* Words a runner may declare: the feature words of the vector format (vectors/schema.json,
 * spec/vectors.md V.3) as capabilities, and the options of runners/PROTOCOL.md P.1, which
 * this judge defines. */
static const char *const KNOWN_FEATURES[] = {SMCT_FEATURE_LIST(SMCT_VOCAB_ITEM)};
static const char *const KNOWN_OPTIONS[] = {"error-classes", "error-offsets", "shift",
                                            "borrows-input", "pigeon-int64"};
static const char *const KNOWN_HOSTS[] = {SMCT_HOST_VOCABULARY_LIST(SMCT_VOCAB_ITEM)};

/* P.1 `hosts` (optional): the spec §17 vocabularies the runner speaks; unknown words are
 * named in the handshake note like unknown capabilities, and ignored. */
static char *read_hosts(smcj_runner_t *r, const smct_json_t *hosts);

/* P.1 `hosts_without` (optional, spec §17.1), read after `hosts`: the schema has refused a core
 * type already; a vocabulary the runner does not speak is named in the note and ignored. */
static void read_hosts_without(smcj_runner_t *r, const smct_json_t *without)
{
    if (!without) {
        return;
    }
    smct_buf_t note = {0};
    if (r->handshake_note) {
        smct_buf_puts(&note, r->handshake_note);
    }
    size_t before = note.len;
    smcj_host_absent_take(r, without, &note);
    if (note.len != before && smcj_buf_ok(&note)) {
        free(r->handshake_note);
        r->handshake_note = smcj_buf_take(&note);
    }
    smct_buf_free(&note);
}

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

/* A copy of `n` strings; NULL (out of memory recorded) when it fails with n > 0. */
static char **copy_strs(char *const *a, size_t n)
{
    char **out = smcj_calloc(n ? n : 1, sizeof(char *));
    for (size_t i = 0; out && i < n; i++) {
        out[i] = smcj_strdup(a[i]);
    }
    return out;
}

/* One entry point's declaration from the lists that apply to it (P.1 `per_entry`). */
static void fill_decl(smcj_decl_t *d, int protocol, char *const *dec, size_t nd, char *const *enc,
                      size_t nn, char *const *opts, size_t no)
{
    d->caps[0] = copy_strs(dec, nd);
    d->n_caps[0] = d->caps[0] ? nd : 0;
    d->caps[1] = copy_strs(enc, nn);
    d->n_caps[1] = d->caps[1] ? nn : 0;
    /* version 1 had no error-classes option: every version 1 runner promised classes */
    d->error_classes = protocol == 1 || smcj_caps_have(opts, no, "error-classes");
    d->error_offsets = d->error_classes && smcj_caps_have(opts, no, "error-offsets");
    d->shift = smcj_caps_have(opts, no, "shift");
    d->borrows_input = smcj_caps_have(opts, no, "borrows-input");
    d->pigeon_int64 = smcj_caps_have(opts, no, "pigeon-int64");
}

/* The lists of one `per_entry` member, each NULL when it does not replace the top-level one;
 * false when a list given is not an array of strings. */
typedef struct entry_lists {
    char **dec, **enc, **opts;
    size_t nd, nn, no;
    bool has_dec, has_enc, has_opts;
} entry_lists_t;

static void free_lists(entry_lists_t *l)
{
    smcj_free_strs(l->dec, l->nd);
    smcj_free_strs(l->enc, l->nn);
    smcj_free_strs(l->opts, l->no);
    memset(l, 0, sizeof *l);
}

static bool read_entry_lists(const smct_json_t *member, entry_lists_t *l)
{
    memset(l, 0, sizeof *l);
    if (!member) {
        return true;
    }
    if (member->type != SMCT_JSON_OBJECT) {
        return false;
    }
    const smct_json_t *caps = smct_json_get(member, "capabilities");
    const smct_json_t *d = caps ? smct_json_get(caps, "decode") : NULL;
    const smct_json_t *e = caps ? smct_json_get(caps, "encode") : NULL;
    const smct_json_t *o = smct_json_get(member, "options");
    l->has_dec = d != NULL;
    l->has_enc = e != NULL;
    l->has_opts = o != NULL;
    return (!caps || caps->type == SMCT_JSON_OBJECT) &&
           (!d || json_str_array(d, &l->dec, &l->nd)) &&
           (!e || json_str_array(e, &l->enc, &l->nn)) &&
           (!o || json_str_array(o, &l->opts, &l->no));
}

/* Version 2: `per_entry` replaces, per entry point, the lists it gives. False (with a reason
 * in `why`) when it is malformed. */
static bool fill_decls(smcj_runner_t *r, const smct_json_t *per_entry, char *const *opts, size_t no,
                       smct_buf_t *note, const char **why)
{
    if (per_entry && (r->protocol < 2 || per_entry->type != SMCT_JSON_OBJECT)) {
        *why = "\"per_entry\" must be an object, and only a version 2 runner may send it (P.1)";
        return false;
    }
    for (size_t k = 0; per_entry && k < per_entry->object.count; k++) {
        smc_entry_t e;
        const smct_str_t *key = &per_entry->object.members[k].key;
        if (!smct_entry_from_name(key->ptr, key->len, &e)) {
            smct_buf_printf(note, "%sunknown per_entry key \"", note->len ? "; " : "");
            smcj_buf_excerpt(note, key->ptr, key->len, 60);
            smct_buf_puts(note, "\" ignored");
        }
    }
    for (int e = 0; e < SMC_ENTRY_COUNT; e++) {
        entry_lists_t l;
        const smct_json_t *member =
            per_entry ? smct_json_get(per_entry, smct_entry_name((smc_entry_t)e)) : NULL;
        if (!read_entry_lists(member, &l)) {
            free_lists(&l);
            *why = "a \"per_entry\" member holds \"capabilities\": {\"decode\", \"encode\"} and "
                   "\"options\", each an array of strings (P.1)";
            return false;
        }
        fill_decl(&r->decl[e], r->protocol, l.has_dec ? l.dec : r->decode_caps,
                  l.has_dec ? l.nd : r->n_decode_caps, l.has_enc ? l.enc : r->encode_caps,
                  l.has_enc ? l.nn : r->n_encode_caps, l.has_opts ? l.opts : opts,
                  l.has_opts ? l.no : no);
        size_t nf = sizeof KNOWN_FEATURES / sizeof KNOWN_FEATURES[0];
        unknown_words(note, "decode capability", l.dec, l.nd, KNOWN_FEATURES, nf);
        unknown_words(note, "encode capability", l.enc, l.nn, KNOWN_FEATURES, nf);
        unknown_words(note, "option", l.opts, l.no, KNOWN_OPTIONS,
                      sizeof KNOWN_OPTIONS / sizeof KNOWN_OPTIONS[0]);
        free_lists(&l);
    }
    return true;
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
    if (proto != 1 && proto != 2) {
        return smcj_asprintf("runner speaks protocol %lld; this judge speaks protocols 1 and 2",
                             (long long)proto);
    }
    smct_buf_t unknown = {0};
    char *fault = smcj_protocol_fault(resp, "hello_reply", &unknown);
    if (fault || !smcj_buf_ok(&unknown)) {
        smct_buf_free(&unknown);
        /* spec §17.1: the schema lists only the types that may be stated absent */
        bool core = fault && strstr(fault, "`hosts_without.") != NULL;
        char *m = fault ? smcj_asprintf("hello answer: %s%s", fault,
                                        core ? "; a core type of a vocabulary cannot be stated "
                                               "absent (P.1 hosts_without, spec §17.1)"
                                             : "")
                        : NULL;
        free(fault);
        return m;
    }
    if (!first_start || !unknown.len) {
        smct_buf_free(&unknown);
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
    r->protocol = (int)proto;
    const smct_json_t *codec = smct_json_get(resp, "codec");
    r->codec_name = opt_str(codec, "name");
    r->codec_version = opt_str(codec, "version");
    r->codec_language = opt_str(codec, "language");
    smct_buf_t note = {0};
    if (unknown.len) {
        /* P.1: fields this protocol does not know, named and ignored */
        smct_buf_printf(&note, "unknown hello fields ignored: %s", unknown.data);
        smct_buf_free(&unknown);
    }
    for (size_t i = 0; i < ne; i++) {
        smc_entry_t e;
        if (smct_entry_from_name(entries[i], strlen(entries[i]), &e)) {
            r->entry_ok[e] = true;
        } else {
            /* a misspelt entry ("messages") would make every check of it n/a unsaid */
            smct_buf_printf(&note, "%sunknown entry \"", note.len ? "; " : "");
            smcj_buf_excerpt(&note, entries[i], strlen(entries[i]), 60);
            smct_buf_puts(&note, "\" ignored");
        }
    }
    smcj_free_strs(entries, ne);
    r->decode_caps = dec;
    r->n_decode_caps = nd;
    r->encode_caps = enc;
    r->n_encode_caps = nn;
    size_t nf = sizeof KNOWN_FEATURES / sizeof KNOWN_FEATURES[0];
    unknown_words(&note, "decode capability", dec, nd, KNOWN_FEATURES, nf);
    unknown_words(&note, "encode capability", enc, nn, KNOWN_FEATURES, nf);
    unknown_words(&note, "option", opts, no, KNOWN_OPTIONS,
                  sizeof KNOWN_OPTIONS / sizeof KNOWN_OPTIONS[0]);
    const char *why = NULL;
    if (!fill_decls(r, smct_json_get(resp, "per_entry"), opts, no, &note, &why)) {
        smcj_free_strs(opts, no);
        smct_buf_free(&note);
        return smcj_strdup(why);
    }
    if (proto == 2 && smcj_caps_have(opts, no, "error-offsets") &&
        !smcj_caps_have(opts, no, "error-classes")) {
        smct_buf_printf(&note,
                        "%serror-offsets without error-classes ignored: offsets are compared only "
                        "with classes (P.1)",
                        note.len ? "; " : "");
    }
    /* a failed note records out of memory (smcj_buf_ok): never a silently empty one */
    r->handshake_note = smcj_buf_ok(&note) && note.len ? smcj_buf_take(&note) : NULL;
    smct_buf_free(&note);
    r->opt_error_offsets = r->decl[SMC_ENTRY_MESSAGE].error_offsets;
    r->opt_shift = smcj_caps_have(opts, no, "shift");
    r->map_order = smcj_caps_have(dec, nd, "map-order");
    smcj_free_strs(opts, no);
    char *bad = read_hosts(r, smct_json_get(resp, "hosts"));
    if (!bad) {
        read_hosts_without(r, smct_json_get(resp, "hosts_without"));
    }
    return bad;
}

static char *read_hosts(smcj_runner_t *r, const smct_json_t *hosts)
{
    if (!hosts) {
        return NULL;
    }
    if (!json_str_array(hosts, &r->hosts, &r->n_hosts)) {
        smcj_free_strs(r->hosts, r->n_hosts); /* what was copied before the bad element */
        r->hosts = NULL;
        r->n_hosts = 0;
        return smcj_strdup("hello answer's \"hosts\" is not an array of strings (P.1)");
    }
    smct_buf_t note = {0};
    if (r->handshake_note) {
        smct_buf_puts(&note, r->handshake_note);
    }
    size_t before = note.len;
    unknown_words(&note, "host vocabulary", r->hosts, r->n_hosts, KNOWN_HOSTS,
                  sizeof KNOWN_HOSTS / sizeof KNOWN_HOSTS[0]);
    if (note.len != before && smcj_buf_ok(&note)) {
        free(r->handshake_note);
        r->handshake_note = smcj_buf_take(&note);
    }
    smct_buf_free(&note);
    return NULL;
}

void smcj_hello_line(smct_buf_t *b)
{
    /* version 1 runners read `protocol` and ignore `protocols` (P.1); protocol text, byte-exact:
     * every replay command and file repeats this line */
    smct_buf_puts(b, "{\"seq\":0,\"op\":\"hello\",\"protocol\":1,\"protocols\":[1,2]}");
}
