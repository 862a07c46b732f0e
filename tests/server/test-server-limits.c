/* test-server-limits.c: akc-server's connection limit and idle timeout
 *
 * SPDX-License-Identifier: MIT
 *
 * An AkcServer in this process, from a configuration with
 * `maxConnections` 2 and `idleTimeoutMs` 300: a third connection is closed
 * at once, idle connections (one that never finishes its headers among
 * them) are closed after the timeout, and a new client is then served;
 * and the same server over TLS from certificate and key files.
 */

#include "config.h"

#include <glib/gstdio.h>
#include <string.h>

#include <libsoup/soup.h>

#include "akc-server-test.h"

static GPtrArray *records;

/* Keeps the request records (AKC_PATH and AKC_STATUS) and every field's
 * value, to check that no header or body is logged. */
static GLogWriterOutput
writer (GLogLevelFlags   level,
        const GLogField *fields,
        gsize            n_fields,
        gpointer         user_data)
{
  g_autoptr(GString) record = g_string_new (NULL);

  for (gsize i = 0; i < n_fields; i++)
    if (fields[i].length < 0)
      g_string_append_printf (record, "%s=%s;", fields[i].key, (const char *) fields[i].value);
  if (strstr (record->str, "AKC_PATH=") != NULL)
    g_ptr_array_add (records, g_string_free (g_steal_pointer (&record), FALSE));
  return G_LOG_WRITER_HANDLED;
}

static void
test_limits (void)
{
  g_autofree char *folder = g_dir_make_tmp ("akc-limits-XXXXXX", NULL);
  g_autofree char *config = g_build_filename (folder, "limits.json", NULL);
  g_autofree char *script = g_build_filename (folder, "s.json", NULL);
  g_autofree char *text = NULL;
  g_autoptr(AkcServer) server = NULL;
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GSocketConnection) first = NULL;
  g_autoptr(GSocketConnection) second = NULL;
  g_autoptr(GSocketConnection) third = NULL;
  g_autoptr(GSocketConnection) later = NULL;
  g_autoptr(GString) refused = NULL;
  g_autoptr(GString) idle = NULL;
  g_autoptr(GString) slow = NULL;
  g_autoptr(GString) served = NULL;
  g_autoptr(GSocketConnection) draining = NULL;
  g_autoptr(GString) drained = NULL;
  static const char health[] = "GET /healthz?secret=q HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n"
                               "Authorization: Bearer hidden-token\r\n\r\n";
  guint64 n_refused = 0;
  guint16 port;

  g_assert_true (g_file_set_contents (script, "{\"protocol\":\"agentskit.chat.server-script\",\"version\":1,"
                                              "\"replies\":[{\"chunks\":[{\"text\":\"hi\"}]}]}", -1, &error));
  text = g_strdup_printf ("{\"protocol\":\"agentskit.chat.server-config\",\"version\":1,\"maxConnections\":2,\"logRequests\":true,"
                          "\"idleTimeoutMs\":300,\"listen\":[\"127.0.0.1:0\"],"
                          "\"definitions\":[{\"id\":\"d\",\"adapter\":{\"kind\":\"script\",\"file\":\"s.json\"}}],"
                          "\"mounts\":[{\"path\":\"/chat\",\"handler\":\"chat\",\"auth\":{\"kind\":\"none\"},"
                          "\"sessions\":[{\"prefix\":\"\",\"definition\":\"d\"}]}]}");
  g_assert_true (g_file_set_contents (config, text, -1, &error));

  akc_server_new_async (config, NULL, akc_test_store_result, &result);
  akc_test_wait (&result);
  server = akc_server_new_finish (result, &error);
  g_assert_no_error (error);
  g_assert_true (akc_server_listen (server, NULL, &error));
  g_assert_no_error (error);
  port = (guint16) g_ascii_strtoull (strrchr (g_ptr_array_index (akc_server_get_uris (server), 0), ':') + 1, NULL, 10);

  first = akc_server_test_connect (port);
  second = akc_server_test_connect (port);
  /* half a request line, then nothing */
  g_output_stream_write_all (g_io_stream_get_output_stream (G_IO_STREAM (second)), "POST /chat HT", 13, NULL, NULL,
                             &error);
  g_assert_no_error (error);
  WAIT_UNTIL (akc_server_get_n_connections (server, NULL) >= 2);

  g_test_message ("two connections");
  third = akc_server_test_connect (port);
  refused = akc_server_test_read_until (third, NULL);
  g_assert_cmpuint (refused->len, ==, 0);
  g_assert_cmpuint (akc_server_get_n_connections (server, &n_refused), ==, 2);
  g_assert_cmpuint (n_refused, ==, 1);

  g_test_message ("third refused");
  /* both are closed once idle for 300 ms */
  idle = akc_server_test_read_until (first, NULL);
  g_test_message ("first closed");
  slow = akc_server_test_read_until (second, NULL);
  g_test_message ("second closed");
  g_assert_cmpuint (idle->len, ==, 0);
  g_assert_cmpuint (slow->len, ==, 0);
  WAIT_UNTIL (akc_server_get_n_connections (server, NULL) <= 0);

  g_test_message ("idle ones closed");
  later = akc_server_test_connect (port);
  g_output_stream_write_all (g_io_stream_get_output_stream (G_IO_STREAM (later)), health, strlen (health), NULL, NULL,
                             &error);
  g_assert_no_error (error);
  served = akc_server_test_read_until (later, NULL);
  g_assert_nonnull (strstr (served->str, "200 OK"));
  g_assert_nonnull (strstr (served->str, "{\"status\":\"ok\"}"));

  /* the request's record: path and status, not the query or the token */
  WAIT_UNTIL (records->len != 0);
  g_assert_nonnull (strstr (g_ptr_array_index (records, 0), "AKC_PATH=/healthz;"));
  g_assert_nonnull (strstr (g_ptr_array_index (records, 0), "AKC_STATUS=200;"));
  g_assert_null (strstr (g_ptr_array_index (records, 0), "secret"));
  g_assert_null (strstr (g_ptr_array_index (records, 0), "hidden-token"));

  /* draining: /healthz says so, for the load balancer to route elsewhere */
  akc_server_drain (server);
  draining = akc_server_test_connect (port);
  g_output_stream_write_all (g_io_stream_get_output_stream (G_IO_STREAM (draining)), health, strlen (health), NULL,
                             NULL, &error);
  g_assert_no_error (error);
  drained = akc_server_test_read_until (draining, NULL);
  g_assert_nonnull (strstr (drained->str, "HTTP/1.1 503"));
  g_assert_nonnull (strstr (drained->str, "{\"status\":\"draining\"}"));

  g_unlink (config);
  g_unlink (script);
  g_rmdir (folder);
}

static gboolean
accept_any (SoupMessage          *message,
            GTlsCertificate      *certificate,
            GTlsCertificateFlags  errors,
            gpointer              user_data)
{
  /* the test's own self-signed certificate */
  return TRUE;
}

static void
test_tls (void)
{
  g_autofree char *folder = g_dir_make_tmp ("akc-tls-XXXXXX", NULL);
  g_autofree char *config = g_build_filename (folder, "tls.json", NULL);
  g_autofree char *script = g_build_filename (folder, "s.json", NULL);
  g_autofree char *cert = g_build_filename (folder, "cert.pem", NULL);
  g_autofree char *key = g_build_filename (folder, "key.pem", NULL);
  g_autofree char *url = NULL;
  g_autoptr(GSubprocess) openssl = NULL;
  g_autoptr(AkcServer) server = NULL;
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GAsyncResult) sent = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(SoupSession) session = soup_session_new ();
  g_autoptr(SoupMessage) message = NULL;
  g_autoptr(GBytes) body = NULL;
  const char *uri;

  openssl = g_subprocess_new (G_SUBPROCESS_FLAGS_STDOUT_SILENCE | G_SUBPROCESS_FLAGS_STDERR_SILENCE, &error,
                              "openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", key, "-out", cert,
                              "-days", "1", "-subj", "/CN=127.0.0.1", NULL);
  g_assert_no_error (error);
  g_assert_true (g_subprocess_wait_check (openssl, NULL, &error));
  g_assert_no_error (error);
  g_assert_true (g_file_set_contents (script, "{\"protocol\":\"agentskit.chat.server-script\",\"version\":1,"
                                              "\"replies\":[{\"chunks\":[{\"text\":\"hi\"}]}]}", -1, &error));
  g_assert_true (g_file_set_contents (config,
                                      "{\"protocol\":\"agentskit.chat.server-config\",\"version\":1,"
                                      "\"tls\":{\"certificate\":\"cert.pem\",\"key\":\"key.pem\"},"
                                      "\"listen\":[\"127.0.0.1:0\"],"
                                      "\"definitions\":[{\"id\":\"d\",\"adapter\":{\"kind\":\"script\",\"file\":\"s.json\"}}],"
                                      "\"mounts\":[{\"path\":\"/chat\",\"handler\":\"chat\",\"auth\":{\"kind\":\"none\"},"
                                      "\"sessions\":[{\"prefix\":\"\",\"definition\":\"d\"}]}]}", -1, &error));

  akc_server_new_async (config, NULL, akc_test_store_result, &result);
  akc_test_wait (&result);
  server = akc_server_new_finish (result, &error);
  g_assert_no_error (error);
  g_assert_true (akc_server_listen (server, NULL, &error));
  uri = g_ptr_array_index (akc_server_get_uris (server), 0);
  g_assert_true (g_str_has_prefix (uri, "https://127.0.0.1:"));

  url = g_strconcat (uri, "healthz", NULL);
  message = soup_message_new ("GET", url);
  g_signal_connect (message, "accept-certificate", G_CALLBACK (accept_any), NULL);
  soup_session_send_and_read_async (session, message, G_PRIORITY_DEFAULT, NULL, akc_test_store_result, &sent);
  akc_test_wait (&sent);
  body = soup_session_send_and_read_finish (session, sent, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (soup_message_get_status (message), ==, 200);
  g_assert_cmpmem (g_bytes_get_data (body, NULL), g_bytes_get_size (body), "{\"status\":\"ok\"}", 15);
  g_assert_nonnull (soup_message_get_tls_peer_certificate (message));

  g_unlink (config);
  g_unlink (script);
  g_unlink (cert);
  g_unlink (key);
  g_rmdir (folder);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  records = g_ptr_array_new_with_free_func (g_free);
  g_log_set_writer_func (writer, NULL, NULL);
  g_test_add_func ("/server/limits", test_limits);
  g_test_add_func ("/server/tls", test_tls);
  return g_test_run ();
}
