/* akc-turn-client-private.h: a turn whose response comes from a stream
 *
 * SPDX-License-Identifier: MIT
 *
 * Internal to libakc (not installed, not scanned).
 */

#pragma once

#include <gio/gio.h>

#include "akc-turn-client.h"

G_BEGIN_DECLS

/* Submits @text as akc_chat_source_send() does, but sends nothing: the
 * response is @status with the body read from @response, through the
 * same reads, line framing, decoding and endings as a response from the
 * network. For the fuzz target and tests that play the server's bytes
 * read by read. */
gboolean akc_turn_client_submit_with_response (AkcTurnClient  *self,
                                               const char     *text,
                                               guint           status,
                                               GInputStream   *response,
                                               GError        **error);

G_END_DECLS
