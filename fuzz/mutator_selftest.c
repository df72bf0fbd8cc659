/*
 * Checks of the structure-aware mutator (smc_mutator.h) over corpus directories:
 *  - the parse and the writer agree: every canonical input (an option byte, then bytes that
 *    strict mode accepts and that re-encode to themselves) is written back byte for byte;
 *  - mutation is deterministic per seed, stays within max_size, and changes the input;
 *  - it is structure-aware: of the valid message inputs, many more mutants than random
 *    one-byte changes still decode to a tree of another shape (other value count or depth),
 *    which a byte change can rarely do (a changed count or tag breaks the input).
 * Usage: smc_mutator_selftest DIR... ; exit 0 when every check holds.
 */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "smc/smc.h"
#include "smc_mutator.h"

#define MAX_SIZE 4096u
#define SEEDS    64u

static int failures;

static void fail(const char *path, const char *what, unsigned seed)
{
    if (failures++ < 10) {
        fprintf(stderr, "mutator self-test: %s: %s (seed %u)\n", path, what, seed);
    }
}

static bool read_all(const char *path, uint8_t *buf, size_t cap, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (f == NULL) {
        return false;
    }
    *len = fread(buf, 1, cap, f);
    bool ok = !ferror(f) && fgetc(f) == EOF;
    fclose(f);
    return ok;
}

/* Strict mode accepts it and the encoder writes the same bytes (spec §1.2: canonical). */
static bool canonical_message(const uint8_t *d, size_t n)
{
    static uint8_t arena_block[32 * MAX_SIZE + 64], enc[MAX_SIZE];
    smc_arena_t arena;
    smc_arena_init_buffer(&arena, arena_block, sizeof arena_block);
    smc_decode_opts_t opts = {SMC_MODE_STRICT, 0};
    smc_value_t *v;
    size_t written = 0;
    return smc_decode(d, n, &opts, &arena, &v, NULL) == SMC_OK &&
           smc_encode(v, enc, sizeof enc, &written, NULL) == SMC_OK && written == n &&
           memcmp(enc, d, n) == 0;
}

/* The shape of a valid message after the option byte: values and depth; false if invalid. */
static bool shape(const uint8_t *d, size_t n, size_t *values, uint32_t *depth)
{
    smc_reader_t *r = malloc(sizeof *r);
    smc_item_t it;
    bool ok = r != NULL && n > 1;
    *values = 0;
    *depth = 0;
    if (ok) {
        smc_reader_init(r, d + 1, n - 1, NULL);
        do {
            ok = smc_reader_next(r, &it) == SMC_OK;
            *values += ok;
            *depth = ok && it.depth > *depth ? it.depth : *depth;
        } while (ok && !smc_reader_value_complete(r));
        ok = ok && smc_reader_finish(r, NULL) == SMC_OK;
    }
    free(r);
    return ok;
}

/* Decodes, and to another shape than (values, depth). */
static bool reshaped(const uint8_t *d, size_t n, size_t values, uint32_t depth)
{
    size_t v;
    uint32_t dd;
    return shape(d, n, &v, &dd) && (v != values || dd != depth);
}

int main(int argc, char **argv)
{
    static uint8_t in[MAX_SIZE], a[MAX_SIZE], b[MAX_SIZE], back[MAX_SIZE];
    size_t files = 0, canonical = 0, mutants = 0, changed = 0;
    size_t valid_mutants = 0, still_valid = 0, flips = 0, flips_valid = 0; /* of valid messages */
    for (int i = 1; i < argc; i++) {
        DIR *dir = opendir(argv[i]);
        if (dir == NULL) {
            fprintf(stderr, "mutator self-test: cannot open %s\n", argv[i]);
            return 2;
        }
        struct dirent *e;
        while ((e = readdir(dir)) != NULL) {
            char path[4096];
            size_t n;
            if (e->d_name[0] == '.' ||
                (size_t)snprintf(path, sizeof path, "%s/%s", argv[i], e->d_name) >= sizeof path ||
                !read_all(path, in, sizeof in, &n) || n == 0) {
                continue;
            }
            files++;
            if (canonical_message(in + 1, n - 1)) {
                canonical++;
                size_t m = smc_mutator_roundtrip(in, n, back, sizeof back);
                if (m != n || memcmp(back, in, n) != 0) {
                    fail(path, "a canonical input is not written back as it was", 0);
                }
            }
            size_t values;
            uint32_t depth;
            bool valid = shape(in, n, &values, &depth);
            for (unsigned seed = 1; seed <= SEEDS; seed++) {
                memcpy(a, in, n);
                memcpy(b, in, n);
                size_t ma = smc_mutate(a, n, MAX_SIZE, seed);
                size_t mb = smc_mutate(b, n, MAX_SIZE, seed);
                if (ma != mb || memcmp(a, b, ma) != 0) {
                    fail(path, "the same seed gives different mutants", seed);
                }
                if (ma > MAX_SIZE) {
                    fail(path, "mutant above max_size", seed);
                }
                if (ma == 0) {
                    continue;
                }
                mutants++;
                changed += ma != n || memcmp(a, in, n) != 0;
                if (valid) {
                    valid_mutants++;
                    still_valid += reshaped(a, ma, values, depth);
                    memcpy(b, in, n); /* the baseline: one random byte, not the option byte */
                    if (n > 1) {
                        b[1 + (seed * 2654435761u) % (n - 1)] = (uint8_t)(seed * 40503u >> 3);
                        flips++;
                        flips_valid += reshaped(b, n, values, depth);
                    }
                }
            }
        }
        closedir(dir);
    }
    printf("mutator self-test: %zu files (%zu canonical, written back exactly), %zu mutants, "
           "%zu changed; of valid messages: %zu/%zu mutants decode to another shape, %zu/%zu "
           "after one random byte\n",
           files, canonical, mutants, changed, still_valid, valid_mutants, flips_valid, flips);
    if (files == 0 || canonical == 0) {
        fail("(all)", "no input or no canonical input to check", 0);
    }
    if (changed * 10 < mutants * 9) {
        fail("(all)", "fewer than 90% of the mutants differ from their input", 0);
    }
    if (valid_mutants == 0 || flips == 0 ||
        (double)still_valid / (double)valid_mutants < 3.0 * (double)flips_valid / (double)flips) {
        fail("(all)", "mutants are reshaped valid messages less than 3x as often as byte changes",
             0);
    }
    return failures == 0 ? 0 : 1;
}
