/* akc-bench-startup.c: cold start of the application to its first frame
 *
 * SPDX-License-Identifier: MIT
 *
 * Run it under an X display in a session bus
 * (`dbus-run-session -- xvfb-run -a bench/akc-bench-startup`).
 * Starts the application (AkcApplication, as `agentskit-chat` runs it) in
 * a new process each time, with a fresh profile (empty history, settings
 * in memory), and prints, median of 5 starts:
 *  - the time from spawning the process to the main window's first
 *    painted frame (the process, GTK and libadwaita starting, the
 *    application and its window built, the first frame drawn);
 *  - the CPU time the process used until then (all threads), which moves
 *    less with the load of a shared machine than the wall time;
 *  - the resident memory once the application is idle (2 s after the
 *    first frame, nothing happening).
 * It runs with GTK's renderer (GL; in Xvfb that is Mesa's llvmpipe) and
 * with the cairo renderer, unless GSK_RENDERER chooses one. A start that
 * fails, warns or shows no window fails the bench. The files it reads are
 * in the page cache after the first start: "cold" is a new process, not
 * an empty cache.
 *
 * With the cairo renderer, one more start runs under callgrind and the
 * bench prints the instructions from exec to the first frame, a figure
 * the load of the machine does not move (`--no-callgrind` skips it).
 *
 * `--child SPAWN_TIME` is one start (used by the parent run): it prints
 * key=value lines. With AKC_BENCH_IDLE_MAPS=PATH set, it also writes its
 * /proc/self/smaps to PATH when it reads its idle RSS (the last start's
 * stays); `bench/compare-idle-maps.py` compares two builds' by mapping.
 */

#include "config.h"

#include <locale.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <glib/gstdio.h>
#include <adwaita.h>

#include "akc-application.h"
#include "akc-bench-callgrind.h"
#include "akc-bench-util.h"

#define STARTS 5
#define IDLE_SECONDS 2

typedef struct {
  GApplication *app;
  gint64        spawned;
  gint64        first_frame;
  double        first_frame_cpu;
  GtkWidget    *window;
} Start;

/* AKC_BENCH_IDLE_MAPS=PATH: the child's /proc/self/smaps at the moment
 * its idle RSS is read, for bench/compare-idle-maps.py. */
static void
write_idle_maps (void)
{
  const char *path = g_getenv ("AKC_BENCH_IDLE_MAPS");
  g_autofree char *maps = NULL;
  g_autoptr(GError) error = NULL;

  if (path == NULL)
    return;
  if (!g_file_get_contents ("/proc/self/smaps", &maps, NULL, &error) ||
      !g_file_set_contents (path, maps, -1, &error))
    fprintf (stderr, "akc-bench-startup: AKC_BENCH_IDLE_MAPS: %s\n", error->message);
}

static gboolean
report_idle (gpointer user_data)
{
  Start *start = user_data;

  if (akc_bench_callgrind_active ())
    {
      /* The parent reads the phase, not these. */
      g_application_quit (start->app);
      return G_SOURCE_REMOVE;
    }

  printf ("first_frame_ms=%.3f\n", (start->first_frame - start->spawned) / 1e3);
  printf ("first_frame_cpu_ms=%.3f\n", start->first_frame_cpu * 1e3);
  printf ("idle_rss_mib=%.3f\n", akc_bench_rss_mib ());
  write_idle_maps ();
  printf ("renderer=%s\n", G_OBJECT_TYPE_NAME (gtk_native_get_renderer (GTK_NATIVE (start->window))));
  printf ("window=%s\n", G_OBJECT_TYPE_NAME (start->window));
  g_application_quit (start->app);

  return G_SOURCE_REMOVE;
}

static void
on_after_paint (GdkFrameClock *clock,
                Start         *start)
{
  if (start->first_frame != 0)
    return;

  start->first_frame = g_get_monotonic_time ();
  start->first_frame_cpu = akc_bench_cpu_seconds ();
  /* Under callgrind: everything from the start of the process. */
  akc_bench_callgrind_mark ("first-frame");
  g_signal_handlers_disconnect_by_func (clock, on_after_paint, start);
  g_timeout_add_seconds (IDLE_SECONDS, report_idle, start);
}

static void
on_realize (GtkWidget *window,
            Start     *start)
{
  g_signal_connect (gtk_widget_get_frame_clock (window), "after-paint", G_CALLBACK (on_after_paint), start);
}

static void
on_window_added (GtkApplication *app,
                 GtkWindow      *window,
                 Start          *start)
{
  if (start->window != NULL)
    return;

  start->window = GTK_WIDGET (window);
  if (gtk_widget_get_realized (start->window))
    on_realize (start->window, start);
  else
    g_signal_connect (window, "realize", G_CALLBACK (on_realize), start);
}

static int
run_child (gint64 spawned)
{
  const char *argv[] = { "agentskit-chat", NULL };
  Start start = { 0 };
  g_autoptr(AkcApplication) app = NULL;
  int status;

  /* As main.c does, less the translations (the bench runs untranslated). */
  setlocale (LC_ALL, "");
  g_set_application_name ("AgentsKit Chat");
  app = akc_application_new ();
  start.app = G_APPLICATION (app);
  start.spawned = spawned;
  g_signal_connect (app, "window-added", G_CALLBACK (on_window_added), &start);

  status = g_application_run (G_APPLICATION (app), 1, (char **) argv);
  if (status != 0 || start.first_frame == 0)
    {
      fprintf (stderr, "akc-bench-startup: the application exited with %d before its first frame\n", status);
      return 1;
    }

  return 0;
}

/* ------------------------------------------------------------------ */
/* The parent run                                                      */
/* ------------------------------------------------------------------ */

static GHashTable *
run_start (const char *self_path)
{
  g_autofree char *home = akc_bench_profile_new ();
  g_autofree char *spawned = g_strdup_printf ("%" G_GINT64_FORMAT, g_get_monotonic_time ());
  g_auto(GStrv) env = akc_bench_profile_environ (home, BUILD_SCHEMA_DIR);
  const char *argv[] = { self_path, "--child", spawned, NULL };
  GHashTable *values;

  /* A fresh profile: an empty history, settings in memory, criticals
   * fatal. */
  values = akc_bench_run_child (argv, env, "first_frame_ms");
  akc_bench_remove_tree (home);

  return values;
}

static gboolean use_callgrind = TRUE;

/* The instructions from exec to the first frame, under callgrind with the
 * cairo renderer (GL would count Mesa's software rasteriser too). */
static void
print_instructions (const char *self_path)
{
  g_autofree char *home = NULL;
  g_autofree char *data = NULL;
  g_autofree char *config = NULL;
  g_autofree char *spawned = g_strdup_printf ("%" G_GINT64_FORMAT, g_get_monotonic_time ());
  const char *argv[] = { self_path, "--child", spawned, NULL };
  g_autoptr(GHashTable) phases = NULL;
  g_autoptr(GError) error = NULL;

  if (!use_callgrind)
    return;
  home = akc_bench_profile_new ();
  data = g_build_filename (home, "data", NULL);
  config = g_build_filename (home, "config", NULL);
  g_setenv ("HOME", home, TRUE);
  g_setenv ("XDG_DATA_HOME", data, TRUE);
  g_setenv ("XDG_CONFIG_HOME", config, TRUE);
  g_setenv ("GSETTINGS_BACKEND", "memory", TRUE);
  g_setenv ("GSETTINGS_SCHEMA_DIR", BUILD_SCHEMA_DIR, FALSE);

  /* Its key=value lines go to our output: hide them. */
  fflush (stdout);
  phases = akc_bench_callgrind_run (argv, &error);
  if (phases == NULL)
    {
      fprintf (stderr, "akc-bench-startup: the start under callgrind failed: %s (--no-callgrind skips it)\n",
               error->message);
      exit (1);
    }
  printf ("  instructions from exec to the first frame (callgrind, every thread): %.1f M\n",
          akc_bench_callgrind_lookup (phases, "first-frame") / 1e6);

  akc_bench_remove_tree (home);
}

static void
run_all (const char *self_path)
{
  double frame[STARTS], cpu[STARTS], rss[STARTS];
  g_autofree char *renderer = NULL;
  g_autofree char *window = NULL;

  for (guint i = 0; i < STARTS; i++)
    {
      g_autoptr(GHashTable) values = run_start (self_path);

      frame[i] = akc_bench_value_of (values, "first_frame_ms");
      cpu[i] = akc_bench_value_of (values, "first_frame_cpu_ms");
      rss[i] = akc_bench_value_of (values, "idle_rss_mib");
      if (renderer == NULL)
        {
          renderer = g_strdup (g_hash_table_lookup (values, "renderer"));
          window = g_strdup (g_hash_table_lookup (values, "window"));
        }
    }

  printf ("Start-up of the application (GTK %u.%u.%u, %s, first window %s), a fresh profile, median of %d starts:\n",
          gtk_get_major_version (), gtk_get_minor_version (), gtk_get_micro_version (),
          renderer != NULL ? renderer : "?", window != NULL ? window : "?", STARTS);
  printf ("  spawn to first frame %8.1f ms   CPU until then %7.1f ms   idle RSS %6.1f MiB\n",
          akc_bench_median (frame, STARTS), akc_bench_median (cpu, STARTS), akc_bench_median (rss, STARTS));
  if (g_strcmp0 (renderer, "GskCairoRenderer") == 0)
    print_instructions (self_path);
}

int
main (int   argc,
      char *argv[])
{
  if (argc == 3 && strcmp (argv[1], "--child") == 0)
    return run_child (g_ascii_strtoll (argv[2], NULL, 10));
  /* After the child: it runs as the application names itself. */
  g_set_prgname ("akc-bench-startup");
  if (argc == 2 && strcmp (argv[1], "--no-callgrind") == 0)
    use_callgrind = FALSE;
  else if (argc != 1)
    {
      fprintf (stderr, "usage: %s [--no-callgrind]\n", argv[0]);
      return 2;
    }

  setvbuf (stdout, NULL, _IOLBF, 0);

  if (g_getenv ("GSK_RENDERER") != NULL)
    {
      run_all (argv[0]);
      return 0;
    }

  run_all (argv[0]);
  g_setenv ("GSK_RENDERER", "cairo", TRUE);
  run_all (argv[0]);
  g_unsetenv ("GSK_RENDERER");

  return 0;
}
