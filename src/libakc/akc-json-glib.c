/* akc-json-glib.c: the json-glib bridges of libakc
 *
 * SPDX-License-Identifier: MIT
 */

#include "config.h"

#include <math.h>
#include <string.h>

#include "akc-json-glib.h"
#include "akc-controlled-source-private.h"
#include "akc-json-private.h"

/* ------------------------------------------------------------------ */
/* JsonNode conversion                                                 */
/* ------------------------------------------------------------------ */

/**
 * akc_json_value_to_json_node:
 * @self: a value
 *
 * Converts @self to a json-glib tree for hosts that work with
 * `JsonNode`. This is lossy: json-glib strings end at the first U+0000,
 * so such strings (and member names) are truncated there, and an
 * infinite number is converted as-is.
 *
 * Returns: (transfer full): a new `JsonNode`
 *
 * Since: 0.1
 */
JsonNode *
akc_json_value_to_json_node (const AkcJsonValue *self)
{
  JsonNode *node;
  gsize i;

  g_return_val_if_fail (self != NULL, NULL);

  switch ((AkcJsonKind) self->kind)
    {
    case AKC_JSON_KIND_NULL:
      return json_node_new (JSON_NODE_NULL);
    case AKC_JSON_KIND_BOOLEAN:
      node = json_node_new (JSON_NODE_VALUE);
      json_node_set_boolean (node, self->u.boolean);
      return node;
    case AKC_JSON_KIND_NUMBER:
      node = json_node_new (JSON_NODE_VALUE);
      json_node_set_double (node, self->u.number);
      return node;
    case AKC_JSON_KIND_STRING:
      node = json_node_new (JSON_NODE_VALUE);
      json_node_set_string (node, self->u.str);
      return node;
    case AKC_JSON_KIND_ARRAY:
      {
        JsonArray *array = json_array_sized_new (self->len);

        for (i = 0; i < self->len; i++)
          json_array_add_element (array, akc_json_value_to_json_node (self->u.elements[i]));
        node = json_node_new (JSON_NODE_ARRAY);
        json_node_take_array (node, array);
        return node;
      }
    case AKC_JSON_KIND_OBJECT:
      {
        JsonObject *object = json_object_new ();

        for (i = 0; i < self->len; i++)
          json_object_set_member (object, self->u.members[i].name,
                                  akc_json_value_to_json_node (self->u.members[i].value));
        node = json_node_new (JSON_NODE_OBJECT);
        json_node_take_object (node, object);
        return node;
      }
    default:
      g_assert_not_reached ();
    }
}

static AkcJsonValue *
from_json_node (JsonNode *node,
                guint     depth)
{
  if (depth > AKC_JSON_MAX_DEPTH)
    return NULL;

  switch (JSON_NODE_TYPE (node))
    {
    case JSON_NODE_NULL:
      return &akc_json_null_value;

    case JSON_NODE_VALUE:
      switch (json_node_get_value_type (node))
        {
        case G_TYPE_BOOLEAN:
          return akc_json_value_new_boolean (json_node_get_boolean (node));
        case G_TYPE_INT64:
          return akc_json_value_new_number ((double) json_node_get_int (node));
        case G_TYPE_DOUBLE:
          {
            double d = json_node_get_double (node);
            return isnan (d) ? NULL : akc_json_value_new_number (d);
          }
        case G_TYPE_STRING:
          {
            const char *s = json_node_get_string (node);
            gsize len = strlen (s);
            gsize out_len;
            g_autofree char *clean = akc_utf8_sanitize (s, len, &out_len);

            return akc_json_string_new_len (clean ? clean : s, out_len);
          }
        default:
          return NULL;
        }

    case JSON_NODE_ARRAY:
      {
        JsonArray *array = json_node_get_array (node);
        guint n = json_array_get_length (array);
        g_autofree AkcJsonValue **elements = g_new (AkcJsonValue *, n + 1);
        guint i;

        for (i = 0; i < n; i++)
          {
            elements[i] = from_json_node (json_array_get_element (array, i), depth + 1);
            if (elements[i] == NULL)
              {
                while (i-- > 0)
                  akc_json_value_unref (elements[i]);
                return NULL;
              }
          }
        return akc_json_array_new_steal (elements, n);
      }

    case JSON_NODE_OBJECT:
      {
        JsonObject *object = json_node_get_object (node);
        GList *names = json_object_get_members (object); /* insertion order */
        guint n = g_list_length (names);
        g_autofree AkcJsonMemberInit *members = g_new (AkcJsonMemberInit, n + 1);
        g_autoptr(GPtrArray) clean_names = g_ptr_array_new_with_free_func (g_free);
        GList *l;
        guint i = 0;

        for (l = names; l != NULL; l = l->next, i++)
          {
            const char *name = l->data;
            gsize len = strlen (name), clean_len;
            char *clean = akc_utf8_sanitize (name, len, &clean_len);

            if (clean != NULL)
              g_ptr_array_add (clean_names, clean);
            members[i].name = clean ? clean : name;
            members[i].name_len = clean_len;
            members[i].value = from_json_node (json_object_get_member (object, name), depth + 1);
            if (members[i].value == NULL)
              {
                while (i-- > 0)
                  akc_json_value_unref (members[i].value);
                g_list_free (names);
                return NULL;
              }
          }
        g_list_free (names);

        return akc_json_object_new_steal (members, n, FALSE, 0);
      }

    default:
      return NULL;
    }
}

/**
 * akc_json_value_new_from_json_node:
 * @node: a json-glib node
 *
 * Converts a json-glib tree. Strings are taken as UTF-8 with invalid
 * sequences replaced by U+FFFD. Fails for `NaN`, for non-JSON value types
 * and for trees nested deeper than 10 000 levels.
 *
 * Returns: (transfer full) (nullable): the value, or %NULL if @node
 *   cannot be represented
 *
 * Since: 0.1
 */
AkcJsonValue *
akc_json_value_new_from_json_node (JsonNode *node)
{
  g_return_val_if_fail (node != NULL, NULL);

  return from_json_node (node, 0);
}

/**
 * akc_controlled_source_set_snapshot_node:
 * @self: a controlled source
 * @snapshot: the snapshot as a json-glib node
 * @error: return location for a #GError
 *
 * Sets @snapshot as [method@ControlledSource.set_snapshot] does (the
 * `akc_chat_view_set_controlled_snapshot()` of [application §7.4](wire-formats.html#application-7)).
 *
 * Returns: %TRUE if the snapshot was applied
 *
 * Since: 0.1
 */
gboolean
akc_controlled_source_set_snapshot_node (AkcControlledSource  *self,
                                         JsonNode             *snapshot,
                                         GError              **error)
{
  g_autoptr(AkcJsonValue) value = NULL;

  g_return_val_if_fail (AKC_IS_CONTROLLED_SOURCE (self), FALSE);
  g_return_val_if_fail (snapshot != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  value = akc_json_value_new_from_json_node (snapshot);
  if (value == NULL)
    {
      g_propagate_error (error, akc_controlled_snapshot_invalid_error ());
      return FALSE;
    }

  return akc_controlled_source_set_snapshot (self, value, error);
}
