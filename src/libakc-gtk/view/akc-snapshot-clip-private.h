/* akc-snapshot-clip-private.h: drawings that the cairo renderer can skip
 *
 * SPDX-License-Identifier: MIT
 *
 * Internal to libakc-gtk (not installed, not scanned).
 */

#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

GskRenderNode *akc_render_node_clip_to_bounds  (GskRenderNode *node);
void           akc_snapshot_child_clipped      (GtkWidget     *widget,
                                                GtkWidget     *child,
                                                GtkSnapshot   *snapshot);

typedef struct _AkcClipCache AkcClipCache;

AkcClipCache  *akc_clip_cache_new              (void);
void           akc_clip_cache_free             (AkcClipCache  *cache);
void           akc_clip_cache_snapshot_child   (AkcClipCache  *cache,
                                                GtkWidget     *widget,
                                                GtkWidget     *child,
                                                GtkSnapshot   *snapshot);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (AkcClipCache, akc_clip_cache_free)

G_END_DECLS
