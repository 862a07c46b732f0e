/* akc-ask-events-private.h: internals of the Ask NDJSON decoder, for tests
 *
 * SPDX-License-Identifier: MIT
 */

#pragma once

#include "akc-ask-events.h"

G_BEGIN_DECLS

/* Bytes of memory the decoder holds for stream data (the stored part of
 * the unterminated line and the UTF-8 carry), whatever was fed. */
gsize akc_ask_event_decoder_get_retained_size (AkcAskEventDecoder *self);

G_END_DECLS
