/* akc-test.h: what every C test shares, with or without a display:
 * waiting on the main loop with one deadline, waiting for an
 * asynchronous result, opening and closing a history, JSON at a glance
 *
 * The waiting names are short on purpose (wait_for, spin): they are test
 * code, linked only into test programs, and read as the sentences of a
 * test. The library is compiled against libakc's headers only; each test
 * links the libakc it is written for (the static library or libakc-1).
 *
 * SPDX-License-Identifier: MIT
 */

#pragma once

#include <akc.h>

G_BEGIN_DECLS

/* One deadline for every wait: generous, as the valgrind setup runs
 * everything 20 times slower; a wait that reaches it fails the test. */
#define AKC_TEST_WAIT_TIMEOUT_USEC (120 * G_USEC_PER_SEC)

typedef gboolean (*Condition) (gpointer data);

/* Waiting */
gint64        akc_test_deadline      (void);
void          akc_test_iterate       (gint64          deadline);
/* The same; past @deadline the test fails saying it waited for @what. */
void          akc_test_iterate_for   (gint64          deadline,
                                      const char     *what);
void          wait_for               (Condition       condition,
                                      gpointer        data);
#define WAIT_FOR(condition, data) wait_for ((Condition) (condition), (data))
/* Runs the main loop until @expr holds, within the one deadline; a wait
 * that reaches it fails saying @what it waited for. */
#define WAIT_UNTIL_WHAT(expr, what) \
  G_STMT_START { \
    gint64 akc_test_deadline_ = akc_test_deadline (); \
    while (!(expr)) \
      akc_test_iterate_for (akc_test_deadline_, (what)); \
  } G_STMT_END
/* The same, saying where and the expression. */
#define WAIT_UNTIL(expr) WAIT_UNTIL_WHAT (expr, G_STRLOC ": " #expr)
void          spin                   (void);
/* Waits until @source's reply has ended (idle or failed). */
void          wait_until_idle        (AkcChatSource  *source);
/* Runs the main context until nothing is ready to dispatch. */
void          akc_test_drain         (void);

/* Asynchronous calls: pass akc_test_store_result and a GAsyncResult
 * slot (NULL) as the callback and its data, then akc_test_wait (&slot). */
void          akc_test_store_result  (GObject        *source,
                                      GAsyncResult   *result,
                                      gpointer        user_data);
GAsyncResult *akc_test_wait          (GAsyncResult  **slot);

/* Drops the last reference to @object and waits until it is finalized
 * (a history's worker closes its database first). */
void          akc_test_wait_finalized (gpointer       object);

/* A SQLite history at @path (created when missing); it must open. */
AkcChatMemory *akc_test_open         (const char     *path);

/* Chats */
/* Scripts one turn of @script: @text, then done. */
void          akc_test_script_reply  (AkcScriptedAdapter *script,
                                      const char         *text);
/* The tool call @id among @source's messages (the message keeps it
 * alive), or NULL. */
AkcToolCall  *akc_test_find_tool_call (AkcChatSource *source,
                                       const char    *id);

/* JSON */
AkcJsonValue *akc_test_parse_json    (const char     *text);
/* The string member @name of @object (nullable), or NULL. */
const char   *akc_test_member_string (AkcJsonValue   *object,
                                      const char     *name);

/* Secrets */
/* Points libsecret at a file keyring in a new temporary folder named
 * after @prefix, with no Secret Service: returns the folder, for
 * akc_test_remove_tree at the end. */
char         *akc_test_use_file_keyring (const char  *prefix);
/* What the credential store keeps for @endpoint, or NULL. */
char         *akc_test_lookup_secret (const char        *endpoint,
                                      AkcCredentialKind  kind);

/* Profiles */
/* Points the XDG data, config and cache folders at a new temporary folder
 * named after @prefix (a fresh profile: an empty history of its own):
 * returns the folder, for akc_test_remove_tree at the end. */
char         *akc_test_use_fresh_profile (const char *prefix);

/* Files */
/* Removes @path and everything in it (a test's temporary folder: a
 * history leaves its -wal and -shm files next to it). Symbolic links are
 * removed, never followed. */
void          akc_test_remove_tree   (const char     *path);
/* Copies the history database @name of tests/fixtures/history
 * (AKC_HISTORY_FIXTURES_DIR) to @to, making its folder. */
void          akc_test_copy_history_fixture (const char *name,
                                             const char *to);

G_END_DECLS
