/* akc-chat-view-find.c: finding text in the transcript
 *
 * SPDX-License-Identifier: MIT
 *
 * What the find bar of a conversation shows (issue 14 item 5): every
 * match of [property@ChatView:search-text] in the messages of the whole
 * conversation, counted on the messages themselves (not only on the rows
 * the list view has built), highlighted in the rows that are built, and
 * one of them current, brought into sight.
 *
 * A message is searched in the text it shows, part by part, the way
 * AkcMessageRow draws it: Markdown as its rendered blocks (paragraphs,
 * headings, code, table cells; not the Markdown syntax around them),
 * plain bubbles, diagnostics and semantic fallbacks as their text, and
 * native components as the texts they show of their props
 * (akc_component_dup_visible_texts(): choice labels and descriptions,
 * table captions, column labels and cells, source titles and snippets,
 * form titles and field labels…), matched in the labels of the
 * component's widgets that show exactly one of those texts, in widget
 * order. Matching is AkcTextSearch's
 * (case-insensitive, Unicode-normalised, GTK-free and unit-tested in
 * libakc).
 *
 * The count (model side) and the highlight (widget side) walk a message
 * in the same order, so match N of a message is the same text in both.
 */

#include "config.h"

#include <string.h>
#include <glib/gi18n-lib.h>

#include "akc-chat-view-private.h"
#include "akc-code-block-private.h"
#include "akc-markdown-private.h"
#include "akc-markdown-view-private.h"
#include "akc-message-row-private.h"
#include "akc-message-window-private.h"

/* How many frames the view waits for the row of the current match to be
 * built and laid out before it gives up bringing the match into sight. */
#define REVEAL_MAX_FRAMES 240

/* The texts a message shows, kept while its content stays the same. */
typedef struct
{
  char      *content;
  gsize      length;
  GPtrArray *texts;   /* char *, in the order the row shows them */
} MessageTexts;

struct _AkcChatViewFind
{
  char          *text;
  AkcTextSearch *search;        /* NULL while nothing is looked for */
  GPtrArray     *matches;       /* AkcMessage, one per match, in order */
  GArray        *ordinals;      /* int: the match's number in its message */
  GArray        *indices;       /* guint: its message's position */
  int            current;       /* in matches; -1: none */
  GHashTable    *cache;         /* AkcMessage → MessageTexts */
  gpointer       cache_manifest;
  guint          refresh_idle;
  guint          reveal_tick;
  guint          reveal_frames;
  guint          reveal_settled;
};

static void
message_texts_free (MessageTexts *texts)
{
  g_free (texts->content);
  g_ptr_array_unref (texts->texts);
  g_free (texts);
}

static AkcChatViewFind *
get_find (AkcChatView *self)
{
  if (self->find == NULL)
    {
      self->find = g_new0 (AkcChatViewFind, 1);
      self->find->matches = g_ptr_array_new_with_free_func (g_object_unref);
      self->find->ordinals = g_array_new (FALSE, FALSE, sizeof (int));
      self->find->indices = g_array_new (FALSE, FALSE, sizeof (guint));
      self->find->current = -1;
      self->find->cache = g_hash_table_new_full (NULL, NULL, g_object_unref,
                                                 (GDestroyNotify) message_texts_free);
    }

  return self->find;
}

/* ------------------------------------------------------------------ */
/* What a message shows                                                */
/* ------------------------------------------------------------------ */

static void
add_markdown_texts (GPtrArray  *texts,
                    const char *text,
                    gsize       length)
{
  g_autoptr(GPtrArray) blocks = akc_markdown_parse (text, length);

  for (guint i = 0; i < blocks->len; i++)
    {
      AkcMarkdownBlock *block = g_ptr_array_index (blocks, i);

      switch (block->kind)
        {
        case AKC_MARKDOWN_PARAGRAPH:
        case AKC_MARKDOWN_HEADING:
        case AKC_MARKDOWN_CODE:
          g_ptr_array_add (texts, g_strdup (block->text != NULL ? block->text : ""));
          break;
        case AKC_MARKDOWN_GFM_TABLE:
          for (guint c = 0; block->cells != NULL && c < block->cells->len; c++)
            {
              AkcMarkdownCell *cell = g_ptr_array_index (block->cells, c);

              g_ptr_array_add (texts, g_strdup (cell->text != NULL ? cell->text : ""));
            }
          break;
        case AKC_MARKDOWN_RULE:
        default:
          break;
        }
    }
}

/* The texts of @message, part by part as AkcMessageRow shows them. */
static GPtrArray *
collect_texts (AkcMessage           *message,
               AkcComponentManifest *manifest)
{
  g_autoptr(GListModel) presentations = akc_present_message (message, manifest);
  GPtrArray *texts = g_ptr_array_new_with_free_func (g_free);
  AkcMessageRole role = akc_message_get_role (message);
  guint n = g_list_model_get_n_items (presentations);

  for (guint i = 0; i < n; i++)
    {
      g_autoptr(AkcPresentation) presentation = g_list_model_get_item (presentations, i);
      gsize length;
      const char *text = akc_presentation_get_text (presentation, &length);

      switch (akc_presentation_get_kind (presentation))
        {
        case AKC_PRESENTATION_COMPONENT:
          /* Without a manifest the fallback is shown; a native component
           * shows the texts of its props. */
          if (manifest == NULL)
            g_ptr_array_add (texts, akc_display_text (text, (gssize) length));
          else if (akc_presentation_get_resolved (presentation) != NULL)
            {
              g_auto(GStrv) shown = akc_component_dup_visible_texts (
                akc_resolved_component_get_props (akc_presentation_get_resolved (presentation)));

              for (guint j = 0; shown[j] != NULL; j++)
                g_ptr_array_add (texts, g_strdup (shown[j]));
            }
          break;
        case AKC_PRESENTATION_DIAGNOSTIC:
          g_ptr_array_add (texts, akc_display_text (text, (gssize) length));
          break;
        case AKC_PRESENTATION_MESSAGE:
        default:
          if (role == AKC_MESSAGE_ROLE_USER || role == AKC_MESSAGE_ROLE_ASSISTANT)
            add_markdown_texts (texts, text != NULL ? text : "", length);
          else
            g_ptr_array_add (texts, akc_display_text (text, (gssize) length));
          break;
        }
    }

  return texts;
}

static GPtrArray *
message_texts (AkcChatView *self,
               AkcMessage  *message)
{
  AkcChatViewFind *find = get_find (self);
  const char *content = akc_message_get_content (message);
  gsize length = akc_message_get_content_length (message);
  MessageTexts *texts;

  if (find->cache_manifest != (gpointer) self->manifest)
    {
      g_hash_table_remove_all (find->cache);
      find->cache_manifest = self->manifest;
    }

  texts = g_hash_table_lookup (find->cache, message);
  if (texts != NULL && texts->length == length &&
      (length == 0 || memcmp (texts->content, content, length) == 0))
    return texts->texts;

  texts = g_new0 (MessageTexts, 1);
  texts->content = g_memdup2 (content != NULL ? content : "", length + 1);
  texts->length = length;
  texts->texts = collect_texts (message, self->manifest);
  g_hash_table_replace (find->cache, g_object_ref (message), texts);

  return texts->texts;
}

static guint
count_matches (AkcChatView   *self,
               AkcMessage    *message,
               AkcTextSearch *search)
{
  GPtrArray *texts = message_texts (self, message);
  guint n = 0;

  for (guint i = 0; i < texts->len; i++)
    n += akc_text_search_count (search, g_ptr_array_index (texts, i), -1);

  return n;
}

/* ------------------------------------------------------------------ */
/* What a row draws                                                    */
/* ------------------------------------------------------------------ */

/* The attributes a label had before the find drew on it. */
static GQuark
base_quark (void)
{
  static GQuark quark;

  if (quark == 0)
    quark = g_quark_from_static_string ("akc-find-base-attributes");

  return quark;
}

typedef struct
{
  PangoAttrList *base;   /* nullable */
} Base;

static void
base_free (Base *base)
{
  g_clear_pointer (&base->base, pango_attr_list_unref);
  g_free (base);
}

/* GTK 4.8 keeps drawing the attributes a label with markup had, whatever
 * its new ones are, until its markup is parsed again: so it is. */
static void
set_label_attributes (GtkLabel      *label,
                      PangoAttrList *attrs)
{
  gtk_label_set_attributes (label, attrs);
  if (gtk_label_get_use_markup (label))
    {
      g_autofree char *markup = g_strdup (gtk_label_get_label (label));

      gtk_label_set_label (label, "");
      gtk_label_set_label (label, markup);
    }
  gtk_widget_queue_draw (GTK_WIDGET (label));
}

typedef struct
{
  AkcTextSearch *search;
  int            current;
  int            ordinal;
  GtkWidget     *current_widget;
} Walk;

static void
add_highlight (PangoAttrList *attrs,
               gsize          start,
               gsize          end,
               gboolean       current)
{
  PangoAttribute *attr;

  /* Dark text on yellow (every match) or orange (the current one): it
   * reads the same on light and dark styles. */
  attr = current ? pango_attr_background_new (0xffff, 0x7800, 0x0000)
                 : pango_attr_background_new (0xf600, 0xd300, 0x2d00);
  attr->start_index = (guint) start;
  attr->end_index = (guint) end;
  pango_attr_list_insert (attrs, attr);

  attr = pango_attr_foreground_new (0, 0, 0);
  attr->start_index = (guint) start;
  attr->end_index = (guint) end;
  pango_attr_list_insert (attrs, attr);

  if (current)
    {
      attr = pango_attr_underline_new (PANGO_UNDERLINE_SINGLE);
      attr->start_index = (guint) start;
      attr->end_index = (guint) end;
      pango_attr_list_insert (attrs, attr);
    }
}

static void
walk_label (Walk      *walk,
            GtkWidget *widget)
{
  GtkLabel *label;
  Base *base;
  g_autofree gsize *offsets = NULL;
  gsize n_offsets = 0;
  PangoAttrList *attrs;

  if (!GTK_IS_LABEL (widget))
    return;

  label = GTK_LABEL (widget);
  base = g_object_get_qdata (G_OBJECT (label), base_quark ());
  if (walk->search != NULL)
    offsets = akc_text_search_find_all (walk->search, gtk_label_get_text (label), -1, &n_offsets);

  if (n_offsets == 0)
    {
      /* Nothing to show here (any more): the label as it was. */
      if (base != NULL)
        {
          set_label_attributes (label, base->base);
          g_object_set_qdata (G_OBJECT (label), base_quark (), NULL);
        }
      return;
    }

  if (base == NULL)
    {
      PangoAttrList *own = gtk_label_get_attributes (label);

      base = g_new0 (Base, 1);
      base->base = own != NULL ? pango_attr_list_ref (own) : NULL;
      g_object_set_qdata_full (G_OBJECT (label), base_quark (), base, (GDestroyNotify) base_free);
    }

  attrs = base->base != NULL ? pango_attr_list_copy (base->base) : pango_attr_list_new ();
  for (gsize i = 0; i + 1 < n_offsets; i += 2)
    {
      gboolean current = walk->ordinal == walk->current;

      add_highlight (attrs, offsets[i], offsets[i + 1], current);
      if (current)
        walk->current_widget = widget;
      walk->ordinal++;
    }
  set_label_attributes (label, attrs);
  pango_attr_list_unref (attrs);
}

/* A table cell (a GtkInscription): walk_label()'s rule. */
static void
walk_inscription (Walk           *walk,
                  GtkInscription *inscription)
{
  Base *base = g_object_get_qdata (G_OBJECT (inscription), base_quark ());
  g_autofree gsize *offsets = NULL;
  gsize n_offsets = 0;
  PangoAttrList *attrs;

  if (walk->search != NULL)
    offsets = akc_text_search_find_all (walk->search, gtk_inscription_get_text (inscription), -1, &n_offsets);

  if (n_offsets == 0)
    {
      if (base != NULL)
        {
          gtk_inscription_set_attributes (inscription, base->base);
          g_object_set_qdata (G_OBJECT (inscription), base_quark (), NULL);
        }
      return;
    }

  if (base == NULL)
    {
      PangoAttrList *own = gtk_inscription_get_attributes (inscription);

      base = g_new0 (Base, 1);
      base->base = own != NULL ? pango_attr_list_ref (own) : NULL;
      g_object_set_qdata_full (G_OBJECT (inscription), base_quark (), base, (GDestroyNotify) base_free);
    }

  attrs = base->base != NULL ? pango_attr_list_copy (base->base) : pango_attr_list_new ();
  for (gsize i = 0; i + 1 < n_offsets; i += 2)
    {
      gboolean current = walk->ordinal == walk->current;

      add_highlight (attrs, offsets[i], offsets[i + 1], current);
      if (current)
        walk->current_widget = GTK_WIDGET (inscription);
      walk->ordinal++;
    }
  gtk_inscription_set_attributes (inscription, attrs);
  pango_attr_list_unref (attrs);
}

static void
walk_labels_under (Walk      *walk,
                   GtkWidget *widget)
{
  if (GTK_IS_LABEL (widget))
    {
      walk_label (walk, widget);
      return;
    }

  for (GtkWidget *child = gtk_widget_get_first_child (widget);
       child != NULL;
       child = gtk_widget_get_next_sibling (child))
    walk_labels_under (walk, child);
}

static void
walk_markdown (Walk            *walk,
               AkcMarkdownView *view)
{
  guint n = akc_markdown_view_get_n_blocks (view);

  for (guint i = 0; i < n; i++)
    {
      const AkcMarkdownBlock *block = akc_markdown_view_get_block (view, i);
      GtkWidget *widget = akc_markdown_view_get_block_widget (view, i);

      switch (block->kind)
        {
        case AKC_MARKDOWN_PARAGRAPH:
        case AKC_MARKDOWN_HEADING:
          walk_label (walk, widget);
          break;
        case AKC_MARKDOWN_CODE:
          if (AKC_IS_CODE_BLOCK (widget))
            for (guint c = 0; c < akc_code_block_get_n_chunks (AKC_CODE_BLOCK (widget)); c++)
              walk_label (walk, akc_code_block_get_chunk (AKC_CODE_BLOCK (widget), c));
          break;
        case AKC_MARKDOWN_GFM_TABLE:
          walk_labels_under (walk, widget);
          break;
        case AKC_MARKDOWN_RULE:
        default:
          break;
        }
    }
}

/* The labels under a native component that show one of its texts, each
 * text once, in widget order. */
static void
walk_component_labels (Walk       *walk,
                       GtkWidget  *widget,
                       GStrv       texts,
                       gboolean   *used)
{
  if (GTK_IS_LABEL (widget) || GTK_IS_INSCRIPTION (widget))
    {
      const char *text = GTK_IS_LABEL (widget) ? gtk_label_get_text (GTK_LABEL (widget))
                                               : gtk_inscription_get_text (GTK_INSCRIPTION (widget));

      for (guint i = 0; texts[i] != NULL; i++)
        if (!used[i] && g_strcmp0 (texts[i], text) == 0)
          {
            used[i] = TRUE;
            if (GTK_IS_LABEL (widget))
              walk_label (walk, widget);
            else
              walk_inscription (walk, GTK_INSCRIPTION (widget));
            break;
          }
      return;
    }

  for (GtkWidget *child = gtk_widget_get_first_child (widget);
       child != NULL;
       child = gtk_widget_get_next_sibling (child))
    walk_component_labels (walk, child, texts, used);
}

static void
walk_component (Walk             *walk,
                AkcComponentView *view)
{
  AkcResolvedComponent *resolved = akc_component_view_get_resolved_component (view);
  g_auto(GStrv) texts = NULL;
  g_autofree gboolean *used = NULL;

  if (resolved == NULL || akc_component_view_get_is_fallback (view))
    return;

  texts = akc_component_dup_visible_texts (akc_resolved_component_get_props (resolved));
  used = g_new0 (gboolean, g_strv_length (texts) + 1);
  walk_component_labels (walk, GTK_WIDGET (view), texts, used);
}

GtkWidget *
akc_message_row_apply_search (AkcMessageRow *self,
                              AkcTextSearch *search,
                              int            current)
{
  Walk walk = { search, current, 0, NULL };
  guint n = akc_message_row_get_n_parts (self);

  for (guint i = 0; i < n; i++)
    {
      GtkWidget *part = akc_message_row_get_part (self, i);

      switch (akc_message_row_get_part_kind (self, i))
        {
        case AKC_MESSAGE_PART_MARKDOWN:
          walk_markdown (&walk, AKC_MARKDOWN_VIEW (part));
          break;
        case AKC_MESSAGE_PART_COMPONENT:
          if (AKC_IS_COMPONENT_VIEW (part))
            walk_component (&walk, AKC_COMPONENT_VIEW (part));
          else
            /* Without a manifest: the semantic fallback's label. */
            walk_label (&walk, part);
          break;
        case AKC_MESSAGE_PART_PLAIN:
        case AKC_MESSAGE_PART_DIAGNOSTIC:
        default:
          walk_label (&walk, part);
          break;
        }
    }

  return walk.current_widget;
}

/* ------------------------------------------------------------------ */
/* The matches                                                         */
/* ------------------------------------------------------------------ */

static AkcMessage *
current_message (AkcChatViewFind *find)
{
  return find->current >= 0 ? g_ptr_array_index (find->matches, find->current) : NULL;
}

static void
apply_to_row (AkcChatView   *self,
              AkcMessageRow *row)
{
  AkcChatViewFind *find = self->find;
  AkcMessage *message = akc_message_row_get_message (row);
  int current = -1;

  if (find == NULL || message == NULL)
    return;

  if (find->current >= 0 && current_message (find) == message)
    current = g_array_index (find->ordinals, int, find->current);
  akc_message_row_set_search (row, find->search, current);
}

static void
apply_to_rows (AkcChatView *self)
{
  GHashTableIter iter;
  gpointer row;

  g_hash_table_iter_init (&iter, self->rows);
  while (g_hash_table_iter_next (&iter, &row, NULL))
    apply_to_row (self, AKC_MESSAGE_ROW (row));
}

void
akc_chat_view_find_bind_row (AkcChatView   *self,
                             AkcMessageRow *row)
{
  if (self->find != NULL && self->find->search != NULL)
    apply_to_row (self, row);
}

static void
stop_reveal (AkcChatView *self)
{
  if (self->find != NULL && self->find->reveal_tick != 0)
    {
      gtk_widget_remove_tick_callback (GTK_WIDGET (self), self->find->reveal_tick);
      self->find->reveal_tick = 0;
    }
}

/* The position of @message in the list, or G_MAXUINT. */
static guint
shown_position (AkcChatView *self,
                AkcMessage  *message)
{
  guint n = self->shown != NULL ? g_list_model_get_n_items (G_LIST_MODEL (self->shown)) : 0;

  for (guint i = n; i > 0; i--)
    {
      g_autoptr(AkcMessage) item = g_list_model_get_item (G_LIST_MODEL (self->shown), i - 1);

      if (item == message)
        return i - 1;
    }

  return G_MAXUINT;
}

/* Brings the label of the current match into sight: the list view
 * scrolls to its row until the row is built and on screen (older history
 * paged in above it moves it), then the view scrolls so that the label,
 * which may be far down a long message, is in the middle. */
static gboolean
reveal_tick (GtkWidget     *widget,
             GdkFrameClock *clock,
             gpointer       user_data)
{
  AkcChatView *self = AKC_CHAT_VIEW (widget);
  AkcChatViewFind *find = self->find;
  AkcMessage *message = current_message (find);
  AkcMessageRow *row = message != NULL ? akc_chat_view_get_row (self, message) : NULL;
  GtkWidget *label = row != NULL ? akc_message_row_get_search_widget (row) : NULL;
  graphene_rect_t bounds;

  if (message == NULL || self->vadjustment == NULL || find->reveal_frames++ > REVEAL_MAX_FRAMES)
    {
      find->reveal_tick = 0;
      return G_SOURCE_REMOVE;
    }

  if (label == NULL || !gtk_widget_get_mapped (label) ||
      !gtk_widget_compute_bounds (label, GTK_WIDGET (self->list_view), &bounds))
    {
      guint position = shown_position (self, message);

      find->reveal_settled = 0;
      if (position == G_MAXUINT)
        {
          find->reveal_tick = 0;
          return G_SOURCE_REMOVE;
        }
      self->stick_to_bottom = FALSE;
      gtk_widget_activate_action (GTK_WIDGET (self->list_view), "list.scroll-to-item", "u", position);
      return G_SOURCE_CONTINUE;
    }
  else
    {
      double page = gtk_widget_get_height (GTK_WIDGET (self->list_view));
      double top = bounds.origin.y, bottom = bounds.origin.y + bounds.size.height;

      if (top < 0 || bottom > page)
        {
          double value = gtk_adjustment_get_value (self->vadjustment);

          /* The label's first lines in the middle of the view. */
          value += top - MAX (0.0, (page - MIN (bounds.size.height, page)) / 2);
          self->stick_to_bottom = FALSE;
          gtk_adjustment_set_value (self->vadjustment, value);
          find->reveal_settled = 0;
        }
      else if (++find->reveal_settled >= 3)
        {
          /* In sight for a few frames in a row: rows around it whose
           * height was an estimate are laid out by now. */
          find->reveal_tick = 0;
          return G_SOURCE_REMOVE;
        }
    }

  return G_SOURCE_CONTINUE;
}

static void
reveal_current (AkcChatView *self)
{
  AkcChatViewFind *find = self->find;
  AkcMessage *message = current_message (find);
  guint position;

  stop_reveal (self);
  if (message == NULL || self->shown == NULL)
    return;

  if (self->window != NULL)
    akc_message_window_include (self->window, g_array_index (find->indices, guint, find->current));

  position = shown_position (self, message);
  if (position == G_MAXUINT)
    return;

  /* The reader went to the match: new content must not pull the view
   * back down. */
  self->stick_to_bottom = FALSE;
  gtk_widget_activate_action (GTK_WIDGET (self->list_view), "list.scroll-to-item", "u", position);
  find->reveal_frames = 0;
  find->reveal_settled = 0;
  find->reveal_tick = gtk_widget_add_tick_callback (GTK_WIDGET (self), reveal_tick, NULL, NULL);
}

static void
notify_matches (AkcChatView *self,
                guint        old_n,
                int          old_current)
{
  AkcChatViewFind *find = self->find;

  if (find->matches->len != old_n)
    g_object_notify_by_pspec (G_OBJECT (self), akc_chat_view_props[PROP_N_MATCHES]);
  if (find->current != old_current || find->matches->len != old_n)
    g_object_notify_by_pspec (G_OBJECT (self), akc_chat_view_props[PROP_MATCH_POSITION]);
}

/* Counts the matches again. The current match stays the same text when
 * it is still there; otherwise it is the first one after where it was
 * (so typing more of a word stays on the same message), and at first the
 * newest. */
static void
refresh (AkcChatView *self,
         gboolean     query_changed)
{
  AkcChatViewFind *find = get_find (self);
  g_autoptr(AkcMessage) old_message = NULL;
  int old_ordinal = -1, old_current = find->current;
  guint old_index = 0, old_n = find->matches->len;
  gboolean had_current = find->current >= 0;
  int chosen = -1;

  g_clear_handle_id (&find->refresh_idle, g_source_remove);

  if (had_current)
    {
      old_message = g_object_ref (current_message (find));
      old_ordinal = g_array_index (find->ordinals, int, find->current);
      old_index = g_array_index (find->indices, guint, find->current);
    }

  g_ptr_array_set_size (find->matches, 0);
  g_array_set_size (find->ordinals, 0);
  g_array_set_size (find->indices, 0);

  if (find->search != NULL && self->messages != NULL)
    {
      guint n = g_list_model_get_n_items (self->messages);
      g_autoptr(GHashTable) seen = g_hash_table_new (NULL, NULL);

      AkcMessageRole previous = AKC_MESSAGE_ROLE_SYSTEM;

      for (guint i = 0; i < n; i++)
        {
          g_autoptr(AkcMessage) message = g_list_model_get_item (self->messages, i);
          AkcMessageRole role = akc_message_get_role (message);
          gboolean maybe_hidden;
          guint k;

          /* Only what the list shows is found. Asking is a pass over the
           * conversation per message, so it is asked only of the messages
           * that can be left out: tool results, the replies right after
           * one (replays), and replies that carry tool calls. */
          maybe_hidden = role == AKC_MESSAGE_ROLE_TOOL || previous == AKC_MESSAGE_ROLE_TOOL ||
                         g_list_model_get_n_items (akc_message_get_tool_calls (message)) > 0;
          previous = role;
          if (maybe_hidden && !akc_chat_view_message_is_shown (message, self))
            continue;

          g_hash_table_add (seen, message);
          k = count_matches (self, message, find->search);
          for (guint j = 0; j < k; j++)
            {
              int ordinal = (int) j;

              if (had_current && chosen < 0 &&
                  (i > old_index || (message == old_message && ordinal >= old_ordinal)))
                chosen = (int) find->matches->len;
              g_ptr_array_add (find->matches, g_object_ref (message));
              g_array_append_val (find->ordinals, ordinal);
              g_array_append_val (find->indices, i);
            }
        }

      /* Messages gone from the conversation leave the cache. */
      {
        GHashTableIter iter;
        gpointer key;

        g_hash_table_iter_init (&iter, find->cache);
        while (g_hash_table_iter_next (&iter, &key, NULL))
          if (!g_hash_table_contains (seen, key))
            g_hash_table_iter_remove (&iter);
      }
    }
  else
    g_hash_table_remove_all (find->cache);

  if (find->matches->len == 0)
    find->current = -1;
  else if (chosen >= 0)
    find->current = chosen;
  else
    find->current = (int) find->matches->len - 1;

  apply_to_rows (self);
  notify_matches (self, old_n, old_current);

  if (query_changed ||
      (find->current >= 0 && (!had_current || current_message (find) != old_message)))
    reveal_current (self);
}

static gboolean
refresh_idle (gpointer user_data)
{
  AkcChatView *self = user_data;

  self->find->refresh_idle = 0;
  refresh (self, FALSE);

  return G_SOURCE_REMOVE;
}

/* The messages changed: the matches are counted again once the change
 * is over (a reply streaming in counts once per main-loop turn). */
void
akc_chat_view_find_messages_changed (AkcChatView *self)
{
  if (self->find == NULL || self->find->search == NULL || self->find->refresh_idle != 0)
    return;

  self->find->refresh_idle = g_idle_add_full (G_PRIORITY_DEFAULT_IDLE, refresh_idle, self, NULL);
}

/* Another source (or none): the same search, in its messages. */
void
akc_chat_view_find_source_changed (AkcChatView *self)
{
  if (self->find == NULL)
    return;

  stop_reveal (self);
  self->find->current = -1;
  if (self->find->search != NULL)
    refresh (self, FALSE);
  else
    g_hash_table_remove_all (self->find->cache);
}

void
akc_chat_view_find_dispose (AkcChatView *self)
{
  AkcChatViewFind *find = self->find;

  if (find == NULL)
    return;

  stop_reveal (self);
  g_clear_handle_id (&find->refresh_idle, g_source_remove);
  g_clear_pointer (&find->search, akc_text_search_unref);
  g_clear_pointer (&find->text, g_free);
  g_ptr_array_unref (find->matches);
  g_array_unref (find->ordinals);
  g_array_unref (find->indices);
  g_hash_table_unref (find->cache);
  g_clear_pointer (&self->find, g_free);
}

/* ------------------------------------------------------------------ */
/* Public API                                                          */
/* ------------------------------------------------------------------ */

/**
 * akc_chat_view_set_search_text:
 * @self: a #AkcChatView
 * @text: (nullable): what to find, as typed; %NULL or "" ends the find
 *
 * Finds @text in the transcript: every match in the messages of the
 * whole conversation is counted ([property@ChatView:n-matches]) and
 * highlighted, and one is the current match
 * ([property@ChatView:match-position]), brought into sight. At first the
 * current match is the newest; when the text changes, it is the first
 * match from the current one on, so typing on stays where the reader is.
 *
 * A message is searched in the text it shows: rendered Markdown (not
 * its syntax), plain text, diagnostics, semantic fallbacks, and the
 * texts native components show ([func@Akc.component_dup_visible_texts]:
 * choice labels, table cells, source titles, form labels…). Matching ignores case and Unicode
 * compatibility forms ([struct@Akc.TextSearch]). Matches follow the
 * conversation as it changes.
 *
 * [class@FindBar] is the widget a person uses for this.
 *
 * Since: 0.1
 */
void
akc_chat_view_set_search_text (AkcChatView *self,
                               const char  *text)
{
  AkcChatViewFind *find;

  g_return_if_fail (AKC_IS_CHAT_VIEW (self));

  if (text != NULL && *text == '\0')
    text = NULL;

  find = get_find (self);
  if (g_strcmp0 (find->text, text) == 0)
    return;

  g_free (find->text);
  find->text = g_strdup (text);
  g_clear_pointer (&find->search, akc_text_search_unref);
  if (text != NULL)
    {
      find->search = akc_text_search_new (text);
      if (akc_text_search_is_empty (find->search))
        g_clear_pointer (&find->search, akc_text_search_unref);
    }
  if (find->search == NULL)
    {
      stop_reveal (self);
      find->current = -1;
    }

  refresh (self, find->search != NULL);
  g_object_notify_by_pspec (G_OBJECT (self), akc_chat_view_props[PROP_SEARCH_TEXT]);
}

/**
 * akc_chat_view_get_search_text:
 * @self: a #AkcChatView
 *
 * Gets what is being found in the transcript.
 *
 * Returns: (nullable): the text, or %NULL when nothing is
 *
 * Since: 0.1
 */
const char *
akc_chat_view_get_search_text (AkcChatView *self)
{
  g_return_val_if_fail (AKC_IS_CHAT_VIEW (self), NULL);

  return self->find != NULL ? self->find->text : NULL;
}

/**
 * akc_chat_view_get_n_matches:
 * @self: a #AkcChatView
 *
 * Gets how many times [property@ChatView:search-text] is in the
 * conversation.
 *
 * Returns: the number of matches
 *
 * Since: 0.1
 */
guint
akc_chat_view_get_n_matches (AkcChatView *self)
{
  g_return_val_if_fail (AKC_IS_CHAT_VIEW (self), 0);

  return self->find != NULL ? self->find->matches->len : 0;
}

/**
 * akc_chat_view_get_match_position:
 * @self: a #AkcChatView
 *
 * Gets which match is the current one, counted from 1 at the top of the
 * conversation: the 3 of "3 of 12".
 *
 * Returns: the position of the current match, or 0 when there is none
 *
 * Since: 0.1
 */
guint
akc_chat_view_get_match_position (AkcChatView *self)
{
  g_return_val_if_fail (AKC_IS_CHAT_VIEW (self), 0);

  return self->find != NULL && self->find->current >= 0 ? (guint) self->find->current + 1 : 0;
}

static gboolean
move_match (AkcChatView *self,
            int          delta)
{
  AkcChatViewFind *find = self->find;
  int old_current;
  int n;

  if (find == NULL || find->matches->len == 0)
    return FALSE;

  n = (int) find->matches->len;
  old_current = find->current;
  find->current = old_current < 0 ? (delta > 0 ? 0 : n - 1) : (old_current + delta + n) % n;
  apply_to_rows (self);
  notify_matches (self, find->matches->len, old_current);
  reveal_current (self);

  return TRUE;
}

/**
 * akc_chat_view_find_next:
 * @self: a #AkcChatView
 *
 * Makes the match after the current one current and brings it into
 * sight; after the last match comes the first.
 *
 * Returns: %TRUE if there is a match
 *
 * Since: 0.1
 */
gboolean
akc_chat_view_find_next (AkcChatView *self)
{
  g_return_val_if_fail (AKC_IS_CHAT_VIEW (self), FALSE);

  return move_match (self, 1);
}

/**
 * akc_chat_view_find_previous:
 * @self: a #AkcChatView
 *
 * Makes the match before the current one current and brings it into
 * sight; before the first match comes the last.
 *
 * Returns: %TRUE if there is a match
 *
 * Since: 0.1
 */
gboolean
akc_chat_view_find_previous (AkcChatView *self)
{
  g_return_val_if_fail (AKC_IS_CHAT_VIEW (self), FALSE);

  return move_match (self, -1);
}

void
akc_chat_view_find_class_init (GObjectClass *object_class)
{
  /**
   * AkcChatView:search-text:
   *
   * What is found in the transcript, or %NULL; see
   * [method@ChatView.set_search_text].
   *
   * Since: 0.1
   */
  akc_chat_view_props[PROP_SEARCH_TEXT] =
    g_param_spec_string ("search-text", NULL, NULL,
                         NULL,
                         (G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));

  /**
   * AkcChatView:n-matches:
   *
   * How many times [property@ChatView:search-text] is in the
   * conversation.
   *
   * Since: 0.1
   */
  akc_chat_view_props[PROP_N_MATCHES] =
    g_param_spec_uint ("n-matches", NULL, NULL,
                       0, G_MAXUINT, 0,
                       (G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));

  /**
   * AkcChatView:match-position:
   *
   * The position of the current match, from 1; 0 when there is none.
   *
   * Since: 0.1
   */
  akc_chat_view_props[PROP_MATCH_POSITION] =
    g_param_spec_uint ("match-position", NULL, NULL,
                       0, G_MAXUINT, 0,
                       (G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));
}
