/* akc-sqlite-chat-memory-private.h: other tables of the history database
 *
 * SPDX-License-Identifier: MIT
 *
 * Internal to libakc (not installed, not scanned).
 */

#pragma once

#include <sqlite3.h>

#include "akc-sqlite-chat-memory.h"

G_BEGIN_DECLS

/* Runs on the history's worker thread, inside one write transaction, with
 * the connection. Returns the result, or NULL with @error set to roll the
 * transaction back. */
typedef gpointer (*AkcSqliteTransactionFunc) (sqlite3     *db,
                                              const char  *path,
                                              gpointer     data,
                                              GError     **error);

/* Queues @func after the operations already started; @data is freed with
 * @data_free once it ran, the result with @result_free if nobody takes
 * it. */
void     akc_sqlite_chat_memory_run_async  (AkcSqliteChatMemory      *self,
                                            AkcSqliteTransactionFunc  func,
                                            gpointer                  data,
                                            GDestroyNotify            data_free,
                                            GDestroyNotify            result_free,
                                            GCancellable             *cancellable,
                                            GAsyncReadyCallback       callback,
                                            gpointer                  user_data);
gpointer akc_sqlite_chat_memory_run_finish (AkcSqliteChatMemory      *self,
                                            GAsyncResult             *result,
                                            GError                  **error);

G_END_DECLS
