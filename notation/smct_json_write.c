/*
 * JSON output (smct_json.h): strings escaped so the result is always valid JSON (ill-formed
 * UTF-8 becomes U+FFFD, Unicode's maximal-subpart rule), and a parsed tree written back in
 * compact form without recursion.
 */
#include "smct_json.h"

#include <stdlib.h>
#include <string.h>

#include "smct_utf8.h"

void smct_json_write_string(smct_buf_t *b, const void *s, size_t len)
{
    static const char hex[] = "0123456789abcdef";
    const uint8_t *p = s;
    smct_buf_putc(b, '"');
    size_t run_start = 0;
    size_t i = 0;
    while (i < len) {
        uint8_t c = p[i];
        if (c >= 0x20 && c < 0x80 && c != '"' && c != '\\') {
            i++; /* the common byte, tested first: a message's hex is megabytes of these */
            continue;
        }
        const char *esc = NULL;
        char ubuf[7];
        size_t skip = 1;
        if (c == '"') {
            esc = "\\\"";
        } else if (c == '\\') {
            esc = "\\\\";
        } else if (c < 0x20) {
            switch (c) {
            case '\b':
                esc = "\\b";
                break;
            case '\f':
                esc = "\\f";
                break;
            case '\n':
                esc = "\\n";
                break;
            case '\r':
                esc = "\\r";
                break;
            case '\t':
                esc = "\\t";
                break;
            default:
                ubuf[0] = '\\';
                ubuf[1] = 'u';
                ubuf[2] = '0';
                ubuf[3] = '0';
                ubuf[4] = hex[c >> 4];
                ubuf[5] = hex[c & 0x0f];
                ubuf[6] = '\0';
                esc = ubuf;
                break;
            }
        } else if (c >= 0x80) {
            size_t n = smct_utf8_seq_len(p + i, len - i);
            if (n > 0) {
                i += n;
                continue;
            }
            esc = "\\ufffd";
            skip = smct_utf8_bad_len(p + i, len - i);
        } else {
            i++;
            continue;
        }
        smct_buf_append(b, p + run_start, i - run_start);
        smct_buf_puts(b, esc);
        i += skip;
        run_start = i;
    }
    if (len > run_start) {
        smct_buf_append(b, p + run_start, len - run_start);
    }
    smct_buf_putc(b, '"');
}

void smct_json_write_cstr(smct_buf_t *b, const char *s)
{
    if (s == NULL) {
        smct_buf_puts(b, "null");
        return;
    }
    smct_json_write_string(b, s, strlen(s));
}

typedef struct wframe {
    const smct_json_t *node;
    size_t next;
} wframe_t;

void smct_json_write(smct_buf_t *b, const smct_json_t *v)
{
    wframe_t *stack = NULL;
    size_t n = 0;
    size_t cap = 0;
    const smct_json_t *cur = v;
    for (;;) {
        /* write `cur` (a scalar entirely, a container's opening) */
        if (cur != NULL) {
            switch (cur->type) {
            case SMCT_JSON_NULL:
                smct_buf_puts(b, "null");
                break;
            case SMCT_JSON_TRUE:
                smct_buf_puts(b, "true");
                break;
            case SMCT_JSON_FALSE:
                smct_buf_puts(b, "false");
                break;
            case SMCT_JSON_NUMBER:
                smct_buf_append(b, cur->number.ptr, cur->number.len);
                break;
            case SMCT_JSON_STRING:
                smct_json_write_string(b, cur->str.ptr, cur->str.len);
                break;
            case SMCT_JSON_ARRAY:
            case SMCT_JSON_OBJECT:
                if (!smct_grow_array((void **)&stack, &cap, n + 1, sizeof *stack)) {
                    b->failed = true;
                    free(stack);
                    return;
                }
                smct_buf_putc(b, cur->type == SMCT_JSON_ARRAY ? '[' : '{');
                stack[n++] = (wframe_t){cur, 0};
                break;
            }
        }
        cur = NULL;
        /* find the next child to write, closing finished containers */
        while (n > 0) {
            wframe_t *f = &stack[n - 1];
            size_t count = smct_json_count(f->node);
            if (f->next < count) {
                if (f->next > 0) {
                    smct_buf_putc(b, ',');
                }
                if (f->node->type == SMCT_JSON_ARRAY) {
                    cur = &f->node->array.items[f->next];
                } else {
                    const smct_json_member_t *m = &f->node->object.members[f->next];
                    smct_json_write_string(b, m->key.ptr, m->key.len);
                    smct_buf_putc(b, ':');
                    cur = &m->value;
                }
                f->next++;
                break;
            }
            smct_buf_putc(b, f->node->type == SMCT_JSON_ARRAY ? ']' : '}');
            n--;
        }
        if (cur == NULL) {
            break;
        }
    }
    free(stack);
}
