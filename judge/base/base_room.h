/**
 * @file base_room.h
 * @brief The base/ room of the judge: what every room of the judge shares.
 *
 * The data model of a run (model.h: vectors, runners, checks, results, the statuses' table),
 * values compared as a host holds them (compare.h), allocation with out of memory as a sticky
 * state (alloc.h), untrusted text made safe (escape.h), input files read without trusting them
 * (input_file.h), doubled JSON keys (json_keys.h), what is kept of a failing check's values
 * (kept_value.h) and SHA-256 (sha256.h). It uses nothing of the judge.
 *
 * This header is the room's offer: it includes every header of the room that another room
 * (or the judge's users) may include, and scripts/check_layers.py fails when one is missing.
 */
#ifndef SMCJ_BASE_ROOM_H
#define SMCJ_BASE_ROOM_H

#include "alloc.h"
#include "compare.h"
#include "escape.h"
#include "input_file.h"
#include "json_keys.h"
#include "kept_value.h"
#include "model.h"
#include "sha256.h"

#endif /* SMCJ_BASE_ROOM_H */
