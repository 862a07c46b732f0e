/* akc-ask-response-private.h: the body of one Ask answer, from transport
 * reads to chunks (application §8.3)
 *
 * SPDX-License-Identifier: MIT
 *
 * Internal to libakc (not installed, not scanned).
 */

#pragma once

#include "akc-ask-projection-private.h"
#include "akc-chunk.h"

G_BEGIN_DECLS

/* Error codes of the chunks the Ask client makes itself. Chunks that
 * relay a server's error carry the server's code. */
#define AKC_ASK_ERROR_HTTP     "ASK_HTTP_FAILED"
#define AKC_ASK_ERROR_NETWORK  "ASK_NETWORK_FAILED"
#define AKC_ASK_ERROR_TIMEOUT  "ASK_TIMEOUT"
#define AKC_ASK_ERROR_LIMIT    "ASK_RESPONSE_LIMIT"
#define AKC_ASK_ERROR_STREAM   "ASK_STREAM_ERROR"
#define AKC_ASK_ERROR_ENDPOINT "ASK_INVALID_ENDPOINT"

typedef struct _AkcAskResponse AkcAskResponse;

/* Receives each chunk; the chunk is borrowed. */
typedef void (*AkcAskChunkFunc) (AkcChunk *chunk,
                                 gpointer  user_data);

/* @content_type: the response header, nullable (absent). */
AkcAskResponse *akc_ask_response_new      (const char          *content_type,
                                           AkcAskToolProjector  projector,
                                           gpointer             projector_data,
                                           AkcAskChunkFunc      emit,
                                           gpointer             emit_data);
void            akc_ask_response_free     (AkcAskResponse      *self);

/* Receives what the body holds as it is read, before it is projected:
 * each NDJSON event object (borrowed), or, for a plain-text body, each
 * piece of its decoded text as a JSON string. For a view of the wire. */
typedef void (*AkcAskEventFunc) (AkcJsonValue *event,
                                 gpointer      user_data);

void            akc_ask_response_set_event_observer (AkcAskResponse  *self,
                                                     AkcAskEventFunc  observer,
                                                     gpointer         user_data);

/* One transport read. Returns FALSE once the answer has stopped (a done
 * or error event, or a limit): the caller cancels the body and feeds
 * nothing more. */
gboolean        akc_ask_response_feed     (AkcAskResponse      *self,
                                           const guint8        *data,
                                           gsize                length);

/* The end of the body: flushes and emits the final done. */
void            akc_ask_response_finish   (AkcAskResponse      *self);

gboolean        akc_ask_response_is_stopped (AkcAskResponse    *self);

/* Bytes held between reads (the sniffing buffer, the NDJSON partial line
 * and the UTF-8 carry); stays around the 1 MiB record limit. */
gsize           akc_ask_response_get_retained_size (AkcAskResponse *self);

/* The error chunk of an HTTP failure (§8.3), with the §11.2 error body
 * (nullable) attached as metadata `{"status","error"}` and its code. */
AkcChunk       *akc_ask_response_http_error (guint          status,
                                             const guint8  *body,
                                             gsize          body_length);
/* The error of a 3xx, which is not followed: names the status and
 * @target, the origin its Location points to. */
AkcChunk       *akc_ask_response_redirect_error (guint       status,
                                                 const char *target);

G_END_DECLS
