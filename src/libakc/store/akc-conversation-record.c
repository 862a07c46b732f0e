/* akc-conversation-record.c: a whole conversation as plain data, its
 * JSON format (docs/conversation-format.md) and its Markdown form
 *
 * SPDX-License-Identifier: MIT
 */

#include "config.h"

#include <string.h>

#include <glib/gi18n-lib.h>

#include "akc-assistant-content.h"
#include "akc-attachment.h"
#include "akc-chat-memory.h"
#include "akc-component-frame.h"
#include "akc-conversation-record-private.h"
#include "akc-json-private.h"
#include "akc-message.h"
#include "akc-text-private.h"

/* Usage counts above AKC_JSON_MAX_SAFE_INTEGER are written as decimal
 * strings: JSON readers that keep numbers as doubles would round them. */
#define MAX_SAFE_INTEGER ((guint64) AKC_JSON_MAX_SAFE_INTEGER)

AkcConversationRecord *
akc_conversation_record_new (void)
{
  AkcConversationRecord *record = g_new0 (AkcConversationRecord, 1);

  record->messages = g_ptr_array_new_with_free_func ((GDestroyNotify) akc_stored_message_free);
  record->resolutions = g_ptr_array_new_with_free_func ((GDestroyNotify) akc_stored_resolution_free);

  return record;
}

void
akc_stored_resolution_free (AkcStoredResolution *resolution)
{
  if (resolution == NULL)
    return;

  g_free (resolution->instance_id);
  g_free (resolution->message_id);
  g_free (resolution->event);
  g_free (resolution->value);
  g_free (resolution);
}

void
akc_conversation_record_free (AkcConversationRecord *record)
{
  if (record == NULL)
    return;

  g_free (record->id);
  g_free (record->assistant_id);
  g_free (record->provider_kind);
  g_free (record->provider_url);
  g_free (record->model);
  g_free (record->title);
  g_ptr_array_unref (record->messages);
  g_ptr_array_unref (record->resolutions);
  g_free (record);
}

/* ------------------------------------------------------------------ */
/* JSON                                                                */
/* ------------------------------------------------------------------ */

static char *
format_time (gint64 usec)
{
  g_autoptr(GDateTime) time = akc_stored_time_to_date_time (usec);

  if (time == NULL)
    time = g_date_time_new_from_unix_utc (0);

  return g_date_time_format_iso8601 (time);
}

static void
write_time (AkcJsonWriter *w,
            const char    *name,
            gint64         usec)
{
  g_autofree char *text = format_time (usec);

  akc_json_writer_member (w, name);
  akc_json_writer_string (w, text, -1);
}

static void
write_count (AkcJsonWriter *w,
             const char    *name,
             guint64        count)
{
  akc_json_writer_member (w, name);
  if (count <= MAX_SAFE_INTEGER)
    akc_json_writer_int (w, (gint64) count);
  else
    {
      char text[32];

      g_snprintf (text, sizeof text, "%" G_GUINT64_FORMAT, count);
      akc_json_writer_string (w, text, -1);
    }
}

static void
write_string (AkcJsonWriter *w,
              const char    *name,
              const char    *value)
{
  akc_json_writer_member (w, name);
  akc_json_writer_string (w, value != NULL ? value : "", -1);
}

/* A JSON text the store wrote (canonical), as a value. */
static void
write_stored_json (AkcJsonWriter *w,
                   const char    *name,
                   const char    *text)
{
  g_autoptr(AkcJsonValue) value = NULL;

  if (text == NULL)
    return;

  value = akc_json_parse (text, strlen (text), NULL, NULL, NULL);
  if (value == NULL)
    return;

  akc_json_writer_member (w, name);
  akc_json_writer_value (w, value);
}

void
akc_conversation_record_write_json (const AkcConversationRecord *record,
                                    GString                     *out)
{
  AkcJsonWriter w;

  akc_json_writer_init (&w, out);
  akc_json_writer_begin_object (&w);
  write_string (&w, "format", AKC_CONVERSATION_FORMAT_NAME);
  akc_json_writer_member (&w, "version");
  akc_json_writer_int (&w, AKC_CONVERSATION_FORMAT_VERSION);

  akc_json_writer_member (&w, "conversation");
  akc_json_writer_begin_object (&w);
  write_string (&w, "id", record->id);
  write_string (&w, "assistantId", record->assistant_id);
  write_string (&w, "title", record->title);
  akc_json_writer_member (&w, "pinned");
  akc_json_writer_boolean (&w, record->pinned);
  write_time (&w, "createdAt", record->created_at);
  write_time (&w, "updatedAt", record->updated_at);
  akc_json_writer_member (&w, "usage");
  akc_json_writer_begin_object (&w);
  write_count (&w, "promptTokens", record->usage.prompt_tokens);
  write_count (&w, "completionTokens", record->usage.completion_tokens);
  write_count (&w, "totalTokens", record->usage.total_tokens);
  akc_json_writer_end_object (&w);
  if (record->provider_kind != NULL || record->provider_url != NULL || record->model != NULL)
    {
      akc_json_writer_member (&w, "provider");
      akc_json_writer_begin_object (&w);
      if (record->provider_kind != NULL)
        write_string (&w, "kind", record->provider_kind);
      if (record->provider_url != NULL)
        write_string (&w, "baseUrl", record->provider_url);
      if (record->model != NULL)
        write_string (&w, "model", record->model);
      akc_json_writer_end_object (&w);
    }

  akc_json_writer_member (&w, "messages");
  akc_json_writer_begin_array (&w);
  for (guint i = 0; i < record->messages->len; i++)
    {
      const AkcStoredMessage *message = g_ptr_array_index (record->messages, i);

      akc_json_writer_begin_object (&w);
      write_string (&w, "id", message->id);
      write_string (&w, "role", message->role);
      write_string (&w, "status", message->status);
      akc_json_writer_member (&w, "stopped");
      akc_json_writer_boolean (&w, message->stopped);
      akc_json_writer_member (&w, "content");
      /* Every byte, U+0000 included (as \u0000). */
      akc_json_writer_string (&w, message->content, message->content_length);
      write_time (&w, "createdAt", message->created_at);
      if (message->tool_call_id != NULL)
        write_string (&w, "toolCallId", message->tool_call_id);
      write_stored_json (&w, "toolCalls", message->tool_calls);
      write_stored_json (&w, "lineage", message->lineage);
      if (message->has_usage)
        {
          akc_json_writer_member (&w, "usage");
          akc_json_writer_begin_object (&w);
          write_count (&w, "promptTokens", message->usage.prompt_tokens);
          write_count (&w, "completionTokens", message->usage.completion_tokens);
          write_count (&w, "totalTokens", message->usage.total_tokens);
          akc_json_writer_end_object (&w);
        }
      if (message->attachments != NULL && message->attachments->len > 0)
        {
          akc_json_writer_member (&w, "attachments");
          akc_json_writer_begin_array (&w);
          for (guint j = 0; j < message->attachments->len; j++)
            {
              AkcAttachment *attachment = g_ptr_array_index (message->attachments, j);
              g_autofree char *base64 = akc_attachment_dup_base64 (attachment);

              akc_json_writer_begin_object (&w);
              write_string (&w, "kind", akc_attachment_get_kind (attachment) == AKC_ATTACHMENT_KIND_IMAGE
                                        ? "image" : "text");
              write_string (&w, "name", akc_attachment_get_name (attachment));
              write_string (&w, "mimeType", akc_attachment_get_mime_type (attachment));
              if (akc_attachment_get_kind (attachment) == AKC_ATTACHMENT_KIND_IMAGE)
                {
                  akc_json_writer_member (&w, "width");
                  akc_json_writer_int (&w, akc_attachment_get_width (attachment));
                  akc_json_writer_member (&w, "height");
                  akc_json_writer_int (&w, akc_attachment_get_height (attachment));
                }
              write_string (&w, "data", base64);
              akc_json_writer_end_object (&w);
            }
          akc_json_writer_end_array (&w);
        }
      akc_json_writer_end_object (&w);
    }
  akc_json_writer_end_array (&w);

  akc_json_writer_member (&w, "resolutions");
  akc_json_writer_begin_array (&w);
  for (guint i = 0; i < record->resolutions->len; i++)
    {
      const AkcStoredResolution *resolution = g_ptr_array_index (record->resolutions, i);

      akc_json_writer_begin_object (&w);
      write_string (&w, "instanceId", resolution->instance_id);
      write_string (&w, "messageId", resolution->message_id);
      write_string (&w, "event", resolution->event);
      if (resolution->value != NULL)
        write_stored_json (&w, "value", resolution->value);
      else
        {
          akc_json_writer_member (&w, "value");
          akc_json_writer_null (&w);
        }
      write_time (&w, "resolvedAt", resolution->resolved_at);
      akc_json_writer_end_object (&w);
    }
  akc_json_writer_end_array (&w);

  akc_json_writer_end_object (&w);
  akc_json_writer_end_object (&w);
  g_string_append_c (out, '\n');
}

/* Parsing ------------------------------------------------------------ */

static gboolean G_GNUC_PRINTF (4, 0)
fail_valist (GError             **error,
             AkcChatMemoryError   code,
             const char          *path,
             const char          *format,
             va_list              args)
{
  g_autofree char *reason = g_strdup_vprintf (format, args);

  /* Translators: the first %s is where in the file the problem is (a
   * path such as conversation.messages[3].role), the second what is
   * wrong with it. */
  g_set_error (error, AKC_CHAT_MEMORY_ERROR, code, _("The conversation cannot be imported: %s %s"), path, reason);
  return FALSE;
}

/* The file is not an intact export: %AKC_CHAT_MEMORY_ERROR_INVALID. */
static gboolean G_GNUC_PRINTF (3, 4)
fail (GError     **error,
      const char  *path,
      const char  *format,
      ...)
{
  va_list args;

  va_start (args, format);
  fail_valist (error, AKC_CHAT_MEMORY_ERROR_INVALID, path, format, args);
  va_end (args);
  return FALSE;
}

/* The file is of a newer format: %AKC_CHAT_MEMORY_ERROR_NEWER_VERSION, a
 * code of its own, since what the person can do about it (update) is not
 * what they can do about a damaged file. */
static gboolean G_GNUC_PRINTF (3, 4)
fail_newer (GError     **error,
            const char  *path,
            const char  *format,
            ...)
{
  va_list args;

  va_start (args, format);
  fail_valist (error, AKC_CHAT_MEMORY_ERROR_NEWER_VERSION, path, format, args);
  va_end (args);
  return FALSE;
}

static AkcJsonValue *
member (AkcJsonValue *object,
        const char   *name)
{
  return akc_json_object_lookup (object, name, strlen (name), NULL);
}

/* A required (or, with @optional, possibly absent) string member without
 * U+0000, at most @max_bytes long. */
static gboolean
get_string (AkcJsonValue  *object,
            const char    *parent,
            const char    *name,
            gboolean       optional,
            gsize          max_bytes,
            char         **value,
            GError       **error)
{
  AkcJsonValue *m = member (object, name);
  g_autofree char *path = g_strconcat (parent, ".", name, NULL);

  *value = NULL;
  if (m == NULL && optional)
    return TRUE;
  if (m == NULL)
    return fail (error, path, _("is missing."));
  if (!AKC_JSON_IS_STRING (m))
    return fail (error, path, _("must be text."));
  if (strlen (AKC_JSON_STR (m)) != AKC_JSON_STR_LEN (m))
    return fail (error, path, _("must not contain a NUL character."));
  if (AKC_JSON_STR_LEN (m) > max_bytes)
    return fail (error, path, _("is longer than %u bytes."), (guint) max_bytes);

  *value = g_strdup (AKC_JSON_STR (m));
  return TRUE;
}

/* Text a person may see: no control characters. */
static gboolean
check_plain (const char  *text,
             const char  *path,
             GError     **error)
{
  if (text == NULL)
    return TRUE;
  if (!g_utf8_validate (text, -1, NULL))
    return fail (error, path, _("is not UTF-8 text."));
  for (const char *p = text; *p != '\0'; p = g_utf8_next_char (p))
    if (g_unichar_iscntrl (g_utf8_get_char (p)))
      return fail (error, path, _("must not contain control characters."));
  return TRUE;
}

/* conversation.provider: {kind?, baseUrl?, model?}, the model provider
 * and model the conversation is held with. */
static gboolean
parse_provider (AkcJsonValue           *provider,
                AkcConversationRecord  *record,
                GError                **error)
{
  if (provider == NULL)
    return TRUE;
  if (!AKC_JSON_IS_OBJECT (provider))
    return fail (error, "$.conversation.provider", _("must be an object."));

  if (!get_string (provider, "$.conversation.provider", "kind", TRUE, 32, &record->provider_kind, error) ||
      !get_string (provider, "$.conversation.provider", "baseUrl", TRUE, 4096, &record->provider_url, error) ||
      !get_string (provider, "$.conversation.provider", "model", TRUE, 4096, &record->model, error))
    return FALSE;

  if (record->provider_kind != NULL && g_strcmp0 (record->provider_kind, "openai") != 0 &&
      g_strcmp0 (record->provider_kind, "ollama") != 0 && g_strcmp0 (record->provider_kind, "anthropic") != 0)
    return fail (error, "$.conversation.provider.kind", _("must be “openai”, “ollama” or “anthropic”."));

  return check_plain (record->provider_url, "$.conversation.provider.baseUrl", error) &&
         check_plain (record->model, "$.conversation.provider.model", error);
}

static gboolean
get_id (AkcJsonValue  *object,
        const char    *parent,
        const char    *name,
        char         **value,
        GError       **error)
{
  g_autofree char *path = NULL;

  if (!get_string (object, parent, name, FALSE, AKC_CONVERSATION_IMPORT_MAX_ID_BYTES, value, error))
    return FALSE;

  if (!akc_text_is_safe_id (*value, strlen (*value)))
    {
      g_clear_pointer (value, g_free);
      path = g_strconcat (parent, ".", name, NULL);
      return fail (error, path,
                   _("must be 1 to 128 letters, digits, “.”, “_”, “:” or “-”, starting with a letter or a digit."));
    }

  return TRUE;
}

static gboolean
get_time (AkcJsonValue  *object,
          const char    *parent,
          const char    *name,
          gint64        *usec,
          GError       **error)
{
  g_autofree char *text = NULL;
  g_autoptr(GDateTime) time = NULL;
  g_autofree char *path = g_strconcat (parent, ".", name, NULL);

  if (!get_string (object, parent, name, FALSE, 64, &text, error))
    return FALSE;

  time = g_date_time_new_from_iso8601 (text, NULL);
  if (time == NULL)
    return fail (error, path, _("must be a time such as 2026-12-02T09:30:00Z."));

  *usec = akc_stored_time_from_date_time (time);
  return TRUE;
}

static gboolean
get_boolean (AkcJsonValue  *object,
             const char    *parent,
             const char    *name,
             gboolean      *value,
             GError       **error)
{
  AkcJsonValue *m = member (object, name);
  g_autofree char *path = g_strconcat (parent, ".", name, NULL);

  *value = FALSE;
  if (m == NULL)
    return TRUE;
  if (!AKC_JSON_IS (m, AKC_JSON_KIND_BOOLEAN))
    return fail (error, path, _("must be true or false."));

  *value = akc_json_value_get_boolean (m);
  return TRUE;
}

static gboolean
get_count (AkcJsonValue  *object,
           const char    *parent,
           const char    *name,
           guint64       *value,
           GError       **error)
{
  AkcJsonValue *m = member (object, name);
  g_autofree char *path = g_strconcat (parent, ".", name, NULL);

  *value = 0;
  if (m == NULL)
    return TRUE;

  if (AKC_JSON_IS_NUMBER (m))
    {
      double number = AKC_JSON_NUMBER (m);

      if (number < 0 || number > (double) MAX_SAFE_INTEGER || number != (double) (guint64) number)
        return fail (error, path, _("must be a whole number from 0 to 9007199254740991."));
      *value = (guint64) number;
      return TRUE;
    }

  if (AKC_JSON_IS_STRING (m) && AKC_JSON_STR_LEN (m) > 0 && AKC_JSON_STR_LEN (m) <= 20 &&
      strspn (AKC_JSON_STR (m), "0123456789") == AKC_JSON_STR_LEN (m) &&
      g_ascii_string_to_unsigned (AKC_JSON_STR (m), 10, 0, G_MAXUINT64, value, NULL))
    return TRUE;

  return fail (error, path, _("must be a whole number, or one written in digits as text."));
}

static char *
canonical (AkcJsonValue *value)
{
  GString *out = g_string_new (NULL);

  akc_json_append_value (out, value);
  return g_string_free (out, FALSE);
}

static gboolean
is_base64 (const char *text,
           gsize       length)
{
  if (length % 4 != 0)
    return FALSE;

  for (gsize i = 0; i < length; i++)
    {
      char c = text[i];

      if (g_ascii_isalnum (c) || c == '+' || c == '/')
        continue;
      /* Padding only at the end. */
      if (c == '=' && i >= length - 2 && (i == length - 1 || text[length - 1] == '='))
        continue;
      return FALSE;
    }

  return TRUE;
}

/* An attachment, checked as a new one is (an image by its header and
 * size, a text as UTF-8 within its bound). */
static AkcAttachment *
parse_attachment (AkcJsonValue  *object,
                  const char    *path,
                  GError       **error)
{
  g_autofree char *kind = NULL;
  g_autofree char *name = NULL;
  g_autofree char *where = NULL;
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(GError) local = NULL;
  AkcJsonValue *data;
  AkcAttachment *attachment;
  guchar *decoded;
  gsize length = 0;

  if (!AKC_JSON_IS_OBJECT (object))
    {
      fail (error, path, _("must be an object."));
      return NULL;
    }

  if (!get_string (object, path, "kind", FALSE, 16, &kind, error) ||
      !get_string (object, path, "name", TRUE, 4 * AKC_ATTACHMENT_MAX_NAME_BYTES, &name, error))
    return NULL;

  if (!g_str_equal (kind, "image") && !g_str_equal (kind, "text"))
    {
      where = g_strconcat (path, ".kind", NULL);
      fail (error, where, _("must be “image” or “text”."));
      return NULL;
    }

  data = member (object, "data");
  where = g_strconcat (path, ".data", NULL);
  if (!AKC_JSON_IS_STRING (data) || !is_base64 (AKC_JSON_STR (data), AKC_JSON_STR_LEN (data)))
    {
      fail (error, where, _("must be the file's bytes in Base64."));
      return NULL;
    }

  decoded = AKC_JSON_STR_LEN (data) > 0 ? g_base64_decode (AKC_JSON_STR (data), &length) : g_malloc0 (1);
  bytes = g_bytes_new_take (decoded, length);

  attachment = g_str_equal (kind, "image") ? akc_attachment_new_image (name, bytes, &local)
                                           : akc_attachment_new_text (name, bytes, &local);
  if (attachment == NULL)
    {
      fail (error, where, _("is not an attachment this version takes (%s)."), local->message);
      return NULL;
    }

  return attachment;
}

static AkcStoredMessage *
parse_message (AkcJsonValue  *object,
               const char    *path,
               GError       **error)
{
  g_autoptr(AkcStoredMessage) stored = g_new0 (AkcStoredMessage, 1);
  g_autofree char *role = NULL;
  g_autofree char *status = NULL;
  g_autoptr(AkcMessage) check = NULL;
  g_autoptr(GError) local = NULL;
  g_autoptr(GPtrArray) parsed_attachments = NULL;
  AkcJsonValue *content, *tool_calls, *lineage, *usage, *attachments;
  AkcUsage message_usage = { 0, 0, 0 };
  gboolean has_usage = FALSE;

  if (!AKC_JSON_IS_OBJECT (object))
    {
      fail (error, path, _("must be an object."));
      return NULL;
    }

  if (!get_string (object, path, "id", FALSE, AKC_CONVERSATION_IMPORT_MAX_ID_BYTES, &stored->id, error))
    return NULL;
  if (*stored->id == '\0' || !g_utf8_validate (stored->id, -1, NULL))
    {
      g_autofree char *where = g_strconcat (path, ".id", NULL);

      fail (error, where, _("must not be empty."));
      return NULL;
    }

  if (!get_string (object, path, "role", FALSE, 32, &role, error))
    return NULL;
  if (akc_stored_message_intern_role (role) == NULL)
    {
      g_autofree char *where = g_strconcat (path, ".role", NULL);

      fail (error, where, _("must be “user”, “assistant”, “system” or “tool”."));
      return NULL;
    }
  stored->role = akc_stored_message_intern_role (role);

  if (!get_string (object, path, "status", FALSE, 32, &status, error))
    return NULL;
  if (akc_stored_message_intern_status (status) == NULL)
    {
      g_autofree char *where = g_strconcat (path, ".status", NULL);

      fail (error, where, _("is not a message status."));
      return NULL;
    }
  stored->status = akc_stored_message_intern_status (status);

  if (!get_boolean (object, path, "stopped", &stored->stopped, error))
    return NULL;

  content = member (object, "content");
  if (!AKC_JSON_IS_STRING (content))
    {
      g_autofree char *where = g_strconcat (path, ".content", NULL);

      fail (error, where, content == NULL ? _("is missing.") : _("must be text."));
      return NULL;
    }
  stored->content = g_memdup2 (AKC_JSON_STR (content), AKC_JSON_STR_LEN (content) + 1);
  stored->content_length = AKC_JSON_STR_LEN (content);

  if (!get_time (object, path, "createdAt", &stored->created_at, error) ||
      !get_string (object, path, "toolCallId", TRUE, AKC_CONVERSATION_IMPORT_MAX_ID_BYTES,
                   &stored->tool_call_id, error))
    return NULL;

  tool_calls = member (object, "toolCalls");
  if (tool_calls != NULL)
    {
      g_autofree char *where = g_strconcat (path, ".toolCalls", NULL);

      if (!AKC_JSON_IS_ARRAY (tool_calls) || AKC_JSON_LEN (tool_calls) == 0)
        {
          fail (error, where, _("must be a list of tool calls."));
          return NULL;
        }
      if (AKC_JSON_LEN (tool_calls) > AKC_CONVERSATION_IMPORT_MAX_TOOL_CALLS)
        {
          fail (error, where, _("has more than %d tool calls."), AKC_CONVERSATION_IMPORT_MAX_TOOL_CALLS);
          return NULL;
        }
      stored->tool_calls = canonical (tool_calls);
    }

  lineage = member (object, "lineage");
  if (lineage != NULL)
    {
      g_autofree char *where = g_strconcat (path, ".lineage", NULL);

      if (!AKC_JSON_IS_OBJECT (lineage))
        {
          fail (error, where, _("must be an object."));
          return NULL;
        }
      stored->lineage = canonical (lineage);
    }

  usage = member (object, "usage");
  if (usage != NULL)
    {
      g_autofree char *where = g_strconcat (path, ".usage", NULL);
      AkcUsage counts = { 0, 0, 0 };

      if (!AKC_JSON_IS_OBJECT (usage))
        {
          fail (error, where, _("must be an object."));
          return NULL;
        }
      if (!get_count (usage, where, "promptTokens", &counts.prompt_tokens, error) ||
          !get_count (usage, where, "completionTokens", &counts.completion_tokens, error) ||
          !get_count (usage, where, "totalTokens", &counts.total_tokens, error))
        return NULL;
      has_usage = TRUE;
      message_usage = counts;
    }

  attachments = member (object, "attachments");
  if (attachments != NULL)
    {
      g_autofree char *where = g_strconcat (path, ".attachments", NULL);

      if (!AKC_JSON_IS_ARRAY (attachments))
        {
          fail (error, where, _("must be a list."));
          return NULL;
        }
      if (AKC_JSON_LEN (attachments) > AKC_ATTACHMENT_MAX_PER_MESSAGE)
        {
          fail (error, where, _("has more than %d attachments."), AKC_ATTACHMENT_MAX_PER_MESSAGE);
          return NULL;
        }
      parsed_attachments = g_ptr_array_new_with_free_func (g_object_unref);
      for (gsize i = 0; i < AKC_JSON_LEN (attachments); i++)
        {
          g_autofree char *item = g_strdup_printf ("%s[%" G_GSIZE_FORMAT "]", where, i);
          AkcAttachment *attachment = parse_attachment (AKC_JSON_ELEMENT (attachments, i), item, error);

          if (attachment == NULL)
            return NULL;
          g_ptr_array_add (parsed_attachments, attachment);
        }
    }

  /* What the history reads back is what it would store: the tool calls
   * and lineage are checked the same way. */
  check = akc_stored_message_to_message (stored, &local);
  if (check == NULL)
    {
      const char *field = stored->tool_calls != NULL && strstr (local->message, "tool") != NULL
                          ? ".toolCalls" : stored->lineage != NULL ? ".lineage" : "";
      g_autofree char *where = g_strconcat (path, field, NULL);

      fail (error, where, _("does not describe a message (%s)."), local->message);
      return NULL;
    }

  if (has_usage)
    akc_message_set_usage (check, &message_usage);
  for (guint i = 0; parsed_attachments != NULL && i < parsed_attachments->len; i++)
    akc_message_add_attachment (check, g_ptr_array_index (parsed_attachments, i));

  /* Stored as the history writes it: members it does not know are not
   * kept. */
  return akc_stored_message_new_from_message (check);
}

static AkcStoredResolution *
parse_resolution (AkcJsonValue  *object,
                  const char    *path,
                  GHashTable    *message_ids,
                  GHashTable    *instance_ids,
                  GError       **error)
{
  AkcStoredResolution *resolution;
  AkcJsonValue *value;

  if (!AKC_JSON_IS_OBJECT (object))
    {
      fail (error, path, _("must be an object."));
      return NULL;
    }

  resolution = g_new0 (AkcStoredResolution, 1);
  if (!get_id (object, path, "instanceId", &resolution->instance_id, error) ||
      !get_id (object, path, "messageId", &resolution->message_id, error) ||
      !get_string (object, path, "event", FALSE, 64, &resolution->event, error) ||
      !get_time (object, path, "resolvedAt", &resolution->resolved_at, error))
    goto fail;

  if (*resolution->event == '\0')
    {
      g_autofree char *where = g_strconcat (path, ".event", NULL);

      fail (error, where, _("must not be empty."));
      goto fail;
    }

  if (!g_hash_table_contains (message_ids, resolution->message_id))
    {
      g_autofree char *where = g_strconcat (path, ".messageId", NULL);

      fail (error, where, _("names no message of the conversation."));
      goto fail;
    }

  if (!g_hash_table_add (instance_ids, resolution->instance_id))
    {
      g_autofree char *where = g_strconcat (path, ".instanceId", NULL);

      fail (error, where, _("is answered twice."));
      goto fail;
    }

  value = member (object, "value");
  if (value != NULL && !AKC_JSON_IS (value, AKC_JSON_KIND_NULL))
    resolution->value = canonical (value);

  return resolution;

fail:
  /* The instance id may be in @instance_ids: it is owned by the record
   * only once this succeeds. */
  g_hash_table_remove (instance_ids, resolution->instance_id);
  akc_stored_resolution_free (resolution);
  return NULL;
}

AkcConversationRecord *
akc_conversation_record_parse_json (const char  *data,
                                    gsize        length,
                                    GError     **error)
{
  AkcJsonLimits limits = {
    .max_bytes = AKC_CONVERSATION_IMPORT_MAX_BYTES,
    .max_depth = AKC_CONVERSATION_IMPORT_MAX_DEPTH,
  };
  g_autoptr(AkcConversationRecord) record = akc_conversation_record_new ();
  g_autoptr(GHashTable) message_ids = g_hash_table_new (g_str_hash, g_str_equal);
  g_autoptr(GHashTable) instance_ids = g_hash_table_new (g_str_hash, g_str_equal);
  g_autoptr(AkcJsonValue) root = NULL;
  g_autofree char *format = NULL;
  AkcJsonParseStatus status = AKC_JSON_PARSE_OK;
  gsize offset = 0;
  AkcJsonValue *version, *conversation, *usage, *messages, *resolutions;

  if (length > AKC_CONVERSATION_IMPORT_MAX_BYTES)
    {
      fail (error, _("the file"), _("is larger than %d MiB."), AKC_CONVERSATION_IMPORT_MAX_BYTES / (1024 * 1024));
      return NULL;
    }

  root = akc_json_parse (data, length, &limits, &status, &offset);
  if (root == NULL)
    {
      if (status == AKC_JSON_PARSE_TOO_DEEP)
        fail (error, _("the file"), _("nests more than %d levels."), AKC_CONVERSATION_IMPORT_MAX_DEPTH);
      else
        {
          g_autofree char *where = g_strdup_printf ("%" G_GSIZE_FORMAT, offset);

          /* Translators: the %s is a byte offset in the file. */
          fail (error, _("the file"), _("is not JSON (at byte %s)."), where);
        }
      return NULL;
    }

  if (!AKC_JSON_IS_OBJECT (root))
    {
      fail (error, _("the file"), _("is not an object."));
      return NULL;
    }

  if (!get_string (root, "$", "format", FALSE, 64, &format, error))
    return NULL;
  if (!g_str_equal (format, AKC_CONVERSATION_FORMAT_NAME))
    {
      fail (error, "$.format", _("must be “%s”."), AKC_CONVERSATION_FORMAT_NAME);
      return NULL;
    }

  version = member (root, "version");
  if (!AKC_JSON_IS_NUMBER (version) || AKC_JSON_NUMBER (version) != (double) (int) AKC_JSON_NUMBER (version) ||
      AKC_JSON_NUMBER (version) < 1)
    {
      fail (error, "$.version", _("must be a whole number from 1."));
      return NULL;
    }
  if (AKC_JSON_NUMBER (version) > AKC_CONVERSATION_FORMAT_VERSION)
    {
      fail_newer (error, "$.version",
                  _("is %d: the file was written by a newer version of AgentsKit Chat (this one reads %d)."),
                  (int) AKC_JSON_NUMBER (version), AKC_CONVERSATION_FORMAT_VERSION);
      return NULL;
    }

  conversation = member (root, "conversation");
  if (!AKC_JSON_IS_OBJECT (conversation))
    {
      fail (error, "$.conversation", conversation == NULL ? _("is missing.") : _("must be an object."));
      return NULL;
    }

  if (!get_string (conversation, "$.conversation", "id", TRUE, AKC_CONVERSATION_IMPORT_MAX_ID_BYTES,
                   &record->id, error) ||
      !get_string (conversation, "$.conversation", "assistantId", TRUE, AKC_CONVERSATION_IMPORT_MAX_ID_BYTES,
                   &record->assistant_id, error) ||
      !get_string (conversation, "$.conversation", "title", TRUE, AKC_CONVERSATION_IMPORT_MAX_TITLE_BYTES,
                   &record->title, error) ||
      !get_boolean (conversation, "$.conversation", "pinned", &record->pinned, error) ||
      !get_time (conversation, "$.conversation", "createdAt", &record->created_at, error) ||
      !get_time (conversation, "$.conversation", "updatedAt", &record->updated_at, error))
    return NULL;

  if (record->assistant_id == NULL)
    record->assistant_id = g_strdup ("");
  else if (*record->assistant_id != '\0' &&
           !akc_text_is_safe_id (record->assistant_id, strlen (record->assistant_id)))
    {
      fail (error, "$.conversation.assistantId",
            _("must be 1 to 128 letters, digits, “.”, “_”, “:” or “-”, starting with a letter or a digit."));
      return NULL;
    }
  if (record->title == NULL)
    record->title = g_strdup ("");
  if (!g_utf8_validate (record->title, -1, NULL))
    {
      fail (error, "$.conversation.title", _("is not UTF-8 text."));
      return NULL;
    }

  if (!parse_provider (member (conversation, "provider"), record, error))
    return NULL;

  usage = member (conversation, "usage");
  if (usage != NULL)
    {
      if (!AKC_JSON_IS_OBJECT (usage))
        {
          fail (error, "$.conversation.usage", _("must be an object."));
          return NULL;
        }
      if (!get_count (usage, "$.conversation.usage", "promptTokens", &record->usage.prompt_tokens, error) ||
          !get_count (usage, "$.conversation.usage", "completionTokens", &record->usage.completion_tokens, error) ||
          !get_count (usage, "$.conversation.usage", "totalTokens", &record->usage.total_tokens, error))
        return NULL;
    }

  messages = member (conversation, "messages");
  if (!AKC_JSON_IS_ARRAY (messages))
    {
      fail (error, "$.conversation.messages", messages == NULL ? _("is missing.") : _("must be a list."));
      return NULL;
    }
  if (AKC_JSON_LEN (messages) > AKC_CONVERSATION_IMPORT_MAX_MESSAGES)
    {
      fail (error, "$.conversation.messages", _("has more than %d messages."), AKC_CONVERSATION_IMPORT_MAX_MESSAGES);
      return NULL;
    }

  for (gsize i = 0; i < AKC_JSON_LEN (messages); i++)
    {
      g_autofree char *path = g_strdup_printf ("$.conversation.messages[%" G_GSIZE_FORMAT "]", i);
      AkcStoredMessage *stored = parse_message (AKC_JSON_ELEMENT (messages, i), path, error);

      if (stored == NULL)
        return NULL;
      g_ptr_array_add (record->messages, stored);
      if (!g_hash_table_add (message_ids, stored->id))
        {
          g_autofree char *where = g_strconcat (path, ".id", NULL);

          fail (error, where, _("is the id of an earlier message too."));
          return NULL;
        }
    }

  resolutions = member (conversation, "resolutions");
  if (resolutions != NULL)
    {
      if (!AKC_JSON_IS_ARRAY (resolutions))
        {
          fail (error, "$.conversation.resolutions", _("must be a list."));
          return NULL;
        }
      if (AKC_JSON_LEN (resolutions) > AKC_CONVERSATION_IMPORT_MAX_RESOLUTIONS)
        {
          fail (error, "$.conversation.resolutions", _("has more than %d answers."),
                AKC_CONVERSATION_IMPORT_MAX_RESOLUTIONS);
          return NULL;
        }

      for (gsize i = 0; i < AKC_JSON_LEN (resolutions); i++)
        {
          g_autofree char *path = g_strdup_printf ("$.conversation.resolutions[%" G_GSIZE_FORMAT "]", i);
          AkcStoredResolution *resolution = parse_resolution (AKC_JSON_ELEMENT (resolutions, i), path,
                                                              message_ids, instance_ids, error);

          if (resolution == NULL)
            return NULL;
          g_ptr_array_add (record->resolutions, resolution);
        }
    }

  return g_steal_pointer (&record);
}

/* ------------------------------------------------------------------ */
/* Markdown                                                            */
/* ------------------------------------------------------------------ */

/* Text inside [ ] of a link, and on a heading line. */
static void
append_inline (GString    *out,
               const char *text)
{
  for (const char *p = text != NULL ? text : ""; *p != '\0'; p++)
    {
      if (strchr ("\\[]*_`<>#", *p) != NULL)
        g_string_append_c (out, '\\');
      if (*p == '\n' || *p == '\r')
        g_string_append_c (out, ' ');
      else
        g_string_append_c (out, *p);
    }
}

static void
append_link (GString    *out,
             const char *title,
             const char *url)
{
  g_string_append_c (out, '[');
  append_inline (out, title);
  g_string_append (out, "](<");
  for (const char *p = url; *p != '\0'; p++)
    {
      /* An angle-bracket destination ends at > and cannot hold a line
       * break or a space that would end it: percent-encode those. */
      if (*p == '<' || *p == '>' || *p == ' ' || *p == '\n' || *p == '\r')
        g_string_append_printf (out, "%%%02X", (guchar) *p);
      else
        g_string_append_c (out, *p);
    }
  g_string_append (out, ">)");
}

static const char *
string_member (AkcJsonValue *object,
               const char   *name)
{
  AkcJsonValue *m = AKC_JSON_IS_OBJECT (object) ? member (object, name) : NULL;

  return AKC_JSON_IS_STRING (m) ? AKC_JSON_STR (m) : NULL;
}

/* A component: sources and link cards as links, every other one as its
 * fallback text. */
static void
append_component (GString      *out,
                  AkcJsonValue *frame)
{
  const char *key = string_member (frame, "componentKey");
  AkcJsonValue *props = AKC_JSON_IS_OBJECT (frame) ? member (frame, "props") : NULL;
  g_autofree char *fallback = NULL;

  if (g_strcmp0 (key, "source-list") == 0 && AKC_JSON_IS_OBJECT (props) &&
      AKC_JSON_IS_ARRAY (member (props, "sources")))
    {
      AkcJsonValue *sources = member (props, "sources");

      if (string_member (props, "label") != NULL)
        {
          g_string_append (out, "**");
          append_inline (out, string_member (props, "label"));
          g_string_append (out, "**\n\n");
        }
      for (gsize i = 0; i < AKC_JSON_LEN (sources); i++)
        {
          AkcJsonValue *source = AKC_JSON_ELEMENT (sources, i);
          const char *title = string_member (source, "title");
          const char *url = string_member (source, "url");
          const char *snippet = string_member (source, "snippet");

          g_string_append (out, "- ");
          if (url != NULL)
            append_link (out, title != NULL ? title : url, url);
          else
            append_inline (out, title);
          if (snippet != NULL)
            {
              g_string_append (out, " — ");
              append_inline (out, snippet);
            }
          g_string_append_c (out, '\n');
        }
      g_string_append_c (out, '\n');
      return;
    }

  if (g_strcmp0 (key, "link-card") == 0 && AKC_JSON_IS_OBJECT (props) && string_member (props, "href") != NULL)
    {
      const char *description = string_member (props, "description");

      append_link (out, string_member (props, "title") != NULL ? string_member (props, "title")
                                                              : string_member (props, "href"),
                   string_member (props, "href"));
      if (description != NULL)
        {
          g_string_append (out, " — ");
          append_inline (out, description);
        }
      g_string_append (out, "\n\n");
      return;
    }

  fallback = akc_component_frame_dup_fallback_text (frame);
  g_string_append (out, "> ");
  append_inline (out, fallback != NULL ? fallback : _("[a component that cannot be shown]"));
  g_string_append (out, "\n\n");
}

/* The text of a message, ordered assistant content as its parts. */
static void
append_content (GString                *out,
                const AkcStoredMessage *message)
{
  g_autoptr(AkcJsonValue) parts = NULL;

  if (g_str_equal (message->role, "assistant") &&
      akc_assistant_content_is_candidate (message->content, message->content_length))
    parts = akc_assistant_content_decode (message->content, message->content_length, NULL, NULL);

  if (parts == NULL && g_str_equal (message->role, "tool"))
    {
      /* A tool's result is data: a fenced block longer than any run of
       * backticks in it. */
      guint longest = 0, run = 0;

      for (gsize i = 0; i < message->content_length; i++)
        {
          run = message->content[i] == '`' ? run + 1 : 0;
          longest = MAX (longest, run);
        }
      for (guint i = 0; i < MAX (longest + 1, 3); i++)
        g_string_append_c (out, '`');
      g_string_append_c (out, '\n');
      for (gsize i = 0; i < message->content_length; i++)
        g_string_append_c (out, message->content[i] != '\0' ? message->content[i] : ' ');
      g_string_append_c (out, '\n');
      for (guint i = 0; i < MAX (longest + 1, 3); i++)
        g_string_append_c (out, '`');
      g_string_append (out, "\n\n");
      return;
    }

  if (parts == NULL)
    {
      /* U+0000 cannot be shown; everything else is the person's text. */
      for (gsize i = 0; i < message->content_length; i++)
        g_string_append_c (out, message->content[i] != '\0' ? message->content[i] : ' ');
      g_string_append (out, "\n\n");
      return;
    }

  for (gsize i = 0; i < AKC_JSON_LEN (parts); i++)
    {
      AkcJsonValue *part = AKC_JSON_ELEMENT (parts, i);
      const char *kind = string_member (part, "kind");

      if (g_strcmp0 (kind, "text") == 0 && string_member (part, "text") != NULL)
        {
          g_string_append (out, string_member (part, "text"));
          g_string_append (out, "\n\n");
        }
      else if (g_strcmp0 (kind, "component") == 0)
        append_component (out, member (part, "frame"));
    }
}

static const char *
role_heading (const char *role)
{
  if (g_str_equal (role, "user"))
    return _("You");
  if (g_str_equal (role, "assistant"))
    return _("Assistant");
  if (g_str_equal (role, "system"))
    return _("System");
  return _("Tool");
}

static void
append_tool_calls (GString                *out,
                   const AkcStoredMessage *message)
{
  g_autoptr(AkcJsonValue) calls = NULL;

  if (message->tool_calls == NULL)
    return;

  calls = akc_json_parse (message->tool_calls, strlen (message->tool_calls), NULL, NULL, NULL);
  if (!AKC_JSON_IS_ARRAY (calls))
    return;

  for (gsize i = 0; i < AKC_JSON_LEN (calls); i++)
    {
      AkcJsonValue *call = AKC_JSON_ELEMENT (calls, i);

      g_string_append (out, "> ");
      /* Translators: a tool the assistant called, and how the call went
       * (completed, failed…). */
      g_string_append_printf (out, _("Tool call: `%s` (%s)"),
                              string_member (call, "name") != NULL ? string_member (call, "name") : "?",
                              string_member (call, "status") != NULL ? string_member (call, "status") : "?");
      g_string_append (out, "\n");
    }
  g_string_append_c (out, '\n');
}

void
akc_conversation_record_write_markdown (const AkcConversationRecord *record,
                                        GString                     *out)
{
  g_autoptr(GDateTime) created = akc_stored_time_to_date_time (record->created_at);
  g_autofree char *created_text = created != NULL ? g_date_time_format (created, "%Y-%m-%d %H:%M UTC") : NULL;

  g_string_append (out, "# ");
  append_inline (out, record->title != NULL && *record->title != '\0' ? record->title : _("Conversation"));
  g_string_append (out, "\n\n");

  g_string_append_c (out, '*');
  if (record->assistant_id != NULL && *record->assistant_id != '\0')
    {
      /* Translators: the %s is the id of an assistant (a demo, ask…). */
      g_string_append_printf (out, _("With %s"), record->assistant_id);
      g_string_append (out, " · ");
    }
  /* Translators: the %s is a date and time. */
  g_string_append_printf (out, _("Started %s"), created_text != NULL ? created_text : "?");
  g_string_append (out, "*\n\n");

  for (guint i = 0; i < record->messages->len; i++)
    {
      const AkcStoredMessage *message = g_ptr_array_index (record->messages, i);
      g_autoptr(GDateTime) time = akc_stored_time_to_date_time (message->created_at);
      g_autofree char *time_text = time != NULL ? g_date_time_format (time, "%Y-%m-%d %H:%M") : NULL;

      g_string_append (out, "## ");
      g_string_append (out, role_heading (message->role));
      if (time_text != NULL)
        g_string_append_printf (out, " · %s", time_text);
      g_string_append (out, "\n\n");

      append_content (out, message);
      for (guint j = 0; message->attachments != NULL && j < message->attachments->len; j++)
        {
          AkcAttachment *attachment = g_ptr_array_index (message->attachments, j);

          g_autoptr(GString) name = g_string_new (NULL);

          append_inline (name, akc_attachment_get_name (attachment));
          g_string_append (out, "- ");
          /* Translators: an attached file: its name, then its type. */
          g_string_append_printf (out, _("Attached: %s (%s)"), name->str,
                                  akc_attachment_get_mime_type (attachment));
          g_string_append_c (out, '\n');
          if (j + 1 == message->attachments->len)
            g_string_append_c (out, '\n');
        }
      if (message->stopped)
        {
          g_string_append_c (out, '*');
          g_string_append (out, _("(stopped before it was complete)"));
          g_string_append (out, "*\n\n");
        }
      append_tool_calls (out, message);
    }
}
