/* akc-policy-trace.c
 *
 * SPDX-License-Identifier: MIT
 */

#include "config.h"

#include "akc-action-enum-types.h"
#include "akc-policy-trace-private.h"

/**
 * AkcPolicyTrace:
 *
 * One decision of an [class@CapabilityPolicy] ([application §5.4](wire-formats.html#application-5)):
 * `{id: "policy-N", toolCallId, action, phase, decision, reason,
 * requiredCapabilities, timestamp}`. Immutable.
 *
 * Since: 0.1
 */

struct _AkcPolicyTrace
{
  gatomicrefcount  ref_count;
  char            *id;
  char            *tool_call_id;
  char            *action;
  AkcToolPhase     phase;
  AkcPolicyReason  reason;
  GStrv            required_capabilities;
  gint64           timestamp;
};

G_DEFINE_BOXED_TYPE (AkcPolicyTrace, akc_policy_trace, akc_policy_trace_ref, akc_policy_trace_unref)

static const char * const reason_strings[] = {
  [AKC_POLICY_REASON_ALLOWED] = "allowed",
  [AKC_POLICY_REASON_POLICY_FAILURE] = "policy-failure",
  [AKC_POLICY_REASON_ACTION_UNREGISTERED] = "action-unregistered",
  [AKC_POLICY_REASON_MISSING_CONTEXT] = "missing-context",
  [AKC_POLICY_REASON_SESSION_MISMATCH] = "session-mismatch",
  [AKC_POLICY_REASON_MISSING_CAPABILITY] = "missing-capability",
  [AKC_POLICY_REASON_COMPOSED_POLICY_DENIED] = "composed-policy-denied",
};

/**
 * akc_policy_reason_to_string:
 * @reason: a reason
 *
 * Gets the wire string of @reason, such as `missing-capability`.
 *
 * Returns: the wire string, or %NULL for a value outside the enum
 *
 * Since: 0.1
 */
const char *
akc_policy_reason_to_string (AkcPolicyReason reason)
{
  if ((guint) reason >= G_N_ELEMENTS (reason_strings))
    return NULL;

  return reason_strings[reason];
}

AkcPolicyTrace *
akc_policy_trace_new (const char         *id,
                      const char         *tool_call_id,
                      const char         *action,
                      AkcToolPhase        phase,
                      AkcPolicyReason     reason,
                      const char * const *required_capabilities,
                      gint64              timestamp)
{
  AkcPolicyTrace *self = g_new0 (AkcPolicyTrace, 1);

  g_atomic_ref_count_init (&self->ref_count);
  self->id = g_strdup (id);
  self->tool_call_id = g_strdup (tool_call_id);
  self->action = g_strdup (action);
  self->phase = phase;
  self->reason = reason;
  self->required_capabilities = required_capabilities != NULL
                                ? g_strdupv ((char **) required_capabilities)
                                : g_new0 (char *, 1);
  self->timestamp = timestamp;

  return self;
}

/**
 * akc_policy_trace_ref:
 * @self: a #AkcPolicyTrace
 *
 * Acquires a reference on @self.
 *
 * Returns: (transfer full): @self
 *
 * Since: 0.1
 */
AkcPolicyTrace *
akc_policy_trace_ref (AkcPolicyTrace *self)
{
  g_return_val_if_fail (self != NULL, NULL);

  g_atomic_ref_count_inc (&self->ref_count);

  return self;
}

/**
 * akc_policy_trace_unref:
 * @self: (transfer full): a #AkcPolicyTrace
 *
 * Releases a reference on @self.
 *
 * Since: 0.1
 */
void
akc_policy_trace_unref (AkcPolicyTrace *self)
{
  g_return_if_fail (self != NULL);

  if (!g_atomic_ref_count_dec (&self->ref_count))
    return;

  g_free (self->id);
  g_free (self->tool_call_id);
  g_free (self->action);
  g_strfreev (self->required_capabilities);
  g_free (self);
}

/**
 * akc_policy_trace_get_id:
 * @self: a #AkcPolicyTrace
 *
 * Gets the trace id, `policy-N` with N counting from 1 for each policy.
 *
 * Returns: the id
 *
 * Since: 0.1
 */
const char *
akc_policy_trace_get_id (const AkcPolicyTrace *self)
{
  g_return_val_if_fail (self != NULL, NULL);

  return self->id;
}

/**
 * akc_policy_trace_get_tool_call_id:
 * @self: a #AkcPolicyTrace
 *
 * Gets the id of the tool call that was authorized.
 *
 * Returns: the tool call id
 *
 * Since: 0.1
 */
const char *
akc_policy_trace_get_tool_call_id (const AkcPolicyTrace *self)
{
  g_return_val_if_fail (self != NULL, NULL);

  return self->tool_call_id;
}

/**
 * akc_policy_trace_get_action:
 * @self: a #AkcPolicyTrace
 *
 * Gets the action, the tool call's name.
 *
 * Returns: the action name
 *
 * Since: 0.1
 */
const char *
akc_policy_trace_get_action (const AkcPolicyTrace *self)
{
  g_return_val_if_fail (self != NULL, NULL);

  return self->action;
}

/**
 * akc_policy_trace_get_phase:
 * @self: a #AkcPolicyTrace
 *
 * Gets whether the call was being proposed or about to run.
 *
 * Returns: the phase
 *
 * Since: 0.1
 */
AkcToolPhase
akc_policy_trace_get_phase (const AkcPolicyTrace *self)
{
  g_return_val_if_fail (self != NULL, AKC_TOOL_PHASE_PROPOSE);

  return self->phase;
}

/**
 * akc_policy_trace_get_allowed:
 * @self: a #AkcPolicyTrace
 *
 * Gets the decision: `allow` or `deny`.
 *
 * Returns: %TRUE if the call was allowed
 *
 * Since: 0.1
 */
gboolean
akc_policy_trace_get_allowed (const AkcPolicyTrace *self)
{
  g_return_val_if_fail (self != NULL, FALSE);

  return self->reason == AKC_POLICY_REASON_ALLOWED;
}

/**
 * akc_policy_trace_get_reason:
 * @self: a #AkcPolicyTrace
 *
 * Gets the effective reason of the decision.
 *
 * Returns: the reason
 *
 * Since: 0.1
 */
AkcPolicyReason
akc_policy_trace_get_reason (const AkcPolicyTrace *self)
{
  g_return_val_if_fail (self != NULL, AKC_POLICY_REASON_POLICY_FAILURE);

  return self->reason;
}

/**
 * akc_policy_trace_get_required_capabilities:
 * @self: a #AkcPolicyTrace
 *
 * Gets the capabilities the action requires, de-duplicated; empty for an
 * unregistered action.
 *
 * Returns: (transfer none) (array zero-terminated=1): the capabilities
 *
 * Since: 0.1
 */
const char * const *
akc_policy_trace_get_required_capabilities (const AkcPolicyTrace *self)
{
  g_return_val_if_fail (self != NULL, NULL);

  return (const char * const *) self->required_capabilities;
}

/**
 * akc_policy_trace_get_timestamp:
 * @self: a #AkcPolicyTrace
 *
 * Gets when the decision was made.
 *
 * Returns: the time in epoch milliseconds
 *
 * Since: 0.1
 */
gint64
akc_policy_trace_get_timestamp (const AkcPolicyTrace *self)
{
  g_return_val_if_fail (self != NULL, 0);

  return self->timestamp;
}

/**
 * akc_policy_trace_to_json:
 * @self: a #AkcPolicyTrace
 *
 * Gets the JSON form of the trace, `{id, toolCallId, action, phase,
 * decision, reason, requiredCapabilities, timestamp}`.
 *
 * Returns: (transfer full): a JSON object
 *
 * Since: 0.1
 */
AkcJsonValue *
akc_policy_trace_to_json (const AkcPolicyTrace *self)
{
  static const char * const names[] = {
    "id", "toolCallId", "action", "phase", "decision", "reason",
    "requiredCapabilities", "timestamp",
  };
  g_autoptr(GPtrArray) capabilities = g_ptr_array_new_with_free_func ((GDestroyNotify) akc_json_value_unref);
  AkcJsonValue *values[G_N_ELEMENTS (names)];
  AkcJsonValue *object;

  g_return_val_if_fail (self != NULL, NULL);

  for (guint i = 0; self->required_capabilities[i] != NULL; i++)
    g_ptr_array_add (capabilities, akc_json_value_new_string (self->required_capabilities[i], -1));

  values[0] = akc_json_value_new_string (self->id, -1);
  values[1] = akc_json_value_new_string (self->tool_call_id, -1);
  values[2] = akc_json_value_new_string (self->action, -1);
  values[3] = akc_json_value_new_string (self->phase == AKC_TOOL_PHASE_EXECUTE ? "execute" : "propose", -1);
  values[4] = akc_json_value_new_string (self->reason == AKC_POLICY_REASON_ALLOWED ? "allow" : "deny", -1);
  values[5] = akc_json_value_new_string (akc_policy_reason_to_string (self->reason), -1);
  values[6] = akc_json_value_new_array ((AkcJsonValue * const *) capabilities->pdata, capabilities->len);
  values[7] = akc_json_value_new_number ((double) self->timestamp);

  object = akc_json_value_new_object (names, values, G_N_ELEMENTS (names));
  for (guint i = 0; i < G_N_ELEMENTS (values); i++)
    akc_json_value_unref (values[i]);

  return object;
}
