/* akc-json-private.h: internals of AkcJsonValue, the strict parser, the
 * value builder and the canonical writer (protocol §1.2, §1.10)
 *
 * SPDX-License-Identifier: MIT
 *
 * Everything here is internal to libakc (not installed, not scanned).
 *
 * Representation
 * ==============
 * An AkcJsonValue is immutable once returned. Three storage classes:
 *
 *  - STATIC: `null`, `true`, `false` are immortal singletons (ref/unref no-ops).
 *  - ARENA:  every node of a parsed document lives in one bump arena; a ref
 *            on *any* node keeps the whole arena alive, and the arena is
 *            freed at once when the last ref goes (one malloc for a small
 *            document, no per-node frees).
 *  - HEAP:   nodes made by the constructors/builder: one allocation per node
 *            (strings, element and member arrays are inline), individually
 *            refcounted; a heap container holds a ref on each child, and a
 *            child may be any storage class (so a normalised value can share
 *            unchanged subtrees of the parsed input by ref).
 *
 * Strings are valid UTF-8 with an explicit byte length, may contain U+0000
 * and are always followed by a NUL byte. Objects keep member order and never
 * contain two members with the same name (duplicates resolved "last value at
 * the position of the first occurrence", §1.2). Objects with more than
 * AKC_JSON_INDEX_THRESHOLD members carry a hash index (built once, when the
 * node is created), smaller ones are scanned linearly.
 *
 * Every node records its `height` (edges on the longest downward path: 0 for
 * scalars and empty containers) and `n_values` (values in its subtree, itself
 * included, saturating), and whether a non-finite number occurs below it.
 * That makes the §1.9 / §2.9.1 depth, count and finiteness checks O(1).
 * Heights never exceed AKC_JSON_MAX_DEPTH, so recursive walkers (writer,
 * equal, unref) have bounded recursion.
 */

#pragma once

#include <glib.h>

#include "akc-json.h"

G_BEGIN_DECLS

/* ------------------------------------------------------------------ */
/* Representation                                                      */
/* ------------------------------------------------------------------ */

/* Hard bound on nesting (number of containers open at once) for every
 * value. JSON.parse has none; deeper texts are a documented divergence
 * (they are rejected as invalid JSON). Every protocol limit is far below. */
#define AKC_JSON_MAX_DEPTH 10000

/* Number.MAX_SAFE_INTEGER (2^53 - 1): the largest integer every JSON
 * reader keeps exactly (one that holds numbers as doubles rounds larger
 * ones). Every bound of the protocol on a whole number is at most this. */
#define AKC_JSON_MAX_SAFE_INTEGER G_GINT64_CONSTANT (9007199254740991)

/* Objects with more members than this get a hash index. */
#define AKC_JSON_INDEX_THRESHOLD 8

typedef enum {
  AKC_JSON_STORAGE_STATIC,
  AKC_JSON_STORAGE_ARENA,
  AKC_JSON_STORAGE_HEAP,
} AkcJsonStorage;

typedef enum {
  AKC_JSON_FLAG_NONFINITE    = 1 << 0,  /* a non-finite number in this subtree */
  AKC_JSON_FLAG_INDEXED      = 1 << 1,  /* object: hash index follows members */
  AKC_JSON_FLAG_STATIC_NAMES = 1 << 2,  /* heap object: names not owned */
} AkcJsonFlags;

typedef struct _AkcJsonArena AkcJsonArena;

typedef struct {
  const char   *name;      /* NUL-terminated, may contain U+0000 */
  guint32       name_len;  /* bytes */
  guint32       hash;      /* akc_json_hash_name (name, name_len) */
  AkcJsonValue *value;
} AkcJsonMember;

struct _AkcJsonValue {
  gint      ref_count;  /* HEAP only */
  guint8    kind;       /* AkcJsonKind */
  guint8    storage;    /* AkcJsonStorage */
  guint16   height;
  guint32   flags;
  guint32   len;        /* string bytes, array elements, object members */
  guint32   n_values;   /* subtree size, saturating at G_MAXUINT32 */
  union {
    gboolean       boolean;
    double         number;
    const char    *str;
    AkcJsonValue **elements;
    AkcJsonMember *members;
  } u;
  AkcJsonArena *arena;  /* ARENA only */
};

/* Fast inline accessors for internal code: no type checks. */
#define AKC_JSON_KIND(v)        ((AkcJsonKind) (v)->kind)
#define AKC_JSON_IS(v, k)       ((v) != NULL && (v)->kind == (k))
#define AKC_JSON_IS_STRING(v)   AKC_JSON_IS ((v), AKC_JSON_KIND_STRING)
#define AKC_JSON_IS_NUMBER(v)   AKC_JSON_IS ((v), AKC_JSON_KIND_NUMBER)
#define AKC_JSON_IS_OBJECT(v)   AKC_JSON_IS ((v), AKC_JSON_KIND_OBJECT)
#define AKC_JSON_IS_ARRAY(v)    AKC_JSON_IS ((v), AKC_JSON_KIND_ARRAY)
#define AKC_JSON_STR(v)         ((v)->u.str)
#define AKC_JSON_STR_LEN(v)     ((gsize) (v)->len)
#define AKC_JSON_NUMBER(v)      ((v)->u.number)
#define AKC_JSON_LEN(v)         ((gsize) (v)->len)
#define AKC_JSON_ELEMENT(v, i)  ((v)->u.elements[(i)])
#define AKC_JSON_MEMBER(v, i)   (&(v)->u.members[(i)])

/* The immortal literals (STATIC storage). */
extern AkcJsonValue akc_json_null_value;
extern AkcJsonValue akc_json_true_value;
extern AkcJsonValue akc_json_false_value;

/* Arena refcount (akc-json-parser.c owns the arena). */
void          akc_json_arena_ref           (AkcJsonArena       *arena);
void          akc_json_arena_unref         (AkcJsonArena       *arena);

/* Dedups @n members of @src into @dst (may be the same array) per §1.2 and
 * fills @index (nullable; capacity akc_json_index_capacity (n) + 1 slots)
 * when given. @on_duplicate (nullable) receives each losing value.
 * Returns the resulting member count. Shared by the parser and builder. */
gsize         akc_json_members_dedup       (AkcJsonMember      *src,
                                            gsize               n,
                                            AkcJsonMember      *dst,
                                            guint32            *index,
                                            void              (*on_duplicate) (AkcJsonValue *));
gsize         akc_json_index_capacity      (gsize               n);

/* TRUE when @v is a string equal to the NUL-terminated @literal. */
gboolean      akc_json_string_equals       (const AkcJsonValue *v,
                                            const char         *literal);

guint32       akc_json_hash_name           (const char         *name,
                                            gsize               len);

/* Member lookup by (name, len). Returns (transfer none) the value or NULL.
 * @hint (nullable, in/out): where to start the linear scan on small objects;
 * updated to the slot after the hit, so reading members in their stored
 * order costs O(1) each. Ignored for indexed objects. */
AkcJsonValue *akc_json_object_lookup       (const AkcJsonValue *object,
                                            const char         *name,
                                            gsize               name_len,
                                            guint              *hint);
/* Same, returning the member position or -1. */
gssize        akc_json_object_find         (const AkcJsonValue *object,
                                            const char         *name,
                                            gsize               name_len,
                                            guint              *hint);

/* ------------------------------------------------------------------ */
/* Builder (heap nodes)                                                */
/* ------------------------------------------------------------------ */

/* All constructors below take ownership of the values they are given
 * ("steal"); names are copied unless AKC_JSON_FLAG_STATIC_NAMES is passed,
 * in which case they must outlive the value (string literals, schema
 * tables). Input strings MUST be valid UTF-8 (not checked here). */

AkcJsonValue *akc_json_string_new_len      (const char         *str,
                                            gsize               len);
/* Array from @n owned values; @elements itself is not freed. */
AkcJsonValue *akc_json_array_new_steal     (AkcJsonValue      **elements,
                                            gsize               n);

typedef struct {
  const char   *name;
  gsize         name_len;
  AkcJsonValue *value;   /* owned */
} AkcJsonMemberInit;

/* Object from @n members. If @unique is FALSE, duplicate names are
 * resolved per §1.2 (last value, first position; the losing values are
 * unreffed); if TRUE the caller guarantees distinct names (cheaper).
 * @flags: 0 or AKC_JSON_FLAG_STATIC_NAMES. The @members array is not freed. */
AkcJsonValue *akc_json_object_new_steal    (AkcJsonMemberInit  *members,
                                            gsize               n,
                                            gboolean            unique,
                                            guint               flags);

/* ------------------------------------------------------------------ */
/* UTF-8 (WHATWG decode with replacement, §1.2)                        */
/* ------------------------------------------------------------------ */

/* Returns the length of the longest valid UTF-8 prefix of @data (== @len
 * when all of it is valid). U+0000 is valid. Surrogate code points and
 * overlongs are invalid, as in the WHATWG decoder. */
gsize         akc_utf8_valid_prefix        (const char         *data,
                                            gsize               len);

/* WHATWG "UTF-8 decode" with replacement: each maximal invalid
 * subsequence becomes U+FFFD. Fast path: when @data is already valid,
 * returns NULL and sets *@out_len = @len (caller keeps using @data).
 * Otherwise returns a newly allocated, NUL-terminated sanitised copy and
 * its length. Use the result's length for the spec's byte limits. */
char         *akc_utf8_sanitize            (const char         *data,
                                            gsize               len,
                                            gsize              *out_len);

/* Appends the sanitised form of @data to @out (used by streaming decoders). */
void          akc_utf8_sanitize_append     (GString            *out,
                                            const char         *data,
                                            gsize               len);

/* ------------------------------------------------------------------ */
/* Strict parser (§1.2)                                                 */
/* ------------------------------------------------------------------ */

typedef enum {
  AKC_JSON_PARSE_OK = 0,
  AKC_JSON_PARSE_SYNTAX,          /* not RFC 8259 JSON (incl. empty, trailing data) */
  AKC_JSON_PARSE_LONE_SURROGATE,  /* \uXXXX escape left an unpaired surrogate (§10 item 1) */
  AKC_JSON_PARSE_TOO_DEEP,        /* more than max_depth nested containers */
  AKC_JSON_PARSE_TOO_LARGE,       /* input longer than max_bytes */
} AkcJsonParseStatus;

typedef struct {
  gsize max_bytes;   /* raw input bytes; 0 = unlimited */
  guint max_depth;   /* containers open at once; 0 or > AKC_JSON_MAX_DEPTH = AKC_JSON_MAX_DEPTH */
} AkcJsonLimits;

/* Parses exactly one JSON text (ECMAScript JSON.parse grammar, §1.2) from
 * @len raw bytes at @data (not NUL-terminated necessarily; NUL bytes are
 * data). Invalid UTF-8 is replaced by U+FFFD as if the text had been
 * sanitised first (it only matters inside strings: elsewhere a non-ASCII
 * byte is a syntax error either way). Numbers overflowing a double become
 * ±Infinity (accepted; the value is flagged non-finite).
 *
 * @limits may be NULL (defaults). Returns the root (transfer full; all
 * nodes in one arena) or NULL, with the reason in @status (nullable) and
 * the byte offset of the error in @error_offset (nullable).
 * Cost: O(len), no recursion, no allocation beyond the arena and a small
 * scratch stack. */
AkcJsonValue *akc_json_parse               (const char         *data,
                                            gsize               len,
                                            const AkcJsonLimits *limits,
                                            AkcJsonParseStatus *status,
                                            gsize              *error_offset);

/* What a caller knows about one string of @data: the @raw_len bytes from
 * @offset (just after the string's opening quote) decode to @decoded, and
 * end where a decoder is between two characters (not inside an escape or a
 * UTF-8 sequence, and no U+FFFD replacement was decided by a byte at or
 * after @offset + @raw_len). Typically those bytes are identical to the
 * start of a string parsed before, whose value began with @decoded. */
typedef struct {
  gsize       offset;
  gsize       raw_len;
  const char *decoded;
  gsize       decoded_len;
} AkcJsonResume;

/* The longest string value of a parsed text (member names aside): its raw
 * bytes run from @offset (after the opening quote) for @raw_len bytes (up
 * to the closing quote), and @value is its node in the result. */
typedef struct {
  gsize               offset;
  gsize               raw_len;
  const AkcJsonValue *value;
} AkcJsonLongestString;

/* akc_json_parse(), taking the string at @resume->offset (when a string
 * starts there) from @resume (nullable) instead of decoding its first
 * bytes again, and reporting the longest string value in @longest
 * (nullable; value NULL when there is none). The result is the one
 * akc_json_parse() gives when @resume holds. */
AkcJsonValue *akc_json_parse_resume        (const char         *data,
                                            gsize               len,
                                            const AkcJsonLimits *limits,
                                            const AkcJsonResume *resume,
                                            AkcJsonLongestString *longest,
                                            AkcJsonParseStatus *status,
                                            gsize              *error_offset);

/* ------------------------------------------------------------------ */
/* Canonical writer (§1.10)                                            */
/* ------------------------------------------------------------------ */

/* One writer for every encoder and for the content hash. Output is
 * compact (rule 1), strings use the exact JSON.stringify escapes (rule 3),
 * numbers ECMAScript Number::toString (rule 4; non-finite as `null` like
 * JSON.stringify), and whole values re-order free-form objects with
 * array-index member names first (rule 2; objects produced by a schema
 * table have no such names, so their table order is kept).
 *
 * Drive it by hand for table-ordered objects:
 *
 *   AkcJsonWriter w;
 *   akc_json_writer_init (&w, out);          // out: a GString
 *   akc_json_writer_begin_object (&w);
 *   akc_json_writer_member (&w, "kind");
 *   akc_json_writer_string (&w, "text", 4);
 *   akc_json_writer_member (&w, "frame");
 *   akc_json_writer_value (&w, frame);       // an AkcJsonValue
 *   akc_json_writer_end_object (&w);
 *
 * Commas are inserted automatically (the writer looks at the last byte it
 * wrote), so there is no per-level state and no depth limit. The writer
 * appends; it never truncates @out.
 */
typedef struct {
  GString *out;
  gsize    start;   /* offset in out where this writer began */
} AkcJsonWriter;

void  akc_json_writer_init          (AkcJsonWriter      *w,
                                     GString            *out);
void  akc_json_writer_begin_object  (AkcJsonWriter      *w);
void  akc_json_writer_end_object    (AkcJsonWriter      *w);
void  akc_json_writer_begin_array   (AkcJsonWriter      *w);
void  akc_json_writer_end_array     (AkcJsonWriter      *w);
/* Member name (NUL-terminated) followed by ':'; then write exactly one value. */
void  akc_json_writer_member        (AkcJsonWriter      *w,
                                     const char         *name);
void  akc_json_writer_member_len    (AkcJsonWriter      *w,
                                     const char         *name,
                                     gsize               len);
void  akc_json_writer_null          (AkcJsonWriter      *w);
void  akc_json_writer_boolean       (AkcJsonWriter      *w,
                                     gboolean            value);
void  akc_json_writer_number        (AkcJsonWriter      *w,
                                     double              value);
void  akc_json_writer_int           (AkcJsonWriter      *w,
                                     gint64              value);
/* @len may be -1 for a NUL-terminated string. Must be valid UTF-8. */
void  akc_json_writer_string        (AkcJsonWriter      *w,
                                     const char         *str,
                                     gssize              len);
void  akc_json_writer_value         (AkcJsonWriter      *w,
                                     const AkcJsonValue *value);

/* Low-level appenders used by the writer (no comma handling). */
void  akc_json_append_string        (GString            *out,
                                     const char         *str,
                                     gsize               len);
void  akc_json_append_number        (GString            *out,
                                     double              value);
void  akc_json_append_value         (GString            *out,
                                     const AkcJsonValue *value);

/* ECMAScript Number::toString into @buf (at least
 * AKC_JSON_NUMBER_BUF_SIZE bytes); returns the length. NaN -> "NaN",
 * ±Infinity -> "Infinity"/"-Infinity" (the writer emits `null` instead). */
#define AKC_JSON_NUMBER_BUF_SIZE 32
gsize akc_json_format_number        (double              value,
                                     char               *buf);

/* TRUE if @name is a canonical array index ("0".."4294967294", §1.10 rule 2);
 * the index is stored in @out_index (nullable). */
gboolean akc_json_is_array_index    (const char         *name,
                                     gsize               len,
                                     guint32            *out_index);

G_END_DECLS
