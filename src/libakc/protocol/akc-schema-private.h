/* akc-schema-private.h: declarative field tables (protocol §0.3, §1.6–§1.9)
 *
 * SPDX-License-Identifier: MIT
 *
 * The one validation machinery every envelope uses. A decoder declares its
 * tables once, as static const data, and calls akc_schema_validate(). The
 * result is either failure (a bare FALSE: the caller maps it to its fixed
 * diagnostic; this layer never produces messages and never echoes input) or
 * the NORMALISED value of §1.10: unknown members of open objects dropped,
 * "trimmed" strings trimmed, members in table order, absent optionals
 * omitted. Unchanged subtrees are shared by reference with the input (no
 * copy), and an input that is already normalised is returned as a new
 * reference to itself without any allocation.
 *
 * Declaring a table
 * =================
 *
 *   static const AkcSchemaField fallback_fields[] = {
 *     { "kind",    AKC_SCHEMA_STRING (1, 64) },
 *     { "summary", AKC_SCHEMA_STRING (1, 4096) },
 *   };
 *   static const AkcSchemaTable fallback_table =
 *     AKC_SCHEMA_TABLE (fallback_fields, AKC_SCHEMA_OPEN);
 *
 *   static const AkcSchemaField frame_fields[] = {
 *     { "protocol",     AKC_SCHEMA_LITERAL ("agentskit.chat.component") },
 *     { "version",      AKC_SCHEMA_NUMERIC_LITERAL (1) },
 *     { "type",         AKC_SCHEMA_LITERAL ("render") },
 *     { "componentKey", AKC_SCHEMA_PATTERN (akc_text_is_component_key) },
 *     { "instanceId",   AKC_SCHEMA_PATTERN (akc_text_is_safe_id) },
 *     { "props",        AKC_SCHEMA_BJV (&akc_bjv_default_limits) },
 *     { "fallback",     AKC_SCHEMA_OBJECT (&fallback_table) },
 *   };
 *   static const AkcSchemaTable frame_table =
 *     AKC_SCHEMA_TABLE (frame_fields, AKC_SCHEMA_OPEN);
 *
 *   g_autoptr(AkcJsonValue) frame = NULL;
 *   if (!akc_schema_validate_table (&frame_table, candidate, &frame))
 *     return diagnostic ("COMPONENT_INVALID_FRAME", "Component frame payload is invalid.");
 *
 * Fields are required unless `.optional = TRUE`:
 *
 *   { "error", AKC_SCHEMA_OBJECT (&turn_diagnostic_table), .optional = TRUE },
 *
 * Nested types (array items) are given by address; a compound literal is a
 * valid static initialiser:
 *
 *   { "choices", AKC_SCHEMA_ARRAY (&AKC_SCHEMA_TYPE (AKC_SCHEMA_OBJECT (&choice_table)), 0, 8) },
 *
 * Always declare types with the AKC_SCHEMA_* macros: they set every bound
 * explicitly (a zero-initialised max would mean "max 0").
 *
 * Semantics (zod 4 as used by the reference)
 * ==========================================
 *  - An object candidate must be a JSON object. A member whose value is
 *    `null` is present (never "absent"); null is only admitted by BJV, ANY
 *    and CUSTOM types.
 *  - CLOSED tables reject any member not in the table, except a member
 *    named `__proto__`, which is ignored (§9 item 9). OPEN tables drop
 *    unknown members.
 *  - Output members are emitted in table order.
 *  - Cross-field rules: a table may carry a `check` callback that receives
 *    the normalised object after all fields validated.
 *  - Discriminated unions (lineage, parts, Ask events, answer envelope):
 *    AKC_SCHEMA_UNION (discriminant member, NULL-terminated table list). The
 *    first table whose discriminant field (a LITERAL or ENUM) accepts the
 *    candidate's discriminant string is used; no match fails.
 *  - CUSTOM types get the value and its parent object, for rules that
 *    depend on a sibling (e.g. the turn payload chosen by `event`).
 *
 * Thread-safety: tables are immutable; validation is reentrant.
 */

#pragma once

#include <math.h>

#include <glib.h>

#include "akc-json-private.h"

G_BEGIN_DECLS

typedef struct _AkcSchemaType  AkcSchemaType;
typedef struct _AkcSchemaField AkcSchemaField;
typedef struct _AkcSchemaTable AkcSchemaTable;

/* ------------------------------------------------------------------ */
/* Bounded JSON value (§1.9)                                           */
/* ------------------------------------------------------------------ */

typedef struct {
  guint32 max_values;        /* total values visited, root included */
  guint32 max_depth;         /* depth of any value (root = 0) */
  gsize   max_string_len16;  /* string values; G_MAXSIZE = unbounded */
  guint32 max_array_len;
  guint32 max_members;
  gsize   max_name_len16;    /* member names */
} AkcBjvLimits;

/* §1.9: 1000 values, depth 20, strings 16384, arrays/objects 1000, names 256. */
extern const AkcBjvLimits akc_bjv_default_limits;
/* §2.9.1 message-record structural limits: 10000 values, depth 32,
 * arrays/objects 10000, names 256, strings unbounded. */
extern const AkcBjvLimits akc_bjv_message_limits;
/* Application §5.4 tool-call arguments: 10000 values, depth 32, strings and
 * member names 16384, arrays 10000. */
extern const AkcBjvLimits akc_bjv_tool_argument_limits;

/* TRUE iff @value satisfies @limits; numbers must be finite. Depth, value
 * count and finiteness are O(1) (recorded at construction); the walk over
 * strings, array lengths and member names visits at most max_values nodes
 * and never recurses deeper than max_depth. */
gboolean akc_bjv_check (const AkcJsonValue *value,
                        const AkcBjvLimits *limits);

/* ------------------------------------------------------------------ */
/* Types                                                               */
/* ------------------------------------------------------------------ */

typedef enum {
  AKC_SCHEMA_KIND_STRING = 1,   /* len16 min..max, flags TRIM / NOT_BLANK */
  AKC_SCHEMA_KIND_LITERAL,      /* exactly .literal */
  AKC_SCHEMA_KIND_ENUM,         /* one of .values (NULL-terminated) */
  AKC_SCHEMA_KIND_PATTERN,      /* .pattern (s, len) returns TRUE; flag TRIM allowed */
  AKC_SCHEMA_KIND_INT,          /* finite, integral, |x| <= 2^53-1, min..max */
  AKC_SCHEMA_KIND_NUMBER,       /* finite, min..max */
  AKC_SCHEMA_KIND_NUMERIC_LITERAL, /* a number == .min (§1.7: 1, 1.0, 1e0) */
  AKC_SCHEMA_KIND_BOOL,
  AKC_SCHEMA_KIND_OBJECT,       /* nested .table */
  AKC_SCHEMA_KIND_ARRAY,        /* of .item, count min..max, .unique members */
  AKC_SCHEMA_KIND_BJV,          /* any value (null too) passing .bjv, shared */
  AKC_SCHEMA_KIND_FREE_OBJECT,  /* any object, optionally BJV-bounded, shared */
  AKC_SCHEMA_KIND_MAP,          /* object, names len16 <= max, __proto__ dropped, optional .bjv on the copy */
  AKC_SCHEMA_KIND_ANY,          /* any value, shared */
  AKC_SCHEMA_KIND_UNION,        /* object: .discriminant selects one of .tables */
  AKC_SCHEMA_KIND_CUSTOM,       /* .custom callback */
} AkcSchemaKind;

typedef enum {
  AKC_SCHEMA_FLAG_TRIM          = 1 << 0, /* STRING/PATTERN: trim (§1.4) first; output trimmed */
  AKC_SCHEMA_FLAG_NOT_BLANK     = 1 << 1, /* STRING: trim(s) must be non-empty; output untrimmed */
  AKC_SCHEMA_FLAG_EXCLUSIVE_MIN = 1 << 2, /* INT/NUMBER: value > min */
} AkcSchemaFlags;

/* Pattern predicates: the akc_text_is_* functions of akc-text-private.h. */
typedef gboolean (*AkcSchemaPatternFunc) (const char *s,
                                          gsize       len);

/* CUSTOM: validate @value (whose containing object is @parent, or NULL for
 * a root / array element) and store the normalised value (transfer full)
 * in @out when @out is non-NULL. Return FALSE to reject. */
typedef gboolean (*AkcSchemaCustomFunc)  (const AkcSchemaType *type,
                                          AkcJsonValue        *value,
                                          const AkcJsonValue  *parent,
                                          AkcJsonValue       **out);

/* Table cross-field check on the normalised object. */
typedef gboolean (*AkcSchemaCheckFunc)   (const AkcJsonValue  *normalised,
                                          gpointer             user_data);

struct _AkcSchemaType {
  AkcSchemaKind           kind;
  guint                   flags;
  double                  min;          /* len16 / value / count, inclusive */
  double                  max;          /* INFINITY = unbounded */
  const char             *literal;      /* LITERAL */
  const char * const     *values;       /* ENUM, NULL-terminated */
  AkcSchemaPatternFunc    pattern;      /* PATTERN */
  const AkcSchemaTable   *table;        /* OBJECT */
  const AkcSchemaType    *item;         /* ARRAY */
  const char * const     *unique;       /* ARRAY: member names unique across items, NULL-terminated */
  const AkcBjvLimits     *bjv;          /* BJV, FREE_OBJECT, MAP (nullable for the last two) */
  const char             *discriminant; /* UNION */
  const AkcSchemaTable * const *tables; /* UNION, NULL-terminated */
  AkcSchemaCustomFunc     custom;       /* CUSTOM */
  gconstpointer           user_data;    /* CUSTOM */
};

struct _AkcSchemaField {
  const char    *name;
  AkcSchemaType  type;
  gboolean       optional;
};

typedef enum {
  AKC_SCHEMA_OPEN   = 0,
  AKC_SCHEMA_CLOSED = 1 << 0,
} AkcSchemaTableFlags;

struct _AkcSchemaTable {
  const AkcSchemaField *fields;
  guint                 n_fields;
  guint                 flags;       /* AkcSchemaTableFlags */
  AkcSchemaCheckFunc    check;       /* nullable */
  gpointer              check_data;
};

/* ------------------------------------------------------------------ */
/* Declaration macros                                                  */
/* ------------------------------------------------------------------ */

#define AKC_SCHEMA_UNBOUNDED INFINITY
#define AKC_SCHEMA_INT_MAX   ((double) AKC_JSON_MAX_SAFE_INTEGER)

#define AKC_SCHEMA_TABLE(fields, table_flags) \
  { (fields), G_N_ELEMENTS (fields), (table_flags), NULL, NULL }
#define AKC_SCHEMA_TABLE_CHECKED(fields, table_flags, check_func, data) \
  { (fields), G_N_ELEMENTS (fields), (table_flags), (check_func), (data) }

/* Wraps a type initialiser into a compound literal (for .item). */
#define AKC_SCHEMA_TYPE(...) ((const AkcSchemaType) __VA_ARGS__)

/* string, len16 lo..hi (hi may be AKC_SCHEMA_UNBOUNDED) */
#define AKC_SCHEMA_STRING(lo, hi) \
  { .kind = AKC_SCHEMA_KIND_STRING, .min = (lo), .max = (hi) }
/* string trimmed (§1.4), bounds apply to the trimmed value; e.g. Label(n) */
#define AKC_SCHEMA_TRIMMED(lo, hi) \
  { .kind = AKC_SCHEMA_KIND_STRING, .flags = AKC_SCHEMA_FLAG_TRIM, .min = (lo), .max = (hi) }
#define AKC_SCHEMA_LABEL(n) AKC_SCHEMA_TRIMMED (1, (n))
/* string, len16 >= 1 and trim non-empty, kept untrimmed (turn submit input) */
#define AKC_SCHEMA_NOT_BLANK(hi) \
  { .kind = AKC_SCHEMA_KIND_STRING, .flags = AKC_SCHEMA_FLAG_NOT_BLANK, .min = 1, .max = (hi) }
#define AKC_SCHEMA_LITERAL(str) \
  { .kind = AKC_SCHEMA_KIND_LITERAL, .literal = (str), .min = 0, .max = 0 }
/* values: a `static const char * const x[] = { "a", "b", NULL };` */
#define AKC_SCHEMA_ENUM(vals) \
  { .kind = AKC_SCHEMA_KIND_ENUM, .values = (vals), .min = 0, .max = 0 }
#define AKC_SCHEMA_PATTERN(func) \
  { .kind = AKC_SCHEMA_KIND_PATTERN, .pattern = (func), .min = 0, .max = AKC_SCHEMA_UNBOUNDED }
#define AKC_SCHEMA_INT(lo, hi) \
  { .kind = AKC_SCHEMA_KIND_INT, .min = (lo), .max = (hi) }
#define AKC_SCHEMA_INT_ANY \
  AKC_SCHEMA_INT (-AKC_SCHEMA_INT_MAX, AKC_SCHEMA_INT_MAX)
/* Int > lo */
#define AKC_SCHEMA_INT_GT(lo, hi) \
  { .kind = AKC_SCHEMA_KIND_INT, .flags = AKC_SCHEMA_FLAG_EXCLUSIVE_MIN, .min = (lo), .max = (hi) }
#define AKC_SCHEMA_NUMBER(lo, hi) \
  { .kind = AKC_SCHEMA_KIND_NUMBER, .min = (lo), .max = (hi) }
#define AKC_SCHEMA_NUMBER_ANY \
  AKC_SCHEMA_NUMBER (-AKC_SCHEMA_UNBOUNDED, AKC_SCHEMA_UNBOUNDED)
#define AKC_SCHEMA_NUMERIC_LITERAL(n) \
  { .kind = AKC_SCHEMA_KIND_NUMERIC_LITERAL, .min = (n), .max = (n) }
#define AKC_SCHEMA_BOOL \
  { .kind = AKC_SCHEMA_KIND_BOOL, .min = 0, .max = 0 }
#define AKC_SCHEMA_OBJECT(tbl) \
  { .kind = AKC_SCHEMA_KIND_OBJECT, .table = (tbl), .min = 0, .max = 0 }
/* array of *item_type, lo..hi elements */
#define AKC_SCHEMA_ARRAY(item_type, lo, hi) \
  { .kind = AKC_SCHEMA_KIND_ARRAY, .item = (item_type), .min = (lo), .max = (hi) }
/* same, and the string members named in uniq (NULL-terminated array of
 * names) must be pairwise distinct across the normalised items */
#define AKC_SCHEMA_ARRAY_UNIQUE(item_type, lo, hi, uniq) \
  { .kind = AKC_SCHEMA_KIND_ARRAY, .item = (item_type), .min = (lo), .max = (hi), .unique = (uniq) }
#define AKC_SCHEMA_BJV(limits) \
  { .kind = AKC_SCHEMA_KIND_BJV, .bjv = (limits), .min = 0, .max = 0 }
/* object, values free-form; limits nullable */
#define AKC_SCHEMA_FREE_OBJECT(limits) \
  { .kind = AKC_SCHEMA_KIND_FREE_OBJECT, .bjv = (limits), .min = 0, .max = 0 }
/* map: object, member names len16 <= name_max, `__proto__` dropped,
 * the copy checked against limits (nullable) */
#define AKC_SCHEMA_MAP(name_max, limits) \
  { .kind = AKC_SCHEMA_KIND_MAP, .bjv = (limits), .min = 0, .max = (name_max) }
#define AKC_SCHEMA_ANY \
  { .kind = AKC_SCHEMA_KIND_ANY, .min = 0, .max = 0 }
/* tbls: `static const AkcSchemaTable * const x[] = { &a, &b, NULL };` */
#define AKC_SCHEMA_UNION(member, tbls) \
  { .kind = AKC_SCHEMA_KIND_UNION, .discriminant = (member), .tables = (tbls), .min = 0, .max = 0 }
#define AKC_SCHEMA_CUSTOM(func, data) \
  { .kind = AKC_SCHEMA_KIND_CUSTOM, .custom = (func), .user_data = (data), .min = 0, .max = 0 }

/* ------------------------------------------------------------------ */
/* Validation                                                          */
/* ------------------------------------------------------------------ */

/* Validates @value against @type. On success returns TRUE and, when @out
 * is non-NULL, stores the normalised value (transfer full; possibly a new
 * reference to @value itself). On failure returns FALSE and leaves *@out
 * untouched. @parent: the object containing @value (for CUSTOM), or NULL. */
gboolean akc_schema_validate       (const AkcSchemaType  *type,
                                    AkcJsonValue         *value,
                                    const AkcJsonValue   *parent,
                                    AkcJsonValue        **out);

/* After a failed validation: names the first field of @value that fails
 * (appended to @path as `.name` and `[index]`) and returns why, in words
 * (`not a UTC timestamp with milliseconds`). O(size of @value); only for
 * reporting, never on the path of a valid value. */
char    *akc_schema_explain        (const AkcSchemaType  *type,
                                    AkcJsonValue         *value,
                                    const AkcJsonValue   *parent,
                                    GString              *path);
char    *akc_schema_explain_table  (const AkcSchemaTable *table,
                                    AkcJsonValue         *object,
                                    GString              *path);

/* Sets what akc_protocol_error_get_field_path() returns for @error (an
 * AKC_PROTOCOL_ERROR). */
void     akc_protocol_error_set_field_path (GError     *error,
                                            const char *field_path);

typedef struct _AkcDiagnostic AkcDiagnostic;

/* akc_diagnostic_new() with the path of the field that failed and why
 * (akc_diagnostic_get_field_path()), which never reaches the wire. */
AkcDiagnostic *akc_diagnostic_new_with_field_path (const char *code,
                                                   const char *message,
                                                   gboolean    retryable,
                                                   const char *event_id,
                                                   const char *field_path);

/* After a failed validation of @value against @type: `path: reason`,
 * the path without its leading dot, @root when the value itself fails
 * (akc_schema_explain()). */
char    *akc_schema_explain_field_path (const AkcSchemaType  *type,
                                        AkcJsonValue         *value,
                                        const char           *root);

/* Shorthand for an OBJECT type over @table. */
gboolean akc_schema_validate_table (const AkcSchemaTable *table,
                                    AkcJsonValue         *value,
                                    AkcJsonValue        **out);

/* §1.7 Int test (finite, integral, within ±(2^53 − 1)). */
gboolean akc_schema_is_int         (double                d);

G_END_DECLS
