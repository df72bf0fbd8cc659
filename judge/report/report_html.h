/**
 * @file report_html.h
 * @brief The parts of the HTML report (reports.h smcj_report_html): the page and its
 *        navigation (report_html.c), the failure boxes (report_html_failures.c). Every box
 *        carries the data its filters read: data-ri (runner index), data-row (the matrix row
 *        of its section), data-tier, data-status and data-cause.
 */
#ifndef SMCJ_REPORT_HTML_H
#define SMCJ_REPORT_HTML_H

#include "model.h"
#include "report_model.h"
#include "report_util.h"
#include "smct_buf.h"

/** Text from a runner or a vector, escaped (escape.h): it never becomes markup. */
void smcj_html_esc(smct_buf_t *b, const char *s);

/** The failures section: per runner, its listed vectors grouped by likely cause, one box per
 *  vector with all its checks; box ids are `f-<runner index>-<vector index>`. */
void smcj_html_failures(smct_buf_t *b, const smcj_report_model_t *model);

#endif /* SMCJ_REPORT_HTML_H */
