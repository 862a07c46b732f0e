/* akc-component-definition.c
 *
 * SPDX-License-Identifier: MIT
 */

#include "config.h"

#include <string.h>

#include "akc-component-definition.h"
#include "akc-component-private.h"
#include "akc-json-private.h"
#include "akc-text-private.h"

/* ------------------------------------------------------------------ */
/* AkcComponentEvent                                                   */
/* ------------------------------------------------------------------ */

/**
 * AkcComponentEvent:
 *
 * One event a component declares: a name in the event-name grammar
 * (`^[a-z][a-z0-9-]{0,63}$`) and the kind of value it carries
 * ([application §1.1](wire-formats.html#application-1)). Immutable.
 *
 * Since: 0.1
 */
struct _AkcComponentEvent
{
  gatomicrefcount        ref_count;
  AkcComponentValueKind  value_kind;
  char                  *name;
};

G_DEFINE_BOXED_TYPE (AkcComponentEvent, akc_component_event,
                     akc_component_event_ref, akc_component_event_unref)

/**
 * akc_component_event_new:
 * @name: the event name, such as `select`; it must match the event-name
 *   grammar
 * @value_kind: what the value of the event is
 *
 * Creates an event declaration for [ctor@ComponentDefinition.new].
 *
 * Returns: (transfer full): the event
 *
 * Since: 0.1
 */
AkcComponentEvent *
akc_component_event_new (const char            *name,
                         AkcComponentValueKind  value_kind)
{
  AkcComponentEvent *self;

  g_return_val_if_fail (name != NULL, NULL);
  g_return_val_if_fail (akc_text_is_component_key (name, strlen (name)), NULL);
  g_return_val_if_fail (value_kind <= AKC_COMPONENT_VALUE_URL, NULL);

  self = g_new0 (AkcComponentEvent, 1);
  g_atomic_ref_count_init (&self->ref_count);
  self->name = g_strdup (name);
  self->value_kind = value_kind;

  return self;
}

/**
 * akc_component_event_ref:
 * @self: an event
 *
 * Acquires a reference on @self.
 *
 * Returns: (transfer full): @self
 *
 * Since: 0.1
 */
AkcComponentEvent *
akc_component_event_ref (AkcComponentEvent *self)
{
  g_return_val_if_fail (self != NULL, NULL);

  g_atomic_ref_count_inc (&self->ref_count);

  return self;
}

/**
 * akc_component_event_unref:
 * @self: (transfer full): an event
 *
 * Releases a reference on @self.
 *
 * Since: 0.1
 */
void
akc_component_event_unref (AkcComponentEvent *self)
{
  g_return_if_fail (self != NULL);

  if (g_atomic_ref_count_dec (&self->ref_count))
    {
      g_free (self->name);
      g_free (self);
    }
}

/**
 * akc_component_event_get_name:
 * @self: an event
 *
 * Gets the name of the event.
 *
 * Returns: the event name, such as `select`
 *
 * Since: 0.1
 */
const char *
akc_component_event_get_name (const AkcComponentEvent *self)
{
  g_return_val_if_fail (self != NULL, NULL);

  return self->name;
}

/**
 * akc_component_event_get_value_kind:
 * @self: an event
 *
 * Gets what the value of the event is.
 *
 * Returns: what the value of the event is
 *
 * Since: 0.1
 */
AkcComponentValueKind
akc_component_event_get_value_kind (const AkcComponentEvent *self)
{
  g_return_val_if_fail (self != NULL, AKC_COMPONENT_VALUE_NONE);

  return self->value_kind;
}

/* ------------------------------------------------------------------ */
/* AkcComponentDefinition                                              */
/* ------------------------------------------------------------------ */

/**
 * AkcComponentDefinition:
 *
 * One component of a [class@ComponentManifest]: its key, how its props
 * are validated, the events it emits, accessibility metadata,
 * capabilities and a plain-text fallback ([application §1.1](wire-formats.html#application-1)).
 *
 * The twelve standard definitions are shared, immutable instances:
 * get them with [func@ComponentDefinition.get_standard]. Each validates
 * its props with the exact rules of [application §1.3](wire-formats.html#application-1)–§1.14, knows the
 * interaction rule of its events, and builds the fallback text of its
 * section. The accessibility role is the ARIA role name (`group`, `form`,
 * `progressbar`, `list`, `link`, `alert`, `status`, `table` in the
 * catalog); a GTK renderer maps it to the `GtkAccessibleRole` of the same
 * name.
 *
 * Custom definitions, made with [ctor@ComponentDefinition.new], may not
 * take a standard key (a manifest refuses them, [application §2.3](wire-formats.html#application-2)).
 *
 * A definition never changes after it is created.
 *
 * Since: 0.1
 */
struct _AkcComponentDefinition
{
  GObject                      parent_instance;

  char                        *key;
  GPtrArray                   *events;  /* AkcComponentEvent */
  char                        *role;
  gboolean                     keyboard;
  AkcComponentLive             live;
  AkcComponentCapabilities     capabilities;

  const AkcStandardComponent  *standard;  /* NULL for a custom definition */

  AkcComponentPropsFunc        props_func;
  gpointer                     props_data;
  GDestroyNotify               props_destroy;
  AkcComponentFallbackFunc     fallback_func;
  gpointer                     fallback_data;
  GDestroyNotify               fallback_destroy;
};

G_DEFINE_FINAL_TYPE (AkcComponentDefinition, akc_component_definition, G_TYPE_OBJECT)

static void
akc_component_definition_finalize (GObject *object)
{
  AkcComponentDefinition *self = AKC_COMPONENT_DEFINITION (object);

  if (self->props_destroy != NULL)
    self->props_destroy (self->props_data);
  if (self->fallback_destroy != NULL)
    self->fallback_destroy (self->fallback_data);

  g_clear_pointer (&self->key, g_free);
  g_clear_pointer (&self->events, g_ptr_array_unref);
  g_clear_pointer (&self->role, g_free);

  G_OBJECT_CLASS (akc_component_definition_parent_class)->finalize (object);
}

static void
akc_component_definition_class_init (AkcComponentDefinitionClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->finalize = akc_component_definition_finalize;
}

static void
akc_component_definition_init (AkcComponentDefinition *self)
{
  self->events = g_ptr_array_new_with_free_func ((GDestroyNotify) akc_component_event_unref);
}

/**
 * akc_component_definition_new:
 * @key: the component key; a [class@ComponentManifest] accepts only keys
 *   in the component-key grammar (`^[a-z][a-z0-9-]{0,63}$`) that are not
 *   standard keys
 * @events: (array length=n_events) (nullable): the events the component
 *   emits, in order
 * @n_events: the number of @events
 * @role: (nullable): the accessible (ARIA) role, or %NULL when the
 *   component declares no accessibility metadata
 * @keyboard: whether the component is operable from the keyboard
 * @live: how the component announces changes
 * @capabilities: what the component can do
 * @props_func: (nullable) (scope notified) (closure props_data) (destroy props_destroy):
 *   validates the props; %NULL accepts any JSON object
 * @props_data: data for @props_func
 * @props_destroy: (nullable): frees @props_data
 * @fallback_func: (nullable) (scope notified) (closure fallback_data) (destroy fallback_destroy):
 *   builds the plain-text summary; %NULL for none
 * @fallback_data: data for @fallback_func
 * @fallback_destroy: (nullable): frees @fallback_data
 *
 * Creates a custom component definition (the reference's
 * `ComponentDefinition`). Interaction values of a custom component are
 * checked by the kind of each event ([application §2.5](wire-formats.html#application-2)): `none` must
 * have no value, `id` an identifier, `url` a root-relative or absolute
 * http(s) URL without credentials, `form` a JSON object.
 *
 * Returns: (transfer full): the definition
 *
 * Since: 0.1
 */
AkcComponentDefinition *
akc_component_definition_new (const char                *key,
                              AkcComponentEvent * const *events,
                              gsize                      n_events,
                              const char                *role,
                              gboolean                   keyboard,
                              AkcComponentLive           live,
                              AkcComponentCapabilities   capabilities,
                              AkcComponentPropsFunc      props_func,
                              gpointer                   props_data,
                              GDestroyNotify             props_destroy,
                              AkcComponentFallbackFunc   fallback_func,
                              gpointer                   fallback_data,
                              GDestroyNotify             fallback_destroy)
{
  AkcComponentDefinition *self;

  g_return_val_if_fail (key != NULL, NULL);
  g_return_val_if_fail (events != NULL || n_events == 0, NULL);
  g_return_val_if_fail (live <= AKC_COMPONENT_LIVE_ASSERTIVE, NULL);

  for (gsize i = 0; i < n_events; i++)
    g_return_val_if_fail (events[i] != NULL, NULL);

  self = g_object_new (AKC_TYPE_COMPONENT_DEFINITION, NULL);
  self->key = g_strdup (key);
  for (gsize i = 0; i < n_events; i++)
    g_ptr_array_add (self->events, akc_component_event_ref (events[i]));
  self->role = g_strdup (role);
  self->keyboard = !!keyboard;
  self->live = live;
  self->capabilities = capabilities;
  self->props_func = props_func;
  self->props_data = props_data;
  self->props_destroy = props_destroy;
  self->fallback_func = fallback_func;
  self->fallback_data = fallback_data;
  self->fallback_destroy = fallback_destroy;

  return self;
}

static AkcComponentDefinition *standard_definitions[AKC_N_STANDARD_COMPONENTS];
static const char *standard_keys[AKC_N_STANDARD_COMPONENTS + 1];

static AkcComponentDefinition *
standard_definition_new (const AkcStandardComponent *spec)
{
  AkcComponentDefinition *self = g_object_new (AKC_TYPE_COMPONENT_DEFINITION, NULL);

  self->key = g_strdup (spec->key);
  for (guint i = 0; i < spec->n_events; i++)
    g_ptr_array_add (self->events, akc_component_event_new (spec->events[i].name, spec->events[i].value_kind));
  self->role = g_strdup (spec->role);
  self->keyboard = spec->keyboard;
  self->live = spec->live;
  self->capabilities = spec->capabilities;
  self->standard = spec;

  return self;
}

/* The catalog's definitions live as long as the process. */
static void
ensure_standard (void)
{
  static gsize initialized = 0;

  if (g_once_init_enter (&initialized))
    {
      for (guint i = 0; i < AKC_N_STANDARD_COMPONENTS; i++)
        {
          standard_definitions[i] = standard_definition_new (&akc_standard_components[i]);
          standard_keys[i] = akc_standard_components[i].key;
        }
      standard_keys[AKC_N_STANDARD_COMPONENTS] = NULL;
      g_once_init_leave (&initialized, 1);
    }
}

/**
 * akc_component_definition_get_standard:
 * @key: a component key
 *
 * Looks up a definition of the standard catalog ([application §1](wire-formats.html#application-1)). The
 * same instance is returned every time; a [class@ComponentManifest]
 * accepts a standard key only with this instance.
 *
 * Returns: (transfer none) (nullable): the standard definition, or %NULL
 *   when @key is not a standard key
 *
 * Since: 0.1
 */
AkcComponentDefinition *
akc_component_definition_get_standard (const char *key)
{
  g_return_val_if_fail (key != NULL, NULL);

  ensure_standard ();

  for (guint i = 0; i < AKC_N_STANDARD_COMPONENTS; i++)
    if (strcmp (standard_keys[i], key) == 0)
      return standard_definitions[i];

  return NULL;
}

/**
 * akc_component_definition_get_standard_keys:
 *
 * Lists the twelve standard keys in catalog order: `button-group`,
 * `choice-list`, `form`, `confirmation`, `progress`, `source-list`,
 * `link-card`, `error-notice`, `tool-call`, `approval-request`, `table`,
 * `file-attachment` ([application §1.1](wire-formats.html#application-1)).
 *
 * Returns: (transfer none) (array zero-terminated=1): the standard keys
 *
 * Since: 0.1
 */
const char * const *
akc_component_definition_get_standard_keys (void)
{
  ensure_standard ();

  return standard_keys;
}

/**
 * akc_component_definition_get_key:
 * @self: a definition
 *
 * Gets the key frames name the component by.
 *
 * Returns: the component key
 *
 * Since: 0.1
 */
const char *
akc_component_definition_get_key (AkcComponentDefinition *self)
{
  g_return_val_if_fail (AKC_IS_COMPONENT_DEFINITION (self), NULL);

  return self->key;
}

/**
 * akc_component_definition_is_standard:
 * @self: a definition
 *
 * Tells whether @self is one of the twelve standard definitions, which a
 * renderer draws with its standard widgets.
 *
 * Returns: %TRUE for a standard definition
 *
 * Since: 0.1
 */
gboolean
akc_component_definition_is_standard (AkcComponentDefinition *self)
{
  g_return_val_if_fail (AKC_IS_COMPONENT_DEFINITION (self), FALSE);

  return self->standard != NULL;
}

/**
 * akc_component_definition_get_n_events:
 * @self: a definition
 *
 * Gets how many events the component declares.
 *
 * Returns: how many events the component declares; a component without
 *   events is display-only and never owns input ([application §12.4](wire-formats.html#application-12))
 *
 * Since: 0.1
 */
guint
akc_component_definition_get_n_events (AkcComponentDefinition *self)
{
  g_return_val_if_fail (AKC_IS_COMPONENT_DEFINITION (self), 0);

  return self->events->len;
}

/**
 * akc_component_definition_get_event:
 * @self: a definition
 * @index_: an index below [method@ComponentDefinition.get_n_events]
 *
 * Gets one of the events the component declares.
 *
 * Returns: (transfer none): the event at @index_, in declaration order
 *
 * Since: 0.1
 */
AkcComponentEvent *
akc_component_definition_get_event (AkcComponentDefinition *self,
                                    guint                   index_)
{
  g_return_val_if_fail (AKC_IS_COMPONENT_DEFINITION (self), NULL);
  g_return_val_if_fail (index_ < self->events->len, NULL);

  return g_ptr_array_index (self->events, index_);
}

/**
 * akc_component_definition_lookup_event:
 * @self: a definition
 * @name: an event name
 *
 * Finds the declared event called @name ([application §2.5](wire-formats.html#application-2) step 2).
 *
 * Returns: (transfer none) (nullable): the event, or %NULL when @self
 *   does not declare it
 *
 * Since: 0.1
 */
AkcComponentEvent *
akc_component_definition_lookup_event (AkcComponentDefinition *self,
                                       const char             *name)
{
  g_return_val_if_fail (AKC_IS_COMPONENT_DEFINITION (self), NULL);
  g_return_val_if_fail (name != NULL, NULL);

  for (guint i = 0; i < self->events->len; i++)
    {
      AkcComponentEvent *event = g_ptr_array_index (self->events, i);

      if (strcmp (event->name, name) == 0)
        return event;
    }

  return NULL;
}

/**
 * akc_component_definition_get_role:
 * @self: a definition
 *
 * Gets the accessible role of the component.
 *
 * Returns: (nullable): the accessible role as an ARIA role name (for
 *   example `group` or `progressbar`), or %NULL when a custom definition
 *   declares no accessibility metadata
 *
 * Since: 0.1
 */
const char *
akc_component_definition_get_role (AkcComponentDefinition *self)
{
  g_return_val_if_fail (AKC_IS_COMPONENT_DEFINITION (self), NULL);

  return self->role;
}

/**
 * akc_component_definition_get_keyboard:
 * @self: a definition
 *
 * Gets whether the component is operated from the keyboard.
 *
 * Returns: whether the component is operated from the keyboard
 *
 * Since: 0.1
 */
gboolean
akc_component_definition_get_keyboard (AkcComponentDefinition *self)
{
  g_return_val_if_fail (AKC_IS_COMPONENT_DEFINITION (self), FALSE);

  return self->keyboard;
}

/**
 * akc_component_definition_get_live:
 * @self: a definition
 *
 * Gets how the component announces its changes.
 *
 * Returns: how the component announces its changes
 *
 * Since: 0.1
 */
AkcComponentLive
akc_component_definition_get_live (AkcComponentDefinition *self)
{
  g_return_val_if_fail (AKC_IS_COMPONENT_DEFINITION (self), AKC_COMPONENT_LIVE_NONE);

  return self->live;
}

/**
 * akc_component_definition_get_capabilities:
 * @self: a definition
 *
 * Gets what the component can do.
 *
 * Returns: what the component can do
 *
 * Since: 0.1
 */
AkcComponentCapabilities
akc_component_definition_get_capabilities (AkcComponentDefinition *self)
{
  g_return_val_if_fail (AKC_IS_COMPONENT_DEFINITION (self), AKC_COMPONENT_CAPABILITY_NONE);

  return self->capabilities;
}

/**
 * akc_component_definition_validate_props:
 * @self: a definition
 * @props: the `props` of a frame: any JSON value
 *
 * Validates @props (the definition's `propsSchema`). Standard props must
 * be a JSON object following [application §1.2](wire-formats.html#application-1)–§1.14 exactly: strict
 * objects, lengths in UTF-16 code units, unique ids, PortableUrl (§0.5).
 *
 * Returns: (transfer full) (nullable): the validated props (members of
 *   strict objects in declaration order; a new reference to @props when
 *   nothing changed), or %NULL when they are invalid
 *
 * Since: 0.1
 */
AkcJsonValue *
akc_component_definition_validate_props (AkcComponentDefinition *self,
                                         AkcJsonValue           *props)
{
  AkcJsonValue *out = NULL;

  g_return_val_if_fail (AKC_IS_COMPONENT_DEFINITION (self), NULL);
  g_return_val_if_fail (props != NULL, NULL);

  if (self->standard != NULL)
    return akc_schema_validate_table (self->standard->props, props, &out) ? out : NULL;

  if (self->props_func != NULL)
    return self->props_func (self, props, self->props_data);

  return AKC_JSON_IS_OBJECT (props) ? akc_json_value_ref (props) : NULL;
}

char *
akc_component_definition_explain_props (AkcComponentDefinition *self,
                                        AkcJsonValue           *props)
{
  g_autoptr(GString) path = g_string_new ("props");
  g_autofree char *reason = NULL;

  if (self->standard != NULL)
    reason = akc_schema_explain_table (self->standard->props, props, path);
  else if (!AKC_JSON_IS_OBJECT (props))
    reason = g_strdup ("not an object");
  else
    reason = g_strdup ("refused by the component's definition");

  return g_strdup_printf ("%s: %s", path->str, reason);
}

/**
 * akc_component_definition_has_fallback:
 * @self: a definition
 *
 * Checks whether @self builds a fallback text.
 *
 * Returns: whether @self builds a fallback text; every standard
 *   definition does
 *
 * Since: 0.1
 */
gboolean
akc_component_definition_has_fallback (AkcComponentDefinition *self)
{
  g_return_val_if_fail (AKC_IS_COMPONENT_DEFINITION (self), FALSE);

  return self->standard != NULL || self->fallback_func != NULL;
}

/**
 * akc_component_definition_dup_fallback:
 * @self: a definition
 * @props: the `props` of a frame
 *
 * Builds the definition fallback (the reference's `fallback(props)`): a
 * plain-text summary of the component, for example `Actions: Save.` for a
 * button group ([application §1.3](wire-formats.html#application-1)–§1.14 "Fallback"). Prop texts are
 * used verbatim and numbers are written as ECMAScript writes them (§0.7).
 * A renderer should use it as the accessible description of a standard
 * component (§2.9).
 *
 * This is not the frame's own fallback, which a renderer shows when it
 * cannot render a component (see [func@component_format_semantic_fallback]).
 *
 * Returns: (transfer full) (nullable): the summary, or %NULL when @props
 *   are invalid or @self has no fallback
 *
 * Since: 0.1
 */
char *
akc_component_definition_dup_fallback (AkcComponentDefinition *self,
                                       AkcJsonValue           *props)
{
  g_autoptr(AkcJsonValue) valid = NULL;

  g_return_val_if_fail (AKC_IS_COMPONENT_DEFINITION (self), NULL);
  g_return_val_if_fail (props != NULL, NULL);

  if (!akc_component_definition_has_fallback (self))
    return NULL;

  valid = akc_component_definition_validate_props (self, props);
  if (valid == NULL)
    return NULL;

  return akc_component_definition_build_fallback (self, valid);
}

char *
akc_component_definition_build_fallback (AkcComponentDefinition *self,
                                         AkcJsonValue           *props)
{
  g_assert (AKC_IS_COMPONENT_DEFINITION (self));
  g_assert (props != NULL);

  if (self->standard != NULL)
    {
      GString *out = g_string_new (NULL);

      self->standard->fallback (out, props);
      return g_string_free (out, FALSE);
    }

  if (self->fallback_func != NULL)
    return self->fallback_func (self, props, self->fallback_data);

  return NULL;
}

gboolean
akc_component_definition_accepts (AkcComponentDefinition  *self,
                                  AkcJsonValue            *props,
                                  const AkcComponentEvent *event,
                                  AkcJsonValue            *value)
{
  g_assert (AKC_IS_COMPONENT_DEFINITION (self));
  g_assert (props != NULL);
  g_assert (event != NULL);

  if (self->standard != NULL)
    return self->standard->interaction != NULL &&
           self->standard->interaction (event->name, props, value);

  switch (event->value_kind)
    {
    case AKC_COMPONENT_VALUE_NONE:
      return value == NULL;
    case AKC_COMPONENT_VALUE_ID:
      return AKC_JSON_IS_STRING (value) &&
             akc_text_is_safe_id (AKC_JSON_STR (value), AKC_JSON_STR_LEN (value));
    case AKC_COMPONENT_VALUE_URL:
      return AKC_JSON_IS_STRING (value) &&
             akc_component_is_interaction_url (AKC_JSON_STR (value), AKC_JSON_STR_LEN (value));
    case AKC_COMPONENT_VALUE_FORM:
      return AKC_JSON_IS_OBJECT (value);
    default:
      g_assert_not_reached ();
    }
}
