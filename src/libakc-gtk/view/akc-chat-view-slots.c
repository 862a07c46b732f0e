/* akc-chat-view-slots.c: the widgets a host puts into an AkcChatView
 * (application.md §12.10, composition slots)
 *
 * SPDX-License-Identifier: MIT
 */

#include "config.h"

#include <glib/gi18n-lib.h>

#include "akc-chat-view-slots.h"
#include "akc-chat-view-slots-private.h"
#include "akc-message-row-private.h"
#include "akc-tool-confirmation-row-private.h"

typedef struct {
  GCallback               func;
  gpointer                data;
  GDestroyNotify          destroy;
} Factory;

static void
factory_free (Factory *factory)
{
  if (factory->destroy != NULL)
    factory->destroy (factory->data);
  g_free (factory);
}

static Factory *
factory_new (GCallback       func,
             gpointer        data,
             GDestroyNotify  destroy)
{
  Factory *factory = g_new0 (Factory, 1);

  factory->func = func;
  factory->data = data;
  factory->destroy = destroy;
  return factory;
}

/* The components' factories, by component key, kept on the view under
 * one of these. */
#define CUSTOM_FACTORIES "akc-chat-view-component-factories"
#define STANDARD_FACTORIES "akc-chat-view-standard-factories"

/* The table @self keeps under @name, made when @create, or NULL. */
static GHashTable *
factory_table (AkcChatView *self,
               const char  *name,
               gboolean     create)
{
  GQuark quark = g_quark_from_static_string (name);
  GHashTable *table = g_object_get_qdata (G_OBJECT (self), quark);

  if (table == NULL && create)
    {
      table = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, (GDestroyNotify) factory_free);
      g_object_set_qdata_full (G_OBJECT (self), quark, table, (GDestroyNotify) g_hash_table_unref);
    }
  return table;
}

/* Removes the factory of @component_key from the table under @name;
 * whether there was one. */
static gboolean
factory_table_remove (AkcChatView *self,
                      const char  *name,
                      const char  *component_key)
{
  GHashTable *table = factory_table (self, name, FALSE);

  return table != NULL && g_hash_table_remove (table, component_key);
}

/* The one factory of @slot (replaced; none for a NULL @func). */
static void
set_factory (AkcChatView    *self,
             const char     *slot,
             GCallback       func,
             gpointer        user_data,
             GDestroyNotify  destroy)
{
  Factory *entry = NULL;

  if (func != NULL)
    entry = factory_new (func, user_data, destroy);
  else if (destroy != NULL)
    destroy (user_data);
  g_object_set_qdata_full (G_OBJECT (self), g_quark_from_static_string (slot), entry,
                           (GDestroyNotify) factory_free);
}

static Factory *
get_factory (AkcChatView *self,
             const char  *slot)
{
  return g_object_get_qdata (G_OBJECT (self), g_quark_try_string (slot));
}

/**
 * akc_chat_view_register_component:
 * @self: a #AkcChatView
 * @component_key: the key of a custom component of the view's
 *   [property@ChatView:manifest]
 * @factory: (scope notified) (closure user_data) (destroy destroy): builds
 *   the native widget of an instance
 * @user_data: the data given to @factory
 * @destroy: (nullable): frees @user_data when the factory is replaced or
 *   the view is finalized
 *
 * Registers the native widget of a custom component (application.md
 * §12.10). A frame whose key resolves against the manifest as a custom
 * definition is drawn by the widget @factory builds instead of the
 * semantic fallback; a frame the manifest does not resolve (an unknown
 * key, invalid props) keeps its fallback.
 *
 * What the person does with the widget goes through
 * [method@ComponentView.emit_event], the path of the standard
 * components: single-shot resolution (§12.7) and
 * [signal@ChatView::component-interaction].
 *
 * A factory registered again for @component_key replaces the earlier
 * one. Instances already shown keep their widget; register factories
 * before setting the view's source. The keys of the standard catalog
 * cannot be registered.
 *
 * Since: 0.1
 */
void
akc_chat_view_register_component (AkcChatView             *self,
                                  const char              *component_key,
                                  AkcComponentFactoryFunc  factory,
                                  gpointer                 user_data,
                                  GDestroyNotify           destroy)
{
  g_return_if_fail (AKC_IS_CHAT_VIEW (self));
  g_return_if_fail (component_key != NULL && *component_key != '\0');
  g_return_if_fail (factory != NULL);
  g_return_if_fail (akc_component_definition_get_standard (component_key) == NULL);

  g_hash_table_replace (factory_table (self, CUSTOM_FACTORIES, TRUE), g_strdup (component_key),
                        factory_new (G_CALLBACK (factory), user_data, destroy));
}

/**
 * akc_chat_view_unregister_component:
 * @self: a #AkcChatView
 * @component_key: a custom component key
 *
 * Removes the factory registered for @component_key with
 * [method@ChatView.register_component]: instances shown afterwards use
 * the semantic fallback again.
 *
 * Returns: whether a factory was registered for @component_key
 *
 * Since: 0.1
 */
gboolean
akc_chat_view_unregister_component (AkcChatView *self,
                                    const char  *component_key)
{
  g_return_val_if_fail (AKC_IS_CHAT_VIEW (self), FALSE);
  g_return_val_if_fail (component_key != NULL, FALSE);

  return factory_table_remove (self, CUSTOM_FACTORIES, component_key);
}

/* The host's widget for @view, a custom component resolved against the
 * manifest, or %NULL for the fallback. Returns a full reference, never
 * floating. */
GtkWidget *
akc_chat_view_slots_create_component (AkcChatView      *self,
                                      AkcComponentView *view)
{
  AkcResolvedComponent *component = akc_component_view_get_resolved_component (view);
  GHashTable *table = factory_table (self, CUSTOM_FACTORIES, FALSE);
  Factory *entry;
  GtkWidget *widget;

  if (table == NULL || component == NULL || akc_resolved_component_is_standard (component))
    return NULL;

  entry = g_hash_table_lookup (table, akc_resolved_component_get_component_key (component));
  if (entry == NULL)
    return NULL;

  widget = ((AkcComponentFactoryFunc) entry->func) (view, component, entry->data);
  if (widget == NULL)
    return NULL;
  if (!GTK_IS_WIDGET (widget))
    {
      g_warning ("The factory of the component ‘%s’ did not return a widget",
                 akc_resolved_component_get_component_key (component));
      g_object_unref (widget);
      return NULL;
    }
  if (g_object_is_floating (widget))
    g_object_ref_sink (widget);
  return widget;
}

#define THINKING_SLOT "akc-chat-view-thinking-factory"

/**
 * akc_chat_view_set_thinking_factory:
 * @self: a #AkcChatView
 * @factory: (nullable) (scope notified) (closure user_data) (destroy destroy):
 *   builds what is shown while a reply is awaited, or %NULL for the view's
 *   own spinner
 * @user_data: the data given to @factory
 * @destroy: (nullable): frees @user_data when the factory is replaced or
 *   the view is finalized
 *
 * Replaces the thinking indicator, shown below the messages while a reply
 * streams (application.md §12.10). The accessibility contract stays the
 * view's: the host's widget is shown inside a status named "Thinking...",
 * so assistive technologies hear the same whatever it draws. It should
 * not take the focus.
 *
 * The factory is called each time the indicator is shown; one that
 * returns %NULL gets the view's own.
 *
 * Since: 0.1
 */
void
akc_chat_view_set_thinking_factory (AkcChatView          *self,
                                    AkcWidgetFactoryFunc  factory,
                                    gpointer              user_data,
                                    GDestroyNotify        destroy)
{
  g_return_if_fail (AKC_IS_CHAT_VIEW (self));

  set_factory (self, THINKING_SLOT, G_CALLBACK (factory), user_data, destroy);
}

/* The host's thinking indicator inside the status the view's own has, or
 * %NULL for the view's own. Floating. */
GtkWidget *
akc_chat_view_slots_build_thinking (AkcChatView *self)
{
  Factory *entry = get_factory (self, THINKING_SLOT);
  g_autoptr(GtkWidget) widget = NULL;
  GtkWidget *slot;

  if (entry == NULL)
    return NULL;

  widget = ((AkcWidgetFactoryFunc) entry->func) (self, entry->data);
  if (widget == NULL)
    return NULL;
  if (g_object_is_floating (widget))
    g_object_ref_sink (widget);

  slot = g_object_new (GTK_TYPE_BOX,
                       "accessible-role", GTK_ACCESSIBLE_ROLE_STATUS,
                       NULL);
  gtk_widget_add_css_class (slot, "thinking");
  gtk_accessible_update_property (GTK_ACCESSIBLE (slot),
                                  GTK_ACCESSIBLE_PROPERTY_LABEL, _("Thinking..."),
                                  -1);
  gtk_box_append (GTK_BOX (slot), widget);
  return slot;
}

/* ------------------------------------------------------------------ */
/* The host's widget in a slot                                        */
/* ------------------------------------------------------------------ */

/* The host's widget, never floating, or NULL with a warning when it is
 * not a widget. */
static GtkWidget *
take_widget (gpointer    widget,
             const char *slot)
{
  if (widget == NULL)
    return NULL;
  if (!GTK_IS_WIDGET (widget))
    {
      g_warning ("The %s factory did not return a widget", slot);
      g_object_unref (widget);
      return NULL;
    }
  if (g_object_is_floating (widget))
    g_object_ref_sink (widget);
  return widget;
}

/* The box that keeps the accessibility contract of what the host's widget
 * replaces: its role, name and description, around the host's widget. */
static GtkWidget *
slot_box (GtkAccessibleRole  role,
          const char        *css_class,
          const char        *label,
          const char        *description,
          GtkWidget         *child)
{
  GtkWidget *slot = g_object_new (GTK_TYPE_BOX,
                                  "orientation", GTK_ORIENTATION_VERTICAL,
                                  "accessible-role", role,
                                  NULL);

  gtk_widget_add_css_class (slot, css_class);
  if (label != NULL)
    gtk_accessible_update_property (GTK_ACCESSIBLE (slot), GTK_ACCESSIBLE_PROPERTY_LABEL, label, -1);
  if (description != NULL)
    gtk_accessible_update_property (GTK_ACCESSIBLE (slot), GTK_ACCESSIBLE_PROPERTY_DESCRIPTION, description, -1);
  gtk_box_append (GTK_BOX (slot), child);
  return slot;
}

/* ------------------------------------------------------------------ */
/* Standard components, the choice list among them                     */
/* ------------------------------------------------------------------ */

/**
 * akc_chat_view_replace_component:
 * @self: a #AkcChatView
 * @component_key: the key of a standard component, such as `choice-list`
 * @factory: (scope notified) (closure user_data) (destroy destroy): builds
 *   the host's widget for an instance
 * @user_data: the data given to @factory
 * @destroy: (nullable): frees @user_data when the factory is replaced,
 *   restored or the view is finalized
 *
 * Replaces the renderer of a standard component (application.md §12.10:
 * the choice list and every other standard renderer): an instance of
 * @component_key is drawn by the widget @factory builds instead of the
 * view's own.
 *
 * The accessibility contract stays the view's: the host's widget is shown
 * inside a box with the role of the widget it replaces (a group for the
 * choice list, an alert for an error notice, a status for a tool call …),
 * named as that widget is (the choice list's prompt, the notice's title
 * …) and described by the component's fallback text; the box is the
 * [method@ComponentView.get_content], so input ownership (§12.4: only the
 * active instance takes the keyboard) and the disabled state of a
 * resolved instance apply to it as to the view's own widget.
 *
 * What the person does goes through [method@ComponentView.emit_event]:
 * for a choice list, the `select` event with the choice's id as value
 * (its action proposed or its submission made as §12.7 says), any
 * declared event otherwise. Either resolves the instance once.
 *
 * A factory that returns %NULL leaves that instance to the view's own
 * widget. Instances already shown keep their widget; replace renderers
 * before setting the view's source.
 *
 * Since: 0.1
 */
void
akc_chat_view_replace_component (AkcChatView             *self,
                                 const char              *component_key,
                                 AkcComponentFactoryFunc  factory,
                                 gpointer                 user_data,
                                 GDestroyNotify           destroy)
{
  g_return_if_fail (AKC_IS_CHAT_VIEW (self));
  g_return_if_fail (component_key != NULL);
  g_return_if_fail (akc_component_definition_get_standard (component_key) != NULL);
  g_return_if_fail (factory != NULL);

  g_hash_table_replace (factory_table (self, STANDARD_FACTORIES, TRUE), g_strdup (component_key),
                        factory_new (G_CALLBACK (factory), user_data, destroy));
}

/**
 * akc_chat_view_restore_component:
 * @self: a #AkcChatView
 * @component_key: the key of a standard component
 *
 * Gives the view its own renderer of @component_key back (see
 * [method@ChatView.replace_component]) for the instances shown next.
 *
 * Returns: whether the renderer was replaced
 *
 * Since: 0.1
 */
gboolean
akc_chat_view_restore_component (AkcChatView *self,
                                 const char  *component_key)
{
  g_return_val_if_fail (AKC_IS_CHAT_VIEW (self), FALSE);
  g_return_val_if_fail (component_key != NULL, FALSE);

  return factory_table_remove (self, STANDARD_FACTORIES, component_key);
}

/* The prop each standard widget is named by (application.md §12.6). */
static const struct {
  const char *key;
  const char *name_prop;
} standard_names[] = {
  { "button-group", "label" },
  { "choice-list", "prompt" },
  { "form", "title" },
  { "confirmation", "title" },
  { "progress", "label" },
  { "source-list", "label" },
  { "link-card", "title" },
  { "error-notice", "title" },
  { "tool-call", "name" },
  { "approval-request", "title" },
  { "table", "caption" },
  { "file-attachment", "name" },
};

static const char *
standard_name (const char   *key,
               AkcJsonValue *props)
{
  for (guint i = 0; i < G_N_ELEMENTS (standard_names); i++)
    if (g_str_equal (standard_names[i].key, key))
      {
        AkcJsonValue *value = props != NULL ? akc_json_value_get_member (props, standard_names[i].name_prop) : NULL;

        if (value != NULL && akc_json_value_get_kind (value) == AKC_JSON_KIND_STRING)
          return akc_json_value_get_string (value, NULL);
        return g_str_equal (key, "form") ? _("Form") : NULL;
      }
  return NULL;
}

/* The host's widget for @view, a standard component, inside a box with
 * the role and name of @standard (the view's own widget), or NULL for the
 * view's own. Returns a full reference, never floating. */
GtkWidget *
akc_chat_view_slots_create_standard (AkcChatView      *self,
                                     AkcComponentView *view,
                                     GtkWidget        *standard)
{
  AkcResolvedComponent *component = akc_component_view_get_resolved_component (view);
  GHashTable *table = factory_table (self, STANDARD_FACTORIES, FALSE);
  g_autoptr(GtkWidget) widget = NULL;
  const char *key;
  Factory *entry;
  GtkWidget *slot;

  if (table == NULL || component == NULL || !akc_resolved_component_is_standard (component))
    return NULL;

  key = akc_resolved_component_get_component_key (component);
  entry = g_hash_table_lookup (table, key);
  if (entry == NULL)
    return NULL;

  widget = take_widget (((AkcComponentFactoryFunc) entry->func) (view, component, entry->data), "component");
  if (widget == NULL)
    return NULL;

  slot = slot_box (standard != NULL ? gtk_accessible_get_accessible_role (GTK_ACCESSIBLE (standard))
                                    : GTK_ACCESSIBLE_ROLE_GROUP,
                   "component-slot", standard_name (key, akc_resolved_component_get_props (component)),
                   NULL, widget);
  return g_object_ref_sink (slot);
}

/* ------------------------------------------------------------------ */
/* The confirmation of a tool call                                     */
/* ------------------------------------------------------------------ */

#define CONFIRMATION_SLOT "akc-chat-view-confirmation-factory"

/**
 * akc_chat_view_set_confirmation_factory:
 * @self: a #AkcChatView
 * @factory: (nullable) (scope notified) (closure user_data) (destroy destroy):
 *   builds the confirmation of a tool call, or %NULL for the view's own
 * @user_data: the data given to @factory
 * @destroy: (nullable): frees @user_data when the factory is replaced or
 *   the view is finalized
 *
 * Replaces the confirmation shown for a tool call that waits for the
 * person's approval (application.md §12.8, §12.10). The host's widget
 * approves and denies with the view's actions, `chat.approve` and
 * `chat.deny` with the call's id (`gtk_widget_activate_action (widget,
 * "chat.approve", "s", id)`), which go through the confirmation
 * coordinator as the view's own buttons do.
 *
 * The accessibility contract stays the view's: the widget is shown inside
 * a group named as the view's own confirmation is (the tool's title, or
 * "Allow the assistant to use “…”?") and described by the tool's
 * description; it is a stop of the transcript's arrow keys from which
 * Tab reaches the host's controls, and the confirmation of a call the
 * person just chose takes the keyboard.
 *
 * The factory is called each time a confirmation is shown; one that
 * returns %NULL gets the view's own.
 *
 * Since: 0.1
 */
void
akc_chat_view_set_confirmation_factory (AkcChatView            *self,
                                        AkcToolCallFactoryFunc  factory,
                                        gpointer                user_data,
                                        GDestroyNotify          destroy)
{
  g_return_if_fail (AKC_IS_CHAT_VIEW (self));

  set_factory (self, CONFIRMATION_SLOT, G_CALLBACK (factory), user_data, destroy);
}

/* The host's confirmation of @call in its group, or NULL for the view's
 * own. Returns a floating widget, as the rows the list shows are. */
GtkWidget *
akc_chat_view_slots_build_confirmation (AkcChatView *self,
                                        AkcToolCall *call,
                                        AkcTool     *tool)
{
  Factory *entry = get_factory (self, CONFIRMATION_SLOT);
  g_autoptr(GtkWidget) widget = NULL;
  g_autofree char *heading = NULL;
  const char *description = tool != NULL ? akc_tool_get_description (tool) : NULL;

  if (entry == NULL)
    return NULL;

  widget = take_widget (((AkcToolCallFactoryFunc) entry->func) (self, call, entry->data), "confirmation");
  if (widget == NULL)
    return NULL;

  if (tool != NULL && akc_tool_get_title (tool) != NULL)
    heading = g_strdup (akc_tool_get_title (tool));
  else
    {
      g_autofree char *name = akc_tool_confirmation_humanize (akc_tool_call_get_name (call));

      /* Translators: the name of a tool call that waits for the person's
       * approval, as the view's own confirmation is named */
      heading = g_strdup_printf (_("Allow the assistant to use “%s”?"), name);
    }

  return slot_box (GTK_ACCESSIBLE_ROLE_GROUP, "confirmation-slot", heading,
                   description != NULL ? description : _("Nothing happens until you approve it."), widget);
}

/* ------------------------------------------------------------------ */
/* The message row                                                     */
/* ------------------------------------------------------------------ */

#define MESSAGE_SLOT "akc-chat-view-message-factory"

/**
 * akc_chat_view_set_message_factory:
 * @self: a #AkcChatView
 * @factory: (nullable) (scope notified) (closure user_data) (destroy destroy):
 *   builds the row of a message, or %NULL for the view's own
 * @user_data: the data given to @factory
 * @destroy: (nullable): frees @user_data when the factory is replaced or
 *   the view is finalized
 *
 * Replaces the row a message is shown in (application.md §12.10). The
 * factory is called each time a row of the transcript shows a message
 * (rows are recycled, and a message that changes is shown again); it may
 * return %NULL to leave a message to the view's own row. A message that
 * streams notifies its changes: the host's widget follows them itself.
 *
 * The accessibility contract stays the view's: the widget is shown
 * inside a group named after the message's author ("You", "Assistant" …),
 * as the view's own row is, which is a stop of the transcript's arrow
 * keys (↑/↓ move between messages, Tab enters the widget's own
 * controls). What the row of a message does beyond showing it (its
 * components, copy and edit buttons) is the host's to draw.
 *
 * Since: 0.1
 */
void
akc_chat_view_set_message_factory (AkcChatView           *self,
                                   AkcMessageFactoryFunc  factory,
                                   gpointer               user_data,
                                   GDestroyNotify         destroy)
{
  g_return_if_fail (AKC_IS_CHAT_VIEW (self));

  set_factory (self, MESSAGE_SLOT, G_CALLBACK (factory), user_data, destroy);
}

/* The host's row of @message in its group, or NULL for the view's own.
 * Returns a floating widget. */
GtkWidget *
akc_chat_view_slots_build_message (AkcChatView *self,
                                   AkcMessage  *message)
{
  static const char * const role_classes[] = { "system", "user", "assistant", "tool" };
  Factory *entry = get_factory (self, MESSAGE_SLOT);
  g_autoptr(GtkWidget) widget = NULL;
  AkcMessageRole role = akc_message_get_role (message);
  GtkWidget *slot;

  if (entry == NULL)
    return NULL;

  widget = take_widget (((AkcMessageFactoryFunc) entry->func) (self, message, entry->data), "message");
  if (widget == NULL)
    return NULL;

  slot = slot_box (GTK_ACCESSIBLE_ROLE_GROUP, "message-slot", akc_message_role_name (role), NULL, widget);
  if ((guint) role < G_N_ELEMENTS (role_classes))
    gtk_widget_add_css_class (slot, role_classes[role]);
  gtk_widget_set_focusable (slot, TRUE);
  return slot;
}

/* ------------------------------------------------------------------ */
/* The composer                                                        */
/* ------------------------------------------------------------------ */

typedef struct {
  AkcChatView        *view;       /* weak */
  GtkWidget          *composer;   /* weak */
  GtkEventController *keys;
  GtkEventController *click;
  gulong              owned_id;
} ComposerBinding;

#define COMPOSER_SLOT "akc-chat-view-composer"

static void
composer_binding_free (ComposerBinding *binding)
{
  if (binding->composer != NULL)
    {
      gtk_widget_remove_controller (binding->composer, binding->keys);
      gtk_widget_remove_controller (binding->composer, GTK_EVENT_CONTROLLER (binding->click));
    }
  g_clear_weak_pointer (&binding->composer);
  if (binding->view != NULL)
    g_clear_signal_handler (&binding->owned_id, binding->view);
  g_clear_weak_pointer (&binding->view);
  g_free (binding);
}

static void
set_aside (ComposerBinding *binding)
{
  if (binding->view != NULL && akc_chat_view_get_input_owned (binding->view))
    gtk_widget_activate_action (GTK_WIDGET (binding->view), "chat.set-aside", NULL);
}

static void
on_composer_pressed (GtkGestureClick *gesture,
                     int              n_press,
                     double           x,
                     double           y,
                     ComposerBinding *binding)
{
  set_aside (binding);
}

static gboolean
on_composer_key_pressed (GtkEventControllerKey *controller,
                         guint                  keyval,
                         guint                  keycode,
                         GdkModifierType        state,
                         ComposerBinding       *binding)
{
  /* A key that writes, not one that moves the focus on (Tab) or is a
   * shortcut. */
  if ((state & (GDK_CONTROL_MASK | GDK_ALT_MASK)) == 0 &&
      (gdk_keyval_to_unicode (keyval) >= 0x20 || keyval == GDK_KEY_BackSpace || keyval == GDK_KEY_Delete))
    set_aside (binding);

  return GDK_EVENT_PROPAGATE;
}

static void
on_input_owned (AkcChatView     *view,
                GParamSpec      *pspec,
                ComposerBinding *binding)
{
  GtkRoot *root;
  GtkWidget *focus;

  if (binding->composer == NULL || akc_chat_view_get_input_owned (view))
    return;

  /* No component owns input any more: the keyboard goes back to the
   * composer, unless the person took it elsewhere. */
  root = gtk_widget_get_root (GTK_WIDGET (view));
  focus = root != NULL ? gtk_root_get_focus (root) : NULL;
  if (focus == NULL || focus == GTK_WIDGET (view) || gtk_widget_is_ancestor (focus, GTK_WIDGET (view)))
    gtk_widget_grab_focus (binding->composer);
}

/**
 * akc_chat_view_set_composer:
 * @self: a #AkcChatView
 * @composer: (nullable): the widget the person writes into, such as an
 *   [class@Composer] or the host's own, or %NULL for none
 *
 * Tells the view which widget is its composer (application.md §12.10,
 * the input slot), so that the keyboard ownership rule of §12.4 holds
 * whatever the host writes with: while a component owns input
 * ([property@ChatView:input-owned]) the composer stays enabled, and a key
 * that writes into it or a click on it sets the component aside
 * (`chat.set-aside`); when no component owns input any more, the
 * composer takes the keyboard back (unless the focus is outside the
 * transcript). The view does not keep @composer alive, nor show it: the
 * host places it.
 *
 * Since: 0.1
 */
void
akc_chat_view_set_composer (AkcChatView *self,
                            GtkWidget   *composer)
{
  ComposerBinding *binding = NULL;

  g_return_if_fail (AKC_IS_CHAT_VIEW (self));
  g_return_if_fail (composer == NULL || GTK_IS_WIDGET (composer));

  if (composer != NULL)
    {
      binding = g_new0 (ComposerBinding, 1);
      g_set_weak_pointer (&binding->view, self);
      g_set_weak_pointer (&binding->composer, composer);

      /* Before the composer's own widgets see the key or the click. */
      binding->keys = gtk_event_controller_key_new ();
      gtk_event_controller_set_propagation_phase (binding->keys, GTK_PHASE_CAPTURE);
      g_signal_connect (binding->keys, "key-pressed", G_CALLBACK (on_composer_key_pressed), binding);
      gtk_widget_add_controller (composer, binding->keys);
      binding->click = GTK_EVENT_CONTROLLER (gtk_gesture_click_new ());
      gtk_event_controller_set_propagation_phase (binding->click, GTK_PHASE_CAPTURE);
      g_signal_connect (binding->click, "pressed", G_CALLBACK (on_composer_pressed), binding);
      gtk_widget_add_controller (composer, binding->click);

      binding->owned_id = g_signal_connect (self, "notify::input-owned", G_CALLBACK (on_input_owned), binding);
    }
  g_object_set_qdata_full (G_OBJECT (self), g_quark_from_static_string (COMPOSER_SLOT), binding,
                           (GDestroyNotify) composer_binding_free);
}

/**
 * akc_chat_view_get_composer:
 * @self: a #AkcChatView
 *
 * Gets the composer the view keeps the input ownership rule for.
 *
 * Returns: (transfer none) (nullable): the composer set with
 *   [method@ChatView.set_composer], while it lives
 *
 * Since: 0.1
 */
GtkWidget *
akc_chat_view_get_composer (AkcChatView *self)
{
  ComposerBinding *binding;

  g_return_val_if_fail (AKC_IS_CHAT_VIEW (self), NULL);

  binding = g_object_get_qdata (G_OBJECT (self), g_quark_try_string (COMPOSER_SLOT));
  return binding != NULL ? binding->composer : NULL;
}
