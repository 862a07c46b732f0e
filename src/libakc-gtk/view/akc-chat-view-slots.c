/* akc-chat-view-slots.c: the widgets a host puts into an AkcChatView
 * (application.md §12.10, composition slots)
 *
 * SPDX-License-Identifier: MIT
 */

#include "config.h"

#include <glib/gi18n-lib.h>

#include "akc-chat-view-slots.h"
#include "akc-chat-view-slots-private.h"

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

static GHashTable *
factories (AkcChatView *self,
           gboolean     create)
{
  static GQuark quark;
  GHashTable *table;

  if (quark == 0)
    quark = g_quark_from_static_string ("akc-chat-view-component-factories");

  table = g_object_get_qdata (G_OBJECT (self), quark);
  if (table == NULL && create)
    {
      table = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, (GDestroyNotify) factory_free);
      g_object_set_qdata_full (G_OBJECT (self), quark, table, (GDestroyNotify) g_hash_table_unref);
    }
  return table;
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
  Factory *entry;

  g_return_if_fail (AKC_IS_CHAT_VIEW (self));
  g_return_if_fail (component_key != NULL && *component_key != '\0');
  g_return_if_fail (factory != NULL);
  g_return_if_fail (akc_component_definition_get_standard (component_key) == NULL);

  entry = g_new0 (Factory, 1);
  entry->func = G_CALLBACK (factory);
  entry->data = user_data;
  entry->destroy = destroy;
  g_hash_table_replace (factories (self, TRUE), g_strdup (component_key), entry);
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
  GHashTable *table;

  g_return_val_if_fail (AKC_IS_CHAT_VIEW (self), FALSE);
  g_return_val_if_fail (component_key != NULL, FALSE);

  table = factories (self, FALSE);
  return table != NULL && g_hash_table_remove (table, component_key);
}

/* The host's widget for @view, a custom component resolved against the
 * manifest, or %NULL for the fallback. Returns a full reference, never
 * floating. */
GtkWidget *
akc_chat_view_slots_create_component (AkcChatView      *self,
                                      AkcComponentView *view)
{
  AkcResolvedComponent *component = akc_component_view_get_resolved_component (view);
  GHashTable *table = factories (self, FALSE);
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

static GQuark
thinking_quark (void)
{
  static GQuark quark;

  if (quark == 0)
    quark = g_quark_from_static_string ("akc-chat-view-thinking-factory");
  return quark;
}

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
  Factory *entry = NULL;

  g_return_if_fail (AKC_IS_CHAT_VIEW (self));

  if (factory != NULL)
    {
      entry = g_new0 (Factory, 1);
      entry->func = G_CALLBACK (factory);
      entry->data = user_data;
      entry->destroy = destroy;
    }
  else if (destroy != NULL)
    {
      destroy (user_data);
    }
  g_object_set_qdata_full (G_OBJECT (self), thinking_quark (), entry, (GDestroyNotify) factory_free);
}

/* The host's thinking indicator inside the status the view's own has, or
 * %NULL for the view's own. Floating. */
GtkWidget *
akc_chat_view_slots_build_thinking (AkcChatView *self)
{
  Factory *entry = g_object_get_qdata (G_OBJECT (self), thinking_quark ());
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
