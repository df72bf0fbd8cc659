/* Names of smct_status_t values and the error record (see smct_error.h). */
#include "smct_error.h"

const char *smct_status_name(smct_status_t status)
{
    switch (status) {
#define SMCT_STATUS_CASE(name, value, str, meaning)                                                \
    case name:                                                                                     \
        return str;
        SMCT_STATUS_LIST(SMCT_STATUS_CASE)
#undef SMCT_STATUS_CASE
    }
    return "unknown";
}

smct_status_t smct_error_set(smct_error_t *err, smct_status_t status, size_t offset,
                             const char *message)
{
    if (err != NULL) {
        err->status = status;
        err->offset = offset;
        err->message = message;
    }
    return status;
}
