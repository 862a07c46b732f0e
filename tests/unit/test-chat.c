/* test-chat.c: AkcChat, the local controller (application.md §3.6), over the
 * echo adapter of the demos and the scripted adapter
 *
 * SPDX-License-Identifier: MIT
 */

#include <string.h>

#include "akc.h"
#include "akc-test.h"

/* <akc.h> leaves json-glib out: its bridges are in the optional
 * akc-json-glib.h, for hosts that use json-glib. */
#ifdef __JSON_TYPES_H__
#error "<akc.h> includes json-glib"
#endif

/* ------------------------------------------------------------------ */
/* Helpers                                                              */
/* ------------------------------------------------------------------ */

typedef struct
{
  guint position;
  guint removed;
  guint added;
} Change;

/* Records every items-changed emission of the messages model. */
typedef struct
{
  GListModel *model;
  GArray     *changes;
  gulong      handler;
} ChangeLog;

static void
on_items_changed (GListModel *model,
                  guint       position,
                  guint       removed,
                  guint       added,
                  ChangeLog  *log)
{
  Change change = { position, removed, added };

  g_array_append_val (log->changes, change);
}

static ChangeLog *
change_log_new (AkcChat *chat)
{
  ChangeLog *log = g_new0 (ChangeLog, 1);

  log->model = g_object_ref (akc_chat_source_get_messages (AKC_CHAT_SOURCE (chat)));
  log->changes = g_array_new (FALSE, FALSE, sizeof (Change));
  log->handler = g_signal_connect (log->model, "items-changed", G_CALLBACK (on_items_changed), log);

  return log;
}

static void
change_log_free (ChangeLog *log)
{
  g_clear_signal_handler (&log->handler, log->model);
  g_object_unref (log->model);
  g_array_unref (log->changes);
  g_free (log);
}

G_DEFINE_AUTOPTR_CLEANUP_FUNC (ChangeLog, change_log_free)

/* Asserts the exact emissions since the last call, then forgets them. The
 * expected list is (position, removed, added) triples ending with -1. */
static void
assert_changes (ChangeLog *log,
                ...)
{
  va_list args;
  guint i = 0;
  int position;

  va_start (args, log);
  while ((position = va_arg (args, int)) >= 0)
    {
      guint removed = va_arg (args, guint);
      guint added = va_arg (args, guint);
      Change *change;

      g_assert_cmpuint (i, <, log->changes->len);
      change = &g_array_index (log->changes, Change, i);
      g_assert_cmpuint (change->position, ==, (guint) position);
      g_assert_cmpuint (change->removed, ==, removed);
      g_assert_cmpuint (change->added, ==, added);
      i++;
    }
  va_end (args);

  g_assert_cmpuint (log->changes->len, ==, i);
  g_array_set_size (log->changes, 0);
}

static AkcChatSource *
source (AkcChat *chat)
{
  return AKC_CHAT_SOURCE (chat);
}

static AkcMessage *
message_at (AkcChat *chat,
            guint    position)
{
  GListModel *messages = akc_chat_source_get_messages (source (chat));
  AkcMessage *message = g_list_model_get_item (messages, position);

  g_assert_nonnull (message);
  g_object_unref (message); /* the list keeps it alive */
  return message;
}

static guint
n_messages (AkcChat *chat)
{
  return g_list_model_get_n_items (akc_chat_source_get_messages (source (chat)));
}

static AkcToolCall *
tool_call_at (AkcMessage *message,
              guint       position)
{
  AkcToolCall *call = g_list_model_get_item (akc_message_get_tool_calls (message), position);

  g_assert_nonnull (call);
  g_object_unref (call);
  return call;
}

static void
assert_lineage (AkcMessage          *message,
                AkcLineageOperation  operation,
                const char          *source_message_id)
{
  AkcLineage *lineage = akc_message_get_lineage (message);

  g_assert_nonnull (lineage);
  g_assert_cmpint (akc_lineage_get_operation (lineage), ==, operation);
  g_assert_cmpstr (akc_lineage_get_source_message_id (lineage), ==, source_message_id);
  g_assert_null (akc_lineage_get_parent_turn_id (lineage));
}

static AkcChat *
new_echo_chat (void)
{
  g_autoptr(AkcAdapter) adapter = akc_echo_adapter_new ();

  akc_echo_adapter_set_chunk_interval (AKC_ECHO_ADAPTER (adapter), 0);
  return akc_chat_new (adapter);
}

/* Both are the caller's: finalize the chat, then the script. */
static AkcChat *
new_scripted_chat (AkcScriptedAdapter **script)
{
  AkcAdapter *adapter = akc_scripted_adapter_new ();

  *script = AKC_SCRIPTED_ADAPTER (adapter);
  return akc_chat_new (adapter);
}

static void
add_metadata (AkcScriptedAdapter *script,
              const char         *metadata)
{
  g_autoptr(AkcChunk) chunk = akc_chunk_new_metadata (metadata);

  akc_scripted_adapter_add_chunk (script, chunk, 0);
}

static void
send_and_settle (AkcChat    *chat,
                 const char *text)
{
  g_autoptr(GError) error = NULL;

  g_assert_true (akc_chat_source_send (source (chat), text, &error));
  g_assert_no_error (error);
  wait_until_idle (source (chat));
}

static void
count_notify (GObject    *object,
              GParamSpec *pspec,
              guint      *count)
{
  (*count)++;
}

/* Restores a transcript from roles: "u" user, "a" assistant, "s" system,
 * "t" tool; message i gets the id "m<i>" and the content "c<i>". */
static void
restore_transcript (AkcChat    *chat,
                    const char *roles)
{
  g_autoptr(GPtrArray) messages = g_ptr_array_new_with_free_func (g_object_unref);

  for (guint i = 0; roles[i] != '\0'; i++)
    {
      g_autofree char *id = g_strdup_printf ("m%u", i);
      g_autofree char *content = g_strdup_printf ("c%u", i);
      AkcMessageRole role = roles[i] == 'u' ? AKC_MESSAGE_ROLE_USER
                          : roles[i] == 'a' ? AKC_MESSAGE_ROLE_ASSISTANT
                          : roles[i] == 's' ? AKC_MESSAGE_ROLE_SYSTEM
                          : AKC_MESSAGE_ROLE_TOOL;

      g_ptr_array_add (messages, akc_message_new (id, role, content, AKC_MESSAGE_STATUS_COMPLETE));
    }

  akc_chat_restore (chat, (AkcMessage **) messages->pdata, messages->len);
}

/* A tool that answers "found: «q»" and counts its runs. */
static char *
lookup_tool (AkcTool       *tool,
             AkcJsonValue  *arguments,
             gpointer       user_data,
             GError       **error)
{
  guint *runs = user_data;
  AkcJsonValue *q = akc_json_value_get_member (arguments, "q");

  (*runs)++;

  if (q == NULL || akc_json_value_get_kind (q) != AKC_JSON_KIND_STRING)
    {
      g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT, "No query.");
      return NULL;
    }

  return g_strconcat ("found: ", akc_json_value_get_string (q, NULL), NULL);
}

static void
add_lookup_tool (AkcChat    *chat,
                 const char *name,
                 gboolean    requires_confirmation,
                 guint      *runs)
{
  g_autoptr(AkcTool) tool = akc_tool_new (name, requires_confirmation, lookup_tool, runs, NULL);

  akc_chat_add_tool (chat, tool);
}

/* ------------------------------------------------------------------ */
/* The echo adapter of the demos (application.md §13)                   */
/* ------------------------------------------------------------------ */

static void
test_chat_send_streams (void)
{
  AkcChat *chat = new_echo_chat ();
  g_autoptr(ChangeLog) log = change_log_new (chat);
  g_autoptr(GError) error = NULL;
  AkcMessage *user, *reply;
  guint content_changes = 0;

  g_assert_true (akc_chat_source_send (source (chat), "hello", &error));
  g_assert_no_error (error);
  g_assert_cmpint (akc_chat_source_get_status (source (chat)), ==, AKC_CHAT_STATUS_STREAMING);
  /* The user message and its reply arrive in one emission. */
  assert_changes (log, 0, 0, 2, -1);

  user = message_at (chat, 0);
  reply = message_at (chat, 1);
  g_assert_cmpint (akc_message_get_status (reply), ==, AKC_MESSAGE_STATUS_PENDING);
  assert_lineage (reply, AKC_LINEAGE_OPERATION_SUBMIT, akc_message_get_id (user));
  g_signal_connect (reply, "notify::content", G_CALLBACK (count_notify), &content_changes);
  wait_until_idle (source (chat));

  g_assert_cmpstr (akc_message_get_content (user), ==, "hello");
  g_assert_cmpint (akc_message_get_role (user), ==, AKC_MESSAGE_ROLE_USER);
  g_assert_null (akc_message_get_lineage (user));
  g_assert_cmpstr (akc_message_get_content (reply), ==, "AgentsKit received: hello");
  g_assert_cmpint (akc_message_get_role (reply), ==, AKC_MESSAGE_ROLE_ASSISTANT);
  g_assert_cmpint (akc_message_get_status (reply), ==, AKC_MESSAGE_STATUS_COMPLETE);
  g_assert_false (akc_message_get_stopped (reply));
  g_assert_cmpint (akc_chat_source_get_status (source (chat)), ==, AKC_CHAT_STATUS_IDLE);
  g_assert_null (akc_chat_source_get_error (source (chat)));
  /* "AgentsKit ", "received: ", "hello": streamed in place, one row. */
  g_assert_cmpuint (content_changes, ==, 3);
  assert_changes (log, -1);

  g_signal_handlers_disconnect_by_func (reply, count_notify, &content_changes);
  g_clear_pointer (&log, change_log_free);
  g_assert_finalize_object (chat);
}

static void
test_chat_fail (void)
{
  AkcChat *chat = new_echo_chat ();
  AkcDiagnostic *turn_error;
  guint error_changes = 0;

  g_signal_connect (chat, "notify::error", G_CALLBACK (count_notify), &error_changes);
  send_and_settle (chat, "/fail");

  g_assert_cmpint (akc_chat_source_get_status (source (chat)), ==, AKC_CHAT_STATUS_ERROR);
  turn_error = akc_chat_source_get_error (source (chat));
  g_assert_nonnull (turn_error);
  g_assert_cmpstr (akc_diagnostic_get_code (turn_error), ==, "AK_ADAPTER_FAILED");
  g_assert_cmpstr (akc_diagnostic_get_message (turn_error), ==, "The deterministic adapter failed as requested.");
  g_assert_true (akc_diagnostic_get_retryable (turn_error));
  g_assert_cmpstr (akc_message_get_content (message_at (chat, 1)), ==, "");
  g_assert_cmpint (akc_message_get_status (message_at (chat, 1)), ==, AKC_MESSAGE_STATUS_ERROR);
  g_assert_cmpuint (error_changes, ==, 1);

  /* A new turn clears the error. */
  g_assert_true (akc_chat_source_send (source (chat), "again", NULL));
  g_assert_null (akc_chat_source_get_error (source (chat)));
  g_assert_cmpuint (error_changes, ==, 2);
  wait_until_idle (source (chat));
  g_assert_cmpint (akc_chat_source_get_status (source (chat)), ==, AKC_CHAT_STATUS_IDLE);

  g_signal_handlers_disconnect_by_func (chat, count_notify, &error_changes);
  g_assert_finalize_object (chat);
}

static void
stop_after_first_chunk (AkcMessage *reply,
                        GParamSpec *pspec,
                        AkcChat    *chat)
{
  akc_chat_source_stop (source (chat));
}

static void
test_chat_stop_mid_stream (void)
{
  AkcChat *chat = new_echo_chat ();
  AkcMessage *reply;

  g_assert_true (akc_chat_source_send (source (chat), "hello there", NULL));
  reply = message_at (chat, 1);
  g_signal_connect (reply, "notify::content", G_CALLBACK (stop_after_first_chunk), chat);
  wait_until_idle (source (chat));
  g_signal_handlers_disconnect_by_func (reply, stop_after_first_chunk, chat);

  /* There is no "cancelled" status: a stopped reply is complete. */
  g_assert_cmpstr (akc_message_get_content (reply), ==, "AgentsKit ");
  g_assert_cmpint (akc_message_get_status (reply), ==, AKC_MESSAGE_STATUS_COMPLETE);
  g_assert_true (akc_message_get_stopped (reply));
  g_assert_cmpint (akc_chat_source_get_status (source (chat)), ==, AKC_CHAT_STATUS_IDLE);

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
  AkcChat *chat = new_echo_chat ();
  guint stopped_changes = 0;

  g_assert_true (akc_chat_source_send (source (chat), "/slow", NULL));
  for (guint i = 0; i < 10; i++)
    g_main_context_iteration (NULL, FALSE);
  g_assert_cmpint (akc_chat_source_get_status (source (chat)), ==, AKC_CHAT_STATUS_STREAMING);
  g_assert_cmpint (akc_message_get_status (message_at (chat, 1)), ==, AKC_MESSAGE_STATUS_PENDING);

  g_signal_connect (message_at (chat, 1), "notify::stopped", G_CALLBACK (count_notify), &stopped_changes);
  akc_chat_source_stop (source (chat));
  g_assert_cmpint (akc_chat_source_get_status (source (chat)), ==, AKC_CHAT_STATUS_IDLE);
  g_assert_cmpint (akc_message_get_status (message_at (chat, 1)), ==, AKC_MESSAGE_STATUS_COMPLETE);
  g_assert_true (akc_message_get_stopped (message_at (chat, 1)));
  g_assert_cmpuint (stopped_changes, ==, 1);

  /* Stopping again does nothing. */
  akc_chat_source_stop (source (chat));
  g_assert_cmpuint (stopped_changes, ==, 1);

  g_signal_handlers_disconnect_by_func (message_at (chat, 1), count_notify, &stopped_changes);
  g_assert_finalize_object (chat);
}

static void
test_chat_rejects (void)
{
  AkcChat *chat = new_echo_chat ();
  g_autoptr(ChangeLog) log = change_log_new (chat);
  g_autoptr(GError) error = NULL;

  g_assert_false (akc_chat_source_send (source (chat), " \n\t ", &error));
  g_assert_error (error, AKC_CHAT_ERROR, AKC_CHAT_ERROR_EMPTY_INPUT);
  g_clear_error (&error);
  g_assert_cmpuint (n_messages (chat), ==, 0);

  /* Blank is ECMAScript's trim(): no-break and ideographic spaces are blank,
   * U+0085 (NEL) is not. */
  g_assert_false (akc_chat_source_send (source (chat), "\u00a0\u3000\ufeff", &error));
  g_assert_error (error, AKC_CHAT_ERROR, AKC_CHAT_ERROR_EMPTY_INPUT);
  g_clear_error (&error);
  g_assert_true (akc_is_blank_input (""));
  g_assert_false (akc_is_blank_input ("\xc2\x85"));
  g_assert_false (akc_is_blank_input (" a "));

  g_assert_false (akc_chat_source_retry (source (chat), &error));
  g_assert_error (error, AKC_CHAT_ERROR, AKC_CHAT_ERROR_NO_TARGET);
  g_clear_error (&error);
  g_assert_false (akc_chat_source_regenerate (source (chat), NULL, &error));
  g_assert_error (error, AKC_CHAT_ERROR, AKC_CHAT_ERROR_NO_TARGET);
  g_clear_error (&error);
  g_assert_false (akc_chat_source_approve (source (chat), "nothing", &error));
  g_assert_error (error, AKC_CHAT_ERROR, AKC_CHAT_ERROR_NO_TARGET);
  g_clear_error (&error);
  assert_changes (log, -1);

  /* While a reply streams, every operation is refused. */
  g_assert_true (akc_chat_source_send (source (chat), "/slow", NULL));
  assert_changes (log, 0, 0, 2, -1);
  g_assert_false (akc_chat_source_send (source (chat), "second", &error));
  g_assert_error (error, AKC_CHAT_ERROR, AKC_CHAT_ERROR_BUSY);
  g_clear_error (&error);
  g_assert_false (akc_chat_source_retry (source (chat), &error));
  g_assert_error (error, AKC_CHAT_ERROR, AKC_CHAT_ERROR_BUSY);
  g_clear_error (&error);
  g_assert_false (akc_chat_source_regenerate (source (chat), NULL, &error));
  g_assert_error (error, AKC_CHAT_ERROR, AKC_CHAT_ERROR_BUSY);
  g_clear_error (&error);
  g_assert_false (akc_chat_source_edit (source (chat), akc_message_get_id (message_at (chat, 0)), "x", &error));
  g_assert_error (error, AKC_CHAT_ERROR, AKC_CHAT_ERROR_BUSY);
  g_clear_error (&error);
  g_assert_null (akc_chat_source_propose_tool_call (source (chat), "c", "t", NULL, &error));
  g_assert_error (error, AKC_CHAT_ERROR, AKC_CHAT_ERROR_BUSY);
  g_clear_error (&error);
  g_assert_cmpuint (n_messages (chat), ==, 2);
  assert_changes (log, -1);

  /* Clear stops the reply and removes everything in one emission. */
  akc_chat_source_clear (source (chat));
  g_assert_cmpuint (n_messages (chat), ==, 0);
  g_assert_cmpint (akc_chat_source_get_status (source (chat)), ==, AKC_CHAT_STATUS_IDLE);
  assert_changes (log, 0, 2, 0, -1);

  /* Clearing an empty conversation emits nothing. */
  akc_chat_source_clear (source (chat));
  assert_changes (log, -1);

  g_clear_pointer (&log, change_log_free);
  g_assert_finalize_object (chat);
}

static void
test_chat_input (void)
{
  AkcChat *chat = new_echo_chat ();
  g_autofree char *input = NULL;
  guint notifications = 0;

  g_signal_connect (chat, "notify::input", G_CALLBACK (count_notify), &notifications);
  akc_chat_source_set_input (source (chat), "draft");
  akc_chat_source_set_input (source (chat), "draft");
  input = akc_chat_source_dup_input (source (chat));
  g_assert_cmpstr (input, ==, "draft");
  g_assert_cmpuint (notifications, ==, 1);

  g_signal_handlers_disconnect_by_func (chat, count_notify, &notifications);
  g_assert_finalize_object (chat);
}

/* ------------------------------------------------------------------ */
/* Lifecycle (application.md §3.6)                                      */
/* ------------------------------------------------------------------ */

static void
test_chat_retry (void)
{
  AkcScriptedAdapter *script;
  AkcChat *chat = new_scripted_chat (&script);
  g_autoptr(ChangeLog) log = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *old_reply_id = NULL;
  AkcMessage *user, *reply;
  GListModel *history;

  akc_test_script_reply (script, "first");
  akc_test_script_reply (script, "second");
  send_and_settle (chat, "question");
  user = message_at (chat, 0);
  old_reply_id = g_strdup (akc_message_get_id (message_at (chat, 1)));

  log = change_log_new (chat);
  g_assert_true (akc_chat_source_retry (source (chat), &error));
  g_assert_no_error (error);
  /* The last assistant message is replaced in one emission. */
  assert_changes (log, 1, 1, 1, -1);
  wait_until_idle (source (chat));
  assert_changes (log, -1);

  g_assert_cmpuint (n_messages (chat), ==, 2);
  g_assert_true (message_at (chat, 0) == user);
  reply = message_at (chat, 1);
  g_assert_cmpstr (akc_message_get_id (reply), !=, old_reply_id);
  g_assert_cmpstr (akc_message_get_content (reply), ==, "second");
  assert_lineage (reply, AKC_LINEAGE_OPERATION_RETRY, old_reply_id);

  /* The adapter answered the same user message (same id and content). */
  g_assert_cmpuint (akc_scripted_adapter_get_n_calls (script), ==, 2);
  history = akc_scripted_adapter_get_call_messages (script, 1);
  g_assert_cmpuint (g_list_model_get_n_items (history), ==, 2);
  {
    g_autoptr(AkcMessage) first = g_list_model_get_item (history, 0);
    g_autoptr(AkcMessage) placeholder = g_list_model_get_item (history, 1);

    g_assert_true (first == user);
    /* Last comes the reply being written, as it was when the call began. */
    g_assert_cmpint (akc_message_get_role (placeholder), ==, AKC_MESSAGE_ROLE_ASSISTANT);
    g_assert_cmpstr (akc_message_get_id (placeholder), ==, akc_message_get_id (message_at (chat, 1)));
    g_assert_cmpstr (akc_message_get_content (placeholder), ==, "");
    g_assert_false (placeholder == message_at (chat, 1));
  }
  g_assert_cmpstr (akc_scripted_adapter_get_call_input (script, 1), ==, "question");

  g_clear_pointer (&log, change_log_free);
  g_assert_finalize_object (chat);
  g_assert_finalize_object (script);
}

static void
test_chat_retry_requires_user_then_assistant (void)
{
  AkcScriptedAdapter *script;
  AkcChat *chat = new_scripted_chat (&script);
  g_autoptr(ChangeLog) log = change_log_new (chat);
  const char * const inert[] = { "", "u", "a", "uaat", "uat", "uaa", "au", "sa", "uas" };

  for (guint i = 0; i < G_N_ELEMENTS (inert); i++)
    {
      g_autoptr(GError) error = NULL;
      guint n;

      restore_transcript (chat, inert[i]);
      g_array_set_size (log->changes, 0);
      n = n_messages (chat);

      g_assert_false (akc_chat_source_retry (source (chat), &error));
      g_assert_error (error, AKC_CHAT_ERROR, AKC_CHAT_ERROR_NO_TARGET);
      g_assert_cmpuint (n_messages (chat), ==, n);
      assert_changes (log, -1);
      g_assert_cmpint (akc_chat_source_get_status (source (chat)), ==, AKC_CHAT_STATUS_IDLE);
    }
  g_assert_cmpuint (akc_scripted_adapter_get_n_calls (script), ==, 0);

  /* user, assistant at the end: retried even after earlier turns. */
  restore_transcript (chat, "suaua");
  g_array_set_size (log->changes, 0);
  akc_test_script_reply (script, "again");
  g_assert_true (akc_chat_source_retry (source (chat), NULL));
  assert_changes (log, 4, 1, 1, -1);
  wait_until_idle (source (chat));
  g_assert_cmpuint (g_list_model_get_n_items (akc_scripted_adapter_get_call_messages (script, 0)), ==, 5);
  g_assert_cmpstr (akc_scripted_adapter_get_call_input (script, 0), ==, "c3");
  assert_lineage (message_at (chat, 4), AKC_LINEAGE_OPERATION_RETRY, "m4");

  g_clear_pointer (&log, change_log_free);
  g_assert_finalize_object (chat);
  g_assert_finalize_object (script);
}

static void
test_chat_regenerate (void)
{
  AkcScriptedAdapter *script;
  AkcChat *chat = new_scripted_chat (&script);
  g_autoptr(ChangeLog) log = change_log_new (chat);
  g_autoptr(GError) error = NULL;
  GListModel *history;

  /* A target in the middle: it and everything after it are dropped. */
  restore_transcript (chat, "uaua");
  assert_changes (log, 0, 0, 4, -1);
  akc_test_script_reply (script, "one again");
  g_assert_true (akc_chat_source_regenerate (source (chat), "m1", &error));
  g_assert_no_error (error);
  assert_changes (log, 1, 3, 1, -1);
  wait_until_idle (source (chat));
  g_assert_cmpuint (n_messages (chat), ==, 2);
  g_assert_cmpstr (akc_message_get_content (message_at (chat, 1)), ==, "one again");
  assert_lineage (message_at (chat, 1), AKC_LINEAGE_OPERATION_REGENERATE, "m1");
  history = akc_scripted_adapter_get_call_messages (script, 0);
  g_assert_cmpuint (g_list_model_get_n_items (history), ==, 2);
  g_assert_cmpstr (akc_scripted_adapter_get_call_input (script, 0), ==, "c0");

  /* Without an id the target is the last message when it is an assistant;
   * messages between the user message and the target stay (here the tool
   * continuation of an earlier call). */
  restore_transcript (chat, "suata");
  g_array_set_size (log->changes, 0);
  akc_test_script_reply (script, "after tool");
  g_assert_true (akc_chat_source_regenerate (source (chat), NULL, &error));
  g_assert_no_error (error);
  assert_changes (log, 4, 1, 1, -1);
  wait_until_idle (source (chat));
  g_assert_cmpuint (n_messages (chat), ==, 5);
  g_assert_cmpstr (akc_message_get_id (message_at (chat, 3)), ==, "m3");
  assert_lineage (message_at (chat, 4), AKC_LINEAGE_OPERATION_REGENERATE, "m4");
  history = akc_scripted_adapter_get_call_messages (script, 1);
  g_assert_cmpuint (g_list_model_get_n_items (history), ==, 5);
  g_assert_cmpstr (akc_scripted_adapter_get_call_input (script, 1), ==, "c1");

  /* No target: a user message, a last message that is not an assistant,
   * an unknown id, an assistant with no user message before it. */
  restore_transcript (chat, "sauau");
  g_array_set_size (log->changes, 0);
  g_assert_false (akc_chat_source_regenerate (source (chat), "m2", &error));
  g_assert_error (error, AKC_CHAT_ERROR, AKC_CHAT_ERROR_NO_TARGET);
  g_clear_error (&error);
  g_assert_false (akc_chat_source_regenerate (source (chat), NULL, &error));
  g_assert_error (error, AKC_CHAT_ERROR, AKC_CHAT_ERROR_NO_TARGET);
  g_clear_error (&error);
  g_assert_false (akc_chat_source_regenerate (source (chat), "missing", &error));
  g_assert_error (error, AKC_CHAT_ERROR, AKC_CHAT_ERROR_NO_TARGET);
  g_clear_error (&error);
  g_assert_false (akc_chat_source_regenerate (source (chat), "m1", &error));
  g_assert_error (error, AKC_CHAT_ERROR, AKC_CHAT_ERROR_NO_TARGET);
  g_clear_error (&error);
  g_assert_cmpuint (n_messages (chat), ==, 5);
  assert_changes (log, -1);

  /* An explicit earlier target with a later one still works. */
  akc_test_script_reply (script, "regenerated");
  g_assert_true (akc_chat_source_regenerate (source (chat), "m3", &error));
  assert_changes (log, 3, 2, 1, -1);
  wait_until_idle (source (chat));
  g_assert_cmpstr (akc_scripted_adapter_get_call_input (script, 2), ==, "c2");
  g_assert_cmpuint (akc_scripted_adapter_get_n_calls (script), ==, 3);

  g_clear_pointer (&log, change_log_free);
  g_assert_finalize_object (chat);
  g_assert_finalize_object (script);
}

static void
test_chat_edit (void)
{
  AkcScriptedAdapter *script;
  AkcChat *chat = new_scripted_chat (&script);
  g_autoptr(ChangeLog) log = change_log_new (chat);
  g_autoptr(GError) error = NULL;
  AkcMessage *user, *assistant;
  guint content_changes = 0;

  restore_transcript (chat, "uaua");
  g_array_set_size (log->changes, 0);
  user = message_at (chat, 0);
  g_signal_connect (user, "notify::content", G_CALLBACK (count_notify), &content_changes);

  /* The user message keeps its id and its object; the rest is dropped in
   * one emission and the new text is answered. */
  akc_test_script_reply (script, "answer to uno");
  g_assert_true (akc_chat_source_edit (source (chat), "m0", "uno", &error));
  g_assert_no_error (error);
  assert_changes (log, 1, 3, 1, -1);
  g_assert_cmpuint (content_changes, ==, 1);
  g_signal_handlers_disconnect_by_func (user, count_notify, &content_changes);
  wait_until_idle (source (chat));
  g_assert_cmpuint (n_messages (chat), ==, 2);
  g_assert_true (message_at (chat, 0) == user);
  g_assert_cmpstr (akc_message_get_id (user), ==, "m0");
  g_assert_cmpstr (akc_message_get_content (user), ==, "uno");
  g_assert_cmpstr (akc_message_get_content (message_at (chat, 1)), ==, "answer to uno");
  assert_lineage (message_at (chat, 1), AKC_LINEAGE_OPERATION_EDIT, "m0");
  g_assert_cmpstr (akc_scripted_adapter_get_call_input (script, 0), ==, "uno");
  g_assert_cmpuint (g_list_model_get_n_items (akc_scripted_adapter_get_call_messages (script, 0)), ==, 2);

  /* Editing the last user message drops only its answer. */
  restore_transcript (chat, "uaua");
  g_array_set_size (log->changes, 0);
  akc_test_script_reply (script, "answer to dos");
  g_assert_true (akc_chat_source_edit (source (chat), "m2", "dos", &error));
  assert_changes (log, 3, 1, 1, -1);
  wait_until_idle (source (chat));
  g_assert_cmpstr (akc_message_get_content (message_at (chat, 3)), ==, "answer to dos");

  /* Editing an assistant message only replaces its text. */
  assistant = message_at (chat, 1);
  g_assert_true (akc_chat_source_edit (source (chat), akc_message_get_id (assistant), "fixed", &error));
  g_assert_no_error (error);
  g_assert_cmpstr (akc_message_get_content (assistant), ==, "fixed");
  g_assert_cmpuint (n_messages (chat), ==, 4);
  g_assert_cmpint (akc_chat_source_get_status (source (chat)), ==, AKC_CHAT_STATUS_IDLE);
  g_assert_cmpuint (akc_scripted_adapter_get_n_calls (script), ==, 2);
  assert_changes (log, -1);

  /* Blank text, unknown ids and tool or system messages are refused. */
  g_assert_false (akc_chat_source_edit (source (chat), "m0", " ", &error));
  g_assert_error (error, AKC_CHAT_ERROR, AKC_CHAT_ERROR_EMPTY_INPUT);
  g_clear_error (&error);
  g_assert_false (akc_chat_source_edit (source (chat), "missing", "x", &error));
  g_assert_error (error, AKC_CHAT_ERROR, AKC_CHAT_ERROR_NO_TARGET);
  g_clear_error (&error);
  restore_transcript (chat, "suat");
  g_array_set_size (log->changes, 0);
  g_assert_false (akc_chat_source_edit (source (chat), "m0", "x", &error));
  g_assert_error (error, AKC_CHAT_ERROR, AKC_CHAT_ERROR_NO_TARGET);
  g_clear_error (&error);
  g_assert_false (akc_chat_source_edit (source (chat), "m3", "x", &error));
  g_assert_error (error, AKC_CHAT_ERROR, AKC_CHAT_ERROR_NO_TARGET);
  g_clear_error (&error);
  g_assert_cmpstr (akc_message_get_content (message_at (chat, 3)), ==, "c3");
  assert_changes (log, -1);

  g_clear_pointer (&log, change_log_free);
  g_assert_finalize_object (chat);
  g_assert_finalize_object (script);
}

static void
stop_on_first_text (AkcMessage *reply,
                    GParamSpec *pspec,
                    AkcChat    *chat)
{
  if (akc_message_get_content_length (reply) > 0)
    akc_chat_source_stop (source (chat));
}

static void
test_chat_late_chunks_after_stop (void)
{
  AkcScriptedAdapter *script;
  AkcChat *chat = new_scripted_chat (&script);
  g_autoptr(ChangeLog) log = change_log_new (chat);
  AkcMessage *reply;
  guint reply_changes = 0, usage_changes = 0, status_changes = 0;

  /* An adapter that ignores the stop and keeps pushing text, a tool call,
   * usage and the end. */
  akc_scripted_adapter_set_ignore_cancellation (script, TRUE);
  akc_scripted_adapter_begin_turn (script);
  akc_scripted_adapter_add_text (script, "kept", 0);
  akc_scripted_adapter_add_text (script, " late", 0);
  akc_scripted_adapter_add_tool_call (script, "late-call", "lookup", NULL, 0);
  akc_scripted_adapter_add_usage (script, 1, 2, 3, 0);
  akc_scripted_adapter_add_error (script, "LATE", "Too late.", 0);

  g_assert_true (akc_chat_source_send (source (chat), "go", NULL));
  assert_changes (log, 0, 0, 2, -1);
  reply = message_at (chat, 1);
  g_signal_connect (reply, "notify::content", G_CALLBACK (stop_on_first_text), chat);
  wait_until_idle (source (chat));
  g_signal_handlers_disconnect_by_func (reply, stop_on_first_text, chat);

  g_assert_cmpstr (akc_message_get_content (reply), ==, "kept");
  g_assert_cmpint (akc_message_get_status (reply), ==, AKC_MESSAGE_STATUS_COMPLETE);
  g_assert_true (akc_message_get_stopped (reply));

  g_signal_connect (reply, "notify", G_CALLBACK (count_notify), &reply_changes);
  g_signal_connect (chat, "notify::usage", G_CALLBACK (count_notify), &usage_changes);
  g_signal_connect (chat, "notify::status", G_CALLBACK (count_notify), &status_changes);
  WAIT_UNTIL (akc_scripted_adapter_get_n_dropped (script) >= 4);
  akc_test_drain ();

  /* Every late chunk was dropped: nothing changed. */
  g_assert_cmpuint (akc_scripted_adapter_get_n_dropped (script), ==, 4);
  g_assert_cmpstr (akc_message_get_content (reply), ==, "kept");
  g_assert_cmpuint (g_list_model_get_n_items (akc_message_get_tool_calls (reply)), ==, 0);
  g_assert_cmpuint (akc_chat_source_get_usage (source (chat))->total_tokens, ==, 0);
  g_assert_null (akc_chat_source_get_error (source (chat)));
  g_assert_cmpint (akc_chat_source_get_status (source (chat)), ==, AKC_CHAT_STATUS_IDLE);
  g_assert_cmpuint (reply_changes, ==, 0);
  g_assert_cmpuint (usage_changes, ==, 0);
  g_assert_cmpuint (status_changes, ==, 0);
  assert_changes (log, -1);

  g_signal_handlers_disconnect_by_func (reply, count_notify, &reply_changes);
  g_signal_handlers_disconnect_by_func (chat, count_notify, &usage_changes);
  g_signal_handlers_disconnect_by_func (chat, count_notify, &status_changes);
  g_clear_pointer (&log, change_log_free);
  g_assert_finalize_object (chat);
  g_assert_finalize_object (script);
}

static void
test_chat_stop_before_any_chunk (void)
{
  AkcScriptedAdapter *script;
  AkcChat *chat = new_scripted_chat (&script);

  /* A turn that never ends by itself. */
  akc_scripted_adapter_begin_turn (script);
  akc_scripted_adapter_add_text (script, "thinking", 0);

  g_assert_true (akc_chat_source_send (source (chat), "go", NULL));
  akc_chat_source_stop (source (chat));
  g_assert_cmpint (akc_message_get_status (message_at (chat, 1)), ==, AKC_MESSAGE_STATUS_COMPLETE);
  g_assert_true (akc_message_get_stopped (message_at (chat, 1)));
  akc_test_drain ();
  g_assert_cmpstr (akc_message_get_content (message_at (chat, 1)), ==, "");
  g_assert_cmpuint (akc_scripted_adapter_get_n_dropped (script), ==, 0);

  /* A stopped reply can be retried; the new reply is not stopped. */
  akc_test_script_reply (script, "done");
  g_assert_true (akc_chat_source_retry (source (chat), NULL));
  wait_until_idle (source (chat));
  g_assert_false (akc_message_get_stopped (message_at (chat, 1)));
  g_assert_cmpstr (akc_message_get_content (message_at (chat, 1)), ==, "done");

  g_assert_finalize_object (chat);
  g_assert_finalize_object (script);
}

/* ------------------------------------------------------------------ */
/* Tool calls (application.md §3.6, §5)                                 */
/* ------------------------------------------------------------------ */

static void
test_chat_tool_call_approve (void)
{
  AkcScriptedAdapter *script;
  AkcChat *chat = new_scripted_chat (&script);
  g_autoptr(ChangeLog) log = change_log_new (chat);
  g_autoptr(GError) error = NULL;
  g_autofree char *arguments = NULL;
  AkcMessage *user, *reply, *tool_message, *continuation;
  AkcToolCall *call;
  GListModel *history;
  guint runs = 0, status_changes = 0;

  add_lookup_tool (chat, "lookup", TRUE, &runs);

  akc_scripted_adapter_begin_turn (script);
  akc_scripted_adapter_add_text (script, "Let me look.", 0);
  akc_scripted_adapter_add_tool_call (script, "call-1", "lookup", "{\"q\":\"x\"}", 0);
  akc_scripted_adapter_add_done (script, 0);
  akc_test_script_reply (script, "Found it.");

  send_and_settle (chat, "find x");
  assert_changes (log, 0, 0, 2, -1);
  user = message_at (chat, 0);
  reply = message_at (chat, 1);
  g_assert_cmpint (akc_chat_source_get_status (source (chat)), ==, AKC_CHAT_STATUS_IDLE);
  g_assert_cmpint (akc_message_get_status (reply), ==, AKC_MESSAGE_STATUS_COMPLETE);
  g_assert_cmpuint (g_list_model_get_n_items (akc_message_get_tool_calls (reply)), ==, 1);
  call = tool_call_at (reply, 0);
  g_assert_cmpstr (akc_tool_call_get_id (call), ==, "call-1");
  g_assert_cmpstr (akc_tool_call_get_name (call), ==, "lookup");
  arguments = akc_json_value_to_canonical (akc_tool_call_get_arguments (call), NULL);
  g_assert_cmpstr (arguments, ==, "{\"q\":\"x\"}");
  /* No side effect before approval. */
  g_assert_cmpint (akc_tool_call_get_status (call), ==, AKC_TOOL_CALL_STATUS_REQUIRES_CONFIRMATION);
  g_assert_cmpuint (runs, ==, 0);

  g_signal_connect (call, "notify::status", G_CALLBACK (count_notify), &status_changes);
  g_assert_true (akc_chat_source_approve (source (chat), "call-1", &error));
  g_assert_no_error (error);
  g_assert_cmpuint (runs, ==, 1);
  /* running, then complete: in place. */
  g_assert_cmpuint (status_changes, ==, 2);
  g_assert_cmpint (akc_tool_call_get_status (call), ==, AKC_TOOL_CALL_STATUS_COMPLETE);
  g_assert_cmpstr (akc_tool_call_get_result (call), ==, "found: x");
  g_assert_null (akc_tool_call_get_error (call));

  /* The tool message and the new reply arrive in one emission. */
  assert_changes (log, 2, 0, 2, -1);
  tool_message = message_at (chat, 2);
  continuation = message_at (chat, 3);
  g_assert_cmpint (akc_message_get_role (tool_message), ==, AKC_MESSAGE_ROLE_TOOL);
  g_assert_cmpstr (akc_message_get_content (tool_message), ==, "found: x");
  g_assert_cmpstr (akc_message_get_tool_call_id (tool_message), ==, "call-1");
  g_assert_cmpint (akc_message_get_role (continuation), ==, AKC_MESSAGE_ROLE_ASSISTANT);
  assert_lineage (continuation, AKC_LINEAGE_OPERATION_SUBMIT, akc_message_get_id (tool_message));

  wait_until_idle (source (chat));
  g_assert_cmpstr (akc_message_get_content (continuation), ==, "Found it.");

  /* The adapter was called again with the same latest user message. */
  g_assert_cmpuint (akc_scripted_adapter_get_n_calls (script), ==, 2);
  history = akc_scripted_adapter_get_call_messages (script, 1);
  g_assert_cmpuint (g_list_model_get_n_items (history), ==, 4);
  {
    g_autoptr(AkcMessage) first = g_list_model_get_item (history, 0);
    g_autoptr(AkcMessage) last = g_list_model_get_item (history, 2);

    g_assert_true (first == user);
    g_assert_true (last == tool_message);
  }
  g_assert_cmpstr (akc_scripted_adapter_get_call_input (script, 1), ==, "find x");

  /* A resolved call cannot be approved or denied again. */
  g_assert_false (akc_chat_source_approve (source (chat), "call-1", &error));
  g_assert_error (error, AKC_CHAT_ERROR, AKC_CHAT_ERROR_NO_TARGET);
  g_clear_error (&error);
  g_assert_false (akc_chat_source_deny (source (chat), "call-1", NULL, &error));
  g_assert_error (error, AKC_CHAT_ERROR, AKC_CHAT_ERROR_NO_TARGET);
  g_clear_error (&error);
  g_assert_cmpuint (runs, ==, 1);
  assert_changes (log, -1);

  /* After a continuation the last two messages are not user then
   * assistant: retry is inert (application.md §14 A12). */
  g_assert_false (akc_chat_source_retry (source (chat), &error));
  g_assert_error (error, AKC_CHAT_ERROR, AKC_CHAT_ERROR_NO_TARGET);
  g_clear_error (&error);

  g_signal_handlers_disconnect_by_func (call, count_notify, &status_changes);
  g_clear_pointer (&log, change_log_free);
  g_assert_finalize_object (chat);
  g_assert_finalize_object (script);
}

static void
test_chat_tool_call_deny (void)
{
  AkcScriptedAdapter *script;
  AkcChat *chat = new_scripted_chat (&script);
  g_autoptr(ChangeLog) log = change_log_new (chat);
  g_autoptr(GError) error = NULL;
  AkcToolCall *first, *second;
  guint runs = 0;

  add_lookup_tool (chat, "lookup", TRUE, &runs);

  akc_scripted_adapter_begin_turn (script);
  akc_scripted_adapter_add_tool_call (script, "call-1", "lookup", "{\"q\":\"a\"}", 0);
  akc_scripted_adapter_add_tool_call (script, "call-2", "lookup", "{\"q\":\"b\"}", 0);
  /* The same id twice is one call. */
  akc_scripted_adapter_add_tool_call (script, "call-2", "lookup", "{\"q\":\"c\"}", 0);
  akc_scripted_adapter_add_done (script, 0);
  akc_test_script_reply (script, "Understood.");
  akc_test_script_reply (script, "Understood again.");

  send_and_settle (chat, "two lookups");
  g_assert_cmpuint (g_list_model_get_n_items (akc_message_get_tool_calls (message_at (chat, 1))), ==, 2);
  first = tool_call_at (message_at (chat, 1), 0);
  second = tool_call_at (message_at (chat, 1), 1);
  assert_changes (log, 0, 0, 2, -1);

  /* Without a reason, the reference's default. */
  g_assert_true (akc_chat_source_deny (source (chat), "call-1", NULL, &error));
  g_assert_no_error (error);
  g_assert_cmpint (akc_tool_call_get_status (first), ==, AKC_TOOL_CALL_STATUS_ERROR);
  g_assert_cmpstr (akc_tool_call_get_error (first), ==, "Permission denied: user denied access");
  g_assert_null (akc_tool_call_get_result (first));
  assert_changes (log, 2, 0, 2, -1);
  g_assert_cmpint (akc_message_get_role (message_at (chat, 2)), ==, AKC_MESSAGE_ROLE_TOOL);
  g_assert_cmpstr (akc_message_get_content (message_at (chat, 2)), ==, "Permission denied: user denied access");
  g_assert_cmpstr (akc_message_get_tool_call_id (message_at (chat, 2)), ==, "call-1");

  /* The other call still waits; it cannot be decided while streaming. */
  g_assert_cmpint (akc_tool_call_get_status (second), ==, AKC_TOOL_CALL_STATUS_REQUIRES_CONFIRMATION);
  g_assert_false (akc_chat_source_deny (source (chat), "call-2", "no", &error));
  g_assert_error (error, AKC_CHAT_ERROR, AKC_CHAT_ERROR_BUSY);
  g_clear_error (&error);
  wait_until_idle (source (chat));
  g_assert_cmpstr (akc_message_get_content (message_at (chat, 3)), ==, "Understood.");
  g_assert_cmpstr (akc_scripted_adapter_get_call_input (script, 1), ==, "two lookups");

  g_assert_true (akc_chat_source_deny (source (chat), "call-2", "not now", &error));
  g_assert_cmpstr (akc_tool_call_get_error (second), ==, "Permission denied: not now");
  assert_changes (log, 4, 0, 2, -1);
  g_assert_cmpstr (akc_message_get_content (message_at (chat, 4)), ==, "Permission denied: not now");
  wait_until_idle (source (chat));
  g_assert_cmpstr (akc_scripted_adapter_get_call_input (script, 2), ==, "two lookups");
  g_assert_cmpuint (g_list_model_get_n_items (akc_scripted_adapter_get_call_messages (script, 2)), ==, 6);

  /* A denied tool never ran. */
  g_assert_cmpuint (runs, ==, 0);

  g_clear_pointer (&log, change_log_free);
  g_assert_finalize_object (chat);
  g_assert_finalize_object (script);
}

static void
test_chat_tool_call_without_confirmation (void)
{
  AkcScriptedAdapter *script;
  AkcChat *chat = new_scripted_chat (&script);
  AkcMessage *reply;
  AkcToolCall *call;
  guint runs = 0;

  add_lookup_tool (chat, "search", FALSE, &runs);

  akc_scripted_adapter_begin_turn (script);
  akc_scripted_adapter_add_tool_call (script, "ok", "search", "{\"q\":\"y\"}", 0);
  akc_scripted_adapter_add_tool_call (script, "fails", "search", "{}", 0);
  akc_scripted_adapter_add_tool_call (script, "unknown", "nothing", "{}", 0);
  akc_scripted_adapter_add_tool_call (script, "array", "search", "[1]", 0);
  akc_scripted_adapter_add_tool_call (script, "broken", "search", "{", 0);
  akc_scripted_adapter_add_tool_call (script, "bad id", "search", "{}", 0);
  akc_scripted_adapter_add_done (script, 0);

  send_and_settle (chat, "search");
  reply = message_at (chat, 1);
  g_assert_cmpuint (g_list_model_get_n_items (akc_message_get_tool_calls (reply)), ==, 6);

  /* A tool without confirmation runs at once; nothing else is streamed. */
  call = tool_call_at (reply, 0);
  g_assert_cmpint (akc_tool_call_get_status (call), ==, AKC_TOOL_CALL_STATUS_COMPLETE);
  g_assert_cmpstr (akc_tool_call_get_result (call), ==, "found: y");
  call = tool_call_at (reply, 1);
  g_assert_cmpint (akc_tool_call_get_status (call), ==, AKC_TOOL_CALL_STATUS_ERROR);
  g_assert_cmpstr (akc_tool_call_get_error (call), ==, "No query.");
  g_assert_cmpuint (runs, ==, 2);

  call = tool_call_at (reply, 2);
  g_assert_cmpint (akc_tool_call_get_status (call), ==, AKC_TOOL_CALL_STATUS_ERROR);
  g_assert_cmpstr (akc_tool_call_get_error (call), ==, "Tool is not registered.");
  for (guint i = 3; i < 5; i++)
    {
      g_autofree char *arguments = NULL;

      call = tool_call_at (reply, i);
      g_assert_cmpint (akc_tool_call_get_status (call), ==, AKC_TOOL_CALL_STATUS_ERROR);
      g_assert_cmpstr (akc_tool_call_get_error (call), ==, "Tool call arguments are invalid.");
      arguments = akc_json_value_to_canonical (akc_tool_call_get_arguments (call), NULL);
      g_assert_cmpstr (arguments, ==, "{}");
    }
  call = tool_call_at (reply, 5);
  g_assert_cmpstr (akc_tool_call_get_error (call), ==, "Tool call identity is invalid.");
  g_assert_cmpuint (runs, ==, 2);

  g_assert_cmpuint (n_messages (chat), ==, 2);
  g_assert_cmpuint (akc_scripted_adapter_get_n_calls (script), ==, 1);
  g_assert_cmpint (akc_chat_source_get_status (source (chat)), ==, AKC_CHAT_STATUS_IDLE);

  g_assert_finalize_object (chat);
  g_assert_finalize_object (script);
}

typedef struct
{
  AkcToolPhase  deny_phase;
  gboolean      deny;
  guint         asked[2];
} Authorizer;

static char *
authorize (AkcChat      *chat,
           AkcToolCall  *call,
           AkcToolPhase  phase,
           gpointer      user_data)
{
  Authorizer *authorizer = user_data;

  g_assert_true (AKC_IS_CHAT (chat));
  g_assert_true (AKC_IS_TOOL_CALL (call));
  authorizer->asked[phase]++;

  if (authorizer->deny && phase == authorizer->deny_phase)
    return g_strdup ("missing-context");

  return NULL;
}

/* A tool function that fails without saying why. */
static char *
silent_failure (AkcTool       *tool,
                AkcJsonValue  *arguments,
                gpointer       user_data,
                GError       **error)
{
  return NULL;
}

/* A failing function's own error passes through; one that sets none
 * fails in the library's domain, not in G_IO_ERROR. */
static void
test_chat_tool_execute_errors (void)
{
  g_autoptr(AkcJsonValue) arguments = akc_test_parse_json ("{}");
  g_autoptr(AkcTool) silent = akc_tool_new ("silent", FALSE, silent_failure, NULL, NULL);
  g_autoptr(AkcTool) lookup = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *result = NULL;
  guint runs = 0;

  result = akc_tool_execute (silent, arguments, &error);
  g_assert_null (result);
  g_assert_error (error, AKC_ERROR, AKC_ERROR_TOOL_FAILED);
  g_clear_error (&error);

  lookup = akc_tool_new ("lookup", FALSE, lookup_tool, &runs, NULL);
  result = akc_tool_execute (lookup, arguments, &error);
  g_assert_null (result);
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT);
  g_assert_cmpuint (runs, ==, 1);
}

static void
test_chat_propose_tool_call (void)
{
  AkcScriptedAdapter *script;
  AkcChat *chat = new_scripted_chat (&script);
  g_autoptr(ChangeLog) log = change_log_new (chat);
  g_autoptr(GError) error = NULL;
  g_autoptr(AkcJsonValue) arguments = akc_test_parse_json ("{\"q\":\"z\"}");
  g_autoptr(AkcJsonValue) array = akc_test_parse_json ("[]");
  g_autoptr(AkcToolCall) call = NULL;
  g_autoptr(AkcToolCall) again = NULL;
  g_autoptr(GString) deep = g_string_new (NULL);
  g_autoptr(AkcJsonValue) too_deep = NULL;
  Authorizer authorizer = { AKC_TOOL_PHASE_PROPOSE, FALSE, { 0, 0 } };
  AkcMessage *proposal;
  guint runs = 0, plain_runs = 0;

  /* 33 nested objects: deeper than the 32 levels of application.md §5.4. */
  for (guint i = 0; i < 33; i++)
    g_string_append (deep, "{\"a\":");
  g_string_append (deep, "1");
  for (guint i = 0; i < 33; i++)
    g_string_append_c (deep, '}');
  too_deep = akc_test_parse_json (deep->str);

  /* Checked in order: identity, arguments, registration, confirmation. */
  g_assert_null (akc_chat_source_propose_tool_call (source (chat), "bad id", "lookup", arguments, &error));
  g_assert_error (error, AKC_ERROR, AKC_ERROR_TOOL_INVALID_INPUT);
  g_clear_error (&error);
  g_assert_null (akc_chat_source_propose_tool_call (source (chat), "c1", "-lookup", arguments, &error));
  g_assert_error (error, AKC_ERROR, AKC_ERROR_TOOL_INVALID_INPUT);
  g_clear_error (&error);
  g_assert_null (akc_chat_source_propose_tool_call (source (chat), "c1", "unknown", array, &error));
  g_assert_error (error, AKC_ERROR, AKC_ERROR_TOOL_INVALID_INPUT);
  g_clear_error (&error);
  g_assert_null (akc_chat_source_propose_tool_call (source (chat), "c1", "unknown", too_deep, &error));
  g_assert_error (error, AKC_ERROR, AKC_ERROR_TOOL_INVALID_INPUT);
  g_clear_error (&error);
  g_assert_null (akc_chat_source_propose_tool_call (source (chat), "c1", "unknown", arguments, &error));
  g_assert_error (error, AKC_ERROR, AKC_ERROR_TOOL_NOT_FOUND);
  g_clear_error (&error);
  add_lookup_tool (chat, "plain", FALSE, &plain_runs);
  g_assert_null (akc_chat_source_propose_tool_call (source (chat), "c1", "plain", arguments, &error));
  g_assert_error (error, AKC_ERROR, AKC_ERROR_CONFIG_INVALID);
  g_clear_error (&error);

  /* Authorization comes last, and a denial records nothing. */
  add_lookup_tool (chat, "lookup", TRUE, &runs);
  akc_chat_set_tool_authorizer (chat, authorize, &authorizer, NULL);
  authorizer.deny = TRUE;
  g_assert_null (akc_chat_source_propose_tool_call (source (chat), "c1", "lookup", arguments, &error));
  g_assert_error (error, AKC_ERROR, AKC_ERROR_TOOL_FORBIDDEN);
  g_assert_cmpstr (error->message, ==, "missing-context");
  g_clear_error (&error);
  g_assert_cmpuint (authorizer.asked[AKC_TOOL_PHASE_PROPOSE], ==, 1);
  g_assert_cmpuint (n_messages (chat), ==, 0);
  assert_changes (log, -1);

  /* An accepted proposal is a new assistant message with the call. */
  authorizer.deny = FALSE;
  call = akc_chat_source_propose_tool_call (source (chat), "c1", "lookup", arguments, &error);
  g_assert_no_error (error);
  g_assert_nonnull (call);
  assert_changes (log, 0, 0, 1, -1);
  proposal = message_at (chat, 0);
  g_assert_cmpint (akc_message_get_role (proposal), ==, AKC_MESSAGE_ROLE_ASSISTANT);
  g_assert_cmpstr (akc_message_get_content (proposal), ==, "");
  g_assert_cmpint (akc_message_get_status (proposal), ==, AKC_MESSAGE_STATUS_COMPLETE);
  g_assert_null (akc_message_get_lineage (proposal));
  g_assert_true (tool_call_at (proposal, 0) == call);
  g_assert_cmpint (akc_tool_call_get_status (call), ==, AKC_TOOL_CALL_STATUS_REQUIRES_CONFIRMATION);
  g_assert_cmpint (akc_chat_source_get_status (source (chat)), ==, AKC_CHAT_STATUS_IDLE);
  g_assert_cmpuint (runs, ==, 0);

  /* The same id again returns the existing call unchanged. */
  again = akc_chat_source_propose_tool_call (source (chat), "c1", "lookup", NULL, &error);
  g_assert_no_error (error);
  g_assert_true (again == call);
  assert_changes (log, -1);

  /* Approving continues the conversation; the authorizer is asked again
   * before the tool runs. */
  akc_test_script_reply (script, "Done.");
  g_assert_true (akc_chat_source_approve (source (chat), "c1", &error));
  g_assert_no_error (error);
  g_assert_cmpuint (authorizer.asked[AKC_TOOL_PHASE_EXECUTE], ==, 1);
  g_assert_cmpuint (runs, ==, 1);
  assert_changes (log, 1, 0, 2, -1);
  wait_until_idle (source (chat));
  g_assert_cmpstr (akc_message_get_content (message_at (chat, 1)), ==, "found: z");
  g_assert_cmpstr (akc_message_get_content (message_at (chat, 2)), ==, "Done.");
  /* There was no user message to answer. */
  g_assert_null (akc_scripted_adapter_get_call_input (script, 0));

  akc_chat_set_tool_authorizer (chat, NULL, NULL, NULL);
  g_clear_pointer (&log, change_log_free);
  g_clear_object (&call);
  g_clear_object (&again);
  g_assert_finalize_object (chat);
  g_assert_finalize_object (script);
}

/* Proposes @text as the arguments of a call to an unregistered tool: valid
 * arguments reach the registration check, invalid ones stop before it. */
static int
proposal_error (AkcChat    *chat,
                const char *text)
{
  g_autoptr(AkcJsonValue) arguments = akc_test_parse_json (text);
  g_autoptr(GError) error = NULL;

  g_assert_null (akc_chat_source_propose_tool_call (source (chat), "c1", "unknown", arguments, &error));
  g_assert_nonnull (error);
  g_assert_true (error->domain == AKC_ERROR);
  return error->code;
}

static char *
nested (guint depth)
{
  GString *text = g_string_new (NULL);

  for (guint i = 0; i < depth; i++)
    g_string_append (text, "{\"a\":");
  g_string_append (text, "1");
  for (guint i = 0; i < depth; i++)
    g_string_append_c (text, '}');
  return g_string_free (text, FALSE);
}

/* {"a":[n - 2 zeros]} is n values. */
static char *
with_values (guint n)
{
  GString *text = g_string_new ("{\"a\":[");

  for (guint i = 0; i + 2 < n; i++)
    g_string_append (text, i > 0 ? ",0" : "0");
  g_string_append (text, "]}");
  return g_string_free (text, FALSE);
}

static char *
with_string (guint    units,
             gboolean as_name)
{
  g_autofree char *long_text = g_strnfill (units, 'x');

  return as_name ? g_strdup_printf ("{\"%s\":1}", long_text)
                 : g_strdup_printf ("{\"a\":\"%s\"}", long_text);
}

/* Each bound of application.md §5.4 holds at its edge and fails past it. */
static void
test_chat_tool_argument_bounds (void)
{
  AkcScriptedAdapter *script;
  AkcChat *chat = new_scripted_chat (&script);
  g_autofree char *depth_32 = nested (32);
  g_autofree char *depth_33 = nested (33);
  g_autofree char *values_10000 = with_values (10000);
  g_autofree char *values_10001 = with_values (10001);
  g_autofree char *string_16384 = with_string (16384, FALSE);
  g_autofree char *string_16385 = with_string (16385, FALSE);
  g_autofree char *name_16384 = with_string (16384, TRUE);
  g_autofree char *name_16385 = with_string (16385, TRUE);

  g_assert_cmpint (proposal_error (chat, depth_32), ==, AKC_ERROR_TOOL_NOT_FOUND);
  g_assert_cmpint (proposal_error (chat, depth_33), ==, AKC_ERROR_TOOL_INVALID_INPUT);
  g_assert_cmpint (proposal_error (chat, values_10000), ==, AKC_ERROR_TOOL_NOT_FOUND);
  g_assert_cmpint (proposal_error (chat, values_10001), ==, AKC_ERROR_TOOL_INVALID_INPUT);
  g_assert_cmpint (proposal_error (chat, string_16384), ==, AKC_ERROR_TOOL_NOT_FOUND);
  g_assert_cmpint (proposal_error (chat, string_16385), ==, AKC_ERROR_TOOL_INVALID_INPUT);
  g_assert_cmpint (proposal_error (chat, name_16384), ==, AKC_ERROR_TOOL_NOT_FOUND);
  g_assert_cmpint (proposal_error (chat, name_16385), ==, AKC_ERROR_TOOL_INVALID_INPUT);

  g_assert_finalize_object (chat);
  g_assert_finalize_object (script);
}

static void
test_chat_execute_denied_by_authorizer (void)
{
  AkcScriptedAdapter *script;
  AkcChat *chat = new_scripted_chat (&script);
  g_autoptr(GError) error = NULL;
  Authorizer authorizer = { AKC_TOOL_PHASE_EXECUTE, TRUE, { 0, 0 } };
  AkcToolCall *call;
  guint runs = 0;

  add_lookup_tool (chat, "lookup", TRUE, &runs);
  akc_chat_set_tool_authorizer (chat, authorize, &authorizer, NULL);

  akc_scripted_adapter_begin_turn (script);
  akc_scripted_adapter_add_tool_call (script, "call-1", "lookup", "{\"q\":\"x\"}", 0);
  akc_scripted_adapter_add_done (script, 0);
  akc_test_script_reply (script, "Could not.");
  send_and_settle (chat, "find");
  call = tool_call_at (message_at (chat, 1), 0);

  /* Revoked between proposal and approval: the approval succeeds, the
   * call becomes an error, the tool never runs, and the turn continues. */
  g_assert_true (akc_chat_source_approve (source (chat), "call-1", &error));
  g_assert_no_error (error);
  g_assert_cmpint (akc_tool_call_get_status (call), ==, AKC_TOOL_CALL_STATUS_ERROR);
  g_assert_cmpstr (akc_tool_call_get_error (call), ==, "missing-context");
  g_assert_cmpuint (runs, ==, 0);
  g_assert_cmpstr (akc_message_get_content (message_at (chat, 2)), ==, "missing-context");
  wait_until_idle (source (chat));
  g_assert_cmpstr (akc_message_get_content (message_at (chat, 3)), ==, "Could not.");

  akc_chat_set_tool_authorizer (chat, NULL, NULL, NULL);
  g_assert_finalize_object (chat);
  g_assert_finalize_object (script);
}

/* A call the model makes is authorized when it arrives, as a host's
 * proposal is: one the policy refuses is never offered for approval. */
static void
test_chat_model_call_denied_at_proposal (void)
{
  AkcScriptedAdapter *script;
  AkcChat *chat = new_scripted_chat (&script);
  g_autoptr(GError) error = NULL;
  Authorizer authorizer = { AKC_TOOL_PHASE_PROPOSE, TRUE, { 0, 0 } };
  AkcToolCall *call;
  guint runs = 0;

  add_lookup_tool (chat, "lookup", TRUE, &runs);
  akc_chat_set_tool_authorizer (chat, authorize, &authorizer, NULL);

  akc_scripted_adapter_begin_turn (script);
  akc_scripted_adapter_add_tool_call (script, "call-1", "lookup", "{\"q\":\"x\"}", 0);
  akc_scripted_adapter_add_done (script, 0);
  send_and_settle (chat, "find");
  call = tool_call_at (message_at (chat, 1), 0);

  g_assert_cmpuint (authorizer.asked[AKC_TOOL_PHASE_PROPOSE], ==, 1);
  g_assert_cmpint (akc_tool_call_get_status (call), ==, AKC_TOOL_CALL_STATUS_ERROR);
  g_assert_cmpstr (akc_tool_call_get_error (call), ==, "missing-context");
  g_assert_cmpuint (runs, ==, 0);

  /* Nothing waits for confirmation: approving it is refused. */
  g_assert_false (akc_chat_source_approve (source (chat), "call-1", &error));
  g_assert_error (error, AKC_CHAT_ERROR, AKC_CHAT_ERROR_NO_TARGET);
  g_assert_cmpuint (authorizer.asked[AKC_TOOL_PHASE_EXECUTE], ==, 0);
  g_assert_cmpuint (runs, ==, 0);
  g_assert_cmpint (akc_chat_source_get_status (source (chat)), ==, AKC_CHAT_STATUS_IDLE);

  /* Allowed, the next one waits for the person as before. */
  authorizer.deny = FALSE;
  akc_scripted_adapter_begin_turn (script);
  akc_scripted_adapter_add_tool_call (script, "call-2", "lookup", "{\"q\":\"y\"}", 0);
  akc_scripted_adapter_add_done (script, 0);
  send_and_settle (chat, "find again");
  call = tool_call_at (message_at (chat, 3), 0);
  g_assert_cmpuint (authorizer.asked[AKC_TOOL_PHASE_PROPOSE], ==, 2);
  g_assert_cmpint (akc_tool_call_get_status (call), ==, AKC_TOOL_CALL_STATUS_REQUIRES_CONFIRMATION);
  g_assert_null (akc_tool_call_get_error (call));

  akc_chat_set_tool_authorizer (chat, NULL, NULL, NULL);
  g_assert_finalize_object (chat);
  g_assert_finalize_object (script);
}

/* ------------------------------------------------------------------ */
/* Usage and errors                                                     */
/* ------------------------------------------------------------------ */

static void
test_chat_usage (void)
{
  AkcScriptedAdapter *script;
  AkcChat *chat = new_scripted_chat (&script);
  g_autoptr(AkcUsage) from_property = NULL;
  const AkcUsage *usage;
  guint usage_changes = 0;

  g_signal_connect (chat, "notify::usage", G_CALLBACK (count_notify), &usage_changes);

  usage = akc_chat_source_get_usage (source (chat));
  g_assert_cmpuint (usage->prompt_tokens, ==, 0);
  g_assert_cmpuint (usage->completion_tokens, ==, 0);
  g_assert_cmpuint (usage->total_tokens, ==, 0);

  akc_scripted_adapter_begin_turn (script);
  akc_scripted_adapter_add_text (script, "a", 0);
  akc_scripted_adapter_add_usage (script, 3, 5, 8, 0);
  /* Not usage, or not valid usage: ignored. */
  add_metadata (script, "{\"model\":\"m\"}");
  add_metadata (script, "{\"usage\":{\"promptTokens\":-1}}");
  add_metadata (script, "{\"usage\":{\"promptTokens\":1.5}}");
  add_metadata (script, "not json");
  akc_scripted_adapter_add_done (script, 0);

  akc_scripted_adapter_begin_turn (script);
  /* totalTokens need not be the sum; absent, it is. */
  add_metadata (script, "{\"usage\":{\"promptTokens\":2,\"completionTokens\":1}}");
  akc_scripted_adapter_add_usage (script, 0, 0, 10, 0);
  akc_scripted_adapter_add_done (script, 0);

  send_and_settle (chat, "one");
  usage = akc_chat_source_get_usage (source (chat));
  g_assert_cmpuint (usage->prompt_tokens, ==, 3);
  g_assert_cmpuint (usage->completion_tokens, ==, 5);
  g_assert_cmpuint (usage->total_tokens, ==, 8);
  g_assert_cmpuint (usage_changes, ==, 1);

  send_and_settle (chat, "two");
  usage = akc_chat_source_get_usage (source (chat));
  g_assert_cmpuint (usage->prompt_tokens, ==, 5);
  g_assert_cmpuint (usage->completion_tokens, ==, 6);
  g_assert_cmpuint (usage->total_tokens, ==, 21);
  g_assert_cmpuint (usage_changes, ==, 3);

  g_object_get (chat, "usage", &from_property, NULL);
  g_assert_true (akc_usage_equal (from_property, usage));

  /* Each reply keeps its own: the person's messages have none. */
  {
    GListModel *messages = akc_chat_source_get_messages (source (chat));
    g_autoptr(AkcMessage) question = g_list_model_get_item (messages, 0);
    g_autoptr(AkcMessage) first = g_list_model_get_item (messages, 1);
    g_autoptr(AkcMessage) second = g_list_model_get_item (messages, 3);
    g_autoptr(AkcUsage) first_property = NULL;

    g_assert_null (akc_message_get_usage (question));
    g_assert_cmpuint (akc_message_get_usage (first)->prompt_tokens, ==, 3);
    g_assert_cmpuint (akc_message_get_usage (first)->completion_tokens, ==, 5);
    g_assert_cmpuint (akc_message_get_usage (first)->total_tokens, ==, 8);
    g_assert_cmpuint (akc_message_get_usage (second)->prompt_tokens, ==, 2);
    g_assert_cmpuint (akc_message_get_usage (second)->completion_tokens, ==, 1);
    g_assert_cmpuint (akc_message_get_usage (second)->total_tokens, ==, 13);
    g_object_get (first, "usage", &first_property, NULL);
    g_assert_true (akc_usage_equal (first_property, akc_message_get_usage (first)));
  }

  /* A new conversation starts from zero. */
  akc_chat_source_clear (source (chat));
  g_assert_cmpuint (akc_chat_source_get_usage (source (chat))->total_tokens, ==, 0);
  g_assert_cmpuint (usage_changes, ==, 4);

  g_signal_handlers_disconnect_by_func (chat, count_notify, &usage_changes);
  g_assert_finalize_object (chat);
  g_assert_finalize_object (script);
}

static void
test_chat_adapter_errors (void)
{
  AkcScriptedAdapter *script;
  AkcChat *chat = new_scripted_chat (&script);
  g_autoptr(GString) long_message = g_string_new (NULL);
  AkcDiagnostic *diagnostic;
  const char *message;

  /* A code of the turn grammar is kept; the partial reply stays. */
  akc_scripted_adapter_begin_turn (script);
  akc_scripted_adapter_add_text (script, "partial", 0);
  akc_scripted_adapter_add_error (script, "RATE_LIMITED", "Slow down.", 0);
  send_and_settle (chat, "one");
  g_assert_cmpint (akc_chat_source_get_status (source (chat)), ==, AKC_CHAT_STATUS_ERROR);
  diagnostic = akc_chat_source_get_error (source (chat));
  g_assert_cmpstr (akc_diagnostic_get_code (diagnostic), ==, "RATE_LIMITED");
  g_assert_cmpstr (akc_diagnostic_get_message (diagnostic), ==, "Slow down.");
  g_assert_true (akc_diagnostic_get_retryable (diagnostic));
  g_assert_cmpstr (akc_message_get_content (message_at (chat, 1)), ==, "partial");
  g_assert_cmpint (akc_message_get_status (message_at (chat, 1)), ==, AKC_MESSAGE_STATUS_ERROR);

  /* Retryable: retry replaces the failed reply and clears the error. */
  akc_test_script_reply (script, "whole");
  g_assert_true (akc_chat_source_retry (source (chat), NULL));
  g_assert_null (akc_chat_source_get_error (source (chat)));
  wait_until_idle (source (chat));
  g_assert_cmpint (akc_chat_source_get_status (source (chat)), ==, AKC_CHAT_STATUS_IDLE);
  g_assert_cmpstr (akc_message_get_content (message_at (chat, 1)), ==, "whole");

  /* A bad code becomes ADAPTER_FAILED; a long message with control
   * characters and invalid UTF-8 is made safe and bounded. */
  g_string_append (long_message, "line\none\x01\xff");
  for (guint i = 0; i < 1000; i++)
    g_string_append (long_message, "é");
  akc_scripted_adapter_begin_turn (script);
  akc_scripted_adapter_add_error (script, "not a code", long_message->str, 0);
  send_and_settle (chat, "two");
  diagnostic = akc_chat_source_get_error (source (chat));
  g_assert_cmpstr (akc_diagnostic_get_code (diagnostic), ==, "ADAPTER_FAILED");
  message = akc_diagnostic_get_message (diagnostic);
  g_assert_true (g_utf8_validate (message, -1, NULL));
  g_assert_true (g_str_has_prefix (message, "line one \xef\xbf\xbd\xc3\xa9"));
  g_assert_true (g_str_has_suffix (message, "…"));
  g_assert_cmpuint (strlen (message), <=, 512 + strlen ("…"));
  for (const char *p = message; *p != '\0'; p = g_utf8_next_char (p))
    g_assert_false (g_unichar_iscntrl (g_utf8_get_char (p)));

  /* No code and a blank message: a generic, translatable message. */
  akc_scripted_adapter_begin_turn (script);
  akc_scripted_adapter_add_error (script, NULL, " ", 0);
  send_and_settle (chat, "three");
  diagnostic = akc_chat_source_get_error (source (chat));
  g_assert_cmpstr (akc_diagnostic_get_code (diagnostic), ==, "ADAPTER_FAILED");
  g_assert_cmpstr (akc_diagnostic_get_message (diagnostic), ==, "The reply failed.");

  /* An exhausted script is a visible, retryable error too. */
  send_and_settle (chat, "four");
  diagnostic = akc_chat_source_get_error (source (chat));
  g_assert_cmpstr (akc_diagnostic_get_code (diagnostic), ==, "SCRIPT_EXHAUSTED");
  g_assert_cmpint (akc_message_get_status (message_at (chat, n_messages (chat) - 1)), ==, AKC_MESSAGE_STATUS_ERROR);

  g_assert_finalize_object (chat);
  g_assert_finalize_object (script);
}

static void
test_chat_restore (void)
{
  AkcScriptedAdapter *script;
  AkcChat *chat = new_scripted_chat (&script);
  g_autoptr(ChangeLog) log = change_log_new (chat);

  restore_transcript (chat, "ua");
  assert_changes (log, 0, 0, 2, -1);
  restore_transcript (chat, "uaua");
  assert_changes (log, 0, 2, 4, -1);
  akc_chat_restore (chat, NULL, 0);
  assert_changes (log, 0, 4, 0, -1);
  akc_chat_restore (chat, NULL, 0);
  assert_changes (log, -1);

  /* Restoring stops a reply in flight; its late chunks are dropped. */
  akc_scripted_adapter_begin_turn (script);
  akc_scripted_adapter_add_text (script, "never", 0);
  g_assert_true (akc_chat_source_send (source (chat), "hi", NULL));
  restore_transcript (chat, "u");
  assert_changes (log, 0, 0, 2, 0, 2, 1, -1);
  g_assert_cmpint (akc_chat_source_get_status (source (chat)), ==, AKC_CHAT_STATUS_IDLE);
  akc_test_drain ();
  assert_changes (log, -1);

  g_clear_pointer (&log, change_log_free);
  g_assert_finalize_object (chat);
  g_assert_finalize_object (script);
}

/* The scripted adapter alone: chunks in order, after their delays. */
static void
record_chunk (AkcStream *stream,
              AkcChunk  *chunk,
              GString   *out)
{
  switch (akc_chunk_get_kind (chunk))
    {
    case AKC_CHUNK_TEXT:
      g_string_append (out, akc_chunk_get_text (chunk, NULL));
      break;
    case AKC_CHUNK_DONE:
      g_string_append (out, "|done");
      break;
    case AKC_CHUNK_ERROR:
      g_string_append_printf (out, "|error %s", akc_chunk_get_error_code (chunk));
      break;
    case AKC_CHUNK_TOOL_CALL:
    case AKC_CHUNK_METADATA:
    default:
      g_string_append (out, "|other");
      break;
    }
}

static void
test_adapter_request (void)
{
  g_autoptr(GListStore) messages = g_list_store_new (AKC_TYPE_MESSAGE);
  g_autoptr(AkcMessage) first = akc_message_new ("u1", AKC_MESSAGE_ROLE_USER, "one", AKC_MESSAGE_STATUS_COMPLETE);
  g_autoptr(AkcMessage) reply = akc_message_new ("a1", AKC_MESSAGE_ROLE_ASSISTANT, "two", AKC_MESSAGE_STATUS_COMPLETE);
  g_autoptr(AkcMessage) second = akc_message_new ("u2", AKC_MESSAGE_ROLE_USER, "three", AKC_MESSAGE_STATUS_COMPLETE);
  g_autoptr(AkcJsonValue) metadata = akc_json_value_parse ("{\"a\":1,\"b\":{\"c\":true}}", -1, NULL);
  g_autoptr(AkcJsonValue) escalation = akc_json_value_parse ("{\"outcome\":\"escalation\"}", -1, NULL);
  g_autoptr(AkcAdapterRequest) empty = akc_adapter_request_new (NULL, NULL, NULL, NULL);
  g_autoptr(AkcAdapterRequest) request = NULL;
  g_autoptr(AkcAdapterRequest) added = NULL;
  g_autoptr(AkcAdapterRequest) replaced = NULL;
  g_autoptr(AkcAdapterRequest) removed = NULL;
  g_autoptr(AkcAdapterRequest) scoped = NULL;
  g_autofree char *text = NULL;

  g_assert_cmpuint (g_list_model_get_n_items (akc_adapter_request_get_messages (empty)), ==, 0);
  g_assert_null (akc_adapter_request_get_latest_user_message (empty));
  g_assert_null (akc_adapter_request_get_session_id (empty));
  g_assert_null (akc_adapter_request_get_metadata (empty));

  g_list_store_append (messages, first);
  g_list_store_append (messages, reply);
  g_list_store_append (messages, second);
  request = akc_adapter_request_new (G_LIST_MODEL (messages), NULL, "Be brief.", metadata);
  g_assert_true (akc_adapter_request_get_latest_user_message (request) == second);
  g_assert_cmpstr (akc_adapter_request_get_system_prompt (request), ==, "Be brief.");

  /* A new member comes last; the others keep their order and values. */
  added = akc_adapter_request_with_metadata_member (request, "agentskit.chat.escalation", escalation);
  text = akc_json_value_to_canonical (akc_adapter_request_get_metadata (added), NULL);
  g_assert_cmpstr (text, ==, "{\"a\":1,\"b\":{\"c\":true},\"agentskit.chat.escalation\":{\"outcome\":\"escalation\"}}");
  g_clear_pointer (&text, g_free);
  g_assert_cmpstr (akc_adapter_request_get_system_prompt (added), ==, "Be brief.");
  g_assert_true (akc_adapter_request_get_messages (added) == G_LIST_MODEL (messages));
  /* The original is unchanged. */
  text = akc_json_value_to_canonical (akc_adapter_request_get_metadata (request), NULL);
  g_assert_cmpstr (text, ==, "{\"a\":1,\"b\":{\"c\":true}}");
  g_clear_pointer (&text, g_free);

  replaced = akc_adapter_request_with_metadata_member (added, "a", escalation);
  text = akc_json_value_to_canonical (akc_adapter_request_get_metadata (replaced), NULL);
  g_assert_cmpstr (text, ==, "{\"a\":{\"outcome\":\"escalation\"},\"b\":{\"c\":true},\"agentskit.chat.escalation\":{\"outcome\":\"escalation\"}}");
  g_clear_pointer (&text, g_free);

  removed = akc_adapter_request_with_metadata_member (replaced, "b", NULL);
  text = akc_json_value_to_canonical (akc_adapter_request_get_metadata (removed), NULL);
  g_assert_cmpstr (text, ==, "{\"a\":{\"outcome\":\"escalation\"},\"agentskit.chat.escalation\":{\"outcome\":\"escalation\"}}");
  g_clear_pointer (&text, g_free);

  scoped = akc_adapter_request_with_session_id (removed, "support-demo");
  g_assert_cmpstr (akc_adapter_request_get_session_id (scoped), ==, "support-demo");
  g_assert_true (akc_adapter_request_get_metadata (scoped) == akc_adapter_request_get_metadata (removed));
  g_assert_true (akc_adapter_request_get_latest_user_message (scoped) == second);
}

static void
test_chat_request_context (void)
{
  g_autoptr(AkcAdapter) adapter = akc_scripted_adapter_new ();
  AkcScriptedAdapter *script = AKC_SCRIPTED_ADAPTER (adapter);
  g_autoptr(AkcChat) chat = g_object_new (AKC_TYPE_CHAT,
                                          "adapter", adapter,
                                          "session-id", "support-demo",
                                          "system-prompt", "Answer briefly.",
                                          NULL);
  AkcAdapterRequest *request;

  akc_scripted_adapter_begin_turn (script);
  akc_scripted_adapter_add_done (script, 0);
  g_assert_cmpstr (akc_chat_get_session_id (chat), ==, "support-demo");
  g_assert_true (akc_chat_source_send (AKC_CHAT_SOURCE (chat), "hello", NULL));

  g_assert_cmpuint (akc_scripted_adapter_get_n_calls (script), ==, 1);
  request = akc_scripted_adapter_get_call_request (script, 0);
  g_assert_cmpstr (akc_adapter_request_get_session_id (request), ==, "support-demo");
  g_assert_cmpstr (akc_adapter_request_get_system_prompt (request), ==, "Answer briefly.");
  g_assert_null (akc_adapter_request_get_metadata (request));
  g_assert_cmpstr (akc_message_get_content (akc_adapter_request_get_latest_user_message (request)), ==, "hello");
  /* The request holds the conversation and the reply being written. */
  g_assert_cmpuint (g_list_model_get_n_items (akc_adapter_request_get_messages (request)), ==, 2);

  WAIT_UNTIL (akc_chat_source_get_status (AKC_CHAT_SOURCE (chat)) != AKC_CHAT_STATUS_STREAMING);
}

static void
test_chunk_metadata (void)
{
  g_autoptr(AkcChunk) text = akc_chunk_new_text ("a\0b", 3);
  g_autoptr(AkcJsonValue) answer = akc_json_value_parse ("{\"answer\":{\"outcome\":\"answer\"}}", -1, NULL);
  g_autoptr(AkcChunk) annotated = NULL;
  g_autoptr(AkcChunk) cleared = NULL;
  const char *data;
  gsize length;

  g_assert_null (akc_chunk_get_metadata (text));
  annotated = akc_chunk_with_metadata (text, answer);
  g_assert_true (akc_chunk_get_metadata (annotated) == answer);
  g_assert_null (akc_chunk_get_metadata (text));
  g_assert_cmpint (akc_chunk_get_kind (annotated), ==, AKC_CHUNK_TEXT);
  data = akc_chunk_get_text (annotated, &length);
  g_assert_cmpmem (data, length, "a\0b", 3);

  cleared = akc_chunk_with_metadata (annotated, NULL);
  g_assert_null (akc_chunk_get_metadata (cleared));
}

static void
test_scripted_adapter (void)
{
  g_autoptr(AkcAdapter) adapter = akc_scripted_adapter_new ();
  AkcScriptedAdapter *script = AKC_SCRIPTED_ADAPTER (adapter);
  g_autoptr(GListStore) messages = g_list_store_new (AKC_TYPE_MESSAGE);
  g_autoptr(GString) out = g_string_new (NULL);
  g_autoptr(AkcStream) first = akc_stream_new ();
  g_autoptr(AkcStream) second = akc_stream_new ();
  g_autoptr(AkcMessage) user = akc_message_new ("u", AKC_MESSAGE_ROLE_USER, "hi", AKC_MESSAGE_STATUS_COMPLETE);
  g_autoptr(AkcAdapterRequest) request = NULL;

  akc_scripted_adapter_begin_turn (script);
  akc_scripted_adapter_add_text (script, "a", 20);
  akc_scripted_adapter_add_text (script, "b", 0);
  akc_scripted_adapter_add_usage (script, 1, 1, 2, 0);
  akc_scripted_adapter_add_done (script, 5);
  g_assert_cmpuint (akc_scripted_adapter_get_n_pending_turns (script), ==, 1);

  g_list_store_append (messages, user);
  request = akc_adapter_request_new (G_LIST_MODEL (messages), "session-1", NULL, NULL);
  g_signal_connect (first, "chunk", G_CALLBACK (record_chunk), out);
  akc_adapter_stream (adapter, request, first);
  /* Never inside the call. */
  g_assert_cmpstr (out->str, ==, "");
  g_assert_cmpuint (akc_scripted_adapter_get_n_pending_turns (script), ==, 0);
  g_assert_cmpuint (akc_scripted_adapter_get_n_calls (script), ==, 1);
  g_assert_cmpstr (akc_scripted_adapter_get_call_input (script, 0), ==, "hi");
  g_assert_true (akc_scripted_adapter_get_call_messages (script, 0) == G_LIST_MODEL (messages));
  g_assert_true (akc_scripted_adapter_get_call_request (script, 0) == request);
  g_assert_cmpstr (akc_adapter_request_get_session_id (request), ==, "session-1");
  g_assert_true (akc_adapter_request_get_latest_user_message (request) == user);
  WAIT_UNTIL (akc_stream_is_closed (first));
  g_assert_cmpstr (out->str, ==, "ab|other|done");

  g_string_truncate (out, 0);
  g_signal_connect (second, "chunk", G_CALLBACK (record_chunk), out);
  akc_adapter_stream (adapter, request, second);
  WAIT_UNTIL (akc_stream_is_closed (second));
  g_assert_cmpstr (out->str, ==, "|error SCRIPT_EXHAUSTED");
  g_assert_cmpuint (akc_scripted_adapter_get_n_dropped (script), ==, 0);
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
  g_test_add_func ("/chat/input", test_chat_input);
  g_test_add_func ("/chat/retry", test_chat_retry);
  g_test_add_func ("/chat/retry-requires-user-then-assistant", test_chat_retry_requires_user_then_assistant);
  g_test_add_func ("/chat/regenerate", test_chat_regenerate);
  g_test_add_func ("/chat/edit", test_chat_edit);
  g_test_add_func ("/chat/late-chunks-after-stop", test_chat_late_chunks_after_stop);
  g_test_add_func ("/chat/stop-before-any-chunk", test_chat_stop_before_any_chunk);
  g_test_add_func ("/chat/tool-call/approve", test_chat_tool_call_approve);
  g_test_add_func ("/chat/tool-call/deny", test_chat_tool_call_deny);
  g_test_add_func ("/chat/tool-call/without-confirmation", test_chat_tool_call_without_confirmation);
  g_test_add_func ("/chat/tool-call/propose", test_chat_propose_tool_call);
  g_test_add_func ("/chat/tool-call/execute-errors", test_chat_tool_execute_errors);
  g_test_add_func ("/chat/tool-call/argument-bounds", test_chat_tool_argument_bounds);
  g_test_add_func ("/chat/tool-call/execute-denied", test_chat_execute_denied_by_authorizer);
  g_test_add_func ("/chat/tool-call/model-call-denied-at-proposal", test_chat_model_call_denied_at_proposal);
  g_test_add_func ("/chat/usage", test_chat_usage);
  g_test_add_func ("/chat/adapter-errors", test_chat_adapter_errors);
  g_test_add_func ("/chat/restore", test_chat_restore);
  g_test_add_func ("/scripted-adapter/plays-in-order", test_scripted_adapter);
  g_test_add_func ("/adapter-request/context-and-metadata", test_adapter_request);
  g_test_add_func ("/adapter-request/from-chat", test_chat_request_context);
  g_test_add_func ("/chunk/attached-metadata", test_chunk_metadata);

  return g_test_run ();
}
