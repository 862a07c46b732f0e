/* test-window.c: the main window, in process, with GTK's test accessibility backend
 *
 * SPDX-License-Identifier: MIT
 */

#include "config.h"

#include <locale.h>
#include <glib/gi18n.h>
#include <akc-gtk.h>

#include "akc-window.h"

typedef gboolean (*WidgetMatch) (GtkWidget *widget, gconstpointer data);

static GtkWidget *
find_widget (GtkWidget     *root,
             WidgetMatch    match,
             gconstpointer  data)
{
  if (match (root, data))
    return root;

  for (GtkWidget *child = gtk_widget_get_first_child (root);
       child != NULL;
       child = gtk_widget_get_next_sibling (child))
    {
      GtkWidget *found = find_widget (child, match, data);

      if (found != NULL)
        return found;
    }

  return NULL;
}

static gboolean
is_type (GtkWidget     *widget,
         gconstpointer  data)
{
  return G_TYPE_CHECK_INSTANCE_TYPE (widget, GPOINTER_TO_SIZE (data));
}

static gboolean
has_action (GtkWidget     *widget,
            gconstpointer  data)
{
  return GTK_IS_ACTIONABLE (widget) &&
         g_strcmp0 (gtk_actionable_get_action_name (GTK_ACTIONABLE (widget)), data) == 0;
}

static gboolean
is_label_with_text (GtkWidget     *widget,
                    gconstpointer  data)
{
  return GTK_IS_LABEL (widget) && g_strcmp0 (gtk_label_get_text (GTK_LABEL (widget)), data) == 0;
}

static GtkWidget *
find_by_type (GtkWidget *root,
              GType      type)
{
  GtkWidget *widget = find_widget (root, is_type, GSIZE_TO_POINTER (type));

  g_assert_nonnull (widget);
  return widget;
}

static GtkWidget *
find_by_action (GtkWidget  *root,
                const char *action)
{
  GtkWidget *widget = find_widget (root, has_action, action);

  g_assert_nonnull (widget);
  return widget;
}

static void
wait_until_idle (AkcChatSource *source)
{
  while (akc_chat_source_get_status (source) == AKC_CHAT_STATUS_STREAMING)
    g_main_context_iteration (NULL, TRUE);
  /* Let rows pick up the last chunks at the next frame. */
  for (guint i = 0; i < 20; i++)
    g_main_context_iteration (NULL, FALSE);
}

static AkcWindow *
new_window (void)
{
  AkcWindow *window = g_object_new (AKC_TYPE_WINDOW, NULL);

  gtk_window_present (GTK_WINDOW (window));
  return window;
}

static void
test_window_accessibility (void)
{
  AkcWindow *window = new_window ();
  GtkWidget *root = GTK_WIDGET (window);
  GtkWidget *transcript, *entry, *send, *stop, *composer;

  transcript = find_by_type (root, GTK_TYPE_LIST_VIEW);
  gtk_test_accessible_assert_role (transcript, GTK_ACCESSIBLE_ROLE_LOG);
  gtk_test_accessible_assert_property (transcript, GTK_ACCESSIBLE_PROPERTY_LABEL, "Messages");
  /* The list view scrolls itself (through the clamp), so rows are recycled. */
  g_assert_true (GTK_IS_SCROLLABLE (gtk_widget_get_parent (transcript)));
  g_assert_true (GTK_IS_SCROLLED_WINDOW (gtk_widget_get_parent (gtk_widget_get_parent (transcript))));

  composer = find_by_type (root, AKC_TYPE_COMPOSER);
  entry = find_by_type (composer, GTK_TYPE_TEXT_VIEW);
  gtk_test_accessible_assert_role (entry, GTK_ACCESSIBLE_ROLE_TEXT_BOX);
  gtk_test_accessible_assert_property (entry, GTK_ACCESSIBLE_PROPERTY_LABEL, "Message");
  gtk_test_accessible_assert_property (entry, GTK_ACCESSIBLE_PROPERTY_PLACEHOLDER, "Type a message...");
  gtk_test_accessible_assert_property (entry, GTK_ACCESSIBLE_PROPERTY_MULTI_LINE, TRUE);

  send = find_by_action (composer, "composer.send");
  gtk_test_accessible_assert_role (send, GTK_ACCESSIBLE_ROLE_BUTTON);
  gtk_test_accessible_assert_property (send, GTK_ACCESSIBLE_PROPERTY_LABEL, "Send");
  stop = find_by_action (composer, "composer.stop");
  gtk_test_accessible_assert_role (stop, GTK_ACCESSIBLE_ROLE_BUTTON);
  gtk_test_accessible_assert_property (stop, GTK_ACCESSIBLE_PROPERTY_LABEL, "Stop");

  /* Nothing to send yet: Send is disabled, Stop hidden. */
  g_assert_false (gtk_widget_is_sensitive (send));
  g_assert_false (gtk_widget_get_visible (stop));
  g_assert_true (gtk_widget_has_focus (entry));

  gtk_window_destroy (GTK_WINDOW (window));
}

static void
test_window_stream_and_stop (void)
{
  AkcWindow *window = new_window ();
  AkcChatSource *source = akc_window_get_source (window);
  AkcComposer *composer = AKC_COMPOSER (find_by_type (GTK_WIDGET (window), AKC_TYPE_COMPOSER));
  GtkWidget *entry = find_by_type (GTK_WIDGET (composer), GTK_TYPE_TEXT_VIEW);
  GtkWidget *stop = find_by_action (GTK_WIDGET (composer), "composer.stop");
  GListModel *messages = akc_chat_source_get_messages (source);
  g_autoptr(AkcMessage) reply = NULL;
  g_autoptr(AkcMessage) slow = NULL;
  g_autofree char *text = NULL;

  akc_composer_set_text (composer, "hello");
  g_assert_true (gtk_widget_is_sensitive (find_by_action (GTK_WIDGET (composer), "composer.send")));
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (composer), "composer.send", NULL));
  g_assert_cmpint (akc_chat_source_get_status (source), ==, AKC_CHAT_STATUS_STREAMING);

  /* While streaming: the entry is disabled, Stop replaces Send. */
  g_assert_false (gtk_widget_is_sensitive (entry));
  g_assert_true (gtk_widget_get_visible (stop));
  text = akc_composer_dup_text (composer);
  g_assert_cmpstr (text, ==, "");

  wait_until_idle (source);
  g_assert_cmpuint (g_list_model_get_n_items (messages), ==, 2);
  reply = g_list_model_get_item (messages, 1);
  g_assert_cmpstr (akc_message_get_content (reply), ==, "AgentsKit received: hello");
  g_assert_nonnull (find_widget (GTK_WIDGET (window), is_label_with_text, "AgentsKit received: hello"));
  g_assert_true (gtk_widget_is_sensitive (entry));

  /* Escape stops a reply mid-stream. */
  akc_composer_set_text (composer, "/slow");
  akc_composer_send (composer);
  g_assert_cmpint (akc_chat_source_get_status (source), ==, AKC_CHAT_STATUS_STREAMING);
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.stop", NULL));
  g_assert_cmpint (akc_chat_source_get_status (source), ==, AKC_CHAT_STATUS_IDLE);
  slow = g_list_model_get_item (messages, 3);
  g_assert_cmpint (akc_message_get_status (slow), ==, AKC_MESSAGE_STATUS_COMPLETE);
  g_assert_true (akc_message_get_stopped (slow));

  gtk_window_destroy (GTK_WINDOW (window));
}

static void
test_window_error_is_an_alert (void)
{
  AkcWindow *window = new_window ();
  AkcChatSource *source = akc_window_get_source (window);
  AkcComposer *composer = AKC_COMPOSER (find_by_type (GTK_WIDGET (window), AKC_TYPE_COMPOSER));
  GtkWidget *message, *alert;

  akc_composer_set_text (composer, "/fail");
  akc_composer_send (composer);
  wait_until_idle (source);
  g_assert_cmpint (akc_chat_source_get_status (source), ==, AKC_CHAT_STATUS_ERROR);

  message = find_widget (GTK_WIDGET (window), is_label_with_text,
                         "The deterministic adapter failed as requested.");
  g_assert_nonnull (message);
  g_assert_true (gtk_widget_is_visible (message));
  alert = gtk_widget_get_parent (message);
  gtk_test_accessible_assert_role (alert, GTK_ACCESSIBLE_ROLE_ALERT);
  gtk_test_accessible_assert_property (find_by_action (alert, "win.retry"),
                                       GTK_ACCESSIBLE_PROPERTY_LABEL, "Retry response");

  /* Retrying clears the error. */
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.retry", NULL));
  g_assert_null (akc_chat_source_get_error (source));
  g_assert_false (gtk_widget_is_visible (message));

  gtk_window_destroy (GTK_WINDOW (window));
}

static void
test_window_state_persists (void)
{
  g_autoptr(GSettings) settings = g_settings_new (APP_ID);
  AkcWindow *window = new_window ();
  int width = 0, height = 0;

  gtk_window_set_default_size (GTK_WINDOW (window), 503, 411);
  gtk_window_close (GTK_WINDOW (window));
  g_assert_cmpint (g_settings_get_int (settings, "window-width"), ==, 503);
  g_assert_cmpint (g_settings_get_int (settings, "window-height"), ==, 411);
  g_assert_false (g_settings_get_boolean (settings, "window-maximized"));

  window = new_window ();
  gtk_window_get_default_size (GTK_WINDOW (window), &width, &height);
  g_assert_cmpint (width, ==, 503);
  g_assert_cmpint (height, ==, 411);
  gtk_window_destroy (GTK_WINDOW (window));

  g_settings_reset (settings, "window-width");
  g_settings_reset (settings, "window-height");
}

static void
test_window_translated (void)
{
  const char *po_dir = g_getenv ("AKC_BUILD_LOCALEDIR");
  AkcWindow *window;

  if (po_dir == NULL)
    {
      g_test_fail_printf ("AKC_BUILD_LOCALEDIR is not set");
      return;
    }

  /* The German catalogue built from po/de.po is what the window shows. */
  bindtextdomain (GETTEXT_PACKAGE, po_dir);
  g_setenv ("LANGUAGE", "de", TRUE);
  setlocale (LC_MESSAGES, "");

  window = new_window ();
  g_assert_nonnull (find_widget (GTK_WIDGET (window), is_label_with_text, "Hallo-Welt-Demo"));
  gtk_test_accessible_assert_property (find_by_action (GTK_WIDGET (window), "composer.send"),
                                       GTK_ACCESSIBLE_PROPERTY_LABEL, "Senden");
  gtk_window_destroy (GTK_WINDOW (window));

  g_setenv ("LANGUAGE", "C", TRUE);
}

int
main (int   argc,
      char *argv[])
{
  setlocale (LC_ALL, "");
  bindtextdomain (GETTEXT_PACKAGE, LOCALEDIR);
  bind_textdomain_codeset (GETTEXT_PACKAGE, "UTF-8");
  textdomain (GETTEXT_PACKAGE);

  gtk_test_init (&argc, &argv, NULL);
  adw_init ();

  g_test_add_func ("/window/accessibility", test_window_accessibility);
  g_test_add_func ("/window/stream-and-stop", test_window_stream_and_stop);
  g_test_add_func ("/window/error-is-an-alert", test_window_error_is_an_alert);
  g_test_add_func ("/window/state-persists", test_window_state_persists);
  g_test_add_func ("/window/translated", test_window_translated);

  return g_test_run ();
}
