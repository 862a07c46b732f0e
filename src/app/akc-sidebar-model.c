/* akc-sidebar-model.c: the conversations under their day headings
 *
 * SPDX-License-Identifier: MIT
 */

#include "config.h"

#include <glib/gi18n.h>

#include "akc-sidebar-model.h"

/**
 * AkcSidebarModel:
 *
 * A list of the conversations (in their order: pinned first, then the
 * newest first) with a heading before each group: Pinned, Today,
 * Yesterday, Previous 7 Days, then one per month. The headings are
 * #GtkStringObject items, the conversations #AkcConversationItem items.
 * Over an #AkcConversationModel it lists the pages read so far; the
 * sidebar reads the next one when it is scrolled near its end.
 * A change of the conversations changes only the part of the list that
 * differs, so the list view keeps its selection and scroll position.
 */
struct _AkcSidebarModel
{
  GObject     parent_instance;

  GListModel *conversations;
  GPtrArray  *items;      /* the flattened list */
  GHashTable *headings;   /* label → GtkStringObject, reused */
};

static void akc_sidebar_model_iface_init (GListModelInterface *iface);

G_DEFINE_FINAL_TYPE_WITH_CODE (AkcSidebarModel, akc_sidebar_model, G_TYPE_OBJECT,
                               G_IMPLEMENT_INTERFACE (G_TYPE_LIST_MODEL, akc_sidebar_model_iface_init))

static GType
akc_sidebar_model_get_item_type (GListModel *model)
{
  return G_TYPE_OBJECT;
}

static guint
akc_sidebar_model_get_n_items (GListModel *model)
{
  return AKC_SIDEBAR_MODEL (model)->items->len;
}

static gpointer
akc_sidebar_model_get_item (GListModel *model,
                            guint       position)
{
  AkcSidebarModel *self = AKC_SIDEBAR_MODEL (model);

  if (position >= self->items->len)
    return NULL;

  return g_object_ref (g_ptr_array_index (self->items, position));
}

static void
akc_sidebar_model_iface_init (GListModelInterface *iface)
{
  iface->get_item_type = akc_sidebar_model_get_item_type;
  iface->get_n_items = akc_sidebar_model_get_n_items;
  iface->get_item = akc_sidebar_model_get_item;
}

static gint64
julian_of (GDateTime *time)
{
  g_autoptr(GDateTime) local = g_date_time_to_local (time);
  g_autoptr(GDate) date = g_date_new_dmy (g_date_time_get_day_of_month (local),
                                          g_date_time_get_month (local),
                                          g_date_time_get_year (local));

  return g_date_get_julian (date);
}

/**
 * akc_sidebar_model_group_for:
 * @item: a conversation
 * @now: the time now
 *
 * Returns: (transfer full): the heading of the group @item is listed in
 */
char *
akc_sidebar_model_group_for (AkcConversationItem *item,
                             GDateTime           *now)
{
  GDateTime *updated = akc_conversation_item_get_updated_at (item);
  g_autoptr(GDateTime) local = NULL;
  gint64 days;

  if (akc_conversation_item_get_pinned (item))
    return g_strdup (_("Pinned"));

  days = julian_of (now) - julian_of (updated);
  if (days <= 0)
    return g_strdup (_("Today"));
  if (days == 1)
    return g_strdup (_("Yesterday"));
  if (days < 7)
    return g_strdup (_("Previous 7 Days"));

  local = g_date_time_to_local (updated);
  /* Translators: a heading of older conversations, a month and a year, in
   * g_date_time_format() notation, such as "March 2026". */
  return g_date_time_format (local, _("%B %Y"));
}

/**
 * akc_sidebar_model_relative_time:
 * @time: when something happened
 * @now: the time now
 *
 * Returns: (transfer full): how long ago @time was, as a person says it
 */
char *
akc_sidebar_model_relative_time (GDateTime *time,
                                 GDateTime *now)
{
  GTimeSpan span = g_date_time_difference (now, time);
  gint64 minutes = span / G_TIME_SPAN_MINUTE;
  gint64 days = julian_of (now) - julian_of (time);
  g_autoptr(GDateTime) local = g_date_time_to_local (time);

  if (minutes < 1)
    return g_strdup (_("Just now"));
  if (minutes < 60)
    return g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%d minute ago", "%d minutes ago", minutes), (int) minutes);
  if (days <= 0)
    return g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%d hour ago", "%d hours ago", minutes / 60), (int) (minutes / 60));
  if (days == 1)
    return g_strdup (_("Yesterday"));
  if (days < 7)
    return g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%d day ago", "%d days ago", days), (int) days);
  /* Translators: the date of an older conversation, in
   * g_date_time_format() notation, such as "3 Mar 2026". */
  return g_date_time_format (local, _("%e %b %Y"));
}

static GObject *
heading (AkcSidebarModel *self,
         char            *label)
{
  GtkStringObject *object = g_hash_table_lookup (self->headings, label);

  if (object == NULL)
    {
      object = gtk_string_object_new (label);
      g_hash_table_insert (self->headings, g_strdup (label), object);
    }
  g_free (label);

  return G_OBJECT (object);
}

/* Where the groups start, as times: each conversation is placed by
 * comparing its time with these, and the label of an older one's month is
 * made only when the month changes (the list is in order), so a long list
 * costs little more than its length. */
typedef struct
{
  GDateTime *now;
  gint64     today;       /* local midnight */
  gint64     yesterday;
  gint64     week;        /* the start of "Previous 7 Days" */
  gint64     month_start; /* of the month group being filled, or G_MAXINT64 */
  gint64     month_end;
} Groups;

static void
groups_init (Groups *groups)
{
  g_autoptr(GDateTime) midnight = NULL;
  g_autoptr(GDateTime) yesterday = NULL;
  g_autoptr(GDateTime) week = NULL;

  groups->now = g_date_time_new_now_local ();
  midnight = g_date_time_new_local (g_date_time_get_year (groups->now), g_date_time_get_month (groups->now),
                                    g_date_time_get_day_of_month (groups->now), 0, 0, 0);
  yesterday = g_date_time_add_days (midnight, -1);
  week = g_date_time_add_days (midnight, -6);
  groups->today = g_date_time_to_unix (midnight);
  groups->yesterday = g_date_time_to_unix (yesterday);
  groups->week = g_date_time_to_unix (week);
  groups->month_start = G_MAXINT64;
  groups->month_end = G_MININT64;
}

/* A key of the group @item is listed in: the same key, the same heading. */
static gint64
group_key (Groups              *groups,
           AkcConversationItem *item)
{
  gint64 time;

  if (akc_conversation_item_get_pinned (item))
    return -1;
  time = g_date_time_to_unix (akc_conversation_item_get_updated_at (item));
  if (time >= groups->today)
    return -2;
  if (time >= groups->yesterday)
    return -3;
  if (time >= groups->week)
    return -4;
  if (time < groups->month_start || time >= groups->month_end)
    {
      g_autoptr(GDateTime) local = g_date_time_new_from_unix_local (time);
      g_autoptr(GDateTime) start = g_date_time_new_local (g_date_time_get_year (local),
                                                          g_date_time_get_month (local), 1, 0, 0, 0);
      g_autoptr(GDateTime) end = g_date_time_add_months (start, 1);

      groups->month_start = g_date_time_to_unix (start);
      groups->month_end = g_date_time_to_unix (end);
    }
  return groups->month_start;
}

static void
rebuild (AkcSidebarModel *self)
{
  g_autoptr(GPtrArray) items = NULL;
  Groups groups;
  gint64 group = G_MININT64;
  gboolean first = TRUE;
  guint n = self->conversations != NULL ? g_list_model_get_n_items (self->conversations) : 0;
  guint prefix = 0, suffix = 0;
  guint removed, added;
  GPtrArray *old = self->items;

  items = g_ptr_array_new_full (n + n / 8 + 8, g_object_unref);
  groups_init (&groups);
  for (guint i = 0; i < n; i++)
    {
      AkcConversationItem *item = AKC_IS_CONVERSATION_MODEL (self->conversations)
                                  ? g_object_ref (akc_conversation_model_peek_item (AKC_CONVERSATION_MODEL (self->conversations), i))
                                  : g_list_model_get_item (self->conversations, i);
      gint64 key = group_key (&groups, item);

      if (first || key != group)
        {
          first = FALSE;
          group = key;
          g_ptr_array_add (items, g_object_ref (heading (self, akc_sidebar_model_group_for (item, groups.now))));
        }
      g_ptr_array_add (items, item);
    }
  g_date_time_unref (groups.now);

  while (prefix < old->len && prefix < items->len &&
         g_ptr_array_index (old, prefix) == g_ptr_array_index (items, prefix))
    prefix++;
  while (suffix < old->len - prefix && suffix < items->len - prefix &&
         g_ptr_array_index (old, old->len - 1 - suffix) == g_ptr_array_index (items, items->len - 1 - suffix))
    suffix++;

  removed = old->len - prefix - suffix;
  added = items->len - prefix - suffix;
  self->items = g_steal_pointer (&items);
  g_ptr_array_unref (old);
  if (removed > 0 || added > 0)
    g_list_model_items_changed (G_LIST_MODEL (self), prefix, removed, added);
}

static void
on_items_changed (AkcSidebarModel *self)
{
  rebuild (self);
}

static void
akc_sidebar_model_dispose (GObject *object)
{
  AkcSidebarModel *self = AKC_SIDEBAR_MODEL (object);

  if (self->conversations != NULL)
    g_signal_handlers_disconnect_by_func (self->conversations, on_items_changed, self);
  g_clear_object (&self->conversations);

  G_OBJECT_CLASS (akc_sidebar_model_parent_class)->dispose (object);
}

static void
akc_sidebar_model_finalize (GObject *object)
{
  AkcSidebarModel *self = AKC_SIDEBAR_MODEL (object);

  g_clear_pointer (&self->items, g_ptr_array_unref);
  g_clear_pointer (&self->headings, g_hash_table_unref);

  G_OBJECT_CLASS (akc_sidebar_model_parent_class)->finalize (object);
}

static void
akc_sidebar_model_class_init (AkcSidebarModelClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->dispose = akc_sidebar_model_dispose;
  object_class->finalize = akc_sidebar_model_finalize;
}

static void
akc_sidebar_model_init (AkcSidebarModel *self)
{
  self->items = g_ptr_array_new_with_free_func (g_object_unref);
  self->headings = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_object_unref);
}

/**
 * akc_sidebar_model_new:
 * @conversations: a list of #AkcConversationItem, in the sidebar's order
 *
 * Returns: (transfer full): a new #AkcSidebarModel that follows
 *   @conversations
 */
AkcSidebarModel *
akc_sidebar_model_new (GListModel *conversations)
{
  AkcSidebarModel *self;

  g_return_val_if_fail (G_IS_LIST_MODEL (conversations), NULL);

  self = g_object_new (AKC_TYPE_SIDEBAR_MODEL, NULL);
  akc_sidebar_model_set_conversations (self, conversations);

  return self;
}

/**
 * akc_sidebar_model_set_conversations:
 * @self: a #AkcSidebarModel
 * @conversations: a list of #AkcConversationItem, in the sidebar's order
 *
 * Follows another list (the search's results, or all conversations
 * again); the rows both have in the same place stay.
 */
void
akc_sidebar_model_set_conversations (AkcSidebarModel *self,
                                     GListModel      *conversations)
{
  g_return_if_fail (AKC_IS_SIDEBAR_MODEL (self));
  g_return_if_fail (G_IS_LIST_MODEL (conversations));

  if (self->conversations == conversations)
    return;

  if (self->conversations != NULL)
    g_signal_handlers_disconnect_by_func (self->conversations, on_items_changed, self);
  g_set_object (&self->conversations, conversations);
  g_signal_connect_swapped (conversations, "items-changed", G_CALLBACK (on_items_changed), self);
  rebuild (self);
}

/**
 * akc_sidebar_model_get_conversations:
 * @self: a #AkcSidebarModel
 *
 * Returns: (transfer none): the list the sidebar follows
 */
GListModel *
akc_sidebar_model_get_conversations (AkcSidebarModel *self)
{
  g_return_val_if_fail (AKC_IS_SIDEBAR_MODEL (self), NULL);

  return self->conversations;
}

/**
 * akc_sidebar_model_find:
 * @self: a #AkcSidebarModel
 * @item: a conversation
 * @position: (out) (optional): where to store its row
 *
 * Finds the row of a conversation, without reading more of the history.
 *
 * Returns: whether @item has a row
 */
gboolean
akc_sidebar_model_find (AkcSidebarModel     *self,
                        AkcConversationItem *item,
                        guint               *position)
{
  g_return_val_if_fail (AKC_IS_SIDEBAR_MODEL (self), FALSE);

  return item != NULL && g_ptr_array_find (self->items, item, position);
}

/**
 * akc_sidebar_model_peek_item:
 * @self: a #AkcSidebarModel
 * @position: a row
 *
 * Gets a row without reading more of the history.
 *
 * Returns: (transfer none) (nullable): a heading (#GtkStringObject) or a
 *   conversation (#AkcConversationItem)
 */
GObject *
akc_sidebar_model_peek_item (AkcSidebarModel *self,
                             guint            position)
{
  g_return_val_if_fail (AKC_IS_SIDEBAR_MODEL (self), NULL);

  return position < self->items->len ? g_ptr_array_index (self->items, position) : NULL;
}
