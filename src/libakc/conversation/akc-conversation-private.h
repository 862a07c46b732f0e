/* akc-conversation-private.h: internals shared with AkcSession
 *
 * SPDX-License-Identifier: MIT
 */

#pragma once

#include "akc-conversation.h"

G_BEGIN_DECLS

/* Called once the conversation was validated for a session: it can no
 * longer change. */
void akc_conversation_seal (AkcConversation *self);

G_END_DECLS
