/* akc-server-test.c: what the server's tests share
 *
 * SPDX-License-Identifier: MIT
 */

#include "config.h"

#include <string.h>

#include "akc-server-test.h"

AkcServer *
akc_server_test_start (const char  *config_path,
                       GError     **error)
{
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(AkcServer) server = NULL;

  akc_server_new_async (config_path, NULL, akc_test_store_result, &result);
  akc_test_wait (&result);
  server = akc_server_new_finish (result, error);
  if (server == NULL)
    return NULL;
  if (!akc_server_listen (server, NULL, error))
    return NULL;
  return g_steal_pointer (&server);
}

char *
akc_server_test_post (AkcServer  *server,
                      const char *path,
                      const char *token,
                      const char *body,
                      guint      *status)
{
  g_autoptr(SoupSession) session = soup_session_new ();
  g_autofree char *uri = g_strconcat (g_ptr_array_index (akc_server_get_uris (server), 0), path + 1, NULL);
  g_autoptr(SoupMessage) message = soup_message_new ("POST", uri);
  g_autoptr(GBytes) request = g_bytes_new (body, strlen (body));
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GBytes) response = NULL;
  g_autoptr(GError) error = NULL;

  if (token != NULL)
    {
      g_autofree char *header = g_strconcat ("Bearer ", token, NULL);

      soup_message_headers_replace (soup_message_get_request_headers (message), "Authorization", header);
    }
  soup_message_set_request_body_from_bytes (message, "application/json", request);
  soup_session_send_and_read_async (session, message, G_PRIORITY_DEFAULT, NULL, akc_test_store_result, &result);
  akc_test_wait (&result);
  response = soup_session_send_and_read_finish (session, result, &error);
  g_assert_no_error (error);
  *status = soup_message_get_status (message);
  return g_strndup (g_bytes_get_data (response, NULL), g_bytes_get_size (response));
}

GSocketConnection *
akc_server_test_connect (guint16 port)
{
  g_autoptr(GSocketClient) client = g_socket_client_new ();
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;
  GSocketConnection *connection;

  g_socket_client_connect_to_host_async (client, "127.0.0.1", port, NULL, akc_test_store_result, &result);
  akc_test_wait (&result);
  connection = g_socket_client_connect_to_host_finish (client, result, &error);
  g_assert_no_error (error);
  return connection;
}

GString *
akc_server_test_read_until (GSocketConnection *connection,
                            const char        *needle)
{
  GInputStream *in = g_io_stream_get_input_stream (G_IO_STREAM (connection));
  GString *text = g_string_new (NULL);

  for (;;)
    {
      g_autoptr(GAsyncResult) result = NULL;
      char buffer[4096];
      gssize n;

      if (needle != NULL && strstr (text->str, needle) != NULL)
        return text;
      g_input_stream_read_async (in, buffer, sizeof buffer, G_PRIORITY_DEFAULT, NULL, akc_test_store_result,
                                 &result);
      akc_test_wait (&result);
      n = g_input_stream_read_finish (in, result, NULL);
      if (n <= 0)
        return text;
      g_string_append_len (text, buffer, n);
    }
}

GBytes *
akc_server_test_vector_body (AkcJsonValue *request)
{
  AkcJsonValue *v;
  char *text;

  if ((v = akc_json_value_get_member (request, "bodyText")) == NULL &&
      (v = akc_json_value_get_member (request, "bodyJson")) == NULL)
    return NULL;
  text = akc_json_value_get_kind (v) == AKC_JSON_KIND_STRING ? g_strdup (akc_json_value_get_string (v, NULL))
                                                              : akc_json_value_to_canonical (v, NULL);
  return g_bytes_new_take (text, strlen (text));
}

void
akc_server_test_check_head (const AkcFixtureCase *fc,
                            SoupMessage          *message)
{
  AkcJsonValue *v = akc_fixture_expect (fc, "headers");

  g_assert_cmpuint (soup_message_get_status (message), ==,
                    akc_json_value_get_number (akc_fixture_expect (fc, "status")));
  for (gsize i = 0; i < akc_json_value_get_member_count (v); i++)
    g_assert_cmpstr (soup_message_headers_get_one (soup_message_get_response_headers (message),
                                                   akc_json_value_get_member_name (v, i, NULL)), ==,
                     akc_json_value_get_string (akc_json_value_get_member_value (v, i), NULL));
}

void
akc_server_test_check_body (const AkcFixtureCase     *fc,
                            GBytes                   *response,
                            AkcServerTestProjectFunc  project)
{
  g_autofree char *text = g_strndup (g_bytes_get_data (response, NULL), g_bytes_get_size (response));
  g_autoptr(GError) error = NULL;
  AkcJsonValue *v;

  if ((v = akc_fixture_expect (fc, "text")) != NULL)
    g_assert_cmpstr (text, ==, akc_json_value_get_string (v, NULL));
  if ((v = akc_fixture_expect (fc, "json")) != NULL)
    {
      g_autoptr(AkcJsonValue) body = akc_json_value_parse (text, -1, &error);

      g_assert_no_error (error);
      akc_assert_json_equal (body, v);
    }
  if ((v = akc_fixture_expect (fc, "events")) != NULL)
    {
      g_auto(GStrv) lines = g_strsplit (text, "\n", -1);
      g_autoptr(GPtrArray) events = g_ptr_array_new_with_free_func ((GDestroyNotify) akc_json_value_unref);
      g_autoptr(AkcJsonValue) actual = NULL;

      g_assert_true (g_str_has_suffix (text, "\n"));
      for (guint i = 0; lines[i] != NULL && lines[i][0] != '\0'; i++)
        {
          g_autoptr(AkcJsonValue) event = akc_json_value_parse (lines[i], -1, &error);

          g_assert_no_error (error);
          g_ptr_array_add (events, project (event, lines[i]));
        }
      actual = akc_json_value_new_array ((AkcJsonValue * const *) events->pdata, events->len);
      akc_assert_json_equal (actual, v);
    }
}
