/* akc-code-block.c
 *
 * SPDX-License-Identifier: MIT
 */

#include "config.h"

#include <string.h>
#include <glib/gi18n-lib.h>

#include "akc-code-block-private.h"
#include "akc-gtk-main.h"

/* AkcCodeBlock: a fenced or indented code block of assistant Markdown, in
 * monospace, with its language and a button that copies the code.
 *
 * The code is shown by a column of labels of at most CHUNK_LINES lines
 * each. A block still streaming in only ever changes its last label, so
 * the cost of an update does not grow with the code before it, and a long
 * finished block is cheap to lay out again (GTK measures one small label
 * at a time instead of one huge one).
 *
 * CSS: `codeblock`, with `box.header` and `box.code` of `label`s.
 * Accessibility: a group named "Code" (or "Code, «language»"); the copy
 * button is named "Copy code". */

#define CHUNK_LINES 40
#define COPIED_FEEDBACK_MS 1500

struct _AkcCodeBlock
{
  GtkWidget  parent_instance;

  GtkLabel  *language_label;
  GtkButton *copy_button;
  GtkBox    *chunks;

  GString   *code;
  GArray    *starts;   /* gsize: where each label's text starts in code */
  GPtrArray *labels;   /* GtkLabel, one per start */
  guint      copied_timeout;
};

G_DEFINE_FINAL_TYPE (AkcCodeBlock, akc_code_block, GTK_TYPE_WIDGET)

static GtkLabel *
add_chunk (AkcCodeBlock *self,
           gsize         start)
{
  GtkWidget *label = g_object_new (GTK_TYPE_LABEL,
                                   "xalign", 0.0f,
                                   "selectable", TRUE,
                                   "wrap", TRUE,
                                   "natural-wrap-mode", GTK_NATURAL_WRAP_NONE,
                                   "wrap-mode", PANGO_WRAP_WORD_CHAR,
                                   NULL);

  gtk_widget_add_css_class (label, "monospace");
  gtk_box_append (self->chunks, label);
  g_array_append_val (self->starts, start);
  g_ptr_array_add (self->labels, label);

  return GTK_LABEL (label);
}

static void
set_chunk_text (GtkLabel   *label,
                const char *text,
                gsize       length)
{
  g_autofree char *chunk = g_strndup (text, length);

  if (g_strcmp0 (gtk_label_get_text (label), chunk) != 0)
    gtk_label_set_text (label, chunk);
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
          set_chunk_text (g_ptr_array_index (self->labels, last), text, length);
          return;
        }

      set_chunk_text (g_ptr_array_index (self->labels, last), text, (gsize) (cut - text));
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
  gtk_widget_dispose_template (GTK_WIDGET (self), AKC_TYPE_CODE_BLOCK);
  while ((child = gtk_widget_get_first_child (GTK_WIDGET (self))) != NULL)
    gtk_widget_unparent (child);

  G_OBJECT_CLASS (akc_code_block_parent_class)->dispose (object);
}

static void
akc_code_block_finalize (GObject *object)
{
  AkcCodeBlock *self = AKC_CODE_BLOCK (object);

  g_string_free (self->code, TRUE);
  g_array_unref (self->starts);
  g_ptr_array_unref (self->labels);

  G_OBJECT_CLASS (akc_code_block_parent_class)->finalize (object);
}

static void
akc_code_block_class_init (AkcCodeBlockClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = akc_code_block_dispose;
  object_class->finalize = akc_code_block_finalize;

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
  /* The labels belong to the box; the array only points at them. */
  self->labels = g_ptr_array_new ();
}

GtkWidget *
akc_code_block_new (const char *language)
{
  AkcCodeBlock *self = g_object_new (AKC_TYPE_CODE_BLOCK, NULL);
  g_autofree char *name = NULL;

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

  g_string_assign (self->code, code);
  if (!continues)
    {
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
