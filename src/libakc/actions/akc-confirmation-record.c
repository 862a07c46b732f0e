/* akc-confirmation-record.c
 *
 * SPDX-License-Identifier: MIT
 */

#include "config.h"

#include <math.h>
#include <string.h>

#include "akc-action-enum-types.h"
#include "akc-confirmation-record-private.h"
#include "akc-error.h"
#include "akc-schema-private.h"
#include "akc-text-private.h"
#include "akc-json-private.h"

/**
 * AkcConfirmationRecord:
 *
 * One confirmation of a typed action ([application §5.2](wire-formats.html#application-5)): the token the
 * person approves or rejects, the session it is bound to, the action and
 * its input, the upstream tool call, the absolute expiry in epoch
 * milliseconds and the [enum@ConfirmationStatus].
 *
 * A record is immutable: a status change makes a new record
 * ([method@ConfirmationRecord.with_status]). The input is an immutable
 * [struct@JsonValue], so a record never shares mutable state with its
 * creator (the deep copy of the reference).
 *
 * Since: 0.1
 */

struct _AkcConfirmationRecord
{
  gatomicrefcount        ref_count;
  char                  *token;
  char                  *session_id;
  char                  *action;
  AkcJsonValue          *input;
  char                  *tool_call_id;
  gint64                 expires_at;
  AkcConfirmationStatus  status;
};

G_DEFINE_BOXED_TYPE (AkcConfirmationRecord, akc_confirmation_record,
                     akc_confirmation_record_ref, akc_confirmation_record_unref)

#define OPTIONS_INVALID "Action confirmation options are invalid."

static const char * const status_strings[] = {
  [AKC_CONFIRMATION_STATUS_PENDING] = "pending",
  [AKC_CONFIRMATION_STATUS_APPROVING] = "approving",
  [AKC_CONFIRMATION_STATUS_REJECTING] = "rejecting",
  [AKC_CONFIRMATION_STATUS_EXPIRING] = "expiring",
  [AKC_CONFIRMATION_STATUS_APPROVED] = "approved",
  [AKC_CONFIRMATION_STATUS_REJECTED] = "rejected",
  [AKC_CONFIRMATION_STATUS_EXPIRED] = "expired",
};

/**
 * akc_confirmation_status_to_string:
 * @status: a status
 *
 * Gets the wire string of @status: `pending`, `approving`, `rejecting`,
 * `expiring`, `approved`, `rejected` or `expired`.
 *
 * Returns: the wire string, or %NULL for a value outside the enum
 *
 * Since: 0.1
 */
const char *
akc_confirmation_status_to_string (AkcConfirmationStatus status)
{
  if ((guint) status >= G_N_ELEMENTS (status_strings))
    return NULL;

  return status_strings[status];
}

/**
 * akc_confirmation_status_from_string:
 * @string: a wire string
 * @status: (out): return location for the status
 *
 * Parses the wire string of a status.
 *
 * Returns: %TRUE if @string names a status
 *
 * Since: 0.1
 */
gboolean
akc_confirmation_status_from_string (const char            *string,
                                     AkcConfirmationStatus *status)
{
  g_return_val_if_fail (string != NULL, FALSE);
  g_return_val_if_fail (status != NULL, FALSE);

  for (guint i = 0; i < G_N_ELEMENTS (status_strings); i++)
    {
      if (strcmp (string, status_strings[i]) == 0)
        {
          *status = (AkcConfirmationStatus) i;
          return TRUE;
        }
    }

  return FALSE;
}

static gboolean
is_identifier (const char *text)
{
  return text != NULL && akc_text_is_safe_id (text, strlen (text));
}

/* Input is a bounded JSON object (application §0.6, §4.2). */
static gboolean
input_is_valid (AkcJsonValue *input)
{
  return input != NULL &&
         akc_json_value_get_kind (input) == AKC_JSON_KIND_OBJECT &&
         akc_bjv_check (input, &akc_bjv_default_limits);
}

AkcConfirmationRecord *
akc_confirmation_record_new_unchecked (const char            *token,
                                       const char            *session_id,
                                       const char            *action,
                                       AkcJsonValue          *input,
                                       const char            *tool_call_id,
                                       gint64                 expires_at,
                                       AkcConfirmationStatus  status)
{
  AkcConfirmationRecord *self = g_new0 (AkcConfirmationRecord, 1);

  g_atomic_ref_count_init (&self->ref_count);
  self->token = g_strdup (token);
  self->session_id = g_strdup (session_id);
  self->action = g_strdup (action);
  self->input = akc_json_value_ref (input);
  self->tool_call_id = g_strdup (tool_call_id);
  self->expires_at = expires_at;
  self->status = status;

  return self;
}

/**
 * akc_confirmation_record_new:
 * @token: the token, an Identifier
 * @session_id: the session the record is bound to, not empty
 * @action: the action name, an Identifier
 * @input: the action's input, a bounded JSON object ([application §0.6](wire-formats.html#application-0))
 * @tool_call_id: the upstream tool call, an Identifier
 * @expires_at: the expiry in epoch milliseconds, a safe integer ≥ 0
 * @status: the status
 * @error: return location for a #GError
 *
 * Creates a record, such as one restored from storage. A field that breaks
 * its rule fails with %AKC_ERROR_CONFIG_INVALID, “Action confirmation
 * options are invalid.”
 *
 * Returns: (transfer full) (nullable): a new record, or %NULL with @error set
 *
 * Since: 0.1
 */
AkcConfirmationRecord *
akc_confirmation_record_new (const char             *token,
                             const char             *session_id,
                             const char             *action,
                             AkcJsonValue           *input,
                             const char             *tool_call_id,
                             gint64                  expires_at,
                             AkcConfirmationStatus   status,
                             GError                **error)
{
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  if (!is_identifier (token) ||
      session_id == NULL || *session_id == '\0' ||
      !is_identifier (action) ||
      !input_is_valid (input) ||
      !is_identifier (tool_call_id) ||
      expires_at < 0 || expires_at > AKC_JSON_MAX_SAFE_INTEGER ||
      akc_confirmation_status_to_string (status) == NULL)
    {
      g_set_error_literal (error, AKC_ERROR, AKC_ERROR_CONFIG_INVALID, OPTIONS_INVALID);
      return NULL;
    }

  return akc_confirmation_record_new_unchecked (token, session_id, action, input,
                                                tool_call_id, expires_at, status);
}

static const char *
member_string (AkcJsonValue *object,
               const char   *name)
{
  AkcJsonValue *member = akc_json_value_get_member (object, name);
  const char *text;
  gsize length;

  if (member == NULL || akc_json_value_get_kind (member) != AKC_JSON_KIND_STRING)
    return NULL;

  text = akc_json_value_get_string (member, &length);
  /* Identifiers and status words never contain U+0000. */
  if (strlen (text) != length)
    return NULL;

  return text;
}

/**
 * akc_confirmation_record_new_from_json:
 * @value: a stored confirmation `{token, action, input, toolCallId,
 *   expiresAt, status}` ([application §4.2](wire-formats.html#application-4)); a `sessionId` member is ignored
 * @session_id: the session to bind the record to
 * @error: return location for a #GError
 *
 * Creates a record from its stored form, bound to @session_id
 * ([application §5.3](wire-formats.html#application-5): restored records belong to the session that
 * restores them). Failures are those of [ctor@ConfirmationRecord.new].
 *
 * Returns: (transfer full) (nullable): a new record, or %NULL with @error set
 *
 * Since: 0.1
 */
AkcConfirmationRecord *
akc_confirmation_record_new_from_json (AkcJsonValue  *value,
                                       const char    *session_id,
                                       GError       **error)
{
  AkcJsonValue *expires_at;
  const char *status_text;
  AkcConfirmationStatus status;
  double expiry;

  g_return_val_if_fail (value != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  expires_at = akc_json_value_get_kind (value) == AKC_JSON_KIND_OBJECT
               ? akc_json_value_get_member (value, "expiresAt") : NULL;
  status_text = akc_json_value_get_kind (value) == AKC_JSON_KIND_OBJECT
                ? member_string (value, "status") : NULL;

  expiry = expires_at != NULL && akc_json_value_get_kind (expires_at) == AKC_JSON_KIND_NUMBER
           ? akc_json_value_get_number (expires_at) : -1.0;

  /* A safe integer ≥ 0 (the bounds are checked by the constructor). */
  if (expiry < 0 || expiry > 9007199254740991.0 || expiry != floor (expiry) ||
      status_text == NULL ||
      !akc_confirmation_status_from_string (status_text, &status))
    {
      g_set_error_literal (error, AKC_ERROR, AKC_ERROR_CONFIG_INVALID, OPTIONS_INVALID);
      return NULL;
    }

  return akc_confirmation_record_new (member_string (value, "token"),
                                      session_id,
                                      member_string (value, "action"),
                                      akc_json_value_get_member (value, "input"),
                                      member_string (value, "toolCallId"),
                                      (gint64) expiry,
                                      status,
                                      error);
}

/**
 * akc_confirmation_record_ref:
 * @self: a #AkcConfirmationRecord
 *
 * Acquires a reference on @self.
 *
 * Returns: (transfer full): @self
 *
 * Since: 0.1
 */
AkcConfirmationRecord *
akc_confirmation_record_ref (AkcConfirmationRecord *self)
{
  g_return_val_if_fail (self != NULL, NULL);

  g_atomic_ref_count_inc (&self->ref_count);

  return self;
}

/**
 * akc_confirmation_record_unref:
 * @self: (transfer full): a #AkcConfirmationRecord
 *
 * Releases a reference on @self.
 *
 * Since: 0.1
 */
void
akc_confirmation_record_unref (AkcConfirmationRecord *self)
{
  g_return_if_fail (self != NULL);

  if (!g_atomic_ref_count_dec (&self->ref_count))
    return;

  g_free (self->token);
  g_free (self->session_id);
  g_free (self->action);
  akc_json_value_unref (self->input);
  g_free (self->tool_call_id);
  g_free (self);
}

/**
 * akc_confirmation_record_get_token:
 * @self: a #AkcConfirmationRecord
 *
 * Gets the token, `confirm-«id»` for a proposal of [class@ActionConfirmation].
 *
 * Returns: the token
 *
 * Since: 0.1
 */
const char *
akc_confirmation_record_get_token (const AkcConfirmationRecord *self)
{
  g_return_val_if_fail (self != NULL, NULL);

  return self->token;
}

/**
 * akc_confirmation_record_get_session_id:
 * @self: a #AkcConfirmationRecord
 *
 * Gets the session the record is bound to; a token presented for another
 * session is inert.
 *
 * Returns: the session id
 *
 * Since: 0.1
 */
const char *
akc_confirmation_record_get_session_id (const AkcConfirmationRecord *self)
{
  g_return_val_if_fail (self != NULL, NULL);

  return self->session_id;
}

/**
 * akc_confirmation_record_get_action:
 * @self: a #AkcConfirmationRecord
 *
 * Gets the action, the name of the upstream tool.
 *
 * Returns: the action name
 *
 * Since: 0.1
 */
const char *
akc_confirmation_record_get_action (const AkcConfirmationRecord *self)
{
  g_return_val_if_fail (self != NULL, NULL);

  return self->action;
}

/**
 * akc_confirmation_record_get_input:
 * @self: a #AkcConfirmationRecord
 *
 * Gets the action's input, a JSON object.
 *
 * Returns: (transfer none): the input
 *
 * Since: 0.1
 */
AkcJsonValue *
akc_confirmation_record_get_input (const AkcConfirmationRecord *self)
{
  g_return_val_if_fail (self != NULL, NULL);

  return self->input;
}

/**
 * akc_confirmation_record_get_tool_call_id:
 * @self: a #AkcConfirmationRecord
 *
 * Gets the id of the upstream tool call.
 *
 * Returns: the tool call id
 *
 * Since: 0.1
 */
const char *
akc_confirmation_record_get_tool_call_id (const AkcConfirmationRecord *self)
{
  g_return_val_if_fail (self != NULL, NULL);

  return self->tool_call_id;
}

/**
 * akc_confirmation_record_get_expires_at:
 * @self: a #AkcConfirmationRecord
 *
 * Gets the expiry: an approval at or after this instant, in epoch
 * milliseconds, expires the record instead.
 *
 * Returns: the expiry in epoch milliseconds
 *
 * Since: 0.1
 */
gint64
akc_confirmation_record_get_expires_at (const AkcConfirmationRecord *self)
{
  g_return_val_if_fail (self != NULL, 0);

  return self->expires_at;
}

/**
 * akc_confirmation_record_get_status:
 * @self: a #AkcConfirmationRecord
 *
 * Gets the status.
 *
 * Returns: the status
 *
 * Since: 0.1
 */
AkcConfirmationStatus
akc_confirmation_record_get_status (const AkcConfirmationRecord *self)
{
  g_return_val_if_fail (self != NULL, AKC_CONFIRMATION_STATUS_PENDING);

  return self->status;
}

/**
 * akc_confirmation_record_with_status:
 * @self: a #AkcConfirmationRecord
 * @status: the new status
 *
 * Makes a copy of @self with another status.
 *
 * Returns: (transfer full): a new record
 *
 * Since: 0.1
 */
AkcConfirmationRecord *
akc_confirmation_record_with_status (const AkcConfirmationRecord *self,
                                     AkcConfirmationStatus        status)
{
  g_return_val_if_fail (self != NULL, NULL);
  g_return_val_if_fail (akc_confirmation_status_to_string (status) != NULL, NULL);

  return akc_confirmation_record_new_unchecked (self->token, self->session_id, self->action,
                                                self->input, self->tool_call_id,
                                                self->expires_at, status);
}

/**
 * akc_confirmation_record_to_json:
 * @self: a #AkcConfirmationRecord
 * @with_session_id: whether to include `sessionId`
 *
 * Gets the JSON form of the record, `{token, sessionId, action, input,
 * toolCallId, expiresAt, status}` in this order. A session snapshot stores
 * confirmations without `sessionId` ([application §4.2](wire-formats.html#application-4)).
 *
 * Returns: (transfer full): a JSON object
 *
 * Since: 0.1
 */
AkcJsonValue *
akc_confirmation_record_to_json (const AkcConfirmationRecord *self,
                                 gboolean                     with_session_id)
{
  g_autoptr(AkcJsonValue) token = NULL;
  g_autoptr(AkcJsonValue) session_id = NULL;
  g_autoptr(AkcJsonValue) action = NULL;
  g_autoptr(AkcJsonValue) tool_call_id = NULL;
  g_autoptr(AkcJsonValue) expires_at = NULL;
  g_autoptr(AkcJsonValue) status = NULL;
  const char *names[7];
  AkcJsonValue *values[7];
  gsize n = 0;

  g_return_val_if_fail (self != NULL, NULL);

  token = akc_json_value_new_string (self->token, -1);
  session_id = akc_json_value_new_string (self->session_id, -1);
  action = akc_json_value_new_string (self->action, -1);
  tool_call_id = akc_json_value_new_string (self->tool_call_id, -1);
  expires_at = akc_json_value_new_number ((double) self->expires_at);
  status = akc_json_value_new_string (akc_confirmation_status_to_string (self->status), -1);

  names[n] = "token", values[n++] = token;
  if (with_session_id)
    names[n] = "sessionId", values[n++] = session_id;
  names[n] = "action", values[n++] = action;
  names[n] = "input", values[n++] = self->input;
  names[n] = "toolCallId", values[n++] = tool_call_id;
  names[n] = "expiresAt", values[n++] = expires_at;
  names[n] = "status", values[n++] = status;

  return akc_json_value_new_object (names, values, n);
}

/**
 * akc_confirmation_record_equal:
 * @a: a #AkcConfirmationRecord
 * @b: a #AkcConfirmationRecord
 *
 * Compares two records field by field.
 *
 * Returns: %TRUE if they are equal
 *
 * Since: 0.1
 */
gboolean
akc_confirmation_record_equal (const AkcConfirmationRecord *a,
                               const AkcConfirmationRecord *b)
{
  g_return_val_if_fail (a != NULL, FALSE);
  g_return_val_if_fail (b != NULL, FALSE);

  return strcmp (a->token, b->token) == 0 &&
         strcmp (a->session_id, b->session_id) == 0 &&
         strcmp (a->action, b->action) == 0 &&
         akc_json_value_equal (a->input, b->input) &&
         strcmp (a->tool_call_id, b->tool_call_id) == 0 &&
         a->expires_at == b->expires_at &&
         a->status == b->status;
}
