/* test-ask-backend.c: Ask backend contracts (protocol.md §7)
 *
 * SPDX-License-Identifier: MIT
 */

#include "config.h"

#include <string.h>

#include "akc-ask-backend.h"
#include "akc-ask-backend-private.h"
#include "akc-fixture.h"
#include "akc-json-private.h"
#include "akc-test.h"

typedef AkcJsonValue *(*ValidateFunc) (AkcJsonValue *value);

static void
run_case (const AkcFixtureCase *fc,
          gconstpointer         user_data)
{
  ValidateFunc validate = (ValidateFunc) user_data;
  g_autoptr(AkcJsonValue) out = validate (fc->input);
  AkcJsonValue *expected = akc_fixture_expect (fc, "value");
  AkcJsonValue *absent = akc_fixture_expect (fc, "absentMembers");
  const char *session_id = akc_fixture_expect_string (fc, "sessionId");
  const char *corpus_mode = akc_fixture_expect_string (fc, "corpusMode");

  if (!akc_fixture_expect_ok (fc))
    {
      g_assert_null (out);
      return;
    }

  g_assert_nonnull (out);
  if (expected != NULL)
    akc_assert_json_equal (out, expected);
  if (session_id != NULL)
    g_assert_cmpstr (akc_json_value_get_string (akc_json_value_get_member (out, "sessionId"), NULL), ==, session_id);
  if (corpus_mode != NULL)
    g_assert_cmpstr (akc_json_value_get_string (akc_json_value_get_member (akc_json_value_get_member (out, "corpus"), "mode"), NULL),
                     ==, corpus_mode);
  for (gsize i = 0; absent != NULL && i < akc_json_value_get_length (absent); i++)
    g_assert_null (akc_json_value_get_member (out, akc_json_value_get_string (akc_json_value_get_element (absent, i), NULL)));

  /* Validating the normalised value again gives the same value. */
  {
    g_autoptr(AkcJsonValue) again = validate (out);

    akc_assert_json_equal (again, out);
  }
}

static void
run_request_text_case (const AkcFixtureCase *fc,
                       gconstpointer         user_data)
{
  gsize len;
  g_autofree char *text = akc_fixture_input_text (fc, &len);
  g_autoptr(AkcJsonValue) out = akc_ask_backend_request_decode (text, len, NULL);

  g_assert_cmpint (out != NULL, ==, akc_fixture_expect_ok (fc));
}

#define MSG "\"messages\":[{\"role\":\"user\",\"content\":\"x\"}]"
#define ESC_HEAD "\"protocol\":\"agentskit.chat.answer\",\"version\":1,\"outcome\":\"escalation\""

static gboolean
request_ok (const char *text)
{
  g_autoptr(AkcJsonValue) out = akc_ask_backend_request_decode (text, -1, NULL);

  return out != NULL;
}

static void
test_request (void)
{
  g_autoptr(GString) s = g_string_new (NULL);
  guint i;

  /* closed at the top level and in messages; __proto__ is ignored (§9 item 9) */
  g_assert_true (request_ok ("{" MSG "}"));
  g_assert_false (request_ok ("{" MSG ",\"assistant\":\"x\"}"));
  g_assert_false (request_ok ("{" MSG ",\"tenant\":null}"));
  g_assert_true (request_ok ("{" MSG ",\"__proto__\":{}}"));
  g_assert_false (request_ok ("{\"messages\":[{\"role\":\"user\"}]}"));
  g_assert_false (request_ok ("{\"messages\":[{\"role\":\"tool\",\"content\":\"\"}]}"));
  g_assert_false (request_ok ("{\"messages\":{}}"));
  g_assert_false (request_ok ("[]"));
  g_assert_false (request_ok ("{" MSG ",\"protocol\":\"agentskit.chat.asks\"}"));
  g_assert_true (request_ok ("{" MSG ",\"protocol\":\"agentskit.chat.ask\",\"version\":1.0}"));
  g_assert_false (request_ok ("{" MSG ",\"version\":\"1\"}"));
  g_assert_false (request_ok ("{" MSG ",\"sessionId\":null}"));
  g_assert_false (request_ok ("{" MSG ",\"deterministic\":null}"));
  g_assert_false (request_ok ("not json"));

  /* content: 16384 units ok (as 8192 emoji), 16385 not */
  for (i = 0; i < 2; i++)
    {
      g_string_assign (s, "{\"messages\":[{\"role\":\"assistant\",\"content\":\"");
      for (guint j = 0; j < 8192; j++)
        g_string_append (s, "\xF0\x9F\x98\x80");
      if (i)
        g_string_append_c (s, 'x');
      g_string_append (s, "\"}]}");
      g_assert_cmpint (request_ok (s->str), ==, i == 0);
    }

  /* sessionId: SafeId of 128 ok, 129 not */
  for (i = 0; i < 2; i++)
    {
      g_string_assign (s, "{" MSG ",\"sessionId\":\"s");
      for (guint j = 0; j < 127 + i; j++)
        g_string_append_c (s, '1');
      g_string_append (s, "\"}");
      g_assert_cmpint (request_ok (s->str), ==, i == 0);
    }
}

static void
test_escalation (void)
{
  g_autoptr(GString) s = g_string_new (NULL);
  guint i;

  /* rule 1: normalizedQuery is the normalised query */
  g_assert_true (request_ok ("{" MSG ",\"deterministic\":{" ESC_HEAD ",\"query\":\"  Hello\\u3000WORLD \",\"normalizedQuery\":\"hello world\",\"message\":\"m\",\"reason\":\"offline\",\"confidence\":{\"level\":\"low\",\"basis\":\"offline\"}}}"));
  g_assert_false (request_ok ("{" MSG ",\"deterministic\":{" ESC_HEAD ",\"query\":\"Hello\",\"normalizedQuery\":\"Hello\",\"message\":\"m\",\"reason\":\"miss\",\"confidence\":{\"level\":\"low\",\"basis\":\"miss\"}}}"));
  g_assert_true (request_ok ("{" MSG ",\"deterministic\":{" ESC_HEAD ",\"query\":\"\",\"normalizedQuery\":\"\",\"message\":\"m\",\"reason\":\"stale\",\"confidence\":{\"level\":\"low\",\"basis\":\"stale\"}}}"));
  /* rule 4: low, and basis = reason */
  g_assert_false (request_ok ("{" MSG ",\"deterministic\":{" ESC_HEAD ",\"query\":\"q\",\"normalizedQuery\":\"q\",\"message\":\"m\",\"reason\":\"corrupt\",\"confidence\":{\"level\":\"medium\",\"basis\":\"corrupt\"}}}"));
  g_assert_true (request_ok ("{" MSG ",\"deterministic\":{" ESC_HEAD ",\"query\":\"q\",\"normalizedQuery\":\"q\",\"message\":\"m\",\"reason\":\"corrupt\",\"confidence\":{\"level\":\"low\",\"basis\":\"corrupt\",\"x\":1},\"candidateEntryIds\":[\"a\",\"b\"]}}"));
  /* candidateEntryIds: at most 8 SafeIds */
  g_assert_false (request_ok ("{" MSG ",\"deterministic\":{" ESC_HEAD ",\"query\":\"q\",\"normalizedQuery\":\"q\",\"message\":\"m\",\"reason\":\"miss\",\"confidence\":{\"level\":\"low\",\"basis\":\"miss\"},\"candidateEntryIds\":[\"1\",\"2\",\"3\",\"4\",\"5\",\"6\",\"7\",\"8\",\"9\"]}}"));
  g_assert_false (request_ok ("{" MSG ",\"deterministic\":{" ESC_HEAD ",\"query\":\"q\",\"normalizedQuery\":\"q\",\"message\":\"\",\"reason\":\"miss\",\"confidence\":{\"level\":\"low\",\"basis\":\"miss\"}}}"));
  /* the slice to 512 units: 512 ASCII ok, 513 not (normalizedQuery itself is <= 512) */
  for (i = 0; i < 2; i++)
    {
      g_string_assign (s, "{" MSG ",\"deterministic\":{" ESC_HEAD ",\"query\":\"");
      for (guint j = 0; j < 512 + i; j++)
        g_string_append_c (s, 'a');
      g_string_append (s, "\",\"normalizedQuery\":\"");
      for (guint j = 0; j < 512; j++)
        g_string_append_c (s, 'a');
      g_string_append (s, "\",\"message\":\"m\",\"reason\":\"miss\",\"confidence\":{\"level\":\"low\",\"basis\":\"miss\"}}}");
      g_assert_cmpint (request_ok (s->str), ==, i == 0);
    }
  /* an astral character straddling unit 512 would leave a lone surrogate:
   * the port rejects it (§10 item 1) */
  g_string_assign (s, "{" MSG ",\"deterministic\":{" ESC_HEAD ",\"query\":\"");
  for (i = 0; i < 511; i++)
    g_string_append_c (s, 'a');
  g_string_append (s, "\xF0\x9F\x98\x80\",\"normalizedQuery\":\"");
  for (i = 0; i < 511; i++)
    g_string_append_c (s, 'a');
  g_string_append (s, "\",\"message\":\"m\",\"reason\":\"miss\",\"confidence\":{\"level\":\"low\",\"basis\":\"miss\"}}}");
  g_assert_false (request_ok (s->str));
}

static void
test_request_new (void)
{
  g_autoptr(AkcJsonValue) messages = akc_test_parse_json ("[{\"content\":\"Hi\",\"role\":\"user\"}]");
  g_autoptr(AkcJsonValue) bad_messages = akc_test_parse_json ("[{\"content\":\"Hi\",\"role\":\"system\"}]");
  g_autoptr(AkcJsonValue) answer = akc_test_parse_json ("{" ESC_HEAD ",\"query\":\"q\",\"normalizedQuery\":\"q\",\"message\":\"m\",\"reason\":\"miss\",\"confidence\":{\"level\":\"low\",\"basis\":\"miss\"},\"extra\":1}");
  g_autoptr(AkcJsonValue) request = akc_ask_backend_request_new ("s-1", messages, NULL);
  g_autoptr(AkcJsonValue) request2 = akc_ask_backend_request_new (NULL, messages, answer);

  akc_assert_canonical (request, "{\"protocol\":\"agentskit.chat.ask\",\"version\":1,\"sessionId\":\"s-1\",\"messages\":[{\"role\":\"user\",\"content\":\"Hi\"}]}");
  akc_assert_canonical (request2, "{\"protocol\":\"agentskit.chat.ask\",\"version\":1,\"messages\":[{\"role\":\"user\",\"content\":\"Hi\"}],"
                                  "\"deterministic\":{" ESC_HEAD ",\"query\":\"q\",\"normalizedQuery\":\"q\",\"message\":\"m\",\"reason\":\"miss\",\"confidence\":{\"level\":\"low\",\"basis\":\"miss\"}}}");
  g_assert_null (akc_ask_backend_request_new ("bad id", messages, NULL));
  g_assert_null (akc_ask_backend_request_new (NULL, bad_messages, NULL));
}

static void
test_others (void)
{
  g_autoptr(AkcJsonValue) m1 = akc_test_parse_json ("{\"role\":\"assistant\",\"content\":\"\"}");
  g_autoptr(AkcJsonValue) m2 = akc_test_parse_json ("{\"role\":\"assistant\",\"content\":1}");
  g_autoptr(AkcJsonValue) src = akc_test_parse_json ("{\"id\":\"s\",\"title\":\"T\",\"href\":\"https://user@example.com/\",\"excerpt\":\"e\"}");
  g_autoptr(AkcJsonValue) src2 = akc_test_parse_json ("{\"id\":\"s\",\"title\":\"T\",\"href\":\"//example.com/\",\"excerpt\":\"e\"}");
  g_autoptr(AkcJsonValue) usage = akc_test_parse_json ("{\"totalTokens\":9007199254740991,\"costUsd\":0}");
  g_autoptr(AkcJsonValue) usage2 = akc_test_parse_json ("{\"totalTokens\":9007199254740992}");
  g_autoptr(AkcJsonValue) diag = akc_test_parse_json ("{\"code\":\"ASK_UNAUTHORIZED\",\"message\":\"  No.  \",\"retryable\":false}");
  g_autoptr(AkcJsonValue) diag2 = akc_test_parse_json ("{\"code\":\"ASK_INTERNAL\",\"message\":\"x\",\"retryable\":\"false\"}");
  g_autoptr(AkcJsonValue) metric = akc_test_parse_json ("{\"protocol\":\"agentskit.chat.backend-metric\",\"version\":1,\"name\":\"stream.snapshots\",\"siteId\":\"s\",\"corpusId\":\"c\",\"requestId\":\"r\",\"value\":0,\"unit\":\"tokens\",\"outcome\":\"cancelled\",\"emittedAt\":\"2026-07-13T00:00Z\"}");
  g_autoptr(AkcJsonValue) metric2 = akc_test_parse_json ("{\"protocol\":\"agentskit.chat.backend-metric\",\"version\":1,\"name\":\"stream.snapshots\",\"siteId\":\"s\",\"corpusId\":\"c\",\"requestId\":\"r\",\"value\":0,\"unit\":\"tokens\",\"outcome\":\"cancelled\",\"emittedAt\":\"2026-07-13 00:00Z\"}");
  g_autoptr(AkcJsonValue) session = akc_test_parse_json ("{\"revision\":1.0,\"messages\":[]}");
  g_autoptr(AkcJsonValue) session2 = akc_test_parse_json ("{\"revision\":0.5,\"messages\":[]}");
  AkcJsonValue *out;

  out = akc_ask_backend_message_validate (m1);
  g_assert_nonnull (out);
  akc_json_value_unref (out);
  g_assert_null (akc_ask_backend_message_validate (m2));
  g_assert_null (akc_ask_backend_source_validate (src));
  g_assert_null (akc_ask_backend_source_validate (src2));
  out = akc_ask_backend_usage_validate (usage);
  g_assert_nonnull (out);
  akc_json_value_unref (out);
  g_assert_null (akc_ask_backend_usage_validate (usage2));
  out = akc_ask_backend_diagnostic_validate (diag);
  akc_assert_canonical (out, "{\"code\":\"ASK_UNAUTHORIZED\",\"message\":\"No.\",\"retryable\":false}");
  akc_json_value_unref (out);
  g_assert_null (akc_ask_backend_diagnostic_validate (diag2));
  out = akc_ask_backend_metric_validate (metric);
  g_assert_nonnull (out);
  akc_json_value_unref (out);
  g_assert_null (akc_ask_backend_metric_validate (metric2));
  out = akc_ask_backend_session_record_validate (session);
  akc_assert_canonical (out, "{\"revision\":1,\"messages\":[]}");
  akc_json_value_unref (out);
  g_assert_null (akc_ask_backend_session_record_validate (session2));
}

/* The value decoder, in the shape of the record validators. */
static AkcJsonValue *
request_decode_value (AkcJsonValue *value)
{
  return akc_ask_backend_request_decode_value (value, NULL);
}

int
main (int   argc,
      char *argv[])
{
  static const struct {
    const char  *op;
    ValidateFunc func;
  } ops[] = {
    { "AskBackendRequest",       request_decode_value },
    { "AskBackendSiteConfig",    akc_ask_backend_site_config_validate },
    { "AskBackendSource",        akc_ask_backend_source_validate },
    { "AskBackendUsage",         akc_ask_backend_usage_validate },
    { "AskBackendSessionRecord", akc_ask_backend_session_record_validate },
    { "AskBackendDiagnostic",    akc_ask_backend_diagnostic_validate },
    { "AskBackendMetric",        akc_ask_backend_metric_validate },
  };

  g_test_init (&argc, &argv, NULL);

  for (guint i = 0; i < G_N_ELEMENTS (ops); i++)
    akc_fixture_add_tests ("protocol/backend.json", "/ask-backend/fixtures",
                           ops[i].op, run_case, ops[i].func);
  akc_fixture_add_tests ("protocol/backend.json", "/ask-backend/request-text",
                         "AskBackendRequest", run_request_text_case, NULL);

  g_test_add_func ("/ask-backend/request", test_request);
  g_test_add_func ("/ask-backend/escalation", test_escalation);
  g_test_add_func ("/ask-backend/request-new", test_request_new);
  g_test_add_func ("/ask-backend/others", test_others);

  return g_test_run ();
}
