/* akc-conversation-info.c
 *
 * SPDX-License-Identifier: MIT
 */

#include "config.h"

#include "akc-conversation-info.h"
#include "akc-conversation-info-private.h"

/**
 * AkcConversationInfo:
 *
 * What a [iface@ChatMemory] knows about one stored conversation, without
 * its messages: its id, the assistant it is held with, its title, whether
 * it is pinned, the token usage it accumulated, when it was created and
 * last changed, how many messages it holds, and, for a conversation with a
 * model provider, the provider and model it is held with.
 *
 * An info returned by the memory is a snapshot of when it was read. An
 * info in an [class@ConversationList] follows the stored conversation
 * while it stays in the list: its properties change in place, each with
 * its notification, so a row bound to it shows the new title or time.
 * Properties are changed through the memory
 * ([method@ChatMemory.update_conversation_async],
 * [method@ChatMemory.set_conversation_pinned_async],
 * [method@ChatMemory.set_conversation_model_async]), never set on an info.
 *
 * Since: 0.1
 */

struct _AkcConversationInfo
{
  GObject    parent_instance;

  char      *id;
  char      *assistant_id;
  char      *title;
  AkcUsage  *usage;
  GDateTime *created_at;
  GDateTime *updated_at;
  guint      n_messages;
  gboolean   pinned;
  char      *provider_kind;
  char      *provider_url;
  char      *model;
};

G_DEFINE_FINAL_TYPE (AkcConversationInfo, akc_conversation_info, G_TYPE_OBJECT)

enum {
  PROP_0,
  PROP_ID,
  PROP_ASSISTANT_ID,
  PROP_TITLE,
  PROP_USAGE,
  PROP_CREATED_AT,
  PROP_UPDATED_AT,
  PROP_N_MESSAGES,
  PROP_PINNED,
  PROP_PROVIDER_KIND,
  PROP_PROVIDER_URL,
  PROP_MODEL,
  N_PROPS
};

static GParamSpec *props[N_PROPS];

static void
akc_conversation_info_finalize (GObject *object)
{
  AkcConversationInfo *self = (AkcConversationInfo *)object;

  g_clear_pointer (&self->id, g_free);
  g_clear_pointer (&self->assistant_id, g_free);
  g_clear_pointer (&self->title, g_free);
  g_clear_pointer (&self->usage, akc_usage_free);
  g_clear_pointer (&self->created_at, g_date_time_unref);
  g_clear_pointer (&self->updated_at, g_date_time_unref);
  g_clear_pointer (&self->provider_kind, g_free);
  g_clear_pointer (&self->provider_url, g_free);
  g_clear_pointer (&self->model, g_free);

  G_OBJECT_CLASS (akc_conversation_info_parent_class)->finalize (object);
}

static void
akc_conversation_info_get_property (GObject    *object,
                                    guint       prop_id,
                                    GValue     *value,
                                    GParamSpec *pspec)
{
  AkcConversationInfo *self = AKC_CONVERSATION_INFO (object);

  switch (prop_id)
    {
    case PROP_ID:
      g_value_set_string (value, self->id);
      break;
    case PROP_ASSISTANT_ID:
      g_value_set_string (value, self->assistant_id);
      break;
    case PROP_PINNED:
      g_value_set_boolean (value, self->pinned);
      break;
    case PROP_TITLE:
      g_value_set_string (value, self->title);
      break;
    case PROP_USAGE:
      g_value_set_boxed (value, self->usage);
      break;
    case PROP_CREATED_AT:
      g_value_set_boxed (value, self->created_at);
      break;
    case PROP_UPDATED_AT:
      g_value_set_boxed (value, self->updated_at);
      break;
    case PROP_N_MESSAGES:
      g_value_set_uint (value, self->n_messages);
      break;
    case PROP_PROVIDER_KIND:
      g_value_set_string (value, self->provider_kind);
      break;
    case PROP_PROVIDER_URL:
      g_value_set_string (value, self->provider_url);
      break;
    case PROP_MODEL:
      g_value_set_string (value, self->model);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
akc_conversation_info_set_property (GObject      *object,
                                    guint         prop_id,
                                    const GValue *value,
                                    GParamSpec   *pspec)
{
  AkcConversationInfo *self = AKC_CONVERSATION_INFO (object);

  switch (prop_id)
    {
    case PROP_ID:
      self->id = g_value_dup_string (value);
      break;
    case PROP_ASSISTANT_ID:
      self->assistant_id = g_value_dup_string (value);
      break;
    case PROP_PINNED:
      self->pinned = g_value_get_boolean (value);
      break;
    case PROP_TITLE:
      self->title = g_value_dup_string (value);
      break;
    case PROP_USAGE:
      self->usage = g_value_dup_boxed (value);
      break;
    case PROP_CREATED_AT:
      self->created_at = g_value_dup_boxed (value);
      break;
    case PROP_UPDATED_AT:
      self->updated_at = g_value_dup_boxed (value);
      break;
    case PROP_N_MESSAGES:
      self->n_messages = g_value_get_uint (value);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
akc_conversation_info_constructed (GObject *object)
{
  AkcConversationInfo *self = (AkcConversationInfo *)object;

  G_OBJECT_CLASS (akc_conversation_info_parent_class)->constructed (object);

  if (self->id == NULL)
    self->id = g_strdup ("");
  if (self->assistant_id == NULL)
    self->assistant_id = g_strdup ("");
  if (self->title == NULL)
    self->title = g_strdup ("");
  if (self->usage == NULL)
    self->usage = akc_usage_new (0, 0, 0);
  if (self->created_at == NULL)
    self->created_at = g_date_time_new_now_utc ();
  if (self->updated_at == NULL)
    self->updated_at = g_date_time_ref (self->created_at);
}

static void
akc_conversation_info_class_init (AkcConversationInfoClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->finalize = akc_conversation_info_finalize;
  object_class->get_property = akc_conversation_info_get_property;
  object_class->set_property = akc_conversation_info_set_property;
  object_class->constructed = akc_conversation_info_constructed;

  /**
   * AkcConversationInfo:id:
   *
   * The id of the conversation.
   *
   * Since: 0.1
   */
  props[PROP_ID] =
    g_param_spec_string ("id", NULL, NULL,
                         NULL,
                         (G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS));

  /**
   * AkcConversationInfo:assistant-id:
   *
   * The id of the assistant the conversation is held with (a demo, `ask`
   * for the Ask service, `turn` for the turn server, `provider` for a model
   * provider…); empty when the history does not know it. It does not
   * change.
   *
   * Since: 0.1
   */
  props[PROP_ASSISTANT_ID] =
    g_param_spec_string ("assistant-id", NULL, NULL,
                         NULL,
                         (G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS));

  /**
   * AkcConversationInfo:pinned:
   *
   * Whether the conversation is pinned: pinned conversations are listed
   * before the others.
   *
   * Since: 0.1
   */
  props[PROP_PINNED] =
    g_param_spec_boolean ("pinned", NULL, NULL,
                          FALSE,
                          (G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_EXPLICIT_NOTIFY |
                           G_PARAM_STATIC_STRINGS));

  /**
   * AkcConversationInfo:title:
   *
   * The title of the conversation; empty when it has none.
   *
   * Since: 0.1
   */
  props[PROP_TITLE] =
    g_param_spec_string ("title", NULL, NULL,
                         NULL,
                         (G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_EXPLICIT_NOTIFY |
                         G_PARAM_STATIC_STRINGS));

  /**
   * AkcConversationInfo:usage:
   *
   * The token usage the conversation accumulated; zero when none was
   * stored.
   *
   * Since: 0.1
   */
  props[PROP_USAGE] =
    g_param_spec_boxed ("usage", NULL, NULL,
                        AKC_TYPE_USAGE,
                        (G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_EXPLICIT_NOTIFY |
                         G_PARAM_STATIC_STRINGS));

  /**
   * AkcConversationInfo:created-at:
   *
   * When the conversation was created.
   *
   * Since: 0.1
   */
  props[PROP_CREATED_AT] =
    g_param_spec_boxed ("created-at", NULL, NULL,
                        G_TYPE_DATE_TIME,
                        (G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS));

  /**
   * AkcConversationInfo:updated-at:
   *
   * When the conversation or one of its messages last changed.
   *
   * Since: 0.1
   */
  props[PROP_UPDATED_AT] =
    g_param_spec_boxed ("updated-at", NULL, NULL,
                        G_TYPE_DATE_TIME,
                        (G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_EXPLICIT_NOTIFY |
                         G_PARAM_STATIC_STRINGS));

  /**
   * AkcConversationInfo:n-messages:
   *
   * How many messages the conversation holds.
   *
   * Since: 0.1
   */
  props[PROP_N_MESSAGES] =
    g_param_spec_uint ("n-messages", NULL, NULL,
                       0, G_MAXUINT, 0,
                       (G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_EXPLICIT_NOTIFY |
                         G_PARAM_STATIC_STRINGS));

  /**
   * AkcConversationInfo:provider-kind:
   *
   * The kind of model provider the conversation is held with (`openai`,
   * `ollama`, `anthropic`: [func@ProviderAdapter.kind_to_string]), or
   * %NULL when none was recorded.
   *
   * Since: 0.1
   */
  props[PROP_PROVIDER_KIND] =
    g_param_spec_string ("provider-kind", NULL, NULL,
                         NULL,
                         (G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));

  /**
   * AkcConversationInfo:provider-url:
   *
   * The base URL of the model provider the conversation is held with, or
   * %NULL when none was recorded.
   *
   * Since: 0.1
   */
  props[PROP_PROVIDER_URL] =
    g_param_spec_string ("provider-url", NULL, NULL,
                         NULL,
                         (G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));

  /**
   * AkcConversationInfo:model:
   *
   * The model the conversation is held with (the one its next turn asks
   * for), or %NULL when none was recorded.
   *
   * Since: 0.1
   */
  props[PROP_MODEL] =
    g_param_spec_string ("model", NULL, NULL,
                         NULL,
                         (G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));

  g_object_class_install_properties (object_class, N_PROPS, props);
}

static void
akc_conversation_info_init (AkcConversationInfo *self)
{
}

/**
 * akc_conversation_info_new:
 * @id: the id of the conversation
 * @title: (nullable): its title, or %NULL for none
 * @usage: (nullable): the token usage it accumulated, or %NULL for none
 * @created_at: (nullable): when it was created, or %NULL for now
 * @updated_at: (nullable): when it last changed, or %NULL for @created_at
 * @n_messages: how many messages it holds
 *
 * Creates the description of a stored conversation. Implementations of
 * [iface@ChatMemory] return these.
 *
 * Returns: (transfer full): a new #AkcConversationInfo
 *
 * Since: 0.1
 */
AkcConversationInfo *
akc_conversation_info_new (const char     *id,
                           const char     *title,
                           const AkcUsage *usage,
                           GDateTime      *created_at,
                           GDateTime      *updated_at,
                           guint           n_messages)
{
  g_return_val_if_fail (id != NULL, NULL);

  return g_object_new (AKC_TYPE_CONVERSATION_INFO,
                       "id", id,
                       "title", title,
                       "usage", usage,
                       "created-at", created_at,
                       "updated-at", updated_at,
                       "n-messages", n_messages,
                       NULL);
}

/**
 * akc_conversation_info_new_full:
 * @id: the id of the conversation
 * @assistant_id: (nullable): the id of its assistant, or %NULL when unknown
 * @title: (nullable): its title, or %NULL for none
 * @usage: (nullable): the token usage it accumulated, or %NULL for none
 * @created_at: (nullable): when it was created, or %NULL for now
 * @updated_at: (nullable): when it last changed, or %NULL for @created_at
 * @n_messages: how many messages it holds
 * @pinned: whether it is pinned
 *
 * Creates the description of a stored conversation, with every field.
 *
 * Returns: (transfer full): a new #AkcConversationInfo
 *
 * Since: 0.1
 */
AkcConversationInfo *
akc_conversation_info_new_full (const char     *id,
                                const char     *assistant_id,
                                const char     *title,
                                const AkcUsage *usage,
                                GDateTime      *created_at,
                                GDateTime      *updated_at,
                                guint           n_messages,
                                gboolean        pinned)
{
  g_return_val_if_fail (id != NULL, NULL);

  return g_object_new (AKC_TYPE_CONVERSATION_INFO,
                       "id", id,
                       "assistant-id", assistant_id,
                       "title", title,
                       "usage", usage,
                       "created-at", created_at,
                       "updated-at", updated_at,
                       "n-messages", n_messages,
                       "pinned", pinned,
                       NULL);
}

/**
 * akc_conversation_info_get_id:
 * @self: a #AkcConversationInfo
 *
 * Gets the id of the conversation.
 *
 * Returns: (transfer none): the id
 *
 * Since: 0.1
 */
const char *
akc_conversation_info_get_id (AkcConversationInfo *self)
{
  g_return_val_if_fail (AKC_IS_CONVERSATION_INFO (self), NULL);

  return self->id;
}

/**
 * akc_conversation_info_get_title:
 * @self: a #AkcConversationInfo
 *
 * Gets the title of the conversation.
 *
 * Returns: (transfer none): the title, empty when it has none
 *
 * Since: 0.1
 */
const char *
akc_conversation_info_get_title (AkcConversationInfo *self)
{
  g_return_val_if_fail (AKC_IS_CONVERSATION_INFO (self), NULL);

  return self->title;
}

/**
 * akc_conversation_info_get_usage:
 * @self: a #AkcConversationInfo
 *
 * Gets the token usage the conversation accumulated.
 *
 * Returns: (transfer none): the usage
 *
 * Since: 0.1
 */
const AkcUsage *
akc_conversation_info_get_usage (AkcConversationInfo *self)
{
  g_return_val_if_fail (AKC_IS_CONVERSATION_INFO (self), NULL);

  return self->usage;
}

/**
 * akc_conversation_info_get_created_at:
 * @self: a #AkcConversationInfo
 *
 * Gets when the conversation was created.
 *
 * Returns: (transfer none): the creation time
 *
 * Since: 0.1
 */
GDateTime *
akc_conversation_info_get_created_at (AkcConversationInfo *self)
{
  g_return_val_if_fail (AKC_IS_CONVERSATION_INFO (self), NULL);

  return self->created_at;
}

/**
 * akc_conversation_info_get_updated_at:
 * @self: a #AkcConversationInfo
 *
 * Gets when the conversation or one of its messages last changed.
 *
 * Returns: (transfer none): the time of the last change
 *
 * Since: 0.1
 */
GDateTime *
akc_conversation_info_get_updated_at (AkcConversationInfo *self)
{
  g_return_val_if_fail (AKC_IS_CONVERSATION_INFO (self), NULL);

  return self->updated_at;
}

/**
 * akc_conversation_info_get_n_messages:
 * @self: a #AkcConversationInfo
 *
 * Gets how many messages the conversation holds.
 *
 * Returns: the number of messages
 *
 * Since: 0.1
 */
guint
akc_conversation_info_get_n_messages (AkcConversationInfo *self)
{
  g_return_val_if_fail (AKC_IS_CONVERSATION_INFO (self), 0);

  return self->n_messages;
}

/**
 * akc_conversation_info_get_assistant_id:
 * @self: a #AkcConversationInfo
 *
 * Gets the id of the assistant the conversation is held with.
 *
 * Returns: (transfer none): the assistant id, empty when unknown
 *
 * Since: 0.1
 */
const char *
akc_conversation_info_get_assistant_id (AkcConversationInfo *self)
{
  g_return_val_if_fail (AKC_IS_CONVERSATION_INFO (self), NULL);

  return self->assistant_id;
}

/**
 * akc_conversation_info_get_pinned:
 * @self: a #AkcConversationInfo
 *
 * Gets whether the conversation is pinned.
 *
 * Returns: %TRUE when it is pinned
 *
 * Since: 0.1
 */
gboolean
akc_conversation_info_get_pinned (AkcConversationInfo *self)
{
  g_return_val_if_fail (AKC_IS_CONVERSATION_INFO (self), FALSE);

  return self->pinned;
}

static gboolean
usage_equal (const AkcUsage *a,
             const AkcUsage *b)
{
  return a->prompt_tokens == b->prompt_tokens &&
         a->completion_tokens == b->completion_tokens &&
         a->total_tokens == b->total_tokens;
}

void
akc_conversation_info_update_from (AkcConversationInfo *self,
                                   AkcConversationInfo *other)
{
  GObject *object = G_OBJECT (self);

  g_return_if_fail (AKC_IS_CONVERSATION_INFO (self));
  g_return_if_fail (AKC_IS_CONVERSATION_INFO (other));

  if (self == other)
    return;

  g_object_freeze_notify (object);

  if (g_strcmp0 (self->title, other->title) != 0)
    {
      g_free (self->title);
      self->title = g_strdup (other->title);
      g_object_notify_by_pspec (object, props[PROP_TITLE]);
    }

  if (!usage_equal (self->usage, other->usage))
    {
      akc_usage_free (self->usage);
      self->usage = akc_usage_copy (other->usage);
      g_object_notify_by_pspec (object, props[PROP_USAGE]);
    }

  if (!g_date_time_equal (self->updated_at, other->updated_at))
    {
      g_date_time_unref (self->updated_at);
      self->updated_at = g_date_time_ref (other->updated_at);
      g_object_notify_by_pspec (object, props[PROP_UPDATED_AT]);
    }

  if (self->n_messages != other->n_messages)
    {
      self->n_messages = other->n_messages;
      g_object_notify_by_pspec (object, props[PROP_N_MESSAGES]);
    }

  if (self->pinned != other->pinned)
    {
      self->pinned = other->pinned;
      g_object_notify_by_pspec (object, props[PROP_PINNED]);
    }

  akc_conversation_info_set_provider (self, other->provider_kind, other->provider_url, other->model);

  g_object_thaw_notify (object);
}

void
akc_conversation_info_set_provider (AkcConversationInfo *self,
                                    const char          *provider_kind,
                                    const char          *provider_url,
                                    const char          *model)
{
  GObject *object = G_OBJECT (self);

  g_return_if_fail (AKC_IS_CONVERSATION_INFO (self));

  g_object_freeze_notify (object);
  if (g_strcmp0 (self->provider_kind, provider_kind) != 0)
    {
      g_free (self->provider_kind);
      self->provider_kind = g_strdup (provider_kind);
      g_object_notify_by_pspec (object, props[PROP_PROVIDER_KIND]);
    }
  if (g_strcmp0 (self->provider_url, provider_url) != 0)
    {
      g_free (self->provider_url);
      self->provider_url = g_strdup (provider_url);
      g_object_notify_by_pspec (object, props[PROP_PROVIDER_URL]);
    }
  if (g_strcmp0 (self->model, model) != 0)
    {
      g_free (self->model);
      self->model = g_strdup (model);
      g_object_notify_by_pspec (object, props[PROP_MODEL]);
    }
  g_object_thaw_notify (object);
}

/**
 * akc_conversation_info_get_provider_kind:
 * @self: a #AkcConversationInfo
 *
 * Gets [property@ConversationInfo:provider-kind].
 *
 * Returns: (nullable): the kind of model provider, or %NULL
 *
 * Since: 0.1
 */
const char *
akc_conversation_info_get_provider_kind (AkcConversationInfo *self)
{
  g_return_val_if_fail (AKC_IS_CONVERSATION_INFO (self), NULL);

  return self->provider_kind;
}

/**
 * akc_conversation_info_get_provider_url:
 * @self: a #AkcConversationInfo
 *
 * Gets [property@ConversationInfo:provider-url].
 *
 * Returns: (nullable): the base URL of the model provider, or %NULL
 *
 * Since: 0.1
 */
const char *
akc_conversation_info_get_provider_url (AkcConversationInfo *self)
{
  g_return_val_if_fail (AKC_IS_CONVERSATION_INFO (self), NULL);

  return self->provider_url;
}

/**
 * akc_conversation_info_get_model:
 * @self: a #AkcConversationInfo
 *
 * Gets [property@ConversationInfo:model].
 *
 * Returns: (nullable): the model, or %NULL
 *
 * Since: 0.1
 */
const char *
akc_conversation_info_get_model (AkcConversationInfo *self)
{
  g_return_val_if_fail (AKC_IS_CONVERSATION_INFO (self), NULL);

  return self->model;
}
