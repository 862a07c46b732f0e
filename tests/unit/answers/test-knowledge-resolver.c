/* test-knowledge-resolver.c: AkcKnowledgeResolver (application.md §9.3)
 *
 * SPDX-License-Identifier: MIT
 *
 * Every `resolve` and `resolveChoice` vector of
 * application/deterministic.json, plus the bounds: the 1,024 × 16 index,
 * at most eight choices, the 512-unit query limit, and artifacts that must
 * never answer.
 */

#include "config.h"

#include <string.h>

#include "akc-answers-test.h"

static const char *
input_string (const AkcFixtureCase *fc,
              const char           *name)
{
  AkcJsonValue *v = akc_json_value_get_member (fc->input, name);

  g_assert_nonnull (v);
  return akc_json_value_get_string (v, NULL);
}

static void
test_resolve_fixture (const AkcFixtureCase *fc,
                      gconstpointer         user_data)
{
  g_autoptr(AkcKnowledgeResolver) resolver = akc_answers_test_resolver (input_string (fc, "artifact"));
  gint64 now = akc_answers_test_ms (input_string (fc, "now"));
  g_autoptr(AkcJsonValue) decision = NULL;
  g_autoptr(AkcJsonValue) decoded = NULL;
  g_autoptr(AkcDiagnostic) diagnostic = NULL;

  if (g_strcmp0 (fc->op, "resolveChoice") == 0)
    decision = akc_knowledge_resolver_resolve_choice (resolver, input_string (fc, "choiceId"),
                                                      input_string (fc, "query"), now);
  else
    decision = akc_knowledge_resolver_resolve (resolver, input_string (fc, "query"), now);

  akc_assert_json_equal (decision, akc_fixture_expect (fc, "decision"));

  /* Every decision is a valid envelope by the protocol's own decoder. */
  decoded = akc_answer_decode_value (decision, &diagnostic);
  g_assert_null (diagnostic);
  g_assert_nonnull (decoded);
}

static gint64
fixture_now (void)
{
  return akc_answers_test_ms ("2026-07-13T12:00:00.000Z");
}

static const char *
decision_string (AkcJsonValue *decision,
                 const char   *name)
{
  AkcJsonValue *v = akc_json_value_get_member (decision, name);

  return v != NULL ? akc_json_value_get_string (v, NULL) : NULL;
}

static void
test_resolver_verifies_before_use (void)
{
  const char *hash = NULL;
  g_autoptr(AkcJsonValue) artifact = akc_answers_test_artifact ("fixture", &hash);
  g_autoptr(AkcKnowledgeResolver) good = akc_knowledge_resolver_new (artifact, hash, AKC_TEST_SITE_ID);
  g_autoptr(AkcKnowledgeResolver) other_hash = akc_knowledge_resolver_new (artifact, AKC_TEST_STALE_HASH, AKC_TEST_SITE_ID);
  g_autoptr(AkcKnowledgeResolver) other_site = akc_knowledge_resolver_new (artifact, hash, "another-site");
  g_autoptr(AkcKnowledgeResolver) no_anchor = akc_knowledge_resolver_new (artifact, NULL, AKC_TEST_SITE_ID);
  g_autoptr(AkcKnowledgeResolver) none = akc_knowledge_resolver_new (NULL, hash, AKC_TEST_SITE_ID);
  g_autoptr(AkcKnowledgeResolver) tampered = akc_answers_test_resolver ("corrupt");
  AkcKnowledgeResolver *bad[] = { other_hash, other_site, no_anchor, none, tampered };

  g_assert_true (akc_knowledge_resolver_is_verified (good));
  g_assert_null (akc_knowledge_resolver_get_diagnostic (good));
  g_assert_nonnull (akc_knowledge_resolver_get_artifact (good));

  for (guint i = 0; i < G_N_ELEMENTS (bad); i++)
    {
      g_autoptr(AkcJsonValue) a = akc_knowledge_resolver_resolve (bad[i], "install cli", fixture_now ());
      g_autoptr(AkcJsonValue) c = akc_knowledge_resolver_resolve_choice (bad[i], "docs-registry", "docs", fixture_now ());

      g_assert_false (akc_knowledge_resolver_is_verified (bad[i]));
      g_assert_null (akc_knowledge_resolver_get_artifact (bad[i]));
      g_assert_cmpstr (decision_string (a, "reason"), ==, "corrupt");
      g_assert_cmpstr (decision_string (c, "reason"), ==, "corrupt");
    }
  g_assert_null (akc_knowledge_resolver_get_diagnostic (none));
  g_assert_cmpstr (akc_diagnostic_get_code (akc_knowledge_resolver_get_diagnostic (tampered)), ==,
                   "DETERMINISTIC_HASH_MISMATCH");
}

static void
test_resolver_from_text (void)
{
  g_autofree char *hash = NULL;
  g_autofree char *text = akc_answers_test_generate (3, 2, 0, &hash);
  g_autoptr(AkcKnowledgeResolver) good = akc_knowledge_resolver_new_from_text (text, -1, hash, AKC_TEST_SITE_ID);
  g_autoptr(AkcJsonValue) answer = akc_knowledge_resolver_resolve (good, "TOPIC 2 ALIAS 1", 0);
  g_autofree char *broken = g_strndup (text, strlen (text) - 1);
  g_autoptr(AkcKnowledgeResolver) bad = akc_knowledge_resolver_new_from_text (broken, -1, hash, AKC_TEST_SITE_ID);
  g_autoptr(AkcJsonValue) escalation = akc_knowledge_resolver_resolve (bad, "topic 2 alias 1", 0);

  g_assert_cmpstr (decision_string (answer, "outcome"), ==, "answer");
  g_assert_cmpstr (akc_json_value_get_string (akc_json_value_get_member (akc_json_value_get_member (answer, "answer"), "markdown"), NULL), ==, "A2");
  g_assert_cmpstr (decision_string (escalation, "reason"), ==, "corrupt");
  g_assert_cmpstr (akc_diagnostic_get_code (akc_knowledge_resolver_get_diagnostic (bad)), ==,
                   "DETERMINISTIC_INVALID_PAYLOAD");
}

/* The largest artifact: every one of its 16,384 aliases answers. */
static void
test_resolver_full_index (void)
{
  g_autofree char *hash = NULL;
  g_autofree char *text = akc_answers_test_generate (AKC_KNOWLEDGE_ARTIFACT_MAX_ENTRIES,
                                                     AKC_KNOWLEDGE_MATCH_MAX_VALUES, 0, &hash);
  g_autoptr(AkcKnowledgeResolver) resolver = akc_knowledge_resolver_new_from_text (text, -1, hash, AKC_TEST_SITE_ID);

  g_assert_true (akc_knowledge_resolver_is_verified (resolver));
  for (guint i = 0; i < AKC_KNOWLEDGE_ARTIFACT_MAX_ENTRIES; i += 97)
    for (guint j = 0; j < AKC_KNOWLEDGE_MATCH_MAX_VALUES; j++)
      {
        g_autofree char *query = g_strdup_printf ("  topic %u ALIAS %u ", i, j);
        g_autofree char *id = g_strdup_printf ("e%u", i);
        g_autoptr(AkcJsonValue) d = akc_knowledge_resolver_resolve (resolver, query, 0);
        AkcJsonValue *ids = akc_json_value_get_member (akc_json_value_get_member (d, "provenance"), "entryIds");

        g_assert_cmpstr (decision_string (d, "outcome"), ==, "answer");
        g_assert_cmpstr (akc_json_value_get_string (akc_json_value_get_element (ids, 0), NULL), ==, id);
      }
}

/* Ten entries share an alias: the first eight are offered, in artifact
 * order, each with its unique alias; only they can be chosen. */
static void
test_resolver_choices_bound (void)
{
  g_autofree char *hash = NULL;
  g_autofree char *text = akc_answers_test_generate (12, 3, 10, &hash);
  g_autoptr(AkcKnowledgeResolver) resolver = akc_knowledge_resolver_new_from_text (text, -1, hash, AKC_TEST_SITE_ID);
  g_autoptr(AkcJsonValue) d = akc_knowledge_resolver_resolve (resolver, "Shared", 0);
  g_autoptr(AkcJsonValue) eighth = akc_knowledge_resolver_resolve_choice (resolver, "e7", "shared", 0);
  g_autoptr(AkcJsonValue) ninth = akc_knowledge_resolver_resolve_choice (resolver, "e8", "shared", 0);
  AkcJsonValue *suggestions = akc_json_value_get_member (d, "suggestions");

  g_assert_cmpstr (decision_string (d, "outcome"), ==, "choices");
  g_assert_cmpuint (akc_json_value_get_length (suggestions), ==, 8);
  for (guint i = 0; i < 8; i++)
    {
      AkcJsonValue *s = akc_json_value_get_element (suggestions, i);
      g_autofree char *id = g_strdup_printf ("e%u", i);
      g_autofree char *value = g_strdup_printf ("Topic %u alias 0", i);

      g_assert_cmpstr (decision_string (s, "id"), ==, id);
      g_assert_cmpstr (decision_string (s, "value"), ==, value);
    }
  g_assert_cmpstr (decision_string (eighth, "outcome"), ==, "answer");
  g_assert_cmpstr (decision_string (ninth, "outcome"), ==, "escalation");
  g_assert_cmpstr (decision_string (ninth, "message"), ==,
                   "The selected local answer is unavailable. A backend answer is required.");
}

/* A 512-unit query is looked up; one more unit is a miss, never a
 * truncated match. Astral characters count two units and are never split. */
static void
test_resolver_query_bound (void)
{
  g_autofree char *hash = NULL;
  g_autofree char *text = NULL;
  g_autoptr(AkcKnowledgeResolver) resolver = NULL;
  g_autoptr(GString) alias = g_string_new (NULL);
  g_autoptr(GString) longer = NULL;
  g_autoptr(GString) astral = g_string_new ("a");
  g_autoptr(AkcJsonValue) at = NULL;
  g_autoptr(AkcJsonValue) over = NULL;
  g_autoptr(AkcJsonValue) cut = NULL;

  /* An artifact whose one entry has a 512-unit alias. */
  g_string_append_c (alias, 'q');
  while (alias->len < 512)
    g_string_append_c (alias, 'x');
  {
    g_autofree char *base = akc_answers_test_generate (1, 2, 0, &hash);
    g_autofree char *draft = NULL;
    g_autoptr(AkcJsonValue) value = NULL;
    g_auto(GStrv) parts = g_strsplit (base, "Topic 0 alias 1", 2);

    g_clear_pointer (&hash, g_free);
    draft = g_strconcat (parts[0], alias->str, parts[1], NULL);
    value = akc_json_value_parse (draft, -1, NULL);
    hash = akc_knowledge_artifact_compute_content_hash (value, NULL);
    g_assert_nonnull (hash);
    {
      g_auto(GStrv) h = g_strsplit (draft, "\"contentHash\":\"", 2);
      g_autofree char *rest = g_strdup (strchr (h[1], '"'));
      text = g_strconcat (h[0], "\"contentHash\":\"", hash, rest, NULL);
    }
  }
  resolver = akc_knowledge_resolver_new_from_text (text, -1, hash, AKC_TEST_SITE_ID);
  g_assert_true (akc_knowledge_resolver_is_verified (resolver));

  at = akc_knowledge_resolver_resolve (resolver, alias->str, 0);
  g_assert_cmpstr (decision_string (at, "outcome"), ==, "answer");

  longer = g_string_new (alias->str);
  g_string_append_c (longer, 'x');
  over = akc_knowledge_resolver_resolve (resolver, longer->str, 0);
  g_assert_cmpstr (decision_string (over, "reason"), ==, "miss");
  g_assert_cmpstr (decision_string (over, "query"), ==, alias->str);

  /* 511 units then an astral character: the echo stops before it. */
  while (astral->len < 511)
    g_string_append_c (astral, 'a');
  g_string_append (astral, "\xF0\x9F\x98\x80");
  cut = akc_knowledge_resolver_resolve (resolver, astral->str, 0);
  g_assert_cmpstr (decision_string (cut, "reason"), ==, "miss");
  g_assert_cmpuint (strlen (decision_string (cut, "query")), ==, 511);
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);

  akc_fixture_add_tests ("application/deterministic.json", "/resolver/fixtures/resolve",
                         "resolve", test_resolve_fixture, NULL);
  akc_fixture_add_tests ("application/deterministic.json", "/resolver/fixtures/choice",
                         "resolveChoice", test_resolve_fixture, NULL);
  g_test_add_func ("/resolver/verifies-before-use", test_resolver_verifies_before_use);
  g_test_add_func ("/resolver/from-text", test_resolver_from_text);
  g_test_add_func ("/resolver/full-index", test_resolver_full_index);
  g_test_add_func ("/resolver/choices-bound", test_resolver_choices_bound);
  g_test_add_func ("/resolver/query-bound", test_resolver_query_bound);

  return g_test_run ();
}
