/* akc-provider-decoder.c: the streams of the provider adapters, decoded
 * into chunks
 *
 * SPDX-License-Identifier: MIT
 *
 * - OpenAI-compatible Chat Completions: SSE `data:` lines of
 *   `chat.completion.chunk` objects, then `data: [DONE]`. Text is
 *   `choices[].delta.content`; tool calls come as `delta.tool_calls[]`
 *   fragments assembled by `index` (id and name once, `function.arguments`
 *   split anywhere); `finish_reason`; a last chunk with empty `choices` and
 *   `usage` (stream_options.include_usage). An `{"error":{…}}` object (or
 *   vLLM's `{"object":"error",…}`) in the stream ends the turn with its
 *   message. A stream that ends after a finish_reason but without [DONE]
 *   (some servers omit it) is complete; one that ends before is cut off.
 * - Ollama: NDJSON objects with `message.content` and complete
 *   `message.tool_calls`, ending with `done: true`, `done_reason`,
 *   `prompt_eval_count` and `eval_count`; `{"error": "…"}` mid-stream.
 * - Anthropic Messages: SSE events `message_start`, `content_block_start`
 *   / `_delta` (`text_delta`, `input_json_delta`) / `_stop`,
 *   `message_delta` (stop_reason, usage), `message_stop`, `ping` and
 *   `error`; unknown events are skipped, as the API asks.
 *
 * Text and argument fragments may split a UTF-8 sequence between two
 * events. A strict JSON parser would replace each half with U+FFFD, so an
 * event that is not valid UTF-8 is parsed with every stray byte b carried
 * as the private-use character U+10FF00+b, and the bytes are put back
 * when its strings are taken out (the one cost: a real U+10FF80…U+10FFFF
 * in such an event becomes a byte again, then U+FFFD). Text is emitted up
 * to the last complete character; arguments are made valid when the call
 * is complete.
 */

#include "config.h"

#include <string.h>

#include <glib/gi18n-lib.h>

#include "akc-chat-source.h"
#include "akc-provider-codec-private.h"
#include "akc-text-private.h"

typedef struct
{
  gint64    index;
  char     *id;
  GString  *name;
  GString  *arguments;
  gboolean  has_fragments;  /* arguments came as fragments, not as an object */
} Call;

struct _AkcProviderDecoder
{
  AkcProviderKind  kind;
  AkcProviderEmit  emit;
  gpointer         emit_data;

  GString         *carry;         /* the bytes of an unfinished character */
  gsize            text_bytes;
  GPtrArray       *calls;         /* Call, in the order they started */
  guint            n_generated;   /* ids made for calls that had none */
  char            *id_prefix;     /* this turn's, for those ids: random */
  char            *finish_reason; /* normalised */
  guint64          prompt_tokens;
  guint64          completion_tokens;
  guint64          total_tokens;
  gboolean         has_usage;
  gboolean         ended;
  gboolean         failed;
  gboolean         mapped;        /* the current frame carries stray bytes */
};

static void
set_str (char       **field,
         const char  *value)
{
  char *copy = g_strdup (value);

  g_free (*field);
  *field = copy;
}

static void
call_free (Call *call)
{
  g_free (call->id);
  g_string_free (call->name, TRUE);
  g_string_free (call->arguments, TRUE);
  g_free (call);
}

AkcProviderDecoder *
akc_provider_decoder_new (AkcProviderKind kind,
                          AkcProviderEmit emit,
                          gpointer        user_data)
{
  AkcProviderDecoder *self = g_new0 (AkcProviderDecoder, 1);

  self->kind = kind;
  self->emit = emit;
  self->emit_data = user_data;
  self->carry = g_string_new (NULL);
  self->calls = g_ptr_array_new_with_free_func ((GDestroyNotify) call_free);

  return self;
}

void
akc_provider_decoder_free (AkcProviderDecoder *self)
{
  if (self == NULL)
    return;

  g_string_free (self->carry, TRUE);
  g_ptr_array_unref (self->calls);
  g_free (self->finish_reason);
  g_free (self->id_prefix);
  g_free (self);
}

AkcFraming
akc_provider_decoder_framing (AkcProviderKind kind)
{
  return kind == AKC_PROVIDER_KIND_OLLAMA ? AKC_FRAMING_NDJSON : AKC_FRAMING_SSE;
}

gboolean
akc_provider_decoder_ended (AkcProviderDecoder *self)
{
  return self->ended;
}

gsize
akc_provider_decoder_retained (AkcProviderDecoder *self)
{
  gsize total = self->carry->len;

  for (guint i = 0; i < self->calls->len; i++)
    {
      Call *call = g_ptr_array_index (self->calls, i);

      total += call->name->len + call->arguments->len;
    }

  return total;
}

static AkcFrameResult
fail (AkcProviderDecoder  *self,
      GError             **error,
      AkcProviderError     code,
      const char          *format,
      ...) G_GNUC_PRINTF (4, 5);

static AkcFrameResult
fail (AkcProviderDecoder  *self,
      GError             **error,
      AkcProviderError     code,
      const char          *format,
      ...)
{
  va_list args;

  self->failed = TRUE;
  va_start (args, format);
  g_propagate_error (error, g_error_new_valist (AKC_PROVIDER_ERROR, code, format, args));
  va_end (args);

  return AKC_FRAME_FAILED;
}

/* ------------------------------------------------------------------ */
/* Stray bytes                                                         */
/* ------------------------------------------------------------------ */

/* @data with every byte that is not part of a valid UTF-8 sequence
 * replaced by U+10FF00+byte (F4 8F BE|BF xx). */
static char *
map_stray_bytes (const char *data,
                 gsize       length,
                 gsize      *out_length)
{
  GString *out = g_string_sized_new (length + 16);
  gsize pos = 0;

  while (pos < length)
    {
      gsize valid = akc_utf8_valid_prefix (data + pos, length - pos);

      g_string_append_len (out, data + pos, valid);
      pos += valid;
      if (pos < length)
        {
          guint8 b = (guint8) data[pos++];

          g_string_append_c (out, (char) 0xf4);
          g_string_append_c (out, (char) 0x8f);
          g_string_append_c (out, (char) (0xbc | (b >> 6)));
          g_string_append_c (out, (char) (0x80 | (b & 0x3f)));
        }
    }

  *out_length = out->len;
  return g_string_free (out, FALSE);
}

/* Appends @length bytes of a string taken from the current frame to @out,
 * with stray bytes put back. */
static void
append_taken (AkcProviderDecoder *self,
              GString            *out,
              const char         *text,
              gsize               length)
{
  if (!self->mapped)
    {
      g_string_append_len (out, text, length);
      return;
    }

  for (gsize i = 0; i < length; i++)
    {
      const guint8 *p = (const guint8 *) text + i;

      if (p[0] == 0xf4 && i + 3 < length && p[1] == 0x8f && (p[2] & 0xfc) == 0xbc &&
          (p[3] & 0xc0) == 0x80)
        {
          guint8 b = (guint8) (((p[2] & 0x03) << 6) | (p[3] & 0x3f));

          if (b >= 0x80)
            {
              g_string_append_c (out, (char) b);
              i += 3;
              continue;
            }
        }
      g_string_append_c (out, (char) p[0]);
    }
}

/* How many bytes at the end of @s may start a character not yet complete. */
static gsize
unfinished_tail (const char *s,
                 gsize       length)
{
  for (gsize back = 1; back <= 3 && back <= length; back++)
    {
      guint8 c = (guint8) s[length - back];
      gsize need;

      if ((c & 0xc0) == 0x80)
        continue;
      if ((c & 0xe0) == 0xc0)
        need = 2;
      else if ((c & 0xf0) == 0xe0)
        need = 3;
      else if ((c & 0xf8) == 0xf0)
        need = 4;
      else
        return 0;

      return need > back ? back : 0;
    }

  return 0;
}

static AkcFrameResult
emit_text (AkcProviderDecoder  *self,
           const char          *text,
           gsize                length,
           GError             **error)
{
  g_autoptr(AkcChunk) chunk = NULL;
  g_autofree char *clean = NULL;
  gsize tail, ready, clean_length;

  if (length == 0)
    return AKC_FRAME_CONTINUE;

  self->text_bytes += length;
  if (self->text_bytes > AKC_PROVIDER_MAX_REPLY_BYTES)
    return fail (self, error, AKC_PROVIDER_ERROR_TOO_LARGE,
                 _("The reply is longer than %d MiB."), AKC_PROVIDER_MAX_REPLY_BYTES / (1024 * 1024));

  append_taken (self, self->carry, text, length);
  tail = unfinished_tail (self->carry->str, self->carry->len);
  ready = self->carry->len - tail;
  if (ready == 0)
    return AKC_FRAME_CONTINUE;

  clean = akc_utf8_sanitize (self->carry->str, ready, &clean_length);
  chunk = akc_chunk_new_text (clean != NULL ? clean : self->carry->str,
                              clean != NULL ? (gssize) clean_length : (gssize) ready);
  g_string_erase (self->carry, 0, ready);
  self->emit (chunk, self->emit_data);

  return AKC_FRAME_CONTINUE;
}

static void
flush_text (AkcProviderDecoder *self)
{
  g_autoptr(AkcChunk) chunk = NULL;
  g_autofree char *clean = NULL;
  gsize clean_length;

  if (self->carry->len == 0)
    return;

  clean = akc_utf8_sanitize (self->carry->str, self->carry->len, &clean_length);
  chunk = akc_chunk_new_text (clean != NULL ? clean : self->carry->str,
                              clean != NULL ? (gssize) clean_length : (gssize) self->carry->len);
  g_string_truncate (self->carry, 0);
  self->emit (chunk, self->emit_data);
}

/* ------------------------------------------------------------------ */
/* JSON helpers                                                        */
/* ------------------------------------------------------------------ */

static AkcJsonValue *
member (AkcJsonValue *object,
        const char   *name)
{
  if (!AKC_JSON_IS_OBJECT (object))
    return NULL;
  return akc_json_value_get_member (object, name);
}

static const char *
string_member (AkcJsonValue *object,
               const char   *name,
               gsize        *length)
{
  AkcJsonValue *value = member (object, name);

  if (!AKC_JSON_IS_STRING (value))
    return NULL;
  return akc_json_value_get_string (value, length);
}

static gboolean
count_member (AkcJsonValue *object,
              const char   *name,
              guint64      *out)
{
  AkcJsonValue *value = member (object, name);
  double number;

  if (!AKC_JSON_IS_NUMBER (value))
    return FALSE;
  number = akc_json_value_get_number (value);
  if (!(number >= 0 && number < 1e15))
    return FALSE;
  *out = (guint64) number;
  return TRUE;
}

static AkcFrameResult
parse_frame (AkcProviderDecoder  *self,
             const AkcFrame      *frame,
             AkcJsonValue       **out,
             GError             **error)
{
  g_autofree char *mapped = NULL;
  const char *data = frame->data;
  gsize length = frame->length;
  AkcJsonLimits limits = { 0, 64 };
  AkcJsonParseStatus status;

  self->mapped = akc_utf8_valid_prefix (data, length) != length;
  if (self->mapped)
    {
      mapped = map_stray_bytes (data, length, &length);
      data = mapped;
    }

  *out = akc_json_parse (data, length, &limits, &status, NULL);
  if (*out == NULL || !AKC_JSON_IS_OBJECT (*out))
    {
      g_clear_pointer (out, akc_json_value_unref);
      if (frame->unterminated)
        return fail (self, error, AKC_PROVIDER_ERROR_CUT_OFF, "%s",
                     _("The reply was cut off in the middle of an event."));
      return fail (self, error, AKC_PROVIDER_ERROR_INVALID_RESPONSE, "%s",
                   status == AKC_JSON_PARSE_TOO_DEEP
                     ? _("The provider sent an event nested too deeply.")
                     : _("The provider sent an event that is not a JSON object."));
    }

  return AKC_FRAME_CONTINUE;
}

/* An error object in the stream: {"error":{"message","type","code"}},
 * {"error":"…"}, or vLLM's {"object":"error","message":…}. */
static AkcFrameResult
stream_error (AkcProviderDecoder  *self,
              AkcJsonValue        *error_value,
              AkcJsonValue        *event,
              GError             **error)
{
  g_autofree char *message = NULL;
  const char *text = NULL;
  const char *kind = NULL;
  gsize length = 0, kind_length = 0;

  if (AKC_JSON_IS_STRING (error_value))
    text = akc_json_value_get_string (error_value, &length);
  else if (AKC_JSON_IS_OBJECT (error_value))
    {
      text = string_member (error_value, "message", &length);
      kind = string_member (error_value, "type", &kind_length);
      if (kind == NULL)
        kind = string_member (error_value, "code", &kind_length);
    }
  else
    text = string_member (event, "message", &length);

  message = text != NULL ? akc_provider_clean_text (text, length) : NULL;
  if (message == NULL || message[0] == '\0')
    return fail (self, error, AKC_PROVIDER_ERROR_STREAM, "%s",
                 _("The provider reported an error in the middle of the reply."));

  if (kind != NULL)
    {
      g_autofree char *clean_kind = akc_provider_clean_text (kind, kind_length);

      if (strstr (clean_kind, "overloaded") != NULL)
        /* Translators: %s is what the provider said */
        return fail (self, error, AKC_PROVIDER_ERROR_SERVER,
                     _("The provider is overloaded. Try again later. The server said: %s"), message);
      /* Translators: the first %s is what the provider said, the second its error type */
      return fail (self, error, AKC_PROVIDER_ERROR_STREAM,
                   _("The provider reported an error: %s (%s)"), message, clean_kind);
    }

  /* Translators: %s is what the provider said */
  return fail (self, error, AKC_PROVIDER_ERROR_STREAM, _("The provider reported an error: %s"), message);
}

/* ------------------------------------------------------------------ */
/* Tool calls                                                          */
/* ------------------------------------------------------------------ */

static Call *
find_call (AkcProviderDecoder *self,
           gint64              index)
{
  for (guint i = 0; i < self->calls->len; i++)
    {
      Call *call = g_ptr_array_index (self->calls, i);

      if (call->index == index)
        return call;
    }
  return NULL;
}

static Call *
add_call (AkcProviderDecoder  *self,
          gint64               index,
          GError             **error)
{
  Call *call;

  if (self->calls->len >= AKC_PROVIDER_MAX_TOOL_CALLS)
    {
      fail (self, error, AKC_PROVIDER_ERROR_TOO_LARGE,
            _("The reply has more than %d tool calls."), AKC_PROVIDER_MAX_TOOL_CALLS);
      return NULL;
    }

  call = g_new0 (Call, 1);
  call->index = index;
  call->name = g_string_new (NULL);
  call->arguments = g_string_new (NULL);
  g_ptr_array_add (self->calls, call);

  return call;
}

static AkcFrameResult
call_set_id (AkcProviderDecoder *self,
             Call               *call,
             AkcJsonValue       *value)
{
  gsize length;
  const char *id;
  g_autoptr(GString) taken = NULL;

  if (!AKC_JSON_IS_STRING (value) || call->id != NULL)
    return AKC_FRAME_CONTINUE;
  id = akc_json_value_get_string (value, &length);
  if (length == 0 || length > 256)
    return AKC_FRAME_CONTINUE;

  taken = g_string_new (NULL);
  append_taken (self, taken, id, length);
  call->id = g_strndup (taken->str, taken->len);

  return AKC_FRAME_CONTINUE;
}

static AkcFrameResult
call_add_name (AkcProviderDecoder  *self,
               Call                *call,
               AkcJsonValue        *value,
               GError             **error)
{
  gsize length;
  const char *name;

  if (!AKC_JSON_IS_STRING (value))
    return AKC_FRAME_CONTINUE;
  name = akc_json_value_get_string (value, &length);

  /* Some servers repeat the whole name in every fragment. */
  if (call->name->len == length && memcmp (call->name->str, name, length) == 0)
    return AKC_FRAME_CONTINUE;
  if (call->name->len + length > AKC_PROVIDER_MAX_TOOL_NAME)
    return fail (self, error, AKC_PROVIDER_ERROR_TOO_LARGE,
                 _("A tool call names a tool longer than %d bytes."), AKC_PROVIDER_MAX_TOOL_NAME);
  append_taken (self, call->name, name, length);

  return AKC_FRAME_CONTINUE;
}

/* @value: a string fragment, or a whole JSON value (Ollama, and servers
 * that send arguments as an object). */
static AkcFrameResult
call_add_arguments (AkcProviderDecoder  *self,
                    Call                *call,
                    AkcJsonValue        *value,
                    GError             **error)
{
  if (value == NULL || akc_json_value_get_kind (value) == AKC_JSON_KIND_NULL)
    return AKC_FRAME_CONTINUE;

  if (AKC_JSON_IS_STRING (value))
    {
      gsize length;
      const char *text = akc_json_value_get_string (value, &length);

      if (call->arguments->len + length > AKC_PROVIDER_MAX_ARGUMENT_BYTES)
        return fail (self, error, AKC_PROVIDER_ERROR_TOO_LARGE,
                     _("The arguments of a tool call are larger than %d KiB."),
                     AKC_PROVIDER_MAX_ARGUMENT_BYTES / 1024);
      append_taken (self, call->arguments, text, length);
      call->has_fragments = TRUE;
    }
  else
    {
      g_autofree char *text = NULL;
      gsize length;

      text = akc_json_value_to_canonical (value, &length);
      if (length > AKC_PROVIDER_MAX_ARGUMENT_BYTES)
        return fail (self, error, AKC_PROVIDER_ERROR_TOO_LARGE,
                     _("The arguments of a tool call are larger than %d KiB."),
                     AKC_PROVIDER_MAX_ARGUMENT_BYTES / 1024);
      /* An object given whole replaces what was there (Anthropic's
       * content_block_start carries `input: {}` before its fragments). */
      g_string_truncate (call->arguments, 0);
      g_string_append_len (call->arguments, text, length);
      if (self->mapped)
        {
          g_autoptr(GString) taken = g_string_new (NULL);

          append_taken (self, taken, call->arguments->str, call->arguments->len);
          g_string_assign (call->arguments, taken->str);
        }
    }

  return AKC_FRAME_CONTINUE;
}

static void
emit_calls (AkcProviderDecoder *self)
{
  for (guint i = 0; i < self->calls->len; i++)
    {
      Call *call = g_ptr_array_index (self->calls, i);
      g_autoptr(AkcChunk) chunk = NULL;
      g_autofree char *id = NULL;
      g_autofree char *name = NULL;
      g_autofree char *arguments = NULL;
      gsize length;

      if (call->id != NULL && akc_text_is_safe_id (call->id, strlen (call->id)))
        id = g_strdup (call->id);
      else
        {
          /* Ollama gives its calls no id. One made up per turn would be
           * the same in every turn ("call_1"), and a chat takes one call
           * per id in a conversation: the model's second call would be
           * dropped. Random per turn, so across restarts too. */
          if (self->id_prefix == NULL)
            {
              g_autofree char *uuid = g_uuid_string_random ();

              self->id_prefix = g_strndup (uuid, 8);
            }
          id = g_strdup_printf ("call_%s_%u", self->id_prefix, ++self->n_generated);
        }

      name = akc_utf8_sanitize (call->name->str, call->name->len, &length);
      if (name == NULL)
        name = g_strndup (call->name->str, call->name->len);

      arguments = akc_utf8_sanitize (call->arguments->str, call->arguments->len, &length);
      if (arguments == NULL)
        arguments = g_strndup (call->arguments->str, call->arguments->len);
      if (akc_is_blank_input (arguments))
        set_str (&arguments, "{}");

      chunk = akc_chunk_new_tool_call (id, name, arguments);
      self->emit (chunk, self->emit_data);
    }
}

/* The provider's end of stream: what was held, then usage and done. */
static AkcFrameResult
end (AkcProviderDecoder *self)
{
  g_autoptr(AkcChunk) done = akc_chunk_new_done ();

  flush_text (self);
  emit_calls (self);

  if (self->has_usage)
    {
      g_autoptr(AkcChunk) usage = NULL;
      guint64 total = self->total_tokens;

      if (total == 0)
        total = self->prompt_tokens + self->completion_tokens;
      usage = akc_chunk_new_usage (self->prompt_tokens, self->completion_tokens, total);
      self->emit (usage, self->emit_data);
    }

  if (self->finish_reason != NULL)
    {
      const char *names[] = { "finishReason" };
      g_autoptr(AkcJsonValue) reason = akc_json_value_new_string (self->finish_reason, -1);
      g_autoptr(AkcJsonValue) metadata = akc_json_value_new_object (names, (AkcJsonValue *[]) { reason }, 1);
      AkcChunk *with = akc_chunk_with_metadata (done, metadata);

      akc_chunk_unref (done);
      done = with;
    }

  self->ended = TRUE;
  self->emit (done, self->emit_data);

  return AKC_FRAME_END;
}

static void
set_finish_reason (AkcProviderDecoder *self,
                   const char         *reason,
                   gsize               length)
{
  static const struct { const char *given; const char *ours; } table[] = {
    { "stop", "stop" },
    { "end_turn", "stop" },
    { "stop_sequence", "stop" },
    { "length", "length" },
    { "max_tokens", "length" },
    { "model_context_window_exceeded", "length" },
    { "tool_calls", "tool_calls" },
    { "function_call", "tool_calls" },
    { "tool_use", "tool_calls" },
    { "content_filter", "content_filter" },
    { "refusal", "content_filter" },
    { "pause_turn", "pause_turn" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (table); i++)
    if (strlen (table[i].given) == length && memcmp (table[i].given, reason, length) == 0)
      {
        set_str (&self->finish_reason, table[i].ours);
        return;
      }

  /* Another reason a server made up: kept when it is a plain word. */
  if (length > 0 && length <= 64 && akc_text_is_safe_id (reason, length))
    {
      g_free (self->finish_reason);
      self->finish_reason = g_strndup (reason, length);
    }
  else
    set_str (&self->finish_reason, "other");
}

/* ------------------------------------------------------------------ */
/* OpenAI-compatible                                                   */
/* ------------------------------------------------------------------ */

static gboolean
is_done_marker (const AkcFrame *frame)
{
  const char *data = frame->data;
  gsize length = frame->length;

  while (length > 0 && g_ascii_isspace (data[length - 1]))
    length--;
  while (length > 0 && g_ascii_isspace (data[0]))
    {
      data++;
      length--;
    }
  return length == 6 && memcmp (data, "[DONE]", 6) == 0;
}

static AkcFrameResult
openai_tool_calls (AkcProviderDecoder  *self,
                   AkcJsonValue        *calls,
                   GError             **error)
{
  for (gsize i = 0; i < akc_json_value_get_length (calls); i++)
    {
      AkcJsonValue *fragment = akc_json_value_get_element (calls, i);
      AkcJsonValue *function = member (fragment, "function");
      guint64 index = i;
      Call *call;

      if (!AKC_JSON_IS_OBJECT (fragment))
        continue;
      if (!count_member (fragment, "index", &index))
        index = i;
      if (index > G_MAXINT32)
        return fail (self, error, AKC_PROVIDER_ERROR_INVALID_RESPONSE, "%s",
                     _("The provider sent a tool call with an invalid index."));

      call = find_call (self, (gint64) index);
      if (call == NULL && (call = add_call (self, (gint64) index, error)) == NULL)
        return AKC_FRAME_FAILED;

      call_set_id (self, call, member (fragment, "id"));
      if (call_add_name (self, call, member (function, "name"), error) != AKC_FRAME_CONTINUE ||
          call_add_arguments (self, call, member (function, "arguments"), error) != AKC_FRAME_CONTINUE)
        return AKC_FRAME_FAILED;
    }

  return AKC_FRAME_CONTINUE;
}

static AkcFrameResult
openai_frame (AkcProviderDecoder  *self,
              const AkcFrame      *frame,
              GError             **error)
{
  g_autoptr(AkcJsonValue) event = NULL;
  AkcJsonValue *choices, *usage, *error_value;

  if (is_done_marker (frame))
    return end (self);

  if (parse_frame (self, frame, &event, error) != AKC_FRAME_CONTINUE)
    return AKC_FRAME_FAILED;

  error_value = member (event, "error");
  if ((error_value != NULL && akc_json_value_get_kind (error_value) != AKC_JSON_KIND_NULL) ||
      akc_json_string_equals (member (event, "object"), "error"))
    return stream_error (self, error_value, event, error);

  choices = member (event, "choices");
  if (AKC_JSON_IS_ARRAY (choices))
    for (gsize i = 0; i < akc_json_value_get_length (choices); i++)
      {
        AkcJsonValue *choice = akc_json_value_get_element (choices, i);
        AkcJsonValue *delta = member (choice, "delta");
        AkcJsonValue *calls;
        guint64 index = 0;
        const char *text, *reason;
        gsize length;

        /* One reply: the first choice (n = 1). */
        if (count_member (choice, "index", &index) && index != 0)
          continue;
        if (delta == NULL)
          delta = member (choice, "message");

        text = string_member (delta, "content", &length);
        if (text != NULL && emit_text (self, text, length, error) != AKC_FRAME_CONTINUE)
          return AKC_FRAME_FAILED;

        calls = member (delta, "tool_calls");
        if (AKC_JSON_IS_ARRAY (calls) && openai_tool_calls (self, calls, error) != AKC_FRAME_CONTINUE)
          return AKC_FRAME_FAILED;

        reason = string_member (choice, "finish_reason", &length);
        if (reason != NULL)
          set_finish_reason (self, reason, length);
      }

  usage = member (event, "usage");
  if (AKC_JSON_IS_OBJECT (usage))
    {
      self->has_usage |= count_member (usage, "prompt_tokens", &self->prompt_tokens);
      self->has_usage |= count_member (usage, "completion_tokens", &self->completion_tokens);
      self->has_usage |= count_member (usage, "total_tokens", &self->total_tokens);
    }

  /* Some servers end an event stream without [DONE]: the body's end after
   * an unterminated last event that finished the reply is the end too. */
  if (frame->unterminated && self->finish_reason != NULL)
    return end (self);

  return AKC_FRAME_CONTINUE;
}

/* ------------------------------------------------------------------ */
/* Ollama                                                              */
/* ------------------------------------------------------------------ */

static AkcFrameResult
ollama_frame (AkcProviderDecoder  *self,
              const AkcFrame      *frame,
              GError             **error)
{
  g_autoptr(AkcJsonValue) event = NULL;
  AkcJsonValue *message, *calls, *error_value, *done;
  const char *text, *reason;
  gsize length;

  if (parse_frame (self, frame, &event, error) != AKC_FRAME_CONTINUE)
    return AKC_FRAME_FAILED;

  error_value = member (event, "error");
  if (error_value != NULL && akc_json_value_get_kind (error_value) != AKC_JSON_KIND_NULL)
    return stream_error (self, error_value, event, error);

  message = member (event, "message");
  text = string_member (message, "content", &length);
  if (text != NULL && emit_text (self, text, length, error) != AKC_FRAME_CONTINUE)
    return AKC_FRAME_FAILED;

  calls = member (message, "tool_calls");
  if (AKC_JSON_IS_ARRAY (calls))
    for (gsize i = 0; i < akc_json_value_get_length (calls); i++)
      {
        AkcJsonValue *item = akc_json_value_get_element (calls, i);
        AkcJsonValue *function = member (item, "function");
        Call *call;

        if (!AKC_JSON_IS_OBJECT (function))
          continue;
        /* Complete calls, one after another: each is its own. */
        if ((call = add_call (self, self->calls->len, error)) == NULL)
          return AKC_FRAME_FAILED;
        call_set_id (self, call, member (item, "id"));
        if (call_add_name (self, call, member (function, "name"), error) != AKC_FRAME_CONTINUE ||
            call_add_arguments (self, call, member (function, "arguments"), error) != AKC_FRAME_CONTINUE)
          return AKC_FRAME_FAILED;
      }

  done = member (event, "done");
  if (done == NULL || akc_json_value_get_kind (done) != AKC_JSON_KIND_BOOLEAN || !akc_json_value_get_boolean (done))
    return AKC_FRAME_CONTINUE;

  reason = string_member (event, "done_reason", &length);
  if (reason != NULL)
    set_finish_reason (self, reason, length);
  else
    set_finish_reason (self, "stop", 4);
  if (self->calls->len > 0 && g_strcmp0 (self->finish_reason, "stop") == 0)
    set_str (&self->finish_reason, "tool_calls");

  self->has_usage |= count_member (event, "prompt_eval_count", &self->prompt_tokens);
  self->has_usage |= count_member (event, "eval_count", &self->completion_tokens);

  return end (self);
}

/* ------------------------------------------------------------------ */
/* Anthropic Messages                                                  */
/* ------------------------------------------------------------------ */

static void
anthropic_usage (AkcProviderDecoder *self,
                 AkcJsonValue       *usage)
{
  guint64 input = 0, cache_creation = 0, cache_read = 0;
  gboolean have_input;

  if (!AKC_JSON_IS_OBJECT (usage))
    return;

  have_input = count_member (usage, "input_tokens", &input);
  count_member (usage, "cache_creation_input_tokens", &cache_creation);
  count_member (usage, "cache_read_input_tokens", &cache_read);
  if (have_input)
    {
      self->prompt_tokens = input + cache_creation + cache_read;
      self->has_usage = TRUE;
    }
  /* output_tokens in message_delta is the running total. */
  self->has_usage |= count_member (usage, "output_tokens", &self->completion_tokens);
}

static AkcFrameResult
anthropic_frame (AkcProviderDecoder  *self,
                 const AkcFrame      *frame,
                 GError             **error)
{
  g_autoptr(AkcJsonValue) event = NULL;
  AkcJsonValue *type_value;
  const char *type;
  gsize type_length;
  guint64 index = 0;

  if (parse_frame (self, frame, &event, error) != AKC_FRAME_CONTINUE)
    return AKC_FRAME_FAILED;

  /* The data's type names the event; the `event:` line says the same. */
  type_value = member (event, "type");
  if (AKC_JSON_IS_STRING (type_value))
    type = akc_json_value_get_string (type_value, &type_length);
  else if (frame->event != NULL)
    {
      type = frame->event;
      type_length = strlen (type);
    }
  else
    return AKC_FRAME_CONTINUE;

#define IS(name) (type_length == strlen (name) && memcmp (type, name, type_length) == 0)

  if (IS ("error"))
    return stream_error (self, member (event, "error"), event, error);

  if (IS ("message_start"))
    {
      anthropic_usage (self, member (member (event, "message"), "usage"));
      return AKC_FRAME_CONTINUE;
    }

  if (IS ("content_block_start"))
    {
      AkcJsonValue *block = member (event, "content_block");
      const char *text;
      gsize length;

      if (!count_member (event, "index", &index) || index > G_MAXINT32)
        return fail (self, error, AKC_PROVIDER_ERROR_INVALID_RESPONSE, "%s",
                     _("The provider sent a content block without a valid index."));

      if (akc_json_string_equals (member (block, "type"), "text"))
        {
          text = string_member (block, "text", &length);
          if (text != NULL)
            return emit_text (self, text, length, error);
        }
      else if (akc_json_string_equals (member (block, "type"), "tool_use"))
        {
          Call *call;

          if (find_call (self, (gint64) index) != NULL)
            return fail (self, error, AKC_PROVIDER_ERROR_INVALID_RESPONSE, "%s",
                         _("The provider started one content block twice."));
          if ((call = add_call (self, (gint64) index, error)) == NULL)
            return AKC_FRAME_FAILED;
          call_set_id (self, call, member (block, "id"));
          if (call_add_name (self, call, member (block, "name"), error) != AKC_FRAME_CONTINUE)
            return AKC_FRAME_FAILED;
          if (AKC_JSON_IS_OBJECT (member (block, "input")) &&
              akc_json_value_get_member_count (member (block, "input")) > 0)
            return call_add_arguments (self, call, member (block, "input"), error);
        }
      /* thinking, redacted_thinking, server tools: not shown. */
      return AKC_FRAME_CONTINUE;
    }

  if (IS ("content_block_delta"))
    {
      AkcJsonValue *delta = member (event, "delta");
      const char *text;
      gsize length;

      if (!count_member (event, "index", &index) || index > G_MAXINT32)
        return fail (self, error, AKC_PROVIDER_ERROR_INVALID_RESPONSE, "%s",
                     _("The provider sent a content block without a valid index."));

      if (akc_json_string_equals (member (delta, "type"), "text_delta"))
        {
          text = string_member (delta, "text", &length);
          if (text != NULL)
            return emit_text (self, text, length, error);
        }
      else if (akc_json_string_equals (member (delta, "type"), "input_json_delta"))
        {
          Call *call = find_call (self, (gint64) index);
          AkcJsonValue *partial = member (delta, "partial_json");

          if (call == NULL)
            return fail (self, error, AKC_PROVIDER_ERROR_INVALID_RESPONSE, "%s",
                         _("The provider sent tool input for a block that is not a tool call."));
          if (!call->has_fragments)
            g_string_truncate (call->arguments, 0);
          if (AKC_JSON_IS_STRING (partial))
            return call_add_arguments (self, call, partial, error);
        }
      return AKC_FRAME_CONTINUE;
    }

  if (IS ("message_delta"))
    {
      const char *reason;
      gsize length;

      reason = string_member (member (event, "delta"), "stop_reason", &length);
      if (reason != NULL)
        set_finish_reason (self, reason, length);
      anthropic_usage (self, member (event, "usage"));
      return AKC_FRAME_CONTINUE;
    }

  if (IS ("message_stop"))
    return end (self);

  /* ping, content_block_stop, and events added later. */
  return AKC_FRAME_CONTINUE;

#undef IS
}

AkcFrameResult
akc_provider_decoder_frame (AkcProviderDecoder  *self,
                            const AkcFrame      *frame,
                            GError             **error)
{
  g_return_val_if_fail (!self->ended && !self->failed, AKC_FRAME_END);

  switch (self->kind)
    {
    case AKC_PROVIDER_KIND_OPENAI:
      return openai_frame (self, frame, error);
    case AKC_PROVIDER_KIND_OLLAMA:
      return ollama_frame (self, frame, error);
    case AKC_PROVIDER_KIND_ANTHROPIC:
    default:
      return anthropic_frame (self, frame, error);
    }
}
