/* akc-turn-private.h: internals shared by the turn decoder, the incremental
 * snapshot decoder and the cursor (protocol §2)
 *
 * SPDX-License-Identifier: MIT
 */

#pragma once

#include <glib.h>

#include "akc-diagnostic.h"
#include "akc-json-private.h"
#include "akc-turn.h"
#include "akc-turn-decoder.h"

G_BEGIN_DECLS

/* §2.6 step 1 (text that is not JSON): the diagnostic, never with eventId. */
AkcDiagnostic *akc_turn_invalid_json_diagnostic   (void);

/* §2.6 steps 2–5 on a parsed candidate. Returns the normalised event
 * (transfer full) or NULL with *@diagnostic (nullable) set. */
AkcJsonValue  *akc_turn_decode_candidate          (AkcJsonValue   *candidate,
                                                   AkcDiagnostic **diagnostic);

/* §2.6 step 4 on @candidate whose `payload.messages` is a placeholder
 * (an empty array) standing for @messages, the already validated and
 * projected records (an array). Returns the normalised event with @messages
 * in place, or NULL when @candidate is not a valid event. Used by the
 * incremental decoder; see akc-turn-decoder.c for why the result equals a
 * full decode of the original text. */
AkcJsonValue  *akc_turn_validate_with_messages    (AkcJsonValue   *candidate,
                                                   AkcJsonValue   *messages);

/* Counters of an AkcTurnDecoder (tests and benchmarks). */
typedef struct {
  guint64 decodes;             /* calls */
  guint64 full_decodes;        /* texts decoded as a whole */
  guint64 incremental_decodes; /* texts decoded by reusing records */
  guint64 records_reused;      /* records taken from the previous snapshot */
  guint64 records_parsed;      /* records parsed and validated by the incremental path */
  guint64 strings_resumed;     /* of those, records whose longest string was decoded
                                * from where the previous version of it ended */
} AkcTurnDecoderStats;

void           akc_turn_decoder_get_stats         (AkcTurnDecoder      *self,
                                                   AkcTurnDecoderStats *stats);

/* Builds a `server.turn.snapshot` event (createSnapshotEvent, §2.7): the
 * helper of a turn server (akc-server), so not public. */
AkcJsonValue *akc_turn_create_snapshot_event  (const char              *event_id,
                                               const char              *session_id,
                                               const char              *turn_id,
                                               gint64                   sequence,
                                               const char              *emitted_at,
                                               AkcMessageRecord * const *messages,
                                               gsize                    n_messages,
                                               const char              *status,
                                               AkcJsonValue            *usage,
                                               AkcJsonValue            *lineage,
                                               AkcJsonValue            *error_payload,
                                               GError                 **error);

G_END_DECLS
