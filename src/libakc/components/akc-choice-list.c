/* akc-choice-list.c
 *
 * SPDX-License-Identifier: MIT
 */

#include "config.h"

#include <string.h>

#include "akc-choice-list.h"
#include "akc-component-definition.h"
#include "akc-component-frame.h"
#include "akc-error.h"
#include "akc-json-private.h"

/* application appendix A */
#define NOT_A_CHOICE_LIST "Selection frame is not a ChoiceList."
#define CHOICE_NOT_OFFERED "Selected choice is not present in the ChoiceList."
/* The reference throws its schema error here; the port reports it as a
 * configuration error with the sentence of §2.4. */
#define PROPS_INVALID "ChoiceList props are invalid."

/* The choices of @frame's props under the standard choice-list schema, or
 * NULL. @frame is decoded first, so any value may be passed. */
static AkcJsonValue *
dup_choices (AkcJsonValue *frame,
             gboolean     *is_choice_list)
{
  g_autoptr(AkcJsonValue) decoded = akc_component_frame_decode_value (frame, NULL);
  g_autoptr(AkcJsonValue) props = NULL;
  AkcComponentDefinition *definition;

  *is_choice_list = decoded != NULL &&
                    akc_json_string_equals (akc_json_object_lookup (decoded, "componentKey", strlen ("componentKey"), NULL),
                                            AKC_CHOICE_LIST_COMPONENT_KEY);
  if (decoded == NULL)
    return NULL;

  definition = akc_component_definition_get_standard (AKC_CHOICE_LIST_COMPONENT_KEY);
  props = akc_component_definition_validate_props (definition,
                                                   akc_json_object_lookup (decoded, "props", strlen ("props"), NULL));
  if (props == NULL)
    return NULL;

  return akc_json_value_ref (akc_json_object_lookup (props, "choices", strlen ("choices"), NULL));
}

static AkcJsonValue *
find_choice (AkcJsonValue *choices,
             const char   *choice_id)
{
  for (gsize i = 0; i < AKC_JSON_LEN (choices); i++)
    {
      AkcJsonValue *choice = AKC_JSON_ELEMENT (choices, i);

      if (akc_json_string_equals (akc_json_object_lookup (choice, "id", 2, NULL), choice_id))
        return choice;
    }

  return NULL;
}

/**
 * akc_choice_list_select:
 * @frame: the choice-list render frame the choice was made in
 * @choice_id: the id of the chosen choice
 * @error: return location for a #GError
 *
 * Creates the selection event of a choice list (`selectChoice`,
 * [application §2.6](wire-formats.html#application-2)). It fails with %AKC_ERROR_CONFIG_INVALID and
 *
 * - “Selection frame is not a ChoiceList.” when @frame is not a render
 *   frame of key `choice-list`;
 * - “ChoiceList props are invalid.” when its props are not valid
 *   choice-list props;
 * - “Selected choice is not present in the ChoiceList.” when no choice
 *   has the id @choice_id.
 *
 * Selecting a choice never executes its action: see
 * [func@choice_list_resolve_action].
 *
 * Returns: (transfer full) (nullable): the selection event (`protocol`,
 *   `version`, `type` `select`, `componentKey`, `instanceId`,
 *   `choiceId`), or %NULL with @error set
 *
 * Since: 0.1
 */
AkcJsonValue *
akc_choice_list_select (AkcJsonValue  *frame,
                        const char    *choice_id,
                        GError       **error)
{
  g_autoptr(AkcJsonValue) choices = NULL;
  gboolean is_choice_list;

  g_return_val_if_fail (frame != NULL, NULL);
  g_return_val_if_fail (choice_id != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  choices = dup_choices (frame, &is_choice_list);
  if (!is_choice_list)
    {
      g_set_error_literal (error, AKC_ERROR, AKC_ERROR_CONFIG_INVALID, NOT_A_CHOICE_LIST);
      return NULL;
    }
  if (choices == NULL)
    {
      g_set_error_literal (error, AKC_ERROR, AKC_ERROR_CONFIG_INVALID, PROPS_INVALID);
      return NULL;
    }
  if (find_choice (choices, choice_id) == NULL)
    {
      g_set_error_literal (error, AKC_ERROR, AKC_ERROR_CONFIG_INVALID, CHOICE_NOT_OFFERED);
      return NULL;
    }

  return akc_component_selection_event_new (frame, choice_id, error);
}

/**
 * akc_choice_list_resolve_action:
 * @frame: a choice-list render frame
 * @choice_id: the id of a choice
 *
 * Finds the typed action of a choice (`resolveChoiceAction`,
 * [application §2.7](wire-formats.html#application-2)), `{name, input}`. The action is only a proposal:
 * selecting the choice proposes a confirmation-gated tool call and never
 * executes anything by itself. A choice without an action is what the
 * choice-submission hook ([callback@ChoiceSubmissionFunc]) is called for.
 *
 * Returns: (transfer full) (nullable): the action, or %NULL when the
 *   choice has none, is unknown, or @frame has no valid choice-list props
 *
 * Since: 0.1
 */
AkcJsonValue *
akc_choice_list_resolve_action (AkcJsonValue *frame,
                                const char   *choice_id)
{
  g_autoptr(AkcJsonValue) choices = NULL;
  AkcJsonValue *choice, *action;
  gboolean is_choice_list;

  g_return_val_if_fail (frame != NULL, NULL);
  g_return_val_if_fail (choice_id != NULL, NULL);

  choices = dup_choices (frame, &is_choice_list);
  if (choices == NULL)
    return NULL;

  choice = find_choice (choices, choice_id);
  action = choice != NULL ? akc_json_object_lookup (choice, "action", strlen ("action"), NULL) : NULL;

  return action != NULL ? akc_json_value_ref (action) : NULL;
}
