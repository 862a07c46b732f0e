/* akc-stored-message.c: a message as a row of the history
 *
 * SPDX-License-Identifier: MIT
 */

#include "config.h"

#include <string.h>

#include <glib/gi18n-lib.h>

#include "akc-chat-memory.h"
#include "akc-enum-types.h"
#include "akc-json-private.h"
#include "akc-stored-message-private.h"

/* Bounds on what is read back: nesting of the tool-call JSON (arguments
 * are free-form objects) and its size. Anything the application can hold
 * in memory fits; a damaged row that claims more is refused. */
#define MAX_JSON_DEPTH 256

gint64
akc_stored_time_from_date_time (GDateTime *date_time)
{
  return g_date_time_to_unix (date_time) * G_USEC_PER_SEC + g_date_time_get_microsecond (date_time);
}

GDateTime *
akc_stored_time_to_date_time (gint64 usec)
{
  g_autoptr(GDateTime) seconds = NULL;
  gint64 whole = usec / G_USEC_PER_SEC;
  gint64 rest = usec % G_USEC_PER_SEC;

  /* Floor division, so times before 1970 keep a positive fraction. */
  if (rest < 0)
    {
      whole -= 1;
      rest += G_USEC_PER_SEC;
    }

  seconds = g_date_time_new_from_unix_utc (whole);
  if (seconds == NULL)
    return NULL;

  return g_date_time_add (seconds, rest);
}

static const char *
enum_nick (GType type,
           int   value)
{
  g_autoptr(GEnumClass) klass = g_type_class_ref (type);
  GEnumValue *enum_value = g_enum_get_value (klass, value);

  g_assert (enum_value != NULL);

  /* The class of a static enum type is never freed: the nick outlives the
   * reference. */
  return enum_value->value_nick;
}

static gboolean
enum_from_nick (GType       type,
                const char *nick,
                int        *value)
{
  g_autoptr(GEnumClass) klass = g_type_class_ref (type);
  GEnumValue *enum_value = nick != NULL ? g_enum_get_value_by_nick (klass, nick) : NULL;

  if (enum_value == NULL)
    return FALSE;

  *value = enum_value->value;
  return TRUE;
}

/* Text for the canonical writer, which wants valid UTF-8: invalid bytes
 * become U+FFFD, as everywhere text crosses a boundary. */
static void
write_text (AkcJsonWriter *w,
            const char    *text)
{
  gsize length = strlen (text);
  g_autofree char *clean = akc_utf8_sanitize (text, length, &length);

  akc_json_writer_string (w, clean != NULL ? clean : text, length);
}

static char *
encode_tool_calls (GListModel *tool_calls)
{
  guint n = g_list_model_get_n_items (tool_calls);
  GString *out;
  AkcJsonWriter w;

  if (n == 0)
    return NULL;

  out = g_string_new (NULL);
  akc_json_writer_init (&w, out);
  akc_json_writer_begin_array (&w);

  for (guint i = 0; i < n; i++)
    {
      g_autoptr(AkcToolCall) call = g_list_model_get_item (tool_calls, i);
      AkcJsonValue *arguments = akc_tool_call_get_arguments (call);
      const char *result = akc_tool_call_get_result (call);
      const char *error = akc_tool_call_get_error (call);

      /* protocol §2.9.6, in its order. */
      akc_json_writer_begin_object (&w);
      akc_json_writer_member (&w, "id");
      write_text (&w, akc_tool_call_get_id (call));
      akc_json_writer_member (&w, "name");
      write_text (&w, akc_tool_call_get_name (call));
      akc_json_writer_member (&w, "args");
      if (arguments != NULL)
        akc_json_writer_value (&w, arguments);
      else
        {
          akc_json_writer_begin_object (&w);
          akc_json_writer_end_object (&w);
        }
      akc_json_writer_member (&w, "status");
      akc_json_writer_string (&w, akc_tool_call_status_to_string (akc_tool_call_get_status (call)), -1);
      if (result != NULL)
        {
          akc_json_writer_member (&w, "result");
          write_text (&w, result);
        }
      if (error != NULL)
        {
          akc_json_writer_member (&w, "error");
          write_text (&w, error);
        }
      akc_json_writer_end_object (&w);
    }

  akc_json_writer_end_array (&w);

  return g_string_free (out, FALSE);
}

static char *
encode_lineage (const AkcLineage *lineage)
{
  const char *parent_turn_id;
  const char *source_message_id;
  GString *out;
  AkcJsonWriter w;

  if (lineage == NULL)
    return NULL;

  parent_turn_id = akc_lineage_get_parent_turn_id (lineage);
  source_message_id = akc_lineage_get_source_message_id (lineage);

  /* protocol §2.5, in its order; the identities are kept whatever the
   * operation, so the lineage reads back as it was in memory. */
  out = g_string_new (NULL);
  akc_json_writer_init (&w, out);
  akc_json_writer_begin_object (&w);
  akc_json_writer_member (&w, "operation");
  akc_json_writer_string (&w, enum_nick (AKC_TYPE_LINEAGE_OPERATION, akc_lineage_get_operation (lineage)), -1);
  if (parent_turn_id != NULL)
    {
      akc_json_writer_member (&w, "parentTurnId");
      write_text (&w, parent_turn_id);
    }
  if (source_message_id != NULL)
    {
      akc_json_writer_member (&w, "sourceMessageId");
      write_text (&w, source_message_id);
    }
  akc_json_writer_end_object (&w);

  return g_string_free (out, FALSE);
}

AkcStoredMessage *
akc_stored_message_new_from_message (AkcMessage *message)
{
  AkcStoredMessage *stored;
  const char *content;
  gsize length;

  g_assert (AKC_IS_MESSAGE (message));

  stored = g_new0 (AkcStoredMessage, 1);
  stored->id = g_strdup (akc_message_get_id (message));
  stored->role = enum_nick (AKC_TYPE_MESSAGE_ROLE, akc_message_get_role (message));
  stored->status = enum_nick (AKC_TYPE_MESSAGE_STATUS, akc_message_get_status (message));
  stored->stopped = akc_message_get_stopped (message);
  stored->created_at = akc_stored_time_from_date_time (akc_message_get_created_at (message));
  stored->tool_call_id = g_strdup (akc_message_get_tool_call_id (message));
  stored->tool_calls = encode_tool_calls (akc_message_get_tool_calls (message));
  stored->lineage = encode_lineage (akc_message_get_lineage (message));
  if (akc_message_get_usage (message) != NULL)
    {
      stored->has_usage = TRUE;
      stored->usage = *akc_message_get_usage (message);
    }
  if (akc_message_get_error (message) != NULL)
    {
      stored->error_code = g_strdup (akc_diagnostic_get_code (akc_message_get_error (message)));
      stored->error_message = g_strdup (akc_diagnostic_get_message (akc_message_get_error (message)));
    }
  {
    GListModel *attachments = akc_message_get_attachments (message);
    guint n = g_list_model_get_n_items (attachments);

    /* Attachments are immutable: the writer thread may hold them. */
    if (n > 0)
      stored->attachments = g_ptr_array_new_with_free_func (g_object_unref);
    for (guint i = 0; i < n; i++)
      g_ptr_array_add (stored->attachments, g_list_model_get_item (attachments, i));
  }

  /* Every byte, U+0000 included; only invalid UTF-8 is replaced, so what
   * is stored is what reads back. */
  content = akc_message_get_content (message);
  length = akc_message_get_content_length (message);
  stored->content = akc_utf8_sanitize (content, length, &stored->content_length);
  if (stored->content == NULL)
    {
      stored->content = g_memdup2 (content, length + 1);
      stored->content_length = length;
    }

  return stored;
}

static const char *
intern_nick (GType       type,
             const char *nick)
{
  g_autoptr(GEnumClass) klass = g_type_class_ref (type);
  GEnumValue *value = nick != NULL ? g_enum_get_value_by_nick (klass, nick) : NULL;

  /* Enum classes are never freed once made: the nick stays. */
  return value != NULL ? value->value_nick : NULL;
}

const char *
akc_stored_message_intern_role (const char *role)
{
  return intern_nick (AKC_TYPE_MESSAGE_ROLE, role);
}

const char *
akc_stored_message_intern_status (const char *status)
{
  return intern_nick (AKC_TYPE_MESSAGE_STATUS, status);
}

void
akc_stored_message_free (AkcStoredMessage *stored)
{
  if (stored == NULL)
    return;

  g_free (stored->id);
  g_free (stored->content);
  g_free (stored->tool_call_id);
  g_free (stored->tool_calls);
  g_free (stored->lineage);
  g_free (stored->error_code);
  g_free (stored->error_message);
  g_clear_pointer (&stored->attachments, g_ptr_array_unref);
  g_free (stored);
}

static gboolean
set_damaged (GError     **error,
             const char  *what)
{
  g_set_error (error, AKC_CHAT_MEMORY_ERROR, AKC_CHAT_MEMORY_ERROR_CORRUPT,
               _("A stored message is damaged (%s)."), what);
  return FALSE;
}

/* A string member of @object, or NULL when absent; FALSE when present but
 * not a string, or holding U+0000 where the field cannot. */
static gboolean
get_string_member (const AkcJsonValue  *object,
                   const char          *name,
                   const char         **value)
{
  AkcJsonValue *member = akc_json_object_lookup (object, name, strlen (name), NULL);

  *value = NULL;
  if (member == NULL)
    return TRUE;
  if (!AKC_JSON_IS_STRING (member) || strlen (AKC_JSON_STR (member)) != AKC_JSON_STR_LEN (member))
    return FALSE;

  *value = AKC_JSON_STR (member);
  return TRUE;
}

static AkcJsonValue *
parse_json (const char *text)
{
  AkcJsonLimits limits = { .max_bytes = 0, .max_depth = MAX_JSON_DEPTH };

  return akc_json_parse (text, strlen (text), &limits, NULL, NULL);
}

static gboolean
decode_tool_calls (AkcMessage  *message,
                   const char  *text,
                   GError     **error)
{
  g_autoptr(AkcJsonValue) calls = parse_json (text);

  if (!AKC_JSON_IS_ARRAY (calls) || AKC_JSON_LEN (calls) == 0)
    return set_damaged (error, "tool calls");

  for (gsize i = 0; i < AKC_JSON_LEN (calls); i++)
    {
      AkcJsonValue *entry = AKC_JSON_ELEMENT (calls, i);
      AkcJsonValue *arguments;
      const char *id, *name, *status_text, *result, *failure;
      AkcToolCallStatus status;
      g_autoptr(AkcToolCall) call = NULL;

      if (!AKC_JSON_IS_OBJECT (entry))
        return set_damaged (error, "tool calls");

      arguments = akc_json_object_lookup (entry, "args", 4, NULL);
      if (!get_string_member (entry, "id", &id) || id == NULL || *id == '\0' ||
          !get_string_member (entry, "name", &name) || name == NULL ||
          !get_string_member (entry, "status", &status_text) || status_text == NULL ||
          !akc_tool_call_status_from_string (status_text, &status) ||
          !get_string_member (entry, "result", &result) ||
          !get_string_member (entry, "error", &failure) ||
          !AKC_JSON_IS_OBJECT (arguments))
        return set_damaged (error, "tool calls");

      call = akc_tool_call_new (id, name, arguments, status);
      if (result != NULL)
        akc_tool_call_set_result (call, result);
      if (failure != NULL)
        akc_tool_call_set_error (call, failure);
      akc_message_add_tool_call (message, call);
    }

  return TRUE;
}

static AkcLineage *
decode_lineage (const char  *text,
                GError     **error)
{
  g_autoptr(AkcJsonValue) object = parse_json (text);
  const char *operation_text, *parent_turn_id, *source_message_id;
  int operation;

  if (!AKC_JSON_IS_OBJECT (object) ||
      !get_string_member (object, "operation", &operation_text) ||
      !enum_from_nick (AKC_TYPE_LINEAGE_OPERATION, operation_text, &operation) ||
      !get_string_member (object, "parentTurnId", &parent_turn_id) ||
      !get_string_member (object, "sourceMessageId", &source_message_id))
    {
      set_damaged (error, "lineage");
      return NULL;
    }

  return akc_lineage_new (operation, source_message_id, parent_turn_id);
}

static gboolean
is_valid_id (const char *id)
{
  return id != NULL && *id != '\0' && g_utf8_validate (id, -1, NULL);
}

AkcMessage *
akc_stored_message_to_message (const AkcStoredMessage  *stored,
                               GError                 **error)
{
  g_autoptr(AkcMessage) message = NULL;
  g_autoptr(GDateTime) created_at = NULL;
  g_autoptr(AkcLineage) lineage = NULL;
  g_autofree char *clean = NULL;
  gsize length = stored->content_length;
  int role, status;

  if (!is_valid_id (stored->id))
    {
      set_damaged (error, "id");
      return NULL;
    }
  if (!enum_from_nick (AKC_TYPE_MESSAGE_ROLE, stored->role, &role))
    {
      set_damaged (error, "role");
      return NULL;
    }
  if (!enum_from_nick (AKC_TYPE_MESSAGE_STATUS, stored->status, &status))
    {
      set_damaged (error, "status");
      return NULL;
    }
  if (stored->tool_call_id != NULL && !g_utf8_validate (stored->tool_call_id, -1, NULL))
    {
      set_damaged (error, "tool call id");
      return NULL;
    }

  created_at = akc_stored_time_to_date_time (stored->created_at);
  if (created_at == NULL)
    {
      set_damaged (error, "time");
      return NULL;
    }

  if (stored->lineage != NULL)
    {
      lineage = decode_lineage (stored->lineage, error);
      if (lineage == NULL)
        return NULL;
    }

  message = g_object_new (AKC_TYPE_MESSAGE,
                          "id", stored->id,
                          "role", role,
                          "status", status,
                          "created-at", created_at,
                          "tool-call-id", stored->tool_call_id,
                          "stopped", stored->stopped,
                          "lineage", lineage,
                          NULL);

  /* Appended with its length: U+0000 stays. Bytes that are not UTF-8
   * (written by something else than this code) become U+FFFD. */
  clean = akc_utf8_sanitize (stored->content, stored->content_length, &length);
  akc_message_append_content (message, clean != NULL ? clean : stored->content, length);

  if (stored->tool_calls != NULL && !decode_tool_calls (message, stored->tool_calls, error))
    return NULL;

  return g_steal_pointer (&message);
}
