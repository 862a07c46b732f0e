/* test-deterministic-adapter.c: AkcDeterministicAdapter (application.md §9.4)
 *
 * SPDX-License-Identifier: MIT
 *
 * Every `deterministicAdapter` vector of application/deterministic.json,
 * each as its own test: the streamed chunks (ordered content compared byte
 * for byte, the attached answer envelope structurally), the capabilities,
 * the calls to the fallback and the request it got, and the decisions
 * observed. Plus: stopping a reply mid-stream stops the fallback at once
 * and nothing follows; offered choices are sent exactly once through the
 * reservation hook; a tampered artifact never answers.
 */

#include "config.h"

#include <string.h>

#include "akc-answers-test.h"
#include "akc-test.h"

#define FIXTURE_NOW  "2026-07-13T12:00:00.000Z"
#define SYSTEM_PROMPT "Keep me"

/* ------------------------------------------------------------------ */
/* A fallback adapter that replays a list of chunks                    */
/* ------------------------------------------------------------------ */

#define TEST_TYPE_REPLAY_ADAPTER (test_replay_adapter_get_type ())
G_DECLARE_FINAL_TYPE (TestReplayAdapter, test_replay_adapter, TEST, REPLAY_ADAPTER, GObject)

struct _TestReplayAdapter
{
  GObject       parent_instance;

  AkcJsonValue *chunks;     /* the fixture's fallback.chunks */
  GPtrArray    *requests;   /* AkcAdapterRequest* */
  AkcStream    *last;       /* the stream of the latest call */
};

static void test_replay_adapter_iface_init (AkcAdapterInterface *iface);

G_DEFINE_FINAL_TYPE_WITH_CODE (TestReplayAdapter, test_replay_adapter, G_TYPE_OBJECT,
                               G_IMPLEMENT_INTERFACE (AKC_TYPE_ADAPTER, test_replay_adapter_iface_init))

static AkcChunk *
chunk_from_fixture (AkcJsonValue *spec)
{
  const char *type = akc_json_value_get_string (akc_json_value_get_member (spec, "type"), NULL);
  AkcJsonValue *content = akc_json_value_get_member (spec, "content");
  AkcJsonValue *metadata = akc_json_value_get_member (spec, "metadata");
  g_autoptr(AkcChunk) chunk = NULL;

  if (g_strcmp0 (type, "text") == 0)
    {
      gsize len = 0;
      const char *text = akc_json_value_get_string (content, &len);

      chunk = akc_chunk_new_text (text, len);
    }
  else if (g_strcmp0 (type, "error") == 0)
    chunk = akc_chunk_new_error (NULL, akc_json_value_get_string (content, NULL));
  else if (g_strcmp0 (type, "done") == 0)
    chunk = akc_chunk_new_done ();
  else
    g_error ("unknown fixture chunk type “%s”", type);

  if (metadata != NULL)
    return akc_chunk_with_metadata (chunk, metadata);
  return g_steal_pointer (&chunk);
}

typedef struct {
  AkcStream    *stream;
  AkcJsonValue *chunks;
} Replay;

static void
replay_free (gpointer data)
{
  Replay *replay = data;

  g_object_unref (replay->stream);
  akc_json_value_unref (replay->chunks);
  g_free (replay);
}

/* Replays every chunk; a list without done or error ends by closing the
 * stream (the reply ended early). */
static gboolean
replay_run (gpointer data)
{
  Replay *replay = data;
  gsize n = akc_json_value_get_length (replay->chunks);

  for (gsize i = 0; i < n; i++)
    {
      g_autoptr(AkcChunk) chunk = chunk_from_fixture (akc_json_value_get_element (replay->chunks, i));

      akc_stream_push (replay->stream, chunk);
    }
  if (!akc_stream_is_closed (replay->stream))
    akc_stream_cancel (replay->stream);

  return G_SOURCE_REMOVE;
}

static void
test_replay_adapter_stream (AkcAdapter        *adapter,
                            AkcAdapterRequest *request,
                            AkcStream         *stream)
{
  TestReplayAdapter *self = TEST_REPLAY_ADAPTER (adapter);
  Replay *replay = g_new0 (Replay, 1);

  g_ptr_array_add (self->requests, g_object_ref (request));
  g_set_object (&self->last, stream);
  replay->stream = g_object_ref (stream);
  replay->chunks = akc_json_value_ref (self->chunks);
  g_idle_add_full (G_PRIORITY_DEFAULT, replay_run, replay, replay_free);
}

static AkcJsonValue *
test_replay_adapter_get_capabilities (AkcAdapter *adapter)
{
  return akc_json_value_parse ("{\"streaming\":true}", -1, NULL);
}

static void
test_replay_adapter_iface_init (AkcAdapterInterface *iface)
{
  iface->stream = test_replay_adapter_stream;
  iface->get_capabilities = test_replay_adapter_get_capabilities;
}

static void
test_replay_adapter_finalize (GObject *object)
{
  TestReplayAdapter *self = TEST_REPLAY_ADAPTER (object);

  g_clear_pointer (&self->chunks, akc_json_value_unref);
  g_clear_pointer (&self->requests, g_ptr_array_unref);
  g_clear_object (&self->last);

  G_OBJECT_CLASS (test_replay_adapter_parent_class)->finalize (object);
}

static void
test_replay_adapter_class_init (TestReplayAdapterClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = test_replay_adapter_finalize;
}

static void
test_replay_adapter_init (TestReplayAdapter *self)
{
  self->requests = g_ptr_array_new_with_free_func (g_object_unref);
}

static TestReplayAdapter *
test_replay_adapter_new (AkcJsonValue *chunks)
{
  TestReplayAdapter *self = g_object_new (TEST_TYPE_REPLAY_ADAPTER, NULL);

  self->chunks = akc_json_value_ref (chunks);
  return self;
}

/* ------------------------------------------------------------------ */
/* Running a reply                                                     */
/* ------------------------------------------------------------------ */

static gint64
fixture_clock (gpointer user_data)
{
  return akc_answers_test_ms (FIXTURE_NOW);
}

/* Collects the chunks of a stream as fixture objects {type, content?,
 * answer?}, and the decisions as "answer", "choices" or
 * "escalation:<reason>". */
typedef struct {
  GPtrArray *chunks;     /* AkcJsonValue* */
  GPtrArray *raw;        /* AkcChunk* */
  GPtrArray *observed;   /* char* */
} Capture;

static void
capture_init (Capture *capture)
{
  capture->chunks = g_ptr_array_new_with_free_func ((GDestroyNotify) akc_json_value_unref);
  capture->raw = g_ptr_array_new_with_free_func ((GDestroyNotify) akc_chunk_unref);
  capture->observed = g_ptr_array_new_with_free_func (g_free);
}

static void
capture_clear (Capture *capture)
{
  g_clear_pointer (&capture->chunks, g_ptr_array_unref);
  g_clear_pointer (&capture->raw, g_ptr_array_unref);
  g_clear_pointer (&capture->observed, g_ptr_array_unref);
}

static void
on_chunk (AkcStream *stream,
          AkcChunk  *chunk,
          Capture   *capture)
{
  const char *names[3];
  AkcJsonValue *values[3];
  gsize n = 0;
  AkcJsonValue *metadata = akc_chunk_get_metadata (chunk);
  AkcJsonValue *answer = metadata != NULL ? akc_json_value_get_member (metadata, "answer") : NULL;
  g_autoptr(AkcJsonValue) type = NULL;
  g_autoptr(AkcJsonValue) content = NULL;

  switch (akc_chunk_get_kind (chunk))
    {
    case AKC_CHUNK_TEXT:
      type = akc_json_value_new_string ("text", -1);
      break;
    case AKC_CHUNK_ERROR:
      type = akc_json_value_new_string ("error", -1);
      break;
    case AKC_CHUNK_DONE:
      type = akc_json_value_new_string ("done", -1);
      break;
    default:
      g_assert_not_reached ();
    }
  names[n] = "type";
  values[n++] = type;
  if (akc_chunk_get_kind (chunk) != AKC_CHUNK_DONE)
    {
      gsize len = 0;
      const char *text = akc_chunk_get_text (chunk, &len);

      content = akc_json_value_new_string (text, len);
      names[n] = "content";
      values[n++] = content;
    }
  if (answer != NULL)
    {
      names[n] = "answer";
      values[n++] = answer;
    }
  g_ptr_array_add (capture->chunks, akc_json_value_new_object (names, values, n));
  g_ptr_array_add (capture->raw, akc_chunk_ref (chunk));
}

static void
on_decision (AkcDeterministicAdapter *adapter,
             AkcJsonValue            *envelope,
             Capture                 *capture)
{
  const char *outcome = akc_json_value_get_string (akc_json_value_get_member (envelope, "outcome"), NULL);
  AkcJsonValue *reason = akc_json_value_get_member (envelope, "reason");
  g_autoptr(AkcDiagnostic) diagnostic = NULL;
  g_autoptr(AkcJsonValue) decoded = akc_answer_decode_value (envelope, &diagnostic);

  /* Every decision is a valid envelope by the protocol's own decoder. */
  g_assert_null (diagnostic);
  g_assert_nonnull (decoded);

  if (reason != NULL)
    g_ptr_array_add (capture->observed, g_strdup_printf ("%s:%s", outcome,
                                                         akc_json_value_get_string (reason, NULL)));
  else
    g_ptr_array_add (capture->observed, g_strdup (outcome));
}

static AkcAdapterRequest *
make_request (const char *query,
              const char *message_id,
              const char *session_id)
{
  g_autoptr(GListStore) messages = g_list_store_new (AKC_TYPE_MESSAGE);
  g_autoptr(AkcJsonValue) metadata = akc_json_value_parse ("{\"tenant\":\"docs\"}", -1, NULL);

  if (query != NULL)
    {
      g_autoptr(AkcMessage) message = akc_message_new (message_id, AKC_MESSAGE_ROLE_USER, query,
                                                       AKC_MESSAGE_STATUS_COMPLETE);

      g_list_store_append (messages, message);
    }
  return akc_adapter_request_new (G_LIST_MODEL (messages), session_id, SYSTEM_PROMPT, metadata);
}

/* Streams @request through @adapter until the reply ends. */
static AkcStream *
run_reply (AkcDeterministicAdapter *adapter,
           AkcAdapterRequest       *request,
           Capture                 *capture)
{
  AkcStream *stream = akc_stream_new ();

  g_signal_connect (stream, "chunk", G_CALLBACK (on_chunk), capture);
  akc_adapter_stream (AKC_ADAPTER (adapter), request, stream);
  WAIT_UNTIL (akc_stream_is_closed (stream));
  /* Anything still queued must not reach the closed stream. */
  while (g_main_context_iteration (NULL, FALSE))
    ;
  return stream;
}

static AkcJsonValue *
strings_value (GPtrArray *strings)
{
  g_autoptr(GPtrArray) values = g_ptr_array_new_with_free_func ((GDestroyNotify) akc_json_value_unref);

  for (guint i = 0; i < strings->len; i++)
    g_ptr_array_add (values, akc_json_value_new_string (g_ptr_array_index (strings, i), -1));
  return akc_json_value_new_array ((AkcJsonValue * const *) values->pdata, values->len);
}

static const char *
input_string (const AkcFixtureCase *fc,
              const char           *name)
{
  AkcJsonValue *v = akc_json_value_get_member (fc->input, name);

  return v != NULL && akc_json_value_get_kind (v) == AKC_JSON_KIND_STRING
         ? akc_json_value_get_string (v, NULL) : NULL;
}

static void
test_adapter_fixture (const AkcFixtureCase *fc,
                      gconstpointer         user_data)
{
  const char *hash = NULL;
  g_autoptr(AkcJsonValue) artifact = akc_answers_test_artifact (input_string (fc, "artifact"), &hash);
  AkcJsonValue *fallback_spec = akc_json_value_get_member (fc->input, "fallback");
  AkcJsonValue *backend = akc_json_value_get_member (fc->input, "backend");
  g_autoptr(TestReplayAdapter) fallback = NULL;
  g_autoptr(AkcDeterministicAdapter) adapter = NULL;
  g_autoptr(AkcAdapterRequest) request = NULL;
  g_autoptr(AkcStream) stream = NULL;
  g_autoptr(AkcJsonValue) capabilities = NULL;
  g_autoptr(AkcJsonValue) chunks = NULL;
  g_autoptr(AkcJsonValue) observed = NULL;
  AkcDeterministicFallbackMode mode;
  AkcJsonValue *expected_chunks = akc_fixture_expect (fc, "chunks");
  guint expected_calls = (guint) akc_json_value_get_number (akc_fixture_expect (fc, "fallbackCalls"));
  Capture capture;

  capture_init (&capture);
  mode = g_strcmp0 (input_string (fc, "fallbackMode"), "disabled") == 0
         ? AKC_DETERMINISTIC_FALLBACK_DISABLED : AKC_DETERMINISTIC_FALLBACK_BACKEND;
  if (fallback_spec != NULL)
    fallback = test_replay_adapter_new (akc_json_value_get_member (fallback_spec, "chunks"));

  adapter = akc_deterministic_adapter_new (artifact, hash, AKC_TEST_SITE_ID, mode,
                                           fallback != NULL ? AKC_ADAPTER (fallback) : NULL);
  akc_deterministic_adapter_set_clock (adapter, fixture_clock, NULL, NULL);
  if (backend != NULL)
    {
      AkcJsonValue *provider = akc_json_value_get_member (backend, "provider");
      AkcJsonValue *model = akc_json_value_get_member (backend, "model");

      if (provider != NULL)
        akc_deterministic_adapter_set_backend_provider (adapter, akc_json_value_get_string (provider, NULL));
      if (model != NULL)
        akc_deterministic_adapter_set_backend_model (adapter, akc_json_value_get_string (model, NULL));
    }
  g_signal_connect (adapter, "decision", G_CALLBACK (on_decision), &capture);

  capabilities = akc_adapter_get_capabilities (AKC_ADAPTER (adapter));
  akc_assert_json_equal (capabilities, akc_fixture_expect (fc, "capabilities"));

  request = make_request (input_string (fc, "query"), input_string (fc, "messageId"), NULL);
  stream = run_reply (adapter, request, &capture);

  /* Ordered content is serialised JSON: each content string must match
   * byte for byte, which string equality of the chunk objects checks. */
  g_assert_cmpuint (capture.chunks->len, ==, akc_json_value_get_length (expected_chunks));
  for (guint i = 0; i < capture.chunks->len; i++)
    {
      AkcJsonValue *expected = akc_json_value_get_element (expected_chunks, i);
      AkcJsonValue *content = akc_json_value_get_member (expected, "content");

      if (content != NULL)
        {
          gsize expected_len = 0, actual_len = 0;
          const char *expected_text = akc_json_value_get_string (content, &expected_len);
          const char *actual_text = akc_chunk_get_text (g_ptr_array_index (capture.raw, i), &actual_len);

          g_assert_cmpmem (actual_text, actual_len, expected_text, expected_len);
        }
    }
  chunks = akc_json_value_new_array ((AkcJsonValue * const *) capture.chunks->pdata, capture.chunks->len);
  akc_assert_json_equal (chunks, expected_chunks);

  g_assert_cmpuint (fallback != NULL ? fallback->requests->len : 0, ==, expected_calls);
  if (expected_calls > 0)
    {
      AkcAdapterRequest *sent = g_ptr_array_index (fallback->requests, 0);
      AkcJsonValue *metadata = akc_adapter_request_get_metadata (sent);
      AkcJsonValue *keys = akc_fixture_expect (fc, "fallbackMetadataKeys");

      g_assert_cmpuint (akc_json_value_get_member_count (metadata), ==, akc_json_value_get_length (keys));
      for (gsize i = 0; i < akc_json_value_get_length (keys); i++)
        g_assert_cmpstr (akc_json_value_get_member_name (metadata, i, NULL), ==,
                         akc_json_value_get_string (akc_json_value_get_element (keys, i), NULL));
      akc_assert_json_equal (akc_json_value_get_member (metadata, AKC_DETERMINISTIC_ESCALATION_METADATA),
                             akc_fixture_expect (fc, "fallbackEscalation"));
      g_assert_cmpstr (akc_adapter_request_get_system_prompt (sent), ==,
                       akc_fixture_expect_string (fc, "fallbackSystemPrompt"));
      /* The request is otherwise unchanged. */
      g_assert_true (akc_adapter_request_get_messages (sent) != NULL);
      g_assert_cmpuint (g_list_model_get_n_items (akc_adapter_request_get_messages (sent)), ==,
                        g_list_model_get_n_items (akc_adapter_request_get_messages (request)));
      g_assert_cmpstr (akc_json_value_get_string (akc_json_value_get_member (metadata, "tenant"), NULL), ==, "docs");
    }

  observed = strings_value (capture.observed);
  akc_assert_json_equal (observed, akc_fixture_expect (fc, "observed"));

  capture_clear (&capture);
}

/* ------------------------------------------------------------------ */
/* Beyond the fixtures                                                 */
/* ------------------------------------------------------------------ */

static AkcDeterministicAdapter *
fixture_adapter (const char                   *artifact_name,
                 AkcDeterministicFallbackMode  mode,
                 AkcAdapter                   *fallback)
{
  const char *hash = NULL;
  g_autoptr(AkcJsonValue) artifact = akc_answers_test_artifact (artifact_name, &hash);
  AkcDeterministicAdapter *adapter = akc_deterministic_adapter_new (artifact, hash, AKC_TEST_SITE_ID,
                                                                    mode, fallback);

  akc_deterministic_adapter_set_clock (adapter, fixture_clock, NULL, NULL);
  return adapter;
}

static void
on_chunk_count (AkcStream *stream,
                AkcChunk  *chunk,
                guint     *count)
{
  (*count)++;
}

static gboolean
quit_loop (gpointer data)
{
  g_main_loop_quit (data);
  return G_SOURCE_REMOVE;
}

/* Stopping the reply while the backend streams stops the backend at once
 * and nothing reaches the stopped stream; chunks pass through as they
 * arrive, before the backend finishes. */
static void
test_cancel_mid_backend (void)
{
  g_autoptr(AkcAdapter) scripted = akc_scripted_adapter_new ();
  g_autoptr(AkcDeterministicAdapter) adapter = NULL;
  g_autoptr(AkcAdapterRequest) request = make_request ("tell me something new", "user-1", "session-a");
  g_autoptr(AkcStream) stream = akc_stream_new ();
  g_autoptr(GMainLoop) loop = g_main_loop_new (NULL, FALSE);
  guint received = 0;
  guint after_cancel = 0;
  g_autoptr(AkcAdapterRequest) sent = NULL;

  akc_scripted_adapter_begin_turn (AKC_SCRIPTED_ADAPTER (scripted));
  akc_scripted_adapter_add_text (AKC_SCRIPTED_ADAPTER (scripted), "First ", 0);
  akc_scripted_adapter_add_text (AKC_SCRIPTED_ADAPTER (scripted), "second ", 20);
  akc_scripted_adapter_add_text (AKC_SCRIPTED_ADAPTER (scripted), "third", 20);
  akc_scripted_adapter_add_done (AKC_SCRIPTED_ADAPTER (scripted), 20);
  adapter = fixture_adapter ("fixture", AKC_DETERMINISTIC_FALLBACK_BACKEND, scripted);

  g_signal_connect (stream, "chunk", G_CALLBACK (on_chunk_count), &received);
  akc_adapter_stream (AKC_ADAPTER (adapter), request, stream);
  g_assert_cmpuint (akc_scripted_adapter_get_n_calls (AKC_SCRIPTED_ADAPTER (scripted)), ==, 1);
  sent = g_object_ref (akc_scripted_adapter_get_call_request (AKC_SCRIPTED_ADAPTER (scripted), 0));
  g_assert_cmpstr (akc_adapter_request_get_session_id (sent), ==, "session-a");

  /* The first chunk arrives while the backend is still streaming. */
  WAIT_UNTIL (received != 0);
  g_assert_cmpuint (received, ==, 1);
  g_assert_false (akc_stream_is_closed (stream));

  akc_stream_cancel (stream);
  g_assert_true (akc_stream_is_closed (stream));
  after_cancel = received;

  /* The scripted adapter's remaining chunks are dropped by its own
   * stream, which was cancelled with ours. */
  g_timeout_add (100, quit_loop, loop);
  g_main_loop_run (loop);
  g_assert_cmpuint (received, ==, after_cancel);
  g_assert_cmpuint (akc_scripted_adapter_get_n_pending_turns (AKC_SCRIPTED_ADAPTER (scripted)), ==, 0);
}

/* The same with a fallback that ignores cancellation: its later chunks
 * still never reach our stream, and its stream was cancelled at once. */
static void
test_cancel_reaches_fallback (void)
{
  g_autoptr(AkcJsonValue) chunks = akc_json_value_parse ("[{\"type\":\"text\",\"content\":\"partial\"}]", -1, NULL);
  g_autoptr(TestReplayAdapter) fallback = test_replay_adapter_new (chunks);
  g_autoptr(AkcDeterministicAdapter) adapter = fixture_adapter ("fixture", AKC_DETERMINISTIC_FALLBACK_BACKEND,
                                                                AKC_ADAPTER (fallback));
  g_autoptr(AkcAdapterRequest) request = make_request ("something else", "user-1", NULL);
  g_autoptr(AkcStream) stream = akc_stream_new ();
  guint received = 0;
  g_autoptr(AkcChunk) late = akc_chunk_new_text ("late", -1);

  g_signal_connect (stream, "chunk", G_CALLBACK (on_chunk_count), &received);
  akc_adapter_stream (AKC_ADAPTER (adapter), request, stream);
  g_assert_nonnull (fallback->last);
  g_assert_false (g_cancellable_is_cancelled (akc_stream_get_cancellable (fallback->last)));

  /* Cancelled before the fallback pushed anything. */
  akc_stream_cancel (stream);
  g_assert_true (g_cancellable_is_cancelled (akc_stream_get_cancellable (fallback->last)));
  g_assert_true (akc_stream_is_closed (fallback->last));

  while (g_main_context_iteration (NULL, FALSE))
    ;
  g_assert_false (akc_stream_push (fallback->last, late));
  g_assert_cmpuint (received, ==, 0);
}

/* A local reply stopped before it is delivered emits nothing. */
static void
test_cancel_local (void)
{
  g_autoptr(AkcDeterministicAdapter) adapter = fixture_adapter ("fixture", AKC_DETERMINISTIC_FALLBACK_DISABLED, NULL);
  g_autoptr(AkcAdapterRequest) request = make_request ("install cli", "user-1", NULL);
  g_autoptr(AkcStream) stream = akc_stream_new ();
  guint received = 0;

  g_signal_connect (stream, "chunk", G_CALLBACK (on_chunk_count), &received);
  akc_adapter_stream (AKC_ADAPTER (adapter), request, stream);
  akc_stream_cancel (stream);
  while (g_main_context_iteration (NULL, FALSE))
    ;
  g_assert_cmpuint (received, ==, 0);
}

/* The choice-list frame of the reply's ordered content. */
static AkcJsonValue *
choice_frame_of (AkcChunk *chunk)
{
  gsize len = 0;
  const char *text = akc_chunk_get_text (chunk, &len);
  gboolean complete = FALSE;
  g_autoptr(AkcJsonValue) parts = akc_assistant_content_decode (text, len, &complete, NULL);

  g_assert_nonnull (parts);
  g_assert_true (complete);
  for (gsize i = 0; i < akc_json_value_get_length (parts); i++)
    {
      AkcJsonValue *frame = akc_json_value_get_member (akc_json_value_get_element (parts, i), "frame");

      if (frame != NULL)
        return akc_json_value_ref (frame);
    }
  g_assert_not_reached ();
  return NULL;
}

/* Choices offered in one session are sent exactly once, through the
 * reservation hook, and only in that session. */
static void
test_choices_submit_once (void)
{
  g_autoptr(AkcDeterministicAdapter) adapter = fixture_adapter ("fixture", AKC_DETERMINISTIC_FALLBACK_DISABLED, NULL);
  AkcChoiceReservations *reservations = akc_deterministic_adapter_get_reservations (adapter);
  g_autoptr(AkcAdapterRequest) request = make_request ("docs", "user-7", "session-a");
  g_autoptr(AkcAdapterRequest) unscoped = make_request ("docs", "user-8", NULL);
  g_autoptr(AkcStream) stream = NULL;
  g_autoptr(AkcStream) stream2 = NULL;
  g_autoptr(AkcJsonValue) frame = NULL;
  g_autoptr(AkcChoiceSubmission) other = NULL;
  g_autoptr(AkcChoiceSubmission) first = NULL;
  g_autoptr(AkcChoiceSubmission) second = NULL;
  g_autoptr(GError) error = NULL;
  Capture capture;

  capture_init (&capture);
  stream = run_reply (adapter, request, &capture);
  g_assert_cmpuint (capture.raw->len, ==, 2);
  frame = choice_frame_of (g_ptr_array_index (capture.raw, 0));
  g_assert_cmpstr (akc_json_value_get_string (akc_json_value_get_member (frame, "instanceId"), NULL), ==,
                   "deterministic-choices-user-7");
  g_assert_cmpuint (akc_choice_reservations_get_n_instances (reservations, "session-a"), ==, 1);

  /* Another session cannot consume it. */
  other = akc_choice_reservations_submission_func (frame, "docs-registry", "session-b", reservations, &error);
  g_assert_no_error (error);
  g_assert_cmpint (akc_choice_submission_get_kind (other), ==, AKC_CHOICE_SUBMISSION_UNAVAILABLE);

  first = akc_choice_reservations_submission_func (frame, "docs-registry", "session-a", reservations, &error);
  g_assert_no_error (error);
  g_assert_cmpint (akc_choice_submission_get_kind (first), ==, AKC_CHOICE_SUBMISSION_RESERVATION);
  g_assert_cmpstr (akc_choice_submission_get_value (first), ==, "registry docs");
  g_assert_true (akc_choice_submission_commit (first, &error));
  g_assert_no_error (error);

  /* Sent: a second selection is unavailable. */
  second = akc_choice_reservations_submission_func (frame, "docs-agentskit", "session-a", reservations, &error);
  g_assert_no_error (error);
  g_assert_cmpint (akc_choice_submission_get_kind (second), ==, AKC_CHOICE_SUBMISSION_UNAVAILABLE);
  g_assert_cmpuint (akc_choice_reservations_get_n_instances (reservations, "session-a"), ==, 0);

  /* Without a session the choices are remembered as "unscoped". */
  capture_clear (&capture);
  capture_init (&capture);
  stream2 = run_reply (adapter, unscoped, &capture);
  g_assert_cmpuint (akc_choice_reservations_get_n_instances (reservations, AKC_DETERMINISTIC_UNSCOPED_SESSION), ==, 1);
  capture_clear (&capture);
}

/* A tampered artifact never answers, not even with a fallback that could;
 * the decision says why, and the backend gets the corrupt escalation. */
static void
test_tampered_never_answers (void)
{
  const char *queries[] = { "install cli", "docs", "agentskit docs", "registry docs", "" };

  for (guint i = 0; i < G_N_ELEMENTS (queries); i++)
    {
      g_autoptr(AkcDeterministicAdapter) adapter = fixture_adapter ("corrupt", AKC_DETERMINISTIC_FALLBACK_DISABLED, NULL);
      g_autoptr(AkcAdapterRequest) request = make_request (queries[i], "user-1", NULL);
      g_autoptr(AkcStream) stream = NULL;
      AkcJsonValue *answer;
      Capture capture;

      capture_init (&capture);
      g_signal_connect (adapter, "decision", G_CALLBACK (on_decision), &capture);
      stream = run_reply (adapter, request, &capture);
      g_assert_false (akc_knowledge_resolver_is_verified (akc_deterministic_adapter_get_resolver (adapter)));
      g_assert_cmpuint (capture.observed->len, ==, 1);
      g_assert_cmpstr (g_ptr_array_index (capture.observed, 0), ==, "escalation:corrupt");
      answer = akc_json_value_get_member (akc_chunk_get_metadata (g_ptr_array_index (capture.raw, 0)), "answer");
      g_assert_cmpstr (akc_json_value_get_string (akc_json_value_get_member (answer, "outcome"), NULL), ==, "escalation");
      g_assert_cmpuint (akc_choice_reservations_get_n_sessions (akc_deterministic_adapter_get_reservations (adapter)), ==, 0);
      capture_clear (&capture);
    }
}

/* Without a fallback a backend mode still answers offline, with the
 * default capabilities. */
static void
test_default_capabilities (void)
{
  g_autoptr(AkcDeterministicAdapter) adapter = fixture_adapter ("fixture", AKC_DETERMINISTIC_FALLBACK_BACKEND, NULL);
  g_autoptr(AkcAdapter) echo = akc_echo_adapter_new ();
  g_autoptr(AkcDeterministicAdapter) over_echo = fixture_adapter ("fixture", AKC_DETERMINISTIC_FALLBACK_BACKEND, echo);
  g_autoptr(AkcJsonValue) expected = akc_json_value_parse ("{\"streaming\":true,\"structuredOutput\":true}", -1, NULL);
  g_autoptr(AkcJsonValue) a = akc_adapter_get_capabilities (AKC_ADAPTER (adapter));
  g_autoptr(AkcJsonValue) b = akc_adapter_get_capabilities (AKC_ADAPTER (over_echo));

  /* The echo adapter declares nothing. */
  g_assert_null (akc_adapter_get_capabilities (echo));
  akc_assert_json_equal (a, expected);
  akc_assert_json_equal (b, expected);
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);

  akc_fixture_add_tests ("application/deterministic.json", "/deterministic-adapter/fixtures",
                         "deterministicAdapter", test_adapter_fixture, NULL);
  g_test_add_func ("/deterministic-adapter/cancel-mid-backend", test_cancel_mid_backend);
  g_test_add_func ("/deterministic-adapter/cancel-reaches-fallback", test_cancel_reaches_fallback);
  g_test_add_func ("/deterministic-adapter/cancel-local", test_cancel_local);
  g_test_add_func ("/deterministic-adapter/choices-submit-once", test_choices_submit_once);
  g_test_add_func ("/deterministic-adapter/tampered-never-answers", test_tampered_never_answers);
  g_test_add_func ("/deterministic-adapter/default-capabilities", test_default_capabilities);

  return g_test_run ();
}
