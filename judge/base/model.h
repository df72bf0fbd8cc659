/**
 * @file model.h
 * @brief The judge's data model: vectors (spec/vectors.md), runners, checks (one request
 *        each, runners/PROTOCOL.md P.5) and the per-vector results the reports print.
 */
#ifndef SMCJ_MODEL_H
#define SMCJ_MODEL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "compare.h"
#include "smc/smc.h"
#include "smct_doc.h"
#include "smct_summary.h"

/* ---- vectors ---- */

typedef enum smcj_tier {
    SMCJ_TIER_REQUIRED = 0,
    SMCJ_TIER_RECOMMENDED = 1,
    SMCJ_TIER_IMPLDEF = 2
} smcj_tier_t;

const char *smcj_tier_name(smcj_tier_t t);

/** The tier named `name` ("required", ...); false if there is none. */
bool smcj_tier_of_name(const char *name, smcj_tier_t *out);

/** One `accepted` alternative encoding (V.2). */
typedef struct smcj_accepted {
    char *hex;
    uint8_t *bytes;
    size_t len;
    char *why;
    char *strict_class; /* NULL: strict mode accepts it too */
} smcj_accepted_t;

/** One `error.alternatives[]` entry: the outcome under a permitted order (errors.md §14.2.1). */
typedef struct smcj_order_alt {
    char *cls;
    uint64_t offset;
    char *order;   /* "value-first", "all-values-first+elements-first", ... */
    bool modes[2]; /* [0] flutter, [1] strict: the modes it applies to */
} smcj_order_alt_t;

typedef enum smcj_alt_kind {
    SMCJ_ALT_NONE = 0, /* description only: no machine-readable outcome */
    SMCJ_ALT_VALUE,    /* decodes to `value` (strbytes included, notation.md N.1) */
    SMCJ_ALT_ERROR     /* fails with `cls` (NULL: any class) at `offset` (if has_offset) */
} smcj_alt_kind_t;

/** One `notes.alternatives[]` entry: what other implementations do (spec §1.1, V.2). */
typedef struct smcj_alternative {
    char *behaviour;
    char *who; /* the implementations, joined: "CPP, GLIB" */
    smcj_alt_kind_t kind;
    smct_doc_t value; /* SMCJ_ALT_VALUE, in the vectors' arena */
    char *value_text;
    char *cls; /* SMCJ_ALT_ERROR; NULL: an error whose class the spec does not assign */
    bool has_offset;
    uint64_t offset;
} smcj_alternative_t;

typedef struct smcj_vector {
    char *id;
    char *description;
    char *section;
    char *kind;
    char *file; /* base name of the file it came from */
    smcj_tier_t tier;
    /* the tier of the checks made in flutter [0] / strict [1] mode (V.2 by_mode) */
    smcj_tier_t mode_tier[2];
    char **requirements;
    size_t n_requirements;
    smc_entry_t entry;
    char **features;
    size_t n_features;
    char *focus; /* "$[2] at offset 5", or NULL */

    bool has_value;
    char *value_text; /* the vector's notation text, compact */
    smct_doc_t value; /* parsed (judge arena) */

    bool is_valid; /* value + canonical */
    char *canonical_hex;
    uint8_t *canonical;
    size_t canonical_len;
    smcj_accepted_t *accepted;
    size_t n_accepted;

    bool is_reject; /* hex + error */
    char *hex;
    uint8_t *bytes;
    size_t len;
    char *err_class;
    uint64_t err_offset;
    bool rejects_flutter;
    bool rejects_strict;
    smcj_order_alt_t *order_alts; /* error.alternatives: passes too, at the vector's tier */
    size_t n_order_alts;

    smcj_alternative_t *alts; /* notes.alternatives, in file order */
    size_t n_alts;

    /* spec §17 host-type vectors (kinds host_encode, host_decode; host_vectors.c) */
    bool is_host;
    bool host_decode;        /* decode-to-host; else encode-from-host */
    char *host;              /* the vocabulary: "swift", "kotlin", ... */
    char *host_value;        /* the host value, compact JSON text */
    char *host_alternatives; /* {type: [alternative types]} (spec §17.1), compact JSON, or NULL */
    bool host_refused;       /* encode-from-host: the value must be refused (not_encodable) */
    bool host_any_order;     /* encode-from-host: a host map whose order the spec does not pin */
    char **host_types;       /* the distinct type names of host_value, every node's */
    size_t n_host_types;

    bool selected;  /* passes the command-line filters */
    bool probe;     /* only while diagnosis probes are sent (diag_probes.h): one of them */
    unsigned shift; /* 1..7, derived from the id: the placement check's P.2 `shift` */
} smcj_vector_t;

typedef struct smcj_vectors {
    smcj_vector_t *v;
    size_t count;
    size_t selected;
    char **files; /* paths loaded */
    size_t n_files;
    char *dir;
    char *version;         /* V.1 vectors_version of the files: "0.2" (several: "0.1, 0.2") */
    smc_arena_t arena;     /* holds every parsed expected value */
    char **unknown_fields; /* field names this judge does not know, each once (ignored, V.4) */
    size_t n_unknown_fields;
    char **file_sha256; /* per file (like `files`): its SHA-256 in hex, or NULL if unread */
    char **integrity;   /* why the set is not the released one (manifest.c); none: it is */
    size_t n_integrity;
} smcj_vectors_t;

/* ---- checks: one request to a runner, or one reason it was not sent ---- */

typedef enum smcj_check_kind {
    SMCJ_CHECK_DECODE = 0,        /* P.5 1: canonical → value, flutter mode */
    SMCJ_CHECK_DECODE_STRICT = 1, /* canonical → value, strict mode (R1.4-7: strict accepts it) */
    SMCJ_CHECK_ENCODE = 2,        /* P.5 2: value → canonical */
    SMCJ_CHECK_ROUNDTRIP = 3,     /* P.5 3 */
    SMCJ_CHECK_ACCEPT = 4,        /* P.5 4: accepted[i], flutter → value */
    SMCJ_CHECK_ACCEPT_STRICT = 5, /* P.5 4: accepted[i], strict → its class, or value if null */
    SMCJ_CHECK_REJECT = 6,        /* P.5 reject: hex in one listed mode → class (+ offset) */
    SMCJ_CHECK_LENIENT = 7,       /* strict-only reject (V.2): hex in flutter mode → value */
    SMCJ_CHECK_HANDSHAKE = 8,     /* placeholder when the runner's handshake itself failed */
    SMCJ_CHECK_HOST_ENCODE = 9,   /* spec §17: a host value → its bytes, or not_encodable */
    SMCJ_CHECK_HOST_DECODE = 10,  /* spec §17: bytes → the host value (types by name) */
    SMCJ_CHECK_SELF = 11 /* R1.4-18: the encode check's own bytes → value (self_check.c) */
} smcj_check_kind_t;

typedef enum smcj_outcome {
    SMCJ_OUT_PENDING = 0,
    SMCJ_OUT_PASS,
    SMCJ_OUT_FAIL,
    SMCJ_OUT_SKIPPED,
    SMCJ_OUT_NA,
    SMCJ_OUT_UNSUPPORTED /* a clean rejection or skip of a vector needing a core feature the
                            runner lacks (spec R1.4-13): never a pass, never a silent loss */
} smcj_outcome_t;

#define SMCJ_REASON_LIST(X)                                                                        \
    X(NONE, "none")                                                                                \
    X(WRONG_VALUE, "wrong_value")                                                                  \
    X(WRONG_BYTES, "wrong_bytes")                                                                  \
    X(WRONG_CLASS, "wrong_class")                                                                  \
    X(WRONG_OFFSET, "wrong_offset")                                                                \
    X(UNEXPECTED_ERROR, "unexpected_error")                                                        \
    X(UNEXPECTED_SUCCESS, "unexpected_success")                                                    \
    X(CRASH, "crash")                                                                              \
    X(TIMEOUT, "timeout")                                                                          \
    X(PROTOCOL_ERROR, "protocol_error")                                                            \
    X(RESOURCE, "resource")                                                                        \
    X(UNCLASSIFIED, "unclassified_rejection")                                                      \
    X(JUDGE_ERROR, "judge_error") /* the judge could not judge the check: never the codec's */

typedef enum smcj_reason {
#define SMCJ_REASON_ENUM(name, str) SMCJ_REASON_##name,
    SMCJ_REASON_LIST(SMCJ_REASON_ENUM)
#undef SMCJ_REASON_ENUM
        SMCJ_REASON_COUNT
} smcj_reason_t;

const char *smcj_reason_name(smcj_reason_t r);

typedef struct smcj_check {
    smcj_check_kind_t kind;
    size_t vector;    /* index into smcj_vectors_t.v */
    size_t index;     /* accepted[index] for ACCEPT/ACCEPT_STRICT */
    bool strict;      /* request mode */
    bool placed;      /* the placement check: decoded at the vector's shift (spec §3.3) */
    smcj_tier_t tier; /* the tier of the rules this check tests (V.2 tier / by_mode) */
    int order_alt;    /* passed with error.alternatives[order_alt], else -1 */
    int alt;          /* failed the way notes.alternatives[alt] says, else -1 */
    /* What the runner's declaration makes the judge expect (expect.c; spec §1.4, P.5). */
    char *lacks;            /* core/profile features it needs and the runner lacks; NULL: none */
    bool lacks_core;        /* one of them is core: a clean rejection is `unsupported` */
    bool skip_is_clean;     /* encode: the host cannot build the value (a host feature) */
    bool robustness;        /* nesting vector, runner without depth-limit: R1.4-8 only */
    bool accepted_bomb;     /* robustness or reject: the runner decoded a value anyway */
    bool clean_refusal;     /* n/a because the runner rejected cleanly what it lacks */
    bool silent_loss;       /* another value where it lacks a feature: R1.4-13, a MUST */
    smcj_cmp_t cmp;         /* how decoded values compare (multisets, integers by value) */
    smcj_int_width_t width; /* how the expected bytes write integers (R4.2-4, R12.3-1) */
    bool any_order;         /* the expected bytes may order map entries as the host does */
    /* a type of the host value the runner states its API lacks (P.1 hosts_without, spec
     * §17.1), the vector's string; NULL: none */
    const char *host_absent;
    smcj_outcome_t outcome;
    smcj_reason_t reason;
    char *detail;       /* one line: why it failed / was skipped / is n/a */
    char *expected;     /* notation text or "class @ offset" */
    char *actual;       /* what the runner said (notation, class @ offset, or raw line) */
    uint8_t *exp_bytes; /* wrong_bytes: both byte strings for the hex diff */
    size_t exp_len;
    uint8_t *act_bytes;
    size_t act_len;
    /* what is kept of them (kept_value.h): exp_kept and act_kept bytes from offset
     * bytes_from of each (exp_len, act_len: the full sizes) */
    size_t bytes_from, exp_kept, act_kept;
    size_t first_difference; /* of the full byte strings */
    bool values_cut;         /* expected, actual or the bytes are a kept part, not whole */
    bool answer_cut;         /* actual or act_bytes are: no answer to compare a replay with */
    char *stderr_tail;       /* failures: the runner's last stderr lines at that moment */
    char *replay_file;       /* a request too long for a command line: where it is written */
    char *act_class;         /* an "error" answer: its class, for the diagnosis to replay against */
    char *act_kind;          /* a "crash" or "rejected" answer: its `kind` (P.3), for the reports */
    bool unclassified; /* the answer was "rejected": an unclassified rejection (spec R1.4-15) */
    bool act_has_offset;
    uint64_t act_offset;
    bool act_summary;         /* the runner answered a value with its P.3 summary ... */
    smct_summary_t act_shape; /* ... this one, for the diagnosis to replay against */
    /* spec R1.4-18 (self_check.c): ENCODE, the answer had bytes, and own_hex holds them when
     * they are not the vector's canonical bytes; SELF, the bytes it sends (NULL: canonical) */
    bool wrote_bytes;
    char *own_hex;
    bool own_too_long; /* ENCODE: its bytes were over SMCJ_SELF_MAX_HEX, not kept (self_check.h) */
    bool self_by_decode; /* SELF: decided by the decode check of the same bytes, not sent */
    bool host_merge;     /* differs: kept one of keys equal by value (one integer type, §7.3) */
} smcj_check_t;

/** Human label of a check: "decode", "encode", "decode accepted[1] strict", "reject strict"... */
void smcj_check_label(const smcj_check_t *c, char *out, size_t out_size);
/** Direction word: "decode", "encode" or "roundtrip". */
const char *smcj_check_direction(const smcj_check_t *c);

/* ---- per (runner, vector) result ---- */

/*
 * The statuses of a (runner, vector) result, defined once: every writer (text, JSON, JUnit,
 * HTML, the matrix) and every counter reads its columns from here, so a status added or
 * changed cannot be forgotten by one report (spec §1.4 says what each status means).
 *
 *   name, wire name (JSON `status`, the grid), CSS class (HTML), flags (SMCJ_STF_*),
 *   listing rank (the order failures are listed in; 0: not listed), heading (text and JUnit),
 *   what the outside-the-gate line calls it (NULL: it is not outside the gate), JUnit shape,
 *   runner counter (SMCJ_ST_COUNTER(field) of smcj_runner_t, or SMCJ_ST_NO_COUNTER),
 *   matrix cell counter (SMCJ_ST_COUNTER(field) of smcj_cell_t, or SMCJ_ST_NO_COUNTER).
 */
#define SMCJ_STATUS_LIST(X)                                                                        \
    X(NONE, "not-selected", "na", 0, 0, "NOT SELECTED", NULL, SMCJ_JUNIT_NONE, SMCJ_ST_NO_COUNTER, \
      SMCJ_ST_NO_COUNTER)                                                                          \
    X(PASS, "pass", "pass", SMCJ_STF_APPLICABLE, 0, "PASS", NULL, SMCJ_JUNIT_NONE,                 \
      SMCJ_ST_COUNTER(n_pass), SMCJ_ST_COUNTER(pass))                                              \
    X(FAIL, "fail", "fail", SMCJ_STF_APPLICABLE | SMCJ_STF_DETAILS | SMCJ_STF_FAILED, 1, "FAIL",   \
      NULL, SMCJ_JUNIT_FAILURE, SMCJ_ST_COUNTER(n_fail), SMCJ_ST_COUNTER(fail))                    \
    X(FAIL_INFO, "fail-ungated", "fail", SMCJ_STF_APPLICABLE | SMCJ_STF_DETAILS | SMCJ_STF_FAILED, \
      5, "FAIL (outside the gate)", "fail outside the gate", SMCJ_JUNIT_OUTPUT,                    \
      SMCJ_ST_COUNTER(n_fail_info), SMCJ_ST_COUNTER(fail_info))                                    \
    X(DIFFERS, "differs", "differs", SMCJ_STF_APPLICABLE | SMCJ_STF_DETAILS, 8,                    \
      "DIFFERS (implementation-defined, informational)",                                           \
      "differ (implementation-defined, informational)", SMCJ_JUNIT_OUTPUT,                         \
      SMCJ_ST_COUNTER(n_differs), SMCJ_ST_COUNTER(differs))                                        \
    X(XFAIL, "expected-failure", "xfail", SMCJ_STF_APPLICABLE | SMCJ_STF_FAILED, 0,                \
      "EXPECTED FAILURE", "expected failures", SMCJ_JUNIT_SKIPPED, SMCJ_ST_COUNTER(n_xfail),       \
      SMCJ_ST_COUNTER(xfail))                                                                      \
    X(XPASS, "unexpected-pass", "xpass", SMCJ_STF_APPLICABLE, 4, "UNEXPECTED PASS", NULL,          \
      SMCJ_JUNIT_FAILURE, SMCJ_ST_COUNTER(n_xpass), SMCJ_ST_COUNTER(xpass))                        \
    X(SKIPPED, "skipped", "skipped", SMCJ_STF_APPLICABLE, 0, "SKIPPED", NULL, SMCJ_JUNIT_SKIPPED,  \
      SMCJ_ST_COUNTER(n_skipped), SMCJ_ST_COUNTER(skipped))                                        \
    X(NA, "n/a", "na", 0, 0, "N/A", NULL, SMCJ_JUNIT_SKIPPED, SMCJ_ST_COUNTER(n_na),               \
      SMCJ_ST_COUNTER(na))                                                                         \
    X(PLACEMENT, "placement", "placement",                                                         \
      SMCJ_STF_APPLICABLE | SMCJ_STF_DETAILS | SMCJ_STF_FAILED, 2, "PLACEMENT", NULL,              \
      SMCJ_JUNIT_FAILURE, SMCJ_ST_COUNTER(n_placement), SMCJ_ST_COUNTER(placement))                \
    X(PLACEMENT_INFO, "placement-ungated", "placement",                                            \
      SMCJ_STF_APPLICABLE | SMCJ_STF_DETAILS | SMCJ_STF_FAILED, 6, "PLACEMENT (outside the gate)", \
      "fail placement outside the gate", SMCJ_JUNIT_OUTPUT, SMCJ_ST_COUNTER(n_placement_info),     \
      SMCJ_ST_COUNTER(placement))                                                                  \
    X(UNSUPPORTED, "unsupported", "unsupported", SMCJ_STF_APPLICABLE, 0, "UNSUPPORTED", NULL,      \
      SMCJ_JUNIT_SKIPPED, SMCJ_ST_COUNTER(n_unsupported), SMCJ_ST_COUNTER(unsupported))            \
    X(UNCLASSIFIED, "unclassified", "fail",                                                        \
      SMCJ_STF_APPLICABLE | SMCJ_STF_DETAILS | SMCJ_STF_FAILED, 3, "UNCLASSIFIED REJECTION", NULL, \
      SMCJ_JUNIT_FAILURE, SMCJ_ST_COUNTER(n_unclassified), SMCJ_ST_COUNTER(unclassified))          \
    X(UNCLASSIFIED_INFO, "unclassified-ungated", "fail",                                           \
      SMCJ_STF_APPLICABLE | SMCJ_STF_DETAILS | SMCJ_STF_FAILED, 7,                                 \
      "UNCLASSIFIED REJECTION (outside the gate)", "unclassified rejections outside the gate",     \
      SMCJ_JUNIT_OUTPUT, SMCJ_ST_COUNTER(n_unclassified_info), SMCJ_ST_COUNTER(unclassified))

/* What each status is (SMCJ_STATUS_LIST: FAIL_INFO, PLACEMENT_INFO, UNCLASSIFIED_INFO are
 * the same failures outside the gate; SMCJ_ST_UNSUPPORTED's gate is the runner's feature
 * verdict; SMCJ_ST_PLACEMENT is right at an aligned address only, spec §3.3;
 * SMCJ_ST_UNCLASSIFIED a rejection without the documented error, R1.4-15). */
typedef enum smcj_status {
#define SMCJ_STATUS_ENUM(name, ...) SMCJ_ST_##name,
    SMCJ_STATUS_LIST(SMCJ_STATUS_ENUM)
#undef SMCJ_STATUS_ENUM
        SMCJ_ST_COUNT
} smcj_status_t;

/* SMCJ_STATUS_LIST flags */
enum {
    SMCJ_STF_APPLICABLE = 1, /* the vector applied to the runner (neither n/a nor unselected) */
    SMCJ_STF_DETAILS = 2,    /* a failure or difference the reports show in full */
    SMCJ_STF_FAILED = 4      /* a wrong answer an expected-failure list may name (xfail.c) */
};

/* How JUnit shows a status (report_junit.c): nothing, <skipped>, <failure> (or <error> for a
 * harness failure), or <system-out> (outside the gate: the case passes). */
typedef enum smcj_junit_shape {
    SMCJ_JUNIT_NONE = 0,
    SMCJ_JUNIT_SKIPPED,
    SMCJ_JUNIT_FAILURE,
    SMCJ_JUNIT_OUTPUT
} smcj_junit_shape_t;

/** One row of SMCJ_STATUS_LIST. */
typedef struct smcj_status_info {
    const char *name;    /* wire name */
    const char *css;     /* HTML class */
    unsigned flags;      /* SMCJ_STF_* */
    unsigned rank;       /* listing order of failures, 1 first; 0: not listed */
    const char *heading; /* "FAIL (outside the gate)" */
    const char *outside; /* "fail outside the gate", or NULL */
    smcj_junit_shape_t junit;
} smcj_status_info_t;

/** The row of `s` (SMCJ_ST_NONE's for a value out of range). */
const smcj_status_info_t *smcj_status_info(smcj_status_t s);
/** The largest listing rank (SMCJ_STATUS_LIST). */
unsigned smcj_status_max_rank(void);
bool smcj_status_is(smcj_status_t s, unsigned flags);

const char *smcj_status_name(smcj_status_t s);

typedef struct smcj_result {
    smcj_status_t status;
    smcj_outcome_t outcome; /* raw wire-level outcome before gate/xfail (placement apart) */
    smcj_reason_t reason;   /* the deciding failing check's reason */
    size_t first_check;     /* index of the deciding failing (or skipped) check, or SIZE_MAX */
    smcj_tier_t tier;       /* tier of the deciding check (the vector's when nothing failed) */
    int alt;                /* notes.alternatives index the deciding check matched, else -1 */
    size_t placement_check; /* a failed placement check (status PLACEMENT*), else SIZE_MAX */
    smcj_tier_t placement_tier;
    const char *xfail_reason; /* borrowed from the xfail list */
    bool excusable;           /* an expected-failure list may excuse it (results.c, spec §1.4) */
    bool xfail_refused;       /* listed, but not excusable: judged as if not listed */
    bool host_merge; /* the deciding check kept one of keys equal by value (spec §7.3, R7.3-2) */
} smcj_result_t;

/* ---- expected-failure lists ---- */

typedef struct smcj_xfail_entry {
    char *pattern;
    char *reason;
    int line;
    bool is_glob;
    bool is_feature; /* `feature:WORD`: excuses the runner's `unsupported` verdict for WORD */
    size_t matched;  /* vector ids it matches (all loaded vectors); a feature line: 1 if used */
} smcj_xfail_entry_t;

typedef struct smcj_xfail {
    char *path;
    smcj_xfail_entry_t *entries;
    size_t count;
    size_t *exact; /* indices of the exact-id entries, sorted by id (lookups by bisection) */
    size_t n_exact;
} smcj_xfail_t;

/* ---- runners ---- */

/** What a runner declared for one entry point (P.1): the top-level capabilities and options,
 *  or those its `per_entry` object replaces for that entry. */
typedef struct smcj_decl {
    char **caps[2]; /* [0] decode, [1] encode; owned */
    size_t n_caps[2];
    bool error_classes; /* version 1 runners always (version 1 required classes) */
    bool error_offsets; /* declared, and error-classes too */
    bool shift;
    bool borrows_input;
    bool pigeon_int64;
} smcj_decl_t;

/** A core feature the runner lacks (spec §1.4, R1.4-11): one verdict per feature. */
typedef struct smcj_feature_verdict {
    const char *feature;      /* the V.3 word (static) */
    const char *rule;         /* the rule that makes it core (static) */
    bool decode, encode;      /* the directions that lack it */
    size_t vectors;           /* selected vectors that need it in one of those directions */
    const char *xfail_reason; /* the `feature:` line of the expected-failure list, or NULL */
} smcj_feature_verdict_t;

typedef struct smcj_runner {
    char *name;
    char *command;
    char *skip_reason;      /* --skip-runner: never started */
    char *xfail_path;       /* --xfail */
    char *write_xfail_path; /* --write-xfail */
    smcj_xfail_t xfail;
    bool has_xfail;

    bool started;       /* the first handshake succeeded */
    bool start_failed;  /* could not start at all (exit status 2) */
    bool handshake_bad; /* answered the first hello with something that is not the protocol */
    char *start_error;

    char *codec_name, *codec_version, *codec_language;
    bool entry_ok[SMC_ENTRY_COUNT]; /* by smc_entry_t */
    char **decode_caps;
    size_t n_decode_caps;
    char **encode_caps;
    size_t n_encode_caps;
    bool opt_error_offsets;
    bool opt_shift;
    bool map_order;                               /* decode caps contain map-order */
    int protocol;                                 /* the version the runner answered: 1 or 2 */
    smcj_decl_t decl[SMC_ENTRY_COUNT];            /* per entry point: what the checks go by */
    smcj_feature_verdict_t *unsupported_features; /* core features it lacks */
    size_t n_unsupported_features;
    char *handshake_note; /* unknown capability/option words in the hello answer, or NULL */
    char **hosts;         /* the host vocabularies it speaks (P.1 `hosts`, spec §17) */
    size_t n_hosts;
    /* P.1 `hosts_without` (spec §17.1): pairs of a spoken vocabulary and a type of it the
     * codec's API cannot take or give, as declared (unknown vocabularies left out) */
    char **without_host, **without_type;
    size_t n_without;

    smcj_check_t *checks;
    size_t n_checks;
    /* diagnosis probes (diag_probes.h): decode checks of valid vectors outside the selection,
     * sent after the verdicts only to learn what the runner refuses; never a verdict */
    smcj_check_t *probes;
    size_t n_probes;
    bool probes_off;        /* it would have been sent probes, and --no-probes sent none */
    smcj_result_t *results; /* one per vector (indexed like smcj_vectors_t.v) */

    unsigned restarts;
    bool gave_up;            /* could not complete a handshake: the only reason to give up */
    char *stop_reason;       /* why its remaining checks were not sent (a limit), or NULL */
    smcj_reason_t stop_kind; /* the reason those checks failed with */
    size_t n_unsent;         /* checks failed without an answer because of stop_reason / gave_up */
    unsigned timeouts;       /* requests that timed out */
    size_t requests_sent;
    double seconds;
    char *stderr_tail; /* at the end of the run */
    /* memory (proc_scan.h; 0 where /proc says nothing) */
    uint64_t peak_rss;     /* largest resident size seen of its process tree */
    uint64_t bomb_growth;  /* largest growth measured around a length-bomb check */
    size_t bomb_vector;    /* the vector of that growth, or SIZE_MAX */
    size_t bombs_measured; /* length-bomb checks measured */
    size_t strays;         /* escaped descendants killed (setsid, double fork) */

    /* totals over selected vectors */
    size_t n_pass, n_fail, n_fail_info, n_differs, n_xfail, n_xpass, n_skipped, n_na;
    size_t n_differs_listed;                    /* differs, in a way a vector's notes name */
    size_t n_placement, n_placement_info;       /* placement failures, gated and not */
    size_t n_unclassified, n_unclassified_info; /* unclassified rejections, gated and not */
    size_t n_skipped_gated; /* skipped, in a gated tier, not an expected failure: fails the gate */
    size_t n_xfail_unmatched;
    size_t n_xfail_refused;     /* listed vectors whose failure no list can excuse (results.c) */
    size_t n_core, n_core_pass; /* the mandatory core (spec §1.4): selected, and passed */
    bool no_message_entry;      /* lacks the message entry point: fails the gate (R1.4-16) */
    size_t n_unsupported;       /* vectors rejected cleanly for a missing core feature */
    size_t n_features_unlisted; /* unsupported core features no `feature:` line excuses */
    size_t n_robust;            /* nesting vectors checked for R1.4-8 only (no depth-limit) */
    size_t n_bombs_accepted;    /* of those, or of any reject vector: decoded anyway */
    /* spec R1.4-18: value vectors whose own bytes the runner decoded (a request, or the decode
     * check when they were the canonical ones), and those it could not read back */
    size_t n_self_checked, n_self_sent, n_self_failed;

    struct smcj_diagnosis *diagnosis;  /* likely causes of the failures (diagnosis.h), or NULL */
    struct smcj_cx_runner *complexity; /* time growth per family (complexity.h), or NULL */
} smcj_runner_t;

/** The counter of `r` that status `s` adds to (SMCJ_STATUS_LIST), or NULL (not selected). */
size_t *smcj_status_counter(smcj_runner_t *r, smcj_status_t s);

typedef enum smcj_gate {
    SMCJ_GATE_REQUIRED = 0,
    SMCJ_GATE_RECOMMENDED = 1,
    SMCJ_GATE_ALL = 2
} smcj_gate_t;

/** Everything one run produced, handed to the report writers. */
typedef struct smcj_run {
    smcj_vectors_t *vectors;
    smcj_runner_t *runners;
    size_t n_runners;
    smcj_gate_t gate;
    bool allow_xfail_crashes;             /* --allow-xfail-crashes, stated in every report */
    bool allow_modified_vectors;          /* --allow-modified-vectors, stated in every report */
    size_t n_excused, n_excused_features; /* expected failures, `feature:` lines used */
    double timeout;
    /* the limits that bound a hostile runner (session.h), shown in every report */
    double max_run_time;              /* 0: none */
    unsigned max_timeouts;            /* 0: none */
    unsigned max_restarts;            /* 0: none */
    unsigned max_restarts_per_vector; /* 0: none */
    uint64_t memory_limit;            /* resident bytes per runner; 0: none */
    bool out_of_time;                 /* --max-run-time ran out */
    size_t strays;                    /* escaped descendants killed at the end of the run */
    char *replay_dir;                 /* where large requests are written for replay, or NULL */
    double seconds;                   /* wall time of the runner phase */
    bool gate_passed;
    int exit_status;
    char **gate_notes; /* why the gate failed, one line each */
    size_t n_gate_notes;
    int max_details;
    bool list_na;     /* --list-na: name every not-applicable vector in the text report */
    char *argv0;      /* how to invoke the judge in replay lines */
    char *started_at; /* UTC ISO-8601 */
    /* spec §15.4 (complexity.h): the families timed, or NULL when none were */
    const struct smcj_cx_families *complexity;
    bool complexity_skipped; /* --no-complexity */
    /* the runner sandbox (sandbox.h), stated in every report */
    bool sandboxed;           /* every runner process ran inside bwrap */
    const char *sandbox_note; /* what it was, or why there was none (never NULL once run) */
} smcj_run_t;

/** True if the runner lists `word` in `caps`. */
bool smcj_caps_have(char *const *caps, size_t n, const char *word);

/** A byte count for people: "512 B", "12.0 KiB", "640.0 MiB", "2.0 GiB". */
void smcj_format_bytes(uint64_t n, char *out, size_t out_size);

#endif /* SMCJ_MODEL_H */
