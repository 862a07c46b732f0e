/* test-pg-race.c: two akc-server processes on one PostgreSQL database
 *
 * SPDX-License-Identifier: MIT
 *
 * AKC_TEST_PG is the libpq conninfo of a private cluster
 * (build-aux/postgresql, started by build-aux/test); without it the test
 * is skipped. Both servers get a turn of one session at the same moment,
 * each with its own turn id: exactly one claims it (200) and the other is
 * refused (409), in every round. The winner's turn waits until its
 * deadline, which releases the lease; the next turn of the session then
 * runs on the other server, which finds the conversation state the first
 * one stored.
 */

#include "config.h"

#include <glib/gstdio.h>
#include <signal.h>
#include <string.h>

#include <akc.h>
#include <libsoup/soup.h>
#include "akc-test.h"

#define ROUNDS 3

typedef struct
{
  GSubprocess *process;
  char        *url;
} Server;

static char *tmp;

static void
start (Server     *server,
       const char *config)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GDataInputStream) out = NULL;
  g_autofree char *line = NULL;

  server->process = g_subprocess_new (G_SUBPROCESS_FLAGS_STDOUT_PIPE, &error, g_getenv ("AKC_SERVER"),
                                      "--config", config, "--listen", "127.0.0.1:0", NULL);
  g_assert_no_error (error);
  out = g_data_input_stream_new (g_subprocess_get_stdout_pipe (server->process));
  line = g_data_input_stream_read_line_utf8 (out, NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_true (g_str_has_prefix (line, "listening on "));
  server->url = g_strconcat (line + strlen ("listening on "), "chat", NULL);
}

static void
stop (Server *server)
{
  g_autoptr(GError) error = NULL;

  g_subprocess_send_signal (server->process, SIGTERM);
  g_assert_true (g_subprocess_wait_check (server->process, NULL, &error));
  g_assert_no_error (error);
  g_clear_object (&server->process);
  g_free (server->url);
}

typedef struct
{
  SoupMessage  *message;
  GAsyncResult *result;
  GBytes       *body;
} Exchange;

static void
on_sent (GObject *source, GAsyncResult *result, gpointer user_data)
{
  Exchange *exchange = user_data;

  exchange->result = g_object_ref (result);
}

static void
submit (SoupSession *session,
        Exchange    *exchange,
        const char  *url,
        const char  *session_id,
        const char  *turn_id,
        const char  *input)
{
  g_autofree char *body = g_strdup_printf ("{\"protocol\":\"agentskit.chat.turn\",\"version\":1,\"eventId\":\"e-%s\","
                                           "\"sessionId\":\"%s\",\"turnId\":\"%s\",\"sequence\":0,"
                                           "\"emittedAt\":\"2026-07-11T00:00:00.000Z\",\"event\":\"client.turn.submit\","
                                           "\"payload\":{\"input\":\"%s\"}}", turn_id, session_id, turn_id, input);
  g_autoptr(GBytes) bytes = g_bytes_new (body, strlen (body));

  exchange->message = soup_message_new ("POST", url);
  soup_message_set_request_body_from_bytes (exchange->message, "application/json", bytes);
  soup_session_send_and_read_async (session, exchange->message, G_PRIORITY_DEFAULT, NULL, on_sent, exchange);
}

static void
finish (SoupSession *session,
        Exchange    *exchange)
{
  g_autoptr(GError) error = NULL;

  WAIT_UNTIL (exchange->result != NULL);
  exchange->body = soup_session_send_and_read_finish (session, exchange->result, &error);
  g_assert_no_error (error);
}

static void
exchange_clear (Exchange *exchange)
{
  g_clear_object (&exchange->message);
  g_clear_object (&exchange->result);
  g_clear_pointer (&exchange->body, g_bytes_unref);
}

static gboolean
has (Exchange   *exchange,
     const char *text)
{
  g_autofree char *body = g_strndup (g_bytes_get_data (exchange->body, NULL), g_bytes_get_size (exchange->body));

  return strstr (body, text) != NULL;
}

/* The last line of an NDJSON body holds @text. */
static gboolean
ends_with (Exchange   *exchange,
           const char *text)
{
  g_autofree char *body = g_strndup (g_bytes_get_data (exchange->body, NULL), g_bytes_get_size (exchange->body));
  char *last;

  if (!g_str_has_suffix (body, "\n"))
    return FALSE;
  body[strlen (body) - 1] = '\0';
  last = strrchr (body, '\n');
  return strstr (last != NULL ? last : body, text) != NULL;
}

static void
test_race (void)
{
  const char *conninfo = g_getenv ("AKC_TEST_PG");
  g_autofree char *config = NULL;
  g_autofree char *script = NULL;
  g_autofree char *text = NULL;
  g_autofree char *run = NULL;
  g_autoptr(SoupSession) session = NULL;
  g_autoptr(GError) error = NULL;
  Server servers[2] = { { 0, } };

  if (conninfo == NULL || conninfo[0] == '\0')
    {
      g_test_skip ("AKC_TEST_PG is not set: no PostgreSQL (build-aux/test starts one)");
      return;
    }

  config = g_build_filename (tmp, "race.json", NULL);
  script = g_build_filename (g_getenv ("AKC_SERVER_TESTS"), "fixture-stream.script.json", NULL);
  text = g_strdup_printf ("{\"protocol\":\"agentskit.chat.server-config\",\"version\":1,"
                          "\"sessionStore\":{\"kind\":\"postgresql\",\"conninfo\":\"%s\"},"
                          "\"definitions\":[{\"id\":\"fixture-stream\",\"adapter\":{\"kind\":\"script\",\"file\":\"%s\"},"
                          "\"memory\":\"none\"}],"
                          "\"mounts\":[{\"path\":\"/chat\",\"handler\":\"chat\",\"auth\":{\"kind\":\"none\"},"
                          "\"sessions\":[{\"prefix\":\"\",\"definition\":\"fixture-stream\"}],"
                          "\"timeoutMs\":3000,\"cleanupTimeoutMs\":1000}]}", conninfo, script);
  g_assert_true (g_file_set_contents (config, text, -1, &error));
  start (&servers[0], config);
  start (&servers[1], config);
  session = soup_session_new_with_options ("max-conns-per-host", 8, NULL);
  run = g_uuid_string_random ();

  for (guint round = 0; round < ROUNDS; round++)
    {
      g_autofree char *session_id = g_strdup_printf ("race-%s-%u", run, round);
      Exchange a = { 0, }, b = { 0, }, next = { 0, };
      Exchange *winner, *loser;
      guint loser_server;

      /* both at once; each holds the lease until its deadline if it wins */
      submit (session, &a, servers[0].url, session_id, "turn-a", "/slow");
      submit (session, &b, servers[1].url, session_id, "turn-b", "/slow");
      finish (session, &a);
      finish (session, &b);

      g_test_message ("round %u: %u and %u", round, soup_message_get_status (a.message),
                      soup_message_get_status (b.message));
      g_assert_true ((soup_message_get_status (a.message) == 200) != (soup_message_get_status (b.message) == 200));
      winner = soup_message_get_status (a.message) == 200 ? &a : &b;
      loser = winner == &a ? &b : &a;
      loser_server = winner == &a ? 1 : 0;
      g_assert_cmpuint (soup_message_get_status (loser->message), ==, 409);
      g_assert_true (has (loser, "\"code\":\"SESSION_BUSY\"") || has (loser, "\"code\":\"SESSION_CONFLICT\""));
      /* the winner's turn ended at its deadline, after its lease was released */
      g_assert_true (ends_with (winner, "\"code\":\"SERVER_TIMEOUT\""));

      /* the other server takes the next turn of the session */
      submit (session, &next, servers[loser_server].url, session_id, "turn-c", "hello");
      finish (session, &next);
      g_assert_cmpuint (soup_message_get_status (next.message), ==, 200);
      g_assert_true (ends_with (&next, "\"status\":\"complete\""));

      /* and a finished turn id cannot be replayed on either server */
      exchange_clear (&a);
      submit (session, &a, servers[round % 2].url, session_id, "turn-c", "hello");
      finish (session, &a);
      g_assert_cmpuint (soup_message_get_status (a.message), ==, 409);

      exchange_clear (&a);
      exchange_clear (&b);
      exchange_clear (&next);
    }

  stop (&servers[0]);
  stop (&servers[1]);
}

int
main (int argc, char **argv)
{
  int status;

  g_test_init (&argc, &argv, NULL);
  tmp = g_dir_make_tmp ("akc-pg-race-XXXXXX", NULL);
  g_test_add_func ("/server/postgresql/race", test_race);
  status = g_test_run ();
  {
    g_autofree char *config = g_build_filename (tmp, "race.json", NULL);

    g_unlink (config);
    g_rmdir (tmp);
  }
  g_free (tmp);
  return status;
}
