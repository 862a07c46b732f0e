/* test-action-confirmation.c: AkcActionConfirmation, the confirmation
 * coordinator of typed actions (application.md §5.2)
 *
 * SPDX-License-Identifier: MIT
 */

#include <stdarg.h>
#include <string.h>

#include "akc.h"
#include "akc-fixture.h"
#include "akc-test.h"
#include "akc-test-gated-source.h"

/* ------------------------------------------------------------------ */
/* A host behind a real source                                         */
/* ------------------------------------------------------------------ */

/* The upstream of most tests is a real AkcControlledSource: its host
 * answers a proposal by putting the call, waiting for confirmation, into
 * the conversation (so that the source lets it be approved or denied) and
 * counts what the source asks of it. AkcTestGatedSource (tests/lib) remains for
 * what no real source does: failing on demand, renaming calls, not gating. */
typedef struct
{
  AkcControlledSource *source;
  guint                proposes;
  guint                approves;
  guint                denies;
  char                *last_reason;
} Host;

static void
on_host_propose (AkcControlledSource *source,
                 const char          *id,
                 const char          *name,
                 AkcJsonValue        *arguments,
                 Host                *host)
{
  g_autofree char *message_id = g_strdup_printf ("proposal-%u", ++host->proposes);
  g_autoptr(AkcMessageBuilder) builder = akc_message_builder_new (message_id, AKC_MESSAGE_ROLE_ASSISTANT);
  g_autoptr(AkcMessageRecord) record = NULL;
  g_autoptr(GError) error = NULL;

  g_assert_true (akc_message_builder_add_tool_call (builder, id, name, arguments,
                                                    AKC_TOOL_CALL_STATUS_REQUIRES_CONFIRMATION, &error));
  record = akc_message_builder_build (builder, &error);
  g_assert_no_error (error);
  g_assert_true (akc_controlled_source_append_message (source, record, &error));
  g_assert_no_error (error);
}

static void
on_host_approve (AkcControlledSource *source,
                 const char          *tool_call_id,
                 Host                *host)
{
  host->approves++;
}

static void
on_host_deny (AkcControlledSource *source,
              const char          *tool_call_id,
              const char          *reason,
              Host                *host)
{
  host->denies++;
  g_free (host->last_reason);
  host->last_reason = g_strdup (reason);
}

static Host *
host_new (void)
{
  Host *host = g_new0 (Host, 1);

  host->source = akc_controlled_source_new ();
  g_signal_connect (host->source, "propose-tool-call", G_CALLBACK (on_host_propose), host);
  g_signal_connect (host->source, "approve", G_CALLBACK (on_host_approve), host);
  g_signal_connect (host->source, "deny", G_CALLBACK (on_host_deny), host);

  return host;
}

static void
host_free (Host *host)
{
  g_assert_finalize_object (host->source);
  g_free (host->last_reason);
  g_free (host);
}

G_DEFINE_AUTOPTR_CLEANUP_FUNC (Host, host_free)

#define HOST_SOURCE(host) AKC_CHAT_SOURCE ((host)->source)

/* ------------------------------------------------------------------ */
/* Stores                                                               */
/* ------------------------------------------------------------------ */

/* Keeps the records it is given, answers on a later main-context
 * iteration (as a store that writes away from the main thread does), and
 * fails or refuses claims on demand. With claims enabled it keeps the
 * status of each token it claimed, compare-and-set style: a claim wins
 * only over the status it expects (pending → processing → terminal). */
#define TEST_TYPE_STORE (test_store_get_type ())
G_DECLARE_FINAL_TYPE (TestStore, test_store, TEST, STORE, GObject)

struct _TestStore
{
  GObject     parent_instance;

  GPtrArray  *saved;        /* the last records saved */
  GHashTable *claimed;      /* token → status string */
  GPtrArray  *claims;       /* "token:status" of each claim asked */
  guint       saves;
  guint       save_failures;
  guint       claim_failures;
  gboolean    refuse_claims;
};

static void test_store_iface_init (AkcConfirmationStoreInterface *iface);

G_DEFINE_FINAL_TYPE_WITH_CODE (TestStore, test_store, G_TYPE_OBJECT,
                               G_IMPLEMENT_INTERFACE (AKC_TYPE_CONFIRMATION_STORE, test_store_iface_init))

static void
test_store_save_records_async (AkcConfirmationStore *store,
                               GPtrArray            *records,
                               GCancellable         *cancellable,
                               GAsyncReadyCallback   callback,
                               gpointer              user_data)
{
  TestStore *self = TEST_STORE (store);
  g_autoptr(GTask) task = g_task_new (self, cancellable, callback, user_data);

  self->saves++;
  if (self->save_failures > 0)
    {
      self->save_failures--;
      g_task_return_new_error (task, G_IO_ERROR, G_IO_ERROR_NO_SPACE, "disk full");
      return;
    }

  g_ptr_array_set_size (self->saved, 0);
  for (guint i = 0; i < records->len; i++)
    g_ptr_array_add (self->saved, akc_confirmation_record_ref (g_ptr_array_index (records, i)));
  g_task_return_boolean (task, TRUE);
}

static gboolean
test_store_save_records_finish (AkcConfirmationStore  *store,
                                GAsyncResult          *result,
                                GError               **error)
{
  return g_task_propagate_boolean (G_TASK (result), error);
}

static AkcConfirmationStatus
expected_before (AkcConfirmationStatus status)
{
  switch (status)
    {
    case AKC_CONFIRMATION_STATUS_APPROVED:
      return AKC_CONFIRMATION_STATUS_APPROVING;
    case AKC_CONFIRMATION_STATUS_REJECTED:
      return AKC_CONFIRMATION_STATUS_REJECTING;
    case AKC_CONFIRMATION_STATUS_EXPIRED:
      return AKC_CONFIRMATION_STATUS_EXPIRING;
    default:
      return AKC_CONFIRMATION_STATUS_PENDING;
    }
}

static void
test_store_claim_status_async (AkcConfirmationStore  *store,
                               AkcConfirmationRecord *record,
                               GCancellable          *cancellable,
                               GAsyncReadyCallback    callback,
                               gpointer               user_data)
{
  TestStore *self = TEST_STORE (store);
  g_autoptr(GTask) task = g_task_new (self, cancellable, callback, user_data);
  const char *token = akc_confirmation_record_get_token (record);
  AkcConfirmationStatus status = akc_confirmation_record_get_status (record);
  const char *current = g_hash_table_lookup (self->claimed, token);
  const char *expected = akc_confirmation_status_to_string (expected_before (status));

  g_ptr_array_add (self->claims, g_strdup_printf ("%s:%s", token, akc_confirmation_status_to_string (status)));
  if (self->claim_failures > 0)
    {
      self->claim_failures--;
      g_task_return_new_error (task, G_IO_ERROR, G_IO_ERROR_NO_SPACE, "disk full");
      return;
    }

  if (self->refuse_claims || g_strcmp0 (current != NULL ? current : "pending", expected) != 0)
    {
      g_task_return_int (task, FALSE);
      return;
    }

  g_hash_table_replace (self->claimed, g_strdup (token),
                        g_strdup (akc_confirmation_status_to_string (status)));
  g_task_return_int (task, TRUE);
}

static gboolean
test_store_claim_status_finish (AkcConfirmationStore  *store,
                                GAsyncResult          *result,
                                gboolean              *claimed,
                                GError               **error)
{
  g_autoptr(GError) local_error = NULL;
  gssize value = g_task_propagate_int (G_TASK (result), &local_error);

  if (local_error != NULL)
    {
      g_propagate_error (error, g_steal_pointer (&local_error));
      return FALSE;
    }

  *claimed = value != 0;
  return TRUE;
}

static void
test_store_iface_init (AkcConfirmationStoreInterface *iface)
{
  iface->save_records_async = test_store_save_records_async;
  iface->save_records_finish = test_store_save_records_finish;
}

static void
test_store_finalize (GObject *object)
{
  TestStore *self = TEST_STORE (object);

  g_clear_pointer (&self->saved, g_ptr_array_unref);
  g_clear_pointer (&self->claimed, g_hash_table_unref);
  g_clear_pointer (&self->claims, g_ptr_array_unref);

  G_OBJECT_CLASS (test_store_parent_class)->finalize (object);
}

static void
test_store_class_init (TestStoreClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = test_store_finalize;
}

static void
test_store_init (TestStore *self)
{
  self->saved = g_ptr_array_new_with_free_func ((GDestroyNotify) akc_confirmation_record_unref);
  self->claimed = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  self->claims = g_ptr_array_new_with_free_func (g_free);
}

/* The same store with the claim hook. */
#define TEST_TYPE_CLAIMING_STORE (test_claiming_store_get_type ())
G_DECLARE_FINAL_TYPE (TestClaimingStore, test_claiming_store, TEST, CLAIMING_STORE, GObject)

struct _TestClaimingStore
{
  GObject    parent_instance;
  TestStore *store;
};

static void test_claiming_store_iface_init (AkcConfirmationStoreInterface *iface);

G_DEFINE_FINAL_TYPE_WITH_CODE (TestClaimingStore, test_claiming_store, G_TYPE_OBJECT,
                               G_IMPLEMENT_INTERFACE (AKC_TYPE_CONFIRMATION_STORE, test_claiming_store_iface_init))

/* The task's source object is the inner store; the finish functions only
 * read the task, so both wrappers pass straight through. */
static void
test_claiming_store_save_records_async (AkcConfirmationStore *store,
                                        GPtrArray            *records,
                                        GCancellable         *cancellable,
                                        GAsyncReadyCallback   callback,
                                        gpointer              user_data)
{
  TestClaimingStore *self = TEST_CLAIMING_STORE (store);
  g_autoptr(GTask) task = g_task_new (self, cancellable, callback, user_data);

  self->store->saves++;
  if (self->store->save_failures > 0)
    {
      self->store->save_failures--;
      g_task_return_new_error (task, G_IO_ERROR, G_IO_ERROR_NO_SPACE, "disk full");
      return;
    }

  g_ptr_array_set_size (self->store->saved, 0);
  for (guint i = 0; i < records->len; i++)
    g_ptr_array_add (self->store->saved, akc_confirmation_record_ref (g_ptr_array_index (records, i)));
  g_task_return_boolean (task, TRUE);
}

static void
on_inner_claimed (GObject      *object,
                  GAsyncResult *result,
                  gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  g_autoptr(GError) error = NULL;
  gssize value = g_task_propagate_int (G_TASK (result), &error);

  if (error != NULL)
    g_task_return_error (task, g_steal_pointer (&error));
  else
    g_task_return_int (task, value);
}

static void
test_claiming_store_claim_status_async (AkcConfirmationStore  *store,
                                        AkcConfirmationRecord *record,
                                        GCancellable          *cancellable,
                                        GAsyncReadyCallback    callback,
                                        gpointer               user_data)
{
  TestClaimingStore *self = TEST_CLAIMING_STORE (store);
  GTask *task = g_task_new (self, cancellable, callback, user_data);

  test_store_claim_status_async (AKC_CONFIRMATION_STORE (self->store), record, cancellable,
                                 on_inner_claimed, task);
}

static void
test_claiming_store_iface_init (AkcConfirmationStoreInterface *iface)
{
  iface->save_records_async = test_claiming_store_save_records_async;
  iface->save_records_finish = test_store_save_records_finish;
  iface->claim_status_async = test_claiming_store_claim_status_async;
  iface->claim_status_finish = test_store_claim_status_finish;
}

static void
test_claiming_store_finalize (GObject *object)
{
  g_clear_object (&TEST_CLAIMING_STORE (object)->store);

  G_OBJECT_CLASS (test_claiming_store_parent_class)->finalize (object);
}

static void
test_claiming_store_class_init (TestClaimingStoreClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = test_claiming_store_finalize;
}

static void
test_claiming_store_init (TestClaimingStore *self)
{
  self->store = g_object_new (TEST_TYPE_STORE, NULL);
}

/* ------------------------------------------------------------------ */
/* A durable session store (application.md §5.3), in memory             */
/* ------------------------------------------------------------------ */

/* The storage port of a session: one snapshot and its cursor, written
 * with compare-and-set. Shared by the clients that resume the session. */
typedef struct
{
  AkcJsonValue *snapshot;     /* nullable: nothing stored yet */
  gint64        cursor;
  guint         writes;
} SessionStorage;

#define TEST_SESSION_CONFLICT (g_quark_from_static_string ("test-session-conflict"))

/* One client's view of the session: the §5.3 hooks of a session with
 * storage. onChange stores the records without sessionId and persists;
 * claimStatus updates one token's status and persists; a persist is a
 * CAS over the cursor this client last saw, and a failed one restores the
 * previous list. Writes complete on a later main-context iteration. */
#define TEST_TYPE_DURABLE_STORE (test_durable_store_get_type ())
G_DECLARE_FINAL_TYPE (TestDurableStore, test_durable_store, TEST, DURABLE_STORE, GObject)

struct _TestDurableStore
{
  GObject         parent_instance;

  SessionStorage *storage;
  char           *session_id;
  gint64          cursor;         /* the cursor this client read or wrote */
  AkcJsonValue   *confirmations;  /* this client's list, an array */
};

static void test_durable_store_iface_init (AkcConfirmationStoreInterface *iface);

G_DEFINE_FINAL_TYPE_WITH_CODE (TestDurableStore, test_durable_store, G_TYPE_OBJECT,
                               G_IMPLEMENT_INTERFACE (AKC_TYPE_CONFIRMATION_STORE, test_durable_store_iface_init))

static AkcJsonValue *
build_snapshot (TestDurableStore *self,
                gint64            cursor,
                AkcJsonValue     *confirmations)
{
  g_autoptr(AkcJsonValue) protocol = akc_json_value_new_string (AKC_SESSION_PROTOCOL, -1);
  g_autoptr(AkcJsonValue) version = akc_json_value_new_number (AKC_SESSION_PROTOCOL_VERSION);
  g_autoptr(AkcJsonValue) session_id = akc_json_value_new_string (self->session_id, -1);
  g_autoptr(AkcJsonValue) definition_id = akc_json_value_new_string ("actions", -1);
  g_autoptr(AkcJsonValue) revision = akc_json_value_new_number (1);
  g_autoptr(AkcJsonValue) updated_at = akc_json_value_new_string ("2026-07-11T00:00:00.000Z", -1);
  g_autoptr(AkcJsonValue) cursor_value = akc_json_value_new_number (cursor);

  return akc_json_value_new_object ((const char *[]) { "protocol", "version", "sessionId", "definitionId",
                                                       "definitionRevision", "updatedAt", "cursor",
                                                       "confirmations" },
                                    (AkcJsonValue *[]) { protocol, version, session_id, definition_id,
                                                         revision, updated_at, cursor_value, confirmations },
                                    8);
}

typedef struct
{
  TestDurableStore *self;
  GTask            *task;
  AkcJsonValue     *confirmations;
  gboolean          claim;
} Write;

static gboolean
run_write (gpointer user_data)
{
  Write *write = user_data;
  TestDurableStore *self = write->self;
  g_autoptr(AkcJsonValue) snapshot = NULL;
  g_autoptr(AkcDiagnostic) diagnostic = NULL;
  g_autoptr(AkcJsonValue) decoded = NULL;

  if (self->storage->cursor != self->cursor)
    {
      /* Someone else wrote since this client read: nothing changes here. */
      g_task_return_new_error (write->task, TEST_SESSION_CONFLICT, 1, "SessionConflictError");
    }
  else
    {
      snapshot = build_snapshot (self, self->cursor + 1, write->confirmations);
      /* Building a snapshot validates it (application.md §4.2). */
      decoded = akc_session_snapshot_decode_value (snapshot, &diagnostic);
      g_assert_null (diagnostic);
      g_assert_nonnull (decoded);

      g_clear_pointer (&self->storage->snapshot, akc_json_value_unref);
      self->storage->snapshot = g_steal_pointer (&snapshot);
      self->storage->cursor++;
      self->storage->writes++;
      self->cursor = self->storage->cursor;
      g_clear_pointer (&self->confirmations, akc_json_value_unref);
      self->confirmations = akc_json_value_ref (write->confirmations);

      if (write->claim)
        g_task_return_int (write->task, TRUE);
      else
        g_task_return_boolean (write->task, TRUE);
    }

  g_object_unref (write->task);
  g_object_unref (write->self);
  akc_json_value_unref (write->confirmations);
  g_free (write);

  return G_SOURCE_REMOVE;
}

static void
schedule_write (TestDurableStore    *self,
                AkcJsonValue        *confirmations,
                gboolean             claim,
                GCancellable        *cancellable,
                GAsyncReadyCallback  callback,
                gpointer             user_data)
{
  Write *write = g_new0 (Write, 1);

  write->self = g_object_ref (self);
  write->task = g_task_new (self, cancellable, callback, user_data);
  write->confirmations = confirmations;
  write->claim = claim;
  g_idle_add (run_write, write);
}

static void
test_durable_store_save_records_async (AkcConfirmationStore *store,
                                       GPtrArray            *records,
                                       GCancellable         *cancellable,
                                       GAsyncReadyCallback   callback,
                                       gpointer              user_data)
{
  g_autoptr(GPtrArray) items = g_ptr_array_new_with_free_func ((GDestroyNotify) akc_json_value_unref);

  for (guint i = 0; i < records->len; i++)
    g_ptr_array_add (items, akc_confirmation_record_to_json (g_ptr_array_index (records, i), FALSE));

  schedule_write (TEST_DURABLE_STORE (store),
                  akc_json_value_new_array ((AkcJsonValue * const *) items->pdata, items->len),
                  FALSE, cancellable, callback, user_data);
}

static void
test_durable_store_claim_status_async (AkcConfirmationStore  *store,
                                       AkcConfirmationRecord *record,
                                       GCancellable          *cancellable,
                                       GAsyncReadyCallback    callback,
                                       gpointer               user_data)
{
  TestDurableStore *self = TEST_DURABLE_STORE (store);
  g_autoptr(GPtrArray) items = g_ptr_array_new_with_free_func ((GDestroyNotify) akc_json_value_unref);

  for (gsize i = 0; i < akc_json_value_get_length (self->confirmations); i++)
    {
      AkcJsonValue *item = akc_json_value_get_element (self->confirmations, i);
      const char *token = akc_json_value_get_string (akc_json_value_get_member (item, "token"), NULL);

      if (strcmp (token, akc_confirmation_record_get_token (record)) == 0)
        g_ptr_array_add (items, akc_confirmation_record_to_json (record, FALSE));
      else
        g_ptr_array_add (items, akc_json_value_ref (item));
    }

  schedule_write (self, akc_json_value_new_array ((AkcJsonValue * const *) items->pdata, items->len),
                  TRUE, cancellable, callback, user_data);
}

static void
test_durable_store_iface_init (AkcConfirmationStoreInterface *iface)
{
  iface->save_records_async = test_durable_store_save_records_async;
  iface->save_records_finish = test_store_save_records_finish;
  iface->claim_status_async = test_durable_store_claim_status_async;
  iface->claim_status_finish = test_store_claim_status_finish;
}

static void
test_durable_store_finalize (GObject *object)
{
  TestDurableStore *self = TEST_DURABLE_STORE (object);

  g_clear_pointer (&self->session_id, g_free);
  g_clear_pointer (&self->confirmations, akc_json_value_unref);

  G_OBJECT_CLASS (test_durable_store_parent_class)->finalize (object);
}

static void
test_durable_store_class_init (TestDurableStoreClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = test_durable_store_finalize;
}

static void
test_durable_store_init (TestDurableStore *self)
{
  self->confirmations = akc_json_value_new_array (NULL, 0);
}

/* A client resumes the session: it reads the snapshot and its cursor. */
static TestDurableStore *
test_durable_store_resume (SessionStorage *storage,
                           const char     *session_id)
{
  TestDurableStore *self = g_object_new (TEST_TYPE_DURABLE_STORE, NULL);

  self->storage = storage;
  self->session_id = g_strdup (session_id);
  self->cursor = storage->cursor;
  if (storage->snapshot != NULL)
    {
      g_clear_pointer (&self->confirmations, akc_json_value_unref);
      self->confirmations = akc_json_value_ref (akc_json_value_get_member (storage->snapshot, "confirmations"));
    }

  return self;
}

/* ------------------------------------------------------------------ */
/* Helpers                                                              */
/* ------------------------------------------------------------------ */

typedef struct
{
  gint64 now;
} Clock;

static gint64
clock_now (gpointer user_data)
{
  return ((Clock *) user_data)->now;
}

typedef struct
{
  AkcJsonValue *ids;
  gsize         next;
} Ids;

static char *
next_id (gpointer user_data)
{
  Ids *ids = user_data;
  AkcJsonValue *id;

  if (ids->next >= akc_json_value_get_length (ids->ids))
    return g_strdup ("");

  id = akc_json_value_get_element (ids->ids, ids->next++);
  return g_strdup (akc_json_value_get_string (id, NULL));
}

static void
on_result (GObject      *object,
           GAsyncResult *result,
           gpointer      user_data)
{
  GAsyncResult **slot = user_data;

  g_assert_null (*slot);
  *slot = g_object_ref (result);
}

/* Spins the main context until @slot is filled; a hang fails the test
 * through meson's timeout. */
static GAsyncResult *
await_result (GAsyncResult **slot)
{
  WAIT_UNTIL (*slot != NULL);

  return *slot;
}

static AkcConfirmationRecord *
propose (AkcActionConfirmation  *coordinator,
         const char             *action,
         AkcJsonValue           *input,
         GError                **error)
{
  g_autoptr(GAsyncResult) result = NULL;

  akc_action_confirmation_propose_async (coordinator, action, input, NULL, on_result, &result);
  return akc_action_confirmation_propose_finish (coordinator, await_result (&result), error);
}

static AkcConfirmationRecord *
approve (AkcActionConfirmation  *coordinator,
         const char             *token,
         const char             *session_id,
         GError                **error)
{
  g_autoptr(GAsyncResult) result = NULL;

  akc_action_confirmation_approve_async (coordinator, token, session_id, NULL, on_result, &result);
  return akc_action_confirmation_approve_finish (coordinator, await_result (&result), error);
}

static AkcConfirmationRecord *
reject (AkcActionConfirmation  *coordinator,
        const char             *token,
        const char             *session_id,
        const char             *reason,
        GError                **error)
{
  g_autoptr(GAsyncResult) result = NULL;

  akc_action_confirmation_reject_async (coordinator, token, session_id, reason, NULL, on_result, &result);
  return akc_action_confirmation_reject_finish (coordinator, await_result (&result), error);
}

/* Builds an object from name/value pairs ending with NULL; the values are
 * taken. */
static AkcJsonValue *
object_take (const char *name,
             ...)
{
  g_autoptr(GPtrArray) names = g_ptr_array_new ();
  g_autoptr(GPtrArray) values = g_ptr_array_new_with_free_func ((GDestroyNotify) akc_json_value_unref);
  va_list args;

  va_start (args, name);
  for (; name != NULL; name = va_arg (args, const char *))
    {
      g_ptr_array_add (names, (gpointer) name);
      g_ptr_array_add (values, va_arg (args, AkcJsonValue *));
    }
  va_end (args);

  return akc_json_value_new_object ((const char * const *) names->pdata,
                                    (AkcJsonValue * const *) values->pdata, names->len);
}

static AkcJsonValue *
string_value (const char *text)
{
  return text != NULL ? akc_json_value_new_string (text, -1) : akc_json_value_new_null ();
}

static const char *
error_code (const GError *error)
{
  if (error->domain != AKC_ERROR)
    return NULL;

  switch (error->code)
    {
    case AKC_ERROR_CONFIG_INVALID:
      return "AK_CONFIG_INVALID";
    case AKC_ERROR_TOOL_NOT_FOUND:
      return "AK_TOOL_NOT_FOUND";
    case AKC_ERROR_TOOL_INVALID_INPUT:
      return "AK_TOOL_INVALID_INPUT";
    case AKC_ERROR_TOOL_FORBIDDEN:
      return "AK_TOOL_FORBIDDEN";
    default:
      return "unknown";
    }
}

static AkcJsonValue *
error_json (const GError *error)
{
  return object_take ("code", string_value (error_code (error)),
                      "message", string_value (error->message),
                      NULL);
}

/* {record} or {error}. */
static AkcJsonValue *
result_json (AkcConfirmationRecord *record,
             const GError          *error)
{
  if (record == NULL)
    return object_take ("error", error_json (error), NULL);

  return object_take ("record", akc_confirmation_record_to_json (record, TRUE), NULL);
}

static AkcJsonValue *
token_statuses (AkcActionConfirmation *coordinator)
{
  g_autoptr(GPtrArray) records = akc_action_confirmation_get_snapshot (coordinator);
  g_autoptr(GPtrArray) items = g_ptr_array_new_with_free_func ((GDestroyNotify) akc_json_value_unref);

  for (guint i = 0; i < records->len; i++)
    {
      AkcConfirmationRecord *record = g_ptr_array_index (records, i);

      g_ptr_array_add (items,
                       object_take ("token", string_value (akc_confirmation_record_get_token (record)),
                                    "status", string_value (akc_confirmation_status_to_string (akc_confirmation_record_get_status (record))),
                                    NULL));
    }

  return akc_json_value_new_array ((AkcJsonValue * const *) items->pdata, items->len);
}

static AkcJsonValue *
upstream_calls (guint proposes,
                guint approves,
                guint denies)
{
  return object_take ("propose", akc_json_value_new_number (proposes),
                      "approve", akc_json_value_new_number (approves),
                      "deny", akc_json_value_new_number (denies),
                      NULL);
}

static gint64
member_int (AkcJsonValue *object,
            const char   *name,
            gint64        fallback)
{
  AkcJsonValue *member = akc_json_value_get_member (object, name);

  if (member == NULL)
    return fallback;

  g_assert_cmpint (akc_json_value_get_kind (member), ==, AKC_JSON_KIND_NUMBER);
  return (gint64) akc_json_value_get_number (member);
}

/* ------------------------------------------------------------------ */
/* §5.2 vectors                                                         */
/* ------------------------------------------------------------------ */

static void
run_confirmation_scenario (const AkcFixtureCase *fc,
                           gconstpointer         user_data)
{
  AkcJsonValue *input = fc->input;
  AkcJsonValue *upstream_options = akc_json_value_get_member (input, "upstream");
  AkcJsonValue *steps = akc_json_value_get_member (input, "steps");
  AkcJsonValue *expected_steps = akc_fixture_expect (fc, "steps");
  g_autoptr(AkcTestGatedSource) upstream = NULL;
  g_autoptr(Host) host = NULL;
  AkcChatSource *source;
  guint *proposes, *approves, *denies;
  g_autoptr(AkcActionConfirmation) coordinator = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *last = NULL;
  Clock clock = { member_int (input, "clockStart", 0) };
  Ids ids = { akc_json_value_get_member (input, "ids"), 0 };

  /* An upstream that fails or does not gate is the fake; any other is a
   * real source. */
  if (upstream_options != NULL)
    {
      upstream = akc_test_gated_source_new ();
      upstream->approve_failures = member_int (upstream_options, "approveFailures", 0);
      upstream->deny_failures = member_int (upstream_options, "denyFailures", 0);
      upstream->ungated = g_strcmp0 (akc_test_member_string (upstream_options, "proposeStatus"), "pending") == 0;
      source = AKC_CHAT_SOURCE (upstream);
      proposes = &upstream->proposes;
      approves = &upstream->approves;
      denies = &upstream->denies;
    }
  else
    {
      host = host_new ();
      source = HOST_SOURCE (host);
      proposes = &host->proposes;
      approves = &host->approves;
      denies = &host->denies;
    }

  coordinator = akc_action_confirmation_new (akc_test_member_string (input, "sessionId"),
                                             source,
                                             member_int (input, "ttlMs", AKC_ACTION_CONFIRMATION_DEFAULT_TTL_MS),
                                             NULL, NULL, &error);
  if (akc_fixture_expect (fc, "createError") != NULL)
    {
      g_autoptr(AkcJsonValue) actual = NULL;

      g_assert_null (coordinator);
      g_assert_nonnull (error);
      actual = error_json (error);
      akc_assert_json_equal (actual, akc_fixture_expect (fc, "createError"));
      return;
    }
  g_assert_no_error (error);
  g_assert_nonnull (coordinator);

  akc_action_confirmation_set_clock (coordinator, clock_now, &clock, NULL);
  akc_action_confirmation_set_id_func (coordinator, next_id, &ids, NULL);

  g_assert_cmpuint (akc_json_value_get_length (steps), ==, akc_json_value_get_length (expected_steps));
  for (gsize i = 0; i < akc_json_value_get_length (steps); i++)
    {
      AkcJsonValue *step = akc_json_value_get_element (steps, i);
      AkcJsonValue *op;
      g_autoptr(AkcJsonValue) result = NULL;
      g_autoptr(AkcJsonValue) actual = NULL;
      const char *token = NULL;

      clock.now += member_int (step, "advanceMs", 0);

      if ((op = akc_json_value_get_member (step, "propose")) != NULL)
        {
          g_autoptr(AkcConfirmationRecord) record = NULL;

          record = propose (coordinator, akc_test_member_string (op, "name"),
                            akc_json_value_get_member (op, "input"), &error);
          result = result_json (record, error);
          if (record != NULL)
            {
              g_free (last);
              last = g_strdup (akc_confirmation_record_get_token (record));
            }
        }
      else
        {
          const char *name = (op = akc_json_value_get_member (step, "approve")) != NULL ? "approve"
                             : (op = akc_json_value_get_member (step, "reject")) != NULL ? "reject"
                             : (op = akc_json_value_get_member (step, "concurrentApprove")) != NULL ? "concurrentApprove"
                             : NULL;

          g_assert_nonnull (name);
          token = akc_test_member_string (op, "token");
          if (g_strcmp0 (token, "$last") == 0)
            token = last;

          if (strcmp (name, "approve") == 0)
            {
              g_autoptr(AkcConfirmationRecord) record = approve (coordinator, token,
                                                                 akc_test_member_string (op, "sessionId"), &error);

              result = result_json (record, error);
            }
          else if (strcmp (name, "reject") == 0)
            {
              g_autoptr(AkcConfirmationRecord) record = reject (coordinator, token,
                                                                akc_test_member_string (op, "sessionId"),
                                                                akc_test_member_string (op, "reason"), &error);

              result = result_json (record, error);
            }
          else
            {
              /* Two approvals in flight at once. */
              g_autoptr(GAsyncResult) first = NULL;
              g_autoptr(GAsyncResult) second = NULL;
              g_autoptr(AkcConfirmationRecord) a = NULL;
              g_autoptr(AkcConfirmationRecord) b = NULL;

              akc_action_confirmation_approve_async (coordinator, token, akc_test_member_string (op, "sessionId"),
                                                     NULL, on_result, &first);
              akc_action_confirmation_approve_async (coordinator, token, akc_test_member_string (op, "sessionId"),
                                                     NULL, on_result, &second);
              a = akc_action_confirmation_approve_finish (coordinator, await_result (&first), &error);
              g_assert_no_error (error);
              b = akc_action_confirmation_approve_finish (coordinator, await_result (&second), &error);
              g_assert_no_error (error);
              g_clear_object (&first);
              g_clear_object (&second);
              result = object_take ("value",
                                    akc_json_value_new_array ((AkcJsonValue *[]) {
                                        string_value (akc_confirmation_status_to_string (akc_confirmation_record_get_status (a))),
                                        string_value (akc_confirmation_status_to_string (akc_confirmation_record_get_status (b))),
                                      }, 2),
                                    NULL);
              /* The array took its own references. */
              for (guint k = 0; k < 2; k++)
                akc_json_value_unref (akc_json_value_get_element (akc_json_value_get_member (result, "value"), k));
            }
        }
      g_clear_error (&error);

      actual = object_take ("result", g_steal_pointer (&result),
                            "upstreamCalls", upstream_calls (*proposes, *approves, *denies),
                            "records", token_statuses (coordinator),
                            NULL);
      akc_assert_json_equal (actual, akc_json_value_get_element (expected_steps, i));
    }

  g_assert_finalize_object (g_steal_pointer (&coordinator));
}

static void
run_default_ids (const AkcFixtureCase *fc,
                 gconstpointer         user_data)
{
  g_autoptr(Host) upstream = host_new ();
  g_autoptr(AkcActionConfirmation) coordinator = NULL;
  g_autoptr(GPtrArray) items = g_ptr_array_new_with_free_func ((GDestroyNotify) akc_json_value_unref);
  g_autoptr(AkcJsonValue) actual = NULL;
  g_autoptr(GError) error = NULL;
  Clock clock = { member_int (fc->input, "clockStart", 0) };
  gint64 proposals = member_int (fc->input, "proposals", 0);
  gint64 step = member_int (fc->input, "clockStepMs", 0);

  coordinator = akc_action_confirmation_new ("session", HOST_SOURCE (upstream),
                                             AKC_ACTION_CONFIRMATION_DEFAULT_TTL_MS,
                                             NULL, NULL, &error);
  g_assert_no_error (error);
  akc_action_confirmation_set_clock (coordinator, clock_now, &clock, NULL);

  for (gint64 i = 0; i < proposals; i++)
    {
      g_autoptr(AkcConfirmationRecord) record = propose (coordinator, "write", NULL, &error);

      g_assert_no_error (error);
      g_ptr_array_add (items,
                       object_take ("token", string_value (akc_confirmation_record_get_token (record)),
                                    "toolCallId", string_value (akc_confirmation_record_get_tool_call_id (record)),
                                    "expiresAt", akc_json_value_new_number (akc_confirmation_record_get_expires_at (record)),
                                    NULL));
      clock.now += step;
    }

  actual = akc_json_value_new_array ((AkcJsonValue * const *) items->pdata, items->len);
  akc_assert_json_equal (actual, akc_fixture_expect (fc, "records"));
  g_assert_finalize_object (g_steal_pointer (&coordinator));
}

/* ------------------------------------------------------------------ */
/* §5.3 vectors                                                         */
/* ------------------------------------------------------------------ */

typedef struct
{
  const char *id;
} FixedId;

static char *
fixed_id (gpointer user_data)
{
  return g_strdup (((FixedId *) user_data)->id);
}

/* A client of the session: a coordinator over its own upstream, resumed
 * from the storage (records bound to the session, §5.3). */
static AkcActionConfirmation *
resume_client (SessionStorage *storage,
               const char     *session_id,
               AkcTestGatedSource   *upstream,
               Clock          *clock)
{
  g_autoptr(TestDurableStore) store = test_durable_store_resume (storage, session_id);
  g_autoptr(GPtrArray) records = g_ptr_array_new_with_free_func ((GDestroyNotify) akc_confirmation_record_unref);
  g_autoptr(GError) error = NULL;
  AkcActionConfirmation *coordinator;

  for (gsize i = 0; i < akc_json_value_get_length (store->confirmations); i++)
    {
      AkcConfirmationRecord *record =
        akc_confirmation_record_new_from_json (akc_json_value_get_element (store->confirmations, i),
                                               session_id, &error);

      g_assert_no_error (error);
      g_ptr_array_add (records, record);
    }

  coordinator = akc_action_confirmation_new (session_id, AKC_CHAT_SOURCE (upstream),
                                             AKC_ACTION_CONFIRMATION_DEFAULT_TTL_MS,
                                             records, AKC_CONFIRMATION_STORE (store), &error);
  g_assert_no_error (error);
  akc_action_confirmation_set_clock (coordinator, clock_now, clock, NULL);

  return coordinator;
}

static AkcConfirmationStatus
status_of (AkcActionConfirmation *coordinator,
           const char            *token)
{
  g_autoptr(AkcConfirmationRecord) record = akc_action_confirmation_get_by_token (coordinator, token);

  g_assert_nonnull (record);
  return akc_confirmation_record_get_status (record);
}

static AkcJsonValue *
status_json (AkcConfirmationRecord *record)
{
  return string_value (akc_confirmation_status_to_string (akc_confirmation_record_get_status (record)));
}

static void
run_durable_confirmation (const AkcFixtureCase *fc,
                          gconstpointer         user_data)
{
  AkcJsonValue *input = fc->input;
  AkcJsonValue *proposal = akc_json_value_get_member (input, "proposal");
  const char *plan = akc_test_member_string (input, "plan");
  const char *session_id = akc_test_member_string (input, "sessionId");
  g_autoptr(AkcTestGatedSource) upstream_a = akc_test_gated_source_new ();
  g_autoptr(AkcTestGatedSource) upstream_b = akc_test_gated_source_new ();
  g_autoptr(TestDurableStore) store = NULL;
  g_autoptr(AkcActionConfirmation) proposer = NULL;
  g_autoptr(AkcActionConfirmation) a = NULL;
  g_autoptr(AkcActionConfirmation) b = NULL;
  g_autoptr(AkcConfirmationRecord) proposed = NULL;
  g_autoptr(AkcJsonValue) outcome = NULL;
  g_autoptr(AkcJsonValue) calls = NULL;
  g_autoptr(GError) error = NULL;
  SessionStorage storage = { NULL, 0, 0 };
  FixedId id = { akc_test_member_string (input, "createId") };
  Clock clock = { member_int (input, "proposeClock", 0) };
  const char *token;

  g_assert_cmpstr (akc_test_member_string (input, "definitionId"), ==, "actions");
  upstream_a->call_id = g_strdup (akc_test_member_string (input, "upstreamToolCallId"));

  /* Client A proposes in a new session. */
  store = test_durable_store_resume (&storage, session_id);
  proposer = akc_action_confirmation_new (session_id, AKC_CHAT_SOURCE (upstream_a),
                                          AKC_ACTION_CONFIRMATION_DEFAULT_TTL_MS,
                                          NULL, AKC_CONFIRMATION_STORE (store), &error);
  g_assert_no_error (error);
  akc_action_confirmation_set_clock (proposer, clock_now, &clock, NULL);
  akc_action_confirmation_set_id_func (proposer, fixed_id, &id, NULL);
  proposed = propose (proposer, akc_test_member_string (proposal, "name"),
                      akc_json_value_get_member (proposal, "input"), &error);
  g_assert_no_error (error);
  token = akc_confirmation_record_get_token (proposed);
  akc_assert_json_equal (storage.snapshot, akc_fixture_expect (fc, "storedAfterPropose"));

  if (strcmp (plan, "restore") == 0)
    {
      g_autoptr(AkcConfirmationRecord) restored = NULL;
      g_autoptr(AkcConfirmationRecord) approved = NULL;
      g_autoptr(AkcConfirmationRecord) replay = NULL;
      g_autoptr(GPtrArray) records = NULL;

      /* A resumes: the restored record is bound to the session. */
      a = resume_client (&storage, session_id, upstream_a, &clock);
      records = akc_action_confirmation_get_snapshot (a);
      g_assert_cmpuint (records->len, ==, 1);
      restored = akc_confirmation_record_ref (g_ptr_array_index (records, 0));
      g_assert_cmpstr (akc_confirmation_record_get_session_id (restored), ==, session_id);
      g_assert_null (approve (a, token, "another-session", &error));
      g_assert_error (error, AKC_ERROR, AKC_ERROR_CONFIG_INVALID);
      g_clear_error (&error);

      approved = approve (a, token, session_id, &error);
      g_assert_no_error (error);

      /* B resumes after the approval: a terminal replay is inert. */
      b = resume_client (&storage, session_id, upstream_b, &clock);
      replay = approve (b, token, session_id, &error);
      g_assert_no_error (error);

      outcome = object_take ("restoredToken", string_value (akc_confirmation_record_get_token (restored)),
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
      AkcJsonValue *items[2];

      /* Both resume the same snapshot, then approve at once. */
      a = resume_client (&storage, session_id, upstream_a, &clock);
      b = resume_client (&storage, session_id, upstream_b, &clock);
      akc_action_confirmation_approve_async (a, token, session_id, NULL, on_result, &first);
      akc_action_confirmation_approve_async (b, token, session_id, NULL, on_result, &second);
      won = akc_action_confirmation_approve_finish (a, await_result (&first), &error);
      g_assert_no_error (error);
      lost = akc_action_confirmation_approve_finish (b, await_result (&second), &error);
      g_assert_null (lost);
      g_assert_error (error, TEST_SESSION_CONFLICT, 1);
      g_clear_object (&first);
      g_clear_object (&second);

      items[0] = object_take ("status", status_json (won), NULL);
      items[1] = object_take ("error", string_value (error->message), NULL);
      outcome = akc_json_value_new_array (items, 2);
      akc_json_value_unref (items[0]);
      akc_json_value_unref (items[1]);
      g_clear_error (&error);

      /* The loser's record did not move. */
      g_assert_cmpint (status_of (b, token), ==, AKC_CONFIRMATION_STATUS_PENDING);
    }
  else
    {
      g_autoptr(AkcConfirmationRecord) second = NULL;
      g_autofree char *first = NULL;
      AkcJsonValue *stored;

      g_assert_cmpstr (plan, ==, "crash");

      /* A resumes and its upstream fails after the processing claim. */
      a = resume_client (&storage, session_id, upstream_a, &clock);
      akc_test_gated_source_fail_approval (upstream_a, "network lost");
      g_assert_null (approve (a, token, session_id, &error));
      g_assert_nonnull (error);
      first = g_strdup (error->message);
      g_clear_error (&error);
      stored = akc_json_value_get_element (akc_json_value_get_member (storage.snapshot, "confirmations"), 0);

      /* B resumes and approves again: a no-op. */
      b = resume_client (&storage, session_id, upstream_b, &clock);
      second = approve (b, token, session_id, &error);
      g_assert_no_error (error);

      outcome = object_take ("firstAttempt", string_value (first),
                             "statusAfterFailure", string_value (akc_test_member_string (stored, "status")),
                             "secondAttempt", status_json (second),
                             NULL);
    }

  akc_assert_json_equal (outcome, akc_fixture_expect (fc, "outcome"));
  calls = object_take ("approveA", akc_json_value_new_number (upstream_a->approves),
                       "approveB", akc_json_value_new_number (upstream_b->approves),
                       "deny", akc_json_value_new_number (upstream_a->denies + upstream_b->denies),
                       NULL);
  akc_assert_json_equal (calls, akc_fixture_expect (fc, "upstreamCalls"));
  akc_assert_json_equal (akc_json_value_get_member (storage.snapshot, "confirmations"),
                         akc_fixture_expect (fc, "finalStoredConfirmations"));

  g_assert_finalize_object (g_steal_pointer (&proposer));
  if (a != NULL)
    g_assert_finalize_object (g_steal_pointer (&a));
  if (b != NULL)
    g_assert_finalize_object (g_steal_pointer (&b));
  g_clear_pointer (&storage.snapshot, akc_json_value_unref);
}

/* ------------------------------------------------------------------ */
/* Own cases                                                            */
/* ------------------------------------------------------------------ */

static AkcActionConfirmation *
new_coordinator (AkcChatSource        *chat,
                 AkcConfirmationStore *store,
                 Clock                *clock)
{
  g_autoptr(GError) error = NULL;
  AkcActionConfirmation *coordinator;

  coordinator = akc_action_confirmation_new ("session", chat, 1000, NULL, store, &error);
  g_assert_no_error (error);
  g_assert_nonnull (coordinator);
  akc_action_confirmation_set_clock (coordinator, clock_now, clock, NULL);

  return coordinator;
}

/* Concurrent approvals share one operation: the upstream approves once and
 * both callers get the approved record, with and without a claim hook. */
static void
test_concurrent_approve_runs_upstream_once (gconstpointer data)
{
  gboolean claiming = GPOINTER_TO_INT (data);
  g_autoptr(Host) upstream = host_new ();
  g_autoptr(GObject) store = g_object_new (claiming ? TEST_TYPE_CLAIMING_STORE : TEST_TYPE_STORE, NULL);
  g_autoptr(AkcActionConfirmation) coordinator = NULL;
  g_autoptr(AkcConfirmationRecord) record = NULL;
  g_autoptr(AkcConfirmationRecord) a = NULL;
  g_autoptr(AkcConfirmationRecord) b = NULL;
  g_autoptr(AkcConfirmationRecord) c = NULL;
  g_autoptr(GAsyncResult) first = NULL;
  g_autoptr(GAsyncResult) second = NULL;
  g_autoptr(GAsyncResult) third = NULL;
  g_autoptr(GError) error = NULL;
  Clock clock = { 0 };
  const char *token;

  coordinator = new_coordinator (HOST_SOURCE (upstream), AKC_CONFIRMATION_STORE (store), &clock);
  record = propose (coordinator, "send-email", NULL, &error);
  g_assert_no_error (error);
  token = akc_confirmation_record_get_token (record);

  akc_action_confirmation_approve_async (coordinator, token, "session", NULL, on_result, &first);
  /* The claim is being stored: nothing has run upstream yet. */
  g_assert_cmpuint (upstream->approves, ==, 0);
  akc_action_confirmation_approve_async (coordinator, token, "session", NULL, on_result, &second);
  akc_action_confirmation_approve_async (coordinator, token, "session", NULL, on_result, &third);

  a = akc_action_confirmation_approve_finish (coordinator, await_result (&first), &error);
  g_assert_no_error (error);
  b = akc_action_confirmation_approve_finish (coordinator, await_result (&second), &error);
  g_assert_no_error (error);
  c = akc_action_confirmation_approve_finish (coordinator, await_result (&third), &error);
  g_assert_no_error (error);
  g_clear_object (&first);
  g_clear_object (&second);
  g_clear_object (&third);

  g_assert_cmpuint (upstream->approves, ==, 1);
  g_assert_cmpuint (upstream->denies, ==, 0);
  g_assert_cmpint (akc_confirmation_record_get_status (a), ==, AKC_CONFIRMATION_STATUS_APPROVED);
  g_assert_true (akc_confirmation_record_equal (a, b));
  g_assert_true (akc_confirmation_record_equal (a, c));
  /* The proposal and the record itself are unchanged. */
  g_assert_cmpint (akc_confirmation_record_get_status (record), ==, AKC_CONFIRMATION_STATUS_PENDING);

  if (claiming)
    {
      TestStore *inner = TEST_CLAIMING_STORE (store)->store;

      /* The store claimed each status once; only the proposal was saved. */
      g_assert_cmpuint (inner->claims->len, ==, 2);
      g_assert_cmpstr (g_ptr_array_index (inner->claims, 0), ==, "confirm-1-0:approving");
      g_assert_cmpstr (g_ptr_array_index (inner->claims, 1), ==, "confirm-1-0:approved");
      g_assert_cmpuint (inner->saves, ==, 1);
    }
  else
    {
      TestStore *plain = TEST_STORE (store);

      /* Proposal, approving, approved. */
      g_assert_cmpuint (plain->saves, ==, 3);
      g_assert_cmpuint (plain->saved->len, ==, 1);
      g_assert_cmpint (akc_confirmation_record_get_status (g_ptr_array_index (plain->saved, 0)),
                       ==, AKC_CONFIRMATION_STATUS_APPROVED);
    }

  g_assert_finalize_object (g_steal_pointer (&coordinator));
}

/* An approval and a rejection of one token in flight at once: the
 * rejection waits, then sees the approved record; the upstream is called
 * once and no second claim is made. */
static void
test_approve_and_reject_at_once (void)
{
  g_autoptr(Host) upstream = host_new ();
  g_autoptr(TestClaimingStore) store = g_object_new (TEST_TYPE_CLAIMING_STORE, NULL);
  g_autoptr(AkcActionConfirmation) coordinator = NULL;
  g_autoptr(AkcConfirmationRecord) record = NULL;
  g_autoptr(AkcConfirmationRecord) approved = NULL;
  g_autoptr(AkcConfirmationRecord) rejected = NULL;
  g_autoptr(GAsyncResult) first = NULL;
  g_autoptr(GAsyncResult) second = NULL;
  g_autoptr(GError) error = NULL;
  Clock clock = { 0 };

  coordinator = new_coordinator (HOST_SOURCE (upstream), AKC_CONFIRMATION_STORE (store), &clock);
  record = propose (coordinator, "charge", NULL, &error);
  g_assert_no_error (error);

  akc_action_confirmation_approve_async (coordinator, "confirm-1-0", "session", NULL, on_result, &first);
  akc_action_confirmation_reject_async (coordinator, "confirm-1-0", "session", "no", NULL, on_result, &second);
  approved = akc_action_confirmation_approve_finish (coordinator, await_result (&first), &error);
  g_assert_no_error (error);
  rejected = akc_action_confirmation_reject_finish (coordinator, await_result (&second), &error);
  g_assert_no_error (error);
  g_clear_object (&first);
  g_clear_object (&second);

  g_assert_cmpint (akc_confirmation_record_get_status (approved), ==, AKC_CONFIRMATION_STATUS_APPROVED);
  g_assert_cmpint (akc_confirmation_record_get_status (rejected), ==, AKC_CONFIRMATION_STATUS_APPROVED);
  g_assert_cmpuint (upstream->approves, ==, 1);
  g_assert_cmpuint (upstream->denies, ==, 0);
  g_assert_cmpuint (store->store->claims->len, ==, 2);

  /* The other way round: the approval waits for the rejection. */
  g_clear_pointer (&record, akc_confirmation_record_unref);
  g_clear_pointer (&approved, akc_confirmation_record_unref);
  g_clear_pointer (&rejected, akc_confirmation_record_unref);
  record = propose (coordinator, "charge", NULL, &error);
  g_assert_no_error (error);
  akc_action_confirmation_reject_async (coordinator, "confirm-2-0", "session", "no", NULL, on_result, &second);
  akc_action_confirmation_approve_async (coordinator, "confirm-2-0", "session", NULL, on_result, &first);
  approved = akc_action_confirmation_approve_finish (coordinator, await_result (&first), &error);
  g_assert_no_error (error);
  rejected = akc_action_confirmation_reject_finish (coordinator, await_result (&second), &error);
  g_assert_no_error (error);
  g_clear_object (&first);
  g_clear_object (&second);

  g_assert_cmpint (akc_confirmation_record_get_status (approved), ==, AKC_CONFIRMATION_STATUS_REJECTED);
  g_assert_cmpint (akc_confirmation_record_get_status (rejected), ==, AKC_CONFIRMATION_STATUS_REJECTED);
  g_assert_cmpuint (upstream->approves, ==, 1);
  g_assert_cmpuint (upstream->denies, ==, 1);
  g_assert_cmpuint (store->store->claims->len, ==, 4);

  g_assert_finalize_object (g_steal_pointer (&coordinator));
}

/* With a claim hook, an upstream failure leaves the processing claim: the
 * record stays approving and later calls never reach the upstream. */
static void
test_upstream_failure_with_claim_hook (void)
{
  g_autoptr(AkcTestGatedSource) upstream = akc_test_gated_source_new ();
  g_autoptr(TestClaimingStore) store = g_object_new (TEST_TYPE_CLAIMING_STORE, NULL);
  g_autoptr(AkcActionConfirmation) coordinator = NULL;
  g_autoptr(AkcConfirmationRecord) record = NULL;
  g_autoptr(AkcConfirmationRecord) again = NULL;
  g_autoptr(AkcConfirmationRecord) rejected = NULL;
  g_autoptr(GError) error = NULL;
  Clock clock = { 0 };

  coordinator = new_coordinator (AKC_CHAT_SOURCE (upstream), AKC_CONFIRMATION_STORE (store), &clock);
  record = propose (coordinator, "charge", NULL, &error);
  g_assert_no_error (error);

  upstream->approve_failures = 1;
  g_assert_null (approve (coordinator, "confirm-1-0", "session", &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_FAILED);
  g_assert_cmpstr (error->message, ==, "temporary");
  g_clear_error (&error);
  g_assert_cmpint (status_of (coordinator, "confirm-1-0"), ==, AKC_CONFIRMATION_STATUS_APPROVING);
  g_assert_cmpstr (g_hash_table_lookup (store->store->claimed, "confirm-1-0"), ==, "approving");

  again = approve (coordinator, "confirm-1-0", "session", &error);
  g_assert_no_error (error);
  g_assert_cmpint (akc_confirmation_record_get_status (again), ==, AKC_CONFIRMATION_STATUS_APPROVING);
  rejected = reject (coordinator, "confirm-1-0", "session", "no", &error);
  g_assert_no_error (error);
  g_assert_cmpint (akc_confirmation_record_get_status (rejected), ==, AKC_CONFIRMATION_STATUS_APPROVING);
  g_assert_cmpuint (upstream->approves, ==, 1);
  g_assert_cmpuint (upstream->denies, ==, 0);
  g_assert_cmpuint (store->store->claims->len, ==, 1);

  g_assert_finalize_object (g_steal_pointer (&coordinator));
}

/* Without a claim hook, an upstream failure makes the record pending
 * again, stored, and the next approval reaches the upstream. */
static void
test_upstream_failure_without_claim_hook (void)
{
  g_autoptr(AkcTestGatedSource) upstream = akc_test_gated_source_new ();
  g_autoptr(TestStore) store = g_object_new (TEST_TYPE_STORE, NULL);
  g_autoptr(AkcActionConfirmation) coordinator = NULL;
  g_autoptr(AkcConfirmationRecord) record = NULL;
  g_autoptr(AkcConfirmationRecord) approved = NULL;
  g_autoptr(GError) error = NULL;
  Clock clock = { 0 };

  coordinator = new_coordinator (AKC_CHAT_SOURCE (upstream), AKC_CONFIRMATION_STORE (store), &clock);
  record = propose (coordinator, "charge", NULL, &error);
  g_assert_no_error (error);

  upstream->approve_failures = 1;
  g_assert_null (approve (coordinator, "confirm-1-0", "session", &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_FAILED);
  g_clear_error (&error);
  g_assert_cmpint (status_of (coordinator, "confirm-1-0"), ==, AKC_CONFIRMATION_STATUS_PENDING);
  g_assert_cmpint (akc_confirmation_record_get_status (g_ptr_array_index (store->saved, 0)),
                   ==, AKC_CONFIRMATION_STATUS_PENDING);

  approved = approve (coordinator, "confirm-1-0", "session", &error);
  g_assert_no_error (error);
  g_assert_cmpint (akc_confirmation_record_get_status (approved), ==, AKC_CONFIRMATION_STATUS_APPROVED);
  g_assert_cmpuint (upstream->approves, ==, 2);

  g_assert_finalize_object (g_steal_pointer (&coordinator));
}

/* A claim another client won, or a claim that cannot be stored, fails
 * before the upstream is called and leaves the record pending. */
static void
test_claim_lost_or_failed (void)
{
  g_autoptr(Host) upstream = host_new ();
  g_autoptr(TestClaimingStore) store = g_object_new (TEST_TYPE_CLAIMING_STORE, NULL);
  g_autoptr(AkcActionConfirmation) coordinator = NULL;
  g_autoptr(AkcConfirmationRecord) record = NULL;
  g_autoptr(GError) error = NULL;
  Clock clock = { 0 };

  coordinator = new_coordinator (HOST_SOURCE (upstream), AKC_CONFIRMATION_STORE (store), &clock);
  record = propose (coordinator, "charge", NULL, &error);
  g_assert_no_error (error);

  store->store->refuse_claims = TRUE;
  g_assert_null (approve (coordinator, "confirm-1-0", "session", &error));
  g_assert_error (error, AKC_ERROR, AKC_ERROR_CONFIG_INVALID);
  g_assert_cmpstr (error->message, ==, "Action confirmation was already resolved by another client.");
  g_clear_error (&error);
  g_assert_null (reject (coordinator, "confirm-1-0", "session", NULL, &error));
  g_assert_error (error, AKC_ERROR, AKC_ERROR_CONFIG_INVALID);
  g_clear_error (&error);
  store->store->refuse_claims = FALSE;

  store->store->claim_failures = 1;
  g_assert_null (approve (coordinator, "confirm-1-0", "session", &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_NO_SPACE);
  g_clear_error (&error);

  g_assert_cmpint (status_of (coordinator, "confirm-1-0"), ==, AKC_CONFIRMATION_STATUS_PENDING);
  g_assert_cmpuint (upstream->approves, ==, 0);
  g_assert_cmpuint (upstream->denies, ==, 0);

  g_assert_finalize_object (g_steal_pointer (&coordinator));
}

/* Without a claim hook, a claim that cannot be saved is undone: the record
 * is pending again and the upstream was never called. A failed save after
 * a proposal is reported and the record is kept (the upstream call exists). */
static void
test_save_failure (void)
{
  g_autoptr(Host) upstream = host_new ();
  g_autoptr(TestStore) store = g_object_new (TEST_TYPE_STORE, NULL);
  g_autoptr(AkcActionConfirmation) coordinator = NULL;
  g_autoptr(AkcConfirmationRecord) record = NULL;
  g_autoptr(AkcConfirmationRecord) approved = NULL;
  g_autoptr(GError) error = NULL;
  Clock clock = { 0 };

  coordinator = new_coordinator (HOST_SOURCE (upstream), AKC_CONFIRMATION_STORE (store), &clock);
  store->save_failures = 1;
  g_assert_null (propose (coordinator, "charge", NULL, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_NO_SPACE);
  g_clear_error (&error);
  g_assert_cmpint (status_of (coordinator, "confirm-1-0"), ==, AKC_CONFIRMATION_STATUS_PENDING);

  store->save_failures = 1;
  g_assert_null (approve (coordinator, "confirm-1-0", "session", &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_NO_SPACE);
  g_clear_error (&error);
  g_assert_cmpint (status_of (coordinator, "confirm-1-0"), ==, AKC_CONFIRMATION_STATUS_PENDING);
  g_assert_cmpuint (upstream->approves, ==, 0);
  g_assert_cmpint (akc_confirmation_record_get_status (g_ptr_array_index (store->saved, 0)),
                   ==, AKC_CONFIRMATION_STATUS_PENDING);

  approved = approve (coordinator, "confirm-1-0", "session", &error);
  g_assert_no_error (error);
  g_assert_cmpint (akc_confirmation_record_get_status (approved), ==, AKC_CONFIRMATION_STATUS_APPROVED);
  g_assert_cmpuint (upstream->approves, ==, 1);

  g_assert_finalize_object (g_steal_pointer (&coordinator));
}

/* A cancelled operation does nothing. */
static void
test_cancelled (void)
{
  g_autoptr(Host) upstream = host_new ();
  g_autoptr(AkcActionConfirmation) coordinator = NULL;
  g_autoptr(AkcConfirmationRecord) record = NULL;
  g_autoptr(GCancellable) cancellable = g_cancellable_new ();
  g_autoptr(GAsyncResult) proposed = NULL;
  g_autoptr(GAsyncResult) approved = NULL;
  g_autoptr(GError) error = NULL;
  Clock clock = { 0 };

  coordinator = new_coordinator (HOST_SOURCE (upstream), NULL, &clock);
  record = propose (coordinator, "charge", NULL, &error);
  g_assert_no_error (error);

  g_cancellable_cancel (cancellable);
  akc_action_confirmation_propose_async (coordinator, "charge", NULL, cancellable, on_result, &proposed);
  g_assert_null (akc_action_confirmation_propose_finish (coordinator, await_result (&proposed), &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  g_clear_error (&error);
  akc_action_confirmation_approve_async (coordinator, "confirm-1-0", "session", cancellable, on_result, &approved);
  g_assert_null (akc_action_confirmation_approve_finish (coordinator, await_result (&approved), &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);

  g_assert_cmpuint (upstream->proposes, ==, 1);
  g_assert_cmpuint (upstream->approves, ==, 0);
  g_assert_cmpint (status_of (coordinator, "confirm-1-0"), ==, AKC_CONFIRMATION_STATUS_PENDING);

  /* The results hold the coordinator. */
  g_clear_object (&proposed);
  g_clear_object (&approved);
  g_assert_finalize_object (g_steal_pointer (&coordinator));
}

/* Restored records: bound to the session given, inert for another one,
 * validated, unique. */
static void
test_initial_records (void)
{
  g_autoptr(AkcTestGatedSource) upstream = akc_test_gated_source_new ();
  g_autoptr(AkcActionConfirmation) coordinator = NULL;
  g_autoptr(AkcActionConfirmation) duplicate = NULL;
  g_autoptr(AkcConfirmationRecord) stored = NULL;
  g_autoptr(AkcConfirmationRecord) found = NULL;
  g_autoptr(AkcConfirmationRecord) approved = NULL;
  g_autoptr(AkcJsonValue) value = NULL;
  g_autoptr(AkcJsonValue) bad = NULL;
  g_autoptr(AkcJsonValue) round_trip = NULL;
  g_autoptr(GPtrArray) records = g_ptr_array_new_with_free_func ((GDestroyNotify) akc_confirmation_record_unref);
  g_autoptr(GError) error = NULL;
  Clock clock = { 10 };

  value = akc_json_value_parse ("{\"token\":\"confirm-one\",\"action\":\"charge\",\"input\":{\"amount\":5},"
                                "\"toolCallId\":\"call-1\",\"expiresAt\":300001,\"status\":\"pending\"}", -1, &error);
  g_assert_no_error (error);
  stored = akc_confirmation_record_new_from_json (value, "shared", &error);
  g_assert_no_error (error);
  g_assert_cmpstr (akc_confirmation_record_get_session_id (stored), ==, "shared");
  round_trip = akc_confirmation_record_to_json (stored, FALSE);
  g_assert_true (akc_json_value_equal (round_trip, value));

  bad = akc_json_value_parse ("{\"token\":\"confirm-one\",\"action\":\"charge\",\"input\":[],"
                              "\"toolCallId\":\"call-1\",\"expiresAt\":1,\"status\":\"pending\"}", -1, &error);
  g_assert_no_error (error);
  g_assert_null (akc_confirmation_record_new_from_json (bad, "shared", &error));
  g_assert_error (error, AKC_ERROR, AKC_ERROR_CONFIG_INVALID);
  g_assert_cmpstr (error->message, ==, "Action confirmation options are invalid.");
  g_clear_error (&error);
  g_assert_null (akc_confirmation_record_new ("confirm one", "shared", "charge", value, "call-1", 1,
                                              AKC_CONFIRMATION_STATUS_PENDING, &error));
  g_assert_error (error, AKC_ERROR, AKC_ERROR_CONFIG_INVALID);
  g_clear_error (&error);

  g_ptr_array_add (records, akc_confirmation_record_ref (stored));
  coordinator = akc_action_confirmation_new ("shared", AKC_CHAT_SOURCE (upstream), 1000, records, NULL, &error);
  g_assert_no_error (error);
  akc_action_confirmation_set_clock (coordinator, clock_now, &clock, NULL);

  found = akc_action_confirmation_get_by_tool_call (coordinator, "call-1");
  g_assert_true (found == stored);
  g_assert_null (akc_action_confirmation_get_by_tool_call (coordinator, "call-2"));

  /* The restored call is known upstream under its own id. */
  g_hash_table_insert (upstream->calls, g_strdup ("call-1"),
                       akc_tool_call_new ("call-1", "charge", NULL, AKC_TOOL_CALL_STATUS_REQUIRES_CONFIRMATION));
  g_assert_null (approve (coordinator, "confirm-one", "other", &error));
  g_assert_error (error, AKC_ERROR, AKC_ERROR_CONFIG_INVALID);
  g_assert_cmpstr (error->message, ==, "Action confirmation token is invalid for this session.");
  g_clear_error (&error);
  approved = approve (coordinator, "confirm-one", "shared", &error);
  g_assert_no_error (error);
  g_assert_cmpint (akc_confirmation_record_get_status (approved), ==, AKC_CONFIRMATION_STATUS_APPROVED);
  g_assert_cmpuint (upstream->approves, ==, 1);

  /* Two records with one token are not a valid start. */
  g_ptr_array_add (records, akc_confirmation_record_ref (stored));
  duplicate = akc_action_confirmation_new ("shared", AKC_CHAT_SOURCE (upstream), 1000, records, NULL, &error);
  g_assert_null (duplicate);
  g_assert_error (error, AKC_ERROR, AKC_ERROR_CONFIG_INVALID);

  g_assert_finalize_object (g_steal_pointer (&coordinator));
}

/* Against the real controller: a rejected or expired action never runs its
 * tool; an approved one runs it once. */
typedef struct
{
  guint runs;
} Runs;

static char *
count_tool (AkcTool       *tool,
            AkcJsonValue  *arguments,
            gpointer       user_data,
            GError       **error)
{
  ((Runs *) user_data)->runs++;
  return g_strdup ("sent");
}

static void
test_denied_or_expired_never_executes (void)
{
  g_autoptr(AkcAdapter) adapter = akc_scripted_adapter_new ();
  AkcScriptedAdapter *script = AKC_SCRIPTED_ADAPTER (adapter);
  g_autoptr(AkcChat) chat = akc_chat_new (adapter);
  g_autoptr(AkcTool) tool = NULL;
  g_autoptr(AkcActionConfirmation) coordinator = NULL;
  g_autoptr(AkcConfirmationRecord) first = NULL;
  g_autoptr(AkcConfirmationRecord) second = NULL;
  g_autoptr(AkcConfirmationRecord) third = NULL;
  g_autoptr(AkcConfirmationRecord) result = NULL;
  g_autoptr(AkcJsonValue) input = akc_json_value_parse ("{\"to\":\"ada@example.com\"}", -1, NULL);
  g_autoptr(GError) error = NULL;
  Clock clock = { 0 };
  Runs runs = { 0 };
  AkcToolCall *call;

  tool = akc_tool_new ("send-email", TRUE, count_tool, &runs, NULL);
  akc_chat_add_tool (chat, tool);
  coordinator = new_coordinator (AKC_CHAT_SOURCE (chat), NULL, &clock);

  /* An unknown tool and a tool without confirmation pass the upstream's
   * errors through and record nothing. */
  g_assert_null (propose (coordinator, "unknown", input, &error));
  g_assert_error (error, AKC_ERROR, AKC_ERROR_TOOL_NOT_FOUND);
  g_clear_error (&error);

  /* Rejected: the tool never runs; the conversation continues with the
   * denial. */
  first = propose (coordinator, "send-email", input, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (runs.runs, ==, 0);
  g_assert_true (akc_json_value_equal (akc_confirmation_record_get_input (first), input));
  akc_test_script_reply (script, "Not sent.");
  result = reject (coordinator, akc_confirmation_record_get_token (first), "session", "not now", &error);
  g_assert_no_error (error);
  g_assert_cmpint (akc_confirmation_record_get_status (result), ==, AKC_CONFIRMATION_STATUS_REJECTED);
  wait_until_idle (AKC_CHAT_SOURCE (chat));
  call = akc_test_find_tool_call (AKC_CHAT_SOURCE (chat), akc_confirmation_record_get_tool_call_id (first));
  g_assert_cmpint (akc_tool_call_get_status (call), ==, AKC_TOOL_CALL_STATUS_ERROR);
  g_assert_cmpstr (akc_tool_call_get_error (call), ==, "Permission denied: not now");
  g_clear_pointer (&result, akc_confirmation_record_unref);

  /* Approving a rejected record is inert. */
  result = approve (coordinator, akc_confirmation_record_get_token (first), "session", &error);
  g_assert_no_error (error);
  g_assert_cmpint (akc_confirmation_record_get_status (result), ==, AKC_CONFIRMATION_STATUS_REJECTED);
  g_clear_pointer (&result, akc_confirmation_record_unref);
  g_assert_cmpuint (runs.runs, ==, 0);

  /* Expired: approving after the time to live denies the call instead. */
  clock.now = 5;
  second = propose (coordinator, "send-email", input, &error);
  g_assert_no_error (error);
  clock.now = akc_confirmation_record_get_expires_at (second);
  akc_test_script_reply (script, "Too late.");
  result = approve (coordinator, akc_confirmation_record_get_token (second), "session", &error);
  g_assert_no_error (error);
  g_assert_cmpint (akc_confirmation_record_get_status (result), ==, AKC_CONFIRMATION_STATUS_EXPIRED);
  wait_until_idle (AKC_CHAT_SOURCE (chat));
  call = akc_test_find_tool_call (AKC_CHAT_SOURCE (chat), akc_confirmation_record_get_tool_call_id (second));
  g_assert_cmpint (akc_tool_call_get_status (call), ==, AKC_TOOL_CALL_STATUS_ERROR);
  g_assert_cmpstr (akc_tool_call_get_error (call), ==, "Permission denied: confirmation expired");
  g_clear_pointer (&result, akc_confirmation_record_unref);
  g_assert_cmpuint (runs.runs, ==, 0);

  /* Approved in time: the tool runs once, and only once. */
  third = propose (coordinator, "send-email", input, &error);
  g_assert_no_error (error);
  akc_test_script_reply (script, "Sent.");
  result = approve (coordinator, akc_confirmation_record_get_token (third), "session", &error);
  g_assert_no_error (error);
  g_assert_cmpint (akc_confirmation_record_get_status (result), ==, AKC_CONFIRMATION_STATUS_APPROVED);
  wait_until_idle (AKC_CHAT_SOURCE (chat));
  g_clear_pointer (&result, akc_confirmation_record_unref);
  result = approve (coordinator, akc_confirmation_record_get_token (third), "session", &error);
  g_assert_no_error (error);
  g_assert_cmpuint (runs.runs, ==, 1);
  call = akc_test_find_tool_call (AKC_CHAT_SOURCE (chat), akc_confirmation_record_get_tool_call_id (third));
  g_assert_cmpint (akc_tool_call_get_status (call), ==, AKC_TOOL_CALL_STATUS_COMPLETE);

  g_assert_finalize_object (g_steal_pointer (&coordinator));
  g_assert_finalize_object (g_steal_pointer (&chat));
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);

  akc_fixture_add_tests ("application/actions.json", "/action-confirmation/fixtures",
                         "confirmationScenario", run_confirmation_scenario, NULL);
  akc_fixture_add_tests ("application/actions.json", "/action-confirmation/fixtures",
                         "defaultIds", run_default_ids, NULL);
  akc_fixture_add_tests ("application/actions.json", "/action-confirmation/fixtures",
                         "durableConfirmation", run_durable_confirmation, NULL);

  g_test_add_data_func ("/action-confirmation/concurrent-approve-runs-upstream-once/store",
                        GINT_TO_POINTER (FALSE), test_concurrent_approve_runs_upstream_once);
  g_test_add_data_func ("/action-confirmation/concurrent-approve-runs-upstream-once/claiming-store",
                        GINT_TO_POINTER (TRUE), test_concurrent_approve_runs_upstream_once);
  g_test_add_func ("/action-confirmation/approve-and-reject-at-once", test_approve_and_reject_at_once);
  g_test_add_func ("/action-confirmation/upstream-failure/with-claim-hook", test_upstream_failure_with_claim_hook);
  g_test_add_func ("/action-confirmation/upstream-failure/without-claim-hook", test_upstream_failure_without_claim_hook);
  g_test_add_func ("/action-confirmation/claim-lost-or-failed", test_claim_lost_or_failed);
  g_test_add_func ("/action-confirmation/save-failure", test_save_failure);
  g_test_add_func ("/action-confirmation/cancelled", test_cancelled);
  g_test_add_func ("/action-confirmation/initial-records", test_initial_records);
  g_test_add_func ("/action-confirmation/denied-or-expired-never-executes", test_denied_or_expired_never_executes);

  return g_test_run ();
}
