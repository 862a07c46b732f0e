/* akc-bench-sidebar.c: the application's start to its sidebar's first
 * frame, with 10,000 conversations in the history (issue 14)
 *
 * SPDX-License-Identifier: MIT
 *
 * Run it under an X display in a session bus
 * (`dbus-run-session -- xvfb-run -a _build/bench/akc-bench-sidebar`).
 * Builds a history of 10,000 conversations (2 messages each, titles from
 * a seeded generator, times spread over a year, one in 500 pinned) in a
 * temporary profile, then starts the application (AkcApplication, as
 * `agentskit-chat` runs it) in a new process, 5 times on that history and
 * 5 times on an empty one, and prints the medians of:
 *  - spawn to the first frame of the main window;
 *  - spawn to the first frame in which the sidebar lists conversations
 *    (what a person waits for: the history opened, its first page read on
 *    its worker thread, the rows built and drawn);
 *  - how many conversations the sidebar read by then, and once idle
 *    (2 s later, nothing scrolled): pages, not the whole history;
 *  - the resident memory once idle.
 * A start that fails, warns, or whose sidebar lists nothing within 30 s
 * fails the bench, as does a history that cannot be built. The files are
 * in the page cache after the first start: "start" is a new process, not
 * an empty cache.
 *
 * `--child SPAWN_TIME` is one start (used by the parent run): it prints
 * key=value lines.
 */

#include "config.h"

#include <locale.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <glib/gstdio.h>
#include <adwaita.h>
#include <sqlite3.h>

#include "akc-application.h"
#include "akc-sidebar-model.h"
#include "akc-bench-util.h"

#define N_CONVERSATIONS 10000
#define MESSAGES_PER_CONVERSATION 2
#define STARTS 5
#define IDLE_SECONDS 2
#define GIVE_UP_SECONDS 30

/* ------------------------------------------------------------------ */
/* One start                                                           */
/* ------------------------------------------------------------------ */

typedef struct {
  GApplication *app;
  gint64        spawned;
  gint64        first_frame;
  gint64        sidebar_frame;
  guint         read_at_frame;
  GtkWidget    *window;
  GtkWidget    *sidebar;
  gboolean      expect_rows;
} Start;

static GtkWidget *
find_sidebar (GtkWidget *widget)
{
  if (GTK_IS_LIST_VIEW (widget))
    {
      GtkSelectionModel *model = gtk_list_view_get_model (GTK_LIST_VIEW (widget));

      if (GTK_IS_SINGLE_SELECTION (model) &&
          AKC_IS_SIDEBAR_MODEL (gtk_single_selection_get_model (GTK_SINGLE_SELECTION (model))))
        return widget;
    }
  for (GtkWidget *child = gtk_widget_get_first_child (widget); child != NULL; child = gtk_widget_get_next_sibling (child))
    {
      GtkWidget *found = find_sidebar (child);

      if (found != NULL)
        return found;
    }

  return NULL;
}

static guint
n_read (Start *start)
{
  AkcAppSession *session = akc_application_get_session (AKC_APPLICATION (start->app));

  return g_list_model_get_n_items (akc_app_session_get_conversations (session));
}

static guint
n_rows (Start *start)
{
  GtkSelectionModel *model;

  if (start->sidebar == NULL)
    start->sidebar = find_sidebar (start->window);
  if (start->sidebar == NULL)
    return 0;
  model = gtk_list_view_get_model (GTK_LIST_VIEW (start->sidebar));
  return g_list_model_get_n_items (G_LIST_MODEL (model));
}

static gboolean
report_idle (gpointer user_data)
{
  Start *start = user_data;

  printf ("first_frame_ms=%.3f\n", (start->first_frame - start->spawned) / 1e3);
  printf ("sidebar_frame_ms=%.3f\n", (start->sidebar_frame - start->spawned) / 1e3);
  printf ("read_at_frame=%u\n", start->read_at_frame);
  printf ("read_idle=%u\n", n_read (start));
  printf ("idle_rss_mib=%.3f\n", akc_bench_rss_mib ());
  g_application_quit (start->app);

  return G_SOURCE_REMOVE;
}

static gboolean
give_up (gpointer user_data)
{
  Start *start = user_data;

  fprintf (stderr, "akc-bench-sidebar: the sidebar listed nothing in %d s\n", GIVE_UP_SECONDS);
  g_application_quit (start->app);

  return G_SOURCE_REMOVE;
}

static void
on_after_paint (GdkFrameClock *clock,
                Start         *start)
{
  gint64 now = g_get_monotonic_time ();

  if (start->first_frame == 0)
    start->first_frame = now;
  /* An empty history: the first frame is the sidebar's (its empty state). */
  if (start->expect_rows && n_rows (start) == 0)
    return;

  start->sidebar_frame = now;
  start->read_at_frame = n_read (start);
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
run_child (gint64   spawned,
           gboolean expect_rows)
{
  const char *argv[] = { "agentskit-chat", NULL };
  Start start = { 0 };
  g_autoptr(AkcApplication) app = NULL;
  int status;

  setlocale (LC_ALL, "");
  g_set_application_name ("AgentsKit Chat");
  app = akc_application_new ();
  start.app = G_APPLICATION (app);
  start.spawned = spawned;
  start.expect_rows = expect_rows;
  g_signal_connect (app, "window-added", G_CALLBACK (on_window_added), &start);
  g_timeout_add_seconds (GIVE_UP_SECONDS, give_up, &start);

  status = g_application_run (G_APPLICATION (app), 1, (char **) argv);
  if (status != 0 || start.sidebar_frame == 0)
    {
      fprintf (stderr, "akc-bench-sidebar: the application exited with %d before its sidebar's first frame\n", status);
      return 1;
    }

  return 0;
}

/* ------------------------------------------------------------------ */
/* The history                                                         */
/* ------------------------------------------------------------------ */

/* The schema, as this version writes it: opened once and closed. */
static void
create_schema (const char *path)
{
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;
  AkcSqliteChatMemory *memory;
  GObject *object;

  akc_sqlite_chat_memory_new_async (path, NULL, akc_bench_store_result, &result);
  while (result == NULL)
    g_main_context_iteration (NULL, TRUE);
  memory = akc_sqlite_chat_memory_new_finish (result, &error);
  if (memory == NULL)
    akc_bench_die ("create the history", error->message);
  g_clear_object (&result);  /* it holds the memory too */
  object = G_OBJECT (memory);
  g_object_add_weak_pointer (object, (gpointer *) &object);
  g_object_unref (memory);
  while (object != NULL)
    g_main_context_iteration (NULL, TRUE);
}

static void
exec_or_die (sqlite3    *db,
             const char *sql)
{
  char *message = NULL;

  if (sqlite3_exec (db, sql, NULL, NULL, &message) != SQLITE_OK)
    akc_bench_die (sql, message);
}

static void
fill (const char *path,
      guint       n_conversations)
{
  static const char * const words[] = {
    "printer", "invoice", "router", "laptop", "refund", "garden", "recipe", "trip", "budget", "lesson",
    "meeting", "parcel", "backup", "screen", "battery", "ticket", "account", "update", "plan", "report",
  };
  static const char * const assistants[] = { "hello-world", "support", "ask" };
  g_autoptr(GRand) rand = g_rand_new_with_seed (14);
  sqlite3 *db = NULL;
  sqlite3_stmt *conversation = NULL;
  sqlite3_stmt *message = NULL;
  gint64 now = g_get_real_time ();

  if (sqlite3_open (path, &db) != SQLITE_OK)
    akc_bench_die ("open", sqlite3_errmsg (db));
  exec_or_die (db, "BEGIN");
  if (sqlite3_prepare_v2 (db, "INSERT INTO conversations (id, title, created_at, updated_at, assistant_id, pinned)"
                              " VALUES (?1, ?2, ?3, ?3, ?4, ?5)", -1, &conversation, NULL) != SQLITE_OK ||
      sqlite3_prepare_v2 (db, "INSERT INTO messages (conversation_id, position, id, role, status, content, created_at)"
                              " VALUES (?1, ?2, ?3, ?4, 'complete', ?5, ?6)", -1, &message, NULL) != SQLITE_OK)
    akc_bench_die ("prepare", sqlite3_errmsg (db));

  for (guint c = 0; c < n_conversations; c++)
    {
      const char *assistant = assistants[c % G_N_ELEMENTS (assistants)];
      g_autofree char *id = g_strdup_printf ("%s:bench-%05u", assistant, c);
      g_autofree char *title = g_strdup_printf ("About the %s and the %s",
                                                words[g_rand_int_range (rand, 0, G_N_ELEMENTS (words))],
                                                words[g_rand_int_range (rand, 0, G_N_ELEMENTS (words))]);
      /* Newest last; 10,000 steps of 50 minutes: about a year. */
      gint64 time = now - (gint64) (n_conversations - c) * 50 * 60 * G_USEC_PER_SEC;

      sqlite3_bind_text (conversation, 1, id, -1, SQLITE_STATIC);
      sqlite3_bind_text (conversation, 2, title, -1, SQLITE_STATIC);
      sqlite3_bind_int64 (conversation, 3, time);
      sqlite3_bind_text (conversation, 4, assistant, -1, SQLITE_STATIC);
      sqlite3_bind_int (conversation, 5, c % 500 == 0);
      if (sqlite3_step (conversation) != SQLITE_DONE)
        akc_bench_die ("insert a conversation", sqlite3_errmsg (db));
      sqlite3_reset (conversation);

      for (guint m = 0; m < MESSAGES_PER_CONVERSATION; m++)
        {
          g_autofree char *message_id = g_strdup_printf ("m-%u", m);

          sqlite3_bind_text (message, 1, id, -1, SQLITE_STATIC);
          sqlite3_bind_int (message, 2, m);
          sqlite3_bind_text (message, 3, message_id, -1, SQLITE_STATIC);
          sqlite3_bind_text (message, 4, m % 2 == 0 ? "user" : "assistant", -1, SQLITE_STATIC);
          sqlite3_bind_text (message, 5, m % 2 == 0 ? title : "Here is what I found.", -1, SQLITE_STATIC);
          sqlite3_bind_int64 (message, 6, time);
          if (sqlite3_step (message) != SQLITE_DONE)
            akc_bench_die ("insert a message", sqlite3_errmsg (db));
          sqlite3_reset (message);
        }
    }

  sqlite3_finalize (conversation);
  sqlite3_finalize (message);
  exec_or_die (db, "COMMIT");
  sqlite3_close (db);
}

/* ------------------------------------------------------------------ */
/* The parent run                                                      */
/* ------------------------------------------------------------------ */

typedef struct {
  double first_frame[STARTS];
  double sidebar_frame[STARTS];
  double read_at_frame[STARTS];
  double read_idle[STARTS];
  double rss[STARTS];
} Figures;

static void
run_start (const char *self_path,
           const char *home,
           gboolean    expect_rows,
           Figures    *figures,
           guint       i)
{
  g_autofree char *spawned = g_strdup_printf ("%" G_GINT64_FORMAT, g_get_monotonic_time ());
  g_auto(GStrv) env = akc_bench_profile_environ (home, BUILD_SCHEMA_DIR);
  const char *argv[] = { self_path, "--child", spawned, expect_rows ? "rows" : "empty", NULL };
  g_autoptr(GHashTable) values = akc_bench_run_child (argv, env, NULL);

  figures->first_frame[i] = akc_bench_value_of (values, "first_frame_ms");
  figures->sidebar_frame[i] = akc_bench_value_of (values, "sidebar_frame_ms");
  figures->read_at_frame[i] = akc_bench_value_of (values, "read_at_frame");
  figures->read_idle[i] = akc_bench_value_of (values, "read_idle");
  figures->rss[i] = akc_bench_value_of (values, "idle_rss_mib");
}

static void
print_figures (const char *what,
               Figures    *figures)
{
  printf ("%s, median of %d starts:\n", what, STARTS);
  printf ("  spawn to first frame %8.1f ms   to the sidebar's first frame %8.1f ms\n",
          akc_bench_median (figures->first_frame, STARTS), akc_bench_median (figures->sidebar_frame, STARTS));
  printf ("  conversations read: %.0f at that frame, %.0f once idle   idle RSS %6.1f MiB\n",
          akc_bench_median (figures->read_at_frame, STARTS), akc_bench_median (figures->read_idle, STARTS),
          akc_bench_median (figures->rss, STARTS));
}

/* A profile whose history has @n conversations (none: no history yet). */
static char *
make_profile (guint n)
{
  g_autofree char *folder = NULL;
  g_autofree char *path = NULL;
  char *home = akc_bench_profile_new ();
  gint64 start = g_get_monotonic_time ();

  if (n == 0)
    return home;

  folder = g_build_filename (home, "data", "agentskit-chat", NULL);
  if (g_mkdir_with_parents (folder, 0700) != 0)
    akc_bench_die ("make the history's folder", folder);
  path = g_build_filename (folder, "history.sqlite3", NULL);
  create_schema (path);
  fill (path, n);
  printf ("history: %u conversations, %u messages, built in %.1f s\n", n,
          n * MESSAGES_PER_CONVERSATION, (g_get_monotonic_time () - start) / 1e6);

  return home;
}

int
main (int   argc,
      char *argv[])
{
  const guint sizes[] = { N_CONVERSATIONS, 10, 0 };
  const char * const names[] = { "10,000 conversations", "10 conversations", "no history yet (first run)" };
  char *homes[G_N_ELEMENTS (sizes)];
  Figures figures[G_N_ELEMENTS (sizes)];
  double read_idle;

  if (argc == 4 && g_str_equal (argv[1], "--child"))
    return run_child (g_ascii_strtoll (argv[2], NULL, 10), g_str_equal (argv[3], "rows"));
  /* After the child: it runs as the application names itself. */
  g_set_prgname ("akc-bench-sidebar");

  memset (figures, 0, sizeof figures);
  for (guint k = 0; k < G_N_ELEMENTS (sizes); k++)
    homes[k] = make_profile (sizes[k]);

  /* In turns, so the load of the machine falls on each alike. */
  for (guint i = 0; i < STARTS; i++)
    for (guint k = 0; k < G_N_ELEMENTS (sizes); k++)
      run_start (argv[0], homes[k], sizes[k] > 0, &figures[k], i);

  printf ("Start-up to the sidebar (GTK %u.%u.%u, GSK_RENDERER=%s):\n", gtk_get_major_version (),
          gtk_get_minor_version (), gtk_get_micro_version (),
          g_getenv ("GSK_RENDERER") != NULL ? g_getenv ("GSK_RENDERER") : "default");
  for (guint k = 0; k < G_N_ELEMENTS (sizes); k++)
    {
      print_figures (names[k], &figures[k]);
      akc_bench_remove_tree (homes[k]);
      g_free (homes[k]);
    }

  read_idle = akc_bench_median (figures[0].read_idle, STARTS);
  if (read_idle >= N_CONVERSATIONS)
    akc_bench_die ("the sidebar", "read the whole history without being scrolled");

  return 0;
}
