/* akc-ask-events.c: Ask service events v1, the NDJSON decoder and the
 * incremental stream driver (protocol §6.1–§6.3)
 *
 * SPDX-License-Identifier: MIT
 */

#include "config.h"

#include <string.h>

#include "akc-ask-events.h"
#include "akc-ask-events-private.h"
#include "akc-json-private.h"
#include "akc-schema-private.h"
#include "akc-text-private.h"

#define MAX_RECORD_BYTES AKC_ASK_EVENT_MAX_RECORD_BYTES
#define MAX_RECORDS      AKC_ASK_EVENT_MAX_RECORDS

/* A raw line no longer than this stays within the record limit even if
 * every byte were invalid UTF-8 and became U+FFFD (3 bytes). */
#define RAW_SAFE_BYTES   (MAX_RECORD_BYTES / 3)

#define REPLACEMENT      "\xEF\xBF\xBD"

/* ------------------------------------------------------------------ */
/* §6.1 event records (all closed)                                     */
/* ------------------------------------------------------------------ */

static const AkcSchemaField text_fields[] = {
  { "type",  AKC_SCHEMA_LITERAL ("text") },
  { "delta", AKC_SCHEMA_STRING (0, 1048576) },
};
static const AkcSchemaTable text_table = AKC_SCHEMA_TABLE (text_fields, AKC_SCHEMA_CLOSED);

static const AkcSchemaField tool_fields[] = {
  { "type", AKC_SCHEMA_LITERAL ("tool") },
  { "id",   AKC_SCHEMA_STRING (0, 256) },
  { "name", AKC_SCHEMA_STRING (0, 128) },
  { "args", AKC_SCHEMA_MAP (128, NULL) },
};
static const AkcSchemaTable tool_table = AKC_SCHEMA_TABLE (tool_fields, AKC_SCHEMA_CLOSED);

static const AkcSchemaField done_fields[] = {
  { "type",  AKC_SCHEMA_LITERAL ("done") },
  { "model", AKC_SCHEMA_STRING (0, 256), .optional = TRUE },
};
static const AkcSchemaTable done_table = AKC_SCHEMA_TABLE (done_fields, AKC_SCHEMA_CLOSED);

static const AkcSchemaField error_fields[] = {
  { "type",      AKC_SCHEMA_LITERAL ("error") },
  { "message",   AKC_SCHEMA_STRING (1, 4096) },
  { "code",      AKC_SCHEMA_PATTERN (akc_text_is_ask_code), .optional = TRUE },
  { "retryable", AKC_SCHEMA_BOOL, .optional = TRUE },
};
static const AkcSchemaTable error_table = AKC_SCHEMA_TABLE (error_fields, AKC_SCHEMA_CLOSED);

static const AkcSchemaTable * const event_tables[] = {
  &text_table, &tool_table, &done_table, &error_table, NULL
};
static const AkcSchemaType event_type = AKC_SCHEMA_UNION ("type", event_tables);

G_DEFINE_ENUM_TYPE (AkcAskEventKind, akc_ask_event_kind,
  G_DEFINE_ENUM_VALUE (AKC_ASK_EVENT_KIND_INVALID, "invalid"),
  G_DEFINE_ENUM_VALUE (AKC_ASK_EVENT_KIND_TEXT, "text"),
  G_DEFINE_ENUM_VALUE (AKC_ASK_EVENT_KIND_TOOL, "tool"),
  G_DEFINE_ENUM_VALUE (AKC_ASK_EVENT_KIND_DONE, "done"),
  G_DEFINE_ENUM_VALUE (AKC_ASK_EVENT_KIND_ERROR, "error"))

/* A trimmed, non-empty record of at most MAX_RECORD_BYTES (after UTF-8
 * replacement): the event, or NULL when it is inert. @data may hold
 * invalid UTF-8: the parser replaces it exactly as a decoder would. */
static AkcJsonValue *
decode_trimmed (const char *data,
                gsize       len)
{
  AkcJsonValue *value;
  AkcJsonValue *event = NULL;

  value = akc_json_parse (data, len, NULL, NULL, NULL);
  if (value == NULL)
    return NULL;

  if (!akc_schema_validate (&event_type, value, NULL, &event))
    event = NULL;
  akc_json_value_unref (value);

  return event;
}

/* ------------------------------------------------------------------ */
/* Raw-byte helpers                                                    */
/* ------------------------------------------------------------------ */

/* The §1.4 WS code point encoded at the start of @p, matched on exact
 * bytes so that it is also right on text that still holds invalid UTF-8
 * (a valid sequence decodes to itself wherever it stands, and no WS
 * member is U+FFFD). Returns its length, 0 if none. */
static inline gsize
ws_prefix (const guchar *p,
           gsize         n)
{
  if (n == 0)
    return 0;
  if (p[0] < 0x80)
    return (p[0] == ' ' || (p[0] >= 0x09 && p[0] <= 0x0D)) ? 1 : 0;
  if (p[0] == 0xC2)
    return n >= 2 && p[1] == 0xA0 ? 2 : 0;
  if (n < 3)
    return 0;

  switch (p[0])
    {
    case 0xE1:  /* U+1680 */
      return p[1] == 0x9A && p[2] == 0x80 ? 3 : 0;
    case 0xE2:  /* U+2000–U+200A, U+2028, U+2029, U+202F, U+205F */
      if (p[1] == 0x80)
        return (p[2] >= 0x80 && p[2] <= 0x8A) || p[2] == 0xA8 || p[2] == 0xA9 || p[2] == 0xAF ? 3 : 0;
      return p[1] == 0x81 && p[2] == 0x9F ? 3 : 0;
    case 0xE3:  /* U+3000 */
      return p[1] == 0x80 && p[2] == 0x80 ? 3 : 0;
    case 0xEF:  /* U+FEFF */
      return p[1] == 0xBB && p[2] == 0xBF ? 3 : 0;
    default:
      return 0;
    }
}

/* The WS code point that ends @p + @n: its length, 0 if none. */
static inline gsize
ws_suffix (const guchar *p,
           gsize         n)
{
  guchar c;

  if (n == 0)
    return 0;
  c = p[n - 1];
  if (c < 0x80)
    return (c == ' ' || (c >= 0x09 && c <= 0x0D)) ? 1 : 0;
  if (c == 0xA0 && n >= 2 && p[n - 2] == 0xC2)
    return 2;
  if (n >= 3 && ws_prefix (p + n - 3, 3) == 3)
    return 3;

  return 0;
}

/* §1.4 trim() on bytes. */
static inline const char *
trim (const char *s,
      gsize       n,
      gsize      *out_n)
{
  const guchar *p = (const guchar *) s;
  gsize k;

  while ((k = ws_prefix (p, n)) > 0)
    {
      p += k;
      n -= k;
    }
  while ((k = ws_suffix (p, n)) > 0)
    n -= k;

  *out_n = n;
  return (const char *) p;
}

/* Continuation bytes a UTF-8 lead byte needs (0 for ASCII; -1 when it can
 * never start a sequence), and the bounds of its first continuation byte
 * (WHATWG UTF-8 decoder). */
static inline int
utf8_lead (guchar  c,
           guchar *lo,
           guchar *hi)
{
  *lo = 0x80;
  *hi = 0xBF;
  if (c < 0x80)
    return 0;
  if (c >= 0xC2 && c <= 0xDF)
    return 1;
  if (c >= 0xE0 && c <= 0xEF)
    {
      if (c == 0xE0)
        *lo = 0xA0;
      else if (c == 0xED)
        *hi = 0x9F;
      return 2;
    }
  if (c >= 0xF0 && c <= 0xF4)
    {
      if (c == 0xF0)
        *lo = 0x90;
      else if (c == 0xF4)
        *hi = 0x8F;
      return 3;
    }
  return -1;
}

/* At an invalid position: the length of the maximal subpart the WHATWG
 * decoder replaces by one U+FFFD (>= 1). Also the length of a valid but
 * unfinished sequence that @n cuts short. */
static gsize
utf8_maximal_subpart (const guchar *p,
                      gsize         n)
{
  guchar lo, hi;
  int need = utf8_lead (p[0], &lo, &hi);
  int i;

  if (need <= 0)
    return 1;

  for (i = 1; i <= need; i++)
    {
      if ((gsize) i >= n || p[i] < lo || p[i] > hi)
        return i;
      lo = 0x80;
      hi = 0xBF;
    }

  return need + 1;
}

/* The bytes ending @p + @n that a streaming UTF-8 decoder holds back: a
 * lead byte and the valid continuation bytes after it, short of a whole
 * character (0..3). */
static gsize
utf8_incomplete_tail (const guchar *p,
                      gsize         n)
{
  gsize k;

  for (k = 1; k <= 3 && k <= n; k++)
    {
      guchar c = p[n - k];
      guchar lo, hi;
      int need;

      if (c >= 0x80 && c <= 0xBF)
        continue;   /* a continuation byte: look further back */

      need = utf8_lead (c, &lo, &hi);
      if (need < (int) k)
        return 0;   /* ASCII, an impossible byte, or a finished sequence */

      return utf8_maximal_subpart (p + n - k, k) == k ? k : 0;
    }

  return 0;
}

/* The length of @n raw bytes after WHATWG replacement. */
static gsize
utf8_replaced_length (const guchar *p,
                      gsize         n)
{
  gsize total = 0;

  while (n > 0)
    {
      gsize valid = akc_utf8_valid_prefix ((const char *) p, n);
      gsize bad;

      total += valid;
      p += valid;
      n -= valid;
      if (n == 0)
        break;

      bad = utf8_maximal_subpart (p, n);
      total += 3;
      p += bad;
      n -= bad;
    }

  return total;
}

static const guchar *
find_last_lf (const guchar *p,
              const guchar *end)
{
  while (end > p)
    if (*--end == '\n')
      return end;

  return NULL;
}

/* A complete raw line (without its LF): trims it and decodes it. */
static void
decode_raw_line (const char *data,
                 gsize       len,
                 GPtrArray  *events)
{
  gsize n;
  const char *s = trim (data, len, &n);
  AkcJsonValue *event;

  if (n == 0)
    return;
  if (n > RAW_SAFE_BYTES && utf8_replaced_length ((const guchar *) s, n) > MAX_RECORD_BYTES)
    return;

  event = decode_trimmed (s, n);
  if (event != NULL)
    g_ptr_array_add (events, event);
}

/* ------------------------------------------------------------------ */
/* Single records and the one-call decoder                             */
/* ------------------------------------------------------------------ */

/**
 * akc_ask_event_get_kind:
 * @event: an Ask event
 *
 * Tells which variant @event is, by its `type` member. Events from the
 * decoders are always valid; this does not validate the other members.
 *
 * Returns: the kind, or %AKC_ASK_EVENT_KIND_INVALID when @event is not an
 *   object with a known `type`
 *
 * Since: 0.1
 */
AkcAskEventKind
akc_ask_event_get_kind (AkcJsonValue *event)
{
  AkcJsonValue *type;

  g_return_val_if_fail (event != NULL, AKC_ASK_EVENT_KIND_INVALID);

  if (!AKC_JSON_IS_OBJECT (event))
    return AKC_ASK_EVENT_KIND_INVALID;

  type = akc_json_object_lookup (event, "type", 4, NULL);
  if (akc_json_string_equals (type, "text"))
    return AKC_ASK_EVENT_KIND_TEXT;
  if (akc_json_string_equals (type, "tool"))
    return AKC_ASK_EVENT_KIND_TOOL;
  if (akc_json_string_equals (type, "done"))
    return AKC_ASK_EVENT_KIND_DONE;
  if (akc_json_string_equals (type, "error"))
    return AKC_ASK_EVENT_KIND_ERROR;

  return AKC_ASK_EVENT_KIND_INVALID;
}

/**
 * akc_ask_event_decode:
 * @line: one record line,
 *   without its line feed
 * @length: length of @line in bytes, or -1 if it is NUL-terminated
 *
 * Decodes one Ask event record ([protocol §6.1](wire-formats.html#protocol-6)): @line is trimmed of
 * white space (a CR before the line feed included) and must then be at
 * most %AKC_ASK_EVENT_MAX_RECORD_BYTES long, JSON, and a valid event with
 * no unknown member. A line that holds a line feed is not one record.
 *
 * Unlike the other decoders it takes no diagnostic: the Ask stream skips
 * an invalid record without a word (§6.1), so there is none to give.
 *
 * Returns: (transfer full) (nullable): the event in canonical member
 *   order, or %NULL when the record is inert (invalid records have no
 *   diagnostic)
 *
 * Since: 0.1
 */
AkcJsonValue *
akc_ask_event_decode (const char *line,
                             gssize      length)
{
  g_autoptr(GPtrArray) events = NULL;

  g_return_val_if_fail (line != NULL || length == 0, NULL);

  if (length < 0)
    length = strlen (line);
  if (memchr (line, '\n', length) != NULL)
    return NULL;

  events = g_ptr_array_new_with_free_func ((GDestroyNotify) akc_json_value_unref);
  decode_raw_line (line, length, events);

  return events->len == 1 ? g_ptr_array_steal_index (events, 0) : NULL;
}

/**
 * akc_ask_event_decode_utf8: (rename-to akc_ask_event_decode)
 * @line: one record line,
 *   without its line feed
 *
 * Does what akc_ask_event_decode() does, for NUL-terminated @line:
 * the form bindings see.
 *
 * Returns: (transfer full) (nullable): the event in canonical member
 *   order, or %NULL when the record is inert (invalid records have no
 *   diagnostic)
 *
 * Since: 0.1
 */
AkcJsonValue *
akc_ask_event_decode_utf8 (const char *line)
{
  return akc_ask_event_decode (line, -1);
}

/**
 * akc_ask_event_encode:
 * @event: an Ask event
 * @length: (out) (optional): return location for the length of the result
 *
 * Encodes an event as one NDJSON record: its members in canonical order,
 * compact, followed by a line feed ([protocol §6.1](wire-formats.html#protocol-6)).
 *
 * Returns: (transfer full) (nullable): the record line, or %NULL when
 *   @event is not a valid Ask event
 *
 * Since: 0.1
 */
char *
akc_ask_event_encode (AkcJsonValue *event,
                      gsize        *length)
{
  g_autoptr(AkcJsonValue) normalised = NULL;
  GString *out;

  g_return_val_if_fail (event != NULL, NULL);

  if (!akc_schema_validate (&event_type, event, NULL, &normalised))
    return NULL;

  out = g_string_new (NULL);
  akc_json_append_value (out, normalised);
  g_string_append_c (out, '\n');
  if (length != NULL)
    *length = out->len;

  return g_string_free (out, FALSE);
}

/**
 * akc_ask_event_encode_utf8: (rename-to akc_ask_event_encode)
 * @event: an Ask event
 *
 * Does what akc_ask_event_encode() does, without the
 * length out-parameter: the form bindings see. The text ends at its
 * first U+0000.
 *
 * Returns: (transfer full) (nullable): the record line, or %NULL when
 *   @event is not a valid Ask event
 *
 * Since: 0.1
 */
char *
akc_ask_event_encode_utf8 (AkcJsonValue *event)
{
  return akc_ask_event_encode (event, NULL);
}

/**
 * akc_ask_events_decode:
 * @buffer: NDJSON text
 * @length: length of @buffer in bytes, or -1 if it is NUL-terminated
 * @rest: (out) (optional) (transfer full): return location for the text to
 *   keep for the next call, NUL-terminated
 * @rest_length: (out) (optional): return location for the length of @rest
 * @discarded_partial: (out) (optional): return location for whether an
 *   unterminated line longer than %AKC_ASK_EVENT_MAX_RECORD_BYTES was
 *   dropped
 *
 * Decodes the complete lines of an NDJSON buffer once
 * (`decodeAskEvents`, [protocol §6.2](wire-formats.html#protocol-6)). Invalid UTF-8 is replaced by
 * U+FFFD first. Then, at most %AKC_ASK_EVENT_MAX_RECORDS lines ending in
 * a line feed are examined in order, blank, oversized and invalid ones
 * included; each is trimmed of white space (so a CR before the line feed
 * goes), skipped when empty or longer than
 * %AKC_ASK_EVENT_MAX_RECORD_BYTES, and otherwise decoded as in
 * [func@ask_event_decode]. When the budget runs out, the remaining
 * complete lines are dropped unexamined. The text after the last line
 * feed examined or dropped is the rest, unless it is longer than
 * %AKC_ASK_EVENT_MAX_RECORD_BYTES: then it is dropped too and
 * @discarded_partial is set, and the caller must drop its input through
 * the next line feed. [class@AskEventDecoder] does all of this for a
 * byte stream.
 *
 * Returns: (transfer full) (element-type AkcJsonValue): the events in
 *   order, in canonical member order
 *
 * Since: 0.1
 */
GPtrArray *
akc_ask_events_decode (const char *buffer,
                       gssize      length,
                       char      **rest,
                       gsize      *rest_length,
                       gboolean   *discarded_partial)
{
  g_autofree char *sanitized = NULL;
  GPtrArray *events;
  const guchar *data, *end, *p;
  gsize len, records = 0;
  gboolean discarded;

  g_return_val_if_fail (buffer != NULL || length == 0, NULL);

  if (length < 0)
    length = strlen (buffer);

  sanitized = akc_utf8_sanitize (buffer, (gsize) length, &len);
  data = (const guchar *) (sanitized != NULL ? sanitized : buffer);
  end = data + len;
  p = data;

  events = g_ptr_array_new_with_free_func ((GDestroyNotify) akc_json_value_unref);

  while (records < MAX_RECORDS)
    {
      const guchar *lf = memchr (p, '\n', end - p);

      if (lf == NULL)
        break;
      records++;
      decode_raw_line ((const char *) p, lf - p, events);
      p = lf + 1;
    }

  if (records == MAX_RECORDS)
    {
      const guchar *last = find_last_lf (p, end);

      if (last != NULL)
        p = last + 1;
    }

  discarded = (gsize) (end - p) > MAX_RECORD_BYTES;
  if (discarded_partial != NULL)
    *discarded_partial = discarded;
  if (rest_length != NULL)
    *rest_length = discarded ? 0 : end - p;
  if (rest != NULL)
    *rest = discarded ? g_strdup ("") : g_strndup ((const char *) p, end - p);

  return events;
}

/**
 * akc_ask_events_decode_utf8: (rename-to akc_ask_events_decode)
 * @buffer: NDJSON text
 * @rest: (out) (optional) (transfer full): return location for the text to
 *   keep for the next call, NUL-terminated
 * @discarded_partial: (out) (optional): return location for whether an
 *   unterminated line longer than %AKC_ASK_EVENT_MAX_RECORD_BYTES was
 *   dropped
 *
 * Does what akc_ask_events_decode() does, for NUL-terminated @buffer and without the length out-parameter:
 * the form bindings see.
 *
 * Returns: (transfer full) (element-type AkcJsonValue): the events in
 *   order, in canonical member order
 *
 * Since: 0.1
 */
GPtrArray *
akc_ask_events_decode_utf8 (const char  *buffer,
                            char       **rest,
                            gboolean    *discarded_partial)
{
  return akc_ask_events_decode (buffer, -1, rest, NULL, discarded_partial);
}

/* ------------------------------------------------------------------ */
/* The incremental stream driver                                       */
/* ------------------------------------------------------------------ */

/* The unterminated line, stored lazily so that its memory stays within
 * the record limit whatever arrives: leading white space is counted but
 * not kept (trimming drops it), the stored text stops growing once the
 * trimmed line is known to be oversized, and trailing white space is kept
 * only while it could still become part of the trimmed line. */
typedef struct {
  gsize    total;      /* bytes of the line so far, untrimmed, after UTF-8 replacement */
  gboolean started;    /* a non-WS character was seen */
  gboolean oversized;  /* the trimmed line exceeds MAX_RECORD_BYTES */
  gboolean tail_lost;  /* trailing WS beyond what buf holds */
  gsize    core;       /* bytes of buf up to the last non-WS character */
  char    *buf;        /* the line from its first non-WS character */
  gsize    len;        /* bytes in buf, never more than MAX_RECORD_BYTES */
  gsize    cap;        /* allocated, never more than MAX_RECORD_BYTES */
} Line;

/* Keep at most this much buffer capacity between lines. */
#define LINE_KEEP_CAPACITY (64 * 1024)

static void
line_reset (Line *line)
{
  line->total = 0;
  line->started = FALSE;
  line->oversized = FALSE;
  line->tail_lost = FALSE;
  line->core = 0;
  line->len = 0;
  if (line->cap > LINE_KEEP_CAPACITY)
    {
      g_clear_pointer (&line->buf, g_free);
      line->cap = 0;
    }
}

/* The caller guarantees line->len + n <= MAX_RECORD_BYTES. */
static void
line_store (Line       *line,
            const char *s,
            gsize       n)
{
  g_assert (line->len + n <= MAX_RECORD_BYTES);

  if (line->len + n > line->cap)
    {
      gsize cap = MAX (MAX (line->cap * 2, 256), line->len + n);

      line->cap = MIN (cap, MAX_RECORD_BYTES);
      line->buf = g_realloc (line->buf, line->cap);
    }
  memcpy (line->buf + line->len, s, n);
  line->len += n;
}

/* Appends valid UTF-8 text without LF. */
static void
line_append_text (Line       *line,
                  const char *s,
                  gsize       n)
{
  const guchar *p = (const guchar *) s;
  gsize k, m;

  line->total = line->total + n < line->total ? G_MAXSIZE : line->total + n;

  if (!line->started)
    {
      while ((k = ws_prefix (p, n)) > 0)
        {
          p += k;
          n -= k;
        }
      if (n == 0)
        return;
      line->started = TRUE;
    }

  if (line->oversized)
    return;

  /* p[0, m) ends with the last non-WS character of this piece. */
  m = n;
  while ((k = ws_suffix (p, m)) > 0)
    m -= k;

  if (m > 0)
    {
      if (line->tail_lost || line->len + m > MAX_RECORD_BYTES)
        {
          line->oversized = TRUE;
          line->len = 0;
          return;
        }
      line_store (line, (const char *) p, m);
      line->core = line->len;
    }

  if (n > m)
    {
      if (!line->tail_lost && line->len + (n - m) <= MAX_RECORD_BYTES)
        line_store (line, (const char *) p + m, n - m);
      else
        line->tail_lost = TRUE;
    }
}

/* Appends raw bytes without LF and without a cut sequence at the end,
 * replacing invalid UTF-8. */
static void
line_append_raw (Line         *line,
                 const guchar *p,
                 gsize         n)
{
  while (n > 0)
    {
      gsize valid = akc_utf8_valid_prefix ((const char *) p, n);
      gsize bad;

      line_append_text (line, (const char *) p, valid);
      p += valid;
      n -= valid;
      if (n == 0)
        break;

      bad = utf8_maximal_subpart (p, n);
      line_append_text (line, REPLACEMENT, 3);
      p += bad;
      n -= bad;
    }
}

/* The line is complete: decode its trimmed text. */
static void
line_flush (Line      *line,
            GPtrArray *events)
{
  if (line->started && !line->oversized && line->core > 0)
    {
      AkcJsonValue *event = decode_trimmed (line->buf, line->core);

      if (event != NULL)
        g_ptr_array_add (events, event);
    }
  line_reset (line);
}

/**
 * AkcAskEventDecoder:
 *
 * Decodes the NDJSON body of an Ask answer as it arrives ([protocol
 * §6.3](wire-formats.html#protocol-6), NDJSON mode): give it the body bytes with
 * [method@AskEventDecoder.feed], split anywhere (inside a record, inside
 * a UTF-8 sequence, between CR and LF), and [method@AskEventDecoder.finish]
 * at the end of the body.
 *
 * It behaves exactly as the reference client's driver: the bytes go
 * through a streaming UTF-8 decoder (invalid sequences become U+FFFD, a
 * sequence cut by a chunk boundary waits for the next chunk), each feed is
 * one call of the NDJSON decoder (see [func@ask_events_decode], whose
 * %AKC_ASK_EVENT_MAX_RECORDS budget therefore counts the lines completed
 * in one feed) on the unterminated line kept from before followed by the
 * new text, an unterminated line longer than
 * %AKC_ASK_EVENT_MAX_RECORD_BYTES is dropped together with the rest of
 * its line, however many feeds that takes, and finishing decodes the last
 * line as if a line feed followed it. It does not stop at `done` or
 * `error` events: the caller does.
 *
 * Each byte is examined a bounded number of times, whatever the chunking;
 * a line inside one chunk is decoded where it lies, without a copy. The
 * memory held between feeds stays within the record limit (about 1 MiB)
 * whatever arrives: an unterminated line is kept only up to that size.
 *
 * Since: 0.1
 */
struct _AkcAskEventDecoder
{
  GObject  parent_instance;

  Line     line;
  guint8   carry[4];   /* a UTF-8 sequence cut at the end of a feed */
  guint    carry_len;
  gboolean discarding;
};

G_DEFINE_FINAL_TYPE (AkcAskEventDecoder, akc_ask_event_decoder, G_TYPE_OBJECT)

static void
akc_ask_event_decoder_finalize (GObject *object)
{
  AkcAskEventDecoder *self = AKC_ASK_EVENT_DECODER (object);

  g_free (self->line.buf);

  G_OBJECT_CLASS (akc_ask_event_decoder_parent_class)->finalize (object);
}

static void
akc_ask_event_decoder_class_init (AkcAskEventDecoderClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->finalize = akc_ask_event_decoder_finalize;
}

static void
akc_ask_event_decoder_init (AkcAskEventDecoder *self)
{
  line_reset (&self->line);
}

/**
 * akc_ask_event_decoder_new:
 *
 * Creates a decoder for one Ask answer body.
 *
 * Returns: (transfer full): a new decoder
 *
 * Since: 0.1
 */
AkcAskEventDecoder *
akc_ask_event_decoder_new (void)
{
  return g_object_new (AKC_TYPE_ASK_EVENT_DECODER, NULL);
}

static void
start_discarding (AkcAskEventDecoder *self)
{
  line_reset (&self->line);
  self->carry_len = 0;
  self->discarding = TRUE;
}

/* Completes the held UTF-8 sequence with the first bytes of @p. Returns
 * how many bytes it consumed; the sequence (or U+FFFD when it turns out
 * invalid, the offending byte not consumed) goes to the line. */
static gsize
complete_carry (AkcAskEventDecoder *self,
                const guchar       *p,
                gsize               n)
{
  guchar lo, hi;
  gsize want = (gsize) utf8_lead (self->carry[0], &lo, &hi) + 1;
  gsize used = 0;

  while (self->carry_len < want && used < n)
    {
      guchar b = p[used];

      if (self->carry_len > 1)
        {
          lo = 0x80;
          hi = 0xBF;
        }
      if (b < lo || b > hi)
        {
          line_append_text (&self->line, REPLACEMENT, 3);
          self->carry_len = 0;
          return used;
        }
      self->carry[self->carry_len++] = b;
      used++;
    }

  if (self->carry_len == want)
    {
      line_append_text (&self->line, (const char *) self->carry, want);
      self->carry_len = 0;
    }

  return used;
}

/**
 * akc_ask_event_decoder_feed_into:
 * @self: a decoder
 * @data: (array length=length): the next bytes of the body
 * @length: the number of bytes
 * @events: (element-type AkcJsonValue): an array to append the decoded
 *   events to, which must free its elements with akc_json_value_unref()
 *
 * Like [method@AskEventDecoder.feed], appending the events to @events
 * instead of a new array.
 *
 * Returns: the number of events appended
 *
 * Since: 0.1
 */
guint
akc_ask_event_decoder_feed_into (AkcAskEventDecoder *self,
                                 const guint8       *data,
                                 gsize               length,
                                 GPtrArray          *events)
{
  const guchar *p = data;
  const guchar *end = data + length;
  const guchar *body_end;
  guint n_before;
  gsize records = 0;
  gsize tail;

  g_return_val_if_fail (AKC_IS_ASK_EVENT_DECODER (self), 0);
  g_return_val_if_fail (data != NULL || length == 0, 0);
  g_return_val_if_fail (events != NULL, 0);

  n_before = events->len;
  if (length == 0)
    return 0;

  /* §6.3 step 4: drop everything through the next LF. */
  if (self->discarding)
    {
      const guchar *lf = memchr (p, '\n', length);

      if (lf == NULL)
        return 0;
      p = lf + 1;
      self->discarding = FALSE;
    }

  if (self->carry_len > 0 && p < end)
    {
      p += complete_carry (self, p, end - p);
      if (self->carry_len > 0)
        return 0;   /* still cut: everything went into the carry */
    }

  /* A sequence cut at the end waits for the next feed. */
  tail = utf8_incomplete_tail (p, end - p);
  body_end = end - tail;

  while (p < body_end)
    {
      const guchar *lf;

      if (records == MAX_RECORDS)
        {
          /* Budget spent: the remaining complete lines are dropped. */
          const guchar *last = find_last_lf (p, body_end);

          if (last != NULL)
            p = last + 1;
          break;
        }

      lf = memchr (p, '\n', body_end - p);
      if (lf == NULL)
        break;
      records++;

      if (self->line.total == 0)
        decode_raw_line ((const char *) p, lf - p, events);
      else
        {
          line_append_raw (&self->line, p, lf - p);
          line_flush (&self->line, events);
        }
      p = lf + 1;
    }

  /* The unterminated rest: replacement never shortens text, so a raw
   * length over the limit is over it after replacement too. */
  if (p < body_end)
    {
      if ((gsize) (body_end - p) > MAX_RECORD_BYTES - MIN (self->line.total, MAX_RECORD_BYTES))
        {
          start_discarding (self);
          return events->len - n_before;
        }
      line_append_raw (&self->line, p, body_end - p);
    }

  if (self->line.total > MAX_RECORD_BYTES)
    {
      start_discarding (self);
      return events->len - n_before;
    }

  memcpy (self->carry, body_end, tail);
  self->carry_len = tail;

  return events->len - n_before;
}

/**
 * akc_ask_event_decoder_feed:
 * @self: a decoder
 * @data: (array length=length): the next bytes of the body
 * @length: the number of bytes
 *
 * Decodes the records that @data completes.
 *
 * Returns: (transfer full) (element-type AkcJsonValue): the events, in
 *   order and in canonical member order
 *
 * Since: 0.1
 */
GPtrArray *
akc_ask_event_decoder_feed (AkcAskEventDecoder *self,
                            const guint8       *data,
                            gsize               length)
{
  GPtrArray *events;

  g_return_val_if_fail (AKC_IS_ASK_EVENT_DECODER (self), NULL);
  g_return_val_if_fail (data != NULL || length == 0, NULL);

  events = g_ptr_array_new_with_free_func ((GDestroyNotify) akc_json_value_unref);
  akc_ask_event_decoder_feed_into (self, data, length, events);

  return events;
}

/**
 * akc_ask_event_decoder_finish:
 * @self: a decoder
 *
 * Ends the body: a UTF-8 sequence still cut becomes U+FFFD and the last,
 * unterminated line is decoded as if a line feed followed it. The decoder
 * is then as new, ready for another body.
 *
 * Returns: (transfer full) (element-type AkcJsonValue): the events of the
 *   last line (none or one)
 *
 * Since: 0.1
 */
GPtrArray *
akc_ask_event_decoder_finish (AkcAskEventDecoder *self)
{
  GPtrArray *events;

  g_return_val_if_fail (AKC_IS_ASK_EVENT_DECODER (self), NULL);

  events = g_ptr_array_new_with_free_func ((GDestroyNotify) akc_json_value_unref);

  if (!self->discarding)
    {
      if (self->carry_len > 0)
        line_append_text (&self->line, REPLACEMENT, 3);
      line_flush (&self->line, events);
    }

  line_reset (&self->line);
  self->carry_len = 0;
  self->discarding = FALSE;

  return events;
}

/**
 * akc_ask_event_decoder_get_pending_size:
 * @self: a decoder
 *
 * Gets the length of the unterminated line carried to the next feed, in
 * bytes after UTF-8 replacement (the reference's `rest`), not counting a
 * cut UTF-8 sequence. It never exceeds %AKC_ASK_EVENT_MAX_RECORD_BYTES.
 *
 * Returns: the length in bytes
 *
 * Since: 0.1
 */
gsize
akc_ask_event_decoder_get_pending_size (AkcAskEventDecoder *self)
{
  g_return_val_if_fail (AKC_IS_ASK_EVENT_DECODER (self), 0);

  return self->line.total;
}

/**
 * akc_ask_event_decoder_get_discarding:
 * @self: a decoder
 *
 * Gets whether the decoder is dropping the rest of an oversized line, up
 * to and including its line feed.
 *
 * Returns: %TRUE while input is dropped
 *
 * Since: 0.1
 */
gboolean
akc_ask_event_decoder_get_discarding (AkcAskEventDecoder *self)
{
  g_return_val_if_fail (AKC_IS_ASK_EVENT_DECODER (self), FALSE);

  return self->discarding;
}

gsize
akc_ask_event_decoder_get_retained_size (AkcAskEventDecoder *self)
{
  g_return_val_if_fail (AKC_IS_ASK_EVENT_DECODER (self), 0);

  return self->line.cap + self->carry_len;
}
