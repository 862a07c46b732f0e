/* akc-window.c: the main window
 *
 * SPDX-License-Identifier: MIT
 */

#include "config.h"

#include <glib/gi18n.h>
#include <akc-gtk.h>

#include "akc-window.h"

/* Spinners appear only when a wait is noticeable. */
#define THINKING_DELAY_MS 150

struct _AkcWindow
{
  AdwApplicationWindow  parent_instance;

  AdwToastOverlay      *toast_overlay;
  GtkStack             *stack;
  GtkScrolledWindow    *scroller;
  GtkListView          *transcript;
  AkcComposer          *composer;
  GtkRevealer          *thinking_revealer;
  GtkSpinner           *thinking_spinner;
  GtkRevealer          *error_revealer;
  GtkLabel             *error_label;

  GSettings            *settings;
  AkcChatSource        *source;
  guint                 thinking_timeout;

  /* Whether the reader was at the end before the transcript grew. */
  gboolean              stick_to_bottom;
};

G_DEFINE_FINAL_TYPE (AkcWindow, akc_window, ADW_TYPE_APPLICATION_WINDOW)

static GListModel *
akc_window_get_messages (AkcWindow *self)
{
  return akc_chat_source_get_messages (self->source);
}

static gboolean
akc_window_reply_is_pending (AkcWindow *self)
{
  GListModel *messages = akc_window_get_messages (self);
  guint n = g_list_model_get_n_items (messages);
  g_autoptr(AkcMessage) last = NULL;

  if (n == 0)
    return FALSE;

  last = g_list_model_get_item (messages, n - 1);
  return akc_message_get_status (last) == AKC_MESSAGE_STATUS_PENDING;
}

static gboolean
show_thinking (gpointer user_data)
{
  AkcWindow *self = user_data;

  self->thinking_timeout = 0;
  gtk_spinner_start (self->thinking_spinner);
  gtk_widget_set_visible (GTK_WIDGET (self->thinking_revealer), TRUE);
  gtk_revealer_set_reveal_child (self->thinking_revealer, TRUE);

  return G_SOURCE_REMOVE;
}

static void
akc_window_sync_thinking (AkcWindow *self)
{
  gboolean thinking = akc_chat_source_get_status (self->source) == AKC_CHAT_STATUS_STREAMING &&
                      akc_window_reply_is_pending (self);

  if (thinking)
    {
      if (self->thinking_timeout == 0 && !gtk_revealer_get_reveal_child (self->thinking_revealer))
        self->thinking_timeout = g_timeout_add (THINKING_DELAY_MS, show_thinking, self);
      return;
    }

  g_clear_handle_id (&self->thinking_timeout, g_source_remove);
  gtk_spinner_stop (self->thinking_spinner);
  gtk_revealer_set_reveal_child (self->thinking_revealer, FALSE);
  gtk_widget_set_visible (GTK_WIDGET (self->thinking_revealer), FALSE);
}

static void
akc_window_sync_error (AkcWindow *self)
{
  AkcDiagnostic *error = akc_chat_source_get_error (self->source);

  if (error != NULL)
    gtk_label_set_text (self->error_label, akc_diagnostic_get_message (error));
  gtk_revealer_set_reveal_child (self->error_revealer, error != NULL);
  gtk_widget_set_visible (GTK_WIDGET (self->error_revealer), error != NULL);
}

/* Retry acts only when the last two messages are user then assistant
 * (application.md §3.6); otherwise it would do nothing. */
static gboolean
akc_window_can_retry (AkcWindow *self)
{
  GListModel *messages = akc_window_get_messages (self);
  guint n = g_list_model_get_n_items (messages);
  g_autoptr(AkcMessage) user = NULL;
  g_autoptr(AkcMessage) assistant = NULL;

  if (n < 2)
    return FALSE;

  user = g_list_model_get_item (messages, n - 2);
  assistant = g_list_model_get_item (messages, n - 1);

  return akc_message_get_role (user) == AKC_MESSAGE_ROLE_USER &&
         akc_message_get_role (assistant) == AKC_MESSAGE_ROLE_ASSISTANT;
}

static void
akc_window_sync_actions (AkcWindow *self)
{
  AkcChatStatus status = akc_chat_source_get_status (self->source);
  guint n = g_list_model_get_n_items (akc_window_get_messages (self));

  gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.stop", status == AKC_CHAT_STATUS_STREAMING);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.retry",
                                 status != AKC_CHAT_STATUS_STREAMING && akc_window_can_retry (self));
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.new-chat", n > 0);
}

static void
on_status_changed (AkcWindow *self)
{
  akc_window_sync_thinking (self);
  akc_window_sync_actions (self);
}

static void
on_messages_changed (AkcWindow  *self,
                     guint       position,
                     guint       removed,
                     guint       added,
                     GListModel *messages)
{
  guint n = g_list_model_get_n_items (messages);

  gtk_stack_set_visible_child_name (self->stack, n > 0 ? "transcript" : "empty");

  akc_window_sync_thinking (self);
  akc_window_sync_actions (self);
}

static void
on_adjustment_value_changed (AkcWindow     *self,
                             GtkAdjustment *adjustment)
{
  double bottom = gtk_adjustment_get_upper (adjustment) - gtk_adjustment_get_page_size (adjustment);

  self->stick_to_bottom = gtk_adjustment_get_value (adjustment) >= bottom - 2.0;
}

static void
on_adjustment_changed (AkcWindow     *self,
                       GtkAdjustment *adjustment)
{
  /* The content grew (a streamed chunk, a new row): stay at the end only
   * when the reader was there. */
  if (self->stick_to_bottom)
    gtk_adjustment_set_value (adjustment,
                              gtk_adjustment_get_upper (adjustment) - gtk_adjustment_get_page_size (adjustment));
}

static void
stop_action (GtkWidget  *widget,
             const char *action_name,
             GVariant   *parameter)
{
  AkcWindow *self = AKC_WINDOW (widget);

  akc_chat_source_stop (self->source);
  gtk_widget_grab_focus (GTK_WIDGET (self->composer));
}

static void
retry_action (GtkWidget  *widget,
              const char *action_name,
              GVariant   *parameter)
{
  AkcWindow *self = AKC_WINDOW (widget);
  g_autoptr(GError) error = NULL;

  if (!akc_chat_source_retry (self->source, &error))
    adw_toast_overlay_add_toast (self->toast_overlay, adw_toast_new (error->message));
}

static void
new_chat_action (GtkWidget  *widget,
                 const char *action_name,
                 GVariant   *parameter)
{
  AkcWindow *self = AKC_WINDOW (widget);

  akc_chat_source_clear (self->source);
  akc_composer_set_text (self->composer, NULL);
  gtk_widget_grab_focus (GTK_WIDGET (self->composer));
}

static gboolean
akc_window_close_request (GtkWindow *window)
{
  AkcWindow *self = AKC_WINDOW (window);
  int width, height;

  gtk_window_get_default_size (window, &width, &height);

  g_settings_delay (self->settings);
  g_settings_set_boolean (self->settings, "window-maximized", gtk_window_is_maximized (window));
  if (!gtk_window_is_maximized (window))
    {
      g_settings_set_int (self->settings, "window-width", width);
      g_settings_set_int (self->settings, "window-height", height);
    }
  g_settings_apply (self->settings);

  return GTK_WINDOW_CLASS (akc_window_parent_class)->close_request (window);
}

static void
akc_window_dispose (GObject *object)
{
  AkcWindow *self = (AkcWindow *)object;

  g_clear_handle_id (&self->thinking_timeout, g_source_remove);
  gtk_widget_dispose_template (GTK_WIDGET (self), AKC_TYPE_WINDOW);
  g_clear_object (&self->source);
  g_clear_object (&self->settings);

  G_OBJECT_CLASS (akc_window_parent_class)->dispose (object);
}

static void
akc_window_class_init (AkcWindowClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);
  GtkWindowClass *window_class = GTK_WINDOW_CLASS (klass);

  object_class->dispose = akc_window_dispose;
  window_class->close_request = akc_window_close_request;

  g_type_ensure (AKC_TYPE_COMPOSER);

  gtk_widget_class_set_template_from_resource (widget_class, "/io/agentskit/Chat/akc-window.ui");
  gtk_widget_class_bind_template_child (widget_class, AkcWindow, toast_overlay);
  gtk_widget_class_bind_template_child (widget_class, AkcWindow, stack);
  gtk_widget_class_bind_template_child (widget_class, AkcWindow, scroller);
  gtk_widget_class_bind_template_child (widget_class, AkcWindow, transcript);
  gtk_widget_class_bind_template_child (widget_class, AkcWindow, composer);
  gtk_widget_class_bind_template_child (widget_class, AkcWindow, thinking_revealer);
  gtk_widget_class_bind_template_child (widget_class, AkcWindow, thinking_spinner);
  gtk_widget_class_bind_template_child (widget_class, AkcWindow, error_revealer);
  gtk_widget_class_bind_template_child (widget_class, AkcWindow, error_label);

  gtk_widget_class_install_action (widget_class, "win.stop", NULL, stop_action);
  gtk_widget_class_install_action (widget_class, "win.retry", NULL, retry_action);
  gtk_widget_class_install_action (widget_class, "win.new-chat", NULL, new_chat_action);

  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Escape, 0, "win.stop", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_r, GDK_CONTROL_MASK, "win.retry", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_n, GDK_CONTROL_MASK, "win.new-chat", NULL);
}

static void
akc_window_init (AkcWindow *self)
{
  g_autoptr(AkcAdapter) adapter = NULL;
  g_autoptr(GtkListItemFactory) factory = NULL;
  GtkAdjustment *adjustment;
  GListModel *messages;

  gtk_widget_init_template (GTK_WIDGET (self));

  self->settings = g_settings_new (APP_ID);
  gtk_window_set_default_size (GTK_WINDOW (self),
                               g_settings_get_int (self->settings, "window-width"),
                               g_settings_get_int (self->settings, "window-height"));
  if (g_settings_get_boolean (self->settings, "window-maximized"))
    gtk_window_maximize (GTK_WINDOW (self));

  /* The built-in hello-world demo: no network, no model. */
  adapter = akc_echo_adapter_new ();
  self->source = AKC_CHAT_SOURCE (akc_chat_new (adapter));
  messages = akc_window_get_messages (self);

  factory = akc_message_row_factory_new ();
  gtk_list_view_set_factory (self->transcript, factory);
  gtk_list_view_set_model (self->transcript,
                           GTK_SELECTION_MODEL (gtk_no_selection_new (g_object_ref (messages))));
  akc_composer_set_source (self->composer, self->source);

  self->stick_to_bottom = TRUE;
  adjustment = gtk_scrolled_window_get_vadjustment (self->scroller);
  g_signal_connect_object (adjustment, "value-changed",
                           G_CALLBACK (on_adjustment_value_changed),
                           self, G_CONNECT_SWAPPED);
  g_signal_connect_object (adjustment, "changed",
                           G_CALLBACK (on_adjustment_changed),
                           self, G_CONNECT_SWAPPED);

  g_signal_connect_object (messages, "items-changed",
                           G_CALLBACK (on_messages_changed),
                           self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->source, "notify::status",
                           G_CALLBACK (on_status_changed),
                           self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->source, "notify::error",
                           G_CALLBACK (akc_window_sync_error),
                           self, G_CONNECT_SWAPPED);

  akc_window_sync_error (self);
  akc_window_sync_thinking (self);
  akc_window_sync_actions (self);
  gtk_widget_grab_focus (GTK_WIDGET (self->composer));
}

/**
 * akc_window_new:
 * @application: the application
 *
 * Creates a main window on the built-in demo.
 *
 * Returns: (transfer full): a new #AkcWindow
 */
AkcWindow *
akc_window_new (AdwApplication *application)
{
  return g_object_new (AKC_TYPE_WINDOW, "application", application, NULL);
}

/**
 * akc_window_get_source:
 * @self: a #AkcWindow
 *
 * Gets the conversation the window shows.
 *
 * Returns: (transfer none): the chat source
 */
AkcChatSource *
akc_window_get_source (AkcWindow *self)
{
  g_return_val_if_fail (AKC_IS_WINDOW (self), NULL);

  return self->source;
}
