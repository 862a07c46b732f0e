/* akc-conversation-model.c: the application's conversations, read in pages
 *
 * SPDX-License-Identifier: MIT
 */

#include "config.h"

#include "akc-conversation-model.h"

/**
 * AkcConversationModel:
 *
 * The conversations the sidebar lists, as a #GListModel of
 * #AkcConversationItem, pinned first, then the newest first: the pages of
 * the history's [class@Akc.ConversationList] read so far (never the whole
 * history at once: [method@ConversationModel.load_more] reads the next
 * page, as the sidebar does when it is scrolled near the end), with the
 * conversations not stored yet (a New Chat before its first message, the
 * turn server's, an import the history has not listed yet), less the
 * hidden ones (deleted, while their undo is offered).
 *
 * A conversation has one item for the whole run, whichever page brought
 * it: what the history reads again updates that item. The order is that
 * of the items' own pin and time, so a change made here shows at once;
 * a change only reports the part of the list that differs, so a view
 * keeps its selection and scroll position.
 */
struct _AkcConversationModel
{
  GObject                       parent_instance;

  AkcConversationModelItemFunc  func;
  gpointer                      user_data;

  AkcConversationList          *list;
  GPtrArray                    *infos;    /* the list's AkcConversationInfo, in its order */
  GPtrArray                    *mirror;   /* their AkcConversationItem, or NULL */

  GPtrArray                    *items;    /* what is listed, in order */
  GHashTable                   *by_id;    /* id → AkcConversationItem */
  GHashTable                   *local;    /* AkcConversationItem set: added here */
  GHashTable                   *hidden;   /* AkcConversationItem set */
  GHashTable                   *purged;   /* ids deleted for good */
  guint                         rebuild_source;
};

static void akc_conversation_model_iface_init (GListModelInterface *iface);

G_DEFINE_FINAL_TYPE_WITH_CODE (AkcConversationModel, akc_conversation_model, G_TYPE_OBJECT,
                               G_IMPLEMENT_INTERFACE (G_TYPE_LIST_MODEL, akc_conversation_model_iface_init))

static GType
akc_conversation_model_get_item_type (GListModel *model)
{
  return AKC_TYPE_CONVERSATION_ITEM;
}

static guint
akc_conversation_model_get_n_items (GListModel *model)
{
  return AKC_CONVERSATION_MODEL (model)->items->len;
}

static gpointer
akc_conversation_model_get_item (GListModel *model,
                                 guint       position)
{
  AkcConversationModel *self = AKC_CONVERSATION_MODEL (model);

  if (position >= self->items->len)
    return NULL;
  return g_object_ref (g_ptr_array_index (self->items, position));
}

static void
akc_conversation_model_iface_init (GListModelInterface *iface)
{
  iface->get_item_type = akc_conversation_model_get_item_type;
  iface->get_n_items = akc_conversation_model_get_n_items;
  iface->get_item = akc_conversation_model_get_item;
}

static void
unref_nullable (gpointer object)
{
  if (object != NULL)
    g_object_unref (object);
}

static int
compare_indirect (gconstpointer a,
                  gconstpointer b)
{
  return akc_conversation_item_compare (*(gconstpointer *) a, *(gconstpointer *) b, NULL);
}

/* The list again, from the stored pages and the local items; only what
 * differs is reported. */
static void
rebuild (AkcConversationModel *self)
{
  g_autoptr(GPtrArray) next = g_ptr_array_new_with_free_func (g_object_unref);
  g_autoptr(GHashTable) seen = g_hash_table_new (NULL, NULL);
  GPtrArray *old = self->items;
  GHashTableIter iter;
  gpointer key;
  guint start = 0, end_old, end_new;

  g_clear_handle_id (&self->rebuild_source, g_source_remove);

  for (guint i = 0; i < self->mirror->len; i++)
    {
      AkcConversationItem *item = g_ptr_array_index (self->mirror, i);

      if (item == NULL || g_hash_table_contains (self->hidden, item) || !g_hash_table_add (seen, item))
        continue;
      g_ptr_array_add (next, g_object_ref (item));
    }
  g_hash_table_iter_init (&iter, self->local);
  while (g_hash_table_iter_next (&iter, &key, NULL))
    {
      if (g_hash_table_contains (self->hidden, key) || g_hash_table_contains (seen, key))
        continue;
      g_ptr_array_add (next, g_object_ref (key));
    }
  g_ptr_array_sort (next, compare_indirect);

  end_old = old->len;
  end_new = next->len;
  while (start < end_old && start < end_new &&
         g_ptr_array_index (old, start) == g_ptr_array_index (next, start))
    start++;
  while (end_old > start && end_new > start &&
         g_ptr_array_index (old, end_old - 1) == g_ptr_array_index (next, end_new - 1))
    {
      end_old--;
      end_new--;
    }

  self->items = g_steal_pointer (&next);
  if (end_old > start || end_new > start)
    g_list_model_items_changed (G_LIST_MODEL (self), start, end_old - start, end_new - start);
  g_ptr_array_unref (old);
}

static gboolean
rebuild_idle (gpointer user_data)
{
  AkcConversationModel *self = user_data;

  self->rebuild_source = 0;
  rebuild (self);

  return G_SOURCE_REMOVE;
}

/* What the history read changes the list in one step, after the list's
 * own change is whole (a move is a removal, then an insertion). */
static void
rebuild_later (AkcConversationModel *self)
{
  if (self->rebuild_source == 0)
    self->rebuild_source = g_idle_add_full (G_PRIORITY_DEFAULT, rebuild_idle, self, NULL);
}

static void
sync_from_info (AkcConversationItem *item,
                AkcConversationInfo *info,
                gboolean             changed)
{
  const char *title = akc_conversation_info_get_title (info);
  GDateTime *updated = akc_conversation_info_get_updated_at (info);

  /* Its own title (a rename, or its first message) comes first; a title
   * the history changed (another program) follows. */
  if (title != NULL && title[0] != '\0' &&
      (akc_conversation_item_get_title (item) == NULL ||
       (changed && g_strcmp0 (title, akc_conversation_item_get_title (item)) != 0)))
    akc_conversation_item_set_title (item, title);
  akc_conversation_item_set_n_messages (item, akc_conversation_info_get_n_messages (info));
  if (changed)
    {
      akc_conversation_item_set_pinned (item, akc_conversation_info_get_pinned (info));
      if (updated != NULL && g_date_time_compare (updated, akc_conversation_item_get_updated_at (item)) > 0)
        akc_conversation_item_set_updated_at (item, updated);
    }
}

static void
on_info_notify (AkcConversationInfo  *info,
                GParamSpec           *pspec,
                AkcConversationModel *self)
{
  AkcConversationItem *item = g_hash_table_lookup (self->by_id, akc_conversation_info_get_id (info));

  if (item == NULL)
    return;
  sync_from_info (item, info, TRUE);
  rebuild_later (self);
}

static AkcConversationItem *
item_for_info (AkcConversationModel *self,
               AkcConversationInfo  *info)
{
  const char *id = akc_conversation_info_get_id (info);
  AkcConversationItem *item = g_hash_table_lookup (self->by_id, id);

  if (item != NULL)
    {
      sync_from_info (item, info, FALSE);
      return item;
    }
  if (g_hash_table_contains (self->purged, id))
    return NULL;

  item = self->func (info, self->user_data);
  if (item != NULL)
    g_hash_table_insert (self->by_id, g_strdup (id), item);

  return item;
}

static void
on_list_items_changed (AkcConversationModel *self,
                       guint                 position,
                       guint                 removed,
                       guint                 added,
                       GListModel           *list)
{
  for (guint i = position; i < position + removed; i++)
    {
      AkcConversationInfo *info = g_ptr_array_index (self->infos, i);
      AkcConversationItem *item = g_ptr_array_index (self->mirror, i);

      g_signal_handlers_disconnect_by_func (info, on_info_notify, self);
      /* Deleted for good: the history does not list it any more. */
      if (item != NULL && g_hash_table_lookup (self->by_id, akc_conversation_info_get_id (info)) != item)
        g_hash_table_remove (self->hidden, item);
      g_hash_table_remove (self->purged, akc_conversation_info_get_id (info));
    }
  g_ptr_array_remove_range (self->infos, position, removed);
  g_ptr_array_remove_range (self->mirror, position, removed);

  for (guint i = 0; i < added; i++)
    {
      AkcConversationInfo *info = akc_conversation_list_peek_item (AKC_CONVERSATION_LIST (list), position + i);
      AkcConversationItem *item = item_for_info (self, info);

      g_signal_connect_object (info, "notify", G_CALLBACK (on_info_notify), self, 0);
      g_ptr_array_insert (self->infos, position + i, g_object_ref (info));
      g_ptr_array_insert (self->mirror, position + i, item != NULL ? g_object_ref (item) : NULL);
    }

  rebuild_later (self);
}

static void
drop_list (AkcConversationModel *self)
{
  if (self->list == NULL)
    return;

  g_signal_handlers_disconnect_by_func (self->list, on_list_items_changed, self);
  for (guint i = 0; i < self->infos->len; i++)
    g_signal_handlers_disconnect_by_func (g_ptr_array_index (self->infos, i), on_info_notify, self);
  g_ptr_array_set_size (self->infos, 0);
  g_ptr_array_set_size (self->mirror, 0);
  g_clear_object (&self->list);
}

static void
akc_conversation_model_dispose (GObject *object)
{
  AkcConversationModel *self = AKC_CONVERSATION_MODEL (object);

  g_clear_handle_id (&self->rebuild_source, g_source_remove);
  drop_list (self);

  G_OBJECT_CLASS (akc_conversation_model_parent_class)->dispose (object);
}

static void
akc_conversation_model_finalize (GObject *object)
{
  AkcConversationModel *self = AKC_CONVERSATION_MODEL (object);

  g_clear_pointer (&self->infos, g_ptr_array_unref);
  g_clear_pointer (&self->mirror, g_ptr_array_unref);
  g_clear_pointer (&self->items, g_ptr_array_unref);
  g_clear_pointer (&self->by_id, g_hash_table_unref);
  g_clear_pointer (&self->local, g_hash_table_unref);
  g_clear_pointer (&self->hidden, g_hash_table_unref);
  g_clear_pointer (&self->purged, g_hash_table_unref);

  G_OBJECT_CLASS (akc_conversation_model_parent_class)->finalize (object);
}

static void
akc_conversation_model_class_init (AkcConversationModelClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->dispose = akc_conversation_model_dispose;
  object_class->finalize = akc_conversation_model_finalize;
}

static void
akc_conversation_model_init (AkcConversationModel *self)
{
  self->infos = g_ptr_array_new_with_free_func (g_object_unref);
  self->mirror = g_ptr_array_new_with_free_func (unref_nullable);
  self->items = g_ptr_array_new_with_free_func (g_object_unref);
  self->by_id = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_object_unref);
  self->local = g_hash_table_new_full (NULL, NULL, g_object_unref, NULL);
  self->hidden = g_hash_table_new_full (NULL, NULL, g_object_unref, NULL);
  self->purged = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
}

/**
 * akc_conversation_model_new:
 * @func: (scope forever): makes the item of a stored conversation
 * @user_data: data for @func
 *
 * Returns: (transfer full): a new, empty #AkcConversationModel
 */
AkcConversationModel *
akc_conversation_model_new (AkcConversationModelItemFunc func,
                            gpointer                     user_data)
{
  AkcConversationModel *self;

  g_return_val_if_fail (func != NULL, NULL);

  self = g_object_new (AKC_TYPE_CONVERSATION_MODEL, NULL);
  self->func = func;
  self->user_data = user_data;

  return self;
}

/**
 * akc_conversation_model_set_list:
 * @self: a #AkcConversationModel
 * @list: (nullable): the history's conversations, in pages
 *
 * Lists the conversations of @list as its pages are read.
 */
void
akc_conversation_model_set_list (AkcConversationModel *self,
                                 AkcConversationList  *list)
{
  g_return_if_fail (AKC_IS_CONVERSATION_MODEL (self));
  g_return_if_fail (list == NULL || AKC_IS_CONVERSATION_LIST (list));

  if (self->list == list)
    return;

  drop_list (self);
  if (list != NULL)
    {
      self->list = g_object_ref (list);
      g_signal_connect_object (list, "items-changed", G_CALLBACK (on_list_items_changed), self, G_CONNECT_SWAPPED);
      on_list_items_changed (self, 0, 0, g_list_model_get_n_items (G_LIST_MODEL (list)), G_LIST_MODEL (list));
    }
  rebuild (self);
}

/**
 * akc_conversation_model_get_list:
 * @self: a #AkcConversationModel
 *
 * Returns: (transfer none) (nullable): the history's conversations
 */
AkcConversationList *
akc_conversation_model_get_list (AkcConversationModel *self)
{
  g_return_val_if_fail (AKC_IS_CONVERSATION_MODEL (self), NULL);

  return self->list;
}

/**
 * akc_conversation_model_get_complete:
 * @self: a #AkcConversationModel
 *
 * Returns: whether every stored conversation is read
 */
gboolean
akc_conversation_model_get_complete (AkcConversationModel *self)
{
  g_return_val_if_fail (AKC_IS_CONVERSATION_MODEL (self), TRUE);

  return self->list == NULL || akc_conversation_list_get_complete (self->list);
}

/**
 * akc_conversation_model_load_more:
 * @self: a #AkcConversationModel
 *
 * Reads the next page of the history (on its worker thread), unless it is
 * all read or a page is being read.
 */
void
akc_conversation_model_load_more (AkcConversationModel *self)
{
  g_return_if_fail (AKC_IS_CONVERSATION_MODEL (self));

  if (self->list != NULL)
    akc_conversation_list_load_more (self->list);
}

/**
 * akc_conversation_model_add:
 * @self: a #AkcConversationModel
 * @item: a conversation the history may not list yet
 *
 * Lists @item (once, when the history lists it too).
 */
void
akc_conversation_model_add (AkcConversationModel *self,
                            AkcConversationItem  *item)
{
  const char *id;

  g_return_if_fail (AKC_IS_CONVERSATION_MODEL (self));
  g_return_if_fail (AKC_IS_CONVERSATION_ITEM (item));

  id = akc_conversation_item_get_id (item);
  /* An id used again after its conversation was deleted. */
  g_hash_table_remove (self->purged, id);
  if (g_hash_table_lookup (self->by_id, id) != item)
    g_hash_table_insert (self->by_id, g_strdup (id), g_object_ref (item));
  g_hash_table_add (self->local, g_object_ref (item));
  rebuild (self);
}

/**
 * akc_conversation_model_take_info:
 * @self: a #AkcConversationModel
 * @info: a stored conversation, perhaps on a page not read yet
 *
 * Gets the item of a conversation the history found (a search), making it
 * when it is not known yet. It is not listed before its page is read.
 *
 * Returns: (transfer none) (nullable): its item, or %NULL when it is not
 *   listed at all (deleted, or of an unknown assistant)
 */
AkcConversationItem *
akc_conversation_model_take_info (AkcConversationModel *self,
                                  AkcConversationInfo  *info)
{
  AkcConversationItem *item;

  g_return_val_if_fail (AKC_IS_CONVERSATION_MODEL (self), NULL);
  g_return_val_if_fail (AKC_IS_CONVERSATION_INFO (info), NULL);

  item = item_for_info (self, info);
  return item != NULL && !g_hash_table_contains (self->hidden, item) ? item : NULL;
}

/**
 * akc_conversation_model_lookup:
 * @self: a #AkcConversationModel
 * @id: a conversation's id
 *
 * Returns: (transfer none) (nullable): the conversation's item, when it
 *   is known and not hidden
 */
AkcConversationItem *
akc_conversation_model_lookup (AkcConversationModel *self,
                               const char           *id)
{
  AkcConversationItem *item;

  g_return_val_if_fail (AKC_IS_CONVERSATION_MODEL (self), NULL);

  if (id == NULL)
    return NULL;
  item = g_hash_table_lookup (self->by_id, id);
  return item != NULL && !g_hash_table_contains (self->hidden, item) ? item : NULL;
}

/**
 * akc_conversation_model_find:
 * @self: a #AkcConversationModel
 * @item: a conversation
 * @position: (out) (optional): where to store its position
 *
 * Returns: whether @item is listed
 */
gboolean
akc_conversation_model_find (AkcConversationModel *self,
                             AkcConversationItem  *item,
                             guint                *position)
{
  g_return_val_if_fail (AKC_IS_CONVERSATION_MODEL (self), FALSE);

  return g_ptr_array_find (self->items, item, position);
}

/**
 * akc_conversation_model_peek_item:
 * @self: a #AkcConversationModel
 * @position: a position
 *
 * Returns: (transfer none) (nullable): the item at @position
 */
AkcConversationItem *
akc_conversation_model_peek_item (AkcConversationModel *self,
                                  guint                 position)
{
  g_return_val_if_fail (AKC_IS_CONVERSATION_MODEL (self), NULL);

  return position < self->items->len ? g_ptr_array_index (self->items, position) : NULL;
}

/**
 * akc_conversation_model_hide:
 * @self: a #AkcConversationModel
 * @item: a listed conversation
 *
 * Takes @item out of the list (it was deleted, and may come back).
 */
void
akc_conversation_model_hide (AkcConversationModel *self,
                             AkcConversationItem  *item)
{
  g_return_if_fail (AKC_IS_CONVERSATION_MODEL (self));
  g_return_if_fail (AKC_IS_CONVERSATION_ITEM (item));

  if (g_hash_table_add (self->hidden, g_object_ref (item)) == FALSE)
    return;
  rebuild (self);
}

/**
 * akc_conversation_model_unhide:
 * @self: a #AkcConversationModel
 * @item: a hidden conversation
 *
 * Lists @item again, in its place.
 */
void
akc_conversation_model_unhide (AkcConversationModel *self,
                               AkcConversationItem  *item)
{
  g_return_if_fail (AKC_IS_CONVERSATION_MODEL (self));
  g_return_if_fail (AKC_IS_CONVERSATION_ITEM (item));

  if (g_hash_table_remove (self->hidden, item))
    rebuild (self);
}

/**
 * akc_conversation_model_forget:
 * @self: a #AkcConversationModel
 * @item: a hidden conversation
 *
 * @item is deleted for good: it stays out of the list, and its id is free
 * for a new conversation.
 */
void
akc_conversation_model_forget (AkcConversationModel *self,
                               AkcConversationItem  *item)
{
  const char *id;
  gboolean listed;

  g_return_if_fail (AKC_IS_CONVERSATION_MODEL (self));
  g_return_if_fail (AKC_IS_CONVERSATION_ITEM (item));

  g_object_ref (item);
  id = akc_conversation_item_get_id (item);
  listed = self->list != NULL && akc_conversation_list_lookup (self->list, id, NULL) != NULL;
  /* Until the history stops listing it, it is hidden; one it never
   * listed is gone now. */
  if (listed)
    {
      g_hash_table_add (self->hidden, g_object_ref (item));
      g_hash_table_add (self->purged, g_strdup (id));
    }
  else
    g_hash_table_remove (self->hidden, item);
  if (g_hash_table_lookup (self->by_id, id) == item)
    g_hash_table_remove (self->by_id, id);
  g_hash_table_remove (self->local, item);
  rebuild (self);
  g_object_unref (item);
}

/**
 * akc_conversation_model_resort:
 * @self: a #AkcConversationModel
 *
 * Puts the conversations back in order, after the time or the pin of one
 * changed.
 */
void
akc_conversation_model_resort (AkcConversationModel *self)
{
  g_return_if_fail (AKC_IS_CONVERSATION_MODEL (self));

  rebuild (self);
}

/**
 * akc_conversation_model_clear:
 * @self: a #AkcConversationModel
 *
 * Empties the list and lets go of the history's.
 */
void
akc_conversation_model_clear (AkcConversationModel *self)
{
  g_return_if_fail (AKC_IS_CONVERSATION_MODEL (self));

  drop_list (self);
  g_hash_table_remove_all (self->local);
  g_hash_table_remove_all (self->hidden);
  g_hash_table_remove_all (self->by_id);
  rebuild (self);
}
