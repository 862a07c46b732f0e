/* akc-model-switch.h: the model of a provider conversation, in the
 * header bar, and the models it can switch to
 *
 * SPDX-License-Identifier: MIT
 */

#pragma once

#include <adwaita.h>

#include "akc-app-session.h"

G_BEGIN_DECLS

#define AKC_TYPE_MODEL_SWITCH (akc_model_switch_get_type ())

G_DECLARE_FINAL_TYPE (AkcModelSwitch, akc_model_switch, AKC, MODEL_SWITCH, GtkWidget)

GtkWidget *akc_model_switch_new              (void);
void       akc_model_switch_set_conversation (AkcModelSwitch      *self,
                                              AkcAppSession       *session,
                                              AkcConversationItem *item);
void       akc_model_switch_popup            (AkcModelSwitch      *self);
GtkWidget *akc_model_switch_get_list         (AkcModelSwitch      *self);
GtkLabel  *akc_model_switch_get_status       (AkcModelSwitch      *self);
GtkSwitch *akc_model_switch_get_images_switch (AkcModelSwitch      *self);
gboolean   akc_model_switch_get_loading      (AkcModelSwitch      *self);

G_END_DECLS
