/* The Dart version of an engine library (fl_version.h). */
#include "fl_version.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The Dart VM's version string ends with the platform it was built for. */
static const char k_marker[] = ") on \"linux_";

bool smc_fl_dart_version(const char *path, char *out, size_t out_size)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        return false;
    }
    bool found = false;
    static char chunk[1 << 20];
    size_t keep = 0; /* bytes carried over from the previous chunk */
    const size_t carry = 256;
    for (;;) {
        size_t n = fread(chunk + keep, 1, sizeof chunk - keep, f);
        size_t have = keep + n;
        if (have == 0) {
            break;
        }
        for (size_t i = 0; !found && i + sizeof k_marker - 1 <= have; i++) {
            if (memcmp(chunk + i, k_marker, sizeof k_marker - 1) != 0) {
                continue;
            }
            size_t start = i; /* back to the NUL that starts this C string */
            while (start > 0 && chunk[start - 1] != '\0' && i - start < carry) {
                start--;
            }
            /* the first two words: the version and the channel in parentheses */
            const char *s = chunk + start;
            const char *sp = memchr(s, ' ', i - start);
            const char *close = sp ? memchr(sp, ')', (size_t)(chunk + i - sp)) : NULL;
            if (sp && close && sp[1] == '(' && (size_t)(close - s) + 2 <= out_size) {
                memcpy(out, s, (size_t)(close - s) + 1);
                out[close - s + 1] = '\0';
                found = true;
            }
        }
        if (found || n == 0) {
            break;
        }
        keep = have < carry ? have : carry;
        memmove(chunk, chunk + have - keep, keep);
    }
    fclose(f);
    return found;
}
