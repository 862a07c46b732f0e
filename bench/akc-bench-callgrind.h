/* akc-bench-callgrind.h: instruction counts of a bench's phases, from callgrind
 *
 * SPDX-License-Identifier: MIT
 *
 * Wall time on a shared machine moves with everybody else's work; the
 * number of instructions a phase executes does not. A bench that wants
 * stable figures runs itself again under `valgrind --tool=callgrind`
 * (akc_bench_callgrind_run()); the run under callgrind closes each phase
 * with akc_bench_callgrind_mark(), which dumps the instructions executed
 * since the previous mark, on every thread, under the phase's name.
 */

#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* Whether the instruction counts can be taken at all: valgrind's headers
 * were there at build time. */
gboolean    akc_bench_callgrind_available (void);

/* Whether this process is the run under callgrind. */
gboolean    akc_bench_callgrind_active    (void);

/* In the run under callgrind: ends the current phase as @phase (a name
 * without spaces at either end). Does nothing elsewhere. */
void        akc_bench_callgrind_mark      (const char          *phase);

/* Runs @argv (a program and its arguments, usually this bench with a
 * flag that selects its callgrind mode) under callgrind, its standard
 * output passed through, and returns the instructions of each phase it
 * marked: phase name → guint64, read with
 * akc_bench_callgrind_lookup(). NULL with @error when valgrind is
 * missing, the program fails, or it marked no phase. */
GHashTable *akc_bench_callgrind_run       (const char * const  *argv,
                                           GError             **error);

/* The instructions of @phase in a table from akc_bench_callgrind_run();
 * aborts the bench when the phase is missing (its setup went wrong). */
guint64     akc_bench_callgrind_lookup    (GHashTable          *phases,
                                           const char          *phase);

G_END_DECLS
