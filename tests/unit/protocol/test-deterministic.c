/* test-deterministic.c: the deterministic answer plane (protocol.md §8.2–§8.8)
 *
 * SPDX-License-Identifier: MIT
 *
 * Every decodeDeterministicSiteConfig, decodeLocalKnowledgeArtifact,
 * verifyLocalKnowledgeArtifact, computeContentHash and decodeAnswerResponse
 * vector of $AKC_FIXTURES_DIR/protocol/deterministic.json is one test case
 * (isSafeHref and normalizeKnowledgeKey are run by test-text). The cases
 * below cover what the vectors do not reach: every bound at n and n + 1,
 * the text and value forms of the byte limits, the cross-field rules, and
 * the stability of the content hash.
 */

#include "config.h"

#include <string.h>

#include "akc.h"
#include "akc-fixture.h"
#include "akc-json-private.h"
#include "akc-knowledge-artifact-private.h"
#include "akc-test.h"

#define INVALID     "DETERMINISTIC_INVALID_PAYLOAD"
#define UNSUPPORTED "DETERMINISTIC_UNSUPPORTED_VERSION"
#define LIMIT       "DETERMINISTIC_LIMIT_EXCEEDED"
#define MISMATCH    "DETERMINISTIC_HASH_MISMATCH"
#define OK          "OK"

#define MSG_INVALID        "Deterministic payload is invalid."
#define MSG_TRUSTED_CONFIG "Trusted deterministic artifact configuration is invalid."
#define MSG_CONTENT_HASH   "Deterministic artifact content does not match its SHA-256 hash."
#define MSG_CONFIGURED     "Deterministic artifact does not match the configured content hash."
#define MSG_OTHER_SITE     "Deterministic artifact belongs to a different site."

static char *
repeat (const char *unit,
        gsize       count)
{
  GString *s = g_string_new (NULL);

  while (count-- > 0)
    g_string_append (s, unit);
  return g_string_free (s, FALSE);
}

/* The diagnostics a deterministic decoder may produce, with their fixed
 * messages: a diagnostic never carries anything else. */
static void
assert_well_formed (AkcJsonValue  *result,
                    AkcDiagnostic *diagnostic)
{
  static const char * const known[] = {
    INVALID, "Deterministic payload is not valid JSON.",
    INVALID, MSG_INVALID,
    INVALID, MSG_OTHER_SITE,
    INVALID, MSG_TRUSTED_CONFIG,
    INVALID, "Deterministic artifact integrity could not be verified.",
    UNSUPPORTED, "Deterministic payload uses an unsupported version.",
    LIMIT, "Deterministic payload exceeds its safety limit.",
    MISMATCH, MSG_CONFIGURED,
    MISMATCH, MSG_CONTENT_HASH,
  };
  gboolean found = FALSE;

  g_assert_true ((result == NULL) != (diagnostic == NULL));
  if (diagnostic == NULL)
    return;

  g_assert_false (akc_diagnostic_get_retryable (diagnostic));
  g_assert_null (akc_diagnostic_get_event_id (diagnostic));
  for (guint i = 0; i < G_N_ELEMENTS (known); i += 2)
    found |= g_str_equal (akc_diagnostic_get_code (diagnostic), known[i]) &&
             g_str_equal (akc_diagnostic_get_message (diagnostic), known[i + 1]);
  g_assert_true (found);
}

/* ------------------------------------------------------------------ */
/* Running the three decoders in either form                           */
/* ------------------------------------------------------------------ */

typedef enum {
  KIND_SITE,
  KIND_ARTIFACT,
  KIND_ANSWER,
} Kind;

static AkcJsonValue *
decode_text (Kind            kind,
             const char     *text,
             gssize          len,
             AkcDiagnostic **diagnostic)
{
  AkcJsonValue *result = NULL;

  switch (kind)
    {
    case KIND_SITE:
      result = akc_site_config_decode (text, len, diagnostic);
      break;
    case KIND_ARTIFACT:
      result = akc_knowledge_artifact_decode (text, len, NULL, NULL, diagnostic);
      break;
    case KIND_ANSWER:
      result = akc_answer_decode (text, len, diagnostic);
      break;
    }
  assert_well_formed (result, *diagnostic);
  return result;
}

static AkcJsonValue *
decode_value (Kind            kind,
              AkcJsonValue   *value,
              AkcDiagnostic **diagnostic)
{
  AkcJsonValue *result = NULL;

  switch (kind)
    {
    case KIND_SITE:
      result = akc_site_config_decode_value (value, diagnostic);
      break;
    case KIND_ARTIFACT:
      result = akc_knowledge_artifact_decode_value (value, NULL, NULL, diagnostic);
      break;
    case KIND_ANSWER:
      result = akc_answer_decode_value (value, diagnostic);
      break;
    }
  assert_well_formed (result, *diagnostic);
  return result;
}

/* Returns the diagnostic code, or "OK" (and the value in @out, nullable). */
static char *
code_text (Kind           kind,
           const char    *text,
           gssize         len,
           AkcJsonValue **out)
{
  g_autoptr(AkcDiagnostic) diagnostic = NULL;
  g_autoptr(AkcJsonValue) result = decode_text (kind, text, len, &diagnostic);

  if (out != NULL)
    *out = result != NULL ? akc_json_value_ref (result) : NULL;
  return g_strdup (diagnostic != NULL ? akc_diagnostic_get_code (diagnostic) : OK);
}

static char *
code_value (Kind           kind,
            const char    *text,
            AkcJsonValue **out)
{
  g_autoptr(AkcJsonValue) value = akc_test_parse_json (text);
  g_autoptr(AkcDiagnostic) diagnostic = NULL;
  g_autoptr(AkcJsonValue) result = decode_value (kind, value, &diagnostic);

  if (out != NULL)
    *out = result != NULL ? akc_json_value_ref (result) : NULL;
  return g_strdup (diagnostic != NULL ? akc_diagnostic_get_code (diagnostic) : OK);
}

/* Both forms, for texts within the byte limit where they must agree. */
#define assert_both(kind, text, code) \
  G_STMT_START { \
    g_autofree char *t_ = code_text ((kind), (text), -1, NULL); \
    g_autofree char *v_ = code_value ((kind), (text), NULL); \
    g_assert_cmpstr (t_, ==, (code)); \
    g_assert_cmpstr (v_, ==, (code)); \
  } G_STMT_END
#define assert_text(kind, text, len, code) \
  G_STMT_START { \
    g_autofree char *t_ = code_text ((kind), (text), (len), NULL); \
    g_assert_cmpstr (t_, ==, (code)); \
  } G_STMT_END
#define assert_value(kind, text, code) \
  G_STMT_START { \
    g_autofree char *v_ = code_value ((kind), (text), NULL); \
    g_assert_cmpstr (v_, ==, (code)); \
  } G_STMT_END

/* ------------------------------------------------------------------ */
/* Fixture vectors                                                     */
/* ------------------------------------------------------------------ */

static const char *
option (const AkcFixtureCase *fc,
        const char           *name)
{
  AkcJsonValue *v = fc->options != NULL ? akc_json_value_get_member (fc->options, name) : NULL;

  return v != NULL ? akc_json_value_get_string (v, NULL) : NULL;
}

static void
assert_expectation (const AkcFixtureCase *fc,
                     AkcJsonValue         *result,
                     AkcDiagnostic        *diagnostic)
{
  assert_well_formed (result, diagnostic);

  if (!akc_fixture_expect_ok (fc))
    {
      g_assert_nonnull (diagnostic);
      g_assert_cmpstr (akc_diagnostic_get_code (diagnostic), ==, akc_fixture_expect_string (fc, "code"));
      if (akc_fixture_expect_string (fc, "message") != NULL)
        g_assert_cmpstr (akc_diagnostic_get_message (diagnostic), ==, akc_fixture_expect_string (fc, "message"));
      return;
    }

  g_assert_null (diagnostic);
  if (akc_fixture_expect (fc, "value") != NULL)
    akc_assert_json_equal (result, akc_fixture_expect (fc, "value"));
}

typedef AkcJsonValue *(*RunFunc) (const AkcFixtureCase *fc,
                                  gboolean              as_text,
                                  const char           *text,
                                  gsize                 len,
                                  AkcDiagnostic       **diagnostic);

static AkcJsonValue *
run_site (const AkcFixtureCase *fc,
          gboolean              as_text,
          const char           *text,
          gsize                 len,
          AkcDiagnostic       **diagnostic)
{
  return as_text ? akc_site_config_decode (text, len, diagnostic)
                 : akc_site_config_decode_value (fc->input, diagnostic);
}

static AkcJsonValue *
run_artifact (const AkcFixtureCase *fc,
              gboolean              as_text,
              const char           *text,
              gsize                 len,
              AkcDiagnostic       **diagnostic)
{
  const char *hash = option (fc, "expectedContentHash");
  const char *site = option (fc, "expectedSiteId");

  return as_text ? akc_knowledge_artifact_decode (text, len, hash, site, diagnostic)
                 : akc_knowledge_artifact_decode_value (fc->input, hash, site, diagnostic);
}

static AkcJsonValue *
run_verify (const AkcFixtureCase *fc,
            gboolean              as_text,
            const char           *text,
            gsize                 len,
            AkcDiagnostic       **diagnostic)
{
  const char *hash = option (fc, "expectedContentHash");
  const char *site = option (fc, "expectedSiteId");

  return as_text ? akc_knowledge_artifact_verify (text, len, hash, site, diagnostic)
                 : akc_knowledge_artifact_verify_value (fc->input, hash, site, diagnostic);
}

static AkcJsonValue *
run_answer (const AkcFixtureCase *fc,
            gboolean              as_text,
            const char           *text,
            gsize                 len,
            AkcDiagnostic       **diagnostic)
{
  return as_text ? akc_answer_decode (text, len, diagnostic)
                 : akc_answer_decode_value (fc->input, diagnostic);
}

/* user_data: the RunFunc, and the byte limit in the second slot. */
typedef struct {
  RunFunc run;
  gsize   limit;
} Runner;

static const Runner site_runner = { run_site, AKC_SITE_CONFIG_MAX_BYTES };
static const Runner artifact_runner = { run_artifact, AKC_KNOWLEDGE_ARTIFACT_MAX_BYTES };
static const Runner verify_runner = { run_verify, AKC_KNOWLEDGE_ARTIFACT_MAX_BYTES };
static const Runner answer_runner = { run_answer, AKC_ANSWER_MAX_BYTES };

static void
run_decode_case (const AkcFixtureCase *fc,
                 gconstpointer         user_data)
{
  const Runner *runner = user_data;
  gboolean as_text = g_strcmp0 (fc->input_kind, "text") == 0;
  g_autoptr(AkcDiagnostic) diagnostic = NULL;
  g_autoptr(AkcJsonValue) result = NULL;
  g_autofree char *text = NULL;
  gsize len;

  text = akc_fixture_input_text (fc, &len);
  result = runner->run (fc, as_text, text, len, &diagnostic);
  assert_expectation (fc, result, diagnostic);

  /* A value and its compact text agree (§1.1), except that a text over the
   * byte limit is rejected before parsing (§8.6). */
  if (!as_text)
    {
      g_autoptr(AkcDiagnostic) text_diagnostic = NULL;
      g_autoptr(AkcJsonValue) text_result = runner->run (fc, TRUE, text, len, &text_diagnostic);

      assert_well_formed (text_result, text_diagnostic);
      if (len > runner->limit)
        g_assert_cmpstr (akc_diagnostic_get_code (text_diagnostic), ==, LIMIT);
      else if (diagnostic != NULL)
        g_assert_true (akc_diagnostic_equal (text_diagnostic, diagnostic));
      else
        akc_assert_json_equal (text_result, result);
    }
}

static void
run_hash_case (const AkcFixtureCase *fc,
               gconstpointer         user_data)
{
  g_autoptr(AkcDiagnostic) diagnostic = NULL;
  g_autoptr(AkcDiagnostic) text_diagnostic = NULL;
  g_autofree char *hash = NULL;
  g_autofree char *text = NULL;
  g_autofree char *text_digest = NULL;
  gsize len;

  g_assert_cmpstr (fc->input_kind, ==, "value");
  hash = akc_knowledge_artifact_compute_content_hash (fc->input, &diagnostic);
  text = akc_knowledge_artifact_hash_text (fc->input, &len, &text_diagnostic);

  if (!akc_fixture_expect_ok (fc))
    {
      g_assert_null (hash);
      g_assert_nonnull (diagnostic);
      g_assert_null (text);
      return;
    }

  g_assert_nonnull (hash);
  g_assert_null (diagnostic);
  g_assert_true (g_str_has_prefix (hash, "sha256:"));
  g_assert_cmpuint (strlen (hash), ==, 71);

  /* the digest is the SHA-256 of exactly the canonical text */
  g_assert_nonnull (text);
  text_digest = g_compute_checksum_for_data (G_CHECKSUM_SHA256, (const guchar *) text, len);
  g_assert_cmpstr (hash + 7, ==, text_digest);

  if (akc_fixture_expect_string (fc, "contentHash") != NULL)
    g_assert_cmpstr (hash, ==, akc_fixture_expect_string (fc, "contentHash"));
  if (akc_fixture_expect_string (fc, "canonical") != NULL)
    g_assert_cmpstr (text, ==, akc_fixture_expect_string (fc, "canonical"));
}

/* ------------------------------------------------------------------ */
/* Site configuration (§8.2)                                           */
/* ------------------------------------------------------------------ */

#define HASH_A "sha256:aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"
#define SITE_BODY \
  "\"protocol\":\"agentskit.chat.site\",\"version\":1,\"siteId\":\"docs\"," \
  "\"artifact\":{\"href\":\"/k.json\",\"contentHash\":\"" HASH_A "\"}," \
  "\"fallback\":{\"mode\":\"backend\"}"
#define SITE "{" SITE_BODY "}"

/* {"pad":"xxx…",<SITE_BODY>} of exactly @total bytes. */
static char *
padded_site (gsize total)
{
  gsize fixed = strlen ("{\"pad\":\"\"," SITE_BODY "}");
  g_autofree char *pad = repeat ("x", total - fixed);

  return g_strdup_printf ("{\"pad\":\"%s\"," SITE_BODY "}", pad);
}

static void
test_site_config (void)
{
  g_autoptr(AkcJsonValue) out = NULL;
  g_autofree char *code = NULL;

  code = code_value (KIND_SITE, "{\"fallback\":{\"x\":1,\"mode\":\"disabled\"},\"extra\":[1],"
                           "\"artifact\":{\"contentHash\":\"" HASH_A "\",\"href\":\"https://example.com/k.json\"},"
                           "\"siteId\":\"docs\",\"version\":1.0,\"protocol\":\"agentskit.chat.site\"}", &out);
  g_assert_cmpstr (code, ==, OK);
  akc_assert_canonical (out, "{\"protocol\":\"agentskit.chat.site\",\"version\":1,\"siteId\":\"docs\","
                             "\"artifact\":{\"href\":\"https://example.com/k.json\",\"contentHash\":\"" HASH_A "\"},"
                             "\"fallback\":{\"mode\":\"disabled\"}}");

  assert_both (KIND_SITE, SITE, OK);
  /* every member is required, null is not absence */
  assert_both (KIND_SITE, "{\"protocol\":\"agentskit.chat.site\",\"version\":1,\"siteId\":\"docs\","
                     "\"artifact\":{\"href\":\"/k.json\",\"contentHash\":\"" HASH_A "\"}}", INVALID);
  assert_both (KIND_SITE, "{\"protocol\":\"agentskit.chat.site\",\"version\":1,\"siteId\":\"docs\","
                     "\"artifact\":{\"href\":\"/k.json\",\"contentHash\":\"" HASH_A "\"},\"fallback\":null}", INVALID);
  assert_both (KIND_SITE, "{\"protocol\":\"agentskit.chat.site\",\"version\":1,\"siteId\":\"docs\","
                     "\"artifact\":{\"href\":\"/k.json\",\"contentHash\":\"" HASH_A "\"},\"fallback\":{\"mode\":\"none\"}}", INVALID);
  assert_both (KIND_SITE, "{\"protocol\":\"agentskit.chat.site\",\"version\":1,\"siteId\":\"-docs\","
                     "\"artifact\":{\"href\":\"/k.json\",\"contentHash\":\"" HASH_A "\"},\"fallback\":{\"mode\":\"backend\"}}", INVALID);
  assert_both (KIND_SITE, "{\"protocol\":\"agentskit.chat.site\",\"version\":1,\"siteId\":\"docs\","
                     "\"artifact\":{\"href\":\"k.json\",\"contentHash\":\"" HASH_A "\"},\"fallback\":{\"mode\":\"backend\"}}", INVALID);
  assert_both (KIND_SITE, "[" SITE "]", INVALID);
  assert_both (KIND_SITE, "null", INVALID);
  /* a JSON string holding a configuration is not parsed twice */
  assert_both (KIND_SITE, "\"{\\\"protocol\\\":\\\"agentskit.chat.site\\\"}\"", INVALID);
}

static void
test_site_version (void)
{
  /* §8.5 step 3 comes before the schema */
  assert_both (KIND_SITE, "{\"protocol\":\"agentskit.chat.site\",\"version\":2}", UNSUPPORTED);
  assert_both (KIND_SITE, "{\"protocol\":\"agentskit.chat.site\",\"version\":0}", UNSUPPORTED);
  assert_both (KIND_SITE, "{\"protocol\":\"agentskit.chat.site\",\"version\":-1.5}", UNSUPPORTED);
  assert_both (KIND_SITE, "{\"version\":2,\"protocol\":\"agentskit.chat.site\"}", UNSUPPORTED);
  /* an overflowing literal is a number other than 1 */
  assert_both (KIND_SITE, "{\"protocol\":\"agentskit.chat.site\",\"version\":1e400}", UNSUPPORTED);
  /* not numeric, or not this protocol: a plain schema failure */
  assert_both (KIND_SITE, "{\"protocol\":\"agentskit.chat.site\",\"version\":\"2\"}", INVALID);
  assert_both (KIND_SITE, "{\"protocol\":\"agentskit.chat.site\",\"version\":null}", INVALID);
  assert_both (KIND_SITE, "{\"protocol\":\"agentskit.chat.answer\",\"version\":2}", INVALID);
  assert_both (KIND_SITE, "{\"protocol\":\"agentskit.chat.knowledge\",\"version\":2}", INVALID);
  /* 1, 1.0 and 1e0 are the same number */
  assert_both (KIND_SITE, "{\"protocol\":\"agentskit.chat.site\",\"version\":1e0,\"siteId\":\"docs\","
                     "\"artifact\":{\"href\":\"/k.json\",\"contentHash\":\"" HASH_A "\"},\"fallback\":{\"mode\":\"backend\"}}", OK);
}

static void
test_site_limits (void)
{
  g_autofree char *at = padded_site (AKC_SITE_CONFIG_MAX_BYTES);
  g_autofree char *over = padded_site (AKC_SITE_CONFIG_MAX_BYTES + 1);
  g_autofree char *big_pad = repeat ("x", 20000);
  g_autofree char *big_invalid = g_strdup_printf ("{\"pad\":\"%s\"}", big_pad);
  g_autofree char *bad_utf8 = NULL;
  gsize len;

  g_assert_cmpuint (strlen (at), ==, 16384);
  assert_text (KIND_SITE, at, -1, OK);
  assert_text (KIND_SITE, over, -1, LIMIT);
  /* the value form measures the normalised value: the padding is gone */
  assert_value (KIND_SITE, over, OK);
  /* an oversized invalid document: LIMIT as text, INVALID as a value */
  assert_text (KIND_SITE, big_invalid, -1, LIMIT);
  assert_value (KIND_SITE, big_invalid, INVALID);
  /* the limit is checked before parsing: even garbage is LIMIT */
  big_pad[0] = '{';
  assert_text (KIND_SITE, big_pad, -1, LIMIT);

  /* bytes are counted after the UTF-8 decode: one invalid byte is U+FFFD,
   * three bytes */
  bad_utf8 = padded_site (AKC_SITE_CONFIG_MAX_BYTES - 2);
  bad_utf8[10] = (char) 0xFF;
  len = strlen (bad_utf8);
  g_assert_cmpuint (len, ==, 16382);
  assert_text (KIND_SITE, bad_utf8, len, OK);
  g_free (bad_utf8);
  bad_utf8 = padded_site (AKC_SITE_CONFIG_MAX_BYTES - 1);
  bad_utf8[10] = (char) 0xFF;
  assert_text (KIND_SITE, bad_utf8, -1, LIMIT);

  /* @length is honoured: bytes after it are not read, a NUL inside is data */
  {
    g_autofree char *trailing = g_strconcat (SITE, "garbage", NULL);

    assert_text (KIND_SITE, trailing, strlen (SITE), OK);
    assert_text (KIND_SITE, trailing, -1, INVALID);
    assert_text (KIND_SITE, SITE "\0", strlen (SITE) + 1, INVALID);
    assert_text (KIND_SITE, "", 0, INVALID);
    assert_text (KIND_SITE, NULL, 0, INVALID);
    assert_text (KIND_SITE, " " SITE "\n\t ", -1, OK);
  }
  /* a lone surrogate escape is not valid JSON for the port (§10 item 1) */
  {
    g_autoptr(AkcDiagnostic) diagnostic = NULL;
    g_autoptr(AkcJsonValue) v = akc_site_config_decode ("{\"protocol\":\"\\ud800\"}", -1, &diagnostic);

    g_assert_null (v);
    g_assert_cmpstr (akc_diagnostic_get_message (diagnostic), ==, "Deterministic payload is not valid JSON.");
  }
  /* the diagnostic is optional */
  g_assert_null (akc_site_config_decode ("{", -1, NULL));
}

/* ------------------------------------------------------------------ */
/* Knowledge artifact (§8.3)                                           */
/* ------------------------------------------------------------------ */

#define ZERO_HASH AKC_KNOWLEDGE_CONTENT_HASH_PLACEHOLDER
#define HEAD_WITH(expires) \
  "{\"protocol\":\"agentskit.chat.knowledge\",\"version\":1,\"artifactId\":\"artifact-1\"," \
  "\"siteId\":\"site-1\",\"contentHash\":\"" ZERO_HASH "\",\"generatedAt\":\"2026-07-13T00:00:00.000Z\"" \
  expires ",\"entries\":["
#define HEAD HEAD_WITH ("")
#define TAIL "]}"
#define ENTRY(id, values) \
  "{\"id\":\"" id "\",\"kind\":\"command\",\"label\":\"Label\",\"match\":{\"type\":\"exact\",\"values\":" values "}," \
  "\"answer\":{\"markdown\":\"Answer.\",\"citations\":[]}}"
#define ARTIFACT1(values) HEAD ENTRY ("e1", values) TAIL

/* Appends an entry in canonical form (so the text is its own canonical
 * encoding). */
static void
append_entry (GString    *s,
              const char *id,
              const char *values,
              const char *markdown,
              const char *citations)
{
  if (s->str[s->len - 1] != '[')
    g_string_append_c (s, ',');
  g_string_append_printf (s, "{\"id\":\"%s\",\"kind\":\"document\",\"label\":\"Label %s\","
                             "\"match\":{\"type\":\"exact\",\"values\":%s},"
                             "\"answer\":{\"markdown\":\"%s\",\"citations\":%s}}",
                          id, id, values, markdown, citations);
}

/* @n small entries e0…, each with one alias. */
static char *
artifact_with_entries (guint n)
{
  GString *s = g_string_new (HEAD);

  for (guint i = 0; i < n; i++)
    {
      g_autofree char *id = g_strdup_printf ("e%u", i);
      g_autofree char *values = g_strdup_printf ("[\"question %u\"]", i);

      append_entry (s, id, values, "Answer.", "[]");
    }
  g_string_append (s, TAIL);
  return g_string_free (s, FALSE);
}

/* An artifact in canonical form with @n_full entries of 16000-byte
 * markdown and one more of @last bytes. */
static char *
artifact_with_markdown (guint n_full,
                        gsize last)
{
  GString *s = g_string_new (HEAD);
  g_autofree char *full = repeat ("x", 16000);
  g_autofree char *rest = repeat ("y", last);

  for (guint i = 0; i <= n_full; i++)
    {
      g_autofree char *id = g_strdup_printf ("e%u", i);
      g_autofree char *values = g_strdup_printf ("[\"q%u\"]", i);

      append_entry (s, id, values, i < n_full ? full : rest, "[]");
    }
  g_string_append (s, TAIL);
  return g_string_free (s, FALSE);
}

/* An artifact whose canonical encoding is exactly @target bytes. */
static char *
artifact_of_size (gsize target)
{
  for (guint n = 0; n < 64; n++)
    {
      g_autofree char *probe = artifact_with_markdown (n, 1);
      gsize need = target - strlen (probe) + 1;

      if (need >= 1 && need <= 16000)
        {
          char *text = artifact_with_markdown (n, need);

          g_assert_cmpuint (strlen (text), ==, target);
          return text;
        }
    }
  g_assert_not_reached ();
}

static void
test_artifact_entries_bound (void)
{
  g_autofree char *empty = artifact_with_entries (0);
  g_autofree char *at = artifact_with_entries (AKC_KNOWLEDGE_ARTIFACT_MAX_ENTRIES);
  g_autofree char *over = artifact_with_entries (AKC_KNOWLEDGE_ARTIFACT_MAX_ENTRIES + 1);

  assert_both (KIND_ARTIFACT, empty, OK);
  assert_both (KIND_ARTIFACT, at, OK);
  assert_both (KIND_ARTIFACT, over, INVALID);
}

static void
test_artifact_string_bounds (void)
{
  g_autofree char *a512 = repeat ("a", 512);
  g_autofree char *a513 = repeat ("a", 513);
  g_autofree char *fi256 = repeat ("\xEF\xAC\x81", 256);   /* U+FB01 "ﬁ", NFKC "fi" */
  g_autofree char *emoji256 = repeat ("\xF0\x9F\x98\x80", 256);
  g_autofree char *m16384 = repeat ("m", 16384);
  g_autofree char *m16385 = repeat ("m", 16385);
  g_autofree char *l256 = repeat ("l", 256);
  g_autofree char *l257 = repeat ("l", 257);
  g_autofree char *text = NULL;
  GString *s;

#define WITH_VALUE(v) (g_free (text), text = g_strdup_printf (HEAD ENTRY ("e1", "[\"%s\"]") TAIL, (v)))
  /* a match value is 1..512 units after trimming */
  assert_both (KIND_ARTIFACT, WITH_VALUE (a512), OK);
  assert_both (KIND_ARTIFACT, WITH_VALUE (a513), INVALID);
  {
    g_autofree char *padded = g_strdup_printf (" \\u3000%s\\t", a512);

    assert_both (KIND_ARTIFACT, WITH_VALUE (padded), OK);
  }
  assert_both (KIND_ARTIFACT, WITH_VALUE (" \\n "), INVALID);
  assert_both (KIND_ARTIFACT, WITH_VALUE (""), INVALID);
  /* 256 astral characters are 512 units */
  assert_both (KIND_ARTIFACT, WITH_VALUE (emoji256), OK);
  /* rule 1: the normalised value is at most 512 units: 256 "ﬁ" become 512 */
  assert_both (KIND_ARTIFACT, WITH_VALUE (fi256), OK);
  {
    g_autofree char *fi256a = g_strconcat (fi256, "a", NULL);

    assert_both (KIND_ARTIFACT, WITH_VALUE (fi256a), INVALID);
  }
#undef WITH_VALUE

  /* 1..16 values */
  assert_both (KIND_ARTIFACT, ARTIFACT1 ("[]"), INVALID);
  s = g_string_new ("[\"v0\"");
  for (guint i = 1; i < 16; i++)
    g_string_append_printf (s, ",\"v%u\"", i);
  g_string_append (s, "]");
  g_free (text);
  text = g_strdup_printf (HEAD ENTRY ("e1", "%s") TAIL, s->str);
  assert_both (KIND_ARTIFACT, text, OK);
  g_string_insert (s, 1, "\"v16\",");
  g_free (text);
  text = g_strdup_printf (HEAD ENTRY ("e1", "%s") TAIL, s->str);
  assert_both (KIND_ARTIFACT, text, INVALID);
  g_string_free (s, TRUE);

  /* markdown 1..16384 after trimming, label 1..256 after trimming */
#define WITH(markdown, label) \
  (g_free (text), \
   text = g_strdup_printf (HEAD "{\"id\":\"e1\",\"kind\":\"command\",\"label\":\"%s\"," \
                           "\"match\":{\"type\":\"exact\",\"values\":[\"q\"]}," \
                           "\"answer\":{\"markdown\":\"%s\",\"citations\":[]}}" TAIL, (label), (markdown)))
  assert_both (KIND_ARTIFACT, WITH (m16384, "L"), OK);
  assert_both (KIND_ARTIFACT, WITH (m16385, "L"), INVALID);
  {
    g_autofree char *padded = g_strdup_printf ("\\n\\n%s\\n", m16384);

    assert_both (KIND_ARTIFACT, WITH (padded, "L"), OK);
  }
  assert_both (KIND_ARTIFACT, WITH (" \\t ", "L"), INVALID);
  assert_both (KIND_ARTIFACT, WITH ("M", l256), OK);
  assert_both (KIND_ARTIFACT, WITH ("M", l257), INVALID);
  assert_both (KIND_ARTIFACT, WITH ("M", "\\u00a0"), INVALID);
#undef WITH
}

static void
test_artifact_citations (void)
{
  g_autofree char *text = NULL;
  GString *c = g_string_new ("[");

  for (guint i = 0; i < 8; i++)
    g_string_append_printf (c, "%s{\"id\":\"c%u\",\"title\":\" Title %u \",\"href\":\"/docs/%u\"}", i ? "," : "", i, i, i);
  g_string_append (c, "]");

#define WITH(citations) \
  (g_free (text), \
   text = g_strdup_printf (HEAD "{\"id\":\"e1\",\"kind\":\"command\",\"label\":\"L\"," \
                           "\"match\":{\"type\":\"exact\",\"values\":[\"q\"]}," \
                           "\"answer\":{\"markdown\":\"M\",\"citations\":%s}}" TAIL, (citations)))
  assert_both (KIND_ARTIFACT, WITH (c->str), OK);
  g_string_insert (c, 1, "{\"id\":\"c8\",\"title\":\"T\",\"href\":\"https://example.com/\"},");
  assert_both (KIND_ARTIFACT, WITH (c->str), INVALID);
  g_string_free (c, TRUE);

  assert_both (KIND_ARTIFACT, WITH ("[{\"id\":\"c\",\"title\":\"T\",\"href\":\"javascript:alert(1)\"}]"), INVALID);
  assert_both (KIND_ARTIFACT, WITH ("[{\"id\":\"c\",\"title\":\"T\",\"href\":\"//evil.example/\"}]"), INVALID);
  assert_both (KIND_ARTIFACT, WITH ("[{\"id\":\"c\",\"title\":\" \",\"href\":\"/x\"}]"), INVALID);
  assert_both (KIND_ARTIFACT, WITH ("[{\"id\":\"c\",\"title\":\"T\"}]"), INVALID);
  assert_both (KIND_ARTIFACT, WITH ("{}"), INVALID);
  /* citation ids need not be unique */
  assert_both (KIND_ARTIFACT, WITH ("[{\"id\":\"c\",\"title\":\"T\",\"href\":\"/x\"},{\"id\":\"c\",\"title\":\"T\",\"href\":\"/x\"}]"), OK);
#undef WITH
}

static void
test_artifact_aliases (void)
{
  /* shared aliases are fine while each entry keeps a unique one */
  assert_both (KIND_ARTIFACT, HEAD ENTRY ("e1", "[\"docs\",\"agentskit docs\"]") ","
                              ENTRY ("e2", "[\"docs\",\"registry docs\"]") ","
                              ENTRY ("e3", "[\"Docs\",\"chat docs\"]") TAIL, OK);
  /* an entry whose only alias is shared */
  assert_both (KIND_ARTIFACT, HEAD ENTRY ("e1", "[\"docs\"]") ","
                              ENTRY ("e2", "[\"docs\",\"registry docs\"]") TAIL, INVALID);
  /* shared only after normalisation (case, width, spacing) */
  assert_both (KIND_ARTIFACT, HEAD ENTRY ("e1", "[\"Install CLI\"]") ","
                              ENTRY ("e2", "[\"install\\n  cli\",\"other\"]") TAIL, INVALID);
  assert_both (KIND_ARTIFACT, HEAD ENTRY ("e1", "[\"\xEF\xBC\xA9\xEF\xBC\xAE\xEF\xBC\xB3\xEF\xBC\xB4\xEF\xBC\xA1\xEF\xBC\xAC\xEF\xBC\xAC\"]") ","
                              ENTRY ("e2", "[\"install\",\"other\"]") TAIL, INVALID);
  /* the same entry twice (rule 2) */
  assert_both (KIND_ARTIFACT, ARTIFACT1 ("[\"Install\",\"install\"]"), INVALID);
  assert_both (KIND_ARTIFACT, ARTIFACT1 ("[\"a b\",\"a\\u3000b\"]"), INVALID);
  assert_both (KIND_ARTIFACT, ARTIFACT1 ("[\"x\",\"y\",\"x \"]"), INVALID);
  /* duplicate ids (rule 3) */
  assert_both (KIND_ARTIFACT, HEAD ENTRY ("e1", "[\"a\"]") "," ENTRY ("e1", "[\"b\"]") TAIL, INVALID);
  /* ids are compared exactly */
  assert_both (KIND_ARTIFACT, HEAD ENTRY ("e1", "[\"a\"]") "," ENTRY ("E1", "[\"b\"]") TAIL, OK);
  /* the unique alias of one entry may be any of its values */
  assert_both (KIND_ARTIFACT, HEAD ENTRY ("e1", "[\"a\",\"b\",\"c\"]") ","
                              ENTRY ("e2", "[\"a\",\"d\",\"b\"]") ","
                              ENTRY ("e3", "[\"e\",\"a\"]") TAIL, OK);
  assert_both (KIND_ARTIFACT, HEAD ENTRY ("e1", "[\"a\",\"b\",\"c\"]") ","
                              ENTRY ("e2", "[\"a\",\"d\",\"b\"]") ","
                              ENTRY ("e3", "[\"b\",\"a\",\"e\"]") TAIL, OK);
  assert_both (KIND_ARTIFACT, HEAD ENTRY ("e1", "[\"a\",\"b\",\"c\"]") ","
                              ENTRY ("e2", "[\"a\",\"d\",\"b\"]") ","
                              ENTRY ("e3", "[\"c\",\"d\"]") TAIL, INVALID);
  /* U+0000 is a character like any other */
  assert_both (KIND_ARTIFACT, HEAD ENTRY ("e1", "[\"a\\u0000\"]") "," ENTRY ("e2", "[\"a\"]") TAIL, OK);
  assert_both (KIND_ARTIFACT, ARTIFACT1 ("[\"a\\u0000b\",\"a\\u0000c\"]"), OK);
}

static void
test_artifact_dates (void)
{
#define DATES(generated, expires) \
  "{\"protocol\":\"agentskit.chat.knowledge\",\"version\":1,\"artifactId\":\"a\",\"siteId\":\"s\"," \
  "\"contentHash\":\"" ZERO_HASH "\",\"generatedAt\":\"" generated "\"" expires ",\"entries\":[]}"
  assert_both (KIND_ARTIFACT, DATES ("2026-07-13T00:00:00.000Z", ""), OK);
  assert_both (KIND_ARTIFACT, DATES ("2026-07-13T00:00:00.000Z", ",\"expiresAt\":\"2026-07-13T00:00:00.001Z\""), OK);
  assert_both (KIND_ARTIFACT, DATES ("2026-07-13T00:00:00.000Z", ",\"expiresAt\":\"2026-07-13T00:00:00.000Z\""), INVALID);
  assert_both (KIND_ARTIFACT, DATES ("2026-07-13T00:00:00.001Z", ",\"expiresAt\":\"2026-07-13T00:00:00.000Z\""), INVALID);
  /* fractions are truncated to milliseconds, not rounded */
  assert_both (KIND_ARTIFACT, DATES ("2026-07-13T00:00:00.0001Z", ",\"expiresAt\":\"2026-07-13T00:00:00.0009Z\""), INVALID);
  assert_both (KIND_ARTIFACT, DATES ("2026-07-13T00:00:00.0009Z", ",\"expiresAt\":\"2026-07-13T00:00:00.001Z\""), OK);
  /* a missing seconds field is :00 */
  assert_both (KIND_ARTIFACT, DATES ("2026-07-13T00:00Z", ",\"expiresAt\":\"2026-07-13T00:00:00Z\""), INVALID);
  assert_both (KIND_ARTIFACT, DATES ("2026-07-13T00:00Z", ",\"expiresAt\":\"2026-07-13T00:00:01Z\""), OK);
  /* offsets are applied */
  assert_both (KIND_ARTIFACT, DATES ("2026-07-13T02:00+02:00", ",\"expiresAt\":\"2026-07-13T00:00:00.001Z\""), OK);
  assert_both (KIND_ARTIFACT, DATES ("2026-07-13T02:00+02:00", ",\"expiresAt\":\"2026-07-13T00:00Z\""), INVALID);
  assert_both (KIND_ARTIFACT, DATES ("2026-07-12T23:59:59.999-00:01", ",\"expiresAt\":\"2026-07-13T00:00:59.999Z\""), INVALID);
  assert_both (KIND_ARTIFACT, DATES ("2026-12-31T23:30-01:00", ",\"expiresAt\":\"2027-01-01T00:31+00:00\""), OK);
  /* the dates themselves */
  assert_both (KIND_ARTIFACT, DATES ("2026-02-29T00:00Z", ""), INVALID);
  assert_both (KIND_ARTIFACT, DATES ("2028-02-29T00:00Z", ""), OK);
  assert_both (KIND_ARTIFACT, DATES ("2026-07-13 00:00Z", ""), INVALID);
  assert_both (KIND_ARTIFACT, DATES ("2026-07-13T00:00:00Z", ",\"expiresAt\":null"), INVALID);
  assert_both (KIND_ARTIFACT, DATES ("2026-07-13T00:00:00Z", ",\"expiresAt\":\"2027\""), INVALID);
  /* expiry relative to now is not checked */
  assert_both (KIND_ARTIFACT, DATES ("2000-01-01T00:00Z", ",\"expiresAt\":\"2000-01-02T00:00Z\""), OK);
#undef DATES
}

static void
test_artifact_misc (void)
{
  g_autoptr(AkcJsonValue) out = NULL;
  g_autofree char *code = NULL;

  /* normalisation: trimmed strings, unknown members dropped, table order */
  code = code_value (KIND_ARTIFACT,
                     "{\"entries\":[{\"answer\":{\"citations\":[{\"href\":\"/d\",\"title\":\" T \",\"id\":\"c\",\"x\":1}],"
                     "\"markdown\":\"\\n M\\u0000 \\n\",\"y\":2},\"match\":{\"values\":[\" Q \"],\"type\":\"exact\",\"z\":3},"
                     "\"label\":\"\\ufeffL\\u2028\",\"kind\":\"document\",\"id\":\"e\",\"w\":4}],"
                     "\"expiresAt\":\"2026-07-14T00:00Z\",\"generatedAt\":\"2026-07-13T00:00Z\",\"contentHash\":\"" ZERO_HASH "\","
                     "\"siteId\":\"s\",\"artifactId\":\"a\",\"version\":1,\"protocol\":\"agentskit.chat.knowledge\",\"v\":5}",
                     &out);
  g_assert_cmpstr (code, ==, OK);
  akc_assert_canonical (out, "{\"protocol\":\"agentskit.chat.knowledge\",\"version\":1,\"artifactId\":\"a\",\"siteId\":\"s\","
                             "\"contentHash\":\"" ZERO_HASH "\",\"generatedAt\":\"2026-07-13T00:00Z\",\"expiresAt\":\"2026-07-14T00:00Z\","
                             "\"entries\":[{\"id\":\"e\",\"kind\":\"document\",\"label\":\"L\","
                             "\"match\":{\"type\":\"exact\",\"values\":[\"Q\"]},"
                             "\"answer\":{\"markdown\":\"M\\u0000\",\"citations\":[{\"id\":\"c\",\"title\":\"T\",\"href\":\"/d\"}]}}]}");

  /* every kind */
  {
    static const char * const kinds[] = {
      "command", "package", "navigation", "contribution", "ecosystem", "restricted-faq", "document",
    };

    for (guint i = 0; i < G_N_ELEMENTS (kinds); i++)
      {
        g_autofree char *text = g_strdup_printf (HEAD "{\"id\":\"e\",\"kind\":\"%s\",\"label\":\"L\","
                                                 "\"match\":{\"type\":\"exact\",\"values\":[\"q\"]},"
                                                 "\"answer\":{\"markdown\":\"M\",\"citations\":[]}}" TAIL, kinds[i]);

        assert_both (KIND_ARTIFACT, text, OK);
      }
  }
  assert_both (KIND_ARTIFACT, HEAD "{\"id\":\"e\",\"kind\":\"Command\",\"label\":\"L\",\"match\":{\"type\":\"exact\",\"values\":[\"q\"]},"
                              "\"answer\":{\"markdown\":\"M\",\"citations\":[]}}" TAIL, INVALID);
  assert_both (KIND_ARTIFACT, HEAD "{\"id\":\"e\",\"kind\":\"command\",\"label\":\"L\",\"match\":{\"type\":\"prefix\",\"values\":[\"q\"]},"
                              "\"answer\":{\"markdown\":\"M\",\"citations\":[]}}" TAIL, INVALID);
  assert_both (KIND_ARTIFACT, HEAD "{\"id\":\"e\",\"kind\":\"command\",\"label\":\"L\",\"match\":{\"type\":\"exact\",\"values\":[\"q\"]},"
                              "\"answer\":{\"markdown\":\"M\"}}" TAIL, INVALID);
  assert_both (KIND_ARTIFACT, HEAD "{\"id\":\"e\",\"kind\":\"command\",\"label\":\"L\",\"match\":{\"type\":\"exact\",\"values\":[1]},"
                              "\"answer\":{\"markdown\":\"M\",\"citations\":[]}}" TAIL, INVALID);
  assert_both (KIND_ARTIFACT, "{\"protocol\":\"agentskit.chat.knowledge\",\"version\":1,\"artifactId\":\"a\",\"siteId\":\"s\","
                         "\"contentHash\":\"" ZERO_HASH "\",\"generatedAt\":\"2026-07-13T00:00Z\",\"entries\":{}}", INVALID);
  assert_both (KIND_ARTIFACT, "{\"protocol\":\"agentskit.chat.knowledge\",\"version\":1,\"artifactId\":\"a\",\"siteId\":\"s\","
                         "\"generatedAt\":\"2026-07-13T00:00Z\",\"entries\":[]}", INVALID);
  assert_both (KIND_ARTIFACT, "{\"protocol\":\"agentskit.chat.knowledge\",\"version\":1,\"artifactId\":\"a\",\"siteId\":\"s\","
                         "\"contentHash\":\"sha256:abc\",\"generatedAt\":\"2026-07-13T00:00Z\",\"entries\":[]}", INVALID);
  assert_both (KIND_ARTIFACT, "{\"protocol\":\"agentskit.chat.knowledge\",\"version\":3,\"entries\":7}", UNSUPPORTED);
}

static void
test_artifact_limits (void)
{
  g_autofree char *at = artifact_of_size (AKC_KNOWLEDGE_ARTIFACT_MAX_BYTES);
  g_autofree char *over = artifact_of_size (AKC_KNOWLEDGE_ARTIFACT_MAX_BYTES + 1);
  g_autofree char *spaced = NULL;
  g_autofree char *padded = NULL;

  /* the texts are canonical, so both forms measure the same bytes */
  assert_text (KIND_ARTIFACT, at, -1, OK);
  assert_value (KIND_ARTIFACT, at, OK);
  assert_text (KIND_ARTIFACT, over, -1, LIMIT);
  assert_value (KIND_ARTIFACT, over, LIMIT);

  /* white space counts in the text form only */
  spaced = g_strconcat (at, " ", NULL);
  assert_text (KIND_ARTIFACT, spaced, -1, LIMIT);
  assert_value (KIND_ARTIFACT, spaced, OK);

  /* a value whose size comes only from unknown members passes as a value */
  padded = g_strconcat ("{\"x\":[1,2,3],", at + 1, NULL);
  assert_text (KIND_ARTIFACT, padded, -1, LIMIT);
  assert_value (KIND_ARTIFACT, padded, OK);

  /* trimming happens before the value is measured */
  {
    g_autofree char *small = artifact_of_size (AKC_KNOWLEDGE_ARTIFACT_MAX_BYTES - 4);
    char *label = strstr (small, "\"Label e0\"");
    g_autoptr(GString) s = g_string_new (small);

    g_assert_nonnull (label);
    g_string_insert (s, label - small + 1, "      ");
    assert_text (KIND_ARTIFACT, s->str, -1, LIMIT);
    assert_value (KIND_ARTIFACT, s->str, OK);
  }
}

/* ------------------------------------------------------------------ */
/* Content hash (§8.7) and verification (§8.8)                         */
/* ------------------------------------------------------------------ */

#define SMALL_ARTIFACT \
  "{\"entries\":[{\"answer\":{\"citations\":[{\"title\":\"Quickstart\",\"href\":\"/docs/quickstart\",\"id\":\"q\"}]," \
  "\"markdown\":\" a\\u0000b\\t\"},\"match\":{\"values\":[\" Q \",\"R\"],\"type\":\"exact\"},\"label\":\" L \",\"kind\":\"document\",\"id\":\"e\"}]," \
  "\"generatedAt\":\"2026-07-13T00:00Z\",\"siteId\":\"s\",\"artifactId\":\"a\",\"version\":1.0," \
  "\"protocol\":\"agentskit.chat.knowledge\",\"x\":{\"y\":1}}"
#define SMALL_HASH_TEXT \
  "{\"protocol\":\"agentskit.chat.knowledge\",\"version\":1,\"artifactId\":\"a\",\"siteId\":\"s\"," \
  "\"generatedAt\":\"2026-07-13T00:00Z\",\"entries\":[{\"id\":\"e\",\"kind\":\"document\",\"label\":\"L\"," \
  "\"match\":{\"type\":\"exact\",\"values\":[\"Q\",\"R\"]},\"answer\":{\"markdown\":\"a\\u0000b\"," \
  "\"citations\":[{\"id\":\"q\",\"title\":\"Quickstart\",\"href\":\"/docs/quickstart\"}]}}]}"

static char *
hash_of (AkcJsonValue *value)
{
  g_autoptr(AkcDiagnostic) diagnostic = NULL;
  char *hash = akc_knowledge_artifact_compute_content_hash (value, &diagnostic);

  g_assert_true ((hash == NULL) != (diagnostic == NULL));
  return hash;
}

static char *
hash_of_text (const char *text)
{
  g_autoptr(AkcJsonValue) value = akc_test_parse_json (text);

  return hash_of (value);
}

/* Every object's members in reverse order, recursively. */
static AkcJsonValue *
reversed (AkcJsonValue *v)
{
  gsize n, i;

  switch (akc_json_value_get_kind (v))
    {
    case AKC_JSON_KIND_OBJECT:
      {
        g_autofree const char **names = NULL;
        g_autofree AkcJsonValue **values = NULL;
        AkcJsonValue *result;

        n = akc_json_value_get_member_count (v);
        names = g_new (const char *, n + 1);
        values = g_new (AkcJsonValue *, n + 1);
        for (i = 0; i < n; i++)
          {
            names[n - 1 - i] = akc_json_value_get_member_name (v, i, NULL);
            values[n - 1 - i] = reversed (akc_json_value_get_member_value (v, i));
          }
        result = akc_json_value_new_object (names, values, n);
        for (i = 0; i < n; i++)
          akc_json_value_unref (values[i]);
        return result;
      }
    case AKC_JSON_KIND_ARRAY:
      {
        g_autofree AkcJsonValue **elements = NULL;
        AkcJsonValue *result;

        n = akc_json_value_get_length (v);
        elements = g_new (AkcJsonValue *, n + 1);
        for (i = 0; i < n; i++)
          elements[i] = reversed (akc_json_value_get_element (v, i));
        result = akc_json_value_new_array (elements, n);
        for (i = 0; i < n; i++)
          akc_json_value_unref (elements[i]);
        return result;
      }
    default:
      return akc_json_value_ref (v);
    }
}

/* @text with white space after every structural character outside strings. */
static char *
spread_out (const char *text)
{
  GString *s = g_string_new (NULL);
  gboolean in_string = FALSE;

  for (const char *p = text; *p != '\0'; p++)
    {
      g_string_append_c (s, *p);
      if (in_string)
        {
          if (*p == '\\')
            g_string_append_c (s, *++p);
          else if (*p == '"')
            in_string = FALSE;
          continue;
        }
      if (*p == '"')
        in_string = TRUE;
      else if (strchr ("{}[],:", *p) != NULL)
        g_string_append (s, " \n\t\r ");
    }
  return g_string_free (s, FALSE);
}

static void
test_hash_text (void)
{
  g_autoptr(AkcJsonValue) value = akc_test_parse_json (SMALL_ARTIFACT);
  g_autofree char *expected = g_compute_checksum_for_string (G_CHECKSUM_SHA256, SMALL_HASH_TEXT, -1);
  g_autofree char *hash = hash_of (value);
  g_autofree char *text = NULL;
  gsize len;

  /* U+0000 in markdown is hashed as the escape \u0000; labels, values,
   * markdown and titles are trimmed; unknown members and contentHash left
   * out; version written as 1 */
  text = akc_knowledge_artifact_hash_text (value, &len, NULL);
  g_assert_cmpstr (text, ==, SMALL_HASH_TEXT);
  g_assert_cmpuint (len, ==, strlen (SMALL_HASH_TEXT));
  g_assert_nonnull (hash);
  g_assert_true (g_str_has_prefix (hash, "sha256:"));
  g_assert_cmpstr (hash + 7, ==, expected);
}

static void
test_hash_stability (void)
{
  g_autoptr(AkcJsonValue) value = akc_test_parse_json (SMALL_ARTIFACT);
  g_autofree char *hash = hash_of (value);
  g_autofree char *canonical = akc_json_value_to_canonical (value, NULL);

  /* member order, at every level */
  {
    g_autoptr(AkcJsonValue) rev = reversed (value);
    g_autofree char *rev_text = akc_json_value_to_canonical (rev, NULL);
    g_autofree char *h = hash_of (rev);

    g_assert_cmpstr (rev_text, !=, canonical);
    g_assert_cmpstr (h, ==, hash);
  }
  /* white space */
  {
    g_autofree char *spread = spread_out (SMALL_ARTIFACT);
    g_autofree char *h = hash_of_text (spread);

    g_assert_cmpuint (strlen (spread), >, strlen (SMALL_ARTIFACT) + 100);
    g_assert_cmpstr (h, ==, hash);
  }
  /* the declared contentHash, whatever it holds, does not count */
  {
    g_autofree char *h1 = NULL;
    g_autofree char *h2 = NULL;
    g_autofree char *h3 = NULL;
    g_autofree char *t1 = g_strconcat ("{\"contentHash\":\"" HASH_A "\",", SMALL_ARTIFACT + 1, NULL);
    g_autofree char *t2 = g_strconcat ("{\"contentHash\":42,", SMALL_ARTIFACT + 1, NULL);
    g_autofree char *t3 = g_strconcat ("{\"contentHash\":null,", SMALL_ARTIFACT + 1, NULL);

    h1 = hash_of_text (t1);
    h2 = hash_of_text (t2);
    h3 = hash_of_text (t3);
    g_assert_cmpstr (h1, ==, hash);
    g_assert_cmpstr (h2, ==, hash);
    g_assert_cmpstr (h3, ==, hash);
  }
  /* every change of content changes the hash */
  {
    static const char * const changes[][2] = {
      { "\"markdown\":\" a\\u0000b\\t\"", "\"markdown\":\" a\\u0001b\\t\"" },
      { "\"label\":\" L \"", "\"label\":\" l \"" },
      { "\"values\":[\" Q \",\"R\"]", "\"values\":[\"R\",\" Q \"]" },
      { "\"kind\":\"document\"", "\"kind\":\"command\"" },
      { "\"siteId\":\"s\"", "\"siteId\":\"t\"" },
      { "\"artifactId\":\"a\"", "\"artifactId\":\"b\"" },
      { "\"generatedAt\":\"2026-07-13T00:00Z\"", "\"generatedAt\":\"2026-07-13T00:00:00Z\"" },
      { "\"generatedAt\"", "\"expiresAt\":\"2026-07-14T00:00Z\",\"generatedAt\"" },
      { "\"href\":\"/docs/quickstart\"", "\"href\":\"/docs/quickstart/\"" },
    };

    for (guint i = 0; i < G_N_ELEMENTS (changes); i++)
      {
        g_autoptr(GString) s = g_string_new (SMALL_ARTIFACT);
        g_autofree char *h = NULL;

        g_assert_cmpuint (g_string_replace (s, changes[i][0], changes[i][1], 1), ==, 1);
        h = hash_of_text (s->str);
        g_assert_nonnull (h);
        g_assert_cmpstr (h, !=, hash);
      }
  }
}

static void
test_hash_invalid (void)
{
  g_autoptr(AkcDiagnostic) diagnostic = NULL;
  g_autoptr(AkcJsonValue) array = akc_test_parse_json ("[1,2]");
  g_autoptr(AkcJsonValue) version = akc_test_parse_json ("{\"protocol\":\"agentskit.chat.knowledge\",\"version\":2}");
  g_autoptr(AkcJsonValue) invalid = akc_test_parse_json ("{\"protocol\":\"agentskit.chat.knowledge\",\"version\":1}");
  g_autofree char *over = artifact_of_size (AKC_KNOWLEDGE_ARTIFACT_MAX_BYTES + 1);
  g_autofree char *at = artifact_of_size (AKC_KNOWLEDGE_ARTIFACT_MAX_BYTES);
  g_autoptr(AkcJsonValue) over_value = akc_test_parse_json (over);
  g_autoptr(AkcJsonValue) at_value = akc_test_parse_json (at);
  g_autofree char *hash = NULL;

  g_assert_null (akc_knowledge_artifact_compute_content_hash (array, &diagnostic));
  g_assert_cmpstr (akc_diagnostic_get_code (diagnostic), ==, INVALID);
  g_assert_cmpstr (akc_diagnostic_get_message (diagnostic), ==, MSG_INVALID);
  g_clear_pointer (&diagnostic, akc_diagnostic_unref);

  g_assert_null (akc_knowledge_artifact_compute_content_hash (version, &diagnostic));
  g_assert_cmpstr (akc_diagnostic_get_code (diagnostic), ==, UNSUPPORTED);
  g_clear_pointer (&diagnostic, akc_diagnostic_unref);

  g_assert_null (akc_knowledge_artifact_compute_content_hash (invalid, &diagnostic));
  g_assert_cmpstr (akc_diagnostic_get_code (diagnostic), ==, INVALID);
  g_clear_pointer (&diagnostic, akc_diagnostic_unref);

  /* the size check of the value form, with the placeholder hash */
  g_assert_null (akc_knowledge_artifact_compute_content_hash (over_value, &diagnostic));
  g_assert_cmpstr (akc_diagnostic_get_code (diagnostic), ==, LIMIT);
  g_clear_pointer (&diagnostic, akc_diagnostic_unref);
  hash = akc_knowledge_artifact_compute_content_hash (at_value, NULL);
  g_assert_nonnull (hash);
}

/* SMALL_ARTIFACT with its real hash as contentHash. */
static char *
hashed_small_artifact (char **out_hash)
{
  g_autofree char *hash = hash_of_text (SMALL_ARTIFACT);
  char *text = g_strdup_printf ("{\"contentHash\":\"%s\",%s", hash, SMALL_ARTIFACT + 1);

  if (out_hash != NULL)
    *out_hash = g_steal_pointer (&hash);
  return text;
}

static char *
verify_code (const char *text,
             gboolean    as_value,
             const char *hash,
             const char *site,
             const char *message)
{
  g_autoptr(AkcDiagnostic) diagnostic = NULL;
  g_autoptr(AkcJsonValue) result = NULL;

  if (as_value)
    {
      g_autoptr(AkcJsonValue) value = akc_test_parse_json (text);

      result = akc_knowledge_artifact_verify_value (value, hash, site, &diagnostic);
    }
  else
    result = akc_knowledge_artifact_verify (text, -1, hash, site, &diagnostic);

  assert_well_formed (result, diagnostic);
  if (diagnostic == NULL)
    return g_strdup (OK);
  if (message != NULL)
    g_assert_cmpstr (akc_diagnostic_get_message (diagnostic), ==, message);
  return g_strdup (akc_diagnostic_get_code (diagnostic));
}

#define assert_verify(text, hash, site, code, message) \
  G_STMT_START { \
    g_autofree char *t_ = verify_code ((text), FALSE, (hash), (site), (message)); \
    g_autofree char *v_ = verify_code ((text), TRUE, (hash), (site), (message)); \
    g_assert_cmpstr (t_, ==, (code)); \
    g_assert_cmpstr (v_, ==, (code)); \
  } G_STMT_END

static void
test_verify (void)
{
  g_autofree char *hash = NULL;
  g_autofree char *artifact = hashed_small_artifact (&hash);
  g_autofree char *tampered = NULL;
  g_autoptr(AkcJsonValue) verified = NULL;
  g_autoptr(AkcJsonValue) decoded = NULL;

  assert_verify (artifact, hash, "s", OK, NULL);

  /* the verified artifact is the decoded one */
  verified = akc_knowledge_artifact_verify (artifact, -1, hash, "s", NULL);
  decoded = akc_knowledge_artifact_decode (artifact, -1, NULL, NULL, NULL);
  g_assert_nonnull (verified);
  akc_assert_json_equal (verified, decoded);

  /* step 1: both anchors, well formed, before anything else */
  assert_verify (artifact, NULL, "s", INVALID, MSG_TRUSTED_CONFIG);
  assert_verify (artifact, hash, NULL, INVALID, MSG_TRUSTED_CONFIG);
  assert_verify (artifact, "", "s", INVALID, MSG_TRUSTED_CONFIG);
  assert_verify (artifact, hash, "", INVALID, MSG_TRUSTED_CONFIG);
  assert_verify (artifact, hash, "-s", INVALID, MSG_TRUSTED_CONFIG);
  assert_verify (artifact, "sha256:ABC", "s", INVALID, MSG_TRUSTED_CONFIG);
  {
    g_autofree char *upper = g_ascii_strup (hash, -1);

    memcpy (upper, "sha256:", 7);
    assert_verify (artifact, upper, "s", INVALID, MSG_TRUSTED_CONFIG);
  }
  {
    g_autofree char *code = verify_code ("not json", FALSE, NULL, "s", MSG_TRUSTED_CONFIG);

    g_assert_cmpstr (code, ==, INVALID);
  }

  /* step 2: decoding with both options, configured hash before site */
  assert_verify (artifact, HASH_A, "s", MISMATCH, MSG_CONFIGURED);
  assert_verify (artifact, HASH_A, "other", MISMATCH, MSG_CONFIGURED);
  assert_verify (artifact, hash, "other", INVALID, MSG_OTHER_SITE);
  {
    g_autofree char *code = verify_code ("not json", FALSE, hash, "s", "Deterministic payload is not valid JSON.");

    g_assert_cmpstr (code, ==, INVALID);
  }

  /* step 4: content changed while both declared hashes agree */
  tampered = g_strdup (artifact);
  g_assert_nonnull (strstr (tampered, "Quickstart"));
  strstr (tampered, "Quickstart")[0] = 'q';
  assert_verify (tampered, hash, "s", MISMATCH, MSG_CONTENT_HASH);

  /* a cosmetic change (white space, order, additive members) still verifies */
  {
    g_autofree char *spread = spread_out (artifact);
    g_autofree char *extra = g_strconcat ("{\"future\":{\"field\":[true]},", artifact + 1, NULL);

    assert_verify (spread, hash, "s", OK, NULL);
    assert_verify (extra, hash, "s", OK, NULL);
  }

  /* an artifact of exactly the byte limit verifies: re-hashing it (step 3)
   * measures the same bytes */
  {
    g_autofree char *exact = artifact_of_size (AKC_KNOWLEDGE_ARTIFACT_MAX_BYTES);
    g_autoptr(AkcJsonValue) value = akc_test_parse_json (exact);
    g_autofree char *exact_hash = hash_of (value);
    g_autoptr(GString) s = g_string_new (exact);

    g_assert_nonnull (exact_hash);
    g_assert_cmpuint (g_string_replace (s, ZERO_HASH, exact_hash, 1), ==, 1);
    g_assert_cmpuint (s->len, ==, AKC_KNOWLEDGE_ARTIFACT_MAX_BYTES);
    assert_verify (s->str, exact_hash, "site-1", OK, NULL);
  }
}

static void
test_decode_options (void)
{
  g_autofree char *hash = NULL;
  g_autofree char *artifact = hashed_small_artifact (&hash);
  g_autoptr(AkcDiagnostic) diagnostic = NULL;
  g_autoptr(AkcJsonValue) v = NULL;

  /* the options compare strings; they are not anchors and need not be
   * well formed */
  v = akc_knowledge_artifact_decode (artifact, -1, hash, "s", &diagnostic);
  g_assert_nonnull (v);
  g_clear_pointer (&v, akc_json_value_unref);

  v = akc_knowledge_artifact_decode (artifact, -1, "anything", NULL, &diagnostic);
  g_assert_null (v);
  g_assert_cmpstr (akc_diagnostic_get_message (diagnostic), ==, MSG_CONFIGURED);
  g_clear_pointer (&diagnostic, akc_diagnostic_unref);

  v = akc_knowledge_artifact_decode (artifact, -1, NULL, "S", &diagnostic);
  g_assert_null (v);
  g_assert_cmpstr (akc_diagnostic_get_message (diagnostic), ==, MSG_OTHER_SITE);
  g_clear_pointer (&diagnostic, akc_diagnostic_unref);

  /* options apply only after a successful decode */
  v = akc_knowledge_artifact_decode ("{}", -1, "anything", "S", &diagnostic);
  g_assert_null (v);
  g_assert_cmpstr (akc_diagnostic_get_message (diagnostic), ==, MSG_INVALID);
  g_clear_pointer (&diagnostic, akc_diagnostic_unref);

  /* decoding does not recompute the hash */
  v = akc_knowledge_artifact_decode (SMALL_ARTIFACT, -1, NULL, NULL, &diagnostic);
  g_assert_null (v);   /* no contentHash member */
  g_clear_pointer (&diagnostic, akc_diagnostic_unref);
  {
    g_autofree char *wrong = g_strconcat ("{\"contentHash\":\"" HASH_A "\",", SMALL_ARTIFACT + 1, NULL);

    v = akc_knowledge_artifact_decode (wrong, -1, HASH_A, "s", &diagnostic);
    g_assert_nonnull (v);
  }
}

/* ------------------------------------------------------------------ */
/* Answer envelope (§8.4)                                              */
/* ------------------------------------------------------------------ */

#define ANSWER_HEAD "\"protocol\":\"agentskit.chat.answer\",\"version\":1,"
#define CONF(level, basis) "\"confidence\":{\"level\":\"" level "\",\"basis\":\"" basis "\"}"
#define LOCAL(ids) "\"provenance\":{\"source\":\"local\",\"artifactId\":\"a\",\"contentHash\":\"" HASH_A "\",\"entryIds\":" ids "}"
#define ESCALATION(query, nq, reason, rest) \
  "{" ANSWER_HEAD "\"outcome\":\"escalation\",\"query\":\"" query "\",\"normalizedQuery\":\"" nq "\"," \
  "\"message\":\"Needs the backend.\",\"reason\":\"" reason "\"" rest "}"
#define LOCAL_ANSWER(markdown, citations, ids, conf) \
  "{" ANSWER_HEAD "\"outcome\":\"answer\",\"query\":\"Q\",\"normalizedQuery\":\"q\"," \
  "\"answer\":{\"markdown\":\"" markdown "\",\"citations\":" citations "}," LOCAL (ids) "," conf "}"
#define BACKEND_ANSWER(provenance, conf) \
  "{" ANSWER_HEAD "\"outcome\":\"answer\",\"query\":\"Q\",\"normalizedQuery\":\"q\"," \
  "\"answer\":{\"markdown\":\"M\",\"citations\":[]},\"provenance\":" provenance "," conf "}"
#define CHOICES(suggestions, ids, conf) \
  "{" ANSWER_HEAD "\"outcome\":\"choices\",\"query\":\"Q\",\"normalizedQuery\":\"q\"," \
  "\"message\":\"Choose one.\",\"suggestions\":" suggestions "," LOCAL (ids) "," conf "}"
#define SUGGESTION(id) "{\"id\":\"" id "\",\"label\":\"Label " id "\",\"value\":\"value " id "\"}"

static char *
id_list (guint n,
         const char *(*item) (guint, char *))
{
  GString *s = g_string_new ("[");
  char buf[128];

  for (guint i = 0; i < n; i++)
    g_string_append_printf (s, "%s%s", i ? "," : "", item (i, buf));
  g_string_append (s, "]");
  return g_string_free (s, FALSE);
}

static const char *
id_item (guint i,
         char *buf)
{
  g_snprintf (buf, 128, "\"e%u\"", i);
  return buf;
}

static const char *
suggestion_item (guint i,
                 char *buf)
{
  g_snprintf (buf, 128, "{\"id\":\"e%u\",\"label\":\"L%u\",\"value\":\"v%u\"}", i, i, i);
  return buf;
}

static const char *
citation_item (guint i,
               char *buf)
{
  g_snprintf (buf, 128, "{\"id\":\"c%u\",\"title\":\"T%u\",\"href\":\"/c/%u\"}", i, i, i);
  return buf;
}

static void
test_answer_variants (void)
{
  g_autoptr(AkcJsonValue) out = NULL;
  g_autofree char *code = NULL;

  assert_both (KIND_ANSWER, ESCALATION ("Why?", "why?", "miss", "," CONF ("low", "miss")), OK);
  assert_both (KIND_ANSWER, ESCALATION ("Why?", "why?", "offline", "," CONF ("low", "offline")), OK);
  assert_both (KIND_ANSWER, ESCALATION ("Why?", "why?", "miss", "," CONF ("low", "stale")), INVALID);
  assert_both (KIND_ANSWER, ESCALATION ("Why?", "why?", "miss", "," CONF ("medium", "miss")), INVALID);
  assert_both (KIND_ANSWER, ESCALATION ("Why?", "why?", "backend", "," CONF ("low", "backend")), INVALID);
  assert_both (KIND_ANSWER, ESCALATION ("Why?", "why?", "ambiguous", "," CONF ("low", "ambiguous")), INVALID);
  assert_both (KIND_ANSWER, ESCALATION ("Why?", "why?", "miss", ""), INVALID);

  assert_both (KIND_ANSWER, LOCAL_ANSWER ("M", "[]", "[\"e1\"]", CONF ("high", "exact")), OK);
  assert_both (KIND_ANSWER, LOCAL_ANSWER ("M", "[]", "[\"e1\"]", CONF ("high", "backend")), INVALID);
  assert_both (KIND_ANSWER, LOCAL_ANSWER ("M", "[]", "[\"e1\"]", CONF ("medium", "exact")), INVALID);
  assert_both (KIND_ANSWER, LOCAL_ANSWER ("M", "[]", "[]", CONF ("high", "exact")), INVALID);
  assert_both (KIND_ANSWER, BACKEND_ANSWER ("{\"source\":\"backend\"}", CONF ("high", "backend")), OK);
  assert_both (KIND_ANSWER, BACKEND_ANSWER ("{\"source\":\"backend\",\"model\":\"m\"}", CONF ("high", "backend")), OK);
  assert_both (KIND_ANSWER, BACKEND_ANSWER ("{\"source\":\"backend\",\"model\":\" \"}", CONF ("high", "backend")), INVALID);
  assert_both (KIND_ANSWER, BACKEND_ANSWER ("{\"source\":\"backend\"}", CONF ("low", "backend")), INVALID);
  assert_both (KIND_ANSWER, BACKEND_ANSWER ("{\"source\":\"cache\"}", CONF ("high", "backend")), INVALID);
  assert_both (KIND_ANSWER, BACKEND_ANSWER ("{\"model\":\"m\"}", CONF ("high", "backend")), INVALID);

  assert_both (KIND_ANSWER, CHOICES ("[" SUGGESTION ("a") "," SUGGESTION ("b") "]", "[\"a\",\"b\"]", CONF ("medium", "ambiguous")), OK);
  assert_both (KIND_ANSWER, CHOICES ("[" SUGGESTION ("a") "," SUGGESTION ("b") "]", "[\"a\",\"b\"]", CONF ("high", "exact")), INVALID);
  assert_both (KIND_ANSWER, CHOICES ("[" SUGGESTION ("a") "," SUGGESTION ("b") "]", "[\"a\",\"b\",\"c\"]", CONF ("medium", "ambiguous")), INVALID);
  assert_both (KIND_ANSWER, CHOICES ("[" SUGGESTION ("a") "," SUGGESTION ("b") "]", "[\"a\"]", CONF ("medium", "ambiguous")), INVALID);
  assert_both (KIND_ANSWER, CHOICES ("[" SUGGESTION ("a") "," SUGGESTION ("b") "]", "[\"a\",\"B\"]", CONF ("medium", "ambiguous")), INVALID);
  /* duplicate suggestions are not forbidden as long as they match */
  assert_both (KIND_ANSWER, CHOICES ("[" SUGGESTION ("a") "," SUGGESTION ("a") "]", "[\"a\",\"a\"]", CONF ("medium", "ambiguous")), OK);
  /* choices take local provenance only */
  assert_both (KIND_ANSWER, "{" ANSWER_HEAD "\"outcome\":\"choices\",\"query\":\"Q\",\"normalizedQuery\":\"q\","
                       "\"message\":\"Choose.\",\"suggestions\":[" SUGGESTION ("a") "," SUGGESTION ("b") "],"
                       "\"provenance\":{\"source\":\"backend\"}," CONF ("medium", "ambiguous") "}", INVALID);

  /* outcome is the discriminant */
  assert_both (KIND_ANSWER, "{" ANSWER_HEAD "\"outcome\":\"other\"}", INVALID);
  assert_both (KIND_ANSWER, "{" ANSWER_HEAD "\"query\":\"\",\"normalizedQuery\":\"\"}", INVALID);
  assert_both (KIND_ANSWER, "{\"protocol\":\"agentskit.chat.answer\",\"version\":2,\"outcome\":\"other\"}", UNSUPPORTED);

  /* normalisation: open objects, nothing trimmed but provenance labels,
   * suggestion labels and values, citation titles */
  code = code_value (KIND_ANSWER,
                     "{\"x\":1,\"confidence\":{\"basis\":\"ambiguous\",\"level\":\"medium\",\"y\":2},"
                     "\"provenance\":{\"entryIds\":[\"a\",\"b\"],\"contentHash\":\"" HASH_A "\",\"artifactId\":\"art\",\"source\":\"local\"},"
                     "\"suggestions\":[{\"value\":\" va \",\"label\":\" La \",\"id\":\"a\",\"z\":3},{\"id\":\"b\",\"label\":\"Lb\",\"value\":\"vb\"}],"
                     "\"message\":\" Choose one. \",\"normalizedQuery\":\"docs\",\"query\":\" Docs \",\"outcome\":\"choices\","
                     "\"version\":1,\"protocol\":\"agentskit.chat.answer\"}", &out);
  g_assert_cmpstr (code, ==, OK);
  akc_assert_canonical (out, "{" ANSWER_HEAD "\"outcome\":\"choices\",\"query\":\" Docs \",\"normalizedQuery\":\"docs\","
                             "\"message\":\" Choose one. \",\"suggestions\":[{\"id\":\"a\",\"label\":\"La\",\"value\":\"va\"},"
                             "{\"id\":\"b\",\"label\":\"Lb\",\"value\":\"vb\"}],"
                             "\"provenance\":{\"source\":\"local\",\"artifactId\":\"art\",\"contentHash\":\"" HASH_A "\",\"entryIds\":[\"a\",\"b\"]},"
                             "\"confidence\":{\"level\":\"medium\",\"basis\":\"ambiguous\"}}");
  g_clear_pointer (&out, akc_json_value_unref);
  g_clear_pointer (&code, g_free);

  /* markdown is not trimmed and may hold U+0000 */
  code = code_value (KIND_ANSWER, LOCAL_ANSWER (" a\\u0000b\\n ", "[]", "[\"e1\"]", CONF ("high", "exact")), &out);
  g_assert_cmpstr (code, ==, OK);
  {
    AkcJsonValue *markdown = akc_json_value_get_member (akc_json_value_get_member (out, "answer"), "markdown");
    gsize len;
    const char *s = akc_json_value_get_string (markdown, &len);

    g_assert_cmpmem (s, len, " a\0b\n ", 6);
  }
  assert_both (KIND_ANSWER, LOCAL_ANSWER (" ", "[]", "[\"e1\"]", CONF ("high", "exact")), OK);
  assert_both (KIND_ANSWER, LOCAL_ANSWER ("", "[]", "[\"e1\"]", CONF ("high", "exact")), INVALID);
}

static void
test_answer_bounds (void)
{
  g_autofree char *text = NULL;
  g_autofree char *list = NULL;

  /* citations 0..8 */
#define WITH_CITATIONS(c) \
  (g_free (text), text = g_strdup_printf ("{" ANSWER_HEAD "\"outcome\":\"answer\",\"query\":\"Q\",\"normalizedQuery\":\"q\"," \
                                          "\"answer\":{\"markdown\":\"M\",\"citations\":%s}," LOCAL ("[\"e\"]") "," \
                                          CONF ("high", "exact") "}", (c)))
  list = id_list (8, citation_item);
  assert_both (KIND_ANSWER, WITH_CITATIONS (list), OK);
  g_free (list);
  list = id_list (9, citation_item);
  assert_both (KIND_ANSWER, WITH_CITATIONS (list), INVALID);
#undef WITH_CITATIONS

  /* suggestions 2..8, matched by entryIds 1..8 */
#define WITH_CHOICES(n) \
  G_STMT_START { \
    g_autofree char *s_ = id_list ((n), suggestion_item); \
    g_autofree char *i_ = id_list ((n), id_item); \
    g_free (text); \
    text = g_strdup_printf ("{" ANSWER_HEAD "\"outcome\":\"choices\",\"query\":\"Q\",\"normalizedQuery\":\"q\"," \
                            "\"message\":\"Choose.\",\"suggestions\":%s,\"provenance\":{\"source\":\"local\"," \
                            "\"artifactId\":\"a\",\"contentHash\":\"" HASH_A "\",\"entryIds\":%s}," \
                            CONF ("medium", "ambiguous") "}", s_, i_); \
  } G_STMT_END
  WITH_CHOICES (8);
  assert_both (KIND_ANSWER, text, OK);
  WITH_CHOICES (9);
  assert_both (KIND_ANSWER, text, INVALID);
  WITH_CHOICES (2);
  assert_both (KIND_ANSWER, text, OK);
  WITH_CHOICES (1);
  assert_both (KIND_ANSWER, text, INVALID);
#undef WITH_CHOICES

  /* candidateEntryIds 0..8 */
  g_free (list);
  list = id_list (8, id_item);
  g_free (text);
  text = g_strdup_printf (ESCALATION ("Why?", "why?", "miss", ",\"candidateEntryIds\":%s," CONF ("low", "miss")), list);
  assert_both (KIND_ANSWER, text, OK);
  g_free (list);
  list = id_list (9, id_item);
  g_free (text);
  text = g_strdup_printf (ESCALATION ("Why?", "why?", "miss", ",\"candidateEntryIds\":%s," CONF ("low", "miss")), list);
  assert_both (KIND_ANSWER, text, INVALID);
  assert_both (KIND_ANSWER, ESCALATION ("Why?", "why?", "miss", ",\"candidateEntryIds\":[]," CONF ("low", "miss")), OK);
  assert_both (KIND_ANSWER, ESCALATION ("Why?", "why?", "miss", ",\"candidateEntryIds\":[\"-x\"]," CONF ("low", "miss")), INVALID);
  assert_both (KIND_ANSWER, ESCALATION ("Why?", "why?", "miss", ",\"candidateEntryIds\":null," CONF ("low", "miss")), INVALID);

  /* entryIds 1..8 for a local answer: only exactly one is consistent */
  g_free (list);
  list = id_list (2, id_item);
  g_free (text);
  text = g_strdup_printf ("{" ANSWER_HEAD "\"outcome\":\"answer\",\"query\":\"Q\",\"normalizedQuery\":\"q\","
                          "\"answer\":{\"markdown\":\"M\",\"citations\":[]},\"provenance\":{\"source\":\"local\","
                          "\"artifactId\":\"a\",\"contentHash\":\"" HASH_A "\",\"entryIds\":%s}," CONF ("high", "exact") "}", list);
  assert_both (KIND_ANSWER, text, INVALID);

  /* message 1..4096 */
  {
    g_autofree char *m4096 = repeat ("m", 4096);
    g_autofree char *m4097 = repeat ("m", 4097);
    g_autofree char *markdown = repeat ("\xE2\x82\xAC", 16384);   /* € is one unit */

    g_free (text);
    text = g_strdup_printf ("{" ANSWER_HEAD "\"outcome\":\"escalation\",\"query\":\"\",\"normalizedQuery\":\"\","
                            "\"message\":\"%s\",\"reason\":\"miss\"," CONF ("low", "miss") "}", m4096);
    assert_both (KIND_ANSWER, text, OK);
    g_free (text);
    text = g_strdup_printf ("{" ANSWER_HEAD "\"outcome\":\"escalation\",\"query\":\"\",\"normalizedQuery\":\"\","
                            "\"message\":\"%s\",\"reason\":\"miss\"," CONF ("low", "miss") "}", m4097);
    assert_both (KIND_ANSWER, text, INVALID);
    g_free (text);
    text = g_strdup_printf (LOCAL_ANSWER ("%s", "[]", "[\"e1\"]", CONF ("high", "exact")), markdown);
    assert_both (KIND_ANSWER, text, OK);
    g_free (text);
    text = g_strdup_printf (LOCAL_ANSWER ("%s!", "[]", "[\"e1\"]", CONF ("high", "exact")), markdown);
    assert_both (KIND_ANSWER, text, INVALID);
  }
}

/* The query/normalizedQuery rule (§8.4 rule 1) and the 512-unit bounds. */
static void
test_answer_query (void)
{
  g_autofree char *a512 = repeat ("A", 512);
  g_autofree char *l512 = repeat ("a", 512);
  g_autofree char *a513 = repeat ("A", 513);
  g_autofree char *l513 = repeat ("a", 513);
  g_autofree char *fi = repeat ("\xEF\xAC\x81", 257);          /* 257 "ﬁ", normalised 514 units */
  g_autofree char *fi_norm = repeat ("fi", 256);
  g_autofree char *fi255 = repeat ("\xEF\xAC\x81", 255);
  g_autofree char *fi255_norm = repeat ("fi", 255);
  g_autofree char *text = NULL;

#define QUERY(q, nq) \
  (g_free (text), text = g_strdup_printf (ESCALATION ("%s", "%s", "miss", "," CONF ("low", "miss")), (q), (nq)))
  assert_both (KIND_ANSWER, QUERY ("", ""), OK);
  assert_both (KIND_ANSWER, QUERY (" \\t ", ""), OK);
  assert_both (KIND_ANSWER, QUERY (" \\t ", " "), INVALID);
  assert_both (KIND_ANSWER, QUERY ("Why?", "Why?"), INVALID);
  assert_both (KIND_ANSWER, QUERY ("  Install\\u3000 CLI ", "install cli"), OK);
  assert_both (KIND_ANSWER, QUERY ("\\u0130", "i\\u0307"), OK);
  assert_both (KIND_ANSWER, QUERY ("\\u03a3", "\\u03c3"), OK);
  assert_both (KIND_ANSWER, QUERY ("A\\u03a3", "a\\u03c2"), OK);
  assert_both (KIND_ANSWER, QUERY ("a\\u0000", "a\\u0000"), OK);
  assert_both (KIND_ANSWER, QUERY ("a\\u0000", "a"), INVALID);
  assert_both (KIND_ANSWER, QUERY (a512, l512), OK);
  assert_both (KIND_ANSWER, QUERY (a513, l512), INVALID);      /* query over 512 */
  assert_both (KIND_ANSWER, QUERY (a512, l513), INVALID);
  /* NFKC expands past 512: the normalised query is cut to 512 units */
  assert_both (KIND_ANSWER, QUERY (fi, fi_norm), OK);
  {
    g_autofree char *short_norm = g_strndup (fi_norm, 511);

    assert_both (KIND_ANSWER, QUERY (fi, short_norm), INVALID);
  }
  /* a cut between two astral characters is clean */
  {
    g_autofree char *q = g_strconcat (fi255, "\xF0\x9F\x98\x80\xF0\x9F\x98\x80", NULL);
    g_autofree char *nq = g_strconcat (fi255_norm, "\xF0\x9F\x98\x80", NULL);

    assert_both (KIND_ANSWER, QUERY (q, nq), OK);
  }
  /* a cut inside a surrogate pair leaves a lone surrogate in the
   * reference, which the port cannot hold (§10 item 1): rejected */
  {
    g_autofree char *q = g_strconcat (fi255, "a\xF0\x9F\x98\x80", NULL);
    g_autofree char *nq = g_strconcat (fi255_norm, "a", NULL);
    g_autofree char *nq2 = g_strconcat (fi255_norm, "a\xF0\x9F\x98\x80", NULL);

    assert_both (KIND_ANSWER, QUERY (q, nq), INVALID);
    assert_both (KIND_ANSWER, QUERY (q, nq2), INVALID);
  }
#undef QUERY
}

static void
test_answer_limits (void)
{
  const char *base = ESCALATION ("Why?", "why?", "miss", "," CONF ("low", "miss"));
  gsize base_len = strlen (base);
  g_autofree char *spaces = repeat (" ", AKC_ANSWER_MAX_BYTES - base_len);
  g_autofree char *at = g_strconcat (base, spaces, NULL);
  g_autofree char *over = g_strconcat (base, spaces, " ", NULL);
  g_autofree char *pad = repeat ("p", AKC_ANSWER_MAX_BYTES);
  g_autofree char *padded = g_strdup_printf ("{\"pad\":\"%s\",%s", pad, base + 1);

  g_assert_cmpuint (strlen (at), ==, AKC_ANSWER_MAX_BYTES);
  assert_text (KIND_ANSWER, at, -1, OK);
  assert_text (KIND_ANSWER, over, -1, LIMIT);
  assert_value (KIND_ANSWER, over, OK);
  /* size only from unknown members: a value passes, a text does not */
  assert_text (KIND_ANSWER, padded, -1, LIMIT);
  assert_value (KIND_ANSWER, padded, OK);
}

/* normalizeKnowledgeKey is NFKC, then trimming and lower-casing, with no
 * further normalisation (§8.1): lower-casing can leave text that NFKC
 * would still compose, so applying it twice is not always a no-op. The
 * reference (ECMAScript String.prototype.normalize and toLocaleLowerCase)
 * gives the same results; the aliases of an artifact and the
 * normalizedQuery of an answer depend on them. */
static void
test_normalization_not_idempotent (void)
{
  g_autofree char *once = akc_normalize_knowledge_key ("H\xCC\xB1");      /* H + U+0331 */
  g_autofree char *twice = akc_normalize_knowledge_key (once);
  g_autofree char *thrice = akc_normalize_knowledge_key (twice);

  g_assert_cmpstr (once, ==, "h\xCC\xB1");                 /* h + U+0331 */
  g_assert_cmpstr (twice, ==, "\xE1\xBA\x96");             /* U+1E96 */
  g_assert_cmpstr (thrice, ==, twice);

  /* consequently "H̱" and "ẖ" are different aliases, and the normalised
   * query of "H̱" is the decomposed form */
  assert_both (KIND_ARTIFACT, HEAD ENTRY ("e1", "[\"H\\u0331\"]") "," ENTRY ("e2", "[\"\\u1e96\"]") TAIL, OK);
  assert_both (KIND_ANSWER, ESCALATION ("H\\u0331", "h\\u0331", "miss", "," CONF ("low", "miss")), OK);
  assert_both (KIND_ANSWER, ESCALATION ("H\\u0331", "\\u1e96", "miss", "," CONF ("low", "miss")), INVALID);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  akc_fixture_add_tests ("protocol/deterministic.json", "/deterministic/fixtures/site",
                         "decodeDeterministicSiteConfig", run_decode_case, &site_runner);
  akc_fixture_add_tests ("protocol/deterministic.json", "/deterministic/fixtures/artifact",
                         "decodeLocalKnowledgeArtifact", run_decode_case, &artifact_runner);
  akc_fixture_add_tests ("protocol/deterministic.json", "/deterministic/fixtures/verify",
                         "verifyLocalKnowledgeArtifact", run_decode_case, &verify_runner);
  akc_fixture_add_tests ("protocol/deterministic.json", "/deterministic/fixtures/hash",
                         "computeContentHash", run_hash_case, NULL);
  akc_fixture_add_tests ("protocol/deterministic.json", "/deterministic/fixtures/answer",
                         "decodeAnswerResponse", run_decode_case, &answer_runner);

  g_test_add_func ("/deterministic/site/decode", test_site_config);
  g_test_add_func ("/deterministic/site/version", test_site_version);
  g_test_add_func ("/deterministic/site/limits", test_site_limits);
  g_test_add_func ("/deterministic/artifact/entries-bound", test_artifact_entries_bound);
  g_test_add_func ("/deterministic/artifact/string-bounds", test_artifact_string_bounds);
  g_test_add_func ("/deterministic/artifact/citations", test_artifact_citations);
  g_test_add_func ("/deterministic/artifact/aliases", test_artifact_aliases);
  g_test_add_func ("/deterministic/artifact/dates", test_artifact_dates);
  g_test_add_func ("/deterministic/artifact/misc", test_artifact_misc);
  g_test_add_func ("/deterministic/artifact/limits", test_artifact_limits);
  g_test_add_func ("/deterministic/artifact/options", test_decode_options);
  g_test_add_func ("/deterministic/hash/text", test_hash_text);
  g_test_add_func ("/deterministic/hash/stability", test_hash_stability);
  g_test_add_func ("/deterministic/hash/invalid", test_hash_invalid);
  g_test_add_func ("/deterministic/verify", test_verify);
  g_test_add_func ("/deterministic/answer/variants", test_answer_variants);
  g_test_add_func ("/deterministic/answer/bounds", test_answer_bounds);
  g_test_add_func ("/deterministic/answer/query", test_answer_query);
  g_test_add_func ("/deterministic/answer/limits", test_answer_limits);
  g_test_add_func ("/deterministic/normalization-not-idempotent", test_normalization_not_idempotent);

  return g_test_run ();
}
