/* akc-window.h
 *
 * SPDX-License-Identifier: MIT
 */

#pragma once

#include <adwaita.h>
#include <akc.h>

#include "akc-app-session.h"
#include "akc-backend.h"
#include "akc-knowledge-layer.h"
#include "akc-model-switch.h"

G_BEGIN_DECLS

#define AKC_TYPE_WINDOW (akc_window_get_type ())

G_DECLARE_FINAL_TYPE (AkcWindow, akc_window, AKC, WINDOW, AdwApplicationWindow)

AkcWindow     *akc_window_new        (AdwApplication *application);
AkcChatSource *akc_window_get_source (AkcWindow      *self);
const char    *akc_window_get_conversation (AkcWindow  *self);
void           akc_window_set_conversation (AkcWindow  *self,
                                            const char *id);
AkcAppSession *akc_window_get_session      (AkcWindow  *self);
AkcConversationItem *akc_window_get_item   (AkcWindow  *self);
void           akc_window_show_item        (AkcWindow  *self,
                                            AkcConversationItem *item);
void           akc_window_import           (AkcWindow  *self,
                                            GFile      *file);
GtkWindow     *akc_window_show_preferences (AkcWindow  *self);
AkcBackend    *akc_window_get_backend      (AkcWindow      *self,
                                            AkcBackendKind  kind);
AkcModelSwitch *akc_window_get_model_switch (AkcWindow     *self);
GtkWidget     *akc_window_get_ollama_offer (AkcWindow      *self,
                                            gboolean       *probing);

void            akc_window_set_memory          (AkcWindow     *self,
                                                AkcChatMemory *memory);
AkcChatHistory *akc_window_get_history         (AkcWindow     *self);
void            akc_window_show_history_error  (AkcWindow     *self,
                                                const GError  *error);

void               akc_window_use_knowledge    (AkcWindow     *self,
                                                GFile         *site_config,
                                                GFile         *artifact);
AkcKnowledgeLayer *akc_window_get_knowledge    (AkcWindow     *self);

G_END_DECLS
