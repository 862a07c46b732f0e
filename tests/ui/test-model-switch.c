/* test-model-switch.c: the model of a provider conversation (issue 15
 * items 1, 2, 3, 5): the header's model switch against a loopback
 * OpenAI-compatible server, the model kept with the conversation across a
 * restart, the first-run offer of a local Ollama (asked once for all the
 * windows), the New Chat With… menu's models, and a model that takes no
 * images
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
#include "akc-app-session.h"
#include "akc-backend.h"
#include "akc-model-switch.h"
#include "akc-provider-page.h"
#include "akc-window.h"
#include "akc-test-app.h"

static char *folder;

static const char * const keys[] = { "provider-kind", "provider-url", "provider-model", "provider-model-images",
                                     "conversation" };

static void
reset_settings (GSettings *settings)
{
  for (guint i = 0; i < G_N_ELEMENTS (keys); i++)
    g_settings_reset (settings, keys[i]);
}

/* Closes @window, then its session and history as the application does
 * at quit. */
static void
close_window (AkcWindow     *window,
              AkcAppSession *session,
              AkcChatMemory *memory)
{
  gtk_window_destroy (GTK_WINDOW (window));
  spin ();
  akc_test_app_session_close (session, memory);
  g_object_unref (session);
}

static void
wait_backend (AkcBackend *backend)
{
  WAIT_UNTIL (!(akc_backend_get_state (backend) == AKC_BACKEND_STATE_LOOKING_UP || akc_backend_get_state (backend) == AKC_BACKEND_STATE_NOT_CONFIGURED));
}

static void
wait_listed (AkcModelSwitch *model_switch)
{
  WAIT_UNTIL (!akc_model_switch_get_loading (model_switch));
  spin ();
}

static void
wait_loaded (AkcConversationItem *item)
{
  WAIT_UNTIL (!(akc_conversation_item_get_history (item) == NULL || !akc_chat_history_get_loaded (akc_conversation_item_get_history (item))));
}

/* What a person who set up an OpenAI-compatible provider at @base, its
 * default model @model, has set, on a computer where no Ollama answers
 * (the discard port refuses at once). */
static void
use_openai_provider (GSettings  *settings,
                     const char *base,
                     const char *model)
{
  reset_settings (settings);
  akc_provider_page_set_local_ollama_url ("http://127.0.0.1:9");
  g_settings_set_string (settings, "provider-kind", "openai");
  g_settings_set_string (settings, "provider-url", base);
  g_settings_set_string (settings, "provider-model", model);
}

/* A window of @session, @width × @height (its default size for 0),
 * presented, once its provider is looked up. */
static AkcWindow *
present_window (AkcAppSession *session,
                int            width,
                int            height)
{
  AkcWindow *window;

  if (width > 0)
    window = g_object_new (AKC_TYPE_WINDOW, "session", session, "default-width", width, "default-height", height, NULL);
  else
    window = g_object_new (AKC_TYPE_WINDOW, "session", session, NULL);
  gtk_window_present (GTK_WINDOW (window));
  wait_backend (akc_window_get_backend (window, AKC_BACKEND_KIND_PROVIDER));
  return window;
}

/* Opens the provider's conversation in @window and waits until its
 * history is read. */
static void
open_provider_conversation (AkcWindow *window)
{
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.conversation", "s", "provider"));
  wait_loaded (akc_window_get_item (window));
}

/* Closes @window, its session and history, stops @server and puts the
 * settings back, at the end of a test. */
static void
close_all (AkcWindow         *window,
           AkcAppSession     *session,
           AkcChatMemory     *memory,
           AkcTestHttpServer *server,
           GSettings         *settings)
{
  close_window (window, session, memory);
  akc_test_http_server_free (server);
  akc_provider_page_set_local_ollama_url (NULL);
  reset_settings (settings);
}

/* The window narrows to 360 px, where it shows one pane. */
static void
assert_fits_narrow (AkcWindow *window)
{
  int minimum;

  spin ();
  gtk_widget_measure (GTK_WIDGET (window), GTK_ORIENTATION_HORIZONTAL, -1, &minimum, NULL, NULL, NULL);
  g_test_message ("narrowest window: %d px", minimum);
  g_assert_cmpint (minimum, <=, 360);
}

static GtkWidget *
model_row (AkcModelSwitch *model_switch,
           const char     *model)
{
  GtkWidget *list = akc_model_switch_get_list (model_switch);

  for (GtkWidget *row = gtk_widget_get_first_child (list); row != NULL; row = gtk_widget_get_next_sibling (row))
    if (g_strcmp0 (g_object_get_data (G_OBJECT (row), "akc-model"), model) == 0)
      return row;
  return NULL;
}

static guint
n_rows (AkcModelSwitch *model_switch)
{
  guint n = 0;

  for (GtkWidget *row = gtk_widget_get_first_child (akc_model_switch_get_list (model_switch)); row != NULL;
       row = gtk_widget_get_next_sibling (row))
    n++;
  return n;
}

/* The model the last request asked for. */
static char *
requested_model (AkcTestHttpServer *server)
{
  GBytes *body = akc_test_http_server_get_body (server);
  g_autoptr(AkcJsonValue) json = NULL;
  AkcJsonValue *model;
  gsize length = 0;
  const char *data;

  g_assert_nonnull (body);
  data = g_bytes_get_data (body, &length);
  json = akc_json_value_parse (data, (gssize) length, NULL);
  g_assert_nonnull (json);
  model = akc_json_value_get_member (json, "model");
  g_assert_nonnull (model);
  return g_strdup (akc_json_value_get_string (model, NULL));
}

#define SSE_REPLY \
  "data: {\"choices\":[{\"index\":0,\"delta\":{\"role\":\"assistant\",\"content\":\"Hi\"},\"finish_reason\":null}]}\n\n" \
  "data: {\"choices\":[{\"index\":0,\"delta\":{},\"finish_reason\":\"stop\"}]}\n\n" \
  "data: [DONE]\n\n"

static void
send_and_wait (AkcChatSource     *source,
               const char        *text)
{
  g_autoptr(GError) error = NULL;

  g_assert_true (akc_chat_source_send (source, text, &error));
  g_assert_no_error (error);
  WAIT_UNTIL (akc_chat_source_get_status (source) != AKC_CHAT_STATUS_STREAMING);
  g_assert_cmpint (akc_chat_source_get_status (source), ==, AKC_CHAT_STATUS_IDLE);
}

/* The header shows the conversation's model; its list comes from
 * GET /models (or says why not); choosing one switches that conversation,
 * whose next turn asks for it; after a restart it still does. */
static void
test_model_switch (void)
{
  AkcTestHttpServer *server = akc_test_http_server_new ();
  g_autoptr(GSettings) settings = g_settings_new (APP_ID);
  g_autofree char *base = g_strconcat (akc_test_http_server_get_base_uri (server), "/v1", NULL);
  g_autofree char *path = g_build_filename (folder, "switch.sqlite3", NULL);
  g_autofree char *id = NULL;
  g_autofree char *model = NULL;
  AkcChatMemory *memory = akc_test_open (path);
  AkcAppSession *session = akc_test_app_session_new (memory);
  AkcModelSwitch *model_switch;
  AkcConversationItem *item;
  GtkWidget *status, *row, *focus;
  GtkMenuButton *button;
  AkcWindow *window;

  use_openai_provider (settings, base, "gpt-a");

  window = present_window (session, 0, 0);
  model_switch = akc_window_get_model_switch (window);

  /* A demo shows no model. */
  g_assert_false (gtk_widget_get_visible (GTK_WIDGET (model_switch)));

  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.conversation", "s", "provider"));
  item = akc_window_get_item (window);
  id = g_strdup (akc_conversation_item_get_id (item));
  wait_loaded (item);
  g_assert_cmpstr (akc_conversation_item_get_model (item), ==, "gpt-a");
  g_assert_cmpstr (akc_conversation_item_get_provider_kind (item), ==, "openai");
  g_assert_true (gtk_widget_get_visible (GTK_WIDGET (model_switch)));
  g_assert_nonnull (find_widget (GTK_WIDGET (model_switch), is_label_with_prefix, "gpt-a"));
  /* Its popover is built when it first opens, not with the window. */
  button = GTK_MENU_BUTTON (gtk_widget_get_first_child (GTK_WIDGET (model_switch)));
  g_assert_null (gtk_menu_button_get_popover (button));
  /* The model in the header leaves the window its narrow width (360 px,
   * one pane), also with a long name. */
  assert_fits_narrow (window);
  /* A short name is shown whole. */
  spin ();
  g_assert_false (pango_layout_is_ellipsized (gtk_label_get_layout (GTK_LABEL (find_widget (GTK_WIDGET (model_switch), is_label_with_prefix, "gpt-a")))));
  akc_app_session_set_conversation_model (session, item, "llama3.2-vision:90b-instruct-q4_K_M");
  assert_fits_narrow (window);
  akc_app_session_set_conversation_model (session, item, "gpt-a");

  /* The list cannot be fetched: the popover says why, as an alert, and
   * offers to try again; the model stays. */
  akc_test_http_server_respond (server, 500, "application/json", "{\"error\":{\"message\":\"overloaded\",\"type\":\"server_error\"}}");
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.switch-model", NULL));
  wait_listed (model_switch);
  g_assert_nonnull (gtk_menu_button_get_popover (button));
  g_assert_true (gtk_widget_get_visible (GTK_WIDGET (gtk_menu_button_get_popover (button))));
  status = GTK_WIDGET (akc_model_switch_get_status (model_switch));
  g_assert_true (gtk_widget_get_visible (status));
  g_assert_true (g_str_has_prefix (gtk_label_get_text (GTK_LABEL (status)), "The models could not be listed."));
  g_assert_nonnull (strstr (gtk_label_get_text (GTK_LABEL (status)), "500"));
  gtk_test_accessible_assert_role (GTK_ACCESSIBLE (status), GTK_ACCESSIBLE_ROLE_ALERT);
  g_assert_cmpstr (akc_test_http_server_get_path_query (server), ==, "/v1/models");
  g_assert_cmpuint (n_rows (model_switch), ==, 0);
  g_assert_cmpstr (akc_conversation_item_get_model (item), ==, "gpt-a");

  /* Trying again lists them, with the one in use marked, and the keyboard
   * on it. */
  akc_test_http_server_respond (server, 200, "application/json",
           "{\"object\":\"list\",\"data\":[{\"id\":\"gpt-b\",\"object\":\"model\"},{\"id\":\"gpt-a\",\"object\":\"model\"}]}");
  g_signal_emit_by_name (find_widget (GTK_WIDGET (gtk_widget_get_ancestor (status, GTK_TYPE_POPOVER)), is_button_with_label, "_Try Again"),
                         "clicked");
  wait_listed (model_switch);
  g_assert_false (gtk_widget_get_visible (status));
  g_assert_cmpuint (n_rows (model_switch), ==, 2);
  row = model_row (model_switch, "gpt-a");
  gtk_test_accessible_assert_property (GTK_ACCESSIBLE (row), GTK_ACCESSIBLE_PROPERTY_LABEL, "gpt-a, in use");
  gtk_test_accessible_assert_property (GTK_ACCESSIBLE (model_row (model_switch, "gpt-b")),
                                       GTK_ACCESSIBLE_PROPERTY_LABEL, "gpt-b");
  focus = gtk_root_get_focus (GTK_ROOT (window));
  g_assert_true (focus == row || (focus != NULL && gtk_widget_is_ancestor (focus, row)));

  /* Down, then Enter: what a row does when it is activated. */
  row = model_row (model_switch, "gpt-b");
  gtk_widget_grab_focus (row);
  gtk_widget_activate (row);
  spin ();
  g_assert_cmpstr (akc_conversation_item_get_model (item), ==, "gpt-b");
  g_assert_nonnull (find_widget (GTK_WIDGET (model_switch), is_label_with_prefix, "gpt-b"));
  /* The sidebar says which model. */
  g_assert_nonnull (find_widget (GTK_WIDGET (window), is_label_with_prefix, "gpt-b ·"));

  /* The next turn asks for it; the default model is still the other. */
  akc_test_http_server_respond (server, 200, "text/event-stream", SSE_REPLY);
  send_and_wait (akc_window_get_source (window), "hello");
  g_assert_cmpstr (akc_test_http_server_get_path_query (server), ==, "/v1/chat/completions");
  model = requested_model (server);
  g_assert_cmpstr (model, ==, "gpt-b");
  g_clear_pointer (&model, g_free);
  g_assert_cmpstr (akc_backend_get_model (akc_window_get_backend (window, AKC_BACKEND_KIND_PROVIDER)), ==, "gpt-a");

  /* A new default model changes nothing for this conversation. */
  g_settings_set_string (settings, "provider-model", "gpt-c");
  g_assert_cmpstr (akc_conversation_item_get_model (item), ==, "gpt-b");

  /* Restart: the conversation comes back with its model. */
  close_window (window, session, memory);

  memory = akc_test_open (path);
  session = akc_test_app_session_new (memory);
  item = akc_app_session_lookup_conversation (session, id);
  g_assert_nonnull (item);
  g_assert_cmpstr (akc_conversation_item_get_model (item), ==, "gpt-b");
  window = present_window (session, 0, 0);
  akc_window_show_item (window, item);
  g_assert_true (akc_window_get_item (window) == item);
  model_switch = akc_window_get_model_switch (window);
  g_assert_nonnull (find_widget (GTK_WIDGET (model_switch), is_label_with_prefix, "gpt-b"));
  akc_test_http_server_respond (server, 200, "text/event-stream", SSE_REPLY);
  send_and_wait (akc_window_get_source (window), "again");
  model = requested_model (server);
  g_assert_cmpstr (model, ==, "gpt-b");
  g_clear_pointer (&model, g_free);

  /* Another provider set up since: the conversation is not sent to it
   * silently; the turn says what to do. */
  g_settings_set_string (settings, "provider-url", akc_test_http_server_get_base_uri (server));
  wait_backend (akc_window_get_backend (window, AKC_BACKEND_KIND_PROVIDER));
  {
    g_autoptr(GError) error = NULL;
    AkcChatSource *source = akc_window_get_source (window);
    guint requests = akc_test_http_server_get_n_requests (server);

    g_assert_true (akc_chat_source_send (source, "elsewhere?", &error));
    WAIT_UNTIL (akc_chat_source_get_status (source) != AKC_CHAT_STATUS_STREAMING);
    g_assert_cmpint (akc_chat_source_get_status (source), ==, AKC_CHAT_STATUS_ERROR);
    g_assert_cmpstr (akc_diagnostic_get_code (akc_chat_source_get_error (source)), ==, "PROVIDER_CHANGED");
    g_assert_nonnull (strstr (akc_diagnostic_get_message (akc_chat_source_get_error (source)), "gpt-b"));
    g_assert_cmpuint (akc_test_http_server_get_n_requests (server), ==, requests);
  }

  close_all (window, session, memory, server, settings);
}

static gboolean
overlap (GtkWidget *a,
         GtkWidget *b,
         GtkWidget *root)
{
  graphene_rect_t ra, rb, common;

  g_assert_true (gtk_widget_compute_bounds (a, root, &ra));
  g_assert_true (gtk_widget_compute_bounds (b, root, &rb));
  return graphene_rect_intersection (&ra, &rb, &common) && common.size.width > 0 && common.size.height > 0;
}

static gboolean
is_menu_button_with_tooltip (GtkWidget     *widget,
                             gconstpointer  data)
{
  return GTK_IS_MENU_BUTTON (widget) && g_strcmp0 (gtk_widget_get_tooltip_text (widget), data) == 0;
}

/* @window is @width wide, as a person sizes it (with its frame: the
 * window's own widgets have a few pixels less). */
static void
resize_to (AkcWindow *window,
           int        width)
{
  gtk_window_set_default_size (GTK_WINDOW (window), width, 600);
  WAIT_UNTIL (gtk_widget_get_width (GTK_WIDGET (window)) <= width &&
              gtk_widget_get_width (GTK_WIDGET (window)) > width - 24);
  wait_frames (GTK_WIDGET (window), 3);
  g_test_message ("window %d px, %d px inside", width, gtk_widget_get_width (GTK_WIDGET (window)));
}


/* Every model of a short list is shown whole in the popover, without
 * scrolling. GTK 4.8's popover measured its wrapped labels at a wider
 * width than it drew them at, so it was too low by their extra lines and
 * cut the last model in half (98 px of list shown in 70). */
static void
test_model_list_whole (void)
{
  AkcTestHttpServer *server = akc_test_http_server_new ();
  g_autoptr(GSettings) settings = g_settings_new (APP_ID);
  g_autofree char *base = g_strconcat (akc_test_http_server_get_base_uri (server), "/v1", NULL);
  g_autofree char *path = g_build_filename (folder, "list-whole.sqlite3", NULL);
  AkcChatMemory *memory = akc_test_open (path);
  AkcAppSession *session = akc_test_app_session_new (memory);
  AkcModelSwitch *model_switch;
  GtkAdjustment *adjustment;
  GtkWidget *list;
  AkcWindow *window;

  use_openai_provider (settings, base, "model-a");
  akc_test_http_server_respond (server, 200, "application/json",
                                "{\"object\":\"list\",\"data\":[{\"id\":\"model-a\"},{\"id\":\"model-b\"},{\"id\":\"model-c\"}]}");
  window = present_window (session, 720, 720);
  open_provider_conversation (window);
  model_switch = akc_window_get_model_switch (window);

  for (guint open = 0; open < 2; open++)
    {
      g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.switch-model", NULL));
      wait_listed (model_switch);
      list = akc_model_switch_get_list (model_switch);
      g_assert_cmpuint (n_rows (model_switch), ==, 3);
      adjustment = gtk_scrolled_window_get_vadjustment (GTK_SCROLLED_WINDOW (gtk_widget_get_ancestor (list, GTK_TYPE_SCROLLED_WINDOW)));
      WAIT_UNTIL (gtk_adjustment_get_upper (adjustment) > 0);
      spin ();
      g_test_message ("open %u: list %g px, shown %g px", open, gtk_adjustment_get_upper (adjustment),
                      gtk_adjustment_get_page_size (adjustment));
      g_assert_cmpfloat (gtk_adjustment_get_upper (adjustment), <=, gtk_adjustment_get_page_size (adjustment));
      gtk_popover_popdown (GTK_POPOVER (gtk_widget_get_ancestor (list, GTK_TYPE_POPOVER)));
      spin ();
    }

  close_all (window, session, memory, server, settings);
}

/* The model's name is read whole in the header at the default 720 px
 * with the sidebar shown, for names as they come ("llama3.2:latest",
 * "claude-3-5-sonnet-latest"): it is the title's subtitle, where the
 * header has room, not squeezed beside the main menu and the window's
 * buttons ("llam…"). At 360 px (one pane) a long one is cut at its end,
 * over nothing else of the header. Its accessible name and tooltip say
 * it whole. */
static void
test_model_name_fits (void)
{
  AkcTestHttpServer *server = akc_test_http_server_new ();
  g_autoptr(GSettings) settings = g_settings_new (APP_ID);
  g_autofree char *base = g_strconcat (akc_test_http_server_get_base_uri (server), "/v1", NULL);
  g_autofree char *path = g_build_filename (folder, "name-fits.sqlite3", NULL);
  AkcChatMemory *memory = akc_test_open (path);
  AkcAppSession *session = akc_test_app_session_new (memory);
  const char * const names[] = { "llama3.2:latest", "gpt-4o-mini", "claude-3-5-sonnet-latest" };
  AkcModelSwitch *model_switch;
  AkcConversationItem *item;
  GtkWidget *label, *button, *menu, *sidebar, *back;
  AkcWindow *window;
  int natural;

  use_openai_provider (settings, base, "llama3.2:latest");

  window = present_window (session, 720, 600);
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.conversation", "s", "provider"));
  item = akc_window_get_item (window);
  wait_loaded (item);
  model_switch = akc_window_get_model_switch (window);
  button = find_by_type (GTK_WIDGET (model_switch), GTK_TYPE_MENU_BUTTON);
  menu = find_widget (GTK_WIDGET (window), is_menu_button_with_tooltip, "Main Menu");
  g_assert_nonnull (menu);
  resize_to (window, 720);
  sidebar = find_widget (GTK_WIDGET (window), is_label_with_text, "Conversations");
  g_assert_true (sidebar != NULL && gtk_widget_get_mapped (sidebar));

  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    {
      g_autofree char *accessible = g_strdup_printf ("Model: %s", names[i]);

      akc_app_session_set_conversation_model (session, item, names[i]);
      wait_frames (GTK_WIDGET (window), 3);
      label = find_widget (GTK_WIDGET (model_switch), is_label_with_text, names[i]);
      g_assert_nonnull (label);
      g_assert_true (gtk_widget_get_mapped (label));
      gtk_widget_measure (label, GTK_ORIENTATION_HORIZONTAL, -1, NULL, &natural, NULL, NULL);
      g_test_message ("%s at 720 px: %d of %d px", names[i], gtk_widget_get_width (label), natural);
      g_assert_cmpint (gtk_widget_get_width (label), >=, natural);
      g_assert_false (pango_layout_is_ellipsized (gtk_label_get_layout (GTK_LABEL (label))));
      g_assert_false (overlap (button, menu, GTK_WIDGET (window)));
      gtk_test_accessible_assert_property (GTK_ACCESSIBLE (button), GTK_ACCESSIBLE_PROPERTY_LABEL, accessible);
      g_assert_nonnull (strstr (gtk_widget_get_tooltip_text (button), names[i]));
    }

  /* One pane: the whole header shares 360 px; the long name is cut, the
   * back button, the title and the main menu stay clear of it. */
  resize_to (window, 360);
  back = find_widget (GTK_WIDGET (window), is_button_with_tooltip, "Conversations");
  g_assert_true (back != NULL && gtk_widget_get_mapped (back));
  label = find_widget (GTK_WIDGET (model_switch), is_label_with_text, "claude-3-5-sonnet-latest");
  g_assert_true (gtk_widget_get_mapped (label));
  g_assert_cmpint (gtk_widget_get_width (label), >, 0);
  g_assert_false (overlap (button, menu, GTK_WIDGET (window)));
  g_assert_false (overlap (button, back, GTK_WIDGET (window)));
  {
    graphene_rect_t bounds;

    g_assert_true (gtk_widget_compute_bounds (button, GTK_WIDGET (window), &bounds));
    g_assert_cmpfloat (bounds.origin.x, >=, 0);
    g_assert_cmpfloat (bounds.origin.x + bounds.size.width, <=, gtk_widget_get_width (GTK_WIDGET (window)));
  }
  /* The keyboard's way: Ctrl+M's action opens its list. */
  akc_test_http_server_respond (server, 200, "application/json",
           "{\"object\":\"list\",\"data\":[{\"id\":\"claude-3-5-sonnet-latest\",\"object\":\"model\"}]}");
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.switch-model", NULL));
  wait_listed (model_switch);
  g_assert_nonnull (model_row (model_switch, "claude-3-5-sonnet-latest"));

  close_all (window, session, memory, server, settings);
}

/* The first time, nothing set up, and an Ollama answers on this computer
 * (a loopback server here): the welcome page offers to chat with it; one
 * click sets it up and opens its conversation. Nothing answering: no
 * offer. */
static void
test_first_run_ollama (void)
{
  AkcTestHttpServer *server = akc_test_http_server_new ();
  g_autoptr(GSettings) settings = g_settings_new (APP_ID);
  const char *base = akc_test_http_server_get_base_uri (server);
  g_autofree char *path = g_build_filename (folder, "first-run.sqlite3", NULL);
  g_autofree char *value = NULL;
  AkcChatMemory *memory;
  AkcAppSession *session;
  AkcWindow *window;
  GtkWidget *offer;
  gboolean probing = TRUE;

  reset_settings (settings);

  /* Nothing answers (the discard port refuses at once). */
  akc_provider_page_set_local_ollama_url ("http://127.0.0.1:9");
  memory = akc_test_open (path);
  session = akc_test_app_session_new (memory);
  window = g_object_new (AKC_TYPE_WINDOW, "session", session, NULL);
  gtk_window_present (GTK_WINDOW (window));
  offer = akc_window_get_ollama_offer (window, &probing);
  WAIT_UNTIL (!(akc_window_get_ollama_offer (window, &probing) != NULL && probing));
  spin ();
  g_assert_false (gtk_widget_get_visible (offer));
  close_window (window, session, memory);
  g_unlink (path);

  /* An Ollama answers with its models. */
  akc_provider_page_set_local_ollama_url (base);
  akc_test_http_server_respond (server, 200, "application/json",
           "{\"models\":[{\"name\":\"qwen3:8b\",\"model\":\"qwen3:8b\"},{\"name\":\"llama3.2:latest\",\"model\":\"llama3.2:latest\"}]}");
  memory = akc_test_open (path);
  session = akc_test_app_session_new (memory);
  g_assert_true (akc_app_session_get_first_run (session));
  window = g_object_new (AKC_TYPE_WINDOW, "session", session, NULL);
  gtk_window_present (GTK_WINDOW (window));
  offer = akc_window_get_ollama_offer (window, &probing);
  WAIT_UNTIL (gtk_widget_get_visible (offer));
  akc_window_get_ollama_offer (window, &probing);
  g_assert_false (probing);
  g_assert_cmpstr (akc_test_http_server_get_path_query (server), ==, "/api/tags");
  g_assert_cmpstr (gtk_button_get_label (GTK_BUTTON (offer)), ==, "Chat with Ollama (llama3.2:latest)");
  g_assert_true (gtk_widget_is_ancestor (offer, GTK_WIDGET (window)));

  g_signal_emit_by_name (offer, "clicked");
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
  g_assert_cmpstr (akc_window_get_conversation (window), ==, "provider");
  g_assert_cmpstr (akc_conversation_item_get_model (akc_window_get_item (window)), ==, "llama3.2:latest");

  close_all (window, session, memory, server, settings);
}

/* The status page of the empty conversation: its title and description. */
static AdwStatusPage *
empty_page (AkcWindow *window)
{
  g_autoptr(GPtrArray) pages = find_all (GTK_WIDGET (window), is_type, GSIZE_TO_POINTER (ADW_TYPE_STATUS_PAGE));

  /* The sidebar's says "No Conversations"; the conversation's is mapped
   * in the content pane. */
  for (guint i = 0; i < pages->len; i++)
    {
      AdwStatusPage *page = g_ptr_array_index (pages, i);

      if (gtk_widget_get_mapped (GTK_WIDGET (page)) &&
          g_strcmp0 (adw_status_page_get_title (page), _("No Conversations")) != 0)
        return page;
    }
  return NULL;
}

/* The first time, the window opening on a provider's conversation (the
 * one of the last run kept in the settings, the history empty) says what
 * that conversation is, naming its model, as every later run does; the
 * welcome, which speaks of the Hello World demo and offers to connect a
 * model, is the Hello World demo's alone. Before, every conversation the
 * first run opened on showed it. */
static void
test_first_run_provider_empty (void)
{
  AkcTestHttpServer *server = akc_test_http_server_new ();
  g_autoptr(GSettings) settings = g_settings_new (APP_ID);
  g_autofree char *base = g_strconcat (akc_test_http_server_get_base_uri (server), "/v1", NULL);
  g_autofree char *path = g_build_filename (folder, "first-run-provider.sqlite3", NULL);
  g_autofree char *expected = NULL;
  AkcChatMemory *memory;
  AkcAppSession *session;
  AkcWindow *window;
  AdwStatusPage *page;

  reset_settings (settings);
  akc_provider_page_set_local_ollama_url ("http://127.0.0.1:9");
  g_settings_set_string (settings, "provider-kind", "openai");
  g_settings_set_string (settings, "provider-url", base);
  g_settings_set_string (settings, "provider-model", "gpt-a");
  g_settings_set_string (settings, "conversation", "provider");

  memory = akc_test_open (path);
  session = akc_test_app_session_new (memory);
  g_assert_true (akc_app_session_get_first_run (session));
  window = g_object_new (AKC_TYPE_WINDOW, "session", session, "default-width", 720, "default-height", 700, NULL);
  gtk_window_present (GTK_WINDOW (window));
  wait_backend (akc_window_get_backend (window, AKC_BACKEND_KIND_PROVIDER));
  WAIT_UNTIL_WHAT (g_strcmp0 (akc_window_get_conversation (window), "provider") == 0,
                   "the window to open on the provider's conversation");
  wait_loaded (akc_window_get_item (window));
  wait_frames (GTK_WIDGET (window), 2);
  page = empty_page (window);
  g_assert_nonnull (page);
  /* Translators' string of the app: the model, then the URL. */
  expected = g_strdup_printf (_("Write a message: the model %s at %s answers it."), "gpt-a", base);
  g_test_message ("first run, provider: %s / %s", adw_status_page_get_title (page),
                  adw_status_page_get_description (page));
  g_assert_cmpstr (adw_status_page_get_title (page), ==,
                   akc_assistant_get_title (akc_conversation_item_get_assistant (akc_window_get_item (window))));
  g_assert_cmpstr (adw_status_page_get_description (page), ==, expected);
  /* Nor does it offer to connect a model: one is. */
  {
    GtkWidget *connect = find_widget (GTK_WIDGET (window), is_button_with_label, _("Connect a _Model…"));

    g_assert_nonnull (connect);
    g_assert_false (gtk_widget_get_mapped (connect));
  }
  close_window (window, session, memory);
  g_unlink (path);

  /* The first time on the Hello World demo: the welcome, as before. */
  g_settings_reset (settings, "conversation");
  memory = akc_test_open (path);
  session = akc_test_app_session_new (memory);
  g_assert_true (akc_app_session_get_first_run (session));
  window = g_object_new (AKC_TYPE_WINDOW, "session", session, "default-width", 720, "default-height", 700, NULL);
  gtk_window_present (GTK_WINDOW (window));
  WAIT_UNTIL_WHAT (g_strcmp0 (akc_window_get_conversation (window), "hello-world") == 0,
                   "the window to open on the Hello World demo");
  wait_loaded (akc_window_get_item (window));
  wait_frames (GTK_WIDGET (window), 2);
  page = empty_page (window);
  g_assert_nonnull (page);
  g_assert_cmpstr (adw_status_page_get_title (page), ==, _("Welcome to AgentsKit Chat"));
  g_assert_nonnull (strstr (adw_status_page_get_description (page), "Hello World"));
  close_window (window, session, memory);

  akc_test_http_server_free (server);
  akc_provider_page_set_local_ollama_url (NULL);
  reset_settings (settings);
}

/* Ctrl+Shift+N opens another window of the application, on the same
 * session: the local Ollama was asked once, by the first window, and the
 * second offers it from that answer without asking again. */
static void
test_ollama_probed_once (void)
{
  AkcTestHttpServer *server = akc_test_http_server_new ();
  g_autoptr(GSettings) settings = g_settings_new (APP_ID);
  g_autofree char *path = g_build_filename (folder, "probe-once.sqlite3", NULL);
  AkcChatMemory *memory;
  AkcAppSession *session;
  AkcWindow *one, *two;
  GtkWidget *offer;
  gboolean probing = TRUE;

  reset_settings (settings);
  akc_provider_page_set_local_ollama_url (akc_test_http_server_get_base_uri (server));
  akc_test_http_server_respond (server, 200, "application/json",
           "{\"models\":[{\"name\":\"llama3.2:latest\",\"model\":\"llama3.2:latest\"}]}");
  memory = akc_test_open (path);
  session = akc_test_app_session_new (memory);

  one = g_object_new (AKC_TYPE_WINDOW, "session", session, NULL);
  gtk_window_present (GTK_WINDOW (one));
  offer = akc_window_get_ollama_offer (one, &probing);
  WAIT_UNTIL (gtk_widget_get_visible (offer));
  g_assert_cmpuint (akc_test_http_server_get_n_requests (server), ==, 1);

  two = g_object_new (AKC_TYPE_WINDOW, "session", session, NULL);
  gtk_window_present (GTK_WINDOW (two));
  WAIT_UNTIL (!(akc_window_get_ollama_offer (two, &probing) != NULL && probing));
  for (guint i = 0; i < 10; i++)
    spin ();
  g_assert_cmpuint (akc_test_http_server_get_n_requests (server), ==, 1);
  offer = akc_window_get_ollama_offer (two, NULL);
  g_assert_true (gtk_widget_get_visible (offer));
  g_assert_cmpstr (gtk_button_get_label (GTK_BUTTON (offer)), ==, "Chat with Ollama (llama3.2:latest)");

  /* Taking the offer in one window withdraws it in both. */
  g_signal_emit_by_name (offer, "clicked");
  spin ();
  g_assert_false (gtk_widget_get_visible (offer));
  g_assert_false (gtk_widget_get_visible (akc_window_get_ollama_offer (one, NULL)));

  gtk_window_destroy (GTK_WINDOW (two));
  close_all (one, session, memory, server, settings);
}

/* "label\taction\ttarget" for each item of @menu and its sections. */
static void
menu_items (GMenuModel *menu,
            GPtrArray  *items)
{
  for (int i = 0; i < g_menu_model_get_n_items (menu); i++)
    {
      g_autoptr(GMenuModel) section = g_menu_model_get_item_link (menu, i, G_MENU_LINK_SECTION);
      g_autofree char *label = NULL;
      g_autofree char *action = NULL;
      g_autoptr(GVariant) target = NULL;

      if (section != NULL)
        {
          menu_items (section, items);
          continue;
        }
      g_menu_model_get_item_attribute (menu, i, G_MENU_ATTRIBUTE_LABEL, "s", &label);
      g_menu_model_get_item_attribute (menu, i, G_MENU_ATTRIBUTE_ACTION, "s", &action);
      target = g_menu_model_get_item_attribute_value (menu, i, G_MENU_ATTRIBUTE_TARGET, G_VARIANT_TYPE_STRING);
      g_ptr_array_add (items, g_strdup_printf ("%s\t%s\t%s", label, action,
                                               target != NULL ? g_variant_get_string (target, NULL) : ""));
    }
}

/* The items of @menu, "label\taction\ttarget" a line, from "Ask
 * Service" (the demos before it are always there) on, up to @until (the
 * start of the next section) when given. */
static char *
items_from_ask (GMenuModel *menu,
                const char *until)
{
  g_autoptr(GPtrArray) items = g_ptr_array_new_with_free_func (g_free);
  g_autofree char *all = NULL;
  const char *from;
  const char *to;

  g_assert_nonnull (menu);
  menu_items (menu, items);
  g_ptr_array_add (items, NULL);
  all = g_strjoinv ("\n", (char **) items->pdata);
  from = strstr (all, "Ask Se_rvice");
  g_assert_nonnull (from);
  if (until == NULL)
    return g_strdup (from);
  to = strstr (all, until);
  g_assert_nonnull (to);
  return g_strndup (from, to - from);
}

static gboolean
is_main_menu_button (GtkWidget     *widget,
                     gconstpointer  data)
{
  return GTK_IS_MENU_BUTTON (widget) && gtk_menu_button_get_primary (GTK_MENU_BUTTON (widget));
}

/* The items both New Chat With menus begin with. */
#define ASK_AND_TURN_ITEMS \
  "Ask Se_rvice\twin.new-chat-with\task\n" \
  "_Turn Server\twin.new-chat-with\tturn\n"

/* The New Chat With… menu offers @expected, from "Ask Service" on. */
static void
assert_new_chat_items (AkcWindow  *window,
                       const char *expected)
{
  AdwSplitButton *button = ADW_SPLIT_BUTTON (find_by_type (GTK_WIDGET (window), ADW_TYPE_SPLIT_BUTTON));
  g_autofree char *items = NULL;

  g_assert_nonnull (button);
  items = items_from_ask (adw_split_button_get_menu_model (button), NULL);
  g_assert_cmpstr (items, ==, expected);
}

/* The main menu's New Chat With offers @expected, from "Ask Service" on,
 * up to its next section (New Window). */
static void
assert_main_menu_items (AkcWindow  *window,
                        const char *expected)
{
  GtkWidget *button = find_widget (GTK_WIDGET (window), is_main_menu_button, NULL);
  g_autofree char *items = NULL;

  g_assert_nonnull (button);
  items = items_from_ask (gtk_menu_button_get_menu_model (GTK_MENU_BUTTON (button)), "\nNew _Window");
  g_assert_cmpstr (items, ==, expected);
}

/* Opens and closes the New Chat With… menu and the main menu, as a
 * person who looks at them does. */
static void
open_menus (AkcWindow *window)
{
  AdwSplitButton *button = ADW_SPLIT_BUTTON (find_by_type (GTK_WIDGET (window), ADW_TYPE_SPLIT_BUTTON));
  GtkWidget *main_menu = find_widget (GTK_WIDGET (window), is_main_menu_button, NULL);

  g_assert_nonnull (button);
  g_assert_nonnull (main_menu);
  g_assert_null (adw_split_button_get_menu_model (button));
  g_assert_null (gtk_menu_button_get_menu_model (GTK_MENU_BUTTON (main_menu)));
  adw_split_button_popup (button);
  adw_split_button_popdown (button);
  gtk_menu_button_popup (GTK_MENU_BUTTON (main_menu));
  gtk_menu_button_popdown (GTK_MENU_BUTTON (main_menu));
}

static gboolean
models_listed (AkcBackend *backend)
{
  return akc_backend_get_models (backend) != NULL;
}

/* The provider's three models, listed: the default first, an underscore
 * shown as itself. */
#define PROVIDER_MODEL_ITEMS \
  "OpenAI-compatible — gpt-a\twin.new-chat-with-model\tgpt-a\n" \
  "OpenAI-compatible — gpt-b\twin.new-chat-with-model\tgpt-b\n" \
  "OpenAI-compatible — q4__K__M\twin.new-chat-with-model\tq4_K_M"

/* The New Chat With… menu offers the configured provider's models: the
 * default one at once, the others once the menu opened and the provider
 * listed them; choosing one starts a conversation held with it, which
 * the header shows and the next turn asks for. With no provider set up,
 * the menu offers the Model Provider, which says how to set one up. */
static void
test_new_chat_with_model (void)
{
  AkcTestHttpServer *server = akc_test_http_server_new ();
  g_autoptr(GSettings) settings = g_settings_new (APP_ID);
  g_autofree char *base = g_strconcat (akc_test_http_server_get_base_uri (server), "/v1", NULL);
  g_autofree char *path = g_build_filename (folder, "new-chat.sqlite3", NULL);
  g_autofree char *model = NULL;
  AkcChatMemory *memory = akc_test_open (path);
  AkcAppSession *session = akc_test_app_session_new (memory);
  AkcBackend *backend;
  AkcConversationItem *item, *first;
  AkcWindow *window;
  GtkWidget *dropdown = NULL;
  AdwSplitButton *button;

  reset_settings (settings);
  akc_provider_page_set_local_ollama_url ("http://127.0.0.1:9");

  window = g_object_new (AKC_TYPE_WINDOW, "session", session, NULL);
  gtk_window_present (GTK_WINDOW (window));
  backend = akc_window_get_backend (window, AKC_BACKEND_KIND_PROVIDER);
  /* The menus are given to their buttons when they first open. */
  open_menus (window);

  /* Nothing set up: the Model Provider, which refuses and points to the
   * preferences. */
  assert_new_chat_items (window, ASK_AND_TURN_ITEMS "_Model Provider\twin.new-chat-with\tprovider");
  /* The main menu's New Chat With says the same. */
  assert_main_menu_items (window, ASK_AND_TURN_ITEMS "_Model Provider\twin.new-chat-with\tprovider");

  /* Set up: its default model, at once. */
  g_settings_set_string (settings, "provider-kind", "openai");
  g_settings_set_string (settings, "provider-url", base);
  g_settings_set_string (settings, "provider-model", "gpt-a");
  wait_backend (backend);
  assert_new_chat_items (window, ASK_AND_TURN_ITEMS "OpenAI-compatible — gpt-a\twin.new-chat-with-model\tgpt-a");

  /* Opening the menu asks for the models; the menu lists them, the
   * default first, an underscore shown as itself (not an access key). */
  akc_test_http_server_respond (server, 200, "application/json",
           "{\"object\":\"list\",\"data\":[{\"id\":\"gpt-b\"},{\"id\":\"gpt-a\"},{\"id\":\"q4_K_M\"}]}");
  button = ADW_SPLIT_BUTTON (find_by_type (GTK_WIDGET (window), ADW_TYPE_SPLIT_BUTTON));
  for (GtkWidget *child = gtk_widget_get_first_child (GTK_WIDGET (button)); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    if (GTK_IS_MENU_BUTTON (child))
      dropdown = child;
  g_assert_nonnull (dropdown);
  gtk_test_accessible_assert_property (GTK_ACCESSIBLE (dropdown), GTK_ACCESSIBLE_PROPERTY_LABEL, "New Chat With…");
  adw_split_button_popup (button);
  WAIT_FOR (models_listed, backend);
  g_assert_cmpstr (akc_test_http_server_get_path_query (server), ==, "/v1/models");
  assert_new_chat_items (window, ASK_AND_TURN_ITEMS PROVIDER_MODEL_ITEMS);
  adw_split_button_popdown (button);
  /* And so does the main menu's. */
  assert_main_menu_items (window, ASK_AND_TURN_ITEMS PROVIDER_MODEL_ITEMS);

  /* Choosing gpt-b: a new conversation, held with it. */
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.new-chat-with-model", "s", "gpt-b"));
  spin ();
  first = akc_window_get_item (window);
  g_assert_cmpstr (akc_window_get_conversation (window), ==, "provider");
  g_assert_cmpstr (akc_conversation_item_get_model (first), ==, "gpt-b");
  g_assert_cmpstr (akc_conversation_item_get_provider_url (first), ==, base);
  g_assert_nonnull (find_widget (GTK_WIDGET (akc_window_get_model_switch (window)), is_label_with_prefix, "gpt-b"));
  wait_loaded (first);
  akc_test_http_server_respond (server, 200, "text/event-stream", SSE_REPLY);
  send_and_wait (akc_window_get_source (window), "hello");
  g_assert_cmpstr (akc_test_http_server_get_path_query (server), ==, "/v1/chat/completions");
  model = requested_model (server);
  g_assert_cmpstr (model, ==, "gpt-b");
  g_clear_pointer (&model, g_free);
  /* The default model is still the other. */
  g_assert_cmpstr (akc_backend_get_model (backend), ==, "gpt-a");

  /* Choosing another: another conversation; the first keeps its model. */
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.new-chat-with-model", "s", "q4_K_M"));
  spin ();
  item = akc_window_get_item (window);
  g_assert_true (item != first);
  g_assert_cmpstr (akc_conversation_item_get_model (item), ==, "q4_K_M");
  g_assert_cmpstr (akc_conversation_item_get_model (first), ==, "gpt-b");
  wait_loaded (item);
  akc_test_http_server_respond (server, 200, "text/event-stream", SSE_REPLY);
  send_and_wait (akc_window_get_source (window), "hello");
  model = requested_model (server);
  g_assert_cmpstr (model, ==, "q4_K_M");
  g_clear_pointer (&model, g_free);

  /* Another kind of provider: its models are not known yet; the menu
   * offers its default model under its name. */
  g_settings_set_string (settings, "provider-kind", "anthropic");
  wait_backend (backend);
  assert_new_chat_items (window, ASK_AND_TURN_ITEMS "Anthropic — gpt-a\twin.new-chat-with-model\tgpt-a");

  close_all (window, session, memory, server, settings);
}

static GFile *
write_picture (const char *name)
{
  g_autoptr(GdkPixbuf) pixbuf = gdk_pixbuf_new (GDK_COLORSPACE_RGB, FALSE, 8, 8, 8);
  g_autofree char *file = g_build_filename (folder, name, NULL);
  g_autoptr(GError) error = NULL;

  gdk_pixbuf_fill (pixbuf, 0x3366ccff);
  gdk_pixbuf_save (pixbuf, file, "png", &error, NULL);
  g_assert_no_error (error);
  return g_file_new_for_path (file);
}

static gboolean
takes_images (AkcChatSource *source)
{
  g_autoptr(AkcJsonValue) capabilities = akc_adapter_get_capabilities (akc_chat_get_adapter (AKC_CHAT (source)));
  AkcJsonValue *attachments = capabilities != NULL ? akc_json_value_get_member (capabilities, "attachments") : NULL;
  AkcJsonValue *images = attachments != NULL ? akc_json_value_get_member (attachments, "images") : NULL;

  return images != NULL && akc_json_value_get_boolean (images);
}

/* Ollama says the model has no vision: the conversation's adapter takes no
 * images, and the composer refuses one, saying so. */
static void
test_model_without_images (void)
{
  AkcTestHttpServer *server = akc_test_http_server_new ();
  g_autoptr(GSettings) settings = g_settings_new (APP_ID);
  g_autofree char *path = g_build_filename (folder, "images.sqlite3", NULL);
  g_autoptr(GFile) picture = write_picture ("dot.png");
  AkcChatMemory *memory = akc_test_open (path);
  AkcAppSession *session = akc_test_app_session_new (memory);
  AkcComposer *composer;
  AkcChatSource *source;
  AkcWindow *window;
  GtkWidget *error_label;

  reset_settings (settings);
  akc_provider_page_set_local_ollama_url ("http://127.0.0.1:9");
  /* Every request gets what /api/show says of a model without vision. */
  akc_test_http_server_respond (server, 200, "application/json", "{\"capabilities\":[\"completion\",\"tools\"]}");
  g_settings_set_string (settings, "provider-kind", "ollama");
  g_settings_set_string (settings, "provider-url", akc_test_http_server_get_base_uri (server));
  g_settings_set_string (settings, "provider-model", "llama3.2");

  window = present_window (session, 0, 0);
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.conversation", "s", "provider"));
  source = akc_window_get_source (window);
  WAIT_UNTIL (!takes_images (source));
  g_assert_cmpstr (akc_test_http_server_get_path_query (server), ==, "/api/show");

  composer = AKC_COMPOSER (find_by_type (GTK_WIDGET (window), AKC_TYPE_COMPOSER));
  g_assert_nonnull (composer);
  akc_composer_attach_file (composer, picture);
  WAIT_UNTIL (akc_composer_get_n_loading (composer) <= 0);
  g_assert_cmpuint (g_list_model_get_n_items (akc_composer_get_attachments (composer)), ==, 0);
  error_label = find_widget (GTK_WIDGET (composer), is_label_with_prefix, "The model of this conversation does not take images");
  g_assert_nonnull (error_label);

  close_all (window, session, memory, server, settings);
}

/* A failed turn says what to do, and goes on saying it, whole, once the
 * conversation went on: the note of an earlier error wraps in the
 * transcript instead of running out of the window. */
static void
test_provider_errors (void)
{
  AkcTestHttpServer *server = akc_test_http_server_new ();
  g_autoptr(GSettings) settings = g_settings_new (APP_ID);
  g_autofree char *base = g_strconcat (akc_test_http_server_get_base_uri (server), "/v1", NULL);
  g_autofree char *path = g_build_filename (folder, "errors.sqlite3", NULL);
  g_autoptr(GError) error = NULL;
  AkcChatMemory *memory = akc_test_open (path);
  AkcAppSession *session = akc_test_app_session_new (memory);
  AkcChatSource *source;
  AkcWindow *window;
  GtkWidget *view, *note;

  use_openai_provider (settings, base, "gpt-a");

  window = present_window (session, 720, 600);
  open_provider_conversation (window);
  source = akc_window_get_source (window);

  akc_test_http_server_respond (server, 401, "application/json",
           "{\"error\":{\"message\":\"Incorrect API key provided\",\"type\":\"invalid_request_error\",\"code\":\"invalid_api_key\"}}");
  g_assert_true (akc_chat_source_send (source, "hello", &error));
  g_assert_no_error (error);
  WAIT_UNTIL (akc_chat_source_get_status (source) != AKC_CHAT_STATUS_STREAMING);
  g_assert_cmpint (akc_chat_source_get_status (source), ==, AKC_CHAT_STATUS_ERROR);
  g_assert_cmpstr (akc_diagnostic_get_code (akc_chat_source_get_error (source)), ==, "PROVIDER_UNAUTHORIZED");

  /* The conversation goes on: the error is a note of its message now. */
  akc_test_http_server_respond (server, 200, "text/event-stream", SSE_REPLY);
  send_and_wait (source, "again");
  view = find_by_type (GTK_WIDGET (window), AKC_TYPE_CHAT_VIEW);
  note = find_widget (view, is_label_with_prefix, "The provider at ");
  g_assert_nonnull (note);
  wait_frames (GTK_WIDGET (window), 3);
  g_test_message ("note %d px wide in a view of %d px, %d lines", gtk_widget_get_width (note),
                  gtk_widget_get_width (view), pango_layout_get_line_count (gtk_label_get_layout (GTK_LABEL (note))));
  g_assert_nonnull (strstr (gtk_label_get_text (GTK_LABEL (note)), "401"));
  g_assert_cmpint (gtk_widget_get_width (note), <=, gtk_widget_get_width (view));
  g_assert_cmpint (pango_layout_get_line_count (gtk_label_get_layout (GTK_LABEL (note))), >, 1);

  close_all (window, session, memory, server, settings);
}

static void
respond_line_too_long (AkcTestHttpServer *server)
{
  AkcTestResponse *response = akc_test_response_new (200, "text/event-stream");
  g_autofree char *line = g_malloc (1100 * 1024 + 1);

  memset (line, 'x', 1100 * 1024);
  line[1100 * 1024] = '\0';
  akc_test_response_add_chunk (response, "data: ", -1);
  akc_test_response_add_chunk (response, line, -1);
  response->end = AKC_TEST_END_DISCONNECT;
  akc_test_http_server_set_response (server, response);
}

/* The error note of a failed reply says the same after a restart as
 * before it: the error is kept with the message in the history. Before,
 * a restart left only "No answer" or "The answer was cut off". */
static void
test_provider_errors_after_restart (void)
{
  AkcTestHttpServer *server = akc_test_http_server_new ();
  g_autoptr(GSettings) settings = g_settings_new (APP_ID);
  g_autofree char *base = g_strconcat (akc_test_http_server_get_base_uri (server), "/v1", NULL);
  g_autofree char *path = g_build_filename (folder, "errors-restart.sqlite3", NULL);
  g_autofree char *id = NULL;
  g_autoptr(GPtrArray) said = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GPtrArray) codes = g_ptr_array_new_with_free_func (g_free);
  AkcChatMemory *memory = akc_test_open (path);
  AkcAppSession *session = akc_test_app_session_new (memory);
  AkcConversationItem *item;
  AkcChatSource *source;
  AkcWindow *window;
  GtkWidget *view;

  use_openai_provider (settings, base, "gpt-a");

  window = present_window (session, 800, 1000);
  open_provider_conversation (window);
  id = g_strdup (akc_conversation_item_get_id (akc_window_get_item (window)));
  source = akc_window_get_source (window);

  for (guint i = 0; i < 4; i++)
    {
      g_autoptr(GError) error = NULL;
      g_autofree char *prompt = g_strdup_printf ("question %u", i);
      AkcDiagnostic *diagnostic;

      if (i == 0)
        akc_test_http_server_respond (server, 401, "application/json",
                 "{\"error\":{\"message\":\"Incorrect API key provided\",\"type\":\"invalid_request_error\",\"code\":\"invalid_api_key\"}}");
      else if (i == 1)
        akc_test_http_server_respond (server, 404, "application/json",
                 "{\"error\":{\"message\":\"The model `gpt-a` does not exist\",\"code\":\"model_not_found\"}}");
      else if (i == 2)
        akc_test_http_server_respond (server, 429, "application/json", "{\"error\":{\"message\":\"Rate limit reached\",\"type\":\"requests\"}}");
      else
        respond_line_too_long (server);
      g_assert_true (akc_chat_source_send (source, prompt, &error));
      g_assert_no_error (error);
      WAIT_UNTIL (akc_chat_source_get_status (source) != AKC_CHAT_STATUS_STREAMING);
      g_assert_cmpint (akc_chat_source_get_status (source), ==, AKC_CHAT_STATUS_ERROR);
      diagnostic = akc_chat_source_get_error (source);
      g_test_message ("error %u: %s: %s", i, akc_diagnostic_get_code (diagnostic), akc_diagnostic_get_message (diagnostic));
      g_ptr_array_add (codes, g_strdup (akc_diagnostic_get_code (diagnostic)));
      g_ptr_array_add (said, g_strdup (akc_diagnostic_get_message (diagnostic)));
    }
  g_assert_cmpstr (g_ptr_array_index (codes, 0), ==, "PROVIDER_UNAUTHORIZED");
  g_assert_cmpstr (g_ptr_array_index (codes, 1), ==, "PROVIDER_MODEL_NOT_FOUND");
  g_assert_cmpstr (g_ptr_array_index (codes, 2), ==, "PROVIDER_RATE_LIMITED");
  g_assert_cmpstr (g_ptr_array_index (codes, 3), ==, "PROVIDER_TOO_LARGE");
  /* Before the restart, each says it: the earlier ones under their
   * message, the last one below the messages. */
  view = find_by_type (GTK_WIDGET (window), AKC_TYPE_CHAT_VIEW);
  wait_frames (GTK_WIDGET (window), 3);
  for (guint i = 0; i < said->len; i++)
    g_assert_nonnull (find_widget (view, is_label_with_text, g_ptr_array_index (said, i)));

  /* Restart. */
  close_window (window, session, memory);
  memory = akc_test_open (path);
  session = akc_test_app_session_new (memory);
  item = akc_app_session_lookup_conversation (session, id);
  g_assert_nonnull (item);
  window = present_window (session, 800, 1000);
  akc_window_show_item (window, item);
  wait_loaded (item);
  view = find_by_type (GTK_WIDGET (window), AKC_TYPE_CHAT_VIEW);
  wait_frames (GTK_WIDGET (window), 3);

  /* Each failed reply says what it said then, under it, once. */
  for (guint i = 0; i < said->len; i++)
    {
      g_autoptr(GPtrArray) found = find_all (view, is_label_with_text, g_ptr_array_index (said, i));

      g_test_message ("after the restart, error %u shown %u times", i, found->len);
      g_assert_cmpuint (found->len, ==, 1);
      g_assert_true (gtk_widget_get_mapped (g_ptr_array_index (found, 0)));
      g_assert_true (has_css_class (g_ptr_array_index (found, 0), "error"));
    }
  g_assert_null (find_widget (view, is_label_with_text, "No answer"));
  g_assert_null (find_widget (view, is_label_with_text, "The answer was cut off"));

  close_all (window, session, memory, server, settings);
}

static char *opened;

static gboolean
open_link_here (const char  *uri,
                GError     **error)
{
  g_free (opened);
  opened = g_strdup (uri);
  return TRUE;
}

static AkcToolCall *
last_call (AkcChatSource *source)
{
  GListModel *messages = akc_chat_source_get_messages (source);

  for (guint i = g_list_model_get_n_items (messages); i > 0; i--)
    {
      g_autoptr(AkcMessage) message = g_list_model_get_item (messages, i - 1);
      GListModel *calls = akc_message_get_tool_calls (message);

      if (calls != NULL && g_list_model_get_n_items (calls) > 0)
        {
          AkcToolCall *call = g_list_model_get_item (calls, 0);

          g_object_unref (call);
          return call;
        }
    }
  return NULL;
}

#define SSE_OPEN_LINK \
  "data: {\"choices\":[{\"index\":0,\"delta\":{\"role\":\"assistant\",\"content\":\"Opening it. \"},\"finish_reason\":null}]}\n\n" \
  "data: {\"choices\":[{\"index\":0,\"delta\":{\"tool_calls\":[{\"index\":0,\"id\":\"call_1\",\"type\":\"function\",\"function\":{\"name\":\"open_link\",\"arguments\":\"{\\\"url\\\": \\\"https://exa\"}}]},\"finish_reason\":null}]}\n\n" \
  "data: {\"choices\":[{\"index\":0,\"delta\":{\"tool_calls\":[{\"index\":0,\"function\":{\"arguments\":\"mple.org/docs\\\"}\"}}]},\"finish_reason\":null}]}\n\n" \
  "data: {\"choices\":[{\"index\":0,\"delta\":{},\"finish_reason\":\"tool_calls\"}]}\n\n" \
  "data: [DONE]\n\n"

/* The model is offered the app's tools; a call of open_link waits for the
 * person's approval, shown in the transcript, then runs, and its result
 * goes back to the model in the next request, whose reply ends the turn. */
static void
test_provider_tool_call (void)
{
  AkcTestHttpServer *server = akc_test_http_server_new ();
  g_autoptr(GSettings) settings = g_settings_new (APP_ID);
  g_autofree char *base = g_strconcat (akc_test_http_server_get_base_uri (server), "/v1", NULL);
  g_autofree char *path = g_build_filename (folder, "tools.sqlite3", NULL);
  g_autoptr(GError) error = NULL;
  g_autoptr(AkcJsonValue) body = NULL;
  AkcChatMemory *memory = akc_test_open (path);
  AkcAppSession *session = akc_test_app_session_new (memory);
  AkcChatSource *source;
  AkcToolCall *call;
  AkcWindow *window;
  GtkWidget *confirmation;
  GBytes *sent;
  const char *data;
  gsize length;

  use_openai_provider (settings, base, "gpt-a");
  akc_backend_set_link_opener (open_link_here);

  window = present_window (session, 0, 0);
  open_provider_conversation (window);
  source = akc_window_get_source (window);

  akc_test_http_server_respond (server, 200, "text/event-stream", SSE_OPEN_LINK);
  g_assert_true (akc_chat_source_send (source, "open the docs", &error));
  g_assert_no_error (error);
  call = NULL;
  WAIT_UNTIL (!((call = last_call (source)) == NULL || akc_tool_call_get_status (call) == AKC_TOOL_CALL_STATUS_PENDING));

  /* The tools were offered, in the provider's format. */
  sent = akc_test_http_server_get_body (server);
  data = g_bytes_get_data (sent, &length);
  g_assert_nonnull (g_strstr_len (data, length, "\"open_link\""));
  g_assert_nonnull (g_strstr_len (data, length, "\"get_current_time\""));

  g_test_message ("call: %d %s", akc_tool_call_get_status (call), akc_tool_call_get_error (call));
  g_assert_cmpint (akc_tool_call_get_status (call), ==, AKC_TOOL_CALL_STATUS_REQUIRES_CONFIRMATION);
  g_assert_null (opened);
  /* The transcript asks: what, and Approve or Deny. */
  confirmation = gtk_widget_get_ancestor (wait_for_widget (GTK_WIDGET (window), is_label_with_text, "Approve"),
                                          GTK_TYPE_BUTTON);
  g_assert_nonnull (confirmation);
  wait_frames (GTK_WIDGET (window), 2);
  g_assert_true (gtk_widget_get_mapped (confirmation));
  g_assert_nonnull (find_widget (GTK_WIDGET (window), is_label_with_prefix, "Open a link"));

  /* Approved (the button): it runs, and the model hears how it went. */
  akc_test_http_server_respond (server, 200, "text/event-stream", SSE_REPLY);
  g_signal_emit_by_name (confirmation, "clicked");
  WAIT_UNTIL (!(akc_chat_source_get_status (source) == AKC_CHAT_STATUS_STREAMING || akc_test_http_server_get_n_requests (server) < 2));
  g_assert_cmpint (akc_chat_source_get_status (source), ==, AKC_CHAT_STATUS_IDLE);
  g_assert_cmpstr (opened, ==, "https://example.org/docs");
  g_assert_cmpint (akc_tool_call_get_status (call), ==, AKC_TOOL_CALL_STATUS_COMPLETE);
  sent = akc_test_http_server_get_body (server);
  data = g_bytes_get_data (sent, &length);
  body = akc_json_value_parse (data, (gssize) length, NULL);
  g_assert_nonnull (body);
  {
    g_autofree char *text = akc_json_value_to_canonical (body, NULL);

    g_test_message ("second request: %.600s", text);
    g_assert_nonnull (strstr (text, "\"role\":\"tool\""));
    g_assert_nonnull (strstr (text, "\"tool_call_id\":\"call_1\""));
    g_assert_nonnull (strstr (text, "Opened https://example.org/docs"));
  }

  /* The clock runs at once, without asking; the model hears the time. */
  akc_test_http_server_respond (server, 200, "text/event-stream",
           "data: {\"choices\":[{\"index\":0,\"delta\":{\"tool_calls\":[{\"index\":0,\"id\":\"call_2\",\"type\":\"function\",\"function\":{\"name\":\"get_current_time\",\"arguments\":\"{}\"}}]},\"finish_reason\":null}]}\n\n"
           "data: {\"choices\":[{\"index\":0,\"delta\":{},\"finish_reason\":\"tool_calls\"}]}\n\n"
           "data: [DONE]\n\n");
  g_assert_true (akc_chat_source_send (source, "what time is it?", &error));
  g_assert_no_error (error);
  for (gint64 deadline = akc_test_deadline ();
       (call = last_call (source)) == NULL || g_strcmp0 (akc_tool_call_get_id (call), "call_2") != 0 ||
       akc_tool_call_get_status (call) != AKC_TOOL_CALL_STATUS_COMPLETE;
       akc_test_iterate (deadline))
    g_assert_true (call == NULL || akc_tool_call_get_status (call) != AKC_TOOL_CALL_STATUS_ERROR);
  g_assert_nonnull (strstr (akc_tool_call_get_result (call), "\"now\""));
  g_assert_nonnull (strstr (akc_tool_call_get_result (call), "\"timeZone\""));
  /* It goes back to the model at once (the server asked for it with
   * finish_reason tool_calls). The server's next replies call the clock
   * again with the same id, as a server that numbers the calls of each
   * reply does: each is a call of its own, which runs and goes back
   * under an id of its own, until the model was asked 8 times after the
   * person's message. */
  WAIT_UNTIL (!(akc_test_http_server_get_n_requests (server) < 10 || akc_chat_source_get_status (source) == AKC_CHAT_STATUS_STREAMING));
  g_assert_cmpint (akc_test_http_server_get_n_requests (server), ==, 10);
  g_assert_cmpint (akc_chat_source_get_status (source), ==, AKC_CHAT_STATUS_IDLE);
  sent = akc_test_http_server_get_body (server);
  data = g_bytes_get_data (sent, &length);
  g_assert_nonnull (g_strstr_len (data, length, "\"tool_call_id\":\"call_2\""));
  g_assert_nonnull (g_strstr_len (data, length, "\"tool_call_id\":\"call_2-2\""));
  g_assert_nonnull (g_strstr_len (data, length, "\\\"timeZone\\\""));

  close_all (window, session, memory, server, settings);
  akc_backend_set_link_opener (NULL);
  g_clear_pointer (&opened, g_free);
}

#define SSE_TEXT_AND_BAD_LINK \
  "data: {\"choices\":[{\"index\":0,\"delta\":{\"role\":\"assistant\",\"content\":\"Let me open it for you.\"},\"finish_reason\":null}]}\n\n" \
  "data: {\"choices\":[{\"index\":0,\"delta\":{\"tool_calls\":[{\"index\":0,\"id\":\"call_bad\",\"type\":\"function\",\"function\":{\"name\":\"open_link\",\"arguments\":\"{\\\"url\\\": \\\"ftp://example.org/x\\\"}\"}}]},\"finish_reason\":null}]}\n\n" \
  "data: {\"choices\":[{\"index\":0,\"delta\":{},\"finish_reason\":\"stop\"}]}\n\n" \
  "data: [DONE]\n\n"

#define SSE_TEXT_AND_LINK \
  "data: {\"choices\":[{\"index\":0,\"delta\":{\"role\":\"assistant\",\"content\":\"Opening the manual now.\"},\"finish_reason\":null}]}\n\n" \
  "data: {\"choices\":[{\"index\":0,\"delta\":{\"tool_calls\":[{\"index\":0,\"id\":\"call_deny\",\"type\":\"function\",\"function\":{\"name\":\"open_link\",\"arguments\":\"{\\\"url\\\": \\\"https://example.org/manual\\\"}\"}}]},\"finish_reason\":null}]}\n\n" \
  "data: {\"choices\":[{\"index\":0,\"delta\":{},\"finish_reason\":\"tool_calls\"}]}\n\n" \
  "data: [DONE]\n\n"

#define SSE_TEXT_AND_LINK_AGAIN \
  "data: {\"choices\":[{\"index\":0,\"delta\":{\"role\":\"assistant\",\"content\":\"Opening it once more.\"},\"finish_reason\":null}]}\n\n" \
  "data: {\"choices\":[{\"index\":0,\"delta\":{\"tool_calls\":[{\"index\":0,\"id\":\"call_fail\",\"type\":\"function\",\"function\":{\"name\":\"open_link\",\"arguments\":\"{\\\"url\\\": \\\"https://example.org/manual\\\"}\"}}]},\"finish_reason\":null}]}\n\n" \
  "data: {\"choices\":[{\"index\":0,\"delta\":{},\"finish_reason\":\"tool_calls\"}]}\n\n" \
  "data: [DONE]\n\n"

static gboolean
no_browser_here (const char  *uri,
                 GError     **error)
{
  g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_NOT_SUPPORTED, "Operation not supported");
  return FALSE;
}

/* The settled card of open_link in the row of the reply whose text begins
 * with @text, saying @outcome, or NULL. */
static GtkWidget *
settled_card_under_text (AkcWindow  *window,
                         const char *text,
                         const char *outcome)
{
  GtkWidget *label = find_widget (GTK_WIDGET (window), is_label_with_prefix, text);
  GtkWidget *row = label != NULL ? gtk_widget_get_ancestor (label, AKC_TYPE_MESSAGE_ROW) : NULL;
  GtkWidget *card = row != NULL ? find_widget (row, has_css_class, "tool-settled") : NULL;

  if (card == NULL || find_widget (card, is_label_with_text, "Open a link") == NULL ||
      find_widget (card, is_label_with_text, outcome) == NULL)
    return NULL;
  return card;
}

/* A reply with text and a tool call that fails (its arguments do not match
 * the schema) or that the person denies shows its text and, under it, the
 * call's card saying how it ended: the tool message is left out as
 * redundant, so before, the failed call vanished from the transcript. */
static void
test_provider_tool_call_with_text (void)
{
  AkcTestHttpServer *server = akc_test_http_server_new ();
  g_autoptr(GSettings) settings = g_settings_new (APP_ID);
  g_autofree char *base = g_strconcat (akc_test_http_server_get_base_uri (server), "/v1", NULL);
  g_autofree char *path = g_build_filename (folder, "tools-text.sqlite3", NULL);
  g_autoptr(GError) error = NULL;
  AkcChatMemory *memory = akc_test_open (path);
  AkcAppSession *session = akc_test_app_session_new (memory);
  AkcChatSource *source;
  AkcToolCall *call;
  AkcWindow *window;
  GtkWidget *card, *deny;

  use_openai_provider (settings, base, "gpt-a");
  akc_backend_set_link_opener (open_link_here);

  window = present_window (session, 720, 700);
  open_provider_conversation (window);
  source = akc_window_get_source (window);

  /* The schema check fails: the text, and the card of the failed call. */
  akc_test_http_server_respond (server, 200, "text/event-stream", SSE_TEXT_AND_BAD_LINK);
  send_and_wait (source, "open the docs");
  call = last_call (source);
  g_assert_nonnull (call);
  g_assert_cmpint (akc_tool_call_get_status (call), ==, AKC_TOOL_CALL_STATUS_ERROR);
  wait_frames (GTK_WIDGET (window), 3);
  card = settled_card_under_text (window, "Let me open it for you.", akc_tool_call_get_error (call));
  g_assert_nonnull (card);
  g_assert_true (gtk_widget_get_mapped (card));
  g_assert_true (has_css_class (card, "refused"));
  g_assert_null (opened);

  /* Denied: the text stays, and the card says the person denied it. */
  akc_test_http_server_respond (server, 200, "text/event-stream", SSE_TEXT_AND_LINK);
  g_assert_true (akc_chat_source_send (source, "the manual then", &error));
  g_assert_no_error (error);
  deny = gtk_widget_get_ancestor (wait_for_widget (GTK_WIDGET (window), is_label_with_text, "Deny"), GTK_TYPE_BUTTON);
  g_assert_null (settled_card_under_text (window, "Opening the manual now.", "You denied this action."));
  akc_test_http_server_respond (server, 200, "text/event-stream", SSE_REPLY);
  g_signal_emit_by_name (deny, "clicked");
  WAIT_UNTIL (!(akc_chat_source_get_status (source) == AKC_CHAT_STATUS_STREAMING || akc_test_http_server_get_n_requests (server) < 3));
  wait_until_idle (source);
  wait_frames (GTK_WIDGET (window), 3);
  g_assert_null (opened);
  card = settled_card_under_text (window, "Opening the manual now.", "You denied this action.");
  g_assert_nonnull (card);
  g_assert_true (gtk_widget_get_mapped (card));
  /* The first call's card is still there too. */
  g_assert_nonnull (settled_card_under_text (window, "Let me open it for you.",
                                             "Tool call arguments do not match the tool's schema."));

  /* Approved, but no browser opens it: the card says so in a sentence
   * that names the link, not GIO's "Operation not supported" alone. */
  akc_backend_set_link_opener (no_browser_here);
  akc_test_http_server_respond (server, 200, "text/event-stream", SSE_TEXT_AND_LINK_AGAIN);
  g_assert_true (akc_chat_source_send (source, "once more", &error));
  g_assert_no_error (error);
  WAIT_UNTIL (!((call = last_call (source)) == NULL || g_strcmp0 (akc_tool_call_get_id (call), "call_fail") != 0 || akc_tool_call_get_status (call) != AKC_TOOL_CALL_STATUS_REQUIRES_CONFIRMATION));
  wait_until_idle (source);
  akc_test_http_server_respond (server, 200, "text/event-stream", SSE_REPLY);
  g_assert_true (akc_chat_source_approve (source, "call_fail", &error));
  g_assert_no_error (error);
  wait_until_idle (source);
  wait_frames (GTK_WIDGET (window), 3);
  card = settled_card_under_text (window, "Opening it once more.",
                                  "No web browser could open https://example.org/manual (Operation not supported).");
  g_assert_nonnull (card);
  g_assert_true (has_css_class (card, "refused"));

  close_all (window, session, memory, server, settings);
  akc_backend_set_link_opener (NULL);
  g_clear_pointer (&opened, g_free);
}

#define SSE_KEYS_TEXT \
  "data: {\"choices\":[{\"index\":0,\"delta\":{\"role\":\"assistant\",\"content\":\"I can open the manual.\"},\"finish_reason\":null}]}\n\n"
#define SSE_KEYS_CALL \
  "data: {\"choices\":[{\"index\":0,\"delta\":{\"tool_calls\":[{\"index\":0,\"id\":\"call_keys\",\"type\":\"function\",\"function\":{\"name\":\"open_link\",\"arguments\":\"{\\\"url\\\": \\\"https://example.org/manual\\\"}\"}}]},\"finish_reason\":null}]}\n\n" \
  "data: {\"choices\":[{\"index\":0,\"delta\":{},\"finish_reason\":\"tool_calls\"}]}\n\n" \
  "data: [DONE]\n\n"
#define SSE_TYPED_TEXT \
  "data: {\"choices\":[{\"index\":0,\"delta\":{\"role\":\"assistant\",\"content\":\"Opening the manual again.\"},\"finish_reason\":null}]}\n\n"
#define SSE_TYPED_CALL \
  "data: {\"choices\":[{\"index\":0,\"delta\":{\"tool_calls\":[{\"index\":0,\"id\":\"call_typed\",\"type\":\"function\",\"function\":{\"name\":\"open_link\",\"arguments\":\"{\\\"url\\\": \\\"https://example.org/manual\\\"}\"}}]},\"finish_reason\":null}]}\n\n" \
  "data: {\"choices\":[{\"index\":0,\"delta\":{},\"finish_reason\":\"tool_calls\"}]}\n\n" \
  "data: [DONE]\n\n"

/* The Approve or Deny button (@action) of the confirmation of @call_id. */
static GtkWidget *
confirmation_button (AkcWindow  *window,
                     const char *action,
                     const char *call_id)
{
  g_autoptr(GPtrArray) buttons = find_all (GTK_WIDGET (window), is_type, GSIZE_TO_POINTER (GTK_TYPE_BUTTON));

  for (guint i = 0; i < buttons->len; i++)
    {
      GtkWidget *button = g_ptr_array_index (buttons, i);
      GVariant *target = gtk_actionable_get_action_target_value (GTK_ACTIONABLE (button));

      if (g_strcmp0 (gtk_actionable_get_action_name (GTK_ACTIONABLE (button)), action) == 0 &&
          target != NULL && g_variant_is_of_type (target, G_VARIANT_TYPE_STRING) &&
          g_strcmp0 (g_variant_get_string (target, NULL), call_id) == 0)
        return button;
    }
  return NULL;
}

static GtkWidget *
focus_of (AkcWindow *window)
{
  return gtk_root_get_focus (GTK_ROOT (window));
}

/* Whether the keyboard is in the entry of @composer. */
static gboolean
in_composer (AkcWindow   *window,
             AkcComposer *composer)
{
  GtkWidget *focus = focus_of (window);

  return GTK_IS_TEXT_VIEW (focus) && gtk_widget_is_ancestor (focus, GTK_WIDGET (composer));
}

/* @what, with where the keyboard is, whether the window is active and
 * whether @source streams: what a wait for the keyboard that failed
 * says (a case that failed once in a while in CI, and never here). */
static const char *
keyboard_state (AkcWindow     *window,
                AkcChatSource *source,
                const char    *what)
{
  static char text[512];
  GtkWidget *focus = focus_of (window);
  const char *label = NULL;

  if (focus != NULL)
    label = gtk_widget_get_name (focus);
  g_snprintf (text, sizeof text, "%s (the keyboard in %s \"%s\", the window %s, the chat %s)", what,
              focus != NULL ? G_OBJECT_TYPE_NAME (focus) : "nothing", label != NULL ? label : "",
              gtk_window_is_active (GTK_WINDOW (window)) ? "active" : "not active",
              akc_chat_source_get_status (source) == AKC_CHAT_STATUS_STREAMING ? "streaming" : "not streaming");
  return text;
}

/* The last message of @source, an assistant's reply that ended with
 * @text. */
static gboolean
reply_ended_with (AkcChatSource *source,
                  const char    *text)
{
  GListModel *messages = akc_chat_source_get_messages (source);
  guint n = g_list_model_get_n_items (messages);
  g_autoptr(AkcMessage) last = n > 0 ? g_list_model_get_item (messages, n - 1) : NULL;

  return akc_chat_source_get_status (source) == AKC_CHAT_STATUS_IDLE && last != NULL &&
         akc_message_get_role (last) == AKC_MESSAGE_ROLE_ASSISTANT &&
         akc_message_get_status (last) == AKC_MESSAGE_STATUS_COMPLETE &&
         g_strcmp0 (akc_message_get_content (last), text) == 0;
}

/* Whether the reply streaming now has shown @text so far. */
static gboolean
streams_text (AkcChatSource *source,
              const char    *text)
{
  GListModel *messages = akc_chat_source_get_messages (source);
  guint n = g_list_model_get_n_items (messages);
  g_autoptr(AkcMessage) last = n > 0 ? g_list_model_get_item (messages, n - 1) : NULL;

  return akc_chat_source_get_status (source) == AKC_CHAT_STATUS_STREAMING && last != NULL &&
         akc_message_get_role (last) == AKC_MESSAGE_ROLE_ASSISTANT &&
         g_strcmp0 (akc_message_get_content (last), text) == 0;
}

/* A model's call that waits for the person takes the keyboard as a
 * demo's chosen action does: once the reply has ended, on Deny; Tab
 * reaches Approve and Shift+Tab comes back, Escape leaves it pending and
 * goes back to the composer, Enter on Deny denies it, and the denial goes
 * back to the model in the next request, whose reply ends the turn. A
 * reply that ends while the person is writing in the composer leaves the
 * keyboard, and what they typed, where it is.
 *
 * Every wait is for something the server or the window does, never for a
 * time: the server answers each request whole (the follow-up with
 * Connection: close), and the one the person writes into is held open by
 * the server until the test has typed, then ended. */
static void
test_provider_tool_call_keyboard (void)
{
  AkcTestHttpServer *server = akc_test_http_server_new ();
  g_autoptr(GSettings) settings = g_settings_new (APP_ID);
  g_autofree char *base = g_strconcat (akc_test_http_server_get_base_uri (server), "/v1", NULL);
  g_autofree char *path = g_build_filename (folder, "tools-keyboard.sqlite3", NULL);
  g_autofree char *typed = NULL;
  g_autoptr(GError) error = NULL;
  AkcChatMemory *memory = akc_test_open (path);
  AkcAppSession *session = akc_test_app_session_new (memory);
  AkcTestResponse *response;
  AkcChatSource *source;
  AkcComposer *composer;
  AkcToolCall *call;
  AkcWindow *window;
  GtkWidget *deny, *approve;
  guint asked;
  int follow_up;

  reset_settings (settings);
  akc_provider_page_set_local_ollama_url ("http://127.0.0.1:9");
  akc_backend_set_link_opener (open_link_here);
  g_settings_set_string (settings, "provider-kind", "openai");
  g_settings_set_string (settings, "provider-url", base);
  g_settings_set_string (settings, "provider-model", "gpt-a");

  window = g_object_new (AKC_TYPE_WINDOW, "session", session, "default-width", 720, "default-height", 700, NULL);
  gtk_window_present (GTK_WINDOW (window));
  wait_backend (akc_window_get_backend (window, AKC_BACKEND_KIND_PROVIDER));
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.conversation", "s", "provider"));
  wait_loaded (akc_window_get_item (window));
  source = akc_window_get_source (window);
  composer = AKC_COMPOSER (find_by_type (GTK_WIDGET (window), AKC_TYPE_COMPOSER));
  g_assert_nonnull (composer);

  /* Written and sent from the keyboard. */
  akc_test_http_server_respond (server, 200, "text/event-stream", SSE_KEYS_TEXT SSE_KEYS_CALL);
  WAIT_UNTIL_WHAT (in_composer (window, composer), "the composer to have the keyboard");
  akc_composer_set_text (composer, "open the manual");
  g_assert_true (press_key (GTK_WINDOW (window), GDK_KEY_Return, 0));
  WAIT_UNTIL_WHAT (reply_ended_with (source, "I can open the manual."), "the reply with the call to end");
  call = akc_test_find_tool_call (source, "call_keys");
  g_assert_nonnull (call);
  g_assert_cmpint (akc_tool_call_get_status (call), ==, AKC_TOOL_CALL_STATUS_REQUIRES_CONFIRMATION);
  asked = akc_test_http_server_get_n_requests (server);

  /* The confirmation has the keyboard, on Deny. */
  WAIT_UNTIL_WHAT ((deny = confirmation_button (window, "chat.deny", "call_keys")) != NULL &&
                   focus_of (window) == deny,
                   "Deny of the model's call to take the keyboard once the reply ended");
  approve = confirmation_button (window, "chat.approve", "call_keys");
  g_assert_nonnull (approve);
  g_assert_true (gtk_widget_get_mapped (deny));

  /* Tab reaches Approve, Shift+Tab comes back to Deny. */
  g_assert_true (press_key (GTK_WINDOW (window), GDK_KEY_Tab, 0));
  WAIT_UNTIL_WHAT (focus_of (window) == approve, "Tab to reach Approve");
  g_assert_true (press_key (GTK_WINDOW (window), GDK_KEY_Tab, GDK_SHIFT_MASK));
  WAIT_UNTIL_WHAT (focus_of (window) == deny, "Shift+Tab to come back to Deny");

  /* Escape sets it aside: pending still, the keyboard in the composer. */
  g_assert_true (press_key (GTK_WINDOW (window), GDK_KEY_Escape, 0));
  WAIT_UNTIL_WHAT (in_composer (window, composer), keyboard_state (window, source,
                                                                    "Escape to give the keyboard back to the composer"));
  g_assert_cmpint (akc_tool_call_get_status (call), ==, AKC_TOOL_CALL_STATUS_REQUIRES_CONFIRMATION);
  g_assert_true (confirmation_button (window, "chat.deny", "call_keys") == deny);
  g_assert_cmpuint (akc_test_http_server_get_n_requests (server), ==, asked);

  /* Back on Deny, Enter denies: the model hears it in the next request,
   * answered whole, and its reply ends the turn. */
  response = akc_test_response_new (200, "text/event-stream");
  akc_test_response_add_chunk (response, SSE_REPLY, -1);
  response->close = TRUE;
  akc_test_http_server_set_response (server, response);
  g_assert_true (gtk_widget_grab_focus (deny));
  g_assert_true (press_key (GTK_WINDOW (window), GDK_KEY_Return, 0));
  WAIT_UNTIL_WHAT ((follow_up = akc_test_http_server_find_request (server, asked, "/v1/chat/completions",
                                                                  "\"tool_call_id\":\"call_keys\"")) >= 0,
                   "the follow-up request with the denial's tool result");
  {
    GBytes *body = akc_test_http_server_get_nth_body (server, (guint) follow_up);
    gsize length = 0;
    const char *data = g_bytes_get_data (body, &length);

    g_test_message ("follow-up request: %.*s", (int) MIN (length, 600), data);
    g_assert_nonnull (g_strstr_len (data, (gssize) length, "\"role\":\"tool\""));
    g_assert_nonnull (g_strstr_len (data, (gssize) length, "Permission denied"));
  }
  WAIT_UNTIL_WHAT (reply_ended_with (source, "Hi"), "the reply to the denial to end");
  WAIT_UNTIL_WHAT (akc_test_http_server_get_finished (server), "the server to finish answering the follow-up");
  g_assert_cmpint (akc_tool_call_get_status (call), ==, AKC_TOOL_CALL_STATUS_ERROR);
  g_assert_nonnull (strstr (akc_tool_call_get_error (call), "denied"));
  g_assert_null (opened);
  WAIT_UNTIL_WHAT (in_composer (window, composer), "the composer to have the keyboard after the denial");

  /* The person writes while the next reply streams (the server holds its
   * end until then): the reply's call does not take the keyboard. */
  response = akc_test_response_new (200, "text/event-stream");
  akc_test_response_add_chunk (response, SSE_TYPED_TEXT, -1);
  response->end = AKC_TEST_END_OPEN;
  akc_test_http_server_set_response (server, response);
  asked = akc_test_http_server_get_n_requests (server);
  akc_composer_set_text (composer, "and the manual again");
  g_assert_true (press_key (GTK_WINDOW (window), GDK_KEY_Return, 0));
  WAIT_UNTIL_WHAT (streams_text (source, "Opening the manual again.") && akc_test_http_server_get_held (server),
                   "the reply's text, its end held by the server");
  g_assert_true (in_composer (window, composer));
  akc_composer_set_text (composer, "wait, I");
  g_assert_true (akc_test_http_server_release (server, SSE_TYPED_CALL));
  WAIT_UNTIL_WHAT (reply_ended_with (source, "Opening the manual again."), "the held reply to end");
  WAIT_UNTIL_WHAT ((deny = confirmation_button (window, "chat.deny", "call_typed")) != NULL &&
                   gtk_widget_get_mapped (deny),
                   "the confirmation of the second call on screen");
  wait_frames (GTK_WIDGET (window), 3);
  g_assert_true (in_composer (window, composer));
  typed = akc_composer_dup_text (composer);
  g_assert_cmpstr (typed, ==, "wait, I");
  g_assert_cmpint (akc_tool_call_get_status (akc_test_find_tool_call (source, "call_typed")), ==,
                   AKC_TOOL_CALL_STATUS_REQUIRES_CONFIRMATION);
  g_assert_cmpuint (akc_test_http_server_get_n_requests (server), ==, asked + 1);

  close_window (window, session, memory);
  akc_test_http_server_free (server);
  akc_backend_set_link_opener (NULL);
  g_clear_pointer (&opened, g_free);
  akc_provider_page_set_local_ollama_url (NULL);
  reset_settings (settings);
}

static GtkWidget *
attach_refusal (AkcComposer *composer)
{
  return find_widget (GTK_WIDGET (composer), is_label_with_prefix, "The model of this conversation does not take images");
}

/* Attaches @picture; returns how many attachments the composer holds. */
static guint
attach (AkcComposer *composer,
        GFile       *picture)
{
  akc_composer_attach_file (composer, picture);
  WAIT_UNTIL (akc_composer_get_n_loading (composer) <= 0);
  return g_list_model_get_n_items (akc_composer_get_attachments (composer));
}

/* An OpenAI-compatible (or Anthropic) provider does not say which models
 * take images: the person says it, per model, with the switch in the
 * model's popover; a model said to take none gets its images refused by
 * the composer, with the reason, and another model of the same provider
 * still takes them; it is kept with the provider's base URL, across a
 * restart. An Ollama model's switch shows what Ollama said, and cannot be
 * changed. */
static void
test_model_takes_images (void)
{
  AkcTestHttpServer *server = akc_test_http_server_new ();
  g_autoptr(GSettings) settings = g_settings_new (APP_ID);
  g_autofree char *base = g_strconcat (akc_test_http_server_get_base_uri (server), "/v1", NULL);
  g_autofree char *path = g_build_filename (folder, "takes-images.sqlite3", NULL);
  g_autoptr(GFile) picture = write_picture ("dot2.png");
  g_autoptr(GVariant) kept = NULL;
  g_autofree char *printed = NULL;
  g_autofree char *id = NULL;
  AkcChatMemory *memory = akc_test_open (path);
  AkcAppSession *session = akc_test_app_session_new (memory);
  AkcModelSwitch *model_switch;
  AkcComposer *composer;
  GtkSwitch *images;
  AkcWindow *window;
  GtkWidget *popover;

  use_openai_provider (settings, base, "text-only");
  akc_test_http_server_respond (server, 200, "application/json", "{\"object\":\"list\",\"data\":[{\"id\":\"text-only\"},{\"id\":\"vision\"}]}");

  window = present_window (session, 0, 0);
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.conversation", "s", "provider"));
  id = g_strdup (akc_conversation_item_get_id (akc_window_get_item (window)));
  wait_loaded (akc_window_get_item (window));
  model_switch = akc_window_get_model_switch (window);
  composer = AKC_COMPOSER (find_by_type (GTK_WIDGET (window), AKC_TYPE_COMPOSER));

  /* Nothing said yet: images go (the provider refuses them itself if it
   * must), and the switch says so. */
  g_assert_true (takes_images (akc_window_get_source (window)));
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.switch-model", NULL));
  wait_listed (model_switch);
  images = akc_model_switch_get_images_switch (model_switch);
  popover = gtk_widget_get_ancestor (GTK_WIDGET (images), GTK_TYPE_POPOVER);
  g_assert_true (gtk_widget_is_drawable (GTK_WIDGET (images)));
  g_assert_true (gtk_widget_get_sensitive (GTK_WIDGET (images)));
  g_assert_true (gtk_switch_get_active (images));
  g_assert_nonnull (find_widget (popover, is_label_with_prefix, "Images are sent to this model."));
  gtk_test_accessible_assert_role (GTK_ACCESSIBLE (images), GTK_ACCESSIBLE_ROLE_SWITCH);
  g_assert_true (gtk_widget_get_focusable (GTK_WIDGET (images)));

  /* Said to take none: refused in the composer, with the reason. */
  gtk_switch_set_active (images, FALSE);
  spin ();
  g_assert_false (takes_images (akc_window_get_source (window)));
  g_assert_nonnull (find_widget (popover, is_label_with_prefix, "Images are refused for this model."));
  kept = g_settings_get_value (settings, "provider-model-images");
  printed = g_variant_print (kept, FALSE);
  g_test_message ("kept: %s", printed);
  g_assert_nonnull (strstr (printed, base));
  g_assert_nonnull (strstr (printed, "'text-only', false"));
  gtk_popover_popdown (GTK_POPOVER (popover));
  spin ();
  g_assert_cmpuint (attach (composer, picture), ==, 0);
  g_assert_nonnull (attach_refusal (composer));

  /* Another model of the provider still takes them (the empty
   * conversation is reused, held with it now). */
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.new-chat-with-model", "s", "vision"));
  spin ();
  wait_loaded (akc_window_get_item (window));
  g_assert_true (takes_images (akc_window_get_source (window)));
  g_assert_cmpuint (attach (composer, picture), ==, 1);
  akc_composer_set_text (composer, NULL);
  g_list_store_remove_all (G_LIST_STORE (akc_composer_get_attachments (composer)));

  /* Restart: still said. */
  close_window (window, session, memory);
  memory = akc_test_open (path);
  session = akc_test_app_session_new (memory);
  window = present_window (session, 0, 0);
  akc_window_show_item (window, akc_app_session_lookup_conversation (session, id));
  wait_loaded (akc_window_get_item (window));
  g_assert_cmpstr (akc_conversation_item_get_model (akc_window_get_item (window)), ==, "vision");
  g_assert_true (takes_images (akc_window_get_source (window)));
  akc_app_session_set_conversation_model (session, akc_window_get_item (window), "text-only");
  g_assert_false (takes_images (akc_window_get_source (window)));
  /* The same model of another provider is another model. */
  g_settings_set_string (settings, "provider-url", akc_test_http_server_get_base_uri (server));
  wait_backend (akc_window_get_backend (window, AKC_BACKEND_KIND_PROVIDER));
  g_assert_true (akc_backend_get_model_takes_images (akc_window_get_backend (window, AKC_BACKEND_KIND_PROVIDER),
                                                     "text-only"));

  /* Ollama says it: shown, not changed. */
  akc_test_http_server_respond (server, 200, "application/json", "{\"capabilities\":[\"completion\"]}");
  g_settings_set_string (settings, "provider-kind", "ollama");
  g_settings_set_string (settings, "provider-url", akc_test_http_server_get_base_uri (server));
  wait_backend (akc_window_get_backend (window, AKC_BACKEND_KIND_PROVIDER));
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.new-chat-with-model", "s", "text-only"));
  spin ();
  WAIT_UNTIL (!takes_images (akc_window_get_source (window)));
  model_switch = akc_window_get_model_switch (window);
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.switch-model", NULL));
  wait_listed (model_switch);
  images = akc_model_switch_get_images_switch (model_switch);
  g_assert_false (gtk_widget_get_sensitive (GTK_WIDGET (images)));
  g_assert_false (gtk_switch_get_active (images));
  g_assert_nonnull (find_widget (gtk_widget_get_ancestor (GTK_WIDGET (images), GTK_TYPE_POPOVER),
                                 is_label_with_prefix, "Ollama says this model does not read images"));

  close_all (window, session, memory, server, settings);
}

int
main (int   argc,
      char *argv[])
{
  int rc;

  setlocale (LC_ALL, "");
  bindtextdomain (GETTEXT_PACKAGE, LOCALEDIR);
  bind_textdomain_codeset (GETTEXT_PACKAGE, "UTF-8");
  textdomain (GETTEXT_PACKAGE);

  folder = akc_test_use_file_keyring ("akc-model-switch");

  gtk_test_init (&argc, &argv, NULL);
  adw_init ();

  g_test_add_func ("/window/model-switch", test_model_switch);
  g_test_add_func ("/window/model-name-fits", test_model_name_fits);
  g_test_add_func ("/window/model-list-whole", test_model_list_whole);
  g_test_add_func ("/window/first-run-ollama", test_first_run_ollama);
  g_test_add_func ("/window/first-run-provider-empty", test_first_run_provider_empty);
  g_test_add_func ("/window/ollama-probed-once", test_ollama_probed_once);
  g_test_add_func ("/window/new-chat-with-model", test_new_chat_with_model);
  g_test_add_func ("/window/model-without-images", test_model_without_images);
  g_test_add_func ("/window/model-takes-images", test_model_takes_images);
  g_test_add_func ("/window/provider-errors", test_provider_errors);
  g_test_add_func ("/window/provider-errors-after-restart", test_provider_errors_after_restart);
  g_test_add_func ("/window/provider-tool-call", test_provider_tool_call);
  g_test_add_func ("/window/provider-tool-call-with-text", test_provider_tool_call_with_text);
  g_test_add_func ("/window/provider-tool-call-keyboard", test_provider_tool_call_keyboard);

  rc = g_test_run ();
  /* The histories leave their -wal and -shm files: all of it goes. */
  akc_test_remove_tree (folder);
  g_clear_pointer (&folder, g_free);
  return rc;
}
