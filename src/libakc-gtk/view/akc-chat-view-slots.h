/* akc-chat-view-slots.h: what a host puts into an AkcChatView (§12.10)
 *
 * SPDX-License-Identifier: MIT
 */

#pragma once

#if !defined(__AKC_GTK_INSIDE__) && !defined(AKC_GTK_COMPILATION)
#error "Only <akc-gtk.h> can be included directly."
#endif

#include <gtk/gtk.h>
#include <akc.h>

#include "akc-gtk-version-macros.h"
#include "akc-chat-view.h"
#include "akc-component-view.h"

G_BEGIN_DECLS

/**
 * AkcComponentFactoryFunc:
 * @view: the component view the widget is shown in
 * @component: the frame, resolved against the manifest as a custom
 *   definition, or as the standard one the host replaces
 * @user_data: the data given with the function
 *
 * Builds the native widget of a custom component (application.md §12.10),
 * shown by @view in place of the semantic fallback
 * ([method@ChatView.register_component]), or of a standard component in
 * place of the view's own ([method@ChatView.replace_component]).
 *
 * The widget reports what the person does with
 * [method@ComponentView.emit_event]; it is made insensitive once the
 * instance is resolved. A custom component's widget gives itself its
 * accessible role and name; the view adds the definition fallback as its
 * description. A standard component's widget is put inside a box with the
 * role and name of the view's own.
 *
 * Returns: (transfer full) (nullable): the widget, or %NULL to show the
 *   semantic fallback (or the view's own standard widget)
 *
 * Since: 0.1
 */
typedef GtkWidget *(*AkcComponentFactoryFunc) (AkcComponentView     *view,
                                               AkcResolvedComponent *component,
                                               gpointer              user_data);

/**
 * AkcWidgetFactoryFunc:
 * @view: the chat view the widget is shown in
 * @user_data: the data given with the function
 *
 * Builds a widget a host puts in place of one of the view's own
 * (application.md §12.10), such as the thinking indicator.
 *
 * Returns: (transfer full) (nullable): the widget, or %NULL for the
 *   view's own
 *
 * Since: 0.1
 */
typedef GtkWidget *(*AkcWidgetFactoryFunc) (AkcChatView *view,
                                            gpointer     user_data);

AKC_GTK_AVAILABLE_IN_ALL
void      akc_chat_view_register_component   (AkcChatView             *self,
                                              const char              *component_key,
                                              AkcComponentFactoryFunc  factory,
                                              gpointer                 user_data,
                                              GDestroyNotify           destroy);
AKC_GTK_AVAILABLE_IN_ALL
gboolean  akc_chat_view_unregister_component (AkcChatView             *self,
                                              const char              *component_key);

AKC_GTK_AVAILABLE_IN_ALL
void      akc_chat_view_set_thinking_factory (AkcChatView             *self,
                                              AkcWidgetFactoryFunc     factory,
                                              gpointer                 user_data,
                                              GDestroyNotify           destroy);

/**
 * AkcToolCallFactoryFunc:
 * @view: the chat view
 * @call: the tool call that waits for the person's approval
 * @user_data: the data given with the factory
 *
 * Builds the host's confirmation of a tool call
 * ([method@ChatView.set_confirmation_factory]).
 *
 * Returns: (transfer full) (nullable): a widget, or %NULL for the view's own
 *
 * Since: 0.1
 */
typedef GtkWidget *(*AkcToolCallFactoryFunc) (AkcChatView *view,
                                              AkcToolCall *call,
                                              gpointer     user_data);

/**
 * AkcMessageFactoryFunc:
 * @view: the chat view
 * @message: the message a row of the transcript shows
 * @user_data: the data given with the factory
 *
 * Builds the host's row of a message
 * ([method@ChatView.set_message_factory]).
 *
 * Returns: (transfer full) (nullable): a widget, or %NULL for the view's own
 *
 * Since: 0.1
 */
typedef GtkWidget *(*AkcMessageFactoryFunc) (AkcChatView *view,
                                             AkcMessage  *message,
                                             gpointer     user_data);

AKC_GTK_AVAILABLE_IN_ALL
void      akc_chat_view_replace_component    (AkcChatView             *self,
                                              const char              *component_key,
                                              AkcComponentFactoryFunc  factory,
                                              gpointer                 user_data,
                                              GDestroyNotify           destroy);
AKC_GTK_AVAILABLE_IN_ALL
gboolean  akc_chat_view_restore_component    (AkcChatView             *self,
                                              const char              *component_key);
AKC_GTK_AVAILABLE_IN_ALL
void      akc_chat_view_set_confirmation_factory (AkcChatView            *self,
                                                  AkcToolCallFactoryFunc  factory,
                                                  gpointer                user_data,
                                                  GDestroyNotify          destroy);
AKC_GTK_AVAILABLE_IN_ALL
void      akc_chat_view_set_message_factory  (AkcChatView             *self,
                                              AkcMessageFactoryFunc    factory,
                                              gpointer                 user_data,
                                              GDestroyNotify           destroy);
AKC_GTK_AVAILABLE_IN_ALL
void      akc_chat_view_set_composer         (AkcChatView             *self,
                                              GtkWidget               *composer);
AKC_GTK_AVAILABLE_IN_ALL
GtkWidget *akc_chat_view_get_composer        (AkcChatView             *self);

G_END_DECLS
