/* akc-message-record.c: message records (protocol §2.9) and their
 * in-memory form
 *
 * SPDX-License-Identifier: MIT
 */

#include "config.h"

#include <string.h>

#include "akc-diagnostic.h"
#include "akc-message-record.h"
#include "akc-message-record-private.h"
#include "akc-text-private.h"

/* ------------------------------------------------------------------ */
/* §2.9.3 MessageTimestamp                                             */
/* ------------------------------------------------------------------ */

static inline gboolean
digits (const char *s,
        gsize       n,
        int        *out)
{
  int v = 0;
  gsize i;

  for (i = 0; i < n; i++)
    {
      if (s[i] < '0' || s[i] > '9')
        return FALSE;
      v = v * 10 + (s[i] - '0');
    }
  *out = v;

  return TRUE;
}

static int
days_in_month (int year,
               int month)
{
  static const int days[] = { 31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31 };

  if (month == 2 && year % 4 == 0 && (year % 100 != 0 || year % 400 == 0))
    return 29;
  return days[month - 1];
}

gboolean
akc_message_timestamp_parse (const char          *s,
                             gsize                len,
                             AkcMessageTimestamp *out)
{
  AkcMessageTimestamp ts;

  /* YYYY-MM-DDTHH:MM:SS.mmmZ: exactly 24 bytes (the pattern is ASCII). */
  if (len != 24)
    return FALSE;
  if (s[4] != '-' || s[7] != '-' || s[10] != 'T' || s[13] != ':' ||
      s[16] != ':' || s[19] != '.' || s[23] != 'Z')
    return FALSE;
  if (!digits (s, 4, &ts.year) || !digits (s + 5, 2, &ts.month) ||
      !digits (s + 8, 2, &ts.day) || !digits (s + 11, 2, &ts.hour) ||
      !digits (s + 14, 2, &ts.minute) || !digits (s + 17, 2, &ts.second) ||
      !digits (s + 20, 3, &ts.millisecond))
    return FALSE;

  /* A real instant whose canonical (toISOString) rendering is the input:
   * nothing may roll over into the next field. */
  if (ts.month < 1 || ts.month > 12)
    return FALSE;
  if (ts.day < 1 || ts.day > days_in_month (ts.year, ts.month))
    return FALSE;
  if (ts.hour > 23 || ts.minute > 59 || ts.second > 59)
    return FALSE;

  if (out != NULL)
    *out = ts;

  return TRUE;
}

gboolean
akc_message_timestamp_is_valid (const char *s,
                                gsize       len)
{
  return akc_message_timestamp_parse (s, len, NULL);
}

static GDateTime *
timestamp_to_date_time (const AkcMessageTimestamp *ts)
{
  g_autoptr(GDateTime) whole = NULL;

  /* GDateTime holds years 1..9999; year 0000 is a valid timestamp that it
   * cannot represent. */
  if (ts->year < 1)
    return NULL;

  whole = g_date_time_new_utc (ts->year, ts->month, ts->day, ts->hour, ts->minute, ts->second);
  if (whole == NULL)
    return NULL;

  return g_date_time_add (whole, (GTimeSpan) ts->millisecond * G_TIME_SPAN_MILLISECOND);
}

/* JavaScript Date#toISOString of @dt: UTC, milliseconds (sub-millisecond
 * precision truncated, as a Date cannot hold it). Returns 24 bytes. */
static char *
date_time_to_timestamp (GDateTime *dt)
{
  g_autoptr(GDateTime) utc = g_date_time_to_utc (dt);

  return g_strdup_printf ("%04d-%02d-%02dT%02d:%02d:%02d.%03dZ",
                          g_date_time_get_year (utc),
                          g_date_time_get_month (utc),
                          g_date_time_get_day_of_month (utc),
                          g_date_time_get_hour (utc),
                          g_date_time_get_minute (utc),
                          g_date_time_get_second (utc),
                          g_date_time_get_microsecond (utc) / 1000);
}

/* ------------------------------------------------------------------ */
/* Tables (§2.9.2, §2.9.5, §2.9.6)                                     */
/* ------------------------------------------------------------------ */

static const char * const role_values[] = { "user", "assistant", "system", "tool", NULL };
static const char * const status_values[] = { "pending", "streaming", "complete", "error", NULL };
static const char * const tool_status_values[] = {
  "pending", "running", "complete", "error", "requires_confirmation", NULL
};
static const char * const detail_values[] = { "low", "high", "auto", NULL };

#define ANY_STRING AKC_SCHEMA_STRING (0, AKC_SCHEMA_UNBOUNDED)

/* §2.9.5: one table per variant. Members of other variants are unknown
 * members of an open table: dropped without checks. */
static const AkcSchemaField text_part_fields[] = {
  { "type",        AKC_SCHEMA_LITERAL ("text") },
  { "text",        ANY_STRING },
};
static const AkcSchemaField image_part_fields[] = {
  { "type",        AKC_SCHEMA_LITERAL ("image") },
  { "source",      ANY_STRING },
  { "mimeType",    ANY_STRING, .optional = TRUE },
  /* §10 item 5: only the three strings (the reference coerces with String()). */
  { "detail",      AKC_SCHEMA_ENUM (detail_values), .optional = TRUE },
};
static const AkcSchemaField audio_part_fields[] = {
  { "type",        AKC_SCHEMA_LITERAL ("audio") },
  { "source",      ANY_STRING },
  { "mimeType",    ANY_STRING, .optional = TRUE },
  { "durationSec", AKC_SCHEMA_NUMBER (0, AKC_SCHEMA_UNBOUNDED), .optional = TRUE },
};
static const AkcSchemaField video_part_fields[] = {
  { "type",        AKC_SCHEMA_LITERAL ("video") },
  { "source",      ANY_STRING },
  { "mimeType",    ANY_STRING, .optional = TRUE },
  { "durationSec", AKC_SCHEMA_NUMBER (0, AKC_SCHEMA_UNBOUNDED), .optional = TRUE },
};
static const AkcSchemaField file_part_fields[] = {
  { "type",        AKC_SCHEMA_LITERAL ("file") },
  { "source",      ANY_STRING },
  { "mimeType",    ANY_STRING, .optional = TRUE },
  { "filename",    ANY_STRING, .optional = TRUE },
};
static const AkcSchemaTable text_part_table = AKC_SCHEMA_TABLE (text_part_fields, AKC_SCHEMA_OPEN);
static const AkcSchemaTable image_part_table = AKC_SCHEMA_TABLE (image_part_fields, AKC_SCHEMA_OPEN);
static const AkcSchemaTable audio_part_table = AKC_SCHEMA_TABLE (audio_part_fields, AKC_SCHEMA_OPEN);
static const AkcSchemaTable video_part_table = AKC_SCHEMA_TABLE (video_part_fields, AKC_SCHEMA_OPEN);
static const AkcSchemaTable file_part_table = AKC_SCHEMA_TABLE (file_part_fields, AKC_SCHEMA_OPEN);
static const AkcSchemaTable * const part_tables[] = {
  &text_part_table, &image_part_table, &audio_part_table, &video_part_table, &file_part_table, NULL
};

/* §2.9.6 */
static const AkcSchemaField tool_call_fields[] = {
  { "id",     AKC_SCHEMA_STRING (1, AKC_SCHEMA_UNBOUNDED) },
  { "name",   AKC_SCHEMA_STRING (1, AKC_SCHEMA_UNBOUNDED) },
  { "args",   AKC_SCHEMA_FREE_OBJECT (NULL) },
  { "status", AKC_SCHEMA_ENUM (tool_status_values) },
  { "result", ANY_STRING, .optional = TRUE },
  { "error",  ANY_STRING, .optional = TRUE },
};
static const AkcSchemaTable tool_call_table = AKC_SCHEMA_TABLE (tool_call_fields, AKC_SCHEMA_OPEN);

/* §2.9.2, in the canonical order of §2.9.4. */
static const AkcSchemaField record_fields[] = {
  { "id",         AKC_SCHEMA_STRING (1, AKC_SCHEMA_UNBOUNDED) },
  { "role",       AKC_SCHEMA_ENUM (role_values) },
  { "content",    ANY_STRING },
  { "status",     AKC_SCHEMA_ENUM (status_values) },
  { "createdAt",  AKC_SCHEMA_PATTERN (akc_message_timestamp_is_valid) },
  { "parts",      AKC_SCHEMA_ARRAY (&AKC_SCHEMA_TYPE (AKC_SCHEMA_UNION ("type", part_tables)),
                                    0, AKC_SCHEMA_UNBOUNDED), .optional = TRUE },
  { "toolCalls",  AKC_SCHEMA_ARRAY (&AKC_SCHEMA_TYPE (AKC_SCHEMA_OBJECT (&tool_call_table)),
                                    0, AKC_SCHEMA_UNBOUNDED), .optional = TRUE },
  { "toolCallId", ANY_STRING, .optional = TRUE },
  { "metadata",   AKC_SCHEMA_FREE_OBJECT (NULL), .optional = TRUE },
};
const AkcSchemaTable akc_message_record_table = AKC_SCHEMA_TABLE (record_fields, AKC_SCHEMA_OPEN);

static const AkcSchemaType records_type =
  AKC_SCHEMA_ARRAY (&AKC_SCHEMA_TYPE (AKC_SCHEMA_OBJECT (&akc_message_record_table)),
                    0, AKC_SCHEMA_UNBOUNDED);

/* ------------------------------------------------------------------ */
/* §2.9.1 structural limits                                             */
/* ------------------------------------------------------------------ */

/* The limits of akc_bjv_message_limits are stated over the wrapper; a
 * record sits at depth 2 and shares the count with the 3 wrapper values. */
gboolean
akc_message_record_check_limits (const AkcJsonValue *record)
{
  AkcBjvLimits limits = akc_bjv_message_limits;

  limits.max_values -= AKC_MESSAGE_WRAPPER_VALUES;
  limits.max_depth -= AKC_MESSAGE_RECORD_DEPTH;

  return akc_bjv_check (record, &limits);
}

gboolean
akc_message_records_check_totals (gsize   n_records,
                                  guint64 sum_raw_values)
{
  return n_records <= akc_bjv_message_limits.max_array_len &&
         sum_raw_values + AKC_MESSAGE_WRAPPER_VALUES <= akc_bjv_message_limits.max_values;
}

static gboolean
validate_memory_messages (const AkcSchemaType *type,
                          AkcJsonValue        *value,
                          const AkcJsonValue  *parent,
                          AkcJsonValue       **out)
{
  return akc_message_records_validate (value, out);
}

/* The memory record (protocol §2.9): the reference's validateMemoryRecord. */
static const AkcSchemaField memory_record_fields[] = {
  { "version",  AKC_SCHEMA_NUMERIC_LITERAL (1) },
  { "messages", AKC_SCHEMA_CUSTOM (validate_memory_messages, NULL) },
};
static const AkcSchemaTable memory_record_table = AKC_SCHEMA_TABLE (memory_record_fields, AKC_SCHEMA_OPEN);

AkcJsonValue *
akc_message_memory_record_decode (AkcJsonValue *record)
{
  g_autoptr(AkcJsonValue) normalised = NULL;

  if (!akc_schema_validate_table (&memory_record_table, record, &normalised))
    return NULL;

  return akc_json_value_ref (akc_json_value_get_member (normalised, "messages"));
}

gboolean
akc_message_records_validate (AkcJsonValue  *messages,
                              AkcJsonValue **out)
{
  AkcBjvLimits limits = akc_bjv_message_limits;

  if (!AKC_JSON_IS_ARRAY (messages))
    return FALSE;

  /* With the array as the root: it is one of the wrapper's 3 values (its
   * own count includes itself) and sits at depth 1. */
  limits.max_values -= AKC_MESSAGE_WRAPPER_VALUES - 1;
  limits.max_depth -= 1;
  if (!akc_bjv_check (messages, &limits))
    return FALSE;

  return akc_schema_validate (&records_type, messages, NULL, out);
}

char *
akc_message_records_explain (AkcJsonValue *messages,
                             GString      *path)
{
  gsize base = path->len;

  if (!AKC_JSON_IS_ARRAY (messages))
    return g_strdup ("not an array");

  for (gsize i = 0; i < AKC_JSON_LEN (messages); i++)
    {
      AkcJsonValue *record = AKC_JSON_ELEMENT (messages, i);

      g_string_truncate (path, base);
      g_string_append_printf (path, "[%" G_GSIZE_FORMAT "]", i);
      if (AKC_JSON_IS_OBJECT (record) && !akc_message_record_check_limits (record))
        return g_strdup ("beyond the structural limits of a message record");
      if (!akc_schema_validate_table (&akc_message_record_table, record, NULL))
        return akc_schema_explain_table (&akc_message_record_table, record, path);
    }

  g_string_truncate (path, base);
  return g_strdup ("beyond the structural limits of the messages of a snapshot");
}

/* ------------------------------------------------------------------ */
/* AkcMessageRecord                                                     */
/* ------------------------------------------------------------------ */

/**
 * AkcMessageRecord:
 *
 * One message of a turn snapshot in memory ([protocol §2.9.7](wire-formats.html#protocol-2)).
 *
 * A record is immutable and reference counted, so it may be shared between
 * threads. It always holds a valid, projected wire record (§2.9.2–§2.9.6):
 * the string fields (`role` is one of `user`, `assistant`, `system`,
 * `tool`; `status` one of `pending`, `streaming`, `complete`, `error`), the
 * optional `parts`, `toolCalls` and `metadata` as [struct@JsonValue]s, and
 * `createdAt` as a UTC [struct@GLib.DateTime] with millisecond precision.
 *
 * Records come from [func@turn_snapshot_messages] or are made with
 * [ctor@MessageRecord.new] and [ctor@MessageRecord.new_from_value]; they go
 * back on the wire as [method@MessageRecord.to_value], the members of a
 * snapshot's `messages`.
 *
 * Since: 0.1
 */
struct _AkcMessageRecord
{
  gint          ref_count;
  AkcJsonValue *record;       /* projected wire record */
  GDateTime    *created_at;
  /* views into record (transfer none) */
  AkcJsonValue *id;
  AkcJsonValue *role;
  AkcJsonValue *content;
  AkcJsonValue *status;
  AkcJsonValue *parts;
  AkcJsonValue *tool_calls;
  AkcJsonValue *tool_call_id;
  AkcJsonValue *metadata;
};

G_DEFINE_BOXED_TYPE (AkcMessageRecord, akc_message_record,
                     akc_message_record_ref, akc_message_record_unref)

static void
set_invalid (GError **error)
{
  g_set_error_literal (error, AKC_PROTOCOL_ERROR, AKC_PROTOCOL_ERROR_PROTOCOL_INVALID_PAYLOAD,
                       "Serialized message record is invalid.");
}

/* The wire's message, and which field failed (akc_protocol_error_get_field_path()). */
static void
set_invalid_at (AkcJsonValue  *record,
                GError       **error)
{
  g_autoptr(GString) path = NULL;
  g_autofree char *reason = NULL;
  g_autofree char *field_path = NULL;

  if (error == NULL)
    return;

  set_invalid (error);
  path = g_string_new (NULL);
  if (AKC_JSON_IS_OBJECT (record) && !akc_schema_validate_table (&akc_message_record_table, record, NULL))
    reason = akc_schema_explain_table (&akc_message_record_table, record, path);
  else
    reason = g_strdup ("beyond the structural limits of a message record");
  field_path = g_strdup_printf ("%s: %s", path->len > 0 ? path->str + 1 : "(record)", reason);
  akc_protocol_error_set_field_path (*error, field_path);
}

static inline AkcJsonValue *
member (const AkcJsonValue *object,
        const char         *name,
        guint              *hint)
{
  return akc_json_object_lookup (object, name, strlen (name), hint);
}

AkcMessageRecord *
akc_message_record_new_validated (AkcJsonValue  *record,
                                  GError       **error)
{
  AkcMessageTimestamp ts;
  AkcMessageRecord *self;
  AkcJsonValue *created_at;
  GDateTime *dt;
  guint hint = 0;

  g_assert (AKC_JSON_IS_OBJECT (record));

  created_at = member (record, "createdAt", NULL);
  g_assert (AKC_JSON_IS_STRING (created_at));
  if (!akc_message_timestamp_parse (AKC_JSON_STR (created_at), AKC_JSON_STR_LEN (created_at), &ts))
    g_assert_not_reached ();

  dt = timestamp_to_date_time (&ts);
  if (dt == NULL)
    {
      g_set_error_literal (error, AKC_PROTOCOL_ERROR, AKC_PROTOCOL_ERROR_PROTOCOL_INVALID_PAYLOAD,
                           "Message record createdAt is outside the supported range.");
      return NULL;
    }

  self = g_new0 (AkcMessageRecord, 1);
  self->ref_count = 1;
  self->record = akc_json_value_ref (record);
  self->created_at = dt;
  /* Members are in canonical order: the hint makes each lookup O(1). */
  self->id = member (record, "id", &hint);
  self->role = member (record, "role", &hint);
  self->content = member (record, "content", &hint);
  self->status = member (record, "status", &hint);
  self->parts = member (record, "parts", &hint);
  self->tool_calls = member (record, "toolCalls", &hint);
  self->tool_call_id = member (record, "toolCallId", &hint);
  self->metadata = member (record, "metadata", &hint);

  return self;
}

/**
 * akc_message_record_new:
 * @id: the message id (at least one character, any text)
 * @role: `user`, `assistant`, `system` or `tool`
 * @content: the
 *   content, UTF-8 (may be empty)
 * @content_length: length of @content in bytes, or -1 if it is
 *   NUL-terminated
 * @status: `pending`, `streaming`, `complete` or `error`
 * @created_at: when the message was created; kept with millisecond
 *   precision, in UTC
 * @error: return location for a #GError, or %NULL
 *
 * Creates a record without parts, tool calls or metadata (use
 * [ctor@MessageRecord.new_from_value] for those). The fields are checked as
 * the wire rules of [protocol §2.9.2](wire-formats.html#protocol-2) say; an invalid field fails with
 * %AKC_PROTOCOL_ERROR_PROTOCOL_INVALID_PAYLOAD.
 *
 * Returns: (transfer full) (nullable): a new record, or %NULL with @error set
 *
 * Since: 0.1
 */
AkcMessageRecord *
akc_message_record_new (const char  *id,
                        const char  *role,
                        const char  *content,
                        gssize       content_length,
                        const char  *status,
                        GDateTime   *created_at,
                        GError     **error)
{
  g_autoptr(AkcJsonValue) record = NULL;
  g_autofree char *timestamp = NULL;
  AkcJsonMemberInit members[5];
  gsize len;

  g_return_val_if_fail (id != NULL, NULL);
  g_return_val_if_fail (role != NULL, NULL);
  g_return_val_if_fail (content != NULL || content_length == 0, NULL);
  g_return_val_if_fail (status != NULL, NULL);
  g_return_val_if_fail (created_at != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  len = content_length < 0 ? strlen (content) : (gsize) content_length;
  if (!g_utf8_validate (id, -1, NULL) ||
      !g_utf8_validate (role, -1, NULL) ||
      !g_utf8_validate (status, -1, NULL) ||
      akc_utf8_valid_prefix (content != NULL ? content : "", len) != len ||
      len > G_MAXUINT32)
    {
      set_invalid (error);
      return NULL;
    }

  timestamp = date_time_to_timestamp (created_at);
  members[0] = (AkcJsonMemberInit) { "id", 2, akc_json_string_new_len (id, strlen (id)) };
  members[1] = (AkcJsonMemberInit) { "role", 4, akc_json_string_new_len (role, strlen (role)) };
  members[2] = (AkcJsonMemberInit) { "content", 7, akc_json_string_new_len (len > 0 ? content : "", len) };
  members[3] = (AkcJsonMemberInit) { "status", 6, akc_json_string_new_len (status, strlen (status)) };
  members[4] = (AkcJsonMemberInit) { "createdAt", 9, akc_json_string_new_len (timestamp, strlen (timestamp)) };
  record = akc_json_object_new_steal (members, G_N_ELEMENTS (members), TRUE, AKC_JSON_FLAG_STATIC_NAMES);

  return akc_message_record_new_from_value (record, error);
}

/**
 * akc_message_record_new_utf8: (rename-to akc_message_record_new)
 * @id: the message id (at least one character, any text)
 * @role: `user`, `assistant`, `system` or `tool`
 * @content: the
 *   content, UTF-8 (may be empty)
 * @status: `pending`, `streaming`, `complete` or `error`
 * @created_at: when the message was created; kept with millisecond
 *   precision, in UTC
 * @error: return location for a #GError, or %NULL
 *
 * Does what akc_message_record_new() does, for NUL-terminated @content:
 * the form bindings see.
 *
 * Returns: (transfer full) (nullable): a new record, or %NULL with @error set
 *
 * Since: 0.1
 */
AkcMessageRecord *
akc_message_record_new_utf8 (const char  *id,
                             const char  *role,
                             const char  *content,
                             const char  *status,
                             GDateTime   *created_at,
                             GError     **error)
{
  return akc_message_record_new (id, role, content, -1, status, created_at, error);
}

/**
 * akc_message_record_new_from_value:
 * @record: a message record in wire form ([protocol §2.9.2](wire-formats.html#protocol-2))
 * @error: return location for a #GError, or %NULL
 *
 * Validates @record as one message of a snapshot would be (§2.9.1 for a
 * snapshot holding only this record, §2.9.2–§2.9.6) and wraps its
 * projection: unknown members are dropped and the members of the record,
 * its parts and tool calls are put in canonical order.
 *
 * Returns: (transfer full) (nullable): a new record, or %NULL with @error
 *   set (%AKC_PROTOCOL_ERROR_PROTOCOL_INVALID_PAYLOAD)
 *
 * Since: 0.1
 */
AkcMessageRecord *
akc_message_record_new_from_value (AkcJsonValue  *record,
                                   GError       **error)
{
  g_autoptr(AkcJsonValue) projected = NULL;

  g_return_val_if_fail (record != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  if (!akc_message_record_check_limits (record) ||
      !akc_message_records_check_totals (1, record->n_values) ||
      !akc_schema_validate_table (&akc_message_record_table, record, &projected))
    {
      set_invalid_at (record, error);
      return NULL;
    }

  return akc_message_record_new_validated (projected, error);
}

/**
 * akc_message_record_ref:
 * @self: a record
 *
 * Acquires a reference on @self.
 *
 * Returns: (transfer full): @self
 *
 * Since: 0.1
 */
AkcMessageRecord *
akc_message_record_ref (AkcMessageRecord *self)
{
  g_return_val_if_fail (self != NULL, NULL);

  g_atomic_int_inc (&self->ref_count);

  return self;
}

/**
 * akc_message_record_unref:
 * @self: (transfer full): a record
 *
 * Releases a reference on @self.
 *
 * Since: 0.1
 */
void
akc_message_record_unref (AkcMessageRecord *self)
{
  g_return_if_fail (self != NULL);

  if (g_atomic_int_dec_and_test (&self->ref_count))
    {
      akc_json_value_unref (self->record);
      g_date_time_unref (self->created_at);
      g_free (self);
    }
}

static const char *
string_of (const AkcJsonValue *v,
           gsize              *length)
{
  if (v == NULL)
    {
      if (length != NULL)
        *length = 0;
      return NULL;
    }
  if (length != NULL)
    *length = AKC_JSON_STR_LEN (v);
  return AKC_JSON_STR (v);
}

/**
 * akc_message_record_get_id:
 * @self: a record
 * @length: (out) (optional): return location for the length in bytes
 *
 * Gets the message id. It is any non-empty text (not a `SafeId`) and may
 * contain U+0000, hence @length.
 *
 * Returns: (transfer none): the id, NUL-terminated
 *
 * Since: 0.1
 */
const char *
akc_message_record_get_id (const AkcMessageRecord *self,
                           gsize                  *length)
{
  g_return_val_if_fail (self != NULL, NULL);

  return string_of (self->id, length);
}

/**
 * akc_message_record_get_id_utf8: (rename-to akc_message_record_get_id)
 * @self: a record
 *
 * Does what akc_message_record_get_id() does, without the
 * length out-parameter: the form bindings see. The text ends at its
 * first U+0000.
 *
 * Returns: (transfer none): the id, NUL-terminated
 *
 * Since: 0.1
 */
const char *
akc_message_record_get_id_utf8 (const AkcMessageRecord *self)
{
  return akc_message_record_get_id (self, NULL);
}

/**
 * akc_message_record_get_role:
 * @self: a record
 *
 * Gets who wrote the message: `user`, `assistant`, `system` or `tool`.
 *
 * Returns: (transfer none): the role
 *
 * Since: 0.1
 */
const char *
akc_message_record_get_role (const AkcMessageRecord *self)
{
  g_return_val_if_fail (self != NULL, NULL);

  return AKC_JSON_STR (self->role);
}

/**
 * akc_message_record_get_content:
 * @self: a record
 * @length: (out) (optional): return location for the length in bytes
 *
 * Gets the content. It may be empty and may contain U+0000, hence @length.
 *
 * Returns: (transfer none): the content, NUL-terminated UTF-8
 *
 * Since: 0.1
 */
const char *
akc_message_record_get_content (const AkcMessageRecord *self,
                                gsize                  *length)
{
  g_return_val_if_fail (self != NULL, NULL);

  return string_of (self->content, length);
}

/**
 * akc_message_record_get_content_utf8: (rename-to akc_message_record_get_content)
 * @self: a record
 *
 * Does what akc_message_record_get_content() does, without the
 * length out-parameter: the form bindings see. The text ends at its
 * first U+0000.
 *
 * Returns: (transfer none): the content, NUL-terminated UTF-8
 *
 * Since: 0.1
 */
const char *
akc_message_record_get_content_utf8 (const AkcMessageRecord *self)
{
  return akc_message_record_get_content (self, NULL);
}

/**
 * akc_message_record_get_status:
 * @self: a record
 *
 * Gets where the message is in its life: `pending`, `streaming`,
 * `complete` or `error`.
 *
 * Returns: (transfer none): the status
 *
 * Since: 0.1
 */
const char *
akc_message_record_get_status (const AkcMessageRecord *self)
{
  g_return_val_if_fail (self != NULL, NULL);

  return AKC_JSON_STR (self->status);
}

/**
 * akc_message_record_get_created_at:
 * @self: a record
 *
 * Gets when the message was created, in UTC, with millisecond precision.
 *
 * Returns: (transfer none): the creation time
 *
 * Since: 0.1
 */
GDateTime *
akc_message_record_get_created_at (const AkcMessageRecord *self)
{
  g_return_val_if_fail (self != NULL, NULL);

  return self->created_at;
}

/**
 * akc_message_record_get_parts:
 * @self: a record
 *
 * Gets the content parts ([protocol §2.9.5](wire-formats.html#protocol-2)), an array of objects.
 *
 * Returns: (transfer none) (nullable): the parts, or %NULL when absent
 *
 * Since: 0.1
 */
AkcJsonValue *
akc_message_record_get_parts (const AkcMessageRecord *self)
{
  g_return_val_if_fail (self != NULL, NULL);

  return self->parts;
}

/**
 * akc_message_record_get_tool_calls:
 * @self: a record
 *
 * Gets the tool calls ([protocol §2.9.6](wire-formats.html#protocol-2)), an array of objects.
 *
 * Returns: (transfer none) (nullable): the tool calls, or %NULL when absent
 *
 * Since: 0.1
 */
AkcJsonValue *
akc_message_record_get_tool_calls (const AkcMessageRecord *self)
{
  g_return_val_if_fail (self != NULL, NULL);

  return self->tool_calls;
}

/**
 * akc_message_record_get_tool_call_id:
 * @self: a record
 * @length: (out) (optional): return location for the length in bytes
 *
 * Gets the id of the tool call a `tool` message answers.
 *
 * Returns: (transfer none) (nullable): the tool-call id, or %NULL when absent
 *
 * Since: 0.1
 */
const char *
akc_message_record_get_tool_call_id (const AkcMessageRecord *self,
                                     gsize                  *length)
{
  g_return_val_if_fail (self != NULL, NULL);

  return string_of (self->tool_call_id, length);
}

/**
 * akc_message_record_get_tool_call_id_utf8: (rename-to akc_message_record_get_tool_call_id)
 * @self: a record
 *
 * Does what akc_message_record_get_tool_call_id() does, without the
 * length out-parameter: the form bindings see. The text ends at its
 * first U+0000.
 *
 * Returns: (transfer none) (nullable): the tool-call id, or %NULL when absent
 *
 * Since: 0.1
 */
const char *
akc_message_record_get_tool_call_id_utf8 (const AkcMessageRecord *self)
{
  return akc_message_record_get_tool_call_id (self, NULL);
}

/**
 * akc_message_record_get_metadata:
 * @self: a record
 *
 * Gets the free-form metadata object, kept verbatim.
 *
 * Returns: (transfer none) (nullable): the metadata, or %NULL when absent
 *
 * Since: 0.1
 */
AkcJsonValue *
akc_message_record_get_metadata (const AkcMessageRecord *self)
{
  g_return_val_if_fail (self != NULL, NULL);

  return self->metadata;
}

/**
 * akc_message_record_to_value:
 * @self: a record
 *
 * Gets the wire form of @self ([protocol §2.9.4](wire-formats.html#protocol-2)): members in canonical
 * order and `createdAt` as `YYYY-MM-DDTHH:MM:SS.mmmZ`.
 *
 * Returns: (transfer full): the record as a JSON object
 *
 * Since: 0.1
 */
AkcJsonValue *
akc_message_record_to_value (const AkcMessageRecord *self)
{
  g_return_val_if_fail (self != NULL, NULL);

  return akc_json_value_ref (self->record);
}
