/* The codecs of fl_codecs.h. The subclass does what Pigeon's GObject generator writes for
 * each of its classes, for every custom tag: write_value writes the tag byte and then the
 * payload with fl_standard_message_codec_write_value; read_value_of_type reads the payload
 * with fl_standard_message_codec_read_value and wraps it in a custom FlValue. Everything else
 * goes to the engine's own implementation (the parent class). */
#include "fl_codecs.h"

#include <stdint.h>
#include <stdio.h>
#include <string.h>

/* FlMessageCodecClass = GObjectClass + 2 vfuncs; FlStandardMessageCodecClass 2 more. */
#define MESSAGE_CLASS_SIZE  (SMC_GOBJECT_CLASS_SIZE + 2u * sizeof(void *))
#define STANDARD_CLASS_SIZE (MESSAGE_CLASS_SIZE + sizeof(smc_fl_standard_vfuncs_t))
#define METHOD_CLASS_SIZE   (SMC_GOBJECT_CLASS_SIZE + sizeof(smc_fl_method_vfuncs_t))

/* GObject's class_init has no user data for us beyond the class: one engine per process. */
static const smc_fl_api_t *g_api;
static smc_fl_standard_vfuncs_t g_parent; /* the engine's implementation */

static smc_fl_standard_vfuncs_t *standard_vfuncs(void *klass)
{
    return (smc_fl_standard_vfuncs_t *)(void *)((char *)klass + MESSAGE_CLASS_SIZE);
}

static int pigeon_write_value(void *codec, smc_gbyte_array_t *buffer, smc_fl_value_t *value,
                              smc_gerror_t **error)
{
    /* the engine passes NULL for an absent value (an error's details), which it writes as
     * null; only a real value can be custom */
    if (value && g_api->value_get_type(value) == SMC_FL_CUSTOM) {
        int tag = g_api->value_get_custom_type(value);
        if (tag >= 128 && tag <= 255) {
            uint8_t byte = (uint8_t)tag;
            g_api->g_byte_array_append(buffer, &byte, 1);
            smc_fl_value_t *payload =
                (smc_fl_value_t *)(uintptr_t)g_api->value_get_custom_value(value);
            return g_api->standard_message_codec_write_value(codec, buffer, payload, error);
        }
    }
    return g_parent.write_value(codec, buffer, value, error);
}

static void unref_payload(void *p)
{
    g_api->value_unref(p);
}

static smc_fl_value_t *pigeon_read_value_of_type(void *codec, void *buffer, size_t *offset,
                                                 int type, smc_gerror_t **error)
{
    if (type >= 128 && type <= 255) {
        smc_fl_value_t *payload =
            g_api->standard_message_codec_read_value(codec, buffer, offset, error);
        if (!payload) {
            return NULL;
        }
        return g_api->value_new_custom(type, payload, unref_payload);
    }
    return g_parent.read_value_of_type(codec, buffer, offset, type, error);
}

static void pigeon_class_init(void *klass, void *data)
{
    (void)data;
    smc_fl_standard_vfuncs_t *v = standard_vfuncs(klass);
    v->write_value = pigeon_write_value;
    v->read_value_of_type = pigeon_read_value_of_type;
}

/* The subclass's type, or 0 with `note` saying why there is none. */
static smc_gtype_t pigeon_type(const smc_fl_api_t *api, char *note, size_t note_size)
{
    if (!api->value_new_custom || !api->value_get_custom_type || !api->value_get_custom_value ||
        !api->standard_message_codec_read_value || !api->standard_message_codec_write_value) {
        snprintf(note, note_size, "this engine exports no FL_VALUE_TYPE_CUSTOM API");
        return 0;
    }
    smc_gtype_t parent = api->standard_message_codec_get_type();
    smc_gtype_query_t q = {0, NULL, 0, 0};
    api->g_type_query(parent, &q);
    if (q.class_size != STANDARD_CLASS_SIZE) {
        snprintf(note, note_size,
                 "FlStandardMessageCodecClass is %u bytes, not the %zu of a class with "
                 "write_value and read_value_of_type",
                 q.class_size, (size_t)STANDARD_CLASS_SIZE);
        return 0;
    }
    g_api = api;
    g_parent = *standard_vfuncs(api->g_type_class_ref(parent));
    smc_gtype_t t = api->g_type_register_static_simple(parent, "SmcPigeonStyleCodec", q.class_size,
                                                       pigeon_class_init, q.instance_size, NULL, 0);
    if (!t) {
        snprintf(note, note_size, "FlStandardMessageCodec cannot be subclassed (final type)");
    }
    return t;
}

bool smc_fl_codecs_make(const smc_fl_api_t *api, smc_fl_codecs_t *out, char *err, size_t err_size)
{
    memset(out, 0, sizeof *out);
    smc_gtype_t t = pigeon_type(api, out->custom_note, sizeof out->custom_note);
    out->custom = t != 0;
    out->message = t ? api->g_object_new(t, NULL) : api->standard_message_codec_new();
    out->method = api->standard_method_codec_new_with_message_codec(out->message);
    if (!out->message || !out->method) {
        snprintf(err, err_size, "the engine made no codec");
        return false;
    }
    smc_gtype_query_t q = {0, NULL, 0, 0};
    api->g_type_query(api->method_codec_get_type(), &q);
    if (q.class_size != METHOD_CLASS_SIZE) {
        snprintf(err, err_size, "FlMethodCodecClass is %u bytes, not the %zu of its five vfuncs",
                 q.class_size, (size_t)METHOD_CLASS_SIZE);
        return false;
    }
    /* GTypeInstance starts with its class pointer; the vfuncs follow the GObjectClass */
    void *klass = *(void **)out->method;
    out->calls =
        (const smc_fl_method_vfuncs_t *)(const void *)((char *)klass + SMC_GOBJECT_CLASS_SIZE);
    return true;
}
