/* akc-chat-source.c
 *
 * SPDX-License-Identifier: MIT
 */

#include "config.h"

#include <string.h>

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
 * [property@ChatSource:messages], follows [property@ChatSource:status] and
 * [property@ChatSource:error], edits [property@ChatSource:input], and calls
 * the actions.
 */

G_DEFINE_QUARK (akc-chat-error-quark, akc_chat_error)

/**
 * akc_is_blank_input:
 * @text: what the person typed
 *
 * Tells whether @text is blank: empty, or only white space and line
 * terminators as ECMAScript's `trim()` counts them (protocol.md §1.4).
 * Blank input is never sent.
 *
 * Returns: %TRUE if @text is blank
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

static void
akc_chat_source_default_init (AkcChatSourceInterface *iface)
{
  /**
   * AkcChatSource:messages:
   *
   * The conversation, a #GListModel of [class@Message] in order.
   */
  g_object_interface_install_property (iface,
    g_param_spec_object ("messages", NULL, NULL,
                         G_TYPE_LIST_MODEL,
                         (G_PARAM_READABLE | G_PARAM_STATIC_STRINGS)));

  /**
   * AkcChatSource:status:
   *
   * What the conversation is doing.
   */
  g_object_interface_install_property (iface,
    g_param_spec_enum ("status", NULL, NULL,
                       AKC_TYPE_CHAT_STATUS,
                       AKC_CHAT_STATUS_IDLE,
                       (G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS)));

  /**
   * AkcChatSource:error:
   *
   * The failure of the last turn, or %NULL. Its message is safe to show.
   */
  g_object_interface_install_property (iface,
    g_param_spec_boxed ("error", NULL, NULL,
                        G_TYPE_ERROR,
                        (G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS)));

  /**
   * AkcChatSource:input:
   *
   * The draft the person is typing.
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
 * Returns: (transfer none) (nullable): the error, or %NULL
 */
const GError *
akc_chat_source_get_error (AkcChatSource *self)
{
  g_return_val_if_fail (AKC_IS_CHAT_SOURCE (self), NULL);

  return AKC_CHAT_SOURCE_GET_IFACE (self)->get_error (self);
}

/**
 * akc_chat_source_dup_input:
 * @self: a #AkcChatSource
 *
 * Gets a copy of the draft.
 *
 * Returns: (transfer full): the draft
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
 * Sends a message and starts a reply. Blank text is never sent.
 *
 * Returns: %TRUE if the message was sent
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
 * Stops the streaming reply, if any. What arrived so far is kept.
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
 * Answers the last user message again, replacing what came after it.
 *
 * Returns: %TRUE if a new reply started
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
 * @message_id: (nullable): the assistant message to replace, or %NULL for the last one
 * @error: return location for a #GError
 *
 * Replaces an assistant message, and everything after it, with a new answer.
 *
 * Returns: %TRUE if a new reply started
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
 * @message_id: the user message to change
 * @text: its new text
 * @error: return location for a #GError
 *
 * Changes a user message, drops what came after it and answers it again.
 *
 * Returns: %TRUE if a new reply started
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
 */
void
akc_chat_source_clear (AkcChatSource *self)
{
  g_return_if_fail (AKC_IS_CHAT_SOURCE (self));

  AKC_CHAT_SOURCE_GET_IFACE (self)->clear (self);
}
