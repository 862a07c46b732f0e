/* akc-component-private.h: the standard catalog as data (application §1)
 *
 * SPDX-License-Identifier: MIT
 *
 * Each standard component is one row of akc_standard_components[]: its
 * props as a field table of the project's schema helper
 * (akc-schema-private.h), its events, accessibility metadata,
 * capabilities, fallback builder and interaction rule. The public
 * AkcComponentDefinition objects wrap these rows.
 */

#pragma once

#include "akc-component-definition.h"
#include "akc-resolved-component.h"
#include "akc-schema-private.h"

G_BEGIN_DECLS

/* Appends the definition fallback of §1.x "Fallback" for validated props. */
typedef void     (*AkcComponentFallbackBuilder) (GString       *out,
                                                 AkcJsonValue  *props);

/* The per-component interaction rule of §1.x "Interaction" for validated
 * props; @value is NULL when absent. The event name is already known to be
 * declared by the component. */
typedef gboolean (*AkcComponentInteractionRule) (const char    *event,
                                                 AkcJsonValue  *props,
                                                 AkcJsonValue  *value);

/* application appendix A: the configuration error of §2.5, shared by
 * the manifest and the resolved component. */
#define AKC_COMPONENT_INTERACTION_INVALID "Component interaction is not declared by the resolved component."

typedef struct {
  const char            *name;
  AkcComponentValueKind  value_kind;
} AkcStandardEvent;

typedef struct {
  const char                  *key;
  const AkcSchemaTable        *props;
  const AkcStandardEvent      *events;
  guint                        n_events;
  const char                  *role;
  gboolean                     keyboard;
  AkcComponentLive             live;
  AkcComponentCapabilities     capabilities;
  AkcComponentFallbackBuilder  fallback;
  AkcComponentInteractionRule  interaction;
} AkcStandardComponent;

#define AKC_N_STANDARD_COMPONENTS 12

/* §1.1: the catalog, in catalog order. */
extern const AkcStandardComponent akc_standard_components[AKC_N_STANDARD_COMPONENTS];

/* §0.5 PortableUrl (catalog props). */
gboolean akc_component_is_portable_url    (const char *s,
                                           gsize       len);
/* §0.5 Interaction URL (custom `url` event values). */
gboolean akc_component_is_interaction_url (const char *s,
                                           gsize       len);

/* §2.5 step 3 for a declared event: the standard rule for a standard
 * definition, the value-kind rule for a custom one. @props are the
 * validated props; @value is NULL when absent. */
gboolean akc_component_definition_accepts (AkcComponentDefinition *self,
                                           AkcJsonValue           *props,
                                           const AkcComponentEvent *event,
                                           AkcJsonValue           *value);

/* The definition fallback of already validated @props (NULL when the
 * definition has none). */
char    *akc_component_definition_build_fallback (AkcComponentDefinition *self,
                                                  AkcJsonValue           *props);

/* §2.4 step 4: the result, from a decoded @frame and its validated
 * @props (both referenced). */
/* After akc_component_definition_validate_props() refused @props: which
 * field and why, `props.options[2].label: ...` (a field path). */
char    *akc_component_definition_explain_props (AkcComponentDefinition *self,
                                                 AkcJsonValue           *props);

AkcResolvedComponent *akc_resolved_component_new (AkcComponentDefinition *definition,
                                                  AkcJsonValue           *frame,
                                                  AkcJsonValue           *props);

G_END_DECLS
