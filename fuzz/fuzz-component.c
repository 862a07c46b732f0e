/* fuzz-component.c: libFuzzer target for the component-frame decoder
 * (protocol.md §3)
 *
 * SPDX-License-Identifier: MIT
 */

#include <stdint.h>
#include <string.h>

#include "akc-component-frame.h"
#include "akc-json-private.h"

int LLVMFuzzerTestOneInput (const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput (const uint8_t *data,
                        size_t         size)
{
  g_autoptr(AkcDiagnostic) diagnostic = NULL;
  g_autoptr(AkcJsonValue) frame = NULL;
  g_autoptr(AkcJsonValue) parsed = NULL;
  const char *text = (const char *) data;
  gboolean candidate;

  frame = akc_component_frame_decode (text, size, &diagnostic);
  g_assert ((frame == NULL) != (diagnostic == NULL));
  candidate = akc_component_frame_is_candidate (text, size);

  /* Steps 2.1 and 2.2 only concern candidates. */
  if (diagnostic != NULL &&
      (strcmp (akc_diagnostic_get_code (diagnostic), "COMPONENT_UNSUPPORTED_VERSION") == 0 ||
       strcmp (akc_diagnostic_get_code (diagnostic), "COMPONENT_UNKNOWN_TYPE") == 0))
    g_assert (candidate);
  if (diagnostic != NULL)
    g_assert (!akc_diagnostic_get_retryable (diagnostic) && akc_diagnostic_get_event_id (diagnostic) == NULL);

  /* The value form agrees with the text form. */
  parsed = akc_json_parse (text, size, NULL, NULL, NULL);
  if (parsed != NULL)
    {
      g_autoptr(AkcDiagnostic) d2 = NULL;
      g_autoptr(AkcJsonValue) f2 = akc_component_frame_decode_value (parsed, &d2);

      g_assert (candidate == akc_component_frame_is_candidate_value (parsed));
      if (frame != NULL)
        g_assert (f2 != NULL && akc_json_value_equal (frame, f2));
      else
        g_assert (d2 != NULL && akc_diagnostic_equal (diagnostic, d2));
    }
  else
    g_assert (frame == NULL && !candidate);

  if (frame != NULL)
    {
      g_autofree char *canonical = akc_json_value_to_canonical (frame, NULL);
      g_autoptr(AkcJsonValue) again = akc_component_frame_decode (canonical, -1, NULL);
      g_autofree char *canonical2 = NULL;
      g_autofree char *fallback = akc_component_frame_dup_fallback_text (frame);
      g_autoptr(AkcJsonValue) selection = NULL;
      g_autoptr(AkcJsonValue) interaction = NULL;

      g_assert (candidate);
      g_assert (again != NULL && akc_json_value_equal (frame, again));
      canonical2 = akc_json_value_to_canonical (again, NULL);
      g_assert (strcmp (canonical, canonical2) == 0);
      g_assert (fallback != NULL);

      /* Events built from a valid frame with valid arguments always validate. */
      selection = akc_component_selection_event_new (frame, "choice-1", NULL);
      g_assert (selection != NULL);
      interaction = akc_component_interaction_event_new (frame, "submit",
                                                         akc_json_value_get_member (frame, "props"), NULL);
      g_assert (interaction != NULL);
    }

  return 0;
}
