/* akc-renderer-parity.c
 *
 * SPDX-License-Identifier: MIT
 */

#include "config.h"

#include "akc-json-private.h"
#include "akc-renderer-parity.h"
#include "akc-text-private.h"
#include "akc-trace-capture.h"

#define INVALID_INPUT "Renderer outcomes are invalid."

typedef struct
{
  const char   *turn_id;
  const char   *kind;
} Key;

static gboolean
is_identifier (const AkcJsonValue *value)
{
  return AKC_JSON_IS_STRING (value) && akc_text_is_safe_id (AKC_JSON_STR (value), AKC_JSON_STR_LEN (value));
}

static gboolean
outcome_is_valid (const AkcJsonValue *outcome)
{
  if (!AKC_JSON_IS_OBJECT (outcome))
    return FALSE;

  for (gsize i = 0; i < AKC_JSON_LEN (outcome); i++)
    {
      const AkcJsonMember *m = AKC_JSON_MEMBER (outcome, i);

      if (!g_str_equal (m->name, "turnId") && !g_str_equal (m->name, "kind") &&
          !g_str_equal (m->name, "value"))
        return FALSE;
      if (strlen (m->name) != m->name_len)
        return FALSE;
    }

  return is_identifier (akc_json_value_get_member (outcome, "turnId")) &&
         is_identifier (akc_json_value_get_member (outcome, "kind")) &&
         (outcome->flags & AKC_JSON_FLAG_NONFINITE) == 0;
}

/* "turnId\nkind": identifiers cannot hold a newline. */
static char *
key_of (const AkcJsonValue *outcome)
{
  return g_strconcat (AKC_JSON_STR (akc_json_value_get_member (outcome, "turnId")), "\n",
                      AKC_JSON_STR (akc_json_value_get_member (outcome, "kind")), NULL);
}

static gboolean
fail (GError     **error,
      const char  *message)
{
  g_set_error_literal (error, AKC_TRACE_ERROR, AKC_TRACE_ERROR_INVALID_INPUT, message);
  return FALSE;
}

/* Checks the input and indexes each renderer's outcomes by key. */
static gboolean
index_renderers (AkcJsonValue  *renderers,
                 GPtrArray     *indexes,
                 GPtrArray     *keys,
                 GError       **error)
{
  g_autoptr(GHashTable) ids = g_hash_table_new (g_str_hash, g_str_equal);
  g_autoptr(GHashTable) seen_keys = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);

  if (!AKC_JSON_IS_ARRAY (renderers) || AKC_JSON_LEN (renderers) < 2)
    return fail (error, INVALID_INPUT);

  for (gsize r = 0; r < AKC_JSON_LEN (renderers); r++)
    {
      AkcJsonValue *entry = AKC_JSON_ELEMENT (renderers, r);
      AkcJsonValue *id, *outcomes;

      if (!AKC_JSON_IS_OBJECT (entry))
        return fail (error, INVALID_INPUT);
      id = akc_json_value_get_member (entry, "renderer");
      outcomes = akc_json_value_get_member (entry, "outcomes");
      if (!is_identifier (id) || !AKC_JSON_IS_ARRAY (outcomes) ||
          AKC_JSON_LEN (outcomes) > AKC_RENDERER_OUTCOMES_MAX)
        return fail (error, INVALID_INPUT);
      for (gsize i = 0; i < AKC_JSON_LEN (outcomes); i++)
        if (!outcome_is_valid (AKC_JSON_ELEMENT (outcomes, i)))
          return fail (error, INVALID_INPUT);
    }

  for (gsize r = 0; r < AKC_JSON_LEN (renderers); r++)
    {
      AkcJsonValue *id = akc_json_value_get_member (AKC_JSON_ELEMENT (renderers, r), "renderer");

      if (!g_hash_table_add (ids, (gpointer) AKC_JSON_STR (id)))
        return fail (error, "Renderer ids must be unique.");
    }

  for (gsize r = 0; r < AKC_JSON_LEN (renderers); r++)
    {
      AkcJsonValue *outcomes = akc_json_value_get_member (AKC_JSON_ELEMENT (renderers, r), "outcomes");
      GHashTable *index = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);

      g_ptr_array_add (indexes, index);
      for (gsize i = 0; i < AKC_JSON_LEN (outcomes); i++)
        {
          AkcJsonValue *outcome = AKC_JSON_ELEMENT (outcomes, i);
          char *key = key_of (outcome);

          if (g_hash_table_contains (index, key))
            {
              g_free (key);
              return fail (error, "Turn and kind pairs must be unique per renderer.");
            }
          g_hash_table_insert (index, key, outcome);
          if (!g_hash_table_contains (seen_keys, key))
            {
              g_hash_table_add (seen_keys, g_strdup (key));
              g_ptr_array_add (keys, outcome);
            }
        }
    }

  return TRUE;
}

static gboolean
outcomes_equal (const AkcJsonValue *a,
                const AkcJsonValue *b)
{
  AkcJsonValue *va, *vb;

  if (a == NULL || b == NULL)
    return a == b;

  va = akc_json_value_get_member (a, "value");
  vb = akc_json_value_get_member (b, "value");
  if (va == NULL || vb == NULL)
    return va == vb;

  return akc_json_value_equal (va, vb);
}

/**
 * akc_renderer_outcomes_compare:
 * @renderers: a JSON array of at least two `{renderer, outcomes}` objects,
 *   each outcome a strict `{turnId, kind, value?}` (identifiers), at most
 *   10,000 per renderer
 * @error: return location for a #GError
 *
 * Compares what renderers showed a person, turn by turn (application.md
 * §10.3 `compareRendererOutcomes`). The first renderer is the baseline;
 * every `(turnId, kind)` pair, in first-appearance order (baseline first),
 * is compared between the baseline and each other renderer, an absent
 * outcome counting as a value, objects compared without regard to member
 * order and arrays in order.
 *
 * Renderer ids must be unique ("Renderer ids must be unique.") and so
 * must each renderer's pairs ("Turn and kind pairs must be unique per
 * renderer."); anything else malformed fails with "Renderer outcomes are
 * invalid.", all with %AKC_TRACE_ERROR_INVALID_INPUT.
 *
 * Returns: (transfer full) (nullable): the report `{ok, baseline,
 *   renderers, mismatches: [{renderer, turnId, kind, expected?,
 *   actual?}]}`, or %NULL with @error set
 *
 * Since: 0.1
 */
AkcJsonValue *
akc_renderer_outcomes_compare (AkcJsonValue  *renderers,
                               GError       **error)
{
  g_autoptr(GPtrArray) indexes = g_ptr_array_new_with_free_func ((GDestroyNotify) g_hash_table_unref);
  g_autoptr(GPtrArray) keys = g_ptr_array_new ();
  g_autoptr(GString) mismatches = g_string_new (NULL);
  g_autoptr(GString) out = g_string_new (NULL);
  AkcJsonWriter w, m;
  gboolean ok = TRUE;

  g_return_val_if_fail (renderers != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  if (!index_renderers (renderers, indexes, keys, error))
    return NULL;

  akc_json_writer_init (&m, mismatches);
  akc_json_writer_begin_array (&m);
  for (guint r = 1; r < indexes->len; r++)
    {
      AkcJsonValue *id = akc_json_value_get_member (AKC_JSON_ELEMENT (renderers, r), "renderer");

      for (guint k = 0; k < keys->len; k++)
        {
          AkcJsonValue *sample = g_ptr_array_index (keys, k);
          g_autofree char *key = key_of (sample);
          AkcJsonValue *expected = g_hash_table_lookup (g_ptr_array_index (indexes, 0), key);
          AkcJsonValue *actual = g_hash_table_lookup (g_ptr_array_index (indexes, r), key);

          if (outcomes_equal (expected, actual))
            continue;

          ok = FALSE;
          akc_json_writer_begin_object (&m);
          akc_json_writer_member (&m, "renderer");
          akc_json_writer_value (&m, id);
          akc_json_writer_member (&m, "turnId");
          akc_json_writer_value (&m, akc_json_value_get_member (sample, "turnId"));
          akc_json_writer_member (&m, "kind");
          akc_json_writer_value (&m, akc_json_value_get_member (sample, "kind"));
          if (expected != NULL)
            {
              akc_json_writer_member (&m, "expected");
              akc_json_writer_value (&m, expected);
            }
          if (actual != NULL)
            {
              akc_json_writer_member (&m, "actual");
              akc_json_writer_value (&m, actual);
            }
          akc_json_writer_end_object (&m);
        }
    }
  akc_json_writer_end_array (&m);

  akc_json_writer_init (&w, out);
  akc_json_writer_begin_object (&w);
  akc_json_writer_member (&w, "ok");
  akc_json_writer_boolean (&w, ok);
  akc_json_writer_member (&w, "baseline");
  akc_json_writer_value (&w, akc_json_value_get_member (AKC_JSON_ELEMENT (renderers, 0), "renderer"));
  akc_json_writer_member (&w, "renderers");
  akc_json_writer_begin_array (&w);
  for (gsize r = 0; r < AKC_JSON_LEN (renderers); r++)
    akc_json_writer_value (&w, akc_json_value_get_member (AKC_JSON_ELEMENT (renderers, r), "renderer"));
  akc_json_writer_end_array (&w);
  akc_json_writer_member (&w, "mismatches");
  g_string_append_len (out, mismatches->str, mismatches->len);
  akc_json_writer_end_object (&w);

  return akc_json_value_parse (out->str, out->len, NULL);
}
