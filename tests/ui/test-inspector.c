/* test-inspector.c: the Developer Tools window (application.md §10) in
 * process: live records of a real demo in sentences, the empty state, a
 * change of conversation, and the replay fixture it saves.
 *
 * SPDX-License-Identifier: MIT
 */

#include "config.h"

#include <adwaita.h>
#include <glib/gstdio.h>
#include <string.h>

#include "akc-demo.h"
#include "akc-inspector.h"
#include "akc-test-ui.h"

static void
test_live_records (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(AkcDemo) demo = akc_demo_new ("hello-world", &error);
  AkcInspector *inspector = akc_inspector_new ();
  AkcChat *chat;
  g_autofree char *first = NULL;
  g_autofree char *second = NULL;
  g_autofree char *path = NULL;
  g_autofree char *text = NULL;
  g_autoptr(GFile) file = NULL;
  g_autoptr(AkcReplayFixture) fixture = NULL;
  int fd;

  g_assert_no_error (error);
  akc_demo_set_reply_interval (demo, 0);
  chat = akc_demo_get_chat (demo);

  /* Records made before the inspector opened are shown too. */
  g_assert_true (akc_chat_source_send (AKC_CHAT_SOURCE (chat), "/start", &error));
  g_assert_no_error (error);
  wait_until_idle (AKC_CHAT_SOURCE (chat));

  akc_inspector_set_conversation (inspector, "Hello World", akc_demo_get_trace_capture (demo),
                                  akc_chat_source_get_messages (AKC_CHAT_SOURCE (chat)));
  gtk_window_present (GTK_WINDOW (inspector));
  g_assert_cmpuint (akc_inspector_get_n_rows (inspector), ==, 1);
  first = akc_inspector_dup_row_title (inspector, 0);
  g_assert_cmpstr (first, ==, "Route “start” answered: idle → collecting");

  /* And new ones as they happen. */
  g_assert_true (akc_chat_source_send (AKC_CHAT_SOURCE (chat), "/name Ada", &error));
  wait_until_idle (AKC_CHAT_SOURCE (chat));
  g_assert_cmpuint (akc_inspector_get_n_rows (inspector), ==, 2);
  second = akc_inspector_dup_row_title (inspector, 1);
  g_assert_cmpstr (second, ==, "Route “finish” answered: collecting → complete");

  /* The fixture it saves is the conversation: akc replay reads it back. */
  fd = g_file_open_tmp ("akc-inspector-XXXXXX.json", &path, &error);
  g_assert_no_error (error);
  close (fd);
  file = g_file_new_for_path (path);
  g_assert_true (akc_inspector_save_fixture (inspector, file, &error));
  g_assert_no_error (error);
  g_assert_true (g_file_get_contents (path, &text, NULL, &error));
  fixture = akc_replay_fixture_parse (text, -1, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (akc_replay_fixture_get_n_entries (fixture), ==, 2);
  g_assert_cmpuint (akc_replay_fixture_get_traces (fixture)->len, ==, 2);
  g_unlink (path);

  /* Another conversation replaces the rows; none shows the empty state. */
  akc_inspector_set_conversation (inspector, NULL, NULL, NULL);
  g_assert_cmpuint (akc_inspector_get_n_rows (inspector), ==, 0);
  g_assert_null (akc_inspector_get_capture (inspector));

  gtk_window_destroy (GTK_WINDOW (inspector));
}

static void
on_done (GObject      *source,
         GAsyncResult *result,
         gpointer      user_data)
{
  *(GAsyncResult **) user_data = g_object_ref (result);
}

static void
test_policy_sentences (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(AkcDemo) demo = akc_demo_new ("hello-world", &error);
  AkcInspector *inspector = akc_inspector_new ();
  g_autoptr(GAsyncResult) result = NULL;
  gboolean found = FALSE;

  g_assert_no_error (error);
  akc_inspector_set_conversation (inspector, NULL, akc_demo_get_trace_capture (demo), NULL);
  /* hello-world grants nothing: the restricted action is denied. */
  {
    g_autoptr(AkcJsonValue) input = akc_json_value_parse ("{}", -1, NULL);
    g_autoptr(AkcConfirmationRecord) record = NULL;
    AkcActionConfirmation *confirmation = akc_demo_get_confirmation (demo);

    akc_action_confirmation_propose_async (confirmation, "restricted-action", input, NULL, on_done, &result);
    WAIT_UNTIL (result != NULL);
    record = akc_action_confirmation_propose_finish (confirmation, result, &error);
    g_assert_null (record);
    g_assert_nonnull (error);
  }
  {
      for (guint i = 0; i < akc_inspector_get_n_rows (inspector); i++)
        {
          g_autofree char *title = akc_inspector_dup_row_title (inspector, i);

          found |= g_strcmp0 (title, "Policy denied “restricted-action”: missing-context") == 0;
        }
  }
  g_assert_true (found);
  gtk_window_destroy (GTK_WINDOW (inspector));
}

/* A conversation of a backend (here the provider path: a chat whose
 * adapter the capture wraps, as the application opens it): its wire
 * events in sentences on the second page, bounded as the capture's ring,
 * its turns on the first, and a saved fixture redacted with the fields
 * the preferences name. */
static void
test_wire_events (void)
{
  g_autoptr(GSettings) settings = g_settings_new ("io.agentskit.Chat");
  g_autoptr(AkcTraceCapture) capture = akc_trace_capture_new (NULL);
  g_autoptr(AkcAdapter) echo = akc_echo_adapter_new ();
  g_autoptr(AkcAdapter) traced = akc_trace_capture_wrap_adapter (capture, echo, "provider");
  g_autoptr(AkcChat) chat = akc_chat_new (traced);
  AkcInspector *inspector = akc_inspector_new ();
  g_autoptr(GError) error = NULL;
  g_autofree char *first = NULL;
  g_autofree char *last = NULL;
  g_autofree char *path = NULL;
  g_autofree char *text = NULL;
  g_autofree char *title = NULL;
  g_autoptr(GFile) file = NULL;
  guint n;
  int fd;

  akc_inspector_set_settings (inspector, settings);
  akc_inspector_set_conversation (inspector, "Provider", capture, akc_chat_source_get_messages (AKC_CHAT_SOURCE (chat)));
  gtk_window_present (GTK_WINDOW (inspector));
  g_assert_cmpuint (akc_inspector_get_n_wire_rows (inspector), ==, 0);
  g_assert_cmpstr (akc_inspector_get_visible_page (inspector), ==, "traces");

  g_assert_true (akc_chat_source_send (AKC_CHAT_SOURCE (chat), "hello", &error));
  g_assert_no_error (error);
  wait_until_idle (AKC_CHAT_SOURCE (chat));

  n = akc_inspector_get_n_wire_rows (inspector);
  g_assert_cmpuint (n, ==, akc_trace_capture_get_n_wire_events (capture));
  g_assert_cmpuint (n, >=, 3);
  first = akc_inspector_dup_wire_row_text (inspector, 0);
  g_assert_true (g_str_has_prefix (first, "Sent request to the model provider\n#0 at "));
  last = akc_inspector_dup_wire_row_text (inspector, n - 1);
  g_assert_true (g_str_has_prefix (last, "Received done from the model provider\n"));
  g_assert_cmpuint (akc_inspector_get_n_rows (inspector), ==, 1);
  title = akc_inspector_dup_row_title (inspector, 0);
  g_assert_cmpstr (title, ==, "The model answered: streaming → done");

  /* Alt+2 shows the wire page. */
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (inspector), "inspector.page", "s", "wire"));
  g_assert_cmpstr (akc_inspector_get_visible_page (inspector), ==, "wire");

  /* The view keeps no more than the capture's ring. */
  akc_trace_capture_set_max_wire_events (capture, 3);
  g_assert_true (akc_chat_source_send (AKC_CHAT_SOURCE (chat), "again", &error));
  wait_until_idle (AKC_CHAT_SOURCE (chat));
  g_assert_cmpuint (akc_inspector_get_n_wire_rows (inspector), ==, 3);

  /* What the preferences name is redacted from the saved fixture, at any depth. */
  g_settings_set_strv (settings, "replay-redact-fields", (const char * const[]) { "CONTENT", NULL });
  fd = g_file_open_tmp ("akc-inspector-XXXXXX.json", &path, &error);
  g_assert_no_error (error);
  close (fd);
  file = g_file_new_for_path (path);
  g_assert_true (akc_inspector_save_fixture (inspector, file, &error));
  g_assert_no_error (error);
  g_assert_true (g_file_get_contents (path, &text, NULL, &error));
  g_assert_null (strstr (text, "AgentsKit received"));
  g_assert_null (strstr (text, "hello"));
  g_assert_nonnull (strstr (text, "[REDACTED]"));
  {
    g_autoptr(AkcReplayFixture) fixture = akc_replay_fixture_parse (text, -1, &error);

    g_assert_no_error (error);
    g_assert_cmpuint (akc_replay_fixture_get_n_entries (fixture), ==, 2);
    g_assert_cmpuint (akc_replay_fixture_get_traces (fixture)->len, ==, 2);
  }
  g_unlink (path);
  g_settings_reset (settings, "replay-redact-fields");

  gtk_window_destroy (GTK_WINDOW (inspector));
}

/* A conversation the turn server keeps: the inspector says plainly that
 * its routes and policy are the server's and not seen here, and shows
 * what the protocol carries (a diagnostic in a sentence); a conversation
 * decided here has no such notice. */
static void
test_server_decides (void)
{
  g_autoptr(AkcTraceCapture) capture = akc_trace_capture_new (NULL);
  g_autoptr(AkcTraceCapture) local = akc_trace_capture_new (NULL);
  g_autoptr(AkcJsonValue) diagnostic = akc_json_value_parse ("{\"event\":\"server.turn.diagnostic\",\"code\":\"ADAPTER_FAILED\","
                                                             "\"message\":\"The model went away.\",\"retryable\":true}", -1, NULL);
  g_autoptr(AkcTraceRecord) record = NULL;
  AkcInspector *inspector = akc_inspector_new ();
  g_autoptr(GError) error = NULL;
  g_autofree char *notice = NULL;
  g_autofree char *ask_notice = NULL;
  g_autofree char *title = NULL;

  akc_inspector_set_conversation (inspector, "Local", local, NULL);
  gtk_window_present (GTK_WINDOW (inspector));
  g_assert_null (akc_inspector_dup_notice (inspector));

  akc_trace_capture_set_decided_by (capture, "turn");
  akc_inspector_set_conversation (inspector, "Turn server", capture, NULL);
  notice = akc_inspector_dup_notice (inspector);
  g_assert_nonnull (notice);
  g_assert_true (g_str_has_prefix (notice, "The routes and policy decisions of this conversation are the turn server’s: "
                                           "they run there and are not seen here."));
  record = akc_trace_capture_append (capture, AKC_TRACE_CATEGORY_LIFECYCLE, diagnostic, NULL, NULL, &error);
  g_assert_no_error (error);
  title = akc_inspector_dup_row_title (inspector, 0);
  g_assert_cmpstr (title, ==, "The turn server reported ADAPTER_FAILED: The model went away.");

  /* Wire events that name no type: a request, an HTTP failure, an event. */
  {
    g_autoptr(AkcJsonValue) request = akc_json_value_parse ("{\"model\":\"m\",\"messages\":[]}", -1, NULL);
    g_autoptr(AkcJsonValue) failure = akc_json_value_parse ("{\"status\":401,\"body\":\"no\"}", -1, NULL);
    g_autoptr(AkcJsonValue) chunk = akc_json_value_parse ("{\"object\":\"chat.completion.chunk\"}", -1, NULL);
    g_autofree char *sent = NULL;
    g_autofree char *failed = NULL;
    g_autofree char *received = NULL;

    akc_json_value_unref (akc_trace_capture_add_wire_event (capture, "ask", "sent", request));
    akc_json_value_unref (akc_trace_capture_add_wire_event (capture, "provider", "received", failure));
    akc_json_value_unref (akc_trace_capture_add_wire_event (capture, "provider", "received", chunk));
    sent = akc_inspector_dup_wire_row_text (inspector, 0);
    failed = akc_inspector_dup_wire_row_text (inspector, 1);
    received = akc_inspector_dup_wire_row_text (inspector, 2);
    g_assert_true (g_str_has_prefix (sent, "Sent a request to the Ask service\n"));
    g_assert_true (g_str_has_prefix (failed, "Received HTTP 401 from the model provider\n"));
    g_assert_true (g_str_has_prefix (received, "Received an event from the model provider\n"));
  }

  /* It follows the capture. */
  akc_trace_capture_set_decided_by (capture, "ask");
  ask_notice = akc_inspector_dup_notice (inspector);
  g_assert_true (g_str_has_prefix (ask_notice, "The routes and policy decisions of this conversation are the Ask service’s"));
  akc_inspector_set_conversation (inspector, NULL, NULL, NULL);
  g_assert_null (akc_inspector_dup_notice (inspector));

  gtk_window_destroy (GTK_WINDOW (inspector));
}

int
main (int    argc,
      char **argv)
{
  gtk_test_init (&argc, &argv, NULL);
  adw_init ();

  g_test_add_func ("/inspector/live-records", test_live_records);
  g_test_add_func ("/inspector/policy-sentences", test_policy_sentences);
  g_test_add_func ("/inspector/wire-events", test_wire_events);
  g_test_add_func ("/inspector/server-decides", test_server_decides);

  return g_test_run ();
}
