/* akc-trace-capture.c
 *
 * SPDX-License-Identifier: MIT
 */

#include "config.h"

#include <string.h>

#include "akc-devtools-enum-types.h"
#include "akc-json-private.h"
#include "akc-text-private.h"
#include "akc-trace-capture-private.h"

/**
 * AkcTraceCapture:
 *
 * Records why things happened in a conversation (application.md §10.1):
 * which route answered a turn and how the conversation state moved, what
 * a capability policy decided and why, how a typed action went through its
 * lifecycle.
 *
 * Records are strict `{id: "trace-N", sequence: N, at, category,
 * parentId?, detail}`, appended in order and immutable once made. A
 * record's detail is checked before and after redaction: it is a JSON
 * object whose member names are 1–128 UTF-16 units and whose serialised
 * form is at most 65,536 UTF-8 bytes. Redaction replaces, at any depth,
 * the value of every member whose name matches one of the capture's
 * redact fields case-insensitively with `"[REDACTED]"`; the caller's value
 * is never modified.
 *
 * The projections turn the library's own events into records: a
 * session's [signal@Session::trace], a policy's [struct@PolicyTrace] and
 * a [struct@ConfirmationRecord] (which never carries its token, input or
 * session id into a trace). [method@TraceCapture.watch_session] and its
 * siblings connect them, so a capture follows a live conversation; a
 * policy or action record made while watching names the latest turn
 * record as its parent.
 *
 * Next to its records, a capture keeps the latest wire events of the
 * conversation, for a live view of what went to and came from a backend
 * ([method@TraceCapture.add_wire_event]): a bounded ring, always without
 * tokens, what the person typed, session ids or API keys, and never part
 * of a snapshot or a replay fixture. [method@TraceCapture.wrap_adapter]
 * and [method@TraceCapture.watch_turn_client] feed it, and the turns,
 * from a chat's adapter or a turn client.
 *
 * Since: 0.1
 */

/**
 * AkcTraceRecord:
 *
 * One record of a [class@TraceCapture] (application.md §10.1): `{id:
 * "trace-N", sequence: N, at, category, parentId?, detail}`, its detail
 * already redacted. Immutable.
 *
 * Since: 0.1
 */

#define MAX_DETAIL_BYTES 65536
#define MAX_NAME_UNITS 128
#define REDACTED "[REDACTED]"

/* What a wire event never shows, whatever the capture's redact fields:
 * credentials, the confirmation token and its session, and what a person
 * typed (application.md §10.1 keeps them out of action traces; the wire
 * view keeps them out of everything). Compared case-insensitively. */
static const char * const never_on_wire[] = {
  "token", "input", "sessionId", "apiKey", "api_key", "x-api-key",
  "authorization", "password", "secret", "cookie", NULL
};

/* What a wire event that went out never shows either: the texts of the
 * messages of a request (the person's, the system prompt, the earlier
 * replies: `content` of the turn, Ask and every provider format, which
 * holds their text, image and tool-result parts), Anthropic's `system`,
 * Ollama's `images`, `parts` (turn records), and the person's question
 * an escalation of the deterministic answer plane repeats (`query`,
 * `normalizedQuery`). The shape stays: roles, ids, model, tools,
 * options. */
static const char * const never_sent_on_wire[] = {
  "content", "system", "images", "parts", "query", "normalizedQuery", NULL
};

/* The longest string of a wire event, in bytes: a longer one is cut
 * there and says how long it was. */
#define MAX_WIRE_STRING 4096

struct _AkcTraceRecord
{
  gatomicrefcount   ref_count;
  char             *id;
  guint             sequence;
  char             *at;
  AkcTraceCategory  category;
  char             *parent_id;
  AkcJsonValue     *detail;
};

struct _AkcTraceCapture
{
  GObject         parent_instance;

  GStrv           redact_fields;   /* as given */
  GHashTable     *redact_set;      /* lowercased */
  GPtrArray      *records;         /* AkcTraceRecord */
  GHashTable     *ids;             /* id -> position + 1 */

  AkcClockFunc    clock;
  gpointer        clock_data;
  GDestroyNotify  clock_destroy;

  char           *last_turn_id;    /* parent of watched policy/action records */
  char           *decided_by;      /* nullable: the backend whose routes and policy these are */
  GPtrArray      *watched;         /* WatchedObject */

  GHashTable     *wire_redact_set; /* lowercased: redact_set + never_on_wire */
  GHashTable     *wire_sent_set;   /* lowercased: wire_redact_set + never_sent_on_wire */
  GQueue          wire;            /* AkcJsonValue, oldest first */
  guint           max_wire;
  guint           wire_sequence;   /* of the next wire event */
};

typedef struct
{
  GObject *object;
  gulong   handler;
} WatchedObject;

/**
 * akc_trace_error_quark:
 *
 * Gets the error domain of [error@TraceError], the quark
 * %AKC_TRACE_ERROR stands for.
 *
 * Returns: the error quark
 *
 * Since: 0.1
 */
G_DEFINE_QUARK (akc-trace-error-quark, akc_trace_error)
G_DEFINE_BOXED_TYPE (AkcTraceRecord, akc_trace_record, akc_trace_record_ref, akc_trace_record_unref)
G_DEFINE_FINAL_TYPE (AkcTraceCapture, akc_trace_capture, G_TYPE_OBJECT)

enum { SIGNAL_RECORD_ADDED, SIGNAL_WIRE_EVENT_ADDED, N_SIGNALS };
static guint signals[N_SIGNALS];

enum { PROP_0, PROP_DECIDED_BY, N_PROPS };
static GParamSpec *props[N_PROPS];

static const char * const category_strings[] = {
  [AKC_TRACE_CATEGORY_ROUTE] = "route",
  [AKC_TRACE_CATEGORY_AGENT] = "agent",
  [AKC_TRACE_CATEGORY_REPAIR] = "repair",
  [AKC_TRACE_CATEGORY_FALLBACK] = "fallback",
  [AKC_TRACE_CATEGORY_POLICY] = "policy",
  [AKC_TRACE_CATEGORY_ACTION] = "action",
  [AKC_TRACE_CATEGORY_LIFECYCLE] = "lifecycle",
};

/**
 * akc_trace_category_to_string:
 * @category: a category
 *
 * Gets the wire string of @category, such as `route`.
 *
 * Returns: (nullable): the wire string, or %NULL for a value outside the enum
 *
 * Since: 0.1
 */
const char *
akc_trace_category_to_string (AkcTraceCategory category)
{
  if ((guint) category >= G_N_ELEMENTS (category_strings))
    return NULL;

  return category_strings[category];
}

/**
 * akc_trace_category_from_string:
 * @string: a wire string
 * @category: (out): the category
 *
 * Reads a category from its wire string.
 *
 * Returns: %TRUE if @string names a category
 *
 * Since: 0.1
 */
gboolean
akc_trace_category_from_string (const char       *string,
                                AkcTraceCategory *category)
{
  g_return_val_if_fail (category != NULL, FALSE);

  if (string == NULL)
    return FALSE;

  for (guint i = 0; i < G_N_ELEMENTS (category_strings); i++)
    if (g_str_equal (string, category_strings[i]))
      {
        *category = i;
        return TRUE;
      }

  return FALSE;
}

/* ------------------------------------------------------------------ */
/* Records                                                             */
/* ------------------------------------------------------------------ */

static AkcTraceRecord *
record_new (const char       *id,
            guint             sequence,
            const char       *at,
            AkcTraceCategory  category,
            const char       *parent_id,
            AkcJsonValue     *detail)
{
  AkcTraceRecord *self = g_new0 (AkcTraceRecord, 1);

  g_atomic_ref_count_init (&self->ref_count);
  self->id = g_strdup (id);
  self->sequence = sequence;
  self->at = g_strdup (at);
  self->category = category;
  self->parent_id = g_strdup (parent_id);
  self->detail = akc_json_value_ref (detail);

  return self;
}

/**
 * akc_trace_record_ref:
 * @self: a record
 *
 * Takes a reference to @self.
 *
 * Returns: (transfer full): @self
 *
 * Since: 0.1
 */
AkcTraceRecord *
akc_trace_record_ref (AkcTraceRecord *self)
{
  g_return_val_if_fail (self != NULL, NULL);

  g_atomic_ref_count_inc (&self->ref_count);
  return self;
}

/**
 * akc_trace_record_unref:
 * @self: (transfer full): a record
 *
 * Drops a reference to @self.
 *
 * Since: 0.1
 */
void
akc_trace_record_unref (AkcTraceRecord *self)
{
  g_return_if_fail (self != NULL);

  if (!g_atomic_ref_count_dec (&self->ref_count))
    return;

  g_free (self->id);
  g_free (self->at);
  g_free (self->parent_id);
  akc_json_value_unref (self->detail);
  g_free (self);
}

/**
 * akc_trace_record_get_id:
 * @self: a record
 *
 * Gets the id of @self, `trace-N`.
 *
 * Returns: the id
 *
 * Since: 0.1
 */
const char *
akc_trace_record_get_id (const AkcTraceRecord *self)
{
  g_return_val_if_fail (self != NULL, NULL);
  return self->id;
}

/**
 * akc_trace_record_get_sequence:
 * @self: a record
 *
 * Gets the position of @self among its capture's records, from 0.
 *
 * Returns: the sequence number
 *
 * Since: 0.1
 */
guint
akc_trace_record_get_sequence (const AkcTraceRecord *self)
{
  g_return_val_if_fail (self != NULL, 0);
  return self->sequence;
}

/**
 * akc_trace_record_get_at:
 * @self: a record
 *
 * Gets when @self was made, as a UTC date-time ending in `Z`.
 *
 * Returns: the time
 *
 * Since: 0.1
 */
const char *
akc_trace_record_get_at (const AkcTraceRecord *self)
{
  g_return_val_if_fail (self != NULL, NULL);
  return self->at;
}

/**
 * akc_trace_record_get_category:
 * @self: a record
 *
 * Gets what @self is about.
 *
 * Returns: the category
 *
 * Since: 0.1
 */
AkcTraceCategory
akc_trace_record_get_category (const AkcTraceRecord *self)
{
  g_return_val_if_fail (self != NULL, AKC_TRACE_CATEGORY_LIFECYCLE);
  return self->category;
}

/**
 * akc_trace_record_get_parent_id:
 * @self: a record
 *
 * Gets the id of the earlier record @self follows from.
 *
 * Returns: (nullable): the parent's id, or %NULL
 *
 * Since: 0.1
 */
const char *
akc_trace_record_get_parent_id (const AkcTraceRecord *self)
{
  g_return_val_if_fail (self != NULL, NULL);
  return self->parent_id;
}

/**
 * akc_trace_record_get_detail:
 * @self: a record
 *
 * Gets the detail of @self, already redacted.
 *
 * Returns: (transfer none): the detail object
 *
 * Since: 0.1
 */
AkcJsonValue *
akc_trace_record_get_detail (const AkcTraceRecord *self)
{
  g_return_val_if_fail (self != NULL, NULL);
  return self->detail;
}

static void
write_record (AkcJsonWriter        *w,
              const AkcTraceRecord *self)
{
  akc_json_writer_begin_object (w);
  akc_json_writer_member (w, "id");
  akc_json_writer_string (w, self->id, -1);
  akc_json_writer_member (w, "sequence");
  akc_json_writer_int (w, self->sequence);
  akc_json_writer_member (w, "at");
  akc_json_writer_string (w, self->at, -1);
  akc_json_writer_member (w, "category");
  akc_json_writer_string (w, category_strings[self->category], -1);
  if (self->parent_id != NULL)
    {
      akc_json_writer_member (w, "parentId");
      akc_json_writer_string (w, self->parent_id, -1);
    }
  akc_json_writer_member (w, "detail");
  akc_json_writer_value (w, self->detail);
  akc_json_writer_end_object (w);
}

/**
 * akc_trace_record_to_json:
 * @self: a record
 *
 * Writes @self as its wire record `{id, sequence, at, category, parentId?,
 * detail}`.
 *
 * Returns: (transfer full): the record as JSON
 *
 * Since: 0.1
 */
AkcJsonValue *
akc_trace_record_to_json (const AkcTraceRecord *self)
{
  g_autoptr(GString) out = g_string_new (NULL);
  AkcJsonWriter w;

  g_return_val_if_fail (self != NULL, NULL);

  akc_json_writer_init (&w, out);
  write_record (&w, self);

  return akc_json_value_parse (out->str, out->len, NULL);
}

void
akc_trace_record_write (const AkcTraceRecord *self,
                        AkcJsonWriter        *w)
{
  write_record (w, self);
}

/* §10.1: the detail is an object of names 1–128 UTF-16 units whose
 * serialised form is at most 65,536 bytes. */
static gboolean
detail_is_valid (const AkcJsonValue *detail)
{
  g_autofree char *text = NULL;
  gsize len = 0;

  if (!AKC_JSON_IS_OBJECT (detail) || (detail->flags & AKC_JSON_FLAG_NONFINITE) != 0)
    return FALSE;

  for (gsize i = 0; i < AKC_JSON_LEN (detail); i++)
    {
      const AkcJsonMember *m = AKC_JSON_MEMBER (detail, i);
      gsize units = akc_text_len16 (m->name, m->name_len);

      if (units < 1 || units > MAX_NAME_UNITS)
        return FALSE;
    }

  text = akc_json_value_to_canonical (detail, &len);
  return len <= MAX_DETAIL_BYTES;
}

static gboolean
is_utc_date_time (const char *at)
{
  gsize len = strlen (at);

  return len > 0 && at[len - 1] == 'Z' && akc_text_is_date_time (at, len);
}

/* The record's id → position + 1, so a parent can be found in O(1). */
static gboolean
is_known_id (GHashTable *ids,
             const char *id)
{
  return g_hash_table_contains (ids, id);
}

/**
 * akc_trace_record_new_from_json:
 * @value: a JSON value
 * @error: return location for a #GError
 *
 * Reads a strict trace record `{id, sequence, at, category, parentId?,
 * detail}` (application.md §10.1), as a replay fixture holds them. The
 * order of records (sequences, parents) is checked by the reader of the
 * whole list.
 *
 * Returns: (transfer full) (nullable): the record, or %NULL with @error
 *   set (%AKC_TRACE_ERROR_INVALID_DETAIL)
 *
 * Since: 0.1
 */
AkcTraceRecord *
akc_trace_record_new_from_json (AkcJsonValue  *value,
                                GError       **error)
{
  static const char * const names[] = { "id", "sequence", "at", "category", "parentId", "detail" };
  AkcJsonValue *id, *sequence, *at, *category, *parent_id, *detail;
  AkcTraceCategory cat;
  double seq;

  g_return_val_if_fail (value != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  if (!AKC_JSON_IS_OBJECT (value))
    goto invalid;

  for (gsize i = 0; i < AKC_JSON_LEN (value); i++)
    {
      const AkcJsonMember *m = AKC_JSON_MEMBER (value, i);
      gboolean known = FALSE;

      for (guint k = 0; k < G_N_ELEMENTS (names) && !known; k++)
        known = strlen (names[k]) == m->name_len && memcmp (names[k], m->name, m->name_len) == 0;
      if (!known)
        goto invalid;
    }

  id = akc_json_value_get_member (value, "id");
  sequence = akc_json_value_get_member (value, "sequence");
  at = akc_json_value_get_member (value, "at");
  category = akc_json_value_get_member (value, "category");
  parent_id = akc_json_value_get_member (value, "parentId");
  detail = akc_json_value_get_member (value, "detail");

  if (!AKC_JSON_IS_STRING (id) || AKC_JSON_STR_LEN (id) == 0 ||
      strlen (AKC_JSON_STR (id)) != AKC_JSON_STR_LEN (id) ||
      !AKC_JSON_IS_NUMBER (sequence) ||
      !AKC_JSON_IS_STRING (at) || !is_utc_date_time (AKC_JSON_STR (at)) ||
      !AKC_JSON_IS_STRING (category) ||
      !akc_trace_category_from_string (AKC_JSON_STR (category), &cat) ||
      (parent_id != NULL && (!AKC_JSON_IS_STRING (parent_id) ||
                             strlen (AKC_JSON_STR (parent_id)) != AKC_JSON_STR_LEN (parent_id))) ||
      detail == NULL || !detail_is_valid (detail))
    goto invalid;

  seq = AKC_JSON_NUMBER (sequence);
  if (!(seq >= 0 && seq <= G_MAXUINT && seq == (double) (guint) seq))
    goto invalid;

  return record_new (AKC_JSON_STR (id), (guint) seq, AKC_JSON_STR (at), cat,
                     parent_id != NULL ? AKC_JSON_STR (parent_id) : NULL, detail);

invalid:
  g_set_error_literal (error, AKC_TRACE_ERROR, AKC_TRACE_ERROR_INVALID_DETAIL,
                       "Trace record is invalid.");
  return NULL;
}

/* ------------------------------------------------------------------ */
/* Redaction                                                           */
/* ------------------------------------------------------------------ */

/* How a value is redacted. Records: the capture's names only. Wire
 * events: never_on_wire too; what a person wrote (the `content` and
 * `parts` of a message whose `role` is `user`); in what went out, every
 * message text, system prompt and image (wire_sent_names); and strings
 * cut to MAX_WIRE_STRING bytes. */
typedef struct
{
  GHashTable *names;         /* lowercased */
  gboolean    person_texts;
  gsize       max_string;    /* 0: no bound */
} Redaction;

static gboolean
name_is_redacted (GHashTable *set,
                  const char *name,
                  gsize       len)
{
  g_autofree char *lower = NULL;

  if (g_hash_table_size (set) == 0)
    return FALSE;

  lower = g_utf8_strdown (name, len);
  return g_hash_table_contains (set, lower);
}

static gboolean
is_name (const AkcJsonMember *m,
         const char          *name)
{
  return m->name_len == strlen (name) && memcmp (m->name, name, m->name_len) == 0;
}

/* A message of the person: an object whose `role` is `user`. */
static gboolean
is_person_message (const Redaction    *how,
                   const AkcJsonValue *object)
{
  AkcJsonValue *role;

  if (!how->person_texts)
    return FALSE;
  role = akc_json_value_get_member (object, "role");
  return role != NULL && akc_json_string_equals (role, "user");
}

static gboolean
member_is_redacted (const Redaction     *how,
                    gboolean             person,
                    const AkcJsonMember *m)
{
  return (person && (is_name (m, "content") || is_name (m, "parts"))) ||
         name_is_redacted (how->names, m->name, m->name_len);
}

static gboolean
needs_redaction (const Redaction    *how,
                 const AkcJsonValue *value)
{
  if (AKC_JSON_IS_OBJECT (value))
    {
      gboolean person = is_person_message (how, value);

      for (gsize i = 0; i < AKC_JSON_LEN (value); i++)
        {
          const AkcJsonMember *m = AKC_JSON_MEMBER (value, i);

          if (member_is_redacted (how, person, m) || needs_redaction (how, m->value))
            return TRUE;
        }
    }
  else if (AKC_JSON_IS_ARRAY (value))
    {
      for (gsize i = 0; i < AKC_JSON_LEN (value); i++)
        if (needs_redaction (how, AKC_JSON_ELEMENT (value, i)))
          return TRUE;
    }
  else if (AKC_JSON_IS_STRING (value))
    return how->max_string > 0 && AKC_JSON_STR_LEN (value) > how->max_string;

  return FALSE;
}

/* The first @max bytes of a long string (whole characters), and how
 * long it was. */
static void
write_cut_string (AkcJsonWriter      *w,
                  const AkcJsonValue *value,
                  gsize               max)
{
  const char *text = AKC_JSON_STR (value);
  gsize length = AKC_JSON_STR_LEN (value);
  const char *end = text + max;
  g_autofree char *cut = NULL;

  while (end > text && ((guchar) *end & 0xC0) == 0x80)
    end--;
  cut = g_strdup_printf ("%.*s… [%" G_GSIZE_FORMAT " bytes]", (int) (end - text), text, length);
  akc_json_writer_string (w, cut, -1);
}

static void
write_redacted (AkcJsonWriter      *w,
                const Redaction    *how,
                const AkcJsonValue *value)
{
  if (AKC_JSON_IS_OBJECT (value))
    {
      gboolean person = is_person_message (how, value);

      akc_json_writer_begin_object (w);
      for (gsize i = 0; i < AKC_JSON_LEN (value); i++)
        {
          const AkcJsonMember *m = AKC_JSON_MEMBER (value, i);

          akc_json_writer_member_len (w, m->name, m->name_len);
          if (member_is_redacted (how, person, m))
            akc_json_writer_string (w, REDACTED, -1);
          else
            write_redacted (w, how, m->value);
        }
      akc_json_writer_end_object (w);
    }
  else if (AKC_JSON_IS_ARRAY (value))
    {
      akc_json_writer_begin_array (w);
      for (gsize i = 0; i < AKC_JSON_LEN (value); i++)
        write_redacted (w, how, AKC_JSON_ELEMENT (value, i));
      akc_json_writer_end_array (w);
    }
  else if (AKC_JSON_IS_STRING (value) && how->max_string > 0 && AKC_JSON_STR_LEN (value) > how->max_string)
    {
      write_cut_string (w, value, how->max_string);
    }
  else
    {
      akc_json_writer_value (w, value);
    }
}

/* A redacted copy of @value (a new reference to @value itself when
 * nothing matches). */
static AkcJsonValue *
redact_with (const Redaction *how,
             AkcJsonValue    *value)
{
  g_autoptr(GString) out = NULL;
  AkcJsonWriter w;

  if (!needs_redaction (how, value))
    return akc_json_value_ref (value);

  out = g_string_new (NULL);
  akc_json_writer_init (&w, out);
  write_redacted (&w, how, value);

  return akc_json_value_parse (out->str, out->len, NULL);
}

static AkcJsonValue *
redact (GHashTable   *set,
        AkcJsonValue *value)
{
  Redaction how = { set, FALSE, 0 };

  return redact_with (&how, value);
}

/**
 * akc_trace_capture_get_decided_by:
 * @self: a capture
 *
 * Gets the backend whose routes and policy decide the conversation, out
 * of sight of the capture (see [property@TraceCapture:decided-by]).
 *
 * Returns: (nullable): `turn`, `ask`, another backend's name, or %NULL
 *   when the routes and policy run here
 *
 * Since: 0.1
 */
const char *
akc_trace_capture_get_decided_by (AkcTraceCapture *self)
{
  g_return_val_if_fail (AKC_IS_TRACE_CAPTURE (self), NULL);

  return self->decided_by;
}

/**
 * akc_trace_capture_set_decided_by:
 * @self: a capture
 * @backend: (nullable): the backend whose routes and policy decide the
 *   conversation (`turn`, `ask`), or %NULL when they run here
 *
 * Says that the conversation's routes and policy run on @backend, so the
 * capture never sees them (see [property@TraceCapture:decided-by]).
 *
 * Since: 0.1
 */
void
akc_trace_capture_set_decided_by (AkcTraceCapture *self,
                                  const char      *backend)
{
  g_return_if_fail (AKC_IS_TRACE_CAPTURE (self));

  if (g_strcmp0 (self->decided_by, backend) == 0)
    return;
  g_free (self->decided_by);
  self->decided_by = g_strdup (backend);
  g_object_notify_by_pspec (G_OBJECT (self), props[PROP_DECIDED_BY]);
}

/**
 * akc_trace_capture_redact:
 * @self: a capture
 * @value: any JSON value
 *
 * Redacts @value as the capture redacts a record's detail: at any depth,
 * the value of every member whose name is one of the capture's redact
 * fields (compared case-insensitively) becomes `"[REDACTED]"`. For what
 * is saved next to the traces, such as a replay fixture's cassette.
 * @value itself is never modified.
 *
 * Returns: (transfer full): the redacted copy (@value itself when nothing
 *   matches)
 *
 * Since: 0.1
 */
AkcJsonValue *
akc_trace_capture_redact (AkcTraceCapture *self,
                          AkcJsonValue    *value)
{
  g_return_val_if_fail (AKC_IS_TRACE_CAPTURE (self), NULL);
  g_return_val_if_fail (value != NULL, NULL);

  return redact (self->redact_set, value);
}

/* ------------------------------------------------------------------ */
/* The capture                                                         */
/* ------------------------------------------------------------------ */

static gint64
real_clock (gpointer user_data)
{
  return g_get_real_time () / 1000;
}

static void
watched_object_free (gpointer data)
{
  WatchedObject *watched = data;

  if (watched->object != NULL)
    g_clear_signal_handler (&watched->handler, watched->object);
  g_clear_weak_pointer (&watched->object);
  g_free (watched);
}

static void
akc_trace_capture_dispose (GObject *object)
{
  AkcTraceCapture *self = AKC_TRACE_CAPTURE (object);

  g_ptr_array_set_size (self->watched, 0);

  G_OBJECT_CLASS (akc_trace_capture_parent_class)->dispose (object);
}

static void
akc_trace_capture_finalize (GObject *object)
{
  AkcTraceCapture *self = AKC_TRACE_CAPTURE (object);

  if (self->clock_destroy != NULL)
    self->clock_destroy (self->clock_data);
  g_strfreev (self->redact_fields);
  g_hash_table_unref (self->redact_set);
  g_ptr_array_unref (self->records);
  g_hash_table_unref (self->ids);
  g_free (self->last_turn_id);
  g_free (self->decided_by);
  g_ptr_array_unref (self->watched);
  g_hash_table_unref (self->wire_redact_set);
  g_hash_table_unref (self->wire_sent_set);
  g_queue_clear_full (&self->wire, (GDestroyNotify) akc_json_value_unref);

  G_OBJECT_CLASS (akc_trace_capture_parent_class)->finalize (object);
}

static void
akc_trace_capture_get_property (GObject    *object,
                                guint       prop_id,
                                GValue     *value,
                                GParamSpec *pspec)
{
  AkcTraceCapture *self = AKC_TRACE_CAPTURE (object);

  switch (prop_id)
    {
    case PROP_DECIDED_BY:
      g_value_set_string (value, self->decided_by);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
akc_trace_capture_set_property (GObject      *object,
                                guint         prop_id,
                                const GValue *value,
                                GParamSpec   *pspec)
{
  AkcTraceCapture *self = AKC_TRACE_CAPTURE (object);

  switch (prop_id)
    {
    case PROP_DECIDED_BY:
      akc_trace_capture_set_decided_by (self, g_value_get_string (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
akc_trace_capture_class_init (AkcTraceCaptureClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->dispose = akc_trace_capture_dispose;
  object_class->finalize = akc_trace_capture_finalize;
  object_class->get_property = akc_trace_capture_get_property;
  object_class->set_property = akc_trace_capture_set_property;

  /**
   * AkcTraceCapture:decided-by:
   *
   * The backend whose routes and policy decide the conversation, when
   * they run there and not in this process (`turn` for a turn server,
   * `ask` for an Ask service), or %NULL when they run here. Such
   * decisions are never seen by the capture: a view says so rather than
   * show nothing. [method@TraceCapture.watch_turn_client] sets it to
   * `turn`.
   *
   * Since: 0.1
   */
  props[PROP_DECIDED_BY] =
    g_param_spec_string ("decided-by", NULL, NULL,
                         NULL,
                         (G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));

  g_object_class_install_properties (object_class, N_PROPS, props);

  /**
   * AkcTraceCapture::record-added:
   * @self: the capture
   * @record: the new record
   *
   * Emitted after a record was appended, for a live view of the capture.
   *
   * Since: 0.1
   */
  signals[SIGNAL_RECORD_ADDED] =
    g_signal_new ("record-added",
                  G_TYPE_FROM_CLASS (klass),
                  G_SIGNAL_RUN_LAST,
                  0,
                  NULL, NULL,
                  NULL,
                  G_TYPE_NONE, 1,
                  AKC_TYPE_TRACE_RECORD | G_SIGNAL_TYPE_STATIC_SCOPE);

  /**
   * AkcTraceCapture::wire-event-added:
   * @self: the capture
   * @event: the wire event as the capture keeps it, redacted (see
   *   [method@TraceCapture.add_wire_event])
   *
   * Emitted after a wire event was added, for a live view of the wire.
   *
   * Since: 0.1
   */
  signals[SIGNAL_WIRE_EVENT_ADDED] =
    g_signal_new ("wire-event-added",
                  G_TYPE_FROM_CLASS (klass),
                  G_SIGNAL_RUN_LAST,
                  0,
                  NULL, NULL,
                  NULL,
                  G_TYPE_NONE, 1,
                  AKC_TYPE_JSON_VALUE | G_SIGNAL_TYPE_STATIC_SCOPE);
}

static void
akc_trace_capture_init (AkcTraceCapture *self)
{
  self->redact_set = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  self->records = g_ptr_array_new_with_free_func ((GDestroyNotify) akc_trace_record_unref);
  self->ids = g_hash_table_new (g_str_hash, g_str_equal);
  self->clock = real_clock;
  self->watched = g_ptr_array_new_with_free_func (watched_object_free);
  self->wire_redact_set = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  self->wire_sent_set = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  for (guint i = 0; never_on_wire[i] != NULL; i++)
    {
      g_hash_table_add (self->wire_redact_set, g_utf8_strdown (never_on_wire[i], -1));
      g_hash_table_add (self->wire_sent_set, g_utf8_strdown (never_on_wire[i], -1));
    }
  for (guint i = 0; never_sent_on_wire[i] != NULL; i++)
    g_hash_table_add (self->wire_sent_set, g_utf8_strdown (never_sent_on_wire[i], -1));
  g_queue_init (&self->wire);
  self->max_wire = AKC_TRACE_CAPTURE_DEFAULT_MAX_WIRE_EVENTS;
}

/**
 * akc_trace_capture_new:
 * @redact_fields: (nullable) (array zero-terminated=1): member names whose
 *   values are replaced with `"[REDACTED]"` at any depth, compared
 *   case-insensitively
 *
 * Creates an empty capture.
 *
 * Returns: (transfer full): a new capture
 *
 * Since: 0.1
 */
AkcTraceCapture *
akc_trace_capture_new (const char * const *redact_fields)
{
  AkcTraceCapture *self = g_object_new (AKC_TYPE_TRACE_CAPTURE, NULL);

  self->redact_fields = g_strdupv ((char **) (redact_fields != NULL ? redact_fields : (const char * const[]) { NULL }));
  for (guint i = 0; self->redact_fields[i] != NULL; i++)
    {
      g_hash_table_add (self->redact_set, g_utf8_strdown (self->redact_fields[i], -1));
      g_hash_table_add (self->wire_redact_set, g_utf8_strdown (self->redact_fields[i], -1));
      g_hash_table_add (self->wire_sent_set, g_utf8_strdown (self->redact_fields[i], -1));
    }

  return self;
}

/**
 * akc_trace_capture_get_redact_fields:
 * @self: a capture
 *
 * Gets the member names the capture redacts.
 *
 * Returns: (transfer none) (array zero-terminated=1): the names, as given
 *
 * Since: 0.1
 */
const char * const *
akc_trace_capture_get_redact_fields (AkcTraceCapture *self)
{
  g_return_val_if_fail (AKC_IS_TRACE_CAPTURE (self), NULL);

  return (const char * const *) self->redact_fields;
}

/**
 * akc_trace_capture_set_clock:
 * @self: a capture
 * @func: (nullable) (scope notified) (closure user_data) (destroy destroy):
 *   the clock, in milliseconds since the Unix epoch, or %NULL for the real
 *   time
 * @user_data: data for @func
 * @destroy: (nullable): frees @user_data
 *
 * Sets the clock that times records made without an explicit time, for
 * tests and replays.
 *
 * Since: 0.1
 */
void
akc_trace_capture_set_clock (AkcTraceCapture *self,
                             AkcClockFunc     func,
                             gpointer         user_data,
                             GDestroyNotify   destroy)
{
  g_return_if_fail (AKC_IS_TRACE_CAPTURE (self));

  if (self->clock_destroy != NULL)
    self->clock_destroy (self->clock_data);
  self->clock = func != NULL ? func : real_clock;
  self->clock_data = func != NULL ? user_data : NULL;
  self->clock_destroy = func != NULL ? destroy : NULL;
}

/**
 * akc_trace_capture_append:
 * @self: a capture
 * @category: what the record is about
 * @detail: a JSON object: names of 1–128 UTF-16 units, at most 65,536
 *   bytes serialised (checked before and after redaction)
 * @parent_id: (nullable): the id of an earlier record
 * @at: (nullable): a UTC date-time ending in `Z`, or %NULL for the clock's
 *   time
 * @error: return location for a #GError
 *
 * Appends a record (application.md §10.1 `append`). @detail is never
 * modified: the record holds a redacted copy.
 *
 * Returns: (transfer full) (nullable): the record, or %NULL with @error set
 *   (%AKC_TRACE_ERROR_INVALID_PARENT, %AKC_TRACE_ERROR_INVALID_DETAIL);
 *   nothing is appended then
 *
 * Since: 0.1
 */
AkcTraceRecord *
akc_trace_capture_append (AkcTraceCapture  *self,
                          AkcTraceCategory  category,
                          AkcJsonValue     *detail,
                          const char       *parent_id,
                          const char       *at,
                          GError          **error)
{
  g_autoptr(AkcJsonValue) redacted = NULL;
  g_autofree char *id = NULL;
  g_autofree char *now = NULL;
  AkcTraceRecord *record;

  g_return_val_if_fail (AKC_IS_TRACE_CAPTURE (self), NULL);
  g_return_val_if_fail (detail != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  if (parent_id != NULL && !is_known_id (self->ids, parent_id))
    {
      g_set_error_literal (error, AKC_TRACE_ERROR, AKC_TRACE_ERROR_INVALID_PARENT,
                           "Trace parent must refer to an earlier record.");
      return NULL;
    }

  if ((guint) category >= G_N_ELEMENTS (category_strings) ||
      !detail_is_valid (detail) ||
      (at != NULL && !is_utc_date_time (at)))
    goto invalid;

  redacted = redact (self->redact_set, detail);
  if (redacted == NULL || !detail_is_valid (redacted))
    goto invalid;

  if (at == NULL)
    at = now = akc_text_format_unix_ms (self->clock (self->clock_data));

  id = g_strdup_printf ("trace-%u", self->records->len);
  record = record_new (id, self->records->len, at, category, parent_id, redacted);
  g_ptr_array_add (self->records, record);
  g_hash_table_insert (self->ids, record->id, GUINT_TO_POINTER (self->records->len));

  g_signal_emit (self, signals[SIGNAL_RECORD_ADDED], 0, record);

  return akc_trace_record_ref (record);

invalid:
  g_set_error_literal (error, AKC_TRACE_ERROR, AKC_TRACE_ERROR_INVALID_DETAIL,
                       "Trace detail is invalid.");
  return NULL;
}

static AkcTraceCategory
category_of_kind (AkcTraceKind kind)
{
  switch (kind)
    {
    case AKC_TRACE_KIND_DETERMINISTIC:
      return AKC_TRACE_CATEGORY_ROUTE;
    case AKC_TRACE_KIND_AGENTIC:
      return AKC_TRACE_CATEGORY_AGENT;
    case AKC_TRACE_KIND_REPAIRED:
      return AKC_TRACE_CATEGORY_REPAIR;
    case AKC_TRACE_KIND_FALLBACK:
    default:
      return AKC_TRACE_CATEGORY_FALLBACK;
    }
}

static AkcTraceRecord *
append_written (AkcTraceCapture  *self,
                AkcTraceCategory  category,
                GString          *detail_text,
                const char       *parent_id,
                const char       *at,
                GError          **error)
{
  g_autoptr(AkcJsonValue) detail = akc_json_value_parse (detail_text->str, detail_text->len, error);

  if (detail == NULL)
    return NULL;

  return akc_trace_capture_append (self, category, detail, parent_id, at, error);
}

/**
 * akc_trace_capture_capture_turn:
 * @self: a capture
 * @kind: how the turn was answered
 * @route_id: (nullable): the route that answered, %NULL for the model
 * @from_state: the conversation state before the turn
 * @to_state: the conversation state after the turn
 * @parent_id: (nullable): the id of an earlier record
 * @error: return location for a #GError
 *
 * Appends the projection of a turn trace (application.md §10.1
 * `captureTurnTrace`): category `route`, `agent`, `repair` or `fallback`
 * after @kind, detail `{kind, routeId?, fromState, toState}`.
 *
 * Returns: (transfer full) (nullable): the record, or %NULL with @error set
 *
 * Since: 0.1
 */
AkcTraceRecord *
akc_trace_capture_capture_turn (AkcTraceCapture  *self,
                                AkcTraceKind      kind,
                                const char       *route_id,
                                const char       *from_state,
                                const char       *to_state,
                                const char       *parent_id,
                                GError          **error)
{
  g_autoptr(GString) out = g_string_new (NULL);
  const char *kind_string = akc_trace_kind_to_string (kind);
  AkcJsonWriter w;

  g_return_val_if_fail (AKC_IS_TRACE_CAPTURE (self), NULL);
  g_return_val_if_fail (from_state != NULL && to_state != NULL, NULL);
  g_return_val_if_fail (kind_string != NULL, NULL);

  akc_json_writer_init (&w, out);
  akc_json_writer_begin_object (&w);
  akc_json_writer_member (&w, "kind");
  akc_json_writer_string (&w, kind_string, -1);
  if (route_id != NULL)
    {
      akc_json_writer_member (&w, "routeId");
      akc_json_writer_string (&w, route_id, -1);
    }
  akc_json_writer_member (&w, "fromState");
  akc_json_writer_string (&w, from_state, -1);
  akc_json_writer_member (&w, "toState");
  akc_json_writer_string (&w, to_state, -1);
  akc_json_writer_end_object (&w);

  return append_written (self, category_of_kind (kind), out, parent_id, NULL, error);
}

/**
 * akc_trace_capture_capture_policy:
 * @self: a capture
 * @trace: a decision of a capability policy
 * @parent_id: (nullable): the id of an earlier record
 * @error: return location for a #GError
 *
 * Appends the projection of a policy decision (application.md §10.1
 * `captureActionPolicyTrace`): category `policy`, timed at the decision's
 * timestamp, detail `{policyTraceId, toolCallId, action, phase, decision,
 * reason, requiredCapabilities}`.
 *
 * Returns: (transfer full) (nullable): the record, or %NULL with @error set
 *
 * Since: 0.1
 */
AkcTraceRecord *
akc_trace_capture_capture_policy (AkcTraceCapture      *self,
                                  const AkcPolicyTrace *trace,
                                  const char           *parent_id,
                                  GError              **error)
{
  g_autoptr(AkcJsonValue) wire = NULL;
  g_autoptr(GString) out = g_string_new (NULL);
  g_autofree char *at = NULL;
  AkcJsonWriter w;
  static const struct { const char *from, *to; } fields[] = {
    { "id", "policyTraceId" },
    { "toolCallId", "toolCallId" },
    { "action", "action" },
    { "phase", "phase" },
    { "decision", "decision" },
    { "reason", "reason" },
    { "requiredCapabilities", "requiredCapabilities" },
  };

  g_return_val_if_fail (AKC_IS_TRACE_CAPTURE (self), NULL);
  g_return_val_if_fail (trace != NULL, NULL);

  wire = akc_policy_trace_to_json (trace);
  akc_json_writer_init (&w, out);
  akc_json_writer_begin_object (&w);
  for (guint i = 0; i < G_N_ELEMENTS (fields); i++)
    {
      AkcJsonValue *value = akc_json_value_get_member (wire, fields[i].from);

      if (value == NULL)
        continue;
      akc_json_writer_member (&w, fields[i].to);
      akc_json_writer_value (&w, value);
    }
  akc_json_writer_end_object (&w);

  at = akc_text_format_unix_ms (akc_policy_trace_get_timestamp (trace));
  return append_written (self, AKC_TRACE_CATEGORY_POLICY, out, parent_id, at, error);
}

/**
 * akc_trace_capture_capture_action:
 * @self: a capture
 * @record: a typed action's confirmation record
 * @parent_id: (nullable): the id of an earlier record
 * @error: return location for a #GError
 *
 * Appends the projection of an action's lifecycle (application.md §10.1
 * `captureActionTrace`): category `action`, detail `{action, toolCallId,
 * status, expiresAt}`. The record's token, input and session id are never
 * captured.
 *
 * Returns: (transfer full) (nullable): the record, or %NULL with @error set
 *
 * Since: 0.1
 */
AkcTraceRecord *
akc_trace_capture_capture_action (AkcTraceCapture             *self,
                                  const AkcConfirmationRecord *record,
                                  const char                  *parent_id,
                                  GError                     **error)
{
  g_autoptr(GString) out = g_string_new (NULL);
  AkcJsonWriter w;

  g_return_val_if_fail (AKC_IS_TRACE_CAPTURE (self), NULL);
  g_return_val_if_fail (record != NULL, NULL);

  akc_json_writer_init (&w, out);
  akc_json_writer_begin_object (&w);
  akc_json_writer_member (&w, "action");
  akc_json_writer_string (&w, akc_confirmation_record_get_action (record), -1);
  akc_json_writer_member (&w, "toolCallId");
  akc_json_writer_string (&w, akc_confirmation_record_get_tool_call_id (record), -1);
  akc_json_writer_member (&w, "status");
  akc_json_writer_string (&w, akc_confirmation_status_to_string (akc_confirmation_record_get_status (record)), -1);
  akc_json_writer_member (&w, "expiresAt");
  akc_json_writer_int (&w, akc_confirmation_record_get_expires_at (record));
  akc_json_writer_end_object (&w);

  return append_written (self, AKC_TRACE_CATEGORY_ACTION, out, parent_id, NULL, error);
}

/**
 * akc_trace_capture_snapshot:
 * @self: a capture
 *
 * Gets the records appended so far, in order. Records are immutable, so
 * the array is a snapshot: later appends do not change it.
 *
 * Returns: (transfer container) (element-type AkcTraceRecord): the records
 *
 * Since: 0.1
 */
GPtrArray *
akc_trace_capture_snapshot (AkcTraceCapture *self)
{
  GPtrArray *snapshot;

  g_return_val_if_fail (AKC_IS_TRACE_CAPTURE (self), NULL);

  snapshot = g_ptr_array_new_full (self->records->len, (GDestroyNotify) akc_trace_record_unref);
  for (guint i = 0; i < self->records->len; i++)
    g_ptr_array_add (snapshot, akc_trace_record_ref (g_ptr_array_index (self->records, i)));

  return snapshot;
}

/**
 * akc_trace_capture_get_n_records:
 * @self: a capture
 *
 * Gets how many records the capture holds.
 *
 * Returns: the number of records
 *
 * Since: 0.1
 */
guint
akc_trace_capture_get_n_records (AkcTraceCapture *self)
{
  g_return_val_if_fail (AKC_IS_TRACE_CAPTURE (self), 0);

  return self->records->len;
}

/**
 * akc_trace_capture_get_current_turn:
 * @self: a capture
 *
 * Gets the id of the latest turn record captured from a watched session
 * ([method@TraceCapture.watch_session]): the parent the capture gives the
 * policy and action records that follow, and the one a host gives the
 * records it appends about the same turn.
 *
 * Returns: (nullable): the record's id, or %NULL before the first turn
 *
 * Since: 0.1
 */
const char *
akc_trace_capture_get_current_turn (AkcTraceCapture *self)
{
  g_return_val_if_fail (AKC_IS_TRACE_CAPTURE (self), NULL);

  return self->last_turn_id;
}

/**
 * akc_trace_capture_clear:
 * @self: a capture
 *
 * Drops every record and every wire event; the next record is `trace-0`
 * again. Snapshots taken before keep their records.
 *
 * Since: 0.1
 */
void
akc_trace_capture_clear (AkcTraceCapture *self)
{
  g_return_if_fail (AKC_IS_TRACE_CAPTURE (self));

  g_hash_table_remove_all (self->ids);
  g_ptr_array_set_size (self->records, 0);
  g_clear_pointer (&self->last_turn_id, g_free);
  g_queue_clear_full (&self->wire, (GDestroyNotify) akc_json_value_unref);
}

/* ------------------------------------------------------------------ */
/* Following live objects                                              */
/* ------------------------------------------------------------------ */

static void
watch (AkcTraceCapture *self,
       gpointer         object,
       const char      *signal,
       GCallback        callback)
{
  WatchedObject *watched = g_new0 (WatchedObject, 1);

  g_set_weak_pointer (&watched->object, object);
  watched->handler = g_signal_connect_object (object, signal, callback, self, G_CONNECT_DEFAULT);
  g_ptr_array_add (self->watched, watched);
}

static void
on_session_trace (AkcSession      *session,
                  AkcTraceKind     kind,
                  const char      *route_id,
                  const char      *from_state,
                  const char      *to_state,
                  AkcTraceCapture *self)
{
  g_autoptr(AkcTraceRecord) record = NULL;
  g_autoptr(GError) error = NULL;

  record = akc_trace_capture_capture_turn (self, kind, route_id, from_state, to_state, NULL, &error);
  if (record == NULL)
    {
      g_debug ("Turn trace not captured: %s", error->message);
      return;
    }

  g_free (self->last_turn_id);
  self->last_turn_id = g_strdup (record->id);
}

static void
on_policy_trace (AkcCapabilityPolicy *policy,
                 AkcPolicyTrace      *trace,
                 AkcTraceCapture     *self)
{
  g_autoptr(AkcTraceRecord) record = NULL;
  g_autoptr(GError) error = NULL;

  record = akc_trace_capture_capture_policy (self, trace, self->last_turn_id, &error);
  if (record == NULL)
    g_debug ("Policy trace not captured: %s", error->message);
}

static void
on_record_changed (AkcActionConfirmation *confirmation,
                   AkcConfirmationRecord *confirmation_record,
                   AkcTraceCapture       *self)
{
  g_autoptr(AkcTraceRecord) record = NULL;
  g_autoptr(GError) error = NULL;

  record = akc_trace_capture_capture_action (self, confirmation_record, self->last_turn_id, &error);
  if (record == NULL)
    g_debug ("Action trace not captured: %s", error->message);
}

/**
 * akc_trace_capture_watch_session:
 * @self: a capture
 * @session: a session
 *
 * Captures every turn trace of @session ([signal@Session::trace]) and
 * every decision of its capability policy, as long as both live.
 *
 * Since: 0.1
 */
void
akc_trace_capture_watch_session (AkcTraceCapture *self,
                                 AkcSession      *session)
{
  AkcCapabilityPolicy *policy;

  g_return_if_fail (AKC_IS_TRACE_CAPTURE (self));
  g_return_if_fail (AKC_IS_SESSION (session));

  watch (self, session, "trace", G_CALLBACK (on_session_trace));
  policy = akc_session_get_policy (session);
  if (policy != NULL)
    akc_trace_capture_watch_policy (self, policy);
}

/**
 * akc_trace_capture_watch_policy:
 * @self: a capture
 * @policy: a capability policy
 *
 * Captures every decision of @policy ([signal@CapabilityPolicy::trace]),
 * as long as it lives. A decision made after a captured turn names that
 * turn's record as its parent.
 *
 * Since: 0.1
 */
void
akc_trace_capture_watch_policy (AkcTraceCapture     *self,
                                AkcCapabilityPolicy *policy)
{
  g_return_if_fail (AKC_IS_TRACE_CAPTURE (self));
  g_return_if_fail (AKC_IS_CAPABILITY_POLICY (policy));

  for (guint i = 0; i < self->watched->len; i++)
    if (((WatchedObject *) g_ptr_array_index (self->watched, i))->object == (GObject *) policy)
      return;

  watch (self, policy, "trace", G_CALLBACK (on_policy_trace));
}

/**
 * akc_trace_capture_watch_confirmation:
 * @self: a capture
 * @confirmation: a confirmation coordinator
 *
 * Captures every status a typed action of @confirmation takes
 * ([signal@ActionConfirmation::record-changed]), as long as it lives. A
 * change after a captured turn names that turn's record as its parent.
 *
 * Since: 0.1
 */
void
akc_trace_capture_watch_confirmation (AkcTraceCapture       *self,
                                      AkcActionConfirmation *confirmation)
{
  g_return_if_fail (AKC_IS_TRACE_CAPTURE (self));
  g_return_if_fail (AKC_IS_ACTION_CONFIRMATION (confirmation));

  watch (self, confirmation, "record-changed", G_CALLBACK (on_record_changed));
}

/* ------------------------------------------------------------------ */
/* Wire events                                                         */
/* ------------------------------------------------------------------ */

/* A member of @event that names what it is, or NULL. */
static const char *
wire_event_type (AkcJsonValue *event)
{
  const char * const names[] = { "event", "type" };

  if (akc_json_value_get_kind (event) != AKC_JSON_KIND_OBJECT)
    return NULL;
  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    {
      AkcJsonValue *member = akc_json_value_get_member (event, names[i]);

      if (member != NULL && akc_json_value_get_kind (member) == AKC_JSON_KIND_STRING)
        return akc_json_value_get_string (member, NULL);
    }
  return NULL;
}

/**
 * akc_trace_capture_add_wire_event:
 * @self: a capture
 * @source: where the event was seen, such as `turn`, `ask` or `provider`
 * @direction: `sent` or `received`
 * @event: the event as it went over the wire (or as its client decoded it)
 *
 * Keeps a redacted copy of one wire event of the conversation, for a
 * live view of what went to and came from a backend. The capture keeps
 * the latest [method@TraceCapture.get_max_wire_events] events (a ring: the
 * oldest goes first) as `{sequence, at, source, direction, type?,
 * event}`, where `type` is the event's `event` or `type` member when it
 * is a string. The copy is redacted, at any depth, with the capture's
 * redact fields and, always, with what never shows on the wire view:
 *
 * - the members `token`, `input`, `sessionId`, `apiKey`, `api_key`,
 *   `x-api-key`, `authorization`, `password`, `secret` and `cookie`
 *   (names compared case-insensitively): credentials, the confirmation
 *   token and its session, what the person typed into a turn;
 * - in an event @direction `sent` (a request), every message text as
 *   well: the members `content`, `system`, `images` and `parts`, which
 *   hold the texts, the system prompt, the attachments and the tool
 *   results of the Ask, turn and provider formats, and `query` and
 *   `normalizedQuery`, the question an escalation of the deterministic
 *   answer plane repeats. What the person
 *   wrote and what the host's prompt says are theirs; the shape of the
 *   request (roles, model, tools, options) is what a developer looks at;
 * - in any event, the `content` and `parts` of a message whose `role` is
 *   `user` (a turn snapshot repeats the person's messages).
 *
 * What a backend sent back (reply text, tool calls, errors) is shown.
 * Each string over 4,096 bytes is cut there (whole characters) and ends
 * with `… [N bytes]`; an event still over 65,536 bytes once redacted is
 * kept as `{"omittedBytes": N}`. @event itself is never modified.
 *
 * Wire events are not trace records: they are not part of a snapshot
 * and never go into a replay fixture.
 *
 * Returns: (transfer full): the event as the capture keeps it
 *
 * Since: 0.1
 */
AkcJsonValue *
akc_trace_capture_add_wire_event (AkcTraceCapture *self,
                                  const char      *source,
                                  const char      *direction,
                                  AkcJsonValue    *event)
{
  g_autoptr(AkcJsonValue) redacted = NULL;
  g_autoptr(GString) out = g_string_new (NULL);
  g_autofree char *at = NULL;
  g_autofree char *text = NULL;
  Redaction how = { NULL, TRUE, MAX_WIRE_STRING };
  const char *type;
  AkcJsonValue *kept;
  AkcJsonWriter w;
  gsize length = 0;

  g_return_val_if_fail (AKC_IS_TRACE_CAPTURE (self), NULL);
  g_return_val_if_fail (source != NULL, NULL);
  g_return_val_if_fail (direction != NULL, NULL);
  g_return_val_if_fail (event != NULL, NULL);

  how.names = g_str_equal (direction, "sent") ? self->wire_sent_set : self->wire_redact_set;
  redacted = redact_with (&how, event);
  text = akc_json_value_to_canonical (redacted, &length);
  at = akc_text_format_unix_ms (self->clock (self->clock_data));
  type = wire_event_type (event);

  akc_json_writer_init (&w, out);
  akc_json_writer_begin_object (&w);
  akc_json_writer_member (&w, "sequence");
  akc_json_writer_int (&w, self->wire_sequence);
  akc_json_writer_member (&w, "at");
  akc_json_writer_string (&w, at, -1);
  akc_json_writer_member (&w, "source");
  akc_json_writer_string (&w, source, -1);
  akc_json_writer_member (&w, "direction");
  akc_json_writer_string (&w, direction, -1);
  if (type != NULL)
    {
      akc_json_writer_member (&w, "type");
      akc_json_writer_string (&w, type, -1);
    }
  akc_json_writer_member (&w, "event");
  if (length > MAX_DETAIL_BYTES)
    {
      akc_json_writer_begin_object (&w);
      akc_json_writer_member (&w, "omittedBytes");
      akc_json_writer_int (&w, (gint64) length);
      akc_json_writer_end_object (&w);
    }
  else
    {
      akc_json_writer_value (&w, redacted);
    }
  akc_json_writer_end_object (&w);

  kept = akc_json_value_parse (out->str, out->len, NULL);
  g_assert (kept != NULL);
  self->wire_sequence++;
  g_queue_push_tail (&self->wire, kept);
  while (self->wire.length > self->max_wire)
    akc_json_value_unref (g_queue_pop_head (&self->wire));

  g_signal_emit (self, signals[SIGNAL_WIRE_EVENT_ADDED], 0, kept);

  return akc_json_value_ref (kept);
}

/**
 * akc_trace_capture_dup_wire_events:
 * @self: a capture
 *
 * Gets the wire events the capture keeps, oldest first
 * ([method@TraceCapture.add_wire_event]).
 *
 * Returns: (transfer container) (element-type AkcJsonValue): the events
 *
 * Since: 0.1
 */
GPtrArray *
akc_trace_capture_dup_wire_events (AkcTraceCapture *self)
{
  GPtrArray *events;

  g_return_val_if_fail (AKC_IS_TRACE_CAPTURE (self), NULL);

  events = g_ptr_array_new_full (self->wire.length, (GDestroyNotify) akc_json_value_unref);
  for (GList *l = self->wire.head; l != NULL; l = l->next)
    g_ptr_array_add (events, akc_json_value_ref (l->data));
  return events;
}

/**
 * akc_trace_capture_get_n_wire_events:
 * @self: a capture
 *
 * Gets how many wire events the capture keeps now.
 *
 * Returns: how many wire events the capture keeps
 *
 * Since: 0.1
 */
guint
akc_trace_capture_get_n_wire_events (AkcTraceCapture *self)
{
  g_return_val_if_fail (AKC_IS_TRACE_CAPTURE (self), 0);

  return self->wire.length;
}

/**
 * akc_trace_capture_get_max_wire_events:
 * @self: a capture
 *
 * Gets the bound of the capture's ring of wire events
 * ([method@TraceCapture.set_max_wire_events]).
 *
 * Returns: how many wire events the capture keeps at most
 *
 * Since: 0.1
 */
guint
akc_trace_capture_get_max_wire_events (AkcTraceCapture *self)
{
  g_return_val_if_fail (AKC_IS_TRACE_CAPTURE (self), 0);

  return self->max_wire;
}

/**
 * akc_trace_capture_set_max_wire_events:
 * @self: a capture
 * @max_events: how many wire events to keep, at least 1
 *
 * Bounds the ring of wire events (by default
 * %AKC_TRACE_CAPTURE_DEFAULT_MAX_WIRE_EVENTS); the oldest events over the
 * new bound are dropped at once.
 *
 * Since: 0.1
 */
void
akc_trace_capture_set_max_wire_events (AkcTraceCapture *self,
                                       guint            max_events)
{
  g_return_if_fail (AKC_IS_TRACE_CAPTURE (self));
  g_return_if_fail (max_events >= 1);

  self->max_wire = max_events;
  while (self->wire.length > self->max_wire)
    akc_json_value_unref (g_queue_pop_head (&self->wire));
}

typedef struct
{
  AkcTraceCapture *capture;   /* weak */
  char            *status;    /* of the last snapshot */
  GHashTable      *tool_calls; /* id -> status, of the last snapshot's tool calls */
} TurnWatch;

static void
turn_watch_free (gpointer data,
                 GClosure *closure)
{
  TurnWatch *watch = data;

  g_clear_weak_pointer (&watch->capture);
  g_free (watch->status);
  g_clear_pointer (&watch->tool_calls, g_hash_table_unref);
  g_free (watch);
}

static TurnWatch *
turn_watch_new (AkcTraceCapture *capture)
{
  TurnWatch *watch = g_new0 (TurnWatch, 1);

  g_set_weak_pointer (&watch->capture, capture);
  watch->tool_calls = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  return watch;
}

static const char *
string_member (AkcJsonValue *object,
               const char   *name)
{
  AkcJsonValue *value = object != NULL && akc_json_value_get_kind (object) == AKC_JSON_KIND_OBJECT
    ? akc_json_value_get_member (object, name) : NULL;

  return value != NULL && akc_json_value_get_kind (value) == AKC_JSON_KIND_STRING
    ? akc_json_value_get_string (value, NULL) : NULL;
}

/* A record the turn server's events make, under the latest turn. */
static void
append_server_record (AkcTraceCapture  *self,
                      AkcTraceCategory  category,
                      GString          *detail)
{
  g_autoptr(AkcTraceRecord) record = NULL;
  g_autoptr(GError) error = NULL;

  record = append_written (self, category, detail, self->last_turn_id, NULL, &error);
  if (record == NULL)
    g_debug ("Turn server record not captured: %s", error->message);
}

/* A server.turn.diagnostic: a lifecycle record {event, code, message,
 * retryable}, the message cut to 1024 characters. */
static void
capture_turn_diagnostic (AkcTraceCapture *self,
                         AkcJsonValue    *event)
{
  AkcJsonValue *payload = akc_json_value_get_member (event, "payload");
  AkcJsonValue *retryable = payload != NULL ? akc_json_value_get_member (payload, "retryable") : NULL;
  const char *code = string_member (payload, "code");
  const char *message = string_member (payload, "message");
  g_autoptr(GString) out = g_string_new (NULL);
  g_autofree char *cut = NULL;
  AkcJsonWriter w;

  if (code == NULL || message == NULL)
    return;
  if (g_utf8_strlen (message, -1) > 1024)
    message = cut = g_utf8_substring (message, 0, 1024);

  akc_json_writer_init (&w, out);
  akc_json_writer_begin_object (&w);
  akc_json_writer_member (&w, "event");
  akc_json_writer_string (&w, "server.turn.diagnostic", -1);
  akc_json_writer_member (&w, "code");
  akc_json_writer_string (&w, code, -1);
  akc_json_writer_member (&w, "message");
  akc_json_writer_string (&w, message, -1);
  akc_json_writer_member (&w, "retryable");
  akc_json_writer_boolean (&w, retryable != NULL && akc_json_value_get_kind (retryable) == AKC_JSON_KIND_BOOLEAN &&
                               akc_json_value_get_boolean (retryable));
  akc_json_writer_end_object (&w);

  append_server_record (self, AKC_TRACE_CATEGORY_LIFECYCLE, out);
}

/* The tool calls of an accepted snapshot: an action record {action,
 * toolCallId, status} for each one that is new or changed status (its
 * args and result never). The turn server ran the policy that let them. */
static void
capture_turn_tool_calls (TurnWatch    *watch,
                         AkcJsonValue *messages)
{
  for (gsize i = 0; messages != NULL && i < akc_json_value_get_length (messages); i++)
    {
      AkcJsonValue *calls = akc_json_value_get_member (akc_json_value_get_element (messages, i), "toolCalls");

      for (gsize j = 0; calls != NULL && j < akc_json_value_get_length (calls); j++)
        {
          AkcJsonValue *call = akc_json_value_get_element (calls, j);
          const char *id = string_member (call, "id");
          const char *name = string_member (call, "name");
          const char *status = string_member (call, "status");
          g_autoptr(GString) out = NULL;
          AkcJsonWriter w;

          if (id == NULL || name == NULL || status == NULL ||
              g_strcmp0 (g_hash_table_lookup (watch->tool_calls, id), status) == 0)
            continue;
          g_hash_table_replace (watch->tool_calls, g_strdup (id), g_strdup (status));

          out = g_string_new (NULL);
          akc_json_writer_init (&w, out);
          akc_json_writer_begin_object (&w);
          akc_json_writer_member (&w, "action");
          akc_json_writer_string (&w, name, -1);
          akc_json_writer_member (&w, "toolCallId");
          akc_json_writer_string (&w, id, -1);
          akc_json_writer_member (&w, "status");
          akc_json_writer_string (&w, status, -1);
          akc_json_writer_end_object (&w);
          append_server_record (watch->capture, AKC_TRACE_CATEGORY_ACTION, out);
        }
    }
}

static void
on_turn_event_sent (AkcTurnClient *client,
                    AkcJsonValue  *event,
                    TurnWatch     *watch)
{
  if (watch->capture != NULL)
    akc_json_value_unref (akc_trace_capture_add_wire_event (watch->capture, "turn", "sent", event));
}

static void
on_turn_event_received (AkcTurnClient *client,
                        AkcJsonValue  *event,
                        TurnWatch     *watch)
{
  if (watch->capture == NULL)
    return;

  akc_json_value_unref (akc_trace_capture_add_wire_event (watch->capture, "turn", "received", event));
  if (g_strcmp0 (string_member (event, "event"), "server.turn.diagnostic") == 0 &&
      g_strcmp0 (string_member (event, "sessionId"), akc_turn_client_get_session_id (client)) == 0)
    capture_turn_diagnostic (watch->capture, event);
}

static void
on_turn_snapshot (AkcTurnClient *client,
                  AkcJsonValue  *event,
                  TurnWatch     *watch)
{
  AkcJsonValue *payload = akc_json_value_get_member (event, "payload");
  AkcJsonValue *status = payload != NULL ? akc_json_value_get_member (payload, "status") : NULL;
  const char *to_state;

  if (watch->capture == NULL)
    return;

  /* The turn server keeps the conversation: its state is the status of
   * the snapshots, and each change of it is a turn of the model. */
  to_state = status != NULL && akc_json_value_get_kind (status) == AKC_JSON_KIND_STRING
    ? akc_json_value_get_string (status, NULL) : NULL;
  if (to_state != NULL && g_strcmp0 (to_state, watch->status) != 0)
    {
      g_autoptr(AkcTraceRecord) record = NULL;
      g_autoptr(GError) error = NULL;

      record = akc_trace_capture_capture_turn (watch->capture, AKC_TRACE_KIND_AGENTIC, NULL,
                                               watch->status != NULL ? watch->status : "idle",
                                               to_state, NULL, &error);
      if (record == NULL)
        g_debug ("Turn trace not captured: %s", error->message);
      else
        {
          g_free (watch->capture->last_turn_id);
          watch->capture->last_turn_id = g_strdup (record->id);
        }
      g_free (watch->status);
      watch->status = g_strdup (to_state);
    }

  capture_turn_tool_calls (watch, payload != NULL ? akc_json_value_get_member (payload, "messages") : NULL);
}

/**
 * akc_trace_capture_watch_turn_client:
 * @self: a capture
 * @client: a turn client
 *
 * Follows a conversation the turn server keeps: every event @client
 * sends ([signal@TurnClient::event-sent]) and every turn event it
 * receives ([signal@TurnClient::event-received]: snapshots, accepted or
 * not, and `server.turn.diagnostic`s) becomes a wire event (source
 * `turn`), and each change of the accepted snapshots' `status`
 * ([signal@TurnClient::snapshot-accepted]) a turn record of kind
 * `agentic` from the previous status (`idle` at first) to the new one.
 * What else the protocol says becomes records under the latest turn
 * record: each tool call of an accepted snapshot that is new or changed
 * status an `action` record `{action, toolCallId, status}` (never its
 * arguments or result), each `server.turn.diagnostic` of the session a
 * `lifecycle` record `{event: "server.turn.diagnostic", code, message,
 * retryable}`. As long as both live.
 *
 * The routes and the policy of such a conversation run on the server:
 * the turn protocol carries neither, so they are never traced here, and
 * [property@TraceCapture:decided-by] becomes `turn`.
 *
 * Since: 0.1
 */
void
akc_trace_capture_watch_turn_client (AkcTraceCapture *self,
                                     AkcTurnClient   *client)
{
  TurnWatch *sent;
  TurnWatch *received;

  g_return_if_fail (AKC_IS_TRACE_CAPTURE (self));
  g_return_if_fail (AKC_IS_TURN_CLIENT (client));

  akc_trace_capture_set_decided_by (self, "turn");
  sent = turn_watch_new (self);
  g_signal_connect_data (client, "event-sent", G_CALLBACK (on_turn_event_sent), sent, turn_watch_free, 0);
  sent = turn_watch_new (self);
  g_signal_connect_data (client, "event-received", G_CALLBACK (on_turn_event_received), sent, turn_watch_free, 0);
  received = turn_watch_new (self);
  g_signal_connect_data (client, "snapshot-accepted", G_CALLBACK (on_turn_snapshot), received, turn_watch_free, 0);
}
