/* akc-sqlite-message-extras-private.h: what a message carries besides its
 * row: its attachments, the token usage of a reply and why its turn failed
 *
 * SPDX-License-Identifier: MIT
 *
 * Internal to libakc (not installed, not scanned).
 *
 * Side tables of the history, created idempotently when it opens (not
 * a schema version: an older release that opens the file leaves them
 * alone, and the versioned migrations stay the conversation store's):
 *
 *  message_attachments: one row per attachment of a message, `position`
 *    its place (0 … 7), `kind` `image` or `text`, `name`, `mime_type`,
 *    `data` the bytes (an image of at most 16 MiB, a text of at most
 *    1 MiB: AKC_ATTACHMENT_MAX_*), `width` and `height` of an image. At
 *    most AKC_ATTACHMENT_MAX_PER_MESSAGE per message, so a message keeps at
 *    most 8 × 16 MiB.
 *  message_usage: the tokens a reply cost, one row per reply that
 *    reported them, counts stored by bit pattern as the conversation's.
 *  message_errors: why the turn of a failed reply failed
 *    (AkcMessage:error), one row per such reply: `code` (PROVIDER_…,
 *    REPLY_CUT_OFF, …) and `message`, the sentence the chat said then
 *    (at most 512 bytes, AkcChat's bound), so the reply says the same
 *    after a restart.
 *  conversation_drafts: what the person typed in a conversation's
 *    composer and did not send (akc-sqlite-drafts.c), one row per
 *    conversation that has a draft (an empty draft is no row).
 *
 * They go with their message (a trigger on `messages`) and with their
 * conversation (ON DELETE CASCADE). A row read back is checked as a new
 * attachment is; one that does not check makes the load fail as damaged.
 */

#pragma once

#include <sqlite3.h>

#include "akc-message.h"
#include "akc-stored-message-private.h"

G_BEGIN_DECLS

gboolean akc_sqlite_message_extras_ensure (sqlite3                *db,
                                           const char             *path,
                                           GError                **error);
/* After the message's row was inserted. */
gboolean akc_sqlite_message_extras_insert (sqlite3                *db,
                                           const char             *conversation_id,
                                           const AkcStoredMessage *stored,
                                           const char             *path,
                                           GError                **error);
/* After the message's row was updated: its usage and error (attachments
 * do not change). */
gboolean akc_sqlite_message_extras_save   (sqlite3                *db,
                                           const char             *conversation_id,
                                           const AkcStoredMessage *stored,
                                           const char             *path,
                                           GError                **error);
/* Puts the stored attachments, usage and errors on @messages (AkcMessage, the
 * conversation's, in order). */
gboolean akc_sqlite_message_extras_load   (sqlite3                *db,
                                           const char             *conversation_id,
                                           GPtrArray              *messages,
                                           const char             *path,
                                           GError                **error);

G_END_DECLS
