/* akc-tool-call.h: one tool call of an assistant message
 *
 * SPDX-License-Identifier: MIT
 */

#pragma once

#if !defined(__AKC_INSIDE__) && !defined(AKC_COMPILATION)
#error "Only <akc.h> can be included directly."
#endif

#include <glib-object.h>

#include "akc-json.h"
#include "akc-version-macros.h"

G_BEGIN_DECLS

/**
 * AkcToolCallStatus:
 * @AKC_TOOL_CALL_STATUS_PENDING: `pending`: proposed, not started
 * @AKC_TOOL_CALL_STATUS_RUNNING: `running`: the tool is running
 * @AKC_TOOL_CALL_STATUS_COMPLETE: `complete`: the tool ran; see [property@ToolCall:result]
 * @AKC_TOOL_CALL_STATUS_ERROR: `error`: the tool failed, was denied or is
 *   unknown; see [property@ToolCall:error]
 * @AKC_TOOL_CALL_STATUS_REQUIRES_CONFIRMATION: `requires_confirmation`: the
 *   call waits for [method@ChatSource.approve] or [method@ChatSource.deny]
 *
 * Where a tool call is in its life ([protocol §2.9.6](wire-formats.html#protocol-2)). The wire strings
 * are those of [func@ToolCallStatus.to_string]; the enum nicks use `-`.
 *
 * Since: 0.1
 */
typedef enum
{
  AKC_TOOL_CALL_STATUS_PENDING,
  AKC_TOOL_CALL_STATUS_RUNNING,
  AKC_TOOL_CALL_STATUS_COMPLETE,
  AKC_TOOL_CALL_STATUS_ERROR,
  AKC_TOOL_CALL_STATUS_REQUIRES_CONFIRMATION,
} AkcToolCallStatus;

AKC_AVAILABLE_IN_ALL
const char *akc_tool_call_status_to_string   (AkcToolCallStatus  status);
AKC_AVAILABLE_IN_ALL
gboolean    akc_tool_call_status_from_string (const char        *string,
                                              AkcToolCallStatus *status);

#define AKC_TYPE_TOOL_CALL (akc_tool_call_get_type ())

AKC_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (AkcToolCall, akc_tool_call, AKC, TOOL_CALL, GObject)

AKC_AVAILABLE_IN_ALL
AkcToolCall       *akc_tool_call_new           (const char        *id,
                                                const char        *name,
                                                AkcJsonValue      *arguments,
                                                AkcToolCallStatus  status);
AKC_AVAILABLE_IN_ALL
const char        *akc_tool_call_get_id        (AkcToolCall       *self);
AKC_AVAILABLE_IN_ALL
const char        *akc_tool_call_get_name      (AkcToolCall       *self);
AKC_AVAILABLE_IN_ALL
AkcJsonValue      *akc_tool_call_get_arguments (AkcToolCall       *self);
AKC_AVAILABLE_IN_ALL
AkcToolCallStatus  akc_tool_call_get_status    (AkcToolCall       *self);
AKC_AVAILABLE_IN_ALL
void               akc_tool_call_set_status    (AkcToolCall       *self,
                                                AkcToolCallStatus  status);
AKC_AVAILABLE_IN_ALL
const char        *akc_tool_call_get_result    (AkcToolCall       *self);
AKC_AVAILABLE_IN_ALL
void               akc_tool_call_set_result    (AkcToolCall       *self,
                                                const char        *result);
AKC_AVAILABLE_IN_ALL
const char        *akc_tool_call_get_error     (AkcToolCall       *self);
AKC_AVAILABLE_IN_ALL
void               akc_tool_call_set_error     (AkcToolCall       *self,
                                                const char        *error);

G_END_DECLS
