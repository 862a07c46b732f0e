/* akc-fixture.c: shared test-vector harness for the unit tests
 *
 * SPDX-License-Identifier: MIT
 */

#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "akc-fixture.h"
#include "akc-json-scan-private.h"
#include "akc-json-private.h"

#define FIXTURE_ERROR (g_quark_from_static_string ("akc-fixture-error"))

char *
akc_fixture_path (const char *relpath)
{
  const char *dir = g_getenv ("AKC_FIXTURES_DIR");

  if (dir == NULL)
    g_error ("AKC_FIXTURES_DIR is not set (run the tests through meson test)");

  return g_build_filename (dir, relpath, NULL);
}

/* ------------------------------------------------------------------ */
/* Generators                                                          */
/* ------------------------------------------------------------------ */

static AkcJsonValue *
member (AkcJsonValue *object,
        const char   *name)
{
  return akc_json_object_lookup (object, name, strlen (name), NULL);
}

static gboolean
get_count (AkcJsonValue *v,
           gsize        *out,
           GError      **error)
{
  double d;

  if (!AKC_JSON_IS_NUMBER (v) || (d = AKC_JSON_NUMBER (v)) < 0 || d != (gsize) d || d > 1e9)
    {
      g_set_error (error, FIXTURE_ERROR, 1, "generator count is not a natural number");
      return FALSE;
    }
  *out = (gsize) d;
  return TRUE;
}

static gboolean
has_exactly (AkcJsonValue *object,
             const char   *a,
             const char   *b)
{
  gsize n = AKC_JSON_LEN (object);

  if (n != (b ? 2u : 1u))
    return FALSE;
  return member (object, a) != NULL && (b == NULL || member (object, b) != NULL);
}

/* Replace "{i}" in every string (values and member names) of @v. */
static AkcJsonValue *
substitute_index (AkcJsonValue *v,
                  const char   *istr)
{
  gsize i, n;

  switch (AKC_JSON_KIND (v))
    {
    case AKC_JSON_KIND_STRING:
      {
        g_autoptr(GString) s = g_string_new_len (AKC_JSON_STR (v), AKC_JSON_STR_LEN (v));

        g_string_replace (s, "{i}", istr, 0);
        return akc_json_string_new_len (s->str, s->len);
      }
    case AKC_JSON_KIND_ARRAY:
      {
        g_autofree AkcJsonValue **elements = g_new (AkcJsonValue *, AKC_JSON_LEN (v) + 1);

        n = AKC_JSON_LEN (v);
        for (i = 0; i < n; i++)
          elements[i] = substitute_index (AKC_JSON_ELEMENT (v, i), istr);
        return akc_json_array_new_steal (elements, n);
      }
    case AKC_JSON_KIND_OBJECT:
      {
        g_autofree AkcJsonMemberInit *members = g_new (AkcJsonMemberInit, AKC_JSON_LEN (v) + 1);
        g_autoptr(GPtrArray) names = g_ptr_array_new_with_free_func (g_free);

        n = AKC_JSON_LEN (v);
        for (i = 0; i < n; i++)
          {
            const AkcJsonMember *m = AKC_JSON_MEMBER (v, i);
            GString *name = g_string_new_len (m->name, m->name_len);

            g_string_replace (name, "{i}", istr, 0);
            members[i].name_len = name->len;
            members[i].name = g_string_free (name, FALSE);
            g_ptr_array_add (names, (gpointer) members[i].name);
            members[i].value = substitute_index (m->value, istr);
          }
        return akc_json_object_new_steal (members, n, FALSE, 0);
      }
    default:
      return akc_json_value_ref (v);
    }
}

static gboolean
append_string_part (GString      *out,
                    AkcJsonValue *part,
                    GError      **error)
{
  g_autoptr(AkcJsonValue) expanded = akc_fixture_expand (part, error);

  if (expanded == NULL)
    return FALSE;
  if (!AKC_JSON_IS_STRING (expanded))
    {
      g_set_error (error, FIXTURE_ERROR, 1, "string generator part is not a string");
      return FALSE;
    }
  g_string_append_len (out, AKC_JSON_STR (expanded), AKC_JSON_STR_LEN (expanded));
  return TRUE;
}

static AkcJsonValue *
expand_generator (AkcJsonValue *v,
                  gboolean     *is_generator,
                  GError      **error)
{
  AkcJsonValue *g;
  gsize count, i;

  *is_generator = TRUE;

  /* {"$repeat": U, "count"|"times": N} */
  if (has_exactly (v, "$repeat", "count") || has_exactly (v, "$repeat", "times"))
    {
      g_autoptr(GString) unit = g_string_new (NULL);
      g_autoptr(GString) out = NULL;
      AkcJsonValue *c = member (v, "count") ? member (v, "count") : member (v, "times");

      if (!get_count (c, &count, error) || !append_string_part (unit, member (v, "$repeat"), error))
        return NULL;
      out = g_string_sized_new (unit->len * count + 1);
      for (i = 0; i < count; i++)
        g_string_append_len (out, unit->str, unit->len);
      return akc_json_string_new_len (out->str, out->len);
    }

  /* {"$concat": [parts]} */
  if (has_exactly (v, "$concat", NULL))
    {
      g_autoptr(GString) out = g_string_new (NULL);

      g = member (v, "$concat");
      if (!AKC_JSON_IS_ARRAY (g))
        {
          g_set_error (error, FIXTURE_ERROR, 1, "$concat needs an array");
          return NULL;
        }
      for (i = 0; i < AKC_JSON_LEN (g); i++)
        if (!append_string_part (out, AKC_JSON_ELEMENT (g, i), error))
          return NULL;
      return akc_json_string_new_len (out->str, out->len);
    }

  /* {"$nest": {"key": K, "depth": N, "leaf": V}} */
  if (has_exactly (v, "$nest", NULL) && AKC_JSON_IS_OBJECT (member (v, "$nest")))
    {
      AkcJsonValue *key, *leaf;
      AkcJsonValue *cur;

      g = member (v, "$nest");
      key = member (g, "key");
      leaf = member (g, "leaf");
      if (!AKC_JSON_IS_STRING (key) || leaf == NULL || !get_count (member (g, "depth"), &count, error))
        {
          g_set_error (error, FIXTURE_ERROR, 1, "malformed $nest");
          return NULL;
        }
      cur = akc_fixture_expand (leaf, error);
      if (cur == NULL)
        return NULL;
      for (i = 0; i < count; i++)
        {
          AkcJsonMemberInit m = { AKC_JSON_STR (key), AKC_JSON_STR_LEN (key), cur };
          cur = akc_json_object_new_steal (&m, 1, TRUE, 0);
        }
      return cur;
    }

  /* {"$array": {"count": N, "item": T}} */
  if (has_exactly (v, "$array", NULL) && AKC_JSON_IS_OBJECT (member (v, "$array")))
    {
      g_autofree AkcJsonValue **elements = NULL;
      AkcJsonValue *item;

      g = member (v, "$array");
      item = member (g, "item");
      if (item == NULL || !get_count (member (g, "count"), &count, error))
        {
          g_set_error (error, FIXTURE_ERROR, 1, "malformed $array");
          return NULL;
        }
      elements = g_new (AkcJsonValue *, count + 1);
      for (i = 0; i < count; i++)
        {
          char istr[24];
          g_autoptr(AkcJsonValue) t = NULL;

          g_snprintf (istr, sizeof istr, "%" G_GSIZE_FORMAT, i);
          t = substitute_index (item, istr);
          elements[i] = akc_fixture_expand (t, error);
          if (elements[i] == NULL)
            {
              while (i-- > 0)
                akc_json_value_unref (elements[i]);
              return NULL;
            }
        }
      return akc_json_array_new_steal (elements, count);
    }

  /* {"$repeatItem": V, "times": N} */
  if (has_exactly (v, "$repeatItem", "times"))
    {
      g_autofree AkcJsonValue **elements = NULL;
      g_autoptr(AkcJsonValue) item = NULL;

      if (!get_count (member (v, "times"), &count, error))
        return NULL;
      item = akc_fixture_expand (member (v, "$repeatItem"), error);
      if (item == NULL)
        return NULL;
      elements = g_new (AkcJsonValue *, count + 1);
      for (i = 0; i < count; i++)
        elements[i] = akc_json_value_ref (item);
      return akc_json_array_new_steal (elements, count);
    }

  *is_generator = FALSE;
  return NULL;
}

AkcJsonValue *
akc_fixture_expand (AkcJsonValue *value,
                    GError      **error)
{
  gsize i, n;

  g_return_val_if_fail (value != NULL, NULL);

  if (AKC_JSON_IS_OBJECT (value))
    {
      g_autofree AkcJsonMemberInit *members = NULL;
      gboolean is_generator, changed = FALSE;
      AkcJsonValue *g = expand_generator (value, &is_generator, error);

      if (is_generator)
        return g;

      n = AKC_JSON_LEN (value);
      members = g_new (AkcJsonMemberInit, n + 1);
      for (i = 0; i < n; i++)
        {
          const AkcJsonMember *m = AKC_JSON_MEMBER (value, i);

          members[i].name = m->name;
          members[i].name_len = m->name_len;
          members[i].value = akc_fixture_expand (m->value, error);
          if (members[i].value == NULL)
            {
              while (i-- > 0)
                akc_json_value_unref (members[i].value);
              return NULL;
            }
          changed |= members[i].value != m->value;
        }
      if (!changed)
        {
          for (i = 0; i < n; i++)
            akc_json_value_unref (members[i].value);
          return akc_json_value_ref (value);
        }
      return akc_json_object_new_steal (members, n, TRUE, 0);
    }

  if (AKC_JSON_IS_ARRAY (value))
    {
      g_autofree AkcJsonValue **elements = NULL;
      gboolean changed = FALSE;

      n = AKC_JSON_LEN (value);
      elements = g_new (AkcJsonValue *, n + 1);
      for (i = 0; i < n; i++)
        {
          elements[i] = akc_fixture_expand (AKC_JSON_ELEMENT (value, i), error);
          if (elements[i] == NULL)
            {
              while (i-- > 0)
                akc_json_value_unref (elements[i]);
              return NULL;
            }
          changed |= elements[i] != AKC_JSON_ELEMENT (value, i);
        }
      if (!changed)
        {
          for (i = 0; i < n; i++)
            akc_json_value_unref (elements[i]);
          return akc_json_value_ref (value);
        }
      return akc_json_array_new_steal (elements, n);
    }

  return akc_json_value_ref (value);
}

GBytes *
akc_fixture_get_bytes (AkcJsonValue *chunk)
{
  AkcJsonValue *hex;

  if (AKC_JSON_IS_STRING (chunk))
    return g_bytes_new (AKC_JSON_STR (chunk), AKC_JSON_STR_LEN (chunk));

  g_assert_true (AKC_JSON_IS_OBJECT (chunk));
  hex = member (chunk, "$hex");
  g_assert_true (AKC_JSON_IS_STRING (hex));
  g_assert_cmpuint (AKC_JSON_STR_LEN (hex) % 2, ==, 0);

  {
    gsize n = AKC_JSON_STR_LEN (hex) / 2, i;
    guint8 *bytes = g_malloc (n + 1);

    for (i = 0; i < n; i++)
      {
        int hi = g_ascii_xdigit_value (AKC_JSON_STR (hex)[2 * i]);
        int lo = g_ascii_xdigit_value (AKC_JSON_STR (hex)[2 * i + 1]);

        g_assert_true (hi >= 0 && lo >= 0);
        bytes[i] = (guint8) (hi << 4 | lo);
      }
    return g_bytes_new_take (bytes, n);
  }
}

/* ------------------------------------------------------------------ */
/* Cases                                                               */
/* ------------------------------------------------------------------ */

void
akc_fixture_case_free (AkcFixtureCase *fc)
{
  if (fc == NULL)
    return;
  g_free (fc->file);
  g_free (fc->name);
  g_free (fc->op);
  g_free (fc->input_kind);
  g_clear_pointer (&fc->raw, akc_json_value_unref);
  g_free (fc);
}

static char *
dup_string_member (AkcJsonValue *object,
                   const char   *name)
{
  AkcJsonValue *v = object && AKC_JSON_IS_OBJECT (object) ? member (object, name) : NULL;

  return AKC_JSON_IS_STRING (v) ? g_strndup (AKC_JSON_STR (v), AKC_JSON_STR_LEN (v)) : NULL;
}

GPtrArray *
akc_fixture_load (const char *relpath,
                  GError    **error)
{
  g_autofree char *path = akc_fixture_path (relpath);
  g_autofree char *contents = NULL;
  g_autoptr(AkcJsonValue) root = NULL;
  g_autoptr(GPtrArray) cases = NULL;
  gsize len, i;

  if (!g_file_get_contents (path, &contents, &len, error))
    return NULL;

  root = akc_json_value_parse (contents, (gssize) len, error);
  if (root == NULL)
    return NULL;
  if (!AKC_JSON_IS_ARRAY (root))
    {
      g_set_error (error, FIXTURE_ERROR, 1, "%s: not an array of cases", relpath);
      return NULL;
    }

  cases = g_ptr_array_new_with_free_func ((GDestroyNotify) akc_fixture_case_free);

  for (i = 0; i < AKC_JSON_LEN (root); i++)
    {
      AkcJsonValue *raw = AKC_JSON_ELEMENT (root, i);
      AkcFixtureCase *fc;

      if (!AKC_JSON_IS_OBJECT (raw))
        {
          g_set_error (error, FIXTURE_ERROR, 1, "%s: case %" G_GSIZE_FORMAT " is not an object", relpath, i);
          return NULL;
        }

      fc = g_new0 (AkcFixtureCase, 1);
      fc->file = g_strdup (relpath);
      fc->index = (guint) i;
      fc->raw = akc_fixture_expand (raw, error);
      if (fc->raw == NULL)
        {
          akc_fixture_case_free (fc);
          g_prefix_error (error, "%s: case %" G_GSIZE_FORMAT ": ", relpath, i);
          return NULL;
        }
      fc->name = dup_string_member (fc->raw, "name");
      fc->input_kind = dup_string_member (fc->raw, "inputKind");
      fc->input = member (fc->raw, "input");
      fc->options = member (fc->raw, "options");
      fc->expect = member (fc->raw, "expect");
      fc->op = dup_string_member (fc->raw, "op");
      if (fc->op == NULL)
        fc->op = dup_string_member (fc->input, "op");   /* application fixtures */
      if (fc->name == NULL)
        fc->name = g_strdup_printf ("case %" G_GSIZE_FORMAT, i);

      g_ptr_array_add (cases, fc);
    }

  return g_steal_pointer (&cases);
}

static void
run_case (gconstpointer data)
{
  gpointer *closure = (gpointer *) data;
  const AkcFixtureCase *fc = closure[0];
  AkcFixtureFunc func = (AkcFixtureFunc) closure[1];

  g_test_message ("%s [%u] %s", fc->file, fc->index, fc->name);
  func (fc, closure[2]);
}

/* Registered cases live until exit: GLib does not free the data of tests
 * filtered out with -p/-s, so the harness owns them instead. */
static GPtrArray *registered;

static void
free_closure (gpointer data)
{
  gpointer *closure = data;

  akc_fixture_case_free (closure[0]);
  g_free (closure);
}

__attribute__((destructor)) static void
free_registered (void)
{
  g_clear_pointer (&registered, g_ptr_array_unref);
}

/* AKC_TEST_JSON_SCANNER=NAME runs the vectors with that JSON string
 * scanner in use (meson registers the vector tests once per scanner);
 * one that this processor lacks skips the whole program. */
static void
select_scanner (void)
{
  const char *name = g_getenv ("AKC_TEST_JSON_SCANNER");

  if (name == NULL || g_str_equal (name, akc_json_scan_get_implementation ()))
    return;

  if (akc_json_scan_lookup (name) == NULL)
    {
      g_print ("1..0 # SKIP the JSON scanner %s is not usable here\n", name);
      exit (0);
    }
  g_assert_true (akc_json_scan_set_implementation (name));
}

guint
akc_fixture_add_tests (const char     *relpath,
                       const char     *prefix,
                       const char     *op,
                       AkcFixtureFunc  func,
                       gconstpointer   user_data)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) cases = akc_fixture_load (relpath, &error);
  guint added = 0;
  guint i;

  if (cases == NULL)
    g_error ("cannot load fixture %s: %s", relpath, error->message);

  select_scanner ();

  for (i = 0; i < cases->len; i++)
    {
      AkcFixtureCase *fc = g_ptr_array_index (cases, i);
      g_autofree char *path = NULL;
      gpointer *closure;
      char *p;

      if (op != NULL && g_strcmp0 (fc->op, op) != 0)
        continue;

      path = g_strdup_printf ("%s/%03u %s", prefix, fc->index, fc->name);
      for (p = path + strlen (prefix) + 1; *p != '\0'; p++)
        if (*p == '/' || *p == '#')
          *p = '_';

      closure = g_new (gpointer, 3);
      closure[0] = fc;
      closure[1] = (gpointer) func;
      closure[2] = (gpointer) user_data;
      cases->pdata[i] = NULL;   /* now owned by the test */
      if (registered == NULL)
        registered = g_ptr_array_new_with_free_func (free_closure);
      g_ptr_array_add (registered, closure);
      g_test_add_data_func (path, closure, run_case);
      added++;
    }

  if (added == 0)
    g_error ("fixture %s has no case with op %s", relpath, op ? op : "(any)");

  return added;
}

/* ------------------------------------------------------------------ */
/* Expectations                                                        */
/* ------------------------------------------------------------------ */

AkcJsonValue *
akc_fixture_expect (const AkcFixtureCase *fc,
                    const char           *name)
{
  if (fc->expect == NULL || !AKC_JSON_IS_OBJECT (fc->expect))
    return NULL;
  return member (fc->expect, name);
}

gboolean
akc_fixture_expect_ok (const AkcFixtureCase *fc)
{
  AkcJsonValue *ok = akc_fixture_expect (fc, "ok");

  g_assert_nonnull (ok);
  g_assert_cmpint (AKC_JSON_KIND (ok), ==, AKC_JSON_KIND_BOOLEAN);
  return akc_json_value_get_boolean (ok);
}

const char *
akc_fixture_expect_string (const AkcFixtureCase *fc,
                           const char           *name)
{
  AkcJsonValue *v = akc_fixture_expect (fc, name);

  return AKC_JSON_IS_STRING (v) ? AKC_JSON_STR (v) : NULL;
}

char *
akc_fixture_input_text (const AkcFixtureCase *fc,
                        gsize                *length)
{
  g_assert_nonnull (fc->input);

  if (g_strcmp0 (fc->input_kind, "text") == 0)
    {
      g_assert_true (AKC_JSON_IS_STRING (fc->input));
      if (length != NULL)
        *length = AKC_JSON_STR_LEN (fc->input);
      return g_memdup2 (AKC_JSON_STR (fc->input), AKC_JSON_STR_LEN (fc->input) + 1);
    }

  return akc_json_value_to_canonical (fc->input, length);
}

void
akc_fixture_assert_json_equal (const char         *file,
                               int                 line,
                               const char         *func,
                               const char         *expr,
                               const AkcJsonValue *actual,
                               const AkcJsonValue *expected)
{
  g_autofree char *a = NULL;
  g_autofree char *e = NULL;
  g_autofree char *msg = NULL;

  if (actual == NULL && expected == NULL)
    return;
  if (actual != NULL && expected != NULL && akc_json_value_equal (actual, expected))
    return;

  a = actual ? akc_json_value_to_canonical (actual, NULL) : g_strdup ("(none)");
  e = expected ? akc_json_value_to_canonical (expected, NULL) : g_strdup ("(none)");
  if (strlen (a) > 2000)
    strcpy (a + 1990, "…");
  if (strlen (e) > 2000)
    strcpy (e + 1990, "…");
  msg = g_strdup_printf ("%s: JSON values differ\n  actual:   %s\n  expected: %s", expr, a, e);
  g_assertion_message (G_LOG_DOMAIN, file, line, func, msg);
}

void
akc_fixture_assert_canonical (const char         *file,
                              int                 line,
                              const char         *func,
                              const AkcJsonValue *value,
                              const char         *text)
{
  g_autofree char *actual = NULL;
  g_autofree char *msg = NULL;

  g_assert_nonnull (value);
  actual = akc_json_value_to_canonical (value, NULL);
  if (strcmp (actual, text) == 0)
    return;

  msg = g_strdup_printf ("canonical text differs\n  actual:   %s\n  expected: %s", actual, text);
  g_assertion_message (G_LOG_DOMAIN, file, line, func, msg);
}
