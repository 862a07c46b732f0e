/* akc-chat-view-private.h: what the tests reach in an AkcChatView
 *
 * SPDX-License-Identifier: MIT
 *
 * Internal to libakc-gtk (not installed, not scanned).
 */

#pragma once

#include "akc-chat-view.h"
#include "akc-message-row.h"

G_BEGIN_DECLS

GtkListView       *akc_chat_view_get_list_view   (AkcChatView *self);
GtkWidget         *akc_chat_view_get_jump_button (AkcChatView *self);
guint              akc_chat_view_get_n_binds     (AkcChatView *self);
AkcMessageRow     *akc_chat_view_get_row         (AkcChatView *self,
                                                  AkcMessage  *message);
AkcInputOwnership *akc_chat_view_get_ownership   (AkcChatView *self);
GtkCssProvider    *akc_chat_view_get_theme_provider (AkcChatView *self);
const char        *akc_chat_view_get_theme_class (AkcChatView *self);

G_END_DECLS
