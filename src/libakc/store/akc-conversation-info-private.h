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
 * message count, pinned, provider and model), notifying each one that
 * changed. The id, assistant and creation time stay. */
void akc_conversation_info_update_from (AkcConversationInfo *self,
                                        AkcConversationInfo *other);

/* Sets the provider and model (each nullable), notifying what changed. */
void akc_conversation_info_set_provider (AkcConversationInfo *self,
                                         const char          *provider_kind,
                                         const char          *provider_url,
                                         const char          *model);

G_END_DECLS
