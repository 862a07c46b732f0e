/* akc-conversation-info-private.h
 *
 * SPDX-License-Identifier: MIT
 *
 * Internal to libakc (not installed, not scanned).
 */

#pragma once

#include "akc-conversation-info.h"

G_BEGIN_DECLS

/* Takes the changeable fields of @other (title, usage, update time,
 * message count, pinned), notifying each one that changed. The id,
 * assistant and creation time stay. */
void akc_conversation_info_update_from (AkcConversationInfo *self,
                                        AkcConversationInfo *other);

G_END_DECLS
