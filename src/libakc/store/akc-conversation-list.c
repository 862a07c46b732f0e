/* akc-conversation-list.c
 *
 * SPDX-License-Identifier: MIT
 */

#include "config.h"

#include "akc-conversation-info-private.h"
#include "akc-conversation-list.h"

/**
 * AkcConversationList:
 *
 * The conversations of an [iface@ChatMemory] as a [iface@Gio.ListModel] of
 * [class@ConversationInfo], in the order of
 * [method@ChatMemory.list_conversations_page_async]: pinned ones first, then
 * the most recently changed.
 *
 * The list is read in pages of [property@ConversationList:page-size]
 * conversations on the memory's worker, never all at once: it starts
 * with the first page, and asking for an item near the end of what is
 * loaded (as a list view does when it scrolls) reads the next page, which
 * is appended. [property@ConversationList:complete] tells when every
 * conversation is in it.
 *
 * It follows [signal@ChatMemory::conversation-changed]: after a
 * conversation was created, changed or deleted the loaded part is read
 * again in one step, and only what differs is reported. A conversation
 * that stays in the list keeps its [class@ConversationInfo], whose
 * properties change (with notifications) in place; one that moved is
 * reported as one removal and one insertion; a new one as one insertion.
 *
 * Since: 0.1
 */

struct _AkcConversationList
{
  GObject        parent_instance;

  AkcChatMemory *memory;
  gulong         changed_handler;
  GCancellable  *cancellable;

  GPtrArray     *items;     /* AkcConversationInfo: the first items->len */
  GHashTable    *by_id;     /* id → AkcConversationInfo (unowned) */
  guint          page_size;
  GError        *error;

  guint          busy : 1;          /* a read is in flight */
  guint          busy_is_page : 1;
  guint          stale : 1;         /* a change was stored during the read */
  guint          want_more : 1;
  guint          want_refresh : 1;
  guint          complete : 1;
};

static void akc_conversation_list_model_init (GListModelInterface *iface);

G_DEFINE_FINAL_TYPE_WITH_CODE (AkcConversationList, akc_conversation_list, G_TYPE_OBJECT,
                               G_IMPLEMENT_INTERFACE (G_TYPE_LIST_MODEL, akc_conversation_list_model_init))

enum {
  PROP_0,
  PROP_MEMORY,
  PROP_PAGE_SIZE,
  PROP_LOADING,
  PROP_COMPLETE,
  PROP_ERROR,
  PROP_ITEM_TYPE,
  PROP_N_ITEMS,
  N_PROPS
};

static GParamSpec *props[N_PROPS];

static void akc_conversation_list_schedule (AkcConversationList *self);

/* ------------------------------------------------------------------ */
/* GListModel                                                          */
/* ------------------------------------------------------------------ */

static GType
akc_conversation_list_get_item_type (GListModel *model)
{
  return AKC_TYPE_CONVERSATION_INFO;
}

static guint
akc_conversation_list_get_n_items (GListModel *model)
{
  return AKC_CONVERSATION_LIST (model)->items->len;
}

static gpointer
akc_conversation_list_get_item (GListModel *model,
                                guint       position)
{
  AkcConversationList *self = AKC_CONVERSATION_LIST (model);

  if (position >= self->items->len)
    return NULL;

  /* Near the end of what is loaded: the next page is read. */
  if (!self->complete && position + MAX (self->page_size / 2, 1) >= self->items->len)
    akc_conversation_list_load_more (self);

  return g_object_ref (g_ptr_array_index (self->items, position));
}

static void
akc_conversation_list_model_init (GListModelInterface *iface)
{
  iface->get_item_type = akc_conversation_list_get_item_type;
  iface->get_n_items = akc_conversation_list_get_n_items;
  iface->get_item = akc_conversation_list_get_item;
}

static void
items_changed (AkcConversationList *self,
               guint                position,
               guint                removed,
               guint                added)
{
  g_list_model_items_changed (G_LIST_MODEL (self), position, removed, added);
  if (removed != added)
    g_object_notify_by_pspec (G_OBJECT (self), props[PROP_N_ITEMS]);
}

/* ------------------------------------------------------------------ */
/* Reading                                                             */
/* ------------------------------------------------------------------ */

static void
set_loading (AkcConversationList *self,
             gboolean             busy,
             gboolean             is_page)
{
  if (self->busy == !!busy)
    {
      self->busy_is_page = is_page;
      return;
    }

  self->busy = !!busy;
  self->busy_is_page = is_page;
  g_object_notify_by_pspec (G_OBJECT (self), props[PROP_LOADING]);
}

static void
set_complete (AkcConversationList *self,
              gboolean             complete)
{
  if (self->complete == !!complete)
    return;

  self->complete = !!complete;
  g_object_notify_by_pspec (G_OBJECT (self), props[PROP_COMPLETE]);
}

static void
take_error (AkcConversationList *self,
            GError              *error)
{
  if (error == NULL && self->error == NULL)
    return;

  g_clear_error (&self->error);
  self->error = error;
  g_object_notify_by_pspec (G_OBJECT (self), props[PROP_ERROR]);
}

/* The first conversations are now @rows (a GListModel of fresh infos):
 * infos of conversations already listed are kept and updated in place,
 * and the change is reported as narrowly as it can be. */
static void
apply_prefix (AkcConversationList *self,
              GListModel          *rows)
{
  guint n_new = g_list_model_get_n_items (rows);
  g_autoptr(GPtrArray) next = g_ptr_array_new_full (n_new, g_object_unref);
  g_autoptr(GHashTable) next_by_id = g_hash_table_new (g_str_hash, g_str_equal);
  GPtrArray *old = self->items;
  guint n_old = old->len;
  guint start = 0;
  guint end_old = n_old;
  guint end_new;

  for (guint i = 0; i < n_new; i++)
    {
      g_autoptr(AkcConversationInfo) fresh = g_list_model_get_item (rows, i);
      const char *id = akc_conversation_info_get_id (fresh);
      AkcConversationInfo *kept;

      if (g_hash_table_contains (next_by_id, id))
        continue;

      kept = g_hash_table_lookup (self->by_id, id);
      if (kept != NULL)
        {
          akc_conversation_info_update_from (kept, fresh);
          g_ptr_array_add (next, g_object_ref (kept));
        }
      else
        g_ptr_array_add (next, g_object_ref (fresh));

      g_hash_table_insert (next_by_id, (gpointer) akc_conversation_info_get_id (g_ptr_array_index (next, next->len - 1)),
                           g_ptr_array_index (next, next->len - 1));
    }

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

  /* Nothing moved, came or went. */
  if (start == end_old && start == end_new)
    return;

  g_hash_table_remove_all (self->by_id);
  for (guint i = 0; i < next->len; i++)
    {
      AkcConversationInfo *info = g_ptr_array_index (next, i);

      g_hash_table_insert (self->by_id, (gpointer) akc_conversation_info_get_id (info), info);
    }

  /* One conversation moved up (it changed, or was pinned) or down. */
  if (end_old - start == end_new - start && end_old - start >= 2)
    {
      guint span = end_old - start;
      gboolean up = g_ptr_array_index (old, end_old - 1) == g_ptr_array_index (next, start);
      gboolean down = g_ptr_array_index (old, start) == g_ptr_array_index (next, end_new - 1);

      for (guint i = 0; up && i + 1 < span; i++)
        up = g_ptr_array_index (old, start + i) == g_ptr_array_index (next, start + 1 + i);
      for (guint i = 0; down && i + 1 < span; i++)
        down = g_ptr_array_index (old, start + 1 + i) == g_ptr_array_index (next, start + i);

      if (up || down)
        {
          guint from = up ? end_old - 1 : start;
          guint to = up ? start : end_new - 1;
          AkcConversationInfo *moved = g_object_ref (g_ptr_array_index (old, from));

          g_ptr_array_remove_index (old, from);
          items_changed (self, from, 1, 0);
          g_ptr_array_insert (old, to, moved);
          items_changed (self, to, 0, 1);
          return;
        }
    }

  self->items = g_steal_pointer (&next);
  items_changed (self, start, end_old - start, end_new - start);
  g_ptr_array_unref (old);
}

static void
append_page (AkcConversationList *self,
             GListModel          *rows)
{
  guint n = g_list_model_get_n_items (rows);
  guint start = self->items->len;

  for (guint i = 0; i < n; i++)
    {
      g_autoptr(AkcConversationInfo) info = g_list_model_get_item (rows, i);

      /* A conversation that moved back since the pages before were read
       * is already listed. */
      if (g_hash_table_contains (self->by_id, akc_conversation_info_get_id (info)))
        continue;
      g_hash_table_insert (self->by_id, (gpointer) akc_conversation_info_get_id (info), info);
      g_ptr_array_add (self->items, g_steal_pointer (&info));
    }

  if (self->items->len > start)
    items_changed (self, start, 0, self->items->len - start);
}

typedef struct
{
  AkcConversationList *self;   /* a reference */
  guint                limit;
  gboolean             is_page;
} Read;

static void
on_read (GObject      *source,
         GAsyncResult *result,
         gpointer      user_data)
{
  Read *read = user_data;
  g_autoptr(AkcConversationList) self = read->self;
  g_autoptr(GListModel) rows = NULL;
  g_autoptr(GError) error = NULL;
  gboolean is_page = read->is_page;
  guint limit = read->limit;

  g_free (read);

  rows = akc_chat_memory_list_conversations_page_finish (AKC_CHAT_MEMORY (source), result, &error);
  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    return;

  set_loading (self, FALSE, FALSE);

  if (rows == NULL)
    {
      /* Tried again on the next change or request. */
      self->want_more = FALSE;
      take_error (self, g_steal_pointer (&error));
      return;
    }

  take_error (self, NULL);

  if (is_page)
    {
      /* A page read while a change was stored starts at an offset that
       * may no longer be the end of the list: it is read again after the
       * list is. */
      if (self->stale)
        {
          self->stale = FALSE;
          akc_conversation_list_schedule (self);
          return;
        }
      self->want_more = FALSE;
      append_page (self, rows);
    }
  else
    apply_prefix (self, rows);

  set_complete (self, g_list_model_get_n_items (rows) < limit);
  akc_conversation_list_schedule (self);
}

static void
start_read (AkcConversationList *self,
            guint                offset,
            guint                limit,
            gboolean             is_page)
{
  Read *read = g_new0 (Read, 1);

  read->self = g_object_ref (self);
  read->limit = limit;
  read->is_page = is_page;
  self->stale = FALSE;
  set_loading (self, TRUE, is_page);
  akc_chat_memory_list_conversations_page_async (self->memory, offset, limit, self->cancellable,
                                                 on_read, read);
}

static void
akc_conversation_list_schedule (AkcConversationList *self)
{
  if (self->busy)
    return;

  if (self->want_refresh)
    {
      guint n = self->items->len;

      self->want_refresh = FALSE;
      /* A complete list reads a little past its end, so conversations
       * added meanwhile are included and it stays complete. */
      start_read (self, 0, self->complete ? MAX (n + 16, self->page_size) : MAX (n, self->page_size), FALSE);
      return;
    }

  if (self->want_more && !self->complete)
    start_read (self, self->items->len, self->page_size, TRUE);
}

static void
on_conversation_changed (AkcConversationList *self,
                         const char          *id)
{
  self->want_refresh = TRUE;
  if (self->busy && self->busy_is_page)
    self->stale = TRUE;
  akc_conversation_list_schedule (self);
}

/* ------------------------------------------------------------------ */
/* GObject                                                             */
/* ------------------------------------------------------------------ */

static void
akc_conversation_list_dispose (GObject *object)
{
  AkcConversationList *self = (AkcConversationList *)object;

  g_cancellable_cancel (self->cancellable);
  g_clear_signal_handler (&self->changed_handler, self->memory);
  g_clear_object (&self->memory);

  G_OBJECT_CLASS (akc_conversation_list_parent_class)->dispose (object);
}

static void
akc_conversation_list_finalize (GObject *object)
{
  AkcConversationList *self = (AkcConversationList *)object;

  g_clear_object (&self->cancellable);
  g_clear_pointer (&self->by_id, g_hash_table_unref);
  g_clear_pointer (&self->items, g_ptr_array_unref);
  g_clear_error (&self->error);

  G_OBJECT_CLASS (akc_conversation_list_parent_class)->finalize (object);
}

static void
akc_conversation_list_constructed (GObject *object)
{
  AkcConversationList *self = (AkcConversationList *)object;

  G_OBJECT_CLASS (akc_conversation_list_parent_class)->constructed (object);

  g_assert (self->memory != NULL);
  self->changed_handler = g_signal_connect_object (self->memory, "conversation-changed",
                                                   G_CALLBACK (on_conversation_changed), self,
                                                   G_CONNECT_SWAPPED);
  self->want_more = TRUE;
  akc_conversation_list_schedule (self);
}

static void
akc_conversation_list_get_property (GObject    *object,
                                    guint       prop_id,
                                    GValue     *value,
                                    GParamSpec *pspec)
{
  AkcConversationList *self = AKC_CONVERSATION_LIST (object);

  switch (prop_id)
    {
    case PROP_MEMORY:
      g_value_set_object (value, self->memory);
      break;
    case PROP_PAGE_SIZE:
      g_value_set_uint (value, self->page_size);
      break;
    case PROP_LOADING:
      g_value_set_boolean (value, self->busy);
      break;
    case PROP_COMPLETE:
      g_value_set_boolean (value, self->complete);
      break;
    case PROP_ERROR:
      g_value_set_boxed (value, self->error);
      break;
    case PROP_ITEM_TYPE:
      g_value_set_gtype (value, AKC_TYPE_CONVERSATION_INFO);
      break;
    case PROP_N_ITEMS:
      g_value_set_uint (value, self->items->len);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
akc_conversation_list_set_property (GObject      *object,
                                    guint         prop_id,
                                    const GValue *value,
                                    GParamSpec   *pspec)
{
  AkcConversationList *self = AKC_CONVERSATION_LIST (object);

  switch (prop_id)
    {
    case PROP_MEMORY:
      self->memory = g_value_dup_object (value);
      break;
    case PROP_PAGE_SIZE:
      akc_conversation_list_set_page_size (self, g_value_get_uint (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
akc_conversation_list_class_init (AkcConversationListClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->dispose = akc_conversation_list_dispose;
  object_class->finalize = akc_conversation_list_finalize;
  object_class->constructed = akc_conversation_list_constructed;
  object_class->get_property = akc_conversation_list_get_property;
  object_class->set_property = akc_conversation_list_set_property;

  /**
   * AkcConversationList:memory:
   *
   * The history whose conversations are listed.
   *
   * Since: 0.1
   */
  props[PROP_MEMORY] =
    g_param_spec_object ("memory", NULL, NULL,
                         AKC_TYPE_CHAT_MEMORY,
                         (G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS));

  /**
   * AkcConversationList:page-size:
   *
   * How many conversations one read adds to the list. Given at
   * construction, it applies to the first page too.
   *
   * Since: 0.1
   */
  props[PROP_PAGE_SIZE] =
    g_param_spec_uint ("page-size", NULL, NULL,
                       1, 10000, AKC_CONVERSATION_LIST_DEFAULT_PAGE_SIZE,
                       (G_PARAM_READWRITE | G_PARAM_CONSTRUCT | G_PARAM_EXPLICIT_NOTIFY |
                        G_PARAM_STATIC_STRINGS));

  /**
   * AkcConversationList:loading:
   *
   * Whether a page or a new state of the list is being read.
   *
   * Since: 0.1
   */
  props[PROP_LOADING] =
    g_param_spec_boolean ("loading", NULL, NULL,
                          FALSE,
                          (G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));

  /**
   * AkcConversationList:complete:
   *
   * Whether every stored conversation is in the list.
   *
   * Since: 0.1
   */
  props[PROP_COMPLETE] =
    g_param_spec_boolean ("complete", NULL, NULL,
                          FALSE,
                          (G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));

  /**
   * AkcConversationList:error:
   *
   * Why the last read failed, or %NULL when it did not. The list keeps
   * what it had; the next change or request reads again.
   *
   * Since: 0.1
   */
  props[PROP_ERROR] =
    g_param_spec_boxed ("error", NULL, NULL,
                        G_TYPE_ERROR,
                        (G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));

  /**
   * AkcConversationList:item-type:
   *
   * The type of the items: [class@ConversationInfo].
   *
   * Since: 0.1
   */
  props[PROP_ITEM_TYPE] =
    g_param_spec_gtype ("item-type", NULL, NULL,
                        G_TYPE_OBJECT,
                        (G_PARAM_READABLE | G_PARAM_STATIC_STRINGS));

  /**
   * AkcConversationList:n-items:
   *
   * The number of conversations in the list so far.
   *
   * Since: 0.1
   */
  props[PROP_N_ITEMS] =
    g_param_spec_uint ("n-items", NULL, NULL,
                       0, G_MAXUINT, 0,
                       (G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));

  g_object_class_install_properties (object_class, N_PROPS, props);
}

static void
akc_conversation_list_init (AkcConversationList *self)
{
  self->items = g_ptr_array_new_with_free_func (g_object_unref);
  self->by_id = g_hash_table_new (g_str_hash, g_str_equal);
  self->page_size = AKC_CONVERSATION_LIST_DEFAULT_PAGE_SIZE;
  self->cancellable = g_cancellable_new ();
}

/**
 * akc_conversation_list_new:
 * @memory: the history to list
 *
 * Creates a list of the conversations of @memory. The first page is read
 * at once; the list is empty until it arrives.
 *
 * Returns: (transfer full): a new #AkcConversationList
 *
 * Since: 0.1
 */
AkcConversationList *
akc_conversation_list_new (AkcChatMemory *memory)
{
  g_return_val_if_fail (AKC_IS_CHAT_MEMORY (memory), NULL);

  return g_object_new (AKC_TYPE_CONVERSATION_LIST, "memory", memory, NULL);
}

/**
 * akc_conversation_list_get_memory:
 * @self: a #AkcConversationList
 *
 * Gets the history whose conversations are listed.
 *
 * Returns: (transfer none): the history
 *
 * Since: 0.1
 */
AkcChatMemory *
akc_conversation_list_get_memory (AkcConversationList *self)
{
  g_return_val_if_fail (AKC_IS_CONVERSATION_LIST (self), NULL);

  return self->memory;
}

/**
 * akc_conversation_list_get_page_size:
 * @self: a #AkcConversationList
 *
 * Gets how many conversations one read adds to the list.
 *
 * Returns: the page size
 *
 * Since: 0.1
 */
guint
akc_conversation_list_get_page_size (AkcConversationList *self)
{
  g_return_val_if_fail (AKC_IS_CONVERSATION_LIST (self), 0);

  return self->page_size;
}

/**
 * akc_conversation_list_set_page_size:
 * @self: a #AkcConversationList
 * @page_size: how many conversations one read adds, 1 to 10000
 *
 * Sets how many conversations one read adds to the list.
 *
 * Since: 0.1
 */
void
akc_conversation_list_set_page_size (AkcConversationList *self,
                                     guint                page_size)
{
  g_return_if_fail (AKC_IS_CONVERSATION_LIST (self));
  g_return_if_fail (page_size >= 1 && page_size <= 10000);

  if (self->page_size == page_size)
    return;

  self->page_size = page_size;
  g_object_notify_by_pspec (G_OBJECT (self), props[PROP_PAGE_SIZE]);
}

/**
 * akc_conversation_list_get_loading:
 * @self: a #AkcConversationList
 *
 * Gets whether a read is in progress.
 *
 * Returns: %TRUE while the list is being read
 *
 * Since: 0.1
 */
gboolean
akc_conversation_list_get_loading (AkcConversationList *self)
{
  g_return_val_if_fail (AKC_IS_CONVERSATION_LIST (self), FALSE);

  return self->busy;
}

/**
 * akc_conversation_list_get_complete:
 * @self: a #AkcConversationList
 *
 * Gets whether every stored conversation is in the list.
 *
 * Returns: %TRUE once the last page was read
 *
 * Since: 0.1
 */
gboolean
akc_conversation_list_get_complete (AkcConversationList *self)
{
  g_return_val_if_fail (AKC_IS_CONVERSATION_LIST (self), FALSE);

  return self->complete;
}

/**
 * akc_conversation_list_get_error:
 * @self: a #AkcConversationList
 *
 * Gets why the last read failed.
 *
 * Returns: (transfer none) (nullable): the error, or %NULL
 *
 * Since: 0.1
 */
const GError *
akc_conversation_list_get_error (AkcConversationList *self)
{
  g_return_val_if_fail (AKC_IS_CONVERSATION_LIST (self), NULL);

  return self->error;
}

/**
 * akc_conversation_list_lookup:
 * @self: a #AkcConversationList
 * @id: the id of a conversation
 * @position: (out) (optional): where to store its position
 *
 * Finds a conversation among those loaded so far.
 *
 * Returns: (transfer none) (nullable): its info, or %NULL when it is not
 *   in the list (yet)
 *
 * Since: 0.1
 */
AkcConversationInfo *
akc_conversation_list_lookup (AkcConversationList *self,
                              const char          *id,
                              guint               *position)
{
  AkcConversationInfo *info;

  g_return_val_if_fail (AKC_IS_CONVERSATION_LIST (self), NULL);
  g_return_val_if_fail (id != NULL, NULL);

  info = g_hash_table_lookup (self->by_id, id);
  if (info != NULL && position != NULL)
    g_ptr_array_find (self->items, info, position);

  return info;
}

/**
 * akc_conversation_list_peek_item:
 * @self: a #AkcConversationList
 * @position: a position in the list
 *
 * Gets a conversation among those loaded so far, as
 * [method@Gio.ListModel.get_item] does, but without reading the next page
 * when @position is near the end: for a model that follows this one (and
 * reads the conversations it is told about), not for a view.
 *
 * Returns: (transfer none) (nullable): its info, or %NULL when @position
 *   is past the end
 *
 * Since: 0.1
 */
AkcConversationInfo *
akc_conversation_list_peek_item (AkcConversationList *self,
                                 guint                position)
{
  g_return_val_if_fail (AKC_IS_CONVERSATION_LIST (self), NULL);

  if (position >= self->items->len)
    return NULL;

  return g_ptr_array_index (self->items, position);
}

/**
 * akc_conversation_list_load_more:
 * @self: a #AkcConversationList
 *
 * Reads the next page, unless the list is complete or a read of it is
 * already waiting. [method@Gio.ListModel.get_item] near the end of the
 * list does this by itself.
 *
 * Since: 0.1
 */
void
akc_conversation_list_load_more (AkcConversationList *self)
{
  g_return_if_fail (AKC_IS_CONVERSATION_LIST (self));

  if (self->complete || self->want_more)
    return;

  self->want_more = TRUE;
  akc_conversation_list_schedule (self);
}

/**
 * akc_conversation_list_refresh:
 * @self: a #AkcConversationList
 *
 * Reads the loaded part of the list again. Changes made through the
 * memory are followed without this; it is for a history changed by
 * another program.
 *
 * Since: 0.1
 */
void
akc_conversation_list_refresh (AkcConversationList *self)
{
  g_return_if_fail (AKC_IS_CONVERSATION_LIST (self));

  on_conversation_changed (self, NULL);
}
