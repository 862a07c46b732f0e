/* test-diagnostic.c: AkcDiagnostic and the protocol error domain
 *
 * SPDX-License-Identifier: MIT
 */

#include "config.h"

#include "akc-diagnostic.h"
#include "akc-fixture.h"

static void
test_basics (void)
{
  g_autoptr(AkcDiagnostic) d = akc_diagnostic_new ("PROTOCOL_INVALID_PAYLOAD",
                                                   "Turn event payload is invalid.",
                                                   FALSE, "evt-1");
  g_autoptr(AkcDiagnostic) same = akc_diagnostic_new ("PROTOCOL_INVALID_PAYLOAD",
                                                      "Turn event payload is invalid.",
                                                      FALSE, "evt-1");
  g_autoptr(AkcDiagnostic) no_id = akc_diagnostic_new ("PROTOCOL_INVALID_PAYLOAD",
                                                       "Turn event payload is invalid.",
                                                       FALSE, NULL);
  AkcDiagnostic *copy;

  g_assert_cmpstr (akc_diagnostic_get_code (d), ==, "PROTOCOL_INVALID_PAYLOAD");
  g_assert_cmpstr (akc_diagnostic_get_message (d), ==, "Turn event payload is invalid.");
  g_assert_false (akc_diagnostic_get_retryable (d));
  g_assert_cmpstr (akc_diagnostic_get_event_id (d), ==, "evt-1");
  g_assert_null (akc_diagnostic_get_event_id (no_id));
  g_assert_true (akc_diagnostic_equal (d, same));
  g_assert_false (akc_diagnostic_equal (d, no_id));
  g_assert_cmpint (akc_diagnostic_get_error_code (d), ==, AKC_PROTOCOL_ERROR_PROTOCOL_INVALID_PAYLOAD);

  copy = g_boxed_copy (AKC_TYPE_DIAGNOSTIC, d);
  g_assert_true (copy == d);
  g_boxed_free (AKC_TYPE_DIAGNOSTIC, copy);
}

static void
test_json (void)
{
  g_autoptr(AkcDiagnostic) d = akc_diagnostic_new ("ASK_TIMEOUT", "Timed \"out\".", TRUE, "e\n");
  g_autoptr(AkcDiagnostic) plain = akc_diagnostic_new ("COMPONENT_UNKNOWN_TYPE",
                                                       "Component frame type is unknown.", FALSE, NULL);
  g_autoptr(AkcJsonValue) v = akc_diagnostic_to_json (d);
  g_autoptr(AkcJsonValue) expected = akc_json_value_parse (
    "{\"eventId\":\"e\\n\",\"retryable\":true,\"message\":\"Timed \\\"out\\\".\",\"code\":\"ASK_TIMEOUT\"}", -1, NULL);
  g_autofree char *text = akc_diagnostic_to_canonical (d, NULL);
  g_autofree char *plain_text = akc_diagnostic_to_canonical (plain, NULL);

  akc_assert_json_equal (v, expected);
  /* §1.11 member order */
  akc_assert_canonical (v, "{\"code\":\"ASK_TIMEOUT\",\"message\":\"Timed \\\"out\\\".\",\"retryable\":true,\"eventId\":\"e\\n\"}");
  g_assert_cmpstr (text, ==, "{\"code\":\"ASK_TIMEOUT\",\"message\":\"Timed \\\"out\\\".\",\"retryable\":true,\"eventId\":\"e\\n\"}");
  g_assert_cmpstr (plain_text, ==, "{\"code\":\"COMPONENT_UNKNOWN_TYPE\",\"message\":\"Component frame type is unknown.\",\"retryable\":false}");
}

static void
test_error (void)
{
  g_autoptr(AkcDiagnostic) d = akc_diagnostic_new ("DETERMINISTIC_HASH_MISMATCH", "Mismatch.", FALSE, NULL);
  g_autoptr(AkcDiagnostic) other = akc_diagnostic_new ("SOMETHING_ELSE", "Else.", FALSE, NULL);
  g_autoptr(GError) error = akc_diagnostic_to_error (d);
  g_autoptr(GError) error2 = NULL;
  g_autoptr(GError) error3 = akc_diagnostic_to_error (other);

  g_assert_error (error, AKC_PROTOCOL_ERROR, AKC_PROTOCOL_ERROR_DETERMINISTIC_HASH_MISMATCH);
  g_assert_cmpstr (error->message, ==, "Mismatch.");
  akc_diagnostic_propagate (d, &error2);
  g_assert_error (error2, AKC_PROTOCOL_ERROR, AKC_PROTOCOL_ERROR_DETERMINISTIC_HASH_MISMATCH);
  akc_diagnostic_propagate (d, NULL);
  g_assert_error (error3, AKC_PROTOCOL_ERROR, AKC_PROTOCOL_ERROR_FAILED);

  g_assert_cmpint (akc_protocol_error_from_code ("ASK_INTERNAL"), ==, AKC_PROTOCOL_ERROR_ASK_INTERNAL);
  g_assert_cmpint (akc_protocol_error_from_code ("nope"), ==, AKC_PROTOCOL_ERROR_FAILED);
  g_assert_cmpstr (akc_protocol_error_to_code (AKC_PROTOCOL_ERROR_SESSION_INVALID_SNAPSHOT), ==, "SESSION_INVALID_SNAPSHOT");
  g_assert_null (akc_protocol_error_to_code (AKC_PROTOCOL_ERROR_INVALID_JSON));
  for (int i = AKC_PROTOCOL_ERROR_PROTOCOL_INVALID_PAYLOAD; i <= AKC_PROTOCOL_ERROR_ASK_INTERNAL; i++)
    g_assert_cmpint (akc_protocol_error_from_code (akc_protocol_error_to_code (i)), ==, i);
  g_assert_true (G_TYPE_IS_ENUM (AKC_TYPE_PROTOCOL_ERROR));
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/diagnostic/basics", test_basics);
  g_test_add_func ("/diagnostic/json", test_json);
  g_test_add_func ("/diagnostic/error", test_error);

  return g_test_run ();
}
