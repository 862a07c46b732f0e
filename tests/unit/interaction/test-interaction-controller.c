/* test-interaction-controller.c: answers to cards and confirmations,
 * headless (application.md §12.7, §12.8)
 *
 * SPDX-License-Identifier: MIT
 */

#include "config.h"

#include <string.h>

#include <akc.h>

#include "akc-demo.h"
#include "akc-store-test.h"

static AkcDemo *
start_demo (const char         *id,
            const char * const *capabilities)
{
  g_autoptr(GError) error = NULL;
  AkcDemo *demo = akc_demo_new_full (id, NULL, capabilities, NULL, &error);

  g_assert_no_error (error);
  akc_demo_set_reply_interval (demo, 0);
  return demo;
}

static void
send (AkcDemo    *demo,
      const char *text)
{
  g_autoptr(GError) error = NULL;

  g_assert_true (akc_chat_source_send (AKC_CHAT_SOURCE (akc_demo_get_chat (demo)), text, &error));
  g_assert_no_error (error);
  wait_until_idle (AKC_CHAT_SOURCE (akc_demo_get_chat (demo)));
}

/* The newest frame of @key in the conversation, and its message. */
static AkcJsonValue *
latest_frame (AkcDemo     *demo,
              const char  *key,
              AkcMessage **message_out)
{
  AkcInteractionController *interaction = akc_demo_get_interaction (demo);
  GListModel *messages = akc_chat_source_get_messages (AKC_CHAT_SOURCE (akc_demo_get_chat (demo)));

  for (guint i = g_list_model_get_n_items (messages); i > 0; i--)
    {
      g_autoptr(AkcMessage) message = g_list_model_get_item (messages, i - 1);
      g_autoptr(GListModel) presentations = akc_present_message (message,
                                                                 akc_interaction_controller_get_manifest (interaction));

      for (guint j = 0; j < g_list_model_get_n_items (presentations); j++)
        {
          g_autoptr(AkcPresentation) presentation = g_list_model_get_item (presentations, j);
          AkcResolvedComponent *resolved = akc_presentation_get_resolved (presentation);

          if (resolved != NULL && g_strcmp0 (akc_resolved_component_get_component_key (resolved), key) == 0)
            {
              if (message_out != NULL)
                *message_out = g_object_ref (message);
              return akc_json_value_ref (akc_resolved_component_get_frame (resolved));
            }
        }
    }

  return NULL;
}

static const char *
instance_of (AkcJsonValue *frame)
{
  return akc_json_value_get_string (akc_json_value_get_member (frame, "instanceId"), NULL);
}

static gboolean
select_choice (AkcDemo                *demo,
               AkcMessage             *message,
               AkcJsonValue           *frame,
               const char             *choice_id,
               AkcConfirmationRecord **record,
               GError                **error)
{
  AkcInteractionController *interaction = akc_demo_get_interaction (demo);
  g_autoptr(GAsyncResult) result = NULL;
  gboolean ok;

  akc_interaction_controller_select_async (interaction, message, frame, choice_id, NULL,
                                           akc_test_store_result, &result);
  ok = akc_interaction_controller_select_finish (interaction, akc_test_wait (&result), record, error);
  wait_until_idle (AKC_CHAT_SOURCE (akc_demo_get_chat (demo)));
  return ok;
}

static gboolean
approve (AkcDemo     *demo,
         const char  *tool_call_id,
         GError     **error)
{
  AkcInteractionController *interaction = akc_demo_get_interaction (demo);
  g_autoptr(GAsyncResult) result = NULL;
  gboolean ok;

  akc_interaction_controller_approve_async (interaction, tool_call_id, NULL, akc_test_store_result, &result);
  ok = akc_interaction_controller_approve_finish (interaction, akc_test_wait (&result), error);
  wait_until_idle (AKC_CHAT_SOURCE (akc_demo_get_chat (demo)));
  return ok;
}

/* Tool calls named @name that ran, in the whole conversation. */
static guint
count_runs (AkcDemo    *demo,
            const char *name)
{
  GListModel *messages = akc_chat_source_get_messages (AKC_CHAT_SOURCE (akc_demo_get_chat (demo)));
  guint n = 0;

  for (guint i = 0; i < g_list_model_get_n_items (messages); i++)
    {
      g_autoptr(AkcMessage) message = g_list_model_get_item (messages, i);
      GListModel *calls = akc_message_get_tool_calls (message);

      for (guint j = 0; j < g_list_model_get_n_items (calls); j++)
        {
          g_autoptr(AkcToolCall) call = g_list_model_get_item (calls, j);

          if (g_strcmp0 (akc_tool_call_get_name (call), name) == 0 &&
              akc_tool_call_get_status (call) == AKC_TOOL_CALL_STATUS_COMPLETE)
            n++;
        }
    }

  return n;
}

static gboolean
any_result_has (AkcDemo    *demo,
                const char *needle)
{
  GListModel *messages = akc_chat_source_get_messages (AKC_CHAT_SOURCE (akc_demo_get_chat (demo)));

  for (guint i = 0; i < g_list_model_get_n_items (messages); i++)
    {
      g_autoptr(AkcMessage) message = g_list_model_get_item (messages, i);
      GListModel *calls = akc_message_get_tool_calls (message);

      for (guint j = 0; j < g_list_model_get_n_items (calls); j++)
        {
          g_autoptr(AkcToolCall) call = g_list_model_get_item (calls, j);

          if (akc_tool_call_get_result (call) != NULL && strstr (akc_tool_call_get_result (call), needle) != NULL)
            return TRUE;
        }
    }

  return FALSE;
}

static AkcChatHistory *
attach_history (AkcDemo       *demo,
                AkcChatMemory *memory)
{
  g_autoptr(AkcChatHistory) history = akc_chat_history_new (akc_demo_get_chat (demo), memory, "support");
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;
  AkcInteractionController *interaction = akc_demo_get_interaction (demo);

  g_assert_true (akc_test_history_load (history, &error));
  g_assert_no_error (error);

  akc_interaction_controller_set_history (interaction, AKC_SQLITE_CHAT_MEMORY (memory), "support");
  akc_interaction_controller_load_async (interaction, NULL, akc_test_store_result, &result);
  g_assert_true (akc_interaction_controller_load_finish (interaction, akc_test_wait (&result), &error));
  g_assert_no_error (error);

  return g_steal_pointer (&history);
}

/* Issue 13 item 2: /support → choose → approve creates SUP-1; after a
 * restart (a reopened history, a new demo with its own ticket counter)
 * the card is answered, choosing again is refused and no second ticket
 * is created. */
static void
test_support_durable (void)
{
  g_autofree char *path = akc_test_path ("history.sqlite3");
  g_autoptr(AkcChatMemory) memory = akc_test_open (path);
  g_autoptr(AkcDemo) demo = start_demo ("support", NULL);
  g_autoptr(AkcChatHistory) history = attach_history (demo, memory);
  g_autoptr(AkcJsonValue) frame = NULL;
  g_autoptr(AkcMessage) message = NULL;
  g_autoptr(AkcConfirmationRecord) record = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *instance_id = NULL;
  AkcInteractionController *interaction;
  AkcComponentResolution *resolution;
  guint n_messages;

  send (demo, "/support");
  frame = latest_frame (demo, "choice-list", &message);
  g_assert_nonnull (frame);
  instance_id = g_strdup (instance_of (frame));
  interaction = akc_demo_get_interaction (demo);
  g_assert_false (akc_interaction_controller_is_resolved (interaction, instance_id));

  g_assert_true (select_choice (demo, message, frame, "create", &record, &error));
  g_assert_no_error (error);
  g_assert_nonnull (record);
  g_assert_cmpint (akc_confirmation_record_get_status (record), ==, AKC_CONFIRMATION_STATUS_PENDING);
  g_assert_true (akc_interaction_controller_is_resolved (interaction, instance_id));
  resolution = akc_interaction_controller_get_resolution (interaction, instance_id);
  g_assert_cmpstr (akc_component_resolution_get_choice_id (resolution), ==, "create");
  g_assert_cmpstr (akc_component_resolution_get_message_id (resolution), ==, akc_message_get_id (message));

  /* Choosing again in the same run is refused. */
  g_assert_false (select_choice (demo, message, frame, "create", NULL, &error));
  g_assert_error (error, AKC_INTERACTION_ERROR, AKC_INTERACTION_ERROR_RESOLVED);
  g_clear_error (&error);

  g_assert_true (approve (demo, akc_confirmation_record_get_tool_call_id (record), &error));
  g_assert_no_error (error);
  g_assert_cmpuint (count_runs (demo, "create-support-ticket"), ==, 1);
  g_assert_true (any_result_has (demo, "SUP-1"));

  /* Issue 13 item 6: /support, the card, the call, its result and the
   * continuation that replays the card; the result and the replay add
   * nothing to read. */
  {
    GListModel *messages = akc_chat_source_get_messages (AKC_CHAT_SOURCE (akc_demo_get_chat (demo)));
    const gboolean redundant[] = { FALSE, FALSE, FALSE, TRUE, TRUE };

    g_assert_cmpuint (g_list_model_get_n_items (messages), ==, G_N_ELEMENTS (redundant));
    for (guint i = 0; i < G_N_ELEMENTS (redundant); i++)
      {
        g_autoptr(AkcMessage) item = g_list_model_get_item (messages, i);

        g_assert_cmpint (akc_interaction_controller_is_redundant (interaction, item), ==, redundant[i]);
      }
  }

  g_assert_true (akc_test_history_flush (history, &error));
  g_assert_no_error (error);
  g_clear_object (&history);
  g_clear_object (&demo);
  g_clear_pointer (&frame, akc_json_value_unref);
  g_clear_object (&message);
  g_clear_pointer (&record, akc_confirmation_record_unref);
  akc_test_close (g_steal_pointer (&memory));

  /* Restart. */
  memory = akc_test_open (path);
  demo = start_demo ("support", NULL);
  history = attach_history (demo, memory);
  interaction = akc_demo_get_interaction (demo);
  g_assert_cmpuint (count_runs (demo, "create-support-ticket"), ==, 1);

  frame = latest_frame (demo, "choice-list", &message);
  g_assert_nonnull (frame);
  g_assert_cmpstr (instance_of (frame), ==, instance_id);
  g_assert_true (akc_interaction_controller_is_resolved (interaction, instance_id));
  resolution = akc_interaction_controller_get_resolution (interaction, instance_id);
  g_assert_nonnull (resolution);
  g_assert_cmpstr (akc_component_resolution_get_choice_id (resolution), ==, "create");
  /* No component owns input: the answered card is not offered again. */
  g_assert_null (akc_input_ownership_find_active (akc_interaction_controller_get_ownership (interaction),
                                                  akc_chat_source_get_messages (AKC_CHAT_SOURCE (akc_demo_get_chat (demo))),
                                                  akc_interaction_controller_get_manifest (interaction),
                                                  NULL, NULL));

  n_messages = g_list_model_get_n_items (akc_chat_source_get_messages (AKC_CHAT_SOURCE (akc_demo_get_chat (demo))));
  g_assert_false (select_choice (demo, message, frame, "create", &record, &error));
  g_assert_error (error, AKC_INTERACTION_ERROR, AKC_INTERACTION_ERROR_RESOLVED);
  g_clear_error (&error);
  g_assert_null (record);
  g_assert_false (select_choice (demo, NULL, frame, "continue", NULL, &error));
  g_assert_error (error, AKC_INTERACTION_ERROR, AKC_INTERACTION_ERROR_RESOLVED);
  g_clear_error (&error);
  g_assert_cmpuint (g_list_model_get_n_items (akc_chat_source_get_messages (AKC_CHAT_SOURCE (akc_demo_get_chat (demo)))),
                    ==, n_messages);
  g_assert_cmpuint (count_runs (demo, "create-support-ticket"), ==, 1);

  /* A new ticket after the restart takes the next id, not SUP-1 again
   * (the demo's ticket service starts over in a new process). */
  send (demo, "/support");
  g_clear_pointer (&frame, akc_json_value_unref);
  g_clear_object (&message);
  frame = latest_frame (demo, "choice-list", &message);
  g_assert_cmpstr (instance_of (frame), !=, instance_id);
  g_assert_true (select_choice (demo, message, frame, "create", &record, &error));
  g_assert_no_error (error);
  g_assert_true (approve (demo, akc_confirmation_record_get_tool_call_id (record), &error));
  g_assert_no_error (error);
  g_clear_pointer (&record, akc_confirmation_record_unref);
  g_assert_cmpuint (count_runs (demo, "create-support-ticket"), ==, 2);
  g_assert_true (any_result_has (demo, "SUP-2"));

  g_assert_true (akc_test_history_flush (history, &error));
  g_assert_no_error (error);
  g_clear_object (&history);
  g_clear_object (&demo);
  akc_test_close (g_steal_pointer (&memory));
}

/* Two programs sharing the history: the first answer wins, the second
 * is refused and stays answered. */
static void
test_two_programs (void)
{
  g_autofree char *path = akc_test_path ("shared.sqlite3");
  g_autoptr(AkcChatMemory) memory = akc_test_open (path);
  g_autoptr(AkcChatMemory) other_memory = NULL;
  g_autoptr(AkcDemo) demo = start_demo ("support", NULL);
  g_autoptr(AkcDemo) other = NULL;
  g_autoptr(AkcChatHistory) history = attach_history (demo, memory);
  g_autoptr(AkcChatHistory) other_history = NULL;
  g_autoptr(AkcJsonValue) frame = NULL;
  g_autoptr(AkcJsonValue) other_frame = NULL;
  g_autoptr(AkcMessage) message = NULL;
  g_autoptr(AkcMessage) other_message = NULL;
  g_autoptr(AkcConfirmationRecord) record = NULL;
  g_autoptr(GError) error = NULL;

  send (demo, "/support");
  g_assert_true (akc_test_history_flush (history, &error));
  other_memory = akc_test_open (path);
  other = start_demo ("support", NULL);
  other_history = attach_history (other, other_memory);

  frame = latest_frame (demo, "choice-list", &message);
  other_frame = latest_frame (other, "choice-list", &other_message);
  g_assert_nonnull (other_frame);

  g_assert_true (select_choice (demo, message, frame, "create", &record, &error));
  g_assert_no_error (error);
  g_assert_false (select_choice (other, other_message, other_frame, "continue", NULL, &error));
  g_assert_error (error, AKC_INTERACTION_ERROR, AKC_INTERACTION_ERROR_RESOLVED);
  g_clear_error (&error);
  g_assert_true (akc_interaction_controller_is_resolved (akc_demo_get_interaction (other), instance_of (other_frame)));

  /* What the histories still write holds their memories. */
  g_assert_true (akc_test_history_flush (history, &error));
  g_assert_no_error (error);
  g_assert_true (akc_test_history_flush (other_history, &error));
  g_assert_no_error (error);
  g_clear_object (&other_history);
  g_clear_object (&history);
  g_clear_object (&other);
  g_clear_object (&demo);
  akc_test_close (g_steal_pointer (&other_memory));
  akc_test_close (g_steal_pointer (&memory));
}

/* §12.7 step 4: a refused proposal un-resolves the instance and withdraws
 * its stored answer, so the person may choose again. */
static void
test_refused_proposal (void)
{
  const char * const none[] = { NULL };
  g_autofree char *path = akc_test_path ("refused.sqlite3");
  g_autoptr(AkcChatMemory) memory = akc_test_open (path);
  g_autoptr(AkcDemo) demo = start_demo ("operations", none);
  g_autoptr(AkcChatHistory) history = akc_chat_history_new (akc_demo_get_chat (demo), memory, "ops");
  g_autoptr(AkcJsonValue) frame = NULL;
  g_autoptr(AkcMessage) message = NULL;
  g_autoptr(GError) error = NULL;
  AkcInteractionController *interaction = akc_demo_get_interaction (demo);

  g_assert_true (akc_test_history_load (history, &error));
  akc_interaction_controller_set_history (interaction, AKC_SQLITE_CHAT_MEMORY (memory), "ops");
  send (demo, "/operations");
  g_assert_true (akc_test_history_flush (history, &error));
  frame = latest_frame (demo, "choice-list", &message);
  g_assert_nonnull (frame);

  g_assert_false (select_choice (demo, message, frame, "restart", NULL, &error));
  g_assert_error (error, AKC_INTERACTION_ERROR, AKC_INTERACTION_ERROR_ACTION_PROPOSAL);
  /* Issue 13 item 8: a sentence, not the policy's code. */
  g_test_message ("refused: %s", error->message);
  g_assert_cmpstr (error->message, ==, akc_interaction_describe_denial ("missing-capability"));
  g_clear_error (&error);
  g_assert_false (akc_interaction_controller_is_resolved (interaction, instance_of (frame)));

  /* The history runs its operations in order: a read queued now comes
   * after the withdrawal, and finds nothing stored. */
  {
    g_autoptr(GAsyncResult) result = NULL;
    g_autoptr(GListModel) stored = NULL;

    akc_sqlite_chat_memory_load_resolutions_async (AKC_SQLITE_CHAT_MEMORY (memory), "ops", NULL,
                                                   akc_test_store_result, &result);
    stored = akc_sqlite_chat_memory_load_resolutions_finish (AKC_SQLITE_CHAT_MEMORY (memory),
                                                             akc_test_wait (&result), &error);
    g_assert_no_error (error);
    g_assert_cmpuint (g_list_model_get_n_items (stored), ==, 0);
  }

  /* And the person may choose again: refused again, for the same reason. */
  g_assert_false (select_choice (demo, message, frame, "restart", NULL, &error));
  g_assert_error (error, AKC_INTERACTION_ERROR, AKC_INTERACTION_ERROR_ACTION_PROPOSAL);
  g_clear_error (&error);

  g_assert_true (akc_test_history_flush (history, &error));
  g_clear_object (&history);
  g_clear_object (&demo);
  {
    g_autoptr(GAsyncResult) result = NULL;
    g_autoptr(GListModel) stored = NULL;

    akc_sqlite_chat_memory_load_resolutions_async (AKC_SQLITE_CHAT_MEMORY (memory), "ops", NULL,
                                                   akc_test_store_result, &result);
    stored = akc_sqlite_chat_memory_load_resolutions_finish (AKC_SQLITE_CHAT_MEMORY (memory),
                                                             akc_test_wait (&result), &error);
    g_assert_cmpuint (g_list_model_get_n_items (stored), ==, 0);
  }
  akc_test_close (g_steal_pointer (&memory));
  g_assert_cmpint (akc_test_sql_int (path, "SELECT count(*) FROM component_resolutions"), ==, 0);
}

/* Answers the catalog does not accept change nothing. */
static void
test_invalid (void)
{
  g_autoptr(AkcDemo) demo = start_demo ("support", NULL);
  g_autoptr(AkcJsonValue) frame = NULL;
  g_autoptr(AkcJsonValue) bogus = akc_json_value_parse ("{\"componentKey\":\"nope\",\"instanceId\":\"x-1\",\"props\":{}}", -1, NULL);
  g_autoptr(GError) error = NULL;
  AkcInteractionController *interaction = akc_demo_get_interaction (demo);

  send (demo, "/support");
  frame = latest_frame (demo, "choice-list", NULL);

  g_assert_false (select_choice (demo, NULL, frame, "no-such-choice", NULL, &error));
  g_assert_error (error, AKC_INTERACTION_ERROR, AKC_INTERACTION_ERROR_INVALID);
  g_clear_error (&error);
  g_assert_false (select_choice (demo, NULL, bogus, "create", NULL, &error));
  g_assert_error (error, AKC_INTERACTION_ERROR, AKC_INTERACTION_ERROR_INVALID);
  g_clear_error (&error);
  g_assert_cmpuint (akc_input_ownership_get_n_resolved (akc_interaction_controller_get_ownership (interaction)), ==, 0);

  /* Set aside: inert, never answered. */
  g_assert_true (akc_interaction_controller_set_aside (interaction, instance_of (frame)));
  g_assert_false (select_choice (demo, NULL, frame, "create", NULL, &error));
  g_assert_error (error, AKC_INTERACTION_ERROR, AKC_INTERACTION_ERROR_RESOLVED);
  g_assert_null (akc_interaction_controller_get_resolution (interaction, instance_of (frame)));
}

/* Issue 13: a card set aside (Escape, or typing into the composer) is
 * kept like an answer: after a restart it is still inert, without an
 * answer to show, never owns input and refuses a choice. */
static void
test_set_aside_durable (void)
{
  g_autofree char *path = akc_test_path ("set-aside.sqlite3");
  g_autoptr(AkcChatMemory) memory = akc_test_open (path);
  g_autoptr(AkcDemo) demo = start_demo ("support", NULL);
  g_autoptr(AkcChatHistory) history = attach_history (demo, memory);
  g_autoptr(AkcJsonValue) frame = NULL;
  g_autoptr(AkcMessage) message = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *instance_id = NULL;
  AkcInteractionController *interaction = akc_demo_get_interaction (demo);
  GListModel *messages;

  send (demo, "/support");
  g_assert_true (akc_test_history_flush (history, &error));
  g_assert_no_error (error);
  frame = latest_frame (demo, "choice-list", &message);
  g_assert_nonnull (frame);
  instance_id = g_strdup (instance_of (frame));
  messages = akc_chat_source_get_messages (AKC_CHAT_SOURCE (akc_demo_get_chat (demo)));
  {
    g_autoptr(AkcPresentation) active = akc_input_ownership_find_active (akc_interaction_controller_get_ownership (interaction),
                                                                         messages,
                                                                         akc_interaction_controller_get_manifest (interaction),
                                                                         NULL, NULL);

    g_assert_nonnull (active);
  }

  g_assert_true (akc_interaction_controller_set_aside (interaction, instance_id));
  g_assert_false (akc_interaction_controller_set_aside (interaction, instance_id));
  g_assert_true (akc_interaction_controller_is_resolved (interaction, instance_id));
  g_assert_null (akc_interaction_controller_get_resolution (interaction, instance_id));

  /* The history runs its operations in order: a read queued now comes
   * after the write. */
  {
    g_autoptr(GAsyncResult) result = NULL;
    g_autoptr(GListModel) stored = NULL;
    g_autoptr(AkcComponentResolution) kept = NULL;

    akc_sqlite_chat_memory_load_resolutions_async (AKC_SQLITE_CHAT_MEMORY (memory), "support", NULL,
                                                   akc_test_store_result, &result);
    stored = akc_sqlite_chat_memory_load_resolutions_finish (AKC_SQLITE_CHAT_MEMORY (memory),
                                                             akc_test_wait (&result), &error);
    g_assert_no_error (error);
    g_assert_cmpuint (g_list_model_get_n_items (stored), ==, 1);
    kept = g_list_model_get_item (stored, 0);
    g_assert_cmpstr (akc_component_resolution_get_instance_id (kept), ==, instance_id);
    g_assert_cmpstr (akc_component_resolution_get_event (kept), ==, AKC_COMPONENT_RESOLUTION_SET_ASIDE);
    g_assert_cmpstr (akc_component_resolution_get_message_id (kept), ==, akc_message_get_id (message));
    g_assert_null (akc_component_resolution_get_value (kept));
  }

  g_assert_true (akc_test_history_flush (history, &error));
  g_clear_object (&history);
  g_clear_object (&demo);
  g_clear_pointer (&frame, akc_json_value_unref);
  g_clear_object (&message);
  akc_test_close (g_steal_pointer (&memory));

  /* Restart. */
  memory = akc_test_open (path);
  demo = start_demo ("support", NULL);
  history = attach_history (demo, memory);
  interaction = akc_demo_get_interaction (demo);
  messages = akc_chat_source_get_messages (AKC_CHAT_SOURCE (akc_demo_get_chat (demo)));
  frame = latest_frame (demo, "choice-list", &message);
  g_assert_nonnull (frame);
  g_assert_cmpstr (instance_of (frame), ==, instance_id);
  g_assert_true (akc_interaction_controller_is_resolved (interaction, instance_id));
  g_assert_null (akc_interaction_controller_get_resolution (interaction, instance_id));
  g_assert_null (akc_input_ownership_find_active (akc_interaction_controller_get_ownership (interaction), messages,
                                                  akc_interaction_controller_get_manifest (interaction), NULL, NULL));
  g_assert_false (select_choice (demo, message, frame, "create", NULL, &error));
  g_assert_error (error, AKC_INTERACTION_ERROR, AKC_INTERACTION_ERROR_RESOLVED);
  g_clear_error (&error);
  g_assert_cmpuint (count_runs (demo, "create-support-ticket"), ==, 0);

  g_assert_true (akc_test_history_flush (history, &error));
  g_clear_object (&history);
  g_clear_object (&demo);
  akc_test_close (g_steal_pointer (&memory));
}

/* A choice without an action, kept by nobody, is a deterministic choice
 * sent once through the reservations; "continue" of the support card is
 * a host frame: nothing is sent. */
static void
test_choice_without_action (void)
{
  g_autoptr(AkcDemo) demo = start_demo ("support", NULL);
  g_autoptr(AkcChoiceReservations) reservations = akc_choice_reservations_new ();
  g_autoptr(AkcJsonValue) frame = NULL;
  g_autoptr(GError) error = NULL;
  AkcInteractionController *interaction = akc_demo_get_interaction (demo);
  GListModel *messages = akc_chat_source_get_messages (AKC_CHAT_SOURCE (akc_demo_get_chat (demo)));
  guint n;

  akc_interaction_controller_set_reservations (interaction, reservations);
  send (demo, "/support");
  frame = latest_frame (demo, "choice-list", NULL);
  n = g_list_model_get_n_items (messages);
  g_assert_true (select_choice (demo, NULL, frame, "continue", NULL, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (g_list_model_get_n_items (messages), ==, n);
  g_assert_cmpstr (akc_component_resolution_get_choice_id (akc_interaction_controller_get_resolution (interaction, instance_of (frame))),
                   ==, "continue");
}

static void
on_link (AkcInteractionController *interaction,
         const char               *uri,
         GPtrArray                *links)
{
  g_ptr_array_add (links, g_strdup (uri));
}

/* Sources are navigation: an absolute http(s) address is requested,
 * nothing is resolved, and it works every time. */
static void
test_open_source (void)
{
  g_autoptr(AkcDemo) demo = start_demo ("support", NULL);
  g_autoptr(GPtrArray) links = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(AkcJsonValue) frame = akc_json_value_parse (
    "{\"componentKey\":\"source-list\",\"instanceId\":\"sources-1\",\"props\":{\"sources\":["
    "{\"id\":\"a\",\"title\":\"A\",\"url\":\"https://example.org/a\"},"
    "{\"id\":\"b\",\"title\":\"B\",\"url\":\"/relative\"},"
    "{\"id\":\"c\",\"title\":\"C\",\"url\":\"javascript:alert(1)\"}]}}", -1, NULL);
  AkcInteractionController *interaction = akc_demo_get_interaction (demo);

  g_signal_connect (interaction, "link-requested", G_CALLBACK (on_link), links);
  g_assert_true (akc_interaction_controller_open_source (interaction, frame, "a"));
  g_assert_true (akc_interaction_controller_open_source (interaction, frame, "a"));
  g_assert_false (akc_interaction_controller_open_source (interaction, frame, "b"));
  g_assert_false (akc_interaction_controller_open_source (interaction, frame, "c"));
  g_assert_false (akc_interaction_controller_open_source (interaction, frame, "zz"));
  g_assert_cmpuint (links->len, ==, 2);
  g_assert_cmpstr (g_ptr_array_index (links, 0), ==, "https://example.org/a");
  g_assert_false (akc_interaction_controller_is_resolved (interaction, "sources-1"));

  /* A link card is navigation too: its own address, every time, and only
   * an absolute http(s) address without credentials. */
  {
    g_autoptr(AkcJsonValue) card = akc_json_value_parse (
      "{\"componentKey\":\"link-card\",\"instanceId\":\"card-1\",\"props\":{\"title\":\"Guide\","
      "\"href\":\"https://example.org/guide\"}}", -1, NULL);
    g_autoptr(AkcJsonValue) secret = akc_json_value_parse (
      "{\"componentKey\":\"link-card\",\"instanceId\":\"card-2\",\"props\":{\"title\":\"Guide\","
      "\"href\":\"https://user:pw@example.org/\"}}", -1, NULL);
    g_autoptr(AkcJsonValue) href = akc_json_value_new_string ("https://example.org/guide", -1);
    g_autoptr(AkcJsonValue) other = akc_json_value_new_string ("https://elsewhere.example/", -1);

    g_assert_true (akc_interaction_controller_open_link (interaction, card, href));
    g_assert_true (akc_interaction_controller_open_link (interaction, card, NULL));
    g_assert_false (akc_interaction_controller_open_link (interaction, card, other));
    g_assert_false (akc_interaction_controller_open_link (interaction, secret, NULL));
    g_assert_cmpuint (links->len, ==, 4);
    g_assert_cmpstr (g_ptr_array_index (links, 3), ==, "https://example.org/guide");
    g_assert_false (akc_interaction_controller_is_resolved (interaction, "card-1"));
  }
}

/* Known denial codes are sentences; others are shown as they are. */
static void
test_describe_denial (void)
{
  const char * const codes[] = { "missing-context", "missing-capability", "session-mismatch",
                                 "action-unregistered", "composed-policy-denied", "policy-failure",
                                 "user denied access" };

  for (gsize i = 0; i < G_N_ELEMENTS (codes); i++)
    {
      const char *sentence = akc_interaction_describe_denial (codes[i]);
      g_autofree char *result = g_strconcat ("Permission denied: ", codes[i], NULL);

      g_assert_nonnull (sentence);
      g_assert_null (strstr (sentence, codes[i]));
      g_assert_true (g_str_has_suffix (sentence, "."));
      g_assert_cmpstr (akc_interaction_describe_denial (result), ==, sentence);
    }
  g_assert_null (akc_interaction_describe_denial ("the printer is on fire"));
  g_assert_null (akc_interaction_describe_denial (""));
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);

  g_test_add_func ("/interaction/support/durable", test_support_durable);
  g_test_add_func ("/interaction/support/two-programs", test_two_programs);
  g_test_add_func ("/interaction/refused-proposal", test_refused_proposal);
  g_test_add_func ("/interaction/invalid", test_invalid);
  g_test_add_func ("/interaction/set-aside/durable", test_set_aside_durable);
  g_test_add_func ("/interaction/choice-without-action", test_choice_without_action);
  g_test_add_func ("/interaction/open-source", test_open_source);
  g_test_add_func ("/interaction/describe-denial", test_describe_denial);

  return g_test_run ();
}
