/* akc-input-ownership.h: which component owns input (application §12.4,
 * §12.7)
 *
 * SPDX-License-Identifier: MIT
 */

#pragma once

#if !defined(__AKC_INSIDE__) && !defined(AKC_COMPILATION)
#error "Only <akc.h> can be included directly."
#endif

#include <gio/gio.h>

#include "akc-component-manifest.h"
#include "akc-component-resolution.h"
#include "akc-presentation.h"
#include "akc-version-macros.h"

G_BEGIN_DECLS

#define AKC_TYPE_INPUT_OWNERSHIP (akc_input_ownership_get_type ())

AKC_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (AkcInputOwnership, akc_input_ownership, AKC, INPUT_OWNERSHIP, GObject)

AKC_AVAILABLE_IN_ALL
AkcInputOwnership *akc_input_ownership_new             (void);

AKC_AVAILABLE_IN_ALL
void               akc_input_ownership_set_navigation_owns_input (AkcInputOwnership *self,
                                                                  gboolean           owns_input);
AKC_AVAILABLE_IN_ALL
gboolean           akc_input_ownership_get_navigation_owns_input (AkcInputOwnership *self);

AKC_AVAILABLE_IN_ALL
gboolean           akc_input_ownership_mark_resolved   (AkcInputOwnership    *self,
                                                        const char           *instance_id);
AKC_AVAILABLE_IN_ALL
gboolean           akc_input_ownership_resolve         (AkcInputOwnership      *self,
                                                        AkcComponentResolution *resolution);
AKC_AVAILABLE_IN_ALL
AkcComponentResolution *akc_input_ownership_get_resolution (AkcInputOwnership *self,
                                                        const char           *instance_id);
AKC_AVAILABLE_IN_ALL
gboolean           akc_input_ownership_unmark_resolved (AkcInputOwnership    *self,
                                                        const char           *instance_id);
AKC_AVAILABLE_IN_ALL
gboolean           akc_input_ownership_is_resolved     (AkcInputOwnership    *self,
                                                        const char           *instance_id);
AKC_AVAILABLE_IN_ALL
guint              akc_input_ownership_get_n_resolved  (AkcInputOwnership    *self);
AKC_AVAILABLE_IN_ALL
void               akc_input_ownership_reset           (AkcInputOwnership    *self);

AKC_AVAILABLE_IN_ALL
AkcPresentation   *akc_input_ownership_find_active     (AkcInputOwnership    *self,
                                                        GListModel           *messages,
                                                        AkcComponentManifest *manifest,
                                                        guint                *message_position,
                                                        guint                *presentation_position);

G_END_DECLS
