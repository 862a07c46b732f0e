/* akc-choice-submission.h: the choice-submission hook (application §2.8)
 *
 * SPDX-License-Identifier: MIT
 */

#pragma once

#if !defined(__AKC_INSIDE__) && !defined(AKC_COMPILATION)
#error "Only <akc.h> can be included directly."
#endif

#include <glib-object.h>

#include "akc-json.h"
#include "akc-version-macros.h"

G_BEGIN_DECLS

/**
 * AkcChoiceSubmissionKind:
 * @AKC_CHOICE_SUBMISSION_UNAVAILABLE: the choice is stale (`{unavailable:
 *   true}`): the view un-resolves the instance and shows that the choice
 *   expired
 * @AKC_CHOICE_SUBMISSION_RESERVATION: a reservation: the view sends its
 *   value as a user message, then commits it (send succeeded) or releases
 *   it (send failed)
 *
 * What a choice-submission hook answered ([application §2.8](wire-formats.html#application-2)).
 *
 * Since: 0.1
 */
typedef enum {
  AKC_CHOICE_SUBMISSION_UNAVAILABLE,
  AKC_CHOICE_SUBMISSION_RESERVATION,
} AkcChoiceSubmissionKind;

/**
 * AkcChoiceSettlement:
 * @AKC_CHOICE_SETTLEMENT_COMMIT: the value was sent; the reservation is
 *   consumed (`commit()`)
 * @AKC_CHOICE_SETTLEMENT_RELEASE: sending failed; the choice is offered
 *   again (`release()`)
 *
 * How a reservation is settled.
 *
 * Since: 0.1
 */
typedef enum {
  AKC_CHOICE_SETTLEMENT_COMMIT,
  AKC_CHOICE_SETTLEMENT_RELEASE,
} AkcChoiceSettlement;

#define AKC_TYPE_CHOICE_SUBMISSION (akc_choice_submission_get_type ())

AKC_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (AkcChoiceSubmission, akc_choice_submission, AKC, CHOICE_SUBMISSION, GObject)

/**
 * AkcChoiceSettleFunc:
 * @submission: the reservation being settled
 * @settlement: whether it is committed or released
 * @user_data: the data given with the function
 * @error: return location for a #GError
 *
 * Settles a reservation: called at most once per reservation, by
 * [method@ChoiceSubmission.commit] or [method@ChoiceSubmission.release].
 *
 * Returns: %TRUE on success, %FALSE with @error set on failure (the view
 *   shows the error)
 *
 * Since: 0.1
 */
typedef gboolean (*AkcChoiceSettleFunc) (AkcChoiceSubmission  *submission,
                                         AkcChoiceSettlement   settlement,
                                         gpointer              user_data,
                                         GError              **error);

/**
 * AkcChoiceSubmissionFunc:
 * @frame: the decoded choice-list render frame
 * @choice_id: the selected choice, which has no typed action
 * @session_id: the session the view shows
 * @user_data: the data given with the function
 * @error: return location for a #GError
 *
 * The choice-submission hook of a chat definition (`choiceSubmission
 * (frame, choiceId, {sessionId})`, [application §2.8](wire-formats.html#application-2)). A view calls it
 * only for a selected choice that has **no** action
 * ([func@choice_list_resolve_action] returns %NULL), after the selection
 * callback. It returns:
 *
 * - %NULL without an error: nothing more happens;
 * - an %AKC_CHOICE_SUBMISSION_UNAVAILABLE submission: the choice
 *   is stale; the view un-resolves the instance and shows “This
 *   deterministic choice expired. Select it again after asking the
 *   question once more.”;
 * - a reservation: the view sends [method@ChoiceSubmission.get_value] as a
 *   new user message, then calls [method@ChoiceSubmission.commit] if the
 *   send succeeded, or [method@ChoiceSubmission.release] and un-resolves
 *   the instance if it failed ([application §12.7](wire-formats.html#application-12)).
 *
 * On failure (%NULL with @error set) the view un-resolves the instance and
 * shows the error, or “Choice submission authorization failed.”
 *
 * The deterministic answer adapter supplies this hook (§9.5).
 *
 * Returns: (transfer full) (nullable): the answer, or %NULL
 *
 * Since: 0.1
 */
typedef AkcChoiceSubmission *(*AkcChoiceSubmissionFunc) (AkcJsonValue  *frame,
                                                         const char    *choice_id,
                                                         const char    *session_id,
                                                         gpointer       user_data,
                                                         GError       **error);

AKC_AVAILABLE_IN_ALL
AkcChoiceSubmission     *akc_choice_submission_new_unavailable (void);
AKC_AVAILABLE_IN_ALL
AkcChoiceSubmission     *akc_choice_submission_new_reservation (const char           *value,
                                                                AkcChoiceSettleFunc   settle_func,
                                                                gpointer              user_data,
                                                                GDestroyNotify        destroy);
AKC_AVAILABLE_IN_ALL
AkcChoiceSubmissionKind  akc_choice_submission_get_kind        (AkcChoiceSubmission  *self);
AKC_AVAILABLE_IN_ALL
const char              *akc_choice_submission_get_value       (AkcChoiceSubmission  *self);
AKC_AVAILABLE_IN_ALL
gboolean                 akc_choice_submission_is_settled      (AkcChoiceSubmission  *self);
AKC_AVAILABLE_IN_ALL
gboolean                 akc_choice_submission_commit          (AkcChoiceSubmission  *self,
                                                                GError              **error);
AKC_AVAILABLE_IN_ALL
gboolean                 akc_choice_submission_release         (AkcChoiceSubmission  *self,
                                                                GError              **error);

G_END_DECLS
