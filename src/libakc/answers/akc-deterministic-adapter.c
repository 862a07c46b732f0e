/* akc-deterministic-adapter.c: verified local answers in front of a
 * backend adapter (application §9.4)
 *
 * SPDX-License-Identifier: MIT
 */

#include "config.h"

#include <string.h>

#include "akc-answer.h"
#include "akc-answer-builder-private.h"
#include "akc-assistant-content.h"
#include "akc-component-frame.h"
#include "akc-component-manifest.h"
#include "akc-deterministic-adapter.h"
#include "akc-json-private.h"
#include "akc-message.h"
#include "akc-resolved-component.h"
#include "akc-text-private.h"

/**
 * AkcDeterministicAdapter:
 *
 * The deterministic answer plane ([application §9.4](wire-formats.html#application-9)): an [iface@Adapter]
 * that answers exact questions from a verified local knowledge artifact,
 * offline and with citations, and hands every other question to a
 * fallback adapter, honestly marked.
 *
 * For each request the latest user message is resolved with an
 * [class@KnowledgeResolver]:
 *
 * - an **answer** streams one text chunk holding the ordered content (the
 *   answer's markdown and, when it has citations, a `source-list`
 *   component), then done;
 * - **choices** stream one text chunk holding the choices message and a
 *   `choice-list` component, then done. The choice list is remembered in
 *   the adapter's [class@ChoiceReservations] under the request's session
 *   (or `unscoped`), so that a selection can be sent exactly once through
 *   [func@ChoiceReservations.submission_func];
 * - an **escalation** goes to the fallback adapter, with the escalation
 *   envelope added to the request metadata as
 *   %AKC_DETERMINISTIC_ESCALATION_METADATA. Without a fallback, or when
 *   [property@DeterministicAdapter:fallback-mode] is
 *   %AKC_DETERMINISTIC_FALLBACK_DISABLED, it streams the escalation's
 *   message instead: a `miss` becomes the `offline` escalation, a stale or
 *   corrupt artifact says so.
 *
 * The text chunk of a local reply carries the answer envelope
 * (`agentskit.chat.answer` v1) as `answer` in its attached metadata
 * ([method@Chunk.get_metadata]).
 *
 * A reply of the fallback passes through chunk by chunk, as it arrives.
 * The adapter keeps up to %AKC_DETERMINISTIC_OBSERVATION_LIMIT units of
 * its text and, on its done chunk, attaches the backend answer envelope as
 * `answer` (a corrupt escalation when the reply was too long or its
 * ordered content did not decode). After an error chunk nothing is
 * claimed. When the fallback closes its stream with
 * [method@Stream.cancel] without a done or error chunk, the reply ended
 * early: the adapter ends it with a done chunk of its own, carrying the
 * envelope when there is one. Cancelling the stream handed to
 * [method@Adapter.stream] cancels the fallback's stream at once; nothing
 * is emitted after that.
 *
 * Every envelope is announced with [signal@DeterministicAdapter::decision]
 * before it is streamed.
 *
 * Since: 0.1
 */

#define CHOICES_INSTANCE_FALLBACK "deterministic-choices"
#define SOURCES_INSTANCE_FALLBACK "deterministic-sources"
#define DEFAULT_MESSAGE_ID        "deterministic"
#define MAX_SANITISED_UNITS       128

#define MESSAGE_OBSERVATION_OVERFLOW "Backend stream exceeded the observation limit."
#define MESSAGE_INVALID_CONTENT      "Backend answer contained invalid ordered content."
#define MESSAGE_INCOMPLETE_CONTENT   "Backend answer ended with incomplete ordered content."
#define MESSAGE_UNIFIED_LIMIT        "Backend answer exceeded the unified response limit."

struct _AkcDeterministicAdapter
{
  GObject                       parent_instance;

  AkcKnowledgeResolver         *resolver;
  AkcAdapter                   *fallback;
  AkcDeterministicFallbackMode  fallback_mode;
  AkcChoiceReservations        *reservations;
  AkcComponentManifest         *manifest;   /* the standard catalog, made on first use */
  char                         *provider;
  char                         *model;

  AkcDeterministicClockFunc     clock;
  gpointer                      clock_data;
  GDestroyNotify                clock_destroy;
};

static void akc_deterministic_adapter_iface_init (AkcAdapterInterface *iface);

G_DEFINE_FINAL_TYPE_WITH_CODE (AkcDeterministicAdapter, akc_deterministic_adapter, G_TYPE_OBJECT,
                               G_IMPLEMENT_INTERFACE (AKC_TYPE_ADAPTER, akc_deterministic_adapter_iface_init))

static gint64 akc_deterministic_adapter_now (AkcDeterministicAdapter *self);

G_DEFINE_ENUM_TYPE (AkcDeterministicFallbackMode, akc_deterministic_fallback_mode,
  G_DEFINE_ENUM_VALUE (AKC_DETERMINISTIC_FALLBACK_BACKEND, "backend"),
  G_DEFINE_ENUM_VALUE (AKC_DETERMINISTIC_FALLBACK_DISABLED, "disabled"))

enum {
  PROP_0,
  PROP_RESOLVER,
  PROP_FALLBACK,
  PROP_FALLBACK_MODE,
  PROP_RESERVATIONS,
  PROP_BACKEND_PROVIDER,
  PROP_BACKEND_MODEL,
  N_PROPS
};

enum {
  DECISION,
  N_SIGNALS
};

static GParamSpec *props[N_PROPS];
static guint signals[N_SIGNALS];

/* ------------------------------------------------------------------ */
/* Helpers                                                             */
/* ------------------------------------------------------------------ */

static const char *
member_string (const AkcJsonValue *object,
               const char         *name,
               gsize              *len)
{
  AkcJsonValue *v = object != NULL ? akc_json_value_get_member (object, name) : NULL;

  return v != NULL && akc_json_value_get_kind (v) == AKC_JSON_KIND_STRING
         ? akc_json_value_get_string (v, len) : NULL;
}

static AkcJsonValue *
parse_written (GString *out)
{
  g_autoptr(GError) error = NULL;
  AkcJsonValue *value = akc_json_value_parse (out->str, out->len, &error);

  g_assert_no_error (error);
  g_string_free (out, TRUE);
  return value;
}

/* Sanitising a value into an identifier (application §0.3): every
 * UTF-16 unit outside [A-Za-z0-9._:-] becomes '-', the result is cut to
 * 128 units, and a result not starting with [A-Za-z0-9] is @fallback. */
static char *
sanitise_identifier (const char *value,
                     const char *fallback)
{
  GString *out = g_string_new (NULL);
  const char *p = value;

  while (*p != '\0' && out->len < MAX_SANITISED_UNITS)
    {
      gunichar c = g_utf8_get_char (p);

      if (c < 0x80 && (g_ascii_isalnum (c) || c == '.' || c == '_' || c == ':' || c == '-'))
        g_string_append_c (out, (char) c);
      else
        {
          g_string_append_c (out, '-');
          if (c > 0xFFFF && out->len < MAX_SANITISED_UNITS)
            g_string_append_c (out, '-');
        }
      p = g_utf8_next_char (p);
    }

  if (out->len == 0 || !g_ascii_isalnum (out->str[0]))
    {
      g_string_free (out, TRUE);
      return g_strdup (fallback);
    }
  return g_string_free (out, FALSE);
}

static void
notify_decision (AkcDeterministicAdapter *self,
                 AkcJsonValue            *decision)
{
  g_signal_emit (self, signals[DECISION], 0, decision);
}

/* `{answer: decision}`, or @metadata with its `answer` replaced. */
static AkcJsonValue *
metadata_with_answer (AkcJsonValue *metadata,
                      AkcJsonValue *decision)
{
  gsize n = metadata != NULL && akc_json_value_get_kind (metadata) == AKC_JSON_KIND_OBJECT
            ? akc_json_value_get_member_count (metadata) : 0;
  g_autofree const char **names = g_new (const char *, n + 1);
  g_autofree AkcJsonValue **values = g_new (AkcJsonValue *, n + 1);
  gsize m = 0;

  for (gsize i = 0; i < n; i++)
    {
      const char *name = akc_json_value_get_member_name (metadata, i, NULL);

      if (g_strcmp0 (name, "answer") == 0)
        continue;
      names[m] = name;
      values[m] = akc_json_value_get_member_value (metadata, i);
      m++;
    }
  names[m] = "answer";
  values[m] = decision;
  m++;

  return akc_json_value_new_object (names, values, m);
}

/* ------------------------------------------------------------------ */
/* Local replies                                                       */
/* ------------------------------------------------------------------ */

static void
begin_frame (AkcJsonWriter *w,
             GString       *out,
             const char    *component_key,
             const char    *instance_id)
{
  akc_json_writer_init (w, out);
  akc_json_writer_begin_object (w);
  akc_json_writer_member (w, "protocol");
  akc_json_writer_string (w, AKC_COMPONENT_PROTOCOL, -1);
  akc_json_writer_member (w, "version");
  akc_json_writer_int (w, AKC_COMPONENT_PROTOCOL_VERSION);
  akc_json_writer_member (w, "type");
  akc_json_writer_string (w, "render", -1);
  akc_json_writer_member (w, "componentKey");
  akc_json_writer_string (w, component_key, -1);
  akc_json_writer_member (w, "instanceId");
  akc_json_writer_string (w, instance_id, -1);
}

static void
end_frame (AkcJsonWriter *w,
           const char    *component_key,
           const char    *summary)
{
  akc_json_writer_member (w, "fallback");
  akc_json_writer_begin_object (w);
  akc_json_writer_member (w, "kind");
  akc_json_writer_string (w, component_key, -1);
  akc_json_writer_member (w, "summary");
  akc_json_writer_string (w, summary, -1);
  akc_json_writer_end_object (w);
  akc_json_writer_end_object (w);
}

/* The source-list of an answer's citations. */
static AkcJsonValue *
build_sources_frame (AkcJsonValue *citations,
                     const char   *message_id)
{
  g_autofree char *raw_id = g_strconcat ("sources-", message_id, NULL);
  g_autofree char *instance_id = sanitise_identifier (raw_id, SOURCES_INSTANCE_FALLBACK);
  gsize n = akc_json_value_get_length (citations);
  GString *summary = g_string_new ("Sources: ");
  GString *out = g_string_new (NULL);
  AkcJsonWriter w;

  begin_frame (&w, out, "source-list", instance_id);
  akc_json_writer_member (&w, "props");
  akc_json_writer_begin_object (&w);
  akc_json_writer_member (&w, "label");
  akc_json_writer_string (&w, "Sources", -1);
  akc_json_writer_member (&w, "sources");
  akc_json_writer_begin_array (&w);
  for (gsize i = 0; i < n; i++)
    {
      AkcJsonValue *citation = akc_json_value_get_element (citations, i);
      gsize title_len = 0;
      const char *title = member_string (citation, "title", &title_len);

      akc_json_writer_begin_object (&w);
      akc_json_writer_member (&w, "id");
      akc_json_writer_value (&w, akc_json_value_get_member (citation, "id"));
      akc_json_writer_member (&w, "title");
      akc_json_writer_value (&w, akc_json_value_get_member (citation, "title"));
      akc_json_writer_member (&w, "url");
      akc_json_writer_value (&w, akc_json_value_get_member (citation, "href"));
      akc_json_writer_end_object (&w);

      if (i > 0)
        g_string_append (summary, ", ");
      g_string_append_len (summary, title, title_len);
    }
  akc_json_writer_end_array (&w);
  akc_json_writer_end_object (&w);
  g_string_append_c (summary, '.');
  end_frame (&w, "source-list", summary->str);
  g_string_free (summary, TRUE);

  return parse_written (out);
}

/* The choice-list of a choices decision. */
static AkcJsonValue *
build_choices_frame (AkcJsonValue *decision,
                     const char   *message_id)
{
  g_autofree char *raw_id = g_strconcat (AKC_CHOICE_RESERVATIONS_INSTANCE_PREFIX, message_id, NULL);
  g_autofree char *instance_id = sanitise_identifier (raw_id, CHOICES_INSTANCE_FALLBACK);
  AkcJsonValue *suggestions = akc_json_value_get_member (decision, "suggestions");
  AkcJsonValue *message = akc_json_value_get_member (decision, "message");
  gsize n = akc_json_value_get_length (suggestions);
  GString *summary = g_string_new (NULL);
  GString *out = g_string_new (NULL);
  AkcJsonWriter w;
  gsize len = 0;
  const char *text = akc_json_value_get_string (message, &len);

  g_string_append_len (summary, text, len);
  g_string_append_c (summary, ' ');

  begin_frame (&w, out, "choice-list", instance_id);
  akc_json_writer_member (&w, "props");
  akc_json_writer_begin_object (&w);
  akc_json_writer_member (&w, "prompt");
  akc_json_writer_value (&w, message);
  akc_json_writer_member (&w, "choices");
  akc_json_writer_begin_array (&w);
  for (gsize i = 0; i < n; i++)
    {
      AkcJsonValue *suggestion = akc_json_value_get_element (suggestions, i);
      gsize label_len = 0;
      const char *label = member_string (suggestion, "label", &label_len);

      akc_json_writer_begin_object (&w);
      akc_json_writer_member (&w, "id");
      akc_json_writer_value (&w, akc_json_value_get_member (suggestion, "id"));
      akc_json_writer_member (&w, "label");
      akc_json_writer_value (&w, akc_json_value_get_member (suggestion, "label"));
      akc_json_writer_member (&w, "description");
      akc_json_writer_value (&w, akc_json_value_get_member (suggestion, "value"));
      akc_json_writer_end_object (&w);

      if (i > 0)
        g_string_append (summary, ", ");
      g_string_append_len (summary, label, label_len);
    }
  akc_json_writer_end_array (&w);
  akc_json_writer_end_object (&w);
  g_string_append_c (summary, '.');
  end_frame (&w, "choice-list", summary->str);
  g_string_free (summary, TRUE);

  return parse_written (out);
}

static void
append_encoded (GString *content,
                char    *encoded,
                gsize    len)
{
  /* The unbounded encoder refuses nothing our envelopes can hold. */
  g_assert (encoded != NULL);
  g_string_append_len (content, encoded, len);
  g_free (encoded);
}

static void
append_text_record (AkcAssistantContentEncoder *encoder,
                    GString                    *content,
                    AkcJsonValue               *text_value)
{
  g_autoptr(GError) error = NULL;
  gsize text_len = 0, len = 0;
  const char *text = akc_json_value_get_string (text_value, &text_len);
  char *encoded = akc_assistant_content_encoder_encode_text (encoder, text, text_len, &len, &error);

  g_assert_no_error (error);
  append_encoded (content, encoded, len);
}

static void
append_frame_record (AkcAssistantContentEncoder *encoder,
                     GString                    *content,
                     AkcJsonValue               *frame)
{
  g_autoptr(GError) error = NULL;
  gsize len = 0;
  char *encoded = akc_assistant_content_encoder_encode_frame (encoder, frame, &len, &error);

  g_assert_no_error (error);
  append_encoded (content, encoded, len);
}

/* The ordered content of a local reply (projectDecision); remembers the
 * choices of a choices decision for @session_id. */
static GString *
project_decision (AkcDeterministicAdapter *self,
                  AkcJsonValue            *decision,
                  const char              *message_id,
                  const char              *session_id)
{
  g_autoptr(AkcAssistantContentEncoder) encoder = akc_assistant_content_encoder_new (FALSE);
  const char *outcome = member_string (decision, "outcome", NULL);
  GString *content = g_string_new (NULL);

  if (g_strcmp0 (outcome, "answer") == 0)
    {
      AkcJsonValue *answer = akc_json_value_get_member (decision, "answer");
      AkcJsonValue *citations = akc_json_value_get_member (answer, "citations");

      append_text_record (encoder, content, akc_json_value_get_member (answer, "markdown"));
      if (citations != NULL && akc_json_value_get_length (citations) > 0)
        {
          g_autoptr(AkcJsonValue) frame = build_sources_frame (citations, message_id);

          append_frame_record (encoder, content, frame);
        }
    }
  else if (g_strcmp0 (outcome, "choices") == 0)
    {
      g_autoptr(AkcJsonValue) frame = build_choices_frame (decision, message_id);

      append_text_record (encoder, content, akc_json_value_get_member (decision, "message"));
      akc_choice_reservations_remember (self->reservations, session_id, frame);
      append_frame_record (encoder, content, frame);
    }
  else
    append_text_record (encoder, content, akc_json_value_get_member (decision, "message"));

  return content;
}

typedef struct {
  AkcStream *stream;
  AkcChunk  *chunk;
} LocalReply;

static void
local_reply_free (gpointer data)
{
  LocalReply *reply = data;

  g_clear_object (&reply->stream);
  g_clear_pointer (&reply->chunk, akc_chunk_unref);
  g_free (reply);
}

static gboolean
local_reply_run (gpointer data)
{
  LocalReply *reply = data;

  /* A closed stream drops both: nothing is emitted after cancellation. */
  if (akc_stream_push (reply->stream, reply->chunk))
    akc_stream_finish (reply->stream);

  return G_SOURCE_REMOVE;
}

/* One text chunk with the whole content and `{answer: decision}`, then
 * done, from the main context. */
static void
stream_local (AkcDeterministicAdapter *self,
              AkcJsonValue            *decision,
              const char              *message_id,
              const char              *session_id,
              AkcStream               *stream)
{
  GString *content = project_decision (self, decision, message_id, session_id);
  g_autoptr(AkcChunk) text = akc_chunk_new_text (content->str, content->len);
  g_autoptr(AkcJsonValue) metadata = metadata_with_answer (NULL, decision);
  LocalReply *reply = g_new0 (LocalReply, 1);

  g_string_free (content, TRUE);
  reply->stream = g_object_ref (stream);
  reply->chunk = akc_chunk_with_metadata (text, metadata);
  g_idle_add_full (G_PRIORITY_DEFAULT, local_reply_run, reply, local_reply_free);
}

/* ------------------------------------------------------------------ */
/* Backend observation                                                 */
/* ------------------------------------------------------------------ */

typedef struct {
  grefcount                ref;
  AkcDeterministicAdapter *self;
  AkcStream               *outer;
  AkcStream               *inner;
  char                    *query;        /* the escalation's (cut) query */
  GString                 *content;
  gsize                    units;
  gboolean                 overflow;
  gboolean                 failed;
  gboolean                 finished;
  gulong                   inner_chunk_handler;
  gulong                   inner_cancel_handler;
  gulong                   outer_cancel_handler;
} Observation;

static Observation *
observation_ref (Observation *obs)
{
  g_ref_count_inc (&obs->ref);
  return obs;
}

static void
observation_unref (Observation *obs)
{
  if (!g_ref_count_dec (&obs->ref))
    return;

  g_clear_object (&obs->self);
  g_clear_object (&obs->outer);
  g_clear_object (&obs->inner);
  g_free (obs->query);
  g_string_free (obs->content, TRUE);
  g_free (obs);
}

G_DEFINE_AUTOPTR_CLEANUP_FUNC (Observation, observation_unref)

/* Stops watching both streams; drops the reference the watch held. */
static void
observation_finish (Observation *obs)
{
  if (obs->finished)
    return;

  obs->finished = TRUE;
  g_clear_signal_handler (&obs->inner_chunk_handler, obs->inner);
  g_clear_signal_handler (&obs->inner_cancel_handler, akc_stream_get_cancellable (obs->inner));
  g_clear_signal_handler (&obs->outer_cancel_handler, akc_stream_get_cancellable (obs->outer));
  observation_unref (obs);
}

static AkcJsonValue *
escalation_for (const char *query,
                const char *reason,
                const char *message)
{
  AkcAnswerQuery q;
  AkcJsonValue *result;

  akc_answer_query_init (&q, query);
  result = akc_answer_build_escalation (&q, reason, message);
  akc_answer_query_clear (&q);
  return result;
}

/* The citations of the valid source-list components of @parts. */
static AkcJsonValue *
collect_citations (AkcDeterministicAdapter *self,
                   AkcJsonValue            *parts)
{
  g_autoptr(GPtrArray) citations = g_ptr_array_new_with_free_func ((GDestroyNotify) akc_json_value_unref);
  gsize n = akc_json_value_get_length (parts);

  for (gsize i = 0; i < n && citations->len < AKC_ANSWER_MAX_CITATIONS; i++)
    {
      AkcJsonValue *part = akc_json_value_get_element (parts, i);
      AkcJsonValue *frame = akc_json_value_get_member (part, "frame");
      g_autoptr(AkcResolvedComponent) resolved = NULL;
      g_autoptr(AkcDiagnostic) diagnostic = NULL;
      AkcJsonValue *sources;
      gsize n_sources;

      if (g_strcmp0 (member_string (part, "kind", NULL), "component") != 0 ||
          g_strcmp0 (member_string (frame, "componentKey", NULL), "source-list") != 0)
        continue;

      if (self->manifest == NULL)
        self->manifest = akc_component_manifest_new_standard ();
      resolved = akc_component_manifest_resolve (self->manifest, frame, &diagnostic);
      if (resolved == NULL)
        continue;

      sources = akc_json_value_get_member (akc_resolved_component_get_props (resolved), "sources");
      n_sources = sources != NULL ? akc_json_value_get_length (sources) : 0;
      for (gsize j = 0; j < n_sources && citations->len < AKC_ANSWER_MAX_CITATIONS; j++)
        {
          AkcJsonValue *source = akc_json_value_get_element (sources, j);
          gsize id_len = 0, title_len = 0, url_len = 0, trimmed_len = 0;
          const char *id = member_string (source, "id", &id_len);
          const char *title = member_string (source, "title", &title_len);
          const char *url = member_string (source, "url", &url_len);
          const char *trimmed;
          gsize title_units;
          const char *names[] = { "id", "title", "href" };
          AkcJsonValue *values[3];

          /* The citation schema: a safe id, a trimmed Label(256), a
           * SafeHref. */
          if (url == NULL || id == NULL || title == NULL)
            continue;
          trimmed = akc_text_trim (title, title_len, &trimmed_len);
          title_units = akc_text_len16 (trimmed, trimmed_len);
          if (!akc_text_is_safe_id (id, id_len) || title_units < 1 || title_units > 256 ||
              !akc_text_is_safe_href (url, url_len))
            continue;

          values[0] = akc_json_value_new_string (id, id_len);
          values[1] = akc_json_value_new_string (trimmed, trimmed_len);
          values[2] = akc_json_value_new_string (url, url_len);
          g_ptr_array_add (citations, akc_json_value_new_object (names, values, 3));
          for (guint k = 0; k < 3; k++)
            akc_json_value_unref (values[k]);
        }
    }

  return akc_json_value_new_array ((AkcJsonValue * const *) citations->pdata, citations->len);
}

/* The answer envelope of the observed reply, or NULL when it has no text. */
static AkcJsonValue *
observation_envelope (Observation *obs)
{
  AkcDeterministicAdapter *self = obs->self;
  const char *text = obs->content->str;
  gsize len = obs->content->len;
  g_autoptr(AkcJsonValue) parts = NULL;
  g_autoptr(AkcJsonValue) citations = NULL;
  g_autoptr(AkcDiagnostic) diagnostic = NULL;
  g_autoptr(GString) markdown = g_string_new (NULL);
  gboolean complete = FALSE;
  const char *trimmed;
  gsize trimmed_len = 0;
  AkcAnswerQuery q;
  AkcJsonValue *result;

  if (obs->overflow)
    return escalation_for (obs->query, "corrupt", MESSAGE_OBSERVATION_OVERFLOW);

  parts = akc_assistant_content_decode (text, len, &complete, &diagnostic);
  if (parts == NULL && akc_assistant_content_is_candidate (text, len))
    return escalation_for (obs->query, "corrupt", MESSAGE_INVALID_CONTENT);
  if (parts != NULL && !complete)
    return escalation_for (obs->query, "corrupt", MESSAGE_INCOMPLETE_CONTENT);

  if (parts != NULL)
    {
      gsize n = akc_json_value_get_length (parts);

      for (gsize i = 0; i < n; i++)
        {
          AkcJsonValue *part = akc_json_value_get_element (parts, i);
          gsize part_len = 0;
          const char *part_text;

          if (g_strcmp0 (member_string (part, "kind", NULL), "text") != 0)
            continue;
          part_text = member_string (part, "text", &part_len);
          if (part_text != NULL)
            g_string_append_len (markdown, part_text, part_len);
        }
    }
  else
    g_string_append_len (markdown, text, len);

  trimmed = akc_text_trim (markdown->str, markdown->len, &trimmed_len);
  if (trimmed_len == 0)
    return NULL;
  if (akc_text_len16 (trimmed, trimmed_len) > AKC_ASSISTANT_CONTENT_MAX_TEXT_LENGTH)
    return escalation_for (obs->query, "corrupt", MESSAGE_UNIFIED_LIMIT);

  citations = parts != NULL ? collect_citations (self, parts) : NULL;
  akc_answer_query_init (&q, obs->query);
  result = akc_answer_build_backend (&q, trimmed, trimmed_len, citations,
                                     self->provider, self->model);
  akc_answer_query_clear (&q);
  return result;
}

static void
observation_accumulate (Observation *obs,
                        AkcChunk    *chunk)
{
  gsize len = 0;
  const char *text = akc_chunk_get_text (chunk, &len);
  gsize units, remaining;

  if (text == NULL || obs->overflow)
    return;

  units = akc_text_len16 (text, len);
  remaining = AKC_DETERMINISTIC_OBSERVATION_LIMIT - obs->units;
  if (units > remaining)
    {
      /* The reply is corrupt whatever follows; the text is not needed. */
      obs->overflow = TRUE;
      g_string_truncate (obs->content, 0);
      return;
    }
  g_string_append_len (obs->content, text, len);
  obs->units += units;
}

static void
on_inner_chunk (AkcStream *inner,
                AkcChunk  *chunk,
                gpointer   data)
{
  g_autoptr(Observation) obs = observation_ref (data);
  AkcChunkKind kind = akc_chunk_get_kind (chunk);

  if (obs->finished)
    return;

  switch (kind)
    {
    case AKC_CHUNK_TEXT:
      observation_accumulate (obs, chunk);
      akc_stream_push (obs->outer, chunk);
      break;

    case AKC_CHUNK_ERROR:
      obs->failed = TRUE;
      observation_finish (obs);
      akc_stream_push (obs->outer, chunk);
      break;

    case AKC_CHUNK_DONE:
      {
        g_autoptr(AkcJsonValue) envelope = NULL;

        observation_finish (obs);
        if (!obs->failed)
          envelope = observation_envelope (obs);
        if (envelope != NULL)
          {
            g_autoptr(AkcJsonValue) metadata = metadata_with_answer (akc_chunk_get_metadata (chunk), envelope);
            g_autoptr(AkcChunk) done = akc_chunk_with_metadata (chunk, metadata);

            notify_decision (obs->self, envelope);
            akc_stream_push (obs->outer, done);
          }
        else
          akc_stream_push (obs->outer, chunk);
      }
      break;

    case AKC_CHUNK_TOOL_CALL:
    case AKC_CHUNK_METADATA:
    default:
      akc_stream_push (obs->outer, chunk);
      break;
    }
}

/* The fallback cancelled its own stream: its reply ended without done or
 * error. Ends the reply with a done of our own. */
static void
on_inner_cancelled (GCancellable *cancellable,
                    gpointer      data)
{
  g_autoptr(Observation) obs = observation_ref (data);
  g_autoptr(AkcJsonValue) envelope = NULL;
  g_autoptr(AkcChunk) done = akc_chunk_new_done ();

  if (obs->finished)
    return;

  observation_finish (obs);
  if (akc_stream_is_closed (obs->outer))
    return;

  envelope = observation_envelope (obs);
  if (envelope != NULL)
    {
      g_autoptr(AkcJsonValue) metadata = metadata_with_answer (NULL, envelope);
      g_autoptr(AkcChunk) with_answer = akc_chunk_with_metadata (done, metadata);

      notify_decision (obs->self, envelope);
      akc_stream_push (obs->outer, with_answer);
    }
  else
    {
      /* An AkcStream ends only with done, error or cancellation: a reply
       * without text still ends, with a plain done. */
      akc_stream_push (obs->outer, done);
    }
}

/* The consumer stopped the reply: stop the fallback at once. */
static void
on_outer_cancelled (GCancellable *cancellable,
                    gpointer      data)
{
  g_autoptr(Observation) obs = observation_ref (data);

  if (obs->finished)
    return;

  observation_finish (obs);
  akc_stream_cancel (obs->inner);
}

/* What the backend's turn sent and received is this turn's. */
static void
on_inner_wire_event (AkcStream    *inner,
                     const char   *direction,
                     AkcJsonValue *event,
                     AkcStream    *outer)
{
  akc_stream_tap_wire_event (outer, direction, event);
}

static void
stream_backend (AkcDeterministicAdapter *self,
                AkcAdapterRequest       *request,
                AkcJsonValue            *decision,
                AkcStream               *stream)
{
  g_autoptr(AkcAdapterRequest) escalated = NULL;
  g_autoptr(AkcStream) inner = akc_stream_new ();
  Observation *obs = g_new0 (Observation, 1);

  g_ref_count_init (&obs->ref);
  obs->self = g_object_ref (self);
  obs->outer = g_object_ref (stream);
  obs->inner = g_object_ref (inner);
  obs->query = g_strdup (member_string (decision, "query", NULL));
  obs->content = g_string_new (NULL);

  /* The watch holds the initial reference until observation_finish(). */
  obs->inner_chunk_handler = g_signal_connect (inner, "chunk", G_CALLBACK (on_inner_chunk), obs);
  obs->inner_cancel_handler = g_signal_connect (akc_stream_get_cancellable (inner), "cancelled",
                                                G_CALLBACK (on_inner_cancelled), obs);
  obs->outer_cancel_handler = g_signal_connect (akc_stream_get_cancellable (stream), "cancelled",
                                                G_CALLBACK (on_outer_cancelled), obs);

  if (akc_stream_wants_wire_events (stream))
    g_signal_connect_object (inner, "wire-event", G_CALLBACK (on_inner_wire_event), stream, 0);

  escalated = akc_adapter_request_with_metadata_member (request, AKC_DETERMINISTIC_ESCALATION_METADATA,
                                                        decision);
  akc_adapter_stream (self->fallback, escalated, inner);
}

/* ------------------------------------------------------------------ */
/* AkcAdapter                                                          */
/* ------------------------------------------------------------------ */

static void
akc_deterministic_adapter_stream (AkcAdapter        *adapter,
                                  AkcAdapterRequest *request,
                                  AkcStream         *stream)
{
  AkcDeterministicAdapter *self = AKC_DETERMINISTIC_ADAPTER (adapter);
  AkcMessage *latest = akc_adapter_request_get_latest_user_message (request);
  const char *query = latest != NULL ? akc_message_get_content (latest) : NULL;
  const char *message_id = latest != NULL ? akc_message_get_id (latest) : NULL;
  const char *session_id = akc_adapter_request_get_session_id (request);
  g_autoptr(AkcJsonValue) decision = NULL;
  const char *outcome;

  if (query == NULL)
    query = "";
  if (message_id == NULL)
    message_id = DEFAULT_MESSAGE_ID;
  if (session_id == NULL)
    session_id = AKC_DETERMINISTIC_UNSCOPED_SESSION;

  decision = akc_knowledge_resolver_resolve (self->resolver, query, akc_deterministic_adapter_now (self));
  outcome = member_string (decision, "outcome", NULL);

  if (g_strcmp0 (outcome, "escalation") != 0)
    {
      notify_decision (self, decision);
      stream_local (self, decision, message_id, session_id, stream);
      return;
    }

  if (self->fallback_mode == AKC_DETERMINISTIC_FALLBACK_DISABLED || self->fallback == NULL)
    {
      if (g_strcmp0 (member_string (decision, "reason", NULL), "miss") == 0)
        {
          AkcJsonValue *offline = escalation_for (member_string (decision, "query", NULL),
                                                  "offline", AKC_ANSWER_MESSAGE_OFFLINE);

          akc_json_value_unref (decision);
          decision = offline;
        }
      notify_decision (self, decision);
      stream_local (self, decision, message_id, session_id, stream);
      return;
    }

  notify_decision (self, decision);
  stream_backend (self, request, decision, stream);
}

static AkcJsonValue *
default_capabilities (void)
{
  const char *names[] = { "streaming", "structuredOutput" };
  g_autoptr(AkcJsonValue) yes = akc_json_value_new_boolean (TRUE);
  AkcJsonValue *values[] = { yes, yes };

  return akc_json_value_new_object (names, values, 2);
}

static AkcJsonValue *
akc_deterministic_adapter_get_capabilities (AkcAdapter *adapter)
{
  AkcDeterministicAdapter *self = AKC_DETERMINISTIC_ADAPTER (adapter);

  if (self->fallback_mode == AKC_DETERMINISTIC_FALLBACK_BACKEND && self->fallback != NULL)
    {
      AkcJsonValue *capabilities = akc_adapter_get_capabilities (self->fallback);

      if (capabilities != NULL)
        return capabilities;
    }

  return default_capabilities ();
}

static void
akc_deterministic_adapter_iface_init (AkcAdapterInterface *iface)
{
  iface->stream = akc_deterministic_adapter_stream;
  iface->get_capabilities = akc_deterministic_adapter_get_capabilities;
}

/* ------------------------------------------------------------------ */
/* GObject                                                             */
/* ------------------------------------------------------------------ */

static void
akc_deterministic_adapter_constructed (GObject *object)
{
  AkcDeterministicAdapter *self = AKC_DETERMINISTIC_ADAPTER (object);

  G_OBJECT_CLASS (akc_deterministic_adapter_parent_class)->constructed (object);

  /* Without a resolver nothing is trusted: every question escalates as
   * corrupt. */
  if (self->resolver == NULL)
    self->resolver = akc_knowledge_resolver_new (NULL, NULL, NULL);
  if (self->reservations == NULL)
    self->reservations = akc_choice_reservations_new ();
}

static void
akc_deterministic_adapter_finalize (GObject *object)
{
  AkcDeterministicAdapter *self = AKC_DETERMINISTIC_ADAPTER (object);

  if (self->clock_destroy != NULL)
    self->clock_destroy (self->clock_data);
  g_clear_object (&self->resolver);
  g_clear_object (&self->fallback);
  g_clear_object (&self->reservations);
  g_clear_object (&self->manifest);
  g_clear_pointer (&self->provider, g_free);
  g_clear_pointer (&self->model, g_free);

  G_OBJECT_CLASS (akc_deterministic_adapter_parent_class)->finalize (object);
}

static void
akc_deterministic_adapter_get_property (GObject    *object,
                                        guint       prop_id,
                                        GValue     *value,
                                        GParamSpec *pspec)
{
  AkcDeterministicAdapter *self = AKC_DETERMINISTIC_ADAPTER (object);

  switch (prop_id)
    {
    case PROP_RESOLVER:
      g_value_set_object (value, self->resolver);
      break;
    case PROP_FALLBACK:
      g_value_set_object (value, self->fallback);
      break;
    case PROP_FALLBACK_MODE:
      g_value_set_enum (value, self->fallback_mode);
      break;
    case PROP_RESERVATIONS:
      g_value_set_object (value, self->reservations);
      break;
    case PROP_BACKEND_PROVIDER:
      g_value_set_string (value, self->provider);
      break;
    case PROP_BACKEND_MODEL:
      g_value_set_string (value, self->model);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
akc_deterministic_adapter_set_property (GObject      *object,
                                        guint         prop_id,
                                        const GValue *value,
                                        GParamSpec   *pspec)
{
  AkcDeterministicAdapter *self = AKC_DETERMINISTIC_ADAPTER (object);

  switch (prop_id)
    {
    case PROP_RESOLVER:
      self->resolver = g_value_dup_object (value);
      break;
    case PROP_FALLBACK:
      self->fallback = g_value_dup_object (value);
      break;
    case PROP_FALLBACK_MODE:
      self->fallback_mode = g_value_get_enum (value);
      break;
    case PROP_RESERVATIONS:
      if (self->reservations == NULL)
        self->reservations = g_value_dup_object (value);
      else
        akc_deterministic_adapter_set_reservations (self, g_value_get_object (value));
      break;
    case PROP_BACKEND_PROVIDER:
      akc_deterministic_adapter_set_backend_provider (self, g_value_get_string (value));
      break;
    case PROP_BACKEND_MODEL:
      akc_deterministic_adapter_set_backend_model (self, g_value_get_string (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
akc_deterministic_adapter_class_init (AkcDeterministicAdapterClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->constructed = akc_deterministic_adapter_constructed;
  object_class->finalize = akc_deterministic_adapter_finalize;
  object_class->get_property = akc_deterministic_adapter_get_property;
  object_class->set_property = akc_deterministic_adapter_set_property;

  /**
   * AkcDeterministicAdapter:resolver:
   *
   * The resolver over the verified knowledge artifact. Without one, every
   * question escalates as corrupt.
   *
   * Since: 0.1
   */
  props[PROP_RESOLVER] =
    g_param_spec_object ("resolver", NULL, NULL,
                         AKC_TYPE_KNOWLEDGE_RESOLVER,
                         (G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS));

  /**
   * AkcDeterministicAdapter:fallback:
   *
   * The adapter that answers what the artifact cannot, or %NULL when there
   * is no backend.
   *
   * Since: 0.1
   */
  props[PROP_FALLBACK] =
    g_param_spec_object ("fallback", NULL, NULL,
                         AKC_TYPE_ADAPTER,
                         (G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS));

  /**
   * AkcDeterministicAdapter:fallback-mode:
   *
   * Whether escalations go to [property@DeterministicAdapter:fallback]
   * (the site configuration's `fallback.mode`).
   *
   * Since: 0.1
   */
  props[PROP_FALLBACK_MODE] =
    g_param_spec_enum ("fallback-mode", NULL, NULL,
                       AKC_TYPE_DETERMINISTIC_FALLBACK_MODE,
                       AKC_DETERMINISTIC_FALLBACK_BACKEND,
                       (G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS));

  /**
   * AkcDeterministicAdapter:reservations:
   *
   * Where the choices the adapter offers are remembered. A new adapter
   * has reservations of its own; adapters may share one.
   *
   * Since: 0.1
   */
  props[PROP_RESERVATIONS] =
    g_param_spec_object ("reservations", NULL, NULL,
                         AKC_TYPE_CHOICE_RESERVATIONS,
                         (G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));

  /**
   * AkcDeterministicAdapter:backend-provider:
   *
   * The provider named in the provenance of backend answers (1–128
   * units), or %NULL.
   *
   * Since: 0.1
   */
  props[PROP_BACKEND_PROVIDER] =
    g_param_spec_string ("backend-provider", NULL, NULL,
                         NULL,
                         (G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));

  /**
   * AkcDeterministicAdapter:backend-model:
   *
   * The model named in the provenance of backend answers (1–128 units),
   * or %NULL.
   *
   * Since: 0.1
   */
  props[PROP_BACKEND_MODEL] =
    g_param_spec_string ("backend-model", NULL, NULL,
                         NULL,
                         (G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));

  g_object_class_install_properties (object_class, N_PROPS, props);

  /**
   * AkcDeterministicAdapter::decision:
   * @self: the adapter
   * @envelope: the answer envelope (`agentskit.chat.answer` v1)
   *
   * Emitted for every decision the adapter makes (`onDecision`): a local
   * answer, choices or escalation before its reply is streamed, and the
   * backend answer envelope before the done chunk that carries it.
   *
   * Since: 0.1
   */
  signals[DECISION] =
    g_signal_new ("decision",
                  G_TYPE_FROM_CLASS (klass),
                  G_SIGNAL_RUN_LAST,
                  0,
                  NULL, NULL,
                  NULL,
                  G_TYPE_NONE, 1,
                  AKC_TYPE_JSON_VALUE | G_SIGNAL_TYPE_STATIC_SCOPE);
}

static void
akc_deterministic_adapter_init (AkcDeterministicAdapter *self)
{
}

/* ------------------------------------------------------------------ */
/* Public API                                                          */
/* ------------------------------------------------------------------ */

/**
 * akc_deterministic_adapter_new:
 * @artifact: (nullable): the knowledge artifact as a JSON value, or %NULL
 *   when none could be loaded
 * @expected_content_hash: (nullable): the content hash the site
 *   configuration pins
 * @expected_site_id: (nullable): the site id of the site configuration
 * @fallback_mode: whether escalations go to @fallback
 * @fallback: (nullable): the adapter behind this one, or %NULL when there
 *   is no backend
 *
 * Creates a deterministic answer adapter over @artifact, which is
 * verified against both trusted anchors first
 * ([ctor@KnowledgeResolver.new]). An artifact that fails verification
 * never answers: every question escalates as corrupt.
 *
 * Returns: (transfer full): a new adapter
 *
 * Since: 0.1
 */
AkcDeterministicAdapter *
akc_deterministic_adapter_new (AkcJsonValue                 *artifact,
                               const char                   *expected_content_hash,
                               const char                   *expected_site_id,
                               AkcDeterministicFallbackMode  fallback_mode,
                               AkcAdapter                   *fallback)
{
  g_autoptr(AkcKnowledgeResolver) resolver = NULL;

  g_return_val_if_fail (fallback == NULL || AKC_IS_ADAPTER (fallback), NULL);

  resolver = akc_knowledge_resolver_new (artifact, expected_content_hash, expected_site_id);
  return akc_deterministic_adapter_new_with_resolver (resolver, fallback_mode, fallback);
}

/**
 * akc_deterministic_adapter_new_with_resolver:
 * @resolver: a resolver over a knowledge artifact
 * @fallback_mode: whether escalations go to @fallback
 * @fallback: (nullable): the adapter behind this one, or %NULL when there
 *   is no backend
 *
 * Creates a deterministic answer adapter over an existing resolver.
 *
 * Returns: (transfer full): a new adapter
 *
 * Since: 0.1
 */
AkcDeterministicAdapter *
akc_deterministic_adapter_new_with_resolver (AkcKnowledgeResolver         *resolver,
                                             AkcDeterministicFallbackMode  fallback_mode,
                                             AkcAdapter                   *fallback)
{
  g_return_val_if_fail (AKC_IS_KNOWLEDGE_RESOLVER (resolver), NULL);
  g_return_val_if_fail (fallback == NULL || AKC_IS_ADAPTER (fallback), NULL);

  return g_object_new (AKC_TYPE_DETERMINISTIC_ADAPTER,
                       "resolver", resolver,
                       "fallback-mode", fallback_mode,
                       "fallback", fallback,
                       NULL);
}

/**
 * akc_deterministic_adapter_get_resolver:
 * @self: an adapter
 *
 * Gets [property@DeterministicAdapter:resolver]; whether the artifact was
 * verified is [method@KnowledgeResolver.is_verified].
 *
 * Returns: (transfer none): the resolver
 *
 * Since: 0.1
 */
AkcKnowledgeResolver *
akc_deterministic_adapter_get_resolver (AkcDeterministicAdapter *self)
{
  g_return_val_if_fail (AKC_IS_DETERMINISTIC_ADAPTER (self), NULL);

  return self->resolver;
}

/**
 * akc_deterministic_adapter_get_fallback:
 * @self: an adapter
 *
 * Gets [property@DeterministicAdapter:fallback].
 *
 * Returns: (transfer none) (nullable): the fallback adapter
 *
 * Since: 0.1
 */
AkcAdapter *
akc_deterministic_adapter_get_fallback (AkcDeterministicAdapter *self)
{
  g_return_val_if_fail (AKC_IS_DETERMINISTIC_ADAPTER (self), NULL);

  return self->fallback;
}

/**
 * akc_deterministic_adapter_get_fallback_mode:
 * @self: an adapter
 *
 * Gets [property@DeterministicAdapter:fallback-mode].
 *
 * Returns: the fallback mode
 *
 * Since: 0.1
 */
AkcDeterministicFallbackMode
akc_deterministic_adapter_get_fallback_mode (AkcDeterministicAdapter *self)
{
  g_return_val_if_fail (AKC_IS_DETERMINISTIC_ADAPTER (self), AKC_DETERMINISTIC_FALLBACK_DISABLED);

  return self->fallback_mode;
}

/**
 * akc_deterministic_adapter_get_reservations:
 * @self: an adapter
 *
 * Gets [property@DeterministicAdapter:reservations]: give them to the
 * view's choice-submission hook with
 * [func@ChoiceReservations.submission_func].
 *
 * Returns: (transfer none): the reservations
 *
 * Since: 0.1
 */
AkcChoiceReservations *
akc_deterministic_adapter_get_reservations (AkcDeterministicAdapter *self)
{
  g_return_val_if_fail (AKC_IS_DETERMINISTIC_ADAPTER (self), NULL);

  return self->reservations;
}

/**
 * akc_deterministic_adapter_set_reservations:
 * @self: an adapter
 * @reservations: where to remember offered choices from now on
 *
 * Sets [property@DeterministicAdapter:reservations].
 *
 * Since: 0.1
 */
void
akc_deterministic_adapter_set_reservations (AkcDeterministicAdapter *self,
                                            AkcChoiceReservations   *reservations)
{
  g_return_if_fail (AKC_IS_DETERMINISTIC_ADAPTER (self));
  g_return_if_fail (AKC_IS_CHOICE_RESERVATIONS (reservations));

  if (g_set_object (&self->reservations, reservations))
    g_object_notify_by_pspec (G_OBJECT (self), props[PROP_RESERVATIONS]);
}

/**
 * akc_deterministic_adapter_get_backend_provider:
 * @self: an adapter
 *
 * Gets [property@DeterministicAdapter:backend-provider].
 *
 * Returns: (nullable): the provider
 *
 * Since: 0.1
 */
const char *
akc_deterministic_adapter_get_backend_provider (AkcDeterministicAdapter *self)
{
  g_return_val_if_fail (AKC_IS_DETERMINISTIC_ADAPTER (self), NULL);

  return self->provider;
}

/* Trimmed; NULL when blank. Longer than 128 units is refused. */
static gboolean
set_label (char       **field,
           const char  *value)
{
  g_autofree char *trimmed = NULL;

  if (value != NULL)
    {
      gsize len = 0;
      const char *start = akc_text_trim (value, strlen (value), &len);

      if (len > 0)
        trimmed = g_strndup (start, len);
    }
  if (g_strcmp0 (*field, trimmed) == 0)
    return FALSE;
  g_free (*field);
  *field = g_steal_pointer (&trimmed);
  return TRUE;
}

static gboolean
valid_label (const char *value)
{
  gsize len = 0;
  const char *start;

  if (value == NULL)
    return TRUE;
  start = akc_text_trim (value, strlen (value), &len);
  return akc_text_len16 (start, len) <= 128;
}

/**
 * akc_deterministic_adapter_set_backend_provider:
 * @self: an adapter
 * @provider: (nullable): the provider (trimmed, at most 128 UTF-16
 *   units), or %NULL
 *
 * Sets [property@DeterministicAdapter:backend-provider].
 *
 * Since: 0.1
 */
void
akc_deterministic_adapter_set_backend_provider (AkcDeterministicAdapter *self,
                                                const char              *provider)
{
  g_return_if_fail (AKC_IS_DETERMINISTIC_ADAPTER (self));
  g_return_if_fail (provider == NULL || g_utf8_validate (provider, -1, NULL));
  g_return_if_fail (valid_label (provider));

  if (set_label (&self->provider, provider))
    g_object_notify_by_pspec (G_OBJECT (self), props[PROP_BACKEND_PROVIDER]);
}

/**
 * akc_deterministic_adapter_get_backend_model:
 * @self: an adapter
 *
 * Gets [property@DeterministicAdapter:backend-model].
 *
 * Returns: (nullable): the model
 *
 * Since: 0.1
 */
const char *
akc_deterministic_adapter_get_backend_model (AkcDeterministicAdapter *self)
{
  g_return_val_if_fail (AKC_IS_DETERMINISTIC_ADAPTER (self), NULL);

  return self->model;
}

/**
 * akc_deterministic_adapter_set_backend_model:
 * @self: an adapter
 * @model: (nullable): the model (trimmed, at most 128 UTF-16 units), or
 *   %NULL
 *
 * Sets [property@DeterministicAdapter:backend-model].
 *
 * Since: 0.1
 */
void
akc_deterministic_adapter_set_backend_model (AkcDeterministicAdapter *self,
                                             const char              *model)
{
  g_return_if_fail (AKC_IS_DETERMINISTIC_ADAPTER (self));
  g_return_if_fail (model == NULL || g_utf8_validate (model, -1, NULL));
  g_return_if_fail (valid_label (model));

  if (set_label (&self->model, model))
    g_object_notify_by_pspec (G_OBJECT (self), props[PROP_BACKEND_MODEL]);
}

/**
 * akc_deterministic_adapter_set_clock:
 * @self: an adapter
 * @func: (nullable) (scope notified) (closure user_data) (destroy destroy):
 *   the clock, or %NULL for the system's real time
 * @user_data: data for @func
 * @destroy: (nullable): frees @user_data
 *
 * Sets the clock against which the artifact's expiry is checked.
 *
 * Since: 0.1
 */
void
akc_deterministic_adapter_set_clock (AkcDeterministicAdapter   *self,
                                     AkcDeterministicClockFunc  func,
                                     gpointer                   user_data,
                                     GDestroyNotify             destroy)
{
  g_return_if_fail (AKC_IS_DETERMINISTIC_ADAPTER (self));

  if (self->clock_destroy != NULL)
    self->clock_destroy (self->clock_data);
  self->clock = func;
  self->clock_data = user_data;
  self->clock_destroy = destroy;
}

/* The adapter's clock (akc_deterministic_adapter_set_clock()): the current
 * time in milliseconds since the Unix epoch. */
static gint64
akc_deterministic_adapter_now (AkcDeterministicAdapter *self)
{
  if (self->clock != NULL)
    return self->clock (self->clock_data);

  return g_get_real_time () / 1000;
}
