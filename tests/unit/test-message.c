/* test-message.c
 *
 * SPDX-License-Identifier: MIT
 */

#include "akc.h"

static void
test_message_basics (void)
{
  AkcMessage *message = akc_message_new (NULL, AKC_MESSAGE_ROLE_ASSISTANT, NULL, AKC_MESSAGE_STATUS_PENDING);

  g_assert_nonnull (akc_message_get_id (message));
  g_assert_true (g_uuid_string_is_valid (akc_message_get_id (message)));
  g_assert_cmpstr (akc_message_get_content (message), ==, "");
  g_assert_nonnull (akc_message_get_created_at (message));
  g_assert_cmpint (akc_message_get_status (message), ==, AKC_MESSAGE_STATUS_PENDING);

  akc_message_append_content (message, "a\0b", 3);
  g_assert_cmpuint (akc_message_get_content_length (message), ==, 3);
  g_assert_cmpmem (akc_message_get_content (message), 3, "a\0b", 3);

  akc_message_set_content (message, "final");
  g_assert_cmpstr (akc_message_get_content (message), ==, "final");

  g_assert_finalize_object (message);
}

static void
count_notify (GObject    *object,
              GParamSpec *pspec,
              guint      *count)
{
  (*count)++;
}

static void
test_message_notify (void)
{
  AkcMessage *message = akc_message_new ("m1", AKC_MESSAGE_ROLE_USER, "hi", AKC_MESSAGE_STATUS_COMPLETE);
  guint content = 0, status = 0;

  g_signal_connect (message, "notify::content", G_CALLBACK (count_notify), &content);
  g_signal_connect (message, "notify::status", G_CALLBACK (count_notify), &status);

  akc_message_set_content (message, "hi");
  akc_message_append_content (message, "", 0);
  akc_message_set_status (message, AKC_MESSAGE_STATUS_COMPLETE);
  g_assert_cmpuint (content, ==, 0);
  g_assert_cmpuint (status, ==, 0);

  akc_message_append_content (message, "!", -1);
  akc_message_set_status (message, AKC_MESSAGE_STATUS_ERROR);
  g_assert_cmpuint (content, ==, 1);
  g_assert_cmpuint (status, ==, 1);
  g_assert_cmpstr (akc_message_get_id (message), ==, "m1");
  g_assert_cmpstr (akc_message_get_content (message), ==, "hi!");

  g_assert_finalize_object (message);
}

static void
test_message_stopped_and_lineage (void)
{
  AkcMessage *message = akc_message_new ("m", AKC_MESSAGE_ROLE_ASSISTANT, "", AKC_MESSAGE_STATUS_STREAMING);
  g_autoptr(AkcLineage) lineage = akc_lineage_new (AKC_LINEAGE_OPERATION_REGENERATE, "a1", "turn-1");
  g_autoptr(AkcLineage) same = akc_lineage_new (AKC_LINEAGE_OPERATION_REGENERATE, "a1", "turn-1");
  g_autoptr(AkcLineage) other = akc_lineage_new (AKC_LINEAGE_OPERATION_RETRY, "a1", "turn-1");
  guint stopped = 0, lineage_changes = 0;

  g_signal_connect (message, "notify::stopped", G_CALLBACK (count_notify), &stopped);
  g_signal_connect (message, "notify::lineage", G_CALLBACK (count_notify), &lineage_changes);

  g_assert_false (akc_message_get_stopped (message));
  akc_message_set_stopped (message, TRUE);
  akc_message_set_stopped (message, TRUE);
  g_assert_true (akc_message_get_stopped (message));
  g_assert_cmpuint (stopped, ==, 1);

  g_assert_null (akc_message_get_lineage (message));
  akc_message_set_lineage (message, lineage);
  akc_message_set_lineage (message, same);
  g_assert_cmpuint (lineage_changes, ==, 1);
  g_assert_true (akc_lineage_equal (akc_message_get_lineage (message), same));
  g_assert_false (akc_lineage_equal (lineage, other));
  g_assert_cmpint (akc_lineage_get_operation (lineage), ==, AKC_LINEAGE_OPERATION_REGENERATE);
  g_assert_cmpstr (akc_lineage_get_source_message_id (lineage), ==, "a1");
  g_assert_cmpstr (akc_lineage_get_parent_turn_id (lineage), ==, "turn-1");
  akc_message_set_lineage (message, NULL);
  g_assert_cmpuint (lineage_changes, ==, 2);

  /* The wire strings are the enum nicks. */
  {
    g_autoptr(GEnumClass) operations = g_type_class_ref (AKC_TYPE_LINEAGE_OPERATION);
    g_autoptr(GEnumClass) statuses = g_type_class_ref (AKC_TYPE_MESSAGE_STATUS);

    g_assert_cmpstr (g_enum_get_value (operations, AKC_LINEAGE_OPERATION_REGENERATE)->value_nick, ==, "regenerate");
    g_assert_cmpstr (g_enum_get_value (statuses, AKC_MESSAGE_STATUS_STREAMING)->value_nick, ==, "streaming");
    g_assert_cmpuint (statuses->n_values, ==, 4);
  }

  g_signal_handlers_disconnect_by_data (message, &stopped);
  g_signal_handlers_disconnect_by_data (message, &lineage_changes);
  g_assert_finalize_object (message);
}

static void
count_items_changed (GListModel *model,
                     guint       position,
                     guint       removed,
                     guint       added,
                     guint      *count)
{
  g_assert_cmpuint (position, ==, *count);
  g_assert_cmpuint (removed, ==, 0);
  g_assert_cmpuint (added, ==, 1);
  (*count)++;
}

static void
test_message_tool_calls (void)
{
  AkcMessage *message = akc_message_new ("m", AKC_MESSAGE_ROLE_ASSISTANT, "", AKC_MESSAGE_STATUS_COMPLETE);
  AkcMessage *tool = g_object_new (AKC_TYPE_MESSAGE, "role", AKC_MESSAGE_ROLE_TOOL, "tool-call-id", "c1", NULL);
  g_autoptr(AkcJsonValue) arguments = akc_json_value_parse ("{\"q\":1}", -1, NULL);
  AkcToolCall *call = akc_tool_call_new ("c1", "lookup", arguments, AKC_TOOL_CALL_STATUS_REQUIRES_CONFIRMATION);
  AkcToolCall *defaults = akc_tool_call_new (NULL, "x", NULL, AKC_TOOL_CALL_STATUS_PENDING);
  GListModel *calls = akc_message_get_tool_calls (message);
  g_autofree char *canonical = NULL;
  AkcToolCallStatus status;
  guint changes = 0;

  g_signal_connect (calls, "items-changed", G_CALLBACK (count_items_changed), &changes);
  g_assert_cmpuint (g_list_model_get_n_items (calls), ==, 0);
  akc_message_add_tool_call (message, call);
  akc_message_add_tool_call (message, defaults);
  g_assert_cmpuint (changes, ==, 2);
  g_assert_true (akc_message_find_tool_call (message, "c1") == call);
  g_assert_null (akc_message_find_tool_call (message, "c2"));
  g_assert_true (akc_message_get_tool_calls (message) == calls);
  g_assert_cmpstr (akc_message_get_tool_call_id (tool), ==, "c1");
  g_assert_null (akc_message_get_tool_call_id (message));

  g_assert_true (g_uuid_string_is_valid (akc_tool_call_get_id (defaults)));
  canonical = akc_json_value_to_canonical (akc_tool_call_get_arguments (defaults), NULL);
  g_assert_cmpstr (canonical, ==, "{}");

  akc_tool_call_set_result (call, "r");
  akc_tool_call_set_error (call, NULL);
  akc_tool_call_set_status (call, AKC_TOOL_CALL_STATUS_COMPLETE);
  g_assert_cmpstr (akc_tool_call_get_result (call), ==, "r");
  g_assert_null (akc_tool_call_get_error (call));
  g_assert_cmpint (akc_tool_call_get_status (call), ==, AKC_TOOL_CALL_STATUS_COMPLETE);

  g_assert_cmpstr (akc_tool_call_status_to_string (AKC_TOOL_CALL_STATUS_REQUIRES_CONFIRMATION), ==, "requires_confirmation");
  g_assert_true (akc_tool_call_status_from_string ("running", &status));
  g_assert_cmpint (status, ==, AKC_TOOL_CALL_STATUS_RUNNING);
  g_assert_false (akc_tool_call_status_from_string ("requires-confirmation", &status));
  g_assert_false (akc_tool_call_status_from_string ("cancelled", NULL));

  g_signal_handlers_disconnect_by_data (calls, &changes);
  g_object_unref (call);
  g_object_unref (defaults);
  g_assert_finalize_object (message);
  g_assert_finalize_object (tool);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/message/basics", test_message_basics);
  g_test_add_func ("/message/notify", test_message_notify);
  g_test_add_func ("/message/stopped-and-lineage", test_message_stopped_and_lineage);
  g_test_add_func ("/message/tool-calls", test_message_tool_calls);

  return g_test_run ();
}
