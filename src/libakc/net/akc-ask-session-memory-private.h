/* akc-ask-session-memory-private.h: the Ask session memory algorithm over
 * any key/value store (application §8.6)
 *
 * SPDX-License-Identifier: MIT
 *
 * Internal to libakc (not installed, not scanned).
 */

#pragma once

#include "akc-ask-projection-private.h"
#include "akc-json.h"

G_BEGIN_DECLS

/* A key/value store. get returns FALSE when the store fails, else TRUE
 * with *value NULL when the key is absent; set and remove return FALSE
 * when the store fails (read-only, full). */
typedef struct
{
  gboolean (*get)    (gpointer     store,
                      const char  *key,
                      char       **value,
                      gsize       *length);
  gboolean (*set)    (gpointer     store,
                      const char  *key,
                      const char  *value,
                      gsize        length);
  gboolean (*remove) (gpointer     store,
                      const char  *key);
} AkcAskRecordStore;

typedef struct
{
  const char          *key;
  const char * const  *legacy_keys;   /* nullable */
  guint                max_messages;
  gsize                max_record_bytes;
  AkcAskToolProjector  projector;     /* nullable */
  gpointer             projector_data;
} AkcAskMemoryOptions;

/* §8.6 load: the messages (a JSON array of serialized messages in
 * canonical order). @store NULL means no store. */
AkcJsonValue *akc_ask_memory_load    (const AkcAskRecordStore   *vtable,
                                      gpointer                   store,
                                      const AkcAskMemoryOptions *options);

/* §8.6 save: the canonical record of the last max_messages of @messages
 * (serialized messages), or NULL with @error when it is too large or a
 * message is invalid. */
char         *akc_ask_memory_encode  (AkcJsonValue              *messages,
                                      const AkcAskMemoryOptions *options,
                                      gsize                     *length,
                                      GError                   **error);

/* The legacy migration alone: NULL when the value is invalid. */
AkcJsonValue *akc_ask_memory_migrate (AkcJsonValue              *legacy,
                                      const AkcAskMemoryOptions *options);

G_END_DECLS
