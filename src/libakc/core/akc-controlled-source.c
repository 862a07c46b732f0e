/* akc-controlled-source.c: a conversation whose state a host owns
 * (application §7, §12.9)
 *
 * SPDX-License-Identifier: MIT
 */

#include "config.h"

#include <string.h>

#include <glib/gi18n-lib.h>

#include "akc-assistant-content.h"
#include "akc-chat-source-state-private.h"
#include "akc-component-frame.h"
#include "akc-component-frame-private.h"
#include "akc-controlled-source.h"
#include "akc-controlled-source-private.h"
#include "akc-error.h"
#include "akc-message.h"
#include "akc-message-record.h"
#include "akc-message-record-private.h"
#include "akc-message-sync-private.h"
#include "akc-schema-private.h"
#include "akc-text-private.h"
#include "akc-tool-call.h"
#include "akc-usage.h"

/**
 * AkcControlledSource:
 *
 * A conversation whose state belongs to a host ([application §7](wire-formats.html#application-7) and
 * §12.9, `ControlledChatSource`).
 *
 * The host sets the whole state as a snapshot with
 * [method@ControlledSource.set_snapshot] (or its text form, or the
 * #JsonNode form of the optional `akc-json-glib.h`), and a chat view bound to the source shows it. The source never
 * runs a controller of its own: every action a person takes is emitted as
 * a signal, and the host answers, when it wants to, with a new snapshot.
 * The signals are the callbacks of [application §7.3](wire-formats.html#application-7) (see
 * [func@controlled_snapshot_get_callback_names]): [signal@ControlledSource::send],
 * [signal@ControlledSource::stop], [signal@ControlledSource::retry],
 * [signal@ControlledSource::edit], [signal@ControlledSource::regenerate],
 * [signal@ControlledSource::set-input], [signal@ControlledSource::clear],
 * [signal@ControlledSource::propose-tool-call],
 * [signal@ControlledSource::approve] and [signal@ControlledSource::deny].
 *
 * A snapshot is validated strictly ([func@controlled_snapshot_decode_value]); an
 * invalid one is rejected with its diagnostic and the previous state is
 * kept. Messages whose record did not change keep their [class@Message]
 * object, so a view does not rebuild their rows.
 *
 * The snapshot shell ([application §7.1](wire-formats.html#application-7)):
 *
 * |[
 * { "sessionId": "an-identifier",
 *   "messages": [ …serialized messages… ],
 *   "status": "idle",            // or "streaming", "complete", "error"
 *   "input": "the draft",
 *   "error": null,               // or { "message": "…", "code": "CODE" }
 *   "usage": { "promptTokens": 0, "completionTokens": 0, "totalTokens": 0 } }
 * ]|
 *
 * Since: 0.1
 */
struct _AkcControlledSource
{
  GObject          parent_instance;

  AkcChatSourceState state;
  AkcMessageSync  *messages;     /* of state.messages */
  AkcJsonValue    *snapshot;     /* nullable, the parsed (hydrated) snapshot */
  char            *session_id;   /* nullable */
  const char      *status_name;  /* the snapshot's spelling of status */
  gboolean         snapshot_stale; /* edits since self->snapshot was built */
};

static void akc_controlled_source_iface_init (AkcChatSourceInterface *iface);

G_DEFINE_FINAL_TYPE_WITH_CODE (AkcControlledSource, akc_controlled_source, G_TYPE_OBJECT,
                               G_IMPLEMENT_INTERFACE (AKC_TYPE_CHAT_SOURCE, akc_controlled_source_iface_init))

enum {
  PROP_0,
  PROP_SESSION_ID,
  PROP_SNAPSHOT,
  N_PROPS,

  /* AkcChatSource's, in AkcChatSourceProp order (akc-chat-source-state-private.h) */
  PROP_MESSAGES = N_PROPS,
  PROP_INPUT = PROP_MESSAGES + AKC_CHAT_SOURCE_PROP_INPUT,
};

static GParamSpec *props[N_PROPS];
static GParamSpec *source_props[AKC_CHAT_SOURCE_N_PROPS];

enum {
  SIGNAL_SEND,
  SIGNAL_STOP,
  SIGNAL_RETRY,
  SIGNAL_EDIT,
  SIGNAL_REGENERATE,
  SIGNAL_SET_INPUT,
  SIGNAL_CLEAR,
  SIGNAL_PROPOSE_TOOL_CALL,
  SIGNAL_APPROVE,
  SIGNAL_DENY,
  SIGNAL_CHOICE_SELECTED,
  SIGNAL_COMPONENT_INTERACTION,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

/* ------------------------------------------------------------------ */
/* The snapshot shell (§7.1)                                           */
/* ------------------------------------------------------------------ */

#define SHELL_CODE "CONTROLLED_INVALID_SNAPSHOT"
#define SHELL_MESSAGE "Controlled chat snapshot is invalid."
#define SHELL_JSON_MESSAGE "Controlled chat snapshot is not valid JSON."
#define RECORD_CODE "CONTROLLED_INVALID_MESSAGE"
#define RECORD_MESSAGE "Serialized message record is invalid."
#define MAX_MESSAGES 10000

static const char * const status_values[] = { "idle", "streaming", "complete", "error", NULL };

static const AkcSchemaField usage_fields[] = {
  { "promptTokens",     AKC_SCHEMA_INT (0, AKC_SCHEMA_INT_MAX) },
  { "completionTokens", AKC_SCHEMA_INT (0, AKC_SCHEMA_INT_MAX) },
  { "totalTokens",      AKC_SCHEMA_INT (0, AKC_SCHEMA_INT_MAX) },
};
static const AkcSchemaTable usage_table = AKC_SCHEMA_TABLE (usage_fields, AKC_SCHEMA_CLOSED);

static const AkcSchemaField error_fields[] = {
  { "message", AKC_SCHEMA_STRING (1, 4096) },
  { "code",    AKC_SCHEMA_PATTERN (akc_text_is_safe_id), .optional = TRUE },
};
static const AkcSchemaTable error_table = AKC_SCHEMA_TABLE (error_fields, AKC_SCHEMA_CLOSED);

/* `null`, or a strict error that hydrates to {message, name}: the name is
 * the code when there is one (§7.3). */
static gboolean
validate_error (const AkcSchemaType  *type,
                AkcJsonValue         *value,
                const AkcJsonValue   *parent,
                AkcJsonValue        **out)
{
  g_autoptr(AkcJsonValue) error = NULL;
  AkcJsonValue *code;
  const char *names[2] = { "message", "name" };
  AkcJsonValue *values[2];

  if (akc_json_value_get_kind (value) == AKC_JSON_KIND_NULL)
    {
      if (out != NULL)
        *out = akc_json_value_ref (value);
      return TRUE;
    }

  if (!akc_schema_validate_table (&error_table, value, &error))
    return FALSE;

  if (out != NULL)
    {
      code = akc_json_value_get_member (error, "code");
      values[0] = akc_json_value_ref (akc_json_value_get_member (error, "message"));
      values[1] = code != NULL ? akc_json_value_ref (code) : akc_json_value_new_string ("Error", -1);
      *out = akc_json_value_new_object (names, values, 2);
      akc_json_value_unref (values[0]);
      akc_json_value_unref (values[1]);
    }

  return TRUE;
}

static const AkcSchemaField shell_fields[] = {
  { "sessionId", AKC_SCHEMA_PATTERN (akc_text_is_safe_id) },
  { "messages",  AKC_SCHEMA_ARRAY (&AKC_SCHEMA_TYPE (AKC_SCHEMA_ANY), 0, MAX_MESSAGES) },
  { "status",    AKC_SCHEMA_ENUM (status_values) },
  { "input",     AKC_SCHEMA_STRING (0, 100000) },
  { "error",     AKC_SCHEMA_CUSTOM (validate_error, NULL) },
  { "usage",     AKC_SCHEMA_OBJECT (&usage_table) },
};
static const AkcSchemaTable shell_table = AKC_SCHEMA_TABLE (shell_fields, AKC_SCHEMA_CLOSED);

static AkcJsonValue *
replace_member (AkcJsonValue *object,
                const char   *name,
                AkcJsonValue *value)
{
  gsize n = akc_json_value_get_member_count (object);
  g_autofree const char **names = g_new (const char *, n);
  g_autofree AkcJsonValue **values = g_new (AkcJsonValue *, n);

  for (gsize i = 0; i < n; i++)
    {
      names[i] = akc_json_value_get_member_name (object, i, NULL);
      values[i] = strcmp (names[i], name) == 0 ? value : akc_json_value_get_member_value (object, i);
    }

  return akc_json_value_new_object (names, values, n);
}

/* Fails with the wire's diagnostic; the GError also names what is wrong
 * (akc_protocol_error_get_field_path()). */
static gboolean
fail_with (const char  *code,
           const char  *message,
           const char  *field_path,
           GError     **error)
{
  g_autoptr(AkcDiagnostic) diagnostic = akc_diagnostic_new (code, message, FALSE, NULL);
  GError *failure = akc_diagnostic_to_error (diagnostic);

  akc_protocol_error_set_field_path (failure, field_path);
  g_propagate_error (error, failure);
  return FALSE;
}

GError *
akc_controlled_snapshot_invalid_error (void)
{
  g_autoptr(AkcDiagnostic) diagnostic = akc_diagnostic_new (SHELL_CODE, SHELL_MESSAGE, FALSE, NULL);

  return akc_diagnostic_to_error (diagnostic);
}

static gboolean
fail_shell (const char  *field_path,
            GError     **error)
{
  return fail_with (SHELL_CODE, SHELL_MESSAGE, field_path, error);
}

static gboolean
fail_record (const char  *field_path,
             GError     **error)
{
  return fail_with (RECORD_CODE, RECORD_MESSAGE, field_path, error);
}

/* @object with one more member, @name, the string @value. */
static AkcJsonValue *
with_member (AkcJsonValue *object,
             const char   *name,
             const char   *value)
{
  gsize n = akc_json_value_get_member_count (object);
  g_autofree const char **names = g_new (const char *, n + 1);
  g_autofree AkcJsonValue **values = g_new (AkcJsonValue *, n + 1);
  g_autoptr(AkcJsonValue) string = akc_json_value_new_string (value, -1);

  for (gsize i = 0; i < n; i++)
    {
      names[i] = akc_json_value_get_member_name (object, i, NULL);
      values[i] = akc_json_value_get_member_value (object, i);
    }
  names[n] = name;
  values[n] = string;

  return akc_json_value_new_object (names, values, n + 1);
}

/* What is wrong with @snapshot, which parse_snapshot() rejected:
 * `messages[3].createdAt: not a UTC timestamp with milliseconds`. */
static char *
explain_snapshot (AkcJsonValue *snapshot)
{
  g_autoptr(GString) path = g_string_new (NULL);
  g_autofree char *reason = NULL;
  AkcJsonValue *messages;

  if (!akc_schema_validate_table (&shell_table, snapshot, NULL))
    {
      reason = akc_schema_explain_table (&shell_table, snapshot, path);
      if (strcmp (path->str, ".error") == 0 && akc_json_value_get_member (snapshot, "error") != NULL)
        {
          AkcJsonValue *value = akc_json_value_get_member (snapshot, "error");

          g_free (reason);
          reason = akc_json_value_get_kind (value) == AKC_JSON_KIND_OBJECT
                   ? akc_schema_explain_table (&error_table, value, path)
                   : g_strdup ("neither null nor an error object");
        }
    }
  else
    {
      messages = akc_json_value_get_member (snapshot, "messages");
      for (gsize i = 0; reason == NULL && i < akc_json_value_get_length (messages); i++)
        {
          AkcJsonValue *record = akc_json_value_get_element (messages, i);

          g_string_printf (path, ".messages[%" G_GSIZE_FORMAT "]", i);
          if (akc_json_value_get_kind (record) == AKC_JSON_KIND_OBJECT && !akc_message_record_check_limits (record))
            reason = g_strdup ("beyond the structural limits of a message record");
          else if (!akc_schema_validate_table (&akc_message_record_table, record, NULL))
            reason = akc_schema_explain_table (&akc_message_record_table, record, path);
        }
      if (reason == NULL)
        {
          g_string_assign (path, ".messages");
          reason = g_strdup ("more JSON values than the messages of a snapshot may hold (10000)");
        }
    }

  return g_strdup_printf ("%s: %s", path->len > 0 ? path->str + 1 : "(snapshot)", reason);
}

/* Parses @snapshot; on success also returns its message records. */
static AkcJsonValue *
parse_snapshot (AkcJsonValue   *snapshot,
                GPtrArray     **records_out,
                AkcDiagnostic **diagnostic)
{
  g_autoptr(AkcJsonValue) shell = NULL;
  g_autoptr(AkcJsonValue) messages = NULL;
  g_autoptr(GPtrArray) records = NULL;

  if (!akc_schema_validate_table (&shell_table, snapshot, &shell))
    {
      if (diagnostic != NULL)
        *diagnostic = akc_diagnostic_new (SHELL_CODE, SHELL_MESSAGE, FALSE, NULL);
      return NULL;
    }

  if (!akc_message_records_validate (akc_json_value_get_member (shell, "messages"), &messages))
    {
      if (diagnostic != NULL)
        *diagnostic = akc_diagnostic_new (RECORD_CODE, RECORD_MESSAGE, FALSE, NULL);
      return NULL;
    }

  records = g_ptr_array_new_full (akc_json_value_get_length (messages),
                                  (GDestroyNotify) akc_message_record_unref);
  for (gsize i = 0; i < akc_json_value_get_length (messages); i++)
    {
      AkcMessageRecord *record = akc_message_record_new_validated (akc_json_value_get_element (messages, i), NULL);

      if (record == NULL)
        {
          if (diagnostic != NULL)
            *diagnostic = akc_diagnostic_new (RECORD_CODE, RECORD_MESSAGE, FALSE, NULL);
          return NULL;
        }
      g_ptr_array_add (records, record);
    }

  if (records_out != NULL)
    *records_out = g_steal_pointer (&records);

  return replace_member (shell, "messages", messages);
}

/**
 * akc_controlled_snapshot_decode_value:
 * @snapshot: a controlled snapshot as a value
 * @diagnostic: (out) (optional) (nullable) (transfer full): return location
 *   for the diagnostic when @snapshot is rejected
 *
 * Validates a controlled snapshot ([application §7.1](wire-formats.html#application-7), §7.2) and returns
 * it hydrated as §7.3 says: the shell with its messages projected (unknown
 * message members dropped, members in canonical order) and the error, when
 * there is one, as `{"message": …, "name": …}` whose name is the error's
 * code, or `Error` when it has none.
 *
 * The shell is strict: an unknown member, a missing `error` (it must be
 * `null` when there is none), a `pending` status, more than 10,000
 * messages, an `input` over 100,000 UTF-16 units, a `sessionId` or error
 * code that is not an Identifier, or a usage that is not three
 * non-negative integers is rejected with the diagnostic
 * `CONTROLLED_INVALID_SNAPSHOT` "Controlled chat snapshot is invalid.". A
 * message that breaks the message-record rules is rejected with
 * `CONTROLLED_INVALID_MESSAGE` "Serialized message record is invalid.".
 * Either diagnostic also names the field that failed and why
 * ([method@Diagnostic.get_field_path]): this is how a binding, which
 * cannot read the field path of a #GError, learns what is wrong with a
 * snapshot [method@ControlledSource.set_snapshot] refused.
 *
 * Returns: (transfer full) (nullable): the hydrated snapshot, or %NULL
 *   with @diagnostic set
 *
 * Since: 0.1
 */
AkcJsonValue *
akc_controlled_snapshot_decode_value (AkcJsonValue   *snapshot,
                                      AkcDiagnostic **diagnostic)
{
  g_autoptr(AkcDiagnostic) failure = NULL;
  g_autofree char *field_path = NULL;
  AkcJsonValue *parsed;

  g_return_val_if_fail (snapshot != NULL, NULL);
  g_return_val_if_fail (diagnostic == NULL || *diagnostic == NULL, NULL);

  parsed = parse_snapshot (snapshot, NULL, diagnostic != NULL ? &failure : NULL);
  if (parsed == NULL && diagnostic != NULL)
    {
      field_path = explain_snapshot (snapshot);
      *diagnostic = akc_diagnostic_new_with_field_path (akc_diagnostic_get_code (failure),
                                                        akc_diagnostic_get_message (failure),
                                                        FALSE, NULL, field_path);
    }

  return parsed;
}

/**
 * akc_controlled_snapshot_decode:
 * @text: a controlled snapshot as JSON text
 * @length: length of @text in bytes, or -1 if it is NUL-terminated
 * @diagnostic: (out) (optional) (nullable) (transfer full): return location
 *   for the diagnostic when @text is rejected
 *
 * Parses @text strictly and decodes it as
 * [func@controlled_snapshot_decode_value] does. Text that is not JSON is
 * rejected with `CONTROLLED_INVALID_SNAPSHOT` "Controlled chat snapshot is
 * not valid JSON.", as [method@ControlledSource.set_snapshot_text] rejects
 * it.
 *
 * Returns: (transfer full) (nullable): the hydrated snapshot, or %NULL
 *   with @diagnostic set
 *
 * Since: 0.1
 */
AkcJsonValue *
akc_controlled_snapshot_decode (const char     *text,
                                gssize          length,
                                AkcDiagnostic **diagnostic)
{
  g_autoptr(AkcJsonValue) value = NULL;

  g_return_val_if_fail (text != NULL || length == 0, NULL);
  g_return_val_if_fail (diagnostic == NULL || *diagnostic == NULL, NULL);

  value = akc_json_value_parse (text != NULL ? text : "", length, NULL);
  if (value == NULL)
    {
      if (diagnostic != NULL)
        *diagnostic = akc_diagnostic_new (SHELL_CODE, SHELL_JSON_MESSAGE, FALSE, NULL);
      return NULL;
    }

  return akc_controlled_snapshot_decode_value (value, diagnostic);
}

/**
 * akc_controlled_snapshot_decode_utf8: (rename-to akc_controlled_snapshot_decode)
 * @text: a controlled snapshot as JSON text
 * @diagnostic: (out) (optional) (nullable) (transfer full): return location
 *   for the diagnostic when @text is rejected
 *
 * Does what akc_controlled_snapshot_decode() does, for a text that is
 * NUL-terminated: the form bindings see.
 *
 * Returns: (transfer full) (nullable): the hydrated snapshot, or %NULL
 *   with @diagnostic set
 *
 * Since: 0.1
 */
AkcJsonValue *
akc_controlled_snapshot_decode_utf8 (const char     *text,
                                     AkcDiagnostic **diagnostic)
{
  return akc_controlled_snapshot_decode (text, -1, diagnostic);
}

static const char * const callback_names[] = {
  "send", "stop", "retry", "edit", "regenerate", "setInput", "clear", "proposeToolCall", "approve", "deny", NULL
};

/**
 * akc_controlled_snapshot_get_callback_names:
 *
 * Gets the callbacks a controlled conversation offers its host, in the
 * order of [application §7.3](wire-formats.html#application-7): `send`, `stop`, `retry`, `edit`,
 * `regenerate`, `setInput`, `clear`, `proposeToolCall`, `approve` and
 * `deny`. [class@ControlledSource] emits each as the signal of the same
 * name in GObject spelling (`setInput` is [signal@ControlledSource::set-input]).
 *
 * Returns: (transfer none) (array zero-terminated=1): the callback names
 *
 * Since: 0.1
 */
const char * const *
akc_controlled_snapshot_get_callback_names (void)
{
  return callback_names;
}

/* ------------------------------------------------------------------ */
/* The source                                                          */
/* ------------------------------------------------------------------ */

static AkcChatStatus
chat_status (const char *status)
{
  if (g_strcmp0 (status, "streaming") == 0)
    return AKC_CHAT_STATUS_STREAMING;
  if (g_strcmp0 (status, "error") == 0)
    return AKC_CHAT_STATUS_ERROR;
  return AKC_CHAT_STATUS_IDLE;
}

/* The static spelling of a snapshot status. */
static const char *
status_name (const char *status)
{
  for (guint i = 0; status_values[i] != NULL; i++)
    if (g_strcmp0 (status, status_values[i]) == 0)
      return status_values[i];
  return status_values[0];
}

static guint64
member_uint (AkcJsonValue *object,
             const char   *name)
{
  return (guint64) akc_json_value_get_number (akc_json_value_get_member (object, name));
}

static const char *
member_string (AkcJsonValue *object,
               const char   *name)
{
  return akc_json_value_get_string (akc_json_value_get_member (object, name), NULL);
}

static void
apply_snapshot (AkcControlledSource *self,
                AkcJsonValue        *snapshot,
                GPtrArray           *records)
{
  AkcJsonValue *usage = akc_json_value_get_member (snapshot, "usage");
  AkcJsonValue *error = akc_json_value_get_member (snapshot, "error");
  AkcUsage new_usage = {
    member_uint (usage, "promptTokens"),
    member_uint (usage, "completionTokens"),
    member_uint (usage, "totalTokens"),
  };
  g_autoptr(AkcDiagnostic) new_error = NULL;
  AkcChatStatus status = chat_status (member_string (snapshot, "status"));
  const char *session_id = member_string (snapshot, "sessionId");
  const char *input = member_string (snapshot, "input");

  if (akc_json_value_get_kind (error) == AKC_JSON_KIND_OBJECT)
    new_error = akc_diagnostic_new (member_string (error, "name"), member_string (error, "message"), FALSE, NULL);

  g_object_freeze_notify (G_OBJECT (self));

  g_clear_pointer (&self->snapshot, akc_json_value_unref);
  self->snapshot = akc_json_value_ref (snapshot);
  self->snapshot_stale = FALSE;
  self->status_name = status_name (member_string (snapshot, "status"));
  g_object_notify_by_pspec (G_OBJECT (self), props[PROP_SNAPSHOT]);

  if (g_strcmp0 (self->session_id, session_id) != 0)
    {
      g_free (self->session_id);
      self->session_id = g_strdup (session_id);
      g_object_notify_by_pspec (G_OBJECT (self), props[PROP_SESSION_ID]);
    }

  akc_message_sync_apply (self->messages, records);

  akc_chat_source_state_set_status (&self->state, status);
  akc_chat_source_state_take_error (&self->state, g_steal_pointer (&new_error));
  akc_chat_source_state_set_usage (&self->state, &new_usage);
  akc_chat_source_state_set_input (&self->state, input);

  g_object_thaw_notify (G_OBJECT (self));
}

/**
 * akc_controlled_source_set_snapshot:
 * @self: a controlled source
 * @snapshot: the host's state, a controlled snapshot
 * @error: return location for a #GError
 *
 * Replaces the state with @snapshot after validating it as
 * [func@controlled_snapshot_decode_value] does, except that a snapshot without
 * `input` keeps the draft the person is writing (the wire's shell requires
 * it; a host that does not own the draft leaves it out). An invalid
 * snapshot changes nothing and fails with the diagnostic as an
 * %AKC_PROTOCOL_ERROR whose message is the diagnostic's; the error also
 * names the field that failed and why ([func@ProtocolError.get_field_path],
 * for example `messages[3].createdAt: not a UTC timestamp with
 * milliseconds`), as do the errors of the edits.
 *
 * Returns: %TRUE if the snapshot was applied
 *
 * Since: 0.1
 */
gboolean
akc_controlled_source_set_snapshot (AkcControlledSource  *self,
                                    AkcJsonValue         *snapshot,
                                    GError              **error)
{
  g_autoptr(AkcDiagnostic) diagnostic = NULL;
  g_autoptr(AkcJsonValue) parsed = NULL;
  g_autoptr(AkcJsonValue) with_input = NULL;
  g_autoptr(GPtrArray) records = NULL;

  g_return_val_if_fail (AKC_IS_CONTROLLED_SOURCE (self), FALSE);
  g_return_val_if_fail (snapshot != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  /* A snapshot without a draft keeps the person's. */
  if (akc_json_value_get_kind (snapshot) == AKC_JSON_KIND_OBJECT &&
      akc_json_value_get_member (snapshot, "input") == NULL)
    snapshot = with_input = with_member (snapshot, "input", self->state.input);

  parsed = parse_snapshot (snapshot, &records, &diagnostic);
  if (parsed == NULL)
    {
      g_autofree char *field_path = explain_snapshot (snapshot);

      return fail_with (akc_diagnostic_get_code (diagnostic), akc_diagnostic_get_message (diagnostic),
                        field_path, error);
    }

  apply_snapshot (self, parsed, records);

  return TRUE;
}

/**
 * akc_controlled_source_set_snapshot_text:
 * @self: a controlled source
 * @text: the snapshot as JSON text
 * @length: length of @text in bytes, or -1 if it is NUL-terminated
 * @error: return location for a #GError
 *
 * Parses @text strictly and sets it as [method@ControlledSource.set_snapshot]
 * does. Text that is not JSON fails with `CONTROLLED_INVALID_SNAPSHOT`
 * "Controlled chat snapshot is not valid JSON." and changes nothing.
 *
 * Returns: %TRUE if the snapshot was applied
 *
 * Since: 0.1
 */
gboolean
akc_controlled_source_set_snapshot_text (AkcControlledSource  *self,
                                         const char           *text,
                                         gssize                length,
                                         GError              **error)
{
  g_autoptr(AkcJsonValue) snapshot = NULL;

  g_return_val_if_fail (AKC_IS_CONTROLLED_SOURCE (self), FALSE);
  g_return_val_if_fail (text != NULL || length == 0, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  snapshot = akc_json_value_parse (text != NULL ? text : "", length, NULL);
  if (snapshot == NULL)
    {
      g_autoptr(AkcDiagnostic) diagnostic = akc_diagnostic_new (SHELL_CODE, SHELL_JSON_MESSAGE, FALSE, NULL);

      g_propagate_error (error, akc_diagnostic_to_error (diagnostic));
      return FALSE;
    }

  return akc_controlled_source_set_snapshot (self, snapshot, error);
}

/**
 * akc_controlled_source_set_snapshot_text_utf8: (rename-to akc_controlled_source_set_snapshot_text)
 * @self: a controlled source
 * @text: the snapshot as JSON text
 * @error: return location for a #GError
 *
 * Does what akc_controlled_source_set_snapshot_text() does, for NUL-terminated @text:
 * the form bindings see.
 *
 * Returns: %TRUE if the snapshot was applied
 *
 * Since: 0.1
 */
gboolean
akc_controlled_source_set_snapshot_text_utf8 (AkcControlledSource  *self,
                                              const char           *text,
                                              GError              **error)
{
  return akc_controlled_source_set_snapshot_text (self, text, -1, error);
}

/**
 * akc_controlled_source_set_snapshot_json:
 * @self: a controlled source
 * @json: the snapshot as JSON text, a UTF-8 string
 * @error: return location for a #GError
 *
 * Sets the snapshot from a string, as
 * [method@ControlledSource.set_snapshot_text] does from bytes: the form
 * for language bindings, whose strings are text (`json.dumps()` in
 * Python, `JSON.stringify()` in JavaScript).
 *
 * Returns: %TRUE if the snapshot was applied
 *
 * Since: 0.1
 */
gboolean
akc_controlled_source_set_snapshot_json (AkcControlledSource  *self,
                                         const char           *json,
                                         GError              **error)
{
  g_return_val_if_fail (AKC_IS_CONTROLLED_SOURCE (self), FALSE);
  g_return_val_if_fail (json != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  return akc_controlled_source_set_snapshot_text (self, json, -1, error);
}

/**
 * akc_controlled_source_new:
 *
 * Creates a controlled source with no session, no messages, an idle
 * status and no usage, until the host sets a snapshot.
 *
 * Returns: (transfer full): a new controlled source
 *
 * Since: 0.1
 */
AkcControlledSource *
akc_controlled_source_new (void)
{
  return g_object_new (AKC_TYPE_CONTROLLED_SOURCE, NULL);
}

/* ------------------------------------------------------------------ */
/* Incremental edits                                                   */
/* ------------------------------------------------------------------ */

/* The snapshot of the current state, hydrated as parse_snapshot() returns
 * it. O(number of messages): built only when asked for after edits. */
static AkcJsonValue *
build_snapshot (AkcControlledSource *self)
{
  static const char * const names[] = { "sessionId", "messages", "status", "input", "error", "usage" };
  static const char * const usage_names[] = { "promptTokens", "completionTokens", "totalTokens" };
  guint n = akc_message_sync_get_n_records (self->messages);
  g_autofree AkcJsonValue **records = g_new (AkcJsonValue *, MAX (n, 1));
  AkcJsonValue *usage_values[3];
  AkcJsonValue *values[G_N_ELEMENTS (names)];
  AkcJsonValue *snapshot;

  for (guint i = 0; i < n; i++)
    records[i] = akc_message_record_to_value (akc_message_sync_get_record (self->messages, i));

  usage_values[0] = akc_json_value_new_number ((double) self->state.usage.prompt_tokens);
  usage_values[1] = akc_json_value_new_number ((double) self->state.usage.completion_tokens);
  usage_values[2] = akc_json_value_new_number ((double) self->state.usage.total_tokens);

  values[0] = akc_json_value_new_string (self->session_id, -1);
  values[1] = akc_json_value_new_array (records, n);
  values[2] = akc_json_value_new_string (self->status_name, -1);
  values[3] = akc_json_value_new_string (self->state.input, -1);
  if (self->state.error != NULL)
    {
      const char *error_names[2] = { "message", "name" };
      AkcJsonValue *error_values[2] = {
        akc_json_value_new_string (akc_diagnostic_get_message (self->state.error), -1),
        akc_json_value_new_string (akc_diagnostic_get_code (self->state.error), -1),
      };

      values[4] = akc_json_value_new_object (error_names, error_values, 2);
      akc_json_value_unref (error_values[0]);
      akc_json_value_unref (error_values[1]);
    }
  else
    values[4] = akc_json_value_new_null ();
  values[5] = akc_json_value_new_object (usage_names, usage_values, 3);

  snapshot = akc_json_value_new_object (names, values, G_N_ELEMENTS (names));

  for (guint i = 0; i < n; i++)
    akc_json_value_unref (records[i]);
  for (guint i = 0; i < G_N_ELEMENTS (usage_values); i++)
    akc_json_value_unref (usage_values[i]);
  for (guint i = 0; i < G_N_ELEMENTS (values); i++)
    akc_json_value_unref (values[i]);

  return snapshot;
}

/* After an edit: the snapshot is rebuilt when next asked for. */
static void
snapshot_changed (AkcControlledSource *self)
{
  self->snapshot_stale = TRUE;
  g_object_notify_by_pspec (G_OBJECT (self), props[PROP_SNAPSHOT]);
}

static gint
find_message (AkcControlledSource  *self,
              const char           *message_id,
              GError              **error)
{
  gint position = akc_message_sync_find (self->messages, message_id);

  if (position < 0)
    g_set_error (error, AKC_CHAT_ERROR, AKC_CHAT_ERROR_NO_TARGET,
                 _("There is no message “%s”."), message_id);

  return position;
}

static guint64
value_count (AkcMessageRecord *record)
{
  g_autoptr(AkcJsonValue) value = akc_message_record_to_value (record);

  return value->n_values;
}

/* Whether the messages stay within what a snapshot may hold (§7.1 and the
 * record limits of protocol.md §2.9.1) with @n_records records of
 * @n_values values. */
static gboolean
check_messages (guint64   n_records,
                guint64   n_values,
                GError  **error)
{
  if (n_records > MAX_MESSAGES)
    return fail_shell ("messages: more than 10000 messages", error);
  if (!akc_message_records_check_totals (n_records, n_values))
    return fail_record ("messages: more JSON values than the messages of a snapshot may hold (10000)", error);

  return TRUE;
}

/* A copy of @record with the string member @name set to @text. */
static AkcMessageRecord *
record_with_string (AkcMessageRecord  *record,
                    const char        *name,
                    const char        *text,
                    gssize             length)
{
  g_autoptr(AkcJsonValue) value = akc_message_record_to_value (record);
  g_autoptr(AkcJsonValue) string = akc_json_value_new_string (text, length);
  g_autoptr(AkcJsonValue) updated = replace_member (value, name, string);

  return akc_message_record_new_validated (updated, NULL);
}

/**
 * akc_controlled_source_set_session_id:
 * @self: a controlled source
 * @session_id: the session, an Identifier
 * @error: return location for a #GError
 *
 * Sets the session of the state (the snapshot's `sessionId`), for a host
 * that builds its state with edits instead of whole snapshots. Until there
 * is a session, [method@ControlledSource.get_snapshot] returns %NULL. An
 * identifier the snapshot shell would reject fails with
 * `CONTROLLED_INVALID_SNAPSHOT` and changes nothing.
 *
 * Returns: %TRUE if the session was set
 *
 * Since: 0.1
 */
gboolean
akc_controlled_source_set_session_id (AkcControlledSource  *self,
                                      const char           *session_id,
                                      GError              **error)
{
  g_return_val_if_fail (AKC_IS_CONTROLLED_SOURCE (self), FALSE);
  g_return_val_if_fail (session_id != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  if (!akc_text_is_safe_id (session_id, strlen (session_id)))
    return fail_shell ("sessionId: not an Identifier", error);

  if (g_strcmp0 (self->session_id, session_id) == 0)
    return TRUE;

  g_object_freeze_notify (G_OBJECT (self));
  g_free (self->session_id);
  self->session_id = g_strdup (session_id);
  g_object_notify_by_pspec (G_OBJECT (self), props[PROP_SESSION_ID]);
  snapshot_changed (self);
  g_object_thaw_notify (G_OBJECT (self));

  return TRUE;
}

/**
 * akc_controlled_source_append_message:
 * @self: a controlled source
 * @record: the message to add at the end, for example from
 *   [method@MessageBuilder.build]
 * @error: return location for a #GError
 *
 * Adds @record after the last message. The model emits one items-changed
 * for the new item only. More than 10,000 messages fail with
 * `CONTROLLED_INVALID_SNAPSHOT`, and messages that together hold more JSON
 * values than a snapshot may (protocol.md §2.9.1) with
 * `CONTROLLED_INVALID_MESSAGE`, as a snapshot with that message would;
 * then nothing changes.
 *
 * Returns: %TRUE if the message was added
 *
 * Since: 0.1
 */
gboolean
akc_controlled_source_append_message (AkcControlledSource  *self,
                                      AkcMessageRecord     *record,
                                      GError              **error)
{
  g_return_val_if_fail (AKC_IS_CONTROLLED_SOURCE (self), FALSE);
  g_return_val_if_fail (record != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  if (!check_messages ((guint64) akc_message_sync_get_n_records (self->messages) + 1,
                       akc_message_sync_get_n_values (self->messages) + value_count (record),
                       error))
    return FALSE;

  akc_message_sync_append (self->messages, record);
  snapshot_changed (self);

  return TRUE;
}

/* Replaces the message at @position by @record, within the limits. */
static gboolean
replace_message (AkcControlledSource  *self,
                 guint                 position,
                 AkcMessageRecord     *record,
                 GError              **error)
{
  AkcMessageRecord *old = akc_message_sync_get_record (self->messages, position);

  if (!check_messages (akc_message_sync_get_n_records (self->messages),
                       akc_message_sync_get_n_values (self->messages) - value_count (old) + value_count (record),
                       error))
    return FALSE;

  akc_message_sync_replace (self->messages, position, record);
  snapshot_changed (self);

  return TRUE;
}

/**
 * akc_controlled_source_update_message:
 * @self: a controlled source
 * @record: the new form of a message; its id names the message (the first
 *   one with that id)
 * @error: return location for a #GError
 *
 * Replaces a message: its text, status, parts and tool calls. When only
 * those changed, the message keeps its [class@Message] object and the model
 * emits nothing (the message notifies its own changes); when its role,
 * creation time or earlier tool calls changed, the model replaces that one
 * item. No message with that id fails with %AKC_CHAT_ERROR_NO_TARGET; a
 * record over the snapshot's value limit as
 * [method@ControlledSource.append_message] says. Nothing changes then.
 *
 * Returns: %TRUE if the message was replaced
 *
 * Since: 0.1
 */
gboolean
akc_controlled_source_update_message (AkcControlledSource  *self,
                                      AkcMessageRecord     *record,
                                      GError              **error)
{
  gint position;

  g_return_val_if_fail (AKC_IS_CONTROLLED_SOURCE (self), FALSE);
  g_return_val_if_fail (record != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  position = find_message (self, akc_message_record_get_id (record, NULL), error);
  if (position < 0)
    return FALSE;

  return replace_message (self, position, record, error);
}

/**
 * akc_controlled_source_set_message_text:
 * @self: a controlled source
 * @message_id: the message
 * @text: its whole new content, UTF-8
 * @error: return location for a #GError
 *
 * Replaces the content of a message. A reply whose new text extends the
 * old one grows in place. No message with that id fails with
 * %AKC_CHAT_ERROR_NO_TARGET and changes nothing.
 *
 * Returns: %TRUE if the text was set
 *
 * Since: 0.1
 */
gboolean
akc_controlled_source_set_message_text (AkcControlledSource  *self,
                                        const char           *message_id,
                                        const char           *text,
                                        GError              **error)
{
  g_autoptr(AkcMessageRecord) record = NULL;
  gint position;

  g_return_val_if_fail (AKC_IS_CONTROLLED_SOURCE (self), FALSE);
  g_return_val_if_fail (message_id != NULL, FALSE);
  g_return_val_if_fail (text != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  if (!g_utf8_validate (text, -1, NULL))
    return fail_record ("content: not UTF-8", error);

  position = find_message (self, message_id, error);
  if (position < 0)
    return FALSE;

  record = record_with_string (akc_message_sync_get_record (self->messages, position), "content", text, -1);

  return replace_message (self, position, record, error);
}

static const char *
message_status_name (AkcMessageStatus status)
{
  switch (status)
    {
    case AKC_MESSAGE_STATUS_PENDING:
      return "pending";
    case AKC_MESSAGE_STATUS_STREAMING:
      return "streaming";
    case AKC_MESSAGE_STATUS_ERROR:
      return "error";
    case AKC_MESSAGE_STATUS_COMPLETE:
    default:
      return "complete";
    }
}

/**
 * akc_controlled_source_set_message_status:
 * @self: a controlled source
 * @message_id: the message
 * @status: its new status
 * @error: return location for a #GError
 *
 * Sets the status of a message (the message keeps its object). No message
 * with that id fails with %AKC_CHAT_ERROR_NO_TARGET and changes nothing.
 *
 * Returns: %TRUE if the status was set
 *
 * Since: 0.1
 */
gboolean
akc_controlled_source_set_message_status (AkcControlledSource  *self,
                                          const char           *message_id,
                                          AkcMessageStatus      status,
                                          GError              **error)
{
  g_autoptr(AkcMessageRecord) record = NULL;
  gint position;

  g_return_val_if_fail (AKC_IS_CONTROLLED_SOURCE (self), FALSE);
  g_return_val_if_fail (message_id != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  position = find_message (self, message_id, error);
  if (position < 0)
    return FALSE;

  record = record_with_string (akc_message_sync_get_record (self->messages, position),
                               "status", message_status_name (status), -1);

  return replace_message (self, position, record, error);
}

/**
 * akc_controlled_source_append_text:
 * @self: a controlled source
 * @message_id: a message that is streaming or pending
 * @text: the text that arrived, UTF-8
 * @error: return location for a #GError
 *
 * Appends @text to the content of a streaming reply, in O(length of
 * @text): the message keeps its object and only the new text reaches the
 * view. A message that is neither streaming nor pending, or no message
 * with that id, fails with %AKC_CHAT_ERROR_NO_TARGET; text that is not
 * UTF-8 fails with `CONTROLLED_INVALID_MESSAGE`. Nothing changes then.
 *
 * When the content is ordered content (a message built with text and
 * component parts, [class@MessageBuilder]), @text arrives as new text
 * parts after the last one, so the envelope stays valid; content that
 * ends inside a record then fails with `CONTROLLED_INVALID_MESSAGE`.
 *
 * Returns: %TRUE if the text was appended
 *
 * Since: 0.1
 */
gboolean
akc_controlled_source_append_text (AkcControlledSource  *self,
                                   const char           *message_id,
                                   const char           *text,
                                   GError              **error)
{
  g_autofree char *encoded = NULL;
  AkcMessage *message;
  const char *content;
  gsize length, content_length;
  gint position;

  g_return_val_if_fail (AKC_IS_CONTROLLED_SOURCE (self), FALSE);
  g_return_val_if_fail (message_id != NULL, FALSE);
  g_return_val_if_fail (text != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  length = strlen (text);
  if (!g_utf8_validate (text, length, NULL))
    return fail_record ("content: not UTF-8", error);

  position = find_message (self, message_id, error);
  if (position < 0)
    return FALSE;

  message = akc_message_sync_get_message (self->messages, position);
  if (akc_message_get_status (message) != AKC_MESSAGE_STATUS_STREAMING &&
      akc_message_get_status (message) != AKC_MESSAGE_STATUS_PENDING)
    {
      g_set_error (error, AKC_CHAT_ERROR, AKC_CHAT_ERROR_NO_TARGET,
                   _("The message “%s” is not streaming."), message_id);
      return FALSE;
    }
  content = akc_message_get_content (message);
  content_length = akc_message_get_content_length (message);
  if (length > 0 && akc_assistant_content_is_candidate (content, content_length))
    {
      g_autoptr(AkcAssistantContentEncoder) encoder = NULL;
      gsize encoded_length = 0;

      /* Ordered content: the text becomes text records after the last
       * complete one. A fresh encoder writes the prefix first; skip it. */
      if (content[content_length - 1] != '\n')
        return fail_record ("content: ordered content ends inside a record", error);
      encoder = akc_assistant_content_encoder_new (FALSE);
      encoded = akc_assistant_content_encoder_encode_text (encoder, text, length, &encoded_length, NULL);
      g_assert (encoded != NULL && encoded_length > AKC_ASSISTANT_CONTENT_PREFIX_LENGTH);
      text = encoded + AKC_ASSISTANT_CONTENT_PREFIX_LENGTH;
      length = encoded_length - AKC_ASSISTANT_CONTENT_PREFIX_LENGTH;
    }
  if (content_length + length > G_MAXUINT32)
    return fail_record ("content: longer than 4 GiB", error);

  akc_message_sync_append_text (self->messages, position, text, length);
  snapshot_changed (self);

  return TRUE;
}

static void
set_chat_status (AkcControlledSource *self,
                 AkcChatStatus        status)
{
  const char *name = status == AKC_CHAT_STATUS_STREAMING ? "streaming" :
                     status == AKC_CHAT_STATUS_ERROR ? "error" : "idle";

  self->status_name = status_name (name);
  akc_chat_source_state_set_status (&self->state, status);
}

/**
 * akc_controlled_source_set_status:
 * @self: a controlled source
 * @status: what the conversation is doing
 *
 * Sets the status of the conversation (the snapshot's `status`:
 * `idle`, `streaming` or `error`).
 *
 * Since: 0.1
 */
void
akc_controlled_source_set_status (AkcControlledSource *self,
                                  AkcChatStatus        status)
{
  g_return_if_fail (AKC_IS_CONTROLLED_SOURCE (self));
  g_return_if_fail (status <= AKC_CHAT_STATUS_ERROR);

  g_object_freeze_notify (G_OBJECT (self));
  set_chat_status (self, status);
  snapshot_changed (self);
  g_object_thaw_notify (G_OBJECT (self));
}

/**
 * akc_controlled_source_mark_stopped:
 * @self: a controlled source
 *
 * Ends the streaming reply as stopped, as a host does when it answers
 * [signal@ControlledSource::stop]: the messages of the last turn that are
 * streaming or pending become complete with the text they have (and
 * [property@Message:stopped]), and the conversation becomes idle. It looks back only as far as the last user
 * message.
 *
 * Since: 0.1
 */
void
akc_controlled_source_mark_stopped (AkcControlledSource *self)
{
  guint n;

  g_return_if_fail (AKC_IS_CONTROLLED_SOURCE (self));

  g_object_freeze_notify (G_OBJECT (self));
  n = akc_message_sync_get_n_records (self->messages);
  for (guint i = n; i-- > 0;)
    {
      AkcMessage *message = akc_message_sync_get_message (self->messages, i);
      AkcMessageStatus status = akc_message_get_status (message);

      if (akc_message_get_role (message) == AKC_MESSAGE_ROLE_USER)
        break;
      if (status == AKC_MESSAGE_STATUS_STREAMING || status == AKC_MESSAGE_STATUS_PENDING)
        {
          g_autoptr(AkcMessageRecord) record =
            record_with_string (akc_message_sync_get_record (self->messages, i), "status", "complete", -1);

          akc_message_sync_replace (self->messages, i, record);
          akc_message_set_stopped (akc_message_sync_get_message (self->messages, i), TRUE);
        }
    }
  set_chat_status (self, AKC_CHAT_STATUS_IDLE);
  snapshot_changed (self);
  g_object_thaw_notify (G_OBJECT (self));
}

/**
 * akc_controlled_source_set_usage:
 * @self: a controlled source
 * @prompt_tokens: tokens of the prompts
 * @completion_tokens: tokens of the replies
 * @total_tokens: the total, as the host counts it (not checked against the
 *   other two, as a snapshot's is not)
 * @error: return location for a #GError
 *
 * Sets the token usage. A count over 2⁵³ − 1 fails with
 * `CONTROLLED_INVALID_SNAPSHOT` and changes nothing.
 *
 * Returns: %TRUE if the usage was set
 *
 * Since: 0.1
 */
gboolean
akc_controlled_source_set_usage (AkcControlledSource  *self,
                                 guint64               prompt_tokens,
                                 guint64               completion_tokens,
                                 guint64               total_tokens,
                                 GError              **error)
{
  AkcUsage usage = { prompt_tokens, completion_tokens, total_tokens };

  g_return_val_if_fail (AKC_IS_CONTROLLED_SOURCE (self), FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  if ((double) prompt_tokens > AKC_SCHEMA_INT_MAX)
    return fail_shell ("usage.promptTokens: not an integer of 0 to 9007199254740991", error);
  if ((double) completion_tokens > AKC_SCHEMA_INT_MAX)
    return fail_shell ("usage.completionTokens: not an integer of 0 to 9007199254740991", error);
  if ((double) total_tokens > AKC_SCHEMA_INT_MAX)
    return fail_shell ("usage.totalTokens: not an integer of 0 to 9007199254740991", error);

  g_object_freeze_notify (G_OBJECT (self));
  if (akc_chat_source_state_set_usage (&self->state, &usage))
    snapshot_changed (self);
  g_object_thaw_notify (G_OBJECT (self));

  return TRUE;
}

/**
 * akc_controlled_source_set_error:
 * @self: a controlled source
 * @message: (nullable): what failed, 1 to 4096 UTF-16 units, or %NULL for
 *   no error
 * @code: (nullable): its code, an Identifier, or %NULL (the error's name is
 *   then `Error`, as a snapshot's is)
 * @error: return location for a #GError
 *
 * Sets or clears the failure of the conversation (the snapshot's
 * `error`); it does not change the status. A message or code the snapshot
 * shell would reject fails with `CONTROLLED_INVALID_SNAPSHOT` and changes
 * nothing.
 *
 * Returns: %TRUE if the error was set
 *
 * Since: 0.1
 */
gboolean
akc_controlled_source_set_error (AkcControlledSource  *self,
                                 const char           *message,
                                 const char           *code,
                                 GError              **error)
{
  g_autoptr(AkcDiagnostic) new_error = NULL;

  g_return_val_if_fail (AKC_IS_CONTROLLED_SOURCE (self), FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  if (message != NULL)
    {
      gsize length = strlen (message);
      gsize len16;

      if (!g_utf8_validate (message, length, NULL))
        return fail_shell ("error.message: not UTF-8", error);
      len16 = akc_text_len16 (message, length);
      if (len16 < 1 || len16 > 4096)
        return fail_shell ("error.message: not a string of UTF-16 length 1 to 4096", error);
      if (code != NULL && !akc_text_is_safe_id (code, strlen (code)))
        return fail_shell ("error.code: not an Identifier", error);
      new_error = akc_diagnostic_new (code != NULL ? code : "Error", message, FALSE, NULL);
    }

  g_object_freeze_notify (G_OBJECT (self));
  if (akc_chat_source_state_take_error (&self->state, g_steal_pointer (&new_error)))
    snapshot_changed (self);
  g_object_thaw_notify (G_OBJECT (self));

  return TRUE;
}

/**
 * akc_controlled_source_select_choice:
 * @self: a controlled source
 * @frame: the choice list's render frame (application.md §1.4)
 * @choice_id: the chosen choice
 * @error: return location for a #GError
 *
 * Tells the host that the person picked a choice: emits
 * [signal@ControlledSource::choice-selected] with the frame, the choice's
 * id and its label. [class@AkcGtk.ChatView] calls it for every choice
 * made in its transcript, so that a host hears the person in one place. A
 * frame that is not a valid choice list, or a choice it does not hold,
 * fails with %AKC_ERROR_CONFIG_INVALID (the messages of application.md
 * §2.6) and emits nothing.
 *
 * Returns: %TRUE if the selection was emitted
 *
 * Since: 0.1
 */
gboolean
akc_controlled_source_select_choice (AkcControlledSource  *self,
                                     AkcJsonValue         *frame,
                                     const char           *choice_id,
                                     GError              **error)
{
  g_autoptr(AkcDiagnostic) diagnostic = NULL;
  g_autoptr(AkcJsonValue) valid = NULL;
  AkcJsonValue *key;
  const char *label;

  g_return_val_if_fail (AKC_IS_CONTROLLED_SOURCE (self), FALSE);
  g_return_val_if_fail (frame != NULL, FALSE);
  g_return_val_if_fail (choice_id != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  valid = akc_component_frame_decode_value (frame, &diagnostic);
  key = valid != NULL ? akc_json_value_get_member (valid, "componentKey") : NULL;
  if (key == NULL || g_strcmp0 (akc_json_value_get_string (key, NULL), "choice-list") != 0)
    {
      g_set_error_literal (error, AKC_ERROR, AKC_ERROR_CONFIG_INVALID, "Selection frame is not a ChoiceList.");
      return FALSE;
    }

  label = akc_component_frame_get_choice_label (valid, choice_id);
  if (label == NULL)
    {
      g_set_error_literal (error, AKC_ERROR, AKC_ERROR_CONFIG_INVALID,
                           "Selected choice is not present in the ChoiceList.");
      return FALSE;
    }

  g_signal_emit (self, signals[SIGNAL_CHOICE_SELECTED], 0, valid, choice_id, label);

  return TRUE;
}

/**
 * akc_controlled_source_interact:
 * @self: a controlled source
 * @frame: the component's render frame
 * @event: the interaction, an event name such as `submit`
 * @value: (nullable): its value, or %NULL for none
 * @error: return location for a #GError
 *
 * Tells the host that the person answered a component other than a choice
 * list: emits [signal@ControlledSource::component-interaction].
 * [class@AkcGtk.ChatView] calls it for every interaction in its
 * transcript. An event the component protocol rejects
 * ([func@component_interaction_event_new]) fails with its error and emits
 * nothing.
 *
 * Returns: %TRUE if the interaction was emitted
 *
 * Since: 0.1
 */
gboolean
akc_controlled_source_interact (AkcControlledSource  *self,
                                AkcJsonValue         *frame,
                                const char           *event,
                                AkcJsonValue         *value,
                                GError              **error)
{
  g_autoptr(AkcJsonValue) checked = NULL;

  g_return_val_if_fail (AKC_IS_CONTROLLED_SOURCE (self), FALSE);
  g_return_val_if_fail (frame != NULL, FALSE);
  g_return_val_if_fail (event != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  checked = akc_component_interaction_event_new (frame, event, value, error);
  if (checked == NULL)
    return FALSE;

  g_signal_emit (self, signals[SIGNAL_COMPONENT_INTERACTION], 0, frame, event, value);

  return TRUE;
}

/**
 * akc_controlled_source_get_session_id:
 * @self: a controlled source
 *
 * Gets the session of the current snapshot.
 *
 * Returns: (transfer none) (nullable): the session id, or %NULL before the
 *   first snapshot
 *
 * Since: 0.1
 */
const char *
akc_controlled_source_get_session_id (AkcControlledSource *self)
{
  g_return_val_if_fail (AKC_IS_CONTROLLED_SOURCE (self), NULL);

  return self->session_id;
}

/**
 * akc_controlled_source_get_snapshot:
 * @self: a controlled source
 *
 * Gets the current snapshot, hydrated as [func@controlled_snapshot_decode_value]
 * returns it.
 *
 * Returns: (transfer none) (nullable): the snapshot, or %NULL before the
 *   first one
 *
 * Since: 0.1
 */
AkcJsonValue *
akc_controlled_source_get_snapshot (AkcControlledSource *self)
{
  g_return_val_if_fail (AKC_IS_CONTROLLED_SOURCE (self), NULL);

  if (self->snapshot_stale && self->session_id != NULL)
    {
      g_clear_pointer (&self->snapshot, akc_json_value_unref);
      self->snapshot = build_snapshot (self);
      self->snapshot_stale = FALSE;
    }

  return self->snapshot;
}

AKC_CHAT_SOURCE_STATE_DEFINE_GETTERS (akc_controlled_source, AKC_CONTROLLED_SOURCE, state)

static gboolean
akc_controlled_source_send (AkcChatSource  *source,
                            const char     *text,
                            GError        **error)
{
  AkcControlledSource *self = AKC_CONTROLLED_SOURCE (source);

  if (akc_is_blank_input (text))
    {
      g_set_error_literal (error, AKC_CHAT_ERROR, AKC_CHAT_ERROR_EMPTY_INPUT, _("There is nothing to send."));
      return FALSE;
    }
  if (self->state.status == AKC_CHAT_STATUS_STREAMING)
    {
      g_set_error_literal (error, AKC_CHAT_ERROR, AKC_CHAT_ERROR_BUSY, _("A reply is still arriving. Stop it first."));
      return FALSE;
    }

  g_signal_emit (self, signals[SIGNAL_SEND], 0, text);

  return TRUE;
}

static void
akc_controlled_source_stop (AkcChatSource *source)
{
  g_signal_emit (source, signals[SIGNAL_STOP], 0);
}

static gboolean
akc_controlled_source_retry (AkcChatSource  *source,
                             GError        **error)
{
  g_signal_emit (source, signals[SIGNAL_RETRY], 0);

  return TRUE;
}

static gboolean
akc_controlled_source_regenerate (AkcChatSource  *source,
                                  const char     *message_id,
                                  GError        **error)
{
  g_signal_emit (source, signals[SIGNAL_REGENERATE], 0, message_id);

  return TRUE;
}

static gboolean
akc_controlled_source_edit (AkcChatSource  *source,
                            const char     *message_id,
                            const char     *text,
                            GError        **error)
{
  if (akc_is_blank_input (text))
    {
      g_set_error_literal (error, AKC_CHAT_ERROR, AKC_CHAT_ERROR_EMPTY_INPUT, _("There is nothing to send."));
      return FALSE;
    }

  g_signal_emit (source, signals[SIGNAL_EDIT], 0, message_id, text);

  return TRUE;
}

static void
akc_controlled_source_clear (AkcChatSource *source)
{
  g_signal_emit (source, signals[SIGNAL_CLEAR], 0);
}

static AkcToolCall *
akc_controlled_source_propose_tool_call (AkcChatSource  *source,
                                         const char     *id,
                                         const char     *name,
                                         AkcJsonValue   *arguments,
                                         GError        **error)
{
  g_autoptr(AkcJsonValue) empty = NULL;

  if (!akc_text_is_safe_id (id, strlen (id)) || !akc_text_is_safe_id (name, strlen (name)))
    {
      g_set_error_literal (error, AKC_ERROR, AKC_ERROR_TOOL_INVALID_INPUT, "Tool call identity is invalid.");
      return NULL;
    }
  if (arguments != NULL && akc_json_value_get_kind (arguments) != AKC_JSON_KIND_OBJECT)
    {
      g_set_error_literal (error, AKC_ERROR, AKC_ERROR_TOOL_INVALID_INPUT, "Tool call arguments are invalid.");
      return NULL;
    }

  if (arguments == NULL)
    arguments = empty = akc_json_value_new_object (NULL, NULL, 0);

  g_signal_emit (source, signals[SIGNAL_PROPOSE_TOOL_CALL], 0, id, name, arguments);

  /* What the host was asked for; the call itself appears in the
   * conversation when the host's snapshot holds it. */
  return akc_tool_call_new (id, name, arguments, AKC_TOOL_CALL_STATUS_REQUIRES_CONFIRMATION);
}

static gboolean
check_waiting (AkcControlledSource  *self,
               const char           *tool_call_id,
               GError              **error)
{
  AkcToolCall *call = akc_message_sync_find_tool_call (self->messages, tool_call_id);

  if (call == NULL || akc_tool_call_get_status (call) != AKC_TOOL_CALL_STATUS_REQUIRES_CONFIRMATION)
    {
      g_set_error_literal (error, AKC_CHAT_ERROR, AKC_CHAT_ERROR_NO_TARGET,
                           _("That tool call does not wait for confirmation."));
      return FALSE;
    }

  return TRUE;
}

static gboolean
akc_controlled_source_approve (AkcChatSource  *source,
                               const char     *tool_call_id,
                               GError        **error)
{
  if (!check_waiting (AKC_CONTROLLED_SOURCE (source), tool_call_id, error))
    return FALSE;

  g_signal_emit (source, signals[SIGNAL_APPROVE], 0, tool_call_id);

  return TRUE;
}

static gboolean
akc_controlled_source_deny (AkcChatSource  *source,
                            const char     *tool_call_id,
                            const char     *reason,
                            GError        **error)
{
  if (!check_waiting (AKC_CONTROLLED_SOURCE (source), tool_call_id, error))
    return FALSE;

  g_signal_emit (source, signals[SIGNAL_DENY], 0, tool_call_id, reason);

  return TRUE;
}

static void
akc_controlled_source_iface_init (AkcChatSourceInterface *iface)
{
  akc_controlled_source_state_iface_init (iface);
  iface->send = akc_controlled_source_send;
  iface->stop = akc_controlled_source_stop;
  iface->retry = akc_controlled_source_retry;
  iface->regenerate = akc_controlled_source_regenerate;
  iface->edit = akc_controlled_source_edit;
  iface->clear = akc_controlled_source_clear;
  iface->propose_tool_call = akc_controlled_source_propose_tool_call;
  iface->approve = akc_controlled_source_approve;
  iface->deny = akc_controlled_source_deny;
}

static void
set_input (AkcControlledSource *self,
           const char          *input)
{
  if (input == NULL)
    input = "";

  /* The draft is kept here so that the composer does not flicker; the
   * host hears of it and may answer with a snapshot of its own. */
  if (!akc_chat_source_state_set_input (&self->state, input))
    return;
  g_signal_emit (self, signals[SIGNAL_SET_INPUT], 0, input);
}

static void
akc_controlled_source_finalize (GObject *object)
{
  AkcControlledSource *self = AKC_CONTROLLED_SOURCE (object);

  g_clear_pointer (&self->messages, akc_message_sync_free);
  g_clear_pointer (&self->snapshot, akc_json_value_unref);
  g_clear_pointer (&self->session_id, g_free);
  akc_chat_source_state_clear (&self->state);

  G_OBJECT_CLASS (akc_controlled_source_parent_class)->finalize (object);
}

static void
akc_controlled_source_get_property (GObject    *object,
                                    guint       prop_id,
                                    GValue     *value,
                                    GParamSpec *pspec)
{
  AkcControlledSource *self = AKC_CONTROLLED_SOURCE (object);

  if (akc_chat_source_state_get_property (&self->state, prop_id, PROP_MESSAGES, value))
    return;

  switch (prop_id)
    {
    case PROP_SESSION_ID:
      g_value_set_string (value, self->session_id);
      break;
    case PROP_SNAPSHOT:
      g_value_set_boxed (value, akc_controlled_source_get_snapshot (self));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
akc_controlled_source_set_property (GObject      *object,
                                    guint         prop_id,
                                    const GValue *value,
                                    GParamSpec   *pspec)
{
  AkcControlledSource *self = AKC_CONTROLLED_SOURCE (object);

  switch (prop_id)
    {
    case PROP_INPUT:
      set_input (self, g_value_get_string (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
akc_controlled_source_class_init (AkcControlledSourceClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->finalize = akc_controlled_source_finalize;
  object_class->get_property = akc_controlled_source_get_property;
  object_class->set_property = akc_controlled_source_set_property;

  /**
   * AkcControlledSource:session-id:
   *
   * The session of the current snapshot, or %NULL before the first one.
   * A view resets its local presentation state (resolved components, an
   * open edit) when it changes ([application §12.9](wire-formats.html#application-12)).
   *
   * Since: 0.1
   */
  props[PROP_SESSION_ID] =
    g_param_spec_string ("session-id", NULL, NULL,
                         NULL,
                         (G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));

  /**
   * AkcControlledSource:snapshot:
   *
   * The current snapshot, hydrated, or %NULL before the first one.
   *
   * Since: 0.1
   */
  props[PROP_SNAPSHOT] =
    g_param_spec_boxed ("snapshot", NULL, NULL,
                        AKC_TYPE_JSON_VALUE,
                        (G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));

  g_object_class_install_properties (object_class, N_PROPS, props);

  akc_chat_source_state_override_properties (object_class, PROP_MESSAGES, source_props);

  /**
   * AkcControlledSource::send:
   * @self: the source
   * @text: what the person wrote, never blank
   *
   * The person sent a message (`send`). Nothing changes until the host
   * sets a snapshot that holds it.
   *
   * Since: 0.1
   */
  signals[SIGNAL_SEND] =
    g_signal_new ("send", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL,
                  G_TYPE_NONE, 1, G_TYPE_STRING);

  /**
   * AkcControlledSource::stop:
   * @self: the source
   *
   * The person asked to stop the streaming reply (`stop`).
   *
   * Since: 0.1
   */
  signals[SIGNAL_STOP] =
    g_signal_new ("stop", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL,
                  G_TYPE_NONE, 0);

  /**
   * AkcControlledSource::retry:
   * @self: the source
   *
   * The person asked for the last answer again (`retry`).
   *
   * Since: 0.1
   */
  signals[SIGNAL_RETRY] =
    g_signal_new ("retry", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL,
                  G_TYPE_NONE, 0);

  /**
   * AkcControlledSource::edit:
   * @self: the source
   * @message_id: the message to change
   * @text: its new text, never blank
   *
   * The person edited a message (`edit`).
   *
   * Since: 0.1
   */
  signals[SIGNAL_EDIT] =
    g_signal_new ("edit", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL,
                  G_TYPE_NONE, 2, G_TYPE_STRING, G_TYPE_STRING);

  /**
   * AkcControlledSource::regenerate:
   * @self: the source
   * @message_id: (nullable): the assistant message to replace, or %NULL for
   *   the last message
   *
   * The person asked for a new answer (`regenerate`).
   *
   * Since: 0.1
   */
  signals[SIGNAL_REGENERATE] =
    g_signal_new ("regenerate", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL,
                  G_TYPE_NONE, 1, G_TYPE_STRING);

  /**
   * AkcControlledSource::set-input:
   * @self: the source
   * @input: the draft
   *
   * The person changed the draft (`setInput`). The source keeps it in
   * [property@ChatSource:input] until the host's next snapshot.
   *
   * Since: 0.1
   */
  signals[SIGNAL_SET_INPUT] =
    g_signal_new ("set-input", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL,
                  G_TYPE_NONE, 1, G_TYPE_STRING);

  /**
   * AkcControlledSource::clear:
   * @self: the source
   *
   * The person asked to clear the conversation (`clear`).
   *
   * Since: 0.1
   */
  signals[SIGNAL_CLEAR] =
    g_signal_new ("clear", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL,
                  G_TYPE_NONE, 0);

  /**
   * AkcControlledSource::propose-tool-call:
   * @self: the source
   * @id: the tool call id, an Identifier
   * @name: the tool name, an Identifier
   * @arguments: the arguments, a JSON object
   *
   * A tool call was proposed for confirmation (`proposeToolCall`).
   *
   * Since: 0.1
   */
  signals[SIGNAL_PROPOSE_TOOL_CALL] =
    g_signal_new ("propose-tool-call", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL,
                  G_TYPE_NONE, 3, G_TYPE_STRING, G_TYPE_STRING, AKC_TYPE_JSON_VALUE);

  /**
   * AkcControlledSource::approve:
   * @self: the source
   * @tool_call_id: the tool call that waits for confirmation
   *
   * The person approved a tool call (`approve`).
   *
   * Since: 0.1
   */
  signals[SIGNAL_APPROVE] =
    g_signal_new ("approve", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL,
                  G_TYPE_NONE, 1, G_TYPE_STRING);

  /**
   * AkcControlledSource::deny:
   * @self: the source
   * @tool_call_id: the tool call that waits for confirmation
   * @reason: (nullable): why, or %NULL
   *
   * The person denied a tool call (`deny`).
   *
   * Since: 0.1
   */
  signals[SIGNAL_DENY] =
    g_signal_new ("deny", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL,
                  G_TYPE_NONE, 2, G_TYPE_STRING, G_TYPE_STRING);

  /**
   * AkcControlledSource::choice-selected:
   * @self: the source
   * @frame: the choice list's render frame, validated
   * @choice_id: the chosen choice
   * @label: the chosen choice's label, as the person saw it
   *
   * The person picked a choice of a choice list in the transcript (see
   * [method@ControlledSource.select_choice]). It is not one of the
   * callbacks of application.md §7.3: nothing changes until the host
   * answers, with an edit or a snapshot.
   *
   * Since: 0.1
   */
  signals[SIGNAL_CHOICE_SELECTED] =
    g_signal_new ("choice-selected", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL,
                  G_TYPE_NONE, 3, AKC_TYPE_JSON_VALUE, G_TYPE_STRING, G_TYPE_STRING);

  /**
   * AkcControlledSource::component-interaction:
   * @self: the source
   * @frame: the component's render frame
   * @event: the interaction, such as `submit`
   * @value: (nullable): its value, or %NULL
   *
   * The person answered a component of the transcript other than a choice
   * list (see [method@ControlledSource.interact]).
   *
   * Since: 0.1
   */
  signals[SIGNAL_COMPONENT_INTERACTION] =
    g_signal_new ("component-interaction", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL,
                  G_TYPE_NONE, 3, AKC_TYPE_JSON_VALUE, G_TYPE_STRING, AKC_TYPE_JSON_VALUE);
}

static void
akc_controlled_source_init (AkcControlledSource *self)
{
  akc_chat_source_state_init (&self->state, G_OBJECT (self), source_props);
  self->messages = akc_message_sync_new (self->state.messages);
  self->status_name = status_values[0];
}
