/* akc-test-raw-peer.h: a loopback HTTP peer that writes raw bytes, for
 * what a well-behaved server (SoupServer) will not do
 *
 * SPDX-License-Identifier: MIT
 *
 * The peer listens on 127.0.0.1 on a free port. For each request it reads
 * the head and the Content-Length body, then writes the scripted reply
 * as raw bytes: a fixed head, then the pieces a generator returns (each
 * after a drip delay, for slow peers), then ends the connection as told
 * (close, reset, or hold it open until the client leaves). Malformed
 * chunk sizes, slow or huge headers, redirects and HTTP/1.0 bodies are
 * all just bytes here. The peer runs on its own threads, so clients in
 * the test's main context see it as a remote server; it stops writing as
 * soon as the client closes the connection, and free() waits for it.
 */

#pragma once

#include <gio/gio.h>

G_BEGIN_DECLS

typedef enum
{
  AKC_TEST_RAW_CLOSE,   /* close the connection after the reply */
  AKC_TEST_RAW_RESET,   /* reset it (SO_LINGER 0): the client sees ECONNRESET */
  AKC_TEST_RAW_HOLD,    /* keep it open until the client closes it */
} AkcTestRawEnd;

/* Returns the next piece of the reply, or NULL at its end. Called on the
 * peer's thread. */
typedef GBytes *(*AkcTestRawGenerate) (guint    index,
                                       gpointer data);

typedef struct _AkcTestRawPeer AkcTestRawPeer;

AkcTestRawPeer *akc_test_raw_peer_new              (void);
void            akc_test_raw_peer_free             (AkcTestRawPeer     *self);
/* http://127.0.0.1:PORT */
const char     *akc_test_raw_peer_get_base_uri     (AkcTestRawPeer     *self);

/* The reply to every request from now on: @head (raw bytes), then the
 * generator's pieces, each @drip_ms after the previous one, then @end. */
void            akc_test_raw_peer_set_reply        (AkcTestRawPeer     *self,
                                                    const char         *head,
                                                    gssize              head_length,
                                                    AkcTestRawGenerate  generate,
                                                    gpointer            generate_data,
                                                    guint               drip_ms,
                                                    AkcTestRawEnd       end);

guint           akc_test_raw_peer_get_n_requests   (AkcTestRawPeer     *self);
/* The head of the last request, or NULL. */
char           *akc_test_raw_peer_dup_last_request (AkcTestRawPeer     *self);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (AkcTestRawPeer, akc_test_raw_peer_free)

G_END_DECLS
