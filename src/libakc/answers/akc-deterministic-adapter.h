/* akc-deterministic-adapter.h: verified local answers in front of a
 * backend adapter (application §9.4)
 *
 * SPDX-License-Identifier: MIT
 */

#pragma once

#if !defined(__AKC_INSIDE__) && !defined(AKC_COMPILATION)
#error "Only <akc.h> can be included directly."
#endif

#include <glib-object.h>

#include "akc-adapter.h"
#include "akc-choice-reservations.h"
#include "akc-json.h"
#include "akc-knowledge-resolver.h"
#include "akc-version-macros.h"

G_BEGIN_DECLS

/**
 * AKC_DETERMINISTIC_ESCALATION_METADATA:
 *
 * The request metadata member under which the deterministic adapter hands
 * its escalation envelope to the fallback adapter ([application §9.4](wire-formats.html#application-9)).
 *
 * Since: 0.1
 */
#define AKC_DETERMINISTIC_ESCALATION_METADATA "agentskit.chat.escalation"

/**
 * AKC_DETERMINISTIC_UNSCOPED_SESSION:
 *
 * The session under which choices are remembered for a request without a
 * session id ([application §4.6](wire-formats.html#application-4)).
 *
 * Since: 0.1
 */
#define AKC_DETERMINISTIC_UNSCOPED_SESSION "unscoped"

/**
 * AKC_DETERMINISTIC_OBSERVATION_LIMIT:
 *
 * How many UTF-16 code units of a backend reply the adapter accumulates to
 * build the backend answer envelope; a longer reply is reported as corrupt
 * ([application §9.4](wire-formats.html#application-9)).
 *
 * Since: 0.1
 */
#define AKC_DETERMINISTIC_OBSERVATION_LIMIT 262144

/**
 * AkcDeterministicFallbackMode:
 * @AKC_DETERMINISTIC_FALLBACK_BACKEND: questions without a local answer go
 *   to the fallback adapter, when there is one (`backend`)
 * @AKC_DETERMINISTIC_FALLBACK_DISABLED: the fallback adapter is never
 *   called; questions without a local answer get the offline response
 *   (`disabled`)
 *
 * The `fallback.mode` of a site configuration ([application §9.2](wire-formats.html#application-9)).
 *
 * Since: 0.1
 */
typedef enum {
  AKC_DETERMINISTIC_FALLBACK_BACKEND,
  AKC_DETERMINISTIC_FALLBACK_DISABLED,
} AkcDeterministicFallbackMode;

#define AKC_TYPE_DETERMINISTIC_FALLBACK_MODE (akc_deterministic_fallback_mode_get_type ())

AKC_AVAILABLE_IN_ALL
GType akc_deterministic_fallback_mode_get_type (void) G_GNUC_CONST;

/**
 * AkcDeterministicClockFunc:
 * @user_data: the data given with the function
 *
 * Tells the current time, against which the artifact's `expiresAt` is
 * compared.
 *
 * Returns: milliseconds since the Unix epoch
 *
 * Since: 0.1
 */
typedef gint64 (*AkcDeterministicClockFunc) (gpointer user_data);

#define AKC_TYPE_DETERMINISTIC_ADAPTER (akc_deterministic_adapter_get_type ())

AKC_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (AkcDeterministicAdapter, akc_deterministic_adapter, AKC, DETERMINISTIC_ADAPTER, GObject)

AKC_AVAILABLE_IN_ALL
AkcDeterministicAdapter      *akc_deterministic_adapter_new                (AkcJsonValue                 *artifact,
                                                                            const char                   *expected_content_hash,
                                                                            const char                   *expected_site_id,
                                                                            AkcDeterministicFallbackMode  fallback_mode,
                                                                            AkcAdapter                   *fallback);
AKC_AVAILABLE_IN_ALL
AkcDeterministicAdapter      *akc_deterministic_adapter_new_with_resolver  (AkcKnowledgeResolver         *resolver,
                                                                            AkcDeterministicFallbackMode  fallback_mode,
                                                                            AkcAdapter                   *fallback);
AKC_AVAILABLE_IN_ALL
AkcKnowledgeResolver         *akc_deterministic_adapter_get_resolver       (AkcDeterministicAdapter      *self);
AKC_AVAILABLE_IN_ALL
AkcAdapter                   *akc_deterministic_adapter_get_fallback       (AkcDeterministicAdapter      *self);
AKC_AVAILABLE_IN_ALL
AkcDeterministicFallbackMode  akc_deterministic_adapter_get_fallback_mode  (AkcDeterministicAdapter      *self);
AKC_AVAILABLE_IN_ALL
AkcChoiceReservations        *akc_deterministic_adapter_get_reservations   (AkcDeterministicAdapter      *self);
AKC_AVAILABLE_IN_ALL
void                          akc_deterministic_adapter_set_reservations   (AkcDeterministicAdapter      *self,
                                                                            AkcChoiceReservations        *reservations);
AKC_AVAILABLE_IN_ALL
const char                   *akc_deterministic_adapter_get_backend_provider (AkcDeterministicAdapter    *self);
AKC_AVAILABLE_IN_ALL
void                          akc_deterministic_adapter_set_backend_provider (AkcDeterministicAdapter    *self,
                                                                            const char                   *provider);
AKC_AVAILABLE_IN_ALL
const char                   *akc_deterministic_adapter_get_backend_model  (AkcDeterministicAdapter      *self);
AKC_AVAILABLE_IN_ALL
void                          akc_deterministic_adapter_set_backend_model  (AkcDeterministicAdapter      *self,
                                                                            const char                   *model);
AKC_AVAILABLE_IN_ALL
void                          akc_deterministic_adapter_set_clock          (AkcDeterministicAdapter      *self,
                                                                            AkcDeterministicClockFunc     func,
                                                                            gpointer                      user_data,
                                                                            GDestroyNotify                destroy);

G_END_DECLS
