/**
 * @file run_room.h
 * @brief The run/ room of the judge: the runner processes and the protocol
 *        (runners/PROTOCOL.md P.1-P.4).
 *
 * Every runner's session at once (session.h), which sends the checks and reads the answers and
 * gives each answer back through its hooks: what a check expects and how an answer is judged are
 * not the run's to know. Also the hello and its answer (handshake.h), runner lines against the
 * protocol schema (protocol_check.h), a runner's pipes (runner_io.h), its processes (proc.h) and
 * what /proc says of them (proc_scan.h). It uses vectors/ and base/.
 *
 * This header is the room's offer: it includes every header of the room that another room
 * (or the judge's users) may include, and scripts/check_layers.py fails when one is missing.
 */
#ifndef SMCJ_RUN_ROOM_H
#define SMCJ_RUN_ROOM_H

#include "handshake.h"
#include "proc.h"
#include "proc_scan.h"
#include "protocol_check.h"
#include "runner_io.h"
#include "sandbox.h"
#include "session.h"

#endif /* SMCJ_RUN_ROOM_H */
