/**
 * @file fl_version.h
 * @brief Which Dart an engine library embeds, read from the file as `strings` would.
 */
#ifndef SMC_FL_VERSION_H
#define SMC_FL_VERSION_H

#include <stdbool.h>
#include <stddef.h>

/**
 * Find the Dart VM's version string in the library at `path` ("3.10.7 (stable) (Tue Dec 23
 * ...) on \"linux_x64\"") and write its first two words ("3.10.7 (stable)") to `out`.
 * @return false if the file cannot be read or holds no such string.
 */
bool smc_fl_dart_version(const char *path, char *out, size_t out_size);

#endif /* SMC_FL_VERSION_H */
