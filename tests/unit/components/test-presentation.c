/* test-presentation.c: ordered content, presenting a message, semantic
 * fallbacks and lifecycle targets (application.md §2.10, §12.2, §12.3,
 * §12.5)
 *
 * SPDX-License-Identifier: MIT
 */

#include "config.h"

#include <string.h>

#include "akc-component-test.h"
#include "akc-test.h"

/* The presentation at @i (borrowed: the list keeps it alive). */
static AkcPresentation *
at (GListModel *presentations,
    guint       i)
{
  g_autoptr(AkcPresentation) p = g_list_model_get_item (presentations, i);

  g_assert_nonnull (p);
  return p;
}

static AkcMessageRole
role_from_string (const char *role)
{
  g_autoptr(GEnumClass) roles = g_type_class_ref (AKC_TYPE_MESSAGE_ROLE);
  GEnumValue *value = g_enum_get_value_by_nick (roles, role);

  g_assert_nonnull (value);
  return value->value;
}

/* ------------------------------------------------------------------ */
/* Fixtures: ordered content (§2.10)                                   */
/* ------------------------------------------------------------------ */

static void
run_constants (const AkcFixtureCase *fc,
               gconstpointer         user_data)
{
  g_autoptr(AkcJsonValue) prefix = akc_json_value_new_string (AKC_ASSISTANT_CONTENT_PREFIX, -1);

  g_assert_cmpuint (strlen (AKC_ASSISTANT_CONTENT_PREFIX), ==, AKC_ASSISTANT_CONTENT_PREFIX_LENGTH);
  akc_assert_json_equal (prefix, akc_fixture_expect (fc, "prefix"));
  g_assert_cmpfloat (akc_json_value_get_number (akc_fixture_expect (fc, "prefixUtf8Bytes")), ==, AKC_ASSISTANT_CONTENT_PREFIX_LENGTH);
  g_assert_cmpfloat (akc_json_value_get_number (akc_fixture_expect (fc, "maxBytes")), ==, AKC_ASSISTANT_CONTENT_MAX_BYTES);
  g_assert_cmpfloat (akc_json_value_get_number (akc_fixture_expect (fc, "maxRecords")), ==, AKC_ASSISTANT_CONTENT_MAX_RECORDS);
}

/* encodeAssistantContent {parts} → {content}, byte for byte */
static void
run_encode (const AkcFixtureCase *fc,
            gconstpointer         user_data)
{
  g_autoptr(AkcAssistantContentEncoder) encoder = akc_assistant_content_encoder_new (FALSE);
  AkcJsonValue *parts = akc_test_input (fc, "parts");
  g_autoptr(GString) content = g_string_new (NULL);
  gsize expected_length;
  const char *expected = akc_json_value_get_string (akc_fixture_expect (fc, "content"), &expected_length);

  for (gsize i = 0; i < akc_json_value_get_length (parts); i++)
    {
      g_autoptr(GError) error = NULL;
      gsize length;
      g_autofree char *record = akc_assistant_content_encoder_encode (encoder, akc_json_value_get_element (parts, i),
                                                                     &length, &error);

      g_assert_no_error (error);
      g_string_append_len (content, record, length);
    }

  g_assert_cmpmem (content->str, content->len, expected, expected_length);
}

/* decodeAssistantContent {content} → {ok, parts, complete} | {ok:false, diagnostic} */
static void
run_decode (const AkcFixtureCase *fc,
            gconstpointer         user_data)
{
  gsize length;
  const char *content = akc_json_value_get_string (akc_test_input (fc, "content"), &length);
  g_autoptr(AkcDiagnostic) diagnostic = NULL;
  gboolean complete = FALSE;
  g_autoptr(AkcJsonValue) parts = akc_assistant_content_decode (content, (gssize) length, &complete, &diagnostic);

  if (akc_fixture_expect_ok (fc))
    {
      g_assert_null (diagnostic);
      akc_assert_json_equal (parts, akc_fixture_expect (fc, "parts"));
      g_assert_cmpint (complete, ==, akc_json_value_get_boolean (akc_fixture_expect (fc, "complete")));
    }
  else
    {
      g_assert_null (parts);
      akc_test_assert_diagnostic (diagnostic, akc_fixture_expect (fc, "diagnostic"));
    }
}

/* ------------------------------------------------------------------ */
/* Fixtures: presenting one message (§12.2)                            */
/* ------------------------------------------------------------------ */

/* The reference's message presentation: the message with its content
 * replaced by the presented text. */
static AkcJsonValue *
message_with_content (AkcJsonValue *message,
                      const char   *text)
{
  gsize n = akc_json_value_get_member_count (message);
  g_autofree const char **names = g_new (const char *, n);
  g_autofree AkcJsonValue **values = g_new (AkcJsonValue *, n);
  AkcJsonValue *result;

  for (gsize i = 0; i < n; i++)
    {
      names[i] = akc_json_value_get_member_name (message, i, NULL);
      values[i] = g_strcmp0 (names[i], "content") == 0
                  ? akc_json_value_new_string (text, -1)
                  : akc_json_value_ref (akc_json_value_get_member_value (message, i));
    }

  result = akc_json_value_new_object (names, values, n);
  for (gsize i = 0; i < n; i++)
    akc_json_value_unref (values[i]);

  return result;
}

static AkcJsonValue *
presentation_to_json (AkcPresentation *presentation,
                      AkcJsonValue    *message)
{
  switch (akc_presentation_get_kind (presentation))
    {
    case AKC_PRESENTATION_MESSAGE:
      {
        g_autoptr(AkcJsonValue) kind = akc_json_value_new_string ("message", -1);
        g_autoptr(AkcJsonValue) presented = message_with_content (message, akc_presentation_get_text (presentation, NULL));
        AkcJsonValue *values[] = { kind, presented };

        g_assert_cmpint (akc_presentation_get_rendering (presentation), ==, AKC_COMPONENT_RENDERING_NONE);
        return akc_json_value_new_object ((const char *[]) { "kind", "message" }, values, 2);
      }

    case AKC_PRESENTATION_DIAGNOSTIC:
      {
        AkcDiagnostic *diagnostic = akc_presentation_get_diagnostic (presentation);
        g_autoptr(AkcJsonValue) kind = akc_json_value_new_string ("diagnostic", -1);
        g_autoptr(AkcJsonValue) code = akc_json_value_new_string (akc_diagnostic_get_code (diagnostic), -1);
        g_autoptr(AkcJsonValue) text = akc_json_value_new_string (akc_diagnostic_get_message (diagnostic), -1);
        AkcJsonValue *values[] = { kind, code, text };

        /* Only the message is shown. */
        g_assert_cmpstr (akc_presentation_get_text (presentation, NULL), ==, akc_diagnostic_get_message (diagnostic));
        return akc_json_value_new_object ((const char *[]) { "kind", "code", "message" }, values, 3);
      }

    case AKC_PRESENTATION_COMPONENT:
      {
        g_autoptr(AkcJsonValue) kind = akc_json_value_new_string ("component", -1);
        AkcJsonValue *values[] = { kind, akc_presentation_get_frame (presentation) };

        g_assert_nonnull (akc_presentation_get_text (presentation, NULL));
        g_assert_true (g_str_has_prefix (akc_presentation_get_text (presentation, NULL), "[unsupported visual: "));
        return akc_json_value_new_object ((const char *[]) { "kind", "frame" }, values, 2);
      }

    default:
      g_assert_not_reached ();
    }
}

/* presentMessage {message} → {presentations} */
static void
run_present_message (const AkcFixtureCase *fc,
                     gconstpointer         user_data)
{
  AkcJsonValue *message = akc_test_input (fc, "message");
  gsize length;
  const char *content = akc_json_value_get_string (akc_json_value_get_member (message, "content"), &length);
  AkcMessageRole role = role_from_string (akc_json_value_get_string (akc_json_value_get_member (message, "role"), NULL));
  g_autoptr(AkcComponentManifest) manifest = akc_component_manifest_new_standard ();
  g_autoptr(GListModel) presentations = akc_present_content (role, content, (gssize) length, NULL);
  g_autoptr(GListModel) resolved = akc_present_content (role, content, (gssize) length, manifest);
  g_autoptr(GPtrArray) json = g_ptr_array_new_with_free_func ((GDestroyNotify) akc_json_value_unref);
  g_autoptr(AkcJsonValue) actual = NULL;
  g_autoptr(AkcJsonValue) expected = NULL;

  g_assert_cmpuint (g_list_model_get_n_items (resolved), ==, g_list_model_get_n_items (presentations));
  for (guint i = 0; i < g_list_model_get_n_items (presentations); i++)
    {
      AkcPresentation *p = at (presentations, i);
      AkcPresentation *r = at (resolved, i);

      g_ptr_array_add (json, presentation_to_json (p, message));

      /* Without a manifest a component is shown as its fallback; with the
       * standard manifest the same presentation resolves. */
      g_assert_cmpint (akc_presentation_get_kind (r), ==, akc_presentation_get_kind (p));
      g_assert_cmpstr (akc_presentation_get_text (r, NULL), ==, akc_presentation_get_text (p, NULL));
      if (akc_presentation_get_kind (p) == AKC_PRESENTATION_COMPONENT)
        {
          g_assert_cmpint (akc_presentation_get_rendering (p), ==, AKC_COMPONENT_RENDERING_FALLBACK);
          g_assert_null (akc_presentation_get_resolved (p));
          g_assert_null (akc_presentation_get_diagnostic (p));
          g_assert_cmpint (akc_presentation_get_rendering (r), ==, AKC_COMPONENT_RENDERING_STANDARD);
          g_assert_nonnull (akc_presentation_get_resolved (r));
        }
    }

  actual = akc_json_value_new_array ((AkcJsonValue **) json->pdata, json->len);
  expected = akc_json_value_ref (akc_fixture_expect (fc, "presentations"));
  akc_assert_json_equal (actual, expected);
}

/* formatSemanticFallback {fallback} → {ok, text} | {ok:false} */
static void
run_format_semantic_fallback (const AkcFixtureCase *fc,
                              gconstpointer         user_data)
{
  g_autofree char *text = akc_component_format_semantic_fallback (akc_test_input (fc, "fallback"));

  if (akc_fixture_expect_ok (fc))
    g_assert_cmpstr (text, ==, akc_fixture_expect_string (fc, "text"));
  else
    g_assert_null (text);
}

/* lifecycleTargets {messages: [{id, role}]} → {userId, assistantId} */
static void
run_lifecycle_targets (const AkcFixtureCase *fc,
                       gconstpointer         user_data)
{
  AkcJsonValue *messages = akc_test_input (fc, "messages");
  g_autoptr(GListStore) store = g_list_store_new (AKC_TYPE_MESSAGE);
  g_autofree char *user_id = NULL;
  g_autofree char *assistant_id = NULL;
  gboolean found;

  for (gsize i = 0; i < akc_json_value_get_length (messages); i++)
    {
      AkcJsonValue *m = akc_json_value_get_element (messages, i);
      g_autoptr(AkcMessage) message =
        akc_message_new (akc_json_value_get_string (akc_json_value_get_member (m, "id"), NULL),
                         role_from_string (akc_json_value_get_string (akc_json_value_get_member (m, "role"), NULL)),
                         "", AKC_MESSAGE_STATUS_COMPLETE);

      g_list_store_append (store, message);
    }

  found = akc_get_lifecycle_targets (G_LIST_MODEL (store), &user_id, &assistant_id);
  g_assert_cmpstr (user_id, ==, akc_fixture_expect_string (fc, "userId"));
  g_assert_cmpstr (assistant_id, ==, akc_fixture_expect_string (fc, "assistantId"));
  g_assert_cmpint (found, ==, user_id != NULL);
  g_assert_true ((user_id == NULL) == (assistant_id == NULL));
}

/* ------------------------------------------------------------------ */
/* Own cases                                                           */
/* ------------------------------------------------------------------ */

#define PREFIX "\x1e" "agentskit.chat.content/1\n"
#define FRAME(key, props) \
  "{\"protocol\":\"agentskit.chat.component\",\"version\":1,\"type\":\"render\",\"componentKey\":\"" key \
  "\",\"instanceId\":\"" key "-1\",\"props\":" props ",\"fallback\":{\"kind\":\"" key "\",\"summary\":\"Summary.\"}}"

static void
test_rendering_decisions (void)
{
  g_autoptr(AkcComponentManifest) manifest = akc_test_manifest ("custom");
  g_autofree char *content =
    g_strconcat (PREFIX,
                 "{\"kind\":\"component\",\"frame\":" FRAME ("progress", "{\"label\":\"U\",\"value\":1}") "}\n",
                 "{\"kind\":\"component\",\"frame\":" FRAME ("map-view", "{}") "}\n",
                 "{\"kind\":\"component\",\"frame\":" FRAME ("future", "{}") "}\n",
                 "{\"kind\":\"component\",\"frame\":" FRAME ("table", "{}") "}\n",
                 "{\"kind\":\"text\",\"text\":\"done\"}\n",
                 NULL);
  g_autoptr(GListModel) presentations = akc_present_content (AKC_MESSAGE_ROLE_ASSISTANT, content, -1, manifest);
  AkcPresentation *p;

  g_assert_cmpuint (g_list_model_get_n_items (presentations), ==, 5);

  p = at (presentations, 0);
  g_assert_cmpint (akc_presentation_get_rendering (p), ==, AKC_COMPONENT_RENDERING_STANDARD);
  g_assert_cmpstr (akc_resolved_component_get_component_key (akc_presentation_get_resolved (p)), ==, "progress");
  g_assert_cmpstr (akc_presentation_get_text (p, NULL), ==, "[unsupported visual: progress] Summary.");

  p = at (presentations, 1);
  g_assert_cmpint (akc_presentation_get_rendering (p), ==, AKC_COMPONENT_RENDERING_CUSTOM);
  g_assert_nonnull (akc_presentation_get_resolved (p));

  p = at (presentations, 2);
  g_assert_cmpint (akc_presentation_get_rendering (p), ==, AKC_COMPONENT_RENDERING_FALLBACK);
  g_assert_null (akc_presentation_get_resolved (p));
  g_assert_cmpstr (akc_diagnostic_get_code (akc_presentation_get_diagnostic (p)), ==, "COMPONENT_UNKNOWN");
  g_assert_cmpstr (akc_presentation_get_text (p, NULL), ==, "[unsupported visual: future] Summary.");

  p = at (presentations, 3);
  g_assert_cmpint (akc_presentation_get_rendering (p), ==, AKC_COMPONENT_RENDERING_FALLBACK);
  g_assert_cmpstr (akc_diagnostic_get_code (akc_presentation_get_diagnostic (p)), ==, "COMPONENT_INVALID_PROPS");

  p = at (presentations, 4);
  g_assert_cmpint (akc_presentation_get_kind (p), ==, AKC_PRESENTATION_MESSAGE);
  g_assert_cmpstr (akc_presentation_get_text (p, NULL), ==, "done");
  g_assert_null (akc_presentation_get_frame (p));
}

static void
test_present_message_object (void)
{
  g_autoptr(AkcMessage) system = akc_message_new ("s", AKC_MESSAGE_ROLE_SYSTEM, FRAME ("progress", "{\"label\":\"U\",\"value\":1}"),
                                                  AKC_MESSAGE_STATUS_COMPLETE);
  g_autoptr(AkcMessage) streaming = akc_message_new ("a", AKC_MESSAGE_ROLE_ASSISTANT, PREFIX "{\"kind\":\"text\",\"text\":\"Hel",
                                                     AKC_MESSAGE_STATUS_STREAMING);
  g_autoptr(AkcMessage) text = akc_message_new ("t", AKC_MESSAGE_ROLE_ASSISTANT, "[1, 2]", AKC_MESSAGE_STATUS_COMPLETE);
  g_autoptr(GListModel) a = akc_present_message (system, NULL);
  g_autoptr(GListModel) b = akc_present_message (streaming, NULL);
  g_autoptr(GListModel) c = akc_present_message (text, NULL);

  g_assert_cmpuint (g_list_model_get_n_items (a), ==, 1);
  g_assert_cmpint (akc_presentation_get_kind (at (a, 0)), ==, AKC_PRESENTATION_MESSAGE);
  /* A record still arriving renders nothing yet. */
  g_assert_cmpuint (g_list_model_get_n_items (b), ==, 0);
  g_assert_cmpuint (g_list_model_get_n_items (c), ==, 1);
  g_assert_cmpstr (akc_presentation_get_text (at (c, 0), NULL), ==, "[1, 2]");

  /* Text with U+0000 is kept whole. */
  {
    g_autoptr(GListModel) d = akc_present_content (AKC_MESSAGE_ROLE_USER, "a\0b", 3, NULL);

    gsize length;
    const char *d_text = akc_presentation_get_text (at (d, 0), &length);

    g_assert_cmpmem (d_text, length, "a\0b", 3);
  }
}

static void
test_semantic_fallback (void)
{
  g_autoptr(AkcJsonValue) astral = akc_test_parse_json ("{\"kind\":\"\xf0\x9f\x98\x80\",\"summary\":\"a\\u0000b\"}");
  g_autoptr(AkcJsonValue) not_object = akc_test_parse_json ("[\"k\",\"s\"]");
  g_autoptr(AkcJsonValue) null_summary = akc_test_parse_json ("{\"kind\":\"k\",\"summary\":null}");
  g_autofree char *text = akc_component_format_semantic_fallback (astral);

  g_assert_cmpmem (text, strlen ("[unsupported visual: \xf0\x9f\x98\x80] a") + 2,
                   "[unsupported visual: \xf0\x9f\x98\x80] a\0b", strlen ("[unsupported visual: \xf0\x9f\x98\x80] a") + 2);
  g_assert_null (akc_component_format_semantic_fallback (not_object));
  g_assert_null (akc_component_format_semantic_fallback (null_summary));
}

static void
test_lifecycle_without_outputs (void)
{
  g_autoptr(GListStore) store = g_list_store_new (AKC_TYPE_MESSAGE);
  g_autoptr(AkcMessage) user = akc_message_new ("u", AKC_MESSAGE_ROLE_USER, "hi", AKC_MESSAGE_STATUS_COMPLETE);
  g_autoptr(AkcMessage) system = akc_message_new ("s", AKC_MESSAGE_ROLE_SYSTEM, "", AKC_MESSAGE_STATUS_COMPLETE);
  g_autoptr(AkcMessage) assistant = akc_message_new ("a", AKC_MESSAGE_ROLE_ASSISTANT, "ok", AKC_MESSAGE_STATUS_COMPLETE);
  g_autofree char *user_id = NULL;

  g_list_store_append (store, user);
  g_list_store_append (store, system);
  g_list_store_append (store, assistant);
  g_assert_true (akc_get_lifecycle_targets (G_LIST_MODEL (store), NULL, NULL));
  g_assert_true (akc_get_lifecycle_targets (G_LIST_MODEL (store), &user_id, NULL));
  g_assert_cmpstr (user_id, ==, "u");
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);

  akc_fixture_add_tests ("application/presentation.json", "/components/presentation", "constants",
                         run_constants, NULL);
  akc_fixture_add_tests ("application/presentation.json", "/components/presentation", "encodeAssistantContent",
                         run_encode, NULL);
  akc_fixture_add_tests ("application/presentation.json", "/components/presentation", "decodeAssistantContent",
                         run_decode, NULL);
  akc_fixture_add_tests ("application/presentation.json", "/components/presentation", "presentMessage",
                         run_present_message, NULL);
  akc_fixture_add_tests ("application/presentation.json", "/components/presentation", "formatSemanticFallback",
                         run_format_semantic_fallback, NULL);
  akc_fixture_add_tests ("application/presentation.json", "/components/presentation", "lifecycleTargets",
                         run_lifecycle_targets, NULL);

  g_test_add_func ("/components/presentation/rendering-decisions", test_rendering_decisions);
  g_test_add_func ("/components/presentation/message-object", test_present_message_object);
  g_test_add_func ("/components/presentation/semantic-fallback", test_semantic_fallback);
  g_test_add_func ("/components/presentation/lifecycle-without-outputs", test_lifecycle_without_outputs);

  return g_test_run ();
}
