/* akc-message-row.c
 *
 * SPDX-License-Identifier: MIT
 */

#include "config.h"

#include <string.h>
#include <glib/gi18n-lib.h>

#include "akc-chat-view.h"
#include "akc-gtk-main.h"
#include "akc-markdown-private.h"
#include "akc-markdown-view-private.h"
#include "akc-message-row-private.h"
#include "akc-snapshot-clip-private.h"

/**
 * AkcMessageRow:
 *
 * Presents one [class@Akc.Message] of a transcript.
 *
 * What is shown follows [application §12.2](../Akc-1/wire-formats.html#application-12), through
 * [func@Akc.present_message]: user, system and tool messages are always one
 * bubble of text, even when they look like a frame (a security property).
 * A user's bubble is their text rendered as Markdown, like an assistant's
 * text, and with the same safe links; system and tool bubbles are plain
 * text. An assistant message is shown as its
 * presentations, in order: a bubble of natively rendered Markdown for each
 * run of text, an [class@ComponentView] for each component frame (resolved
 * against [property@MessageRow:manifest]; the semantic fallback text when
 * there is no manifest), and an alert with only the diagnostic message for
 * content that does not decode. Model text never reaches Pango as markup.
 *
 * The row follows its message. While a reply streams in, the row is
 * updated at most once per frame however many chunks arrive, and only the
 * part of the text still being written is laid out again; when the
 * message stops streaming (done, error, stop) the last text is shown at
 * once and the reply is frozen into its final widgets.
 *
 * Rows are built by [ctor@MessageRow.factory_new] for a
 * [class@Gtk.ListView]; [class@ChatView] makes its own.
 *
 * ## CSS nodes
 *
 * `AkcMessageRow` has a main CSS node named `messagerow` with the style
 * classes `.user`, `.assistant`, `.system`, `.tool` after its role, and
 * `.pending`, `.streaming`, `.complete`, `.failed` and `.stopped` after its
 * status. Text runs are `label.bubble` or `markdownview.bubble` nodes;
 * diagnostics are `label.diagnostic`.
 *
 * ## Context menu
 *
 * A right click, a long press, the Menu key or Shift+F10 on the row, or
 * its Message Actions button (next to the author's name, shown while the
 * pointer is over the row or the keyboard on it) opens its context menu: Copy Message (its Markdown), Copy as Plain Text,
 * Edit and Send Again (the person's messages) and Delete Message (only
 * when the conversation is an [class@Akc.Chat]: a host's or a turn
 * server's messages are theirs to delete, and the item is not offered
 * rather than shown disabled for good). They are
 * the `chat.copy-message`, `chat.copy-message-text`, `chat.edit-message`
 * and `chat.delete-message` actions of the [class@ChatView] around the
 * row (see [signal@ChatView::message-deleted]), with the message's id.
 *
 * ## Accessibility
 *
 * The row is a group named after its author ("You", "Assistant",
 * "System" or "Tool"), busy while its reply is pending or streaming; it
 * says it has a pop-up (its context menu).
 *
 * The images and text files sent with a message show under it as chips:
 * a thumbnail or a document icon, and the file's name.
 *
 * A reply whose adapter reported its token usage ([property@Akc.Message:usage])
 * says it in the tooltip of its author's name and in the row's accessible
 * description, not in the transcript.
 *
 * Since: 0.1
 */

struct _AkcMessageRow
{
  GtkWidget             parent_instance;

  GtkWidget            *column;
  GtkLabel             *author;
  GtkWidget            *menu_button;
  GtkBox               *parts_box;
  GtkWidget            *attachments;  /* the message's attachments, as chips */
  GtkLabel             *note;
  GtkWidget            *extra;   /* what the view shows under the text (settled calls), or NULL */
  char                 *error;   /* the error of the turn that ended here, or NULL */

  AkcMessage           *message;
  AkcComponentManifest *manifest;
  AkcInputOwnership    *ownership;
  GPtrArray            *parts;      /* Part */
  GString              *shown;      /* the content at the last update */

  gulong                content_handler;
  gulong                status_handler;
  gulong                stopped_handler;
  gulong                usage_handler;
  gulong                ownership_handler;
  guint                 tick_id;
  int                   active_position;
  guint                 n_updates;
  /* The find of the transcript (akc-chat-view-find.c): what is looked
   * for, which match of the message is the current one (-1: none), and
   * the label it is in. */
  AkcTextSearch        *search;
  int                   search_current;
  GtkWidget            *search_widget;
  GtkWidget            *menu;         /* the context menu, while it is built */
  AkcClipCache         *clip_cache;   /* the column's drawing, its parts clipped */
  guint                 dirty : 1;
  guint                 tick_pending : 1;  /* content changed since the tick's last update */
  guint                 has_components : 1;
};

typedef struct {
  AkcMessagePartKind  kind;
  GtkWidget          *widget;    /* the child of parts_box */
  GtkWidget          *content;   /* label, markdown view, component view */
  AkcJsonValue       *frame;     /* component parts */
} Part;

G_DEFINE_FINAL_TYPE (AkcMessageRow, akc_message_row, GTK_TYPE_WIDGET)

enum {
  PROP_0,
  PROP_MESSAGE,
  PROP_MANIFEST,
  N_PROPS
};

static GParamSpec *props[N_PROPS];

enum {
  COMPONENT_INTERACTION,
  COMPONENT_SELECTION,
  COMPONENT_LINK_ACTIVATED,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

static const char * const role_classes[] = { "system", "user", "assistant", "tool" };
static const char * const status_classes[] = { "pending", "streaming", "complete", "failed" };

static void
part_free (Part *part)
{
  g_clear_pointer (&part->frame, akc_json_value_unref);
  g_free (part);
}

/* The author of a message as the transcript names it. */
const char *
akc_message_role_name (AkcMessageRole role)
{
  switch (role)
    {
    case AKC_MESSAGE_ROLE_SYSTEM:
      return _("System");
    case AKC_MESSAGE_ROLE_USER:
      return _("You");
    case AKC_MESSAGE_ROLE_TOOL:
      return _("Tool");
    case AKC_MESSAGE_ROLE_ASSISTANT:
    default:
      return _("Assistant");
    }
}

static gboolean
is_streaming (AkcMessage *message)
{
  AkcMessageStatus status = akc_message_get_status (message);

  return status == AKC_MESSAGE_STATUS_PENDING || status == AKC_MESSAGE_STATUS_STREAMING;
}

/* Component views: resolution is kept by instance id in the ownership set
 * of the view (§12.7), so copies of one instance resolve together and a
 * recycled row comes back resolved. */

static void
on_view_resolved (AkcComponentView *view,
                  GParamSpec       *pspec,
                  AkcMessageRow    *self)
{
  const char *instance_id = akc_component_view_get_instance_id (view);

  if (self->ownership == NULL || instance_id == NULL)
    return;

  if (akc_component_view_get_resolved (view))
    akc_input_ownership_mark_resolved (self->ownership, instance_id);
  else
    akc_input_ownership_unmark_resolved (self->ownership, instance_id);
}

static void
on_view_interaction (AkcComponentView *view,
                     AkcJsonValue     *event,
                     AkcMessageRow    *self)
{
  g_signal_emit (self, signals[COMPONENT_INTERACTION], 0, view, event);
}

static void
on_view_selection (AkcComponentView *view,
                   AkcJsonValue     *event,
                   AkcMessageRow    *self)
{
  g_signal_emit (self, signals[COMPONENT_SELECTION], 0, view, event);
}

static void
on_view_link_activated (AkcComponentView *view,
                        AkcJsonValue     *value,
                        AkcMessageRow    *self)
{
  g_signal_emit (self, signals[COMPONENT_LINK_ACTIVATED], 0, view, value);
}

static void
apply_component_state (AkcMessageRow *self,
                       guint          position)
{
  Part *part = g_ptr_array_index (self->parts, position);
  AkcComponentView *view;
  const char *instance_id;

  if (part->kind != AKC_MESSAGE_PART_COMPONENT || !AKC_IS_COMPONENT_VIEW (part->content))
    return;

  view = AKC_COMPONENT_VIEW (part->content);
  instance_id = akc_component_view_get_instance_id (view);

  /* Inert first, so a view that is resolved never holds the focus. */
  akc_component_view_set_active (view, self->active_position == (int) position);
  if (self->ownership != NULL && instance_id != NULL)
    {
      akc_component_view_set_resolution (view, akc_input_ownership_get_resolution (self->ownership, instance_id));
      akc_component_view_set_resolved (view, akc_input_ownership_is_resolved (self->ownership, instance_id));
    }
}

static void
apply_component_states (AkcMessageRow *self)
{
  for (guint i = 0; i < self->parts->len; i++)
    apply_component_state (self, i);
}

/* A text run is drawn as a bubble: the label or Markdown view itself,
 * styled `.bubble` (no box around it: one widget less per message). */
static GtkWidget *
make_bubble (AkcMessageRow *self,
             GtkWidget     *content)
{
  AkcMessageRole role = akc_message_get_role (self->message);

  gtk_widget_add_css_class (content, "bubble");
  gtk_widget_set_halign (content, role == AKC_MESSAGE_ROLE_USER ? GTK_ALIGN_END
                                  : role == AKC_MESSAGE_ROLE_ASSISTANT ? GTK_ALIGN_FILL
                                  : GTK_ALIGN_START);

  return content;
}

static GtkWidget *
new_text_label (void)
{
  return g_object_new (GTK_TYPE_LABEL,
                       "xalign", 0.0f,
                       "wrap", TRUE,
                       "natural-wrap-mode", GTK_NATURAL_WRAP_NONE,
                       "wrap-mode", PANGO_WRAP_WORD_CHAR,
                       "selectable", TRUE,
                       NULL);
}

static void
set_plain_text (GtkLabel   *label,
                const char *text,
                gsize       length)
{
  g_autofree char *shown = akc_display_text (text, (gssize) length);

  /* Plain text only: never markup, whatever it looks like. */
  if (g_strcmp0 (gtk_label_get_text (label), shown) != 0)
    gtk_label_set_text (label, shown);
}

static Part *
new_part (AkcMessageRow      *self,
          AkcMessagePartKind  kind,
          AkcPresentation    *presentation,
          gboolean            streaming)
{
  Part *part = g_new0 (Part, 1);
  gsize length;
  const char *text = akc_presentation_get_text (presentation, &length);
  AkcDiagnostic *diagnostic;

  part->kind = kind;

  switch (kind)
    {
    case AKC_MESSAGE_PART_PLAIN:
      part->content = new_text_label ();
      set_plain_text (GTK_LABEL (part->content), text, length);
      part->widget = make_bubble (self, part->content);
      break;

    case AKC_MESSAGE_PART_MARKDOWN:
      part->content = akc_markdown_view_new ();
      akc_markdown_view_set_text (AKC_MARKDOWN_VIEW (part->content), text, length, streaming);
      part->widget = make_bubble (self, part->content);
      break;

    case AKC_MESSAGE_PART_DIAGNOSTIC:
      /* §12.2, §12.5: only the diagnostic message; the code is a tooltip. */
      diagnostic = akc_presentation_get_diagnostic (presentation);
      part->content = g_object_new (GTK_TYPE_LABEL,
                                    "accessible-role", GTK_ACCESSIBLE_ROLE_ALERT,
                                    "xalign", 0.0f,
                                    "wrap", TRUE,
                                    "natural-wrap-mode", GTK_NATURAL_WRAP_NONE,
                                    "wrap-mode", PANGO_WRAP_WORD_CHAR,
                                    "tooltip-text", diagnostic != NULL ? akc_diagnostic_get_code (diagnostic) : NULL,
                                    NULL);
      gtk_widget_add_css_class (part->content, "diagnostic");
      set_plain_text (GTK_LABEL (part->content), text, length);
      part->widget = part->content;
      break;

    case AKC_MESSAGE_PART_COMPONENT:
    default:
      part->frame = akc_json_value_ref (akc_presentation_get_frame (presentation));
      if (self->manifest != NULL)
        {
          part->content = akc_component_view_new (part->frame, self->manifest);
          /* Inert to keys until the view says it owns input (§12.4). */
          akc_component_view_set_active (AKC_COMPONENT_VIEW (part->content), FALSE);
          g_signal_connect_object (part->content, "notify::resolved",
                                   G_CALLBACK (on_view_resolved), self, 0);
          g_signal_connect_object (part->content, "interaction",
                                   G_CALLBACK (on_view_interaction), self, 0);
          g_signal_connect_object (part->content, "selection",
                                   G_CALLBACK (on_view_selection), self, 0);
          g_signal_connect_object (part->content, "link-activated",
                                   G_CALLBACK (on_view_link_activated), self, 0);
        }
      else
        {
          /* No manifest configured: the semantic fallback, which never
           * emits events (§12.2, §12.5). */
          part->content = new_text_label ();
          gtk_widget_add_css_class (part->content, "fallback");
          gtk_widget_add_css_class (part->content, "dim-label");
          set_plain_text (GTK_LABEL (part->content), text, length);
        }
      part->widget = part->content;
      break;
    }

  return part;
}

static gboolean
part_matches (Part               *part,
              AkcMessagePartKind  kind,
              AkcPresentation    *presentation)
{
  if (part->kind != kind)
    return FALSE;

  if (kind == AKC_MESSAGE_PART_COMPONENT)
    return akc_json_value_equal (part->frame, akc_presentation_get_frame (presentation));

  return TRUE;
}

static void
update_part_text (Part       *part,
                  const char *text,
                  gsize       length,
                  gboolean    streaming)
{
  switch (part->kind)
    {
    case AKC_MESSAGE_PART_PLAIN:
    case AKC_MESSAGE_PART_DIAGNOSTIC:
      set_plain_text (GTK_LABEL (part->content), text, length);
      break;
    case AKC_MESSAGE_PART_MARKDOWN:
      akc_markdown_view_set_text (AKC_MARKDOWN_VIEW (part->content), text, length, streaming);
      break;
    case AKC_MESSAGE_PART_COMPONENT:
    default:
      break;
    }

  /* An empty text run (a reply with nothing yet) draws no bubble. */
  if (part->kind == AKC_MESSAGE_PART_PLAIN || part->kind == AKC_MESSAGE_PART_MARKDOWN)
    gtk_widget_set_visible (part->widget, length > 0);
}

static void
update_part (Part            *part,
             AkcPresentation *presentation,
             gboolean         streaming)
{
  gsize length;
  const char *text = akc_presentation_get_text (presentation, &length);

  update_part_text (part, text, length, streaming);
}

/* Whether @content (@length bytes), and any content that begins with it,
 * is presented as one Markdown text (§12.2): the person's messages always
 * are; an assistant's are unless they are ordered content (the record
 * separator first, rule 2) or a whole JSON document that may be a
 * component frame (rule 3), which only content that begins with "{"
 * after white space can become. */
static gboolean
stays_text (AkcMessage *message,
            const char *content,
            gsize       length)
{
  gsize i = 0;

  if (akc_message_get_role (message) == AKC_MESSAGE_ROLE_USER)
    return TRUE;
  if (akc_message_get_role (message) != AKC_MESSAGE_ROLE_ASSISTANT)
    return FALSE;
  if (length > 0 && content[0] == '\x1e')
    return FALSE;
  while (i < length && (content[i] == ' ' || content[i] == '\t' || content[i] == '\n' || content[i] == '\r'))
    i++;
  return i < length && content[i] != '{';
}

static AkcMessagePartKind
part_kind_for (AkcMessageRow   *self,
               AkcPresentation *presentation)
{
  switch (akc_presentation_get_kind (presentation))
    {
    case AKC_PRESENTATION_DIAGNOSTIC:
      return AKC_MESSAGE_PART_DIAGNOSTIC;
    case AKC_PRESENTATION_COMPONENT:
      return AKC_MESSAGE_PART_COMPONENT;
    case AKC_PRESENTATION_MESSAGE:
    default:
      /* The person's own messages are Markdown too (issue #13 item 9):
       * only text, never a frame, so the rule of §12.2 holds. */
      switch (akc_message_get_role (self->message))
        {
        case AKC_MESSAGE_ROLE_ASSISTANT:
        case AKC_MESSAGE_ROLE_USER:
          return AKC_MESSAGE_PART_MARKDOWN;
        case AKC_MESSAGE_ROLE_SYSTEM:
        case AKC_MESSAGE_ROLE_TOOL:
        default:
          return AKC_MESSAGE_PART_PLAIN;
        }
    }
}

static void
remove_parts_from (AkcMessageRow *self,
                   guint          position)
{
  while (self->parts->len > position)
    {
      Part *part = g_ptr_array_steal_index (self->parts, self->parts->len - 1);

      gtk_box_remove (self->parts_box, part->widget);
      part_free (part);
    }
}

static void
update_has_components (AkcMessageRow *self)
{
  gboolean has_components = FALSE;

  for (guint i = 0; i < self->parts->len; i++)
    if (((Part *) g_ptr_array_index (self->parts, i))->kind == AKC_MESSAGE_PART_COMPONENT)
      has_components = TRUE;

  if (self->has_components != has_components)
    {
      self->has_components = has_components;
      gtk_widget_queue_resize (GTK_WIDGET (self));
    }
}

/* Brings the parts in line with the message's presentations (§12.2):
 * parts that still match are updated in place, the others are replaced. */
static void
akc_message_row_sync_content (AkcMessageRow *self)
{
  g_autoptr(GListModel) presentations = NULL;
  const char *content;
  gsize length;
  gboolean streaming, continues;
  guint n;

  self->dirty = FALSE;
  self->n_updates++;

  if (self->message == NULL)
    {
      g_string_truncate (self->shown, 0);
      remove_parts_from (self, 0);
      update_has_components (self);
      return;
    }

  content = akc_message_get_content (self->message);
  length = akc_message_get_content_length (self->message);
  /* A streaming reply only grows: only what came is copied. */
  continues = length >= self->shown->len && memcmp (content, self->shown->str, self->shown->len) == 0;
  if (!continues)
    g_string_truncate (self->shown, 0);
  g_string_append_len (self->shown, content + self->shown->len, (gssize) (length - self->shown->len));

  streaming = is_streaming (self->message);

  /* Text that grows and stays text is the same one part again, without
   * presenting the whole content anew (a copy of it) for each chunk. */
  if (continues && streaming && self->parts->len == 1 && stays_text (self->message, content, length))
    {
      Part *part = g_ptr_array_index (self->parts, 0);

      if (part->kind == AKC_MESSAGE_PART_MARKDOWN)
        {
          update_part_text (part, content, length, streaming);
          if (self->search != NULL)
            self->search_widget = akc_message_row_apply_search (self, self->search, self->search_current);
          return;
        }
    }

  presentations = akc_present_message (self->message, self->manifest);
  n = g_list_model_get_n_items (presentations);

  for (guint i = 0; i < n; i++)
    {
      g_autoptr(AkcPresentation) presentation = g_list_model_get_item (presentations, i);
      AkcMessagePartKind kind = part_kind_for (self, presentation);
      Part *part = i < self->parts->len ? g_ptr_array_index (self->parts, i) : NULL;
      GtkWidget *previous = i > 0 ? ((Part *) g_ptr_array_index (self->parts, i - 1))->widget : NULL;

      if (part != NULL && part_matches (part, kind, presentation))
        {
          update_part (part, presentation, streaming);
          continue;
        }

      if (part != NULL)
        {
          gtk_box_remove (self->parts_box, part->widget);
          part_free (part);
        }

      part = new_part (self, kind, presentation, streaming);
      if (i < self->parts->len)
        self->parts->pdata[i] = part;
      else
        g_ptr_array_add (self->parts, part);

      gtk_box_insert_child_after (self->parts_box, part->widget, previous);
      update_part (part, presentation, streaming);
      apply_component_state (self, i);
    }

  remove_parts_from (self, n);
  update_has_components (self);
  if (self->search != NULL)
    self->search_widget = akc_message_row_apply_search (self, self->search, self->search_current);
}

static gboolean
akc_message_row_tick (GtkWidget     *widget,
                      GdkFrameClock *frame_clock,
                      gpointer       user_data)
{
  AkcMessageRow *self = AKC_MESSAGE_ROW (widget);

  /* A frame with no new chunk ends the tick. While chunks keep coming the
   * tick stays: a tick callback added during a frame's update phase (as
   * when the chunk itself came from a tick) first runs in the next frame,
   * so one added anew for each chunk would update the row every other
   * frame only. */
  if (!self->tick_pending)
    {
      self->tick_id = 0;
      return G_SOURCE_REMOVE;
    }

  self->tick_pending = FALSE;
  akc_message_row_sync_content (self);

  return G_SOURCE_CONTINUE;
}

static void
cancel_tick (AkcMessageRow *self)
{
  if (self->tick_id != 0)
    {
      gtk_widget_remove_tick_callback (GTK_WIDGET (self), self->tick_id);
      self->tick_id = 0;
    }
  self->tick_pending = FALSE;
}

static void
on_content_changed (AkcMessageRow *self)
{
  /* Coalesce chunks: one update per frame, in the frame's update phase
   * before layout. A row that is not shown waits until it is. */
  if (!gtk_widget_get_mapped (GTK_WIDGET (self)))
    {
      self->dirty = TRUE;
      return;
    }

  self->tick_pending = TRUE;
  if (self->tick_id == 0)
    self->tick_id = gtk_widget_add_tick_callback (GTK_WIDGET (self), akc_message_row_tick, NULL, NULL);
}

static void
akc_message_row_sync_status (AkcMessageRow *self)
{
  AkcMessageStatus status = AKC_MESSAGE_STATUS_COMPLETE;
  gboolean stopped = FALSE;
  const char *note = NULL;

  if (self->message != NULL)
    {
      status = akc_message_get_status (self->message);
      stopped = akc_message_get_stopped (self->message);
    }

  for (guint i = 0; i < G_N_ELEMENTS (status_classes); i++)
    gtk_widget_remove_css_class (GTK_WIDGET (self), status_classes[i]);
  if ((guint) status < G_N_ELEMENTS (status_classes))
    gtk_widget_add_css_class (GTK_WIDGET (self), status_classes[status]);
  if (stopped)
    gtk_widget_add_css_class (GTK_WIDGET (self), "stopped");
  else
    gtk_widget_remove_css_class (GTK_WIDGET (self), "stopped");

  if (self->error != NULL)
    note = self->error;
  else if (status == AKC_MESSAGE_STATUS_ERROR && akc_message_get_content_length (self->message) > 0)
    /* What arrived before the turn failed is kept, after a restart too:
     * it is not a finished answer. */
    note = _("The answer was cut off");
  else if (status == AKC_MESSAGE_STATUS_ERROR)
    note = _("No answer");
  else if (stopped)
    note = _("Stopped");

  gtk_label_set_text (self->note, note != NULL ? note : "");
  gtk_widget_set_visible (GTK_WIDGET (self->note), note != NULL);

  gtk_accessible_update_state (GTK_ACCESSIBLE (self),
                               GTK_ACCESSIBLE_STATE_BUSY,
                               status == AKC_MESSAGE_STATUS_PENDING || status == AKC_MESSAGE_STATUS_STREAMING,
                               -1);
}

/* A chip of an attachment of the message: a thumbnail or a document icon,
 * and the name. */
static GtkWidget *
new_attachment_chip (gpointer item,
                     gpointer user_data)
{
  AkcAttachment *attachment = item;
  GtkWidget *chip = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 6);
  GtkWidget *label = gtk_label_new (akc_attachment_get_name (attachment));
  GtkWidget *child = gtk_flow_box_child_new ();
  g_autofree char *description = NULL;

  gtk_widget_add_css_class (chip, "attachment-chip");
  gtk_widget_add_css_class (chip, "card");
  /* It fills its place: on the person's side all are as wide as the
   * widest, and a narrower one would leave a gap at the row's end. */
  gtk_widget_set_halign (chip, GTK_ALIGN_FILL);
  if (akc_attachment_get_kind (attachment) == AKC_ATTACHMENT_KIND_IMAGE)
    {
      g_autoptr(GdkTexture) texture = gdk_texture_new_from_bytes (akc_attachment_get_data (attachment), NULL);

      if (texture != NULL)
        {
          /* A thumbnail: an image's natural size would be the picture's. */
          GtkWidget *thumbnail = gtk_image_new_from_paintable (GDK_PAINTABLE (texture));

          gtk_image_set_pixel_size (GTK_IMAGE (thumbnail), 64);
          gtk_widget_add_css_class (thumbnail, "thumbnail");
          gtk_box_append (GTK_BOX (chip), thumbnail);
        }
      else
        gtk_box_append (GTK_BOX (chip), gtk_image_new_from_icon_name ("image-x-generic-symbolic"));
      description = g_strdup_printf (_("Image, %u × %u pixels"), akc_attachment_get_width (attachment),
                                     akc_attachment_get_height (attachment));
    }
  else
    {
      gtk_box_append (GTK_BOX (chip), gtk_image_new_from_icon_name ("text-x-generic-symbolic"));
      description = g_strdup (_("Text file"));
    }
  gtk_label_set_ellipsize (GTK_LABEL (label), PANGO_ELLIPSIZE_MIDDLE);
  gtk_label_set_max_width_chars (GTK_LABEL (label), 24);
  gtk_box_append (GTK_BOX (chip), label);

  gtk_flow_box_child_set_child (GTK_FLOW_BOX_CHILD (child), chip);
  gtk_widget_set_focusable (child, FALSE);
  gtk_accessible_update_property (GTK_ACCESSIBLE (child),
                                  GTK_ACCESSIBLE_PROPERTY_LABEL, akc_attachment_get_name (attachment),
                                  GTK_ACCESSIBLE_PROPERTY_DESCRIPTION, description,
                                  -1);

  return child;
}

static void
akc_message_row_sync_attachments (AkcMessageRow *self)
{
  GListModel *attachments = self->message != NULL ? akc_message_get_attachments (self->message) : NULL;
  guint n = attachments != NULL ? g_list_model_get_n_items (attachments) : 0;
  gboolean mine = self->message != NULL && akc_message_get_role (self->message) == AKC_MESSAGE_ROLE_USER;

  gtk_flow_box_bind_model (GTK_FLOW_BOX (self->attachments), attachments, new_attachment_chip, NULL, NULL);
  gtk_widget_set_visible (self->attachments, n > 0);
  /* The person's on their side, at the end of the row, and read in the
   * order they were attached (a right-to-left box would show the last
   * first). A box that is not homogeneous asks GTK 4.8 for the width of
   * one chip only, so it would stack them one under the other; a
   * homogeneous one asks for its most children per line. */
  gtk_widget_set_halign (self->attachments, mine ? GTK_ALIGN_END : GTK_ALIGN_FILL);
  gtk_flow_box_set_homogeneous (GTK_FLOW_BOX (self->attachments), mine);
  gtk_flow_box_set_max_children_per_line (GTK_FLOW_BOX (self->attachments), mine ? MAX (n, 1) : 7);
}

/* The tokens a reply cost: a tooltip on its author's name and the row's
 * description, so that it is there when asked for and never noise. */
static void
akc_message_row_sync_usage (AkcMessageRow *self)
{
  const AkcUsage *usage = self->message != NULL ? akc_message_get_usage (self->message) : NULL;
  g_autofree char *text = NULL;

  if (usage != NULL)
    {
      g_autofree char *prompt = g_strdup_printf ("%" G_GUINT64_FORMAT, usage->prompt_tokens);
      g_autofree char *completion = g_strdup_printf ("%" G_GUINT64_FORMAT, usage->completion_tokens);
      g_autofree char *total = g_strdup_printf ("%" G_GUINT64_FORMAT, usage->total_tokens);

      /* Translators: the tokens a model reply cost; the %s are token
       * counts of the prompt, the reply, and in all */
      text = g_strdup_printf (_("Tokens: %s prompt, %s reply, %s in all"), prompt, completion, total);
    }

  gtk_widget_set_tooltip_text (GTK_WIDGET (self->author), text);
  if (text != NULL)
    gtk_accessible_update_property (GTK_ACCESSIBLE (self),
                                    GTK_ACCESSIBLE_PROPERTY_DESCRIPTION, text,
                                    -1);
  else
    gtk_accessible_reset_property (GTK_ACCESSIBLE (self), GTK_ACCESSIBLE_PROPERTY_DESCRIPTION);
}

/* A widget the view shows under the message's text and above its note:
 * the settled cards of the tool calls a reply with text carries. Replaces
 * the one before; %NULL removes it. */
void
akc_message_row_set_extra (AkcMessageRow *self,
                           GtkWidget     *extra)
{
  g_return_if_fail (AKC_IS_MESSAGE_ROW (self));
  g_return_if_fail (extra == NULL || GTK_IS_WIDGET (extra));

  if (self->extra == extra)
    return;

  if (self->extra != NULL)
    gtk_box_remove (GTK_BOX (self->column), self->extra);
  self->extra = extra;
  if (extra != NULL)
    gtk_box_insert_child_after (GTK_BOX (self->column), extra, GTK_WIDGET (self->parts_box));
}

/* The error of the turn that ended with this message, shown under it once
 * it is no longer the conversation's current error (the chat view's). */
void
akc_message_row_set_error (AkcMessageRow *self,
                           const char    *error)
{
  g_return_if_fail (AKC_IS_MESSAGE_ROW (self));

  if (g_strcmp0 (self->error, error) == 0)
    return;

  g_free (self->error);
  self->error = g_strdup (error);
  if (error != NULL)
    gtk_widget_add_css_class (GTK_WIDGET (self->note), "error");
  else
    gtk_widget_remove_css_class (GTK_WIDGET (self->note), "error");
  akc_message_row_sync_status (self);
}

static void
on_status_changed (AkcMessageRow *self)
{
  akc_message_row_sync_status (self);

  /* Done, error or stop: the last chunks are shown at once, and a
   * finished reply is frozen into its final widgets. */
  cancel_tick (self);
  akc_message_row_sync_content (self);
}

static void
on_ownership_changed (AkcMessageRow *self)
{
  apply_component_states (self);
}

/* A row is always as wide as the transcript gives it, and its text wraps
 * to that width: asking for the width its text would like would lay out
 * every paragraph unwrapped, for each of the up to 200 rows a GTK 4.8
 * list view keeps. Only components have a real minimum width. */
static void
akc_message_row_measure (GtkWidget      *widget,
                         GtkOrientation  orientation,
                         int             for_size,
                         int            *minimum,
                         int            *natural,
                         int            *minimum_baseline,
                         int            *natural_baseline)
{
  AkcMessageRow *self = AKC_MESSAGE_ROW (widget);

  if (orientation == GTK_ORIENTATION_HORIZONTAL && !self->has_components)
    {
      *minimum = *natural = 0;
      return;
    }

  gtk_widget_measure (self->column, orientation, for_size, minimum, natural, minimum_baseline, natural_baseline);
}

/* Height for width: without it GTK measures the row's height for no width
 * at all (a widget without a layout manager trades no size), that is with
 * every paragraph on one line, and a message that wraps overflows its row
 * into the next one. */
static GtkSizeRequestMode
akc_message_row_get_request_mode (GtkWidget *widget)
{
  return GTK_SIZE_REQUEST_HEIGHT_FOR_WIDTH;
}

static void
akc_message_row_size_allocate (GtkWidget *widget,
                               int        width,
                               int        height,
                               int        baseline)
{
  AkcMessageRow *self = AKC_MESSAGE_ROW (widget);

  gtk_widget_allocate (self->column, width, height, baseline, NULL);
  if (self->menu != NULL)
    gtk_popover_present (GTK_POPOVER (self->menu));
}

static void
akc_message_row_map (GtkWidget *widget)
{
  AkcMessageRow *self = AKC_MESSAGE_ROW (widget);

  GTK_WIDGET_CLASS (akc_message_row_parent_class)->map (widget);

  if (self->dirty)
    akc_message_row_sync_content (self);
}

static void
akc_message_row_dispose (GObject *object)
{
  AkcMessageRow *self = (AkcMessageRow *)object;

  akc_message_row_set_message (self, NULL);
  akc_message_row_set_ownership (self, NULL);
  g_clear_object (&self->manifest);
  g_clear_pointer (&self->menu, gtk_widget_unparent);
  gtk_widget_dispose_template (GTK_WIDGET (self), AKC_TYPE_MESSAGE_ROW);

  G_OBJECT_CLASS (akc_message_row_parent_class)->dispose (object);
}

/* The column's labels, icons and blocks each in a clip of their own, so
 * that a frame redrawing the line being written skips the rest of the
 * row (see akc-snapshot-clip.c). */
static void
akc_message_row_snapshot (GtkWidget   *widget,
                          GtkSnapshot *snapshot)
{
  AkcMessageRow *self = AKC_MESSAGE_ROW (widget);

  for (GtkWidget *child = gtk_widget_get_first_child (widget); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    {
      if (child == self->column)
        akc_clip_cache_snapshot_child (self->clip_cache, widget, child, snapshot);
      else
        gtk_widget_snapshot_child (widget, child, snapshot);
    }
}

static void
akc_message_row_finalize (GObject *object)
{
  AkcMessageRow *self = (AkcMessageRow *)object;

  g_ptr_array_unref (self->parts);
  g_string_free (self->shown, TRUE);
  g_free (self->error);
  g_clear_pointer (&self->clip_cache, akc_clip_cache_free);

  G_OBJECT_CLASS (akc_message_row_parent_class)->finalize (object);
}

static void
akc_message_row_get_property (GObject    *object,
                              guint       prop_id,
                              GValue     *value,
                              GParamSpec *pspec)
{
  AkcMessageRow *self = AKC_MESSAGE_ROW (object);

  switch (prop_id)
    {
    case PROP_MESSAGE:
      g_value_set_object (value, self->message);
      break;
    case PROP_MANIFEST:
      g_value_set_object (value, self->manifest);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
akc_message_row_set_property (GObject      *object,
                              guint         prop_id,
                              const GValue *value,
                              GParamSpec   *pspec)
{
  AkcMessageRow *self = AKC_MESSAGE_ROW (object);

  switch (prop_id)
    {
    case PROP_MESSAGE:
      akc_message_row_set_message (self, g_value_get_object (value));
      break;
    case PROP_MANIFEST:
      akc_message_row_set_manifest (self, g_value_get_object (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

/* Whether the conversation around the row can lose a message: only a
 * definition-owned chat deletes one; a host (a controlled source) or the
 * turn server owns its messages, and there is no Delete to offer. A row
 * outside a chat view shows its actions disabled. */
static gboolean
can_delete (AkcMessageRow *self)
{
  GtkWidget *view = gtk_widget_get_ancestor (GTK_WIDGET (self), AKC_TYPE_CHAT_VIEW);
  AkcChatSource *source = view != NULL ? akc_chat_view_get_source (AKC_CHAT_VIEW (view)) : NULL;

  return view == NULL || AKC_IS_CHAT (source);
}

/* The context menu of the message (issue 14 item 7): its actions are the
 * chat view's (akc-chat-view-messages.c), with the message's id. */
static GMenuModel *
build_menu (AkcMessageRow *self)
{
  GMenu *menu = g_menu_new ();
  GMenu *section = g_menu_new ();
  const char *id = akc_message_get_id (self->message);
  g_autoptr(GMenuItem) item = NULL;

  item = g_menu_item_new (_("_Copy Message"), NULL);
  g_menu_item_set_action_and_target (item, "chat.copy-message", "s", id);
  g_menu_append_item (section, item);
  g_clear_object (&item);
  item = g_menu_item_new (_("Copy as Plain _Text"), NULL);
  g_menu_item_set_action_and_target (item, "chat.copy-message-text", "s", id);
  g_menu_append_item (section, item);
  g_clear_object (&item);
  g_menu_append_section (menu, NULL, G_MENU_MODEL (section));
  g_object_unref (section);

  section = g_menu_new ();
  if (akc_message_get_role (self->message) == AKC_MESSAGE_ROLE_USER)
    {
      item = g_menu_item_new (_("_Edit and Send Again"), NULL);
      g_menu_item_set_action_and_target (item, "chat.edit-message", "s", id);
      g_menu_append_item (section, item);
      g_clear_object (&item);
    }
  if (can_delete (self))
    {
      item = g_menu_item_new (_("_Delete Message"), NULL);
      g_menu_item_set_action_and_target (item, "chat.delete-message", "s", id);
      g_menu_append_item (section, item);
      g_clear_object (&item);
    }
  if (g_menu_model_get_n_items (G_MENU_MODEL (section)) > 0)
    g_menu_append_section (menu, NULL, G_MENU_MODEL (section));
  g_object_unref (section);

  return G_MENU_MODEL (menu);
}

static gboolean
unparent_menu_idle (gpointer user_data)
{
  AkcMessageRow *self = user_data;

  /* Only the menu that closed: another may be open by now. */
  if (self->menu != NULL && !gtk_widget_get_visible (self->menu))
    g_clear_pointer (&self->menu, gtk_widget_unparent);

  return G_SOURCE_REMOVE;
}

static void
on_menu_closed (AkcMessageRow *self)
{
  /* After the activated item's action ran. */
  g_idle_add_full (G_PRIORITY_DEFAULT_IDLE, unparent_menu_idle, g_object_ref (self), g_object_unref);
}

/* Opens the context menu at @x, @y of the row, or (both negative) at
 * its text, as the keyboard does. */
gboolean
akc_message_row_popup_menu (AkcMessageRow *self,
                            double         x,
                            double         y)
{
  g_autoptr(GMenuModel) model = NULL;
  GdkRectangle at;

  g_return_val_if_fail (AKC_IS_MESSAGE_ROW (self), FALSE);

  if (self->message == NULL)
    return FALSE;

  if (x < 0 || y < 0)
    {
      graphene_rect_t bounds;

      /* Under the start of the message's text. */
      if (gtk_widget_compute_bounds (GTK_WIDGET (self->parts_box), GTK_WIDGET (self), &bounds))
        {
          x = bounds.origin.x + MIN (bounds.size.width, 24);
          y = bounds.origin.y + MIN (bounds.size.height, 24);
        }
      else
        x = y = 0;
    }

  g_clear_pointer (&self->menu, gtk_widget_unparent);
  model = build_menu (self);
  self->menu = gtk_popover_menu_new_from_model (model);
  gtk_widget_set_parent (self->menu, GTK_WIDGET (self));
  gtk_popover_set_has_arrow (GTK_POPOVER (self->menu), FALSE);
  gtk_widget_set_halign (self->menu, gtk_widget_get_direction (GTK_WIDGET (self)) == GTK_TEXT_DIR_RTL
                                     ? GTK_ALIGN_END : GTK_ALIGN_START);
  at = (GdkRectangle) { (int) x, (int) y, 1, 1 };
  gtk_popover_set_pointing_to (GTK_POPOVER (self->menu), &at);
  g_signal_connect_object (self->menu, "closed", G_CALLBACK (on_menu_closed), self, G_CONNECT_SWAPPED);
  gtk_popover_popup (GTK_POPOVER (self->menu));

  return TRUE;
}

/* The context menu while it is open, for the tests. */
GtkWidget *
akc_message_row_get_menu (AkcMessageRow *self)
{
  g_return_val_if_fail (AKC_IS_MESSAGE_ROW (self), NULL);

  return self->menu;
}

static void
menu_action (GtkWidget  *widget,
             const char *action_name,
             GVariant   *parameter)
{
  akc_message_row_popup_menu (AKC_MESSAGE_ROW (widget), -1, -1);
}

/* The button next to the author: the same menu, under the button. */
static void
on_menu_button_clicked (AkcMessageRow *self)
{
  graphene_rect_t bounds;

  if (gtk_widget_compute_bounds (self->menu_button, GTK_WIDGET (self), &bounds))
    akc_message_row_popup_menu (self, bounds.origin.x + bounds.size.width / 2, bounds.origin.y + bounds.size.height);
  else
    akc_message_row_popup_menu (self, -1, -1);
}

static void
on_secondary_click (GtkGestureClick *gesture,
                    int              n_press,
                    double           x,
                    double           y,
                    AkcMessageRow   *self)
{
  if (akc_message_row_popup_menu (self, x, y))
    gtk_gesture_set_state (GTK_GESTURE (gesture), GTK_EVENT_SEQUENCE_CLAIMED);
}

static void
on_long_press (GtkGestureLongPress *gesture,
               double               x,
               double               y,
               AkcMessageRow       *self)
{
  if (akc_message_row_popup_menu (self, x, y))
    gtk_gesture_set_state (GTK_GESTURE (gesture), GTK_EVENT_SEQUENCE_CLAIMED);
}

static void
init_menu (AkcMessageRow *self)
{
  GtkGesture *click = gtk_gesture_click_new ();
  GtkGesture *press = gtk_gesture_long_press_new ();
  GtkEventController *shortcuts = gtk_shortcut_controller_new ();

  /* Before the selectable labels inside, which have a menu of their own
   * (Copy, Select All) on the same click and keys: ours copies too. */
  gtk_gesture_single_set_button (GTK_GESTURE_SINGLE (click), GDK_BUTTON_SECONDARY);
  gtk_event_controller_set_propagation_phase (GTK_EVENT_CONTROLLER (click), GTK_PHASE_CAPTURE);
  g_signal_connect_object (click, "pressed", G_CALLBACK (on_secondary_click), self, 0);
  gtk_widget_add_controller (GTK_WIDGET (self), GTK_EVENT_CONTROLLER (click));

  gtk_gesture_single_set_touch_only (GTK_GESTURE_SINGLE (press), TRUE);
  g_signal_connect_object (press, "pressed", G_CALLBACK (on_long_press), self, 0);
  gtk_widget_add_controller (GTK_WIDGET (self), GTK_EVENT_CONTROLLER (press));

  /* Menu and Shift+F10, with the keyboard on the row or inside it. */
  gtk_shortcut_controller_set_scope (GTK_SHORTCUT_CONTROLLER (shortcuts), GTK_SHORTCUT_SCOPE_LOCAL);
  gtk_event_controller_set_propagation_phase (shortcuts, GTK_PHASE_CAPTURE);
  gtk_shortcut_controller_add_shortcut (GTK_SHORTCUT_CONTROLLER (shortcuts),
                                        gtk_shortcut_new (gtk_alternative_trigger_new (gtk_keyval_trigger_new (GDK_KEY_Menu, 0),
                                                                                       gtk_keyval_trigger_new (GDK_KEY_F10, GDK_SHIFT_MASK)),
                                                          gtk_named_action_new ("message.menu")));
  gtk_widget_add_controller (GTK_WIDGET (self), shortcuts);

  gtk_accessible_update_property (GTK_ACCESSIBLE (self),
                                  GTK_ACCESSIBLE_PROPERTY_HAS_POPUP, TRUE,
                                  -1);
}

static void
akc_message_row_class_init (AkcMessageRowClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = akc_message_row_dispose;
  object_class->finalize = akc_message_row_finalize;
  object_class->get_property = akc_message_row_get_property;
  object_class->set_property = akc_message_row_set_property;

  widget_class->map = akc_message_row_map;
  widget_class->measure = akc_message_row_measure;
  widget_class->size_allocate = akc_message_row_size_allocate;
  widget_class->snapshot = akc_message_row_snapshot;
  widget_class->get_request_mode = akc_message_row_get_request_mode;

  /**
   * AkcMessageRow:message:
   *
   * The message the row presents.
   *
   * Since: 0.1
   */
  props[PROP_MESSAGE] =
    g_param_spec_object ("message", NULL, NULL,
                         AKC_TYPE_MESSAGE,
                         (G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));

  /**
   * AkcMessageRow:manifest:
   *
   * The manifest component frames resolve against, or %NULL when none is
   * configured: frames are shown as their semantic fallback then
   * ([application §12.2](../Akc-1/wire-formats.html#application-12)).
   *
   * Since: 0.1
   */
  props[PROP_MANIFEST] =
    g_param_spec_object ("manifest", NULL, NULL,
                         AKC_TYPE_COMPONENT_MANIFEST,
                         (G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));

  g_object_class_install_properties (object_class, N_PROPS, props);

  /**
   * AkcMessageRow::component-interaction:
   * @self: the row
   * @view: the component view
   * @event: the interaction event
   *
   * A component of the message emitted [signal@ComponentView::interaction].
   *
   * Since: 0.1
   */
  signals[COMPONENT_INTERACTION] =
    g_signal_new ("component-interaction",
                  G_TYPE_FROM_CLASS (klass),
                  G_SIGNAL_RUN_LAST,
                  0,
                  NULL, NULL,
                  NULL,
                  G_TYPE_NONE, 2,
                  AKC_TYPE_COMPONENT_VIEW,
                  AKC_TYPE_JSON_VALUE | G_SIGNAL_TYPE_STATIC_SCOPE);

  /**
   * AkcMessageRow::component-selection:
   * @self: the row
   * @view: the component view
   * @event: the selection event
   *
   * A choice list of the message emitted [signal@ComponentView::selection].
   *
   * Since: 0.1
   */
  signals[COMPONENT_SELECTION] =
    g_signal_new ("component-selection",
                  G_TYPE_FROM_CLASS (klass),
                  G_SIGNAL_RUN_LAST,
                  0,
                  NULL, NULL,
                  NULL,
                  G_TYPE_NONE, 2,
                  AKC_TYPE_COMPONENT_VIEW,
                  AKC_TYPE_JSON_VALUE | G_SIGNAL_TYPE_STATIC_SCOPE);

  /**
   * AkcMessageRow::component-link-activated:
   * @self: the row
   * @view: the component view
   * @value: (nullable): the link's value
   *
   * A source list or link card of the message emitted
   * [signal@ComponentView::link-activated].
   *
   * Since: 0.1
   */
  signals[COMPONENT_LINK_ACTIVATED] =
    g_signal_new ("component-link-activated",
                  G_TYPE_FROM_CLASS (klass),
                  G_SIGNAL_RUN_LAST,
                  0,
                  NULL, NULL,
                  NULL,
                  G_TYPE_NONE, 2,
                  AKC_TYPE_COMPONENT_VIEW,
                  AKC_TYPE_JSON_VALUE | G_SIGNAL_TYPE_STATIC_SCOPE);

  gtk_widget_class_set_template_from_resource (widget_class, "/io/agentskit/AkcGtk/akc-message-row.ui");
  gtk_widget_class_bind_template_child (widget_class, AkcMessageRow, column);
  gtk_widget_class_bind_template_child (widget_class, AkcMessageRow, author);
  gtk_widget_class_bind_template_child (widget_class, AkcMessageRow, menu_button);
  gtk_widget_class_bind_template_callback (widget_class, on_menu_button_clicked);
  gtk_widget_class_bind_template_child_full (widget_class, "parts", FALSE,
                                             G_STRUCT_OFFSET (AkcMessageRow, parts_box));
  gtk_widget_class_bind_template_child (widget_class, AkcMessageRow, note);

  gtk_widget_class_install_action (widget_class, "message.menu", NULL, menu_action);

  gtk_widget_class_set_css_name (widget_class, "messagerow");
  gtk_widget_class_set_accessible_role (widget_class, GTK_ACCESSIBLE_ROLE_GROUP);
}

static void
akc_message_row_init (AkcMessageRow *self)
{
  akc_gtk_init ();
  gtk_widget_init_template (GTK_WIDGET (self));

  self->parts = g_ptr_array_new_with_free_func ((GDestroyNotify) part_free);
  self->clip_cache = akc_clip_cache_new ();
  self->shown = g_string_new (NULL);

  self->attachments = gtk_flow_box_new ();
  gtk_flow_box_set_selection_mode (GTK_FLOW_BOX (self->attachments), GTK_SELECTION_NONE);
  gtk_flow_box_set_column_spacing (GTK_FLOW_BOX (self->attachments), 6);
  gtk_flow_box_set_row_spacing (GTK_FLOW_BOX (self->attachments), 6);
  gtk_widget_add_css_class (self->attachments, "attachments");
  gtk_widget_set_visible (self->attachments, FALSE);
  gtk_accessible_update_property (GTK_ACCESSIBLE (self->attachments),
                                  GTK_ACCESSIBLE_PROPERTY_LABEL, _("Attachments"),
                                  -1);
  gtk_widget_insert_after (self->attachments, self->column, GTK_WIDGET (self->parts_box));
  self->active_position = -1;
  init_menu (self);
}

/**
 * akc_message_row_new:
 *
 * Creates a row with no message.
 *
 * Returns: (transfer none): a new floating #AkcMessageRow
 *
 * Since: 0.1
 */
GtkWidget *
akc_message_row_new (void)
{
  return g_object_new (AKC_TYPE_MESSAGE_ROW, NULL);
}

/**
 * akc_message_row_get_message:
 * @self: a #AkcMessageRow
 *
 * Gets the message the row presents.
 *
 * Returns: (transfer none) (nullable): the message
 *
 * Since: 0.1
 */
AkcMessage *
akc_message_row_get_message (AkcMessageRow *self)
{
  g_return_val_if_fail (AKC_IS_MESSAGE_ROW (self), NULL);

  return self->message;
}

/**
 * akc_message_row_set_message:
 * @self: a #AkcMessageRow
 * @message: (nullable): the message to present
 *
 * Sets the message the row presents, and follows its changes.
 *
 * Since: 0.1
 */
void
akc_message_row_set_message (AkcMessageRow *self,
                             AkcMessage    *message)
{
  AkcMessageRole role;

  g_return_if_fail (AKC_IS_MESSAGE_ROW (self));
  g_return_if_fail (message == NULL || AKC_IS_MESSAGE (message));

  if (self->message == message)
    return;

  if (self->message != NULL)
    {
      g_clear_signal_handler (&self->content_handler, self->message);
      g_clear_signal_handler (&self->status_handler, self->message);
      g_clear_signal_handler (&self->stopped_handler, self->message);
      g_clear_signal_handler (&self->usage_handler, self->message);
      g_clear_object (&self->message);
    }

  cancel_tick (self);
  /* Another message: nothing of the old one is reused. */
  remove_parts_from (self, 0);
  self->active_position = -1;
  g_clear_pointer (&self->search, akc_text_search_unref);
  self->search_current = -1;
  self->search_widget = NULL;

  if (message != NULL)
    {
      self->message = g_object_ref (message);
      self->content_handler = g_signal_connect_object (message, "notify::content",
                                                       G_CALLBACK (on_content_changed),
                                                       self, G_CONNECT_SWAPPED);
      self->status_handler = g_signal_connect_object (message, "notify::status",
                                                      G_CALLBACK (on_status_changed),
                                                      self, G_CONNECT_SWAPPED);
      self->stopped_handler = g_signal_connect_object (message, "notify::stopped",
                                                       G_CALLBACK (akc_message_row_sync_status),
                                                       self, G_CONNECT_SWAPPED);
      self->usage_handler = g_signal_connect_object (message, "notify::usage",
                                                     G_CALLBACK (akc_message_row_sync_usage),
                                                     self, G_CONNECT_SWAPPED);

      role = akc_message_get_role (message);
      for (guint i = 0; i < G_N_ELEMENTS (role_classes); i++)
        gtk_widget_remove_css_class (GTK_WIDGET (self), role_classes[i]);
      gtk_widget_add_css_class (GTK_WIDGET (self), role_classes[role]);

      gtk_label_set_text (self->author, akc_message_role_name (role));
      gtk_label_set_xalign (self->author, role == AKC_MESSAGE_ROLE_USER ? 1.0f : 0.0f);
      gtk_label_set_xalign (self->note, role == AKC_MESSAGE_ROLE_USER ? 1.0f : 0.0f);
      gtk_accessible_update_property (GTK_ACCESSIBLE (self),
                                      GTK_ACCESSIBLE_PROPERTY_LABEL, akc_message_role_name (role),
                                      -1);
    }

  akc_message_row_sync_status (self);
  akc_message_row_sync_usage (self);
  akc_message_row_sync_attachments (self);
  akc_message_row_sync_content (self);

  g_object_notify_by_pspec (G_OBJECT (self), props[PROP_MESSAGE]);
}

/**
 * akc_message_row_get_manifest:
 * @self: a #AkcMessageRow
 *
 * Gets the manifest component frames resolve against.
 *
 * Returns: (transfer none) (nullable): the manifest
 *
 * Since: 0.1
 */
AkcComponentManifest *
akc_message_row_get_manifest (AkcMessageRow *self)
{
  g_return_val_if_fail (AKC_IS_MESSAGE_ROW (self), NULL);

  return self->manifest;
}

/**
 * akc_message_row_set_manifest:
 * @self: a #AkcMessageRow
 * @manifest: (nullable): the manifest, or %NULL for none
 *
 * Sets the manifest component frames resolve against.
 *
 * Since: 0.1
 */
void
akc_message_row_set_manifest (AkcMessageRow        *self,
                              AkcComponentManifest *manifest)
{
  g_return_if_fail (AKC_IS_MESSAGE_ROW (self));
  g_return_if_fail (manifest == NULL || AKC_IS_COMPONENT_MANIFEST (manifest));

  if (!g_set_object (&self->manifest, manifest))
    return;

  /* Frames resolve differently now: draw them again. */
  remove_parts_from (self, 0);
  akc_message_row_sync_content (self);

  g_object_notify_by_pspec (G_OBJECT (self), props[PROP_MANIFEST]);
}

/**
 * akc_message_row_get_text:
 * @self: a #AkcMessageRow
 *
 * Gets the message content the row shows now. While a reply streams in it
 * may lag the message by up to one frame.
 *
 * Returns: (transfer none): the shown content
 *
 * Since: 0.1
 */
const char *
akc_message_row_get_text (AkcMessageRow *self)
{
  g_return_val_if_fail (AKC_IS_MESSAGE_ROW (self), NULL);

  return self->shown->str;
}

/* Private API: AkcChatView and the tests. */

/* The set of resolved instances of the view the row is in (§12.7). */
void
akc_message_row_set_ownership (AkcMessageRow     *self,
                               AkcInputOwnership *ownership)
{
  g_return_if_fail (AKC_IS_MESSAGE_ROW (self));

  if (self->ownership == ownership)
    return;

  if (self->ownership != NULL)
    {
      g_clear_signal_handler (&self->ownership_handler, self->ownership);
      g_clear_object (&self->ownership);
    }

  if (ownership != NULL)
    {
      self->ownership = g_object_ref (ownership);
      self->ownership_handler = g_signal_connect_object (ownership, "changed",
                                                         G_CALLBACK (on_ownership_changed),
                                                         self, G_CONNECT_SWAPPED);
    }

  apply_component_states (self);
}

/* Which presentation of the message owns input (§12.4), or -1. */
void
akc_message_row_set_active_position (AkcMessageRow *self,
                                     int            presentation)
{
  g_return_if_fail (AKC_IS_MESSAGE_ROW (self));

  if (self->active_position == presentation)
    return;

  self->active_position = presentation;
  apply_component_states (self);
}

AkcComponentView *
akc_message_row_get_active_view (AkcMessageRow *self)
{
  Part *part;

  g_return_val_if_fail (AKC_IS_MESSAGE_ROW (self), NULL);

  if (self->active_position < 0 || (guint) self->active_position >= self->parts->len)
    return NULL;

  part = g_ptr_array_index (self->parts, self->active_position);
  if (part->kind != AKC_MESSAGE_PART_COMPONENT || !AKC_IS_COMPONENT_VIEW (part->content))
    return NULL;

  return AKC_COMPONENT_VIEW (part->content);
}

/* Shows the message's content now, without waiting for the next frame. */
void
akc_message_row_flush (AkcMessageRow *self)
{
  g_return_if_fail (AKC_IS_MESSAGE_ROW (self));

  cancel_tick (self);
  akc_message_row_sync_content (self);
}

guint
akc_message_row_get_n_parts (AkcMessageRow *self)
{
  g_return_val_if_fail (AKC_IS_MESSAGE_ROW (self), 0);

  return self->parts->len;
}

AkcMessagePartKind
akc_message_row_get_part_kind (AkcMessageRow *self,
                               guint          position)
{
  g_return_val_if_fail (AKC_IS_MESSAGE_ROW (self), AKC_MESSAGE_PART_PLAIN);
  g_return_val_if_fail (position < self->parts->len, AKC_MESSAGE_PART_PLAIN);

  return ((Part *) g_ptr_array_index (self->parts, position))->kind;
}

/* The content of a part: a GtkLabel, an AkcMarkdownView, or an
 * AkcComponentView (a GtkLabel for the fallback without a manifest). */
GtkWidget *
akc_message_row_get_part (AkcMessageRow *self,
                          guint          position)
{
  g_return_val_if_fail (AKC_IS_MESSAGE_ROW (self), NULL);
  g_return_val_if_fail (position < self->parts->len, NULL);

  return ((Part *) g_ptr_array_index (self->parts, position))->content;
}

/* Highlights the matches of @search (none: %NULL) in the row's text,
 * match @current of the message (-1: none) as the current one, again
 * whenever the text changes. */
void
akc_message_row_set_search (AkcMessageRow *self,
                            AkcTextSearch *search,
                            int            current)
{
  g_return_if_fail (AKC_IS_MESSAGE_ROW (self));

  if (search != NULL && akc_text_search_is_empty (search))
    search = NULL;
  if (search == NULL && self->search == NULL)
    return;

  if (search != self->search)
    {
      g_clear_pointer (&self->search, akc_text_search_unref);
      self->search = search != NULL ? akc_text_search_ref (search) : NULL;
    }
  self->search_current = search != NULL ? current : -1;
  self->search_widget = akc_message_row_apply_search (self, self->search, self->search_current);
}

/* The label that shows the current match of the find, if the row has it. */
GtkWidget *
akc_message_row_get_search_widget (AkcMessageRow *self)
{
  g_return_val_if_fail (AKC_IS_MESSAGE_ROW (self), NULL);

  return self->search_widget;
}

/* How many times the row drew its message's content: once per bind,
 * once per frame with new chunks, once per status change. */
guint
akc_message_row_get_n_updates (AkcMessageRow *self)
{
  g_return_val_if_fail (AKC_IS_MESSAGE_ROW (self), 0);

  return self->n_updates;
}

static void
factory_setup (GtkSignalListItemFactory *factory,
               GtkListItem              *item)
{
  gtk_list_item_set_activatable (item, FALSE);
  gtk_list_item_set_selectable (item, FALSE);
  gtk_list_item_set_child (item, akc_message_row_new ());
}

static void
factory_bind (GtkSignalListItemFactory *factory,
              GtkListItem              *item)
{
  akc_message_row_set_message (AKC_MESSAGE_ROW (gtk_list_item_get_child (item)),
                               gtk_list_item_get_item (item));
}

static void
factory_unbind (GtkSignalListItemFactory *factory,
                GtkListItem              *item)
{
  akc_message_row_set_message (AKC_MESSAGE_ROW (gtk_list_item_get_child (item)), NULL);
}

/**
 * akc_message_row_factory_new:
 *
 * Creates a list item factory that presents each [class@Akc.Message] of a
 * model with an #AkcMessageRow. Rows are recycled: a row follows the
 * message bound to it and lets go of it when unbound.
 *
 * Returns: (transfer full): a new #GtkListItemFactory
 *
 * Since: 0.1
 */
GtkListItemFactory *
akc_message_row_factory_new (void)
{
  GtkListItemFactory *factory = gtk_signal_list_item_factory_new ();

  g_signal_connect (factory, "setup", G_CALLBACK (factory_setup), NULL);
  g_signal_connect (factory, "bind", G_CALLBACK (factory_bind), NULL);
  g_signal_connect (factory, "unbind", G_CALLBACK (factory_unbind), NULL);

  return factory;
}
