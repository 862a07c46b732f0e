/* akc-sidebar-model.h: the conversations under their day headings
 *
 * SPDX-License-Identifier: MIT
 */

#pragma once

#include <gtk/gtk.h>

#include "akc-conversation-item.h"

G_BEGIN_DECLS

#define AKC_TYPE_SIDEBAR_MODEL (akc_sidebar_model_get_type ())

G_DECLARE_FINAL_TYPE (AkcSidebarModel, akc_sidebar_model, AKC, SIDEBAR_MODEL, GObject)

AkcSidebarModel *akc_sidebar_model_new          (GListModel *conversations);
char            *akc_sidebar_model_group_for    (AkcConversationItem *item,
                                                 GDateTime           *now);
char            *akc_sidebar_model_relative_time (GDateTime          *time,
                                                 GDateTime           *now);

G_END_DECLS
