/* akc-component-manifest.c
 *
 * SPDX-License-Identifier: MIT
 */

#include "config.h"

#include <string.h>

#include "akc-choice-list.h"
#include "akc-component-frame.h"
#include "akc-component-manifest.h"
#include "akc-component-private.h"
#include "akc-error.h"
#include "akc-json-private.h"
#include "akc-text-private.h"

/* application appendix A */
#define MANIFEST_INVALID      "Component manifest keys must be non-empty, unique, and must not override standard catalog keys."
#define CODE_UNKNOWN          "COMPONENT_UNKNOWN"
#define CODE_INVALID_PROPS    "COMPONENT_INVALID_PROPS"
#define MESSAGE_UNREGISTERED  "Component is not registered."
#define MESSAGE_INVALID_PROPS "Component props are invalid."
#define MESSAGE_NOT_CHOICES   "Component is not a ChoiceList."

/**
 * AkcComponentManifest:
 *
 * The closed set of components an application renders
 * (`defineComponentManifest`, [application §2.3](wire-formats.html#application-2)): every render frame is
 * resolved against it, and only the components it holds are rendered or
 * emit events.
 *
 * A manifest is immutable. It keeps its definitions in registration order
 * and looks keys up among them only (a key such as `constructor` never
 * resolves to anything). [ctor@ComponentManifest.new_standard] holds the
 * twelve standard components in catalog order.
 *
 * Since: 0.1
 */
struct _AkcComponentManifest
{
  GObject     parent_instance;

  GPtrArray  *definitions;  /* AkcComponentDefinition, registration order */
  GHashTable *by_key;       /* key (owned by the definition) → definition */
};

G_DEFINE_FINAL_TYPE (AkcComponentManifest, akc_component_manifest, G_TYPE_OBJECT)

static void
akc_component_manifest_finalize (GObject *object)
{
  AkcComponentManifest *self = AKC_COMPONENT_MANIFEST (object);

  g_clear_pointer (&self->by_key, g_hash_table_unref);
  g_clear_pointer (&self->definitions, g_ptr_array_unref);

  G_OBJECT_CLASS (akc_component_manifest_parent_class)->finalize (object);
}

static void
akc_component_manifest_class_init (AkcComponentManifestClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->finalize = akc_component_manifest_finalize;
}

static void
akc_component_manifest_init (AkcComponentManifest *self)
{
  self->definitions = g_ptr_array_new_with_free_func (g_object_unref);
  self->by_key = g_hash_table_new (g_str_hash, g_str_equal);
}

/**
 * akc_component_manifest_new:
 * @definitions: (array length=n_definitions): the definitions, in order
 * @n_definitions: the number of @definitions
 * @error: return location for a #GError
 *
 * Builds a manifest (`defineComponentManifest`, [application §2.3](wire-formats.html#application-2)).
 * Registration fails with %AKC_ERROR_CONFIG_INVALID and the message
 * “Component manifest keys must be non-empty, unique, and must not
 * override standard catalog keys.” when a key does not match the
 * component-key grammar, when two definitions share a key, or when a
 * definition takes a standard key without being that standard definition
 * (the instance returned by [func@ComponentDefinition.get_standard]).
 *
 * Returns: (transfer full) (nullable): the manifest, or %NULL with @error
 *   set
 *
 * Since: 0.1
 */
AkcComponentManifest *
akc_component_manifest_new (AkcComponentDefinition * const *definitions,
                            gsize                           n_definitions,
                            GError                        **error)
{
  g_autoptr(AkcComponentManifest) self = NULL;

  g_return_val_if_fail (definitions != NULL || n_definitions == 0, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  self = g_object_new (AKC_TYPE_COMPONENT_MANIFEST, NULL);

  for (gsize i = 0; i < n_definitions; i++)
    {
      AkcComponentDefinition *definition = definitions[i];
      const char *key;
      AkcComponentDefinition *standard;

      g_return_val_if_fail (AKC_IS_COMPONENT_DEFINITION (definition), NULL);

      key = akc_component_definition_get_key (definition);
      standard = akc_component_definition_get_standard (key);

      if (!akc_text_is_component_key (key, strlen (key)) ||
          g_hash_table_contains (self->by_key, key) ||
          (standard != NULL && standard != definition))
        {
          g_set_error_literal (error, AKC_ERROR, AKC_ERROR_CONFIG_INVALID, MANIFEST_INVALID);
          return NULL;
        }

      g_ptr_array_add (self->definitions, g_object_ref (definition));
      g_hash_table_insert (self->by_key, (gpointer) key, definition);
    }

  return g_steal_pointer (&self);
}

/**
 * akc_component_manifest_new_standard:
 *
 * Returns the manifest of the standard catalog: the twelve standard
 * definitions in catalog order ([application §1.1](wire-formats.html#application-1)). Every call returns
 * a new reference to the same immutable manifest.
 *
 * Returns: (transfer full): the standard manifest
 *
 * Since: 0.1
 */
AkcComponentManifest *
akc_component_manifest_new_standard (void)
{
  static AkcComponentManifest *standard = NULL;

  if (g_once_init_enter (&standard))
    {
      const char * const *keys = akc_component_definition_get_standard_keys ();
      g_autoptr(GPtrArray) definitions = g_ptr_array_new ();
      AkcComponentManifest *manifest;

      for (; *keys != NULL; keys++)
        g_ptr_array_add (definitions, akc_component_definition_get_standard (*keys));
      manifest = akc_component_manifest_new ((AkcComponentDefinition **) definitions->pdata,
                                             definitions->len, NULL);
      g_assert (manifest != NULL);
      g_once_init_leave (&standard, manifest);
    }

  return g_object_ref (standard);
}

/**
 * akc_component_manifest_get_n_definitions:
 * @self: a manifest
 *
 * Gets the number of registered definitions.
 *
 * Returns: the number of registered definitions
 *
 * Since: 0.1
 */
guint
akc_component_manifest_get_n_definitions (AkcComponentManifest *self)
{
  g_return_val_if_fail (AKC_IS_COMPONENT_MANIFEST (self), 0);

  return self->definitions->len;
}

/**
 * akc_component_manifest_get_definition:
 * @self: a manifest
 * @index_: an index below [method@ComponentManifest.get_n_definitions]
 *
 * Gets one of the registered definitions.
 *
 * Returns: (transfer none): the definition registered at @index_
 *
 * Since: 0.1
 */
AkcComponentDefinition *
akc_component_manifest_get_definition (AkcComponentManifest *self,
                                       guint                 index_)
{
  g_return_val_if_fail (AKC_IS_COMPONENT_MANIFEST (self), NULL);
  g_return_val_if_fail (index_ < self->definitions->len, NULL);

  return g_ptr_array_index (self->definitions, index_);
}

/**
 * akc_component_manifest_lookup:
 * @self: a manifest
 * @key: a component key
 *
 * Finds the definition registered for @key. Only registered keys are
 * found.
 *
 * Returns: (transfer none) (nullable): the definition, or %NULL
 *
 * Since: 0.1
 */
AkcComponentDefinition *
akc_component_manifest_lookup (AkcComponentManifest *self,
                               const char           *key)
{
  g_return_val_if_fail (AKC_IS_COMPONENT_MANIFEST (self), NULL);
  g_return_val_if_fail (key != NULL, NULL);

  return g_hash_table_lookup (self->by_key, key);
}

static void
set_diagnostic (AkcDiagnostic **diagnostic,
                const char     *code,
                const char     *message)
{
  if (diagnostic != NULL)
    *diagnostic = akc_diagnostic_new (code, message, FALSE, NULL);
}

/* §2.4 steps 2–4 on a decoded frame (transfer full). */
static AkcResolvedComponent *
resolve_decoded (AkcComponentManifest  *self,
                 AkcJsonValue          *decoded,
                 AkcDiagnostic        **diagnostic)
{
  g_autoptr(AkcJsonValue) frame = decoded;
  g_autoptr(AkcJsonValue) props = NULL;
  AkcComponentDefinition *definition;
  AkcJsonValue *key;

  if (frame == NULL)
    return NULL;  /* step 1: the decoder's diagnostic, unchanged */

  key = akc_json_object_lookup (frame, "componentKey", strlen ("componentKey"), NULL);
  definition = g_hash_table_lookup (self->by_key, AKC_JSON_STR (key));
  if (definition == NULL)
    {
      set_diagnostic (diagnostic, CODE_UNKNOWN, MESSAGE_UNREGISTERED);
      return NULL;
    }

  props = akc_component_definition_validate_props (definition,
                                                   akc_json_object_lookup (frame, "props", strlen ("props"), NULL));
  if (props == NULL)
    {
      if (diagnostic != NULL)
        {
          g_autofree char *field_path =
            akc_component_definition_explain_props (definition,
                                                    akc_json_object_lookup (frame, "props", strlen ("props"), NULL));

          *diagnostic = akc_diagnostic_new_with_field_path (CODE_INVALID_PROPS, MESSAGE_INVALID_PROPS,
                                                            FALSE, NULL, field_path);
        }
      return NULL;
    }

  return akc_resolved_component_new (definition, frame, props);
}

/**
 * akc_component_manifest_resolve:
 * @self: a manifest
 * @frame: a render frame candidate: any JSON value
 * @diagnostic: (out) (optional) (nullable) (transfer full): return location
 *   for the diagnostic on failure
 *
 * Resolves a render frame (`resolveComponentFrame`, [application §2.4](wire-formats.html#application-2)):
 *
 * 1. decode it with [func@component_frame_decode_value]; a failure returns
 *    that decoder's diagnostic unchanged;
 * 2. an unregistered key: `COMPONENT_UNKNOWN`, “Component is not
 *    registered.”;
 * 3. props the definition rejects: `COMPONENT_INVALID_PROPS`, “Component
 *    props are invalid.”
 *
 * Every diagnostic is not retryable and never echoes the frame.
 *
 * Returns: (transfer full) (nullable): the resolved component, or %NULL
 *   with @diagnostic set
 *
 * Since: 0.1
 */
AkcResolvedComponent *
akc_component_manifest_resolve (AkcComponentManifest  *self,
                                AkcJsonValue          *frame,
                                AkcDiagnostic        **diagnostic)
{
  g_return_val_if_fail (AKC_IS_COMPONENT_MANIFEST (self), NULL);
  g_return_val_if_fail (frame != NULL, NULL);
  g_return_val_if_fail (diagnostic == NULL || *diagnostic == NULL, NULL);

  return resolve_decoded (self, akc_component_frame_decode_value (frame, diagnostic), diagnostic);
}

/**
 * akc_component_manifest_resolve_text:
 * @self: a manifest
 * @text: a render frame as
 *   JSON text
 * @length: the length of @text in bytes, or -1 if it is NUL-terminated
 * @diagnostic: (out) (optional) (nullable) (transfer full): return location
 *   for the diagnostic on failure
 *
 * The text form of [method@ComponentManifest.resolve]: text that is not
 * JSON fails with `COMPONENT_INVALID_FRAME`, “Component frame is not valid
 * JSON.”
 *
 * Returns: (transfer full) (nullable): the resolved component, or %NULL
 *   with @diagnostic set
 *
 * Since: 0.1
 */
AkcResolvedComponent *
akc_component_manifest_resolve_text (AkcComponentManifest  *self,
                                     const char            *text,
                                     gssize                 length,
                                     AkcDiagnostic        **diagnostic)
{
  g_return_val_if_fail (AKC_IS_COMPONENT_MANIFEST (self), NULL);
  g_return_val_if_fail (text != NULL || length == 0, NULL);
  g_return_val_if_fail (diagnostic == NULL || *diagnostic == NULL, NULL);

  return resolve_decoded (self, akc_component_frame_decode (text, length, diagnostic), diagnostic);
}

/**
 * akc_component_manifest_resolve_text_utf8: (rename-to akc_component_manifest_resolve_text)
 * @self: a manifest
 * @text: a render frame as
 *   JSON text
 * @diagnostic: (out) (optional) (nullable) (transfer full): return location
 *   for the diagnostic on failure
 *
 * Does what akc_component_manifest_resolve_text() does, for NUL-terminated @text:
 * the form bindings see.
 *
 * Returns: (transfer full) (nullable): the resolved component, or %NULL
 *   with @diagnostic set
 *
 * Since: 0.1
 */
AkcResolvedComponent *
akc_component_manifest_resolve_text_utf8 (AkcComponentManifest  *self,
                                          const char            *text,
                                          AkcDiagnostic        **diagnostic)
{
  return akc_component_manifest_resolve_text (self, text, -1, diagnostic);
}

/**
 * akc_component_manifest_resolve_choice_list:
 * @self: a manifest
 * @frame: a render frame candidate
 * @diagnostic: (out) (optional) (nullable) (transfer full): return location
 *   for the diagnostic on failure
 *
 * Resolves a frame that must be a choice list (`resolveChoiceListFrame`,
 * [application §2.4](wire-formats.html#application-2)): [method@ComponentManifest.resolve], then a
 * resolved frame of another key fails with `COMPONENT_UNKNOWN`,
 * “Component is not a ChoiceList.”
 *
 * Returns: (transfer full) (nullable): the resolved choice list, or %NULL
 *   with @diagnostic set
 *
 * Since: 0.1
 */
AkcResolvedComponent *
akc_component_manifest_resolve_choice_list (AkcComponentManifest  *self,
                                            AkcJsonValue          *frame,
                                            AkcDiagnostic        **diagnostic)
{
  g_autoptr(AkcResolvedComponent) resolved = NULL;

  g_return_val_if_fail (AKC_IS_COMPONENT_MANIFEST (self), NULL);
  g_return_val_if_fail (frame != NULL, NULL);
  g_return_val_if_fail (diagnostic == NULL || *diagnostic == NULL, NULL);

  resolved = akc_component_manifest_resolve (self, frame, diagnostic);
  if (resolved == NULL)
    return NULL;

  if (strcmp (akc_resolved_component_get_component_key (resolved), AKC_CHOICE_LIST_COMPONENT_KEY) != 0)
    {
      set_diagnostic (diagnostic, CODE_UNKNOWN, MESSAGE_NOT_CHOICES);
      return NULL;
    }

  /* The reference then re-parses the props with the ChoiceList schema
   * (`COMPONENT_INVALID_PROPS`, “ChoiceList props are invalid.”). A
   * manifest only ever holds the standard choice-list definition under
   * this key (§2.3), whose props were just validated with that schema, so
   * the second parse cannot fail and is not repeated. */
  g_assert (akc_component_definition_is_standard (akc_resolved_component_get_definition (resolved)));

  return g_steal_pointer (&resolved);
}

/**
 * akc_component_manifest_create_interaction:
 * @self: a manifest
 * @frame: the render frame the user interacted with
 * @event: the event name, such as `submit`
 * @value: (nullable): the event value, or %NULL when the event has none
 * @error: return location for a #GError
 *
 * Creates an interaction event (`createComponentInteraction`,
 * [application §2.5](wire-formats.html#application-2)): the frame is resolved against @self, @event must
 * be declared by its definition, and @value must pass the rule of that
 * event (the component's rule in §1.3–§1.14 for a standard key, the
 * event's value kind for a custom one). When any of these fails, the
 * error is %AKC_ERROR_CONFIG_INVALID, “Component interaction is not
 * declared by the resolved component.”
 *
 * A choice list never emits interaction events; use
 * [func@choice_list_select].
 *
 * Returns: (transfer full) (nullable): the interaction event (`protocol`,
 *   `version`, `type` `interact`, `componentKey`, `instanceId`, `event`
 *   and `value` unless @value is %NULL), or %NULL with @error set
 *
 * Since: 0.1
 */
AkcJsonValue *
akc_component_manifest_create_interaction (AkcComponentManifest  *self,
                                           AkcJsonValue          *frame,
                                           const char            *event,
                                           AkcJsonValue          *value,
                                           GError               **error)
{
  g_autoptr(AkcResolvedComponent) resolved = NULL;

  g_return_val_if_fail (AKC_IS_COMPONENT_MANIFEST (self), NULL);
  g_return_val_if_fail (frame != NULL, NULL);
  g_return_val_if_fail (event != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  resolved = akc_component_manifest_resolve (self, frame, NULL);
  if (resolved == NULL)
    {
      g_set_error_literal (error, AKC_ERROR, AKC_ERROR_CONFIG_INVALID, AKC_COMPONENT_INTERACTION_INVALID);
      return NULL;
    }

  return akc_resolved_component_create_interaction (resolved, event, value, error);
}

/**
 * akc_component_manifest_resolve_fallback:
 * @self: a manifest
 * @frame: a render frame candidate
 *
 * Resolves the definition fallback of a frame
 * (`resolveComponentFallback`, [application §2.9](wire-formats.html#application-2)): the summary its
 * definition builds from its props, for example `Actions: Save.`.
 *
 * Returns: (transfer full) (nullable): the summary, or %NULL when the
 *   frame does not resolve or its definition has no fallback
 *
 * Since: 0.1
 */
char *
akc_component_manifest_resolve_fallback (AkcComponentManifest *self,
                                         AkcJsonValue         *frame)
{
  g_autoptr(AkcResolvedComponent) resolved = NULL;

  g_return_val_if_fail (AKC_IS_COMPONENT_MANIFEST (self), NULL);
  g_return_val_if_fail (frame != NULL, NULL);

  resolved = akc_component_manifest_resolve (self, frame, NULL);
  if (resolved == NULL)
    return NULL;

  return akc_resolved_component_dup_description (resolved);
}
