/* akc-turn.c: turn events (protocol §2.1–§2.7, §2.9.7)
 *
 * SPDX-License-Identifier: MIT
 */

#include "config.h"

#include <string.h>

#include "akc-message-record-private.h"
#include "akc-schema-private.h"
#include "akc-text-private.h"
#include "akc-turn.h"
#include "akc-turn-private.h"

G_DEFINE_ENUM_TYPE (AkcTurnEventKind, akc_turn_event_kind,
  G_DEFINE_ENUM_VALUE (AKC_TURN_EVENT_KIND_SUBMIT, "submit"),
  G_DEFINE_ENUM_VALUE (AKC_TURN_EVENT_KIND_SNAPSHOT, "snapshot"),
  G_DEFINE_ENUM_VALUE (AKC_TURN_EVENT_KIND_DIAGNOSTIC, "diagnostic"))

#define CODE_INVALID_PAYLOAD      "PROTOCOL_INVALID_PAYLOAD"
#define CODE_UNSUPPORTED_VERSION  "PROTOCOL_UNSUPPORTED_VERSION"
#define CODE_UNKNOWN_EVENT        "PROTOCOL_UNKNOWN_EVENT"
#define MESSAGE_NOT_JSON          "Turn event is not valid JSON."
#define MESSAGE_INVALID_PAYLOAD   "Turn event payload is invalid."
#define MESSAGE_UNSUPPORTED       "Turn event uses an unsupported protocol version."
#define MESSAGE_UNKNOWN_EVENT     "Turn event kind is unknown."

/* Indexed by AkcTurnEventKind. */
static const char * const event_names[] = {
  "client.turn.submit",
  "server.turn.snapshot",
  "server.turn.diagnostic",
  NULL
};

/* ------------------------------------------------------------------ */
/* Tables (§2.1–§2.5)                                                  */
/* ------------------------------------------------------------------ */

/* Set, for the duration of one validation on this thread, by
 * akc_turn_validate_with_messages(): the records are already validated
 * and `messages` is a placeholder. */
static _Thread_local AkcJsonValue *validated_messages;

static gboolean
validate_messages (const AkcSchemaType *type,
                   AkcJsonValue        *value,
                   const AkcJsonValue  *parent,
                   AkcJsonValue       **out)
{
  if (validated_messages != NULL)
    {
      if (!AKC_JSON_IS_ARRAY (value) || AKC_JSON_LEN (value) != 0)
        return FALSE;
      if (out != NULL)
        *out = akc_json_value_ref (validated_messages);
      return TRUE;
    }

  /* §2.9: the array is validated as the `messages` of a memory record. */
  return akc_message_records_validate (value, out);
}

static const AkcSchemaField usage_fields[] = {
  { "promptTokens",     AKC_SCHEMA_INT (0, AKC_SCHEMA_INT_MAX) },
  { "completionTokens", AKC_SCHEMA_INT (0, AKC_SCHEMA_INT_MAX) },
  /* not required to equal the sum */
  { "totalTokens",      AKC_SCHEMA_INT (0, AKC_SCHEMA_INT_MAX) },
};
static const AkcSchemaTable usage_table = AKC_SCHEMA_TABLE (usage_fields, AKC_SCHEMA_OPEN);

/* §2.4 TurnDiagnostic: the diagnostic payload and the snapshot `error`. */
static const AkcSchemaField diagnostic_fields[] = {
  { "version",   AKC_SCHEMA_NUMERIC_LITERAL (1) },
  { "code",      AKC_SCHEMA_PATTERN (akc_text_is_turn_code) },
  { "message",   AKC_SCHEMA_STRING (1, AKC_SCHEMA_UNBOUNDED) },
  { "retryable", AKC_SCHEMA_BOOL },
};
static const AkcSchemaTable diagnostic_table = AKC_SCHEMA_TABLE (diagnostic_fields, AKC_SCHEMA_OPEN);

/* §2.5 */
static const char * const mutation_operations[] = { "retry", "edit", "regenerate", NULL };
static const AkcSchemaField submit_lineage_fields[] = {
  { "operation",       AKC_SCHEMA_LITERAL ("submit") },
};
static const AkcSchemaField mutation_lineage_fields[] = {
  { "operation",       AKC_SCHEMA_ENUM (mutation_operations) },
  { "parentTurnId",    AKC_SCHEMA_PATTERN (akc_text_is_safe_id) },
  { "sourceMessageId", AKC_SCHEMA_PATTERN (akc_text_is_safe_id) },
};
static const AkcSchemaTable submit_lineage_table = AKC_SCHEMA_TABLE (submit_lineage_fields, AKC_SCHEMA_OPEN);
static const AkcSchemaTable mutation_lineage_table = AKC_SCHEMA_TABLE (mutation_lineage_fields, AKC_SCHEMA_OPEN);
static const AkcSchemaTable * const lineage_tables[] = {
  &submit_lineage_table, &mutation_lineage_table, NULL
};

/* §2.2 */
static const AkcSchemaField submit_payload_fields[] = {
  { "input", AKC_SCHEMA_NOT_BLANK (AKC_SCHEMA_UNBOUNDED) },
};
static const AkcSchemaTable submit_payload_table = AKC_SCHEMA_TABLE (submit_payload_fields, AKC_SCHEMA_OPEN);

/* §2.3 */
static const char * const snapshot_statuses[] = { "idle", "streaming", "complete", "error", NULL };
static const AkcSchemaField snapshot_payload_fields[] = {
  { "messages", AKC_SCHEMA_CUSTOM (validate_messages, NULL) },
  { "status",   AKC_SCHEMA_ENUM (snapshot_statuses) },
  { "usage",    AKC_SCHEMA_OBJECT (&usage_table) },
  /* no cross-check against status */
  { "error",    AKC_SCHEMA_OBJECT (&diagnostic_table), .optional = TRUE },
  { "lineage",  AKC_SCHEMA_UNION ("operation", lineage_tables), .optional = TRUE },
};
static const AkcSchemaTable snapshot_payload_table = AKC_SCHEMA_TABLE (snapshot_payload_fields, AKC_SCHEMA_OPEN);

/* Indexed by AkcTurnEventKind. */
static const AkcSchemaTable * const payload_tables[] = {
  &submit_payload_table,
  &snapshot_payload_table,
  &diagnostic_table,
};

static gboolean
find_kind (const AkcJsonValue *event,
           AkcTurnEventKind   *kind)
{
  guint i;

  if (!AKC_JSON_IS_STRING (event))
    return FALSE;

  for (i = 0; event_names[i] != NULL; i++)
    if (akc_json_string_equals (event, event_names[i]))
      {
        *kind = (AkcTurnEventKind) i;
        return TRUE;
      }

  return FALSE;
}

/* The payload table is selected by the sibling `event` (the reference's
 * discriminated union over the three event schemas). */
static gboolean
validate_payload (const AkcSchemaType *type,
                  AkcJsonValue        *value,
                  const AkcJsonValue  *parent,
                  AkcJsonValue       **out)
{
  AkcTurnEventKind kind;

  if (parent == NULL ||
      !find_kind (akc_json_object_lookup (parent, "event", 5, NULL), &kind))
    return FALSE;

  return akc_schema_validate_table (payload_tables[kind], value, out);
}

/* §2.1 */
static const AkcSchemaField event_fields[] = {
  { "protocol",  AKC_SCHEMA_LITERAL (AKC_TURN_PROTOCOL) },
  { "version",   AKC_SCHEMA_NUMERIC_LITERAL (AKC_TURN_PROTOCOL_VERSION) },
  { "eventId",   AKC_SCHEMA_PATTERN (akc_text_is_safe_id) },
  { "sessionId", AKC_SCHEMA_PATTERN (akc_text_is_safe_id) },
  { "turnId",    AKC_SCHEMA_PATTERN (akc_text_is_safe_id) },
  { "sequence",  AKC_SCHEMA_INT (0, AKC_SCHEMA_INT_MAX) },
  { "emittedAt", AKC_SCHEMA_PATTERN (akc_text_is_date_time) },
  { "event",     AKC_SCHEMA_ENUM (event_names) },
  { "payload",   AKC_SCHEMA_CUSTOM (validate_payload, NULL) },
};
static const AkcSchemaTable event_table = AKC_SCHEMA_TABLE (event_fields, AKC_SCHEMA_OPEN);

/* ------------------------------------------------------------------ */
/* Decoding (§2.6)                                                     */
/* ------------------------------------------------------------------ */

static inline AkcJsonValue *
lookup (const AkcJsonValue *object,
        const char         *name)
{
  return akc_json_object_lookup (object, name, strlen (name), NULL);
}

/* §2.6 eventId echo: only a string that is a SafeId (ASCII, no U+0000). */
static AkcDiagnostic *
diagnostic_new (const char         *code,
                const char         *message,
                const AkcJsonValue *candidate,
                const char         *field_path)
{
  const char *event_id = NULL;

  if (AKC_JSON_IS_OBJECT (candidate))
    {
      AkcJsonValue *v = lookup (candidate, "eventId");

      if (AKC_JSON_IS_STRING (v) && akc_text_is_safe_id (AKC_JSON_STR (v), AKC_JSON_STR_LEN (v)))
        event_id = AKC_JSON_STR (v);
    }

  return akc_diagnostic_new_with_field_path (code, message, FALSE, event_id, field_path);
}

static AkcJsonValue *
fail (AkcDiagnostic     **diagnostic,
      const char         *code,
      const char         *message,
      const AkcJsonValue *candidate)
{
  if (diagnostic != NULL)
    *diagnostic = diagnostic_new (code, message, candidate, NULL);
  return NULL;
}

/* What is wrong with @candidate, which step 4 rejected: the generic
 * explanation, followed into the payload the sibling `event` selects and
 * into the snapshot's message records
 * (`payload.messages[1].createdAt: not a UTC timestamp with milliseconds`). */
static char *
explain_event (AkcJsonValue *candidate)
{
  g_autoptr(GString) path = g_string_new (NULL);
  g_autofree char *reason = akc_schema_explain_table (&event_table, candidate, path);
  AkcJsonValue *payload = AKC_JSON_IS_OBJECT (candidate) ? lookup (candidate, "payload") : NULL;
  AkcTurnEventKind kind;

  if (payload != NULL && strcmp (path->str, ".payload") == 0 &&
      find_kind (lookup (candidate, "event"), &kind))
    {
      g_free (reason);
      reason = akc_schema_explain_table (payload_tables[kind], payload, path);
      if (kind == AKC_TURN_EVENT_KIND_SNAPSHOT && AKC_JSON_IS_OBJECT (payload) &&
          strcmp (path->str, ".payload.messages") == 0)
        {
          g_free (reason);
          reason = akc_message_records_explain (lookup (payload, "messages"), path);
        }
    }

  return g_strdup_printf ("%s: %s", path->len > 0 ? path->str + 1 : "(event)", reason);
}

AkcDiagnostic *
akc_turn_invalid_json_diagnostic (void)
{
  return akc_diagnostic_new (CODE_INVALID_PAYLOAD, MESSAGE_NOT_JSON, FALSE, NULL);
}

AkcJsonValue *
akc_turn_decode_candidate (AkcJsonValue   *candidate,
                           AkcDiagnostic **diagnostic)
{
  AkcJsonValue *event = NULL;

  if (AKC_JSON_IS_OBJECT (candidate) &&
      akc_json_string_equals (lookup (candidate, "protocol"), AKC_TURN_PROTOCOL))
    {
      AkcJsonValue *version = lookup (candidate, "version");

      if (AKC_JSON_IS_NUMBER (version))
        {
          AkcJsonValue *kind = lookup (candidate, "event");
          AkcTurnEventKind ignored;

          /* step 2: any other number, including 1.5 and ±Infinity */
          if (AKC_JSON_NUMBER (version) != AKC_TURN_PROTOCOL_VERSION)
            return fail (diagnostic, CODE_UNSUPPORTED_VERSION, MESSAGE_UNSUPPORTED, candidate);
          /* step 3: a string that names no event (a non-string falls through) */
          if (AKC_JSON_IS_STRING (kind) && !find_kind (kind, &ignored))
            return fail (diagnostic, CODE_UNKNOWN_EVENT, MESSAGE_UNKNOWN_EVENT, candidate);
        }
    }

  /* step 4 */
  g_assert (validated_messages == NULL);
  if (!akc_schema_validate_table (&event_table, candidate, &event))
    {
      if (diagnostic != NULL)
        {
          g_autofree char *field_path = explain_event (candidate);

          *diagnostic = diagnostic_new (CODE_INVALID_PAYLOAD, MESSAGE_INVALID_PAYLOAD, candidate, field_path);
        }
      return NULL;
    }

  return event;
}

AkcJsonValue *
akc_turn_validate_with_messages (AkcJsonValue *candidate,
                                 AkcJsonValue *messages)
{
  AkcJsonValue *event = NULL;
  gboolean ok;

  g_assert (AKC_JSON_IS_ARRAY (messages));
  g_assert (validated_messages == NULL);

  validated_messages = messages;
  ok = akc_schema_validate_table (&event_table, candidate, &event);
  validated_messages = NULL;

  return ok ? event : NULL;
}

/**
 * akc_turn_event_decode:
 * @text: the wire text of
 *   one turn event
 * @length: length of @text in bytes, or -1 if it is NUL-terminated
 * @diagnostic: (out) (optional) (nullable) (transfer full): return location
 *   for the diagnostic when @text is rejected
 *
 * Decodes one event of the turn protocol `agentskit.chat.turn` v1
 * (`decodeTurnEvent`, [protocol §2.6](wire-formats.html#protocol-2)).
 *
 * @text is parsed with the strict JSON grammar of §1.2 (invalid UTF-8
 * inside strings becomes U+FFFD) and checked in this order, the first
 * failure winning:
 *
 * 1. not JSON: `PROTOCOL_INVALID_PAYLOAD`, "Turn event is not valid JSON.";
 * 2. the right `protocol` with a numeric `version` other than 1:
 *    `PROTOCOL_UNSUPPORTED_VERSION`;
 * 3. the right protocol and version with an unknown string `event`:
 *    `PROTOCOL_UNKNOWN_EVENT`;
 * 4. any schema failure (§2.1–§2.5, message records §2.9):
 *    `PROTOCOL_INVALID_PAYLOAD`, "Turn event payload is invalid.".
 *
 * Diagnostics of steps 2–4 carry the event's `eventId` when it is a
 * `SafeId`, and never any other part of the input.
 *
 * The result is the normalised event: unknown members dropped at every
 * open level, members in canonical order. It is immutable. To decode a
 * stream of snapshots of one conversation, [method@TurnDecoder.decode] gives
 * the same results faster.
 *
 * Returns: (transfer full) (nullable): the normalised event, or %NULL with
 *   @diagnostic set
 *
 * Since: 0.1
 */
AkcJsonValue *
akc_turn_event_decode (const char     *text,
                       gssize          length,
                       AkcDiagnostic **diagnostic)
{
  g_autoptr(AkcJsonValue) candidate = NULL;
  gsize len;

  g_return_val_if_fail (text != NULL || length == 0, NULL);
  g_return_val_if_fail (diagnostic == NULL || *diagnostic == NULL, NULL);

  len = length < 0 ? strlen (text) : (gsize) length;
  candidate = akc_json_parse (text != NULL ? text : "", len, NULL, NULL, NULL);
  if (candidate == NULL)
    {
      if (diagnostic != NULL)
        *diagnostic = akc_turn_invalid_json_diagnostic ();
      return NULL;
    }

  return akc_turn_decode_candidate (candidate, diagnostic);
}

/**
 * akc_turn_event_decode_utf8: (rename-to akc_turn_event_decode)
 * @text: the wire text of
 *   one turn event
 * @diagnostic: (out) (optional) (nullable) (transfer full): return location
 *   for the diagnostic when @text is rejected
 *
 * Does what akc_turn_event_decode() does, for NUL-terminated @text:
 * the form bindings see.
 *
 * Returns: (transfer full) (nullable): the normalised event, or %NULL with
 *   @diagnostic set
 *
 * Since: 0.1
 */
AkcJsonValue *
akc_turn_event_decode_utf8 (const char     *text,
                            AkcDiagnostic **diagnostic)
{
  return akc_turn_event_decode (text, -1, diagnostic);
}

/**
 * akc_turn_event_decode_value:
 * @value: an already parsed JSON value
 * @diagnostic: (out) (optional) (nullable) (transfer full): return location
 *   for the diagnostic when @value is rejected
 *
 * Decodes a turn event given as a value: the same as
 * [func@turn_event_decode] from step 2 on. A string value is not parsed
 * again: it is simply not an event.
 *
 * Returns: (transfer full) (nullable): the normalised event, or %NULL with
 *   @diagnostic set
 *
 * Since: 0.1
 */
AkcJsonValue *
akc_turn_event_decode_value (AkcJsonValue   *value,
                             AkcDiagnostic **diagnostic)
{
  g_return_val_if_fail (value != NULL, NULL);
  g_return_val_if_fail (diagnostic == NULL || *diagnostic == NULL, NULL);

  return akc_turn_decode_candidate (value, diagnostic);
}

static gboolean
validate_or_error (AkcJsonValue  *event,
                   AkcJsonValue **out,
                   GError       **error)
{
  g_assert (validated_messages == NULL);

  if (akc_schema_validate_table (&event_table, event, out))
    return TRUE;

  g_set_error_literal (error, AKC_PROTOCOL_ERROR, AKC_PROTOCOL_ERROR_PROTOCOL_INVALID_PAYLOAD,
                       MESSAGE_INVALID_PAYLOAD);
  return FALSE;
}

/**
 * akc_turn_event_encode:
 * @event: a turn event
 * @length: (out) (optional): return location for the length in bytes
 * @error: return location for a #GError, or %NULL
 *
 * Encodes a turn event as its canonical wire text (`encodeTurnEvent`,
 * [protocol §2.7](wire-formats.html#protocol-2)): @event is validated exactly as decoding does (step 4)
 * and its normalised form is written without whitespace, members in the
 * order of §2.1–§2.5 and §2.9.4. Decoding the text gives the normalised
 * event back. The text holds no NUL byte (U+0000 is written `\u0000`).
 *
 * An invalid @event is a programming error: nothing is written and @error
 * is set to %AKC_PROTOCOL_ERROR_PROTOCOL_INVALID_PAYLOAD.
 *
 * Returns: (transfer full) (nullable): the wire text, or %NULL with @error set
 *
 * Since: 0.1
 */
char *
akc_turn_event_encode (AkcJsonValue  *event,
                       gsize         *length,
                       GError       **error)
{
  g_autoptr(AkcJsonValue) normalised = NULL;

  g_return_val_if_fail (event != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  if (!validate_or_error (event, &normalised, error))
    return NULL;

  return akc_json_value_to_canonical (normalised, length);
}

/**
 * akc_turn_event_encode_utf8: (rename-to akc_turn_event_encode)
 * @event: a turn event
 * @error: return location for a #GError, or %NULL
 *
 * Does what akc_turn_event_encode() does, without the
 * length out-parameter: the form bindings see. The text ends at its
 * first U+0000.
 *
 * Returns: (transfer full) (nullable): the wire text, or %NULL with @error set
 *
 * Since: 0.1
 */
char *
akc_turn_event_encode_utf8 (AkcJsonValue  *event,
                            GError       **error)
{
  return akc_turn_event_encode (event, NULL, error);
}

/**
 * akc_turn_event_get_kind:
 * @event: a decoded turn event
 * @kind: (out) (optional): return location for the kind
 *
 * Tells which of the three events @event is, from its `event` member.
 *
 * Returns: %TRUE if @event is an object whose `event` names a turn event
 *
 * Since: 0.1
 */
gboolean
akc_turn_event_get_kind (AkcJsonValue     *event,
                         AkcTurnEventKind *kind)
{
  AkcTurnEventKind k;

  g_return_val_if_fail (event != NULL, FALSE);

  if (!AKC_JSON_IS_OBJECT (event) || !find_kind (lookup (event, "event"), &k))
    return FALSE;

  if (kind != NULL)
    *kind = k;
  return TRUE;
}

/* ------------------------------------------------------------------ */
/* Snapshots (§2.7, §2.9.7)                                            */
/* ------------------------------------------------------------------ */

static gboolean
validate_snapshot (AkcJsonValue  *event,
                   AkcJsonValue **out,
                   GError       **error)
{
  g_autoptr(AkcJsonValue) normalised = NULL;
  AkcTurnEventKind kind;

  if (!validate_or_error (event, &normalised, error))
    return FALSE;

  if (!akc_turn_event_get_kind (normalised, &kind) || kind != AKC_TURN_EVENT_KIND_SNAPSHOT)
    {
      g_set_error_literal (error, AKC_PROTOCOL_ERROR, AKC_PROTOCOL_ERROR_PROTOCOL_INVALID_PAYLOAD,
                           MESSAGE_INVALID_PAYLOAD);
      return FALSE;
    }

  *out = g_steal_pointer (&normalised);
  return TRUE;
}

/**
 * akc_turn_snapshot_messages:
 * @event: a `server.turn.snapshot` event
 * @error: return location for a #GError, or %NULL
 *
 * Validates @event again as a snapshot and returns its messages in their
 * in-memory form (`snapshotMessages`, [protocol §2.9.7](wire-formats.html#protocol-2)), with `createdAt`
 * as a #GDateTime in UTC.
 *
 * Anything that is not a valid snapshot fails with
 * %AKC_PROTOCOL_ERROR_PROTOCOL_INVALID_PAYLOAD. A `createdAt` in the year
 * 0000 is valid on the wire but cannot be held by a #GDateTime; such a
 * snapshot fails too.
 *
 * The array owns its records (its free function releases them): free it
 * with g_ptr_array_unref().
 *
 * Returns: (transfer container) (element-type AkcMessageRecord) (nullable):
 *   the messages in snapshot order, or %NULL with @error set
 *
 * Since: 0.1
 */
GPtrArray *
akc_turn_snapshot_messages (AkcJsonValue  *event,
                            GError       **error)
{
  g_autoptr(AkcJsonValue) snapshot = NULL;
  g_autoptr(GPtrArray) records = NULL;
  AkcJsonValue *messages;
  gsize i;

  g_return_val_if_fail (event != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  if (!validate_snapshot (event, &snapshot, error))
    return NULL;

  messages = lookup (lookup (snapshot, "payload"), "messages");
  records = g_ptr_array_new_full (AKC_JSON_LEN (messages), (GDestroyNotify) akc_message_record_unref);
  for (i = 0; i < AKC_JSON_LEN (messages); i++)
    {
      AkcMessageRecord *record = akc_message_record_new_validated (AKC_JSON_ELEMENT (messages, i), error);

      if (record == NULL)
        return NULL;
      g_ptr_array_add (records, record);
    }

  return g_steal_pointer (&records);
}

static AkcJsonValue *
string_value (const char *s)
{
  return akc_json_string_new_len (s, strlen (s));
}

/* akc_turn_create_snapshot_event:
 * @event_id: the event id, a `SafeId`
 * @session_id: the session id, a `SafeId`
 * @turn_id: the turn id, a `SafeId`
 * @sequence: the sequence number, 0 to 2^53 − 1
 * @emitted_at: when the event is emitted, an ISO 8601 date-time
 *   ([protocol §1.6](wire-formats.html#protocol-1) `DateTime`)
 * @messages: the conversation, in order
 * @n_messages: the number of @messages
 * @status: `idle`, `streaming`, `complete` or `error`
 * @usage: the token usage object (`promptTokens`, `completionTokens`,
 *   `totalTokens`)
 * @lineage: the lineage object (§2.5), or %NULL
 * @error_payload: the error object (a TurnDiagnostic, §2.4),
 *   or %NULL
 * @error: return location for a #GError, or %NULL
 *
 * The helper of a turn server (akc-server), private until a host needs
 * one. Builds a `server.turn.snapshot` event from in-memory messages
 * (`createSnapshotEvent`, [protocol §2.7](wire-formats.html#protocol-2)): each message becomes its wire
 * record, `lineage` and `error` are included only when given, and the
 * result is validated as decoding does.
 *
 * Invalid arguments are a programming error: %NULL is returned and @error
 * is set to %AKC_PROTOCOL_ERROR_PROTOCOL_INVALID_PAYLOAD.
 *
 * Returns: (transfer full): the normalised snapshot event, or
 *   %NULL with @error set
 */
AkcJsonValue *
akc_turn_create_snapshot_event (const char              *event_id,
                                const char              *session_id,
                                const char              *turn_id,
                                gint64                   sequence,
                                const char              *emitted_at,
                                AkcMessageRecord * const *messages,
                                gsize                    n_messages,
                                const char              *status,
                                AkcJsonValue            *usage,
                                AkcJsonValue            *lineage,
                                AkcJsonValue            *error_payload,
                                GError                 **error)
{
  g_autoptr(AkcJsonValue) candidate = NULL;
  g_autoptr(AkcJsonValue) event = NULL;
  g_autofree AkcJsonValue **records = NULL;
  AkcJsonMemberInit payload[5];
  AkcJsonMemberInit envelope[9];
  gsize n_payload = 0;
  gsize i;

  g_return_val_if_fail (event_id != NULL, NULL);
  g_return_val_if_fail (session_id != NULL, NULL);
  g_return_val_if_fail (turn_id != NULL, NULL);
  g_return_val_if_fail (emitted_at != NULL, NULL);
  g_return_val_if_fail (messages != NULL || n_messages == 0, NULL);
  g_return_val_if_fail (status != NULL, NULL);
  g_return_val_if_fail (usage != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  if (!g_utf8_validate (event_id, -1, NULL) || !g_utf8_validate (session_id, -1, NULL) ||
      !g_utf8_validate (turn_id, -1, NULL) || !g_utf8_validate (emitted_at, -1, NULL) ||
      !g_utf8_validate (status, -1, NULL) || n_messages > G_MAXUINT32)
    {
      g_set_error_literal (error, AKC_PROTOCOL_ERROR, AKC_PROTOCOL_ERROR_PROTOCOL_INVALID_PAYLOAD,
                           MESSAGE_INVALID_PAYLOAD);
      return NULL;
    }

  for (i = 0; i < n_messages; i++)
    g_return_val_if_fail (messages[i] != NULL, NULL);

  records = g_new (AkcJsonValue *, MAX (n_messages, 1));
  for (i = 0; i < n_messages; i++)
    records[i] = akc_message_record_to_value (messages[i]);

  payload[n_payload++] = (AkcJsonMemberInit) { "messages", 8, akc_json_array_new_steal (records, n_messages) };
  payload[n_payload++] = (AkcJsonMemberInit) { "status", 6, string_value (status) };
  payload[n_payload++] = (AkcJsonMemberInit) { "usage", 5, akc_json_value_ref (usage) };
  if (lineage != NULL)
    payload[n_payload++] = (AkcJsonMemberInit) { "lineage", 7, akc_json_value_ref (lineage) };
  if (error_payload != NULL)
    payload[n_payload++] = (AkcJsonMemberInit) { "error", 5, akc_json_value_ref (error_payload) };

  envelope[0] = (AkcJsonMemberInit) { "protocol", 8, string_value (AKC_TURN_PROTOCOL) };
  envelope[1] = (AkcJsonMemberInit) { "version", 7, akc_json_value_new_number (AKC_TURN_PROTOCOL_VERSION) };
  envelope[2] = (AkcJsonMemberInit) { "eventId", 7, string_value (event_id) };
  envelope[3] = (AkcJsonMemberInit) { "sessionId", 9, string_value (session_id) };
  envelope[4] = (AkcJsonMemberInit) { "turnId", 6, string_value (turn_id) };
  envelope[5] = (AkcJsonMemberInit) { "sequence", 8, akc_json_value_new_number ((double) sequence) };
  envelope[6] = (AkcJsonMemberInit) { "emittedAt", 9, string_value (emitted_at) };
  envelope[7] = (AkcJsonMemberInit) { "event", 5, string_value (event_names[AKC_TURN_EVENT_KIND_SNAPSHOT]) };
  envelope[8] = (AkcJsonMemberInit) { "payload", 7,
                                      akc_json_object_new_steal (payload, n_payload, TRUE, AKC_JSON_FLAG_STATIC_NAMES) };
  candidate = akc_json_object_new_steal (envelope, G_N_ELEMENTS (envelope), TRUE, AKC_JSON_FLAG_STATIC_NAMES);

  if (!validate_snapshot (candidate, &event, error))
    return NULL;

  return g_steal_pointer (&event);
}
