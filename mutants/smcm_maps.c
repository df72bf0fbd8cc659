/*
 * Map bugs (spec §7.2, §7.3): entries sorted as C++'s std::map<EncodableValue, …> sorts them,
 * and duplicate keys merged as host maps merge them.
 */
#include <stdint.h>
#include <string.h>

#include "smcm_internal.h"

/* Index of the C++ EncodableValue variant alternative a value maps to (CPP keeps largeInt
 * as a string). std::variant's operator< compares this index first. */
static int variant_index(const smc_value_t *v)
{
    switch (v->type) {
    case SMC_TYPE_NULL:
        return 0;
    case SMC_TYPE_BOOL:
        return 1;
    case SMC_TYPE_I32:
        return 2;
    case SMC_TYPE_I64:
        return 3;
    case SMC_TYPE_F64:
        return 4;
    case SMC_TYPE_STR:
    case SMC_TYPE_LARGEINT:
        return 5;
    case SMC_TYPE_U8S:
        return 6;
    case SMC_TYPE_I32S:
        return 7;
    case SMC_TYPE_I64S:
        return 8;
    case SMC_TYPE_F64S:
        return 9;
    case SMC_TYPE_LIST:
        return 10;
    case SMC_TYPE_MAP:
        return 11;
    case SMC_TYPE_CUSTOM:
        return 12;
    case SMC_TYPE_F32S:
        return 13;
    }
    return 14;
}

static int sign(int64_t d)
{
    return d < 0 ? -1 : d > 0 ? 1 : 0;
}

static int cmp_double(double a, double b)
{
    return a < b ? -1 : b < a ? 1 : 0; /* NaN is "equivalent" to everything, as in C++ */
}

/* Lexicographic over element i of two typed arrays, then the shorter first. */
static int cmp_array(const smc_value_t *a, const smc_value_t *b)
{
    size_t n = a->array.count < b->array.count ? a->array.count : b->array.count;
    for (size_t i = 0; i < n; i++) {
        int c = 0;
        switch (a->type) {
        case SMC_TYPE_I32S:
            c = sign((int64_t)smc_i32s_at(&a->array, i) - smc_i32s_at(&b->array, i));
            break;
        case SMC_TYPE_I64S: {
            int64_t x = smc_i64s_at(&a->array, i), y = smc_i64s_at(&b->array, i);
            c = x < y ? -1 : x > y ? 1 : 0;
            break;
        }
        case SMC_TYPE_F64S:
            c = cmp_double(smc_f64_from_bits(smc_f64s_bits_at(&a->array, i)),
                           smc_f64_from_bits(smc_f64s_bits_at(&b->array, i)));
            break;
        case SMC_TYPE_F32S:
            c = cmp_double(smc_f32_from_bits(smc_f32s_bits_at(&a->array, i)),
                           smc_f32_from_bits(smc_f32s_bits_at(&b->array, i)));
            break;
        case SMC_TYPE_NULL:
        case SMC_TYPE_BOOL:
        case SMC_TYPE_I32:
        case SMC_TYPE_I64:
        case SMC_TYPE_LARGEINT:
        case SMC_TYPE_F64:
        case SMC_TYPE_STR:
        case SMC_TYPE_U8S:
        case SMC_TYPE_LIST:
        case SMC_TYPE_MAP:
        case SMC_TYPE_CUSTOM:
            break;
        }
        if (c) {
            return c;
        }
    }
    return a->array.count < b->array.count ? -1 : a->array.count > b->array.count ? 1 : 0;
}

/* std::variant / std::vector / std::map ordering of two values (CPP, D16). */
static int cmp_value(const smc_value_t *a, const smc_value_t *b, unsigned depth)
{
    int ia = variant_index(a), ib = variant_index(b);
    if (ia != ib) {
        return ia < ib ? -1 : 1;
    }
    if (depth > SMC_MAX_DEPTH_LIMIT) {
        return 0;
    }
    switch (a->type) {
    case SMC_TYPE_BOOL:
        return (int)a->boolean - (int)b->boolean;
    case SMC_TYPE_I32:
        return sign((int64_t)a->i32 - b->i32);
    case SMC_TYPE_I64:
        return a->i64 < b->i64 ? -1 : a->i64 > b->i64 ? 1 : 0;
    case SMC_TYPE_F64:
        return cmp_double(smc_f64_from_bits(a->f64_bits), smc_f64_from_bits(b->f64_bits));
    case SMC_TYPE_STR:
    case SMC_TYPE_LARGEINT:
    case SMC_TYPE_U8S: {
        /* char_traits<char> compares as unsigned char */
        size_t n = a->bytes.len < b->bytes.len ? a->bytes.len : b->bytes.len;
        int c = n ? memcmp(a->bytes.ptr, b->bytes.ptr, n) : 0;
        if (c) {
            return c < 0 ? -1 : 1;
        }
        return a->bytes.len < b->bytes.len ? -1 : a->bytes.len > b->bytes.len ? 1 : 0;
    }
    case SMC_TYPE_I32S:
    case SMC_TYPE_I64S:
    case SMC_TYPE_F64S:
    case SMC_TYPE_F32S:
        return cmp_array(a, b);
    case SMC_TYPE_LIST: {
        size_t n = a->list.count < b->list.count ? a->list.count : b->list.count;
        for (size_t i = 0; i < n; i++) {
            int c = cmp_value(&a->list.items[i], &b->list.items[i], depth + 1);
            if (c) {
                return c;
            }
        }
        return a->list.count < b->list.count ? -1 : a->list.count > b->list.count ? 1 : 0;
    }
    case SMC_TYPE_MAP: {
        size_t n = a->map.count < b->map.count ? a->map.count : b->map.count;
        for (size_t i = 0; i < 2 * n; i++) {
            int c = cmp_value(&a->map.entries[i], &b->map.entries[i], depth + 1);
            if (c) {
                return c;
            }
        }
        return a->map.count < b->map.count ? -1 : a->map.count > b->map.count ? 1 : 0;
    }
    case SMC_TYPE_NULL:
    case SMC_TYPE_CUSTOM: /* CustomEncodableValue has no useful order: equivalent */
        break;
    }
    return 0;
}

/* Stable merge sort of entry indices by key. */
static void sort_indices(const smc_value_t *entries, size_t *idx, size_t *tmp, size_t n)
{
    if (n < 2) {
        return;
    }
    size_t half = n / 2;
    sort_indices(entries, idx, tmp, half);
    sort_indices(entries, idx + half, tmp, n - half);
    size_t i = 0, j = half, k = 0;
    while (i < half && j < n) {
        /* take from the right only when strictly smaller: equal keys keep their order */
        if (cmp_value(&entries[2 * idx[j]], &entries[2 * idx[i]], 0) < 0) {
            tmp[k++] = idx[j++];
        } else {
            tmp[k++] = idx[i++];
        }
    }
    while (i < half) {
        tmp[k++] = idx[i++];
    }
    while (j < n) {
        tmp[k++] = idx[j++];
    }
    memcpy(idx, tmp, n * sizeof *idx);
}

static bool is_nan_key(const smc_value_t *key)
{
    return key->type == SMC_TYPE_F64 &&
           (key->f64_bits & 0x7ff0000000000000u) == 0x7ff0000000000000u &&
           (key->f64_bits & 0x000fffffffffffffu) != 0;
}

/* nan-key-merges (CPP, D40): std::map orders doubles with <, under which a NaN is equivalent
 * to every double, so of a NaN key and one other float64 key the one inserted second is
 * dropped (emplace keeps the first). Two NaN keys are duplicates or host-equal keys (D15,
 * D17), not this bug. With more float64 keys beside a NaN, which survive depends on the
 * red-black tree's shape: false (not modelled). *drop is the entry dropped, or SIZE_MAX. */
static bool nan_key_dropped(const smc_value_t *map, size_t *drop)
{
    size_t f64 = 0, nans = 0, second = 0;
    *drop = SIZE_MAX;
    for (size_t i = 0; i < map->map.count; i++) {
        const smc_value_t *key = &map->map.entries[2 * i];
        if (key->type == SMC_TYPE_F64) {
            second = f64 == 1 ? i : second;
            f64++;
            nans += is_nan_key(key) ? 1u : 0u;
        }
    }
    if (nans == 0 || f64 < 2) {
        return true;
    }
    if (f64 > 2) {
        return false;
    }
    *drop = nans == 1 ? second : SIZE_MAX;
    return true;
}

static bool is_zero_key(const smc_value_t *key)
{
    return key->type == SMC_TYPE_F64 && (key->f64_bits & 0x7fffffffffffffffu) == 0;
}

/* Two keys one host entry holds: duplicates (equal values) under map-dedup-*, and, under
 * signed-zero-keys-merged, 0.0 and -0.0 (equal under the host's ==, D17). */
static bool host_equal(const smc_value_t *a, const smc_value_t *b, bool dedup, bool zeros)
{
    if (zeros && is_zero_key(a) && is_zero_key(b) && a->f64_bits != b->f64_bits) {
        return true;
    }
    return dedup && smc_value_equal(a, b);
}

bool smcmi_map_entries(smcm_set_t bugs, const smc_value_t *map, smc_arena_t *arena,
                       smc_value_t **entries, size_t *count)
{
    bool sorted = smcmi_on(bugs, SMCM_MAP_SORTED);
    bool first = smcmi_on(bugs, SMCM_MAP_DEDUP_FIRST), last = smcmi_on(bugs, SMCM_MAP_DEDUP_LAST);
    bool zeros = smcmi_on(bugs, SMCM_SIGNED_ZERO_KEYS_MERGED);
    size_t n = map->map.count, drop = SIZE_MAX;
    *entries = map->map.entries;
    *count = n;
    if (smcmi_on(bugs, SMCM_NAN_KEY_MERGES) && !nan_key_dropped(map, &drop)) {
        return false;
    }
    if ((!sorted && !first && !last && !zeros && drop == SIZE_MAX) || n < 2) {
        return true;
    }
    if (n > SMCMI_MAP_MODEL_MAX) {
        return false;
    }
    size_t *idx = smc_arena_alloc(arena, 2 * n * sizeof *idx);
    smc_value_t *out = smc_arena_alloc(arena, 2 * n * sizeof *out);
    if (!idx || !out) {
        return false;
    }
    /* Merge duplicates first (the host map holds one entry per key, at the first key's
     * position), then order what is left. */
    size_t kept = 0;
    for (size_t i = 0; i < n; i++) {
        if (i == drop) {
            continue;
        }
        size_t k = (first || last || zeros) ? 0 : kept;
        while (k < kept && !host_equal(&map->map.entries[2 * idx[k]], &map->map.entries[2 * i],
                                       first || last, zeros)) {
            k++;
        }
        if (k < kept) {
            if (last) {
                /* remember the later value: store its index in the upper half */
                idx[n + k] = i;
            }
            continue;
        }
        idx[kept] = i;
        idx[n + kept] = i;
        kept++;
    }
    size_t *order = smc_arena_alloc(arena, 2 * kept * sizeof *order);
    if (!order) {
        return false;
    }
    for (size_t k = 0; k < kept; k++) {
        order[k] = k;
    }
    if (sorted) {
        /* sort positions 0..kept-1 by their key */
        smc_value_t *keys = smc_arena_alloc(arena, 2 * kept * sizeof *keys);
        if (!keys) {
            return false;
        }
        for (size_t k = 0; k < kept; k++) {
            keys[2 * k] = map->map.entries[2 * idx[k]];
        }
        sort_indices(keys, order, order + kept, kept);
    }
    for (size_t k = 0; k < kept; k++) {
        size_t slot = order[k];
        out[2 * k] = map->map.entries[2 * idx[slot]];
        out[2 * k + 1] = map->map.entries[2 * idx[n + slot] + 1];
    }
    *entries = out;
    *count = kept;
    return true;
}
