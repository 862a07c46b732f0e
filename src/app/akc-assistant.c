/* akc-assistant.c: what a conversation talks to
 *
 * SPDX-License-Identifier: MIT
 */

#include "config.h"

#include "akc-assistant.h"

/**
 * AkcAssistant:
 *
 * One of the things the application can talk to: an offline demo, the Ask
 * service, the turn server or the model provider. Each conversation has
 * one; New Chat starts a conversation with one.
 */
struct _AkcAssistant
{
  GObject           parent_instance;

  char             *id;
  AkcAssistantKind  kind;
  char             *title;
  char             *icon_name;
};

G_DEFINE_FINAL_TYPE (AkcAssistant, akc_assistant, G_TYPE_OBJECT)

enum {
  PROP_0,
  PROP_ID,
  PROP_TITLE,
  N_PROPS
};

static GParamSpec *props[N_PROPS];

static void
akc_assistant_finalize (GObject *object)
{
  AkcAssistant *self = AKC_ASSISTANT (object);

  g_clear_pointer (&self->id, g_free);
  g_clear_pointer (&self->title, g_free);
  g_clear_pointer (&self->icon_name, g_free);

  G_OBJECT_CLASS (akc_assistant_parent_class)->finalize (object);
}

static void
akc_assistant_get_property (GObject    *object,
                            guint       prop_id,
                            GValue     *value,
                            GParamSpec *pspec)
{
  AkcAssistant *self = AKC_ASSISTANT (object);

  switch (prop_id)
    {
    case PROP_ID:
      g_value_set_string (value, self->id);
      break;
    case PROP_TITLE:
      g_value_set_string (value, self->title);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
akc_assistant_class_init (AkcAssistantClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->finalize = akc_assistant_finalize;
  object_class->get_property = akc_assistant_get_property;

  /**
   * AkcAssistant:id:
   *
   * The assistant's id: a demo's id, `ask`, `turn` or `provider`.
   */
  props[PROP_ID] = g_param_spec_string ("id", NULL, NULL, NULL,
                                        G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);
  /**
   * AkcAssistant:title:
   *
   * The assistant's name, as a person reads it.
   */
  props[PROP_TITLE] = g_param_spec_string ("title", NULL, NULL, NULL,
                                           G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, props);
}

static void
akc_assistant_init (AkcAssistant *self)
{
}

/**
 * akc_assistant_new:
 * @id: the assistant's id
 * @kind: what answers
 * @title: its name
 * @icon_name: (nullable): a symbolic icon
 *
 * Returns: (transfer full): a new #AkcAssistant
 */
AkcAssistant *
akc_assistant_new (const char       *id,
                   AkcAssistantKind  kind,
                   const char       *title,
                   const char       *icon_name)
{
  AkcAssistant *self;

  g_return_val_if_fail (id != NULL, NULL);
  g_return_val_if_fail (title != NULL, NULL);

  self = g_object_new (AKC_TYPE_ASSISTANT, NULL);
  self->id = g_strdup (id);
  self->kind = kind;
  self->title = g_strdup (title);
  self->icon_name = g_strdup (icon_name);

  return self;
}

/**
 * akc_assistant_get_id:
 * @self: a #AkcAssistant
 *
 * Returns: the assistant's id
 */
const char *
akc_assistant_get_id (AkcAssistant *self)
{
  g_return_val_if_fail (AKC_IS_ASSISTANT (self), NULL);

  return self->id;
}

/**
 * akc_assistant_get_kind:
 * @self: a #AkcAssistant
 *
 * Returns: what answers
 */
AkcAssistantKind
akc_assistant_get_kind (AkcAssistant *self)
{
  g_return_val_if_fail (AKC_IS_ASSISTANT (self), AKC_ASSISTANT_KIND_DEMO);

  return self->kind;
}

/**
 * akc_assistant_get_title:
 * @self: a #AkcAssistant
 *
 * Returns: the assistant's name
 */
const char *
akc_assistant_get_title (AkcAssistant *self)
{
  g_return_val_if_fail (AKC_IS_ASSISTANT (self), NULL);

  return self->title;
}

/**
 * akc_assistant_get_icon_name:
 * @self: a #AkcAssistant
 *
 * Returns: (nullable): the assistant's symbolic icon
 */
const char *
akc_assistant_get_icon_name (AkcAssistant *self)
{
  g_return_val_if_fail (AKC_IS_ASSISTANT (self), NULL);

  return self->icon_name;
}
