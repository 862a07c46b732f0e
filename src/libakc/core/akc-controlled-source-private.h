/* akc-controlled-source-private.h
 *
 * SPDX-License-Identifier: MIT
 */

#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* The error of a snapshot that is not one (CONTROLLED_INVALID_SNAPSHOT
 * "Controlled chat snapshot is invalid."), for the forms of
 * akc_controlled_source_set_snapshot() outside core/. */
GError *akc_controlled_snapshot_invalid_error (void);

G_END_DECLS
