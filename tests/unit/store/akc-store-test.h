/* akc-store-test.h: helpers of the history tests
 *
 * SPDX-License-Identifier: MIT
 */

#pragma once

#include <akc.h>
#include <sqlite3.h>

#include "akc-test.h"

G_BEGIN_DECLS

/* Asynchronous calls are waited for with akc-test.h's akc_test_wait;
 * akc_test_open opens a history. */

GError              *akc_test_open_error          (const char    *path);
AkcConversationInfo *akc_test_create              (AkcChatMemory *memory,
                                                   const char    *id,
                                                   const char    *title,
                                                   GError       **error);
GListModel          *akc_test_list                (AkcChatMemory *memory,
                                                   GError       **error);
GListModel          *akc_test_load                (AkcChatMemory *memory,
                                                   const char    *conversation_id,
                                                   GError       **error);
gboolean             akc_test_splice              (AkcChatMemory *memory,
                                                   const char    *conversation_id,
                                                   guint          position,
                                                   guint          n_removed,
                                                   AkcMessage   **added,
                                                   guint          n_added,
                                                   GError       **error);
gboolean             akc_test_append              (AkcChatMemory *memory,
                                                   const char    *conversation_id,
                                                   AkcMessage    *message,
                                                   GError       **error);
gboolean             akc_test_save                (AkcChatMemory *memory,
                                                   const char    *conversation_id,
                                                   AkcMessage    *message,
                                                   GError       **error);
gboolean             akc_test_update              (AkcChatMemory *memory,
                                                   const char    *conversation_id,
                                                   const char    *title,
                                                   const AkcUsage *usage,
                                                   GError       **error);
gboolean             akc_test_delete              (AkcChatMemory *memory,
                                                   const char    *conversation_id,
                                                   GError       **error);
gboolean             akc_test_history_load        (AkcChatHistory *history,
                                                   GError       **error);
gboolean             akc_test_history_flush       (AkcChatHistory *history,
                                                   GError       **error);

/* Drops the last reference to a memory: its worker closes the database
 * before this returns. */
void                 akc_test_close               (AkcChatMemory *memory);

/* A path under the test's own $XDG_DATA_HOME (G_TEST_OPTION_ISOLATE_DIRS). */
char                *akc_test_path                (const char    *name);

/* Direct SQL on a file, bypassing the store, to look at or damage it. */
sqlite3             *akc_test_sql_open            (const char    *path);
gint64               akc_test_sql_int             (const char    *path,
                                                   const char    *sql);
char                *akc_test_sql_text            (const char    *path,
                                                   const char    *sql);
void                 akc_test_sql_exec            (const char    *path,
                                                   const char    *sql);

/* Field-by-field equality of messages: id, role, status, stopped, content
 * (every byte), creation time (to the microsecond), tool call id, lineage
 * and every tool call. */
void                 akc_test_assert_message_equal  (AkcMessage  *expected,
                                                     AkcMessage  *actual);
void                 akc_test_assert_messages_equal (GListModel  *expected,
                                                     GListModel  *actual);

/* An adapter the test drives: each turn's stream is kept, and the test
 * pushes its chunks. */
#define AKC_TYPE_TEST_ADAPTER (akc_test_adapter_get_type ())
G_DECLARE_FINAL_TYPE (AkcTestAdapter, akc_test_adapter, AKC, TEST_ADAPTER, GObject)

AkcTestAdapter      *akc_test_adapter_new         (void);
AkcStream           *akc_test_adapter_get_stream  (AkcTestAdapter *self);

/* A chat on an AkcTestAdapter kept in a history of its own (conversation
 * "demo"), for g_test_add: set up opens it, tear down flushes what is on
 * its way and closes everything. */
typedef struct
{
  char           *path;
  AkcChatMemory  *memory;
  AkcTestAdapter *adapter;
  AkcChat        *chat;
  AkcChatHistory *history;
} AkcTestChatFixture;

void                 akc_test_chat_fixture_set_up    (AkcTestChatFixture *fixture,
                                                      gconstpointer       data);
void                 akc_test_chat_fixture_tear_down (AkcTestChatFixture *fixture,
                                                      gconstpointer       data);
GListModel          *akc_test_chat_messages          (AkcChat            *chat);
/* The message at @position (the chat keeps it alive). */
AkcMessage          *akc_test_chat_message           (AkcChat            *chat,
                                                      guint               position);

G_END_DECLS
