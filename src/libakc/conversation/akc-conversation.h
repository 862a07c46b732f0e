/* akc-conversation.h: the states, events and routes of a chat definition
 *
 * SPDX-License-Identifier: MIT
 */

#pragma once

#if !defined(__AKC_INSIDE__) && !defined(AKC_COMPILATION)
#error "Only <akc.h> can be included directly."
#endif

#include <gio/gio.h>

#include "akc-route.h"
#include "akc-version-macros.h"

G_BEGIN_DECLS

#define AKC_TYPE_CONVERSATION (akc_conversation_get_type ())

AKC_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (AkcConversation, akc_conversation, AKC, CONVERSATION, GObject)

AKC_AVAILABLE_IN_ALL
AkcConversation     *akc_conversation_new             (const char          *initial);
AKC_AVAILABLE_IN_ALL
const char          *akc_conversation_get_initial     (AkcConversation     *self);
AKC_AVAILABLE_IN_ALL
void                 akc_conversation_add_state       (AkcConversation     *self,
                                                       const char          *name,
                                                       const char * const  *actions);
AKC_AVAILABLE_IN_ALL
void                 akc_conversation_add_transition  (AkcConversation     *self,
                                                       const char          *state,
                                                       const char          *event,
                                                       const char          *target);
AKC_AVAILABLE_IN_ALL
void                 akc_conversation_add_route       (AkcConversation     *self,
                                                       AkcRoute            *route);
AKC_AVAILABLE_IN_ALL
char               **akc_conversation_dup_states      (AkcConversation     *self);
AKC_AVAILABLE_IN_ALL
char               **akc_conversation_dup_events      (AkcConversation     *self,
                                                       const char          *state);
AKC_AVAILABLE_IN_ALL
char               **akc_conversation_dup_actions     (AkcConversation     *self,
                                                       const char          *state);
AKC_AVAILABLE_IN_ALL
const char          *akc_conversation_get_target      (AkcConversation     *self,
                                                       const char          *state,
                                                       const char          *event);
AKC_AVAILABLE_IN_ALL
GListModel          *akc_conversation_get_routes      (AkcConversation     *self);
AKC_AVAILABLE_IN_ALL
AkcRoute            *akc_conversation_lookup_route    (AkcConversation     *self,
                                                       const char          *id);
AKC_AVAILABLE_IN_ALL
gboolean             akc_conversation_validate        (AkcConversation     *self,
                                                       GError             **error);

G_END_DECLS
