/* akc-lifecycle.h: targets of the lifecycle controls (application §12.3)
 *
 * SPDX-License-Identifier: MIT
 */

#pragma once

#if !defined(__AKC_INSIDE__) && !defined(AKC_COMPILATION)
#error "Only <akc.h> can be included directly."
#endif

#include <gio/gio.h>

#include "akc-version-macros.h"

G_BEGIN_DECLS

AKC_AVAILABLE_IN_ALL
gboolean akc_get_lifecycle_targets (GListModel  *messages,
                                    char       **user_id,
                                    char       **assistant_id);

G_END_DECLS
