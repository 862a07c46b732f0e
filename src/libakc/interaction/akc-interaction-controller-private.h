/* akc-interaction-controller-private.h: what the files of
 * AkcInteractionController share
 *
 * SPDX-License-Identifier: MIT
 *
 * akc-interaction-controller.c            the object, properties, signals, setup
 * akc-interaction-controller-answers.c    selections, interactions, set aside
 * akc-interaction-controller-confirmations.c  approvals and denials
 * akc-interaction-controller-transcript.c redundant messages, links
 */

#pragma once

#include "akc-interaction-controller.h"

G_BEGIN_DECLS

struct _AkcInteractionController
{
  GObject                parent_instance;

  AkcChatSource         *source;
  AkcComponentManifest  *manifest;
  AkcActionConfirmation *confirmation;
  AkcChoiceReservations *reservations;
  char                  *session_id;
  AkcSqliteChatMemory   *memory;
  char                  *conversation_id;
  AkcInputOwnership     *ownership;
  GHashTable            *in_flight;   /* instance id → itself */
  GHashTable            *set_aside;   /* instance id → itself */
};

enum {
  CHOICE_SELECTED,
  INTERACTION,
  LINK_REQUESTED,
  N_SIGNALS
};

extern guint akc_interaction_controller_signals[N_SIGNALS];

gboolean akc_interaction_controller_is_durable (AkcInteractionController *self);

G_END_DECLS
