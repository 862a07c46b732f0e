/* akc-server-main.c: akc-server, the chat turn handler over HTTP
 *
 * SPDX-License-Identifier: MIT
 *
 *   akc-server --config FILE [--listen HOST:PORT]
 *   akc-server --check-config FILE
 *   akc-server index --corpus ID --database FILE [--base-href HREF] DIR…
 *
 * One process, one main loop: every request is answered asynchronously.
 * When it listens it prints one line per address, `listening on URI`, on
 * standard output. SIGTERM and SIGINT drain: no new turn is taken, the
 * running ones end with their diagnostic and release their lease, and the
 * process exits when they are done (at most 30 s later).
 */

#include "config.h"

#include <glib/gi18n.h>
#include <glib-unix.h>
#include <locale.h>
#include <stdio.h>

#include "akc-fts-corpus.h"
#include "akc-server.h"

#define DRAIN_LIMIT_MS 30000

typedef struct
{
  GMainLoop    *loop;
  AkcServer    *server;
  GAsyncResult *result;
  gint64        drain_deadline;
  int           status;
} App;

static void
on_created (GObject      *source,
            GAsyncResult *result,
            gpointer      user_data)
{
  App *app = user_data;

  app->result = g_object_ref (result);
  g_main_loop_quit (app->loop);
}

static gboolean
check_drained (gpointer user_data)
{
  App *app = user_data;

  if (akc_server_get_n_active (app->server) > 0 && g_get_monotonic_time () < app->drain_deadline)
    return G_SOURCE_CONTINUE;
  g_main_loop_quit (app->loop);
  return G_SOURCE_REMOVE;
}

static gboolean
on_signal (gpointer user_data)
{
  App *app = user_data;

  if (app->drain_deadline != 0)
    return G_SOURCE_CONTINUE;
  g_message ("akc-server: draining");
  app->drain_deadline = g_get_monotonic_time () + DRAIN_LIMIT_MS * G_TIME_SPAN_MILLISECOND;
  akc_server_drain (app->server);
  g_timeout_add (20, check_drained, app);
  return G_SOURCE_CONTINUE;
}

static int
run_index (int   argc,
           char *argv[])
{
  g_autofree char *corpus = NULL;
  g_autofree char *database = NULL;
  g_autofree char *base_href = NULL;
  g_auto(GStrv) folders = NULL;
  GOptionEntry entries[] = {
    { "corpus", 0, 0, G_OPTION_ARG_STRING, &corpus, N_("The corpus id the sites name"), N_("ID") },
    { "database", 0, 0, G_OPTION_ARG_FILENAME, &database, N_("Write the index to FILE"), N_("FILE") },
    { "base-href", 0, 0, G_OPTION_ARG_STRING, &base_href, N_("Put HREF before each document's path (default /)"),
      N_("HREF") },
    { G_OPTION_REMAINING, 0, 0, G_OPTION_ARG_FILENAME_ARRAY, &folders, NULL, N_("DIR…") },
    { NULL }
  };
  g_autoptr(GOptionContext) context = g_option_context_new (N_("DIR…"));
  g_autoptr(GError) error = NULL;
  guint n = 0;

  g_option_context_set_summary (context, _("Index the Markdown and text files under DIR for an Ask corpus."));
  g_option_context_add_main_entries (context, entries, GETTEXT_PACKAGE);
  if (!g_option_context_parse (context, &argc, &argv, &error))
    {
      g_printerr ("akc-server index: %s\n", error->message);
      return 2;
    }
  if (corpus == NULL || database == NULL || folders == NULL || folders[0] == NULL)
    {
      g_printerr (_("akc-server index: give --corpus ID --database FILE and at least one folder\n"));
      return 2;
    }
  if (!akc_fts_corpus_index (database, corpus, base_href, (const char * const *) folders, &n, &error))
    {
      g_printerr ("akc-server index: %s\n", error->message);
      return 1;
    }
  g_print (_("akc-server: indexed %u documents\n"), n);
  return 0;
}

int
main (int   argc,
      char *argv[])
{
  g_autofree char *config = NULL;
  g_autofree char *check = NULL;
  g_autofree char *listen = NULL;
  GOptionEntry entries[] = {
    { "config", 0, 0, G_OPTION_ARG_FILENAME, &config, N_("Serve with the configuration FILE"), N_("FILE") },
    { "listen", 0, 0, G_OPTION_ARG_STRING, &listen, N_("Listen on HOST:PORT instead of the configuration's addresses"),
      N_("HOST:PORT") },
    { "check-config", 0, 0, G_OPTION_ARG_FILENAME, &check, N_("Check the configuration FILE and exit"), N_("FILE") },
    { NULL }
  };
  g_autoptr(GOptionContext) context = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GMainLoop) loop = NULL;
  App app = { 0, };

  setlocale (LC_ALL, "");
  bindtextdomain (GETTEXT_PACKAGE, LOCALEDIR);
  bind_textdomain_codeset (GETTEXT_PACKAGE, "UTF-8");
  textdomain (GETTEXT_PACKAGE);

  if (argc > 1 && g_strcmp0 (argv[1], "index") == 0)
    return run_index (argc - 1, argv + 1);

  context = g_option_context_new (NULL);
  g_option_context_set_summary (context, _("Serve chat turns (agentskit.chat.turn) over HTTP."));
  g_option_context_add_main_entries (context, entries, GETTEXT_PACKAGE);
  if (!g_option_context_parse (context, &argc, &argv, &error))
    {
      g_printerr ("akc-server: %s\n", error->message);
      return 2;
    }
  if ((config == NULL) == (check == NULL) || argc > 1 || (check != NULL && listen != NULL))
    {
      g_printerr (_("akc-server: give either --config FILE [--listen HOST:PORT] or --check-config FILE\n"));
      return 2;
    }

  loop = g_main_loop_new (NULL, FALSE);
  app.loop = loop;
  akc_server_new_async (config != NULL ? config : check, NULL, on_created, &app);
  g_main_loop_run (loop);
  app.server = akc_server_new_finish (app.result, &error);
  g_clear_object (&app.result);
  if (app.server == NULL)
    {
      g_printerr (_("akc-server: the configuration is invalid: %s\n"), error->message);
      return 1;
    }

  if (check != NULL)
    {
      g_print (_("akc-server: the configuration is valid\n"));
      g_object_unref (app.server);
      return 0;
    }

  if (!akc_server_listen (app.server, listen, &error))
    {
      g_printerr (_("akc-server: cannot listen: %s\n"), error->message);
      g_object_unref (app.server);
      return 1;
    }
  {
    GPtrArray *uris = akc_server_get_uris (app.server);

    for (guint i = 0; i < uris->len; i++)
      printf ("listening on %s\n", (const char *) g_ptr_array_index (uris, i));
    fflush (stdout);
  }

  g_unix_signal_add (SIGTERM, on_signal, &app);
  g_unix_signal_add (SIGINT, on_signal, &app);
  g_main_loop_run (loop);

  akc_server_flush_metrics (app.server);
  g_object_unref (app.server);
  return app.status;
}
