/* test-sqlite-session-storage.c: session snapshots in the history
 * database (application.md §4.5)
 *
 * SPDX-License-Identifier: MIT
 *
 * The compare-and-set contract in one process, the migration of a
 * version 1 history, the history and the sessions sharing one file, and
 * two processes that resumed one session racing their saves: in every
 * round exactly one wins. Two processes that resumed one session and
 * approve the same pending confirmation: exactly one claims it, and the
 * action runs once (application.md §5.3).
 */

#include "config.h"

#include <stdio.h>
#include <string.h>

#include "akc-conversation-test.h"
#include "akc-sqlite-schema-private.h"

#define RACE_ROUNDS 25
#define CONFIRM_ROUNDS 8
#define SESSION_ID  "shared"

static AkcSessionStorage *
open_storage (const char *path)
{
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;
  AkcSqliteSessionStorage *storage;

  akc_sqlite_session_storage_new_async (path, NULL, akc_test_store_result, &result);
  storage = akc_sqlite_session_storage_new_finish (akc_test_wait (&result), &error);
  g_assert_no_error (error);
  return AKC_SESSION_STORAGE (storage);
}

static AkcSession *
resume (AkcDefinition     *definition,
        AkcSessionStorage *storage,
        GError           **error)
{
  g_autoptr(GAsyncResult) result = NULL;

  akc_session_resume_async (definition, SESSION_ID, storage, NULL, akc_test_store_result, &result);
  return akc_session_resume_finish (akc_test_wait (&result), error);
}

static gboolean
persist (AkcSession  *session,
         GError     **error)
{
  g_autoptr(GAsyncResult) result = NULL;

  akc_session_persist_async (session, NULL, akc_test_store_result, &result);
  return akc_session_persist_finish (session, akc_test_wait (&result), error);
}

static char *
db_path (void)
{
  return g_build_filename (g_get_user_data_dir (), "agentskit-chat", "history.sqlite3", NULL);
}

static AkcJsonValue *
load (AkcSessionStorage *storage,
      const char        *session_id)
{
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;
  AkcJsonValue *value;

  akc_session_storage_load_async (storage, session_id, NULL, akc_test_store_result, &result);
  value = akc_session_storage_load_finish (storage, akc_test_wait (&result), &error);
  g_assert_no_error (error);
  return value;
}

static gboolean
save (AkcSessionStorage *storage,
      AkcJsonValue      *snapshot,
      gint64             expected)
{
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;
  gboolean saved = TRUE;

  akc_session_storage_save_async (storage, snapshot, expected, NULL, akc_test_store_result, &result);
  g_assert_true (akc_session_storage_save_finish (storage, akc_test_wait (&result), &saved, &error));
  g_assert_no_error (error);
  return saved;
}

static AkcJsonValue *
snapshot_at (gint64 cursor)
{
  g_autofree char *text = g_strdup_printf ("{\"protocol\":\"agentskit.chat.session\",\"version\":1,"
                                           "\"sessionId\":\"s\",\"definitionId\":\"d\",\"definitionRevision\":1,"
                                           "\"updatedAt\":\"2026-07-11T00:00:00.000Z\",\"cursor\":%" G_GINT64_FORMAT ","
                                           "\"confirmations\":[]}", cursor);

  return akc_json_value_parse (text, -1, NULL);
}

/* §4.5: create only, then compare-and-set on the stored cursor. */
static void
test_compare_and_set (void)
{
  g_autofree char *path = db_path ();
  g_autoptr(AkcSessionStorage) storage = open_storage (path);
  g_autoptr(AkcJsonValue) one = snapshot_at (1);
  g_autoptr(AkcJsonValue) two = snapshot_at (2);
  g_autoptr(AkcJsonValue) three = snapshot_at (3);
  g_autoptr(AkcJsonValue) missing = load (storage, "s");
  g_autoptr(AkcJsonValue) loaded = NULL;
  g_autoptr(AkcJsonValue) decoded = NULL;
  g_autofree char *expected_text = NULL;

  g_assert_null (missing);
  g_assert_true (save (storage, one, AKC_SESSION_STORAGE_CREATE_ONLY));
  g_assert_false (save (storage, two, AKC_SESSION_STORAGE_CREATE_ONLY));
  g_assert_false (save (storage, two, 0));
  g_assert_false (save (storage, two, 2));
  g_assert_true (save (storage, two, 1));
  g_assert_false (save (storage, three, 1));

  /* stored as canonical text */
  loaded = load (storage, "s");
  g_assert_cmpint (akc_json_value_get_kind (loaded), ==, AKC_JSON_KIND_STRING);
  expected_text = akc_session_snapshot_encode (two, NULL, NULL);
  g_assert_cmpstr (akc_json_value_get_string (loaded, NULL), ==, expected_text);
  decoded = akc_session_snapshot_decode (akc_json_value_get_string (loaded, NULL), -1, NULL);
  akc_assert_json_equal (decoded, two);

  g_assert_finalize_object (g_steal_pointer (&storage));
}

/* A save that was asked for is written even when its cancellable fires
 * meanwhile (the history's worker runs it in order); only its answer says
 * G_IO_ERROR_CANCELLED. */
static void
test_cancelled_save_still_writes (void)
{
  g_autofree char *path = db_path ();
  g_autoptr(AkcSessionStorage) storage = open_storage (path);
  g_autoptr(AkcJsonValue) one = snapshot_at (1);
  g_autoptr(GCancellable) cancellable = g_cancellable_new ();
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(AkcJsonValue) loaded = NULL;
  gboolean saved = FALSE;

  akc_session_storage_save_async (storage, one, AKC_SESSION_STORAGE_CREATE_ONLY, cancellable, akc_test_store_result, &result);
  g_cancellable_cancel (cancellable);
  g_assert_false (akc_session_storage_save_finish (storage, akc_test_wait (&result), &saved, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  g_clear_object (&result);

  loaded = load (storage, "s");
  g_assert_nonnull (loaded);

  g_assert_finalize_object (g_steal_pointer (&storage));
}

/* An invalid snapshot is refused before anything is written. */
static void
test_invalid_snapshot (void)
{
  g_autofree char *path = db_path ();
  g_autoptr(AkcSessionStorage) storage = open_storage (path);
  g_autoptr(AkcJsonValue) bad = akc_json_value_parse ("{\"sessionId\":\"s\",\"cursor\":1}", -1, NULL);
  g_autoptr(AkcJsonValue) missing = NULL;
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;
  gboolean saved = TRUE;

  akc_session_storage_save_async (storage, bad, AKC_SESSION_STORAGE_CREATE_ONLY, NULL, akc_test_store_result, &result);
  g_assert_false (akc_session_storage_save_finish (storage, akc_test_wait (&result), &saved, &error));
  g_assert_error (error, AKC_PROTOCOL_ERROR, AKC_PROTOCOL_ERROR_SESSION_INVALID_SNAPSHOT);
  missing = load (storage, "s");
  g_assert_null (missing);
  g_clear_object (&result);
  g_clear_error (&error);

  /* A snapshot without a session id: both storages refuse it alike. */
  {
    g_autoptr(AkcJsonValue) anonymous = akc_json_value_parse ("{\"cursor\":1}", -1, NULL);
    g_autoptr(AkcSessionStorage) memory = akc_memory_session_storage_new ();
    AkcSessionStorage *storages[] = { storage, memory };

    for (guint i = 0; i < G_N_ELEMENTS (storages); i++)
      {
        akc_session_storage_save_async (storages[i], anonymous, AKC_SESSION_STORAGE_CREATE_ONLY, NULL,
                                        akc_test_store_result, &result);
        g_assert_false (akc_session_storage_save_finish (storages[i], akc_test_wait (&result), &saved, &error));
        g_assert_error (error, AKC_PROTOCOL_ERROR, AKC_PROTOCOL_ERROR_SESSION_INVALID_SNAPSHOT);
        g_clear_error (&error);
        g_clear_object (&result);
      }
    g_assert_finalize_object (g_steal_pointer (&memory));
  }

  g_assert_finalize_object (g_steal_pointer (&storage));
}

/* The history and the sessions share one database: a version 1 history
 * is migrated and keeps its conversations. */
static void
test_shared_database (void)
{
  g_autofree char *path = db_path ();
  g_autoptr(AkcSqliteChatMemory) memory = NULL;
  g_autoptr(AkcSessionStorage) storage = NULL;
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GAsyncResult) listed = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(AkcDefinition) definition = akc_definition_new ("plain", NULL);
  g_autoptr(AkcSession) session = NULL;
  g_autoptr(AkcSession) again = NULL;
  g_autoptr(GListModel) conversations = NULL;
  g_autofree char *folder = g_path_get_dirname (path);
  sqlite3 *db;
  int rc;

  /* a history written by version 1 of the schema, with one conversation */
  g_assert_cmpint (g_mkdir_with_parents (folder, 0700), ==, 0);
  g_assert_cmpint (sqlite3_open (path, &db), ==, SQLITE_OK);
  {
    gsize n = 0;
    const AkcSqliteMigration *steps = akc_sqlite_schema_get_migrations (&n);

    sqlite3_close (db);
    db = akc_sqlite_open (path, steps, 1, &error);
    g_assert_no_error (error);
  }
  rc = sqlite3_exec (db, "INSERT INTO conversations (id, created_at, updated_at) VALUES ('kept', 1, 1)",
                     NULL, NULL, NULL);
  g_assert_cmpint (rc, ==, SQLITE_OK);
  sqlite3_close (db);

  storage = open_storage (path);
  session = resume (definition, storage, &error);
  g_assert_no_error (error);
  g_assert_true (persist (session, &error));

  akc_sqlite_chat_memory_new_async (path, NULL, akc_test_store_result, &result);
  memory = akc_sqlite_chat_memory_new_finish (akc_test_wait (&result), &error);
  g_assert_no_error (error);
  akc_chat_memory_list_conversations_async (AKC_CHAT_MEMORY (memory), NULL, akc_test_store_result, &listed);
  conversations = akc_chat_memory_list_conversations_finish (AKC_CHAT_MEMORY (memory), akc_test_wait (&listed), &error);
  g_assert_no_error (error);
  g_assert_cmpuint (g_list_model_get_n_items (conversations), ==, 1);

  again = resume (definition, storage, &error);
  g_assert_no_error (error);
  g_assert_cmpint (akc_session_get_cursor (again), ==, 1);

  g_assert_finalize_object (g_steal_pointer (&session));
  g_assert_finalize_object (g_steal_pointer (&again));
  g_clear_object (&result);
  g_clear_object (&listed);
  g_assert_finalize_object (g_steal_pointer (&storage));
}

/* ------------------------------------------------------------------ */
/* Two processes                                                       */
/* ------------------------------------------------------------------ */

/* The child: each round it resumes the session, says "ready «cursor»",
 * waits for "go", saves, and says "won" or "lost". */
static int
child_main (const char *path)
{
  g_autoptr(AkcDefinition) definition = akc_definition_new ("race", NULL);
  g_autoptr(AkcSessionStorage) storage = open_storage (path);
  char line[64];

  setvbuf (stdout, NULL, _IOLBF, 0);

  for (;;)
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(AkcSession) session = resume (definition, storage, &error);
      gboolean won;

      if (session == NULL)
        {
          printf ("error %s\n", error->message);
          return 1;
        }
      printf ("ready %" G_GINT64_FORMAT "\n", akc_session_get_cursor (session));

      if (fgets (line, sizeof line, stdin) == NULL || strcmp (line, "go\n") != 0)
        return 0;

      won = persist (session, &error);
      if (!won && !g_error_matches (error, AKC_SESSION_ERROR, AKC_SESSION_ERROR_CONFLICT))
        {
          printf ("error %s\n", error->message);
          return 1;
        }
      printf (won ? "won\n" : "lost\n");
    }
}

static char *
read_line (GDataInputStream *in)
{
  g_autoptr(GError) error = NULL;
  char *line = g_data_input_stream_read_line_utf8 (in, NULL, NULL, &error);

  g_assert_no_error (error);
  g_assert_nonnull (line);
  return line;
}

static void
test_two_processes (gconstpointer data)
{
  const char *self_exe = data;
  g_autofree char *path = db_path ();
  g_autoptr(AkcDefinition) definition = akc_definition_new ("race", NULL);
  g_autoptr(AkcSessionStorage) storage = open_storage (path);
  g_autoptr(AkcSession) creator = NULL;
  g_autoptr(AkcSession) last = NULL;
  g_autoptr(GError) error = NULL;
  GSubprocess *children[2];
  GDataInputStream *out[2];
  guint wins[2] = { 0, 0 };

  /* the session exists before the race (cursor 1) */
  creator = resume (definition, storage, &error);
  g_assert_no_error (error);
  g_assert_true (persist (creator, &error));

  for (guint c = 0; c < 2; c++)
    {
      children[c] = g_subprocess_new (G_SUBPROCESS_FLAGS_STDIN_PIPE | G_SUBPROCESS_FLAGS_STDOUT_PIPE, &error,
                                      self_exe, "--race-child", path, NULL);
      g_assert_no_error (error);
      out[c] = g_data_input_stream_new (g_subprocess_get_stdout_pipe (children[c]));
    }

  for (guint round = 0; round < RACE_ROUNDS; round++)
    {
      g_autofree char *ready0 = read_line (out[0]);
      g_autofree char *ready1 = read_line (out[1]);
      g_autofree char *expected = g_strdup_printf ("ready %u", round + 1);
      g_autofree char *result0 = NULL;
      g_autofree char *result1 = NULL;

      /* both resumed the same stored snapshot */
      g_assert_cmpstr (ready0, ==, expected);
      g_assert_cmpstr (ready1, ==, expected);

      for (guint c = 0; c < 2; c++)
        {
          GOutputStream *in = g_subprocess_get_stdin_pipe (children[c]);

          g_assert_true (g_output_stream_write_all (in, "go\n", 3, NULL, NULL, &error));
          g_assert_true (g_output_stream_flush (in, NULL, &error));
        }

      result0 = read_line (out[0]);
      result1 = read_line (out[1]);
      g_test_message ("round %u: %s, %s", round, result0, result1);
      g_assert_true ((strcmp (result0, "won") == 0 && strcmp (result1, "lost") == 0) ||
                     (strcmp (result0, "lost") == 0 && strcmp (result1, "won") == 0));
      wins[strcmp (result0, "won") == 0 ? 0 : 1]++;
    }

  for (guint c = 0; c < 2; c++)
    {
      g_autofree char *ready = read_line (out[c]);

      g_assert_true (g_output_stream_close (g_subprocess_get_stdin_pipe (children[c]), NULL, &error));
      g_assert_true (g_subprocess_wait_check (children[c], NULL, &error));
      g_assert_no_error (error);
      g_object_unref (out[c]);
      g_object_unref (children[c]);
    }
  g_test_message ("wins: %u and %u", wins[0], wins[1]);

  /* one save per round, and nothing else, reached the database */
  last = resume (definition, storage, &error);
  g_assert_no_error (error);
  g_assert_cmpint (akc_session_get_cursor (last), ==, RACE_ROUNDS + 1);

  g_assert_finalize_object (g_steal_pointer (&creator));
  g_assert_finalize_object (g_steal_pointer (&last));
  g_assert_finalize_object (g_steal_pointer (&storage));
}

/* ------------------------------------------------------------------ */
/* Two processes approving one confirmation (§5.3)                      */
/* ------------------------------------------------------------------ */

static char *
run_action (AkcTool       *tool,
            AkcJsonValue  *arguments,
            gpointer       user_data,
            GError       **error)
{
  (*(guint *) user_data)++;
  return g_strdup ("done");
}

static AkcDefinition *
confirm_definition_new (guint *runs)
{
  AkcDefinition *definition = akc_definition_new ("race", NULL);
  g_autoptr(AkcTool) tool = akc_tool_new ("act", TRUE, run_action, runs, NULL);

  akc_definition_add_tool (definition, tool);
  return definition;
}

/* The child: each round it reads "round «token» «call id»", resumes the
 * session with the call waiting in its transcript, says "ready", waits
 * for "go", approves the token and says "won «runs»" or "lost «runs»". */
static int
confirm_child_main (const char *path)
{
  guint runs = 0;
  g_autoptr(AkcDefinition) definition = confirm_definition_new (&runs);
  g_autoptr(AkcSessionStorage) storage = open_storage (path);
  char line[512];

  setvbuf (stdout, NULL, _IOLBF, 0);

  while (fgets (line, sizeof line, stdin) != NULL)
    {
      g_auto(GStrv) words = g_strsplit (g_strchomp (line), " ", -1);
      g_autoptr(GError) error = NULL;
      g_autoptr(AkcSession) session = NULL;
      g_autoptr(AkcChat) chat = NULL;
      g_autoptr(AkcActionConfirmation) confirmation = NULL;
      g_autoptr(AkcMessage) message = NULL;
      g_autoptr(AkcToolCall) call = NULL;
      g_autoptr(AkcConfirmationRecord) record = NULL;
      g_autoptr(GAsyncResult) result = NULL;

      if (g_strv_length (words) != 3 || strcmp (words[0], "round") != 0)
        return 0;

      session = resume (definition, storage, &error);
      if (session == NULL)
        {
          printf ("error %s\n", error->message);
          return 1;
        }
      chat = akc_session_create_chat (session);
      call = akc_tool_call_new (words[2], "act", NULL, AKC_TOOL_CALL_STATUS_REQUIRES_CONFIRMATION);
      message = akc_message_new (NULL, AKC_MESSAGE_ROLE_ASSISTANT, "", AKC_MESSAGE_STATUS_COMPLETE);
      akc_message_add_tool_call (message, call);
      akc_chat_restore (chat, &message, 1);
      confirmation = akc_session_create_confirmation (session, AKC_CHAT_SOURCE (chat),
                                                      AKC_ACTION_CONFIRMATION_DEFAULT_TTL_MS, &error);
      if (confirmation == NULL)
        {
          printf ("error %s\n", error->message);
          return 1;
        }
      printf ("ready\n");

      if (fgets (line, sizeof line, stdin) == NULL || strcmp (line, "go\n") != 0)
        return 0;

      runs = 0;
      akc_action_confirmation_approve_async (confirmation, words[1], SESSION_ID, NULL, akc_test_store_result, &result);
      record = akc_action_confirmation_approve_finish (confirmation, akc_test_wait (&result), &error);
      if (record != NULL && akc_confirmation_record_get_status (record) == AKC_CONFIRMATION_STATUS_APPROVED)
        printf ("won %u\n", runs);
      else if (g_error_matches (error, AKC_SESSION_ERROR, AKC_SESSION_ERROR_CONFLICT))
        printf ("lost %u\n", runs);
      else
        {
          printf ("error %s\n", error != NULL ? error->message : "not approved");
          return 1;
        }

      /* Let the conversation's continuation and its save finish. */
      WAIT_UNTIL (!(akc_chat_source_get_status (AKC_CHAT_SOURCE (chat)) == AKC_CHAT_STATUS_STREAMING || akc_session_get_persisting (session)));
    }

  return 0;
}

static void
send_line (GSubprocess *child,
           const char  *line)
{
  GOutputStream *in = g_subprocess_get_stdin_pipe (child);
  g_autoptr(GError) error = NULL;

  g_assert_true (g_output_stream_write_all (in, line, strlen (line), NULL, NULL, &error));
  g_assert_true (g_output_stream_flush (in, NULL, &error));
  g_assert_no_error (error);
}

static void
test_two_processes_confirm (gconstpointer data)
{
  const char *self_exe = data;
  g_autofree char *path = db_path ();
  guint runs = 0;
  g_autoptr(AkcDefinition) definition = confirm_definition_new (&runs);
  g_autoptr(AkcSessionStorage) storage = open_storage (path);
  g_autoptr(GError) error = NULL;
  GSubprocess *children[2];
  GDataInputStream *out[2];

  for (guint c = 0; c < 2; c++)
    {
      children[c] = g_subprocess_new (G_SUBPROCESS_FLAGS_STDIN_PIPE | G_SUBPROCESS_FLAGS_STDOUT_PIPE, &error,
                                      self_exe, "--confirm-child", path, NULL);
      g_assert_no_error (error);
      out[c] = g_data_input_stream_new (g_subprocess_get_stdout_pipe (children[c]));
    }

  for (guint round = 0; round < CONFIRM_ROUNDS; round++)
    {
      g_autoptr(AkcSession) session = NULL;
      g_autoptr(AkcChat) chat = NULL;
      g_autoptr(AkcActionConfirmation) confirmation = NULL;
      g_autoptr(AkcConfirmationRecord) proposed = NULL;
      g_autoptr(AkcConfirmationRecord) stored = NULL;
      g_autoptr(AkcActionConfirmation) reread = NULL;
      g_autoptr(AkcSession) after = NULL;
      g_autoptr(AkcChat) after_chat = NULL;
      g_autoptr(GAsyncResult) result = NULL;
      g_autofree char *round_line = NULL;
      g_autofree char *result0 = NULL;
      g_autofree char *result1 = NULL;
      gboolean first_won;

      /* A pending confirmation, stored with the session. */
      session = resume (definition, storage, &error);
      g_assert_no_error (error);
      chat = akc_session_create_chat (session);
      confirmation = akc_session_create_confirmation (session, AKC_CHAT_SOURCE (chat),
                                                      AKC_ACTION_CONFIRMATION_DEFAULT_TTL_MS, &error);
      g_assert_no_error (error);
      akc_action_confirmation_propose_async (confirmation, "act", NULL, NULL, akc_test_store_result, &result);
      proposed = akc_action_confirmation_propose_finish (confirmation, akc_test_wait (&result), &error);
      g_assert_no_error (error);
      g_assert_cmpint (akc_confirmation_record_get_status (proposed), ==, AKC_CONFIRMATION_STATUS_PENDING);

      round_line = g_strdup_printf ("round %s %s\n", akc_confirmation_record_get_token (proposed),
                                    akc_confirmation_record_get_tool_call_id (proposed));
      for (guint c = 0; c < 2; c++)
        send_line (children[c], round_line);
      for (guint c = 0; c < 2; c++)
        {
          g_autofree char *ready = read_line (out[c]);

          g_assert_cmpstr (ready, ==, "ready");
        }
      for (guint c = 0; c < 2; c++)
        send_line (children[c], "go\n");

      result0 = read_line (out[0]);
      result1 = read_line (out[1]);
      g_test_message ("round %u: %s, %s", round, result0, result1);
      first_won = strcmp (result0, "won 1") == 0;
      /* Exactly one approval ran the action, once; the other lost the claim
       * and ran nothing. */
      g_assert_true ((first_won && strcmp (result1, "lost 0") == 0) ||
                     (strcmp (result0, "lost 0") == 0 && strcmp (result1, "won 1") == 0));

      /* A third client sees the resolved record: approving again is inert. */
      after = resume (definition, storage, &error);
      g_assert_no_error (error);
      after_chat = akc_session_create_chat (after);
      reread = akc_session_create_confirmation (after, AKC_CHAT_SOURCE (after_chat),
                                                AKC_ACTION_CONFIRMATION_DEFAULT_TTL_MS, &error);
      g_assert_no_error (error);
      stored = akc_action_confirmation_get_by_token (reread, akc_confirmation_record_get_token (proposed));
      g_assert_nonnull (stored);
      g_assert_cmpint (akc_confirmation_record_get_status (stored), ==, AKC_CONFIRMATION_STATUS_APPROVED);
      g_clear_object (&result);
      akc_action_confirmation_approve_async (reread, akc_confirmation_record_get_token (proposed), SESSION_ID,
                                             NULL, akc_test_store_result, &result);
      g_clear_pointer (&stored, akc_confirmation_record_unref);
      stored = akc_action_confirmation_approve_finish (reread, akc_test_wait (&result), &error);
      g_assert_no_error (error);
      g_assert_cmpint (akc_confirmation_record_get_status (stored), ==, AKC_CONFIRMATION_STATUS_APPROVED);
      g_assert_cmpuint (runs, ==, 0);
    }

  for (guint c = 0; c < 2; c++)
    {
      g_assert_true (g_output_stream_close (g_subprocess_get_stdin_pipe (children[c]), NULL, &error));
      g_assert_true (g_subprocess_wait_check (children[c], NULL, &error));
      g_assert_no_error (error);
      g_object_unref (out[c]);
      g_object_unref (children[c]);
    }

  g_assert_finalize_object (g_steal_pointer (&storage));
}

/* ------------------------------------------------------------------ */
/* Sessions kept with a conversation (schema version 8, issue 13)      */
/* ------------------------------------------------------------------ */

static char *
respond_name (AkcRoute    *route,
              const char  *input,
              const char  *session_id,
              const char  *message_id,
              gpointer     user_data,
              GError     **error)
{
  return g_strdup (user_data);
}

/* idle --/start--> collecting --/name Ada--> complete, as the demos go. */
static AkcDefinition *
flow_definition (void)
{
  g_autoptr(AkcDefinition) definition = akc_definition_new ("flow", NULL);
  g_autoptr(AkcConversation) conversation = akc_conversation_new ("idle");
  g_autoptr(AkcRoute) start = NULL;
  g_autoptr(AkcRoute) finish = NULL;
  g_autoptr(GError) error = NULL;

  akc_conversation_add_state (conversation, "idle", (const char * const []) { "start", NULL });
  akc_conversation_add_transition (conversation, "idle", "start", "collecting");
  akc_conversation_add_state (conversation, "collecting", NULL);
  akc_conversation_add_transition (conversation, "collecting", "finish", "complete");
  akc_conversation_add_state (conversation, "complete", NULL);
  start = akc_route_new_command ("start", "/start", "start", NULL, AKC_TRACE_KIND_DETERMINISTIC,
                                 respond_name, "What is your name?", NULL, &error);
  g_assert_no_error (error);
  finish = akc_route_new_command ("finish", "/name Ada", "finish", (const char * const []) { "collecting", NULL },
                                  AKC_TRACE_KIND_DETERMINISTIC, respond_name, "Welcome, Ada.", NULL, &error);
  g_assert_no_error (error);
  akc_conversation_add_route (conversation, start);
  akc_conversation_add_route (conversation, finish);
  akc_definition_set_conversation (definition, conversation);

  return g_steal_pointer (&definition);
}

static gboolean
attach (AkcSession           *session,
        AkcSqliteChatMemory  *memory,
        const char           *conversation_id,
        GError              **error)
{
  g_autoptr(AkcSqliteSessionStorage) storage = akc_sqlite_session_storage_new_for_conversation (memory, conversation_id);
  g_autoptr(GAsyncResult) result = NULL;

  g_assert_cmpstr (akc_sqlite_session_storage_get_conversation_id (storage), ==, conversation_id);
  akc_session_attach_storage_async (session, AKC_SESSION_STORAGE (storage), NULL, akc_test_store_result, &result);
  return akc_session_attach_storage_finish (session, akc_test_wait (&result), error);
}

/* The session's chat sends @text; its reply (a route's) is done and the
 * snapshot saved before this returns. */
static void
say (AkcSession *session,
     AkcChat    *chat,
     const char *text)
{
  g_autoptr(GError) error = NULL;

  g_assert_true (akc_chat_source_send (AKC_CHAT_SOURCE (chat), text, &error));
  g_assert_no_error (error);
  WAIT_UNTIL (akc_chat_source_get_status (AKC_CHAT_SOURCE (chat)) != AKC_CHAT_STATUS_STREAMING);
  akc_test_wait_persisted (session);
}

static gint64
rows_of (const char *path,
         const char *conversation_id)
{
  g_autofree char *sql = g_strdup_printf ("SELECT count(*) FROM conversation_sessions WHERE conversation_id = '%s'",
                                          conversation_id);
  sqlite3 *db = NULL;
  sqlite3_stmt *stmt = NULL;
  gint64 n;

  g_assert_cmpint (sqlite3_open (path, &db), ==, SQLITE_OK);
  g_assert_cmpint (sqlite3_prepare_v2 (db, sql, -1, &stmt, NULL), ==, SQLITE_OK);
  g_assert_cmpint (sqlite3_step (stmt), ==, SQLITE_ROW);
  n = sqlite3_column_int64 (stmt, 0);
  sqlite3_finalize (stmt);
  sqlite3_close (db);

  return n;
}

static gint64
user_version (const char *path)
{
  sqlite3 *db = NULL;
  sqlite3_stmt *stmt = NULL;
  gint64 n;

  g_assert_cmpint (sqlite3_open (path, &db), ==, SQLITE_OK);
  g_assert_cmpint (sqlite3_prepare_v2 (db, "PRAGMA user_version", -1, &stmt, NULL), ==, SQLITE_OK);
  g_assert_cmpint (sqlite3_step (stmt), ==, SQLITE_ROW);
  n = sqlite3_column_int64 (stmt, 0);
  sqlite3_finalize (stmt);
  sqlite3_close (db);

  return n;
}

static void
sql_exec (const char *path,
          const char *sql)
{
  sqlite3 *db = NULL;

  g_assert_cmpint (sqlite3_open (path, &db), ==, SQLITE_OK);
  g_assert_cmpint (sqlite3_exec (db, sql, NULL, NULL, NULL), ==, SQLITE_OK);
  sqlite3_close (db);
}

/* A history of version 4 (a copy of tests/fixtures/history) is migrated
 * and keeps each conversation's session: a session made again for the
 * same conversation goes on from its state; the same session id in
 * another conversation is another session; a conversation that is not in
 * the history stores nothing; deleting a conversation deletes its
 * session, so a later conversation of that id starts over. */
static void
test_conversation_sessions (void)
{
  g_autofree char *path = db_path ();
  g_autoptr(AkcDefinition) definition = flow_definition ();
  g_autoptr(AkcSqliteChatMemory) memory = NULL;
  g_autoptr(AkcSession) first = NULL;
  g_autoptr(AkcSession) other = NULL;
  g_autoptr(AkcSession) again = NULL;
  g_autoptr(AkcSession) stray = NULL;
  g_autoptr(AkcSession) later = NULL;
  g_autoptr(AkcChat) chat = NULL;
  g_autoptr(AkcChat) stray_chat = NULL;
  g_autoptr(AkcJsonValue) again_snapshot = NULL;
  AkcJsonValue *decisions;
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GAsyncResult) deleted = NULL;
  g_autoptr(AkcConversationInfo) info = NULL;
  g_autoptr(GError) error = NULL;

  akc_test_copy_history_fixture ("history-v4.sqlite3", path);
  g_assert_cmpint (user_version (path), ==, 4);
  akc_sqlite_chat_memory_new_async (path, NULL, akc_test_store_result, &result);
  memory = akc_sqlite_chat_memory_new_finish (akc_test_wait (&result), &error);
  g_assert_no_error (error);
  g_assert_cmpint (user_version (path), ==, AKC_SQLITE_SCHEMA_VERSION);
  g_assert_cmpint (rows_of (path, "demo-support"), ==, 0);

  /* Nothing stored: the session keeps its own state, and stores it. */
  first = akc_session_new (definition, SESSION_ID, &error);
  g_assert_no_error (error);
  g_assert_true (attach (first, memory, "demo-support", &error));
  g_assert_no_error (error);
  g_assert_cmpstr (akc_session_get_state (first), ==, "idle");
  chat = akc_session_create_chat (first);
  say (first, chat, "/start");
  g_assert_cmpstr (akc_session_get_state (first), ==, "collecting");
  g_assert_cmpint (rows_of (path, "demo-support"), ==, 1);

  /* The same session id in another conversation is its own session. */
  other = akc_session_new (definition, SESSION_ID, &error);
  g_assert_true (attach (other, memory, "demo", &error));
  g_assert_no_error (error);
  g_assert_cmpstr (akc_session_get_state (other), ==, "idle");
  g_assert_cmpint (akc_session_get_cursor (other), ==, 0);

  /* Made again (a restart): it goes on where it was. */
  again = akc_session_new (definition, SESSION_ID, &error);
  g_assert_true (attach (again, memory, "demo-support", &error));
  g_assert_no_error (error);
  g_assert_cmpstr (akc_session_get_state (again), ==, "collecting");
  g_assert_cmpint (akc_session_get_cursor (again), ==, akc_session_get_cursor (first));
  /* Its decisions came back: the cached reply of /start is replayed
   * (§3.4), not routed again. (The messages are the history's: the app
   * test, tests/ui/test-conversations.c, goes on with them.) */
  decisions = akc_json_value_get_member (akc_json_value_get_member ((again_snapshot = akc_session_build_snapshot (again, NULL)), "conversation"), "decisions");
  g_assert_cmpuint (akc_json_value_get_length (decisions), ==, 1);

  /* A conversation the history does not hold: nothing is stored. */
  stray = akc_session_new (definition, SESSION_ID, &error);
  g_assert_true (attach (stray, memory, "not-in-the-history", &error));
  stray_chat = akc_session_create_chat (stray);
  say (stray, stray_chat, "/start");
  g_assert_cmpint (rows_of (path, "not-in-the-history"), ==, 0);

  /* Deleted with its conversation. */
  akc_chat_memory_delete_conversation_async (AKC_CHAT_MEMORY (memory), "demo-support", NULL, akc_test_store_result, &deleted);
  g_assert_true (akc_chat_memory_delete_conversation_finish (AKC_CHAT_MEMORY (memory), akc_test_wait (&deleted), &error));
  g_assert_no_error (error);
  g_assert_cmpint (rows_of (path, "demo-support"), ==, 0);
  g_clear_object (&deleted);
  akc_chat_memory_create_conversation_async (AKC_CHAT_MEMORY (memory), "demo-support", NULL, NULL, akc_test_store_result, &deleted);
  info = akc_chat_memory_create_conversation_finish (AKC_CHAT_MEMORY (memory), akc_test_wait (&deleted), &error);
  g_assert_no_error (error);
  g_clear_object (&deleted);
  later = akc_session_new (definition, SESSION_ID, &error);
  g_assert_true (attach (later, memory, "demo-support", &error));
  g_assert_no_error (error);
  g_assert_cmpstr (akc_session_get_state (later), ==, "idle");

  g_clear_object (&chat);
  g_clear_object (&stray_chat);
  g_assert_finalize_object (g_steal_pointer (&first));
  g_assert_finalize_object (g_steal_pointer (&other));
  g_assert_finalize_object (g_steal_pointer (&again));
  g_assert_finalize_object (g_steal_pointer (&stray));
  g_assert_finalize_object (g_steal_pointer (&later));
  g_clear_object (&result);
  g_assert_finalize_object (g_steal_pointer (&memory));
}

/* A stored snapshot that is not valid is refused whole: the session stays
 * as it was, without storage, and the stored row is left alone. */
static void
test_attach_invalid (void)
{
  g_autofree char *path = db_path ();
  g_autoptr(AkcDefinition) definition = flow_definition ();
  g_autoptr(AkcSqliteChatMemory) memory = NULL;
  g_autoptr(AkcSession) session = NULL;
  g_autoptr(AkcSession) refused = NULL;
  g_autoptr(AkcChat) chat = NULL;
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GAsyncResult) created = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(AkcConversationInfo) info = NULL;

  akc_sqlite_chat_memory_new_async (path, NULL, akc_test_store_result, &result);
  memory = akc_sqlite_chat_memory_new_finish (akc_test_wait (&result), &error);
  g_assert_no_error (error);
  akc_chat_memory_create_conversation_async (AKC_CHAT_MEMORY (memory), "c", NULL, NULL, akc_test_store_result, &created);
  info = akc_chat_memory_create_conversation_finish (AKC_CHAT_MEMORY (memory), akc_test_wait (&created), &error);
  g_assert_no_error (error);

  session = akc_session_new (definition, SESSION_ID, &error);
  g_assert_true (attach (session, memory, "c", &error));
  chat = akc_session_create_chat (session);
  say (session, chat, "/start");
  g_assert_cmpint (rows_of (path, "c"), ==, 1);
  sql_exec (path, "UPDATE conversation_sessions SET snapshot = '{\"protocol\":\"nope\"}'");

  refused = akc_session_new (definition, SESSION_ID, &error);
  g_assert_false (attach (refused, memory, "c", &error));
  g_assert_error (error, AKC_ERROR, AKC_ERROR_CONFIG_INVALID);
  g_assert_null (akc_session_get_storage (refused));
  g_assert_cmpstr (akc_session_get_state (refused), ==, "idle");
  g_assert_cmpint (akc_session_get_cursor (refused), ==, 0);
  g_assert_cmpint (rows_of (path, "c"), ==, 1);

  g_clear_object (&chat);
  g_assert_finalize_object (g_steal_pointer (&session));
  g_assert_finalize_object (g_steal_pointer (&refused));
  g_clear_object (&result);
  g_clear_object (&created);
  g_assert_finalize_object (g_steal_pointer (&memory));
}

int
main (int   argc,
      char *argv[])
{
  g_autofree char *self_exe = NULL;

  if (argc == 3 && strcmp (argv[1], "--race-child") == 0)
    return child_main (argv[2]);
  if (argc == 3 && strcmp (argv[1], "--confirm-child") == 0)
    return confirm_child_main (argv[2]);

  self_exe = g_canonicalize_filename (argv[0], NULL);
  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);

  g_test_add_func ("/sqlite-session-storage/compare-and-set", test_compare_and_set);
  g_test_add_func ("/sqlite-session-storage/invalid-snapshot", test_invalid_snapshot);
  g_test_add_func ("/sqlite-session-storage/cancelled-save-still-writes", test_cancelled_save_still_writes);
  g_test_add_func ("/sqlite-session-storage/shared-database", test_shared_database);
  g_test_add_func ("/sqlite-session-storage/conversation-sessions", test_conversation_sessions);
  g_test_add_func ("/sqlite-session-storage/attach-invalid", test_attach_invalid);
  g_test_add_data_func ("/sqlite-session-storage/two-processes", self_exe, test_two_processes);
  g_test_add_data_func ("/sqlite-session-storage/two-processes-one-confirmation", self_exe, test_two_processes_confirm);

  return g_test_run ();
}
