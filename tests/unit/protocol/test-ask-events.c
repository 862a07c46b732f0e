/* test-ask-events.c: Ask service events, the NDJSON decoder and the
 * incremental stream driver (protocol.md §6)
 *
 * SPDX-License-Identifier: MIT
 */

#include "config.h"

#include <string.h>

#include "akc-ask-events.h"
#include "akc-ask-events-private.h"
#include "akc-fixture.h"
#include "akc-json-private.h"

#define MAX_RECORD AKC_ASK_EVENT_MAX_RECORD_BYTES
#define DONE "{\"type\":\"done\"}"

/* Canonical text of an event list, for comparisons. */
static char *
events_text (GPtrArray *events)
{
  GString *s = g_string_new ("[");

  for (guint i = 0; i < events->len; i++)
    {
      if (i > 0)
        g_string_append_c (s, ',');
      akc_json_append_value (s, g_ptr_array_index (events, i));
    }
  g_string_append_c (s, ']');

  return g_string_free (s, FALSE);
}

static GPtrArray *
new_events (void)
{
  return g_ptr_array_new_with_free_func ((GDestroyNotify) akc_json_value_unref);
}

/* Feeds @data cut at the sorted offsets @cuts (n_cuts of them), then
 * finishes; returns the events as text. Checks the memory bound after
 * every feed. */
static char *
stream_cuts (const guint8 *data,
             gsize         len,
             const gsize  *cuts,
             gsize         n_cuts)
{
  g_autoptr(AkcAskEventDecoder) decoder = akc_ask_event_decoder_new ();
  g_autoptr(GPtrArray) events = new_events ();
  g_autoptr(GPtrArray) last = NULL;
  gsize pos = 0;

  for (gsize i = 0; i <= n_cuts; i++)
    {
      gsize next = i < n_cuts ? cuts[i] : len;

      g_assert_cmpuint (next, >=, pos);
      akc_ask_event_decoder_feed_into (decoder, data + pos, next - pos, events);
      g_assert_cmpuint (akc_ask_event_decoder_get_pending_size (decoder), <=, MAX_RECORD);
      g_assert_cmpuint (akc_ask_event_decoder_get_retained_size (decoder), <=, MAX_RECORD + 3);
      pos = next;
    }
  last = akc_ask_event_decoder_finish (decoder);
  g_ptr_array_extend_and_steal (events, g_steal_pointer (&last));
  g_assert_cmpuint (akc_ask_event_decoder_get_pending_size (decoder), ==, 0);

  return events_text (events);
}

/* Feeds @data in pieces of @step bytes. */
static char *
stream_step (const guint8 *data,
             gsize         len,
             gsize         step)
{
  g_autofree gsize *cuts = g_new (gsize, len / step + 1);
  gsize n = 0;

  for (gsize p = step; p < len; p += step)
    cuts[n++] = p;

  return stream_cuts (data, len, cuts, n);
}

/* The one-call decoder on the whole stream followed by a LF (what a
 * single feed and finish amount to when no budget or size limit bites). */
static char *
oneshot_with_lf (const guint8 *data,
                 gsize         len)
{
  g_autofree char *buffer = g_malloc (len + 1);
  g_autoptr(GPtrArray) events = NULL;
  g_autofree char *rest = NULL;
  gboolean discarded = TRUE;

  memcpy (buffer, data, len);
  buffer[len] = '\n';
  events = akc_ask_events_decode (buffer, len + 1, &rest, NULL, &discarded);
  g_assert_cmpstr (rest, ==, "");
  g_assert_false (discarded);

  return events_text (events);
}

/* Every way of cutting @data in two, and in three when it is short, and
 * byte by byte, gives @expected. */
static void
check_every_split (const guint8 *data,
                   gsize         len,
                   const char   *expected)
{
  for (gsize i = 0; i <= len; i++)
    {
      g_autofree char *got = stream_cuts (data, len, &i, 1);

      g_assert_cmpstr (got, ==, expected);
    }

  if (len <= 160)
    for (gsize i = 0; i <= len; i++)
      for (gsize j = i; j <= len; j++)
        {
          gsize cuts[2] = { i, j };
          g_autofree char *got = stream_cuts (data, len, cuts, 2);

          g_assert_cmpstr (got, ==, expected);
        }

  {
    g_autofree char *got = stream_step (data, len, 1);

    g_assert_cmpstr (got, ==, expected);
  }
}

/* ------------------------------------------------------------------ */
/* Fixtures                                                            */
/* ------------------------------------------------------------------ */

static void
run_record_case (const AkcFixtureCase *fc,
                 gconstpointer         user_data)
{
  gsize len;
  const char *line = akc_json_value_get_string (fc->input, &len);
  g_autofree char *buffer = g_strdup_printf ("%s\n", line);
  g_autoptr(GPtrArray) events = akc_ask_events_decode (buffer, len + 1, NULL, NULL, NULL);
  g_autoptr(AkcJsonValue) single = akc_ask_event_decode (line, len);
  AkcJsonValue *expected = akc_fixture_expect (fc, "event");
  const char *canonical = akc_fixture_expect_string (fc, "canonical");

  if (!akc_fixture_expect_ok (fc))
    {
      g_assert_cmpuint (events->len, ==, 0);
      g_assert_null (single);
    }
  else
    {
      g_assert_cmpuint (events->len, ==, 1);
      g_assert_nonnull (single);
      akc_assert_json_equal (single, g_ptr_array_index (events, 0));
      if (expected != NULL)
        akc_assert_json_equal (single, expected);
      if (canonical != NULL)
        akc_assert_canonical (single, canonical);

      /* the encoder writes the record back, canonical, with one LF */
      {
        gsize n = 0;
        g_autofree char *encoded = akc_ask_event_encode (single, &n);
        g_autofree char *again = akc_json_value_to_canonical (single, NULL);
        g_autofree char *line2 = g_strdup_printf ("%s\n", again);

        g_assert_cmpstr (encoded, ==, line2);
        g_assert_cmpuint (n, ==, strlen (line2));
        g_assert_cmpint (akc_ask_event_get_kind (single), !=, AKC_ASK_EVENT_KIND_INVALID);
      }
    }

  /* the stream driver gives the same, the record cut anywhere */
  {
    g_autofree char *expected_text = events_text (events);

    if (len <= 4096)
      check_every_split ((const guint8 *) buffer, len + 1, expected_text);
    else
      {
        g_autofree char *got = stream_step ((const guint8 *) buffer, len + 1, 1000);

        g_assert_cmpstr (got, ==, expected_text);
      }
  }
}

static void
run_events_case (const AkcFixtureCase *fc,
                 gconstpointer         user_data)
{
  gsize len;
  const char *buffer = akc_json_value_get_string (fc->input, &len);
  g_autofree char *rest = NULL;
  gsize rest_len = 0;
  gboolean discarded = FALSE;
  g_autoptr(GPtrArray) events = akc_ask_events_decode (buffer, len, &rest, &rest_len, &discarded);
  AkcJsonValue *expected;

  if ((expected = akc_fixture_expect (fc, "events")) != NULL)
    {
      g_assert_cmpuint (events->len, ==, akc_json_value_get_length (expected));
      for (guint i = 0; i < events->len; i++)
        akc_assert_json_equal (g_ptr_array_index (events, i), akc_json_value_get_element (expected, i));
    }
  if ((expected = akc_fixture_expect (fc, "eventCount")) != NULL)
    g_assert_cmpuint (events->len, ==, (guint) akc_json_value_get_number (expected));
  if ((expected = akc_fixture_expect (fc, "eventsAll")) != NULL)
    for (guint i = 0; i < events->len; i++)
      akc_assert_json_equal (g_ptr_array_index (events, i), expected);
  if ((expected = akc_fixture_expect (fc, "rest")) != NULL)
    {
      gsize n;
      const char *want = akc_json_value_get_string (expected, &n);

      g_assert_cmpuint (rest_len, ==, n);
      g_assert_true (memcmp (rest, want, n) == 0);
      g_assert_cmpuint (strlen (rest), ==, rest_len);
    }
  if ((expected = akc_fixture_expect (fc, "discardedPartial")) != NULL)
    g_assert_cmpint (discarded, ==, akc_json_value_get_boolean (expected));

  /* One feed of the same buffer is one call: same events, the rest kept
   * (or dropped) the same way. */
  {
    g_autoptr(AkcAskEventDecoder) decoder = akc_ask_event_decoder_new ();
    g_autoptr(GPtrArray) fed = akc_ask_event_decoder_feed (decoder, (const guint8 *) buffer, len);
    g_autofree char *a = events_text (fed);
    g_autofree char *b = events_text (events);

    g_assert_cmpstr (a, ==, b);
    g_assert_cmpint (akc_ask_event_decoder_get_discarding (decoder), ==, discarded);
    g_assert_cmpuint (akc_ask_event_decoder_get_pending_size (decoder), ==, rest_len);
  }
}

static GByteArray *
driver_bytes (const AkcFixtureCase *fc,
              GArray               *cuts)
{
  AkcJsonValue *chunks = akc_json_value_get_member (fc->input, "chunks");
  GByteArray *all = g_byte_array_new ();

  for (gsize i = 0; i < akc_json_value_get_length (chunks); i++)
    {
      g_autoptr(GBytes) b = akc_fixture_get_bytes (akc_json_value_get_element (chunks, i));
      gsize n;
      const guint8 *d = g_bytes_get_data (b, &n);

      if (i > 0)
        {
          gsize at = all->len;

          g_array_append_val (cuts, at);
        }
      g_byte_array_append (all, d, n);
    }

  return all;
}

static void
run_driver_case (const AkcFixtureCase *fc,
                 gconstpointer         user_data)
{
  g_autoptr(GArray) cuts = g_array_new (FALSE, FALSE, sizeof (gsize));
  g_autoptr(GByteArray) all = driver_bytes (fc, cuts);
  g_autoptr(GPtrArray) expected_events = new_events ();
  AkcJsonValue *expected = akc_fixture_expect (fc, "events");
  g_autofree char *expected_text = NULL;
  g_autofree char *got = NULL;

  for (gsize i = 0; i < akc_json_value_get_length (expected); i++)
    g_ptr_array_add (expected_events, akc_json_value_ref (akc_json_value_get_element (expected, i)));
  expected_text = events_text (expected_events);

  /* the fixture's own chunks */
  got = stream_cuts (all->data, all->len, (gsize *) cuts->data, cuts->len);
  g_assert_cmpstr (got, ==, expected_text);

  if (all->len <= 4096)
    check_every_split (all->data, all->len, expected_text);
  else
    {
      /* large streams: many chunk sizes, and cuts around the record limit */
      static const gsize steps[] = { 1, 2, 3, 7, 4096, 16384, 65536, 1048576, 1048577 };

      for (guint i = 0; i < G_N_ELEMENTS (steps); i++)
        {
          g_autofree char *g = stream_step (all->data, all->len, steps[i]);

          g_assert_cmpstr (g, ==, expected_text);
        }
      for (gsize at = MAX_RECORD - 4; at <= MAX_RECORD + 4 && at <= all->len; at++)
        {
          g_autofree char *g = stream_cuts (all->data, all->len, &at, 1);

          g_assert_cmpstr (g, ==, expected_text);
        }
      for (gsize at = MAX_RECORD; at < all->len; at++)
        {
          g_autofree char *g = stream_cuts (all->data, all->len, &at, 1);

          g_assert_cmpstr (g, ==, expected_text);
        }
    }
}

/* ------------------------------------------------------------------ */
/* Own cases                                                           */
/* ------------------------------------------------------------------ */

static char *
feed_text (AkcAskEventDecoder *decoder,
           const char         *text,
           gssize              len)
{
  g_autoptr(GPtrArray) events = akc_ask_event_decoder_feed (decoder, (const guint8 *) text,
                                                            len < 0 ? strlen (text) : (gsize) len);

  return events_text (events);
}

static char *
finish_text (AkcAskEventDecoder *decoder)
{
  g_autoptr(GPtrArray) events = akc_ask_event_decoder_finish (decoder);

  return events_text (events);
}

#define assert_feed(decoder, text, len, expected) \
  G_STMT_START { \
    g_autofree char *got_ = feed_text ((decoder), (text), (len)); \
    g_assert_cmpstr (got_, ==, (expected)); \
  } G_STMT_END
#define assert_finish(decoder, expected) \
  G_STMT_START { \
    g_autofree char *got_ = finish_text ((decoder)); \
    g_assert_cmpstr (got_, ==, (expected)); \
  } G_STMT_END

static void
test_records (void)
{
  static const struct {
    const char *line;
    const char *canonical;   /* NULL: inert */
  } cases[] = {
    { "{\"type\":\"tool\",\"id\":\"t\",\"name\":\"n\",\"args\":{\"__proto__\":1,\"a\":[null]}}", "{\"type\":\"tool\",\"id\":\"t\",\"name\":\"n\",\"args\":{\"a\":[null]}}" },
    { "{\"type\":\"tool\",\"id\":\"t\",\"name\":\"n\"}", NULL },
    { "{\"type\":\"tool\",\"id\":\"t\",\"name\":\"n\",\"args\":null}", NULL },
    { "{\"type\":\"error\",\"message\":\"m\",\"retryable\":\"yes\"}", NULL },
    { "{\"type\":\"error\",\"message\":\"m\",\"code\":\"A\"}", "{\"type\":\"error\",\"message\":\"m\",\"code\":\"A\"}" },
    { "{\"type\":\"error\",\"message\":\"m\",\"code\":\"9A\"}", NULL },
    { "{\"type\":\"error\",\"message\":\"m\",\"code\":\"A\\n\"}", NULL },
    { "{\"retryable\":false,\"type\":\"error\",\"message\":\" \"}", "{\"type\":\"error\",\"message\":\" \",\"retryable\":false}" },
    { "{\"type\":\"done\",\"model\":\"\"}", "{\"type\":\"done\",\"model\":\"\"}" },
    { "{\"type\":\"done\",\"__proto__\":{}}", "{\"type\":\"done\"}" },
    { "{\"type\":\"Done\"}", NULL },
    { "{\"type\":null}", NULL },
    { "{}", NULL },
    { "\"done\"", NULL },
    { "{\"type\":\"text\",\"delta\":\"a\\u0000b\"}", "{\"type\":\"text\",\"delta\":\"a\\u0000b\"}" },
    /* an escape that yields a lone surrogate is invalid JSON for the port (§10 item 1) */
    { "{\"type\":\"text\",\"delta\":\"\\ud800\"}", NULL },
    /* §1.4 white space around the record, U+FEFF and U+3000 included */
    { "\xEF\xBB\xBF\xE3\x80\x80\t" DONE "\xE2\x80\xA9\x0B\r", DONE },
    /* U+0085 and U+180E are not white space */
    { "\xC2\x85" DONE, NULL },
    { DONE "\xE1\xA0\x8E", NULL },
    /* a lone CR inside a line is no line break */
    { DONE "\r" DONE, NULL },
    /* invalid UTF-8 is replaced inside strings */
    { "{\"type\":\"text\",\"delta\":\"\xff\xE2\x82\"}", "{\"type\":\"text\",\"delta\":\"\xEF\xBF\xBD\xEF\xBF\xBD\"}" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr(AkcJsonValue) ev = akc_ask_event_decode (cases[i].line, -1);
      g_autofree char *buffer = g_strdup_printf ("%s\n", cases[i].line);
      g_autoptr(GPtrArray) events = akc_ask_events_decode (buffer, -1, NULL, NULL, NULL);

      if (cases[i].canonical == NULL)
        {
          g_assert_null (ev);
          g_assert_cmpuint (events->len, ==, 0);
          continue;
        }
      g_assert_nonnull (ev);
      akc_assert_canonical (ev, cases[i].canonical);
      g_assert_cmpuint (events->len, ==, 1);
      akc_assert_canonical (g_ptr_array_index (events, 0), cases[i].canonical);
    }

  /* a line holding a LF is not one record */
  g_assert_null (akc_ask_event_decode (DONE "\n", -1));
}

static void
test_kinds_and_encode (void)
{
  static const struct {
    const char      *text;
    AkcAskEventKind  kind;
  } cases[] = {
    { "{\"type\":\"text\",\"delta\":\"\"}", AKC_ASK_EVENT_KIND_TEXT },
    { "{\"type\":\"tool\",\"id\":\"\",\"name\":\"\",\"args\":{}}", AKC_ASK_EVENT_KIND_TOOL },
    { DONE, AKC_ASK_EVENT_KIND_DONE },
    { "{\"type\":\"error\",\"message\":\"m\"}", AKC_ASK_EVENT_KIND_ERROR },
  };
  g_autoptr(AkcJsonValue) unordered = akc_json_value_parse ("{\"delta\":\"x\",\"type\":\"text\"}", -1, NULL);
  g_autoptr(AkcJsonValue) extra = akc_json_value_parse ("{\"type\":\"text\",\"delta\":\"x\",\"z\":1}", -1, NULL);
  g_autoptr(AkcJsonValue) array = akc_json_value_parse ("[]", -1, NULL);
  g_autofree char *line = NULL;

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr(AkcJsonValue) ev = akc_ask_event_decode (cases[i].text, -1);

      g_assert_cmpint (akc_ask_event_get_kind (ev), ==, cases[i].kind);
    }
  g_assert_cmpint (akc_ask_event_get_kind (extra), ==, AKC_ASK_EVENT_KIND_TEXT);   /* by type only */
  g_assert_cmpint (akc_ask_event_get_kind (array), ==, AKC_ASK_EVENT_KIND_INVALID);

  line = akc_ask_event_encode (unordered, NULL);
  g_assert_cmpstr (line, ==, "{\"type\":\"text\",\"delta\":\"x\"}\n");
  g_assert_null (akc_ask_event_encode (extra, NULL));
  g_assert_null (akc_ask_event_encode (array, NULL));
}

/* A stream with every kind of difficulty, cut at every position (and
 * every pair of positions), gives what one call on it gives. */
static void
test_every_split (void)
{
  static const char stream[] =
    "{\"type\":\"text\",\"delta\":\"h\xC3\xA9llo \xE2\x9C\x93 \xF0\x9F\x98\x80\"}\r\n"
    "\n"
    "  {\"type\":\"text\",\"delta\":\"bad \xff\xF0\x9F\x98 bytes\"}\xE3\x80\x80\n"
    "{bad}\r\n"
    "{\"type\":\"tool\",\"id\":\"sources-1\",\"name\":\"cite\",\"args\":{\"sources\":[{\"title\":\"Docs\",\"path\":\"/docs\"}]}}\n"
    "\xE2\x80\xA8{\"type\":\"error\",\"message\":\"Nope.\",\"code\":\"ASK_TIMEOUT\",\"retryable\":true}\r"
    "\n{\"type\":\"done\",\"model\":\"m\"}";
  gsize len = sizeof stream - 1;
  g_autofree char *expected = oneshot_with_lf ((const guint8 *) stream, len);

  g_assert_cmpstr (expected, ==,
                   "[{\"type\":\"text\",\"delta\":\"h\xC3\xA9llo \xE2\x9C\x93 \xF0\x9F\x98\x80\"},"
                   "{\"type\":\"text\",\"delta\":\"bad \xEF\xBF\xBD\xEF\xBF\xBD bytes\"},"
                   "{\"type\":\"tool\",\"id\":\"sources-1\",\"name\":\"cite\",\"args\":{\"sources\":[{\"title\":\"Docs\",\"path\":\"/docs\"}]}},"
                   "{\"type\":\"error\",\"message\":\"Nope.\",\"code\":\"ASK_TIMEOUT\",\"retryable\":true},"
                   "{\"type\":\"done\",\"model\":\"m\"}]");
  check_every_split ((const guint8 *) stream, len, expected);
}

/* UTF-8 cut by chunk boundaries decodes as the whole would, including
 * sequences that turn out invalid when their next chunk arrives. */
static void
test_utf8_carry (void)
{
  static const char *const deltas[] = {
    "\xE2\x9C\x93",          /* complete */
    "\xF0\x9F\x98\x80",      /* four bytes */
    "\xE2\x9C",              /* cut, then a quote: U+FFFD */
    "\xF0\x9F\x98",          /* cut three of four */
    "\xED\xA0\x80",          /* a surrogate: two replacements... three */
    "\xE0\x80\xAF",          /* overlong */
    "\xF4\x90\x80\x80",      /* above U+10FFFF */
    "\xC0\xAF",
    "\x80\x80",
    "\xE2\xE2\x9C\x93",
  };

  for (guint i = 0; i < G_N_ELEMENTS (deltas); i++)
    {
      g_autofree char *line = g_strdup_printf ("{\"type\":\"text\",\"delta\":\"%s\"}\n{\"type\":\"text\",\"delta\":\"x%s", deltas[i], deltas[i]);
      gsize len = strlen (line);
      g_autofree char *expected = oneshot_with_lf ((const guint8 *) line, len);

      check_every_split ((const guint8 *) line, len, expected);
    }

  /* a cut sequence at the end of the body becomes U+FFFD at finish */
  {
    g_autoptr(AkcAskEventDecoder) d = akc_ask_event_decoder_new ();

    assert_feed (d, "{\"type\":\"text\",\"delta\":\"a\"}\xE2", -1, "[]");
    assert_finish (d, "[]");
    assert_feed (d, "{\"type\":\"done\"}\xE2\x9C", -1, "[]");
    g_assert_cmpuint (akc_ask_event_decoder_get_pending_size (d), ==, strlen (DONE));   /* the cut bytes are not counted */
    assert_finish (d, "[]");   /* "{…}\uFFFD" is not JSON */
    assert_feed (d, DONE "\xE2\x80", -1, "[]");
    assert_feed (d, "\x80", -1, "[]");   /* completes U+2000, white space */
    assert_finish (d, "[" DONE "]");
  }
}

static void
test_crlf (void)
{
  g_autoptr(AkcAskEventDecoder) d = akc_ask_event_decoder_new ();

  assert_feed (d, DONE "\r", -1, "[]");
  assert_feed (d, "\n\r", -1, "[" DONE "]");
  assert_feed (d, "\r\n", -1, "[]");                /* a blank line of CRs */
  assert_feed (d, DONE "\r" DONE "\r\n", -1, "[]"); /* CR alone ends no line */
  assert_feed (d, "\r" DONE, -1, "[]");
  assert_finish (d, "[" DONE "]");                   /* flushed at the end, leading CR trimmed */
  /* LF CR is a line end followed by a CR starting the next line */
  assert_feed (d, DONE "\n\r" DONE "\n", -1, "[" DONE "," DONE "]");
  assert_finish (d, "[]");
}

/* The per-feed record budget (one feed is one decoder call, §6.2). */
static void
test_budget (void)
{
  g_autoptr(GString) s = g_string_new (NULL);
  g_autoptr(AkcAskEventDecoder) d = akc_ask_event_decoder_new ();
  g_autoptr(GPtrArray) events = NULL;
  guint i;

  for (i = 0; i < 4097; i++)
    g_string_append (s, DONE "\n");

  /* one feed: the 4097th line is dropped */
  events = akc_ask_event_decoder_feed (d, (const guint8 *) s->str, s->len);
  g_assert_cmpuint (events->len, ==, 4096);
  g_clear_pointer (&events, g_ptr_array_unref);

  /* two feeds: each has its own budget */
  events = akc_ask_event_decoder_feed (d, (const guint8 *) s->str, 2000 * 16);
  g_assert_cmpuint (events->len, ==, 2000);
  g_clear_pointer (&events, g_ptr_array_unref);
  events = akc_ask_event_decoder_feed (d, (const guint8 *) s->str + 2000 * 16, s->len - 2000 * 16);
  g_assert_cmpuint (events->len, ==, 2097);
  g_clear_pointer (&events, g_ptr_array_unref);

  /* the line completing the kept partial counts; lines past the budget are
   * dropped up to the last LF, the text after it is kept */
  assert_feed (d, "{\"type\":\"do", -1, "[]");
  g_string_prepend (s, "ne\"}\n");
  g_string_append (s, "{\"type\":\"text\",\"delta\":\"kept\"}");
  events = akc_ask_event_decoder_feed (d, (const guint8 *) s->str, s->len);
  g_assert_cmpuint (events->len, ==, 4096);
  g_clear_pointer (&events, g_ptr_array_unref);
  assert_finish (d, "[{\"type\":\"text\",\"delta\":\"kept\"}]");

  /* blank lines count too */
  g_string_truncate (s, 0);
  for (i = 0; i < 4095; i++)
    g_string_append (s, " \r\n");
  g_string_append (s, DONE "\n" DONE "\n" DONE);
  events = akc_ask_event_decoder_feed (d, (const guint8 *) s->str, s->len);
  g_assert_cmpuint (events->len, ==, 1);
  g_clear_pointer (&events, g_ptr_array_unref);
  assert_finish (d, "[" DONE "]");
}

/* Partials of n and n + 1 bytes, measured after UTF-8 replacement. */
static void
test_partial_bounds (void)
{
  g_autofree char *y = g_strnfill (MAX_RECORD, 'y');
  g_autofree char *ff = g_strnfill (MAX_RECORD / 3 + 1, '\xff');
  g_autoptr(AkcAskEventDecoder) d = akc_ask_event_decoder_new ();

  /* exactly at the limit: kept, and a later LF ends the (invalid) line */
  assert_feed (d, y, MAX_RECORD, "[]");
  g_assert_cmpuint (akc_ask_event_decoder_get_pending_size (d), ==, MAX_RECORD);
  g_assert_false (akc_ask_event_decoder_get_discarding (d));
  assert_feed (d, "\n" DONE "\n", -1, "[" DONE "]");

  /* one byte more, in a later feed: dropped through the next LF */
  assert_feed (d, y, MAX_RECORD, "[]");
  assert_feed (d, "y", 1, "[]");
  g_assert_true (akc_ask_event_decoder_get_discarding (d));
  g_assert_cmpuint (akc_ask_event_decoder_get_pending_size (d), ==, 0);
  assert_feed (d, DONE, -1, "[]");                 /* still the same line */
  assert_feed (d, "\n" DONE "\n", -1, "[" DONE "]");
  g_assert_false (akc_ask_event_decoder_get_discarding (d));

  /* 349525 invalid bytes are 1048575 bytes of U+FFFD: kept; one more: dropped */
  assert_feed (d, ff, MAX_RECORD / 3, "[]");
  g_assert_cmpuint (akc_ask_event_decoder_get_pending_size (d), ==, MAX_RECORD - 1);
  assert_feed (d, "\n", 1, "[]");
  assert_feed (d, ff, MAX_RECORD / 3 + 1, "[]");
  g_assert_true (akc_ask_event_decoder_get_discarding (d));
  assert_finish (d, "[]");
  g_assert_false (akc_ask_event_decoder_get_discarding (d));

  /* a character cut at the end is not counted until it completes */
  assert_feed (d, y, MAX_RECORD - 1, "[]");
  assert_feed (d, "\xE2\x82", 2, "[]");
  g_assert_false (akc_ask_event_decoder_get_discarding (d));
  g_assert_cmpuint (akc_ask_event_decoder_get_pending_size (d), ==, MAX_RECORD - 1);
  assert_feed (d, "\xAC", 1, "[]");
  g_assert_true (akc_ask_event_decoder_get_discarding (d));
  assert_finish (d, "[]");

  /* complete lines: trimmed length n decodes, n + 1 is skipped, also
   * when the line was carried over from an earlier feed */
  for (guint extra = 0; extra < 2; extra++)
    {
      g_autoptr(GString) line = g_string_new ("{\"type\":\"text\",\"delta\":\"");
      g_autofree char *expected = NULL;
      gsize cut;

      while (line->len < MAX_RECORD - 2 + extra)
        g_string_append_c (line, 'a');
      g_string_append (line, "\"}");
      g_assert_cmpuint (line->len, ==, MAX_RECORD + extra);
      g_string_prepend (line, " \t");
      g_string_append (line, "\r\n");
      expected = extra ? g_strdup ("[]") : NULL;
      {
        gsize cuts[] = { 0, 1000, line->len / 2, line->len };

        for (guint k = 0; k < G_N_ELEMENTS (cuts); k++)
          {
            g_autofree char *got = stream_cuts ((const guint8 *) line->str, line->len, &cuts[k], 1);

            if (extra)
              g_assert_cmpstr (got, ==, expected);
            else
              g_assert_cmpuint (strlen (got), >, MAX_RECORD);
          }
      }
      /* cut before the CR LF, the partial holds the padding too: untrimmed,
       * it is over the limit and dropped (as in the reference) */
      cut = line->len - 2;
      {
        g_autofree char *got = stream_cuts ((const guint8 *) line->str, line->len, &cut, 1);

        g_assert_cmpstr (got, ==, "[]");
      }
    }
}

/* A 2 MiB line without LF never makes the decoder hold more than the
 * record limit, whatever the chunking. */
static void
test_memory_bound (void)
{
  const gsize size = 2 * 1024 * 1024;
  g_autofree char *line = g_strnfill (size, 'z');
  g_autofree char *spaces = g_strnfill (size, ' ');
  gsize chunks[] = { 1, 1000, 16384, 1048577, size };

  for (guint i = 0; i < G_N_ELEMENTS (chunks); i++)
    {
      g_autoptr(AkcAskEventDecoder) d = akc_ask_event_decoder_new ();
      gsize max_retained = 0;

      for (gsize pos = 0; pos < size; pos += chunks[i])
        {
          g_autoptr(GPtrArray) ev = akc_ask_event_decoder_feed (d, (const guint8 *) line + pos, MIN (chunks[i], size - pos));

          g_assert_cmpuint (ev->len, ==, 0);
          max_retained = MAX (max_retained, akc_ask_event_decoder_get_retained_size (d));
          g_assert_cmpuint (akc_ask_event_decoder_get_pending_size (d), <=, MAX_RECORD);
        }
      g_assert_cmpuint (max_retained, <=, MAX_RECORD + 3);
      if (chunks[i] > MAX_RECORD)
        g_assert_cmpuint (max_retained, <=, 64 * 1024);   /* an oversized chunk tail is never copied */
      g_assert_true (akc_ask_event_decoder_get_discarding (d));
      assert_feed (d, "zz\n" DONE "\n", -1, "[" DONE "]");
      g_assert_cmpuint (akc_ask_event_decoder_get_retained_size (d), <=, 64 * 1024);
    }

  /* 2 MiB of leading white space, then a record, in one feed: it decodes
   * (only the trimmed line matters for a complete line) and the spaces
   * are never stored */
  {
    g_autoptr(AkcAskEventDecoder) d = akc_ask_event_decoder_new ();
    g_autoptr(GString) s = g_string_new (spaces);

    g_string_append (s, DONE);
    g_string_append (s, spaces);
    g_string_append (s, "\n");
    assert_feed (d, s->str, s->len, "[" DONE "]");
    g_assert_cmpuint (akc_ask_event_decoder_get_retained_size (d), <=, 64 * 1024);

    /* the same padding in a partial line: a partial is measured
     * untrimmed, so it is dropped once over the limit */
    assert_feed (d, " " DONE, -1, "[]");
    assert_feed (d, spaces, MAX_RECORD / 2, "[]");
    g_assert_false (akc_ask_event_decoder_get_discarding (d));
    assert_feed (d, spaces, MAX_RECORD / 2, "[]");
    g_assert_true (akc_ask_event_decoder_get_discarding (d));
    assert_feed (d, "\n" DONE "\n", -1, "[" DONE "]");
  }
}

/* White space that is interior, leading or trailing across feeds. */
static void
test_lazy_white_space (void)
{
  g_autofree char *pad = g_strnfill (600 * 1024, ' ');
  g_autofree char *big = g_strnfill (2 * 1024 * 1024 + 1, ' ');
  g_autoptr(AkcAskEventDecoder) d = akc_ask_event_decoder_new ();

  big[2 * 1024 * 1024] = '\n';

  /* trailing white space across feeds: the complete line trims it away */
  assert_feed (d, DONE, -1, "[]");
  assert_feed (d, pad, 600 * 1024, "[]");
  assert_feed (d, "\t", -1, "[]");
  assert_feed (d, "\n", -1, "[" DONE "]");
  /* …also when there is more of it than the limit, in the feed that ends the line */
  assert_feed (d, DONE, -1, "[]");
  assert_feed (d, big, 2 * 1024 * 1024 + 1, "[" DONE "]");

  /* leading white space across feeds */
  assert_feed (d, pad, 300 * 1024, "[]");
  assert_feed (d, pad, 300 * 1024, "[]");
  assert_feed (d, DONE "\n", -1, "[" DONE "]");

  /* interior white space that makes the trimmed line one record too long */
  assert_feed (d, "{\"type\":\"done\",", -1, "[]");
  assert_feed (d, big, MAX_RECORD - 16, "[]");
  g_assert_false (akc_ask_event_decoder_get_discarding (d));
  assert_feed (d, "\"model\":\"m\"}\n", -1, "[]");
  assert_feed (d, "{\"type\":\"done\",", -1, "[]");
  assert_feed (d, big, 2 * 1024 * 1024, "[]");   /* no LF: dropped */
  g_assert_true (akc_ask_event_decoder_get_discarding (d));
  assert_feed (d, "\n", -1, "[]");
  assert_feed (d, "{\"type\":\"done\",", -1, "[]");
  {
    g_autoptr(GString) s = g_string_new_len (big, 2 * 1024 * 1024);

    g_string_append (s, "\"model\":\"m\"}\n");
    assert_feed (d, s->str, s->len, "[]");
  }
  /* …and one that still fits */
  assert_feed (d, "{\"type\":\"done\",", -1, "[]");
  assert_feed (d, pad, 600 * 1024, "[]");
  assert_feed (d, "\"model\":\"m\"}\n", -1, "[{\"type\":\"done\",\"model\":\"m\"}]");
  assert_finish (d, "[]");
  g_assert_cmpuint (akc_ask_event_decoder_get_retained_size (d), <=, 64 * 1024);
}

static void
test_one_call (void)
{
  g_autofree char *rest = NULL;
  gsize rest_len = 99;
  gboolean discarded = TRUE;
  g_autoptr(GPtrArray) events = NULL;

  /* the rest is the untrimmed partial, after replacement */
  events = akc_ask_events_decode (DONE "\n  \xff{\"type\"", -1, &rest, &rest_len, &discarded);
  g_assert_cmpuint (events->len, ==, 1);
  g_assert_cmpstr (rest, ==, "  \xEF\xBF\xBD{\"type\"");
  g_assert_cmpuint (rest_len, ==, 12);
  g_assert_false (discarded);
  g_clear_pointer (&events, g_ptr_array_unref);
  g_clear_pointer (&rest, g_free);

  /* optional outputs */
  events = akc_ask_events_decode ("", 0, NULL, NULL, NULL);
  g_assert_cmpuint (events->len, ==, 0);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  akc_fixture_add_tests ("protocol/ask-events.json", "/ask-events/fixtures",
                         "decodeAskRecord", run_record_case, NULL);
  akc_fixture_add_tests ("protocol/ask-ndjson-streams.json", "/ask-events/fixtures",
                         "decodeAskEvents", run_events_case, NULL);
  akc_fixture_add_tests ("protocol/ask-ndjson-streams.json", "/ask-events/fixtures",
                         "askStreamDriver", run_driver_case, NULL);

  g_test_add_func ("/ask-events/records", test_records);
  g_test_add_func ("/ask-events/kinds-and-encode", test_kinds_and_encode);
  g_test_add_func ("/ask-events/every-split", test_every_split);
  g_test_add_func ("/ask-events/utf8-carry", test_utf8_carry);
  g_test_add_func ("/ask-events/crlf", test_crlf);
  g_test_add_func ("/ask-events/budget", test_budget);
  g_test_add_func ("/ask-events/partial-bounds", test_partial_bounds);
  g_test_add_func ("/ask-events/memory-bound", test_memory_bound);
  g_test_add_func ("/ask-events/lazy-white-space", test_lazy_white_space);
  g_test_add_func ("/ask-events/one-call", test_one_call);

  return g_test_run ();
}
