/**
 * @file reports.h
 * @brief The four report writers: text (stdout), JSON (report.schema.json), JUnit XML, HTML.
 *
 * Each is a function of the report model (report_model.h): it prints what the model holds
 * and counts nothing itself.
 */
#ifndef SMCJ_REPORTS_H
#define SMCJ_REPORTS_H

#include "alloc.h"
#include "escape.h"
#include "model.h"
#include "report_model.h"

/** Summary lines, the runners × sections matrix, failure details, the gate verdict. */
void smcj_report_text(smct_buf_t *b, const smcj_report_model_t *m);

/** Machine-readable report; shape in judge/report.schema.json. */
void smcj_report_json(smct_buf_t *b, const smcj_report_model_t *m);

/** JUnit XML: a testsuite per runner, a testcase per vector. */
void smcj_report_junit(smct_buf_t *b, const smcj_report_model_t *m);

/** One self-contained HTML page. */
void smcj_report_html(smct_buf_t *b, const smcj_report_model_t *m);

#endif /* SMCJ_REPORTS_H */
