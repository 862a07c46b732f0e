/* akc-fts-corpus.c: a local Ask corpus in SQLite FTS5, ranked with bm25
 *
 * SPDX-License-Identifier: MIT
 *
 * `akc-server index --corpus ID --database FILE [--base-href H] DIR…`
 * reads every Markdown and text file under the folders (*.md, *.markdown,
 * *.txt; files that are not UTF-8 are skipped and said so) into one SQLite
 * file: a document's title is its first `# ` heading (or its file name),
 * its href the base href followed by its path without the extension,
 * percent-encoded, and its id the path as an Identifier. The file is
 * written next to FILE and renamed over it when complete, so a reader
 * never sees half an index.
 *
 * AkcFtsRetriever answers a question with the documents that contain any
 * of its words, best first by bm25 (a title match weighs four times a body
 * match), each with an FTS5 snippet of the body as its excerpt. Queries run
 * on a worker thread, each on its own read-only connection.
 */

#include "config.h"

#include <errno.h>
#include <glib/gi18n-lib.h>
#include <glib/gstdio.h>
#include <sqlite3.h>
#include <string.h>

#include "akc-fts-corpus.h"
#include "akc-json-private.h"
#include "akc-server-util.h"

#define SCHEMA_VERSION 1
#define MAX_TITLE 256
#define MAX_EXCERPT 4096

static gboolean
sqlite_failed (sqlite3     *db,
               int          rc,
               const char  *database,
               GError     **error)
{
  g_autofree char *name = g_filename_display_name (database);

  g_set_error (error, AKC_SERVER_CONFIG_ERROR, AKC_SERVER_CONFIG_ERROR_READ,
               _("The corpus “%s” cannot be used: %s"), name,
               db != NULL ? sqlite3_errmsg (db) : sqlite3_errstr (rc));
  return FALSE;
}

/* Cut to @max characters (never in the middle of one). */
static char *
clamp (const char *text,
       glong       max)
{
  g_autofree char *stripped = g_strstrip (g_strdup (text));

  if (g_utf8_strlen (stripped, -1) <= max)
    return g_steal_pointer (&stripped);
  return g_utf8_substring (stripped, 0, max);
}

static char *
identifier_for (const char *path,
                guint       index)
{
  GString *id = g_string_new (NULL);

  for (const char *p = path; *p != '\0' && id->len < 128; p++)
    g_string_append_c (id, g_ascii_isalnum (*p) || strchr ("._:-", *p) != NULL ? *p : '-');
  if (id->len == 0 || !g_ascii_isalnum (id->str[0]))
    {
      g_string_free (id, TRUE);
      return g_strdup_printf ("doc-%u", index);
    }
  return g_string_free (id, FALSE);
}

static gboolean
is_document (const char *name)
{
  return g_str_has_suffix (name, ".md") || g_str_has_suffix (name, ".markdown") || g_str_has_suffix (name, ".txt");
}

typedef struct
{
  sqlite3      *db;
  sqlite3_stmt *insert;
  const char   *base_href;
  guint         n;
} Indexer;

static gboolean
index_file (Indexer     *indexer,
            GFile       *root,
            GFile       *file,
            GError     **error)
{
  g_autofree char *path = g_file_get_path (file);
  g_autofree char *relative = g_file_get_relative_path (root, file);
  g_autofree char *contents = NULL;
  g_autofree char *title = NULL;
  g_autofree char *stem = NULL;
  g_autofree char *escaped = NULL;
  g_autofree char *href = NULL;
  g_autofree char *id = NULL;
  const char *body;
  gsize length = 0;
  char *dot;

  if (relative == NULL)
    relative = g_file_get_basename (file);
  if (!g_file_get_contents (path, &contents, &length, error))
    return FALSE;
  if (!g_utf8_validate_len (contents, length, NULL) || memchr (contents, '\0', length) != NULL)
    {
      g_autofree char *name = g_filename_display_name (path);

      g_printerr (_("akc-server: “%s” is not UTF-8 text; skipped\n"), name);
      return TRUE;
    }

  body = contents;
  while (*body == '\n' || *body == ' ')
    body++;
  if (g_str_has_prefix (body, "# "))
    {
      const char *end = strchr (body, '\n');
      g_autofree char *line = g_strndup (body + 2, end != NULL ? (gsize) (end - body - 2) : strlen (body + 2));

      title = clamp (line, MAX_TITLE);
      body = end != NULL ? end + 1 : body + strlen (body);
    }
  stem = g_strdup (relative);
  dot = strrchr (stem, '.');
  if (dot != NULL && strchr (dot, '/') == NULL)
    *dot = '\0';
  if (title == NULL || title[0] == '\0')
    {
      g_free (title);
      title = clamp (strrchr (stem, '/') != NULL ? strrchr (stem, '/') + 1 : stem, MAX_TITLE);
    }
  escaped = g_uri_escape_string (stem, "/", FALSE);
  href = g_strconcat (indexer->base_href, g_str_has_suffix (indexer->base_href, "/") ? "" : "/", escaped, NULL);
  id = identifier_for (stem, indexer->n);

  sqlite3_reset (indexer->insert);
  sqlite3_bind_text (indexer->insert, 1, id, -1, SQLITE_TRANSIENT);
  sqlite3_bind_text (indexer->insert, 2, title, -1, SQLITE_TRANSIENT);
  sqlite3_bind_text (indexer->insert, 3, body, -1, SQLITE_TRANSIENT);
  sqlite3_bind_text (indexer->insert, 4, href, -1, SQLITE_TRANSIENT);
  if (sqlite3_step (indexer->insert) != SQLITE_DONE)
    return sqlite_failed (indexer->db, SQLITE_ERROR, path, error);
  indexer->n++;
  return TRUE;
}

static gboolean
index_folder (Indexer  *indexer,
              GFile    *root,
              GFile    *folder,
              GError  **error)
{
  g_autoptr(GFileEnumerator) children = NULL;
  g_autoptr(GPtrArray) names = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GPtrArray) kinds = g_ptr_array_new ();

  children = g_file_enumerate_children (folder, G_FILE_ATTRIBUTE_STANDARD_NAME "," G_FILE_ATTRIBUTE_STANDARD_TYPE,
                                        G_FILE_QUERY_INFO_NOFOLLOW_SYMLINKS, NULL, error);
  if (children == NULL)
    return FALSE;
  for (;;)
    {
      GFileInfo *info = NULL;

      if (!g_file_enumerator_iterate (children, &info, NULL, NULL, error))
        return FALSE;
      if (info == NULL)
        break;
      g_ptr_array_add (names, g_strdup (g_file_info_get_name (info)));
      g_ptr_array_add (kinds, GINT_TO_POINTER (g_file_info_get_file_type (info)));
    }

  /* in name order, so an index is the same whatever the file system */
  for (guint i = 0; i < names->len; i++)
    for (guint j = i + 1; j < names->len; j++)
      if (strcmp (names->pdata[j], names->pdata[i]) < 0)
        {
          gpointer n = names->pdata[i], k = kinds->pdata[i];

          names->pdata[i] = names->pdata[j];
          kinds->pdata[i] = kinds->pdata[j];
          names->pdata[j] = n;
          kinds->pdata[j] = k;
        }

  for (guint i = 0; i < names->len; i++)
    {
      const char *name = names->pdata[i];
      GFileType type = GPOINTER_TO_INT (kinds->pdata[i]);
      g_autoptr(GFile) child = g_file_get_child (folder, name);

      if (name[0] == '.')
        continue;
      if (type == G_FILE_TYPE_DIRECTORY)
        {
          if (!index_folder (indexer, root, child, error))
            return FALSE;
        }
      else if (type == G_FILE_TYPE_REGULAR && is_document (name) && !index_file (indexer, root, child, error))
        return FALSE;
    }
  return TRUE;
}

static gboolean
exec (sqlite3     *db,
      const char  *sql,
      const char  *database,
      GError     **error)
{
  int rc = sqlite3_exec (db, sql, NULL, NULL, NULL);

  return rc == SQLITE_OK || sqlite_failed (db, rc, database, error);
}

/* Builds the corpus @corpus_id in @database from @folders (see above). */
gboolean
akc_fts_corpus_index (const char          *database,
                      const char          *corpus_id,
                      const char          *base_href,
                      const char * const  *folders,
                      guint               *n_documents,
                      GError             **error)
{
  g_autofree char *partial = g_strconcat (database, ".partial", NULL);
  Indexer indexer = { NULL, NULL, base_href != NULL ? base_href : "/", 0 };
  sqlite3_stmt *meta = NULL;
  gboolean ok = FALSE;
  int rc;

  g_unlink (partial);
  rc = sqlite3_open_v2 (partial, &indexer.db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, NULL);
  if (rc != SQLITE_OK)
    {
      sqlite_failed (indexer.db, rc, database, error);
      goto out;
    }
  if (!exec (indexer.db, "PRAGMA user_version = 1;"
                         "CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);"
                         "CREATE VIRTUAL TABLE docs USING fts5 (id UNINDEXED, title, body, href UNINDEXED,"
                         " tokenize = 'unicode61 remove_diacritics 2');"
                         "BEGIN", database, error))
    goto out;
  if (sqlite3_prepare_v2 (indexer.db, "INSERT INTO meta (key, value) VALUES ('corpus', ?)", -1, &meta, NULL) !=
      SQLITE_OK ||
      sqlite3_bind_text (meta, 1, corpus_id, -1, SQLITE_TRANSIENT) != SQLITE_OK ||
      sqlite3_step (meta) != SQLITE_DONE ||
      sqlite3_prepare_v2 (indexer.db, "INSERT INTO docs (id, title, body, href) VALUES (?, ?, ?, ?)", -1,
                          &indexer.insert, NULL) != SQLITE_OK)
    {
      sqlite_failed (indexer.db, SQLITE_ERROR, database, error);
      goto out;
    }
  for (guint i = 0; folders[i] != NULL; i++)
    {
      g_autoptr(GFile) root = g_file_new_for_commandline_arg (folders[i]);

      if (!index_folder (&indexer, root, root, error))
        goto out;
    }
  if (!exec (indexer.db, "COMMIT; INSERT INTO docs (docs) VALUES ('optimize')", database, error))
    goto out;
  ok = TRUE;

out:
  sqlite3_finalize (meta);
  sqlite3_finalize (indexer.insert);
  if (indexer.db != NULL && sqlite3_close (indexer.db) != SQLITE_OK && ok)
    ok = sqlite_failed (NULL, SQLITE_ERROR, database, error);
  if (ok && g_rename (partial, database) != 0)
    {
      int saved = errno;
      g_autofree char *name = g_filename_display_name (database);

      g_set_error (error, G_IO_ERROR, g_io_error_from_errno (saved), _("“%s” cannot be written: %s"), name,
                   g_strerror (saved));
      ok = FALSE;
    }
  if (!ok)
    g_unlink (partial);
  else if (n_documents != NULL)
    *n_documents = indexer.n;
  return ok;
}

/* The retriever ----------------------------------------------------- */

struct _AkcFtsRetriever
{
  GObject  parent_instance;

  char    *database;
};

static void akc_fts_retriever_iface_init (AkcAskRetrieverInterface *iface);

G_DEFINE_FINAL_TYPE_WITH_CODE (AkcFtsRetriever, akc_fts_retriever, G_TYPE_OBJECT,
                               G_IMPLEMENT_INTERFACE (AKC_TYPE_ASK_RETRIEVER, akc_fts_retriever_iface_init))

typedef struct
{
  char  *query;   /* an FTS5 query, or NULL for none */
  guint  limit;
} Query;

static void
query_free (gpointer data)
{
  Query *query = data;

  g_free (query->query);
  g_free (query);
}

/* Every word of the question as a quoted FTS5 string, joined by OR. */
static char *
fts_query (const char *question)
{
  g_autoptr(GString) query = g_string_new (NULL);
  g_autoptr(GString) word = g_string_new (NULL);

  for (const char *p = question;; p = g_utf8_next_char (p))
    {
      gunichar c = *p != '\0' ? g_utf8_get_char (p) : 0;

      if (c != 0 && g_unichar_isalnum (c))
        {
          g_string_append_unichar (word, c);
          continue;
        }
      if (word->len > 0)
        {
          g_string_append_printf (query, "%s\"%s\"", query->len > 0 ? " OR " : "", word->str);
          g_string_truncate (word, 0);
        }
      if (c == 0)
        break;
    }
  return query->len > 0 ? g_string_free (g_steal_pointer (&query), FALSE) : NULL;
}

static void
append_document (AkcJsonWriter *w,
                 sqlite3_stmt  *stmt)
{
  const char *snippet = (const char *) sqlite3_column_text (stmt, 3);
  const char *body = (const char *) sqlite3_column_text (stmt, 4);
  g_autofree char *trimmed = snippet != NULL ? g_strstrip (g_strdup (snippet)) : NULL;
  g_autofree char *excerpt = clamp (trimmed != NULL && trimmed[0] != '\0' ? trimmed : body != NULL ? body : "",
                                    MAX_EXCERPT);
  const char *title = (const char *) sqlite3_column_text (stmt, 1);

  if (excerpt[0] == '\0')
    {
      g_free (excerpt);
      excerpt = g_strdup (title);
    }
  akc_json_writer_begin_object (w);
  akc_json_writer_member (w, "id");
  akc_json_writer_string (w, (const char *) sqlite3_column_text (stmt, 0), -1);
  akc_json_writer_member (w, "title");
  akc_json_writer_string (w, title, -1);
  akc_json_writer_member (w, "href");
  akc_json_writer_string (w, (const char *) sqlite3_column_text (stmt, 2), -1);
  akc_json_writer_member (w, "excerpt");
  akc_json_writer_string (w, excerpt, -1);
  akc_json_writer_end_object (w);
}

static void
retrieve_thread (GTask        *task,
                 gpointer      source,
                 gpointer      data,
                 GCancellable *cancellable)
{
  AkcFtsRetriever *self = source;
  Query *query = data;
  g_autoptr(GString) text = g_string_new (NULL);
  g_autoptr(GError) error = NULL;
  sqlite3 *db = NULL;
  sqlite3_stmt *stmt = NULL;
  AkcJsonWriter w;
  int rc;

  akc_json_writer_init (&w, text);
  akc_json_writer_begin_array (&w);
  if (query->query != NULL)
    {
      rc = sqlite3_open_v2 (self->database, &db, SQLITE_OPEN_READONLY, NULL);
      if (rc == SQLITE_OK)
        rc = sqlite3_prepare_v2 (db,
                                 "SELECT id, title, href, snippet (docs, 2, '', '', '…', 40), substr (body, 1, 600)"
                                 " FROM docs WHERE docs MATCH ?1 ORDER BY bm25 (docs, 0.0, 4.0, 1.0, 0.0) LIMIT ?2",
                                 -1, &stmt, NULL);
      if (rc == SQLITE_OK)
        {
          sqlite3_bind_text (stmt, 1, query->query, -1, SQLITE_TRANSIENT);
          sqlite3_bind_int (stmt, 2, (int) query->limit);
          while (!g_cancellable_is_cancelled (cancellable) && (rc = sqlite3_step (stmt)) == SQLITE_ROW)
            append_document (&w, stmt);
          if (rc == SQLITE_DONE || rc == SQLITE_ROW)
            rc = SQLITE_OK;
        }
      if (rc != SQLITE_OK)
        sqlite_failed (db, rc, self->database, &error);
      sqlite3_finalize (stmt);
      sqlite3_close (db);
    }
  akc_json_writer_end_array (&w);

  if (error != NULL)
    g_task_return_error (task, g_steal_pointer (&error));
  else
    g_task_return_pointer (task, akc_json_value_parse (text->str, text->len, NULL),
                           (GDestroyNotify) akc_json_value_unref);
}

static void
fts_retrieve_async (AkcAskRetriever     *retriever,
                    const char          *question,
                    guint                limit,
                    GCancellable        *cancellable,
                    GAsyncReadyCallback  callback,
                    gpointer             user_data)
{
  g_autoptr(GTask) task = g_task_new (retriever, cancellable, callback, user_data);
  Query *query = g_new0 (Query, 1);

  g_task_set_check_cancellable (task, FALSE);
  query->query = fts_query (question);
  query->limit = MAX (limit, 1) * 2;  /* room for what the strict schema drops */
  g_task_set_task_data (task, query, query_free);
  g_task_run_in_thread (task, retrieve_thread);
}

static AkcJsonValue *
fts_retrieve_finish (AkcAskRetriever  *retriever,
                     GAsyncResult     *result,
                     GError          **error)
{
  return g_task_propagate_pointer (G_TASK (result), error);
}

static void
akc_fts_retriever_iface_init (AkcAskRetrieverInterface *iface)
{
  iface->retrieve_async = fts_retrieve_async;
  iface->retrieve_finish = fts_retrieve_finish;
}

static void
akc_fts_retriever_finalize (GObject *object)
{
  g_free (AKC_FTS_RETRIEVER (object)->database);
  G_OBJECT_CLASS (akc_fts_retriever_parent_class)->finalize (object);
}

static void
akc_fts_retriever_class_init (AkcFtsRetrieverClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = akc_fts_retriever_finalize;
}

static void
akc_fts_retriever_init (AkcFtsRetriever *self)
{
}

/* Opens @database (read only) and checks it is the index of @corpus_id. */
AkcAskRetriever *
akc_fts_retriever_new (const char  *database,
                       const char  *corpus_id,
                       GError     **error)
{
  g_autoptr(AkcFtsRetriever) self = NULL;
  sqlite3 *db = NULL;
  sqlite3_stmt *stmt = NULL;
  g_autofree char *found = NULL;
  int version = -1;
  int rc;

  rc = sqlite3_open_v2 (database, &db, SQLITE_OPEN_READONLY, NULL);
  if (rc == SQLITE_OK)
    rc = sqlite3_prepare_v2 (db, "PRAGMA user_version", -1, &stmt, NULL);
  if (rc == SQLITE_OK && sqlite3_step (stmt) == SQLITE_ROW)
    version = sqlite3_column_int (stmt, 0);
  sqlite3_finalize (stmt);
  stmt = NULL;
  if (rc == SQLITE_OK)
    rc = sqlite3_prepare_v2 (db, "SELECT value FROM meta WHERE key = 'corpus'", -1, &stmt, NULL);
  if (rc == SQLITE_OK && sqlite3_step (stmt) == SQLITE_ROW)
    found = g_strdup ((const char *) sqlite3_column_text (stmt, 0));
  sqlite3_finalize (stmt);
  if (rc != SQLITE_OK)
    {
      sqlite_failed (db, rc, database, error);
      sqlite3_close (db);
      return NULL;
    }
  sqlite3_close (db);

  if (version != SCHEMA_VERSION || g_strcmp0 (found, corpus_id) != 0)
    {
      g_autofree char *name = g_filename_display_name (database);

      g_set_error (error, AKC_SERVER_CONFIG_ERROR, AKC_SERVER_CONFIG_ERROR_INVALID,
                   _("“%s” is not the index of the corpus “%s” (build it with akc-server index)."), name, corpus_id);
      return NULL;
    }

  self = g_object_new (AKC_TYPE_FTS_RETRIEVER, NULL);
  self->database = g_strdup (database);
  return AKC_ASK_RETRIEVER (g_steal_pointer (&self));
}
