/* akc-site-config.c: deterministic site configuration (protocol §8.2)
 *
 * SPDX-License-Identifier: MIT
 */

#include "config.h"

#include <string.h>

#include "akc-site-config.h"
#include "akc-deterministic-private.h"
#include "akc-text-private.h"

static const AkcSchemaField artifact_fields[] = {
  { "href",        AKC_SCHEMA_PATTERN (akc_text_is_safe_href) },
  { "contentHash", AKC_SCHEMA_PATTERN (akc_text_is_content_hash) },
};
static const AkcSchemaTable artifact_table = AKC_SCHEMA_TABLE (artifact_fields, AKC_SCHEMA_OPEN);

static const char * const fallback_modes[] = { "backend", "disabled", NULL };
static const AkcSchemaField fallback_fields[] = {
  { "mode", AKC_SCHEMA_ENUM (fallback_modes) },
};
static const AkcSchemaTable fallback_table = AKC_SCHEMA_TABLE (fallback_fields, AKC_SCHEMA_OPEN);

static const AkcSchemaField site_fields[] = {
  { "protocol", AKC_SCHEMA_LITERAL (AKC_SITE_CONFIG_PROTOCOL) },
  { "version",  AKC_SCHEMA_NUMERIC_LITERAL (1) },
  { "siteId",   AKC_SCHEMA_PATTERN (akc_text_is_safe_id) },
  { "artifact", AKC_SCHEMA_OBJECT (&artifact_table) },
  { "fallback", AKC_SCHEMA_OBJECT (&fallback_table) },
};
static const AkcSchemaTable site_table = AKC_SCHEMA_TABLE (site_fields, AKC_SCHEMA_OPEN);

static const AkcSchemaType site_type = AKC_SCHEMA_OBJECT (&site_table);

static const AkcDeterministicEnvelope site_envelope = {
  AKC_SITE_CONFIG_PROTOCOL, AKC_SITE_CONFIG_MAX_BYTES, &site_type,
};

/**
 * akc_site_config_decode:
 * @text: the configuration as
 *   JSON text, for example the bytes of a downloaded file
 * @length: length of @text in bytes, or -1 if it is NUL-terminated
 * @diagnostic: (out) (optional) (nullable) (transfer full): return location
 *   for the diagnostic when the text is rejected
 *
 * Decodes a deterministic site configuration, `agentskit.chat.site`
 * version 1 ([protocol §8.2](wire-formats.html#protocol-8)), from text: the site's id, the link to its
 * local knowledge artifact with the artifact's pinned content hash, and the
 * fallback mode (`backend` or `disabled`).
 *
 * Texts longer than %AKC_SITE_CONFIG_MAX_BYTES bytes are rejected before
 * they are parsed with `DETERMINISTIC_LIMIT_EXCEEDED`; text that is not JSON,
 * or does not satisfy the schema, with `DETERMINISTIC_INVALID_PAYLOAD`; a
 * configuration of another version with `DETERMINISTIC_UNSUPPORTED_VERSION`
 * ([protocol §8.5](wire-formats.html#protocol-8)). Bytes received from the network must be decoded with
 * this function rather than [func@site_config_decode_value].
 *
 * Returns: (transfer full) (nullable): the normalised configuration
 *   (unknown members dropped, members in canonical order), or %NULL
 *
 * Since: 0.1
 */
AkcJsonValue *
akc_site_config_decode (const char     *text,
                        gssize          length,
                        AkcDiagnostic **diagnostic)
{
  g_return_val_if_fail (text != NULL || length == 0, NULL);
  g_return_val_if_fail (diagnostic == NULL || *diagnostic == NULL, NULL);

  if (text == NULL)
    text = "";

  return akc_deterministic_decode_text (&site_envelope, text,
                                        length < 0 ? strlen (text) : (gsize) length,
                                        diagnostic);
}

/**
 * akc_site_config_decode_utf8: (rename-to akc_site_config_decode)
 * @text: the configuration as
 *   JSON text, for example the bytes of a downloaded file
 * @diagnostic: (out) (optional) (nullable) (transfer full): return location
 *   for the diagnostic when the text is rejected
 *
 * Does what akc_site_config_decode() does, for NUL-terminated @text:
 * the form bindings see.
 *
 * Returns: (transfer full) (nullable): the normalised configuration
 *   (unknown members dropped, members in canonical order), or %NULL
 *
 * Since: 0.1
 */
AkcJsonValue *
akc_site_config_decode_utf8 (const char     *text,
                             AkcDiagnostic **diagnostic)
{
  return akc_site_config_decode (text, -1, diagnostic);
}

/**
 * akc_site_config_decode_value:
 * @value: a parsed JSON value
 * @diagnostic: (out) (optional) (nullable) (transfer full): return location
 *   for the diagnostic when the value is rejected
 *
 * Decodes a deterministic site configuration from an already-parsed value
 * ([protocol §8.2](wire-formats.html#protocol-8), §8.6). The byte limit applies to the normalised
 * configuration, after validation: unknown members do not count.
 *
 * Returns: (transfer full) (nullable): the normalised configuration, or %NULL
 *
 * Since: 0.1
 */
AkcJsonValue *
akc_site_config_decode_value (AkcJsonValue   *value,
                              AkcDiagnostic **diagnostic)
{
  g_return_val_if_fail (value != NULL, NULL);
  g_return_val_if_fail (diagnostic == NULL || *diagnostic == NULL, NULL);

  return akc_deterministic_decode_value (&site_envelope, value, diagnostic);
}
