/* akc-message-builder.c: message records built from typed parts
 *
 * SPDX-License-Identifier: MIT
 */

#include "config.h"

#include <string.h>

#include "akc-assistant-content.h"
#include "akc-component-frame.h"
#include "akc-diagnostic.h"
#include "akc-message-builder.h"

/**
 * AkcMessageBuilder:
 *
 * Builds an [struct@MessageRecord] from typed pieces, so that a host writes
 * neither JSON nor the ordered content envelope (application.md §2.10) by
 * hand.
 *
 * Text added with [method@MessageBuilder.add_text] is the message's content.
 * Once an assistant message gets a component frame
 * ([method@MessageBuilder.add_frame]), its content becomes the ordered
 * envelope `agentskit.chat.content/1`: every text and frame in the order
 * they were added, each text cut into records of at most 16,384 UTF-16
 * units. Tool calls are added with [method@MessageBuilder.add_tool_call].
 * The record is created, and checked as a snapshot's message would be, by
 * [method@MessageBuilder.build]; a builder can build again after more
 * pieces are added (a reply that grows).
 *
 * ```python
 * builder = Akc.MessageBuilder.new("a1", Akc.MessageRole.ASSISTANT)
 * builder.add_text("Pick a size:")
 * builder.add_frame(frame)
 * source.append_message(builder.build())
 * ```
 *
 * The creation time is now unless [method@MessageBuilder.set_created_at]
 * gives another; the status is `complete` unless
 * [method@MessageBuilder.set_status] says otherwise.
 *
 * Since: 0.1
 */
struct _AkcMessageBuilder
{
  GObject           parent_instance;

  char             *id;
  AkcMessageRole    role;
  AkcMessageStatus  status;
  GDateTime        *created_at;
  GPtrArray        *pieces;       /* AkcJsonValue: a string (text) or a frame */
  gboolean          has_frames;
  GPtrArray        *tool_calls;   /* AkcJsonValue, wire tool calls */
  char             *tool_call_id; /* nullable */
  AkcJsonValue     *metadata;     /* nullable */
};

G_DEFINE_FINAL_TYPE (AkcMessageBuilder, akc_message_builder, G_TYPE_OBJECT)

static void
akc_message_builder_finalize (GObject *object)
{
  AkcMessageBuilder *self = AKC_MESSAGE_BUILDER (object);

  g_clear_pointer (&self->id, g_free);
  g_clear_pointer (&self->created_at, g_date_time_unref);
  g_clear_pointer (&self->pieces, g_ptr_array_unref);
  g_clear_pointer (&self->tool_calls, g_ptr_array_unref);
  g_clear_pointer (&self->tool_call_id, g_free);
  g_clear_pointer (&self->metadata, akc_json_value_unref);

  G_OBJECT_CLASS (akc_message_builder_parent_class)->finalize (object);
}

static void
akc_message_builder_class_init (AkcMessageBuilderClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = akc_message_builder_finalize;
}

static void
akc_message_builder_init (AkcMessageBuilder *self)
{
  self->status = AKC_MESSAGE_STATUS_COMPLETE;
  self->pieces = g_ptr_array_new_with_free_func ((GDestroyNotify) akc_json_value_unref);
  self->tool_calls = g_ptr_array_new_with_free_func ((GDestroyNotify) akc_json_value_unref);
}

/**
 * akc_message_builder_new:
 * @id: the message id, at least one character
 * @role: who wrote the message
 *
 * Creates a builder of a message with no content.
 *
 * Returns: (transfer full): a new builder
 *
 * Since: 0.1
 */
AkcMessageBuilder *
akc_message_builder_new (const char     *id,
                         AkcMessageRole  role)
{
  AkcMessageBuilder *self;

  g_return_val_if_fail (id != NULL, NULL);
  g_return_val_if_fail (role <= AKC_MESSAGE_ROLE_TOOL, NULL);

  self = g_object_new (AKC_TYPE_MESSAGE_BUILDER, NULL);
  self->id = g_strdup (id);
  self->role = role;

  return self;
}

/**
 * akc_message_builder_set_status:
 * @self: a builder
 * @status: the status of the message
 *
 * Sets the status of the message (`complete` by default).
 *
 * Since: 0.1
 */
void
akc_message_builder_set_status (AkcMessageBuilder *self,
                                AkcMessageStatus   status)
{
  g_return_if_fail (AKC_IS_MESSAGE_BUILDER (self));
  g_return_if_fail (status <= AKC_MESSAGE_STATUS_ERROR);

  self->status = status;
}

/**
 * akc_message_builder_set_created_at:
 * @self: a builder
 * @created_at: (nullable): when the message was created, or %NULL for the
 *   time of [method@MessageBuilder.build]
 *
 * Sets the creation time; it is kept in UTC with millisecond precision, as
 * the wire's `createdAt` is.
 *
 * Since: 0.1
 */
void
akc_message_builder_set_created_at (AkcMessageBuilder *self,
                                    GDateTime         *created_at)
{
  g_return_if_fail (AKC_IS_MESSAGE_BUILDER (self));

  g_clear_pointer (&self->created_at, g_date_time_unref);
  if (created_at != NULL)
    self->created_at = g_date_time_ref (created_at);
}

static gboolean
set_error (GError     **error,
           int          code,
           const char  *message)
{
  g_set_error_literal (error, AKC_PROTOCOL_ERROR, code, message);
  return FALSE;
}

/**
 * akc_message_builder_add_text:
 * @self: a builder
 * @text: UTF-8 text, not empty
 * @error: return location for a #GError
 *
 * Adds @text after what the message holds. Text that is empty or not UTF-8
 * fails with %AKC_PROTOCOL_ERROR_ASSISTANT_CONTENT_INVALID_RECORD and adds
 * nothing.
 *
 * Returns: %TRUE if the text was added
 *
 * Since: 0.1
 */
gboolean
akc_message_builder_add_text (AkcMessageBuilder  *self,
                              const char         *text,
                              GError            **error)
{
  g_return_val_if_fail (AKC_IS_MESSAGE_BUILDER (self), FALSE);
  g_return_val_if_fail (text != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  if (*text == '\0' || !g_utf8_validate (text, -1, NULL))
    return set_error (error, AKC_PROTOCOL_ERROR_ASSISTANT_CONTENT_INVALID_RECORD,
                      "Assistant content record is invalid.");

  g_ptr_array_add (self->pieces, akc_json_value_new_string (text, -1));

  return TRUE;
}

/**
 * akc_message_builder_add_frame:
 * @self: a builder of an assistant message
 * @frame: a render frame (application.md §2.1)
 * @error: return location for a #GError
 *
 * Adds a component frame after what the message holds, which makes its
 * content the ordered envelope. A frame that is not valid fails with its
 * diagnostic as [func@component_frame_decode_value] gives it, and a message
 * that is not an assistant's with
 * %AKC_PROTOCOL_ERROR_ASSISTANT_CONTENT_INVALID_RECORD; nothing is added
 * then.
 *
 * Returns: %TRUE if the frame was added
 *
 * Since: 0.1
 */
gboolean
akc_message_builder_add_frame (AkcMessageBuilder  *self,
                               AkcJsonValue       *frame,
                               GError            **error)
{
  g_autoptr(AkcDiagnostic) diagnostic = NULL;
  AkcJsonValue *valid;

  g_return_val_if_fail (AKC_IS_MESSAGE_BUILDER (self), FALSE);
  g_return_val_if_fail (frame != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  if (self->role != AKC_MESSAGE_ROLE_ASSISTANT)
    return set_error (error, AKC_PROTOCOL_ERROR_ASSISTANT_CONTENT_INVALID_RECORD,
                      "Assistant content envelope is invalid.");

  valid = akc_component_frame_decode_value (frame, &diagnostic);
  if (valid == NULL)
    {
      g_propagate_error (error, akc_diagnostic_to_error (diagnostic));
      return FALSE;
    }

  g_ptr_array_add (self->pieces, valid);
  self->has_frames = TRUE;

  return TRUE;
}

/**
 * akc_message_builder_add_tool_call:
 * @self: a builder
 * @id: the tool call id, at least one character
 * @name: the tool, at least one character
 * @arguments: (nullable): its arguments, a JSON object, or %NULL for none
 * @status: where the call is
 * @error: return location for a #GError
 *
 * Adds a tool call to the message (its `toolCalls`). An empty id or name,
 * or arguments that are not an object, fail with
 * %AKC_PROTOCOL_ERROR_PROTOCOL_INVALID_PAYLOAD "Serialized message record
 * is invalid." and add nothing.
 *
 * Returns: %TRUE if the call was added
 *
 * Since: 0.1
 */
gboolean
akc_message_builder_add_tool_call (AkcMessageBuilder  *self,
                                   const char         *id,
                                   const char         *name,
                                   AkcJsonValue       *arguments,
                                   AkcToolCallStatus   status,
                                   GError            **error)
{
  g_autoptr(AkcJsonValue) empty = NULL;
  const char *names[4] = { "id", "name", "args", "status" };
  AkcJsonValue *values[4];
  const char *status_name = akc_tool_call_status_to_string (status);

  g_return_val_if_fail (AKC_IS_MESSAGE_BUILDER (self), FALSE);
  g_return_val_if_fail (id != NULL, FALSE);
  g_return_val_if_fail (name != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  if (*id == '\0' || *name == '\0' || status_name == NULL ||
      !g_utf8_validate (id, -1, NULL) || !g_utf8_validate (name, -1, NULL) ||
      (arguments != NULL && akc_json_value_get_kind (arguments) != AKC_JSON_KIND_OBJECT))
    return set_error (error, AKC_PROTOCOL_ERROR_PROTOCOL_INVALID_PAYLOAD,
                      "Serialized message record is invalid.");

  if (arguments == NULL)
    arguments = empty = akc_json_value_new_object (NULL, NULL, 0);

  values[0] = akc_json_value_new_string (id, -1);
  values[1] = akc_json_value_new_string (name, -1);
  values[2] = akc_json_value_ref (arguments);
  values[3] = akc_json_value_new_string (status_name, -1);
  g_ptr_array_add (self->tool_calls, akc_json_value_new_object (names, values, 4));
  for (guint i = 0; i < G_N_ELEMENTS (values); i++)
    akc_json_value_unref (values[i]);

  return TRUE;
}

/**
 * akc_message_builder_set_tool_call_id:
 * @self: a builder
 * @tool_call_id: (nullable): the tool call a `tool` message answers, or
 *   %NULL
 *
 * Sets the message's `toolCallId`.
 *
 * Since: 0.1
 */
void
akc_message_builder_set_tool_call_id (AkcMessageBuilder *self,
                                      const char        *tool_call_id)
{
  g_return_if_fail (AKC_IS_MESSAGE_BUILDER (self));

  g_free (self->tool_call_id);
  self->tool_call_id = g_strdup (tool_call_id);
}

/**
 * akc_message_builder_set_metadata:
 * @self: a builder
 * @metadata: (nullable): a JSON object, or %NULL for none
 * @error: return location for a #GError
 *
 * Sets the message's `metadata`. A value that is not an object fails with
 * %AKC_PROTOCOL_ERROR_PROTOCOL_INVALID_PAYLOAD and changes nothing.
 *
 * Returns: %TRUE if the metadata was set
 *
 * Since: 0.1
 */
gboolean
akc_message_builder_set_metadata (AkcMessageBuilder  *self,
                                  AkcJsonValue       *metadata,
                                  GError            **error)
{
  g_return_val_if_fail (AKC_IS_MESSAGE_BUILDER (self), FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  if (metadata != NULL && akc_json_value_get_kind (metadata) != AKC_JSON_KIND_OBJECT)
    return set_error (error, AKC_PROTOCOL_ERROR_PROTOCOL_INVALID_PAYLOAD,
                      "Serialized message record is invalid.");

  g_clear_pointer (&self->metadata, akc_json_value_unref);
  if (metadata != NULL)
    self->metadata = akc_json_value_ref (metadata);

  return TRUE;
}

static const char *
role_name (AkcMessageRole role)
{
  static const char * const names[] = { "system", "user", "assistant", "tool" };

  return names[role];
}

static const char *
status_name (AkcMessageStatus status)
{
  static const char * const names[] = { "pending", "streaming", "complete", "error" };

  return names[status];
}

/* §7.2 createdAt: `YYYY-MM-DDTHH:MM:SS.mmmZ`, in UTC. */
static char *
timestamp (GDateTime *created_at)
{
  g_autoptr(GDateTime) utc = g_date_time_to_utc (created_at);

  return g_strdup_printf ("%04d-%02d-%02dT%02d:%02d:%02d.%03dZ",
                          g_date_time_get_year (utc), g_date_time_get_month (utc),
                          g_date_time_get_day_of_month (utc), g_date_time_get_hour (utc),
                          g_date_time_get_minute (utc), g_date_time_get_second (utc),
                          g_date_time_get_microsecond (utc) / 1000);
}

/* The content: the texts one after the other, or the ordered envelope. */
static char *
content (AkcMessageBuilder  *self,
         gsize              *length,
         GError            **error)
{
  g_autoptr(AkcAssistantContentEncoder) encoder = NULL;
  GString *text = g_string_new (NULL);

  if (self->has_frames)
    encoder = akc_assistant_content_encoder_new (TRUE);

  for (guint i = 0; i < self->pieces->len; i++)
    {
      AkcJsonValue *piece = g_ptr_array_index (self->pieces, i);
      gsize piece_length = 0;
      const char *string;
      g_autofree char *record = NULL;

      if (akc_json_value_get_kind (piece) == AKC_JSON_KIND_STRING)
        {
          string = akc_json_value_get_string (piece, &piece_length);
          if (encoder == NULL)
            {
              g_string_append_len (text, string, piece_length);
              continue;
            }
          record = akc_assistant_content_encoder_encode_text (encoder, string, piece_length, &piece_length, error);
        }
      else
        record = akc_assistant_content_encoder_encode_frame (encoder, piece, &piece_length, error);

      if (record == NULL)
        {
          g_string_free (text, TRUE);
          return NULL;
        }
      g_string_append_len (text, record, piece_length);
    }

  *length = text->len;
  return g_string_free (text, FALSE);
}

/**
 * akc_message_builder_build:
 * @self: a builder
 * @error: return location for a #GError
 *
 * Creates the record of the message as it stands, checked as one message
 * of a snapshot would be ([ctor@MessageRecord.new_from_value]). Content
 * beyond the envelope's limits (262,144 bytes, 512 records) fails with
 * %AKC_PROTOCOL_ERROR_ASSISTANT_CONTENT_LIMIT_EXCEEDED.
 *
 * Returns: (transfer full) (nullable): the record, or %NULL with @error set
 *
 * Since: 0.1
 */
AkcMessageRecord *
akc_message_builder_build (AkcMessageBuilder  *self,
                           GError            **error)
{
  g_autoptr(GDateTime) now = NULL;
  g_autoptr(AkcJsonValue) record = NULL;
  g_autofree char *text = NULL;
  g_autofree char *created_at = NULL;
  const char *names[8];
  AkcJsonValue *values[8];
  gsize n = 0;
  gsize length = 0;

  g_return_val_if_fail (AKC_IS_MESSAGE_BUILDER (self), NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  text = content (self, &length, error);
  if (text == NULL)
    return NULL;

  if (self->created_at == NULL)
    now = g_date_time_new_now_utc ();
  created_at = timestamp (self->created_at != NULL ? self->created_at : now);

  names[n] = "id";
  values[n++] = akc_json_value_new_string (self->id, -1);
  names[n] = "role";
  values[n++] = akc_json_value_new_string (role_name (self->role), -1);
  names[n] = "content";
  values[n++] = akc_json_value_new_string (text, length);
  names[n] = "status";
  values[n++] = akc_json_value_new_string (status_name (self->status), -1);
  names[n] = "createdAt";
  values[n++] = akc_json_value_new_string (created_at, -1);
  if (self->tool_calls->len > 0)
    {
      names[n] = "toolCalls";
      values[n++] = akc_json_value_new_array ((AkcJsonValue * const *) self->tool_calls->pdata,
                                              self->tool_calls->len);
    }
  if (self->tool_call_id != NULL)
    {
      names[n] = "toolCallId";
      values[n++] = akc_json_value_new_string (self->tool_call_id, -1);
    }
  if (self->metadata != NULL)
    {
      names[n] = "metadata";
      values[n++] = akc_json_value_ref (self->metadata);
    }

  record = akc_json_value_new_object (names, values, n);
  for (gsize i = 0; i < n; i++)
    akc_json_value_unref (values[i]);

  return akc_message_record_new_from_value (record, error);
}

/**
 * akc_message_record_new_text:
 * @id: the message id, at least one character
 * @role: who wrote the message
 * @text: its content, UTF-8 (may be empty)
 * @status: its status
 * @created_at: (nullable): when it was created, or %NULL for now
 * @error: return location for a #GError
 *
 * Creates the record of a plain text message in one call, the typed form
 * of [ctor@MessageRecord.new]. Text that is not UTF-8 fails with
 * %AKC_PROTOCOL_ERROR_PROTOCOL_INVALID_PAYLOAD.
 *
 * Returns: (transfer full) (nullable): a new record, or %NULL with @error set
 *
 * Since: 0.1
 */
AkcMessageRecord *
akc_message_record_new_text (const char        *id,
                             AkcMessageRole     role,
                             const char        *text,
                             AkcMessageStatus   status,
                             GDateTime         *created_at,
                             GError           **error)
{
  g_autoptr(GDateTime) now = NULL;

  g_return_val_if_fail (id != NULL, NULL);
  g_return_val_if_fail (role <= AKC_MESSAGE_ROLE_TOOL, NULL);
  g_return_val_if_fail (text != NULL, NULL);
  g_return_val_if_fail (status <= AKC_MESSAGE_STATUS_ERROR, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  if (created_at == NULL)
    created_at = now = g_date_time_new_now_utc ();

  return akc_message_record_new (id, role_name (role), text, -1, status_name (status), created_at, error);
}
