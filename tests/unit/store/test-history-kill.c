/* test-history-kill.c: a process killed with SIGKILL while a reply streams
 * leaves a consistent history holding every message it had completed
 *
 * SPDX-License-Identifier: MIT
 *
 * Each round starts akc-history-writer on the same database, reads what
 * it reports as stored, and kills it (SIGKILL) once some messages are
 * complete: in the middle of a streaming reply, or right as a reply was
 * reported complete, at a different moment each round. Then the database must pass integrity_check and hold:
 *
 *  - every message stored before the round, unchanged (a reply that was
 *    interrupted in the round before now reads as stopped);
 *  - every message the writer reported complete, byte for byte;
 *  - then the turns of this round in order: each question whole, each
 *    reply whole, except that the very last reply may be partial (a
 *    prefix of what it would have been, at least as long as its last
 *    reported checkpoint) or, with its question, missing.
 */

#include "config.h"

#include <signal.h>
#include <string.h>

#include "akc-kill-script.h"
#include "akc-store-test.h"

#define N_ROUNDS 8

static const char *writer_path;

typedef struct
{
  char   *id;
  gsize   length;
  char   *checksum;
} Reported;

static void
reported_free (gpointer data)
{
  Reported *reported = data;

  g_free (reported->id);
  g_free (reported->checksum);
  g_free (reported);
}

typedef struct
{
  guint       round;
  GHashTable *complete;        /* id -> Reported, this round */
  GHashTable *checkpoints;     /* reply id -> longest reported length */
  guint       n_turns;         /* "turn" lines this round */
  guint       n_complete;
  guint       n_checkpoints;   /* of the reply in progress */
  guint       loaded;
  gboolean    got_loaded;
} Round;

static void
round_take_line (Round      *round,
                 const char *line)
{
  g_auto(GStrv) words = g_strsplit (line, " ", -1);
  guint n = g_strv_length (words);

  g_test_message ("writer: %s", line);

  if (n == 2 && strcmp (words[0], "loaded") == 0)
    {
      round->loaded = (guint) g_ascii_strtoull (words[1], NULL, 10);
      round->got_loaded = TRUE;
    }
  else if (n == 4 && strcmp (words[0], "turn") == 0)
    {
      g_assert_cmpuint (g_ascii_strtoull (words[1], NULL, 10), ==, round->n_turns);
      round->n_turns++;
      round->n_checkpoints = 0;
    }
  else if (n == 3 && strcmp (words[0], "checkpoint") == 0)
    {
      gsize length = g_ascii_strtoull (words[2], NULL, 10);
      gsize known = GPOINTER_TO_SIZE (g_hash_table_lookup (round->checkpoints, words[1]));

      g_hash_table_insert (round->checkpoints, g_strdup (words[1]), GSIZE_TO_POINTER (MAX (known, length)));
      round->n_checkpoints++;
    }
  else if (n == 4 && strcmp (words[0], "complete") == 0)
    {
      Reported *reported = g_new0 (Reported, 1);

      reported->id = g_strdup (words[1]);
      reported->length = g_ascii_strtoull (words[2], NULL, 10);
      reported->checksum = g_strdup (words[3]);
      g_hash_table_insert (round->complete, reported->id, reported);
      round->n_complete++;
      /* Checkpoints count for the reply in progress, not one that is done. */
      round->n_checkpoints = 0;
    }
  else
    g_error ("unexpected line from the writer: %s", line);
}

static gboolean
bytes_have_prefix (GBytes     *whole,
                   const char *prefix,
                   gsize       length)
{
  gsize whole_length;
  const char *data = g_bytes_get_data (whole, &whole_length);

  return length <= whole_length && memcmp (data, prefix, length) == 0;
}

static void
assert_integrity (const char *path)
{
  sqlite3 *db = akc_test_sql_open (path);
  sqlite3_stmt *stmt = NULL;

  /* Opening after the kill replays the log; the result must be whole. */
  g_assert_cmpint (sqlite3_prepare_v2 (db, "PRAGMA integrity_check", -1, &stmt, NULL), ==, SQLITE_OK);
  g_assert_cmpint (sqlite3_step (stmt), ==, SQLITE_ROW);
  g_assert_cmpstr ((const char *) sqlite3_column_text (stmt, 0), ==, "ok");
  sqlite3_finalize (stmt);

  g_assert_cmpint (sqlite3_prepare_v2 (db, "PRAGMA foreign_key_check", -1, &stmt, NULL), ==, SQLITE_OK);
  g_assert_cmpint (sqlite3_step (stmt), ==, SQLITE_DONE);
  sqlite3_finalize (stmt);

  sqlite3_close (db);
}

/* Checks the stored conversation after a round, and returns it. */
static GListModel *
verify (const char *path,
        GListModel *before,
        Round      *round)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GListModel) messages = NULL;
  AkcChatMemory *memory;
  guint n_before = g_list_model_get_n_items (before);
  guint n;

  assert_integrity (path);

  memory = akc_test_open (path);
  messages = akc_test_load (memory, KILL_CONVERSATION, &error);
  g_assert_no_error (error);
  akc_test_close (memory);

  n = g_list_model_get_n_items (messages);
  g_assert_cmpuint (n, >=, n_before);

  /* What was there before is still there, as it was; an interrupted reply
   * was marked stopped by the writer that read it. */
  for (guint i = 0; i < n_before; i++)
    {
      g_autoptr(AkcMessage) old = g_list_model_get_item (before, i);
      g_autoptr(AkcMessage) now = g_list_model_get_item (messages, i);

      g_assert_cmpstr (akc_message_get_id (old), ==, akc_message_get_id (now));
      g_assert_cmpmem (akc_message_get_content (old), akc_message_get_content_length (old),
                       akc_message_get_content (now), akc_message_get_content_length (now));
      g_assert_cmpint (akc_message_get_status (now), ==, AKC_MESSAGE_STATUS_COMPLETE);
      if (akc_message_get_status (old) != AKC_MESSAGE_STATUS_COMPLETE)
        g_assert_true (akc_message_get_stopped (now));
      else
        g_assert_cmpint (akc_message_get_stopped (now), ==, akc_message_get_stopped (old));
    }

  /* Then this round's turns, question and reply, in order. */
  for (guint i = n_before, turn = 0; i < n; i += 2, turn++)
    {
      g_autoptr(AkcMessage) user = g_list_model_get_item (messages, i);
      g_autofree char *question = kill_user_text (round->round, turn);
      g_autoptr(GBytes) expected = kill_reply (round->round, turn);
      g_autoptr(AkcMessage) reply = NULL;
      gboolean last = i + 2 >= n;

      g_assert_cmpint (akc_message_get_role (user), ==, AKC_MESSAGE_ROLE_USER);
      g_assert_cmpstr (akc_message_get_content (user), ==, question);
      g_assert_cmpint (akc_message_get_status (user), ==, AKC_MESSAGE_STATUS_COMPLETE);

      /* Killed between the question and its reply. */
      if (i + 1 == n)
        break;

      reply = g_list_model_get_item (messages, i + 1);
      g_assert_cmpint (akc_message_get_role (reply), ==, AKC_MESSAGE_ROLE_ASSISTANT);
      g_assert_true (bytes_have_prefix (expected, akc_message_get_content (reply),
                                        akc_message_get_content_length (reply)));
      g_assert_cmpuint (akc_message_get_content_length (reply), >=,
                        GPOINTER_TO_SIZE (g_hash_table_lookup (round->checkpoints, akc_message_get_id (reply))));

      if (!last || akc_message_get_status (reply) == AKC_MESSAGE_STATUS_COMPLETE)
        {
          g_assert_cmpint (akc_message_get_status (reply), ==, AKC_MESSAGE_STATUS_COMPLETE);
          g_assert_cmpuint (akc_message_get_content_length (reply), ==, g_bytes_get_size (expected));
        }
      else
        {
          g_assert_true (akc_message_get_status (reply) == AKC_MESSAGE_STATUS_STREAMING ||
                         akc_message_get_status (reply) == AKC_MESSAGE_STATUS_PENDING);
        }
    }

  /* Every message reported complete is there, byte for byte. */
  {
    GHashTableIter iter;
    Reported *reported;
    gpointer key;
    guint found = 0;

    g_hash_table_iter_init (&iter, round->complete);
    while (g_hash_table_iter_next (&iter, NULL, (gpointer *) &reported))
      for (guint i = n_before; i < n; i++)
        {
          g_autoptr(AkcMessage) message = g_list_model_get_item (messages, i);
          g_autofree char *sum = NULL;

          if (strcmp (akc_message_get_id (message), reported->id) != 0)
            continue;

          sum = g_compute_checksum_for_data (G_CHECKSUM_SHA256,
                                             (const guchar *) akc_message_get_content (message),
                                             akc_message_get_content_length (message));
          g_assert_cmpint (akc_message_get_status (message), ==, AKC_MESSAGE_STATUS_COMPLETE);
          g_assert_cmpuint (akc_message_get_content_length (message), ==, reported->length);
          g_assert_cmpstr (sum, ==, reported->checksum);
          found++;
        }
    g_assert_cmpuint (found, ==, g_hash_table_size (round->complete));

    /* Every reply with a reported checkpoint is there. */
    g_hash_table_iter_init (&iter, round->checkpoints);
    while (g_hash_table_iter_next (&iter, &key, NULL))
      {
        const char *id = key;
        gboolean present = FALSE;

        for (guint i = n_before; i < n && !present; i++)
          {
            g_autoptr(AkcMessage) message = g_list_model_get_item (messages, i);

            present = strcmp (akc_message_get_id (message), id) == 0;
          }
        g_assert_true (present);
      }
  }

  g_test_message ("round %u: %u messages stored, %u turns this round, %u reported complete",
                  round->round, n, (n - n_before + 1) / 2, g_hash_table_size (round->complete));

  return g_steal_pointer (&messages);
}

static void
run_round (const char  *path,
           guint        round_number,
           GListModel **conversation)
{
  g_autofree char *round_arg = g_strdup_printf ("%u", round_number);
  /* Checkpoints from "every change" to a few milliseconds apart. */
  g_autofree char *interval_arg = g_strdup_printf ("%u", (round_number * 3) % 7);
  g_autoptr(GSubprocess) writer = NULL;
  g_autoptr(GDataInputStream) lines = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GListModel) after = NULL;
  Round round = { 0 };
  /* Each round waits for a different amount of work before the kill, and
   * kills at a different kind of moment: in the middle of a reply, or
   * right when a reply was reported complete (and the next turn starts). */
  guint want_complete = 2 + 2 * (round_number % 3);
  guint want_checkpoints = round_number % 2 == 0 ? 1 + round_number % 4 : 0;
  guint jitter_us = round_number % 4 == 3 ? 0 : g_test_rand_int_range (0, 3000);
  char *line;

  round.round = round_number;
  round.complete = g_hash_table_new_full (g_str_hash, g_str_equal, NULL, reported_free);
  round.checkpoints = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);

  writer = g_subprocess_new (G_SUBPROCESS_FLAGS_STDOUT_PIPE, &error,
                             writer_path, path, round_arg, interval_arg, NULL);
  g_assert_no_error (error);
  lines = g_data_input_stream_new (g_subprocess_get_stdout_pipe (writer));

  while ((line = g_data_input_stream_read_line (lines, NULL, NULL, &error)) != NULL)
    {
      round_take_line (&round, line);
      g_free (line);

      if (round.got_loaded && round.loaded != g_list_model_get_n_items (*conversation))
        g_error ("the writer loaded %u messages, %u are stored",
                 round.loaded, g_list_model_get_n_items (*conversation));

      if (round.n_complete >= want_complete && round.n_checkpoints >= want_checkpoints)
        break;
    }
  g_test_message ("round %u: killing after %u complete, %u checkpoints of the turn, %u µs",
                  round_number, round.n_complete, round.n_checkpoints, jitter_us);
  g_assert_no_error (error);
  g_assert_true (round.got_loaded);

  /* A little more streaming, a different amount each time, so the kill
   * lands anywhere: inside a transaction, between two, during a commit.
   * (This is not waiting for an event: the moment itself is the test.) */
  g_usleep (jitter_us);
  g_subprocess_send_signal (writer, SIGKILL);
  g_assert_true (g_subprocess_wait (writer, NULL, &error));
  g_assert_no_error (error);
  g_assert_true (g_subprocess_get_if_signaled (writer));
  g_assert_cmpint (g_subprocess_get_term_sig (writer), ==, SIGKILL);

  /* What it said before dying is true as well. */
  while ((line = g_data_input_stream_read_line (lines, NULL, NULL, &error)) != NULL)
    {
      round_take_line (&round, line);
      g_free (line);
    }
  g_assert_no_error (error);

  after = verify (path, *conversation, &round);
  g_set_object (conversation, after);

  g_hash_table_unref (round.complete);
  g_hash_table_unref (round.checkpoints);
}

static void
test_kill (void)
{
  g_autofree char *path = akc_test_path ("kill/history.sqlite3");
  g_autoptr(GListModel) conversation = G_LIST_MODEL (g_list_store_new (AKC_TYPE_MESSAGE));
  g_autoptr(AkcChat) chat = NULL;
  g_autoptr(AkcChatHistory) history = NULL;
  g_autoptr(AkcAdapter) adapter = NULL;
  g_autoptr(GError) error = NULL;
  AkcChatMemory *memory;
  guint n;

  for (guint round = 0; round < N_ROUNDS; round++)
    run_round (path, round, &conversation);

  /* Finally the application reads it back: every reply complete, the
   * interrupted ones stopped, and the database whole. */
  memory = akc_test_open (path);
  adapter = akc_echo_adapter_new ();
  chat = akc_chat_new (adapter);
  history = akc_chat_history_new (chat, memory, KILL_CONVERSATION);
  g_assert_true (akc_test_history_load (history, &error));
  g_assert_no_error (error);
  g_assert_true (akc_test_history_flush (history, &error));
  g_assert_no_error (error);

  n = g_list_model_get_n_items (akc_chat_source_get_messages (AKC_CHAT_SOURCE (chat)));
  g_assert_cmpuint (n, ==, g_list_model_get_n_items (conversation));
  for (guint i = 0; i < n; i++)
    {
      g_autoptr(AkcMessage) message = g_list_model_get_item (akc_chat_source_get_messages (AKC_CHAT_SOURCE (chat)), i);
      g_autoptr(AkcMessage) stored = g_list_model_get_item (conversation, i);

      g_assert_cmpint (akc_message_get_status (message), ==, AKC_MESSAGE_STATUS_COMPLETE);
      g_assert_cmpint (akc_message_get_stopped (message), ==,
                       akc_message_get_stopped (stored) ||
                       akc_message_get_status (stored) != AKC_MESSAGE_STATUS_COMPLETE);
    }

  akc_test_drain ();
  g_assert_finalize_object (g_steal_pointer (&history));
  g_assert_finalize_object (g_steal_pointer (&chat));
  akc_test_close (memory);
  assert_integrity (path);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);

  if (argc < 2)
    {
      g_printerr ("usage: %s PATH-OF-AKC-HISTORY-WRITER\n", argv[0]);
      return 2;
    }
  writer_path = argv[1];

  g_test_add_func ("/store/history/kill", test_kill);

  return g_test_run ();
}
