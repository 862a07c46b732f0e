/* akc-ask-response.c: the body of one Ask answer, from transport reads to
 * chunks (application §8.3)
 *
 * SPDX-License-Identifier: MIT
 */

#include "config.h"

#include <string.h>

#include <glib/gi18n-lib.h>

#include "akc-ask-events.h"
#include "akc-ask-events-private.h"
#include "akc-ask-response-private.h"
#include "akc-assistant-content.h"
#include "akc-diagnostic.h"
#include "akc-http-stream-private.h"
#include "akc-json-private.h"
#include "akc-text-private.h"

#define SNIFF_LIMIT          AKC_ASK_EVENT_MAX_RECORD_BYTES
/* An NDJSON line this long can only be dropped: past it, the answer is
 * given up rather than read for ever. */
#define MAX_LINE_BYTES       (16 * 1024 * 1024)

#define MESSAGE_RECORD_LIMIT "Ask response exceeded the assistant content record limit."
#define MESSAGE_BYTE_LIMIT   "Ask response exceeded the assistant content byte limit."

typedef enum
{
  MODE_UNDECIDED,
  MODE_NDJSON,
  MODE_TEXT,
} Mode;

struct _AkcAskResponse
{
  Mode                        mode;
  gboolean                    stopped;

  /* Bytes since the last line feed, outside text mode. */
  gsize                       line_bytes;

  /* Text and undecided modes decode UTF-8 themselves: a sequence cut by
   * a read waits here for the next one. */
  guint8                      carry[4];
  gsize                       carry_len;

  /* Undecided: the decoded text so far, and whether the rest of an
   * oversized first line is being dropped. Each byte is looked at once:
   * sniff_blank bytes are known to be white space, and the buffer was
   * searched for a line feed up to sniff_scanned. */
  GString                    *sniff;
  gboolean                    sniff_discarding;
  gsize                       sniff_blank;
  gsize                       sniff_scanned;

  AkcAskEventDecoder         *decoder;
  AkcAssistantContentEncoder *encoder;

  AkcAskToolProjector         projector;
  gpointer                    projector_data;
  AkcAskChunkFunc             emit;
  gpointer                    emit_data;
  AkcAskEventFunc             observer;
  gpointer                    observer_data;
};

AkcAskResponse *
akc_ask_response_new (const char          *content_type,
                      AkcAskToolProjector  projector,
                      gpointer             projector_data,
                      AkcAskChunkFunc      emit,
                      gpointer             emit_data)
{
  AkcAskResponse *self = g_new0 (AkcAskResponse, 1);

  if (content_type != NULL)
    {
      g_autofree char *lower = g_ascii_strdown (content_type, -1);

      if (strstr (lower, "ndjson") != NULL)
        self->mode = MODE_NDJSON;
    }

  self->sniff = g_string_new (NULL);
  self->decoder = akc_ask_event_decoder_new ();
  self->encoder = akc_assistant_content_encoder_new (TRUE);
  self->projector = projector;
  self->projector_data = projector_data;
  self->emit = emit;
  self->emit_data = emit_data;

  return self;
}

void
akc_ask_response_free (AkcAskResponse *self)
{
  if (self == NULL)
    return;

  g_string_free (self->sniff, TRUE);
  g_clear_object (&self->decoder);
  g_clear_object (&self->encoder);
  g_free (self);
}

void
akc_ask_response_set_event_observer (AkcAskResponse  *self,
                                     AkcAskEventFunc  observer,
                                     gpointer         user_data)
{
  self->observer = observer;
  self->observer_data = user_data;
}

gboolean
akc_ask_response_is_stopped (AkcAskResponse *self)
{
  return self->stopped;
}

gsize
akc_ask_response_get_retained_size (AkcAskResponse *self)
{
  return self->sniff->allocated_len + self->carry_len +
         akc_ask_event_decoder_get_retained_size (self->decoder);
}

/* ------------------------------------------------------------------ */
/* Output                                                              */
/* ------------------------------------------------------------------ */

static void
emit_chunk (AkcAskResponse *self,
            AkcChunk       *chunk)
{
  self->emit (chunk, self->emit_data);
}

static void
stop_with_error (AkcAskResponse *self,
                 const char     *code,
                 const char     *message)
{
  g_autoptr(AkcChunk) chunk = akc_chunk_new_error (code, message);

  self->stopped = TRUE;
  emit_chunk (self, chunk);
}

static void
stop_with_done (AkcAskResponse *self)
{
  g_autoptr(AkcChunk) chunk = akc_chunk_new_done ();

  self->stopped = TRUE;
  emit_chunk (self, chunk);
}

/* An NDJSON body that ended without its `done`: §8.3 ends the turn as
 * done all the same, and the chunk says so in its metadata
 * (`{"synthetic":true}`), so a host can tell a cut-off answer (a server
 * that died, a chunk size that libsoup reads as the last chunk) from a
 * finished one. */
static void
stop_with_synthetic_done (AkcAskResponse *self)
{
  g_autoptr(AkcChunk) done = akc_chunk_new_done ();
  g_autoptr(AkcJsonValue) flag = akc_json_value_new_boolean (TRUE);
  g_autoptr(AkcJsonValue) metadata = NULL;
  g_autoptr(AkcChunk) chunk = NULL;
  const char *names[] = { "synthetic" };
  AkcJsonValue *values[] = { flag };

  metadata = akc_json_value_new_object (names, values, 1);
  chunk = akc_chunk_with_metadata (done, metadata);
  self->stopped = TRUE;
  emit_chunk (self, chunk);
}

static void
emit_record (AkcAskResponse *self,
             char           *record,
             gsize           length,
             GError         *error)
{
  if (record == NULL)
    {
      /* The encoder checks the record count before the size. */
      gboolean records = akc_assistant_content_encoder_get_n_records (self->encoder) >=
                         AKC_ASSISTANT_CONTENT_MAX_RECORDS;

      if (g_error_matches (error, AKC_PROTOCOL_ERROR, AKC_PROTOCOL_ERROR_ASSISTANT_CONTENT_LIMIT_EXCEEDED))
        stop_with_error (self, AKC_ASK_ERROR_LIMIT,
                         records ? MESSAGE_RECORD_LIMIT : MESSAGE_BYTE_LIMIT);
      else
        /* Not reached: text is sanitised and frames are projected. A
         * refused record still ends the turn with an error, never a
         * crash. */
        stop_with_error (self, AKC_ASK_ERROR_STREAM,
                         error != NULL ? error->message : _("The Ask answer could not be stored."));
      g_clear_error (&error);
      return;
    }

  {
    g_autoptr(AkcChunk) chunk = akc_chunk_new_text (record, length);

    emit_chunk (self, chunk);
  }
  g_free (record);
}

/* Text records of at most 16 384 UTF-16 units each, one chunk each. */
static void
emit_text (AkcAskResponse *self,
           const char     *text,
           gsize           length)
{
  gsize pos = 0;

  while (pos < length && !self->stopped)
    {
      gsize end = pos, units = 0;
      GError *error = NULL;
      gsize record_len = 0;
      char *record;

      while (end < length)
        {
          guchar c = (guchar) text[end];
          gsize width = c < 0x80 ? 1 : c < 0xE0 ? 2 : c < 0xF0 ? 3 : 4;
          gsize cp_units = width == 4 ? 2 : 1;

          if (units + cp_units > AKC_ASSISTANT_CONTENT_MAX_TEXT_LENGTH)
            break;
          units += cp_units;
          end += width;
        }

      record = akc_assistant_content_encoder_encode_text (self->encoder, text + pos, end - pos,
                                                          &record_len, &error);
      emit_record (self, record, record_len, error);
      pos = end;
    }
}

static void
emit_frame (AkcAskResponse *self,
            AkcJsonValue   *frame)
{
  GError *error = NULL;
  gsize record_len = 0;
  char *record;

  record = akc_assistant_content_encoder_encode_frame (self->encoder, frame, &record_len, &error);
  if (record == NULL && !g_error_matches (error, AKC_PROTOCOL_ERROR,
                                          AKC_PROTOCOL_ERROR_ASSISTANT_CONTENT_LIMIT_EXCEEDED))
    {
      /* A frame that does not encode is ignored, like one that does not
       * decode. */
      g_clear_error (&error);
      return;
    }
  emit_record (self, record, record_len, error);
}

static void
handle_events (AkcAskResponse *self,
               GPtrArray      *events)
{
  for (guint i = 0; i < events->len && !self->stopped; i++)
    {
      AkcAskProjection projection;

      if (self->observer != NULL)
        self->observer (g_ptr_array_index (events, i), self->observer_data);
      akc_ask_project_event (g_ptr_array_index (events, i), self->projector,
                             self->projector_data, &projection);
      switch (projection.kind)
        {
        case AKC_ASK_PROJECTION_TEXT:
          emit_text (self, projection.text, projection.length);
          break;
        case AKC_ASK_PROJECTION_COMPONENT:
          emit_frame (self, projection.frame);
          break;
        case AKC_ASK_PROJECTION_ERROR:
          stop_with_error (self, projection.code != NULL ? projection.code : AKC_ASK_ERROR_STREAM,
                           projection.text);
          break;
        case AKC_ASK_PROJECTION_DONE:
          stop_with_done (self);
          break;
        case AKC_ASK_PROJECTION_NONE:
        default:
          break;
        }
      akc_ask_projection_clear (&projection);
    }
}

/* ------------------------------------------------------------------ */
/* UTF-8 for text and undecided modes                                  */
/* ------------------------------------------------------------------ */

/* The length of a valid but unfinished sequence at the end of @data
 * (0..3), which the next read may complete. */
static gsize
unfinished_tail (const guint8 *data,
                 gsize         len)
{
  for (gsize back = 1; back <= 3 && back <= len; back++)
    {
      guint8 lead = data[len - back];
      gsize need;
      guint8 lo = 0x80, hi = 0xBF;

      if (lead < 0x80)
        return 0;
      if (lead < 0xC0)
        continue;
      if (lead >= 0xC2 && lead <= 0xDF)
        need = 2;
      else if (lead >= 0xE0 && lead <= 0xEF)
        need = 3;
      else if (lead >= 0xF0 && lead <= 0xF4)
        need = 4;
      else
        return 0;

      if (back >= need)
        return 0;
      if (lead == 0xE0)
        lo = 0xA0;
      else if (lead == 0xED)
        hi = 0x9F;
      else if (lead == 0xF0)
        lo = 0x90;
      else if (lead == 0xF4)
        hi = 0x8F;

      for (gsize k = 1; k < back; k++)
        {
          guint8 c = data[len - back + k];

          if (c < (k == 1 ? lo : 0x80) || c > (k == 1 ? hi : 0xBF))
            return 0;
        }
      return back;
    }

  return 0;
}

/* Decodes @data after the carried bytes into @out, keeping a new carry
 * unless @flush. */
static void
decode_utf8 (AkcAskResponse *self,
             const guint8   *data,
             gsize           length,
             gboolean        flush,
             GString        *out)
{
  g_autofree guint8 *joined = NULL;
  const guint8 *buf = data;
  gsize len = length, tail;

  if (self->carry_len > 0)
    {
      joined = g_malloc (self->carry_len + length);
      memcpy (joined, self->carry, self->carry_len);
      if (length > 0)
        memcpy (joined + self->carry_len, data, length);
      buf = joined;
      len = self->carry_len + length;
      self->carry_len = 0;
    }

  if (len == 0)
    return;

  tail = flush ? 0 : unfinished_tail (buf, len);
  akc_utf8_sanitize_append (out, (const char *) buf, len - tail);
  if (tail > 0)
    memcpy (self->carry, buf + len - tail, tail);
  self->carry_len = tail;
}

/* ------------------------------------------------------------------ */
/* Modes                                                               */
/* ------------------------------------------------------------------ */

static void
feed_ndjson (AkcAskResponse *self,
             const guint8   *data,
             gsize           length)
{
  g_autoptr(GPtrArray) events = akc_ask_event_decoder_feed (self->decoder, data, length);

  handle_events (self, events);
}

static void
sniff_reset (AkcAskResponse *self,
             gsize           keep)
{
  g_string_erase (self->sniff, 0, self->sniff->len - keep);
  self->sniff_blank = MIN (self->sniff_blank, keep);
  self->sniff_scanned = 0;
}

/* A piece of a plain-text body. */
static void
emit_plain_text (AkcAskResponse *self,
                 const char     *text,
                 gsize           length)
{
  if (self->observer != NULL)
    {
      g_autoptr(AkcJsonValue) piece = akc_json_value_new_string (text, length);

      self->observer (piece, self->observer_data);
    }
  emit_text (self, text, length);
}

static void
become_text (AkcAskResponse *self)
{
  self->mode = MODE_TEXT;
  if (self->sniff->len > 0)
    emit_plain_text (self, self->sniff->str, self->sniff->len);
  sniff_reset (self, 0);
}

static void
become_ndjson (AkcAskResponse *self)
{
  g_autoptr(GString) buffer = g_steal_pointer (&self->sniff);
  gsize blank = self->sniff_blank;

  self->sniff = g_string_new (NULL);
  self->sniff_blank = 0;
  self->sniff_scanned = 0;
  self->mode = MODE_NDJSON;
  /* The blank lines before the first event are inert: they are not fed,
   * so they cannot use up the decoder's lines per call. */
  feed_ndjson (self, (const guint8 *) buffer->str + blank, buffer->len - blank);

  /* A sequence the last read cut goes to the decoder, which carries it. */
  if (!self->stopped && self->carry_len > 0)
    feed_ndjson (self, self->carry, self->carry_len);
  self->carry_len = 0;
}

static gboolean
first_line_has_event (const char *line,
                      gsize       length)
{
  g_autoptr(GPtrArray) events = NULL;
  g_autofree char *terminated = g_malloc (length + 1);

  memcpy (terminated, line, length);
  terminated[length] = '\n';
  events = akc_ask_events_decode (terminated, length + 1, NULL, NULL, NULL);

  return events->len > 0;
}

/* The sniffing buffer passed 1 MiB (SNIFF_LIMIT, every byte counted,
 * line feeds included) without deciding. White space up to its last line
 * feed is dropped: the rest of the buffer is where the first line may
 * start. A line longer than the limit is cleared and dropped through its
 * next line feed (§8.3). Either way the buffer stays under the limit, so
 * undecided bodies take bounded memory and linear work. */
static void
sniff_overflow (AkcAskResponse *self)
{
  GString *buf = self->sniff;
  const char *lf = NULL;

  if (self->sniff_blank == buf->len)
    for (gsize i = buf->len; i > 0 && lf == NULL; i--)
      if (buf->str[i - 1] == '\n')
        lf = buf->str + i - 1;

  if (lf != NULL && (gsize) (buf->str + buf->len - (lf + 1)) <= SNIFF_LIMIT)
    {
      sniff_reset (self, buf->str + buf->len - (lf + 1));
      return;
    }

  sniff_reset (self, 0);
  self->sniff_discarding = TRUE;
}

/* Decides the mode from the sniffing buffer when it can. Only the bytes
 * that arrived since the last call are looked at. */
static void
sniff (AkcAskResponse *self,
       gboolean        at_end)
{
  GString *buf = self->sniff;
  const char *start;
  const char *lf;
  gsize width;

  while (self->sniff_blank < buf->len &&
         (width = akc_text_ws_prefix_len (buf->str + self->sniff_blank, buf->len - self->sniff_blank)) > 0)
    self->sniff_blank += width;

  if (self->sniff_blank == buf->len)
    {
      if (!at_end && buf->len > SNIFF_LIMIT)
        sniff_overflow (self);
      return;
    }

  start = buf->str + self->sniff_blank;
  if (start[0] != '{')
    {
      become_text (self);
      return;
    }

  /* The first line is the one the first non-blank character starts. */
  self->sniff_scanned = MAX (self->sniff_scanned, self->sniff_blank);
  lf = memchr (buf->str + self->sniff_scanned, '\n', buf->len - self->sniff_scanned);
  self->sniff_scanned = buf->len;
  if (lf != NULL || at_end)
    {
      gsize line_len = lf != NULL ? (gsize) (lf - start) : (gsize) (buf->str + buf->len - start);

      if (first_line_has_event (start, line_len))
        become_ndjson (self);
      else
        become_text (self);
      return;
    }

  if (buf->len > SNIFF_LIMIT)
    sniff_overflow (self);
}

static void
feed_undecided (AkcAskResponse *self,
                const guint8   *data,
                gsize           length,
                gboolean        at_end)
{
  g_autoptr(GString) text = g_string_new (NULL);
  const char *p;
  gsize n;

  decode_utf8 (self, data, length, at_end, text);
  p = text->str;
  n = text->len;

  if (self->sniff_discarding)
    {
      const char *lf = memchr (p, '\n', n);

      if (lf == NULL)
        return;
      self->sniff_discarding = FALSE;
      n -= lf + 1 - p;
      p = lf + 1;
    }

  g_string_append_len (self->sniff, p, n);
  sniff (self, at_end);
}

gboolean
akc_ask_response_feed (AkcAskResponse *self,
                       const guint8   *data,
                       gsize           length)
{
  g_return_val_if_fail (self != NULL, FALSE);

  if (self->stopped || length == 0)
    return !self->stopped;

  if (self->mode != MODE_TEXT)
    {
      gsize i = length;

      while (i > 0 && data[i - 1] != '\n')
        i--;
      if (i > 0)
        self->line_bytes = length - i;
      else
        self->line_bytes += length;

      if (self->line_bytes > MAX_LINE_BYTES)
        {
          stop_with_error (self, AKC_ASK_ERROR_LIMIT,
                           _("The Ask answer holds a line longer than 16 MiB, so reading it was stopped."));
          return FALSE;
        }
    }

  switch (self->mode)
    {
    case MODE_UNDECIDED:
      feed_undecided (self, data, length, FALSE);
      break;

    case MODE_NDJSON:
      feed_ndjson (self, data, length);
      break;

    case MODE_TEXT:
      {
        g_autoptr(GString) text = g_string_new (NULL);

        decode_utf8 (self, data, length, FALSE, text);
        if (text->len > 0)
          emit_plain_text (self, text->str, text->len);
      }
      break;

    default:
      g_assert_not_reached ();
    }

  return !self->stopped;
}

void
akc_ask_response_finish (AkcAskResponse *self)
{
  g_return_if_fail (self != NULL);

  if (self->stopped)
    return;

  if (self->mode == MODE_UNDECIDED)
    feed_undecided (self, NULL, 0, TRUE);

  if (self->stopped)
    return;

  if (self->mode == MODE_NDJSON)
    {
      g_autoptr(GPtrArray) events = akc_ask_event_decoder_finish (self->decoder);

      handle_events (self, events);
    }
  else if (self->mode == MODE_TEXT)
    {
      g_autoptr(GString) text = g_string_new (NULL);

      decode_utf8 (self, NULL, 0, TRUE, text);
      if (text->len > 0)
        emit_plain_text (self, text->str, text->len);
    }

  if (!self->stopped && self->mode == MODE_NDJSON)
    stop_with_synthetic_done (self);
  else if (!self->stopped)
    stop_with_done (self);
}

/* ------------------------------------------------------------------ */
/* HTTP failures                                                       */
/* ------------------------------------------------------------------ */

/* The §11.2 error body `{"error":{"code","message","retryable"}}`. */
static AkcJsonValue *
decode_error_body (const guint8 *body,
                   gsize         length)
{
  g_autoptr(AkcJsonValue) value = NULL;
  AkcJsonValue *error, *code, *message, *retryable;
  gsize code_len, message_len;
  const char *code_s;

  if (body == NULL || length == 0 || length > AKC_HTTP_STREAM_DEFAULT_MAX_ERROR_BODY ||
      !g_utf8_validate_len ((const char *) body, length, NULL))
    return NULL;

  value = akc_json_value_parse ((const char *) body, length, NULL);
  if (value == NULL || akc_json_value_get_kind (value) != AKC_JSON_KIND_OBJECT)
    return NULL;

  error = akc_json_value_get_member (value, "error");
  if (error == NULL || akc_json_value_get_kind (error) != AKC_JSON_KIND_OBJECT)
    return NULL;

  code = akc_json_value_get_member (error, "code");
  message = akc_json_value_get_member (error, "message");
  retryable = akc_json_value_get_member (error, "retryable");
  if (code == NULL || akc_json_value_get_kind (code) != AKC_JSON_KIND_STRING ||
      message == NULL || akc_json_value_get_kind (message) != AKC_JSON_KIND_STRING ||
      (retryable != NULL && akc_json_value_get_kind (retryable) != AKC_JSON_KIND_BOOLEAN))
    return NULL;

  code_s = akc_json_value_get_string (code, &code_len);
  akc_json_value_get_string (message, &message_len);
  if (!akc_text_is_ask_code (code_s, code_len) || message_len == 0 || message_len > 4096 * 3)
    return NULL;

  {
    const char *names[] = { "code", "message", "retryable" };
    g_autoptr(AkcJsonValue) flag = akc_json_value_new_boolean (retryable != NULL &&
                                                              akc_json_value_get_boolean (retryable));
    AkcJsonValue *values[] = { code, message, flag };

    return akc_json_value_new_object (names, values, 3);
  }
}

AkcChunk *
akc_ask_response_http_error (guint         status,
                             const guint8 *body,
                             gsize         body_length)
{
  g_autoptr(AkcJsonValue) error = decode_error_body (body, body_length);
  g_autoptr(AkcJsonValue) status_value = akc_json_value_new_number (status);
  g_autoptr(AkcJsonValue) metadata = NULL;
  g_autoptr(AkcChunk) chunk = NULL;
  g_autofree char *message = g_strdup_printf ("Ask request failed (%u).", status);
  const char *code = AKC_ASK_ERROR_HTTP;
  const char *names[] = { "status", "error" };
  AkcJsonValue *values[] = { status_value, error };

  if (error != NULL)
    code = akc_json_value_get_string (akc_json_value_get_member (error, "code"), NULL);

  chunk = akc_chunk_new_error (code, message);
  metadata = akc_json_value_new_object (names, values, error != NULL ? 2 : 1);

  return akc_chunk_with_metadata (chunk, metadata);
}

AkcChunk *
akc_ask_response_redirect_error (guint       status,
                                 const char *target)
{
  g_autoptr(AkcJsonValue) status_value = akc_json_value_new_number (status);
  g_autoptr(AkcJsonValue) metadata = NULL;
  g_autoptr(AkcChunk) chunk = NULL;
  g_autofree char *message = NULL;
  const char *names[] = { "status" };
  AkcJsonValue *values[] = { status_value };

  /* Translators: %u is an HTTP status such as 302, %s where the server
   * pointed, such as https://example.org */
  message = g_strdup_printf (_("Ask request failed (%u): the server redirected it to %s, and redirects are not followed."),
                             status, target);
  chunk = akc_chunk_new_error (AKC_ASK_ERROR_HTTP, message);
  metadata = akc_json_value_new_object (names, values, 1);

  return akc_chunk_with_metadata (chunk, metadata);
}
