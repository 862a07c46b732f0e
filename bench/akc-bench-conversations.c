/* akc-bench-conversations.c: the sidebar's reads at 10,000 conversations
 * and search at 100,000 messages (issue 14)
 *
 * SPDX-License-Identifier: MIT
 *
 * Builds a history in a temporary folder with 10,000 conversations of 10
 * messages each (100,000 messages of ~40 words drawn from a fixed
 * vocabulary, with a seeded generator, so every run has the same text),
 * opens it with AkcSqliteChatMemory as the app does, and prints, each the
 * akc_bench_median of several runs on a warm cache:
 *  - the first page of the list (64 conversations) through
 *    akc_chat_memory_list_conversations_page(), and through an
 *    AkcConversationList (from its creation to its first items-changed:
 *    what the sidebar waits for before its first frame);
 *  - a page deep in the list (offset 9,936);
 *  - searches of a common word, a rare word, two words, a prefix as it is
 *    typed, and a word that is nowhere, 50 results at most.
 * Times are wall-clock milliseconds on this machine, including the hop to
 * the worker thread and back. It exits 1 when the history cannot be built
 * or read, or a search finds nothing where the text has matches.
 *
 *   akc-bench-conversations
 */

#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <glib/gstdio.h>
#include <sqlite3.h>

#include "akc.h"
#include "akc-bench-util.h"

#define N_CONVERSATIONS 10000
#define MESSAGES_PER_CONVERSATION 10
#define WORDS_PER_MESSAGE 40
#define PAGE 64
#define RUNS 15
#define SEARCH_LIMIT 50

static G_NORETURN void
die (const char *what,
     const char *detail)
{
  fprintf (stderr, "akc-bench-conversations: %s: %s\n", what, detail != NULL ? detail : "");
  exit (1);
}

/* A vocabulary of made-up words, with a few real ones that are common,
 * rare, or used as prefixes. */
static char **
make_vocabulary (GRand *rand,
                 guint  n)
{
  static const char syllables[][4] = { "ka", "lo", "mi", "ne", "ru", "sa", "to", "vi", "do", "pe", "zu", "fa" };
  char **words = g_new0 (char *, n + 1);

  for (guint i = 0; i < n; i++)
    {
      GString *word = g_string_new (NULL);
      guint length = 2 + g_rand_int_range (rand, 0, 3);

      for (guint j = 0; j < length; j++)
        g_string_append (word, syllables[g_rand_int_range (rand, 0, G_N_ELEMENTS (syllables))]);
      words[i] = g_string_free (word, FALSE);
    }

  return words;
}

static void
exec_or_die (sqlite3    *db,
             const char *sql)
{
  char *message = NULL;

  if (sqlite3_exec (db, sql, NULL, NULL, &message) != SQLITE_OK)
    die (sql, message);
}

/* Fills the history (already created by the memory, so it has this
 * version's schema and triggers) in one transaction. */
static void
fill (const char *path)
{
  g_autoptr(GRand) rand = g_rand_new_with_seed (14);
  g_auto(GStrv) vocabulary = make_vocabulary (rand, 5000);
  sqlite3 *db = NULL;
  sqlite3_stmt *conversation = NULL;
  sqlite3_stmt *message = NULL;
  gint64 now = g_get_real_time ();

  if (sqlite3_open (path, &db) != SQLITE_OK)
    die ("open", sqlite3_errmsg (db));
  exec_or_die (db, "BEGIN");

  if (sqlite3_prepare_v2 (db, "INSERT INTO conversations (id, title, created_at, updated_at, assistant_id, pinned)"
                              " VALUES (?1, ?2, ?3, ?3, ?4, ?5)", -1, &conversation, NULL) != SQLITE_OK ||
      sqlite3_prepare_v2 (db, "INSERT INTO messages (conversation_id, position, id, role, status, content, created_at)"
                              " VALUES (?1, ?2, ?3, ?4, 'complete', ?5, ?6)", -1, &message, NULL) != SQLITE_OK)
    die ("prepare", sqlite3_errmsg (db));

  for (guint c = 0; c < N_CONVERSATIONS; c++)
    {
      g_autofree char *id = g_strdup_printf ("bench-%05u", c);
      g_autofree char *title = g_strdup_printf ("%s %s %s", vocabulary[g_rand_int_range (rand, 0, 5000)],
                                                vocabulary[g_rand_int_range (rand, 0, 5000)],
                                                c % 1000 == 0 ? "printer" : "notes");
      gint64 time = now - (gint64) (N_CONVERSATIONS - c) * 60 * G_USEC_PER_SEC;

      sqlite3_bind_text (conversation, 1, id, -1, SQLITE_STATIC);
      sqlite3_bind_text (conversation, 2, title, -1, SQLITE_STATIC);
      sqlite3_bind_int64 (conversation, 3, time);
      sqlite3_bind_text (conversation, 4, c % 3 == 0 ? "hello-world" : c % 3 == 1 ? "support" : "ask", -1,
                         SQLITE_STATIC);
      sqlite3_bind_int (conversation, 5, c % 500 == 0);
      if (sqlite3_step (conversation) != SQLITE_DONE)
        die ("insert a conversation", sqlite3_errmsg (db));
      sqlite3_reset (conversation);

      for (guint m = 0; m < MESSAGES_PER_CONVERSATION; m++)
        {
          g_autofree char *message_id = g_strdup_printf ("m-%u", m);
          g_autoptr(GString) text = g_string_new (NULL);

          for (guint w = 0; w < WORDS_PER_MESSAGE; w++)
            {
              if (w > 0)
                g_string_append_c (text, ' ');
              g_string_append (text, vocabulary[g_rand_int_range (rand, 0, 5000)]);
            }
          /* A word in every tenth message, one in a thousand messages. */
          if ((c * MESSAGES_PER_CONVERSATION + m) % 10 == 0)
            g_string_append (text, " the printer is offline");
          if ((c * MESSAGES_PER_CONVERSATION + m) % 1000 == 7)
            g_string_append (text, " a paper jam in tray two");

          sqlite3_bind_text (message, 1, id, -1, SQLITE_STATIC);
          sqlite3_bind_int (message, 2, m);
          sqlite3_bind_text (message, 3, message_id, -1, SQLITE_STATIC);
          sqlite3_bind_text (message, 4, m % 2 == 0 ? "user" : "assistant", -1, SQLITE_STATIC);
          sqlite3_bind_text (message, 5, text->str, text->len, SQLITE_STATIC);
          sqlite3_bind_int64 (message, 6, time);
          if (sqlite3_step (message) != SQLITE_DONE)
            die ("insert a message", sqlite3_errmsg (db));
          sqlite3_reset (message);
        }
    }

  sqlite3_finalize (conversation);
  sqlite3_finalize (message);
  exec_or_die (db, "COMMIT");
  exec_or_die (db, "INSERT INTO message_search (message_search) VALUES ('optimize')");
  sqlite3_close (db);
}

static AkcChatMemory *
open_memory (const char *path)
{
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;
  AkcSqliteChatMemory *memory;

  akc_sqlite_chat_memory_new_async (path, NULL, akc_bench_store_result, &result);
  memory = akc_sqlite_chat_memory_new_finish (akc_bench_wait_result (&result), &error);
  if (memory == NULL)
    die ("open the history", error->message);

  return AKC_CHAT_MEMORY (memory);
}

static void
close_memory (AkcChatMemory *memory)
{
  g_object_unref (memory);
}

static double
time_page (AkcChatMemory *memory,
           guint          offset)
{
  double runs[RUNS];

  for (guint i = 0; i < RUNS; i++)
    {
      g_autoptr(GAsyncResult) result = NULL;
      g_autoptr(GListModel) page = NULL;
      g_autoptr(GError) error = NULL;
      gint64 start = g_get_monotonic_time ();

      akc_chat_memory_list_conversations_page_async (memory, offset, PAGE, NULL, akc_bench_store_result, &result);
      page = akc_chat_memory_list_conversations_page_finish (memory, akc_bench_wait_result (&result), &error);
      runs[i] = (g_get_monotonic_time () - start) / 1000.0;
      if (page == NULL)
        die ("list a page", error->message);
      if (g_list_model_get_n_items (page) != PAGE)
        die ("list a page", "the page is short");
    }

  return akc_bench_median (runs, RUNS);
}

static void
on_items_changed (GListModel *model,
                  guint       position,
                  guint       removed,
                  guint       added,
                  gint64     *when)
{
  if (*when == 0)
    *when = g_get_monotonic_time ();
}

static double
time_list_model (AkcChatMemory *memory)
{
  double runs[RUNS];

  for (guint i = 0; i < RUNS; i++)
    {
      g_autoptr(AkcConversationList) list = NULL;
      gint64 start = g_get_monotonic_time ();
      gint64 when = 0;

      list = akc_conversation_list_new (memory);
      g_signal_connect (list, "items-changed", G_CALLBACK (on_items_changed), &when);
      while (when == 0 && akc_conversation_list_get_error (list) == NULL)
        g_main_context_iteration (NULL, TRUE);
      if (akc_conversation_list_get_error (list) != NULL)
        die ("fill the list model", akc_conversation_list_get_error (list)->message);
      runs[i] = (when - start) / 1000.0;
      if (g_list_model_get_n_items (G_LIST_MODEL (list)) != AKC_CONVERSATION_LIST_DEFAULT_PAGE_SIZE)
        die ("fill the list model", "the first page is short");
      g_signal_handlers_disconnect_by_func (list, on_items_changed, &when);
    }

  return akc_bench_median (runs, RUNS);
}

static double
time_search (AkcChatMemory *memory,
             const char    *text,
             guint         *n_results)
{
  double runs[RUNS];

  for (guint i = 0; i < RUNS; i++)
    {
      g_autoptr(GAsyncResult) result = NULL;
      g_autoptr(GListModel) results = NULL;
      g_autoptr(GError) error = NULL;
      gint64 start = g_get_monotonic_time ();

      akc_sqlite_chat_memory_search_async (AKC_SQLITE_CHAT_MEMORY (memory), text, SEARCH_LIMIT, NULL,
                                           akc_bench_store_result, &result);
      results = akc_sqlite_chat_memory_search_finish (AKC_SQLITE_CHAT_MEMORY (memory), akc_bench_wait_result (&result),
                                                      &error);
      runs[i] = (g_get_monotonic_time () - start) / 1000.0;
      if (results == NULL)
        die ("search", error->message);
      *n_results = g_list_model_get_n_items (results);
    }

  return akc_bench_median (runs, RUNS);
}

int
main (int   argc,
      char *argv[])
{
  g_autoptr(GError) error = NULL;
  g_autofree char *folder = g_dir_make_tmp ("akc-bench-conversations-XXXXXX", &error);
  g_autofree char *path = NULL;
  AkcChatMemory *memory;
  gint64 start;
  struct {
    const char *text;
    const char *what;
    gboolean    finds;
  } searches[] = {
    { "printer", "a common word (in 10% of messages)", TRUE },
    { "jam", "a rare word (in 0.1% of messages)", TRUE },
    { "paper jam", "two words", TRUE },
    { "offl", "a prefix, as typed", TRUE },
    { "zzyzx", "a word that is nowhere", FALSE },
  };

  if (folder == NULL)
    die ("make a temporary folder", error->message);
  path = g_build_filename (folder, "history.sqlite3", NULL);

  /* The schema, as this version writes it. */
  memory = open_memory (path);
  close_memory (memory);

  start = g_get_monotonic_time ();
  fill (path);
  printf ("history: %u conversations, %u messages, built in %.1f s\n", N_CONVERSATIONS,
          N_CONVERSATIONS * MESSAGES_PER_CONVERSATION, (g_get_monotonic_time () - start) / 1e6);

  memory = open_memory (path);

  printf ("list, first page (%u of %u conversations): %.2f ms\n", PAGE, N_CONVERSATIONS, time_page (memory, 0));
  printf ("AkcConversationList, creation to first items: %.2f ms\n", time_list_model (memory));
  printf ("list, page at offset %u: %.2f ms\n", N_CONVERSATIONS - PAGE, time_page (memory, N_CONVERSATIONS - PAGE));

  for (guint i = 0; i < G_N_ELEMENTS (searches); i++)
    {
      guint n = 0;
      double ms = time_search (memory, searches[i].text, &n);

      printf ("search “%s”, %s, in %u messages: %.2f ms, %u results\n", searches[i].text, searches[i].what,
              N_CONVERSATIONS * MESSAGES_PER_CONVERSATION, ms, n);
      if (searches[i].finds ? n == 0 : n != 0)
        die ("search", "the results are not those of the text");
    }

  close_memory (memory);

  {
    const char *suffixes[] = { "", "-wal", "-shm" };

    for (guint i = 0; i < G_N_ELEMENTS (suffixes); i++)
      {
        g_autofree char *file = g_strconcat (path, suffixes[i], NULL);

        g_unlink (file);
      }
    g_rmdir (folder);
  }

  return 0;
}
