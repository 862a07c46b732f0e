/* test-search.c: full-text search of the history (schema version 6,
 * issue 14): the index follows every change, the migration indexes what
 * was there, and results carry snippets with their matches
 *
 * SPDX-License-Identifier: MIT
 */

#include "config.h"

#include <akc.h>

#include "akc-sqlite-schema-private.h"
#include "akc-store-test.h"

#include <string.h>

static AkcMessage *
message (const char     *id,
         AkcMessageRole  role,
         const char     *content)
{
  return akc_message_new (id, role, content, AKC_MESSAGE_STATUS_COMPLETE);
}

static GListModel *
search (AkcChatMemory  *memory,
        const char     *text,
        guint           limit)
{
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;
  GListModel *results;

  akc_sqlite_chat_memory_search_async (AKC_SQLITE_CHAT_MEMORY (memory), text, limit, NULL,
                                       akc_test_store_result, &result);
  results = akc_sqlite_chat_memory_search_finish (AKC_SQLITE_CHAT_MEMORY (memory), akc_test_wait (&result), &error);
  g_assert_no_error (error);
  g_assert_nonnull (results);

  return results;
}

static int
compare_strings (gconstpointer a,
                 gconstpointer b)
{
  return strcmp (*(const char * const *) a, *(const char * const *) b);
}

/* "conversation/" for each title that matched, then
 * "conversation/message" for each message, each group sorted (the order
 * within a group is the ranking's, tested on its own). */
static char *
found (AkcChatMemory *memory,
       const char    *text)
{
  g_autoptr(GListModel) results = search (memory, text, 100);
  g_autoptr(GPtrArray) titles = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GPtrArray) messages = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GString) out = g_string_new (NULL);
  gboolean in_messages = FALSE;

  for (guint i = 0; i < g_list_model_get_n_items (results); i++)
    {
      g_autoptr(AkcSearchResult) result = g_list_model_get_item (results, i);
      const char *message_id = akc_search_result_get_message_id (result);

      /* Titles come first. */
      g_assert_true (message_id != NULL || !in_messages);
      in_messages = message_id != NULL;
      g_ptr_array_add (message_id != NULL ? messages : titles,
                       g_strdup_printf ("%s/%s", akc_search_result_get_conversation_id (result),
                                        message_id != NULL ? message_id : ""));
    }

  g_ptr_array_sort (titles, compare_strings);
  g_ptr_array_sort (messages, compare_strings);
  for (guint i = 0; i < titles->len + messages->len; i++)
    g_string_append_printf (out, "%s%s", i > 0 ? " " : "",
                            (char *) (i < titles->len ? titles->pdata[i] : messages->pdata[i - titles->len]));

  return g_string_free (g_steal_pointer (&out), FALSE);
}

#define assert_found(memory, text, expected) \
  G_STMT_START { \
    g_autofree char *found_ = found ((memory), (text)); \
    g_assert_cmpstr (found_, ==, (expected)); \
  } G_STMT_END

/* FTS5's own check that the message index is exactly the text of the
 * messages table. */
static void
assert_index_exact (const char *path)
{
  akc_test_sql_exec (path, "INSERT INTO message_search (message_search, rank) VALUES ('integrity-check', 1)");
  akc_test_sql_exec (path, "INSERT INTO title_search (title_search) VALUES ('integrity-check')");
  g_assert_cmpint (akc_test_sql_int (path, "SELECT count(*) FROM title_search"), ==,
                   akc_test_sql_int (path, "SELECT count(*) FROM conversations"));
  g_assert_cmpint (akc_test_sql_int (path, "SELECT count(*) FROM title_search t JOIN conversations c"
                                           " ON c.search_id = t.rowid WHERE t.title IS NOT c.title"), ==, 0);
}

static void
test_migration_indexes (void)
{
  g_autofree char *path = akc_test_path ("v4.sqlite3");
  g_autoptr(AkcChatMemory) memory = NULL;
  g_autoptr(GError) error = NULL;

  akc_test_copy_history_fixture ("history-v4.sqlite3", path);

  memory = akc_test_open (path);
  g_assert_cmpint (akc_test_sql_int (path, "PRAGMA user_version"), ==, AKC_SQLITE_SCHEMA_VERSION);
  g_assert_cmpint (akc_test_sql_int (path, "SELECT count(*) FROM messages"), ==, 6);
  assert_index_exact (path);

  assert_found (memory, "greet", "demo/m-2");
  assert_found (memory, "support", "demo-support/ demo-support/s-1 demo-support/s-2");
  assert_found (memory, "full text", "ask/ ask/a-1");

  /* Rows keep their order and positions after the copy. */
  {
    g_autoptr(GListModel) loaded = akc_test_load (memory, "demo", &error);
    g_autoptr(AkcMessage) first = g_list_model_get_item (loaded, 0);

    g_assert_no_error (error);
    g_assert_cmpstr (akc_message_get_id (first), ==, "m-1");
  }

  akc_test_close (g_steal_pointer (&memory));
}

/* Every way the history changes keeps the index exact. */
static void
test_follows_changes (void)
{
  g_autofree char *path = akc_test_path ("history.sqlite3");
  g_autoptr(AkcChatMemory) memory = akc_test_open (path);
  g_autoptr(AkcConversationInfo) info = akc_test_create (memory, "a", "Holiday plans", NULL);
  g_autoptr(AkcConversationInfo) other = akc_test_create (memory, "b", "Money", NULL);
  g_autoptr(AkcMessage) reply = akc_message_new ("a-2", AKC_MESSAGE_ROLE_ASSISTANT, "", AKC_MESSAGE_STATUS_STREAMING);
  g_autoptr(GError) error = NULL;

  assert_found (memory, "holiday", "a/");

  /* Inserted. */
  g_assert_true (akc_test_append (memory, "a", message ("a-1", AKC_MESSAGE_ROLE_USER, "Where should we go in July?"),
                                  &error));
  g_assert_true (akc_test_append (memory, "b", message ("b-1", AKC_MESSAGE_ROLE_USER, "July budget"), &error));
  assert_found (memory, "july", "a/a-1 b/b-1");
  assert_index_exact (path);

  /* A streamed reply, saved as it grows: only its latest text is found. */
  g_assert_true (akc_test_append (memory, "a", reply, &error));
  akc_message_append_content (reply, "Lisbon is warm", -1);
  g_assert_true (akc_test_save (memory, "a", reply, &error));
  assert_found (memory, "lisbon", "a/a-2");
  akc_message_set_content (reply, "Porto is lovely");
  g_assert_true (akc_test_save (memory, "a", reply, &error));
  assert_found (memory, "lisbon", "");
  assert_found (memory, "porto", "a/a-2");
  assert_index_exact (path);

  /* Retried: the reply is replaced. */
  {
    g_autoptr(AkcMessage) again = message ("a-3", AKC_MESSAGE_ROLE_ASSISTANT, "Madrid then");

    g_assert_true (akc_test_splice (memory, "a", 1, 1, &again, 1, &error));
  }
  assert_found (memory, "porto", "");
  assert_found (memory, "madrid", "a/a-3");
  assert_index_exact (path);

  /* A splice that moves messages (an insert in the middle) keeps their
   * entries. */
  {
    g_autoptr(AkcMessage) early = message ("a-0", AKC_MESSAGE_ROLE_SYSTEM, "Be brief");

    g_assert_true (akc_test_splice (memory, "a", 0, 0, &early, 1, &error));
  }
  assert_found (memory, "july", "a/a-1 b/b-1");
  assert_index_exact (path);

  /* Renamed, then auto-titled only where there was no title. */
  g_assert_true (akc_test_update (memory, "a", "Summer trip", NULL, &error));
  assert_found (memory, "holiday", "");
  assert_found (memory, "summer", "a/");
  assert_found (memory, "budget", "b/b-1");
  assert_index_exact (path);

  /* Deleted with its messages. */
  g_assert_true (akc_test_delete (memory, "a", &error));
  assert_found (memory, "july", "b/b-1");
  assert_found (memory, "summer", "");
  assert_index_exact (path);

  /* VACUUM renumbers implicit rowids: the index is keyed by stable ones. */
  akc_test_sql_exec (path, "VACUUM");
  assert_index_exact (path);
  g_assert_true (akc_test_append (memory, "b", message ("b-2", AKC_MESSAGE_ROLE_ASSISTANT, "Tight budget"), &error));
  assert_found (memory, "budget", "b/b-1 b/b-2");
  assert_index_exact (path);

  /* Another program's SQL is followed too: the triggers are in the file. */
  akc_test_sql_exec (path, "UPDATE messages SET content = 'Generous' WHERE id = 'b-2'");
  assert_found (memory, "generous", "b/b-2");
  assert_index_exact (path);

  akc_test_close (g_steal_pointer (&memory));
}

static void
test_snippets (void)
{
  g_autofree char *path = akc_test_path ("history.sqlite3");
  g_autoptr(AkcChatMemory) memory = akc_test_open (path);
  g_autoptr(AkcConversationInfo) info = akc_test_create (memory, "a", "Cafés of Lisbon", NULL);
  g_autoptr(GError) error = NULL;
  g_autoptr(GListModel) results = NULL;
  g_autoptr(AkcSearchResult) title = NULL;
  g_autoptr(AkcSearchResult) hit = NULL;
  const char *snippet;
  guint start = 0, end = 0;

  g_assert_true (akc_test_append (memory, "a",
                                  message ("m", AKC_MESSAGE_ROLE_ASSISTANT,
                                           "Try the café near the river.\nIts pastéis are famous; the cafe opens at 8."),
                                  &error));

  /* Accents do not matter, and both the title and the message match. */
  results = search (memory, "cafe", 10);
  g_assert_cmpuint (g_list_model_get_n_items (results), ==, 2);
  title = g_list_model_get_item (results, 0);
  hit = g_list_model_get_item (results, 1);

  g_assert_null (akc_search_result_get_message_id (title));
  g_assert_cmpstr (akc_search_result_get_snippet (title), ==, "Cafés of Lisbon");
  g_assert_cmpuint (akc_search_result_get_n_matches (title), ==, 1);
  g_assert_true (akc_search_result_get_match (title, 0, &start, &end));
  g_assert_cmpuint (start, ==, 0);
  g_assert_cmpuint (end, ==, strlen ("Cafés"));

  g_assert_cmpstr (akc_search_result_get_conversation_id (hit), ==, "a");
  g_assert_cmpstr (akc_search_result_get_message_id (hit), ==, "m");
  snippet = akc_search_result_get_snippet (hit);
  /* On one line, without the markers. */
  g_assert_null (strchr (snippet, '\n'));
  g_assert_null (strchr (snippet, '\x01'));
  g_assert_null (strchr (snippet, '\x02'));
  g_assert_cmpuint (akc_search_result_get_n_matches (hit), ==, 2);
  for (guint i = 0; i < 2; i++)
    {
      g_autofree char *word = NULL;

      g_assert_true (akc_search_result_get_match (hit, i, &start, &end));
      g_assert_cmpuint (start, <, end);
      g_assert_cmpuint (end, <=, strlen (snippet));
      word = g_strndup (snippet + start, end - start);
      g_assert_cmpstr (word, ==, i == 0 ? "café" : "cafe");
    }
  g_assert_false (akc_search_result_get_match (hit, 2, NULL, NULL));
  g_assert_cmpfloat (akc_search_result_get_rank (hit), <, 0);

  /* The limit. */
  g_clear_object (&results);
  results = search (memory, "cafe", 1);
  g_assert_cmpuint (g_list_model_get_n_items (results), ==, 1);

  akc_test_close (g_steal_pointer (&memory));
}

/* What a person types is words, never query syntax; the last word is a
 * prefix while it is being typed. */
static void
test_query_text (void)
{
  g_autofree char *path = akc_test_path ("history.sqlite3");
  g_autoptr(AkcChatMemory) memory = akc_test_open (path);
  g_autoptr(AkcConversationInfo) info = akc_test_create (memory, "a", NULL, NULL);
  g_autoptr(GError) error = NULL;
  const char *odd[] = {
    "", "   ", "\"", "\"\"", "*", "(", ")", "AND", "NOT", "a OR", "title:x", "NEAR(a b)", "^x", "-", "+",
    "\"unterminated", "x\" OR \"y", "content:quick", "{title}: x", "\xff\xfe",
  };

  g_assert_true (akc_test_append (memory, "a", message ("m", AKC_MESSAGE_ROLE_USER,
                                                        "The quick brown fox: AND or NOT? ok"), &error));
  /* The title is derived from the first user message: it matches too. */

  assert_found (memory, "qui", "a/ a/m");
  assert_found (memory, "qui ", "");
  assert_found (memory, "quick fox", "a/ a/m");
  assert_found (memory, "fox quick", "a/ a/m");
  assert_found (memory, "quick cat", "");
  assert_found (memory, "QUICK", "a/ a/m");
  assert_found (memory, "not", "a/ a/m");
  assert_found (memory, "and or not", "a/ a/m");
  assert_found (memory, "fox:", "a/ a/m");

  for (guint i = 0; i < G_N_ELEMENTS (odd); i++)
    {
      g_autoptr(GListModel) results = search (memory, odd[i], 10);

      (void) results;
    }

  akc_test_close (g_steal_pointer (&memory));
}

/* The snippet of the one result of @text, checked to hold no frame
 * syntax. */
static char *
snippet_of (AkcChatMemory *memory,
            const char    *text)
{
  g_autoptr(GListModel) results = search (memory, text, 10);
  g_autoptr(AkcSearchResult) result = NULL;
  const char *snippet;

  g_assert_cmpuint (g_list_model_get_n_items (results), ==, 1);
  result = g_list_model_get_item (results, 0);
  snippet = akc_search_result_get_snippet (result);
  g_assert_null (strchr (snippet, '{'));
  g_assert_null (strchr (snippet, '"'));
  g_assert_null (strchr (snippet, '\x1e'));
  g_assert_null (strstr (snippet, "agentskit"));

  return g_strdup (snippet);
}

#define assert_snippet_has(memory, text, part) \
  G_STMT_START { \
    g_autofree char *snippet_ = snippet_of ((memory), (text)); \
    if (strstr (snippet_, (part)) == NULL) \
      g_error ("the snippet of “%s” is “%s”, without “%s”", (text), snippet_, (part)); \
  } G_STMT_END

/* Words of the frame syntax, which no person saw. */
static const char * const frame_words[] = {
  "type", "props", "componentKey", "protocol", "render", "agentskit", "instanceId", "kind",
  "fallback", "sources", "choices", "https", "example", "s1", "summary",
};

/* Schema 9 (issue 14): a history written by the version before (schema
 * 8), whose structured assistant messages were indexed as their JSON, is
 * re-indexed by what a person saw of them. */
static void
test_migration_structured (void)
{
  g_autofree char *path = akc_test_path ("v8.sqlite3");
  g_autoptr(AkcChatMemory) memory = NULL;
  g_autoptr(GError) error = NULL;

  akc_test_copy_history_fixture ("history-v8.sqlite3", path);
  g_assert_cmpint (akc_test_sql_int (path, "PRAGMA user_version"), ==, 8);

  memory = akc_test_open (path);
  g_assert_cmpint (akc_test_sql_int (path, "PRAGMA user_version"), ==, AKC_SQLITE_SCHEMA_VERSION);
  g_assert_cmpint (akc_test_sql_int (path, "SELECT count(*) FROM messages"), ==, 5);
  assert_index_exact (path);

  /* "type" is a word of one person's question, and a key of every frame. */
  assert_found (memory, "type", "plain/p-1");
  for (guint i = 0; i < G_N_ELEMENTS (frame_words); i++)
    if (g_strcmp0 (frame_words[i], "type") != 0)
      assert_found (memory, frame_words[i], "");

  /* Text parts, a source list (its label, title and snippet) and a
   * whole-message choice list (its prompt, labels and descriptions). */
  assert_found (memory, "read", "components/c-2");
  assert_found (memory, "choose", "components/c-2");
  assert_found (memory, "reading", "components/c-2");
  assert_snippet_has (memory, "lisbon", "Lisbon guide");
  assert_snippet_has (memory, "pastries", "Trams and pastries");
  assert_found (memory, "trams", "plain/ components/c-2");
  assert_snippet_has (memory, "city", "Which city?");
  assert_found (memory, "faro", "components/c-3");
  assert_found (memory, "beaches", "components/c-3");

  /* The messages themselves are unchanged. */
  {
    g_autoptr(GListModel) loaded = akc_test_load (memory, "components", &error);
    g_autoptr(AkcMessage) frame = g_list_model_get_item (loaded, 2);

    g_assert_no_error (error);
    g_assert_true (g_str_has_prefix (akc_message_get_content (frame), "{\"protocol\":\"agentskit.chat.component\""));
  }

  akc_test_close (g_steal_pointer (&memory));
}

#define PREFIX "\x1e" "agentskit.chat.content/1\n"
#define TABLE "{\"protocol\":\"agentskit.chat.component\",\"version\":1,\"type\":\"render\"," \
  "\"componentKey\":\"table\",\"instanceId\":\"t\"," \
  "\"props\":{\"caption\":\"Opening hours\",\"columns\":[{\"key\":\"day\",\"label\":\"Weekday\"}," \
  "{\"key\":\"url\",\"label\":\"Hours\"}],\"rows\":[{\"day\":\"Monday\",\"url\":\"nine to five\"}," \
  "{\"day\":\"Sunday\",\"url\":42}]}," \
  "\"fallback\":{\"kind\":\"table\",\"summary\":\"Opening hours: 2 rows.\"}}"
#define UNKNOWN "{\"protocol\":\"agentskit.chat.component\",\"version\":1,\"type\":\"render\"," \
  "\"componentKey\":\"weather-map\",\"instanceId\":\"w\",\"props\":{\"region\":\"Algarve\"}," \
  "\"fallback\":{\"kind\":\"map\",\"summary\":\"Sunny along the coast.\"}}"

/* Messages written now are indexed by what is shown of them, as they
 * stream and change; a JSON reply that is no frame is its text; another
 * program's structured content is never indexed as JSON. */
static void
test_structured_content (void)
{
  g_autofree char *path = akc_test_path ("history.sqlite3");
  g_autoptr(AkcChatMemory) memory = akc_test_open (path);
  g_autoptr(AkcConversationInfo) info = akc_test_create (memory, "a", "Visit", NULL);
  g_autoptr(AkcMessage) reply = akc_message_new ("a-2", AKC_MESSAGE_ROLE_ASSISTANT, "", AKC_MESSAGE_STATUS_STREAMING);
  g_autoptr(GError) error = NULL;

  g_assert_true (akc_test_append (memory, "a", message ("a-1", AKC_MESSAGE_ROLE_USER, "When is it open?"), &error));
  g_assert_true (akc_test_append (memory, "a", reply, &error));

  /* Streamed: the text part first, then the table. */
  akc_message_append_content (reply, PREFIX "{\"kind\":\"text\",\"text\":\"Here are the hours.\"}\n", -1);
  g_assert_true (akc_test_save (memory, "a", reply, &error));
  assert_found (memory, "hours", "a/a-2");
  assert_found (memory, "kind", "");
  akc_message_append_content (reply, "{\"kind\":\"component\",\"frame\":" TABLE "}\n", -1);
  g_assert_true (akc_test_save (memory, "a", reply, &error));
  assert_index_exact (path);

  /* Caption, column labels and every cell, whatever its column key; no key. */
  assert_found (memory, "opening", "a/a-2");
  assert_found (memory, "weekday", "a/a-2");
  assert_snippet_has (memory, "monday", "Monday");
  assert_found (memory, "nine", "a/a-2");
  assert_found (memory, "42", "a/a-2");
  for (guint i = 0; i < G_N_ELEMENTS (frame_words); i++)
    assert_found (memory, frame_words[i], "");
  assert_found (memory, "day", "");
  assert_found (memory, "url", "");

  /* A component this version cannot show: its fallback summary. */
  g_assert_true (akc_test_append (memory, "a", message ("a-3", AKC_MESSAGE_ROLE_ASSISTANT, UNKNOWN), &error));
  assert_found (memory, "sunny", "a/a-3");
  assert_found (memory, "algarve", "");
  assert_found (memory, "region", "");

  /* JSON that is no component frame is what the reply shows. */
  g_assert_true (akc_test_append (memory, "a", message ("a-4", AKC_MESSAGE_ROLE_ASSISTANT, "{\"type\": \"ticket\"}"),
                                  &error));
  assert_found (memory, "ticket", "a/a-4");
  assert_found (memory, "type", "a/a-4");

  /* Replaced by plain text: the structured text goes. */
  akc_message_set_content (reply, "Closed on Sundays");
  akc_message_set_status (reply, AKC_MESSAGE_STATUS_COMPLETE);
  g_assert_true (akc_test_save (memory, "a", reply, &error));
  assert_found (memory, "monday", "");
  assert_found (memory, "sundays", "a/a-2");
  assert_index_exact (path);

  /* Another program's structured content, without its search text. */
  akc_test_sql_exec (path, "UPDATE messages SET content = char (30) || 'agentskit.chat.content/1' || char (10)"
                           " || '{\"kind\":\"text\",\"text\":\"Foreign\"}' || char (10) WHERE id = 'a-2'");
  assert_found (memory, "foreign", "");
  assert_found (memory, "kind", "");
  assert_found (memory, "sundays", "");
  akc_test_sql_exec (path, "UPDATE messages SET search_text = NULL WHERE id = 'a-4'");
  assert_found (memory, "ticket", "");
  assert_index_exact (path);

  akc_test_close (g_steal_pointer (&memory));
}

/* U+0000 in a message does not cut what is indexed. */
static void
test_nul_content (void)
{
  g_autofree char *path = akc_test_path ("history.sqlite3");
  g_autoptr(AkcChatMemory) memory = akc_test_open (path);
  g_autoptr(AkcConversationInfo) info = akc_test_create (memory, "a", "T", NULL);
  g_autoptr(AkcMessage) m = akc_message_new ("m", AKC_MESSAGE_ROLE_USER, NULL, AKC_MESSAGE_STATUS_COMPLETE);
  g_autoptr(GError) error = NULL;

  akc_message_append_content (m, "before\0after", 12);
  g_assert_true (akc_test_append (memory, "a", g_object_ref (m), &error));
  assert_found (memory, "after", "a/m");
  akc_message_set_content (m, "other");
  g_assert_true (akc_test_save (memory, "a", m, &error));
  assert_found (memory, "after", "");
  assert_index_exact (path);

  akc_test_close (g_steal_pointer (&memory));
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);

  g_test_add_func ("/store/search/migration-indexes", test_migration_indexes);
  g_test_add_func ("/store/search/follows-changes", test_follows_changes);
  g_test_add_func ("/store/search/snippets", test_snippets);
  g_test_add_func ("/store/search/query-text", test_query_text);
  g_test_add_func ("/store/search/nul-content", test_nul_content);
  g_test_add_func ("/store/search/migration-structured", test_migration_structured);
  g_test_add_func ("/store/search/structured-content", test_structured_content);

  return g_test_run ();
}
