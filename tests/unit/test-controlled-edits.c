/* test-controlled-edits.c: AkcControlledSource's incremental edits and
 * AkcMessageBuilder: each edit is checked against the bounds of a
 * snapshot, changes only what it names, and emits the same minimal
 * items-changed a snapshot with that one change would.
 *
 * SPDX-License-Identifier: MIT
 */

#include <string.h>

#include "akc.h"

typedef struct {
  GString *changes;     /* "position,removed,added " per items-changed */
} Changes;

static void
on_items_changed (GListModel *model,
                  guint       position,
                  guint       removed,
                  guint       added,
                  Changes    *changes)
{
  g_string_append_printf (changes->changes, "%u,%u,%u ", position, removed, added);
}

static AkcControlledSource *
new_source (Changes *changes)
{
  AkcControlledSource *source = akc_controlled_source_new ();

  changes->changes = g_string_new (NULL);
  g_signal_connect (akc_chat_source_get_messages (AKC_CHAT_SOURCE (source)), "items-changed",
                    G_CALLBACK (on_items_changed), changes);
  return source;
}

static void
take_changes (Changes    *changes,
              const char *expected)
{
  g_assert_cmpstr (changes->changes->str, ==, expected);
  g_string_truncate (changes->changes, 0);
}

static GDateTime *
moment (int second)
{
  return g_date_time_new_utc (2026, 7, 14, 0, 0, second);
}

static AkcMessageRecord *
text_record (const char       *id,
             AkcMessageRole    role,
             const char       *text,
             AkcMessageStatus  status,
             int               second)
{
  g_autoptr(GDateTime) created_at = moment (second);
  g_autoptr(GError) error = NULL;
  AkcMessageRecord *record = akc_message_record_new_text (id, role, text, status, created_at, &error);

  g_assert_no_error (error);
  return record;
}

static AkcMessage *
item (AkcControlledSource *source,
      guint                position)
{
  g_autoptr(AkcMessage) message =
    g_list_model_get_item (akc_chat_source_get_messages (AKC_CHAT_SOURCE (source)), position);

  return message; /* the model keeps it alive */
}

static guint
n_items (AkcControlledSource *source)
{
  return g_list_model_get_n_items (akc_chat_source_get_messages (AKC_CHAT_SOURCE (source)));
}

static char *
snapshot_text (AkcControlledSource *source)
{
  AkcJsonValue *snapshot = akc_controlled_source_get_snapshot (source);

  g_assert_nonnull (snapshot);
  return akc_json_value_to_canonical (snapshot, NULL);
}

static void
append (AkcControlledSource *source,
        AkcMessageRecord    *record)
{
  g_autoptr(GError) error = NULL;

  g_assert_true (akc_controlled_source_append_message (source, record, &error));
  g_assert_no_error (error);
}

static void
test_streaming (void)
{
  Changes changes;
  g_autoptr(AkcControlledSource) source = new_source (&changes);
  g_autoptr(AkcMessageRecord) question = text_record ("u1", AKC_MESSAGE_ROLE_USER, "hi", AKC_MESSAGE_STATUS_COMPLETE, 0);
  g_autoptr(AkcMessageRecord) reply = text_record ("a1", AKC_MESSAGE_ROLE_ASSISTANT, "", AKC_MESSAGE_STATUS_STREAMING, 1);
  g_autoptr(GError) error = NULL;
  g_autoptr(AkcJsonValue) expected = NULL;
  g_autofree char *text = NULL;
  g_autofree char *expected_text = NULL;
  AkcMessage *streaming;

  g_assert_null (akc_controlled_source_get_snapshot (source));
  g_assert_true (akc_controlled_source_set_session_id (source, "edits", &error));
  g_assert_no_error (error);

  append (source, question);
  take_changes (&changes, "0,0,1 ");
  append (source, reply);
  take_changes (&changes, "1,0,1 ");
  akc_controlled_source_set_status (source, AKC_CHAT_STATUS_STREAMING);
  streaming = item (source, 1);

  /* Text arrives: the same message grows; the list does not change. */
  g_assert_true (akc_controlled_source_append_text (source, "a1", "Hel", &error));
  g_assert_true (akc_controlled_source_append_text (source, "a1", "lo ", &error));
  g_assert_true (akc_controlled_source_append_text (source, "a1", "— there", &error));
  g_assert_no_error (error);
  take_changes (&changes, "");
  g_assert_true (item (source, 1) == streaming);
  g_assert_cmpstr (akc_message_get_content (streaming), ==, "Hello — there");

  g_assert_true (akc_controlled_source_set_message_status (source, "a1", AKC_MESSAGE_STATUS_COMPLETE, &error));
  akc_controlled_source_set_status (source, AKC_CHAT_STATUS_IDLE);
  g_assert_true (akc_controlled_source_set_usage (source, 3, 2, 5, &error));
  g_assert_no_error (error);
  take_changes (&changes, "");
  g_assert_true (item (source, 1) == streaming);
  g_assert_cmpint (akc_message_get_status (streaming), ==, AKC_MESSAGE_STATUS_COMPLETE);
  g_assert_cmpuint (akc_chat_source_get_usage (AKC_CHAT_SOURCE (source))->total_tokens, ==, 5);

  /* The state is the snapshot a host would have written by hand. */
  text = snapshot_text (source);
  expected = akc_json_value_parse (
    "{\"sessionId\":\"edits\",\"messages\":["
    "{\"id\":\"u1\",\"role\":\"user\",\"content\":\"hi\",\"status\":\"complete\",\"createdAt\":\"2026-07-14T00:00:00.000Z\"},"
    "{\"id\":\"a1\",\"role\":\"assistant\",\"content\":\"Hello — there\",\"status\":\"complete\",\"createdAt\":\"2026-07-14T00:00:01.000Z\"}],"
    "\"status\":\"idle\",\"input\":\"\",\"error\":null,"
    "\"usage\":{\"promptTokens\":3,\"completionTokens\":2,\"totalTokens\":5}}", -1, NULL);
  expected_text = akc_json_value_to_canonical (expected, NULL);
  g_assert_cmpstr (text, ==, expected_text);

  /* ...and setting that snapshot changes nothing. */
  g_assert_true (akc_controlled_source_set_snapshot (source, expected, &error));
  g_assert_no_error (error);
  take_changes (&changes, "");
  g_assert_true (item (source, 1) == streaming);

  g_string_free (changes.changes, TRUE);
}

static void
test_refused (void)
{
  Changes changes;
  g_autoptr(AkcControlledSource) source = new_source (&changes);
  g_autoptr(AkcMessageRecord) done = text_record ("a1", AKC_MESSAGE_ROLE_ASSISTANT, "done", AKC_MESSAGE_STATUS_COMPLETE, 0);
  g_autoptr(GError) error = NULL;
  g_autofree char *before = NULL;
  g_autofree char *after = NULL;
  g_autofree char *long_message = g_strnfill (4097, 'x');

  g_assert_true (akc_controlled_source_set_session_id (source, "refused", NULL));
  append (source, done);
  take_changes (&changes, "0,0,1 ");
  before = snapshot_text (source);

  g_assert_false (akc_controlled_source_append_text (source, "a1", "more", &error));
  g_assert_error (error, AKC_CHAT_ERROR, AKC_CHAT_ERROR_NO_TARGET);
  g_clear_error (&error);
  g_assert_false (akc_controlled_source_append_text (source, "nobody", "more", &error));
  g_assert_error (error, AKC_CHAT_ERROR, AKC_CHAT_ERROR_NO_TARGET);
  g_clear_error (&error);
  g_assert_false (akc_controlled_source_set_message_text (source, "nobody", "x", &error));
  g_assert_error (error, AKC_CHAT_ERROR, AKC_CHAT_ERROR_NO_TARGET);
  g_clear_error (&error);
  g_assert_false (akc_controlled_source_set_session_id (source, "has space", &error));
  g_assert_cmpstr (error->message, ==, "Controlled chat snapshot is invalid.");
  g_clear_error (&error);
  g_assert_false (akc_controlled_source_set_error (source, "", NULL, &error));
  g_assert_cmpstr (error->message, ==, "Controlled chat snapshot is invalid.");
  g_clear_error (&error);
  g_assert_false (akc_controlled_source_set_error (source, long_message, NULL, &error));
  g_clear_error (&error);
  g_assert_false (akc_controlled_source_set_error (source, "Failed.", "bad code", &error));
  g_clear_error (&error);
  g_assert_false (akc_controlled_source_set_usage (source, G_GUINT64_CONSTANT (1) << 54, 0, 0, &error));
  g_assert_cmpstr (error->message, ==, "Controlled chat snapshot is invalid.");
  g_clear_error (&error);

  after = snapshot_text (source);
  g_assert_cmpstr (after, ==, before);
  take_changes (&changes, "");

  /* An error as a snapshot hydrates it: the code is its name. */
  g_assert_true (akc_controlled_source_set_error (source, "Failed.", NULL, &error));
  g_assert_no_error (error);
  g_assert_cmpstr (akc_diagnostic_get_code (akc_chat_source_get_error (AKC_CHAT_SOURCE (source))), ==, "Error");
  g_assert_true (akc_controlled_source_set_error (source, NULL, NULL, &error));
  g_assert_null (akc_chat_source_get_error (AKC_CHAT_SOURCE (source)));

  g_string_free (changes.changes, TRUE);
}

static void
test_bounds (void)
{
  Changes changes;
  g_autoptr(AkcControlledSource) source = new_source (&changes);
  g_autoptr(AkcMessageRecord) one = text_record ("m", AKC_MESSAGE_ROLE_USER, "x", AKC_MESSAGE_STATUS_COMPLETE, 0);
  g_autoptr(AkcMessageBuilder) builder = NULL;
  g_autoptr(AkcMessageRecord) big = NULL;
  g_autoptr(AkcJsonValue) metadata = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GString) members = g_string_new ("{");

  /* The shell holds at most 10,000 messages. Each of these has 6 values,
   * so 1,600 of them stay under the 10,000 values of the records. */
  for (guint i = 0; i < 1600; i++)
    append (source, one);
  g_string_truncate (changes.changes, 0);

  /* A message whose metadata holds 400 members: 1,600 × 6 + 3 + 409 > 10,000. */
  for (guint i = 0; i < 400; i++)
    g_string_append_printf (members, "%s\"k%u\":%u", i > 0 ? "," : "", i, i);
  g_string_append_c (members, '}');
  metadata = akc_json_value_parse (members->str, -1, NULL);
  builder = akc_message_builder_new ("big", AKC_MESSAGE_ROLE_USER);
  g_assert_true (akc_message_builder_add_text (builder, "x", NULL));
  g_assert_true (akc_message_builder_set_metadata (builder, metadata, NULL));
  big = akc_message_builder_build (builder, &error);
  g_assert_no_error (error);

  g_assert_false (akc_controlled_source_append_message (source, big, &error));
  g_assert_cmpstr (error->message, ==, "Serialized message record is invalid.");
  g_clear_error (&error);
  g_assert_false (akc_controlled_source_update_message (source, big, &error));
  g_assert_error (error, AKC_CHAT_ERROR, AKC_CHAT_ERROR_NO_TARGET);
  g_clear_error (&error);
  g_assert_cmpuint (n_items (source), ==, 1600);
  take_changes (&changes, "");

  g_string_free (changes.changes, TRUE);
}

static void
test_update_and_stop (void)
{
  Changes changes;
  g_autoptr(AkcControlledSource) source = new_source (&changes);
  g_autoptr(AkcMessageRecord) question = text_record ("u1", AKC_MESSAGE_ROLE_USER, "hi", AKC_MESSAGE_STATUS_COMPLETE, 0);
  g_autoptr(AkcMessageRecord) reply = text_record ("a1", AKC_MESSAGE_ROLE_ASSISTANT, "partial", AKC_MESSAGE_STATUS_STREAMING, 1);
  g_autoptr(AkcMessageRecord) rewritten = text_record ("a1", AKC_MESSAGE_ROLE_ASSISTANT, "rewritten", AKC_MESSAGE_STATUS_STREAMING, 1);
  g_autoptr(AkcMessageRecord) moved = text_record ("a1", AKC_MESSAGE_ROLE_ASSISTANT, "rewritten", AKC_MESSAGE_STATUS_STREAMING, 9);
  g_autoptr(GError) error = NULL;
  AkcMessage *message;

  append (source, question);
  append (source, reply);
  take_changes (&changes, "0,0,1 1,0,1 ");
  message = item (source, 1);

  /* New text: the same object. */
  g_assert_true (akc_controlled_source_update_message (source, rewritten, &error));
  g_assert_no_error (error);
  take_changes (&changes, "");
  g_assert_true (item (source, 1) == message);
  g_assert_cmpstr (akc_message_get_content (message), ==, "rewritten");

  /* A new creation time: that one item is replaced. */
  g_assert_true (akc_controlled_source_update_message (source, moved, &error));
  take_changes (&changes, "1,1,1 ");
  message = item (source, 1);
  g_assert_true (akc_controlled_source_set_message_text (source, "a1", "rewritten again", &error));
  g_assert_no_error (error);
  take_changes (&changes, "");

  akc_controlled_source_set_status (source, AKC_CHAT_STATUS_STREAMING);
  g_assert_true (akc_controlled_source_append_text (source, "a1", ", then stopped", &error));
  akc_controlled_source_mark_stopped (source);
  take_changes (&changes, "");
  g_assert_true (item (source, 1) == message);
  g_assert_true (akc_message_get_stopped (message));
  g_assert_cmpint (akc_message_get_status (message), ==, AKC_MESSAGE_STATUS_COMPLETE);
  g_assert_cmpstr (akc_message_get_content (message), ==, "rewritten again, then stopped");
  g_assert_cmpint (akc_chat_source_get_status (AKC_CHAT_SOURCE (source)), ==, AKC_CHAT_STATUS_IDLE);
  g_assert_false (akc_message_get_stopped (item (source, 0)));

  g_string_free (changes.changes, TRUE);
}

/* Text streamed into a message with ordered content becomes text parts
 * after the last one: the envelope stays valid and nothing is lost. */
static void
test_append_ordered (void)
{
  Changes changes;
  g_autoptr(AkcControlledSource) source = new_source (&changes);
  g_autoptr(AkcMessageBuilder) builder = akc_message_builder_new ("a1", AKC_MESSAGE_ROLE_ASSISTANT);
  g_autoptr(AkcMessageRecord) record = NULL;
  g_autoptr(AkcMessageRecord) partial = NULL;
  g_autoptr(AkcJsonValue) frame = NULL;
  g_autoptr(AkcJsonValue) parts = NULL;
  g_autoptr(AkcDiagnostic) diagnostic = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *before = NULL;
  g_autofree char *after = NULL;
  gboolean complete = FALSE;
  AkcMessage *message;

  frame = akc_json_value_parse (
    "{\"protocol\":\"agentskit.chat.component\",\"version\":1,\"type\":\"render\","
    "\"componentKey\":\"source-list\",\"instanceId\":\"s1\","
    "\"props\":{\"label\":\"Sources\",\"sources\":[{\"id\":\"1\",\"title\":\"Guide\",\"url\":\"https://example.com/\"}]},"
    "\"fallback\":{\"kind\":\"source-list\",\"summary\":\"One source.\"}}", -1, NULL);
  g_assert_true (akc_message_builder_add_text (builder, "See:", &error));
  g_assert_true (akc_message_builder_add_frame (builder, frame, &error));
  akc_message_builder_set_status (builder, AKC_MESSAGE_STATUS_STREAMING);
  record = akc_message_builder_build (builder, &error);
  g_assert_no_error (error);

  g_assert_true (akc_controlled_source_set_session_id (source, "ordered", &error));
  append (source, record);
  take_changes (&changes, "0,0,1 ");
  message = item (source, 0);

  g_assert_true (akc_controlled_source_append_text (source, "a1", "Then \"more\"", &error));
  g_assert_true (akc_controlled_source_append_text (source, "a1", " and more.\n", &error));
  g_assert_true (akc_controlled_source_append_text (source, "a1", "", &error));
  g_assert_no_error (error);
  take_changes (&changes, "");
  g_assert_true (item (source, 0) == message);

  parts = akc_assistant_content_decode (akc_message_get_content (message), -1, &complete, &diagnostic);
  g_assert_null (diagnostic);
  g_assert_true (complete);
  g_assert_cmpuint (akc_json_value_get_length (parts), ==, 4);
  g_assert_cmpstr (akc_json_value_get_string (akc_json_value_get_member (akc_json_value_get_element (parts, 1), "kind"), NULL), ==, "component");
  g_assert_cmpstr (akc_json_value_get_string (akc_json_value_get_member (akc_json_value_get_element (parts, 2), "text"), NULL), ==, "Then \"more\"");
  g_assert_cmpstr (akc_json_value_get_string (akc_json_value_get_member (akc_json_value_get_element (parts, 3), "text"), NULL), ==, " and more.\n");

  /* Content that ends inside a record is refused, and left as it was. */
  partial = text_record ("a2", AKC_MESSAGE_ROLE_ASSISTANT, "\x1e" "agentskit.chat.content/1\n{\"kind\":",
                         AKC_MESSAGE_STATUS_STREAMING, 2);
  append (source, partial);
  take_changes (&changes, "1,0,1 ");
  before = snapshot_text (source);
  g_assert_false (akc_controlled_source_append_text (source, "a2", "x", &error));
  g_assert_cmpstr (akc_protocol_error_get_field_path (error), ==, "content: ordered content ends inside a record");
  g_clear_error (&error);
  after = snapshot_text (source);
  g_assert_cmpstr (after, ==, before);
  take_changes (&changes, "");

  g_string_free (changes.changes, TRUE);
}

static void
test_builder (void)
{
  g_autoptr(AkcMessageBuilder) builder = akc_message_builder_new ("a1", AKC_MESSAGE_ROLE_ASSISTANT);
  g_autoptr(AkcMessageBuilder) user = akc_message_builder_new ("u1", AKC_MESSAGE_ROLE_USER);
  g_autoptr(AkcJsonValue) frame = NULL;
  g_autoptr(AkcJsonValue) not_a_frame = akc_json_value_parse ("{\"type\":\"render\"}", -1, NULL);
  g_autoptr(AkcJsonValue) parts = NULL;
  g_autoptr(AkcMessageRecord) record = NULL;
  g_autoptr(AkcDiagnostic) diagnostic = NULL;
  g_autoptr(GDateTime) created_at = g_date_time_new_utc (2026, 7, 14, 1, 2, 3.4567);
  g_autoptr(GError) error = NULL;
  g_autofree char *timestamp = NULL;
  g_autofree char *calls = NULL;
  const char *content;
  gsize length = 0;

  frame = akc_json_value_parse (
    "{\"protocol\":\"agentskit.chat.component\",\"version\":1,\"type\":\"render\","
    "\"componentKey\":\"source-list\",\"instanceId\":\"s1\","
    "\"props\":{\"label\":\"Sources\",\"sources\":[{\"id\":\"1\",\"title\":\"Guide\",\"url\":\"https://example.com/\"}]},"
    "\"fallback\":{\"kind\":\"source-list\",\"summary\":\"One source.\"}}", -1, NULL);
  g_assert_nonnull (frame);

  g_assert_false (akc_message_builder_add_frame (builder, not_a_frame, &error));
  g_assert_error (error, AKC_PROTOCOL_ERROR, AKC_PROTOCOL_ERROR_COMPONENT_INVALID_FRAME);
  g_clear_error (&error);
  g_assert_false (akc_message_builder_add_frame (user, frame, &error));
  g_assert_error (error, AKC_PROTOCOL_ERROR, AKC_PROTOCOL_ERROR_ASSISTANT_CONTENT_INVALID_RECORD);
  g_clear_error (&error);
  g_assert_false (akc_message_builder_add_text (builder, "", &error));
  g_clear_error (&error);

  g_assert_true (akc_message_builder_add_text (builder, "Here is the guide:\n", &error));
  g_assert_true (akc_message_builder_add_frame (builder, frame, &error));
  g_assert_true (akc_message_builder_add_text (builder, "Anything else?", &error));
  g_assert_true (akc_message_builder_add_tool_call (builder, "c1", "search", NULL,
                                                    AKC_TOOL_CALL_STATUS_REQUIRES_CONFIRMATION, &error));
  g_assert_no_error (error);
  akc_message_builder_set_created_at (builder, created_at);
  akc_message_builder_set_status (builder, AKC_MESSAGE_STATUS_STREAMING);
  record = akc_message_builder_build (builder, &error);
  g_assert_no_error (error);

  /* The ordered envelope, with the parts in the order they were added. */
  content = akc_message_record_get_content (record, &length);
  g_assert_true (akc_assistant_content_is_candidate (content, length));
  parts = akc_assistant_content_decode (content, length, NULL, &diagnostic);
  g_assert_null (diagnostic);
  g_assert_cmpuint (akc_json_value_get_length (parts), ==, 3);
  g_assert_cmpstr (akc_message_record_get_status (record), ==, "streaming");
  timestamp = g_date_time_format_iso8601 (akc_message_record_get_created_at (record));
  g_assert_cmpstr (timestamp, ==, "2026-07-14T01:02:03.456000Z");
  calls = akc_json_value_to_canonical (akc_message_record_get_tool_calls (record), NULL);
  g_assert_cmpstr (calls, ==, "[{\"id\":\"c1\",\"name\":\"search\",\"args\":{},\"status\":\"requires_confirmation\"}]");
}

static void
expect_path (const char *snapshot,
             const char *message,
             const char *field_path)
{
  g_autoptr(AkcControlledSource) source = akc_controlled_source_new ();
  g_autoptr(GError) error = NULL;

  g_assert_false (akc_controlled_source_set_snapshot_text (source, snapshot, -1, &error));
  g_assert_error (error, AKC_PROTOCOL_ERROR, error->code);
  g_assert_cmpstr (error->message, ==, message);
  g_assert_cmpstr (akc_protocol_error_get_field_path (error), ==, field_path);
}

#define SHELL(messages, rest) \
  "{\"sessionId\":\"paths\",\"messages\":[" messages "],\"status\":\"idle\",\"input\":\"\"," \
  "\"usage\":{\"promptTokens\":0,\"completionTokens\":0,\"totalTokens\":0}" rest "}"
#define OK_MESSAGE \
  "{\"id\":\"m0\",\"role\":\"user\",\"content\":\"x\",\"status\":\"complete\",\"createdAt\":\"2026-07-14T00:00:00.000Z\"}"

static void
test_field_paths (void)
{
  g_autoptr(AkcControlledSource) source = akc_controlled_source_new ();
  g_autoptr(GError) error = NULL;

  /* The wire's message stays the reference's; the path says what to fix. */
  expect_path (SHELL (OK_MESSAGE ","
                      "{\"id\":\"m1\",\"role\":\"user\",\"content\":\"x\",\"status\":\"complete\","
                      "\"createdAt\":\"2026-07-14T00:00:00Z\"}", ",\"error\":null"),
               "Serialized message record is invalid.",
               "messages[1].createdAt: not a UTC timestamp with milliseconds");
  expect_path (SHELL (OK_MESSAGE ",{\"id\":\"m1\",\"role\":\"owner\",\"content\":\"x\",\"status\":\"complete\","
                      "\"createdAt\":\"2026-07-14T00:00:00.000Z\"}", ",\"error\":null"),
               "Serialized message record is invalid.",
               "messages[1].role: not one of user, assistant, system, tool");
  expect_path (SHELL ("{\"id\":\"m0\",\"role\":\"user\",\"content\":\"x\",\"status\":\"complete\","
                      "\"createdAt\":\"2026-07-14T00:00:00.000Z\",\"toolCalls\":[{\"id\":\"c\",\"name\":\"n\","
                      "\"args\":{},\"status\":\"waiting\"}]}", ",\"error\":null"),
               "Serialized message record is invalid.",
               "messages[0].toolCalls[0].status: not one of pending, running, complete, error, requires_confirmation");
  expect_path (SHELL (OK_MESSAGE, ""),
               "Controlled chat snapshot is invalid.", "error: missing");
  expect_path (SHELL (OK_MESSAGE, ",\"error\":{\"message\":\"Failed.\",\"code\":\"bad code\"}"),
               "Controlled chat snapshot is invalid.", "error.code: not an Identifier");
  expect_path (SHELL (OK_MESSAGE, ",\"error\":null,\"transport\":\"private\""),
               "Controlled chat snapshot is invalid.", "transport: not a member this object may have");

  /* Edits name their field too. */
  g_assert_false (akc_controlled_source_set_session_id (source, "has space", &error));
  g_assert_cmpstr (error->message, ==, "Controlled chat snapshot is invalid.");
  g_assert_cmpstr (akc_protocol_error_get_field_path (error), ==, "sessionId: not an Identifier");
  g_clear_error (&error);
  g_assert_false (akc_controlled_source_set_error (source, "Failed.", "bad code", &error));
  g_assert_cmpstr (akc_protocol_error_get_field_path (error), ==, "error.code: not an Identifier");
  g_clear_error (&error);

  /* So does a record built from a value. */
  {
    g_autoptr(AkcJsonValue) value = akc_json_value_parse (
      "{\"id\":\"m\",\"role\":\"user\",\"content\":\"x\",\"status\":\"done\","
      "\"createdAt\":\"2026-07-14T00:00:00.000Z\"}", -1, NULL);
    g_autoptr(AkcMessageRecord) record = akc_message_record_new_from_value (value, &error);

    g_assert_null (record);
    g_assert_cmpstr (error->message, ==, "Serialized message record is invalid.");
    g_assert_cmpstr (akc_protocol_error_get_field_path (error), ==,
                     "status: not one of pending, streaming, complete, error");
    g_clear_error (&error);
  }

  /* Other errors have none. */
  g_set_error_literal (&error, AKC_CHAT_ERROR, AKC_CHAT_ERROR_BUSY, "busy");
  g_assert_null (akc_protocol_error_get_field_path (error));
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/controlled-edits/streaming", test_streaming);
  g_test_add_func ("/controlled-edits/refused", test_refused);
  g_test_add_func ("/controlled-edits/bounds", test_bounds);
  g_test_add_func ("/controlled-edits/update-and-stop", test_update_and_stop);
  g_test_add_func ("/controlled-edits/builder", test_builder);
  g_test_add_func ("/controlled-edits/append-ordered", test_append_ordered);
  g_test_add_func ("/controlled-edits/field-paths", test_field_paths);

  return g_test_run ();
}
