/* test-preferences.c: the backends' preferences and the conversations on
 * an Ask service and a turn server, in process, against a loopback server
 *
 *   test-preferences                 libsecret's file backend
 *   test-preferences --no-service    no Secret Service at all
 *
 * SPDX-License-Identifier: MIT
 */

#include "config.h"

#include <locale.h>
#include <string.h>
#include <glib/gi18n.h>
#include <glib/gstdio.h>
#include <akc-gtk.h>

#include "akc-test-http-server.h"
#include "akc-backend.h"
#include "akc-conversation-item.h"
#include "akc-window.h"
#include "akc-test-app.h"

#define TOKEN "akc-prefs-secret-token-7f3a"

/* ------------------------------------------------------------------ */
/* Helpers                                                             */
/* ------------------------------------------------------------------ */

/* No setting holds the token (GSettings is never where secrets go). */
static void
assert_settings_clean (GSettings *settings)
{
  g_autoptr(GSettingsSchema) schema = NULL;
  g_auto(GStrv) keys = NULL;

  g_object_get (settings, "settings-schema", &schema, NULL);
  keys = g_settings_schema_list_keys (schema);
  for (guint i = 0; keys[i] != NULL; i++)
    {
      g_autoptr(GVariant) value = g_settings_get_value (settings, keys[i]);
      g_autofree char *text = g_variant_print (value, FALSE);

      g_assert_null (strstr (text, TOKEN));
    }
}

static void
respond_answer (AkcTestHttpServer *server,
                const char        *answer)
{
  AkcTestResponse *response = akc_test_response_new (200, "application/x-ndjson");
  g_autofree char *line = g_strdup_printf ("{\"type\":\"text\",\"delta\":\"%s\"}\n", answer);

  akc_test_response_add_chunk (response, line, -1);
  akc_test_response_add_chunk (response, "{\"type\":\"done\"}\n", -1);
  akc_test_http_server_set_response (server, response);
}

static void
respond_status (AkcTestHttpServer *server,
                guint              status)
{
  AkcTestResponse *response = akc_test_response_new (status, "application/json");

  akc_test_response_add_chunk (response, "{}", -1);
  akc_test_http_server_set_response (server, response);
}

/* The Developer Tools of a backend's conversation (issue 19): its wire
 * events went both ways, with neither the token nor what was typed, and
 * its turns are traced. */
static void
assert_traced (AkcWindow  *window,
               const char *typed,
               guint       min_turns)
{
  AkcTraceCapture *capture = akc_conversation_item_get_trace_capture (akc_window_get_item (window));
  g_autoptr(GPtrArray) events = NULL;
  gboolean sent = FALSE, received = FALSE;

  g_assert_nonnull (capture);
  events = akc_trace_capture_dup_wire_events (capture);
  for (guint i = 0; i < events->len; i++)
    {
      g_autofree char *text = akc_json_value_to_canonical (g_ptr_array_index (events, i), NULL);

      g_assert_null (strstr (text, TOKEN));
      sent |= strstr (text, "\"direction\":\"sent\"") != NULL;
      received |= strstr (text, "\"direction\":\"received\"") != NULL;
      if (strstr (text, "client.turn.submit") != NULL)
        g_assert_null (strstr (text, typed));
    }
  g_assert_true (sent);
  g_assert_true (received);
  g_assert_cmpuint (akc_trace_capture_get_n_records (capture), >=, min_turns);
}

static AkcWindow *
new_window (void)
{
  AkcWindow *window = g_object_new (AKC_TYPE_WINDOW, NULL);

  gtk_window_present (GTK_WINDOW (window));
  return window;
}

static void
reset_settings (void)
{
  g_autoptr(GSettings) settings = g_settings_new (APP_ID);
  const char *keys[] = { "ask-endpoint", "ask-corpus", "ask-persona", "turn-endpoint", "turn-session", "conversation" };

  for (guint i = 0; i < G_N_ELEMENTS (keys); i++)
    g_settings_reset (settings, keys[i]);
}

/* ------------------------------------------------------------------ */
/* Tests                                                               */
/* ------------------------------------------------------------------ */

/* An invalid URL is never saved, and the row says what to fix; a valid
 * one is saved; the token goes to the keyring, and an empty one removes
 * it; the connection state follows the server's answers. */
static void
test_preferences_ask (void)
{
  AkcTestHttpServer *server = akc_test_http_server_new ();
  g_autoptr(GSettings) settings = g_settings_new (APP_ID);
  AkcWindow *window;
  AkcBackend *backend;
  GtkWindow *prefs;
  GtkWidget *url, *url_error, *token, *corpus, *status;
  g_autofree char *endpoint = g_strconcat (akc_test_http_server_get_base_uri (server), "/v1/ask", NULL);
  g_autofree char *bearer = g_strconcat ("Bearer ", TOKEN, NULL);
  g_autofree char *saved = NULL;
  g_autofree char *stored = NULL;
  AkcChatSource *source;
  struct { const char *text; const char *says; } invalid[] = {
    { "example.com/v1/ask", "https://" },
    { "/v1/ask", "https://" },
    { "ftp://example.com/v1/ask", "https://" },
    { "https://", "server name" },
    { "https://user:" TOKEN "@example.com/v1/ask", "Token field" },
  };

  reset_settings ();
  window = new_window ();
  backend = akc_window_get_backend (window, AKC_BACKEND_KIND_ASK);
  g_assert_cmpint (akc_backend_get_state (backend), ==, AKC_BACKEND_STATE_NOT_CONFIGURED);

  /* Not set up: the conversation is refused, and says where to set it up. */
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.conversation", "s", "ask"));
  g_assert_cmpstr (akc_window_get_conversation (window), ==, "hello-world");

  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.preferences", NULL));
  prefs = akc_window_show_preferences (window);
  g_assert_true (gtk_widget_get_visible (GTK_WIDGET (prefs)));
  url = find_row (prefs, "URL", 0);
  token = find_row (prefs, "Token", 0);
  corpus = find_row (prefs, "Corpus", 0);
  status = find_row (prefs, "Connection", 0);
  g_assert_cmpstr (adw_action_row_get_subtitle (ADW_ACTION_ROW (status)), ==,
                   "Not configured: enter the URL of the Ask service.");

  for (guint i = 0; i < G_N_ELEMENTS (invalid); i++)
    {
      g_autofree char *value = NULL;

      apply_row (url, invalid[i].text);
      url_error = gtk_widget_get_next_sibling (url);
      g_assert_true (gtk_widget_get_visible (url_error));
      g_assert_nonnull (strstr (adw_preferences_row_get_title (ADW_PREFERENCES_ROW (url_error)), invalid[i].says));
      g_assert_null (strstr (adw_preferences_row_get_title (ADW_PREFERENCES_ROW (url_error)), TOKEN));
      g_assert_true (gtk_widget_has_css_class (url, "error"));
      value = g_settings_get_string (settings, "ask-endpoint");
      g_assert_cmpstr (value, ==, "");
      g_assert_false (akc_backend_get_configured (backend));
    }

  /* Editing clears the error. */
  gtk_editable_set_text (GTK_EDITABLE (url), "https://");
  g_assert_false (gtk_widget_get_visible (gtk_widget_get_next_sibling (url)));
  g_assert_false (gtk_widget_has_css_class (url, "error"));

  /* A valid URL is saved, and its token looked up (there is none). */
  apply_row (url, endpoint);
  saved = g_settings_get_string (settings, "ask-endpoint");
  g_assert_cmpstr (saved, ==, endpoint);
  wait_backend_state_not (backend, AKC_BACKEND_STATE_LOOKING_UP);
  g_assert_cmpint (akc_backend_get_state (backend), ==, AKC_BACKEND_STATE_READY);
  g_assert_false (akc_backend_get_has_token (backend));

  /* The corpus is a setting, sent as a query parameter. */
  apply_row (corpus, "docs");
  g_clear_pointer (&saved, g_free);
  saved = g_settings_get_string (settings, "ask-corpus");
  g_assert_cmpstr (saved, ==, "docs");

  /* The token goes to the keyring, not the settings. */
  apply_row (token, TOKEN);
  WAIT_UNTIL (akc_backend_get_has_token (backend));
  stored = akc_test_lookup_secret (endpoint, AKC_CREDENTIAL_KIND_BEARER_TOKEN);
  g_assert_cmpstr (stored, ==, TOKEN);
  assert_settings_clean (settings);
  g_assert_cmpstr (adw_action_row_get_subtitle (ADW_ACTION_ROW (status)), ==,
                   "Not connected yet: the next message connects, with the stored token.");

  /* The Ask conversation answers from the server, with the token. */
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.conversation", "s", "ask"));
  g_assert_cmpstr (akc_window_get_conversation (window), ==, "ask");
  source = akc_window_get_source (window);
  g_assert_true (AKC_IS_CHAT (source));
  respond_answer (server, "Answer from the Ask service");
  g_assert_true (akc_chat_source_send (source, "What is AgentsKit?", NULL));
  wait_until_idle (source);
  g_assert_cmpuint (akc_test_http_server_get_n_requests (server), ==, 1);
  g_assert_cmpstr (akc_test_http_server_get_header (server, "Authorization"), ==, bearer);
  g_assert_cmpstr (akc_test_http_server_get_path_query (server), ==, "/v1/ask?corpus=docs");
  wait_backend_state (backend, AKC_BACKEND_STATE_CONNECTED);
  g_assert_cmpstr (adw_action_row_get_subtitle (ADW_ACTION_ROW (status)), ==, "Connected");
  WAIT_UNTIL (find_widget (GTK_WIDGET (window), is_label_with_text, "Answer from the Ask service") != NULL);
  assert_traced (window, "What is AgentsKit?", 1);

  /* A refused token: the state says to enter a new one. */
  respond_status (server, 401);
  g_assert_true (akc_chat_source_send (source, "Again?", NULL));
  wait_until_idle (source);
  wait_backend_state (backend, AKC_BACKEND_STATE_UNAUTHORIZED);
  g_assert_cmpstr (adw_action_row_get_subtitle (ADW_ACTION_ROW (status)), ==,
                   "The token was refused (401): enter a new token.");

  /* The other conversations keep theirs; the Ask one is kept too. */
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.conversation", "s", "hello-world"));
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.conversation", "s", "ask"));
  g_assert_true (akc_window_get_source (window) == source);
  g_assert_cmpuint (g_list_model_get_n_items (akc_chat_source_get_messages (source)), ==, 4);

  /* An empty token removes it from the keyring. */
  apply_row (token, "");
  WAIT_UNTIL (!akc_backend_get_has_token (backend));
  g_clear_pointer (&stored, g_free);
  stored = akc_test_lookup_secret (endpoint, AKC_CREDENTIAL_KIND_BEARER_TOKEN);
  g_assert_null (stored);

  /* Clearing the URL ends the Ask conversation's setup. */
  apply_row (url, "");
  g_assert_false (akc_backend_get_configured (backend));
  g_assert_cmpstr (akc_window_get_conversation (window), ==, "hello-world");

  gtk_window_destroy (GTK_WINDOW (window));
  spin ();
  akc_test_http_server_free (server);
}

static gboolean
is_retry (GtkWidget     *widget,
          gconstpointer  data)
{
  return GTK_IS_ACTIONABLE (widget) && gtk_widget_is_visible (widget) && gtk_widget_is_sensitive (widget) &&
         g_strcmp0 (gtk_actionable_get_action_name (GTK_ACTIONABLE (widget)), "chat.retry") == 0;
}

/* A Retry the person can reach. */
static GtkWidget *
find_retry (GtkWidget *root)
{
  return find_widget (root, is_retry, NULL);
}

static AkcMessage *
last_message (AkcChatSource *source)
{
  GListModel *messages = akc_chat_source_get_messages (source);
  guint n = g_list_model_get_n_items (messages);

  g_assert_cmpuint (n, >, 0);
  return g_list_model_get_item (messages, n - 1);
}

/* Issue 12 item 6: an Ask answer whose stream ends without its `done` is
 * shown cut off (the message says so, the conversation offers Retry), and
 * is still cut off after a restart, not a finished answer. */
static void
test_ask_cut_off (void)
{
  AkcTestHttpServer *server = akc_test_http_server_new ();
  g_autoptr(GSettings) settings = g_settings_new (APP_ID);
  g_autofree char *folder = g_dir_make_tmp ("akc-prefs-XXXXXX", NULL);
  g_autofree char *path = g_build_filename (folder, "history.sqlite3", NULL);
  g_autofree char *endpoint = g_strconcat (akc_test_http_server_get_base_uri (server), "/v1/ask", NULL);
  g_autoptr(AkcMessage) last = NULL;
  AkcTestResponse *response;
  AkcChatMemory *memory;
  AkcWindow *window;
  AkcChatSource *source;

  reset_settings ();
  g_settings_set_string (settings, "ask-endpoint", endpoint);
  memory = akc_test_open (path);
  window = new_window ();
  akc_window_set_memory (window, memory);
  wait_backend_state_not (akc_window_get_backend (window, AKC_BACKEND_KIND_ASK), AKC_BACKEND_STATE_LOOKING_UP);
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.conversation", "s", "ask"));
  g_assert_cmpstr (akc_window_get_conversation (window), ==, "ask");
  source = akc_window_get_source (window);
  WAIT_UNTIL (akc_chat_history_get_loaded (akc_window_get_history (window)));

  response = akc_test_response_new (200, "application/x-ndjson");
  akc_test_response_add_chunk (response, "{\"type\":\"text\",\"delta\":\"The first half of the answer\"}\n", -1);
  akc_test_http_server_set_response (server, response);
  g_assert_true (akc_chat_source_send (source, "Tell me everything", NULL));
  wait_until_idle (source);

  g_assert_cmpint (akc_chat_source_get_status (source), ==, AKC_CHAT_STATUS_ERROR);
  g_assert_cmpstr (akc_diagnostic_get_code (akc_chat_source_get_error (source)), ==, "REPLY_CUT_OFF");
  last = last_message (source);
  g_assert_cmpint (akc_message_get_status (last), ==, AKC_MESSAGE_STATUS_ERROR);
  g_clear_object (&last);
  WAIT_UNTIL (find_widget (GTK_WIDGET (window), is_visible_label, "The first half of the answer") != NULL);
  /* The message says so, the conversation's error too, with Retry. */
  g_assert_nonnull (find_widget (GTK_WIDGET (window), is_visible_label, "The answer was cut off"));
  g_assert_nonnull (find_widget (GTK_WIDGET (window), is_visible_label,
                                 "The answer was cut off: the server ended it before it was complete."));
  g_assert_nonnull (find_retry (GTK_WIDGET (window)));
  {
    g_autoptr(GAsyncResult) result = NULL;

    akc_chat_history_flush_async (akc_window_get_history (window), NULL, akc_test_store_result, &result);
    WAIT_UNTIL (result != NULL);
  }
  gtk_window_destroy (GTK_WINDOW (window));
  spin ();
  g_object_unref (memory);

  /* Restart: still cut off, saying so as before. */
  memory = akc_test_open (path);
  window = new_window ();
  akc_window_set_memory (window, memory);
  wait_backend_state_not (akc_window_get_backend (window, AKC_BACKEND_KIND_ASK), AKC_BACKEND_STATE_LOOKING_UP);
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.conversation", "s", "ask"));
  source = akc_window_get_source (window);
  WAIT_UNTIL (akc_chat_history_get_loaded (akc_window_get_history (window)));
  g_assert_cmpuint (g_list_model_get_n_items (akc_chat_source_get_messages (source)), ==, 2);
  last = last_message (source);
  g_assert_cmpint (akc_message_get_status (last), ==, AKC_MESSAGE_STATUS_ERROR);
  g_assert_false (akc_message_get_stopped (last));
  WAIT_UNTIL (find_widget (GTK_WIDGET (window), is_visible_label, "The first half of the answer") != NULL);
  /* The message says what it said before (issue 15 item 3: the error is
   * kept with it), under what arrived. */
  g_assert_nonnull (find_widget (GTK_WIDGET (window), is_visible_label,
                                 "The answer was cut off: the server ended it before it was complete."));
  g_assert_nonnull (find_retry (GTK_WIDGET (window)));

  gtk_window_destroy (GTK_WINDOW (window));
  spin ();
  g_object_unref (memory);
  g_unlink (path);
  g_rmdir (folder);
  reset_settings ();
  akc_test_http_server_free (server);
}

static char *
snapshot_line (const char *session,
               guint       sequence,
               const char *question,
               const char *answer)
{
  return g_strdup_printf ("{\"protocol\":\"agentskit.chat.turn\",\"version\":1,\"eventId\":\"e%u\","
                          "\"sessionId\":\"%s\",\"turnId\":\"t1\",\"sequence\":%u,"
                          "\"emittedAt\":\"2026-01-01T00:00:00.000Z\",\"event\":\"server.turn.snapshot\","
                          "\"payload\":{\"messages\":["
                          "{\"id\":\"m1\",\"role\":\"user\",\"content\":\"%s\",\"status\":\"complete\",\"createdAt\":\"2026-01-01T00:00:00.000Z\"},"
                          "{\"id\":\"m2\",\"role\":\"assistant\",\"content\":\"%s\",\"status\":\"complete\",\"createdAt\":\"2026-01-01T00:00:00.001Z\"}],"
                          "\"status\":\"complete\",\"usage\":{\"promptTokens\":1,\"completionTokens\":1,\"totalTokens\":2}}}\n",
                          sequence, session, sequence, question, answer);
}

/* The turn conversation is the server's: its snapshots, with the token. */
static void
test_preferences_turn (void)
{
  AkcTestHttpServer *server = akc_test_http_server_new ();
  g_autoptr(GSettings) settings = g_settings_new (APP_ID);
  g_autofree char *endpoint = g_strconcat (akc_test_http_server_get_base_uri (server), "/turn", NULL);
  g_autofree char *bearer = g_strconcat ("Bearer ", TOKEN, NULL);
  g_autofree char *session = NULL;
  g_autofree char *line = NULL;
  AkcTestResponse *response;
  AkcWindow *window;
  AkcBackend *backend;
  GtkWindow *prefs;
  AkcChatSource *source;
  GtkWidget *status;

  reset_settings ();
  window = new_window ();
  backend = akc_window_get_backend (window, AKC_BACKEND_KIND_TURN);
  prefs = akc_window_show_preferences (window);
  status = find_row (prefs, "Connection", 1);

  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.conversation", "s", "turn"));
  g_assert_cmpstr (akc_window_get_conversation (window), ==, "hello-world");

  apply_row (find_row (prefs, "URL", 1), endpoint);
  wait_backend_state_not (backend, AKC_BACKEND_STATE_LOOKING_UP);
  apply_row (find_row (prefs, "Token", 1), TOKEN);
  WAIT_UNTIL (akc_backend_get_has_token (backend));

  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.conversation", "s", "turn"));
  g_assert_cmpstr (akc_window_get_conversation (window), ==, "turn");
  source = akc_window_get_source (window);
  g_assert_true (source == akc_backend_get_turn_client (backend));
  session = g_settings_get_string (settings, "turn-session");
  g_assert_cmpstr (session, !=, "");

  response = akc_test_response_new (200, "application/x-ndjson");
  line = snapshot_line (session, 1, "Hello turn", "Answer from the turn server");
  akc_test_response_add_chunk (response, line, -1);
  akc_test_http_server_set_response (server, response);
  g_assert_true (akc_chat_source_send (source, "Hello turn", NULL));
  WAIT_UNTIL (!(g_list_model_get_n_items (akc_chat_source_get_messages (source)) < 2 || akc_chat_source_get_status (source) == AKC_CHAT_STATUS_STREAMING));
  g_assert_cmpstr (akc_test_http_server_get_header (server, "Authorization"), ==, bearer);
  wait_backend_state (backend, AKC_BACKEND_STATE_CONNECTED);
  g_assert_cmpstr (adw_action_row_get_subtitle (ADW_ACTION_ROW (status)), ==, "Connected");
  WAIT_UNTIL (find_widget (GTK_WIDGET (window), is_label_with_text, "Answer from the turn server") != NULL);
  assert_traced (window, "Hello turn", 1);

  /* A refused token. */
  respond_status (server, 401);
  g_assert_true (akc_chat_source_send (source, "Again", NULL));
  wait_backend_state (backend, AKC_BACKEND_STATE_UNAUTHORIZED);
  g_assert_cmpstr (adw_action_row_get_subtitle (ADW_ACTION_ROW (status)), ==,
                   "The token was refused (401): enter a new token.");
  /* The server's conversation stays. */
  g_assert_cmpuint (g_list_model_get_n_items (akc_chat_source_get_messages (source)), ==, 2);

  /* A new chat is a new session on the server. */
  g_object_add_weak_pointer (G_OBJECT (source), (gpointer *) &source);
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.new-chat", NULL));
  g_assert_true (akc_window_get_source (window) != source);
  g_assert_true (akc_window_get_source (window) == akc_backend_get_turn_client (backend));
  {
    g_autofree char *next = g_settings_get_string (settings, "turn-session");

    g_assert_cmpstr (next, !=, session);
  }
  /* The replaced client and its interaction controller are freed. */
  spin ();
  g_assert_null (source);

  gtk_window_destroy (GTK_WINDOW (window));
  spin ();
  akc_test_http_server_free (server);
}

/* The Developer page: the switch that puts the Developer Tools in the
 * main menu, kept in GSettings, and the fields every saved replay
 * fixture redacts, applied as a list. */
static gboolean
is_connect_model_button (GtkWidget     *widget,
                         gconstpointer  data)
{
  return GTK_IS_BUTTON (widget) && g_strcmp0 (gtk_button_get_label (GTK_BUTTON (widget)), "Connect a _Model…") == 0;
}

/* Connect a Model… on the welcome page opens the preferences on the
 * Providers page, where a model is set up, not on the Ask service's. */
static void
test_connect_model (void)
{
  AkcWindow *window;
  GtkWidget *button;
  GtkWindow *prefs;

  reset_settings ();
  window = new_window ();
  button = find_widget (GTK_WIDGET (window), is_connect_model_button, NULL);
  g_assert_nonnull (button);
  g_assert_cmpstr (gtk_actionable_get_action_name (GTK_ACTIONABLE (button)), ==, "win.connect-model");
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.connect-model", NULL));
  prefs = akc_window_show_preferences (window);
  g_assert_true (gtk_widget_get_visible (GTK_WIDGET (prefs)));
  g_assert_cmpstr (adw_preferences_window_get_visible_page_name (ADW_PREFERENCES_WINDOW (prefs)), ==, "providers");
  g_assert_cmpstr (adw_preferences_page_get_title (adw_preferences_window_get_visible_page (ADW_PREFERENCES_WINDOW (prefs))),
                   ==, "Providers");
  gtk_window_destroy (prefs);
  gtk_window_destroy (GTK_WINDOW (window));
}

static void
test_preferences_developer (void)
{
  g_autoptr(GSettings) settings = g_settings_new (APP_ID);
  AkcWindow *window;
  GtkWindow *prefs;
  GtkWidget *row;
  g_auto(GStrv) fields = NULL;
  g_autofree char *shown = NULL;

  reset_settings ();
  g_settings_reset (settings, "developer-tools");
  g_settings_reset (settings, "replay-redact-fields");
  window = new_window ();
  prefs = akc_window_show_preferences (window);

  row = find_row (prefs, "Show in the Main Menu", 0);
  /* On its own page, as a person opens it. */
  adw_preferences_window_set_visible_page (ADW_PREFERENCES_WINDOW (prefs),
                                           ADW_PREFERENCES_PAGE (gtk_widget_get_ancestor (row, ADW_TYPE_PREFERENCES_PAGE)));
  g_assert_false (g_settings_get_boolean (settings, "developer-tools"));
  g_assert_true (adw_action_row_get_activatable_widget (ADW_ACTION_ROW (row)) != NULL);
  g_assert_true (gtk_widget_activate (row));
  /* The switch turns at the end of its animation. */
  WAIT_UNTIL (g_settings_get_boolean (settings, "developer-tools"));
  gtk_test_accessible_assert_role (GTK_ACCESSIBLE (adw_action_row_get_activatable_widget (ADW_ACTION_ROW (row))),
                                   GTK_ACCESSIBLE_ROLE_SWITCH);
  gtk_test_accessible_assert_property (GTK_ACCESSIBLE (adw_action_row_get_activatable_widget (ADW_ACTION_ROW (row))),
                                       GTK_ACCESSIBLE_PROPERTY_LABEL, "Show the Developer Tools in the Main Menu");

  row = find_row (prefs, "Fields Redacted from Replay Fixtures", 0);
  apply_row (row, " token, Content ,, x-secret ");
  fields = g_settings_get_strv (settings, "replay-redact-fields");
  g_assert_cmpuint (g_strv_length (fields), ==, 3);
  g_assert_cmpstr (fields[0], ==, "token");
  g_assert_cmpstr (fields[1], ==, "Content");
  g_assert_cmpstr (fields[2], ==, "x-secret");
  g_assert_cmpstr (gtk_editable_get_text (GTK_EDITABLE (row)), ==, "token, Content, x-secret");

  g_settings_reset (settings, "developer-tools");
  g_settings_reset (settings, "replay-redact-fields");
  gtk_window_destroy (GTK_WINDOW (window));
  spin ();
}

/* Without a Secret Service the state says so, and what to do. */
static void
test_preferences_no_service (void)
{
  g_autoptr(GSettings) settings = g_settings_new (APP_ID);
  AkcWindow *window;
  AkcBackend *backend;
  GtkWindow *prefs;
  GtkWidget *status;
  const char *description;

  reset_settings ();
  window = new_window ();
  backend = akc_window_get_backend (window, AKC_BACKEND_KIND_ASK);
  prefs = akc_window_show_preferences (window);
  status = find_row (prefs, "Connection", 0);

  apply_row (find_row (prefs, "URL", 0), "https://ask.example/v1/ask");
  wait_backend_state_not (backend, AKC_BACKEND_STATE_LOOKING_UP);
  g_assert_cmpint (akc_backend_get_state (backend), ==, AKC_BACKEND_STATE_NO_KEYRING);
  description = adw_action_row_get_subtitle (ADW_ACTION_ROW (status));
  g_assert_true (g_str_has_prefix (description, "The token cannot be kept: No Secret Service"));
  g_assert_nonnull (strstr (description, "GNOME Keyring"));

  gtk_window_destroy (GTK_WINDOW (window));
  spin ();
}

int
main (int   argc,
      char *argv[])
{
  g_autofree char *dir = NULL;
  gboolean no_service = argc > 1 && g_str_equal (argv[1], "--no-service");

  setlocale (LC_ALL, "");
  bindtextdomain (GETTEXT_PACKAGE, LOCALEDIR);
  bind_textdomain_codeset (GETTEXT_PACKAGE, "UTF-8");
  textdomain (GETTEXT_PACKAGE);

  g_unsetenv ("SECRET_BACKEND");
  g_unsetenv ("SECRET_FILE_TEST_PATH");
  g_unsetenv ("SECRET_FILE_TEST_PASSWORD");
  if (no_service)
    {
      g_setenv ("DBUS_SESSION_BUS_ADDRESS", "unix:path=/nonexistent/akc-dead-bus", TRUE);
      argc--;
      argv[1] = argv[0];
      argv++;
    }
  else
    {
      dir = akc_test_use_file_keyring ("akc-preferences");
    }

  gtk_test_init (&argc, &argv, NULL);
  adw_init ();

  if (no_service)
    {
      g_test_add_func ("/preferences/no-service", test_preferences_no_service);
    }
  else
    {
      g_test_add_func ("/preferences/ask", test_preferences_ask);
      g_test_add_func ("/preferences/ask/cut-off", test_ask_cut_off);
      g_test_add_func ("/preferences/turn", test_preferences_turn);
      g_test_add_func ("/preferences/developer", test_preferences_developer);
      g_test_add_func ("/preferences/connect-model", test_connect_model);
    }

  {
    int rc = g_test_run ();

    akc_test_remove_tree (dir);
    return rc;
  }
}
