/* akc-tool.c
 *
 * SPDX-License-Identifier: MIT
 */

#include "config.h"

#include "akc-tool.h"

#include "akc-error.h"

/**
 * AkcTool:
 *
 * A tool the local controller, [class@Chat], can run.
 *
 * A tool has a name (an Identifier, [application §0.3](wire-formats.html#application-0)), says whether a
 * person must confirm each call before it runs, and runs through an
 * [callback@ToolFunc]. A tool that requires confirmation never runs before
 * [method@ChatSource.approve] ([application §5.1](wire-formats.html#application-5)); one that does not runs
 * as soon as the model calls it. A tool without a function runs with an
 * empty result.
 *
 * Since: 0.1
 */

struct _AkcTool
{
  GObject         parent_instance;

  char           *name;
  AkcToolFunc     func;
  gpointer        user_data;
  GDestroyNotify  destroy;
  gboolean        requires_confirmation;
  AkcJsonSchema  *argument_schema;
  char           *title;
  char           *description;
  gboolean        dangerous;
};

G_DEFINE_FINAL_TYPE (AkcTool, akc_tool, G_TYPE_OBJECT)

enum {
  PROP_0,
  PROP_NAME,
  PROP_REQUIRES_CONFIRMATION,
  PROP_ARGUMENT_SCHEMA,
  PROP_TITLE,
  PROP_DESCRIPTION,
  PROP_DANGEROUS,
  N_PROPS
};

static GParamSpec *props[N_PROPS];

static void
akc_tool_finalize (GObject *object)
{
  AkcTool *self = (AkcTool *)object;

  if (self->destroy != NULL)
    g_clear_pointer (&self->user_data, self->destroy);
  g_clear_pointer (&self->name, g_free);
  g_clear_pointer (&self->title, g_free);
  g_clear_pointer (&self->description, g_free);
  g_clear_pointer (&self->argument_schema, akc_json_schema_unref);

  G_OBJECT_CLASS (akc_tool_parent_class)->finalize (object);
}

static void
akc_tool_get_property (GObject    *object,
                       guint       prop_id,
                       GValue     *value,
                       GParamSpec *pspec)
{
  AkcTool *self = AKC_TOOL (object);

  switch (prop_id)
    {
    case PROP_NAME:
      g_value_set_string (value, self->name);
      break;
    case PROP_REQUIRES_CONFIRMATION:
      g_value_set_boolean (value, self->requires_confirmation);
      break;
    case PROP_ARGUMENT_SCHEMA:
      g_value_set_boxed (value, self->argument_schema);
      break;
    case PROP_TITLE:
      g_value_set_string (value, self->title);
      break;
    case PROP_DESCRIPTION:
      g_value_set_string (value, self->description);
      break;
    case PROP_DANGEROUS:
      g_value_set_boolean (value, self->dangerous);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
akc_tool_set_property (GObject      *object,
                       guint         prop_id,
                       const GValue *value,
                       GParamSpec   *pspec)
{
  AkcTool *self = AKC_TOOL (object);

  switch (prop_id)
    {
    case PROP_NAME:
      g_free (self->name);
      self->name = g_value_dup_string (value);
      break;
    case PROP_REQUIRES_CONFIRMATION:
      self->requires_confirmation = g_value_get_boolean (value);
      break;
    case PROP_ARGUMENT_SCHEMA:
      akc_tool_set_argument_schema (self, g_value_get_boxed (value));
      break;
    case PROP_TITLE:
      akc_tool_set_title (self, g_value_get_string (value));
      break;
    case PROP_DESCRIPTION:
      akc_tool_set_description (self, g_value_get_string (value));
      break;
    case PROP_DANGEROUS:
      akc_tool_set_dangerous (self, g_value_get_boolean (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
akc_tool_class_init (AkcToolClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->finalize = akc_tool_finalize;
  object_class->get_property = akc_tool_get_property;
  object_class->set_property = akc_tool_set_property;

  /**
   * AkcTool:name:
   *
   * The name models call the tool by.
   *
   * Since: 0.1
   */
  props[PROP_NAME] =
    g_param_spec_string ("name", NULL, NULL,
                         NULL,
                         (G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS));

  /**
   * AkcTool:requires-confirmation:
   *
   * Whether each call waits for a person to approve it.
   *
   * Since: 0.1
   */
  props[PROP_REQUIRES_CONFIRMATION] =
    g_param_spec_boolean ("requires-confirmation", NULL, NULL,
                          FALSE,
                          (G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS));

  /**
   * AkcTool:argument-schema:
   *
   * The JSON Schema a call's arguments must satisfy, or %NULL to accept
   * any JSON object. The controller checks it before a call is proposed
   * ([application §5.4](wire-formats.html#application-5) step 4).
   *
   * Since: 0.1
   */
  props[PROP_ARGUMENT_SCHEMA] =
    g_param_spec_boxed ("argument-schema", NULL, NULL,
                        AKC_TYPE_JSON_SCHEMA,
                        (G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));

  /**
   * AkcTool:title:
   *
   * What the tool does, for people, in sentence case and without a final
   * period, such as "Create a support ticket", or %NULL. A confirmation
   * leads with it instead of the tool's name.
   *
   * Since: 0.1
   */
  props[PROP_TITLE] =
    g_param_spec_string ("title", NULL, NULL,
                         NULL,
                         (G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));

  /**
   * AkcTool:description:
   *
   * One or two sentences that say what happens when a call runs, for the
   * person who approves it, or %NULL.
   *
   * Since: 0.1
   */
  props[PROP_DESCRIPTION] =
    g_param_spec_string ("description", NULL, NULL,
                         NULL,
                         (G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));

  /**
   * AkcTool:dangerous:
   *
   * Whether a call does something that cannot be undone (deleting,
   * restarting, paying): its approval is presented as a destructive
   * action. Other approvals are not.
   *
   * Since: 0.1
   */
  props[PROP_DANGEROUS] =
    g_param_spec_boolean ("dangerous", NULL, NULL,
                          FALSE,
                          (G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));

  g_object_class_install_properties (object_class, N_PROPS, props);
}

static void
akc_tool_init (AkcTool *self)
{
}

/**
 * akc_tool_new:
 * @name: the tool name
 * @requires_confirmation: whether each call waits for approval
 * @func: (nullable) (scope notified) (closure user_data) (destroy destroy): runs the tool
 * @user_data: data for @func
 * @destroy: (nullable): frees @user_data
 *
 * Creates a tool.
 *
 * Returns: (transfer full): a new #AkcTool
 *
 * Since: 0.1
 */
AkcTool *
akc_tool_new (const char     *name,
              gboolean        requires_confirmation,
              AkcToolFunc     func,
              gpointer        user_data,
              GDestroyNotify  destroy)
{
  AkcTool *self;

  g_return_val_if_fail (name != NULL, NULL);

  self = g_object_new (AKC_TYPE_TOOL,
                       "name", name,
                       "requires-confirmation", requires_confirmation,
                       NULL);
  self->func = func;
  self->user_data = user_data;
  self->destroy = destroy;

  return self;
}

/**
 * akc_tool_get_name:
 * @self: a #AkcTool
 *
 * Gets the name models call the tool by.
 *
 * Returns: (transfer none): the name
 *
 * Since: 0.1
 */
const char *
akc_tool_get_name (AkcTool *self)
{
  g_return_val_if_fail (AKC_IS_TOOL (self), NULL);

  return self->name;
}

/**
 * akc_tool_get_argument_schema:
 * @self: a #AkcTool
 *
 * Gets the schema a call's arguments must satisfy.
 *
 * Returns: (transfer none) (nullable): the schema, or %NULL
 *
 * Since: 0.1
 */
AkcJsonSchema *
akc_tool_get_argument_schema (AkcTool *self)
{
  g_return_val_if_fail (AKC_IS_TOOL (self), NULL);

  return self->argument_schema;
}

/**
 * akc_tool_set_argument_schema:
 * @self: a #AkcTool
 * @schema: (nullable): the schema, or %NULL to accept any JSON object
 *
 * Sets the schema a call's arguments must satisfy.
 *
 * Since: 0.1
 */
void
akc_tool_set_argument_schema (AkcTool       *self,
                              AkcJsonSchema *schema)
{
  g_return_if_fail (AKC_IS_TOOL (self));

  if (self->argument_schema == schema)
    return;

  g_clear_pointer (&self->argument_schema, akc_json_schema_unref);
  if (schema != NULL)
    self->argument_schema = akc_json_schema_ref (schema);

  g_object_notify_by_pspec (G_OBJECT (self), props[PROP_ARGUMENT_SCHEMA]);
}

/**
 * akc_tool_validate_arguments:
 * @self: a #AkcTool
 * @arguments: a call's arguments
 * @error: return location for a #GError
 *
 * Checks @arguments against the tool's argument schema. Without a schema
 * any value passes.
 *
 * Returns: %TRUE if the arguments are valid; otherwise %FALSE with @error
 *   set to %AKC_ERROR_TOOL_INVALID_INPUT
 *
 * Since: 0.1
 */
gboolean
akc_tool_validate_arguments (AkcTool       *self,
                             AkcJsonValue  *arguments,
                             GError       **error)
{
  g_return_val_if_fail (AKC_IS_TOOL (self), FALSE);
  g_return_val_if_fail (arguments != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  if (self->argument_schema == NULL)
    return TRUE;

  return akc_json_schema_validate (self->argument_schema, arguments, error);
}

/**
 * akc_tool_get_requires_confirmation:
 * @self: a #AkcTool
 *
 * Gets whether each call waits for approval.
 *
 * Returns: %TRUE if calls require confirmation
 *
 * Since: 0.1
 */
gboolean
akc_tool_get_requires_confirmation (AkcTool *self)
{
  g_return_val_if_fail (AKC_IS_TOOL (self), FALSE);

  return self->requires_confirmation;
}

/**
 * akc_tool_execute:
 * @self: a #AkcTool
 * @arguments: the arguments, a JSON object
 * @error: return location for a #GError
 *
 * Runs the tool. A tool without a function returns an empty result. When
 * the function fails, @error is the function's error, or
 * %AKC_ERROR_TOOL_FAILED when the function set none.
 *
 * Returns: (transfer full): the result text, or %NULL with @error set
 *
 * Since: 0.1
 */
char *
akc_tool_execute (AkcTool       *self,
                  AkcJsonValue  *arguments,
                  GError       **error)
{
  g_autoptr(GError) local_error = NULL;
  char *result;

  g_return_val_if_fail (AKC_IS_TOOL (self), NULL);
  g_return_val_if_fail (arguments != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  if (self->func == NULL)
    return g_strdup ("");

  result = self->func (self, arguments, self->user_data, &local_error);
  if (result == NULL)
    {
      /* A function that fails without saying why still fails. */
      if (local_error == NULL)
        local_error = g_error_new_literal (AKC_ERROR, AKC_ERROR_TOOL_FAILED, "The tool failed.");
      g_propagate_error (error, g_steal_pointer (&local_error));
      return NULL;
    }

  if (local_error != NULL)
    g_warning ("AkcToolFunc of “%s” returned a result and set an error", self->name);

  return result;
}

/**
 * akc_tool_get_title:
 * @self: a #AkcTool
 *
 * Gets what the tool does, for people.
 *
 * Returns: (nullable): the title, or %NULL
 *
 * Since: 0.1
 */
const char *
akc_tool_get_title (AkcTool *self)
{
  g_return_val_if_fail (AKC_IS_TOOL (self), NULL);

  return self->title;
}

/**
 * akc_tool_set_title:
 * @self: a #AkcTool
 * @title: (nullable): what the tool does, such as "Create a support ticket"
 *
 * Sets what the tool does, for people.
 *
 * Since: 0.1
 */
void
akc_tool_set_title (AkcTool    *self,
                    const char *title)
{
  g_return_if_fail (AKC_IS_TOOL (self));

  if (g_strcmp0 (self->title, title) == 0)
    return;

  g_free (self->title);
  self->title = g_strdup (title);
  g_object_notify_by_pspec (G_OBJECT (self), props[PROP_TITLE]);
}

/**
 * akc_tool_get_description:
 * @self: a #AkcTool
 *
 * Gets what happens when a call runs, for people.
 *
 * Returns: (nullable): the description, or %NULL
 *
 * Since: 0.1
 */
const char *
akc_tool_get_description (AkcTool *self)
{
  g_return_val_if_fail (AKC_IS_TOOL (self), NULL);

  return self->description;
}

/**
 * akc_tool_set_description:
 * @self: a #AkcTool
 * @description: (nullable): what happens when a call runs
 *
 * Sets what happens when a call runs, for the person who approves it.
 *
 * Since: 0.1
 */
void
akc_tool_set_description (AkcTool    *self,
                          const char *description)
{
  g_return_if_fail (AKC_IS_TOOL (self));

  if (g_strcmp0 (self->description, description) == 0)
    return;

  g_free (self->description);
  self->description = g_strdup (description);
  g_object_notify_by_pspec (G_OBJECT (self), props[PROP_DESCRIPTION]);
}

/**
 * akc_tool_get_dangerous:
 * @self: a #AkcTool
 *
 * Gets whether a call does something that cannot be undone.
 *
 * Returns: %TRUE if the tool is dangerous
 *
 * Since: 0.1
 */
gboolean
akc_tool_get_dangerous (AkcTool *self)
{
  g_return_val_if_fail (AKC_IS_TOOL (self), FALSE);

  return self->dangerous;
}

/**
 * akc_tool_set_dangerous:
 * @self: a #AkcTool
 * @dangerous: whether a call does something that cannot be undone
 *
 * Marks the tool dangerous: its approval is presented as a destructive
 * action.
 *
 * Since: 0.1
 */
void
akc_tool_set_dangerous (AkcTool  *self,
                        gboolean  dangerous)
{
  g_return_if_fail (AKC_IS_TOOL (self));

  dangerous = !!dangerous;
  if (self->dangerous == dangerous)
    return;

  self->dangerous = dangerous;
  g_object_notify_by_pspec (G_OBJECT (self), props[PROP_DANGEROUS]);
}
