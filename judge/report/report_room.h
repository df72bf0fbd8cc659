/**
 * @file report_room.h
 * @brief The report/ room of the judge: the four reports: text, JSON, JUnit, HTML.
 *
 * The report model built once after the run (report_model.h), the writers that print it
 * (reports.h) and what they share, the matrix, hex diffs and replay commands
 * (report_util.h). It uses every room below it.
 *
 * This header is the room's offer: it includes every header of the room that another room
 * (or the judge's users) may include, and scripts/check_layers.py fails when one is missing.
 */
#ifndef SMCJ_REPORT_ROOM_H
#define SMCJ_REPORT_ROOM_H

#include "report_model.h"
#include "report_util.h"
#include "reports.h"

#endif /* SMCJ_REPORT_ROOM_H */
