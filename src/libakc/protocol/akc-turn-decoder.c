/* akc-turn-decoder.c: incremental decoding of streamed turn snapshots
 *
 * SPDX-License-Identifier: MIT
 *
 * A conversation streams as full snapshots (protocol §2): each one
 * repeats every message, and usually only the last one has changed. Fully
 * decoding snapshot N+1 parses and validates all of it again. This decoder
 * keeps, for the previous snapshot, the exact bytes of every message record
 * and its validated (projected) value, and decodes the next text like this:
 *
 *  1. A light structural walk (strings skipped with memchr, no values
 *     built) finds the unique `payload.messages` array. At each element it
 *     first compares the bytes there with the previous record at the same
 *     index (one memcmp); only elements that differ are walked over.
 *  2. The envelope, i.e. the text with that array emptied to `[]`, is parsed
 *     strictly (a few hundred bytes).
 *  3. Every differing element is parsed strictly on its own and checked as
 *     a record (§2.9.1 per-record limits, §2.9.2–§2.9.6). Every equal one
 *     reuses the previous validated record: identical bytes give an
 *     identical validated message.
 *  4. The global §2.9.1 limits are summed from the per-record value counts,
 *     and the envelope is validated (§2.1–§2.5) with the records in place.
 *
 * While a reply streams, the record that changed is usually the previous
 * one with a few more characters at the end of its longest string (the
 * content). The decoder keeps that string as it was parsed last time, with
 * where its raw bytes were in the record; when the new record repeats
 * those bytes up to the old closing quote, step 3 takes the string's
 * decoded start from it and scans only what was added (the bytes are the
 * same, so the strict parser would decode them the same way: the old
 * string ended between two characters, unless its last character was a
 * replacement that the closing quote decided, which is not reused).
 *
 * Any failure, or anything the walk is not sure about (an escaped member
 * name at the top or payload level, a duplicate `payload` or `messages`),
 * falls back to the full decode, so diagnostics and their precedence are
 * always the full decoder's.
 *
 * Why the result equals a full decode of the same text. The walk agrees
 * with the strict parser on where strings start and end in any text that
 * the parser accepts (a backslash escapes the next byte; outside strings
 * a quote always opens one), hence on brackets, member names and values.
 * So when the emptied text parses, its `[]` is the value of the only
 * `payload`.`messages` member, and putting back elements that are each a
 * complete JSON value keeps the text valid, with those values in place.
 * A reused element is byte-identical to a complete record that parsed
 * before (an object, which ends at its own brace), so it parses to the same
 * value; record validation and the per-record limits depend on nothing
 * else, and the remaining limits (count ≤ 10 000 with the wrapper, array
 * length) are sums and maxima that are recomputed. The event table's other
 * fields do not depend on `messages`. tests/unit/protocol/test-turn.c
 * checks the equivalence over the fixtures and over mutated snapshots, and
 * fuzz/fuzz-turn.c does so differentially.
 *
 * Memory: the decoder keeps the previous snapshot's records (shared with
 * the returned events) and one copy of the bytes of each record; records
 * that arrived in one full decode share one copy of that text.
 *
 * Thread-safety: a decoder must be used from one thread at a time; the
 * events it returns are immutable and may go to any thread.
 */

#include "config.h"

#include <string.h>

#include "akc-message-record-private.h"
#include "akc-turn-decoder.h"
#include "akc-turn-private.h"

/* Below this many records the full decode is as cheap as bookkeeping. */
#define MIN_RECORDS_FOR_REUSE 2

typedef struct {
  GBytes       *owner;       /* holds the bytes of span */
  const char   *span;        /* the record's exact text */
  gsize         len;
  AkcJsonValue *record;      /* validated, projected */
  guint32       raw_values;  /* §2.9.1 values of the record as sent */
} Entry;

/* The longest string of one remembered record, as parsed: reused when the
 * next version of the record starts with the same bytes. */
typedef struct {
  gsize         index;       /* of the record */
  AkcJsonValue *string;      /* (owned) its node in the record's raw parse, or NULL */
  gsize         offset;      /* in the record's bytes, after the opening quote */
  gsize         raw_len;     /* raw bytes up to the closing quote */
} Hint;

/* Strings shorter than this are scanned again: not worth keeping. */
#define MIN_HINT_BYTES 256

typedef struct {
  gsize    start;            /* offset in the text */
  gsize    len;
  gboolean reused;           /* bytes equal to the cached record at this index */
} Span;

/**
 * AkcTurnDecoder:
 *
 * Decodes the turn events of one stream, reusing work between snapshots.
 *
 * [method@TurnDecoder.decode] accepts and rejects exactly what
 * [func@turn_event_decode] accepts and rejects, with the same normalised
 * events and the same diagnostics. It remembers the message records of the
 * last snapshot it decoded, and when the next snapshot repeats a record
 * byte for byte at the same position it reuses the validated record
 * instead of parsing and validating it again. For a long conversation
 * whose snapshots differ only in their last message, decoding a snapshot
 * then costs a comparison of its bytes plus the work for the one changed
 * message.
 *
 * A decoder must be used from one thread at a time (it may be handed to a
 * worker thread for large snapshots). The events it returns are immutable
 * and may be shared freely.
 *
 * Since: 0.1
 */
struct _AkcTurnDecoder
{
  GObject              parent_instance;

  GArray              *entries;   /* Entry: the previous snapshot's records */
  GArray              *spans;     /* Span: scratch */
  GString             *envelope;  /* scratch */
  Hint                 hint;
  AkcTurnDecoderStats  stats;
};

G_DEFINE_FINAL_TYPE (AkcTurnDecoder, akc_turn_decoder, G_TYPE_OBJECT)

static void
entry_clear (gpointer data)
{
  Entry *e = data;

  g_clear_pointer (&e->owner, g_bytes_unref);
  g_clear_pointer (&e->record, akc_json_value_unref);
  e->span = NULL;
  e->len = 0;
}

static void
hint_clear (Hint *hint)
{
  g_clear_pointer (&hint->string, akc_json_value_unref);
}

static void
akc_turn_decoder_finalize (GObject *object)
{
  AkcTurnDecoder *self = AKC_TURN_DECODER (object);

  hint_clear (&self->hint);
  g_clear_pointer (&self->entries, g_array_unref);
  g_clear_pointer (&self->spans, g_array_unref);
  if (self->envelope != NULL)
    g_string_free (g_steal_pointer (&self->envelope), TRUE);

  G_OBJECT_CLASS (akc_turn_decoder_parent_class)->finalize (object);
}

static void
akc_turn_decoder_class_init (AkcTurnDecoderClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->finalize = akc_turn_decoder_finalize;
}

static void
akc_turn_decoder_init (AkcTurnDecoder *self)
{
  self->entries = g_array_new (FALSE, TRUE, sizeof (Entry));
  g_array_set_clear_func (self->entries, entry_clear);
  self->spans = g_array_new (FALSE, FALSE, sizeof (Span));
  self->envelope = g_string_new (NULL);
}

/* ------------------------------------------------------------------ */
/* The structural walk                                                  */
/* ------------------------------------------------------------------ */

typedef struct {
  const guint8 *start;
  const guint8 *p;
  const guint8 *end;
} Walk;

static inline void
skip_ws (Walk *w)
{
  while (w->p < w->end && (*w->p == ' ' || *w->p == '\n' || *w->p == '\r' || *w->p == '\t'))
    w->p++;
}

static inline gboolean
at (const Walk *w,
    guint8      c)
{
  return w->p < w->end && *w->p == c;
}

/* At an opening quote: moves past the closing one. A backslash escapes
 * the next byte, so a quote ends the string iff an even number of
 * backslashes precede it. */
static gboolean
skip_string (Walk *w)
{
  const guint8 *q = w->p + 1;

  for (;;)
    {
      const guint8 *quote;
      const guint8 *b;

      if (q >= w->end)
        return FALSE;
      quote = memchr (q, '"', (gsize) (w->end - q));
      if (quote == NULL)
        return FALSE;

      b = quote;
      while (b > q && b[-1] == '\\')
        b--;
      if (((quote - b) & 1) == 0)
        {
          w->p = quote + 1;
          return TRUE;
        }
      q = quote + 1;
    }
}

static inline gboolean
is_scalar_end (guint8 c)
{
  switch (c)
    {
    case ' ': case '\t': case '\n': case '\r':
    case ',': case ':': case '"':
    case '[': case ']': case '{': case '}':
      return TRUE;
    default:
      return FALSE;
    }
}

/* Moves past one value. Exact on valid JSON; on invalid JSON it stops
 * somewhere, and the strict parse that follows rejects the text. */
static gboolean
skip_value (Walk *w)
{
  const guint8 *s = w->p;

  if (w->p >= w->end)
    return FALSE;

  switch (*w->p)
    {
    case '"':
      return skip_string (w);

    case '{':
    case '[':
      {
        gsize depth = 0;

        while (w->p < w->end)
          {
            guint8 c = *w->p;

            if (c == '"')
              {
                if (!skip_string (w))
                  return FALSE;
                continue;
              }
            if (c == '{' || c == '[')
              depth++;
            else if (c == '}' || c == ']')
              {
                if (--depth == 0)
                  {
                    w->p++;
                    return TRUE;
                  }
              }
            w->p++;
          }
        return FALSE;
      }

    default:
      while (w->p < w->end && !is_scalar_end (*w->p))
        w->p++;
      return w->p > s;
    }
}

/* Reads `"name" :` and leaves the walk at the value. Names holding a
 * backslash are refused: an escape could spell `payload` or `messages`. */
static gboolean
read_name (Walk          *w,
           const guint8 **name,
           gsize         *name_len)
{
  const guint8 *s;

  skip_ws (w);
  if (!at (w, '"'))
    return FALSE;
  s = w->p;
  if (!skip_string (w))
    return FALSE;
  *name = s + 1;
  *name_len = (gsize) (w->p - s) - 2;
  if (memchr (*name, '\\', *name_len) != NULL)
    return FALSE;
  skip_ws (w);
  if (!at (w, ':'))
    return FALSE;
  w->p++;
  skip_ws (w);

  return TRUE;
}

static inline gboolean
name_is (const guint8 *name,
         gsize         len,
         const char   *literal)
{
  return len == strlen (literal) && memcmp (name, literal, len) == 0;
}

/* After a member value: `,` (TRUE, *more) or the closing brace. */
static gboolean
next_member (Walk     *w,
             gboolean *more)
{
  skip_ws (w);
  if (at (w, ','))
    {
      w->p++;
      *more = TRUE;
      return TRUE;
    }
  if (at (w, '}'))
    {
      w->p++;
      *more = FALSE;
      return TRUE;
    }
  return FALSE;
}

/* At the `[` of the messages array: records each element's span in @spans,
 * trying the cached record at the same index first. */
static gboolean
walk_elements (Walk        *w,
               const Entry *cache,
               gsize        n_cache,
               GArray      *spans)
{
  gsize i = 0;

  w->p++;
  skip_ws (w);
  if (at (w, ']'))
    {
      w->p++;
      return TRUE;
    }

  for (;;)
    {
      Span span = { (gsize) (w->p - w->start), 0, FALSE };

      if (i < n_cache)
        {
          const Entry *e = &cache[i];

          if ((gsize) (w->end - w->p) >= e->len && memcmp (w->p, e->span, e->len) == 0)
            {
              span.reused = TRUE;
              w->p += e->len;
            }
        }
      if (!span.reused && !skip_value (w))
        return FALSE;

      span.len = (gsize) (w->p - w->start) - span.start;
      g_array_append_val (spans, span);
      i++;

      skip_ws (w);
      if (at (w, ','))
        {
          w->p++;
          skip_ws (w);
          continue;
        }
      if (at (w, ']'))
        {
          w->p++;
          return TRUE;
        }
      return FALSE;
    }
}

/* Finds the unique `payload.messages` array of a top-level object. On
 * success *@open and *@close are the offsets of its brackets and @spans
 * holds its elements. */
static gboolean
locate_messages (const char  *text,
                 gsize        len,
                 const Entry *cache,
                 gsize        n_cache,
                 GArray      *spans,
                 gsize       *open,
                 gsize       *close)
{
  Walk w = { (const guint8 *) text, (const guint8 *) text, (const guint8 *) text + len };
  gboolean seen_payload = FALSE;
  gboolean seen_messages = FALSE;
  gboolean more = TRUE;

  g_array_set_size (spans, 0);

  skip_ws (&w);
  if (!at (&w, '{'))
    return FALSE;
  w.p++;

  while (more)
    {
      const guint8 *name;
      gsize name_len;

      if (!read_name (&w, &name, &name_len))
        return FALSE;

      if (name_is (name, name_len, "payload"))
        {
          gboolean more_payload = TRUE;

          if (seen_payload || !at (&w, '{'))
            return FALSE;
          seen_payload = TRUE;
          w.p++;

          while (more_payload)
            {
              if (!read_name (&w, &name, &name_len))
                return FALSE;

              if (name_is (name, name_len, "messages"))
                {
                  if (seen_messages || !at (&w, '['))
                    return FALSE;
                  seen_messages = TRUE;
                  *open = (gsize) (w.p - w.start);
                  if (!walk_elements (&w, cache, n_cache, spans))
                    return FALSE;
                  *close = (gsize) (w.p - w.start) - 1;
                }
              else if (!skip_value (&w))
                return FALSE;

              if (!next_member (&w, &more_payload))
                return FALSE;
            }
        }
      else if (!skip_value (&w))
        return FALSE;

      if (!next_member (&w, &more))
        return FALSE;
    }

  skip_ws (&w);
  return w.p == w.end && seen_messages;
}

/* ------------------------------------------------------------------ */
/* Decoding                                                            */
/* ------------------------------------------------------------------ */

static inline AkcJsonValue *
lookup (const AkcJsonValue *object,
        const char         *name)
{
  if (!AKC_JSON_IS_OBJECT (object))
    return NULL;
  return akc_json_object_lookup (object, name, strlen (name), NULL);
}

static gboolean
is_snapshot (AkcJsonValue *event)
{
  AkcTurnEventKind kind;

  return akc_turn_event_get_kind (event, &kind) && kind == AKC_TURN_EVENT_KIND_SNAPSHOT;
}

/* After a full decode of a snapshot: caches its records and their bytes. */
static void
remember (AkcTurnDecoder *self,
          const char     *text,
          gsize           len,
          AkcJsonValue   *candidate,
          AkcJsonValue   *event)
{
  g_autoptr(GBytes) owner = NULL;
  AkcJsonValue *raw, *records;
  const char *data;
  gsize open, close, i, n;

  g_array_set_size (self->entries, 0);
  hint_clear (&self->hint);

  if (!locate_messages (text, len, NULL, 0, self->spans, &open, &close))
    return;

  raw = lookup (lookup (candidate, "payload"), "messages");
  records = lookup (lookup (event, "payload"), "messages");
  n = self->spans->len;
  if (n < MIN_RECORDS_FOR_REUSE ||
      !AKC_JSON_IS_ARRAY (raw) || AKC_JSON_LEN (raw) != n ||
      !AKC_JSON_IS_ARRAY (records) || AKC_JSON_LEN (records) != n)
    return;

  owner = g_bytes_new (text, len);
  data = g_bytes_get_data (owner, NULL);
  g_array_set_size (self->entries, n);
  for (i = 0; i < n; i++)
    {
      const Span *span = &g_array_index (self->spans, Span, i);
      Entry *e = &g_array_index (self->entries, Entry, i);

      e->owner = g_bytes_ref (owner);
      e->span = data + span->start;
      e->len = span->len;
      e->record = akc_json_value_ref (AKC_JSON_ELEMENT (records, i));
      e->raw_values = AKC_JSON_ELEMENT (raw, i)->n_values;
    }
}

typedef struct {
  gsize index;
  Entry entry;
} Pending;

/* How the string of the hint decodes at the start of the record at @index,
 * now @record (@len bytes): NULL when the hint does not hold there. */
static const AkcJsonResume *
resume_for (const Hint    *hint,
            const Entry   *cache,
            gsize          n_cache,
            gsize          index,
            const char    *record,
            gsize          len,
            AkcJsonResume *resume)
{
  gsize end = hint->offset + hint->raw_len;
  const char *decoded;
  gsize decoded_len;

  if (hint->string == NULL || hint->index != index || index >= n_cache)
    return NULL;
  if (end >= len || end > cache[index].len || memcmp (record, cache[index].span, end) != 0)
    return NULL;

  decoded = AKC_JSON_STR (hint->string);
  decoded_len = AKC_JSON_STR_LEN (hint->string);
  /* A replacement at the end may have been decided by the closing quote
   * (a sequence cut short): the new bytes could complete it. */
  if (decoded_len >= 3 && memcmp (decoded + decoded_len - 3, "\xEF\xBF\xBD", 3) == 0)
    return NULL;

  resume->offset = hint->offset;
  resume->raw_len = hint->raw_len;
  resume->decoded = decoded;
  resume->decoded_len = decoded_len;
  return resume;
}

static void
pending_clear (gpointer data)
{
  entry_clear (&((Pending *) data)->entry);
}

/* Returns the event, or NULL when this text must be decoded in full
 * (including every invalid text). Never has a visible effect on failure. */
static AkcJsonValue *
decode_incremental (AkcTurnDecoder *self,
                    const char     *text,
                    gsize           len)
{
  g_autoptr(AkcJsonValue) envelope = NULL;
  g_autoptr(AkcJsonValue) messages = NULL;
  g_autoptr(GArray) pending = NULL;
  AkcJsonValue **records;
  AkcJsonValue *event;
  const Entry *cache = (const Entry *) (gpointer) self->entries->data;
  gsize open, close, i, n, n_reused = 0;
  guint64 sum = 0;
  Hint hint = { 0, NULL, 0, 0 };
  gboolean hinted_parsed = FALSE;
  guint n_resumed = 0;

  if (!locate_messages (text, len, cache, self->entries->len, self->spans, &open, &close))
    return NULL;

  n = self->spans->len;
  for (i = 0; i < n; i++)
    n_reused += g_array_index (self->spans, Span, i).reused;
  /* Mostly new records (a reconnect, a different conversation): one full
   * parse is cheaper than parsing them one by one. */
  if (n_reused == 0 || n_reused * 2 < n)
    return NULL;

  /* The envelope with the array emptied. */
  g_string_truncate (self->envelope, 0);
  g_string_append_len (self->envelope, text, open);
  g_string_append_len (self->envelope, "[]", 2);
  g_string_append_len (self->envelope, text + close + 1, len - close - 1);
  envelope = akc_json_parse (self->envelope->str, self->envelope->len, NULL, NULL, NULL);
  if (envelope == NULL)
    return NULL;

  pending = g_array_new (FALSE, TRUE, sizeof (Pending));
  g_array_set_clear_func (pending, pending_clear);
  records = g_new (AkcJsonValue *, MAX (n, 1));

  for (i = 0; i < n; i++)
    {
      const Span *span = &g_array_index (self->spans, Span, i);
      g_autoptr(AkcJsonValue) raw = NULL;
      AkcJsonValue *record = NULL;
      Pending p;

      if (span->reused)
        {
          records[i] = akc_json_value_ref (cache[i].record);
          sum += cache[i].raw_values;
          continue;
        }

      {
        AkcJsonResume resume;
        AkcJsonLongestString longest;
        const AkcJsonResume *known = resume_for (&self->hint, cache, self->entries->len, i,
                                                 text + span->start, span->len, &resume);

        n_resumed += known != NULL;
        raw = akc_json_parse_resume (text + span->start, span->len, NULL, known, &longest, NULL, NULL);
        if (raw == NULL ||
            !akc_message_record_check_limits (raw) ||
            !akc_schema_validate_table (&akc_message_record_table, raw, &record))
          {
            while (i-- > 0)
              akc_json_value_unref (records[i]);
            g_free (records);
            hint_clear (&hint);
            return NULL;
          }

        hinted_parsed |= self->hint.string != NULL && self->hint.index == i;
        if (longest.value != NULL && longest.raw_len >= MIN_HINT_BYTES)
          {
            /* The last changed record's: the one a reply streams into. */
            hint_clear (&hint);
            hint.index = i;
            hint.string = akc_json_value_ref ((AkcJsonValue *) longest.value);
            hint.offset = longest.offset;
            hint.raw_len = longest.raw_len;
          }
      }

      records[i] = record;
      sum += raw->n_values;

      p.index = i;
      p.entry.owner = g_bytes_new (text + span->start, span->len);
      p.entry.span = g_bytes_get_data (p.entry.owner, NULL);
      p.entry.len = span->len;
      p.entry.record = akc_json_value_ref (record);
      p.entry.raw_values = raw->n_values;
      g_array_append_val (pending, p);
    }

  messages = akc_json_array_new_steal (records, n);
  g_free (records);

  if (!akc_message_records_check_totals (n, sum))
    {
      hint_clear (&hint);
      return NULL;
    }

  event = akc_turn_validate_with_messages (envelope, messages);
  if (event == NULL || !is_snapshot (event))
    {
      g_clear_pointer (&event, akc_json_value_unref);
      hint_clear (&hint);
      return NULL;
    }

  /* The hint follows the record it describes: a new one, or none when
   * its record was parsed again without one (or is gone). */
  if (hint.string != NULL || hinted_parsed || self->hint.index >= n)
    {
      hint_clear (&self->hint);
      self->hint = hint;
    }

  /* Commit: the cache now describes this snapshot. */
  g_array_set_size (self->entries, n);
  for (i = 0; i < pending->len; i++)
    {
      Pending *p = &g_array_index (pending, Pending, i);
      Entry *e = &g_array_index (self->entries, Entry, p->index);

      entry_clear (e);
      *e = p->entry;
      memset (&p->entry, 0, sizeof p->entry);
    }

  self->stats.incremental_decodes++;
  self->stats.records_reused += n_reused;
  self->stats.records_parsed += pending->len;
  self->stats.strings_resumed += n_resumed;

  return event;
}

/**
 * akc_turn_decoder_new:
 *
 * Creates a decoder for the turn events of one stream.
 *
 * Returns: (transfer full): a new decoder
 *
 * Since: 0.1
 */
AkcTurnDecoder *
akc_turn_decoder_new (void)
{
  return g_object_new (AKC_TYPE_TURN_DECODER, NULL);
}

/**
 * akc_turn_decoder_decode:
 * @self: a decoder
 * @text: the wire text of
 *   one turn event
 * @length: length of @text in bytes, or -1 if it is NUL-terminated
 * @diagnostic: (out) (optional) (nullable) (transfer full): return location
 *   for the diagnostic when @text is rejected
 *
 * Decodes one turn event exactly as [func@turn_event_decode] does: the
 * same events, the same diagnostics. After a `server.turn.snapshot`, the
 * records it held are remembered, and message records that the next
 * snapshot repeats byte for byte at the same index are not parsed or
 * validated again.
 *
 * Other events and rejected texts leave the remembered records alone.
 *
 * Returns: (transfer full) (nullable): the normalised event, or %NULL with
 *   @diagnostic set
 *
 * Since: 0.1
 */
AkcJsonValue *
akc_turn_decoder_decode (AkcTurnDecoder  *self,
                         const char      *text,
                         gssize           length,
                         AkcDiagnostic  **diagnostic)
{
  g_autoptr(AkcJsonValue) candidate = NULL;
  AkcJsonValue *event;
  gsize len;

  g_return_val_if_fail (AKC_IS_TURN_DECODER (self), NULL);
  g_return_val_if_fail (text != NULL || length == 0, NULL);
  g_return_val_if_fail (diagnostic == NULL || *diagnostic == NULL, NULL);

  if (text == NULL)
    text = "";
  len = length < 0 ? strlen (text) : (gsize) length;
  self->stats.decodes++;

  if (self->entries->len > 0)
    {
      event = decode_incremental (self, text, len);
      if (event != NULL)
        return event;
    }

  self->stats.full_decodes++;
  candidate = akc_json_parse (text, len, NULL, NULL, NULL);
  if (candidate == NULL)
    {
      if (diagnostic != NULL)
        *diagnostic = akc_turn_invalid_json_diagnostic ();
      return NULL;
    }

  event = akc_turn_decode_candidate (candidate, diagnostic);
  if (event != NULL && is_snapshot (event))
    remember (self, text, len, candidate, event);

  return event;
}

/**
 * akc_turn_decoder_decode_utf8: (rename-to akc_turn_decoder_decode)
 * @self: a decoder
 * @text: the wire text of
 *   one turn event
 * @diagnostic: (out) (optional) (nullable) (transfer full): return location
 *   for the diagnostic when @text is rejected
 *
 * Does what akc_turn_decoder_decode() does, for NUL-terminated @text:
 * the form bindings see.
 *
 * Returns: (transfer full) (nullable): the normalised event, or %NULL with
 *   @diagnostic set
 *
 * Since: 0.1
 */
AkcJsonValue *
akc_turn_decoder_decode_utf8 (AkcTurnDecoder  *self,
                              const char      *text,
                              AkcDiagnostic  **diagnostic)
{
  return akc_turn_decoder_decode (self, text, -1, diagnostic);
}

/**
 * akc_turn_decoder_reset:
 * @self: a decoder
 *
 * Forgets the remembered records, for example when the stream is
 * reconnected to another conversation. Decoding stays correct without it;
 * this only releases memory.
 *
 * Since: 0.1
 */
void
akc_turn_decoder_reset (AkcTurnDecoder *self)
{
  g_return_if_fail (AKC_IS_TURN_DECODER (self));

  g_array_set_size (self->entries, 0);
  hint_clear (&self->hint);
}

void
akc_turn_decoder_get_stats (AkcTurnDecoder      *self,
                            AkcTurnDecoderStats *stats)
{
  g_return_if_fail (AKC_IS_TURN_DECODER (self));
  g_return_if_fail (stats != NULL);

  *stats = self->stats;
}
