/* akc-sqlite-schema-private.h: the history database, its schema and its
 * migrations
 *
 * SPDX-License-Identifier: MIT
 *
 * Internal to libakc (not installed, not scanned).
 */

#pragma once

#include <glib.h>
#include <sqlite3.h>

G_BEGIN_DECLS

/* `PRAGMA application_id` of a history database: "AKCH". A file with
 * another non-zero id belongs to another program and is never touched. */
#define AKC_SQLITE_APPLICATION_ID 0x414B4348

/* The schema version this code writes and reads (`PRAGMA user_version`). */
#define AKC_SQLITE_SCHEMA_VERSION 9

/* One step of the schema: the statements that take a database from
 * version - 1 to version. Steps run in order, all of them in the one
 * transaction that also sets user_version, so a database is always at one
 * version or the next, never in between. */
typedef struct
{
  int         version;
  const char *sql;
} AkcSqliteMigration;

/* The steps of the shipped schema, AKC_SQLITE_SCHEMA_VERSION of them. */
const AkcSqliteMigration *akc_sqlite_schema_get_migrations (gsize             *n_migrations);

/* Opens (creating when missing, with its folder) and prepares the history
 * at @path: checks that it is a history, refuses a newer schema, switches
 * to WAL, sets synchronous=FULL and foreign_keys=ON, and migrates to the
 * newest of @migrations. Returns NULL with an AKC_CHAT_MEMORY_ERROR on
 * failure; the file is then left as it was. */
sqlite3                  *akc_sqlite_open                  (const char               *path,
                                                            const AkcSqliteMigration *migrations,
                                                            gsize                     n_migrations,
                                                            GError                  **error);

/* Runs @migrations on @db from its user_version up to the last step, in one
 * IMMEDIATE transaction. */
gboolean                  akc_sqlite_migrate               (sqlite3                  *db,
                                                            const char               *path,
                                                            const AkcSqliteMigration *migrations,
                                                            gsize                     n_migrations,
                                                            GError                  **error);

/* Adds the SQL functions of the schema to @db: akc_derive_title (text),
 * [func@derive_conversation_title], and akc_search_text (role, content),
 * akc_message_dup_search_text(). akc_sqlite_migrate() does it before the
 * steps run. */
gboolean                  akc_sqlite_register_functions    (sqlite3                  *db,
                                                            const char               *path,
                                                            GError                  **error);

/* Sets @error from the SQLite result code @rc (and the message of @db,
 * nullable) in AKC_CHAT_MEMORY_ERROR, naming the file @path. */
void                      akc_sqlite_set_error             (GError                  **error,
                                                            sqlite3                  *db,
                                                            int                       rc,
                                                            const char               *path);

/* Executes @sql, which returns no rows. */
gboolean                  akc_sqlite_exec                  (sqlite3                  *db,
                                                            const char               *sql,
                                                            const char               *path,
                                                            GError                  **error);

/* Reads a one-integer pragma (`user_version`, `application_id`). */
gboolean                  akc_sqlite_get_int_pragma        (sqlite3                  *db,
                                                            const char               *pragma,
                                                            const char               *path,
                                                            gint64                   *value,
                                                            GError                  **error);

G_END_DECLS
