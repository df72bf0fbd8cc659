/**
 * @file reports.h
 * @brief The four report writers: text (stdout), JSON (report.schema.json), JUnit XML, HTML.
 */
#ifndef SMCJ_REPORTS_H
#define SMCJ_REPORTS_H

#include "alloc.h"
#include "escape.h"
#include "model.h"

/** Summary lines, the runners × sections matrix, failure details, the gate verdict. */
void smcj_report_text(smct_buf_t *b, const smcj_run_t *run);

/** Machine-readable report; shape in judge/report.schema.json. */
void smcj_report_json(smct_buf_t *b, const smcj_run_t *run);

/** JUnit XML: a testsuite per runner, a testcase per vector. */
void smcj_report_junit(smct_buf_t *b, const smcj_run_t *run);

/** One self-contained HTML page. */
void smcj_report_html(smct_buf_t *b, const smcj_run_t *run);

#endif /* SMCJ_REPORTS_H */
