/* akc-demo.c
 *
 * SPDX-License-Identifier: MIT
 */

#include "config.h"

#include <glib/gi18n.h>
#include <string.h>

#include "akc-demo.h"
#include "akc-rag-demo.h"

/**
 * AkcDemo:
 *
 * One of the offline demo applications of application.md §13, running:
 * its definition (routes, state machine, tools, policy), its session, the
 * conversation controller the transcript binds to, and the in-memory
 * services its tools call. Demos need no network and no model: the
 * deterministic echo adapter stands in for the model, policy contexts are
 * fixed, and services are deterministic.
 *
 * The words of the demos' replies and frames are content fixed by the
 * reference scripts (application/reference-scripts.json), not interface,
 * so they are not translated; the demos' names and summaries are.
 *
 * [method@Demo.interact] and [method@Demo.select] are the demos' intent
 * handlers: the onboarding demo keeps the profile its form collects and
 * the decision its recommendation offers in an application memory that
 * lives outside the session and is not persisted (§13.3).
 */

typedef struct
{
  char     *role;
  char     *goal;
  char     *decision;
  gboolean  completed;
  char     *active_form_id;
  char     *active_recommendation_id;
} OnboardingMemory;

typedef struct
{
  AkcDemo    *demo;              /* unowned: the demo owns its services */
  guint       tickets;
  guint       restarts;
  GHashTable *restart_results;   /* «sessionId»:«toolCallId» → result */
  char       *executing_call_id; /* set at the execute-time authorization */
  char       *session_id;
} Services;

struct _AkcDemo
{
  GObject                parent_instance;

  char                  *id;
  char                  *session_id;
  AkcEchoAdapter        *echo;
  AkcDefinition         *definition;
  AkcSession            *session;
  AkcChat               *chat;
  AkcCapabilityPolicy   *policy;
  AkcActionConfirmation *confirmation;
  AkcInteractionController *interaction;
  GStrv                  capabilities;  /* the trusted host context's */
  gboolean               has_context;
  AkcJsonValue          *requirements;  /* of the policy, or NULL (rag) */

  OnboardingMemory       onboarding;
  Services               services;

  GPtrArray             *audit;           /* AkcJsonValue {category, detail} */
  GHashTable            *audited_actions; /* «token»\n«status» */
  AkcTraceCapture       *capture;         /* the audit, redacted */
};

G_DEFINE_FINAL_TYPE (AkcDemo, akc_demo, G_TYPE_OBJECT)

static const char * const demo_ids[] = {
  "hello-world", "support", "onboarding", "operations", "rag", NULL
};

/* The launcher's words for each demo, in the order of demo_ids. */
static const struct
{
  const char *title;
  const char *summary;
} demo_texts[] = {
  { N_("Hello World"),
    N_("Answers every message offline. Try /start, then /name Ada; /restricted shows an action the policy denies, /fail an error and /slow lets you try Stop.") },
  { N_("Support"),
    N_("A support ticket offered with /support, created after confirmation") },
  { N_("Onboarding"),
    N_("A guided form with /onboarding, a recommendation and a confirmed completion") },
  { N_("Operations"),
    N_("Read or restart an operation with /operations, behind capabilities") },
  { N_("Grounded Answers"),
    N_("Answers grounded in a local document, with their sources") },
};

G_STATIC_ASSERT (G_N_ELEMENTS (demo_texts) == G_N_ELEMENTS (demo_ids) - 1);

static int
demo_index (const char *id)
{
  for (guint i = 0; demo_ids[i] != NULL; i++)
    if (g_strcmp0 (id, demo_ids[i]) == 0)
      return (int) i;

  return -1;
}

/**
 * akc_demo_get_ids:
 *
 * Gets the ids of the demos, in the order a launcher offers them.
 *
 * Returns: (transfer none): the ids
 */
const char * const *
akc_demo_get_ids (void)
{
  return demo_ids;
}

/**
 * akc_demo_get_title_for:
 * @id: a demo id
 *
 * Returns: (nullable): the demo's translated name, or %NULL for an
 *   unknown id
 */
const char *
akc_demo_get_title_for (const char *id)
{
  int i = demo_index (id);

  return i >= 0 ? _(demo_texts[i].title) : NULL;
}

/**
 * akc_demo_get_summary_for:
 * @id: a demo id
 *
 * Returns: (nullable): what the demo shows, translated, or %NULL for an
 *   unknown id
 */
const char *
akc_demo_get_summary_for (const char *id)
{
  int i = demo_index (id);

  return i >= 0 ? _(demo_texts[i].summary) : NULL;
}

/* JSON helpers ---------------------------------------------------------- */

/* @text as a JSON string literal. */
static char *
quote (const char *text)
{
  g_autoptr(AkcJsonValue) value = akc_json_value_new_string (text, -1);

  return akc_json_value_to_canonical (value, NULL);
}

/* A component frame as JSON text; @props is JSON text the demo wrote. */
static char *
frame_json (const char *component_key,
            const char *instance_id,
            const char *props,
            const char *fallback_kind,
            const char *summary)
{
  g_autofree char *key = quote (component_key);
  g_autofree char *instance = quote (instance_id);
  g_autofree char *kind = quote (fallback_kind);
  g_autofree char *summary_text = quote (summary);
  g_autofree char *text = NULL;
  g_autoptr(AkcJsonValue) frame = NULL;

  text = g_strdup_printf ("{\"protocol\":\"agentskit.chat.component\",\"version\":1,\"type\":\"render\","
                          "\"componentKey\":%s,\"instanceId\":%s,\"props\":%s,"
                          "\"fallback\":{\"kind\":%s,\"summary\":%s}}",
                          key, instance, props, kind, summary_text);
  frame = akc_json_value_parse (text, -1, NULL);
  g_assert (frame != NULL);

  return akc_json_value_to_canonical (frame, NULL);
}

static AkcJsonValue *
parse (const char *text)
{
  AkcJsonValue *value = akc_json_value_parse (text, -1, NULL);

  g_assert (value != NULL);
  return value;
}

/* The instance-id suffix of a route's frame: the latest user message's id,
 * or the session's (§3.8). */
static const char *
turn_id (const char *session_id,
         const char *message_id)
{
  return message_id != NULL ? message_id : session_id;
}

/* JavaScript's String.prototype.trim(). */
static char *
js_trim (const char *text)
{
  const char *start = text;
  const char *end = text + strlen (text);

  while (start < end && (g_unichar_isspace (g_utf8_get_char (start)) || g_utf8_get_char (start) == 0xFEFF))
    start = g_utf8_next_char (start);
  while (end > start)
    {
      const char *prev = g_utf8_prev_char (end);
      gunichar c = g_utf8_get_char (prev);

      if (!g_unichar_isspace (c) && c != 0xFEFF)
        break;
      end = prev;
    }

  return g_strndup (start, end - start);
}

/* The audit trail (application.md §13.4) -------------------------------- */

/* The trace capture redacts these keys wherever they occur (§10.1). */
static const char * const redacted_fields[] = { "token", "secret", "credential", NULL };

/* The audit is the demo's trace capture seen as {category, detail},
 * without the turn records: policy decisions, action statuses and what
 * the services did (§13.4). The capture itself keeps the turns too, for
 * the inspector. */
static void
on_record_added (AkcTraceCapture *capture,
                 AkcTraceRecord  *record,
                 AkcDemo         *self)
{
  switch (akc_trace_record_get_category (record))
    {
    case AKC_TRACE_CATEGORY_ROUTE:
    case AKC_TRACE_CATEGORY_AGENT:
    case AKC_TRACE_CATEGORY_REPAIR:
    case AKC_TRACE_CATEGORY_FALLBACK:
      return;
    case AKC_TRACE_CATEGORY_POLICY:
    case AKC_TRACE_CATEGORY_ACTION:
    case AKC_TRACE_CATEGORY_LIFECYCLE:
    default:
      break;
    }

  const char *names[] = { "category", "detail" };
  g_autoptr(AkcJsonValue) category =
    akc_json_value_new_string (akc_trace_category_to_string (akc_trace_record_get_category (record)), -1);
  AkcJsonValue *values[] = { category, akc_trace_record_get_detail (record) };

  g_ptr_array_add (self->audit, akc_json_value_new_object (names, values, 2));
}

static void
audit_append (AkcDemo          *self,
              AkcTraceCategory  category,
              const char       *detail_json)
{
  g_autoptr(AkcJsonValue) detail = akc_json_value_parse (detail_json, -1, NULL);
  g_autoptr(AkcTraceRecord) record = NULL;
  g_autoptr(GError) error = NULL;

  g_assert (detail != NULL);
  record = akc_trace_capture_append (self->capture, category, detail,
                                     akc_trace_capture_get_current_turn (self->capture), NULL, &error);
  if (record == NULL)
    g_warning ("Audit record not kept: %s", error->message);
}

/* One action trace per distinct token and status; the projection never
 * carries the token, the input or the session (§10.1). */
static void
audit_records (AkcDemo   *self,
               GPtrArray *records)
{
  for (guint i = 0; i < records->len; i++)
    {
      AkcConfirmationRecord *record = g_ptr_array_index (records, i);
      const char *status = akc_confirmation_status_to_string (akc_confirmation_record_get_status (record));
      char *key = g_strconcat (akc_confirmation_record_get_token (record), "\n", status, NULL);
      g_autoptr(AkcTraceRecord) trace = NULL;
      g_autoptr(GError) error = NULL;

      if (!g_hash_table_add (self->audited_actions, key))
        continue;

      trace = akc_trace_capture_capture_action (self->capture, record,
                                                akc_trace_capture_get_current_turn (self->capture), &error);
      if (trace == NULL)
        g_warning ("Audit record not kept: %s", error->message);
    }
}

/* The coordinator's store: the demo keeps its records in memory and
 * audits every change. */
#define AKC_TYPE_DEMO_AUDIT_STORE (akc_demo_audit_store_get_type ())
G_DECLARE_FINAL_TYPE (AkcDemoAuditStore, akc_demo_audit_store, AKC, DEMO_AUDIT_STORE, GObject)

struct _AkcDemoAuditStore
{
  GObject  parent_instance;
  AkcDemo *demo; /* unowned: the demo owns the coordinator, which owns the store */
};

static void
audit_store_save_records_async (AkcConfirmationStore *store,
                                GPtrArray            *records,
                                GCancellable         *cancellable,
                                GAsyncReadyCallback   callback,
                                gpointer              user_data)
{
  AkcDemoAuditStore *self = AKC_DEMO_AUDIT_STORE (store);
  g_autoptr(GTask) task = g_task_new (store, cancellable, callback, user_data);

  g_task_set_source_tag (task, audit_store_save_records_async);
  audit_records (self->demo, records);
  g_task_return_boolean (task, TRUE);
}

static gboolean
audit_store_save_records_finish (AkcConfirmationStore  *store,
                                 GAsyncResult          *result,
                                 GError               **error)
{
  return g_task_propagate_boolean (G_TASK (result), error);
}

static void
akc_demo_audit_store_iface_init (AkcConfirmationStoreInterface *iface)
{
  iface->save_records_async = audit_store_save_records_async;
  iface->save_records_finish = audit_store_save_records_finish;
}

G_DEFINE_FINAL_TYPE_WITH_CODE (AkcDemoAuditStore, akc_demo_audit_store, G_TYPE_OBJECT,
                               G_IMPLEMENT_INTERFACE (AKC_TYPE_CONFIRMATION_STORE, akc_demo_audit_store_iface_init))

static void
akc_demo_audit_store_class_init (AkcDemoAuditStoreClass *klass)
{
}

static void
akc_demo_audit_store_init (AkcDemoAuditStore *self)
{
}

/* Routes ---------------------------------------------------------------- */

static char *
respond_text (AkcRoute    *route,
              const char  *input,
              const char  *session_id,
              const char  *message_id,
              gpointer     user_data,
              GError     **error)
{
  return g_strdup (user_data);
}

static void
add_text_route (AkcConversation    *conversation,
                const char         *id,
                const char         *command,
                const char         *event,
                const char * const *states,
                const char         *reply)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(AkcRoute) route = akc_route_new_command (id, command, event, states,
                                                     AKC_TRACE_KIND_DETERMINISTIC,
                                                     respond_text, (gpointer) reply, NULL,
                                                     &error);

  g_assert_no_error (error);
  akc_conversation_add_route (conversation, route);
}

/* A route whose reply is one fixed choice-list frame. Its instance id is
 * @prefix followed by the turn's id (§3.8), or @prefix alone when
 * @per_turn is FALSE. */
typedef struct
{
  const char *prefix;
  gboolean    per_turn;
  const char *props;
  const char *summary;
} ChoiceFrame;

static char *
respond_choice_frame (AkcRoute    *route,
                      const char  *input,
                      const char  *session_id,
                      const char  *message_id,
                      gpointer     user_data,
                      GError     **error)
{
  const ChoiceFrame *choice = user_data;
  g_autofree char *instance_id = choice->per_turn
                                 ? g_strconcat (choice->prefix, turn_id (session_id, message_id), NULL)
                                 : g_strdup (choice->prefix);

  return frame_json ("choice-list", instance_id, choice->props, "choice-list", choice->summary);
}

static void
add_frame_route (AkcConversation   *conversation,
                 const char        *id,
                 const char        *command,
                 const char        *event,
                 const ChoiceFrame *choice)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(AkcRoute) route = akc_route_new_command (id, command, event, NULL,
                                                     AKC_TRACE_KIND_DETERMINISTIC,
                                                     respond_choice_frame, (gpointer) choice, NULL, &error);

  g_assert_no_error (error);
  akc_conversation_add_route (conversation, route);
}

static AkcComponentManifest *
manifest_of (const char * const *keys)
{
  g_autoptr(GPtrArray) definitions = g_ptr_array_new ();
  g_autoptr(GError) error = NULL;
  AkcComponentManifest *manifest;

  for (guint i = 0; keys[i] != NULL; i++)
    g_ptr_array_add (definitions, akc_component_definition_get_standard (keys[i]));

  manifest = akc_component_manifest_new ((AkcComponentDefinition * const *) definitions->pdata,
                                         definitions->len, &error);
  g_assert_no_error (error);
  return manifest;
}

static AkcTool *
tool_with_schema (const char  *name,
                  const char  *schema_json,
                  AkcToolFunc  func,
                  gpointer     user_data)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(AkcJsonSchema) schema = akc_json_schema_new_from_string (schema_json, &error);
  AkcTool *tool;

  g_assert_no_error (error);
  tool = akc_tool_new (name, TRUE, func, user_data, NULL);
  akc_tool_set_argument_schema (tool, schema);

  return tool;
}

/* hello-world (§13.1) -------------------------------------------------- */

static const ChoiceFrame restricted_choice = {
  "restricted-choice", FALSE,
  "{\"prompt\":\"Restricted action\",\"choices\":[{\"id\":\"run\","
  "\"label\":\"Run restricted action\",\"action\":{\"name\":\"restricted-action\",\"input\":{}}}]}",
  "Restricted action is unavailable.",
};


static char *
run_restricted (AkcTool       *tool,
                AkcJsonValue  *arguments,
                gpointer       user_data,
                GError       **error)
{
  /* The policy denies every proposal: this never runs. */
  return g_strdup ("Restricted action ran.");
}

static AkcConversation *
hello_world_conversation (void)
{
  AkcConversation *conversation = akc_conversation_new ("idle");
  const char * const collecting[] = { "collecting", NULL };

  akc_conversation_add_state (conversation, "idle", (const char * const []) { "start", "restricted", NULL });
  akc_conversation_add_transition (conversation, "idle", "start", "collecting");
  akc_conversation_add_transition (conversation, "idle", "restricted", "idle");
  akc_conversation_add_state (conversation, "collecting", (const char * const []) { "cancel", NULL });
  akc_conversation_add_transition (conversation, "collecting", "finish", "complete");
  akc_conversation_add_state (conversation, "complete", (const char * const []) { "restart", NULL });

  add_text_route (conversation, "start", "/start", "start", NULL, "What is your name?");
  add_text_route (conversation, "finish", "/name Ada", "finish", collecting, "Welcome, Ada.");
  add_frame_route (conversation, "restricted", "/restricted", "restricted", &restricted_choice);

  return conversation;
}

/* support (§13.2) ------------------------------------------------------- */

static const ChoiceFrame support_choice = {
  "support-ticket-choice-", TRUE,
  "{\"prompt\":\"Would you like a human support specialist to follow up?\",\"choices\":["
  "{\"id\":\"create\",\"label\":\"Open support ticket\",\"description\":\"Requires confirmation before creation.\","
  "\"action\":{\"name\":\"create-support-ticket\",\"input\":{\"subject\":\"Chat follow-up requested\",\"priority\":\"normal\"}}},"
  "{\"id\":\"continue\",\"label\":\"Keep chatting\"}]}",
  "Open a support ticket or keep chatting.",
};


#define TICKET_PREFIX "Ticket SUP-"

/* The number in "Ticket SUP-«n» created…", or 0. */
static guint
ticket_number (const char *text)
{
  guint64 n;

  if (text == NULL || !g_str_has_prefix (text, TICKET_PREFIX) ||
      !g_ascii_isdigit (text[strlen (TICKET_PREFIX)]))
    return 0;
  n = g_ascii_strtoull (text + strlen (TICKET_PREFIX), NULL, 10);
  return n <= G_MAXUINT ? (guint) n : 0;
}

/* The highest ticket the conversation already shows: a conversation read
 * back from the history after a restart keeps its tickets, and the next
 * one must not take an id a person has seen (SUP-1 twice). */
static guint
highest_ticket (AkcDemo *demo)
{
  GListModel *messages;
  guint highest = 0;

  if (demo == NULL || demo->chat == NULL)
    return 0;

  messages = akc_chat_source_get_messages (AKC_CHAT_SOURCE (demo->chat));
  for (guint i = 0; i < g_list_model_get_n_items (messages); i++)
    {
      g_autoptr(AkcMessage) message = g_list_model_get_item (messages, i);
      GListModel *calls = akc_message_get_tool_calls (message);

      if (akc_message_get_role (message) == AKC_MESSAGE_ROLE_TOOL)
        highest = MAX (highest, ticket_number (akc_message_get_content (message)));
      for (guint j = 0; j < g_list_model_get_n_items (calls); j++)
        {
          g_autoptr(AkcToolCall) call = g_list_model_get_item (calls, j);

          highest = MAX (highest, ticket_number (akc_tool_call_get_result (call)));
        }
    }

  return highest;
}

/* The stand-in ticket service of §13: SUP-1, SUP-2, … in the order
 * tickets are created, across restarts of a conversation kept in the
 * history too. */
static char *
run_create_ticket (AkcTool       *tool,
                   AkcJsonValue  *arguments,
                   gpointer       user_data,
                   GError       **error)
{
  Services *services = user_data;

  services->tickets = MAX (services->tickets, highest_ticket (services->demo)) + 1;
  return g_strdup_printf ("Ticket SUP-%u created for follow-up.", services->tickets);
}

static AkcConversation *
support_conversation (void)
{
  AkcConversation *conversation = akc_conversation_new ("ready");
  const char * const collecting[] = { "collecting", NULL };

  akc_conversation_add_state (conversation, "ready", (const char * const []) { "support", "start", NULL });
  akc_conversation_add_transition (conversation, "ready", "support", "ready");
  akc_conversation_add_transition (conversation, "ready", "start", "collecting");
  akc_conversation_add_state (conversation, "collecting", (const char * const []) { "finish", NULL });
  akc_conversation_add_transition (conversation, "collecting", "finish", "ready");

  add_text_route (conversation, "start", "/start", "start", NULL, "What is your name?");
  add_text_route (conversation, "finish", "/name Ada", "finish", collecting, "Welcome, Ada.");
  add_frame_route (conversation, "support-ticket", "/support", "support", &support_choice);

  return conversation;
}

/* onboarding (§13.3) ---------------------------------------------------- */

#define ONBOARDING_FORM_PROPS \
  "{\"title\":\"Tell us how you work\",\"submitLabel\":\"Save answers\",\"fields\":[" \
  "{\"id\":\"role\",\"label\":\"Primary role\",\"type\":\"select\",\"required\":true,\"options\":[" \
  "{\"id\":\"engineering\",\"label\":\"Engineering\"},{\"id\":\"product\",\"label\":\"Product\"},{\"id\":\"support\",\"label\":\"Support\"}]}," \
  "{\"id\":\"goal\",\"label\":\"First goal\",\"type\":\"text\",\"required\":true,\"placeholder\":\"Automate customer handoffs\"}]}"

static const char * const onboarding_roles[] = { "engineering", "product", "support", NULL };

static char *
onboarding_form (const char *instance_id)
{
  return frame_json ("form", instance_id, ONBOARDING_FORM_PROPS,
                     "text", "Collect your primary role and first goal.");
}

static void
onboarding_forget_profile (OnboardingMemory *memory)
{
  g_clear_pointer (&memory->role, g_free);
  g_clear_pointer (&memory->goal, g_free);
  g_clear_pointer (&memory->decision, g_free);
  memory->completed = FALSE;
}

typedef enum
{
  GUARD_NONE,
  GUARD_PROFILE,
  GUARD_ACCEPTED,
  GUARD_REVISABLE,
  GUARD_COMPLETED,
} Guard;

typedef struct
{
  AkcDemo    *demo;      /* unowned: the demo owns the definition */
  const char *command;
  Guard       guard;
} OnboardingRoute;

static gboolean
onboarding_match (AkcRoute    *route,
                  const char  *input,
                  gpointer     user_data,
                  GError     **error)
{
  OnboardingRoute *data = user_data;
  OnboardingMemory *memory = &data->demo->onboarding;

  if (strcmp (input, data->command) != 0)
    return FALSE;

  switch (data->guard)
    {
    case GUARD_PROFILE:
      return memory->role != NULL;
    case GUARD_ACCEPTED:
      return g_strcmp0 (memory->decision, "accept") == 0;
    case GUARD_REVISABLE:
      return g_strcmp0 (memory->decision, "revise") == 0 || memory->role != NULL;
    case GUARD_COMPLETED:
      return memory->completed;
    case GUARD_NONE:
    default:
      return TRUE;
    }
}

static char *
onboarding_respond (AkcRoute    *route,
                    const char  *input,
                    const char  *session_id,
                    const char  *message_id,
                    gpointer     user_data,
                    GError     **error)
{
  OnboardingRoute *data = user_data;
  OnboardingMemory *memory = &data->demo->onboarding;
  const char *id = turn_id (session_id, message_id);
  const char *route_id = akc_route_get_id (route);

  if (strcmp (route_id, "begin") == 0)
    {
      g_autofree char *instance_id = g_strconcat ("onboarding-form-", id, NULL);

      g_free (memory->active_form_id);
      memory->active_form_id = g_strdup (instance_id);
      memory->completed = FALSE;
      return onboarding_form (instance_id);
    }

  if (strcmp (route_id, "recommend") == 0)
    {
      g_autofree char *instance_id = g_strconcat ("onboarding-recommendation-", id, NULL);
      g_autofree char *title = g_strdup_printf ("%s starter", memory->role);
      g_autofree char *description = g_strdup_printf ("A guided workspace for %s.", memory->goal);
      g_autofree char *title_json = quote (title);
      g_autofree char *description_json = quote (description);
      g_autofree char *props = NULL;
      g_autofree char *summary = g_strdup_printf ("%s: %s", title, description);

      g_free (memory->active_recommendation_id);
      memory->active_recommendation_id = g_strdup (instance_id);
      props = g_strdup_printf ("{\"prompt\":%s,\"choices\":[{\"id\":\"accept\",\"label\":\"Use this setup\",\"description\":%s},"
                               "{\"id\":\"revise\",\"label\":\"Revise answers\"}]}",
                               title_json, description_json);
      return frame_json ("choice-list", instance_id, props, "text", summary);
    }

  if (strcmp (route_id, "accept") == 0)
    {
      g_autofree char *instance_id = g_strconcat ("onboarding-complete-", id, NULL);

      return frame_json ("choice-list", instance_id,
                         "{\"prompt\":\"Ready to create your workspace?\",\"choices\":[{\"id\":\"complete\","
                         "\"label\":\"Complete onboarding\",\"action\":{\"name\":\"complete-onboarding\",\"input\":{}}}]}",
                         "text", "Confirm onboarding completion.");
    }

  if (strcmp (route_id, "revise") == 0)
    {
      g_autofree char *instance_id = g_strconcat ("onboarding-form-", id, NULL);

      /* The form comes again; the one that is active stays active (only
       * /onboarding starts a new collection), as the reference does. */
      onboarding_forget_profile (memory);
      return onboarding_form (instance_id);
    }

  return g_strdup ("Onboarding complete. Your guided workspace is ready.");
}

static void
add_onboarding_route (AkcDemo            *demo,
                      AkcConversation    *conversation,
                      const char         *id,
                      const char         *command,
                      const char * const *states,
                      Guard               guard)
{
  OnboardingRoute *data = g_new0 (OnboardingRoute, 1);
  g_autoptr(AkcRoute) route = NULL;

  data->demo = demo;
  data->command = command;
  data->guard = guard;
  route = akc_route_new (id, id, states, AKC_TRACE_KIND_DETERMINISTIC,
                         onboarding_match, onboarding_respond, data, g_free);
  akc_conversation_add_route (conversation, route);
}

static char *
run_complete_onboarding (AkcTool       *tool,
                         AkcJsonValue  *arguments,
                         gpointer       user_data,
                         GError       **error)
{
  AkcDemo *demo = user_data;

  demo->onboarding.completed = TRUE;
  return g_strdup ("Onboarding confirmed.");
}

static AkcConversation *
onboarding_conversation (AkcDemo *demo)
{
  AkcConversation *conversation = akc_conversation_new ("welcome");
  const char * const revisable[] = { "review", "confirming", NULL };

  akc_conversation_add_state (conversation, "welcome", (const char * const []) { "begin", NULL });
  akc_conversation_add_transition (conversation, "welcome", "begin", "collecting");
  akc_conversation_add_state (conversation, "collecting", (const char * const []) { "recommend", NULL });
  akc_conversation_add_transition (conversation, "collecting", "recommend", "review");
  akc_conversation_add_state (conversation, "review", (const char * const []) { "accept", "revise", NULL });
  akc_conversation_add_transition (conversation, "review", "accept", "confirming");
  akc_conversation_add_transition (conversation, "review", "revise", "collecting");
  akc_conversation_add_state (conversation, "confirming", (const char * const []) { "done", "revise", NULL });
  akc_conversation_add_transition (conversation, "confirming", "done", "complete");
  akc_conversation_add_transition (conversation, "confirming", "revise", "collecting");
  akc_conversation_add_state (conversation, "complete", NULL);

  add_onboarding_route (demo, conversation, "begin", "/onboarding", NULL, GUARD_NONE);
  add_onboarding_route (demo, conversation, "recommend", "/recommend", NULL, GUARD_PROFILE);
  add_onboarding_route (demo, conversation, "accept", "/accept", NULL, GUARD_ACCEPTED);
  add_onboarding_route (demo, conversation, "revise", "/revise", revisable, GUARD_REVISABLE);
  add_onboarding_route (demo, conversation, "done", "/done", NULL, GUARD_COMPLETED);

  return conversation;
}

/* operations (§13.4) ---------------------------------------------------- */

static const ChoiceFrame operations_choice = {
  "operations-", TRUE,
  "{\"prompt\":\"Operation checkout-api\",\"choices\":["
  "{\"id\":\"status\",\"label\":\"Read status\",\"action\":{\"name\":\"read-operation-status\",\"input\":{\"id\":\"checkout-api\"}}},"
  "{\"id\":\"restart\",\"label\":\"Restart operation\",\"description\":\"Requires restart capability and confirmation.\","
  "\"action\":{\"name\":\"restart-operation\",\"input\":{\"id\":\"checkout-api\"}}}]}",
  "Read or restart checkout-api.",
};

#define OPERATION_SCHEMA \
  "{\"type\":\"object\",\"properties\":{\"id\":{\"type\":\"string\",\"pattern\":\"^[a-z][a-z0-9-]{0,63}$\"}}," \
  "\"required\":[\"id\"],\"additionalProperties\":false}"


static const char *
operation_id (AkcJsonValue *arguments)
{
  return akc_json_value_get_string (akc_json_value_get_member (arguments, "id"), NULL);
}

static char *
run_read_status (AkcTool       *tool,
                 AkcJsonValue  *arguments,
                 gpointer       user_data,
                 GError       **error)
{
  Services *services = user_data;

  return g_strdup_printf ("%s is healthy at revision %u.", operation_id (arguments), services->restarts + 1);
}

static char *
run_restart (AkcTool       *tool,
             AkcJsonValue  *arguments,
             gpointer       user_data,
             GError       **error)
{
  Services *services = user_data;
  g_autofree char *key = g_strdup_printf ("%s:%s", services->session_id,
                                          services->executing_call_id != NULL ? services->executing_call_id : "");
  const char *done = g_hash_table_lookup (services->restart_results, key);
  char *result;

  g_autofree char *call = quote (services->executing_call_id != NULL ? services->executing_call_id : "");
  g_autofree char *operation = quote (operation_id (arguments));
  g_autofree char *detail = NULL;

  /* Idempotent per «sessionId»:«toolCallId». */
  if (done != NULL)
    return g_strdup (done);

  detail = g_strdup_printf ("{\"action\":\"restart-operation\",\"phase\":\"confirmed-execution\","
                            "\"toolCallId\":%s,\"operationId\":%s}", call, operation);
  audit_append (services->demo, AKC_TRACE_CATEGORY_ACTION, detail);

  services->restarts++;
  result = g_strdup_printf ("%s restarted at revision %u.", operation_id (arguments), services->restarts + 1);
  g_hash_table_insert (services->restart_results, g_steal_pointer (&key), g_strdup (result));

  g_free (detail);
  detail = g_strdup_printf ("{\"action\":\"restart-operation\",\"phase\":\"result\",\"toolCallId\":%s,"
                            "\"operationId\":%s,\"status\":\"healthy\",\"revision\":%u}",
                            call, operation, services->restarts + 1);
  audit_append (services->demo, AKC_TRACE_CATEGORY_LIFECYCLE, detail);

  return result;
}

static AkcConversation *
operations_conversation (void)
{
  AkcConversation *conversation = akc_conversation_new ("ready");

  akc_conversation_add_state (conversation, "ready", (const char * const []) { "operations", NULL });
  akc_conversation_add_transition (conversation, "ready", "operations", "ready");
  add_frame_route (conversation, "operations", "/operations", "operations", &operations_choice);

  return conversation;
}

/* The demo object ------------------------------------------------------- */

/* The trusted host context of the demo (§13) for @session_id: the
 * support demo's names its customer. The demo's own chat and every host
 * of its definition (akc_demo_new_policy()) build it here. */
static AkcJsonValue *
context_for (AkcDemo    *self,
             const char *session_id,
             const char *customer_id)
{
  g_autoptr(GString) text = NULL;
  g_autofree char *session = NULL;

  if (!self->has_context)
    return NULL;

  session = quote (session_id);
  text = g_string_new (NULL);
  g_string_append_printf (text, "{\"sessionId\":%s,", session);
  if (g_strcmp0 (self->id, "support") == 0 && customer_id != NULL)
    {
      g_autofree char *customer = quote (customer_id);

      g_string_append_printf (text, "\"customerId\":%s,", customer);
    }
  g_string_append (text, "\"capabilities\":[");
  for (guint i = 0; self->capabilities[i] != NULL; i++)
    {
      g_autofree char *capability = quote (self->capabilities[i]);

      g_string_append_printf (text, "%s%s", i > 0 ? "," : "", capability);
    }
  g_string_append (text, "]}");

  return parse (text->str);
}

static AkcJsonValue *
host_context (AkcCapabilityPolicy  *policy,
              gpointer              user_data,
              GError              **error)
{
  AkcDemo *self = user_data;

  return context_for (self, self->session_id, "customer-demo");
}

typedef struct
{
  AkcDemo *demo;
  char    *session_id;
  char    *customer_id;
} HostSession;

static void
host_session_free (gpointer data)
{
  HostSession *host = data;

  g_object_unref (host->demo);
  g_free (host->session_id);
  g_free (host->customer_id);
  g_free (host);
}

static AkcJsonValue *
host_session_context (AkcCapabilityPolicy  *policy,
                      gpointer              user_data,
                      GError              **error)
{
  HostSession *host = user_data;

  return context_for (host->demo, host->session_id, host->customer_id);
}

/* The chat's own authorizer, which the policy composes with: asked only
 * after the policy's decision allowed a call, so at execute time it tells
 * the services which call is about to run (a restart is idempotent per
 * call). It never denies. */
static char *
note_execution (AkcChat      *chat,
                AkcToolCall  *tool_call,
                AkcToolPhase  phase,
                gpointer      user_data)
{
  AkcDemo *self = user_data;

  if (phase == AKC_TOOL_PHASE_EXECUTE)
    {
      g_free (self->services.executing_call_id);
      self->services.executing_call_id = g_strdup (akc_tool_call_get_id (tool_call));
    }

  return NULL;
}

static void
akc_demo_finalize (GObject *object)
{
  AkcDemo *self = AKC_DEMO (object);

  g_clear_object (&self->interaction);
  g_clear_object (&self->confirmation);
  g_clear_object (&self->policy);
  g_clear_object (&self->chat);
  g_clear_object (&self->session);
  g_clear_object (&self->definition);
  g_clear_object (&self->echo);
  g_clear_pointer (&self->capabilities, g_strfreev);
  g_clear_pointer (&self->requirements, akc_json_value_unref);
  g_clear_pointer (&self->id, g_free);
  g_clear_pointer (&self->session_id, g_free);

  onboarding_forget_profile (&self->onboarding);
  g_clear_pointer (&self->onboarding.active_form_id, g_free);
  g_clear_pointer (&self->onboarding.active_recommendation_id, g_free);
  g_clear_pointer (&self->services.restart_results, g_hash_table_unref);
  g_clear_pointer (&self->services.executing_call_id, g_free);
  g_clear_pointer (&self->services.session_id, g_free);
  g_clear_pointer (&self->audit, g_ptr_array_unref);
  g_clear_pointer (&self->audited_actions, g_hash_table_unref);
  g_clear_object (&self->capture);

  G_OBJECT_CLASS (akc_demo_parent_class)->finalize (object);
}

static void
akc_demo_class_init (AkcDemoClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = akc_demo_finalize;
}

static void
akc_demo_init (AkcDemo *self)
{
  self->services.restart_results = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  self->services.demo = self;
  self->audit = g_ptr_array_new_with_free_func ((GDestroyNotify) akc_json_value_unref);
  self->audited_actions = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  self->capture = akc_trace_capture_new (redacted_fields);
  g_signal_connect (self->capture, "record-added", G_CALLBACK (on_record_added), self);
}

static const char *
default_session_id (const char *id)
{
  if (strcmp (id, "hello-world") == 0)
    return "example";
  return NULL;
}

static gboolean
on_choice_selected (AkcInteractionController *interaction,
                    AkcJsonValue             *frame,
                    const char               *choice_id,
                    const char               *label,
                    AkcDemo                  *self)
{
  return akc_demo_select (self, frame, choice_id);
}

static gboolean
on_interaction (AkcInteractionController *interaction,
                AkcJsonValue             *frame,
                const char               *event,
                AkcJsonValue             *value,
                AkcDemo                  *self)
{
  return akc_demo_interact (self, frame, event, value);
}

/* What happens when the person answers a card (application.md §12.7):
 * the demo's intent handlers behind the interaction controller. */
static void
setup_interaction (AkcDemo *self)
{
  g_autoptr(AkcComponentManifest) standard = NULL;
  AkcComponentManifest *manifest = akc_definition_get_manifest (self->definition);

  if (manifest == NULL)
    manifest = standard = akc_component_manifest_new_standard ();

  self->interaction = akc_interaction_controller_new (AKC_CHAT_SOURCE (self->chat));
  akc_interaction_controller_set_manifest (self->interaction, manifest);
  akc_interaction_controller_set_confirmation (self->interaction, self->confirmation);
  akc_interaction_controller_set_session_id (self->interaction, self->session_id);
  g_signal_connect_object (self->interaction, "choice-selected", G_CALLBACK (on_choice_selected), self, 0);
  g_signal_connect_object (self->interaction, "interaction", G_CALLBACK (on_interaction), self, 0);
}

static gboolean
akc_demo_setup (AkcDemo             *self,
                const char          *session_id,
                const char * const  *capabilities,
                AkcAdapter          *model,
                GError             **error)
{
  g_autoptr(AkcConversation) conversation = NULL;
  g_autoptr(AkcComponentManifest) manifest = NULL;
  g_autoptr(AkcJsonValue) requirements = NULL;
  g_autoptr(AkcConfirmationStore) store = NULL;
  const char *id = self->id;

  self->echo = AKC_ECHO_ADAPTER (akc_echo_adapter_new ());
  /* What answers when no route does: the given model, or the echo. */
  if (model == NULL)
    model = AKC_ADAPTER (self->echo);
  if (session_id != NULL)
    self->session_id = g_strdup (session_id);
  else if (default_session_id (id) != NULL)
    self->session_id = g_strdup (default_session_id (id));
  else
    self->session_id = g_strconcat (id, "-demo", NULL);
  self->services.session_id = g_strdup (self->session_id);

  if (strcmp (id, "rag") == 0)
    {
      g_autoptr(AkcAdapter) adapter = akc_rag_demo_adapter_new ();

      self->definition = akc_definition_new ("rag-reference", adapter);
      self->session = akc_session_new (self->definition, self->session_id, error);
      if (self->session == NULL)
        return FALSE;
      akc_trace_capture_watch_session (self->capture, self->session);
      self->chat = akc_session_create_chat (self->session);
      setup_interaction (self);
      return TRUE;
    }

  if (strcmp (id, "hello-world") == 0)
    {
      g_autoptr(AkcTool) restricted = akc_tool_new ("restricted-action", TRUE, run_restricted, NULL, NULL);

      self->definition = akc_definition_new ("hello-world", model);
      conversation = hello_world_conversation ();
      manifest = manifest_of ((const char * const []) { "choice-list", NULL });
      akc_definition_add_tool (self->definition, restricted);
      requirements = parse ("{\"restricted-action\":[\"example.restricted\"]}");
      /* The context is always absent: every proposal is denied. */
      self->has_context = FALSE;
    }
  else if (strcmp (id, "support") == 0)
    {
      g_autoptr(AkcTool) ticket = NULL;

      ticket = tool_with_schema ("create-support-ticket",
                                 "{\"type\":\"object\",\"properties\":{"
                                 "\"subject\":{\"type\":\"string\",\"minLength\":1,\"maxLength\":160},"
                                 "\"priority\":{\"type\":\"string\",\"enum\":[\"normal\",\"urgent\"]}},"
                                 "\"required\":[\"subject\",\"priority\"],\"additionalProperties\":false}",
                                 run_create_ticket, &self->services);
      akc_tool_set_title (ticket, _("Create a support ticket"));
      akc_tool_set_description (ticket, _("A support specialist will follow up on this conversation."));
      self->definition = akc_definition_new ("support-reference", model);
      conversation = support_conversation ();
      manifest = manifest_of ((const char * const []) { "choice-list", NULL });
      akc_definition_add_tool (self->definition, ticket);
      requirements = parse ("{\"create-support-ticket\":[\"support.ticket.create\"]}");
      self->has_context = TRUE;
      self->capabilities = g_strdupv ((char **) (capabilities != NULL ? capabilities :
                                                 (const char * const []) { "support.ticket.create", NULL }));
    }
  else if (strcmp (id, "onboarding") == 0)
    {
      g_autoptr(AkcTool) complete = NULL;

      complete = tool_with_schema ("complete-onboarding",
                                   "{\"type\":\"object\",\"properties\":{},\"additionalProperties\":false}",
                                   run_complete_onboarding, self);
      akc_tool_set_title (complete, _("Complete onboarding"));
      akc_tool_set_description (complete, _("Saves your answers and finishes setting up your workspace."));
      self->definition = akc_definition_new ("onboarding-reference", model);
      conversation = onboarding_conversation (self);
      manifest = manifest_of ((const char * const []) { "form", "choice-list", NULL });
      akc_definition_add_tool (self->definition, complete);
      requirements = parse ("{\"complete-onboarding\":[\"onboarding.complete\"]}");
      self->has_context = TRUE;
      self->capabilities = g_strdupv ((char **) (capabilities != NULL ? capabilities :
                                                 (const char * const []) { "onboarding.complete", NULL }));
    }
  else if (strcmp (id, "operations") == 0)
    {
      g_autoptr(AkcTool) read_status = tool_with_schema ("read-operation-status", OPERATION_SCHEMA,
                                                         run_read_status, &self->services);
      g_autoptr(AkcTool) restart = tool_with_schema ("restart-operation", OPERATION_SCHEMA,
                                                     run_restart, &self->services);

      akc_tool_set_title (read_status, _("Read the service status"));
      akc_tool_set_description (read_status, _("Reads how the service is doing. Nothing is changed."));
      akc_tool_set_title (restart, _("Restart the service"));
      akc_tool_set_description (restart, _("The service stops and starts again. It is unavailable while it restarts."));
      /* A restart interrupts whoever uses the service. */
      akc_tool_set_dangerous (restart, TRUE);

      self->definition = akc_definition_new ("operations-reference", model);
      conversation = operations_conversation ();
      manifest = manifest_of ((const char * const []) { "choice-list", NULL });
      akc_definition_add_tool (self->definition, read_status);
      akc_definition_add_tool (self->definition, restart);
      requirements = parse ("{\"read-operation-status\":[\"operations.read\"],"
                            "\"restart-operation\":[\"operations.restart\"]}");
      self->has_context = TRUE;
      self->capabilities = g_strdupv ((char **) (capabilities != NULL ? capabilities :
                                                 (const char * const []) { "operations.read", "operations.restart", NULL }));
    }
  else
    {
      g_set_error (error, AKC_ERROR, AKC_ERROR_CONFIG_INVALID, "There is no demo named %s.", id);
      return FALSE;
    }

  if (self->capabilities == NULL)
    self->capabilities = g_new0 (char *, 1);

  akc_definition_set_conversation (self->definition, conversation);
  akc_definition_set_manifest (self->definition, manifest);

  self->session = akc_session_new (self->definition, self->session_id, error);
  if (self->session == NULL)
    return FALSE;
  akc_trace_capture_watch_session (self->capture, self->session);
  self->chat = akc_session_create_chat (self->session);

  self->requirements = akc_json_value_ref (requirements);
  self->policy = akc_capability_policy_new (self->session_id, requirements, error);
  if (self->policy == NULL)
    return FALSE;
  akc_capability_policy_set_context_func (self->policy, host_context, self, NULL);
  akc_trace_capture_watch_policy (self->capture, self->policy);
  akc_chat_set_tool_authorizer (self->chat, note_execution, self, NULL);
  akc_capability_policy_install (self->policy, self->chat);

  store = g_object_new (AKC_TYPE_DEMO_AUDIT_STORE, NULL);
  AKC_DEMO_AUDIT_STORE (store)->demo = self;
  self->confirmation = akc_action_confirmation_new (self->session_id, AKC_CHAT_SOURCE (self->chat),
                                                    AKC_ACTION_CONFIRMATION_DEFAULT_TTL_MS,
                                                    NULL, store, error);
  if (self->confirmation == NULL)
    return FALSE;

  setup_interaction (self);
  return TRUE;
}

/**
 * akc_demo_new_full:
 * @id: a demo id, one of [func@demo_get_ids]
 * @session_id: (nullable): the session id, or %NULL for the demo's own
 * @capabilities: (nullable) (array zero-terminated=1): the capabilities of
 *   the trusted host context, or %NULL for the demo's own
 * @model: (nullable): what answers the messages no route answers, or %NULL
 *   for the deterministic echo adapter
 * @error: return location for a #GError
 *
 * Starts a demo in a session of its own with a host that grants
 * @capabilities. The rag demo answers with its own adapter whatever
 * @model is.
 *
 * Returns: (transfer full) (nullable): the demo, or %NULL with @error set
 */
AkcDemo *
akc_demo_new_full (const char          *id,
                   const char          *session_id,
                   const char * const  *capabilities,
                   AkcAdapter          *model,
                   GError             **error)
{
  g_autoptr(AkcDemo) self = NULL;

  g_return_val_if_fail (id != NULL, NULL);

  self = g_object_new (AKC_TYPE_DEMO, NULL);
  self->id = g_strdup (id);
  if (!akc_demo_setup (self, session_id, capabilities, model, error))
    return NULL;

  return g_steal_pointer (&self);
}

/* Every change of a record of the session-bound coordinator is audited,
 * as the in-memory store audits the records it is given. */
static void
on_session_record_changed (AkcActionConfirmation *confirmation,
                           AkcConfirmationRecord *record,
                           AkcDemo               *self)
{
  g_autoptr(GPtrArray) records = g_ptr_array_new ();

  g_ptr_array_add (records, record);
  audit_records (self, records);
}

static void
on_session_attached (GObject      *source,
                     GAsyncResult *result,
                     gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  AkcDemo *self = g_task_get_source_object (task);
  g_autoptr(AkcActionConfirmation) confirmation = NULL;
  g_autoptr(GPtrArray) proposed = NULL;
  GError *error = NULL;

  if (!akc_session_attach_storage_finish (AKC_SESSION (source), result, &error))
    {
      g_task_return_error (task, error);
      return;
    }

  /* The confirmations go with the session: kept in its snapshot, each
   * status claimed there before it is taken, so a confirmation pending at
   * a restart comes back pending and is resolved once. A coordinator that
   * proposed something already keeps its records in memory. */
  if (self->confirmation != NULL)
    proposed = akc_action_confirmation_get_snapshot (self->confirmation);
  if (self->confirmation != NULL && proposed->len == 0)
    {
      confirmation = akc_session_create_confirmation (self->session, AKC_CHAT_SOURCE (self->chat),
                                                      AKC_ACTION_CONFIRMATION_DEFAULT_TTL_MS, &error);
      if (confirmation == NULL)
        {
          g_task_return_error (task, error);
          return;
        }
      g_signal_connect_object (confirmation, "record-changed", G_CALLBACK (on_session_record_changed), self, 0);
      g_set_object (&self->confirmation, confirmation);
      akc_interaction_controller_set_confirmation (self->interaction, confirmation);
    }

  g_task_return_boolean (task, TRUE);
}

/**
 * akc_demo_attach_storage_async:
 * @self: a #AkcDemo
 * @storage: where the demo's session is kept
 * @cancellable: (nullable): a #GCancellable
 * @callback: called when the session is attached
 * @user_data: data for @callback
 *
 * Keeps the demo's session in @storage (akc_session_attach_storage_async()):
 * a demo made again for a conversation kept in the history goes on from
 * where it was, its state, routes and confirmations included.
 */
void
akc_demo_attach_storage_async (AkcDemo             *self,
                               AkcSessionStorage   *storage,
                               GCancellable        *cancellable,
                               GAsyncReadyCallback  callback,
                               gpointer             user_data)
{
  GTask *task;

  g_return_if_fail (AKC_IS_DEMO (self));
  g_return_if_fail (AKC_IS_SESSION_STORAGE (storage));

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, akc_demo_attach_storage_async);
  akc_session_attach_storage_async (self->session, storage, cancellable, on_session_attached, task);
}

/**
 * akc_demo_attach_storage_finish:
 * @self: a #AkcDemo
 * @result: the result
 * @error: return location for a #GError
 *
 * Returns: %TRUE when the session is kept in the storage, or %FALSE with
 *   @error set (the session goes on without it)
 */
gboolean
akc_demo_attach_storage_finish (AkcDemo       *self,
                                GAsyncResult  *result,
                                GError       **error)
{
  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);

  return g_task_propagate_boolean (G_TASK (result), error);
}

/**
 * akc_demo_new_with_capabilities:
 * @id: a demo id, one of [func@demo_get_ids]
 * @capabilities: (nullable) (array zero-terminated=1): the capabilities of
 *   the trusted host context, or %NULL for the demo's own
 * @error: return location for a #GError
 *
 * Starts a demo whose host grants @capabilities, such as the unauthorized
 * operator of the operations demo (no capabilities).
 *
 * Returns: (transfer full) (nullable): the demo, or %NULL with @error set
 */
AkcDemo *
akc_demo_new_with_capabilities (const char          *id,
                                const char * const  *capabilities,
                                GError             **error)
{
  return akc_demo_new_full (id, NULL, capabilities, NULL, error);
}

/**
 * akc_demo_new:
 * @id: a demo id, one of [func@demo_get_ids]
 * @error: return location for a #GError
 *
 * Starts a demo as §13 describes it.
 *
 * Returns: (transfer full) (nullable): the demo, or %NULL with @error set
 */
AkcDemo *
akc_demo_new (const char  *id,
              GError     **error)
{
  return akc_demo_new_with_capabilities (id, NULL, error);
}

const char *
akc_demo_get_id (AkcDemo *self)
{
  g_return_val_if_fail (AKC_IS_DEMO (self), NULL);
  return self->id;
}

const char *
akc_demo_get_session_id (AkcDemo *self)
{
  g_return_val_if_fail (AKC_IS_DEMO (self), NULL);
  return self->session_id;
}

/**
 * akc_demo_get_chat:
 * @self: a #AkcDemo
 *
 * Returns: (transfer none): the conversation the transcript shows
 */
AkcChat *
akc_demo_get_chat (AkcDemo *self)
{
  g_return_val_if_fail (AKC_IS_DEMO (self), NULL);
  return self->chat;
}

AkcSession *
akc_demo_get_session (AkcDemo *self)
{
  g_return_val_if_fail (AKC_IS_DEMO (self), NULL);
  return self->session;
}

/**
 * akc_demo_get_state:
 * @self: a #AkcDemo
 *
 * Returns: (nullable): the conversation's state, or %NULL for a demo
 *   without routes
 */
const char *
akc_demo_get_state (AkcDemo *self)
{
  g_return_val_if_fail (AKC_IS_DEMO (self), NULL);
  return akc_session_get_state (self->session);
}

/**
 * akc_demo_get_policy:
 * @self: a #AkcDemo
 *
 * Returns: (transfer none) (nullable): the capability policy, or %NULL for
 *   a demo without actions
 */
AkcCapabilityPolicy *
akc_demo_get_policy (AkcDemo *self)
{
  g_return_val_if_fail (AKC_IS_DEMO (self), NULL);
  return self->policy;
}

/**
 * akc_demo_dup_host_context:
 * @self: a demo
 * @session_id: a session of a host of the demo's definition
 * @customer_id: (nullable): the customer the host serves, or %NULL
 *
 * Builds the trusted host context of the demo (§13) for @session_id, as
 * its own chat has it for its own session: the demo's capabilities and,
 * for the support demo, @customer_id as `customerId`.
 *
 * Returns: (transfer full) (nullable): the context, or %NULL for a demo
 *   whose host never has one (hello-world, rag)
 */
AkcJsonValue *
akc_demo_dup_host_context (AkcDemo    *self,
                           const char *session_id,
                           const char *customer_id)
{
  g_return_val_if_fail (AKC_IS_DEMO (self), NULL);
  g_return_val_if_fail (session_id != NULL, NULL);

  return context_for (self, session_id, customer_id);
}

/**
 * akc_demo_new_policy:
 * @self: a demo
 * @session_id: the session of another host of the demo's definition
 * @customer_id: (nullable): the customer the host serves, such as its
 *   authenticated subject (the support demo names it in its context; the
 *   others ignore it), or %NULL when it is not known
 * @error: return location for a #GError
 *
 * Creates a capability policy like the demo's own, for a host that serves
 * the demo's definition in @session_id (akc-server): the same action
 * requirements, and the trusted host context built by the demo's code for
 * @session_id and @customer_id, with the demo's capabilities. Install it on
 * the chat of that session with akc_capability_policy_install().
 *
 * Returns: (transfer full) (nullable): the policy, or %NULL when the demo
 *   has no actions (rag, @error untouched) or @session_id is invalid
 *   (@error set)
 */
AkcCapabilityPolicy *
akc_demo_new_policy (AkcDemo     *self,
                     const char  *session_id,
                     const char  *customer_id,
                     GError     **error)
{
  g_autoptr(AkcCapabilityPolicy) policy = NULL;
  HostSession *host;

  g_return_val_if_fail (AKC_IS_DEMO (self), NULL);
  g_return_val_if_fail (session_id != NULL, NULL);

  if (self->requirements == NULL)
    return NULL;
  policy = akc_capability_policy_new (session_id, self->requirements, error);
  if (policy == NULL)
    return NULL;
  host = g_new0 (HostSession, 1);
  host->demo = g_object_ref (self);
  host->session_id = g_strdup (session_id);
  host->customer_id = g_strdup (customer_id);
  akc_capability_policy_set_context_func (policy, host_session_context, host, host_session_free);
  return g_steal_pointer (&policy);
}

/**
 * akc_demo_get_confirmation:
 * @self: a #AkcDemo
 *
 * Returns: (transfer none) (nullable): the coordinator that proposes the
 *   demo's actions and resolves their confirmations, or %NULL for a demo
 *   without actions
 */
AkcActionConfirmation *
akc_demo_get_confirmation (AkcDemo *self)
{
  g_return_val_if_fail (AKC_IS_DEMO (self), NULL);
  return self->confirmation;
}

/**
 * akc_demo_get_interaction:
 * @self: a #AkcDemo
 *
 * Gets what acts on the person's answers to the demo's cards: the demo's
 * chat, manifest and confirmation coordinator, with its intent handlers
 * ([method@Demo.select], [method@Demo.interact]) connected.
 *
 * Returns: (transfer none): the interaction controller
 */
AkcInteractionController *
akc_demo_get_interaction (AkcDemo *self)
{
  g_return_val_if_fail (AKC_IS_DEMO (self), NULL);
  return self->interaction;
}

/**
 * akc_demo_get_audit:
 * @self: a #AkcDemo
 *
 * Gets the demo's audit trail: policy decisions, one record per action
 * status, and the operations service's executions and results, each
 * `{category, detail}` with `token`, `secret` and `credential` redacted.
 *
 * Returns: (transfer none) (element-type AkcJsonValue): the records
 */
GPtrArray *
akc_demo_get_audit (AkcDemo *self)
{
  g_return_val_if_fail (AKC_IS_DEMO (self), NULL);
  return self->audit;
}

/**
 * akc_demo_get_trace_capture:
 * @self: a #AkcDemo
 *
 * Gets the demo's trace capture: every turn of its session, every
 * decision of its policy, every status of its actions and what its
 * services did, redacted; the audit trail ([method@Demo.get_audit]) is
 * the same without the turns. For a live view of why things happened.
 *
 * Returns: (transfer none): the capture
 */
AkcTraceCapture *
akc_demo_get_trace_capture (AkcDemo *self)
{
  g_return_val_if_fail (AKC_IS_DEMO (self), NULL);
  return self->capture;
}

/**
 * akc_demo_set_reply_interval:
 * @self: a #AkcDemo
 * @interval_ms: milliseconds between the echo adapter's words
 *
 * Sets how fast the stand-in model answers, when the demo was not given
 * a model of its own.
 */
void
akc_demo_set_reply_interval (AkcDemo *self,
                             guint    interval_ms)
{
  g_return_if_fail (AKC_IS_DEMO (self));

  if (self->echo != NULL)
    akc_echo_adapter_set_chunk_interval (self->echo, interval_ms);
}

static const char *
frame_instance_id (AkcJsonValue *frame)
{
  return akc_json_value_get_string (akc_json_value_get_member (frame, "instanceId"), NULL);
}

static const char *
frame_key (AkcJsonValue *frame)
{
  return akc_json_value_get_string (akc_json_value_get_member (frame, "componentKey"), NULL);
}

/**
 * akc_demo_interact:
 * @self: a #AkcDemo
 * @frame: the frame the person acted on
 * @event: the interaction's event, such as `submit`
 * @value: (nullable): the interaction's value
 *
 * Hands an interaction to the demo's intent handlers. The onboarding demo
 * accepts a form submission only in `collecting`, for the form that is
 * active, when the catalog accepts the value, the role is one of the
 * offered ones and the goal is not blank; stale or forged instances are
 * ignored.
 *
 * Returns: %TRUE if the demo acted on the interaction
 */
gboolean
akc_demo_interact (AkcDemo      *self,
                   AkcJsonValue *frame,
                   const char   *event,
                   AkcJsonValue *value)
{
  OnboardingMemory *memory = &self->onboarding;
  g_autoptr(AkcJsonValue) interaction = NULL;
  g_autofree char *goal = NULL;
  AkcJsonValue *role_value;
  AkcJsonValue *goal_value;
  const char *role;

  g_return_val_if_fail (AKC_IS_DEMO (self), FALSE);
  g_return_val_if_fail (frame != NULL, FALSE);
  g_return_val_if_fail (event != NULL, FALSE);

  if (strcmp (self->id, "onboarding") != 0 ||
      g_strcmp0 (frame_key (frame), "form") != 0 ||
      strcmp (event, "submit") != 0 ||
      g_strcmp0 (akc_demo_get_state (self), "collecting") != 0 ||
      g_strcmp0 (frame_instance_id (frame), memory->active_form_id) != 0 ||
      value == NULL)
    return FALSE;

  interaction = akc_component_interaction_event_new (frame, event, value, NULL);
  if (interaction == NULL)
    return FALSE;

  role_value = akc_json_value_get_member (value, "role");
  goal_value = akc_json_value_get_member (value, "goal");
  if (role_value == NULL || akc_json_value_get_kind (role_value) != AKC_JSON_KIND_STRING ||
      goal_value == NULL || akc_json_value_get_kind (goal_value) != AKC_JSON_KIND_STRING)
    return FALSE;

  role = akc_json_value_get_string (role_value, NULL);
  goal = js_trim (akc_json_value_get_string (goal_value, NULL));
  if (!g_strv_contains (onboarding_roles, role) || goal[0] == '\0')
    return FALSE;

  g_free (memory->role);
  memory->role = g_strdup (role);
  g_free (memory->goal);
  memory->goal = g_steal_pointer (&goal);

  return TRUE;
}

/**
 * akc_demo_select:
 * @self: a #AkcDemo
 * @frame: the choice-list frame
 * @choice_id: the chosen choice's id
 *
 * Hands a selection to the demo's intent handlers. The onboarding demo
 * records the decision of its active recommendation, in `review` only.
 *
 * Returns: %TRUE if the demo acted on the selection
 */
gboolean
akc_demo_select (AkcDemo      *self,
                 AkcJsonValue *frame,
                 const char   *choice_id)
{
  OnboardingMemory *memory = &self->onboarding;

  g_return_val_if_fail (AKC_IS_DEMO (self), FALSE);
  g_return_val_if_fail (frame != NULL, FALSE);
  g_return_val_if_fail (choice_id != NULL, FALSE);

  if (strcmp (self->id, "onboarding") != 0 ||
      g_strcmp0 (akc_demo_get_state (self), "review") != 0 ||
      g_strcmp0 (frame_instance_id (frame), memory->active_recommendation_id) != 0 ||
      (strcmp (choice_id, "accept") != 0 && strcmp (choice_id, "revise") != 0))
    return FALSE;

  g_free (memory->decision);
  memory->decision = g_strdup (choice_id);

  return TRUE;
}
