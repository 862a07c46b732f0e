/* akc-chat.h
 *
 * SPDX-License-Identifier: MIT
 */

#pragma once

#if !defined(__AKC_INSIDE__) && !defined(AKC_COMPILATION)
#error "Only <akc.h> can be included directly."
#endif

#include "akc-adapter.h"
#include "akc-chat-source.h"
#include "akc-message.h"
#include "akc-tool.h"
#include "akc-version-macros.h"

G_BEGIN_DECLS

#define AKC_TYPE_CHAT (akc_chat_get_type ())

AKC_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (AkcChat, akc_chat, AKC, CHAT, GObject)

/**
 * AkcToolAuthorizeFunc:
 * @chat: the controller
 * @tool_call: the tool call to authorize
 * @phase: whether the call is being proposed or is about to run
 * @user_data: the data given to [method@Chat.set_tool_authorizer]
 *
 * Decides whether a tool call may be proposed or run ([application §5.4](wire-formats.html#application-5)).
 *
 * Returns: (transfer full) (nullable): %NULL to allow, or the denial reason
 *
 * Since: 0.1
 */
typedef char *(*AkcToolAuthorizeFunc) (AkcChat      *chat,
                                       AkcToolCall  *tool_call,
                                       AkcToolPhase  phase,
                                       gpointer      user_data);

AKC_AVAILABLE_IN_ALL
AkcChat    *akc_chat_new                 (AkcAdapter            *adapter);
AKC_AVAILABLE_IN_ALL
gboolean    akc_chat_send_with_attachments (AkcChat             *self,
                                            const char          *text,
                                            AkcAttachment      **attachments,
                                            guint                n_attachments,
                                            GError             **error);
AKC_AVAILABLE_IN_ALL
const char *akc_chat_get_session_id      (AkcChat               *self);
AKC_AVAILABLE_IN_ALL
const char *akc_chat_get_system_prompt   (AkcChat               *self);
AKC_AVAILABLE_IN_ALL
AkcAdapter *akc_chat_get_adapter         (AkcChat               *self);
AKC_AVAILABLE_IN_ALL
void        akc_chat_add_tool            (AkcChat               *self,
                                          AkcTool               *tool);
AKC_AVAILABLE_IN_ALL
AkcTool    *akc_chat_get_tool            (AkcChat               *self,
                                          const char            *name);
AKC_AVAILABLE_IN_ALL
void        akc_chat_set_tool_authorizer (AkcChat               *self,
                                          AkcToolAuthorizeFunc   func,
                                          gpointer               user_data,
                                          GDestroyNotify         destroy);
AKC_AVAILABLE_IN_ALL
void        akc_chat_restore             (AkcChat               *self,
                                          AkcMessage * const    *messages,
                                          guint                  n_messages);
AKC_AVAILABLE_IN_ALL
gboolean    akc_chat_delete_message      (AkcChat               *self,
                                          const char            *message_id,
                                          guint                 *position,
                                          GError               **error);
AKC_AVAILABLE_IN_ALL
gboolean    akc_chat_insert_message      (AkcChat               *self,
                                          guint                  position,
                                          AkcMessage            *message,
                                          GError               **error);
AKC_AVAILABLE_IN_ALL
gboolean    akc_chat_hide_message        (AkcChat               *self,
                                          const char            *message_id,
                                          GError               **error);
AKC_AVAILABLE_IN_ALL
gboolean    akc_chat_unhide_message      (AkcChat               *self,
                                          const char            *message_id);
AKC_AVAILABLE_IN_ALL
gboolean    akc_chat_get_message_hidden  (AkcChat               *self,
                                          AkcMessage            *message);
AKC_AVAILABLE_IN_ALL
guint       akc_chat_delete_hidden_messages (AkcChat            *self);

G_END_DECLS
