/* akc-choice-reservations.h: the deterministic adapter's remembered
 * choices (application §9.5)
 *
 * SPDX-License-Identifier: MIT
 */

#pragma once

#if !defined(__AKC_INSIDE__) && !defined(AKC_COMPILATION)
#error "Only <akc.h> can be included directly."
#endif

#include <glib-object.h>

#include "akc-choice-submission.h"
#include "akc-json.h"
#include "akc-version-macros.h"

G_BEGIN_DECLS

/**
 * AKC_CHOICE_RESERVATIONS_MAX_SESSIONS:
 *
 * The default bound on remembered sessions ([application §9.5](wire-formats.html#application-9)).
 *
 * Since: 0.1
 */
#define AKC_CHOICE_RESERVATIONS_MAX_SESSIONS 256

/**
 * AKC_CHOICE_RESERVATIONS_MAX_INSTANCES:
 *
 * The default bound on remembered choice lists per session
 * ([application §9.5](wire-formats.html#application-9)).
 *
 * Since: 0.1
 */
#define AKC_CHOICE_RESERVATIONS_MAX_INSTANCES 256

/**
 * AKC_CHOICE_RESERVATIONS_INSTANCE_PREFIX:
 *
 * The prefix of every instance id the deterministic adapter gives a
 * choice list; a frame whose id lacks it belongs to the host.
 *
 * Since: 0.1
 */
#define AKC_CHOICE_RESERVATIONS_INSTANCE_PREFIX "deterministic-choices-"

#define AKC_TYPE_CHOICE_RESERVATIONS (akc_choice_reservations_get_type ())

AKC_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (AkcChoiceReservations, akc_choice_reservations, AKC, CHOICE_RESERVATIONS, GObject)

AKC_AVAILABLE_IN_ALL
AkcChoiceReservations *akc_choice_reservations_new             (void);
AKC_AVAILABLE_IN_ALL
guint                  akc_choice_reservations_get_max_sessions  (AkcChoiceReservations *self);
AKC_AVAILABLE_IN_ALL
guint                  akc_choice_reservations_get_max_instances (AkcChoiceReservations *self);
AKC_AVAILABLE_IN_ALL
gboolean               akc_choice_reservations_remember        (AkcChoiceReservations *self,
                                                                const char            *session_id,
                                                                AkcJsonValue          *frame);
AKC_AVAILABLE_IN_ALL
AkcChoiceSubmission   *akc_choice_reservations_claim           (AkcChoiceReservations *self,
                                                                AkcJsonValue          *frame,
                                                                const char            *choice_id,
                                                                const char            *session_id);
AKC_AVAILABLE_IN_ALL
void                   akc_choice_reservations_release_session (AkcChoiceReservations *self,
                                                                const char            *session_id);
AKC_AVAILABLE_IN_ALL
guint                  akc_choice_reservations_get_n_sessions  (AkcChoiceReservations *self);
AKC_AVAILABLE_IN_ALL
guint                  akc_choice_reservations_get_n_instances (AkcChoiceReservations *self,
                                                                const char            *session_id);
AKC_AVAILABLE_IN_ALL
AkcChoiceSubmission   *akc_choice_reservations_submission_func (AkcJsonValue          *frame,
                                                                const char            *choice_id,
                                                                const char            *session_id,
                                                                gpointer               user_data,
                                                                GError               **error);

G_END_DECLS
