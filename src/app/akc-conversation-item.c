/* akc-conversation-item.c: one conversation of the application
 *
 * SPDX-License-Identifier: MIT
 */

#include "config.h"

#include <string.h>
#include <glib/gi18n.h>

#include "akc-conversation-item.h"

/**
 * AkcConversationItem:
 *
 * One conversation as the application lists it: its id in the history, its
 * assistant, title, times and pinned flag, and for a model provider's
 * conversation the provider and model it is held with; once opened, the chat source
 * that holds its messages, with the history that keeps it and the
 * interaction controller that acts on its cards. Every window showing it
 * shows the same source.
 */
struct _AkcConversationItem
{
  GObject                   parent_instance;

  char                     *id;
  AkcAssistant             *assistant;
  char                     *title;
  GDateTime                *created_at;
  GDateTime                *updated_at;
  gboolean                  pinned;
  guint                     n_messages;
  char                     *provider_kind;
  char                     *provider_url;
  char                     *model;

  /* Once opened. */
  AkcChatSource            *source;
  GObject                  *owner;        /* an AkcDemo or an AkcChat */
  AkcInteractionController *interaction;
  AkcChatHistory           *history;
  AkcTraceCapture          *capture;      /* what the Developer Tools show */
};

G_DEFINE_FINAL_TYPE (AkcConversationItem, akc_conversation_item, G_TYPE_OBJECT)

enum {
  PROP_0,
  PROP_TITLE,
  PROP_DISPLAY_TITLE,
  PROP_UPDATED_AT,
  PROP_PINNED,
  PROP_SOURCE,
  PROP_MODEL,
  N_PROPS
};

static GParamSpec *props[N_PROPS];

static void
akc_conversation_item_dispose (GObject *object)
{
  AkcConversationItem *self = AKC_CONVERSATION_ITEM (object);

  g_clear_object (&self->history);
  g_clear_object (&self->capture);
  g_clear_object (&self->interaction);
  g_clear_object (&self->source);
  g_clear_object (&self->owner);

  G_OBJECT_CLASS (akc_conversation_item_parent_class)->dispose (object);
}

static void
akc_conversation_item_finalize (GObject *object)
{
  AkcConversationItem *self = AKC_CONVERSATION_ITEM (object);

  g_clear_pointer (&self->id, g_free);
  g_clear_pointer (&self->title, g_free);
  g_clear_pointer (&self->provider_kind, g_free);
  g_clear_pointer (&self->provider_url, g_free);
  g_clear_pointer (&self->model, g_free);
  g_clear_pointer (&self->created_at, g_date_time_unref);
  g_clear_pointer (&self->updated_at, g_date_time_unref);
  g_clear_object (&self->assistant);

  G_OBJECT_CLASS (akc_conversation_item_parent_class)->finalize (object);
}

static void
akc_conversation_item_get_property (GObject    *object,
                                    guint       prop_id,
                                    GValue     *value,
                                    GParamSpec *pspec)
{
  AkcConversationItem *self = AKC_CONVERSATION_ITEM (object);

  switch (prop_id)
    {
    case PROP_TITLE:
      g_value_set_string (value, self->title);
      break;
    case PROP_DISPLAY_TITLE:
      g_value_set_string (value, akc_conversation_item_get_display_title (self));
      break;
    case PROP_UPDATED_AT:
      g_value_set_boxed (value, self->updated_at);
      break;
    case PROP_PINNED:
      g_value_set_boolean (value, self->pinned);
      break;
    case PROP_SOURCE:
      g_value_set_object (value, self->source);
      break;
    case PROP_MODEL:
      g_value_set_string (value, self->model);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
akc_conversation_item_class_init (AkcConversationItemClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->dispose = akc_conversation_item_dispose;
  object_class->finalize = akc_conversation_item_finalize;
  object_class->get_property = akc_conversation_item_get_property;

  /**
   * AkcConversationItem:title:
   *
   * The conversation's title, or %NULL before it has one.
   */
  props[PROP_TITLE] = g_param_spec_string ("title", NULL, NULL, NULL,
                                           G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  /**
   * AkcConversationItem:display-title:
   *
   * The title, or "New Chat" before there is one.
   */
  props[PROP_DISPLAY_TITLE] = g_param_spec_string ("display-title", NULL, NULL, NULL,
                                                   G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  /**
   * AkcConversationItem:updated-at:
   *
   * When the conversation last changed.
   */
  props[PROP_UPDATED_AT] = g_param_spec_boxed ("updated-at", NULL, NULL, G_TYPE_DATE_TIME,
                                               G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  /**
   * AkcConversationItem:pinned:
   *
   * Whether the conversation is listed above the others.
   */
  props[PROP_PINNED] = g_param_spec_boolean ("pinned", NULL, NULL, FALSE,
                                             G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  /**
   * AkcConversationItem:source:
   *
   * The messages, once the conversation was opened.
   */
  props[PROP_SOURCE] = g_param_spec_object ("source", NULL, NULL, AKC_TYPE_CHAT_SOURCE,
                                            G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  /**
   * AkcConversationItem:model:
   *
   * The model a model provider's conversation is held with, or %NULL
   * when none is recorded; notified when it or its provider changes.
   */
  props[PROP_MODEL] = g_param_spec_string ("model", NULL, NULL, NULL,
                                           G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, props);
}

static void
akc_conversation_item_init (AkcConversationItem *self)
{
}

/**
 * akc_conversation_item_new:
 * @id: the conversation's id in the history
 * @assistant: what answers it
 * @title: (nullable): its title, or %NULL before it has one
 * @created_at: (nullable): when it was created, or %NULL for now
 * @updated_at: (nullable): when it last changed, or %NULL for @created_at
 *
 * Returns: (transfer full): a new #AkcConversationItem
 */
AkcConversationItem *
akc_conversation_item_new (const char   *id,
                           AkcAssistant *assistant,
                           const char   *title,
                           GDateTime    *created_at,
                           GDateTime    *updated_at)
{
  AkcConversationItem *self;

  g_return_val_if_fail (id != NULL, NULL);
  g_return_val_if_fail (AKC_IS_ASSISTANT (assistant), NULL);

  self = g_object_new (AKC_TYPE_CONVERSATION_ITEM, NULL);
  self->id = g_strdup (id);
  self->assistant = g_object_ref (assistant);
  self->title = title != NULL && title[0] != '\0' ? g_strdup (title) : NULL;
  self->created_at = created_at != NULL ? g_date_time_ref (created_at) : g_date_time_new_now_utc ();
  self->updated_at = updated_at != NULL ? g_date_time_ref (updated_at) : g_date_time_ref (self->created_at);

  return self;
}

/**
 * akc_conversation_item_get_id:
 * @self: a #AkcConversationItem
 *
 * Returns: the conversation's id in the history
 */
const char *
akc_conversation_item_get_id (AkcConversationItem *self)
{
  g_return_val_if_fail (AKC_IS_CONVERSATION_ITEM (self), NULL);

  return self->id;
}

/**
 * akc_conversation_item_get_assistant:
 * @self: a #AkcConversationItem
 *
 * Returns: (transfer none): what answers the conversation
 */
AkcAssistant *
akc_conversation_item_get_assistant (AkcConversationItem *self)
{
  g_return_val_if_fail (AKC_IS_CONVERSATION_ITEM (self), NULL);

  return self->assistant;
}

/**
 * akc_conversation_item_get_title:
 * @self: a #AkcConversationItem
 *
 * Returns: (nullable): the title, or %NULL before it has one
 */
const char *
akc_conversation_item_get_title (AkcConversationItem *self)
{
  g_return_val_if_fail (AKC_IS_CONVERSATION_ITEM (self), NULL);

  return self->title;
}

/**
 * akc_conversation_item_get_display_title:
 * @self: a #AkcConversationItem
 *
 * Returns: the title, or "New Chat" before it has one
 */
const char *
akc_conversation_item_get_display_title (AkcConversationItem *self)
{
  g_return_val_if_fail (AKC_IS_CONVERSATION_ITEM (self), NULL);

  return self->title != NULL ? self->title : _("New Chat");
}

/**
 * akc_conversation_item_set_title:
 * @self: a #AkcConversationItem
 * @title: (nullable): the new title
 *
 * Changes the title the item shows (the session stores it).
 */
void
akc_conversation_item_set_title (AkcConversationItem *self,
                                 const char          *title)
{
  g_return_if_fail (AKC_IS_CONVERSATION_ITEM (self));

  if (title != NULL && title[0] == '\0')
    title = NULL;
  if (g_strcmp0 (self->title, title) == 0)
    return;

  g_free (self->title);
  self->title = g_strdup (title);
  g_object_notify_by_pspec (G_OBJECT (self), props[PROP_TITLE]);
  g_object_notify_by_pspec (G_OBJECT (self), props[PROP_DISPLAY_TITLE]);
}

/**
 * akc_conversation_item_get_created_at:
 * @self: a #AkcConversationItem
 *
 * Returns: (transfer none): when the conversation was created
 */
GDateTime *
akc_conversation_item_get_created_at (AkcConversationItem *self)
{
  g_return_val_if_fail (AKC_IS_CONVERSATION_ITEM (self), NULL);

  return self->created_at;
}

/**
 * akc_conversation_item_get_updated_at:
 * @self: a #AkcConversationItem
 *
 * Returns: (transfer none): when the conversation last changed
 */
GDateTime *
akc_conversation_item_get_updated_at (AkcConversationItem *self)
{
  g_return_val_if_fail (AKC_IS_CONVERSATION_ITEM (self), NULL);

  return self->updated_at;
}

/**
 * akc_conversation_item_set_updated_at:
 * @self: a #AkcConversationItem
 * @updated_at: when the conversation last changed
 */
void
akc_conversation_item_set_updated_at (AkcConversationItem *self,
                                      GDateTime           *updated_at)
{
  g_return_if_fail (AKC_IS_CONVERSATION_ITEM (self));
  g_return_if_fail (updated_at != NULL);

  if (g_date_time_equal (self->updated_at, updated_at))
    return;

  g_date_time_unref (self->updated_at);
  self->updated_at = g_date_time_ref (updated_at);
  g_object_notify_by_pspec (G_OBJECT (self), props[PROP_UPDATED_AT]);
}

/**
 * akc_conversation_item_get_pinned:
 * @self: a #AkcConversationItem
 *
 * Returns: whether the conversation is listed above the others
 */
gboolean
akc_conversation_item_get_pinned (AkcConversationItem *self)
{
  g_return_val_if_fail (AKC_IS_CONVERSATION_ITEM (self), FALSE);

  return self->pinned;
}

/**
 * akc_conversation_item_set_pinned:
 * @self: a #AkcConversationItem
 * @pinned: whether it is listed above the others
 */
void
akc_conversation_item_set_pinned (AkcConversationItem *self,
                                  gboolean             pinned)
{
  g_return_if_fail (AKC_IS_CONVERSATION_ITEM (self));

  pinned = !!pinned;
  if (self->pinned == pinned)
    return;

  self->pinned = pinned;
  g_object_notify_by_pspec (G_OBJECT (self), props[PROP_PINNED]);
}

/**
 * akc_conversation_item_get_n_messages:
 * @self: a #AkcConversationItem
 *
 * Returns: how many messages the conversation has, as far as known
 */
guint
akc_conversation_item_get_n_messages (AkcConversationItem *self)
{
  g_return_val_if_fail (AKC_IS_CONVERSATION_ITEM (self), 0);

  if (self->source != NULL)
    return g_list_model_get_n_items (akc_chat_source_get_messages (self->source));
  return self->n_messages;
}

/**
 * akc_conversation_item_set_n_messages:
 * @self: a #AkcConversationItem
 * @n_messages: how many messages the history holds
 */
void
akc_conversation_item_set_n_messages (AkcConversationItem *self,
                                      guint                n_messages)
{
  g_return_if_fail (AKC_IS_CONVERSATION_ITEM (self));

  self->n_messages = n_messages;
}

/**
 * akc_conversation_item_get_source:
 * @self: a #AkcConversationItem
 *
 * Returns: (transfer none) (nullable): the messages, once opened
 */
AkcChatSource *
akc_conversation_item_get_source (AkcConversationItem *self)
{
  g_return_val_if_fail (AKC_IS_CONVERSATION_ITEM (self), NULL);

  return self->source;
}

/**
 * akc_conversation_item_get_demo:
 * @self: a #AkcConversationItem
 *
 * Returns: (transfer none) (nullable): the offline demo behind an opened
 *   demo conversation (an `AkcDemo`), or %NULL
 */
gpointer
akc_conversation_item_get_demo (AkcConversationItem *self)
{
  g_return_val_if_fail (AKC_IS_CONVERSATION_ITEM (self), NULL);

  return self->owner != NULL && !AKC_IS_CHAT (self->owner) ? self->owner : NULL;
}

/**
 * akc_conversation_item_get_history:
 * @self: a #AkcConversationItem
 *
 * Returns: (transfer none) (nullable): what keeps the opened conversation
 *   stored, or %NULL (no history, or the turn server keeps it)
 */
AkcChatHistory *
akc_conversation_item_get_history (AkcConversationItem *self)
{
  g_return_val_if_fail (AKC_IS_CONVERSATION_ITEM (self), NULL);

  return self->history;
}

/**
 * akc_conversation_item_get_interaction:
 * @self: a #AkcConversationItem
 *
 * Returns: (transfer none) (nullable): what acts on the answers of the
 *   opened conversation's cards
 */
AkcInteractionController *
akc_conversation_item_get_interaction (AkcConversationItem *self)
{
  g_return_val_if_fail (AKC_IS_CONVERSATION_ITEM (self), NULL);

  return self->interaction;
}

/**
 * akc_conversation_item_open:
 * @self: a #AkcConversationItem
 * @source: the messages
 * @owner: (nullable): what keeps @source alive (an AkcDemo or an AkcChat)
 * @interaction: what acts on the answers of its cards
 * @history: (nullable): what keeps it stored
 *
 * The session opened the conversation: every window shows @source.
 */
void
akc_conversation_item_open (AkcConversationItem      *self,
                            AkcChatSource            *source,
                            GObject                  *owner,
                            AkcInteractionController *interaction,
                            AkcChatHistory           *history)
{
  g_return_if_fail (AKC_IS_CONVERSATION_ITEM (self));
  g_return_if_fail (AKC_IS_CHAT_SOURCE (source));
  g_return_if_fail (AKC_IS_INTERACTION_CONTROLLER (interaction));

  g_set_object (&self->owner, owner);
  g_set_object (&self->interaction, interaction);
  g_set_object (&self->history, history);
  if (g_set_object (&self->source, source))
    g_object_notify_by_pspec (G_OBJECT (self), props[PROP_SOURCE]);
}

/**
 * akc_conversation_item_set_history:
 * @self: a #AkcConversationItem
 * @history: what keeps the opened conversation stored
 *
 * The session keeps the opened conversation in the history.
 */
void
akc_conversation_item_set_history (AkcConversationItem *self,
                                   AkcChatHistory      *history)
{
  g_return_if_fail (AKC_IS_CONVERSATION_ITEM (self));
  g_return_if_fail (AKC_IS_CHAT_HISTORY (history));

  g_set_object (&self->history, history);
}

/**
 * akc_conversation_item_compare:
 * @a: a #AkcConversationItem
 * @b: a #AkcConversationItem
 * @user_data: unused
 *
 * The order of the sidebar: pinned first, then the newest first.
 *
 * Returns: less than, equal to or greater than zero
 */
int
akc_conversation_item_compare (gconstpointer a,
                               gconstpointer b,
                               gpointer      user_data)
{
  AkcConversationItem *x = (AkcConversationItem *) a;
  AkcConversationItem *y = (AkcConversationItem *) b;
  int order;

  if (x->pinned != y->pinned)
    return x->pinned ? -1 : 1;
  order = g_date_time_compare (y->updated_at, x->updated_at);
  if (order != 0)
    return order;
  return g_strcmp0 (x->id, y->id);
}

/**
 * akc_conversation_item_get_model:
 * @self: a #AkcConversationItem
 *
 * Returns: (nullable): the model the conversation is held with
 */
const char *
akc_conversation_item_get_model (AkcConversationItem *self)
{
  g_return_val_if_fail (AKC_IS_CONVERSATION_ITEM (self), NULL);

  return self->model;
}

/**
 * akc_conversation_item_get_provider_kind:
 * @self: a #AkcConversationItem
 *
 * Returns: (nullable): the kind of its model provider (`openai`,
 *   `ollama`, `anthropic`)
 */
const char *
akc_conversation_item_get_provider_kind (AkcConversationItem *self)
{
  g_return_val_if_fail (AKC_IS_CONVERSATION_ITEM (self), NULL);

  return self->provider_kind;
}

/**
 * akc_conversation_item_get_provider_url:
 * @self: a #AkcConversationItem
 *
 * Returns: (nullable): the base URL of its model provider
 */
const char *
akc_conversation_item_get_provider_url (AkcConversationItem *self)
{
  g_return_val_if_fail (AKC_IS_CONVERSATION_ITEM (self), NULL);

  return self->provider_url;
}

/**
 * akc_conversation_item_set_model:
 * @self: a #AkcConversationItem
 * @provider_kind: (nullable): the kind of model provider
 * @provider_url: (nullable): its base URL
 * @model: (nullable): the model
 *
 * Records which provider and model the conversation is held with (the
 * session stores it).
 *
 * Returns: %TRUE when something changed
 */
gboolean
akc_conversation_item_set_model (AkcConversationItem *self,
                                 const char          *provider_kind,
                                 const char          *provider_url,
                                 const char          *model)
{
  g_return_val_if_fail (AKC_IS_CONVERSATION_ITEM (self), FALSE);

  if (g_strcmp0 (self->provider_kind, provider_kind) == 0 &&
      g_strcmp0 (self->provider_url, provider_url) == 0 &&
      g_strcmp0 (self->model, model) == 0)
    return FALSE;

  g_free (self->provider_kind);
  self->provider_kind = g_strdup (provider_kind);
  g_free (self->provider_url);
  self->provider_url = g_strdup (provider_url);
  g_free (self->model);
  self->model = g_strdup (model);
  g_object_notify_by_pspec (G_OBJECT (self), props[PROP_MODEL]);
  return TRUE;
}

/**
 * akc_conversation_item_get_trace_capture:
 * @self: a #AkcConversationItem
 *
 * Gets what the Developer Tools show of the opened conversation: its
 * demo's capture, or the one its chat or turn client feeds.
 *
 * Returns: (transfer none) (nullable): the capture, or %NULL before the
 *   conversation was opened
 */
AkcTraceCapture *
akc_conversation_item_get_trace_capture (AkcConversationItem *self)
{
  g_return_val_if_fail (AKC_IS_CONVERSATION_ITEM (self), NULL);

  return self->capture;
}

/**
 * akc_conversation_item_set_trace_capture:
 * @self: a #AkcConversationItem
 * @capture: (nullable): what follows the opened conversation
 *
 * The session made the capture that follows the conversation.
 */
void
akc_conversation_item_set_trace_capture (AkcConversationItem *self,
                                         AkcTraceCapture     *capture)
{
  g_return_if_fail (AKC_IS_CONVERSATION_ITEM (self));
  g_return_if_fail (capture == NULL || AKC_IS_TRACE_CAPTURE (capture));

  g_set_object (&self->capture, capture);
}
