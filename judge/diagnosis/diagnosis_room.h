/**
 * @file diagnosis_room.h
 * @brief The diagnosis/ room of the judge: likely causes of the failures
 *        (spec/bugs-in-the-wild.md).
 *
 * Each runner's failing checks replayed through the bug catalogue's variant codec (diag_replay.h)
 * and the catalogued bugs that explain them named, with what is left unexplained (diagnosis.h). It
 * uses verdict/, run/, vectors/ and base/.
 *
 * This header is the room's offer: it includes every header of the room that another room
 * (or the judge's users) may include, and scripts/check_layers.py fails when one is missing.
 */
#ifndef SMCJ_DIAGNOSIS_ROOM_H
#define SMCJ_DIAGNOSIS_ROOM_H

#include "diag_replay.h"
#include "diagnosis.h"

#endif /* SMCJ_DIAGNOSIS_ROOM_H */
