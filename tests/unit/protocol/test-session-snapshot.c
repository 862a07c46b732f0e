/* test-session-snapshot.c: application session snapshots v1 and the v0
 * migration (protocol.md §5)
 *
 * SPDX-License-Identifier: MIT
 */

#include "config.h"

#include <string.h>

#include "akc.h"
#include "akc-fixture.h"

#define FIXTURES "protocol/session-snapshots.json"

#define INVALID     "SESSION_INVALID_SNAPSHOT", "Session snapshot payload is invalid."
#define NOT_JSON    "SESSION_INVALID_SNAPSHOT", "Session snapshot is not valid JSON."
#define UNSUPPORTED "SESSION_UNSUPPORTED_VERSION", "Session snapshot uses an unsupported version."

static void
assert_diagnostic_is (const AkcDiagnostic *d,
                      const char          *code,
                      const char          *message)
{
  g_assert_nonnull (d);
  g_assert_cmpstr (akc_diagnostic_get_code (d), ==, code);
  g_assert_cmpstr (akc_diagnostic_get_message (d), ==, message);
  g_assert_false (akc_diagnostic_get_retryable (d));
  g_assert_null (akc_diagnostic_get_event_id (d));
}

/* Text and value forms must agree; returns the text form's result. */
static AkcJsonValue *
decode (const char     *text,
        gsize           len,
        AkcDiagnostic **diagnostic)
{
  g_autoptr(AkcJsonValue) parsed = akc_json_value_parse (text, (gssize) len, NULL);
  AkcJsonValue *v = akc_session_snapshot_decode (text, (gssize) len, diagnostic);

  if (parsed != NULL)
    {
      g_autoptr(AkcDiagnostic) d2 = NULL;
      g_autoptr(AkcJsonValue) v2 = akc_session_snapshot_decode_value (parsed, &d2);

      if (v == NULL)
        {
          g_assert_null (v2);
          g_assert_true (akc_diagnostic_equal (*diagnostic, d2));
        }
      else
        g_assert_true (akc_json_value_equal (v, v2));
    }

  /* a decoded snapshot is a valid v1 value that encodes to itself */
  if (v != NULL)
    {
      g_autoptr(GError) error = NULL;
      g_autofree char *encoded = akc_session_snapshot_encode (v, NULL, &error);
      g_autoptr(AkcDiagnostic) d3 = NULL;
      g_autoptr(AkcJsonValue) again = NULL;

      g_assert_no_error (error);
      akc_assert_canonical (v, encoded);
      again = akc_session_snapshot_decode (encoded, -1, &d3);
      akc_assert_json_equal (again, v);
    }

  return v;
}

static void
run_case (const AkcFixtureCase *fc,
          gconstpointer         user_data)
{
  g_autoptr(AkcDiagnostic) diagnostic = NULL;
  g_autoptr(AkcJsonValue) snapshot = NULL;
  g_autofree char *text = NULL;
  gsize len;

  text = akc_fixture_input_text (fc, &len);
  snapshot = decode (text, len, &diagnostic);

  if (g_strcmp0 (fc->input_kind, "value") == 0)
    {
      g_autoptr(AkcDiagnostic) d = NULL;
      g_autoptr(AkcJsonValue) v = akc_session_snapshot_decode_value (fc->input, &d);

      if (snapshot != NULL)
        akc_assert_json_equal (v, snapshot);
      else
        g_assert_true (akc_diagnostic_equal (d, diagnostic));
    }

  if (!akc_fixture_expect_ok (fc))
    {
      g_assert_null (snapshot);
      assert_diagnostic_is (diagnostic, akc_fixture_expect_string (fc, "code"),
                            akc_fixture_expect_string (fc, "message"));
      return;
    }

  g_assert_null (diagnostic);
  g_assert_nonnull (snapshot);
  if (akc_fixture_expect (fc, "value") != NULL)
    {
      g_autofree char *canonical = akc_json_value_to_canonical (akc_fixture_expect (fc, "value"), NULL);

      akc_assert_json_equal (snapshot, akc_fixture_expect (fc, "value"));
      /* the expected value is written in canonical order (§5.1) */
      akc_assert_canonical (snapshot, canonical);
    }
}

/* ------------------------------------------------------------------ */

#define HEAD(protocol_version) \
  "{" protocol_version ",\"sessionId\":\"s\",\"definitionId\":\"d\",\"definitionRevision\":1," \
  "\"updatedAt\":\"2026-07-11T00:00:00.000Z\",\"cursor\":0"
#define V1 "\"protocol\":\"agentskit.chat.session\",\"version\":1"
#define V0 "\"version\":0"
#define SNAP(extra) HEAD (V1) extra ",\"confirmations\":[]}"
#define CONFIRMATION(token, call, input) \
  "{\"token\":\"" token "\",\"action\":\"email.send\",\"input\":" input ",\"toolCallId\":\"" call "\"," \
  "\"expiresAt\":0,\"status\":\"pending\"}"
#define CONFIRMATIONS(list) HEAD (V1) ",\"confirmations\":[" list "]}"
#define DECISION(id, input, content, from) \
  "{\"messageId\":\"" id "\",\"input\":\"" input "\",\"routeId\":\"r\",\"kind\":\"fallback\"," \
  "\"content\":\"" content "\",\"fromState\":\"" from "\",\"toState\":\"b\"}"
#define CONVERSATION(state, decisions) \
  SNAP (",\"conversation\":{\"state\":\"" state "\",\"decisions\":[" decisions "]}")

static void
assert_decode (const char *text,
               const char *code,
               const char *message)
{
  g_autoptr(AkcDiagnostic) diagnostic = NULL;
  g_autoptr(AkcJsonValue) snapshot = decode (text, strlen (text), &diagnostic);

  if (code == NULL)
    {
      g_assert_nonnull (snapshot);
      g_assert_null (diagnostic);
      return;
    }
  g_assert_null (snapshot);
  assert_diagnostic_is (diagnostic, code, message);
}

#define OK NULL, NULL

/* @templ with its one "%s" replaced by @s (no printf: @s may hold '%'). */
static char *
subst (const char *templ,
       const char *s)
{
  const char *at = strstr (templ, "%s");

  g_assert_nonnull (at);
  return g_strdup_printf ("%.*s%s%s", (int) (at - templ), templ, s, at + 2);
}

static void
test_precedence (void)
{
  assert_decode (SNAP (""), OK);
  assert_decode ("", NOT_JSON);
  assert_decode ("{\"version\":1,}", NOT_JSON);
  assert_decode ("{\"a\":\"\\udc00\"}", NOT_JSON);
  /* step 2: any number but 0 and 1, with no protocol check */
  assert_decode ("{\"version\":2}", UNSUPPORTED);
  assert_decode ("{\"version\":-1}", UNSUPPORTED);
  assert_decode ("{\"version\":0.5}", UNSUPPORTED);
  assert_decode ("{\"version\":1e400}", UNSUPPORTED);
  assert_decode (HEAD ("\"protocol\":\"agentskit.chat.session\",\"version\":2") ",\"confirmations\":[]}", UNSUPPORTED);
  assert_decode (HEAD ("\"protocol\":\"other\",\"version\":9") ",\"confirmations\":[]}", UNSUPPORTED);
  /* 0, -0 and 1 are checked by the schemas; other types too */
  assert_decode ("{\"version\":0}", INVALID);
  assert_decode ("{\"version\":-0}", INVALID);
  assert_decode ("{\"version\":1}", INVALID);
  assert_decode ("{\"version\":\"2\"}", INVALID);
  assert_decode ("{\"version\":null}", INVALID);
  assert_decode ("{}", INVALID);
  assert_decode ("[]", INVALID);
  assert_decode ("null", INVALID);
  assert_decode ("\"{}\"", INVALID);
  assert_decode (HEAD ("\"protocol\":\"agentskit.chat.session\",\"version\":\"1\"") ",\"confirmations\":[]}", INVALID);
  assert_decode (HEAD ("\"protocol\":\"agentskit.chat.session\",\"version\":1.0") ",\"confirmations\":[]}", OK);
  assert_decode (HEAD ("\"protocol\":\"agentskit.chat.sessions\",\"version\":1") ",\"confirmations\":[]}", INVALID);
  assert_decode (HEAD ("\"version\":1") ",\"confirmations\":[]}", INVALID);
  assert_decode (HEAD ("\"protocol\":null,\"version\":1") ",\"confirmations\":[]}", INVALID);
}

static void
test_migration (void)
{
  static const char * const v0_inputs[] = {
    HEAD (V0) ",\"confirmations\":[]}",
    HEAD ("\"version\":-0") ",\"confirmations\":[]}",
    HEAD ("\"version\":0.0") ",\"confirmations\":[]}",
    HEAD ("\"protocol\":\"agentskit.chat.session\",\"version\":0") ",\"confirmations\":[]}",
    HEAD ("\"protocol\":[1],\"version\":0") ",\"confirmations\":[]}",
    "{\"confirmations\":[],\"cursor\":0,\"updatedAt\":\"2026-07-11T00:00:00.000Z\",\"definitionRevision\":1,"
    "\"definitionId\":\"d\",\"sessionId\":\"s\",\"version\":0,\"extra\":true}",
  };
  guint i;

  for (i = 0; i < G_N_ELEMENTS (v0_inputs); i++)
    {
      g_autoptr(AkcDiagnostic) d = NULL;
      g_autoptr(AkcJsonValue) v = decode (v0_inputs[i], strlen (v0_inputs[i]), &d);

      g_assert_nonnull (v);
      akc_assert_canonical (v, "{\"protocol\":\"agentskit.chat.session\",\"version\":1,\"sessionId\":\"s\","
                               "\"definitionId\":\"d\",\"definitionRevision\":1,\"updatedAt\":\"2026-07-11T00:00:00.000Z\","
                               "\"cursor\":0,\"confirmations\":[]}");
    }

  /* a v0 snapshot must still be valid in every other way */
  assert_decode (HEAD (V0) ",\"confirmations\":[],\"cursor\":-1}", INVALID);
  assert_decode (HEAD (V0) "}", INVALID);
  /* encode writes only v1 values */
  {
    g_autoptr(AkcJsonValue) legacy = akc_json_value_parse (HEAD (V0) ",\"confirmations\":[]}", -1, NULL);
    g_autoptr(GError) error = NULL;
    g_autofree char *text = akc_session_snapshot_encode (legacy, NULL, &error);

    g_assert_null (text);
    g_assert_error (error, AKC_PROTOCOL_ERROR, AKC_PROTOCOL_ERROR_SESSION_INVALID_SNAPSHOT);
  }
  /* encode normalises */
  {
    g_autoptr(AkcJsonValue) v = akc_json_value_parse ("{\"confirmations\":[],\"x\":1," V1 ",\"cursor\":3,\"updatedAt\":"
                                                      "\"2026-07-11T00:00Z\",\"definitionRevision\":2,\"definitionId\":\"d\","
                                                      "\"sessionId\":\"s\"}", -1, NULL);
    g_autoptr(GError) error = NULL;
    gsize len;
    g_autofree char *text = akc_session_snapshot_encode (v, &len, &error);

    g_assert_no_error (error);
    g_assert_cmpuint (len, ==, strlen (text));
    g_assert_cmpstr (text, ==, "{\"protocol\":\"agentskit.chat.session\",\"version\":1,\"sessionId\":\"s\","
                               "\"definitionId\":\"d\",\"definitionRevision\":2,\"updatedAt\":\"2026-07-11T00:00Z\","
                               "\"cursor\":3,\"confirmations\":[]}");
  }
}

static void
test_scalars (void)
{
  g_autofree char *id128 = g_strnfill (128, 'i');
  g_autofree char *id129 = g_strnfill (129, 'i');
  g_autofree char *t128 = g_strdup_printf ("{" V1 ",\"sessionId\":\"%s\",\"definitionId\":\"d\",\"definitionRevision\":1,"
                                           "\"updatedAt\":\"2026-07-11T00:00:00Z\",\"cursor\":0,\"confirmations\":[]}", id128);
  g_autofree char *t129 = g_strdup_printf ("{" V1 ",\"sessionId\":\"%s\",\"definitionId\":\"d\",\"definitionRevision\":1,"
                                           "\"updatedAt\":\"2026-07-11T00:00:00Z\",\"cursor\":0,\"confirmations\":[]}", id129);

  assert_decode (t128, OK);
  assert_decode (t129, INVALID);
  /* definitionRevision: Int > 0 */
#define REV(x) "{" V1 ",\"sessionId\":\"s\",\"definitionId\":\"d\",\"definitionRevision\":" x "," \
               "\"updatedAt\":\"2026-07-11T00:00:00Z\",\"cursor\":0,\"confirmations\":[]}"
  assert_decode (REV ("1"), OK);
  assert_decode (REV ("9007199254740991"), OK);
  assert_decode (REV ("9007199254740992"), INVALID);
  assert_decode (REV ("0"), INVALID);
  assert_decode (REV ("-0"), INVALID);
  assert_decode (REV ("1.5"), INVALID);
  assert_decode (REV ("\"1\""), INVALID);
#undef REV
  /* cursor: Int >= 0 */
  assert_decode (HEAD (V1) ",\"cursor\":-0,\"confirmations\":[]}", OK);
  assert_decode (HEAD (V1) ",\"cursor\":-1,\"confirmations\":[]}", INVALID);
  assert_decode (HEAD (V1) ",\"cursor\":null,\"confirmations\":[]}", INVALID);
  /* updatedAt: DateTime */
  assert_decode (HEAD (V1) ",\"updatedAt\":\"2026-07-11T02:00+02:00\",\"confirmations\":[]}", OK);
  assert_decode (HEAD (V1) ",\"updatedAt\":\"2026-07-11T02:00:00+0200\",\"confirmations\":[]}", INVALID);
  assert_decode (HEAD (V1) ",\"updatedAt\":\"2026-02-29T00:00:00Z\",\"confirmations\":[]}", INVALID);
  /* null is never absence */
  assert_decode (SNAP (",\"activeTurn\":null"), INVALID);
  assert_decode (SNAP (",\"terminalTurns\":null"), INVALID);
  assert_decode (SNAP (",\"conversation\":null"), INVALID);
  assert_decode (HEAD (V1) ",\"confirmations\":null}", INVALID);
  assert_decode (HEAD (V1) "}", INVALID);
  /* activeTurn */
  assert_decode (SNAP (",\"activeTurn\":{\"turnId\":\"t\",\"expiresAt\":0,\"x\":1}"), OK);
  assert_decode (SNAP (",\"activeTurn\":{\"turnId\":\"t\",\"expiresAt\":-1}"), INVALID);
  assert_decode (SNAP (",\"activeTurn\":{\"turnId\":\"t t\",\"expiresAt\":1}"), INVALID);
  assert_decode (SNAP (",\"activeTurn\":{\"turnId\":\"t\"}"), INVALID);
  /* terminal turns: outcome, uniqueness */
  assert_decode (SNAP (",\"terminalTurns\":[{\"turnId\":\"a\",\"outcome\":\"completed\"},{\"turnId\":\"A\",\"outcome\":\"indeterminate\"}]"), OK);
  assert_decode (SNAP (",\"terminalTurns\":[{\"turnId\":\"a\",\"outcome\":\"failed\"}]"), INVALID);
  assert_decode (SNAP (",\"terminalTurns\":[{\"turnId\":\"a\",\"outcome\":\"completed\"},{\"turnId\":\"a\",\"outcome\":\"indeterminate\"}]"), INVALID);
}

/* Array bounds at n and n + 1. */
static void
test_array_bounds (void)
{
  g_autoptr(GString) s = g_string_new (NULL);
  guint n, i;

  for (n = 64; n <= 65; n++)
    {
      g_string_assign (s, HEAD (V1) ",\"terminalTurns\":[");
      for (i = 0; i < n; i++)
        g_string_append_printf (s, "%s{\"turnId\":\"t%u\",\"outcome\":\"completed\"}", i ? "," : "", i);
      g_string_append (s, "],\"confirmations\":[]}");
      if (n == 64)
        assert_decode (s->str, OK);
      else
        assert_decode (s->str, INVALID);
    }

  for (n = 1000; n <= 1001; n++)
    {
      g_string_assign (s, HEAD (V1) ",\"conversation\":{\"state\":\"s\",\"decisions\":[");
      for (i = 0; i < n; i++)
        g_string_append_printf (s, "%s{\"messageId\":\"m%u\",\"input\":\"\",\"routeId\":\"r\",\"kind\":\"repaired\","
                                   "\"content\":\"\",\"fromState\":\"a\",\"toState\":\"b\"}", i ? "," : "", i);
      g_string_append (s, "]},\"confirmations\":[]}");
      if (n == 1000)
        assert_decode (s->str, OK);
      else
        assert_decode (s->str, INVALID);
    }

  for (n = 1000; n <= 1001; n++)
    {
      g_string_assign (s, HEAD (V1) ",\"confirmations\":[");
      for (i = 0; i < n; i++)
        g_string_append_printf (s, "%s{\"token\":\"k%u\",\"action\":\"a\",\"input\":{},\"toolCallId\":\"c%u\","
                                   "\"expiresAt\":%u,\"status\":\"expired\"}", i ? "," : "", i, i, i);
      g_string_append (s, "]}");
      if (n == 1000)
        assert_decode (s->str, OK);
      else
        assert_decode (s->str, INVALID);
    }
}

/* String bounds at n and n + 1, in UTF-16 code units. */
static void
test_string_bounds (void)
{
  struct {
    const char *fmt;   /* %s: the string */
    guint       max;
    gboolean    empty_ok;
  } fields[] = {
    { CONVERSATION ("%s", ""), 128, FALSE },
    { CONVERSATION ("s", DECISION ("m", "%s", "", "a")), 16384, TRUE },
    { CONVERSATION ("s", DECISION ("m", "", "%s", "a")), 65536, TRUE },
    { CONVERSATION ("s", DECISION ("m", "", "", "%s")), 128, FALSE },
  };
  guint f;

  for (f = 0; f < G_N_ELEMENTS (fields); f++)
    {
      guint variant;

      for (variant = 0; variant < 5; variant++)
        {
          g_autoptr(GString) str = g_string_new (NULL);
          g_autofree char *text = NULL;
          gboolean ok;
          guint i;

          switch (variant)
            {
            case 0:   /* max ASCII */
              for (i = 0; i < fields[f].max; i++)
                g_string_append_c (str, 'x');
              ok = TRUE;
              break;
            case 1:   /* max + 1 */
              for (i = 0; i <= fields[f].max; i++)
                g_string_append_c (str, 'x');
              ok = FALSE;
              break;
            case 2:   /* max in astral characters (2 units each) */
              for (i = 0; i < fields[f].max / 2; i++)
                g_string_append (str, "\xF0\x9F\x98\x80");
              ok = TRUE;
              break;
            case 3:   /* max + 1 with one more unit */
              for (i = 0; i < fields[f].max / 2; i++)
                g_string_append (str, "\xF0\x9F\x98\x80");
              g_string_append (str, "\xC3\xA9");
              ok = FALSE;
              break;
            default:  /* empty */
              ok = fields[f].empty_ok;
              break;
            }

          text = subst (fields[f].fmt, str->str);
          g_test_message ("field %u variant %u", f, variant);
          if (ok)
            assert_decode (text, OK);
          else
            assert_decode (text, INVALID);
        }
    }

  /* strings are not trimmed, U+0000 counts */
  assert_decode (CONVERSATION (" ", ""), OK);
  assert_decode (CONVERSATION ("\\u0000", ""), OK);
}

static void
test_decisions (void)
{
  assert_decode (CONVERSATION ("s", DECISION ("m", "", "", "a")), OK);
  assert_decode (CONVERSATION ("s", DECISION ("m", "", "", "a") "," DECISION ("M", "", "", "a")), OK);
  assert_decode (CONVERSATION ("s", DECISION ("m", "", "", "a") "," DECISION ("m", "x", "y", "z")), INVALID);
  assert_decode (CONVERSATION ("s", DECISION ("-m", "", "", "a")), INVALID);
  assert_decode (SNAP (",\"conversation\":{\"state\":\"s\"}"), INVALID);
  assert_decode (SNAP (",\"conversation\":{\"decisions\":[]}"), INVALID);
  assert_decode (SNAP (",\"conversation\":{\"state\":\"s\",\"decisions\":[{\"messageId\":\"m\",\"input\":\"\",\"routeId\":\"r\","
                       "\"kind\":\"guess\",\"content\":\"\",\"fromState\":\"a\",\"toState\":\"b\"}]}"), INVALID);
  assert_decode (SNAP (",\"conversation\":{\"state\":\"s\",\"decisions\":[{\"messageId\":\"m\",\"input\":\"\",\"routeId\":\"r\","
                       "\"kind\":\"deterministic\",\"content\":\"\",\"fromState\":\"a\"}]}"), INVALID);
  assert_decode (SNAP (",\"conversation\":{\"state\":\"s\",\"decisions\":[{\"messageId\":\"m\",\"input\":null,\"routeId\":\"r\","
                       "\"kind\":\"deterministic\",\"content\":\"\",\"fromState\":\"a\",\"toState\":\"b\"}]}"), INVALID);
  /* canonical order inside, unknown members dropped */
  {
    const char *t = SNAP (",\"conversation\":{\"z\":1,\"decisions\":[{\"toState\":\"b\",\"fromState\":\"a\",\"content\":\"c\","
                          "\"kind\":\"repaired\",\"routeId\":\"r\",\"input\":\"i\",\"messageId\":\"m\",\"q\":[]}],\"state\":\"s\"}");
    g_autoptr(AkcJsonValue) v = akc_session_snapshot_decode (t, -1, NULL);
    g_autofree char *c = akc_json_value_to_canonical (v, NULL);

    g_assert_nonnull (strstr (c, "\"conversation\":{\"state\":\"s\",\"decisions\":[{\"messageId\":\"m\",\"input\":\"i\","
                                 "\"routeId\":\"r\",\"kind\":\"repaired\",\"content\":\"c\",\"fromState\":\"a\",\"toState\":\"b\"}]}"));
  }
}

static void
test_confirmations (void)
{
  g_autoptr(GString) s = g_string_new (NULL);
  guint i, n;

  assert_decode (CONFIRMATIONS (CONFIRMATION ("k", "c", "{}")), OK);
  assert_decode (CONFIRMATIONS (CONFIRMATION ("k", "c", "{\"to\":[\"a@b\"],\"n\":null}")), OK);
  /* uniqueness: token and toolCallId each, exact equality */
  assert_decode (CONFIRMATIONS (CONFIRMATION ("k", "c", "{}") "," CONFIRMATION ("K", "C", "{}")), OK);
  assert_decode (CONFIRMATIONS (CONFIRMATION ("k", "c", "{}") "," CONFIRMATION ("k", "d", "{}")), INVALID);
  assert_decode (CONFIRMATIONS (CONFIRMATION ("k", "c", "{}") "," CONFIRMATION ("l", "c", "{}")), INVALID);
  /* a token may equal a toolCallId */
  assert_decode (CONFIRMATIONS (CONFIRMATION ("x", "y", "{}") "," CONFIRMATION ("y", "x", "{}")), OK);
  /* input: a map, not an array, not null */
  assert_decode (CONFIRMATIONS (CONFIRMATION ("k", "c", "[]")), INVALID);
  assert_decode (CONFIRMATIONS (CONFIRMATION ("k", "c", "null")), INVALID);
  assert_decode (CONFIRMATIONS (CONFIRMATION ("k", "c", "\"{}\"")), INVALID);
  /* `__proto__` is not copied (§9 item 9) */
  {
    g_autoptr(AkcJsonValue) v = akc_session_snapshot_decode (
      CONFIRMATIONS (CONFIRMATION ("k", "c", "{\"__proto__\":{\"x\":1},\"a\":1}")), -1, NULL);
    g_autofree char *c = akc_json_value_to_canonical (v, NULL);

    g_assert_nonnull (strstr (c, "\"input\":{\"a\":1}"));
  }
  /* status, expiresAt */
  assert_decode (CONFIRMATIONS ("{\"token\":\"k\",\"action\":\"a\",\"input\":{},\"toolCallId\":\"c\",\"expiresAt\":0,\"status\":\"done\"}"), INVALID);
  assert_decode (CONFIRMATIONS ("{\"token\":\"k\",\"action\":\"a\",\"input\":{},\"toolCallId\":\"c\",\"expiresAt\":1.5,\"status\":\"approving\"}"), INVALID);
  assert_decode (CONFIRMATIONS ("{\"token\":\"k\",\"action\":\"a b\",\"input\":{},\"toolCallId\":\"c\",\"expiresAt\":1,\"status\":\"approving\"}"), INVALID);

  /* BJV over the input, the object being the root (§1.9) */
#define WITH_INPUT CONFIRMATIONS (CONFIRMATION ("k", "c", "%s"))
  /* depth: 20 nested containers ok, 21 not */
  for (n = 20; n <= 21; n++)
    {
      g_autofree char *t = NULL;

      g_string_truncate (s, 0);
      for (i = 0; i < n; i++)
        g_string_append (s, i % 2 ? "[" : "{\"k\":");
      g_string_append (s, "1");
      for (i = n; i-- > 0;)
        g_string_append (s, i % 2 ? "]" : "}");
      t = subst (WITH_INPUT, s->str);
      if (n == 20)
        assert_decode (t, OK);
      else
        assert_decode (t, INVALID);
    }
  /* values: the root object + 999 members ok, + 1000 not */
  for (n = 999; n <= 1000; n++)
    {
      g_autofree char *t = NULL;

      g_string_assign (s, "{");
      for (i = 0; i < n; i++)
        g_string_append_printf (s, "%s\"m%u\":0", i ? "," : "", i);
      g_string_append (s, "}");
      t = subst (WITH_INPUT, s->str);
      if (n == 999)
        assert_decode (t, OK);
      else
        assert_decode (t, INVALID);
    }
  /* member names 256 / 257, string values 16384 / 16385 */
  for (n = 0; n < 4; n++)
    {
      g_autofree char *big = g_strnfill (n < 2 ? 256 + n : 16384 + (n - 2), 'x');
      g_autofree char *input = n < 2 ? g_strdup_printf ("{\"%s\":1}", big) : g_strdup_printf ("{\"k\":\"%s\"}", big);
      g_autofree char *t = subst (WITH_INPUT, input);

      if (n % 2 == 0)
        assert_decode (t, OK);
      else
        assert_decode (t, INVALID);
    }
#undef WITH_INPUT
  assert_decode (CONFIRMATIONS (CONFIRMATION ("k", "c", "{\"n\":1e400}")), INVALID);
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);

  akc_fixture_add_tests (FIXTURES, "/session/fixtures", "decodeSessionSnapshot", run_case, NULL);

  g_test_add_func ("/session/precedence", test_precedence);
  g_test_add_func ("/session/migration", test_migration);
  g_test_add_func ("/session/scalars", test_scalars);
  g_test_add_func ("/session/array-bounds", test_array_bounds);
  g_test_add_func ("/session/string-bounds", test_string_bounds);
  g_test_add_func ("/session/decisions", test_decisions);
  g_test_add_func ("/session/confirmations", test_confirmations);

  return g_test_run ();
}
