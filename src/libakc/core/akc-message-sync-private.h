/* akc-message-sync-private.h: a list of messages kept in line with the
 * message records of successive snapshots
 *
 * SPDX-License-Identifier: MIT
 */

#pragma once

#include <gio/gio.h>

#include "akc-message-record.h"
#include "akc-tool-call.h"

G_BEGIN_DECLS

typedef struct _AkcMessageSync AkcMessageSync;

/* A #GListStore of AkcMessage plus the record each message was built from. */
AkcMessageSync *akc_message_sync_new         (void);
void            akc_message_sync_free        (AkcMessageSync  *self);

/* (transfer none) the GListStore of AkcMessage */
GListModel     *akc_message_sync_get_model   (AkcMessageSync  *self);

/* Makes the model show @records (AkcMessageRecord, in order).
 *
 *  - A message whose record is unchanged (same id, equal record) is kept:
 *    the same object, no notification.
 *  - A message with the same id, role, creation time and tool-call id whose
 *    content, status or tool calls changed is updated in place (a reply
 *    that grows gets only the new text appended).
 *  - Anything else gets a new AkcMessage.
 *
 * The model then emits one items-changed over the smallest range that
 * differs (nothing at all when every object stayed in place). */
void            akc_message_sync_apply       (AkcMessageSync  *self,
                                              GPtrArray       *records);

/* The tool call @tool_call_id of any message, or NULL (transfer none). */
AkcToolCall    *akc_message_sync_find_tool_call (AkcMessageSync *self,
                                                 const char     *tool_call_id);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (AkcMessageSync, akc_message_sync_free)

G_END_DECLS
