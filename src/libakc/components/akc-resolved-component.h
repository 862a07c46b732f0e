/* akc-resolved-component.h: a render frame resolved against a manifest
 * (application §2.4)
 *
 * SPDX-License-Identifier: MIT
 */

#pragma once

#if !defined(__AKC_INSIDE__) && !defined(AKC_COMPILATION)
#error "Only <akc.h> can be included directly."
#endif

#include <glib-object.h>

#include "akc-component-definition.h"
#include "akc-json.h"
#include "akc-version-macros.h"

G_BEGIN_DECLS

#define AKC_TYPE_RESOLVED_COMPONENT (akc_resolved_component_get_type ())

AKC_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (AkcResolvedComponent, akc_resolved_component, AKC, RESOLVED_COMPONENT, GObject)

AKC_AVAILABLE_IN_ALL
AkcJsonValue           *akc_resolved_component_get_frame              (AkcResolvedComponent *self);
AKC_AVAILABLE_IN_ALL
AkcJsonValue           *akc_resolved_component_get_props              (AkcResolvedComponent *self);
AKC_AVAILABLE_IN_ALL
AkcComponentDefinition *akc_resolved_component_get_definition         (AkcResolvedComponent *self);
AKC_AVAILABLE_IN_ALL
const char             *akc_resolved_component_get_component_key      (AkcResolvedComponent *self);
AKC_AVAILABLE_IN_ALL
const char             *akc_resolved_component_get_instance_id        (AkcResolvedComponent *self);
AKC_AVAILABLE_IN_ALL
gboolean                akc_resolved_component_is_standard            (AkcResolvedComponent *self);
AKC_AVAILABLE_IN_ALL
gboolean                akc_resolved_component_is_interactive         (AkcResolvedComponent *self);
AKC_AVAILABLE_IN_ALL
char                   *akc_resolved_component_dup_description        (AkcResolvedComponent *self);
AKC_AVAILABLE_IN_ALL
char                   *akc_resolved_component_dup_semantic_fallback  (AkcResolvedComponent *self);

AKC_AVAILABLE_IN_ALL
AkcJsonValue           *akc_resolved_component_create_interaction     (AkcResolvedComponent *self,
                                                                       const char           *event,
                                                                       AkcJsonValue         *value,
                                                                       GError              **error);
AKC_AVAILABLE_IN_ALL
AkcJsonValue           *akc_resolved_component_select_choice          (AkcResolvedComponent *self,
                                                                       const char           *choice_id,
                                                                       GError              **error);
AKC_AVAILABLE_IN_ALL
AkcJsonValue           *akc_resolved_component_get_choice_action      (AkcResolvedComponent *self,
                                                                       const char           *choice_id);

G_END_DECLS
