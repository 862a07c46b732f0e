/* akc-inspector.h: the Developer Tools window, why a conversation did what
 * it did
 *
 * SPDX-License-Identifier: MIT
 */

#pragma once

#include <adwaita.h>
#include <akc.h>

#include "akc-window.h"

G_BEGIN_DECLS

#define AKC_TYPE_INSPECTOR (akc_inspector_get_type ())

G_DECLARE_FINAL_TYPE (AkcInspector, akc_inspector, AKC, INSPECTOR, AdwWindow)

AkcInspector    *akc_inspector_new                (void);
void             akc_inspector_set_conversation   (AkcInspector    *self,
                                                   const char      *title,
                                                   AkcTraceCapture *capture,
                                                   GListModel      *messages);
void             akc_inspector_follow             (AkcInspector    *self,
                                                   AkcWindow       *window);
AkcTraceCapture *akc_inspector_get_capture        (AkcInspector    *self);
guint            akc_inspector_get_n_rows         (AkcInspector    *self);
char            *akc_inspector_dup_row_title      (AkcInspector    *self,
                                                   guint            index_);
gboolean         akc_inspector_save_fixture       (AkcInspector    *self,
                                                   GFile           *file,
                                                   GError         **error);

void             akc_inspector_set_settings       (AkcInspector    *self,
                                                   GSettings       *settings);
guint            akc_inspector_get_n_wire_rows    (AkcInspector    *self);
char            *akc_inspector_dup_wire_row_text  (AkcInspector    *self,
                                                   guint            index_);
const char      *akc_inspector_get_visible_page   (AkcInspector    *self);
char            *akc_inspector_dup_notice         (AkcInspector    *self);

G_END_DECLS
