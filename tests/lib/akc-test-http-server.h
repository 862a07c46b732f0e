/* akc-test-http-server.h: a loopback SoupServer that serves scripted
 * responses, for tests of HTTP clients
 *
 * SPDX-License-Identifier: MIT
 *
 * The server listens on 127.0.0.1 on a free port and answers every
 * request with the current AkcTestResponse. Each body chunk is written as
 * one HTTP chunk: the next one is queued only once the previous one was
 * written to the socket, after the response's drip delay, and, when the
 * response is paced, only once the client has reported (through
 * akc_test_http_server_consumed()) that it read everything written so far.
 * Pacing lets a client in the same process see one transport read per
 * chunk, as far as HTTP allows.
 */

#pragma once

#include <libsoup/soup.h>

G_BEGIN_DECLS

typedef enum
{
  AKC_TEST_END_COMPLETE,            /* the terminating chunk */
  AKC_TEST_END_DISCONNECT,          /* drop the connection without it */
  AKC_TEST_END_OPEN,                /* leave the body open (until
                                     * akc_test_http_server_release()) */
  AKC_TEST_END_HANG_BEFORE_HEADERS, /* never answer at all */
} AkcTestEnd;

typedef struct
{
  guint       status;        /* 0 means 200 */
  char       *content_type;  /* NULL: no header */
  GPtrArray  *chunks;        /* GBytes */
  AkcTestEnd  end;
  guint       drip_ms;       /* delay before each chunk */
  gboolean    paced;
  gboolean    content_length; /* a Content-Length body instead of chunks */
  gboolean    close;         /* "Connection: close": the server closes the
                              * connection once the body is complete */
  /* Generated chunks: when set, called for chunk i >= chunks->len until
   * it returns NULL. */
  GBytes   *(*generate) (guint index, gpointer data);
  gpointer    generate_data;
} AkcTestResponse;

typedef struct _AkcTestHttpServer AkcTestHttpServer;

AkcTestResponse   *akc_test_response_new                (guint              status,
                                                         const char        *content_type);
void               akc_test_response_add_chunk          (AkcTestResponse   *response,
                                                         const char        *data,
                                                         gssize             length);
void               akc_test_response_free               (AkcTestResponse   *response);

AkcTestHttpServer *akc_test_http_server_new             (void);
void               akc_test_http_server_free            (AkcTestHttpServer *self);
const char        *akc_test_http_server_get_base_uri    (AkcTestHttpServer *self);
/* Takes @response. */
void               akc_test_http_server_set_response    (AkcTestHttpServer *self,
                                                         AkcTestResponse   *response);
/* Answers every request with @status and @body in one chunk. */
void               akc_test_http_server_respond         (AkcTestHttpServer *self,
                                                         guint              status,
                                                         const char        *content_type,
                                                         const char        *body);
void               akc_test_http_server_consumed        (AkcTestHttpServer *self,
                                                         gsize              n_bytes);
/* Ends the body of the request being answered, left open
 * (AKC_TEST_END_OPEN) once every chunk was written: writes @data, when
 * not NULL, as one more chunk, then the terminating chunk. Returns
 * whether there was such a body to end. */
gboolean           akc_test_http_server_release         (AkcTestHttpServer *self,
                                                         const char        *data);
/* Whether the body of the request being answered was written and left
 * open, waiting for akc_test_http_server_release(). */
gboolean           akc_test_http_server_get_held        (AkcTestHttpServer *self);

guint              akc_test_http_server_get_n_requests  (AkcTestHttpServer *self);
/* Of the last request: */
const char        *akc_test_http_server_get_method      (AkcTestHttpServer *self);
const char        *akc_test_http_server_get_path_query  (AkcTestHttpServer *self);
GBytes            *akc_test_http_server_get_body        (AkcTestHttpServer *self);
const char        *akc_test_http_server_get_header      (AkcTestHttpServer *self,
                                                         const char        *name);
/* Of every request since the server started, in order (@index from 0 to
 * n_requests - 1): its path and its body. */
const char        *akc_test_http_server_get_nth_path    (AkcTestHttpServer *self,
                                                         guint              index);
GBytes            *akc_test_http_server_get_nth_body    (AkcTestHttpServer *self,
                                                         guint              index);
/* The first request from @from on to @path whose body holds @needle, as
 * its index, or -1. */
int                akc_test_http_server_find_request    (AkcTestHttpServer *self,
                                                         guint              from,
                                                         const char        *path,
                                                         const char        *needle);
/* Whether the last response was cut off by the client (its connection
 * closed before the server finished writing). */
gboolean           akc_test_http_server_get_cut_off     (AkcTestHttpServer *self);
gboolean           akc_test_http_server_get_finished    (AkcTestHttpServer *self);
/* How many chunks of the last response were written. */
guint              akc_test_http_server_get_n_written   (AkcTestHttpServer *self);

G_END_DECLS
