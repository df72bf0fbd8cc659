/**
 * @file diagnosis.h
 * @brief Diagnosis: which known bugs (spec/bugs-in-the-wild.md, mutants/) explain a
 *        runner's failures.
 *
 * For each runner, every failing check is replayed through every catalogue entry (in the
 * decoder, the encoder, or both), and an entry reproduces a check when a codec with that bug
 * gives exactly the runner's answer. The causes named are the set of up to four entries that
 * explains most failing checks (diag_search.h: a beam search over sets; a set explains a check
 * when a subset of it reproduces it), each member earning its place: it explains failures the
 * others do not and, among the checks the runner passed, fails at most a twentieth as many as
 * it adds (a pass that another named bug masks does not count against it). Failing vectors no
 * cause explains are grouped by what differs (the check, the reason, and for bytes the
 * byte-level classification of diag_bytes.h).
 *
 * Diagnosis reads verdicts and never changes one; with no failing check it does no work.
 */
#ifndef SMCJ_DIAGNOSIS_H
#define SMCJ_DIAGNOSIS_H

#include <stdbool.h>
#include <stddef.h>

#include "model.h"
#include "smcm_catalogue.h"

/** A catalogue entry named as a cause of a runner's failures. */
typedef struct smcj_cause {
    smcm_bug_t bug;
    unsigned where;      /* SMCM_DEC and/or SMCM_ENC: where it reproduces the failures */
    smcm_set_t partners; /* entries some of its failures needed too (together only) */
    size_t *vectors;     /* failing vectors it explains, alone or with partners, in vector order */
    size_t n_vectors;
    size_t checks;         /* failing checks it reproduces */
    size_t alone;          /* failing vectors it alone fails or reproduces: its rank */
    size_t contradicted;   /* passing checks the named causes fail only because of this one */
    size_t *contra_checks; /* those checks (indices in r->checks), in check order */
    size_t n_contra_checks;
    /* of them, the accidental passes (diag_accidental.h): rejected for another reason the
     * runner shows on valid vectors, no evidence against it (indices in r->checks) */
    size_t *accidental_checks;
    size_t n_accidental;
} smcj_cause_t;

/** Failing vectors no cause explains, grouped by what differs. */
typedef struct smcj_diag_group {
    char *key;  /* grouping key (numbers blanked) */
    char *text; /* the first member's description, as shown */
    size_t *vectors;
    size_t n_vectors;
    size_t cap; /* room in vectors (internal) */
} smcj_diag_group_t;

typedef struct smcj_diagnosis {
    size_t
        failing; /* failing vectors diagnosed (raw outcome fail, no crash/timeout/protocol error) */
    size_t ungated;   /* of them, those that differ or fail outside the gate (not counted) */
    size_t explained; /* of them, those whose every failing check some cause reproduces */
    size_t harness;   /* failing vectors with a timeout, protocol error or exhausted resources: not
                         replayable (a crash is replayed by its kind) */
    size_t contradicted_together; /* passing checks a codec with every cause at once would fail */
    size_t as_reference;  /* failing checks a codec with no catalogued bug answers the same way */
    size_t replays;       /* replays made */
    size_t not_replayed;  /* failing vectors over SMCJ_REPLAY_MAX_INPUT: never replayed */
    smcj_cause_t *causes; /* ranked: the largest bug first (alone), then most vectors */
    size_t n_causes;
    smcj_diag_group_t *groups; /* unexplained, largest first */
    size_t n_groups;
    smcm_set_t *by_vector; /* per vector: the causes that explain it (0: none) */
    size_t *group_of;      /* per vector: its unexplained group, or SIZE_MAX */
    char **
        what_differs; /* per check: what differs in a wrong_bytes or wrong_value failure, or NULL */
    size_t n_checks;  /* entries of what_differs */
    double seconds;
} smcj_diagnosis_t;

/** Diagnose every runner that ran (fills runner->diagnosis); verdicts are left as they are. */
void smcj_diagnose_run(smcj_run_t *run);

/** Diagnosis probes (judge/diag_probes.h): whether runner r gets them (the diagnosis may
 *  excuse an accidental pass of it: an entry without `error-classes`, and a failing check of
 *  a selected vector). */
bool smcj_diagnosis_probes_runner(const smcj_runner_t *r, const smcj_vectors_t *vs);

/** Whether vector v is a probe: outside the selection, valid, and its value holds an element
 *  of a container (what a refused feature is learned from, diag_accidental.h). */
bool smcj_diagnosis_probes_vector(const smcj_vector_t *v);

/** Free a diagnosis and the struct itself (NULL is fine). */
void smcj_diagnosis_free(smcj_diagnosis_t *d);

/** "padding counted from the bytes remaining (pad-from-remaining, spec §3.1) in the decoder". */
char *smcj_cause_title(const smcj_cause_t *c);

/** "in the decoder", "in the encoder", "in the decoder and the encoder". */
const char *smcj_cause_where(const smcj_cause_t *c);

/** The index in d->causes of the first cause of vector vi, or SIZE_MAX. */
size_t smcj_first_cause_of(const smcj_diagnosis_t *d, size_t vi);

#endif /* SMCJ_DIAGNOSIS_H */
