/* test-session-confirmation.c: confirmations bound to a session
 * (application.md §5.3)
 *
 * SPDX-License-Identifier: MIT
 *
 * The three `durableConfirmation` vectors of application/actions.json,
 * each through real sessions twice: on AkcMemorySessionStorage and on
 * AkcSqliteSessionStorage (the history database). Client A proposes in a
 * new session; the clients then resume the session from the storage, as
 * two windows or two processes would.
 */

#include "config.h"

#include <string.h>

#include "akc-conversation-test.h"
#include "akc-test-gated-source.h"

#define FIXTURES "application/actions.json"
#define UPDATED_AT_MS G_GINT64_CONSTANT (1783728000000)  /* 2026-07-11T00:00:00.000Z */

/* ------------------------------------------------------------------ */
/* Helpers                                                             */
/* ------------------------------------------------------------------ */

typedef enum
{
  STORAGE_MEMORY,
  STORAGE_SQLITE,
} StorageKind;

static gint64
fixed_clock (gpointer user_data)
{
  return *(gint64 *) user_data;
}

static char *
fixed_id (gpointer user_data)
{
  return g_strdup (user_data);
}

static AkcSessionStorage *
open_storage (StorageKind kind)
{
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *path = NULL;
  AkcSqliteSessionStorage *storage;

  if (kind == STORAGE_MEMORY)
    return akc_memory_session_storage_new ();

  /* each case has its own data folder (G_TEST_OPTION_ISOLATE_DIRS) */
  path = g_build_filename (g_get_user_data_dir (), "agentskit-chat", "history.sqlite3", NULL);
  akc_sqlite_session_storage_new_async (path, NULL, akc_test_store_result, &result);
  storage = akc_sqlite_session_storage_new_finish (akc_test_wait (&result), &error);
  g_assert_no_error (error);
  return AKC_SESSION_STORAGE (storage);
}

static AkcJsonValue *
load_stored (AkcSessionStorage *storage,
             const char        *session_id)
{
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(AkcJsonValue) stored = NULL;

  akc_session_storage_load_async (storage, session_id, NULL, akc_test_store_result, &result);
  stored = akc_session_storage_load_finish (storage, akc_test_wait (&result), &error);
  g_assert_no_error (error);
  g_assert_nonnull (stored);
  if (akc_json_value_get_kind (stored) == AKC_JSON_KIND_STRING)
    return akc_session_snapshot_decode (akc_json_value_get_string (stored, NULL), -1, NULL);
  return g_steal_pointer (&stored);
}

static void
count_changes (AkcSession *session,
               gpointer    user_data)
{
  (*(guint *) user_data)++;
}

/* One client: a session resumed from the storage and its coordinator. */
typedef struct
{
  AkcSession            *session;
  AkcActionConfirmation *confirmation;
} Client;

static gint64 session_clock = UPDATED_AT_MS;

static void
client_resume (Client            *client,
               AkcDefinition     *definition,
               const char        *session_id,
               AkcSessionStorage *storage,
               AkcTestGatedSource      *upstream,
               gint64            *clock,
               const char        *create_id)
{
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;

  akc_session_resume_async (definition, session_id, storage, NULL, akc_test_store_result, &result);
  client->session = akc_session_resume_finish (akc_test_wait (&result), &error);
  g_assert_no_error (error);
  akc_session_set_clock (client->session, fixed_clock, &session_clock, NULL);
  client->confirmation = akc_session_create_confirmation (client->session, AKC_CHAT_SOURCE (upstream),
                                                          AKC_ACTION_CONFIRMATION_DEFAULT_TTL_MS, &error);
  g_assert_no_error (error);
  akc_action_confirmation_set_clock (client->confirmation, fixed_clock, clock, NULL);
  if (create_id != NULL)
    akc_action_confirmation_set_id_func (client->confirmation, fixed_id, (gpointer) create_id, NULL);
}

static void
client_clear (Client *client)
{
  if (client->session == NULL)
    return;
  g_assert_finalize_object (g_steal_pointer (&client->confirmation));
  g_assert_finalize_object (g_steal_pointer (&client->session));
}

static AkcConfirmationRecord *
approve (Client      *client,
         const char  *token,
         const char  *session_id,
         GError     **error)
{
  g_autoptr(GAsyncResult) result = NULL;

  akc_action_confirmation_approve_async (client->confirmation, token, session_id, NULL, akc_test_store_result, &result);
  return akc_action_confirmation_approve_finish (client->confirmation, akc_test_wait (&result), error);
}

static AkcJsonValue *
status_json (AkcConfirmationRecord *record)
{
  return akc_test_str (akc_confirmation_status_to_string (akc_confirmation_record_get_status (record)));
}

static const char *
input_string (AkcJsonValue *input,
              const char   *name)
{
  return akc_json_value_get_string (akc_json_value_get_member (input, name), NULL);
}

/* ------------------------------------------------------------------ */
/* durableConfirmation                                                 */
/* ------------------------------------------------------------------ */

static void
run_durable (const AkcFixtureCase *fc,
             gconstpointer         user_data)
{
  StorageKind kind = GPOINTER_TO_INT (user_data);
  AkcJsonValue *input = fc->input;
  AkcJsonValue *proposal = akc_json_value_get_member (input, "proposal");
  const char *plan = input_string (input, "plan");
  const char *session_id = input_string (input, "sessionId");
  g_autoptr(AkcDefinition) definition = akc_definition_new (input_string (input, "definitionId"), NULL);
  g_autoptr(AkcSessionStorage) storage = open_storage (kind);
  g_autoptr(AkcTestGatedSource) upstream_a = akc_test_gated_source_new ();
  g_autoptr(AkcTestGatedSource) upstream_b = akc_test_gated_source_new ();
  g_autoptr(AkcConfirmationRecord) proposed = NULL;
  g_autoptr(AkcJsonValue) after_propose = NULL;
  g_autoptr(AkcJsonValue) final = NULL;
  g_autoptr(AkcJsonValue) outcome = NULL;
  g_autoptr(AkcJsonValue) calls = NULL;
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;
  gint64 clock = (gint64) akc_json_value_get_number (akc_json_value_get_member (input, "proposeClock"));
  Client proposer = { NULL, NULL }, a = { NULL, NULL }, b = { NULL, NULL };
  guint changes = 0;
  const char *token;

  upstream_a->call_id = g_strdup (input_string (input, "upstreamToolCallId"));

  /* Client A proposes in a new session. */
  client_resume (&proposer, definition, session_id, storage, upstream_a, &clock, input_string (input, "createId"));
  g_signal_connect (proposer.session, "confirmations-changed", G_CALLBACK (count_changes), &changes);
  akc_action_confirmation_propose_async (proposer.confirmation, input_string (proposal, "name"),
                                         akc_json_value_get_member (proposal, "input"), NULL, akc_test_store_result, &result);
  proposed = akc_action_confirmation_propose_finish (proposer.confirmation, akc_test_wait (&result), &error);
  g_assert_no_error (error);
  g_clear_object (&result);
  g_assert_cmpuint (changes, ==, 1);
  token = akc_confirmation_record_get_token (proposed);
  after_propose = load_stored (storage, session_id);
  akc_assert_json_equal (after_propose, akc_fixture_expect (fc, "storedAfterPropose"));

  if (strcmp (plan, "restore") == 0)
    {
      g_autoptr(GPtrArray) records = NULL;
      g_autoptr(AkcConfirmationRecord) approved = NULL;
      g_autoptr(AkcConfirmationRecord) replay = NULL;
      g_autoptr(AkcConfirmationRecord) foreign = NULL;
      AkcConfirmationRecord *restored;

      /* A resumes: the restored record is bound to the session. */
      client_resume (&a, definition, session_id, storage, upstream_a, &clock, NULL);
      records = akc_action_confirmation_get_snapshot (a.confirmation);
      g_assert_cmpuint (records->len, ==, 1);
      restored = g_ptr_array_index (records, 0);
      g_assert_cmpstr (akc_confirmation_record_get_session_id (restored), ==, session_id);
      foreign = approve (&a, token, "another-session", &error);
      g_assert_null (foreign);
      g_assert_error (error, AKC_ERROR, AKC_ERROR_CONFIG_INVALID);
      g_clear_error (&error);

      approved = approve (&a, token, session_id, &error);
      g_assert_no_error (error);

      /* B resumes after the approval: a terminal replay is inert. */
      client_resume (&b, definition, session_id, storage, upstream_b, &clock, NULL);
      replay = approve (&b, token, session_id, &error);
      g_assert_no_error (error);

      outcome = akc_test_object ("restoredToken", akc_test_str (akc_confirmation_record_get_token (restored)),
                                 "approved", status_json (approved),
                                 "replay", status_json (replay),
                                 NULL);
    }
  else if (strcmp (plan, "race") == 0)
    {
      g_autoptr(GAsyncResult) first = NULL;
      g_autoptr(GAsyncResult) second = NULL;
      g_autoptr(AkcConfirmationRecord) won = NULL;
      g_autoptr(AkcConfirmationRecord) lost = NULL;
      g_autoptr(AkcConfirmationRecord) still = NULL;
      g_autoptr(GPtrArray) items = g_ptr_array_new_with_free_func ((GDestroyNotify) akc_json_value_unref);

      /* Both resume the same snapshot, then approve at once. */
      client_resume (&a, definition, session_id, storage, upstream_a, &clock, NULL);
      client_resume (&b, definition, session_id, storage, upstream_b, &clock, NULL);
      akc_action_confirmation_approve_async (a.confirmation, token, session_id, NULL, akc_test_store_result, &first);
      akc_action_confirmation_approve_async (b.confirmation, token, session_id, NULL, akc_test_store_result, &second);
      won = akc_action_confirmation_approve_finish (a.confirmation, akc_test_wait (&first), &error);
      g_assert_no_error (error);
      lost = akc_action_confirmation_approve_finish (b.confirmation, akc_test_wait (&second), &error);
      g_assert_null (lost);
      g_assert_error (error, AKC_SESSION_ERROR, AKC_SESSION_ERROR_CONFLICT);
      g_assert_cmpstr (error->message, ==, "Session snapshot changed in another client.");
      g_clear_error (&error);
      g_clear_object (&first);
      g_clear_object (&second);

      g_ptr_array_add (items, akc_test_object ("status", status_json (won), NULL));
      g_ptr_array_add (items, akc_test_object ("error", akc_test_str ("SessionConflictError"), NULL));
      outcome = akc_test_take_array (items);

      /* The loser's record and stored list did not move. */
      still = akc_action_confirmation_get_by_token (b.confirmation, token);
      g_assert_cmpint (akc_confirmation_record_get_status (still), ==, AKC_CONFIRMATION_STATUS_PENDING);
      g_assert_cmpstr (akc_json_value_get_string (akc_json_value_get_member (
                         akc_json_value_get_element (akc_session_get_confirmations (b.session), 0), "status"), NULL),
                       ==, "pending");
    }
  else
    {
      g_autoptr(AkcConfirmationRecord) failed = NULL;
      g_autoptr(AkcConfirmationRecord) second = NULL;
      g_autoptr(AkcJsonValue) stored = NULL;
      g_autofree char *first = NULL;

      g_assert_cmpstr (plan, ==, "crash");

      /* A resumes and its upstream fails after the processing claim. */
      client_resume (&a, definition, session_id, storage, upstream_a, &clock, NULL);
      akc_test_gated_source_fail_approval (upstream_a, "network lost");
      failed = approve (&a, token, session_id, &error);
      g_assert_null (failed);
      g_assert_nonnull (error);
      first = g_strdup (error->message);
      g_clear_error (&error);
      stored = load_stored (storage, session_id);

      /* B resumes and approves again: a no-op. */
      client_resume (&b, definition, session_id, storage, upstream_b, &clock, NULL);
      second = approve (&b, token, session_id, &error);
      g_assert_no_error (error);

      outcome = akc_test_object ("firstAttempt", akc_test_str (first),
                                 "statusAfterFailure",
                                 akc_json_value_ref (akc_json_value_get_member (
                                   akc_json_value_get_element (akc_json_value_get_member (stored, "confirmations"), 0),
                                   "status")),
                                 "secondAttempt", status_json (second),
                                 NULL);
    }

  akc_assert_json_equal (outcome, akc_fixture_expect (fc, "outcome"));
  calls = akc_test_object ("approveA", akc_json_value_new_number (upstream_a->approves),
                           "approveB", akc_json_value_new_number (upstream_b->approves),
                           "deny", akc_json_value_new_number (upstream_a->denies + upstream_b->denies),
                           NULL);
  akc_assert_json_equal (calls, akc_fixture_expect (fc, "upstreamCalls"));
  final = load_stored (storage, session_id);
  akc_assert_json_equal (akc_json_value_get_member (final, "confirmations"),
                         akc_fixture_expect (fc, "finalStoredConfirmations"));

  client_clear (&proposer);
  client_clear (&a);
  client_clear (&b);
  g_assert_finalize_object (g_steal_pointer (&storage));
}

/* Without storage a session keeps its confirmations but claims nothing:
 * an upstream failure puts the record back to pending (§5.2). */
static void
test_without_storage (void)
{
  g_autoptr(AkcDefinition) definition = akc_definition_new ("actions", NULL);
  g_autoptr(AkcSession) session = akc_session_new (definition, "local", NULL);
  g_autoptr(AkcTestGatedSource) upstream = akc_test_gated_source_new ();
  g_autoptr(AkcActionConfirmation) confirmation = NULL;
  g_autoptr(AkcConfirmationRecord) proposed = NULL;
  g_autoptr(AkcConfirmationRecord) failed = NULL;
  g_autoptr(AkcConfirmationRecord) after = NULL;
  g_autoptr(AkcJsonValue) input = akc_json_value_parse ("{\"amount\":5}", -1, NULL);
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;
  Client client = { NULL, NULL };

  confirmation = akc_session_create_confirmation (session, AKC_CHAT_SOURCE (upstream),
                                                  AKC_ACTION_CONFIRMATION_DEFAULT_TTL_MS, &error);
  g_assert_no_error (error);
  g_assert_false (akc_confirmation_store_can_claim_status (akc_action_confirmation_get_store (confirmation)));

  akc_action_confirmation_propose_async (confirmation, "charge", input, NULL, akc_test_store_result, &result);
  proposed = akc_action_confirmation_propose_finish (confirmation, akc_test_wait (&result), &error);
  g_assert_no_error (error);
  g_clear_object (&result);
  g_assert_cmpuint (akc_json_value_get_length (akc_session_get_confirmations (session)), ==, 1);
  g_assert_cmpint (akc_session_get_cursor (session), ==, 1);

  akc_test_gated_source_fail_approval (upstream, "network lost");
  client.session = session;
  client.confirmation = confirmation;
  failed = approve (&client, akc_confirmation_record_get_token (proposed), "local", &error);
  g_assert_null (failed);
  g_clear_error (&error);
  after = akc_action_confirmation_get_by_token (confirmation, akc_confirmation_record_get_token (proposed));
  g_assert_cmpint (akc_confirmation_record_get_status (after), ==, AKC_CONFIRMATION_STATUS_PENDING);

  g_assert_finalize_object (g_steal_pointer (&confirmation));
  g_assert_finalize_object (g_steal_pointer (&session));
}

int
main (int   argc,
      char *argv[])
{
  guint n;

  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);

  n = akc_fixture_add_tests (FIXTURES, "/session-confirmation/memory", "durableConfirmation",
                             run_durable, GINT_TO_POINTER (STORAGE_MEMORY));
  g_assert_cmpuint (n, ==, 3);
  n = akc_fixture_add_tests (FIXTURES, "/session-confirmation/sqlite", "durableConfirmation",
                             run_durable, GINT_TO_POINTER (STORAGE_SQLITE));
  g_assert_cmpuint (n, ==, 3);
  g_test_add_func ("/session-confirmation/without-storage", test_without_storage);

  return g_test_run ();
}
