/* akc-conversation-info.h: what a history knows about one conversation
 *
 * SPDX-License-Identifier: MIT
 */

#pragma once

#if !defined(__AKC_INSIDE__) && !defined(AKC_COMPILATION)
#error "Only <akc.h> can be included directly."
#endif

#include <glib-object.h>

#include "akc-usage.h"
#include "akc-version-macros.h"

G_BEGIN_DECLS

#define AKC_TYPE_CONVERSATION_INFO (akc_conversation_info_get_type ())

AKC_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (AkcConversationInfo, akc_conversation_info, AKC, CONVERSATION_INFO, GObject)

AKC_AVAILABLE_IN_ALL
AkcConversationInfo *akc_conversation_info_new            (const char          *id,
                                                           const char          *title,
                                                           const AkcUsage      *usage,
                                                           GDateTime           *created_at,
                                                           GDateTime           *updated_at,
                                                           guint                n_messages);
AKC_AVAILABLE_IN_ALL
AkcConversationInfo *akc_conversation_info_new_full       (const char          *id,
                                                           const char          *assistant_id,
                                                           const char          *title,
                                                           const AkcUsage      *usage,
                                                           GDateTime           *created_at,
                                                           GDateTime           *updated_at,
                                                           guint                n_messages,
                                                           gboolean             pinned);
AKC_AVAILABLE_IN_ALL
const char          *akc_conversation_info_get_id         (AkcConversationInfo *self);
AKC_AVAILABLE_IN_ALL
const char          *akc_conversation_info_get_assistant_id (AkcConversationInfo *self);
AKC_AVAILABLE_IN_ALL
gboolean             akc_conversation_info_get_pinned     (AkcConversationInfo *self);
AKC_AVAILABLE_IN_ALL
const char          *akc_conversation_info_get_title      (AkcConversationInfo *self);
AKC_AVAILABLE_IN_ALL
const AkcUsage      *akc_conversation_info_get_usage      (AkcConversationInfo *self);
AKC_AVAILABLE_IN_ALL
GDateTime           *akc_conversation_info_get_created_at (AkcConversationInfo *self);
AKC_AVAILABLE_IN_ALL
GDateTime           *akc_conversation_info_get_updated_at (AkcConversationInfo *self);
AKC_AVAILABLE_IN_ALL
guint                akc_conversation_info_get_n_messages (AkcConversationInfo *self);
AKC_AVAILABLE_IN_ALL
const char          *akc_conversation_info_get_provider_kind (AkcConversationInfo *self);
AKC_AVAILABLE_IN_ALL
const char          *akc_conversation_info_get_provider_url (AkcConversationInfo *self);
AKC_AVAILABLE_IN_ALL
const char          *akc_conversation_info_get_model      (AkcConversationInfo *self);

G_END_DECLS
