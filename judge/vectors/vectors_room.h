/**
 * @file vectors_room.h
 * @brief The vectors/ room of the judge: the vector set read and proved (spec/vectors.md).
 *
 * The vector files loaded and checked against vectors/schema.json (vectors.h, schema.h), one
 * vector's fields (vector_fields.h, host vectors' included), the set proved by MANIFEST.json
 * against the release built in (manifest.h), the directory a run uses (vectors_dir.h) and the
 * complexity family file (complexity_family.h). It uses base/ only.
 *
 * This header is the room's offer: it includes every header of the room that another room
 * (or the judge's users) may include, and scripts/check_layers.py fails when one is missing.
 */
#ifndef SMCJ_VECTORS_ROOM_H
#define SMCJ_VECTORS_ROOM_H

#include "complexity_family.h"
#include "host_absent.h"
#include "manifest.h"
#include "schema.h"
#include "vector_fields.h"
#include "vectors.h"
#include "vectors_dir.h"

#endif /* SMCJ_VECTORS_ROOM_H */
