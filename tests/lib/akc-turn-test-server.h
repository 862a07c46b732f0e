/* akc-turn-test-server.h: a loopback HTTP server for the turn client
 * tests, which plays scripted (and hostile) responses
 *
 * SPDX-License-Identifier: MIT
 */

#pragma once

#include <glib.h>

G_BEGIN_DECLS

typedef enum {
  AKC_TURN_TEST_END_COMPLETE,    /* the body ends normally */
  AKC_TURN_TEST_END_DISCONNECT,  /* the connection is closed after the last chunk */
  AKC_TURN_TEST_END_ENDLESS,     /* after the chunks, bytes without a newline until the client leaves */
  AKC_TURN_TEST_END_HANG,        /* no response at all (not even headers) until the client leaves */
} AkcTurnTestEnd;

typedef struct _AkcTurnTestServer AkcTurnTestServer;

AkcTurnTestServer *akc_turn_test_server_new          (void);
void               akc_turn_test_server_free         (AkcTurnTestServer *self);

/* The URL of the server (http://127.0.0.1:PORT/turn). */
const char        *akc_turn_test_server_get_url      (AkcTurnTestServer *self);

/* Scripts the next response: a status, a content type (nullable), then
 * chunks, each written after @delay_ms, then the ending. Chunks are
 * streamed with chunked encoding. */
void               akc_turn_test_server_respond      (AkcTurnTestServer *self,
                                                      guint              status,
                                                      const char        *content_type);
void               akc_turn_test_server_add_chunk    (AkcTurnTestServer *self,
                                                      const char        *data,
                                                      gssize             length,
                                                      guint              delay_ms);
void               akc_turn_test_server_set_end      (AkcTurnTestServer *self,
                                                      AkcTurnTestEnd     end);

/* What the last request was. */
guint              akc_turn_test_server_get_n_requests (AkcTurnTestServer *self);
const char        *akc_turn_test_server_get_method   (AkcTurnTestServer *self);
const char        *akc_turn_test_server_get_header   (AkcTurnTestServer *self,
                                                      const char        *name);
const char        *akc_turn_test_server_get_body     (AkcTurnTestServer *self);

/* Bytes written for the last response, and whether it has finished
 * (completed, or the client went away). */
guint64            akc_turn_test_server_get_bytes_sent (AkcTurnTestServer *self);
gboolean           akc_turn_test_server_get_finished (AkcTurnTestServer *self);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (AkcTurnTestServer, akc_turn_test_server_free)

G_END_DECLS
