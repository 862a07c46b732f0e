/* akc-http-stream.c: one streaming POST over libsoup 3 and the line
 * framing of its body
 *
 * SPDX-License-Identifier: MIT
 */

#include "config.h"

#include <string.h>

#include <glib/gi18n-lib.h>

#include "akc-http-stream-private.h"
#include "akc-json-private.h"

/* How much one read of a body asks for. */
#define READ_SIZE (64 * 1024)

G_DEFINE_QUARK (akc-http-stream-error-quark, akc_http_stream_error)

/* ------------------------------------------------------------------ */
/* AkcLineFramer                                                       */
/* ------------------------------------------------------------------ */

struct _AkcLineFramer
{
  AkcFraming    framing;
  AkcFrameFunc  func;
  gpointer      user_data;

  gsize         max_line;
  gsize         max_event;
  guint         max_frames;
  guint         n_frames;

  GByteArray   *line;       /* the line being read (NUL-terminated when delivered) */
  GString      *event;      /* SSE: the event type buffer */
  GString      *data;       /* SSE: the data buffer */
  gboolean      skip_lf;    /* SSE: the last line ended in CR; a LF right after belongs to it */
  gboolean      first_line; /* SSE: a leading BOM is dropped */
  gboolean      closed;     /* END or FAILED was returned */
  gboolean      paused;     /* a frame returned PAUSE: its data is kept until resume */
  gboolean      keep_blank; /* NDJSON: lines of white space are frames too */
  GByteArray   *pending;    /* the bytes fed after the paused frame */
};

AkcLineFramer *
akc_line_framer_new (AkcFraming   framing,
                     AkcFrameFunc func,
                     gpointer     user_data)
{
  AkcLineFramer *self = g_new0 (AkcLineFramer, 1);

  self->framing = framing;
  self->func = func;
  self->user_data = user_data;
  self->max_line = AKC_LINE_FRAMER_DEFAULT_MAX_LINE;
  self->max_event = AKC_LINE_FRAMER_DEFAULT_MAX_EVENT;
  self->max_frames = AKC_LINE_FRAMER_DEFAULT_MAX_FRAMES;
  self->line = g_byte_array_new ();
  self->event = g_string_new (NULL);
  self->data = g_string_new (NULL);
  self->pending = g_byte_array_new ();
  self->first_line = TRUE;

  return self;
}

void
akc_line_framer_free (AkcLineFramer *self)
{
  if (self == NULL)
    return;

  g_byte_array_unref (self->line);
  g_string_free (self->event, TRUE);
  g_string_free (self->data, TRUE);
  g_byte_array_unref (self->pending);
  g_free (self);
}

void
akc_line_framer_set_limits (AkcLineFramer *self,
                            gsize          max_line,
                            gsize          max_event,
                            guint          max_frames)
{
  self->max_line = max_line > 0 ? max_line : G_MAXSIZE;
  self->max_event = max_event > 0 ? max_event : G_MAXSIZE;
  self->max_frames = max_frames;
}

gsize
akc_line_framer_get_retained (AkcLineFramer *self)
{
  return self->line->len + self->event->len + self->data->len + self->pending->len;
}

void
akc_line_framer_set_keep_blank (AkcLineFramer *self,
                                gboolean       keep)
{
  self->keep_blank = !!keep;
}

gboolean
akc_line_framer_is_paused (AkcLineFramer *self)
{
  return self->paused;
}

static AkcFrameResult
deliver (AkcLineFramer  *self,
         const char     *event,
         const char     *data,
         gsize           length,
         gboolean        unterminated,
         GError        **error)
{
  AkcFrame frame = { event, data, length, unterminated };
  AkcFrameResult result;

  if (self->max_frames > 0 && self->n_frames >= self->max_frames)
    {
      g_set_error (error, AKC_HTTP_STREAM_ERROR, AKC_HTTP_STREAM_ERROR_TOO_MANY_FRAMES,
                   _("The response has more than %u events."), self->max_frames);
      return AKC_FRAME_FAILED;
    }
  self->n_frames++;

  result = self->func (&frame, self->user_data, error);
  g_assert (result != AKC_FRAME_FAILED || error == NULL || *error != NULL);

  return result;
}

static gboolean
is_blank (const guint8 *data,
          gsize         length)
{
  for (gsize i = 0; i < length; i++)
    if (data[i] != ' ' && data[i] != '\t' && data[i] != '\r')
      return FALSE;
  return TRUE;
}

static AkcFrameResult
line_too_long (AkcLineFramer  *self,
               GError        **error)
{
  g_set_error (error, AKC_HTTP_STREAM_ERROR, AKC_HTTP_STREAM_ERROR_LINE_TOO_LONG,
               _("The response has a line longer than %lu bytes."), (gulong) self->max_line);
  return AKC_FRAME_FAILED;
}

static AkcFrameResult
sse_dispatch (AkcLineFramer  *self,
              gboolean        unterminated,
              GError        **error)
{
  AkcFrameResult result;

  if (self->data->len == 0)
    {
      g_string_truncate (self->event, 0);
      return AKC_FRAME_CONTINUE;
    }

  /* The data buffer ends in the LF of its last line. */
  g_string_truncate (self->data, self->data->len - 1);
  result = deliver (self, self->event->len > 0 ? self->event->str : NULL,
                    self->data->str, self->data->len, unterminated, error);
  /* A paused frame's data stays until resume. */
  if (result != AKC_FRAME_PAUSE)
    {
      g_string_truncate (self->event, 0);
      g_string_truncate (self->data, 0);
    }

  return result;
}

/* One SSE line, without its end. */
static AkcFrameResult
sse_line (AkcLineFramer  *self,
          const char     *line,
          gsize           length,
          GError        **error)
{
  const char *colon;
  const char *value;
  gsize name_length, value_length;

  if (self->first_line)
    {
      self->first_line = FALSE;
      if (length >= 3 && memcmp (line, "\xef\xbb\xbf", 3) == 0)
        {
          line += 3;
          length -= 3;
        }
    }

  if (length == 0)
    return sse_dispatch (self, FALSE, error);
  if (line[0] == ':')
    return AKC_FRAME_CONTINUE;

  colon = memchr (line, ':', length);
  if (colon != NULL)
    {
      name_length = (gsize) (colon - line);
      value = colon + 1;
      value_length = length - name_length - 1;
      if (value_length > 0 && value[0] == ' ')
        {
          value++;
          value_length--;
        }
    }
  else
    {
      name_length = length;
      value = line + length;
      value_length = 0;
    }

  if (name_length == 5 && memcmp (line, "event", 5) == 0)
    {
      g_string_truncate (self->event, 0);
      g_string_append_len (self->event, value, value_length);
    }
  else if (name_length == 4 && memcmp (line, "data", 4) == 0)
    {
      if (self->data->len + value_length + 1 > self->max_event)
        {
          g_set_error (error, AKC_HTTP_STREAM_ERROR, AKC_HTTP_STREAM_ERROR_EVENT_TOO_LARGE,
                       _("The response has an event larger than %lu bytes."),
                       (gulong) self->max_event);
          return AKC_FRAME_FAILED;
        }
      g_string_append_len (self->data, value, value_length);
      g_string_append_c (self->data, '\n');
    }
  /* id, retry and unknown fields change nothing a client of ours uses. */

  return AKC_FRAME_CONTINUE;
}

/* One complete line (without its end) of NDJSON or SSE. */
static AkcFrameResult
handle_line (AkcLineFramer  *self,
             guint8         *line,
             gsize           length,
             gboolean        unterminated,
             GError        **error)
{
  if (self->framing == AKC_FRAMING_SSE)
    return sse_line (self, (const char *) line, length, error);

  if (length > 0 && line[length - 1] == '\r')
    line[--length] = '\0';
  if (length > self->max_line)
    return line_too_long (self, error);
  if (length == 0 || (!self->keep_blank && is_blank (line, length)))
    return AKC_FRAME_CONTINUE;

  return deliver (self, NULL, (const char *) line, length, unterminated, error);
}

/* Takes the held line plus @length bytes of @data as one line. */
static AkcFrameResult
take_line (AkcLineFramer  *self,
           const guint8   *data,
           gsize           length,
           gboolean        unterminated,
           GError        **error)
{
  AkcFrameResult result;
  gsize total = self->line->len + length;

  /* One byte more for the CR of a CRLF. */
  if (total > self->max_line + 1)
    return line_too_long (self, error);

  g_byte_array_append (self->line, data, length);
  g_byte_array_append (self->line, (const guint8 *) "", 1);
  result = handle_line (self, self->line->data, self->line->len - 1, unterminated, error);
  /* A paused frame's data stays until resume. */
  if (result != AKC_FRAME_PAUSE)
    g_byte_array_set_size (self->line, 0);

  return result;
}

AkcFrameResult
akc_line_framer_feed (AkcLineFramer  *self,
                      const guint8   *data,
                      gsize           length,
                      GError        **error)
{
  gsize pos = 0;

  g_return_val_if_fail (!self->closed, AKC_FRAME_END);
  g_return_val_if_fail (!self->paused, AKC_FRAME_PAUSE);

  if (length == 0)
    return AKC_FRAME_CONTINUE;

  if (self->framing == AKC_FRAMING_RAW)
    {
      AkcFrameResult result;

      g_byte_array_append (self->line, data, length);
      g_byte_array_append (self->line, (const guint8 *) "", 1);
      result = deliver (self, NULL, (const char *) self->line->data, length, FALSE, error);
      if (result == AKC_FRAME_PAUSE)
        self->paused = TRUE;
      else
        g_byte_array_set_size (self->line, 0);
      if (result == AKC_FRAME_END || result == AKC_FRAME_FAILED)
        self->closed = TRUE;
      return result;
    }

  while (pos < length)
    {
      const guint8 *end = NULL;
      AkcFrameResult result;

      if (self->skip_lf)
        {
          self->skip_lf = FALSE;
          if (data[pos] == '\n')
            {
              pos++;
              continue;
            }
        }

      if (self->framing == AKC_FRAMING_NDJSON)
        end = memchr (data + pos, '\n', length - pos);
      else
        {
          for (gsize i = pos; i < length; i++)
            if (data[i] == '\n' || data[i] == '\r')
              {
                end = data + i;
                break;
              }
        }

      if (end == NULL)
        {
          if (self->line->len + (length - pos) > self->max_line + 1)
            {
              self->closed = TRUE;
              return line_too_long (self, error);
            }
          g_byte_array_append (self->line, data + pos, length - pos);
          break;
        }

      result = take_line (self, data + pos, (gsize) (end - (data + pos)), FALSE, error);
      if (*end == '\r')
        self->skip_lf = TRUE;
      pos = (gsize) (end - data) + 1;

      if (result == AKC_FRAME_PAUSE)
        {
          /* The rest waits for resume. */
          self->paused = TRUE;
          g_byte_array_append (self->pending, data + pos, length - pos);
          return result;
        }
      if (result != AKC_FRAME_CONTINUE)
        {
          self->closed = TRUE;
          return result;
        }
    }

  return AKC_FRAME_CONTINUE;
}

AkcFrameResult
akc_line_framer_resume (AkcLineFramer  *self,
                        GError        **error)
{
  g_autoptr(GByteArray) pending = NULL;

  g_return_val_if_fail (self->paused, AKC_FRAME_CONTINUE);

  self->paused = FALSE;
  g_byte_array_set_size (self->line, 0);
  if (self->framing == AKC_FRAMING_SSE)
    {
      g_string_truncate (self->event, 0);
      g_string_truncate (self->data, 0);
    }

  pending = g_steal_pointer (&self->pending);
  self->pending = g_byte_array_new ();

  return akc_line_framer_feed (self, pending->data, pending->len, error);
}

AkcFrameResult
akc_line_framer_finish (AkcLineFramer  *self,
                        GError        **error)
{
  AkcFrameResult result = AKC_FRAME_CONTINUE;

  g_return_val_if_fail (!self->closed, AKC_FRAME_END);
  g_return_val_if_fail (!self->paused, AKC_FRAME_PAUSE);
  self->closed = TRUE;

  switch (self->framing)
    {
    case AKC_FRAMING_RAW:
      return AKC_FRAME_END;

    case AKC_FRAMING_NDJSON:
      if (self->line->len > 0)
        result = take_line (self, NULL, 0, TRUE, error);
      break;

    case AKC_FRAMING_SSE:
    default:
      if (self->line->len > 0)
        result = take_line (self, NULL, 0, TRUE, error);
      if (result == AKC_FRAME_CONTINUE)
        result = sse_dispatch (self, TRUE, error);
      break;
    }

  /* Nothing follows the last frame: a pause there is a continue. */
  g_warn_if_fail (result != AKC_FRAME_PAUSE);
  if (result == AKC_FRAME_PAUSE)
    result = AKC_FRAME_CONTINUE;

  return result;
}

/* ------------------------------------------------------------------ */
/* AkcHttpStream                                                       */
/* ------------------------------------------------------------------ */

struct _AkcHttpStream
{
  GObject                    parent_instance;

  SoupSession               *session;
  SoupMessage               *message;
  AkcLineFramer             *framer;
  guint                      connect_timeout;
  gsize                      max_error_body;

  GCancellable              *cancellable;     /* ours: cancelling it closes the connection */
  GCancellable              *stop;            /* the caller's, nullable */
  gulong                     stop_handler;
  GInputStream              *body;
  guint                      deadline_id;
  gboolean                   timed_out;
  gboolean                   started;
  gboolean                   done;
  gboolean                   body_end_ends;
  guint                      answer_id;       /* start_with_body: the idle that handles the answer */

  AkcHttpStreamResponseFunc  on_response;
  AkcFrameFunc               on_frame;
  AkcHttpStreamDoneFunc      on_done;
  gpointer                   user_data;

  guint                      status;
  GByteArray                *error_body;
  gboolean                   error_truncated;
  char                      *redirect_origin;
  char                      *redirect_target;
  GError                    *cause;
  guint64                    bytes_read;
};

G_DEFINE_FINAL_TYPE (AkcHttpStream, akc_http_stream, G_TYPE_OBJECT)

static void
akc_http_stream_dispose (GObject *object)
{
  AkcHttpStream *self = AKC_HTTP_STREAM (object);

  g_assert (!self->started || self->done);

  g_clear_object (&self->body);
  g_clear_object (&self->message);
  g_clear_object (&self->session);

  G_OBJECT_CLASS (akc_http_stream_parent_class)->dispose (object);
}

static void
akc_http_stream_finalize (GObject *object)
{
  AkcHttpStream *self = AKC_HTTP_STREAM (object);

  g_clear_pointer (&self->framer, akc_line_framer_free);
  g_clear_pointer (&self->error_body, g_byte_array_unref);
  g_clear_pointer (&self->redirect_origin, g_free);
  g_clear_pointer (&self->redirect_target, g_free);
  g_clear_error (&self->cause);
  g_clear_object (&self->cancellable);

  G_OBJECT_CLASS (akc_http_stream_parent_class)->finalize (object);
}

static void
akc_http_stream_class_init (AkcHttpStreamClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->dispose = akc_http_stream_dispose;
  object_class->finalize = akc_http_stream_finalize;
}

static void
akc_http_stream_init (AkcHttpStream *self)
{
  self->cancellable = g_cancellable_new ();
  self->max_error_body = AKC_HTTP_STREAM_DEFAULT_MAX_ERROR_BODY;
}

/* The framer's frames go to the caller; a stop inside a frame handler
 * stops the delivery of the frames already read. */
static AkcFrameResult
stream_frame (const AkcFrame  *frame,
              gpointer         user_data,
              GError         **error)
{
  AkcHttpStream *self = user_data;
  AkcFrameResult result;

  if (g_cancellable_set_error_if_cancelled (self->cancellable, error))
    return AKC_FRAME_FAILED;

  result = self->on_frame (frame, self->user_data, error);
  if (result == AKC_FRAME_CONTINUE && g_cancellable_set_error_if_cancelled (self->cancellable, error))
    return AKC_FRAME_FAILED;

  return result;
}

AkcHttpStream *
akc_http_stream_new (SoupSession *session,
                     SoupMessage *message,
                     AkcFraming   framing)
{
  AkcHttpStream *self = g_object_new (AKC_TYPE_HTTP_STREAM, NULL);

  self->session = g_object_ref (session);
  self->message = g_object_ref (message);
  self->framer = akc_line_framer_new (framing, stream_frame, self);
  soup_message_add_flags (message, SOUP_MESSAGE_NO_REDIRECT);

  return self;
}

AkcLineFramer *
akc_http_stream_get_framer (AkcHttpStream *self)
{
  return self->framer;
}

void
akc_http_stream_set_connect_timeout (AkcHttpStream *self,
                                     guint          timeout_ms)
{
  self->connect_timeout = timeout_ms;
}

void
akc_http_stream_set_max_error_body (AkcHttpStream *self,
                                    gsize          max_bytes)
{
  self->max_error_body = MAX (max_bytes, 1);
}

SoupMessage *
akc_http_stream_get_message (AkcHttpStream *self)
{
  return self->message;
}

guint
akc_http_stream_get_status (AkcHttpStream *self)
{
  return self->status;
}

GBytes *
akc_http_stream_get_error_body (AkcHttpStream *self,
                                gboolean      *truncated)
{
  if (truncated != NULL)
    *truncated = self->error_truncated;
  if (self->error_body == NULL)
    return NULL;
  return g_bytes_new (self->error_body->data, self->error_body->len);
}

void
akc_http_stream_tap_error (AkcHttpStream *self,
                           AkcStream     *stream)
{
  g_autoptr(AkcJsonValue) event = NULL;
  const char *names[2] = { "status", "body" };
  AkcJsonValue *values[2] = { NULL, NULL };
  gsize n = 1;

  if (!akc_stream_wants_wire_events (stream))
    return;

  values[0] = akc_json_value_new_number (self->status);
  if (self->error_body != NULL && self->error_body->len > 0)
    {
      const char *data = (const char *) self->error_body->data;
      gsize length = self->error_body->len;

      values[1] = akc_json_parse (data, length, NULL, NULL, NULL);
      if (values[1] == NULL)
        {
          g_autoptr(GString) text = g_string_sized_new (length);

          akc_utf8_sanitize_append (text, data, length);
          values[1] = akc_json_value_new_string (text->str, text->len);
        }
      n = 2;
    }
  event = akc_json_value_new_object (names, values, n);
  for (gsize i = 0; i < n; i++)
    akc_json_value_unref (values[i]);

  akc_stream_tap_wire_event (stream, "received", event);
}

const char *
akc_http_stream_get_redirect_origin (AkcHttpStream *self)
{
  return self->redirect_origin;
}

const char *
akc_http_stream_get_redirect_target (AkcHttpStream *self)
{
  return self->redirect_target;
}

const GError *
akc_http_stream_get_cause (AkcHttpStream *self)
{
  return self->cause;
}

void
akc_http_stream_set_body_end_ends (AkcHttpStream *self,
                                   gboolean       ends)
{
  self->body_end_ends = !!ends;
}

guint64
akc_http_stream_get_bytes_read (AkcHttpStream *self)
{
  return self->bytes_read;
}

gboolean
akc_http_secret_replace (char       **slot,
                         const char  *secret)
{
  gboolean had = *slot != NULL;

  if (*slot != NULL)
    explicit_bzero (*slot, strlen (*slot));
  g_clear_pointer (slot, g_free);
  if (secret != NULL && secret[0] != '\0')
    *slot = g_strdup (secret);

  return had;
}

void
akc_http_set_bearer (SoupMessage *message,
                     const char  *token)
{
  g_autofree char *authorization = NULL;

  if (token == NULL)
    return;

  authorization = g_strconcat ("Bearer ", token, NULL);
  soup_message_headers_replace (soup_message_get_request_headers (message), "Authorization", authorization);
  explicit_bzero (authorization, strlen (authorization));
}

char *
akc_http_origin_of_uri (GUri *uri)
{
  const char *host = g_uri_get_host (uri);
  const char *scheme = g_uri_get_scheme (uri);
  g_autofree char *lower = NULL;
  GString *out;
  int port;

  if (host == NULL || host[0] == '\0' || scheme == NULL)
    return NULL;

  lower = g_ascii_strdown (scheme, -1);
  out = g_string_new (lower);
  g_string_append (out, "://");
  if (strchr (host, ':') != NULL)
    g_string_append_printf (out, "[%s]", host);
  else
    g_string_append (out, host);
  port = g_uri_get_port (uri);
  if (port > 0)
    g_string_append_printf (out, ":%d", port);

  return g_string_free (out, FALSE);
}

static void
finish (AkcHttpStream *self,
        const GError  *error)
{
  if (self->done)
    return;
  self->done = TRUE;

  g_clear_handle_id (&self->deadline_id, g_source_remove);
  g_clear_handle_id (&self->answer_id, g_source_remove);
  if (self->stop_handler != 0)
    {
      /* Never from inside the stop's own handler: that only cancels ours,
       * and every finish runs from an I/O callback. */
      g_cancellable_disconnect (self->stop, self->stop_handler);
      self->stop_handler = 0;
    }
  g_clear_object (&self->stop);

  /* The rest of the body is not wanted: cancelling and dropping the body
   * stream closes the connection instead of reading it to its end. */
  g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->body);

  self->on_done (self, error, self->user_data);
  g_object_unref (self);
}

static void
finish_error (AkcHttpStream *self,
              GQuark         domain,
              int            code,
              const char    *format,
              ...) G_GNUC_PRINTF (4, 5);

static void
finish_error (AkcHttpStream *self,
              GQuark         domain,
              int            code,
              const char    *format,
              ...)
{
  g_autoptr(GError) error = NULL;
  va_list args;

  va_start (args, format);
  error = g_error_new_valist (domain, code, format, args);
  va_end (args);

  finish (self, error);
}

static void
finish_cancelled (AkcHttpStream *self)
{
  finish_error (self, G_IO_ERROR, G_IO_ERROR_CANCELLED, "%s", _("Stopped."));
}

static gboolean
on_deadline (gpointer data)
{
  AkcHttpStream *self = data;

  self->deadline_id = 0;
  self->timed_out = TRUE;
  g_cancellable_cancel (self->cancellable);

  return G_SOURCE_REMOVE;
}

static void
on_stop (GCancellable *cancellable,
         gpointer      data)
{
  AkcHttpStream *self = data;

  g_cancellable_cancel (self->cancellable);
}

static void
arm_deadline (AkcHttpStream *self)
{
  g_clear_handle_id (&self->deadline_id, g_source_remove);
  if (self->connect_timeout > 0)
    self->deadline_id = g_timeout_add (self->connect_timeout, on_deadline, self);
}

static void read_body (AkcHttpStream *self);
static void fed       (AkcHttpStream  *self,
                       AkcFrameResult  frame_result,
                       GError         *error);

static void
finish_status (AkcHttpStream *self)
{
  g_clear_handle_id (&self->deadline_id, g_source_remove);
  finish_error (self, AKC_HTTP_STREAM_ERROR, AKC_HTTP_STREAM_ERROR_STATUS,
                "HTTP %u %s", self->status, soup_status_get_phrase (self->status));
}

static void
read_error_body (AkcHttpStream *self);

static void
read_error_body_cb (GObject      *source,
                    GAsyncResult *result,
                    gpointer      data)
{
  AkcHttpStream *self = data;
  g_autoptr(GError) error = NULL;
  g_autoptr(GBytes) bytes = NULL;
  gsize length;

  bytes = g_input_stream_read_bytes_finish (G_INPUT_STREAM (source), result, &error);
  if (bytes == NULL && g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED) && !self->timed_out)
    {
      finish_cancelled (self);
      return;
    }

  length = bytes != NULL ? g_bytes_get_size (bytes) : 0;
  if (length > 0)
    {
      gsize room = self->max_error_body - self->error_body->len;

      self->bytes_read += length;
      g_byte_array_append (self->error_body, g_bytes_get_data (bytes, NULL), MIN (length, room));
      if (self->error_body->len < self->max_error_body)
        {
          read_error_body (self);
          return;
        }
      /* The cap: the rest is not read. */
      self->error_truncated = TRUE;
    }

  /* The end, a read error, the deadline or the cap: what was read is the
   * body of the error. */
  finish_status (self);
}

static void
read_error_body (AkcHttpStream *self)
{
  gsize room = self->max_error_body - self->error_body->len;

  g_assert (room > 0);
  g_input_stream_read_bytes_async (self->body, MIN (room, READ_SIZE), G_PRIORITY_DEFAULT,
                                   self->cancellable, read_error_body_cb, self);
}

static void
read_body_cb (GObject      *source,
              GAsyncResult *result,
              gpointer      data)
{
  AkcHttpStream *self = data;
  g_autoptr(GError) error = NULL;
  g_autoptr(GBytes) bytes = NULL;
  AkcFrameResult frame_result;
  gsize length;

  bytes = g_input_stream_read_bytes_finish (G_INPUT_STREAM (source), result, &error);
  if (bytes == NULL)
    {
      if (g_cancellable_is_cancelled (self->cancellable))
        finish_cancelled (self);
      else
        {
          self->cause = g_error_copy (error);
          finish_error (self, AKC_HTTP_STREAM_ERROR, AKC_HTTP_STREAM_ERROR_CUT_OFF,
                        _("The response was cut off: %s"), error->message);
        }
      return;
    }

  length = g_bytes_get_size (bytes);
  if (length == 0)
    {
      frame_result = akc_line_framer_finish (self->framer, &error);
      if (frame_result == AKC_FRAME_END || (frame_result == AKC_FRAME_CONTINUE && self->body_end_ends))
        finish (self, NULL);
      else if (frame_result == AKC_FRAME_FAILED)
        finish (self, error);
      else
        finish_error (self, AKC_HTTP_STREAM_ERROR, AKC_HTTP_STREAM_ERROR_CUT_OFF, "%s",
                      _("The response ended before it was complete."));
      return;
    }

  self->bytes_read += length;
  frame_result = akc_line_framer_feed (self->framer, g_bytes_get_data (bytes, NULL), length, &error);
  fed (self, frame_result, error);
}

/* What feeding (or resuming) the framer gave. */
static void
fed (AkcHttpStream  *self,
     AkcFrameResult  frame_result,
     GError         *error)
{
  switch (frame_result)
    {
    case AKC_FRAME_END:
      finish (self, NULL);
      break;
    case AKC_FRAME_FAILED:
      finish (self, error);
      break;
    case AKC_FRAME_PAUSE:
      /* Read on at resume. */
      break;
    case AKC_FRAME_CONTINUE:
    default:
      read_body (self);
      break;
    }
}

void
akc_http_stream_resume (AkcHttpStream *self)
{
  g_autoptr(GError) error = NULL;
  AkcFrameResult frame_result;

  g_return_if_fail (AKC_IS_HTTP_STREAM (self));

  if (self->done || !akc_line_framer_is_paused (self->framer))
    return;

  if (g_cancellable_is_cancelled (self->cancellable))
    {
      finish_cancelled (self);
      return;
    }

  frame_result = akc_line_framer_resume (self->framer, &error);
  fed (self, frame_result, error);
}

static void
read_body (AkcHttpStream *self)
{
  g_input_stream_read_bytes_async (self->body, READ_SIZE, G_PRIORITY_DEFAULT,
                                   self->cancellable, read_body_cb, self);
}

static void finish_redirect (AkcHttpStream *self);
static void handle_answer   (AkcHttpStream *self);

static void
send_cb (GObject      *source,
         GAsyncResult *result,
         gpointer      data)
{
  AkcHttpStream *self = data;
  g_autoptr(GError) error = NULL;

  self->body = soup_session_send_finish (SOUP_SESSION (source), result, &error);
  g_clear_handle_id (&self->deadline_id, g_source_remove);

  if (self->body == NULL)
    {
      guint status = soup_message_get_status (self->message);

      /* libsoup reads the body of a 401 before it answers (to retry with
       * HTTP authentication); one that never ends lasts to the deadline,
       * or breaks, and then the status that arrived is what the person
       * needs. */
      if ((self->timed_out || !g_cancellable_is_cancelled (self->cancellable)) && status >= 300)
        {
          self->status = status;
          if (SOUP_STATUS_IS_REDIRECTION (status))
            finish_redirect (self);
          else
            finish_status (self);
        }
      else if (self->timed_out)
        finish_error (self, AKC_HTTP_STREAM_ERROR, AKC_HTTP_STREAM_ERROR_TIMEOUT, "%s",
                      _("The server did not answer in time."));
      else if (g_cancellable_is_cancelled (self->cancellable))
        finish_cancelled (self);
      else
        {
          self->cause = g_error_copy (error);
          finish_error (self, AKC_HTTP_STREAM_ERROR, AKC_HTTP_STREAM_ERROR_CONNECT, "%s", error->message);
        }
      return;
    }

  self->status = soup_message_get_status (self->message);
  handle_answer (self);
}

static void
finish_redirect (AkcHttpStream *self)
{
  SoupMessageHeaders *headers = soup_message_get_response_headers (self->message);
  const char *location = soup_message_headers_get_one (headers, "Location");
  g_autoptr(GUri) target = NULL;

  if (location != NULL)
    target = g_uri_parse_relative (soup_message_get_uri (self->message), location,
                                   G_URI_FLAGS_ENCODED, NULL);
  if (target != NULL)
    self->redirect_origin = akc_http_origin_of_uri (target);

  if (self->redirect_origin != NULL)
    self->redirect_target = g_strdup (self->redirect_origin);
  else if (target != NULL)
    {
      g_autofree char *scheme = g_ascii_strdown (g_uri_get_scheme (target), -1);

      self->redirect_target = g_strconcat (scheme, ":", NULL);
    }
  else
    self->redirect_target = g_strdup (_("no valid address"));

  if (self->redirect_origin != NULL)
    /* Translators: %u is an HTTP status, %s an address like https://example.com:8443 */
    finish_error (self, AKC_HTTP_STREAM_ERROR, AKC_HTTP_STREAM_ERROR_REDIRECT,
                  _("The server redirected the request (%u) to %s; redirects are not followed. Use that address if you trust it."),
                  self->status, self->redirect_origin);
  else
    finish_error (self, AKC_HTTP_STREAM_ERROR, AKC_HTTP_STREAM_ERROR_REDIRECT,
                  _("The server redirected the request (%u) without a valid address; redirects are not followed."),
                  self->status);
}

/* The answer's status and body stream are there. */
static void
handle_answer (AkcHttpStream *self)
{
  g_autoptr(GError) error = NULL;

  if (g_cancellable_is_cancelled (self->cancellable))
    {
      finish_cancelled (self);
      return;
    }

  if (SOUP_STATUS_IS_REDIRECTION (self->status))
    {
      finish_redirect (self);
      return;
    }

  if (!SOUP_STATUS_IS_SUCCESSFUL (self->status))
    {
      /* The error body is read with the connection deadline again, so a
       * failed response whose body never ends cannot hold the request. */
      self->error_body = g_byte_array_new ();
      arm_deadline (self);
      read_error_body (self);
      return;
    }

  if (self->on_response != NULL && !self->on_response (self, self->message, self->user_data, &error))
    {
      finish (self, error);
      return;
    }

  read_body (self);
}

static gboolean
on_answer (gpointer data)
{
  AkcHttpStream *self = data;

  self->answer_id = 0;
  handle_answer (self);

  return G_SOURCE_REMOVE;
}

void
akc_http_stream_start (AkcHttpStream             *self,
                       GCancellable              *cancellable,
                       AkcHttpStreamResponseFunc  on_response,
                       AkcFrameFunc               on_frame,
                       AkcHttpStreamDoneFunc      on_done,
                       gpointer                   user_data)
{
  g_return_if_fail (AKC_IS_HTTP_STREAM (self));
  g_return_if_fail (!self->started);
  g_return_if_fail (on_frame != NULL && on_done != NULL);

  self->started = TRUE;
  self->on_response = on_response;
  self->on_frame = on_frame;
  self->on_done = on_done;
  self->user_data = user_data;

  /* Held until done. */
  g_object_ref (self);

  if (cancellable != NULL)
    {
      self->stop = g_object_ref (cancellable);
      self->stop_handler = g_cancellable_connect (cancellable, G_CALLBACK (on_stop), self, NULL);
    }
  arm_deadline (self);

  soup_session_send_async (self->session, self->message, G_PRIORITY_DEFAULT,
                           self->cancellable, send_cb, self);
}

void
akc_http_stream_start_with_body (AkcHttpStream             *self,
                                 guint                      status,
                                 GInputStream              *body,
                                 GCancellable              *cancellable,
                                 AkcHttpStreamResponseFunc  on_response,
                                 AkcFrameFunc               on_frame,
                                 AkcHttpStreamDoneFunc      on_done,
                                 gpointer                   user_data)
{
  g_return_if_fail (AKC_IS_HTTP_STREAM (self));
  g_return_if_fail (G_IS_INPUT_STREAM (body));
  g_return_if_fail (!self->started);
  g_return_if_fail (on_frame != NULL && on_done != NULL);

  self->started = TRUE;
  self->on_response = on_response;
  self->on_frame = on_frame;
  self->on_done = on_done;
  self->user_data = user_data;
  self->status = status;
  self->body = g_object_ref (body);

  /* Held until done. */
  g_object_ref (self);

  if (cancellable != NULL)
    {
      self->stop = g_object_ref (cancellable);
      self->stop_handler = g_cancellable_connect (cancellable, G_CALLBACK (on_stop), self, NULL);
    }

  self->answer_id = g_idle_add (on_answer, self);
}

void
akc_http_stream_cancel (AkcHttpStream *self)
{
  g_return_if_fail (AKC_IS_HTTP_STREAM (self));

  g_cancellable_cancel (self->cancellable);
}
