/* test-conversations.c: many conversations per assistant (issue 14):
 * the version 5 schema and its migration, pages, pins, titles and the
 * conversation list model
 *
 * SPDX-License-Identifier: MIT
 */

#include "config.h"

#include <akc.h>

#include "akc-sqlite-schema-private.h"
#include "akc-stored-message-private.h"
#include "akc-store-test.h"

static AkcMessage *
message (const char     *id,
         AkcMessageRole  role,
         const char     *content)
{
  return akc_message_new (id, role, content, AKC_MESSAGE_STATUS_COMPLETE);
}

static AkcConversationInfo *
create_full (AkcChatMemory  *memory,
             const char     *id,
             const char     *assistant_id,
             const char     *title,
             GError        **error)
{
  g_autoptr(GAsyncResult) result = NULL;

  akc_chat_memory_create_conversation_full_async (memory, id, assistant_id, title, NULL,
                                                  akc_test_store_result, &result);
  return akc_chat_memory_create_conversation_full_finish (memory, akc_test_wait (&result), error);
}

static GListModel *
page (AkcChatMemory  *memory,
      guint           offset,
      guint           limit,
      GError        **error)
{
  g_autoptr(GAsyncResult) result = NULL;

  akc_chat_memory_list_conversations_page_async (memory, offset, limit, NULL, akc_test_store_result, &result);
  return akc_chat_memory_list_conversations_page_finish (memory, akc_test_wait (&result), error);
}

static AkcConversationInfo *
get (AkcChatMemory  *memory,
     const char     *id,
     GError        **error)
{
  g_autoptr(GAsyncResult) result = NULL;

  akc_chat_memory_get_conversation_async (memory, id, NULL, akc_test_store_result, &result);
  return akc_chat_memory_get_conversation_finish (memory, akc_test_wait (&result), error);
}

static gboolean
pin (AkcChatMemory  *memory,
     const char     *id,
     gboolean        pinned,
     GError        **error)
{
  g_autoptr(GAsyncResult) result = NULL;

  akc_chat_memory_set_conversation_pinned_async (memory, id, pinned, NULL, akc_test_store_result, &result);
  return akc_chat_memory_set_conversation_pinned_finish (memory, akc_test_wait (&result), error);
}

static char *
ids_of (GListModel *model)
{
  g_autoptr(GString) ids = g_string_new (NULL);

  for (guint i = 0; i < g_list_model_get_n_items (model); i++)
    {
      g_autoptr(AkcConversationInfo) info = g_list_model_get_item (model, i);

      if (i > 0)
        g_string_append_c (ids, ' ');
      g_string_append (ids, akc_conversation_info_get_id (info));
    }

  return g_string_free (g_steal_pointer (&ids), FALSE);
}

/* A database written by version 4 (tests/fixtures/history/README.md):
 * every conversation becomes the first of its assistant, with all it
 * had, and an untitled one takes the title of its first user message. */
static void
test_migrate_v4 (void)
{
  g_autofree char *path = akc_test_path ("v4.sqlite3");
  g_autoptr(AkcChatMemory) memory = NULL;
  g_autoptr(GListModel) list = NULL;
  g_autoptr(GListModel) loaded = NULL;
  g_autoptr(GError) error = NULL;
  struct {
    const char *id;
    const char *assistant_id;
    const char *title;
    guint       n_messages;
  } expected[] = {
    { "demo", "hello-world", "Hello there, what can you do for me today? I would…", 2 },
    { "demo-support", "support", "Support", 2 },
    { "ask", "ask", "What is full-text search?", 2 },
    { "provider", "provider", "", 0 },
  };
  gint64 created[G_N_ELEMENTS (expected)];
  gint64 updated[G_N_ELEMENTS (expected)];

  akc_test_copy_history_fixture ("history-v4.sqlite3", path);
  g_assert_cmpint (akc_test_sql_int (path, "PRAGMA user_version"), ==, 4);
  for (guint i = 0; i < G_N_ELEMENTS (expected); i++)
    {
      g_autofree char *c = g_strdup_printf ("SELECT created_at FROM conversations WHERE id = '%s'", expected[i].id);
      g_autofree char *u = g_strdup_printf ("SELECT updated_at FROM conversations WHERE id = '%s'", expected[i].id);

      created[i] = akc_test_sql_int (path, c);
      updated[i] = akc_test_sql_int (path, u);
    }

  memory = akc_test_open (path);
  g_assert_cmpint (akc_test_sql_int (path, "PRAGMA user_version"), ==, AKC_SQLITE_SCHEMA_VERSION);
  g_assert_cmpint (akc_test_sql_int (path, "SELECT count(*) FROM messages"), ==, 6);

  list = akc_test_list (memory, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (g_list_model_get_n_items (list), ==, G_N_ELEMENTS (expected));

  for (guint i = 0; i < G_N_ELEMENTS (expected); i++)
    {
      g_autoptr(AkcConversationInfo) info = get (memory, expected[i].id, &error);

      g_assert_no_error (error);
      g_assert_cmpstr (akc_conversation_info_get_assistant_id (info), ==, expected[i].assistant_id);
      g_assert_cmpstr (akc_conversation_info_get_title (info), ==, expected[i].title);
      g_assert_cmpuint (akc_conversation_info_get_n_messages (info), ==, expected[i].n_messages);
      g_assert_false (akc_conversation_info_get_pinned (info));
      g_assert_cmpint (akc_stored_time_from_date_time (akc_conversation_info_get_created_at (info)), ==, created[i]);
      g_assert_cmpint (akc_stored_time_from_date_time (akc_conversation_info_get_updated_at (info)), ==, updated[i]);
      if (g_str_equal (expected[i].id, "demo"))
        g_assert_true (akc_usage_equal (akc_conversation_info_get_usage (info), &(AkcUsage) { 12, 34, 46 }));
    }

  loaded = akc_test_load (memory, "demo", &error);
  g_assert_no_error (error);
  g_assert_cmpuint (g_list_model_get_n_items (loaded), ==, 2);
  {
    g_autoptr(AkcMessage) first = g_list_model_get_item (loaded, 0);

    g_assert_cmpstr (akc_message_get_content (first), ==,
                     "  Hello there,\nwhat can you do for me today? I would like to know everything.");
  }

  /* A migrated assistant gets more conversations next to its first. */
  {
    g_autoptr(AkcConversationInfo) second = create_full (memory, "c-2", "support", NULL, &error);

    g_assert_no_error (error);
    g_assert_cmpstr (akc_conversation_info_get_assistant_id (second), ==, "support");
  }

  akc_test_close (g_steal_pointer (&memory));

  /* Opened again: nothing to migrate, nothing changed. */
  memory = akc_test_open (path);
  g_assert_cmpint (akc_test_sql_int (path, "SELECT count(*) FROM conversations WHERE assistant_id = 'support'"), ==, 2);
  akc_test_close (g_steal_pointer (&memory));
}

/* Pages: pinned first, then the most recently changed, offset and limit. */
static GListModel *
of_assistant (AkcChatMemory  *memory,
              const char     *assistant_id,
              guint           limit,
              GError        **error)
{
  g_autoptr(GAsyncResult) result = NULL;

  akc_sqlite_chat_memory_list_assistant_async (AKC_SQLITE_CHAT_MEMORY (memory), assistant_id, limit, NULL,
                                               akc_test_store_result, &result);
  return akc_sqlite_chat_memory_list_assistant_finish (AKC_SQLITE_CHAT_MEMORY (memory), akc_test_wait (&result), error);
}

/* The conversations of one assistant, newest first whether pinned or not,
 * without listing the others (what the app opens for an assistant). */
static void
test_of_assistant (void)
{
  g_autofree char *path = akc_test_path ("history.sqlite3");
  g_autoptr(AkcChatMemory) memory = akc_test_open (path);
  g_autoptr(GError) error = NULL;

  for (guint i = 0; i < 6; i++)
    {
      g_autofree char *id = g_strdup_printf ("c%u", i);
      g_autofree char *sql = g_strdup_printf ("UPDATE conversations SET updated_at = %u WHERE id = '%s'",
                                              1000 + i, id);
      g_autoptr(AkcConversationInfo) info = create_full (memory, id, i % 2 ? "support" : "hello-world", NULL, &error);

      g_assert_no_error (error);
      akc_test_sql_exec (path, sql);
    }
  g_assert_true (pin (memory, "c1", TRUE, &error));

  {
    g_autoptr(GListModel) support = of_assistant (memory, "support", 10, &error);
    g_autoptr(GListModel) two = of_assistant (memory, "hello-world", 2, &error);
    g_autoptr(GListModel) none = of_assistant (memory, "ask", 10, &error);
    g_autofree char *support_ids = ids_of (support);
    g_autofree char *two_ids = ids_of (two);

    g_assert_no_error (error);
    g_assert_cmpstr (support_ids, ==, "c5 c3 c1");
    g_assert_cmpstr (two_ids, ==, "c4 c2");
    g_assert_cmpuint (g_list_model_get_n_items (none), ==, 0);
  }

  akc_test_close (g_steal_pointer (&memory));
}

static void
test_pages (void)
{
  g_autofree char *path = akc_test_path ("history.sqlite3");
  g_autoptr(AkcChatMemory) memory = akc_test_open (path);
  g_autoptr(GError) error = NULL;
  g_autoptr(GListModel) all = NULL;
  g_autofree char *ids = NULL;

  for (guint i = 0; i < 6; i++)
    {
      g_autofree char *id = g_strdup_printf ("c%u", i);
      g_autofree char *sql = g_strdup_printf ("UPDATE conversations SET updated_at = %u WHERE id = '%s'",
                                              1000 + i, id);
      g_autoptr(AkcConversationInfo) info = create_full (memory, id, i % 2 ? "support" : "hello-world", NULL, &error);

      g_assert_no_error (error);
      g_assert_cmpstr (akc_conversation_info_get_assistant_id (info), ==, i % 2 ? "support" : "hello-world");
      /* Distinct update times, c5 the newest. */
      akc_test_sql_exec (path, sql);
    }

  all = page (memory, 0, 100, &error);
  g_assert_no_error (error);
  ids = ids_of (all);
  g_assert_cmpstr (ids, ==, "c5 c4 c3 c2 c1 c0");
  g_clear_object (&all);
  g_clear_pointer (&ids, g_free);

  g_assert_true (pin (memory, "c1", TRUE, &error));
  g_assert_no_error (error);
  g_assert_true (pin (memory, "c3", TRUE, &error));

  all = page (memory, 0, 100, &error);
  ids = ids_of (all);
  g_assert_cmpstr (ids, ==, "c3 c1 c5 c4 c2 c0");
  g_clear_object (&all);
  g_clear_pointer (&ids, g_free);

  /* The same order, a page at a time. */
  all = page (memory, 2, 3, &error);
  g_assert_no_error (error);
  ids = ids_of (all);
  g_assert_cmpstr (ids, ==, "c5 c4 c2");
  g_clear_object (&all);
  g_clear_pointer (&ids, g_free);

  all = page (memory, 5, 3, &error);
  ids = ids_of (all);
  g_assert_cmpstr (ids, ==, "c0");
  g_clear_object (&all);
  g_clear_pointer (&ids, g_free);

  all = page (memory, 50, 3, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (g_list_model_get_n_items (all), ==, 0);
  g_clear_object (&all);

  /* The full listing has the same order. */
  all = akc_test_list (memory, &error);
  ids = ids_of (all);
  g_assert_cmpstr (ids, ==, "c3 c1 c5 c4 c2 c0");
  g_clear_object (&all);
  g_clear_pointer (&ids, g_free);

  /* Pinning keeps the time of the last change. */
  {
    g_autoptr(AkcConversationInfo) before = get (memory, "c0", &error);
    g_autoptr(AkcConversationInfo) after = NULL;

    g_assert_true (pin (memory, "c0", TRUE, &error));
    after = get (memory, "c0", &error);
    g_assert_true (akc_conversation_info_get_pinned (after));
    g_assert_true (g_date_time_equal (akc_conversation_info_get_updated_at (before),
                                      akc_conversation_info_get_updated_at (after)));
    g_assert_true (pin (memory, "c0", FALSE, &error));
  }

  /* So does renaming: only new messages move a conversation (issue 14). */
  {
    g_autoptr(AkcConversationInfo) before = get (memory, "c0", &error);
    g_autoptr(AkcConversationInfo) after = NULL;

    g_assert_true (akc_test_update (memory, "c0", "An old chat, renamed", NULL, &error));
    g_assert_no_error (error);
    after = get (memory, "c0", &error);
    g_assert_cmpstr (akc_conversation_info_get_title (after), ==, "An old chat, renamed");
    g_assert_true (g_date_time_equal (akc_conversation_info_get_updated_at (before),
                                      akc_conversation_info_get_updated_at (after)));
    all = akc_test_list (memory, &error);
    ids = ids_of (all);
    g_assert_cmpstr (ids, ==, "c3 c1 c5 c4 c2 c0");
    g_clear_object (&all);
    g_clear_pointer (&ids, g_free);
  }

  /* Errors. */
  g_assert_false (pin (memory, "nope", TRUE, &error));
  g_assert_error (error, AKC_CHAT_MEMORY_ERROR, AKC_CHAT_MEMORY_ERROR_NOT_FOUND);
  g_clear_error (&error);
  g_assert_null (get (memory, "nope", &error));
  g_assert_error (error, AKC_CHAT_MEMORY_ERROR, AKC_CHAT_MEMORY_ERROR_NOT_FOUND);
  g_clear_error (&error);
  g_assert_null (create_full (memory, "c9", "not an id", NULL, &error));
  g_assert_error (error, AKC_CHAT_MEMORY_ERROR, AKC_CHAT_MEMORY_ERROR_INVALID);
  g_clear_error (&error);
  g_assert_cmpint (akc_test_sql_int (path, "SELECT count(*) FROM conversations WHERE id = 'c9'"), ==, 0);
  g_assert_null (create_full (memory, "c0", "support", NULL, &error));
  g_assert_error (error, AKC_CHAT_MEMORY_ERROR, AKC_CHAT_MEMORY_ERROR_EXISTS);
  g_clear_error (&error);

  akc_test_close (g_steal_pointer (&memory));
}

static gboolean
set_model (AkcChatMemory  *memory,
           const char     *id,
           const char     *kind,
           const char     *url,
           const char     *model,
           GError        **error)
{
  g_autoptr(GAsyncResult) result = NULL;

  akc_chat_memory_set_conversation_model_async (memory, id, kind, url, model, NULL, akc_test_store_result, &result);
  return akc_chat_memory_set_conversation_model_finish (memory, akc_test_wait (&result), error);
}

/* The provider and model of a conversation (schema v7, issue 15): kept
 * with it across a restart, without touching its time of last change. */
static void
test_model (void)
{
  g_autofree char *path = akc_test_path ("history.sqlite3");
  g_autoptr(AkcChatMemory) memory = akc_test_open (path);
  g_autoptr(GError) error = NULL;
  g_autoptr(AkcConversationInfo) created = NULL;
  g_autoptr(AkcConversationInfo) info = NULL;
  g_autoptr(GListModel) all = NULL;

  created = create_full (memory, "provider:1", "provider", NULL, &error);
  g_assert_no_error (error);
  g_assert_null (akc_conversation_info_get_model (created));
  g_assert_null (akc_conversation_info_get_provider_kind (created));
  g_assert_null (akc_conversation_info_get_provider_url (created));

  g_assert_true (set_model (memory, "provider:1", "ollama", "http://127.0.0.1:11434/", "qwen3:8b", &error));
  g_assert_no_error (error);
  info = get (memory, "provider:1", &error);
  g_assert_cmpstr (akc_conversation_info_get_provider_kind (info), ==, "ollama");
  g_assert_cmpstr (akc_conversation_info_get_provider_url (info), ==, "http://127.0.0.1:11434/");
  g_assert_cmpstr (akc_conversation_info_get_model (info), ==, "qwen3:8b");
  g_assert_true (g_date_time_equal (akc_conversation_info_get_updated_at (created),
                                    akc_conversation_info_get_updated_at (info)));
  g_clear_object (&info);

  /* Switching the model replaces it. */
  g_assert_true (set_model (memory, "provider:1", "ollama", "http://127.0.0.1:11434/", "llama3.2:latest", &error));

  /* Refused: what is not text a person can read, and an unknown conversation. */
  g_assert_false (set_model (memory, "provider:1", "ollama", "http://127.0.0.1:11434/", "bad\nmodel", &error));
  g_assert_error (error, AKC_CHAT_MEMORY_ERROR, AKC_CHAT_MEMORY_ERROR_INVALID);
  g_clear_error (&error);
  g_assert_false (set_model (memory, "nope", "ollama", NULL, "qwen3:8b", &error));
  g_assert_error (error, AKC_CHAT_MEMORY_ERROR, AKC_CHAT_MEMORY_ERROR_NOT_FOUND);
  g_clear_error (&error);

  /* After a restart, the listing says which model. */
  akc_test_close (g_steal_pointer (&memory));
  memory = akc_test_open (path);
  all = akc_test_list (memory, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (g_list_model_get_n_items (all), ==, 1);
  info = g_list_model_get_item (all, 0);
  g_assert_cmpstr (akc_conversation_info_get_model (info), ==, "llama3.2:latest");
  g_assert_cmpstr (akc_conversation_info_get_provider_kind (info), ==, "ollama");
  g_clear_object (&info);

  /* None recorded any more. */
  g_assert_true (set_model (memory, "provider:1", NULL, NULL, NULL, &error));
  info = get (memory, "provider:1", &error);
  g_assert_null (akc_conversation_info_get_model (info));
  g_assert_cmpint (akc_test_sql_int (path, "SELECT count(*) FROM conversations WHERE model IS NULL"), ==, 1);

  akc_test_close (g_steal_pointer (&memory));
}

static void
test_derive_title (void)
{
  struct {
    const char *text;
    const char *title;
  } cases[] = {
    { NULL, "" },
    { "", "" },
    { " \n\t ", "" },
    { "Hello", "Hello" },
    { "  Hello\n\n  world  ", "Hello world" },
    { "a\r\nb\u2028c\x01" "d", "a b c d" },
    /* 50 characters exactly stay whole. */
    { "12345678901234567890123456789012345678901234567890",
      "12345678901234567890123456789012345678901234567890" },
    /* Longer: cut at the last word that fits, without its comma. */
    { "Tell me everything about the history of the Roman empire, please, in detail",
      "Tell me everything about the history of the Roman…" },
    { "Tell me everything about the history of the Romans, please",
      "Tell me everything about the history of the Romans…" },
    /* One long word: cut at 50 characters. */
    { "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa",
      "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa…" },
    /* An accent is never cut from its letter: e + U+0301 at 50/51. */
    { "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaae\xcc\x81zzzz",
      "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa…" },
    /* Nor a flag (two regional indicators) in two. */
    { "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa\xf0\x9f\x87\xab\xf0\x9f\x87\xb7zz",
      "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa…" },
    /* Invalid UTF-8 is replaced. */
    { "ok \xff ok", "ok \xef\xbf\xbd ok" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *title = akc_derive_conversation_title (cases[i].text, -1);

      g_assert_cmpstr (title, ==, cases[i].title);
      g_assert_true (g_utf8_validate (title, -1, NULL));
      g_assert_null (strchr (title, '\n'));
      g_assert_cmpint (g_utf8_strlen (title, -1), <=, AKC_CONVERSATION_TITLE_MAX_CHARS + 1);
    }

  /* With a length: what follows it is not read. */
  {
    g_autofree char *title = akc_derive_conversation_title ("Hello world", 5);

    g_assert_cmpstr (title, ==, "Hello");
  }
}

/* An untitled conversation is titled by its first user message when it
 * is stored; a title that exists stays. */
static void
test_auto_title (void)
{
  g_autofree char *path = akc_test_path ("history.sqlite3");
  g_autoptr(AkcChatMemory) memory = akc_test_open (path);
  g_autoptr(GError) error = NULL;
  g_autoptr(AkcConversationInfo) a = create_full (memory, "a", "support", NULL, &error);
  g_autoptr(AkcConversationInfo) b = create_full (memory, "b", "support", "Mine", &error);
  g_autoptr(AkcConversationInfo) info = NULL;

  g_assert_true (akc_test_append (memory, "a", message ("a-0", AKC_MESSAGE_ROLE_ASSISTANT, "Welcome!"), &error));
  info = get (memory, "a", &error);
  g_assert_cmpstr (akc_conversation_info_get_title (info), ==, "");
  g_clear_object (&info);

  g_assert_true (akc_test_append (memory, "a", message ("a-1", AKC_MESSAGE_ROLE_USER, " How do I\nreset it? "), &error));
  g_assert_true (akc_test_append (memory, "a", message ("a-2", AKC_MESSAGE_ROLE_USER, "Second"), &error));
  info = get (memory, "a", &error);
  g_assert_cmpstr (akc_conversation_info_get_title (info), ==, "How do I reset it?");
  g_clear_object (&info);

  g_assert_true (akc_test_append (memory, "b", message ("b-1", AKC_MESSAGE_ROLE_USER, "Other"), &error));
  info = get (memory, "b", &error);
  g_assert_cmpstr (akc_conversation_info_get_title (info), ==, "Mine");
  g_clear_object (&info);

  /* Renamed by the person: kept when more is said. */
  g_assert_true (akc_test_update (memory, "a", "Reset", NULL, &error));
  g_assert_true (akc_test_append (memory, "a", message ("a-3", AKC_MESSAGE_ROLE_USER, "Third"), &error));
  info = get (memory, "a", &error);
  g_assert_cmpstr (akc_conversation_info_get_title (info), ==, "Reset");

  akc_test_close (g_steal_pointer (&memory));
}

static void
on_changed (AkcChatMemory *memory,
            const char    *id,
            GString       *log)
{
  g_string_append_printf (log, "%s;", id);
}

/* Every stored change is told, once, before its call completes. */
static void
test_changed_signal (void)
{
  g_autofree char *path = akc_test_path ("history.sqlite3");
  g_autoptr(AkcChatMemory) memory = akc_test_open (path);
  g_autoptr(GString) log = g_string_new (NULL);
  g_autoptr(GError) error = NULL;
  g_autoptr(AkcConversationInfo) info = NULL;
  g_autoptr(AkcMessage) m = message ("m", AKC_MESSAGE_ROLE_USER, "Hi");

  g_signal_connect (memory, "conversation-changed", G_CALLBACK (on_changed), log);

  info = create_full (memory, "x", "support", NULL, &error);
  g_assert_cmpstr (log->str, ==, "x;");
  g_assert_true (akc_test_append (memory, "x", g_object_ref (m), &error));
  akc_message_set_content (m, "Hi there");
  g_assert_true (akc_test_save (memory, "x", m, &error));
  g_assert_true (akc_test_update (memory, "x", "T", NULL, &error));
  g_assert_true (pin (memory, "x", TRUE, &error));
  g_assert_cmpstr (log->str, ==, "x;x;x;x;x;");

  /* A failed change tells nothing. */
  g_assert_false (akc_test_delete (memory, "nope", &error));
  g_clear_error (&error);
  g_assert_null (create_full (memory, "x", NULL, NULL, &error));
  g_clear_error (&error);
  g_assert_cmpstr (log->str, ==, "x;x;x;x;x;");

  /* Reads tell nothing either. */
  g_clear_object (&info);
  info = get (memory, "x", &error);
  g_assert_cmpstr (log->str, ==, "x;x;x;x;x;");

  g_assert_true (akc_test_delete (memory, "x", &error));
  g_assert_cmpstr (log->str, ==, "x;x;x;x;x;x;");

  g_signal_handlers_disconnect_by_func (memory, on_changed, log);
  akc_test_close (g_steal_pointer (&memory));
}

/* The list model ---------------------------------------------------- */

static void
on_items_changed (GListModel *model,
                  guint       position,
                  guint       removed,
                  guint       added,
                  GString    *log)
{
  g_string_append_printf (log, "%u-%u+%u;", position, removed, added);
}

static void
count_notify (guint *counter)
{
  (*counter)++;
}

static void
wait_idle (AkcConversationList *list)
{
  WAIT_UNTIL (!akc_conversation_list_get_loading (list));
}

/* The list equals a fresh listing of the same range. */
static void
assert_list_is_stored (AkcConversationList *list,
                       AkcChatMemory       *memory)
{
  guint n = g_list_model_get_n_items (G_LIST_MODEL (list));
  g_autoptr(GError) error = NULL;
  g_autoptr(GListModel) stored = page (memory, 0, n, &error);
  g_autofree char *expected = ids_of (stored);
  g_autofree char *actual = NULL;

  g_assert_no_error (error);
  /* Reading it takes no more pages than it has. */
  {
    g_autoptr(GString) ids = g_string_new (NULL);

    for (guint i = 0; i < n; i++)
      {
        AkcConversationInfo *info = akc_conversation_list_lookup (list, "", NULL);
        g_autoptr(GListModel) one = page (memory, i, 1, &error);
        g_autoptr(AkcConversationInfo) fresh = g_list_model_get_item (one, 0);
        guint position = G_MAXUINT;

        g_assert_null (info);
        info = akc_conversation_list_lookup (list, akc_conversation_info_get_id (fresh), &position);
        g_assert_nonnull (info);
        g_assert_cmpuint (position, ==, i);
        g_assert_cmpstr (akc_conversation_info_get_title (info), ==, akc_conversation_info_get_title (fresh));
        g_assert_cmpint (akc_conversation_info_get_pinned (info), ==, akc_conversation_info_get_pinned (fresh));
        g_assert_true (g_date_time_equal (akc_conversation_info_get_updated_at (info),
                                          akc_conversation_info_get_updated_at (fresh)));
        g_assert_cmpuint (akc_conversation_info_get_n_messages (info), ==,
                          akc_conversation_info_get_n_messages (fresh));
        g_string_append_printf (ids, "%s%s", i > 0 ? " " : "", akc_conversation_info_get_id (info));
      }
    actual = g_string_free (g_steal_pointer (&ids), FALSE);
  }

  g_assert_cmpstr (actual, ==, expected);
}

static void
test_list_model (void)
{
  g_autofree char *path = akc_test_path ("history.sqlite3");
  g_autoptr(AkcChatMemory) memory = akc_test_open (path);
  g_autoptr(AkcConversationList) list = NULL;
  g_autoptr(GString) log = g_string_new (NULL);
  g_autoptr(GError) error = NULL;
  g_autoptr(AkcConversationInfo) moved = NULL;
  g_autoptr(AkcConversationInfo) head = NULL;
  guint position = 0;
  guint n_notifies = 0;

  /* 25 conversations, c24 the newest, with distinct times. */
  akc_test_sql_exec (path, "WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i < 24) "
                           "INSERT INTO conversations (id, title, created_at, updated_at, assistant_id) "
                           "SELECT 'c' || i, 'Title ' || i, 1000 + i, 1000 + i, 'support' FROM n");

  list = akc_conversation_list_new (memory);
  akc_conversation_list_set_page_size (list, 10);
  g_assert_true (akc_conversation_list_get_memory (list) == memory);
  g_assert_cmpuint (akc_conversation_list_get_page_size (list), ==, 10);
  g_signal_connect (list, "items-changed", G_CALLBACK (on_items_changed), log);

  /* The first page: the page size given at construction applies to the
   * pages that follow; the first one was asked for with the default. */
  wait_idle (list);
  g_assert_no_error (akc_conversation_list_get_error (list));
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (list)), ==, 25);
  g_assert_true (akc_conversation_list_get_complete (list));
  g_assert_cmpstr (log->str, ==, "0-0+25;");
  g_assert_true (g_list_model_get_item_type (G_LIST_MODEL (list)) == AKC_TYPE_CONVERSATION_INFO);
  assert_list_is_stored (list, memory);
  g_clear_object (&list);
  g_string_truncate (log, 0);

  /* Pages of 10, read as the end of the list is reached. */
  list = g_object_new (AKC_TYPE_CONVERSATION_LIST, "memory", memory, "page-size", 10, NULL);
  g_signal_connect (list, "items-changed", G_CALLBACK (on_items_changed), log);
  wait_idle (list);
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (list)), ==, 10);
  g_assert_false (akc_conversation_list_get_complete (list));
  g_assert_cmpstr (log->str, ==, "0-0+10;");
  head = g_list_model_get_item (G_LIST_MODEL (list), 0);
  g_assert_cmpstr (akc_conversation_info_get_id (head), ==, "c24");
  g_assert_false (akc_conversation_list_get_loading (list));
  /* Peeking at the end reads nothing more (a model that follows this one
   * would otherwise read every page). */
  g_assert_true (akc_conversation_list_peek_item (list, 9) == akc_conversation_list_lookup (list, "c15", NULL));
  g_assert_null (akc_conversation_list_peek_item (list, 10));
  g_assert_false (akc_conversation_list_get_loading (list));

  g_clear_object (&moved);
  moved = g_list_model_get_item (G_LIST_MODEL (list), 9);   /* near the end: the next page */
  g_assert_true (akc_conversation_list_get_loading (list));
  wait_idle (list);
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (list)), ==, 20);
  g_clear_object (&moved);
  moved = g_list_model_get_item (G_LIST_MODEL (list), 19);
  wait_idle (list);
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (list)), ==, 25);
  g_assert_true (akc_conversation_list_get_complete (list));
  g_assert_cmpstr (log->str, ==, "0-0+10;10-0+10;20-0+5;");
  g_assert_null (g_list_model_get_item (G_LIST_MODEL (list), 25));
  assert_list_is_stored (list, memory);
  g_string_truncate (log, 0);
  g_clear_object (&moved);

  /* A new conversation: one insertion at the top. */
  {
    g_autoptr(AkcConversationInfo) info = create_full (memory, "new", "support", NULL, &error);

    g_assert_no_error (error);
  }
  wait_idle (list);
  g_assert_cmpstr (log->str, ==, "0-0+1;");
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (list)), ==, 26);
  assert_list_is_stored (list, memory);
  g_string_truncate (log, 0);

  /* A message in c10 (at 15): it moves to the top, one removal and one
   * insertion, the same info with its new count and time. */
  moved = g_object_ref (akc_conversation_list_lookup (list, "c10", &position));
  g_assert_cmpuint (position, ==, 15);
  g_assert_true (akc_test_append (memory, "c10", message ("m", AKC_MESSAGE_ROLE_ASSISTANT, "hello"), &error));
  wait_idle (list);
  g_assert_cmpstr (log->str, ==, "15-1+0;0-0+1;");
  g_assert_true (akc_conversation_list_lookup (list, "c10", &position) == moved);
  g_assert_cmpuint (position, ==, 0);
  g_assert_cmpuint (akc_conversation_info_get_n_messages (moved), ==, 1);
  assert_list_is_stored (list, memory);
  g_string_truncate (log, 0);

  /* Pinned: c3 moves to the top, the same way. */
  g_assert_true (pin (memory, "c3", TRUE, &error));
  wait_idle (list);
  g_assert_cmpstr (log->str, ==, "22-1+0;0-0+1;");
  assert_list_is_stored (list, memory);
  g_string_truncate (log, 0);

  /* A change that does not move it: no items-changed, only the
   * property's notification. c10 is newest among the unpinned. */
  g_clear_object (&moved);
  moved = g_object_ref (akc_conversation_list_lookup (list, "c10", &position));
  g_assert_cmpuint (position, ==, 1);
  g_signal_connect_swapped (moved, "notify::title", G_CALLBACK (count_notify), &n_notifies);
  g_assert_true (akc_test_update (memory, "c10", "Renamed", NULL, &error));
  wait_idle (list);
  g_assert_cmpstr (log->str, ==, "");
  g_assert_cmpstr (akc_conversation_info_get_title (moved), ==, "Renamed");
  g_assert_cmpuint (n_notifies, ==, 1);
  g_signal_handlers_disconnect_by_func (moved, count_notify, &n_notifies);
  assert_list_is_stored (list, memory);

  /* Deleted: one removal. */
  g_assert_true (akc_test_delete (memory, "c0", &error));
  wait_idle (list);
  g_assert_cmpstr (log->str, ==, "25-1+0;");
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (list)), ==, 25);
  assert_list_is_stored (list, memory);
  g_string_truncate (log, 0);

  g_clear_object (&moved);
  g_clear_object (&head);
  g_assert_finalize_object (g_steal_pointer (&list));
  akc_test_close (g_steal_pointer (&memory));
}

/* A change stored before a page is read, told while the page is on its
 * way: the page's offset no longer fits, and it is read again after the
 * list is; nothing is listed twice or left out. */
static void
test_list_change_during_page (void)
{
  g_autofree char *path = akc_test_path ("history.sqlite3");
  g_autoptr(AkcChatMemory) memory = akc_test_open (path);
  g_autoptr(AkcConversationList) list = NULL;
  g_autoptr(AkcMessage) m = message ("m", AKC_MESSAGE_ROLE_USER, "hello");
  g_autoptr(GAsyncResult) appended = NULL;
  g_autoptr(GError) error = NULL;

  akc_test_sql_exec (path, "WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i < 24) "
                           "INSERT INTO conversations (id, title, created_at, updated_at, assistant_id) "
                           "SELECT 'c' || i, 'Title ' || i, 1000 + i, 1000 + i, 'support' FROM n");

  list = g_object_new (AKC_TYPE_CONVERSATION_LIST, "memory", memory, "page-size", 10, NULL);
  wait_idle (list);
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (list)), ==, 10);

  /* c20 (listed at 4) moves past the end and c5 (not listed) to the top,
   * both stored before the page is read. */
  akc_test_sql_exec (path, "UPDATE conversations SET updated_at = 1 WHERE id = 'c20'");
  akc_chat_memory_conversation_changed (memory, "c20");
  akc_chat_memory_append_message_async (memory, "c5", m, NULL, akc_test_store_result, &appended);
  g_object_unref (g_list_model_get_item (G_LIST_MODEL (list), 9));
  g_assert_true (akc_chat_memory_append_message_finish (memory, akc_test_wait (&appended), &error));
  g_assert_no_error (error);
  g_clear_object (&appended);
  wait_idle (list);

  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (list)), ==, 20);
  assert_list_is_stored (list, memory);

  g_assert_finalize_object (g_steal_pointer (&list));
  akc_test_close (g_steal_pointer (&memory));
}

/* A memory that is not SQLite: the default pages and look-ups, built on
 * the full listing, in the same order. */
static void
test_default_pages (void)
{
  g_autofree char *path = akc_test_path ("history.sqlite3");
  g_autoptr(AkcChatMemory) memory = akc_test_open (path);
  AkcChatMemoryInterface *iface = AKC_CHAT_MEMORY_GET_IFACE (memory);
  AkcChatMemoryInterface *defaults = g_type_default_interface_peek (AKC_TYPE_CHAT_MEMORY);
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GListModel) first = NULL;
  g_autoptr(GListModel) second = NULL;
  g_autoptr(AkcConversationInfo) info = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *a = NULL;
  g_autofree char *b = NULL;

  akc_test_sql_exec (path, "WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i < 9) "
                           "INSERT INTO conversations (id, title, created_at, updated_at, assistant_id, pinned) "
                           "SELECT 'c' || i, '', 1000 + i, 1000 + i % 3, 'support', i = 4 FROM n");

  g_assert_true (iface->list_conversations_page_async != defaults->list_conversations_page_async);
  defaults->list_conversations_page_async (memory, 2, 5, NULL, akc_test_store_result, &result);
  first = defaults->list_conversations_page_finish (memory, akc_test_wait (&result), &error);
  g_assert_no_error (error);
  g_clear_object (&result);
  second = page (memory, 2, 5, &error);
  a = ids_of (first);
  b = ids_of (second);
  g_assert_cmpstr (a, ==, b);

  defaults->get_conversation_async (memory, "c4", NULL, akc_test_store_result, &result);
  info = defaults->get_conversation_finish (memory, akc_test_wait (&result), &error);
  g_assert_no_error (error);
  g_assert_true (akc_conversation_info_get_pinned (info));
  g_clear_object (&result);

  defaults->get_conversation_async (memory, "none", NULL, akc_test_store_result, &result);
  g_assert_null (defaults->get_conversation_finish (memory, akc_test_wait (&result), &error));
  g_assert_error (error, AKC_CHAT_MEMORY_ERROR, AKC_CHAT_MEMORY_ERROR_NOT_FOUND);
  g_clear_error (&error);
  g_clear_object (&result);

  defaults->set_conversation_pinned_async (memory, "c4", FALSE, NULL, akc_test_store_result, &result);
  g_assert_false (defaults->set_conversation_pinned_finish (memory, akc_test_wait (&result), &error));
  g_assert_error (error, AKC_CHAT_MEMORY_ERROR, AKC_CHAT_MEMORY_ERROR_NOT_SUPPORTED);
  g_clear_error (&error);
  g_clear_object (&result);

  defaults->set_conversation_model_async (memory, "c4", "openai", NULL, "gpt", NULL, akc_test_store_result, &result);
  g_assert_false (defaults->set_conversation_model_finish (memory, akc_test_wait (&result), &error));
  g_assert_error (error, AKC_CHAT_MEMORY_ERROR, AKC_CHAT_MEMORY_ERROR_NOT_SUPPORTED);
  g_clear_error (&error);
  g_clear_object (&result);

  akc_test_close (g_steal_pointer (&memory));
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);

  g_test_add_func ("/store/conversations/migrate-v4", test_migrate_v4);
  g_test_add_func ("/store/conversations/pages", test_pages);
  g_test_add_func ("/store/conversations/of-assistant", test_of_assistant);
  g_test_add_func ("/store/conversations/model", test_model);
  g_test_add_func ("/store/conversations/default-pages", test_default_pages);
  g_test_add_func ("/store/conversations/derive-title", test_derive_title);
  g_test_add_func ("/store/conversations/auto-title", test_auto_title);
  g_test_add_func ("/store/conversations/changed-signal", test_changed_signal);
  g_test_add_func ("/store/conversations/list-model", test_list_model);
  g_test_add_func ("/store/conversations/list-change-during-page", test_list_change_during_page);

  return g_test_run ();
}
