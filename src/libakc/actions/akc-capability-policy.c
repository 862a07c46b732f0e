/* akc-capability-policy.c
 *
 * SPDX-License-Identifier: MIT
 */

#include "config.h"

#include <string.h>

#include "akc-capability-policy.h"
#include "akc-chat-private.h"
#include "akc-error.h"
#include "akc-policy-trace-private.h"
#include "akc-text-private.h"

/**
 * AkcCapabilityPolicy:
 *
 * Decides whether a typed action may be proposed or run, from the
 * capabilities the host grants the session ([application §5.4](wire-formats.html#application-5)).
 *
 * The requirements map each action name to the capabilities it needs;
 * the trusted context comes from the host alone
 * ([method@CapabilityPolicy.set_context_func]), never from prompts,
 * frames or tool arguments. A decision is taken in this order:
 *
 * 1. the context cannot be read or is malformed: `policy-failure`;
 * 2. the action has no requirement entry: `action-unregistered`;
 * 3. there is no context: `missing-context`;
 * 4. the context is another session's: `session-mismatch`;
 * 5. a required capability is missing: `missing-capability`;
 * 6. otherwise, even with no requirement at all: `allowed`.
 *
 * Every decision is recorded as a [struct@PolicyTrace]
 * ([method@CapabilityPolicy.get_trace]) and emitted with
 * [signal@CapabilityPolicy::trace]; an observer cannot change the
 * decision, which is taken before the signal.
 *
 * [method@CapabilityPolicy.install] puts the policy in front of the
 * authorizer of an [class@Chat], which asks it when a tool call is
 * proposed and again before an approved call runs: a capability revoked
 * in between keeps the call from running.
 *
 * Since: 0.1
 */

#define SESSION_INVALID "Action policy session is invalid."
#define REQUIREMENTS_INVALID "Action policy requirements are invalid."

struct _AkcCapabilityPolicy
{
  GObject               parent_instance;

  char                 *session_id;
  /* Action → de-duplicated capabilities (GStrv). */
  GHashTable           *requirements;

  AkcPolicyContextFunc  context;
  gpointer              context_data;
  GDestroyNotify        context_destroy;

  AkcClockFunc          clock;
  gpointer              clock_data;
  GDestroyNotify        clock_destroy;

  GPtrArray            *traces;
};

G_DEFINE_FINAL_TYPE (AkcCapabilityPolicy, akc_capability_policy, G_TYPE_OBJECT)

enum {
  SIGNAL_TRACE,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

static gint64
real_clock (gpointer user_data)
{
  return g_get_real_time () / 1000;
}

static void
akc_capability_policy_finalize (GObject *object)
{
  AkcCapabilityPolicy *self = AKC_CAPABILITY_POLICY (object);

  if (self->context_destroy != NULL)
    g_clear_pointer (&self->context_data, self->context_destroy);
  if (self->clock_destroy != NULL)
    g_clear_pointer (&self->clock_data, self->clock_destroy);

  g_clear_pointer (&self->session_id, g_free);
  g_clear_pointer (&self->requirements, g_hash_table_unref);
  g_clear_pointer (&self->traces, g_ptr_array_unref);

  G_OBJECT_CLASS (akc_capability_policy_parent_class)->finalize (object);
}

static void
akc_capability_policy_class_init (AkcCapabilityPolicyClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->finalize = akc_capability_policy_finalize;

  /**
   * AkcCapabilityPolicy::trace:
   * @self: the policy
   * @trace: the decision
   *
   * Emitted after each decision (the reference's `onTrace`). The decision
   * is already taken and recorded; a handler cannot change it.
   *
   * Since: 0.1
   */
  signals[SIGNAL_TRACE] =
    g_signal_new ("trace",
                  G_TYPE_FROM_CLASS (klass),
                  G_SIGNAL_RUN_LAST,
                  0,
                  NULL, NULL,
                  NULL,
                  G_TYPE_NONE, 1,
                  AKC_TYPE_POLICY_TRACE | G_SIGNAL_TYPE_STATIC_SCOPE);
}

static void
akc_capability_policy_init (AkcCapabilityPolicy *self)
{
  self->requirements = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, (GDestroyNotify) g_strfreev);
  self->traces = g_ptr_array_new_with_free_func ((GDestroyNotify) akc_policy_trace_unref);
  self->clock = real_clock;
}

static gboolean
is_identifier (const char *text,
               gsize       length)
{
  return text != NULL && strlen (text) == length && akc_text_is_safe_id (text, length);
}

/* Returns: (transfer full) (nullable): the de-duplicated capabilities, or
 * %NULL if @list is not an array of Identifiers. */
static GStrv
parse_capabilities (AkcJsonValue *list)
{
  g_autoptr(GStrvBuilder) builder = NULL;
  g_autoptr(GHashTable) seen = NULL;

  if (akc_json_value_get_kind (list) != AKC_JSON_KIND_ARRAY)
    return NULL;

  builder = g_strv_builder_new ();
  seen = g_hash_table_new (g_str_hash, g_str_equal);
  for (gsize i = 0; i < akc_json_value_get_length (list); i++)
    {
      AkcJsonValue *item = akc_json_value_get_element (list, i);
      const char *name;
      gsize length;

      if (akc_json_value_get_kind (item) != AKC_JSON_KIND_STRING)
        return NULL;

      name = akc_json_value_get_string (item, &length);
      if (!is_identifier (name, length))
        return NULL;

      if (g_hash_table_add (seen, (gpointer) name))
        g_strv_builder_add (builder, name);
    }

  return g_strv_builder_end (builder);
}

/**
 * akc_policy_context_new:
 * @session_id: the session the host vouches for
 * @capabilities: (array zero-terminated=1): the capabilities it grants
 *
 * Builds a trusted context for an [callback@PolicyContextFunc].
 *
 * Returns: (transfer full): the context, a JSON object
 *
 * Since: 0.1
 */
AkcJsonValue *
akc_policy_context_new (const char         *session_id,
                        const char * const *capabilities)
{
  g_autoptr(GPtrArray) items = g_ptr_array_new_with_free_func ((GDestroyNotify) akc_json_value_unref);
  g_autoptr(AkcJsonValue) session = NULL;
  g_autoptr(AkcJsonValue) list = NULL;

  g_return_val_if_fail (session_id != NULL, NULL);
  g_return_val_if_fail (capabilities != NULL, NULL);

  for (guint i = 0; capabilities[i] != NULL; i++)
    g_ptr_array_add (items, akc_json_value_new_string (capabilities[i], -1));

  session = akc_json_value_new_string (session_id, -1);
  list = akc_json_value_new_array ((AkcJsonValue * const *) items->pdata, items->len);

  return akc_json_value_new_object ((const char *[]) { "sessionId", "capabilities" },
                                    (AkcJsonValue *[]) { session, list }, 2);
}

/**
 * akc_capability_policy_new:
 * @session_id: the session whose tool calls are authorized, not empty
 * @requirements: a JSON object mapping each action name to the list of
 *   capabilities it requires; names and capabilities are Identifiers
 * @error: return location for a #GError
 *
 * Creates a policy. An empty @session_id fails with
 * %AKC_ERROR_CONFIG_INVALID, “Action policy session is invalid.”, and
 * invalid requirements with “Action policy requirements are invalid.” A
 * capability listed twice counts once (the first occurrence keeps its
 * place).
 *
 * Until [method@CapabilityPolicy.set_context_func] is called there is no
 * context, and every registered action is denied with `missing-context`.
 *
 * Returns: (transfer full) (nullable): a new policy, or %NULL with @error set
 *
 * Since: 0.1
 */
AkcCapabilityPolicy *
akc_capability_policy_new (const char    *session_id,
                           AkcJsonValue  *requirements,
                           GError       **error)
{
  g_autoptr(AkcCapabilityPolicy) self = NULL;

  g_return_val_if_fail (requirements != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  if (session_id == NULL || *session_id == '\0')
    {
      g_set_error_literal (error, AKC_ERROR, AKC_ERROR_CONFIG_INVALID, SESSION_INVALID);
      return NULL;
    }

  self = g_object_new (AKC_TYPE_CAPABILITY_POLICY, NULL);
  self->session_id = g_strdup (session_id);

  if (akc_json_value_get_kind (requirements) != AKC_JSON_KIND_OBJECT)
    {
      g_set_error_literal (error, AKC_ERROR, AKC_ERROR_CONFIG_INVALID, REQUIREMENTS_INVALID);
      return NULL;
    }

  for (gsize i = 0; i < akc_json_value_get_member_count (requirements); i++)
    {
      gsize length;
      const char *action = akc_json_value_get_member_name (requirements, i, &length);
      GStrv capabilities;

      if (!is_identifier (action, length) ||
          (capabilities = parse_capabilities (akc_json_value_get_member_value (requirements, i))) == NULL)
        {
          g_set_error_literal (error, AKC_ERROR, AKC_ERROR_CONFIG_INVALID, REQUIREMENTS_INVALID);
          return NULL;
        }

      g_hash_table_replace (self->requirements, g_strdup (action), capabilities);
    }

  return g_steal_pointer (&self);
}

/**
 * akc_capability_policy_get_session_id:
 * @self: a #AkcCapabilityPolicy
 *
 * Gets the session whose tool calls the policy authorizes.
 *
 * Returns: the session id
 *
 * Since: 0.1
 */
const char *
akc_capability_policy_get_session_id (AkcCapabilityPolicy *self)
{
  g_return_val_if_fail (AKC_IS_CAPABILITY_POLICY (self), NULL);

  return self->session_id;
}

/**
 * akc_capability_policy_get_required_capabilities:
 * @self: a #AkcCapabilityPolicy
 * @action: an action name
 *
 * Gets the capabilities @action requires, de-duplicated.
 *
 * Returns: (transfer none) (nullable) (array zero-terminated=1): the
 *   capabilities, or %NULL when @action has no requirement entry
 *
 * Since: 0.1
 */
const char * const *
akc_capability_policy_get_required_capabilities (AkcCapabilityPolicy *self,
                                                 const char          *action)
{
  g_return_val_if_fail (AKC_IS_CAPABILITY_POLICY (self), NULL);
  g_return_val_if_fail (action != NULL, NULL);

  return g_hash_table_lookup (self->requirements, action);
}

/**
 * akc_capability_policy_set_context_func:
 * @self: a #AkcCapabilityPolicy
 * @func: (nullable) (scope notified) (closure user_data) (destroy destroy): the
 *   host's context getter, or %NULL for no context
 * @user_data: data for @func
 * @destroy: (nullable): frees @user_data
 *
 * Sets where the trusted context comes from. It is asked at every
 * decision, so a capability the host revokes is missing from the next one.
 *
 * Since: 0.1
 */
void
akc_capability_policy_set_context_func (AkcCapabilityPolicy  *self,
                                        AkcPolicyContextFunc  func,
                                        gpointer              user_data,
                                        GDestroyNotify        destroy)
{
  g_return_if_fail (AKC_IS_CAPABILITY_POLICY (self));

  if (self->context_destroy != NULL)
    g_clear_pointer (&self->context_data, self->context_destroy);

  self->context = func;
  self->context_data = func != NULL ? user_data : NULL;
  self->context_destroy = func != NULL ? destroy : NULL;
}

/**
 * akc_capability_policy_set_clock:
 * @self: a #AkcCapabilityPolicy
 * @func: (nullable) (scope notified) (closure user_data) (destroy destroy): the
 *   clock, or %NULL for the real time
 * @user_data: data for @func
 * @destroy: (nullable): frees @user_data
 *
 * Sets the clock that dates traces (the reference's `now`).
 *
 * Since: 0.1
 */
void
akc_capability_policy_set_clock (AkcCapabilityPolicy *self,
                                 AkcClockFunc         func,
                                 gpointer             user_data,
                                 GDestroyNotify       destroy)
{
  g_return_if_fail (AKC_IS_CAPABILITY_POLICY (self));

  if (self->clock_destroy != NULL)
    g_clear_pointer (&self->clock_data, self->clock_destroy);

  self->clock = func != NULL ? func : real_clock;
  self->clock_data = func != NULL ? user_data : NULL;
  self->clock_destroy = func != NULL ? destroy : NULL;
}

static gboolean
is_string (AkcJsonValue *value)
{
  return value != NULL && akc_json_value_get_kind (value) == AKC_JSON_KIND_STRING;
}

/* Whether a JSON string (which may contain U+0000) is exactly @text. */
static gboolean
string_equals (AkcJsonValue *value,
               const char   *text)
{
  gsize length;
  const char *string = akc_json_value_get_string (value, &length);

  return length == strlen (text) && memcmp (string, text, length) == 0;
}

/* The local decision of application §5.4, in its exact order. */
static AkcPolicyReason
decide (AkcCapabilityPolicy *self,
        const char          *action)
{
  g_autoptr(AkcJsonValue) context = NULL;
  g_autoptr(GError) error = NULL;
  AkcJsonValue *session = NULL;
  AkcJsonValue *capabilities = NULL;
  const char * const *required;
  gboolean present = FALSE;

  if (self->context != NULL)
    {
      context = self->context (self, self->context_data, &error);
      if (context == NULL && error != NULL)
        return AKC_POLICY_REASON_POLICY_FAILURE;
    }

  if (context != NULL && akc_json_value_get_kind (context) != AKC_JSON_KIND_NULL)
    {
      if (akc_json_value_get_kind (context) != AKC_JSON_KIND_OBJECT)
        return AKC_POLICY_REASON_POLICY_FAILURE;

      session = akc_json_value_get_member (context, "sessionId");
      capabilities = akc_json_value_get_member (context, "capabilities");
      if (!is_string (session) ||
          capabilities == NULL || akc_json_value_get_kind (capabilities) != AKC_JSON_KIND_ARRAY)
        return AKC_POLICY_REASON_POLICY_FAILURE;

      for (gsize i = 0; i < akc_json_value_get_length (capabilities); i++)
        if (!is_string (akc_json_value_get_element (capabilities, i)))
          return AKC_POLICY_REASON_POLICY_FAILURE;

      present = TRUE;
    }

  required = g_hash_table_lookup (self->requirements, action);
  if (required == NULL)
    return AKC_POLICY_REASON_ACTION_UNREGISTERED;

  if (!present)
    return AKC_POLICY_REASON_MISSING_CONTEXT;

  if (!string_equals (session, self->session_id))
    return AKC_POLICY_REASON_SESSION_MISMATCH;

  for (guint i = 0; required[i] != NULL; i++)
    {
      gboolean granted = FALSE;

      for (gsize j = 0; !granted && j < akc_json_value_get_length (capabilities); j++)
        granted = string_equals (akc_json_value_get_element (capabilities, j), required[i]);

      if (!granted)
        return AKC_POLICY_REASON_MISSING_CAPABILITY;
    }

  return AKC_POLICY_REASON_ALLOWED;
}

static gboolean
record (AkcCapabilityPolicy *self,
        const char          *tool_call_id,
        const char          *action,
        AkcToolPhase         phase,
        AkcPolicyReason      reason,
        AkcPolicyReason     *out_reason)
{
  g_autoptr(AkcPolicyTrace) trace = NULL;
  g_autofree char *id = g_strdup_printf ("policy-%u", self->traces->len + 1);

  trace = akc_policy_trace_new (id, tool_call_id, action, phase, reason,
                                g_hash_table_lookup (self->requirements, action),
                                self->clock (self->clock_data));
  g_ptr_array_add (self->traces, akc_policy_trace_ref (trace));

  if (out_reason != NULL)
    *out_reason = reason;

  g_signal_emit (self, signals[SIGNAL_TRACE], 0, trace);

  return reason == AKC_POLICY_REASON_ALLOWED;
}

/**
 * akc_capability_policy_authorize_tool_call:
 * @self: a #AkcCapabilityPolicy
 * @tool_call_id: the tool call id
 * @action: the action, the tool call's name
 * @phase: whether the call is being proposed or is about to run
 * @reason: (out) (optional): return location for the reason
 *
 * Decides whether a tool call may be proposed or run, and records a trace.
 *
 * Returns: %TRUE if the call is allowed
 *
 * Since: 0.1
 */
gboolean
akc_capability_policy_authorize_tool_call (AkcCapabilityPolicy *self,
                                           const char          *tool_call_id,
                                           const char          *action,
                                           AkcToolPhase         phase,
                                           AkcPolicyReason     *reason)
{
  gboolean allowed;

  g_return_val_if_fail (AKC_IS_CAPABILITY_POLICY (self), FALSE);
  g_return_val_if_fail (tool_call_id != NULL, FALSE);
  g_return_val_if_fail (action != NULL, FALSE);
  g_return_val_if_fail (phase <= AKC_TOOL_PHASE_EXECUTE, FALSE);

  /* The context getter and the observers may drop the last reference. */
  g_object_ref (self);
  allowed = record (self, tool_call_id, action, phase, decide (self, action), reason);
  g_object_unref (self);

  return allowed;
}

typedef enum
{
  UPSTREAM_ALLOW,
  UPSTREAM_DENY,
  UPSTREAM_FAIL,
} UpstreamResult;

typedef UpstreamResult (*UpstreamCall) (AkcCapabilityPolicy *self,
                                        gpointer             data);

/* compose(): the local decision; only when it allows, the upstream; when
 * the upstream allows too, the local decision again (the context may have
 * changed meanwhile). One trace, with the effective reason. */
static gboolean
authorize_composed (AkcCapabilityPolicy *self,
                    const char          *tool_call_id,
                    const char          *action,
                    AkcToolPhase         phase,
                    UpstreamCall         upstream,
                    gpointer             data,
                    AkcPolicyReason     *out_reason)
{
  AkcPolicyReason reason = decide (self, action);

  if (reason == AKC_POLICY_REASON_ALLOWED && upstream != NULL)
    {
      switch (upstream (self, data))
        {
        case UPSTREAM_ALLOW:
          reason = decide (self, action);
          break;
        case UPSTREAM_DENY:
          reason = AKC_POLICY_REASON_COMPOSED_POLICY_DENIED;
          break;
        case UPSTREAM_FAIL:
        default:
          reason = AKC_POLICY_REASON_POLICY_FAILURE;
          break;
        }
    }

  return record (self, tool_call_id, action, phase, reason, out_reason);
}

typedef struct
{
  AkcPolicyUpstreamFunc  func;
  gpointer               user_data;
  const char            *tool_call_id;
  const char            *action;
  AkcToolPhase           phase;
} PublicUpstream;

static UpstreamResult
call_public_upstream (AkcCapabilityPolicy *self,
                      gpointer             data)
{
  PublicUpstream *upstream = data;
  g_autoptr(GError) error = NULL;

  if (upstream->func (self, upstream->tool_call_id, upstream->action, upstream->phase,
                      upstream->user_data, &error))
    return UPSTREAM_ALLOW;

  return error != NULL ? UPSTREAM_FAIL : UPSTREAM_DENY;
}

/**
 * akc_capability_policy_authorize_composed:
 * @self: a #AkcCapabilityPolicy
 * @tool_call_id: the tool call id
 * @action: the action, the tool call's name
 * @phase: whether the call is being proposed or is about to run
 * @upstream: (nullable) (scope call) (closure user_data): the upstream
 *   authorizer, or %NULL
 * @user_data: data for @upstream
 * @reason: (out) (optional): return location for the effective reason
 *
 * Decides like [method@CapabilityPolicy.authorize_tool_call], composed
 * with an upstream authorizer (the reference's `compose`). The upstream is
 * asked only when the policy allows: its denial is
 * `composed-policy-denied`, its failure `policy-failure`, and when it
 * allows the policy decides again, since the context may have changed
 * while the upstream decided (`missing-capability` after a revocation).
 * One trace is recorded, with the effective reason.
 *
 * Returns: %TRUE if the call is allowed
 *
 * Since: 0.1
 */
gboolean
akc_capability_policy_authorize_composed (AkcCapabilityPolicy   *self,
                                          const char            *tool_call_id,
                                          const char            *action,
                                          AkcToolPhase           phase,
                                          AkcPolicyUpstreamFunc  upstream,
                                          gpointer               user_data,
                                          AkcPolicyReason       *reason)
{
  PublicUpstream call = { upstream, user_data, tool_call_id, action, phase };
  gboolean allowed;

  g_return_val_if_fail (AKC_IS_CAPABILITY_POLICY (self), FALSE);
  g_return_val_if_fail (tool_call_id != NULL, FALSE);
  g_return_val_if_fail (action != NULL, FALSE);
  g_return_val_if_fail (phase <= AKC_TOOL_PHASE_EXECUTE, FALSE);

  g_object_ref (self);
  allowed = authorize_composed (self, tool_call_id, action, phase,
                                upstream != NULL ? call_public_upstream : NULL, &call, reason);
  g_object_unref (self);

  return allowed;
}

/**
 * akc_capability_policy_get_trace:
 * @self: a #AkcCapabilityPolicy
 *
 * Gets every decision so far, oldest first. The array owns its traces
 * (its free function releases them): free it with g_ptr_array_unref().
 *
 * Returns: (transfer container) (element-type AkcPolicyTrace): a copy of the traces
 *
 * Since: 0.1
 */
GPtrArray *
akc_capability_policy_get_trace (AkcCapabilityPolicy *self)
{
  GPtrArray *copy;

  g_return_val_if_fail (AKC_IS_CAPABILITY_POLICY (self), NULL);

  copy = g_ptr_array_new_full (self->traces->len, (GDestroyNotify) akc_policy_trace_unref);
  for (guint i = 0; i < self->traces->len; i++)
    g_ptr_array_add (copy, akc_policy_trace_ref (g_ptr_array_index (self->traces, i)));

  return copy;
}

/* ------------------------------------------------------------------ */
/* withActionPolicy                                                     */
/* ------------------------------------------------------------------ */

typedef struct
{
  AkcCapabilityPolicy  *policy;
  AkcToolAuthorizeFunc  func;
  gpointer              user_data;
  GDestroyNotify        destroy;
} Installed;

static void
installed_free (gpointer data)
{
  Installed *installed = data;

  if (installed->destroy != NULL)
    installed->destroy (installed->user_data);
  g_object_unref (installed->policy);
  g_free (installed);
}

typedef struct
{
  Installed    *installed;
  AkcChat      *chat;
  AkcToolCall  *call;
  AkcToolPhase  phase;
} ChatUpstream;

static UpstreamResult
call_chat_upstream (AkcCapabilityPolicy *self,
                    gpointer             data)
{
  ChatUpstream *upstream = data;
  g_autofree char *denial = NULL;

  denial = upstream->installed->func (upstream->chat, upstream->call, upstream->phase,
                                      upstream->installed->user_data);

  return denial == NULL ? UPSTREAM_ALLOW : UPSTREAM_DENY;
}

static char *
authorize_chat_tool_call (AkcChat      *chat,
                          AkcToolCall  *call,
                          AkcToolPhase  phase,
                          gpointer      user_data)
{
  Installed *installed = user_data;
  g_autoptr(AkcCapabilityPolicy) policy = g_object_ref (installed->policy);
  ChatUpstream upstream = { installed, chat, call, phase };
  AkcPolicyReason reason;

  if (authorize_composed (policy,
                          akc_tool_call_get_id (call),
                          akc_tool_call_get_name (call),
                          phase,
                          installed->func != NULL ? call_chat_upstream : NULL,
                          &upstream,
                          &reason))
    return NULL;

  return g_strdup (akc_policy_reason_to_string (reason));
}

/**
 * akc_capability_policy_install:
 * @self: a #AkcCapabilityPolicy
 * @chat: the controller whose tool calls the policy authorizes
 *
 * Makes the policy, composed with @chat's current authorizer, the
 * authorizer of @chat (the reference's `withActionPolicy`): see
 * [method@CapabilityPolicy.authorize_composed] and
 * [method@Chat.set_tool_authorizer]. A denied proposal fails with
 * %AKC_ERROR_TOOL_FORBIDDEN and the reason (such as `missing-capability`)
 * as its message; a call denied when it is about to run becomes an error
 * with the reason, and never runs.
 *
 * Since: 0.1
 */
void
akc_capability_policy_install (AkcCapabilityPolicy *self,
                               AkcChat             *chat)
{
  Installed *installed;

  g_return_if_fail (AKC_IS_CAPABILITY_POLICY (self));
  g_return_if_fail (AKC_IS_CHAT (chat));

  installed = g_new0 (Installed, 1);
  installed->policy = g_object_ref (self);
  akc_chat_steal_tool_authorizer (chat, &installed->func, &installed->user_data, &installed->destroy);
  akc_chat_set_tool_authorizer (chat, authorize_chat_tool_call, installed, installed_free);
}
