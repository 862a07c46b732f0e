/* test-schema.c: field tables, normalisation and the BJV check
 *
 * SPDX-License-Identifier: MIT
 */

#include "config.h"

#include <string.h>

#include "akc-fixture.h"
#include "akc-json-private.h"
#include "akc-schema-private.h"
#include "akc-text-private.h"
#include "akc-test.h"

/* Validates @text against @table; returns the canonical output or NULL. */
static char *
run (const AkcSchemaTable *table,
     const char           *text)
{
  g_autoptr(AkcJsonValue) in = akc_test_parse_json (text);
  g_autoptr(AkcJsonValue) out = NULL;
  gboolean ok_no_out = akc_schema_validate_table (table, in, NULL);
  gboolean ok = akc_schema_validate_table (table, in, &out);

  g_assert_cmpint (ok, ==, ok_no_out);   /* validation does not depend on building output */
  if (!ok)
    {
      g_assert_null (out);
      return NULL;
    }
  g_assert_nonnull (out);
  return akc_json_value_to_canonical (out, NULL);
}

#define assert_valid(table, text, canonical) \
  G_STMT_START { \
    g_autofree char *c_ = run ((table), (text)); \
    g_assert_cmpstr (c_, ==, (canonical)); \
  } G_STMT_END
#define assert_invalid(table, text) \
  G_STMT_START { \
    g_autofree char *c_ = run ((table), (text)); \
    g_assert_cmpstr (c_, ==, NULL); \
  } G_STMT_END

/* ------------------------------------------------------------------ */
/* Tables under test                                                   */
/* ------------------------------------------------------------------ */

static const char * const colours[] = { "red", "green", NULL };

static const AkcSchemaField inner_fields[] = {
  { "id",    AKC_SCHEMA_PATTERN (akc_text_is_safe_id) },
  { "label", AKC_SCHEMA_LABEL (5) },
};
static const AkcSchemaTable inner_open = AKC_SCHEMA_TABLE (inner_fields, AKC_SCHEMA_OPEN);
static const AkcSchemaTable inner_closed = AKC_SCHEMA_TABLE (inner_fields, AKC_SCHEMA_CLOSED);

static const char * const unique_id[] = { "id", NULL };

static const AkcSchemaField all_fields[] = {
  { "protocol", AKC_SCHEMA_LITERAL ("x.test") },
  { "version",  AKC_SCHEMA_NUMERIC_LITERAL (1) },
  { "colour",   AKC_SCHEMA_ENUM (colours) },
  { "count",    AKC_SCHEMA_INT (0, 10) },
  { "ratio",    AKC_SCHEMA_NUMBER (0, AKC_SCHEMA_UNBOUNDED), .optional = TRUE },
  { "flag",     AKC_SCHEMA_BOOL, .optional = TRUE },
  { "text",     AKC_SCHEMA_STRING (1, 4), .optional = TRUE },
  { "inner",    AKC_SCHEMA_OBJECT (&inner_open), .optional = TRUE },
  { "items",    AKC_SCHEMA_ARRAY_UNIQUE (&AKC_SCHEMA_TYPE (AKC_SCHEMA_OBJECT (&inner_closed)), 0, 2, unique_id), .optional = TRUE },
  { "props",    AKC_SCHEMA_BJV (&akc_bjv_default_limits), .optional = TRUE },
  { "meta",     AKC_SCHEMA_FREE_OBJECT (NULL), .optional = TRUE },
  { "args",     AKC_SCHEMA_MAP (3, NULL), .optional = TRUE },
  { "input",    AKC_SCHEMA_NOT_BLANK (AKC_SCHEMA_UNBOUNDED), .optional = TRUE },
  { "rev",      AKC_SCHEMA_INT_GT (0, AKC_SCHEMA_INT_MAX), .optional = TRUE },
};
static const AkcSchemaTable all_open = AKC_SCHEMA_TABLE (all_fields, AKC_SCHEMA_OPEN);
static const AkcSchemaTable all_closed = AKC_SCHEMA_TABLE (all_fields, AKC_SCHEMA_CLOSED);

#define BASE "\"protocol\":\"x.test\",\"version\":1,\"colour\":\"red\",\"count\":3"

static void
test_open_closed (void)
{
  /* reordering into table order; unknown members dropped (open) */
  assert_valid (&all_open, "{\"count\":3,\"zzz\":[1],\"colour\":\"red\",\"version\":1.0,\"protocol\":\"x.test\"}",
                "{" BASE "}");
  assert_invalid (&all_closed, "{" BASE ",\"zzz\":1}");
  /* __proto__ is ignored by closed objects (§9 item 9) and dropped */
  assert_valid (&all_closed, "{" BASE ",\"__proto__\":{\"x\":1}}", "{" BASE "}");
  assert_invalid (&all_open, "[]");
  assert_invalid (&all_open, "null");
  assert_invalid (&all_open, "\"{}\"");
}

static void
test_required_optional_null (void)
{
  assert_invalid (&all_open, "{\"protocol\":\"x.test\",\"version\":1,\"colour\":\"red\"}");
  /* null is never absence */
  assert_invalid (&all_open, "{" BASE ",\"flag\":null}");
  assert_invalid (&all_open, "{" BASE ",\"inner\":null}");
  assert_valid (&all_open, "{" BASE ",\"props\":null}", "{" BASE ",\"props\":null}");
  assert_valid (&all_open, "{" BASE ",\"flag\":false}", "{" BASE ",\"flag\":false}");
}

static void
test_scalars (void)
{
  /* literal, numeric literal (§1.7) */
  assert_invalid (&all_open, "{\"protocol\":\"x.tesT\",\"version\":1,\"colour\":\"red\",\"count\":3}");
  assert_invalid (&all_open, "{\"protocol\":\"x.test\",\"version\":\"1\",\"colour\":\"red\",\"count\":3}");
  assert_invalid (&all_open, "{\"protocol\":\"x.test\",\"version\":2,\"colour\":\"red\",\"count\":3}");
  assert_valid (&all_open, "{\"protocol\":\"x.test\",\"version\":1e0,\"colour\":\"red\",\"count\":3}", "{" BASE "}");
  /* enum */
  assert_invalid (&all_open, "{\"protocol\":\"x.test\",\"version\":1,\"colour\":\"blue\",\"count\":3}");
  assert_invalid (&all_open, "{\"protocol\":\"x.test\",\"version\":1,\"colour\":\"red\\u0000\",\"count\":3}");
  /* Int */
  assert_valid (&all_open, "{\"protocol\":\"x.test\",\"version\":1,\"colour\":\"red\",\"count\":3.0}", "{" BASE "}");
  assert_valid (&all_open, "{\"protocol\":\"x.test\",\"version\":1,\"colour\":\"red\",\"count\":-0}",
                "{\"protocol\":\"x.test\",\"version\":1,\"colour\":\"red\",\"count\":0}");
  assert_invalid (&all_open, "{\"protocol\":\"x.test\",\"version\":1,\"colour\":\"red\",\"count\":1.5}");
  assert_invalid (&all_open, "{\"protocol\":\"x.test\",\"version\":1,\"colour\":\"red\",\"count\":11}");
  assert_invalid (&all_open, "{\"protocol\":\"x.test\",\"version\":1,\"colour\":\"red\",\"count\":-1}");
  assert_invalid (&all_open, "{\"protocol\":\"x.test\",\"version\":1,\"colour\":\"red\",\"count\":\"3\"}");
  assert_valid (&all_open, "{" BASE ",\"rev\":9007199254740991}", "{" BASE ",\"rev\":9007199254740991}");
  assert_invalid (&all_open, "{" BASE ",\"rev\":9007199254740992}");
  assert_invalid (&all_open, "{" BASE ",\"rev\":0}");
  assert_valid (&all_open, "{" BASE ",\"rev\":1e2}", "{" BASE ",\"rev\":100}");
  /* Number */
  assert_valid (&all_open, "{" BASE ",\"ratio\":0.25}", "{" BASE ",\"ratio\":0.25}");
  assert_valid (&all_open, "{" BASE ",\"ratio\":-0}", "{" BASE ",\"ratio\":0}");
  assert_invalid (&all_open, "{" BASE ",\"ratio\":-0.1}");
  assert_invalid (&all_open, "{" BASE ",\"ratio\":1e999}");
  g_assert_true (akc_schema_is_int (-0.0));
  g_assert_false (akc_schema_is_int (0.5));
}

static void
test_strings (void)
{
  /* len16: "😀😀" is 2 code points but 4 units */
  assert_valid (&all_open, "{" BASE ",\"text\":\"abcd\"}", "{" BASE ",\"text\":\"abcd\"}");
  assert_invalid (&all_open, "{" BASE ",\"text\":\"abcde\"}");
  assert_invalid (&all_open, "{" BASE ",\"text\":\"\"}");
  assert_valid (&all_open, "{" BASE ",\"text\":\"\\ud83d\\ude00\\ud83d\\ude00\"}",
                "{" BASE ",\"text\":\"\xF0\x9F\x98\x80\xF0\x9F\x98\x80\"}");
  assert_invalid (&all_open, "{" BASE ",\"text\":\"\\ud83d\\ude00\\ud83d\\ude00x\"}");
  assert_valid (&all_open, "{" BASE ",\"text\":\"\xC3\xA9\xC3\xA9\xC3\xA9\xC3\xA9\"}",
                "{" BASE ",\"text\":\"\xC3\xA9\xC3\xA9\xC3\xA9\xC3\xA9\"}");
  /* trimmed labels: bounds after trimming, output trimmed (§1.4 set incl. U+FEFF, U+3000) */
  assert_valid (&all_open, "{" BASE ",\"inner\":{\"id\":\"a\",\"label\":\" \\ufeffabcde\\u3000\\n\"}}",
                "{" BASE ",\"inner\":{\"id\":\"a\",\"label\":\"abcde\"}}");
  assert_invalid (&all_open, "{" BASE ",\"inner\":{\"id\":\"a\",\"label\":\" \\t \"}}");
  assert_invalid (&all_open, "{" BASE ",\"inner\":{\"id\":\"a\",\"label\":\"abcdef\"}}");
  /* pattern */
  assert_invalid (&all_open, "{" BASE ",\"inner\":{\"id\":\"a\\n\",\"label\":\"x\"}}");
  assert_invalid (&all_open, "{" BASE ",\"inner\":{\"id\":\"-a\",\"label\":\"x\"}}");
  /* not blank: untrimmed output */
  assert_valid (&all_open, "{" BASE ",\"input\":\" hi \"}", "{" BASE ",\"input\":\" hi \"}");
  assert_invalid (&all_open, "{" BASE ",\"input\":\" \\u00a0 \"}");
  assert_invalid (&all_open, "{" BASE ",\"input\":\"\"}");
}

static void
test_arrays (void)
{
  assert_valid (&all_open, "{" BASE ",\"items\":[]}", "{" BASE ",\"items\":[]}");
  assert_valid (&all_open, "{" BASE ",\"items\":[{\"label\":\" b \",\"id\":\"b\"},{\"id\":\"a\",\"label\":\"a\"}]}",
                "{" BASE ",\"items\":[{\"id\":\"b\",\"label\":\"b\"},{\"id\":\"a\",\"label\":\"a\"}]}");
  /* count bound, uniqueness, closed items, element type */
  assert_invalid (&all_open, "{" BASE ",\"items\":[{\"id\":\"a\",\"label\":\"a\"},{\"id\":\"b\",\"label\":\"b\"},{\"id\":\"c\",\"label\":\"c\"}]}");
  assert_invalid (&all_open, "{" BASE ",\"items\":[{\"id\":\"a\",\"label\":\"a\"},{\"id\":\"a\",\"label\":\"b\"}]}");
  assert_invalid (&all_open, "{" BASE ",\"items\":[{\"id\":\"a\",\"label\":\"a\",\"x\":1}]}");
  assert_invalid (&all_open, "{" BASE ",\"items\":[1]}");
  assert_invalid (&all_open, "{" BASE ",\"items\":{}}");
}

static void
test_free_forms (void)
{
  /* BJV: any value, kept verbatim (free-form order on output) */
  assert_valid (&all_open, "{" BASE ",\"props\":{\"b\":1,\"1\":[null,{\"z\":\"\"}]}}",
                "{" BASE ",\"props\":{\"1\":[null,{\"z\":\"\"}],\"b\":1}}");
  assert_invalid (&all_open, "{" BASE ",\"props\":[1e400]}");
  /* free object: must be an object */
  assert_valid (&all_open, "{" BASE ",\"meta\":{\"__proto__\":1,\"x\":[1]}}",
                "{" BASE ",\"meta\":{\"__proto__\":1,\"x\":[1]}}");
  assert_invalid (&all_open, "{" BASE ",\"meta\":[]}");
  assert_invalid (&all_open, "{" BASE ",\"meta\":null}");
  /* map: names len16 <= 3, __proto__ not copied */
  assert_valid (&all_open, "{" BASE ",\"args\":{\"abc\":{\"deep\":[1]},\"__proto__\":{},\"x\":null}}",
                "{" BASE ",\"args\":{\"abc\":{\"deep\":[1]},\"x\":null}}");
  assert_invalid (&all_open, "{" BASE ",\"args\":{\"abcd\":1}}");
  assert_invalid (&all_open, "{" BASE ",\"args\":[]}");
}

/* Unchanged input is shared, changed input is rebuilt, failures allocate
 * nothing visible. */
static void
test_sharing (void)
{
  g_autoptr(AkcJsonValue) in = akc_test_parse_json ("{" BASE ",\"inner\":{\"id\":\"a\",\"label\":\"x\"},\"props\":{\"k\":[1]}}");
  g_autoptr(AkcJsonValue) out = NULL;
  g_autoptr(AkcJsonValue) in2 = akc_test_parse_json ("{" BASE ",\"inner\":{\"id\":\"a\",\"label\":\"x \"},\"props\":{\"k\":[1]},\"extra\":1}");
  g_autoptr(AkcJsonValue) out2 = NULL;

  g_assert_true (akc_schema_validate_table (&all_open, in, &out));
  g_assert_true (out == in);

  g_assert_true (akc_schema_validate_table (&all_open, in2, &out2));
  g_assert_true (out2 != in2);
  /* the untouched subtree is shared by reference, the trimmed one rebuilt */
  g_assert_true (akc_json_value_get_member (out2, "props") == akc_json_value_get_member (in2, "props"));
  g_assert_true (akc_json_value_get_member (out2, "inner") != akc_json_value_get_member (in2, "inner"));
  g_clear_pointer (&in2, akc_json_value_unref);   /* out2 keeps the shared parts alive */
  akc_assert_canonical (out2, "{" BASE ",\"inner\":{\"id\":\"a\",\"label\":\"x\"},\"props\":{\"k\":[1]}}");
}

/* Unions, custom types and cross-field checks */

static const AkcSchemaField submit_fields[] = {
  { "operation", AKC_SCHEMA_LITERAL ("submit") },
};
static const char * const mutation_ops[] = { "retry", "edit", "regenerate", NULL };
static const AkcSchemaField mutation_fields[] = {
  { "operation",       AKC_SCHEMA_ENUM (mutation_ops) },
  { "parentTurnId",    AKC_SCHEMA_PATTERN (akc_text_is_safe_id) },
  { "sourceMessageId", AKC_SCHEMA_PATTERN (akc_text_is_safe_id) },
};
static const AkcSchemaTable submit_table = AKC_SCHEMA_TABLE (submit_fields, AKC_SCHEMA_OPEN);
static const AkcSchemaTable mutation_table = AKC_SCHEMA_TABLE (mutation_fields, AKC_SCHEMA_OPEN);
static const AkcSchemaTable * const lineage_tables[] = { &submit_table, &mutation_table, NULL };

static gboolean
payload_by_kind (const AkcSchemaType *type,
                 AkcJsonValue        *value,
                 const AkcJsonValue  *parent,
                 AkcJsonValue       **out)
{
  AkcJsonValue *kind = akc_json_value_get_member (parent, "kind");
  static const AkcSchemaType number = AKC_SCHEMA_NUMBER_ANY;
  static const AkcSchemaType string = AKC_SCHEMA_STRING (0, AKC_SCHEMA_UNBOUNDED);

  g_assert_true (type->user_data == GINT_TO_POINTER (42));
  if (akc_json_string_equals (kind, "n"))
    return akc_schema_validate (&number, value, parent, out);
  if (akc_json_string_equals (kind, "s"))
    return akc_schema_validate (&string, value, parent, out);
  return FALSE;
}

static gboolean
low_le_high (const AkcJsonValue *normalised,
             gpointer            user_data)
{
  AkcJsonValue *lo = akc_json_value_get_member (normalised, "lo");
  AkcJsonValue *hi = akc_json_value_get_member (normalised, "hi");

  return akc_json_value_get_number (lo) <= akc_json_value_get_number (hi);
}

static const AkcSchemaField misc_fields[] = {
  { "lineage", AKC_SCHEMA_UNION ("operation", lineage_tables), .optional = TRUE },
  { "kind",    AKC_SCHEMA_ENUM (((const char * const []) { "n", "s", NULL })) },
  { "payload", AKC_SCHEMA_CUSTOM (payload_by_kind, GINT_TO_POINTER (42)) },
  { "lo",      AKC_SCHEMA_INT_ANY },
  { "hi",      AKC_SCHEMA_INT_ANY },
};
static const AkcSchemaTable misc_table =
  AKC_SCHEMA_TABLE_CHECKED (misc_fields, AKC_SCHEMA_OPEN, low_le_high, NULL);

static void
test_union_custom_check (void)
{
  assert_valid (&misc_table, "{\"kind\":\"n\",\"payload\":1,\"lo\":1,\"hi\":2,\"lineage\":{\"operation\":\"submit\",\"parentTurnId\":\"x\"}}",
                "{\"lineage\":{\"operation\":\"submit\"},\"kind\":\"n\",\"payload\":1,\"lo\":1,\"hi\":2}");
  assert_valid (&misc_table, "{\"kind\":\"s\",\"payload\":\"p\",\"lo\":1,\"hi\":1,\"lineage\":{\"operation\":\"edit\",\"parentTurnId\":\"t\",\"sourceMessageId\":\"m\"}}",
                "{\"lineage\":{\"operation\":\"edit\",\"parentTurnId\":\"t\",\"sourceMessageId\":\"m\"},\"kind\":\"s\",\"payload\":\"p\",\"lo\":1,\"hi\":1}");
  assert_invalid (&misc_table, "{\"kind\":\"s\",\"payload\":1,\"lo\":1,\"hi\":2}");
  assert_invalid (&misc_table, "{\"kind\":\"n\",\"payload\":1,\"lo\":3,\"hi\":2}");
  assert_invalid (&misc_table, "{\"kind\":\"n\",\"payload\":1,\"lo\":1,\"hi\":2,\"lineage\":{\"operation\":\"edit\",\"parentTurnId\":\"t\"}}");
  assert_invalid (&misc_table, "{\"kind\":\"n\",\"payload\":1,\"lo\":1,\"hi\":2,\"lineage\":{\"operation\":\"fork\"}}");
  assert_invalid (&misc_table, "{\"kind\":\"n\",\"payload\":1,\"lo\":1,\"hi\":2,\"lineage\":{\"operation\":1}}");
}

/* A table with more fields than the stack slots, and a large input object
 * (indexed lookup path). */
static void
test_large (void)
{
  static AkcSchemaField fields[40];
  static AkcSchemaTable table;
  static char names[40][8];
  g_autoptr(GString) text = g_string_new ("{");
  g_autoptr(GString) expect = g_string_new ("{");
  guint i;

  for (i = 0; i < 40; i++)
    {
      g_snprintf (names[i], sizeof names[i], "f%u", i);
      fields[i] = (AkcSchemaField) { names[i], AKC_SCHEMA_INT (0, 100), .optional = (i % 2) == 1 };
    }
  table = (AkcSchemaTable) { fields, 40, AKC_SCHEMA_OPEN, NULL, NULL };

  for (i = 40; i-- > 0;)
    if (i % 4 != 1)
      g_string_append_printf (text, "\"f%u\":%u,\"junk%u\":0,", i, i, i);
  g_string_append (text, "\"z\":0}");
  for (i = 0; i < 40; i++)
    if (i % 4 != 1)
      g_string_append_printf (expect, "%s\"f%u\":%u", i ? "," : "", i, i);
  g_string_append (expect, "}");

  {
    g_autofree char *c = run (&table, text->str);
    g_assert_cmpstr (c, ==, expect->str);
  }
}

/* ------------------------------------------------------------------ */
/* BJV                                                                 */
/* ------------------------------------------------------------------ */

static gboolean
bjv (const char *text)
{
  g_autoptr(AkcJsonValue) v = akc_test_parse_json (text);

  return akc_bjv_check (v, &akc_bjv_default_limits);
}

static void
test_bjv (void)
{
  g_autoptr(GString) s = g_string_new (NULL);
  guint i;

  g_assert_true (bjv ("null"));
  g_assert_true (bjv ("{\"a\":[1,\"x\",true,null,{}]}"));
  g_assert_false (bjv ("[1e400]"));
  g_assert_false (bjv ("{\"a\":{\"b\":-1e400}}"));

  /* depth: 20 wrappers ok, 21 not */
  for (i = 0; i < 20; i++)
    g_string_append (s, "[");
  g_string_append (s, "1");
  for (i = 0; i < 20; i++)
    g_string_append (s, "]");
  g_assert_true (bjv (s->str));
  g_string_prepend (s, "{\"k\":");
  g_string_append (s, "}");
  g_assert_false (bjv (s->str));

  /* count: 999 scalars + root ok, 1000 not */
  g_string_assign (s, "[0");
  for (i = 1; i < 999; i++)
    g_string_append (s, ",0");
  g_string_append (s, "]");
  g_assert_true (bjv (s->str));
  g_string_insert (s, 1, "0,");
  g_assert_false (bjv (s->str));

  /* string len16 16384 (emoji count 2) */
  g_string_assign (s, "\"");
  for (i = 0; i < 8192; i++)
    g_string_append (s, "\xF0\x9F\x98\x80");
  g_string_append (s, "\"");
  g_assert_true (bjv (s->str));
  g_string_insert (s, 1, "a");
  g_assert_false (bjv (s->str));

  /* member name len16 <= 256 */
  g_string_assign (s, "{\"");
  for (i = 0; i < 256; i++)
    g_string_append_c (s, 'n');
  g_string_append (s, "\":1}");
  g_assert_true (bjv (s->str));
  g_string_insert (s, 2, "n");
  g_assert_false (bjv (s->str));

  /* message limits: unbounded strings, depth 32 */
  {
    g_autoptr(AkcJsonValue) v = akc_test_parse_json ("[\"long\"]");
    g_assert_true (akc_bjv_check (v, &akc_bjv_message_limits));
  }
}

/* ------------------------------------------------------------------ */
/* Component frames from the fixtures, through a minimal §3.5 decoder   */
/* built only from schema tables (exercises parse, schema, BJV and the  */
/* canonical writer end to end).                                        */
/* ------------------------------------------------------------------ */

static const AkcSchemaField fallback_fields[] = {
  { "kind",    AKC_SCHEMA_STRING (1, 64) },
  { "summary", AKC_SCHEMA_STRING (1, 4096) },
};
static const AkcSchemaTable fallback_table = AKC_SCHEMA_TABLE (fallback_fields, AKC_SCHEMA_OPEN);

static const AkcSchemaField frame_fields[] = {
  { "protocol",     AKC_SCHEMA_LITERAL ("agentskit.chat.component") },
  { "version",      AKC_SCHEMA_NUMERIC_LITERAL (1) },
  { "type",         AKC_SCHEMA_LITERAL ("render") },
  { "componentKey", AKC_SCHEMA_PATTERN (akc_text_is_component_key) },
  { "instanceId",   AKC_SCHEMA_PATTERN (akc_text_is_safe_id) },
  { "props",        AKC_SCHEMA_BJV (&akc_bjv_default_limits) },
  { "fallback",     AKC_SCHEMA_OBJECT (&fallback_table) },
};
static const AkcSchemaTable frame_table = AKC_SCHEMA_TABLE (frame_fields, AKC_SCHEMA_OPEN);

static void
run_frame_case (const AkcFixtureCase *fc,
                gconstpointer         user_data)
{
  g_autoptr(AkcJsonValue) candidate = NULL;
  g_autoptr(AkcJsonValue) frame = NULL;
  const char *code = NULL;
  const char *message = NULL;
  AkcJsonValue *expected;

  if (g_strcmp0 (fc->input_kind, "text") == 0)
    {
      gsize len;
      const char *text = akc_json_value_get_string (fc->input, &len);

      candidate = akc_json_parse (text, len, NULL, NULL, NULL);
      if (candidate == NULL)
        {
          code = "COMPONENT_INVALID_FRAME";
          message = "Component frame is not valid JSON.";
        }
    }
  else
    candidate = akc_json_value_ref (fc->input);

  if (code == NULL && AKC_JSON_IS_OBJECT (candidate) &&
      akc_json_string_equals (akc_json_value_get_member (candidate, "protocol"), "agentskit.chat.component"))
    {
      AkcJsonValue *version = akc_json_value_get_member (candidate, "version");

      if (AKC_JSON_IS_NUMBER (version) && akc_json_value_get_number (version) != 1)
        {
          code = "COMPONENT_UNSUPPORTED_VERSION";
          message = "Component frame uses an unsupported version.";
        }
      else if (!akc_json_string_equals (akc_json_value_get_member (candidate, "type"), "render"))
        {
          code = "COMPONENT_UNKNOWN_TYPE";
          message = "Component frame type is unknown.";
        }
    }

  if (code == NULL && !akc_schema_validate_table (&frame_table, candidate, &frame))
    {
      code = "COMPONENT_INVALID_FRAME";
      message = "Component frame payload is invalid.";
    }

  if (!akc_fixture_expect_ok (fc))
    {
      g_assert_cmpstr (code, ==, akc_fixture_expect_string (fc, "code"));
      if (akc_fixture_expect_string (fc, "message"))
        g_assert_cmpstr (message, ==, akc_fixture_expect_string (fc, "message"));
      return;
    }

  g_assert_cmpstr (code, ==, NULL);
  expected = akc_fixture_expect (fc, "value");
  if (expected != NULL)
    akc_assert_json_equal (frame, expected);
  if (akc_fixture_expect_string (fc, "canonical") != NULL)
    akc_assert_canonical (frame, akc_fixture_expect_string (fc, "canonical"));
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/schema/open-closed", test_open_closed);
  g_test_add_func ("/schema/required-optional-null", test_required_optional_null);
  g_test_add_func ("/schema/scalars", test_scalars);
  g_test_add_func ("/schema/strings", test_strings);
  g_test_add_func ("/schema/arrays", test_arrays);
  g_test_add_func ("/schema/free-forms", test_free_forms);
  g_test_add_func ("/schema/sharing", test_sharing);
  g_test_add_func ("/schema/union-custom-check", test_union_custom_check);
  g_test_add_func ("/schema/large", test_large);
  g_test_add_func ("/schema/bjv", test_bjv);
  akc_fixture_add_tests ("protocol/component-frames.json", "/schema/component-frames",
                         "decodeComponentFrame", run_frame_case, NULL);

  return g_test_run ();
}
