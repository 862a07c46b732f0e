/* akc-tool-call.c
 *
 * SPDX-License-Identifier: MIT
 */

#include "config.h"

#include <string.h>

#include "akc-enum-types.h"
#include "akc-tool-call.h"

/**
 * AkcToolCall:
 *
 * One tool call of an assistant message ([protocol §2.9.6](wire-formats.html#protocol-2)).
 *
 * The id, the tool name and the arguments (a JSON object) are fixed when
 * the call is made. [property@ToolCall:status], [property@ToolCall:result]
 * and [property@ToolCall:error] change in place as the call is confirmed,
 * runs or fails, each with its own notification, so a view updates only
 * what changed.
 *
 * Since: 0.1
 */

struct _AkcToolCall
{
  GObject            parent_instance;

  char              *id;
  char              *name;
  AkcJsonValue      *arguments;
  char              *result;
  char              *error;
  AkcToolCallStatus  status;
};

G_DEFINE_FINAL_TYPE (AkcToolCall, akc_tool_call, G_TYPE_OBJECT)

enum {
  PROP_0,
  PROP_ID,
  PROP_NAME,
  PROP_ARGUMENTS,
  PROP_STATUS,
  PROP_RESULT,
  PROP_ERROR,
  N_PROPS
};

static GParamSpec *props[N_PROPS];

static const char * const status_strings[] = {
  [AKC_TOOL_CALL_STATUS_PENDING] = "pending",
  [AKC_TOOL_CALL_STATUS_RUNNING] = "running",
  [AKC_TOOL_CALL_STATUS_COMPLETE] = "complete",
  [AKC_TOOL_CALL_STATUS_ERROR] = "error",
  [AKC_TOOL_CALL_STATUS_REQUIRES_CONFIRMATION] = "requires_confirmation",
};

/**
 * akc_tool_call_status_to_string:
 * @status: a tool call status
 *
 * Gets the wire string of @status, such as `requires_confirmation`.
 *
 * Returns: (transfer none): the wire string
 *
 * Since: 0.1
 */
const char *
akc_tool_call_status_to_string (AkcToolCallStatus status)
{
  g_return_val_if_fail (status < G_N_ELEMENTS (status_strings), NULL);

  return status_strings[status];
}

/**
 * akc_tool_call_status_from_string:
 * @string: a wire string, such as `requires_confirmation`
 * @status: (out) (optional): the status
 *
 * Reads the wire string of a tool call status.
 *
 * Returns: %TRUE if @string is one of the five wire strings
 *
 * Since: 0.1
 */
gboolean
akc_tool_call_status_from_string (const char        *string,
                                  AkcToolCallStatus *status)
{
  g_return_val_if_fail (string != NULL, FALSE);

  for (guint i = 0; i < G_N_ELEMENTS (status_strings); i++)
    {
      if (strcmp (string, status_strings[i]) == 0)
        {
          if (status != NULL)
            *status = i;
          return TRUE;
        }
    }

  return FALSE;
}

/* g_set_str() is GLib 2.76. */
static gboolean
set_str (char       **str_pointer,
         const char  *new_str)
{
  if (g_strcmp0 (*str_pointer, new_str) == 0)
    return FALSE;

  g_free (*str_pointer);
  *str_pointer = g_strdup (new_str);

  return TRUE;
}

static void
akc_tool_call_finalize (GObject *object)
{
  AkcToolCall *self = (AkcToolCall *)object;

  g_clear_pointer (&self->id, g_free);
  g_clear_pointer (&self->name, g_free);
  g_clear_pointer (&self->arguments, akc_json_value_unref);
  g_clear_pointer (&self->result, g_free);
  g_clear_pointer (&self->error, g_free);

  G_OBJECT_CLASS (akc_tool_call_parent_class)->finalize (object);
}

static void
akc_tool_call_get_property (GObject    *object,
                            guint       prop_id,
                            GValue     *value,
                            GParamSpec *pspec)
{
  AkcToolCall *self = AKC_TOOL_CALL (object);

  switch (prop_id)
    {
    case PROP_ID:
      g_value_set_string (value, self->id);
      break;
    case PROP_NAME:
      g_value_set_string (value, self->name);
      break;
    case PROP_ARGUMENTS:
      g_value_set_boxed (value, self->arguments);
      break;
    case PROP_STATUS:
      g_value_set_enum (value, self->status);
      break;
    case PROP_RESULT:
      g_value_set_string (value, self->result);
      break;
    case PROP_ERROR:
      g_value_set_string (value, self->error);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
akc_tool_call_set_property (GObject      *object,
                            guint         prop_id,
                            const GValue *value,
                            GParamSpec   *pspec)
{
  AkcToolCall *self = AKC_TOOL_CALL (object);
  AkcJsonValue *arguments;

  switch (prop_id)
    {
    case PROP_ID:
      g_free (self->id);
      self->id = g_value_dup_string (value);
      break;
    case PROP_NAME:
      g_free (self->name);
      self->name = g_value_dup_string (value);
      break;
    case PROP_ARGUMENTS:
      arguments = g_value_get_boxed (value);
      g_clear_pointer (&self->arguments, akc_json_value_unref);
      if (arguments != NULL && akc_json_value_get_kind (arguments) == AKC_JSON_KIND_OBJECT)
        self->arguments = akc_json_value_ref (arguments);
      break;
    case PROP_STATUS:
      akc_tool_call_set_status (self, g_value_get_enum (value));
      break;
    case PROP_RESULT:
      akc_tool_call_set_result (self, g_value_get_string (value));
      break;
    case PROP_ERROR:
      akc_tool_call_set_error (self, g_value_get_string (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
akc_tool_call_constructed (GObject *object)
{
  AkcToolCall *self = (AkcToolCall *)object;

  G_OBJECT_CLASS (akc_tool_call_parent_class)->constructed (object);

  if (self->id == NULL)
    self->id = g_uuid_string_random ();
  if (self->name == NULL)
    self->name = g_strdup ("");
  if (self->arguments == NULL)
    self->arguments = akc_json_value_new_object (NULL, NULL, 0);
}

static void
akc_tool_call_class_init (AkcToolCallClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->finalize = akc_tool_call_finalize;
  object_class->get_property = akc_tool_call_get_property;
  object_class->set_property = akc_tool_call_set_property;
  object_class->constructed = akc_tool_call_constructed;

  /**
   * AkcToolCall:id:
   *
   * The id of the call, unique in its conversation. A random UUID when
   * none is given.
   *
   * Since: 0.1
   */
  props[PROP_ID] =
    g_param_spec_string ("id", NULL, NULL,
                         NULL,
                         (G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS));

  /**
   * AkcToolCall:name:
   *
   * The name of the tool.
   *
   * Since: 0.1
   */
  props[PROP_NAME] =
    g_param_spec_string ("name", NULL, NULL,
                         NULL,
                         (G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS));

  /**
   * AkcToolCall:arguments:
   *
   * The arguments, always a JSON object (`{}` when none, or when the value
   * given is not an object).
   *
   * Since: 0.1
   */
  props[PROP_ARGUMENTS] =
    g_param_spec_boxed ("arguments", NULL, NULL,
                        AKC_TYPE_JSON_VALUE,
                        (G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS));

  /**
   * AkcToolCall:status:
   *
   * Where the call is in its life.
   *
   * Since: 0.1
   */
  props[PROP_STATUS] =
    g_param_spec_enum ("status", NULL, NULL,
                       AKC_TYPE_TOOL_CALL_STATUS,
                       AKC_TOOL_CALL_STATUS_PENDING,
                       (G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));

  /**
   * AkcToolCall:result:
   *
   * What the tool returned, or %NULL.
   *
   * Since: 0.1
   */
  props[PROP_RESULT] =
    g_param_spec_string ("result", NULL, NULL,
                         NULL,
                         (G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));

  /**
   * AkcToolCall:error:
   *
   * Why the call failed or was denied, such as
   * `Permission denied: user denied access`, or %NULL.
   *
   * Since: 0.1
   */
  props[PROP_ERROR] =
    g_param_spec_string ("error", NULL, NULL,
                         NULL,
                         (G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));

  g_object_class_install_properties (object_class, N_PROPS, props);
}

static void
akc_tool_call_init (AkcToolCall *self)
{
  self->status = AKC_TOOL_CALL_STATUS_PENDING;
}

/**
 * akc_tool_call_new:
 * @id: (nullable): the call id, or %NULL for a random one
 * @name: the tool name
 * @arguments: (nullable): the arguments, a JSON object; %NULL for `{}`
 * @status: the initial status
 *
 * Creates a tool call.
 *
 * Returns: (transfer full): a new #AkcToolCall
 *
 * Since: 0.1
 */
AkcToolCall *
akc_tool_call_new (const char        *id,
                   const char        *name,
                   AkcJsonValue      *arguments,
                   AkcToolCallStatus  status)
{
  g_return_val_if_fail (name != NULL, NULL);
  g_return_val_if_fail (arguments == NULL || akc_json_value_get_kind (arguments) == AKC_JSON_KIND_OBJECT, NULL);

  return g_object_new (AKC_TYPE_TOOL_CALL,
                       "id", id,
                       "name", name,
                       "arguments", arguments,
                       "status", status,
                       NULL);
}

/**
 * akc_tool_call_get_id:
 * @self: a #AkcToolCall
 *
 * Gets the id of the call.
 *
 * Returns: (transfer none): the id
 *
 * Since: 0.1
 */
const char *
akc_tool_call_get_id (AkcToolCall *self)
{
  g_return_val_if_fail (AKC_IS_TOOL_CALL (self), NULL);

  return self->id;
}

/**
 * akc_tool_call_get_name:
 * @self: a #AkcToolCall
 *
 * Gets the name of the tool.
 *
 * Returns: (transfer none): the tool name
 *
 * Since: 0.1
 */
const char *
akc_tool_call_get_name (AkcToolCall *self)
{
  g_return_val_if_fail (AKC_IS_TOOL_CALL (self), NULL);

  return self->name;
}

/**
 * akc_tool_call_get_arguments:
 * @self: a #AkcToolCall
 *
 * Gets the arguments.
 *
 * Returns: (transfer none): the arguments, a JSON object
 *
 * Since: 0.1
 */
AkcJsonValue *
akc_tool_call_get_arguments (AkcToolCall *self)
{
  g_return_val_if_fail (AKC_IS_TOOL_CALL (self), NULL);

  return self->arguments;
}

/**
 * akc_tool_call_get_status:
 * @self: a #AkcToolCall
 *
 * Gets where the call is in its life.
 *
 * Returns: the status
 *
 * Since: 0.1
 */
AkcToolCallStatus
akc_tool_call_get_status (AkcToolCall *self)
{
  g_return_val_if_fail (AKC_IS_TOOL_CALL (self), AKC_TOOL_CALL_STATUS_PENDING);

  return self->status;
}

/**
 * akc_tool_call_set_status:
 * @self: a #AkcToolCall
 * @status: the new status
 *
 * Sets where the call is in its life.
 *
 * Since: 0.1
 */
void
akc_tool_call_set_status (AkcToolCall       *self,
                          AkcToolCallStatus  status)
{
  g_return_if_fail (AKC_IS_TOOL_CALL (self));
  g_return_if_fail (status < G_N_ELEMENTS (status_strings));

  if (self->status == status)
    return;

  self->status = status;
  g_object_notify_by_pspec (G_OBJECT (self), props[PROP_STATUS]);
}

/**
 * akc_tool_call_get_result:
 * @self: a #AkcToolCall
 *
 * Gets what the tool returned.
 *
 * Returns: (transfer none) (nullable): the result
 *
 * Since: 0.1
 */
const char *
akc_tool_call_get_result (AkcToolCall *self)
{
  g_return_val_if_fail (AKC_IS_TOOL_CALL (self), NULL);

  return self->result;
}

/**
 * akc_tool_call_set_result:
 * @self: a #AkcToolCall
 * @result: (nullable): what the tool returned
 *
 * Sets what the tool returned.
 *
 * Since: 0.1
 */
void
akc_tool_call_set_result (AkcToolCall *self,
                          const char  *result)
{
  g_return_if_fail (AKC_IS_TOOL_CALL (self));

  if (set_str (&self->result, result))
    g_object_notify_by_pspec (G_OBJECT (self), props[PROP_RESULT]);
}

/**
 * akc_tool_call_get_error:
 * @self: a #AkcToolCall
 *
 * Gets why the call failed or was denied.
 *
 * Returns: (transfer none) (nullable): the error text
 *
 * Since: 0.1
 */
const char *
akc_tool_call_get_error (AkcToolCall *self)
{
  g_return_val_if_fail (AKC_IS_TOOL_CALL (self), NULL);

  return self->error;
}

/**
 * akc_tool_call_set_error:
 * @self: a #AkcToolCall
 * @error: (nullable): why the call failed or was denied
 *
 * Sets why the call failed or was denied.
 *
 * Since: 0.1
 */
void
akc_tool_call_set_error (AkcToolCall *self,
                         const char  *error)
{
  g_return_if_fail (AKC_IS_TOOL_CALL (self));

  if (set_str (&self->error, error))
    g_object_notify_by_pspec (G_OBJECT (self), props[PROP_ERROR]);
}
