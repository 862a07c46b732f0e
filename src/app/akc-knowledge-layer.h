/* akc-knowledge-layer.h: a conversation's local knowledge
 *
 * SPDX-License-Identifier: MIT
 */

#pragma once

#include <akc.h>

G_BEGIN_DECLS

/**
 * AkcKnowledgeState:
 * @AKC_KNOWLEDGE_STATE_NONE: no local knowledge is used
 * @AKC_KNOWLEDGE_STATE_READY: the artifact was verified and answers
 * @AKC_KNOWLEDGE_STATE_STALE: the artifact expired; questions go to the
 *   backend
 * @AKC_KNOWLEDGE_STATE_CORRUPT: the artifact could not be read or failed
 *   verification; it never answers, questions go to the backend
 * @AKC_KNOWLEDGE_STATE_INVALID: the site configuration could not be used;
 *   questions go to the backend
 *
 * How usable a conversation's local knowledge is.
 */
typedef enum {
  AKC_KNOWLEDGE_STATE_NONE,
  AKC_KNOWLEDGE_STATE_READY,
  AKC_KNOWLEDGE_STATE_STALE,
  AKC_KNOWLEDGE_STATE_CORRUPT,
  AKC_KNOWLEDGE_STATE_INVALID,
} AkcKnowledgeState;

#define AKC_TYPE_KNOWLEDGE_STATE (akc_knowledge_state_get_type ())
GType akc_knowledge_state_get_type (void) G_GNUC_CONST;

#define AKC_TYPE_KNOWLEDGE_LAYER (akc_knowledge_layer_get_type ())

G_DECLARE_FINAL_TYPE (AkcKnowledgeLayer, akc_knowledge_layer, AKC, KNOWLEDGE_LAYER, GObject)

AkcKnowledgeLayer     *akc_knowledge_layer_new              (AkcAdapter        *backend);
AkcAdapter            *akc_knowledge_layer_get_backend      (AkcKnowledgeLayer *self);
AkcKnowledgeState      akc_knowledge_layer_get_state        (AkcKnowledgeLayer *self);
const char            *akc_knowledge_layer_get_warning      (AkcKnowledgeLayer *self);
const char            *akc_knowledge_layer_get_artifact_id  (AkcKnowledgeLayer *self);
AkcDeterministicAdapter *akc_knowledge_layer_get_adapter    (AkcKnowledgeLayer *self);
AkcChoiceReservations *akc_knowledge_layer_get_reservations (AkcKnowledgeLayer *self);
void                   akc_knowledge_layer_load             (AkcKnowledgeLayer *self,
                                                             GFile             *site_config,
                                                             GFile             *artifact);
void                   akc_knowledge_layer_clear            (AkcKnowledgeLayer *self);
void                   akc_knowledge_layer_set_clock        (AkcKnowledgeLayer *self,
                                                             AkcDeterministicClockFunc func,
                                                             gpointer           user_data);

G_END_DECLS
