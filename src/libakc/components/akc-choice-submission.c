/* akc-choice-submission.c
 *
 * SPDX-License-Identifier: MIT
 */

#include "config.h"

#include "akc-choice-submission.h"

/**
 * AkcChoiceSubmission:
 *
 * The answer of a choice-submission hook ([callback@ChoiceSubmissionFunc],
 * [application §2.8](wire-formats.html#application-2)): either “unavailable” (the choice is stale) or a
 * reservation `{value, commit(), release()}`.
 *
 * A reservation settles once: the first [method@ChoiceSubmission.commit]
 * or [method@ChoiceSubmission.release] calls its settle function; every
 * later call does nothing and succeeds. It counts as settled from that
 * first call on, even when the settle function fails.
 *
 * Since: 0.1
 */
struct _AkcChoiceSubmission
{
  GObject                  parent_instance;

  AkcChoiceSubmissionKind  kind;
  gboolean                 settled;
  char                    *value;
  AkcChoiceSettleFunc      settle_func;
  gpointer                 user_data;
  GDestroyNotify           destroy;
};

G_DEFINE_FINAL_TYPE (AkcChoiceSubmission, akc_choice_submission, G_TYPE_OBJECT)

static void
akc_choice_submission_finalize (GObject *object)
{
  AkcChoiceSubmission *self = AKC_CHOICE_SUBMISSION (object);

  if (self->destroy != NULL)
    self->destroy (self->user_data);
  g_clear_pointer (&self->value, g_free);

  G_OBJECT_CLASS (akc_choice_submission_parent_class)->finalize (object);
}

static void
akc_choice_submission_class_init (AkcChoiceSubmissionClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->finalize = akc_choice_submission_finalize;
}

static void
akc_choice_submission_init (AkcChoiceSubmission *self)
{
}

/**
 * akc_choice_submission_new_unavailable:
 *
 * Creates the “unavailable” answer (`{unavailable: true}`).
 *
 * Returns: (transfer full): the answer
 *
 * Since: 0.1
 */
AkcChoiceSubmission *
akc_choice_submission_new_unavailable (void)
{
  AkcChoiceSubmission *self = g_object_new (AKC_TYPE_CHOICE_SUBMISSION, NULL);

  self->kind = AKC_CHOICE_SUBMISSION_UNAVAILABLE;
  self->settled = TRUE;

  return self;
}

/**
 * akc_choice_submission_new_reservation:
 * @value: the text the view sends as the user's message
 * @settle_func: (scope notified) (closure user_data) (destroy destroy):
 *   commits or releases the reservation
 * @user_data: data for @settle_func
 * @destroy: (nullable): frees @user_data when the reservation is finalized
 *
 * Creates a reservation answer.
 *
 * Returns: (transfer full): the reservation
 *
 * Since: 0.1
 */
AkcChoiceSubmission *
akc_choice_submission_new_reservation (const char          *value,
                                       AkcChoiceSettleFunc  settle_func,
                                       gpointer             user_data,
                                       GDestroyNotify       destroy)
{
  AkcChoiceSubmission *self;

  g_return_val_if_fail (value != NULL, NULL);
  g_return_val_if_fail (settle_func != NULL, NULL);

  self = g_object_new (AKC_TYPE_CHOICE_SUBMISSION, NULL);
  self->kind = AKC_CHOICE_SUBMISSION_RESERVATION;
  self->value = g_strdup (value);
  self->settle_func = settle_func;
  self->user_data = user_data;
  self->destroy = destroy;

  return self;
}

/**
 * akc_choice_submission_get_kind:
 * @self: a choice submission
 *
 * Gets whether @self is “unavailable” or a reservation.
 *
 * Returns: whether @self is “unavailable” or a reservation
 *
 * Since: 0.1
 */
AkcChoiceSubmissionKind
akc_choice_submission_get_kind (AkcChoiceSubmission *self)
{
  g_return_val_if_fail (AKC_IS_CHOICE_SUBMISSION (self), AKC_CHOICE_SUBMISSION_UNAVAILABLE);

  return self->kind;
}

/**
 * akc_choice_submission_get_value:
 * @self: a choice submission
 *
 * Gets the text a reservation sends.
 *
 * Returns: (nullable): the text to send for a reservation, %NULL when
 *   @self is “unavailable”
 *
 * Since: 0.1
 */
const char *
akc_choice_submission_get_value (AkcChoiceSubmission *self)
{
  g_return_val_if_fail (AKC_IS_CHOICE_SUBMISSION (self), NULL);

  return self->value;
}

/**
 * akc_choice_submission_is_settled:
 * @self: a choice submission
 *
 * Checks whether @self was committed or released.
 *
 * Returns: %TRUE once a reservation was committed or released (always for
 *   “unavailable”)
 *
 * Since: 0.1
 */
gboolean
akc_choice_submission_is_settled (AkcChoiceSubmission *self)
{
  g_return_val_if_fail (AKC_IS_CHOICE_SUBMISSION (self), TRUE);

  return self->settled;
}

static gboolean
settle (AkcChoiceSubmission  *self,
        AkcChoiceSettlement   settlement,
        GError              **error)
{
  if (self->settled)
    return TRUE;

  self->settled = TRUE;
  return self->settle_func (self, settlement, self->user_data, error);
}

/**
 * akc_choice_submission_commit:
 * @self: a choice submission
 * @error: return location for a #GError
 *
 * Commits a reservation after its value was sent (`commit()`). Does
 * nothing when @self is already settled or “unavailable”.
 *
 * Returns: %TRUE on success; %FALSE with @error set when the settle
 *   function failed (the view shows the error, or “Choice submission
 *   settlement failed.”, and the instance stays resolved)
 *
 * Since: 0.1
 */
gboolean
akc_choice_submission_commit (AkcChoiceSubmission  *self,
                              GError              **error)
{
  g_return_val_if_fail (AKC_IS_CHOICE_SUBMISSION (self), FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  return settle (self, AKC_CHOICE_SETTLEMENT_COMMIT, error);
}

/**
 * akc_choice_submission_release:
 * @self: a choice submission
 * @error: return location for a #GError
 *
 * Releases a reservation after sending its value failed (`release()`), so
 * the choice can be selected again. Does nothing when @self is already
 * settled or “unavailable”.
 *
 * Returns: %TRUE on success; %FALSE with @error set when the settle
 *   function failed
 *
 * Since: 0.1
 */
gboolean
akc_choice_submission_release (AkcChoiceSubmission  *self,
                               GError              **error)
{
  g_return_val_if_fail (AKC_IS_CHOICE_SUBMISSION (self), FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  return settle (self, AKC_CHOICE_SETTLEMENT_RELEASE, error);
}
