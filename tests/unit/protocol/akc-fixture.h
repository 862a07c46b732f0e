/* akc-fixture.h: shared test-vector harness for the unit tests
 *
 * SPDX-License-Identifier: MIT
 *
 * Loads a fixture file from $AKC_FIXTURES_DIR (tests/unit/meson.build sets
 * it to <repo>/tests/fixtures/reference), with our own strict parser (json-glib
 * would truncate strings at U+0000), expands the generators of
 * fixtures/protocol/README.md §2 ($repeat/count, $concat, $nest, $array)
 * and of fixtures/application/README.md ($repeat/times, $repeatItem), and
 * registers one GTest case per fixture case so each is counted in TAP.
 *
 * Usage in a test program:
 *
 *   static void
 *   run_frame_case (const AkcFixtureCase *fc,
 *                   gconstpointer         user_data)
 *   {
 *     g_autoptr(AkcJsonValue) result = decode (fc->input);
 *     akc_assert_json_equal (result, akc_fixture_expect (fc, "value"));
 *   }
 *
 *   int
 *   main (int argc, char **argv)
 *   {
 *     g_test_init (&argc, &argv, NULL);
 *     akc_fixture_add_tests ("protocol/component-frames.json", "/component/fixtures",
 *                            "decodeComponentFrame", run_frame_case, NULL);
 *     return g_test_run ();
 *   }
 *
 * Test paths are "<prefix>/<NNN> <case name>" (NNN = index in the file; '/'
 * and '#' in names become '_', so TAP directives cannot be faked).
 * `$hex` objects are left unexpanded (they stand for raw bytes that may not
 * be UTF-8); get them with akc_fixture_get_bytes().
 */

#pragma once

#include <glib.h>

#include "akc-json.h"

G_BEGIN_DECLS

typedef struct {
  char         *file;        /* e.g. "protocol/component-frames.json" */
  guint         index;       /* position in the file */
  char         *name;
  char         *op;          /* "op", or "input"."op" for application fixtures; nullable */
  char         *input_kind;  /* "text" / "value" / NULL */
  AkcJsonValue *raw;         /* the whole case, expanded */
  AkcJsonValue *input;       /* nullable (transfer none views into raw) */
  AkcJsonValue *options;     /* nullable */
  AkcJsonValue *expect;      /* nullable */
} AkcFixtureCase;

typedef void (*AkcFixtureFunc) (const AkcFixtureCase *fc,
                                gconstpointer         user_data);

/* Full path of a fixture file under $AKC_FIXTURES_DIR. */
char         *akc_fixture_path       (const char     *relpath);

/* Loads and expands a fixture file. Returns an array of AkcFixtureCase*
 * (free func set), or NULL with @error set. */
GPtrArray    *akc_fixture_load       (const char     *relpath,
                                      GError        **error);
void          akc_fixture_case_free  (AkcFixtureCase *fc);

/* Registers one test per case whose op equals @op (NULL: every case).
 * Returns the number of tests registered; aborts if the file cannot be
 * loaded or no case matches (so a renamed op cannot silently skip). */
guint         akc_fixture_add_tests  (const char     *relpath,
                                      const char     *prefix,
                                      const char     *op,
                                      AkcFixtureFunc  func,
                                      gconstpointer   user_data);

/* Expands generators recursively (innermost first). Returns a new
 * reference (possibly @value itself when nothing changed), or NULL with
 * @error set for a malformed generator. */
AkcJsonValue *akc_fixture_expand     (AkcJsonValue   *value,
                                      GError        **error);

/* A chunk of an askStreamDriver list: a string's bytes, or the raw bytes
 * of a {"$hex": "..."} object. */
GBytes       *akc_fixture_get_bytes  (AkcJsonValue   *chunk);

/* Members of fc->expect (NULL when absent). */
AkcJsonValue *akc_fixture_expect     (const AkcFixtureCase *fc,
                                      const char     *member);
gboolean      akc_fixture_expect_ok  (const AkcFixtureCase *fc);
/* String member of fc->expect, or NULL when absent / not a string. */
const char   *akc_fixture_expect_string (const AkcFixtureCase *fc,
                                         const char     *member);

/* The input as wire text: the string itself for inputKind "text", the
 * canonical serialisation otherwise. */
char         *akc_fixture_input_text (const AkcFixtureCase *fc,
                                      gsize          *length);

/* Structural comparison (member order ignored) with a readable failure:
 * both values are printed canonically. A NULL @expected asserts @actual
 * is NULL too. */
#define akc_assert_json_equal(actual, expected) \
  akc_fixture_assert_json_equal (__FILE__, __LINE__, G_STRFUNC, #actual, (actual), (expected))
/* Byte-exact comparison of canonical text (encoder tests). */
#define akc_assert_canonical(value, text) \
  akc_fixture_assert_canonical (__FILE__, __LINE__, G_STRFUNC, (value), (text))

void          akc_fixture_assert_json_equal (const char         *file,
                                             int                 line,
                                             const char         *func,
                                             const char         *expr,
                                             const AkcJsonValue *actual,
                                             const AkcJsonValue *expected);
void          akc_fixture_assert_canonical  (const char         *file,
                                             int                 line,
                                             const char         *func,
                                             const AkcJsonValue *value,
                                             const char         *text);

G_END_DECLS
