/* akc-choice-list.h: choice selections and typed choice actions
 * (application §2.6, §2.7)
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
 * AKC_CHOICE_LIST_COMPONENT_KEY:
 *
 * The key of the standard choice list, `choice-list`.
 *
 * Since: 0.1
 */
#define AKC_CHOICE_LIST_COMPONENT_KEY "choice-list"

AKC_AVAILABLE_IN_ALL
AkcJsonValue *akc_choice_list_select         (AkcJsonValue  *frame,
                                              const char    *choice_id,
                                              GError       **error);
AKC_AVAILABLE_IN_ALL
AkcJsonValue *akc_choice_list_resolve_action (AkcJsonValue  *frame,
                                              const char    *choice_id);

G_END_DECLS
