/* test-reference-scripts.c: the offline demos against the transcripts of
 * application/reference-scripts.json (application.md §13)
 *
 * SPDX-License-Identifier: MIT
 */

#include "config.h"

#include <akc.h>

#include "akc-fixture.h"
#include "akc-rag-demo.h"

#define FIXTURE "application/reference-scripts.json"

/* One demo, driven the way the reference scripts drive it. */
typedef struct
{
  AkcChat *chat;
} DemoRun;

static void
demo_run_free (DemoRun *run)
{
  g_clear_object (&run->chat);
  g_free (run);
}

G_DEFINE_AUTOPTR_CLEANUP_FUNC (DemoRun, demo_run_free)

static DemoRun *
demo_run_new (const char *application)
{
  DemoRun *run = g_new0 (DemoRun, 1);

  if (g_strcmp0 (application, "rag") == 0)
    {
      g_autoptr(AkcAdapter) adapter = akc_rag_demo_adapter_new ();

      run->chat = g_object_new (AKC_TYPE_CHAT,
                                "adapter", adapter,
                                "session-id", "rag-demo",
                                NULL);
    }
  else
    g_error ("No demo named %s", application);

  return run;
}

static void
wait_until_idle (AkcChat *chat)
{
  while (akc_chat_source_get_status (AKC_CHAT_SOURCE (chat)) == AKC_CHAT_STATUS_STREAMING)
    g_main_context_iteration (NULL, TRUE);
}

static const char *
status_name (AkcChatStatus status)
{
  switch (status)
    {
    case AKC_CHAT_STATUS_IDLE:
      return "idle";
    case AKC_CHAT_STATUS_STREAMING:
      return "streaming";
    case AKC_CHAT_STATUS_ERROR:
    default:
      return "error";
    }
}

static const char *
role_name (AkcMessageRole role)
{
  switch (role)
    {
    case AKC_MESSAGE_ROLE_SYSTEM:
      return "system";
    case AKC_MESSAGE_ROLE_USER:
      return "user";
    case AKC_MESSAGE_ROLE_ASSISTANT:
      return "assistant";
    case AKC_MESSAGE_ROLE_TOOL:
    default:
      return "tool";
    }
}

static const char *
message_status_name (AkcMessageStatus status)
{
  switch (status)
    {
    case AKC_MESSAGE_STATUS_PENDING:
      return "pending";
    case AKC_MESSAGE_STATUS_STREAMING:
      return "streaming";
    case AKC_MESSAGE_STATUS_COMPLETE:
      return "complete";
    case AKC_MESSAGE_STATUS_ERROR:
    default:
      return "error";
    }
}

/* The fixtures write controller-made message ids as {message:N}, N the
 * message's index in the final transcript. */
static char *
normalise_ids (GListModel *messages,
               const char *text)
{
  g_autofree char *result = g_strdup (text);

  for (guint i = 0; i < g_list_model_get_n_items (messages); i++)
    {
      g_autoptr(AkcMessage) message = g_list_model_get_item (messages, i);
      const char *id = akc_message_get_id (message);
      g_autofree char *placeholder = g_strdup_printf ("{message:%u}", i);
      g_auto(GStrv) parts = NULL;

      if (id == NULL || id[0] == '\0' || strstr (result, id) == NULL)
        continue;
      parts = g_strsplit (result, id, -1);
      g_free (result);
      result = g_strjoinv (placeholder, parts);
    }

  return g_steal_pointer (&result);
}

static void
check_step (DemoRun      *run,
            AkcJsonValue *expected,
            guint         index_)
{
  GListModel *messages = akc_chat_source_get_messages (AKC_CHAT_SOURCE (run->chat));
  guint n = g_list_model_get_n_items (messages);
  AkcJsonValue *last = akc_json_value_get_member (expected, "lastMessage");
  AkcJsonValue *status = akc_json_value_get_member (expected, "status");
  AkcJsonValue *state = akc_json_value_get_member (expected, "state");

  if (last != NULL && akc_json_value_get_kind (last) == AKC_JSON_KIND_OBJECT)
    {
      g_autoptr(AkcMessage) message = NULL;
      g_autofree char *content = NULL;

      g_assert_cmpuint (n, >, 0);
      message = g_list_model_get_item (messages, n - 1);
      content = normalise_ids (messages, akc_message_get_content (message));
      if (g_strcmp0 (content, akc_json_value_get_string (akc_json_value_get_member (last, "content"), NULL)) != 0)
        g_error ("step %u: the last message is\n  %s\nnot\n  %s", index_, content,
                 akc_json_value_get_string (akc_json_value_get_member (last, "content"), NULL));
      g_assert_cmpstr (role_name (akc_message_get_role (message)), ==,
                       akc_json_value_get_string (akc_json_value_get_member (last, "role"), NULL));
    }

  if (status != NULL)
    g_assert_cmpstr (status_name (akc_chat_source_get_status (AKC_CHAT_SOURCE (run->chat))), ==,
                     akc_json_value_get_string (status, NULL));

  /* A demo without a conversation has no state. */
  if (state != NULL)
    g_assert_cmpint (akc_json_value_get_kind (state), ==, AKC_JSON_KIND_NULL);
}

static void
check_transcript (DemoRun      *run,
                  AkcJsonValue *expected)
{
  GListModel *messages = akc_chat_source_get_messages (AKC_CHAT_SOURCE (run->chat));

  g_assert_cmpuint (g_list_model_get_n_items (messages), ==, akc_json_value_get_length (expected));
  for (guint i = 0; i < akc_json_value_get_length (expected); i++)
    {
      AkcJsonValue *entry = akc_json_value_get_element (expected, i);
      g_autoptr(AkcMessage) message = g_list_model_get_item (messages, i);

      g_assert_cmpstr (role_name (akc_message_get_role (message)), ==,
                       akc_json_value_get_string (akc_json_value_get_member (entry, "role"), NULL));
      g_assert_cmpstr (message_status_name (akc_message_get_status (message)), ==,
                       akc_json_value_get_string (akc_json_value_get_member (entry, "status"), NULL));
    }
}

static void
test_reference_script (gconstpointer data)
{
  const AkcFixtureCase *fc = data;
  const char *application = akc_json_value_get_string (akc_json_value_get_member (fc->input, "application"), NULL);
  AkcJsonValue *steps = akc_json_value_get_member (fc->input, "steps");
  AkcJsonValue *expected_steps = akc_fixture_expect (fc, "steps");
  g_autoptr(DemoRun) run = demo_run_new (application);

  g_assert_cmpuint (akc_json_value_get_length (steps), ==, akc_json_value_get_length (expected_steps));
  for (guint i = 0; i < akc_json_value_get_length (steps); i++)
    {
      AkcJsonValue *step = akc_json_value_get_element (steps, i);
      AkcJsonValue *send = akc_json_value_get_member (step, "send");
      g_autoptr(GError) error = NULL;

      if (send != NULL)
        {
          g_assert_true (akc_chat_source_send (AKC_CHAT_SOURCE (run->chat),
                                               akc_json_value_get_string (send, NULL), &error));
          g_assert_no_error (error);
          wait_until_idle (run->chat);
        }
      else
        g_error ("step %u: an operation this harness does not know", i);

      check_step (run, akc_json_value_get_element (expected_steps, i), i);
    }

  check_transcript (run, akc_fixture_expect (fc, "finalTranscript"));
}

/* The demos this program drives. */
static const char * const applications[] = { "rag", NULL };

int
main (int   argc,
      char *argv[])
{
  g_autoptr(GPtrArray) cases = NULL;
  g_autoptr(GError) error = NULL;
  guint registered = 0;

  g_test_init (&argc, &argv, NULL);

  cases = akc_fixture_load (FIXTURE, &error);
  g_assert_no_error (error);

  for (guint i = 0; i < cases->len; i++)
    {
      AkcFixtureCase *fc = g_ptr_array_index (cases, i);
      const char *application = akc_json_value_get_string (akc_json_value_get_member (fc->input, "application"), NULL);
      g_autofree char *path = NULL;

      if (g_strcmp0 (fc->op, "referenceScript") != 0 ||
          !g_strv_contains (applications, application))
        continue;

      {
        g_autofree char *name = g_strdelimit (g_strdup (fc->name), "/#", '_');

        path = g_strdup_printf ("/reference-scripts/%03u %s", fc->index, name);
      }
      g_test_add_data_func (path, fc, test_reference_script);
      registered++;
    }
  g_assert_cmpuint (registered, >, 0);

  return g_test_run ();
}
