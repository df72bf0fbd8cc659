/**
 * @file smcm_host.h
 * @brief The host side of the variant encoder: what a host with the catalogue's host-encode
 *        bugs hands its encoder for a host value (spec §17, encode-from-host vectors).
 *
 * The variant codec has no host types; a host value is modelled by the wire value the spec
 * writes it as, with the few host facts a catalogued bug needs: which float64 nodes were
 * 32-bit floats (f32-four-bytes, D42) and whether the value is a Dart Uint64List
 * (uint64s-as-ints, D44), and the text of a host big integer the spec refuses (Kotlin's
 * BigInteger, the `c` vocabulary's largeInt: largeint-written, D2). Every other host bug
 * shows on the wire value itself and is the variant encoder's.
 */
#ifndef SMCM_HOST_H
#define SMCM_HOST_H

#include "smcm_codec.h"
#include "smct_json.h"

#ifdef __cplusplus
extern "C" {
#endif

/**
 * Encode host value `host` ({"type": T, "value": X}, parsed) of vocabulary `vocab` as an
 * encoder with `bugs` on writes it. `wire` is the wire value the spec writes it as, or NULL
 * where the spec refuses it (not_encodable). With no host bug on, the answer is smcm_encode's
 * of `wire`, or the refusal. Fills `out` (always); SMCM_UNKNOWN where a bug applies to a part
 * of a value the spec refuses whole (nothing tells what the rest would be).
 */
void smcm_host_encode(smcm_set_t bugs, const char *vocab, const smct_json_t *host,
                      const smct_doc_t *wire, smc_arena_t *arena, smcm_answer_t *out);

#ifdef __cplusplus
}
#endif

#endif /* SMCM_HOST_H */
