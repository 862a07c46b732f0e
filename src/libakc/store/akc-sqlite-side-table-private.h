/* akc-sqlite-side-table-private.h: the operations on a conversation's
 * side tables of the history database
 *
 * SPDX-License-Identifier: MIT
 *
 * Internal to libakc (not installed, not scanned).
 *
 * A conversation keeps, besides its messages, tables of its own that the
 * history reads and writes one operation at a time: its component
 * resolutions (akc-sqlite-resolutions.c) and its unsent draft
 * (akc-sqlite-drafts.c). Each public operation on them checks its
 * arguments on the calling thread, copies what its transaction needs
 * into a job and runs the transaction on the history's worker through
 * these; its finish function propagates the task's pointer or boolean.
 * (A message's attachments, usage and error are written and read with
 * the message, inside its own transaction: akc-sqlite-message-extras.c.)
 */

#pragma once

#include <gio/gio.h>

#include "akc-sqlite-chat-memory-private.h"

G_BEGIN_DECLS

/* What the transaction of an operation that returns a boolean gives
 * back (never NULL, which rolls the transaction back). */
#define AKC_SIDE_TABLE_TRUE  GINT_TO_POINTER (1)
#define AKC_SIDE_TABLE_FALSE GINT_TO_POINTER (2)

/* Whether @id is a conversation, message or instance id; FALSE with
 * AKC_CHAT_MEMORY_ERROR_INVALID otherwise. */
gboolean akc_sqlite_side_table_check_id (const char                *id,
                                         GError                   **error);

/* A task of @self for the operation @source_tag on the side tables of
 * @conversation_id; NULL when that is not a valid id, and then the
 * operation has failed (@callback is given the error). */
GTask   *akc_sqlite_side_table_task_new (AkcSqliteChatMemory       *self,
                                         const char                *conversation_id,
                                         GCancellable              *cancellable,
                                         GAsyncReadyCallback        callback,
                                         gpointer                   user_data,
                                         gpointer                   source_tag);

/* Runs @func with @job in a write transaction, after the operations of
 * the history already started, and returns its result to @task, which
 * it takes: with @result_free, the result (freed with it if nobody
 * takes it); without, a boolean, TRUE when the transaction gave back
 * AKC_SIDE_TABLE_TRUE. @job is freed with @job_free once it ran. */
void     akc_sqlite_side_table_run      (GTask                     *task,
                                         AkcSqliteTransactionFunc   func,
                                         gpointer                   job,
                                         GDestroyNotify             job_free,
                                         GDestroyNotify             result_free);

G_END_DECLS
