/* test-controlled-source.c: AkcControlledSource, a conversation owned by a
 * host (application.md §7, §12.9): every vector of
 * application/controlled-snapshots.json, then the source itself
 *
 * SPDX-License-Identifier: MIT
 */

#include <string.h>

#include "akc.h"
#include "akc-fixture.h"

/* ------------------------------------------------------------------ */
/* Fixtures                                                            */
/* ------------------------------------------------------------------ */

static void
run_parse_case (const AkcFixtureCase *fc,
                gconstpointer         user_data)
{
  g_autoptr(AkcDiagnostic) diagnostic = NULL;
  g_autoptr(AkcJsonValue) parsed = NULL;
  g_autoptr(AkcControlledSource) source = akc_controlled_source_new ();
  g_autoptr(GError) error = NULL;
  AkcJsonValue *snapshot = akc_json_value_get_member (fc->input, "snapshot");
  const char *failure = akc_fixture_expect_string (fc, "failure");
  gboolean applied;

  parsed = akc_controlled_snapshot_decode_value (snapshot, &diagnostic);
  applied = akc_controlled_source_set_snapshot (source, snapshot, &error);

  /* The text form decodes the same. */
  {
    g_autofree char *text = akc_json_value_to_canonical (snapshot, NULL);
    g_autoptr(AkcDiagnostic) text_diagnostic = NULL;
    g_autoptr(AkcJsonValue) from_text = akc_controlled_snapshot_decode (text, -1, &text_diagnostic);

    g_assert_true ((from_text == NULL) == (parsed == NULL));
    if (parsed != NULL)
      akc_assert_json_equal (from_text, parsed);
    else
      g_assert_true (akc_diagnostic_equal (text_diagnostic, diagnostic));
  }

  if (akc_fixture_expect_ok (fc))
    {
      g_assert_null (diagnostic);
      akc_assert_json_equal (parsed, akc_fixture_expect (fc, "snapshot"));
      g_assert_no_error (error);
      g_assert_true (applied);
      g_assert_cmpuint (g_list_model_get_n_items (akc_chat_source_get_messages (AKC_CHAT_SOURCE (source))), ==,
                        akc_json_value_get_length (akc_json_value_get_member (snapshot, "messages")));
      return;
    }

  g_assert_null (parsed);
  g_assert_nonnull (diagnostic);
  g_assert_false (applied);
  g_assert_nonnull (error);
  g_assert_null (akc_controlled_source_get_snapshot (source));
  if (g_strcmp0 (failure, "messages") == 0)
    {
      g_assert_cmpstr (akc_diagnostic_get_code (diagnostic), ==, "CONTROLLED_INVALID_MESSAGE");
      g_assert_cmpstr (akc_diagnostic_get_message (diagnostic), ==, "Serialized message record is invalid.");
    }
  else
    {
      g_assert_cmpstr (failure, ==, "shell");
      g_assert_cmpstr (akc_diagnostic_get_code (diagnostic), ==, "CONTROLLED_INVALID_SNAPSHOT");
      g_assert_cmpstr (akc_diagnostic_get_message (diagnostic), ==, "Controlled chat snapshot is invalid.");
    }
  g_assert_cmpstr (error->message, ==, akc_diagnostic_get_message (diagnostic));
}

static char *
signal_name (const char *callback)
{
  GString *name = g_string_new (NULL);

  for (const char *p = callback; *p != '\0'; p++)
    {
      if (g_ascii_isupper (*p))
        {
          g_string_append_c (name, '-');
          g_string_append_c (name, g_ascii_tolower (*p));
        }
      else
        g_string_append_c (name, *p);
    }

  return g_string_free (name, FALSE);
}

static void
run_callback_names_case (const AkcFixtureCase *fc,
                         gconstpointer         user_data)
{
  AkcJsonValue *expected = akc_fixture_expect (fc, "callbacks");
  const char * const *names = akc_controlled_snapshot_get_callback_names ();
  gsize i;

  for (i = 0; names[i] != NULL; i++)
    {
      g_autofree char *name = signal_name (names[i]);

      g_assert_cmpuint (i, <, akc_json_value_get_length (expected));
      g_assert_cmpstr (names[i], ==, akc_json_value_get_string (akc_json_value_get_element (expected, i), NULL));
      /* Every callback is a signal of the source. */
      g_assert_cmpuint (g_signal_lookup (name, AKC_TYPE_CONTROLLED_SOURCE), !=, 0);
    }
  g_assert_cmpuint (i, ==, akc_json_value_get_length (expected));
}

/* ------------------------------------------------------------------ */
/* The source                                                          */
/* ------------------------------------------------------------------ */

#define MESSAGE(id, role, content, status) \
  "{\"id\":\"" id "\",\"role\":\"" role "\",\"content\":\"" content "\",\"status\":\"" status "\"," \
  "\"createdAt\":\"2026-07-14T00:00:00.000Z\"}"

#define SNAPSHOT(status, input, error, messages) \
  "{\"sessionId\":\"host\",\"messages\":[" messages "],\"status\":\"" status "\",\"input\":\"" input "\"," \
  "\"error\":" error ",\"usage\":{\"promptTokens\":1,\"completionTokens\":2,\"totalTokens\":4}}"

typedef struct
{
  GPtrArray *events;
  GArray    *changes;  /* guint triples */
} Recorder;

static void
record (Recorder   *rec,
        const char *format,
        ...) G_GNUC_PRINTF (2, 3);

static void
record (Recorder   *rec,
        const char *format,
        ...)
{
  va_list args;

  va_start (args, format);
  g_ptr_array_add (rec->events, g_strdup_vprintf (format, args));
  va_end (args);
}

static void on_send (AkcControlledSource *s, const char *text, Recorder *rec) { record (rec, "send %s", text); }
static void on_stop (AkcControlledSource *s, Recorder *rec) { record (rec, "stop"); }
static void on_retry (AkcControlledSource *s, Recorder *rec) { record (rec, "retry"); }
static void on_clear (AkcControlledSource *s, Recorder *rec) { record (rec, "clear"); }
static void on_edit (AkcControlledSource *s, const char *id, const char *text, Recorder *rec) { record (rec, "edit %s %s", id, text); }
static void on_regenerate (AkcControlledSource *s, const char *id, Recorder *rec) { record (rec, "regenerate %s", id ? id : "(null)"); }
static void on_set_input (AkcControlledSource *s, const char *input, Recorder *rec) { record (rec, "set-input %s", input); }
static void on_approve (AkcControlledSource *s, const char *id, Recorder *rec) { record (rec, "approve %s", id); }
static void on_deny (AkcControlledSource *s, const char *id, const char *reason, Recorder *rec) { record (rec, "deny %s %s", id, reason ? reason : "(null)"); }

static void
on_propose (AkcControlledSource *s,
            const char          *id,
            const char          *name,
            AkcJsonValue        *arguments,
            Recorder            *rec)
{
  g_autofree char *text = akc_json_value_to_canonical (arguments, NULL);

  record (rec, "propose %s %s %s", id, name, text);
}

static void
on_items_changed (GListModel *model,
                  guint       position,
                  guint       removed,
                  guint       added,
                  Recorder   *rec)
{
  guint change[3] = { position, removed, added };

  g_array_append_vals (rec->changes, change, 3);
}

static AkcMessage *
item (AkcControlledSource *source,
      guint                position)
{
  g_autoptr(AkcMessage) message =
    g_list_model_get_item (akc_chat_source_get_messages (AKC_CHAT_SOURCE (source)), position);

  return message; /* the model keeps it alive */
}

static void
set_text (AkcControlledSource *source,
          const char          *text)
{
  g_autoptr(GError) error = NULL;

  g_assert_true (akc_controlled_source_set_snapshot_text (source, text, -1, &error));
  g_assert_no_error (error);
}

static void
test_snapshots_and_actions (void)
{
  g_autoptr(AkcControlledSource) source = akc_controlled_source_new ();
  AkcChatSource *chat = AKC_CHAT_SOURCE (source);
  g_autoptr(GPtrArray) events = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GArray) changes = g_array_new (FALSE, FALSE, sizeof (guint));
  Recorder rec = { events, changes };
  g_autoptr(GError) error = NULL;
  g_autoptr(AkcToolCall) proposed = NULL;
  g_autoptr(AkcJsonValue) arguments = akc_json_value_parse ("{\"q\":1}", -1, NULL);
  AkcMessage *user, *reply;

  g_signal_connect (source, "send", G_CALLBACK (on_send), &rec);
  g_signal_connect (source, "stop", G_CALLBACK (on_stop), &rec);
  g_signal_connect (source, "retry", G_CALLBACK (on_retry), &rec);
  g_signal_connect (source, "clear", G_CALLBACK (on_clear), &rec);
  g_signal_connect (source, "edit", G_CALLBACK (on_edit), &rec);
  g_signal_connect (source, "regenerate", G_CALLBACK (on_regenerate), &rec);
  g_signal_connect (source, "set-input", G_CALLBACK (on_set_input), &rec);
  g_signal_connect (source, "approve", G_CALLBACK (on_approve), &rec);
  g_signal_connect (source, "deny", G_CALLBACK (on_deny), &rec);
  g_signal_connect (source, "propose-tool-call", G_CALLBACK (on_propose), &rec);
  g_signal_connect (akc_chat_source_get_messages (chat), "items-changed", G_CALLBACK (on_items_changed), &rec);

  g_assert_null (akc_controlled_source_get_session_id (source));
  g_assert_cmpint (akc_chat_source_get_status (chat), ==, AKC_CHAT_STATUS_IDLE);

  /* The first snapshot. */
  set_text (source, SNAPSHOT ("streaming", "draft", "null",
                              MESSAGE ("u1", "user", "hi", "complete") ","
                              MESSAGE ("a1", "assistant", "Hel", "streaming")));
  g_assert_cmpstr (akc_controlled_source_get_session_id (source), ==, "host");
  g_assert_cmpint (akc_chat_source_get_status (chat), ==, AKC_CHAT_STATUS_STREAMING);
  g_assert_cmpuint (akc_chat_source_get_usage (chat)->total_tokens, ==, 4);
  g_assert_cmpuint (changes->len, ==, 3);
  g_assert_cmpuint (g_array_index (changes, guint, 2), ==, 2);
  {
    g_autofree char *input = akc_chat_source_dup_input (chat);
    g_assert_cmpstr (input, ==, "draft");
  }
  user = item (source, 0);
  reply = item (source, 1);
  g_assert_cmpint (akc_message_get_role (reply), ==, AKC_MESSAGE_ROLE_ASSISTANT);

  /* Nothing is sent while the host streams, and blank text never. */
  g_assert_false (akc_chat_source_send (chat, "more", &error));
  g_assert_error (error, AKC_CHAT_ERROR, AKC_CHAT_ERROR_BUSY);
  g_clear_error (&error);

  /* The reply grows: the same objects, no items-changed. */
  set_text (source, SNAPSHOT ("complete", "draft", "null",
                              MESSAGE ("u1", "user", "hi", "complete") ","
                              MESSAGE ("a1", "assistant", "Hello", "complete")));
  g_assert_true (item (source, 0) == user);
  g_assert_true (item (source, 1) == reply);
  g_assert_cmpstr (akc_message_get_content (reply), ==, "Hello");
  g_assert_cmpint (akc_message_get_status (reply), ==, AKC_MESSAGE_STATUS_COMPLETE);
  g_assert_cmpuint (changes->len, ==, 3);
  g_assert_cmpint (akc_chat_source_get_status (chat), ==, AKC_CHAT_STATUS_IDLE);

  /* An invalid snapshot changes nothing. */
  g_assert_false (akc_controlled_source_set_snapshot_text (source, SNAPSHOT ("pending", "", "null", ""), -1, &error));
  g_assert_error (error, AKC_PROTOCOL_ERROR, AKC_PROTOCOL_ERROR_FAILED);
  g_assert_cmpstr (error->message, ==, "Controlled chat snapshot is invalid.");
  g_clear_error (&error);
  g_assert_false (akc_controlled_source_set_snapshot_text (source, "{", -1, &error));
  g_assert_cmpstr (error->message, ==, "Controlled chat snapshot is not valid JSON.");
  g_clear_error (&error);
  {
    g_autoptr(AkcDiagnostic) diagnostic = NULL;

    g_assert_null (akc_controlled_snapshot_decode ("{", -1, &diagnostic));
    g_assert_cmpstr (akc_diagnostic_get_code (diagnostic), ==, "CONTROLLED_INVALID_SNAPSHOT");
    g_assert_cmpstr (akc_diagnostic_get_message (diagnostic), ==, "Controlled chat snapshot is not valid JSON.");
  }
  g_assert_cmpuint (g_list_model_get_n_items (akc_chat_source_get_messages (chat)), ==, 2);
  g_assert_true (item (source, 1) == reply);

  /* Every action reaches the host, and only the host changes the state. */
  g_assert_false (akc_chat_source_send (chat, "  ", &error));
  g_assert_error (error, AKC_CHAT_ERROR, AKC_CHAT_ERROR_EMPTY_INPUT);
  g_clear_error (&error);
  g_assert_true (akc_chat_source_send (chat, "again", &error));
  akc_chat_source_set_input (chat, "typed");
  akc_chat_source_stop (chat);
  g_assert_true (akc_chat_source_retry (chat, &error));
  g_assert_true (akc_chat_source_regenerate (chat, NULL, &error));
  g_assert_true (akc_chat_source_edit (chat, "u1", "changed", &error));
  akc_chat_source_clear (chat);
  proposed = akc_chat_source_propose_tool_call (chat, "call-1", "lookup", arguments, &error);
  g_assert_no_error (error);
  g_assert_cmpint (akc_tool_call_get_status (proposed), ==, AKC_TOOL_CALL_STATUS_REQUIRES_CONFIRMATION);
  g_assert_false (akc_chat_source_approve (chat, "call-1", &error));
  g_assert_error (error, AKC_CHAT_ERROR, AKC_CHAT_ERROR_NO_TARGET);
  g_clear_error (&error);
  g_assert_cmpuint (g_list_model_get_n_items (akc_chat_source_get_messages (chat)), ==, 2);

  g_assert_cmpuint (events->len, ==, 8);
  g_assert_cmpstr (events->pdata[0], ==, "send again");
  g_assert_cmpstr (events->pdata[1], ==, "set-input typed");
  g_assert_cmpstr (events->pdata[2], ==, "stop");
  g_assert_cmpstr (events->pdata[3], ==, "retry");
  g_assert_cmpstr (events->pdata[4], ==, "regenerate (null)");
  g_assert_cmpstr (events->pdata[5], ==, "edit u1 changed");
  g_assert_cmpstr (events->pdata[6], ==, "clear");
  g_assert_cmpstr (events->pdata[7], ==, "propose call-1 lookup {\"q\":1}");

  /* The host answers with the call waiting for confirmation: a new
   * message is appended, the others keep their objects. */
  set_text (source, SNAPSHOT ("error", "", "{\"message\":\"Host failed.\",\"code\":\"HOST_FAILED\"}",
                              MESSAGE ("u1", "user", "hi", "complete") ","
                              MESSAGE ("a1", "assistant", "Hello", "complete") ","
                              "{\"id\":\"a2\",\"role\":\"assistant\",\"content\":\"\",\"status\":\"complete\","
                              "\"createdAt\":\"2026-07-14T00:00:01.000Z\",\"toolCalls\":[{\"id\":\"call-1\","
                              "\"name\":\"lookup\",\"args\":{\"q\":1},\"status\":\"requires_confirmation\"}]}"));
  g_assert_true (item (source, 0) == user);
  g_assert_true (item (source, 1) == reply);
  g_assert_cmpuint (changes->len, ==, 6);
  g_assert_cmpuint (g_array_index (changes, guint, 3), ==, 2);
  g_assert_cmpuint (g_array_index (changes, guint, 4), ==, 0);
  g_assert_cmpuint (g_array_index (changes, guint, 5), ==, 1);
  g_assert_cmpint (akc_chat_source_get_status (chat), ==, AKC_CHAT_STATUS_ERROR);
  g_assert_cmpstr (akc_diagnostic_get_code (akc_chat_source_get_error (chat)), ==, "HOST_FAILED");
  g_assert_cmpstr (akc_diagnostic_get_message (akc_chat_source_get_error (chat)), ==, "Host failed.");
  g_assert_true (akc_chat_source_approve (chat, "call-1", &error));
  g_assert_true (akc_chat_source_deny (chat, "call-1", NULL, &error));
  g_assert_no_error (error);
  g_assert_cmpstr (events->pdata[events->len - 2], ==, "approve call-1");
  g_assert_cmpstr (events->pdata[events->len - 1], ==, "deny call-1 (null)");

  /* A retry-like replacement of the last message: one change of one item. */
  set_text (source, SNAPSHOT ("idle", "", "null",
                              MESSAGE ("u1", "user", "hi", "complete") ","
                              MESSAGE ("a1", "assistant", "Hello", "complete") ","
                              MESSAGE ("a3", "assistant", "Other", "complete")));
  g_assert_cmpuint (changes->len, ==, 9);
  g_assert_cmpuint (g_array_index (changes, guint, 6), ==, 2);
  g_assert_cmpuint (g_array_index (changes, guint, 7), ==, 1);
  g_assert_cmpuint (g_array_index (changes, guint, 8), ==, 1);
  g_assert_null (akc_chat_source_get_error (chat));

  g_signal_handlers_disconnect_by_data (akc_chat_source_get_messages (chat), &rec);
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);

  akc_fixture_add_tests ("application/controlled-snapshots.json", "/controlled/fixtures",
                         "parseControlledSnapshot", run_parse_case, NULL);
  akc_fixture_add_tests ("application/controlled-snapshots.json", "/controlled/fixtures",
                         "callbackNames", run_callback_names_case, NULL);
  g_test_add_func ("/controlled/snapshots-and-actions", test_snapshots_and_actions);

  return g_test_run ();
}
