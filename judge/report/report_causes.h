/**
 * @file report_causes.h
 * @brief The diagnosis (diagnosis.h) in every report: the text "Likely causes" block, the
 *        order of failure details by cause, the JSON `diagnosis` object, the HTML causes
 *        table and the JUnit failure message's cause.
 */
#ifndef SMCJ_REPORT_CAUSES_H
#define SMCJ_REPORT_CAUSES_H

#include <stddef.h>

#include "model.h"
#include "report_kinds.h"
#include "smct_buf.h"
#include "smct_json_writer.h"

/** One group of failure details: a cause, an unexplained group, or everything else. */
typedef struct smcj_detail_group {
    char *label;     /* "cause: …", "unexplained: …" */
    size_t *vectors; /* vectors with details (smcj_status_has_details), in report order */
    size_t n_vectors;
    size_t cap; /* room in vectors (internal) */
} smcj_detail_group_t;

/** The text block: likely causes of runner r's failures, then the unexplained ones. */
void smcj_causes_text(smct_buf_t *b, const smcj_run_t *run, const smcj_runner_t *r);

/**
 * Failure details of runner r grouped by cause: each vector under its first cause, else its
 * unexplained group; gated failures first within a group. Free with smcj_detail_groups_free.
 * NULL (*n 0) when out of memory.
 */
smcj_detail_group_t *smcj_detail_groups(const smcj_run_t *run, const smcj_runner_t *r, size_t *n);
void smcj_detail_groups_free(smcj_detail_group_t *g, size_t n);

/** One likely cause as the JSON report states it: the diagnosis's (diagnosis.h, borrowed),
 *  the vectors of the checks it names, and its crashes and rejections by kind. */
typedef struct smcj_report_cause {
    const struct smcj_cause *cause;
    size_t *contradicted_by, n_contradicted_by; /* vectors of its contradicting checks */
    size_t *accidental, n_accidental;           /* vectors of its accidental passes */
    smcj_kinds_t crashes, rejections;
} smcj_report_cause_t;

/** A runner's diagnosis as the JSON report states it (the report model's). */
typedef struct smcj_report_diagnosis {
    const struct smcj_diagnosis *d; /* NULL: it did not run (no member is written) */
    size_t probes, probes_refused;  /* diagnosis probes answered and refused (diag_probes.h) */
    bool probes_off;                /* --no-probes sent none it would have had */
    char *probes_line;              /* smcj_probes_line: what every report states; NULL: none */
    smcj_report_cause_t *causes;    /* like d->causes */
} smcj_report_diagnosis_t;

/** Runner r's diagnosis for the JSON report. False when out of memory; free it either way. */
bool smcj_report_diagnosis_build(smcj_report_diagnosis_t *out, const smcj_run_t *run,
                                 const smcj_runner_t *r);
void smcj_report_diagnosis_free(smcj_report_diagnosis_t *dm);

/** The member `diagnosis`, into the open object of w (nothing when the runner did not run). */
void smcj_causes_json(smct_jw_t *w, const smcj_vectors_t *vs, const smcj_report_diagnosis_t *dm);

/** What the diagnosis says of vector vi of runner r: whether it was diagnosed (a failure it
 *  looked at), the ids of the causes that explain it in the diagnosis's order (heap array of
 *  static strings, *ids NULL when none) and its unexplained group's signature, or NULL.
 *  False when out of memory. */
bool smcj_causes_of_vector(const smcj_runner_t *r, size_t vi, bool *diagnosed, const char ***ids,
                           size_t *n_ids, const char **unexplained);

/** The HTML causes table of runner r; example links go to `#f-<runner index>-<vector index>`. */
void smcj_causes_html(smct_buf_t *b, const smcj_run_t *run, const smcj_runner_t *r, size_t ri);

/** What the diagnosis probes of runner r were (diag_probes.h): how many it answered and
 *  refused, or that --no-probes sent none it would have had; NULL when it had none. Every
 *  report states it: text and HTML in the diagnosis block, JUnit as a property, JSON as
 *  `probes`, `probes_refused`, `probes_off`. Free with free(). */
char *smcj_probes_line(const smcj_runner_t *r);

/** "likely cause: …" or "no catalogued bug explains it: …" for vector vi; NULL if none. */
char *smcj_cause_note(const smcj_runner_t *r, size_t vi);

#endif /* SMCJ_REPORT_CAUSES_H */
