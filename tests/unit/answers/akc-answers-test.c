/* akc-answers-test.c: shared helpers for the deterministic answer tests
 *
 * SPDX-License-Identifier: MIT
 */

#include "config.h"

#include <string.h>

#include "akc-answers-test.h"

static AkcJsonValue *
find_case_member (const char *file,
                  const char *case_name,
                  const char *member)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) cases = akc_fixture_load (file, &error);

  g_assert_no_error (error);
  for (guint i = 0; i < cases->len; i++)
    {
      AkcFixtureCase *fc = g_ptr_array_index (cases, i);

      if (g_strcmp0 (fc->name, case_name) == 0)
        {
          AkcJsonValue *v = member == NULL ? fc->input : akc_json_value_get_member (fc->input, member);

          g_assert_nonnull (v);
          return akc_json_value_ref (v);
        }
    }
  g_error ("fixture case “%s” not found in %s", case_name, file);
  return NULL;
}

AkcJsonValue *
akc_answers_test_artifact (const char  *name,
                           const char **expected_hash)
{
  if (g_strcmp0 (name, "fixture") == 0)
    {
      *expected_hash = AKC_TEST_FIXTURE_HASH;
      return find_case_member ("application/deterministic.json",
                               "§9.2 artifact canonical JSON and SHA-256 of the reference fixture",
                               "artifact");
    }
  if (g_strcmp0 (name, "stale") == 0)
    {
      *expected_hash = AKC_TEST_STALE_HASH;
      return find_case_member ("protocol/deterministic.json",
                               "stale artifact verifies against its own stated hash", NULL);
    }
  if (g_strcmp0 (name, "corrupt") == 0)
    {
      *expected_hash = AKC_TEST_FIXTURE_HASH;
      return find_case_member ("application/deterministic.json",
                               "§9.2 verify: tampered answer with unchanged declared hash",
                               "artifact");
    }
  g_error ("unknown fixture artifact “%s”", name);
  return NULL;
}

AkcKnowledgeResolver *
akc_answers_test_resolver (const char *name)
{
  const char *hash = NULL;
  g_autoptr(AkcJsonValue) artifact = akc_answers_test_artifact (name, &hash);

  return akc_knowledge_resolver_new (artifact, hash, AKC_TEST_SITE_ID);
}

gint64
akc_answers_test_ms (const char *iso)
{
  g_autoptr(GDateTime) dt = g_date_time_new_from_iso8601 (iso, NULL);

  g_assert_nonnull (dt);
  return g_date_time_to_unix (dt) * 1000 + g_date_time_get_microsecond (dt) / 1000;
}

static char *
generate_with_hash (guint       n_entries,
                    guint       n_aliases,
                    guint       n_shared,
                    const char *hash)
{
  GString *out = g_string_new (NULL);

  g_string_append_printf (out,
                          "{\"protocol\":\"agentskit.chat.knowledge\",\"version\":1,"
                          "\"artifactId\":\"bench\",\"siteId\":\"" AKC_TEST_SITE_ID "\","
                          "\"contentHash\":\"%s\",\"generatedAt\":\"2026-07-13T00:00:00.000Z\","
                          "\"entries\":[", hash);
  for (guint i = 0; i < n_entries; i++)
    {
      g_string_append_printf (out, "%s{\"id\":\"e%u\",\"kind\":\"command\",\"label\":\"Entry %u\","
                              "\"match\":{\"type\":\"exact\",\"values\":[",
                              i > 0 ? "," : "", i, i);
      /* A shared entry's last alias is "shared"; its first stays unique. */
      for (guint j = 0; j < n_aliases; j++)
        if (i < n_shared && j + 1 == n_aliases && j > 0)
          g_string_append (out, ",\"shared\"");
        else
          g_string_append_printf (out, "%s\"Topic %u alias %u\"", j > 0 ? "," : "", i, j);
      g_string_append_printf (out, "]},\"answer\":{\"markdown\":\"A%u\",\"citations\":[]}}", i);
    }
  g_string_append (out, "]}");
  return g_string_free (out, FALSE);
}

char *
akc_answers_test_generate (guint   n_entries,
                           guint   n_aliases,
                           guint   n_shared,
                           char  **hash)
{
  g_autofree char *draft = generate_with_hash (n_entries, n_aliases, n_shared,
                                               AKC_KNOWLEDGE_CONTENT_HASH_PLACEHOLDER);
  g_autoptr(AkcJsonValue) value = akc_json_value_parse (draft, -1, NULL);
  g_autoptr(AkcDiagnostic) diagnostic = NULL;

  g_assert_nonnull (value);
  *hash = akc_knowledge_artifact_compute_content_hash (value, &diagnostic);
  g_assert_nonnull (*hash);
  return generate_with_hash (n_entries, n_aliases, n_shared, *hash);
}
