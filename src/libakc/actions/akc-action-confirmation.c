/* akc-action-confirmation.c
 *
 * SPDX-License-Identifier: MIT
 */

#include "config.h"

#include <string.h>

#include "akc-action-confirmation.h"
#include "akc-confirmation-record-private.h"
#include "akc-error.h"
#include "akc-text-private.h"
#include "akc-json-private.h"

/**
 * AkcActionConfirmation:
 *
 * The confirmation coordinator of typed actions ([application §5.2](wire-formats.html#application-5)).
 *
 * A typed action (`{name, input}`, from a choice) names a tool of the
 * upstream [iface@ChatSource] that requires confirmation. Proposing it
 * creates an upstream tool call that waits in
 * %AKC_TOOL_CALL_STATUS_REQUIRES_CONFIRMATION, and a
 * [struct@ConfirmationRecord] bound to the coordinator's session: nothing
 * happens before approval.
 *
 * - [method@ActionConfirmation.propose_async] makes an id (by default
 *   `«sequence in base 36»-«now in base 36»`, for example `1-loyw3v28`),
 *   proposes the upstream call `app-«id»` and records the token
 *   `confirm-«id»`, pending until now + the time to live (or rejected
 *   when the upstream did not gate the call).
 * - [method@ActionConfirmation.approve_async] approves a pending record,
 *   or expires it when `now >= expiresAt`;
 *   [method@ActionConfirmation.reject_async] rejects it (expiry does not
 *   matter then). Both are idempotent: a record that is not pending is
 *   returned unchanged. Concurrent approvals of one token share one
 *   operation and one upstream call, and get the same result; a call that
 *   comes while another kind of operation runs for the token waits for it
 *   and then sees the record as it is, so an approval and a rejection
 *   never both reach the upstream. A token
 *   that is unknown or bound to another session fails with
 *   %AKC_ERROR_CONFIG_INVALID, “Action confirmation token is invalid for
 *   this session.”
 * - Each status change is a claim: `approving` then `approved`,
 *   `rejecting` then `rejected`, `expiring` then `expired`, through the
 *   [iface@ConfirmationStore] when there is one. When the upstream fails,
 *   the record returns to pending, unless the store claims statuses
 *   itself: then the processing status stays, and later calls return it
 *   without calling the upstream again.
 *
 * ## Design
 *
 * The operations are asynchronous (`_async`/`_finish`) because the store
 * hooks persist, away from the main thread, and are awaited; the upstream
 * calls are those of [iface@ChatSource] and run on the main context.
 * `now` and `createId` of the reference are injectable
 * ([method@ActionConfirmation.set_clock],
 * [method@ActionConfirmation.set_id_func]). A cancellable is honoured
 * until the operation starts (before the first claim or the upstream
 * proposal); after that the operation runs to its end, so the records,
 * the store and the upstream never disagree.
 *
 * Since: 0.1
 */

#define OPTIONS_INVALID "Action confirmation options are invalid."
#define ID_INVALID "Action confirmation id is invalid."
#define TOKEN_INVALID "Action confirmation token is invalid for this session."
#define ALREADY_RESOLVED "Action confirmation was already resolved by another client."
#define EXPIRED_REASON "confirmation expired"
#define MAX_ID_LENGTH 120

struct _AkcActionConfirmation
{
  GObject                parent_instance;

  char                  *session_id;
  AkcChatSource         *chat;
  gint64                 ttl_ms;
  AkcConfirmationStore  *store;

  AkcClockFunc           clock;
  gpointer               clock_data;
  GDestroyNotify         clock_destroy;

  AkcConfirmationIdFunc  create_id;
  gpointer               create_id_data;
  GDestroyNotify         create_id_destroy;
  guint64                sequence;

  /* Every record in insertion order, and where each token and tool call
   * is in it (index + 1). */
  GPtrArray             *records;
  GHashTable            *by_token;
  GHashTable            *by_tool_call;

  /* Token → the approval or rejection in flight: one at a time per token. */
  GHashTable            *operations;
};

G_DEFINE_FINAL_TYPE (AkcActionConfirmation, akc_action_confirmation, G_TYPE_OBJECT)

enum { SIGNAL_RECORD_CHANGED, N_SIGNALS };
static guint signals[N_SIGNALS];

static gint64
real_clock (gpointer user_data)
{
  return g_get_real_time () / 1000;
}

static gint64
akc_action_confirmation_now (AkcActionConfirmation *self)
{
  return self->clock (self->clock_data);
}

static gboolean
has_claim_hook (AkcActionConfirmation *self)
{
  return self->store != NULL && akc_confirmation_store_can_claim_status (self->store);
}

/* Returns: (transfer none) (nullable) */
static AkcConfirmationRecord *
lookup (AkcActionConfirmation *self,
        GHashTable            *index,
        const char            *key,
        guint                 *position)
{
  guint slot = GPOINTER_TO_UINT (g_hash_table_lookup (index, key));

  if (slot == 0)
    return NULL;

  if (position != NULL)
    *position = slot - 1;

  return g_ptr_array_index (self->records, slot - 1);
}

static void
append_record (AkcActionConfirmation *self,
               AkcConfirmationRecord *record)
{
  g_ptr_array_add (self->records, record);
  g_hash_table_insert (self->by_token,
                       g_strdup (akc_confirmation_record_get_token (record)),
                       GUINT_TO_POINTER (self->records->len));
  g_hash_table_insert (self->by_tool_call,
                       g_strdup (akc_confirmation_record_get_tool_call_id (record)),
                       GUINT_TO_POINTER (self->records->len));
  g_signal_emit (self, signals[SIGNAL_RECORD_CHANGED], 0, record);
}

static void
set_status (AkcActionConfirmation *self,
            guint                  position,
            AkcConfirmationStatus  status)
{
  AkcConfirmationRecord *record = g_ptr_array_index (self->records, position);

  if (akc_confirmation_record_get_status (record) == status)
    return;

  self->records->pdata[position] = akc_confirmation_record_with_status (record, status);
  akc_confirmation_record_unref (record);
  g_signal_emit (self, signals[SIGNAL_RECORD_CHANGED], 0, self->records->pdata[position]);
}

/* ------------------------------------------------------------------ */
/* Operations                                                           */
/* ------------------------------------------------------------------ */

typedef enum
{
  OPERATION_APPROVE,
  OPERATION_REJECT,
  OPERATION_PROPOSE,
} OperationKind;

typedef struct _Operation Operation;
typedef void (*OperationStep) (Operation *op);

struct _Operation
{
  AkcActionConfirmation *self;
  OperationKind          kind;
  char                  *token;
  char                  *reason;
  gboolean               expire;
  /* The tasks that wait for this operation: the first call and the
   * approvals that joined it. */
  GPtrArray             *tasks;
  /* Set once the upstream call succeeded. */
  gboolean               upstream_done;
  /* The status being claimed, and what comes after the claim. */
  AkcConfirmationStatus  claiming;
  OperationStep          next;
  /* The error to report once the record is restored. */
  GError                *error;
  /* Calls for the same token that wait for this operation to end. */
  GPtrArray             *deferred;
};

typedef struct
{
  OperationKind  kind;
  GTask         *task;
  char          *reason;
} Deferred;

static void
deferred_free (gpointer data)
{
  Deferred *deferred = data;

  g_clear_object (&deferred->task);
  g_free (deferred->reason);
  g_free (deferred);
}

static void start_operation (AkcActionConfirmation *self,
                             OperationKind          kind,
                             const char            *token,
                             GTask                 *task,
                             const char            *reason);

static void
operation_free (Operation *op)
{
  g_clear_object (&op->self);
  g_free (op->token);
  g_free (op->reason);
  g_clear_pointer (&op->tasks, g_ptr_array_unref);
  g_clear_pointer (&op->deferred, g_ptr_array_unref);
  g_clear_error (&op->error);
  g_free (op);
}

static GPtrArray *
dup_records (AkcActionConfirmation *self)
{
  GPtrArray *copy = g_ptr_array_new_full (self->records->len,
                                          (GDestroyNotify) akc_confirmation_record_unref);

  for (guint i = 0; i < self->records->len; i++)
    g_ptr_array_add (copy, akc_confirmation_record_ref (g_ptr_array_index (self->records, i)));

  return copy;
}

static AkcConfirmationRecord *
operation_record (Operation *op,
                  guint     *position)
{
  AkcConfirmationRecord *record = lookup (op->self, op->self->by_token, op->token, position);

  g_assert (record != NULL);

  return record;
}

/* Hands the record (or the error) to every waiting task, and ends @op. */
static void
operation_complete (Operation *op,
                    GError    *error)
{
  g_autoptr(AkcActionConfirmation) self = g_object_ref (op->self);
  g_autoptr(GPtrArray) deferred = g_steal_pointer (&op->deferred);
  g_autofree char *token = g_strdup (op->token);
  AkcConfirmationRecord *record = NULL;

  if (error == NULL)
    record = operation_record (op, NULL);

  if (g_hash_table_lookup (self->operations, op->token) == op)
    g_hash_table_remove (self->operations, op->token);

  for (guint i = 0; i < op->tasks->len; i++)
    {
      GTask *task = g_ptr_array_index (op->tasks, i);

      if (error != NULL)
        g_task_return_error (task, g_error_copy (error));
      else
        g_task_return_pointer (task, akc_confirmation_record_ref (record),
                               (GDestroyNotify) akc_confirmation_record_unref);
    }

  g_clear_error (&error);
  operation_free (op);

  /* The calls that came meanwhile see the record as it is now. */
  for (guint i = 0; deferred != NULL && i < deferred->len; i++)
    {
      Deferred *next = g_ptr_array_index (deferred, i);

      start_operation (self, next->kind, token, g_steal_pointer (&next->task), next->reason);
    }
}

static void
on_restored_saved (GObject      *object,
                   GAsyncResult *result,
                   gpointer      user_data)
{
  Operation *op = user_data;
  g_autoptr(GError) ignored = NULL;

  /* The error that made the record pending again is the one to report;
   * a failure to store the restored record is secondary. */
  akc_confirmation_store_save_records_finish (AKC_CONFIRMATION_STORE (object), result, &ignored);
  operation_complete (op, g_steal_pointer (&op->error));
}

/* Fails @op with @error. Without a claim hook, a record whose upstream call
 * did not succeed becomes pending again (and is stored); with one, the
 * claimed status stays (the accurate processing claim). */
static void
operation_fail (Operation *op,
                GError    *error)
{
  AkcActionConfirmation *self = op->self;
  AkcConfirmationRecord *record;
  guint position;

  if (op->kind == OPERATION_PROPOSE || op->upstream_done || has_claim_hook (self))
    {
      operation_complete (op, error);
      return;
    }

  record = operation_record (op, &position);
  if (akc_confirmation_record_get_status (record) == AKC_CONFIRMATION_STATUS_PENDING ||
      self->store == NULL)
    {
      set_status (self, position, AKC_CONFIRMATION_STATUS_PENDING);
      operation_complete (op, error);
      return;
    }

  set_status (self, position, AKC_CONFIRMATION_STATUS_PENDING);
  op->error = error;
  {
    g_autoptr(GPtrArray) records = dup_records (self);

    akc_confirmation_store_save_records_async (self->store, records, NULL,
                                               on_restored_saved, op);
  }
}

static void
on_records_saved (GObject      *object,
                  GAsyncResult *result,
                  gpointer      user_data)
{
  Operation *op = user_data;
  GError *error = NULL;

  if (!akc_confirmation_store_save_records_finish (AKC_CONFIRMATION_STORE (object), result, &error))
    {
      operation_fail (op, error);
      return;
    }

  op->next (op);
}

/* Notifies the store with every record (the reference's onChange), then
 * goes on with op->next. */
static void
operation_save (Operation     *op,
                OperationStep  next)
{
  AkcActionConfirmation *self = op->self;
  g_autoptr(GPtrArray) records = NULL;

  op->next = next;
  if (self->store == NULL)
    {
      next (op);
      return;
    }

  records = dup_records (self);
  akc_confirmation_store_save_records_async (self->store, records, NULL, on_records_saved, op);
}

static void
on_status_claimed (GObject      *object,
                   GAsyncResult *result,
                   gpointer      user_data)
{
  Operation *op = user_data;
  GError *error = NULL;
  gboolean claimed = FALSE;
  guint position;

  if (!akc_confirmation_store_claim_status_finish (AKC_CONFIRMATION_STORE (object), result,
                                                   &claimed, &error))
    {
      operation_fail (op, error);
      return;
    }

  if (!claimed)
    {
      operation_fail (op, g_error_new_literal (AKC_ERROR, AKC_ERROR_CONFIG_INVALID, ALREADY_RESOLVED));
      return;
    }

  operation_record (op, &position);
  set_status (op->self, position, op->claiming);
  op->next (op);
}

/* Claims @status for the record, then goes on with @next. */
static void
operation_claim (Operation             *op,
                 AkcConfirmationStatus  status,
                 OperationStep          next)
{
  AkcActionConfirmation *self = op->self;
  AkcConfirmationRecord *record;
  guint position;

  record = operation_record (op, &position);
  if (has_claim_hook (self))
    {
      g_autoptr(AkcConfirmationRecord) claim = akc_confirmation_record_with_status (record, status);

      op->claiming = status;
      op->next = next;
      akc_confirmation_store_claim_status_async (self->store, claim, NULL, on_status_claimed, op);
      return;
    }

  set_status (self, position, status);
  operation_save (op, next);
}

static void
operation_done (Operation *op)
{
  operation_complete (op, NULL);
}

static void
operation_call_upstream (Operation *op)
{
  AkcActionConfirmation *self = op->self;
  AkcConfirmationRecord *record = operation_record (op, NULL);
  const char *tool_call_id = akc_confirmation_record_get_tool_call_id (record);
  GError *error = NULL;
  AkcConfirmationStatus terminal;
  gboolean ok;

  if (op->kind == OPERATION_APPROVE && !op->expire)
    {
      ok = akc_chat_source_approve (self->chat, tool_call_id, &error);
      terminal = AKC_CONFIRMATION_STATUS_APPROVED;
    }
  else
    {
      ok = akc_chat_source_deny (self->chat, tool_call_id,
                                 op->expire ? EXPIRED_REASON : op->reason, &error);
      terminal = op->expire ? AKC_CONFIRMATION_STATUS_EXPIRED : AKC_CONFIRMATION_STATUS_REJECTED;
    }

  if (!ok)
    {
      if (error == NULL)
        error = g_error_new_literal (AKC_ERROR, AKC_ERROR_TOOL_INVALID_INPUT,
                                     "The upstream refused the tool call.");
      operation_fail (op, error);
      return;
    }

  op->upstream_done = TRUE;
  operation_claim (op, terminal, operation_done);
}

/* ------------------------------------------------------------------ */
/* Public API                                                           */
/* ------------------------------------------------------------------ */

static void
akc_action_confirmation_finalize (GObject *object)
{
  AkcActionConfirmation *self = AKC_ACTION_CONFIRMATION (object);

  if (self->clock_destroy != NULL)
    g_clear_pointer (&self->clock_data, self->clock_destroy);
  if (self->create_id_destroy != NULL)
    g_clear_pointer (&self->create_id_data, self->create_id_destroy);

  g_clear_pointer (&self->session_id, g_free);
  g_clear_object (&self->chat);
  g_clear_object (&self->store);
  g_clear_pointer (&self->records, g_ptr_array_unref);
  g_clear_pointer (&self->by_token, g_hash_table_unref);
  g_clear_pointer (&self->by_tool_call, g_hash_table_unref);
  g_clear_pointer (&self->operations, g_hash_table_unref);

  G_OBJECT_CLASS (akc_action_confirmation_parent_class)->finalize (object);
}

static void
akc_action_confirmation_class_init (AkcActionConfirmationClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->finalize = akc_action_confirmation_finalize;

  /**
   * AkcActionConfirmation::record-changed:
   * @self: the coordinator
   * @record: the record as it is now
   *
   * Emitted when a typed action was proposed or changed status (pending,
   * approving, approved, rejected, expired …), in memory, before the
   * change is saved to the store; a failed save that puts a record back
   * emits it again. For traces (application.md §10.1); handlers cannot
   * change the coordinator's course.
   *
   * Since: 0.1
   */
  signals[SIGNAL_RECORD_CHANGED] =
    g_signal_new ("record-changed",
                  G_TYPE_FROM_CLASS (klass),
                  G_SIGNAL_RUN_LAST,
                  0,
                  NULL, NULL,
                  NULL,
                  G_TYPE_NONE, 1,
                  AKC_TYPE_CONFIRMATION_RECORD | G_SIGNAL_TYPE_STATIC_SCOPE);
}

static void
akc_action_confirmation_init (AkcActionConfirmation *self)
{
  self->clock = real_clock;
  self->records = g_ptr_array_new_with_free_func ((GDestroyNotify) akc_confirmation_record_unref);
  self->by_token = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  self->by_tool_call = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  /* An operation in flight holds a reference on the coordinator. */
  self->operations = g_hash_table_new (g_str_hash, g_str_equal);
}

/**
 * akc_action_confirmation_new:
 * @session_id: the session the records are bound to, not empty
 * @chat: the upstream: proposes, approves and denies tool calls
 * @ttl_ms: how long a proposal waits for approval, in milliseconds: a
 *   positive safe integer, usually %AKC_ACTION_CONFIRMATION_DEFAULT_TTL_MS
 * @initial_records: (nullable) (element-type AkcConfirmationRecord): records
 *   to start from, such as those a session restored, with unique tokens
 *   and tool calls
 * @store: (nullable): where the records are kept, or %NULL to keep them in
 *   memory only
 * @error: return location for a #GError
 *
 * Creates a coordinator. Invalid options fail with
 * %AKC_ERROR_CONFIG_INVALID, “Action confirmation options are invalid.”
 *
 * Returns: (transfer full) (nullable): a new coordinator, or %NULL with
 *   @error set
 *
 * Since: 0.1
 */
AkcActionConfirmation *
akc_action_confirmation_new (const char            *session_id,
                             AkcChatSource         *chat,
                             gint64                 ttl_ms,
                             GPtrArray             *initial_records,
                             AkcConfirmationStore  *store,
                             GError               **error)
{
  g_autoptr(AkcActionConfirmation) self = NULL;

  g_return_val_if_fail (AKC_IS_CHAT_SOURCE (chat), NULL);
  g_return_val_if_fail (store == NULL || AKC_IS_CONFIRMATION_STORE (store), NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  self = g_object_new (AKC_TYPE_ACTION_CONFIRMATION, NULL);

  if (session_id == NULL || *session_id == '\0' ||
      ttl_ms <= 0 || ttl_ms > AKC_JSON_MAX_SAFE_INTEGER)
    {
      g_set_error_literal (error, AKC_ERROR, AKC_ERROR_CONFIG_INVALID, OPTIONS_INVALID);
      return NULL;
    }

  for (guint i = 0; initial_records != NULL && i < initial_records->len; i++)
    {
      AkcConfirmationRecord *record = g_ptr_array_index (initial_records, i);

      if (record == NULL ||
          g_hash_table_contains (self->by_token, akc_confirmation_record_get_token (record)) ||
          g_hash_table_contains (self->by_tool_call, akc_confirmation_record_get_tool_call_id (record)))
        {
          g_set_error_literal (error, AKC_ERROR, AKC_ERROR_CONFIG_INVALID, OPTIONS_INVALID);
          return NULL;
        }

      append_record (self, akc_confirmation_record_ref (record));
    }

  self->session_id = g_strdup (session_id);
  self->chat = g_object_ref (chat);
  self->ttl_ms = ttl_ms;
  g_set_object (&self->store, store);

  return g_steal_pointer (&self);
}

/**
 * akc_action_confirmation_get_session_id:
 * @self: a #AkcActionConfirmation
 *
 * Gets the session the coordinator's proposals are bound to.
 *
 * Returns: the session id
 *
 * Since: 0.1
 */
const char *
akc_action_confirmation_get_session_id (AkcActionConfirmation *self)
{
  g_return_val_if_fail (AKC_IS_ACTION_CONFIRMATION (self), NULL);

  return self->session_id;
}

/**
 * akc_action_confirmation_get_chat:
 * @self: a #AkcActionConfirmation
 *
 * Gets the upstream.
 *
 * Returns: (transfer none): the upstream chat source
 *
 * Since: 0.1
 */
AkcChatSource *
akc_action_confirmation_get_chat (AkcActionConfirmation *self)
{
  g_return_val_if_fail (AKC_IS_ACTION_CONFIRMATION (self), NULL);

  return self->chat;
}

/**
 * akc_action_confirmation_get_ttl_ms:
 * @self: a #AkcActionConfirmation
 *
 * Gets how long a proposal waits for approval.
 *
 * Returns: the time to live in milliseconds
 *
 * Since: 0.1
 */
gint64
akc_action_confirmation_get_ttl_ms (AkcActionConfirmation *self)
{
  g_return_val_if_fail (AKC_IS_ACTION_CONFIRMATION (self), 0);

  return self->ttl_ms;
}

/**
 * akc_action_confirmation_get_store:
 * @self: a #AkcActionConfirmation
 *
 * Gets where the records are kept.
 *
 * Returns: (transfer none) (nullable): the store, or %NULL
 *
 * Since: 0.1
 */
AkcConfirmationStore *
akc_action_confirmation_get_store (AkcActionConfirmation *self)
{
  g_return_val_if_fail (AKC_IS_ACTION_CONFIRMATION (self), NULL);

  return self->store;
}

/**
 * akc_action_confirmation_set_clock:
 * @self: a #AkcActionConfirmation
 * @func: (nullable) (scope notified) (closure user_data) (destroy destroy): the
 *   clock, or %NULL for the real time
 * @user_data: data for @func
 * @destroy: (nullable): frees @user_data
 *
 * Sets the clock that dates expiries and default ids (the reference's
 * `now`), for deterministic tests.
 *
 * Since: 0.1
 */
void
akc_action_confirmation_set_clock (AkcActionConfirmation *self,
                                   AkcClockFunc           func,
                                   gpointer               user_data,
                                   GDestroyNotify         destroy)
{
  g_return_if_fail (AKC_IS_ACTION_CONFIRMATION (self));

  if (self->clock_destroy != NULL)
    g_clear_pointer (&self->clock_data, self->clock_destroy);

  self->clock = func != NULL ? func : real_clock;
  self->clock_data = func != NULL ? user_data : NULL;
  self->clock_destroy = func != NULL ? destroy : NULL;
}

/**
 * akc_action_confirmation_set_id_func:
 * @self: a #AkcActionConfirmation
 * @func: (nullable) (scope notified) (closure user_data) (destroy destroy): the
 *   id function, or %NULL for the default
 * @user_data: data for @func
 * @destroy: (nullable): frees @user_data
 *
 * Sets the function that makes proposal ids (the reference's `createId`).
 * The default makes `«sequence in base 36»-«now in base 36»`, the
 * sequence counting proposals from 1.
 *
 * Since: 0.1
 */
void
akc_action_confirmation_set_id_func (AkcActionConfirmation *self,
                                     AkcConfirmationIdFunc  func,
                                     gpointer               user_data,
                                     GDestroyNotify         destroy)
{
  g_return_if_fail (AKC_IS_ACTION_CONFIRMATION (self));

  if (self->create_id_destroy != NULL)
    g_clear_pointer (&self->create_id_data, self->create_id_destroy);

  self->create_id = func;
  self->create_id_data = func != NULL ? user_data : NULL;
  self->create_id_destroy = func != NULL ? destroy : NULL;
}

static void
append_base36 (GString *string,
               guint64  value)
{
  char digits[16];
  guint n = 0;

  do
    {
      digits[n++] = "0123456789abcdefghijklmnopqrstuvwxyz"[value % 36];
      value /= 36;
    }
  while (value > 0);

  while (n > 0)
    g_string_append_c (string, digits[--n]);
}

static char *
default_id (AkcActionConfirmation *self)
{
  GString *id = g_string_new (NULL);
  gint64 now = akc_action_confirmation_now (self);

  append_base36 (id, ++self->sequence);
  g_string_append_c (id, '-');
  if (now < 0)
    {
      g_string_append_c (id, '-');
      now = -now;
    }
  append_base36 (id, (guint64) now);

  return g_string_free (id, FALSE);
}

static gboolean
is_confirmation_id (const char *id)
{
  gsize length = id != NULL ? strlen (id) : 0;

  return length > 0 && length <= MAX_ID_LENGTH && akc_text_is_safe_id (id, length);
}

/**
 * akc_action_confirmation_propose_async:
 * @self: a #AkcActionConfirmation
 * @action: the action, the name of a tool that requires confirmation
 * @input: (nullable): the action's input, a JSON object (%NULL: `{}`)
 * @cancellable: (nullable): cancels the proposal before the upstream sees it
 * @callback: (scope async): called with the new record
 * @user_data: (closure callback): data for @callback
 *
 * Proposes a typed action: makes an id, proposes the upstream tool call
 * `app-«id»` with @input as its arguments, records the token
 * `confirm-«id»` and stores every record.
 *
 * An id that does not match the confirmation-id grammar fails with
 * %AKC_ERROR_CONFIG_INVALID, “Action confirmation id is invalid.” (so are
 * an id that was already used); the upstream's errors pass through
 * unchanged ([application §0.1](wire-formats.html#application-0)). When the store fails to keep the new
 * record, the error is reported and the record stays (its upstream call
 * exists and can still be approved or rejected).
 *
 * Since: 0.1
 */
void
akc_action_confirmation_propose_async (AkcActionConfirmation *self,
                                       const char            *action,
                                       AkcJsonValue          *input,
                                       GCancellable          *cancellable,
                                       GAsyncReadyCallback    callback,
                                       gpointer               user_data)
{
  g_autoptr(GTask) task = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(AkcToolCall) call = NULL;
  g_autoptr(AkcJsonValue) empty = NULL;
  g_autofree char *suffix = NULL;
  g_autofree char *token = NULL;
  g_autofree char *proposal_id = NULL;
  AkcJsonValue *arguments;
  Operation *op;

  g_return_if_fail (AKC_IS_ACTION_CONFIRMATION (self));
  g_return_if_fail (action != NULL);
  g_return_if_fail (cancellable == NULL || G_IS_CANCELLABLE (cancellable));

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, akc_action_confirmation_propose_async);

  if (g_task_return_error_if_cancelled (task))
    return;

  suffix = self->create_id != NULL ? self->create_id (self->create_id_data) : default_id (self);
  token = g_strconcat ("confirm-", suffix != NULL ? suffix : "", NULL);
  if (!is_confirmation_id (suffix) || g_hash_table_contains (self->by_token, token))
    {
      g_task_return_new_error (task, AKC_ERROR, AKC_ERROR_CONFIG_INVALID, ID_INVALID);
      return;
    }

  proposal_id = g_strconcat ("app-", suffix, NULL);
  call = akc_chat_source_propose_tool_call (self->chat, proposal_id, action, input, &error);
  if (call == NULL)
    {
      g_task_return_error (task, g_steal_pointer (&error));
      return;
    }

  if (g_hash_table_contains (self->by_tool_call, akc_tool_call_get_id (call)))
    {
      g_task_return_new_error (task, AKC_ERROR, AKC_ERROR_CONFIG_INVALID, ID_INVALID);
      return;
    }

  arguments = akc_tool_call_get_arguments (call);
  if (arguments == NULL)
    arguments = empty = akc_json_value_new_object (NULL, NULL, 0);

  append_record (self, akc_confirmation_record_new_unchecked (
                   token,
                   self->session_id,
                   akc_tool_call_get_name (call),
                   arguments,
                   akc_tool_call_get_id (call),
                   akc_action_confirmation_now (self) + self->ttl_ms,
                   akc_tool_call_get_status (call) == AKC_TOOL_CALL_STATUS_REQUIRES_CONFIRMATION
                     ? AKC_CONFIRMATION_STATUS_PENDING
                     : AKC_CONFIRMATION_STATUS_REJECTED));

  op = g_new0 (Operation, 1);
  op->self = g_object_ref (self);
  op->kind = OPERATION_PROPOSE;
  op->token = g_steal_pointer (&token);
  op->tasks = g_ptr_array_new_with_free_func (g_object_unref);
  g_ptr_array_add (op->tasks, g_steal_pointer (&task));
  operation_save (op, operation_done);
}

/**
 * akc_action_confirmation_propose_finish:
 * @self: a #AkcActionConfirmation
 * @result: the #GAsyncResult given to the callback
 * @error: return location for a #GError
 *
 * Finishes [method@ActionConfirmation.propose_async].
 *
 * Returns: (transfer full): the new record, or %NULL with @error set
 *
 * Since: 0.1
 */
AkcConfirmationRecord *
akc_action_confirmation_propose_finish (AkcActionConfirmation  *self,
                                        GAsyncResult           *result,
                                        GError                **error)
{
  g_return_val_if_fail (AKC_IS_ACTION_CONFIRMATION (self), NULL);
  g_return_val_if_fail (g_task_is_valid (result, self), NULL);
  g_return_val_if_fail (g_task_get_source_tag (G_TASK (result)) == akc_action_confirmation_propose_async, NULL);

  return g_task_propagate_pointer (G_TASK (result), error);
}

/* The guard shared by approve and reject. Returns: (transfer none) the
 * record, or %NULL after returning the error on @task. */
static AkcConfirmationRecord *
guard (AkcActionConfirmation *self,
       GTask                 *task,
       const char            *token,
       const char            *session_id)
{
  AkcConfirmationRecord *record;

  if (g_task_return_error_if_cancelled (task))
    return NULL;

  record = lookup (self, self->by_token, token, NULL);
  if (record == NULL || g_strcmp0 (akc_confirmation_record_get_session_id (record), session_id) != 0)
    {
      g_task_return_new_error (task, AKC_ERROR, AKC_ERROR_CONFIG_INVALID, TOKEN_INVALID);
      return NULL;
    }

  return record;
}

static Operation *
operation_new (AkcActionConfirmation *self,
               OperationKind          kind,
               const char            *token,
               GTask                 *task)
{
  Operation *op = g_new0 (Operation, 1);

  op->self = g_object_ref (self);
  op->kind = kind;
  op->token = g_strdup (token);
  op->tasks = g_ptr_array_new_with_free_func (g_object_unref);
  g_ptr_array_add (op->tasks, g_object_ref (task));

  return op;
}

/* Approves or rejects the record of @token, already checked for the
 * session. One operation runs per token: an approval joins an approval in
 * flight (single-flight: one upstream call, one result); any other call
 * waits for it to end, then sees the record as it is then, so an approval
 * and a rejection never both reach the upstream. Takes @task. */
static void
start_operation (AkcActionConfirmation *self,
                 OperationKind          kind,
                 const char            *token,
                 GTask                 *task,
                 const char            *reason)
{
  AkcConfirmationRecord *record = lookup (self, self->by_token, token, NULL);
  Operation *op = g_hash_table_lookup (self->operations, token);

  g_assert (record != NULL);

  if (op != NULL)
    {
      if (kind == OPERATION_APPROVE && op->kind == OPERATION_APPROVE)
        {
          g_ptr_array_add (op->tasks, task);
        }
      else
        {
          Deferred *deferred = g_new0 (Deferred, 1);

          deferred->kind = kind;
          deferred->task = task;
          deferred->reason = g_strdup (reason);
          if (op->deferred == NULL)
            op->deferred = g_ptr_array_new_with_free_func (deferred_free);
          g_ptr_array_add (op->deferred, deferred);
        }
      return;
    }

  if (akc_confirmation_record_get_status (record) != AKC_CONFIRMATION_STATUS_PENDING)
    {
      g_task_return_pointer (task, akc_confirmation_record_ref (record),
                             (GDestroyNotify) akc_confirmation_record_unref);
      g_object_unref (task);
      return;
    }

  op = operation_new (self, kind, token, task);
  g_object_unref (task);
  g_hash_table_insert (self->operations, op->token, op);

  if (kind == OPERATION_APPROVE)
    {
      op->expire = akc_action_confirmation_now (self) >= akc_confirmation_record_get_expires_at (record);
      operation_claim (op,
                       op->expire ? AKC_CONFIRMATION_STATUS_EXPIRING : AKC_CONFIRMATION_STATUS_APPROVING,
                       operation_call_upstream);
    }
  else
    {
      op->reason = g_strdup (reason);
      operation_claim (op, AKC_CONFIRMATION_STATUS_REJECTING, operation_call_upstream);
    }
}

/**
 * akc_action_confirmation_approve_async:
 * @self: a #AkcActionConfirmation
 * @token: the record's token
 * @session_id: the session presenting the token
 * @cancellable: (nullable): cancels the approval before it starts
 * @callback: (scope async): called with the record
 * @user_data: (closure callback): data for @callback
 *
 * Approves a pending record: claims `approving`, approves the upstream
 * tool call, claims `approved`. A record whose expiry has come
 * (`now >= expiresAt`) is expired instead: `expiring`, the upstream denies
 * the call with the reason `confirmation expired`, `expired`.
 *
 * A record that is not pending is returned unchanged. An approval of a
 * token that is being approved joins it: one upstream call, one result;
 * one that comes while the token is being rejected waits for the
 * rejection. See [class@ActionConfirmation] for the failures.
 *
 * Since: 0.1
 */
void
akc_action_confirmation_approve_async (AkcActionConfirmation *self,
                                       const char            *token,
                                       const char            *session_id,
                                       GCancellable          *cancellable,
                                       GAsyncReadyCallback    callback,
                                       gpointer               user_data)
{
  g_autoptr(GTask) task = NULL;

  g_return_if_fail (AKC_IS_ACTION_CONFIRMATION (self));
  g_return_if_fail (token != NULL);
  g_return_if_fail (session_id != NULL);
  g_return_if_fail (cancellable == NULL || G_IS_CANCELLABLE (cancellable));

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, akc_action_confirmation_approve_async);

  if (guard (self, task, token, session_id) == NULL)
    return;

  start_operation (self, OPERATION_APPROVE, token, g_steal_pointer (&task), NULL);
}

/**
 * akc_action_confirmation_approve_finish:
 * @self: a #AkcActionConfirmation
 * @result: the #GAsyncResult given to the callback
 * @error: return location for a #GError
 *
 * Finishes [method@ActionConfirmation.approve_async].
 *
 * Returns: (transfer full): the record, or %NULL with @error set
 *
 * Since: 0.1
 */
AkcConfirmationRecord *
akc_action_confirmation_approve_finish (AkcActionConfirmation  *self,
                                        GAsyncResult           *result,
                                        GError                **error)
{
  g_return_val_if_fail (AKC_IS_ACTION_CONFIRMATION (self), NULL);
  g_return_val_if_fail (g_task_is_valid (result, self), NULL);
  g_return_val_if_fail (g_task_get_source_tag (G_TASK (result)) == akc_action_confirmation_approve_async, NULL);

  return g_task_propagate_pointer (G_TASK (result), error);
}

/**
 * akc_action_confirmation_reject_async:
 * @self: a #AkcActionConfirmation
 * @token: the record's token
 * @session_id: the session presenting the token
 * @reason: (nullable): why, for the upstream denial
 * @cancellable: (nullable): cancels the rejection before it starts
 * @callback: (scope async): called with the record
 * @user_data: (closure callback): data for @callback
 *
 * Rejects a pending record: claims `rejecting`, denies the upstream tool
 * call with @reason, claims `rejected`. The expiry does not matter. A
 * record that is not pending is returned unchanged, and a rejection that
 * comes while the token is being approved or rejected waits for that
 * operation, then returns the record it left.
 *
 * Since: 0.1
 */
void
akc_action_confirmation_reject_async (AkcActionConfirmation *self,
                                      const char            *token,
                                      const char            *session_id,
                                      const char            *reason,
                                      GCancellable          *cancellable,
                                      GAsyncReadyCallback    callback,
                                      gpointer               user_data)
{
  g_autoptr(GTask) task = NULL;

  g_return_if_fail (AKC_IS_ACTION_CONFIRMATION (self));
  g_return_if_fail (token != NULL);
  g_return_if_fail (session_id != NULL);
  g_return_if_fail (cancellable == NULL || G_IS_CANCELLABLE (cancellable));

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, akc_action_confirmation_reject_async);

  if (guard (self, task, token, session_id) == NULL)
    return;

  start_operation (self, OPERATION_REJECT, token, g_steal_pointer (&task), reason);
}

/**
 * akc_action_confirmation_reject_finish:
 * @self: a #AkcActionConfirmation
 * @result: the #GAsyncResult given to the callback
 * @error: return location for a #GError
 *
 * Finishes [method@ActionConfirmation.reject_async].
 *
 * Returns: (transfer full): the record, or %NULL with @error set
 *
 * Since: 0.1
 */
AkcConfirmationRecord *
akc_action_confirmation_reject_finish (AkcActionConfirmation  *self,
                                       GAsyncResult           *result,
                                       GError                **error)
{
  g_return_val_if_fail (AKC_IS_ACTION_CONFIRMATION (self), NULL);
  g_return_val_if_fail (g_task_is_valid (result, self), NULL);
  g_return_val_if_fail (g_task_get_source_tag (G_TASK (result)) == akc_action_confirmation_reject_async, NULL);

  return g_task_propagate_pointer (G_TASK (result), error);
}

/**
 * akc_action_confirmation_get_by_tool_call:
 * @self: a #AkcActionConfirmation
 * @tool_call_id: an upstream tool call id
 *
 * Finds the record of an upstream tool call.
 *
 * Returns: (transfer full) (nullable): the record, or %NULL
 *
 * Since: 0.1
 */
AkcConfirmationRecord *
akc_action_confirmation_get_by_tool_call (AkcActionConfirmation *self,
                                          const char            *tool_call_id)
{
  AkcConfirmationRecord *record;

  g_return_val_if_fail (AKC_IS_ACTION_CONFIRMATION (self), NULL);
  g_return_val_if_fail (tool_call_id != NULL, NULL);

  record = lookup (self, self->by_tool_call, tool_call_id, NULL);

  return record != NULL ? akc_confirmation_record_ref (record) : NULL;
}

/**
 * akc_action_confirmation_get_by_token:
 * @self: a #AkcActionConfirmation
 * @token: a token
 *
 * Finds the record of a token, whatever its session.
 *
 * Returns: (transfer full) (nullable): the record, or %NULL
 *
 * Since: 0.1
 */
AkcConfirmationRecord *
akc_action_confirmation_get_by_token (AkcActionConfirmation *self,
                                      const char            *token)
{
  AkcConfirmationRecord *record;

  g_return_val_if_fail (AKC_IS_ACTION_CONFIRMATION (self), NULL);
  g_return_val_if_fail (token != NULL, NULL);

  record = lookup (self, self->by_token, token, NULL);

  return record != NULL ? akc_confirmation_record_ref (record) : NULL;
}

/**
 * akc_action_confirmation_get_snapshot:
 * @self: a #AkcActionConfirmation
 *
 * Gets every record, in insertion order. The array owns its records (its
 * free function releases them): free it with g_ptr_array_unref().
 *
 * Returns: (transfer container) (element-type AkcConfirmationRecord): the records
 *
 * Since: 0.1
 */
GPtrArray *
akc_action_confirmation_get_snapshot (AkcActionConfirmation *self)
{
  g_return_val_if_fail (AKC_IS_ACTION_CONFIRMATION (self), NULL);

  return dup_records (self);
}
