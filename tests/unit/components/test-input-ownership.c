/* test-input-ownership.c: which component owns input, and the set of
 * resolved instances (application.md §12.2, §12.4, §12.7)
 *
 * SPDX-License-Identifier: MIT
 */

#include "config.h"

#include <string.h>

#include "akc-component-test.h"

#define PREFIX "\x1e" "agentskit.chat.content/1\n"

/* A render frame as JSON text (§2.1). */
static char *
frame (const char *key,
       const char *instance_id,
       const char *props)
{
  return g_strdup_printf ("{\"protocol\":\"agentskit.chat.component\",\"version\":1,\"type\":\"render\","
                          "\"componentKey\":\"%s\",\"instanceId\":\"%s\",\"props\":%s,"
                          "\"fallback\":{\"kind\":\"%s\",\"summary\":\"A %s.\"}}",
                          key, instance_id, props, key, key);
}

/* Ordered-content records (§2.10). */
static char *
component_record (const char *key,
                  const char *instance_id,
                  const char *props)
{
  g_autofree char *f = frame (key, instance_id, props);

  return g_strdup_printf ("{\"kind\":\"component\",\"frame\":%s}\n", f);
}

static char *
text_record (const char *text)
{
  return g_strdup_printf ("{\"kind\":\"text\",\"text\":\"%s\"}\n", text);
}

/* PREFIX followed by the records, each consumed. */
static char *
envelope (char *first,
          ...)
{
  GString *content = g_string_new (PREFIX);
  va_list args;

  va_start (args, first);
  for (char *record = first; record != NULL; record = va_arg (args, char *))
    {
      g_string_append (content, record);
      g_free (record);
    }
  va_end (args);

  return g_string_free (content, FALSE);
}

/* Valid props of the standard components (§1.15). */
#define BUTTONS      "{\"label\":\"Actions\",\"buttons\":[{\"id\":\"save\",\"label\":\"Save\"}]}"
#define CHOICES      "{\"prompt\":\"Where?\",\"choices\":[{\"id\":\"docs\",\"label\":\"Docs\"},{\"id\":\"demo\",\"label\":\"Demo\"}]}"
#define FORM         "{\"title\":\"Contact\",\"fields\":[{\"id\":\"email\",\"label\":\"Email\",\"type\":\"email\"}],\"submitLabel\":\"Send\"}"
#define CONFIRMATION "{\"title\":\"Delete?\",\"message\":\"Sure.\",\"confirmLabel\":\"Delete\",\"cancelLabel\":\"Cancel\"}"
#define APPROVAL     "{\"title\":\"Send?\",\"description\":\"Send it.\",\"approveLabel\":\"Approve\",\"denyLabel\":\"Deny\"}"
#define LINK_CARD    "{\"title\":\"Guide\",\"href\":\"https://example.com/guide\"}"
#define SOURCES      "{\"label\":\"Sources\",\"sources\":[{\"id\":\"docs\",\"title\":\"Docs\",\"url\":\"/docs\"}]}"
#define ERROR_NOTICE "{\"title\":\"Failed\",\"message\":\"Try again.\",\"retryLabel\":\"Retry\"}"
#define ATTACHMENT   "{\"name\":\"report.pdf\",\"mimeType\":\"application/pdf\",\"url\":\"/report.pdf\"}"
#define PROGRESS     "{\"label\":\"Upload\",\"value\":42}"
#define TOOL_CALL    "{\"name\":\"Search\",\"status\":\"running\"}"
#define TABLE        "{\"caption\":\"Users\",\"columns\":[{\"key\":\"name\",\"label\":\"Name\"}],\"rows\":[]}"

/* Takes @content. */
static AkcMessage *
message_take (AkcMessageRole  role,
              char           *content)
{
  static guint serial;
  g_autofree char *id = g_strdup_printf ("m%u", ++serial);
  AkcMessage *message = akc_message_new (id, role, content, AKC_MESSAGE_STATUS_COMPLETE);

  g_free (content);
  return message;
}

static AkcMessage *
assistant_frame (const char *key,
                 const char *instance_id,
                 const char *props)
{
  return message_take (AKC_MESSAGE_ROLE_ASSISTANT, frame (key, instance_id, props));
}

/* Appends @message to @store, consuming it. */
static void
add (GListStore *store,
     AkcMessage *message)
{
  g_list_store_append (store, message);
  g_object_unref (message);
}

/* What a view shows for the message at @position, in short: M for a
 * bubble, D(code) for a diagnostic, S(key) / C(key) for a standard /
 * custom component, F(code) for a semantic fallback. */
static char *
describe (GListStore           *messages,
          guint                 position,
          AkcComponentManifest *manifest)
{
  g_autoptr(AkcMessage) message = g_list_model_get_item (G_LIST_MODEL (messages), position);
  g_autoptr(GListModel) shown = akc_present_message (message, manifest);
  GString *out = g_string_new (NULL);

  for (guint i = 0; i < g_list_model_get_n_items (shown); i++)
    {
      g_autoptr(AkcPresentation) p = g_list_model_get_item (shown, i);
      AkcDiagnostic *diagnostic = akc_presentation_get_diagnostic (p);
      AkcResolvedComponent *resolved = akc_presentation_get_resolved (p);

      if (i > 0)
        g_string_append_c (out, ' ');

      switch (akc_presentation_get_kind (p))
        {
        case AKC_PRESENTATION_MESSAGE:
          g_string_append (out, "M");
          break;
        case AKC_PRESENTATION_DIAGNOSTIC:
          g_string_append_printf (out, "D(%s)", akc_diagnostic_get_code (diagnostic));
          break;
        case AKC_PRESENTATION_COMPONENT:
        default:
          if (resolved == NULL)
            g_string_append_printf (out, "F(%s)", diagnostic != NULL ? akc_diagnostic_get_code (diagnostic) : "");
          else
            g_string_append_printf (out, "%c(%s)", akc_resolved_component_is_standard (resolved) ? 'S' : 'C',
                                    akc_resolved_component_get_component_key (resolved));
          break;
        }
    }

  return g_string_free (out, FALSE);
}

#define assert_shown(messages, position, manifest, expected) \
  G_STMT_START { \
    g_autofree char *_shown = describe ((messages), (position), (manifest)); \
    g_assert_cmpstr (_shown, ==, (expected)); \
  } G_STMT_END

#define UNTOUCHED 777u

/* The active component is @instance_id, the presentation at
 * (@message_position, @presentation_position); or nothing when
 * @instance_id is NULL, with the positions left as they were. */
static void
assert_active (AkcInputOwnership    *ownership,
               GListStore           *messages,
               AkcComponentManifest *manifest,
               const char           *instance_id,
               guint                 message_position,
               guint                 presentation_position)
{
  guint m = UNTOUCHED, p = UNTOUCHED;
  g_autoptr(AkcPresentation) active = akc_input_ownership_find_active (ownership, G_LIST_MODEL (messages), manifest, &m, &p);
  g_autoptr(AkcPresentation) again = akc_input_ownership_find_active (ownership, G_LIST_MODEL (messages), manifest, NULL, NULL);

  if (instance_id == NULL)
    {
      g_assert_null (active);
      g_assert_null (again);
      g_assert_cmpuint (m, ==, UNTOUCHED);
      g_assert_cmpuint (p, ==, UNTOUCHED);
      return;
    }

  g_assert_nonnull (active);
  g_assert_cmpint (akc_presentation_get_kind (active), ==, AKC_PRESENTATION_COMPONENT);
  g_assert_nonnull (akc_presentation_get_resolved (active));
  g_assert_cmpstr (akc_resolved_component_get_instance_id (akc_presentation_get_resolved (active)), ==, instance_id);
  g_assert_true (akc_resolved_component_is_interactive (akc_presentation_get_resolved (active)));
  g_assert_false (akc_input_ownership_is_resolved (ownership, instance_id));
  g_assert_cmpuint (m, ==, message_position);
  g_assert_cmpuint (p, ==, presentation_position);

  /* The positions name the same presentation a view shows. */
  {
    g_autoptr(AkcMessage) message = g_list_model_get_item (G_LIST_MODEL (messages), m);
    g_autoptr(GListModel) shown = akc_present_message (message, manifest);
    g_autoptr(AkcPresentation) same = g_list_model_get_item (shown, p);

    g_assert_nonnull (same);
    akc_assert_json_equal (akc_presentation_get_frame (same), akc_presentation_get_frame (active));
  }

  g_assert_nonnull (again);
  akc_assert_json_equal (akc_presentation_get_frame (again), akc_presentation_get_frame (active));
}

/* ------------------------------------------------------------------ */
/* The set of resolved instances (§12.7)                               */
/* ------------------------------------------------------------------ */

typedef struct {
  guint      count;
  GPtrArray *ids;   /* the ids of each emission, "" for NULL */
} Changes;

static void
on_changed (AkcInputOwnership *ownership,
            const char        *instance_id,
            Changes           *changes)
{
  changes->count++;
  g_ptr_array_add (changes->ids, g_strdup (instance_id != NULL ? instance_id : ""));
}

static void
test_resolved_set (void)
{
  AkcInputOwnership *ownership = akc_input_ownership_new ();
  Changes changes = { 0, g_ptr_array_new_with_free_func (g_free) };

  g_signal_connect (ownership, "changed", G_CALLBACK (on_changed), &changes);

  g_assert_cmpuint (akc_input_ownership_get_n_resolved (ownership), ==, 0);
  g_assert_false (akc_input_ownership_is_resolved (ownership, "a"));

  /* Marking twice: the second time says "already resolved, ignore". */
  g_assert_true (akc_input_ownership_mark_resolved (ownership, "a"));
  g_assert_false (akc_input_ownership_mark_resolved (ownership, "a"));
  g_assert_true (akc_input_ownership_is_resolved (ownership, "a"));
  g_assert_false (akc_input_ownership_is_resolved (ownership, "b"));
  g_assert_true (akc_input_ownership_mark_resolved (ownership, "b"));
  g_assert_cmpuint (akc_input_ownership_get_n_resolved (ownership), ==, 2);

  /* Un-marking what is not there changes nothing. */
  g_assert_false (akc_input_ownership_unmark_resolved (ownership, "c"));
  g_assert_true (akc_input_ownership_unmark_resolved (ownership, "a"));
  g_assert_false (akc_input_ownership_unmark_resolved (ownership, "a"));
  g_assert_false (akc_input_ownership_is_resolved (ownership, "a"));
  g_assert_true (akc_input_ownership_is_resolved (ownership, "b"));
  g_assert_cmpuint (akc_input_ownership_get_n_resolved (ownership), ==, 1);

  /* Ids are compared whole, by value. */
  {
    g_autofree char *copy = g_strdup ("b");

    g_assert_true (akc_input_ownership_is_resolved (ownership, copy));
    g_assert_false (akc_input_ownership_is_resolved (ownership, "bb"));
    g_assert_false (akc_input_ownership_is_resolved (ownership, ""));
  }

  /* A new session forgets everything, once. */
  akc_input_ownership_reset (ownership);
  g_assert_cmpuint (akc_input_ownership_get_n_resolved (ownership), ==, 0);
  g_assert_false (akc_input_ownership_is_resolved (ownership, "b"));
  akc_input_ownership_reset (ownership);

  g_assert_cmpuint (changes.count, ==, 4);
  g_assert_cmpstr (g_ptr_array_index (changes.ids, 0), ==, "a");
  g_assert_cmpstr (g_ptr_array_index (changes.ids, 1), ==, "b");
  g_assert_cmpstr (g_ptr_array_index (changes.ids, 2), ==, "a");
  g_assert_cmpstr (g_ptr_array_index (changes.ids, 3), ==, "");

  g_ptr_array_unref (changes.ids);
  g_assert_finalize_object (ownership);
}

/* ------------------------------------------------------------------ */
/* Finding the active component (§12.4)                                */
/* ------------------------------------------------------------------ */

static void
test_empty (void)
{
  AkcInputOwnership *ownership = akc_input_ownership_new ();
  g_autoptr(AkcComponentManifest) manifest = akc_component_manifest_new_standard ();
  GListStore *messages = g_list_store_new (AKC_TYPE_MESSAGE);

  assert_active (ownership, messages, manifest, NULL, 0, 0);
  add (messages, message_take (AKC_MESSAGE_ROLE_USER, g_strdup ("hi")));
  add (messages, message_take (AKC_MESSAGE_ROLE_ASSISTANT, g_strdup ("Hello.")));
  add (messages, message_take (AKC_MESSAGE_ROLE_ASSISTANT, g_strdup ("")));
  assert_active (ownership, messages, manifest, NULL, 0, 0);

  g_assert_finalize_object (messages);
  g_assert_finalize_object (ownership);
}

/* §12.2 rule 1: only assistant messages are decoded. */
static void
test_only_assistant_messages (void)
{
  AkcInputOwnership *ownership = akc_input_ownership_new ();
  g_autoptr(AkcComponentManifest) manifest = akc_component_manifest_new_standard ();
  GListStore *messages = g_list_store_new (AKC_TYPE_MESSAGE);

  add (messages, message_take (AKC_MESSAGE_ROLE_USER, frame ("choice-list", "user-direct", CHOICES)));
  add (messages, message_take (AKC_MESSAGE_ROLE_SYSTEM, frame ("confirmation", "system-direct", CONFIRMATION)));
  add (messages, message_take (AKC_MESSAGE_ROLE_TOOL, frame ("button-group", "tool-direct", BUTTONS)));
  add (messages, message_take (AKC_MESSAGE_ROLE_USER,
                               envelope (component_record ("approval-request", "user-ordered", APPROVAL), NULL)));
  /* Each of them is only text... */
  for (guint i = 0; i < 4; i++)
    assert_shown (messages, i, manifest, "M");
  /* ...so none owns input. */
  assert_active (ownership, messages, manifest, NULL, 0, 0);

  /* An older assistant component does, past the newer look-alikes. */
  {
    g_autoptr(AkcMessage) older = assistant_frame ("button-group", "assistant-direct", BUTTONS);

    g_list_store_insert (messages, 0, older);
  }
  assert_active (ownership, messages, manifest, "assistant-direct", 0, 0);

  g_assert_finalize_object (messages);
  g_assert_finalize_object (ownership);
}

/* §12.2 rules 2 and 3: ordered-content envelopes and legacy direct frames;
 * diagnostics and other JSON never own input. */
static void
test_direct_and_ordered (void)
{
  AkcInputOwnership *ownership = akc_input_ownership_new ();
  g_autoptr(AkcComponentManifest) manifest = akc_component_manifest_new_standard ();
  GListStore *messages = g_list_store_new (AKC_TYPE_MESSAGE);

  add (messages, assistant_frame ("form", "direct", FORM));
  assert_active (ownership, messages, manifest, "direct", 0, 0);

  /* text, component, text: the component is the second presentation. */
  add (messages, message_take (AKC_MESSAGE_ROLE_ASSISTANT,
                               envelope (text_record ("Before."),
                                         component_record ("confirmation", "ordered", CONFIRMATION),
                                         text_record ("After."),
                                         NULL)));
  assert_active (ownership, messages, manifest, "ordered", 1, 1);

  /* Newer content that only looks like components. */
  add (messages, message_take (AKC_MESSAGE_ROLE_ASSISTANT, g_strdup ("{\"protocol\":\"other\",\"componentKey\":\"form\"}")));
  add (messages, message_take (AKC_MESSAGE_ROLE_ASSISTANT,
                               g_strdup ("{\"protocol\":\"agentskit.chat.component\",\"version\":1}")));
  add (messages, message_take (AKC_MESSAGE_ROLE_ASSISTANT, g_strdup (PREFIX "not json\n")));
  add (messages, message_take (AKC_MESSAGE_ROLE_ASSISTANT, g_strdup ("```json\n{}\n```")));
  assert_shown (messages, 0, manifest, "S(form)");
  assert_shown (messages, 1, manifest, "M S(confirmation) M");
  assert_shown (messages, 2, manifest, "M");
  assert_shown (messages, 3, manifest, "D(COMPONENT_UNKNOWN_TYPE)");
  assert_shown (messages, 4, manifest, "D(ASSISTANT_CONTENT_INVALID_RECORD)");
  assert_shown (messages, 5, manifest, "M");
  assert_active (ownership, messages, manifest, "ordered", 1, 1);

  g_assert_true (akc_input_ownership_mark_resolved (ownership, "ordered"));
  assert_active (ownership, messages, manifest, "direct", 0, 0);
  g_assert_true (akc_input_ownership_mark_resolved (ownership, "direct"));
  assert_active (ownership, messages, manifest, NULL, 0, 0);

  g_assert_finalize_object (messages);
  g_assert_finalize_object (ownership);
}

/* Within one message, from the last presentation to the first. */
static void
test_several_in_one_message (void)
{
  AkcInputOwnership *ownership = akc_input_ownership_new ();
  g_autoptr(AkcComponentManifest) manifest = akc_component_manifest_new_standard ();
  GListStore *messages = g_list_store_new (AKC_TYPE_MESSAGE);

  add (messages, assistant_frame ("link-card", "older", LINK_CARD));
  /* 0 button-group, 1 text, 2 choice-list, 3 progress, 4 table, 5 text */
  add (messages, message_take (AKC_MESSAGE_ROLE_ASSISTANT,
                               envelope (component_record ("button-group", "first", BUTTONS),
                                         text_record ("Pick one"),
                                         text_record (" of these:"),
                                         component_record ("choice-list", "second", CHOICES),
                                         component_record ("progress", "display-1", PROGRESS),
                                         component_record ("table", "display-2", TABLE),
                                         text_record ("Thanks."),
                                         NULL)));

  assert_shown (messages, 1, manifest, "S(button-group) M S(choice-list) S(progress) S(table) M");

  /* The last unresolved interactive one wins; display-only ones after it
   * are passed over. */
  assert_active (ownership, messages, manifest, "second", 1, 2);
  g_assert_true (akc_input_ownership_mark_resolved (ownership, "second"));
  assert_active (ownership, messages, manifest, "first", 1, 0);
  g_assert_true (akc_input_ownership_mark_resolved (ownership, "first"));
  assert_active (ownership, messages, manifest, "older", 0, 0);

  /* The first becomes usable again: it is newer than "older". */
  g_assert_true (akc_input_ownership_unmark_resolved (ownership, "first"));
  assert_active (ownership, messages, manifest, "first", 1, 0);

  g_assert_finalize_object (messages);
  g_assert_finalize_object (ownership);
}

/* Resolving the newest hands input to the next older unresolved one;
 * un-resolving (§12.7 failures) hands it back. */
static void
test_resolve_and_unresolve (void)
{
  AkcInputOwnership *ownership = akc_input_ownership_new ();
  g_autoptr(AkcComponentManifest) manifest = akc_component_manifest_new_standard ();
  GListStore *messages = g_list_store_new (AKC_TYPE_MESSAGE);

  add (messages, assistant_frame ("confirmation", "confirm-1", CONFIRMATION));
  add (messages, message_take (AKC_MESSAGE_ROLE_USER, g_strdup ("why?")));
  add (messages, assistant_frame ("approval-request", "approve-1", APPROVAL));
  add (messages, message_take (AKC_MESSAGE_ROLE_USER, g_strdup ("hm")));
  add (messages, message_take (AKC_MESSAGE_ROLE_ASSISTANT, g_strdup ("Let me know.")));

  assert_active (ownership, messages, manifest, "approve-1", 2, 0);

  g_assert_true (akc_input_ownership_mark_resolved (ownership, "approve-1"));
  assert_active (ownership, messages, manifest, "confirm-1", 0, 0);

  g_assert_true (akc_input_ownership_mark_resolved (ownership, "confirm-1"));
  assert_active (ownership, messages, manifest, NULL, 0, 0);

  /* A failed interaction callback un-resolves: active again. */
  g_assert_true (akc_input_ownership_unmark_resolved (ownership, "approve-1"));
  assert_active (ownership, messages, manifest, "approve-1", 2, 0);

  /* Un-resolving an older one does not take input from a newer one. */
  g_assert_true (akc_input_ownership_unmark_resolved (ownership, "confirm-1"));
  assert_active (ownership, messages, manifest, "approve-1", 2, 0);
  g_assert_true (akc_input_ownership_mark_resolved (ownership, "approve-1"));
  assert_active (ownership, messages, manifest, "confirm-1", 0, 0);

  /* A new session: the newest owns input again. */
  akc_input_ownership_reset (ownership);
  assert_active (ownership, messages, manifest, "approve-1", 2, 0);

  /* Ids that are not in the conversation do not matter. */
  g_assert_true (akc_input_ownership_mark_resolved (ownership, "elsewhere"));
  assert_active (ownership, messages, manifest, "approve-1", 2, 0);

  g_assert_finalize_object (messages);
  g_assert_finalize_object (ownership);
}

/* Every standard component with events can own input; progress, tool-call
 * and table never do. */
static void
test_standard_components (void)
{
  static const struct {
    const char *key;
    const char *props;
    gboolean    interactive;
  } components[] = {
    { "button-group", BUTTONS, TRUE },
    { "choice-list", CHOICES, TRUE },
    { "form", FORM, TRUE },
    { "confirmation", CONFIRMATION, TRUE },
    { "progress", PROGRESS, FALSE },
    { "source-list", SOURCES, TRUE },
    { "link-card", LINK_CARD, TRUE },
    { "error-notice", ERROR_NOTICE, TRUE },
    /* The definition declares `retry`, whatever these props allow. */
    { "error-notice", "{\"title\":\"Failed\",\"message\":\"No retry.\"}", TRUE },
    { "tool-call", TOOL_CALL, FALSE },
    { "approval-request", APPROVAL, TRUE },
    { "table", TABLE, FALSE },
    { "file-attachment", ATTACHMENT, TRUE },
  };
  g_autoptr(AkcComponentManifest) manifest = akc_component_manifest_new_standard ();

  for (guint i = 0; i < G_N_ELEMENTS (components); i++)
    {
      AkcInputOwnership *ownership = akc_input_ownership_new ();
      GListStore *messages = g_list_store_new (AKC_TYPE_MESSAGE);
      g_autofree char *instance_id = g_strdup_printf ("%s-%u", components[i].key, i);

      g_test_message ("%s %s", components[i].key, components[i].props);
      add (messages, assistant_frame (components[i].key, instance_id, components[i].props));
      assert_active (ownership, messages, manifest, components[i].interactive ? instance_id : NULL, 0, 0);

      /* Display-only components never own input, resolved or not, and
       * are passed over for an older interactive one. */
      if (!components[i].interactive)
        {
          g_autoptr(AkcMessage) older = assistant_frame ("confirmation", "older", CONFIRMATION);

          g_list_store_insert (messages, 0, older);
          assert_active (ownership, messages, manifest, "older", 0, 0);
          g_assert_true (akc_input_ownership_mark_resolved (ownership, instance_id));
          assert_active (ownership, messages, manifest, "older", 0, 0);
        }

      g_assert_finalize_object (messages);
      g_assert_finalize_object (ownership);
    }

  /* All three display-only components after an interactive one. */
  {
    AkcInputOwnership *ownership = akc_input_ownership_new ();
    GListStore *messages = g_list_store_new (AKC_TYPE_MESSAGE);

    add (messages, assistant_frame ("button-group", "open", BUTTONS));
    add (messages, assistant_frame ("progress", "p", PROGRESS));
    add (messages, assistant_frame ("tool-call", "t", TOOL_CALL));
    add (messages, message_take (AKC_MESSAGE_ROLE_ASSISTANT,
                                 envelope (component_record ("table", "tb", TABLE),
                                           component_record ("progress", "p2", PROGRESS),
                                           NULL)));
    assert_active (ownership, messages, manifest, "open", 0, 0);

    g_assert_finalize_object (messages);
    g_assert_finalize_object (ownership);
  }
}

/* No manifest configured: nothing resolves, nothing owns input. */
static void
test_no_manifest (void)
{
  AkcInputOwnership *ownership = akc_input_ownership_new ();
  g_autoptr(AkcComponentManifest) manifest = akc_component_manifest_new_standard ();
  GListStore *messages = g_list_store_new (AKC_TYPE_MESSAGE);

  add (messages, assistant_frame ("choice-list", "choices", CHOICES));
  add (messages, message_take (AKC_MESSAGE_ROLE_ASSISTANT,
                               envelope (component_record ("form", "form", FORM), NULL)));

  assert_active (ownership, messages, NULL, NULL, 0, 0);
  assert_active (ownership, messages, manifest, "form", 1, 0);

  g_assert_finalize_object (messages);
  g_assert_finalize_object (ownership);
}

/* Frames that do not resolve (unknown key, invalid props) show the
 * semantic fallback and never own input; frames that do not decode are
 * diagnostics. */
static void
test_unresolved_frames (void)
{
  AkcInputOwnership *ownership = akc_input_ownership_new ();
  g_autoptr(AkcComponentManifest) manifest = akc_component_manifest_new_standard ();
  g_autoptr(AkcComponentManifest) choices_only = akc_test_manifest ("choice-list-only");
  GListStore *messages = g_list_store_new (AKC_TYPE_MESSAGE);

  add (messages, assistant_frame ("choice-list", "valid", CHOICES));
  /* Invalid props: no buttons; a choice without a label. */
  add (messages, assistant_frame ("button-group", "no-buttons", "{\"label\":\"Actions\"}"));
  add (messages, message_take (AKC_MESSAGE_ROLE_ASSISTANT,
                               envelope (component_record ("choice-list", "bad-choice",
                                                           "{\"prompt\":\"Where?\",\"choices\":[{\"id\":\"docs\"}]}"),
                                         component_record ("confirmation", "not-an-object", "[]"),
                                         NULL)));
  /* Unknown key. */
  add (messages, assistant_frame ("map-view", "unknown", "{}"));
  /* Does not decode: a bad instance id. */
  add (messages, assistant_frame ("form", "not safe", FORM));

  assert_active (ownership, messages, manifest, "valid", 0, 0);

  /* What the view shows for them: fallbacks and a diagnostic. */
  assert_shown (messages, 1, manifest, "F(COMPONENT_INVALID_PROPS)");
  assert_shown (messages, 2, manifest, "F(COMPONENT_INVALID_PROPS) F(COMPONENT_INVALID_PROPS)");
  assert_shown (messages, 3, manifest, "F(COMPONENT_UNKNOWN)");
  assert_shown (messages, 4, manifest, "D(COMPONENT_INVALID_FRAME)");

  /* Against a manifest without button-group, a valid button group is an
   * unknown key. */
  add (messages, assistant_frame ("button-group", "not-in-manifest", BUTTONS));
  assert_shown (messages, 5, choices_only, "F(COMPONENT_UNKNOWN)");
  assert_active (ownership, messages, choices_only, "valid", 0, 0);
  assert_active (ownership, messages, manifest, "not-in-manifest", 5, 0);

  g_assert_finalize_object (messages);
  g_assert_finalize_object (ownership);
}

static AkcJsonValue *
require_ok (AkcComponentDefinition *definition,
            AkcJsonValue           *props,
            gpointer                user_data)
{
  AkcJsonValue *ok;

  if (akc_json_value_get_kind (props) != AKC_JSON_KIND_OBJECT)
    return NULL;
  ok = akc_json_value_get_member (props, "ok");
  if (ok == NULL || akc_json_value_get_kind (ok) != AKC_JSON_KIND_BOOLEAN || !akc_json_value_get_boolean (ok))
    return NULL;

  return akc_json_value_ref (props);
}

/* Custom definitions follow the same rule: with events they can own
 * input, without events they are display-only. */
static void
test_custom_definitions (void)
{
  AkcInputOwnership *ownership = akc_input_ownership_new ();
  g_autoptr(AkcComponentEvent) dismiss = akc_component_event_new ("dismiss", AKC_COMPONENT_VALUE_NONE);
  g_autoptr(AkcComponentDefinition) map_view = akc_test_map_view_new ();
  g_autoptr(AkcComponentDefinition) banner =
    akc_component_definition_new ("banner", NULL, 0, "status", FALSE, AKC_COMPONENT_LIVE_POLITE,
                                  AKC_COMPONENT_CAPABILITY_DISPLAY, NULL, NULL, NULL, NULL, NULL, NULL);
  g_autoptr(AkcComponentDefinition) checked =
    akc_component_definition_new ("checked-card", &dismiss, 1, "group", TRUE, AKC_COMPONENT_LIVE_NONE,
                                  AKC_COMPONENT_CAPABILITY_ACTION, require_ok, NULL, NULL, NULL, NULL, NULL);
  AkcComponentDefinition *definitions[] = {
    akc_component_definition_get_standard ("progress"), map_view, banner, checked,
  };
  g_autoptr(GError) error = NULL;
  g_autoptr(AkcComponentManifest) manifest = akc_component_manifest_new (definitions, G_N_ELEMENTS (definitions), &error);
  g_autoptr(AkcComponentManifest) standard = akc_component_manifest_new_standard ();
  GListStore *messages = g_list_store_new (AKC_TYPE_MESSAGE);

  g_assert_no_error (error);

  add (messages, assistant_frame ("map-view", "map", "{\"center\":[0,0]}"));
  add (messages, assistant_frame ("banner", "banner", "{\"text\":\"Hello\"}"));
  add (messages, assistant_frame ("progress", "upload", PROGRESS));

  assert_shown (messages, 0, manifest, "C(map-view)");
  assert_shown (messages, 1, manifest, "C(banner)");
  assert_shown (messages, 2, manifest, "S(progress)");

  /* The banner declares no event: the map owns input. */
  assert_active (ownership, messages, manifest, "map", 0, 0);
  {
    g_autoptr(AkcPresentation) active = akc_input_ownership_find_active (ownership, G_LIST_MODEL (messages),
                                                                         manifest, NULL, NULL);

    g_assert_cmpint (akc_presentation_get_rendering (active), ==, AKC_COMPONENT_RENDERING_CUSTOM);
    g_assert_false (akc_resolved_component_is_standard (akc_presentation_get_resolved (active)));
  }
  /* The standard catalog does not know either. */
  assert_active (ownership, messages, standard, NULL, 0, 0);

  /* The custom validator decides about props. */
  add (messages, assistant_frame ("checked-card", "rejected", "{\"ok\":false}"));
  assert_shown (messages, 3, manifest, "F(COMPONENT_INVALID_PROPS)");
  assert_active (ownership, messages, manifest, "map", 0, 0);
  add (messages, assistant_frame ("checked-card", "accepted", "{\"ok\":true}"));
  assert_active (ownership, messages, manifest, "accepted", 4, 0);

  g_assert_true (akc_input_ownership_mark_resolved (ownership, "accepted"));
  assert_active (ownership, messages, manifest, "map", 0, 0);
  g_assert_true (akc_input_ownership_mark_resolved (ownership, "map"));
  assert_active (ownership, messages, manifest, NULL, 0, 0);

  g_assert_finalize_object (messages);
  g_assert_finalize_object (ownership);
}

/* The GTK port's decision (docs/port-decisions.md): source lists and link
 * cards are navigation, and never own input when the host says so; an
 * older question behind them does. */
static void
test_navigation_does_not_own_input (void)
{
  AkcInputOwnership *ownership = akc_input_ownership_new ();
  g_autoptr(AkcComponentManifest) manifest = akc_component_manifest_new_standard ();
  GListStore *messages = g_list_store_new (AKC_TYPE_MESSAGE);
  Changes changes = { 0, g_ptr_array_new_with_free_func (g_free) };

  add (messages, assistant_frame ("choice-list", "question", CHOICES));
  add (messages, assistant_frame ("source-list", "sources", SOURCES));
  add (messages, assistant_frame ("link-card", "link", LINK_CARD));

  g_assert_true (akc_input_ownership_get_navigation_owns_input (ownership));
  assert_active (ownership, messages, manifest, "link", 2, 0);

  g_signal_connect (ownership, "changed", G_CALLBACK (on_changed), &changes);
  akc_input_ownership_set_navigation_owns_input (ownership, FALSE);
  g_assert_cmpuint (changes.count, ==, 1);
  akc_input_ownership_set_navigation_owns_input (ownership, FALSE);
  g_assert_cmpuint (changes.count, ==, 1);
  g_assert_false (akc_input_ownership_get_navigation_owns_input (ownership));
  assert_active (ownership, messages, manifest, "question", 0, 0);

  g_assert_true (akc_input_ownership_mark_resolved (ownership, "question"));
  assert_active (ownership, messages, manifest, NULL, 0, 0);

  g_ptr_array_unref (changes.ids);
  g_assert_finalize_object (messages);
  g_assert_finalize_object (ownership);
}

/* Two copies of one instance (§14 A14): the newest copy is the one shown
 * as active, and resolving the id resolves both. */
static void
test_duplicate_instances (void)
{
  AkcInputOwnership *ownership = akc_input_ownership_new ();
  g_autoptr(AkcComponentManifest) manifest = akc_component_manifest_new_standard ();
  GListStore *messages = g_list_store_new (AKC_TYPE_MESSAGE);

  add (messages, assistant_frame ("link-card", "other", LINK_CARD));
  add (messages, assistant_frame ("choice-list", "same", CHOICES));
  add (messages, message_take (AKC_MESSAGE_ROLE_TOOL, g_strdup ("{\"ok\":true}")));
  add (messages, assistant_frame ("choice-list", "same", CHOICES));

  assert_active (ownership, messages, manifest, "same", 3, 0);
  g_assert_true (akc_input_ownership_mark_resolved (ownership, "same"));
  assert_active (ownership, messages, manifest, "other", 0, 0);

  g_assert_finalize_object (messages);
  g_assert_finalize_object (ownership);
}

/* A record still arriving renders nothing, so it cannot own input yet. */
static void
test_streaming (void)
{
  AkcInputOwnership *ownership = akc_input_ownership_new ();
  g_autoptr(AkcComponentManifest) manifest = akc_component_manifest_new_standard ();
  GListStore *messages = g_list_store_new (AKC_TYPE_MESSAGE);
  g_autofree char *record = component_record ("confirmation", "arriving", CONFIRMATION);
  gsize half = strlen (record) / 2;
  AkcMessage *streaming;

  add (messages, assistant_frame ("button-group", "earlier", BUTTONS));
  streaming = akc_message_new ("s", AKC_MESSAGE_ROLE_ASSISTANT, PREFIX "{\"kind\":\"text\",\"text\":\"Wait.\"}\n",
                               AKC_MESSAGE_STATUS_STREAMING);
  add (messages, g_object_ref (streaming));

  akc_message_append_content (streaming, record, (gssize) half);
  assert_shown (messages, 1, manifest, "M");
  assert_active (ownership, messages, manifest, "earlier", 0, 0);

  akc_message_append_content (streaming, record + half, -1);
  assert_active (ownership, messages, manifest, "arriving", 1, 1);

  g_object_unref (streaming);
  g_assert_finalize_object (messages);
  g_assert_finalize_object (ownership);
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/components/input-ownership/resolved-set", test_resolved_set);
  g_test_add_func ("/components/input-ownership/empty", test_empty);
  g_test_add_func ("/components/input-ownership/only-assistant-messages", test_only_assistant_messages);
  g_test_add_func ("/components/input-ownership/direct-and-ordered", test_direct_and_ordered);
  g_test_add_func ("/components/input-ownership/several-in-one-message", test_several_in_one_message);
  g_test_add_func ("/components/input-ownership/resolve-and-unresolve", test_resolve_and_unresolve);
  g_test_add_func ("/components/input-ownership/standard-components", test_standard_components);
  g_test_add_func ("/components/input-ownership/no-manifest", test_no_manifest);
  g_test_add_func ("/components/input-ownership/unresolved-frames", test_unresolved_frames);
  g_test_add_func ("/components/input-ownership/custom-definitions", test_custom_definitions);
  g_test_add_func ("/components/input-ownership/duplicate-instances", test_duplicate_instances);
  g_test_add_func ("/components/input-ownership/navigation", test_navigation_does_not_own_input);
  g_test_add_func ("/components/input-ownership/streaming", test_streaming);

  return g_test_run ();
}
