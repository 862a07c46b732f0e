/* akc-chat.c
 *
 * SPDX-License-Identifier: MIT
 */

#include "config.h"

#include <glib/gi18n-lib.h>

#include "akc-chat.h"
#include "akc-chunk.h"
#include "akc-message.h"

/**
 * AkcChat:
 *
 * A conversation owned by the application: the local controller.
 *
 * `AkcChat` implements [iface@ChatSource] over an [iface@Adapter]. Sending
 * appends the user message and an assistant message, then streams the
 * adapter's chunks into the assistant message. [method@ChatSource.stop]
 * cancels the turn; chunks that arrive later never change the
 * conversation. A failed turn leaves the assistant message in
 * %AKC_MESSAGE_STATUS_ERROR and sets [property@ChatSource:error] to a
 * message that is safe to show; it can be retried.
 */

struct _AkcChat
{
  GObject        parent_instance;

  AkcAdapter    *adapter;
  GListStore    *messages;
  GError        *error;
  char          *input;

  /* The turn in flight, if any. */
  AkcStream     *stream;
  AkcMessage    *reply;
  gulong         chunk_handler;

  AkcChatStatus  status;
};

static void akc_chat_source_iface_init (AkcChatSourceInterface *iface);

G_DEFINE_FINAL_TYPE_WITH_CODE (AkcChat, akc_chat, G_TYPE_OBJECT,
                               G_IMPLEMENT_INTERFACE (AKC_TYPE_CHAT_SOURCE, akc_chat_source_iface_init))

enum {
  PROP_0,
  PROP_ADAPTER,
  N_PROPS,

  PROP_MESSAGES = N_PROPS,
  PROP_STATUS,
  PROP_ERROR,
  PROP_INPUT,
};

static GParamSpec *props[N_PROPS];

static void
akc_chat_set_status (AkcChat       *self,
                     AkcChatStatus  status)
{
  if (self->status == status)
    return;

  self->status = status;
  g_object_notify (G_OBJECT (self), "status");
}

static void
akc_chat_take_error (AkcChat *self,
                     GError  *error)
{
  if (self->error == NULL && error == NULL)
    return;

  g_clear_error (&self->error);
  self->error = error;
  g_object_notify (G_OBJECT (self), "error");
}

/* Ends the turn in flight: the stream stops delivering, and the reply keeps
 * what it has with the given final status. */
static void
akc_chat_end_turn (AkcChat          *self,
                   AkcMessageStatus  reply_status)
{
  g_autoptr(AkcStream) stream = g_steal_pointer (&self->stream);
  g_autoptr(AkcMessage) reply = g_steal_pointer (&self->reply);

  if (stream == NULL)
    return;

  g_clear_signal_handler (&self->chunk_handler, stream);
  akc_stream_cancel (stream);

  if (reply != NULL)
    akc_message_set_status (reply, reply_status);
}

static void
on_stream_chunk (AkcChat   *self,
                 AkcChunk  *chunk,
                 AkcStream *stream)
{
  const char *text;
  gsize length;

  g_assert (AKC_IS_CHAT (self));
  g_assert (stream == self->stream);

  switch (akc_chunk_get_kind (chunk))
    {
    case AKC_CHUNK_TEXT:
      text = akc_chunk_get_text (chunk, &length);
      akc_message_set_status (self->reply, AKC_MESSAGE_STATUS_STREAMING);
      akc_message_append_content (self->reply, text, length);
      break;

    case AKC_CHUNK_DONE:
      akc_chat_end_turn (self, AKC_MESSAGE_STATUS_COMPLETE);
      akc_chat_set_status (self, AKC_CHAT_STATUS_IDLE);
      break;

    case AKC_CHUNK_ERROR:
      text = akc_chunk_get_text (chunk, NULL);
      akc_chat_end_turn (self, AKC_MESSAGE_STATUS_ERROR);
      akc_chat_take_error (self, g_error_new_literal (AKC_CHAT_ERROR,
                                                      AKC_CHAT_ERROR_TURN_FAILED,
                                                      text != NULL && *text != '\0'
                                                        ? text
                                                        : _("The reply failed.")));
      akc_chat_set_status (self, AKC_CHAT_STATUS_ERROR);
      break;

    case AKC_CHUNK_TOOL_CALL:
    case AKC_CHUNK_METADATA:
    default:
      /* Tool calls and metadata are shown by the conversation layer that
       * knows the definition's tools; a plain chat keeps the text. */
      break;
    }
}

static GListStore *
akc_chat_copy_messages (AkcChat *self)
{
  GListStore *copy = g_list_store_new (AKC_TYPE_MESSAGE);
  guint n = g_list_model_get_n_items (G_LIST_MODEL (self->messages));
  g_autoptr(GPtrArray) items = g_ptr_array_new_full (n, g_object_unref);

  for (guint i = 0; i < n; i++)
    g_ptr_array_add (items, g_list_model_get_item (G_LIST_MODEL (self->messages), i));
  g_list_store_splice (copy, 0, 0, items->pdata, items->len);

  return copy;
}

/* Starts a reply to the conversation as it stands. */
static void
akc_chat_dispatch (AkcChat *self)
{
  g_autoptr(AkcStream) stream = NULL;
  g_autoptr(GListStore) history = NULL;

  g_assert (self->stream == NULL);

  akc_chat_take_error (self, NULL);

  /* The adapter sees the conversation up to the user's message, not the
   * reply being written. */
  history = akc_chat_copy_messages (self);

  self->reply = akc_message_new (NULL, AKC_MESSAGE_ROLE_ASSISTANT, "", AKC_MESSAGE_STATUS_PENDING);
  g_list_store_append (self->messages, self->reply);

  stream = akc_stream_new ();
  self->stream = g_object_ref (stream);
  self->chunk_handler = g_signal_connect_object (stream, "chunk",
                                                 G_CALLBACK (on_stream_chunk),
                                                 self, G_CONNECT_SWAPPED);
  akc_chat_set_status (self, AKC_CHAT_STATUS_STREAMING);

  akc_adapter_stream (self->adapter, G_LIST_MODEL (history), stream);
}

static gboolean
akc_chat_check_idle (AkcChat  *self,
                     GError  **error)
{
  if (self->status == AKC_CHAT_STATUS_STREAMING)
    {
      g_set_error_literal (error, AKC_CHAT_ERROR, AKC_CHAT_ERROR_BUSY,
                           _("A reply is still arriving. Stop it first."));
      return FALSE;
    }

  return TRUE;
}

/* Finds the position of the message with @id, or of the last message with
 * @role when @id is %NULL. */
static gboolean
akc_chat_find (AkcChat        *self,
               const char     *id,
               AkcMessageRole  role,
               guint          *position)
{
  guint n = g_list_model_get_n_items (G_LIST_MODEL (self->messages));

  for (guint i = n; i > 0; i--)
    {
      g_autoptr(AkcMessage) message = g_list_model_get_item (G_LIST_MODEL (self->messages), i - 1);

      if (akc_message_get_role (message) != role)
        continue;

      if (id == NULL || g_strcmp0 (akc_message_get_id (message), id) == 0)
        {
          *position = i - 1;
          return TRUE;
        }
    }

  return FALSE;
}

/* Finds the nearest user message before @position. */
static gboolean
akc_chat_find_before (AkcChat *self,
                      guint    position,
                      guint   *user)
{
  for (guint i = position; i > 0; i--)
    {
      g_autoptr(AkcMessage) message = g_list_model_get_item (G_LIST_MODEL (self->messages), i - 1);

      if (akc_message_get_role (message) == AKC_MESSAGE_ROLE_USER)
        {
          *user = i - 1;
          return TRUE;
        }
    }

  return FALSE;
}

static void
akc_chat_truncate (AkcChat *self,
                   guint    position)
{
  guint n = g_list_model_get_n_items (G_LIST_MODEL (self->messages));

  if (position < n)
    g_list_store_splice (self->messages, position, n - position, NULL, 0);
}

static GListModel *
akc_chat_get_messages (AkcChatSource *source)
{
  return G_LIST_MODEL (AKC_CHAT (source)->messages);
}

static AkcChatStatus
akc_chat_get_status (AkcChatSource *source)
{
  return AKC_CHAT (source)->status;
}

static const GError *
akc_chat_get_error (AkcChatSource *source)
{
  return AKC_CHAT (source)->error;
}

static gboolean
akc_chat_send (AkcChatSource  *source,
               const char     *text,
               GError        **error)
{
  AkcChat *self = AKC_CHAT (source);
  g_autoptr(AkcMessage) message = NULL;

  if (!akc_chat_check_idle (self, error))
    return FALSE;

  if (akc_is_blank_input (text))
    {
      g_set_error_literal (error, AKC_CHAT_ERROR, AKC_CHAT_ERROR_EMPTY_INPUT,
                           _("There is nothing to send."));
      return FALSE;
    }

  message = akc_message_new (NULL, AKC_MESSAGE_ROLE_USER, text, AKC_MESSAGE_STATUS_COMPLETE);
  g_list_store_append (self->messages, message);
  akc_chat_dispatch (self);

  return TRUE;
}

static void
akc_chat_stop (AkcChatSource *source)
{
  AkcChat *self = AKC_CHAT (source);

  if (self->stream == NULL)
    return;

  akc_chat_end_turn (self, AKC_MESSAGE_STATUS_CANCELLED);
  akc_chat_set_status (self, AKC_CHAT_STATUS_IDLE);
}

static gboolean
akc_chat_retry (AkcChatSource  *source,
                GError        **error)
{
  AkcChat *self = AKC_CHAT (source);
  guint position;

  if (!akc_chat_check_idle (self, error))
    return FALSE;

  if (!akc_chat_find (self, NULL, AKC_MESSAGE_ROLE_USER, &position))
    {
      g_set_error_literal (error, AKC_CHAT_ERROR, AKC_CHAT_ERROR_NO_TARGET,
                           _("There is no message to answer again."));
      return FALSE;
    }

  akc_chat_truncate (self, position + 1);
  akc_chat_dispatch (self);

  return TRUE;
}

static gboolean
akc_chat_regenerate (AkcChatSource  *source,
                     const char     *message_id,
                     GError        **error)
{
  AkcChat *self = AKC_CHAT (source);
  guint assistant, user;

  if (!akc_chat_check_idle (self, error))
    return FALSE;

  if (!akc_chat_find (self, message_id, AKC_MESSAGE_ROLE_ASSISTANT, &assistant) ||
      assistant == 0 ||
      !akc_chat_find_before (self, assistant, &user))
    {
      g_set_error_literal (error, AKC_CHAT_ERROR, AKC_CHAT_ERROR_NO_TARGET,
                           _("There is no answer to regenerate."));
      return FALSE;
    }

  akc_chat_truncate (self, user + 1);
  akc_chat_dispatch (self);

  return TRUE;
}

static gboolean
akc_chat_edit (AkcChatSource  *source,
               const char     *message_id,
               const char     *text,
               GError        **error)
{
  AkcChat *self = AKC_CHAT (source);
  g_autoptr(AkcMessage) edited = NULL;
  guint position;

  if (!akc_chat_check_idle (self, error))
    return FALSE;

  if (akc_is_blank_input (text))
    {
      g_set_error_literal (error, AKC_CHAT_ERROR, AKC_CHAT_ERROR_EMPTY_INPUT,
                           _("There is nothing to send."));
      return FALSE;
    }

  if (!akc_chat_find (self, message_id, AKC_MESSAGE_ROLE_USER, &position))
    {
      g_set_error_literal (error, AKC_CHAT_ERROR, AKC_CHAT_ERROR_NO_TARGET,
                           _("That message can no longer be edited."));
      return FALSE;
    }

  /* The edited message replaces the old one: a new message, a new row. */
  edited = akc_message_new (NULL, AKC_MESSAGE_ROLE_USER, text, AKC_MESSAGE_STATUS_COMPLETE);
  akc_chat_truncate (self, position);
  g_list_store_append (self->messages, edited);
  akc_chat_dispatch (self);

  return TRUE;
}

static void
akc_chat_clear (AkcChatSource *source)
{
  AkcChat *self = AKC_CHAT (source);

  akc_chat_end_turn (self, AKC_MESSAGE_STATUS_CANCELLED);
  g_list_store_remove_all (self->messages);
  akc_chat_take_error (self, NULL);
  akc_chat_set_status (self, AKC_CHAT_STATUS_IDLE);
}

static void
akc_chat_source_iface_init (AkcChatSourceInterface *iface)
{
  iface->get_messages = akc_chat_get_messages;
  iface->get_status = akc_chat_get_status;
  iface->get_error = akc_chat_get_error;
  iface->send = akc_chat_send;
  iface->stop = akc_chat_stop;
  iface->retry = akc_chat_retry;
  iface->regenerate = akc_chat_regenerate;
  iface->edit = akc_chat_edit;
  iface->clear = akc_chat_clear;
}

static void
akc_chat_dispose (GObject *object)
{
  AkcChat *self = (AkcChat *)object;

  akc_chat_end_turn (self, AKC_MESSAGE_STATUS_CANCELLED);
  g_clear_object (&self->adapter);

  G_OBJECT_CLASS (akc_chat_parent_class)->dispose (object);
}

static void
akc_chat_finalize (GObject *object)
{
  AkcChat *self = (AkcChat *)object;

  g_clear_object (&self->messages);
  g_clear_error (&self->error);
  g_clear_pointer (&self->input, g_free);

  G_OBJECT_CLASS (akc_chat_parent_class)->finalize (object);
}

static void
akc_chat_get_property (GObject    *object,
                       guint       prop_id,
                       GValue     *value,
                       GParamSpec *pspec)
{
  AkcChat *self = AKC_CHAT (object);

  switch (prop_id)
    {
    case PROP_ADAPTER:
      g_value_set_object (value, self->adapter);
      break;
    case PROP_MESSAGES:
      g_value_set_object (value, self->messages);
      break;
    case PROP_STATUS:
      g_value_set_enum (value, self->status);
      break;
    case PROP_ERROR:
      g_value_set_boxed (value, self->error);
      break;
    case PROP_INPUT:
      g_value_set_string (value, self->input);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
akc_chat_set_property (GObject      *object,
                       guint         prop_id,
                       const GValue *value,
                       GParamSpec   *pspec)
{
  AkcChat *self = AKC_CHAT (object);
  const char *input;

  switch (prop_id)
    {
    case PROP_ADAPTER:
      self->adapter = g_value_dup_object (value);
      break;
    case PROP_INPUT:
      input = g_value_get_string (value);
      if (input == NULL)
        input = "";
      if (g_strcmp0 (self->input, input) != 0)
        {
          g_free (self->input);
          self->input = g_strdup (input);
          g_object_notify_by_pspec (object, pspec);
        }
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
akc_chat_class_init (AkcChatClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->dispose = akc_chat_dispose;
  object_class->finalize = akc_chat_finalize;
  object_class->get_property = akc_chat_get_property;
  object_class->set_property = akc_chat_set_property;

  /**
   * AkcChat:adapter:
   *
   * The adapter that produces replies.
   */
  props[PROP_ADAPTER] =
    g_param_spec_object ("adapter", NULL, NULL,
                         AKC_TYPE_ADAPTER,
                         (G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS));

  g_object_class_install_properties (object_class, N_PROPS, props);

  g_object_class_override_property (object_class, PROP_MESSAGES, "messages");
  g_object_class_override_property (object_class, PROP_STATUS, "status");
  g_object_class_override_property (object_class, PROP_ERROR, "error");
  g_object_class_override_property (object_class, PROP_INPUT, "input");
}

static void
akc_chat_init (AkcChat *self)
{
  self->messages = g_list_store_new (AKC_TYPE_MESSAGE);
  self->input = g_strdup ("");
  self->status = AKC_CHAT_STATUS_IDLE;
}

/**
 * akc_chat_new:
 * @adapter: the adapter that produces replies
 *
 * Creates an empty conversation answered by @adapter.
 *
 * Returns: (transfer full): a new #AkcChat
 */
AkcChat *
akc_chat_new (AkcAdapter *adapter)
{
  g_return_val_if_fail (AKC_IS_ADAPTER (adapter), NULL);

  return g_object_new (AKC_TYPE_CHAT, "adapter", adapter, NULL);
}

/**
 * akc_chat_get_adapter:
 * @self: a #AkcChat
 *
 * Gets the adapter that produces replies.
 *
 * Returns: (transfer none): the adapter
 */
AkcAdapter *
akc_chat_get_adapter (AkcChat *self)
{
  g_return_val_if_fail (AKC_IS_CHAT (self), NULL);

  return self->adapter;
}
