/* akc-json-parser.c: strict JSON parser (protocol §1.2) and WHATWG
 * UTF-8 decoding with replacement
 *
 * SPDX-License-Identifier: MIT
 */

#include "config.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "akc-json-private.h"
#include "akc-json-scan-private.h"

/* ------------------------------------------------------------------ */
/* Arena                                                               */
/* ------------------------------------------------------------------ */

typedef struct _Chunk Chunk;
struct _Chunk {
  Chunk *next;
  gsize  size;
  gsize  used;
  /* data follows, 8-aligned */
};

struct _AkcJsonArena {
  gint   ref_count;
  Chunk *chunks;      /* current chunk first */
  gsize  next_size;
  /* the first chunk is allocated inline after the arena */
};

#define ALIGN8(n) (((n) + 7u) & ~(gsize) 7u)
#define CHUNK_DATA(c) ((char *) (c) + ALIGN8 (sizeof (Chunk)))

static AkcJsonArena *
arena_new (gsize first_size)
{
  gsize head = ALIGN8 (sizeof (AkcJsonArena));
  AkcJsonArena *arena;
  Chunk *chunk;

  first_size = ALIGN8 (first_size);
  arena = g_malloc (head + ALIGN8 (sizeof (Chunk)) + first_size);
  arena->ref_count = 1;
  chunk = (Chunk *) ((char *) arena + head);
  chunk->next = NULL;
  chunk->size = first_size;
  chunk->used = 0;
  arena->chunks = chunk;
  arena->next_size = MAX (first_size * 2, 4096);

  return arena;
}

static void
arena_free (AkcJsonArena *arena)
{
  Chunk *c = arena->chunks;

  while (c != NULL)
    {
      Chunk *next = c->next;

      if (next != NULL) /* the last chunk is the inline one */
        g_free (c);
      c = next;
    }

  g_free (arena);
}

/* Makes a new current chunk of at least @size bytes (8-aligned). */
static Chunk *
arena_push_chunk (AkcJsonArena *arena,
                  gsize         size)
{
  gsize csize = ALIGN8 (MAX (arena->next_size, size));
  Chunk *c = g_malloc (ALIGN8 (sizeof (Chunk)) + csize);

  c->size = csize;
  c->used = 0;
  c->next = arena->chunks;
  arena->chunks = c;
  if (arena->next_size < 1024 * 1024)
    arena->next_size *= 2;

  return c;
}

static gpointer
arena_alloc (AkcJsonArena *arena,
             gsize         size)
{
  Chunk *c = arena->chunks;
  gpointer p;

  size = ALIGN8 (size);

  if (G_UNLIKELY (c->size - c->used < size))
    c = arena_push_chunk (arena, size);

  p = CHUNK_DATA (c) + c->used;
  c->used += size;

  return p;
}

/* A string is written straight into the arena, at the end of its current
 * chunk: arena_string_begin() finds room for @want bytes there (or starts
 * a new chunk), arena_string_grow() moves the @len bytes written so far to
 * a new chunk with room for @want more, and arena_string_end() keeps the
 * string. Nothing else is allocated from the arena in between. *room is
 * the space from the start of the string. */
static guint8 *
arena_string_begin (AkcJsonArena *arena,
                    gsize         want,
                    gsize        *room)
{
  Chunk *c = arena->chunks;

  if (c->size - c->used < want)
    c = arena_push_chunk (arena, want);

  *room = c->size - c->used;
  return (guint8 *) CHUNK_DATA (c) + c->used;
}

static guint8 *
arena_string_grow (AkcJsonArena *arena,
                   const guint8 *str,
                   gsize         len,
                   gsize         want,
                   gsize        *room)
{
  Chunk *c = arena_push_chunk (arena, MAX (2 * len, len + want));

  memcpy (CHUNK_DATA (c), str, len);
  *room = c->size;
  return (guint8 *) CHUNK_DATA (c);
}

static inline void
arena_string_end (AkcJsonArena *arena,
                  gsize         size)
{
  arena->chunks->used += ALIGN8 (size);
}

void
akc_json_arena_ref (AkcJsonArena *arena)
{
  g_atomic_int_inc (&arena->ref_count);
}

void
akc_json_arena_unref (AkcJsonArena *arena)
{
  if (g_atomic_int_dec_and_test (&arena->ref_count))
    arena_free (arena);
}

/* ------------------------------------------------------------------ */
/* UTF-8                                                               */
/* ------------------------------------------------------------------ */

/* Length of the valid UTF-8 sequence starting at p (n bytes available),
 * or 0 if the bytes there start an invalid sequence. In the latter case
 * *bad is the length of the maximal invalid subsequence (WHATWG: the lead
 * byte plus the continuation bytes accepted before the failure; >= 1). */
static inline gsize
utf8_seq (const guint8 *p,
          gsize         n,
          gsize        *bad)
{
  guint8 c = p[0];
  guint8 lo = 0x80, hi = 0xBF;
  gsize need, i;

  if (c < 0x80)
    return 1;

  if (c >= 0xC2 && c <= 0xDF)
    need = 1;
  else if (c >= 0xE0 && c <= 0xEF)
    {
      need = 2;
      if (c == 0xE0)
        lo = 0xA0;
      else if (c == 0xED)
        hi = 0x9F;
    }
  else if (c >= 0xF0 && c <= 0xF4)
    {
      need = 3;
      if (c == 0xF0)
        lo = 0x90;
      else if (c == 0xF4)
        hi = 0x8F;
    }
  else
    {
      *bad = 1;
      return 0;
    }

  for (i = 1; i <= need; i++)
    {
      if (i >= n || p[i] < lo || p[i] > hi)
        {
          *bad = i;
          return 0;
        }
      lo = 0x80;
      hi = 0xBF;
    }

  return need + 1;
}

gsize
akc_utf8_valid_prefix (const char *data,
                       gsize       len)
{
  const guint8 *p = (const guint8 *) data;
  gsize i = 0;

  while (i < len)
    {
      gsize bad = 1, k;

      /* ASCII fast path, 8 bytes at a time */
      while (i + 8 <= len)
        {
          guint64 w;

          memcpy (&w, p + i, 8);
          if (w & G_GUINT64_CONSTANT (0x8080808080808080))
            break;
          i += 8;
        }
      if (i >= len)
        break;
      if (p[i] < 0x80)
        {
          i++;
          continue;
        }

      k = utf8_seq (p + i, len - i, &bad);
      if (k == 0)
        return i;
      i += k;
    }

  return len;
}

static void
sanitize_into (GString    *out,
               const char *data,
               gsize       len)
{
  const guint8 *p = (const guint8 *) data;
  gsize i = 0;

  while (i < len)
    {
      gsize valid = akc_utf8_valid_prefix ((const char *) p + i, len - i);
      gsize bad = 1;

      g_string_append_len (out, (const char *) p + i, valid);
      i += valid;
      if (i >= len)
        break;

      (void) utf8_seq (p + i, len - i, &bad);
      g_string_append_len (out, "\xEF\xBF\xBD", 3);
      i += bad;
    }
}

char *
akc_utf8_sanitize (const char *data,
                   gsize       len,
                   gsize      *out_len)
{
  gsize valid = akc_utf8_valid_prefix (data, len);
  GString *out;

  if (valid == len)
    {
      *out_len = len;
      return NULL;
    }

  out = g_string_sized_new (len + 16);
  g_string_append_len (out, data, valid);
  sanitize_into (out, data + valid, len - valid);
  *out_len = out->len;

  return g_string_free (out, FALSE);
}

void
akc_utf8_sanitize_append (GString    *out,
                          const char *data,
                          gsize       len)
{
  sanitize_into (out, data, len);
}

/* ------------------------------------------------------------------ */
/* Parser                                                              */
/* ------------------------------------------------------------------ */

typedef struct {
  const char   *name;      /* member name (objects), in the arena */
  guint32       name_len;
  guint32       hash;
  AkcJsonValue *value;
} Slot;

typedef struct {
  guint8  is_object;
  gsize   first_slot;
  /* pending member name for objects */
  const char *name;
  guint32     name_len;
} Frame;

typedef struct {
  const guint8 *p;
  const guint8 *end;
  const guint8 *start;
  AkcJsonArena *arena;

  Slot   *slots;
  gsize   n_slots;
  gsize   slots_cap;
  Slot    slots_inline[32];

  Frame  *frames;
  gsize   n_frames;
  gsize   frames_cap;
  Frame   frames_inline[16];

  const AkcJsonResume *resume;  /* nullable */

  AkcJsonParseStatus status;
} Parser;

static inline AkcJsonValue *
arena_node (Parser *ps,
            gsize   extra)
{
  AkcJsonValue *v = arena_alloc (ps->arena, sizeof (AkcJsonValue) + extra);

  v->ref_count = 0;
  v->storage = AKC_JSON_STORAGE_ARENA;
  v->height = 0;
  v->flags = 0;
  v->len = 0;
  v->n_values = 1;
  v->arena = ps->arena;

  return v;
}

static inline void
skip_ws (Parser *ps)
{
  while (ps->p < ps->end &&
         (*ps->p == ' ' || *ps->p == '\n' || *ps->p == '\r' || *ps->p == '\t'))
    ps->p++;
}

static inline int
hex_val (guint8 c)
{
  if (c >= '0' && c <= '9')
    return c - '0';
  if (c >= 'a' && c <= 'f')
    return c - 'a' + 10;
  if (c >= 'A' && c <= 'F')
    return c - 'A' + 10;
  return -1;
}

static gboolean
read_hex4 (Parser  *ps,
           guint32 *out)
{
  guint32 v = 0;
  int i;

  if (ps->end - ps->p < 4)
    return FALSE;
  for (i = 0; i < 4; i++)
    {
      int h = hex_val (ps->p[i]);

      if (h < 0)
        return FALSE;
      v = (v << 4) | (guint32) h;
    }
  ps->p += 4;
  *out = v;

  return TRUE;
}

/* Room kept free after a string's bytes for what one escape or one UTF-8
 * character writes (at most 4 bytes) and the final NUL. */
#define STRING_SLACK 5

/* Scans a string whose opening quote has been consumed, writing its value
 * into the arena. Runs of plain bytes go through the vector scanner; the
 * loop handles one escape, control byte, quote or non-ASCII character at a
 * time. On success returns its bytes (NUL-terminated) and the length. */
static const char *
scan_string (Parser *ps,
             gsize  *out_len)
{
  const guint8 *p = ps->p;
  gsize rest = (gsize) (ps->end - p);
  gsize want = MIN (rest, 64) + STRING_SLACK;
  gsize room, len = 0;
  guint8 *dst;

  if (rest > 4096 && ps->arena->chunks->size - ps->arena->chunks->used < rest + STRING_SLACK)
    {
      /* The rest of the text does not fit the chunk: a new one that holds
       * it all (up to 4 MiB), so that a long string is written in one
       * place instead of grown and moved. Later values use it too. */
      want = MIN (rest, 4 * 1024 * 1024) + STRING_SLACK;
    }
  dst = arena_string_begin (ps->arena, want, &room);

  if (ps->resume != NULL && p == ps->start + ps->resume->offset && ps->resume->raw_len <= rest)
    {
      /* The caller knows how the first bytes of this string decode. */
      const AkcJsonResume *r = ps->resume;

      if (room < r->decoded_len + STRING_SLACK)
        dst = arena_string_grow (ps->arena, dst, 0, r->decoded_len + MIN (rest - r->raw_len, 64) + STRING_SLACK, &room);
      memcpy (dst, r->decoded, r->decoded_len);
      len = r->decoded_len;
      p += r->raw_len;
    }

  for (;;)
    {
      guint8 c;

      rest = (gsize) (ps->end - p);
      if (room - len < rest + STRING_SLACK && room - len < 64 + STRING_SLACK)
        dst = arena_string_grow (ps->arena, dst, len, rest + STRING_SLACK, &room);

      {
        gsize k = akc_json_scan_plain (p, MIN (rest, room - len - STRING_SLACK), dst + len);

        p += k;
        len += k;
      }

      if (G_UNLIKELY (p >= ps->end))
        goto syntax;

      c = *p;
      if (c == '"')
        {
          p++;
          break;
        }
      else if (c == '\\')
        {
          if (ps->end - p < 2)
            {
              p = ps->end;
              goto syntax;
            }
          c = p[1];
          p += 2;
          switch (c)
            {
            case '"': dst[len++] = '"'; break;
            case '\\': dst[len++] = '\\'; break;
            case '/': dst[len++] = '/'; break;
            case 'b': dst[len++] = '\b'; break;
            case 'f': dst[len++] = '\f'; break;
            case 'n': dst[len++] = '\n'; break;
            case 'r': dst[len++] = '\r'; break;
            case 't': dst[len++] = '\t'; break;
            case 'u':
              {
                guint32 u, lo;

                ps->p = p;
                if (!read_hex4 (ps, &u))
                  goto syntax;
                if (u >= 0xD800 && u <= 0xDBFF)
                  {
                    if (ps->end - ps->p >= 6 && ps->p[0] == '\\' && ps->p[1] == 'u')
                      {
                        const guint8 *save = ps->p;

                        ps->p += 2;
                        if (!read_hex4 (ps, &lo))
                          goto syntax_here;
                        if (lo >= 0xDC00 && lo <= 0xDFFF)
                          u = 0x10000 + ((u - 0xD800) << 10) + (lo - 0xDC00);
                        else
                          {
                            ps->p = save;
                            goto lone;
                          }
                      }
                    else
                      goto lone;
                  }
                else if (u >= 0xDC00 && u <= 0xDFFF)
                  goto lone;
                len += (gsize) g_unichar_to_utf8 (u, (char *) dst + len);
                p = ps->p;
                break;
              }
            default:
              goto syntax;
            }
        }
      else if (c < 0x20)
        goto syntax;
      else if (c >= 0x80)
        {
          gsize bad = 1;
          gsize k = utf8_seq (p, (gsize) (ps->end - p), &bad);

          if (k > 0)
            {
              memcpy (dst + len, p, k);
              len += k;
              p += k;
            }
          else
            {
              memcpy (dst + len, "\xEF\xBF\xBD", 3);
              len += 3;
              p += bad;
            }
        }
      /* else: a plain byte the scanner left for want of room */
    }

  if (G_UNLIKELY (len > G_MAXUINT32))
    goto syntax;

  dst[len] = '\0';
  arena_string_end (ps->arena, len + 1);
  ps->p = p;
  *out_len = len;
  return (const char *) dst;

lone:
  ps->status = AKC_JSON_PARSE_LONE_SURROGATE;
  return NULL;
syntax:
  ps->p = p;
syntax_here:
  ps->status = AKC_JSON_PARSE_SYNTAX;
  return NULL;
}

static AkcJsonValue *
scan_number (Parser *ps)
{
  const guint8 *s = ps->p;
  const guint8 *q = s;
  gboolean is_int = TRUE;
  AkcJsonValue *v;
  double d;

  if (q < ps->end && *q == '-')
    q++;
  if (q >= ps->end)
    goto syntax;
  if (*q == '0')
    q++;
  else if (*q >= '1' && *q <= '9')
    while (q < ps->end && *q >= '0' && *q <= '9')
      q++;
  else
    goto syntax;

  if (q < ps->end && *q == '.')
    {
      is_int = FALSE;
      q++;
      if (q >= ps->end || *q < '0' || *q > '9')
        goto syntax;
      while (q < ps->end && *q >= '0' && *q <= '9')
        q++;
    }
  if (q < ps->end && (*q == 'e' || *q == 'E'))
    {
      is_int = FALSE;
      q++;
      if (q < ps->end && (*q == '+' || *q == '-'))
        q++;
      if (q >= ps->end || *q < '0' || *q > '9')
        goto syntax;
      while (q < ps->end && *q >= '0' && *q <= '9')
        q++;
    }

  if (is_int && q - s <= 16)
    {
      /* At most 15 digits (plus sign): exact in a double. */
      const guint8 *r = s;
      gboolean neg = FALSE;
      gint64 acc = 0;

      if (*r == '-')
        {
          neg = TRUE;
          r++;
        }
      if (q - r <= 15)
        {
          while (r < q)
            acc = acc * 10 + (*r++ - '0');
          d = neg ? -(double) acc : (double) acc;
          goto done;
        }
    }

  {
    char small[64];
    gsize n = (gsize) (q - s);
    char *tmp = n < sizeof small ? small : g_malloc (n + 1);

    memcpy (tmp, s, n);
    tmp[n] = '\0';
    d = g_ascii_strtod (tmp, NULL); /* overflow gives ±HUGE_VAL = ±Infinity */
    if (tmp != small)
      g_free (tmp);
  }

done:
  ps->p = q;
  v = arena_node (ps, 0);
  v->kind = AKC_JSON_KIND_NUMBER;
  v->u.number = d;
  if (!isfinite (d))
    v->flags |= AKC_JSON_FLAG_NONFINITE;
  return v;

syntax:
  ps->status = AKC_JSON_PARSE_SYNTAX;
  return NULL;
}

static gboolean
scan_literal (Parser     *ps,
              const char *lit,
              gsize       len)
{
  if ((gsize) (ps->end - ps->p) < len || memcmp (ps->p, lit, len) != 0)
    {
      ps->status = AKC_JSON_PARSE_SYNTAX;
      return FALSE;
    }
  ps->p += len;
  return TRUE;
}

static void
push_slot (Parser       *ps,
           const char   *name,
           guint32       name_len,
           AkcJsonValue *value)
{
  Slot *slot;

  if (G_UNLIKELY (ps->n_slots == ps->slots_cap))
    {
      gsize cap = ps->slots_cap * 2;

      if (ps->slots == ps->slots_inline)
        {
          ps->slots = g_new (Slot, cap);
          memcpy (ps->slots, ps->slots_inline, sizeof ps->slots_inline);
        }
      else
        ps->slots = g_renew (Slot, ps->slots, cap);
      ps->slots_cap = cap;
    }

  slot = &ps->slots[ps->n_slots++];
  slot->name = name;
  slot->name_len = name_len;
  slot->value = value;
}

static gboolean
push_frame (Parser  *ps,
            gboolean is_object,
            guint    max_depth)
{
  Frame *f;

  if (ps->n_frames >= max_depth)
    {
      ps->status = AKC_JSON_PARSE_TOO_DEEP;
      return FALSE;
    }

  if (G_UNLIKELY (ps->n_frames == ps->frames_cap))
    {
      gsize cap = ps->frames_cap * 2;

      if (ps->frames == ps->frames_inline)
        {
          ps->frames = g_new (Frame, cap);
          memcpy (ps->frames, ps->frames_inline, sizeof ps->frames_inline);
        }
      else
        ps->frames = g_renew (Frame, ps->frames, cap);
      ps->frames_cap = cap;
    }

  f = &ps->frames[ps->n_frames++];
  f->is_object = is_object;
  f->first_slot = ps->n_slots;
  f->name = NULL;
  f->name_len = 0;

  return TRUE;
}

static inline void
account (AkcJsonValue       *parent,
         const AkcJsonValue *child,
         guint              *height)
{
  if (child->height + 1u > *height)
    *height = child->height + 1u;
  parent->n_values = parent->n_values > G_MAXUINT32 - child->n_values
                     ? G_MAXUINT32 : parent->n_values + child->n_values;
  parent->flags |= child->flags & AKC_JSON_FLAG_NONFINITE;
}

static AkcJsonValue *
close_frame (Parser *ps)
{
  Frame *f = &ps->frames[--ps->n_frames];
  Slot *slots = ps->slots + f->first_slot;
  gsize n = ps->n_slots - f->first_slot;
  AkcJsonValue *v;
  guint height = 0;
  gsize i;

  if (!f->is_object)
    {
      v = arena_node (ps, n * sizeof (AkcJsonValue *));
      v->kind = AKC_JSON_KIND_ARRAY;
      v->u.elements = (AkcJsonValue **) (v + 1);
      for (i = 0; i < n; i++)
        {
          v->u.elements[i] = slots[i].value;
          account (v, slots[i].value, &height);
        }
      v->len = (guint32) n;
    }
  else
    {
      gboolean indexed = n > AKC_JSON_INDEX_THRESHOLD;
      gsize index_size = indexed ? (akc_json_index_capacity (n) + 1) * sizeof (guint32) : 0;
      AkcJsonMember *members;
      guint32 *index = NULL;
      gsize m;

      v = arena_node (ps, n * sizeof (AkcJsonMember) + index_size);
      v->kind = AKC_JSON_KIND_OBJECT;
      members = (AkcJsonMember *) (v + 1);
      v->u.members = members;
      if (indexed)
        index = (guint32 *) (members + n);

      for (i = 0; i < n; i++)
        {
          members[i].name = slots[i].name;
          members[i].name_len = slots[i].name_len;
          members[i].hash = slots[i].hash;
          members[i].value = slots[i].value;
        }

      m = akc_json_members_dedup (members, n, members, index, NULL);
      if (indexed)
        {
          if (m != n)
            memmove (members + m, index, index_size);
          v->flags |= AKC_JSON_FLAG_INDEXED;
        }
      v->len = (guint32) m;

      for (i = 0; i < m; i++)
        account (v, members[i].value, &height);
    }

  v->height = (guint16) height;
  ps->n_slots = f->first_slot;

  return v;
}

/* Reads `"name"` + ws + `:` for an object member into the top frame. */
static gboolean
scan_member_name (Parser *ps)
{
  Frame *f = &ps->frames[ps->n_frames - 1];
  const char *name;
  gsize len;

  skip_ws (ps);
  if (ps->p >= ps->end || *ps->p != '"')
    goto syntax;
  ps->p++;
  name = scan_string (ps, &len);
  if (name == NULL)
    return FALSE;
  skip_ws (ps);
  if (ps->p >= ps->end || *ps->p != ':')
    goto syntax;
  ps->p++;

  f->name = name;
  f->name_len = (guint32) len;
  return TRUE;

syntax:
  ps->status = AKC_JSON_PARSE_SYNTAX;
  return FALSE;
}

AkcJsonValue *
akc_json_parse (const char          *data,
                gsize                len,
                const AkcJsonLimits *limits,
                AkcJsonParseStatus  *status,
                gsize               *error_offset)
{
  return akc_json_parse_resume (data, len, limits, NULL, NULL, status, error_offset);
}

AkcJsonValue *
akc_json_parse_resume (const char          *data,
                       gsize                len,
                       const AkcJsonLimits *limits,
                       const AkcJsonResume *resume,
                       AkcJsonLongestString *longest,
                       AkcJsonParseStatus  *status,
                       gsize               *error_offset)
{
  Parser ps;
  AkcJsonValue *v = NULL;
  AkcJsonValue *root = NULL;
  guint max_depth = AKC_JSON_MAX_DEPTH;

  if (limits != NULL && limits->max_depth > 0 && limits->max_depth < AKC_JSON_MAX_DEPTH)
    max_depth = limits->max_depth;

  if (limits != NULL && limits->max_bytes > 0 && len > limits->max_bytes)
    {
      if (status)
        *status = AKC_JSON_PARSE_TOO_LARGE;
      if (error_offset)
        *error_offset = 0;
      return NULL;
    }

  /* An empty buffer may have no storage (an empty GByteArray's data). */
  if (data == NULL)
    {
      g_return_val_if_fail (len == 0, NULL);
      data = "";
    }

  ps.start = ps.p = (const guint8 *) data;
  ps.end = ps.p + len;
  ps.arena = arena_new (MIN (MAX (len * 3 + 64, 256), 64 * 1024));
  ps.slots = ps.slots_inline;
  ps.n_slots = 0;
  ps.slots_cap = G_N_ELEMENTS (ps.slots_inline);
  ps.frames = ps.frames_inline;
  ps.n_frames = 0;
  ps.frames_cap = G_N_ELEMENTS (ps.frames_inline);
  ps.resume = resume;
  if (longest != NULL)
    {
      longest->offset = 0;
      longest->raw_len = 0;
      longest->value = NULL;
    }
  ps.status = AKC_JSON_PARSE_OK;

value:
  skip_ws (&ps);
  if (ps.p >= ps.end)
    goto syntax;

  switch (*ps.p)
    {
    case '{':
      ps.p++;
      if (!push_frame (&ps, TRUE, max_depth))
        goto fail;
      skip_ws (&ps);
      if (ps.p < ps.end && *ps.p == '}')
        {
          ps.p++;
          v = close_frame (&ps);
          goto got_value;
        }
      if (!scan_member_name (&ps))
        goto fail;
      goto value;

    case '[':
      ps.p++;
      if (!push_frame (&ps, FALSE, max_depth))
        goto fail;
      skip_ws (&ps);
      if (ps.p < ps.end && *ps.p == ']')
        {
          ps.p++;
          v = close_frame (&ps);
          goto got_value;
        }
      goto value;

    case '"':
      {
        const char *s;
        gsize slen;

        const guint8 *start = ++ps.p;

        s = scan_string (&ps, &slen);
        if (s == NULL)
          goto fail;
        v = arena_node (&ps, 0);
        v->kind = AKC_JSON_KIND_STRING;
        v->u.str = s;
        v->len = (guint32) slen;
        if (longest != NULL && (longest->value == NULL || (gsize) (ps.p - start) - 1 > longest->raw_len))
          {
            longest->offset = (gsize) (start - ps.start);
            longest->raw_len = (gsize) (ps.p - start) - 1;
            longest->value = v;
          }
        goto got_value;
      }

    case 't':
      if (!scan_literal (&ps, "true", 4))
        goto fail;
      v = &akc_json_true_value;
      goto got_value;

    case 'f':
      if (!scan_literal (&ps, "false", 5))
        goto fail;
      v = &akc_json_false_value;
      goto got_value;

    case 'n':
      if (!scan_literal (&ps, "null", 4))
        goto fail;
      v = &akc_json_null_value;
      goto got_value;

    default:
      if (*ps.p == '-' || (*ps.p >= '0' && *ps.p <= '9'))
        {
          v = scan_number (&ps);
          if (v == NULL)
            goto fail;
          goto got_value;
        }
      goto syntax;
    }

got_value:
  if (ps.n_frames == 0)
    {
      root = v;
      skip_ws (&ps);
      if (ps.p != ps.end)
        goto syntax;
      goto out;
    }
  else
    {
      Frame *f = &ps.frames[ps.n_frames - 1];

      push_slot (&ps, f->name, f->name_len, v);
      if (f->is_object)
        ps.slots[ps.n_slots - 1].hash = akc_json_hash_name (f->name, f->name_len);

      skip_ws (&ps);
      if (ps.p >= ps.end)
        goto syntax;

      if (*ps.p == ',')
        {
          ps.p++;
          if (f->is_object && !scan_member_name (&ps))
            goto fail;
          goto value;
        }
      if ((f->is_object && *ps.p == '}') || (!f->is_object && *ps.p == ']'))
        {
          ps.p++;
          v = close_frame (&ps);
          goto got_value;
        }
      goto syntax;
    }

syntax:
  ps.status = AKC_JSON_PARSE_SYNTAX;
fail:
  root = NULL;

out:
  if (ps.slots != ps.slots_inline)
    g_free (ps.slots);
  if (ps.frames != ps.frames_inline)
    g_free (ps.frames);

  if (status != NULL)
    *status = ps.status;
  if (error_offset != NULL)
    *error_offset = root ? 0 : (gsize) (ps.p - ps.start);

  if (root == NULL)
    {
      akc_json_arena_unref (ps.arena);
      return NULL;
    }

  if (root->storage != AKC_JSON_STORAGE_ARENA)
    {
      /* a literal root: no arena needed */
      akc_json_arena_unref (ps.arena);
    }

  return root;
}
