/**
 * @file fl_thread.h
 * @brief The engine's thread: every call into the engine's codecs runs on one thread whose
 *        stack has a fixed size, so a verdict does not depend on `ulimit -s` or on the stack
 *        the runner's own build leaves.
 *
 * Flutter's Linux embedder decodes a channel's message on its platform thread, which is
 * GLib's main loop thread, the process's main thread: its stack grows up to RLIMIT_STACK,
 * 8 MiB by default on Linux distributions (`ulimit -s` 8192). The engine's codecs recurse
 * once per nesting level with no depth limit (spec D22), so that stack is where they stop;
 * the runner gives them exactly that stack, whatever limit the judge was started under.
 */
#ifndef SMC_FL_THREAD_H
#define SMC_FL_THREAD_H

#include <stdbool.h>
#include <stddef.h>

#include "smc_runner_codec.h"

/** The engine thread's stack: the default RLIMIT_STACK of a Linux desktop's main thread. */
#define SMC_FL_ENGINE_STACK ((size_t)8 << 20)

/**
 * Start the engine's thread and make every codec call of `codec` (decode, encode, reencode,
 * host_encode, host_decode) run on it: each call waits for its answer, so the protocol sees
 * the same answers in the same order. A crash on that thread (a signal, an abort) ends the
 * process as it did on the main thread. False, with `err` saying why, if the thread could
 * not be made.
 */
bool smc_fl_thread_wrap(smc_runner_codec_t *codec, char *err, size_t err_size);

#endif
