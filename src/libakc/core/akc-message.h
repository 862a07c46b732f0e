/* akc-message.h
 *
 * SPDX-License-Identifier: MIT
 */

#pragma once

#if !defined(__AKC_INSIDE__) && !defined(AKC_COMPILATION)
#error "Only <akc.h> can be included directly."
#endif

#include <gio/gio.h>

#include "akc-lineage.h"
#include "akc-tool-call.h"
#include "akc-diagnostic.h"
#include "akc-usage.h"
#include "akc-attachment.h"
#include "akc-version-macros.h"

G_BEGIN_DECLS

/**
 * AkcMessageRole:
 * @AKC_MESSAGE_ROLE_SYSTEM: an instruction from the application
 * @AKC_MESSAGE_ROLE_USER: what the person typed
 * @AKC_MESSAGE_ROLE_ASSISTANT: what the agent answered
 * @AKC_MESSAGE_ROLE_TOOL: the result of a tool call
 *
 * Who wrote a message.
 *
 * Since: 0.1
 */
typedef enum
{
  AKC_MESSAGE_ROLE_SYSTEM,
  AKC_MESSAGE_ROLE_USER,
  AKC_MESSAGE_ROLE_ASSISTANT,
  AKC_MESSAGE_ROLE_TOOL,
} AkcMessageRole;

/**
 * AkcMessageStatus:
 * @AKC_MESSAGE_STATUS_PENDING: `pending`: created, no content has arrived yet
 * @AKC_MESSAGE_STATUS_STREAMING: `streaming`: content is arriving
 * @AKC_MESSAGE_STATUS_COMPLETE: `complete`: the message is final (a reply
 *   that was stopped is complete too; see [property@Message:stopped])
 * @AKC_MESSAGE_STATUS_ERROR: `error`: the turn that produced it failed
 *
 * Where a message is in its life: the message statuses of the wire
 * ([protocol §2.9.2](wire-formats.html#protocol-2)). The enum nicks are the wire strings.
 *
 * Since: 0.1
 */
typedef enum
{
  AKC_MESSAGE_STATUS_PENDING,
  AKC_MESSAGE_STATUS_STREAMING,
  AKC_MESSAGE_STATUS_COMPLETE,
  AKC_MESSAGE_STATUS_ERROR,
} AkcMessageStatus;

#define AKC_TYPE_MESSAGE (akc_message_get_type ())

AKC_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (AkcMessage, akc_message, AKC, MESSAGE, GObject)

AKC_AVAILABLE_IN_ALL
AkcMessage       *akc_message_new            (const char       *id,
                                              AkcMessageRole    role,
                                              const char       *content,
                                              AkcMessageStatus  status);
AKC_AVAILABLE_IN_ALL
const char       *akc_message_get_id         (AkcMessage       *self);
AKC_AVAILABLE_IN_ALL
AkcMessageRole    akc_message_get_role       (AkcMessage       *self);
AKC_AVAILABLE_IN_ALL
const char       *akc_message_get_content    (AkcMessage       *self);
AKC_AVAILABLE_IN_ALL
gsize             akc_message_get_content_length (AkcMessage   *self);
AKC_AVAILABLE_IN_ALL
void              akc_message_set_content    (AkcMessage       *self,
                                              const char       *content);
AKC_AVAILABLE_IN_ALL
void              akc_message_append_content (AkcMessage       *self,
                                              const char       *text,
                                              gssize            length);
AKC_AVAILABLE_IN_ALL
void akc_message_append_content_utf8 (AkcMessage *self,
                                      const char *text);
AKC_AVAILABLE_IN_ALL
AkcMessageStatus  akc_message_get_status     (AkcMessage       *self);
AKC_AVAILABLE_IN_ALL
void              akc_message_set_status     (AkcMessage       *self,
                                              AkcMessageStatus  status);
AKC_AVAILABLE_IN_ALL
GDateTime        *akc_message_get_created_at (AkcMessage       *self);
AKC_AVAILABLE_IN_ALL
gboolean          akc_message_get_stopped    (AkcMessage       *self);
AKC_AVAILABLE_IN_ALL
void              akc_message_set_stopped    (AkcMessage       *self,
                                              gboolean          stopped);
AKC_AVAILABLE_IN_ALL
const AkcUsage   *akc_message_get_usage      (AkcMessage       *self);
AKC_AVAILABLE_IN_ALL
GListModel       *akc_message_get_attachments (AkcMessage      *self);
AKC_AVAILABLE_IN_ALL
void              akc_message_add_attachment (AkcMessage       *self,
                                              AkcAttachment    *attachment);
AKC_AVAILABLE_IN_ALL
void              akc_message_set_usage      (AkcMessage       *self,
                                              const AkcUsage   *usage);
AKC_AVAILABLE_IN_ALL
AkcDiagnostic    *akc_message_get_error      (AkcMessage       *self);
AKC_AVAILABLE_IN_ALL
void              akc_message_set_error      (AkcMessage       *self,
                                              AkcDiagnostic    *error);
AKC_AVAILABLE_IN_ALL
AkcLineage       *akc_message_get_lineage    (AkcMessage       *self);
AKC_AVAILABLE_IN_ALL
void              akc_message_set_lineage    (AkcMessage       *self,
                                              AkcLineage       *lineage);
AKC_AVAILABLE_IN_ALL
const char       *akc_message_get_tool_call_id (AkcMessage     *self);
AKC_AVAILABLE_IN_ALL
GListModel       *akc_message_get_tool_calls (AkcMessage       *self);
AKC_AVAILABLE_IN_ALL
void              akc_message_add_tool_call  (AkcMessage       *self,
                                              AkcToolCall      *tool_call);
AKC_AVAILABLE_IN_ALL
AkcToolCall      *akc_message_find_tool_call (AkcMessage       *self,
                                              const char       *tool_call_id);

G_END_DECLS
