/*
 * smc-mutants: prints the bug catalogue (smcm_catalogue.h), one entry per line, or as JSON
 * (--json) for scripts: the vector generator, the annex check, the differential replay.
 */
#include <stdio.h>
#include <string.h>

#include "smcm_catalogue.h"
#include "smct_buf.h"
#include "smct_json.h"

static const char *parts_name(unsigned parts)
{
    return parts == SMCM_BOTH ? "decoder+encoder" : parts == SMCM_DEC ? "decoder" : "encoder";
}

int main(int argc, char **argv)
{
    bool json = argc == 2 && strcmp(argv[1], "--json") == 0;
    if (argc > 2 || (argc == 2 && !json)) {
        fprintf(stderr, "usage: smc-mutants [--json]\n");
        return 2;
    }
    smct_buf_t b;
    smct_buf_init(&b);
    if (json) {
        smct_buf_puts(&b, "[");
    }
    for (unsigned i = 0; i < SMCM_BUG_COUNT; i++) {
        const smcm_entry_t *e = smcm_entry((smcm_bug_t)i);
        if (!json) {
            smct_buf_printf(&b, "%-28s §%-5s %-8s %-16s %s%s — %s\n", e->id, e->section,
                            e->requirement, parts_name(e->parts),
                            smcm_is_control(e) ? "[control] " : "", e->what, e->shipped);
            continue;
        }
        smct_buf_puts(&b, i ? ",\n {\"id\":" : "\n {\"id\":");
        smct_json_write_cstr(&b, e->id);
        smct_buf_puts(&b, ",\"section\":");
        smct_json_write_cstr(&b, e->section);
        smct_buf_puts(&b, ",\"requirement\":");
        smct_json_write_cstr(&b, e->requirement);
        smct_buf_printf(&b, ",\"decoder\":%s,\"encoder\":%s,\"control\":%s,\"what\":",
                        (e->parts & SMCM_DEC) ? "true" : "false",
                        (e->parts & SMCM_ENC) ? "true" : "false",
                        smcm_is_control(e) ? "true" : "false");
        smct_json_write_cstr(&b, e->what);
        smct_buf_puts(&b, ",\"shipped\":");
        smct_json_write_cstr(&b, e->shipped);
        smct_buf_puts(&b, "}");
    }
    if (json) {
        smct_buf_puts(&b, "\n]\n");
    }
    if (!smct_buf_ok(&b)) {
        fprintf(stderr, "smc-mutants: out of memory\n");
        return 1;
    }
    fwrite(b.data, 1, b.len, stdout);
    smct_buf_free(&b);
    return 0;
}
