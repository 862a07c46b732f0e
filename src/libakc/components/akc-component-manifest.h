/* akc-component-manifest.h: a closed set of component definitions
 * (application §2.3–§2.5, §2.9)
 *
 * SPDX-License-Identifier: MIT
 */

#pragma once

#if !defined(__AKC_INSIDE__) && !defined(AKC_COMPILATION)
#error "Only <akc.h> can be included directly."
#endif

#include <glib-object.h>

#include "akc-component-definition.h"
#include "akc-diagnostic.h"
#include "akc-json.h"
#include "akc-resolved-component.h"
#include "akc-version-macros.h"

G_BEGIN_DECLS

#define AKC_TYPE_COMPONENT_MANIFEST (akc_component_manifest_get_type ())

AKC_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (AkcComponentManifest, akc_component_manifest, AKC, COMPONENT_MANIFEST, GObject)

AKC_AVAILABLE_IN_ALL
AkcComponentManifest   *akc_component_manifest_new                  (AkcComponentDefinition * const *definitions,
                                                                     gsize                           n_definitions,
                                                                     GError                        **error);
AKC_AVAILABLE_IN_ALL
AkcComponentManifest   *akc_component_manifest_new_standard         (void);

AKC_AVAILABLE_IN_ALL
guint                   akc_component_manifest_get_n_definitions    (AkcComponentManifest  *self);
AKC_AVAILABLE_IN_ALL
AkcComponentDefinition *akc_component_manifest_get_definition       (AkcComponentManifest  *self,
                                                                     guint                  index_);
AKC_AVAILABLE_IN_ALL
AkcComponentDefinition *akc_component_manifest_lookup               (AkcComponentManifest  *self,
                                                                     const char            *key);

AKC_AVAILABLE_IN_ALL
AkcResolvedComponent   *akc_component_manifest_resolve              (AkcComponentManifest  *self,
                                                                     AkcJsonValue          *frame,
                                                                     AkcDiagnostic        **diagnostic);
AKC_AVAILABLE_IN_ALL
AkcResolvedComponent   *akc_component_manifest_resolve_text         (AkcComponentManifest  *self,
                                                                     const char            *text,
                                                                     gssize                 length,
                                                                     AkcDiagnostic        **diagnostic);
AKC_AVAILABLE_IN_ALL
AkcResolvedComponent *akc_component_manifest_resolve_text_utf8 (AkcComponentManifest  *self,
                                                                const char            *text,
                                                                AkcDiagnostic        **diagnostic);
AKC_AVAILABLE_IN_ALL
AkcResolvedComponent   *akc_component_manifest_resolve_choice_list  (AkcComponentManifest  *self,
                                                                     AkcJsonValue          *frame,
                                                                     AkcDiagnostic        **diagnostic);
AKC_AVAILABLE_IN_ALL
AkcJsonValue           *akc_component_manifest_create_interaction   (AkcComponentManifest  *self,
                                                                     AkcJsonValue          *frame,
                                                                     const char            *event,
                                                                     AkcJsonValue          *value,
                                                                     GError               **error);
AKC_AVAILABLE_IN_ALL
char                   *akc_component_manifest_resolve_fallback     (AkcComponentManifest  *self,
                                                                     AkcJsonValue          *frame);

G_END_DECLS
