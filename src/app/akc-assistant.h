/* akc-assistant.h: what a conversation talks to
 *
 * SPDX-License-Identifier: MIT
 */

#pragma once

#include <glib-object.h>

G_BEGIN_DECLS

/**
 * AkcAssistantKind:
 * @AKC_ASSISTANT_KIND_DEMO: an offline demo (application.md §13)
 * @AKC_ASSISTANT_KIND_ASK: the Ask service set up in the preferences
 * @AKC_ASSISTANT_KIND_TURN: the turn server, which keeps its conversation
 * @AKC_ASSISTANT_KIND_PROVIDER: the model provider set up in the preferences
 *
 * What answers a conversation.
 */
typedef enum {
  AKC_ASSISTANT_KIND_DEMO,
  AKC_ASSISTANT_KIND_ASK,
  AKC_ASSISTANT_KIND_TURN,
  AKC_ASSISTANT_KIND_PROVIDER,
} AkcAssistantKind;

#define AKC_TYPE_ASSISTANT (akc_assistant_get_type ())

G_DECLARE_FINAL_TYPE (AkcAssistant, akc_assistant, AKC, ASSISTANT, GObject)

AkcAssistant     *akc_assistant_new          (const char   *id,
                                              AkcAssistantKind kind,
                                              const char   *title,
                                              const char   *icon_name);
const char       *akc_assistant_get_id       (AkcAssistant *self);
AkcAssistantKind  akc_assistant_get_kind     (AkcAssistant *self);
const char       *akc_assistant_get_title    (AkcAssistant *self);
const char       *akc_assistant_get_icon_name (AkcAssistant *self);

G_END_DECLS
