/* akc-chat-source.c
 *
 * SPDX-License-Identifier: MIT
 */

#include "config.h"

#include <string.h>

#include <glib/gi18n-lib.h>

#include "akc-chat-source.h"
#include "akc-enum-types.h"
#include "akc-message.h"
#include "akc-text-private.h"

/**
 * AkcChatSource:
 *
 * Everything a chat view shows and every action a person takes in it.
 *
 * One presentation serves every way a conversation can be owned: by a
 * local controller ([class@Chat]), by a host that sets snapshots, or by a
 * server. A view binds to this interface only: it lists
 * [property@ChatSource:messages], follows [property@ChatSource:status],
 * [property@ChatSource:error] and [property@ChatSource:usage], edits
 * [property@ChatSource:input], and calls the actions.
 *
 * ## Changes in place
 *
 * Messages change in place: a streamed reply grows its
 * [property@Message:content], a stopped reply sets
 * [property@Message:stopped], an edited message keeps its id and object.
 * The messages model emits [signal@Gio.ListModel::items-changed] only when
 * messages are added or removed, with the smallest range: sending adds the
 * user message and its reply in one emission, a retry replaces the last
 * message in one emission, and so on.
 *
 * ## Errors
 *
 * A turn that fails does not fail the action that started it: the action
 * returns %TRUE, and the failure arrives later as
 * [property@ChatSource:status] %AKC_CHAT_STATUS_ERROR with
 * [property@ChatSource:error] set. The error is an [struct@Diagnostic],
 * the `TurnDiagnostic` of the turn protocol ([protocol §2.4](wire-formats.html#protocol-2)): a stable
 * code, a message that is safe to show (bounded; it never holds more than
 * a short sentence of what the adapter said) and whether retrying may
 * help. The next operation clears it.
 *
 * Actions that cannot act return %FALSE with an %AKC_CHAT_ERROR (or, for
 * proposals, an %AKC_ERROR) and change nothing. An action the source does
 * not offer at all (a turn server only takes new messages) fails with
 * %AKC_CHAT_ERROR_NOT_SUPPORTED.
 *
 * Since: 0.1
 */

/**
 * akc_chat_error_quark:
 *
 * Gets the error domain of [error@ChatError], the quark %AKC_CHAT_ERROR
 * stands for.
 *
 * Returns: the error quark
 *
 * Since: 0.1
 */
G_DEFINE_QUARK (akc-chat-error-quark, akc_chat_error)

/**
 * akc_is_blank_input:
 * @text: what the person typed
 *
 * Tells whether @text is blank: empty, or only white space and line
 * terminators as ECMAScript's `trim()` counts them ([protocol §1.4](wire-formats.html#protocol-1)).
 * Blank input is never sent.
 *
 * Returns: %TRUE if @text is blank
 *
 * Since: 0.1
 */
gboolean
akc_is_blank_input (const char *text)
{
  gsize length = 0;

  g_return_val_if_fail (text != NULL, TRUE);

  akc_text_trim (text, strlen (text), &length);

  return length == 0;
}

G_DEFINE_INTERFACE (AkcChatSource, akc_chat_source, G_TYPE_OBJECT)

/* The defaults of the actions a source need not offer. */

static gboolean
not_supported (GError **error)
{
  g_set_error_literal (error, AKC_CHAT_ERROR, AKC_CHAT_ERROR_NOT_SUPPORTED,
                       _("This conversation does not offer that."));
  return FALSE;
}

static void
default_stop (AkcChatSource *self)
{
}

static gboolean
default_retry (AkcChatSource  *self,
               GError        **error)
{
  return not_supported (error);
}

static gboolean
default_regenerate (AkcChatSource  *self,
                    const char     *message_id,
                    GError        **error)
{
  return not_supported (error);
}

static gboolean
default_edit (AkcChatSource  *self,
              const char     *message_id,
              const char     *text,
              GError        **error)
{
  return not_supported (error);
}

static void
default_clear (AkcChatSource *self)
{
}

static AkcToolCall *
default_propose_tool_call (AkcChatSource  *self,
                           const char     *id,
                           const char     *name,
                           AkcJsonValue   *arguments,
                           GError        **error)
{
  not_supported (error);
  return NULL;
}

static gboolean
default_approve (AkcChatSource  *self,
                 const char     *tool_call_id,
                 GError        **error)
{
  return not_supported (error);
}

static gboolean
default_deny (AkcChatSource  *self,
              const char     *tool_call_id,
              const char     *reason,
              GError        **error)
{
  return not_supported (error);
}

static void
akc_chat_source_default_init (AkcChatSourceInterface *iface)
{
  iface->stop = default_stop;
  iface->retry = default_retry;
  iface->regenerate = default_regenerate;
  iface->edit = default_edit;
  iface->clear = default_clear;
  iface->propose_tool_call = default_propose_tool_call;
  iface->approve = default_approve;
  iface->deny = default_deny;

  /**
   * AkcChatSource:messages:
   *
   * The conversation, a #GListModel of [class@Message] in order.
   *
   * Since: 0.1
   */
  g_object_interface_install_property (iface,
    g_param_spec_object ("messages", NULL, NULL,
                         G_TYPE_LIST_MODEL,
                         (G_PARAM_READABLE | G_PARAM_STATIC_STRINGS)));

  /**
   * AkcChatSource:status:
   *
   * What the conversation is doing.
   *
   * Since: 0.1
   */
  g_object_interface_install_property (iface,
    g_param_spec_enum ("status", NULL, NULL,
                       AKC_TYPE_CHAT_STATUS,
                       AKC_CHAT_STATUS_IDLE,
                       (G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS)));

  /**
   * AkcChatSource:error:
   *
   * The failure of the last turn, or %NULL: an [struct@Diagnostic] whose
   * message is safe to show.
   *
   * Since: 0.1
   */
  g_object_interface_install_property (iface,
    g_param_spec_boxed ("error", NULL, NULL,
                        AKC_TYPE_DIAGNOSTIC,
                        (G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS)));

  /**
   * AkcChatSource:usage:
   *
   * The token usage of the conversation, accumulated over its turns.
   *
   * Since: 0.1
   */
  g_object_interface_install_property (iface,
    g_param_spec_boxed ("usage", NULL, NULL,
                        AKC_TYPE_USAGE,
                        (G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS)));

  /**
   * AkcChatSource:input:
   *
   * The draft the person is typing.
   *
   * Since: 0.1
   */
  g_object_interface_install_property (iface,
    g_param_spec_string ("input", NULL, NULL,
                         "",
                         (G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS)));
}

/**
 * akc_chat_source_get_messages:
 * @self: a #AkcChatSource
 *
 * Gets the conversation.
 *
 * Returns: (transfer none): a #GListModel of [class@Message]
 *
 * Since: 0.1
 */
GListModel *
akc_chat_source_get_messages (AkcChatSource *self)
{
  g_return_val_if_fail (AKC_IS_CHAT_SOURCE (self), NULL);

  return AKC_CHAT_SOURCE_GET_IFACE (self)->get_messages (self);
}

/**
 * akc_chat_source_get_status:
 * @self: a #AkcChatSource
 *
 * Gets what the conversation is doing.
 *
 * Returns: the status
 *
 * Since: 0.1
 */
AkcChatStatus
akc_chat_source_get_status (AkcChatSource *self)
{
  g_return_val_if_fail (AKC_IS_CHAT_SOURCE (self), AKC_CHAT_STATUS_IDLE);

  return AKC_CHAT_SOURCE_GET_IFACE (self)->get_status (self);
}

/**
 * akc_chat_source_get_error:
 * @self: a #AkcChatSource
 *
 * Gets the failure of the last turn.
 *
 * Returns: (transfer none) (nullable): the diagnostic, or %NULL
 *
 * Since: 0.1
 */
AkcDiagnostic *
akc_chat_source_get_error (AkcChatSource *self)
{
  g_return_val_if_fail (AKC_IS_CHAT_SOURCE (self), NULL);

  return AKC_CHAT_SOURCE_GET_IFACE (self)->get_error (self);
}

/**
 * akc_chat_source_get_usage:
 * @self: a #AkcChatSource
 *
 * Gets the token usage of the conversation, accumulated over its turns.
 *
 * Returns: (transfer none): the usage
 *
 * Since: 0.1
 */
const AkcUsage *
akc_chat_source_get_usage (AkcChatSource *self)
{
  g_return_val_if_fail (AKC_IS_CHAT_SOURCE (self), NULL);

  return AKC_CHAT_SOURCE_GET_IFACE (self)->get_usage (self);
}

/**
 * akc_chat_source_dup_input:
 * @self: a #AkcChatSource
 *
 * Gets a copy of the draft.
 *
 * Returns: (transfer full): the draft
 *
 * Since: 0.1
 */
char *
akc_chat_source_dup_input (AkcChatSource *self)
{
  char *input = NULL;

  g_return_val_if_fail (AKC_IS_CHAT_SOURCE (self), NULL);

  g_object_get (self, "input", &input, NULL);

  return input != NULL ? input : g_strdup ("");
}

/**
 * akc_chat_source_set_input:
 * @self: a #AkcChatSource
 * @input: (nullable): the draft
 *
 * Replaces the draft.
 *
 * Since: 0.1
 */
void
akc_chat_source_set_input (AkcChatSource *self,
                           const char    *input)
{
  g_return_if_fail (AKC_IS_CHAT_SOURCE (self));

  g_object_set (self, "input", input != NULL ? input : "", NULL);
}

/**
 * akc_chat_source_send:
 * @self: a #AkcChatSource
 * @text: what the person wrote
 * @error: return location for a #GError
 *
 * Appends a user message with @text and a reply to it, and streams the
 * reply. Blank text is never sent (%AKC_CHAT_ERROR_EMPTY_INPUT), and
 * nothing is sent while a reply streams (%AKC_CHAT_ERROR_BUSY).
 *
 * Returns: %TRUE if the message was sent
 *
 * Since: 0.1
 */
gboolean
akc_chat_source_send (AkcChatSource  *self,
                      const char     *text,
                      GError        **error)
{
  g_return_val_if_fail (AKC_IS_CHAT_SOURCE (self), FALSE);
  g_return_val_if_fail (text != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  return AKC_CHAT_SOURCE_GET_IFACE (self)->send (self, text, error);
}

/**
 * akc_chat_source_stop:
 * @self: a #AkcChatSource
 *
 * Aborts the active stream, if any, and marks streaming messages complete
 * ([application §3.6](wire-formats.html#application-3)); they keep what arrived so far and are marked
 * [property@Message:stopped]. Chunks that arrive later never change the
 * conversation.
 *
 * Since: 0.1
 */
void
akc_chat_source_stop (AkcChatSource *self)
{
  g_return_if_fail (AKC_IS_CHAT_SOURCE (self));

  AKC_CHAT_SOURCE_GET_IFACE (self)->stop (self);
}

/**
 * akc_chat_source_retry:
 * @self: a #AkcChatSource
 * @error: return location for a #GError
 *
 * Answers the last user message again ([application §3.6](wire-formats.html#application-3)). It requires
 * the last two messages to be a user then an assistant message; otherwise
 * it does nothing and fails with %AKC_CHAT_ERROR_NO_TARGET. It removes the
 * last assistant message and streams a new one for the same user message.
 *
 * Returns: %TRUE if a new reply started
 *
 * Since: 0.1
 */
gboolean
akc_chat_source_retry (AkcChatSource  *self,
                       GError        **error)
{
  g_return_val_if_fail (AKC_IS_CHAT_SOURCE (self), FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  return AKC_CHAT_SOURCE_GET_IFACE (self)->retry (self, error);
}

/**
 * akc_chat_source_regenerate:
 * @self: a #AkcChatSource
 * @message_id: (nullable): the assistant message to replace, or %NULL for the last message
 * @error: return location for a #GError
 *
 * Replaces an assistant message, and everything after it, with a new answer
 * ([application §3.6](wire-formats.html#application-3)). The target is @message_id, or the last message
 * when it is an assistant message. Everything from the target onward is
 * dropped, and a reply is streamed for the nearest user message before it.
 *
 * Returns: %TRUE if a new reply started
 *
 * Since: 0.1
 */
gboolean
akc_chat_source_regenerate (AkcChatSource  *self,
                            const char     *message_id,
                            GError        **error)
{
  g_return_val_if_fail (AKC_IS_CHAT_SOURCE (self), FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  return AKC_CHAT_SOURCE_GET_IFACE (self)->regenerate (self, message_id, error);
}

/**
 * akc_chat_source_edit:
 * @self: a #AkcChatSource
 * @message_id: the message to change
 * @text: its new text
 * @error: return location for a #GError
 *
 * Changes a message ([application §3.6](wire-formats.html#application-3)). A user message keeps its id and
 * gets @text; every later message is removed and a new reply is streamed.
 * Editing an assistant message only replaces its text. Blank text is
 * rejected.
 *
 * Returns: %TRUE if the message changed
 *
 * Since: 0.1
 */
gboolean
akc_chat_source_edit (AkcChatSource  *self,
                      const char     *message_id,
                      const char     *text,
                      GError        **error)
{
  g_return_val_if_fail (AKC_IS_CHAT_SOURCE (self), FALSE);
  g_return_val_if_fail (message_id != NULL, FALSE);
  g_return_val_if_fail (text != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  return AKC_CHAT_SOURCE_GET_IFACE (self)->edit (self, message_id, text, error);
}

/**
 * akc_chat_source_clear:
 * @self: a #AkcChatSource
 *
 * Stops any reply and removes every message.
 *
 * Since: 0.1
 */
void
akc_chat_source_clear (AkcChatSource *self)
{
  g_return_if_fail (AKC_IS_CHAT_SOURCE (self));

  AKC_CHAT_SOURCE_GET_IFACE (self)->clear (self);
}

/**
 * akc_chat_source_propose_tool_call:
 * @self: a #AkcChatSource
 * @id: the tool call id, an Identifier
 * @name: the tool name, an Identifier
 * @arguments: (nullable): the arguments, a JSON object; %NULL for `{}`
 * @error: return location for a #GError
 *
 * Proposes a tool call that waits for confirmation ([application §5.1](wire-formats.html#application-5)):
 * no side effect happens before [method@ChatSource.approve]. The call is
 * added to a new assistant message with the status
 * %AKC_TOOL_CALL_STATUS_REQUIRES_CONFIRMATION. A proposal whose id already
 * exists returns the existing call unchanged.
 *
 * Fails with the upstream tool errors of %AKC_ERROR, checked in the order
 * of [application §5.4](wire-formats.html#application-5): %AKC_ERROR_TOOL_INVALID_INPUT for a bad id, name
 * or arguments, %AKC_ERROR_TOOL_NOT_FOUND for an unknown tool,
 * %AKC_ERROR_CONFIG_INVALID for a tool that does not require confirmation,
 * and %AKC_ERROR_TOOL_FORBIDDEN when authorization denies it.
 *
 * Returns: (transfer full): the tool call, or %NULL with @error set
 *
 * Since: 0.1
 */
AkcToolCall *
akc_chat_source_propose_tool_call (AkcChatSource  *self,
                                   const char     *id,
                                   const char     *name,
                                   AkcJsonValue   *arguments,
                                   GError        **error)
{
  g_return_val_if_fail (AKC_IS_CHAT_SOURCE (self), NULL);
  g_return_val_if_fail (id != NULL, NULL);
  g_return_val_if_fail (name != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  return AKC_CHAT_SOURCE_GET_IFACE (self)->propose_tool_call (self, id, name, arguments, error);
}

/**
 * akc_chat_source_approve:
 * @self: a #AkcChatSource
 * @tool_call_id: the tool call to approve
 * @error: return location for a #GError
 *
 * Approves a tool call that requires confirmation: the tool runs, and the
 * conversation continues ([application §3.6](wire-formats.html#application-3), "Tool continuation"): a
 * tool message with the result and a new assistant message are appended,
 * and the adapter is called again with the same latest user message.
 *
 * Fails with %AKC_CHAT_ERROR_NO_TARGET when no call with that id waits for
 * confirmation.
 *
 * Returns: %TRUE if the call was approved
 *
 * Since: 0.1
 */
gboolean
akc_chat_source_approve (AkcChatSource  *self,
                         const char     *tool_call_id,
                         GError        **error)
{
  g_return_val_if_fail (AKC_IS_CHAT_SOURCE (self), FALSE);
  g_return_val_if_fail (tool_call_id != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  return AKC_CHAT_SOURCE_GET_IFACE (self)->approve (self, tool_call_id, error);
}

/**
 * akc_chat_source_deny:
 * @self: a #AkcChatSource
 * @tool_call_id: the tool call to deny
 * @reason: (nullable): why, or %NULL for `user denied access`
 * @error: return location for a #GError
 *
 * Denies a tool call that requires confirmation: the tool does not run, the
 * call records `Permission denied: «reason»`, and the conversation
 * continues as for [method@ChatSource.approve] with that text as the tool
 * message.
 *
 * Returns: %TRUE if the call was denied
 *
 * Since: 0.1
 */
gboolean
akc_chat_source_deny (AkcChatSource  *self,
                      const char     *tool_call_id,
                      const char     *reason,
                      GError        **error)
{
  g_return_val_if_fail (AKC_IS_CHAT_SOURCE (self), FALSE);
  g_return_val_if_fail (tool_call_id != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  return AKC_CHAT_SOURCE_GET_IFACE (self)->deny (self, tool_call_id, reason, error);
}
