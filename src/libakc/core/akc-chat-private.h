/* akc-chat-private.h
 *
 * SPDX-License-Identifier: MIT
 */

#pragma once

#include "akc-chat.h"

G_BEGIN_DECLS

/* Takes the authorizer out of @self (which then allows every call), so a
 * policy can wrap it and install the composition in its place. */
void akc_chat_steal_tool_authorizer (AkcChat               *self,
                                     AkcToolAuthorizeFunc  *func,
                                     gpointer              *user_data,
                                     GDestroyNotify        *destroy);

/* Puts @messages, read from storage after the conversation went on (it
 * was written in before its history was read), before its own messages
 * in one items-changed. Unlike akc_chat_restore(), the reply on its way,
 * the status, the error and the usage stay. */
void akc_chat_prepend_restored (AkcChat            *self,
                                AkcMessage * const *messages,
                                guint               n_messages);

G_END_DECLS
