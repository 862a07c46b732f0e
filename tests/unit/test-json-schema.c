/* test-json-schema.c
 *
 * SPDX-License-Identifier: MIT
 */

#include "config.h"

#include <akc.h>

static AkcJsonValue *
json (const char *text)
{
  g_autoptr(GError) error = NULL;
  AkcJsonValue *value = akc_json_value_parse (text, -1, &error);

  g_assert_no_error (error);
  return value;
}

static void
assert_valid (AkcJsonSchema *schema,
              const char    *text)
{
  g_autoptr(AkcJsonValue) value = json (text);
  g_autoptr(GError) error = NULL;

  if (!akc_json_schema_validate (schema, value, &error))
    g_error ("%s should be valid: %s", text, error->message);
}

static void
assert_invalid (AkcJsonSchema *schema,
                const char    *text,
                const char    *message)
{
  g_autoptr(AkcJsonValue) value = json (text);
  g_autoptr(GError) error = NULL;

  g_assert_false (akc_json_schema_validate (schema, value, &error));
  g_assert_error (error, AKC_ERROR, AKC_ERROR_TOOL_INVALID_INPUT);
  g_assert_cmpstr (error->message, ==, message);
}

/* The strict ticket schema of the support demo (application.md §13.2). */
static void
test_support_ticket (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(AkcJsonSchema) schema =
    akc_json_schema_new_from_string ("{\"type\":\"object\","
                                     "\"properties\":{\"subject\":{\"type\":\"string\",\"minLength\":1,\"maxLength\":160},"
                                     "\"priority\":{\"enum\":[\"normal\",\"urgent\"]}},"
                                     "\"required\":[\"subject\",\"priority\"],"
                                     "\"additionalProperties\":false}", &error);
  g_autofree char *long_subject = NULL;
  g_autofree char *astral = NULL;
  g_autofree char *too_long = NULL;

  g_assert_no_error (error);
  assert_valid (schema, "{\"subject\":\"Chat follow-up requested\",\"priority\":\"normal\"}");
  assert_valid (schema, "{\"priority\":\"urgent\",\"subject\":\"x\"}");
  assert_invalid (schema, "{\"subject\":\"\",\"priority\":\"critical\"}",
                  "Tool call arguments are invalid at subject: too short.");
  assert_invalid (schema, "{\"subject\":\"x\",\"priority\":\"critical\"}",
                  "Tool call arguments are invalid at priority: not one of the allowed values.");
  assert_invalid (schema, "{\"subject\":\"x\"}",
                  "Tool call arguments are invalid at priority: missing.");
  assert_invalid (schema, "{\"subject\":7,\"priority\":\"normal\"}",
                  "Tool call arguments are invalid at subject: wrong type.");
  /* An extra member is refused without quoting its name. */
  assert_invalid (schema, "{\"subject\":\"x\",\"priority\":\"normal\",\"secret-name\":1}",
                  "Tool call arguments are invalid at the top level: a member that is not allowed.");
  assert_invalid (schema, "[]", "Tool call arguments are invalid at the top level: wrong type.");

  /* Lengths count UTF-16 code units: 80 astral characters are 160 units. */
  long_subject = g_strnfill (160, 'a');
  astral = g_strjoinv (NULL, (char *[]) { "\xf0\x9f\x98\x80", NULL });
  {
    g_autoptr(GString) units160 = g_string_new (NULL);
    g_autofree char *text = NULL;

    for (guint i = 0; i < 80; i++)
      g_string_append (units160, astral);
    text = g_strdup_printf ("{\"subject\":\"%s\",\"priority\":\"normal\"}", units160->str);
    assert_valid (schema, text);
    g_string_append (units160, "a");
    g_free (text);
    text = g_strdup_printf ("{\"subject\":\"%s\",\"priority\":\"normal\"}", units160->str);
    assert_invalid (schema, text, "Tool call arguments are invalid at subject: too long.");
  }
  too_long = g_strdup_printf ("{\"subject\":\"%sb\",\"priority\":\"normal\"}", long_subject);
  assert_invalid (schema, too_long, "Tool call arguments are invalid at subject: too long.");
}

/* The operation id schema of the operations demo (§13.4), and the empty
 * strict object of the onboarding demo (§13.3). */
static void
test_patterns_and_empty_objects (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(AkcJsonSchema) operation =
    akc_json_schema_new_from_string ("{\"type\":\"object\",\"properties\":{\"id\":{\"type\":\"string\",\"pattern\":\"^[a-z][a-z0-9-]{0,63}$\"}},"
                                     "\"required\":[\"id\"],\"additionalProperties\":false}", &error);
  g_autoptr(AkcJsonSchema) empty =
    akc_json_schema_new_from_string ("{\"type\":\"object\",\"properties\":{},\"additionalProperties\":false}", &error);

  g_assert_no_error (error);
  assert_valid (operation, "{\"id\":\"checkout-api\"}");
  assert_valid (operation, "{\"id\":\"a123456789012345678901234567890123456789012345678901234567890123\"}");
  assert_invalid (operation, "{\"id\":\"Checkout API\"}",
                  "Tool call arguments are invalid at id: does not match the expected pattern.");
  /* The pattern is anchored; a NUL cannot hide a suffix from it. */
  assert_invalid (operation, "{\"id\":\"checkout\\u0000 API\"}",
                  "Tool call arguments are invalid at id: does not match the expected pattern.");
  assert_invalid (operation, "{\"id\":\"a1234567890123456789012345678901234567890123456789012345678901234\"}",
                  "Tool call arguments are invalid at id: does not match the expected pattern.");

  assert_valid (empty, "{}");
  assert_invalid (empty, "{\"x\":null}", "Tool call arguments are invalid at the top level: a member that is not allowed.");
}

static void
test_numbers_arrays_and_nesting (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(AkcJsonSchema) schema =
    akc_json_schema_new_from_string ("{\"type\":\"object\",\"properties\":{"
                                     "\"count\":{\"type\":\"integer\",\"minimum\":1,\"maximum\":10},"
                                     "\"ratio\":{\"type\":\"number\",\"exclusiveMinimum\":0,\"exclusiveMaximum\":1},"
                                     "\"tags\":{\"type\":\"array\",\"items\":{\"type\":\"string\",\"maxLength\":3},\"minItems\":1,\"maxItems\":2},"
                                     "\"owner\":{\"type\":[\"object\",\"null\"],\"properties\":{\"name\":{\"const\":\"ada\"}},\"additionalProperties\":{\"type\":\"boolean\"}}},"
                                     "\"title\":\"annotations are ignored\",\"description\":\"really\"}", &error);

  g_assert_no_error (error);
  assert_valid (schema, "{}");
  assert_valid (schema, "{\"count\":10,\"ratio\":0.5,\"tags\":[\"a\",\"bcd\"],\"owner\":null,\"other\":[1]}");
  assert_valid (schema, "{\"count\":1.0,\"owner\":{\"name\":\"ada\",\"admin\":true}}");
  assert_invalid (schema, "{\"count\":1.5}", "Tool call arguments are invalid at count: wrong type.");
  assert_invalid (schema, "{\"count\":0}", "Tool call arguments are invalid at count: too small.");
  assert_invalid (schema, "{\"count\":11}", "Tool call arguments are invalid at count: too large.");
  assert_invalid (schema, "{\"ratio\":1}", "Tool call arguments are invalid at ratio: too large.");
  assert_invalid (schema, "{\"ratio\":0}", "Tool call arguments are invalid at ratio: too small.");
  assert_invalid (schema, "{\"tags\":[]}", "Tool call arguments are invalid at tags: too few items.");
  assert_invalid (schema, "{\"tags\":[\"a\",\"b\",\"c\"]}", "Tool call arguments are invalid at tags: too many items.");
  assert_invalid (schema, "{\"tags\":[\"a\",\"long\"]}", "Tool call arguments are invalid at tags[1]: too long.");
  assert_invalid (schema, "{\"owner\":{\"name\":\"bob\"}}", "Tool call arguments are invalid at owner.name: not the expected value.");
  assert_invalid (schema, "{\"owner\":{\"admin\":1}}", "Tool call arguments are invalid at owner: wrong type.");
  assert_invalid (schema, "{\"owner\":7}", "Tool call arguments are invalid at owner: wrong type.");
}

static void
test_refuses_unsupported_schemas (void)
{
  const struct { const char *schema; const char *message; } cases[] = {
    { "{\"oneOf\":[]}", "Tool argument schema is invalid at the root: it uses a keyword this validator does not support." },
    { "{\"type\":\"date\"}", "Tool argument schema is invalid at the root: unknown type." },
    { "{\"properties\":{\"a\":{\"minLength\":-1}}}", "Tool argument schema is invalid at a: a length bound must be a non-negative integer." },
    { "{\"properties\":{\"a\":{\"pattern\":\"(\"}}}", "Tool argument schema is invalid at a: pattern is not a valid regular expression." },
    { "{\"enum\":[]}", "Tool argument schema is invalid at the root: enum must be a non-empty list." },
    { "{\"required\":[1]}", "Tool argument schema is invalid at the root: required must be a list of names." },
    { "\"string\"", "Tool argument schema is invalid at the root: a schema must be an object or a boolean." },
    { "{\"properties\":{\"a\":{\"properties\":{\"b\":{\"format\":\"email\"}}}}}", "Tool argument schema is invalid at a.b: it uses a keyword this validator does not support." },
  };
  g_autoptr(GString) deep = g_string_new (NULL);
  g_autoptr(GError) error = NULL;
  g_autoptr(AkcJsonSchema) nothing = NULL;

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr(GError) case_error = NULL;
      g_autoptr(AkcJsonSchema) schema = akc_json_schema_new_from_string (cases[i].schema, &case_error);

      g_assert_null (schema);
      g_assert_error (case_error, AKC_ERROR, AKC_ERROR_CONFIG_INVALID);
      g_assert_cmpstr (case_error->message, ==, cases[i].message);
    }

  for (guint i = 0; i < 40; i++)
    g_string_append (deep, "{\"items\":");
  g_string_append (deep, "true");
  for (guint i = 0; i < 40; i++)
    g_string_append_c (deep, '}');
  g_assert_null (akc_json_schema_new_from_string (deep->str, &error));
  g_assert_error (error, AKC_ERROR, AKC_ERROR_CONFIG_INVALID);
  g_clear_error (&error);

  g_assert_null (akc_json_schema_new_from_string ("{", &error));
  g_assert_error (error, AKC_ERROR, AKC_ERROR_CONFIG_INVALID);
  g_clear_error (&error);

  /* `false` accepts nothing. */
  nothing = akc_json_schema_new_from_string ("false", &error);
  g_assert_no_error (error);
  assert_invalid (nothing, "{}", "Tool call arguments are invalid at the top level: not one of the allowed values.");
}

static char *
record_ticket (AkcTool       *tool,
               AkcJsonValue  *arguments,
               gpointer       user_data,
               GError       **error)
{
  guint *runs = user_data;

  (*runs)++;
  return g_strdup ("Ticket SUP-1 created for follow-up.");
}

/* The controller checks the schema after registration and confirmation and
 * before authorization (application.md §5.4): malformed arguments are
 * reported before a missing capability. */
static char *
deny_all (AkcChat      *chat,
          AkcToolCall  *call,
          AkcToolPhase  phase,
          gpointer      user_data)
{
  guint *asked = user_data;

  (*asked)++;
  return g_strdup ("missing-capability");
}

static void
test_chat_checks_schema_before_authorization (void)
{
  g_autoptr(AkcAdapter) adapter = akc_scripted_adapter_new ();
  g_autoptr(AkcChat) chat = akc_chat_new (adapter);
  g_autoptr(AkcTool) tool = NULL;
  g_autoptr(AkcJsonSchema) schema = NULL;
  g_autoptr(AkcJsonValue) bad = json ("{\"subject\":\"\",\"priority\":\"critical\"}");
  g_autoptr(AkcJsonValue) good = json ("{\"subject\":\"Chat follow-up requested\",\"priority\":\"normal\"}");
  g_autoptr(AkcToolCall) call = NULL;
  g_autoptr(GError) error = NULL;
  guint runs = 0;
  guint asked = 0;

  schema = akc_json_schema_new_from_string ("{\"type\":\"object\","
                                            "\"properties\":{\"subject\":{\"type\":\"string\",\"minLength\":1,\"maxLength\":160},"
                                            "\"priority\":{\"enum\":[\"normal\",\"urgent\"]}},"
                                            "\"required\":[\"subject\",\"priority\"],\"additionalProperties\":false}", &error);
  g_assert_no_error (error);
  tool = akc_tool_new ("create-support-ticket", TRUE, record_ticket, &runs, NULL);
  akc_tool_set_argument_schema (tool, schema);
  g_assert_true (akc_tool_get_argument_schema (tool) == schema);
  akc_chat_add_tool (chat, tool);
  akc_chat_set_tool_authorizer (chat, deny_all, &asked, NULL);

  call = akc_chat_source_propose_tool_call (AKC_CHAT_SOURCE (chat), "app-1", "create-support-ticket", bad, &error);
  g_assert_null (call);
  g_assert_error (error, AKC_ERROR, AKC_ERROR_TOOL_INVALID_INPUT);
  g_assert_cmpuint (asked, ==, 0);
  g_clear_error (&error);

  call = akc_chat_source_propose_tool_call (AKC_CHAT_SOURCE (chat), "app-2", "create-support-ticket", good, &error);
  g_assert_null (call);
  g_assert_error (error, AKC_ERROR, AKC_ERROR_TOOL_FORBIDDEN);
  g_assert_cmpstr (error->message, ==, "missing-capability");
  g_assert_cmpuint (asked, ==, 1);
  g_assert_cmpuint (runs, ==, 0);
  g_assert_cmpuint (g_list_model_get_n_items (akc_chat_source_get_messages (AKC_CHAT_SOURCE (chat))), ==, 0);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/json-schema/support-ticket", test_support_ticket);
  g_test_add_func ("/json-schema/patterns-and-empty-objects", test_patterns_and_empty_objects);
  g_test_add_func ("/json-schema/numbers-arrays-nesting", test_numbers_arrays_and_nesting);
  g_test_add_func ("/json-schema/refuses-unsupported", test_refuses_unsupported_schemas);
  g_test_add_func ("/json-schema/chat-order", test_chat_checks_schema_before_authorization);

  return g_test_run ();
}
