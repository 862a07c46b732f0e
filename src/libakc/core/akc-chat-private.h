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

G_END_DECLS
