/* akc-server-memory.h: a message memory kept in the server's memory
 *
 * SPDX-License-Identifier: MIT
 */

#pragma once

#include <akc.h>

G_BEGIN_DECLS

#define AKC_TYPE_SERVER_MEMORY (akc_server_memory_get_type ())

G_DECLARE_FINAL_TYPE (AkcServerMemory, akc_server_memory, AKC, SERVER_MEMORY, GObject)

AkcChatMemory *akc_server_memory_new             (void);
void           akc_server_memory_set_fail_writes (AkcServerMemory *self,
                                                  gboolean         fail_writes);
guint          akc_server_memory_get_n_messages  (AkcServerMemory *self,
                                                  const char      *conversation_id);

G_END_DECLS
