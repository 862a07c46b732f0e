/* akc-pg-storage.h: sessions and Ask records in PostgreSQL (libpq)
 *
 * SPDX-License-Identifier: MIT
 */

#pragma once

#include "akc-ask-retriever.h"

G_BEGIN_DECLS

#define AKC_TYPE_PG_STORAGE (akc_pg_storage_get_type ())

G_DECLARE_FINAL_TYPE (AkcPgStorage, akc_pg_storage, AKC, PG_STORAGE, GObject)

void          akc_pg_storage_new_async  (const char           *conninfo,
                                         GCancellable         *cancellable,
                                         GAsyncReadyCallback   callback,
                                         gpointer              user_data);
AkcPgStorage *akc_pg_storage_new_finish (GAsyncResult         *result,
                                         GError              **error);

G_END_DECLS
