/* akc-chat-view.h
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

G_BEGIN_DECLS

#define AKC_TYPE_CHAT_VIEW (akc_chat_view_get_type ())

AKC_GTK_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (AkcChatView, akc_chat_view, AKC, CHAT_VIEW, GtkWidget)

AKC_GTK_AVAILABLE_IN_ALL
GtkWidget            *akc_chat_view_new              (void);
AKC_GTK_AVAILABLE_IN_ALL
AkcChatSource        *akc_chat_view_get_source       (AkcChatView          *self);
AKC_GTK_AVAILABLE_IN_ALL
void                  akc_chat_view_set_source       (AkcChatView          *self,
                                                      AkcChatSource        *source);
AKC_GTK_AVAILABLE_IN_ALL
AkcComponentManifest *akc_chat_view_get_manifest     (AkcChatView          *self);
AKC_GTK_AVAILABLE_IN_ALL
void                  akc_chat_view_set_manifest     (AkcChatView          *self,
                                                      AkcComponentManifest *manifest);
AKC_GTK_AVAILABLE_IN_ALL
AkcInteractionController *akc_chat_view_get_interaction (AkcChatView          *self);
AKC_GTK_AVAILABLE_IN_ALL
void                  akc_chat_view_set_interaction  (AkcChatView              *self,
                                                      AkcInteractionController *interaction);
AKC_GTK_AVAILABLE_IN_ALL
AkcActionConfirmation *akc_chat_view_get_confirmation (AkcChatView         *self);
AKC_GTK_AVAILABLE_IN_ALL
void                  akc_chat_view_set_confirmation (AkcChatView          *self,
                                                      AkcActionConfirmation *confirmation);
AKC_GTK_AVAILABLE_IN_ALL
gboolean              akc_chat_view_get_input_owned  (AkcChatView          *self);
AKC_GTK_AVAILABLE_IN_ALL
gboolean              akc_chat_view_get_at_bottom    (AkcChatView          *self);
AKC_GTK_AVAILABLE_IN_ALL
void                  akc_chat_view_scroll_to_bottom (AkcChatView          *self);
AKC_GTK_AVAILABLE_IN_ALL
gboolean              akc_chat_view_focus_newest     (AkcChatView          *self);
AKC_GTK_AVAILABLE_IN_ALL
gboolean              akc_chat_view_get_editing      (AkcChatView          *self);
AKC_GTK_AVAILABLE_IN_ALL
const char           *akc_chat_view_get_action_error (AkcChatView          *self);
AKC_GTK_AVAILABLE_IN_ALL
AkcTheme             *akc_chat_view_get_theme        (AkcChatView          *self);
AKC_GTK_AVAILABLE_IN_ALL
void                  akc_chat_view_set_theme        (AkcChatView          *self,
                                                      AkcTheme             *theme);

AKC_GTK_AVAILABLE_IN_ALL
void                  akc_chat_view_set_search_text  (AkcChatView          *self,
                                                      const char           *text);
AKC_GTK_AVAILABLE_IN_ALL
const char           *akc_chat_view_get_search_text  (AkcChatView          *self);
AKC_GTK_AVAILABLE_IN_ALL
guint                 akc_chat_view_get_n_matches    (AkcChatView          *self);
AKC_GTK_AVAILABLE_IN_ALL
guint                 akc_chat_view_get_match_position (AkcChatView        *self);
AKC_GTK_AVAILABLE_IN_ALL
gboolean              akc_chat_view_find_next        (AkcChatView          *self);
AKC_GTK_AVAILABLE_IN_ALL
gboolean              akc_chat_view_find_previous    (AkcChatView          *self);

G_END_DECLS
