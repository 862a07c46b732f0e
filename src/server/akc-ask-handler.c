/* akc-ask-handler.c: the Ask service handler (application.md §11.2, §11.3)
 *
 * SPDX-License-Identifier: MIT
 *
 * One POST asks one grounded question (`agentskit.chat.ask` v1). The
 * checks run in the order of §11.2 as the request arrives: method, content
 * type, the host's authentication, the trusted site, the subject, the
 * corpus and persona hints and the rate limit as soon as the headers are
 * read (before any of the body), then the body's length, JSON and schema.
 * With a session id and a store, the stored history is authoritative: only
 * the last user message of the request is taken from the client. Sources
 * come from the site's retriever within retrievalTimeoutMs, are checked
 * against the strict source schema and capped at maxSources; the answer is
 * streamed from the generator (an AkcAdapter given the sources in its
 * system prompt and in the request metadata `sources`) as NDJSON text
 * events, bounded to 16 384 UTF-16 units, then the `cite` tool event, the
 * compare-and-set save of the session and `done`. Every step after the
 * site is known records its §11.3 metric.
 */

#include "config.h"

#include <math.h>
#include <string.h>

#include "akc-ask-backend-private.h"
#include "akc-ask-handler.h"
#include "akc-json-private.h"
#include "akc-server-util.h"

#define MAX_ANSWER_UNITS 16384
#define MAX_HISTORY 64

void
akc_ask_handler_options_init (AkcAskHandlerOptions *options)
{
  options->max_body_bytes = 65536;
  options->bootstrap_timeout_ms = 30000;
}

struct _AkcAskHandler
{
  GObject                     parent_instance;

  gint64                      max_body_bytes;
  gint64                      bootstrap_timeout_ms;

  AkcAskSiteFunc              site;
  AkcAskSubjectFunc           subject;
  gpointer                    host_data;
  AkcChatHandlerAuthFunc      auth;
  gpointer                    auth_data;
  AkcAskRetriever            *local;
  AkcAskRetriever            *federated;
  AkcAdapter                 *generator;
  AkcAskStore                *store;
  AkcAskRateLimitFunc         rate_limit;
  gpointer                    rate_limit_data;
  AkcAskMetricFunc            metric;
  gpointer                    metric_data;
  AkcChatHandlerNowFunc       now;
  AkcChatHandlerCreateIdFunc  create_id;
  gpointer                    clock_data;

  gboolean                    draining;
  GHashTable                 *requests;
};

G_DEFINE_FINAL_TYPE (AkcAskHandler, akc_ask_handler, G_TYPE_OBJECT)

typedef enum
{
  PHASE_BODY,
  PHASE_PREPARE,
  PHASE_STREAM,
  PHASE_DONE,
} Phase;

typedef struct
{
  AkcAskHandler     *handler;
  SoupServerMessage *message;
  AkcJsonValue      *context;
  AkcJsonValue      *site;
  char              *request_id;
  char              *subject;
  gint64             started;
  GByteArray        *body;
  gboolean           too_large;

  Phase              phase;
  gboolean           gone;
  gboolean           request_timed_out;
  GCancellable      *cancellable;
  guint              request_timer;

  char              *key;            /* store key, or NULL */
  gint64             stored_revision;
  AkcJsonValue      *history;        /* array of {role, content} */
  char              *question;

  GCancellable      *retrieval_cancellable;
  gint64             retrieval_started;
  guint              retrieval_timer;
  guint              give_up_id;
  gboolean           retrieval_timed_out;
  gboolean           retrieval_over;
  AkcJsonValue      *sources;        /* valid, capped */

  AkcStream         *stream;
  gulong             chunk_id;
  guint              generation_timer;
  GString           *answer;
  gsize              answer_units;
  AkcJsonValue      *usage;
  AkcServerHangup   *hangup;   /* the client's socket, while streaming */
  gboolean           first_event;
  gboolean           first_token;
  guint64            bytes;
  guint              events;
} Request;

static Request *
request_ref (Request *request)
{
  return g_rc_box_acquire (request);
}

static void
request_clear (Request *request)
{
  g_assert (request->request_timer == 0 && request->retrieval_timer == 0 &&
            request->generation_timer == 0 && request->give_up_id == 0);
  g_clear_object (&request->handler);
  g_clear_object (&request->message);
  g_clear_pointer (&request->context, akc_json_value_unref);
  g_clear_pointer (&request->site, akc_json_value_unref);
  g_clear_pointer (&request->request_id, g_free);
  g_clear_pointer (&request->subject, g_free);
  g_clear_pointer (&request->body, g_byte_array_unref);
  g_clear_object (&request->cancellable);
  g_clear_pointer (&request->key, g_free);
  g_clear_pointer (&request->history, akc_json_value_unref);
  g_clear_pointer (&request->question, g_free);
  g_clear_object (&request->retrieval_cancellable);
  g_clear_pointer (&request->sources, akc_json_value_unref);
  if (request->stream != NULL)
    g_clear_signal_handler (&request->chunk_id, request->stream);
  g_clear_object (&request->stream);
  if (request->answer != NULL)
    g_string_free (request->answer, TRUE);
  g_clear_pointer (&request->usage, akc_json_value_unref);
  g_clear_pointer (&request->hangup, akc_server_hangup_free);
}

static void
request_unref (Request *request)
{
  g_rc_box_release_full (request, (GDestroyNotify) request_clear);
}

G_DEFINE_AUTOPTR_CLEANUP_FUNC (Request, request_unref)

static gint64
handler_now (AkcAskHandler *self)
{
  if (self->now != NULL)
    return self->now (self->clock_data);
  return g_get_real_time () / 1000;
}


static gboolean
matches_grammar (const char *text,
                 const char *extra,
                 gsize       max)
{
  gsize n = text != NULL ? strlen (text) : 0;

  if (n == 0 || n > max || !g_ascii_isalnum (text[0]))
    return FALSE;
  for (gsize i = 1; i < n; i++)
    if (!g_ascii_isalnum (text[i]) && strchr (extra, text[i]) == NULL)
      return FALSE;
  return TRUE;
}

static gboolean
is_identifier (const char *text)
{
  return matches_grammar (text, "._:-", 128);
}

static const char *
member_string (AkcJsonValue *object,
               const char   *name)
{
  AkcJsonValue *v = object != NULL ? akc_json_value_get_member (object, name) : NULL;

  return v != NULL && akc_json_value_get_kind (v) == AKC_JSON_KIND_STRING ? akc_json_value_get_string (v, NULL) : NULL;
}

static AkcJsonValue *
path_member (AkcJsonValue *object,
             const char   *first,
             const char   *second)
{
  AkcJsonValue *v = object != NULL ? akc_json_value_get_member (object, first) : NULL;

  return v != NULL && second != NULL ? akc_json_value_get_member (v, second) : v;
}

static gint64
site_limit (Request    *request,
            const char *name)
{
  return (gint64) akc_json_value_get_number (path_member (request->site, "limits", name));
}

static gsize
utf16_units (const char *text,
             gsize       length)
{
  gsize units = 0;

  for (const char *p = text; p < text + length; p = g_utf8_next_char (p))
    units += g_utf8_get_char (p) > 0xFFFF ? 2 : 1;
  return units;
}

/* Metrics (§11.3) ------------------------------------------------------ */

static void
request_metric (Request    *request,
                const char *name,
                const char *unit,
                const char *outcome,
                double      value)
{
  AkcAskHandler *self = request->handler;
  g_autoptr(GString) text = g_string_new (NULL);
  g_autoptr(AkcJsonValue) raw = NULL;
  g_autoptr(AkcJsonValue) metric = NULL;
  g_autofree char *emitted_at = NULL;
  AkcJsonWriter w;

  if (self->metric == NULL || request->site == NULL)
    return;
  if (!isfinite (value) || value < 0)
    value = 0;

  emitted_at = akc_server_format_time (handler_now (self));
  akc_json_writer_init (&w, text);
  akc_json_writer_begin_object (&w);
  akc_json_writer_member (&w, "protocol");
  akc_json_writer_string (&w, "agentskit.chat.backend-metric", -1);
  akc_json_writer_member (&w, "version");
  akc_json_writer_int (&w, 1);
  akc_json_writer_member (&w, "name");
  akc_json_writer_string (&w, name, -1);
  akc_json_writer_member (&w, "siteId");
  akc_json_writer_string (&w, member_string (request->site, "siteId"), -1);
  akc_json_writer_member (&w, "corpusId");
  akc_json_writer_string (&w, member_string (akc_json_value_get_member (request->site, "corpus"), "id"), -1);
  akc_json_writer_member (&w, "requestId");
  akc_json_writer_string (&w, request->request_id, -1);
  akc_json_writer_member (&w, "value");
  akc_json_writer_number (&w, value);
  akc_json_writer_member (&w, "unit");
  akc_json_writer_string (&w, unit, -1);
  akc_json_writer_member (&w, "outcome");
  akc_json_writer_string (&w, outcome, -1);
  akc_json_writer_member (&w, "emittedAt");
  akc_json_writer_string (&w, emitted_at, -1);
  akc_json_writer_end_object (&w);

  raw = akc_json_value_parse (text->str, text->len, NULL);
  metric = raw != NULL ? akc_ask_backend_metric_validate (raw) : NULL;
  if (metric == NULL)
    {
      g_warning ("An Ask metric is invalid: %s", name);
      return;
    }
  self->metric (metric, self->metric_data);
}

static double
elapsed (Request *request)
{
  return (double) (handler_now (request->handler) - request->started);
}

static void
metric_ms (Request    *request,
           const char *name,
           const char *outcome,
           gint64      since)
{
  request_metric (request, name, "ms", outcome, (double) (handler_now (request->handler) - since));
}

/* Responses -------------------------------------------------------------- */

static void
finish (Request *request)
{
  AkcAskHandler *self = request->handler;

  if (request->phase == PHASE_STREAM && !request->gone)
    {
      soup_message_body_complete (soup_server_message_get_response_body (request->message));
      soup_server_message_unpause (request->message);
    }
  request->phase = PHASE_DONE;
  g_clear_pointer (&request->hangup, akc_server_hangup_free);
  g_clear_handle_id (&request->request_timer, g_source_remove);
  g_clear_handle_id (&request->retrieval_timer, g_source_remove);
  g_clear_handle_id (&request->generation_timer, g_source_remove);
  g_clear_handle_id (&request->give_up_id, g_source_remove);
  g_hash_table_remove (self->requests, request);
}

static void
set_error_response (SoupServerMessage *message,
                    const char        *request_id,
                    guint              status,
                    const char        *code,
                    const char        *text,
                    gboolean           retryable,
                    gint64             retry_after)
{
  g_autoptr(GString) body = g_string_new (NULL);
  SoupMessageHeaders *headers = soup_server_message_get_response_headers (message);
  AkcJsonWriter w;

  akc_json_writer_init (&w, body);
  akc_json_writer_begin_object (&w);
  akc_json_writer_member (&w, "error");
  akc_json_writer_begin_object (&w);
  akc_json_writer_member (&w, "code");
  akc_json_writer_string (&w, code, -1);
  akc_json_writer_member (&w, "message");
  akc_json_writer_string (&w, text, -1);
  akc_json_writer_member (&w, "retryable");
  akc_json_writer_boolean (&w, retryable);
  akc_json_writer_end_object (&w);
  akc_json_writer_end_object (&w);

  soup_server_message_set_status (message, status,
                                  status == 499 ? "Client Closed Request" : status == 429 ? "Too Many Requests" : NULL);
  soup_message_headers_replace (headers, "Cache-Control", "no-store");
  soup_message_headers_replace (headers, "X-Request-Id", request_id);
  if (retry_after >= 0)
    {
      g_autofree char *seconds = g_strdup_printf ("%" G_GINT64_FORMAT, retry_after);

      soup_message_headers_replace (headers, "Retry-After", seconds);
    }
  soup_server_message_set_response (message, "application/json; charset=utf-8", SOUP_MEMORY_COPY,
                                    body->str, body->len);
}

/* An error before the stream: its body, then error.count and
 * request.total_ms (rejected below 500). */
static void
fail_early (Request    *request,
            guint       status,
            const char *code,
            const char *text,
            gboolean    retryable,
            gint64      retry_after)
{
  const char *outcome = status < 500 ? "rejected" : "error";

  if (request->phase == PHASE_DONE)
    return;
  if (!request->gone)
    {
      set_error_response (request->message, request->request_id, status, code, text, retryable, retry_after);
      if (request->phase == PHASE_PREPARE)
        soup_server_message_unpause (request->message);
    }
  request_metric (request, "error.count", "count", outcome, 1);
  request_metric (request, "request.total_ms", "ms", outcome, elapsed (request));
  finish (request);
}

/* A deadline before the stream, or a client that went away. */
static void
cancel_early (Request *request)
{
  if (request->phase == PHASE_DONE)
    return;
  if (!request->gone)
    {
      set_error_response (request->message, request->request_id, 408, "ASK_TIMEOUT", "The Ask request timed out.",
                          TRUE, -1);
      if (request->phase == PHASE_PREPARE)
        soup_server_message_unpause (request->message);
    }
  else if (request->phase == PHASE_PREPARE)
    {
      set_error_response (request->message, request->request_id, 499, "ASK_CANCELLED",
                          "The Ask request was cancelled.", TRUE, -1);
    }
  request_metric (request, "cancellation.count", "count", "cancelled", 1);
  request_metric (request, "request.total_ms", "ms", "cancelled", elapsed (request));
  finish (request);
}

static void
write_event (Request *request,
             GString *line)
{
  if (!request->first_event)
    {
      request->first_event = TRUE;
      request_metric (request, "stream.first_event_ms", "ms", "ok", elapsed (request));
    }
  g_string_append_c (line, '\n');
  request->bytes += line->len;
  request->events++;
  if (request->gone)
    return;
  soup_message_body_append (soup_server_message_get_response_body (request->message), SOUP_MEMORY_COPY,
                            line->str, line->len);
  soup_server_message_unpause (request->message);
}

static void
stop_generation (Request *request)
{
  g_clear_handle_id (&request->generation_timer, g_source_remove);
  if (request->stream != NULL)
    {
      g_clear_signal_handler (&request->chunk_id, request->stream);
      akc_stream_cancel (request->stream);
    }
}

/* An error event; the stream ends. */
static void
fail_stream (Request    *request,
             const char *code,
             const char *text)
{
  g_autoptr(GString) line = g_string_new (NULL);
  AkcJsonWriter w;

  if (request->phase != PHASE_STREAM)
    return;
  stop_generation (request);

  akc_json_writer_init (&w, line);
  akc_json_writer_begin_object (&w);
  akc_json_writer_member (&w, "type");
  akc_json_writer_string (&w, "error", -1);
  akc_json_writer_member (&w, "message");
  akc_json_writer_string (&w, text, -1);
  akc_json_writer_member (&w, "code");
  akc_json_writer_string (&w, code, -1);
  akc_json_writer_member (&w, "retryable");
  akc_json_writer_boolean (&w, TRUE);
  akc_json_writer_end_object (&w);
  write_event (request, line);

  request_metric (request, "error.count", "count", "error", 1);
  request_metric (request, "request.total_ms", "ms", "error", elapsed (request));
  finish (request);
}

/* The stream ---------------------------------------------------------- */

static void
write_done (Request *request)
{
  g_autoptr(GString) line = g_string_new (NULL);
  const char *model = member_string (request->usage, "model");
  static const struct { const char *member, *name, *unit; } usage_metrics[] = {
    { "inputTokens", "usage.input_tokens", "tokens" },
    { "outputTokens", "usage.output_tokens", "tokens" },
    { "totalTokens", "usage.total_tokens", "tokens" },
    { "costUsd", "cost.usd", "usd" },
  };
  AkcJsonWriter w;

  for (guint i = 0; request->usage != NULL && i < G_N_ELEMENTS (usage_metrics); i++)
    {
      AkcJsonValue *v = akc_json_value_get_member (request->usage, usage_metrics[i].member);

      if (v != NULL)
        request_metric (request, usage_metrics[i].name, usage_metrics[i].unit, "ok", akc_json_value_get_number (v));
    }

  akc_json_writer_init (&w, line);
  akc_json_writer_begin_object (&w);
  akc_json_writer_member (&w, "type");
  akc_json_writer_string (&w, "done", -1);
  if (model != NULL)
    {
      akc_json_writer_member (&w, "model");
      akc_json_writer_string (&w, model, -1);
    }
  akc_json_writer_end_object (&w);
  write_event (request, line);

  request_metric (request, "stream.bytes", "bytes", "ok", (double) request->bytes);
  request_metric (request, "stream.events", "count", "ok", request->events);
  request_metric (request, "stream.snapshots", "count", "ok", 0);
  request_metric (request, "request.total_ms", "ms", "ok", elapsed (request));
  finish (request);
}

typedef struct
{
  Request *request;
  gint64   started;
} Save;

static void
on_saved (GObject      *source,
          GAsyncResult *result,
          gpointer      user_data)
{
  Save *save = user_data;
  g_autoptr(Request) request = save->request;
  g_autoptr(GError) error = NULL;
  gboolean saved = FALSE;
  gboolean ok = akc_ask_store_save_finish (AKC_ASK_STORE (source), result, &saved, &error);
  gint64 started = save->started;

  g_free (save);
  if (request->phase != PHASE_STREAM)
    return;
  if (!ok || !saved)
    {
      metric_ms (request, "persistence.total_ms", "error", started);
      if (ok)
        {
          request_metric (request, "conflict.count", "count", "error", 1);
          fail_stream (request, "ASK_PERSISTENCE_CONFLICT", "The Ask session changed concurrently.");
        }
      else
        fail_stream (request, "ASK_INTERNAL", "The Ask request failed.");
      return;
    }
  metric_ms (request, "persistence.total_ms", "ok", started);
  write_done (request);
}

static AkcJsonValue *
message_value (const char *role,
               const char *content,
               gsize       length)
{
  g_autoptr(GString) text = g_string_new (NULL);
  AkcJsonWriter w;

  akc_json_writer_init (&w, text);
  akc_json_writer_begin_object (&w);
  akc_json_writer_member (&w, "role");
  akc_json_writer_string (&w, role, -1);
  akc_json_writer_member (&w, "content");
  akc_json_writer_string (&w, content, length);
  akc_json_writer_end_object (&w);
  return akc_json_value_parse (text->str, text->len, NULL);
}

/* The last 64 of @history plus @extra. */
static AkcJsonValue *
append_bounded (AkcJsonValue *history,
                AkcJsonValue *extra)
{
  g_autoptr(GPtrArray) items = g_ptr_array_new ();
  gsize n = akc_json_value_get_length (history);

  for (gsize i = 0; i < n; i++)
    g_ptr_array_add (items, akc_json_value_get_element (history, i));
  if (extra != NULL)
    g_ptr_array_add (items, extra);
  if (items->len > MAX_HISTORY)
    g_ptr_array_remove_range (items, 0, items->len - MAX_HISTORY);
  return akc_json_value_new_array ((AkcJsonValue * const *) items->pdata, items->len);
}

static void
generation_done (Request *request)
{
  g_autoptr(GString) line = g_string_new (NULL);
  g_autofree char *tool_id = NULL;
  AkcJsonWriter w;

  stop_generation (request);

  {
    g_autofree char *trimmed = g_strstrip (g_strndup (request->answer->str, request->answer->len));

    if (trimmed[0] == '\0')
      {
        fail_stream (request, "ASK_GENERATION_FAILED", "The grounded answer was empty.");
        return;
      }
  }

  tool_id = g_strconcat ("sources-", request->request_id, NULL);
  akc_json_writer_init (&w, line);
  akc_json_writer_begin_object (&w);
  akc_json_writer_member (&w, "type");
  akc_json_writer_string (&w, "tool", -1);
  akc_json_writer_member (&w, "id");
  akc_json_writer_string (&w, tool_id, -1);
  akc_json_writer_member (&w, "name");
  akc_json_writer_string (&w, "cite", -1);
  akc_json_writer_member (&w, "args");
  akc_json_writer_begin_object (&w);
  akc_json_writer_member (&w, "sources");
  akc_json_writer_begin_array (&w);
  for (gsize i = 0; i < akc_json_value_get_length (request->sources); i++)
    {
      AkcJsonValue *source = akc_json_value_get_element (request->sources, i);

      akc_json_writer_begin_object (&w);
      akc_json_writer_member (&w, "id");
      akc_json_writer_string (&w, member_string (source, "id"), -1);
      akc_json_writer_member (&w, "title");
      akc_json_writer_string (&w, member_string (source, "title"), -1);
      akc_json_writer_member (&w, "path");
      akc_json_writer_string (&w, member_string (source, "href"), -1);
      akc_json_writer_end_object (&w);
    }
  akc_json_writer_end_array (&w);
  akc_json_writer_end_object (&w);
  akc_json_writer_end_object (&w);
  write_event (request, line);

  if (request->key != NULL && request->handler->store != NULL)
    {
      g_autoptr(AkcJsonValue) answer = message_value ("assistant", request->answer->str, request->answer->len);
      g_autoptr(AkcJsonValue) messages = append_bounded (request->history, answer);
      g_autoptr(AkcJsonValue) revision = akc_json_value_new_number ((double) (request->stored_revision >= 0
                                                                              ? request->stored_revision + 1 : 1));
      const char *names[] = { "revision", "messages" };
      AkcJsonValue *values[] = { revision, messages };
      g_autoptr(AkcJsonValue) record = akc_json_value_new_object (names, values, 2);
      Save *save = g_new0 (Save, 1);

      save->request = request_ref (request);
      save->started = handler_now (request->handler);
      akc_ask_store_save_async (request->handler->store, request->key, record,
                                request->stored_revision >= 0 ? request->stored_revision : 0,
                                NULL, on_saved, save);
      return;
    }
  write_done (request);
}

static void
take_usage (Request  *request,
            AkcChunk *chunk)
{
  gsize length = 0;
  const char *text = akc_chunk_get_text (chunk, &length);
  g_autoptr(AkcJsonValue) metadata = text != NULL ? akc_json_value_parse (text, length, NULL) : NULL;
  AkcJsonValue *usage = metadata != NULL ? akc_json_value_get_member (metadata, "usage") : NULL;
  g_autoptr(GPtrArray) names = g_ptr_array_new ();
  g_autoptr(GPtrArray) values = g_ptr_array_new ();
  g_autoptr(AkcJsonValue) mapped = NULL;
  AkcJsonValue *validated;

  if (usage == NULL || akc_json_value_get_kind (usage) != AKC_JSON_KIND_OBJECT)
    return;
  /* a provider's usage (promptTokens…) in the Ask form (inputTokens…) */
  for (gsize i = 0; i < akc_json_value_get_member_count (usage); i++)
    {
      const char *name = akc_json_value_get_member_name (usage, i, NULL);

      if (strcmp (name, "promptTokens") == 0)
        name = "inputTokens";
      else if (strcmp (name, "completionTokens") == 0)
        name = "outputTokens";
      g_ptr_array_add (names, (gpointer) name);
      g_ptr_array_add (values, akc_json_value_get_member_value (usage, i));
    }
  mapped = akc_json_value_new_object ((const char * const *) names->pdata, (AkcJsonValue * const *) values->pdata,
                                      names->len);
  validated = mapped != NULL ? akc_ask_backend_usage_validate (mapped) : NULL;
  if (validated != NULL)
    {
      g_clear_pointer (&request->usage, akc_json_value_unref);
      request->usage = validated;
    }
}

static void
on_chunk (AkcStream *stream,
          AkcChunk  *chunk,
          gpointer   user_data)
{
  Request *request = user_data;
  g_autoptr(Request) hold = request_ref (request);

  (void) hold;  /* kept alive until the end of the chunk */

  switch (akc_chunk_get_kind (chunk))
    {
    case AKC_CHUNK_TEXT:
      {
        gsize length = 0;
        const char *text = akc_chunk_get_text (chunk, &length);
        g_autoptr(GString) line = NULL;
        gsize units;
        AkcJsonWriter w;

        if (length == 0)
          return;
        units = utf16_units (text, length);
        if (request->answer_units + units > MAX_ANSWER_UNITS)
          {
            fail_stream (request, "ASK_GENERATION_FAILED", "The grounded answer exceeded its safe limit.");
            return;
          }
        request->answer_units += units;
        g_string_append_len (request->answer, text, length);

        line = g_string_new (NULL);
        akc_json_writer_init (&w, line);
        akc_json_writer_begin_object (&w);
        akc_json_writer_member (&w, "type");
        akc_json_writer_string (&w, "text", -1);
        akc_json_writer_member (&w, "delta");
        akc_json_writer_string (&w, text, length);
        akc_json_writer_end_object (&w);
        write_event (request, line);
        if (!request->first_token)
          {
            request->first_token = TRUE;
            request_metric (request, "stream.first_token_ms", "ms", "ok", elapsed (request));
          }
      }
      break;
    case AKC_CHUNK_METADATA:
      take_usage (request, chunk);
      break;
    case AKC_CHUNK_DONE:
      generation_done (request);
      break;
    case AKC_CHUNK_ERROR:
      g_debug ("The Ask generator failed: %s", akc_chunk_get_error_code (chunk));
      fail_stream (request, "ASK_INTERNAL", "The Ask request failed.");
      break;
    case AKC_CHUNK_TOOL_CALL:
    default:
      break;
    }
}

static gboolean
on_generation_timeout (gpointer user_data)
{
  Request *request = user_data;

  request->generation_timer = 0;
  fail_stream (request, "ASK_TIMEOUT", "The Ask request timed out.");
  return G_SOURCE_REMOVE;
}

static void request_gone (Request *request);

static void
on_hangup (gpointer user_data)
{
  Request *request = user_data;

  g_clear_pointer (&request->hangup, akc_server_hangup_free);
  request_gone (request);
}

static char *
grounded_prompt (Request *request)
{
  g_autoptr(GString) prompt = g_string_new (NULL);

  g_string_append_printf (prompt, "You are %s. Answer the question using only the numbered sources below, and cite "
                          "them as [n]. If they do not answer it, say so.\n",
                          member_string (akc_json_value_get_member (request->site, "assistant"), "name"));
  for (gsize i = 0; i < akc_json_value_get_length (request->sources); i++)
    {
      AkcJsonValue *source = akc_json_value_get_element (request->sources, i);

      g_string_append_printf (prompt, "\n[%u] %s (%s)\n%s\n", (guint) i + 1, member_string (source, "title"),
                              member_string (source, "href"), member_string (source, "excerpt"));
    }
  return g_string_free (g_steal_pointer (&prompt), FALSE);
}

static void
start_stream (Request *request)
{
  SoupMessageHeaders *headers = soup_server_message_get_response_headers (request->message);
  g_autoptr(GListStore) messages = g_list_store_new (AKC_TYPE_MESSAGE);
  g_autoptr(AkcAdapterRequest) plain = NULL;
  g_autoptr(AkcAdapterRequest) adapter_request = NULL;
  g_autofree char *prompt = grounded_prompt (request);

  request->phase = PHASE_STREAM;
  soup_server_message_set_status (request->message, 200, NULL);
  soup_message_headers_replace (headers, "Content-Type", "application/x-ndjson; charset=utf-8");
  soup_message_headers_replace (headers, "Cache-Control", "no-store");
  soup_message_headers_replace (headers, "X-Content-Type-Options", "nosniff");
  soup_message_headers_replace (headers, "X-Request-Id", request->request_id);
  soup_message_headers_set_encoding (headers, SOUP_ENCODING_CHUNKED);
  soup_message_body_set_accumulate (soup_server_message_get_response_body (request->message), FALSE);
  soup_server_message_unpause (request->message);
  /* nothing is written while the generator thinks: a client that goes
   * away is noticed on its socket */
  request->hangup = akc_server_hangup_watch (request->message, on_hangup, request);

  for (gsize i = 0; i < akc_json_value_get_length (request->history); i++)
    {
      AkcJsonValue *item = akc_json_value_get_element (request->history, i);
      gsize length = 0;
      const char *content = akc_json_value_get_string (akc_json_value_get_member (item, "content"), &length);
      g_autofree char *copy = g_strndup (content, length);
      g_autofree char *id = g_strdup_printf ("history-%u", (guint) i);
      g_autoptr(AkcMessage) message = akc_message_new (id, g_strcmp0 (member_string (item, "role"), "user") == 0
                                                           ? AKC_MESSAGE_ROLE_USER : AKC_MESSAGE_ROLE_ASSISTANT,
                                                       copy, AKC_MESSAGE_STATUS_COMPLETE);

      g_list_store_append (messages, message);
    }
  plain = akc_adapter_request_new (G_LIST_MODEL (messages), NULL, prompt, NULL);
  adapter_request = akc_adapter_request_with_metadata_member (plain, "sources", request->sources);

  request->answer = g_string_new (NULL);
  request->stream = akc_stream_new ();
  request->chunk_id = g_signal_connect (request->stream, "chunk", G_CALLBACK (on_chunk), request);
  request->generation_timer = g_timeout_add (site_limit (request, "generationTimeoutMs"), on_generation_timeout,
                                             request);
  akc_adapter_stream (request->handler->generator, adapter_request, request->stream);
}

/* Retrieval ------------------------------------------------------------ */

static void
retrieval_give_up (Request *request)
{
  if (request->retrieval_over)
    return;
  request->retrieval_over = TRUE;
  if (request->request_timed_out || request->gone)
    cancel_early (request);
  else
    fail_early (request, 408, "ASK_TIMEOUT", "Grounded retrieval timed out.", TRUE, -1);
}

static gboolean
on_give_up (gpointer user_data)
{
  Request *request = user_data;

  request->give_up_id = 0;
  retrieval_give_up (request);
  return G_SOURCE_REMOVE;
}

/* A deadline during retrieval: the retriever is asked to stop; what it
 * returns at once still counts, otherwise the request gives up. */
static void
interrupt_retrieval (Request *request)
{
  if (request->retrieval_over || request->retrieval_cancellable == NULL)
    return;
  g_clear_handle_id (&request->retrieval_timer, g_source_remove);
  g_cancellable_cancel (request->retrieval_cancellable);
  if (request->give_up_id == 0 && !request->retrieval_over)
    request->give_up_id = g_idle_add_full (G_PRIORITY_LOW, on_give_up, request, NULL);
}

static gboolean
on_retrieval_timeout (gpointer user_data)
{
  Request *request = user_data;

  request->retrieval_timer = 0;
  request->retrieval_timed_out = TRUE;
  interrupt_retrieval (request);
  return G_SOURCE_REMOVE;
}

static void
on_retrieved (GObject      *source,
              GAsyncResult *result,
              gpointer      user_data)
{
  g_autoptr(Request) request = user_data;
  g_autoptr(GError) error = NULL;
  g_autoptr(AkcJsonValue) found = akc_ask_retriever_retrieve_finish (AKC_ASK_RETRIEVER (source), result, &error);
  g_autoptr(GPtrArray) valid = g_ptr_array_new_with_free_func ((GDestroyNotify) akc_json_value_unref);
  gint64 max_sources;

  if (request->retrieval_over)
    return;
  request->retrieval_over = TRUE;
  g_clear_handle_id (&request->retrieval_timer, g_source_remove);
  g_clear_handle_id (&request->give_up_id, g_source_remove);

  if (found == NULL)
    {
      if (request->request_timed_out || request->gone)
        cancel_early (request);
      else if (request->retrieval_timed_out)
        fail_early (request, 408, "ASK_TIMEOUT", "Grounded retrieval timed out.", TRUE, -1);
      else
        {
          g_debug ("An Ask retriever failed: %s", error != NULL ? error->message : "(no reason)");
          fail_early (request, 502, "ASK_RETRIEVAL_FAILED", "Grounded retrieval is temporarily unavailable.", TRUE, -1);
        }
      return;
    }

  max_sources = site_limit (request, "maxSources");
  for (gsize i = 0; akc_json_value_get_kind (found) == AKC_JSON_KIND_ARRAY && i < akc_json_value_get_length (found) &&
                    (gint64) valid->len < max_sources; i++)
    {
      AkcJsonValue *source_value = akc_ask_backend_source_validate (akc_json_value_get_element (found, i));

      if (source_value != NULL)
        g_ptr_array_add (valid, source_value);
    }
  request->sources = akc_json_value_new_array ((AkcJsonValue * const *) valid->pdata, valid->len);
  metric_ms (request, "retrieval.total_ms", "ok", request->retrieval_started);
  request_metric (request, "retrieval.documents", "count", "ok", valid->len);

  if (request->request_timed_out || request->gone)
    {
      cancel_early (request);
      return;
    }
  if (valid->len == 0)
    {
      fail_early (request, 422, "ASK_NO_GROUNDED_SOURCES", "No grounded sources were found for this question.",
                  FALSE, -1);
      return;
    }
  start_stream (request);
}

static void
retrieve (Request *request)
{
  AkcAskHandler *self = request->handler;
  const char *mode = member_string (akc_json_value_get_member (request->site, "corpus"), "mode");
  AkcAskRetriever *retriever = g_strcmp0 (mode, "federated") == 0 ? self->federated : self->local;
  g_autofree char *trimmed = NULL;

  if (request->question == NULL || (trimmed = g_strstrip (g_strdup (request->question)))[0] == '\0')
    {
      fail_early (request, 400, "ASK_INVALID_REQUEST", "A user question is required.", FALSE, -1);
      return;
    }
  g_free (request->question);
  request->question = g_steal_pointer (&trimmed);

  if (retriever == NULL || self->generator == NULL)
    {
      fail_early (request, 500, "ASK_INTERNAL", "The configured Ask retriever is unavailable.", FALSE, -1);
      return;
    }

  request->retrieval_cancellable = g_cancellable_new ();
  request->retrieval_started = handler_now (self);
  request->retrieval_timer = g_timeout_add (site_limit (request, "retrievalTimeoutMs"), on_retrieval_timeout, request);
  akc_ask_retriever_retrieve_async (retriever, request->question, (guint) site_limit (request, "maxSources"),
                                    request->retrieval_cancellable, on_retrieved, request_ref (request));
}

/* The stored history ---------------------------------------------------- */

static void
merge (Request      *request,
       AkcJsonValue *submitted,
       AkcJsonValue *stored)
{
  AkcJsonValue *question = NULL;

  for (gsize i = akc_json_value_get_length (submitted); i > 0; i--)
    {
      AkcJsonValue *item = akc_json_value_get_element (submitted, i - 1);

      if (g_strcmp0 (member_string (item, "role"), "user") == 0)
        {
          question = item;
          break;
        }
    }
  request->question = question != NULL ? g_strdup (member_string (question, "content")) : NULL;

  if (stored == NULL)
    {
      request->history = akc_json_value_ref (submitted);
      return;
    }

  {
    AkcJsonValue *messages = akc_json_value_get_member (stored, "messages");
    gsize n = akc_json_value_get_length (messages);
    AkcJsonValue *last = n > 0 ? akc_json_value_get_element (messages, n - 1) : NULL;

    if (question == NULL ||
        (last != NULL && g_strcmp0 (member_string (last, "role"), "user") == 0 &&
         akc_json_value_equal (akc_json_value_get_member (last, "content"),
                               akc_json_value_get_member (question, "content"))))
      request->history = akc_json_value_ref (messages);
    else
      request->history = append_bounded (messages, question);
  }
}

typedef struct
{
  Request      *request;
  AkcJsonValue *submitted;
  gint64        started;
} Load;

static void
on_loaded (GObject      *source,
           GAsyncResult *result,
           gpointer      user_data)
{
  Load *load = user_data;
  g_autoptr(Request) request = load->request;
  g_autoptr(AkcJsonValue) submitted = load->submitted;
  g_autoptr(GError) error = NULL;
  g_autoptr(AkcJsonValue) record = akc_ask_store_load_finish (AKC_ASK_STORE (source), result, &error);
  g_autoptr(AkcJsonValue) valid = NULL;
  gint64 started = load->started;

  g_free (load);
  if (request->phase == PHASE_DONE)
    return;
  if (request->request_timed_out || request->gone)
    {
      cancel_early (request);
      return;
    }
  if (record != NULL && akc_json_value_get_kind (record) != AKC_JSON_KIND_NULL)
    valid = akc_ask_backend_session_record_validate (record);
  if (record == NULL || (akc_json_value_get_kind (record) != AKC_JSON_KIND_NULL && valid == NULL))
    {
      g_debug ("An Ask session cannot be loaded: %s", error != NULL ? error->message : "invalid record");
      fail_early (request, 500, "ASK_INTERNAL", "The Ask request failed.", TRUE, -1);
      return;
    }
  metric_ms (request, "persistence.total_ms", "ok", started);
  request->stored_revision = valid != NULL
                             ? (gint64) akc_json_value_get_number (akc_json_value_get_member (valid, "revision")) : -1;
  merge (request, submitted, valid);
  retrieve (request);
}

static void
handle_body (Request *request)
{
  AkcAskHandler *self = request->handler;
  g_autoptr(AkcJsonValue) value = NULL;
  g_autoptr(AkcJsonValue) payload = NULL;
  const char *session_id;
  gboolean required;

  request->phase = PHASE_PREPARE;
  if (request->request_timed_out)
    {
      cancel_early (request);
      return;
    }
  if ((value = akc_server_parse_body (request->body)) == NULL)
    {
      fail_early (request, 400, "ASK_INVALID_REQUEST", "Request body is not valid JSON.", FALSE, -1);
      return;
    }
  payload = akc_ask_backend_request_decode_value (value, NULL);
  if (payload == NULL)
    {
      fail_early (request, 400, "ASK_INVALID_REQUEST", "The Ask request payload is invalid.", FALSE, -1);
      return;
    }
  request_metric (request, "deterministic.fallback", "count", "ok",
                  akc_json_value_get_member (payload, "deterministic") != NULL ? 1 : 0);

  session_id = member_string (payload, "sessionId");
  required = g_strcmp0 (member_string (akc_json_value_get_member (request->site, "persistence"), "mode"),
                        "required") == 0;
  if (required && (session_id == NULL || self->store == NULL))
    {
      fail_early (request, 500, "ASK_INTERNAL", "Required Ask persistence is not configured.", FALSE, -1);
      return;
    }

  if (session_id != NULL && self->store != NULL)
    {
      Load *load = g_new0 (Load, 1);

      request->key = g_strdup_printf ("%s:%s:%s", member_string (request->site, "siteId"), request->subject,
                                      session_id);
      load->request = request_ref (request);
      load->submitted = akc_json_value_ref (akc_json_value_get_member (payload, "messages"));
      load->started = handler_now (self);
      akc_ask_store_load_async (self->store, request->key, request->cancellable, on_loaded, load);
      return;
    }

  merge (request, akc_json_value_get_member (payload, "messages"), NULL);
  retrieve (request);
}

/* Deadlines and clients that go away ----------------------------------- */

static gboolean
on_request_timeout (gpointer user_data)
{
  Request *request = user_data;

  request->request_timer = 0;
  request->request_timed_out = TRUE;
  switch (request->phase)
    {
    case PHASE_BODY:
      /* a client that does not finish its request in time (slowloris):
       * the connection is closed, as the turn handler does (no metric,
       * as for a client that goes away before its body is read) */
      finish (request);
      if (!request->gone)
        {
          g_autoptr(GIOStream) stream = NULL;

          request->gone = TRUE;
          stream = soup_server_message_steal_connection (request->message);
          if (stream != NULL)
            g_io_stream_close (stream, NULL, NULL);
        }
      break;
    case PHASE_PREPARE:
      if (request->retrieval_cancellable != NULL && !request->retrieval_over)
        interrupt_retrieval (request);
      else
        cancel_early (request);
      break;
    case PHASE_STREAM:
      fail_stream (request, "ASK_TIMEOUT", "The Ask request timed out.");
      break;
    case PHASE_DONE:
    default:
      break;
    }
  return G_SOURCE_REMOVE;
}

static void
request_gone (Request *request)
{
  if (request->phase == PHASE_DONE)
    return;
  request->gone = TRUE;
  g_cancellable_cancel (request->cancellable);
  switch (request->phase)
    {
    case PHASE_BODY:
      finish (request);
      break;
    case PHASE_PREPARE:
      if (request->retrieval_cancellable != NULL && !request->retrieval_over)
        interrupt_retrieval (request);
      break;
    case PHASE_STREAM:
      /* no event: the client is gone */
      stop_generation (request);
      request_metric (request, "cancellation.count", "count", "cancelled", 1);
      request_metric (request, "request.total_ms", "ms", "cancelled", elapsed (request));
      finish (request);
      break;
    case PHASE_DONE:
    default:
      break;
    }
}

static void
on_disconnected (SoupServerMessage *message,
                 gpointer           user_data)
{
  request_gone (user_data);
}

static void
on_got_chunk (SoupServerMessage *message,
              GBytes            *chunk,
              gpointer           user_data)
{
  Request *request = user_data;

  if (request->too_large || akc_server_body_append (request->body, chunk, request->handler->max_body_bytes))
    return;
  request->too_large = TRUE;
  set_error_response (message, request->request_id, 413, "ASK_INVALID_REQUEST", "Request body is too large.",
                      FALSE, -1);
  soup_message_headers_replace (soup_server_message_get_response_headers (message), "Connection", "close");
  request_metric (request, "error.count", "count", "rejected", 1);
  request_metric (request, "request.total_ms", "ms", "rejected", elapsed (request));
}

/* The early checks ------------------------------------------------------ */

static char *
new_request_id (AkcAskHandler *self)
{
  g_autofree char *id = self->create_id != NULL ? self->create_id (self->clock_data) : NULL;

  if (id != NULL && is_identifier (id))
    return g_steal_pointer (&id);
  return g_uuid_string_random ();
}


static void
early_handler (SoupServer        *server,
               SoupServerMessage *message,
               const char        *path,
               GHashTable        *query_table,
               gpointer           user_data)
{
  AkcAskHandler *self = user_data;
  g_autoptr(Request) request = g_rc_box_new0 (Request);
  g_autoptr(GError) error = NULL;
  g_autoptr(AkcJsonValue) raw_site = NULL;
  g_autoptr(GHashTable) query = NULL;
  const char *query_text, *hint;
  gint64 retry_after = -1;

  request->handler = g_object_ref (self);
  request->message = g_object_ref (message);
  request->request_id = new_request_id (self);
  request->started = handler_now (self);
  request->stored_revision = -1;
  request->cancellable = g_cancellable_new ();
  request->body = g_byte_array_new ();
  request->phase = PHASE_BODY;

  /* 1.–3. (3.: the host's response verbatim, without metrics) */
  switch (akc_server_admit (message, self->auth, self->auth_data, &request->context))
    {
    case AKC_SERVER_ADMIT_OK:
      break;
    case AKC_SERVER_ADMIT_METHOD:
      set_error_response (message, request->request_id, 405, "ASK_INVALID_REQUEST", "Only POST is supported.",
                          FALSE, -1);
      return;
    case AKC_SERVER_ADMIT_MEDIA_TYPE:
      set_error_response (message, request->request_id, 415, "ASK_INVALID_REQUEST",
                          "Content-Type must be application/json.", FALSE, -1);
      return;
    case AKC_SERVER_ADMIT_REFUSED:
    default:
      return;
    }

  /* 4. the trusted site */
  raw_site = self->site (request->context, self->host_data, &error);
  request->site = raw_site != NULL ? akc_ask_backend_site_config_validate (raw_site) : NULL;
  if (request->site == NULL)
    {
      g_debug ("No valid Ask site: %s", error != NULL ? error->message : "invalid configuration");
      set_error_response (message, request->request_id, 500, "ASK_INTERNAL", "The Ask request failed.", TRUE, -1);
      return;
    }

  /* 5. the subject */
  request->subject = self->subject != NULL ? self->subject (request->context, self->host_data) : NULL;
  if (!matches_grammar (request->subject, "._:@-", 256))
    {
      fail_early (request, 500, "ASK_INTERNAL", "The Ask host identity is invalid.", FALSE, -1);
      return;
    }

  /* the request deadline starts here */
  request->request_timer = g_timeout_add (site_limit (request, "requestTimeoutMs"), on_request_timeout, request);

  /* 6. hints */
  query_text = g_uri_get_query (soup_server_message_get_uri (message));
  query = query_text != NULL ? g_uri_parse_params (query_text, -1, "&", G_URI_PARAMS_NONE, NULL) : NULL;
  if (query != NULL &&
      (((hint = g_hash_table_lookup (query, "corpus")) != NULL &&
        g_strcmp0 (hint, member_string (akc_json_value_get_member (request->site, "corpus"), "id")) != 0) ||
       ((hint = g_hash_table_lookup (query, "persona")) != NULL &&
        g_strcmp0 (hint, member_string (akc_json_value_get_member (request->site, "assistant"), "id")) != 0)))
    {
      fail_early (request, 403, "ASK_FORBIDDEN", "The requested assistant or corpus is not authorized for this site.",
                  FALSE, -1);
      return;
    }

  /* 7. before the body */
  if (self->rate_limit != NULL && !self->rate_limit (request->context, request->site, &retry_after,
                                                     self->rate_limit_data))
    {
      fail_early (request, 429, "ASK_RATE_LIMITED", "The Ask rate limit was exceeded.", TRUE, retry_after);
      return;
    }
  if (self->draining)
    {
      fail_early (request, 503, "ASK_UNAVAILABLE", "The server is shutting down.", TRUE, -1);
      return;
    }

  /* 8. declared length */
  if (akc_server_declared_over (message, self->max_body_bytes))
    {
      fail_early (request, 413, "ASK_INVALID_REQUEST", "Request body is too large.", FALSE, -1);
      soup_message_headers_replace (soup_server_message_get_response_headers (message), "Connection", "close");
      return;
    }

  g_hash_table_add (self->requests, request);
  g_signal_connect (message, "got-chunk", G_CALLBACK (on_got_chunk), request);
  g_signal_connect (message, "disconnected", G_CALLBACK (on_disconnected), request);
  g_signal_connect (message, "finished", G_CALLBACK (on_disconnected), request);
  g_object_set_data_full (G_OBJECT (message), "akc-ask-request", request_ref (request),
                          (GDestroyNotify) request_unref);
}

static void
handler (SoupServer        *server,
         SoupServerMessage *message,
         const char        *path,
         GHashTable        *query,
         gpointer           user_data)
{
  Request *request = g_object_get_data (G_OBJECT (message), "akc-ask-request");

  if (request == NULL)
    {
      soup_server_message_set_status (message, 500, NULL);
      return;
    }
  soup_server_message_pause (message);
  handle_body (request);
}

/* The object ------------------------------------------------------------ */

static void
akc_ask_handler_finalize (GObject *object)
{
  AkcAskHandler *self = AKC_ASK_HANDLER (object);

  g_clear_object (&self->local);
  g_clear_object (&self->federated);
  g_clear_object (&self->generator);
  g_clear_object (&self->store);
  g_clear_pointer (&self->requests, g_hash_table_unref);
  G_OBJECT_CLASS (akc_ask_handler_parent_class)->finalize (object);
}

static void
akc_ask_handler_class_init (AkcAskHandlerClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = akc_ask_handler_finalize;
}

static void
akc_ask_handler_init (AkcAskHandler *self)
{
  self->requests = g_hash_table_new (NULL, NULL);
}


/* Returns a handler, or NULL with AKC_SERVER_ERROR_ASK_INVALID_CONFIG ("The
 * Ask handler configuration is invalid.") when a number of @options is
 * not a positive safe integer. */
AkcAskHandler *
akc_ask_handler_new (const AkcAskHandlerOptions  *options,
                     AkcAskSiteFunc               site,
                     AkcAskSubjectFunc            subject,
                     gpointer                     host_data,
                     GError                     **error)
{
  AkcAskHandler *self;

  g_return_val_if_fail (options != NULL && site != NULL && subject != NULL, NULL);

  if (!akc_server_is_positive_safe_integer (options->max_body_bytes) ||
      !akc_server_is_positive_safe_integer (options->bootstrap_timeout_ms))
    {
      g_set_error_literal (error, AKC_SERVER_ERROR, AKC_SERVER_ERROR_ASK_INVALID_CONFIG,
                           "The Ask handler configuration is invalid.");
      return NULL;
    }

  self = g_object_new (AKC_TYPE_ASK_HANDLER, NULL);
  self->max_body_bytes = (gint64) options->max_body_bytes;
  self->bootstrap_timeout_ms = (gint64) options->bootstrap_timeout_ms;
  self->site = site;
  self->subject = subject;
  self->host_data = host_data;
  return self;
}

void
akc_ask_handler_set_auth (AkcAskHandler          *self,
                          AkcChatHandlerAuthFunc  func,
                          gpointer                user_data)
{
  g_return_if_fail (AKC_IS_ASK_HANDLER (self));

  self->auth = func;
  self->auth_data = user_data;
}

void
akc_ask_handler_set_retrievers (AkcAskHandler   *self,
                                AkcAskRetriever *local,
                                AkcAskRetriever *federated)
{
  g_return_if_fail (AKC_IS_ASK_HANDLER (self));

  g_set_object (&self->local, local);
  g_set_object (&self->federated, federated);
}

void
akc_ask_handler_set_generator (AkcAskHandler *self,
                               AkcAdapter    *generator)
{
  g_return_if_fail (AKC_IS_ASK_HANDLER (self));

  g_set_object (&self->generator, generator);
}

void
akc_ask_handler_set_store (AkcAskHandler *self,
                           AkcAskStore   *store)
{
  g_return_if_fail (AKC_IS_ASK_HANDLER (self));

  g_set_object (&self->store, store);
}

void
akc_ask_handler_set_rate_limit (AkcAskHandler       *self,
                                AkcAskRateLimitFunc  func,
                                gpointer             user_data)
{
  g_return_if_fail (AKC_IS_ASK_HANDLER (self));

  self->rate_limit = func;
  self->rate_limit_data = user_data;
}

void
akc_ask_handler_set_metrics (AkcAskHandler    *self,
                             AkcAskMetricFunc  func,
                             gpointer          user_data)
{
  g_return_if_fail (AKC_IS_ASK_HANDLER (self));

  self->metric = func;
  self->metric_data = user_data;
}

void
akc_ask_handler_set_clock (AkcAskHandler              *self,
                           AkcChatHandlerNowFunc       now,
                           AkcChatHandlerCreateIdFunc  create_id,
                           gpointer                    user_data)
{
  g_return_if_fail (AKC_IS_ASK_HANDLER (self));

  self->now = now;
  self->create_id = create_id;
  self->clock_data = user_data;
}

void
akc_ask_handler_attach (AkcAskHandler *self,
                        SoupServer    *server,
                        const char    *path)
{
  g_return_if_fail (AKC_IS_ASK_HANDLER (self));

  soup_server_add_early_handler (server, path, early_handler, g_object_ref (self), g_object_unref);
  soup_server_add_handler (server, path, handler, g_object_ref (self), g_object_unref);
}

/* Takes no new request (503). */
void
akc_ask_handler_drain (AkcAskHandler *self)
{
  g_return_if_fail (AKC_IS_ASK_HANDLER (self));

  self->draining = TRUE;
}

guint
akc_ask_handler_get_n_active (AkcAskHandler *self)
{
  g_return_val_if_fail (AKC_IS_ASK_HANDLER (self), 0);

  return g_hash_table_size (self->requests);
}
