/* test-session.c: sessions, snapshots and persistence (application.md §4)
 *
 * SPDX-License-Identifier: MIT
 *
 * Every vector of application/sessions.json: decoding snapshots (§4.2),
 * resuming (§4.3), the persistence points, compare-and-set saves and turn
 * leases (§4.4) and the terminal-turn bound; plus save ordering and
 * conflicts between two sessions sharing one storage.
 */

#include "config.h"

#include <string.h>

#include "akc-conversation-test.h"

#define FIXTURES "application/sessions.json"

/* ------------------------------------------------------------------ */
/* A storage that records its saves                                    */
/* ------------------------------------------------------------------ */

#define TEST_TYPE_STORAGE (test_storage_get_type ())
G_DECLARE_FINAL_TYPE (TestStorage, test_storage, TEST, STORAGE, GObject)

struct _TestStorage
{
  GObject            parent_instance;
  AkcSessionStorage *inner;
  gboolean           always_conflict;
  GPtrArray         *saves;  /* {expectedCursor, cursor} */
};

static void test_storage_iface_init (AkcSessionStorageInterface *iface);

G_DEFINE_FINAL_TYPE_WITH_CODE (TestStorage, test_storage, G_TYPE_OBJECT,
                               G_IMPLEMENT_INTERFACE (AKC_TYPE_SESSION_STORAGE, test_storage_iface_init))

static void
test_storage_finalize (GObject *object)
{
  TestStorage *self = TEST_STORAGE (object);

  g_object_unref (self->inner);
  g_ptr_array_unref (self->saves);
  G_OBJECT_CLASS (test_storage_parent_class)->finalize (object);
}

static void
test_storage_class_init (TestStorageClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = test_storage_finalize;
}

static void
test_storage_init (TestStorage *self)
{
  self->inner = akc_memory_session_storage_new ();
  self->saves = g_ptr_array_new_with_free_func ((GDestroyNotify) akc_json_value_unref);
}

static void
storage_load_async (AkcSessionStorage   *storage,
                    const char          *session_id,
                    GCancellable        *cancellable,
                    GAsyncReadyCallback  callback,
                    gpointer             user_data)
{
  akc_session_storage_load_async (TEST_STORAGE (storage)->inner, session_id, cancellable, callback, user_data);
}

static AkcJsonValue *
storage_load_finish (AkcSessionStorage  *storage,
                     GAsyncResult       *result,
                     GError            **error)
{
  return akc_session_storage_load_finish (TEST_STORAGE (storage)->inner, result, error);
}

static void
storage_save_async (AkcSessionStorage   *storage,
                    AkcJsonValue        *snapshot,
                    gint64               expected_cursor,
                    GCancellable        *cancellable,
                    GAsyncReadyCallback  callback,
                    gpointer             user_data)
{
  TestStorage *self = TEST_STORAGE (storage);

  g_ptr_array_add (self->saves,
                   akc_test_object ("expectedCursor", expected_cursor == AKC_SESSION_STORAGE_CREATE_ONLY
                                                      ? akc_json_value_new_null ()
                                                      : akc_json_value_new_number (expected_cursor),
                                    "cursor", akc_json_value_ref (akc_json_value_get_member (snapshot, "cursor")),
                                    NULL));

  if (self->always_conflict)
    {
      g_autoptr(GTask) task = g_task_new (self, cancellable, callback, user_data);

      g_task_return_int (task, 0);
      return;
    }

  akc_session_storage_save_async (self->inner, snapshot, expected_cursor, cancellable, callback, user_data);
}

static gboolean
storage_save_finish (AkcSessionStorage  *storage,
                     GAsyncResult       *result,
                     gboolean           *saved,
                     GError            **error)
{
  TestStorage *self = TEST_STORAGE (storage);

  if (g_task_is_valid (result, self))
    {
      *saved = FALSE;
      return g_task_propagate_int (G_TASK (result), error) >= 0;
    }

  return akc_session_storage_save_finish (self->inner, result, saved, error);
}

static void
test_storage_iface_init (AkcSessionStorageInterface *iface)
{
  iface->load_async = storage_load_async;
  iface->load_finish = storage_load_finish;
  iface->save_async = storage_save_async;
  iface->save_finish = storage_save_finish;
}

static AkcJsonValue *
stored (TestStorage *storage,
        const char  *session_id)
{
  AkcJsonValue *v = akc_memory_session_storage_lookup (AKC_MEMORY_SESSION_STORAGE (storage->inner), session_id);

  return v != NULL ? akc_json_value_ref (v) : akc_json_value_new_null ();
}

/* ------------------------------------------------------------------ */
/* Helpers                                                             */
/* ------------------------------------------------------------------ */

static AkcSession *
resume (AkcDefinition      *definition,
        const char         *session_id,
        AkcSessionStorage  *storage,
        GError            **error)
{
  g_autoptr(GAsyncResult) result = NULL;

  akc_session_resume_async (definition, session_id, storage, NULL, akc_test_store_result, &result);
  return akc_session_resume_finish (akc_test_wait (&result), error);
}

static const char *
input_string (const AkcFixtureCase *fc,
              const char           *name)
{
  return akc_json_value_get_string (akc_json_value_get_member (fc->input, name), NULL);
}

static AkcJsonValue *
error_json (const GError *error)
{
  if (g_error_matches (error, AKC_SESSION_ERROR, AKC_SESSION_ERROR_CONFLICT))
    return akc_test_object ("name", akc_test_str ("SessionConflictError"),
                            "code", akc_json_value_new_null (),
                            "message", akc_test_str (error->message),
                            NULL);

  g_assert_error (error, AKC_ERROR, AKC_ERROR_CONFIG_INVALID);
  return akc_test_object ("name", akc_test_str ("ConfigError"),
                          "code", akc_test_str ("AK_CONFIG_INVALID"),
                          "message", akc_test_str (error->message),
                          NULL);
}

/* ------------------------------------------------------------------ */
/* §4.2                                                                */
/* ------------------------------------------------------------------ */

static void
run_decode (const AkcFixtureCase *fc,
            gconstpointer         user_data)
{
  AkcJsonValue *input = akc_json_value_get_member (fc->input, "snapshot");
  g_autoptr(AkcDiagnostic) diagnostic = NULL;
  g_autoptr(AkcJsonValue) snapshot = NULL;

  if (akc_json_value_get_kind (input) == AKC_JSON_KIND_STRING)
    {
      gsize len;
      const char *text = akc_json_value_get_string (input, &len);

      snapshot = akc_session_snapshot_decode (text, (gssize) len, &diagnostic);
    }
  else
    snapshot = akc_session_snapshot_decode_value (input, &diagnostic);

  if (akc_fixture_expect_ok (fc))
    {
      g_assert_null (diagnostic);
      akc_assert_json_equal (snapshot, akc_fixture_expect (fc, "snapshot"));
    }
  else
    {
      AkcJsonValue *expected = akc_fixture_expect (fc, "diagnostic");

      g_assert_null (snapshot);
      g_assert_cmpstr (akc_diagnostic_get_code (diagnostic), ==,
                       akc_json_value_get_string (akc_json_value_get_member (expected, "code"), NULL));
      g_assert_cmpstr (akc_diagnostic_get_message (diagnostic), ==,
                       akc_json_value_get_string (akc_json_value_get_member (expected, "message"), NULL));
      g_assert_false (akc_diagnostic_get_retryable (diagnostic));
    }
}

/* ------------------------------------------------------------------ */
/* §4.3                                                                */
/* ------------------------------------------------------------------ */

static void
run_resume (const AkcFixtureCase *fc,
            gconstpointer         user_data)
{
  g_autoptr(AkcDefinition) definition = NULL;
  g_autoptr(AkcSessionStorage) storage = akc_memory_session_storage_new ();
  g_autoptr(AkcSession) session = NULL;
  g_autoptr(GError) error = NULL;
  AkcJsonValue *stored_value = akc_json_value_get_member (fc->input, "stored");
  const char *session_id = input_string (fc, "sessionId");

  definition = akc_test_definition_new (akc_json_value_get_member (fc->input, "definition"), NULL, &error);
  g_assert_no_error (error);

  if (akc_json_value_get_kind (stored_value) != AKC_JSON_KIND_NULL)
    {
      /* stored under the id asked for, whatever id it names */
      akc_memory_session_storage_put (AKC_MEMORY_SESSION_STORAGE (storage), session_id, stored_value);
    }

  session = resume (definition, session_id, storage, &error);

  if (akc_fixture_expect_ok (fc))
    {
      g_autoptr(AkcJsonValue) conversation = NULL;

      g_assert_no_error (error);
      g_assert_cmpstr (akc_session_get_id (session), ==, akc_fixture_expect_string (fc, "sessionId"));
      g_assert_cmpint (akc_session_get_cursor (session), ==,
                       (gint64) akc_json_value_get_number (akc_fixture_expect (fc, "cursor")));
      conversation = akc_session_get_conversation_snapshot (session);
      akc_assert_json_equal (conversation, akc_fixture_expect (fc, "conversation"));
      g_assert_true (akc_session_get_storage (session) == storage);
      g_assert_finalize_object (g_steal_pointer (&session));
    }
  else
    {
      AkcJsonValue *expected = akc_fixture_expect (fc, "error");

      g_assert_null (session);
      g_assert_error (error, AKC_ERROR, AKC_ERROR_CONFIG_INVALID);
      g_assert_cmpstr (akc_json_value_get_string (akc_json_value_get_member (expected, "code"), NULL), ==,
                       "AK_CONFIG_INVALID");
      g_assert_cmpstr (error->message, ==,
                       akc_json_value_get_string (akc_json_value_get_member (expected, "message"), NULL));
    }
}

/* ------------------------------------------------------------------ */
/* §4.4                                                                */
/* ------------------------------------------------------------------ */

static gint64
clock_now (gpointer user_data)
{
  return *(gint64 *) user_data;
}

static void
run_persist_scenario (const AkcFixtureCase *fc,
                      gconstpointer         user_data)
{
  AkcJsonValue *steps = akc_json_value_get_member (fc->input, "steps");
  AkcJsonValue *expected_steps = akc_fixture_expect (fc, "steps");
  const char *session_id = input_string (fc, "sessionId");
  const char *clock_start = input_string (fc, "clockStart");
  g_autoptr(TestStorage) storage = g_object_new (TEST_TYPE_STORAGE, NULL);
  g_autoptr(AkcTestUpstream) upstream = akc_test_upstream_new ();
  g_autoptr(AkcDefinition) definition = NULL;
  g_autoptr(AkcSession) session = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GDateTime) start = g_date_time_new_from_iso8601 (clock_start, NULL);
  gint64 now = g_date_time_to_unix (start) * 1000 + g_date_time_get_microsecond (start) / 1000;

  g_assert_cmpint (akc_json_value_get_kind (akc_json_value_get_member (fc->input, "initialStored")), ==,
                   AKC_JSON_KIND_NULL);
  storage->always_conflict = g_strcmp0 (input_string (fc, "storageBehaviour"), "always-conflict") == 0;

  definition = akc_test_definition_new (akc_json_value_get_member (fc->input, "definition"),
                                        AKC_ADAPTER (upstream), &error);
  g_assert_no_error (error);
  session = resume (definition, session_id, AKC_SESSION_STORAGE (storage), &error);
  g_assert_no_error (error);
  akc_session_set_clock (session, clock_now, &now, NULL);

  for (gsize i = 0; i < akc_json_value_get_length (steps); i++)
    {
      AkcJsonValue *step = akc_json_value_get_element (steps, i);
      AkcJsonValue *expected = akc_json_value_get_element (expected_steps, i);
      AkcJsonValue *v;
      g_autoptr(AkcJsonValue) result = NULL;
      g_autoptr(AkcJsonValue) actual_stored = NULL;
      g_autoptr(AkcJsonValue) saves = NULL;
      g_autoptr(GAsyncResult) async = NULL;
      g_autoptr(GError) step_error = NULL;
      AkcJsonValue *value = NULL;

      g_ptr_array_set_size (storage->saves, 0);

      if ((v = akc_json_value_get_member (step, "advanceMs")) != NULL)
        now += (gint64) akc_json_value_get_number (v);

      if ((v = akc_json_value_get_member (step, "dispatch")) != NULL)
        {
          g_autoptr(GListModel) messages = akc_test_messages_new (akc_json_value_get_member (v, "messages"));
          g_autoptr(AkcAdapterRequest) request = akc_adapter_request_new (messages, NULL, NULL, NULL);
          g_autoptr(AkcJsonValue) chunks = akc_test_run_stream (AKC_ADAPTER (session), request);

          value = akc_json_value_new_null ();
        }
      else if ((v = akc_json_value_get_member (step, "claimTurn")) != NULL)
        {
          gboolean claimed = FALSE;

          akc_session_claim_turn_async (session,
                                        akc_json_value_get_string (akc_json_value_get_member (v, "turnId"), NULL),
                                        (gint64) akc_json_value_get_number (akc_json_value_get_member (v, "leaseMs")),
                                        NULL, akc_test_store_result, &async);
          if (akc_session_claim_turn_finish (session, akc_test_wait (&async), &claimed, &step_error))
            value = akc_json_value_new_boolean (claimed);
        }
      else if ((v = akc_json_value_get_member (step, "releaseTurn")) != NULL)
        {
          const char *outcome = akc_json_value_get_string (akc_json_value_get_member (v, "outcome"), NULL);

          akc_session_release_turn_async (session,
                                          akc_json_value_get_string (akc_json_value_get_member (v, "turnId"), NULL),
                                          strcmp (outcome, "completed") == 0
                                          ? AKC_TURN_OUTCOME_COMPLETED : AKC_TURN_OUTCOME_INDETERMINATE,
                                          NULL, akc_test_store_result, &async);
          if (akc_session_release_turn_finish (session, akc_test_wait (&async), &step_error))
            value = akc_json_value_new_null ();
        }
      else
        {
          g_assert_nonnull (akc_json_value_get_member (step, "persist"));
          akc_session_persist_async (session, NULL, akc_test_store_result, &async);
          if (akc_session_persist_finish (session, akc_test_wait (&async), &step_error))
            value = akc_json_value_new_null ();
        }

      akc_test_wait_persisted (session);

      if (value != NULL)
        result = akc_test_object ("ok", akc_json_value_new_boolean (TRUE), "value", value, NULL);
      else
        result = akc_test_object ("ok", akc_json_value_new_boolean (FALSE), "error", error_json (step_error), NULL);

      akc_assert_json_equal (result, akc_json_value_get_member (expected, "result"));
      g_assert_cmpint (akc_session_get_cursor (session), ==,
                       (gint64) akc_json_value_get_number (akc_json_value_get_member (expected, "cursor")));
      actual_stored = stored (storage, session_id);
      akc_assert_json_equal (actual_stored, akc_json_value_get_member (expected, "stored"));
      saves = akc_test_take_array (storage->saves);
      akc_assert_json_equal (saves, akc_json_value_get_member (expected, "saves"));

      /* what is stored is canonical */
      if (akc_json_value_get_kind (actual_stored) == AKC_JSON_KIND_OBJECT)
        {
          g_autofree char *text = akc_session_snapshot_encode (actual_stored, NULL, &error);

          g_assert_no_error (error);
          akc_assert_canonical (actual_stored, text);
        }
    }

  g_assert_finalize_object (g_steal_pointer (&session));
}

static void
run_terminal_history (const AkcFixtureCase *fc,
                      gconstpointer         user_data)
{
  guint turns = (guint) akc_json_value_get_number (akc_json_value_get_member (fc->input, "turns"));
  g_autoptr(AkcDefinition) definition = akc_definition_new ("plain", NULL);
  g_autoptr(AkcSession) session = akc_session_new (definition, "terminal", NULL);
  g_autoptr(AkcJsonValue) snapshot = NULL;
  g_autoptr(GError) error = NULL;
  AkcJsonValue *terminal;
  gint64 now = 0;

  akc_session_set_clock (session, clock_now, &now, NULL);

  for (guint i = 1; i <= turns; i++)
    {
      g_autofree char *turn_id = g_strdup_printf ("turn-%u", i);
      g_autoptr(GAsyncResult) claim = NULL;
      g_autoptr(GAsyncResult) release = NULL;
      gboolean claimed = FALSE;

      akc_session_claim_turn_async (session, turn_id, 10, NULL, akc_test_store_result, &claim);
      g_assert_true (akc_session_claim_turn_finish (session, akc_test_wait (&claim), &claimed, &error));
      g_assert_no_error (error);
      g_assert_true (claimed);
      akc_session_release_turn_async (session, turn_id, AKC_TURN_OUTCOME_COMPLETED, NULL, akc_test_store_result, &release);
      g_assert_true (akc_session_release_turn_finish (session, akc_test_wait (&release), &error));
    }

  g_assert_cmpint (akc_session_get_cursor (session), ==,
                   (gint64) akc_json_value_get_number (akc_fixture_expect (fc, "cursor")));
  snapshot = akc_session_build_snapshot (session, &error);
  g_assert_no_error (error);
  terminal = akc_json_value_get_member (snapshot, "terminalTurns");
  g_assert_cmpuint (akc_json_value_get_length (terminal), ==,
                    (gsize) akc_json_value_get_number (akc_fixture_expect (fc, "terminalTurnCount")));
  akc_assert_json_equal (akc_json_value_get_element (terminal, 0), akc_fixture_expect (fc, "first"));
  akc_assert_json_equal (akc_json_value_get_element (terminal, akc_json_value_get_length (terminal) - 1),
                         akc_fixture_expect (fc, "last"));
  g_assert_finalize_object (g_steal_pointer (&session));
}

/* ------------------------------------------------------------------ */
/* Beyond the vectors                                                  */
/* ------------------------------------------------------------------ */

/* Two sessions resumed from one storage: the second save of the same
 * cursor loses, and a loser resumed again wins. */
static void
test_two_clients (void)
{
  g_autoptr(AkcDefinition) definition = akc_definition_new ("plain", NULL);
  g_autoptr(AkcSessionStorage) storage = akc_memory_session_storage_new ();
  g_autoptr(AkcSession) first = NULL;
  g_autoptr(AkcSession) a = NULL;
  g_autoptr(AkcSession) b = NULL;
  g_autoptr(AkcSession) b2 = NULL;
  g_autoptr(GAsyncResult) r0 = NULL;
  g_autoptr(GAsyncResult) ra = NULL;
  g_autoptr(GAsyncResult) rb = NULL;
  g_autoptr(GAsyncResult) rb2 = NULL;
  g_autoptr(GError) error = NULL;

  first = resume (definition, "shared", storage, &error);
  g_assert_no_error (error);
  akc_session_persist_async (first, NULL, akc_test_store_result, &r0);
  g_assert_true (akc_session_persist_finish (first, akc_test_wait (&r0), &error));

  a = resume (definition, "shared", storage, &error);
  b = resume (definition, "shared", storage, &error);
  g_assert_no_error (error);
  g_assert_cmpint (akc_session_get_cursor (a), ==, 1);
  g_assert_cmpint (akc_session_get_cursor (b), ==, 1);

  akc_session_persist_async (a, NULL, akc_test_store_result, &ra);
  akc_session_persist_async (b, NULL, akc_test_store_result, &rb);
  g_assert_true (akc_session_persist_finish (a, akc_test_wait (&ra), &error));
  g_assert_no_error (error);
  g_assert_false (akc_session_persist_finish (b, akc_test_wait (&rb), &error));
  g_assert_error (error, AKC_SESSION_ERROR, AKC_SESSION_ERROR_CONFLICT);
  g_assert_cmpstr (error->message, ==, "Session snapshot changed in another client.");
  g_assert_cmpint (akc_session_get_cursor (b), ==, 1);
  g_clear_error (&error);

  b2 = resume (definition, "shared", storage, &error);
  g_assert_cmpint (akc_session_get_cursor (b2), ==, 2);
  akc_session_persist_async (b2, NULL, akc_test_store_result, &rb2);
  g_assert_true (akc_session_persist_finish (b2, akc_test_wait (&rb2), &error));
  g_assert_cmpint (akc_session_get_cursor (b2), ==, 3);

  /* the results hold their sessions */
  g_clear_object (&r0);
  g_clear_object (&ra);
  g_clear_object (&rb);
  g_clear_object (&rb2);
  g_assert_finalize_object (g_steal_pointer (&first));
  g_assert_finalize_object (g_steal_pointer (&a));
  g_assert_finalize_object (g_steal_pointer (&b));
  g_assert_finalize_object (g_steal_pointer (&b2));
}

/* §14 A6: a route id that is not an identifier makes every save fail;
 * scheduled saves drop the error, explicit ones report it. */
static void
test_invalid_route_id (void)
{
  g_autoptr(AkcJsonValue) data = NULL;
  g_autoptr(AkcDefinition) definition = NULL;
  g_autoptr(AkcSessionStorage) storage = akc_memory_session_storage_new ();
  g_autoptr(AkcSession) session = NULL;
  g_autoptr(AkcJsonValue) messages_data = NULL;
  g_autoptr(GListModel) messages = NULL;
  g_autoptr(AkcAdapterRequest) request = NULL;
  g_autoptr(AkcJsonValue) chunks = NULL;
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;

  data = akc_json_value_parse ("{\"id\":\"d\",\"conversation\":{\"initial\":\"a\",\"states\":{\"a\":{\"on\":{\"go\":\"a\"}}},"
                               "\"routes\":[{\"id\":\"my route\",\"command\":\"go\",\"event\":\"go\","
                               "\"response\":{\"text\":\"ok\"}}]}}", -1, &error);
  definition = akc_test_definition_new (data, NULL, &error);
  g_assert_no_error (error);
  session = resume (definition, "s", storage, &error);
  g_assert_no_error (error);

  messages_data = akc_json_value_parse ("[{\"id\":\"u1\",\"role\":\"user\",\"content\":\"go\"}]", -1, NULL);
  messages = akc_test_messages_new (messages_data);
  request = akc_adapter_request_new (messages, NULL, NULL, NULL);
  chunks = akc_test_run_stream (AKC_ADAPTER (session), request);
  g_assert_cmpuint (akc_json_value_get_length (chunks), ==, 2);
  akc_test_wait_persisted (session);
  g_assert_null (akc_memory_session_storage_lookup (AKC_MEMORY_SESSION_STORAGE (storage), "s"));

  akc_session_persist_async (session, NULL, akc_test_store_result, &result);
  g_assert_false (akc_session_persist_finish (session, akc_test_wait (&result), &error));
  g_assert_error (error, AKC_PROTOCOL_ERROR, AKC_PROTOCOL_ERROR_SESSION_INVALID_SNAPSHOT);
  g_assert_cmpint (akc_session_get_cursor (session), ==, 0);
  g_clear_object (&result);
  g_assert_finalize_object (g_steal_pointer (&session));
}

/* §4.1 resolveChatSession */
static void
test_resolve (void)
{
  g_autoptr(AkcDefinition) definition = akc_definition_new ("plain", NULL);
  g_autoptr(AkcDefinition) newer = akc_definition_new ("plain", NULL);
  g_autoptr(AkcDefinition) other = akc_definition_new ("other", NULL);
  g_autoptr(AkcSession) prepared = akc_session_new (definition, "prepared", NULL);
  g_autoptr(AkcSession) same = NULL;
  g_autoptr(AkcSession) fresh = NULL;
  g_autoptr(AkcSession) none = NULL;
  g_autoptr(GError) error = NULL;

  same = akc_session_resolve (definition, prepared, &error);
  g_assert_no_error (error);
  g_assert_true (same == prepared);
  g_clear_object (&same);

  fresh = akc_session_resolve (definition, NULL, &error);
  g_assert_no_error (error);
  g_assert_true (fresh != prepared && g_str_has_prefix (akc_session_get_id (fresh), "plain:"));

  none = akc_session_resolve (other, prepared, &error);
  g_assert_null (none);
  g_assert_error (error, AKC_ERROR, AKC_ERROR_CONFIG_INVALID);
  g_assert_cmpstr (error->message, ==, "Prepared session is incompatible with this chat definition.");
  g_clear_error (&error);

  akc_definition_set_revision (newer, 2);
  none = akc_session_resolve (newer, prepared, &error);
  g_assert_null (none);
  g_assert_error (error, AKC_ERROR, AKC_ERROR_CONFIG_INVALID);

  g_assert_finalize_object (g_steal_pointer (&fresh));
  g_assert_finalize_object (g_steal_pointer (&prepared));
}

static char *
run_act (AkcTool       *tool,
         AkcJsonValue  *arguments,
         gpointer       user_data,
         GError       **error)
{
  (*(guint *) user_data)++;
  return g_strdup ("done");
}

static AkcJsonValue *
host_context (AkcCapabilityPolicy  *policy,
              gpointer              user_data,
              GError              **error)
{
  const char *granted = *(const char **) user_data;
  g_autofree char *text = NULL;

  if (granted == NULL)
    return NULL;

  text = g_strdup_printf ("{\"sessionId\":\"%s\",\"capabilities\":[\"%s\"]}",
                          akc_capability_policy_get_session_id (policy), granted);
  return akc_json_value_parse (text, -1, NULL);
}

/* A definition's policy guards every session's conversations, built for
 * that session's id from the trusted host context (application.md §5.4). */
static void
test_definition_policy (void)
{
  g_autoptr(AkcDefinition) definition = akc_definition_new ("guarded", NULL);
  g_autoptr(AkcJsonValue) requirements = akc_json_value_parse ("{\"act\":[\"act.run\",\"act.run\"]}", -1, NULL);
  g_autoptr(AkcJsonValue) invalid = akc_json_value_parse ("{\"act\":[\"not an identifier\"]}", -1, NULL);
  g_autoptr(AkcTool) tool = NULL;
  g_autoptr(AkcSession) first = NULL;
  g_autoptr(AkcSession) second = NULL;
  g_autoptr(AkcChat) chat = NULL;
  g_autoptr(AkcChat) other = NULL;
  g_autoptr(AkcToolCall) call = NULL;
  g_autoptr(GError) error = NULL;
  const char *granted = NULL;
  guint runs = 0;

  tool = akc_tool_new ("act", TRUE, run_act, &runs, NULL);
  akc_definition_add_tool (definition, tool);

  /* Invalid requirements are refused and change nothing. */
  g_assert_false (akc_definition_set_policy (definition, invalid, host_context, &granted, NULL, &error));
  g_assert_error (error, AKC_ERROR, AKC_ERROR_CONFIG_INVALID);
  g_clear_error (&error);
  g_assert_null (akc_definition_new_policy (definition, "s1"));

  g_assert_true (akc_definition_set_policy (definition, requirements, host_context, &granted, NULL, &error));
  g_assert_no_error (error);

  first = akc_session_new (definition, "s1", &error);
  g_assert_no_error (error);
  g_assert_null (akc_session_get_policy (first));
  chat = akc_session_create_chat (first);
  g_assert_nonnull (akc_session_get_policy (first));
  g_assert_cmpstr (akc_capability_policy_get_session_id (akc_session_get_policy (first)), ==, "s1");

  /* No context: denied at proposal. */
  call = akc_chat_source_propose_tool_call (AKC_CHAT_SOURCE (chat), "app-1", "act", NULL, &error);
  g_assert_null (call);
  g_assert_error (error, AKC_ERROR, AKC_ERROR_TOOL_FORBIDDEN);
  g_assert_cmpstr (error->message, ==, "missing-context");
  g_clear_error (&error);

  /* Granted: proposed, and it runs once approved. */
  granted = "act.run";
  call = akc_chat_source_propose_tool_call (AKC_CHAT_SOURCE (chat), "app-2", "act", NULL, &error);
  g_assert_no_error (error);
  g_assert_nonnull (call);
  g_assert_true (akc_chat_source_approve (AKC_CHAT_SOURCE (chat), "app-2", &error));
  g_assert_no_error (error);
  g_assert_cmpuint (runs, ==, 1);
  WAIT_UNTIL (akc_chat_source_get_status (AKC_CHAT_SOURCE (chat)) != AKC_CHAT_STATUS_STREAMING);

  /* Another session has a policy of its own: a context for s1 is a
   * session mismatch there. */
  second = akc_session_new (definition, "s2", &error);
  g_assert_no_error (error);
  other = akc_session_create_chat (second);
  g_assert_true (akc_session_get_policy (second) != akc_session_get_policy (first));
  {
    g_autoptr(GPtrArray) trace = akc_capability_policy_get_trace (akc_session_get_policy (first));

    /* propose (denied), propose and execute (allowed) */
    g_assert_cmpuint (trace->len, ==, 3);
  }
}

static void
on_memory_result (GObject      *source,
                  GAsyncResult *result,
                  gpointer      user_data)
{
  *(GAsyncResult **) user_data = g_object_ref (result);
}

static gboolean
history_settled (AkcChatHistory *history)
{
  return akc_chat_history_get_loaded (history) || akc_chat_history_get_error (history) != NULL;
}

static AkcChat *
chat_with_history (AkcDefinition *definition,
                   AkcSession   **session)
{
  g_autoptr(GError) error = NULL;
  AkcChat *chat;
  AkcChatHistory *history;

  *session = akc_session_new (definition, "kept", &error);
  g_assert_no_error (error);
  chat = akc_session_create_chat (*session);
  history = akc_session_get_history (*session);
  g_assert_nonnull (history);
  g_assert_cmpstr (akc_chat_history_get_conversation_id (history), ==, "kept");
  WAIT_UNTIL (history_settled (history));
  g_assert_null (akc_chat_history_get_error (history));

  return chat;
}

/* A definition's message memory keeps each session's conversation under
 * the session id: a later session with that id finds it again. */
static void
test_definition_memory (void)
{
  g_autofree char *path = g_build_filename (g_get_user_data_dir (), "memory.sqlite3", NULL);
  g_autoptr(AkcAdapter) upstream = akc_scripted_adapter_new ();
  g_autoptr(AkcDefinition) definition = akc_definition_new ("kept", upstream);
  g_autoptr(AkcDefinition) plain = akc_definition_new ("plain", upstream);
  g_autoptr(AkcChatMemory) memory = NULL;
  g_autoptr(AkcSession) first = NULL;
  g_autoptr(AkcSession) second = NULL;
  g_autoptr(AkcSession) third = NULL;
  g_autoptr(AkcChat) chat = NULL;
  g_autoptr(AkcChat) again = NULL;
  g_autoptr(AkcChat) none = NULL;
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(AkcMessage) reply = NULL;

  akc_sqlite_chat_memory_new_async (path, NULL, on_memory_result, &result);
  WAIT_UNTIL (result != NULL);
  memory = AKC_CHAT_MEMORY (akc_sqlite_chat_memory_new_finish (result, &error));
  g_assert_no_error (error);
  g_clear_object (&result);

  akc_definition_set_memory (definition, memory);
  g_assert_true (akc_definition_get_memory (definition) == memory);

  akc_scripted_adapter_begin_turn (AKC_SCRIPTED_ADAPTER (upstream));
  akc_scripted_adapter_add_text (AKC_SCRIPTED_ADAPTER (upstream), "kept reply", 0);
  akc_scripted_adapter_add_done (AKC_SCRIPTED_ADAPTER (upstream), 0);

  chat = chat_with_history (definition, &first);
  g_assert_true (akc_chat_source_send (AKC_CHAT_SOURCE (chat), "remember me", &error));
  g_assert_no_error (error);
  WAIT_UNTIL (akc_chat_source_get_status (AKC_CHAT_SOURCE (chat)) != AKC_CHAT_STATUS_STREAMING);
  akc_chat_history_flush_async (akc_session_get_history (first), NULL, on_memory_result, &result);
  WAIT_UNTIL (result != NULL);
  g_assert_true (akc_chat_history_flush_finish (akc_session_get_history (first), result, &error));
  g_assert_no_error (error);

  again = chat_with_history (definition, &second);
  g_assert_cmpuint (g_list_model_get_n_items (akc_chat_source_get_messages (AKC_CHAT_SOURCE (again))), ==, 2);
  reply = g_list_model_get_item (akc_chat_source_get_messages (AKC_CHAT_SOURCE (again)), 1);
  g_assert_cmpstr (akc_message_get_content (reply), ==, "kept reply");

  /* Without a memory there is no history. */
  third = akc_session_new (plain, "kept", &error);
  g_assert_no_error (error);
  none = akc_session_create_chat (third);
  g_assert_null (akc_session_get_history (third));
}

int
main (int   argc,
      char *argv[])
{
  guint n;

  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);

  n = akc_fixture_add_tests (FIXTURES, "/session/decode", "decodeSessionSnapshot", run_decode, NULL);
  g_assert_cmpuint (n, ==, 28);
  n = akc_fixture_add_tests (FIXTURES, "/session/resume", "resume", run_resume, NULL);
  g_assert_cmpuint (n, ==, 14);
  n = akc_fixture_add_tests (FIXTURES, "/session/persist", "persistScenario", run_persist_scenario, NULL);
  g_assert_cmpuint (n, ==, 3);
  n = akc_fixture_add_tests (FIXTURES, "/session/terminal", "terminalHistory", run_terminal_history, NULL);
  g_assert_cmpuint (n, ==, 1);

  g_test_add_func ("/session/two-clients", test_two_clients);
  g_test_add_func ("/session/invalid-route-id", test_invalid_route_id);
  g_test_add_func ("/session/resolve", test_resolve);
  g_test_add_func ("/session/definition-policy", test_definition_policy);
  g_test_add_func ("/session/definition-memory", test_definition_memory);

  return g_test_run ();
}
