/* Internals shared by the variant decoder and encoder (never included outside mutants/). */
#ifndef SMCM_INTERNAL_H
#define SMCM_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>

#include "smc/smc.h"
#include "smcm_codec.h"

/** True if `bug` is in `bugs`. */
static inline bool smcmi_on(smcm_set_t bugs, smcm_bug_t bug)
{
    return (bugs & SMCM_BIT(bug)) != 0;
}

/** Maps above this many entries are not modelled under map-sorted / map-dedup-* (cost). */
#define SMCMI_MAP_MODEL_MAX 4096u

/**
 * The entries of `map` as a codec with map-sorted / map-dedup-first / map-dedup-last in
 * `bugs` holds them: a new array of 2 × *count values (key, value, …) in `arena`, or the
 * map's own array when none of those bugs is on (nan-key-merges drops an entry too). False
 * when out of memory, when the map is larger than SMCMI_MAP_MODEL_MAX and a map bug is on, or
 * under nan-key-merges when a NaN key sits among more than two float64 keys (not modelled).
 */
bool smcmi_map_entries(smcm_set_t bugs, const smc_value_t *map, smc_arena_t *arena,
                       smc_value_t **entries, size_t *count);

/**
 * smcm_encode with `f32_nodes[0..n_f32)`: the float64 nodes of `doc` that the host value held
 * as 32-bit floats (smcm_host.c), which f32-four-bytes writes with a 4-byte payload.
 */
void smcmi_encode_marked(smcm_set_t bugs, const smct_doc_t *doc,
                         const smc_value_t *const *f32_nodes, size_t n_f32, smc_arena_t *arena,
                         smcm_answer_t *out);

#endif /* SMCM_INTERNAL_H */
