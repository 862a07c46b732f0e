/* fuzz-catalog.c: libFuzzer target for the component catalog
 * (application.md §1, §2.4–§2.9, §12.2)
 *
 * SPDX-License-Identifier: MIT
 *
 * The input is taken as an assistant message (presented against a
 * manifest with a custom component) and as JSON: its `props` (or itself)
 * go through every standard definition, its `frame` (or itself) is
 * resolved, every declared event is tried with its `value`, and a
 * `message.content` or `content` string is presented too.
 */

#include <stdint.h>
#include <string.h>

#include "akc.h"
#include "akc-json-private.h"

int LLVMFuzzerTestOneInput (const uint8_t *data, size_t size);

static AkcComponentManifest *
manifest_with_custom (void)
{
  static AkcComponentManifest *manifest = NULL;

  if (manifest == NULL)
    {
      g_autoptr(AkcComponentEvent) pick = akc_component_event_new ("pick", AKC_COMPONENT_VALUE_ID);
      g_autoptr(AkcComponentEvent) go = akc_component_event_new ("go", AKC_COMPONENT_VALUE_URL);
      g_autoptr(AkcComponentEvent) send = akc_component_event_new ("send", AKC_COMPONENT_VALUE_FORM);
      AkcComponentEvent *events[] = { pick, go, send };
      g_autoptr(GPtrArray) definitions = g_ptr_array_new_with_free_func (g_object_unref);

      for (const char * const *k = akc_component_definition_get_standard_keys (); *k != NULL; k++)
        g_ptr_array_add (definitions, g_object_ref (akc_component_definition_get_standard (*k)));
      g_ptr_array_add (definitions,
                       akc_component_definition_new ("map-view", events, G_N_ELEMENTS (events), NULL, TRUE,
                                                     AKC_COMPONENT_LIVE_NONE, AKC_COMPONENT_CAPABILITY_DISPLAY,
                                                     NULL, NULL, NULL, NULL, NULL, NULL));
      manifest = akc_component_manifest_new ((AkcComponentDefinition **) definitions->pdata, definitions->len, NULL);
      g_assert (manifest != NULL);
    }

  return manifest;
}

static void
check_props (AkcJsonValue *props)
{
  for (const char * const *k = akc_component_definition_get_standard_keys (); *k != NULL; k++)
    {
      AkcComponentDefinition *definition = akc_component_definition_get_standard (*k);
      g_autoptr(AkcJsonValue) valid = akc_component_definition_validate_props (definition, props);
      g_autofree char *fallback = akc_component_definition_dup_fallback (definition, props);

      /* Valid props have a fallback, and validating them again is a no-op. */
      g_assert ((valid != NULL) == (fallback != NULL));
      if (valid != NULL)
        {
          g_autoptr(AkcJsonValue) again = akc_component_definition_validate_props (definition, valid);

          g_assert (again == valid);
        }
    }
}

/* An event that was created is a wire event of @type; takes @event. */
static void
check_event (AkcJsonValue *event,
             const char   *type)
{
  if (event == NULL)
    return;

  g_assert (akc_json_string_equals (akc_json_object_lookup (event, "protocol", 8, NULL), "agentskit.chat.component"));
  g_assert (akc_json_string_equals (akc_json_object_lookup (event, "type", 4, NULL), type));
  akc_json_value_unref (event);
}

static void
check_frame (AkcComponentManifest *manifest,
             AkcJsonValue         *frame,
             AkcJsonValue         *value)
{
  g_autoptr(AkcResolvedComponent) resolved = akc_component_manifest_resolve (manifest, frame, NULL);
  AkcComponentDefinition *definition;

  if (resolved == NULL)
    return;

  definition = akc_resolved_component_get_definition (resolved);
  g_free (akc_resolved_component_dup_description (resolved));
  g_free (akc_resolved_component_dup_semantic_fallback (resolved));

  for (guint i = 0; i < akc_component_definition_get_n_events (definition); i++)
    {
      const char *name = akc_component_event_get_name (akc_component_definition_get_event (definition, i));

      check_event (akc_resolved_component_create_interaction (resolved, name, value, NULL), "interact");
      check_event (akc_resolved_component_create_interaction (resolved, name, NULL, NULL), "interact");
    }

  if (AKC_JSON_IS_STRING (value) && memchr (AKC_JSON_STR (value), 0, AKC_JSON_STR_LEN (value)) == NULL)
    {
      check_event (akc_resolved_component_select_choice (resolved, AKC_JSON_STR (value), NULL), "select");
      (void) akc_resolved_component_get_choice_action (resolved, AKC_JSON_STR (value));
    }
}

int
LLVMFuzzerTestOneInput (const uint8_t *data,
                        size_t         size)
{
  AkcComponentManifest *manifest = manifest_with_custom ();
  g_autoptr(AkcJsonValue) value = NULL;
  g_autoptr(GListModel) presentations = NULL;
  AkcJsonValue *frame, *props, *event_value;

  presentations = akc_present_content (AKC_MESSAGE_ROLE_ASSISTANT, (const char *) data, (gssize) size, manifest);
  g_assert (presentations != NULL);

  value = akc_json_parse ((const char *) data, size, NULL, NULL, NULL);
  if (value == NULL)
    return 0;

  props = AKC_JSON_IS_OBJECT (value) ? akc_json_object_lookup (value, "props", 5, NULL) : NULL;
  frame = AKC_JSON_IS_OBJECT (value) ? akc_json_object_lookup (value, "frame", 5, NULL) : NULL;
  event_value = AKC_JSON_IS_OBJECT (value) ? akc_json_object_lookup (value, "value", 5, NULL) : NULL;
  if (event_value == NULL && AKC_JSON_IS_OBJECT (value))
    event_value = akc_json_object_lookup (value, "choiceId", 8, NULL);

  check_props (props != NULL ? props : value);
  check_frame (manifest, frame != NULL ? frame : value, event_value);

  if (AKC_JSON_IS_OBJECT (value))
    {
      AkcJsonValue *fallback = akc_json_object_lookup (value, "fallback", 8, NULL);
      AkcJsonValue *message = akc_json_object_lookup (value, "message", 7, NULL);
      AkcJsonValue *content = AKC_JSON_IS_OBJECT (message)
                              ? akc_json_object_lookup (message, "content", 7, NULL)
                              : akc_json_object_lookup (value, "content", 7, NULL);

      if (fallback != NULL)
        g_free (akc_component_format_semantic_fallback (fallback));

      /* The presentation fixtures carry the message content inside. */
      if (AKC_JSON_IS_STRING (content))
        g_object_unref (akc_present_content (AKC_MESSAGE_ROLE_ASSISTANT, AKC_JSON_STR (content),
                                             (gssize) AKC_JSON_STR_LEN (content), manifest));
    }
  g_free (akc_component_dup_pretty_json (value));
  g_free (akc_component_dup_cell_text (value, NULL));

  return 0;
}
