/**
 * @file fl_api.h
 * @brief The part of Flutter's Linux embedder API (libflutter_linux_gtk.so) and of GLib that
 *        this runner calls, loaded with dlopen/dlsym.
 *
 * The prototypes are written here from the documented signatures of the public API
 * (flutter_linux/fl_value.h, fl_message_codec.h, fl_standard_message_codec.h,
 * fl_method_codec.h, fl_method_response.h) and of GLib/GObject; no header of either is
 * included, so the runner builds on a machine without GTK and loads whichever engine
 * $SMC_FLUTTER_ENGINE names. Opaque objects are `void *`; only the layouts the public API
 * exposes are spelled out (GError, and the class structs whose vfuncs we call or override).
 */
#ifndef SMC_FL_API_H
#define SMC_FL_API_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct smc_fl_value smc_fl_value_t; /* FlValue */
typedef unsigned long smc_gtype_t;          /* GType (gsize) */
typedef uint32_t smc_gquark_t;              /* GQuark */

/* GError: public struct of GLib (domain, code, message). */
typedef struct smc_gerror {
    smc_gquark_t domain;
    int code;
    char *message;
} smc_gerror_t;

/* GByteArray: public struct of GLib (data, len). */
typedef struct smc_gbyte_array {
    uint8_t *data;
    unsigned int len;
} smc_gbyte_array_t;

/* FlValueType, in the order of the public enum. CUSTOM is newer than FLOAT32_LIST. */
enum {
    SMC_FL_NULL = 0,
    SMC_FL_BOOL = 1,
    SMC_FL_INT = 2,
    SMC_FL_FLOAT = 3,
    SMC_FL_STRING = 4,
    SMC_FL_UINT8_LIST = 5,
    SMC_FL_INT32_LIST = 6,
    SMC_FL_INT64_LIST = 7,
    SMC_FL_FLOAT_LIST = 8,
    SMC_FL_LIST = 9,
    SMC_FL_MAP = 10,
    SMC_FL_FLOAT32_LIST = 11,
    SMC_FL_CUSTOM = 12
};

/* FlMessageCodecError codes (domain fl_message_codec_error_quark()). */
enum {
    SMC_FL_CODEC_FAILED = 0,
    SMC_FL_CODEC_OUT_OF_DATA = 1,
    SMC_FL_CODEC_ADDITIONAL_DATA = 2,
    SMC_FL_CODEC_UNSUPPORTED_TYPE = 3
};

/* The size of GObjectClass on LP64 (GTypeClass + 8 function pointers + flags + 6 pads):
 * FlMessageCodecClass adds encode_message and decode_message, FlStandardMessageCodecClass
 * write_value and read_value_of_type, FlMethodCodecClass five vfuncs. Checked at run time
 * against g_type_query before any vfunc is read or overridden. */
#define SMC_GOBJECT_CLASS_SIZE 136u

/* FlMethodCodecClass after its GObjectClass. */
typedef struct smc_fl_method_vfuncs {
    void *(*encode_method_call)(void *codec, const char *name, smc_fl_value_t *args,
                                smc_gerror_t **error);
    int (*decode_method_call)(void *codec, void *message, char **name, smc_fl_value_t **args,
                              smc_gerror_t **error);
    void *(*encode_success_envelope)(void *codec, smc_fl_value_t *result, smc_gerror_t **error);
    void *(*encode_error_envelope)(void *codec, const char *code, const char *message,
                                   smc_fl_value_t *details, smc_gerror_t **error);
    void *(*decode_response)(void *codec, void *message, smc_gerror_t **error);
} smc_fl_method_vfuncs_t;

/* FlStandardMessageCodecClass's two vfuncs, after FlMessageCodecClass. */
typedef struct smc_fl_standard_vfuncs {
    int (*write_value)(void *codec, smc_gbyte_array_t *buffer, smc_fl_value_t *value,
                       smc_gerror_t **error);
    smc_fl_value_t *(*read_value_of_type)(void *codec, void *buffer, size_t *offset, int type,
                                          smc_gerror_t **error);
} smc_fl_standard_vfuncs_t;

/* GTypeQuery (public struct of GObject). */
typedef struct smc_gtype_query {
    smc_gtype_t type;
    const char *type_name;
    unsigned int class_size;
    unsigned int instance_size;
} smc_gtype_query_t;

/** Every entry point, resolved from the engine library (and GLib, which it links). */
typedef struct smc_fl_api {
    /* FlValue */
    smc_fl_value_t *(*value_new_null)(void);
    smc_fl_value_t *(*value_new_bool)(bool v);
    smc_fl_value_t *(*value_new_int)(int64_t v);
    smc_fl_value_t *(*value_new_float)(double v);
    smc_fl_value_t *(*value_new_string_sized)(const char *s, size_t len);
    smc_fl_value_t *(*value_new_uint8_list)(const uint8_t *v, size_t n);
    smc_fl_value_t *(*value_new_int32_list)(const int32_t *v, size_t n);
    smc_fl_value_t *(*value_new_int64_list)(const int64_t *v, size_t n);
    smc_fl_value_t *(*value_new_float32_list)(const float *v, size_t n); /* may be NULL */
    smc_fl_value_t *(*value_new_float_list)(const double *v, size_t n);
    smc_fl_value_t *(*value_new_list)(void);
    smc_fl_value_t *(*value_new_map)(void);
    smc_fl_value_t *(*value_new_custom)(int type, const void *value,
                                        void (*destroy)(void *)); /* may be NULL */
    smc_fl_value_t *(*value_ref)(smc_fl_value_t *v);
    void (*value_unref)(smc_fl_value_t *v);
    int (*value_get_type)(smc_fl_value_t *v);
    bool (*value_get_bool)(smc_fl_value_t *v);
    int64_t (*value_get_int)(smc_fl_value_t *v);
    double (*value_get_float)(smc_fl_value_t *v);
    const char *(*value_get_string)(smc_fl_value_t *v);
    size_t (*value_get_length)(smc_fl_value_t *v);
    const uint8_t *(*value_get_uint8_list)(smc_fl_value_t *v);
    const int32_t *(*value_get_int32_list)(smc_fl_value_t *v);
    const int64_t *(*value_get_int64_list)(smc_fl_value_t *v);
    const float *(*value_get_float32_list)(smc_fl_value_t *v); /* may be NULL */
    const double *(*value_get_float_list)(smc_fl_value_t *v);
    smc_fl_value_t *(*value_get_list_value)(smc_fl_value_t *v, size_t i);
    smc_fl_value_t *(*value_get_map_key)(smc_fl_value_t *v, size_t i);
    smc_fl_value_t *(*value_get_map_value)(smc_fl_value_t *v, size_t i);
    int (*value_get_custom_type)(smc_fl_value_t *v);          /* may be NULL */
    const void *(*value_get_custom_value)(smc_fl_value_t *v); /* may be NULL */
    void (*value_append_take)(smc_fl_value_t *list, smc_fl_value_t *child);
    void (*value_set_take)(smc_fl_value_t *map, smc_fl_value_t *key, smc_fl_value_t *child);
    /* codecs */
    void *(*standard_message_codec_new)(void);
    smc_gtype_t (*standard_message_codec_get_type)(void);
    void *(*standard_method_codec_new_with_message_codec)(void *message_codec);
    smc_gtype_t (*method_codec_get_type)(void);
    void *(*message_codec_encode_message)(void *codec, smc_fl_value_t *v, smc_gerror_t **error);
    smc_fl_value_t *(*message_codec_decode_message)(void *codec, void *message,
                                                    smc_gerror_t **error);
    smc_gquark_t (*message_codec_error_quark)(void);
    int (*standard_message_codec_write_value)(void *codec, smc_gbyte_array_t *buffer,
                                              smc_fl_value_t *value, smc_gerror_t **error);
    smc_fl_value_t *(*standard_message_codec_read_value)(void *codec, void *buffer, size_t *offset,
                                                         smc_gerror_t **error);
    /* responses */
    smc_gtype_t (*method_success_response_get_type)(void);
    smc_gtype_t (*method_error_response_get_type)(void);
    smc_gtype_t (*method_not_implemented_response_get_type)(void);
    smc_fl_value_t *(*method_success_response_get_result)(void *r);
    const char *(*method_error_response_get_code)(void *r);
    const char *(*method_error_response_get_message)(void *r);
    smc_fl_value_t *(*method_error_response_get_details)(void *r);
    /* GLib / GObject */
    void *(*g_bytes_new_static)(const void *data, size_t size);
    const void *(*g_bytes_get_data)(void *bytes, size_t *size);
    void (*g_bytes_unref)(void *bytes);
    smc_gbyte_array_t *(*g_byte_array_append)(smc_gbyte_array_t *a, const uint8_t *d,
                                              unsigned int n);
    void (*g_error_free)(smc_gerror_t *e);
    void (*g_free)(void *p);
    void (*g_object_unref)(void *o);
    void *(*g_type_class_ref)(smc_gtype_t t);
    int (*g_type_check_instance_is_a)(void *instance, smc_gtype_t t); /* gboolean */
    void (*g_type_query)(smc_gtype_t t, smc_gtype_query_t *q);
    smc_gtype_t (*g_type_register_static_simple)(smc_gtype_t parent, const char *name,
                                                 unsigned int class_size,
                                                 void (*class_init)(void *klass, void *data),
                                                 unsigned int instance_size,
                                                 void (*instance_init)(void *inst, void *klass),
                                                 unsigned int flags);
    void *(*g_object_new)(smc_gtype_t t, const char *first_property, ...);
} smc_fl_api_t;

/**
 * Load the engine library at `path` and resolve every entry point. Entries marked "may be
 * NULL" are absent from older engines; every other one is required.
 * @return true on success; on failure `err` (of `err_size` bytes) says what is missing.
 */
bool smc_fl_api_load(const char *path, smc_fl_api_t *api, char *err, size_t err_size);

/** Whether a GObject `instance` is of type `t` (g_type_check_instance_is_a). */
bool smc_fl_is_a(const smc_fl_api_t *api, void *instance, smc_gtype_t t);

#endif /* SMC_FL_API_H */
