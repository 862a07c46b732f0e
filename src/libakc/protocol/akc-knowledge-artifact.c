/* akc-knowledge-artifact.c: local knowledge artifact (protocol §8.3,
 * §8.6–§8.8)
 *
 * SPDX-License-Identifier: MIT
 */

#include "config.h"

#include <string.h>

#include "akc-knowledge-artifact.h"
#include "akc-knowledge-artifact-private.h"
#include "akc-answer.h"
#include "akc-deterministic-private.h"
#include "akc-text-private.h"

/* ------------------------------------------------------------------ */
/* Schema (§8.3)                                                       */
/* ------------------------------------------------------------------ */

static const AkcSchemaField match_fields[] = {
  { "type",   AKC_SCHEMA_LITERAL ("exact") },
  { "values", AKC_SCHEMA_ARRAY (&AKC_SCHEMA_TYPE (AKC_SCHEMA_TRIMMED (1, AKC_KNOWLEDGE_QUERY_MAX_CHARS)),
                                1, AKC_KNOWLEDGE_MATCH_MAX_VALUES) },
};
static const AkcSchemaTable match_table = AKC_SCHEMA_TABLE (match_fields, AKC_SCHEMA_OPEN);

static const AkcSchemaField entry_answer_fields[] = {
  { "markdown",  AKC_SCHEMA_TRIMMED (1, AKC_DETERMINISTIC_MARKDOWN_MAX_CHARS) },
  { "citations", AKC_SCHEMA_ARRAY (&akc_deterministic_citation_type, 0, AKC_ANSWER_MAX_CITATIONS) },
};
static const AkcSchemaTable entry_answer_table = AKC_SCHEMA_TABLE (entry_answer_fields, AKC_SCHEMA_OPEN);

static const char * const entry_kinds[] = {
  "command", "package", "navigation", "contribution", "ecosystem", "restricted-faq", "document", NULL,
};

static const AkcSchemaField entry_fields[] = {
  { "id",     AKC_SCHEMA_PATTERN (akc_text_is_safe_id) },
  { "kind",   AKC_SCHEMA_ENUM (entry_kinds) },
  { "label",  AKC_SCHEMA_LABEL (256) },
  { "match",  AKC_SCHEMA_OBJECT (&match_table) },
  { "answer", AKC_SCHEMA_OBJECT (&entry_answer_table) },
};
static const AkcSchemaTable entry_table = AKC_SCHEMA_TABLE (entry_fields, AKC_SCHEMA_OPEN);

/* Cross-field rule 3 (unique entry ids) is the array's uniqueness rule. */
static const char * const entry_unique[] = { "id", NULL };

static gboolean artifact_check (const AkcJsonValue *artifact,
                                gpointer            user_data);

static const AkcSchemaField artifact_fields[] = {
  { "protocol",    AKC_SCHEMA_LITERAL (AKC_KNOWLEDGE_ARTIFACT_PROTOCOL) },
  { "version",     AKC_SCHEMA_NUMERIC_LITERAL (1) },
  { "artifactId",  AKC_SCHEMA_PATTERN (akc_text_is_safe_id) },
  { "siteId",      AKC_SCHEMA_PATTERN (akc_text_is_safe_id) },
  { "contentHash", AKC_SCHEMA_PATTERN (akc_text_is_content_hash) },
  { "generatedAt", AKC_SCHEMA_PATTERN (akc_text_is_date_time) },
  { "expiresAt",   AKC_SCHEMA_PATTERN (akc_text_is_date_time), .optional = TRUE },
  { "entries",     AKC_SCHEMA_ARRAY_UNIQUE (&AKC_SCHEMA_TYPE (AKC_SCHEMA_OBJECT (&entry_table)),
                                            0, AKC_KNOWLEDGE_ARTIFACT_MAX_ENTRIES, entry_unique) },
};
static const AkcSchemaTable artifact_table =
  AKC_SCHEMA_TABLE_CHECKED (artifact_fields, AKC_SCHEMA_OPEN, artifact_check, NULL);

static const AkcSchemaType artifact_type = AKC_SCHEMA_OBJECT (&artifact_table);

static const AkcDeterministicEnvelope artifact_envelope = {
  AKC_KNOWLEDGE_ARTIFACT_PROTOCOL, AKC_KNOWLEDGE_ARTIFACT_MAX_BYTES, &artifact_type,
};

/* The bytes that `"contentHash":"sha256:…",` adds to the canonical text of
 * an artifact (the hashed text leaves it out, §8.7). */
#define CONTENT_HASH_MEMBER_BYTES \
  (sizeof ("\"contentHash\":\"" AKC_KNOWLEDGE_CONTENT_HASH_PLACEHOLDER "\",") - 1)

static AkcJsonValue *
member (const AkcJsonValue *object,
        const char         *name)
{
  return akc_json_object_lookup (object, name, strlen (name), NULL);
}

/* ------------------------------------------------------------------ */
/* Cross-field rules (§8.3)                                            */
/* ------------------------------------------------------------------ */

/* Rule 5: expiresAt strictly after generatedAt, in milliseconds. */
static gboolean
expires_after_generation (const AkcJsonValue *artifact)
{
  AkcJsonValue *generated = member (artifact, "generatedAt");
  AkcJsonValue *expires = member (artifact, "expiresAt");
  gint64 generated_ms, expires_ms;

  if (expires == NULL)
    return TRUE;

  if (!akc_text_date_time_to_unix_ms (AKC_JSON_STR (generated), AKC_JSON_STR_LEN (generated), &generated_ms) ||
      !akc_text_date_time_to_unix_ms (AKC_JSON_STR (expires), AKC_JSON_STR_LEN (expires), &expires_ms))
    return FALSE;

  return expires_ms > generated_ms;
}

/* Owner of a normalised alias in the alias map: the entry index + 1, or
 * SHARED when more than one entry declares it. */
#define SHARED GSIZE_TO_POINTER (0)

/* Rules 1, 2 and 4: every normalised alias is at most 512 units, no entry
 * declares the same normalised alias twice, and every entry has at least
 * one normalised alias that no other entry declares. */
static gboolean
aliases_valid (const AkcJsonValue *entries)
{
  gsize n_entries = AKC_JSON_LEN (entries);
  g_autoptr(GHashTable) owners = NULL;
  g_autoptr(GPtrArray) keys = NULL;    /* (transfer none): owned by owners */
  g_autofree guint *first = NULL;      /* entry i's keys: [first[i], first[i + 1]) */
  gsize i;

  if (n_entries == 0)
    return TRUE;

  owners = g_hash_table_new_full (g_bytes_hash, g_bytes_equal, (GDestroyNotify) g_bytes_unref, NULL);
  keys = g_ptr_array_new ();
  first = g_new (guint, n_entries + 1);

  for (i = 0; i < n_entries; i++)
    {
      const AkcJsonValue *entry = AKC_JSON_ELEMENT (entries, i);
      const AkcJsonValue *values = member (member (entry, "match"), "values");
      gsize j;

      first[i] = keys->len;

      for (j = 0; j < AKC_JSON_LEN (values); j++)
        {
          const AkcJsonValue *v = AKC_JSON_ELEMENT (values, j);
          gsize norm_len;
          char *norm = akc_text_normalize_key (AKC_JSON_STR (v), AKC_JSON_STR_LEN (v), &norm_len);
          g_autoptr(GBytes) key = NULL;
          gpointer stored_key, owner;
          guint k;

          /* Rule 1: NFKC may expand a 512-unit value. */
          if (akc_text_len16 (norm, norm_len) > AKC_KNOWLEDGE_QUERY_MAX_CHARS)
            {
              g_free (norm);
              return FALSE;
            }
          key = g_bytes_new_take (norm, norm_len);

          /* Rule 2: at most 16 values per entry, compared pairwise. */
          for (k = first[i]; k < keys->len; k++)
            if (g_bytes_equal (key, g_ptr_array_index (keys, k)))
              return FALSE;

          /* Rule 4: record who declares it. */
          if (g_hash_table_lookup_extended (owners, key, &stored_key, &owner))
            g_hash_table_insert (owners, g_bytes_ref (stored_key), SHARED);
          else
            {
              stored_key = key;
              g_hash_table_insert (owners, g_bytes_ref (key), GSIZE_TO_POINTER (i + 1));
            }
          g_ptr_array_add (keys, stored_key);
        }
    }
  first[n_entries] = keys->len;

  for (i = 0; i < n_entries; i++)
    {
      gboolean unique_alias = FALSE;
      guint k;

      for (k = first[i]; k < first[i + 1] && !unique_alias; k++)
        unique_alias = g_hash_table_lookup (owners, g_ptr_array_index (keys, k)) == GSIZE_TO_POINTER (i + 1);

      if (!unique_alias)
        return FALSE;
    }

  return TRUE;
}

static gboolean
artifact_check (const AkcJsonValue *artifact,
                gpointer            user_data)
{
  return expires_after_generation (artifact) && aliases_valid (member (artifact, "entries"));
}

/* ------------------------------------------------------------------ */
/* Options (§8.6), content hash (§8.7) and verification (§8.8)         */
/* ------------------------------------------------------------------ */

/* Applies the decode options to @artifact (transfer full, nullable). */
static AkcJsonValue *
check_options (AkcJsonValue   *artifact,
               const char     *expected_content_hash,
               const char     *expected_site_id,
               AkcDiagnostic **diagnostic)
{
  if (artifact == NULL)
    return NULL;

  if (expected_content_hash != NULL &&
      !akc_json_string_equals (member (artifact, "contentHash"), expected_content_hash))
    {
      akc_json_value_unref (artifact);
      akc_deterministic_set_diagnostic (diagnostic, AKC_DETERMINISTIC_CODE_HASH_MISMATCH,
                                        AKC_DETERMINISTIC_MESSAGE_CONFIGURED_HASH);
      return NULL;
    }

  if (expected_site_id != NULL &&
      !akc_json_string_equals (member (artifact, "siteId"), expected_site_id))
    {
      akc_json_value_unref (artifact);
      akc_deterministic_set_diagnostic (diagnostic, AKC_DETERMINISTIC_CODE_INVALID_PAYLOAD,
                                        AKC_DETERMINISTIC_MESSAGE_OTHER_SITE);
      return NULL;
    }

  return artifact;
}

/* The hashed text of a decoded (normalised) artifact: its members in
 * canonical order without `contentHash`. */
static void
append_hash_text (GString            *out,
                  const AkcJsonValue *artifact)
{
  AkcJsonWriter w;
  gsize i;

  akc_json_writer_init (&w, out);
  akc_json_writer_begin_object (&w);
  for (i = 0; i < AKC_JSON_LEN (artifact); i++)
    {
      const AkcJsonMember *m = AKC_JSON_MEMBER (artifact, i);

      if (m->name_len == strlen ("contentHash") && memcmp (m->name, "contentHash", m->name_len) == 0)
        continue;
      akc_json_writer_member_len (&w, m->name, m->name_len);
      akc_json_writer_value (&w, m->value);
    }
  akc_json_writer_end_object (&w);
}

static char *
digest (const char *text,
        gsize       len)
{
  g_autofree char *hex = g_compute_checksum_for_data (G_CHECKSUM_SHA256, (const guchar *) text, len);

  return g_strconcat ("sha256:", hex, NULL);
}

char *
akc_knowledge_artifact_hash_text (AkcJsonValue   *value,
                                  gsize          *length,
                                  AkcDiagnostic **diagnostic)
{
  g_autoptr(AkcJsonValue) candidate = NULL;
  g_autoptr(AkcJsonValue) artifact = NULL;
  g_autofree AkcJsonMemberInit *members = NULL;
  GString *out;
  gsize n, i;

  g_assert (value != NULL);

  /* Only an object can carry members; anything else is invalid. */
  if (!AKC_JSON_IS_OBJECT (value))
    {
      akc_deterministic_set_diagnostic (diagnostic, AKC_DETERMINISTIC_CODE_INVALID_PAYLOAD,
                                        AKC_DETERMINISTIC_MESSAGE_INVALID);
      return NULL;
    }

  /* Copy with `contentHash` set to the placeholder (replaced in place when
   * present, appended otherwise). */
  n = AKC_JSON_LEN (value);
  members = g_new (AkcJsonMemberInit, n + 1);
  for (i = 0; i < n; i++)
    {
      const AkcJsonMember *m = AKC_JSON_MEMBER (value, i);

      members[i].name = m->name;
      members[i].name_len = m->name_len;
      members[i].value = akc_json_value_ref (m->value);
    }
  members[n].name = "contentHash";
  members[n].name_len = strlen ("contentHash");
  members[n].value = akc_json_string_new_len (AKC_KNOWLEDGE_CONTENT_HASH_PLACEHOLDER,
                                              strlen (AKC_KNOWLEDGE_CONTENT_HASH_PLACEHOLDER));
  candidate = akc_json_object_new_steal (members, n + 1, FALSE, 0);

  artifact = akc_deterministic_decode_value (&artifact_envelope, candidate, diagnostic);
  if (artifact == NULL)
    return NULL;

  out = g_string_sized_new (1024);
  append_hash_text (out, artifact);
  if (length != NULL)
    *length = out->len;

  return g_string_free (out, FALSE);
}

/* §8.8 steps 3–5 on a decoded artifact (transfer full, nullable). */
static AkcJsonValue *
verify_decoded (AkcJsonValue   *artifact,
                AkcDiagnostic **diagnostic)
{
  g_autoptr(GString) text = NULL;
  g_autofree char *computed = NULL;

  if (artifact == NULL)
    return NULL;

  /* Step 3: re-hashing the decoded value validates it again as a value
   * with the placeholder hash. The normalised value is a fixed point of
   * the schema, so only the byte limit can still fail (the placeholder
   * has the length of every valid content hash). */
  text = g_string_sized_new (1024);
  append_hash_text (text, artifact);
  if (text->len + CONTENT_HASH_MEMBER_BYTES > AKC_KNOWLEDGE_ARTIFACT_MAX_BYTES)
    {
      akc_json_value_unref (artifact);
      akc_deterministic_set_diagnostic (diagnostic, AKC_DETERMINISTIC_CODE_INVALID_PAYLOAD,
                                        AKC_DETERMINISTIC_MESSAGE_UNVERIFIABLE);
      return NULL;
    }

  /* Step 4. */
  computed = digest (text->str, text->len);
  if (!akc_json_string_equals (member (artifact, "contentHash"), computed))
    {
      akc_json_value_unref (artifact);
      akc_deterministic_set_diagnostic (diagnostic, AKC_DETERMINISTIC_CODE_HASH_MISMATCH,
                                        AKC_DETERMINISTIC_MESSAGE_CONTENT_HASH);
      return NULL;
    }

  return artifact;
}

/* §8.8 step 1. */
static gboolean
anchors_valid (const char     *expected_content_hash,
               const char     *expected_site_id,
               AkcDiagnostic **diagnostic)
{
  if (expected_content_hash != NULL && expected_site_id != NULL &&
      akc_text_is_content_hash (expected_content_hash, strlen (expected_content_hash)) &&
      akc_text_is_safe_id (expected_site_id, strlen (expected_site_id)))
    return TRUE;

  akc_deterministic_set_diagnostic (diagnostic, AKC_DETERMINISTIC_CODE_INVALID_PAYLOAD,
                                    AKC_DETERMINISTIC_MESSAGE_TRUSTED_CONFIG);
  return FALSE;
}

/* ------------------------------------------------------------------ */
/* Public API                                                          */
/* ------------------------------------------------------------------ */

/**
 * akc_knowledge_artifact_decode:
 * @text: the artifact as JSON
 *   text, for example the bytes of a downloaded file
 * @length: length of @text in bytes, or -1 if it is NUL-terminated
 * @expected_content_hash: (nullable): when given, the artifact's declared
 *   `contentHash` must equal it
 * @expected_site_id: (nullable): when given, the artifact's `siteId` must
 *   equal it
 * @diagnostic: (out) (optional) (nullable) (transfer full): return location
 *   for the diagnostic when the text is rejected
 *
 * Decodes a local knowledge artifact, `agentskit.chat.knowledge` version 1
 * ([protocol §8.3](wire-formats.html#protocol-8)), from text.
 *
 * Besides the schema, every cross-field rule is checked: entry ids are
 * unique; no match value is longer than %AKC_KNOWLEDGE_QUERY_MAX_CHARS
 * UTF-16 code units once normalised with [func@normalize_knowledge_key];
 * no entry declares two match values with the same normalised form; every
 * entry has at least one normalised match value that no other entry
 * declares; and `expiresAt`, when present, is strictly later than
 * `generatedAt` at millisecond precision. Whether the artifact has expired
 * is not checked.
 *
 * Texts longer than %AKC_KNOWLEDGE_ARTIFACT_MAX_BYTES bytes are rejected
 * before they are parsed ([protocol §8.5](wire-formats.html#protocol-8)). After a successful decode, a
 * declared hash other than @expected_content_hash is rejected with
 * `DETERMINISTIC_HASH_MISMATCH`, then a site other than @expected_site_id
 * with `DETERMINISTIC_INVALID_PAYLOAD`.
 *
 * This does not recompute the content hash: use
 * [func@knowledge_artifact_verify] before trusting the content.
 *
 * Returns: (transfer full) (nullable): the normalised artifact (unknown
 *   members dropped, labels, match values, markdown and citation titles
 *   trimmed, members in canonical order), or %NULL
 *
 * Since: 0.1
 */
AkcJsonValue *
akc_knowledge_artifact_decode (const char     *text,
                               gssize          length,
                               const char     *expected_content_hash,
                               const char     *expected_site_id,
                               AkcDiagnostic **diagnostic)
{
  AkcJsonValue *artifact;

  g_return_val_if_fail (text != NULL || length == 0, NULL);
  g_return_val_if_fail (diagnostic == NULL || *diagnostic == NULL, NULL);

  if (text == NULL)
    text = "";

  artifact = akc_deterministic_decode_text (&artifact_envelope, text,
                                            length < 0 ? strlen (text) : (gsize) length,
                                            diagnostic);

  return check_options (artifact, expected_content_hash, expected_site_id, diagnostic);
}

/**
 * akc_knowledge_artifact_decode_utf8: (rename-to akc_knowledge_artifact_decode)
 * @text: the artifact as JSON
 *   text, for example the bytes of a downloaded file
 * @expected_content_hash: (nullable): when given, the artifact's declared
 *   `contentHash` must equal it
 * @expected_site_id: (nullable): when given, the artifact's `siteId` must
 *   equal it
 * @diagnostic: (out) (optional) (nullable) (transfer full): return location
 *   for the diagnostic when the text is rejected
 *
 * Does what akc_knowledge_artifact_decode() does, for NUL-terminated @text:
 * the form bindings see.
 *
 * Returns: (transfer full) (nullable): the normalised artifact (unknown
 *   members dropped, labels, match values, markdown and citation titles
 *   trimmed, members in canonical order), or %NULL
 *
 * Since: 0.1
 */
AkcJsonValue *
akc_knowledge_artifact_decode_utf8 (const char     *text,
                                    const char     *expected_content_hash,
                                    const char     *expected_site_id,
                                    AkcDiagnostic **diagnostic)
{
  return akc_knowledge_artifact_decode (text, -1, expected_content_hash, expected_site_id, diagnostic);
}

/**
 * akc_knowledge_artifact_decode_value:
 * @value: a parsed JSON value
 * @expected_content_hash: (nullable): when given, the artifact's declared
 *   `contentHash` must equal it
 * @expected_site_id: (nullable): when given, the artifact's `siteId` must
 *   equal it
 * @diagnostic: (out) (optional) (nullable) (transfer full): return location
 *   for the diagnostic when the value is rejected
 *
 * Decodes a local knowledge artifact from an already-parsed value, like
 * [func@knowledge_artifact_decode]. The byte limit applies to the
 * normalised artifact, after validation ([protocol §8.6](wire-formats.html#protocol-8)).
 *
 * Returns: (transfer full) (nullable): the normalised artifact, or %NULL
 *
 * Since: 0.1
 */
AkcJsonValue *
akc_knowledge_artifact_decode_value (AkcJsonValue   *value,
                                     const char     *expected_content_hash,
                                     const char     *expected_site_id,
                                     AkcDiagnostic **diagnostic)
{
  AkcJsonValue *artifact;

  g_return_val_if_fail (value != NULL, NULL);
  g_return_val_if_fail (diagnostic == NULL || *diagnostic == NULL, NULL);

  artifact = akc_deterministic_decode_value (&artifact_envelope, value, diagnostic);

  return check_options (artifact, expected_content_hash, expected_site_id, diagnostic);
}

/**
 * akc_knowledge_artifact_compute_content_hash:
 * @value: an artifact, with or without its `contentHash` member
 * @diagnostic: (out) (optional) (nullable) (transfer full): return location
 *   for the diagnostic when @value is not a valid artifact
 *
 * Computes the content hash of an artifact ([protocol §8.7](wire-formats.html#protocol-8)), as an
 * artifact producer does before publishing it.
 *
 * The `contentHash` of @value is replaced by
 * %AKC_KNOWLEDGE_CONTENT_HASH_PLACEHOLDER (or added), the result is decoded
 * as a value, and the SHA-256 digest is taken over the canonical JSON of
 * the decoded artifact without its `contentHash`. So the hash does not
 * depend on member order, white space, unknown members or white space
 * around trimmed strings. An invalid artifact has no hash.
 *
 * Returns: (transfer full) (nullable): the hash, `sha256:` followed by 64
 *   lower-case hexadecimal digits, or %NULL
 *
 * Since: 0.1
 */
char *
akc_knowledge_artifact_compute_content_hash (AkcJsonValue   *value,
                                             AkcDiagnostic **diagnostic)
{
  g_autofree char *text = NULL;
  gsize len;

  g_return_val_if_fail (value != NULL, NULL);
  g_return_val_if_fail (diagnostic == NULL || *diagnostic == NULL, NULL);

  text = akc_knowledge_artifact_hash_text (value, &len, diagnostic);
  if (text == NULL)
    return NULL;

  return digest (text, len);
}

/**
 * akc_knowledge_artifact_verify:
 * @text: the artifact as JSON
 *   text
 * @length: length of @text in bytes, or -1 if it is NUL-terminated
 * @expected_content_hash: (nullable): the trusted content hash, from the
 *   site configuration
 * @expected_site_id: (nullable): the trusted site id, from the site
 *   configuration
 * @diagnostic: (out) (optional) (nullable) (transfer full): return location
 *   for the diagnostic when verification fails
 *
 * Verifies a local knowledge artifact against the trusted anchors of a
 * site configuration (`verifyLocalKnowledgeArtifact`, [protocol §8.8](wire-formats.html#protocol-8)).
 *
 * Both anchors are required: a missing or malformed anchor fails with
 * `DETERMINISTIC_INVALID_PAYLOAD`. The artifact is then decoded as by
 * [func@knowledge_artifact_decode] with both anchors as options, and its
 * content hash is recomputed; a digest that differs from the declared
 * `contentHash` fails with `DETERMINISTIC_HASH_MISMATCH`. So the configured
 * hash, the declared hash and the content must all agree.
 *
 * Returns: (transfer full) (nullable): the verified, normalised artifact,
 *   or %NULL
 *
 * Since: 0.1
 */
AkcJsonValue *
akc_knowledge_artifact_verify (const char     *text,
                               gssize          length,
                               const char     *expected_content_hash,
                               const char     *expected_site_id,
                               AkcDiagnostic **diagnostic)
{
  g_return_val_if_fail (text != NULL || length == 0, NULL);
  g_return_val_if_fail (diagnostic == NULL || *diagnostic == NULL, NULL);

  if (!anchors_valid (expected_content_hash, expected_site_id, diagnostic))
    return NULL;

  return verify_decoded (akc_knowledge_artifact_decode (text, length, expected_content_hash,
                                                        expected_site_id, diagnostic),
                         diagnostic);
}

/**
 * akc_knowledge_artifact_verify_utf8: (rename-to akc_knowledge_artifact_verify)
 * @text: the artifact as JSON
 *   text
 * @expected_content_hash: (nullable): the trusted content hash, from the
 *   site configuration
 * @expected_site_id: (nullable): the trusted site id, from the site
 *   configuration
 * @diagnostic: (out) (optional) (nullable) (transfer full): return location
 *   for the diagnostic when verification fails
 *
 * Does what akc_knowledge_artifact_verify() does, for NUL-terminated @text:
 * the form bindings see.
 *
 * Returns: (transfer full) (nullable): the verified, normalised artifact,
 *   or %NULL
 *
 * Since: 0.1
 */
AkcJsonValue *
akc_knowledge_artifact_verify_utf8 (const char     *text,
                                    const char     *expected_content_hash,
                                    const char     *expected_site_id,
                                    AkcDiagnostic **diagnostic)
{
  return akc_knowledge_artifact_verify (text, -1, expected_content_hash, expected_site_id, diagnostic);
}

/**
 * akc_knowledge_artifact_verify_value:
 * @value: a parsed JSON value
 * @expected_content_hash: (nullable): the trusted content hash, from the
 *   site configuration
 * @expected_site_id: (nullable): the trusted site id, from the site
 *   configuration
 * @diagnostic: (out) (optional) (nullable) (transfer full): return location
 *   for the diagnostic when verification fails
 *
 * Verifies an already-parsed artifact, like
 * [func@knowledge_artifact_verify]. Bytes read from the network or a file
 * should be verified as text instead ([protocol §8.6](wire-formats.html#protocol-8)).
 *
 * Returns: (transfer full) (nullable): the verified, normalised artifact,
 *   or %NULL
 *
 * Since: 0.1
 */
AkcJsonValue *
akc_knowledge_artifact_verify_value (AkcJsonValue   *value,
                                     const char     *expected_content_hash,
                                     const char     *expected_site_id,
                                     AkcDiagnostic **diagnostic)
{
  g_return_val_if_fail (value != NULL, NULL);
  g_return_val_if_fail (diagnostic == NULL || *diagnostic == NULL, NULL);

  if (!anchors_valid (expected_content_hash, expected_site_id, diagnostic))
    return NULL;

  return verify_decoded (akc_knowledge_artifact_decode_value (value, expected_content_hash,
                                                              expected_site_id, diagnostic),
                         diagnostic);
}
