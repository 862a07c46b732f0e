/* test-chat-history.c: AkcChatHistory keeps an AkcChat stored
 *
 * SPDX-License-Identifier: MIT
 */

#include "config.h"

#include <string.h>

#include "akc-store-test.h"

typedef AkcTestChatFixture Fixture;

/* What the memory holds now, read after every write started so far. */
static GListModel *
stored (Fixture *fixture)
{
  g_autoptr(GError) error = NULL;
  GListModel *messages = akc_test_load (fixture->memory, "demo", &error);

  g_assert_no_error (error);
  return messages;
}

static void
assert_stored_is_chat (Fixture *fixture)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GListModel) messages = NULL;

  g_assert_true (akc_test_history_flush (fixture->history, &error));
  g_assert_no_error (error);
  messages = stored (fixture);
  akc_test_assert_messages_equal (akc_test_chat_messages (fixture->chat), messages);
}

static void
load (Fixture *fixture)
{
  g_autoptr(GError) error = NULL;

  g_assert_true (akc_test_history_load (fixture->history, &error));
  g_assert_no_error (error);
  g_assert_true (akc_chat_history_get_loaded (fixture->history));
}

static void
send (Fixture    *fixture,
      const char *text)
{
  g_autoptr(GError) error = NULL;

  g_assert_true (akc_chat_source_send (AKC_CHAT_SOURCE (fixture->chat), text, &error));
  g_assert_no_error (error);
}

static AkcStream *
stream (Fixture *fixture)
{
  return akc_test_adapter_get_stream (fixture->adapter);
}

static void
test_load_creates (Fixture       *fixture,
                   gconstpointer  data)
{
  g_autoptr(GListModel) list = NULL;
  g_autoptr(AkcConversationInfo) info = NULL;
  g_autoptr(GError) error = NULL;

  g_assert_true (akc_chat_history_get_chat (fixture->history) == fixture->chat);
  g_assert_true (akc_chat_history_get_memory (fixture->history) == fixture->memory);
  g_assert_cmpstr (akc_chat_history_get_conversation_id (fixture->history), ==, "demo");
  g_assert_cmpuint (akc_chat_history_get_checkpoint_interval (fixture->history), ==,
                    AKC_CHAT_HISTORY_DEFAULT_CHECKPOINT_INTERVAL);
  g_assert_false (akc_chat_history_get_loaded (fixture->history));
  g_assert_null (akc_chat_history_get_error (fixture->history));

  load (fixture);
  g_assert_cmpuint (g_list_model_get_n_items (akc_test_chat_messages (fixture->chat)), ==, 0);

  list = akc_test_list (fixture->memory, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (g_list_model_get_n_items (list), ==, 1);
  info = g_list_model_get_item (list, 0);
  g_assert_cmpstr (akc_conversation_info_get_id (info), ==, "demo");

  /* Loading twice is refused. */
  g_assert_false (akc_test_history_load (fixture->history, &error));
  g_assert_error (error, AKC_CHAT_MEMORY_ERROR, AKC_CHAT_MEMORY_ERROR_INVALID);
}

/* A whole turn, with every field the controller sets, reopens exactly. */
static void
test_turn_reopens (Fixture       *fixture,
                   gconstpointer  data)
{
  g_autoptr(AkcChunk) tool_call = akc_chunk_new_tool_call ("call-1", "lookup", "{\"q\":\"astral 😀\"}");
  g_autoptr(AkcChunk) nul = akc_chunk_new_text ("with \0 nul", 10);
  g_autoptr(AkcChunk) usage = akc_chunk_new_usage (3, 5, 8);
  g_autoptr(AkcTestAdapter) adapter = NULL;
  g_autoptr(AkcChat) chat = NULL;
  g_autoptr(AkcChatHistory) history = NULL;
  g_autoptr(GListModel) list = NULL;
  g_autoptr(AkcConversationInfo) info = NULL;
  g_autoptr(GError) error = NULL;

  load (fixture);
  send (fixture, "Hello 😀");
  akc_stream_push_text (stream (fixture), "Hi ");
  akc_stream_push (stream (fixture), nul);
  akc_stream_push (stream (fixture), tool_call);
  akc_stream_push (stream (fixture), usage);
  akc_stream_finish (stream (fixture));
  g_assert_cmpint (akc_chat_source_get_status (AKC_CHAT_SOURCE (fixture->chat)), ==, AKC_CHAT_STATUS_IDLE);

  send (fixture, "Again");
  akc_stream_push_text (stream (fixture), "Partial");
  akc_chat_source_stop (AKC_CHAT_SOURCE (fixture->chat));
  g_assert_true (akc_message_get_stopped (akc_test_chat_message (fixture->chat, 3)));

  assert_stored_is_chat (fixture);

  /* Another chat, as after a restart, reads it back exactly. */
  adapter = akc_test_adapter_new ();
  chat = akc_chat_new (AKC_ADAPTER (adapter));
  history = akc_chat_history_new (chat, fixture->memory, "demo");
  g_assert_true (akc_test_history_load (history, &error));
  g_assert_no_error (error);
  akc_test_assert_messages_equal (akc_test_chat_messages (fixture->chat), akc_test_chat_messages (chat));

  /* The usage of the conversation is stored with it. */
  list = akc_test_list (fixture->memory, &error);
  g_assert_no_error (error);
  info = g_list_model_get_item (list, 0);
  g_assert_cmpuint (akc_conversation_info_get_usage (info)->total_tokens, ==,
                    akc_chat_source_get_usage (AKC_CHAT_SOURCE (fixture->chat))->total_tokens);
  g_assert_cmpuint (akc_conversation_info_get_usage (info)->total_tokens, ==, 8);

  akc_test_drain ();
  g_assert_finalize_object (g_steal_pointer (&history));
}

/* Retry, edit, regenerate, clear: the stored conversation follows. */
static void
test_lifecycle (Fixture       *fixture,
                gconstpointer  data)
{
  AkcChatSource *source = AKC_CHAT_SOURCE (fixture->chat);
  g_autoptr(GError) error = NULL;

  load (fixture);

  send (fixture, "one");
  akc_stream_push_text (stream (fixture), "first answer");
  akc_stream_finish (stream (fixture));
  send (fixture, "two");
  akc_stream_fail (stream (fixture), "AK_ADAPTER_FAILED", "It broke.");
  assert_stored_is_chat (fixture);

  g_assert_true (akc_chat_source_retry (source, &error));
  g_assert_no_error (error);
  akc_stream_push_text (stream (fixture), "second answer");
  akc_stream_finish (stream (fixture));
  assert_stored_is_chat (fixture);

  g_assert_true (akc_chat_source_edit (source, akc_message_get_id (akc_test_chat_message (fixture->chat, 0)),
                                       "one, edited", &error));
  g_assert_no_error (error);
  akc_stream_push_text (stream (fixture), "edited answer");
  akc_stream_finish (stream (fixture));
  assert_stored_is_chat (fixture);

  g_assert_true (akc_chat_source_regenerate (source, akc_message_get_id (akc_test_chat_message (fixture->chat, 1)),
                                             &error));
  g_assert_no_error (error);
  akc_stream_push_text (stream (fixture), "regenerated");
  assert_stored_is_chat (fixture);
  akc_stream_finish (stream (fixture));
  assert_stored_is_chat (fixture);

  akc_chat_source_clear (source);
  assert_stored_is_chat (fixture);
  g_assert_cmpuint (g_list_model_get_n_items (akc_test_chat_messages (fixture->chat)), ==, 0);
}

static void
assert_stored_reply (Fixture          *fixture,
                     guint             position,
                     const char       *content,
                     AkcMessageStatus  status)
{
  g_autoptr(GListModel) messages = stored (fixture);
  g_autoptr(AkcMessage) reply = g_list_model_get_item (messages, position);

  g_assert_cmpstr (akc_message_get_content (reply), ==, content);
  g_assert_cmpint (akc_message_get_status (reply), ==, status);
}

/* Streamed text is written at checkpoints; a status change at once. */
static void
test_checkpoints (Fixture       *fixture,
                  gconstpointer  data)
{
  load (fixture);

  /* An interval that never ends within the test: text that streams in
   * after the first chunk waits for the next status change. */
  akc_chat_history_set_checkpoint_interval (fixture->history, G_MAXUINT);
  send (fixture, "question");
  akc_test_drain ();
  assert_stored_reply (fixture, 1, "", AKC_MESSAGE_STATUS_PENDING);

  akc_stream_push_text (stream (fixture), "a");
  akc_test_drain ();
  assert_stored_reply (fixture, 1, "a", AKC_MESSAGE_STATUS_STREAMING);
  akc_stream_push_text (stream (fixture), "b");
  akc_stream_push_text (stream (fixture), "c");
  akc_test_drain ();
  assert_stored_reply (fixture, 1, "a", AKC_MESSAGE_STATUS_STREAMING);

  akc_stream_finish (stream (fixture));
  akc_test_drain ();
  assert_stored_reply (fixture, 1, "abc", AKC_MESSAGE_STATUS_COMPLETE);

  /* Interval 0: every change by the end of its main-loop iteration. */
  akc_chat_history_set_checkpoint_interval (fixture->history, 0);
  send (fixture, "again");
  akc_stream_push_text (stream (fixture), "x");
  akc_test_drain ();
  akc_stream_push_text (stream (fixture), "y");
  akc_test_drain ();
  assert_stored_reply (fixture, 3, "xy", AKC_MESSAGE_STATUS_STREAMING);
  akc_stream_push_text (stream (fixture), "z");
  akc_test_drain ();
  assert_stored_reply (fixture, 3, "xyz", AKC_MESSAGE_STATUS_STREAMING);

  /* A short interval: the checkpoint comes without any other event. */
  akc_chat_history_set_checkpoint_interval (fixture->history, 10);
  akc_stream_push_text (stream (fixture), "!");
  {
    g_autoptr(GListModel) messages = NULL;
    g_autoptr(AkcMessage) reply = NULL;

    do
      {
        g_clear_object (&reply);
        g_clear_object (&messages);
        g_main_context_iteration (NULL, TRUE);
        messages = stored (fixture);
        reply = g_list_model_get_item (messages, 3);
      }
    while (strcmp (akc_message_get_content (reply), "xyz!") != 0);
  }

  /* flush writes what waits. */
  akc_chat_history_set_checkpoint_interval (fixture->history, G_MAXUINT);
  akc_stream_push_text (stream (fixture), "?");
  assert_stored_is_chat (fixture);
  assert_stored_reply (fixture, 3, "xyz!?", AKC_MESSAGE_STATUS_STREAMING);
  akc_stream_finish (stream (fixture));
}

/* A reply that was streaming when the application stopped reads back as
 * stopped, with its text. */
static void
test_interrupted (Fixture       *fixture,
                  gconstpointer  data)
{
  g_autoptr(AkcConversationInfo) info = NULL;
  g_autoptr(AkcMessage) user = akc_message_new ("u", AKC_MESSAGE_ROLE_USER, "q", AKC_MESSAGE_STATUS_COMPLETE);
  g_autoptr(AkcMessage) reply = akc_message_new ("r", AKC_MESSAGE_ROLE_ASSISTANT, "half an",
                                                 AKC_MESSAGE_STATUS_STREAMING);
  g_autoptr(AkcMessage) pending = akc_message_new ("p", AKC_MESSAGE_ROLE_ASSISTANT, "",
                                                   AKC_MESSAGE_STATUS_PENDING);
  AkcMessage *messages[] = { user, reply, pending };
  g_autoptr(GError) error = NULL;

  info = akc_test_create (fixture->memory, "demo", NULL, &error);
  g_assert_no_error (error);
  g_assert_true (akc_test_splice (fixture->memory, "demo", 0, 0, messages, 3, &error));
  g_assert_no_error (error);

  load (fixture);
  g_assert_cmpuint (g_list_model_get_n_items (akc_test_chat_messages (fixture->chat)), ==, 3);
  for (guint i = 1; i < 3; i++)
    {
      AkcMessage *message = akc_test_chat_message (fixture->chat, i);

      g_assert_cmpint (akc_message_get_status (message), ==, AKC_MESSAGE_STATUS_COMPLETE);
      g_assert_true (akc_message_get_stopped (message));
    }
  g_assert_cmpstr (akc_message_get_content (akc_test_chat_message (fixture->chat, 1)), ==, "half an");
  g_assert_false (akc_message_get_stopped (akc_test_chat_message (fixture->chat, 0)));

  /* and the memory says so too. */
  assert_stored_is_chat (fixture);
}

/* Messages the chat had before loading come after the stored ones. */
static void
test_existing_messages (Fixture       *fixture,
                        gconstpointer  data)
{
  g_autoptr(AkcConversationInfo) info = NULL;
  g_autoptr(AkcMessage) old = akc_message_new ("old", AKC_MESSAGE_ROLE_USER, "before", AKC_MESSAGE_STATUS_COMPLETE);
  g_autoptr(GError) error = NULL;

  info = akc_test_create (fixture->memory, "demo", NULL, &error);
  g_assert_no_error (error);
  g_assert_true (akc_test_append (fixture->memory, "demo", old, &error));
  g_assert_no_error (error);

  send (fixture, "typed early");
  akc_stream_push_text (stream (fixture), "answered");
  akc_stream_finish (stream (fixture));

  load (fixture);
  g_assert_cmpuint (g_list_model_get_n_items (akc_test_chat_messages (fixture->chat)), ==, 3);
  g_assert_cmpstr (akc_message_get_id (akc_test_chat_message (fixture->chat, 0)), ==, "old");
  g_assert_cmpstr (akc_message_get_content (akc_test_chat_message (fixture->chat, 1)), ==, "typed early");
  assert_stored_is_chat (fixture);
}

/* Read while the chat goes on (a person who writes at once, a slow
 * disk): the reply on its way goes on and is stored, and an error the
 * chat had stays (issue 13: nothing typed is lost, errors stay). */
static void
test_load_during_turn (Fixture       *fixture,
                       gconstpointer  data)
{
  AkcChatSource *source = AKC_CHAT_SOURCE (fixture->chat);
  g_autoptr(AkcConversationInfo) info = NULL;
  g_autoptr(AkcMessage) old = akc_message_new ("old", AKC_MESSAGE_ROLE_USER, "before", AKC_MESSAGE_STATUS_COMPLETE);
  g_autoptr(GError) error = NULL;
  AkcStream *live;

  info = akc_test_create (fixture->memory, "demo", NULL, &error);
  g_assert_no_error (error);
  g_assert_true (akc_test_append (fixture->memory, "demo", old, &error));
  g_assert_no_error (error);

  send (fixture, "typed at once");
  live = stream (fixture);
  akc_stream_push_text (live, "half ");
  load (fixture);
  g_assert_cmpint (akc_chat_source_get_status (source), ==, AKC_CHAT_STATUS_STREAMING);
  g_assert_cmpuint (g_list_model_get_n_items (akc_test_chat_messages (fixture->chat)), ==, 3);
  g_assert_cmpstr (akc_message_get_id (akc_test_chat_message (fixture->chat, 0)), ==, "old");
  g_assert_true (stream (fixture) == live);
  akc_stream_push_text (live, "and whole");
  akc_stream_finish (live);
  g_assert_cmpint (akc_chat_source_get_status (source), ==, AKC_CHAT_STATUS_IDLE);
  g_assert_cmpstr (akc_message_get_content (akc_test_chat_message (fixture->chat, 2)), ==, "half and whole");
  g_assert_false (akc_message_get_stopped (akc_test_chat_message (fixture->chat, 2)));
  assert_stored_is_chat (fixture);
}

static void
test_load_after_error (Fixture       *fixture,
                       gconstpointer  data)
{
  AkcChatSource *source = AKC_CHAT_SOURCE (fixture->chat);

  send (fixture, "/fail");
  akc_stream_fail (stream (fixture), "AK_ADAPTER_FAILED", "It broke.");
  g_assert_nonnull (akc_chat_source_get_error (source));
  load (fixture);
  g_assert_cmpint (akc_chat_source_get_status (source), ==, AKC_CHAT_STATUS_ERROR);
  g_assert_nonnull (akc_chat_source_get_error (source));
  g_assert_cmpstr (akc_diagnostic_get_message (akc_chat_source_get_error (source)), ==, "It broke.");
  assert_stored_is_chat (fixture);
}

static void
count_notify (GObject    *object,
              GParamSpec *pspec,
              guint      *n)
{
  (*n)++;
}

/* A write that fails is reported, and the next change puts the stored
 * conversation back in step with the chat. */
static void
test_resync (Fixture       *fixture,
             gconstpointer  data)
{
  g_autoptr(GError) error = NULL;
  guint n_notified = 0;

  load (fixture);
  akc_chat_history_set_checkpoint_interval (fixture->history, G_MAXUINT);
  g_signal_connect (fixture->history, "notify::error", G_CALLBACK (count_notify), &n_notified);

  send (fixture, "one");
  akc_stream_push_text (stream (fixture), "answer");
  akc_stream_finish (stream (fixture));
  assert_stored_is_chat (fixture);

  /* Behind the history's back, the reply disappears from the store. */
  g_assert_true (akc_test_splice (fixture->memory, "demo", 1, 1, NULL, 0, &error));
  g_assert_no_error (error);

  /* Saving it fails: the history says so. */
  akc_message_set_status (akc_test_chat_message (fixture->chat, 1), AKC_MESSAGE_STATUS_ERROR);
  g_assert_false (akc_test_history_flush (fixture->history, &error));
  g_assert_error (error, AKC_CHAT_MEMORY_ERROR, AKC_CHAT_MEMORY_ERROR_NOT_FOUND);
  g_clear_error (&error);
  g_assert_nonnull (akc_chat_history_get_error (fixture->history));
  g_assert_cmpuint (n_notified, ==, 1);

  /* The next change rewrites all of it, and the error goes. */
  send (fixture, "two");
  g_assert_true (akc_test_history_flush (fixture->history, &error));
  g_assert_no_error (error);
  g_assert_null (akc_chat_history_get_error (fixture->history));
  g_assert_cmpuint (n_notified, ==, 2);
  assert_stored_is_chat (fixture);
  akc_stream_finish (stream (fixture));
  assert_stored_is_chat (fixture);
}

/* Dropping the history writes the checkpoints that were waiting. */
static void
test_dispose_writes (Fixture       *fixture,
                     gconstpointer  data)
{
  g_autoptr(GListModel) messages = NULL;
  g_autoptr(AkcMessage) reply = NULL;

  load (fixture);
  akc_chat_history_set_checkpoint_interval (fixture->history, G_MAXUINT);
  send (fixture, "question");
  akc_stream_push_text (stream (fixture), "a");
  akc_test_drain ();
  akc_stream_push_text (stream (fixture), "bc");

  /* Every write started so far is done once a later read is (they run in
   * order); only the checkpoint of "bc" waits. */
  g_object_unref (stored (fixture));
  akc_test_drain ();
  g_assert_finalize_object (g_steal_pointer (&fixture->history));

  messages = stored (fixture);
  reply = g_list_model_get_item (messages, 1);
  g_assert_cmpstr (akc_message_get_content (reply), ==, "abc");

  /* The chat goes on without a history. */
  fixture->history = akc_chat_history_new (fixture->chat, fixture->memory, "other");
  akc_stream_finish (stream (fixture));
}

/* Dropped while out of step with the chat, the history rewrites all of
 * the stored conversation. */
static void
test_dispose_resyncs (Fixture       *fixture,
                      gconstpointer  data)
{
  g_autoptr(GListModel) messages = NULL;
  g_autoptr(GError) error = NULL;

  load (fixture);
  send (fixture, "one");
  akc_stream_push_text (stream (fixture), "answer");
  akc_stream_finish (stream (fixture));
  assert_stored_is_chat (fixture);

  g_assert_true (akc_test_splice (fixture->memory, "demo", 0, G_MAXUINT, NULL, 0, &error));
  g_assert_no_error (error);
  akc_message_set_status (akc_test_chat_message (fixture->chat, 1), AKC_MESSAGE_STATUS_ERROR);
  g_assert_false (akc_test_history_flush (fixture->history, &error));
  g_assert_error (error, AKC_CHAT_MEMORY_ERROR, AKC_CHAT_MEMORY_ERROR_NOT_FOUND);
  g_clear_error (&error);

  akc_test_drain ();
  g_assert_finalize_object (g_steal_pointer (&fixture->history));
  fixture->history = akc_chat_history_new (fixture->chat, fixture->memory, "other");

  messages = stored (fixture);
  akc_test_assert_messages_equal (akc_test_chat_messages (fixture->chat), messages);
}

/* A damaged history leaves the chat as it was. */
static void
test_load_error (Fixture       *fixture,
                 gconstpointer  data)
{
  g_autoptr(AkcConversationInfo) info = NULL;
  g_autoptr(AkcMessage) message = akc_message_new ("m", AKC_MESSAGE_ROLE_USER, "x", AKC_MESSAGE_STATUS_COMPLETE);
  g_autoptr(GError) error = NULL;

  info = akc_test_create (fixture->memory, "demo", NULL, &error);
  g_assert_no_error (error);
  g_assert_true (akc_test_append (fixture->memory, "demo", message, &error));
  g_assert_no_error (error);
  akc_test_sql_exec (fixture->path, "UPDATE messages SET role = 'robot'");

  send (fixture, "kept");
  g_assert_false (akc_test_history_load (fixture->history, &error));
  g_assert_error (error, AKC_CHAT_MEMORY_ERROR, AKC_CHAT_MEMORY_ERROR_CORRUPT);
  g_assert_false (akc_chat_history_get_loaded (fixture->history));
  g_assert_nonnull (akc_chat_history_get_error (fixture->history));
  g_assert_cmpuint (g_list_model_get_n_items (akc_test_chat_messages (fixture->chat)), ==, 2);
  akc_stream_finish (stream (fixture));
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);

#define ADD(name, func) \
  g_test_add ("/store/history/" name, Fixture, NULL, akc_test_chat_fixture_set_up, func, akc_test_chat_fixture_tear_down)

  ADD ("load-creates", test_load_creates);
  ADD ("turn-reopens", test_turn_reopens);
  ADD ("lifecycle", test_lifecycle);
  ADD ("checkpoints", test_checkpoints);
  ADD ("interrupted", test_interrupted);
  ADD ("existing-messages", test_existing_messages);
  ADD ("load-during-turn", test_load_during_turn);
  ADD ("load-after-error", test_load_after_error);
  ADD ("resync", test_resync);
  ADD ("dispose-writes", test_dispose_writes);
  ADD ("dispose-resyncs", test_dispose_resyncs);
  ADD ("load-error", test_load_error);

#undef ADD

  return g_test_run ();
}
