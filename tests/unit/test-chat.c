/* test-chat.c: AkcChat, the local controller, over the echo adapter
 *
 * SPDX-License-Identifier: MIT
 */

#include "akc.h"

/* Spins the main context until @chat is no longer streaming; a hang fails
 * the test through meson's timeout instead of sleeping for a fixed time. */
static void
wait_until_settled (AkcChat *chat)
{
  while (akc_chat_source_get_status (AKC_CHAT_SOURCE (chat)) == AKC_CHAT_STATUS_STREAMING)
    g_main_context_iteration (NULL, TRUE);
}

static AkcMessage *
message_at (AkcChat *chat,
            guint    position)
{
  GListModel *messages = akc_chat_source_get_messages (AKC_CHAT_SOURCE (chat));
  AkcMessage *message = g_list_model_get_item (messages, position);

  g_object_unref (message); /* the list keeps it alive */
  return message;
}

static guint
n_messages (AkcChat *chat)
{
  return g_list_model_get_n_items (akc_chat_source_get_messages (AKC_CHAT_SOURCE (chat)));
}

static AkcChat *
new_chat (void)
{
  g_autoptr(AkcAdapter) adapter = akc_echo_adapter_new ();

  akc_echo_adapter_set_chunk_interval (AKC_ECHO_ADAPTER (adapter), 0);
  return akc_chat_new (adapter);
}

static void
count_notify (GObject    *object,
              GParamSpec *pspec,
              guint      *count)
{
  (*count)++;
}

static void
test_chat_send_streams (void)
{
  AkcChat *chat = new_chat ();
  g_autoptr(GError) error = NULL;
  AkcMessage *reply;
  guint content_changes = 0;

  g_assert_true (akc_chat_source_send (AKC_CHAT_SOURCE (chat), "hello", &error));
  g_assert_no_error (error);
  g_assert_cmpint (akc_chat_source_get_status (AKC_CHAT_SOURCE (chat)), ==, AKC_CHAT_STATUS_STREAMING);
  g_assert_cmpuint (n_messages (chat), ==, 2);

  reply = message_at (chat, 1);
  g_signal_connect (reply, "notify::content", G_CALLBACK (count_notify), &content_changes);
  wait_until_settled (chat);

  g_assert_cmpstr (akc_message_get_content (message_at (chat, 0)), ==, "hello");
  g_assert_cmpint (akc_message_get_role (message_at (chat, 0)), ==, AKC_MESSAGE_ROLE_USER);
  g_assert_cmpstr (akc_message_get_content (reply), ==, "AgentsKit received: hello");
  g_assert_cmpint (akc_message_get_role (reply), ==, AKC_MESSAGE_ROLE_ASSISTANT);
  g_assert_cmpint (akc_message_get_status (reply), ==, AKC_MESSAGE_STATUS_COMPLETE);
  g_assert_cmpint (akc_chat_source_get_status (AKC_CHAT_SOURCE (chat)), ==, AKC_CHAT_STATUS_IDLE);
  g_assert_null (akc_chat_source_get_error (AKC_CHAT_SOURCE (chat)));
  /* "AgentsKit ", "received: ", "hello": streamed, not delivered at once. */
  g_assert_cmpuint (content_changes, ==, 3);

  g_assert_finalize_object (chat);
}

static void
test_chat_fail (void)
{
  AkcChat *chat = new_chat ();
  const GError *turn_error;

  g_assert_true (akc_chat_source_send (AKC_CHAT_SOURCE (chat), "/fail", NULL));
  wait_until_settled (chat);

  g_assert_cmpint (akc_chat_source_get_status (AKC_CHAT_SOURCE (chat)), ==, AKC_CHAT_STATUS_ERROR);
  turn_error = akc_chat_source_get_error (AKC_CHAT_SOURCE (chat));
  g_assert_error (turn_error, AKC_CHAT_ERROR, AKC_CHAT_ERROR_TURN_FAILED);
  g_assert_cmpstr (turn_error->message, ==, "The deterministic adapter failed as requested.");
  g_assert_cmpstr (akc_message_get_content (message_at (chat, 1)), ==, "");
  g_assert_cmpint (akc_message_get_status (message_at (chat, 1)), ==, AKC_MESSAGE_STATUS_ERROR);

  /* A failed turn can be retried, and a new turn clears the error. */
  g_assert_true (akc_chat_source_send (AKC_CHAT_SOURCE (chat), "again", NULL));
  g_assert_null (akc_chat_source_get_error (AKC_CHAT_SOURCE (chat)));
  wait_until_settled (chat);
  g_assert_cmpint (akc_chat_source_get_status (AKC_CHAT_SOURCE (chat)), ==, AKC_CHAT_STATUS_IDLE);

  g_assert_finalize_object (chat);
}

static void
stop_after_first_chunk (AkcMessage *reply,
                        GParamSpec *pspec,
                        AkcChat    *chat)
{
  akc_chat_source_stop (AKC_CHAT_SOURCE (chat));
}

static void
test_chat_stop_mid_stream (void)
{
  AkcChat *chat = new_chat ();
  AkcMessage *reply;

  g_assert_true (akc_chat_source_send (AKC_CHAT_SOURCE (chat), "hello there", NULL));
  reply = message_at (chat, 1);
  g_signal_connect (reply, "notify::content", G_CALLBACK (stop_after_first_chunk), chat);
  wait_until_settled (chat);
  g_signal_handlers_disconnect_by_func (reply, stop_after_first_chunk, chat);

  g_assert_cmpstr (akc_message_get_content (reply), ==, "AgentsKit ");
  g_assert_cmpint (akc_message_get_status (reply), ==, AKC_MESSAGE_STATUS_CANCELLED);
  g_assert_cmpint (akc_chat_source_get_status (AKC_CHAT_SOURCE (chat)), ==, AKC_CHAT_STATUS_IDLE);

  /* The adapter's timer is still queued: its late chunks change nothing. */
  for (guint i = 0; i < 10; i++)
    g_main_context_iteration (NULL, FALSE);
  g_assert_cmpstr (akc_message_get_content (reply), ==, "AgentsKit ");
  g_assert_cmpuint (n_messages (chat), ==, 2);

  g_assert_finalize_object (chat);
}

static void
test_chat_slow_waits_for_stop (void)
{
  AkcChat *chat = new_chat ();

  g_assert_true (akc_chat_source_send (AKC_CHAT_SOURCE (chat), "/slow", NULL));
  for (guint i = 0; i < 10; i++)
    g_main_context_iteration (NULL, FALSE);
  g_assert_cmpint (akc_chat_source_get_status (AKC_CHAT_SOURCE (chat)), ==, AKC_CHAT_STATUS_STREAMING);

  akc_chat_source_stop (AKC_CHAT_SOURCE (chat));
  g_assert_cmpint (akc_chat_source_get_status (AKC_CHAT_SOURCE (chat)), ==, AKC_CHAT_STATUS_IDLE);
  g_assert_cmpint (akc_message_get_status (message_at (chat, 1)), ==, AKC_MESSAGE_STATUS_CANCELLED);

  g_assert_finalize_object (chat);
}

static void
test_chat_rejects (void)
{
  AkcChat *chat = new_chat ();
  g_autoptr(GError) error = NULL;

  g_assert_false (akc_chat_source_send (AKC_CHAT_SOURCE (chat), " \n\t ", &error));
  g_assert_error (error, AKC_CHAT_ERROR, AKC_CHAT_ERROR_EMPTY_INPUT);
  g_clear_error (&error);
  g_assert_cmpuint (n_messages (chat), ==, 0);

  /* Blank is ECMAScript's trim(): no-break and ideographic spaces are blank,
   * U+0085 (NEL) is not. */
  g_assert_false (akc_chat_source_send (AKC_CHAT_SOURCE (chat), "\u00a0\u3000\ufeff", &error));
  g_assert_error (error, AKC_CHAT_ERROR, AKC_CHAT_ERROR_EMPTY_INPUT);
  g_clear_error (&error);
  g_assert_true (akc_is_blank_input (""));
  g_assert_false (akc_is_blank_input ("\xc2\x85"));
  g_assert_false (akc_is_blank_input (" a "));

  g_assert_false (akc_chat_source_retry (AKC_CHAT_SOURCE (chat), &error));
  g_assert_error (error, AKC_CHAT_ERROR, AKC_CHAT_ERROR_NO_TARGET);
  g_clear_error (&error);

  g_assert_true (akc_chat_source_send (AKC_CHAT_SOURCE (chat), "/slow", NULL));
  g_assert_false (akc_chat_source_send (AKC_CHAT_SOURCE (chat), "second", &error));
  g_assert_error (error, AKC_CHAT_ERROR, AKC_CHAT_ERROR_BUSY);
  g_assert_cmpuint (n_messages (chat), ==, 2);

  akc_chat_source_clear (AKC_CHAT_SOURCE (chat));
  g_assert_cmpuint (n_messages (chat), ==, 0);
  g_assert_cmpint (akc_chat_source_get_status (AKC_CHAT_SOURCE (chat)), ==, AKC_CHAT_STATUS_IDLE);

  g_assert_finalize_object (chat);
}

static void
test_chat_lifecycle (void)
{
  AkcChat *chat = new_chat ();
  g_autofree char *first_reply_id = NULL;
  g_autofree char *user_id = NULL;

  akc_chat_source_send (AKC_CHAT_SOURCE (chat), "one", NULL);
  wait_until_settled (chat);
  akc_chat_source_send (AKC_CHAT_SOURCE (chat), "two", NULL);
  wait_until_settled (chat);
  g_assert_cmpuint (n_messages (chat), ==, 4);

  /* Retry answers the last user message again, replacing its answer. */
  first_reply_id = g_strdup (akc_message_get_id (message_at (chat, 3)));
  g_assert_true (akc_chat_source_retry (AKC_CHAT_SOURCE (chat), NULL));
  wait_until_settled (chat);
  g_assert_cmpuint (n_messages (chat), ==, 4);
  g_assert_cmpstr (akc_message_get_id (message_at (chat, 3)), !=, first_reply_id);
  g_assert_cmpstr (akc_message_get_content (message_at (chat, 3)), ==, "AgentsKit received: two");

  /* Regenerating the first answer drops everything after it. */
  g_assert_true (akc_chat_source_regenerate (AKC_CHAT_SOURCE (chat),
                                             akc_message_get_id (message_at (chat, 1)), NULL));
  wait_until_settled (chat);
  g_assert_cmpuint (n_messages (chat), ==, 2);
  g_assert_cmpstr (akc_message_get_content (message_at (chat, 1)), ==, "AgentsKit received: one");

  /* Editing replaces the user message and answers the new text. */
  user_id = g_strdup (akc_message_get_id (message_at (chat, 0)));
  g_assert_true (akc_chat_source_edit (AKC_CHAT_SOURCE (chat), user_id, "uno", NULL));
  wait_until_settled (chat);
  g_assert_cmpuint (n_messages (chat), ==, 2);
  g_assert_cmpstr (akc_message_get_content (message_at (chat, 0)), ==, "uno");
  g_assert_cmpstr (akc_message_get_content (message_at (chat, 1)), ==, "AgentsKit received: uno");

  g_assert_finalize_object (chat);
}

static void
test_chat_input (void)
{
  AkcChat *chat = new_chat ();
  g_autofree char *input = NULL;
  guint notifications = 0;

  g_signal_connect (chat, "notify::input", G_CALLBACK (count_notify), &notifications);
  akc_chat_source_set_input (AKC_CHAT_SOURCE (chat), "draft");
  akc_chat_source_set_input (AKC_CHAT_SOURCE (chat), "draft");
  input = akc_chat_source_dup_input (AKC_CHAT_SOURCE (chat));
  g_assert_cmpstr (input, ==, "draft");
  g_assert_cmpuint (notifications, ==, 1);

  g_assert_finalize_object (chat);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/chat/send-streams", test_chat_send_streams);
  g_test_add_func ("/chat/fail", test_chat_fail);
  g_test_add_func ("/chat/stop-mid-stream", test_chat_stop_mid_stream);
  g_test_add_func ("/chat/slow-waits-for-stop", test_chat_slow_waits_for_stop);
  g_test_add_func ("/chat/rejects", test_chat_rejects);
  g_test_add_func ("/chat/lifecycle", test_chat_lifecycle);
  g_test_add_func ("/chat/input", test_chat_input);

  return g_test_run ();
}
