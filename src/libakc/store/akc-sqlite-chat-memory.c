/* akc-sqlite-chat-memory.c
 *
 * SPDX-License-Identifier: MIT
 */

#include "config.h"

#include <string.h>

#include <glib/gi18n-lib.h>
#include <sqlite3.h>

#include "akc-sqlite-chat-memory.h"
#include "akc-sqlite-chat-memory-private.h"
#include "akc-message-search-text-private.h"
#include "akc-sqlite-message-extras-private.h"
#include "akc-conversation-record-private.h"
#include "akc-search-result-private.h"
#include "akc-sqlite-schema-private.h"
#include "akc-conversation-info-private.h"
#include "akc-stored-message-private.h"
#include "akc-text-private.h"

/**
 * AkcSqliteChatMemory:
 *
 * A [iface@ChatMemory] that keeps every conversation in one SQLite
 * database, by default `$XDG_DATA_HOME/agentskit-chat/history.sqlite3`.
 *
 * The database is opened by [func@SqliteChatMemory.new_async]: it is
 * created when missing, migrated from an older format, and refused with a
 * clear error when it is damaged, belongs to another program
 * (%AKC_CHAT_MEMORY_ERROR_CORRUPT) or was written by a newer version
 * (%AKC_CHAT_MEMORY_ERROR_NEWER_VERSION), in which case it is left exactly
 * as it was.
 *
 * All SQLite work happens on one worker thread that owns the connection,
 * in the order the operations were started; the main loop never waits for
 * the disk. Every change is one transaction in write-ahead-logging mode
 * with `synchronous=FULL`: once a change is reported as done it survives a
 * crash of the process or of the system, and a process killed in the
 * middle of a change leaves the database as it was before that change.
 *
 * Since: 0.1
 */

struct _AkcSqliteChatMemory
{
  GObject  parent_instance;

  char    *path;

  /* Taken by the first initialization, shared by every memory of the
   * same file; the worker owns the connection. */
  struct _Worker *worker;
};

static void akc_sqlite_chat_memory_iface_init (AkcChatMemoryInterface *iface);
static void akc_sqlite_chat_memory_async_initable_iface_init (GAsyncInitableIface *iface);

G_DEFINE_FINAL_TYPE_WITH_CODE (AkcSqliteChatMemory, akc_sqlite_chat_memory, G_TYPE_OBJECT,
                               G_IMPLEMENT_INTERFACE (AKC_TYPE_CHAT_MEMORY,
                                                      akc_sqlite_chat_memory_iface_init)
                               G_IMPLEMENT_INTERFACE (G_TYPE_ASYNC_INITABLE,
                                                      akc_sqlite_chat_memory_async_initable_iface_init))

enum {
  PROP_0,
  PROP_PATH,
  N_PROPS
};

static GParamSpec *props[N_PROPS];

/* ------------------------------------------------------------------ */
/* The worker thread                                                   */
/* ------------------------------------------------------------------ */

typedef enum
{
  STMT_LIST,
  STMT_PAGE,
  STMT_GET,
  STMT_ASSISTANT,
  STMT_PIN,
  STMT_SET_MODEL,
  STMT_AUTO_TITLE,
  STMT_SEARCH_TITLES,
  STMT_SEARCH_MESSAGES,
  STMT_EXPORT_CONVERSATION,
  STMT_EXPORT_RESOLUTIONS,
  STMT_IMPORT_CONVERSATION,
  STMT_IMPORT_RESOLUTION,
  STMT_CREATE,
  STMT_EXISTS,
  STMT_USAGE,
  STMT_UPDATE,
  STMT_TOUCH,
  STMT_DELETE,
  STMT_COUNT,
  STMT_LOAD,
  STMT_DELETE_RANGE,
  STMT_SHIFT_OUT,
  STMT_SHIFT_BACK,
  STMT_INSERT,
  STMT_SAVE,
  N_STMTS
} Stmt;

/* What a listing reads of a conversation, in the order read_info() takes
 * the columns. */
#define INFO_COLUMNS \
    "SELECT c.id, c.title, c.prompt_tokens, c.completion_tokens, c.total_tokens," \
    "       c.created_at, c.updated_at," \
    "       (SELECT coalesce (max (m.position) + 1, 0) FROM messages m WHERE m.conversation_id = c.id)," \
    "       c.assistant_id, c.pinned, c.provider_kind, c.provider_url, c.model" \
    "  FROM conversations c"

/* Message columns share their parameter numbers between STMT_INSERT and
 * STMT_SAVE: ?1 conversation, ?2 id, ?3 role, ?4 status, ?5 stopped,
 * ?6 content, ?7 created_at, ?8 tool_call_id, ?9 tool_calls, ?10 lineage,
 * ?12 search_text. */
static const char * const stmt_sql[N_STMTS] = {
  [STMT_LIST] =
    INFO_COLUMNS " ORDER BY c.pinned DESC, c.updated_at DESC, c.id",
  /* Read along conversations_by_list: a page costs its offset in index
   * steps and its length in rows. */
  [STMT_PAGE] =
    INFO_COLUMNS " ORDER BY c.pinned DESC, c.updated_at DESC, c.id LIMIT ?1 OFFSET ?2",
  [STMT_GET] =
    INFO_COLUMNS " WHERE c.id = ?1",
  /* Read along conversations_by_assistant. */
  [STMT_ASSISTANT] =
    INFO_COLUMNS " WHERE c.assistant_id = ?1 ORDER BY c.updated_at DESC, c.id LIMIT ?2",
  [STMT_PIN] =
    "UPDATE conversations SET pinned = ?2 WHERE id = ?1",
  [STMT_SET_MODEL] =
    "UPDATE conversations SET provider_kind = ?2, provider_url = ?3, model = ?4 WHERE id = ?1",
  /* A conversation without a title takes that of its first user message. */
  [STMT_AUTO_TITLE] =
    "UPDATE conversations SET title = akc_derive_title (?2) WHERE id = ?1 AND title = ''",
  /* Matches ranked by FTS5's BM25 (lower is better); snippet() and
   * highlight() mark the matched words with U+0001 … U+0002. */
  [STMT_SEARCH_TITLES] =
    "SELECT c.id, NULL, highlight (title_search, 0, char (1), char (2)), title_search.rank"
    "  FROM title_search JOIN conversations c ON c.search_id = title_search.rowid"
    "  WHERE title_search MATCH ?1 ORDER BY title_search.rank LIMIT ?2",
  [STMT_SEARCH_MESSAGES] =
    "SELECT m.conversation_id, m.id, snippet (message_search, 0, char (1), char (2), '…', 12),"
    "       message_search.rank"
    "  FROM message_search JOIN messages m ON m.seq = message_search.rowid"
    "  WHERE message_search MATCH ?1 ORDER BY message_search.rank LIMIT ?2",
  [STMT_EXPORT_CONVERSATION] =
    "SELECT title, assistant_id, pinned, created_at, updated_at,"
    "       prompt_tokens, completion_tokens, total_tokens, provider_kind, provider_url, model"
    "  FROM conversations WHERE id = ?1",
  /* Only the answers whose message is still in the conversation: those
   * are the ones read back (a retried reply takes its cards with it). */
  [STMT_EXPORT_RESOLUTIONS] =
    "SELECT r.instance_id, r.message_id, r.event, r.value, r.resolved_at"
    "  FROM component_resolutions r"
    "  WHERE r.conversation_id = ?1"
    "    AND EXISTS (SELECT 1 FROM messages m WHERE m.conversation_id = ?1 AND m.id = r.message_id)"
    "  ORDER BY r.resolved_at, r.instance_id",
  [STMT_IMPORT_CONVERSATION] =
    "INSERT INTO conversations (id, title, created_at, updated_at, assistant_id, pinned,"
    "                           prompt_tokens, completion_tokens, total_tokens,"
    "                           provider_kind, provider_url, model)"
    "  VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12)",
  [STMT_IMPORT_RESOLUTION] =
    "INSERT INTO component_resolutions (conversation_id, instance_id, message_id, event, value, resolved_at)"
    "  VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
  [STMT_CREATE] =
    "INSERT INTO conversations (id, title, created_at, updated_at, assistant_id) VALUES (?1, ?2, ?3, ?3, ?4)"
    "  ON CONFLICT DO NOTHING",
  [STMT_EXISTS] =
    "SELECT 1 FROM conversations WHERE id = ?1",
  [STMT_USAGE] =
    "SELECT prompt_tokens, completion_tokens, total_tokens FROM conversations WHERE id = ?1",
  /* A rename or the usage of a turn is no change of the conversation:
   * updated_at moves with its messages only (worker_touch), so a renamed
   * conversation keeps its place in the sidebar. */
  [STMT_UPDATE] =
    "UPDATE conversations SET title = coalesce (?2, title),"
    "       prompt_tokens = ?3, completion_tokens = ?4, total_tokens = ?5"
    "  WHERE id = ?1",
  [STMT_TOUCH] =
    "UPDATE conversations SET updated_at = ?2 WHERE id = ?1",
  [STMT_DELETE] =
    "DELETE FROM conversations WHERE id = ?1",
  /* Positions are dense (0 … n-1), so the count is one past the last
   * position: one look-up at the end of the (conversation_id, position)
   * index, where count(*) walks every entry of the conversation and made
   * each append O(n). */
  [STMT_COUNT] =
    "SELECT coalesce (max (position) + 1, 0) FROM messages WHERE conversation_id = ?1",
  [STMT_LOAD] =
    "SELECT position, id, role, status, stopped, content, created_at, tool_call_id, tool_calls, lineage"
    "  FROM messages WHERE conversation_id = ?1 ORDER BY position",
  [STMT_DELETE_RANGE] =
    "DELETE FROM messages WHERE conversation_id = ?1 AND position >= ?2 AND position < ?3",
  /* Moving a tail in two steps through negative positions keeps
   * (conversation_id, position) unique after every row. */
  [STMT_SHIFT_OUT] =
    "UPDATE messages SET position = -1 - (position + ?3) WHERE conversation_id = ?1 AND position >= ?2",
  [STMT_SHIFT_BACK] =
    "UPDATE messages SET position = -1 - position WHERE conversation_id = ?1 AND position < 0",
  [STMT_INSERT] =
    "INSERT INTO messages (conversation_id, id, role, status, stopped, content, created_at,"
    "                      tool_call_id, tool_calls, lineage, position, search_text)"
    "  VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12)",
  [STMT_SAVE] =
    "UPDATE messages SET role = ?3, status = ?4, stopped = ?5, content = ?6, created_at = ?7,"
    "       tool_call_id = ?8, tool_calls = ?9, lineage = ?10, search_text = ?12"
    "  WHERE conversation_id = ?1 AND id = ?2",
};

/* How many rows a read takes between two looks at its cancellable. */
#define CANCEL_CHECK_ROWS 64

typedef struct _Worker Worker;

/* One worker per database file: every AkcSqliteChatMemory of a path
 * (and what runs on it: AkcSqliteSessionStorage, AkcAskSessionMemory)
 * shares its thread and its one connection. The registry holds the
 * workers by canonical path; the last memory to let go ends the thread. */
struct _Worker
{
  GAsyncQueue  *queue;
  GThread      *thread;
  char         *key;        /* the registry's: the canonical path */
  guint         users;      /* memories holding it, under workers_lock */
  char         *path;
  sqlite3      *db;
  GError       *open_error;
  sqlite3_stmt *stmts[N_STMTS];
};

typedef struct _Job Job;

typedef void (*JobFunc) (Worker *worker,
                         Job    *job);

typedef enum
{
  RESULT_BOOLEAN,
  RESULT_POINTER,
  RESULT_ERROR,
} ResultKind;

/* A job runs on the worker thread and records its outcome; the outcome is
 * then returned on the task's own main context, which also drops the last
 * reference the job holds, so the worker never owns a reference to the
 * task (nor to the memory) once the job is done. */
struct _Job
{
  JobFunc         func;
  GTask          *task;

  ResultKind      kind;
  gboolean        boolean;
  gpointer        pointer;
  GDestroyNotify  pointer_destroy;
  GError         *error;

  /* The conversation a successful job changed, told to the memory's
   * listeners before the job completes. */
  char           *changed_id;
};

static void
job_return_boolean (Job      *job,
                    gboolean  value)
{
  job->kind = RESULT_BOOLEAN;
  job->boolean = value;
}

static void
job_return_pointer (Job            *job,
                    gpointer        pointer,
                    GDestroyNotify  destroy)
{
  job->kind = RESULT_POINTER;
  job->pointer = pointer;
  job->pointer_destroy = destroy;
}

static void
job_return_error (Job    *job,
                  GError *error)
{
  job->kind = RESULT_ERROR;
  job->error = error;
}

static void
job_set_changed (Job        *job,
                 const char *id)
{
  g_free (job->changed_id);
  job->changed_id = g_strdup (id);
}

static gboolean
job_complete (gpointer data)
{
  Job *job = data;

  if (job->changed_id != NULL && job->kind != RESULT_ERROR)
    akc_chat_memory_conversation_changed (AKC_CHAT_MEMORY (g_task_get_source_object (job->task)),
                                          job->changed_id);

  switch (job->kind)
    {
    case RESULT_BOOLEAN:
      g_task_return_boolean (job->task, job->boolean);
      break;
    case RESULT_POINTER:
      g_task_return_pointer (job->task, job->pointer, job->pointer_destroy);
      break;
    case RESULT_ERROR:
      g_task_return_error (job->task, job->error);
      break;
    default:
      g_assert_not_reached ();
    }

  g_object_unref (job->task);
  g_free (job->changed_id);
  g_free (job);

  return G_SOURCE_REMOVE;
}

/* Pushed by finalize: the worker closes the database and ends. */
static Job quit_job;

static void
worker_close (Worker *worker)
{
  for (guint i = 0; i < N_STMTS; i++)
    g_clear_pointer (&worker->stmts[i], sqlite3_finalize);

  /* sqlite3_close_v2 cannot fail for want of finalized statements; on the
   * last connection it checkpoints the log into the database. */
  g_clear_pointer (&worker->db, sqlite3_close_v2);
}

static void job_open (Worker *worker,
                      Job    *job);

static gpointer
worker_main (gpointer data)
{
  Worker *worker = data;
  Job *job;

  while ((job = g_async_queue_pop (worker->queue)) != &quit_job)
    {
      GError *error = NULL;

      if (g_cancellable_set_error_if_cancelled (g_task_get_cancellable (job->task), &error))
        job_return_error (job, error);
      else if (job->func != job_open && worker->db == NULL)
        job_return_error (job, g_error_new_literal (AKC_CHAT_MEMORY_ERROR, AKC_CHAT_MEMORY_ERROR_CLOSED,
                                                    _("The history is not open.")));
      else
        job->func (worker, job);

      g_main_context_invoke_full (g_task_get_context (job->task), g_task_get_priority (job->task),
                                  job_complete, job, NULL);
    }

  worker_close (worker);
  g_clear_error (&worker->open_error);
  g_async_queue_unref (worker->queue);
  g_free (worker->key);
  g_free (worker->path);
  g_free (worker);

  return NULL;
}

static GMutex workers_lock;
static GHashTable *workers;  /* canonical path → Worker */

/* The worker of @path, started when no memory of that file has one. */
static Worker *
worker_acquire (const char *path)
{
  g_autofree char *key = g_canonicalize_filename (path, NULL);
  Worker *worker;

  g_mutex_lock (&workers_lock);
  if (workers == NULL)
    workers = g_hash_table_new (g_str_hash, g_str_equal);
  worker = g_hash_table_lookup (workers, key);
  if (worker == NULL)
    {
      worker = g_new0 (Worker, 1);
      worker->queue = g_async_queue_new ();
      worker->key = g_steal_pointer (&key);
      worker->path = g_strdup (path);
      g_hash_table_insert (workers, worker->key, worker);
      /* The thread frees the worker when it ends. */
      worker->thread = g_thread_new ("akc-history", worker_main, worker);
    }
  worker->users++;
  g_mutex_unlock (&workers_lock);

  return worker;
}

/* Every job holds a reference to its memory: when the last memory of the
 * file lets go, the queue is empty but for jobs that finished. The worker
 * closes the database and frees itself. When the last reference was
 * dropped by the worker thread itself, it cannot be joined; it ends on
 * its own. */
static void
worker_release (Worker *worker)
{
  GThread *thread = NULL;

  g_mutex_lock (&workers_lock);
  if (--worker->users == 0)
    {
      g_hash_table_remove (workers, worker->key);
      thread = worker->thread;
    }
  g_mutex_unlock (&workers_lock);

  if (thread == NULL)
    return;

  g_async_queue_push (worker->queue, &quit_job);
  if (g_thread_self () == thread)
    g_thread_unref (thread);
  else
    g_thread_join (thread);
}

static void
queue_job (AkcSqliteChatMemory *self,
           GTask               *task,
           JobFunc              func)
{
  Job *job;

  if (self->worker == NULL)
    {
      g_task_return_new_error (task, AKC_CHAT_MEMORY_ERROR, AKC_CHAT_MEMORY_ERROR_CLOSED,
                               "%s", _("The history is not open."));
      g_object_unref (task);
      return;
    }

  job = g_new0 (Job, 1);
  job->func = func;
  job->task = task;
  g_async_queue_push (self->worker->queue, job);
}

/* A change that started is carried out and reported as it happened, even
 * if the caller cancels meanwhile: only a change that never started
 * reports G_IO_ERROR_CANCELLED. */
static GTask *
new_write_task (AkcSqliteChatMemory *self,
                GCancellable        *cancellable,
                GAsyncReadyCallback  callback,
                gpointer             user_data,
                gpointer             source_tag)
{
  GTask *task = g_task_new (self, cancellable, callback, user_data);

  g_task_set_source_tag (task, source_tag);
  g_task_set_check_cancellable (task, FALSE);

  return task;
}

static GTask *
new_read_task (AkcSqliteChatMemory *self,
               GCancellable        *cancellable,
               GAsyncReadyCallback  callback,
               gpointer             user_data,
               gpointer             source_tag)
{
  GTask *task = g_task_new (self, cancellable, callback, user_data);

  g_task_set_source_tag (task, source_tag);

  return task;
}

/* ------------------------------------------------------------------ */
/* SQLite helpers (worker thread only)                                 */
/* ------------------------------------------------------------------ */

static void
stmt_release (sqlite3_stmt *stmt)
{
  sqlite3_reset (stmt);
  sqlite3_clear_bindings (stmt);
}

G_DEFINE_AUTOPTR_CLEANUP_FUNC (sqlite3_stmt, stmt_release)

/* A prepared statement, ready to bind. Release it with stmt_release (the
 * g_autoptr cleanup) so no statement keeps a transaction open. */
static sqlite3_stmt *
worker_get_stmt (Worker  *worker,
                 Stmt     which,
                 GError **error)
{
  int rc;

  if (worker->stmts[which] == NULL)
    {
      rc = sqlite3_prepare_v3 (worker->db, stmt_sql[which], -1, SQLITE_PREPARE_PERSISTENT,
                               &worker->stmts[which], NULL);
      if (rc != SQLITE_OK)
        {
          /* The tables are not those of the schema version the file
           * claims: it was changed by something else. */
          g_autofree char *name = g_filename_display_name (worker->path);

          g_clear_pointer (&worker->stmts[which], sqlite3_finalize);
          if ((rc & 0xff) == SQLITE_ERROR)
            g_set_error (error, AKC_CHAT_MEMORY_ERROR, AKC_CHAT_MEMORY_ERROR_CORRUPT,
                         _("The history “%s” does not have the expected tables."), name);
          else
            akc_sqlite_set_error (error, worker->db, rc, worker->path);
          return NULL;
        }
    }

  return worker->stmts[which];
}

static gboolean
worker_fail (Worker  *worker,
             int      rc,
             GError **error)
{
  akc_sqlite_set_error (error, worker->db, rc, worker->path);
  return FALSE;
}

/* Steps a statement that returns no rows. */
static gboolean
worker_step_done (Worker        *worker,
                  sqlite3_stmt  *stmt,
                  GError       **error)
{
  int rc = sqlite3_step (stmt);

  if (rc != SQLITE_DONE)
    return worker_fail (worker, rc, error);

  return TRUE;
}

static gboolean
worker_begin (Worker   *worker,
              gboolean  write,
              GError  **error)
{
  /* A write takes the lock first, so it never has to give up half-way
   * for another writer; a read sees one consistent state. */
  return akc_sqlite_exec (worker->db, write ? "BEGIN IMMEDIATE" : "BEGIN", worker->path, error);
}

static gboolean
worker_commit (Worker  *worker,
               GError **error)
{
  return akc_sqlite_exec (worker->db, "COMMIT", worker->path, error);
}

static void
worker_rollback (Worker *worker)
{
  if (!sqlite3_get_autocommit (worker->db))
    sqlite3_exec (worker->db, "ROLLBACK", NULL, NULL, NULL);
}

/* Runs @write in one write transaction and reports the outcome to @job:
 * TRUE once committed, or the error after rolling everything back. */
typedef gboolean (*WriteFunc) (Worker    *worker,
                               gpointer   data,
                               GError   **error);

static void
job_write (Worker    *worker,
           Job       *job,
           WriteFunc  write,
           gpointer   data)
{
  GError *error = NULL;

  if (!worker_begin (worker, TRUE, &error))
    {
      job_return_error (job, error);
      return;
    }

  if (!write (worker, data, &error) || !worker_commit (worker, &error))
    {
      worker_rollback (worker);
      job_return_error (job, error);
      return;
    }

  job_return_boolean (job, TRUE);
}

static void
bind_text (sqlite3_stmt *stmt,
           int           index,
           const char   *text)
{
  if (text == NULL)
    sqlite3_bind_null (stmt, index);
  else
    sqlite3_bind_text (stmt, index, text, -1, SQLITE_STATIC);
}

/* Text of a column with its byte length (U+0000 included), or NULL. */
static const char *
column_text (sqlite3_stmt *stmt,
             int           column,
             gsize        *length)
{
  const char *text;

  if (sqlite3_column_type (stmt, column) == SQLITE_NULL)
    {
      if (length != NULL)
        *length = 0;
      return NULL;
    }

  text = (const char *) sqlite3_column_text (stmt, column);
  if (length != NULL)
    *length = sqlite3_column_bytes (stmt, column);

  return text != NULL ? text : "";
}

/* A copy of a column that must be text without U+0000, or NULL. */
static char *
column_dup_string (sqlite3_stmt *stmt,
                   int           column)
{
  gsize length = 0;
  const char *text = column_text (stmt, column, &length);

  if (text == NULL || strlen (text) != length)
    return NULL;

  return g_strdup (text);
}

static gboolean
check_conversation_id (const char  *id,
                       GError     **error)
{
  if (!akc_text_is_safe_id (id, strlen (id)))
    {
      g_set_error_literal (error, AKC_CHAT_MEMORY_ERROR, AKC_CHAT_MEMORY_ERROR_INVALID,
                           _("A conversation id is 1 to 128 letters, digits, “.”, “_”, “:” or “-”, "
                             "starting with a letter or a digit."));
      return FALSE;
    }

  return TRUE;
}

static gboolean
set_not_found (GError **error)
{
  g_set_error_literal (error, AKC_CHAT_MEMORY_ERROR, AKC_CHAT_MEMORY_ERROR_NOT_FOUND,
                       _("There is no such conversation in the history."));
  return FALSE;
}

/* Whether the conversation exists; FALSE with NOT_FOUND otherwise. */
static gboolean
worker_check_conversation (Worker      *worker,
                           const char  *id,
                           GError     **error)
{
  g_autoptr(sqlite3_stmt) stmt = worker_get_stmt (worker, STMT_EXISTS, error);
  int rc;

  if (stmt == NULL)
    return FALSE;

  bind_text (stmt, 1, id);
  rc = sqlite3_step (stmt);
  if (rc == SQLITE_DONE)
    return set_not_found (error);
  if (rc != SQLITE_ROW)
    return worker_fail (worker, rc, error);

  return TRUE;
}

static gboolean
worker_touch (Worker      *worker,
              const char  *id,
              GError     **error)
{
  g_autoptr(sqlite3_stmt) stmt = worker_get_stmt (worker, STMT_TOUCH, error);

  if (stmt == NULL)
    return FALSE;

  bind_text (stmt, 1, id);
  sqlite3_bind_int64 (stmt, 2, g_get_real_time ());

  return worker_step_done (worker, stmt, error);
}

static gboolean
worker_count_messages (Worker      *worker,
                       const char  *id,
                       gint64      *count,
                       GError     **error)
{
  g_autoptr(sqlite3_stmt) stmt = worker_get_stmt (worker, STMT_COUNT, error);
  int rc;

  if (stmt == NULL)
    return FALSE;

  bind_text (stmt, 1, id);
  rc = sqlite3_step (stmt);
  if (rc != SQLITE_ROW)
    return worker_fail (worker, rc, error);

  *count = sqlite3_column_int64 (stmt, 0);
  return TRUE;
}

/* The message columns ?2 … ?10 and ?12 of STMT_INSERT and STMT_SAVE. */
static void
bind_message (sqlite3_stmt           *stmt,
              const AkcStoredMessage *stored)
{
  char *search_text = akc_message_dup_search_text (stored->role, stored->content, stored->content_length);

  bind_text (stmt, 2, stored->id);
  bind_text (stmt, 3, stored->role);
  bind_text (stmt, 4, stored->status);
  sqlite3_bind_int (stmt, 5, stored->stopped ? 1 : 0);
  /* With its byte length: U+0000 is kept. */
  sqlite3_bind_text64 (stmt, 6, stored->content, stored->content_length, SQLITE_STATIC, SQLITE_UTF8);
  sqlite3_bind_int64 (stmt, 7, stored->created_at);
  bind_text (stmt, 8, stored->tool_call_id);
  bind_text (stmt, 9, stored->tool_calls);
  bind_text (stmt, 10, stored->lineage);
  /* What search matches and shows of a structured content (schema 9). */
  if (search_text != NULL)
    sqlite3_bind_text64 (stmt, 12, search_text, strlen (search_text), g_free, SQLITE_UTF8);
  else
    sqlite3_bind_null (stmt, 12);
}

/* ------------------------------------------------------------------ */
/* Jobs (worker thread)                                                */
/* ------------------------------------------------------------------ */

static void
job_open (Worker *worker,
          Job    *job)
{
  const AkcSqliteMigration *migrations;
  gsize n_migrations;
  GError *error = NULL;

  if (worker->db != NULL)
    {
      job_return_boolean (job, TRUE);
      return;
    }

  /* A history that failed to open stays failed: opening it again would
   * give the same answer, and a damaged file must not be retried into. */
  if (worker->open_error != NULL)
    {
      job_return_error (job, g_error_copy (worker->open_error));
      return;
    }

  migrations = akc_sqlite_schema_get_migrations (&n_migrations);
  worker->db = akc_sqlite_open (worker->path, migrations, n_migrations, &error);
  if (worker->db != NULL && !akc_sqlite_message_extras_ensure (worker->db, worker->path, &error))
    g_clear_pointer (&worker->db, sqlite3_close_v2);
  if (worker->db == NULL)
    {
      worker->open_error = g_error_copy (error);
      job_return_error (job, error);
      return;
    }
  /* The pages the open read and wrote (all of a new file's schema, every
   * table and index created) are not what the reads after it need: the
   * cache gives them back, and fills again with what is read. */
  sqlite3_db_release_memory (worker->db);

  job_return_boolean (job, TRUE);
}

/* The info of the row @stmt is on (INFO_COLUMNS), or NULL with @error. */
static AkcConversationInfo *
read_info (Worker        *worker,
           sqlite3_stmt  *stmt,
           GError       **error)
{
  g_autofree char *id = column_dup_string (stmt, 0);
  g_autofree char *title = column_dup_string (stmt, 1);
  g_autofree char *assistant_id = column_dup_string (stmt, 8);
  g_autoptr(AkcUsage) usage = akc_usage_new ((guint64) sqlite3_column_int64 (stmt, 2),
                                             (guint64) sqlite3_column_int64 (stmt, 3),
                                             (guint64) sqlite3_column_int64 (stmt, 4));
  g_autoptr(GDateTime) created_at = akc_stored_time_to_date_time (sqlite3_column_int64 (stmt, 5));
  g_autoptr(GDateTime) updated_at = akc_stored_time_to_date_time (sqlite3_column_int64 (stmt, 6));
  gint64 n_messages = sqlite3_column_int64 (stmt, 7);
  g_autofree char *provider_kind = NULL;
  g_autofree char *provider_url = NULL;
  g_autofree char *model = NULL;
  AkcConversationInfo *info;

  if (id == NULL || !g_utf8_validate (id, -1, NULL) ||
      title == NULL || !g_utf8_validate (title, -1, NULL) ||
      assistant_id == NULL || !g_utf8_validate (assistant_id, -1, NULL) ||
      created_at == NULL || updated_at == NULL)
    {
      g_autofree char *name = g_filename_display_name (worker->path);

      g_set_error (error, AKC_CHAT_MEMORY_ERROR, AKC_CHAT_MEMORY_ERROR_CORRUPT,
                   _("The history “%s” is damaged (a conversation cannot be read)."),
                   name);
      return NULL;
    }

  info = akc_conversation_info_new_full (id, assistant_id, title, usage, created_at, updated_at,
                                         (guint) MIN (n_messages, G_MAXUINT),
                                         sqlite3_column_int (stmt, 9) != 0);
  /* Another program may have written anything: text that is not a
   * string is no provider. */
  provider_kind = column_dup_string (stmt, 10);
  provider_url = column_dup_string (stmt, 11);
  model = column_dup_string (stmt, 12);
  akc_conversation_info_set_provider (info,
                                      provider_kind != NULL && g_utf8_validate (provider_kind, -1, NULL) ? provider_kind : NULL,
                                      provider_url != NULL && g_utf8_validate (provider_url, -1, NULL) ? provider_url : NULL,
                                      model != NULL && g_utf8_validate (model, -1, NULL) ? model : NULL);
  return info;
}

/* Every row of @stmt, bound, as infos; NULL with @error. */
static GPtrArray *
read_infos (Worker        *worker,
            Job           *job,
            sqlite3_stmt  *stmt,
            GError       **error)
{
  g_autoptr(GPtrArray) infos = g_ptr_array_new_with_free_func (g_object_unref);
  int rc;

  while ((rc = sqlite3_step (stmt)) == SQLITE_ROW)
    {
      AkcConversationInfo *info = read_info (worker, stmt, error);

      if (info == NULL)
        return NULL;
      g_ptr_array_add (infos, info);

      if (infos->len % CANCEL_CHECK_ROWS == 0 &&
          g_cancellable_set_error_if_cancelled (g_task_get_cancellable (job->task), error))
        return NULL;
    }

  if (rc != SQLITE_DONE)
    {
      worker_fail (worker, rc, error);
      return NULL;
    }

  return g_steal_pointer (&infos);
}

static void
job_list (Worker *worker,
          Job    *job)
{
  g_autoptr(sqlite3_stmt) stmt = NULL;
  GPtrArray *infos;
  GError *error = NULL;

  stmt = worker_get_stmt (worker, STMT_LIST, &error);
  if (stmt == NULL || (infos = read_infos (worker, job, stmt, &error)) == NULL)
    {
      job_return_error (job, error);
      return;
    }

  job_return_pointer (job, infos, (GDestroyNotify) g_ptr_array_unref);
}

typedef struct
{
  guint offset;
  guint limit;
} PageData;

static void
job_page (Worker *worker,
          Job    *job)
{
  PageData *data = g_task_get_task_data (job->task);
  g_autoptr(sqlite3_stmt) stmt = NULL;
  GPtrArray *infos;
  GError *error = NULL;

  stmt = worker_get_stmt (worker, STMT_PAGE, &error);
  if (stmt == NULL)
    {
      job_return_error (job, error);
      return;
    }

  sqlite3_bind_int64 (stmt, 1, data->limit);
  sqlite3_bind_int64 (stmt, 2, data->offset);
  infos = read_infos (worker, job, stmt, &error);
  if (infos == NULL)
    {
      job_return_error (job, error);
      return;
    }

  job_return_pointer (job, infos, (GDestroyNotify) g_ptr_array_unref);
}

static void
job_get (Worker *worker,
         Job    *job)
{
  const char *id = g_task_get_task_data (job->task);
  g_autoptr(sqlite3_stmt) stmt = NULL;
  g_autoptr(GPtrArray) infos = NULL;
  GError *error = NULL;

  if (!check_conversation_id (id, &error) ||
      (stmt = worker_get_stmt (worker, STMT_GET, &error)) == NULL)
    {
      job_return_error (job, error);
      return;
    }

  bind_text (stmt, 1, id);
  infos = read_infos (worker, job, stmt, &error);
  if (infos == NULL)
    {
      job_return_error (job, error);
      return;
    }
  if (infos->len == 0)
    {
      set_not_found (&error);
      job_return_error (job, error);
      return;
    }

  job_return_pointer (job, g_object_ref (g_ptr_array_index (infos, 0)), g_object_unref);
}

typedef struct
{
  char  *assistant_id;
  guint  limit;
} AssistantData;

static void
assistant_data_free (gpointer data)
{
  AssistantData *assistant = data;

  g_free (assistant->assistant_id);
  g_free (assistant);
}

static void
job_assistant (Worker *worker,
               Job    *job)
{
  AssistantData *data = g_task_get_task_data (job->task);
  g_autoptr(sqlite3_stmt) stmt = NULL;
  GPtrArray *infos;
  GError *error = NULL;

  stmt = worker_get_stmt (worker, STMT_ASSISTANT, &error);
  if (stmt == NULL)
    {
      job_return_error (job, error);
      return;
    }

  bind_text (stmt, 1, data->assistant_id);
  sqlite3_bind_int64 (stmt, 2, data->limit);
  infos = read_infos (worker, job, stmt, &error);
  if (infos == NULL)
    {
      job_return_error (job, error);
      return;
    }

  job_return_pointer (job, infos, (GDestroyNotify) g_ptr_array_unref);
}

typedef struct
{
  char     *id;
  char     *assistant_id;
  char     *title;
  gboolean  has_usage;
  AkcUsage  usage;
  gboolean  pinned;
  char     *provider_kind;
  char     *provider_url;
  char     *model;
} ConversationData;

static void
conversation_data_free (gpointer data)
{
  ConversationData *conversation = data;

  g_free (conversation->id);
  g_free (conversation->assistant_id);
  g_free (conversation->title);
  g_free (conversation->provider_kind);
  g_free (conversation->provider_url);
  g_free (conversation->model);
  g_free (conversation);
}

static void
job_create (Worker *worker,
            Job    *job)
{
  ConversationData *data = g_task_get_task_data (job->task);
  g_autoptr(sqlite3_stmt) stmt = NULL;
  g_autoptr(GDateTime) now = NULL;
  GError *error = NULL;
  gint64 usec = g_get_real_time ();

  if (!check_conversation_id (data->id, &error))
    goto fail;

  if (*data->assistant_id != '\0' && !akc_text_is_safe_id (data->assistant_id, strlen (data->assistant_id)))
    {
      g_set_error_literal (&error, AKC_CHAT_MEMORY_ERROR, AKC_CHAT_MEMORY_ERROR_INVALID,
                           _("An assistant id is 1 to 128 letters, digits, “.”, “_”, “:” or “-”, "
                             "starting with a letter or a digit."));
      goto fail;
    }

  stmt = worker_get_stmt (worker, STMT_CREATE, &error);
  if (stmt == NULL)
    goto fail;

  bind_text (stmt, 1, data->id);
  bind_text (stmt, 2, data->title);
  sqlite3_bind_int64 (stmt, 3, usec);
  bind_text (stmt, 4, data->assistant_id);
  if (!worker_step_done (worker, stmt, &error))
    goto fail;

  if (sqlite3_changes (worker->db) == 0)
    {
      g_set_error_literal (&error, AKC_CHAT_MEMORY_ERROR, AKC_CHAT_MEMORY_ERROR_EXISTS,
                           _("The history already has a conversation with this id."));
      goto fail;
    }

  now = akc_stored_time_to_date_time (usec);
  job_set_changed (job, data->id);
  job_return_pointer (job, akc_conversation_info_new_full (data->id, data->assistant_id, data->title,
                                                           NULL, now, now, 0, FALSE),
                      g_object_unref);
  return;

fail:
  job_return_error (job, error);
}

static guint64
add_saturating (guint64 a,
                guint64 b)
{
  return a > G_MAXUINT64 - b ? G_MAXUINT64 : a + b;
}

static gboolean
worker_update (Worker    *worker,
              gpointer   user_data,
              GError   **error)
{
  ConversationData *data = user_data;
  g_autoptr(sqlite3_stmt) read = worker_get_stmt (worker, STMT_USAGE, error);
  g_autoptr(sqlite3_stmt) write = NULL;
  AkcUsage usage;
  int rc;

  if (read == NULL)
    return FALSE;

  bind_text (read, 1, data->id);
  rc = sqlite3_step (read);
  if (rc == SQLITE_DONE)
    return set_not_found (error);
  if (rc != SQLITE_ROW)
    return worker_fail (worker, rc, error);

  /* Unsigned counts are kept by bit pattern: every value reads back. */
  usage.prompt_tokens = (guint64) sqlite3_column_int64 (read, 0);
  usage.completion_tokens = (guint64) sqlite3_column_int64 (read, 1);
  usage.total_tokens = (guint64) sqlite3_column_int64 (read, 2);
  g_clear_pointer (&read, stmt_release);

  if (data->has_usage)
    {
      usage.prompt_tokens = add_saturating (usage.prompt_tokens, data->usage.prompt_tokens);
      usage.completion_tokens = add_saturating (usage.completion_tokens, data->usage.completion_tokens);
      usage.total_tokens = add_saturating (usage.total_tokens, data->usage.total_tokens);
    }

  write = worker_get_stmt (worker, STMT_UPDATE, error);
  if (write == NULL)
    return FALSE;

  bind_text (write, 1, data->id);
  bind_text (write, 2, data->title);
  sqlite3_bind_int64 (write, 3, (sqlite3_int64) usage.prompt_tokens);
  sqlite3_bind_int64 (write, 4, (sqlite3_int64) usage.completion_tokens);
  sqlite3_bind_int64 (write, 5, (sqlite3_int64) usage.total_tokens);

  return worker_step_done (worker, write, error);
}

static void
job_update (Worker *worker,
            Job    *job)
{
  ConversationData *data = g_task_get_task_data (job->task);
  GError *error = NULL;

  if (!check_conversation_id (data->id, &error))
    job_return_error (job, error);
  else
    job_write (worker, job, worker_update, data);
  job_set_changed (job, data->id);
}

static gboolean
worker_pin (Worker    *worker,
            gpointer   user_data,
            GError   **error)
{
  ConversationData *data = user_data;
  g_autoptr(sqlite3_stmt) stmt = worker_get_stmt (worker, STMT_PIN, error);

  if (stmt == NULL)
    return FALSE;

  bind_text (stmt, 1, data->id);
  sqlite3_bind_int (stmt, 2, data->pinned ? 1 : 0);
  if (!worker_step_done (worker, stmt, error))
    return FALSE;

  if (sqlite3_changes (worker->db) == 0)
    return set_not_found (error);

  return TRUE;
}

static void
job_pin (Worker *worker,
         Job    *job)
{
  ConversationData *data = g_task_get_task_data (job->task);
  GError *error = NULL;

  if (!check_conversation_id (data->id, &error))
    job_return_error (job, error);
  else
    job_write (worker, job, worker_pin, data);
  job_set_changed (job, data->id);
}

static gboolean
worker_set_model (Worker    *worker,
                  gpointer   user_data,
                  GError   **error)
{
  ConversationData *data = user_data;
  g_autoptr(sqlite3_stmt) stmt = worker_get_stmt (worker, STMT_SET_MODEL, error);

  if (stmt == NULL)
    return FALSE;

  bind_text (stmt, 1, data->id);
  bind_text (stmt, 2, data->provider_kind);
  bind_text (stmt, 3, data->provider_url);
  bind_text (stmt, 4, data->model);
  if (!worker_step_done (worker, stmt, error))
    return FALSE;

  if (sqlite3_changes (worker->db) == 0)
    return set_not_found (error);

  return TRUE;
}

static void
job_set_model (Worker *worker,
               Job    *job)
{
  ConversationData *data = g_task_get_task_data (job->task);
  GError *error = NULL;

  if (!check_conversation_id (data->id, &error))
    job_return_error (job, error);
  else
    job_write (worker, job, worker_set_model, data);
  job_set_changed (job, data->id);
}

static void
job_delete (Worker *worker,
            Job    *job)
{
  const char *id = g_task_get_task_data (job->task);
  g_autoptr(sqlite3_stmt) stmt = NULL;
  GError *error = NULL;

  if (!check_conversation_id (id, &error))
    goto fail;

  stmt = worker_get_stmt (worker, STMT_DELETE, &error);
  if (stmt == NULL)
    goto fail;

  /* One statement is one transaction; the messages go with the
   * conversation (ON DELETE CASCADE). */
  bind_text (stmt, 1, id);
  if (!worker_step_done (worker, stmt, &error))
    goto fail;

  if (sqlite3_changes (worker->db) == 0)
    {
      set_not_found (&error);
      goto fail;
    }

  job_set_changed (job, id);
  job_return_boolean (job, TRUE);
  return;

fail:
  job_return_error (job, error);
}

static AkcStoredMessage *
read_stored_message (sqlite3_stmt *stmt)
{
  AkcStoredMessage *stored = g_new0 (AkcStoredMessage, 1);
  const char *content;
  gsize length = 0;

  /* role and status point into the statement's row; they are read before
   * the next step. */
  stored->id = column_dup_string (stmt, 1);
  stored->role = column_text (stmt, 2, NULL);
  stored->status = column_text (stmt, 3, NULL);
  stored->stopped = sqlite3_column_int (stmt, 4) != 0;
  content = column_text (stmt, 5, &length);
  stored->content = g_malloc (length + 1);
  if (length > 0)
    memcpy (stored->content, content, length);
  stored->content[length] = '\0';
  stored->content_length = length;
  stored->created_at = sqlite3_column_int64 (stmt, 6);
  stored->tool_call_id = column_dup_string (stmt, 7);
  stored->tool_calls = column_dup_string (stmt, 8);
  stored->lineage = column_dup_string (stmt, 9);

  return stored;
}

static void
job_load (Worker *worker,
          Job    *job)
{
  const char *id = g_task_get_task_data (job->task);
  g_autoptr(GPtrArray) messages = g_ptr_array_new_with_free_func (g_object_unref);
  g_autoptr(sqlite3_stmt) stmt = NULL;
  GError *error = NULL;
  int rc;

  if (!check_conversation_id (id, &error) ||
      !worker_begin (worker, FALSE, &error))
    goto fail;

  if (!worker_check_conversation (worker, id, &error))
    goto fail;

  stmt = worker_get_stmt (worker, STMT_LOAD, &error);
  if (stmt == NULL)
    goto fail;

  bind_text (stmt, 1, id);
  while ((rc = sqlite3_step (stmt)) == SQLITE_ROW)
    {
      g_autoptr(AkcStoredMessage) stored = NULL;
      AkcMessage *message;

      /* Positions are dense: a gap means the rows were changed by
       * something else, and the order cannot be trusted. */
      if (sqlite3_column_int64 (stmt, 0) != (gint64) messages->len)
        {
          g_autofree char *name = g_filename_display_name (worker->path);

          g_set_error (&error, AKC_CHAT_MEMORY_ERROR, AKC_CHAT_MEMORY_ERROR_CORRUPT,
                       _("The history “%s” is damaged (the order of a conversation is broken)."),
                       name);
          goto fail;
        }

      stored = read_stored_message (stmt);
      message = akc_stored_message_to_message (stored, &error);
      if (message == NULL)
        goto fail;
      g_ptr_array_add (messages, message);

      if (messages->len % CANCEL_CHECK_ROWS == 0 &&
          g_cancellable_set_error_if_cancelled (g_task_get_cancellable (job->task), &error))
        goto fail;
    }

  if (rc != SQLITE_DONE)
    {
      worker_fail (worker, rc, &error);
      goto fail;
    }

  g_clear_pointer (&stmt, stmt_release);
  if (!akc_sqlite_message_extras_load (worker->db, id, messages, worker->path, &error) ||
      !worker_commit (worker, &error))
    goto fail;

  job_return_pointer (job, g_steal_pointer (&messages), (GDestroyNotify) g_ptr_array_unref);
  return;

fail:
  g_clear_pointer (&stmt, stmt_release);
  worker_rollback (worker);
  job_return_error (job, error);
}

typedef struct
{
  char      *conversation_id;
  guint      position;
  guint      n_removed;
  GPtrArray *added;   /* of AkcStoredMessage */
} SpliceData;

static void
splice_data_free (gpointer data)
{
  SpliceData *splice = data;

  g_free (splice->conversation_id);
  g_ptr_array_unref (splice->added);
  g_free (splice);
}

static gboolean
check_message_id (const char  *id,
                  GError     **error)
{
  if (id == NULL || *id == '\0' || !g_utf8_validate (id, -1, NULL))
    {
      g_set_error_literal (error, AKC_CHAT_MEMORY_ERROR, AKC_CHAT_MEMORY_ERROR_INVALID,
                           _("A message id must be non-empty text."));
      return FALSE;
    }

  return TRUE;
}

static gboolean
worker_splice (Worker    *worker,
              gpointer   user_data,
              GError   **error)
{
  SpliceData *data = user_data;
  gint64 count = 0;
  gint64 position = data->position;
  gint64 end;
  gint64 delta;

  if (!worker_check_conversation (worker, data->conversation_id, error) ||
      !worker_count_messages (worker, data->conversation_id, &count, error))
    return FALSE;

  if (data->position == G_MAXUINT)
    position = count;
  end = data->n_removed == G_MAXUINT ? MAX (position, count) : position + (gint64) data->n_removed;

  if (position > count || end > count)
    {
      g_set_error_literal (error, AKC_CHAT_MEMORY_ERROR, AKC_CHAT_MEMORY_ERROR_INVALID,
                           _("The change does not fit the stored conversation."));
      return FALSE;
    }

  delta = (gint64) data->added->len - (end - position);

  if (end > position)
    {
      g_autoptr(sqlite3_stmt) stmt = worker_get_stmt (worker, STMT_DELETE_RANGE, error);

      if (stmt == NULL)
        return FALSE;

      bind_text (stmt, 1, data->conversation_id);
      sqlite3_bind_int64 (stmt, 2, position);
      sqlite3_bind_int64 (stmt, 3, end);
      if (!worker_step_done (worker, stmt, error))
        return FALSE;
    }

  if (delta != 0 && end < count)
    {
      g_autoptr(sqlite3_stmt) out = worker_get_stmt (worker, STMT_SHIFT_OUT, error);
      g_autoptr(sqlite3_stmt) back = NULL;

      if (out == NULL)
        return FALSE;

      bind_text (out, 1, data->conversation_id);
      sqlite3_bind_int64 (out, 2, end);
      sqlite3_bind_int64 (out, 3, delta);
      if (!worker_step_done (worker, out, error))
        return FALSE;

      back = worker_get_stmt (worker, STMT_SHIFT_BACK, error);
      if (back == NULL)
        return FALSE;

      bind_text (back, 1, data->conversation_id);
      if (!worker_step_done (worker, back, error))
        return FALSE;
    }

  for (guint i = 0; i < data->added->len; i++)
    {
      const AkcStoredMessage *stored = g_ptr_array_index (data->added, i);
      g_autoptr(sqlite3_stmt) stmt = NULL;
      int rc;

      if (!check_message_id (stored->id, error))
        return FALSE;

      stmt = worker_get_stmt (worker, STMT_INSERT, error);
      if (stmt == NULL)
        return FALSE;

      bind_text (stmt, 1, data->conversation_id);
      bind_message (stmt, stored);
      sqlite3_bind_int64 (stmt, 11, position + i);

      rc = sqlite3_step (stmt);
      /* (conversation_id, id) is the primary key before version 6 and
       * unique since; positions are dense, so it is the id that clashed. */
      if (rc == SQLITE_CONSTRAINT_PRIMARYKEY || rc == SQLITE_CONSTRAINT_UNIQUE)
        {
          g_set_error_literal (error, AKC_CHAT_MEMORY_ERROR, AKC_CHAT_MEMORY_ERROR_EXISTS,
                               _("The conversation already has a message with this id."));
          return FALSE;
        }
      if (rc != SQLITE_DONE)
        return worker_fail (worker, rc, error);
      if (!akc_sqlite_message_extras_insert (worker->db, data->conversation_id, stored, worker->path, error))
        return FALSE;
    }

  for (guint i = 0; i < data->added->len; i++)
    {
      const AkcStoredMessage *stored = g_ptr_array_index (data->added, i);
      g_autoptr(sqlite3_stmt) stmt = NULL;

      if (g_strcmp0 (stored->role, "user") != 0)
        continue;

      stmt = worker_get_stmt (worker, STMT_AUTO_TITLE, error);
      if (stmt == NULL)
        return FALSE;

      bind_text (stmt, 1, data->conversation_id);
      sqlite3_bind_text64 (stmt, 2, stored->content, stored->content_length, SQLITE_STATIC, SQLITE_UTF8);
      if (!worker_step_done (worker, stmt, error))
        return FALSE;
      break;
    }

  return worker_touch (worker, data->conversation_id, error);
}

static void
job_splice (Worker *worker,
            Job    *job)
{
  SpliceData *data = g_task_get_task_data (job->task);
  GError *error = NULL;

  if (!check_conversation_id (data->conversation_id, &error))
    job_return_error (job, error);
  else
    job_write (worker, job, worker_splice, data);
  job_set_changed (job, data->conversation_id);
}

typedef struct
{
  char             *conversation_id;
  AkcStoredMessage *message;
} SaveData;

static void
save_data_free (gpointer data)
{
  SaveData *save = data;

  g_free (save->conversation_id);
  akc_stored_message_free (save->message);
  g_free (save);
}

static gboolean
worker_save (Worker    *worker,
            gpointer   user_data,
            GError   **error)
{
  SaveData *data = user_data;
  g_autoptr(sqlite3_stmt) stmt = worker_get_stmt (worker, STMT_SAVE, error);

  if (stmt == NULL)
    return FALSE;

  bind_text (stmt, 1, data->conversation_id);
  bind_message (stmt, data->message);
  if (!worker_step_done (worker, stmt, error))
    return FALSE;

  if (sqlite3_changes (worker->db) == 0)
    {
      if (worker_check_conversation (worker, data->conversation_id, error))
        g_set_error_literal (error, AKC_CHAT_MEMORY_ERROR, AKC_CHAT_MEMORY_ERROR_NOT_FOUND,
                             _("The conversation has no message with this id."));
      return FALSE;
    }
  if (!akc_sqlite_message_extras_save (worker->db, data->conversation_id, data->message, worker->path, error))
    return FALSE;

  return worker_touch (worker, data->conversation_id, error);
}

static void
job_save (Worker *worker,
          Job    *job)
{
  SaveData *data = g_task_get_task_data (job->task);
  GError *error = NULL;

  if (!check_conversation_id (data->conversation_id, &error) ||
      !check_message_id (data->message->id, &error))
    job_return_error (job, error);
  else
    job_write (worker, job, worker_save, data);
  job_set_changed (job, data->conversation_id);
}

/* ------------------------------------------------------------------ */
/* Search (worker thread)                                              */
/* ------------------------------------------------------------------ */

/* At most this many words of a search are looked for. */
#define SEARCH_MAX_TERMS 16

/* The FTS5 query for what a person typed: each word a quoted phrase (so
 * no character of it is query syntax), all of them required, the last one
 * a prefix unless the text ends with a space, as the person may still be
 * typing it. NULL when there is no word to look for. */
static char *
search_query (const char *text)
{
  g_auto(GStrv) words = g_regex_split_simple ("\\s+", text, G_REGEX_OPTIMIZE, 0);
  g_autoptr(GString) query = g_string_new (NULL);
  gsize length = strlen (text);
  gboolean open_ended = length > 0 && !g_ascii_isspace (text[length - 1]);
  guint n_terms = 0;
  int last = -1;

  for (int i = 0; words[i] != NULL; i++)
    {
      gboolean has_word_char = FALSE;

      for (const char *p = words[i]; *p != '\0'; p = g_utf8_next_char (p))
        if (g_unichar_isalnum (g_utf8_get_char (p)))
          has_word_char = TRUE;
      if (has_word_char)
        last = i;
    }

  for (int i = 0; words[i] != NULL && n_terms < SEARCH_MAX_TERMS; i++)
    {
      gboolean has_word_char = FALSE;

      for (const char *p = words[i]; *p != '\0'; p = g_utf8_next_char (p))
        if (g_unichar_isalnum (g_utf8_get_char (p)))
          has_word_char = TRUE;
      if (!has_word_char)
        continue;

      if (query->len > 0)
        g_string_append_c (query, ' ');
      g_string_append_c (query, '"');
      for (const char *p = words[i]; *p != '\0'; p++)
        {
          if (*p == '"')
            g_string_append_c (query, '"');
          g_string_append_c (query, *p);
        }
      g_string_append_c (query, '"');
      if (i == last && open_ended)
        g_string_append_c (query, '*');
      n_terms++;
    }

  if (query->len == 0)
    return NULL;

  return g_string_free (g_steal_pointer (&query), FALSE);
}

typedef struct
{
  char  *text;
  guint  limit;
} SearchData;

static void
search_data_free (gpointer data)
{
  SearchData *search = data;

  g_free (search->text);
  g_free (search);
}

static gboolean
worker_search_table (Worker        *worker,
                     Job           *job,
                     Stmt           which,
                     const char    *query,
                     guint          limit,
                     gboolean       is_title,
                     GPtrArray     *results,
                     GError       **error)
{
  g_autoptr(sqlite3_stmt) stmt = worker_get_stmt (worker, which, error);
  int rc;

  if (stmt == NULL)
    return FALSE;

  bind_text (stmt, 1, query);
  sqlite3_bind_int64 (stmt, 2, limit);

  while ((rc = sqlite3_step (stmt)) == SQLITE_ROW)
    {
      g_autofree char *conversation_id = column_dup_string (stmt, 0);
      g_autofree char *message_id = is_title ? NULL : column_dup_string (stmt, 1);
      const char *marked = column_text (stmt, 2, NULL);

      if (conversation_id == NULL || (!is_title && message_id == NULL))
        continue;

      g_ptr_array_add (results, akc_search_result_new_from_marked (conversation_id, message_id, marked,
                                                                   sqlite3_column_double (stmt, 3)));

      if (results->len % CANCEL_CHECK_ROWS == 0 &&
          g_cancellable_set_error_if_cancelled (g_task_get_cancellable (job->task), error))
        return FALSE;
    }

  if (rc != SQLITE_DONE)
    {
      /* A query FTS5 refuses is no match, not a damaged history. */
      if ((rc & 0xff) == SQLITE_ERROR)
        return TRUE;
      return worker_fail (worker, rc, error);
    }

  return TRUE;
}

static void
job_search (Worker *worker,
            Job    *job)
{
  SearchData *data = g_task_get_task_data (job->task);
  g_autoptr(GPtrArray) results = g_ptr_array_new_with_free_func (g_object_unref);
  g_autofree char *query = search_query (data->text);
  GError *error = NULL;

  if (query == NULL || data->limit == 0)
    {
      job_return_pointer (job, g_steal_pointer (&results), (GDestroyNotify) g_ptr_array_unref);
      return;
    }

  if (!worker_begin (worker, FALSE, &error) ||
      !worker_search_table (worker, job, STMT_SEARCH_TITLES, query, data->limit, TRUE, results, &error) ||
      (results->len < data->limit &&
       !worker_search_table (worker, job, STMT_SEARCH_MESSAGES, query, data->limit - results->len, FALSE,
                             results, &error)) ||
      !worker_commit (worker, &error))
    {
      worker_rollback (worker);
      job_return_error (job, error);
      return;
    }

  job_return_pointer (job, g_steal_pointer (&results), (GDestroyNotify) g_ptr_array_unref);
}

/* ------------------------------------------------------------------ */
/* Export and import (worker thread)                                   */
/* ------------------------------------------------------------------ */

typedef struct
{
  char                  *conversation_id;
  AkcConversationFormat  format;
} ExportData;

static void
export_data_free (gpointer data)
{
  ExportData *export = data;

  g_free (export->conversation_id);
  g_free (export);
}

/* Every field of a conversation, in one read transaction. */
static AkcConversationRecord *
worker_read_record (Worker      *worker,
                    Job         *job,
                    const char  *id,
                    GError     **error)
{
  g_autoptr(AkcConversationRecord) record = akc_conversation_record_new ();
  g_autoptr(GPtrArray) messages = g_ptr_array_new_with_free_func (g_object_unref);
  g_autoptr(sqlite3_stmt) stmt = NULL;
  int rc;

  stmt = worker_get_stmt (worker, STMT_EXPORT_CONVERSATION, error);
  if (stmt == NULL)
    return NULL;

  bind_text (stmt, 1, id);
  rc = sqlite3_step (stmt);
  if (rc == SQLITE_DONE)
    {
      set_not_found (error);
      return NULL;
    }
  if (rc != SQLITE_ROW)
    {
      worker_fail (worker, rc, error);
      return NULL;
    }

  record->id = g_strdup (id);
  record->title = column_dup_string (stmt, 0);
  record->assistant_id = column_dup_string (stmt, 1);
  record->pinned = sqlite3_column_int (stmt, 2) != 0;
  record->created_at = sqlite3_column_int64 (stmt, 3);
  record->updated_at = sqlite3_column_int64 (stmt, 4);
  record->usage.prompt_tokens = (guint64) sqlite3_column_int64 (stmt, 5);
  record->usage.completion_tokens = (guint64) sqlite3_column_int64 (stmt, 6);
  record->usage.total_tokens = (guint64) sqlite3_column_int64 (stmt, 7);
  record->provider_kind = column_dup_string (stmt, 8);
  record->provider_url = column_dup_string (stmt, 9);
  record->model = column_dup_string (stmt, 10);
  g_clear_pointer (&stmt, stmt_release);
  /* Another program may have written anything there: what is not text is
   * no provider. */
  if (record->provider_kind != NULL && !g_utf8_validate (record->provider_kind, -1, NULL))
    g_clear_pointer (&record->provider_kind, g_free);
  if (record->provider_url != NULL && !g_utf8_validate (record->provider_url, -1, NULL))
    g_clear_pointer (&record->provider_url, g_free);
  if (record->model != NULL && !g_utf8_validate (record->model, -1, NULL))
    g_clear_pointer (&record->model, g_free);

  if (record->title == NULL || record->assistant_id == NULL ||
      !g_utf8_validate (record->title, -1, NULL) || !g_utf8_validate (record->assistant_id, -1, NULL))
    {
      g_autofree char *name = g_filename_display_name (worker->path);

      g_set_error (error, AKC_CHAT_MEMORY_ERROR, AKC_CHAT_MEMORY_ERROR_CORRUPT,
                   _("The history “%s” is damaged (a conversation cannot be read)."), name);
      return NULL;
    }

  stmt = worker_get_stmt (worker, STMT_LOAD, error);
  if (stmt == NULL)
    return NULL;

  bind_text (stmt, 1, id);
  while ((rc = sqlite3_step (stmt)) == SQLITE_ROW)
    {
      g_autoptr(AkcStoredMessage) stored = read_stored_message (stmt);
      AkcMessage *message = akc_stored_message_to_message (stored, error);

      if (message == NULL)
        return NULL;
      g_ptr_array_add (messages, message);

      if (messages->len % CANCEL_CHECK_ROWS == 0 &&
          g_cancellable_set_error_if_cancelled (g_task_get_cancellable (job->task), error))
        return NULL;
    }
  if (rc != SQLITE_DONE)
    {
      worker_fail (worker, rc, error);
      return NULL;
    }
  g_clear_pointer (&stmt, stmt_release);

  /* What a message carries besides its row (its attachments and usage),
   * then every field as the history writes it. */
  if (!akc_sqlite_message_extras_load (worker->db, id, messages, worker->path, error))
    return NULL;
  for (guint i = 0; i < messages->len; i++)
    g_ptr_array_add (record->messages, akc_stored_message_new_from_message (g_ptr_array_index (messages, i)));

  stmt = worker_get_stmt (worker, STMT_EXPORT_RESOLUTIONS, error);
  if (stmt == NULL)
    return NULL;

  bind_text (stmt, 1, id);
  while ((rc = sqlite3_step (stmt)) == SQLITE_ROW)
    {
      AkcStoredResolution *resolution = g_new0 (AkcStoredResolution, 1);

      resolution->instance_id = column_dup_string (stmt, 0);
      resolution->message_id = column_dup_string (stmt, 1);
      resolution->event = column_dup_string (stmt, 2);
      resolution->value = column_dup_string (stmt, 3);
      resolution->resolved_at = sqlite3_column_int64 (stmt, 4);
      if (resolution->instance_id == NULL || resolution->message_id == NULL || resolution->event == NULL)
        {
          akc_stored_resolution_free (resolution);
          continue;
        }
      g_ptr_array_add (record->resolutions, resolution);
    }
  if (rc != SQLITE_DONE)
    {
      worker_fail (worker, rc, error);
      return NULL;
    }

  return g_steal_pointer (&record);
}

static void
job_export (Worker *worker,
            Job    *job)
{
  ExportData *data = g_task_get_task_data (job->task);
  g_autoptr(AkcConversationRecord) record = NULL;
  GString *out;
  GError *error = NULL;

  if (!check_conversation_id (data->conversation_id, &error) ||
      !worker_begin (worker, FALSE, &error))
    {
      job_return_error (job, error);
      return;
    }

  record = worker_read_record (worker, job, data->conversation_id, &error);
  if (record == NULL || !worker_commit (worker, &error))
    {
      worker_rollback (worker);
      job_return_error (job, error);
      return;
    }

  out = g_string_new (NULL);
  if (data->format == AKC_CONVERSATION_FORMAT_JSON)
    akc_conversation_record_write_json (record, out);
  else
    akc_conversation_record_write_markdown (record, out);

  job_return_pointer (job, g_string_free_to_bytes (out), (GDestroyNotify) g_bytes_unref);
}

typedef struct
{
  GBytes                *data;
  AkcConversationRecord *record;   /* parsed on the worker */
  char                  *id;       /* the new conversation's */
} ImportData;

static void
import_data_free (gpointer data)
{
  ImportData *import = data;

  g_bytes_unref (import->data);
  akc_conversation_record_free (import->record);
  g_free (import->id);
  g_free (import);
}

static gboolean
worker_import (Worker    *worker,
               gpointer   user_data,
               GError   **error)
{
  ImportData *data = user_data;
  AkcConversationRecord *record = data->record;
  g_autoptr(sqlite3_stmt) stmt = worker_get_stmt (worker, STMT_IMPORT_CONVERSATION, error);

  if (stmt == NULL)
    return FALSE;

  bind_text (stmt, 1, data->id);
  bind_text (stmt, 2, record->title);
  sqlite3_bind_int64 (stmt, 3, record->created_at);
  sqlite3_bind_int64 (stmt, 4, record->updated_at);
  bind_text (stmt, 5, record->assistant_id);
  sqlite3_bind_int (stmt, 6, record->pinned ? 1 : 0);
  sqlite3_bind_int64 (stmt, 7, (sqlite3_int64) record->usage.prompt_tokens);
  sqlite3_bind_int64 (stmt, 8, (sqlite3_int64) record->usage.completion_tokens);
  sqlite3_bind_int64 (stmt, 9, (sqlite3_int64) record->usage.total_tokens);
  bind_text (stmt, 10, record->provider_kind);
  bind_text (stmt, 11, record->provider_url);
  bind_text (stmt, 12, record->model);
  if (!worker_step_done (worker, stmt, error))
    return FALSE;
  g_clear_pointer (&stmt, stmt_release);

  for (guint i = 0; i < record->messages->len; i++)
    {
      const AkcStoredMessage *stored = g_ptr_array_index (record->messages, i);

      stmt = worker_get_stmt (worker, STMT_INSERT, error);
      if (stmt == NULL)
        return FALSE;
      bind_text (stmt, 1, data->id);
      bind_message (stmt, stored);
      sqlite3_bind_int64 (stmt, 11, i);
      if (!worker_step_done (worker, stmt, error))
        return FALSE;
      g_clear_pointer (&stmt, stmt_release);
      if (!akc_sqlite_message_extras_insert (worker->db, data->id, stored, worker->path, error))
        return FALSE;
    }

  for (guint i = 0; i < record->resolutions->len; i++)
    {
      const AkcStoredResolution *resolution = g_ptr_array_index (record->resolutions, i);

      stmt = worker_get_stmt (worker, STMT_IMPORT_RESOLUTION, error);
      if (stmt == NULL)
        return FALSE;
      bind_text (stmt, 1, data->id);
      bind_text (stmt, 2, resolution->instance_id);
      bind_text (stmt, 3, resolution->message_id);
      bind_text (stmt, 4, resolution->event);
      bind_text (stmt, 5, resolution->value);
      sqlite3_bind_int64 (stmt, 6, resolution->resolved_at);
      if (!worker_step_done (worker, stmt, error))
        return FALSE;
      g_clear_pointer (&stmt, stmt_release);
    }

  return TRUE;
}

static void
job_import (Worker *worker,
            Job    *job)
{
  ImportData *data = g_task_get_task_data (job->task);
  g_autoptr(sqlite3_stmt) stmt = NULL;
  g_autoptr(GPtrArray) infos = NULL;
  gsize length = 0;
  const char *bytes = g_bytes_get_data (data->data, &length);
  GError *error = NULL;

  data->record = akc_conversation_record_parse_json (bytes != NULL ? bytes : "", length, &error);
  if (data->record == NULL)
    {
      job_return_error (job, error);
      return;
    }

  /* One transaction: a failure adds nothing. */
  job_write (worker, job, worker_import, data);
  if (job->kind == RESULT_ERROR)
    return;

  job_set_changed (job, data->id);

  stmt = worker_get_stmt (worker, STMT_GET, &error);
  if (stmt != NULL)
    {
      bind_text (stmt, 1, data->id);
      infos = read_infos (worker, job, stmt, &error);
    }
  if (infos == NULL || infos->len == 0)
    {
      /* Stored; only reading it back failed. */
      g_clear_error (&error);
      job_return_pointer (job, akc_conversation_info_new_full (data->id, data->record->assistant_id,
                                                               data->record->title, &data->record->usage,
                                                               NULL, NULL, data->record->messages->len,
                                                               data->record->pinned),
                          g_object_unref);
      return;
    }

  job_return_pointer (job, g_object_ref (g_ptr_array_index (infos, 0)), g_object_unref);
}

/* ------------------------------------------------------------------ */
/* Transactions for the other tables                                   */
/* ------------------------------------------------------------------ */

typedef struct
{
  AkcSqliteTransactionFunc func;
  gpointer                 data;
  GDestroyNotify           data_free;
  GDestroyNotify           result_free;
} RunData;

static void
run_data_free (gpointer data)
{
  RunData *run = data;

  if (run->data_free != NULL)
    run->data_free (run->data);
  g_free (run);
}

static void
job_run (Worker *worker,
         Job    *job)
{
  RunData *run = g_task_get_task_data (job->task);
  GError *error = NULL;
  gpointer result;

  if (!worker_begin (worker, TRUE, &error))
    {
      job_return_error (job, error);
      return;
    }

  result = run->func (worker->db, worker->path, run->data, &error);
  if (result == NULL || !worker_commit (worker, &error))
    {
      if (result != NULL && run->result_free != NULL)
        run->result_free (result);
      worker_rollback (worker);
      if (error == NULL)
        error = g_error_new_literal (AKC_CHAT_MEMORY_ERROR, AKC_CHAT_MEMORY_ERROR_FAILED,
                                     _("The history could not be changed."));
      job_return_error (job, error);
      return;
    }

  job_return_pointer (job, result, run->result_free);
}

void
akc_sqlite_chat_memory_run_async (AkcSqliteChatMemory      *self,
                                  AkcSqliteTransactionFunc  func,
                                  gpointer                  data,
                                  GDestroyNotify            data_free,
                                  GDestroyNotify            result_free,
                                  GCancellable             *cancellable,
                                  GAsyncReadyCallback       callback,
                                  gpointer                  user_data)
{
  RunData *run = g_new0 (RunData, 1);
  GTask *task;

  run->func = func;
  run->data = data;
  run->data_free = data_free;
  run->result_free = result_free;

  task = new_write_task (self, cancellable, callback, user_data, akc_sqlite_chat_memory_run_async);
  g_task_set_task_data (task, run, run_data_free);
  queue_job (self, task, job_run);
}

gpointer
akc_sqlite_chat_memory_run_finish (AkcSqliteChatMemory  *self,
                                   GAsyncResult         *result,
                                   GError              **error)
{
  g_return_val_if_fail (g_task_is_valid (result, self), NULL);

  return g_task_propagate_pointer (G_TASK (result), error);
}

/* ------------------------------------------------------------------ */
/* AkcChatMemory                                                       */
/* ------------------------------------------------------------------ */

static void
akc_sqlite_chat_memory_list_conversations_async (AkcChatMemory       *memory,
                                                 GCancellable        *cancellable,
                                                 GAsyncReadyCallback  callback,
                                                 gpointer             user_data)
{
  AkcSqliteChatMemory *self = AKC_SQLITE_CHAT_MEMORY (memory);

  queue_job (self,
             new_read_task (self, cancellable, callback, user_data,
                            akc_sqlite_chat_memory_list_conversations_async),
             job_list);
}

/* The model of @type a read job's task returns its array of objects as. */
static GListModel *
list_of (GAsyncResult  *result,
         GType          type,
         GError       **error)
{
  g_autoptr(GPtrArray) objects = g_task_propagate_pointer (G_TASK (result), error);
  GListStore *store;

  if (objects == NULL)
    return NULL;

  store = g_list_store_new (type);
  g_list_store_splice (store, 0, 0, objects->pdata, objects->len);

  return G_LIST_MODEL (store);
}

static GListModel *
akc_sqlite_chat_memory_list_conversations_finish (AkcChatMemory  *memory,
                                                  GAsyncResult   *result,
                                                  GError        **error)
{
  g_return_val_if_fail (g_task_is_valid (result, memory), NULL);

  return list_of (result, AKC_TYPE_CONVERSATION_INFO, error);
}

static void
akc_sqlite_chat_memory_create_conversation_async (AkcChatMemory       *memory,
                                                  const char          *id,
                                                  const char          *title,
                                                  GCancellable        *cancellable,
                                                  GAsyncReadyCallback  callback,
                                                  gpointer             user_data)
{
  AkcSqliteChatMemory *self = AKC_SQLITE_CHAT_MEMORY (memory);
  GTask *task;
  ConversationData *data;

  task = new_write_task (self, cancellable, callback, user_data,
                         akc_sqlite_chat_memory_create_conversation_async);
  data = g_new0 (ConversationData, 1);
  data->id = id != NULL ? g_strdup (id) : g_uuid_string_random ();
  data->assistant_id = g_strdup ("");
  data->title = g_strdup (title != NULL ? title : "");
  g_task_set_task_data (task, data, conversation_data_free);

  queue_job (self, task, job_create);
}

static void
akc_sqlite_chat_memory_create_conversation_full_async (AkcChatMemory       *memory,
                                                       const char          *id,
                                                       const char          *assistant_id,
                                                       const char          *title,
                                                       GCancellable        *cancellable,
                                                       GAsyncReadyCallback  callback,
                                                       gpointer             user_data)
{
  AkcSqliteChatMemory *self = AKC_SQLITE_CHAT_MEMORY (memory);
  GTask *task;
  ConversationData *data;

  task = new_write_task (self, cancellable, callback, user_data,
                         akc_sqlite_chat_memory_create_conversation_full_async);
  data = g_new0 (ConversationData, 1);
  data->id = id != NULL ? g_strdup (id) : g_uuid_string_random ();
  data->assistant_id = g_strdup (assistant_id != NULL ? assistant_id : "");
  data->title = g_strdup (title != NULL ? title : "");
  g_task_set_task_data (task, data, conversation_data_free);

  queue_job (self, task, job_create);
}

static void
akc_sqlite_chat_memory_list_conversations_page_async (AkcChatMemory       *memory,
                                                      guint                offset,
                                                      guint                limit,
                                                      GCancellable        *cancellable,
                                                      GAsyncReadyCallback  callback,
                                                      gpointer             user_data)
{
  AkcSqliteChatMemory *self = AKC_SQLITE_CHAT_MEMORY (memory);
  PageData *data = g_new0 (PageData, 1);
  GTask *task;

  data->offset = offset;
  data->limit = limit;
  task = new_read_task (self, cancellable, callback, user_data,
                        akc_sqlite_chat_memory_list_conversations_page_async);
  g_task_set_task_data (task, data, g_free);
  queue_job (self, task, job_page);
}

static void
akc_sqlite_chat_memory_get_conversation_async (AkcChatMemory       *memory,
                                               const char          *id,
                                               GCancellable        *cancellable,
                                               GAsyncReadyCallback  callback,
                                               gpointer             user_data)
{
  AkcSqliteChatMemory *self = AKC_SQLITE_CHAT_MEMORY (memory);
  GTask *task;

  task = new_read_task (self, cancellable, callback, user_data,
                        akc_sqlite_chat_memory_get_conversation_async);
  g_task_set_task_data (task, g_strdup (id), g_free);
  queue_job (self, task, job_get);
}

static void
akc_sqlite_chat_memory_set_conversation_pinned_async (AkcChatMemory       *memory,
                                                      const char          *id,
                                                      gboolean             pinned,
                                                      GCancellable        *cancellable,
                                                      GAsyncReadyCallback  callback,
                                                      gpointer             user_data)
{
  AkcSqliteChatMemory *self = AKC_SQLITE_CHAT_MEMORY (memory);
  ConversationData *data = g_new0 (ConversationData, 1);
  GTask *task;

  data->id = g_strdup (id);
  data->pinned = pinned;
  task = new_write_task (self, cancellable, callback, user_data,
                         akc_sqlite_chat_memory_set_conversation_pinned_async);
  g_task_set_task_data (task, data, conversation_data_free);
  queue_job (self, task, job_pin);
}

/* What is recorded of a model is text a person may see: valid UTF-8,
 * bounded, without control characters. */
static gboolean
check_model_text (const char  *text,
                  GError     **error)
{
  if (text == NULL)
    return TRUE;
  if (!g_utf8_validate (text, -1, NULL) || strlen (text) > 4096)
    goto invalid;
  for (const char *p = text; *p != '\0'; p = g_utf8_next_char (p))
    if (g_unichar_iscntrl (g_utf8_get_char (p)))
      goto invalid;
  return TRUE;

invalid:
  g_set_error_literal (error, AKC_CHAT_MEMORY_ERROR, AKC_CHAT_MEMORY_ERROR_INVALID,
                       _("A model or provider must be text of at most 4096 bytes, without control characters."));
  return FALSE;
}

static void
akc_sqlite_chat_memory_set_conversation_model_async (AkcChatMemory       *memory,
                                                     const char          *id,
                                                     const char          *provider_kind,
                                                     const char          *provider_url,
                                                     const char          *model,
                                                     GCancellable        *cancellable,
                                                     GAsyncReadyCallback  callback,
                                                     gpointer             user_data)
{
  AkcSqliteChatMemory *self = AKC_SQLITE_CHAT_MEMORY (memory);
  g_autoptr(GError) error = NULL;
  ConversationData *data;
  GTask *task;

  if (!check_model_text (provider_kind, &error) || !check_model_text (provider_url, &error) ||
      !check_model_text (model, &error))
    {
      g_task_report_error (memory, callback, user_data, akc_sqlite_chat_memory_set_conversation_model_async,
                           g_steal_pointer (&error));
      return;
    }

  data = g_new0 (ConversationData, 1);
  data->id = g_strdup (id);
  data->provider_kind = g_strdup (provider_kind);
  data->provider_url = g_strdup (provider_url);
  data->model = g_strdup (model);
  task = new_write_task (self, cancellable, callback, user_data,
                         akc_sqlite_chat_memory_set_conversation_model_async);
  g_task_set_task_data (task, data, conversation_data_free);
  queue_job (self, task, job_set_model);
}

static AkcConversationInfo *
akc_sqlite_chat_memory_create_conversation_finish (AkcChatMemory  *memory,
                                                   GAsyncResult   *result,
                                                   GError        **error)
{
  g_return_val_if_fail (g_task_is_valid (result, memory), NULL);

  return g_task_propagate_pointer (G_TASK (result), error);
}

static void
akc_sqlite_chat_memory_update_conversation_async (AkcChatMemory       *memory,
                                                  const char          *id,
                                                  const char          *title,
                                                  const AkcUsage      *usage,
                                                  GCancellable        *cancellable,
                                                  GAsyncReadyCallback  callback,
                                                  gpointer             user_data)
{
  AkcSqliteChatMemory *self = AKC_SQLITE_CHAT_MEMORY (memory);
  GTask *task;
  ConversationData *data;

  task = new_write_task (self, cancellable, callback, user_data,
                         akc_sqlite_chat_memory_update_conversation_async);
  data = g_new0 (ConversationData, 1);
  data->id = g_strdup (id);
  data->title = g_strdup (title);
  if (usage != NULL)
    {
      data->has_usage = TRUE;
      data->usage = *usage;
    }
  g_task_set_task_data (task, data, conversation_data_free);

  queue_job (self, task, job_update);
}

static gboolean
akc_sqlite_chat_memory_boolean_finish (AkcChatMemory  *memory,
                                       GAsyncResult   *result,
                                       GError        **error)
{
  g_return_val_if_fail (g_task_is_valid (result, memory), FALSE);

  return g_task_propagate_boolean (G_TASK (result), error);
}

static void
akc_sqlite_chat_memory_delete_conversation_async (AkcChatMemory       *memory,
                                                  const char          *id,
                                                  GCancellable        *cancellable,
                                                  GAsyncReadyCallback  callback,
                                                  gpointer             user_data)
{
  AkcSqliteChatMemory *self = AKC_SQLITE_CHAT_MEMORY (memory);
  GTask *task;

  task = new_write_task (self, cancellable, callback, user_data,
                         akc_sqlite_chat_memory_delete_conversation_async);
  g_task_set_task_data (task, g_strdup (id), g_free);

  queue_job (self, task, job_delete);
}

static void
akc_sqlite_chat_memory_load_messages_async (AkcChatMemory       *memory,
                                            const char          *conversation_id,
                                            GCancellable        *cancellable,
                                            GAsyncReadyCallback  callback,
                                            gpointer             user_data)
{
  AkcSqliteChatMemory *self = AKC_SQLITE_CHAT_MEMORY (memory);
  GTask *task;

  task = new_read_task (self, cancellable, callback, user_data,
                        akc_sqlite_chat_memory_load_messages_async);
  g_task_set_task_data (task, g_strdup (conversation_id), g_free);

  queue_job (self, task, job_load);
}

static GListModel *
akc_sqlite_chat_memory_load_messages_finish (AkcChatMemory  *memory,
                                             GAsyncResult   *result,
                                             GError        **error)
{
  g_return_val_if_fail (g_task_is_valid (result, memory), NULL);

  return list_of (result, AKC_TYPE_MESSAGE, error);
}

static void
akc_sqlite_chat_memory_splice_messages_async (AkcChatMemory        *memory,
                                              const char           *conversation_id,
                                              guint                 position,
                                              guint                 n_removed,
                                              AkcMessage          **added,
                                              guint                 n_added,
                                              GCancellable         *cancellable,
                                              GAsyncReadyCallback   callback,
                                              gpointer              user_data)
{
  AkcSqliteChatMemory *self = AKC_SQLITE_CHAT_MEMORY (memory);
  GTask *task;
  SpliceData *data;

  task = new_write_task (self, cancellable, callback, user_data,
                         akc_sqlite_chat_memory_splice_messages_async);
  data = g_new0 (SpliceData, 1);
  data->conversation_id = g_strdup (conversation_id);
  data->position = position;
  data->n_removed = n_removed;
  data->added = g_ptr_array_new_full (n_added, (GDestroyNotify) akc_stored_message_free);
  for (guint i = 0; i < n_added; i++)
    g_ptr_array_add (data->added, akc_stored_message_new_from_message (added[i]));
  g_task_set_task_data (task, data, splice_data_free);

  queue_job (self, task, job_splice);
}

static void
akc_sqlite_chat_memory_save_message_async (AkcChatMemory       *memory,
                                           const char          *conversation_id,
                                           AkcMessage          *message,
                                           GCancellable        *cancellable,
                                           GAsyncReadyCallback  callback,
                                           gpointer             user_data)
{
  AkcSqliteChatMemory *self = AKC_SQLITE_CHAT_MEMORY (memory);
  GTask *task;
  SaveData *data;

  task = new_write_task (self, cancellable, callback, user_data,
                         akc_sqlite_chat_memory_save_message_async);
  data = g_new0 (SaveData, 1);
  data->conversation_id = g_strdup (conversation_id);
  data->message = akc_stored_message_new_from_message (message);
  g_task_set_task_data (task, data, save_data_free);

  queue_job (self, task, job_save);
}

static void
akc_sqlite_chat_memory_iface_init (AkcChatMemoryInterface *iface)
{
  iface->list_conversations_async = akc_sqlite_chat_memory_list_conversations_async;
  iface->list_conversations_finish = akc_sqlite_chat_memory_list_conversations_finish;
  iface->create_conversation_async = akc_sqlite_chat_memory_create_conversation_async;
  iface->create_conversation_finish = akc_sqlite_chat_memory_create_conversation_finish;
  iface->update_conversation_async = akc_sqlite_chat_memory_update_conversation_async;
  iface->update_conversation_finish = akc_sqlite_chat_memory_boolean_finish;
  iface->delete_conversation_async = akc_sqlite_chat_memory_delete_conversation_async;
  iface->delete_conversation_finish = akc_sqlite_chat_memory_boolean_finish;
  iface->load_messages_async = akc_sqlite_chat_memory_load_messages_async;
  iface->load_messages_finish = akc_sqlite_chat_memory_load_messages_finish;
  iface->splice_messages_async = akc_sqlite_chat_memory_splice_messages_async;
  iface->splice_messages_finish = akc_sqlite_chat_memory_boolean_finish;
  iface->save_message_async = akc_sqlite_chat_memory_save_message_async;
  iface->save_message_finish = akc_sqlite_chat_memory_boolean_finish;
  iface->list_conversations_page_async = akc_sqlite_chat_memory_list_conversations_page_async;
  iface->list_conversations_page_finish = akc_sqlite_chat_memory_list_conversations_finish;
  iface->get_conversation_async = akc_sqlite_chat_memory_get_conversation_async;
  iface->get_conversation_finish = akc_sqlite_chat_memory_create_conversation_finish;
  iface->create_conversation_full_async = akc_sqlite_chat_memory_create_conversation_full_async;
  iface->create_conversation_full_finish = akc_sqlite_chat_memory_create_conversation_finish;
  iface->set_conversation_pinned_async = akc_sqlite_chat_memory_set_conversation_pinned_async;
  iface->set_conversation_pinned_finish = akc_sqlite_chat_memory_boolean_finish;
  iface->set_conversation_model_async = akc_sqlite_chat_memory_set_conversation_model_async;
  iface->set_conversation_model_finish = akc_sqlite_chat_memory_boolean_finish;
}

/**
 * akc_sqlite_chat_memory_search_async:
 * @self: a #AkcSqliteChatMemory
 * @text: what to look for, as a person types it
 * @limit: the most results to give
 * @cancellable: (nullable): a #GCancellable
 * @callback: (scope async): called when the results are ready
 * @user_data: data for @callback
 *
 * Starts searching the titles of the conversations and the text of their
 * messages, on the worker thread, with SQLite's full-text index (kept in
 * step with every change of the history). Every word of @text must match
 * (case, accents and punctuation do not matter); the last word also
 * matches longer words that start with it, unless @text ends with a
 * space, so a search can follow typing. Text without a letter or digit
 * finds nothing, and at most the first 16 words are used.
 *
 * Conversations whose title matches come first, then messages, each
 * ranked best first.
 *
 * Since: 0.1
 */
void
akc_sqlite_chat_memory_search_async (AkcSqliteChatMemory *self,
                                     const char          *text,
                                     guint                limit,
                                     GCancellable        *cancellable,
                                     GAsyncReadyCallback  callback,
                                     gpointer             user_data)
{
  SearchData *data;
  GTask *task;

  g_return_if_fail (AKC_IS_SQLITE_CHAT_MEMORY (self));
  g_return_if_fail (text != NULL);
  g_return_if_fail (cancellable == NULL || G_IS_CANCELLABLE (cancellable));

  data = g_new0 (SearchData, 1);
  data->text = g_utf8_make_valid (text, -1);
  data->limit = limit;
  task = new_read_task (self, cancellable, callback, user_data, akc_sqlite_chat_memory_search_async);
  g_task_set_task_data (task, data, search_data_free);
  queue_job (self, task, job_search);
}

/**
 * akc_sqlite_chat_memory_search_finish:
 * @self: a #AkcSqliteChatMemory
 * @result: the result passed to the callback
 * @error: return location for a #GError
 *
 * Finishes a search.
 *
 * Returns: (transfer full): a #GListModel of [class@SearchResult], best
 *   first (empty when nothing matched), or %NULL on error
 *
 * Since: 0.1
 */
GListModel *
akc_sqlite_chat_memory_search_finish (AkcSqliteChatMemory  *self,
                                      GAsyncResult         *result,
                                      GError              **error)
{
  g_return_val_if_fail (AKC_IS_SQLITE_CHAT_MEMORY (self), NULL);
  g_return_val_if_fail (g_task_is_valid (result, self), NULL);

  return list_of (result, AKC_TYPE_SEARCH_RESULT, error);
}

/**
 * akc_sqlite_chat_memory_list_assistant_async:
 * @self: a #AkcSqliteChatMemory
 * @assistant_id: the id of an assistant ([property@ConversationInfo:assistant-id])
 * @limit: the most conversations to give
 * @cancellable: (nullable): a #GCancellable
 * @callback: (scope async): called when the conversations are read
 * @user_data: data for @callback
 *
 * Starts reading the conversations held with one assistant, newest first
 * (by [property@ConversationInfo:updated-at], pinned or not), on the
 * worker thread, from an index: the conversation an application opens
 * for an assistant is found without listing the whole history.
 *
 * Since: 0.1
 */
void
akc_sqlite_chat_memory_list_assistant_async (AkcSqliteChatMemory *self,
                                             const char          *assistant_id,
                                             guint                limit,
                                             GCancellable        *cancellable,
                                             GAsyncReadyCallback  callback,
                                             gpointer             user_data)
{
  AssistantData *data;
  GTask *task;

  g_return_if_fail (AKC_IS_SQLITE_CHAT_MEMORY (self));
  g_return_if_fail (assistant_id != NULL);
  g_return_if_fail (cancellable == NULL || G_IS_CANCELLABLE (cancellable));

  data = g_new0 (AssistantData, 1);
  data->assistant_id = g_strdup (assistant_id);
  data->limit = limit;
  task = new_read_task (self, cancellable, callback, user_data, akc_sqlite_chat_memory_list_assistant_async);
  g_task_set_task_data (task, data, assistant_data_free);
  queue_job (self, task, job_assistant);
}

/**
 * akc_sqlite_chat_memory_list_assistant_finish:
 * @self: a #AkcSqliteChatMemory
 * @result: the result passed to the callback
 * @error: return location for a #GError
 *
 * Finishes reading the conversations of an assistant.
 *
 * Returns: (transfer full): a #GListModel of [class@ConversationInfo],
 *   newest first (empty when the assistant has none), or %NULL on error
 *
 * Since: 0.1
 */
GListModel *
akc_sqlite_chat_memory_list_assistant_finish (AkcSqliteChatMemory  *self,
                                              GAsyncResult         *result,
                                              GError              **error)
{
  g_return_val_if_fail (AKC_IS_SQLITE_CHAT_MEMORY (self), NULL);
  g_return_val_if_fail (g_task_is_valid (result, self), NULL);

  return list_of (result, AKC_TYPE_CONVERSATION_INFO, error);
}

/**
 * akc_sqlite_chat_memory_export_async:
 * @self: a #AkcSqliteChatMemory
 * @conversation_id: the conversation to export
 * @format: the form to write it in
 * @cancellable: (nullable): a #GCancellable
 * @callback: (scope async): called when it is written
 * @user_data: data for @callback
 *
 * Starts writing a conversation, read in one transaction on the worker
 * thread, as Markdown (to read) or as the JSON format of
 * `docs/conversation-format.md` (every field: messages with their tool
 * calls and lineage, usage, pin, times, component answers), which
 * [method@SqliteChatMemory.import_async] reads back. It fails with
 * %AKC_CHAT_MEMORY_ERROR_NOT_FOUND when there is no such conversation.
 *
 * Since: 0.1
 */
void
akc_sqlite_chat_memory_export_async (AkcSqliteChatMemory   *self,
                                     const char            *conversation_id,
                                     AkcConversationFormat  format,
                                     GCancellable          *cancellable,
                                     GAsyncReadyCallback    callback,
                                     gpointer               user_data)
{
  ExportData *data;
  GTask *task;

  g_return_if_fail (AKC_IS_SQLITE_CHAT_MEMORY (self));
  g_return_if_fail (conversation_id != NULL);
  g_return_if_fail (format == AKC_CONVERSATION_FORMAT_MARKDOWN || format == AKC_CONVERSATION_FORMAT_JSON);
  g_return_if_fail (cancellable == NULL || G_IS_CANCELLABLE (cancellable));

  data = g_new0 (ExportData, 1);
  data->conversation_id = g_strdup (conversation_id);
  data->format = format;
  task = new_read_task (self, cancellable, callback, user_data, akc_sqlite_chat_memory_export_async);
  g_task_set_task_data (task, data, export_data_free);
  queue_job (self, task, job_export);
}

/**
 * akc_sqlite_chat_memory_export_finish:
 * @self: a #AkcSqliteChatMemory
 * @result: the result passed to the callback
 * @error: return location for a #GError
 *
 * Finishes exporting a conversation.
 *
 * Returns: (transfer full): the UTF-8 text of the export, or %NULL on
 *   error
 *
 * Since: 0.1
 */
GBytes *
akc_sqlite_chat_memory_export_finish (AkcSqliteChatMemory  *self,
                                      GAsyncResult         *result,
                                      GError              **error)
{
  g_return_val_if_fail (AKC_IS_SQLITE_CHAT_MEMORY (self), NULL);
  g_return_val_if_fail (g_task_is_valid (result, self), NULL);

  return g_task_propagate_pointer (G_TASK (result), error);
}

/**
 * akc_sqlite_chat_memory_import_async:
 * @self: a #AkcSqliteChatMemory
 * @data: a JSON export (`docs/conversation-format.md`)
 * @cancellable: (nullable): a #GCancellable
 * @callback: (scope async): called when it is imported
 * @user_data: data for @callback
 *
 * Starts reading a JSON export into a new conversation, on the worker
 * thread. The file is untrusted: it is checked whole (size, nesting and
 * count bounds, every field's type and bounds, unique message ids, answers
 * that name messages of the conversation) before anything is written,
 * then written in one transaction, so a file that fails adds nothing. A
 * problem fails with %AKC_CHAT_MEMORY_ERROR_INVALID, whose message names
 * the field (for instance `$.conversation.messages[3].role`), and a file of
 * a newer version of the format with %AKC_CHAT_MEMORY_ERROR_NEWER_VERSION. The new
 * conversation has a new random id and everything else the file holds.
 *
 * Since: 0.1
 */
void
akc_sqlite_chat_memory_import_async (AkcSqliteChatMemory *self,
                                     GBytes              *data,
                                     GCancellable        *cancellable,
                                     GAsyncReadyCallback  callback,
                                     gpointer             user_data)
{
  ImportData *import;
  GTask *task;

  g_return_if_fail (AKC_IS_SQLITE_CHAT_MEMORY (self));
  g_return_if_fail (data != NULL);
  g_return_if_fail (cancellable == NULL || G_IS_CANCELLABLE (cancellable));

  import = g_new0 (ImportData, 1);
  import->data = g_bytes_ref (data);
  import->id = g_uuid_string_random ();
  task = new_write_task (self, cancellable, callback, user_data, akc_sqlite_chat_memory_import_async);
  g_task_set_task_data (task, import, import_data_free);
  queue_job (self, task, job_import);
}

/**
 * akc_sqlite_chat_memory_import_finish:
 * @self: a #AkcSqliteChatMemory
 * @result: the result passed to the callback
 * @error: return location for a #GError
 *
 * Finishes importing a conversation.
 *
 * Returns: (transfer full): the new conversation, or %NULL on error
 *
 * Since: 0.1
 */
AkcConversationInfo *
akc_sqlite_chat_memory_import_finish (AkcSqliteChatMemory  *self,
                                      GAsyncResult         *result,
                                      GError              **error)
{
  g_return_val_if_fail (AKC_IS_SQLITE_CHAT_MEMORY (self), NULL);
  g_return_val_if_fail (g_task_is_valid (result, self), NULL);

  return g_task_propagate_pointer (G_TASK (result), error);
}

/* ------------------------------------------------------------------ */
/* GAsyncInitable                                                      */
/* ------------------------------------------------------------------ */

static void
akc_sqlite_chat_memory_init_async (GAsyncInitable      *initable,
                                   int                  io_priority,
                                   GCancellable        *cancellable,
                                   GAsyncReadyCallback  callback,
                                   gpointer             user_data)
{
  AkcSqliteChatMemory *self = AKC_SQLITE_CHAT_MEMORY (initable);
  GTask *task;

  if (self->worker == NULL)
    self->worker = worker_acquire (self->path);

  task = new_read_task (self, cancellable, callback, user_data, akc_sqlite_chat_memory_init_async);
  g_task_set_priority (task, io_priority);
  queue_job (self, task, job_open);
}

static gboolean
akc_sqlite_chat_memory_init_finish (GAsyncInitable  *initable,
                                    GAsyncResult    *result,
                                    GError         **error)
{
  g_return_val_if_fail (g_task_is_valid (result, initable), FALSE);

  return g_task_propagate_boolean (G_TASK (result), error);
}

static void
akc_sqlite_chat_memory_async_initable_iface_init (GAsyncInitableIface *iface)
{
  iface->init_async = akc_sqlite_chat_memory_init_async;
  iface->init_finish = akc_sqlite_chat_memory_init_finish;
}

/* ------------------------------------------------------------------ */
/* GObject                                                             */
/* ------------------------------------------------------------------ */

static void
akc_sqlite_chat_memory_finalize (GObject *object)
{
  AkcSqliteChatMemory *self = (AkcSqliteChatMemory *)object;

  g_clear_pointer (&self->worker, worker_release);

  g_clear_pointer (&self->path, g_free);

  G_OBJECT_CLASS (akc_sqlite_chat_memory_parent_class)->finalize (object);
}

static void
akc_sqlite_chat_memory_get_property (GObject    *object,
                                     guint       prop_id,
                                     GValue     *value,
                                     GParamSpec *pspec)
{
  AkcSqliteChatMemory *self = AKC_SQLITE_CHAT_MEMORY (object);

  switch (prop_id)
    {
    case PROP_PATH:
      g_value_set_string (value, self->path);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
akc_sqlite_chat_memory_set_property (GObject      *object,
                                     guint         prop_id,
                                     const GValue *value,
                                     GParamSpec   *pspec)
{
  AkcSqliteChatMemory *self = AKC_SQLITE_CHAT_MEMORY (object);

  switch (prop_id)
    {
    case PROP_PATH:
      self->path = g_value_dup_string (value);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
akc_sqlite_chat_memory_constructed (GObject *object)
{
  AkcSqliteChatMemory *self = (AkcSqliteChatMemory *)object;

  G_OBJECT_CLASS (akc_sqlite_chat_memory_parent_class)->constructed (object);

  if (self->path == NULL)
    self->path = akc_sqlite_chat_memory_dup_default_path ();
}

static void
akc_sqlite_chat_memory_class_init (AkcSqliteChatMemoryClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->finalize = akc_sqlite_chat_memory_finalize;
  object_class->get_property = akc_sqlite_chat_memory_get_property;
  object_class->set_property = akc_sqlite_chat_memory_set_property;
  object_class->constructed = akc_sqlite_chat_memory_constructed;

  /**
   * AkcSqliteChatMemory:path:
   *
   * The file of the database. The default,
   * [func@SqliteChatMemory.dup_default_path], is used when none is given.
   *
   * Since: 0.1
   */
  props[PROP_PATH] =
    g_param_spec_string ("path", NULL, NULL,
                         NULL,
                         (G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS));

  g_object_class_install_properties (object_class, N_PROPS, props);
}

static void
akc_sqlite_chat_memory_init (AkcSqliteChatMemory *self)
{
}

/**
 * akc_sqlite_chat_memory_dup_default_path:
 *
 * Gets the file of the history the application uses:
 * `history.sqlite3` in the `agentskit-chat` folder of the user's data
 * folder (`$XDG_DATA_HOME`, usually `~/.local/share`).
 *
 * Returns: (transfer full) (type filename): the path
 *
 * Since: 0.1
 */
char *
akc_sqlite_chat_memory_dup_default_path (void)
{
  return g_build_filename (g_get_user_data_dir (), "agentskit-chat", "history.sqlite3", NULL);
}

/**
 * akc_sqlite_chat_memory_new_async:
 * @path: (nullable) (type filename): the database file, or %NULL for
 *   [func@SqliteChatMemory.dup_default_path]
 * @cancellable: (nullable): a #GCancellable
 * @callback: (scope async): called when the history is open
 * @user_data: data for @callback
 *
 * Opens the history in @path on a worker thread, creating the file and
 * its folder when missing and bringing an older format up to date.
 *
 * Since: 0.1
 */
void
akc_sqlite_chat_memory_new_async (const char          *path,
                                  GCancellable        *cancellable,
                                  GAsyncReadyCallback  callback,
                                  gpointer             user_data)
{
  g_return_if_fail (cancellable == NULL || G_IS_CANCELLABLE (cancellable));

  g_async_initable_new_async (AKC_TYPE_SQLITE_CHAT_MEMORY, G_PRIORITY_DEFAULT,
                              cancellable, callback, user_data,
                              "path", path,
                              NULL);
}

/**
 * akc_sqlite_chat_memory_new_finish:
 * @result: the result passed to the callback
 * @error: return location for a #GError
 *
 * Finishes opening a history. The error is in %AKC_CHAT_MEMORY_ERROR:
 * %AKC_CHAT_MEMORY_ERROR_CORRUPT for a damaged file or one of another
 * program, %AKC_CHAT_MEMORY_ERROR_NEWER_VERSION for a newer format,
 * %AKC_CHAT_MEMORY_ERROR_FAILED when the file cannot be created or
 * written; none of them changes the file.
 *
 * Returns: (transfer full): the open history, or %NULL on error
 *
 * Since: 0.1
 */
AkcSqliteChatMemory *
akc_sqlite_chat_memory_new_finish (GAsyncResult  *result,
                                   GError       **error)
{
  g_autoptr(GObject) source = NULL;
  GObject *object;

  g_return_val_if_fail (G_IS_ASYNC_RESULT (result), NULL);

  source = g_async_result_get_source_object (result);
  object = g_async_initable_new_finish (G_ASYNC_INITABLE (source), result, error);

  return object != NULL ? AKC_SQLITE_CHAT_MEMORY (object) : NULL;
}

/**
 * akc_sqlite_chat_memory_get_path:
 * @self: a #AkcSqliteChatMemory
 *
 * Gets the file of the database.
 *
 * Returns: (transfer none) (type filename): the path
 *
 * Since: 0.1
 */
const char *
akc_sqlite_chat_memory_get_path (AkcSqliteChatMemory *self)
{
  g_return_val_if_fail (AKC_IS_SQLITE_CHAT_MEMORY (self), NULL);

  return self->path;
}
