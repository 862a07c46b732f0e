/* akc-clock.h: the injectable clock of the action layer (application §0.8)
 *
 * SPDX-License-Identifier: MIT
 */

#pragma once

#if !defined(__AKC_INSIDE__) && !defined(AKC_COMPILATION)
#error "Only <akc.h> can be included directly."
#endif

#include <glib.h>

G_BEGIN_DECLS

/**
 * AkcClockFunc:
 * @user_data: the data given with the function
 *
 * Tells the time. Components that date things take one, so tests are
 * deterministic ([application §0.8](wire-formats.html#application-0)).
 *
 * Returns: the current time in milliseconds since the Unix epoch
 *
 * Since: 0.1
 */
typedef gint64 (*AkcClockFunc) (gpointer user_data);

G_END_DECLS
