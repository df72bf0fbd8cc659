/**
 * @file verdict_room.h
 * @brief The verdict/ room of the judge: what each check expects and what it got.
 *
 * The checks each vector gets and their requests (plan.h), the feature groups of spec §1.4
 * (profile.h), one answer's verdict (verdict.h), the self-consistency check (self_check.h), a
 * value's shape (shape.h), per-vector results, counts and the gate (results.h) and the expected-
 * failure lists (xfail.h). judge_main.c gives the planner and the verdict to the sessions as their
 * hooks. It uses run/, vectors/ and base/.
 *
 * This header is the room's offer: it includes every header of the room that another room
 * (or the judge's users) may include, and scripts/check_layers.py fails when one is missing.
 */
#ifndef SMCJ_VERDICT_ROOM_H
#define SMCJ_VERDICT_ROOM_H

#include "plan.h"
#include "profile.h"
#include "results.h"
#include "self_check.h"
#include "shape.h"
#include "verdict.h"
#include "xfail.h"

#endif /* SMCJ_VERDICT_ROOM_H */
