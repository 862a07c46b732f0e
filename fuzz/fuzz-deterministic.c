/* fuzz-deterministic.c: libFuzzer target for the deterministic answer plane:
 * the site configuration, knowledge artifact and answer decoders (text and
 * value forms), the content hash and verification
 *
 * SPDX-License-Identifier: MIT
 */

#include <stdint.h>
#include <string.h>

#include "akc.h"
#include "akc-json-private.h"
#include "akc-knowledge-artifact-private.h"

int LLVMFuzzerTestOneInput (const uint8_t *data, size_t size);

typedef AkcJsonValue *(*TextDecoder)  (const char *, gssize, AkcDiagnostic **);
typedef AkcJsonValue *(*ValueDecoder) (AkcJsonValue *, AkcDiagnostic **);

static AkcJsonValue *
artifact_text (const char     *text,
               gssize          length,
               AkcDiagnostic **diagnostic)
{
  return akc_knowledge_artifact_decode (text, length, NULL, NULL, diagnostic);
}

static AkcJsonValue *
artifact_value (AkcJsonValue   *value,
                AkcDiagnostic **diagnostic)
{
  return akc_knowledge_artifact_decode_value (value, NULL, NULL, diagnostic);
}

static const struct {
  TextDecoder  text;
  ValueDecoder value;
  gsize        limit;
} decoders[] = {
  { akc_site_config_decode, akc_site_config_decode_value, AKC_SITE_CONFIG_MAX_BYTES },
  { artifact_text, artifact_value, AKC_KNOWLEDGE_ARTIFACT_MAX_BYTES },
  { akc_answer_decode, akc_answer_decode_value, AKC_ANSWER_MAX_BYTES },
};

/* A decoded value is a fixed point: its canonical text, within the limit,
 * decodes to an equal value in both forms. */
static void
check_fixed_point (guint         i,
                   AkcJsonValue *decoded)
{
  g_autoptr(AkcJsonValue) again = NULL;
  g_autoptr(AkcJsonValue) again_value = NULL;
  g_autofree char *canonical = NULL;
  gsize len;

  canonical = akc_json_value_to_canonical (decoded, &len);
  g_assert (len <= decoders[i].limit);
  again = decoders[i].text (canonical, len, NULL);
  g_assert (again != NULL && akc_json_value_equal (again, decoded));
  again_value = decoders[i].value (decoded, NULL);
  g_assert (again_value != NULL && akc_json_value_equal (again_value, decoded));
}

/* Every decoded artifact has a hash, and verifies once it carries it. */
static void
check_hash (AkcJsonValue *artifact)
{
  g_autoptr(AkcDiagnostic) diagnostic = NULL;
  g_autofree char *hash = akc_knowledge_artifact_compute_content_hash (artifact, &diagnostic);
  g_autofree char *hash_text = NULL;
  g_autofree char *digest = NULL;
  g_autofree char *canonical = NULL;
  g_autoptr(GString) hashed = NULL;
  g_autoptr(AkcJsonValue) verified = NULL;
  AkcJsonValue *declared;
  AkcJsonValue *site;
  gsize len;

  g_assert (hash != NULL && diagnostic == NULL);
  hash_text = akc_knowledge_artifact_hash_text (artifact, &len, NULL);
  g_assert (hash_text != NULL);
  digest = g_compute_checksum_for_data (G_CHECKSUM_SHA256, (const guchar *) hash_text, len);
  g_assert (strcmp (hash + 7, digest) == 0);

  declared = akc_json_value_get_member (artifact, "contentHash");
  site = akc_json_value_get_member (artifact, "siteId");
  canonical = akc_json_value_to_canonical (artifact, NULL);
  hashed = g_string_new (canonical);
  g_string_replace (hashed, akc_json_value_get_string (declared, NULL), hash, 1);
  verified = akc_knowledge_artifact_verify (hashed->str, hashed->len, hash,
                                            akc_json_value_get_string (site, NULL), NULL);
  g_assert (verified != NULL);
}

int
LLVMFuzzerTestOneInput (const uint8_t *data,
                        size_t         size)
{
  g_autoptr(AkcJsonValue) parsed = NULL;
  g_autofree char *sanitized = NULL;
  gsize text_bytes = 0;
  const char *text = (const char *) data;

  if (size == 0)
    text = "";

  parsed = akc_json_parse (text, size, NULL, NULL, NULL);

  /* The text limit (§8.5 step 1) measures the text after invalid UTF-8 is
   * replaced by U+FFFD (§1.2), which can be longer than the raw bytes. */
  sanitized = akc_utf8_sanitize (text, size, &text_bytes);
  if (sanitized == NULL)
    text_bytes = size;

  for (guint i = 0; i < G_N_ELEMENTS (decoders); i++)
    {
      g_autoptr(AkcDiagnostic) diagnostic = NULL;
      g_autoptr(AkcDiagnostic) value_diagnostic = NULL;
      g_autoptr(AkcJsonValue) decoded = decoders[i].text (text, size, &diagnostic);
      g_autoptr(AkcJsonValue) decoded_value = NULL;

      g_assert ((decoded == NULL) != (diagnostic == NULL));
      if (decoded != NULL)
        {
          check_fixed_point (i, decoded);
          if (i == 1)
            check_hash (decoded);
        }

      if (parsed == NULL)
        continue;

      /* The value form agrees with the text form within the limit (§8.6). */
      decoded_value = decoders[i].value (parsed, &value_diagnostic);
      g_assert ((decoded_value == NULL) != (value_diagnostic == NULL));
      if (decoded != NULL)
        g_assert (decoded_value != NULL && akc_json_value_equal (decoded, decoded_value));
      else if (text_bytes <= decoders[i].limit)
        g_assert (akc_diagnostic_equal (diagnostic, value_diagnostic));
      if (decoded_value != NULL && i == 1)
        check_hash (decoded_value);
    }

  /* Hashing whatever parses never fails without a diagnostic. */
  if (parsed != NULL)
    {
      g_autoptr(AkcDiagnostic) diagnostic = NULL;
      g_autofree char *hash = akc_knowledge_artifact_compute_content_hash (parsed, &diagnostic);

      g_assert ((hash == NULL) != (diagnostic == NULL));
    }

  return 0;
}
