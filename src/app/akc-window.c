/* akc-window.c: the main window
 *
 * SPDX-License-Identifier: MIT
 */

#include "config.h"

#include <glib/gi18n.h>
#include <akc-gtk.h>

#include "akc-window.h"

/* The stored conversation the demo chat lives in. */
#define DEMO_CONVERSATION_ID "demo"

struct _AkcWindow
{
  AdwApplicationWindow  parent_instance;

  AdwToastOverlay      *toast_overlay;
  GtkStack             *stack;
  GtkScrolledWindow    *scroller;
  AkcChatView          *transcript;
  AkcComposer          *composer;

  GSettings            *settings;
  AkcChatSource        *source;

  /* Keeps the chat in the history once the application opened it. */
  AkcChatHistory       *history;
  GCancellable         *history_cancellable;
};

G_DEFINE_FINAL_TYPE (AkcWindow, akc_window, ADW_TYPE_APPLICATION_WINDOW)

static GListModel *
akc_window_get_messages (AkcWindow *self)
{
  return akc_chat_source_get_messages (self->source);
}

static void
akc_window_sync_actions (AkcWindow *self)
{
  guint n = g_list_model_get_n_items (akc_window_get_messages (self));

  gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.new-chat", n > 0);
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
  akc_window_sync_actions (self);
}

/* §12.4: while a component of the transcript owns the keyboard (the
 * transcript gave it the focus), the composer is disabled; when it no
 * longer does, the composer takes input again. */
static void
on_input_owned_changed (AkcWindow *self)
{
  gboolean owned = akc_chat_view_get_input_owned (self->transcript);
  GtkWidget *focus = gtk_root_get_focus (GTK_ROOT (self));

  gtk_widget_set_sensitive (GTK_WIDGET (self->composer), !owned);

  if (!owned && (focus == NULL || gtk_widget_is_ancestor (focus, GTK_WIDGET (self->transcript))))
    gtk_widget_grab_focus (GTK_WIDGET (self->composer));
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

  /* The history hands its last checkpoints to the memory as it goes. */
  g_cancellable_cancel (self->history_cancellable);
  g_clear_object (&self->history_cancellable);
  g_clear_object (&self->history);

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

  g_type_ensure (AKC_TYPE_CHAT_VIEW);
  g_type_ensure (AKC_TYPE_COMPOSER);

  gtk_widget_class_set_template_from_resource (widget_class, "/io/agentskit/Chat/akc-window.ui");
  gtk_widget_class_bind_template_child (widget_class, AkcWindow, toast_overlay);
  gtk_widget_class_bind_template_child (widget_class, AkcWindow, stack);
  gtk_widget_class_bind_template_child (widget_class, AkcWindow, scroller);
  gtk_widget_class_bind_template_child (widget_class, AkcWindow, transcript);
  gtk_widget_class_bind_template_child (widget_class, AkcWindow, composer);

  /* Stop (Escape), retry (Ctrl+R), regenerate (Ctrl+Shift+R) and edit
   * (Ctrl+E) are the transcript's actions and shortcuts (AkcChatView). */
  gtk_widget_class_install_action (widget_class, "win.new-chat", NULL, new_chat_action);

  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_n, GDK_CONTROL_MASK, "win.new-chat", NULL);
}

static void
akc_window_init (AkcWindow *self)
{
  g_autoptr(AkcAdapter) adapter = NULL;
  g_autoptr(AkcComponentManifest) manifest = NULL;
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

  /* Components of the standard catalog render natively. */
  manifest = akc_component_manifest_new_standard ();
  akc_chat_view_set_manifest (self->transcript, manifest);
  akc_chat_view_set_source (self->transcript, self->source);
  akc_composer_set_source (self->composer, self->source);

  g_signal_connect_object (messages, "items-changed",
                           G_CALLBACK (on_messages_changed),
                           self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->transcript, "notify::input-owned",
                           G_CALLBACK (on_input_owned_changed),
                           self, G_CONNECT_SWAPPED);

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
 * akc_window_show_history_error:
 * @self: a #AkcWindow
 * @error: why the history cannot be read or written
 *
 * Tells the person that the conversation is not being saved, and why. It
 * stays until dismissed.
 */
void
akc_window_show_history_error (AkcWindow    *self,
                               const GError *error)
{
  g_autofree char *escaped = NULL;
  g_autofree char *title = NULL;
  AdwToast *toast;

  g_return_if_fail (AKC_IS_WINDOW (self));
  g_return_if_fail (error != NULL);

  escaped = g_markup_escape_text (error->message, -1);
  /* Translators: %s says why, such as "The history “…” is damaged (…)." */
  title = g_strdup_printf (_("The conversation is not being saved. %s"), escaped);
  toast = adw_toast_new (title);
  adw_toast_set_timeout (toast, 0);
  adw_toast_set_priority (toast, ADW_TOAST_PRIORITY_HIGH);
  adw_toast_overlay_add_toast (self->toast_overlay, toast);
}

static void
on_history_error (AkcWindow *self)
{
  const GError *error = akc_chat_history_get_error (self->history);

  if (error != NULL)
    akc_window_show_history_error (self, error);
}

static void
on_history_loaded (GObject      *source,
                   GAsyncResult *result,
                   gpointer      user_data)
{
  AkcWindow *self = user_data;

  /* A failure is the history's error, shown by on_history_error. The
   * window was kept alive for the load. */
  akc_chat_history_load_finish (AKC_CHAT_HISTORY (source), result, NULL);
  g_object_unref (self);
}

/**
 * akc_window_set_memory:
 * @self: a #AkcWindow
 * @memory: the open history
 *
 * Keeps the window's conversation in @memory: the demo conversation
 * stored there is read into the chat (what was typed meanwhile comes
 * after it), and every change is written from then on. It is set once.
 */
void
akc_window_set_memory (AkcWindow     *self,
                       AkcChatMemory *memory)
{
  g_return_if_fail (AKC_IS_WINDOW (self));
  g_return_if_fail (AKC_IS_CHAT_MEMORY (memory));

  if (self->history != NULL)
    return;

  self->history = akc_chat_history_new (AKC_CHAT (self->source), memory, DEMO_CONVERSATION_ID);
  self->history_cancellable = g_cancellable_new ();
  g_signal_connect_object (self->history, "notify::error",
                           G_CALLBACK (on_history_error), self, G_CONNECT_SWAPPED);
  akc_chat_history_load_async (self->history, self->history_cancellable,
                               on_history_loaded, g_object_ref (self));
}

/**
 * akc_window_get_history:
 * @self: a #AkcWindow
 *
 * Gets what keeps the window's conversation stored.
 *
 * Returns: (transfer none) (nullable): the history, or %NULL before
 *   [method@Window.set_memory]
 */
AkcChatHistory *
akc_window_get_history (AkcWindow *self)
{
  g_return_val_if_fail (AKC_IS_WINDOW (self), NULL);

  return self->history;
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
