/* test-turn.c: the turn protocol (protocol.md §2): events, encoding, the
 * snapshot cursor, message records and the incremental decoder
 *
 * SPDX-License-Identifier: MIT
 */

#include "config.h"

#include <math.h>
#include <string.h>

#include "akc.h"
#include "akc-fixture.h"
#include "akc-json-private.h"
#include "akc-message-record-private.h"
#include "akc-turn-private.h"
#include "akc-test.h"

#define FIXTURES "protocol/turn-events.json"

/* ------------------------------------------------------------------ */
/* Helpers                                                             */
/* ------------------------------------------------------------------ */

static AkcJsonValue *
member (const AkcJsonValue *object,
        const char         *name)
{
  return akc_json_value_get_member (object, name);
}

/* "YYYY-MM-DDTHH:MM:SS.mmmZ" of a GDateTime, as the fixtures write it. */
static char *
iso_ms (GDateTime *dt)
{
  g_autoptr(GDateTime) utc = g_date_time_to_utc (dt);

  return g_strdup_printf ("%04d-%02d-%02dT%02d:%02d:%02d.%03dZ",
                          g_date_time_get_year (utc), g_date_time_get_month (utc),
                          g_date_time_get_day_of_month (utc), g_date_time_get_hour (utc),
                          g_date_time_get_minute (utc), g_date_time_get_second (utc),
                          g_date_time_get_microsecond (utc) / 1000);
}

/* Both results are the same: equal diagnostics, or byte-equal canonical
 * events. */
static void
assert_same (AkcJsonValue  *a,
             AkcDiagnostic *da,
             AkcJsonValue  *b,
             AkcDiagnostic *db)
{
  if (a == NULL)
    {
      g_autofree char *ca = NULL;
      g_autofree char *cb = NULL;

      g_assert_nonnull (da);
      g_assert_null (b);
      g_assert_nonnull (db);
      ca = akc_diagnostic_to_canonical (da, NULL);
      cb = akc_diagnostic_to_canonical (db, NULL);
      g_assert_cmpstr (ca, ==, cb);
    }
  else
    {
      g_autofree char *ca = NULL;
      g_autofree char *cb = NULL;

      g_assert_null (da);
      g_assert_nonnull (b);
      g_assert_null (db);
      ca = akc_json_value_to_canonical (a, NULL);
      cb = akc_json_value_to_canonical (b, NULL);
      g_assert_cmpstr (ca, ==, cb);
      g_assert_true (akc_json_value_equal (a, b));
    }
}

/* Decodes @text with the stateless decoder and with @decoder; both must
 * agree. Returns the stateless result. */
static AkcJsonValue *
decode_both (AkcTurnDecoder  *decoder,
             const char      *text,
             gsize            len,
             AkcDiagnostic  **diagnostic)
{
  g_autoptr(AkcDiagnostic) d1 = NULL;
  g_autoptr(AkcDiagnostic) d2 = NULL;
  g_autoptr(AkcJsonValue) v2 = NULL;
  AkcJsonValue *v1;

  v1 = akc_turn_event_decode (text, (gssize) len, &d1);
  v2 = akc_turn_decoder_decode (decoder, text, (gssize) len, &d2);
  assert_same (v1, d1, v2, d2);

  if (diagnostic != NULL)
    *diagnostic = g_steal_pointer (&d1);
  return v1;
}

static void
assert_diagnostic (const AkcFixtureCase *fc,
                   const AkcDiagnostic  *diagnostic)
{
  const char *event_id = akc_fixture_expect_string (fc, "eventId");
  AkcJsonValue *retryable = akc_fixture_expect (fc, "retryable");

  g_assert_nonnull (diagnostic);
  if (akc_fixture_expect (fc, "code") != NULL)
    g_assert_cmpstr (akc_diagnostic_get_code (diagnostic), ==, akc_fixture_expect_string (fc, "code"));
  if (akc_fixture_expect (fc, "message") != NULL)
    g_assert_cmpstr (akc_diagnostic_get_message (diagnostic), ==, akc_fixture_expect_string (fc, "message"));
  if (retryable != NULL)
    g_assert_cmpint (akc_diagnostic_get_retryable (diagnostic), ==, akc_json_value_get_boolean (retryable));
  /* No eventId in expect: the diagnostic must not carry one (fixtures README §3). */
  g_assert_cmpstr (akc_diagnostic_get_event_id (diagnostic), ==, event_id);
}

static void
assert_event (const AkcFixtureCase *fc,
              AkcJsonValue         *event,
              AkcDiagnostic        *diagnostic)
{
  if (!akc_fixture_expect_ok (fc))
    {
      g_assert_null (event);
      assert_diagnostic (fc, diagnostic);
      return;
    }

  g_assert_null (diagnostic);
  g_assert_nonnull (event);
  if (akc_fixture_expect (fc, "value") != NULL)
    akc_assert_json_equal (event, akc_fixture_expect (fc, "value"));
  if (akc_fixture_expect (fc, "lineage") != NULL)
    akc_assert_json_equal (member (member (event, "payload"), "lineage"),
                           akc_fixture_expect (fc, "lineage"));
}

/* ------------------------------------------------------------------ */
/* Fixtures                                                            */
/* ------------------------------------------------------------------ */

/* Every entry point must give the case's outcome: the value form, the text
 * form, and the incremental decoder (fresh, and after the same text). */
static void
run_decode_case (const AkcFixtureCase *fc,
                 gconstpointer         user_data)
{
  g_autoptr(AkcTurnDecoder) decoder = akc_turn_decoder_new ();
  g_autoptr(AkcDiagnostic) d_text = NULL;
  g_autoptr(AkcJsonValue) v_text = NULL;
  g_autofree char *text = NULL;
  gsize len;

  text = akc_fixture_input_text (fc, &len);
  v_text = decode_both (decoder, text, len, &d_text);
  assert_event (fc, v_text, d_text);

  /* again with the decoder's cache filled by the same text */
  {
    g_autoptr(AkcDiagnostic) d = NULL;
    g_autoptr(AkcJsonValue) v = decode_both (decoder, text, len, &d);

    assert_event (fc, v, d);
  }

  if (g_strcmp0 (fc->input_kind, "value") == 0)
    {
      g_autoptr(AkcDiagnostic) d_value = NULL;
      g_autoptr(AkcJsonValue) v_value = akc_turn_event_decode_value (fc->input, &d_value);

      assert_event (fc, v_value, d_value);
      assert_same (v_value, d_value, v_text, d_text);
    }
  else
    {
      /* a text that parses gives the same result as its value */
      g_autoptr(AkcJsonValue) parsed = akc_json_value_parse (text, (gssize) len, NULL);

      if (parsed != NULL)
        {
          g_autoptr(AkcDiagnostic) d_value = NULL;
          g_autoptr(AkcJsonValue) v_value = akc_turn_event_decode_value (parsed, &d_value);

          assert_same (v_value, d_value, v_text, d_text);
        }
    }
}

static void
run_roundtrip_case (const AkcFixtureCase *fc,
                    gconstpointer         user_data)
{
  g_autoptr(AkcTurnDecoder) decoder = akc_turn_decoder_new ();
  g_autoptr(AkcDiagnostic) diagnostic = NULL;
  g_autoptr(AkcJsonValue) event = NULL;
  g_autoptr(AkcJsonValue) again = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *text = NULL;
  g_autofree char *encoded = NULL;
  const char *canonical = akc_fixture_expect_string (fc, "canonical");
  gsize len, encoded_len;

  g_assert_true (akc_fixture_expect_ok (fc));

  text = akc_fixture_input_text (fc, &len);
  event = decode_both (decoder, text, len, &diagnostic);
  g_assert_null (diagnostic);
  assert_event (fc, event, NULL);

  if (g_strcmp0 (fc->input_kind, "value") == 0)
    {
      g_autoptr(AkcJsonValue) from_value = akc_turn_event_decode_value (fc->input, NULL);

      akc_assert_json_equal (from_value, event);
    }

  encoded = akc_turn_event_encode (event, &encoded_len, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (encoded_len, ==, strlen (encoded));
  if (canonical != NULL)
    g_assert_cmpstr (encoded, ==, canonical);
  akc_assert_canonical (event, encoded);

  /* the encoder validates and normalises the raw input too */
  if (g_strcmp0 (fc->input_kind, "value") == 0)
    {
      g_autofree char *from_raw = akc_turn_event_encode (fc->input, NULL, &error);

      g_assert_no_error (error);
      g_assert_cmpstr (from_raw, ==, encoded);
    }

  again = decode_both (decoder, encoded, encoded_len, NULL);
  akc_assert_json_equal (again, event);
}

static void
run_snapshot_messages_case (const AkcFixtureCase *fc,
                            gconstpointer         user_data)
{
  g_autoptr(GPtrArray) messages = NULL;
  g_autoptr(GError) error = NULL;
  AkcJsonValue *expected = akc_fixture_expect (fc, "messages");
  guint i;

  messages = akc_turn_snapshot_messages (fc->input, &error);
  if (!akc_fixture_expect_ok (fc))
    {
      g_assert_null (messages);
      g_assert_error (error, AKC_PROTOCOL_ERROR, AKC_PROTOCOL_ERROR_PROTOCOL_INVALID_PAYLOAD);
      return;
    }

  g_assert_no_error (error);
  g_assert_nonnull (messages);
  if (expected == NULL)
    return;

  g_assert_cmpuint (messages->len, ==, akc_json_value_get_length (expected));
  for (i = 0; i < messages->len; i++)
    {
      AkcMessageRecord *record = g_ptr_array_index (messages, i);
      AkcJsonValue *want = akc_json_value_get_element (expected, i);
      AkcJsonValue *content = member (want, "content");
      AkcJsonValue *created = member (want, "createdAt");

      if (content != NULL)
        {
          gsize len, want_len;
          const char *got = akc_message_record_get_content (record, &len);
          const char *want_str = akc_json_value_get_string (content, &want_len);

          g_assert_cmpmem (got, len, want_str, want_len);
        }
      if (created != NULL)
        {
          g_autofree char *iso = iso_ms (akc_message_record_get_created_at (record));

          g_assert_cmpint (g_date_time_get_utc_offset (akc_message_record_get_created_at (record)), ==, 0);
          g_assert_cmpstr (iso, ==, akc_json_value_get_string (member (created, "dateTime"), NULL));
        }
    }
}

static gboolean
applied_at (AkcJsonValue *applied,
            gsize         i)
{
  return akc_json_value_get_boolean (akc_json_value_get_element (applied, i));
}

static void
run_cursor_case (const AkcFixtureCase *fc,
                 gconstpointer         user_data)
{
  AkcJsonValue *events = member (fc->input, "apply");
  AkcJsonValue *applied = akc_fixture_expect (fc, "applied");
  const char *session_id = akc_json_value_get_string (member (fc->input, "sessionId"), NULL);
  const char *final_id = akc_fixture_expect_string (fc, "finalEventId");
  g_autoptr(AkcTurnCursor) by_value = NULL;
  g_autoptr(AkcTurnCursor) by_text = NULL;
  g_autoptr(GError) error = NULL;
  gsize i;

  g_assert_true (akc_fixture_expect_ok (fc));
  by_value = akc_turn_cursor_new (session_id, &error);
  g_assert_no_error (error);
  by_text = akc_turn_cursor_new (session_id, &error);
  g_assert_no_error (error);

  g_assert_cmpuint (akc_json_value_get_length (events), ==, akc_json_value_get_length (applied));
  for (i = 0; i < akc_json_value_get_length (events); i++)
    {
      AkcJsonValue *event = akc_json_value_get_element (events, i);
      g_autofree char *text = NULL;
      gsize len;

      g_assert_cmpint (akc_turn_cursor_apply (by_value, event), ==, applied_at (applied, i));

      text = akc_json_value_to_canonical (event, &len);
      g_assert_cmpint (akc_turn_cursor_apply_text (by_text, text, (gssize) len, NULL, NULL), ==,
                       applied_at (applied, i));
    }

  for (i = 0; i < 2; i++)
    {
      AkcTurnCursor *cursor = i == 0 ? by_value : by_text;
      g_autoptr(AkcJsonValue) snapshot = akc_turn_cursor_dup_snapshot (cursor);

      if (final_id != NULL)
        {
          g_assert_nonnull (snapshot);
          g_assert_cmpstr (akc_json_value_get_string (member (snapshot, "eventId"), NULL), ==, final_id);
        }
    }
}

static void
run_create_case (const AkcFixtureCase *fc,
                 gconstpointer         user_data)
{
  AkcJsonValue *in = fc->input;
  AkcJsonValue *wire = member (in, "messages");
  g_autoptr(GPtrArray) records = g_ptr_array_new_with_free_func ((GDestroyNotify) akc_message_record_unref);
  g_autoptr(AkcJsonValue) event = NULL;
  g_autoptr(GError) error = NULL;
  const char *canonical = akc_fixture_expect_string (fc, "canonical");
  const char *first = akc_fixture_expect_string (fc, "firstMessageContent");
  gsize i;

  for (i = 0; i < akc_json_value_get_length (wire); i++)
    {
      AkcMessageRecord *r = akc_message_record_new_from_value (akc_json_value_get_element (wire, i), &error);

      g_assert_no_error (error);
      g_ptr_array_add (records, r);
    }

  event = akc_turn_create_snapshot_event (akc_json_value_get_string (member (in, "eventId"), NULL),
                                          akc_json_value_get_string (member (in, "sessionId"), NULL),
                                          akc_json_value_get_string (member (in, "turnId"), NULL),
                                          (gint64) akc_json_value_get_number (member (in, "sequence")),
                                          akc_json_value_get_string (member (in, "emittedAt"), NULL),
                                          (AkcMessageRecord * const *) records->pdata, records->len,
                                          akc_json_value_get_string (member (in, "status"), NULL),
                                          member (in, "usage"),
                                          member (in, "lineage"),
                                          member (in, "error"),
                                          &error);
  if (!akc_fixture_expect_ok (fc))
    {
      g_assert_null (event);
      g_assert_nonnull (error);
      return;
    }

  g_assert_no_error (error);
  g_assert_nonnull (event);
  if (akc_fixture_expect (fc, "value") != NULL)
    akc_assert_json_equal (event, akc_fixture_expect (fc, "value"));
  if (canonical != NULL)
    akc_assert_canonical (event, canonical);
  if (akc_fixture_expect (fc, "lineage") != NULL)
    akc_assert_json_equal (member (member (event, "payload"), "lineage"), akc_fixture_expect (fc, "lineage"));
  if (first != NULL)
    {
      AkcJsonValue *messages = member (member (event, "payload"), "messages");

      g_assert_cmpstr (akc_json_value_get_string (member (akc_json_value_get_element (messages, 0), "content"), NULL),
                       ==, first);
    }

  /* the created event is a snapshot whose messages come back unchanged */
  {
    g_autoptr(GPtrArray) back = akc_turn_snapshot_messages (event, &error);

    g_assert_no_error (error);
    g_assert_cmpuint (back->len, ==, records->len);
    for (i = 0; i < back->len; i++)
      {
        g_autoptr(AkcJsonValue) a = akc_message_record_to_value (g_ptr_array_index (back, i));
        g_autoptr(AkcJsonValue) b = akc_message_record_to_value (g_ptr_array_index (records, i));

        g_assert_true (akc_json_value_equal (a, b));
        g_assert_true (g_date_time_equal (akc_message_record_get_created_at (g_ptr_array_index (back, i)),
                                          akc_message_record_get_created_at (g_ptr_array_index (records, i))));
      }
  }
}

/* ------------------------------------------------------------------ */
/* Building snapshots                                                  */
/* ------------------------------------------------------------------ */

#define ENVELOPE_HEAD \
  "{\"protocol\":\"agentskit.chat.turn\",\"version\":1,\"eventId\":\"e%u\",\"sessionId\":\"s1\"," \
  "\"turnId\":\"t1\",\"sequence\":%u,\"emittedAt\":\"2026-07-11T03:00:00.000Z\"," \
  "\"event\":\"server.turn.snapshot\",\"payload\":{\"messages\":["
#define ENVELOPE_TAIL \
  "],\"status\":\"streaming\",\"usage\":{\"promptTokens\":1,\"completionTokens\":2,\"totalTokens\":3}}}"

#define RECORD_HEAD \
  "{\"id\":\"m\",\"role\":\"assistant\",\"content\":\"c\",\"status\":\"complete\"," \
  "\"createdAt\":\"2026-07-11T03:00:00.000Z\""
#define RECORD(fields) RECORD_HEAD fields "}"

/* A snapshot whose messages array holds @messages (JSON text, no brackets). */
static char *
snapshot_text (guint       sequence,
               const char *messages)
{
  return g_strdup_printf (ENVELOPE_HEAD "%s" ENVELOPE_TAIL, sequence, sequence, messages);
}

static gboolean
snapshot_ok (const char *messages)
{
  g_autofree char *text = snapshot_text (1, messages);
  g_autoptr(AkcTurnDecoder) decoder = akc_turn_decoder_new ();
  g_autoptr(AkcDiagnostic) diagnostic = NULL;
  g_autoptr(AkcJsonValue) event = decode_both (decoder, text, strlen (text), &diagnostic);

  if (event == NULL)
    {
      g_assert_cmpstr (akc_diagnostic_get_code (diagnostic), ==, "PROTOCOL_INVALID_PAYLOAD");
      g_assert_cmpstr (akc_diagnostic_get_message (diagnostic), ==, "Turn event payload is invalid.");
      g_assert_cmpstr (akc_diagnostic_get_event_id (diagnostic), ==, "e1");
    }
  return event != NULL;
}

/* A record with `content` of @n generated characters, and a stream of
 * snapshots of @n_messages records where the last one grows. */
static char *
conversation_text (guint  n_messages,
                   guint  sequence,
                   guint  last_len)
{
  g_autoptr(GString) s = g_string_new (NULL);
  guint i;

  g_string_append_printf (s, ENVELOPE_HEAD, sequence, sequence);
  for (i = 0; i < n_messages; i++)
    {
      guint len = i + 1 == n_messages ? last_len : 40 + i % 7;

      if (i > 0)
        g_string_append_c (s, ',');
      g_string_append_printf (s, "{\"id\":\"message-%u\",\"role\":\"%s\",\"content\":\"", i,
                              i % 2 == 0 ? "user" : "assistant");
      for (guint k = 0; k < len; k++)
        g_string_append_c (s, "abcdefgh ij"[(i + k) % 11]);
      /* escapes, so that string ends are found the hard way */
      g_string_append (s, i % 3 == 0 ? "\\\"}]q{[\\\\\\\"\\\\" : "\\n\\u00e9\\/{");
      g_string_append_printf (s, "\",\"status\":\"%s\",\"createdAt\":\"2026-07-11T03:%02u:%02u.%03uZ\"",
                              i + 1 == n_messages ? "streaming" : "complete", (i / 60) % 60, i % 60, i % 1000);
      if (i % 5 == 3)
        g_string_append (s, ",\"metadata\":{\"source\":\"x\",\"2\":[1,2.5,null]}");
      g_string_append_c (s, '}');
    }
  g_string_append (s, ENVELOPE_TAIL);

  return g_string_free (g_steal_pointer (&s), FALSE);
}

/* ------------------------------------------------------------------ */
/* §2.6 precedence and eventId echo                                     */
/* ------------------------------------------------------------------ */

static void
assert_decode (const char *text,
               const char *code,
               const char *message,
               const char *event_id)
{
  g_autoptr(AkcTurnDecoder) decoder = akc_turn_decoder_new ();
  g_autoptr(AkcDiagnostic) diagnostic = NULL;
  g_autoptr(AkcJsonValue) event = decode_both (decoder, text, strlen (text), &diagnostic);

  if (code == NULL)
    {
      g_assert_nonnull (event);
      return;
    }
  g_assert_null (event);
  g_assert_cmpstr (akc_diagnostic_get_code (diagnostic), ==, code);
  g_assert_cmpstr (akc_diagnostic_get_message (diagnostic), ==, message);
  g_assert_false (akc_diagnostic_get_retryable (diagnostic));
  g_assert_cmpstr (akc_diagnostic_get_event_id (diagnostic), ==, event_id);
}

#define INVALID     "PROTOCOL_INVALID_PAYLOAD", "Turn event payload is invalid."
#define NOT_JSON    "PROTOCOL_INVALID_PAYLOAD", "Turn event is not valid JSON."
#define UNSUPPORTED "PROTOCOL_UNSUPPORTED_VERSION", "Turn event uses an unsupported protocol version."
#define UNKNOWN     "PROTOCOL_UNKNOWN_EVENT", "Turn event kind is unknown."

#define SUBMIT(version, event, extra) \
  "{\"protocol\":\"agentskit.chat.turn\",\"version\":" version ",\"eventId\":\"e1\",\"sessionId\":\"s1\"," \
  "\"turnId\":\"t1\",\"sequence\":0,\"emittedAt\":\"2026-07-11T03:00:00.000Z\",\"event\":" event "," \
  "\"payload\":{\"input\":\"hi\"}" extra "}"

static void
test_precedence (void)
{
  assert_decode (SUBMIT ("1", "\"client.turn.submit\"", ""), NULL, NULL, NULL);
  /* step 2 before step 3; any other number, also -0, 1.5, overflowed */
  assert_decode (SUBMIT ("2", "\"nope\"", ""), UNSUPPORTED, "e1");
  assert_decode (SUBMIT ("0", "\"client.turn.submit\"", ""), UNSUPPORTED, "e1");
  assert_decode (SUBMIT ("-0", "\"client.turn.submit\"", ""), UNSUPPORTED, "e1");
  assert_decode (SUBMIT ("1e400", "\"client.turn.submit\"", ""), UNSUPPORTED, "e1");
  assert_decode (SUBMIT ("1.0000000000000002", "\"client.turn.submit\"", ""), UNSUPPORTED, "e1");
  assert_decode (SUBMIT ("1e0", "\"client.turn.submit\"", ""), NULL, NULL, NULL);
  /* non-numeric or missing version falls through to step 4 */
  assert_decode (SUBMIT ("\"2\"", "\"nope\"", ""), INVALID, "e1");
  assert_decode (SUBMIT ("null", "\"client.turn.submit\"", ""), INVALID, "e1");
  /* step 3: only a string event; wrong case is unknown */
  assert_decode (SUBMIT ("1", "\"Client.turn.submit\"", ""), UNKNOWN, "e1");
  assert_decode (SUBMIT ("1", "\"\"", ""), UNKNOWN, "e1");
  assert_decode (SUBMIT ("1", "\"client.turn.submit\\u0000\"", ""), UNKNOWN, "e1");
  assert_decode (SUBMIT ("1", "1", ""), INVALID, "e1");
  assert_decode (SUBMIT ("1", "[\"client.turn.submit\"]", ""), INVALID, "e1");
  /* a different or missing protocol skips steps 2 and 3 */
  assert_decode ("{\"protocol\":\"agentskit.chat.turn \",\"version\":2,\"eventId\":\"e1\",\"event\":\"x\"}", INVALID, "e1");
  assert_decode ("{\"version\":2,\"eventId\":\"e1\",\"event\":\"x\"}", INVALID, "e1");
  /* the last duplicate wins, also for the checks of steps 2 and 3 */
  assert_decode (SUBMIT ("2", "\"client.turn.submit\"", ",\"version\":1"), NULL, NULL, NULL);
  assert_decode (SUBMIT ("1", "\"client.turn.submit\"", ",\"version\":3"), UNSUPPORTED, "e1");
  /* not objects */
  assert_decode ("[]", INVALID, NULL);
  assert_decode ("null", INVALID, NULL);
  assert_decode ("\"{}\"", INVALID, NULL);
  assert_decode ("1", INVALID, NULL);
  /* not JSON, including the port's lone-surrogate rule (§10 item 1) */
  assert_decode ("", NOT_JSON, NULL);
  assert_decode (SUBMIT ("1", "\"client.turn.submit\"", ",\"x\":\"\\ud800\""), NOT_JSON, NULL);
  assert_decode (SUBMIT ("1", "\"client.turn.submit\"", ",}"), NOT_JSON, NULL);
}

static void
test_event_id_echo (void)
{
  g_autofree char *id128 = g_strnfill (128, 'a');
  g_autofree char *id129 = g_strnfill (129, 'a');
  g_autofree char *t128 = g_strdup_printf ("{\"eventId\":\"%s\"}", id128);
  g_autofree char *t129 = g_strdup_printf ("{\"eventId\":\"%s\"}", id129);
  g_autofree char *u128 = g_strdup_printf ("{\"protocol\":\"agentskit.chat.turn\",\"version\":7,\"eventId\":\"%s\"}", id128);

  assert_decode (t128, INVALID, id128);
  assert_decode (t129, INVALID, NULL);
  assert_decode (u128, UNSUPPORTED, id128);
  assert_decode ("{\"eventId\":\"A.b:c-d_9\"}", INVALID, "A.b:c-d_9");
  assert_decode ("{\"eventId\":\"-a\"}", INVALID, NULL);
  assert_decode ("{\"eventId\":\"a b\"}", INVALID, NULL);
  assert_decode ("{\"eventId\":\"a\\u0000\"}", INVALID, NULL);
  assert_decode ("{\"eventId\":\"\\u00e9\"}", INVALID, NULL);
  assert_decode ("{\"eventId\":\"\"}", INVALID, NULL);
  assert_decode ("{\"eventId\":7}", INVALID, NULL);
  assert_decode ("{\"eventId\":null}", INVALID, NULL);
  assert_decode ("{\"eventId\":[\"a\"]}", INVALID, NULL);
  /* escapes decode before the check */
  assert_decode ("{\"eventId\":\"\\u0061\"}", INVALID, "a");
  /* the diagnostic holds nothing else of the input */
  {
    g_autoptr(AkcDiagnostic) d = NULL;
    g_autoptr(AkcJsonValue) v = akc_turn_event_decode ("{\"eventId\":\"ok\",\"secret\":\"do-not-leak\"}", -1, &d);
    g_autofree char *c = akc_diagnostic_to_canonical (d, NULL);

    g_assert_null (v);
    g_assert_null (strstr (c, "do-not-leak"));
    g_assert_cmpstr (c, ==, "{\"code\":\"PROTOCOL_INVALID_PAYLOAD\",\"message\":\"Turn event payload is invalid.\","
                            "\"retryable\":false,\"eventId\":\"ok\"}");
  }
}

/* ------------------------------------------------------------------ */
/* Envelope, payloads, lineage: bounds at n and n + 1, null vs absent    */
/* ------------------------------------------------------------------ */

#define ENV(fields, event, payload) \
  "{\"protocol\":\"agentskit.chat.turn\",\"version\":1,\"eventId\":\"e1\",\"sessionId\":\"s1\"," \
  "\"turnId\":\"t1\",\"emittedAt\":\"2026-07-11T03:00:00.000Z\"" fields ",\"event\":\"" event "\"," \
  "\"payload\":" payload "}"
#define SEQ ",\"sequence\":0"
#define DIAG(body) ENV (SEQ, "server.turn.diagnostic", body)
#define SNAP(extra) \
  ENV (SEQ, "server.turn.snapshot", "{\"messages\":[],\"status\":\"idle\"," \
       "\"usage\":{\"promptTokens\":0,\"completionTokens\":0,\"totalTokens\":0}" extra "}")
#define USAGE(p, c, t) \
  ENV (SEQ, "server.turn.snapshot", "{\"messages\":[],\"status\":\"idle\"," \
       "\"usage\":{\"promptTokens\":" p ",\"completionTokens\":" c ",\"totalTokens\":" t "}}")
#define OK NULL, NULL, NULL

static void
test_envelope (void)
{
  g_autofree char *id128 = g_strnfill (128, 'z');
  g_autofree char *id129 = g_strnfill (129, 'z');
  g_autoptr(GString) t = g_string_new (NULL);

  /* sequence: Int >= 0, up to 2^53 - 1 */
  assert_decode (ENV (",\"sequence\":9007199254740991", "client.turn.submit", "{\"input\":\"x\"}"), OK);
  assert_decode (ENV (",\"sequence\":9007199254740992", "client.turn.submit", "{\"input\":\"x\"}"), INVALID, "e1");
  assert_decode (ENV (",\"sequence\":-1", "client.turn.submit", "{\"input\":\"x\"}"), INVALID, "e1");
  assert_decode (ENV (",\"sequence\":-0", "client.turn.submit", "{\"input\":\"x\"}"), OK);
  assert_decode (ENV (",\"sequence\":1e2", "client.turn.submit", "{\"input\":\"x\"}"), OK);
  assert_decode (ENV (",\"sequence\":\"1\"", "client.turn.submit", "{\"input\":\"x\"}"), INVALID, "e1");
  assert_decode (ENV (",\"sequence\":null", "client.turn.submit", "{\"input\":\"x\"}"), INVALID, "e1");
  assert_decode (ENV ("", "client.turn.submit", "{\"input\":\"x\"}"), INVALID, "e1");
  /* -0 is written 0 */
  {
    g_autoptr(AkcJsonValue) e = akc_turn_event_decode (ENV (",\"sequence\":-0", "client.turn.submit", "{\"input\":\"x\"}"), -1, NULL);
    g_autofree char *c = akc_turn_event_encode (e, NULL, NULL);

    g_assert_nonnull (strstr (c, "\"sequence\":0,"));
  }

  /* SafeIds of 128 and 129 characters */
  g_string_printf (t, "{\"protocol\":\"agentskit.chat.turn\",\"version\":1,\"eventId\":\"e1\",\"sessionId\":\"%s\","
                      "\"turnId\":\"t1\",\"sequence\":0,\"emittedAt\":\"2026-07-11T03:00:00Z\","
                      "\"event\":\"client.turn.submit\",\"payload\":{\"input\":\"x\"}}", id128);
  assert_decode (t->str, OK);
  g_string_printf (t, "{\"protocol\":\"agentskit.chat.turn\",\"version\":1,\"eventId\":\"e1\",\"sessionId\":\"%s\","
                      "\"turnId\":\"t1\",\"sequence\":0,\"emittedAt\":\"2026-07-11T03:00:00Z\","
                      "\"event\":\"client.turn.submit\",\"payload\":{\"input\":\"x\"}}", id129);
  assert_decode (t->str, INVALID, "e1");
  assert_decode ("{\"protocol\":\"agentskit.chat.turn\",\"version\":1,\"eventId\":\"e1\",\"sessionId\":\"s1\","
                 "\"turnId\":\"t\\n\",\"sequence\":0,\"emittedAt\":\"2026-07-11T03:00:00Z\","
                 "\"event\":\"client.turn.submit\",\"payload\":{\"input\":\"x\"}}", INVALID, "e1");

  /* payload must be an object of the event's kind */
  assert_decode (ENV (SEQ, "client.turn.submit", "null"), INVALID, "e1");
  assert_decode (ENV (SEQ, "client.turn.submit", "[]"), INVALID, "e1");
  assert_decode (ENV (SEQ, "client.turn.submit", "{\"input\":\"x\",\"messages\":[]}"), OK);
  assert_decode (ENV (SEQ, "server.turn.snapshot", "{\"input\":\"x\"}"), INVALID, "e1");
}

static void
test_submit_payload (void)
{
  assert_decode (ENV (SEQ, "client.turn.submit", "{\"input\":\"x\"}"), OK);
  assert_decode (ENV (SEQ, "client.turn.submit", "{\"input\":\"\"}"), INVALID, "e1");
  assert_decode (ENV (SEQ, "client.turn.submit", "{\"input\":\" \\t\\n\\u000b\\u000c\\r\\u2028\\u2029\\u3000\"}"),
                 INVALID, "e1");
  assert_decode (ENV (SEQ, "client.turn.submit", "{\"input\":\"\\u180e\"}"), OK);
  assert_decode (ENV (SEQ, "client.turn.submit", "{\"input\":\"\\u0000\"}"), OK);
  assert_decode (ENV (SEQ, "client.turn.submit", "{\"input\":null}"), INVALID, "e1");
  assert_decode (ENV (SEQ, "client.turn.submit", "{}"), INVALID, "e1");
  /* the input is kept untrimmed, U+0000 included */
  {
    g_autoptr(AkcJsonValue) e = akc_turn_event_decode (ENV (SEQ, "client.turn.submit", "{\"input\":\" a\\u0000b \"}"), -1, NULL);
    gsize len;
    const char *s = akc_json_value_get_string (member (member (e, "payload"), "input"), &len);
    g_autofree char *c = akc_turn_event_encode (e, NULL, NULL);

    g_assert_cmpmem (s, len, " a\0b ", 5);
    g_assert_nonnull (strstr (c, "{\"input\":\" a\\u0000b \"}"));
  }
}

static void
test_diagnostic_payload (void)
{
  assert_decode (DIAG ("{\"version\":1,\"code\":\"A\",\"message\":\"m\",\"retryable\":true}"), OK);
  assert_decode (DIAG ("{\"version\":1.0,\"code\":\"A_1\",\"message\":\" \",\"retryable\":false}"), OK);
  assert_decode (DIAG ("{\"version\":2,\"code\":\"A\",\"message\":\"m\",\"retryable\":true}"), INVALID, "e1");
  assert_decode (DIAG ("{\"version\":\"1\",\"code\":\"A\",\"message\":\"m\",\"retryable\":true}"), INVALID, "e1");
  assert_decode (DIAG ("{\"version\":1,\"code\":\"a\",\"message\":\"m\",\"retryable\":true}"), INVALID, "e1");
  assert_decode (DIAG ("{\"version\":1,\"code\":\"1A\",\"message\":\"m\",\"retryable\":true}"), INVALID, "e1");
  assert_decode (DIAG ("{\"version\":1,\"code\":\"A-B\",\"message\":\"m\",\"retryable\":true}"), INVALID, "e1");
  assert_decode (DIAG ("{\"version\":1,\"code\":\"A\\n\",\"message\":\"m\",\"retryable\":true}"), INVALID, "e1");
  assert_decode (DIAG ("{\"version\":1,\"code\":\"A\",\"message\":\"\",\"retryable\":true}"), INVALID, "e1");
  assert_decode (DIAG ("{\"version\":1,\"code\":\"A\",\"message\":\"m\",\"retryable\":\"false\"}"), INVALID, "e1");
  assert_decode (DIAG ("{\"version\":1,\"code\":\"A\",\"message\":\"m\",\"retryable\":null}"), INVALID, "e1");
  assert_decode (DIAG ("{\"version\":1,\"code\":\"A\",\"message\":\"m\"}"), INVALID, "e1");
  /* TurnCode has no upper bound */
  {
    g_autofree char *code = g_strnfill (5000, 'Z');
    g_autofree char *t = g_strdup_printf (DIAG ("{\"version\":1,\"code\":\"%s\",\"message\":\"m\",\"retryable\":true}"), code);

    assert_decode (t, OK);
  }
}

static void
test_snapshot_payload (void)
{
  assert_decode (SNAP (""), OK);
  assert_decode (SNAP (",\"error\":{\"version\":1,\"code\":\"X\",\"message\":\"m\",\"retryable\":false}"), OK);
  assert_decode (SNAP (",\"error\":null"), INVALID, "e1");
  assert_decode (SNAP (",\"error\":{\"version\":1,\"code\":\"x\",\"message\":\"m\",\"retryable\":false}"), INVALID, "e1");
  assert_decode (SNAP (",\"lineage\":null"), INVALID, "e1");
  assert_decode (SNAP (",\"lineage\":{\"operation\":\"submit\",\"parentTurnId\":\"-bad-\"}"), OK);
  assert_decode (SNAP (",\"lineage\":{\"operation\":\"retry\",\"parentTurnId\":\"p\",\"sourceMessageId\":\"m\"}"), OK);
  assert_decode (SNAP (",\"lineage\":{\"operation\":\"edit\",\"parentTurnId\":\"p\"}"), INVALID, "e1");
  assert_decode (SNAP (",\"lineage\":{\"operation\":\"edit\",\"sourceMessageId\":\"m\"}"), INVALID, "e1");
  assert_decode (SNAP (",\"lineage\":{\"operation\":\"retry\",\"parentTurnId\":\"p q\",\"sourceMessageId\":\"m\"}"), INVALID, "e1");
  assert_decode (SNAP (",\"lineage\":{\"operation\":\"retry\",\"parentTurnId\":\"p\",\"sourceMessageId\":null}"), INVALID, "e1");
  assert_decode (SNAP (",\"lineage\":{\"operation\":\"fork\"}"), INVALID, "e1");
  assert_decode (SNAP (",\"lineage\":{\"operation\":\"Submit\"}"), INVALID, "e1");
  assert_decode (SNAP (",\"lineage\":{}"), INVALID, "e1");
  assert_decode (SNAP (",\"lineage\":[]"), INVALID, "e1");
  /* status */
  assert_decode (ENV (SEQ, "server.turn.snapshot", "{\"messages\":[],\"status\":\"done\","
                      "\"usage\":{\"promptTokens\":0,\"completionTokens\":0,\"totalTokens\":0}}"), INVALID, "e1");
  assert_decode (ENV (SEQ, "server.turn.snapshot", "{\"messages\":[],"
                      "\"usage\":{\"promptTokens\":0,\"completionTokens\":0,\"totalTokens\":0}}"), INVALID, "e1");
  assert_decode (ENV (SEQ, "server.turn.snapshot", "{\"messages\":{},\"status\":\"idle\","
                      "\"usage\":{\"promptTokens\":0,\"completionTokens\":0,\"totalTokens\":0}}"), INVALID, "e1");
  assert_decode (ENV (SEQ, "server.turn.snapshot", "{\"messages\":null,\"status\":\"idle\","
                      "\"usage\":{\"promptTokens\":0,\"completionTokens\":0,\"totalTokens\":0}}"), INVALID, "e1");
  assert_decode (ENV (SEQ, "server.turn.snapshot", "{\"status\":\"idle\","
                      "\"usage\":{\"promptTokens\":0,\"completionTokens\":0,\"totalTokens\":0}}"), INVALID, "e1");
  /* usage */
  assert_decode (USAGE ("1", "2", "99"), OK);
  assert_decode (USAGE ("9007199254740991", "0", "0"), OK);
  assert_decode (USAGE ("9007199254740992", "0", "0"), INVALID, "e1");
  assert_decode (USAGE ("0", "-1", "0"), INVALID, "e1");
  assert_decode (USAGE ("0", "0", "0.5"), INVALID, "e1");
  assert_decode (USAGE ("0", "0", "null"), INVALID, "e1");
  assert_decode (ENV (SEQ, "server.turn.snapshot", "{\"messages\":[],\"status\":\"idle\",\"usage\":null}"), INVALID, "e1");
  /* canonical order of the payload, extras dropped */
  {
    g_autoptr(AkcJsonValue) e = akc_turn_event_decode (
      ENV (SEQ, "server.turn.snapshot",
           "{\"lineage\":{\"x\":1,\"operation\":\"submit\"},\"future\":1,\"usage\":{\"totalTokens\":3,\"x\":[],"
           "\"completionTokens\":2,\"promptTokens\":1},\"error\":{\"retryable\":true,\"message\":\"m\",\"code\":\"C\","
           "\"version\":1,\"y\":2},\"status\":\"error\",\"messages\":[]}"), -1, NULL);
    g_autofree char *c = akc_turn_event_encode (e, NULL, NULL);

    g_assert_cmpstr (c, ==,
                     "{\"protocol\":\"agentskit.chat.turn\",\"version\":1,\"eventId\":\"e1\",\"sessionId\":\"s1\","
                     "\"turnId\":\"t1\",\"sequence\":0,\"emittedAt\":\"2026-07-11T03:00:00.000Z\","
                     "\"event\":\"server.turn.snapshot\",\"payload\":{\"messages\":[],\"status\":\"error\","
                     "\"usage\":{\"promptTokens\":1,\"completionTokens\":2,\"totalTokens\":3},"
                     "\"error\":{\"version\":1,\"code\":\"C\",\"message\":\"m\",\"retryable\":true},"
                     "\"lineage\":{\"operation\":\"submit\"}}}");
  }
}

/* ------------------------------------------------------------------ */
/* §2.9 message records                                                  */
/* ------------------------------------------------------------------ */

static void
test_message_record_fields (void)
{
  g_assert_true (snapshot_ok (RECORD ("")));
  g_assert_true (snapshot_ok (RECORD ("") "," RECORD ("")));   /* ids need not be unique */
  g_assert_false (snapshot_ok ("1"));
  g_assert_false (snapshot_ok ("null"));
  g_assert_false (snapshot_ok ("[]"));
  /* id: any non-empty text, no pattern */
  g_assert_true (snapshot_ok ("{\"id\":\" a b\\n\\u0000\",\"role\":\"user\",\"content\":\"\",\"status\":\"pending\",\"createdAt\":\"2026-07-11T03:00:00.000Z\"}"));
  g_assert_false (snapshot_ok ("{\"id\":\"\",\"role\":\"user\",\"content\":\"\",\"status\":\"pending\",\"createdAt\":\"2026-07-11T03:00:00.000Z\"}"));
  g_assert_false (snapshot_ok ("{\"id\":1,\"role\":\"user\",\"content\":\"\",\"status\":\"pending\",\"createdAt\":\"2026-07-11T03:00:00.000Z\"}"));
  g_assert_false (snapshot_ok ("{\"role\":\"user\",\"content\":\"\",\"status\":\"pending\",\"createdAt\":\"2026-07-11T03:00:00.000Z\"}"));
  /* role, status */
  g_assert_true (snapshot_ok ("{\"id\":\"m\",\"role\":\"system\",\"content\":\"\",\"status\":\"error\",\"createdAt\":\"2026-07-11T03:00:00.000Z\"}"));
  g_assert_true (snapshot_ok ("{\"id\":\"m\",\"role\":\"tool\",\"content\":\"\",\"status\":\"streaming\",\"createdAt\":\"2026-07-11T03:00:00.000Z\"}"));
  g_assert_false (snapshot_ok ("{\"id\":\"m\",\"role\":\"User\",\"content\":\"\",\"status\":\"pending\",\"createdAt\":\"2026-07-11T03:00:00.000Z\"}"));
  g_assert_false (snapshot_ok ("{\"id\":\"m\",\"role\":\"user\",\"content\":\"\",\"status\":\"cancelled\",\"createdAt\":\"2026-07-11T03:00:00.000Z\"}"));
  /* content: any string, not null, not absent */
  g_assert_false (snapshot_ok ("{\"id\":\"m\",\"role\":\"user\",\"content\":null,\"status\":\"pending\",\"createdAt\":\"2026-07-11T03:00:00.000Z\"}"));
  g_assert_false (snapshot_ok ("{\"id\":\"m\",\"role\":\"user\",\"status\":\"pending\",\"createdAt\":\"2026-07-11T03:00:00.000Z\"}"));
  /* optional members: absent is fine, null is not */
  g_assert_true (snapshot_ok (RECORD (",\"toolCallId\":\"\"")));
  g_assert_false (snapshot_ok (RECORD (",\"toolCallId\":null")));
  g_assert_false (snapshot_ok (RECORD (",\"toolCallId\":1")));
  g_assert_true (snapshot_ok (RECORD (",\"parts\":[]")));
  g_assert_false (snapshot_ok (RECORD (",\"parts\":null")));
  g_assert_false (snapshot_ok (RECORD (",\"parts\":{}")));
  g_assert_true (snapshot_ok (RECORD (",\"toolCalls\":[]")));
  g_assert_false (snapshot_ok (RECORD (",\"toolCalls\":null")));
  g_assert_true (snapshot_ok (RECORD (",\"metadata\":{\"a\":null,\"b\":[{}]}")));
  g_assert_false (snapshot_ok (RECORD (",\"metadata\":null")));
  g_assert_false (snapshot_ok (RECORD (",\"metadata\":[]")));
  g_assert_false (snapshot_ok (RECORD (",\"metadata\":\"{}\"")));
  /* unknown members are dropped, even ill-typed ones */
  g_assert_true (snapshot_ok (RECORD (",\"future\":null,\"__proto__\":[]")));
}

static void
test_message_timestamp (void)
{
  static const struct { const char *ts; gboolean ok; } cases[] = {
    { "2026-07-11T03:00:00.000Z", TRUE },
    { "2024-02-29T00:00:00.000Z", TRUE },
    { "2000-02-29T23:59:59.999Z", TRUE },
    { "0000-02-29T00:00:00.000Z", TRUE },     /* year 0 is a leap year */
    { "9999-12-31T23:59:59.999Z", TRUE },
    { "2026-01-31T00:00:00.000Z", TRUE },
    { "2026-04-30T00:00:00.000Z", TRUE },
    { "2023-02-29T00:00:00.000Z", FALSE },
    { "1900-02-29T00:00:00.000Z", FALSE },
    { "2026-02-30T00:00:00.000Z", FALSE },
    { "2026-04-31T00:00:00.000Z", FALSE },
    { "2026-00-10T00:00:00.000Z", FALSE },
    { "2026-13-10T00:00:00.000Z", FALSE },
    { "2026-01-00T00:00:00.000Z", FALSE },
    { "2026-01-32T00:00:00.000Z", FALSE },
    { "2026-07-11T24:00:00.000Z", FALSE },
    { "2026-07-11T23:60:00.000Z", FALSE },
    { "2026-07-11T23:59:60.000Z", FALSE },
    { "2026-07-11T03:00:00.000z", FALSE },
    { "2026-07-11t03:00:00.000Z", FALSE },
    { "2026-07-11T03:00:00Z", FALSE },
    { "2026-07-11T03:00:00.00Z", FALSE },
    { "2026-07-11T03:00:00.0000Z", FALSE },
    { "2026-07-11T03:00:00.000+00:00", FALSE },
    { "2026-07-11T03:00:00.000Z\n", FALSE },
    { " 2026-07-11T03:00:00.000Z", FALSE },
    { "+02026-07-11T03:00:00.000Z", FALSE },
    { "2026-07-11 03:00:00.000Z", FALSE },
    { "\xef\xbc\x92""026-07-11T03:00:00.000Z", FALSE },   /* fullwidth digit */
    { "", FALSE },
  };
  char high_bytes[129];
  guint i;

  /* g_strescape() writes octal escapes, which JSON lacks: keep UTF-8 as is */
  for (i = 0; i < 128; i++)
    high_bytes[i] = (char) (0x80 + i);
  high_bytes[128] = '\0';

  for (i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *escaped = g_strescape (cases[i].ts, high_bytes);
      g_autofree char *record_escaped = NULL;

      g_test_message ("createdAt %s", escaped);
      g_assert_cmpint (akc_message_timestamp_is_valid (cases[i].ts, strlen (cases[i].ts)), ==, cases[i].ok);
      record_escaped = g_strdup_printf ("{\"id\":\"m\",\"role\":\"user\",\"content\":\"\",\"status\":\"pending\","
                                        "\"createdAt\":\"%s\"}", escaped);
      g_assert_cmpint (snapshot_ok (record_escaped), ==, cases[i].ok);
    }
  /* not a string */
  g_assert_false (snapshot_ok ("{\"id\":\"m\",\"role\":\"user\",\"content\":\"\",\"status\":\"pending\",\"createdAt\":1}"));
}

static void
test_parts (void)
{
  /* every variant, optional members present and absent */
  g_assert_true (snapshot_ok (RECORD (",\"parts\":[{\"type\":\"text\",\"text\":\"\"},"
                                      "{\"type\":\"image\",\"source\":\"s\"},"
                                      "{\"type\":\"image\",\"source\":\"s\",\"mimeType\":\"image/png\",\"detail\":\"auto\"},"
                                      "{\"type\":\"audio\",\"source\":\"s\",\"durationSec\":0},"
                                      "{\"type\":\"audio\",\"source\":\"s\",\"durationSec\":-0},"
                                      "{\"type\":\"video\",\"source\":\"s\",\"durationSec\":1.5,\"mimeType\":\"\"},"
                                      "{\"type\":\"file\",\"source\":\"s\",\"filename\":\"f\"}]")));
  /* text parts: anything else is dropped unchecked */
  g_assert_true (snapshot_ok (RECORD (",\"parts\":[{\"type\":\"text\",\"text\":\"t\",\"source\":5,\"mimeType\":null}]")));
  g_assert_false (snapshot_ok (RECORD (",\"parts\":[{\"type\":\"text\"}]")));
  g_assert_false (snapshot_ok (RECORD (",\"parts\":[{\"type\":\"text\",\"text\":null}]")));
  /* members of other variants are dropped unchecked */
  g_assert_true (snapshot_ok (RECORD (",\"parts\":[{\"type\":\"image\",\"source\":\"s\",\"durationSec\":\"x\",\"filename\":1}]")));
  g_assert_true (snapshot_ok (RECORD (",\"parts\":[{\"type\":\"file\",\"source\":\"s\",\"detail\":\"huge\"}]")));
  /* source required string; mimeType optional string, not null */
  g_assert_false (snapshot_ok (RECORD (",\"parts\":[{\"type\":\"image\"}]")));
  g_assert_false (snapshot_ok (RECORD (",\"parts\":[{\"type\":\"audio\",\"source\":null}]")));
  g_assert_false (snapshot_ok (RECORD (",\"parts\":[{\"type\":\"video\",\"source\":\"s\",\"mimeType\":null}]")));
  g_assert_false (snapshot_ok (RECORD (",\"parts\":[{\"type\":\"file\",\"source\":\"s\",\"filename\":null}]")));
  /* detail: the three strings only (§10 item 5) */
  g_assert_false (snapshot_ok (RECORD (",\"parts\":[{\"type\":\"image\",\"source\":\"s\",\"detail\":[\"low\"]}]")));
  g_assert_false (snapshot_ok (RECORD (",\"parts\":[{\"type\":\"image\",\"source\":\"s\",\"detail\":null}]")));
  g_assert_false (snapshot_ok (RECORD (",\"parts\":[{\"type\":\"image\",\"source\":\"s\",\"detail\":\"LOW\"}]")));
  /* durationSec: finite number >= 0 */
  g_assert_false (snapshot_ok (RECORD (",\"parts\":[{\"type\":\"audio\",\"source\":\"s\",\"durationSec\":-0.001}]")));
  g_assert_false (snapshot_ok (RECORD (",\"parts\":[{\"type\":\"video\",\"source\":\"s\",\"durationSec\":\"1\"}]")));
  g_assert_false (snapshot_ok (RECORD (",\"parts\":[{\"type\":\"video\",\"source\":\"s\",\"durationSec\":1e400}]")));
  g_assert_false (snapshot_ok (RECORD (",\"parts\":[{\"type\":\"video\",\"source\":\"s\",\"durationSec\":null}]")));
  /* type */
  g_assert_false (snapshot_ok (RECORD (",\"parts\":[{\"type\":\"Text\",\"text\":\"t\"}]")));
  g_assert_false (snapshot_ok (RECORD (",\"parts\":[{\"text\":\"t\"}]")));
  g_assert_false (snapshot_ok (RECORD (",\"parts\":[{\"type\":null,\"text\":\"t\"}]")));
  g_assert_false (snapshot_ok (RECORD (",\"parts\":[\"text\"]")));
  g_assert_false (snapshot_ok (RECORD (",\"parts\":[null]")));
}

static void
test_tool_calls (void)
{
  g_assert_true (snapshot_ok (RECORD (",\"toolCalls\":[{\"id\":\"i\",\"name\":\"n\",\"args\":{},\"status\":\"requires_confirmation\","
                                      "\"result\":\"\",\"error\":\"e\"}]")));
  g_assert_true (snapshot_ok (RECORD (",\"toolCalls\":[{\"id\":\"i\",\"name\":\"n\",\"args\":{\"a\":[null,{\"b\":1}]},\"status\":\"running\"}]")));
  g_assert_false (snapshot_ok (RECORD (",\"toolCalls\":[{\"id\":\"i\",\"name\":\"n\",\"args\":null,\"status\":\"running\"}]")));
  g_assert_false (snapshot_ok (RECORD (",\"toolCalls\":[{\"id\":\"i\",\"name\":\"n\",\"status\":\"running\"}]")));
  g_assert_false (snapshot_ok (RECORD (",\"toolCalls\":[{\"id\":\"i\",\"name\":\"n\",\"args\":\"{}\",\"status\":\"running\"}]")));
  g_assert_false (snapshot_ok (RECORD (",\"toolCalls\":[{\"id\":\"i\",\"name\":\"n\",\"args\":{},\"status\":\"done\"}]")));
  g_assert_false (snapshot_ok (RECORD (",\"toolCalls\":[{\"id\":\"i\",\"name\":\"n\",\"args\":{},\"status\":\"running\",\"result\":null}]")));
  g_assert_false (snapshot_ok (RECORD (",\"toolCalls\":[{\"id\":\"i\",\"name\":\"n\",\"args\":{},\"status\":\"running\",\"error\":{}}]")));
  g_assert_false (snapshot_ok (RECORD (",\"toolCalls\":[{\"id\":\"\",\"name\":\"n\",\"args\":{},\"status\":\"running\"}]")));
  g_assert_false (snapshot_ok (RECORD (",\"toolCalls\":[{\"id\":\"i\",\"name\":\"\",\"args\":{},\"status\":\"running\"}]")));
  g_assert_false (snapshot_ok (RECORD (",\"toolCalls\":[{\"id\":1,\"name\":\"n\",\"args\":{},\"status\":\"running\"}]")));
  g_assert_false (snapshot_ok (RECORD (",\"toolCalls\":[[]]")));
}

/* Projection (§2.9.4): order at every level, free-form members verbatim in
 * ECMAScript own-property order. */
static void
test_projection (void)
{
  g_autofree char *text = snapshot_text (1,
    "{\"metadata\":{\"b\":1,\"10\":-0,\"a\":{\"z\":1,\"1\":2},\"2\":\"\\u001f\"},\"x\":1,"
    "\"toolCallId\":\"tc\",\"toolCalls\":[{\"error\":\"e\",\"result\":\"r\",\"status\":\"error\",\"args\":{\"y\":[1e21,1e-7,0.000001]},"
    "\"name\":\"n\",\"id\":\"i\",\"q\":0}],\"parts\":[{\"durationSec\":2,\"source\":\"s\",\"type\":\"audio\",\"mimeType\":\"m\"},"
    "{\"filename\":\"f\",\"mimeType\":\"m\",\"source\":\"s\",\"type\":\"file\"},"
    "{\"detail\":\"low\",\"mimeType\":\"m\",\"source\":\"s\",\"type\":\"image\"},{\"text\":\"t\",\"type\":\"text\"}],"
    "\"createdAt\":\"2026-07-11T03:00:00.000Z\",\"status\":\"complete\",\"content\":\"c\",\"role\":\"tool\",\"id\":\"m\"}");
  g_autoptr(AkcJsonValue) event = akc_turn_event_decode (text, -1, NULL);
  g_autofree char *encoded = akc_turn_event_encode (event, NULL, NULL);
  const char *messages = strstr (encoded, "\"messages\":");

  g_assert_nonnull (messages);
  g_assert_true (g_str_has_prefix (messages,
    "\"messages\":[{\"id\":\"m\",\"role\":\"tool\",\"content\":\"c\",\"status\":\"complete\","
    "\"createdAt\":\"2026-07-11T03:00:00.000Z\","
    "\"parts\":[{\"type\":\"audio\",\"source\":\"s\",\"mimeType\":\"m\",\"durationSec\":2},"
    "{\"type\":\"file\",\"source\":\"s\",\"mimeType\":\"m\",\"filename\":\"f\"},"
    "{\"type\":\"image\",\"source\":\"s\",\"mimeType\":\"m\",\"detail\":\"low\"},{\"type\":\"text\",\"text\":\"t\"}],"
    "\"toolCalls\":[{\"id\":\"i\",\"name\":\"n\",\"args\":{\"y\":[1e+21,1e-7,0.000001]},\"status\":\"error\","
    "\"result\":\"r\",\"error\":\"e\"}],\"toolCallId\":\"tc\","
    "\"metadata\":{\"2\":\"\\u001f\",\"10\":0,\"b\":1,\"a\":{\"1\":2,\"z\":1}}}]"));
}

/* U+0000 and invalid UTF-8 in content (§1.2: replaced by U+FFFD). */
static void
test_content_bytes (void)
{
  g_autofree char *text = snapshot_text (1,
    "{\"id\":\"m\\u0000n\",\"role\":\"user\",\"content\":\"a\\u0000b\\u0000\",\"status\":\"pending\","
    "\"createdAt\":\"2026-07-11T03:00:00.000Z\"}");
  g_autoptr(AkcJsonValue) event = akc_turn_event_decode (text, -1, NULL);
  g_autoptr(GPtrArray) records = NULL;
  g_autofree char *encoded = NULL;
  g_autoptr(GError) error = NULL;
  const char *s;
  gsize len;

  g_assert_nonnull (event);
  records = akc_turn_snapshot_messages (event, &error);
  g_assert_no_error (error);
  s = akc_message_record_get_content (g_ptr_array_index (records, 0), &len);
  g_assert_cmpmem (s, len, "a\0b\0", 4);
  s = akc_message_record_get_id (g_ptr_array_index (records, 0), &len);
  g_assert_cmpmem (s, len, "m\0n", 3);
  encoded = akc_turn_event_encode (event, NULL, NULL);
  g_assert_nonnull (strstr (encoded, "\"content\":\"a\\u0000b\\u0000\""));

  /* invalid UTF-8 inside a string is replaced, outside it is a syntax error */
  {
    g_autofree char *t2 = snapshot_text (1, "{\"id\":\"m\",\"role\":\"user\",\"content\":\"a\xff\xc3(\",\"status\":\"pending\","
                                            "\"createdAt\":\"2026-07-11T03:00:00.000Z\"}");
    g_autofree char *t3 = snapshot_text (1, "\xff");
    g_autoptr(AkcTurnDecoder) decoder = akc_turn_decoder_new ();
    g_autoptr(AkcJsonValue) e2 = decode_both (decoder, t2, strlen (t2), NULL);
    g_autoptr(AkcDiagnostic) d3 = NULL;
    g_autoptr(AkcJsonValue) e3 = decode_both (decoder, t3, strlen (t3), &d3);
    AkcJsonValue *content = member (akc_json_value_get_element (member (member (e2, "payload"), "messages"), 0), "content");

    g_assert_cmpstr (akc_json_value_get_string (content, NULL), ==, "a\xef\xbf\xbd\xef\xbf\xbd(");
    g_assert_null (e3);
    g_assert_cmpstr (akc_diagnostic_get_message (d3), ==, "Turn event is not valid JSON.");
  }
}

/* §2.9.1 at n and n + 1. */
static void
test_structural_limits (void)
{
  g_autoptr(GString) m = g_string_new (NULL);
  guint i;

  /* total values: wrapper (3) + record (6) + metadata (1) + array (1) + k */
  for (i = 0; i < 2; i++)
    {
      guint k = 9989 + i, j;

      g_string_assign (m, RECORD_HEAD ",\"metadata\":{\"a\":[");
      for (j = 0; j < k; j++)
        g_string_append (m, j ? ",0" : "0");
      g_string_append (m, "]}}");
      g_assert_cmpint (snapshot_ok (m->str), ==, i == 0);
    }

  /* the same total spread over many records: 3 + 1666 * 6 = 9999, then
   * the last record gets 1 (10 000) or 2 (10 001) more values */
  for (i = 0; i < 2; i++)
    {
      guint j;

      g_string_truncate (m, 0);
      for (j = 0; j < 1665; j++)
        g_string_append (m, RECORD ("") ",");
      g_string_append (m, i == 0 ? RECORD (",\"toolCallId\":\"\"") : RECORD (",\"toolCallId\":\"\",\"metadata\":{}"));
      g_assert_cmpint (snapshot_ok (m->str), ==, i == 0);
    }

  /* member names: len16 256 / 257 (an astral character counts 2) */
  for (i = 0; i < 2; i++)
    {
      guint j;

      g_string_assign (m, RECORD_HEAD ",\"metadata\":{\"");
      for (j = 0; j < 128; j++)
        g_string_append (m, "\xF0\x9F\x98\x80");
      if (i == 1)
        g_string_append_c (m, 'x');
      g_string_append (m, "\":1}}");
      g_assert_cmpint (snapshot_ok (m->str), ==, i == 0);
    }
  /* the names of records themselves count too */
  {
    g_autofree char *name = g_strnfill (257, 'n');
    g_autofree char *rec = g_strdup_printf (RECORD (",\"%s\":1"), name);

    g_assert_false (snapshot_ok (rec));
  }

  /* non-finite numbers anywhere, even in dropped members */
  g_assert_false (snapshot_ok (RECORD (",\"metadata\":{\"x\":-1e400}")));
  g_assert_false (snapshot_ok (RECORD (",\"future\":1e400")));
  g_assert_false (snapshot_ok (RECORD (",\"toolCalls\":[{\"id\":\"i\",\"name\":\"n\",\"args\":{\"x\":[1e999]},\"status\":\"running\"}]")));

  /* depth: a record member nesting 29 levels (a leaf at depth 32) / 30,
   * through arrays as well as objects and in dropped members */
  for (i = 0; i < 2; i++)
    {
      guint depth = 29 + i, j;

      g_string_assign (m, RECORD_HEAD ",\"future\":");
      for (j = 0; j < depth; j++)
        g_string_append (m, j % 2 ? "[" : "{\"k\":");
      g_string_append (m, "1");
      for (j = depth; j-- > 0;)
        g_string_append (m, j % 2 ? "]" : "}");
      g_string_append (m, "}");
      g_assert_cmpint (snapshot_ok (m->str), ==, i == 0);
    }

  /* strings are unbounded */
  {
    g_autofree char *big = g_strnfill (300000, 'x');
    g_autofree char *rec = g_strdup_printf (RECORD (",\"metadata\":{\"k\":\"%s\"}"), big);

    g_assert_true (snapshot_ok (rec));
  }
}

/* ------------------------------------------------------------------ */
/* In-memory form, snapshot creation                                     */
/* ------------------------------------------------------------------ */

static void
test_message_record_api (void)
{
  g_autoptr(GDateTime) when = g_date_time_new_utc (2026, 7, 11, 3, 4, 5.123456);
  g_autoptr(AkcMessageRecord) record = NULL;
  g_autoptr(AkcMessageRecord) bad = NULL;
  g_autoptr(AkcJsonValue) value = NULL;
  g_autoptr(GError) error = NULL;
  gsize len;

  record = akc_message_record_new ("m-1", "assistant", "hi\0there", 8, "streaming", when, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (akc_message_record_get_id (record, NULL), ==, "m-1");
  g_assert_cmpstr (akc_message_record_get_role (record), ==, "assistant");
  g_assert_cmpmem (akc_message_record_get_content (record, &len), len, "hi\0there", 8);
  g_assert_cmpstr (akc_message_record_get_status (record), ==, "streaming");
  g_assert_null (akc_message_record_get_parts (record));
  g_assert_null (akc_message_record_get_tool_calls (record));
  g_assert_null (akc_message_record_get_tool_call_id (record, &len));
  g_assert_cmpuint (len, ==, 0);
  g_assert_null (akc_message_record_get_metadata (record));
  {
    g_autofree char *iso = iso_ms (akc_message_record_get_created_at (record));

    g_assert_cmpstr (iso, ==, "2026-07-11T03:04:05.123Z");   /* milliseconds, truncated */
  }
  value = akc_message_record_to_value (record);
  akc_assert_canonical (value, "{\"id\":\"m-1\",\"role\":\"assistant\",\"content\":\"hi\\u0000there\","
                               "\"status\":\"streaming\",\"createdAt\":\"2026-07-11T03:04:05.123Z\"}");

  /* a non-UTC time is converted */
  {
    g_autoptr(GTimeZone) tz = g_time_zone_new_identifier ("+05:30");
    g_autoptr(GDateTime) local = g_date_time_new (tz, 2026, 7, 11, 8, 30, 0);
    g_autoptr(AkcMessageRecord) r = akc_message_record_new ("m", "user", "", -1, "complete", local, &error);
    g_autofree char *iso = NULL;
    g_autoptr(AkcJsonValue) v = NULL;

    g_assert_no_error (error);
    v = akc_message_record_to_value (r);
    iso = g_strdup (akc_json_value_get_string (member (v, "createdAt"), NULL));
    g_assert_cmpstr (iso, ==, "2026-07-11T03:00:00.000Z");
  }

  /* invalid fields */
  bad = akc_message_record_new ("", "user", "", 0, "complete", when, &error);
  g_assert_error (error, AKC_PROTOCOL_ERROR, AKC_PROTOCOL_ERROR_PROTOCOL_INVALID_PAYLOAD);
  g_assert_null (bad);
  g_clear_error (&error);
  bad = akc_message_record_new ("m", "developer", "", 0, "complete", when, &error);
  g_assert_error (error, AKC_PROTOCOL_ERROR, AKC_PROTOCOL_ERROR_PROTOCOL_INVALID_PAYLOAD);
  g_clear_error (&error);
  bad = akc_message_record_new ("m", "user", "", 0, "cancelled", when, &error);
  g_assert_error (error, AKC_PROTOCOL_ERROR, AKC_PROTOCOL_ERROR_PROTOCOL_INVALID_PAYLOAD);
  g_clear_error (&error);
  bad = akc_message_record_new ("m", "user", "\xff", 1, "complete", when, &error);
  g_assert_error (error, AKC_PROTOCOL_ERROR, AKC_PROTOCOL_ERROR_PROTOCOL_INVALID_PAYLOAD);
  g_clear_error (&error);

  /* from a wire value: projected, extras dropped */
  {
    g_autoptr(AkcJsonValue) wire = akc_test_parse_json (RECORD (",\"parts\":[{\"text\":\"t\",\"type\":\"text\",\"x\":1}],\"toolCallId\":\"c\","
                                              "\"metadata\":{\"k\":true},\"toolCalls\":[{\"id\":\"i\",\"name\":\"n\","
                                              "\"args\":{},\"status\":\"pending\"}],\"z\":0"));
    g_autoptr(AkcMessageRecord) r = akc_message_record_new_from_value (wire, &error);
    g_autoptr(AkcJsonValue) back = NULL;

    g_assert_no_error (error);
    akc_assert_canonical (akc_message_record_get_parts (r), "[{\"type\":\"text\",\"text\":\"t\"}]");
    akc_assert_canonical (akc_message_record_get_metadata (r), "{\"k\":true}");
    g_assert_cmpuint (akc_json_value_get_length (akc_message_record_get_tool_calls (r)), ==, 1);
    g_assert_cmpstr (akc_message_record_get_tool_call_id (r, NULL), ==, "c");
    back = akc_message_record_to_value (r);
    g_assert_null (member (back, "z"));
  }
  {
    g_autoptr(AkcJsonValue) wire = akc_test_parse_json (RECORD (",\"metadata\":null"));
    g_autoptr(AkcMessageRecord) r = akc_message_record_new_from_value (wire, &error);

    g_assert_error (error, AKC_PROTOCOL_ERROR, AKC_PROTOCOL_ERROR_PROTOCOL_INVALID_PAYLOAD);
    g_assert_null (r);
    g_clear_error (&error);
  }
  /* year 0000: valid on the wire, not representable in a GDateTime */
  {
    g_autoptr(AkcJsonValue) wire = akc_test_parse_json ("{\"id\":\"m\",\"role\":\"user\",\"content\":\"\",\"status\":\"pending\","
                                      "\"createdAt\":\"0000-01-01T00:00:00.000Z\"}");
    g_autoptr(AkcMessageRecord) r = akc_message_record_new_from_value (wire, &error);
    g_autofree char *text = snapshot_text (1, "{\"id\":\"m\",\"role\":\"user\",\"content\":\"\",\"status\":\"pending\","
                                              "\"createdAt\":\"0000-01-01T00:00:00.000Z\"}");
    g_autoptr(AkcJsonValue) event = akc_turn_event_decode (text, -1, NULL);
    g_autoptr(GPtrArray) records = NULL;

    g_assert_null (r);
    g_assert_error (error, AKC_PROTOCOL_ERROR, AKC_PROTOCOL_ERROR_PROTOCOL_INVALID_PAYLOAD);
    g_clear_error (&error);
    g_assert_nonnull (event);
    records = akc_turn_snapshot_messages (event, &error);
    g_assert_null (records);
    g_assert_error (error, AKC_PROTOCOL_ERROR, AKC_PROTOCOL_ERROR_PROTOCOL_INVALID_PAYLOAD);
    g_clear_error (&error);
  }
  /* GDateTime boundaries in snapshotMessages */
  {
    g_autofree char *text = snapshot_text (1, "{\"id\":\"m\",\"role\":\"user\",\"content\":\"\",\"status\":\"pending\","
                                              "\"createdAt\":\"0001-01-01T00:00:00.000Z\"},"
                                              "{\"id\":\"n\",\"role\":\"user\",\"content\":\"\",\"status\":\"pending\","
                                              "\"createdAt\":\"9999-12-31T23:59:59.999Z\"}");
    g_autoptr(AkcJsonValue) event = akc_turn_event_decode (text, -1, NULL);
    g_autoptr(GPtrArray) records = akc_turn_snapshot_messages (event, &error);
    g_autofree char *a = NULL;
    g_autofree char *b = NULL;

    g_assert_no_error (error);
    a = iso_ms (akc_message_record_get_created_at (g_ptr_array_index (records, 0)));
    b = iso_ms (akc_message_record_get_created_at (g_ptr_array_index (records, 1)));
    g_assert_cmpstr (a, ==, "0001-01-01T00:00:00.000Z");
    g_assert_cmpstr (b, ==, "9999-12-31T23:59:59.999Z");
  }
  /* not snapshots */
  {
    g_autoptr(AkcJsonValue) submit = akc_test_parse_json (ENV (SEQ, "client.turn.submit", "{\"input\":\"x\"}"));
    g_autoptr(GPtrArray) none = akc_turn_snapshot_messages (submit, &error);

    g_assert_null (none);
    g_assert_error (error, AKC_PROTOCOL_ERROR, AKC_PROTOCOL_ERROR_PROTOCOL_INVALID_PAYLOAD);
    g_clear_error (&error);
  }
}

static void
test_create_snapshot (void)
{
  g_autoptr(GDateTime) when = g_date_time_new_utc (2026, 7, 11, 3, 0, 0);
  g_autoptr(AkcMessageRecord) a = akc_message_record_new ("a", "user", "q", -1, "complete", when, NULL);
  g_autoptr(AkcMessageRecord) b = akc_message_record_new ("b", "assistant", "r", -1, "streaming", when, NULL);
  g_autoptr(AkcJsonValue) usage = akc_test_parse_json ("{\"totalTokens\":3,\"completionTokens\":2,\"promptTokens\":1,\"x\":0}");
  g_autoptr(AkcJsonValue) bad_usage = akc_test_parse_json ("{\"totalTokens\":3,\"completionTokens\":2,\"promptTokens\":-1}");
  g_autoptr(AkcJsonValue) lineage = akc_test_parse_json ("{\"operation\":\"submit\"}");
  g_autoptr(AkcJsonValue) err = akc_test_parse_json ("{\"version\":1,\"code\":\"ADAPTER_FAILED\",\"message\":\"m\",\"retryable\":true}");
  AkcMessageRecord *records[] = { a, b };
  g_autoptr(GError) error = NULL;

  {
    g_autoptr(AkcJsonValue) e = akc_turn_create_snapshot_event ("e1", "s1", "t1", 4, "2026-07-11T03:00Z",
                                                                records, 2, "error", usage, lineage, err, &error);
    g_autofree char *c = NULL;

    g_assert_no_error (error);
    c = akc_turn_event_encode (e, NULL, &error);
    g_assert_no_error (error);
    g_assert_cmpstr (c, ==,
      "{\"protocol\":\"agentskit.chat.turn\",\"version\":1,\"eventId\":\"e1\",\"sessionId\":\"s1\",\"turnId\":\"t1\","
      "\"sequence\":4,\"emittedAt\":\"2026-07-11T03:00Z\",\"event\":\"server.turn.snapshot\",\"payload\":{\"messages\":["
      "{\"id\":\"a\",\"role\":\"user\",\"content\":\"q\",\"status\":\"complete\",\"createdAt\":\"2026-07-11T03:00:00.000Z\"},"
      "{\"id\":\"b\",\"role\":\"assistant\",\"content\":\"r\",\"status\":\"streaming\",\"createdAt\":\"2026-07-11T03:00:00.000Z\"}],"
      "\"status\":\"error\",\"usage\":{\"promptTokens\":1,\"completionTokens\":2,\"totalTokens\":3},"
      "\"error\":{\"version\":1,\"code\":\"ADAPTER_FAILED\",\"message\":\"m\",\"retryable\":true},"
      "\"lineage\":{\"operation\":\"submit\"}}}");
  }
  {
    g_autoptr(AkcJsonValue) e = akc_turn_create_snapshot_event ("e1", "s1", "t1", 0, "2026-07-11T03:00:00Z",
                                                                NULL, 0, "idle", usage, NULL, NULL, &error);

    g_assert_no_error (error);
    g_assert_cmpuint (akc_json_value_get_length (member (member (e, "payload"), "messages")), ==, 0);
    g_assert_null (member (member (e, "payload"), "lineage"));
    g_assert_null (member (member (e, "payload"), "error"));
  }

  /* refused: each bad argument */
#define REFUSED(call) \
  G_STMT_START { \
    g_autoptr(AkcJsonValue) e_ = (call); \
    g_assert_null (e_); \
    g_assert_error (error, AKC_PROTOCOL_ERROR, AKC_PROTOCOL_ERROR_PROTOCOL_INVALID_PAYLOAD); \
    g_clear_error (&error); \
  } G_STMT_END
  REFUSED (akc_turn_create_snapshot_event ("bad id", "s1", "t1", 0, "2026-07-11T03:00Z", records, 2, "idle", usage, NULL, NULL, &error));
  REFUSED (akc_turn_create_snapshot_event ("e1", "s1", "t1", -1, "2026-07-11T03:00Z", records, 2, "idle", usage, NULL, NULL, &error));
  REFUSED (akc_turn_create_snapshot_event ("e1", "s1", "t1", G_GINT64_CONSTANT (9007199254740992), "2026-07-11T03:00Z", records, 2, "idle", usage, NULL, NULL, &error));
  REFUSED (akc_turn_create_snapshot_event ("e1", "s1", "t1", 0, "2026-07-11", records, 2, "idle", usage, NULL, NULL, &error));
  REFUSED (akc_turn_create_snapshot_event ("e1", "s1", "t1", 0, "2026-07-11T03:00Z", records, 2, "done", usage, NULL, NULL, &error));
  REFUSED (akc_turn_create_snapshot_event ("e1", "s1", "t1", 0, "2026-07-11T03:00Z", records, 2, "idle", bad_usage, NULL, NULL, &error));
  REFUSED (akc_turn_create_snapshot_event ("e1", "s1", "t1", 0, "2026-07-11T03:00Z", records, 2, "idle", usage, err, NULL, &error));
  REFUSED (akc_turn_create_snapshot_event ("e1", "s1", "t1", 0, "2026-07-11T03:00Z", records, 2, "idle", usage, NULL, lineage, &error));
  REFUSED (akc_turn_create_snapshot_event ("e1", "s1", "t\xff", 0, "2026-07-11T03:00Z", records, 2, "idle", usage, NULL, NULL, &error));
#undef REFUSED

  /* encoding refuses invalid events and writes nothing */
  {
    g_autoptr(AkcJsonValue) invalid = akc_test_parse_json ("{\"protocol\":\"agentskit.chat.turn\",\"version\":2}");
    g_autofree char *c = akc_turn_event_encode (invalid, NULL, &error);

    g_assert_null (c);
    g_assert_error (error, AKC_PROTOCOL_ERROR, AKC_PROTOCOL_ERROR_PROTOCOL_INVALID_PAYLOAD);
    g_clear_error (&error);
  }

  /* get_kind */
  {
    g_autoptr(AkcJsonValue) d = akc_test_parse_json (DIAG ("{\"version\":1,\"code\":\"A\",\"message\":\"m\",\"retryable\":true}"));
    g_autoptr(AkcJsonValue) x = akc_test_parse_json ("{\"event\":\"other\"}");
    AkcTurnEventKind kind = AKC_TURN_EVENT_KIND_SUBMIT;

    g_assert_true (akc_turn_event_get_kind (d, &kind));
    g_assert_cmpint (kind, ==, AKC_TURN_EVENT_KIND_DIAGNOSTIC);
    g_assert_false (akc_turn_event_get_kind (x, &kind));
    g_assert_false (akc_turn_event_get_kind (usage, NULL));
  }
}

/* ------------------------------------------------------------------ */
/* §2.8 cursor                                                          */
/* ------------------------------------------------------------------ */

static void
count_notify (GObject    *object,
              GParamSpec *pspec,
              gpointer    user_data)
{
  (*(guint *) user_data)++;
}

static void
test_cursor (void)
{
  g_autoptr(AkcTurnCursor) cursor = NULL;
  g_autoptr(AkcTurnCursor) bad = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(AkcJsonValue) held = NULL;
  g_autofree char *s5 = snapshot_text (5, RECORD (""));
  g_autofree char *s6 = snapshot_text (6, RECORD (""));
  g_autofree char *s9 = snapshot_text (9, RECORD (""));
  g_autofree char *invalid = snapshot_text (10, RECORD (",\"metadata\":null"));
  guint notified = 0;

  bad = akc_turn_cursor_new ("not a safe id", &error);
  g_assert_null (bad);
  g_assert_error (error, AKC_ERROR, AKC_ERROR_CONFIG_INVALID);
  g_assert_cmpstr (error->message, ==, "Chat session identity is invalid.");
  g_clear_error (&error);
  bad = akc_turn_cursor_new ("s1\n", &error);
  g_assert_null (bad);
  g_clear_error (&error);

  cursor = akc_turn_cursor_new ("s1", &error);
  g_assert_no_error (error);
  g_assert_cmpstr (akc_turn_cursor_get_session_id (cursor), ==, "s1");
  g_assert_null (akc_turn_cursor_dup_snapshot (cursor));
  g_assert_cmpint (akc_turn_cursor_get_sequence (cursor), ==, -1);
  g_signal_connect (cursor, "notify::snapshot", G_CALLBACK (count_notify), &notified);

  /* the first accepted snapshot may have any sequence */
  g_assert_true (akc_turn_cursor_apply_text (cursor, s6, -1, NULL, NULL));
  g_assert_cmpint (akc_turn_cursor_get_sequence (cursor), ==, 6);
  g_assert_cmpuint (notified, ==, 1);
  /* duplicate and stale */
  g_assert_false (akc_turn_cursor_apply_text (cursor, s6, -1, NULL, NULL));
  g_assert_false (akc_turn_cursor_apply_text (cursor, s5, -1, NULL, NULL));
  /* invalid text: inert, with the diagnostic */
  {
    g_autoptr(AkcDiagnostic) d = NULL;
    g_autoptr(AkcJsonValue) e = NULL;

    g_assert_false (akc_turn_cursor_apply_text (cursor, invalid, -1, &e, &d));
    g_assert_null (e);
    g_assert_cmpstr (akc_diagnostic_get_event_id (d), ==, "e10");
  }
  /* other events are handed back, not applied */
  {
    g_autoptr(AkcJsonValue) e = NULL;

    g_assert_false (akc_turn_cursor_apply_text (cursor, DIAG ("{\"version\":1,\"code\":\"A\",\"message\":\"m\",\"retryable\":true}"),
                                                -1, &e, NULL));
    g_assert_nonnull (e);
    g_assert_cmpstr (akc_json_value_get_string (member (e, "event"), NULL), ==, "server.turn.diagnostic");
  }
  /* other sessions: "s1" vs "S1" */
  {
    g_autoptr(AkcJsonValue) v = akc_test_parse_json (s9);
    g_autoptr(AkcJsonValue) foreign = NULL;
    gsize i, n = akc_json_value_get_member_count (v);
    g_autofree const char **names = g_new (const char *, n);
    g_autofree AkcJsonValue **values = g_new (AkcJsonValue *, n);

    for (i = 0; i < n; i++)
      {
        names[i] = akc_json_value_get_member_name (v, i, NULL);
        values[i] = g_str_equal (names[i], "sessionId") ? akc_json_value_new_string ("S1", -1)
                                                          : akc_json_value_ref (akc_json_value_get_member_value (v, i));
      }
    foreign = akc_json_value_new_object (names, values, n);
    for (i = 0; i < n; i++)
      akc_json_value_unref (values[i]);
    g_assert_false (akc_turn_cursor_apply (cursor, foreign));
  }
  g_assert_cmpuint (notified, ==, 1);
  g_assert_cmpint (akc_turn_cursor_get_sequence (cursor), ==, 6);

  /* a gap is fine */
  {
    g_autoptr(AkcJsonValue) v = akc_test_parse_json (s9);

    g_assert_true (akc_turn_cursor_apply (cursor, v));
  }
  g_assert_cmpuint (notified, ==, 2);
  held = akc_turn_cursor_dup_snapshot (cursor);
  g_assert_cmpstr (akc_json_value_get_string (member (held, "eventId"), NULL), ==, "e9");
  {
    g_autoptr(AkcJsonValue) prop = NULL;

    g_object_get (cursor, "snapshot", &prop, NULL);
    g_assert_true (prop == held);   /* the same immutable value */
  }

  g_signal_handlers_disconnect_by_func (cursor, count_notify, &notified);
  g_clear_pointer (&held, akc_json_value_unref);
  g_assert_finalize_object (g_steal_pointer (&cursor));
}

/* ------------------------------------------------------------------ */
/* Incremental decoding: equal to a full decode, and actually reusing    */
/* ------------------------------------------------------------------ */

/* A reply that grows at the end of a long content string, piece by piece:
 * each snapshot decodes through the decoder exactly as in full, and the
 * decoder picks the string up where its previous version ended. The
 * pieces cut escapes, surrogate pairs and UTF-8 sequences in two (the
 * snapshot in between is then invalid, or ends in a replacement that the
 * next bytes undo), and some snapshots rewrite the start of the string. */
static char *
growing_text (guint       sequence,
              const char *content,
              gsize       content_len)
{
  g_autoptr(GString) s = g_string_new (NULL);

  g_string_append_printf (s, ENVELOPE_HEAD, sequence, sequence);
  g_string_append (s, "{\"id\":\"q\",\"role\":\"user\",\"content\":\"Tell me a long story.\","
                      "\"status\":\"complete\",\"createdAt\":\"2026-07-11T03:00:00.000Z\"},"
                      "{\"id\":\"a\",\"role\":\"assistant\",\"content\":\"");
  g_string_append_len (s, content, content_len);
  g_string_append (s, "\",\"status\":\"streaming\",\"createdAt\":\"2026-07-11T03:00:01.000Z\"}");
  g_string_append (s, ENVELOPE_TAIL);

  return g_string_free (g_steal_pointer (&s), FALSE);
}

static void
test_incremental_growing_string (void)
{
  static const char * const pieces[] = {
    "plain words ", "\\n", "\\", "n", "\\\"quoted\\\" ", "\\u00", "e9 ", "\\ud83d", "\\ude00",
    "\xE2\x82", "\xAC", " \xC3", "\xA9", " bad \x80 byte ", "\xF0\x9F", "\x98\x80", "\\\\", " tab\\t ",
    "\xE2", "x", "\xED\xA0\x80", " end",
  };
  g_autoptr(AkcTurnDecoder) decoder = akc_turn_decoder_new ();
  g_autoptr(GString) content = g_string_new (NULL);
  AkcTurnDecoderStats stats;
  guint seq = 0;
  guint n_valid = 0;

  /* Long enough for the decoder to keep the string. */
  for (guint i = 0; i < 40; i++)
    g_string_append (content, "Once upon a time ");

  for (guint round = 0; round < 3; round++)
    for (guint p = 0; p < G_N_ELEMENTS (pieces); p++)
      {
        g_autofree char *text = NULL;
        g_autoptr(AkcJsonValue) event = NULL;
        g_autoptr(AkcDiagnostic) diagnostic = NULL;

        g_string_append (content, pieces[p]);
        if (round == 1 && p == 5)
          content->str[3] = content->str[3] == 'e' ? 'E' : 'e';  /* the start changes */
        text = growing_text (++seq, content->str, content->len);
        event = decode_both (decoder, text, strlen (text), &diagnostic);
        n_valid += event != NULL;
      }

  akc_turn_decoder_get_stats (decoder, &stats);
  g_test_message ("%u snapshots, %u valid; %" G_GUINT64_FORMAT " incremental, %" G_GUINT64_FORMAT
                  " strings resumed", seq, n_valid, stats.incremental_decodes, stats.strings_resumed);
  g_assert_cmpuint (n_valid, >, seq / 2);
  g_assert_cmpuint (stats.strings_resumed, >, 0);
  g_assert_cmpuint (stats.strings_resumed, <, stats.incremental_decodes);

  /* After a reset, nothing is resumed. */
  akc_turn_decoder_reset (decoder);
  {
    g_autofree char *text = growing_text (++seq, content->str, content->len);
    g_autoptr(AkcJsonValue) event = decode_both (decoder, text, strlen (text), NULL);
    AkcTurnDecoderStats after;

    akc_turn_decoder_get_stats (decoder, &after);
    g_assert_cmpuint (after.strings_resumed, ==, stats.strings_resumed);
  }
}

static void
test_incremental_stream (void)
{
  g_autoptr(AkcTurnDecoder) decoder = akc_turn_decoder_new ();
  AkcTurnDecoderStats stats;
  guint n = 50, seq;

  for (seq = 1; seq <= 20; seq++)
    {
      g_autofree char *text = conversation_text (n, seq, seq * 3);
      g_autoptr(AkcJsonValue) event = decode_both (decoder, text, strlen (text), NULL);

      g_assert_nonnull (event);
    }

  akc_turn_decoder_get_stats (decoder, &stats);
  g_assert_cmpuint (stats.decodes, ==, 20);
  g_assert_cmpuint (stats.full_decodes, ==, 1);
  g_assert_cmpuint (stats.incremental_decodes, ==, 19);
  g_assert_cmpuint (stats.records_reused, ==, 19 * (n - 1));
  g_assert_cmpuint (stats.records_parsed, ==, 19);

  /* a new message appended: all earlier ones reused */
  {
    g_autofree char *text = conversation_text (n + 1, 21, 5);
    g_autoptr(AkcJsonValue) event = decode_both (decoder, text, strlen (text), NULL);

    g_assert_nonnull (event);
    akc_turn_decoder_get_stats (decoder, &stats);
    g_assert_cmpuint (stats.records_reused, ==, 19 * (n - 1) + (n - 1));
    g_assert_cmpuint (stats.records_parsed, ==, 19 + 2);
  }

  /* other events and rejected texts keep the cache */
  {
    g_autoptr(AkcJsonValue) d = decode_both (decoder, DIAG ("{\"version\":1,\"code\":\"A\",\"message\":\"m\",\"retryable\":true}"),
                                             strlen (DIAG ("{\"version\":1,\"code\":\"A\",\"message\":\"m\",\"retryable\":true}")), NULL);
    g_autofree char *text = conversation_text (n + 1, 22, 6);
    g_autoptr(AkcJsonValue) event = NULL;
    guint64 before;

    g_assert_nonnull (d);
    decode_both (decoder, "{", 1, NULL);
    akc_turn_decoder_get_stats (decoder, &stats);
    before = stats.incremental_decodes;
    event = decode_both (decoder, text, strlen (text), NULL);
    g_assert_nonnull (event);
    akc_turn_decoder_get_stats (decoder, &stats);
    g_assert_cmpuint (stats.incremental_decodes, ==, before + 1);
  }

  /* after a reset everything is decoded in full again */
  akc_turn_decoder_reset (decoder);
  {
    g_autofree char *text = conversation_text (n + 1, 23, 7);
    g_autoptr(AkcJsonValue) event = NULL;
    guint64 before;

    akc_turn_decoder_get_stats (decoder, &stats);
    before = stats.full_decodes;
    event = decode_both (decoder, text, strlen (text), NULL);
    g_assert_nonnull (event);
    akc_turn_decoder_get_stats (decoder, &stats);
    g_assert_cmpuint (stats.full_decodes, ==, before + 1);
  }

  g_assert_finalize_object (g_steal_pointer (&decoder));
}

/* The events of an incremental decode do not depend on the decoder's later
 * life: they stay valid and unchanged after it moves on or goes away. */
static void
test_incremental_values_immutable (void)
{
  AkcTurnDecoder *decoder = akc_turn_decoder_new ();
  g_autofree char *t1 = conversation_text (10, 1, 3);
  g_autofree char *t2 = conversation_text (10, 2, 4);
  g_autofree char *t3 = conversation_text (10, 3, 5);
  g_autoptr(AkcJsonValue) e1 = akc_turn_decoder_decode (decoder, t1, -1, NULL);
  g_autoptr(AkcJsonValue) e2 = akc_turn_decoder_decode (decoder, t2, -1, NULL);
  g_autofree char *c2 = akc_json_value_to_canonical (e2, NULL);
  g_autoptr(AkcJsonValue) e3 = akc_turn_decoder_decode (decoder, t3, -1, NULL);
  g_autoptr(AkcJsonValue) full2 = akc_turn_event_decode (t2, -1, NULL);
  AkcJsonValue *m1, *m2;

  g_assert_finalize_object (decoder);
  g_clear_pointer (&e1, akc_json_value_unref);
  g_clear_pointer (&e3, akc_json_value_unref);
  akc_assert_canonical (full2, c2);
  akc_assert_canonical (e2, c2);

  /* reused records are shared, not copied */
  {
    AkcTurnDecoder *d = akc_turn_decoder_new ();
    g_autoptr(AkcJsonValue) a = akc_turn_decoder_decode (d, t1, -1, NULL);
    g_autoptr(AkcJsonValue) b = akc_turn_decoder_decode (d, t2, -1, NULL);

    m1 = member (member (a, "payload"), "messages");
    m2 = member (member (b, "payload"), "messages");
    g_assert_true (akc_json_value_get_element (m1, 0) == akc_json_value_get_element (m2, 0));
    g_assert_true (akc_json_value_get_element (m1, 9) != akc_json_value_get_element (m2, 9));
    g_assert_finalize_object (d);
  }
}

/* Texts where a careless splice would differ from the real document. */
static void
test_incremental_tricky (void)
{
  g_autofree char *base = conversation_text (6, 1, 10);
  g_autofree char *records = NULL;
  g_autoptr(GPtrArray) texts = g_ptr_array_new_with_free_func (g_free);
  const char *open, *close;
  guint i;

  open = strstr (base, "\"messages\":[") + strlen ("\"messages\":[");
  close = strstr (base, "],\"status\"");
  records = g_strndup (open, close - open);

#define ADD(...) g_ptr_array_add (texts, g_strdup_printf (__VA_ARGS__))
  /* duplicate payload / messages: the last one wins */
  ADD ("%.*s,\"payload\":{\"messages\":[],\"status\":\"idle\",\"usage\":{\"promptTokens\":0,\"completionTokens\":0,\"totalTokens\":0}}}",
       (int) (strlen (base) - 1), base);
  ADD (ENVELOPE_HEAD "%s],\"messages\":[" RECORD ("") ENVELOPE_TAIL, 2, 2, records);
  ADD (ENVELOPE_HEAD "%s],\"messages\":[%s" ENVELOPE_TAIL, 2, 2, records, records);
  /* escaped member names that decode to payload / messages */
  ADD ("%.*s\"p\\u0061yload\":{\"messages\":[],\"status\":\"idle\",\"usage\":{\"promptTokens\":0,\"completionTokens\":0,\"totalTokens\":0}}}",
       (int) (strstr (base, "\"payload\"") - base), base);
  ADD ("%s", base);
  {
    char *t = g_ptr_array_index (texts, texts->len - 1);
    char *p = strstr (t, "\"messages\"");

    memcpy (p, "\"messag\\u", 9);   /* "messag\u…" is not valid: becomes invalid JSON */
  }
  ADD ("%.*s\"mess\\u0061ges\":[" RECORD ("") "],\"messages\":[%s" ENVELOPE_TAIL,
       (int) (strstr (base, "\"messages\"") - base), base, records);
  ADD ("%.*s\"messages\":[%s],\"mess\\u0061ges\":[" ENVELOPE_TAIL,
       (int) (strstr (base, "\"messages\"") - base), base, records);
  ADD ("%.*s,\"p\\u0061yload\":{\"messages\":[],\"status\":\"idle\",\"usage\":{\"promptTokens\":0,\"completionTokens\":0,\"totalTokens\":0}}}",
       (int) (strlen (base) - 1), base);
  ADD ("%.*s\"mess\\u0061ges\":[%s],\"x\":[" ENVELOPE_TAIL,
       (int) (strstr (base, "\"messages\"") - base), base, records);
  /* the array inside a string, or nested deeper */
  ADD ("{\"x\":\"\\\"payload\\\":{\\\"messages\\\":[\",\"y\":%s}", base);
  ADD ("{\"payload\":{\"messages\":[%s]},\"z\":%s}", records, base);
  ADD ("[%s]", base);
  /* whitespace between and around elements */
  {
    g_autoptr(GString) s = g_string_new (NULL);
    const char *p = records;
    int depth = 0;
    gboolean in_string = FALSE;

    for (; *p; p++)
      {
        if (in_string)
          {
            if (*p == '\\')
              {
                g_string_append_c (s, *p++);
              }
            else if (*p == '"')
              in_string = FALSE;
          }
        else if (*p == '"')
          in_string = TRUE;
        else if (*p == '{' || *p == '[')
          depth++;
        else if (*p == '}' || *p == ']')
          depth--;
        else if (*p == ',' && depth == 0)
          {
            g_string_append (s, " \n,\r\t ");
            continue;
          }
        g_string_append_c (s, *p);
      }
    ADD (ENVELOPE_HEAD " \n %s \t " ENVELOPE_TAIL, 2, 2, s->str);
  }
  /* trailing and doubled commas, a missing comma, an unclosed array */
  ADD (ENVELOPE_HEAD "%s," ENVELOPE_TAIL, 2, 2, records);
  ADD (ENVELOPE_HEAD ",%s" ENVELOPE_TAIL, 2, 2, records);
  ADD (ENVELOPE_HEAD "%s,," RECORD ("") ENVELOPE_TAIL, 2, 2, records);
  ADD (ENVELOPE_HEAD "%s " RECORD ("") ENVELOPE_TAIL, 2, 2, records);
  ADD (ENVELOPE_HEAD "%s", 2, 2, records);
  ADD ("%s ", base);
  ADD ("%s}", base);
  ADD ("%s\"", base);
  ADD ("%.*s", (int) strlen (base) - 1, base);
  /* the same records after a different envelope, or as another event */
  ADD ("{\"protocol\":\"agentskit.chat.turn\",\"version\":2,\"eventId\":\"v2\",\"payload\":{\"messages\":[%s]}}", records);
  ADD ("{\"protocol\":\"agentskit.chat.turn\",\"version\":1,\"eventId\":\"e\",\"sessionId\":\"s\",\"turnId\":\"t\","
       "\"sequence\":0,\"emittedAt\":\"2026-07-11T03:00:00Z\",\"event\":\"client.turn.submit\","
       "\"payload\":{\"messages\":[%s],\"input\":\"x\"}}", records);
  ADD ("{\"protocol\":\"agentskit.chat.turn\",\"version\":1,\"eventId\":\"e\",\"event\":\"nope\",\"payload\":{\"messages\":[%s]}}", records);
  /* records in another order, one duplicated, one dropped */
  {
    g_auto(GStrv) parts = g_strsplit (records, "},{", -1);
    guint n = g_strv_length (parts);
    g_autofree char *swapped = NULL;
    char *tmp = parts[1];

    parts[1] = parts[2];
    parts[2] = tmp;
    swapped = g_strjoinv ("},{", parts);
    ADD (ENVELOPE_HEAD "%s" ENVELOPE_TAIL, 2, 2, swapped);
    g_assert_cmpuint (n, ==, 6);
  }
  ADD (ENVELOPE_HEAD "%s,%s" ENVELOPE_TAIL, 2, 2, records, records);
  ADD (ENVELOPE_HEAD "%.*s" ENVELOPE_TAIL, 2, 2, (int) (strrchr (records, '{') - records - 1), records);
  /* a reused record whose bytes continue into something longer */
  ADD (ENVELOPE_HEAD "%s" "x" ENVELOPE_TAIL, 2, 2, records);
#undef ADD

  for (i = 0; i < texts->len; i++)
    {
      const char *t = g_ptr_array_index (texts, i);
      g_autoptr(AkcTurnDecoder) decoder = akc_turn_decoder_new ();
      g_autoptr(AkcJsonValue) primed = akc_turn_decoder_decode (decoder, base, -1, NULL);
      g_autoptr(AkcJsonValue) v = NULL;

      g_test_message ("text %u", i);
      g_assert_nonnull (primed);
      v = decode_both (decoder, t, strlen (t), NULL);
    }
}

/* The §2.9.1 limits on the incremental path: the global count is summed
 * from reused records, the per-record limits apply to changed ones. */
static void
run_limits (guint               n_base,
            const char * const *last_records,
            const gboolean     *expected,
            guint               n_last)
{
  g_autoptr(AkcTurnDecoder) decoder = akc_turn_decoder_new ();
  g_autoptr(GString) records = g_string_new (NULL);
  AkcTurnDecoderStats stats;
  guint i, n_ok = 0;

  for (i = 0; i < n_base; i++)
    g_string_append (records, RECORD ("") ",");

  for (i = 0; i < n_last; i++)
    {
      g_autoptr(GString) m = g_string_new (records->str);
      g_autofree char *text = NULL;
      g_autoptr(AkcJsonValue) v = NULL;

      g_string_append (m, last_records[i]);
      text = snapshot_text (i + 1, m->str);
      g_test_message ("last record %u", i);
      v = decode_both (decoder, text, strlen (text), NULL);
      g_assert_cmpint (v != NULL, ==, expected[i]);
      n_ok += expected[i];
    }

  /* the first text is decoded in full, every accepted one after it
   * incrementally */
  akc_turn_decoder_get_stats (decoder, &stats);
  g_assert_true (expected[0]);
  g_assert_cmpuint (stats.incremental_decodes, ==, n_ok - 1);
  g_assert_cmpuint (stats.records_reused, ==, (n_ok - 1) * n_base);
}

static void
test_incremental_limits (void)
{
  /* 3 + 1665 * 6 + 7 = 10 000 values, then one more */
  static const char * const count[] = {
    RECORD (",\"toolCallId\":\"\""),
    RECORD (",\"toolCallId\":\"\",\"metadata\":{}"),
    RECORD (",\"toolCallId\":\"x\""),
  };
  static const gboolean count_ok[] = { TRUE, FALSE, TRUE };
  g_autofree char *name256 = g_strnfill (256, 'n');
  g_autofree char *name257 = g_strnfill (257, 'n');
  g_autofree char *with256 = g_strdup_printf (RECORD (",\"%s\":0"), name256);
  g_autofree char *with257 = g_strdup_printf (RECORD (",\"%s\":0"), name257);
  const char * const own[] = {
    RECORD (""),
    RECORD (",\"metadata\":{\"x\":1e400}"),
    RECORD (",\"future\":[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[1]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]"),  /* a leaf at depth 33 */
    RECORD (",\"future\":[[[[[[[[[[[[[[[[[[[[[[[[[[[[[1]]]]]]]]]]]]]]]]]]]]]]]]]]]]]"),    /* depth 32 */
    with256,
    with257,
  };
  static const gboolean own_ok[] = { TRUE, FALSE, FALSE, TRUE, TRUE, FALSE };

  run_limits (1665, count, count_ok, G_N_ELEMENTS (count));
  run_limits (10, own, own_ok, G_N_ELEMENTS (own));
}

/* Equivalence over the fixtures: every fixture record and envelope, spliced
 * into a snapshot whose other records the decoder has just seen. */
static void
splice_check (AkcJsonValue *base,
              const char   *base_text,
              AkcJsonValue *variant)
{
  g_autoptr(AkcTurnDecoder) decoder = akc_turn_decoder_new ();
  g_autoptr(AkcJsonValue) primed = akc_turn_decoder_decode (decoder, base_text, -1, NULL);
  g_autofree char *text = NULL;
  gsize len;
  g_autoptr(AkcJsonValue) v = NULL;

  g_assert_nonnull (primed);
  text = akc_json_value_to_canonical (variant, &len);
  v = decode_both (decoder, text, len, NULL);
}

/* @object with member @name (which must exist) replaced by @value (owned). */
static AkcJsonValue *
with_member (AkcJsonValue *object,
             const char   *name,
             AkcJsonValue *value)
{
  gsize i, n = akc_json_value_get_member_count (object);
  g_autofree const char **names = g_new (const char *, n + 1);
  g_autofree AkcJsonValue **values = g_new (AkcJsonValue *, n + 1);
  gboolean found = FALSE;
  AkcJsonValue *result;

  for (i = 0; i < n; i++)
    {
      names[i] = akc_json_value_get_member_name (object, i, NULL);
      if (strcmp (names[i], name) == 0)
        {
          values[i] = value;
          found = TRUE;
        }
      else
        values[i] = akc_json_value_ref (akc_json_value_get_member_value (object, i));
    }
  if (!found)
    {
      names[n] = name;
      values[n++] = value;
    }
  result = akc_json_value_new_object (names, values, n);
  for (i = 0; i < n; i++)
    akc_json_value_unref (values[i]);

  return result;
}

static void
test_incremental_fixtures (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) cases = akc_fixture_load (FIXTURES, &error);
  g_autofree char *base_text = conversation_text (5, 1, 12);
  g_autoptr(AkcJsonValue) base = akc_test_parse_json (base_text);
  AkcJsonValue *base_messages = member (member (base, "payload"), "messages");
  guint i, checked = 0;

  g_assert_no_error (error);
  for (i = 0; i < cases->len; i++)
    {
      AkcFixtureCase *fc = g_ptr_array_index (cases, i);
      g_autoptr(AkcJsonValue) input = NULL;
      AkcJsonValue *payload, *messages;
      gsize k, pos;

      if (fc->input_kind == NULL)
        continue;
      if (g_strcmp0 (fc->input_kind, "text") == 0)
        input = akc_json_value_parse (akc_json_value_get_string (fc->input, NULL), -1, NULL);
      else
        input = akc_json_value_ref (fc->input);
      if (input == NULL || akc_json_value_get_kind (input) != AKC_JSON_KIND_OBJECT)
        continue;

      payload = member (input, "payload");
      messages = payload != NULL ? member (payload, "messages") : NULL;

      /* the fixture's envelope around the base records */
      if (payload != NULL && akc_json_value_get_kind (payload) == AKC_JSON_KIND_OBJECT)
        {
          g_autoptr(AkcJsonValue) p = with_member (payload, "messages", akc_json_value_ref (base_messages));
          g_autoptr(AkcJsonValue) v = with_member (input, "payload", g_steal_pointer (&p));

          splice_check (base, base_text, v);
          checked++;
        }

      /* each fixture record in the base snapshot, first and last */
      if (messages == NULL || akc_json_value_get_kind (messages) != AKC_JSON_KIND_ARRAY)
        continue;
      for (k = 0; k < akc_json_value_get_length (messages); k++)
        for (pos = 0; pos < 2; pos++)
          {
            gsize n = akc_json_value_get_length (base_messages), j;
            g_autofree AkcJsonValue **elems = g_new (AkcJsonValue *, n);
            g_autoptr(AkcJsonValue) array = NULL;
            g_autoptr(AkcJsonValue) p = NULL;
            g_autoptr(AkcJsonValue) v = NULL;

            for (j = 0; j < n; j++)
              elems[j] = (j == (pos == 0 ? 0 : n - 1)) ? akc_json_value_get_element (messages, k)
                                                       : akc_json_value_get_element (base_messages, j);
            array = akc_json_value_new_array (elems, n);
            p = with_member (member (base, "payload"), "messages", g_steal_pointer (&array));
            v = with_member (base, "payload", g_steal_pointer (&p));
            splice_check (base, base_text, v);
            checked++;
          }
    }

  g_test_message ("%u spliced variants", checked);
  g_assert_cmpuint (checked, >, 100);
}

/* Random byte-level mutations of a snapshot, decoded after the original. */
static void
test_incremental_mutations (void)
{
  static const char alphabet[] = "{}[]\",:\\ \n0123456789-+.eEtrufalsn\x00\xff\xc3mpayloadgesu";
  g_autofree char *base = conversation_text (8, 1, 20);
  gsize base_len = strlen (base);
  GRand *rand = g_rand_new_with_seed (20260711);
  g_autoptr(AkcTurnDecoder) chained = akc_turn_decoder_new ();
  guint i, accepted = 0, incremental = 0;
  AkcTurnDecoderStats stats;

  for (i = 0; i < 4000; i++)
    {
      g_autoptr(GString) t = g_string_new_len (base, (gssize) base_len);
      g_autoptr(AkcTurnDecoder) decoder = akc_turn_decoder_new ();
      g_autoptr(AkcJsonValue) primed = akc_turn_decoder_decode (decoder, base, (gssize) base_len, NULL);
      g_autoptr(AkcJsonValue) v = NULL;
      g_autoptr(AkcJsonValue) w = NULL;
      g_autoptr(AkcDiagnostic) d = NULL;
      g_autoptr(AkcDiagnostic) dw = NULL;
      guint n_edits = 1 + g_rand_int_range (rand, 0, 3);
      guint k;

      g_assert_nonnull (primed);
      for (k = 0; k < n_edits; k++)
        {
          gsize pos = (gsize) g_rand_int_range (rand, 0, (gint32) t->len);
          char c = alphabet[g_rand_int_range (rand, 0, sizeof alphabet - 1)];

          switch (g_rand_int_range (rand, 0, 4))
            {
            case 0: t->str[pos] = c; break;
            case 1: g_string_insert_c (t, (gssize) pos, c); break;
            case 2: g_string_erase (t, (gssize) pos, 1); break;
            default:
              {
                /* copy a random slice somewhere else */
                gsize from = (gsize) g_rand_int_range (rand, 0, (gint32) t->len);
                gsize n = MIN ((gsize) g_rand_int_range (rand, 1, 40), t->len - from);
                g_autofree char *slice = g_strndup (t->str + from, n);

                g_string_insert_len (t, (gssize) pos, slice, (gssize) n);
              }
            }
        }

      v = decode_both (decoder, t->str, t->len, &d);
      accepted += v != NULL;
      /* a long-lived decoder sees every mutation in turn */
      w = akc_turn_decoder_decode (chained, t->str, (gssize) t->len, &dw);
      assert_same (v, d, w, dw);
      akc_turn_decoder_get_stats (decoder, &stats);
      incremental += stats.incremental_decodes;
    }

  g_test_message ("%u of 4000 mutations accepted, %u decoded incrementally", accepted, incremental);
  g_assert_cmpuint (accepted, >, 100);
  g_assert_cmpuint (incremental, >, 100);
  g_rand_free (rand);
}

/* Decoders used from several threads at once (one decoder per thread):
 * each gives the stateless results, and events cross threads freely. */
typedef struct {
  guint      first_sequence;
  GPtrArray *events;   /* out */
} ThreadJob;

static gpointer
decode_in_thread (gpointer data)
{
  ThreadJob *job = data;
  g_autoptr(AkcTurnDecoder) decoder = akc_turn_decoder_new ();
  guint i;

  for (i = 0; i < 40; i++)
    {
      g_autofree char *text = conversation_text (30, job->first_sequence + i, 5 + i);

      g_ptr_array_add (job->events, akc_turn_decoder_decode (decoder, text, -1, NULL));
    }

  return NULL;
}

static void
test_incremental_threads (void)
{
  ThreadJob jobs[4];
  GThread *threads[G_N_ELEMENTS (jobs)];
  guint t, i;

  for (t = 0; t < G_N_ELEMENTS (jobs); t++)
    {
      jobs[t].first_sequence = 1 + t * 1000;
      jobs[t].events = g_ptr_array_new_with_free_func ((GDestroyNotify) akc_json_value_unref);
      threads[t] = g_thread_new ("decoder", decode_in_thread, &jobs[t]);
    }

  for (t = 0; t < G_N_ELEMENTS (jobs); t++)
    {
      g_thread_join (threads[t]);
      g_assert_cmpuint (jobs[t].events->len, ==, 40);
      for (i = 0; i < 40; i++)
        {
          g_autofree char *text = conversation_text (30, jobs[t].first_sequence + i, 5 + i);
          g_autoptr(AkcJsonValue) expected = akc_turn_event_decode (text, -1, NULL);
          g_autofree char *c = akc_json_value_to_canonical (expected, NULL);

          akc_assert_canonical (g_ptr_array_index (jobs[t].events, i), c);
        }
      g_ptr_array_unref (jobs[t].events);
    }
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);

  akc_fixture_add_tests (FIXTURES, "/turn/fixtures/decode", "decodeTurnEvent", run_decode_case, NULL);
  akc_fixture_add_tests (FIXTURES, "/turn/fixtures/roundtrip", "encodeTurnEvent+decodeTurnEvent", run_roundtrip_case, NULL);
  akc_fixture_add_tests (FIXTURES, "/turn/fixtures/snapshot-messages", "snapshotMessages", run_snapshot_messages_case, NULL);
  akc_fixture_add_tests (FIXTURES, "/turn/fixtures/cursor", "snapshotCursor", run_cursor_case, NULL);
  akc_fixture_add_tests (FIXTURES, "/turn/fixtures/create", "createSnapshotEvent", run_create_case, NULL);

  g_test_add_func ("/turn/precedence", test_precedence);
  g_test_add_func ("/turn/event-id-echo", test_event_id_echo);
  g_test_add_func ("/turn/envelope", test_envelope);
  g_test_add_func ("/turn/submit-payload", test_submit_payload);
  g_test_add_func ("/turn/diagnostic-payload", test_diagnostic_payload);
  g_test_add_func ("/turn/snapshot-payload", test_snapshot_payload);
  g_test_add_func ("/turn/message/fields", test_message_record_fields);
  g_test_add_func ("/turn/message/timestamp", test_message_timestamp);
  g_test_add_func ("/turn/message/parts", test_parts);
  g_test_add_func ("/turn/message/tool-calls", test_tool_calls);
  g_test_add_func ("/turn/message/projection", test_projection);
  g_test_add_func ("/turn/message/content-bytes", test_content_bytes);
  g_test_add_func ("/turn/message/structural-limits", test_structural_limits);
  g_test_add_func ("/turn/message/record-api", test_message_record_api);
  g_test_add_func ("/turn/create-snapshot", test_create_snapshot);
  g_test_add_func ("/turn/cursor", test_cursor);
  g_test_add_func ("/turn/incremental/stream", test_incremental_stream);
  g_test_add_func ("/turn/incremental/growing-string", test_incremental_growing_string);
  g_test_add_func ("/turn/incremental/immutable", test_incremental_values_immutable);
  g_test_add_func ("/turn/incremental/tricky", test_incremental_tricky);
  g_test_add_func ("/turn/incremental/limits", test_incremental_limits);
  g_test_add_func ("/turn/incremental/fixtures", test_incremental_fixtures);
  g_test_add_func ("/turn/incremental/mutations", test_incremental_mutations);
  g_test_add_func ("/turn/incremental/threads", test_incremental_threads);

  return g_test_run ();
}
