/* akc-chat-source.h
 *
 * SPDX-License-Identifier: MIT
 */

#pragma once

#if !defined(__AKC_INSIDE__) && !defined(AKC_COMPILATION)
#error "Only <akc.h> can be included directly."
#endif

#include <gio/gio.h>

#include "akc-diagnostic.h"
#include "akc-json.h"
#include "akc-tool-call.h"
#include "akc-usage.h"
#include "akc-version-macros.h"

G_BEGIN_DECLS

/**
 * AkcChatStatus:
 * @AKC_CHAT_STATUS_IDLE: waiting for the person
 * @AKC_CHAT_STATUS_STREAMING: a reply is arriving
 * @AKC_CHAT_STATUS_ERROR: the last turn failed; see [property@ChatSource:error]
 *
 * What a conversation is doing.
 *
 * Since: 0.1
 */
typedef enum
{
  AKC_CHAT_STATUS_IDLE,
  AKC_CHAT_STATUS_STREAMING,
  AKC_CHAT_STATUS_ERROR,
} AkcChatStatus;

/**
 * AKC_CHAT_ERROR:
 *
 * The error domain of conversation actions and turns.
 */
#define AKC_CHAT_ERROR (akc_chat_error_quark ())

/**
 * AkcChatError:
 * @AKC_CHAT_ERROR_BUSY: a reply is streaming; stop it first
 * @AKC_CHAT_ERROR_EMPTY_INPUT: the text is blank
 * @AKC_CHAT_ERROR_NO_TARGET: there is no message or tool call the action
 *   applies to; the conversation did not change (an inert retry, for
 *   example, [application §14](wire-formats.html#application-14) A12)
 * @AKC_CHAT_ERROR_TURN_FAILED: the adapter reported a failure
 * @AKC_CHAT_ERROR_NOT_SUPPORTED: the source does not offer the action (a
 *   turn server, for example, only takes new messages); the conversation
 *   did not change
 *
 * Error codes of %AKC_CHAT_ERROR, the domain of the actions of
 * [iface@ChatSource]. A failed turn is not reported through this domain
 * but as [property@ChatSource:error]. Proposals fail with the upstream tool
 * errors of %AKC_ERROR ([application §0.1](wire-formats.html#application-0)).
 *
 * Since: 0.1
 */
typedef enum
{
  AKC_CHAT_ERROR_BUSY,
  AKC_CHAT_ERROR_EMPTY_INPUT,
  AKC_CHAT_ERROR_NO_TARGET,
  AKC_CHAT_ERROR_TURN_FAILED,
  AKC_CHAT_ERROR_NOT_SUPPORTED,
} AkcChatError;

AKC_AVAILABLE_IN_ALL
GQuark akc_chat_error_quark (void);

AKC_AVAILABLE_IN_ALL
gboolean akc_is_blank_input (const char *text);

#define AKC_TYPE_CHAT_SOURCE (akc_chat_source_get_type ())

AKC_AVAILABLE_IN_ALL
G_DECLARE_INTERFACE (AkcChatSource, akc_chat_source, AKC, CHAT_SOURCE, GObject)

/**
 * AkcChatSourceInterface:
 * @get_messages: returns the messages
 * @get_status: returns the status
 * @get_error: returns the failure of the last turn
 * @get_usage: returns the accumulated token usage
 * @send: sends a message
 * @stop: stops a streaming reply
 * @retry: answers the last user message again
 * @regenerate: replaces an assistant message with a new answer
 * @edit: changes a message
 * @clear: removes every message
 * @propose_tool_call: proposes a tool call that waits for confirmation
 * @approve: approves a tool call that waits for confirmation
 * @deny: denies a tool call that waits for confirmation
 *
 * The virtual methods of [iface@ChatSource]. Implementations also install
 * the interface's properties.
 *
 * The four getters and @send are required. The other actions have
 * defaults for a source that does not offer them: @stop and @clear do
 * nothing, and @retry, @regenerate, @edit, @propose_tool_call, @approve and
 * @deny fail with %AKC_CHAT_ERROR_NOT_SUPPORTED.
 */
struct _AkcChatSourceInterface
{
  GTypeInterface parent_iface;

  GListModel     *(*get_messages)      (AkcChatSource  *self);
  AkcChatStatus   (*get_status)        (AkcChatSource  *self);
  AkcDiagnostic  *(*get_error)         (AkcChatSource  *self);
  const AkcUsage *(*get_usage)         (AkcChatSource  *self);
  gboolean        (*send)              (AkcChatSource  *self,
                                        const char     *text,
                                        GError        **error);
  void            (*stop)              (AkcChatSource  *self);
  gboolean        (*retry)             (AkcChatSource  *self,
                                        GError        **error);
  gboolean        (*regenerate)        (AkcChatSource  *self,
                                        const char     *message_id,
                                        GError        **error);
  gboolean        (*edit)              (AkcChatSource  *self,
                                        const char     *message_id,
                                        const char     *text,
                                        GError        **error);
  void            (*clear)             (AkcChatSource  *self);
  AkcToolCall    *(*propose_tool_call) (AkcChatSource  *self,
                                        const char     *id,
                                        const char     *name,
                                        AkcJsonValue   *arguments,
                                        GError        **error);
  gboolean        (*approve)           (AkcChatSource  *self,
                                        const char     *tool_call_id,
                                        GError        **error);
  gboolean        (*deny)              (AkcChatSource  *self,
                                        const char     *tool_call_id,
                                        const char     *reason,
                                        GError        **error);
};

AKC_AVAILABLE_IN_ALL
GListModel     *akc_chat_source_get_messages      (AkcChatSource  *self);
AKC_AVAILABLE_IN_ALL
AkcChatStatus   akc_chat_source_get_status        (AkcChatSource  *self);
AKC_AVAILABLE_IN_ALL
AkcDiagnostic  *akc_chat_source_get_error         (AkcChatSource  *self);
AKC_AVAILABLE_IN_ALL
const AkcUsage *akc_chat_source_get_usage         (AkcChatSource  *self);
AKC_AVAILABLE_IN_ALL
char           *akc_chat_source_dup_input         (AkcChatSource  *self);
AKC_AVAILABLE_IN_ALL
void            akc_chat_source_set_input         (AkcChatSource  *self,
                                                   const char     *input);
AKC_AVAILABLE_IN_ALL
gboolean        akc_chat_source_send              (AkcChatSource  *self,
                                                   const char     *text,
                                                   GError        **error);
AKC_AVAILABLE_IN_ALL
void            akc_chat_source_stop              (AkcChatSource  *self);
AKC_AVAILABLE_IN_ALL
gboolean        akc_chat_source_retry             (AkcChatSource  *self,
                                                   GError        **error);
AKC_AVAILABLE_IN_ALL
gboolean        akc_chat_source_regenerate        (AkcChatSource  *self,
                                                   const char     *message_id,
                                                   GError        **error);
AKC_AVAILABLE_IN_ALL
gboolean        akc_chat_source_edit              (AkcChatSource  *self,
                                                   const char     *message_id,
                                                   const char     *text,
                                                   GError        **error);
AKC_AVAILABLE_IN_ALL
void            akc_chat_source_clear             (AkcChatSource  *self);
AKC_AVAILABLE_IN_ALL
AkcToolCall    *akc_chat_source_propose_tool_call (AkcChatSource  *self,
                                                   const char     *id,
                                                   const char     *name,
                                                   AkcJsonValue   *arguments,
                                                   GError        **error);
AKC_AVAILABLE_IN_ALL
gboolean        akc_chat_source_approve           (AkcChatSource  *self,
                                                   const char     *tool_call_id,
                                                   GError        **error);
AKC_AVAILABLE_IN_ALL
gboolean        akc_chat_source_deny              (AkcChatSource  *self,
                                                   const char     *tool_call_id,
                                                   const char     *reason,
                                                   GError        **error);

G_END_DECLS
