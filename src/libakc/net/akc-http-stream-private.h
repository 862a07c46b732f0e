/* akc-http-stream-private.h: one streaming POST over libsoup 3 and the
 * line framing of its body (NDJSON, Server-Sent Events, or raw bytes)
 *
 * SPDX-License-Identifier: MIT
 *
 * Shared by every client that reads a body as it arrives: the provider
 * adapters, the Ask adapter and the turn client (issue 16 item 10).
 * Internal to libakc: not installed, not scanned.
 *
 * Two layers:
 *
 *  - AkcLineFramer is pure (no I/O): bytes in, frames out. It is what the
 *    fuzz targets drive.
 *  - AkcHttpStream sends one SoupMessage on a SoupSession, applies the
 *    connection deadline (headers only: a body that has started streams for
 *    as long as it takes), refuses redirects (SOUP_MESSAGE_NO_REDIRECT; a 3xx
 *    is an error naming the status and the Location origin), reads a failed
 *    response's body up to a cap by truncation (never a zero-length read),
 *    feeds a successful one through an AkcLineFramer, and reports a body
 *    that ends before its protocol end as cut off. Cancelling closes the
 *    connection at once.
 */

#pragma once

#include <gio/gio.h>
#include <libsoup/soup.h>

#include "akc-stream.h"

G_BEGIN_DECLS

#define AKC_HTTP_STREAM_ERROR (akc_http_stream_error_quark ())

/* Error codes of AKC_HTTP_STREAM_ERROR. A stop is G_IO_ERROR_CANCELLED. */
typedef enum
{
  AKC_HTTP_STREAM_ERROR_TIMEOUT,         /* no response headers in time */
  AKC_HTTP_STREAM_ERROR_CONNECT,         /* the request could not be sent */
  AKC_HTTP_STREAM_ERROR_REDIRECT,        /* a 3xx answer (not followed) */
  AKC_HTTP_STREAM_ERROR_STATUS,          /* a status other than 2xx; see get_error_body */
  AKC_HTTP_STREAM_ERROR_CUT_OFF,         /* the body ended (or broke) before its protocol end */
  AKC_HTTP_STREAM_ERROR_LINE_TOO_LONG,   /* a line over the framer's bound */
  AKC_HTTP_STREAM_ERROR_EVENT_TOO_LARGE, /* an SSE event's data over the bound */
  AKC_HTTP_STREAM_ERROR_TOO_MANY_FRAMES, /* more frames than the bound */
} AkcHttpStreamError;

GQuark akc_http_stream_error_quark (void);

typedef enum
{
  AKC_FRAMING_RAW,     /* each read as it comes; the end of the body is the protocol end */
  AKC_FRAMING_NDJSON,  /* one frame per non-blank line (LF or CRLF) */
  AKC_FRAMING_SSE,     /* one frame per Server-Sent Event (WHATWG HTML §9.2.6) */
} AkcFraming;

typedef struct
{
  const char *event;         /* SSE: the `event:` field, NULL when absent or empty */
  const char *data;          /* the line, the event's data (lines joined with LF), or the raw bytes; NUL-terminated */
  gsize       length;
  gboolean    unterminated;  /* the body ended inside this frame (no newline, or no blank line) */
} AkcFrame;

typedef enum
{
  AKC_FRAME_CONTINUE,  /* more frames wanted */
  AKC_FRAME_END,       /* the protocol end: the rest of the body is not wanted */
  AKC_FRAME_FAILED,    /* the error is set; nothing more is delivered */
  AKC_FRAME_PAUSE,     /* hold the rest until akc_line_framer_resume() (not from finish) */
} AkcFrameResult;

typedef AkcFrameResult (*AkcFrameFunc) (const AkcFrame  *frame,
                                        gpointer         user_data,
                                        GError         **error);

/* ------------------------------------------------------------------ */
/* AkcLineFramer                                                       */
/* ------------------------------------------------------------------ */

#define AKC_LINE_FRAMER_DEFAULT_MAX_LINE   (1024 * 1024)
#define AKC_LINE_FRAMER_DEFAULT_MAX_EVENT  (4 * 1024 * 1024)
#define AKC_LINE_FRAMER_DEFAULT_MAX_FRAMES 1000000

typedef struct _AkcLineFramer AkcLineFramer;

AkcLineFramer  *akc_line_framer_new             (AkcFraming      framing,
                                                 AkcFrameFunc    func,
                                                 gpointer        user_data);
void            akc_line_framer_free            (AkcLineFramer  *self);
/* Bounds: the longest line in bytes (NDJSON, SSE), the largest SSE event
 * data, the most frames (0: no bound). */
void            akc_line_framer_set_limits      (AkcLineFramer  *self,
                                                 gsize           max_line,
                                                 gsize           max_event,
                                                 guint           max_frames);
/* Feeds @length bytes. Returns CONTINUE when more bytes are wanted, END
 * when a frame said so, FAILED with @error set. After END or FAILED the
 * framer takes nothing more. Linear in the bytes fed; holds at most one
 * line and one event. */
AkcFrameResult  akc_line_framer_feed            (AkcLineFramer  *self,
                                                 const guint8   *data,
                                                 gsize           length,
                                                 GError        **error);
/* The body ended: delivers what is pending (marked unterminated). Returns
 * END when the protocol ended (for AKC_FRAMING_RAW always), CONTINUE when
 * the body ended without it, FAILED with @error set. */
AkcFrameResult  akc_line_framer_finish          (AkcLineFramer  *self,
                                                 GError        **error);
/* NDJSON: whether a line of white space (not an empty one) is a frame;
 * by default it is skipped. */
void            akc_line_framer_set_keep_blank  (AkcLineFramer  *self,
                                                 gboolean        keep);
/* After a frame returned PAUSE: the frame's data stays valid and the rest
 * of the bytes fed are held until this is called, which delivers them.
 * Returns what feed would. */
AkcFrameResult  akc_line_framer_resume          (AkcLineFramer  *self,
                                                 GError        **error);
gboolean        akc_line_framer_is_paused       (AkcLineFramer  *self);
/* Bytes held for an incomplete line or event. */
gsize           akc_line_framer_get_retained    (AkcLineFramer  *self);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (AkcLineFramer, akc_line_framer_free)

/* ------------------------------------------------------------------ */
/* AkcHttpStream                                                       */
/* ------------------------------------------------------------------ */

#define AKC_HTTP_STREAM_DEFAULT_MAX_ERROR_BODY (64 * 1024)

#define AKC_TYPE_HTTP_STREAM (akc_http_stream_get_type ())
G_DECLARE_FINAL_TYPE (AkcHttpStream, akc_http_stream, AKC, HTTP_STREAM, GObject)

/* The response headers of a 2xx answer arrived. Return FALSE with @error
 * set to refuse the body (it is then not read). */
typedef gboolean (*AkcHttpStreamResponseFunc) (AkcHttpStream  *stream,
                                               SoupMessage    *message,
                                               gpointer        user_data,
                                               GError        **error);

/* Called exactly once: @error is NULL when the protocol end was reached;
 * G_IO_ERROR_CANCELLED after a stop; an AKC_HTTP_STREAM_ERROR, or the
 * error a frame or response function set, otherwise. */
typedef void (*AkcHttpStreamDoneFunc) (AkcHttpStream *stream,
                                       const GError  *error,
                                       gpointer       user_data);

/* Sets SOUP_MESSAGE_NO_REDIRECT on @message. */
AkcHttpStream  *akc_http_stream_new                 (SoupSession    *session,
                                                     SoupMessage    *message,
                                                     AkcFraming      framing);
AkcLineFramer  *akc_http_stream_get_framer          (AkcHttpStream  *self);
/* Milliseconds until the response headers must have arrived; 0 for ever.
 * The same deadline bounds reading a failed response's body. */
void            akc_http_stream_set_connect_timeout (AkcHttpStream  *self,
                                                     guint           timeout_ms);
void            akc_http_stream_set_max_error_body  (AkcHttpStream  *self,
                                                     gsize           max_bytes);
/* Starts the request. @cancellable (nullable) is the stop: cancelling it
 * closes the connection at once and reports G_IO_ERROR_CANCELLED. The
 * stream keeps itself alive until @done has been called. */
void            akc_http_stream_start               (AkcHttpStream             *self,
                                                     GCancellable              *cancellable,
                                                     AkcHttpStreamResponseFunc  on_response,
                                                     AkcFrameFunc               on_frame,
                                                     AkcHttpStreamDoneFunc      on_done,
                                                     gpointer                   user_data);
/* Reads @body as the answer of status @status instead of sending the
 * message: for fuzz targets and tests that play a server's bytes read by
 * read through the same reads, framing and endings. The answer is handled
 * from the thread-default main context, never inside this call. */
void            akc_http_stream_start_with_body     (AkcHttpStream             *self,
                                                     guint                      status,
                                                     GInputStream              *body,
                                                     GCancellable              *cancellable,
                                                     AkcHttpStreamResponseFunc  on_response,
                                                     AkcFrameFunc               on_frame,
                                                     AkcHttpStreamDoneFunc      on_done,
                                                     gpointer                   user_data);
/* Stops at once (as cancelling the cancellable given to start does). A
 * paused stream ends when it is resumed. */
void            akc_http_stream_cancel              (AkcHttpStream  *self);
/* The end of a body is the protocol end whatever the framer says: the
 * body's last frame is delivered (marked unterminated) and @done gets no
 * error. For protocols whose end is the connection's (the turn protocol). */
void            akc_http_stream_set_body_end_ends   (AkcHttpStream  *self,
                                                     gboolean        ends);
/* After a frame returned PAUSE: delivers the frames held and reads on. */
void            akc_http_stream_resume              (AkcHttpStream  *self);

SoupMessage    *akc_http_stream_get_message         (AkcHttpStream  *self);
guint           akc_http_stream_get_status          (AkcHttpStream  *self);
/* The body of a failed response, at most the cap (nullable). */
GBytes         *akc_http_stream_get_error_body      (AkcHttpStream  *self,
                                                     gboolean       *truncated);
/* The origin (scheme://host[:port]) of a redirect's Location, or NULL. */
const char     *akc_http_stream_get_redirect_origin (AkcHttpStream  *self);
/* Where a redirect pointed, for a message: its origin, `scheme:` for an
 * address without a host (`file:`), or a translated "no valid address".
 * Never NULL after a REDIRECT error. */
const char     *akc_http_stream_get_redirect_target (AkcHttpStream  *self);
/* The transport error (libsoup, GIO) behind a CONNECT or CUT_OFF error,
 * or NULL when the body ended early without one. */
const GError   *akc_http_stream_get_cause           (AkcHttpStream  *self);
/* For a view of the wire: a failed response as a received wire event of
 * @stream, `{"status": N, "body"?: …}`, its body (up to the cap) as the
 * JSON it holds or as text. Nothing while @stream does not want them. */
void            akc_http_stream_tap_error           (AkcHttpStream  *self,
                                                     AkcStream      *stream);
/* Bytes read from the body so far. */
guint64         akc_http_stream_get_bytes_read      (AkcHttpStream  *self);

/* Secrets (tokens, API keys) are kept in memory only: this replaces the
 * one in *@slot by a copy of @secret (none when it is NULL or empty),
 * wiping the old one before it is freed. Returns whether one was set
 * before. */
gboolean        akc_http_secret_replace             (char          **slot,
                                                     const char     *secret);
/* Sends @token (nullable: nothing) as `Authorization: Bearer TOKEN` with
 * @message; the header text made for it is wiped once libsoup has it. */
void            akc_http_set_bearer                 (SoupMessage    *message,
                                                     const char     *token);

/* scheme://host[:port] of @uri (brackets around IPv6 hosts). */
char           *akc_http_origin_of_uri              (GUri           *uri);

G_END_DECLS
