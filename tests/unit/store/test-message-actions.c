/* test-message-actions.c: the actions of one message (issue 14 item 7):
 * delete it, put it back, edit an earlier one; what the history keeps of
 * them after a restart
 *
 * SPDX-License-Identifier: MIT
 */

#include "config.h"

#include <string.h>

#include "akc-store-test.h"

typedef AkcTestChatFixture Fixture;

/* Three finished turns: "one", "two", "three", each answered. */
static void
three_turns (Fixture *fixture)
{
  static const char * const questions[] = { "one", "two", "three" };
  g_autoptr(GError) error = NULL;

  g_assert_true (akc_test_history_load (fixture->history, &error));
  g_assert_no_error (error);
  for (guint i = 0; i < G_N_ELEMENTS (questions); i++)
    {
      g_autofree char *answer = g_strdup_printf ("answer %s", questions[i]);

      g_assert_true (akc_chat_source_send (AKC_CHAT_SOURCE (fixture->chat), questions[i], &error));
      g_assert_no_error (error);
      akc_stream_push_text (akc_test_adapter_get_stream (fixture->adapter), answer);
      akc_stream_finish (akc_test_adapter_get_stream (fixture->adapter));
    }
  g_assert_cmpuint (g_list_model_get_n_items (akc_test_chat_messages (fixture->chat)), ==, 6);
}

/* The conversation as another chat reads it from the history, as after a
 * restart of the application. */
static GListModel *
reopened (Fixture *fixture)
{
  g_autoptr(AkcTestAdapter) adapter = akc_test_adapter_new ();
  g_autoptr(AkcChat) chat = akc_chat_new (AKC_ADAPTER (adapter));
  g_autoptr(AkcChatHistory) history = NULL;
  g_autoptr(GError) error = NULL;
  GListModel *messages;

  g_assert_true (akc_test_history_flush (fixture->history, &error));
  g_assert_no_error (error);
  history = akc_chat_history_new (chat, fixture->memory, "demo");
  g_assert_true (akc_test_history_load (history, &error));
  g_assert_no_error (error);
  messages = g_object_ref (akc_test_chat_messages (chat));
  akc_test_drain ();

  return messages;
}

static char *
contents (GListModel *messages)
{
  GString *out = g_string_new (NULL);

  for (guint i = 0; i < g_list_model_get_n_items (messages); i++)
    {
      g_autoptr(AkcMessage) message = g_list_model_get_item (messages, i);

      g_string_append_printf (out, "%s%s", i > 0 ? "|" : "", akc_message_get_content (message));
    }

  return g_string_free (out, FALSE);
}

/* A deleted message is gone from the chat and, after a restart, from the
 * history; the others stay as they were. */
static void
test_delete (Fixture       *fixture,
             gconstpointer  data)
{
  g_autoptr(GListModel) after = NULL;
  g_autofree char *text = NULL;
  g_autoptr(GError) error = NULL;
  guint position = 99;

  three_turns (fixture);
  g_assert_true (akc_chat_delete_message (fixture->chat, akc_message_get_id (akc_test_chat_message (fixture->chat, 3)),
                                          &position, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (position, ==, 3);

  text = contents (akc_test_chat_messages (fixture->chat));
  g_assert_cmpstr (text, ==, "one|answer one|two|three|answer three");
  after = reopened (fixture);
  akc_test_assert_messages_equal (akc_test_chat_messages (fixture->chat), after);

  /* A person's own message goes the same way. */
  g_assert_true (akc_chat_delete_message (fixture->chat, akc_message_get_id (akc_test_chat_message (fixture->chat, 0)),
                                          NULL, &error));
  g_assert_no_error (error);
  g_clear_object (&after);
  after = reopened (fixture);
  g_clear_pointer (&text, g_free);
  text = contents (after);
  g_assert_cmpstr (text, ==, "answer one|two|three|answer three");
}

/* Undo: the deleted message comes back where it was, whole, and stays
 * after a restart. */
static void
test_undo (Fixture       *fixture,
           gconstpointer  data)
{
  g_autoptr(AkcMessage) deleted = NULL;
  g_autoptr(GListModel) before = NULL;
  g_autoptr(GListModel) after = NULL;
  g_autoptr(GError) error = NULL;
  guint position;

  three_turns (fixture);
  before = reopened (fixture);
  deleted = g_object_ref (akc_test_chat_message (fixture->chat, 2));
  g_assert_true (akc_chat_delete_message (fixture->chat, akc_message_get_id (deleted), &position, &error));
  g_assert_no_error (error);

  g_assert_true (akc_chat_insert_message (fixture->chat, position, deleted, &error));
  g_assert_no_error (error);
  g_assert_true (akc_test_chat_message (fixture->chat, 2) == deleted);
  after = reopened (fixture);
  akc_test_assert_messages_equal (before, after);

  /* Not twice, and not past the end: nothing changes. */
  g_assert_false (akc_chat_insert_message (fixture->chat, 0, deleted, &error));
  g_assert_error (error, AKC_CHAT_ERROR, AKC_CHAT_ERROR_NO_TARGET);
  g_clear_error (&error);
  {
    g_autoptr(AkcMessage) other = akc_message_new ("other", AKC_MESSAGE_ROLE_USER, "x", AKC_MESSAGE_STATUS_COMPLETE);

    g_assert_false (akc_chat_insert_message (fixture->chat, 7, other, &error));
    g_assert_error (error, AKC_CHAT_ERROR, AKC_CHAT_ERROR_NO_TARGET);
    g_clear_error (&error);
  }
  g_assert_cmpuint (g_list_model_get_n_items (akc_test_chat_messages (fixture->chat)), ==, 6);
}

static void
count_hidden_changes (AkcChat    *chat,
                      AkcMessage *message,
                      guint      *n)
{
  (*n)++;
}

/* Deleting with an undo offered (issue 14): the message is hidden and the
 * history keeps it, so a process that ends then (a crash: the history as
 * it is stored) still has it; the deletion is made final by
 * akc_chat_delete_message(), and undone by akc_chat_unhide_message(). */
static void
test_hide (Fixture       *fixture,
           gconstpointer  data)
{
  g_autoptr(GListModel) stored = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *text = NULL;
  g_autofree char *id = NULL;
  AkcMessage *message;
  guint n_changes = 0;

  three_turns (fixture);
  g_signal_connect (fixture->chat, "hidden-changed", G_CALLBACK (count_hidden_changes), &n_changes);
  message = akc_test_chat_message (fixture->chat, 3);
  id = g_strdup (akc_message_get_id (message));
  g_assert_true (akc_chat_hide_message (fixture->chat, id, &error));
  g_assert_no_error (error);
  g_assert_true (akc_chat_get_message_hidden (fixture->chat, message));
  g_assert_cmpuint (n_changes, ==, 1);
  g_assert_false (akc_chat_hide_message (fixture->chat, id, &error));
  g_assert_error (error, AKC_CHAT_ERROR, AKC_CHAT_ERROR_NO_TARGET);
  g_clear_error (&error);

  /* Stored as it was: a crash now keeps it. */
  stored = reopened (fixture);
  text = contents (stored);
  g_assert_cmpstr (text, ==, "one|answer one|two|answer two|three|answer three");
  g_clear_object (&stored);
  g_clear_pointer (&text, g_free);

  /* Undo. */
  g_assert_true (akc_chat_unhide_message (fixture->chat, id));
  g_assert_false (akc_chat_get_message_hidden (fixture->chat, message));
  g_assert_false (akc_chat_unhide_message (fixture->chat, id));
  g_assert_cmpuint (n_changes, ==, 2);

  /* Final: now the history lets it go. */
  g_assert_true (akc_chat_hide_message (fixture->chat, id, &error));
  g_assert_true (akc_chat_delete_message (fixture->chat, id, NULL, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (n_changes, ==, 4);
  stored = reopened (fixture);
  text = contents (stored);
  g_assert_cmpstr (text, ==, "one|answer one|two|three|answer three");
  g_clear_object (&stored);
  g_clear_pointer (&text, g_free);

  /* The conversation going on makes a hidden deletion final first: the
   * model never reads the message. The quit deletes what is left. */
  g_assert_true (akc_chat_hide_message (fixture->chat, akc_message_get_id (akc_test_chat_message (fixture->chat, 0)), &error));
  g_assert_true (akc_chat_source_send (AKC_CHAT_SOURCE (fixture->chat), "four", &error));
  g_assert_no_error (error);
  akc_stream_push_text (akc_test_adapter_get_stream (fixture->adapter), "answer four");
  akc_stream_finish (akc_test_adapter_get_stream (fixture->adapter));
  text = contents (akc_test_chat_messages (fixture->chat));
  g_assert_cmpstr (text, ==, "answer one|two|three|answer three|four|answer four");
  g_clear_pointer (&text, g_free);
  g_assert_true (akc_chat_hide_message (fixture->chat, akc_message_get_id (akc_test_chat_message (fixture->chat, 0)), &error));
  g_assert_true (akc_chat_hide_message (fixture->chat, akc_message_get_id (akc_test_chat_message (fixture->chat, 1)), &error));
  g_assert_cmpuint (akc_chat_delete_hidden_messages (fixture->chat), ==, 2);
  g_assert_cmpuint (akc_chat_delete_hidden_messages (fixture->chat), ==, 0);
  stored = reopened (fixture);
  text = contents (stored);
  g_assert_cmpstr (text, ==, "three|answer three|four|answer four");

  g_signal_handlers_disconnect_by_func (fixture->chat, count_hidden_changes, &n_changes);
}

/* What cannot be deleted says why, and nothing changes. */
static void
test_delete_refused (Fixture       *fixture,
                     gconstpointer  data)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GListModel) after = NULL;
  guint position = 99;

  three_turns (fixture);
  g_assert_false (akc_chat_delete_message (fixture->chat, "no-such-message", &position, &error));
  g_assert_error (error, AKC_CHAT_ERROR, AKC_CHAT_ERROR_NO_TARGET);
  g_assert_cmpuint (position, ==, 99);
  g_clear_error (&error);

  /* While a reply streams, stop it first. */
  g_assert_true (akc_chat_source_send (AKC_CHAT_SOURCE (fixture->chat), "four", &error));
  g_assert_no_error (error);
  g_assert_false (akc_chat_delete_message (fixture->chat, akc_message_get_id (akc_test_chat_message (fixture->chat, 0)),
                                           NULL, &error));
  g_assert_error (error, AKC_CHAT_ERROR, AKC_CHAT_ERROR_BUSY);
  g_clear_error (&error);
  g_assert_cmpuint (g_list_model_get_n_items (akc_test_chat_messages (fixture->chat)), ==, 8);
  akc_stream_finish (akc_test_adapter_get_stream (fixture->adapter));

  after = reopened (fixture);
  g_assert_cmpuint (g_list_model_get_n_items (after), ==, 8);
}

/* Editing an earlier message of the person sends it again from there:
 * it keeps its id, the messages after it go, a new reply comes; after a
 * restart the history has exactly that. */
static void
test_edit_earlier (Fixture       *fixture,
                   gconstpointer  data)
{
  g_autoptr(GListModel) after = NULL;
  g_autofree char *text = NULL;
  g_autofree char *id = NULL;
  g_autoptr(GError) error = NULL;

  three_turns (fixture);
  id = g_strdup (akc_message_get_id (akc_test_chat_message (fixture->chat, 2)));
  g_assert_true (akc_chat_source_edit (AKC_CHAT_SOURCE (fixture->chat), id, "two, edited", &error));
  g_assert_no_error (error);
  akc_stream_push_text (akc_test_adapter_get_stream (fixture->adapter), "answer two again");
  akc_stream_finish (akc_test_adapter_get_stream (fixture->adapter));

  after = reopened (fixture);
  text = contents (after);
  g_assert_cmpstr (text, ==, "one|answer one|two, edited|answer two again");
  {
    g_autoptr(AkcMessage) edited = g_list_model_get_item (after, 2);

    g_assert_cmpstr (akc_message_get_id (edited), ==, id);
  }
  akc_test_assert_messages_equal (akc_test_chat_messages (fixture->chat), after);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);

#define ADD(name, func) \
  g_test_add ("/store/message-actions/" name, Fixture, NULL, akc_test_chat_fixture_set_up, func, akc_test_chat_fixture_tear_down)

  ADD ("delete", test_delete);
  ADD ("undo", test_undo);
  ADD ("hide", test_hide);
  ADD ("delete-refused", test_delete_refused);
  ADD ("edit-earlier", test_edit_earlier);

#undef ADD

  return g_test_run ();
}
