/* akc-ask-session-memory.c
 *
 * SPDX-License-Identifier: MIT
 */

#include "config.h"

#include <string.h>

#include <glib/gi18n-lib.h>

#include "akc-ask-session-memory.h"
#include "akc-ask-session-memory-private.h"
#include "akc-assistant-content.h"
#include "akc-chat-memory.h"
#include "akc-json-private.h"
#include "akc-message-record-private.h"
#include "akc-record-table-private.h"
#include "akc-text-private.h"

/* ------------------------------------------------------------------ */
/* The algorithm (§8.6)                                                */
/* ------------------------------------------------------------------ */

static gboolean
fits (const char *text,
      gsize       length,
      gsize       max_bytes)
{
  return length <= max_bytes && akc_text_len16 (text, length) <= max_bytes;
}

/* The canonical record's messages, projected, or NULL when invalid. */
static AkcJsonValue *
decode_canonical (const char                *text,
                  gsize                      length,
                  const AkcAskMemoryOptions *options)
{
  g_autoptr(AkcJsonValue) value = NULL;

  if (!fits (text, length, options->max_record_bytes) || !g_utf8_validate_len (text, length, NULL))
    return NULL;

  value = akc_json_value_parse (text, length, NULL);
  if (value == NULL)
    return NULL;

  return akc_message_memory_record_decode (value);
}

/* The last @max elements of @messages. */
static AkcJsonValue *
take_last (AkcJsonValue *messages,
           guint         max)
{
  gsize n = akc_json_value_get_length (messages);
  gsize start = n > max ? n - max : 0;
  g_autoptr(GPtrArray) items = g_ptr_array_new ();

  for (gsize i = start; i < n; i++)
    g_ptr_array_add (items, akc_json_value_get_element (messages, i));

  return akc_json_value_new_array ((AkcJsonValue * const *) items->pdata, items->len);
}

/* Appends @text as text records of at most 16 384 units; FALSE once the
 * encoder refuses one (what was encoded stays). */
static gboolean
encode_text (AkcAssistantContentEncoder *encoder,
             GString                    *content,
             const char                 *text,
             gsize                       length)
{
  gsize pos = 0;

  while (pos < length)
    {
      gsize end = pos, units = 0;
      g_autofree char *record = NULL;
      gsize record_len;

      while (end < length)
        {
          guchar c = (guchar) text[end];
          gsize width = c < 0x80 ? 1 : c < 0xE0 ? 2 : c < 0xF0 ? 3 : 4;
          gsize cp_units = width == 4 ? 2 : 1;

          if (units + cp_units > AKC_ASSISTANT_CONTENT_MAX_TEXT_LENGTH)
            break;
          units += cp_units;
          end += width;
        }

      record = akc_assistant_content_encoder_encode_text (encoder, text + pos, end - pos, &record_len, NULL);
      if (record == NULL)
        return FALSE;
      g_string_append_len (content, record, record_len);
      pos = end;
    }

  return TRUE;
}

/* The ordered content of a Docs `parts` array, or NULL when a non-empty
 * array produced nothing. */
static char *
parts_to_content (AkcJsonValue              *parts,
                  const AkcAskMemoryOptions *options,
                  gsize                     *length)
{
  g_autoptr(AkcAssistantContentEncoder) encoder = akc_assistant_content_encoder_new (TRUE);
  g_autoptr(GString) content = g_string_new (NULL);
  gsize n = akc_json_value_get_length (parts);

  for (gsize i = 0; i < n; i++)
    {
      AkcJsonValue *part = akc_json_value_get_element (parts, i);
      AkcJsonValue *kind = akc_json_value_get_member (part, "kind");
      gboolean going = TRUE;

      if (akc_json_value_get_kind (part) != AKC_JSON_KIND_OBJECT)
        continue;

      if (akc_json_string_equals (kind, "text"))
        {
          AkcJsonValue *text = akc_json_value_get_member (part, "text");
          gsize text_len;
          const char *text_s;

          if (text == NULL || akc_json_value_get_kind (text) != AKC_JSON_KIND_STRING)
            continue;
          text_s = akc_json_value_get_string (text, &text_len);
          if (text_len > 0)
            going = encode_text (encoder, content, text_s, text_len);
        }
      else if (akc_json_string_equals (kind, "tool"))
        {
          AkcJsonValue *id = akc_json_value_get_member (part, "id");
          AkcJsonValue *name = akc_json_value_get_member (part, "name");
          AkcJsonValue *args = akc_json_value_get_member (part, "args");
          const char *names[] = { "type", "id", "name", "args" };
          g_autoptr(AkcJsonValue) type = NULL;
          g_autoptr(AkcJsonValue) event = NULL;
          AkcJsonValue *values[4];
          AkcAskProjection projection;

          if (id == NULL || akc_json_value_get_kind (id) != AKC_JSON_KIND_STRING ||
              name == NULL || akc_json_value_get_kind (name) != AKC_JSON_KIND_STRING ||
              args == NULL || akc_json_value_get_kind (args) != AKC_JSON_KIND_OBJECT)
            continue;

          type = akc_json_value_new_string ("tool", -1);
          values[0] = type;
          values[1] = id;
          values[2] = name;
          values[3] = args;
          event = akc_json_value_new_object (names, values, 4);

          akc_ask_project_event (event, options->projector, options->projector_data, &projection);
          if (projection.kind == AKC_ASK_PROJECTION_TEXT)
            going = encode_text (encoder, content, projection.text, projection.length);
          else if (projection.kind == AKC_ASK_PROJECTION_COMPONENT)
            {
              g_autofree char *record = NULL;
              gsize record_len;

              record = akc_assistant_content_encoder_encode_frame (encoder, projection.frame, &record_len, NULL);
              if (record != NULL)
                g_string_append_len (content, record, record_len);
              going = record != NULL;
            }
          akc_ask_projection_clear (&projection);
        }

      if (!going)
        break;
    }

  if (n > 0 && content->len == 0)
    return NULL;

  *length = content->len;
  return g_strndup (content->str, content->len);
}

static char *
legacy_created_at (gsize index)
{
  g_autoptr(GDateTime) time = g_date_time_new_from_unix_utc ((gint64) (index / 1000));
  g_autofree char *seconds = g_date_time_format (time, "%Y-%m-%dT%H:%M:%S");

  return g_strdup_printf ("%s.%03uZ", seconds, (guint) (index % 1000));
}

AkcJsonValue *
akc_ask_memory_migrate (AkcJsonValue              *legacy,
                        const AkcAskMemoryOptions *options)
{
  g_autoptr(GPtrArray) items = NULL;
  gsize n;

  if (legacy == NULL || akc_json_value_get_kind (legacy) != AKC_JSON_KIND_ARRAY)
    return NULL;

  n = akc_json_value_get_length (legacy);
  items = g_ptr_array_new_with_free_func ((GDestroyNotify) akc_json_value_unref);

  for (gsize i = 0; i < n; i++)
    {
      AkcJsonValue *item = akc_json_value_get_element (legacy, i);
      AkcJsonValue *role, *content, *text, *parts, *id;
      g_autofree char *content_s = NULL;
      g_autofree char *fallback = NULL;
      g_autofree char *message_id = NULL;
      g_autofree char *created_at = NULL;
      g_autoptr(AkcMessageRecord) record = NULL;
      gsize content_len = 0;
      gboolean assistant;

      if (akc_json_value_get_kind (item) != AKC_JSON_KIND_OBJECT)
        continue;
      role = akc_json_value_get_member (item, "role");
      if (!akc_json_string_equals (role, "user") && !akc_json_string_equals (role, "assistant"))
        continue;
      assistant = akc_json_string_equals (role, "assistant");

      content = akc_json_value_get_member (item, "content");
      text = akc_json_value_get_member (item, "text");
      parts = akc_json_value_get_member (item, "parts");
      if (content != NULL && akc_json_value_get_kind (content) == AKC_JSON_KIND_STRING)
        {
          const char *s = akc_json_value_get_string (content, &content_len);

          content_s = g_strndup (s, content_len);
        }
      else if (text != NULL && akc_json_value_get_kind (text) == AKC_JSON_KIND_STRING)
        {
          const char *s = akc_json_value_get_string (text, &content_len);

          content_s = g_strndup (s, content_len);
        }
      else if (assistant && parts != NULL && akc_json_value_get_kind (parts) == AKC_JSON_KIND_ARRAY)
        content_s = parts_to_content (parts, options, &content_len);

      if (content_s == NULL)
        continue;

      fallback = g_strdup_printf ("legacy-%" G_GSIZE_FORMAT, i + 1);
      id = akc_json_value_get_member (item, "id");
      if (id != NULL && akc_json_value_get_kind (id) == AKC_JSON_KIND_STRING)
        {
          gsize id_len;
          const char *id_s = akc_json_value_get_string (id, &id_len);

          message_id = akc_ask_sanitize_id (id_s, id_len, fallback);
        }
      else
        message_id = g_strdup (fallback);

      created_at = legacy_created_at (i);
      {
        const char *names[] = { "id", "role", "content", "status", "createdAt" };
        g_autoptr(AkcJsonValue) v_id = akc_json_value_new_string (message_id, -1);
        g_autoptr(AkcJsonValue) v_content = akc_json_value_new_string (content_s, content_len);
        g_autoptr(AkcJsonValue) v_status = akc_json_value_new_string ("complete", -1);
        g_autoptr(AkcJsonValue) v_created = akc_json_value_new_string (created_at, -1);
        AkcJsonValue *values[] = { v_id, role, v_content, v_status, v_created };
        g_autoptr(AkcJsonValue) message = akc_json_value_new_object (names, values, 5);

        record = akc_message_record_new_from_value (message, NULL);
      }
      if (record == NULL)
        continue;
      g_ptr_array_add (items, akc_message_record_to_value (record));
    }

  if (n > 0 && items->len == 0)
    return NULL;

  return akc_json_value_new_array ((AkcJsonValue * const *) items->pdata, items->len);
}

char *
akc_ask_memory_encode (AkcJsonValue              *messages,
                       const AkcAskMemoryOptions *options,
                       gsize                     *length,
                       GError                   **error)
{
  g_autoptr(AkcJsonValue) last = NULL;
  g_autoptr(GString) out = g_string_new ("{\"version\":1,\"messages\":[");

  g_return_val_if_fail (messages != NULL && akc_json_value_get_kind (messages) == AKC_JSON_KIND_ARRAY, NULL);

  last = take_last (messages, options->max_messages);
  for (gsize i = 0; i < akc_json_value_get_length (last); i++)
    {
      g_autoptr(AkcMessageRecord) record = NULL;
      g_autoptr(AkcJsonValue) projected = NULL;

      record = akc_message_record_new_from_value (akc_json_value_get_element (last, i), NULL);
      if (record == NULL)
        {
          g_set_error_literal (error, AKC_CHAT_MEMORY_ERROR, AKC_CHAT_MEMORY_ERROR_INVALID,
                               _("An Ask session message is invalid."));
          return NULL;
        }
      projected = akc_message_record_to_value (record);
      if (i > 0)
        g_string_append_c (out, ',');
      akc_json_append_value (out, projected);
    }
  g_string_append (out, "]}");

  if (!fits (out->str, out->len, options->max_record_bytes))
    {
      g_set_error_literal (error, AKC_CHAT_MEMORY_ERROR, AKC_CHAT_MEMORY_ERROR_INVALID,
                           _("The Ask session is too large to keep."));
      return NULL;
    }

  if (length != NULL)
    *length = out->len;
  return g_strndup (out->str, out->len);
}

AkcJsonValue *
akc_ask_memory_load (const AkcAskRecordStore   *vtable,
                     gpointer                   store,
                     const AkcAskMemoryOptions *options)
{
  guint n_keys = 1 + (options->legacy_keys != NULL ? g_strv_length ((char **) options->legacy_keys) : 0);

  if (store == NULL)
    return akc_json_value_new_array (NULL, 0);

  for (guint k = 0; k < n_keys; k++)
    {
      const char *key = k == 0 ? options->key : options->legacy_keys[k - 1];
      g_autofree char *value = NULL;
      g_autoptr(AkcJsonValue) messages = NULL;
      gsize length = 0;

      if (!vtable->get (store, key, &value, &length) || value == NULL)
        continue;

      if (k == 0)
        messages = decode_canonical (value, length, options);
      else
        {
          g_autoptr(AkcJsonValue) legacy = NULL;

          if (g_utf8_validate_len (value, length, NULL))
            legacy = akc_json_value_parse (value, length, NULL);
          messages = akc_ask_memory_migrate (legacy, options);
        }

      if (messages == NULL)
        {
          vtable->remove (store, key);
          continue;
        }

      {
        AkcJsonValue *last = take_last (messages, options->max_messages);

        if (k > 0)
          {
            g_autofree char *record = NULL;
            gsize record_len;

            record = akc_ask_memory_encode (last, options, &record_len, NULL);
            /* The legacy value goes only once its migration is stored. */
            if (record != NULL && vtable->set (store, options->key, record, record_len))
              vtable->remove (store, key);
          }

        return last;
      }
    }

  return akc_json_value_new_array (NULL, 0);
}

/* ------------------------------------------------------------------ */
/* The records of the history database                                */
/* ------------------------------------------------------------------ */

static gboolean
table_get (gpointer     store,
           const char  *key,
           char       **value,
           gsize       *length)
{
  return akc_record_table_get (store, key, value, length);
}

static gboolean
table_set (gpointer    store,
           const char *key,
           const char *value,
           gsize       length)
{
  return akc_record_table_set (store, key, value, length);
}

static gboolean
table_remove (gpointer    store,
              const char *key)
{
  return akc_record_table_remove (store, key);
}

static const AkcAskRecordStore table_store = { table_get, table_set, table_remove };

/* ------------------------------------------------------------------ */
/* AkcAskSessionMemory                                                 */
/* ------------------------------------------------------------------ */

/**
 * AkcAskSessionMemory:
 *
 * The memory of one Ask session ([application §8.6](wire-formats.html#application-8)): the last messages
 * of a conversation with an Ask backend, kept in the `ask_sessions` table
 * of the history database ([class@SqliteChatMemory]) under a key.
 *
 * A session is stored as the canonical record
 * `{"version":1,"messages":[…]}` of at most
 * [property@AskSessionMemory:max-messages] messages, within
 * [property@AskSessionMemory:max-record-bytes]. Loading tries the key and
 * then each legacy key in order: a value in one of the historical shapes
 * (`{role, text}`, `{role, content}` or Docs `{role:"assistant", parts}`)
 * is migrated, written back under the key, and removed only once that
 * write succeeded. An invalid value is removed and the next key tried.
 *
 * Messages go in and out as [struct@MessageRecord]s.
 *
 * Since: 0.1
 */
struct _AkcAskSessionMemory
{
  GObject              parent_instance;

  AkcSqliteChatMemory *store;
  char                *key;
  GStrv                legacy_keys;
  guint                max_messages;
  gsize                max_record_bytes;
};

G_DEFINE_FINAL_TYPE (AkcAskSessionMemory, akc_ask_session_memory, G_TYPE_OBJECT)

enum {
  PROP_0,
  PROP_MAX_MESSAGES,
  PROP_MAX_RECORD_BYTES,
  N_PROPS
};

static GParamSpec *props[N_PROPS];

static void
akc_ask_session_memory_finalize (GObject *object)
{
  AkcAskSessionMemory *self = AKC_ASK_SESSION_MEMORY (object);

  g_clear_object (&self->store);
  g_clear_pointer (&self->key, g_free);
  g_clear_pointer (&self->legacy_keys, g_strfreev);

  G_OBJECT_CLASS (akc_ask_session_memory_parent_class)->finalize (object);
}

static void
akc_ask_session_memory_get_property (GObject    *object,
                                     guint       prop_id,
                                     GValue     *value,
                                     GParamSpec *pspec)
{
  AkcAskSessionMemory *self = AKC_ASK_SESSION_MEMORY (object);

  switch (prop_id)
    {
    case PROP_MAX_MESSAGES:
      g_value_set_uint (value, self->max_messages);
      break;
    case PROP_MAX_RECORD_BYTES:
      g_value_set_uint (value, (guint) self->max_record_bytes);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
akc_ask_session_memory_set_property (GObject      *object,
                                     guint         prop_id,
                                     const GValue *value,
                                     GParamSpec   *pspec)
{
  AkcAskSessionMemory *self = AKC_ASK_SESSION_MEMORY (object);

  switch (prop_id)
    {
    case PROP_MAX_MESSAGES:
      if (self->max_messages != g_value_get_uint (value))
        {
          self->max_messages = g_value_get_uint (value);
          g_object_notify_by_pspec (object, pspec);
        }
      break;
    case PROP_MAX_RECORD_BYTES:
      if (self->max_record_bytes != g_value_get_uint (value))
        {
          self->max_record_bytes = g_value_get_uint (value);
          g_object_notify_by_pspec (object, pspec);
        }
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
akc_ask_session_memory_class_init (AkcAskSessionMemoryClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->finalize = akc_ask_session_memory_finalize;
  object_class->get_property = akc_ask_session_memory_get_property;
  object_class->set_property = akc_ask_session_memory_set_property;

  /**
   * AkcAskSessionMemory:max-messages:
   *
   * How many of the newest messages are kept.
   *
   * Since: 0.1
   */
  props[PROP_MAX_MESSAGES] =
    g_param_spec_uint ("max-messages", NULL, NULL,
                       1, G_MAXINT, 20,
                       (G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));

  /**
   * AkcAskSessionMemory:max-record-bytes:
   *
   * The largest stored record, in UTF-8 bytes and in UTF-16 code units.
   *
   * Since: 0.1
   */
  props[PROP_MAX_RECORD_BYTES] =
    g_param_spec_uint ("max-record-bytes", NULL, NULL,
                       2, G_MAXINT, 1048576,
                       (G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));

  g_object_class_install_properties (object_class, N_PROPS, props);
}

static void
akc_ask_session_memory_init (AkcAskSessionMemory *self)
{
  self->max_messages = 20;
  self->max_record_bytes = 1048576;
}

/**
 * akc_ask_session_memory_new:
 * @store: the history database
 * @key: the key of the session, such as `ask:ENDPOINT:SESSION`
 * @legacy_keys: (nullable) (array zero-terminated=1): keys an older
 *   client used for the same session, tried in order after @key
 *
 * Creates the memory of one Ask session.
 *
 * Returns: (transfer full): a new #AkcAskSessionMemory
 *
 * Since: 0.1
 */
AkcAskSessionMemory *
akc_ask_session_memory_new (AkcSqliteChatMemory *store,
                            const char          *key,
                            const char * const  *legacy_keys)
{
  AkcAskSessionMemory *self;

  g_return_val_if_fail (AKC_IS_SQLITE_CHAT_MEMORY (store), NULL);
  g_return_val_if_fail (key != NULL && key[0] != '\0', NULL);

  self = g_object_new (AKC_TYPE_ASK_SESSION_MEMORY, NULL);
  self->store = g_object_ref (store);
  self->key = g_strdup (key);
  self->legacy_keys = g_strdupv ((char **) legacy_keys);

  return self;
}

typedef struct
{
  AkcAskMemoryOptions options;
  char               *key;
  GStrv               legacy_keys;
  AkcJsonValue       *messages;
} MemoryJob;

static void
memory_job_free (gpointer data)
{
  MemoryJob *job = data;

  g_free (job->key);
  g_strfreev (job->legacy_keys);
  g_clear_pointer (&job->messages, akc_json_value_unref);
  g_free (job);
}

static MemoryJob *
memory_job_new (AkcAskSessionMemory *self)
{
  MemoryJob *job = g_new0 (MemoryJob, 1);

  job->key = g_strdup (self->key);
  job->legacy_keys = g_strdupv (self->legacy_keys);
  job->options.key = job->key;
  job->options.legacy_keys = (const char * const *) job->legacy_keys;
  job->options.max_messages = self->max_messages;
  job->options.max_record_bytes = self->max_record_bytes;

  return job;
}

static gpointer
load_in_transaction (AkcRecordTable  *table,
                     gpointer         data,
                     GError         **error)
{
  MemoryJob *job = data;

  return akc_ask_memory_load (&table_store, table, &job->options);
}

static void
records_free (gpointer data)
{
  g_ptr_array_unref (data);
}

static void
load_done (GObject      *source,
           GAsyncResult *result,
           gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  g_autoptr(AkcJsonValue) messages = NULL;
  GError *error = NULL;
  GPtrArray *records;

  messages = akc_record_table_run_finish (AKC_SQLITE_CHAT_MEMORY (source), result, &error);
  if (messages == NULL)
    {
      g_task_return_error (task, error);
      return;
    }

  records = g_ptr_array_new_with_free_func ((GDestroyNotify) akc_message_record_unref);
  for (gsize i = 0; i < akc_json_value_get_length (messages); i++)
    {
      AkcMessageRecord *record = akc_message_record_new_from_value (akc_json_value_get_element (messages, i),
                                                                    NULL);

      if (record != NULL)
        g_ptr_array_add (records, record);
    }

  g_task_return_pointer (task, records, records_free);
}

/**
 * akc_ask_session_memory_load_async:
 * @self: a session memory
 * @cancellable: (nullable): a #GCancellable
 * @callback: called when the messages are loaded
 * @user_data: data for @callback
 *
 * Loads the messages of the session, migrating a legacy value when one is
 * found (see [class@AskSessionMemory]).
 *
 * Since: 0.1
 */
void
akc_ask_session_memory_load_async (AkcAskSessionMemory *self,
                                   GCancellable        *cancellable,
                                   GAsyncReadyCallback  callback,
                                   gpointer             user_data)
{
  GTask *task;

  g_return_if_fail (AKC_IS_ASK_SESSION_MEMORY (self));

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, akc_ask_session_memory_load_async);
  akc_record_table_run_async (self->store, load_in_transaction, memory_job_new (self),
                              memory_job_free, (GDestroyNotify) akc_json_value_unref,
                              cancellable, load_done, task);
}

/**
 * akc_ask_session_memory_load_finish:
 * @self: a session memory
 * @result: the result given to the callback
 * @error: return location for a #GError
 *
 * Finishes [method@AskSessionMemory.load_async].
 *
 * Returns: (transfer full) (element-type AkcMessageRecord): the messages,
 *   oldest first, or %NULL with @error set when the history failed
 *
 * Since: 0.1
 */
GPtrArray *
akc_ask_session_memory_load_finish (AkcAskSessionMemory  *self,
                                    GAsyncResult         *result,
                                    GError              **error)
{
  g_return_val_if_fail (g_task_is_valid (result, self), NULL);

  return g_task_propagate_pointer (G_TASK (result), error);
}

static gpointer
save_in_transaction (AkcRecordTable  *table,
                     gpointer         data,
                     GError         **error)
{
  MemoryJob *job = data;
  g_autofree char *record = NULL;
  gsize length;

  record = akc_ask_memory_encode (job->messages, &job->options, &length, error);
  if (record == NULL)
    return NULL;
  if (!akc_record_table_set (table, job->key, record, length))
    {
      akc_record_table_set_error (table, error);
      return NULL;
    }

  return GINT_TO_POINTER (TRUE);
}

static void
boolean_done (GObject      *source,
              GAsyncResult *result,
              gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  GError *error = NULL;

  if (akc_record_table_run_finish (AKC_SQLITE_CHAT_MEMORY (source), result, &error) == NULL)
    g_task_return_error (task, error);
  else
    g_task_return_boolean (task, TRUE);
}

/**
 * akc_ask_session_memory_save_async:
 * @self: a session memory
 * @records: (array length=n_records): the messages of the session, oldest first
 * @n_records: the number of messages
 * @cancellable: (nullable): a #GCancellable
 * @callback: called when the messages are stored
 * @user_data: data for @callback
 *
 * Stores the newest [property@AskSessionMemory:max-messages] of @records
 * under the key. A session too large for
 * [property@AskSessionMemory:max-record-bytes] fails with
 * %AKC_CHAT_MEMORY_ERROR_INVALID and leaves the stored one as it was.
 *
 * Since: 0.1
 */
void
akc_ask_session_memory_save_async (AkcAskSessionMemory     *self,
                                   AkcMessageRecord * const *records,
                                   guint                    n_records,
                                   GCancellable            *cancellable,
                                   GAsyncReadyCallback      callback,
                                   gpointer                 user_data)
{
  g_autoptr(GPtrArray) values = NULL;
  MemoryJob *job;
  GTask *task;

  g_return_if_fail (AKC_IS_ASK_SESSION_MEMORY (self));
  g_return_if_fail (records != NULL || n_records == 0);

  values = g_ptr_array_new_with_free_func ((GDestroyNotify) akc_json_value_unref);
  for (guint i = 0; i < n_records; i++)
    g_ptr_array_add (values, akc_message_record_to_value (records[i]));

  job = memory_job_new (self);
  job->messages = akc_json_value_new_array ((AkcJsonValue * const *) values->pdata, values->len);

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, akc_ask_session_memory_save_async);
  akc_record_table_run_async (self->store, save_in_transaction, job, memory_job_free, NULL,
                              cancellable, boolean_done, task);
}

/**
 * akc_ask_session_memory_save_finish:
 * @self: a session memory
 * @result: the result given to the callback
 * @error: return location for a #GError
 *
 * Finishes [method@AskSessionMemory.save_async].
 *
 * Returns: %TRUE once stored
 *
 * Since: 0.1
 */
gboolean
akc_ask_session_memory_save_finish (AkcAskSessionMemory  *self,
                                    GAsyncResult         *result,
                                    GError              **error)
{
  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);

  return g_task_propagate_boolean (G_TASK (result), error);
}

static gpointer
clear_in_transaction (AkcRecordTable  *table,
                      gpointer         data,
                      GError         **error)
{
  MemoryJob *job = data;

  if (!akc_record_table_remove (table, job->key))
    goto failed;
  for (guint i = 0; job->legacy_keys != NULL && job->legacy_keys[i] != NULL; i++)
    if (!akc_record_table_remove (table, job->legacy_keys[i]))
      goto failed;

  return GINT_TO_POINTER (TRUE);

failed:
  akc_record_table_set_error (table, error);
  return NULL;
}

/**
 * akc_ask_session_memory_clear_async:
 * @self: a session memory
 * @cancellable: (nullable): a #GCancellable
 * @callback: called when the session is forgotten
 * @user_data: data for @callback
 *
 * Removes the session under its key and every legacy key.
 *
 * Since: 0.1
 */
void
akc_ask_session_memory_clear_async (AkcAskSessionMemory *self,
                                    GCancellable        *cancellable,
                                    GAsyncReadyCallback  callback,
                                    gpointer             user_data)
{
  GTask *task;

  g_return_if_fail (AKC_IS_ASK_SESSION_MEMORY (self));

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, akc_ask_session_memory_clear_async);
  akc_record_table_run_async (self->store, clear_in_transaction, memory_job_new (self),
                              memory_job_free, NULL, cancellable, boolean_done, task);
}

/**
 * akc_ask_session_memory_clear_finish:
 * @self: a session memory
 * @result: the result given to the callback
 * @error: return location for a #GError
 *
 * Finishes [method@AskSessionMemory.clear_async].
 *
 * Returns: %TRUE once removed
 *
 * Since: 0.1
 */
gboolean
akc_ask_session_memory_clear_finish (AkcAskSessionMemory  *self,
                                     GAsyncResult         *result,
                                     GError              **error)
{
  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);

  return g_task_propagate_boolean (G_TASK (result), error);
}
