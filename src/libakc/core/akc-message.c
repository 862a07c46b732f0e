/* akc-message.c
 *
 * SPDX-License-Identifier: MIT
 */

#include "config.h"

#include <string.h>

#include "akc-enum-types.h"
#include "akc-message.h"

/**
 * AkcMessage:
 *
 * One message of a conversation.
 *
 * A message has a stable [property@Message:id], a [property@Message:role]
 * and a [property@Message:content] that grows while an assistant reply
 * streams in. A message changes in place: views observe
 * [signal@GObject.Object::notify] on `content`, `status`, `stopped` and
 * `lineage`, and [signal@Gio.ListModel::items-changed] on
 * [property@Message:tool-calls], to update only the row that changed.
 *
 * An assistant message may carry [class@ToolCall]s; a tool message names
 * the call it answers in [property@Message:tool-call-id]. A reply carries
 * the [struct@Lineage] of the operation that produced it.
 *
 * Content is stored with its byte length, so text holding U+0000 keeps
 * every byte.
 *
 * Since: 0.1
 */

struct _AkcMessage
{
  GObject           parent_instance;

  char             *id;
  GString          *content;
  GDateTime        *created_at;
  GListStore       *tool_calls;
  char             *tool_call_id;
  AkcLineage       *lineage;
  AkcMessageRole    role;
  AkcMessageStatus  status;
  gboolean          stopped;
  AkcUsage         *usage;
  AkcDiagnostic    *error;
  GListStore       *attachments;
};

G_DEFINE_FINAL_TYPE (AkcMessage, akc_message, G_TYPE_OBJECT)

enum {
  PROP_0,
  PROP_ID,
  PROP_ROLE,
  PROP_CONTENT,
  PROP_STATUS,
  PROP_CREATED_AT,
  PROP_STOPPED,
  PROP_LINEAGE,
  PROP_TOOL_CALL_ID,
  PROP_TOOL_CALLS,
  PROP_USAGE,
  PROP_ERROR,
  N_PROPS
};

static GParamSpec *props[N_PROPS];

static void
akc_message_finalize (GObject *object)
{
  AkcMessage *self = (AkcMessage *)object;

  g_clear_pointer (&self->id, g_free);
  g_string_free (self->content, TRUE);
  g_clear_pointer (&self->created_at, g_date_time_unref);
  g_clear_object (&self->tool_calls);
  g_clear_pointer (&self->tool_call_id, g_free);
  g_clear_pointer (&self->lineage, akc_lineage_unref);
  g_clear_pointer (&self->usage, akc_usage_free);
  g_clear_pointer (&self->error, akc_diagnostic_unref);
  g_clear_object (&self->attachments);

  G_OBJECT_CLASS (akc_message_parent_class)->finalize (object);
}

static void
akc_message_get_property (GObject    *object,
                          guint       prop_id,
                          GValue     *value,
                          GParamSpec *pspec)
{
  AkcMessage *self = AKC_MESSAGE (object);

  switch (prop_id)
    {
    case PROP_ID:
      g_value_set_string (value, self->id);
      break;
    case PROP_ROLE:
      g_value_set_enum (value, self->role);
      break;
    case PROP_CONTENT:
      g_value_set_string (value, self->content->str);
      break;
    case PROP_STATUS:
      g_value_set_enum (value, self->status);
      break;
    case PROP_CREATED_AT:
      g_value_set_boxed (value, self->created_at);
      break;
    case PROP_STOPPED:
      g_value_set_boolean (value, self->stopped);
      break;
    case PROP_USAGE:
      g_value_set_boxed (value, self->usage);
      break;
    case PROP_ERROR:
      g_value_set_boxed (value, self->error);
      break;
    case PROP_LINEAGE:
      g_value_set_boxed (value, self->lineage);
      break;
    case PROP_TOOL_CALL_ID:
      g_value_set_string (value, self->tool_call_id);
      break;
    case PROP_TOOL_CALLS:
      g_value_set_object (value, self->tool_calls);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
akc_message_set_property (GObject      *object,
                          guint         prop_id,
                          const GValue *value,
                          GParamSpec   *pspec)
{
  AkcMessage *self = AKC_MESSAGE (object);

  switch (prop_id)
    {
    case PROP_ID:
      g_free (self->id);
      self->id = g_value_dup_string (value);
      break;
    case PROP_ROLE:
      self->role = g_value_get_enum (value);
      break;
    case PROP_CONTENT:
      akc_message_set_content (self, g_value_get_string (value));
      break;
    case PROP_STATUS:
      akc_message_set_status (self, g_value_get_enum (value));
      break;
    case PROP_CREATED_AT:
      g_clear_pointer (&self->created_at, g_date_time_unref);
      self->created_at = g_value_dup_boxed (value);
      break;
    case PROP_STOPPED:
      akc_message_set_stopped (self, g_value_get_boolean (value));
      break;
    case PROP_USAGE:
      akc_message_set_usage (self, g_value_get_boxed (value));
      break;
    case PROP_ERROR:
      akc_message_set_error (self, g_value_get_boxed (value));
      break;
    case PROP_LINEAGE:
      akc_message_set_lineage (self, g_value_get_boxed (value));
      break;
    case PROP_TOOL_CALL_ID:
      g_free (self->tool_call_id);
      self->tool_call_id = g_value_dup_string (value);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
akc_message_constructed (GObject *object)
{
  AkcMessage *self = (AkcMessage *)object;

  G_OBJECT_CLASS (akc_message_parent_class)->constructed (object);

  if (self->id == NULL)
    self->id = g_uuid_string_random ();
  if (self->created_at == NULL)
    self->created_at = g_date_time_new_now_utc ();
}

static void
akc_message_class_init (AkcMessageClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->finalize = akc_message_finalize;
  object_class->get_property = akc_message_get_property;
  object_class->set_property = akc_message_set_property;
  object_class->constructed = akc_message_constructed;

  /**
   * AkcMessage:id:
   *
   * The stable identifier of the message. A random UUID when none is given.
   *
   * Since: 0.1
   */
  props[PROP_ID] =
    g_param_spec_string ("id", NULL, NULL,
                         NULL,
                         (G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS));

  /**
   * AkcMessage:role:
   *
   * Who wrote the message.
   *
   * Since: 0.1
   */
  props[PROP_ROLE] =
    g_param_spec_enum ("role", NULL, NULL,
                       AKC_TYPE_MESSAGE_ROLE,
                       AKC_MESSAGE_ROLE_USER,
                       (G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS));

  /**
   * AkcMessage:content:
   *
   * The text of the message. Grows while a reply streams in.
   *
   * Since: 0.1
   */
  props[PROP_CONTENT] =
    g_param_spec_string ("content", NULL, NULL,
                         "",
                         (G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));

  /**
   * AkcMessage:status:
   *
   * Where the message is in its life.
   *
   * Since: 0.1
   */
  props[PROP_STATUS] =
    g_param_spec_enum ("status", NULL, NULL,
                       AKC_TYPE_MESSAGE_STATUS,
                       AKC_MESSAGE_STATUS_COMPLETE,
                       (G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));

  /**
   * AkcMessage:created-at:
   *
   * When the message was created. Now, when none is given.
   *
   * Since: 0.1
   */
  props[PROP_CREATED_AT] =
    g_param_spec_boxed ("created-at", NULL, NULL,
                        G_TYPE_DATE_TIME,
                        (G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS));

  /**
   * AkcMessage:stopped:
   *
   * Whether the reply was stopped before the adapter finished it. A
   * stopped reply is %AKC_MESSAGE_STATUS_COMPLETE, as on the wire, and
   * keeps what arrived before the stop.
   *
   * Since: 0.1
   */
  props[PROP_STOPPED] =
    g_param_spec_boolean ("stopped", NULL, NULL,
                          FALSE,
                          (G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));

  /**
   * AkcMessage:lineage:
   *
   * The operation that produced the reply, or %NULL for messages that are
   * not replies (user, tool and proposal messages).
   *
   * Since: 0.1
   */
  props[PROP_LINEAGE] =
    g_param_spec_boxed ("lineage", NULL, NULL,
                        AKC_TYPE_LINEAGE,
                        (G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));

  /**
   * AkcMessage:tool-call-id:
   *
   * For a tool message, the id of the [class@ToolCall] it answers;
   * otherwise %NULL.
   *
   * Since: 0.1
   */
  props[PROP_TOOL_CALL_ID] =
    g_param_spec_string ("tool-call-id", NULL, NULL,
                         NULL,
                         (G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS));

  /**
   * AkcMessage:tool-calls:
   *
   * The tool calls of the message, a #GListModel of [class@ToolCall] in
   * order. The model is the same object for the life of the message.
   *
   * Since: 0.1
   */
  props[PROP_TOOL_CALLS] =
    g_param_spec_object ("tool-calls", NULL, NULL,
                         G_TYPE_LIST_MODEL,
                         (G_PARAM_READABLE | G_PARAM_STATIC_STRINGS));

  /**
   * AkcMessage:usage:
   *
   * The tokens the reply cost, as its adapter reported them (the usage
   * chunks of its turn added up), or %NULL when none were reported.
   *
   * Since: 0.1
   */
  props[PROP_USAGE] =
    g_param_spec_boxed ("usage", NULL, NULL,
                        AKC_TYPE_USAGE,
                        (G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));

  /**
   * AkcMessage:error:
   *
   * Why the turn that produced the reply failed (its status is
   * %AKC_MESSAGE_STATUS_ERROR), as the chat said it then, or %NULL. It is
   * kept with the message in the history, so a failed reply still says
   * what went wrong after a restart; it is not part of the wire message.
   *
   * Since: 0.1
   */
  props[PROP_ERROR] =
    g_param_spec_boxed ("error", NULL, NULL,
                        AKC_TYPE_DIAGNOSTIC,
                        (G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));

  g_object_class_install_properties (object_class, N_PROPS, props);
}

static void
akc_message_init (AkcMessage *self)
{
  self->content = g_string_new (NULL);
  self->tool_calls = g_list_store_new (AKC_TYPE_TOOL_CALL);
  self->attachments = g_list_store_new (AKC_TYPE_ATTACHMENT);
  self->status = AKC_MESSAGE_STATUS_COMPLETE;
}

/**
 * akc_message_new:
 * @id: (nullable): the message id, or %NULL for a random one
 * @role: who wrote the message
 * @content: (nullable): the initial text
 * @status: the initial status
 *
 * Creates a new message.
 *
 * Returns: (transfer full): a new #AkcMessage
 *
 * Since: 0.1
 */
AkcMessage *
akc_message_new (const char       *id,
                 AkcMessageRole    role,
                 const char       *content,
                 AkcMessageStatus  status)
{
  return g_object_new (AKC_TYPE_MESSAGE,
                       "id", id,
                       "role", role,
                       "content", content,
                       "status", status,
                       NULL);
}

/**
 * akc_message_get_id:
 * @self: a #AkcMessage
 *
 * Gets the message id.
 *
 * Returns: (transfer none): the id
 *
 * Since: 0.1
 */
const char *
akc_message_get_id (AkcMessage *self)
{
  g_return_val_if_fail (AKC_IS_MESSAGE (self), NULL);

  return self->id;
}

/**
 * akc_message_get_role:
 * @self: a #AkcMessage
 *
 * Gets who wrote the message.
 *
 * Returns: the role
 *
 * Since: 0.1
 */
AkcMessageRole
akc_message_get_role (AkcMessage *self)
{
  g_return_val_if_fail (AKC_IS_MESSAGE (self), AKC_MESSAGE_ROLE_USER);

  return self->role;
}

/**
 * akc_message_get_content:
 * @self: a #AkcMessage
 *
 * Gets the text of the message. It may hold U+0000; use
 * [method@Message.get_content_length] for its full byte length.
 *
 * Returns: (transfer none): the content
 *
 * Since: 0.1
 */
const char *
akc_message_get_content (AkcMessage *self)
{
  g_return_val_if_fail (AKC_IS_MESSAGE (self), NULL);

  return self->content->str;
}

/**
 * akc_message_get_content_length:
 * @self: a #AkcMessage
 *
 * Gets the length of the content in bytes.
 *
 * Returns: the byte length of [property@Message:content]
 *
 * Since: 0.1
 */
gsize
akc_message_get_content_length (AkcMessage *self)
{
  g_return_val_if_fail (AKC_IS_MESSAGE (self), 0);

  return self->content->len;
}

/**
 * akc_message_set_content:
 * @self: a #AkcMessage
 * @content: (nullable): the new text
 *
 * Replaces the text of the message.
 *
 * Since: 0.1
 */
void
akc_message_set_content (AkcMessage *self,
                         const char *content)
{
  g_return_if_fail (AKC_IS_MESSAGE (self));

  if (content == NULL)
    content = "";

  if (g_strcmp0 (self->content->str, content) == 0 && strlen (content) == self->content->len)
    return;

  g_string_assign (self->content, content);
  g_object_notify_by_pspec (G_OBJECT (self), props[PROP_CONTENT]);
}

/**
 * akc_message_append_content:
 * @self: a #AkcMessage
 * @text: the text to append
 * @length: the length of @text in bytes, or -1 if it is nul-terminated
 *
 * Appends streamed text to the message. The cost is that of @text alone,
 * not of the whole content.
 *
 * Since: 0.1
 */
void
akc_message_append_content (AkcMessage *self,
                            const char *text,
                            gssize      length)
{
  g_return_if_fail (AKC_IS_MESSAGE (self));
  g_return_if_fail (text != NULL || length == 0);

  if (length < 0)
    length = strlen (text);
  if (length == 0)
    return;

  g_string_append_len (self->content, text, length);
  g_object_notify_by_pspec (G_OBJECT (self), props[PROP_CONTENT]);
}

/**
 * akc_message_append_content_utf8: (rename-to akc_message_append_content)
 * @self: a #AkcMessage
 * @text: the text to append
 *
 * Does what akc_message_append_content() does, for NUL-terminated @text:
 * the form bindings see.
 *
 *
 * Since: 0.1
 */
void
akc_message_append_content_utf8 (AkcMessage *self,
                                 const char *text)
{
  akc_message_append_content (self, text, -1);
}

/**
 * akc_message_get_status:
 * @self: a #AkcMessage
 *
 * Gets where the message is in its life.
 *
 * Returns: the status
 *
 * Since: 0.1
 */
AkcMessageStatus
akc_message_get_status (AkcMessage *self)
{
  g_return_val_if_fail (AKC_IS_MESSAGE (self), AKC_MESSAGE_STATUS_COMPLETE);

  return self->status;
}

/**
 * akc_message_set_status:
 * @self: a #AkcMessage
 * @status: the new status
 *
 * Sets where the message is in its life.
 *
 * Since: 0.1
 */
void
akc_message_set_status (AkcMessage       *self,
                        AkcMessageStatus  status)
{
  g_return_if_fail (AKC_IS_MESSAGE (self));

  if (self->status == status)
    return;

  self->status = status;
  g_object_notify_by_pspec (G_OBJECT (self), props[PROP_STATUS]);
}

/**
 * akc_message_get_created_at:
 * @self: a #AkcMessage
 *
 * Gets when the message was created.
 *
 * Returns: (transfer none): the creation time, in UTC
 *
 * Since: 0.1
 */
GDateTime *
akc_message_get_created_at (AkcMessage *self)
{
  g_return_val_if_fail (AKC_IS_MESSAGE (self), NULL);

  return self->created_at;
}

/**
 * akc_message_get_stopped:
 * @self: a #AkcMessage
 *
 * Gets whether the reply was stopped before it finished.
 *
 * Returns: %TRUE if the reply was stopped
 *
 * Since: 0.1
 */
gboolean
akc_message_get_stopped (AkcMessage *self)
{
  g_return_val_if_fail (AKC_IS_MESSAGE (self), FALSE);

  return self->stopped;
}

/**
 * akc_message_set_stopped:
 * @self: a #AkcMessage
 * @stopped: whether the reply was stopped
 *
 * Sets whether the reply was stopped before it finished.
 *
 * Since: 0.1
 */
void
akc_message_set_stopped (AkcMessage *self,
                         gboolean    stopped)
{
  g_return_if_fail (AKC_IS_MESSAGE (self));

  stopped = !!stopped;
  if (self->stopped == stopped)
    return;

  self->stopped = stopped;
  g_object_notify_by_pspec (G_OBJECT (self), props[PROP_STOPPED]);
}

/**
 * akc_message_get_attachments:
 * @self: a #AkcMessage
 *
 * Gets the images and text files sent with the message, in order. The
 * model is the same object for the life of the message.
 *
 * Returns: (transfer none): a #GListModel of [class@Attachment]
 *
 * Since: 0.1
 */
GListModel *
akc_message_get_attachments (AkcMessage *self)
{
  g_return_val_if_fail (AKC_IS_MESSAGE (self), NULL);

  return G_LIST_MODEL (self->attachments);
}

/**
 * akc_message_add_attachment:
 * @self: a #AkcMessage
 * @attachment: an attachment
 *
 * Adds @attachment at the end of [method@Message.get_attachments].
 *
 * Since: 0.1
 */
void
akc_message_add_attachment (AkcMessage    *self,
                            AkcAttachment *attachment)
{
  g_return_if_fail (AKC_IS_MESSAGE (self));
  g_return_if_fail (AKC_IS_ATTACHMENT (attachment));

  g_list_store_append (self->attachments, attachment);
}

/**
 * akc_message_get_usage:
 * @self: a #AkcMessage
 *
 * Gets the tokens the reply cost.
 *
 * Returns: (transfer none) (nullable): the usage, or %NULL when none was
 *   reported
 *
 * Since: 0.1
 */
const AkcUsage *
akc_message_get_usage (AkcMessage *self)
{
  g_return_val_if_fail (AKC_IS_MESSAGE (self), NULL);

  return self->usage;
}

/**
 * akc_message_set_usage:
 * @self: a #AkcMessage
 * @usage: (nullable): the usage, or %NULL for none
 *
 * Sets the tokens the reply cost.
 *
 * Since: 0.1
 */
void
akc_message_set_usage (AkcMessage     *self,
                       const AkcUsage *usage)
{
  g_return_if_fail (AKC_IS_MESSAGE (self));

  if (self->usage == NULL && usage == NULL)
    return;
  if (self->usage != NULL && usage != NULL && akc_usage_equal (self->usage, usage))
    return;

  g_clear_pointer (&self->usage, akc_usage_free);
  if (usage != NULL)
    self->usage = akc_usage_copy (usage);
  g_object_notify_by_pspec (G_OBJECT (self), props[PROP_USAGE]);
}

/**
 * akc_message_get_error:
 * @self: a #AkcMessage
 *
 * Gets why the turn that produced the reply failed.
 *
 * Returns: (transfer none) (nullable): the error, or %NULL
 *
 * Since: 0.1
 */
AkcDiagnostic *
akc_message_get_error (AkcMessage *self)
{
  g_return_val_if_fail (AKC_IS_MESSAGE (self), NULL);

  return self->error;
}

/**
 * akc_message_set_error:
 * @self: a #AkcMessage
 * @error: (nullable): why the turn failed, or %NULL for none
 *
 * Sets why the turn that produced the reply failed.
 *
 * Since: 0.1
 */
void
akc_message_set_error (AkcMessage    *self,
                       AkcDiagnostic *error)
{
  g_return_if_fail (AKC_IS_MESSAGE (self));

  if (self->error == error ||
      (self->error != NULL && error != NULL && akc_diagnostic_equal (self->error, error)))
    return;

  g_clear_pointer (&self->error, akc_diagnostic_unref);
  if (error != NULL)
    self->error = akc_diagnostic_ref (error);
  g_object_notify_by_pspec (G_OBJECT (self), props[PROP_ERROR]);
}

/**
 * akc_message_get_lineage:
 * @self: a #AkcMessage
 *
 * Gets the operation that produced the reply.
 *
 * Returns: (transfer none) (nullable): the lineage
 *
 * Since: 0.1
 */
AkcLineage *
akc_message_get_lineage (AkcMessage *self)
{
  g_return_val_if_fail (AKC_IS_MESSAGE (self), NULL);

  return self->lineage;
}

/**
 * akc_message_set_lineage:
 * @self: a #AkcMessage
 * @lineage: (nullable): the lineage
 *
 * Sets the operation that produced the reply.
 *
 * Since: 0.1
 */
void
akc_message_set_lineage (AkcMessage *self,
                         AkcLineage *lineage)
{
  g_return_if_fail (AKC_IS_MESSAGE (self));

  if (self->lineage == lineage ||
      (self->lineage != NULL && lineage != NULL && akc_lineage_equal (self->lineage, lineage)))
    return;

  g_clear_pointer (&self->lineage, akc_lineage_unref);
  if (lineage != NULL)
    self->lineage = akc_lineage_ref (lineage);
  g_object_notify_by_pspec (G_OBJECT (self), props[PROP_LINEAGE]);
}

/**
 * akc_message_get_tool_call_id:
 * @self: a #AkcMessage
 *
 * Gets the id of the tool call a tool message answers.
 *
 * Returns: (transfer none) (nullable): the tool call id
 *
 * Since: 0.1
 */
const char *
akc_message_get_tool_call_id (AkcMessage *self)
{
  g_return_val_if_fail (AKC_IS_MESSAGE (self), NULL);

  return self->tool_call_id;
}

/**
 * akc_message_get_tool_calls:
 * @self: a #AkcMessage
 *
 * Gets the tool calls of the message.
 *
 * Returns: (transfer none): a #GListModel of [class@ToolCall]
 *
 * Since: 0.1
 */
GListModel *
akc_message_get_tool_calls (AkcMessage *self)
{
  g_return_val_if_fail (AKC_IS_MESSAGE (self), NULL);

  return G_LIST_MODEL (self->tool_calls);
}

/**
 * akc_message_add_tool_call:
 * @self: a #AkcMessage
 * @tool_call: the tool call
 *
 * Appends a tool call to the message. The tool calls model emits
 * [signal@Gio.ListModel::items-changed] for the one new item.
 *
 * Since: 0.1
 */
void
akc_message_add_tool_call (AkcMessage  *self,
                           AkcToolCall *tool_call)
{
  g_return_if_fail (AKC_IS_MESSAGE (self));
  g_return_if_fail (AKC_IS_TOOL_CALL (tool_call));

  g_list_store_append (self->tool_calls, tool_call);
}

/**
 * akc_message_find_tool_call:
 * @self: a #AkcMessage
 * @tool_call_id: a tool call id
 *
 * Finds a tool call of the message by its id.
 *
 * Returns: (transfer none) (nullable): the tool call, or %NULL
 *
 * Since: 0.1
 */
AkcToolCall *
akc_message_find_tool_call (AkcMessage *self,
                            const char *tool_call_id)
{
  guint n;

  g_return_val_if_fail (AKC_IS_MESSAGE (self), NULL);
  g_return_val_if_fail (tool_call_id != NULL, NULL);

  n = g_list_model_get_n_items (G_LIST_MODEL (self->tool_calls));
  for (guint i = 0; i < n; i++)
    {
      g_autoptr(AkcToolCall) call = g_list_model_get_item (G_LIST_MODEL (self->tool_calls), i);

      if (g_strcmp0 (akc_tool_call_get_id (call), tool_call_id) == 0)
        return call; /* the store keeps it alive */
    }

  return NULL;
}
