/* akc-bench-answers.c: the deterministic resolver's index and lookups
 *
 * SPDX-License-Identifier: MIT
 *
 * Prints, measured in one run on this machine, for the largest artifact
 * (1,024 entries × 16 aliases = 16,384 aliases):
 *  - the resolver's index build time: akc_knowledge_resolver_new() minus
 *    the artifact verification it runs first (verification is printed too);
 *  - the mean time of one akc_knowledge_resolver_resolve() over hits,
 *    misses and ambiguous queries, envelope included;
 * against the targets: build ≤ 10 ms, lookup ≤ 5 µs.
 */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "akc.h"

#define N_ENTRIES 1024
#define N_ALIASES 16
#define ROUNDS 9
#define LOOKUPS 200000
#define TARGET_BUILD_MS 10.0
#define TARGET_LOOKUP_US 5.0

static char *
artifact_text (const char *hash)
{
  GString *out = g_string_new (NULL);

  g_string_append_printf (out,
                          "{\"protocol\":\"agentskit.chat.knowledge\",\"version\":1,"
                          "\"artifactId\":\"bench\",\"siteId\":\"bench-site\",\"contentHash\":\"%s\","
                          "\"generatedAt\":\"2026-07-13T00:00:00.000Z\",\"entries\":[", hash);
  for (guint i = 0; i < N_ENTRIES; i++)
    {
      g_string_append_printf (out, "%s{\"id\":\"entry-%u\",\"kind\":\"command\",\"label\":\"Entry %u\","
                              "\"match\":{\"type\":\"exact\",\"values\":[", i > 0 ? "," : "", i, i);
      for (guint j = 0; j < N_ALIASES; j++)
        /* Every eighth entry shares its last alias with its neighbour. */
        if (j + 1 == N_ALIASES && i % 8 < 2)
          g_string_append_printf (out, ",\"Shared question %u\"", i / 8);
        else
          g_string_append_printf (out, "%s\"Task %u how %u?\"", j > 0 ? "," : "", i, j);
      g_string_append_printf (out, "]},\"answer\":{\"markdown\":\"Answer %u.\",\"citations\":"
                              "[{\"id\":\"doc-%u\",\"title\":\"Document %u\",\"href\":\"/docs/%u\"}]}}",
                              i, i, i, i);
    }
  g_string_append (out, "]}");
  return g_string_free (out, FALSE);
}

static double
now_ms (void)
{
  return g_get_monotonic_time () / 1000.0;
}

static int
compare_double (gconstpointer a,
                gconstpointer b)
{
  double x = *(const double *) a, y = *(const double *) b;

  return x < y ? -1 : x > y;
}

int
main (void)
{
  g_autofree char *draft = artifact_text (AKC_KNOWLEDGE_CONTENT_HASH_PLACEHOLDER);
  g_autoptr(AkcJsonValue) draft_value = akc_json_value_parse (draft, -1, NULL);
  g_autofree char *hash = akc_knowledge_artifact_compute_content_hash (draft_value, NULL);
  g_autofree char *text = artifact_text (hash);
  g_autoptr(AkcJsonValue) value = akc_json_value_parse (text, -1, NULL);
  g_autoptr(AkcKnowledgeResolver) resolver = NULL;
  g_autoptr(GPtrArray) queries = g_ptr_array_new_with_free_func (g_free);
  double verify[ROUNDS], whole[ROUNDS], verify_ms, whole_ms, build_ms, lookup_us, t;
  guint answers = 0;

  g_assert (hash != NULL && value != NULL);

  for (guint r = 0; r < ROUNDS; r++)
    {
      g_autoptr(AkcJsonValue) verified = NULL;

      t = now_ms ();
      verified = akc_knowledge_artifact_verify_value (value, hash, "bench-site", NULL);
      verify[r] = now_ms () - t;
      g_assert (verified != NULL);

      g_clear_object (&resolver);
      t = now_ms ();
      resolver = akc_knowledge_resolver_new (value, hash, "bench-site");
      whole[r] = now_ms () - t;
      g_assert (akc_knowledge_resolver_is_verified (resolver));
    }
  qsort (verify, ROUNDS, sizeof (double), compare_double);
  qsort (whole, ROUNDS, sizeof (double), compare_double);
  verify_ms = verify[ROUNDS / 2];
  whole_ms = whole[ROUNDS / 2];
  build_ms = MAX (whole_ms - verify_ms, 0.0);

  for (guint i = 0; i < 1024; i++)
    {
      guint e = (i * 37) % N_ENTRIES;

      if (i % 4 == 0)
        g_ptr_array_add (queries, g_strdup_printf ("no such question %u", i));
      else if (i % 16 == 1)
        g_ptr_array_add (queries, g_strdup_printf ("  SHARED question %u ", e / 8));
      else
        g_ptr_array_add (queries, g_strdup_printf ("  TASK %u  how %u? ", e, i % 15));
    }

  t = now_ms ();
  for (guint i = 0; i < LOOKUPS; i++)
    {
      AkcJsonValue *d = akc_knowledge_resolver_resolve (resolver, g_ptr_array_index (queries, i % queries->len), 0);

      answers += akc_json_value_get_member_count (d) > 0;
      akc_json_value_unref (d);
    }
  lookup_us = (now_ms () - t) * 1000.0 / LOOKUPS;
  g_assert (answers == LOOKUPS);

  printf ("Deterministic resolver, %u entries × %u aliases (%u aliases, artifact %zu bytes)\n",
          N_ENTRIES, N_ALIASES, N_ENTRIES * N_ALIASES, strlen (text));
  printf ("  verification (decode + SHA-256):  %8.3f ms (median of %u)\n", verify_ms, ROUNDS);
  printf ("  resolver construction, in all:    %8.3f ms\n", whole_ms);
  printf ("  index build:                      %8.3f ms   target ≤ %.0f ms: %s\n",
          build_ms, TARGET_BUILD_MS, build_ms <= TARGET_BUILD_MS ? "met" : "MISSED");
  printf ("  mean lookup (envelope included):  %8.3f µs   target ≤ %.0f µs: %s (%u lookups)\n",
          lookup_us, TARGET_LOOKUP_US, lookup_us <= TARGET_LOOKUP_US ? "met" : "MISSED", LOOKUPS);
  return 0;
}
