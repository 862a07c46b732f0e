/* akc-presentation.h: how one message is presented (application §12.2)
 *
 * SPDX-License-Identifier: MIT
 */

#pragma once

#if !defined(__AKC_INSIDE__) && !defined(AKC_COMPILATION)
#error "Only <akc.h> can be included directly."
#endif

#include <gio/gio.h>

#include "akc-component-manifest.h"
#include "akc-diagnostic.h"
#include "akc-json.h"
#include "akc-message.h"
#include "akc-resolved-component.h"
#include "akc-version-macros.h"

G_BEGIN_DECLS

/**
 * AkcPresentationKind:
 * @AKC_PRESENTATION_MESSAGE: a plain message bubble with
 *   [method@Presentation.get_text]
 * @AKC_PRESENTATION_DIAGNOSTIC: an alert (error role) showing only the
 *   diagnostic's message; the code may go into a tooltip
 * @AKC_PRESENTATION_COMPONENT: a render frame, drawn as decided by
 *   [method@Presentation.get_rendering]
 *
 * What one presentation of a message is ([application §12.2](wire-formats.html#application-12)). The
 * nicks (`message`, `diagnostic`, `component`) are the reference's.
 *
 * Since: 0.1
 */
typedef enum {
  AKC_PRESENTATION_MESSAGE,
  AKC_PRESENTATION_DIAGNOSTIC,
  AKC_PRESENTATION_COMPONENT,
} AkcPresentationKind;

/**
 * AkcComponentRendering:
 * @AKC_COMPONENT_RENDERING_NONE: not a component presentation
 * @AKC_COMPONENT_RENDERING_FALLBACK: show the semantic fallback text
 *   (dimmed) and never emit events: there is no manifest, or the frame
 *   does not resolve against it (unknown key or invalid props)
 * @AKC_COMPONENT_RENDERING_STANDARD: draw the standard widget of the
 *   resolved key (the choice-list widget for `choice-list`)
 * @AKC_COMPONENT_RENDERING_CUSTOM: the frame resolved to a custom
 *   definition: draw it with the view's custom renderer for that key, or
 *   show the semantic fallback when there is none
 *
 * How a component presentation is drawn ([application §12.2](wire-formats.html#application-12) “Rendering
 * a frame”).
 *
 * Since: 0.1
 */
typedef enum {
  AKC_COMPONENT_RENDERING_NONE,
  AKC_COMPONENT_RENDERING_FALLBACK,
  AKC_COMPONENT_RENDERING_STANDARD,
  AKC_COMPONENT_RENDERING_CUSTOM,
} AkcComponentRendering;

#define AKC_TYPE_PRESENTATION (akc_presentation_get_type ())

AKC_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (AkcPresentation, akc_presentation, AKC, PRESENTATION, GObject)

AKC_AVAILABLE_IN_ALL
GListModel            *akc_present_message              (AkcMessage           *message,
                                                         AkcComponentManifest *manifest);
AKC_AVAILABLE_IN_ALL
GListModel            *akc_present_content              (AkcMessageRole        role,
                                                         const char           *content,
                                                         gssize                length,
                                                         AkcComponentManifest *manifest);
AKC_AVAILABLE_IN_ALL
GListModel *akc_present_content_utf8 (AkcMessageRole        role,
                                      const char           *content,
                                      AkcComponentManifest *manifest);

AKC_AVAILABLE_IN_ALL
AkcPresentationKind    akc_presentation_get_kind        (AkcPresentation      *self);
AKC_AVAILABLE_IN_ALL
const char            *akc_presentation_get_text        (AkcPresentation      *self,
                                                         gsize                *length);
AKC_AVAILABLE_IN_ALL
const char *akc_presentation_get_text_utf8 (AkcPresentation *self);
AKC_AVAILABLE_IN_ALL
AkcDiagnostic         *akc_presentation_get_diagnostic  (AkcPresentation      *self);
AKC_AVAILABLE_IN_ALL
AkcJsonValue          *akc_presentation_get_frame       (AkcPresentation      *self);
AKC_AVAILABLE_IN_ALL
AkcComponentRendering  akc_presentation_get_rendering   (AkcPresentation      *self);
AKC_AVAILABLE_IN_ALL
AkcResolvedComponent  *akc_presentation_get_resolved    (AkcPresentation      *self);

G_END_DECLS
