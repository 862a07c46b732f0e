/* akc-conversation-list.h: the stored conversations as a list model
 *
 * SPDX-License-Identifier: MIT
 */

#pragma once

#if !defined(__AKC_INSIDE__) && !defined(AKC_COMPILATION)
#error "Only <akc.h> can be included directly."
#endif

#include <gio/gio.h>

#include "akc-chat-memory.h"
#include "akc-conversation-info.h"
#include "akc-version-macros.h"

G_BEGIN_DECLS

/**
 * AKC_CONVERSATION_LIST_DEFAULT_PAGE_SIZE:
 *
 * The default of [property@ConversationList:page-size].
 *
 * Since: 0.1
 */
#define AKC_CONVERSATION_LIST_DEFAULT_PAGE_SIZE 64

#define AKC_TYPE_CONVERSATION_LIST (akc_conversation_list_get_type ())

AKC_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (AkcConversationList, akc_conversation_list, AKC, CONVERSATION_LIST, GObject)

AKC_AVAILABLE_IN_ALL
AkcConversationList *akc_conversation_list_new           (AkcChatMemory       *memory);
AKC_AVAILABLE_IN_ALL
AkcChatMemory       *akc_conversation_list_get_memory    (AkcConversationList *self);
AKC_AVAILABLE_IN_ALL
guint                akc_conversation_list_get_page_size (AkcConversationList *self);
AKC_AVAILABLE_IN_ALL
void                 akc_conversation_list_set_page_size (AkcConversationList *self,
                                                          guint                page_size);
AKC_AVAILABLE_IN_ALL
gboolean             akc_conversation_list_get_loading   (AkcConversationList *self);
AKC_AVAILABLE_IN_ALL
gboolean             akc_conversation_list_get_complete  (AkcConversationList *self);
AKC_AVAILABLE_IN_ALL
const GError        *akc_conversation_list_get_error     (AkcConversationList *self);
AKC_AVAILABLE_IN_ALL
AkcConversationInfo *akc_conversation_list_lookup        (AkcConversationList *self,
                                                          const char          *id,
                                                          guint               *position);
AKC_AVAILABLE_IN_ALL
AkcConversationInfo *akc_conversation_list_peek_item     (AkcConversationList *self,
                                                          guint                position);
AKC_AVAILABLE_IN_ALL
void                 akc_conversation_list_load_more     (AkcConversationList *self);
AKC_AVAILABLE_IN_ALL
void                 akc_conversation_list_refresh       (AkcConversationList *self);

G_END_DECLS
