/* akc-chat-view-slots-private.h: the host's widgets, for the views that
 * show them
 *
 * SPDX-License-Identifier: MIT
 *
 * Internal to libakc-gtk (not installed, not scanned).
 */

#pragma once

#include "akc-chat-view.h"
#include "akc-component-view.h"

G_BEGIN_DECLS

GtkWidget *akc_chat_view_slots_create_component (AkcChatView      *self,
                                                 AkcComponentView *view);
GtkWidget *akc_chat_view_slots_build_thinking   (AkcChatView      *self);
GtkWidget *akc_chat_view_slots_create_standard  (AkcChatView      *self,
                                                 AkcComponentView *view,
                                                 GtkWidget        *standard);
GtkWidget *akc_chat_view_slots_build_confirmation (AkcChatView    *self,
                                                   AkcToolCall    *call,
                                                   AkcTool        *tool);
GtkWidget *akc_chat_view_slots_build_message    (AkcChatView      *self,
                                                 AkcMessage       *message);

G_END_DECLS
