/* akc-conversation-item.h: one conversation of the application
 *
 * SPDX-License-Identifier: MIT
 */

#pragma once

#include <akc.h>

#include "akc-assistant.h"

G_BEGIN_DECLS

#define AKC_TYPE_CONVERSATION_ITEM (akc_conversation_item_get_type ())

G_DECLARE_FINAL_TYPE (AkcConversationItem, akc_conversation_item, AKC, CONVERSATION_ITEM, GObject)

AkcConversationItem *akc_conversation_item_new             (const char          *id,
                                                            AkcAssistant        *assistant,
                                                            const char          *title,
                                                            GDateTime           *created_at,
                                                            GDateTime           *updated_at);
const char          *akc_conversation_item_get_id          (AkcConversationItem *self);
AkcAssistant        *akc_conversation_item_get_assistant   (AkcConversationItem *self);
const char          *akc_conversation_item_get_title       (AkcConversationItem *self);
const char          *akc_conversation_item_get_display_title (AkcConversationItem *self);
void                 akc_conversation_item_set_title       (AkcConversationItem *self,
                                                            const char          *title);
GDateTime           *akc_conversation_item_get_created_at  (AkcConversationItem *self);
GDateTime           *akc_conversation_item_get_updated_at  (AkcConversationItem *self);
void                 akc_conversation_item_set_updated_at  (AkcConversationItem *self,
                                                            GDateTime           *updated_at);
gboolean             akc_conversation_item_get_pinned      (AkcConversationItem *self);
void                 akc_conversation_item_set_pinned      (AkcConversationItem *self,
                                                            gboolean             pinned);
guint                akc_conversation_item_get_n_messages  (AkcConversationItem *self);
void                 akc_conversation_item_set_n_messages  (AkcConversationItem *self,
                                                            guint                n_messages);

const char          *akc_conversation_item_get_model       (AkcConversationItem *self);
const char          *akc_conversation_item_get_provider_kind (AkcConversationItem *self);
const char          *akc_conversation_item_get_provider_url (AkcConversationItem *self);
gboolean             akc_conversation_item_set_model       (AkcConversationItem *self,
                                                            const char          *provider_kind,
                                                            const char          *provider_url,
                                                            const char          *model);

AkcChatSource            *akc_conversation_item_get_source      (AkcConversationItem *self);
gpointer                  akc_conversation_item_get_demo        (AkcConversationItem *self);
AkcChatHistory           *akc_conversation_item_get_history     (AkcConversationItem *self);
AkcInteractionController *akc_conversation_item_get_interaction (AkcConversationItem *self);
void                      akc_conversation_item_open            (AkcConversationItem      *self,
                                                                 AkcChatSource            *source,
                                                                 GObject                  *owner,
                                                                 AkcInteractionController *interaction,
                                                                 AkcChatHistory           *history);
void                      akc_conversation_item_set_history     (AkcConversationItem      *self,
                                                                 AkcChatHistory           *history);

int                  akc_conversation_item_compare         (gconstpointer        a,
                                                            gconstpointer        b,
                                                            gpointer             user_data);

AkcTraceCapture          *akc_conversation_item_get_trace_capture (AkcConversationItem *self);
void                      akc_conversation_item_set_trace_capture (AkcConversationItem *self,
                                                                   AkcTraceCapture     *capture);

G_END_DECLS
