/*
 * Replay driver: runs LLVMFuzzerTestOneInput over files and directories without a fuzzing
 * engine, so every target also runs in CTest over fuzz/regressions/ and fuzz/corpus/
 * (house style rule 14). Any compiler builds it.
 *
 *   <target>_replay [--sample=N] PATH...
 *
 * A directory is replayed recursively in sorted order (so runs are reproducible).
 * --sample=N replays at most N files of each directory given on the command line, spread
 * evenly over its sorted list. Arguments starting with '-' other than --sample are ignored,
 * so libFuzzer-style flags do no harm. Prints the number of inputs run. A failing input
 * aborts (FUZZ_ASSERT, a sanitizer, a crash) and its path is printed first, so the exit
 * status is non-zero at the first failing input.
 */
#define _POSIX_C_SOURCE 200809L

#include <dirent.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* The input being run, for the crash message (written by a signal handler, so fixed). */
static char current_path[4096];

static void say_current(void)
{
    static const char prefix[] = "\nreplay: failing input: ";
    if (current_path[0]) {
        ssize_t ignored = write(2, prefix, sizeof prefix - 1);
        ignored = write(2, current_path, strlen(current_path));
        ignored = write(2, "\n", 1);
        (void)ignored;
    }
}

static void on_fatal_signal(int sig)
{
    say_current();
    signal(sig, SIG_DFL);
    raise(sig);
}

/* Sanitizers exit without raising a signal; when one is linked in, this weak symbol lets us
 * print the failing path first. */
extern void __sanitizer_set_death_callback(void (*callback)(void)) __attribute__((weak));

typedef struct path_list {
    char **items;
    size_t len, cap;
} path_list_t;

static void list_add(path_list_t *l, const char *path)
{
    if (l->len == l->cap) {
        l->cap = l->cap ? 2 * l->cap : 256;
        char **grown = realloc(l->items, l->cap * sizeof *grown);
        if (!grown) {
            perror("realloc");
            exit(2);
        }
        l->items = grown;
    }
    size_t n = strlen(path) + 1;
    l->items[l->len] = malloc(n);
    if (!l->items[l->len]) {
        perror("malloc");
        exit(2);
    }
    memcpy(l->items[l->len], path, n);
    l->len++;
}

static int compare_paths(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Collect the regular files under `path` (or `path` itself). Hidden files and README files
 * are skipped so a directory can document itself. */
static void collect(path_list_t *out, const char *path)
{
    struct stat st;
    if (stat(path, &st) != 0) {
        fprintf(stderr, "replay: cannot stat %s\n", path);
        exit(2);
    }
    if (!S_ISDIR(st.st_mode)) {
        list_add(out, path);
        return;
    }
    DIR *dir = opendir(path);
    if (!dir) {
        fprintf(stderr, "replay: cannot open %s\n", path);
        exit(2);
    }
    path_list_t names = {NULL, 0, 0};
    struct dirent *ent;
    while ((ent = readdir(dir)) != NULL) {
        if (ent->d_name[0] == '.' || strncmp(ent->d_name, "README", 6) == 0) {
            continue;
        }
        list_add(&names, ent->d_name);
    }
    closedir(dir);
    if (names.len > 1) {
        qsort(names.items, names.len, sizeof *names.items, compare_paths);
    }
    for (size_t i = 0; i < names.len; i++) {
        size_t n = strlen(path) + strlen(names.items[i]) + 2;
        char *child = malloc(n);
        if (!child) {
            perror("malloc");
            exit(2);
        }
        snprintf(child, n, "%s/%s", path, names.items[i]);
        collect(out, child);
        free(child);
        free(names.items[i]);
    }
    free(names.items);
}

static int run_file(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        fprintf(stderr, "replay: cannot open %s\n", path);
        return -1;
    }
    size_t cap = 4096, len = 0;
    uint8_t *buf = malloc(cap);
    size_t got;
    while (buf && (got = fread(buf + len, 1, cap - len, f)) > 0) {
        len += got;
        if (len == cap) {
            uint8_t *grown = realloc(buf, cap * 2);
            if (!grown) {
                free(buf);
                buf = NULL;
                break;
            }
            buf = grown;
            cap *= 2;
        }
    }
    fclose(f);
    if (!buf) {
        fprintf(stderr, "replay: out of memory reading %s\n", path);
        return -1;
    }
    /* An exact-size copy, so a read past the input is a sanitizer error, as under libFuzzer. */
    uint8_t *exact = malloc(len ? len : 1);
    if (!exact) {
        free(buf);
        return -1;
    }
    memcpy(exact, buf, len);
    free(buf);
    snprintf(current_path, sizeof current_path, "%s", path);
    LLVMFuzzerTestOneInput(exact, len);
    current_path[0] = '\0';
    free(exact);
    return 0;
}

int main(int argc, char **argv)
{
    size_t sample = 0, total = 0;
    int roots = 0;
    signal(SIGABRT, on_fatal_signal);
    signal(SIGSEGV, on_fatal_signal);
    signal(SIGBUS, on_fatal_signal);
    signal(SIGFPE, on_fatal_signal);
    signal(SIGILL, on_fatal_signal);
    if (__sanitizer_set_death_callback) {
        __sanitizer_set_death_callback(say_current);
    }
    for (int i = 1; i < argc; i++) {
        if (strncmp(argv[i], "--sample=", 9) == 0) {
            sample = (size_t)strtoul(argv[i] + 9, NULL, 10);
            continue;
        }
        if (argv[i][0] == '-') {
            continue;
        }
        roots++;
        path_list_t files = {NULL, 0, 0};
        collect(&files, argv[i]);
        size_t take = files.len;
        if (sample && take > sample) {
            take = sample;
        }
        for (size_t k = 0; k < take; k++) {
            /* Evenly spread picks: index k * len / take. */
            size_t idx = take == files.len ? k : (size_t)((unsigned long long)k * files.len / take);
            if (run_file(files.items[idx]) != 0) {
                return 2;
            }
            total++;
        }
        for (size_t k = 0; k < files.len; k++) {
            free(files.items[k]);
        }
        free(files.items);
    }
    if (roots == 0) {
        fprintf(stderr, "usage: %s [--sample=N] FILE_OR_DIR...\n", argv[0]);
        return 2;
    }
    printf("%s: %zu inputs replayed, no failure\n", argv[0], total);
    return 0;
}
