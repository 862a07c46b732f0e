/* akc-component-frame.c: render frames, selection and interaction events
 * (protocol §3)
 *
 * SPDX-License-Identifier: MIT
 */

#include "config.h"

#include <string.h>

#include "akc-component-frame.h"
#include "akc-component-frame-private.h"
#include "akc-json-private.h"
#include "akc-schema-private.h"
#include "akc-text-private.h"

/* §3.2 */
static const AkcSchemaField fallback_fields[] = {
  { "kind",    AKC_SCHEMA_STRING (1, 64) },
  { "summary", AKC_SCHEMA_STRING (1, 4096) },
};
static const AkcSchemaTable fallback_table = AKC_SCHEMA_TABLE (fallback_fields, AKC_SCHEMA_OPEN);

/* §3.1 */
static const AkcSchemaField frame_fields[] = {
  { "protocol",     AKC_SCHEMA_LITERAL (AKC_COMPONENT_PROTOCOL) },
  { "version",      AKC_SCHEMA_NUMERIC_LITERAL (AKC_COMPONENT_PROTOCOL_VERSION) },
  { "type",         AKC_SCHEMA_LITERAL ("render") },
  { "componentKey", AKC_SCHEMA_PATTERN (akc_text_is_component_key) },
  { "instanceId",   AKC_SCHEMA_PATTERN (akc_text_is_safe_id) },
  { "props",        AKC_SCHEMA_BJV (&akc_bjv_default_limits) },
  { "fallback",     AKC_SCHEMA_OBJECT (&fallback_table) },
};
const AkcSchemaTable akc_component_frame_table = AKC_SCHEMA_TABLE (frame_fields, AKC_SCHEMA_OPEN);

/* §3.3 */
static const AkcSchemaField selection_fields[] = {
  { "protocol",     AKC_SCHEMA_LITERAL (AKC_COMPONENT_PROTOCOL) },
  { "version",      AKC_SCHEMA_NUMERIC_LITERAL (AKC_COMPONENT_PROTOCOL_VERSION) },
  { "type",         AKC_SCHEMA_LITERAL ("select") },
  { "componentKey", AKC_SCHEMA_PATTERN (akc_text_is_component_key) },
  { "instanceId",   AKC_SCHEMA_PATTERN (akc_text_is_safe_id) },
  { "choiceId",     AKC_SCHEMA_PATTERN (akc_text_is_safe_id) },
};
static const AkcSchemaTable selection_table = AKC_SCHEMA_TABLE (selection_fields, AKC_SCHEMA_OPEN);

/* §3.4 */
static const AkcSchemaField interaction_fields[] = {
  { "protocol",     AKC_SCHEMA_LITERAL (AKC_COMPONENT_PROTOCOL) },
  { "version",      AKC_SCHEMA_NUMERIC_LITERAL (AKC_COMPONENT_PROTOCOL_VERSION) },
  { "type",         AKC_SCHEMA_LITERAL ("interact") },
  { "componentKey", AKC_SCHEMA_PATTERN (akc_text_is_component_key) },
  { "instanceId",   AKC_SCHEMA_PATTERN (akc_text_is_safe_id) },
  { "event",        AKC_SCHEMA_PATTERN (akc_text_is_component_key) },
  { "value",        AKC_SCHEMA_BJV (&akc_bjv_default_limits), .optional = TRUE },
};
static const AkcSchemaTable interaction_table = AKC_SCHEMA_TABLE (interaction_fields, AKC_SCHEMA_OPEN);

#define CODE_INVALID             "COMPONENT_INVALID_FRAME"
#define CODE_UNSUPPORTED_VERSION "COMPONENT_UNSUPPORTED_VERSION"
#define CODE_UNKNOWN_TYPE        "COMPONENT_UNKNOWN_TYPE"
#define MESSAGE_NOT_JSON         "Component frame is not valid JSON."
#define MESSAGE_INVALID          "Component frame payload is invalid."
#define MESSAGE_UNSUPPORTED      "Component frame uses an unsupported version."
#define MESSAGE_UNKNOWN_TYPE     "Component frame type is unknown."

static void
set_diagnostic (AkcDiagnostic **diagnostic,
                const char     *code,
                const char     *message)
{
  if (diagnostic != NULL)
    *diagnostic = akc_diagnostic_new (code, message, FALSE, NULL);
}

static gboolean
has_component_protocol (const AkcJsonValue *candidate)
{
  return AKC_JSON_IS_OBJECT (candidate) &&
         akc_json_string_equals (akc_json_object_lookup (candidate, "protocol", 8, NULL),
                                 AKC_COMPONENT_PROTOCOL);
}

/* §3.5 steps 2–4 on a parsed candidate. */
static AkcJsonValue *
decode_candidate (AkcJsonValue   *candidate,
                  AkcDiagnostic **diagnostic)
{
  AkcJsonValue *frame = NULL;

  if (has_component_protocol (candidate))
    {
      AkcJsonValue *version = akc_json_object_lookup (candidate, "version", 7, NULL);
      AkcJsonValue *type = akc_json_object_lookup (candidate, "type", 4, NULL);

      /* Step 2.1: only a *number* other than 1; a missing or string
       * version falls through to step 2.2 (§10 item 12). */
      if (AKC_JSON_IS_NUMBER (version) && AKC_JSON_NUMBER (version) != AKC_COMPONENT_PROTOCOL_VERSION)
        {
          set_diagnostic (diagnostic, CODE_UNSUPPORTED_VERSION, MESSAGE_UNSUPPORTED);
          return NULL;
        }
      if (!akc_json_string_equals (type, "render"))
        {
          set_diagnostic (diagnostic, CODE_UNKNOWN_TYPE, MESSAGE_UNKNOWN_TYPE);
          return NULL;
        }
    }

  if (!akc_schema_validate_table (&akc_component_frame_table, candidate, &frame))
    {
      if (diagnostic != NULL)
        {
          static const AkcSchemaType frame_type = AKC_SCHEMA_OBJECT (&akc_component_frame_table);
          g_autofree char *field_path = akc_schema_explain_field_path (&frame_type, candidate, "(frame)");

          *diagnostic = akc_diagnostic_new_with_field_path (CODE_INVALID, MESSAGE_INVALID, FALSE, NULL, field_path);
        }
      return NULL;
    }

  return frame;
}

/**
 * akc_component_frame_decode:
 * @text: the frame as JSON text
 * @length: length of @text in bytes, or -1 if it is NUL-terminated
 * @diagnostic: (out) (optional) (nullable) (transfer full): return location
 *   for the diagnostic on failure
 *
 * Decodes a component render frame (`decodeComponentFrame`, [protocol
 * §3.5](wire-formats.html#protocol-3)). The steps, first match wins:
 *
 * 1. text that is not JSON: `COMPONENT_INVALID_FRAME`,
 *    “Component frame is not valid JSON.”;
 * 2. an object whose `protocol` is `agentskit.chat.component`, with a
 *    numeric `version` other than 1: `COMPONENT_UNSUPPORTED_VERSION`; else,
 *    with a `type` other than `render` (even when `version` is missing or a
 *    string): `COMPONENT_UNKNOWN_TYPE`;
 * 3. anything failing the frame schema (§3.1, §3.2, bounded `props`):
 *    `COMPONENT_INVALID_FRAME`, “Component frame payload is invalid.”
 *
 * The envelope is checked only: the component key need not be registered
 * and `props` need not suit the component.
 *
 * Returns: (transfer full) (nullable): the normalised frame (unknown
 *   members dropped, members in canonical order), or %NULL with
 *   @diagnostic set
 *
 * Since: 0.1
 */
AkcJsonValue *
akc_component_frame_decode (const char     *text,
                            gssize          length,
                            AkcDiagnostic **diagnostic)
{
  g_autoptr(AkcJsonValue) candidate = NULL;

  g_return_val_if_fail (text != NULL || length == 0, NULL);
  g_return_val_if_fail (diagnostic == NULL || *diagnostic == NULL, NULL);

  if (length < 0)
    length = strlen (text);

  candidate = akc_json_parse (text, (gsize) length, NULL, NULL, NULL);
  if (candidate == NULL)
    {
      set_diagnostic (diagnostic, CODE_INVALID, MESSAGE_NOT_JSON);
      return NULL;
    }

  return decode_candidate (candidate, diagnostic);
}

/**
 * akc_component_frame_decode_utf8: (rename-to akc_component_frame_decode)
 * @text: the frame as JSON text
 * @diagnostic: (out) (optional) (nullable) (transfer full): return location
 *   for the diagnostic on failure
 *
 * Does what akc_component_frame_decode() does, for NUL-terminated @text:
 * the form bindings see.
 *
 * Returns: (transfer full) (nullable): the normalised frame (unknown
 *   members dropped, members in canonical order), or %NULL with
 *   @diagnostic set
 *
 * Since: 0.1
 */
AkcJsonValue *
akc_component_frame_decode_utf8 (const char     *text,
                                 AkcDiagnostic **diagnostic)
{
  return akc_component_frame_decode (text, -1, diagnostic);
}

/**
 * akc_component_frame_decode_value:
 * @value: an already parsed JSON value
 * @diagnostic: (out) (optional) (nullable) (transfer full): return location
 *   for the diagnostic on failure
 *
 * The value form of [func@component_frame_decode]: the same steps without
 * the JSON parse.
 *
 * Returns: (transfer full) (nullable): the normalised frame, or %NULL with
 *   @diagnostic set
 *
 * Since: 0.1
 */
AkcJsonValue *
akc_component_frame_decode_value (AkcJsonValue   *value,
                                  AkcDiagnostic **diagnostic)
{
  g_return_val_if_fail (value != NULL, NULL);
  g_return_val_if_fail (diagnostic == NULL || *diagnostic == NULL, NULL);

  return decode_candidate (value, diagnostic);
}

/**
 * akc_component_frame_is_candidate:
 * @text: a message content
 * @length: length of @text in bytes, or -1 if it is NUL-terminated
 *
 * Tells whether @text is JSON for an object whose `protocol` is
 * `agentskit.chat.component` (`isComponentFrameCandidate`, [protocol
 * §3.5](wire-formats.html#protocol-3)), that is, whether an assistant message is a whole-message
 * component frame rather than plain text. Text that is not JSON is not a
 * candidate.
 *
 * Returns: whether @text is a component frame candidate
 *
 * Since: 0.1
 */
gboolean
akc_component_frame_is_candidate (const char *text,
                                  gssize      length)
{
  g_autoptr(AkcJsonValue) candidate = NULL;

  g_return_val_if_fail (text != NULL || length == 0, FALSE);

  if (length < 0)
    length = strlen (text);

  candidate = akc_json_parse (text, (gsize) length, NULL, NULL, NULL);

  return candidate != NULL && has_component_protocol (candidate);
}

/**
 * akc_component_frame_is_candidate_utf8: (rename-to akc_component_frame_is_candidate)
 * @text: a message content
 *
 * Does what akc_component_frame_is_candidate() does, for NUL-terminated @text:
 * the form bindings see.
 *
 * Returns: whether @text is a component frame candidate
 *
 * Since: 0.1
 */
gboolean
akc_component_frame_is_candidate_utf8 (const char *text)
{
  return akc_component_frame_is_candidate (text, -1);
}

/**
 * akc_component_frame_is_candidate_value:
 * @value: a JSON value
 *
 * The value form of [func@component_frame_is_candidate].
 *
 * Returns: whether @value is an object whose `protocol` is
 *   `agentskit.chat.component`
 *
 * Since: 0.1
 */
gboolean
akc_component_frame_is_candidate_value (AkcJsonValue *value)
{
  g_return_val_if_fail (value != NULL, FALSE);

  return has_component_protocol (value);
}

/**
 * akc_component_frame_dup_fallback_text:
 * @frame: a decoded render frame
 *
 * Formats the text a renderer shows for a frame it cannot display,
 * `[unsupported visual: <kind>] <summary>` ([protocol §3.2](wire-formats.html#protocol-3)).
 *
 * Returns: (transfer full) (nullable): the fallback text, or %NULL when
 *   @frame has no valid fallback
 *
 * Since: 0.1
 */
char *
akc_component_frame_dup_fallback_text (AkcJsonValue *frame)
{
  AkcJsonValue *fallback, *kind, *summary;
  GString *out;

  g_return_val_if_fail (frame != NULL, NULL);

  if (!AKC_JSON_IS_OBJECT (frame))
    return NULL;
  fallback = akc_json_object_lookup (frame, "fallback", 8, NULL);
  if (!akc_schema_validate_table (&fallback_table, fallback, NULL))
    return NULL;
  kind = akc_json_object_lookup (fallback, "kind", 4, NULL);
  summary = akc_json_object_lookup (fallback, "summary", 7, NULL);

  out = g_string_new ("[unsupported visual: ");
  g_string_append_len (out, AKC_JSON_STR (kind), AKC_JSON_STR_LEN (kind));
  g_string_append (out, "] ");
  g_string_append_len (out, AKC_JSON_STR (summary), AKC_JSON_STR_LEN (summary));

  return g_string_free (out, FALSE);
}

/* Copies member @name of @frame into @members (skipped when absent, so
 * the event then fails validation). */
static void
copy_member (AkcJsonMemberInit *members,
             gsize             *n,
             AkcJsonValue      *frame,
             const char        *name)
{
  AkcJsonValue *v = AKC_JSON_IS_OBJECT (frame) ? akc_json_object_lookup (frame, name, strlen (name), NULL) : NULL;

  if (v == NULL)
    return;
  members[*n] = (AkcJsonMemberInit) { name, strlen (name), akc_json_value_ref (v) };
  (*n)++;
}

static void
add_member (AkcJsonMemberInit *members,
            gsize             *n,
            const char        *name,
            AkcJsonValue      *value)
{
  members[*n] = (AkcJsonMemberInit) { name, strlen (name), value };
  (*n)++;
}

/* Builds the event object and validates it against @table. */
static AkcJsonValue *
build_event (const AkcSchemaTable *table,
             AkcJsonMemberInit    *members,
             gsize                 n,
             const char           *what,
             GError              **error)
{
  g_autoptr(AkcJsonValue) object = akc_json_object_new_steal (members, n, TRUE, AKC_JSON_FLAG_STATIC_NAMES);
  AkcJsonValue *event = NULL;

  if (!akc_schema_validate_table (table, object, &event))
    {
      g_set_error (error, AKC_PROTOCOL_ERROR, AKC_PROTOCOL_ERROR_FAILED,
                   "Component %s event is invalid.", what);
      return NULL;
    }

  return event;
}

/**
 * akc_component_selection_event_new:
 * @frame: the render frame the choice was made in
 * @choice_id: the chosen `SafeId`
 * @error: return location for a #GError
 *
 * Builds the selection event a client sends when the user picks a choice
 * (`createSelectionEvent`, [protocol §3.3](wire-formats.html#protocol-3)): the frame's `componentKey`
 * and `instanceId` with @choice_id. The event is validated; an invalid one
 * (for example a @choice_id such as `-docs`, or a @frame without a valid
 * key) is refused with %AKC_PROTOCOL_ERROR_FAILED and nothing is produced.
 *
 * Returns: (transfer full) (nullable): the event, in canonical member order
 *
 * Since: 0.1
 */
AkcJsonValue *
akc_component_selection_event_new (AkcJsonValue *frame,
                                   const char   *choice_id,
                                   GError      **error)
{
  AkcJsonMemberInit members[6];
  gsize n = 0;

  g_return_val_if_fail (frame != NULL, NULL);
  g_return_val_if_fail (choice_id != NULL, NULL);
  g_return_val_if_fail (g_utf8_validate (choice_id, -1, NULL), NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  add_member (members, &n, "protocol", akc_json_string_new_len (AKC_COMPONENT_PROTOCOL, strlen (AKC_COMPONENT_PROTOCOL)));
  add_member (members, &n, "version", akc_json_value_new_number (AKC_COMPONENT_PROTOCOL_VERSION));
  add_member (members, &n, "type", akc_json_string_new_len ("select", 6));
  copy_member (members, &n, frame, "componentKey");
  copy_member (members, &n, frame, "instanceId");
  add_member (members, &n, "choiceId", akc_json_string_new_len (choice_id, strlen (choice_id)));

  return build_event (&selection_table, members, n, "selection", error);
}

/**
 * akc_component_interaction_event_new:
 * @frame: the render frame the interaction happened in
 * @event: the interaction name, an `EventName` such as `submit`
 * @value: (nullable): the interaction value, or %NULL for none
 * @error: return location for a #GError
 *
 * Builds a generic interaction event (`createInteractionEvent`,
 * [protocol §3.4](wire-formats.html#protocol-3)). A %NULL @value omits the `value` member, while a JSON
 * `null` value is kept. The event is validated (the value must be a
 * bounded JSON value, §1.9); an invalid one is refused with
 * %AKC_PROTOCOL_ERROR_FAILED and nothing is produced.
 *
 * Returns: (transfer full) (nullable): the event, in canonical member order
 *
 * Since: 0.1
 */
AkcJsonValue *
akc_component_interaction_event_new (AkcJsonValue *frame,
                                     const char   *event,
                                     AkcJsonValue *value,
                                     GError      **error)
{
  AkcJsonMemberInit members[7];
  gsize n = 0;

  g_return_val_if_fail (frame != NULL, NULL);
  g_return_val_if_fail (event != NULL, NULL);
  g_return_val_if_fail (g_utf8_validate (event, -1, NULL), NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  /* Too deep for a bounded value (and for embedding in a new object). */
  if (value != NULL && value->height > akc_bjv_default_limits.max_depth)
    {
      g_set_error_literal (error, AKC_PROTOCOL_ERROR, AKC_PROTOCOL_ERROR_FAILED,
                           "Component interaction event is invalid.");
      return NULL;
    }

  add_member (members, &n, "protocol", akc_json_string_new_len (AKC_COMPONENT_PROTOCOL, strlen (AKC_COMPONENT_PROTOCOL)));
  add_member (members, &n, "version", akc_json_value_new_number (AKC_COMPONENT_PROTOCOL_VERSION));
  add_member (members, &n, "type", akc_json_string_new_len ("interact", 8));
  copy_member (members, &n, frame, "componentKey");
  copy_member (members, &n, frame, "instanceId");
  add_member (members, &n, "event", akc_json_string_new_len (event, strlen (event)));
  if (value != NULL)
    add_member (members, &n, "value", akc_json_value_ref (value));

  return build_event (&interaction_table, members, n, "interaction", error);
}

const char *
akc_component_frame_get_choice_label (AkcJsonValue *frame,
                                      const char   *choice_id)
{
  AkcJsonValue *frame_props = akc_json_value_get_member (frame, "props");
  AkcJsonValue *choices = frame_props != NULL ? akc_json_value_get_member (frame_props, "choices") : NULL;

  if (choices == NULL || akc_json_value_get_kind (choices) != AKC_JSON_KIND_ARRAY)
    return NULL;

  for (gsize i = 0; i < akc_json_value_get_length (choices); i++)
    {
      AkcJsonValue *choice = akc_json_value_get_element (choices, i);
      AkcJsonValue *id = akc_json_value_get_kind (choice) == AKC_JSON_KIND_OBJECT
                         ? akc_json_value_get_member (choice, "id") : NULL;
      AkcJsonValue *label = akc_json_value_get_kind (choice) == AKC_JSON_KIND_OBJECT
                            ? akc_json_value_get_member (choice, "label") : NULL;

      if (id != NULL && label != NULL &&
          akc_json_value_get_kind (id) == AKC_JSON_KIND_STRING &&
          akc_json_value_get_kind (label) == AKC_JSON_KIND_STRING &&
          g_strcmp0 (akc_json_value_get_string (id, NULL), choice_id) == 0)
        return akc_json_value_get_string (label, NULL);
    }

  return NULL;
}
