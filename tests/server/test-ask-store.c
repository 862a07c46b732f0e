/* test-ask-store.c: the Ask session record stores, one test for all
 *
 * SPDX-License-Identifier: MIT
 *
 * The same compare-and-set test runs on the SQLite store and on the
 * PostgreSQL one (AKC_TEST_PG, from build-aux/postgresql; skipped without
 * it): a missing record loads as null; a save that expects revision 0
 * creates the record once and a second one loses; a save of the stored
 * revision wins and one of an older revision loses; of saves of one
 * revision started together on two store objects of one database (two
 * processes) exactly one wins; nothing a losing save wrote is kept.
 * Then akc-server's Ask mount with `"store": {"kind": "sqlite"}`: a
 * record saved by one server is merged into the next request by a new
 * server on the same file, and a request whose record changed under it
 * answers the conflict error.
 */

#include "config.h"

#include <glib/gstdio.h>
#include <string.h>

#include <libsoup/soup.h>

#include "akc-json-private.h"
#include "akc-pg-storage.h"
#include "akc-server-test.h"
#include "akc-sqlite-ask-store.h"

typedef AkcAskStore *(*OpenFunc) (const char *where);

static char *folder;

static AkcAskStore *
open_sqlite (const char *where)
{
  g_autofree char *path = g_build_filename (folder, "ask.sqlite3", NULL);
  g_autoptr(GError) error = NULL;
  AkcAskStore *store = akc_sqlite_ask_store_new (path, &error);

  g_assert_no_error (error);
  return store;
}

static AkcAskStore *
open_pg (const char *where)
{
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;
  AkcPgStorage *storage;

  akc_pg_storage_new_async (g_getenv ("AKC_TEST_PG"), NULL, akc_test_store_result, &result);
  akc_test_wait (&result);
  storage = akc_pg_storage_new_finish (result, &error);
  g_assert_no_error (error);
  return AKC_ASK_STORE (storage);
}

static AkcJsonValue *
load (AkcAskStore *store,
      const char  *key)
{
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;
  AkcJsonValue *value;

  akc_ask_store_load_async (store, key, NULL, akc_test_store_result, &result);
  akc_test_wait (&result);
  value = akc_ask_store_load_finish (store, result, &error);
  g_assert_no_error (error);
  g_assert_nonnull (value);
  return value;
}

static AkcJsonValue *
record (gint64      revision,
        const char *content)
{
  g_autofree char *text = g_strdup_printf ("{\"revision\":%" G_GINT64_FORMAT ",\"messages\":[{\"role\":\"user\","
                                           "\"content\":\"%s\"}]}", revision, content);

  return akc_json_value_parse (text, -1, NULL);
}

static void
start_save (AkcAskStore    *store,
            const char     *key,
            gint64          revision,
            const char     *content,
            gint64          expected,
            GAsyncResult  **result)
{
  g_autoptr(AkcJsonValue) value = record (revision, content);

  akc_ask_store_save_async (store, key, value, expected, NULL, akc_test_store_result, result);
}

static gboolean
finish_save (AkcAskStore   *store,
             GAsyncResult **result)
{
  g_autoptr(GError) error = NULL;
  gboolean saved = FALSE;

  akc_test_wait (result);
  g_assert_true (akc_ask_store_save_finish (store, *result, &saved, &error));
  g_assert_no_error (error);
  g_clear_object (result);
  return saved;
}

static gboolean
save (AkcAskStore *store,
      const char  *key,
      gint64       revision,
      const char  *content,
      gint64       expected)
{
  GAsyncResult *result = NULL;

  start_save (store, key, revision, content, expected, &result);
  return finish_save (store, &result);
}

static const char *
first_content (AkcJsonValue *value)
{
  AkcJsonValue *messages = akc_json_value_get_member (value, "messages");

  return akc_json_value_get_string (akc_json_value_get_member (akc_json_value_get_element (messages, 0), "content"),
                                    NULL);
}

/* The one test of every store. */
static void
test_cas (gconstpointer data)
{
  OpenFunc open = (OpenFunc) data;
  g_autoptr(AkcAskStore) store = NULL;
  g_autoptr(AkcAskStore) other = NULL;
  g_autoptr(AkcJsonValue) missing = NULL;
  g_autoptr(AkcJsonValue) stored = NULL;
  g_autoptr(AkcJsonValue) raced = NULL;
  g_autofree char *key = NULL;

  if (open == open_pg && g_getenv ("AKC_TEST_PG") == NULL)
    {
      g_test_skip ("AKC_TEST_PG is not set: no PostgreSQL (build-aux/test starts one)");
      return;
    }
  store = open ("first");
  other = open ("second");
  key = g_strdup_printf ("docs-site:subject-1:%s", g_uuid_string_random ());

  missing = load (store, key);
  g_assert_cmpint (akc_json_value_get_kind (missing), ==, AKC_JSON_KIND_NULL);

  g_assert_true (save (store, key, 1, "first", 0));
  g_assert_false (save (other, key, 1, "created twice", 0));
  g_assert_true (save (other, key, 2, "second", 1));
  g_assert_false (save (store, key, 2, "stale", 1));
  stored = load (store, key);
  g_assert_cmpint ((gint64) akc_json_value_get_number (akc_json_value_get_member (stored, "revision")), ==, 2);
  g_assert_cmpstr (first_content (stored), ==, "second");

  /* two processes save revision 3 at once: exactly one wins */
  for (guint round = 0; round < 10; round++)
    {
      GAsyncResult *a = NULL, *b = NULL;
      gboolean won_a, won_b;

      start_save (store, key, 3 + round, "from a", 2 + round, &a);
      start_save (other, key, 3 + round, "from b", 2 + round, &b);
      won_a = finish_save (store, &a);
      won_b = finish_save (other, &b);
      g_assert_true (won_a != won_b);
      g_clear_pointer (&raced, akc_json_value_unref);
      raced = load (other, key);
      g_assert_cmpstr (first_content (raced), ==, won_a ? "from a" : "from b");
    }
}

static AkcServer *
start_server (const char *config)
{
  g_autoptr(GError) error = NULL;
  AkcServer *server = akc_server_test_start (config, &error);

  g_assert_no_error (error);
  return server;
}

static gssize
read_some (GInputStream *in,
           char         *buffer,
           gsize         size)
{
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;
  gssize n;

  g_input_stream_read_async (in, buffer, size, G_PRIORITY_DEFAULT, NULL, akc_test_store_result, &result);
  akc_test_wait (&result);
  n = g_input_stream_read_finish (in, result, &error);
  g_assert_no_error (error);
  return n;
}

/* Asks @question; once the answer has begun, runs @meanwhile. */
static char *
ask (AkcServer  *server,
     const char *question,
     void      (*meanwhile) (void))
{
  g_autoptr(SoupSession) session = soup_session_new ();
  g_autofree char *uri = g_strconcat (g_ptr_array_index (akc_server_get_uris (server), 0), "ask", NULL);
  g_autoptr(SoupMessage) message = soup_message_new ("POST", uri);
  g_autofree char *body = g_strdup_printf ("{\"protocol\":\"agentskit.chat.ask\",\"version\":1,\"sessionId\":"
                                           "\"persisted-1\",\"messages\":[{\"role\":\"user\",\"content\":\"%s\"}]}",
                                           question);
  g_autoptr(GBytes) request = g_bytes_new (body, strlen (body));
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GInputStream) in = NULL;
  g_autoptr(GError) error = NULL;
  GString *answer = g_string_new (NULL);
  char buffer[4096];
  gssize n;

  soup_message_headers_replace (soup_message_get_request_headers (message), "Authorization", "Bearer ask-token");
  soup_message_set_request_body_from_bytes (message, "application/json", request);
  soup_session_send_async (session, message, G_PRIORITY_DEFAULT, NULL, akc_test_store_result, &result);
  akc_test_wait (&result);
  in = soup_session_send_finish (session, result, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (soup_message_get_status (message), ==, 200);
  while ((n = read_some (in, buffer, sizeof buffer)) > 0)
    {
      g_string_append_len (answer, buffer, n);
      if (meanwhile != NULL && strstr (answer->str, "\"delta\"") != NULL)
        {
          meanwhile ();
          meanwhile = NULL;
        }
    }
  return g_string_free (answer, FALSE);
}

static AkcAskStore *elsewhere;

/* another process saves revision 3 over the 2 the request loaded */
static void
save_elsewhere (void)
{
  g_assert_true (save (elsewhere, "docs-site-persist:subject-1:persisted-1", 3, "elsewhere", 2));
}

static void
test_server (void)
{
  const char *tests = g_getenv ("AKC_SERVER_TESTS");
  g_autofree char *config = g_build_filename (folder, "server.json", NULL);
  g_autofree char *database = g_build_filename (folder, "sessions.sqlite3", NULL);
  g_autofree char *generator = g_build_filename (folder, "generator.json", NULL);
  g_autofree char *text = NULL;
  g_autofree char *first = NULL;
  g_autofree char *second = NULL;
  g_autofree char *conflict = NULL;
  g_autoptr(AkcAskStore) store = NULL;
  g_autoptr(AkcJsonValue) stored = NULL;
  g_autoptr(GError) error = NULL;
  AkcJsonValue *messages;
  gint64 revision;

  text = g_strdup_printf (
    "{\"protocol\":\"agentskit.chat.server-config\",\"version\":1,\"listen\":[\"127.0.0.1:0\"],"
    "\"sessionStore\":{\"kind\":\"sqlite\",\"path\":\"sessions.sqlite3\"},"
    "\"definitions\":[],"
    "\"mounts\":[{\"path\":\"/ask\",\"handler\":\"ask\",\"auth\":{\"kind\":\"bearer\",\"tokens\":[{\"sha256\":"
    "\"1b62d2bf8ce600af0872d68f25e3fe6348faaf48eec3edbba564704318ca7912\",\"subject\":\"subject-1\","
    "\"site\":\"docs\"}]},"
    "\"sites\":[{\"name\":\"docs\",\"site\":{\"protocol\":\"agentskit.chat.backend-site\",\"version\":1,"
    "\"siteId\":\"docs-site-persist\",\"assistant\":{\"id\":\"docs-guide\",\"name\":\"Docs Guide\","
    "\"suggestions\":[]},\"corpus\":{\"id\":\"public-docs\",\"mode\":\"local\"},\"components\":[\"source-list\"],"
    "\"actions\":[],\"limits\":{\"requestTimeoutMs\":10000,\"retrievalTimeoutMs\":5000,"
    "\"generationTimeoutMs\":10000,\"maxSources\":3},\"persistence\":{\"mode\":\"required\"}}}],"
    "\"retrievers\":{\"local\":{\"kind\":\"script\",\"file\":\"%s/ask-retriever.json\"}},"
    "\"generator\":{\"kind\":\"script\",\"file\":\"generator.json\"},"
    "\"store\":{\"kind\":\"sqlite\"}}]}", tests);
  g_file_set_contents (config, text, -1, &error);
  g_assert_no_error (error);
  /* the second part of each answer comes later, time for another process */
  g_file_set_contents (generator, "{\"protocol\":\"agentskit.chat.server-script\",\"version\":1,\"replies\":["
                                  "{\"chunks\":[{\"text\":\"Part one. \"},{\"text\":\"Part two [1].\","
                                  "\"delayMs\":300}]}]}", -1, &error);
  g_assert_no_error (error);

  /* without a session store in SQLite the Ask store needs its path */
  {
    g_autofree char *alone = g_build_filename (folder, "alone.json", NULL);
    g_autoptr(GString) changed = g_string_new (text);
    g_autoptr(GAsyncResult) result = NULL;
    g_autoptr(AkcServer) server = NULL;
    g_autoptr(GError) local = NULL;

    g_string_replace (changed, "\"sessionStore\":{\"kind\":\"sqlite\",\"path\":\"sessions.sqlite3\"},", "", 1);
    g_file_set_contents (alone, changed->str, -1, &error);
    g_assert_no_error (error);
    akc_server_new_async (alone, NULL, akc_test_store_result, &result);
    akc_test_wait (&result);
    server = akc_server_new_finish (result, &local);
    g_assert_null (server);
    g_assert_cmpstr (local->message, ==, "the store of mount 1 needs its “path”, or a session store in SQLite to share.");
  }

  {
    g_autoptr(AkcServer) server = start_server (config);

    first = ask (server, "How do I install it?", NULL);
    g_assert_nonnull (strstr (first, "{\"type\":\"done\""));
  }
  {
    g_autoptr(AkcServer) server = start_server (config);

    second = ask (server, "And then?", NULL);
    g_assert_nonnull (strstr (second, "{\"type\":\"done\""));
  }
  /* the second server merged the first one's record: four messages */
  store = akc_sqlite_ask_store_new (database, &error);
  g_assert_no_error (error);
  stored = load (store, "docs-site-persist:subject-1:persisted-1");
  revision = (gint64) akc_json_value_get_number (akc_json_value_get_member (stored, "revision"));
  g_assert_cmpint (revision, ==, 2);
  messages = akc_json_value_get_member (stored, "messages");
  g_assert_cmpuint (akc_json_value_get_length (messages), ==, 4);
  g_assert_cmpstr (first_content (stored), ==, "How do I install it?");

  /* another process saves revision 3 while a request is answered on 2:
   * the request's save loses and its stream ends with the conflict error */
  {
    g_autoptr(AkcServer) server = start_server (config);
    g_autoptr(AkcJsonValue) winner = NULL;

    elsewhere = store;
    conflict = ask (server, "A third question", save_elsewhere);
    g_assert_nonnull (strstr (conflict, "\"delta\":\"Part two [1].\""));
    g_assert_nonnull (strstr (conflict, "\"code\":\"ASK_PERSISTENCE_CONFLICT\""));
    g_assert_null (strstr (conflict, "{\"type\":\"done\""));
    winner = load (store, "docs-site-persist:subject-1:persisted-1");
    g_assert_cmpint ((gint64) akc_json_value_get_number (akc_json_value_get_member (winner, "revision")), ==, 3);
    g_assert_cmpstr (first_content (winner), ==, "elsewhere");
  }
}

int
main (int argc, char **argv)
{
  int status;

  g_test_init (&argc, &argv, NULL);
  folder = g_dir_make_tmp ("akc-ask-store-XXXXXX", NULL);
  g_test_add_data_func ("/server/ask-store/sqlite", open_sqlite, test_cas);
  g_test_add_data_func ("/server/ask-store/postgresql", open_pg, test_cas);
  g_test_add_func ("/server/ask-store/server-sqlite", test_server);
  status = g_test_run ();
  {
    g_autoptr(GDir) dir = g_dir_open (folder, 0, NULL);
    const char *name;

    while (dir != NULL && (name = g_dir_read_name (dir)) != NULL)
      {
        g_autofree char *path = g_build_filename (folder, name, NULL);

        g_unlink (path);
      }
    g_rmdir (folder);
    g_free (folder);
  }
  return status;
}
