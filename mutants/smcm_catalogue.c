/* The catalogue table and its lookups (smcm_catalogue.h). */
#include "smcm_catalogue.h"

#include <stdio.h>
#include <string.h>

#define SMCM_IS_CONTROL(id) (strncmp((id), "control-", 8) == 0)

static const smcm_entry_t k_entries[SMCM_BUG_COUNT] = {
#define SMCM_BUG_ROW(name, id, parts, section, req, what, who)                                     \
    {SMCM_##name, id, parts, section, req, what, who},
    SMCM_CATALOGUE(SMCM_BUG_ROW)
#undef SMCM_BUG_ROW
};

const smcm_entry_t *smcm_entry(smcm_bug_t bug)
{
    return (unsigned)bug < SMCM_BUG_COUNT ? &k_entries[bug] : NULL;
}

/* The control flag follows from the id, so a table row cannot get it wrong. */
bool smcm_is_control(const smcm_entry_t *e)
{
    return e && SMCM_IS_CONTROL(e->id);
}

const smcm_entry_t *smcm_lookup(const char *id, size_t len)
{
    for (size_t i = 0; i < SMCM_BUG_COUNT; i++) {
        if (strlen(k_entries[i].id) == len && memcmp(k_entries[i].id, id, len) == 0) {
            return &k_entries[i];
        }
    }
    return NULL;
}

smcm_bugs_t smcm_catalogue_all(void)
{
    smcm_bugs_t all = {0, 0};
    for (size_t i = 0; i < SMCM_BUG_COUNT; i++) {
        if (smcm_is_control(&k_entries[i])) {
            continue;
        }
        all.decoder |= (k_entries[i].parts & SMCM_DEC) ? SMCM_BIT(i) : 0;
        all.encoder |= (k_entries[i].parts & SMCM_ENC) ? SMCM_BIT(i) : 0;
    }
    return all;
}

bool smcm_parse_bugs(const char *list, smcm_bugs_t *out, char *err, size_t err_size)
{
    out->decoder = out->encoder = 0;
    if (!list || strcmp(list, "none") == 0) {
        return true;
    }
    const char *p = list;
    while (*p) {
        const char *end = strchr(p, ',');
        size_t n = end ? (size_t)(end - p) : strlen(p);
        const char *at = memchr(p, '@', n);
        size_t id_len = at ? (size_t)(at - p) : n;
        if (n > 0) {
            const smcm_entry_t *e = smcm_lookup(p, id_len);
            if (!e) {
                snprintf(err, err_size, "unknown bug `%.*s` (see spec/bugs-in-the-wild.md)",
                         (int)id_len, p);
                return false;
            }
            unsigned parts = e->parts;
            if (at) {
                size_t part_len = n - id_len - 1;
                if (part_len == 7 && memcmp(at + 1, "decoder", 7) == 0) {
                    parts &= SMCM_DEC;
                } else if (part_len == 7 && memcmp(at + 1, "encoder", 7) == 0) {
                    parts &= SMCM_ENC;
                } else {
                    parts = 0;
                }
                if (parts == 0) {
                    snprintf(
                        err, err_size,
                        "`%.*s`: %s cannot live there (want @decoder or @encoder where it applies)",
                        (int)n, p, e->id);
                    return false;
                }
            }
            out->decoder |= (parts & SMCM_DEC) ? SMCM_BIT(e->bug) : 0;
            out->encoder |= (parts & SMCM_ENC) ? SMCM_BIT(e->bug) : 0;
        }
        p = end ? end + 1 : p + n;
    }
    return true;
}
