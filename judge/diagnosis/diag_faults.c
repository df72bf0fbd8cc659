/*
 * Host names of failures, by fault kind (see diag_faults.h). The names are those the hosts
 * of spec §1.4's *Crash or rejection* table throw for the failure: JAVA's OutOfMemoryError
 * for `new byte[0x7fffffff]` and NegativeArraySizeException for a size read as signed (D19),
 * its StackOverflowError and DART's (D22), JAVA's BufferUnderflowException and DART's
 * RangeError for a read past the end (D18, D32), CPP's std::bad_variant_access for a code or
 * message of another type (D31).
 */
#include "diag_faults.h"

#include <string.h>

typedef struct fault_name {
    const char *name;
    smcm_fault_t fault;
} fault_name_t;

static const fault_name_t k_names[] = {
    {"allocation", SMCM_FAULT_ALLOC},
    {"OutOfMemoryError", SMCM_FAULT_ALLOC},
    {"bad_alloc", SMCM_FAULT_ALLOC},
    {"negative-size", SMCM_FAULT_NEGATIVE},
    {"NegativeArraySizeException", SMCM_FAULT_NEGATIVE},
    {"recursion-depth", SMCM_FAULT_DEPTH},
    {"StackOverflowError", SMCM_FAULT_DEPTH},
    {"read-past-end", SMCM_FAULT_OVERREAD},
    {"BufferUnderflowException", SMCM_FAULT_OVERREAD},
    {"IndexOutOfBoundsException", SMCM_FAULT_OVERREAD},
    {"ArrayIndexOutOfBoundsException", SMCM_FAULT_OVERREAD},
    {"RangeError", SMCM_FAULT_OVERREAD},
    {"wrong-type", SMCM_FAULT_TYPE},
    {"bad_variant_access", SMCM_FAULT_TYPE},
};

/* The name after the last `.` or `::` (a qualified class name). */
static const char *last_part(const char *kind)
{
    const char *out = kind;
    for (const char *p = kind; *p; p++) {
        if (*p == '.' && p[1]) {
            out = p + 1;
        } else if (p[0] == ':' && p[1] == ':' && p[2]) {
            out = p + 2;
        }
    }
    return out;
}

smcm_fault_t smcj_fault_of_kind(const char *kind)
{
    if (!kind) {
        return SMCM_FAULT_NONE;
    }
    const char *name = last_part(kind);
    for (size_t i = 0; i < sizeof k_names / sizeof k_names[0]; i++) {
        if (strcmp(name, k_names[i].name) == 0) {
            return k_names[i].fault;
        }
    }
    return SMCM_FAULT_NONE;
}
