/* akc-sidebar-model.h: the conversations under their day headings
 *
 * SPDX-License-Identifier: MIT
 */

#pragma once

#include <gtk/gtk.h>

#include "akc-conversation-item.h"
#include "akc-conversation-model.h"

G_BEGIN_DECLS

#define AKC_TYPE_SIDEBAR_MODEL (akc_sidebar_model_get_type ())

G_DECLARE_FINAL_TYPE (AkcSidebarModel, akc_sidebar_model, AKC, SIDEBAR_MODEL, GObject)

AkcSidebarModel *akc_sidebar_model_new          (GListModel *conversations);
void             akc_sidebar_model_set_conversations (AkcSidebarModel *self,
                                                 GListModel      *conversations);
GListModel      *akc_sidebar_model_get_conversations (AkcSidebarModel *self);
gboolean         akc_sidebar_model_find         (AkcSidebarModel     *self,
                                                 AkcConversationItem *item,
                                                 guint               *position);
GObject         *akc_sidebar_model_peek_item    (AkcSidebarModel *self,
                                                 guint            position);
char            *akc_sidebar_model_group_for    (AkcConversationItem *item,
                                                 GDateTime           *now);
char            *akc_sidebar_model_relative_time (GDateTime          *time,
                                                 GDateTime           *now);

G_END_DECLS
