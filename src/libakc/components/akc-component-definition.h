/* akc-component-definition.h: one component of the closed catalog
 * (application §1)
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
 * AkcComponentValueKind:
 * @AKC_COMPONENT_VALUE_NONE: the event carries no value
 * @AKC_COMPONENT_VALUE_ID: the value is an identifier ([application §0.3](wire-formats.html#application-0))
 * @AKC_COMPONENT_VALUE_FORM: the value is an object of field values
 * @AKC_COMPONENT_VALUE_URL: the value is a URL
 *
 * What the value of a component event is ([application §1.1](wire-formats.html#application-1)). The nick
 * of each value (`none`, `id`, `form`, `url`) is the reference's name.
 *
 * Since: 0.1
 */
typedef enum {
  AKC_COMPONENT_VALUE_NONE,
  AKC_COMPONENT_VALUE_ID,
  AKC_COMPONENT_VALUE_FORM,
  AKC_COMPONENT_VALUE_URL,
} AkcComponentValueKind;

/**
 * AkcComponentLive:
 * @AKC_COMPONENT_LIVE_NONE: changes are not announced
 * @AKC_COMPONENT_LIVE_POLITE: changes are announced when the user is idle
 *   (`gtk_accessible_announce()` at medium priority)
 * @AKC_COMPONENT_LIVE_ASSERTIVE: changes are announced at once (high
 *   priority)
 *
 * How a rendered component announces its changes to assistive
 * technologies (the ARIA `aria-live` value; [application §1.1](wire-formats.html#application-1)).
 *
 * Since: 0.1
 */
typedef enum {
  AKC_COMPONENT_LIVE_NONE,
  AKC_COMPONENT_LIVE_POLITE,
  AKC_COMPONENT_LIVE_ASSERTIVE,
} AkcComponentLive;

/**
 * AkcComponentCapabilities:
 * @AKC_COMPONENT_CAPABILITY_NONE: no capability
 * @AKC_COMPONENT_CAPABILITY_DISPLAY: shows information
 * @AKC_COMPONENT_CAPABILITY_SELECTION: lets the user pick one of several items
 * @AKC_COMPONENT_CAPABILITY_INPUT: takes typed input
 * @AKC_COMPONENT_CAPABILITY_ACTION: triggers an action (confirm, retry, approve)
 * @AKC_COMPONENT_CAPABILITY_NAVIGATION: opens links
 * @AKC_COMPONENT_CAPABILITY_PROGRESS: shows progress
 * @AKC_COMPONENT_CAPABILITY_DOWNLOAD: offers a file
 *
 * What a component can do ([application §1.1](wire-formats.html#application-1)). The flags are declared
 * in the order the reference lists capabilities.
 *
 * Since: 0.1
 */
typedef enum {
  AKC_COMPONENT_CAPABILITY_NONE       = 0,
  AKC_COMPONENT_CAPABILITY_DISPLAY    = 1 << 0,
  AKC_COMPONENT_CAPABILITY_SELECTION  = 1 << 1,
  AKC_COMPONENT_CAPABILITY_INPUT      = 1 << 2,
  AKC_COMPONENT_CAPABILITY_ACTION     = 1 << 3,
  AKC_COMPONENT_CAPABILITY_NAVIGATION = 1 << 4,
  AKC_COMPONENT_CAPABILITY_PROGRESS   = 1 << 5,
  AKC_COMPONENT_CAPABILITY_DOWNLOAD   = 1 << 6,
} AkcComponentCapabilities;

/* ------------------------------------------------------------------ */

typedef struct _AkcComponentEvent AkcComponentEvent;

#define AKC_TYPE_COMPONENT_EVENT (akc_component_event_get_type ())

AKC_AVAILABLE_IN_ALL
GType                  akc_component_event_get_type       (void) G_GNUC_CONST;
AKC_AVAILABLE_IN_ALL
AkcComponentEvent     *akc_component_event_new            (const char            *name,
                                                           AkcComponentValueKind  value_kind);
AKC_AVAILABLE_IN_ALL
AkcComponentEvent     *akc_component_event_ref            (AkcComponentEvent     *self);
AKC_AVAILABLE_IN_ALL
void                   akc_component_event_unref          (AkcComponentEvent     *self);
AKC_AVAILABLE_IN_ALL
const char            *akc_component_event_get_name       (const AkcComponentEvent *self);
AKC_AVAILABLE_IN_ALL
AkcComponentValueKind  akc_component_event_get_value_kind (const AkcComponentEvent *self);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (AkcComponentEvent, akc_component_event_unref)

/* ------------------------------------------------------------------ */

#define AKC_TYPE_COMPONENT_DEFINITION (akc_component_definition_get_type ())

AKC_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (AkcComponentDefinition, akc_component_definition, AKC, COMPONENT_DEFINITION, GObject)

/**
 * AkcComponentPropsFunc:
 * @definition: the definition whose props are validated
 * @props: the `props` of a render frame: any JSON value, `null` included
 * @user_data: the data given with the function
 *
 * Validates the props of a custom component (the reference's
 * `propsSchema`). The function must not keep @props beyond the call
 * unless it takes a reference.
 *
 * Returns: (transfer full) (nullable): the validated props (usually a new
 *   reference to @props, or a normalised copy), or %NULL when @props are
 *   invalid
 *
 * Since: 0.1
 */
typedef AkcJsonValue *(*AkcComponentPropsFunc) (AkcComponentDefinition *definition,
                                                AkcJsonValue           *props,
                                                gpointer                user_data);

/**
 * AkcComponentFallbackFunc:
 * @definition: the definition
 * @props: props that the definition validated
 * @user_data: the data given with the function
 *
 * Builds the plain-text summary of a custom component (the reference's
 * `fallback(props)`, [application §2.9](wire-formats.html#application-2)).
 *
 * Returns: (transfer full) (nullable): the summary, or %NULL for none
 *
 * Since: 0.1
 */
typedef char *(*AkcComponentFallbackFunc) (AkcComponentDefinition *definition,
                                           AkcJsonValue           *props,
                                           gpointer                user_data);

AKC_AVAILABLE_IN_ALL
AkcComponentDefinition *akc_component_definition_new                 (const char                *key,
                                                                      AkcComponentEvent * const *events,
                                                                      gsize                      n_events,
                                                                      const char                *role,
                                                                      gboolean                   keyboard,
                                                                      AkcComponentLive           live,
                                                                      AkcComponentCapabilities   capabilities,
                                                                      AkcComponentPropsFunc      props_func,
                                                                      gpointer                   props_data,
                                                                      GDestroyNotify             props_destroy,
                                                                      AkcComponentFallbackFunc   fallback_func,
                                                                      gpointer                   fallback_data,
                                                                      GDestroyNotify             fallback_destroy);

AKC_AVAILABLE_IN_ALL
AkcComponentDefinition *akc_component_definition_get_standard        (const char                *key);
AKC_AVAILABLE_IN_ALL
const char * const     *akc_component_definition_get_standard_keys   (void);

AKC_AVAILABLE_IN_ALL
const char             *akc_component_definition_get_key             (AkcComponentDefinition    *self);
AKC_AVAILABLE_IN_ALL
gboolean                akc_component_definition_is_standard         (AkcComponentDefinition    *self);
AKC_AVAILABLE_IN_ALL
guint                   akc_component_definition_get_n_events        (AkcComponentDefinition    *self);
AKC_AVAILABLE_IN_ALL
AkcComponentEvent      *akc_component_definition_get_event           (AkcComponentDefinition    *self,
                                                                      guint                      index_);
AKC_AVAILABLE_IN_ALL
AkcComponentEvent      *akc_component_definition_lookup_event        (AkcComponentDefinition    *self,
                                                                      const char                *name);
AKC_AVAILABLE_IN_ALL
const char             *akc_component_definition_get_role            (AkcComponentDefinition    *self);
AKC_AVAILABLE_IN_ALL
gboolean                akc_component_definition_get_keyboard        (AkcComponentDefinition    *self);
AKC_AVAILABLE_IN_ALL
AkcComponentLive        akc_component_definition_get_live            (AkcComponentDefinition    *self);
AKC_AVAILABLE_IN_ALL
AkcComponentCapabilities akc_component_definition_get_capabilities   (AkcComponentDefinition    *self);

AKC_AVAILABLE_IN_ALL
AkcJsonValue           *akc_component_definition_validate_props      (AkcComponentDefinition    *self,
                                                                      AkcJsonValue              *props);
AKC_AVAILABLE_IN_ALL
char                   *akc_component_definition_dup_fallback        (AkcComponentDefinition    *self,
                                                                      AkcJsonValue              *props);
AKC_AVAILABLE_IN_ALL
gboolean                akc_component_definition_has_fallback        (AkcComponentDefinition    *self);

G_END_DECLS
