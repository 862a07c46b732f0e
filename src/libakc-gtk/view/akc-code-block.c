/* akc-code-block.c
 *
 * SPDX-License-Identifier: MIT
 */

#include "config.h"

#include <string.h>
#include <glib/gi18n-lib.h>
#include "akc-code-block-private.h"
#include "akc-gtk-source-private.h"
#include "akc-gtk-main.h"
#include "akc-markdown-private.h"
#include "akc-markdown-view-private.h"

/* AkcCodeBlock: a fenced or indented code block of assistant Markdown, in
 * monospace, with its language and a button that copies the code.
 *
 * The code is shown by a column of labels of at most CHUNK_LINES lines
 * each. A block still streaming in only ever changes its last label, so
 * the cost of an update does not grow with the code before it, and a long
 * finished block is cheap to lay out again (GTK measures one small label
 * at a time instead of one huge one).
 *
 * Highlighting. When GtkSourceView knows the block's language (by its id,
 * a usual alias such as `py`, `js` or `bash`, or a file extension), the
 * code is kept in a GtkSourceBuffer too, which highlights it with the
 * Adwaita style scheme, or Adwaita-dark when the block's text is light;
 * each label then carries the colours of its part as Pango attributes.
 * Only labels whose text changed are highlighted again, so a streaming
 * block costs what its last label does; highlighting never changes what
 * came before. A change of theme highlights the whole block again.
 *
 * While the block is written (akc_code_block_set_streaming()), its last
 * chunk is drawn without a label, as the text a Markdown view is writing
 * is (see akc-markdown-view.c): a wrapping label lays its text out four
 * to five times a change, that one only its last line. It becomes a
 * label when it is full or the block is done.
 *
 * CSS: `codeblock`, with `box.header` and `box.code` of `label`s.
 * Accessibility: a group named "Code" (or "Code, «language»"); the copy
 * button is named "Copy code". */

#define CHUNK_LINES 20
#define COPIED_FEEDBACK_MS 1500

struct _AkcCodeBlock
{
  GtkWidget  parent_instance;

  GtkLabel  *language_label;
  GtkButton *copy_button;
  GtkBox    *chunks;

  GString   *code;
  GArray    *starts;   /* gsize: where each label's text starts in code */
  GArray    *offsets;  /* int: the same, in characters */
  GPtrArray *labels;   /* GtkLabel, one per start; the last an AkcMarkdownLive while streaming */
  guint      copied_timeout;
  gboolean   streaming;

  GtkSourceBuffer *buffer;  /* the code, when its language is known */
  int              dark;    /* the scheme applied: -1 none yet */
  guint            scheme_serial;  /* counts the schemes applied (see tag_style()) */

  /* The colours of the last chunk's text up to the start of its last
   * line (in bytes from the chunk's start), kept while the code only
   * grows: an update highlights the line being written, not the chunk. */
  PangoAttrList   *kept_attrs;
  char            *kept_text;   /* the text they are the colours of */
  guint            kept_index;
  gsize            kept_end;
};

G_DEFINE_FINAL_TYPE (AkcCodeBlock, akc_code_block, GTK_TYPE_WIDGET)

/* The GtkSourceView language of a fence's info word, or %NULL. */
static GtkSourceLanguage *
find_language (const char *label)
{
  static const struct { const char *alias; const char *id; } aliases[] = {
    { "py", "python3" }, { "python", "python3" }, { "python3", "python3" },
    { "javascript", "js" }, { "node", "js" }, { "jsx", "js" }, { "mjs", "js" },
    { "ts", "typescript" }, { "tsx", "typescript-jsx" },
    { "bash", "sh" }, { "shell", "sh" }, { "zsh", "sh" }, { "console", "sh" }, { "shell-session", "sh" },
    { "c++", "cpp" }, { "cxx", "cpp" }, { "hpp", "cpp" }, { "h", "c" },
    { "rs", "rust" }, { "rb", "ruby" }, { "yml", "yaml" }, { "md", "markdown" },
    { "golang", "go" }, { "cs", "c-sharp" }, { "csharp", "c-sharp" }, { "kt", "kotlin" },
    { "patch", "diff" }, { "make", "makefile" }, { "dockerfile", "docker" },
    { "html", "html" }, { "xml", "xml" }, { "svg", "xml" }, { "jsonc", "json" },
  };
  const AkcGtkSource *source = akc_gtk_source_get ();
  GtkSourceLanguageManager *manager;
  GtkSourceLanguage *language;
  g_autofree char *id = NULL;
  g_autofree char *file = NULL;

  if (label == NULL || *label == '\0' || source == NULL)
    return NULL;

  manager = source->language_manager_get_default ();
  id = g_ascii_strdown (label, -1);
  for (guint i = 0; i < G_N_ELEMENTS (aliases); i++)
    if (strcmp (id, aliases[i].alias) == 0)
      {
        language = source->language_manager_get_language (manager, aliases[i].id);
        if (language != NULL)
          return language;
      }

  language = source->language_manager_get_language (manager, id);
  if (language != NULL)
    return language;

  /* `rs`, `kts`, `toml`…: as the extension of a file. */
  if (strpbrk (id, "/\\") != NULL)
    return NULL;
  file = g_strconcat ("code.", id, NULL);
  return source->language_manager_guess_language (manager, file, NULL);
}

static gboolean
text_is_light (GtkWidget *widget)
{
  GdkRGBA color;

#if GTK_CHECK_VERSION (4, 10, 0)
  gtk_widget_get_color (widget, &color);
#else
  gtk_style_context_get_color (gtk_widget_get_style_context (widget), &color);
#endif

  return 0.299 * color.red + 0.587 * color.green + 0.114 * color.blue > 0.5;
}

/* What a text tag of the highlighting sets, as read from its properties
 * once for each scheme applied: each tag is found on many segments of
 * every update, and g_object_get() of its six properties cost more than
 * the rest of turning tags into attributes. */
typedef struct {
  guint         serial;          /* the scheme they were read under */
  gboolean      foreground_set;
  guint16       red, green, blue;
  gboolean      weight_set;
  PangoWeight   weight;
  gboolean      style_set;
  PangoStyle    style;
} TagStyle;

static GQuark
tag_style_quark (void)
{
  static GQuark quark;

  if (G_UNLIKELY (quark == 0))
    quark = g_quark_from_static_string ("akc-code-block-tag-style");
  return quark;
}

static const TagStyle *
tag_style (AkcCodeBlock *self,
           GtkTextTag   *tag)
{
  TagStyle *style = g_object_get_qdata (G_OBJECT (tag), tag_style_quark ());
  g_autoptr(GdkRGBA) foreground = NULL;

  if (style != NULL && style->serial == self->scheme_serial)
    return style;

  if (style == NULL)
    {
      style = g_new0 (TagStyle, 1);
      g_object_set_qdata_full (G_OBJECT (tag), tag_style_quark (), style, g_free);
    }
  style->serial = self->scheme_serial;
  style->weight = PANGO_WEIGHT_NORMAL;
  style->style = PANGO_STYLE_NORMAL;
  g_object_get (tag,
                "foreground-set", &style->foreground_set, "foreground-rgba", &foreground,
                "weight-set", &style->weight_set, "weight", &style->weight,
                "style-set", &style->style_set, "style", &style->style,
                NULL);
  style->foreground_set = style->foreground_set && foreground != NULL;
  if (style->foreground_set)
    {
      style->red = (guint16) (foreground->red * 65535);
      style->green = (guint16) (foreground->green * 65535);
      style->blue = (guint16) (foreground->blue * 65535);
    }

  return style;
}

/* Adds to @attrs the attributes of the text tags over [start, end) of the
 * buffer, whose text is @text. Each line has attributes of its own (none
 * goes on over a line break), so the attributes of whole lines are the
 * same whether they were found with the lines after them or without. */
static void
attributes_for (AkcCodeBlock  *self,
                PangoAttrList *attrs,
                GtkTextIter   *start,
                GtkTextIter   *end,
                const char    *text,
                gsize          base)
{
  GtkTextIter iter = *start;
  gsize byte = 0;

  while (gtk_text_iter_compare (&iter, end) < 0)
    {
      GtkTextIter next = iter;
      GtkTextIter line_end = iter;
      g_autoptr(GSList) tags = NULL;
      gsize end_byte;

      if (!gtk_text_iter_forward_to_tag_toggle (&next, NULL) || gtk_text_iter_compare (&next, end) > 0)
        next = *end;
      if (gtk_text_iter_forward_line (&line_end) && gtk_text_iter_compare (&line_end, &next) < 0)
        next = line_end;
      end_byte = (gsize) (g_utf8_offset_to_pointer (text + byte,
                                                    gtk_text_iter_get_offset (&next) - gtk_text_iter_get_offset (&iter))
                          - text);

      tags = gtk_text_iter_get_tags (&iter);
      for (GSList *l = tags; l != NULL; l = l->next)
        {
          const TagStyle *style = tag_style (self, l->data);
          PangoAttribute *attr;

          if (style->foreground_set)
            {
              attr = pango_attr_foreground_new (style->red, style->green, style->blue);
              attr->start_index = (guint) (base + byte);
              attr->end_index = (guint) (base + end_byte);
              pango_attr_list_insert (attrs, attr);
            }
          if (style->weight_set)
            {
              attr = pango_attr_weight_new (style->weight);
              attr->start_index = (guint) (base + byte);
              attr->end_index = (guint) (base + end_byte);
              pango_attr_list_insert (attrs, attr);
            }
          if (style->style_set)
            {
              attr = pango_attr_style_new (style->style);
              attr->start_index = (guint) (base + byte);
              attr->end_index = (guint) (base + end_byte);
              pango_attr_list_insert (attrs, attr);
            }
        }

      byte = end_byte;
      iter = next;
    }
}

/* The text of a chunk, a label or the one being written. */
static const char *
chunk_text (GtkWidget *chunk)
{
  return GTK_IS_LABEL (chunk) ? gtk_label_get_text (GTK_LABEL (chunk)) : akc_markdown_live_get_text (chunk);
}

static GtkWidget *
new_chunk_label (void)
{
  GtkWidget *label = g_object_new (GTK_TYPE_LABEL,
                                   "xalign", 0.0f,
                                   "selectable", TRUE,
                                   "wrap", TRUE,
                                   "natural-wrap-mode", GTK_NATURAL_WRAP_NONE,
                                   "wrap-mode", PANGO_WRAP_WORD_CHAR,
                                   NULL);

  gtk_widget_add_css_class (label, "monospace");
  return label;
}

static GtkWidget *
new_chunk_live (void)
{
  GtkWidget *live = akc_markdown_live_new_plain ();

  gtk_widget_add_css_class (live, "monospace");
  return live;
}

static void           highlight_chunk  (AkcCodeBlock *self,
                                       guint         index);
static PangoAttrList *chunk_attributes (AkcCodeBlock *self,
                                       guint         index,
                                       const char   *text);

/* Chunk @index becomes a label (@live FALSE) or the text being written,
 * with the same text and colours. */
static void
set_chunk_live (AkcCodeBlock *self,
                guint         index,
                gboolean      live)
{
  GtkWidget *old = g_ptr_array_index (self->labels, index);
  g_autofree char *text = NULL;
  GtkWidget *chunk;

  if (akc_markdown_is_live (old) == live)
    return;

  text = g_strdup (chunk_text (old));
  chunk = live ? new_chunk_live () : new_chunk_label ();
  gtk_box_insert_child_after (self->chunks, chunk, old);
  gtk_box_remove (self->chunks, old);
  self->labels->pdata[index] = chunk;

  if (live)
    {
      g_autoptr(PangoAttrList) attrs = chunk_attributes (self, index, text);

      akc_markdown_live_set_plain (chunk, text, strlen (text), attrs);
    }
  else
    {
      akc_markdown_label_limit_min_width (GTK_LABEL (chunk), text, TRUE);
      gtk_label_set_text (GTK_LABEL (chunk), text);
      highlight_chunk (self, index);
    }
}

static void
forget_kept_attrs (AkcCodeBlock *self)
{
  g_clear_pointer (&self->kept_attrs, pango_attr_list_unref);
  g_clear_pointer (&self->kept_text, g_free);
  self->kept_end = 0;
}

static gboolean
attr_ends_before (PangoAttribute *attribute,
                  gpointer        user_data)
{
  return attribute->end_index <= GPOINTER_TO_UINT (user_data);
}

/* The colours of @text, the text of chunk @index, or %NULL.
 *
 * For the last chunk, the colours of its lines but the last are kept:
 * highlighting that grows at the end does not change the lines before
 * (GtkSourceView's contexts go forward, and it does not analyse a line
 * again once the next one has begun: the colour of the line break before
 * a string that goes on is left as it was, and it draws nothing), so the
 * next call, when the text continues the same chunk, highlights only the
 * line being written. */
static PangoAttrList *
chunk_attributes (AkcCodeBlock *self,
                  guint         index,
                  const char   *text)
{
  int offset = g_array_index (self->offsets, int, index);
  PangoAttrList *attrs;
  GtkTextIter start, end;
  gsize from = 0;
  const char *last_break;

  if (self->buffer == NULL || self->dark < 0)
    return NULL;

  if (self->kept_attrs != NULL && self->kept_index == index &&
      strncmp (text, self->kept_text, self->kept_end) == 0)
    {
      attrs = pango_attr_list_copy (self->kept_attrs);
      from = self->kept_end;
    }
  else
    attrs = pango_attr_list_new ();

  gtk_text_buffer_get_iter_at_offset (GTK_TEXT_BUFFER (self->buffer), &start,
                                      offset + (int) g_utf8_strlen (text, (gssize) from));
  gtk_text_buffer_get_iter_at_offset (GTK_TEXT_BUFFER (self->buffer), &end,
                                      gtk_text_iter_get_offset (&start) + (int) g_utf8_strlen (text + from, -1));
  akc_gtk_source_get ()->buffer_ensure_highlight (self->buffer, &start, &end);
  attributes_for (self, attrs, &start, &end, text + from, from);

  if (index + 1 != self->labels->len)
    return attrs;

  /* What the next call keeps: the lines before the one being written. */
  last_break = strrchr (text, '\n');
  forget_kept_attrs (self);
  if (last_break != NULL)
    {
      g_autoptr(PangoAttrList) rest = pango_attr_list_copy (attrs);

      self->kept_end = (gsize) (last_break + 1 - text);
      self->kept_index = index;
      self->kept_text = g_strndup (text, self->kept_end);
      /* Taken out of rest: the attributes of the lines kept. */
      self->kept_attrs = pango_attr_list_filter (rest, attr_ends_before, GUINT_TO_POINTER ((guint) self->kept_end));
      if (self->kept_attrs == NULL)
        self->kept_attrs = pango_attr_list_new ();
    }

  return attrs;
}

/* Gives label @index the colours of its code. */
static void
highlight_chunk (AkcCodeBlock *self,
                 guint         index)
{
  GtkWidget *chunk = g_ptr_array_index (self->labels, index);
  const char *text = chunk_text (chunk);
  g_autoptr(PangoAttrList) attrs = chunk_attributes (self, index, text);

  if (attrs == NULL)
    return;

  if (GTK_IS_LABEL (chunk))
    gtk_label_set_attributes (GTK_LABEL (chunk), attrs);
  else
    akc_markdown_live_set_plain (chunk, text, strlen (text), attrs);
}

/* The scheme that reads on the block's background; everything is
 * highlighted again when it changes. */
static void
update_scheme (AkcCodeBlock *self)
{
  const AkcGtkSource *source = akc_gtk_source_get ();
  GtkSourceStyleSchemeManager *schemes;
  GtkSourceStyleScheme *scheme;
  int dark;

  if (self->buffer == NULL || gtk_widget_get_root (GTK_WIDGET (self)) == NULL)
    return;

  dark = text_is_light (GTK_WIDGET (self)) ? 1 : 0;
  if (dark == self->dark)
    return;

  schemes = source->style_scheme_manager_get_default ();
  scheme = source->style_scheme_manager_get_scheme (schemes, dark ? "Adwaita-dark" : "Adwaita");
  if (scheme == NULL)
    scheme = source->style_scheme_manager_get_scheme (schemes, dark ? "classic-dark" : "classic");
  source->buffer_set_style_scheme (self->buffer, scheme);
  self->dark = dark;
  /* The tags have the new scheme's colours. */
  self->scheme_serial++;
  forget_kept_attrs (self);

  for (guint i = 0; i < self->labels->len; i++)
    highlight_chunk (self, i);
}

static void
add_chunk (AkcCodeBlock *self,
           gsize         start)
{
  GtkWidget *label;
  int offset = 0;

  if (self->labels->len > 0)
    {
      guint last = self->labels->len - 1;

      /* The label before is full: its characters are counted once. */
      offset = g_array_index (self->offsets, int, last) +
               (int) g_utf8_strlen (self->code->str + g_array_index (self->starts, gsize, last),
                                    (gssize) (start - g_array_index (self->starts, gsize, last)));
    }

  /* The chunk before is full: a label from now on. */
  if (self->labels->len > 0)
    set_chunk_live (self, self->labels->len - 1, FALSE);

  label = self->streaming ? new_chunk_live () : new_chunk_label ();
  gtk_box_append (self->chunks, label);
  g_array_append_val (self->starts, start);
  g_array_append_val (self->offsets, offset);
  g_ptr_array_add (self->labels, label);
}

static void
set_chunk_text (AkcCodeBlock *self,
                guint         index,
                const char   *text,
                gsize         length)
{
  GtkWidget *widget = g_ptr_array_index (self->labels, index);
  g_autofree char *chunk = g_strndup (text, length);

  if (g_strcmp0 (chunk_text (widget), chunk) == 0)
    return;

  if (GTK_IS_LABEL (widget))
    {
      akc_markdown_label_limit_min_width (GTK_LABEL (widget), chunk, TRUE);
      gtk_label_set_text (GTK_LABEL (widget), chunk);
    }
  else
    {
      g_autoptr(PangoAttrList) attrs = chunk_attributes (self, index, chunk);

      /* Text and colours at once: its lines laid out stay. */
      akc_markdown_live_set_plain (widget, chunk, length, attrs);
      return;
    }
  highlight_chunk (self, index);
}

/* Fills labels from the last one on: every full chunk is cut after its
 * CHUNK_LINES-th line and the rest goes on in a new label. */
static void
fill_from_last_chunk (AkcCodeBlock *self)
{
  for (;;)
    {
      guint last = self->labels->len - 1;
      gsize start = g_array_index (self->starts, gsize, last);
      const char *text = self->code->str + start;
      gsize length = self->code->len - start;
      const char *cut = NULL;
      guint lines = 0;

      for (const char *p = text; p < text + length; p++)
        if (*p == '\n' && ++lines == CHUNK_LINES)
          {
            cut = p;
            break;
          }

      /* A full chunk ends where its last line does, without the newline
       * that separates it from the next one. */
      if (cut == NULL || (gsize) (cut - text) + 1 >= length)
        {
          set_chunk_text (self, last, text, length);
          return;
        }

      set_chunk_text (self, last, text, (gsize) (cut - text));
      add_chunk (self, start + (gsize) (cut - text) + 1);
    }
}

static void
remove_chunks (AkcCodeBlock *self)
{
  for (guint i = 0; i < self->labels->len; i++)
    gtk_box_remove (self->chunks, g_ptr_array_index (self->labels, i));
  g_ptr_array_set_size (self->labels, 0);
  g_array_set_size (self->starts, 0);
  g_array_set_size (self->offsets, 0);
}

static gboolean
reset_copy_button (gpointer user_data)
{
  AkcCodeBlock *self = user_data;

  self->copied_timeout = 0;
  gtk_button_set_icon_name (self->copy_button, "edit-copy-symbolic");
  gtk_widget_set_tooltip_text (GTK_WIDGET (self->copy_button), _("Copy Code"));

  return G_SOURCE_REMOVE;
}

static void
copy_action (GtkWidget  *widget,
             const char *action_name,
             GVariant   *parameter)
{
  akc_code_block_copy (AKC_CODE_BLOCK (widget));
}

static void
akc_code_block_dispose (GObject *object)
{
  AkcCodeBlock *self = AKC_CODE_BLOCK (object);
  GtkWidget *child;

  g_clear_handle_id (&self->copied_timeout, g_source_remove);
  g_clear_object (&self->buffer);
  gtk_widget_dispose_template (GTK_WIDGET (self), AKC_TYPE_CODE_BLOCK);
  while ((child = gtk_widget_get_first_child (GTK_WIDGET (self))) != NULL)
    gtk_widget_unparent (child);

  G_OBJECT_CLASS (akc_code_block_parent_class)->dispose (object);
}

static void
akc_code_block_finalize (GObject *object)
{
  AkcCodeBlock *self = AKC_CODE_BLOCK (object);

  forget_kept_attrs (self);
  g_string_free (self->code, TRUE);
  g_array_unref (self->starts);
  g_array_unref (self->offsets);
  g_ptr_array_unref (self->labels);

  G_OBJECT_CLASS (akc_code_block_parent_class)->finalize (object);
}

static void
akc_code_block_css_changed (GtkWidget         *widget,
                            GtkCssStyleChange *change)
{
  GTK_WIDGET_CLASS (akc_code_block_parent_class)->css_changed (widget, change);

  /* Light or dark, a theme of the chat view: the colours follow. */
  update_scheme (AKC_CODE_BLOCK (widget));
}

static void
akc_code_block_root (GtkWidget *widget)
{
  GTK_WIDGET_CLASS (akc_code_block_parent_class)->root (widget);

  update_scheme (AKC_CODE_BLOCK (widget));
}

static void
akc_code_block_class_init (AkcCodeBlockClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  /* GtkSourceView is loaded with the first code block. */
  akc_gtk_source_get ();

  object_class->dispose = akc_code_block_dispose;
  object_class->finalize = akc_code_block_finalize;
  widget_class->css_changed = akc_code_block_css_changed;
  widget_class->root = akc_code_block_root;

  gtk_widget_class_set_template_from_resource (widget_class, "/io/agentskit/AkcGtk/akc-code-block.ui");
  gtk_widget_class_bind_template_child (widget_class, AkcCodeBlock, language_label);
  gtk_widget_class_bind_template_child (widget_class, AkcCodeBlock, copy_button);
  gtk_widget_class_bind_template_child (widget_class, AkcCodeBlock, chunks);

  gtk_widget_class_install_action (widget_class, "code.copy", NULL, copy_action);

  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
  gtk_widget_class_set_css_name (widget_class, "codeblock");
  gtk_widget_class_set_accessible_role (widget_class, GTK_ACCESSIBLE_ROLE_GROUP);
}

static void
akc_code_block_init (AkcCodeBlock *self)
{
  akc_gtk_init ();
  gtk_widget_init_template (GTK_WIDGET (self));

  self->code = g_string_new (NULL);
  self->starts = g_array_new (FALSE, FALSE, sizeof (gsize));
  self->offsets = g_array_new (FALSE, FALSE, sizeof (int));
  self->dark = -1;
  /* The labels belong to the box; the array only points at them. */
  self->labels = g_ptr_array_new ();
}

GtkWidget *
akc_code_block_new (const char *language)
{
  AkcCodeBlock *self = g_object_new (AKC_TYPE_CODE_BLOCK, NULL);
  GtkSourceLanguage *source_language = find_language (language);
  g_autofree char *name = NULL;

  if (source_language != NULL)
    {
      const AkcGtkSource *source = akc_gtk_source_get ();

      self->buffer = source->buffer_new_with_language (source_language);
      source->buffer_set_highlight_matching_brackets (self->buffer, FALSE);
      source->buffer_set_highlight_syntax (self->buffer, TRUE);
    }

  gtk_label_set_text (self->language_label, language != NULL ? language : "");
  if (language != NULL)
    /* Translators: the accessible name of a code block; %s is its
     * programming language, as the model wrote it (e.g. "python"). */
    name = g_strdup_printf (_("Code, %s"), language);
  gtk_accessible_update_property (GTK_ACCESSIBLE (self),
                                  GTK_ACCESSIBLE_PROPERTY_LABEL, name != NULL ? name : _("Code"),
                                  -1);

  return GTK_WIDGET (self);
}

const char *
akc_code_block_get_code (AkcCodeBlock *self)
{
  g_return_val_if_fail (AKC_IS_CODE_BLOCK (self), NULL);

  return self->code->str;
}

/* Shows @code. When it continues the code shown, only the last label (and
 * the ones a full chunk adds) change. */
void
akc_code_block_set_code (AkcCodeBlock *self,
                         const char   *code)
{
  gsize length;
  gboolean continues;

  g_return_if_fail (AKC_IS_CODE_BLOCK (self));

  if (code == NULL)
    code = "";
  length = strlen (code);

  if (length == self->code->len && memcmp (code, self->code->str, length) == 0 && self->labels->len > 0)
    return;

  continues = self->labels->len > 0 &&
              length >= self->code->len &&
              memcmp (code, self->code->str, self->code->len) == 0;

  if (self->buffer != NULL)
    {
      GtkTextBuffer *buffer = GTK_TEXT_BUFFER (self->buffer);

      if (continues)
        {
          GtkTextIter end;

          gtk_text_buffer_get_end_iter (buffer, &end);
          gtk_text_buffer_insert (buffer, &end, code + self->code->len, (int) (length - self->code->len));
        }
      else
        {
          gtk_text_buffer_set_text (buffer, code, (int) length);
        }
    }

  g_string_assign (self->code, code);
  if (!continues)
    {
      forget_kept_attrs (self);
      remove_chunks (self);
      add_chunk (self, 0);
    }

  fill_from_last_chunk (self);
}

guint
akc_code_block_get_n_chunks (AkcCodeBlock *self)
{
  g_return_val_if_fail (AKC_IS_CODE_BLOCK (self), 0);

  return self->labels->len;
}

void
akc_code_block_copy (AkcCodeBlock *self)
{
  g_return_if_fail (AKC_IS_CODE_BLOCK (self));

  gdk_clipboard_set_text (gtk_widget_get_clipboard (GTK_WIDGET (self)), self->code->str);

  /* Say it worked where the person looked. */
  gtk_button_set_icon_name (self->copy_button, "object-select-symbolic");
  gtk_widget_set_tooltip_text (GTK_WIDGET (self->copy_button), _("Copied"));
  g_clear_handle_id (&self->copied_timeout, g_source_remove);
  self->copied_timeout = g_timeout_add (COPIED_FEEDBACK_MS, reset_copy_button, self);
}

/* The language the code is highlighted as, or %NULL when it is not. */
const char *
akc_code_block_get_language_id (AkcCodeBlock *self)
{
  GtkSourceLanguage *language;

  g_return_val_if_fail (AKC_IS_CODE_BLOCK (self), NULL);

  if (self->buffer == NULL)
    return NULL;
  language = akc_gtk_source_get ()->buffer_get_language (self->buffer);
  return language != NULL ? akc_gtk_source_get ()->language_get_id (language) : NULL;
}

/* The label of chunk @index. */
GtkWidget *
akc_code_block_get_chunk (AkcCodeBlock *self,
                          guint         index)
{
  g_return_val_if_fail (AKC_IS_CODE_BLOCK (self), NULL);
  g_return_val_if_fail (index < self->labels->len, NULL);

  return g_ptr_array_index (self->labels, index);
}

/* Whether the code is being written: its last chunk is then drawn
 * without a label, and becomes one when it is not any more. */
void
akc_code_block_set_streaming (AkcCodeBlock *self,
                              gboolean      streaming)
{
  g_return_if_fail (AKC_IS_CODE_BLOCK (self));

  streaming = !!streaming;
  if (self->streaming == streaming)
    return;

  self->streaming = streaming;
  if (self->labels->len > 0)
    set_chunk_live (self, self->labels->len - 1, streaming);
}
