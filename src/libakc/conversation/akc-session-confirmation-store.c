/* akc-session-confirmation-store.c
 *
 * SPDX-License-Identifier: MIT
 *
 * Two private types: AkcSessionRecordStore keeps a coordinator's records in
 * a session without storage (onChange only); AkcSessionClaimStore also
 * claims each new status (claimStatus), for sessions with storage, so that
 * of two clients that resumed one session only one can take a status.
 */

#include "config.h"

#include <string.h>

#include "akc-session-confirmation-store-private.h"
#include "akc-session-private.h"

#define AKC_TYPE_SESSION_RECORD_STORE (akc_session_record_store_get_type ())
G_DECLARE_FINAL_TYPE (AkcSessionRecordStore, akc_session_record_store, AKC, SESSION_RECORD_STORE, GObject)

#define AKC_TYPE_SESSION_CLAIM_STORE (akc_session_claim_store_get_type ())
G_DECLARE_FINAL_TYPE (AkcSessionClaimStore, akc_session_claim_store, AKC, SESSION_CLAIM_STORE, GObject)

struct _AkcSessionRecordStore
{
  GObject     parent_instance;
  AkcSession *session;
};

struct _AkcSessionClaimStore
{
  GObject     parent_instance;
  AkcSession *session;
};

static void record_store_iface_init (AkcConfirmationStoreInterface *iface);
static void claim_store_iface_init (AkcConfirmationStoreInterface *iface);

G_DEFINE_FINAL_TYPE_WITH_CODE (AkcSessionRecordStore, akc_session_record_store, G_TYPE_OBJECT,
                               G_IMPLEMENT_INTERFACE (AKC_TYPE_CONFIRMATION_STORE, record_store_iface_init))
G_DEFINE_FINAL_TYPE_WITH_CODE (AkcSessionClaimStore, akc_session_claim_store, G_TYPE_OBJECT,
                               G_IMPLEMENT_INTERFACE (AKC_TYPE_CONFIRMATION_STORE, claim_store_iface_init))

static AkcSession *
store_session (AkcConfirmationStore *store)
{
  if (AKC_IS_SESSION_CLAIM_STORE (store))
    return AKC_SESSION_CLAIM_STORE (store)->session;

  return AKC_SESSION_RECORD_STORE (store)->session;
}

static void
on_replaced (GObject      *source,
             GAsyncResult *result,
             gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  GError *error = NULL;

  if (!akc_session_replace_confirmations_finish (AKC_SESSION (source), result, &error))
    g_task_return_error (task, error);
  else
    g_task_return_int (task, 1);
}

/* onChange: every record, stored without its session id. */
static void
save_records_async (AkcConfirmationStore *store,
                    GPtrArray            *records,
                    GCancellable         *cancellable,
                    GAsyncReadyCallback   callback,
                    gpointer              user_data)
{
  g_autoptr(GPtrArray) items = g_ptr_array_new_with_free_func ((GDestroyNotify) akc_json_value_unref);
  g_autoptr(AkcJsonValue) list = NULL;
  GTask *task = g_task_new (store, cancellable, callback, user_data);

  g_task_set_source_tag (task, save_records_async);
  for (guint i = 0; i < records->len; i++)
    g_ptr_array_add (items, akc_confirmation_record_to_json (g_ptr_array_index (records, i), FALSE));
  list = akc_json_value_new_array ((AkcJsonValue * const *) items->pdata, items->len);

  akc_session_replace_confirmations_async (store_session (store), list, cancellable, on_replaced, task);
}

static gboolean
save_records_finish (AkcConfirmationStore  *store,
                     GAsyncResult          *result,
                     GError               **error)
{
  g_return_val_if_fail (g_task_is_valid (result, store), FALSE);

  return g_task_propagate_int (G_TASK (result), error) > 0;
}

/* claimStatus: that token's new status, in the list this client holds. */
static void
claim_status_async (AkcConfirmationStore  *store,
                    AkcConfirmationRecord *record,
                    GCancellable          *cancellable,
                    GAsyncReadyCallback    callback,
                    gpointer               user_data)
{
  AkcSession *session = store_session (store);
  AkcJsonValue *current = akc_session_get_confirmations (session);
  g_autoptr(GPtrArray) items = g_ptr_array_new_with_free_func ((GDestroyNotify) akc_json_value_unref);
  g_autoptr(AkcJsonValue) list = NULL;
  const char *token = akc_confirmation_record_get_token (record);
  GTask *task = g_task_new (store, cancellable, callback, user_data);

  g_task_set_source_tag (task, claim_status_async);
  for (gsize i = 0; i < akc_json_value_get_length (current); i++)
    {
      AkcJsonValue *item = akc_json_value_get_element (current, i);
      const char *item_token = akc_json_value_get_string (akc_json_value_get_member (item, "token"), NULL);

      if (g_strcmp0 (item_token, token) == 0)
        g_ptr_array_add (items, akc_confirmation_record_to_json (record, FALSE));
      else
        g_ptr_array_add (items, akc_json_value_ref (item));
    }
  list = akc_json_value_new_array ((AkcJsonValue * const *) items->pdata, items->len);

  akc_session_replace_confirmations_async (session, list, cancellable, on_replaced, task);
}

static gboolean
claim_status_finish (AkcConfirmationStore  *store,
                     GAsyncResult          *result,
                     gboolean              *claimed,
                     GError               **error)
{
  g_return_val_if_fail (g_task_is_valid (result, store), FALSE);

  if (g_task_propagate_int (G_TASK (result), error) <= 0)
    return FALSE;

  /* A save that went through is a won claim; one that lost the
   * compare-and-set failed with AKC_SESSION_ERROR_CONFLICT. */
  *claimed = TRUE;
  return TRUE;
}

static void
record_store_iface_init (AkcConfirmationStoreInterface *iface)
{
  iface->save_records_async = save_records_async;
  iface->save_records_finish = save_records_finish;
}

static void
claim_store_iface_init (AkcConfirmationStoreInterface *iface)
{
  iface->save_records_async = save_records_async;
  iface->save_records_finish = save_records_finish;
  iface->claim_status_async = claim_status_async;
  iface->claim_status_finish = claim_status_finish;
}

static void
akc_session_record_store_finalize (GObject *object)
{
  g_clear_object (&AKC_SESSION_RECORD_STORE (object)->session);
  G_OBJECT_CLASS (akc_session_record_store_parent_class)->finalize (object);
}

static void
akc_session_record_store_class_init (AkcSessionRecordStoreClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = akc_session_record_store_finalize;
}

static void
akc_session_record_store_init (AkcSessionRecordStore *self)
{
}

static void
akc_session_claim_store_finalize (GObject *object)
{
  g_clear_object (&AKC_SESSION_CLAIM_STORE (object)->session);
  G_OBJECT_CLASS (akc_session_claim_store_parent_class)->finalize (object);
}

static void
akc_session_claim_store_class_init (AkcSessionClaimStoreClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = akc_session_claim_store_finalize;
}

static void
akc_session_claim_store_init (AkcSessionClaimStore *self)
{
}

AkcConfirmationStore *
akc_session_confirmation_store_new (AkcSession *session,
                                    gboolean    claims)
{
  if (claims)
    {
      AkcSessionClaimStore *self = g_object_new (AKC_TYPE_SESSION_CLAIM_STORE, NULL);

      self->session = g_object_ref (session);
      return AKC_CONFIRMATION_STORE (self);
    }
  else
    {
      AkcSessionRecordStore *self = g_object_new (AKC_TYPE_SESSION_RECORD_STORE, NULL);

      self->session = g_object_ref (session);
      return AKC_CONFIRMATION_STORE (self);
    }
}
