/* akc-session-snapshot.h: application session snapshots
 * `agentskit.chat.session` v1 and the v0 migration (protocol §5)
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

/**
 * AKC_SESSION_PROTOCOL:
 *
 * The `protocol` member of a session snapshot.
 *
 * Since: 0.1
 */
#define AKC_SESSION_PROTOCOL "agentskit.chat.session"

/**
 * AKC_SESSION_PROTOCOL_VERSION:
 *
 * The session snapshot version this library writes (version 0 is read and
 * migrated).
 *
 * Since: 0.1
 */
#define AKC_SESSION_PROTOCOL_VERSION 1

AKC_AVAILABLE_IN_ALL
AkcJsonValue *akc_session_snapshot_decode       (const char      *text,
                                                 gssize           length,
                                                 AkcDiagnostic  **diagnostic);
AKC_AVAILABLE_IN_ALL
AkcJsonValue *akc_session_snapshot_decode_utf8 (const char     *text,
                                                AkcDiagnostic **diagnostic);
AKC_AVAILABLE_IN_ALL
AkcJsonValue *akc_session_snapshot_decode_value (AkcJsonValue    *value,
                                                 AkcDiagnostic  **diagnostic);
AKC_AVAILABLE_IN_ALL
char         *akc_session_snapshot_encode       (AkcJsonValue    *snapshot,
                                                 gsize           *length,
                                                 GError         **error);
AKC_AVAILABLE_IN_ALL
char *akc_session_snapshot_encode_utf8 (AkcJsonValue  *snapshot,
                                        GError       **error);

G_END_DECLS
