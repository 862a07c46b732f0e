/* akc-sqlite-ask-store.h: Ask session records in an SQLite file
 *
 * SPDX-License-Identifier: MIT
 */

#pragma once

#include "akc-ask-retriever.h"

G_BEGIN_DECLS

#define AKC_TYPE_SQLITE_ASK_STORE (akc_sqlite_ask_store_get_type ())

G_DECLARE_FINAL_TYPE (AkcSqliteAskStore, akc_sqlite_ask_store, AKC, SQLITE_ASK_STORE, GObject)

AkcAskStore *akc_sqlite_ask_store_new (const char  *path,
                                       GError     **error);

G_END_DECLS
