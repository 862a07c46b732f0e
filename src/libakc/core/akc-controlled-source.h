/* akc-controlled-source.h: a conversation whose state a host owns
 * (application §7, §12.9)
 *
 * SPDX-License-Identifier: MIT
 */

#pragma once

#if !defined(__AKC_INSIDE__) && !defined(AKC_COMPILATION)
#error "Only <akc.h> can be included directly."
#endif

#include <json-glib/json-glib.h>

#include "akc-chat-source.h"
#include "akc-diagnostic.h"
#include "akc-json.h"
#include "akc-version-macros.h"

G_BEGIN_DECLS

#define AKC_TYPE_CONTROLLED_SOURCE (akc_controlled_source_get_type ())

AKC_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (AkcControlledSource, akc_controlled_source, AKC, CONTROLLED_SOURCE, GObject)

AKC_AVAILABLE_IN_ALL
AkcControlledSource *akc_controlled_source_new                (void);
AKC_AVAILABLE_IN_ALL
const char          *akc_controlled_source_get_session_id     (AkcControlledSource  *self);
AKC_AVAILABLE_IN_ALL
AkcJsonValue        *akc_controlled_source_get_snapshot       (AkcControlledSource  *self);
AKC_AVAILABLE_IN_ALL
gboolean             akc_controlled_source_set_snapshot       (AkcControlledSource  *self,
                                                               AkcJsonValue         *snapshot,
                                                               GError              **error);
AKC_AVAILABLE_IN_ALL
gboolean             akc_controlled_source_set_snapshot_text  (AkcControlledSource  *self,
                                                               const char           *text,
                                                               gssize                length,
                                                               GError              **error);
AKC_AVAILABLE_IN_ALL
gboolean             akc_controlled_source_set_snapshot_node  (AkcControlledSource  *self,
                                                               JsonNode             *snapshot,
                                                               GError              **error);

AKC_AVAILABLE_IN_ALL
AkcJsonValue        *akc_controlled_snapshot_parse            (AkcJsonValue         *snapshot,
                                                               AkcDiagnostic       **diagnostic);
AKC_AVAILABLE_IN_ALL
const char * const  *akc_controlled_snapshot_get_callback_names (void);

G_END_DECLS
