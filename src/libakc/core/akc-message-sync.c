/* akc-message-sync.c: a list of messages kept in line with the message
 * records of successive snapshots
 *
 * SPDX-License-Identifier: MIT
 *
 * Sources whose state arrives as whole snapshots (a host's controlled
 * snapshots, a turn server's stream) show the same conversation many times
 * over, usually with only the last message changed. Rebuilding every
 * AkcMessage each time would make the transcript rebind every row; here a
 * message whose record did not change keeps its object, and a streamed
 * reply grows in place.
 */

#include "config.h"

#include <string.h>

#include "akc-chat-source-state-private.h"
#include "akc-json-private.h"
#include "akc-message.h"
#include "akc-message-record-private.h"
#include "akc-message-sync-private.h"
#include "akc-tool-call.h"

struct _AkcMessageSync
{
  GListStore *store;    /* AkcMessage */
  GPtrArray  *records;  /* AkcMessageRecord, parallel to store */
  GHashTable *positions; /* id (owned) -> first position + 1 */
  GHashTable *stale;    /* positions + 1 whose message has text its record lacks */
  guint64     n_values; /* Σ values of the records */
};

AkcMessageSync *
akc_message_sync_new (GListStore *store)
{
  AkcMessageSync *self = g_new0 (AkcMessageSync, 1);

  g_assert (G_IS_LIST_STORE (store));
  g_assert (g_list_model_get_n_items (G_LIST_MODEL (store)) == 0);

  self->store = g_object_ref (store);
  self->records = g_ptr_array_new_with_free_func ((GDestroyNotify) akc_message_record_unref);
  self->positions = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  self->stale = g_hash_table_new (NULL, NULL);

  return self;
}

void
akc_message_sync_free (AkcMessageSync *self)
{
  if (self == NULL)
    return;

  g_clear_object (&self->store);
  g_clear_pointer (&self->records, g_ptr_array_unref);
  g_clear_pointer (&self->positions, g_hash_table_unref);
  g_clear_pointer (&self->stale, g_hash_table_unref);
  g_free (self);
}

GListModel *
akc_message_sync_get_model (AkcMessageSync *self)
{
  return G_LIST_MODEL (self->store);
}

static gboolean
role_from_string (const char     *role,
                  AkcMessageRole *out)
{
  static const struct { const char *name; AkcMessageRole role; } roles[] = {
    { "user", AKC_MESSAGE_ROLE_USER },
    { "assistant", AKC_MESSAGE_ROLE_ASSISTANT },
    { "system", AKC_MESSAGE_ROLE_SYSTEM },
    { "tool", AKC_MESSAGE_ROLE_TOOL },
  };

  for (guint i = 0; i < G_N_ELEMENTS (roles); i++)
    if (g_strcmp0 (role, roles[i].name) == 0)
      {
        *out = roles[i].role;
        return TRUE;
      }

  return FALSE;
}

static AkcMessageStatus
status_from_string (const char *status)
{
  if (g_strcmp0 (status, "pending") == 0)
    return AKC_MESSAGE_STATUS_PENDING;
  if (g_strcmp0 (status, "streaming") == 0)
    return AKC_MESSAGE_STATUS_STREAMING;
  if (g_strcmp0 (status, "error") == 0)
    return AKC_MESSAGE_STATUS_ERROR;
  return AKC_MESSAGE_STATUS_COMPLETE;
}

static const char *
member_string (AkcJsonValue *object,
               const char   *name)
{
  AkcJsonValue *value = akc_json_value_get_member (object, name);

  if (value == NULL || akc_json_value_get_kind (value) != AKC_JSON_KIND_STRING)
    return NULL;
  return akc_json_value_get_string (value, NULL);
}

/* The content of @message becomes @content (which may hold U+0000). */
static void
update_content (AkcMessage *message,
                const char *content,
                gsize       length)
{
  const char *old = akc_message_get_content (message);
  gsize old_length = akc_message_get_content_length (message);

  if (old_length == length && memcmp (old, content, length) == 0)
    return;

  /* A streamed reply grows: append only what is new. */
  if (old_length < length && memcmp (old, content, old_length) == 0)
    {
      akc_message_append_content (message, content + old_length, length - old_length);
      return;
    }

  if (memchr (content, '\0', length) == NULL)
    akc_message_set_content (message, content);
  else
    {
      akc_message_set_content (message, "");
      akc_message_append_content (message, content, length);
    }
}

static AkcToolCall *
tool_call_new (AkcJsonValue *call)
{
  AkcToolCallStatus status = AKC_TOOL_CALL_STATUS_PENDING;
  AkcToolCall *tool_call;

  akc_tool_call_status_from_string (member_string (call, "status"), &status);
  tool_call = akc_tool_call_new (member_string (call, "id"),
                                 member_string (call, "name"),
                                 akc_json_value_get_member (call, "args"),
                                 status);
  if (member_string (call, "result") != NULL)
    akc_tool_call_set_result (tool_call, member_string (call, "result"));
  if (member_string (call, "error") != NULL)
    akc_tool_call_set_error (tool_call, member_string (call, "error"));

  return tool_call;
}

/* Whether the existing calls of @message are a prefix of @calls with the
 * same ids, names and arguments (only their progress may differ). */
static gboolean
tool_calls_compatible (AkcMessage   *message,
                       AkcJsonValue *calls)
{
  GListModel *model = akc_message_get_tool_calls (message);
  guint n = g_list_model_get_n_items (model);
  gsize n_calls = calls != NULL ? akc_json_value_get_length (calls) : 0;

  if (n > n_calls)
    return FALSE;

  for (guint i = 0; i < n; i++)
    {
      g_autoptr(AkcToolCall) old = g_list_model_get_item (model, i);
      AkcJsonValue *call = akc_json_value_get_element (calls, i);

      if (g_strcmp0 (akc_tool_call_get_id (old), member_string (call, "id")) != 0 ||
          g_strcmp0 (akc_tool_call_get_name (old), member_string (call, "name")) != 0 ||
          !akc_json_value_equal (akc_tool_call_get_arguments (old), akc_json_value_get_member (call, "args")))
        return FALSE;
    }

  return TRUE;
}

static void
update_tool_calls (AkcMessage   *message,
                   AkcJsonValue *calls)
{
  GListModel *model = akc_message_get_tool_calls (message);
  guint n = g_list_model_get_n_items (model);
  gsize n_calls = calls != NULL ? akc_json_value_get_length (calls) : 0;

  for (gsize i = 0; i < n_calls; i++)
    {
      AkcJsonValue *call = akc_json_value_get_element (calls, i);

      if (i < n)
        {
          g_autoptr(AkcToolCall) old = g_list_model_get_item (model, i);
          AkcToolCallStatus status = akc_tool_call_get_status (old);

          akc_tool_call_status_from_string (member_string (call, "status"), &status);
          akc_tool_call_set_status (old, status);
          akc_tool_call_set_result (old, member_string (call, "result"));
          akc_tool_call_set_error (old, member_string (call, "error"));
        }
      else
        {
          g_autoptr(AkcToolCall) tool_call = tool_call_new (call);

          akc_message_add_tool_call (message, tool_call);
        }
    }
}

static AkcMessage *
message_new (AkcMessageRecord *record)
{
  AkcMessageRole role = AKC_MESSAGE_ROLE_USER;
  const char *content;
  gsize length = 0;
  AkcMessage *message;

  role_from_string (akc_message_record_get_role (record), &role);
  message = g_object_new (AKC_TYPE_MESSAGE,
                          "id", akc_message_record_get_id (record, NULL),
                          "role", role,
                          "status", status_from_string (akc_message_record_get_status (record)),
                          "created-at", akc_message_record_get_created_at (record),
                          "tool-call-id", akc_message_record_get_tool_call_id (record, NULL),
                          NULL);
  content = akc_message_record_get_content (record, &length);
  update_content (message, content, length);
  update_tool_calls (message, akc_message_record_get_tool_calls (record));

  return message;
}

/* Brings @message (built from @old) to @record, or returns FALSE when the
 * change needs a new object. */
static gboolean
update_message (AkcMessage       *message,
                AkcMessageRecord *old,
                AkcMessageRecord *record)
{
  g_autoptr(AkcJsonValue) old_value = akc_message_record_to_value (old);
  g_autoptr(AkcJsonValue) new_value = akc_message_record_to_value (record);
  const char *content;
  gsize length = 0;

  if (old_value == new_value || akc_json_value_equal (old_value, new_value))
    return TRUE;

  if (g_strcmp0 (akc_message_record_get_role (old), akc_message_record_get_role (record)) != 0 ||
      !g_date_time_equal (akc_message_record_get_created_at (old), akc_message_record_get_created_at (record)) ||
      g_strcmp0 (akc_message_record_get_tool_call_id (old, NULL),
                 akc_message_record_get_tool_call_id (record, NULL)) != 0 ||
      !tool_calls_compatible (message, akc_message_record_get_tool_calls (record)))
    return FALSE;

  content = akc_message_record_get_content (record, &length);
  update_content (message, content, length);
  akc_message_set_status (message, status_from_string (akc_message_record_get_status (record)));
  update_tool_calls (message, akc_message_record_get_tool_calls (record));

  return TRUE;
}

/* The item at @position; the store keeps it alive. */
static gpointer
peek (GListStore *store,
      guint       position)
{
  gpointer item = g_list_model_get_item (G_LIST_MODEL (store), position);

  g_object_unref (item);
  return item;
}

static guint64
record_n_values (AkcMessageRecord *record)
{
  g_autoptr(AkcJsonValue) value = akc_message_record_to_value (record);

  return value->n_values;
}

/* The record at @position with the content its message shows now. */
static void
catch_up_one (AkcMessageSync *self,
              guint           position)
{
  AkcMessageRecord *old = g_ptr_array_index (self->records, position);
  AkcMessage *message = peek (self->store, position);
  g_autoptr(AkcJsonValue) value = akc_message_record_to_value (old);
  g_autoptr(AkcJsonValue) content = akc_json_value_new_string (akc_message_get_content (message),
                                                               akc_message_get_content_length (message));
  gsize n = akc_json_value_get_member_count (value);
  g_autofree const char **names = g_new (const char *, n);
  g_autofree AkcJsonValue **values = g_new (AkcJsonValue *, n);
  g_autoptr(AkcJsonValue) updated = NULL;
  AkcMessageRecord *record;

  for (gsize i = 0; i < n; i++)
    {
      names[i] = akc_json_value_get_member_name (value, i, NULL);
      values[i] = strcmp (names[i], "content") == 0 ? content : akc_json_value_get_member_value (value, i);
    }
  updated = akc_json_value_new_object (names, values, n);
  record = akc_message_record_new_validated (updated, NULL);
  g_assert (record != NULL);

  self->n_values -= value->n_values;
  self->n_values += updated->n_values;
  g_ptr_array_index (self->records, position) = record;
  akc_message_record_unref (old);
}

static void
catch_up (AkcMessageSync *self)
{
  GHashTableIter iter;
  gpointer key;

  g_hash_table_iter_init (&iter, self->stale);
  while (g_hash_table_iter_next (&iter, &key, NULL))
    catch_up_one (self, GPOINTER_TO_UINT (key) - 1);
  g_hash_table_remove_all (self->stale);
}

/* The index of ids and the count of values, after a whole new list. */
static void
reindex (AkcMessageSync *self)
{
  g_hash_table_remove_all (self->positions);
  self->n_values = 0;
  for (guint i = 0; i < self->records->len; i++)
    {
      AkcMessageRecord *record = g_ptr_array_index (self->records, i);
      const char *id = akc_message_record_get_id (record, NULL);

      if (!g_hash_table_contains (self->positions, id))
        g_hash_table_insert (self->positions, g_strdup (id), GUINT_TO_POINTER (i + 1));
      self->n_values += record_n_values (record);
    }
}

void
akc_message_sync_apply (AkcMessageSync *self,
                        GPtrArray      *records)
{
  g_autoptr(GHashTable) by_id = NULL;
  g_autoptr(GPtrArray) objects = NULL;
  guint n_old = self->records->len;
  guint n_new = records->len;

  /* Records that lag behind appended text catch up first, so that the
   * comparison below sees what the messages show. */
  catch_up (self);

  /* Old positions by id (the first of duplicate ids). */
  by_id = g_hash_table_new (g_str_hash, g_str_equal);
  for (guint i = n_old; i-- > 0;)
    g_hash_table_insert (by_id,
                         (gpointer) akc_message_record_get_id (g_ptr_array_index (self->records, i), NULL),
                         GUINT_TO_POINTER (i + 1));

  objects = g_ptr_array_new_full (n_new, g_object_unref);
  for (guint i = 0; i < n_new; i++)
    {
      AkcMessageRecord *record = g_ptr_array_index (records, i);
      guint old = GPOINTER_TO_UINT (g_hash_table_lookup (by_id, akc_message_record_get_id (record, NULL)));
      AkcMessage *message = NULL;

      if (old > 0)
        {
          g_autoptr(AkcMessage) candidate = g_list_model_get_item (G_LIST_MODEL (self->store), old - 1);

          /* Each old message serves one new position. */
          g_hash_table_remove (by_id, akc_message_record_get_id (record, NULL));
          if (update_message (candidate, g_ptr_array_index (self->records, old - 1), record))
            message = g_steal_pointer (&candidate);
        }

      g_ptr_array_add (objects, message != NULL ? message : message_new (record));
    }

  g_ptr_array_set_size (self->records, 0);
  for (guint i = 0; i < n_new; i++)
    g_ptr_array_add (self->records, akc_message_record_ref (g_ptr_array_index (records, i)));

  reindex (self);

  /* The smallest range of objects that differs. */
  akc_list_store_splice_minimal (self->store, 0, n_old, objects->pdata, n_new);
}

guint
akc_message_sync_get_n_records (AkcMessageSync *self)
{
  return self->records->len;
}

gint
akc_message_sync_find (AkcMessageSync *self,
                       const char     *id)
{
  guint position = GPOINTER_TO_UINT (g_hash_table_lookup (self->positions, id));

  return (gint) position - 1;
}

AkcMessageRecord *
akc_message_sync_get_record (AkcMessageSync *self,
                             guint           position)
{
  g_assert (position < self->records->len);

  if (g_hash_table_remove (self->stale, GUINT_TO_POINTER (position + 1)))
    catch_up_one (self, position);

  return g_ptr_array_index (self->records, position);
}

AkcMessage *
akc_message_sync_get_message (AkcMessageSync *self,
                              guint           position)
{
  return peek (self->store, position);
}

void
akc_message_sync_append (AkcMessageSync   *self,
                         AkcMessageRecord *record)
{
  g_autoptr(AkcMessage) message = message_new (record);
  guint position = self->records->len;
  const char *id = akc_message_record_get_id (record, NULL);

  g_ptr_array_add (self->records, akc_message_record_ref (record));
  self->n_values += record_n_values (record);
  if (!g_hash_table_contains (self->positions, id))
    g_hash_table_insert (self->positions, g_strdup (id), GUINT_TO_POINTER (position + 1));

  g_list_store_append (self->store, message);
}

void
akc_message_sync_replace (AkcMessageSync   *self,
                          guint             position,
                          AkcMessageRecord *record)
{
  AkcMessageRecord *old = akc_message_sync_get_record (self, position);
  AkcMessage *message = peek (self->store, position);
  const char *old_id = akc_message_record_get_id (old, NULL);
  const char *id = akc_message_record_get_id (record, NULL);

  g_assert (strcmp (old_id, id) == 0);

  self->n_values -= record_n_values (old);
  self->n_values += record_n_values (record);

  if (update_message (message, old, record))
    {
      g_ptr_array_index (self->records, position) = akc_message_record_ref (record);
      akc_message_record_unref (old);
    }
  else
    {
      g_autoptr(AkcMessage) replacement = message_new (record);

      g_ptr_array_index (self->records, position) = akc_message_record_ref (record);
      akc_message_record_unref (old);
      g_list_store_splice (self->store, position, 1, (gpointer *) &replacement, 1);
    }
}

void
akc_message_sync_append_text (AkcMessageSync *self,
                              guint           position,
                              const char     *text,
                              gsize           length)
{
  g_assert (position < self->records->len);

  if (length == 0)
    return;

  akc_message_append_content (peek (self->store, position), text, length);
  g_hash_table_add (self->stale, GUINT_TO_POINTER (position + 1));
}

guint64
akc_message_sync_get_n_values (AkcMessageSync *self)
{
  return self->n_values;
}

AkcToolCall *
akc_message_sync_find_tool_call (AkcMessageSync *self,
                                 const char     *tool_call_id)
{
  guint n = g_list_model_get_n_items (G_LIST_MODEL (self->store));

  for (guint i = 0; i < n; i++)
    {
      g_autoptr(AkcMessage) message = g_list_model_get_item (G_LIST_MODEL (self->store), i);
      AkcToolCall *call = akc_message_find_tool_call (message, tool_call_id);

      if (call != NULL)
        return call;
    }

  return NULL;
}
