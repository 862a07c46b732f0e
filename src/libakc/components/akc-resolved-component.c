/* akc-resolved-component.c
 *
 * SPDX-License-Identifier: MIT
 */

#include "config.h"

#include <string.h>

#include "akc-choice-list.h"
#include "akc-component-frame.h"
#include "akc-component-private.h"
#include "akc-component-text.h"
#include "akc-error.h"
#include "akc-json-private.h"
#include "akc-resolved-component.h"

/**
 * AkcResolvedComponent:
 *
 * A render frame that resolved against a [class@ComponentManifest]
 * (`{ok: true, frame, props}`, [application §2.4](wire-formats.html#application-2)): the decoded frame,
 * the props its definition validated, and the definition itself.
 *
 * This is what a renderer builds a widget from. It reads the props with
 * the [struct@JsonValue] getters, takes its accessible role, keyboard
 * behaviour and live setting from the definition, uses
 * [method@ResolvedComponent.dup_description] as the accessible
 * description, and turns user actions into wire events with
 * [method@ResolvedComponent.create_interaction] (or, for a choice list,
 * [method@ResolvedComponent.select_choice]).
 *
 * Immutable.
 *
 * Since: 0.1
 */
struct _AkcResolvedComponent
{
  GObject                 parent_instance;

  AkcComponentDefinition *definition;
  AkcJsonValue           *frame;
  AkcJsonValue           *props;
};

G_DEFINE_FINAL_TYPE (AkcResolvedComponent, akc_resolved_component, G_TYPE_OBJECT)

static void
akc_resolved_component_finalize (GObject *object)
{
  AkcResolvedComponent *self = AKC_RESOLVED_COMPONENT (object);

  g_clear_object (&self->definition);
  g_clear_pointer (&self->frame, akc_json_value_unref);
  g_clear_pointer (&self->props, akc_json_value_unref);

  G_OBJECT_CLASS (akc_resolved_component_parent_class)->finalize (object);
}

static void
akc_resolved_component_class_init (AkcResolvedComponentClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->finalize = akc_resolved_component_finalize;
}

static void
akc_resolved_component_init (AkcResolvedComponent *self)
{
}

AkcResolvedComponent *
akc_resolved_component_new (AkcComponentDefinition *definition,
                            AkcJsonValue           *frame,
                            AkcJsonValue           *props)
{
  AkcResolvedComponent *self;

  g_assert (AKC_IS_COMPONENT_DEFINITION (definition));
  g_assert (AKC_JSON_IS_OBJECT (frame));
  g_assert (props != NULL);

  self = g_object_new (AKC_TYPE_RESOLVED_COMPONENT, NULL);
  self->definition = g_object_ref (definition);
  self->frame = akc_json_value_ref (frame);
  self->props = akc_json_value_ref (props);

  return self;
}

static const char *
frame_string (AkcResolvedComponent *self,
              const char           *name)
{
  return AKC_JSON_STR (akc_json_object_lookup (self->frame, name, strlen (name), NULL));
}

/**
 * akc_resolved_component_get_frame:
 * @self: a resolved component
 *
 * Gets the decoded render frame.
 *
 * Returns: (transfer none): the decoded render frame (members in canonical
 *   order, unknown members dropped; its `props` as sent)
 *
 * Since: 0.1
 */
AkcJsonValue *
akc_resolved_component_get_frame (AkcResolvedComponent *self)
{
  g_return_val_if_fail (AKC_IS_RESOLVED_COMPONENT (self), NULL);

  return self->frame;
}

/**
 * akc_resolved_component_get_props:
 * @self: a resolved component
 *
 * Gets the props as the definition validated them.
 *
 * Returns: (transfer none): the props as the definition validated them;
 *   for a standard component a JSON object with exactly the members of
 *   its table in [application §1.3](wire-formats.html#application-1)–§1.14
 *
 * Since: 0.1
 */
AkcJsonValue *
akc_resolved_component_get_props (AkcResolvedComponent *self)
{
  g_return_val_if_fail (AKC_IS_RESOLVED_COMPONENT (self), NULL);

  return self->props;
}

/**
 * akc_resolved_component_get_definition:
 * @self: a resolved component
 *
 * Gets the definition the frame resolved to.
 *
 * Returns: (transfer none): the definition the frame resolved to
 *
 * Since: 0.1
 */
AkcComponentDefinition *
akc_resolved_component_get_definition (AkcResolvedComponent *self)
{
  g_return_val_if_fail (AKC_IS_RESOLVED_COMPONENT (self), NULL);

  return self->definition;
}

/**
 * akc_resolved_component_get_component_key:
 * @self: a resolved component
 *
 * Gets the `componentKey` of the frame.
 *
 * Returns: the frame's `componentKey`
 *
 * Since: 0.1
 */
const char *
akc_resolved_component_get_component_key (AkcResolvedComponent *self)
{
  g_return_val_if_fail (AKC_IS_RESOLVED_COMPONENT (self), NULL);

  return frame_string (self, "componentKey");
}

/**
 * akc_resolved_component_get_instance_id:
 * @self: a resolved component
 *
 * The frame's `instanceId`: the identity of this rendered instance. A view
 * keys single-shot resolution by it ([application §12.7](wire-formats.html#application-12)).
 *
 * Returns: the frame's `instanceId`
 *
 * Since: 0.1
 */
const char *
akc_resolved_component_get_instance_id (AkcResolvedComponent *self)
{
  g_return_val_if_fail (AKC_IS_RESOLVED_COMPONENT (self), NULL);

  return frame_string (self, "instanceId");
}

/**
 * akc_resolved_component_is_standard:
 * @self: a resolved component
 *
 * Tells whether the frame resolved to a standard definition, which is
 * drawn by its standard widget. A custom key without a custom renderer is
 * shown as its semantic fallback ([application §12.2](wire-formats.html#application-12)).
 *
 * Returns: %TRUE for a standard component
 *
 * Since: 0.1
 */
gboolean
akc_resolved_component_is_standard (AkcResolvedComponent *self)
{
  g_return_val_if_fail (AKC_IS_RESOLVED_COMPONENT (self), FALSE);

  return akc_component_definition_is_standard (self->definition);
}

/**
 * akc_resolved_component_is_interactive:
 * @self: a resolved component
 *
 * Tells whether the definition declares at least one event. Only such a
 * component can own input while unresolved; display-only components
 * (progress, tool-call, table) never do ([application §12.4](wire-formats.html#application-12)).
 *
 * Returns: %TRUE if the component declares events
 *
 * Since: 0.1
 */
gboolean
akc_resolved_component_is_interactive (AkcResolvedComponent *self)
{
  g_return_val_if_fail (AKC_IS_RESOLVED_COMPONENT (self), FALSE);

  return akc_component_definition_get_n_events (self->definition) > 0;
}

/**
 * akc_resolved_component_dup_description:
 * @self: a resolved component
 *
 * The definition fallback of the props ([application §2.9](wire-formats.html#application-2)), for example
 * `Upload: 42%.`: the accessible description of a rendered standard
 * component, and the title of an unknown custom one.
 *
 * Returns: (transfer full) (nullable): the summary, or %NULL when the
 *   definition has no fallback
 *
 * Since: 0.1
 */
char *
akc_resolved_component_dup_description (AkcResolvedComponent *self)
{
  g_return_val_if_fail (AKC_IS_RESOLVED_COMPONENT (self), NULL);

  return akc_component_definition_build_fallback (self->definition, self->props);
}

/**
 * akc_resolved_component_dup_semantic_fallback:
 * @self: a resolved component
 *
 * The text a renderer shows instead of a component it cannot draw,
 * `[unsupported visual: «kind»] «summary»`, from the frame's own
 * `fallback` ([application §12.5](wire-formats.html#application-12)).
 *
 * Returns: (transfer full): the semantic fallback text
 *
 * Since: 0.1
 */
char *
akc_resolved_component_dup_semantic_fallback (AkcResolvedComponent *self)
{
  g_return_val_if_fail (AKC_IS_RESOLVED_COMPONENT (self), NULL);

  return akc_component_frame_dup_fallback_text (self->frame);
}

/**
 * akc_resolved_component_create_interaction:
 * @self: a resolved component
 * @event: the event name, such as `select` or `submit`
 * @value: (nullable): the event value, or %NULL for none
 * @error: return location for a #GError
 *
 * Creates the interaction event for a user action on this component
 * ([application §2.5](wire-formats.html#application-2) steps 2–5; see
 * [method@ComponentManifest.create_interaction]). The rules of the
 * standard events:
 *
 * - button-group `select`: the id (a string) of a button that is not
 *   disabled;
 * - form `submit`: an object of field values (see [application §1.5](wire-formats.html#application-1));
 * - confirmation `confirm`/`cancel`, approval-request `approve`/`deny`:
 *   no value;
 * - source-list `open`: the id of a source that has a url;
 * - link-card `open`: exactly `href`; file-attachment `open`: exactly
 *   `url`, which must exist;
 * - error-notice `retry`: no value, only when `retryLabel` exists;
 * - choice-list: never (use [method@ResolvedComponent.select_choice]).
 *
 * Anything else fails with %AKC_ERROR_CONFIG_INVALID, “Component
 * interaction is not declared by the resolved component.”
 *
 * Returns: (transfer full) (nullable): the interaction event, or %NULL
 *   with @error set
 *
 * Since: 0.1
 */
AkcJsonValue *
akc_resolved_component_create_interaction (AkcResolvedComponent  *self,
                                           const char            *event,
                                           AkcJsonValue          *value,
                                           GError               **error)
{
  AkcComponentEvent *declared;

  g_return_val_if_fail (AKC_IS_RESOLVED_COMPONENT (self), NULL);
  g_return_val_if_fail (event != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  declared = akc_component_definition_lookup_event (self->definition, event);
  if (declared == NULL || !akc_component_definition_accepts (self->definition, self->props, declared, value))
    {
      g_set_error_literal (error, AKC_ERROR, AKC_ERROR_CONFIG_INVALID, AKC_COMPONENT_INTERACTION_INVALID);
      return NULL;
    }

  return akc_component_interaction_event_new (self->frame, event, value, error);
}

/**
 * akc_resolved_component_select_choice:
 * @self: a resolved choice list
 * @choice_id: the id of the chosen choice
 * @error: return location for a #GError
 *
 * Creates the selection event of a choice list; see
 * [func@choice_list_select].
 *
 * Returns: (transfer full) (nullable): the selection event, or %NULL with
 *   @error set
 *
 * Since: 0.1
 */
AkcJsonValue *
akc_resolved_component_select_choice (AkcResolvedComponent  *self,
                                      const char            *choice_id,
                                      GError               **error)
{
  g_return_val_if_fail (AKC_IS_RESOLVED_COMPONENT (self), NULL);
  g_return_val_if_fail (choice_id != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  return akc_choice_list_select (self->frame, choice_id, error);
}

/**
 * akc_resolved_component_get_choice_action:
 * @self: a resolved choice list
 * @choice_id: the id of a choice
 *
 * Finds the typed action `{name, input}` of a choice ([application
 * §2.7](wire-formats.html#application-2)). When it exists, selecting the choice proposes a
 * confirmation-gated tool call; otherwise the view calls the
 * choice-submission hook (§2.8, §12.7).
 *
 * Returns: (transfer none) (nullable): the action, or %NULL when the
 *   choice has none, does not exist, or @self is not a choice list
 *
 * Since: 0.1
 */
AkcJsonValue *
akc_resolved_component_get_choice_action (AkcResolvedComponent *self,
                                          const char           *choice_id)
{
  AkcJsonValue *choices;

  g_return_val_if_fail (AKC_IS_RESOLVED_COMPONENT (self), NULL);
  g_return_val_if_fail (choice_id != NULL, NULL);

  if (strcmp (akc_resolved_component_get_component_key (self), AKC_CHOICE_LIST_COMPONENT_KEY) != 0)
    return NULL;

  choices = akc_json_object_lookup (self->props, "choices", strlen ("choices"), NULL);
  for (gsize i = 0; i < AKC_JSON_LEN (choices); i++)
    {
      AkcJsonValue *choice = AKC_JSON_ELEMENT (choices, i);

      if (akc_json_string_equals (akc_json_object_lookup (choice, "id", 2, NULL), choice_id))
        return akc_json_object_lookup (choice, "action", strlen ("action"), NULL);
    }

  return NULL;
}
