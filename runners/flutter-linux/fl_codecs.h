/**
 * @file fl_codecs.h
 * @brief The engine's codecs as a Pigeon-generated GLib plug-in uses them: a subclass of
 *        FlStandardMessageCodec for custom values, and the standard method codec over it.
 */
#ifndef SMC_FL_CODECS_H
#define SMC_FL_CODECS_H

#include <stdbool.h>
#include <stddef.h>

#include "fl_api.h"

typedef struct smc_fl_codecs {
    void *message;                       /**< FlStandardMessageCodec (or our subclass) */
    void *method;                        /**< FlStandardMethodCodec over `message` */
    const smc_fl_method_vfuncs_t *calls; /**< FlMethodCodecClass's vfuncs of `method` */
    bool custom;                         /**< custom values go through our subclass */
    char custom_note[160];               /**< why not, when !custom */
} smc_fl_codecs_t;

/**
 * Make the codecs. Custom values need FL_VALUE_TYPE_CUSTOM, the exported
 * fl_standard_message_codec_read_value/write_value, and a derivable FlStandardMessageCodec
 * whose class struct has the size the public header gives; without them the plain codec is
 * used and `custom_note` says why.
 * @return false (with `err`) if the method codec's class is not the documented layout.
 */
bool smc_fl_codecs_make(const smc_fl_api_t *api, smc_fl_codecs_t *out, char *err, size_t err_size);

#endif /* SMC_FL_CODECS_H */
