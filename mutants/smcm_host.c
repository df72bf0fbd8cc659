/* The host side of the variant encoder (smcm_host.h). */
#include "smcm_host.h"

#include <string.h>

#include "smcm_internal.h"

/* The 32-bit float scalar types of spec §17's tables (written as `f32-widened`, R17-4). */
static const char *const k_f32_types[][2] = {
    {"kotlin", "Float"}, {"swift", "Float"}, {"any", "float32"}};

static bool is_type(const smct_json_t *host, const char *vocab, const char *vocab_want,
                    const char *type)
{
    return strcmp(vocab, vocab_want) == 0 && smct_json_is_str(smct_json_get(host, "type"), type);
}

static bool is_f32_scalar(const char *vocab, const smct_json_t *host)
{
    for (size_t i = 0; i < sizeof k_f32_types / sizeof k_f32_types[0]; i++) {
        if (is_type(host, vocab, k_f32_types[i][0], k_f32_types[i][1])) {
            return true;
        }
    }
    return false;
}

typedef struct marks {
    const smc_value_t **nodes;
    size_t n, cap;
    smc_arena_t *arena;
    bool nomem;
} marks_t;

static void mark(marks_t *m, const smc_value_t *v)
{
    if (m->n == m->cap) {
        size_t cap = m->cap ? 2 * m->cap : 8;
        const smc_value_t **p = smc_arena_alloc(m->arena, cap * sizeof *p);
        if (!p) {
            m->nomem = true;
            return;
        }
        if (m->n) {
            memcpy(p, m->nodes, m->n * sizeof *p);
        }
        m->nodes = p;
        m->cap = cap;
    }
    m->nodes[m->n++] = v;
}

/* The float64 nodes of `wire` that host value `host` holds as 32-bit floats: the two trees
 * walked side by side (a list's elements and a map's pairs are in the same order in both). */
static void find_f32(const char *vocab, const smct_json_t *host, const smc_value_t *wire,
                     marks_t *m)
{
    const smct_json_t *x = smct_json_get(host, "value");
    if (!wire || !x) {
        return;
    }
    if (wire->type == SMC_TYPE_F64 && is_f32_scalar(vocab, host)) {
        mark(m, wire);
    } else if (wire->type == SMC_TYPE_LIST && x->type == SMCT_JSON_ARRAY &&
               smct_json_count(x) == wire->list.count) {
        for (size_t i = 0; i < wire->list.count; i++) {
            find_f32(vocab, smct_json_at(x, i), &wire->list.items[i], m);
        }
    } else if (wire->type == SMC_TYPE_MAP && x->type == SMCT_JSON_ARRAY &&
               smct_json_count(x) == wire->map.count) {
        for (size_t i = 0; i < wire->map.count; i++) {
            const smct_json_t *pair = smct_json_at(x, i);
            find_f32(vocab, smct_json_at(pair, 0), &wire->map.entries[2 * i], m);
            find_f32(vocab, smct_json_at(pair, 1), &wire->map.entries[2 * i + 1], m);
        }
    }
}

/* A Dart Uint64List as DART's codec writes it (D44): a List of Dart ints, each element's bit
 * pattern read as a signed 64-bit int, written by value (int32 when it fits, R4.2-4). */
static smc_value_t *uint64s_as_ints(const smct_json_t *host, smc_arena_t *arena)
{
    const smct_json_t *x = smct_json_get(host, "value");
    if (!x || x->type != SMCT_JSON_ARRAY) {
        return NULL;
    }
    size_t n = smct_json_count(x);
    smc_value_t *list = smc_value_make_list(arena, n);
    for (size_t i = 0; list && i < n; i++) {
        const smct_json_t *e = smct_json_at(x, i);
        uint64_t u;
        if (!e || e->type != SMCT_JSON_STRING || e->str.len == 0) {
            return NULL;
        }
        u = 0;
        for (size_t k = 0; k < e->str.len; k++) {
            char c = e->str.ptr[k];
            uint64_t digit = (uint64_t)(c - '0');
            if (c < '0' || c > '9' || u > (UINT64_MAX - digit) / 10) {
                return NULL; /* not a decimal u64 (the loader checked it: cannot happen) */
            }
            u = u * 10 + digit;
        }
        int64_t s = (int64_t)u; /* two's complement on every platform this builds on */
        list->list.items[i].type = s >= INT32_MIN && s <= INT32_MAX ? SMC_TYPE_I32 : SMC_TYPE_I64;
        if (list->list.items[i].type == SMC_TYPE_I32) {
            list->list.items[i].i32 = (int32_t)s;
        } else {
            list->list.items[i].i64 = s;
        }
    }
    return list;
}

/* Lower-case hex of decimal text `dec` (an optional '-', then digits), as Java's
 * BigInteger.toString(16) writes it: repeated division by 16 of the decimal digits. */
static smc_value_t *hex_of_decimal(smct_str_t dec, smc_arena_t *arena)
{
    bool neg = dec.len > 0 && dec.ptr[0] == '-';
    size_t n = dec.len - (neg ? 1 : 0);
    if (n == 0) {
        return NULL;
    }
    uint8_t *digits = smc_arena_alloc(arena, n);
    char *hex = smc_arena_alloc(arena, n + 2); /* never more hex digits than decimal ones */
    if (!digits || !hex) {
        return NULL;
    }
    for (size_t i = 0; i < n; i++) {
        char c = dec.ptr[(neg ? 1 : 0) + i];
        if (c < '0' || c > '9') {
            return NULL;
        }
        digits[i] = (uint8_t)(c - '0');
    }
    size_t len = 0, first = 0;
    while (first < n) {
        unsigned rem = 0;
        for (size_t i = first; i < n; i++) {
            unsigned cur = rem * 10u + digits[i];
            digits[i] = (uint8_t)(cur / 16u);
            rem = cur % 16u;
        }
        hex[len++] = "0123456789abcdef"[rem];
        while (first < n && digits[first] == 0) {
            first++;
        }
    }
    bool zero = len == 1 && hex[0] == '0';
    if (neg && !zero) {
        hex[len++] = '-';
    }
    for (size_t i = 0; i < len / 2; i++) { /* the digits came least significant first */
        char t = hex[i];
        hex[i] = hex[len - 1 - i];
        hex[len - 1 - i] = t;
    }
    return smc_value_make_largeint(arena, hex, len);
}

/* A host big integer as largeint-written writes it (D2): Kotlin's BigInteger (a decimal
 * literal) as its lower-case hex text, the `c` vocabulary's largeInt as its own text. NULL
 * when `host` is neither. */
static smc_value_t *largeint_of(const char *vocab, const smct_json_t *host, smc_arena_t *arena)
{
    const smct_json_t *x = smct_json_get(host, "value");
    if (!x || x->type != SMCT_JSON_STRING) {
        return NULL;
    }
    if (is_type(host, vocab, "kotlin", "BigInteger")) {
        return hex_of_decimal(x->str, arena);
    }
    if (is_type(host, vocab, "c", "SMC_TYPE_LARGEINT")) {
        return smc_value_make_largeint(arena, x->str.ptr, x->str.len);
    }
    return NULL;
}

void smcm_host_encode(smcm_set_t bugs, const char *vocab, const smct_json_t *host,
                      const smct_doc_t *wire, smc_arena_t *arena, smcm_answer_t *out)
{
    memset(out, 0, sizeof *out);
    out->doc.entry = SMC_ENTRY_MESSAGE;
    if (!wire) {
        if (smcmi_on(bugs, SMCM_UINT64S_AS_INTS) && is_type(host, vocab, "dart", "Uint64List")) {
            smct_doc_t doc = {.entry = SMC_ENTRY_MESSAGE, .value = uint64s_as_ints(host, arena)};
            if (!doc.value) {
                out->kind = SMCM_UNKNOWN;
                out->why = "a Uint64List literal not modelled";
                return;
            }
            smcm_encode(bugs, &doc, arena, out);
            return;
        }
        smc_value_t *big =
            smcmi_on(bugs, SMCM_LARGEINT_WRITTEN) ? largeint_of(vocab, host, arena) : NULL;
        if (big) {
            smct_doc_t doc = {.entry = SMC_ENTRY_MESSAGE, .value = big};
            smcm_encode(bugs, &doc, arena, out);
            return;
        }
        out->kind = SMCM_ERROR; /* the spec's refusal, which no catalogued bug changes here */
        out->error_class = "not_encodable";
        return;
    }
    marks_t m = {.arena = arena};
    if (smcmi_on(bugs, SMCM_F32_FOUR_BYTES) && wire->entry == SMC_ENTRY_MESSAGE) {
        find_f32(vocab, host, wire->value, &m);
    }
    if (m.nomem) {
        out->kind = SMCM_UNKNOWN;
        out->why = "out of memory while modelling";
        return;
    }
    smcmi_encode_marked(bugs, wire, m.nodes, m.n, arena, out);
}
