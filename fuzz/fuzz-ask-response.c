/* fuzz-ask-response.c: libFuzzer target for the whole body path of the Ask
 * client (application.md §8.3): response bytes in reads of any size and
 * under any content type, through AkcAskResponse, to the chunks a turn
 * gives, and the HTTP error body to its error chunk
 *
 * SPDX-License-Identifier: MIT
 *
 * Input: a flags byte, a count byte N (taken mod 9), N read sizes, then
 * the body. Flags bits 0–2 pick the Content-Type header (absent, NDJSON in
 * several spellings, text/plain, JSON, octet-stream), bit 3 turns on a
 * host tool projector (one that offers every unknown tool's `args` as a
 * render frame), bit 4 reads the body as the error body of an HTTP
 * failure instead (the status taken from the count and first size bytes).
 * The body is fed in reads of the N sizes in turn (size byte b gives
 * 1 + b bytes, and 255 gives the whole rest); with N = 0, in one read.
 *
 * Checked for every input:
 * - the chunks end with exactly one done or error chunk, nothing follows
 *   it, and feed() says FALSE exactly once the answer stopped;
 * - every text chunk is one whole assistant content record: the content
 *   so far decodes as complete content (protocol.md §4) of one more part;
 * - error chunks have an Ask code and a valid UTF-8 message;
 * - the bytes held between reads stay bounded;
 * - the answer does not depend on how the body was cut into reads: the
 *   same parts (adjacent text merged) and the same end as one read gives,
 *   unless a record limit cut either.
 */

#include <stdint.h>
#include <string.h>

#include "akc-ask-events-private.h"
#include "akc-ask-response-private.h"
#include "akc-assistant-content.h"
#include "akc-json-private.h"
#include "akc-text-private.h"

int LLVMFuzzerTestOneInput (const uint8_t *data, size_t size);

static const char *const content_types[] = {
  NULL,
  "application/x-ndjson",
  "application/x-ndjson; charset=utf-8",
  "Application/NDJSON",
  "text/plain",
  "text/plain; charset=utf-8",
  "application/json",
  "application/octet-stream",
};

typedef struct
{
  GString  *parts;     /* the decoded parts, adjacent text merged */
  char     *end;       /* "done", or "error CODE MESSAGE" */
  gboolean  limited;   /* a record or byte limit ended the answer */
  guint     n_chunks;
  guint     n_records;
  AkcAssistantContentDecoder *decoder;
} Answer;

static void
answer_clear (Answer *answer)
{
  g_string_free (answer->parts, TRUE);
  g_free (answer->end);
  g_clear_object (&answer->decoder);
}

static void
on_chunk (AkcChunk *chunk,
          gpointer  user_data)
{
  Answer *answer = user_data;
  const char *text;
  gsize len;

  /* nothing after the end */
  g_assert (answer->end == NULL);
  answer->n_chunks++;

  switch (akc_chunk_get_kind (chunk))
    {
    case AKC_CHUNK_TEXT:
      text = akc_chunk_get_text (chunk, &len);
      g_assert (text != NULL && len > 0);
      g_assert (g_utf8_validate_len (text, len, NULL));
      /* one more whole part of the content */
      g_assert (akc_assistant_content_decoder_append (answer->decoder, text, len));
      g_assert (akc_assistant_content_decoder_get_complete (answer->decoder));
      g_assert (akc_assistant_content_decoder_get_n_parts (answer->decoder) == ++answer->n_records);
      break;

    case AKC_CHUNK_DONE:
      answer->end = g_strdup ("done");
      break;

    case AKC_CHUNK_ERROR:
      {
        const char *code = akc_chunk_get_error_code (chunk);

        text = akc_chunk_get_text (chunk, &len);
        g_assert (code != NULL && akc_text_is_ask_code (code, strlen (code)));
        g_assert (text != NULL && g_utf8_validate_len (text, len, NULL));
        answer->limited = strcmp (code, AKC_ASK_ERROR_LIMIT) == 0;
        answer->end = g_strdup_printf ("error %s %.*s", code, (int) len, text);
      }
      break;

    case AKC_CHUNK_TOOL_CALL:
    case AKC_CHUNK_METADATA:
    default:
      g_assert_not_reached ();
    }
}

/* A host that offers every other tool's arguments as a render frame. */
static AkcJsonValue *
project_args (AkcJsonValue *event,
              gpointer      user_data)
{
  AkcJsonValue *args = akc_json_value_get_member (event, "args");

  return args != NULL ? akc_json_value_ref (args) : NULL;
}

/* The parts of the whole content, text parts that follow each other
 * merged into one: how the text was cut into records is no part of the
 * answer. */
static void
describe_parts (Answer *answer)
{
  g_autoptr(AkcJsonValue) parts = NULL;
  gboolean in_text = FALSE;

  if (answer->n_records == 0)
    return;

  parts = akc_assistant_content_decoder_dup_parts (answer->decoder);
  g_assert (parts != NULL);

  for (gsize i = 0; i < akc_json_value_get_length (parts); i++)
    {
      AkcJsonValue *part = akc_json_value_get_element (parts, i);
      AkcJsonValue *text = akc_json_value_get_member (part, "text");

      if (akc_json_string_equals (akc_json_value_get_member (part, "kind"), "text") && text != NULL)
        {
          gsize len;
          const char *s = akc_json_value_get_string (text, &len);

          if (!in_text)
            g_string_append (answer->parts, "\ntext:");
          g_string_append_len (answer->parts, s, len);
          in_text = TRUE;
        }
      else
        {
          g_autofree char *canonical = akc_json_value_to_canonical (part, NULL);

          g_string_append (answer->parts, "\npart:");
          g_string_append (answer->parts, canonical);
          in_text = FALSE;
        }
    }
}

static void
run (const char    *content_type,
     gboolean       projector,
     const guint8  *sizes,
     gsize          n_sizes,
     const guint8  *body,
     gsize          length,
     Answer        *answer)
{
  AkcAskResponse *response;
  gsize pos = 0, k = 0;

  answer->parts = g_string_new (NULL);
  answer->decoder = akc_assistant_content_decoder_new ();
  response = akc_ask_response_new (content_type, projector ? project_args : NULL, NULL,
                                   on_chunk, answer);

  while (pos < length)
    {
      gsize step = length - pos;
      gboolean more;

      if (n_sizes > 0)
        {
          guint8 b = sizes[k++ % n_sizes];

          if (b != 255)
            step = MIN (step, (gsize) b + 1);
        }

      more = akc_ask_response_feed (response, body + pos, step);
      pos += step;
      g_assert (more == !akc_ask_response_is_stopped (response));
      g_assert (more == (answer->end == NULL));
      /* the sniffing buffer, the partial line and the UTF-8 carry */
      g_assert (akc_ask_response_get_retained_size (response) <= 4 * pos + 4096);
      if (!more)
        break;
    }

  akc_ask_response_finish (response);
  g_assert (akc_ask_response_is_stopped (response));
  g_assert (answer->end != NULL);
  akc_ask_response_free (response);

  describe_parts (answer);
}

static void
check_http_error (guint         status,
                  const guint8 *body,
                  gsize         length)
{
  g_autoptr(AkcChunk) chunk = akc_ask_response_http_error (status, body, length);
  AkcJsonValue *metadata;
  const char *code, *text;
  gsize len;

  g_assert (chunk != NULL && akc_chunk_get_kind (chunk) == AKC_CHUNK_ERROR);
  code = akc_chunk_get_error_code (chunk);
  g_assert (code != NULL && akc_text_is_ask_code (code, strlen (code)));
  text = akc_chunk_get_text (chunk, &len);
  g_assert (text != NULL && g_utf8_validate_len (text, len, NULL));
  metadata = akc_chunk_get_metadata (chunk);
  g_assert (metadata != NULL && akc_json_value_get_member (metadata, "status") != NULL);
}

int
LLVMFuzzerTestOneInput (const uint8_t *data,
                        size_t         size)
{
  Answer pieces = { 0 }, whole = { 0 };
  const char *content_type;
  gboolean projector;
  gsize n_sizes;
  const guint8 *sizes, *body;
  gsize length;

  if (size < 2)
    return 0;

  content_type = content_types[data[0] & 7];
  projector = (data[0] & 8) != 0;
  n_sizes = MIN ((gsize) data[1] % 9, size - 2);
  sizes = data + 2;
  body = data + 2 + n_sizes;
  length = size - 2 - n_sizes;

  if (data[0] & 16)
    {
      check_http_error (100 + (data[1] * 256u + (n_sizes > 0 ? sizes[0] : 0)) % 500, body, length);
      return 0;
    }

  run (content_type, projector, sizes, n_sizes, body, length, &pieces);

  /* Cutting the body into reads changes nothing (the sniffing and line
   * limits are far beyond what a fuzz input holds). Sizes that all say
   * "the rest" are one read already. */
  for (gsize i = 0; i < n_sizes; i++)
    if (sizes[i] != 255)
      {
        run (content_type, projector, NULL, 0, body, length, &whole);
        if (!pieces.limited && !whole.limited && length < AKC_ASK_EVENT_MAX_RECORD_BYTES)
          {
            g_assert_cmpstr (pieces.parts->str, ==, whole.parts->str);
            g_assert_cmpstr (pieces.end, ==, whole.end);
          }
        answer_clear (&whole);
        break;
      }

  answer_clear (&pieces);

  return 0;
}
