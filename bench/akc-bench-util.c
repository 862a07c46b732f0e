/* akc-bench-util.c: what the benches share
 *
 * SPDX-License-Identifier: MIT
 */

#include "config.h"

#include "akc-bench-util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <glib/gstdio.h>

static const char *
bench_name (void)
{
  const char *name = g_get_prgname ();

  return name != NULL ? name : "akc-bench";
}

void
akc_bench_die (const char *what,
               const char *detail)
{
  fprintf (stderr, "%s: %s: %s\n", bench_name (), what, detail != NULL ? detail : "");
  exit (1);
}

double
akc_bench_cpu_seconds (void)
{
  struct timespec ts;

  clock_gettime (CLOCK_PROCESS_CPUTIME_ID, &ts);
  return ts.tv_sec + ts.tv_nsec / 1e9;
}

double
akc_bench_rss_mib (void)
{
  g_autofree char *status = NULL;
  const char *line;

  if (!g_file_get_contents ("/proc/self/status", &status, NULL, NULL))
    return 0;
  line = strstr (status, "VmRSS:");
  if (line == NULL)
    return 0;
  return g_ascii_strtod (line + 6, NULL) / 1024.0;
}

static int
compare_double (const void *a,
                const void *b)
{
  double x = *(const double *) a, y = *(const double *) b;

  return x < y ? -1 : x > y;
}

double
akc_bench_median (double *values,
                  guint   n)
{
  g_assert (n > 0);

  qsort (values, n, sizeof (double), compare_double);
  return n % 2 == 1 ? values[n / 2] : (values[n / 2 - 1] + values[n / 2]) / 2;
}

void
akc_bench_store_result (GObject      *source,
                        GAsyncResult *result,
                        gpointer      user_data)
{
  *(GAsyncResult **) user_data = g_object_ref (result);
}

GAsyncResult *
akc_bench_wait_result (GAsyncResult **slot)
{
  while (*slot == NULL)
    g_main_context_iteration (NULL, TRUE);
  return *slot;
}

char *
akc_bench_profile_new (void)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *pattern = g_strdup_printf ("%s-XXXXXX", bench_name ());
  char *home = g_dir_make_tmp (pattern, &error);

  if (home == NULL)
    akc_bench_die ("make a temporary folder", error->message);
  return home;
}

char **
akc_bench_profile_environ (const char *home,
                           const char *schema_dir)
{
  g_autofree char *data = g_build_filename (home, "data", NULL);
  g_autofree char *config = g_build_filename (home, "config", NULL);
  g_autofree char *cache = g_build_filename (home, "cache", NULL);
  char **env = g_get_environ ();

  env = g_environ_setenv (env, "HOME", home, TRUE);
  env = g_environ_setenv (env, "XDG_DATA_HOME", data, TRUE);
  env = g_environ_setenv (env, "XDG_CONFIG_HOME", config, TRUE);
  env = g_environ_setenv (env, "XDG_CACHE_HOME", cache, TRUE);
  env = g_environ_setenv (env, "GSETTINGS_BACKEND", "memory", TRUE);
  env = g_environ_setenv (env, "GSETTINGS_SCHEMA_DIR", schema_dir, FALSE);
  env = g_environ_setenv (env, "G_DEBUG", "fatal-criticals", TRUE);

  return env;
}

GHashTable *
akc_bench_run_child (const char * const *argv,
                     char              **env,
                     const char         *required_key)
{
  g_autofree char *out = NULL;
  g_autofree char *err = NULL;
  g_autoptr(GError) error = NULL;
  g_auto(GStrv) lines = NULL;
  GHashTable *values;
  int status = 0;

  if (!g_spawn_sync (NULL, (char **) argv, env, G_SPAWN_DEFAULT, NULL, NULL, &out, &err, &status, &error) ||
      !g_spawn_check_wait_status (status, &error))
    {
      fprintf (stderr, "%s: a start failed: %s\n%s", bench_name (), error->message, err != NULL ? err : "");
      exit (1);
    }
  if (err != NULL && (strstr (err, "-WARNING") != NULL || strstr (err, "-CRITICAL") != NULL))
    {
      fprintf (stderr, "%s: a start warned (run it in a session bus: dbus-run-session -- xvfb-run -a %s):\n%s",
               bench_name (), bench_name (), err);
      exit (1);
    }

  values = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  lines = g_strsplit (out, "\n", -1);
  for (guint i = 0; lines[i] != NULL; i++)
    {
      char *equals = strchr (lines[i], '=');

      if (equals != NULL)
        g_hash_table_insert (values, g_strndup (lines[i], equals - lines[i]), g_strdup (equals + 1));
    }
  if (required_key != NULL && !g_hash_table_contains (values, required_key))
    {
      fprintf (stderr, "%s: a start printed no %s:\n%s%s", bench_name (), required_key, out, err != NULL ? err : "");
      exit (1);
    }

  return values;
}

double
akc_bench_value_of (GHashTable *values,
                    const char *key)
{
  const char *text = g_hash_table_lookup (values, key);

  if (text == NULL)
    akc_bench_die ("a start printed no", key);
  return g_ascii_strtod (text, NULL);
}

void
akc_bench_remove_tree (const char *path)
{
  const char *argv[] = { "rm", "-rf", "--", path, NULL };
  int status = 0;

  if (!g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_SEARCH_PATH, NULL, NULL, NULL, NULL, &status, NULL) ||
      !g_spawn_check_wait_status (status, NULL))
    fprintf (stderr, "%s: %s was left behind\n", bench_name (), path);
}
