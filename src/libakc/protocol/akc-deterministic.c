/* akc-deterministic.c: bounded decoding of the deterministic answer plane
 * (protocol §8.5, §8.6)
 *
 * SPDX-License-Identifier: MIT
 */

#include "config.h"

#include <string.h>

#include "akc-deterministic-private.h"
#include "akc-text-private.h"

/* Citation (§8.3, also §8.4): open. */
static const AkcSchemaField citation_fields[] = {
  { "id",    AKC_SCHEMA_PATTERN (akc_text_is_safe_id) },
  { "title", AKC_SCHEMA_LABEL (256) },
  { "href",  AKC_SCHEMA_PATTERN (akc_text_is_safe_href) },
};
static const AkcSchemaTable citation_table = AKC_SCHEMA_TABLE (citation_fields, AKC_SCHEMA_OPEN);

const AkcSchemaType akc_deterministic_citation_type = AKC_SCHEMA_OBJECT (&citation_table);

void
akc_deterministic_set_diagnostic (AkcDiagnostic **diagnostic,
                                  const char     *code,
                                  const char     *message)
{
  if (diagnostic != NULL)
    *diagnostic = akc_diagnostic_new (code, message, FALSE, NULL);
}

static AkcJsonValue *
fail (AkcDiagnostic **diagnostic,
      const char     *code,
      const char     *message)
{
  akc_deterministic_set_diagnostic (diagnostic, code, message);
  return NULL;
}

/* Steps 3 and 4, common to both forms. */
static AkcJsonValue *
validate (const AkcDeterministicEnvelope *envelope,
          AkcJsonValue                   *candidate,
          AkcDiagnostic                 **diagnostic)
{
  AkcJsonValue *normalised = NULL;

  if (AKC_JSON_IS_OBJECT (candidate))
    {
      AkcJsonValue *protocol = akc_json_object_lookup (candidate, "protocol", 8, NULL);
      AkcJsonValue *version = akc_json_object_lookup (candidate, "version", 7, NULL);

      /* A non-finite version (an overflowing literal) is "a number other
       * than 1" as well. */
      if (akc_json_string_equals (protocol, envelope->protocol) &&
          AKC_JSON_IS_NUMBER (version) && AKC_JSON_NUMBER (version) != 1)
        return fail (diagnostic, AKC_DETERMINISTIC_CODE_UNSUPPORTED_VERSION,
                     AKC_DETERMINISTIC_MESSAGE_UNSUPPORTED);
    }

  if (!akc_schema_validate (envelope->type, candidate, NULL, &normalised))
    {
      if (diagnostic != NULL)
        {
          g_autofree char *field_path = akc_schema_explain_field_path (envelope->type, candidate, "(envelope)");

          *diagnostic = akc_diagnostic_new_with_field_path (AKC_DETERMINISTIC_CODE_INVALID_PAYLOAD,
                                                            AKC_DETERMINISTIC_MESSAGE_INVALID,
                                                            FALSE, NULL, field_path);
        }
      return NULL;
    }

  return normalised;
}

AkcJsonValue *
akc_deterministic_decode_text (const AkcDeterministicEnvelope *envelope,
                               const char                     *text,
                               gsize                           len,
                               AkcDiagnostic                 **diagnostic)
{
  g_autoptr(AkcJsonValue) candidate = NULL;
  AkcJsonParseStatus status;
  g_autofree char *sanitised = NULL;
  gsize decoded_len;

  g_assert (envelope != NULL);
  g_assert (text != NULL || len == 0);

  /* Step 1, before parsing. Replacement never shortens the text (every
   * maximal invalid subsequence is 1–3 bytes and becomes 3), so a raw
   * length over the limit is final without decoding. */
  if (len > envelope->max_bytes)
    return fail (diagnostic, AKC_DETERMINISTIC_CODE_LIMIT_EXCEEDED,
                 AKC_DETERMINISTIC_MESSAGE_LIMIT_EXCEEDED);
  sanitised = akc_utf8_sanitize (text, len, &decoded_len);
  if (decoded_len > envelope->max_bytes)
    return fail (diagnostic, AKC_DETERMINISTIC_CODE_LIMIT_EXCEEDED,
                 AKC_DETERMINISTIC_MESSAGE_LIMIT_EXCEEDED);

  /* Step 2. The parser applies the same replacement inside strings. A
   * lone-surrogate escape is invalid JSON here (§10 item 1). */
  candidate = akc_json_parse (text, len, NULL, &status, NULL);
  if (candidate == NULL)
    return fail (diagnostic, AKC_DETERMINISTIC_CODE_INVALID_PAYLOAD,
                 AKC_DETERMINISTIC_MESSAGE_INVALID_JSON);

  return validate (envelope, candidate, diagnostic);
}

AkcJsonValue *
akc_deterministic_decode_value (const AkcDeterministicEnvelope *envelope,
                                AkcJsonValue                   *value,
                                AkcDiagnostic                 **diagnostic)
{
  g_autoptr(AkcJsonValue) normalised = NULL;
  g_autoptr(GString) canonical = NULL;

  g_assert (envelope != NULL);
  g_assert (value != NULL);

  normalised = validate (envelope, value, diagnostic);
  if (normalised == NULL)
    return NULL;

  /* Step 5: the normalised value, measured as it would be sent. */
  canonical = g_string_sized_new (1024);
  akc_json_append_value (canonical, normalised);
  if (canonical->len > envelope->max_bytes)
    return fail (diagnostic, AKC_DETERMINISTIC_CODE_LIMIT_EXCEEDED,
                 AKC_DETERMINISTIC_MESSAGE_LIMIT_EXCEEDED);

  return g_steal_pointer (&normalised);
}
