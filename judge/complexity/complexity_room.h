/**
 * @file complexity_room.h
 * @brief The complexity/ room of the judge: complexity conformance (spec §15.4).
 *
 * The families timed on each runner by the CPU time of its process tree, the verdict on how fast
 * that time grows, the gate and the report parts every writer calls (complexity.h); the family
 * file itself is read in vectors/. It uses run/, vectors/ and base/.
 *
 * This header is the room's offer: it includes every header of the room that another room
 * (or the judge's users) may include, and scripts/check_layers.py fails when one is missing.
 */
#ifndef SMCJ_COMPLEXITY_ROOM_H
#define SMCJ_COMPLEXITY_ROOM_H

#include "complexity.h"

#endif /* SMCJ_COMPLEXITY_ROOM_H */
