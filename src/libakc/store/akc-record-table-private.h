/* akc-record-table-private.h: records kept by key in the history database
 *
 * SPDX-License-Identifier: MIT
 *
 * Internal to libakc (not installed, not scanned). The one header of the
 * history's worker that the layers above store/ use (the Ask session
 * memory of net/): records go in and out as text, inside one transaction
 * on the history's worker thread, and no SQLite type crosses it.
 */

#pragma once

#include <gio/gio.h>

#include "akc-sqlite-chat-memory.h"

G_BEGIN_DECLS

/* The ask_sessions table (application §8.6), valid only inside the
 * function that received it. */
typedef struct _AkcRecordTable AkcRecordTable;

/* Gets the record under @key: TRUE with @value NULL when there is none,
 * FALSE when the database failed. */
gboolean akc_record_table_get       (AkcRecordTable  *table,
                                     const char      *key,
                                     char           **value,
                                     gsize           *length);
/* Stores @value (@length UTF-8 bytes) under @key, replacing it. */
gboolean akc_record_table_set       (AkcRecordTable  *table,
                                     const char      *key,
                                     const char      *value,
                                     gsize            length);
/* Removes the record under @key, if there is one. */
gboolean akc_record_table_remove    (AkcRecordTable  *table,
                                     const char      *key);
/* Sets @error to what the last failed call above met, in
 * AKC_CHAT_MEMORY_ERROR. */
void     akc_record_table_set_error (AkcRecordTable  *table,
                                     GError         **error);

/* Runs on the history's worker thread, inside one write transaction.
 * Returns the result, or NULL with @error set to roll it back. */
typedef gpointer (*AkcRecordTableFunc) (AkcRecordTable  *table,
                                        gpointer         data,
                                        GError         **error);

/* Queues @func after the operations already started on @memory; @data is
 * freed with @data_free once it ran, the result with @result_free if
 * nobody takes it. The callback's source object is @memory. */
void     akc_record_table_run_async  (AkcSqliteChatMemory  *memory,
                                      AkcRecordTableFunc    func,
                                      gpointer              data,
                                      GDestroyNotify        data_free,
                                      GDestroyNotify        result_free,
                                      GCancellable         *cancellable,
                                      GAsyncReadyCallback   callback,
                                      gpointer              user_data);
gpointer akc_record_table_run_finish (AkcSqliteChatMemory  *memory,
                                      GAsyncResult         *result,
                                      GError              **error);

G_END_DECLS
