/* akc-definition.h: a chat application's definition
 *
 * SPDX-License-Identifier: MIT
 */

#pragma once

#if !defined(__AKC_INSIDE__) && !defined(AKC_COMPILATION)
#error "Only <akc.h> can be included directly."
#endif

#include <gio/gio.h>

#include "akc-adapter.h"
#include "akc-capability-policy.h"
#include "akc-chat-memory.h"
#include "akc-choice-reservations.h"
#include "akc-choice-submission.h"
#include "akc-component-manifest.h"
#include "akc-conversation.h"
#include "akc-json.h"
#include "akc-tool.h"
#include "akc-version-macros.h"

G_BEGIN_DECLS

#define AKC_TYPE_DEFINITION (akc_definition_get_type ())

AKC_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (AkcDefinition, akc_definition, AKC, DEFINITION, GObject)

AKC_AVAILABLE_IN_ALL
AkcDefinition        *akc_definition_new                    (const char              *id,
                                                             AkcAdapter              *adapter);
AKC_AVAILABLE_IN_ALL
const char           *akc_definition_get_id                 (AkcDefinition           *self);
AKC_AVAILABLE_IN_ALL
gint64                akc_definition_get_revision           (AkcDefinition           *self);
AKC_AVAILABLE_IN_ALL
void                  akc_definition_set_revision           (AkcDefinition           *self,
                                                             gint64                   revision);
AKC_AVAILABLE_IN_ALL
AkcAdapter           *akc_definition_get_adapter            (AkcDefinition           *self);
AKC_AVAILABLE_IN_ALL
void                  akc_definition_set_adapter            (AkcDefinition           *self,
                                                             AkcAdapter              *adapter);
AKC_AVAILABLE_IN_ALL
AkcConversation      *akc_definition_get_conversation       (AkcDefinition           *self);
AKC_AVAILABLE_IN_ALL
void                  akc_definition_set_conversation       (AkcDefinition           *self,
                                                             AkcConversation         *conversation);
AKC_AVAILABLE_IN_ALL
AkcComponentManifest *akc_definition_get_manifest           (AkcDefinition           *self);
AKC_AVAILABLE_IN_ALL
void                  akc_definition_set_manifest           (AkcDefinition           *self,
                                                             AkcComponentManifest    *manifest);
AKC_AVAILABLE_IN_ALL
const char           *akc_definition_get_system_prompt      (AkcDefinition           *self);
AKC_AVAILABLE_IN_ALL
void                  akc_definition_set_system_prompt      (AkcDefinition           *self,
                                                             const char              *system_prompt);
AKC_AVAILABLE_IN_ALL
void                  akc_definition_add_tool               (AkcDefinition           *self,
                                                             AkcTool                 *tool);
AKC_AVAILABLE_IN_ALL
GListModel           *akc_definition_get_tools              (AkcDefinition           *self);
AKC_AVAILABLE_IN_ALL
void                  akc_definition_set_choice_submission  (AkcDefinition           *self,
                                                             AkcChoiceSubmissionFunc  func,
                                                             gpointer                 user_data,
                                                             GDestroyNotify           destroy);
AKC_AVAILABLE_IN_ALL
void                  akc_definition_set_choice_reservations (AkcDefinition         *self,
                                                              AkcChoiceReservations *reservations);
AKC_AVAILABLE_IN_ALL
gboolean              akc_definition_has_choice_submission  (AkcDefinition           *self);
AKC_AVAILABLE_IN_ALL
AkcChoiceSubmission  *akc_definition_submit_choice          (AkcDefinition           *self,
                                                             AkcJsonValue            *frame,
                                                             const char              *choice_id,
                                                             const char              *session_id,
                                                             GError                 **error);

AKC_AVAILABLE_IN_ALL
gboolean              akc_definition_set_policy             (AkcDefinition           *self,
                                                             AkcJsonValue            *requirements,
                                                             AkcPolicyContextFunc     context,
                                                             gpointer                 context_data,
                                                             GDestroyNotify           context_destroy,
                                                             GError                 **error);
AKC_AVAILABLE_IN_ALL
AkcCapabilityPolicy  *akc_definition_new_policy             (AkcDefinition           *self,
                                                             const char              *session_id);

AKC_AVAILABLE_IN_ALL
AkcChatMemory        *akc_definition_get_memory             (AkcDefinition           *self);
AKC_AVAILABLE_IN_ALL
void                  akc_definition_set_memory             (AkcDefinition           *self,
                                                             AkcChatMemory           *memory);

G_END_DECLS
