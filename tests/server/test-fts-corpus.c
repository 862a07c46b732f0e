/* test-fts-corpus.c: local retrieval from an SQLite FTS5 corpus
 *
 * SPDX-License-Identifier: MIT
 *
 * `akc-server index` over tests/server/docs, the retriever's ranking and
 * sources, refused indexes, files that are not UTF-8, and akc-server
 * answering an Ask question from the index with its metrics in a file.
 */

#include "config.h"

#include <signal.h>
#include <string.h>

#include <libsoup/soup.h>

#include "akc-ask-backend-private.h"
#include "akc-fts-corpus.h"
#include "akc-server-util.h"
#include "akc-test.h"

static char *tmp;

static char *
docs_folder (void)
{
  return g_build_filename (g_getenv ("AKC_SERVER_TESTS"), "docs", NULL);
}

static char *
build_index (const char *name)
{
  g_autofree char *docs = docs_folder ();
  const char *folders[] = { docs, NULL };
  char *database = g_build_filename (tmp, name, NULL);
  g_autoptr(GError) error = NULL;
  guint n = 0;

  g_assert_true (akc_fts_corpus_index (database, "public-docs", "/docs", folders, &n, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (n, ==, 5);
  return database;
}

static void
on_result (GObject *source, GAsyncResult *result, gpointer user_data)
{
  *(GAsyncResult **) user_data = g_object_ref (result);
}

static AkcJsonValue *
retrieve (AkcAskRetriever *retriever,
          const char      *question)
{
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;
  AkcJsonValue *found;

  akc_ask_retriever_retrieve_async (retriever, question, 3, NULL, on_result, &result);
  WAIT_UNTIL (result != NULL);
  found = akc_ask_retriever_retrieve_finish (retriever, result, &error);
  g_assert_no_error (error);
  g_assert_cmpint (akc_json_value_get_kind (found), ==, AKC_JSON_KIND_ARRAY);
  return found;
}

static const char *
member (AkcJsonValue *object, const char *name)
{
  return akc_json_value_get_string (akc_json_value_get_member (object, name), NULL);
}

static void
test_ranking (void)
{
  g_autofree char *database = build_index ("rank.sqlite3");
  g_autoptr(GError) error = NULL;
  g_autoptr(AkcAskRetriever) retriever = akc_fts_retriever_new (database, "public-docs", &error);
  g_autoptr(AkcJsonValue) install = NULL;
  g_autoptr(AkcJsonValue) sessions = NULL;
  g_autoptr(AkcJsonValue) none = NULL;
  g_autoptr(AkcJsonValue) punctuation = NULL;

  g_assert_no_error (error);
  install = retrieve (retriever, "How do I install AgentsKit Chat?");
  g_assert_cmpuint (akc_json_value_get_length (install), >=, 1);
  g_assert_cmpstr (member (akc_json_value_get_element (install, 0), "id"), ==, "install");
  g_assert_cmpstr (member (akc_json_value_get_element (install, 0), "title"), ==, "Installing AgentsKit Chat");
  g_assert_cmpstr (member (akc_json_value_get_element (install, 0), "href"), ==, "/docs/install");
  g_assert_nonnull (strstr (member (akc_json_value_get_element (install, 0), "excerpt"), "npm i"));
  /* every source passes the handler's strict schema */
  for (gsize i = 0; i < akc_json_value_get_length (install); i++)
    {
      g_autoptr(AkcJsonValue) valid = akc_ask_backend_source_validate (akc_json_value_get_element (install, i));

      g_assert_nonnull (valid);
    }

  sessions = retrieve (retriever, "how many messages does a session keep");
  g_assert_cmpstr (member (akc_json_value_get_element (sessions, 0), "id"), ==, "sessions");

  none = retrieve (retriever, "xyzzy plugh");
  g_assert_cmpuint (akc_json_value_get_length (none), ==, 0);
  /* FTS5 syntax in a question is only words */
  punctuation = retrieve (retriever, "\"install\" OR NEAR(* ^ -");
  g_assert_cmpstr (member (akc_json_value_get_element (punctuation, 0), "id"), ==, "install");
}

static void
test_refused (void)
{
  g_autofree char *database = build_index ("refused.sqlite3");
  g_autofree char *missing = g_build_filename (tmp, "missing.sqlite3", NULL);
  g_autoptr(GError) error = NULL;
  g_autoptr(AkcAskRetriever) wrong = akc_fts_retriever_new (database, "other-corpus", &error);

  g_assert_null (wrong);
  g_assert_error (error, AKC_SERVER_CONFIG_ERROR, AKC_SERVER_CONFIG_ERROR_INVALID);
  g_clear_error (&error);
  g_assert_null (akc_fts_retriever_new (missing, "public-docs", &error));
  g_assert_nonnull (error);
}

static void
test_not_utf8 (void)
{
  g_autofree char *folder = g_build_filename (tmp, "mixed", NULL);
  g_autofree char *good = g_build_filename (folder, "good.md", NULL);
  g_autofree char *bad = g_build_filename (folder, "bad.md", NULL);
  g_autofree char *database = g_build_filename (tmp, "mixed.sqlite3", NULL);
  const char *folders[] = { folder, NULL };
  g_autoptr(GError) error = NULL;
  guint n = 0;

  g_assert_cmpint (g_mkdir_with_parents (folder, 0700), ==, 0);
  g_assert_true (g_file_set_contents (good, "# Good\n\nA good document.\n", -1, &error));
  g_assert_true (g_file_set_contents (bad, "# Bad \xff\xfe\n", -1, &error));
  g_assert_true (akc_fts_corpus_index (database, "mixed", NULL, folders, &n, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (n, ==, 1);
}

static void
on_sent (GObject *source, GAsyncResult *result, gpointer user_data)
{
  *(GAsyncResult **) user_data = g_object_ref (result);
}

/* akc-server index, then akc-server answering from the index. */
static void
test_server (void)
{
  g_autofree char *docs = docs_folder ();
  g_autofree char *database = g_build_filename (tmp, "served.sqlite3", NULL);
  g_autofree char *metrics = g_build_filename (tmp, "metrics.ndjson", NULL);
  g_autofree char *config = g_build_filename (tmp, "config.json", NULL);
  g_autofree char *generator = g_build_filename (g_getenv ("AKC_SERVER_TESTS"), "ask-generator.script.json", NULL);
  g_autofree char *hash = g_compute_checksum_for_string (G_CHECKSUM_SHA256, "docs-token", -1);
  g_autofree char *text = NULL;
  g_autofree char *line = NULL;
  g_autofree char *url = NULL;
  g_autofree char *answer = NULL;
  g_autofree char *written = NULL;
  g_autoptr(GSubprocess) index = NULL;
  g_autoptr(GSubprocess) server = NULL;
  g_autoptr(GDataInputStream) out = NULL;
  g_autoptr(SoupSession) session = soup_session_new ();
  g_autoptr(SoupMessage) message = NULL;
  g_autoptr(GBytes) body = NULL;
  g_autoptr(GBytes) response = NULL;
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;
  static const char question[] = "{\"messages\":[{\"role\":\"user\",\"content\":\"How do I install it?\"}]}";

  index = g_subprocess_new (G_SUBPROCESS_FLAGS_STDOUT_SILENCE, &error, g_getenv ("AKC_SERVER"), "index",
                            "--corpus", "public-docs", "--database", database, "--base-href", "/docs", docs, NULL);
  g_assert_no_error (error);
  g_assert_true (g_subprocess_wait_check (index, NULL, &error));
  g_assert_no_error (error);

  text = g_strdup_printf ("{\"protocol\":\"agentskit.chat.server-config\",\"version\":1,\"definitions\":[],"
                          "\"metrics\":{\"kind\":\"file\",\"path\":\"%s\"},\"prometheus\":{\"path\":\"/metrics\"},"
                          "\"mounts\":[{\"path\":\"/ask\",\"handler\":\"ask\","
                          "\"auth\":{\"kind\":\"bearer\",\"tokens\":[{\"sha256\":\"%s\",\"subject\":\"subject-zz9\",\"site\":\"d\"}]},"
                          "\"sites\":[{\"name\":\"d\",\"site\":{\"protocol\":\"agentskit.chat.backend-site\",\"version\":1,"
                          "\"siteId\":\"docs\",\"assistant\":{\"id\":\"guide\",\"name\":\"Guide\",\"suggestions\":[]},"
                          "\"corpus\":{\"id\":\"public-docs\",\"mode\":\"local\"},\"components\":[],\"actions\":[],"
                          "\"limits\":{\"requestTimeoutMs\":10000,\"retrievalTimeoutMs\":5000,"
                          "\"generationTimeoutMs\":10000,\"maxSources\":2},\"persistence\":{\"mode\":\"disabled\"}}}],"
                          "\"retrievers\":{\"local\":{\"kind\":\"fts\",\"database\":\"%s\",\"corpus\":\"public-docs\"}},"
                          "\"generator\":{\"kind\":\"script\",\"file\":\"%s\"}}]}",
                          metrics, hash, database, generator);
  g_assert_true (g_file_set_contents (config, text, -1, &error));

  server = g_subprocess_new (G_SUBPROCESS_FLAGS_STDOUT_PIPE, &error, g_getenv ("AKC_SERVER"), "--config", config,
                             "--listen", "127.0.0.1:0", NULL);
  g_assert_no_error (error);
  out = g_data_input_stream_new (g_subprocess_get_stdout_pipe (server));
  line = g_data_input_stream_read_line_utf8 (out, NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_true (g_str_has_prefix (line, "listening on "));
  url = g_strconcat (line + strlen ("listening on "), "ask", NULL);

  message = soup_message_new ("POST", url);
  soup_message_headers_replace (soup_message_get_request_headers (message), "Authorization", "Bearer docs-token");
  body = g_bytes_new_static (question, strlen (question));
  soup_message_set_request_body_from_bytes (message, "application/json", body);
  soup_session_send_and_read_async (session, message, G_PRIORITY_DEFAULT, NULL, on_sent, &result);
  WAIT_UNTIL (result != NULL);
  response = soup_session_send_and_read_finish (session, result, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (soup_message_get_status (message), ==, 200);
  answer = g_strndup (g_bytes_get_data (response, NULL), g_bytes_get_size (response));
  g_assert_nonnull (strstr (answer, "\"name\":\"cite\",\"args\":{\"sources\":[{\"id\":\"install\","
                                    "\"title\":\"Installing AgentsKit Chat\",\"path\":\"/docs/install\"}"));

  /* the same records, aggregated for Prometheus */
  {
    g_autofree char *metrics_url = g_strconcat (line + strlen ("listening on "), "metrics", NULL);
    g_autoptr(SoupMessage) get = soup_message_new ("GET", metrics_url);
    g_autoptr(GAsyncResult) got = NULL;
    g_autoptr(GBytes) exposition = NULL;
    g_autofree char *exposition_text = NULL;

    soup_session_send_and_read_async (session, get, G_PRIORITY_DEFAULT, NULL, on_sent, &got);
    WAIT_UNTIL (got != NULL);
    exposition = soup_session_send_and_read_finish (session, got, &error);
    g_assert_no_error (error);
    g_assert_cmpuint (soup_message_get_status (get), ==, 200);
    exposition_text = g_strndup (g_bytes_get_data (exposition, NULL), g_bytes_get_size (exposition));
    g_assert_nonnull (strstr (exposition_text, "akc_ask_request_total_ms_count{site=\"docs\",outcome=\"ok\"} 1\n"));
    g_assert_nonnull (strstr (exposition_text, "akc_ask_retrieval_documents_sum{site=\"docs\",outcome=\"ok\"} 2\n"));
    g_assert_nonnull (strstr (exposition_text, "akc_connections_open "));
  }

  /* SIGTERM: the metric records are in the file when the process ends */
  g_subprocess_send_signal (server, SIGTERM);
  g_assert_true (g_subprocess_wait_check (server, NULL, &error));
  g_assert_no_error (error);
  g_assert_true (g_file_get_contents (metrics, &written, NULL, &error));
  g_assert_nonnull (strstr (written, "\"name\":\"retrieval.documents\""));
  g_assert_nonnull (strstr (written, "\"name\":\"request.total_ms\""));
  g_assert_null (strstr (written, "install it"));   /* never the question */
  g_assert_null (strstr (written, "zz9"));          /* never the subject */
}

int
main (int argc, char **argv)
{
  int status;

  g_test_init (&argc, &argv, NULL);
  tmp = g_dir_make_tmp ("akc-fts-XXXXXX", NULL);
  g_test_add_func ("/server/fts/ranking", test_ranking);
  g_test_add_func ("/server/fts/refused", test_refused);
  g_test_add_func ("/server/fts/not-utf8", test_not_utf8);
  g_test_add_func ("/server/fts/server", test_server);
  status = g_test_run ();
  {
    g_autoptr(GSubprocess) rm = g_subprocess_new (G_SUBPROCESS_FLAGS_NONE, NULL, "rm", "-rf", tmp, NULL);

    if (rm != NULL)
      g_subprocess_wait (rm, NULL, NULL);
  }
  g_free (tmp);
  return status;
}
