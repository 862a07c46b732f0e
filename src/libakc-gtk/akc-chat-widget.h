/* akc-chat-widget.h: a transcript and a composer, wired together
 *
 * SPDX-License-Identifier: MIT
 */

#pragma once

#if !defined(__AKC_GTK_INSIDE__) && !defined(AKC_GTK_COMPILATION)
#error "Only <akc-gtk.h> can be included directly."
#endif

#include <gtk/gtk.h>
#include <akc.h>

#include "akc-chat-view.h"
#include "akc-composer.h"
#include "akc-gtk-version-macros.h"

G_BEGIN_DECLS

#define AKC_TYPE_CHAT_WIDGET (akc_chat_widget_get_type ())

AKC_GTK_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (AkcChatWidget, akc_chat_widget, AKC, CHAT_WIDGET, GtkWidget)

AKC_GTK_AVAILABLE_IN_ALL
GtkWidget            *akc_chat_widget_new          (AkcChatSource        *source);
AKC_GTK_AVAILABLE_IN_ALL
AkcChatSource        *akc_chat_widget_get_source   (AkcChatWidget        *self);
AKC_GTK_AVAILABLE_IN_ALL
void                  akc_chat_widget_set_source   (AkcChatWidget        *self,
                                                    AkcChatSource        *source);
AKC_GTK_AVAILABLE_IN_ALL
AkcComponentManifest *akc_chat_widget_get_manifest (AkcChatWidget        *self);
AKC_GTK_AVAILABLE_IN_ALL
void                  akc_chat_widget_set_manifest (AkcChatWidget        *self,
                                                    AkcComponentManifest *manifest);
AKC_GTK_AVAILABLE_IN_ALL
AkcChatView          *akc_chat_widget_get_view     (AkcChatWidget        *self);
AKC_GTK_AVAILABLE_IN_ALL
AkcComposer          *akc_chat_widget_get_composer (AkcChatWidget        *self);

G_END_DECLS
