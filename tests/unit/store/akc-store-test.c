/* akc-store-test.c: helpers of the history tests
 *
 * SPDX-License-Identifier: MIT
 */

#include "config.h"

#include <string.h>

#include "akc-store-test.h"

GError *
akc_test_open_error (const char *path)
{
  g_autoptr(GAsyncResult) result = NULL;
  GError *error = NULL;
  AkcSqliteChatMemory *memory;

  akc_sqlite_chat_memory_new_async (path, NULL, akc_test_store_result, &result);
  memory = akc_sqlite_chat_memory_new_finish (akc_test_wait (&result), &error);
  g_assert_null (memory);
  g_assert_nonnull (error);
  g_assert_true (error->domain == AKC_CHAT_MEMORY_ERROR);

  return error;
}

AkcConversationInfo *
akc_test_create (AkcChatMemory  *memory,
                 const char     *id,
                 const char     *title,
                 GError        **error)
{
  g_autoptr(GAsyncResult) result = NULL;

  akc_chat_memory_create_conversation_async (memory, id, title, NULL, akc_test_store_result, &result);
  return akc_chat_memory_create_conversation_finish (memory, akc_test_wait (&result), error);
}

GListModel *
akc_test_list (AkcChatMemory  *memory,
               GError        **error)
{
  g_autoptr(GAsyncResult) result = NULL;

  akc_chat_memory_list_conversations_async (memory, NULL, akc_test_store_result, &result);
  return akc_chat_memory_list_conversations_finish (memory, akc_test_wait (&result), error);
}

GListModel *
akc_test_load (AkcChatMemory  *memory,
               const char     *conversation_id,
               GError        **error)
{
  g_autoptr(GAsyncResult) result = NULL;

  akc_chat_memory_load_messages_async (memory, conversation_id, NULL, akc_test_store_result, &result);
  return akc_chat_memory_load_messages_finish (memory, akc_test_wait (&result), error);
}

gboolean
akc_test_splice (AkcChatMemory  *memory,
                 const char     *conversation_id,
                 guint           position,
                 guint           n_removed,
                 AkcMessage    **added,
                 guint           n_added,
                 GError        **error)
{
  g_autoptr(GAsyncResult) result = NULL;

  akc_chat_memory_splice_messages_async (memory, conversation_id, position, n_removed, added, n_added,
                                         NULL, akc_test_store_result, &result);
  return akc_chat_memory_splice_messages_finish (memory, akc_test_wait (&result), error);
}

gboolean
akc_test_append (AkcChatMemory  *memory,
                 const char     *conversation_id,
                 AkcMessage     *message,
                 GError        **error)
{
  g_autoptr(GAsyncResult) result = NULL;

  akc_chat_memory_append_message_async (memory, conversation_id, message, NULL,
                                        akc_test_store_result, &result);
  return akc_chat_memory_append_message_finish (memory, akc_test_wait (&result), error);
}

gboolean
akc_test_save (AkcChatMemory  *memory,
               const char     *conversation_id,
               AkcMessage     *message,
               GError        **error)
{
  g_autoptr(GAsyncResult) result = NULL;

  akc_chat_memory_save_message_async (memory, conversation_id, message, NULL,
                                      akc_test_store_result, &result);
  return akc_chat_memory_save_message_finish (memory, akc_test_wait (&result), error);
}

gboolean
akc_test_update (AkcChatMemory   *memory,
                 const char      *conversation_id,
                 const char      *title,
                 const AkcUsage  *usage,
                 GError         **error)
{
  g_autoptr(GAsyncResult) result = NULL;

  akc_chat_memory_update_conversation_async (memory, conversation_id, title, usage, NULL,
                                             akc_test_store_result, &result);
  return akc_chat_memory_update_conversation_finish (memory, akc_test_wait (&result), error);
}

gboolean
akc_test_delete (AkcChatMemory  *memory,
                 const char     *conversation_id,
                 GError        **error)
{
  g_autoptr(GAsyncResult) result = NULL;

  akc_chat_memory_delete_conversation_async (memory, conversation_id, NULL,
                                             akc_test_store_result, &result);
  return akc_chat_memory_delete_conversation_finish (memory, akc_test_wait (&result), error);
}

gboolean
akc_test_history_load (AkcChatHistory  *history,
                       GError         **error)
{
  g_autoptr(GAsyncResult) result = NULL;

  akc_chat_history_load_async (history, NULL, akc_test_store_result, &result);
  return akc_chat_history_load_finish (history, akc_test_wait (&result), error);
}

gboolean
akc_test_history_flush (AkcChatHistory  *history,
                        GError         **error)
{
  g_autoptr(GAsyncResult) result = NULL;

  akc_chat_history_flush_async (history, NULL, akc_test_store_result, &result);
  return akc_chat_history_flush_finish (history, akc_test_wait (&result), error);
}

void
akc_test_close (AkcChatMemory *memory)
{
  /* Completions still queued on the main context hold references. */
  akc_test_drain ();
  g_assert_finalize_object (memory);
}

char *
akc_test_path (const char *name)
{
  return g_build_filename (g_get_user_data_dir (), "store-test", name, NULL);
}

sqlite3 *
akc_test_sql_open (const char *path)
{
  sqlite3 *db = NULL;

  g_assert_cmpint (sqlite3_open_v2 (path, &db, SQLITE_OPEN_READWRITE, NULL), ==, SQLITE_OK);
  sqlite3_busy_timeout (db, 5000);

  return db;
}

gint64
akc_test_sql_int (const char *path,
                  const char *sql)
{
  sqlite3 *db = akc_test_sql_open (path);
  sqlite3_stmt *stmt = NULL;
  gint64 value;

  g_assert_cmpint (sqlite3_prepare_v2 (db, sql, -1, &stmt, NULL), ==, SQLITE_OK);
  g_assert_cmpint (sqlite3_step (stmt), ==, SQLITE_ROW);
  value = sqlite3_column_int64 (stmt, 0);
  sqlite3_finalize (stmt);
  sqlite3_close (db);

  return value;
}

char *
akc_test_sql_text (const char *path,
                   const char *sql)
{
  sqlite3 *db = akc_test_sql_open (path);
  sqlite3_stmt *stmt = NULL;
  char *value;

  g_assert_cmpint (sqlite3_prepare_v2 (db, sql, -1, &stmt, NULL), ==, SQLITE_OK);
  g_assert_cmpint (sqlite3_step (stmt), ==, SQLITE_ROW);
  value = g_strdup ((const char *) sqlite3_column_text (stmt, 0));
  sqlite3_finalize (stmt);
  sqlite3_close (db);

  return value;
}

void
akc_test_sql_exec (const char *path,
                   const char *sql)
{
  sqlite3 *db = akc_test_sql_open (path);
  char *message = NULL;
  int rc = sqlite3_exec (db, sql, NULL, NULL, &message);

  if (rc != SQLITE_OK)
    g_error ("%s: %s", sql, message);
  sqlite3_close (db);
}

static void
assert_date_time_equal (GDateTime *expected,
                        GDateTime *actual)
{
  g_assert_nonnull (actual);
  g_assert_cmpint (g_date_time_to_unix (expected), ==, g_date_time_to_unix (actual));
  g_assert_cmpint (g_date_time_get_microsecond (expected), ==, g_date_time_get_microsecond (actual));
}

static void
assert_tool_call_equal (AkcToolCall *expected,
                        AkcToolCall *actual)
{
  g_assert_cmpstr (akc_tool_call_get_id (expected), ==, akc_tool_call_get_id (actual));
  g_assert_cmpstr (akc_tool_call_get_name (expected), ==, akc_tool_call_get_name (actual));
  g_assert_true (akc_json_value_equal (akc_tool_call_get_arguments (expected),
                                       akc_tool_call_get_arguments (actual)));
  g_assert_cmpint (akc_tool_call_get_status (expected), ==, akc_tool_call_get_status (actual));
  g_assert_cmpstr (akc_tool_call_get_result (expected), ==, akc_tool_call_get_result (actual));
  g_assert_cmpstr (akc_tool_call_get_error (expected), ==, akc_tool_call_get_error (actual));
}

void
akc_test_assert_message_equal (AkcMessage *expected,
                               AkcMessage *actual)
{
  AkcLineage *expected_lineage = akc_message_get_lineage (expected);
  AkcLineage *actual_lineage = akc_message_get_lineage (actual);
  GListModel *expected_calls = akc_message_get_tool_calls (expected);
  GListModel *actual_calls = akc_message_get_tool_calls (actual);

  g_assert_true (AKC_IS_MESSAGE (actual));
  g_assert_cmpstr (akc_message_get_id (expected), ==, akc_message_get_id (actual));
  g_assert_cmpint (akc_message_get_role (expected), ==, akc_message_get_role (actual));
  g_assert_cmpint (akc_message_get_status (expected), ==, akc_message_get_status (actual));
  g_assert_cmpint (akc_message_get_stopped (expected), ==, akc_message_get_stopped (actual));
  g_assert_cmpmem (akc_message_get_content (expected), akc_message_get_content_length (expected),
                   akc_message_get_content (actual), akc_message_get_content_length (actual));
  assert_date_time_equal (akc_message_get_created_at (expected), akc_message_get_created_at (actual));
  g_assert_cmpstr (akc_message_get_tool_call_id (expected), ==, akc_message_get_tool_call_id (actual));

  if (expected_lineage == NULL)
    g_assert_null (actual_lineage);
  else
    g_assert_true (actual_lineage != NULL && akc_lineage_equal (expected_lineage, actual_lineage));

  g_assert_cmpuint (g_list_model_get_n_items (expected_calls), ==, g_list_model_get_n_items (actual_calls));
  for (guint i = 0; i < g_list_model_get_n_items (expected_calls); i++)
    {
      g_autoptr(AkcToolCall) a = g_list_model_get_item (expected_calls, i);
      g_autoptr(AkcToolCall) b = g_list_model_get_item (actual_calls, i);

      assert_tool_call_equal (a, b);
    }
}

void
akc_test_assert_messages_equal (GListModel *expected,
                                GListModel *actual)
{
  g_assert_nonnull (actual);
  g_assert_cmpuint (g_list_model_get_n_items (expected), ==, g_list_model_get_n_items (actual));

  for (guint i = 0; i < g_list_model_get_n_items (expected); i++)
    {
      g_autoptr(AkcMessage) a = g_list_model_get_item (expected, i);
      g_autoptr(AkcMessage) b = g_list_model_get_item (actual, i);

      akc_test_assert_message_equal (a, b);
    }
}

struct _AkcTestAdapter
{
  GObject    parent_instance;

  AkcStream *stream;
};

static void akc_test_adapter_iface_init (AkcAdapterInterface *iface);

G_DEFINE_FINAL_TYPE_WITH_CODE (AkcTestAdapter, akc_test_adapter, G_TYPE_OBJECT,
                               G_IMPLEMENT_INTERFACE (AKC_TYPE_ADAPTER, akc_test_adapter_iface_init))

static void
akc_test_adapter_stream (AkcAdapter *adapter,
                         AkcAdapterRequest *request,
                         AkcStream  *stream)
{
  AkcTestAdapter *self = AKC_TEST_ADAPTER (adapter);

  g_set_object (&self->stream, stream);
}

static void
akc_test_adapter_iface_init (AkcAdapterInterface *iface)
{
  iface->stream = akc_test_adapter_stream;
}

static void
akc_test_adapter_dispose (GObject *object)
{
  g_clear_object (&AKC_TEST_ADAPTER (object)->stream);

  G_OBJECT_CLASS (akc_test_adapter_parent_class)->dispose (object);
}

static void
akc_test_adapter_class_init (AkcTestAdapterClass *klass)
{
  G_OBJECT_CLASS (klass)->dispose = akc_test_adapter_dispose;
}

static void
akc_test_adapter_init (AkcTestAdapter *self)
{
}

AkcTestAdapter *
akc_test_adapter_new (void)
{
  return g_object_new (AKC_TYPE_TEST_ADAPTER, NULL);
}

AkcStream *
akc_test_adapter_get_stream (AkcTestAdapter *self)
{
  return self->stream;
}

void
akc_test_chat_fixture_set_up (AkcTestChatFixture *fixture,
                              gconstpointer       data)
{
  fixture->path = akc_test_path ("history.sqlite3");
  fixture->memory = akc_test_open (fixture->path);
  fixture->adapter = akc_test_adapter_new ();
  fixture->chat = akc_chat_new (AKC_ADAPTER (fixture->adapter));
  fixture->history = akc_chat_history_new (fixture->chat, fixture->memory, "demo");
}

void
akc_test_chat_fixture_tear_down (AkcTestChatFixture *fixture,
                                 gconstpointer       data)
{
  /* Writes still on their way hold the history. */
  akc_test_history_flush (fixture->history, NULL);
  akc_test_drain ();
  g_assert_finalize_object (fixture->history);
  g_assert_finalize_object (fixture->chat);
  g_assert_finalize_object (fixture->adapter);
  akc_test_close (fixture->memory);
  g_free (fixture->path);
}

GListModel *
akc_test_chat_messages (AkcChat *chat)
{
  return akc_chat_source_get_messages (AKC_CHAT_SOURCE (chat));
}

AkcMessage *
akc_test_chat_message (AkcChat *chat,
                       guint    position)
{
  g_autoptr(AkcMessage) message = g_list_model_get_item (akc_test_chat_messages (chat), position);

  return message;  /* the chat keeps it alive */
}
