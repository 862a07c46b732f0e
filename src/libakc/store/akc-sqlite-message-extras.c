/* akc-sqlite-message-extras.c: what a message carries besides its row:
 * its attachments, the token usage of a reply and why its turn failed
 *
 * SPDX-License-Identifier: MIT
 */

#include "config.h"

#include <string.h>

#include <glib/gi18n-lib.h>

#include "akc-chat-memory.h"
#include "akc-sqlite-message-extras-private.h"
#include "akc-sqlite-schema-private.h"

static const char ensure_sql[] =
  "CREATE TABLE IF NOT EXISTS message_attachments ("
  "  conversation_id TEXT    NOT NULL REFERENCES conversations (id) ON DELETE CASCADE,"
  "  message_id      TEXT    NOT NULL,"
  "  position        INTEGER NOT NULL,"
  "  kind            TEXT    NOT NULL,"
  "  name            TEXT    NOT NULL,"
  "  mime_type       TEXT    NOT NULL,"
  "  data            BLOB    NOT NULL,"
  "  width           INTEGER NOT NULL DEFAULT 0,"
  "  height          INTEGER NOT NULL DEFAULT 0,"
  "  PRIMARY KEY (conversation_id, message_id, position)"
  ");"
  "CREATE TABLE IF NOT EXISTS message_usage ("
  "  conversation_id   TEXT    NOT NULL REFERENCES conversations (id) ON DELETE CASCADE,"
  "  message_id        TEXT    NOT NULL,"
  "  prompt_tokens     INTEGER NOT NULL,"
  "  completion_tokens INTEGER NOT NULL,"
  "  total_tokens      INTEGER NOT NULL,"
  "  PRIMARY KEY (conversation_id, message_id)"
  ");"
  "CREATE TRIGGER IF NOT EXISTS message_extras_go_with_message AFTER DELETE ON messages BEGIN"
  "  DELETE FROM message_attachments WHERE conversation_id = old.conversation_id AND message_id = old.id;"
  "  DELETE FROM message_usage WHERE conversation_id = old.conversation_id AND message_id = old.id;"
  "END;"
  /* Added after the two above: a file that has them gets this one, with
   * a trigger of its own. */
  "CREATE TABLE IF NOT EXISTS message_errors ("
  "  conversation_id TEXT    NOT NULL REFERENCES conversations (id) ON DELETE CASCADE,"
  "  message_id      TEXT    NOT NULL,"
  "  code            TEXT    NOT NULL,"
  "  message         TEXT    NOT NULL,"
  "  PRIMARY KEY (conversation_id, message_id)"
  ");"
  "CREATE TRIGGER IF NOT EXISTS message_errors_go_with_message AFTER DELETE ON messages BEGIN"
  "  DELETE FROM message_errors WHERE conversation_id = old.conversation_id AND message_id = old.id;"
  "END;"
  /* Added later still, the same way: the unsent draft of a conversation
   * (akc-sqlite-drafts.c), one row per conversation that has one. */
  "CREATE TABLE IF NOT EXISTS conversation_drafts ("
  "  conversation_id TEXT    NOT NULL PRIMARY KEY REFERENCES conversations (id) ON DELETE CASCADE,"
  "  text            TEXT    NOT NULL,"
  "  updated_at      INTEGER NOT NULL"
  ");";

gboolean
akc_sqlite_message_extras_ensure (sqlite3     *db,
                                  const char  *path,
                                  GError     **error)
{
  return akc_sqlite_exec (db, ensure_sql, path, error);
}

static sqlite3_stmt *
prepare (sqlite3     *db,
         const char  *sql,
         const char  *path,
         GError     **error)
{
  sqlite3_stmt *stmt = NULL;
  int rc = sqlite3_prepare_v2 (db, sql, -1, &stmt, NULL);

  if (rc != SQLITE_OK)
    {
      akc_sqlite_set_error (error, db, rc, path);
      return NULL;
    }
  return stmt;
}

static gboolean
step_done (sqlite3      *db,
           sqlite3_stmt *stmt,
           const char   *path,
           GError      **error)
{
  int rc = sqlite3_step (stmt);

  if (rc != SQLITE_DONE)
    {
      akc_sqlite_set_error (error, db, rc, path);
      return FALSE;
    }
  return TRUE;
}

static gboolean
write_usage (sqlite3                *db,
             const char             *conversation_id,
             const AkcStoredMessage *stored,
             const char             *path,
             GError                **error)
{
  sqlite3_stmt *stmt;
  gboolean ok;

  if (!stored->has_usage)
    return TRUE;

  stmt = prepare (db,
                  "INSERT INTO message_usage (conversation_id, message_id, prompt_tokens, completion_tokens, total_tokens)"
                  "  VALUES (?1, ?2, ?3, ?4, ?5)"
                  "  ON CONFLICT (conversation_id, message_id) DO UPDATE SET prompt_tokens = ?3,"
                  "    completion_tokens = ?4, total_tokens = ?5",
                  path, error);
  if (stmt == NULL)
    return FALSE;
  sqlite3_bind_text (stmt, 1, conversation_id, -1, SQLITE_STATIC);
  sqlite3_bind_text (stmt, 2, stored->id, -1, SQLITE_STATIC);
  sqlite3_bind_int64 (stmt, 3, (sqlite3_int64) stored->usage.prompt_tokens);
  sqlite3_bind_int64 (stmt, 4, (sqlite3_int64) stored->usage.completion_tokens);
  sqlite3_bind_int64 (stmt, 5, (sqlite3_int64) stored->usage.total_tokens);
  ok = step_done (db, stmt, path, error);
  sqlite3_finalize (stmt);

  return ok;
}

/* Why the message's turn failed: written when it has an error, gone when
 * it has none. */
static gboolean
write_error (sqlite3                *db,
             const char             *conversation_id,
             const AkcStoredMessage *stored,
             const char             *path,
             GError                **error)
{
  sqlite3_stmt *stmt;
  gboolean ok;

  if (stored->error_code != NULL)
    stmt = prepare (db,
                    "INSERT INTO message_errors (conversation_id, message_id, code, message) VALUES (?1, ?2, ?3, ?4)"
                    "  ON CONFLICT (conversation_id, message_id) DO UPDATE SET code = ?3, message = ?4",
                    path, error);
  else
    stmt = prepare (db, "DELETE FROM message_errors WHERE conversation_id = ?1 AND message_id = ?2", path, error);
  if (stmt == NULL)
    return FALSE;
  sqlite3_bind_text (stmt, 1, conversation_id, -1, SQLITE_STATIC);
  sqlite3_bind_text (stmt, 2, stored->id, -1, SQLITE_STATIC);
  if (stored->error_code != NULL)
    {
      sqlite3_bind_text (stmt, 3, stored->error_code, -1, SQLITE_STATIC);
      sqlite3_bind_text (stmt, 4, stored->error_message != NULL ? stored->error_message : "", -1, SQLITE_STATIC);
    }
  ok = step_done (db, stmt, path, error);
  sqlite3_finalize (stmt);

  return ok;
}

gboolean
akc_sqlite_message_extras_insert (sqlite3                *db,
                                  const char             *conversation_id,
                                  const AkcStoredMessage *stored,
                                  const char             *path,
                                  GError                **error)
{
  sqlite3_stmt *stmt = NULL;

  if (stored->attachments != NULL && stored->attachments->len > 0)
    {
      stmt = prepare (db,
                      "INSERT OR REPLACE INTO message_attachments (conversation_id, message_id, position, kind, name,"
                      "                                 mime_type, data, width, height)"
                      "  VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)",
                      path, error);
      if (stmt == NULL)
        return FALSE;
    }

  for (guint i = 0; stmt != NULL && i < stored->attachments->len; i++)
    {
      AkcAttachment *attachment = g_ptr_array_index (stored->attachments, i);
      gsize length;
      const void *data = g_bytes_get_data (akc_attachment_get_data (attachment), &length);

      sqlite3_reset (stmt);
      sqlite3_bind_text (stmt, 1, conversation_id, -1, SQLITE_STATIC);
      sqlite3_bind_text (stmt, 2, stored->id, -1, SQLITE_STATIC);
      sqlite3_bind_int (stmt, 3, (int) i);
      sqlite3_bind_text (stmt, 4, akc_attachment_get_kind (attachment) == AKC_ATTACHMENT_KIND_IMAGE ? "image" : "text",
                         -1, SQLITE_STATIC);
      sqlite3_bind_text (stmt, 5, akc_attachment_get_name (attachment), -1, SQLITE_STATIC);
      sqlite3_bind_text (stmt, 6, akc_attachment_get_mime_type (attachment), -1, SQLITE_STATIC);
      /* A zero-length blob is still a blob, never NULL. */
      sqlite3_bind_blob64 (stmt, 7, length > 0 ? data : "", length, SQLITE_STATIC);
      sqlite3_bind_int (stmt, 8, (int) akc_attachment_get_width (attachment));
      sqlite3_bind_int (stmt, 9, (int) akc_attachment_get_height (attachment));
      if (!step_done (db, stmt, path, error))
        {
          sqlite3_finalize (stmt);
          return FALSE;
        }
    }
  g_clear_pointer (&stmt, sqlite3_finalize);

  return write_usage (db, conversation_id, stored, path, error) &&
         (stored->error_code == NULL || write_error (db, conversation_id, stored, path, error));
}

gboolean
akc_sqlite_message_extras_save (sqlite3                *db,
                                const char             *conversation_id,
                                const AkcStoredMessage *stored,
                                const char             *path,
                                GError                **error)
{
  return write_usage (db, conversation_id, stored, path, error) &&
         write_error (db, conversation_id, stored, path, error);
}

static gboolean
damaged (GError     **error,
         const char  *path)
{
  g_autofree char *name = g_filename_display_name (path);

  g_set_error (error, AKC_CHAT_MEMORY_ERROR, AKC_CHAT_MEMORY_ERROR_CORRUPT,
               _("The history “%s” is damaged (an attachment does not read back)."), name);
  return FALSE;
}

gboolean
akc_sqlite_message_extras_load (sqlite3     *db,
                                const char  *conversation_id,
                                GPtrArray   *messages,
                                const char  *path,
                                GError     **error)
{
  g_autoptr(GHashTable) by_id = g_hash_table_new (g_str_hash, g_str_equal);
  sqlite3_stmt *stmt;
  int rc;

  for (guint i = 0; i < messages->len; i++)
    {
      AkcMessage *message = g_ptr_array_index (messages, i);

      g_hash_table_insert (by_id, (gpointer) akc_message_get_id (message), message);
    }

  stmt = prepare (db,
                  "SELECT message_id, kind, name, data FROM message_attachments"
                  "  WHERE conversation_id = ?1 ORDER BY message_id, position",
                  path, error);
  if (stmt == NULL)
    return FALSE;
  sqlite3_bind_text (stmt, 1, conversation_id, -1, SQLITE_STATIC);
  while ((rc = sqlite3_step (stmt)) == SQLITE_ROW)
    {
      const char *id = (const char *) sqlite3_column_text (stmt, 0);
      const char *kind = (const char *) sqlite3_column_text (stmt, 1);
      const char *name = (const char *) sqlite3_column_text (stmt, 2);
      AkcMessage *message = id != NULL ? g_hash_table_lookup (by_id, id) : NULL;
      g_autoptr(GBytes) data = NULL;
      g_autoptr(AkcAttachment) attachment = NULL;

      /* A row of a message that is gone: nothing shows it. */
      if (message == NULL)
        continue;
      if (kind == NULL || name == NULL || sqlite3_column_type (stmt, 3) != SQLITE_BLOB ||
          g_list_model_get_n_items (akc_message_get_attachments (message)) >= AKC_ATTACHMENT_MAX_PER_MESSAGE)
        {
          sqlite3_finalize (stmt);
          return damaged (error, path);
        }
      data = g_bytes_new (sqlite3_column_blob (stmt, 3), (gsize) sqlite3_column_bytes (stmt, 3));
      if (strcmp (kind, "image") == 0)
        attachment = akc_attachment_new_image (name, data, NULL);
      else if (strcmp (kind, "text") == 0)
        attachment = akc_attachment_new_text (name, data, NULL);
      if (attachment == NULL)
        {
          sqlite3_finalize (stmt);
          return damaged (error, path);
        }
      akc_message_add_attachment (message, attachment);
    }
  sqlite3_finalize (stmt);
  if (rc != SQLITE_DONE)
    {
      akc_sqlite_set_error (error, db, rc, path);
      return FALSE;
    }

  stmt = prepare (db,
                  "SELECT message_id, prompt_tokens, completion_tokens, total_tokens FROM message_usage"
                  "  WHERE conversation_id = ?1",
                  path, error);
  if (stmt == NULL)
    return FALSE;
  sqlite3_bind_text (stmt, 1, conversation_id, -1, SQLITE_STATIC);
  while ((rc = sqlite3_step (stmt)) == SQLITE_ROW)
    {
      const char *id = (const char *) sqlite3_column_text (stmt, 0);
      AkcMessage *message = id != NULL ? g_hash_table_lookup (by_id, id) : NULL;
      AkcUsage usage = {
        (guint64) sqlite3_column_int64 (stmt, 1),
        (guint64) sqlite3_column_int64 (stmt, 2),
        (guint64) sqlite3_column_int64 (stmt, 3),
      };

      if (message != NULL)
        akc_message_set_usage (message, &usage);
    }
  sqlite3_finalize (stmt);
  if (rc != SQLITE_DONE)
    {
      akc_sqlite_set_error (error, db, rc, path);
      return FALSE;
    }

  stmt = prepare (db, "SELECT message_id, code, message FROM message_errors WHERE conversation_id = ?1",
                  path, error);
  if (stmt == NULL)
    return FALSE;
  sqlite3_bind_text (stmt, 1, conversation_id, -1, SQLITE_STATIC);
  while ((rc = sqlite3_step (stmt)) == SQLITE_ROW)
    {
      const char *id = (const char *) sqlite3_column_text (stmt, 0);
      const char *code = (const char *) sqlite3_column_text (stmt, 1);
      const char *text = (const char *) sqlite3_column_text (stmt, 2);
      AkcMessage *message = id != NULL ? g_hash_table_lookup (by_id, id) : NULL;
      g_autoptr(AkcDiagnostic) diagnostic = NULL;

      /* Shown as it was: a row another program wrote that is not valid
       * UTF-8 is left out. */
      if (message == NULL || code == NULL || text == NULL ||
          !g_utf8_validate (code, -1, NULL) || !g_utf8_validate (text, -1, NULL))
        continue;
      diagnostic = akc_diagnostic_new (code, text, TRUE, NULL);
      akc_message_set_error (message, diagnostic);
    }
  sqlite3_finalize (stmt);
  if (rc != SQLITE_DONE)
    {
      akc_sqlite_set_error (error, db, rc, path);
      return FALSE;
    }

  return TRUE;
}
