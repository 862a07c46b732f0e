/* test-sqlite-chat-memory.c: AkcSqliteChatMemory, the history database
 *
 * SPDX-License-Identifier: MIT
 */

#include "config.h"

#include <string.h>
#include <sys/stat.h>

#include <glib/gstdio.h>

#include "akc-sqlite-chat-memory-private.h"
#include "akc-sqlite-schema-private.h"
#include "akc-store-test.h"

/* A time with microseconds, and one before 1970. */
static GDateTime *
make_time (int year,
           int month,
           int day,
           int microsecond)
{
  g_autoptr(GDateTime) seconds = g_date_time_new_utc (year, month, day, 4, 5, 6);

  return g_date_time_add (seconds, microsecond);
}

static AkcMessage *
make_message (const char       *id,
              AkcMessageRole    role,
              const char       *content,
              gssize            length,
              AkcMessageStatus  status,
              GDateTime        *created_at)
{
  AkcMessage *message = g_object_new (AKC_TYPE_MESSAGE,
                                      "id", id,
                                      "role", role,
                                      "status", status,
                                      "created-at", created_at,
                                      NULL);

  akc_message_append_content (message, content, length);

  return message;
}

/* Every kind of field there is, and text that is easy to lose: U+0000,
 * astral characters, line and paragraph separators, an empty string. */
static GListModel *
make_conversation (void)
{
  GListStore *store = g_list_store_new (AKC_TYPE_MESSAGE);
  static const char with_nul[] = "a\0b 😀 \xe2\x80\xa8 \xf0\x9d\x84\x9e end";
  g_autoptr(GDateTime) t1 = make_time (2026, 2, 3, 123456);
  g_autoptr(GDateTime) t2 = make_time (1969, 7, 20, 999999);
  g_autoptr(GDateTime) t3 = make_time (2026, 2, 3, 0);
  g_autoptr(AkcMessage) system = make_message ("s", AKC_MESSAGE_ROLE_SYSTEM, "Be brief.", -1,
                                               AKC_MESSAGE_STATUS_COMPLETE, t3);
  g_autoptr(AkcMessage) user = make_message ("u1", AKC_MESSAGE_ROLE_USER, with_nul, sizeof with_nul - 1,
                                             AKC_MESSAGE_STATUS_COMPLETE, t1);
  g_autoptr(AkcMessage) reply = make_message ("a1", AKC_MESSAGE_ROLE_ASSISTANT, "\0", 1,
                                              AKC_MESSAGE_STATUS_COMPLETE, t2);
  g_autoptr(AkcMessage) tool = NULL;
  g_autoptr(AkcMessage) streaming = make_message ("a2", AKC_MESSAGE_ROLE_ASSISTANT, "part", -1,
                                                  AKC_MESSAGE_STATUS_STREAMING, t1);
  g_autoptr(AkcMessage) pending = make_message ("a3", AKC_MESSAGE_ROLE_ASSISTANT, "", 0,
                                                AKC_MESSAGE_STATUS_PENDING, t1);
  g_autoptr(AkcMessage) failed = make_message ("a4", AKC_MESSAGE_ROLE_ASSISTANT, "half", -1,
                                               AKC_MESSAGE_STATUS_ERROR, t1);
  g_autoptr(AkcLineage) lineage = akc_lineage_new (AKC_LINEAGE_OPERATION_REGENERATE, "u1", "turn-7");
  g_autoptr(AkcLineage) submit = akc_lineage_new (AKC_LINEAGE_OPERATION_SUBMIT, NULL, NULL);
  g_autoptr(AkcJsonValue) args = akc_test_parse_json ("{\"b\":[1,2.5,-0.125,1e-7,\"x\\u0000y\",null,true],"
                                        "\"a\":{\"nested\":{\"deep\":\"😀\"}},\"\":\"\"}");
  g_autoptr(AkcToolCall) waiting = akc_tool_call_new ("call-1", "search", args,
                                                      AKC_TOOL_CALL_STATUS_REQUIRES_CONFIRMATION);
  g_autoptr(AkcToolCall) done = akc_tool_call_new ("call-2", "", NULL, AKC_TOOL_CALL_STATUS_COMPLETE);
  g_autoptr(AkcToolCall) denied = akc_tool_call_new ("call-3", "delete", NULL, AKC_TOOL_CALL_STATUS_ERROR);

  akc_tool_call_set_result (done, "42 \xf0\x9f\x98\x80");
  akc_tool_call_set_result (denied, "");
  akc_tool_call_set_error (denied, "Permission denied: user denied access");
  akc_message_add_tool_call (reply, waiting);
  akc_message_add_tool_call (reply, done);
  akc_message_add_tool_call (reply, denied);
  akc_message_set_lineage (reply, lineage);
  akc_message_set_stopped (reply, TRUE);
  akc_message_set_lineage (streaming, submit);

  tool = g_object_new (AKC_TYPE_MESSAGE,
                       "id", "t1",
                       "role", AKC_MESSAGE_ROLE_TOOL,
                       "status", AKC_MESSAGE_STATUS_COMPLETE,
                       "tool-call-id", "call-2",
                       "created-at", t1,
                       "content", "42",
                       NULL);

  g_list_store_append (store, system);
  g_list_store_append (store, user);
  g_list_store_append (store, reply);
  g_list_store_append (store, tool);
  g_list_store_append (store, streaming);
  g_list_store_append (store, pending);
  g_list_store_append (store, failed);

  return G_LIST_MODEL (store);
}

static GPtrArray *
model_to_array (GListModel *model)
{
  GPtrArray *array = g_ptr_array_new_with_free_func (g_object_unref);

  for (guint i = 0; i < g_list_model_get_n_items (model); i++)
    g_ptr_array_add (array, g_list_model_get_item (model, i));

  return array;
}

static char *
file_checksum (const char *path)
{
  g_autofree char *contents = NULL;
  gsize length = 0;

  g_assert_true (g_file_get_contents (path, &contents, &length, NULL));
  return g_compute_checksum_for_data (G_CHECKSUM_SHA256, (const guchar *) contents, length);
}

static void
test_create (void)
{
  g_autofree char *path = akc_test_path ("new/folder/history.sqlite3");
  g_autofree char *folder = g_path_get_dirname (path);
  g_autofree char *mode = NULL;
  g_autoptr(GListModel) list = NULL;
  g_autoptr(GError) error = NULL;
  AkcChatMemory *memory;
  GStatBuf st;

  g_assert_false (g_file_test (folder, G_FILE_TEST_EXISTS));

  memory = akc_test_open (path);
  g_assert_cmpstr (akc_sqlite_chat_memory_get_path (AKC_SQLITE_CHAT_MEMORY (memory)), ==, path);

  /* The folder is private to the user. */
  g_assert_cmpint (g_stat (folder, &st), ==, 0);
  g_assert_cmpint (st.st_mode & 0777, ==, 0700);

  list = akc_test_list (memory, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (g_list_model_get_n_items (list), ==, 0);

  /* A second connection sees the schema and the settings. */
  mode = akc_test_sql_text (path, "PRAGMA journal_mode");
  g_assert_cmpstr (mode, ==, "wal");
  g_assert_cmpint (akc_test_sql_int (path, "PRAGMA user_version"), ==, AKC_SQLITE_SCHEMA_VERSION);
  g_assert_cmpint (akc_test_sql_int (path, "PRAGMA application_id"), ==, AKC_SQLITE_APPLICATION_ID);
  g_assert_cmpint (akc_test_sql_int (path, "SELECT count(*) FROM sqlite_schema WHERE type = 'table' "
                                           "AND name IN ('conversations', 'messages')"), ==, 2);

  akc_test_close (memory);

  /* Opening again changes nothing. */
  memory = akc_test_open (path);
  akc_test_close (memory);
  g_assert_cmpint (akc_test_sql_int (path, "PRAGMA user_version"), ==, AKC_SQLITE_SCHEMA_VERSION);
}

static void
test_default_path (void)
{
  g_autofree char *path = akc_sqlite_chat_memory_dup_default_path ();
  g_autofree char *expected = g_build_filename (g_get_user_data_dir (), "agentskit-chat",
                                                "history.sqlite3", NULL);
  AkcChatMemory *memory;

  g_assert_cmpstr (path, ==, expected);

  /* NULL opens the default file (here under the test's own data folder). */
  memory = akc_test_open (NULL);
  g_assert_cmpstr (akc_sqlite_chat_memory_get_path (AKC_SQLITE_CHAT_MEMORY (memory)), ==, expected);
  g_assert_true (g_file_test (expected, G_FILE_TEST_IS_REGULAR));
  akc_test_close (memory);
}

static void
test_reopen_exactly (void)
{
  g_autofree char *path = akc_test_path ("history.sqlite3");
  g_autoptr(GListModel) conversation = make_conversation ();
  g_autoptr(GPtrArray) messages = model_to_array (conversation);
  g_autoptr(GListModel) loaded = NULL;
  g_autoptr(GListModel) list = NULL;
  g_autoptr(AkcConversationInfo) info = NULL;
  g_autoptr(AkcConversationInfo) listed = NULL;
  g_autoptr(GError) error = NULL;
  AkcChatMemory *memory;

  memory = akc_test_open (path);
  info = akc_test_create (memory, "chat-1", "Titles \xf0\x9f\x98\x80 too", &error);
  g_assert_no_error (error);
  g_assert_cmpstr (akc_conversation_info_get_id (info), ==, "chat-1");
  g_assert_cmpstr (akc_conversation_info_get_title (info), ==, "Titles 😀 too");
  g_assert_cmpuint (akc_conversation_info_get_n_messages (info), ==, 0);

  /* Appended one by one and in one splice: the same result. */
  g_assert_true (akc_test_append (memory, "chat-1", messages->pdata[0], &error));
  g_assert_no_error (error);
  g_assert_true (akc_test_splice (memory, "chat-1", 1, 0, (AkcMessage **) messages->pdata + 1,
                                  messages->len - 1, &error));
  g_assert_no_error (error);
  akc_test_close (memory);

  memory = akc_test_open (path);
  loaded = akc_test_load (memory, "chat-1", &error);
  g_assert_no_error (error);
  akc_test_assert_messages_equal (conversation, loaded);

  list = akc_test_list (memory, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (g_list_model_get_n_items (list), ==, 1);
  listed = g_list_model_get_item (list, 0);
  g_assert_cmpstr (akc_conversation_info_get_id (listed), ==, "chat-1");
  g_assert_cmpstr (akc_conversation_info_get_title (listed), ==, "Titles 😀 too");
  g_assert_cmpuint (akc_conversation_info_get_n_messages (listed), ==, messages->len);
  g_assert_true (g_date_time_equal (akc_conversation_info_get_created_at (listed),
                                    akc_conversation_info_get_created_at (info)));
  g_assert_true (g_date_time_compare (akc_conversation_info_get_updated_at (listed),
                                      akc_conversation_info_get_created_at (listed)) >= 0);
  akc_test_close (memory);
}

static void
test_save (void)
{
  g_autofree char *path = akc_test_path ("history.sqlite3");
  g_autoptr(GListModel) conversation = make_conversation ();
  g_autoptr(GPtrArray) messages = model_to_array (conversation);
  g_autoptr(GListModel) loaded = NULL;
  g_autoptr(AkcConversationInfo) info = NULL;
  g_autoptr(AkcMessage) stranger = akc_message_new ("nobody", AKC_MESSAGE_ROLE_USER, "x",
                                                    AKC_MESSAGE_STATUS_COMPLETE);
  g_autoptr(AkcToolCall) call = akc_tool_call_new ("call-9", "lookup", NULL, AKC_TOOL_CALL_STATUS_RUNNING);
  g_autoptr(GError) error = NULL;
  AkcMessage *streaming = messages->pdata[4];
  AkcChatMemory *memory;

  memory = akc_test_open (path);
  info = akc_test_create (memory, "c", NULL, &error);
  g_assert_no_error (error);
  g_assert_true (akc_test_splice (memory, "c", 0, 0, (AkcMessage **) messages->pdata, messages->len, &error));
  g_assert_no_error (error);

  /* A streamed reply saved as it grows; what is written is its state at
   * the call, even if it changes right after. */
  akc_message_append_content (streaming, " more\0text", 10);
  akc_chat_memory_save_message_async (memory, "c", streaming, NULL, NULL, NULL);
  akc_message_set_status (streaming, AKC_MESSAGE_STATUS_COMPLETE);
  akc_message_set_stopped (streaming, TRUE);
  akc_message_add_tool_call (streaming, call);
  loaded = akc_test_load (memory, "c", &error);
  g_assert_no_error (error);
  {
    g_autoptr(AkcMessage) stored = g_list_model_get_item (loaded, 4);

    g_assert_cmpint (akc_message_get_status (stored), ==, AKC_MESSAGE_STATUS_STREAMING);
    g_assert_cmpmem (akc_message_get_content (stored), akc_message_get_content_length (stored),
                     "part more\0text", 14);
    g_assert_cmpuint (g_list_model_get_n_items (akc_message_get_tool_calls (stored)), ==, 0);
  }
  g_clear_object (&loaded);

  g_assert_true (akc_test_save (memory, "c", streaming, &error));
  g_assert_no_error (error);
  loaded = akc_test_load (memory, "c", &error);
  g_assert_no_error (error);
  akc_test_assert_messages_equal (conversation, loaded);

  /* Saving never adds a message. */
  g_assert_false (akc_test_save (memory, "c", stranger, &error));
  g_assert_error (error, AKC_CHAT_MEMORY_ERROR, AKC_CHAT_MEMORY_ERROR_NOT_FOUND);
  g_clear_error (&error);
  g_assert_false (akc_test_save (memory, "missing", streaming, &error));
  g_assert_error (error, AKC_CHAT_MEMORY_ERROR, AKC_CHAT_MEMORY_ERROR_NOT_FOUND);
  g_clear_error (&error);

  g_clear_object (&loaded);
  loaded = akc_test_load (memory, "c", &error);
  g_assert_no_error (error);
  akc_test_assert_messages_equal (conversation, loaded);

  akc_test_close (memory);
}

/* The ids of a stored conversation, in order, joined by spaces. */
static char *
stored_ids (AkcChatMemory *memory,
            const char    *conversation_id)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GListModel) loaded = akc_test_load (memory, conversation_id, &error);
  g_autoptr(GString) ids = g_string_new (NULL);

  g_assert_no_error (error);
  for (guint i = 0; i < g_list_model_get_n_items (loaded); i++)
    {
      g_autoptr(AkcMessage) message = g_list_model_get_item (loaded, i);

      if (i > 0)
        g_string_append_c (ids, ' ');
      g_string_append (ids, akc_message_get_id (message));
    }

  return g_string_free (g_steal_pointer (&ids), FALSE);
}

static void
splice_ids (AkcChatMemory *memory,
            guint          position,
            guint          n_removed,
            const char    *ids,
            GError       **error)
{
  g_auto(GStrv) names = g_strsplit (ids, " ", -1);
  g_autoptr(GPtrArray) added = g_ptr_array_new_with_free_func (g_object_unref);

  for (guint i = 0; names[i] != NULL; i++)
    if (*names[i] != '\0')
      g_ptr_array_add (added, akc_message_new (names[i], AKC_MESSAGE_ROLE_USER, names[i],
                                               AKC_MESSAGE_STATUS_COMPLETE));

  akc_test_splice (memory, "c", position, n_removed, (AkcMessage **) added->pdata, added->len, error);
}

static void
assert_ids (AkcChatMemory *memory,
            const char    *expected)
{
  g_autofree char *ids = stored_ids (memory, "c");

  g_assert_cmpstr (ids, ==, expected);
}

static void
test_splice (void)
{
  g_autofree char *path = akc_test_path ("history.sqlite3");
  g_autoptr(AkcConversationInfo) info = NULL;
  g_autoptr(GError) error = NULL;
  AkcChatMemory *memory = akc_test_open (path);

  info = akc_test_create (memory, "c", NULL, &error);
  g_assert_no_error (error);

  splice_ids (memory, 0, 0, "a b c d e", &error);
  g_assert_no_error (error);
  assert_ids (memory, "a b c d e");

  /* Insert in the middle: the tail moves up. */
  splice_ids (memory, 2, 0, "x y", &error);
  g_assert_no_error (error);
  assert_ids (memory, "a b x y c d e");

  /* Remove a range: the tail moves down. */
  splice_ids (memory, 1, 3, "", &error);
  g_assert_no_error (error);
  assert_ids (memory, "a c d e");

  /* Replace one by several, and several by one. */
  splice_ids (memory, 1, 1, "p q r", &error);
  g_assert_no_error (error);
  assert_ids (memory, "a p q r d e");
  splice_ids (memory, 0, 4, "z", &error);
  g_assert_no_error (error);
  assert_ids (memory, "z d e");

  /* The end, and "to the end". */
  splice_ids (memory, G_MAXUINT, 0, "f", &error);
  g_assert_no_error (error);
  assert_ids (memory, "z d e f");
  splice_ids (memory, 2, G_MAXUINT, "g", &error);
  g_assert_no_error (error);
  assert_ids (memory, "z d g");
  splice_ids (memory, 0, G_MAXUINT, "r s", &error);
  g_assert_no_error (error);
  assert_ids (memory, "r s");

  /* A range past the end changes nothing. */
  splice_ids (memory, 3, 0, "x", &error);
  g_assert_error (error, AKC_CHAT_MEMORY_ERROR, AKC_CHAT_MEMORY_ERROR_INVALID);
  g_clear_error (&error);
  splice_ids (memory, 1, 2, "", &error);
  g_assert_error (error, AKC_CHAT_MEMORY_ERROR, AKC_CHAT_MEMORY_ERROR_INVALID);
  g_clear_error (&error);
  assert_ids (memory, "r s");

  /* An id already there: the whole change is refused, not half of it. */
  splice_ids (memory, 0, 1, "t u s", &error);
  g_assert_error (error, AKC_CHAT_MEMORY_ERROR, AKC_CHAT_MEMORY_ERROR_EXISTS);
  g_clear_error (&error);
  splice_ids (memory, 2, 0, "v v", &error);
  g_assert_error (error, AKC_CHAT_MEMORY_ERROR, AKC_CHAT_MEMORY_ERROR_EXISTS);
  g_clear_error (&error);
  assert_ids (memory, "r s");

  /* An empty message id is refused. */
  {
    g_autoptr(AkcMessage) nameless = akc_message_new ("", AKC_MESSAGE_ROLE_USER, "x", AKC_MESSAGE_STATUS_COMPLETE);

    g_assert_false (akc_test_append (memory, "c", nameless, &error));
    g_assert_error (error, AKC_CHAT_MEMORY_ERROR, AKC_CHAT_MEMORY_ERROR_INVALID);
    g_clear_error (&error);
  }

  /* No such conversation. */
  {
    g_autoptr(AkcMessage) message = akc_message_new (NULL, AKC_MESSAGE_ROLE_USER, "x", AKC_MESSAGE_STATUS_COMPLETE);

    g_assert_false (akc_test_append (memory, "other", message, &error));
    g_assert_error (error, AKC_CHAT_MEMORY_ERROR, AKC_CHAT_MEMORY_ERROR_NOT_FOUND);
    g_clear_error (&error);
  }

  /* Positions stay dense: 0 … n-1. */
  g_assert_cmpint (akc_test_sql_int (path, "SELECT sum(position) FROM messages WHERE conversation_id = 'c'"),
                   ==, 1);
  akc_test_close (memory);
}

/* SQLite virtual-machine steps on the history's connection, counted by a
 * progress handler installed on its worker thread. */
static gint vm_steps;

static int
count_vm_step (void *data)
{
  g_atomic_int_inc (&vm_steps);
  return 0;
}

static gpointer
install_step_counter (sqlite3     *db,
                      const char  *path,
                      gpointer     data,
                      GError     **error)
{
  sqlite3_progress_handler (db, 1, data != NULL ? count_vm_step : NULL, NULL);
  return GINT_TO_POINTER (1);
}

static void
set_step_counter (AkcChatMemory *memory,
                  gboolean       enabled)
{
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;

  akc_sqlite_chat_memory_run_async (AKC_SQLITE_CHAT_MEMORY (memory), install_step_counter,
                                    enabled ? GINT_TO_POINTER (1) : NULL, NULL, NULL, NULL,
                                    akc_test_store_result, &result);
  g_assert_nonnull (akc_sqlite_chat_memory_run_finish (AKC_SQLITE_CHAT_MEMORY (memory),
                                                       akc_test_wait (&result), &error));
  g_assert_no_error (error);
}

static guint
steps_of_append (AkcChatMemory *memory,
                 const char    *conversation_id,
                 const char    *message_id)
{
  g_autoptr(AkcMessage) message = akc_message_new (message_id, AKC_MESSAGE_ROLE_USER, "the end",
                                                   AKC_MESSAGE_STATUS_COMPLETE);
  g_autoptr(GError) error = NULL;

  g_atomic_int_set (&vm_steps, 0);
  g_assert_true (akc_test_append (memory, conversation_id, message, &error));
  g_assert_no_error (error);

  return (guint) g_atomic_int_get (&vm_steps);
}

/* Appending does not read the conversation: it costs the same number of
 * SQLite steps after 3,000 messages as after 3 (issue 18 item 3; the
 * count(*) it used to run took a few steps per message). The message
 * still lands at the end, and the list still counts the messages. */
static void
test_append_cost (void)
{
  g_autofree char *path = akc_test_path ("history.sqlite3");
  g_autoptr(GError) error = NULL;
  AkcChatMemory *memory = akc_test_open (path);
  guint small, large;
  g_autoptr(AkcConversationInfo) small_info = akc_test_create (memory, "small", NULL, &error);
  g_autoptr(AkcConversationInfo) large_info = NULL;

  g_assert_no_error (error);
  large_info = akc_test_create (memory, "c", NULL, &error);
  g_assert_no_error (error);

  for (guint i = 0; i < 3; i++)
    {
      g_autofree char *id = g_strdup_printf ("s%u", i);
      g_autoptr(AkcMessage) message = akc_message_new (id, AKC_MESSAGE_ROLE_USER, id, AKC_MESSAGE_STATUS_COMPLETE);

      g_assert_true (akc_test_append (memory, "small", message, &error));
      g_assert_no_error (error);
    }
  for (guint batch = 0; batch < 3; batch++)
    {
      g_autoptr(GString) ids = g_string_new (NULL);

      for (guint i = 0; i < 1000; i++)
        g_string_append_printf (ids, "%sm%u", i > 0 ? " " : "", batch * 1000 + i);
      splice_ids (memory, G_MAXUINT, 0, ids->str, &error);
      g_assert_no_error (error);
    }

  /* Each commit also adds a segment to the full-text index (schema
   * version 6), and every few commits FTS5 merges segments: that work
   * depends on the index, not on the conversation, and falls on one
   * append or another. The cheapest of a few appends to each
   * conversation is the cost of the append itself. */
  set_step_counter (memory, TRUE);
  small = large = G_MAXUINT;
  for (guint i = 0; i < 6; i++)
    {
      g_autofree char *id = g_strdup_printf ("last-%u", i);
      guint to_small = steps_of_append (memory, "small", id);
      guint to_large = steps_of_append (memory, "c", id);

      small = MIN (small, to_small);
      large = MIN (large, to_large);
    }
  set_step_counter (memory, FALSE);

  g_test_message ("SQLite steps per append: %u after 3 messages, %u after 3,000", small, large);
  g_assert_cmpuint (small, >, 0);
  g_assert_cmpuint (large, <=, small + 16);

  g_assert_cmpint (akc_test_sql_int (path, "SELECT position FROM messages WHERE conversation_id = 'c' AND id = 'last-0'"),
                   ==, 3000);
  g_assert_cmpint (akc_test_sql_int (path, "SELECT position FROM messages WHERE conversation_id = 'small' AND id = 'last-0'"),
                   ==, 3);
  {
    g_autoptr(GListModel) list = akc_test_list (memory, &error);
    guint found = 0;

    g_assert_no_error (error);
    for (guint i = 0; i < g_list_model_get_n_items (list); i++)
      {
        g_autoptr(AkcConversationInfo) info = g_list_model_get_item (list, i);
        const char *id = akc_conversation_info_get_id (info);

        if (g_str_equal (id, "c"))
          g_assert_cmpuint (akc_conversation_info_get_n_messages (info), ==, 3006);
        else
          g_assert_cmpuint (akc_conversation_info_get_n_messages (info), ==, 9);
        found++;
      }
    g_assert_cmpuint (found, ==, 2);
  }
  akc_test_close (memory);
}

static void
test_many_conversations (void)
{
  g_autofree char *path = akc_test_path ("history.sqlite3");
  g_autoptr(GListModel) list = NULL;
  g_autoptr(GError) error = NULL;
  AkcChatMemory *memory = akc_test_open (path);
  const guint n = 40;

  for (guint i = 0; i < n; i++)
    {
      g_autofree char *id = g_strdup_printf ("conversation-%02u", i);
      g_autofree char *title = g_strdup_printf ("Chat %u", i);
      g_autoptr(AkcConversationInfo) info = akc_test_create (memory, id, title, &error);

      g_assert_no_error (error);
      g_assert_nonnull (info);
    }

  /* Messages interleaved across conversations: each keeps its own. */
  for (guint round = 0; round < 3; round++)
    for (guint i = 0; i < n; i++)
      {
        g_autofree char *id = g_strdup_printf ("conversation-%02u", i);
        g_autofree char *text = g_strdup_printf ("%u/%u", i, round);
        g_autoptr(AkcMessage) message = akc_message_new (NULL, AKC_MESSAGE_ROLE_USER, text,
                                                         AKC_MESSAGE_STATUS_COMPLETE);

        akc_chat_memory_append_message_async (memory, id, message, NULL, NULL, NULL);
      }

  for (guint i = 0; i < n; i++)
    {
      g_autofree char *id = g_strdup_printf ("conversation-%02u", i);
      g_autoptr(GListModel) loaded = akc_test_load (memory, id, &error);

      g_assert_no_error (error);
      g_assert_cmpuint (g_list_model_get_n_items (loaded), ==, 3);
      for (guint round = 0; round < 3; round++)
        {
          g_autoptr(AkcMessage) message = g_list_model_get_item (loaded, round);
          g_autofree char *text = g_strdup_printf ("%u/%u", i, round);

          g_assert_cmpstr (akc_message_get_content (message), ==, text);
        }
    }

  /* The most recently changed first: a new message moves a conversation,
   * a rename does not (issue 14). */
  {
    g_autoptr(AkcMessage) message = akc_message_new (NULL, AKC_MESSAGE_ROLE_USER, "later",
                                                     AKC_MESSAGE_STATUS_COMPLETE);

    g_assert_true (akc_test_append (memory, "conversation-07", message, &error));
    g_assert_no_error (error);
  }
  g_assert_true (akc_test_update (memory, "conversation-07", "Renamed", NULL, &error));
  g_assert_no_error (error);
  g_assert_true (akc_test_update (memory, "conversation-02", "Renamed too", NULL, &error));
  g_assert_no_error (error);
  list = akc_test_list (memory, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (g_list_model_get_n_items (list), ==, n);
  {
    g_autoptr(AkcConversationInfo) first = g_list_model_get_item (list, 0);

    g_assert_cmpstr (akc_conversation_info_get_id (first), ==, "conversation-07");
    g_assert_cmpstr (akc_conversation_info_get_title (first), ==, "Renamed");
    g_assert_cmpuint (akc_conversation_info_get_n_messages (first), ==, 4);
  }
  {
    g_autoptr(AkcConversationInfo) second = g_list_model_get_item (list, 1);

    g_assert_cmpstr (akc_conversation_info_get_title (second), !=, "Renamed too");
  }
  for (guint i = 1; i < n; i++)
    {
      g_autoptr(AkcConversationInfo) a = g_list_model_get_item (list, i - 1);
      g_autoptr(AkcConversationInfo) b = g_list_model_get_item (list, i);

      g_assert_cmpint (g_date_time_compare (akc_conversation_info_get_updated_at (a),
                                            akc_conversation_info_get_updated_at (b)), >=, 0);
    }
  g_clear_object (&list);

  /* Deleting takes the messages along, and nothing else. */
  g_assert_true (akc_test_delete (memory, "conversation-03", &error));
  g_assert_no_error (error);
  g_assert_cmpint (akc_test_sql_int (path, "SELECT count(*) FROM messages WHERE conversation_id = 'conversation-03'"),
                   ==, 0);
  /* (and conversation-07's fourth) */
  g_assert_cmpint (akc_test_sql_int (path, "SELECT count(*) FROM messages"), ==, 3 * (n - 1) + 1);
  g_assert_null (akc_test_load (memory, "conversation-03", &error));
  g_assert_error (error, AKC_CHAT_MEMORY_ERROR, AKC_CHAT_MEMORY_ERROR_NOT_FOUND);
  g_clear_error (&error);
  g_assert_false (akc_test_delete (memory, "conversation-03", &error));
  g_assert_error (error, AKC_CHAT_MEMORY_ERROR, AKC_CHAT_MEMORY_ERROR_NOT_FOUND);
  g_clear_error (&error);

  /* Ids are unique and well-formed. */
  g_assert_null (akc_test_create (memory, "conversation-04", NULL, &error));
  g_assert_error (error, AKC_CHAT_MEMORY_ERROR, AKC_CHAT_MEMORY_ERROR_EXISTS);
  g_clear_error (&error);
  g_assert_null (akc_test_create (memory, "not an id", NULL, &error));
  g_assert_error (error, AKC_CHAT_MEMORY_ERROR, AKC_CHAT_MEMORY_ERROR_INVALID);
  g_clear_error (&error);
  g_assert_null (akc_test_load (memory, "", &error));
  g_assert_error (error, AKC_CHAT_MEMORY_ERROR, AKC_CHAT_MEMORY_ERROR_INVALID);
  g_clear_error (&error);

  /* No id: a random one. */
  {
    g_autoptr(AkcConversationInfo) a = akc_test_create (memory, NULL, NULL, &error);
    g_autoptr(AkcConversationInfo) b = akc_test_create (memory, NULL, NULL, &error);

    g_assert_no_error (error);
    g_assert_cmpstr (akc_conversation_info_get_id (a), !=, akc_conversation_info_get_id (b));
    g_assert_cmpstr (akc_conversation_info_get_title (a), ==, "");
  }

  akc_test_close (memory);
}

static void
test_usage (void)
{
  g_autofree char *path = akc_test_path ("history.sqlite3");
  g_autoptr(AkcConversationInfo) info = NULL;
  g_autoptr(GListModel) list = NULL;
  g_autoptr(AkcConversationInfo) listed = NULL;
  g_autoptr(GError) error = NULL;
  AkcUsage first = { 10, 20, 35 };
  AkcUsage second = { 1, G_MAXUINT64 - 20, (guint64) G_MAXINT64 + 7 };
  AkcChatMemory *memory = akc_test_open (path);

  info = akc_test_create (memory, "c", "Title", &error);
  g_assert_no_error (error);
  g_assert_true (akc_usage_equal (akc_conversation_info_get_usage (info), &(AkcUsage) { 0, 0, 0 }));

  /* Usage adds up; counts beyond 2^63 survive, and saturate. */
  g_assert_true (akc_test_update (memory, "c", NULL, &first, &error));
  g_assert_no_error (error);
  g_assert_true (akc_test_update (memory, "c", NULL, &second, &error));
  g_assert_no_error (error);
  g_assert_false (akc_test_update (memory, "missing", NULL, &first, &error));
  g_assert_error (error, AKC_CHAT_MEMORY_ERROR, AKC_CHAT_MEMORY_ERROR_NOT_FOUND);
  g_clear_error (&error);
  akc_test_close (memory);

  memory = akc_test_open (path);
  list = akc_test_list (memory, &error);
  g_assert_no_error (error);
  listed = g_list_model_get_item (list, 0);
  g_assert_cmpstr (akc_conversation_info_get_title (listed), ==, "Title");
  g_assert_cmpuint (akc_conversation_info_get_usage (listed)->prompt_tokens, ==, 11);
  g_assert_cmpuint (akc_conversation_info_get_usage (listed)->completion_tokens, ==, G_MAXUINT64);
  g_assert_cmpuint (akc_conversation_info_get_usage (listed)->total_tokens, ==, (guint64) G_MAXINT64 + 42);
  akc_test_close (memory);
}

static void
test_newer_version (void)
{
  g_autofree char *path = akc_test_path ("history.sqlite3");
  g_autofree char *before = NULL;
  g_autofree char *after = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(AkcConversationInfo) info = NULL;
  AkcChatMemory *memory = akc_test_open (path);

  info = akc_test_create (memory, "c", NULL, &error);
  g_assert_no_error (error);
  akc_test_close (memory);

  akc_test_sql_exec (path, "PRAGMA user_version = 99");
  before = file_checksum (path);

  error = akc_test_open_error (path);
  g_assert_error (error, AKC_CHAT_MEMORY_ERROR, AKC_CHAT_MEMORY_ERROR_NEWER_VERSION);
  g_assert_nonnull (strstr (error->message, "newer version"));

  /* Left exactly as it was, for the newer version to use. */
  after = file_checksum (path);
  g_assert_cmpstr (before, ==, after);
  g_assert_cmpint (akc_test_sql_int (path, "PRAGMA user_version"), ==, 99);
}

static void
assert_refused_unchanged (const char *path,
                          int         code)
{
  g_autofree char *before = file_checksum (path);
  g_autofree char *after = NULL;
  g_autoptr(GError) error = akc_test_open_error (path);

  g_assert_error (error, AKC_CHAT_MEMORY_ERROR, code);
  g_test_message ("%s", error->message);

  after = file_checksum (path);
  g_assert_cmpstr (before, ==, after);
}

static void
test_corrupt (void)
{
  g_autofree char *garbage = akc_test_path ("garbage.sqlite3");
  g_autofree char *empty_table = akc_test_path ("foreign.sqlite3");
  g_autofree char *foreign_id = akc_test_path ("foreign-id.sqlite3");
  g_autofree char *folder = akc_test_path ("folder.sqlite3");
  g_autofree char *mangled = akc_test_path ("mangled.sqlite3");
  g_autofree char *zeros = NULL;
  g_autoptr(GError) error = NULL;
  AkcChatMemory *memory;

  /* Not a database at all. */
  memory = akc_test_open (garbage);  /* creates the folder */
  akc_test_close (memory);
  g_assert_cmpint (g_unlink (garbage), ==, 0);
  g_assert_true (g_file_set_contents (garbage, "This is not a database, but it is long enough to "
                                               "look like one for a while at least.\n", -1, NULL));
  assert_refused_unchanged (garbage, AKC_CHAT_MEMORY_ERROR_CORRUPT);

  /* A zeroed header. */
  zeros = g_malloc0 (8192);
  g_assert_true (g_file_set_contents (garbage, zeros, 8192, NULL));
  assert_refused_unchanged (garbage, AKC_CHAT_MEMORY_ERROR_CORRUPT);

  /* Another program's database. */
  {
    sqlite3 *db = NULL;

    g_assert_cmpint (sqlite3_open (empty_table, &db), ==, SQLITE_OK);
    g_assert_cmpint (sqlite3_exec (db, "CREATE TABLE notes (body TEXT)", NULL, NULL, NULL), ==, SQLITE_OK);
    sqlite3_close (db);
    g_assert_cmpint (sqlite3_open (foreign_id, &db), ==, SQLITE_OK);
    g_assert_cmpint (sqlite3_exec (db, "PRAGMA application_id = 1234", NULL, NULL, NULL), ==, SQLITE_OK);
    sqlite3_close (db);
  }
  assert_refused_unchanged (empty_table, AKC_CHAT_MEMORY_ERROR_CORRUPT);
  assert_refused_unchanged (foreign_id, AKC_CHAT_MEMORY_ERROR_CORRUPT);

  /* A folder where the file should be. */
  g_assert_cmpint (g_mkdir (folder, 0700), ==, 0);
  error = akc_test_open_error (folder);
  g_assert_error (error, AKC_CHAT_MEMORY_ERROR, AKC_CHAT_MEMORY_ERROR_FAILED);
  g_clear_error (&error);

  /* Pages damaged under a valid header: it may open, but reading fails
   * with an error, never a crash. */
  memory = akc_test_open (mangled);
  {
    g_autoptr(AkcConversationInfo) info = akc_test_create (memory, "c", NULL, &error);
    g_autofree char *long_text = g_strnfill (200000, 'x');
    g_autoptr(AkcMessage) message = akc_message_new (NULL, AKC_MESSAGE_ROLE_USER, long_text,
                                                     AKC_MESSAGE_STATUS_COMPLETE);

    g_assert_no_error (error);
    g_assert_nonnull (info);
    g_assert_true (akc_test_append (memory, "c", message, &error));
    g_assert_no_error (error);
  }
  akc_test_close (memory);  /* the log is folded into the file on close */
  {
    g_autofree char *contents = NULL;
    gsize length = 0;
    long page_size = akc_test_sql_int (mangled, "PRAGMA page_size");

    g_assert_true (g_file_get_contents (mangled, &contents, &length, NULL));
    g_assert_cmpuint (length, >, 8 * page_size);
    for (gsize i = page_size; i < length; i++)
      contents[i] = (char) (0xA5 ^ (i * 31));
    g_assert_true (g_file_set_contents (mangled, contents, length, NULL));
  }
  {
    g_autoptr(GAsyncResult) result = NULL;
    AkcSqliteChatMemory *opened;

    akc_sqlite_chat_memory_new_async (mangled, NULL, akc_test_store_result, &result);
    opened = akc_sqlite_chat_memory_new_finish (akc_test_wait (&result), &error);
    g_clear_object (&result);
    if (opened == NULL)
      {
        g_assert_error (error, AKC_CHAT_MEMORY_ERROR, AKC_CHAT_MEMORY_ERROR_CORRUPT);
        g_clear_error (&error);
      }
    else
      {
        g_autoptr(GListModel) list = akc_test_list (AKC_CHAT_MEMORY (opened), &error);
        g_autoptr(GListModel) loaded = NULL;

        g_assert_nonnull (error);
        g_assert_true (error->domain == AKC_CHAT_MEMORY_ERROR);
        g_assert_null (list);
        g_clear_error (&error);
        loaded = akc_test_load (AKC_CHAT_MEMORY (opened), "c", &error);
        g_assert_nonnull (error);
        g_assert_null (loaded);
        g_clear_error (&error);
        akc_test_close (AKC_CHAT_MEMORY (opened));
      }
  }
}

/* Rows changed behind the store's back are read as damaged, and what they
 * hold is never put in the error. */
static void
test_damaged_rows (void)
{
  g_autofree char *path = akc_test_path ("history.sqlite3");
  g_autoptr(GListModel) conversation = make_conversation ();
  g_autoptr(GPtrArray) messages = model_to_array (conversation);
  g_autoptr(AkcConversationInfo) info = NULL;
  g_autoptr(GError) error = NULL;
  static const char * const damages[] = {
    "UPDATE messages SET role = 'secret-robot' WHERE id = 'u1'",
    "UPDATE messages SET status = 'secret-state' WHERE id = 'u1'",
    "UPDATE messages SET tool_calls = '{secret' WHERE id = 'a1'",
    "UPDATE messages SET tool_calls = '[{\"id\":\"x\"}]' WHERE id = 'a1'",
    "UPDATE messages SET tool_calls = '[{\"id\":\"x\",\"name\":\"n\",\"args\":[],\"status\":\"pending\"}]' WHERE id = 'a1'",
    "UPDATE messages SET tool_calls = '[{\"id\":\"x\",\"name\":\"n\",\"args\":{},\"status\":\"secret\"}]' WHERE id = 'a1'",
    "UPDATE messages SET tool_calls = '[]' WHERE id = 'a1'",
    "UPDATE messages SET lineage = '{\"operation\":\"secret\"}' WHERE id = 'a1'",
    "UPDATE messages SET lineage = '{\"operation\":\"retry\",\"parentTurnId\":7}' WHERE id = 'a1'",
    "UPDATE messages SET created_at = 9223372036854775807 WHERE id = 'a1'",
    "UPDATE messages SET id = '' WHERE id = 'a1'",
    "UPDATE messages SET position = position + 100 WHERE position >= 3",
  };

  for (guint i = 0; i < G_N_ELEMENTS (damages); i++)
    {
      AkcChatMemory *memory = akc_test_open (path);
      g_autoptr(GListModel) loaded = NULL;

      g_clear_object (&info);
      info = akc_test_create (memory, "c", NULL, &error);
      g_assert_no_error (error);
      g_assert_true (akc_test_splice (memory, "c", 0, 0, (AkcMessage **) messages->pdata, messages->len, &error));
      g_assert_no_error (error);

      akc_test_sql_exec (path, damages[i]);
      loaded = akc_test_load (memory, "c", &error);
      g_assert_null (loaded);
      g_assert_error (error, AKC_CHAT_MEMORY_ERROR, AKC_CHAT_MEMORY_ERROR_CORRUPT);
      g_assert_null (strstr (error->message, "secret"));
      g_clear_error (&error);

      g_assert_true (akc_test_delete (memory, "c", &error));
      g_assert_no_error (error);
      akc_test_close (memory);
    }

  /* Text that is not UTF-8 is read with U+FFFD in its place. */
  {
    AkcChatMemory *memory = akc_test_open (path);
    g_autoptr(AkcMessage) message = akc_message_new ("m", AKC_MESSAGE_ROLE_USER, NULL,
                                                     AKC_MESSAGE_STATUS_COMPLETE);
    g_autoptr(GListModel) loaded = NULL;
    g_autoptr(AkcMessage) stored = NULL;

    g_clear_object (&info);
    info = akc_test_create (memory, "d", NULL, &error);
    g_assert_no_error (error);
    g_assert_true (akc_test_append (memory, "d", message, &error));
    g_assert_no_error (error);
    akc_test_sql_exec (path, "UPDATE messages SET content = CAST (x'61ff00c3' AS TEXT) WHERE id = 'm'");
    loaded = akc_test_load (memory, "d", &error);
    g_assert_no_error (error);
    stored = g_list_model_get_item (loaded, 0);
    g_assert_cmpmem (akc_message_get_content (stored), akc_message_get_content_length (stored),
                     "a\xef\xbf\xbd\0\xef\xbf\xbd", 8);
    akc_test_close (memory);
  }
}

static void
test_cancel (void)
{
  g_autofree char *path = akc_test_path ("history.sqlite3");
  g_autoptr(AkcConversationInfo) info = NULL;
  g_autoptr(GCancellable) cancelled = g_cancellable_new ();
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) many = g_ptr_array_new_with_free_func (g_object_unref);
  AkcChatMemory *memory = akc_test_open (path);
  guint n_written = 0;

  info = akc_test_create (memory, "c", NULL, &error);
  g_assert_no_error (error);
  g_cancellable_cancel (cancelled);

  for (guint i = 0; i < 500; i++)
    g_ptr_array_add (many, akc_message_new (NULL, AKC_MESSAGE_ROLE_USER, "x", AKC_MESSAGE_STATUS_COMPLETE));

  /* Cancelled before it starts: not written, and said so. */
  {
    g_autoptr(GAsyncResult) result = NULL;

    akc_chat_memory_splice_messages_async (memory, "c", 0, 0, (AkcMessage **) many->pdata, 1,
                                           cancelled, akc_test_store_result, &result);
    g_assert_false (akc_chat_memory_splice_messages_finish (memory, akc_test_wait (&result), &error));
    g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
    g_clear_error (&error);
  }
  {
    g_autoptr(GAsyncResult) result = NULL;
    g_autoptr(GListModel) loaded = NULL;

    akc_chat_memory_load_messages_async (memory, "c", cancelled, akc_test_store_result, &result);
    loaded = akc_chat_memory_load_messages_finish (memory, akc_test_wait (&result), &error);
    g_assert_null (loaded);
    g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
    g_clear_error (&error);
  }
  {
    g_autoptr(GAsyncResult) result = NULL;

    akc_chat_memory_delete_conversation_async (memory, "c", cancelled, akc_test_store_result, &result);
    g_assert_false (akc_chat_memory_delete_conversation_finish (memory, akc_test_wait (&result), &error));
    g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
    g_clear_error (&error);
  }

  /* Cancelled while queued or running: either written whole and reported
   * done, or not written at all and reported cancelled. */
  for (guint round = 0; round < 20; round++)
    {
      g_autoptr(GCancellable) cancellable = g_cancellable_new ();
      g_autoptr(GAsyncResult) result = NULL;
      g_autoptr(GPtrArray) batch = g_ptr_array_new_with_free_func (g_object_unref);
      g_autoptr(GListModel) loaded = NULL;
      gboolean ok;

      for (guint i = 0; i < 25; i++)
        g_ptr_array_add (batch, akc_message_new (NULL, AKC_MESSAGE_ROLE_USER, "y", AKC_MESSAGE_STATUS_COMPLETE));

      akc_chat_memory_splice_messages_async (memory, "c", G_MAXUINT, 0, (AkcMessage **) batch->pdata, batch->len,
                                             cancellable, akc_test_store_result, &result);
      if (round % 2 == 0)
        g_cancellable_cancel (cancellable);
      else
        g_idle_add_once ((GSourceOnceFunc) g_cancellable_cancel, cancellable);
      ok = akc_chat_memory_splice_messages_finish (memory, akc_test_wait (&result), &error);
      if (ok)
        {
          g_assert_no_error (error);
          n_written += batch->len;
        }
      else
        {
          g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
          g_clear_error (&error);
        }

      akc_test_drain ();
      loaded = akc_test_load (memory, "c", &error);
      g_assert_no_error (error);
      g_assert_cmpuint (g_list_model_get_n_items (loaded), ==, n_written);
    }

  /* A long read that is cancelled reports it. */
  g_assert_true (akc_test_splice (memory, "c", 0, G_MAXUINT, (AkcMessage **) many->pdata, many->len, &error));
  g_assert_no_error (error);
  {
    g_autoptr(GCancellable) cancellable = g_cancellable_new ();
    g_autoptr(GAsyncResult) result = NULL;
    g_autoptr(GListModel) loaded = NULL;

    akc_chat_memory_load_messages_async (memory, "c", cancellable, akc_test_store_result, &result);
    g_cancellable_cancel (cancellable);
    loaded = akc_chat_memory_load_messages_finish (memory, akc_test_wait (&result), &error);
    g_assert_null (loaded);
    g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
    g_clear_error (&error);
  }

  akc_test_close (memory);
}

typedef struct
{
  guint  n_done;
  guint *order;
} OrderData;

typedef struct
{
  OrderData *data;
  guint      index;
} OrderCall;

static void
on_ordered (GObject      *source,
            GAsyncResult *result,
            gpointer      user_data)
{
  OrderCall *call = user_data;
  g_autoptr(GError) error = NULL;

  g_assert_true (akc_chat_memory_append_message_finish (AKC_CHAT_MEMORY (source), result, &error));
  g_assert_no_error (error);
  call->data->order[call->data->n_done++] = call->index;
  g_free (call);
}

static void
test_order (void)
{
  g_autofree char *path = akc_test_path ("history.sqlite3");
  g_autoptr(AkcConversationInfo) info = NULL;
  g_autoptr(GListModel) loaded = NULL;
  g_autoptr(GError) error = NULL;
  AkcChatMemory *memory = akc_test_open (path);
  guint order[200];
  OrderData data = { 0, order };

  info = akc_test_create (memory, "c", NULL, &error);
  g_assert_no_error (error);

  /* Started in order, done in order, stored in order. */
  for (guint i = 0; i < G_N_ELEMENTS (order); i++)
    {
      g_autofree char *id = g_strdup_printf ("m%u", i);
      g_autoptr(AkcMessage) message = akc_message_new (id, AKC_MESSAGE_ROLE_USER, id, AKC_MESSAGE_STATUS_COMPLETE);
      OrderCall *call = g_new0 (OrderCall, 1);

      call->data = &data;
      call->index = i;
      akc_chat_memory_append_message_async (memory, "c", message, NULL, on_ordered, call);
    }

  WAIT_UNTIL (data.n_done >= G_N_ELEMENTS (order));
  for (guint i = 0; i < G_N_ELEMENTS (order); i++)
    g_assert_cmpuint (order[i], ==, i);

  loaded = akc_test_load (memory, "c", &error);
  g_assert_no_error (error);
  for (guint i = 0; i < G_N_ELEMENTS (order); i++)
    {
      g_autoptr(AkcMessage) message = g_list_model_get_item (loaded, i);
      g_autofree char *id = g_strdup_printf ("m%u", i);

      g_assert_cmpstr (akc_message_get_id (message), ==, id);
    }

  akc_test_close (memory);
}

/* Two histories on one file: each sees what the other committed. */
static void
test_two_connections (void)
{
  g_autofree char *path = akc_test_path ("history.sqlite3");
  g_autoptr(AkcConversationInfo) info = NULL;
  g_autoptr(AkcMessage) message = akc_message_new (NULL, AKC_MESSAGE_ROLE_USER, "hi", AKC_MESSAGE_STATUS_COMPLETE);
  g_autoptr(GListModel) loaded = NULL;
  g_autoptr(GError) error = NULL;
  AkcChatMemory *writer = akc_test_open (path);
  AkcChatMemory *reader = akc_test_open (path);

  info = akc_test_create (writer, "c", NULL, &error);
  g_assert_no_error (error);
  g_assert_true (akc_test_append (writer, "c", message, &error));
  g_assert_no_error (error);

  loaded = akc_test_load (reader, "c", &error);
  g_assert_no_error (error);
  g_assert_cmpuint (g_list_model_get_n_items (loaded), ==, 1);

  akc_test_close (writer);
  akc_test_close (reader);
}

static gpointer
run_sql (sqlite3     *db,
         const char  *path,
         gpointer     data,
         GError     **error)
{
  if (sqlite3_exec (db, data, NULL, NULL, NULL) != SQLITE_OK)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_FAILED, "%s", sqlite3_errmsg (db));
      return NULL;
    }
  return GINT_TO_POINTER (1);
}

static gboolean
run_on_worker (AkcChatMemory *memory,
               const char    *sql)
{
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;

  akc_sqlite_chat_memory_run_async (AKC_SQLITE_CHAT_MEMORY (memory), run_sql, (gpointer) sql, NULL, NULL,
                                    NULL, akc_test_store_result, &result);
  return akc_sqlite_chat_memory_run_finish (AKC_SQLITE_CHAT_MEMORY (memory), akc_test_wait (&result), &error) != NULL;
}

/* One worker and one connection per file (issue 16 item 10): a TEMP
 * table, which lives on one connection only, is seen by every history of
 * the file and by none of another file; once the last history of the
 * file is closed, the next one starts a new connection. */
static void
test_one_worker_per_file (void)
{
  g_autofree char *path = akc_test_path ("history.sqlite3");
  g_autofree char *other_path = akc_test_path ("other.sqlite3");
  g_autofree char *folder = g_path_get_dirname (path);
  g_autofree char *dotted = g_build_filename (folder, ".", "history.sqlite3", NULL);
  AkcChatMemory *first = akc_test_open (path);
  AkcChatMemory *second = akc_test_open (dotted);
  AkcChatMemory *other = akc_test_open (other_path);

  g_assert_true (run_on_worker (first, "CREATE TEMP TABLE probe (x)"));
  g_assert_true (run_on_worker (second, "SELECT x FROM temp.probe"));
  g_assert_false (run_on_worker (other, "SELECT x FROM temp.probe"));

  akc_test_close (first);
  g_assert_true (run_on_worker (second, "SELECT x FROM temp.probe"));
  akc_test_close (second);
  akc_test_close (other);

  first = akc_test_open (path);
  g_assert_false (run_on_worker (first, "SELECT x FROM temp.probe"));
  akc_test_close (first);
}

/* The migration machinery, on steps made for the test. */
static void
test_migrations (void)
{
  g_autofree char *path = akc_test_path ("migrate.sqlite3");
  g_autofree char *folder = g_path_get_dirname (path);
  static const AkcSqliteMigration steps[] = {
    { 1, "CREATE TABLE one (a TEXT);" },
    { 2, "ALTER TABLE one ADD COLUMN b INTEGER NOT NULL DEFAULT 7;"
         "CREATE TABLE two (c TEXT);" },
    { 3, "CREATE TABLE three (d TEXT); THIS IS NOT SQL;" },
  };
  g_autoptr(GError) error = NULL;
  sqlite3 *db;

  g_assert_cmpint (g_mkdir_with_parents (folder, 0700), ==, 0);

  /* From nothing to version 2. */
  db = akc_sqlite_open (path, steps, 1, &error);
  g_assert_no_error (error);
  g_assert_nonnull (db);
  sqlite3_close (db);
  g_assert_cmpint (akc_test_sql_int (path, "PRAGMA user_version"), ==, 1);
  akc_test_sql_exec (path, "INSERT INTO one (a) VALUES ('kept')");

  db = akc_sqlite_open (path, steps, 2, &error);
  g_assert_no_error (error);
  sqlite3_close (db);
  g_assert_cmpint (akc_test_sql_int (path, "PRAGMA user_version"), ==, 2);
  g_assert_cmpint (akc_test_sql_int (path, "SELECT b FROM one WHERE a = 'kept'"), ==, 7);
  g_assert_cmpint (akc_test_sql_int (path, "PRAGMA application_id"), ==, AKC_SQLITE_APPLICATION_ID);

  /* A failing step changes nothing: still version 2, no half of step 3. */
  db = akc_sqlite_open (path, steps, 3, &error);
  g_assert_null (db);
  g_assert_nonnull (error);
  g_clear_error (&error);
  g_assert_cmpint (akc_test_sql_int (path, "PRAGMA user_version"), ==, 2);
  g_assert_cmpint (akc_test_sql_int (path, "SELECT count(*) FROM sqlite_schema WHERE name = 'three'"), ==, 0);

  /* Code that knows version 1 refuses version 2. */
  db = akc_sqlite_open (path, steps, 1, &error);
  g_assert_null (db);
  g_assert_error (error, AKC_CHAT_MEMORY_ERROR, AKC_CHAT_MEMORY_ERROR_NEWER_VERSION);
  g_clear_error (&error);

  /* The shipped schema starts at 1 and is numbered without gaps. */
  {
    gsize n = 0;
    const AkcSqliteMigration *shipped = akc_sqlite_schema_get_migrations (&n);

    g_assert_cmpuint (n, ==, AKC_SQLITE_SCHEMA_VERSION);
    for (gsize i = 0; i < n; i++)
      g_assert_cmpint (shipped[i].version, ==, (int) i + 1);
  }
}

static void
test_conversation_info (void)
{
  g_autoptr(AkcConversationInfo) info = akc_conversation_info_new ("x", NULL, NULL, NULL, NULL, 3);

  g_assert_cmpstr (akc_conversation_info_get_id (info), ==, "x");
  g_assert_cmpstr (akc_conversation_info_get_title (info), ==, "");
  g_assert_true (akc_usage_equal (akc_conversation_info_get_usage (info), &(AkcUsage) { 0, 0, 0 }));
  g_assert_true (g_date_time_equal (akc_conversation_info_get_created_at (info),
                                    akc_conversation_info_get_updated_at (info)));
  g_assert_cmpuint (akc_conversation_info_get_n_messages (info), ==, 3);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);

  g_test_add_func ("/store/sqlite/create", test_create);
  g_test_add_func ("/store/sqlite/default-path", test_default_path);
  g_test_add_func ("/store/sqlite/reopen-exactly", test_reopen_exactly);
  g_test_add_func ("/store/sqlite/save", test_save);
  g_test_add_func ("/store/sqlite/splice", test_splice);
  g_test_add_func ("/store/sqlite/append-cost", test_append_cost);
  g_test_add_func ("/store/sqlite/many-conversations", test_many_conversations);
  g_test_add_func ("/store/sqlite/usage", test_usage);
  g_test_add_func ("/store/sqlite/newer-version", test_newer_version);
  g_test_add_func ("/store/sqlite/corrupt", test_corrupt);
  g_test_add_func ("/store/sqlite/damaged-rows", test_damaged_rows);
  g_test_add_func ("/store/sqlite/cancel", test_cancel);
  g_test_add_func ("/store/sqlite/order", test_order);
  g_test_add_func ("/store/sqlite/two-connections", test_two_connections);
  g_test_add_func ("/store/sqlite/one-worker-per-file", test_one_worker_per_file);
  g_test_add_func ("/store/sqlite/migrations", test_migrations);
  g_test_add_func ("/store/conversation-info", test_conversation_info);

  return g_test_run ();
}
