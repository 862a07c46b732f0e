/* akc-app-session.h: the application's conversations and assistants
 *
 * SPDX-License-Identifier: MIT
 */

#pragma once

#include <gio/gio.h>
#include <akc.h>

#include "akc-assistant.h"
#include "akc-backend.h"
#include "akc-conversation-item.h"
#include "akc-knowledge-layer.h"

G_BEGIN_DECLS

/**
 * AKC_APP_SESSION_ERROR:
 *
 * The error domain of [class@AppSession].
 */
#define AKC_APP_SESSION_ERROR (akc_app_session_error_quark ())

/**
 * AkcAppSessionError:
 * @AKC_APP_SESSION_ERROR_UNKNOWN_ASSISTANT: there is no assistant of that id
 * @AKC_APP_SESSION_ERROR_NOT_SET_UP: the assistant's backend is not set up
 *   in the preferences yet
 *
 * Why a conversation cannot be started or opened.
 */
typedef enum {
  AKC_APP_SESSION_ERROR_UNKNOWN_ASSISTANT,
  AKC_APP_SESSION_ERROR_NOT_SET_UP,
} AkcAppSessionError;

GQuark akc_app_session_error_quark (void);

#define AKC_TYPE_APP_SESSION (akc_app_session_get_type ())

G_DECLARE_FINAL_TYPE (AkcAppSession, akc_app_session, AKC, APP_SESSION, GObject)

AkcAppSession       *akc_app_session_new                   (GSettings            *settings);
GSettings           *akc_app_session_get_settings          (AkcAppSession        *self);
AkcBackend          *akc_app_session_get_backend           (AkcAppSession        *self,
                                                            AkcBackendKind        kind);
AkcKnowledgeLayer   *akc_app_session_get_knowledge         (AkcAppSession        *self,
                                                            AkcAssistantKind      kind);
void                 akc_app_session_use_knowledge         (AkcAppSession        *self,
                                                            GFile                *site_config,
                                                            GFile                *artifact);

GListModel          *akc_app_session_get_assistants        (AkcAppSession        *self);
AkcAssistant        *akc_app_session_lookup_assistant      (AkcAppSession        *self,
                                                            const char           *id);
GListModel          *akc_app_session_get_conversations     (AkcAppSession        *self);
AkcConversationItem *akc_app_session_lookup_conversation   (AkcAppSession        *self,
                                                            const char           *id);

void                 akc_app_session_expect_memory         (AkcAppSession        *self);
void                 akc_app_session_set_memory            (AkcAppSession        *self,
                                                            AkcChatMemory        *memory);
void                 akc_app_session_set_memory_error      (AkcAppSession        *self,
                                                            const GError         *error);
AkcChatMemory       *akc_app_session_get_memory            (AkcAppSession        *self);
const GError        *akc_app_session_get_memory_error      (AkcAppSession        *self);
gboolean             akc_app_session_get_ready             (AkcAppSession        *self);
gboolean             akc_app_session_get_first_run         (AkcAppSession        *self);
void                 akc_app_session_probe_local_ollama    (AkcAppSession        *self);
const char          *akc_app_session_get_local_ollama_model (AkcAppSession       *self);
gboolean             akc_app_session_get_probing_local_ollama (AkcAppSession     *self);

gboolean             akc_app_session_check_assistant       (AkcAppSession        *self,
                                                            const char           *assistant_id,
                                                            GError              **error);
AkcConversationItem *akc_app_session_get_default_conversation (AkcAppSession     *self,
                                                            const char           *assistant_id,
                                                            GError              **error);
gboolean             akc_app_session_get_complete          (AkcAppSession        *self);
void                 akc_app_session_find_default_conversation_async  (AkcAppSession       *self,
                                                                       const char          *assistant_id,
                                                                       GCancellable        *cancellable,
                                                                       GAsyncReadyCallback  callback,
                                                                       gpointer             user_data);
AkcConversationItem *akc_app_session_find_default_conversation_finish (AkcAppSession       *self,
                                                                       GAsyncResult        *result,
                                                                       GError             **error);
void                 akc_app_session_set_conversation_model (AkcAppSession      *self,
                                                            AkcConversationItem *item,
                                                            const char          *model);
AkcConversationItem *akc_app_session_new_conversation      (AkcAppSession        *self,
                                                            const char           *assistant_id,
                                                            GError              **error);
gboolean             akc_app_session_open                  (AkcAppSession        *self,
                                                            AkcConversationItem  *item,
                                                            GError              **error);
void                 akc_app_session_rename                (AkcAppSession        *self,
                                                            AkcConversationItem  *item,
                                                            const char           *title);
void                 akc_app_session_set_pinned            (AkcAppSession        *self,
                                                            AkcConversationItem  *item,
                                                            gboolean              pinned);
guint                akc_app_session_remove                (AkcAppSession        *self,
                                                            AkcConversationItem **items,
                                                            guint                 n_items);
void                 akc_app_session_restore               (AkcAppSession        *self,
                                                            guint                 removal);
void                 akc_app_session_purge                 (AkcAppSession        *self,
                                                            guint                 removal);
void                 akc_app_session_search_async          (AkcAppSession        *self,
                                                            const char           *text,
                                                            GCancellable         *cancellable,
                                                            GAsyncReadyCallback   callback,
                                                            gpointer              user_data);
GHashTable          *akc_app_session_search_finish         (AkcAppSession        *self,
                                                            GAsyncResult         *result,
                                                            GError              **error);
void                 akc_app_session_export_async          (AkcAppSession        *self,
                                                            AkcConversationItem  *item,
                                                            gboolean              markdown,
                                                            GCancellable         *cancellable,
                                                            GAsyncReadyCallback   callback,
                                                            gpointer              user_data);
GBytes              *akc_app_session_export_finish         (AkcAppSession        *self,
                                                            GAsyncResult         *result,
                                                            GError              **error);
void                 akc_app_session_import_async          (AkcAppSession        *self,
                                                            GBytes               *data,
                                                            GCancellable         *cancellable,
                                                            GAsyncReadyCallback   callback,
                                                            gpointer              user_data);
AkcConversationItem *akc_app_session_import_finish         (AkcAppSession        *self,
                                                            GAsyncResult         *result,
                                                            GError              **error);
void                 akc_app_session_keep_draft            (AkcAppSession        *self,
                                                            AkcConversationItem  *item);
void                 akc_app_session_close                 (AkcAppSession        *self);

G_END_DECLS
