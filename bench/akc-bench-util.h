/* akc-bench-util.h: what the benches share — figures of this process,
 * medians, fresh profiles and the runs of a bench's own child process
 *
 * SPDX-License-Identifier: MIT
 *
 * A bench reports its failures with akc_bench_die() and exits 1: a bench
 * whose setup went wrong prints no figures. Messages start with the
 * program's name (g_set_prgname(), set by each bench's main()).
 */

#pragma once

#include <gio/gio.h>

G_BEGIN_DECLS

/* Prints "NAME: @what: @detail" and exits 1. */
G_NORETURN void akc_bench_die            (const char          *what,
                                          const char          *detail);

/* CPU time of this process, every thread, in seconds. */
double          akc_bench_cpu_seconds    (void);

/* Resident memory of this process in MiB (0 when /proc says nothing). */
double          akc_bench_rss_mib        (void);

/* Sorts @values and returns their median. */
double          akc_bench_median         (double              *values,
                                          guint                n);

/* A GAsyncReadyCallback that stores a reference to the result in the
 * `GAsyncResult *` that @user_data points to; akc_bench_wait_result()
 * iterates the default main context until it is there. */
void            akc_bench_store_result   (GObject             *source,
                                          GAsyncResult        *result,
                                          gpointer             user_data);
GAsyncResult   *akc_bench_wait_result    (GAsyncResult       **slot);

/* A new empty home folder for one start of the application. */
char           *akc_bench_profile_new    (void);

/* The environment of a start in the profile at @home: XDG folders in it,
 * settings in memory (schemas from @schema_dir unless the environment
 * names some), criticals fatal. */
char          **akc_bench_profile_environ (const char         *home,
                                           const char         *schema_dir);

/* Runs @argv in @env and returns the key=value lines it printed (key →
 * value). Exits the bench when the child fails, warns (a warning or a
 * critical on its standard error) or prints no @required_key. */
GHashTable     *akc_bench_run_child      (const char * const  *argv,
                                          char               **env,
                                          const char          *required_key);

/* The value of @key in a table from akc_bench_run_child(); exits the
 * bench when it is missing. */
double          akc_bench_value_of       (GHashTable          *values,
                                          const char          *key);

/* Removes @path and all below it; says so when it could not. */
void            akc_bench_remove_tree    (const char          *path);

G_END_DECLS
