/* test-assistant-content.c: ordered assistant content (protocol.md §4)
 *
 * SPDX-License-Identifier: MIT
 */

#include "config.h"

#include <string.h>

#include "akc-assistant-content.h"
#include "akc-fixture.h"
#include "akc-json-private.h"
#include "akc-test.h"

#define PREFIX "\x1e" "agentskit.chat.content/1\n"
#define TEXT_A "{\"kind\":\"text\",\"text\":\"a\"}"

/* The state of a decoder as canonical text, to compare decoders with the
 * one-shot decode: {"ok":…,"complete":…,"parts":[…]} or the diagnostic. */
static char *
describe_decoder (AkcAssistantContentDecoder *decoder)
{
  AkcDiagnostic *d = akc_assistant_content_decoder_get_diagnostic (decoder);
  g_autoptr(AkcJsonValue) parts = NULL;
  g_autofree char *text = NULL;

  if (d != NULL)
    {
      g_assert_null (akc_assistant_content_decoder_dup_parts (decoder));
      g_assert_cmpuint (akc_assistant_content_decoder_get_n_parts (decoder), ==, 0);
      g_assert_false (akc_assistant_content_decoder_get_complete (decoder));
      return akc_diagnostic_to_canonical (d, NULL);
    }

  parts = akc_assistant_content_decoder_dup_parts (decoder);
  g_assert_cmpuint (akc_json_value_get_length (parts), ==, akc_assistant_content_decoder_get_n_parts (decoder));
  text = akc_json_value_to_canonical (parts, NULL);
  return g_strdup_printf ("{\"complete\":%s,\"parts\":%s}",
                          akc_assistant_content_decoder_get_complete (decoder) ? "true" : "false", text);
}

static char *
describe_oneshot (const char *text,
                  gsize       len)
{
  g_autoptr(AkcDiagnostic) d = NULL;
  gboolean complete = TRUE;
  g_autoptr(AkcJsonValue) parts = akc_assistant_content_decode (text, len, &complete, &d);
  g_autofree char *parts_text = NULL;

  if (parts == NULL)
    {
      g_assert_nonnull (d);
      g_assert_false (complete);
      return akc_diagnostic_to_canonical (d, NULL);
    }
  g_assert_null (d);
  parts_text = akc_json_value_to_canonical (parts, NULL);
  return g_strdup_printf ("{\"complete\":%s,\"parts\":%s}", complete ? "true" : "false", parts_text);
}

/* Next UTF-8 character boundary at or after @i. */
static gsize
boundary (const char *text,
          gsize       len,
          gsize       i)
{
  while (i < len && ((guchar) text[i] & 0xC0) == 0x80)
    i++;
  return i;
}

/* Appending @text in pieces of @step bytes (cut at character boundaries)
 * gives the one-shot result after every piece. */
static void
check_incremental (const char *text,
                   gsize       len,
                   gsize       step,
                   gboolean    every_prefix)
{
  g_autoptr(AkcAssistantContentDecoder) decoder = akc_assistant_content_decoder_new ();
  gsize pos = 0;

  while (pos < len)
    {
      gsize next = boundary (text, len, MIN (pos + step, len));
      gboolean ok = akc_assistant_content_decoder_append (decoder, text + pos, next - pos);

      g_assert_cmpint (ok, ==, akc_assistant_content_decoder_get_diagnostic (decoder) == NULL);
      pos = next;
      if (every_prefix || pos == len)
        {
          g_autofree char *a = describe_decoder (decoder);
          g_autofree char *b = describe_oneshot (text, pos);

          g_assert_cmpstr (a, ==, b);
        }
    }
  g_assert_cmpuint (akc_assistant_content_decoder_get_length (decoder), ==, len);
}

static void
run_decode_case (const AkcFixtureCase *fc,
                 gconstpointer         user_data)
{
  gsize len;
  const char *text = akc_json_value_get_string (fc->input, &len);
  g_autoptr(AkcDiagnostic) d = NULL;
  gboolean complete = FALSE;
  g_autoptr(AkcJsonValue) parts = akc_assistant_content_decode (text, len, &complete, &d);
  AkcJsonValue *expected;

  if (!akc_fixture_expect_ok (fc))
    {
      g_assert_null (parts);
      g_assert_nonnull (d);
      g_assert_cmpstr (akc_diagnostic_get_code (d), ==, akc_fixture_expect_string (fc, "code"));
      g_assert_cmpstr (akc_diagnostic_get_message (d), ==, akc_fixture_expect_string (fc, "message"));
      g_assert_false (akc_diagnostic_get_retryable (d));
      g_assert_null (akc_diagnostic_get_event_id (d));
    }
  else
    {
      g_assert_null (d);
      g_assert_nonnull (parts);
      if ((expected = akc_fixture_expect (fc, "parts")) != NULL)
        akc_assert_json_equal (parts, expected);
      if ((expected = akc_fixture_expect (fc, "partCount")) != NULL)
        g_assert_cmpuint (akc_json_value_get_length (parts), ==, (gsize) akc_json_value_get_number (expected));
      if ((expected = akc_fixture_expect (fc, "complete")) != NULL)
        g_assert_cmpint (complete, ==, akc_json_value_get_boolean (expected));
    }

  /* The same content streamed in pieces: every prefix for small inputs,
   * a few chunk sizes for all. */
  if (len <= 2048)
    check_incremental (text, len, 1, TRUE);
  check_incremental (text, len, 7, len <= 16384);
  check_incremental (text, len, 4093, FALSE);
  check_incremental (text, len, len + 1, FALSE);
}

static void
run_encode_case (const AkcFixtureCase *fc,
                 gconstpointer         user_data)
{
  AkcJsonValue *parts = akc_json_value_get_member (fc->input, "parts");
  g_autoptr(AkcAssistantContentEncoder) encoder = akc_assistant_content_encoder_new (FALSE);
  g_autoptr(GString) out = g_string_new (NULL);
  gboolean ok = TRUE;

  for (gsize i = 0; i < akc_json_value_get_length (parts); i++)
    {
      g_autoptr(GError) error = NULL;
      gsize n = 0;
      g_autofree char *record = akc_assistant_content_encoder_encode (encoder, akc_json_value_get_element (parts, i), &n, &error);

      if (record == NULL)
        {
          g_assert_error (error, AKC_PROTOCOL_ERROR, AKC_PROTOCOL_ERROR_ASSISTANT_CONTENT_INVALID_RECORD);
          ok = FALSE;
          break;
        }
      g_assert_no_error (error);
      g_assert_cmpuint (n, ==, strlen (record));
      g_string_append_len (out, record, n);
    }

  g_assert_cmpint (ok, ==, akc_fixture_expect_ok (fc));
  if (!ok)
    return;

  g_assert_cmpuint (akc_assistant_content_encoder_get_n_bytes (encoder), ==, out->len);
  g_assert_cmpuint (akc_assistant_content_encoder_get_n_records (encoder), ==, akc_json_value_get_length (parts));
  if (akc_fixture_expect_string (fc, "text") != NULL)
    g_assert_cmpstr (out->str, ==, akc_fixture_expect_string (fc, "text"));

  /* What the encoder emits decodes to the normalised parts, complete. */
  {
    g_autoptr(AkcDiagnostic) d = NULL;
    gboolean complete = FALSE;
    g_autoptr(AkcJsonValue) decoded = akc_assistant_content_decode (out->str, out->len, &complete, &d);

    g_assert_null (d);
    g_assert_true (complete);
    g_assert_cmpuint (akc_json_value_get_length (decoded), ==, akc_json_value_get_length (parts));
  }
}

static void
run_candidate_case (const AkcFixtureCase *fc,
                    gconstpointer         user_data)
{
  gsize len;
  const char *text = akc_json_value_get_string (fc->input, &len);

  g_assert_cmpint (akc_assistant_content_is_candidate (text, len), ==,
                   akc_json_value_get_boolean (akc_fixture_expect (fc, "result")));
}

/* ------------------------------------------------------------------ */
/* Own cases                                                           */
/* ------------------------------------------------------------------ */

static const char *
code_of (const char *text,
         gssize      len)
{
  g_autoptr(AkcDiagnostic) d = NULL;
  g_autoptr(AkcJsonValue) parts = akc_assistant_content_decode (text, len, NULL, &d);
  static char buf[128];

  if (parts != NULL)
    return "OK";
  g_snprintf (buf, sizeof buf, "%s %s", akc_diagnostic_get_code (d), akc_diagnostic_get_message (d));
  return buf;
}

#define INVALID_ENVELOPE "ASSISTANT_CONTENT_INVALID_RECORD Assistant content envelope is invalid."
#define INVALID_RECORD   "ASSISTANT_CONTENT_INVALID_RECORD Assistant content record is invalid."
#define UNSUPPORTED      "ASSISTANT_CONTENT_UNSUPPORTED_VERSION Assistant content envelope uses an unsupported version."
#define SAFETY           "ASSISTANT_CONTENT_LIMIT_EXCEEDED Assistant content envelope exceeds its safety limit."
#define RECORDS          "ASSISTANT_CONTENT_LIMIT_EXCEEDED Assistant content envelope exceeds its record limit."

static void
test_prefix_states (void)
{
  static const char prefix[] = PREFIX;
  g_autoptr(GString) s = g_string_new (NULL);

  /* the empty content is not ordered content */
  g_assert_cmpstr (code_of ("", 0), ==, INVALID_ENVELOPE);
  /* every proper prefix of the prefix, and the prefix itself, is accepted */
  for (gsize i = 1; i <= 26; i++)
    {
      gboolean complete = TRUE;
      g_autoptr(AkcJsonValue) parts = akc_assistant_content_decode (prefix, i, &complete, NULL);

      g_assert_nonnull (parts);
      g_assert_cmpuint (akc_json_value_get_length (parts), ==, 0);
      g_assert_false (complete);
    }
  /* a wrong byte inside ROOT is an invalid envelope, after it an unsupported version */
  for (gsize i = 0; i < 26; i++)
    {
      g_string_assign (s, "");
      g_string_append_len (s, prefix, i);
      g_string_append_c (s, 'Z');
      g_assert_cmpstr (code_of (s->str, s->len), ==, i < 24 ? INVALID_ENVELOPE : UNSUPPORTED);
    }
  g_assert_cmpstr (code_of ("\x1e" "agentskit.chat.content/1\r\n", -1), ==, UNSUPPORTED);
  g_assert_cmpstr (code_of ("\x1d", -1), ==, INVALID_ENVELOPE);
  g_assert_cmpstr (code_of (" \x1e", -1), ==, INVALID_ENVELOPE);
  /* the prefix ends with LF: ROOT "1" "\n" */
  g_assert_cmpstr (code_of (PREFIX TEXT_A "\n", -1), ==, "OK");
}

static void
test_records (void)
{
  g_autoptr(AkcAssistantContentDecoder) decoder = akc_assistant_content_decoder_new ();

  /* JSON white space (not the §1.4 set) may surround a record */
  g_assert_cmpstr (code_of (PREFIX " \t" TEXT_A "\r\r\n", -1), ==, "OK");
  g_assert_cmpstr (code_of (PREFIX "\xC2\xA0" TEXT_A "\n", -1), ==, INVALID_RECORD);
  g_assert_cmpstr (code_of (PREFIX " \n", -1), ==, INVALID_RECORD);
  g_assert_cmpstr (code_of (PREFIX "\r\n", -1), ==, INVALID_RECORD);
  g_assert_cmpstr (code_of (PREFIX "[]\n", -1), ==, INVALID_RECORD);
  g_assert_cmpstr (code_of (PREFIX "{\"kind\":\"text\",\"text\":\"a\"}{}\n", -1), ==, INVALID_RECORD);
  g_assert_cmpstr (code_of (PREFIX "{\"kind\":\"text\",\"text\":null}\n", -1), ==, INVALID_RECORD);
  g_assert_cmpstr (code_of (PREFIX "{\"kind\":\"component\",\"frame\":null}\n", -1), ==, INVALID_RECORD);
  /* an unterminated record is never parsed */
  g_assert_cmpstr (code_of (PREFIX "{bad", -1), ==, "OK");
  g_assert_cmpstr (code_of (PREFIX TEXT_A "\n{bad", -1), ==, "OK");

  /* parts only grow at the end, and are reachable one by one */
  g_assert_true (akc_assistant_content_decoder_append (decoder, PREFIX TEXT_A "\n{\"kind\":\"te", -1));
  g_assert_cmpuint (akc_assistant_content_decoder_get_n_parts (decoder), ==, 1);
  g_assert_false (akc_assistant_content_decoder_get_complete (decoder));
  g_assert_true (akc_assistant_content_decoder_append (decoder, "xt\",\"text\":\"b\\n\"}\n", -1));
  g_assert_cmpuint (akc_assistant_content_decoder_get_n_parts (decoder), ==, 2);
  g_assert_true (akc_assistant_content_decoder_get_complete (decoder));
  akc_assert_canonical (akc_assistant_content_decoder_get_part (decoder, 1), "{\"kind\":\"text\",\"text\":\"b\\n\"}");
  /* a bad record rejects everything; more content cannot mend it */
  g_assert_false (akc_assistant_content_decoder_append (decoder, "{}\n", -1));
  g_assert_cmpuint (akc_assistant_content_decoder_get_n_parts (decoder), ==, 0);
  g_assert_false (akc_assistant_content_decoder_append (decoder, TEXT_A "\n", -1));
  /* reset starts over */
  akc_assistant_content_decoder_reset (decoder);
  g_assert_nonnull (akc_assistant_content_decoder_get_diagnostic (decoder));
  g_assert_true (akc_assistant_content_decoder_append (decoder, PREFIX, -1));
  g_assert_null (akc_assistant_content_decoder_get_diagnostic (decoder));
  g_assert_cmpuint (akc_assistant_content_decoder_get_length (decoder), ==, 26);
}

/* §4.4 steps 6, 8, 9 precedence while the content grows. */
static void
test_limit_precedence (void)
{
  g_autoptr(AkcAssistantContentDecoder) d1 = akc_assistant_content_decoder_new ();
  g_autoptr(AkcAssistantContentDecoder) d2 = akc_assistant_content_decoder_new ();
  g_autoptr(GString) s = g_string_new (PREFIX);
  g_autofree char *pad = g_strnfill (300000, 'x');
  guint i;

  /* a bad record, then over 512 records: the record limit wins */
  g_assert_false (akc_assistant_content_decoder_append (d1, PREFIX "{}\n", -1));
  g_assert_cmpstr (akc_diagnostic_get_message (akc_assistant_content_decoder_get_diagnostic (d1)), ==, "Assistant content record is invalid.");
  for (i = 0; i < 511; i++)
    akc_assistant_content_decoder_append (d1, TEXT_A "\n", -1);
  g_assert_cmpstr (akc_diagnostic_get_message (akc_assistant_content_decoder_get_diagnostic (d1)), ==, "Assistant content record is invalid.");
  akc_assistant_content_decoder_append (d1, "\n", -1);
  g_assert_cmpstr (akc_diagnostic_get_message (akc_assistant_content_decoder_get_diagnostic (d1)), ==, "Assistant content envelope exceeds its record limit.");
  /* …and the byte limit wins over both */
  akc_assistant_content_decoder_append (d1, pad, -1);
  g_assert_cmpstr (akc_diagnostic_get_message (akc_assistant_content_decoder_get_diagnostic (d1)), ==, "Assistant content envelope exceeds its safety limit.");

  /* one-shot: 513 empty records are over the record limit, not invalid */
  for (i = 0; i < 513; i++)
    g_string_append_c (s, '\n');
  g_assert_cmpstr (code_of (s->str, s->len), ==, RECORDS);
  g_string_truncate (s, s->len - 1);
  g_assert_cmpstr (code_of (s->str, s->len), ==, INVALID_RECORD);

  /* the byte limit counts bytes after replacement of invalid UTF-8 */
  g_string_assign (s, PREFIX);
  while (s->len < AKC_ASSISTANT_CONTENT_MAX_BYTES - 3)
    g_string_append_c (s, 'x');
  g_string_append (s, "\xE2\x82\xAC");
  g_assert_cmpuint (s->len, ==, AKC_ASSISTANT_CONTENT_MAX_BYTES);
  g_assert_cmpstr (code_of (s->str, s->len), ==, "OK");
  g_string_truncate (s, s->len - 3);
  g_string_append (s, "xx\xff");   /* one invalid byte = the three bytes of U+FFFD */
  g_assert_cmpuint (s->len, ==, AKC_ASSISTANT_CONTENT_MAX_BYTES);
  g_assert_cmpstr (code_of (s->str, s->len), ==, SAFETY);
  g_assert_false (akc_assistant_content_decoder_append (d2, s->str, s->len));
  g_assert_cmpuint (akc_assistant_content_decoder_get_length (d2), ==, AKC_ASSISTANT_CONTENT_MAX_BYTES + 2);
}

static void
test_encoder (void)
{
  g_autoptr(AkcAssistantContentEncoder) encoder = akc_assistant_content_encoder_new (FALSE);
  g_autoptr(AkcJsonValue) bad = akc_test_parse_json ("{\"kind\":\"text\",\"text\":\"\"}");
  g_autoptr(AkcJsonValue) good = akc_test_parse_json ("{\"text\":\"hi\",\"kind\":\"text\"}");
  g_autoptr(AkcJsonValue) frame = akc_test_parse_json ("{\"protocol\":\"agentskit.chat.component\",\"version\":1,\"type\":\"render\",\"componentKey\":\"k\",\"instanceId\":\"i\",\"props\":{\"2\":0,\"a\":1,\"1\":2},\"fallback\":{\"kind\":\"k\",\"summary\":\"s\"},\"x\":0}");
  g_autoptr(GError) error = NULL;
  char *out;

  g_assert_false (akc_assistant_content_encoder_get_bounded (encoder));

  /* a refusal changes nothing: the next success still starts with the prefix */
  g_assert_null (akc_assistant_content_encoder_encode (encoder, bad, NULL, &error));
  g_assert_error (error, AKC_PROTOCOL_ERROR, AKC_PROTOCOL_ERROR_ASSISTANT_CONTENT_INVALID_RECORD);
  g_clear_error (&error);
  g_assert_cmpuint (akc_assistant_content_encoder_get_n_records (encoder), ==, 0);
  out = akc_assistant_content_encoder_encode (encoder, good, NULL, NULL);
  g_assert_cmpstr (out, ==, PREFIX "{\"kind\":\"text\",\"text\":\"hi\"}\n");
  g_free (out);
  out = akc_assistant_content_encoder_encode_frame (encoder, frame, NULL, NULL);
  g_assert_cmpstr (out, ==, "{\"kind\":\"component\",\"frame\":{\"protocol\":\"agentskit.chat.component\",\"version\":1,\"type\":\"render\",\"componentKey\":\"k\",\"instanceId\":\"i\",\"props\":{\"1\":2,\"2\":0,\"a\":1},\"fallback\":{\"kind\":\"k\",\"summary\":\"s\"}}}\n");
  g_free (out);
  g_assert_null (akc_assistant_content_encoder_encode_frame (encoder, bad, NULL, &error));
  g_assert_error (error, AKC_PROTOCOL_ERROR, AKC_PROTOCOL_ERROR_ASSISTANT_CONTENT_INVALID_RECORD);
  g_clear_error (&error);
  g_assert_null (akc_assistant_content_encoder_encode_text (encoder, "", 0, NULL, &error));
  g_assert_error (error, AKC_PROTOCOL_ERROR, AKC_PROTOCOL_ERROR_ASSISTANT_CONTENT_INVALID_RECORD);
  g_clear_error (&error);
  g_assert_cmpuint (akc_assistant_content_encoder_get_n_records (encoder), ==, 2);
}

/* Text is cut into pieces of at most 16384 UTF-16 units, never inside a character. */
static void
test_encode_text (void)
{
  g_autoptr(GString) s = g_string_new (NULL);
  guint i;

  for (i = 0; i < 3; i++)
    {
      g_autoptr(AkcAssistantContentEncoder) encoder = akc_assistant_content_encoder_new (TRUE);
      g_autoptr(AkcJsonValue) parts = NULL;
      g_autofree char *out = NULL;
      gsize len = 0;
      gboolean complete = FALSE;

      g_string_assign (s, "");
      if (i == 0)   /* exactly one piece */
        for (guint j = 0; j < 16384; j++)
          g_string_append_c (s, 'a');
      else if (i == 1)   /* one unit more: two pieces */
        for (guint j = 0; j < 16385; j++)
          g_string_append_c (s, j % 2 ? '\n' : '"');
      else   /* an emoji straddling unit 16384 moves to the next piece */
        {
          for (guint j = 0; j < 16383; j++)
            g_string_append_c (s, 'b');
          g_string_append (s, "\xF0\x9F\x98\x80" "c");
        }

      out = akc_assistant_content_encoder_encode_text (encoder, s->str, s->len, &len, NULL);
      g_assert_nonnull (out);
      g_assert_cmpuint (len, ==, strlen (out));
      parts = akc_assistant_content_decode (out, len, &complete, NULL);
      g_assert_nonnull (parts);
      g_assert_true (complete);
      g_assert_cmpuint (akc_json_value_get_length (parts), ==, i == 0 ? 1 : 2);
      g_assert_cmpuint (akc_assistant_content_encoder_get_n_records (encoder), ==, i == 0 ? 1 : 2);
      if (i == 2)
        {
          gsize n;
          akc_json_value_get_string (akc_json_value_get_member (akc_json_value_get_element (parts, 0), "text"), &n);
          g_assert_cmpuint (n, ==, 16383);
          akc_json_value_get_string (akc_json_value_get_member (akc_json_value_get_element (parts, 1), "text"), &n);
          g_assert_cmpuint (n, ==, 5);
        }
      /* the pieces join back to the text */
      {
        g_autoptr(GString) joined = g_string_new (NULL);
        for (gsize k = 0; k < akc_json_value_get_length (parts); k++)
          {
            gsize n;
            const char *t = akc_json_value_get_string (akc_json_value_get_member (akc_json_value_get_element (parts, k), "text"), &n);
            g_string_append_len (joined, t, n);
          }
        g_assert_cmpstr (joined->str, ==, s->str);
      }
    }
}

/* U+0000 is text (protocol.md §1.2): it is encoded as \u0000 and decodes
 * back; text that is not UTF-8 is refused with an error, never a NULL
 * without one (issue #12 item 1). */
static void
test_encode_text_nul (void)
{
  g_autoptr(AkcAssistantContentEncoder) encoder = akc_assistant_content_encoder_new (TRUE);
  g_autoptr(AkcJsonValue) parts = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *out = NULL;
  g_autofree char *bad = NULL;
  const char *text;
  gsize len = 0, n;

  out = akc_assistant_content_encoder_encode_text (encoder, "a\0b", 3, &len, &error);
  g_assert_no_error (error);
  g_assert_nonnull (out);
  g_assert_nonnull (strstr (out, "\"a\\u0000b\""));
  parts = akc_assistant_content_decode (out, len, NULL, NULL);
  g_assert_nonnull (parts);
  text = akc_json_value_get_string (akc_json_value_get_member (akc_json_value_get_element (parts, 0), "text"), &n);
  g_assert_cmpmem (text, n, "a\0b", 3);

  bad = akc_assistant_content_encoder_encode_text (encoder, "a\xff", 2, &len, &error);
  g_assert_null (bad);
  g_assert_error (error, AKC_PROTOCOL_ERROR, AKC_PROTOCOL_ERROR_ASSISTANT_CONTENT_INVALID_RECORD);
  g_assert_cmpuint (akc_assistant_content_encoder_get_n_records (encoder), ==, 1);
}

/* A bounded encoder refuses the 513th record and a record that passes
 * 262144 bytes, exactly at the decoder's limits; an unbounded one does not. */
static void
test_bounded (void)
{
  g_autoptr(AkcAssistantContentEncoder) bounded = akc_assistant_content_encoder_new (TRUE);
  g_autoptr(AkcAssistantContentEncoder) unbounded = akc_assistant_content_encoder_new (FALSE);
  g_autoptr(AkcAssistantContentEncoder) bytes = akc_assistant_content_encoder_new (TRUE);
  g_autoptr(GString) content = g_string_new (NULL);
  g_autoptr(GError) error = NULL;
  g_autofree char *big = NULL;
  char *out;
  guint i;

  for (i = 0; i < 512; i++)
    {
      out = akc_assistant_content_encoder_encode_text (bounded, "a", 1, NULL, NULL);
      g_assert_nonnull (out);
      g_string_append (content, out);
      g_free (out);
      out = akc_assistant_content_encoder_encode_text (unbounded, "a", 1, NULL, NULL);
      g_free (out);
    }
  g_assert_cmpstr (code_of (content->str, content->len), ==, "OK");
  g_assert_null (akc_assistant_content_encoder_encode_text (bounded, "a", 1, NULL, &error));
  g_assert_error (error, AKC_PROTOCOL_ERROR, AKC_PROTOCOL_ERROR_ASSISTANT_CONTENT_LIMIT_EXCEEDED);
  g_assert_cmpstr (error->message, ==, "Assistant content envelope exceeds its record limit.");
  g_clear_error (&error);
  g_assert_cmpuint (akc_assistant_content_encoder_get_n_records (bounded), ==, 512);
  out = akc_assistant_content_encoder_encode_text (unbounded, "a", 1, NULL, NULL);
  g_assert_nonnull (out);
  g_free (out);

  /* bytes: fill to exactly 262144 with 16384-unit records, then one byte more fails */
  g_string_truncate (content, 0);
  big = g_strnfill (16384, 'x');
  while (TRUE)
    {
      gsize remaining = AKC_ASSISTANT_CONTENT_MAX_BYTES - akc_assistant_content_encoder_get_n_bytes (bytes);
      gsize overhead = akc_assistant_content_encoder_get_n_records (bytes) == 0 ? 26 + 26 : 26;   /* {"kind":"text","text":""}\n */
      gsize n = MIN (remaining - overhead, 16384);

      out = akc_assistant_content_encoder_encode_text (bytes, big, n, NULL, &error);
      g_assert_no_error (error);
      g_string_append (content, out);
      g_free (out);
      if (n < 16384)
        break;
    }
  g_assert_cmpuint (content->len, ==, AKC_ASSISTANT_CONTENT_MAX_BYTES);
  g_assert_cmpstr (code_of (content->str, content->len), ==, "OK");
  g_assert_null (akc_assistant_content_encoder_encode_text (bytes, "y", 1, NULL, &error));
  g_assert_error (error, AKC_PROTOCOL_ERROR, AKC_PROTOCOL_ERROR_ASSISTANT_CONTENT_LIMIT_EXCEEDED);
  g_assert_cmpstr (error->message, ==, "Assistant content envelope exceeds its safety limit.");
  g_assert_cmpuint (akc_assistant_content_encoder_get_n_bytes (bytes), ==, AKC_ASSISTANT_CONTENT_MAX_BYTES);
}

static void
test_candidate (void)
{
  g_assert_true (akc_assistant_content_is_candidate ("\x1e", -1));
  g_assert_true (akc_assistant_content_is_candidate ("\x1ehello", -1));
  g_assert_false (akc_assistant_content_is_candidate ("", -1));
  g_assert_false (akc_assistant_content_is_candidate (" \x1e", -1));
  g_assert_false (akc_assistant_content_is_candidate ("{\"protocol\":\"agentskit.chat.component\"}", -1));
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  akc_fixture_add_tests ("protocol/content-records.json", "/assistant-content/fixtures",
                         "decodeAssistantContent", run_decode_case, NULL);
  akc_fixture_add_tests ("protocol/content-records.json", "/assistant-content/fixtures",
                         "encodeAssistantContent", run_encode_case, NULL);
  akc_fixture_add_tests ("protocol/content-records.json", "/assistant-content/fixtures",
                         "isAssistantContentCandidate", run_candidate_case, NULL);

  g_test_add_func ("/assistant-content/prefix-states", test_prefix_states);
  g_test_add_func ("/assistant-content/records", test_records);
  g_test_add_func ("/assistant-content/limit-precedence", test_limit_precedence);
  g_test_add_func ("/assistant-content/encoder", test_encoder);
  g_test_add_func ("/assistant-content/encode-text", test_encode_text);
  g_test_add_func ("/assistant-content/encode-text-nul", test_encode_text_nul);
  g_test_add_func ("/assistant-content/bounded", test_bounded);
  g_test_add_func ("/assistant-content/candidate", test_candidate);

  return g_test_run ();
}
