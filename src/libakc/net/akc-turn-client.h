/* akc-turn-client.h: a conversation held by a turn server
 * (protocol §2, application §11.1)
 *
 * SPDX-License-Identifier: MIT
 */

#pragma once

#if !defined(__AKC_INSIDE__) && !defined(AKC_COMPILATION)
#error "Only <akc.h> can be included directly."
#endif

#include <gio/gio.h>

#include "akc-chat-source.h"
#include "akc-json.h"
#include "akc-version-macros.h"

G_BEGIN_DECLS

/**
 * AKC_TURN_CLIENT_DEFAULT_CONNECT_TIMEOUT:
 *
 * How long, in seconds, a turn waits for the response headers by default.
 *
 * Since: 0.1
 */
#define AKC_TURN_CLIENT_DEFAULT_CONNECT_TIMEOUT 30

/**
 * AKC_TURN_CLIENT_DEFAULT_MAX_LINE_LENGTH:
 *
 * The longest turn event line, in bytes, a client accepts by default
 * (32 MiB).
 *
 * Since: 0.1
 */
#define AKC_TURN_CLIENT_DEFAULT_MAX_LINE_LENGTH (32u * 1024u * 1024u)

#define AKC_TYPE_TURN_CLIENT (akc_turn_client_get_type ())

AKC_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (AkcTurnClient, akc_turn_client, AKC, TURN_CLIENT, GObject)

AKC_AVAILABLE_IN_ALL
AkcTurnClient *akc_turn_client_new                 (const char     *endpoint,
                                                    const char     *session_id,
                                                    GError        **error);
AKC_AVAILABLE_IN_ALL
const char    *akc_turn_client_get_endpoint        (AkcTurnClient  *self);
AKC_AVAILABLE_IN_ALL
const char    *akc_turn_client_get_session_id      (AkcTurnClient  *self);
AKC_AVAILABLE_IN_ALL
void           akc_turn_client_set_token           (AkcTurnClient  *self,
                                                    const char     *token);
AKC_AVAILABLE_IN_ALL
gboolean       akc_turn_client_get_has_token       (AkcTurnClient  *self);
AKC_AVAILABLE_IN_ALL
guint          akc_turn_client_get_connect_timeout (AkcTurnClient  *self);
AKC_AVAILABLE_IN_ALL
void           akc_turn_client_set_connect_timeout (AkcTurnClient  *self,
                                                    guint           seconds);
AKC_AVAILABLE_IN_ALL
guint          akc_turn_client_get_max_line_length (AkcTurnClient  *self);
AKC_AVAILABLE_IN_ALL
void           akc_turn_client_set_max_line_length (AkcTurnClient  *self,
                                                    guint           bytes);
AKC_AVAILABLE_IN_ALL
AkcJsonValue  *akc_turn_client_get_snapshot        (AkcTurnClient  *self);
AKC_AVAILABLE_IN_ALL
gboolean       akc_turn_client_get_busy            (AkcTurnClient  *self);

G_END_DECLS
