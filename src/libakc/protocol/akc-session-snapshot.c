/* akc-session-snapshot.c: application session snapshots (protocol §5)
 *
 * SPDX-License-Identifier: MIT
 */

#include "config.h"

#include <string.h>

#include "akc-json-private.h"
#include "akc-schema-private.h"
#include "akc-session-snapshot.h"
#include "akc-text-private.h"

#define CODE_INVALID          "SESSION_INVALID_SNAPSHOT"
#define CODE_UNSUPPORTED      "SESSION_UNSUPPORTED_VERSION"
#define MESSAGE_NOT_JSON      "Session snapshot is not valid JSON."
#define MESSAGE_INVALID       "Session snapshot payload is invalid."
#define MESSAGE_UNSUPPORTED   "Session snapshot uses an unsupported version."

#define SAFE_ID AKC_SCHEMA_PATTERN (akc_text_is_safe_id)

/* §5.1 ActiveTurn, TerminalTurn */
static const AkcSchemaField active_turn_fields[] = {
  { "turnId",    SAFE_ID },
  { "expiresAt", AKC_SCHEMA_INT (0, AKC_SCHEMA_INT_MAX) },
};
static const AkcSchemaTable active_turn_table = AKC_SCHEMA_TABLE (active_turn_fields, AKC_SCHEMA_OPEN);

static const char * const outcomes[] = { "completed", "indeterminate", NULL };
static const AkcSchemaField terminal_turn_fields[] = {
  { "turnId",  SAFE_ID },
  { "outcome", AKC_SCHEMA_ENUM (outcomes) },
};
static const AkcSchemaTable terminal_turn_table = AKC_SCHEMA_TABLE (terminal_turn_fields, AKC_SCHEMA_OPEN);
static const char * const terminal_turn_unique[] = { "turnId", NULL };

/* §5.2 Decision */
static const char * const decision_kinds[] = { "deterministic", "repaired", "fallback", NULL };
static const AkcSchemaField decision_fields[] = {
  { "messageId", SAFE_ID },
  { "input",     AKC_SCHEMA_STRING (0, 16384) },
  { "routeId",   SAFE_ID },
  { "kind",      AKC_SCHEMA_ENUM (decision_kinds) },
  { "content",   AKC_SCHEMA_STRING (0, 65536) },
  { "fromState", AKC_SCHEMA_STRING (1, 128) },
  { "toState",   AKC_SCHEMA_STRING (1, 128) },
};
static const AkcSchemaTable decision_table = AKC_SCHEMA_TABLE (decision_fields, AKC_SCHEMA_OPEN);
static const char * const decision_unique[] = { "messageId", NULL };

/* §5.1 Conversation */
static const AkcSchemaField conversation_fields[] = {
  { "state",     AKC_SCHEMA_STRING (1, 128) },
  { "decisions", AKC_SCHEMA_ARRAY_UNIQUE (&AKC_SCHEMA_TYPE (AKC_SCHEMA_OBJECT (&decision_table)),
                                          0, 1000, decision_unique) },
};
static const AkcSchemaTable conversation_table = AKC_SCHEMA_TABLE (conversation_fields, AKC_SCHEMA_OPEN);

/* §5.3 Confirmation */
static const char * const confirmation_statuses[] = {
  "pending", "approving", "rejecting", "expiring", "approved", "rejected", "expired", NULL
};
static const AkcSchemaField confirmation_fields[] = {
  { "token",      SAFE_ID },
  { "action",     SAFE_ID },
  /* a map (arrays rejected, `__proto__` not copied), bounded as a whole (§1.9) */
  { "input",      AKC_SCHEMA_MAP (AKC_SCHEMA_UNBOUNDED, &akc_bjv_default_limits) },
  { "toolCallId", SAFE_ID },
  { "expiresAt",  AKC_SCHEMA_INT (0, AKC_SCHEMA_INT_MAX) },
  { "status",     AKC_SCHEMA_ENUM (confirmation_statuses) },
};
static const AkcSchemaTable confirmation_table = AKC_SCHEMA_TABLE (confirmation_fields, AKC_SCHEMA_OPEN);
static const char * const confirmation_unique[] = { "token", "toolCallId", NULL };

/* §5.1 members 3–11, shared by v1 and the legacy v0 shape (§5.4). */
#define SESSION_FIELDS \
  { "sessionId",          SAFE_ID }, \
  { "definitionId",       SAFE_ID }, \
  { "definitionRevision", AKC_SCHEMA_INT_GT (0, AKC_SCHEMA_INT_MAX) }, \
  { "updatedAt",          AKC_SCHEMA_PATTERN (akc_text_is_date_time) }, \
  { "cursor",             AKC_SCHEMA_INT (0, AKC_SCHEMA_INT_MAX) }, \
  { "activeTurn",         AKC_SCHEMA_OBJECT (&active_turn_table), .optional = TRUE }, \
  { "terminalTurns",      AKC_SCHEMA_ARRAY_UNIQUE (&AKC_SCHEMA_TYPE (AKC_SCHEMA_OBJECT (&terminal_turn_table)), \
                                                   0, 64, terminal_turn_unique), .optional = TRUE }, \
  { "conversation",       AKC_SCHEMA_OBJECT (&conversation_table), .optional = TRUE }, \
  { "confirmations",      AKC_SCHEMA_ARRAY_UNIQUE (&AKC_SCHEMA_TYPE (AKC_SCHEMA_OBJECT (&confirmation_table)), \
                                                   0, 1000, confirmation_unique) }

static const AkcSchemaField v1_fields[] = {
  { "protocol", AKC_SCHEMA_LITERAL (AKC_SESSION_PROTOCOL) },
  { "version",  AKC_SCHEMA_NUMERIC_LITERAL (AKC_SESSION_PROTOCOL_VERSION) },
  SESSION_FIELDS,
};
static const AkcSchemaTable v1_table = AKC_SCHEMA_TABLE (v1_fields, AKC_SCHEMA_OPEN);

/* §5.4: no `protocol` (dropped whatever its value), version 0. The version
 * comes first so that migration can replace it in place. */
static const AkcSchemaField v0_fields[] = {
  { "version",  AKC_SCHEMA_NUMERIC_LITERAL (0) },
  SESSION_FIELDS,
};
static const AkcSchemaTable v0_table = AKC_SCHEMA_TABLE (v0_fields, AKC_SCHEMA_OPEN);

static AkcJsonValue *
fail (AkcDiagnostic **diagnostic,
      const char     *code,
      const char     *message)
{
  if (diagnostic != NULL)
    *diagnostic = akc_diagnostic_new (code, message, FALSE, NULL);
  return NULL;
}

/* §5.5 step 4: the v0 value with `protocol` and `version: 1`, in §5.1 order. */
static AkcJsonValue *
migrate (const AkcJsonValue *legacy)
{
  g_autofree AkcJsonMemberInit *members = NULL;
  gsize n = AKC_JSON_LEN (legacy);
  gsize i;

  g_assert (n >= 1 && strcmp (AKC_JSON_MEMBER (legacy, 0)->name, "version") == 0);

  members = g_new (AkcJsonMemberInit, n + 1);
  members[0] = (AkcJsonMemberInit) {
    "protocol", 8, akc_json_string_new_len (AKC_SESSION_PROTOCOL, strlen (AKC_SESSION_PROTOCOL))
  };
  members[1] = (AkcJsonMemberInit) {
    "version", 7, akc_json_value_new_number (AKC_SESSION_PROTOCOL_VERSION)
  };
  for (i = 1; i < n; i++)
    {
      const AkcJsonMember *m = AKC_JSON_MEMBER (legacy, i);

      members[i + 1] = (AkcJsonMemberInit) { m->name, m->name_len, akc_json_value_ref (m->value) };
    }

  /* The names are the static table names of the normalised v0 value. */
  return akc_json_object_new_steal (members, n + 1, TRUE, AKC_JSON_FLAG_STATIC_NAMES);
}

/**
 * akc_session_snapshot_decode_value:
 * @value: an already parsed JSON value
 * @diagnostic: (out) (optional) (nullable) (transfer full): return location
 *   for the diagnostic when @value is rejected
 *
 * Decodes a session snapshot given as a value: the same as
 * [func@Session.snapshot_decode] from step 2 on.
 *
 * Returns: (transfer full) (nullable): the normalised v1 snapshot, or %NULL
 *   with @diagnostic set
 *
 * Since: 0.1
 */
AkcJsonValue *
akc_session_snapshot_decode_value (AkcJsonValue   *value,
                                   AkcDiagnostic **diagnostic)
{
  g_autoptr(AkcJsonValue) legacy = NULL;
  AkcJsonValue *snapshot = NULL;

  g_return_val_if_fail (value != NULL, NULL);
  g_return_val_if_fail (diagnostic == NULL || *diagnostic == NULL, NULL);

  /* step 2: no protocol check here ({"version": 9} alone is unsupported) */
  if (AKC_JSON_IS_OBJECT (value))
    {
      AkcJsonValue *version = akc_json_object_lookup (value, "version", 7, NULL);

      if (AKC_JSON_IS_NUMBER (version) &&
          AKC_JSON_NUMBER (version) != 0 &&
          AKC_JSON_NUMBER (version) != AKC_SESSION_PROTOCOL_VERSION)
        return fail (diagnostic, CODE_UNSUPPORTED, MESSAGE_UNSUPPORTED);
    }

  /* step 3 */
  if (akc_schema_validate_table (&v1_table, value, &snapshot))
    return snapshot;

  /* step 4 */
  if (akc_schema_validate_table (&v0_table, value, &legacy))
    return migrate (legacy);

  /* step 5, naming what fails against the current version */
  if (diagnostic != NULL)
    {
      static const AkcSchemaType v1_type = AKC_SCHEMA_OBJECT (&v1_table);
      g_autofree char *field_path = akc_schema_explain_field_path (&v1_type, value, "(snapshot)");

      *diagnostic = akc_diagnostic_new_with_field_path (CODE_INVALID, MESSAGE_INVALID, FALSE, NULL, field_path);
    }
  return NULL;
}

/**
 * akc_session_snapshot_decode:
 * @text: the text of one
 *   session snapshot
 * @length: length of @text in bytes, or -1 if it is NUL-terminated
 * @diagnostic: (out) (optional) (nullable) (transfer full): return location
 *   for the diagnostic when @text is rejected
 *
 * Decodes the persistent metadata of one chat session
 * (`decodeSessionSnapshot`, [protocol §5.5](wire-formats.html#protocol-5)), first failure winning:
 *
 * 1. not JSON: `SESSION_INVALID_SNAPSHOT`, "Session snapshot is not valid
 *    JSON.";
 * 2. an object whose `version` is a number other than 0 and 1:
 *    `SESSION_UNSUPPORTED_VERSION`;
 * 3. a valid v1 snapshot (§5.1–§5.3): the normalised snapshot;
 * 4. a valid legacy v0 snapshot (§5.4): migrated to v1, with
 *    `protocol` and `version: 1`, members in §5.1 order;
 * 5. otherwise `SESSION_INVALID_SNAPSHOT`, "Session snapshot payload is
 *    invalid.".
 *
 * Returns: (transfer full) (nullable): the normalised v1 snapshot, or %NULL
 *   with @diagnostic set
 *
 * Since: 0.1
 */
AkcJsonValue *
akc_session_snapshot_decode (const char     *text,
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
    return fail (diagnostic, CODE_INVALID, MESSAGE_NOT_JSON);

  return akc_session_snapshot_decode_value (candidate, diagnostic);
}

/**
 * akc_session_snapshot_decode_utf8: (rename-to akc_session_snapshot_decode)
 * @text: the text of one
 *   session snapshot
 * @diagnostic: (out) (optional) (nullable) (transfer full): return location
 *   for the diagnostic when @text is rejected
 *
 * Does what akc_session_snapshot_decode() does, for NUL-terminated @text:
 * the form bindings see.
 *
 * Returns: (transfer full) (nullable): the normalised v1 snapshot, or %NULL
 *   with @diagnostic set
 *
 * Since: 0.1
 */
AkcJsonValue *
akc_session_snapshot_decode_utf8 (const char     *text,
                                  AkcDiagnostic **diagnostic)
{
  return akc_session_snapshot_decode (text, -1, diagnostic);
}

/**
 * akc_session_snapshot_encode:
 * @snapshot: a v1 session snapshot
 * @length: (out) (optional): return location for the length in bytes
 * @error: return location for a #GError, or %NULL
 *
 * Writes @snapshot as canonical JSON ([protocol §1.10](wire-formats.html#protocol-1), §5.5): it is
 * validated as a v1 snapshot and its normalised form written without
 * whitespace, members in §5.1 order.
 *
 * An invalid @snapshot (including a v0 one: decode it first) is a
 * programming error: nothing is written and @error is set to
 * %AKC_PROTOCOL_ERROR_SESSION_INVALID_SNAPSHOT.
 *
 * Returns: (transfer full) (nullable): the text, or %NULL with @error set
 *
 * Since: 0.1
 */
char *
akc_session_snapshot_encode (AkcJsonValue  *snapshot,
                             gsize         *length,
                             GError       **error)
{
  g_autoptr(AkcJsonValue) normalised = NULL;

  g_return_val_if_fail (snapshot != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  if (!akc_schema_validate_table (&v1_table, snapshot, &normalised))
    {
      g_set_error_literal (error, AKC_PROTOCOL_ERROR, AKC_PROTOCOL_ERROR_SESSION_INVALID_SNAPSHOT,
                           MESSAGE_INVALID);
      return NULL;
    }

  return akc_json_value_to_canonical (normalised, length);
}

/**
 * akc_session_snapshot_encode_utf8: (rename-to akc_session_snapshot_encode)
 * @snapshot: a v1 session snapshot
 * @error: return location for a #GError, or %NULL
 *
 * Does what akc_session_snapshot_encode() does, without the
 * length out-parameter: the form bindings see. The text ends at its
 * first U+0000.
 *
 * Returns: (transfer full) (nullable): the text, or %NULL with @error set
 *
 * Since: 0.1
 */
char *
akc_session_snapshot_encode_utf8 (AkcJsonValue  *snapshot,
                                  GError       **error)
{
  return akc_session_snapshot_encode (snapshot, NULL, error);
}
