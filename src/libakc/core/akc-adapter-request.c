/* akc-adapter-request.c
 *
 * SPDX-License-Identifier: MIT
 */

#include "config.h"

#include "akc-adapter-request.h"

/**
 * AkcAdapterRequest:
 *
 * What an [iface@Adapter] is asked to answer.
 *
 * A request carries the conversation (for a [class@Chat], ending with the
 * empty reply being written), and the
 * context the reference implementation passes beside it: the id of the
 * session the turn belongs to (%NULL when the caller has no session; the
 * session-aware adapters then use `unscoped`), an optional system prompt,
 * and a metadata object that layers in front of an adapter use to talk to
 * the adapter behind them — the deterministic answer plane hands its
 * escalation to a backend as the `agentskit.chat.escalation` member.
 *
 * A request is immutable. A layer that needs to change something makes a
 * new request with [method@AdapterRequest.with_session_id] or
 * [method@AdapterRequest.with_metadata_member], which keep everything else.
 *
 * Since: 0.1
 */

struct _AkcAdapterRequest
{
  GObject       parent_instance;

  GListModel   *messages;
  char         *session_id;
  char         *system_prompt;
  AkcJsonValue *metadata;
  AkcMessage   *latest_user;
};

G_DEFINE_FINAL_TYPE (AkcAdapterRequest, akc_adapter_request, G_TYPE_OBJECT)

enum {
  PROP_0,
  PROP_MESSAGES,
  PROP_SESSION_ID,
  PROP_SYSTEM_PROMPT,
  PROP_METADATA,
  N_PROPS
};

static GParamSpec *props[N_PROPS];

static void
akc_adapter_request_constructed (GObject *object)
{
  AkcAdapterRequest *self = AKC_ADAPTER_REQUEST (object);
  guint n;

  G_OBJECT_CLASS (akc_adapter_request_parent_class)->constructed (object);

  if (self->messages == NULL)
    self->messages = G_LIST_MODEL (g_list_store_new (AKC_TYPE_MESSAGE));

  n = g_list_model_get_n_items (self->messages);
  for (guint i = n; i > 0; i--)
    {
      g_autoptr(AkcMessage) message = g_list_model_get_item (self->messages, i - 1);

      if (akc_message_get_role (message) == AKC_MESSAGE_ROLE_USER)
        {
          self->latest_user = g_steal_pointer (&message);
          break;
        }
    }
}

static void
akc_adapter_request_finalize (GObject *object)
{
  AkcAdapterRequest *self = AKC_ADAPTER_REQUEST (object);

  g_clear_object (&self->messages);
  g_clear_object (&self->latest_user);
  g_clear_pointer (&self->session_id, g_free);
  g_clear_pointer (&self->system_prompt, g_free);
  g_clear_pointer (&self->metadata, akc_json_value_unref);

  G_OBJECT_CLASS (akc_adapter_request_parent_class)->finalize (object);
}

static void
akc_adapter_request_get_property (GObject    *object,
                                  guint       prop_id,
                                  GValue     *value,
                                  GParamSpec *pspec)
{
  AkcAdapterRequest *self = AKC_ADAPTER_REQUEST (object);

  switch (prop_id)
    {
    case PROP_MESSAGES:
      g_value_set_object (value, self->messages);
      break;
    case PROP_SESSION_ID:
      g_value_set_string (value, self->session_id);
      break;
    case PROP_SYSTEM_PROMPT:
      g_value_set_string (value, self->system_prompt);
      break;
    case PROP_METADATA:
      g_value_set_boxed (value, self->metadata);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
akc_adapter_request_set_property (GObject      *object,
                                  guint         prop_id,
                                  const GValue *value,
                                  GParamSpec   *pspec)
{
  AkcAdapterRequest *self = AKC_ADAPTER_REQUEST (object);

  switch (prop_id)
    {
    case PROP_MESSAGES:
      {
        GListModel *messages = g_value_get_object (value);

        if (messages != NULL && g_list_model_get_item_type (messages) != AKC_TYPE_MESSAGE)
          g_critical ("An adapter request's messages must be a list of AkcMessage");
        else
          g_set_object (&self->messages, messages);
      }
      break;
    case PROP_SESSION_ID:
      self->session_id = g_value_dup_string (value);
      break;
    case PROP_SYSTEM_PROMPT:
      self->system_prompt = g_value_dup_string (value);
      break;
    case PROP_METADATA:
      {
        AkcJsonValue *metadata = g_value_get_boxed (value);

        if (metadata != NULL && akc_json_value_get_kind (metadata) != AKC_JSON_KIND_OBJECT)
          g_critical ("An adapter request's metadata must be a JSON object");
        else
          self->metadata = metadata != NULL ? akc_json_value_ref (metadata) : NULL;
      }
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
akc_adapter_request_class_init (AkcAdapterRequestClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->constructed = akc_adapter_request_constructed;
  object_class->finalize = akc_adapter_request_finalize;
  object_class->get_property = akc_adapter_request_get_property;
  object_class->set_property = akc_adapter_request_set_property;

  /**
   * AkcAdapterRequest:messages:
   *
   * The conversation, a #GListModel of [class@Message]. A request made
   * by [class@Chat] ends with the reply being written, an assistant
   * message that has no content yet.
   *
   * Since: 0.1
   */
  props[PROP_MESSAGES] =
    g_param_spec_object ("messages", NULL, NULL,
                         G_TYPE_LIST_MODEL,
                         (G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS));

  /**
   * AkcAdapterRequest:session-id:
   *
   * The id of the session the turn belongs to, or %NULL when there is
   * none.
   *
   * Since: 0.1
   */
  props[PROP_SESSION_ID] =
    g_param_spec_string ("session-id", NULL, NULL,
                         NULL,
                         (G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS));

  /**
   * AkcAdapterRequest:system-prompt:
   *
   * The system prompt to give the model, or %NULL.
   *
   * Since: 0.1
   */
  props[PROP_SYSTEM_PROMPT] =
    g_param_spec_string ("system-prompt", NULL, NULL,
                         NULL,
                         (G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS));

  /**
   * AkcAdapterRequest:metadata:
   *
   * A JSON object of request metadata, or %NULL.
   *
   * Since: 0.1
   */
  props[PROP_METADATA] =
    g_param_spec_boxed ("metadata", NULL, NULL,
                        AKC_TYPE_JSON_VALUE,
                        (G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS));

  g_object_class_install_properties (object_class, N_PROPS, props);
}

static void
akc_adapter_request_init (AkcAdapterRequest *self)
{
}

/**
 * akc_adapter_request_new:
 * @messages: (nullable): a #GListModel of [class@Message], the conversation
 * @session_id: (nullable): the session the turn belongs to
 * @system_prompt: (nullable): a system prompt
 * @metadata: (nullable): a JSON object of request metadata
 *
 * Creates a request. The request keeps a reference on @messages, which
 * must not change afterwards.
 *
 * Returns: (transfer full): a new #AkcAdapterRequest
 *
 * Since: 0.1
 */
AkcAdapterRequest *
akc_adapter_request_new (GListModel   *messages,
                         const char   *session_id,
                         const char   *system_prompt,
                         AkcJsonValue *metadata)
{
  g_return_val_if_fail (messages == NULL || G_IS_LIST_MODEL (messages), NULL);
  g_return_val_if_fail (messages == NULL ||
                        g_list_model_get_item_type (messages) == AKC_TYPE_MESSAGE, NULL);
  g_return_val_if_fail (metadata == NULL ||
                        akc_json_value_get_kind (metadata) == AKC_JSON_KIND_OBJECT, NULL);

  return g_object_new (AKC_TYPE_ADAPTER_REQUEST,
                       "messages", messages,
                       "session-id", session_id,
                       "system-prompt", system_prompt,
                       "metadata", metadata,
                       NULL);
}

/**
 * akc_adapter_request_get_messages:
 * @self: a #AkcAdapterRequest
 *
 * Gets the conversation the adapter answers.
 *
 * Returns: (transfer none): a #GListModel of [class@Message]
 *
 * Since: 0.1
 */
GListModel *
akc_adapter_request_get_messages (AkcAdapterRequest *self)
{
  g_return_val_if_fail (AKC_IS_ADAPTER_REQUEST (self), NULL);

  return self->messages;
}

/**
 * akc_adapter_request_get_session_id:
 * @self: a #AkcAdapterRequest
 *
 * Gets the id of the session the turn belongs to.
 *
 * Returns: (nullable): the session id, or %NULL when there is none
 *
 * Since: 0.1
 */
const char *
akc_adapter_request_get_session_id (AkcAdapterRequest *self)
{
  g_return_val_if_fail (AKC_IS_ADAPTER_REQUEST (self), NULL);

  return self->session_id;
}

/**
 * akc_adapter_request_get_system_prompt:
 * @self: a #AkcAdapterRequest
 *
 * Gets the system prompt.
 *
 * Returns: (nullable): the system prompt, or %NULL
 *
 * Since: 0.1
 */
const char *
akc_adapter_request_get_system_prompt (AkcAdapterRequest *self)
{
  g_return_val_if_fail (AKC_IS_ADAPTER_REQUEST (self), NULL);

  return self->system_prompt;
}

/**
 * akc_adapter_request_get_metadata:
 * @self: a #AkcAdapterRequest
 *
 * Gets the request metadata.
 *
 * Returns: (transfer none) (nullable): a JSON object, or %NULL
 *
 * Since: 0.1
 */
AkcJsonValue *
akc_adapter_request_get_metadata (AkcAdapterRequest *self)
{
  g_return_val_if_fail (AKC_IS_ADAPTER_REQUEST (self), NULL);

  return self->metadata;
}

/**
 * akc_adapter_request_get_latest_user_message:
 * @self: a #AkcAdapterRequest
 *
 * Gets the last message of the request whose role is user: the question
 * the reply answers.
 *
 * Returns: (transfer none) (nullable): the latest user message, or %NULL
 *   when the request has none
 *
 * Since: 0.1
 */
AkcMessage *
akc_adapter_request_get_latest_user_message (AkcAdapterRequest *self)
{
  g_return_val_if_fail (AKC_IS_ADAPTER_REQUEST (self), NULL);

  return self->latest_user;
}

/**
 * akc_adapter_request_with_session_id:
 * @self: a #AkcAdapterRequest
 * @session_id: (nullable): the session id of the new request
 *
 * Makes a request like @self for another session.
 *
 * Returns: (transfer full): a new #AkcAdapterRequest
 *
 * Since: 0.1
 */
AkcAdapterRequest *
akc_adapter_request_with_session_id (AkcAdapterRequest *self,
                                     const char        *session_id)
{
  g_return_val_if_fail (AKC_IS_ADAPTER_REQUEST (self), NULL);

  return akc_adapter_request_new (self->messages, session_id,
                                  self->system_prompt, self->metadata);
}

/**
 * akc_adapter_request_with_metadata_member:
 * @self: a #AkcAdapterRequest
 * @name: a metadata member name
 * @value: (nullable): its new value, or %NULL to remove the member
 *
 * Makes a request like @self whose metadata has @name set to @value. The
 * other members keep their order; a new member comes last.
 *
 * Returns: (transfer full): a new #AkcAdapterRequest
 *
 * Since: 0.1
 */
AkcAdapterRequest *
akc_adapter_request_with_metadata_member (AkcAdapterRequest *self,
                                          const char        *name,
                                          AkcJsonValue      *value)
{
  g_autoptr(GPtrArray) names = NULL;
  g_autoptr(GPtrArray) values = NULL;
  g_autoptr(AkcJsonValue) metadata = NULL;
  gsize n = 0;
  gboolean replaced = FALSE;

  g_return_val_if_fail (AKC_IS_ADAPTER_REQUEST (self), NULL);
  g_return_val_if_fail (name != NULL, NULL);

  names = g_ptr_array_new ();
  values = g_ptr_array_new ();

  if (self->metadata != NULL)
    n = akc_json_value_get_member_count (self->metadata);

  for (gsize i = 0; i < n; i++)
    {
      const char *member = akc_json_value_get_member_name (self->metadata, i, NULL);

      if (g_strcmp0 (member, name) == 0)
        {
          replaced = TRUE;
          if (value == NULL)
            continue;
          g_ptr_array_add (names, (gpointer) member);
          g_ptr_array_add (values, value);
        }
      else
        {
          g_ptr_array_add (names, (gpointer) member);
          g_ptr_array_add (values, akc_json_value_get_member_value (self->metadata, i));
        }
    }

  if (!replaced && value != NULL)
    {
      g_ptr_array_add (names, (gpointer) name);
      g_ptr_array_add (values, value);
    }

  g_ptr_array_add (names, NULL);
  metadata = akc_json_value_new_object ((const char * const *) names->pdata,
                                        (AkcJsonValue * const *) values->pdata,
                                        values->len);

  return akc_adapter_request_new (self->messages, self->session_id,
                                  self->system_prompt, metadata);
}
