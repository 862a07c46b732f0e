/* test-window.c: the main window, in process, with GTK's test accessibility backend
 *
 * SPDX-License-Identifier: MIT
 */

#include "config.h"

#include <math.h>

#include <locale.h>
#include <glib/gi18n.h>
#include <glib/gstdio.h>
#include <akc-gtk.h>

#include "akc-application.h"
#include "akc-window.h"
#include "akc-test-ui.h"

static gboolean
has_action (GtkWidget     *widget,
            gconstpointer  data)
{
  return GTK_IS_ACTIONABLE (widget) &&
         g_strcmp0 (gtk_actionable_get_action_name (GTK_ACTIONABLE (widget)), data) == 0;
}

static GtkWidget *
find_by_action (GtkWidget  *root,
                const char *action)
{
  GtkWidget *widget = find_widget (root, has_action, action);

  g_assert_nonnull (widget);
  return widget;
}

static gboolean
is_streaming (AkcChatSource *source)
{
  return akc_chat_source_get_status (source) == AKC_CHAT_STATUS_STREAMING;
}

/* Waits for the reply to end, then lets rows pick up the last chunks. */
static void
wait_until_shown (AkcChatSource *source)
{
  wait_until_idle (source);
  spin ();
}

/* An application for the windows, with the keys AkcApplication gives them. */
static GtkApplication *
test_application (void)
{
  static GtkApplication *application;

  if (application == NULL)
    {
      g_autoptr(GError) error = NULL;

      application = gtk_application_new ("io.agentskit.Chat.TestWindow", G_APPLICATION_NON_UNIQUE);
      /* No resource base path, as AkcApplication has none. */
      g_application_set_resource_base_path (G_APPLICATION (application), NULL);
      g_assert_true (g_application_register (G_APPLICATION (application), NULL, &error));
      g_assert_no_error (error);
      akc_application_add_accels (application);
    }

  return application;
}

static AkcWindow *
new_window (void)
{
  AkcWindow *window = g_object_new (AKC_TYPE_WINDOW, "application", test_application (), NULL);

  gtk_window_present (GTK_WINDOW (window));
  return window;
}

static void
test_window_accessibility (void)
{
  AkcWindow *window = new_window ();
  GtkWidget *root = GTK_WIDGET (window);
  GtkWidget *transcript, *entry, *send, *stop, *composer;

  transcript = find_by_type (root, AKC_TYPE_CHAT_VIEW);
  gtk_test_accessible_assert_role (transcript, GTK_ACCESSIBLE_ROLE_LOG);
  gtk_test_accessible_assert_property (transcript, GTK_ACCESSIBLE_PROPERTY_LABEL, "Messages");
  /* Scrolled window > clamp > transcript, and the list view inside scrolls
   * itself with the scrolled window's adjustment: rows are recycled. */
  g_assert_true (ADW_IS_CLAMP_SCROLLABLE (gtk_widget_get_parent (transcript)));
  g_assert_true (GTK_IS_SCROLLED_WINDOW (gtk_widget_get_parent (gtk_widget_get_parent (transcript))));
  g_assert_true (gtk_scrollable_get_vadjustment (GTK_SCROLLABLE (find_by_type (transcript, GTK_TYPE_LIST_VIEW))) ==
                 gtk_scrolled_window_get_vadjustment (GTK_SCROLLED_WINDOW (gtk_widget_get_parent (gtk_widget_get_parent (transcript)))));

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

static gboolean
is_page_with_child (GtkWidget     *widget,
                    gconstpointer  data)
{
  return ADW_IS_STATUS_PAGE (widget) && adw_status_page_get_child (ADW_STATUS_PAGE (widget)) != NULL;
}

/* The page a conversation shows before its first message centres its
 * icon, title, description and buttons as AdwStatusPage does, in a tall
 * window too, but no box of it is aligned other than to fill: GTK
 * measures such a box for its width at its height, which laid the
 * wrapping description out at a dozen widths each time. Centred as valign
 * center centres: a pixel that does not share evenly goes below, at an
 * odd height as at an even one (it went above, the page a pixel lower, at
 * every other height). */
static void
test_window_status_page_centred (void)
{
  for (int height = 700; height <= 701; height++)
    {
      AkcWindow *window = g_object_new (AKC_TYPE_WINDOW, "application", test_application (),
                                        "default-width", 720, "default-height", height, NULL);
      GtkWidget *page, *clamp, *content, *viewport, *child;
      graphene_rect_t top, bottom;
      double above, below;

      gtk_window_present (GTK_WINDOW (window));
      wait_frames (GTK_WIDGET (window), 3);

      page = find_widget (GTK_WIDGET (window), is_page_with_child, NULL);
      g_assert_nonnull (page);
      g_assert_true (gtk_widget_get_mapped (page));
      clamp = find_by_type (page, ADW_TYPE_CLAMP);
      viewport = find_by_type (page, GTK_TYPE_VIEWPORT);
      g_assert_nonnull (clamp);
      g_assert_nonnull (viewport);
      content = adw_clamp_get_child (ADW_CLAMP (clamp));
      child = adw_status_page_get_child (ADW_STATUS_PAGE (page));

      for (GtkWidget *w = content; w != page; w = gtk_widget_get_parent (w))
        if (GTK_IS_BOX (w))
          g_assert_cmpint (gtk_widget_get_valign (w), ==, GTK_ALIGN_FILL);

      /* Centred: as much room above the icon as below the last of it. */
      g_assert_true (gtk_widget_compute_bounds (content, viewport, &top));
      g_assert_true (gtk_widget_compute_bounds (gtk_widget_get_visible (child) ? child : content, viewport, &bottom));
      above = top.origin.y;
      below = gtk_widget_get_height (viewport) - (bottom.origin.y + bottom.size.height);
      g_test_message ("window %d px high: above %.0f px, below %.0f px", height, above, below);
      g_assert_cmpfloat (above, >, 36);
      g_assert_cmpfloat (above, <=, below);
      g_assert_cmpfloat (below - above, <=, 1);

      gtk_window_destroy (GTK_WINDOW (window));
    }
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

  /* While streaming: Stop replaces Send, and the entry stays editable
   * (issue 13 item 1). */
  g_assert_true (gtk_widget_is_sensitive (entry));
  g_assert_true (gtk_widget_get_visible (stop));
  text = akc_composer_dup_text (composer);
  g_assert_cmpstr (text, ==, "");

  wait_until_shown (source);
  g_assert_cmpuint (g_list_model_get_n_items (messages), ==, 2);
  reply = g_list_model_get_item (messages, 1);
  g_assert_cmpstr (akc_message_get_content (reply), ==, "AgentsKit received: hello");
  g_assert_nonnull (find_widget (GTK_WIDGET (window), is_label_with_text, "AgentsKit received: hello"));
  g_assert_true (gtk_widget_is_sensitive (entry));

  /* The finished reply was announced, and the entry has the keyboard
   * again (the announcement rides on its description, GTK < 4.14). The
   * window's focus, not whether the X server made the window active. */
  g_assert_true (gtk_root_get_focus (GTK_ROOT (window)) == entry);
#if !GTK_CHECK_VERSION (4, 14, 0)
  gtk_test_accessible_assert_property (entry, GTK_ACCESSIBLE_PROPERTY_DESCRIPTION,
                                       "Assistant: AgentsKit received: hello");
#endif

  /* Stop mid-stream. */
  akc_composer_set_text (composer, "/slow");
  akc_composer_send (composer);
  g_assert_cmpint (akc_chat_source_get_status (source), ==, AKC_CHAT_STATUS_STREAMING);

  /* What is typed meanwhile stays, and Enter keeps it, starting a new
   * line (one, however often it is pressed), so that two messages typed
   * one after the other do not run together: the hint says it waits for
   * the end of the reply. */
  g_assert_true (gtk_root_get_focus (GTK_ROOT (window)) == entry);
  gtk_text_buffer_insert_at_cursor (gtk_text_view_get_buffer (GTK_TEXT_VIEW (entry)), "next", -1);
  g_assert_true (press_key (GTK_WINDOW (window), GDK_KEY_Return, 0));
  g_assert_true (press_key (GTK_WINDOW (window), GDK_KEY_Return, 0));
  g_assert_cmpint (akc_chat_source_get_status (source), ==, AKC_CHAT_STATUS_STREAMING);
  g_clear_pointer (&text, g_free);
  text = akc_composer_dup_text (composer);
  g_assert_cmpstr (text, ==, "next\n");
  gtk_text_buffer_insert_at_cursor (gtk_text_view_get_buffer (GTK_TEXT_VIEW (entry)), "and more", -1);
  g_assert_true (press_key (GTK_WINDOW (window), GDK_KEY_Return, 0));
  g_clear_pointer (&text, g_free);
  text = akc_composer_dup_text (composer);
  g_assert_cmpstr (text, ==, "next\nand more\n");
  g_assert_true (gtk_widget_get_visible (find_widget (GTK_WIDGET (composer), is_label_with_text,
                                                      _("Your message waits until the reply is finished: Enter "
                                                        "starts a new line until then, and sends it after. "
                                                        "Escape stops the reply."))));
  g_assert_true (gtk_widget_activate_action (find_by_type (GTK_WIDGET (window), AKC_TYPE_CHAT_VIEW), "chat.stop", NULL));
  g_assert_cmpint (akc_chat_source_get_status (source), ==, AKC_CHAT_STATUS_IDLE);
  slow = g_list_model_get_item (messages, 3);
  g_assert_true (akc_message_get_stopped (slow));
  g_clear_pointer (&text, g_free);
  text = akc_composer_dup_text (composer);
  g_assert_cmpstr (text, ==, "next\nand more\n");
  g_assert_true (press_key (GTK_WINDOW (window), GDK_KEY_Return, 0));
  g_assert_cmpuint (g_list_model_get_n_items (messages), ==, 6);
  /* Sent without the line break Enter left at its end. */
  {
    g_autoptr(AkcMessage) sent = g_list_model_get_item (messages, 4);

    g_assert_cmpstr (akc_message_get_content (sent), ==, "next\nand more");
  }

  gtk_window_destroy (GTK_WINDOW (window));
}

static gboolean
is_idle (AkcChatSource *source)
{
  return akc_chat_source_get_status (source) != AKC_CHAT_STATUS_STREAMING;
}

static gboolean
has_focus (GtkWidget *widget)
{
  /* The window's focus widget: whether the X server made the window
   * active as well depends on the other tests' windows. */
  return gtk_widget_get_root (widget) != NULL && gtk_root_get_focus (gtk_widget_get_root (widget)) == widget;
}

static AkcMessage *
last_message (AkcChatSource *source)
{
  GListModel *messages = akc_chat_source_get_messages (source);
  g_autoptr(AkcMessage) last = g_list_model_get_item (messages, g_list_model_get_n_items (messages) - 1);

  return last;   /* the model keeps it */
}

static GtkWidget *
find_editor (GtkWidget *transcript)
{
  return find_by_type (transcript, GTK_TYPE_TEXT_VIEW);
}

/* Send, stop, retry, edit and regenerate, all from the keyboard. */
static void
test_window_keyboard (void)
{
  AkcWindow *window = new_window ();
  AkcChatSource *source = akc_window_get_source (window);
  AkcComposer *composer = AKC_COMPOSER (find_by_type (GTK_WIDGET (window), AKC_TYPE_COMPOSER));
  GtkWidget *entry = find_by_type (GTK_WIDGET (composer), GTK_TYPE_TEXT_VIEW);
  GtkWidget *transcript = find_by_type (GTK_WIDGET (window), AKC_TYPE_CHAT_VIEW);
  GListModel *messages = akc_chat_source_get_messages (source);
  GtkWidget *editor;
  AkcMessage *stopped, *retried, *edited_reply;
  AkcLineage *lineage;

  /* Enter sends. */
  g_assert_true (has_focus (entry));
  akc_composer_set_text (composer, "hello");
  g_assert_true (press_key (GTK_WINDOW (window), GDK_KEY_Return, 0));
  g_assert_true (is_streaming (source));
  wait_for ((Condition) is_idle, source);
  g_assert_cmpstr (akc_message_get_content (last_message (source)), ==, "AgentsKit received: hello");

  /* Escape in the entry stops the reply. */
  wait_for ((Condition) has_focus, entry);
  akc_composer_set_text (composer, "/slow");
  g_assert_true (press_key (GTK_WINDOW (window), GDK_KEY_Return, 0));
  g_assert_true (is_streaming (source));
  g_assert_true (press_key (GTK_WINDOW (window), GDK_KEY_Escape, 0));
  g_assert_false (is_streaming (source));
  stopped = last_message (source);
  g_assert_true (akc_message_get_stopped (stopped));
  /* Escape with nothing to stop does nothing (and is not swallowed). */
  g_assert_false (press_key (GTK_WINDOW (window), GDK_KEY_Escape, 0));

  /* Ctrl+R retries: a new reply to the same message. */
  g_assert_true (press_key (GTK_WINDOW (window), GDK_KEY_r, GDK_CONTROL_MASK));
  g_assert_true (is_streaming (source));
  retried = last_message (source);
  g_assert_true (retried != stopped);
  lineage = akc_message_get_lineage (retried);
  g_assert_nonnull (lineage);
  g_assert_cmpint (akc_lineage_get_operation (lineage), ==, AKC_LINEAGE_OPERATION_RETRY);
  g_assert_true (press_key (GTK_WINDOW (window), GDK_KEY_Escape, 0));
  g_assert_false (is_streaming (source));

  /* Ctrl+E opens the editor on the last user message, with the focus;
   * Escape closes it again and changes nothing. */
  g_assert_true (press_key (GTK_WINDOW (window), GDK_KEY_e, GDK_CONTROL_MASK));
  g_assert_true (akc_chat_view_get_editing (AKC_CHAT_VIEW (transcript)));
  wait_for ((Condition) has_focus, find_editor (transcript));
  editor = find_editor (transcript);
  gtk_test_accessible_assert_property (editor, GTK_ACCESSIBLE_PROPERTY_LABEL, "Edit message");
  {
    GtkTextBuffer *buffer = gtk_text_view_get_buffer (GTK_TEXT_VIEW (editor));
    GtkTextIter start, end;
    g_autofree char *draft = NULL;

    gtk_text_buffer_get_bounds (buffer, &start, &end);
    draft = gtk_text_buffer_get_text (buffer, &start, &end, FALSE);
    g_assert_cmpstr (draft, ==, "/slow");
  }
  g_assert_true (press_key (GTK_WINDOW (window), GDK_KEY_Escape, 0));
  g_assert_false (akc_chat_view_get_editing (AKC_CHAT_VIEW (transcript)));
  g_assert_true (last_message (source) == retried);

  /* Ctrl+E again, new text, Enter saves: the message is answered again. */
  g_assert_true (press_key (GTK_WINDOW (window), GDK_KEY_e, GDK_CONTROL_MASK));
  wait_for ((Condition) has_focus, find_editor (transcript));
  editor = find_editor (transcript);
  /* Blank text is not saved. */
  gtk_text_buffer_set_text (gtk_text_view_get_buffer (GTK_TEXT_VIEW (editor)), "   ", -1);
  g_assert_true (press_key (GTK_WINDOW (window), GDK_KEY_Return, 0));
  g_assert_true (akc_chat_view_get_editing (AKC_CHAT_VIEW (transcript)));
  gtk_text_buffer_set_text (gtk_text_view_get_buffer (GTK_TEXT_VIEW (editor)), "edited", -1);
  g_assert_true (press_key (GTK_WINDOW (window), GDK_KEY_Return, 0));
  g_assert_false (akc_chat_view_get_editing (AKC_CHAT_VIEW (transcript)));
  g_assert_true (is_streaming (source));
  wait_for ((Condition) is_idle, source);
  edited_reply = last_message (source);
  g_assert_cmpstr (akc_message_get_content (edited_reply), ==, "AgentsKit received: edited");
  g_assert_cmpint (akc_lineage_get_operation (akc_message_get_lineage (edited_reply)), ==, AKC_LINEAGE_OPERATION_EDIT);

  /* Ctrl+Shift+R regenerates the last answer. */
  g_assert_true (press_key (GTK_WINDOW (window), GDK_KEY_R, GDK_CONTROL_MASK | GDK_SHIFT_MASK));
  g_assert_true (is_streaming (source));
  wait_for ((Condition) is_idle, source);
  g_assert_true (last_message (source) != edited_reply);
  g_assert_cmpstr (akc_message_get_content (last_message (source)), ==, "AgentsKit received: edited");
  g_assert_cmpint (akc_lineage_get_operation (akc_message_get_lineage (last_message (source))), ==,
                   AKC_LINEAGE_OPERATION_REGENERATE);
  g_assert_cmpuint (g_list_model_get_n_items (messages), ==, 4);

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
  wait_until_shown (source);
  g_assert_cmpint (akc_chat_source_get_status (source), ==, AKC_CHAT_STATUS_ERROR);

  message = find_widget (GTK_WIDGET (window), is_label_with_text,
                         "The deterministic adapter failed as requested.");
  g_assert_nonnull (message);
  g_assert_true (gtk_widget_is_visible (message));
  alert = gtk_widget_get_parent (message);
  gtk_test_accessible_assert_role (alert, GTK_ACCESSIBLE_ROLE_ALERT);
  gtk_test_accessible_assert_property (find_by_action (alert, "chat.retry"),
                                       GTK_ACCESSIBLE_PROPERTY_LABEL, "Retry response");

  /* Retrying clears the error, and the alert goes away; /fail fails
   * again, and a new alert says so. */
  g_object_ref (message);
  g_assert_true (gtk_widget_activate_action (find_by_action (alert, "chat.retry"), "chat.retry", NULL));
  g_assert_null (akc_chat_source_get_error (source));
  wait_frames (GTK_WIDGET (window), 2);
  g_assert_null (gtk_widget_get_root (message));
  g_object_unref (message);
  wait_until_shown (source);
  g_assert_nonnull (akc_chat_source_get_error (source));
  message = find_widget (GTK_WIDGET (window), is_label_with_text,
                         "The deterministic adapter failed as requested.");
  g_assert_nonnull (message);
  gtk_test_accessible_assert_role (gtk_widget_get_parent (message), GTK_ACCESSIBLE_ROLE_ALERT);

  gtk_window_destroy (GTK_WINDOW (window));
}

static void
count_actionables (GtkWidget  *widget,
                   const char *action,
                   guint      *n)
{
  if (has_action (widget, action) && gtk_widget_get_mapped (widget))
    (*n)++;
  for (GtkWidget *child = gtk_widget_get_first_child (widget); child; child = gtk_widget_get_next_sibling (child))
    count_actionables (child, action, n);
}

static guint
n_retries (GtkWidget *transcript)
{
  guint n = 0;

  wait_frames (transcript, 2);
  count_actionables (transcript, "chat.retry", &n);
  return n;
}

/* Issue 13 item 7: an error stays in the transcript where it happened, a
 * failure offers one Retry, and the response actions are flat icon
 * buttons with tooltips and names. */
static void
test_window_errors_stay (void)
{
  AkcWindow *window = new_window ();
  AkcChatSource *source = akc_window_get_source (window);
  AkcComposer *composer = AKC_COMPOSER (find_by_type (GTK_WIDGET (window), AKC_TYPE_COMPOSER));
  GtkWidget *transcript = find_by_type (GTK_WIDGET (window), AKC_TYPE_CHAT_VIEW);
  const char *failure = "The deterministic adapter failed as requested.";
  GtkWidget *message, *regenerate;

  akc_composer_set_text (composer, "/fail");
  akc_composer_send (composer);
  wait_until_shown (source);
  g_assert_nonnull (akc_chat_source_get_error (source));
  g_assert_cmpuint (n_retries (transcript), ==, 1);

  regenerate = find_by_action (transcript, "chat.regenerate");
  g_assert_nonnull (gtk_button_get_icon_name (GTK_BUTTON (regenerate)));
  g_assert_true (gtk_widget_has_css_class (regenerate, "flat"));
  g_assert_cmpstr (gtk_widget_get_tooltip_text (regenerate), ==, "Regenerate Response (Ctrl+Shift+R)");
  gtk_test_accessible_assert_property (regenerate, GTK_ACCESSIBLE_PROPERTY_LABEL, "Regenerate response");

  /* The next message: the error stays, under the reply that failed. */
  akc_composer_set_text (composer, "hello");
  g_assert_true (akc_composer_send (composer));
  wait_until_shown (source);
  g_assert_null (akc_chat_source_get_error (source));
  wait_frames (GTK_WIDGET (window), 2);
  message = find_widget (transcript, is_label_with_text, failure);
  g_assert_nonnull (message);
  g_assert_true (gtk_widget_is_visible (message));
  g_assert_nonnull (gtk_widget_get_ancestor (message, AKC_TYPE_MESSAGE_ROW));
  g_assert_cmpuint (n_retries (transcript), ==, 1);
  g_assert_nonnull (gtk_button_get_icon_name (GTK_BUTTON (find_by_action (transcript, "chat.retry"))));

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
  g_assert_nonnull (find_widget (GTK_WIDGET (window), is_label_with_text, "Hallo Welt"));
  gtk_test_accessible_assert_property (find_by_action (GTK_WIDGET (window), "composer.send"),
                                       GTK_ACCESSIBLE_PROPERTY_LABEL, "Senden");
  gtk_window_destroy (GTK_WINDOW (window));

  g_setenv ("LANGUAGE", "C", TRUE);
}

static gboolean
has_confirmation (GtkWidget *window)
{
  return find_widget (window, has_action, "chat.approve") != NULL;
}

/* The demo menu switches the window between the offline demos; each keeps
 * its conversation, and the support demo's ticket is proposed from its
 * choice, confirmed in the transcript and created once (§13.2). */
static void
test_window_demos (void)
{
  AkcWindow *window = new_window ();
  GtkWidget *root = GTK_WIDGET (window);
  AkcChatSource *hello = NULL;
  AkcChatSource *support;
  AkcComposer *composer = AKC_COMPOSER (find_by_type (root, AKC_TYPE_COMPOSER));
  AkcChatView *transcript = AKC_CHAT_VIEW (find_by_type (root, AKC_TYPE_CHAT_VIEW));
  GListModel *messages;
  GtkWidget *choice;
  g_autoptr(AkcMessage) last = NULL;

  g_assert_true (gtk_widget_activate_action (root, "win.conversation", "s", "hello-world"));
  g_assert_cmpstr (akc_window_get_conversation (window), ==, "hello-world");
  hello = akc_window_get_source (window);
  akc_composer_set_text (composer, "/start");
  g_assert_true (akc_composer_send (composer));
  wait_until_shown (hello);
  g_assert_nonnull (find_widget (root, is_label_with_text, "What is your name?"));

  g_assert_true (gtk_widget_activate_action (root, "win.conversation", "s", "support"));
  g_assert_cmpstr (akc_window_get_conversation (window), ==, "support");
  support = akc_window_get_source (window);
  g_assert_true (support != hello);
  g_assert_nonnull (find_widget (root, is_label_with_text, "Support"));
  g_assert_nonnull (akc_chat_view_get_confirmation (transcript));

  akc_composer_set_text (composer, "/support");
  g_assert_true (akc_composer_send (composer));
  wait_until_shown (support);
  wait_frames (root, 2);
  choice = find_widget (root, is_label_with_text, "Open support ticket");
  g_assert_nonnull (choice);
  while (choice != NULL && !GTK_IS_BUTTON (choice))
    choice = gtk_widget_get_parent (choice);
  g_assert_nonnull (choice);
  g_signal_emit_by_name (choice, "clicked");
  WAIT_UNTIL (has_confirmation (root));
  {
    GtkWidget *approve = find_by_action (root, "chat.approve");
    GVariant *target = gtk_actionable_get_action_target_value (GTK_ACTIONABLE (approve));

    g_assert_true (gtk_widget_activate_action (GTK_WIDGET (transcript), "chat.approve", "s",
                                               g_variant_get_string (target, NULL)));
  }
  WAIT_UNTIL (!(has_confirmation (root) || akc_chat_source_get_status (support) == AKC_CHAT_STATUS_STREAMING));
  wait_until_shown (support);
  messages = akc_chat_source_get_messages (support);
  /* /support, its choice, the approved call, the tool's result and the
   * continuation, which replays the choice. */
  g_assert_cmpuint (g_list_model_get_n_items (messages), ==, 5);
  last = g_list_model_get_item (messages, 3);
  g_assert_cmpstr (akc_message_get_content (last), ==, "Ticket SUP-1 created for follow-up.");

  /* Back to hello-world: its conversation is where it was. */
  g_assert_true (gtk_widget_activate_action (root, "win.conversation", "s", "hello-world"));
  g_assert_true (akc_window_get_source (window) == hello);
  g_assert_cmpuint (g_list_model_get_n_items (akc_chat_source_get_messages (hello)), ==, 2);

  /* An unknown demo is refused; the shown one stays. */
  akc_window_set_conversation (window, "no-such-demo");
  g_assert_cmpstr (akc_window_get_conversation (window), ==, "hello-world");

  gtk_window_destroy (GTK_WINDOW (window));
}

static void
count_into (GtkWidget     *widget,
            WidgetMatch    match,
            gconstpointer  data,
            guint         *n)
{
  if (gtk_widget_get_mapped (widget) && match (widget, data))
    (*n)++;
  for (GtkWidget *child = gtk_widget_get_first_child (widget); child != NULL; child = gtk_widget_get_next_sibling (child))
    count_into (child, match, data, n);
}

/* How many mapped widgets match, under @root. */
static guint
count_widgets (GtkWidget     *root,
               WidgetMatch    match,
               gconstpointer  data)
{
  guint n = 0;

  count_into (root, match, data, &n);
  return n;
}

static GtkWidget *
button_with_label (GtkWidget  *root,
                   const char *text)
{
  GtkWidget *widget = find_widget (root, is_label_with_text, text);

  while (widget != NULL && !GTK_IS_BUTTON (widget))
    widget = gtk_widget_get_parent (widget);

  return widget;
}

static guint
count_tickets (AkcChatSource *source)
{
  GListModel *messages = akc_chat_source_get_messages (source);
  guint n = 0;

  for (guint i = 0; i < g_list_model_get_n_items (messages); i++)
    {
      g_autoptr(AkcMessage) message = g_list_model_get_item (messages, i);

      if (akc_message_get_role (message) == AKC_MESSAGE_ROLE_TOOL &&
          g_str_has_prefix (akc_message_get_content (message), "Ticket SUP-"))
        n++;
    }

  return n;
}

/* Issue 13 item 2: /support → choose → approve creates SUP-1; after a
 * restart (a new window on the reopened history) the card is shown
 * answered ("You chose: …", the chosen option marked, no keyboard hint),
 * choosing again does nothing and no second ticket is created. */
static void
test_window_answered_after_restart (void)
{
  g_autofree char *folder = g_dir_make_tmp ("akc-window-XXXXXX", NULL);
  g_autofree char *path = g_build_filename (folder, "history.sqlite3", NULL);
  AkcChatMemory *memory = akc_test_open (path);
  AkcWindow *window = new_window ();
  GtkWidget *root = GTK_WIDGET (window);
  AkcComposer *composer = AKC_COMPOSER (find_by_type (root, AKC_TYPE_COMPOSER));
  AkcChatView *transcript = AKC_CHAT_VIEW (find_by_type (root, AKC_TYPE_CHAT_VIEW));
  AkcChatSource *support;
  GtkWidget *choice, *hint;
  guint n_messages;
  gint64 deadline;

  akc_window_set_memory (window, memory);
  g_assert_true (gtk_widget_activate_action (root, "win.conversation", "s", "support"));
  support = akc_window_get_source (window);
  WAIT_UNTIL (akc_chat_history_get_loaded (akc_window_get_history (window)));
  akc_composer_set_text (composer, "/support");
  g_assert_true (akc_composer_send (composer));
  wait_until_shown (support);
  wait_frames (root, 2);
  choice = button_with_label (root, "Open support ticket");
  g_assert_nonnull (choice);
  g_signal_emit_by_name (choice, "clicked");
  WAIT_UNTIL (has_confirmation (root));
  {
    GtkWidget *approve = find_by_action (root, "chat.approve");
    GVariant *target = gtk_actionable_get_action_target_value (GTK_ACTIONABLE (approve));

    g_assert_true (gtk_widget_activate_action (GTK_WIDGET (transcript), "chat.approve", "s",
                                               g_variant_get_string (target, NULL)));
  }
  WAIT_UNTIL (!(has_confirmation (root) || akc_chat_source_get_status (support) == AKC_CHAT_STATUS_STREAMING));
  wait_until_shown (support);
  g_assert_cmpuint (count_tickets (support), ==, 1);
  wait_frames (root, 2);
  /* Issue 13 item 6: one settled card says what happened; no empty
   * "Assistant" row, no "Tool" bubble, no second copy of the question. */
  g_assert_nonnull (find_widget (root, is_label_with_text, "Create a support ticket"));
  g_assert_nonnull (find_widget (root, is_label_with_text, "Ticket SUP-1 created for follow-up."));
  g_assert_null (find_widget (root, is_label_with_text, "Tool"));
  g_assert_cmpuint (count_widgets (root, is_label_with_text, "Would you like a human support specialist to follow up?"), ==, 1);
  g_assert_cmpuint (count_widgets (root, is_label_with_text, "Assistant"), ==, 1);
  {
    g_autoptr(GAsyncResult) result = NULL;

    akc_chat_history_flush_async (akc_window_get_history (window), NULL, akc_test_store_result, &result);
    WAIT_UNTIL (result != NULL);
  }
  gtk_window_destroy (GTK_WINDOW (window));
  g_object_unref (memory);

  /* Restart: a new window, the history opened again. */
  memory = akc_test_open (path);
  window = new_window ();
  root = GTK_WIDGET (window);
  akc_window_set_memory (window, memory);
  g_assert_true (gtk_widget_activate_action (root, "win.conversation", "s", "support"));
  support = akc_window_get_source (window);
  deadline = g_get_monotonic_time () + 30 * G_USEC_PER_SEC;
  while (!akc_chat_history_get_loaded (akc_window_get_history (window)) ||
         find_widget (root, is_label_with_text, "You chose: Open support ticket") == NULL)
    {
      /* Before answers were kept, the card came back live: this fails. */
      g_assert_cmpint (g_get_monotonic_time (), <, deadline);
      wait_frames (root, 2);
      g_main_context_iteration (NULL, FALSE);
    }
  g_assert_cmpuint (count_tickets (support), ==, 1);
  g_assert_false (akc_chat_view_get_input_owned (AKC_CHAT_VIEW (find_by_type (root, AKC_TYPE_CHAT_VIEW))));
  choice = button_with_label (root, "Open support ticket");
  g_assert_nonnull (choice);
  g_assert_true (gtk_widget_has_css_class (choice, "chosen"));
  g_assert_false (gtk_widget_is_sensitive (choice));
  g_assert_false (gtk_widget_has_css_class (button_with_label (root, "Keep chatting"), "chosen"));
  hint = find_widget (root, is_label_with_text, "Use ↑/↓ or a number, then Enter.");
  g_assert_true (hint == NULL || !gtk_widget_get_visible (hint));

  /* Choosing again does nothing: no confirmation, no message, no ticket. */
  n_messages = g_list_model_get_n_items (akc_chat_source_get_messages (support));
  g_signal_emit_by_name (choice, "clicked");
  wait_frames (root, 2);
  wait_until_shown (support);
  g_assert_false (has_confirmation (root));
  g_assert_cmpuint (g_list_model_get_n_items (akc_chat_source_get_messages (support)), ==, n_messages);
  g_assert_cmpuint (count_tickets (support), ==, 1);

  gtk_window_destroy (GTK_WINDOW (window));
  g_object_unref (memory);
  g_unlink (path);
}

static gboolean
is_link_button (GtkWidget     *widget,
                gconstpointer  data)
{
  return GTK_IS_BUTTON (widget) && gtk_widget_has_css_class (widget, "link") &&
         g_strcmp0 (gtk_widget_get_tooltip_text (widget), data) == 0;
}

static void
record_link (AkcWindow  *window,
             const char *uri,
             GPtrArray  *opened)
{
  g_ptr_array_add (opened, g_strdup (uri));
  /* No browser in a test. */
  g_signal_stop_emission_by_name (window, "open-link");
}

/* A source the person opens goes to the browser through the window. */
static void
test_window_opens_sources (void)
{
  AkcWindow *window = new_window ();
  GtkWidget *root = GTK_WIDGET (window);
  AkcComposer *composer = AKC_COMPOSER (find_by_type (root, AKC_TYPE_COMPOSER));
  g_autoptr(GPtrArray) opened = g_ptr_array_new_with_free_func (g_free);
  GtkWidget *link = NULL;

  g_signal_connect (window, "open-link", G_CALLBACK (record_link), opened);
  g_assert_true (gtk_widget_activate_action (root, "win.conversation", "s", "rag"));
  akc_composer_set_text (composer, "What is AgentsKit Chat?");
  g_assert_true (akc_composer_send (composer));
  wait_until_shown (akc_window_get_source (window));
  WAIT_UNTIL ((link = find_widget (root, is_link_button, "https://www.agentskit.io/docs/chat")) != NULL);

  g_signal_emit_by_name (link, "clicked");
  g_assert_cmpuint (opened->len, ==, 1);
  g_assert_cmpstr (g_ptr_array_index (opened, 0), ==, "https://www.agentskit.io/docs/chat");

  /* Issue 13 item 3: sources are navigation, their links keep working. */
  wait_frames (root, 2);
  g_assert_true (gtk_widget_is_sensitive (link));
  g_signal_emit_by_name (link, "clicked");
  g_assert_cmpuint (opened->len, ==, 2);
  g_assert_cmpstr (g_ptr_array_index (opened, 1), ==, "https://www.agentskit.io/docs/chat");

  g_assert_true (gtk_widget_activate_action (root, "win.conversation", "s", "hello-world"));
  gtk_window_destroy (GTK_WINDOW (window));
}

/* GTK 4.8's shortcuts window measures one of its own labels at a negative
 * width ("GtkLabel … reported min width -3"), whatever it shows (a plain
 * GTK program presenting our help-overlay.ui warns the same): while the
 * shortcuts window is shown, that warning, and only that one, is dropped;
 * everything else goes to GLib's writer, fatal as before. */
static gboolean shortcuts_window_shown;

static GLogWriterOutput
drop_shortcuts_window_warning (GLogLevelFlags   log_level,
                               const GLogField *fields,
                               gsize            n_fields,
                               gpointer         user_data)
{
  if (shortcuts_window_shown && (log_level & G_LOG_LEVEL_WARNING) != 0)
    {
      const char *domain = NULL, *message = NULL;

      for (gsize i = 0; i < n_fields; i++)
        {
          if (strcmp (fields[i].key, "GLIB_DOMAIN") == 0)
            domain = fields[i].value;
          else if (strcmp (fields[i].key, "MESSAGE") == 0)
            message = fields[i].value;
        }
      if (g_strcmp0 (domain, "Gtk") == 0 && message != NULL && strstr (message, "reported min width") != NULL)
        return G_LOG_WRITER_HANDLED;
    }

  return g_log_writer_default (log_level, fields, n_fields, user_data);
}

/* Issue 13 item 10: every shortcut of the shortcuts window shows its key,
 * and the keys of the conversation work from the composer. */
static void
test_window_shortcuts (void)
{
  AkcWindow *window = new_window ();
  GtkApplication *application = gtk_window_get_application (GTK_WINDOW (window));
  AkcChatSource *source = akc_window_get_source (window);
  AkcComposer *composer = AKC_COMPOSER (find_by_type (GTK_WIDGET (window), AKC_TYPE_COMPOSER));
  GtkWidget *entry = find_by_type (GTK_WIDGET (composer), GTK_TYPE_TEXT_VIEW);
  g_autoptr(GtkBuilder) builder = gtk_builder_new_from_resource ("/io/agentskit/Chat/help-overlay.ui");
  g_autoptr(GSList) objects = gtk_builder_get_objects (builder);
  guint n_shortcuts = 0;

  for (GSList *l = objects; l != NULL; l = l->next)
    {
      g_autofree char *title = NULL;
      g_autofree char *accelerator = NULL;
      g_autofree char *action = NULL;
      g_auto(GStrv) accels = NULL;

      if (!GTK_IS_SHORTCUTS_SHORTCUT (l->data))
        continue;
      n_shortcuts++;
      g_object_get (l->data, "title", &title, "accelerator", &accelerator, "action-name", &action, NULL);
      if (action != NULL)
        accels = gtk_application_get_accels_for_action (application, action);
      if ((accelerator == NULL || *accelerator == '\0') && (accels == NULL || accels[0] == NULL))
        g_error ("the shortcut '%s' shows no key", title);
      for (guint i = 0; accels != NULL && accels[i] != NULL; i++)
        {
          guint keyval = 0;
          GdkModifierType mods = 0;

          g_assert_true (gtk_accelerator_parse (accels[i], &keyval, &mods));
        }
    }
  g_assert_cmpuint (n_shortcuts, >=, 10);

  /* Issue 18 item 6: the shortcuts window is built when it is asked for,
   * not with the window (it is not on screen then), and once. */
  g_assert_null (gtk_application_window_get_help_overlay (GTK_APPLICATION_WINDOW (window)));
  shortcuts_window_shown = TRUE;
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.show-help-overlay", NULL));
  {
    GtkShortcutsWindow *overlay = gtk_application_window_get_help_overlay (GTK_APPLICATION_WINDOW (window));

    g_assert_nonnull (overlay);
    g_assert_true (gtk_widget_get_visible (GTK_WIDGET (overlay)));
    g_assert_true (gtk_window_get_transient_for (GTK_WINDOW (overlay)) == GTK_WINDOW (window));
    /* It fits a screen 1280 px wide: a long title of the first page made
     * it 1317 px wide, its search and close buttons and the ends of its
     * titles past the screen's edge. */
    {
      int natural;

      gtk_widget_measure (GTK_WIDGET (overlay), GTK_ORIENTATION_HORIZONTAL, -1, NULL, &natural, NULL, NULL);
      g_test_message ("shortcuts window: %d px", natural);
      g_assert_cmpint (natural, <=, 1280);
    }
    gtk_window_close (GTK_WINDOW (overlay));
    wait_frames (GTK_WIDGET (window), 2);
    g_assert_false (gtk_widget_get_visible (GTK_WIDGET (overlay)));
    g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.show-help-overlay", NULL));
    g_assert_true (gtk_application_window_get_help_overlay (GTK_APPLICATION_WINDOW (window)) == overlay);
    g_assert_true (gtk_widget_get_visible (GTK_WIDGET (overlay)));
    gtk_window_close (GTK_WINDOW (overlay));
    wait_frames (GTK_WIDGET (window), 2);
  }
  shortcuts_window_shown = FALSE;

  /* Ctrl+N, from the composer, starts a new chat; the first one keeps
   * its messages (issue 14: New Chat never erases). */
  akc_composer_set_text (composer, "hello");
  g_assert_true (press_key (GTK_WINDOW (window), GDK_KEY_Return, 0));
  wait_for ((Condition) is_idle, source);
  g_assert_cmpuint (g_list_model_get_n_items (akc_chat_source_get_messages (source)), >, 0);
  wait_for ((Condition) has_focus, entry);
  g_assert_true (press_key (GTK_WINDOW (window), GDK_KEY_n, GDK_CONTROL_MASK));
  g_assert_true (akc_window_get_source (window) != source);
  g_assert_cmpuint (g_list_model_get_n_items (akc_chat_source_get_messages (akc_window_get_source (window))), ==, 0);
  g_assert_cmpuint (g_list_model_get_n_items (akc_chat_source_get_messages (source)), ==, 2);

  gtk_window_destroy (GTK_WINDOW (window));
}

/* Issue 13 item 10: the chat view claims its keys only while the focus is
 * in it, so a window that embeds it keeps Escape, Ctrl+R, Ctrl+E and
 * Ctrl+End for its other widgets. */
static void
test_view_keys_are_local (void)
{
  g_autoptr(AkcAdapter) adapter = akc_echo_adapter_new ();
  g_autoptr(AkcChat) chat = akc_chat_new (adapter);
  GtkWidget *window = gtk_window_new ();
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 0);
  GtkWidget *entry = gtk_entry_new ();
  GtkWidget *scroller = gtk_scrolled_window_new ();
  GtkWidget *view = akc_chat_view_new ();
  g_autoptr(GError) error = NULL;
  guint n_messages;

  akc_chat_view_set_source (AKC_CHAT_VIEW (view), AKC_CHAT_SOURCE (chat));
  gtk_widget_set_vexpand (scroller, TRUE);
  gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (scroller), view);
  gtk_box_append (GTK_BOX (box), entry);
  gtk_box_append (GTK_BOX (box), scroller);
  gtk_window_set_child (GTK_WINDOW (window), box);
  gtk_window_set_default_size (GTK_WINDOW (window), 600, 400);
  gtk_window_present (GTK_WINDOW (window));
  gtk_widget_grab_focus (entry);
  g_assert_true (gtk_widget_is_ancestor (gtk_root_get_focus (GTK_ROOT (window)), entry));

  g_assert_true (akc_chat_source_send (AKC_CHAT_SOURCE (chat), "/slow", &error));
  g_assert_no_error (error);
  g_assert_true (is_streaming (AKC_CHAT_SOURCE (chat)));
  /* Not the view's keys while the focus is elsewhere: the entry's. */
  press_key (GTK_WINDOW (window), GDK_KEY_Escape, 0);
  g_assert_true (is_streaming (AKC_CHAT_SOURCE (chat)));
  akc_chat_source_stop (AKC_CHAT_SOURCE (chat));
  n_messages = g_list_model_get_n_items (akc_chat_source_get_messages (AKC_CHAT_SOURCE (chat)));
  press_key (GTK_WINDOW (window), GDK_KEY_r, GDK_CONTROL_MASK);
  g_assert_false (is_streaming (AKC_CHAT_SOURCE (chat)));
  g_assert_cmpuint (g_list_model_get_n_items (akc_chat_source_get_messages (AKC_CHAT_SOURCE (chat))), ==, n_messages);
  press_key (GTK_WINDOW (window), GDK_KEY_e, GDK_CONTROL_MASK);
  g_assert_false (akc_chat_view_get_editing (AKC_CHAT_VIEW (view)));

  /* In the view they are. */
  gtk_widget_grab_focus (view);
  g_assert_true (gtk_widget_is_ancestor (gtk_root_get_focus (GTK_ROOT (window)), view));
  g_assert_true (press_key (GTK_WINDOW (window), GDK_KEY_e, GDK_CONTROL_MASK));
  g_assert_true (akc_chat_view_get_editing (AKC_CHAT_VIEW (view)));

  gtk_window_destroy (GTK_WINDOW (window));
}

static void
count_activation (GSimpleAction *action,
                  GVariant      *parameter,
                  gpointer       user_data)
{
  (*(guint *) user_data)++;
}

static gboolean
is_primary_menu_button (GtkWidget     *widget,
                        gconstpointer  data)
{
  return GTK_IS_MENU_BUTTON (widget) && gtk_menu_button_get_primary (GTK_MENU_BUTTON (widget));
}

static gboolean
list_has_row (GtkWidget *list)
{
  return gtk_widget_get_mapped (list) && gtk_widget_get_first_child (list) != NULL &&
         gtk_widget_get_mapped (gtk_widget_get_first_child (list));
}

/* Shift+Tab from the header and Tab from the button above the list reach
 * the conversations' list on a row, before the keyboard was ever on one:
 * GTK 4.8's list tried its heading row, which takes no focus, and the
 * list's scrolled window took the keyboard itself, an unnamed stop that
 * shows nothing. */
static void
test_window_list_reached_by_tab (void)
{
  AkcWindow *window = new_window ();
  GtkWidget *list = find_widget (GTK_WIDGET (window), has_css_class, "navigation-sidebar");
  GtkWidget *menu = find_widget (GTK_WIDGET (window), is_primary_menu_button, NULL);
  GtkWidget *focus;

  g_assert_nonnull (list);
  g_assert_nonnull (menu);
  wait_for ((Condition) list_has_row, list);
  /* Shift+Tab from the main menu's button. */
  g_assert_true (gtk_widget_grab_focus (menu));
  g_assert_true (gtk_widget_child_focus (GTK_WIDGET (window), GTK_DIR_TAB_BACKWARD));
  spin ();
  focus = gtk_root_get_focus (GTK_ROOT (window));
  g_test_message ("Shift+Tab went to a %s", focus != NULL ? G_OBJECT_TYPE_NAME (focus) : "nothing");
  g_assert_true (focus != NULL && gtk_widget_is_ancestor (focus, list));

  /* Tab from the button above the list, in a new window (its list not
   * entered yet either). */
  gtk_window_destroy (GTK_WINDOW (window));
  window = new_window ();
  list = find_widget (GTK_WIDGET (window), has_css_class, "navigation-sidebar");
  wait_for ((Condition) list_has_row, list);
  g_assert_true (gtk_widget_grab_focus (find_by_action (GTK_WIDGET (window), "win.selection-mode")));
  g_assert_true (gtk_widget_child_focus (GTK_WIDGET (window), GTK_DIR_TAB_FORWARD));
  spin ();
  focus = gtk_root_get_focus (GTK_ROOT (window));
  g_test_message ("Tab went to a %s", focus != NULL ? G_OBJECT_TYPE_NAME (focus) : "nothing");
  g_assert_true (focus != NULL && gtk_widget_is_ancestor (focus, list));

  gtk_window_destroy (GTK_WINDOW (window));
}

/* @accel in @dialog, as GTK takes an application's accel in a window of
 * the application (press_key() would go through the preferences' own key
 * handlers first, which need a real event). */
static gboolean
press_app_accel (GtkWindow  *dialog,
                 const char *accel)
{
  GtkApplication *application = gtk_window_get_application (dialog);
  g_auto(GStrv) actions = NULL;

  if (application == NULL)
    return FALSE;
  actions = gtk_application_get_actions_for_accel (application, accel);
  for (guint i = 0; actions[i] != NULL; i++)
    if (gtk_widget_activate_action (GTK_WIDGET (dialog), actions[i], NULL))
      return TRUE;

  return FALSE;
}

/* The application's keys work in the preferences and the shortcuts
 * windows as in the main window: Ctrl+Q there did nothing (they were no
 * windows of the application, so its accels and its actions were not
 * theirs). And they go with their window: they never keep the
 * application running after it. */
static void
test_window_app_keys_in_dialogs (void)
{
  GtkApplication *application = test_application ();
  g_autoptr(GSimpleAction) quit = g_simple_action_new ("quit", NULL);
  AkcWindow *window = new_window ();
  GtkWindow *preferences, *overlay;
  guint quits = 0;

  /* The test application's Ctrl+Q only counts. */
  g_signal_connect (quit, "activate", G_CALLBACK (count_activation), &quits);
  g_action_map_add_action (G_ACTION_MAP (application), G_ACTION (quit));
  g_assert_true (press_key (GTK_WINDOW (window), GDK_KEY_q, GDK_CONTROL_MASK));
  g_assert_cmpuint (quits, ==, 1);

  preferences = akc_window_show_preferences (window);
  g_assert_true (press_app_accel (preferences, "<Control>q"));
  g_assert_cmpuint (quits, ==, 2);
  gtk_window_close (preferences);
  spin ();

  shortcuts_window_shown = TRUE;
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.show-help-overlay", NULL));
  overlay = GTK_WINDOW (gtk_application_window_get_help_overlay (GTK_APPLICATION_WINDOW (window)));
  g_assert_true (press_app_accel (overlay, "<Control>q"));
  g_assert_cmpuint (quits, ==, 3);

  /* Both open, the window goes: so do they. */
  preferences = akc_window_show_preferences (window);
  g_assert_nonnull (g_list_find (gtk_application_get_windows (application), preferences));
  g_assert_nonnull (g_list_find (gtk_application_get_windows (application), overlay));
  g_object_add_weak_pointer (G_OBJECT (preferences), (gpointer *) &preferences);
  g_object_add_weak_pointer (G_OBJECT (overlay), (gpointer *) &overlay);
  gtk_window_destroy (GTK_WINDOW (window));
  WAIT_UNTIL (preferences == NULL && overlay == NULL);
  shortcuts_window_shown = FALSE;

  g_action_map_remove_action (G_ACTION_MAP (application), "quit");
}

int
main (int   argc,
      char *argv[])
{
  setlocale (LC_ALL, "");
  bindtextdomain (GETTEXT_PACKAGE, LOCALEDIR);
  bind_textdomain_codeset (GETTEXT_PACKAGE, "UTF-8");
  textdomain (GETTEXT_PACKAGE);

  g_log_set_writer_func (drop_shortcuts_window_warning, NULL, NULL);
  gtk_test_init (&argc, &argv, NULL);
  adw_init ();

  g_test_add_func ("/window/accessibility", test_window_accessibility);
  g_test_add_func ("/window/status-page-centred", test_window_status_page_centred);
  g_test_add_func ("/window/stream-and-stop", test_window_stream_and_stop);
  g_test_add_func ("/window/keyboard", test_window_keyboard);
  g_test_add_func ("/window/error-is-an-alert", test_window_error_is_an_alert);
  g_test_add_func ("/window/state-persists", test_window_state_persists);
  g_test_add_func ("/window/demos", test_window_demos);
  g_test_add_func ("/window/answered-after-restart", test_window_answered_after_restart);
  g_test_add_func ("/window/opens-sources", test_window_opens_sources);
  g_test_add_func ("/window/translated", test_window_translated);
  g_test_add_func ("/window/shortcuts", test_window_shortcuts);
  g_test_add_func ("/window/app-keys-in-dialogs", test_window_app_keys_in_dialogs);
  g_test_add_func ("/window/list-reached-by-tab", test_window_list_reached_by_tab);
  g_test_add_func ("/window/errors-stay", test_window_errors_stay);
  g_test_add_func ("/window/view-keys-are-local", test_view_keys_are_local);

  return g_test_run ();
}
