/* akc-answer.c: the answer envelope (protocol §8.4)
 *
 * SPDX-License-Identifier: MIT
 */

#include "config.h"

#include <string.h>

#include "akc-answer.h"
#include "akc-knowledge-artifact.h"
#include "akc-deterministic-private.h"
#include "akc-text-private.h"

/* ------------------------------------------------------------------ */
/* Schema (§8.4)                                                       */
/* ------------------------------------------------------------------ */

static const AkcSchemaType safe_id_type = AKC_SCHEMA_PATTERN (akc_text_is_safe_id);

static const AkcSchemaField body_fields[] = {
  /* Unlike an artifact entry's markdown, not trimmed. */
  { "markdown",  AKC_SCHEMA_STRING (1, AKC_DETERMINISTIC_MARKDOWN_MAX_CHARS) },
  { "citations", AKC_SCHEMA_ARRAY (&akc_deterministic_citation_type, 0, AKC_ANSWER_MAX_CITATIONS) },
};
static const AkcSchemaTable body_table = AKC_SCHEMA_TABLE (body_fields, AKC_SCHEMA_OPEN);

static const AkcSchemaField local_provenance_fields[] = {
  { "source",      AKC_SCHEMA_LITERAL ("local") },
  { "artifactId",  AKC_SCHEMA_PATTERN (akc_text_is_safe_id) },
  { "contentHash", AKC_SCHEMA_PATTERN (akc_text_is_content_hash) },
  { "entryIds",    AKC_SCHEMA_ARRAY (&safe_id_type, 1, AKC_ANSWER_MAX_SUGGESTIONS) },
};
static const AkcSchemaTable local_provenance_table =
  AKC_SCHEMA_TABLE (local_provenance_fields, AKC_SCHEMA_OPEN);

static const AkcSchemaField backend_provenance_fields[] = {
  { "source",   AKC_SCHEMA_LITERAL ("backend") },
  { "provider", AKC_SCHEMA_LABEL (128), .optional = TRUE },
  { "model",    AKC_SCHEMA_LABEL (128), .optional = TRUE },
};
static const AkcSchemaTable backend_provenance_table =
  AKC_SCHEMA_TABLE (backend_provenance_fields, AKC_SCHEMA_OPEN);

static const AkcSchemaTable * const provenance_tables[] = {
  &local_provenance_table, &backend_provenance_table, NULL,
};

static const AkcSchemaField suggestion_fields[] = {
  { "id",    AKC_SCHEMA_PATTERN (akc_text_is_safe_id) },
  { "label", AKC_SCHEMA_LABEL (256) },
  { "value", AKC_SCHEMA_LABEL (AKC_KNOWLEDGE_QUERY_MAX_CHARS) },
};
static const AkcSchemaTable suggestion_table = AKC_SCHEMA_TABLE (suggestion_fields, AKC_SCHEMA_OPEN);

static const char * const levels[] = { "high", "medium", "low", NULL };
static const char * const bases[] = {
  "exact", "ambiguous", "miss", "stale", "corrupt", "offline", "backend", NULL,
};
static const AkcSchemaField confidence_fields[] = {
  { "level", AKC_SCHEMA_ENUM (levels) },
  { "basis", AKC_SCHEMA_ENUM (bases) },
};
static const AkcSchemaTable confidence_table = AKC_SCHEMA_TABLE (confidence_fields, AKC_SCHEMA_OPEN);

static const char * const reasons[] = { "miss", "stale", "corrupt", "offline", NULL };

static gboolean answer_check     (const AkcJsonValue *response,
                                  gpointer            user_data);
static gboolean choices_check    (const AkcJsonValue *response,
                                  gpointer            user_data);
static gboolean escalation_check (const AkcJsonValue *response,
                                  gpointer            user_data);

/* Members 1–5, common to the three variants. */
#define COMMON_FIELDS(outcome) \
  { "protocol",        AKC_SCHEMA_LITERAL (AKC_ANSWER_PROTOCOL) }, \
  { "version",         AKC_SCHEMA_NUMERIC_LITERAL (1) }, \
  { "outcome",         AKC_SCHEMA_LITERAL (outcome) }, \
  { "query",           AKC_SCHEMA_STRING (0, AKC_KNOWLEDGE_QUERY_MAX_CHARS) }, \
  { "normalizedQuery", AKC_SCHEMA_STRING (0, AKC_KNOWLEDGE_QUERY_MAX_CHARS) }

static const AkcSchemaField answer_fields[] = {
  COMMON_FIELDS ("answer"),
  { "answer",     AKC_SCHEMA_OBJECT (&body_table) },
  { "provenance", AKC_SCHEMA_UNION ("source", provenance_tables) },
  { "confidence", AKC_SCHEMA_OBJECT (&confidence_table) },
};
static const AkcSchemaTable answer_table =
  AKC_SCHEMA_TABLE_CHECKED (answer_fields, AKC_SCHEMA_OPEN, answer_check, NULL);

static const AkcSchemaField choices_fields[] = {
  COMMON_FIELDS ("choices"),
  { "message",     AKC_SCHEMA_STRING (1, 4096) },
  { "suggestions", AKC_SCHEMA_ARRAY (&AKC_SCHEMA_TYPE (AKC_SCHEMA_OBJECT (&suggestion_table)),
                                     2, AKC_ANSWER_MAX_SUGGESTIONS) },
  { "provenance",  AKC_SCHEMA_OBJECT (&local_provenance_table) },
  { "confidence",  AKC_SCHEMA_OBJECT (&confidence_table) },
};
static const AkcSchemaTable choices_table =
  AKC_SCHEMA_TABLE_CHECKED (choices_fields, AKC_SCHEMA_OPEN, choices_check, NULL);

static const AkcSchemaField escalation_fields[] = {
  COMMON_FIELDS ("escalation"),
  { "message",           AKC_SCHEMA_STRING (1, 4096) },
  { "reason",            AKC_SCHEMA_ENUM (reasons) },
  { "candidateEntryIds", AKC_SCHEMA_ARRAY (&safe_id_type, 0, AKC_ANSWER_MAX_SUGGESTIONS), .optional = TRUE },
  { "confidence",        AKC_SCHEMA_OBJECT (&confidence_table) },
};
static const AkcSchemaTable escalation_table =
  AKC_SCHEMA_TABLE_CHECKED (escalation_fields, AKC_SCHEMA_OPEN, escalation_check, NULL);

static const AkcSchemaTable * const variant_tables[] = {
  &answer_table, &choices_table, &escalation_table, NULL,
};

static const AkcSchemaType answer_type = AKC_SCHEMA_UNION ("outcome", variant_tables);

static const AkcDeterministicEnvelope answer_envelope = {
  AKC_ANSWER_PROTOCOL, AKC_ANSWER_MAX_BYTES, &answer_type,
};

/* ------------------------------------------------------------------ */
/* Cross-field rules (§8.4)                                            */
/* ------------------------------------------------------------------ */

static AkcJsonValue *
member (const AkcJsonValue *object,
        const char         *name)
{
  return akc_json_object_lookup (object, name, strlen (name), NULL);
}

static gboolean
strings_equal (const AkcJsonValue *a,
               const AkcJsonValue *b)
{
  return AKC_JSON_IS_STRING (a) && AKC_JSON_IS_STRING (b) &&
         AKC_JSON_STR_LEN (a) == AKC_JSON_STR_LEN (b) &&
         memcmp (AKC_JSON_STR (a), AKC_JSON_STR (b), AKC_JSON_STR_LEN (a)) == 0;
}

static gboolean
confidence_is (const AkcJsonValue *response,
               const char         *level,
               const char         *basis)
{
  AkcJsonValue *confidence = member (response, "confidence");

  return akc_json_string_equals (member (confidence, "level"), level) &&
         akc_json_string_equals (member (confidence, "basis"), basis);
}

/* Rule 1: normalizedQuery = slice16 (normalize (query), 512). */
static gboolean
normalized_query_valid (const AkcJsonValue *response)
{
  AkcJsonValue *query = member (response, "query");
  AkcJsonValue *normalized_query = member (response, "normalizedQuery");
  g_autofree char *norm = NULL;
  gsize norm_len, cut = 0, units = 0;

  norm = akc_text_normalize_key (AKC_JSON_STR (query), AKC_JSON_STR_LEN (query), &norm_len);

  while (cut < norm_len)
    {
      const char *p = norm + cut;
      gsize u = g_utf8_get_char (p) >= 0x10000 ? 2 : 1;

      if (units + u > AKC_KNOWLEDGE_QUERY_MAX_CHARS)
        {
          /* The cut falls inside a surrogate pair: the reference keeps a
           * lone high surrogate, which no decoded string can equal
           * (protocol §10 item 1). */
          if (units < AKC_KNOWLEDGE_QUERY_MAX_CHARS)
            return FALSE;
          break;
        }
      units += u;
      cut = g_utf8_next_char (p) - norm;
    }

  return AKC_JSON_STR_LEN (normalized_query) == cut &&
         memcmp (AKC_JSON_STR (normalized_query), norm, cut) == 0;
}

/* Rule 2. */
static gboolean
answer_check (const AkcJsonValue *response,
              gpointer            user_data)
{
  AkcJsonValue *provenance = member (response, "provenance");
  gboolean consistent;

  if (akc_json_string_equals (member (provenance, "source"), "local"))
    consistent = confidence_is (response, "high", "exact") &&
                 AKC_JSON_LEN (member (provenance, "entryIds")) == 1;
  else
    consistent = confidence_is (response, "high", "backend");

  return consistent && normalized_query_valid (response);
}

/* Rule 3. */
static gboolean
choices_check (const AkcJsonValue *response,
               gpointer            user_data)
{
  AkcJsonValue *suggestions = member (response, "suggestions");
  AkcJsonValue *entry_ids = member (member (response, "provenance"), "entryIds");
  gsize i;

  if (!confidence_is (response, "medium", "ambiguous"))
    return FALSE;

  if (AKC_JSON_LEN (suggestions) != AKC_JSON_LEN (entry_ids))
    return FALSE;
  for (i = 0; i < AKC_JSON_LEN (suggestions); i++)
    if (!strings_equal (member (AKC_JSON_ELEMENT (suggestions, i), "id"), AKC_JSON_ELEMENT (entry_ids, i)))
      return FALSE;

  return normalized_query_valid (response);
}

/* Rule 4. */
static gboolean
escalation_check (const AkcJsonValue *response,
                  gpointer            user_data)
{
  AkcJsonValue *confidence = member (response, "confidence");

  return akc_json_string_equals (member (confidence, "level"), "low") &&
         strings_equal (member (confidence, "basis"), member (response, "reason")) &&
         normalized_query_valid (response);
}

/* ------------------------------------------------------------------ */
/* Public API                                                          */
/* ------------------------------------------------------------------ */

/**
 * akc_answer_decode:
 * @text: the envelope as JSON
 *   text, for example a response body
 * @length: length of @text in bytes, or -1 if it is NUL-terminated
 * @diagnostic: (out) (optional) (nullable) (transfer full): return location
 *   for the diagnostic when the text is rejected
 *
 * Decodes an answer envelope, `agentskit.chat.answer` version 1
 * ([protocol §8.4](wire-formats.html#protocol-8)), from text. The envelope's `outcome` is one of
 * `answer` (a local or backend answer with its citations), `choices`
 * (several exact local matches to choose from) or `escalation` (the
 * question needs the backend, with the reason).
 *
 * The cross-field rules are checked: `normalizedQuery` is the query
 * normalised with [func@normalize_knowledge_key] and cut to
 * %AKC_KNOWLEDGE_QUERY_MAX_CHARS UTF-16 code units; the confidence matches
 * the outcome and provenance (`high`/`exact` for a local answer from exactly
 * one entry, `high`/`backend` for a backend answer, `medium`/`ambiguous`
 * for choices, `low` with the escalation's reason as basis); and the
 * suggestions of `choices` are the provenance's entries, in order.
 *
 * Texts longer than %AKC_ANSWER_MAX_BYTES bytes are rejected before they
 * are parsed ([protocol §8.5](wire-formats.html#protocol-8)).
 *
 * Returns: (transfer full) (nullable): the normalised envelope, or %NULL
 *
 * Since: 0.1
 */
AkcJsonValue *
akc_answer_decode (const char     *text,
                   gssize          length,
                   AkcDiagnostic **diagnostic)
{
  g_return_val_if_fail (text != NULL || length == 0, NULL);
  g_return_val_if_fail (diagnostic == NULL || *diagnostic == NULL, NULL);

  if (text == NULL)
    text = "";

  return akc_deterministic_decode_text (&answer_envelope, text,
                                        length < 0 ? strlen (text) : (gsize) length,
                                        diagnostic);
}

/**
 * akc_answer_decode_utf8: (rename-to akc_answer_decode)
 * @text: the envelope as JSON
 *   text, for example a response body
 * @diagnostic: (out) (optional) (nullable) (transfer full): return location
 *   for the diagnostic when the text is rejected
 *
 * Does what akc_answer_decode() does, for NUL-terminated @text:
 * the form bindings see.
 *
 * Returns: (transfer full) (nullable): the normalised envelope, or %NULL
 *
 * Since: 0.1
 */
AkcJsonValue *
akc_answer_decode_utf8 (const char     *text,
                        AkcDiagnostic **diagnostic)
{
  return akc_answer_decode (text, -1, diagnostic);
}

/**
 * akc_answer_decode_value:
 * @value: a parsed JSON value
 * @diagnostic: (out) (optional) (nullable) (transfer full): return location
 *   for the diagnostic when the value is rejected
 *
 * Decodes an answer envelope from an already-parsed value, like
 * [func@answer_decode]. The byte limit applies to the normalised envelope,
 * after validation ([protocol §8.6](wire-formats.html#protocol-8)).
 *
 * Returns: (transfer full) (nullable): the normalised envelope, or %NULL
 *
 * Since: 0.1
 */
AkcJsonValue *
akc_answer_decode_value (AkcJsonValue   *value,
                         AkcDiagnostic **diagnostic)
{
  g_return_val_if_fail (value != NULL, NULL);
  g_return_val_if_fail (diagnostic == NULL || *diagnostic == NULL, NULL);

  return akc_deterministic_decode_value (&answer_envelope, value, diagnostic);
}
