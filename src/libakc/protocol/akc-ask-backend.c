/* akc-ask-backend.c: Ask backend contracts (protocol §7)
 *
 * SPDX-License-Identifier: MIT
 *
 * Every object here is closed (unknown members reject), except the
 * embedded deterministic escalation envelope, which is open (§8.4).
 */

#include "config.h"

#include <string.h>

#include "akc-answer.h"
#include "akc-ask-backend.h"
#include "akc-ask-backend-private.h"
#include "akc-json-private.h"
#include "akc-schema-private.h"
#include "akc-text-private.h"

#define SAFE_ID AKC_SCHEMA_PATTERN (akc_text_is_safe_id)

/* §7.2 */
static const char * const roles[] = { "user", "assistant", NULL };
static const AkcSchemaField message_fields[] = {
  { "role",    AKC_SCHEMA_ENUM (roles) },
  { "content", AKC_SCHEMA_STRING (0, AKC_ASK_BACKEND_MAX_MESSAGE_LENGTH) },
};
static const AkcSchemaTable message_table = AKC_SCHEMA_TABLE (message_fields, AKC_SCHEMA_CLOSED);
static const AkcSchemaType message_type = AKC_SCHEMA_OBJECT (&message_table);

/* §7.1 `deterministic`: an answer envelope that validates as §8.4 (open,
 * decoded by the answer module, whose value form adds only the §8.6 byte
 * limit that no valid escalation can reach) and is an escalation. */
static gboolean
escalation_envelope (const AkcSchemaType *type,
                     AkcJsonValue        *value,
                     const AkcJsonValue  *parent,
                     AkcJsonValue       **out)
{
  g_autoptr(AkcJsonValue) envelope = akc_answer_decode_value (value, NULL);

  if (envelope == NULL ||
      !akc_json_string_equals (akc_json_object_lookup (envelope, "outcome", 7, NULL), "escalation"))
    return FALSE;

  if (out != NULL)
    *out = g_steal_pointer (&envelope);
  return TRUE;
}

/* §7.1 */
static const AkcSchemaField request_fields[] = {
  { "protocol",      AKC_SCHEMA_LITERAL (AKC_ASK_BACKEND_PROTOCOL), .optional = TRUE },
  { "version",       AKC_SCHEMA_NUMERIC_LITERAL (1), .optional = TRUE },
  { "sessionId",     SAFE_ID, .optional = TRUE },
  { "messages",      AKC_SCHEMA_ARRAY (&message_type, 1, AKC_ASK_BACKEND_MAX_MESSAGES) },
  { "deterministic", AKC_SCHEMA_CUSTOM (escalation_envelope, NULL), .optional = TRUE },
};
static const AkcSchemaTable request_table = AKC_SCHEMA_TABLE (request_fields, AKC_SCHEMA_CLOSED);

/* §7.3 */
static const AkcSchemaField assistant_fields[] = {
  { "id",          SAFE_ID },
  { "name",        AKC_SCHEMA_LABEL (256) },
  { "suggestions", AKC_SCHEMA_ARRAY (&AKC_SCHEMA_TYPE (AKC_SCHEMA_LABEL (256)), 0, 8) },
};
static const AkcSchemaTable assistant_table = AKC_SCHEMA_TABLE (assistant_fields, AKC_SCHEMA_CLOSED);

static const char * const corpus_modes[] = { "local", "federated", NULL };
static const AkcSchemaField corpus_fields[] = {
  { "id",   SAFE_ID },
  { "mode", AKC_SCHEMA_ENUM (corpus_modes) },
};
static const AkcSchemaTable corpus_table = AKC_SCHEMA_TABLE (corpus_fields, AKC_SCHEMA_CLOSED);

static const AkcSchemaField limits_fields[] = {
  { "requestTimeoutMs",    AKC_SCHEMA_INT (100, 120000) },
  { "retrievalTimeoutMs",  AKC_SCHEMA_INT (100, 60000) },
  { "generationTimeoutMs", AKC_SCHEMA_INT (100, 120000) },
  { "maxSources",          AKC_SCHEMA_INT (1, 8) },
};
static const AkcSchemaTable limits_table = AKC_SCHEMA_TABLE (limits_fields, AKC_SCHEMA_CLOSED);

static const char * const persistence_modes[] = { "required", "disabled", NULL };
static const AkcSchemaField persistence_fields[] = {
  { "mode", AKC_SCHEMA_ENUM (persistence_modes) },
};
static const AkcSchemaTable persistence_table = AKC_SCHEMA_TABLE (persistence_fields, AKC_SCHEMA_CLOSED);

static const AkcSchemaField site_fields[] = {
  { "protocol",    AKC_SCHEMA_LITERAL ("agentskit.chat.backend-site") },
  { "version",     AKC_SCHEMA_NUMERIC_LITERAL (1) },
  { "siteId",      SAFE_ID },
  { "assistant",   AKC_SCHEMA_OBJECT (&assistant_table) },
  { "corpus",      AKC_SCHEMA_OBJECT (&corpus_table) },
  { "components",  AKC_SCHEMA_ARRAY (&AKC_SCHEMA_TYPE (SAFE_ID), 0, 64) },
  { "actions",     AKC_SCHEMA_ARRAY (&AKC_SCHEMA_TYPE (SAFE_ID), 0, 64) },
  { "limits",      AKC_SCHEMA_OBJECT (&limits_table) },
  { "persistence", AKC_SCHEMA_OBJECT (&persistence_table) },
};
static const AkcSchemaTable site_table = AKC_SCHEMA_TABLE (site_fields, AKC_SCHEMA_CLOSED);

/* §7.4 */
static const AkcSchemaField source_fields[] = {
  { "id",      SAFE_ID },
  { "title",   AKC_SCHEMA_LABEL (256) },
  { "href",    AKC_SCHEMA_PATTERN (akc_text_is_safe_href) },
  { "excerpt", AKC_SCHEMA_TRIMMED (1, 4096) },
};
static const AkcSchemaTable source_table = AKC_SCHEMA_TABLE (source_fields, AKC_SCHEMA_CLOSED);

/* §7.5 */
static const AkcSchemaField usage_fields[] = {
  { "inputTokens",  AKC_SCHEMA_INT (0, AKC_SCHEMA_INT_MAX), .optional = TRUE },
  { "outputTokens", AKC_SCHEMA_INT (0, AKC_SCHEMA_INT_MAX), .optional = TRUE },
  { "totalTokens",  AKC_SCHEMA_INT (0, AKC_SCHEMA_INT_MAX), .optional = TRUE },
  { "costUsd",      AKC_SCHEMA_NUMBER (0, AKC_SCHEMA_UNBOUNDED), .optional = TRUE },
  { "model",        AKC_SCHEMA_LABEL (256), .optional = TRUE },
};
static const AkcSchemaTable usage_table = AKC_SCHEMA_TABLE (usage_fields, AKC_SCHEMA_CLOSED);

/* §7.6 */
static const AkcSchemaField session_fields[] = {
  { "revision", AKC_SCHEMA_INT (0, AKC_SCHEMA_INT_MAX) },
  { "messages", AKC_SCHEMA_ARRAY (&message_type, 0, AKC_ASK_BACKEND_MAX_MESSAGES) },
};
static const AkcSchemaTable session_table = AKC_SCHEMA_TABLE (session_fields, AKC_SCHEMA_CLOSED);

/* §7.7 */
static const char * const ask_codes[] = {
  "ASK_INVALID_REQUEST", "ASK_UNAUTHORIZED", "ASK_FORBIDDEN", "ASK_RATE_LIMITED",
  "ASK_TIMEOUT", "ASK_CANCELLED", "ASK_RETRIEVAL_FAILED", "ASK_NO_GROUNDED_SOURCES",
  "ASK_GENERATION_FAILED", "ASK_PERSISTENCE_CONFLICT", "ASK_INTERNAL", NULL
};
static const AkcSchemaField diagnostic_fields[] = {
  { "code",      AKC_SCHEMA_ENUM (ask_codes) },
  { "message",   AKC_SCHEMA_TRIMMED (1, 4096) },
  { "retryable", AKC_SCHEMA_BOOL },
};
static const AkcSchemaTable diagnostic_table = AKC_SCHEMA_TABLE (diagnostic_fields, AKC_SCHEMA_CLOSED);

/* §7.8 */
static const char * const metric_names[] = {
  "request.total_ms", "stream.first_event_ms", "stream.first_token_ms", "stream.bytes",
  "stream.events", "stream.snapshots", "deterministic.fallback", "retrieval.total_ms",
  "retrieval.documents", "persistence.total_ms", "cancellation.count", "conflict.count",
  "error.count", "usage.input_tokens", "usage.output_tokens", "usage.total_tokens",
  "cost.usd", NULL
};
static const char * const metric_units[] = { "ms", "bytes", "count", "tokens", "usd", NULL };
static const char * const metric_outcomes[] = { "ok", "rejected", "cancelled", "error", NULL };
static const AkcSchemaField metric_fields[] = {
  { "protocol",  AKC_SCHEMA_LITERAL ("agentskit.chat.backend-metric") },
  { "version",   AKC_SCHEMA_NUMERIC_LITERAL (1) },
  { "name",      AKC_SCHEMA_ENUM (metric_names) },
  { "siteId",    SAFE_ID },
  { "corpusId",  SAFE_ID },
  { "requestId", SAFE_ID },
  { "value",     AKC_SCHEMA_NUMBER (0, AKC_SCHEMA_UNBOUNDED) },
  { "unit",      AKC_SCHEMA_ENUM (metric_units) },
  { "outcome",   AKC_SCHEMA_ENUM (metric_outcomes) },
  { "emittedAt", AKC_SCHEMA_PATTERN (akc_text_is_date_time) },
};
static const AkcSchemaTable metric_table = AKC_SCHEMA_TABLE (metric_fields, AKC_SCHEMA_CLOSED);

#define INVALID_REQUEST_CODE    "ASK_INVALID_REQUEST"
#define INVALID_REQUEST_MESSAGE "The Ask request payload is invalid."

static AkcJsonValue *
validate (const AkcSchemaTable *table,
          AkcJsonValue         *value)
{
  AkcJsonValue *out = NULL;

  if (!akc_schema_validate_table (table, value, &out))
    return NULL;

  return out;
}

/**
 * akc_ask_backend_request_decode_value:
 * @value: a request body
 * @diagnostic: (out) (optional) (nullable) (transfer full): return location
 *   for the diagnostic when @value is rejected
 *
 * Validates an Ask backend request, `agentskit.chat.ask` v1 ([protocol
 * §7.1](wire-formats.html#protocol-7)): optional `protocol` and `version`, an optional `sessionId`, 1 to
 * 64 `messages` of the `user` or `assistant` role with at most 16 384
 * UTF-16 code units of content each, and optionally the `deterministic`
 * answer envelope that sent the question to the backend, which must be a
 * valid escalation (§8.4). The request is closed: any other member, such
 * as a client-chosen `siteId` or `corpus`, makes it invalid.
 *
 * An invalid request gives the diagnostic the reference server answers
 * with, `ASK_INVALID_REQUEST`, “The Ask request payload is invalid.”
 * (§7.9); its field path ([method@Diagnostic.get_field_path]) says what is
 * wrong, for example `messages[0].role: not one of user, assistant`.
 *
 * Returns: (transfer full) (nullable): the normalised request (canonical
 *   member order; unknown members of the envelope dropped), or %NULL with
 *   @diagnostic set when it is invalid
 *
 * Since: 0.1
 */
AkcJsonValue *
akc_ask_backend_request_decode_value (AkcJsonValue   *value,
                                      AkcDiagnostic **diagnostic)
{
  static const AkcSchemaType request_type = AKC_SCHEMA_OBJECT (&request_table);
  g_autofree char *field_path = NULL;
  AkcJsonValue *request;

  g_return_val_if_fail (value != NULL, NULL);
  g_return_val_if_fail (diagnostic == NULL || *diagnostic == NULL, NULL);

  request = validate (&request_table, value);
  if (request == NULL && diagnostic != NULL)
    {
      field_path = akc_schema_explain_field_path (&request_type, value, "(request)");
      *diagnostic = akc_diagnostic_new_with_field_path (INVALID_REQUEST_CODE, INVALID_REQUEST_MESSAGE,
                                                        FALSE, NULL, field_path);
    }

  return request;
}

/**
 * akc_ask_backend_request_decode:
 * @text: a request body
 * @length: length of @text in bytes, or -1 if it is NUL-terminated
 * @diagnostic: (out) (optional) (nullable) (transfer full): return location
 *   for the diagnostic when @text is rejected
 *
 * The text form of [func@ask_backend_request_decode_value], with the same
 * diagnostic; text that is not JSON gives it too.
 *
 * Returns: (transfer full) (nullable): the normalised request, or %NULL
 *   with @diagnostic set when @text is not JSON or not a valid request
 *
 * Since: 0.1
 */
AkcJsonValue *
akc_ask_backend_request_decode (const char     *text,
                                gssize          length,
                                AkcDiagnostic **diagnostic)
{
  g_autoptr(AkcJsonValue) value = NULL;

  g_return_val_if_fail (text != NULL || length == 0, NULL);
  g_return_val_if_fail (diagnostic == NULL || *diagnostic == NULL, NULL);

  if (length < 0)
    length = strlen (text);

  value = akc_json_parse (text, (gsize) length, NULL, NULL, NULL);
  if (value == NULL)
    {
      if (diagnostic != NULL)
        *diagnostic = akc_diagnostic_new (INVALID_REQUEST_CODE, INVALID_REQUEST_MESSAGE, FALSE, NULL);
      return NULL;
    }

  return akc_ask_backend_request_decode_value (value, diagnostic);
}

/**
 * akc_ask_backend_request_decode_utf8: (rename-to akc_ask_backend_request_decode)
 * @text: a request body
 * @diagnostic: (out) (optional) (nullable) (transfer full): return location
 *   for the diagnostic when @text is rejected
 *
 * Does what akc_ask_backend_request_decode() does, for NUL-terminated @text:
 * the form bindings see.
 *
 * Returns: (transfer full) (nullable): the normalised request, or %NULL
 *   with @diagnostic set when @text is not JSON or not a valid request
 *
 * Since: 0.1
 */
AkcJsonValue *
akc_ask_backend_request_decode_utf8 (const char     *text,
                                     AkcDiagnostic **diagnostic)
{
  return akc_ask_backend_request_decode (text, -1, diagnostic);
}

/**
 * akc_ask_backend_request_new:
 * @session_id: (nullable): the application session id, a `SafeId`
 * @messages: a JSON array of backend messages
 *   (`{"role":"user"|"assistant","content":…}`)
 * @deterministic: (nullable): the escalation envelope that accompanied
 *   the question
 *
 * Builds the request body the client sends ([protocol §7.1.2](wire-formats.html#protocol-7)):
 * `protocol`, `version`, `sessionId` when given, `messages` and
 * `deterministic` when given, validated as in
 * [func@ask_backend_request_decode_value]. Serialise it with
 * [method@JsonValue.to_canonical].
 *
 * Returns: (transfer full) (nullable): the request, or %NULL when it would
 *   be invalid
 *
 * Since: 0.1
 */
AkcJsonValue *
akc_ask_backend_request_new (const char   *session_id,
                             AkcJsonValue *messages,
                             AkcJsonValue *deterministic)
{
  g_autoptr(AkcJsonValue) object = NULL;
  AkcJsonMemberInit members[5];
  gsize n = 0;

  g_return_val_if_fail (session_id == NULL || g_utf8_validate (session_id, -1, NULL), NULL);
  g_return_val_if_fail (messages != NULL, NULL);

  if (messages->height >= AKC_JSON_MAX_DEPTH ||
      (deterministic != NULL && deterministic->height >= AKC_JSON_MAX_DEPTH))
    return NULL;

  members[n++] = (AkcJsonMemberInit) { "protocol", 8, akc_json_string_new_len (AKC_ASK_BACKEND_PROTOCOL, strlen (AKC_ASK_BACKEND_PROTOCOL)) };
  members[n++] = (AkcJsonMemberInit) { "version", 7, akc_json_value_new_number (1) };
  if (session_id != NULL)
    members[n++] = (AkcJsonMemberInit) { "sessionId", 9, akc_json_string_new_len (session_id, strlen (session_id)) };
  members[n++] = (AkcJsonMemberInit) { "messages", 8, akc_json_value_ref (messages) };
  if (deterministic != NULL)
    members[n++] = (AkcJsonMemberInit) { "deterministic", 13, akc_json_value_ref (deterministic) };

  object = akc_json_object_new_steal (members, n, TRUE, AKC_JSON_FLAG_STATIC_NAMES);

  return validate (&request_table, object);
}

/* akc_ask_backend_message_validate:
 * @value: a message object
 *
 * Validates one backend message ([protocol §7.2](wire-formats.html#protocol-7)): `role` `user` or
 * `assistant`, `content` of at most 16 384 UTF-16 code units, nothing else.
 *
 * Returns: (transfer full) (nullable): the normalised message, or %NULL
 */
AkcJsonValue *
akc_ask_backend_message_validate (AkcJsonValue *value)
{
  g_return_val_if_fail (value != NULL, NULL);

  return validate (&message_table, value);
}

/* akc_ask_backend_site_config_validate:
 * @value: a site configuration
 *
 * Validates a trusted backend site configuration,
 * `agentskit.chat.backend-site` v1 ([protocol §7.3](wire-formats.html#protocol-7)).
 *
 * Returns: (transfer full) (nullable): the normalised configuration
 *   (labels trimmed), or %NULL
 */
AkcJsonValue *
akc_ask_backend_site_config_validate (AkcJsonValue *value)
{
  g_return_val_if_fail (value != NULL, NULL);

  return validate (&site_table, value);
}

/* akc_ask_backend_source_validate:
 * @value: a grounded source
 *
 * Validates a grounded source ([protocol §7.4](wire-formats.html#protocol-7)): `id`, a trimmed `title`,
 * a safe `href` and a trimmed `excerpt`.
 *
 * Returns: (transfer full) (nullable): the normalised source, or %NULL
 */
AkcJsonValue *
akc_ask_backend_source_validate (AkcJsonValue *value)
{
  g_return_val_if_fail (value != NULL, NULL);

  return validate (&source_table, value);
}

/* akc_ask_backend_usage_validate:
 * @value: a usage report
 *
 * Validates a usage report ([protocol §7.5](wire-formats.html#protocol-7)): optional non-negative
 * integer token counts, a non-negative `costUsd` and a trimmed `model`.
 *
 * Returns: (transfer full) (nullable): the normalised usage, or %NULL
 */
AkcJsonValue *
akc_ask_backend_usage_validate (AkcJsonValue *value)
{
  g_return_val_if_fail (value != NULL, NULL);

  return validate (&usage_table, value);
}

/* akc_ask_backend_session_record_validate:
 * @value: a session record
 *
 * Validates a persisted Ask session record ([protocol §7.6](wire-formats.html#protocol-7)): a
 * non-negative integer `revision` and at most 64 `messages`.
 *
 * Returns: (transfer full) (nullable): the normalised record, or %NULL
 */
AkcJsonValue *
akc_ask_backend_session_record_validate (AkcJsonValue *value)
{
  g_return_val_if_fail (value != NULL, NULL);

  return validate (&session_table, value);
}

/* akc_ask_backend_diagnostic_validate:
 * @value: a backend diagnostic
 *
 * Validates a backend diagnostic ([protocol §7.7](wire-formats.html#protocol-7)): one of the eleven
 * `ASK_*` codes, a trimmed `message` and `retryable`.
 *
 * Returns: (transfer full) (nullable): the normalised diagnostic, or %NULL
 */
AkcJsonValue *
akc_ask_backend_diagnostic_validate (AkcJsonValue *value)
{
  g_return_val_if_fail (value != NULL, NULL);

  return validate (&diagnostic_table, value);
}

/* akc_ask_backend_metric_validate:
 * @value: a metric
 *
 * Validates a privacy-safe backend metric, `agentskit.chat.backend-metric`
 * v1 ([protocol §7.8](wire-formats.html#protocol-7)).
 *
 * Returns: (transfer full) (nullable): the normalised metric, or %NULL
 */
AkcJsonValue *
akc_ask_backend_metric_validate (AkcJsonValue *value)
{
  g_return_val_if_fail (value != NULL, NULL);

  return validate (&metric_table, value);
}
