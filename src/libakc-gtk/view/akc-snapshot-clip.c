/* akc-snapshot-clip.c: drawings that the cairo renderer can skip
 *
 * SPDX-License-Identifier: MIT
 */

#include "config.h"

#include "akc-snapshot-clip-private.h"

/* GTK 4.8's cairo renderer draws a frame by walking every render node of
 * the window, whatever the frame changed; only cairo's clip, the region
 * the frame redraws, keeps what is outside it from the screen. Each node
 * outside that region still costs its full drawing but the pixels: a text
 * node turns every glyph into cairo's and measures it, an opacity or a
 * colour matrix (a dimmed label, a symbolic icon) makes a surface as
 * large as the whole region redrawn and blends it back. When cairo's clip
 * is empty, all of that returns at once.
 *
 * So parts of the transcript that are drawn as a whole (a block of text,
 * a dimmed label, an icon) are put in a clip node of their own bounds: it
 * clips nothing away (a node never draws outside its bounds), and when
 * the frame redraws nothing of the part, cairo's clip becomes empty at
 * that node and the part costs next to nothing. GtkSnapshot drops a clip
 * pushed around what it contains, so the clip node is made here; the GL
 * renderer draws the same with it or without it. */

GskRenderNode *
akc_render_node_clip_to_bounds (GskRenderNode *node)
{
  graphene_rect_t bounds;

  g_return_val_if_fail (node != NULL, NULL);

  if (gsk_render_node_get_node_type (node) == GSK_CLIP_NODE)
    return gsk_render_node_ref (node);

  gsk_render_node_get_bounds (node, &bounds);
  return gsk_clip_node_new (node, &bounds);
}

static GskRenderNode *
snapshot_child_to_node (GtkWidget *widget,
                        GtkWidget *child)
{
  GtkSnapshot *child_snapshot = gtk_snapshot_new ();

  gtk_widget_snapshot_child (widget, child, child_snapshot);
  return gtk_snapshot_free_to_node (child_snapshot);
}

/* Draws @child of @widget as gtk_widget_snapshot_child() does, in a clip
 * of its own bounds. */
void
akc_snapshot_child_clipped (GtkWidget   *widget,
                            GtkWidget   *child,
                            GtkSnapshot *snapshot)
{
  g_autoptr(GskRenderNode) node = snapshot_child_to_node (widget, child);
  g_autoptr(GskRenderNode) clipped = NULL;

  if (node == NULL)
    return;
  clipped = akc_render_node_clip_to_bounds (node);
  gtk_snapshot_append_node (snapshot, clipped);
}

/* A widget made of GTK's own (boxes, labels, buttons) has no snapshot of
 * its own to put its parts in clips; the one around them takes their
 * drawing apart instead: below containers and transforms, which lay the
 * parts out, each text, opacity, colour matrix and texture goes in a clip
 * of its bounds. What a frame reuses of the last (GTK keeps a widget's
 * drawing while nothing in it changes) keeps its clipped copy, so a frame
 * finds it unchanged and the cost is only that of what changed. A cache
 * serves one child of one widget. */
struct _AkcClipCache
{
  GHashTable *last;   /* GskRenderNode * (drawn) -> GskRenderNode * (clipped) */
  GHashTable *now;
};

static GHashTable *
node_table_new (void)
{
  return g_hash_table_new_full (g_direct_hash, g_direct_equal,
                                (GDestroyNotify) gsk_render_node_unref, (GDestroyNotify) gsk_render_node_unref);
}

AkcClipCache *
akc_clip_cache_new (void)
{
  AkcClipCache *cache = g_new0 (AkcClipCache, 1);

  cache->last = node_table_new ();
  cache->now = node_table_new ();
  return cache;
}

void
akc_clip_cache_free (AkcClipCache *cache)
{
  if (cache == NULL)
    return;
  g_hash_table_unref (cache->last);
  g_hash_table_unref (cache->now);
  g_free (cache);
}

static GskRenderNode *
clip_parts (AkcClipCache  *cache,
            GskRenderNode *node)
{
  GskRenderNode *result = g_hash_table_lookup (cache->last, node);

  if (result == NULL)
    result = g_hash_table_lookup (cache->now, node);
  if (result != NULL)
    {
      result = gsk_render_node_ref (result);
      goto done;
    }

  switch (gsk_render_node_get_node_type (node))
    {
    case GSK_CONTAINER_NODE:
      {
        guint n = gsk_container_node_get_n_children (node);
        g_autofree GskRenderNode **children = g_new (GskRenderNode *, MAX (n, 1));
        gboolean changed = FALSE;

        for (guint i = 0; i < n; i++)
          {
            GskRenderNode *child = gsk_container_node_get_child (node, i);

            children[i] = clip_parts (cache, child);
            changed |= children[i] != child;
          }
        result = changed ? gsk_container_node_new (children, n) : gsk_render_node_ref (node);
        for (guint i = 0; i < n; i++)
          gsk_render_node_unref (children[i]);
      }
      break;

    case GSK_TRANSFORM_NODE:
      {
        GskRenderNode *child = gsk_transform_node_get_child (node);
        g_autoptr(GskRenderNode) clipped = clip_parts (cache, child);

        result = clipped != child
                 ? gsk_transform_node_new (clipped, gsk_transform_node_get_transform (node))
                 : gsk_render_node_ref (node);
      }
      break;

    case GSK_TEXT_NODE:
    case GSK_OPACITY_NODE:
    case GSK_COLOR_MATRIX_NODE:
    case GSK_TEXTURE_NODE:
      result = akc_render_node_clip_to_bounds (node);
      break;

    default:
      result = gsk_render_node_ref (node);
      break;
    }

done:
  g_hash_table_replace (cache->now, gsk_render_node_ref (node), gsk_render_node_ref (result));
  return result;
}

/* Draws @child of @widget as gtk_widget_snapshot_child() does, its parts
 * in clips of their own bounds. */
void
akc_clip_cache_snapshot_child (AkcClipCache *cache,
                               GtkWidget    *widget,
                               GtkWidget    *child,
                               GtkSnapshot  *snapshot)
{
  g_autoptr(GskRenderNode) node = snapshot_child_to_node (widget, child);
  g_autoptr(GskRenderNode) clipped = NULL;
  GHashTable *last;

  if (node != NULL)
    {
      clipped = clip_parts (cache, node);
      gtk_snapshot_append_node (snapshot, clipped);
    }

  /* What this frame drew is what the next may reuse. */
  last = cache->last;
  cache->last = cache->now;
  cache->now = last;
  g_hash_table_remove_all (cache->now);
}
