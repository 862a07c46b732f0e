/* akc-render-cache.h: what the cairo renderer draws again unchanged, drawn once
 *
 * SPDX-License-Identifier: MIT
 */

#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

typedef struct _AkcRenderCache AkcRenderCache;

AkcRenderCache *akc_render_cache_new       (void);
void            akc_render_cache_free      (AkcRenderCache *cache);
void            akc_render_cache_clear     (AkcRenderCache *cache);
GskRenderNode  *akc_render_cache_process   (AkcRenderCache        *cache,
                                            GskRenderNode         *node,
                                            const graphene_point_t *origin,
                                            int                    scale,
                                            GskRenderNode         *background);
guint           akc_render_cache_get_n_images (AkcRenderCache *cache);
guint           akc_render_cache_get_n_trims (AkcRenderCache *cache);

gboolean        akc_render_cache_wanted    (GtkWidget *widget);
void            akc_render_cache_snapshot  (AkcRenderCache *cache,
                                            GtkWidget      *widget,
                                            GtkSnapshot    *snapshot,
                                            void          (*snapshot_func) (GtkWidget   *widget,
                                                                            GtkSnapshot *snapshot));

G_DEFINE_AUTOPTR_CLEANUP_FUNC (AkcRenderCache, akc_render_cache_free)

G_END_DECLS
