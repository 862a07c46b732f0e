/* akc-test.c: what every C test shares
 *
 * SPDX-License-Identifier: MIT
 */

#include "akc-test.h"

#include <glib/gstdio.h>

gint64
akc_test_deadline (void)
{
  return g_get_monotonic_time () + AKC_TEST_WAIT_TIMEOUT_USEC;
}

/* One round of the main loop on the way to @deadline; past it the test
 * fails. */
void
akc_test_iterate (gint64 deadline)
{
  akc_test_iterate_for (deadline, NULL);
}

void
akc_test_iterate_for (gint64      deadline,
                      const char *what)
{
  if (g_get_monotonic_time () > deadline)
    g_error ("waited %d s for %s, in vain",
             (int) (AKC_TEST_WAIT_TIMEOUT_USEC / G_USEC_PER_SEC),
             what != NULL ? what : "a condition");
  /* Replies arrive from idle and timeout sources, rows at the next
   * frames: sleep only when nothing was ready, so that the deadline is
   * looked at even when nothing ever comes. */
  if (!g_main_context_iteration (NULL, FALSE))
    g_usleep (1000);
}

/* Runs the main loop until @condition holds; a hang fails the test. */
void
wait_for (Condition condition,
          gpointer  data)
{
  WAIT_UNTIL (condition (data));
}

/* Runs what is ready on the main loop now, a few rounds. */
void
spin (void)
{
  for (guint i = 0; i < 50; i++)
    g_main_context_iteration (NULL, FALSE);
}

void
wait_until_idle (AkcChatSource *source)
{
  WAIT_UNTIL_WHAT (akc_chat_source_get_status (source) != AKC_CHAT_STATUS_STREAMING, "the reply to end");
}

void
akc_test_drain (void)
{
  while (g_main_context_iteration (NULL, FALSE))
    ;
}

void
akc_test_store_result (GObject      *source,
                       GAsyncResult *result,
                       gpointer      user_data)
{
  GAsyncResult **slot = user_data;

  g_assert_null (*slot);
  *slot = g_object_ref (result);
}

GAsyncResult *
akc_test_wait (GAsyncResult **slot)
{
  WAIT_UNTIL (*slot != NULL);

  return *slot;
}

void
akc_test_wait_finalized (gpointer object)
{
  GObject *weak = object;

  g_object_add_weak_pointer (weak, (gpointer *) &weak);
  g_object_unref (object);
  WAIT_UNTIL (weak == NULL);
}

AkcChatMemory *
akc_test_open (const char *path)
{
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;
  AkcSqliteChatMemory *memory;

  akc_sqlite_chat_memory_new_async (path, NULL, akc_test_store_result, &result);
  memory = akc_sqlite_chat_memory_new_finish (akc_test_wait (&result), &error);
  g_assert_no_error (error);
  g_assert_true (AKC_IS_SQLITE_CHAT_MEMORY (memory));

  return AKC_CHAT_MEMORY (memory);
}

void
akc_test_script_reply (AkcScriptedAdapter *script,
                       const char         *text)
{
  akc_scripted_adapter_begin_turn (script);
  akc_scripted_adapter_add_text (script, text, 0);
  akc_scripted_adapter_add_done (script, 0);
}

AkcToolCall *
akc_test_find_tool_call (AkcChatSource *source,
                         const char    *id)
{
  GListModel *messages = akc_chat_source_get_messages (source);

  for (guint i = 0; i < g_list_model_get_n_items (messages); i++)
    {
      g_autoptr(AkcMessage) message = g_list_model_get_item (messages, i);
      GListModel *calls = akc_message_get_tool_calls (message);

      for (guint j = 0; calls != NULL && j < g_list_model_get_n_items (calls); j++)
        {
          g_autoptr(AkcToolCall) call = g_list_model_get_item (calls, j);

          if (g_strcmp0 (akc_tool_call_get_id (call), id) == 0)
            return call; /* the message keeps it alive */
        }
    }

  return NULL;
}

AkcJsonValue *
akc_test_parse_json (const char *text)
{
  g_autoptr(GError) error = NULL;
  AkcJsonValue *value = akc_json_value_parse (text, -1, &error);

  g_assert_no_error (error);
  return value;
}

const char *
akc_test_member_string (AkcJsonValue *object,
                        const char   *name)
{
  AkcJsonValue *value = object != NULL ? akc_json_value_get_member (object, name) : NULL;

  if (value == NULL || akc_json_value_get_kind (value) != AKC_JSON_KIND_STRING)
    return NULL;
  return akc_json_value_get_string (value, NULL);
}

char *
akc_test_use_file_keyring (const char *prefix)
{
  g_autofree char *template = g_strconcat (prefix, "-XXXXXX", NULL);
  g_autofree char *file = NULL;
  char *folder = g_dir_make_tmp (template, NULL);

  g_assert_nonnull (folder);
  file = g_build_filename (folder, "test.keyring", NULL);
  g_unsetenv ("DBUS_SESSION_BUS_ADDRESS");
  g_setenv ("SECRET_BACKEND", "file", TRUE);
  g_setenv ("SECRET_FILE_TEST_PATH", file, TRUE);
  g_setenv ("SECRET_FILE_TEST_PASSWORD", "akc-file-backend-password", TRUE);

  return folder;
}

char *
akc_test_use_fresh_profile (const char *prefix)
{
  g_autofree char *template = g_strconcat (prefix, "-XXXXXX", NULL);
  g_autofree char *data = NULL;
  char *folder = g_dir_make_tmp (template, NULL);

  g_assert_nonnull (folder);
  data = g_build_filename (folder, "data", NULL);
  g_setenv ("XDG_DATA_HOME", data, TRUE);
  g_setenv ("XDG_CONFIG_HOME", folder, TRUE);
  g_setenv ("XDG_CACHE_HOME", folder, TRUE);

  return folder;
}

char *
akc_test_lookup_secret (const char        *endpoint,
                        AkcCredentialKind  kind)
{
  g_autoptr(AkcCredentialStore) store = akc_credential_store_new ();
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;
  char *secret;

  akc_credential_store_lookup_async (store, endpoint, kind, NULL, akc_test_store_result, &result);
  secret = akc_credential_store_lookup_finish (store, akc_test_wait (&result), &error);
  g_assert_no_error (error);

  return secret;
}

void
akc_test_remove_tree (const char *path)
{
  g_autoptr(GDir) dir = NULL;
  const char *name;

  if (path == NULL)
    return;

  dir = g_dir_open (path, 0, NULL);
  while (dir != NULL && (name = g_dir_read_name (dir)) != NULL)
    {
      g_autofree char *child = g_build_filename (path, name, NULL);

      if (g_file_test (child, G_FILE_TEST_IS_DIR) && !g_file_test (child, G_FILE_TEST_IS_SYMLINK))
        akc_test_remove_tree (child);
      else
        g_unlink (child);
    }
  g_rmdir (path);
}

void
akc_test_copy_history_fixture (const char *name,
                               const char *to)
{
  g_autofree char *from = g_build_filename (g_getenv ("AKC_HISTORY_FIXTURES_DIR"), name, NULL);
  g_autofree char *contents = NULL;
  g_autofree char *folder = g_path_get_dirname (to);
  g_autoptr(GError) error = NULL;
  gsize length = 0;

  g_assert_cmpint (g_mkdir_with_parents (folder, 0700), ==, 0);
  g_file_get_contents (from, &contents, &length, &error);
  g_assert_no_error (error);
  g_file_set_contents (to, contents, length, &error);
  g_assert_no_error (error);
}
