/* akc-component-resolution.c
 *
 * SPDX-License-Identifier: MIT
 */

#include "config.h"

#include "akc-component-resolution.h"

/**
 * AkcComponentResolution:
 *
 * How one component instance was answered ([application §12.7](wire-formats.html#application-12)): the
 * instance, the message that shows it, the event that resolved it (such
 * as `select` or `submit`), the event's value (the chosen option's id of
 * a selection, the values of a form) and when, in microseconds since the
 * Unix epoch, UTC.
 *
 * Resolutions are immutable. [class@InteractionController] makes one for
 * every answer and keeps those of a conversation in the history database
 * ([method@SqliteChatMemory.save_resolution_async]), so an answered card is
 * never offered again, not even after a restart.
 *
 * Since: 0.1
 */

struct _AkcComponentResolution
{
  GObject       parent_instance;

  char         *instance_id;
  char         *message_id;
  char         *event;
  AkcJsonValue *value;
  gint64        resolved_at;
};

G_DEFINE_FINAL_TYPE (AkcComponentResolution, akc_component_resolution, G_TYPE_OBJECT)

static void
akc_component_resolution_finalize (GObject *object)
{
  AkcComponentResolution *self = AKC_COMPONENT_RESOLUTION (object);

  g_free (self->instance_id);
  g_free (self->message_id);
  g_free (self->event);
  g_clear_pointer (&self->value, akc_json_value_unref);

  G_OBJECT_CLASS (akc_component_resolution_parent_class)->finalize (object);
}

static void
akc_component_resolution_class_init (AkcComponentResolutionClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = akc_component_resolution_finalize;
}

static void
akc_component_resolution_init (AkcComponentResolution *self)
{
}

/**
 * akc_component_resolution_new:
 * @instance_id: the resolved instance's id
 * @message_id: (nullable): the id of the message that shows the instance,
 *   or %NULL when it is not known
 * @event: the event that resolved it, such as `select` or `submit`
 * @value: (nullable): the event's value
 * @resolved_at: when, in microseconds since the Unix epoch, UTC
 *
 * Creates a resolution.
 *
 * Returns: (transfer full): a new resolution
 *
 * Since: 0.1
 */
AkcComponentResolution *
akc_component_resolution_new (const char   *instance_id,
                              const char   *message_id,
                              const char   *event,
                              AkcJsonValue *value,
                              gint64        resolved_at)
{
  AkcComponentResolution *self;

  g_return_val_if_fail (instance_id != NULL, NULL);
  g_return_val_if_fail (event != NULL, NULL);

  self = g_object_new (AKC_TYPE_COMPONENT_RESOLUTION, NULL);
  self->instance_id = g_strdup (instance_id);
  self->message_id = g_strdup (message_id);
  self->event = g_strdup (event);
  self->value = value != NULL ? akc_json_value_ref (value) : NULL;
  self->resolved_at = resolved_at;

  return self;
}

/**
 * akc_component_resolution_get_instance_id:
 * @self: a #AkcComponentResolution
 *
 * Gets the id of the resolved instance.
 *
 * Returns: the instance id
 *
 * Since: 0.1
 */
const char *
akc_component_resolution_get_instance_id (AkcComponentResolution *self)
{
  g_return_val_if_fail (AKC_IS_COMPONENT_RESOLUTION (self), NULL);

  return self->instance_id;
}

/**
 * akc_component_resolution_get_message_id:
 * @self: a #AkcComponentResolution
 *
 * Gets the id of the message that shows the instance.
 *
 * Returns: (nullable): the message id, or %NULL when it is not known
 *
 * Since: 0.1
 */
const char *
akc_component_resolution_get_message_id (AkcComponentResolution *self)
{
  g_return_val_if_fail (AKC_IS_COMPONENT_RESOLUTION (self), NULL);

  return self->message_id;
}

/**
 * akc_component_resolution_get_event:
 * @self: a #AkcComponentResolution
 *
 * Gets the event that resolved the instance: %AKC_COMPONENT_RESOLUTION_SELECT
 * for a choice, otherwise the interaction's event (such as `submit`).
 *
 * Returns: the event
 *
 * Since: 0.1
 */
const char *
akc_component_resolution_get_event (AkcComponentResolution *self)
{
  g_return_val_if_fail (AKC_IS_COMPONENT_RESOLUTION (self), NULL);

  return self->event;
}

/**
 * akc_component_resolution_get_value:
 * @self: a #AkcComponentResolution
 *
 * Gets the event's value.
 *
 * Returns: (transfer none) (nullable): the value, or %NULL
 *
 * Since: 0.1
 */
AkcJsonValue *
akc_component_resolution_get_value (AkcComponentResolution *self)
{
  g_return_val_if_fail (AKC_IS_COMPONENT_RESOLUTION (self), NULL);

  return self->value;
}

/**
 * akc_component_resolution_get_resolved_at:
 * @self: a #AkcComponentResolution
 *
 * Gets when the instance was resolved.
 *
 * Returns: microseconds since the Unix epoch, UTC
 *
 * Since: 0.1
 */
gint64
akc_component_resolution_get_resolved_at (AkcComponentResolution *self)
{
  g_return_val_if_fail (AKC_IS_COMPONENT_RESOLUTION (self), 0);

  return self->resolved_at;
}

/**
 * akc_component_resolution_get_choice_id:
 * @self: a #AkcComponentResolution
 *
 * Gets the chosen option of a selection.
 *
 * Returns: (nullable): the chosen option's id, or %NULL when the instance
 *   was not resolved by a selection
 *
 * Since: 0.1
 */
const char *
akc_component_resolution_get_choice_id (AkcComponentResolution *self)
{
  g_return_val_if_fail (AKC_IS_COMPONENT_RESOLUTION (self), NULL);

  if (g_strcmp0 (self->event, AKC_COMPONENT_RESOLUTION_SELECT) != 0 ||
      self->value == NULL || akc_json_value_get_kind (self->value) != AKC_JSON_KIND_STRING)
    return NULL;

  return akc_json_value_get_string (self->value, NULL);
}
