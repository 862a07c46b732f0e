/* akc-turn.h: the turn protocol `agentskit.chat.turn` v1 (protocol §2)
 *
 * SPDX-License-Identifier: MIT
 */

#pragma once

#if !defined(__AKC_INSIDE__) && !defined(AKC_COMPILATION)
#error "Only <akc.h> can be included directly."
#endif

#include <glib-object.h>

#include "akc-diagnostic.h"
#include "akc-json.h"
#include "akc-message-record.h"
#include "akc-version-macros.h"

G_BEGIN_DECLS

/**
 * AKC_TURN_PROTOCOL:
 *
 * The `protocol` member of every turn event.
 *
 * Since: 0.1
 */
#define AKC_TURN_PROTOCOL "agentskit.chat.turn"

/**
 * AKC_TURN_PROTOCOL_VERSION:
 *
 * The turn protocol version this library speaks.
 *
 * Since: 0.1
 */
#define AKC_TURN_PROTOCOL_VERSION 1

/**
 * AkcTurnEventKind:
 * @AKC_TURN_EVENT_KIND_SUBMIT: `client.turn.submit`: the client submits input
 * @AKC_TURN_EVENT_KIND_SNAPSHOT: `server.turn.snapshot`: a complete snapshot
 *   of the conversation
 * @AKC_TURN_EVENT_KIND_DIAGNOSTIC: `server.turn.diagnostic`: the application
 *   reports a failure
 *
 * The kind of a turn event (its `event` member).
 *
 * Since: 0.1
 */
typedef enum {
  AKC_TURN_EVENT_KIND_SUBMIT,
  AKC_TURN_EVENT_KIND_SNAPSHOT,
  AKC_TURN_EVENT_KIND_DIAGNOSTIC,
} AkcTurnEventKind;

#define AKC_TYPE_TURN_EVENT_KIND (akc_turn_event_kind_get_type ())

AKC_AVAILABLE_IN_ALL
GType         akc_turn_event_kind_get_type    (void) G_GNUC_CONST;

AKC_AVAILABLE_IN_ALL
AkcJsonValue *akc_turn_event_decode           (const char              *text,
                                               gssize                   length,
                                               AkcDiagnostic          **diagnostic);
AKC_AVAILABLE_IN_ALL
AkcJsonValue *akc_turn_event_decode_utf8 (const char     *text,
                                          AkcDiagnostic **diagnostic);
AKC_AVAILABLE_IN_ALL
AkcJsonValue *akc_turn_event_decode_value     (AkcJsonValue            *value,
                                               AkcDiagnostic          **diagnostic);
AKC_AVAILABLE_IN_ALL
char         *akc_turn_event_encode           (AkcJsonValue            *event,
                                               gsize                   *length,
                                               GError                 **error);
AKC_AVAILABLE_IN_ALL
char *akc_turn_event_encode_utf8 (AkcJsonValue  *event,
                                  GError       **error);
AKC_AVAILABLE_IN_ALL
gboolean      akc_turn_event_get_kind         (AkcJsonValue            *event,
                                               AkcTurnEventKind        *kind);

AKC_AVAILABLE_IN_ALL
GPtrArray    *akc_turn_snapshot_messages      (AkcJsonValue            *event,
                                               GError                 **error);

G_END_DECLS
