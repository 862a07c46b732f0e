/* akc-chat-widget.c: a transcript and a composer, wired together
 *
 * SPDX-License-Identifier: MIT
 */

#include "config.h"

#include <glib/gi18n-lib.h>

#include "akc-chat-widget.h"
#include "akc-component-view.h"
#include "akc-gtk-main.h"

/**
 * AkcChatWidget:
 *
 * A whole chat in one widget: an [class@ChatView] that scrolls, above an
 * [class@Composer], both bound to one [iface@Akc.ChatSource], with the
 * keyboard wiring the application's window has (application.md §12.4).
 *
 * A host needs three lines: create a source (an [class@Akc.ControlledSource]
 * or an [class@Akc.Chat]), create the widget with it, and, for a controlled
 * source, connect [signal@Akc.ControlledSource::send]:
 *
 * ```python
 * source = Akc.ControlledSource.new()
 * widget = AkcGtk.ChatWidget.new(source)
 * source.connect("send", on_send)
 * ```
 *
 * With a controlled source, what the person chooses or answers in a
 * component of the transcript reaches the host as the source's
 * [signal@Akc.ControlledSource::choice-selected] (the frame, the choice's
 * id and its label) and [signal@Akc.ControlledSource::component-interaction].
 *
 * The widget needs no libadwaita and works in any GTK window. When a
 * component of the transcript owns input, the composer stays enabled;
 * typing into it or clicking it sets the component aside, and when no
 * component owns input any more the composer takes the keyboard back. When
 * the widget that had the keyboard goes away (an answered card, a rebuilt
 * row), the keyboard returns to the composer. Focusing the widget focuses
 * the composer, and so does showing it in a window where nothing has the
 * keyboard yet.
 *
 * # CSS nodes
 *
 * `AkcChatWidget` has a main CSS node named `chatwidget`, with a
 * `scrolledwindow` holding the transcript and a `composer` below it.
 *
 * # Accessibility
 *
 * `AkcChatWidget` uses the %GTK_ACCESSIBLE_ROLE_GROUP role, labelled
 * "Chat"; the transcript inside is labelled "Messages".
 *
 * Since: 0.1
 */
struct _AkcChatWidget
{
  GtkWidget          parent_instance;

  GtkScrolledWindow *scroller;
  AkcChatView       *view;
  AkcComposer       *composer;

  GtkRoot           *root;          /* unowned, while rooted */
  gulong             focus_handler;
};

G_DEFINE_FINAL_TYPE (AkcChatWidget, akc_chat_widget, GTK_TYPE_WIDGET)

enum {
  PROP_0,
  PROP_SOURCE,
  PROP_MANIFEST,
  PROP_VIEW,
  PROP_COMPOSER,
  N_PROPS
};

static GParamSpec *props[N_PROPS];

/* When no component owns input any more, the composer takes the keyboard
 * back, unless the person has moved it elsewhere outside the transcript. */
static void
on_input_owned_changed (AkcChatWidget *self)
{
  GtkWidget *focus;

  if (akc_chat_view_get_input_owned (self->view) || self->root == NULL)
    return;

  focus = gtk_root_get_focus (self->root);
  if (focus == NULL || gtk_widget_is_ancestor (focus, GTK_WIDGET (self->view)))
    gtk_widget_grab_focus (GTK_WIDGET (self->composer));
}

/* Typing into the composer, or clicking it, sets the component that owns
 * input aside: it stays unanswered, and the person writes instead. */
static void
set_component_aside (AkcChatWidget *self)
{
  if (akc_chat_view_get_input_owned (self->view))
    gtk_widget_activate_action (GTK_WIDGET (self->view), "chat.set-aside", NULL);
}

static void
on_composer_pressed (AkcChatWidget *self)
{
  set_component_aside (self);
}

static gboolean
on_composer_key_pressed (AkcChatWidget   *self,
                         guint            keyval,
                         guint            keycode,
                         GdkModifierType  state)
{
  /* A key that writes, not one that moves the focus on (Tab) or is a
   * shortcut. */
  if ((state & (GDK_CONTROL_MASK | GDK_ALT_MASK)) == 0 &&
      (gdk_keyval_to_unicode (keyval) >= 0x20 || keyval == GDK_KEY_BackSpace || keyval == GDK_KEY_Delete))
    set_component_aside (self);

  return GDK_EVENT_PROPAGATE;
}

static gboolean
focus_is_lost (AkcChatWidget *self)
{
  GtkWidget *focus;

  if (self->root == NULL)
    return FALSE;

  focus = gtk_root_get_focus (self->root);
  return focus == NULL || !gtk_widget_get_mapped (focus);
}

static gboolean
restore_focus_idle (gpointer user_data)
{
  AkcChatWidget *self = user_data;

  if (focus_is_lost (self) &&
      gtk_widget_get_mapped (GTK_WIDGET (self)) &&
      !akc_chat_view_get_input_owned (self->view) &&
      gtk_widget_is_sensitive (GTK_WIDGET (self->composer)))
    gtk_widget_grab_focus (GTK_WIDGET (self->composer));

  return G_SOURCE_REMOVE;
}

/* The keyboard never stays nowhere: when the widget of the chat that had
 * it goes, it returns to the composer. */
static void
on_focus_widget_changed (AkcChatWidget *self)
{
  if (focus_is_lost (self))
    g_idle_add_full (G_PRIORITY_DEFAULT_IDLE, restore_focus_idle, g_object_ref (self), g_object_unref);
}

static void
akc_chat_widget_root (GtkWidget *widget)
{
  AkcChatWidget *self = AKC_CHAT_WIDGET (widget);

  GTK_WIDGET_CLASS (akc_chat_widget_parent_class)->root (widget);

  self->root = gtk_widget_get_root (widget);
  if (GTK_IS_WINDOW (self->root))
    self->focus_handler = g_signal_connect_object (self->root, "notify::focus-widget",
                                                   G_CALLBACK (on_focus_widget_changed),
                                                   self, G_CONNECT_SWAPPED);
}

static void
akc_chat_widget_unroot (GtkWidget *widget)
{
  AkcChatWidget *self = AKC_CHAT_WIDGET (widget);

  if (self->root != NULL)
    g_clear_signal_handler (&self->focus_handler, self->root);
  self->root = NULL;

  GTK_WIDGET_CLASS (akc_chat_widget_parent_class)->unroot (widget);
}

/* Shown in a window where nothing has the keyboard yet: the composer takes
 * it, so that the person can type straight away. */
static void
akc_chat_widget_map (GtkWidget *widget)
{
  AkcChatWidget *self = AKC_CHAT_WIDGET (widget);

  GTK_WIDGET_CLASS (akc_chat_widget_parent_class)->map (widget);

  if (self->root != NULL && gtk_root_get_focus (self->root) == NULL)
    gtk_widget_grab_focus (GTK_WIDGET (self->composer));
}

static gboolean
akc_chat_widget_grab_focus (GtkWidget *widget)
{
  return gtk_widget_grab_focus (GTK_WIDGET (AKC_CHAT_WIDGET (widget)->composer));
}

static void
akc_chat_widget_dispose (GObject *object)
{
  AkcChatWidget *self = AKC_CHAT_WIDGET (object);

  if (self->scroller != NULL)
    {
      gtk_widget_unparent (GTK_WIDGET (self->scroller));
      self->scroller = NULL;
      self->view = NULL;
    }
  if (self->composer != NULL)
    {
      gtk_widget_unparent (GTK_WIDGET (self->composer));
      self->composer = NULL;
    }

  G_OBJECT_CLASS (akc_chat_widget_parent_class)->dispose (object);
}

static void
akc_chat_widget_get_property (GObject    *object,
                              guint       prop_id,
                              GValue     *value,
                              GParamSpec *pspec)
{
  AkcChatWidget *self = AKC_CHAT_WIDGET (object);

  switch (prop_id)
    {
    case PROP_SOURCE:
      g_value_set_object (value, akc_chat_widget_get_source (self));
      break;
    case PROP_MANIFEST:
      g_value_set_object (value, akc_chat_widget_get_manifest (self));
      break;
    case PROP_VIEW:
      g_value_set_object (value, self->view);
      break;
    case PROP_COMPOSER:
      g_value_set_object (value, self->composer);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
akc_chat_widget_set_property (GObject      *object,
                              guint         prop_id,
                              const GValue *value,
                              GParamSpec   *pspec)
{
  AkcChatWidget *self = AKC_CHAT_WIDGET (object);

  switch (prop_id)
    {
    case PROP_SOURCE:
      akc_chat_widget_set_source (self, g_value_get_object (value));
      break;
    case PROP_MANIFEST:
      akc_chat_widget_set_manifest (self, g_value_get_object (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
akc_chat_widget_class_init (AkcChatWidgetClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = akc_chat_widget_dispose;
  object_class->get_property = akc_chat_widget_get_property;
  object_class->set_property = akc_chat_widget_set_property;

  widget_class->root = akc_chat_widget_root;
  widget_class->unroot = akc_chat_widget_unroot;
  widget_class->map = akc_chat_widget_map;
  widget_class->grab_focus = akc_chat_widget_grab_focus;

  /**
   * AkcChatWidget:source:
   *
   * The conversation the transcript shows and the composer writes to, or
   * %NULL.
   *
   * Since: 0.1
   */
  props[PROP_SOURCE] =
    g_param_spec_object ("source", NULL, NULL,
                         AKC_TYPE_CHAT_SOURCE,
                         (G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));

  /**
   * AkcChatWidget:manifest:
   *
   * The manifest the transcript resolves component frames against, or
   * %NULL for none (see [property@ChatView:manifest]).
   *
   * Since: 0.1
   */
  props[PROP_MANIFEST] =
    g_param_spec_object ("manifest", NULL, NULL,
                         AKC_TYPE_COMPONENT_MANIFEST,
                         (G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));

  /**
   * AkcChatWidget:view:
   *
   * The transcript.
   *
   * Since: 0.1
   */
  props[PROP_VIEW] =
    g_param_spec_object ("view", NULL, NULL,
                         AKC_TYPE_CHAT_VIEW,
                         (G_PARAM_READABLE | G_PARAM_STATIC_STRINGS));

  /**
   * AkcChatWidget:composer:
   *
   * The composer.
   *
   * Since: 0.1
   */
  props[PROP_COMPOSER] =
    g_param_spec_object ("composer", NULL, NULL,
                         AKC_TYPE_COMPOSER,
                         (G_PARAM_READABLE | G_PARAM_STATIC_STRINGS));

  g_object_class_install_properties (object_class, N_PROPS, props);

  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BOX_LAYOUT);
  gtk_widget_class_set_css_name (widget_class, "chatwidget");
  gtk_widget_class_set_accessible_role (widget_class, GTK_ACCESSIBLE_ROLE_GROUP);
}

static void
akc_chat_widget_init (AkcChatWidget *self)
{
  GtkLayoutManager *layout;
  GtkEventController *keys;
  GtkGesture *click;

  akc_gtk_init ();

  layout = gtk_widget_get_layout_manager (GTK_WIDGET (self));
  gtk_orientable_set_orientation (GTK_ORIENTABLE (layout), GTK_ORIENTATION_VERTICAL);

  gtk_accessible_update_property (GTK_ACCESSIBLE (self),
                                  GTK_ACCESSIBLE_PROPERTY_LABEL, _("Chat"),
                                  -1);

  self->scroller = GTK_SCROLLED_WINDOW (gtk_scrolled_window_new ());
  gtk_scrolled_window_set_policy (self->scroller, GTK_POLICY_NEVER, GTK_POLICY_AUTOMATIC);
  gtk_widget_set_vexpand (GTK_WIDGET (self->scroller), TRUE);
  self->view = AKC_CHAT_VIEW (akc_chat_view_new ());
  gtk_scrolled_window_set_child (self->scroller, GTK_WIDGET (self->view));
  gtk_widget_set_parent (GTK_WIDGET (self->scroller), GTK_WIDGET (self));

  self->composer = AKC_COMPOSER (akc_composer_new ());
  gtk_widget_set_parent (GTK_WIDGET (self->composer), GTK_WIDGET (self));

  g_signal_connect_object (self->view, "notify::input-owned",
                           G_CALLBACK (on_input_owned_changed),
                           self, G_CONNECT_SWAPPED);

  /* Before the entry sees the key or the click. */
  keys = gtk_event_controller_key_new ();
  gtk_event_controller_set_propagation_phase (keys, GTK_PHASE_CAPTURE);
  g_signal_connect_object (keys, "key-pressed", G_CALLBACK (on_composer_key_pressed),
                           self, G_CONNECT_SWAPPED);
  gtk_widget_add_controller (GTK_WIDGET (self->composer), keys);
  click = gtk_gesture_click_new ();
  gtk_event_controller_set_propagation_phase (GTK_EVENT_CONTROLLER (click), GTK_PHASE_CAPTURE);
  g_signal_connect_object (click, "pressed", G_CALLBACK (on_composer_pressed),
                           self, G_CONNECT_SWAPPED);
  gtk_widget_add_controller (GTK_WIDGET (self->composer), GTK_EVENT_CONTROLLER (click));
}

/**
 * akc_chat_widget_new:
 * @source: (nullable): the conversation, or %NULL
 *
 * Creates a chat widget showing @source.
 *
 * Returns: (transfer none): a new floating #AkcChatWidget
 *
 * Since: 0.1
 */
GtkWidget *
akc_chat_widget_new (AkcChatSource *source)
{
  g_return_val_if_fail (source == NULL || AKC_IS_CHAT_SOURCE (source), NULL);

  return g_object_new (AKC_TYPE_CHAT_WIDGET, "source", source, NULL);
}

/**
 * akc_chat_widget_get_source:
 * @self: a #AkcChatWidget
 *
 * Gets the conversation the widget shows.
 *
 * Returns: (transfer none) (nullable): the source, or %NULL
 *
 * Since: 0.1
 */
AkcChatSource *
akc_chat_widget_get_source (AkcChatWidget *self)
{
  g_return_val_if_fail (AKC_IS_CHAT_WIDGET (self), NULL);

  return akc_chat_view_get_source (self->view);
}

/**
 * akc_chat_widget_set_source:
 * @self: a #AkcChatWidget
 * @source: (nullable): the conversation, or %NULL
 *
 * Shows @source in the transcript and binds the composer to it.
 *
 * Since: 0.1
 */
void
akc_chat_widget_set_source (AkcChatWidget *self,
                            AkcChatSource *source)
{
  g_return_if_fail (AKC_IS_CHAT_WIDGET (self));
  g_return_if_fail (source == NULL || AKC_IS_CHAT_SOURCE (source));

  if (akc_chat_view_get_source (self->view) == source)
    return;

  akc_chat_view_set_source (self->view, source);
  akc_composer_set_source (self->composer, source);
  g_object_notify_by_pspec (G_OBJECT (self), props[PROP_SOURCE]);
}

/**
 * akc_chat_widget_get_manifest:
 * @self: a #AkcChatWidget
 *
 * Gets the manifest component frames resolve against.
 *
 * Returns: (transfer none) (nullable): the manifest, or %NULL
 *
 * Since: 0.1
 */
AkcComponentManifest *
akc_chat_widget_get_manifest (AkcChatWidget *self)
{
  g_return_val_if_fail (AKC_IS_CHAT_WIDGET (self), NULL);

  return akc_chat_view_get_manifest (self->view);
}

/**
 * akc_chat_widget_set_manifest:
 * @self: a #AkcChatWidget
 * @manifest: (nullable): the manifest, or %NULL for none
 *
 * Sets the manifest the transcript resolves component frames against.
 *
 * Since: 0.1
 */
void
akc_chat_widget_set_manifest (AkcChatWidget        *self,
                              AkcComponentManifest *manifest)
{
  g_return_if_fail (AKC_IS_CHAT_WIDGET (self));
  g_return_if_fail (manifest == NULL || AKC_IS_COMPONENT_MANIFEST (manifest));

  if (akc_chat_view_get_manifest (self->view) == manifest)
    return;

  akc_chat_view_set_manifest (self->view, manifest);
  g_object_notify_by_pspec (G_OBJECT (self), props[PROP_MANIFEST]);
}

/**
 * akc_chat_widget_get_view:
 * @self: a #AkcChatWidget
 *
 * Gets the transcript, for what the widget does not forward (its
 * interaction controller, its theme, its confirmations).
 *
 * Returns: (transfer none): the transcript
 *
 * Since: 0.1
 */
AkcChatView *
akc_chat_widget_get_view (AkcChatWidget *self)
{
  g_return_val_if_fail (AKC_IS_CHAT_WIDGET (self), NULL);

  return self->view;
}

/**
 * akc_chat_widget_get_composer:
 * @self: a #AkcChatWidget
 *
 * Gets the composer.
 *
 * Returns: (transfer none): the composer
 *
 * Since: 0.1
 */
AkcComposer *
akc_chat_widget_get_composer (AkcChatWidget *self)
{
  g_return_val_if_fail (AKC_IS_CHAT_WIDGET (self), NULL);

  return self->composer;
}
