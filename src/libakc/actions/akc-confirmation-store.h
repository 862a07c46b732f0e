/* akc-confirmation-store.h: where a confirmation coordinator keeps its
 * records (application §5.2 onChange and claimStatus, §5.3)
 *
 * SPDX-License-Identifier: MIT
 */

#pragma once

#if !defined(__AKC_INSIDE__) && !defined(AKC_COMPILATION)
#error "Only <akc.h> can be included directly."
#endif

#include <gio/gio.h>

#include "akc-confirmation-record.h"
#include "akc-version-macros.h"

G_BEGIN_DECLS

#define AKC_TYPE_CONFIRMATION_STORE (akc_confirmation_store_get_type ())

AKC_AVAILABLE_IN_ALL
G_DECLARE_INTERFACE (AkcConfirmationStore, akc_confirmation_store, AKC, CONFIRMATION_STORE, GObject)

/**
 * AkcConfirmationStoreInterface:
 * @save_records_async: stores every record (the reference's `onChange`)
 * @save_records_finish: finishes @save_records_async
 * @claim_status_async: (nullable): durably claims a new status for one
 *   record (the reference's `claimStatus`); %NULL when the store has no
 *   such hook
 * @claim_status_finish: (nullable): finishes @claim_status_async
 *
 * The virtual methods of [iface@ConfirmationStore].
 */
struct _AkcConfirmationStoreInterface
{
  GTypeInterface parent_iface;

  void     (*save_records_async)  (AkcConfirmationStore   *self,
                                   GPtrArray              *records,
                                   GCancellable           *cancellable,
                                   GAsyncReadyCallback     callback,
                                   gpointer                user_data);
  gboolean (*save_records_finish) (AkcConfirmationStore   *self,
                                   GAsyncResult           *result,
                                   GError                **error);
  void     (*claim_status_async)  (AkcConfirmationStore   *self,
                                   AkcConfirmationRecord  *record,
                                   GCancellable           *cancellable,
                                   GAsyncReadyCallback     callback,
                                   gpointer                user_data);
  gboolean (*claim_status_finish) (AkcConfirmationStore   *self,
                                   GAsyncResult           *result,
                                   gboolean               *claimed,
                                   GError                **error);
};

AKC_AVAILABLE_IN_ALL
void     akc_confirmation_store_save_records_async  (AkcConfirmationStore   *self,
                                                     GPtrArray              *records,
                                                     GCancellable           *cancellable,
                                                     GAsyncReadyCallback     callback,
                                                     gpointer                user_data);
AKC_AVAILABLE_IN_ALL
gboolean akc_confirmation_store_save_records_finish (AkcConfirmationStore   *self,
                                                     GAsyncResult           *result,
                                                     GError                **error);
AKC_AVAILABLE_IN_ALL
gboolean akc_confirmation_store_can_claim_status    (AkcConfirmationStore   *self);
AKC_AVAILABLE_IN_ALL
void     akc_confirmation_store_claim_status_async  (AkcConfirmationStore   *self,
                                                     AkcConfirmationRecord  *record,
                                                     GCancellable           *cancellable,
                                                     GAsyncReadyCallback     callback,
                                                     gpointer                user_data);
AKC_AVAILABLE_IN_ALL
gboolean akc_confirmation_store_claim_status_finish (AkcConfirmationStore   *self,
                                                     GAsyncResult           *result,
                                                     gboolean               *claimed,
                                                     GError                **error);

G_END_DECLS
