/* akc-ask-retriever.h: where the Ask handler finds its sources, and where
 * it keeps its sessions
 *
 * SPDX-License-Identifier: MIT
 */

#pragma once

#include <akc.h>

G_BEGIN_DECLS

/* A retriever: for a question, candidate sources (a JSON array of
 * {id, title, href, excerpt}; the handler drops the invalid ones). It
 * should end soon after @cancellable is cancelled, with what it has. */
#define AKC_TYPE_ASK_RETRIEVER (akc_ask_retriever_get_type ())
G_DECLARE_INTERFACE (AkcAskRetriever, akc_ask_retriever, AKC, ASK_RETRIEVER, GObject)

struct _AkcAskRetrieverInterface
{
  GTypeInterface parent_iface;

  void          (*retrieve_async)  (AkcAskRetriever     *self,
                                    const char          *question,
                                    guint                limit,
                                    GCancellable        *cancellable,
                                    GAsyncReadyCallback  callback,
                                    gpointer             user_data);
  AkcJsonValue *(*retrieve_finish) (AkcAskRetriever     *self,
                                    GAsyncResult        *result,
                                    GError             **error);
};

void          akc_ask_retriever_retrieve_async  (AkcAskRetriever     *self,
                                                 const char          *question,
                                                 guint                limit,
                                                 GCancellable        *cancellable,
                                                 GAsyncReadyCallback  callback,
                                                 gpointer             user_data);
AkcJsonValue *akc_ask_retriever_retrieve_finish (AkcAskRetriever     *self,
                                                 GAsyncResult        *result,
                                                 GError             **error);

/* Ask session records {revision, messages} by key
 * (`siteId:subjectId:sessionId`), saved with compare-and-set on the
 * revision (0: create only). */
#define AKC_TYPE_ASK_STORE (akc_ask_store_get_type ())
G_DECLARE_INTERFACE (AkcAskStore, akc_ask_store, AKC, ASK_STORE, GObject)

struct _AkcAskStoreInterface
{
  GTypeInterface parent_iface;

  void          (*load_async)  (AkcAskStore         *self,
                                const char          *key,
                                GCancellable        *cancellable,
                                GAsyncReadyCallback  callback,
                                gpointer             user_data);
  AkcJsonValue *(*load_finish) (AkcAskStore         *self,
                                GAsyncResult        *result,
                                GError             **error);
  void          (*save_async)  (AkcAskStore         *self,
                                const char          *key,
                                AkcJsonValue        *record,
                                gint64               expected_revision,
                                GCancellable        *cancellable,
                                GAsyncReadyCallback  callback,
                                gpointer             user_data);
  gboolean      (*save_finish) (AkcAskStore         *self,
                                GAsyncResult        *result,
                                gboolean            *saved,
                                GError             **error);
};

void          akc_ask_store_load_async  (AkcAskStore         *self,
                                         const char          *key,
                                         GCancellable        *cancellable,
                                         GAsyncReadyCallback  callback,
                                         gpointer             user_data);
AkcJsonValue *akc_ask_store_load_finish (AkcAskStore         *self,
                                         GAsyncResult        *result,
                                         GError             **error);
void          akc_ask_store_save_async  (AkcAskStore         *self,
                                         const char          *key,
                                         AkcJsonValue        *record,
                                         gint64               expected_revision,
                                         GCancellable        *cancellable,
                                         GAsyncReadyCallback  callback,
                                         gpointer             user_data);
gboolean      akc_ask_store_save_finish (AkcAskStore         *self,
                                         GAsyncResult        *result,
                                         gboolean            *saved,
                                         GError             **error);

/* Records kept in memory; saves of a key listed in @refused always lose
 * their compare-and-set (the scenario's `conflict-session`). */
#define AKC_TYPE_ASK_MEMORY_STORE (akc_ask_memory_store_get_type ())
G_DECLARE_FINAL_TYPE (AkcAskMemoryStore, akc_ask_memory_store, AKC, ASK_MEMORY_STORE, GObject)

AkcAskStore  *akc_ask_memory_store_new        (void);
void          akc_ask_memory_store_refuse     (AkcAskMemoryStore *self,
                                               const char        *session_id);
void          akc_ask_memory_store_put        (AkcAskMemoryStore *self,
                                               const char        *key,
                                               AkcJsonValue      *record);
AkcJsonValue *akc_ask_memory_store_dup_all    (AkcAskMemoryStore *self);

/* A retriever answering from a script (README "akc-server"): rules on the
 * question, each with its documents or a failure. */
#define AKC_TYPE_ASK_SCRIPT_RETRIEVER (akc_ask_script_retriever_get_type ())
G_DECLARE_FINAL_TYPE (AkcAskScriptRetriever, akc_ask_script_retriever, AKC, ASK_SCRIPT_RETRIEVER, GObject)

AkcAskRetriever *akc_ask_script_retriever_new_from_file (const char  *path,
                                                         GError     **error);

G_END_DECLS
