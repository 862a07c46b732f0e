/* akc-memory-session-storage.h: session snapshots kept in memory
 *
 * SPDX-License-Identifier: MIT
 */

#pragma once

#if !defined(__AKC_INSIDE__) && !defined(AKC_COMPILATION)
#error "Only <akc.h> can be included directly."
#endif

#include "akc-session-storage.h"

G_BEGIN_DECLS

#define AKC_TYPE_MEMORY_SESSION_STORAGE (akc_memory_session_storage_get_type ())

AKC_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (AkcMemorySessionStorage, akc_memory_session_storage, AKC, MEMORY_SESSION_STORAGE, GObject)

AKC_AVAILABLE_IN_ALL
AkcSessionStorage *akc_memory_session_storage_new    (void);
AKC_AVAILABLE_IN_ALL
AkcJsonValue      *akc_memory_session_storage_lookup (AkcMemorySessionStorage *self,
                                                      const char              *session_id);
AKC_AVAILABLE_IN_ALL
void               akc_memory_session_storage_put    (AkcMemorySessionStorage *self,
                                                      const char              *session_id,
                                                      AkcJsonValue            *snapshot);

G_END_DECLS
