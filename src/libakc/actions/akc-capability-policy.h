/* akc-capability-policy.h: capability policy of typed actions
 * (application §5.4)
 *
 * SPDX-License-Identifier: MIT
 */

#pragma once

#if !defined(__AKC_INSIDE__) && !defined(AKC_COMPILATION)
#error "Only <akc.h> can be included directly."
#endif

#include <glib-object.h>

#include "akc-chat.h"
#include "akc-clock.h"
#include "akc-json.h"
#include "akc-policy-trace.h"
#include "akc-tool.h"
#include "akc-version-macros.h"

G_BEGIN_DECLS

#define AKC_TYPE_CAPABILITY_POLICY (akc_capability_policy_get_type ())

AKC_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (AkcCapabilityPolicy, akc_capability_policy, AKC, CAPABILITY_POLICY, GObject)

/**
 * AkcPolicyContextFunc:
 * @policy: the policy
 * @user_data: the data given to [method@CapabilityPolicy.set_context_func]
 * @error: return location for a #GError
 *
 * Gets the trusted host context: a JSON object `{"sessionId": string,
 * "capabilities": [string, …]}` (other members are ignored), made by the
 * host, never from prompts, frames or tool arguments
 * ([func@policy_context_new] builds one).
 *
 * Returns: (transfer full) (nullable): the context; %NULL (or JSON null)
 *   when there is none, or %NULL with @error set when it cannot be read
 *
 * Since: 0.1
 */
typedef AkcJsonValue *(*AkcPolicyContextFunc) (AkcCapabilityPolicy  *policy,
                                               gpointer              user_data,
                                               GError              **error);

/**
 * AkcPolicyUpstreamFunc:
 * @policy: the policy
 * @tool_call_id: the tool call id
 * @action: the action, the tool call's name
 * @phase: whether the call is being proposed or is about to run
 * @user_data: the data given with the function
 * @error: return location for a #GError
 *
 * An upstream authorizer composed with a policy
 * ([method@CapabilityPolicy.authorize_composed]).
 *
 * Returns: %TRUE to allow; %FALSE to deny, with @error set when the
 *   authorizer failed
 *
 * Since: 0.1
 */
typedef gboolean (*AkcPolicyUpstreamFunc) (AkcCapabilityPolicy  *policy,
                                           const char           *tool_call_id,
                                           const char           *action,
                                           AkcToolPhase          phase,
                                           gpointer              user_data,
                                           GError              **error);

AKC_AVAILABLE_IN_ALL
AkcJsonValue        *akc_policy_context_new                          (const char            *session_id,
                                                                      const char * const    *capabilities);

AKC_AVAILABLE_IN_ALL
AkcCapabilityPolicy *akc_capability_policy_new                       (const char            *session_id,
                                                                      AkcJsonValue          *requirements,
                                                                      GError               **error);
AKC_AVAILABLE_IN_ALL
const char          *akc_capability_policy_get_session_id            (AkcCapabilityPolicy   *self);
AKC_AVAILABLE_IN_ALL
const char * const  *akc_capability_policy_get_required_capabilities (AkcCapabilityPolicy   *self,
                                                                      const char            *action);
AKC_AVAILABLE_IN_ALL
void                 akc_capability_policy_set_context_func          (AkcCapabilityPolicy   *self,
                                                                      AkcPolicyContextFunc   func,
                                                                      gpointer               user_data,
                                                                      GDestroyNotify         destroy);
AKC_AVAILABLE_IN_ALL
void                 akc_capability_policy_set_clock                 (AkcCapabilityPolicy   *self,
                                                                      AkcClockFunc           func,
                                                                      gpointer               user_data,
                                                                      GDestroyNotify         destroy);
AKC_AVAILABLE_IN_ALL
gboolean             akc_capability_policy_authorize_tool_call       (AkcCapabilityPolicy   *self,
                                                                      const char            *tool_call_id,
                                                                      const char            *action,
                                                                      AkcToolPhase           phase,
                                                                      AkcPolicyReason       *reason);
AKC_AVAILABLE_IN_ALL
gboolean             akc_capability_policy_authorize_composed        (AkcCapabilityPolicy   *self,
                                                                      const char            *tool_call_id,
                                                                      const char            *action,
                                                                      AkcToolPhase           phase,
                                                                      AkcPolicyUpstreamFunc  upstream,
                                                                      gpointer               user_data,
                                                                      AkcPolicyReason       *reason);
AKC_AVAILABLE_IN_ALL
GPtrArray           *akc_capability_policy_get_trace                 (AkcCapabilityPolicy   *self);
AKC_AVAILABLE_IN_ALL
void                 akc_capability_policy_install                   (AkcCapabilityPolicy   *self,
                                                                      AkcChat               *chat);

G_END_DECLS
