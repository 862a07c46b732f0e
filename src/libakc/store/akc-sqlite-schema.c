/* akc-sqlite-schema.c: the history database, its schema and its migrations
 *
 * SPDX-License-Identifier: MIT
 */

#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <glib/gi18n-lib.h>
#include <glib/gstdio.h>

#include "akc-chat-memory.h"
#include "akc-conversation-title.h"
#include "akc-message-search-text-private.h"
#include "akc-sqlite-chat-memory.h"
#include "akc-sqlite-schema-private.h"

/* How long a statement waits for a lock held by another connection (a
 * second instance, a backup tool) before it fails with
 * AKC_CHAT_MEMORY_ERROR_BUSY. */
#define BUSY_TIMEOUT_MS 5000

/* The schema, one step per version.
 *
 * Version 1
 * ---------
 * conversations: one row per conversation. Times are microseconds since
 *   the Unix epoch, UTC. The token usage of the conversation (the
 *   [property@ChatSource:usage] it accumulated) is kept in three columns;
 *   usage counts are unsigned 64-bit and stored by bit pattern, so every
 *   value survives.
 * messages: one row per message, keyed by conversation and message id,
 *   ordered by `position` (0 … n-1 in each conversation, kept dense by
 *   every change, so a conversation's length is its last position + 1,
 *   read at the end of the (conversation_id, position) index without a
 *   scan). `role` and `status` are the wire strings
 *   (protocol §2.9.2); `content` is text bound with its byte length,
 *   U+0000 included; `tool_calls` is the JSON array of protocol §2.9.6
 *   and `lineage` the JSON object of §2.5, both written by the canonical
 *   writer, NULL when the message has none.
 *
 * Version 2
 * ---------
 * sessions: one row per session (application §4.5), for
 *   AkcSqliteSessionStorage. `snapshot` is the canonical
 *   `agentskit.chat.session` v1 text and `cursor` its cursor, kept in a
 *   column so that a save is a compare-and-set in one statement:
 *   `INSERT … ON CONFLICT DO NOTHING` (create only) or
 *   `UPDATE … WHERE session_id = ? AND cursor = ?`, sqlite3_changes()
 *   telling whether it happened. `updated_at` is microseconds since the
 *   Unix epoch, UTC. Messages stay in `messages`: a session snapshot never
 *   holds them (§4.2).
 *
 * Version 3
 * ---------
 * ask_sessions: the Ask session memory (application §8.6), one row per
 *   key of its key/value port, for AkcAskSessionMemory: `value` is the
 *   stored text as written (the canonical record
 *   `{"version":1,"messages":[…]}`, or a legacy value imported from an
 *   older client before its migration), `updated_at` microseconds since
 *   the Unix epoch, UTC.
 *
 * Version 4
 * ---------
 * component_resolutions: how each component instance of a conversation
 *   was answered (application §12.7, kept beyond the view's life so an
 *   answered card is never offered again), for AkcInteractionController:
 *   one row per instance id, `message_id` the message that shows it,
 *   `event` the resolving event (`select`, `submit`, …), `value` its value
 *   as canonical JSON (the chosen option's id of a selection) or NULL,
 *   `resolved_at` microseconds since the Unix epoch, UTC. The primary key
 *   makes the first answer win, across processes too. A resolution is read
 *   back only while its message is in the conversation (a retried or
 *   regenerated reply takes its cards with it).
 *
 * Version 5
 * ---------
 * Many conversations per assistant (issue 14). conversations gains
 *   `assistant_id`, the id of the assistant the conversation is held
 *   with (a demo id, `ask`, `provider`, …; empty when unknown), and
 *   `pinned` (0 or 1). Before version 5 each assistant had exactly one
 *   conversation, whose id named it: `demo` was Hello World's, `demo-ID`
 *   the demo ID's, and any other id (`ask`, `provider`) was its
 *   assistant's own id; each of those becomes the first conversation of
 *   its assistant, with every message, usage and time it had. A
 *   conversation without a title takes the title of its first user
 *   message (akc_derive_title, the SQL name of
 *   akc_derive_conversation_title()). Listings are ordered by pinned,
 *   then updated_at (newest first), then id, read from one index.
 *
 * Version 6
 * ---------
 * Search (issue 14): SQLite FTS5 over conversation titles and message
 *   text, kept in step by triggers, so every way a row changes (a send, a
 *   streamed checkpoint, a retry or edit that replaces messages, a
 *   rename, a delete, an import, another program's SQL) updates the index
 *   in the same transaction.
 * messages is rebuilt by copy with `seq INTEGER PRIMARY KEY`, a stable
 *   row number (an implicit rowid may change on VACUUM); (conversation_id,
 *   id) and (conversation_id, position) stay unique. message_search is an
 *   external-content FTS5 table over messages.content keyed by seq: the
 *   text is stored once, in messages.
 * conversations gains `search_id`, a stable number for its row (unique;
 *   the first free one is given by a trigger on insert), and title_search
 *   is an FTS5 table of the titles keyed by it.
 * Both use the unicode61 tokenizer without diacritics (“cafe” finds
 *   “café”) and prefix indexes of 2 and 3 characters, so a search typed
 *   word by word finds prefixes quickly. The migration indexes every
 *   existing row.
 *
 * Version 7
 * ---------
 * The model provider of a conversation (issue 15): conversations gains
 *   `provider_kind` (`openai`, `ollama`, `anthropic`), `provider_url` (its
 *   base URL) and `model`, each NULL when none was recorded (every
 *   conversation before version 7, and those not held with a model
 *   provider). Opening the conversation again asks the same model.
 *
 * Version 8
 * ---------
 * conversation_sessions: the session of a conversation kept in the
 *   history (issue 13: a restart continues a demo's conversation where it
 *   was), for AkcSqliteSessionStorage scoped to a conversation: one row per
 *   conversation and session id, the columns of `sessions`. A session id
 *   names a definition's session, not a conversation (every conversation of
 *   one demo has the demo's), so each conversation keeps its own row, and
 *   deleting the conversation deletes it (ON DELETE CASCADE): a later
 *   conversation given the same id never resumes it.
 *
 * Version 9
 * ---------
 * Search matches what a person saw (issue 14): an assistant message whose
 *   content is structured (ordered content, protocol §4, or a
 *   whole-message component frame) was indexed as its JSON, so a search
 *   for "type" or "props" found every conversation with a component and
 *   its snippet showed frame syntax. messages gains `search_text`, the
 *   text shown of such a message (its text parts and the visible text of
 *   its components, akc_message_dup_search_text(); NULL for every other
 *   message, whose content is its text), written with the message.
 *   message_text is a view of the text each message is searched by
 *   (AKC_SEARCH_TEXT_OF below), and message_search is rebuilt as an
 *   external-content FTS5 table over it, so snippets come from it too.
 *   A structured content written by another program without a
 *   search_text is not indexed (never as JSON). The migration computes
 *   search_text for every existing assistant message and re-indexes.
 *
 * Adding a version
 * ----------------
 * Append a step { N, "…" } below and bump AKC_SQLITE_SCHEMA_VERSION. A step
 * only adds (ALTER TABLE … ADD COLUMN, CREATE TABLE, CREATE INDEX) or
 * rebuilds a table by copy (CREATE new, INSERT … SELECT, DROP, RENAME),
 * never edits shipped steps: a database at version k runs steps k+1 … N in
 * one transaction, and older code refuses it (AKC_CHAT_MEMORY_ERROR_NEWER_VERSION)
 * instead of misreading it.
 */
/* The text a row of messages is searched by (version 9): its search_text,
 * else nothing for a structured content (the rule of
 * akc_message_content_is_structured()), else its content. */
#define AKC_SEARCH_TEXT_OF(row) \
  "CASE WHEN " row ".search_text IS NOT NULL THEN " row ".search_text" \
  "  WHEN " row ".role = 'assistant' AND (substr (" row ".content, 1, 1) = char (30)" \
  "    OR substr (ltrim (" row ".content, char (32, 9, 10, 13)), 1, 1) = '{') THEN ''" \
  "  ELSE " row ".content END"

static const AkcSqliteMigration migrations[] = {
  { 1,
    "CREATE TABLE conversations ("
    "  id                TEXT    NOT NULL PRIMARY KEY,"
    "  title             TEXT    NOT NULL DEFAULT '',"
    "  created_at        INTEGER NOT NULL,"
    "  updated_at        INTEGER NOT NULL,"
    "  prompt_tokens     INTEGER NOT NULL DEFAULT 0,"
    "  completion_tokens INTEGER NOT NULL DEFAULT 0,"
    "  total_tokens      INTEGER NOT NULL DEFAULT 0"
    ");"
    "CREATE INDEX conversations_by_update ON conversations (updated_at DESC, id);"
    "CREATE TABLE messages ("
    "  conversation_id TEXT    NOT NULL REFERENCES conversations (id) ON DELETE CASCADE,"
    "  position        INTEGER NOT NULL,"
    "  id              TEXT    NOT NULL,"
    "  role            TEXT    NOT NULL,"
    "  status          TEXT    NOT NULL,"
    "  stopped         INTEGER NOT NULL DEFAULT 0,"
    "  content         TEXT    NOT NULL,"
    "  created_at      INTEGER NOT NULL,"
    "  tool_call_id    TEXT,"
    "  tool_calls      TEXT,"
    "  lineage         TEXT,"
    "  PRIMARY KEY (conversation_id, id),"
    "  UNIQUE (conversation_id, position)"
    ");" },
  { 2,
    "CREATE TABLE sessions ("
    "  session_id TEXT    NOT NULL PRIMARY KEY,"
    "  cursor     INTEGER NOT NULL,"
    "  snapshot   TEXT    NOT NULL,"
    "  updated_at INTEGER NOT NULL"
    ");" },
  { 3,
    "CREATE TABLE ask_sessions ("
    "  key        TEXT    NOT NULL PRIMARY KEY,"
    "  value      TEXT    NOT NULL,"
    "  updated_at INTEGER NOT NULL"
    ");" },
  { 4,
    "CREATE TABLE component_resolutions ("
    "  conversation_id TEXT    NOT NULL REFERENCES conversations (id) ON DELETE CASCADE,"
    "  instance_id     TEXT    NOT NULL,"
    "  message_id      TEXT    NOT NULL,"
    "  event           TEXT    NOT NULL,"
    "  value           TEXT,"
    "  resolved_at     INTEGER NOT NULL,"
    "  PRIMARY KEY (conversation_id, instance_id)"
    ");" },
  { 5,
    "ALTER TABLE conversations ADD COLUMN assistant_id TEXT NOT NULL DEFAULT '';"
    "ALTER TABLE conversations ADD COLUMN pinned INTEGER NOT NULL DEFAULT 0;"
    "UPDATE conversations SET assistant_id = CASE"
    "  WHEN id = 'demo' THEN 'hello-world'"
    "  WHEN substr (id, 1, 5) = 'demo-' AND length (id) > 5 THEN substr (id, 6)"
    "  ELSE id END;"
    "UPDATE conversations SET title = coalesce ("
    "    (SELECT akc_derive_title (m.content) FROM messages m"
    "      WHERE m.conversation_id = conversations.id AND m.role = 'user'"
    "      ORDER BY m.position LIMIT 1), '')"
    "  WHERE title = '';"
    "DROP INDEX conversations_by_update;"
    "CREATE INDEX conversations_by_list ON conversations (pinned DESC, updated_at DESC, id);"
    "CREATE INDEX conversations_by_assistant ON conversations (assistant_id, updated_at DESC);" },
  { 6,
    "CREATE TABLE messages_v6 ("
    "  seq             INTEGER PRIMARY KEY,"
    "  conversation_id TEXT    NOT NULL REFERENCES conversations (id) ON DELETE CASCADE,"
    "  position        INTEGER NOT NULL,"
    "  id              TEXT    NOT NULL,"
    "  role            TEXT    NOT NULL,"
    "  status          TEXT    NOT NULL,"
    "  stopped         INTEGER NOT NULL DEFAULT 0,"
    "  content         TEXT    NOT NULL,"
    "  created_at      INTEGER NOT NULL,"
    "  tool_call_id    TEXT,"
    "  tool_calls      TEXT,"
    "  lineage         TEXT,"
    "  UNIQUE (conversation_id, id),"
    "  UNIQUE (conversation_id, position)"
    ");"
    "INSERT INTO messages_v6 (conversation_id, position, id, role, status, stopped, content, created_at,"
    "                         tool_call_id, tool_calls, lineage)"
    "  SELECT conversation_id, position, id, role, status, stopped, content, created_at,"
    "         tool_call_id, tool_calls, lineage"
    "    FROM messages ORDER BY conversation_id, position;"
    "DROP TABLE messages;"
    "ALTER TABLE messages_v6 RENAME TO messages;"
    "CREATE VIRTUAL TABLE message_search USING fts5 ("
    "  content, content = 'messages', content_rowid = 'seq',"
    "  tokenize = 'unicode61 remove_diacritics 2', prefix = '2 3');"
    "INSERT INTO message_search (message_search) VALUES ('rebuild');"
    "CREATE TRIGGER messages_search_insert AFTER INSERT ON messages BEGIN"
    "  INSERT INTO message_search (rowid, content) VALUES (new.seq, new.content);"
    "END;"
    "CREATE TRIGGER messages_search_delete AFTER DELETE ON messages BEGIN"
    "  INSERT INTO message_search (message_search, rowid, content) VALUES ('delete', old.seq, old.content);"
    "END;"
    "CREATE TRIGGER messages_search_update AFTER UPDATE OF content ON messages"
    "  WHEN old.content IS NOT new.content BEGIN"
    "  INSERT INTO message_search (message_search, rowid, content) VALUES ('delete', old.seq, old.content);"
    "  INSERT INTO message_search (rowid, content) VALUES (new.seq, new.content);"
    "END;"
    "ALTER TABLE conversations ADD COLUMN search_id INTEGER;"
    "UPDATE conversations SET search_id = rowid;"
    "CREATE UNIQUE INDEX conversations_by_search_id ON conversations (search_id);"
    "CREATE VIRTUAL TABLE title_search USING fts5 ("
    "  title, tokenize = 'unicode61 remove_diacritics 2', prefix = '2 3');"
    "INSERT INTO title_search (rowid, title) SELECT search_id, title FROM conversations;"
    "CREATE TRIGGER conversations_search_insert AFTER INSERT ON conversations BEGIN"
    "  UPDATE conversations SET search_id = (SELECT coalesce (max (search_id), 0) + 1 FROM conversations)"
    "    WHERE id = new.id AND search_id IS NULL;"
    "  INSERT INTO title_search (rowid, title) SELECT search_id, title FROM conversations WHERE id = new.id;"
    "END;"
    "CREATE TRIGGER conversations_search_rename AFTER UPDATE OF title ON conversations"
    "  WHEN old.title IS NOT new.title BEGIN"
    "  DELETE FROM title_search WHERE rowid = old.search_id;"
    "  INSERT INTO title_search (rowid, title) VALUES (new.search_id, new.title);"
    "END;"
    "CREATE TRIGGER conversations_search_delete AFTER DELETE ON conversations BEGIN"
    "  DELETE FROM title_search WHERE rowid = old.search_id;"
    "END;" },
  { 7,
    "ALTER TABLE conversations ADD COLUMN provider_kind TEXT;"
    "ALTER TABLE conversations ADD COLUMN provider_url TEXT;"
    "ALTER TABLE conversations ADD COLUMN model TEXT;" },
  { 8,
    "CREATE TABLE conversation_sessions ("
    "  conversation_id TEXT    NOT NULL REFERENCES conversations (id) ON DELETE CASCADE,"
    "  session_id      TEXT    NOT NULL,"
    "  cursor          INTEGER NOT NULL,"
    "  snapshot        TEXT    NOT NULL,"
    "  updated_at      INTEGER NOT NULL,"
    "  PRIMARY KEY (conversation_id, session_id)"
    ");" },
  { 9,
    "ALTER TABLE messages ADD COLUMN search_text TEXT;"
    "UPDATE messages SET search_text = akc_search_text (role, content) WHERE role = 'assistant';"
    "DROP TRIGGER messages_search_insert;"
    "DROP TRIGGER messages_search_delete;"
    "DROP TRIGGER messages_search_update;"
    "DROP TABLE message_search;"
    "CREATE VIEW message_text (seq, text) AS SELECT m.seq, " AKC_SEARCH_TEXT_OF ("m") " FROM messages m;"
    "CREATE VIRTUAL TABLE message_search USING fts5 ("
    "  text, content = 'message_text', content_rowid = 'seq',"
    "  tokenize = 'unicode61 remove_diacritics 2', prefix = '2 3');"
    "INSERT INTO message_search (message_search) VALUES ('rebuild');"
    "CREATE TRIGGER messages_search_insert AFTER INSERT ON messages BEGIN"
    "  INSERT INTO message_search (rowid, text) VALUES (new.seq, " AKC_SEARCH_TEXT_OF ("new") ");"
    "END;"
    "CREATE TRIGGER messages_search_delete AFTER DELETE ON messages BEGIN"
    "  INSERT INTO message_search (message_search, rowid, text)"
    "    VALUES ('delete', old.seq, " AKC_SEARCH_TEXT_OF ("old") ");"
    "END;"
    "CREATE TRIGGER messages_search_update AFTER UPDATE OF role, content, search_text ON messages"
    "  WHEN (" AKC_SEARCH_TEXT_OF ("old") ") IS NOT (" AKC_SEARCH_TEXT_OF ("new") ") BEGIN"
    "  INSERT INTO message_search (message_search, rowid, text)"
    "    VALUES ('delete', old.seq, " AKC_SEARCH_TEXT_OF ("old") ");"
    "  INSERT INTO message_search (rowid, text) VALUES (new.seq, " AKC_SEARCH_TEXT_OF ("new") ");"
    "END;" },
};

G_STATIC_ASSERT (G_N_ELEMENTS (migrations) == AKC_SQLITE_SCHEMA_VERSION);

const AkcSqliteMigration *
akc_sqlite_schema_get_migrations (gsize *n_migrations)
{
  *n_migrations = G_N_ELEMENTS (migrations);
  return migrations;
}

void
akc_sqlite_set_error (GError     **error,
                      sqlite3     *db,
                      int          rc,
                      const char  *path)
{
  g_autofree char *name = g_filename_display_name (path);
  const char *detail = db != NULL ? sqlite3_errmsg (db) : sqlite3_errstr (rc);

  switch (rc & 0xff)
    {
    case SQLITE_CORRUPT:
    case SQLITE_NOTADB:
      g_set_error (error, AKC_CHAT_MEMORY_ERROR, AKC_CHAT_MEMORY_ERROR_CORRUPT,
                   _("The history “%s” is damaged (%s)."), name, sqlite3_errstr (rc));
      break;

    case SQLITE_BUSY:
    case SQLITE_LOCKED:
      g_set_error (error, AKC_CHAT_MEMORY_ERROR, AKC_CHAT_MEMORY_ERROR_BUSY,
                   _("The history “%s” is in use by another program."), name);
      break;

    case SQLITE_FULL:
      g_set_error (error, AKC_CHAT_MEMORY_ERROR, AKC_CHAT_MEMORY_ERROR_FAILED,
                   _("The disk that holds the history “%s” is full."), name);
      break;

    case SQLITE_CANTOPEN:
    case SQLITE_PERM:
    case SQLITE_READONLY:
    case SQLITE_AUTH:
      g_set_error (error, AKC_CHAT_MEMORY_ERROR, AKC_CHAT_MEMORY_ERROR_FAILED,
                   _("The history “%s” cannot be opened for writing (%s)."), name, detail);
      break;

    default:
      g_set_error (error, AKC_CHAT_MEMORY_ERROR, AKC_CHAT_MEMORY_ERROR_FAILED,
                   _("The history “%s” could not be read or written (%s)."), name, detail);
      break;
    }
}

gboolean
akc_sqlite_exec (sqlite3     *db,
                 const char  *sql,
                 const char  *path,
                 GError     **error)
{
  int rc = sqlite3_exec (db, sql, NULL, NULL, NULL);

  if (rc != SQLITE_OK)
    {
      akc_sqlite_set_error (error, db, rc, path);
      return FALSE;
    }

  return TRUE;
}

gboolean
akc_sqlite_get_int_pragma (sqlite3     *db,
                           const char  *pragma,
                           const char  *path,
                           gint64      *value,
                           GError     **error)
{
  g_autofree char *sql = g_strdup_printf ("PRAGMA %s", pragma);
  sqlite3_stmt *stmt = NULL;
  int rc;

  rc = sqlite3_prepare_v2 (db, sql, -1, &stmt, NULL);
  if (rc == SQLITE_OK)
    rc = sqlite3_step (stmt);

  if (rc == SQLITE_ROW)
    {
      *value = sqlite3_column_int64 (stmt, 0);
      sqlite3_finalize (stmt);
      return TRUE;
    }

  akc_sqlite_set_error (error, db, rc == SQLITE_DONE ? SQLITE_CORRUPT : rc, path);
  sqlite3_finalize (stmt);
  return FALSE;
}

static gboolean
set_newer_version_error (GError     **error,
                         const char  *path,
                         gint64       version,
                         int          known)
{
  g_autofree char *name = g_filename_display_name (path);
  g_autofree char *format = g_strdup_printf ("%" G_GINT64_FORMAT, version);

  g_set_error (error, AKC_CHAT_MEMORY_ERROR, AKC_CHAT_MEMORY_ERROR_NEWER_VERSION,
               /* Translators: the first %s is a file, the second the format
                * number of the file, %d the newest format this version reads. */
               _("The history “%s” was written by a newer version of AgentsKit Chat "
                 "(format %s, this version reads up to %d). It was left unchanged."),
               name, format, known);
  return FALSE;
}

static gboolean
set_foreign_error (GError     **error,
                   const char  *path)
{
  g_autofree char *name = g_filename_display_name (path);

  g_set_error (error, AKC_CHAT_MEMORY_ERROR, AKC_CHAT_MEMORY_ERROR_CORRUPT,
               _("The file “%s” is a database of another program, not an AgentsKit Chat history. "
                 "It was left unchanged."),
               name);
  return FALSE;
}

/* A database that is not ours: another program's application id, or a
 * version-0 database that already has tables. */
static gboolean
check_ours (sqlite3     *db,
            const char  *path,
            gint64       version,
            GError     **error)
{
  gint64 application_id = 0;
  gint64 n_tables = 0;
  sqlite3_stmt *stmt = NULL;
  int rc;

  if (!akc_sqlite_get_int_pragma (db, "application_id", path, &application_id, error))
    return FALSE;

  if (application_id != 0 && application_id != AKC_SQLITE_APPLICATION_ID)
    return set_foreign_error (error, path);

  if (version < 0)
    return set_foreign_error (error, path);

  if (version != 0)
    return TRUE;

  rc = sqlite3_prepare_v2 (db, "SELECT count(*) FROM sqlite_schema", -1, &stmt, NULL);
  if (rc == SQLITE_OK)
    rc = sqlite3_step (stmt);
  if (rc == SQLITE_ROW)
    n_tables = sqlite3_column_int64 (stmt, 0);
  sqlite3_finalize (stmt);

  if (rc != SQLITE_ROW)
    {
      akc_sqlite_set_error (error, db, rc, path);
      return FALSE;
    }

  if (n_tables > 0)
    return set_foreign_error (error, path);

  return TRUE;
}

static void
derive_title_function (sqlite3_context  *context,
                       int               n_values,
                       sqlite3_value   **values)
{
  const char *text;
  char *title;

  if (sqlite3_value_type (values[0]) == SQLITE_NULL)
    {
      sqlite3_result_null (context);
      return;
    }

  text = (const char *) sqlite3_value_text (values[0]);
  title = akc_derive_conversation_title (text, sqlite3_value_bytes (values[0]));
  sqlite3_result_text (context, title, -1, g_free);
}

static void
search_text_function (sqlite3_context  *context,
                      int               n_values,
                      sqlite3_value   **values)
{
  const char *role, *content;
  char *text;

  if (sqlite3_value_type (values[0]) == SQLITE_NULL || sqlite3_value_type (values[1]) == SQLITE_NULL)
    {
      sqlite3_result_null (context);
      return;
    }

  role = (const char *) sqlite3_value_text (values[0]);
  content = (const char *) sqlite3_value_text (values[1]);
  text = akc_message_dup_search_text (role, content, sqlite3_value_bytes (values[1]));
  if (text == NULL)
    sqlite3_result_null (context);
  else
    sqlite3_result_text (context, text, -1, g_free);
}

gboolean
akc_sqlite_register_functions (sqlite3     *db,
                               const char  *path,
                               GError     **error)
{
  int rc = sqlite3_create_function_v2 (db, "akc_derive_title", 1,
                                       SQLITE_UTF8 | SQLITE_DETERMINISTIC | SQLITE_INNOCUOUS,
                                       NULL, derive_title_function, NULL, NULL, NULL);

  if (rc == SQLITE_OK)
    rc = sqlite3_create_function_v2 (db, "akc_search_text", 2,
                                     SQLITE_UTF8 | SQLITE_DETERMINISTIC | SQLITE_INNOCUOUS,
                                     NULL, search_text_function, NULL, NULL, NULL);

  if (rc != SQLITE_OK)
    {
      akc_sqlite_set_error (error, db, rc, path);
      return FALSE;
    }

  return TRUE;
}

gboolean
akc_sqlite_migrate (sqlite3                   *db,
                    const char                *path,
                    const AkcSqliteMigration  *steps,
                    gsize                      n_steps,
                    GError                   **error)
{
  int latest = n_steps > 0 ? steps[n_steps - 1].version : 0;
  gint64 version = 0;

  if (!akc_sqlite_register_functions (db, path, error))
    return FALSE;

  /* IMMEDIATE takes the write lock first, so two programs opening the same
   * new history cannot both create it. */
  if (!akc_sqlite_exec (db, "BEGIN IMMEDIATE", path, error))
    return FALSE;

  if (!akc_sqlite_get_int_pragma (db, "user_version", path, &version, error))
    goto rollback;

  if (version > latest)
    {
      set_newer_version_error (error, path, version, latest);
      goto rollback;
    }

  if (!check_ours (db, path, version, error))
    goto rollback;

  if (version == latest)
    return akc_sqlite_exec (db, "COMMIT", path, error);

  for (gsize i = 0; i < n_steps; i++)
    {
      g_autofree char *set_version = NULL;

      g_assert (steps[i].version == (int) i + 1);

      if (steps[i].version <= version)
        continue;

      if (!akc_sqlite_exec (db, steps[i].sql, path, error))
        goto rollback;

      set_version = g_strdup_printf ("PRAGMA user_version = %d", steps[i].version);
      if (!akc_sqlite_exec (db, set_version, path, error))
        goto rollback;
    }

  if (version == 0)
    {
      g_autofree char *set_id = g_strdup_printf ("PRAGMA application_id = %d", AKC_SQLITE_APPLICATION_ID);

      if (!akc_sqlite_exec (db, set_id, path, error))
        goto rollback;
    }

  return akc_sqlite_exec (db, "COMMIT", path, error);

rollback:
  sqlite3_exec (db, "ROLLBACK", NULL, NULL, NULL);
  return FALSE;
}

static gboolean
ensure_folder (const char  *path,
               GError     **error)
{
  g_autofree char *folder = g_path_get_dirname (path);

  g_autofree char *default_path = akc_sqlite_chat_memory_dup_default_path ();
  g_autofree char *default_folder = g_path_get_dirname (default_path);
  GStatBuf st;

  if (g_mkdir_with_parents (folder, 0700) != 0)
    {
      int saved_errno = errno;
      g_autofree char *name = g_filename_display_name (folder);

      g_set_error (error, AKC_CHAT_MEMORY_ERROR, AKC_CHAT_MEMORY_ERROR_FAILED,
                   _("The folder “%s” for the history cannot be created (%s)."),
                   name, g_strerror (saved_errno));
      return FALSE;
    }

  /* The application's own data folder is private, also when an earlier
   * version or another program made it readable by others; a folder the
   * person chose keeps its mode. */
  if (g_strcmp0 (folder, default_folder) == 0 && g_stat (folder, &st) == 0 && (st.st_mode & 077) != 0)
    g_chmod (folder, st.st_mode & 0700);

  return TRUE;
}

/* The history and its write-ahead log and index are private to the
 * user (0600), whatever the umask: the file is created before SQLite
 * opens it, which gives its journal files the database's mode, and an
 * existing one that others could read is tightened. Failures are left to
 * sqlite3_open_v2(), which reports them. */
static void
make_private (const char *path)
{
  const char *suffixes[] = { "", "-wal", "-shm", "-journal" };

  for (guint i = 0; i < G_N_ELEMENTS (suffixes); i++)
    {
      g_autofree char *file = g_strconcat (path, suffixes[i], NULL);
      int fd = i == 0 ? g_open (file, O_RDWR | O_CREAT | O_CLOEXEC | O_NOCTTY | O_NONBLOCK, 0600)
                      : g_open (file, O_RDWR | O_CLOEXEC | O_NOCTTY | O_NONBLOCK, 0);
      struct stat st;

      if (fd < 0)
        continue;
      if (fstat (fd, &st) == 0 && S_ISREG (st.st_mode) && (st.st_mode & 077) != 0)
        {
          if (fchmod (fd, st.st_mode & 0700) != 0)
            {
              /* Not ours to change: SQLite still opens it. */
            }
        }
      close (fd);
    }
}

static gboolean
use_wal (sqlite3     *db,
         const char  *path,
         GError     **error)
{
  sqlite3_stmt *stmt = NULL;
  gboolean is_wal = FALSE;
  int rc;

  rc = sqlite3_prepare_v2 (db, "PRAGMA journal_mode = WAL", -1, &stmt, NULL);
  if (rc == SQLITE_OK)
    rc = sqlite3_step (stmt);
  if (rc == SQLITE_ROW)
    is_wal = g_ascii_strcasecmp ((const char *) sqlite3_column_text (stmt, 0), "wal") == 0;
  sqlite3_finalize (stmt);

  if (rc != SQLITE_ROW)
    {
      akc_sqlite_set_error (error, db, rc, path);
      return FALSE;
    }

  if (!is_wal)
    {
      g_autofree char *name = g_filename_display_name (path);

      g_set_error (error, AKC_CHAT_MEMORY_ERROR, AKC_CHAT_MEMORY_ERROR_FAILED,
                   _("The history “%s” cannot use write-ahead logging on this file system."), name);
      return FALSE;
    }

  return TRUE;
}

sqlite3 *
akc_sqlite_open (const char                *path,
                 const AkcSqliteMigration  *steps,
                 gsize                      n_steps,
                 GError                   **error)
{
  sqlite3 *db = NULL;
  gint64 version = 0;
  int latest = n_steps > 0 ? steps[n_steps - 1].version : 0;
  int rc;

  g_assert (path != NULL);

  if (!ensure_folder (path, error))
    return NULL;

  make_private (path);

  /* One connection per history object, used by its worker thread only. */
  rc = sqlite3_open_v2 (path, &db,
                        SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX,
                        NULL);
  if (rc != SQLITE_OK)
    {
      akc_sqlite_set_error (error, db, rc, path);
      sqlite3_close (db);
      return NULL;
    }

  sqlite3_extended_result_codes (db, 1);
  sqlite3_busy_timeout (db, BUSY_TIMEOUT_MS);

  /* The first read of the file: a file that is not a database fails here,
   * before anything is written to it. A newer schema is refused before
   * anything is written too. */
  if (!akc_sqlite_get_int_pragma (db, "user_version", path, &version, error))
    goto fail;
  if (version > latest)
    {
      set_newer_version_error (error, path, version, latest);
      goto fail;
    }
  if (!check_ours (db, path, version, error))
    goto fail;

  /* Write-ahead logging: a commit appends to the log and never rewrites
   * the database in place, so a process killed at any moment leaves the
   * last committed state, and readers never wait for the streaming
   * writer.
   *
   * synchronous=FULL: each commit is fsync()ed before it is reported. A
   * kill -9 would lose nothing with NORMAL either (the log is written
   * before COMMIT returns; only the fsync is deferred), but with NORMAL a
   * power cut or a kernel crash may drop the last commits, and a message
   * reported as saved must stay saved. The cost, one fsync per commit on
   * the worker thread, is small at our rate: one commit per message
   * change plus at most one per checkpoint interval while a reply streams
   * (AkcChatHistory:checkpoint-interval). */
  if (!use_wal (db, path, error) ||
      !akc_sqlite_exec (db, "PRAGMA synchronous = FULL", path, error) ||
      !akc_sqlite_exec (db, "PRAGMA foreign_keys = ON", path, error) ||
      !akc_sqlite_migrate (db, path, steps, n_steps, error))
    goto fail;

  return db;

fail:
  sqlite3_close (db);
  return NULL;
}
