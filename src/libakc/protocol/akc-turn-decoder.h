/* akc-turn-decoder.h: incremental decoding of streamed turn snapshots
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
#include "akc-version-macros.h"

G_BEGIN_DECLS

#define AKC_TYPE_TURN_DECODER (akc_turn_decoder_get_type ())

AKC_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (AkcTurnDecoder, akc_turn_decoder, AKC, TURN_DECODER, GObject)

AKC_AVAILABLE_IN_ALL
AkcTurnDecoder *akc_turn_decoder_new    (void);

AKC_AVAILABLE_IN_ALL
AkcJsonValue   *akc_turn_decoder_decode (AkcTurnDecoder  *self,
                                         const char      *text,
                                         gssize           length,
                                         AkcDiagnostic  **diagnostic);
AKC_AVAILABLE_IN_ALL
AkcJsonValue *akc_turn_decoder_decode_utf8 (AkcTurnDecoder  *self,
                                            const char      *text,
                                            AkcDiagnostic  **diagnostic);
AKC_AVAILABLE_IN_ALL
void            akc_turn_decoder_reset  (AkcTurnDecoder  *self);

G_END_DECLS
