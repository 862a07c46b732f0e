/* akc-definition.c
 *
 * SPDX-License-Identifier: MIT
 */

#include "config.h"

#include "akc-definition.h"

/**
 * AkcDefinition:
 *
 * What a chat application is ([application §3.1](wire-formats.html#application-3)): an id and a revision,
 * the upstream [iface@Adapter] that answers model turns, the tools the
 * controller may call, an optional [class@Conversation] of deterministic
 * routes, an optional [class@ComponentManifest] of custom components, and
 * an optional choice-submission hook (§2.8).
 *
 * A definition is run by [class@Session]s: each session compiles it when
 * it is created, and the id and revision are what a stored session
 * snapshot must match to be resumed. Change the revision when a change to
 * the conversation makes old snapshots meaningless.
 *
 * Since: 0.1
 */

struct _AkcDefinition
{
  GObject                  parent_instance;

  char                    *id;
  gint64                   revision;
  AkcAdapter              *adapter;
  AkcConversation         *conversation;
  AkcComponentManifest    *manifest;
  char                    *system_prompt;
  GListStore              *tools;

  AkcChoiceSubmissionFunc  choice_func;
  gpointer                 choice_data;
  GDestroyNotify           choice_destroy;

  /* Where every session keeps its messages, or NULL. */
  AkcChatMemory           *memory;

  /* The capability policy every session of the definition enforces. */
  AkcJsonValue            *policy_requirements;
  AkcPolicyContextFunc     policy_context;
  gpointer                 policy_context_data;
  GDestroyNotify           policy_context_destroy;
};

G_DEFINE_FINAL_TYPE (AkcDefinition, akc_definition, G_TYPE_OBJECT)

enum {
  PROP_0,
  PROP_ID,
  PROP_REVISION,
  PROP_ADAPTER,
  PROP_CONVERSATION,
  PROP_MANIFEST,
  PROP_SYSTEM_PROMPT,
  N_PROPS
};

static GParamSpec *props[N_PROPS];

static void
akc_definition_finalize (GObject *object)
{
  AkcDefinition *self = AKC_DEFINITION (object);

  if (self->choice_destroy != NULL)
    self->choice_destroy (self->choice_data);
  if (self->policy_context_destroy != NULL)
    self->policy_context_destroy (self->policy_context_data);
  g_clear_pointer (&self->policy_requirements, akc_json_value_unref);
  g_clear_object (&self->memory);
  g_free (self->id);
  g_clear_object (&self->adapter);
  g_clear_object (&self->conversation);
  g_clear_object (&self->manifest);
  g_free (self->system_prompt);
  g_clear_object (&self->tools);

  G_OBJECT_CLASS (akc_definition_parent_class)->finalize (object);
}

static void
akc_definition_get_property (GObject    *object,
                             guint       prop_id,
                             GValue     *value,
                             GParamSpec *pspec)
{
  AkcDefinition *self = AKC_DEFINITION (object);

  switch (prop_id)
    {
    case PROP_ID:
      g_value_set_string (value, self->id);
      break;
    case PROP_REVISION:
      g_value_set_int64 (value, self->revision);
      break;
    case PROP_ADAPTER:
      g_value_set_object (value, self->adapter);
      break;
    case PROP_CONVERSATION:
      g_value_set_object (value, self->conversation);
      break;
    case PROP_MANIFEST:
      g_value_set_object (value, self->manifest);
      break;
    case PROP_SYSTEM_PROMPT:
      g_value_set_string (value, self->system_prompt);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
akc_definition_set_property (GObject      *object,
                             guint         prop_id,
                             const GValue *value,
                             GParamSpec   *pspec)
{
  AkcDefinition *self = AKC_DEFINITION (object);

  switch (prop_id)
    {
    case PROP_ID:
      g_free (self->id);
      self->id = g_value_dup_string (value);
      break;
    case PROP_REVISION:
      akc_definition_set_revision (self, g_value_get_int64 (value));
      break;
    case PROP_ADAPTER:
      akc_definition_set_adapter (self, g_value_get_object (value));
      break;
    case PROP_CONVERSATION:
      akc_definition_set_conversation (self, g_value_get_object (value));
      break;
    case PROP_MANIFEST:
      akc_definition_set_manifest (self, g_value_get_object (value));
      break;
    case PROP_SYSTEM_PROMPT:
      akc_definition_set_system_prompt (self, g_value_get_string (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
akc_definition_class_init (AkcDefinitionClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->finalize = akc_definition_finalize;
  object_class->get_property = akc_definition_get_property;
  object_class->set_property = akc_definition_set_property;

  /**
   * AkcDefinition:id:
   *
   * The definition id. Persisted sessions need an identifier
   * ([application §0.3](wire-formats.html#application-0)).
   *
   * Since: 0.1
   */
  props[PROP_ID] =
    g_param_spec_string ("id", NULL, NULL, "",
                         G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);

  /**
   * AkcDefinition:revision:
   *
   * The definition revision, a positive safe integer (checked when a
   * session is created).
   *
   * Since: 0.1
   */
  props[PROP_REVISION] =
    g_param_spec_int64 ("revision", NULL, NULL, G_MININT64, G_MAXINT64, 1,
                        G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);

  /**
   * AkcDefinition:adapter:
   *
   * The upstream adapter: what answers the turns no route answers.
   *
   * Since: 0.1
   */
  props[PROP_ADAPTER] =
    g_param_spec_object ("adapter", NULL, NULL, AKC_TYPE_ADAPTER,
                         G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);

  /**
   * AkcDefinition:conversation:
   *
   * The deterministic routes and state machine, or %NULL.
   *
   * Since: 0.1
   */
  props[PROP_CONVERSATION] =
    g_param_spec_object ("conversation", NULL, NULL, AKC_TYPE_CONVERSATION,
                         G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);

  /**
   * AkcDefinition:manifest:
   *
   * The component manifest of the application, or %NULL for the standard
   * catalog.
   *
   * Since: 0.1
   */
  props[PROP_MANIFEST] =
    g_param_spec_object ("manifest", NULL, NULL, AKC_TYPE_COMPONENT_MANIFEST,
                         G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);

  /**
   * AkcDefinition:system-prompt:
   *
   * The system prompt every model request carries, or %NULL.
   *
   * Since: 0.1
   */
  props[PROP_SYSTEM_PROMPT] =
    g_param_spec_string ("system-prompt", NULL, NULL, NULL,
                         G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);

  g_object_class_install_properties (object_class, N_PROPS, props);
}

static void
akc_definition_init (AkcDefinition *self)
{
  self->revision = 1;
  self->tools = g_list_store_new (AKC_TYPE_TOOL);
}

/**
 * akc_definition_new:
 * @id: the definition id
 * @adapter: (nullable): the upstream adapter
 *
 * Creates a definition at revision 1 without conversation, manifest or
 * tools.
 *
 * Returns: (transfer full): a new #AkcDefinition
 *
 * Since: 0.1
 */
AkcDefinition *
akc_definition_new (const char *id,
                    AkcAdapter *adapter)
{
  g_return_val_if_fail (id != NULL, NULL);
  g_return_val_if_fail (adapter == NULL || AKC_IS_ADAPTER (adapter), NULL);

  return g_object_new (AKC_TYPE_DEFINITION, "id", id, "adapter", adapter, NULL);
}

/**
 * akc_definition_get_id:
 * @self: a #AkcDefinition
 *
 * Gets the definition id.
 *
 * Returns: the id
 *
 * Since: 0.1
 */
const char *
akc_definition_get_id (AkcDefinition *self)
{
  g_return_val_if_fail (AKC_IS_DEFINITION (self), NULL);

  return self->id != NULL ? self->id : "";
}

/**
 * akc_definition_get_revision:
 * @self: a #AkcDefinition
 *
 * Gets the definition revision.
 *
 * Returns: the revision
 *
 * Since: 0.1
 */
gint64
akc_definition_get_revision (AkcDefinition *self)
{
  g_return_val_if_fail (AKC_IS_DEFINITION (self), 0);

  return self->revision;
}

/**
 * akc_definition_set_revision:
 * @self: a #AkcDefinition
 * @revision: the revision
 *
 * Sets the definition revision. Sessions reject a revision that is not a
 * positive safe integer with “Chat definition revision is invalid.”
 *
 * Since: 0.1
 */
void
akc_definition_set_revision (AkcDefinition *self,
                             gint64         revision)
{
  g_return_if_fail (AKC_IS_DEFINITION (self));

  if (self->revision == revision)
    return;

  self->revision = revision;
  g_object_notify_by_pspec (G_OBJECT (self), props[PROP_REVISION]);
}

/**
 * akc_definition_get_adapter:
 * @self: a #AkcDefinition
 *
 * Gets the upstream adapter.
 *
 * Returns: (transfer none) (nullable): the adapter
 *
 * Since: 0.1
 */
AkcAdapter *
akc_definition_get_adapter (AkcDefinition *self)
{
  g_return_val_if_fail (AKC_IS_DEFINITION (self), NULL);

  return self->adapter;
}

/**
 * akc_definition_set_adapter:
 * @self: a #AkcDefinition
 * @adapter: (nullable): the upstream adapter
 *
 * Sets the upstream adapter. Sessions created before keep theirs
 * (see [method@Session.set_upstream]).
 *
 * Since: 0.1
 */
void
akc_definition_set_adapter (AkcDefinition *self,
                            AkcAdapter    *adapter)
{
  g_return_if_fail (AKC_IS_DEFINITION (self));
  g_return_if_fail (adapter == NULL || AKC_IS_ADAPTER (adapter));

  if (g_set_object (&self->adapter, adapter))
    g_object_notify_by_pspec (G_OBJECT (self), props[PROP_ADAPTER]);
}

/**
 * akc_definition_get_conversation:
 * @self: a #AkcDefinition
 *
 * Gets the conversation.
 *
 * Returns: (transfer none) (nullable): the conversation
 *
 * Since: 0.1
 */
AkcConversation *
akc_definition_get_conversation (AkcDefinition *self)
{
  g_return_val_if_fail (AKC_IS_DEFINITION (self), NULL);

  return self->conversation;
}

/**
 * akc_definition_set_conversation:
 * @self: a #AkcDefinition
 * @conversation: (nullable): the conversation
 *
 * Sets the conversation.
 *
 * Since: 0.1
 */
void
akc_definition_set_conversation (AkcDefinition   *self,
                                 AkcConversation *conversation)
{
  g_return_if_fail (AKC_IS_DEFINITION (self));
  g_return_if_fail (conversation == NULL || AKC_IS_CONVERSATION (conversation));

  if (g_set_object (&self->conversation, conversation))
    g_object_notify_by_pspec (G_OBJECT (self), props[PROP_CONVERSATION]);
}

/**
 * akc_definition_get_manifest:
 * @self: a #AkcDefinition
 *
 * Gets the component manifest.
 *
 * Returns: (transfer none) (nullable): the manifest
 *
 * Since: 0.1
 */
AkcComponentManifest *
akc_definition_get_manifest (AkcDefinition *self)
{
  g_return_val_if_fail (AKC_IS_DEFINITION (self), NULL);

  return self->manifest;
}

/**
 * akc_definition_set_manifest:
 * @self: a #AkcDefinition
 * @manifest: (nullable): the manifest
 *
 * Sets the component manifest.
 *
 * Since: 0.1
 */
void
akc_definition_set_manifest (AkcDefinition        *self,
                             AkcComponentManifest *manifest)
{
  g_return_if_fail (AKC_IS_DEFINITION (self));
  g_return_if_fail (manifest == NULL || AKC_IS_COMPONENT_MANIFEST (manifest));

  if (g_set_object (&self->manifest, manifest))
    g_object_notify_by_pspec (G_OBJECT (self), props[PROP_MANIFEST]);
}

/**
 * akc_definition_get_system_prompt:
 * @self: a #AkcDefinition
 *
 * Gets the system prompt.
 *
 * Returns: (nullable): the system prompt
 *
 * Since: 0.1
 */
const char *
akc_definition_get_system_prompt (AkcDefinition *self)
{
  g_return_val_if_fail (AKC_IS_DEFINITION (self), NULL);

  return self->system_prompt;
}

/**
 * akc_definition_set_system_prompt:
 * @self: a #AkcDefinition
 * @system_prompt: (nullable): the system prompt
 *
 * Sets the system prompt.
 *
 * Since: 0.1
 */
void
akc_definition_set_system_prompt (AkcDefinition *self,
                                  const char    *system_prompt)
{
  g_return_if_fail (AKC_IS_DEFINITION (self));

  if (g_strcmp0 (self->system_prompt, system_prompt) == 0)
    return;

  g_free (self->system_prompt);
  self->system_prompt = g_strdup (system_prompt);
  g_object_notify_by_pspec (G_OBJECT (self), props[PROP_SYSTEM_PROMPT]);
}

/**
 * akc_definition_add_tool:
 * @self: a #AkcDefinition
 * @tool: a tool
 *
 * Adds a tool the controller of each session may call (registered on the
 * chats [method@Session.create_chat] makes).
 *
 * Since: 0.1
 */
void
akc_definition_add_tool (AkcDefinition *self,
                         AkcTool       *tool)
{
  g_return_if_fail (AKC_IS_DEFINITION (self));
  g_return_if_fail (AKC_IS_TOOL (tool));

  g_list_store_append (self->tools, tool);
}

/**
 * akc_definition_get_tools:
 * @self: a #AkcDefinition
 *
 * Gets the tools.
 *
 * Returns: (transfer none): a list of [class@Tool]
 *
 * Since: 0.1
 */
GListModel *
akc_definition_get_tools (AkcDefinition *self)
{
  g_return_val_if_fail (AKC_IS_DEFINITION (self), NULL);

  return G_LIST_MODEL (self->tools);
}

/**
 * akc_definition_set_choice_submission:
 * @self: a #AkcDefinition
 * @func: (nullable) (scope notified) (closure user_data) (destroy destroy):
 *   the hook, or %NULL
 * @user_data: data for @func
 * @destroy: (nullable): frees @user_data
 *
 * Sets the choice-submission hook ([application §2.8](wire-formats.html#application-2)).
 *
 * Since: 0.1
 */
void
akc_definition_set_choice_submission (AkcDefinition           *self,
                                      AkcChoiceSubmissionFunc  func,
                                      gpointer                 user_data,
                                      GDestroyNotify           destroy)
{
  g_return_if_fail (AKC_IS_DEFINITION (self));

  if (self->choice_destroy != NULL)
    self->choice_destroy (self->choice_data);
  self->choice_func = func;
  self->choice_data = user_data;
  self->choice_destroy = destroy;
}

/**
 * akc_definition_set_choice_reservations:
 * @self: a #AkcDefinition
 * @reservations: (nullable): the reservations that answer deterministic
 *   choices, or %NULL for no hook
 *
 * Sets the choice-submission hook to @reservations: each choice without an
 * action is answered as [method@ChoiceReservations.claim] answers it. This
 * is [method@Definition.set_choice_submission] with
 * `akc_choice_reservations_submission_func()`, in a form language bindings
 * can call.
 *
 * Since: 0.1
 */
void
akc_definition_set_choice_reservations (AkcDefinition         *self,
                                        AkcChoiceReservations *reservations)
{
  g_return_if_fail (AKC_IS_DEFINITION (self));
  g_return_if_fail (reservations == NULL || AKC_IS_CHOICE_RESERVATIONS (reservations));

  if (reservations == NULL)
    akc_definition_set_choice_submission (self, NULL, NULL, NULL);
  else
    akc_definition_set_choice_submission (self, akc_choice_reservations_submission_func,
                                          g_object_ref (reservations), g_object_unref);
}

/**
 * akc_definition_has_choice_submission:
 * @self: a #AkcDefinition
 *
 * Gets whether the definition has a choice-submission hook.
 *
 * Returns: %TRUE if it has one
 *
 * Since: 0.1
 */
gboolean
akc_definition_has_choice_submission (AkcDefinition *self)
{
  g_return_val_if_fail (AKC_IS_DEFINITION (self), FALSE);

  return self->choice_func != NULL;
}

/**
 * akc_definition_submit_choice:
 * @self: a #AkcDefinition
 * @frame: the choice-list frame
 * @choice_id: the chosen choice
 * @session_id: the session
 * @error: return location for a #GError
 *
 * Runs the choice-submission hook.
 *
 * Returns: (transfer full) (nullable): the hook's answer; %NULL without
 *   @error when there is no hook or it has no answer
 *
 * Since: 0.1
 */
AkcChoiceSubmission *
akc_definition_submit_choice (AkcDefinition  *self,
                              AkcJsonValue   *frame,
                              const char     *choice_id,
                              const char     *session_id,
                              GError        **error)
{
  g_return_val_if_fail (AKC_IS_DEFINITION (self), NULL);
  g_return_val_if_fail (frame != NULL, NULL);
  g_return_val_if_fail (choice_id != NULL, NULL);
  g_return_val_if_fail (session_id != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  if (self->choice_func == NULL)
    return NULL;

  return self->choice_func (frame, choice_id, session_id, self->choice_data, error);
}

/**
 * akc_definition_set_policy:
 * @self: a #AkcDefinition
 * @requirements: (nullable): the capabilities each action needs, a JSON
 *   object from action name to a list of capability names, or %NULL for no
 *   policy
 * @context: (nullable) (scope notified) (closure context_data) (destroy context_destroy):
 *   returns the trusted host context of a session
 * @context_data: data for @context
 * @context_destroy: (nullable): frees @context_data
 * @error: return location for a #GError
 *
 * Puts the actions of the definition behind a capability policy
 * ([application §5.4](wire-formats.html#application-5)): every session builds an [class@CapabilityPolicy]
 * for its own id from @requirements and @context and installs it on the
 * conversations it creates ([method@Session.create_chat]). The
 * requirements are checked now: invalid ones fail with
 * %AKC_ERROR_CONFIG_INVALID and leave the definition as it was.
 *
 * Returns: %TRUE if the policy was set
 *
 * Since: 0.1
 */
gboolean
akc_definition_set_policy (AkcDefinition         *self,
                           AkcJsonValue          *requirements,
                           AkcPolicyContextFunc   context,
                           gpointer               context_data,
                           GDestroyNotify         context_destroy,
                           GError               **error)
{
  g_return_val_if_fail (AKC_IS_DEFINITION (self), FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  if (requirements != NULL)
    {
      /* The same checks as a session's policy will make. */
      g_autoptr(AkcCapabilityPolicy) check = akc_capability_policy_new (self->id, requirements, error);

      if (check == NULL)
        {
          if (context_destroy != NULL)
            context_destroy (context_data);
          return FALSE;
        }
    }

  if (self->policy_context_destroy != NULL)
    self->policy_context_destroy (self->policy_context_data);
  g_clear_pointer (&self->policy_requirements, akc_json_value_unref);

  self->policy_requirements = requirements != NULL ? akc_json_value_ref (requirements) : NULL;
  self->policy_context = requirements != NULL ? context : NULL;
  self->policy_context_data = context_data;
  self->policy_context_destroy = context_destroy;
  if (requirements == NULL && context_destroy != NULL)
    {
      context_destroy (context_data);
      self->policy_context_data = NULL;
      self->policy_context_destroy = NULL;
    }

  return TRUE;
}

/**
 * akc_definition_new_policy:
 * @self: a #AkcDefinition
 * @session_id: the session the policy guards
 *
 * Builds the capability policy of one session, as
 * [method@Definition.set_policy] describes it.
 *
 * Returns: (transfer full) (nullable): a new policy, or %NULL when the
 *   definition has none
 *
 * Since: 0.1
 */
AkcCapabilityPolicy *
akc_definition_new_policy (AkcDefinition *self,
                           const char    *session_id)
{
  g_autoptr(GError) error = NULL;
  AkcCapabilityPolicy *policy;

  g_return_val_if_fail (AKC_IS_DEFINITION (self), NULL);
  g_return_val_if_fail (session_id != NULL, NULL);

  if (self->policy_requirements == NULL)
    return NULL;

  policy = akc_capability_policy_new (session_id, self->policy_requirements, &error);
  /* The requirements were checked when they were set; a session id is an
   * Identifier, so it is not empty. */
  g_assert_no_error (error);
  if (self->policy_context != NULL)
    akc_capability_policy_set_context_func (policy, self->policy_context, self->policy_context_data, NULL);

  return policy;
}

/**
 * akc_definition_get_memory:
 * @self: a #AkcDefinition
 *
 * Gets where the sessions of the definition keep their messages.
 *
 * Returns: (transfer none) (nullable): the message memory, or %NULL
 *
 * Since: 0.1
 */
AkcChatMemory *
akc_definition_get_memory (AkcDefinition *self)
{
  g_return_val_if_fail (AKC_IS_DEFINITION (self), NULL);

  return self->memory;
}

/**
 * akc_definition_set_memory:
 * @self: a #AkcDefinition
 * @memory: (nullable): the message memory, or %NULL to keep messages in
 *   memory only
 *
 * Sets where the sessions of the definition keep their messages: each
 * conversation a session creates ([method@Session.create_chat]) is read
 * from and written to the stored conversation named after the session id,
 * through an [class@ChatHistory] ([method@Session.get_history]).
 *
 * Since: 0.1
 */
void
akc_definition_set_memory (AkcDefinition *self,
                           AkcChatMemory *memory)
{
  g_return_if_fail (AKC_IS_DEFINITION (self));
  g_return_if_fail (memory == NULL || AKC_IS_CHAT_MEMORY (memory));

  g_set_object (&self->memory, memory);
}
