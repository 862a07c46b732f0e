/* akc-component-view.h
 *
 * SPDX-License-Identifier: MIT
 */

#pragma once

#if !defined(__AKC_GTK_INSIDE__) && !defined(AKC_GTK_COMPILATION)
#error "Only <akc-gtk.h> can be included directly."
#endif

#include <gtk/gtk.h>
#include <akc.h>

#include "akc-gtk-version-macros.h"

G_BEGIN_DECLS

/**
 * AkcComponentFailure:
 * @AKC_COMPONENT_FAILURE_INTERACTION: the host interaction handler failed;
 *   the instance is un-resolved ("Component interaction callback failed.")
 * @AKC_COMPONENT_FAILURE_SELECTION: the host selection handler failed; the
 *   instance stays resolved ("Component selection callback failed.")
 * @AKC_COMPONENT_FAILURE_ACTION_PROPOSAL: proposing the chosen choice's
 *   typed action failed; the instance is un-resolved ("Action proposal
 *   failed.")
 * @AKC_COMPONENT_FAILURE_SUBMISSION_AUTHORIZATION: the choice submission
 *   hook failed; the instance is un-resolved ("Choice submission
 *   authorization failed.")
 * @AKC_COMPONENT_FAILURE_SUBMISSION_EXPIRED: the choice submission hook
 *   said the choice is stale; the instance is un-resolved and the fixed
 *   "expired" message is shown (any given message is ignored)
 * @AKC_COMPONENT_FAILURE_SUBMISSION: sending the reserved choice failed;
 *   the instance is un-resolved ("Choice submission failed.")
 * @AKC_COMPONENT_FAILURE_SETTLEMENT: committing the reservation failed; the
 *   instance stays resolved ("Choice submission settlement failed.")
 *
 * How the host's handling of an event failed ([application §12.7](../Akc-1/wire-formats.html#application-12)), which
 * decides whether the instance becomes usable again and the message shown
 * when the host gives none.
 *
 * Since: 0.1
 */
typedef enum {
  AKC_COMPONENT_FAILURE_INTERACTION,
  AKC_COMPONENT_FAILURE_SELECTION,
  AKC_COMPONENT_FAILURE_ACTION_PROPOSAL,
  AKC_COMPONENT_FAILURE_SUBMISSION_AUTHORIZATION,
  AKC_COMPONENT_FAILURE_SUBMISSION_EXPIRED,
  AKC_COMPONENT_FAILURE_SUBMISSION,
  AKC_COMPONENT_FAILURE_SETTLEMENT,
} AkcComponentFailure;

#define AKC_TYPE_COMPONENT_FAILURE (akc_component_failure_get_type ())

AKC_GTK_AVAILABLE_IN_ALL
GType akc_component_failure_get_type (void) G_GNUC_CONST;

#define AKC_TYPE_COMPONENT_VIEW (akc_component_view_get_type ())

AKC_GTK_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (AkcComponentView, akc_component_view, AKC, COMPONENT_VIEW, GtkWidget)

AKC_GTK_AVAILABLE_IN_ALL
GtkWidget            *akc_component_view_new                    (AkcJsonValue         *frame,
                                                                 AkcComponentManifest *manifest);

AKC_GTK_AVAILABLE_IN_ALL
AkcJsonValue         *akc_component_view_get_frame              (AkcComponentView     *self);
AKC_GTK_AVAILABLE_IN_ALL
AkcComponentManifest *akc_component_view_get_manifest           (AkcComponentView     *self);
AKC_GTK_AVAILABLE_IN_ALL
AkcResolvedComponent *akc_component_view_get_resolved_component (AkcComponentView     *self);
AKC_GTK_AVAILABLE_IN_ALL
const char           *akc_component_view_get_component_key      (AkcComponentView     *self);
AKC_GTK_AVAILABLE_IN_ALL
const char           *akc_component_view_get_instance_id        (AkcComponentView     *self);
AKC_GTK_AVAILABLE_IN_ALL
gboolean              akc_component_view_get_is_fallback        (AkcComponentView     *self);
AKC_GTK_AVAILABLE_IN_ALL
GtkWidget            *akc_component_view_get_content            (AkcComponentView     *self);

AKC_GTK_AVAILABLE_IN_ALL
gboolean              akc_component_view_get_interactive        (AkcComponentView     *self);
AKC_GTK_AVAILABLE_IN_ALL
gboolean              akc_component_view_get_resolved           (AkcComponentView     *self);
AKC_GTK_AVAILABLE_IN_ALL
void                  akc_component_view_set_resolved           (AkcComponentView     *self,
                                                                 gboolean              resolved);
AKC_GTK_AVAILABLE_IN_ALL
void                  akc_component_view_set_resolution         (AkcComponentView       *self,
                                                                 AkcComponentResolution *resolution);
AKC_GTK_AVAILABLE_IN_ALL
AkcComponentResolution *akc_component_view_get_resolution       (AkcComponentView       *self);

AKC_GTK_AVAILABLE_IN_ALL
gboolean              akc_component_view_get_active             (AkcComponentView     *self);
AKC_GTK_AVAILABLE_IN_ALL
void                  akc_component_view_set_active             (AkcComponentView     *self,
                                                                 gboolean              active);

AKC_GTK_AVAILABLE_IN_ALL
const char           *akc_component_view_get_error_message      (AkcComponentView     *self);
AKC_GTK_AVAILABLE_IN_ALL
void                  akc_component_view_fail                   (AkcComponentView     *self,
                                                                 AkcComponentFailure   failure,
                                                                 const char           *message);

AKC_GTK_AVAILABLE_IN_ALL
void                  akc_component_view_emit_event             (AkcComponentView     *self,
                                                                 const char           *event,
                                                                 AkcJsonValue         *value);

G_END_DECLS
