/* akc-confirmation-store.c
 *
 * SPDX-License-Identifier: MIT
 */

#include "config.h"

#include "akc-confirmation-store.h"

/**
 * AkcConfirmationStore:
 *
 * Where an [class@ActionConfirmation] keeps its records: the reference's
 * `onChange` and `claimStatus` hooks ([application §5.2](wire-formats.html#application-5)), as one
 * interface so a session can plug in durable storage (§5.3).
 *
 * Both hooks are asynchronous, since persisting a session writes to disk
 * away from the main thread, and the coordinator awaits them.
 *
 * - [method@ConfirmationStore.save_records_async] receives every record,
 *   in insertion order, after a proposal and after each status change
 *   the store did not claim itself. A failure is reported to the caller
 *   of the coordinator operation.
 * - [method@ConfirmationStore.claim_status_async] is optional
 *   ([method@ConfirmationStore.can_claim_status]). When a store has it, the
 *   coordinator calls it before it takes each new status (`approving`,
 *   `approved`, …) instead of saving every record: the store persists the
 *   record's new status (a compare-and-set, for a session) and reports
 *   whether the claim was won. A claim that was not won fails with
 *   “Action confirmation was already resolved by another client.”; a claim
 *   that fails (a conflict, a write error) fails the operation with the
 *   store's error. With such a store a processing status (`approving`,
 *   `rejecting`, `expiring`) stays when the upstream fails: the
 *   “accurate processing claim” that keeps a call from running twice.
 *
 * Since: 0.1
 */

G_DEFINE_INTERFACE (AkcConfirmationStore, akc_confirmation_store, G_TYPE_OBJECT)

static void
akc_confirmation_store_default_init (AkcConfirmationStoreInterface *iface)
{
}

/**
 * akc_confirmation_store_save_records_async:
 * @self: a #AkcConfirmationStore
 * @records: (element-type AkcConfirmationRecord): every record, in
 *   insertion order
 * @cancellable: (nullable): a #GCancellable
 * @callback: (scope async): called when the records are stored
 * @user_data: (closure callback): data for @callback
 *
 * Stores every record of a coordinator.
 *
 * Since: 0.1
 */
void
akc_confirmation_store_save_records_async (AkcConfirmationStore *self,
                                           GPtrArray            *records,
                                           GCancellable         *cancellable,
                                           GAsyncReadyCallback   callback,
                                           gpointer              user_data)
{
  g_return_if_fail (AKC_IS_CONFIRMATION_STORE (self));
  g_return_if_fail (records != NULL);
  g_return_if_fail (cancellable == NULL || G_IS_CANCELLABLE (cancellable));

  AKC_CONFIRMATION_STORE_GET_IFACE (self)->save_records_async (self, records, cancellable,
                                                               callback, user_data);
}

/**
 * akc_confirmation_store_save_records_finish:
 * @self: a #AkcConfirmationStore
 * @result: the #GAsyncResult given to the callback
 * @error: return location for a #GError
 *
 * Finishes [method@ConfirmationStore.save_records_async].
 *
 * Returns: %TRUE if the records were stored
 *
 * Since: 0.1
 */
gboolean
akc_confirmation_store_save_records_finish (AkcConfirmationStore  *self,
                                            GAsyncResult          *result,
                                            GError               **error)
{
  g_return_val_if_fail (AKC_IS_CONFIRMATION_STORE (self), FALSE);
  g_return_val_if_fail (G_IS_ASYNC_RESULT (result), FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  return AKC_CONFIRMATION_STORE_GET_IFACE (self)->save_records_finish (self, result, error);
}

/**
 * akc_confirmation_store_can_claim_status:
 * @self: a #AkcConfirmationStore
 *
 * Gets whether the store claims statuses itself
 * ([method@ConfirmationStore.claim_status_async]).
 *
 * Returns: %TRUE if the store has the claim hook
 *
 * Since: 0.1
 */
gboolean
akc_confirmation_store_can_claim_status (AkcConfirmationStore *self)
{
  AkcConfirmationStoreInterface *iface;

  g_return_val_if_fail (AKC_IS_CONFIRMATION_STORE (self), FALSE);

  iface = AKC_CONFIRMATION_STORE_GET_IFACE (self);

  return iface->claim_status_async != NULL && iface->claim_status_finish != NULL;
}

/**
 * akc_confirmation_store_claim_status_async:
 * @self: a #AkcConfirmationStore
 * @record: the record with its new status
 * @cancellable: (nullable): a #GCancellable
 * @callback: (scope async): called when the claim is decided
 * @user_data: (closure callback): data for @callback
 *
 * Durably claims @record's status for its token. Only for a store that
 * [method@ConfirmationStore.can_claim_status].
 *
 * Since: 0.1
 */
void
akc_confirmation_store_claim_status_async (AkcConfirmationStore  *self,
                                           AkcConfirmationRecord *record,
                                           GCancellable          *cancellable,
                                           GAsyncReadyCallback    callback,
                                           gpointer               user_data)
{
  g_return_if_fail (AKC_IS_CONFIRMATION_STORE (self));
  g_return_if_fail (akc_confirmation_store_can_claim_status (self));
  g_return_if_fail (record != NULL);
  g_return_if_fail (cancellable == NULL || G_IS_CANCELLABLE (cancellable));

  AKC_CONFIRMATION_STORE_GET_IFACE (self)->claim_status_async (self, record, cancellable,
                                                               callback, user_data);
}

/**
 * akc_confirmation_store_claim_status_finish:
 * @self: a #AkcConfirmationStore
 * @result: the #GAsyncResult given to the callback
 * @claimed: (out): whether the claim was won
 * @error: return location for a #GError
 *
 * Finishes [method@ConfirmationStore.claim_status_async]. A claim another
 * client already made is not an error: the call succeeds with @claimed
 * set to %FALSE.
 *
 * Returns: %TRUE if the claim was decided, %FALSE with @error set if it failed
 *
 * Since: 0.1
 */
gboolean
akc_confirmation_store_claim_status_finish (AkcConfirmationStore  *self,
                                            GAsyncResult          *result,
                                            gboolean              *claimed,
                                            GError               **error)
{
  g_return_val_if_fail (AKC_IS_CONFIRMATION_STORE (self), FALSE);
  g_return_val_if_fail (akc_confirmation_store_can_claim_status (self), FALSE);
  g_return_val_if_fail (G_IS_ASYNC_RESULT (result), FALSE);
  g_return_val_if_fail (claimed != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  *claimed = FALSE;

  return AKC_CONFIRMATION_STORE_GET_IFACE (self)->claim_status_finish (self, result, claimed, error);
}
