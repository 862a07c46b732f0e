/* test-provider-decoder.c: the line framer and the provider stream
 * decoders, fed whole and split at every byte
 *
 * SPDX-License-Identifier: MIT
 */

#include "config.h"

#include <string.h>

#include "akc.h"
#include "akc-http-stream-private.h"
#include "akc-provider-codec-private.h"

/* ------------------------------------------------------------------ */
/* The framer                                                          */
/* ------------------------------------------------------------------ */

typedef struct
{
  GString *log;
  guint    end_after;   /* return END at this frame (1-based), 0: never */
  guint    n;
} Frames;

static AkcFrameResult
log_frame (const AkcFrame  *frame,
           gpointer         user_data,
           GError         **error)
{
  Frames *frames = user_data;

  g_assert_cmpuint (strlen (frame->data), ==, frame->length);
  g_string_append_printf (frames->log, "[%s|%s%s]", frame->event != NULL ? frame->event : "-",
                          frame->data, frame->unterminated ? "|cut" : "");
  frames->n++;

  return frames->end_after != 0 && frames->n == frames->end_after ? AKC_FRAME_END : AKC_FRAME_CONTINUE;
}

/* Frames @input split into pieces of @piece bytes (0: whole). */
static char *
frame_input (AkcFraming      framing,
             const char     *input,
             gsize           length,
             gsize           piece,
             guint           end_after,
             AkcFrameResult *result,
             GError        **error)
{
  Frames frames = { g_string_new (NULL), end_after, 0 };
  g_autoptr(AkcLineFramer) framer = akc_line_framer_new (framing, log_frame, &frames);
  AkcFrameResult r = AKC_FRAME_CONTINUE;
  gsize pos = 0;

  akc_line_framer_set_limits (framer, 64, 128, 100);
  while (pos < length && r == AKC_FRAME_CONTINUE)
    {
      gsize n = piece == 0 ? length : MIN (piece, length - pos);

      r = akc_line_framer_feed (framer, (const guint8 *) input + pos, n, error);
      pos += n;
    }
  if (r == AKC_FRAME_CONTINUE)
    r = akc_line_framer_finish (framer, error);
  *result = r;

  return g_string_free (frames.log, FALSE);
}

static void
check_framing (AkcFraming     framing,
               const char    *input,
               const char    *expected,
               AkcFrameResult expected_result)
{
  gsize length = strlen (input);

  for (gsize piece = 0; piece <= length; piece++)
    {
      g_autoptr(GError) error = NULL;
      AkcFrameResult result;
      g_autofree char *log = frame_input (framing, input, length, piece, 0, &result, &error);

      g_assert_no_error (error);
      g_assert_cmpstr (log, ==, expected);
      g_assert_cmpint (result, ==, expected_result);
    }
}

static void
test_framer_sse (void)
{
  /* Comments, CRLF, a lone CR, multi-line data, an event name, fields
   * without a space, unknown fields, an event with no data, a BOM. */
  check_framing (AKC_FRAMING_SSE,
                 "\xef\xbb\xbf: keep-alive\r\n\r\n"
                 "data: one\r\n\r\n"
                 "event: delta\ndata:two\ndata:  three\n\n"
                 "id: 7\nretry: 10\nfoo: bar\ndata\n\n"
                 "event: lonely\n\n"
                 "data: cr\r\r"
                 "data: last\n",
                 "[-|one][delta|two\n three][-|][-|cr][-|last|cut]",
                 AKC_FRAME_CONTINUE);
}

static void
test_framer_ndjson (void)
{
  check_framing (AKC_FRAMING_NDJSON,
                 "{\"a\":1}\r\n\n   \n{\"b\":2}\n{\"c\":",
                 "[-|{\"a\":1}][-|{\"b\":2}][-|{\"c\":|cut]",
                 AKC_FRAME_CONTINUE);
  check_framing (AKC_FRAMING_NDJSON, "{}\n", "[-|{}]", AKC_FRAME_CONTINUE);
}

static void
test_framer_end (void)
{
  g_autoptr(GError) error = NULL;
  AkcFrameResult result;
  g_autofree char *log = NULL;

  /* END stops at once: the rest is never framed. */
  log = frame_input (AKC_FRAMING_NDJSON, "1\n2\n3\n", 6, 1, 2, &result, &error);
  g_assert_no_error (error);
  g_assert_cmpint (result, ==, AKC_FRAME_END);
  g_assert_cmpstr (log, ==, "[-|1][-|2]");
}

/* A frame handler that pauses at every frame whose data starts with 'P',
 * as the turn client does for a line it decodes in a thread. */
typedef struct
{
  GString    *log;
  const char *paused_data;   /* the paused frame's data, checked at resume */
  char       *paused_copy;
} Pauses;

static AkcFrameResult
pause_frame (const AkcFrame  *frame,
             gpointer         user_data,
             GError         **error)
{
  Pauses *pauses = user_data;

  g_string_append_printf (pauses->log, "[%s|%s%s]", frame->event != NULL ? frame->event : "-",
                          frame->data, frame->unterminated ? "|cut" : "");
  if (frame->data[0] == 'P' && !frame->unterminated)
    {
      pauses->paused_data = frame->data;
      pauses->paused_copy = g_strndup (frame->data, frame->length);
      return AKC_FRAME_PAUSE;
    }

  return AKC_FRAME_CONTINUE;
}

static char *
pause_input (AkcFraming   framing,
             gboolean     keep_blank,
             const char  *input,
             gsize        piece,
             guint       *n_pauses)
{
  Pauses pauses = { g_string_new (NULL), NULL, NULL };
  g_autoptr(AkcLineFramer) framer = akc_line_framer_new (framing, pause_frame, &pauses);
  g_autoptr(GError) error = NULL;
  gsize length = strlen (input);
  AkcFrameResult r = AKC_FRAME_CONTINUE;
  gsize pos = 0;

  akc_line_framer_set_limits (framer, 64, 128, 100);
  akc_line_framer_set_keep_blank (framer, keep_blank);
  *n_pauses = 0;
  while (r == AKC_FRAME_CONTINUE || r == AKC_FRAME_PAUSE)
    {
      if (r == AKC_FRAME_PAUSE)
        {
          /* Paused: the frame's data is intact, nothing more is framed
           * until resume, and resume delivers what was held. */
          g_assert_true (akc_line_framer_is_paused (framer));
          g_assert_cmpstr (pauses.paused_data, ==, pauses.paused_copy);
          g_clear_pointer (&pauses.paused_copy, g_free);
          (*n_pauses)++;
          r = akc_line_framer_resume (framer, &error);
          continue;
        }
      if (pos >= length)
        break;
      {
        gsize n = piece == 0 ? length : MIN (piece, length - pos);

        r = akc_line_framer_feed (framer, (const guint8 *) input + pos, n, &error);
        pos += n;
      }
    }
  g_assert_no_error (error);
  g_assert_cmpint (r, ==, AKC_FRAME_CONTINUE);
  g_assert_false (akc_line_framer_is_paused (framer));
  r = akc_line_framer_finish (framer, &error);
  g_assert_no_error (error);
  g_assert_cmpint (r, ==, AKC_FRAME_CONTINUE);

  return g_string_free (pauses.log, FALSE);
}

static void
test_framer_pause (void)
{
  const char *ndjson = "P1\r\n2\nP3\nP4\n\n  \n5\r\nP6";
  const char *sse = "data: P1\n\ndata: 2\n\nevent: e\ndata: P3\ndata: x\n\ndata: P4\r\n\r\ndata: 5\n";

  for (gsize piece = 0; piece <= strlen (ndjson); piece++)
    {
      guint n_pauses;
      g_autofree char *log = pause_input (AKC_FRAMING_NDJSON, FALSE, ndjson, piece, &n_pauses);

      g_assert_cmpstr (log, ==, "[-|P1][-|2][-|P3][-|P4][-|5][-|P6|cut]");
      g_assert_cmpuint (n_pauses, ==, 3);
    }
  for (gsize piece = 0; piece <= strlen (sse); piece++)
    {
      guint n_pauses;
      g_autofree char *log = pause_input (AKC_FRAMING_SSE, FALSE, sse, piece, &n_pauses);

      g_assert_cmpstr (log, ==, "[-|P1][-|2][e|P3\nx][-|P4][-|5|cut]");
      g_assert_cmpuint (n_pauses, ==, 3);
    }
}

static void
test_framer_keep_blank (void)
{
  /* Empty lines are never frames; lines of white space are when asked
   * (the turn client fails a turn on them, as before it shared the
   * framer). */
  for (gsize piece = 0; piece <= 12; piece++)
    {
      guint n_pauses;
      g_autofree char *kept = pause_input (AKC_FRAMING_NDJSON, TRUE, "1\n\n \t\r\n\r\n2\n", piece, &n_pauses);
      g_autofree char *skipped = pause_input (AKC_FRAMING_NDJSON, FALSE, "1\n\n \t\r\n\r\n2\n", piece, &n_pauses);

      g_assert_cmpstr (kept, ==, "[-|1][-| \t][-|2]");
      g_assert_cmpstr (skipped, ==, "[-|1][-|2]");
    }
}

static void
test_framer_line_bound (void)
{
  /* The bound is the line's length without its line end: 64 bytes pass
   * with LF or CRLF, 65 fail even when no CR follows them. */
  g_autofree char *x64 = g_strnfill (64, 'x');
  g_autofree char *x65 = g_strnfill (65, 'x');
  const char *ends[] = { "\n", "\r\n" };

  for (guint e = 0; e < G_N_ELEMENTS (ends); e++)
    for (gsize piece = 0; piece <= 3; piece++)
      {
        g_autofree char *ok_input = g_strconcat (x64, ends[e], NULL);
        g_autofree char *bad_input = g_strconcat (x65, ends[e], NULL);
        g_autofree char *expected = g_strdup_printf ("[-|%s]", x64);
        g_autoptr(GError) error = NULL;
        AkcFrameResult result;
        g_autofree char *ok = frame_input (AKC_FRAMING_NDJSON, ok_input, strlen (ok_input), piece, 0, &result, &error);
        g_autofree char *bad = NULL;

        g_assert_no_error (error);
        g_assert_cmpstr (ok, ==, expected);
        bad = frame_input (AKC_FRAMING_NDJSON, bad_input, strlen (bad_input), piece, 0, &result, &error);
        g_assert_error (error, AKC_HTTP_STREAM_ERROR, AKC_HTTP_STREAM_ERROR_LINE_TOO_LONG);
        g_assert_cmpint (result, ==, AKC_FRAME_FAILED);
        g_assert_cmpstr (bad, ==, "");
      }
}

static void
test_framer_bounds (void)
{
  g_autofree char *long_line = g_strnfill (65 + 1, 'x');
  g_autofree char *big_event = NULL;
  g_autoptr(GString) many = g_string_new (NULL);

  /* A line over 64 bytes, with or without its newline, whole or a byte at
   * a time: the framer fails without holding more than the bound. */
  for (gsize piece = 0; piece <= 3; piece++)
    {
      g_autoptr(GError) error = NULL;
      AkcFrameResult result;
      g_autofree char *log = frame_input (AKC_FRAMING_NDJSON, long_line, strlen (long_line), piece, 0,
                                          &result, &error);

      g_assert_error (error, AKC_HTTP_STREAM_ERROR, AKC_HTTP_STREAM_ERROR_LINE_TOO_LONG);
      g_assert_cmpint (result, ==, AKC_FRAME_FAILED);
    }

  /* Four lines of 40 bytes: each within the line bound, together over the
   * 128 bytes of an event. */
  big_event = g_strdup_printf ("data: %s\ndata: %s\ndata: %s\ndata: %s\n\n",
                               "0123456789012345678901234567890123456789", "0123456789012345678901234567890123456789",
                               "0123456789012345678901234567890123456789", "0123456789012345678901234567890123456789");
  {
    g_autoptr(GError) error = NULL;
    AkcFrameResult result;
    g_autofree char *log = frame_input (AKC_FRAMING_SSE, big_event, strlen (big_event), 0, 0, &result, &error);

    g_assert_error (error, AKC_HTTP_STREAM_ERROR, AKC_HTTP_STREAM_ERROR_EVENT_TOO_LARGE);
  }

  for (guint i = 0; i < 101; i++)
    g_string_append (many, "{}\n");
  {
    g_autoptr(GError) error = NULL;
    AkcFrameResult result;
    g_autofree char *log = frame_input (AKC_FRAMING_NDJSON, many->str, many->len, 7, 0, &result, &error);

    g_assert_error (error, AKC_HTTP_STREAM_ERROR, AKC_HTTP_STREAM_ERROR_TOO_MANY_FRAMES);
  }
}

/* ------------------------------------------------------------------ */
/* The decoders                                                        */
/* ------------------------------------------------------------------ */

typedef struct
{
  GString *text;
  GString *rest;
} Chunks;

static void
collect (AkcChunk *chunk,
         gpointer  user_data)
{
  Chunks *chunks = user_data;
  AkcUsage usage;
  AkcJsonValue *metadata;
  gsize length;
  const char *text;

  switch (akc_chunk_get_kind (chunk))
    {
    case AKC_CHUNK_TEXT:
      text = akc_chunk_get_text (chunk, &length);
      g_assert_true (g_utf8_validate_len (text, length, NULL));
      g_assert_cmpuint (length, >, 0);
      g_string_append_len (chunks->text, text, length);
      break;
    case AKC_CHUNK_TOOL_CALL:
      g_assert_true (g_utf8_validate (akc_chunk_get_arguments (chunk), -1, NULL));
      {
        const char *id = akc_chunk_get_tool_call_id (chunk);
        g_autofree char *shown = NULL;

        /* A made-up id (a call that had none) is random per turn: shown
         * as call_*_N, after checking its form. */
        if (g_regex_match_simple ("^call_[0-9a-f]{8}_[0-9]+$", id, 0, 0))
          shown = g_strconcat ("call_*_", strrchr (id, '_') + 1, NULL);
        g_string_append_printf (chunks->rest, "|tool:%s:%s:%s", shown != NULL ? shown : id,
                                akc_chunk_get_tool_name (chunk), akc_chunk_get_arguments (chunk));
      }
      break;
    case AKC_CHUNK_METADATA:
      g_assert_true (akc_chunk_get_usage (chunk, &usage));
      g_string_append_printf (chunks->rest, "|usage:%" G_GUINT64_FORMAT ",%" G_GUINT64_FORMAT ",%" G_GUINT64_FORMAT,
                              usage.prompt_tokens, usage.completion_tokens, usage.total_tokens);
      break;
    case AKC_CHUNK_DONE:
      metadata = akc_chunk_get_metadata (chunk);
      g_string_append_printf (chunks->rest, "|done:%s",
                              metadata != NULL
                                ? akc_json_value_get_string (akc_json_value_get_member (metadata, "finishReason"), NULL)
                                : "-");
      break;
    case AKC_CHUNK_ERROR:
    default:
      g_assert_not_reached ();
    }
}

typedef struct
{
  AkcProviderDecoder *decoder;
} Feed;

static AkcFrameResult
decode_frame (const AkcFrame  *frame,
              gpointer         user_data,
              GError         **error)
{
  return akc_provider_decoder_frame (user_data, frame, error);
}

/* Decodes @input split into @piece bytes; returns the description of the
 * chunks, or NULL with @error. */
static char *
decode (AkcProviderKind   kind,
        const char       *input,
        gsize             length,
        gsize             piece,
        GError          **error)
{
  Chunks chunks = { g_string_new (NULL), g_string_new (NULL) };
  g_autoptr(AkcProviderDecoder) decoder = akc_provider_decoder_new (kind, collect, &chunks);
  g_autoptr(AkcLineFramer) framer = akc_line_framer_new (akc_provider_decoder_framing (kind), decode_frame, decoder);
  AkcFrameResult r = AKC_FRAME_CONTINUE;
  gsize pos = 0;
  g_autofree char *text = NULL;
  g_autofree char *rest = NULL;

  while (pos < length && r == AKC_FRAME_CONTINUE)
    {
      gsize n = piece == 0 ? length : MIN (piece, length - pos);

      r = akc_line_framer_feed (framer, (const guint8 *) input + pos, n, error);
      pos += n;
    }
  if (r == AKC_FRAME_CONTINUE)
    r = akc_line_framer_finish (framer, error);

  text = g_string_free (chunks.text, FALSE);
  rest = g_string_free (chunks.rest, FALSE);
  if (r == AKC_FRAME_FAILED)
    return NULL;
  if (r == AKC_FRAME_CONTINUE)
    {
      g_assert_false (akc_provider_decoder_ended (decoder));
      return g_strdup_printf ("%s%s|not-ended", text, rest);
    }
  g_assert_true (akc_provider_decoder_ended (decoder));
  return g_strdup_printf ("%s%s", text, rest);
}

static void
check_decoding (AkcProviderKind  kind,
                const char      *input,
                const char      *expected)
{
  gsize length = strlen (input);

  for (gsize piece = 0; piece <= length; piece += (length > 600 ? 7 : 1))
    {
      g_autoptr(GError) error = NULL;
      g_autofree char *result = decode (kind, input, length, piece, &error);

      g_assert_no_error (error);
      g_assert_cmpstr (result, ==, expected);
    }
}

static void
check_failure (AkcProviderKind  kind,
               const char      *input,
               int              code,
               const char      *message_part)
{
  gsize length = strlen (input);

  for (gsize piece = 0; piece <= length; piece += (length > 600 ? 11 : 1))
    {
      g_autoptr(GError) error = NULL;
      g_autofree char *result = decode (kind, input, length, piece, &error);

      g_assert_null (result);
      g_assert_error (error, AKC_PROVIDER_ERROR, code);
      if (message_part != NULL)
        g_assert_nonnull (strstr (error->message, message_part));
    }
}

static void
test_openai_text (void)
{
  /* As OpenAI documents it, with the quirks of the servers that speak it:
   * keep-alive comments, CRLF, the role-only first delta, `usage: null`
   * on every chunk, the usage chunk with empty choices, [DONE]. */
  check_decoding (AKC_PROVIDER_KIND_OPENAI,
                  ": keep-alive\r\n\r\n"
                  "data: {\"id\":\"c1\",\"object\":\"chat.completion.chunk\",\"choices\":[{\"index\":0,\"delta\":{\"role\":\"assistant\",\"content\":\"\"},\"finish_reason\":null}],\"usage\":null}\r\n\r\n"
                  "data: {\"choices\":[{\"index\":0,\"delta\":{\"content\":\"Hel\"},\"finish_reason\":null}]}\r\n\r\n"
                  ": OPENROUTER PROCESSING\r\n\r\n"
                  "data: {\"choices\":[{\"index\":0,\"delta\":{\"content\":\"lo \\u00e9\"},\"finish_reason\":null}]}\r\n\r\n"
                  "data: {\"choices\":[{\"index\":0,\"delta\":{},\"finish_reason\":\"stop\"}]}\r\n\r\n"
                  "data: {\"choices\":[],\"usage\":{\"prompt_tokens\":9,\"completion_tokens\":3,\"total_tokens\":12}}\r\n\r\n"
                  "data: [DONE]\r\n\r\n",
                  "Hello é|usage:9,3,12|done:stop");

  /* Without [DONE] after a finish_reason (some servers): complete. */
  check_decoding (AKC_PROVIDER_KIND_OPENAI,
                  "data: {\"choices\":[{\"index\":0,\"delta\":{\"content\":\"x\"},\"finish_reason\":\"length\"}]}",
                  "x|done:length");

  /* Ended before its end: not ended (the adapter says cut off). */
  check_decoding (AKC_PROVIDER_KIND_OPENAI,
                  "data: {\"choices\":[{\"index\":0,\"delta\":{\"content\":\"x\"}}]}\n\n",
                  "x|not-ended");
}

static void
test_openai_tool_calls (void)
{
  /* Two calls, assembled by index across chunks; the arguments of the
   * first split inside "é" (raw bytes C3 | A9 in two events) and inside
   * an escape of the arguments text. */
  check_decoding (AKC_PROVIDER_KIND_OPENAI,
                  "data: {\"choices\":[{\"index\":0,\"delta\":{\"role\":\"assistant\",\"content\":null,\"tool_calls\":[{\"index\":0,\"id\":\"call_A1\",\"type\":\"function\",\"function\":{\"name\":\"get_weather\",\"arguments\":\"\"}}]}}]}\n\n"
                  "data: {\"choices\":[{\"index\":0,\"delta\":{\"tool_calls\":[{\"index\":0,\"function\":{\"arguments\":\"{\\\"city\\\": \\\"Z\xc3\"}}]}}]}\n\n"
                  "data: {\"choices\":[{\"index\":0,\"delta\":{\"tool_calls\":[{\"index\":0,\"function\":{\"arguments\":\"\xa9rich \\\\u00\"}}]}}]}\n\n"
                  "data: {\"choices\":[{\"index\":0,\"delta\":{\"tool_calls\":[{\"index\":1,\"id\":\"call_B2\",\"function\":{\"name\":\"get_time\",\"arguments\":\"{}\"}}]}}]}\n\n"
                  "data: {\"choices\":[{\"index\":0,\"delta\":{\"tool_calls\":[{\"index\":0,\"function\":{\"arguments\":\"e9\\\"}\"}}]}}]}\n\n"
                  "data: {\"choices\":[{\"index\":0,\"delta\":{},\"finish_reason\":\"tool_calls\"}]}\n\n"
                  "data: [DONE]\n\n",
                  "|tool:call_A1:get_weather:{\"city\": \"Zérich \\u00e9\"}|tool:call_B2:get_time:{}|done:tool_calls");

  /* Text whose "é" is split between two events. */
  check_decoding (AKC_PROVIDER_KIND_OPENAI,
                  "data: {\"choices\":[{\"delta\":{\"content\":\"caf\xc3\"}}]}\n\n"
                  "data: {\"choices\":[{\"delta\":{\"content\":\"\xa9!\"},\"finish_reason\":\"stop\"}]}\n\n"
                  "data: [DONE]\n\n",
                  "café!|done:stop");
}

static void
test_openai_errors (void)
{
  check_failure (AKC_PROVIDER_KIND_OPENAI,
                 "data: {\"choices\":[{\"delta\":{\"content\":\"x\"}}]}\n\n"
                 "data: {\"error\":{\"message\":\"The server had an error\",\"type\":\"server_error\",\"code\":null}}\n\n",
                 AKC_PROVIDER_ERROR_STREAM, "The server had an error");
  /* vLLM's form. */
  check_failure (AKC_PROVIDER_KIND_OPENAI,
                 "data: {\"object\":\"error\",\"message\":\"bad \\u001b[2J thing\",\"type\":\"BadRequestError\",\"code\":400}\n\n",
                 AKC_PROVIDER_ERROR_STREAM, "bad [2J thing");
  check_failure (AKC_PROVIDER_KIND_OPENAI, "data: not json\n\n", AKC_PROVIDER_ERROR_INVALID_RESPONSE, NULL);
  check_failure (AKC_PROVIDER_KIND_OPENAI, "data: {\"choices\":[{\"delta\":{\"content\":\"x", AKC_PROVIDER_ERROR_CUT_OFF, NULL);
}

static void
test_openai_bounds (void)
{
  g_autoptr(GString) input = g_string_new (NULL);
  g_autoptr(GString) deep = g_string_new ("data: ");

  for (guint i = 0; i < 65; i++)
    g_string_append_printf (input, "data: {\"choices\":[{\"delta\":{\"tool_calls\":[{\"index\":%u,\"id\":\"c%u\",\"function\":{\"name\":\"f\"}}]}}]}\n\n", i, i);
  check_failure (AKC_PROVIDER_KIND_OPENAI, input->str, AKC_PROVIDER_ERROR_TOO_LARGE, NULL);

  for (guint i = 0; i < 100; i++)
    g_string_append_c (deep, '[');
  g_string_append (deep, "\n\n");
  check_failure (AKC_PROVIDER_KIND_OPENAI, deep->str, AKC_PROVIDER_ERROR_INVALID_RESPONSE, NULL);
}

static void
test_ollama (void)
{
  check_decoding (AKC_PROVIDER_KIND_OLLAMA,
                  "{\"model\":\"llama3.2\",\"created_at\":\"2025-01-01T00:00:00Z\",\"message\":{\"role\":\"assistant\",\"content\":\"Hi\"},\"done\":false}\n"
                  "{\"model\":\"llama3.2\",\"message\":{\"role\":\"assistant\",\"content\":\" there\"},\"done\":false}\n"
                  "{\"model\":\"llama3.2\",\"message\":{\"role\":\"assistant\",\"content\":\"\"},\"done\":true,\"done_reason\":\"stop\",\"total_duration\":1,\"prompt_eval_count\":26,\"eval_count\":5}\n",
                  "Hi there|usage:26,5,31|done:stop");

  check_decoding (AKC_PROVIDER_KIND_OLLAMA,
                  "{\"message\":{\"role\":\"assistant\",\"content\":\"\",\"tool_calls\":[{\"function\":{\"name\":\"get_weather\",\"arguments\":{\"city\":\"Paris\"}}}]},\"done\":false}\n"
                  "{\"message\":{\"role\":\"assistant\",\"content\":\"\"},\"done\":true,\"done_reason\":\"stop\",\"prompt_eval_count\":1,\"eval_count\":2}",
                  "|tool:call_*_1:get_weather:{\"city\":\"Paris\"}|usage:1,2,3|done:tool_calls");

  check_failure (AKC_PROVIDER_KIND_OLLAMA,
                 "{\"message\":{\"content\":\"a\"},\"done\":false}\n{\"error\":\"an error was encountered while running the model\"}\n",
                 AKC_PROVIDER_ERROR_STREAM, "while running the model");
  check_decoding (AKC_PROVIDER_KIND_OLLAMA, "{\"message\":{\"content\":\"a\"},\"done\":false}\n", "a|not-ended");
}

static void
test_anthropic (void)
{
  check_decoding (AKC_PROVIDER_KIND_ANTHROPIC,
                  "event: message_start\n"
                  "data: {\"type\":\"message_start\",\"message\":{\"id\":\"msg_1\",\"type\":\"message\",\"role\":\"assistant\",\"content\":[],\"model\":\"claude-x\",\"stop_reason\":null,\"usage\":{\"input_tokens\":25,\"cache_read_input_tokens\":5,\"output_tokens\":1}}}\n\n"
                  "event: content_block_start\n"
                  "data: {\"type\":\"content_block_start\",\"index\":0,\"content_block\":{\"type\":\"text\",\"text\":\"\"}}\n\n"
                  "event: ping\n"
                  "data: {\"type\": \"ping\"}\n\n"
                  "event: content_block_delta\n"
                  "data: {\"type\":\"content_block_delta\",\"index\":0,\"delta\":{\"type\":\"text_delta\",\"text\":\"Let me \"}}\n\n"
                  "event: content_block_delta\n"
                  "data: {\"type\":\"content_block_delta\",\"index\":0,\"delta\":{\"type\":\"text_delta\",\"text\":\"check.\"}}\n\n"
                  "event: content_block_stop\n"
                  "data: {\"type\":\"content_block_stop\",\"index\":0}\n\n"
                  "event: content_block_start\n"
                  "data: {\"type\":\"content_block_start\",\"index\":1,\"content_block\":{\"type\":\"tool_use\",\"id\":\"toolu_01\",\"name\":\"get_weather\",\"input\":{}}}\n\n"
                  "event: content_block_delta\n"
                  "data: {\"type\":\"content_block_delta\",\"index\":1,\"delta\":{\"type\":\"input_json_delta\",\"partial_json\":\"\"}}\n\n"
                  "event: content_block_delta\n"
                  "data: {\"type\":\"content_block_delta\",\"index\":1,\"delta\":{\"type\":\"input_json_delta\",\"partial_json\":\"{\\\"location\\\": \\\"San Fra\"}}\n\n"
                  "event: content_block_delta\n"
                  "data: {\"type\":\"content_block_delta\",\"index\":1,\"delta\":{\"type\":\"input_json_delta\",\"partial_json\":\"ncisco\\\"}\"}}\n\n"
                  "event: content_block_stop\n"
                  "data: {\"type\":\"content_block_stop\",\"index\":1}\n\n"
                  "event: some_future_event\n"
                  "data: {\"type\":\"some_future_event\"}\n\n"
                  "event: message_delta\n"
                  "data: {\"type\":\"message_delta\",\"delta\":{\"stop_reason\":\"tool_use\",\"stop_sequence\":null},\"usage\":{\"output_tokens\":89}}\n\n"
                  "event: message_stop\n"
                  "data: {\"type\":\"message_stop\"}\n\n",
                  "Let me check.|tool:toolu_01:get_weather:{\"location\": \"San Francisco\"}|usage:30,89,119|done:tool_calls");

  /* A tool call without input deltas keeps its input. */
  check_decoding (AKC_PROVIDER_KIND_ANTHROPIC,
                  "event: content_block_start\ndata: {\"type\":\"content_block_start\",\"index\":0,\"content_block\":{\"type\":\"tool_use\",\"id\":\"toolu_2\",\"name\":\"now\",\"input\":{}}}\n\n"
                  "event: message_delta\ndata: {\"type\":\"message_delta\",\"delta\":{\"stop_reason\":\"max_tokens\"},\"usage\":{\"output_tokens\":3}}\n\n"
                  "event: message_stop\ndata: {\"type\":\"message_stop\"}\n\n",
                  "|tool:toolu_2:now:{}|usage:0,3,3|done:length");

  check_failure (AKC_PROVIDER_KIND_ANTHROPIC,
                 "event: error\ndata: {\"type\":\"error\",\"error\":{\"type\":\"overloaded_error\",\"message\":\"Overloaded\"}}\n\n",
                 AKC_PROVIDER_ERROR_SERVER, "Overloaded");
  check_failure (AKC_PROVIDER_KIND_ANTHROPIC,
                 "event: content_block_delta\ndata: {\"type\":\"content_block_delta\",\"index\":3,\"delta\":{\"type\":\"input_json_delta\",\"partial_json\":\"{\"}}\n\n",
                 AKC_PROVIDER_ERROR_INVALID_RESPONSE, NULL);
}

/* ------------------------------------------------------------------ */
/* Error answers and model lists                                       */
/* ------------------------------------------------------------------ */

static void
check_http_error (AkcProviderKind  kind,
                  guint            status,
                  const char      *retry_after,
                  const char      *body,
                  int              code,
                  const char      *part,
                  gint64           expected_retry)
{
  gint64 retry;
  g_autoptr(GError) error = akc_provider_http_error (kind, status, "my-model", "http://127.0.0.1:1",
                                                     retry_after, (const guint8 *) body,
                                                     body != NULL ? strlen (body) : 0, &retry);

  g_assert_error (error, AKC_PROVIDER_ERROR, code);
  if (part != NULL)
    g_assert_nonnull (strstr (error->message, part));
  g_assert_cmpint (retry, ==, expected_retry);
  g_assert_true (g_utf8_validate (error->message, -1, NULL));
  g_assert_null (strchr (error->message, '\x1b'));
}

static void
test_http_errors (void)
{
  check_http_error (AKC_PROVIDER_KIND_OPENAI, 401, NULL,
                    "{\"error\":{\"message\":\"Incorrect API key provided\",\"type\":\"invalid_request_error\",\"code\":\"invalid_api_key\"}}",
                    AKC_PROVIDER_ERROR_UNAUTHORIZED, "Incorrect API key provided", -1);
  check_http_error (AKC_PROVIDER_KIND_ANTHROPIC, 403, NULL,
                    "{\"type\":\"error\",\"error\":{\"type\":\"permission_error\",\"message\":\"no\"}}",
                    AKC_PROVIDER_ERROR_FORBIDDEN, "403", -1);
  check_http_error (AKC_PROVIDER_KIND_OPENAI, 404, NULL,
                    "{\"error\":{\"message\":\"The model `my-model` does not exist\",\"type\":\"invalid_request_error\",\"code\":\"model_not_found\"}}",
                    AKC_PROVIDER_ERROR_MODEL_NOT_FOUND, "“my-model”", -1);
  check_http_error (AKC_PROVIDER_KIND_OLLAMA, 404, NULL, "{\"error\":\"model 'my-model' not found\"}",
                    AKC_PROVIDER_ERROR_MODEL_NOT_FOUND, "ollama pull my-model", -1);
  check_http_error (AKC_PROVIDER_KIND_OPENAI, 404, NULL, "404 page not found",
                    AKC_PROVIDER_ERROR_NOT_FOUND, "/v1", -1);
  check_http_error (AKC_PROVIDER_KIND_OPENAI, 429, "17",
                    "{\"error\":{\"message\":\"Rate limit reached\",\"type\":\"requests\"}}",
                    AKC_PROVIDER_ERROR_RATE_LIMITED, "17 seconds", 17);
  check_http_error (AKC_PROVIDER_KIND_OPENAI, 429, "Thu, 01 Jan 1970 00:00:00 GMT", NULL,
                    AKC_PROVIDER_ERROR_RATE_LIMITED, "0 seconds", 0);
  check_http_error (AKC_PROVIDER_KIND_OPENAI, 429, "soon", NULL,
                    AKC_PROVIDER_ERROR_RATE_LIMITED, "later", -1);
  check_http_error (AKC_PROVIDER_KIND_OPENAI, 400, NULL,
                    "{\"error\":{\"message\":\"This model's maximum context length is 8192 tokens.\",\"code\":\"context_length_exceeded\"}}",
                    AKC_PROVIDER_ERROR_CONTEXT_LENGTH, "too long", -1);
  check_http_error (AKC_PROVIDER_KIND_OPENAI, 400, NULL,
                    "{\"error\":{\"code\":400,\"message\":\"the request exceeds the available context size, try increasing it\",\"type\":\"exceed_context_size_error\"}}",
                    AKC_PROVIDER_ERROR_CONTEXT_LENGTH, NULL, -1);
  check_http_error (AKC_PROVIDER_KIND_ANTHROPIC, 400, NULL,
                    "{\"type\":\"error\",\"error\":{\"type\":\"invalid_request_error\",\"message\":\"prompt is too long: 210000 tokens > 200000 maximum\"}}",
                    AKC_PROVIDER_ERROR_CONTEXT_LENGTH, NULL, -1);
  check_http_error (AKC_PROVIDER_KIND_ANTHROPIC, 529, NULL,
                    "{\"type\":\"error\",\"error\":{\"type\":\"overloaded_error\",\"message\":\"Overloaded\"}}",
                    AKC_PROVIDER_ERROR_SERVER, "529", -1);
  check_http_error (AKC_PROVIDER_KIND_OPENAI, 400, NULL, "{\"error\":{\"message\":\"evil \\u001b]0;title\\u0007 \\u202e text\"}}",
                    AKC_PROVIDER_ERROR_REFUSED, "evil ]0;title text", -1);
  check_http_error (AKC_PROVIDER_KIND_OPENAI, 418, NULL, "<html><body>teapot</body></html>",
                    AKC_PROVIDER_ERROR_REFUSED, "(418).", -1);
}

static void
test_models (void)
{
  g_auto(GStrv) openai = NULL;
  g_auto(GStrv) ollama = NULL;
  g_autoptr(GError) error = NULL;
  const char *openai_body = "{\"object\":\"list\",\"data\":[{\"id\":\"gpt-b\",\"object\":\"model\"},{\"id\":\"gpt-a\"},{\"id\":\"gpt-a\"},{\"nope\":1}]}";
  const char *ollama_body = "{\"models\":[{\"name\":\"llama3.2:latest\",\"model\":\"llama3.2:latest\",\"size\":1},{\"model\":\"qwen3:8b\"}]}";

  openai = akc_provider_parse_models (AKC_PROVIDER_KIND_OPENAI, (const guint8 *) openai_body, strlen (openai_body), &error);
  g_assert_no_error (error);
  g_assert_cmpuint (g_strv_length (openai), ==, 2);
  g_assert_cmpstr (openai[0], ==, "gpt-a");
  g_assert_cmpstr (openai[1], ==, "gpt-b");

  ollama = akc_provider_parse_models (AKC_PROVIDER_KIND_OLLAMA, (const guint8 *) ollama_body, strlen (ollama_body), &error);
  g_assert_no_error (error);
  g_assert_cmpuint (g_strv_length (ollama), ==, 2);
  g_assert_cmpstr (ollama[0], ==, "llama3.2:latest");

  g_assert_null (akc_provider_parse_models (AKC_PROVIDER_KIND_ANTHROPIC, (const guint8 *) "[]", 2, &error));
  g_assert_error (error, AKC_PROVIDER_ERROR, AKC_PROVIDER_ERROR_INVALID_RESPONSE);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/provider/framer/sse", test_framer_sse);
  g_test_add_func ("/provider/framer/ndjson", test_framer_ndjson);
  g_test_add_func ("/provider/framer/end", test_framer_end);
  g_test_add_func ("/provider/framer/bounds", test_framer_bounds);
  g_test_add_func ("/provider/framer/pause", test_framer_pause);
  g_test_add_func ("/provider/framer/keep-blank", test_framer_keep_blank);
  g_test_add_func ("/provider/framer/line-bound", test_framer_line_bound);
  g_test_add_func ("/provider/openai/text", test_openai_text);
  g_test_add_func ("/provider/openai/tool-calls", test_openai_tool_calls);
  g_test_add_func ("/provider/openai/errors", test_openai_errors);
  g_test_add_func ("/provider/openai/bounds", test_openai_bounds);
  g_test_add_func ("/provider/ollama", test_ollama);
  g_test_add_func ("/provider/anthropic", test_anthropic);
  g_test_add_func ("/provider/http-errors", test_http_errors);
  g_test_add_func ("/provider/models", test_models);

  return g_test_run ();
}
