/* Status tables, expanded from SMC_STATUS_LIST so codes, classes and messages cannot drift. */
#include "smc_internal.h"

const char *smc_status_str(smc_status_t status)
{
    switch (status) {
#define SMC_STATUS_MESSAGE_CASE(name, code, cls, msg)                                              \
    case name:                                                                                     \
        return msg;
        SMC_STATUS_LIST(SMC_STATUS_MESSAGE_CASE)
#undef SMC_STATUS_MESSAGE_CASE
    }
    return "unknown status";
}

const char *smc_status_class(smc_status_t status)
{
    switch (status) {
#define SMC_STATUS_CLASS_CASE(name, code, cls, msg)                                                \
    case name:                                                                                     \
        return cls;
        SMC_STATUS_LIST(SMC_STATUS_CLASS_CASE)
#undef SMC_STATUS_CLASS_CASE
    }
    return "unknown status";
}

const char *smc_status_name(smc_status_t status)
{
    switch (status) {
#define SMC_STATUS_NAME_CASE(name, code, cls, msg)                                                 \
    case name:                                                                                     \
        return #name;
        SMC_STATUS_LIST(SMC_STATUS_NAME_CASE)
#undef SMC_STATUS_NAME_CASE
    }
    return "unknown status";
}
