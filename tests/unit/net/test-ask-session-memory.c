/* test-ask-session-memory.c: AkcAskSessionMemory (application.md §8.6)
 *
 * SPDX-License-Identifier: MIT
 *
 * Every askMemoryLoad vector of application/ask-adapter.json as its own
 * test: the algorithm on an in-memory key/value store (read-only and
 * missing stores included), and the same vector through
 * AkcAskSessionMemory on the SQLite history (the ask_sessions table of
 * schema version 2). Plus save, clear, the size limit, and the migration
 * of a version 1 history.
 */

#include "config.h"

#include <string.h>

#include <glib/gstdio.h>
#include <sqlite3.h>

#include "akc.h"
#include "akc-test.h"
#include "akc-ask-session-memory-private.h"
#include "akc-fixture.h"
#include "akc-sqlite-schema-private.h"

static char *tmpdir;

/* ------------------------------------------------------------------ */
/* An in-memory store                                                  */
/* ------------------------------------------------------------------ */

typedef struct
{
  GHashTable *values;   /* key → GBytes */
  gboolean    read_only;
} MemoryStore;

static gboolean
memory_get (gpointer     store,
            const char  *key,
            char       **value,
            gsize       *length)
{
  MemoryStore *self = store;
  GBytes *bytes = g_hash_table_lookup (self->values, key);

  *value = NULL;
  if (bytes != NULL)
    {
      *value = g_strndup (g_bytes_get_data (bytes, NULL), g_bytes_get_size (bytes));
      *length = g_bytes_get_size (bytes);
    }
  return TRUE;
}

static gboolean
memory_set (gpointer    store,
            const char *key,
            const char *value,
            gsize       length)
{
  MemoryStore *self = store;

  if (self->read_only)
    return FALSE;
  g_hash_table_replace (self->values, g_strdup (key), g_bytes_new (value, length));
  return TRUE;
}

static gboolean
memory_remove (gpointer    store,
               const char *key)
{
  MemoryStore *self = store;

  if (self->read_only)
    return FALSE;
  g_hash_table_remove (self->values, key);
  return TRUE;
}

static const AkcAskRecordStore memory_vtable = { memory_get, memory_set, memory_remove };

/* The stored text of a fixture storage value: strings as they are,
 * anything else as JSON. */
static char *
stored_text (AkcJsonValue *value)
{
  if (akc_json_value_get_kind (value) == AKC_JSON_KIND_STRING)
    return g_strdup (akc_json_value_get_string (value, NULL));
  return akc_json_value_to_canonical (value, NULL);
}

static GStrv
legacy_keys_of (const AkcFixtureCase *fc)
{
  AkcJsonValue *keys = akc_json_value_get_member (fc->input, "legacyKeys");
  g_autoptr(GStrvBuilder) builder = g_strv_builder_new ();

  for (gsize i = 0; keys != NULL && i < akc_json_value_get_length (keys); i++)
    g_strv_builder_add (builder, akc_json_value_get_string (akc_json_value_get_element (keys, i), NULL));

  return g_strv_builder_end (builder);
}

static void
assert_storage_after (const AkcFixtureCase *fc,
                      GHashTable           *values)
{
  AkcJsonValue *expected = akc_fixture_expect (fc, "storageAfter");

  g_assert_cmpuint (g_hash_table_size (values), ==, akc_json_value_get_member_count (expected));
  for (gsize i = 0; i < akc_json_value_get_member_count (expected); i++)
    {
      const char *key = akc_json_value_get_member_name (expected, i, NULL);
      g_autofree char *text = stored_text (akc_json_value_get_member_value (expected, i));
      GBytes *actual = g_hash_table_lookup (values, key);

      g_assert_nonnull (actual);
      /* Stored records match byte for byte. */
      g_assert_cmpmem (g_bytes_get_data (actual, NULL), g_bytes_get_size (actual), text, strlen (text));
    }
}

static void
test_load_algorithm (const AkcFixtureCase *fc,
                     gconstpointer         data)
{
  AkcJsonValue *storage = akc_json_value_get_member (fc->input, "storage");
  AkcJsonValue *read_only = akc_json_value_get_member (fc->input, "readOnly");
  gboolean no_storage = akc_json_value_get_member (fc->input, "noStorage") != NULL;
  g_auto(GStrv) legacy = legacy_keys_of (fc);
  MemoryStore store = { 0 };
  AkcAskMemoryOptions options = { 0 };
  g_autoptr(AkcJsonValue) messages = NULL;

  store.values = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, (GDestroyNotify) g_bytes_unref);
  store.read_only = read_only != NULL && akc_json_value_get_boolean (read_only);
  for (gsize i = 0; storage != NULL && i < akc_json_value_get_member_count (storage); i++)
    {
      g_autofree char *text = stored_text (akc_json_value_get_member_value (storage, i));

      g_hash_table_insert (store.values, g_strdup (akc_json_value_get_member_name (storage, i, NULL)),
                           g_bytes_new (text, strlen (text)));
    }

  options.key = akc_json_value_get_string (akc_json_value_get_member (fc->input, "key"), NULL);
  options.legacy_keys = (const char * const *) legacy;
  options.max_messages = 20;
  options.max_record_bytes = 1048576;

  messages = akc_ask_memory_load (&memory_vtable, no_storage ? NULL : &store, &options);
  akc_assert_json_equal (messages, akc_fixture_expect (fc, "messages"));
  assert_storage_after (fc, store.values);

  g_hash_table_unref (store.values);
}

/* ------------------------------------------------------------------ */
/* The same vectors on the SQLite history                              */
/* ------------------------------------------------------------------ */


static AkcSqliteChatMemory *
open_history (const char *path)
{
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;
  AkcSqliteChatMemory *history;

  akc_sqlite_chat_memory_new_async (path, NULL, akc_test_store_result, &result);
  akc_test_wait (&result);
  history = akc_sqlite_chat_memory_new_finish (result, &error);
  g_assert_no_error (error);

  return history;
}

static void
close_history (AkcSqliteChatMemory *history)
{
  g_assert_finalize_object (history);
}

static char *
new_path (void)
{
  static guint n;

  return g_strdup_printf ("%s/history-%u.sqlite3", tmpdir, ++n);
}

static void
sql_exec (const char *path,
          const char *sql)
{
  sqlite3 *db = NULL;

  g_assert_cmpint (sqlite3_open (path, &db), ==, SQLITE_OK);
  g_assert_cmpint (sqlite3_exec (db, sql, NULL, NULL, NULL), ==, SQLITE_OK);
  sqlite3_close (db);
}

static void
sql_put (const char *path,
         const char *key,
         const char *value)
{
  sqlite3 *db = NULL;
  sqlite3_stmt *stmt = NULL;

  g_assert_cmpint (sqlite3_open (path, &db), ==, SQLITE_OK);
  g_assert_cmpint (sqlite3_prepare_v2 (db, "INSERT INTO ask_sessions (key, value, updated_at) VALUES (?1, ?2, 0)",
                                       -1, &stmt, NULL), ==, SQLITE_OK);
  sqlite3_bind_text (stmt, 1, key, -1, SQLITE_STATIC);
  sqlite3_bind_text (stmt, 2, value, -1, SQLITE_STATIC);
  g_assert_cmpint (sqlite3_step (stmt), ==, SQLITE_DONE);
  sqlite3_finalize (stmt);
  sqlite3_close (db);
}

static GHashTable *
sql_all (const char *path)
{
  GHashTable *values = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, (GDestroyNotify) g_bytes_unref);
  sqlite3 *db = NULL;
  sqlite3_stmt *stmt = NULL;

  g_assert_cmpint (sqlite3_open (path, &db), ==, SQLITE_OK);
  g_assert_cmpint (sqlite3_prepare_v2 (db, "SELECT key, value FROM ask_sessions", -1, &stmt, NULL), ==, SQLITE_OK);
  while (sqlite3_step (stmt) == SQLITE_ROW)
    g_hash_table_insert (values, g_strdup ((const char *) sqlite3_column_text (stmt, 0)),
                         g_bytes_new (sqlite3_column_text (stmt, 1), sqlite3_column_bytes (stmt, 1)));
  sqlite3_finalize (stmt);
  sqlite3_close (db);

  return values;
}

static sqlite3_int64
sql_int (const char *path,
         const char *sql)
{
  sqlite3 *db = NULL;
  sqlite3_stmt *stmt = NULL;
  sqlite3_int64 value;

  g_assert_cmpint (sqlite3_open (path, &db), ==, SQLITE_OK);
  g_assert_cmpint (sqlite3_prepare_v2 (db, sql, -1, &stmt, NULL), ==, SQLITE_OK);
  g_assert_cmpint (sqlite3_step (stmt), ==, SQLITE_ROW);
  value = sqlite3_column_int64 (stmt, 0);
  sqlite3_finalize (stmt);
  sqlite3_close (db);

  return value;
}

static AkcJsonValue *
records_to_json (GPtrArray *records)
{
  g_autoptr(GPtrArray) items = g_ptr_array_new_with_free_func ((GDestroyNotify) akc_json_value_unref);

  for (guint i = 0; i < records->len; i++)
    g_ptr_array_add (items, akc_message_record_to_value (g_ptr_array_index (records, i)));

  return akc_json_value_new_array ((AkcJsonValue * const *) items->pdata, items->len);
}

static GPtrArray *
load (AkcAskSessionMemory *memory)
{
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;
  GPtrArray *records;

  akc_ask_session_memory_load_async (memory, NULL, akc_test_store_result, &result);
  akc_test_wait (&result);
  records = akc_ask_session_memory_load_finish (memory, result, &error);
  g_assert_no_error (error);

  return records;
}

/* A store that refuses writes or is missing is a property of the
 * algorithm's storage port: the history database is always there and
 * writable, so those cases run against the algorithm only. */
static gboolean
applies_to_sqlite (const AkcFixtureCase *fc)
{
  return akc_json_value_get_member (fc->input, "readOnly") == NULL &&
         akc_json_value_get_member (fc->input, "noStorage") == NULL;
}

static void
test_load_sqlite (const AkcFixtureCase *fc,
                  gconstpointer         data)
{
  AkcJsonValue *storage = akc_json_value_get_member (fc->input, "storage");
  g_auto(GStrv) legacy = legacy_keys_of (fc);
  g_autofree char *path = new_path ();
  AkcSqliteChatMemory *history;
  g_autoptr(AkcAskSessionMemory) memory = NULL;
  g_autoptr(GPtrArray) records = NULL;
  g_autoptr(AkcJsonValue) messages = NULL;
  g_autoptr(GHashTable) after = NULL;

  g_assert_true (applies_to_sqlite (fc));

  history = open_history (path);
  for (gsize i = 0; storage != NULL && i < akc_json_value_get_member_count (storage); i++)
    {
      g_autofree char *text = stored_text (akc_json_value_get_member_value (storage, i));

      sql_put (path, akc_json_value_get_member_name (storage, i, NULL), text);
    }

  memory = akc_ask_session_memory_new (history,
                                       akc_json_value_get_string (akc_json_value_get_member (fc->input, "key"), NULL),
                                       (const char * const *) legacy);
  records = load (memory);
  messages = records_to_json (records);
  akc_assert_json_equal (messages, akc_fixture_expect (fc, "messages"));

  after = sql_all (path);
  assert_storage_after (fc, after);

  g_assert_finalize_object (g_steal_pointer (&memory));
  close_history (history);
}

/* ------------------------------------------------------------------ */
/* Save, clear, limits and the schema migration                        */
/* ------------------------------------------------------------------ */

static AkcMessageRecord *
record (const char *id,
        const char *role,
        const char *content)
{
  g_autoptr(GDateTime) time = g_date_time_new_utc (2026, 7, 14, 0, 0, 0);
  g_autoptr(GError) error = NULL;
  AkcMessageRecord *r = akc_message_record_new (id, role, content, -1, "complete", time, &error);

  g_assert_no_error (error);
  return r;
}

static void
test_save_load_clear (void)
{
  g_autofree char *path = new_path ();
  AkcSqliteChatMemory *history = open_history (path);
  g_autoptr(AkcAskSessionMemory) memory = akc_ask_session_memory_new (history, "ask:s1", NULL);
  g_autoptr(GPtrArray) records = g_ptr_array_new_with_free_func ((GDestroyNotify) akc_message_record_unref);
  g_autoptr(GPtrArray) loaded = NULL;
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;

  for (guint i = 0; i < 25; i++)
    {
      g_autofree char *id = g_strdup_printf ("m%u", i);

      g_ptr_array_add (records, record (id, i % 2 == 0 ? "user" : "assistant", id));
    }

  akc_ask_session_memory_save_async (memory, (AkcMessageRecord * const *) records->pdata, records->len,
                                     NULL, akc_test_store_result, &result);
  akc_test_wait (&result);
  g_assert_true (akc_ask_session_memory_save_finish (memory, result, &error));
  g_assert_no_error (error);
  g_clear_object (&result);

  /* The newest 20 are kept, in order. */
  loaded = load (memory);
  g_assert_cmpuint (loaded->len, ==, 20);
  g_assert_cmpstr (akc_message_record_get_id (g_ptr_array_index (loaded, 0), NULL), ==, "m5");
  g_assert_cmpstr (akc_message_record_get_id (g_ptr_array_index (loaded, 19), NULL), ==, "m24");
  g_clear_pointer (&loaded, g_ptr_array_unref);

  /* A session over the record limit fails and leaves the stored one. */
  g_object_set (memory, "max-record-bytes", 200, NULL);
  akc_ask_session_memory_save_async (memory, (AkcMessageRecord * const *) records->pdata, records->len,
                                     NULL, akc_test_store_result, &result);
  akc_test_wait (&result);
  g_assert_false (akc_ask_session_memory_save_finish (memory, result, &error));
  g_assert_error (error, AKC_CHAT_MEMORY_ERROR, AKC_CHAT_MEMORY_ERROR_INVALID);
  g_clear_error (&error);
  g_clear_object (&result);
  g_object_set (memory, "max-record-bytes", 1048576, NULL);
  loaded = load (memory);
  g_assert_cmpuint (loaded->len, ==, 20);
  g_clear_pointer (&loaded, g_ptr_array_unref);

  akc_ask_session_memory_clear_async (memory, NULL, akc_test_store_result, &result);
  akc_test_wait (&result);
  g_assert_true (akc_ask_session_memory_clear_finish (memory, result, &error));
  g_assert_no_error (error);
  g_clear_object (&result);
  loaded = load (memory);
  g_assert_cmpuint (loaded->len, ==, 0);
  g_assert_cmpint (sql_int (path, "SELECT count(*) FROM ask_sessions"), ==, 0);

  g_assert_finalize_object (g_steal_pointer (&memory));
  close_history (history);
}

static void
test_schema_v1_migrates (void)
{
  g_autofree char *path = new_path ();
  g_autoptr(GError) error = NULL;
  const AkcSqliteMigration *migrations;
  gsize n;
  sqlite3 *db;
  AkcSqliteChatMemory *history;

  /* A history written by the version that knew schema 1 only. */
  migrations = akc_sqlite_schema_get_migrations (&n);
  g_assert_cmpuint (n, >=, 2);
  db = akc_sqlite_open (path, migrations, 1, &error);
  g_assert_no_error (error);
  sqlite3_close (db);
  sql_exec (path, "INSERT INTO conversations (id, title, created_at, updated_at) VALUES ('c1', 'Kept', 1, 1)");
  g_assert_cmpint (sql_int (path, "PRAGMA user_version"), ==, 1);

  history = open_history (path);
  close_history (history);

  g_assert_cmpint (sql_int (path, "PRAGMA user_version"), ==, AKC_SQLITE_SCHEMA_VERSION);
  g_assert_cmpint (sql_int (path, "SELECT count(*) FROM sqlite_schema WHERE name = 'ask_sessions'"), ==, 1);
  g_assert_cmpint (sql_int (path, "SELECT count(*) FROM conversations WHERE title = 'Kept'"), ==, 1);
}

/* A record holding {"a":[n zeros]} of metadata: n + 7 values. */
static void
append_record (GString    *out,
               const char *id,
               guint       n_zeros)
{
  g_string_append_printf (out, "{\"id\":\"%s\",\"role\":\"user\",\"content\":\"hi\","
                               "\"status\":\"complete\",\"createdAt\":\"2026-01-01T00:00:00.000Z\","
                               "\"metadata\":{\"a\":[", id);
  for (guint i = 0; i < n_zeros; i++)
    g_string_append (out, i > 0 ? ",0" : "0");
  g_string_append (out, "]}}");
}

/* The canonical record is checked as a whole (protocol §2.9.1): two
 * records that each fit, but hold more than 10000 values together, make
 * it invalid, and it is removed like any invalid value. */
static void
test_canonical_record_limits (void)
{
  MemoryStore store = { g_hash_table_new_full (g_str_hash, g_str_equal, g_free, (GDestroyNotify) g_bytes_unref), FALSE };
  AkcAskMemoryOptions options = { .key = "ask", .max_messages = 20, .max_record_bytes = 1048576 };
  g_autoptr(GString) fits = g_string_new ("{\"version\":1,\"messages\":[");
  g_autoptr(GString) too_many = g_string_new ("{\"version\":1,\"messages\":[");
  g_autoptr(AkcJsonValue) messages = NULL;

  /* 3 wrapper values + 2 × (7 + 4990) = 9997. */
  append_record (fits, "one", 4990);
  g_string_append_c (fits, ',');
  append_record (fits, "two", 4990);
  g_string_append (fits, "]}");
  g_hash_table_replace (store.values, g_strdup ("ask"), g_bytes_new (fits->str, fits->len));
  messages = akc_ask_memory_load (&memory_vtable, &store, &options);
  g_assert_cmpuint (akc_json_value_get_length (messages), ==, 2);
  g_clear_pointer (&messages, akc_json_value_unref);

  /* 3 + 2 × (7 + 5000) = 10017: each record alone would pass. */
  append_record (too_many, "one", 5000);
  g_string_append_c (too_many, ',');
  append_record (too_many, "two", 5000);
  g_string_append (too_many, "]}");
  g_hash_table_replace (store.values, g_strdup ("ask"), g_bytes_new (too_many->str, too_many->len));
  messages = akc_ask_memory_load (&memory_vtable, &store, &options);
  g_assert_cmpuint (akc_json_value_get_length (messages), ==, 0);
  g_assert_false (g_hash_table_contains (store.values, "ask"));

  g_hash_table_unref (store.values);
}

static void
test_load_sqlite_case (gconstpointer data)
{
  test_load_sqlite (data, NULL);
}

int
main (int   argc,
      char *argv[])
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) cases = NULL;
  int status;

  g_test_init (&argc, &argv, NULL);

  tmpdir = g_dir_make_tmp ("akc-ask-memory-XXXXXX", &error);
  g_assert_no_error (error);

  akc_fixture_add_tests ("application/ask-adapter.json", "/ask-session-memory/fixtures/algorithm",
                         "askMemoryLoad", test_load_algorithm, NULL);
  cases = akc_fixture_load ("application/ask-adapter.json", &error);
  g_assert_no_error (error);
  for (guint i = 0; i < cases->len; i++)
    {
      AkcFixtureCase *fc = g_ptr_array_index (cases, i);
      g_autofree char *name = NULL;
      g_autofree char *path = NULL;

      if (g_strcmp0 (fc->op, "askMemoryLoad") != 0 || !applies_to_sqlite (fc))
        continue;
      name = g_strdelimit (g_strdup (fc->name), "/#", '_');
      path = g_strdup_printf ("/ask-session-memory/fixtures/sqlite/%03u %s", fc->index, name);
      g_test_add_data_func (path, fc, test_load_sqlite_case);
    }
  g_test_add_func ("/ask-session-memory/save-load-clear", test_save_load_clear);
  g_test_add_func ("/ask-session-memory/canonical-record-limits", test_canonical_record_limits);
  g_test_add_func ("/ask-session-memory/schema-v1-migrates", test_schema_v1_migrates);

  status = g_test_run ();

  {
    g_autoptr(GFile) dir = g_file_new_for_path (tmpdir);
    g_autoptr(GFileEnumerator) children = g_file_enumerate_children (dir, G_FILE_ATTRIBUTE_STANDARD_NAME,
                                                                     G_FILE_QUERY_INFO_NONE, NULL, NULL);
    GFileInfo *info;

    while (children != NULL && (info = g_file_enumerator_next_file (children, NULL, NULL)) != NULL)
      {
        g_autofree char *child = g_build_filename (tmpdir, g_file_info_get_name (info), NULL);

        g_unlink (child);
        g_object_unref (info);
      }
    g_rmdir (tmpdir);
  }
  g_free (tmpdir);

  return status;
}
