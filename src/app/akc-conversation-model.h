/* akc-conversation-model.h: the application's conversations, read in pages
 *
 * SPDX-License-Identifier: MIT
 */

#pragma once

#include <gio/gio.h>
#include <akc.h>

#include "akc-conversation-item.h"

G_BEGIN_DECLS

/**
 * AkcConversationModelItemFunc:
 * @info: a conversation of the history
 * @user_data: the data given with the function
 *
 * Makes the item of a stored conversation.
 *
 * Returns: (transfer full) (nullable): the item, or %NULL when the
 *   conversation is not listed (its assistant is unknown)
 */
typedef AkcConversationItem *(*AkcConversationModelItemFunc) (AkcConversationInfo *info,
                                                              gpointer             user_data);

#define AKC_TYPE_CONVERSATION_MODEL (akc_conversation_model_get_type ())

G_DECLARE_FINAL_TYPE (AkcConversationModel, akc_conversation_model, AKC, CONVERSATION_MODEL, GObject)

AkcConversationModel *akc_conversation_model_new          (AkcConversationModelItemFunc func,
                                                           gpointer                     user_data);
void                  akc_conversation_model_set_list     (AkcConversationModel *self,
                                                           AkcConversationList  *list);
AkcConversationList  *akc_conversation_model_get_list     (AkcConversationModel *self);
gboolean              akc_conversation_model_get_complete (AkcConversationModel *self);
void                  akc_conversation_model_load_more    (AkcConversationModel *self);
void                  akc_conversation_model_add          (AkcConversationModel *self,
                                                           AkcConversationItem  *item);
AkcConversationItem  *akc_conversation_model_take_info    (AkcConversationModel *self,
                                                           AkcConversationInfo  *info);
AkcConversationItem  *akc_conversation_model_lookup       (AkcConversationModel *self,
                                                           const char           *id);
gboolean              akc_conversation_model_find         (AkcConversationModel *self,
                                                           AkcConversationItem  *item,
                                                           guint                *position);
AkcConversationItem  *akc_conversation_model_peek_item    (AkcConversationModel *self,
                                                           guint                 position);
void                  akc_conversation_model_hide         (AkcConversationModel *self,
                                                           AkcConversationItem  *item);
void                  akc_conversation_model_unhide       (AkcConversationModel *self,
                                                           AkcConversationItem  *item);
void                  akc_conversation_model_forget       (AkcConversationModel *self,
                                                           AkcConversationItem  *item);
void                  akc_conversation_model_resort       (AkcConversationModel *self);
void                  akc_conversation_model_clear        (AkcConversationModel *self);

G_END_DECLS
