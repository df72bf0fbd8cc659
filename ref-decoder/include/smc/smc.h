/**
 * @file smc.h
 * @brief Umbrella header of the StandardMessageCodec reference codec.
 *
 * Layers: smc_reader.h (cursor, no allocation) → smc_value.h (tree decode into an arena)
 * → smc_writer.h (canonical encoder) → smc_envelope.h (method calls, envelopes).
 * smc_status.h holds status codes and error classes, smc_types.h the value model.
 */
#ifndef SMC_H
#define SMC_H

#include "smc/smc_export.h"
#include "smc/smc_version.h"
#include "smc/smc_status.h"
#include "smc/smc_types.h"
#include "smc/smc_reader.h"
#include "smc/smc_value.h"
#include "smc/smc_writer.h"
#include "smc/smc_envelope.h"

#endif /* SMC_H */
