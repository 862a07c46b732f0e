/* akc-message-sync-private.h: a list of messages kept in line with the
 * message records of successive snapshots
 *
 * SPDX-License-Identifier: MIT
 */

#pragma once

#include <gio/gio.h>

#include "akc-message.h"
#include "akc-message-record.h"
#include "akc-tool-call.h"

G_BEGIN_DECLS

typedef struct _AkcMessageSync AkcMessageSync;

/* The empty #GListStore of AkcMessage @store (a source's state's) plus
 * the record each message was built from. */
AkcMessageSync *akc_message_sync_new         (GListStore      *store);
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

/* Edits of one message, each O(size of the change) (a hash finds the id),
 * each emitting the same minimal items-changed as a snapshot with that
 * one change would: nothing when the message object is kept, a
 * replacement of one item otherwise. */
guint           akc_message_sync_get_n_records  (AkcMessageSync   *self);
/* The position of the first message with @id, or -1. */
gint            akc_message_sync_find           (AkcMessageSync   *self,
                                                 const char       *id);
/* (transfer none) the record at @position, up to date with appended text. */
AkcMessageRecord *akc_message_sync_get_record   (AkcMessageSync   *self,
                                                 guint             position);
/* (transfer none) the message at @position. */
AkcMessage     *akc_message_sync_get_message    (AkcMessageSync   *self,
                                                 guint             position);
void            akc_message_sync_append         (AkcMessageSync   *self,
                                                 AkcMessageRecord *record);
void            akc_message_sync_replace        (AkcMessageSync   *self,
                                                 guint             position,
                                                 AkcMessageRecord *record);
/* Appends @text (valid UTF-8, @length bytes) to the content of the message
 * at @position; its record catches up when it is next asked for. */
void            akc_message_sync_append_text    (AkcMessageSync   *self,
                                                 guint             position,
                                                 const char       *text,
                                                 gsize             length);
/* The sum of the JSON values of the records (protocol.md §2.9.1 counts
 * them against the snapshot's limit). */
guint64         akc_message_sync_get_n_values   (AkcMessageSync   *self);

/* The tool call @tool_call_id of any message, or NULL (transfer none). */
AkcToolCall    *akc_message_sync_find_tool_call (AkcMessageSync *self,
                                                 const char     *tool_call_id);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (AkcMessageSync, akc_message_sync_free)

G_END_DECLS
