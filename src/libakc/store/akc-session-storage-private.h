/* akc-session-storage-private.h: what the session storages of libakc
 * share
 *
 * SPDX-License-Identifier: MIT
 *
 * Internal to libakc (not installed, not scanned).
 */

#pragma once

#include <gio/gio.h>

G_BEGIN_DECLS

/* The outcome of a save of AkcMemorySessionStorage and
 * AkcSqliteSessionStorage, whose task returns an int: non-zero saved,
 * 0 when the comparison failed. FALSE with @error set when the save
 * failed; @saved is then left alone. */
gboolean akc_session_storage_propagate_saved (GAsyncResult  *result,
                                              gboolean      *saved,
                                              GError       **error);

G_END_DECLS
