/* test-sqlite-resolutions.c: the component resolutions of the history
 * database (schema version 4, application.md §12.7)
 *
 * SPDX-License-Identifier: MIT
 */

#include "config.h"

#include <akc.h>

#include "akc-sqlite-schema-private.h"
#include "akc-store-test.h"

static AkcMessage *
message (const char     *id,
         AkcMessageRole  role,
         const char     *content)
{
  return akc_message_new (id, role, content, AKC_MESSAGE_STATUS_COMPLETE);
}

static GListModel *
load_resolutions (AkcChatMemory  *memory,
                  const char     *conversation_id,
                  GError        **error)
{
  g_autoptr(GAsyncResult) result = NULL;

  akc_sqlite_chat_memory_load_resolutions_async (AKC_SQLITE_CHAT_MEMORY (memory), conversation_id, NULL,
                                                 akc_test_store_result, &result);
  return akc_sqlite_chat_memory_load_resolutions_finish (AKC_SQLITE_CHAT_MEMORY (memory),
                                                         akc_test_wait (&result), error);
}

static gboolean
save_resolution (AkcChatMemory          *memory,
                 const char             *conversation_id,
                 AkcComponentResolution *resolution,
                 GError                **error)
{
  g_autoptr(GAsyncResult) result = NULL;

  akc_sqlite_chat_memory_save_resolution_async (AKC_SQLITE_CHAT_MEMORY (memory), conversation_id, resolution,
                                                NULL, akc_test_store_result, &result);
  return akc_sqlite_chat_memory_save_resolution_finish (AKC_SQLITE_CHAT_MEMORY (memory),
                                                        akc_test_wait (&result), error);
}

static gboolean
delete_resolution (AkcChatMemory  *memory,
                   const char     *conversation_id,
                   const char     *instance_id,
                   GError        **error)
{
  g_autoptr(GAsyncResult) result = NULL;

  akc_sqlite_chat_memory_delete_resolution_async (AKC_SQLITE_CHAT_MEMORY (memory), conversation_id, instance_id,
                                                  NULL, akc_test_store_result, &result);
  return akc_sqlite_chat_memory_delete_resolution_finish (AKC_SQLITE_CHAT_MEMORY (memory),
                                                          akc_test_wait (&result), error);
}

static AkcComponentResolution *
choice (const char *instance_id,
        const char *message_id,
        const char *choice_id,
        gint64      at)
{
  g_autoptr(AkcJsonValue) value = akc_json_value_new_string (choice_id, -1);

  return akc_component_resolution_new (instance_id, message_id, AKC_COMPONENT_RESOLUTION_SELECT, value, at);
}

/* Every field comes back; the first answer wins; a resolution lives only
 * as long as its message. */
static void
test_save_load (void)
{
  g_autofree char *path = akc_test_path ("resolutions.sqlite3");
  g_autoptr(AkcChatMemory) memory = akc_test_open (path);
  g_autoptr(AkcConversationInfo) info = NULL;
  g_autoptr(AkcMessage) user = message ("u1", AKC_MESSAGE_ROLE_USER, "/support");
  g_autoptr(AkcMessage) reply = message ("a1", AKC_MESSAGE_ROLE_ASSISTANT, "card");
  g_autoptr(AkcComponentResolution) first = choice ("support-ticket-choice-1", "a1", "create", 1234567);
  g_autoptr(AkcComponentResolution) second = choice ("support-ticket-choice-1", "a1", "continue", 2345678);
  g_autoptr(AkcComponentResolution) orphan = choice ("other-1", "nope", "create", 1);
  g_autoptr(AkcComponentResolution) form = NULL;
  g_autoptr(AkcJsonValue) values = akc_json_value_parse ("{\"role\":\"support\",\"goal\":\"Ünïcode ✓\"}", -1, NULL);
  g_autoptr(GListModel) loaded = NULL;
  g_autoptr(AkcComponentResolution) got = NULL;
  g_autoptr(GError) error = NULL;
  AkcMessage *messages[] = { user, reply };

  info = akc_test_create (memory, "support", "Support", &error);
  g_assert_no_error (error);
  g_assert_true (akc_test_splice (memory, "support", 0, 0, messages, 2, &error));
  g_assert_no_error (error);

  loaded = load_resolutions (memory, "support", &error);
  g_assert_no_error (error);
  g_assert_cmpuint (g_list_model_get_n_items (loaded), ==, 0);
  g_clear_object (&loaded);

  g_assert_true (save_resolution (memory, "support", first, &error));
  g_assert_no_error (error);

  /* A second answer of the same instance is refused and changes nothing. */
  g_assert_false (save_resolution (memory, "support", second, &error));
  g_assert_error (error, AKC_CHAT_MEMORY_ERROR, AKC_CHAT_MEMORY_ERROR_EXISTS);
  g_clear_error (&error);

  /* Only with a message of the conversation. */
  g_assert_false (save_resolution (memory, "support", orphan, &error));
  g_assert_error (error, AKC_CHAT_MEMORY_ERROR, AKC_CHAT_MEMORY_ERROR_NOT_FOUND);
  g_clear_error (&error);
  g_assert_false (save_resolution (memory, "nowhere", first, &error));
  g_assert_error (error, AKC_CHAT_MEMORY_ERROR, AKC_CHAT_MEMORY_ERROR_NOT_FOUND);
  g_clear_error (&error);
  g_assert_false (save_resolution (memory, "bad id!", first, &error));
  g_assert_error (error, AKC_CHAT_MEMORY_ERROR, AKC_CHAT_MEMORY_ERROR_INVALID);
  g_clear_error (&error);

  form = akc_component_resolution_new ("form-1", "a1", "submit", values, 3456789);
  g_assert_true (save_resolution (memory, "support", form, &error));
  g_assert_no_error (error);

  akc_test_close (g_steal_pointer (&memory));
  memory = akc_test_open (path);

  loaded = load_resolutions (memory, "support", &error);
  g_assert_no_error (error);
  g_assert_cmpuint (g_list_model_get_n_items (loaded), ==, 2);
  got = g_list_model_get_item (loaded, 0);
  g_assert_cmpstr (akc_component_resolution_get_instance_id (got), ==, "support-ticket-choice-1");
  g_assert_cmpstr (akc_component_resolution_get_message_id (got), ==, "a1");
  g_assert_cmpstr (akc_component_resolution_get_event (got), ==, "select");
  g_assert_cmpstr (akc_component_resolution_get_choice_id (got), ==, "create");
  g_assert_cmpint (akc_component_resolution_get_resolved_at (got), ==, 1234567);
  g_clear_object (&got);
  got = g_list_model_get_item (loaded, 1);
  g_assert_cmpstr (akc_component_resolution_get_event (got), ==, "submit");
  g_assert_null (akc_component_resolution_get_choice_id (got));
  g_assert_true (akc_json_value_equal (akc_component_resolution_get_value (got), values));
  g_clear_object (&got);
  g_clear_object (&loaded);

  /* Withdrawn: answerable again. */
  g_assert_true (delete_resolution (memory, "support", "form-1", &error));
  g_assert_no_error (error);
  g_assert_false (delete_resolution (memory, "support", "form-1", &error));
  g_assert_no_error (error);
  g_assert_true (save_resolution (memory, "support", form, &error));
  g_assert_no_error (error);

  /* A regenerated reply takes its cards' answers with it. */
  g_assert_true (akc_test_splice (memory, "support", 1, 1, NULL, 0, &error));
  g_assert_no_error (error);
  loaded = load_resolutions (memory, "support", &error);
  g_assert_no_error (error);
  g_assert_cmpuint (g_list_model_get_n_items (loaded), ==, 0);
  g_clear_object (&loaded);

  /* Deleting the conversation deletes them. */
  g_assert_true (akc_test_delete (memory, "support", &error));
  g_assert_no_error (error);
  akc_test_close (g_steal_pointer (&memory));
  g_assert_cmpint (akc_test_sql_int (path, "SELECT count(*) FROM component_resolutions"), ==, 0);
}

/* A damaged value still keeps its instance answered. */
static void
test_damaged_value (void)
{
  g_autofree char *path = akc_test_path ("damaged.sqlite3");
  g_autoptr(AkcChatMemory) memory = akc_test_open (path);
  g_autoptr(AkcConversationInfo) info = NULL;
  g_autoptr(AkcMessage) reply = message ("a1", AKC_MESSAGE_ROLE_ASSISTANT, "card");
  g_autoptr(AkcComponentResolution) first = choice ("choice-1", "a1", "create", 7);
  g_autoptr(AkcComponentResolution) got = NULL;
  g_autoptr(GListModel) loaded = NULL;
  g_autoptr(GError) error = NULL;

  info = akc_test_create (memory, "c", NULL, &error);
  g_assert_no_error (error);
  g_assert_true (akc_test_splice (memory, "c", 0, 0, &reply, 1, &error));
  g_assert_true (save_resolution (memory, "c", first, &error));
  g_assert_no_error (error);
  akc_test_close (g_steal_pointer (&memory));

  akc_test_sql_exec (path, "UPDATE component_resolutions SET value = '{not json', event = 42");
  akc_test_sql_exec (path, "INSERT INTO component_resolutions VALUES ('c', 'bad id!', 'a1', 'select', NULL, 8)");

  memory = akc_test_open (path);
  loaded = load_resolutions (memory, "c", &error);
  g_assert_no_error (error);
  g_assert_cmpuint (g_list_model_get_n_items (loaded), ==, 1);
  got = g_list_model_get_item (loaded, 0);
  g_assert_cmpstr (akc_component_resolution_get_instance_id (got), ==, "choice-1");
  g_assert_null (akc_component_resolution_get_value (got));
  g_assert_null (akc_component_resolution_get_choice_id (got));
  akc_test_close (g_steal_pointer (&memory));
}

/* A history written by the version before resolutions (schema 3) opens,
 * keeps every conversation and message, and takes answers. */
static void
test_migrate_v3 (void)
{
  g_autofree char *path = akc_test_path ("v3.sqlite3");
  g_autoptr(AkcChatMemory) memory = NULL;
  g_autoptr(GListModel) list = NULL;
  g_autoptr(GListModel) loaded = NULL;
  g_autoptr(GListModel) resolutions = NULL;
  g_autoptr(AkcConversationInfo) info = NULL;
  g_autoptr(AkcMessage) first = NULL;
  g_autoptr(AkcMessage) second = NULL;
  g_autoptr(AkcComponentResolution) answer = choice ("support-ticket-choice-1", "m-assistant", "create", 42);
  g_autoptr(GError) error = NULL;

  akc_test_copy_history_fixture ("history-v3.sqlite3", path);
  g_assert_cmpint (akc_test_sql_int (path, "PRAGMA user_version"), ==, 3);

  memory = akc_test_open (path);
  g_assert_cmpint (akc_test_sql_int (path, "PRAGMA user_version"), ==, AKC_SQLITE_SCHEMA_VERSION);
  g_assert_cmpint (akc_test_sql_int (path, "SELECT count(*) FROM component_resolutions"), ==, 0);

  list = akc_test_list (memory, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (g_list_model_get_n_items (list), ==, 1);
  info = g_list_model_get_item (list, 0);
  g_assert_cmpstr (akc_conversation_info_get_id (info), ==, "support");
  g_assert_cmpstr (akc_conversation_info_get_title (info), ==, "Support");

  loaded = akc_test_load (memory, "support", &error);
  g_assert_no_error (error);
  g_assert_cmpuint (g_list_model_get_n_items (loaded), ==, 2);
  first = g_list_model_get_item (loaded, 0);
  second = g_list_model_get_item (loaded, 1);
  g_assert_cmpstr (akc_message_get_id (first), ==, "m-user");
  g_assert_cmpstr (akc_message_get_content (first), ==, "/support");
  g_assert_cmpint (akc_message_get_role (second), ==, AKC_MESSAGE_ROLE_ASSISTANT);
  g_assert_cmpstr (akc_message_get_content (second), ==, "Open a support ticket or keep chatting.");

  g_assert_true (save_resolution (memory, "support", answer, &error));
  g_assert_no_error (error);
  resolutions = load_resolutions (memory, "support", &error);
  g_assert_no_error (error);
  g_assert_cmpuint (g_list_model_get_n_items (resolutions), ==, 1);

  akc_test_close (g_steal_pointer (&memory));
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);

  g_test_add_func ("/store/resolutions/save-load", test_save_load);
  g_test_add_func ("/store/resolutions/damaged-value", test_damaged_value);
  g_test_add_func ("/store/resolutions/migrate-v3", test_migrate_v3);

  return g_test_run ();
}
