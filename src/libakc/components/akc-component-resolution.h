/* akc-component-resolution.h: how one component instance was answered
 * (application §12.7)
 *
 * SPDX-License-Identifier: MIT
 */

#pragma once

#if !defined(__AKC_INSIDE__) && !defined(AKC_COMPILATION)
#error "Only <akc.h> can be included directly."
#endif

#include <glib-object.h>

#include "akc-json.h"
#include "akc-version-macros.h"

G_BEGIN_DECLS

/**
 * AKC_COMPONENT_RESOLUTION_SELECT:
 *
 * The event of a resolution made by choosing an option of a choice list;
 * its value is the chosen option's id.
 *
 * Since: 0.1
 */
#define AKC_COMPONENT_RESOLUTION_SELECT "select"

/**
 * AKC_COMPONENT_RESOLUTION_SET_ASIDE:
 *
 * The event of a component the person set aside without an answer
 * (Escape, or typing into the composer, docs/port-decisions.md §12.4); it
 * has no value. It is not an event of the catalog: it is how the history
 * keeps the instance inert.
 *
 * Since: 0.1
 */
#define AKC_COMPONENT_RESOLUTION_SET_ASIDE "set-aside"

#define AKC_TYPE_COMPONENT_RESOLUTION (akc_component_resolution_get_type ())

AKC_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (AkcComponentResolution, akc_component_resolution, AKC, COMPONENT_RESOLUTION, GObject)

AKC_AVAILABLE_IN_ALL
AkcComponentResolution *akc_component_resolution_new             (const char             *instance_id,
                                                                  const char             *message_id,
                                                                  const char             *event,
                                                                  AkcJsonValue           *value,
                                                                  gint64                  resolved_at);
AKC_AVAILABLE_IN_ALL
const char             *akc_component_resolution_get_instance_id (AkcComponentResolution *self);
AKC_AVAILABLE_IN_ALL
const char             *akc_component_resolution_get_message_id  (AkcComponentResolution *self);
AKC_AVAILABLE_IN_ALL
const char             *akc_component_resolution_get_event       (AkcComponentResolution *self);
AKC_AVAILABLE_IN_ALL
AkcJsonValue           *akc_component_resolution_get_value       (AkcComponentResolution *self);
AKC_AVAILABLE_IN_ALL
gint64                  akc_component_resolution_get_resolved_at (AkcComponentResolution *self);
AKC_AVAILABLE_IN_ALL
const char             *akc_component_resolution_get_choice_id   (AkcComponentResolution *self);

G_END_DECLS
