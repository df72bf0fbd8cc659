/**
 * @file json_keys.h
 * @brief The first key a JSON tree holds twice in one object.
 *
 * The notation's JSON reader keeps duplicate keys (lookups find the first), while Python's
 * json module keeps the last: one text, two readings. A runner line (runners/PROTOCOL.md P.3)
 * or a vector file (spec/vectors.md V.1) with a doubled key is refused instead, so the judge
 * and every other reader see the same thing (a doubled `id` would pass the duplicate-id check
 * under one reading and not the other).
 */
#ifndef SMCJ_JSON_KEYS_H
#define SMCJ_JSON_KEYS_H

#include <stdbool.h>

#include "smct_json.h"

/** The second occurrence of the first key found twice in one object of `root` (every object
 *  of the tree, without recursion), or NULL: none, or out of memory (`*oom` set, recorded). */
const smct_str_t *smcj_json_doubled_key(const smct_json_t *root, bool *oom);

#endif /* SMCJ_JSON_KEYS_H */
