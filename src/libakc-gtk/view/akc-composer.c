/* akc-composer.c
 *
 * SPDX-License-Identifier: MIT
 */

#include "config.h"

#include <glib/gi18n-lib.h>

#include "akc-composer.h"
#include "akc-gtk-main.h"

/**
 * AkcComposer:
 *
 * The multi-line message entry of a chat, with its Send and Stop buttons.
 *
 * Enter sends the draft to [property@Composer:source]; Shift+Enter inserts
 * a newline. Blank drafts are never sent. The draft is kept in
 * [property@Akc.ChatSource:input], so it survives the widget.
 *
 * While a reply streams in, the entry stays editable, so that nothing
 * typed meanwhile is lost, and Stop replaces Send. Enter then keeps the
 * draft where it is and a hint below the entry says so: the draft waits
 * until the person sends it, with Enter once the reply is finished.
 * Escape in the entry stops the reply.
 *
 * The composer installs the actions `composer.send` and `composer.stop`;
 * each is enabled only when it can do something.
 *
 * ## CSS nodes
 *
 * `AkcComposer` has a main CSS node named `composer`.
 *
 * ## Accessibility
 *
 * The entry has the text-box role and the label "Message"; the buttons are
 * labelled "Send" and "Stop".
 *
 * Since: 0.1
 */

struct _AkcComposer
{
  GtkWidget      parent_instance;

  GtkTextView   *text_view;
  GtkTextBuffer *buffer;
  GtkWidget     *placeholder;
  GtkWidget     *hint;
  GtkWidget     *send_button;
  GtkWidget     *stop_button;

  AkcChatSource *source;
  gulong         status_handler;
  gulong         input_handler;
  gboolean       syncing_input;
};

G_DEFINE_FINAL_TYPE (AkcComposer, akc_composer, GTK_TYPE_WIDGET)

enum {
  PROP_0,
  PROP_SOURCE,
  N_PROPS
};

static GParamSpec *props[N_PROPS];

static gboolean
akc_composer_is_streaming (AkcComposer *self)
{
  return self->source != NULL &&
         akc_chat_source_get_status (self->source) == AKC_CHAT_STATUS_STREAMING;
}

static gboolean
akc_composer_has_text (AkcComposer *self)
{
  g_autofree char *text = akc_composer_dup_text (self);

  return !akc_is_blank_input (text);
}

static void
akc_composer_update_state (AkcComposer *self)
{
  gboolean streaming = akc_composer_is_streaming (self);
  gboolean has_text = gtk_text_buffer_get_char_count (self->buffer) > 0;

  gtk_widget_action_set_enabled (GTK_WIDGET (self), "composer.send",
                                 self->source != NULL && !streaming && akc_composer_has_text (self));
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "composer.stop", streaming);

  gtk_widget_set_visible (self->send_button, !streaming);
  gtk_widget_set_visible (self->stop_button, streaming);
  gtk_widget_set_visible (self->placeholder, !has_text);
  /* Never insensitive while a reply streams: keys typed then would be
   * dropped. What Enter does then is said next to the entry. */
  gtk_widget_set_sensitive (GTK_WIDGET (self->text_view), self->source != NULL);
  if (gtk_widget_get_visible (self->hint) == (streaming && has_text))
    return;

  /* The hint is also the entry's description while it shows (only then:
   * the chat view may announce through the description, GTK < 4.14). */
  gtk_widget_set_visible (self->hint, streaming && has_text);
  if (streaming && has_text)
    gtk_accessible_update_property (GTK_ACCESSIBLE (self->text_view),
                                    GTK_ACCESSIBLE_PROPERTY_DESCRIPTION,
                                    gtk_label_get_text (GTK_LABEL (self->hint)),
                                    -1);
  else
    gtk_accessible_reset_property (GTK_ACCESSIBLE (self->text_view), GTK_ACCESSIBLE_PROPERTY_DESCRIPTION);
}

static void
on_status_changed (AkcComposer *self)
{
  gboolean stop_focused = gtk_widget_has_focus (self->stop_button);

  akc_composer_update_state (self);

  if (akc_composer_is_streaming (self))
    return;

  /* Stop, which had the keyboard, is gone: give it back to the entry. */
  if (stop_focused)
    gtk_widget_grab_focus (GTK_WIDGET (self->text_view));
}

static void
on_source_input_changed (AkcComposer *self)
{
  g_autofree char *input = NULL;
  g_autofree char *text = NULL;

  if (self->syncing_input)
    return;

  input = akc_chat_source_dup_input (self->source);
  text = akc_composer_dup_text (self);
  if (g_strcmp0 (input, text) != 0)
    akc_composer_set_text (self, input);
}

static void
on_buffer_changed (AkcComposer *self)
{
  akc_composer_update_state (self);

  if (self->source != NULL)
    {
      g_autofree char *text = akc_composer_dup_text (self);

      self->syncing_input = TRUE;
      akc_chat_source_set_input (self->source, text);
      self->syncing_input = FALSE;
    }
}

static gboolean
on_key_pressed (GtkEventControllerKey *controller,
                guint                  keyval,
                guint                  keycode,
                GdkModifierType        state,
                AkcComposer           *self)
{
  /* Shift+Tab leaves the entry for the widget before the composer (the
   * transcript). GtkTextView, in GTK 4.8, keeps the focus on Shift+Tab
   * when it does not accept tabs: the move is made from outside it, with
   * the composer out of the focus chain for a moment. */
  if ((keyval == GDK_KEY_ISO_Left_Tab || ((keyval == GDK_KEY_Tab || keyval == GDK_KEY_KP_Tab) &&
                                          (state & GDK_SHIFT_MASK) != 0)) &&
      (state & (GDK_CONTROL_MASK | GDK_ALT_MASK)) == 0)
    {
      GtkRoot *root = gtk_widget_get_root (GTK_WIDGET (self));
      gboolean moved;

      if (root == NULL)
        return GDK_EVENT_PROPAGATE;
      gtk_root_set_focus (root, NULL);
      gtk_widget_set_can_focus (GTK_WIDGET (self), FALSE);
      moved = gtk_widget_child_focus (GTK_WIDGET (root), GTK_DIR_TAB_BACKWARD);
      gtk_widget_set_can_focus (GTK_WIDGET (self), TRUE);
      if (!moved)
        gtk_widget_grab_focus (GTK_WIDGET (self->text_view));
      return GDK_EVENT_STOP;
    }

  /* Escape stops a reply from the entry, where the person types. */
  if (keyval == GDK_KEY_Escape && (state & (GDK_SHIFT_MASK | GDK_CONTROL_MASK | GDK_ALT_MASK)) == 0 &&
      akc_composer_is_streaming (self))
    {
      akc_chat_source_stop (self->source);
      return GDK_EVENT_STOP;
    }

  if (keyval != GDK_KEY_Return && keyval != GDK_KEY_KP_Enter && keyval != GDK_KEY_ISO_Enter)
    return GDK_EVENT_PROPAGATE;

  /* Shift+Enter, and Enter with any other modifier, edit the text. */
  if ((state & (GDK_SHIFT_MASK | GDK_CONTROL_MASK | GDK_ALT_MASK)) != 0)
    return GDK_EVENT_PROPAGATE;

  /* While a reply streams the draft stays, and the hint says why. */
  akc_composer_send (self);

  /* Enter never inserts a newline, even when there is nothing to send. */
  return GDK_EVENT_STOP;
}

static void
send_action (GtkWidget  *widget,
             const char *action_name,
             GVariant   *parameter)
{
  akc_composer_send (AKC_COMPOSER (widget));
}

static void
stop_action (GtkWidget  *widget,
             const char *action_name,
             GVariant   *parameter)
{
  AkcComposer *self = AKC_COMPOSER (widget);

  if (self->source != NULL)
    akc_chat_source_stop (self->source);
}

static gboolean
akc_composer_grab_focus (GtkWidget *widget)
{
  AkcComposer *self = AKC_COMPOSER (widget);

  return gtk_widget_grab_focus (GTK_WIDGET (self->text_view));
}

static void
akc_composer_dispose (GObject *object)
{
  AkcComposer *self = (AkcComposer *)object;

  GtkWidget *child;

  akc_composer_set_source (self, NULL);
  gtk_widget_dispose_template (GTK_WIDGET (self), AKC_TYPE_COMPOSER);
  while ((child = gtk_widget_get_first_child (GTK_WIDGET (self))) != NULL)
    gtk_widget_unparent (child);

  G_OBJECT_CLASS (akc_composer_parent_class)->dispose (object);
}

static void
akc_composer_get_property (GObject    *object,
                           guint       prop_id,
                           GValue     *value,
                           GParamSpec *pspec)
{
  AkcComposer *self = AKC_COMPOSER (object);

  switch (prop_id)
    {
    case PROP_SOURCE:
      g_value_set_object (value, self->source);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
akc_composer_set_property (GObject      *object,
                           guint         prop_id,
                           const GValue *value,
                           GParamSpec   *pspec)
{
  AkcComposer *self = AKC_COMPOSER (object);

  switch (prop_id)
    {
    case PROP_SOURCE:
      akc_composer_set_source (self, g_value_get_object (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
akc_composer_class_init (AkcComposerClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = akc_composer_dispose;
  object_class->get_property = akc_composer_get_property;
  object_class->set_property = akc_composer_set_property;

  widget_class->grab_focus = akc_composer_grab_focus;

  /**
   * AkcComposer:source:
   *
   * The conversation the composer sends to.
   *
   * Since: 0.1
   */
  props[PROP_SOURCE] =
    g_param_spec_object ("source", NULL, NULL,
                         AKC_TYPE_CHAT_SOURCE,
                         (G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));

  g_object_class_install_properties (object_class, N_PROPS, props);

  gtk_widget_class_set_template_from_resource (widget_class, "/io/agentskit/AkcGtk/akc-composer.ui");
  gtk_widget_class_bind_template_child (widget_class, AkcComposer, text_view);
  gtk_widget_class_bind_template_child (widget_class, AkcComposer, placeholder);
  gtk_widget_class_bind_template_child (widget_class, AkcComposer, hint);
  gtk_widget_class_bind_template_child (widget_class, AkcComposer, send_button);
  gtk_widget_class_bind_template_child (widget_class, AkcComposer, stop_button);
  gtk_widget_class_bind_template_callback (widget_class, on_key_pressed);

  gtk_widget_class_install_action (widget_class, "composer.send", NULL, send_action);
  gtk_widget_class_install_action (widget_class, "composer.stop", NULL, stop_action);

  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
  gtk_widget_class_set_css_name (widget_class, "composer");
  gtk_widget_class_set_accessible_role (widget_class, GTK_ACCESSIBLE_ROLE_GROUP);
}

static void
akc_composer_init (AkcComposer *self)
{
  akc_gtk_init ();
  gtk_widget_init_template (GTK_WIDGET (self));

  self->buffer = gtk_text_view_get_buffer (self->text_view);
  g_signal_connect_object (self->buffer, "changed",
                           G_CALLBACK (on_buffer_changed),
                           self, G_CONNECT_SWAPPED);

  gtk_accessible_update_property (GTK_ACCESSIBLE (self),
                                  GTK_ACCESSIBLE_PROPERTY_LABEL, _("Composer"),
                                  -1);
  gtk_accessible_update_property (GTK_ACCESSIBLE (self->text_view),
                                  GTK_ACCESSIBLE_PROPERTY_LABEL, _("Message"),
                                  GTK_ACCESSIBLE_PROPERTY_PLACEHOLDER, _("Type a message..."),
                                  GTK_ACCESSIBLE_PROPERTY_MULTI_LINE, TRUE,
                                  -1);

  akc_composer_update_state (self);
}

/**
 * akc_composer_new:
 *
 * Creates a composer with no conversation.
 *
 * Returns: (transfer full): a new #AkcComposer
 *
 * Since: 0.1
 */
GtkWidget *
akc_composer_new (void)
{
  return g_object_new (AKC_TYPE_COMPOSER, NULL);
}

/**
 * akc_composer_get_source:
 * @self: a #AkcComposer
 *
 * Gets the conversation the composer sends to.
 *
 * Returns: (transfer none) (nullable): the source
 *
 * Since: 0.1
 */
AkcChatSource *
akc_composer_get_source (AkcComposer *self)
{
  g_return_val_if_fail (AKC_IS_COMPOSER (self), NULL);

  return self->source;
}

/**
 * akc_composer_set_source:
 * @self: a #AkcComposer
 * @source: (nullable): the conversation to send to
 *
 * Sets the conversation the composer sends to. The composer shows the
 * source's draft and follows its status.
 *
 * Since: 0.1
 */
void
akc_composer_set_source (AkcComposer   *self,
                         AkcChatSource *source)
{
  g_return_if_fail (AKC_IS_COMPOSER (self));
  g_return_if_fail (source == NULL || AKC_IS_CHAT_SOURCE (source));

  if (self->source == source)
    return;

  if (self->source != NULL)
    {
      g_clear_signal_handler (&self->status_handler, self->source);
      g_clear_signal_handler (&self->input_handler, self->source);
      g_clear_object (&self->source);
    }

  if (source != NULL)
    {
      self->source = g_object_ref (source);
      self->status_handler = g_signal_connect_object (source, "notify::status",
                                                      G_CALLBACK (on_status_changed),
                                                      self, G_CONNECT_SWAPPED);
      self->input_handler = g_signal_connect_object (source, "notify::input",
                                                     G_CALLBACK (on_source_input_changed),
                                                     self, G_CONNECT_SWAPPED);
      on_source_input_changed (self);
    }

  akc_composer_update_state (self);
  g_object_notify_by_pspec (G_OBJECT (self), props[PROP_SOURCE]);
}

/**
 * akc_composer_dup_text:
 * @self: a #AkcComposer
 *
 * Gets a copy of the draft.
 *
 * Returns: (transfer full): the text in the entry
 *
 * Since: 0.1
 */
char *
akc_composer_dup_text (AkcComposer *self)
{
  GtkTextIter start, end;

  g_return_val_if_fail (AKC_IS_COMPOSER (self), NULL);

  gtk_text_buffer_get_bounds (self->buffer, &start, &end);

  return gtk_text_buffer_get_text (self->buffer, &start, &end, FALSE);
}

/**
 * akc_composer_set_text:
 * @self: a #AkcComposer
 * @text: (nullable): the new draft
 *
 * Replaces the draft.
 *
 * Since: 0.1
 */
void
akc_composer_set_text (AkcComposer *self,
                       const char  *text)
{
  g_return_if_fail (AKC_IS_COMPOSER (self));

  gtk_text_buffer_set_text (self->buffer, text != NULL ? text : "", -1);
}

/**
 * akc_composer_send:
 * @self: a #AkcComposer
 *
 * Sends the draft, as Enter does, and empties the entry. Nothing happens
 * when the draft is blank or a reply is streaming: the draft stays in the
 * entry then, as it does when the conversation refuses it.
 *
 * Returns: %TRUE if the draft was sent
 *
 * Since: 0.1
 */
gboolean
akc_composer_send (AkcComposer *self)
{
  g_autofree char *text = NULL;
  g_autoptr(GError) error = NULL;

  g_return_val_if_fail (AKC_IS_COMPOSER (self), FALSE);

  if (self->source == NULL || akc_composer_is_streaming (self) || !akc_composer_has_text (self))
    return FALSE;

  text = akc_composer_dup_text (self);
  if (!akc_chat_source_send (self->source, text, &error))
    {
      g_debug ("Draft not sent: %s", error->message);
      return FALSE;
    }

  akc_composer_set_text (self, NULL);

  return TRUE;
}
