/*
 * spec §17.1, runners/PROTOCOL.md P.1 `hosts_without`: the codec author names, as
 * "vocabulary:Type" words, the host types the codec's API cannot take or give. The kit states
 * them once, in the hello, and answers a host_encode of a value holding one `skipped` without
 * building it: the judge then reports the vector as not applicable, with the statement as the
 * reason. Nothing is stated unless the author says so (P.8, modest defaults).
 */
#include "runner_host_without.h"

#include <string.h>

#include "smct_json.h"

/* Host values nest no deeper than this (runner_host_value.c reads none deeper). */
#define WITHOUT_MAX_DEPTH 64

/* The type of word "vocabulary:Type" when it is of `vocabulary`, else NULL. */
static const char *type_of(const char *word, const char *vocabulary)
{
    size_t n = strlen(vocabulary);
    return strncmp(word, vocabulary, n) == 0 && word[n] == ':' ? word + n + 1 : NULL;
}

void smc_runner_write_hosts_without(smct_jw_t *w, const smc_runner_codec_t *codec)
{
    const char *const *words = codec->host_types_without;
    if (!words || !words[0]) {
        return;
    }
    smct_jw_key(w, "hosts_without");
    smct_jw_object(w);
    for (size_t v = 0; codec->host_vocabularies && codec->host_vocabularies[v]; v++) {
        const char *vocabulary = codec->host_vocabularies[v];
        bool any = false;
        for (size_t i = 0; words[i]; i++) {
            const char *type = type_of(words[i], vocabulary);
            if (!type) {
                continue;
            }
            if (!any) {
                smct_jw_key(w, vocabulary);
                smct_jw_array(w);
                any = true;
            }
            smct_jw_str(w, type);
        }
        if (any) {
            smct_jw_end_array(w);
        }
    }
    smct_jw_end_object(w);
}

static const char *absent_in(const char *const *words, const char *vocabulary,
                             const smc_runner_host_value_t *hv, int depth)
{
    if (depth > WITHOUT_MAX_DEPTH) {
        return NULL;
    }
    for (size_t i = 0; hv->type && words[i]; i++) {
        const char *type = type_of(words[i], vocabulary);
        if (type && strcmp(type, hv->type) == 0) {
            return type;
        }
    }
    size_t n = hv->literal == SMC_RUNNER_LITERAL_PAIRS   ? 2 * hv->count
               : hv->literal == SMC_RUNNER_LITERAL_ITEMS ? hv->count
                                                         : 0;
    for (size_t i = 0; i < n; i++) {
        const char *found = absent_in(words, vocabulary, &hv->items[i], depth + 1);
        if (found) {
            return found;
        }
    }
    return NULL;
}

const char *smc_runner_stated_absent(const smc_runner_codec_t *codec, const char *vocabulary,
                                     const smc_runner_host_value_t *hv)
{
    return codec->host_types_without ? absent_in(codec->host_types_without, vocabulary, hv, 0)
                                     : NULL;
}
