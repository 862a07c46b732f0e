/* akc-json-schema.c
 *
 * SPDX-License-Identifier: MIT
 */

#include "config.h"

#include <math.h>
#include <string.h>

#include "akc-error.h"
#include "akc-json-schema.h"
#include "akc-text-private.h"

/**
 * AkcJsonSchema:
 *
 * A compiled JSON Schema that checks the arguments of a tool call.
 *
 * A definition declares each tool's arguments as a JSON Schema (the
 * reference writes them with a schema library and hands the controller a
 * validator; [application §5.4](wire-formats.html#application-5) step 4). #AkcJsonSchema understands the
 * part of JSON Schema that describes such arguments, and refuses a schema
 * that uses anything else, so that a constraint is never silently ignored:
 *
 * - `type`: one name or an array of names among `object`, `array`,
 *   `string`, `number`, `integer`, `boolean` and `null`;
 * - objects: `properties`, `required`, `additionalProperties` (a boolean or
 *   a schema);
 * - strings: `minLength` and `maxLength`, counted in UTF-16 code units as
 *   the reference counts them, and `pattern`, a regular expression
 *   searched in the string (anchor it with `^…$`);
 * - numbers: `minimum`, `maximum`, `exclusiveMinimum`, `exclusiveMaximum`;
 * - arrays: `items` (one schema), `minItems`, `maxItems`;
 * - any value: `enum` and `const`;
 * - annotations, which are ignored: `$schema`, `$id`, `title`,
 *   `description`, `default`, `examples`.
 *
 * Validation messages name the failing place by the schema's property names
 * and array indexes; they never quote the value that failed.
 *
 * Since: 0.1
 */

#define MAX_SCHEMA_DEPTH 32

typedef enum
{
  TYPE_OBJECT  = 1 << 0,
  TYPE_ARRAY   = 1 << 1,
  TYPE_STRING  = 1 << 2,
  TYPE_NUMBER  = 1 << 3,
  TYPE_INTEGER = 1 << 4,
  TYPE_BOOLEAN = 1 << 5,
  TYPE_NULL    = 1 << 6,
} TypeMask;

typedef struct _Node Node;

struct _Node
{
  guint         types;          /* 0: any type */

  GPtrArray    *property_names; /* char*, in declaration order */
  GPtrArray    *property_nodes; /* Node*, parallel */
  GPtrArray    *required;       /* char* */
  gboolean      additional_forbidden;
  Node         *additional;

  gint64        min_length;     /* -1: none */
  gint64        max_length;
  GRegex       *pattern;

  gboolean      has_minimum, has_maximum, has_exclusive_minimum, has_exclusive_maximum;
  double        minimum, maximum, exclusive_minimum, exclusive_maximum;

  Node         *items;
  gint64        min_items;
  gint64        max_items;

  AkcJsonValue *enum_values;
  AkcJsonValue *const_value;
};

struct _AkcJsonSchema
{
  gatomicrefcount  ref_count;
  AkcJsonValue    *value;
  Node            *root;
};

G_DEFINE_BOXED_TYPE (AkcJsonSchema, akc_json_schema, akc_json_schema_ref, akc_json_schema_unref)

static void
node_free (Node *node)
{
  if (node == NULL)
    return;

  g_clear_pointer (&node->property_names, g_ptr_array_unref);
  g_clear_pointer (&node->property_nodes, g_ptr_array_unref);
  g_clear_pointer (&node->required, g_ptr_array_unref);
  g_clear_pointer (&node->additional, node_free);
  g_clear_pointer (&node->pattern, g_regex_unref);
  g_clear_pointer (&node->items, node_free);
  g_clear_pointer (&node->enum_values, akc_json_value_unref);
  g_clear_pointer (&node->const_value, akc_json_value_unref);
  g_free (node);
}

G_DEFINE_AUTOPTR_CLEANUP_FUNC (Node, node_free)

static gboolean
schema_error (GError     **error,
              const char  *path,
              const char  *problem)
{
  g_set_error (error, AKC_ERROR, AKC_ERROR_CONFIG_INVALID,
               "Tool argument schema is invalid at %s: %s.",
               path[0] != '\0' ? path : "the root", problem);
  return FALSE;
}

static gboolean
type_from_name (const char *name,
                guint      *mask)
{
  static const struct { const char *name; guint mask; } types[] = {
    { "object", TYPE_OBJECT }, { "array", TYPE_ARRAY }, { "string", TYPE_STRING },
    { "number", TYPE_NUMBER }, { "integer", TYPE_INTEGER },
    { "boolean", TYPE_BOOLEAN }, { "null", TYPE_NULL },
  };

  for (guint i = 0; i < G_N_ELEMENTS (types); i++)
    if (strcmp (name, types[i].name) == 0)
      {
        *mask |= types[i].mask;
        return TRUE;
      }

  return FALSE;
}

static gboolean
read_count (AkcJsonValue  *value,
            gint64        *out)
{
  double number;

  if (akc_json_value_get_kind (value) != AKC_JSON_KIND_NUMBER)
    return FALSE;

  number = akc_json_value_get_number (value);
  if (!isfinite (number) || number < 0 || number != floor (number) || number > 9007199254740991.0)
    return FALSE;

  *out = (gint64) number;
  return TRUE;
}

static gboolean
read_number (AkcJsonValue *value,
             double       *out)
{
  if (akc_json_value_get_kind (value) != AKC_JSON_KIND_NUMBER ||
      !isfinite (akc_json_value_get_number (value)))
    return FALSE;

  *out = akc_json_value_get_number (value);
  return TRUE;
}

static Node *compile_node (AkcJsonValue  *schema,
                           const char    *path,
                           guint          depth,
                           GError       **error);

static gboolean
compile_member (Node          *node,
                const char    *name,
                AkcJsonValue  *value,
                const char    *path,
                guint          depth,
                GError       **error)
{
  AkcJsonKind kind = akc_json_value_get_kind (value);

  if (strcmp (name, "$schema") == 0 || strcmp (name, "$id") == 0 ||
      strcmp (name, "title") == 0 || strcmp (name, "description") == 0 ||
      strcmp (name, "default") == 0 || strcmp (name, "examples") == 0)
    return TRUE;

  if (strcmp (name, "type") == 0)
    {
      if (kind == AKC_JSON_KIND_STRING)
        {
          if (!type_from_name (akc_json_value_get_string (value, NULL), &node->types))
            return schema_error (error, path, "unknown type");
          return TRUE;
        }
      if (kind == AKC_JSON_KIND_ARRAY && akc_json_value_get_length (value) > 0)
        {
          for (gsize i = 0; i < akc_json_value_get_length (value); i++)
            {
              AkcJsonValue *element = akc_json_value_get_element (value, i);

              if (akc_json_value_get_kind (element) != AKC_JSON_KIND_STRING ||
                  !type_from_name (akc_json_value_get_string (element, NULL), &node->types))
                return schema_error (error, path, "unknown type");
            }
          return TRUE;
        }
      return schema_error (error, path, "type must be a name or a list of names");
    }

  if (strcmp (name, "properties") == 0)
    {
      if (kind != AKC_JSON_KIND_OBJECT)
        return schema_error (error, path, "properties must be an object");

      node->property_names = g_ptr_array_new_with_free_func (g_free);
      node->property_nodes = g_ptr_array_new_with_free_func ((GDestroyNotify) node_free);
      for (gsize i = 0; i < akc_json_value_get_member_count (value); i++)
        {
          const char *property = akc_json_value_get_member_name (value, i, NULL);
          g_autofree char *child_path = g_strdup_printf ("%s%s%s", path, path[0] != '\0' ? "." : "", property);
          Node *child = compile_node (akc_json_value_get_member_value (value, i), child_path, depth + 1, error);

          if (child == NULL)
            return FALSE;
          g_ptr_array_add (node->property_names, g_strdup (property));
          g_ptr_array_add (node->property_nodes, child);
        }
      return TRUE;
    }

  if (strcmp (name, "required") == 0)
    {
      if (kind != AKC_JSON_KIND_ARRAY)
        return schema_error (error, path, "required must be a list of names");

      node->required = g_ptr_array_new_with_free_func (g_free);
      for (gsize i = 0; i < akc_json_value_get_length (value); i++)
        {
          AkcJsonValue *element = akc_json_value_get_element (value, i);

          if (akc_json_value_get_kind (element) != AKC_JSON_KIND_STRING)
            return schema_error (error, path, "required must be a list of names");
          g_ptr_array_add (node->required, g_strdup (akc_json_value_get_string (element, NULL)));
        }
      return TRUE;
    }

  if (strcmp (name, "additionalProperties") == 0)
    {
      if (kind == AKC_JSON_KIND_BOOLEAN)
        {
          node->additional_forbidden = !akc_json_value_get_boolean (value);
          return TRUE;
        }
      node->additional = compile_node (value, path, depth + 1, error);
      return node->additional != NULL;
    }

  if (strcmp (name, "items") == 0)
    {
      node->items = compile_node (value, path, depth + 1, error);
      return node->items != NULL;
    }

  if (strcmp (name, "minLength") == 0 || strcmp (name, "maxLength") == 0 ||
      strcmp (name, "minItems") == 0 || strcmp (name, "maxItems") == 0)
    {
      gint64 count;

      if (!read_count (value, &count))
        return schema_error (error, path, "a length bound must be a non-negative integer");

      if (strcmp (name, "minLength") == 0)
        node->min_length = count;
      else if (strcmp (name, "maxLength") == 0)
        node->max_length = count;
      else if (strcmp (name, "minItems") == 0)
        node->min_items = count;
      else
        node->max_items = count;
      return TRUE;
    }

  if (strcmp (name, "minimum") == 0 || strcmp (name, "maximum") == 0 ||
      strcmp (name, "exclusiveMinimum") == 0 || strcmp (name, "exclusiveMaximum") == 0)
    {
      double number;

      if (!read_number (value, &number))
        return schema_error (error, path, "a numeric bound must be a finite number");

      if (strcmp (name, "minimum") == 0)
        node->has_minimum = TRUE, node->minimum = number;
      else if (strcmp (name, "maximum") == 0)
        node->has_maximum = TRUE, node->maximum = number;
      else if (strcmp (name, "exclusiveMinimum") == 0)
        node->has_exclusive_minimum = TRUE, node->exclusive_minimum = number;
      else
        node->has_exclusive_maximum = TRUE, node->exclusive_maximum = number;
      return TRUE;
    }

  if (strcmp (name, "pattern") == 0)
    {
      g_autoptr(GError) regex_error = NULL;

      if (kind != AKC_JSON_KIND_STRING)
        return schema_error (error, path, "pattern must be a string");

      node->pattern = g_regex_new (akc_json_value_get_string (value, NULL),
                                   G_REGEX_OPTIMIZE, 0, &regex_error);
      if (node->pattern == NULL)
        return schema_error (error, path, "pattern is not a valid regular expression");
      return TRUE;
    }

  if (strcmp (name, "enum") == 0)
    {
      if (kind != AKC_JSON_KIND_ARRAY || akc_json_value_get_length (value) == 0)
        return schema_error (error, path, "enum must be a non-empty list");
      node->enum_values = akc_json_value_ref (value);
      return TRUE;
    }

  if (strcmp (name, "const") == 0)
    {
      node->const_value = akc_json_value_ref (value);
      return TRUE;
    }

  return schema_error (error, path, "it uses a keyword this validator does not support");
}

static Node *
compile_node (AkcJsonValue  *schema,
              const char    *path,
              guint          depth,
              GError       **error)
{
  g_autoptr(Node) node = NULL;

  if (depth > MAX_SCHEMA_DEPTH)
    {
      schema_error (error, path, "it is nested too deeply");
      return NULL;
    }

  node = g_new0 (Node, 1);
  node->min_length = node->max_length = -1;
  node->min_items = node->max_items = -1;

  /* `true` accepts anything; `false` nothing. */
  if (akc_json_value_get_kind (schema) == AKC_JSON_KIND_BOOLEAN)
    {
      if (!akc_json_value_get_boolean (schema))
        node->enum_values = akc_json_value_new_array (NULL, 0);
      return g_steal_pointer (&node);
    }

  if (akc_json_value_get_kind (schema) != AKC_JSON_KIND_OBJECT)
    {
      schema_error (error, path, "a schema must be an object or a boolean");
      return NULL;
    }

  for (gsize i = 0; i < akc_json_value_get_member_count (schema); i++)
    if (!compile_member (node,
                         akc_json_value_get_member_name (schema, i, NULL),
                         akc_json_value_get_member_value (schema, i),
                         path, depth, error))
      return NULL;

  return g_steal_pointer (&node);
}

/**
 * akc_json_schema_new:
 * @schema: a JSON Schema, an object or a boolean
 * @error: return location for a #GError
 *
 * Compiles @schema. A schema that uses a keyword outside the supported part
 * of JSON Schema (see [struct@JsonSchema]) or is malformed fails with
 * %AKC_ERROR_CONFIG_INVALID.
 *
 * Returns: (transfer full) (nullable): the compiled schema, or %NULL with
 *   @error set
 *
 * Since: 0.1
 */
AkcJsonSchema *
akc_json_schema_new (AkcJsonValue  *schema,
                     GError       **error)
{
  AkcJsonSchema *self;
  Node *root;

  g_return_val_if_fail (schema != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  root = compile_node (schema, "", 0, error);
  if (root == NULL)
    return NULL;

  self = g_new0 (AkcJsonSchema, 1);
  g_atomic_ref_count_init (&self->ref_count);
  self->value = akc_json_value_ref (schema);
  self->root = root;

  return self;
}

/**
 * akc_json_schema_new_from_string:
 * @text: a JSON Schema as JSON text
 * @error: return location for a #GError
 *
 * Parses and compiles a schema, as [ctor@JsonSchema.new] does.
 *
 * Returns: (transfer full) (nullable): the compiled schema, or %NULL with
 *   @error set
 *
 * Since: 0.1
 */
AkcJsonSchema *
akc_json_schema_new_from_string (const char  *text,
                                 GError     **error)
{
  g_autoptr(AkcJsonValue) value = NULL;

  g_return_val_if_fail (text != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  value = akc_json_value_parse (text, -1, NULL);
  if (value == NULL)
    {
      g_set_error_literal (error, AKC_ERROR, AKC_ERROR_CONFIG_INVALID,
                           "Tool argument schema is not valid JSON.");
      return NULL;
    }

  return akc_json_schema_new (value, error);
}

/**
 * akc_json_schema_ref:
 * @self: a #AkcJsonSchema
 *
 * Acquires a reference on @self.
 *
 * Returns: (transfer full): @self
 *
 * Since: 0.1
 */
AkcJsonSchema *
akc_json_schema_ref (AkcJsonSchema *self)
{
  g_return_val_if_fail (self != NULL, NULL);

  g_atomic_ref_count_inc (&self->ref_count);

  return self;
}

/**
 * akc_json_schema_unref:
 * @self: (transfer full): a #AkcJsonSchema
 *
 * Releases a reference on @self.
 *
 * Since: 0.1
 */
void
akc_json_schema_unref (AkcJsonSchema *self)
{
  g_return_if_fail (self != NULL);

  if (!g_atomic_ref_count_dec (&self->ref_count))
    return;

  akc_json_value_unref (self->value);
  node_free (self->root);
  g_free (self);
}

/**
 * akc_json_schema_get_value:
 * @self: a #AkcJsonSchema
 *
 * Gets the schema as it was given.
 *
 * Returns: (transfer none): the schema's JSON
 *
 * Since: 0.1
 */
AkcJsonValue *
akc_json_schema_get_value (AkcJsonSchema *self)
{
  g_return_val_if_fail (self != NULL, NULL);

  return self->value;
}

static gboolean
invalid (GError     **error,
         GString     *path,
         const char  *problem)
{
  g_set_error (error, AKC_ERROR, AKC_ERROR_TOOL_INVALID_INPUT,
               "Tool call arguments are invalid at %s: %s.",
               path->len > 0 ? path->str : "the top level", problem);
  return FALSE;
}

static guint
type_of (AkcJsonValue *value)
{
  double number;

  switch (akc_json_value_get_kind (value))
    {
    case AKC_JSON_KIND_OBJECT:
      return TYPE_OBJECT;
    case AKC_JSON_KIND_ARRAY:
      return TYPE_ARRAY;
    case AKC_JSON_KIND_STRING:
      return TYPE_STRING;
    case AKC_JSON_KIND_BOOLEAN:
      return TYPE_BOOLEAN;
    case AKC_JSON_KIND_NULL:
      return TYPE_NULL;
    case AKC_JSON_KIND_NUMBER:
      number = akc_json_value_get_number (value);
      if (isfinite (number) && number == floor (number))
        return TYPE_NUMBER | TYPE_INTEGER;
      return TYPE_NUMBER;
    default:
      return 0;
    }
}

static gboolean
is_declared (Node       *node,
             const char *name)
{
  if (node->property_names == NULL)
    return FALSE;

  for (guint i = 0; i < node->property_names->len; i++)
    if (strcmp (g_ptr_array_index (node->property_names, i), name) == 0)
      return TRUE;

  return FALSE;
}

static gboolean validate_node (Node          *node,
                               AkcJsonValue  *value,
                               GString       *path,
                               GError       **error);

static gboolean
validate_child (Node          *node,
                AkcJsonValue  *value,
                GString       *path,
                const char    *name,
                gssize         index_,
                GError       **error)
{
  gsize length = path->len;
  gboolean ok;

  if (name != NULL)
    g_string_append_printf (path, "%s%s", length > 0 ? "." : "", name);
  else
    g_string_append_printf (path, "[%" G_GSSIZE_FORMAT "]", index_);

  ok = validate_node (node, value, path, error);
  g_string_truncate (path, length);

  return ok;
}

static gboolean
validate_node (Node          *node,
               AkcJsonValue  *value,
               GString       *path,
               GError       **error)
{
  guint type = type_of (value);

  if (node->types != 0 && (node->types & type) == 0)
    return invalid (error, path, "wrong type");

  if (node->const_value != NULL && !akc_json_value_equal (node->const_value, value))
    return invalid (error, path, "not the expected value");

  if (node->enum_values != NULL)
    {
      gboolean found = FALSE;

      for (gsize i = 0; i < akc_json_value_get_length (node->enum_values) && !found; i++)
        found = akc_json_value_equal (akc_json_value_get_element (node->enum_values, i), value);
      if (!found)
        return invalid (error, path, "not one of the allowed values");
    }

  if (type & TYPE_STRING)
    {
      gsize bytes;
      const char *text = akc_json_value_get_string (value, &bytes);
      gsize units = akc_text_len16 (text, bytes);

      if (node->min_length >= 0 && units < (guint64) node->min_length)
        return invalid (error, path, "too short");
      if (node->max_length >= 0 && units > (guint64) node->max_length)
        return invalid (error, path, "too long");
      if (node->pattern != NULL &&
          (memchr (text, '\0', bytes) != NULL ||
           !g_regex_match (node->pattern, text, 0, NULL)))
        return invalid (error, path, "does not match the expected pattern");
    }

  if (type & TYPE_NUMBER)
    {
      double number = akc_json_value_get_number (value);

      if ((node->has_minimum && !(number >= node->minimum)) ||
          (node->has_exclusive_minimum && !(number > node->exclusive_minimum)))
        return invalid (error, path, "too small");
      if ((node->has_maximum && !(number <= node->maximum)) ||
          (node->has_exclusive_maximum && !(number < node->exclusive_maximum)))
        return invalid (error, path, "too large");
    }

  if (type & TYPE_ARRAY)
    {
      gsize n = akc_json_value_get_length (value);

      if (node->min_items >= 0 && n < (guint64) node->min_items)
        return invalid (error, path, "too few items");
      if (node->max_items >= 0 && n > (guint64) node->max_items)
        return invalid (error, path, "too many items");
      if (node->items != NULL)
        for (gsize i = 0; i < n; i++)
          if (!validate_child (node->items, akc_json_value_get_element (value, i), path, NULL, i, error))
            return FALSE;
    }

  if (type & TYPE_OBJECT)
    {
      if (node->required != NULL)
        for (guint i = 0; i < node->required->len; i++)
          {
            const char *name = g_ptr_array_index (node->required, i);

            if (akc_json_value_get_member (value, name) == NULL)
              {
                gsize length = path->len;
                gboolean ok;

                g_string_append_printf (path, "%s%s", length > 0 ? "." : "", name);
                ok = invalid (error, path, "missing");
                g_string_truncate (path, length);
                return ok;
              }
          }

      if (node->property_names != NULL)
        for (guint i = 0; i < node->property_names->len; i++)
          {
            const char *name = g_ptr_array_index (node->property_names, i);
            AkcJsonValue *member = akc_json_value_get_member (value, name);

            if (member != NULL &&
                !validate_child (g_ptr_array_index (node->property_nodes, i), member, path, name, -1, error))
              return FALSE;
          }

      for (gsize i = 0; i < akc_json_value_get_member_count (value); i++)
        {
          const char *name = akc_json_value_get_member_name (value, i, NULL);

          if (is_declared (node, name))
            continue;
          /* The member's name comes from the input: it is not quoted. */
          if (node->additional_forbidden)
            return invalid (error, path, "a member that is not allowed");
          if (node->additional != NULL &&
              !validate_node (node->additional, akc_json_value_get_member_value (value, i), path, error))
            return FALSE;
        }
    }

  return TRUE;
}

/**
 * akc_json_schema_validate:
 * @self: a #AkcJsonSchema
 * @instance: the value to check
 * @error: return location for a #GError
 *
 * Checks @instance against the schema. A failure is
 * %AKC_ERROR_TOOL_INVALID_INPUT with a message that names the failing
 * place without quoting the value.
 *
 * Returns: %TRUE if @instance is valid
 *
 * Since: 0.1
 */
gboolean
akc_json_schema_validate (AkcJsonSchema  *self,
                          AkcJsonValue   *instance,
                          GError        **error)
{
  g_autoptr(GString) path = NULL;

  g_return_val_if_fail (self != NULL, FALSE);
  g_return_val_if_fail (instance != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  path = g_string_new (NULL);

  return validate_node (self->root, instance, path, error);
}
