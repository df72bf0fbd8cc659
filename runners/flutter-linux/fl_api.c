/* Loads libflutter_linux_gtk.so and resolves the entry points of fl_api.h. */
#define _POSIX_C_SOURCE 200809L
#include "fl_api.h"

#include <dlfcn.h>
#include <stdio.h>
#include <string.h>

typedef struct sym {
    const char *name;
    size_t offset; /* of the function pointer inside smc_fl_api_t */
    bool optional; /* absent from older engines */
} sym_t;

#define REQ(field, name)                                                                           \
    {                                                                                              \
        name, offsetof(smc_fl_api_t, field), false                                                 \
    }
#define OPT(field, name)                                                                           \
    {                                                                                              \
        name, offsetof(smc_fl_api_t, field), true                                                  \
    }

static const sym_t k_syms[] = {
    REQ(value_new_null, "fl_value_new_null"),
    REQ(value_new_bool, "fl_value_new_bool"),
    REQ(value_new_int, "fl_value_new_int"),
    REQ(value_new_float, "fl_value_new_float"),
    REQ(value_new_string_sized, "fl_value_new_string_sized"),
    REQ(value_new_uint8_list, "fl_value_new_uint8_list"),
    REQ(value_new_int32_list, "fl_value_new_int32_list"),
    REQ(value_new_int64_list, "fl_value_new_int64_list"),
    OPT(value_new_float32_list, "fl_value_new_float32_list"),
    REQ(value_new_float_list, "fl_value_new_float_list"),
    REQ(value_new_list, "fl_value_new_list"),
    REQ(value_new_map, "fl_value_new_map"),
    OPT(value_new_custom, "fl_value_new_custom"),
    REQ(value_ref, "fl_value_ref"),
    REQ(value_unref, "fl_value_unref"),
    REQ(value_get_type, "fl_value_get_type"),
    REQ(value_get_bool, "fl_value_get_bool"),
    REQ(value_get_int, "fl_value_get_int"),
    REQ(value_get_float, "fl_value_get_float"),
    REQ(value_get_string, "fl_value_get_string"),
    REQ(value_get_length, "fl_value_get_length"),
    REQ(value_get_uint8_list, "fl_value_get_uint8_list"),
    REQ(value_get_int32_list, "fl_value_get_int32_list"),
    REQ(value_get_int64_list, "fl_value_get_int64_list"),
    OPT(value_get_float32_list, "fl_value_get_float32_list"),
    REQ(value_get_float_list, "fl_value_get_float_list"),
    REQ(value_get_list_value, "fl_value_get_list_value"),
    REQ(value_get_map_key, "fl_value_get_map_key"),
    REQ(value_get_map_value, "fl_value_get_map_value"),
    OPT(value_get_custom_type, "fl_value_get_custom_type"),
    OPT(value_get_custom_value, "fl_value_get_custom_value"),
    REQ(value_append_take, "fl_value_append_take"),
    REQ(value_set_take, "fl_value_set_take"),
    REQ(standard_message_codec_new, "fl_standard_message_codec_new"),
    REQ(standard_message_codec_get_type, "fl_standard_message_codec_get_type"),
    REQ(standard_method_codec_new_with_message_codec,
        "fl_standard_method_codec_new_with_message_codec"),
    REQ(method_codec_get_type, "fl_method_codec_get_type"),
    REQ(message_codec_encode_message, "fl_message_codec_encode_message"),
    REQ(message_codec_decode_message, "fl_message_codec_decode_message"),
    REQ(message_codec_error_quark, "fl_message_codec_error_quark"),
    OPT(standard_message_codec_write_value, "fl_standard_message_codec_write_value"),
    OPT(standard_message_codec_read_value, "fl_standard_message_codec_read_value"),
    REQ(method_success_response_get_type, "fl_method_success_response_get_type"),
    REQ(method_error_response_get_type, "fl_method_error_response_get_type"),
    REQ(method_not_implemented_response_get_type, "fl_method_not_implemented_response_get_type"),
    REQ(method_success_response_get_result, "fl_method_success_response_get_result"),
    REQ(method_error_response_get_code, "fl_method_error_response_get_code"),
    REQ(method_error_response_get_message, "fl_method_error_response_get_message"),
    REQ(method_error_response_get_details, "fl_method_error_response_get_details"),
    REQ(g_bytes_new_static, "g_bytes_new_static"),
    REQ(g_bytes_get_data, "g_bytes_get_data"),
    REQ(g_bytes_unref, "g_bytes_unref"),
    REQ(g_byte_array_append, "g_byte_array_append"),
    REQ(g_error_free, "g_error_free"),
    REQ(g_free, "g_free"),
    REQ(g_object_unref, "g_object_unref"),
    REQ(g_type_class_ref, "g_type_class_ref"),
    REQ(g_type_check_instance_is_a, "g_type_check_instance_is_a"),
    REQ(g_type_query, "g_type_query"),
    REQ(g_type_register_static_simple, "g_type_register_static_simple"),
    REQ(g_object_new, "g_object_new"),
};

bool smc_fl_api_load(const char *path, smc_fl_api_t *api, char *err, size_t err_size)
{
    memset(api, 0, sizeof *api);
    /* RTLD_GLOBAL: the GLib symbols come from the libraries the engine itself links */
    void *lib = dlopen(path, RTLD_NOW | RTLD_GLOBAL);
    if (!lib) {
        snprintf(err, err_size, "dlopen %s: %s", path, dlerror());
        return false;
    }
    for (size_t i = 0; i < sizeof k_syms / sizeof k_syms[0]; i++) {
        void *p = dlsym(lib, k_syms[i].name);
        if (!p) {
            p = dlsym(RTLD_DEFAULT, k_syms[i].name);
        }
        if (!p && !k_syms[i].optional) {
            snprintf(err, err_size, "%s: symbol %s not found", path, k_syms[i].name);
            return false;
        }
        /* object pointer to function pointer: POSIX guarantees the representation is the
         * same; memcpy keeps ISO C's pedantic rules satisfied */
        memcpy((char *)api + k_syms[i].offset, &p, sizeof p);
    }
    return true;
}

bool smc_fl_is_a(const smc_fl_api_t *api, void *instance, smc_gtype_t t)
{
    return instance && api->g_type_check_instance_is_a(instance, t) != 0;
}
