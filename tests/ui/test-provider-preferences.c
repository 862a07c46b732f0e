/* test-provider-preferences.c: the Providers page of the preferences and
 * the Model Provider conversation, in process, against a loopback server
 * that answers as Ollama does (issue 15 item 4); the key in libsecret's
 * file backend
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
#include "akc-provider-page.h"
#include "akc-window.h"
#include "akc-test-app.h"

#define KEY "sk-provider-prefs-key-62d0"

/* Waits until the row's subtitle no longer starts with @prefix. */
static const char *
wait_subtitle_not (GtkWidget  *row,
                   const char *prefix)
{
  WAIT_UNTIL (!g_str_has_prefix (adw_action_row_get_subtitle (ADW_ACTION_ROW (row)), prefix));
  return adw_action_row_get_subtitle (ADW_ACTION_ROW (row));
}

static void
test_provider_page (void)
{
  AkcTestHttpServer *server = akc_test_http_server_new ();
  g_autoptr(GSettings) settings = g_settings_new (APP_ID);
  const char *keys[] = { "provider-kind", "provider-url", "provider-model", "conversation" };
  const char *base = akc_test_http_server_get_base_uri (server);
  g_autofree char *bearer = g_strconcat ("Bearer ", KEY, NULL);
  g_autofree char *value = NULL;
  g_autofree char *key = NULL;
  g_autoptr(GError) error = NULL;
  GtkWidget *kind, *url, *key_row, *model, *test, *button, *status;
  AkcChatSource *source;
  AkcBackend *backend;
  AkcWindow *window;
  GtkWindow *prefs;
  const char *said;
  GListModel *messages;

  for (guint i = 0; i < G_N_ELEMENTS (keys); i++)
    g_settings_reset (settings, keys[i]);
  /* No Ollama on this computer (the discard port refuses). */
  akc_provider_page_set_local_ollama_url ("http://127.0.0.1:9");

  window = g_object_new (AKC_TYPE_WINDOW, NULL);
  gtk_window_present (GTK_WINDOW (window));
  backend = akc_window_get_backend (window, AKC_BACKEND_KIND_PROVIDER);
  g_assert_cmpint (akc_backend_get_state (backend), ==, AKC_BACKEND_STATE_NOT_CONFIGURED);

  /* Not set up: refused, and the menu's conversation stays. */
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.conversation", "s", "provider"));
  g_assert_cmpstr (akc_window_get_conversation (window), ==, "hello-world");

  prefs = akc_window_show_preferences (window);
  kind = find_row (prefs, "Kind", 0);
  url = find_row (prefs, "Base URL", 0);
  key_row = find_row (prefs, "API Key", 0);
  model = find_row (prefs, "Default Model", 0);
  test = find_row (prefs, "Test Connection", 0);
  /* The page's own Connection row, after the test (the Ask group has one too). */
  status = gtk_widget_get_next_sibling (test);
  g_assert_true (is_row_titled (status, "Connection"));
  button = find_widget (test, is_button_with_label, "_Test");
  g_assert_nonnull (button);
  g_assert_cmpstr (gtk_accessible_get_accessible_role (GTK_ACCESSIBLE (button)) == GTK_ACCESSIBLE_ROLE_BUTTON
                   ? "button" : "other", ==, "button");

  /* Testing before a URL says what to do. */
  g_signal_emit_by_name (button, "clicked");
  g_assert_cmpstr (adw_action_row_get_subtitle (ADW_ACTION_ROW (test)), ==, "Enter and apply the base URL first.");

  /* The kind is Ollama; an invalid URL is not saved. */
  adw_combo_row_set_selected (ADW_COMBO_ROW (kind), 1);
  value = g_settings_get_string (settings, "provider-kind");
  g_assert_cmpstr (value, ==, "ollama");
  apply_row (url, "ftp://127.0.0.1/");
  g_assert_true (gtk_widget_get_visible (gtk_widget_get_next_sibling (url)));
  g_clear_pointer (&value, g_free);
  value = g_settings_get_string (settings, "provider-url");
  g_assert_cmpstr (value, ==, "");

  apply_row (url, base);
  wait_backend_state_not (backend, AKC_BACKEND_STATE_LOOKING_UP);
  g_assert_cmpint (akc_backend_get_state (backend), ==, AKC_BACKEND_STATE_READY);
  g_assert_nonnull (strstr (adw_action_row_get_subtitle (ADW_ACTION_ROW (status)), "without an API key"));

  /* A refused key: the test says so, exactly. */
  akc_test_http_server_respond (server, 401, "application/json", "{\"error\":\"unauthorized\"}");
  g_signal_emit_by_name (button, "clicked");
  said = wait_subtitle_not (test, "Asking");
  g_assert_nonnull (strstr (said, "refused the API key (401)"));
  g_assert_cmpstr (akc_test_http_server_get_path_query (server), ==, "/api/tags");

  /* The key goes to the keyring (kind api-key, the base URL) and nowhere else. */
  apply_row (key_row, KEY);
  WAIT_UNTIL (akc_backend_get_has_token (backend));
  key = akc_test_lookup_secret (base, AKC_CREDENTIAL_KIND_API_KEY);
  g_assert_cmpstr (key, ==, KEY);
  {
    g_autoptr(GSettingsSchema) schema = NULL;
    g_auto(GStrv) names = NULL;

    g_object_get (settings, "settings-schema", &schema, NULL);
    names = g_settings_schema_list_keys (schema);
    for (guint i = 0; names[i] != NULL; i++)
      {
        g_autoptr(GVariant) setting = g_settings_get_value (settings, names[i]);
        g_autofree char *text = g_variant_print (setting, FALSE);

        g_assert_null (strstr (text, KEY));
      }
  }

  /* Models listed; the first becomes the default model. */
  akc_test_http_server_respond (server, 200, "application/json",
           "{\"models\":[{\"name\":\"qwen3:8b\",\"model\":\"qwen3:8b\"},{\"name\":\"llama3.2:latest\",\"model\":\"llama3.2:latest\"}]}");
  g_signal_emit_by_name (button, "clicked");
  said = wait_subtitle_not (test, "Asking");
  g_assert_cmpstr (said, ==, "Connected: 2 models. llama3.2:latest, qwen3:8b");
  g_assert_cmpstr (akc_test_http_server_get_header (server, "Authorization"), ==, bearer);
  g_clear_pointer (&value, g_free);
  value = g_settings_get_string (settings, "provider-model");
  g_assert_cmpstr (value, ==, "llama3.2:latest");
  g_assert_cmpstr (gtk_editable_get_text (GTK_EDITABLE (model)), ==, "llama3.2:latest");
  apply_row (model, "qwen3:8b");
  g_assert_cmpstr (akc_backend_get_model (backend), ==, "qwen3:8b");
  gtk_window_destroy (prefs);
  spin ();

  /* The conversation: the model in the header, the reply streamed. */
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.conversation", "s", "provider"));
  g_assert_cmpstr (akc_window_get_conversation (window), ==, "provider");
  source = akc_window_get_source (window);
  akc_test_http_server_respond (server, 200, "application/x-ndjson",
           "{\"message\":{\"role\":\"assistant\",\"content\":\"Hello\"},\"done\":false}\n"
           "{\"message\":{\"role\":\"assistant\",\"content\":\" there\"},\"done\":true,\"done_reason\":\"stop\",\"prompt_eval_count\":4,\"eval_count\":2}\n");
  g_assert_true (akc_chat_source_send (source, "hi", &error));
  g_assert_no_error (error);
  WAIT_UNTIL (akc_chat_source_get_status (source) != AKC_CHAT_STATUS_STREAMING);
  messages = akc_chat_source_get_messages (source);
  g_assert_cmpuint (g_list_model_get_n_items (messages), ==, 2);
  {
    g_autoptr(AkcMessage) reply = g_list_model_get_item (messages, 1);

    g_assert_cmpstr (akc_message_get_content (reply), ==, "Hello there");
  }
  g_assert_cmpstr (akc_test_http_server_get_path_query (server), ==, "/api/chat");
  g_assert_cmpstr (akc_test_http_server_get_header (server, "Authorization"), ==, bearer);
  g_assert_cmpint (akc_backend_get_state (backend), ==, AKC_BACKEND_STATE_CONNECTED);

  gtk_window_destroy (GTK_WINDOW (window));
  spin ();
  akc_test_http_server_free (server);
}

/* Nothing set up and an Ollama answers on this computer (a loopback
 * server here): the page offers it, and one click sets it up. */
static void
test_local_ollama (void)
{
  AkcTestHttpServer *server = akc_test_http_server_new ();
  g_autoptr(GSettings) settings = g_settings_new (APP_ID);
  const char *keys[] = { "provider-kind", "provider-url", "provider-model", "conversation" };
  const char *base = akc_test_http_server_get_base_uri (server);
  g_autofree char *value = NULL;
  GtkWidget *offer, *button;
  AkcBackend *backend;
  AkcWindow *window;
  GtkWindow *prefs;

  for (guint i = 0; i < G_N_ELEMENTS (keys); i++)
    g_settings_reset (settings, keys[i]);
  g_settings_set_string (settings, "provider-kind", "openai");
  akc_provider_page_set_local_ollama_url (base);
  akc_test_http_server_respond (server, 200, "application/json",
           "{\"models\":[{\"name\":\"qwen3:8b\",\"model\":\"qwen3:8b\"},{\"name\":\"llama3.2:latest\",\"model\":\"llama3.2:latest\"}]}");

  window = g_object_new (AKC_TYPE_WINDOW, NULL);
  gtk_window_present (GTK_WINDOW (window));
  backend = akc_window_get_backend (window, AKC_BACKEND_KIND_PROVIDER);
  /* The welcome page asks first (the loopback server answers one request
   * at a time). */
  {
    gboolean probing = TRUE;

    WAIT_UNTIL (!(akc_window_get_ollama_offer (window, &probing) != NULL && probing));
  }
  prefs = akc_window_show_preferences (window);
  offer = find_row (prefs, "Ollama Is Running on This Computer", 0);
  WAIT_UNTIL (gtk_widget_get_visible (offer));
  g_assert_cmpstr (akc_test_http_server_get_path_query (server), ==, "/api/tags");
  g_assert_nonnull (strstr (adw_action_row_get_subtitle (ADW_ACTION_ROW (offer)), "llama3.2:latest"));
  button = find_widget (offer, is_button_with_label, "_Connect");
  g_assert_nonnull (button);
  gtk_test_accessible_assert_property (GTK_ACCESSIBLE (button), GTK_ACCESSIBLE_PROPERTY_LABEL,
                                       "Connect to a local Ollama");

  g_signal_emit_by_name (button, "clicked");
  spin ();
  g_assert_false (gtk_widget_get_visible (offer));
  value = g_settings_get_string (settings, "provider-kind");
  g_assert_cmpstr (value, ==, "ollama");
  g_clear_pointer (&value, g_free);
  value = g_settings_get_string (settings, "provider-url");
  g_assert_cmpstr (value, ==, base);
  g_clear_pointer (&value, g_free);
  value = g_settings_get_string (settings, "provider-model");
  g_assert_cmpstr (value, ==, "llama3.2:latest");
  g_assert_cmpstr (gtk_editable_get_text (GTK_EDITABLE (find_row (prefs, "Base URL", 0))), ==, base);
  g_assert_cmpuint (adw_combo_row_get_selected (ADW_COMBO_ROW (find_row (prefs, "Kind", 0))), ==, 1);
  wait_backend_state_not (backend, AKC_BACKEND_STATE_LOOKING_UP);
  wait_backend_state_not (backend, AKC_BACKEND_STATE_NOT_CONFIGURED);
  g_assert_cmpstr (akc_backend_get_model (backend), ==, "llama3.2:latest");
  gtk_window_destroy (prefs);
  spin ();

  /* Set up: no offer the next time. */
  prefs = akc_window_show_preferences (window);
  spin ();
  g_assert_false (gtk_widget_get_visible (find_row (prefs, "Ollama Is Running on This Computer", 0)));
  gtk_window_destroy (prefs);

  gtk_window_destroy (GTK_WINDOW (window));
  spin ();
  akc_test_http_server_free (server);
  akc_provider_page_set_local_ollama_url (NULL);
}

/* The page says whether the default model takes images, for an
 * OpenAI-compatible or Anthropic provider (they do not say it); an Ollama
 * provider says it itself, and the row is not shown. */
static void
test_default_model_images (void)
{
  g_autoptr(GSettings) settings = g_settings_new (APP_ID);
  const char *keys[] = { "provider-kind", "provider-url", "provider-model", "provider-model-images", "conversation" };
  GtkWidget *row;
  GtkSwitch *toggle;
  AkcBackend *backend;
  AkcWindow *window;
  GtkWindow *prefs;

  for (guint i = 0; i < G_N_ELEMENTS (keys); i++)
    g_settings_reset (settings, keys[i]);
  akc_provider_page_set_local_ollama_url ("http://127.0.0.1:9");
  g_settings_set_string (settings, "provider-kind", "anthropic");
  g_settings_set_string (settings, "provider-url", "http://127.0.0.1:9/v1");
  g_settings_set_string (settings, "provider-model", "claude-text");

  window = g_object_new (AKC_TYPE_WINDOW, NULL);
  gtk_window_present (GTK_WINDOW (window));
  backend = akc_window_get_backend (window, AKC_BACKEND_KIND_PROVIDER);
  prefs = akc_window_show_preferences (window);
  row = find_row (prefs, "Default Model Takes Images", 0);
  toggle = GTK_SWITCH (find_by_type (row, GTK_TYPE_SWITCH));
  g_assert_nonnull (toggle);
  g_assert_true (gtk_widget_get_visible (row));
  g_assert_true (gtk_switch_get_active (toggle));
  gtk_test_accessible_assert_property (GTK_ACCESSIBLE (toggle), GTK_ACCESSIBLE_PROPERTY_LABEL,
                                       "Default Model Takes Images");

  gtk_switch_set_active (toggle, FALSE);
  spin ();
  g_assert_false (akc_backend_get_model_takes_images (backend, "claude-text"));
  g_assert_true (akc_backend_get_model_takes_images (backend, "claude-vision"));

  /* Another default model: its own answer. */
  g_settings_set_string (settings, "provider-model", "claude-vision");
  spin ();
  g_assert_true (gtk_switch_get_active (toggle));
  g_settings_set_string (settings, "provider-model", "claude-text");
  spin ();
  g_assert_false (gtk_switch_get_active (toggle));

  /* Ollama says it itself. */
  g_settings_set_string (settings, "provider-kind", "ollama");
  spin ();
  g_assert_false (gtk_widget_get_visible (row));

  gtk_window_destroy (prefs);
  gtk_window_destroy (GTK_WINDOW (window));
  spin ();
  for (guint i = 0; i < G_N_ELEMENTS (keys); i++)
    g_settings_reset (settings, keys[i]);
  akc_provider_page_set_local_ollama_url (NULL);
}

int
main (int   argc,
      char *argv[])
{
  g_autofree char *dir = NULL;
  int rc;

  setlocale (LC_ALL, "");
  bindtextdomain (GETTEXT_PACKAGE, LOCALEDIR);
  bind_textdomain_codeset (GETTEXT_PACKAGE, "UTF-8");
  textdomain (GETTEXT_PACKAGE);

  dir = akc_test_use_file_keyring ("akc-provider-prefs");

  gtk_test_init (&argc, &argv, NULL);
  adw_init ();

  g_test_add_func ("/preferences/provider", test_provider_page);
  g_test_add_func ("/preferences/provider/local-ollama", test_local_ollama);
  g_test_add_func ("/preferences/provider/default-model-images", test_default_model_images);

  rc = g_test_run ();
  akc_test_remove_tree (dir);
  return rc;
}
