/* Names of smct_status_t values (see smct_error.h). */
#include "smct_error.h"

const char *smct_status_name(smct_status_t status)
{
    switch (status) {
    case SMCT_OK:
        return "ok";
    case SMCT_ERR_SYNTAX:
        return "syntax";
    case SMCT_ERR_DEPTH:
        return "depth";
    case SMCT_ERR_NOTATION:
        return "notation";
    case SMCT_ERR_NOMEM:
        return "nomem";
    case SMCT_ERR_TOO_LARGE:
        return "too_large";
    case SMCT_ERR_IO:
        return "io";
    case SMCT_ERR_NO_NOTATION:
        return "no_notation";
    case SMCT_ERR_USAGE:
        return "usage";
    }
    return "unknown";
}
