/* akc-composer.c
 *
 * SPDX-License-Identifier: MIT
 */

#include "config.h"

#include <glib/gi18n-lib.h>

#include "akc-attachment-loader-private.h"
#include "akc-composer.h"
#include "akc-gtk-main.h"

/**
 * AkcComposer:
 *
 * The multi-line message entry of a chat, with its Send and Stop buttons.
 *
 * Enter sends the draft to [property@Composer:source]; Shift+Enter inserts
 * a newline. Blank drafts are never sent. The draft is kept in
 * [property@Akc.ChatSource:input], so it survives the widget. The entry
 * takes what is typed even before there is a source (an application still
 * opening its history); the first source set gets it, after its own draft,
 * and sends it at once when Enter was pressed meanwhile.
 *
 * While a reply streams in, the entry stays editable, so that nothing
 * typed meanwhile is lost, and Stop replaces Send. Enter then keeps the
 * draft and starts a new line in it (one, however often it is pressed),
 * so that messages typed one after the other stay apart; a hint below the
 * entry says so: the draft waits until the person sends it, with Enter
 * once the reply is finished. The line breaks that end a draft are not
 * sent. Escape in the entry stops the reply.
 *
 * Images (PNG, JPEG, WebP) and UTF-8 text files can go with a message
 * when the source is an [class@Akc.Chat]: from the Attach button (a file
 * chooser), dropped on the composer, or pasted (files, or an image from the
 * clipboard). Each is read on a worker thread and an image over
 * %AKC_ATTACHMENT_MAX_IMAGE_SIDE pixels is downscaled there; they show as
 * chips above the entry, each with a button that removes it, and are sent
 * with the next message ([method@Akc.Chat.send_with_attachments]). A file
 * that cannot be sent is refused with a message that says why, under the
 * chips; nothing else changes.
 *
 * The composer installs the actions `composer.send`, `composer.stop` and
 * `composer.attach`; each is enabled only when it can do something.
 *
 * ## CSS nodes
 *
 * `AkcComposer` has a main CSS node named `composer`.
 *
 * ## Accessibility
 *
 * The entry has the text-box role and the label "Message"; the buttons are
 * labelled "Send" and "Stop".
 *
 * Since: 0.1
 */

struct _AkcComposer
{
  GtkWidget      parent_instance;

  GtkTextView   *text_view;
  GtkTextBuffer *buffer;
  GtkWidget     *placeholder;
  GtkWidget     *hint;
  GtkWidget     *send_button;
  GtkWidget     *stop_button;
  GtkWidget     *attach_button;
  GtkWidget     *attachments_box;
  GtkWidget     *attach_error;

  GListStore    *attachments;   /* AkcAttachment, to go with the next message */
  GCancellable  *loading;       /* of the files being read */
  guint          n_loading;
  GQueue         loads;         /* Load, in the order they were attached */
  GtkNativeDialog *chooser;

  AkcChatSource *source;
  gulong         status_handler;
  gulong         input_handler;
  gboolean       syncing_input;
  gboolean       typed_without_source;  /* waits for the first source */
  gboolean       send_with_source;      /* Enter came before the source */
};

G_DEFINE_FINAL_TYPE (AkcComposer, akc_composer, GTK_TYPE_WIDGET)

enum {
  PROP_0,
  PROP_SOURCE,
  N_PROPS
};

static GParamSpec *props[N_PROPS];

static gboolean
akc_composer_is_streaming (AkcComposer *self)
{
  return self->source != NULL &&
         akc_chat_source_get_status (self->source) == AKC_CHAT_STATUS_STREAMING;
}

static gboolean
akc_composer_has_text (AkcComposer *self)
{
  g_autofree char *text = akc_composer_dup_text (self);

  return !akc_is_blank_input (text);
}

/* Whether the conversation's adapter sends attachments of @kind: its
 * capabilities say `"attachments":{"images":…,"text":…}`. */
static gboolean
akc_composer_takes (AkcComposer       *self,
                    AkcAttachmentKind  kind)
{
  g_autoptr(AkcJsonValue) capabilities = NULL;
  AkcJsonValue *attachments, *value;

  if (!AKC_IS_CHAT (self->source))
    return FALSE;

  capabilities = akc_adapter_get_capabilities (akc_chat_get_adapter (AKC_CHAT (self->source)));
  attachments = capabilities != NULL ? akc_json_value_get_member (capabilities, "attachments") : NULL;
  value = attachments != NULL ? akc_json_value_get_member (attachments, kind == AKC_ATTACHMENT_KIND_IMAGE
                                                                        ? "images" : "text")
                              : NULL;

  return value != NULL && akc_json_value_get_kind (value) == AKC_JSON_KIND_BOOLEAN &&
         akc_json_value_get_boolean (value);
}

static gboolean
akc_composer_can_attach (AkcComposer *self)
{
  return akc_composer_takes (self, AKC_ATTACHMENT_KIND_TEXT) ||
         akc_composer_takes (self, AKC_ATTACHMENT_KIND_IMAGE);
}

static gboolean
akc_composer_has_attachments (AkcComposer *self)
{
  return g_list_model_get_n_items (G_LIST_MODEL (self->attachments)) > 0;
}

static void
akc_composer_update_state (AkcComposer *self)
{
  gboolean streaming = akc_composer_is_streaming (self);
  gboolean has_text = gtk_text_buffer_get_char_count (self->buffer) > 0;

  gtk_widget_action_set_enabled (GTK_WIDGET (self), "composer.send",
                                 self->source != NULL && !streaming && self->n_loading == 0 &&
                                 (akc_composer_has_text (self) || akc_composer_has_attachments (self)));
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "composer.stop", streaming);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "composer.attach", akc_composer_can_attach (self));

  gtk_widget_set_visible (self->send_button, !streaming);
  gtk_widget_set_visible (self->stop_button, streaming);
  gtk_widget_set_visible (self->placeholder, !has_text);
  /* Never insensitive, not while a reply streams nor before there is a
   * conversation (an application that opens its history): keys typed
   * then would be dropped. What Enter does while a reply streams is said
   * next to the entry. */
  if (gtk_widget_get_visible (self->hint) == (streaming && has_text))
    return;

  /* The hint is also the entry's description while it shows (only then:
   * the chat view may announce through the description, GTK < 4.14). */
  gtk_widget_set_visible (self->hint, streaming && has_text);
  if (streaming && has_text)
    gtk_accessible_update_property (GTK_ACCESSIBLE (self->text_view),
                                    GTK_ACCESSIBLE_PROPERTY_DESCRIPTION,
                                    gtk_label_get_text (GTK_LABEL (self->hint)),
                                    -1);
  else
    gtk_accessible_reset_property (GTK_ACCESSIBLE (self->text_view), GTK_ACCESSIBLE_PROPERTY_DESCRIPTION);
}

static void
on_status_changed (AkcComposer *self)
{
  gboolean stop_focused = gtk_widget_has_focus (self->stop_button);

  akc_composer_update_state (self);

  if (akc_composer_is_streaming (self))
    return;

  /* Stop, which had the keyboard, is gone: give it back to the entry. */
  if (stop_focused)
    gtk_widget_grab_focus (GTK_WIDGET (self->text_view));
}

static void
on_source_input_changed (AkcComposer *self)
{
  g_autofree char *input = NULL;
  g_autofree char *text = NULL;

  if (self->syncing_input)
    return;

  input = akc_chat_source_dup_input (self->source);
  text = akc_composer_dup_text (self);
  if (g_strcmp0 (input, text) != 0)
    akc_composer_set_text (self, input);
}

static void
on_buffer_changed (AkcComposer *self)
{
  /* The entry lays its new text out in this frame's layout, not while it
   * is drawn. Keys that come faster than frames reach it inside a frame
   * (GDK hands the queued events over before layout), and GTK 4.8's text
   * view then measures the changed lines only when it draws them, which
   * moves the adjustment of the scrolled window around it: its scrollbar
   * queues a new allocation in the middle of the drawing and is drawn
   * without one ("Trying to snapshot GtkGizmo ... without a current
   * allocation"). Resized, the scrolled window allocates the text view
   * again in this frame, which measures its lines in its size_allocate,
   * before the scrolled window allocates the scrollbar. (Only allocated
   * again, the text view would change its height inside the layout, from
   * the ensure pass, and need a second layout the frame may not run.) */
  gtk_widget_queue_resize (GTK_WIDGET (self->text_view));

  akc_composer_update_state (self);

  if (self->source == NULL)
    {
      self->typed_without_source = gtk_text_buffer_get_char_count (self->buffer) > 0;
      self->send_with_source = self->send_with_source && self->typed_without_source;
    }
  else
    {
      g_autofree char *text = akc_composer_dup_text (self);

      self->syncing_input = TRUE;
      akc_chat_source_set_input (self->source, text);
      self->syncing_input = FALSE;
    }
}

/* Enter that does not send: a new line at the cursor, unless the line
 * there is empty already. */
static void
start_new_line (AkcComposer *self)
{
  GtkTextIter cursor;

  gtk_text_buffer_get_iter_at_mark (self->buffer, &cursor, gtk_text_buffer_get_insert (self->buffer));
  if (!gtk_text_iter_is_start (&cursor) && gtk_text_iter_backward_char (&cursor) &&
      gtk_text_iter_get_char (&cursor) != '\n')
    gtk_text_buffer_insert_at_cursor (self->buffer, "\n", 1);
}

static gboolean
on_key_pressed (GtkEventControllerKey *controller,
                guint                  keyval,
                guint                  keycode,
                GdkModifierType        state,
                AkcComposer           *self)
{
  /* Shift+Tab leaves the entry for the widget before the composer (the
   * transcript). GtkTextView, in GTK 4.8, keeps the focus on Shift+Tab
   * when it does not accept tabs: the move is made from outside it, with
   * the composer out of the focus chain for a moment. */
  if ((keyval == GDK_KEY_ISO_Left_Tab || ((keyval == GDK_KEY_Tab || keyval == GDK_KEY_KP_Tab) &&
                                          (state & GDK_SHIFT_MASK) != 0)) &&
      (state & (GDK_CONTROL_MASK | GDK_ALT_MASK)) == 0)
    {
      GtkRoot *root = gtk_widget_get_root (GTK_WIDGET (self));
      gboolean moved;

      if (root == NULL)
        return GDK_EVENT_PROPAGATE;
      gtk_root_set_focus (root, NULL);
      gtk_widget_set_can_focus (GTK_WIDGET (self), FALSE);
      moved = gtk_widget_child_focus (GTK_WIDGET (root), GTK_DIR_TAB_BACKWARD);
      gtk_widget_set_can_focus (GTK_WIDGET (self), TRUE);
      if (!moved)
        gtk_widget_grab_focus (GTK_WIDGET (self->text_view));
      return GDK_EVENT_STOP;
    }

  /* Escape stops a reply from the entry, where the person types. */
  if (keyval == GDK_KEY_Escape && (state & (GDK_SHIFT_MASK | GDK_CONTROL_MASK | GDK_ALT_MASK)) == 0 &&
      akc_composer_is_streaming (self))
    {
      akc_chat_source_stop (self->source);
      return GDK_EVENT_STOP;
    }

  if (keyval != GDK_KEY_Return && keyval != GDK_KEY_KP_Enter && keyval != GDK_KEY_ISO_Enter)
    return GDK_EVENT_PROPAGATE;

  /* Shift+Enter, and Enter with any other modifier, edit the text. */
  if ((state & (GDK_SHIFT_MASK | GDK_CONTROL_MASK | GDK_ALT_MASK)) != 0)
    return GDK_EVENT_PROPAGATE;

  /* While a reply streams the draft stays, and the hint says why; what
   * was typed before Enter stays apart from what comes after. */
  if (akc_composer_is_streaming (self))
    {
      start_new_line (self);
      return GDK_EVENT_STOP;
    }
  /* Before there is a conversation (the application still opens its
   * history): the draft goes as soon as there is one. */
  if (self->source == NULL && akc_composer_has_text (self))
    {
      start_new_line (self);
      self->send_with_source = TRUE;
      return GDK_EVENT_STOP;
    }
  akc_composer_send (self);

  /* Enter never inserts a newline, even when there is nothing to send. */
  return GDK_EVENT_STOP;
}

/* ------------------------------------------------------------------ */
/* Attachments                                                         */
/* ------------------------------------------------------------------ */

static void
set_attach_error (AkcComposer *self,
                  const char  *message)
{
  gtk_label_set_text (GTK_LABEL (self->attach_error), message != NULL ? message : "");
  gtk_widget_set_visible (self->attach_error, message != NULL);
}

static void
on_remove_clicked (GtkButton   *button,
                   AkcComposer *self)
{
  AkcAttachment *attachment = g_object_get_data (G_OBJECT (button), "akc-attachment");
  guint position;

  if (g_list_store_find (self->attachments, attachment, &position))
    g_list_store_remove (self->attachments, position);
  gtk_widget_grab_focus (GTK_WIDGET (self->text_view));
}

/* A chip: a thumbnail or a document icon, the name, and a remove button. */
static GtkWidget *
new_chip (gpointer item,
          gpointer user_data)
{
  AkcAttachment *attachment = item;
  AkcComposer *self = user_data;
  GtkWidget *chip = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 6);
  GtkWidget *label = gtk_label_new (akc_attachment_get_name (attachment));
  GtkWidget *remove = gtk_button_new_from_icon_name ("window-close-symbolic");
  GtkWidget *child;
  g_autofree char *remove_name = NULL;
  g_autofree char *description = NULL;

  gtk_widget_add_css_class (chip, "attachment-chip");
  gtk_widget_add_css_class (chip, "card");
  gtk_widget_set_halign (chip, GTK_ALIGN_START);
  if (akc_attachment_get_kind (attachment) == AKC_ATTACHMENT_KIND_IMAGE)
    {
      g_autoptr(GdkTexture) texture = gdk_texture_new_from_bytes (akc_attachment_get_data (attachment), NULL);

      if (texture != NULL)
        {
          /* A thumbnail: an image's natural size would be the picture's. */
          GtkWidget *thumbnail = gtk_image_new_from_paintable (GDK_PAINTABLE (texture));

          gtk_image_set_pixel_size (GTK_IMAGE (thumbnail), 32);
          gtk_widget_add_css_class (thumbnail, "thumbnail");
          gtk_box_append (GTK_BOX (chip), thumbnail);
        }
      else
        gtk_box_append (GTK_BOX (chip), gtk_image_new_from_icon_name ("image-x-generic-symbolic"));
      /* Translators: %u × %u is an image's size in pixels */
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

  /* Translators: %s is a file name */
  remove_name = g_strdup_printf (_("Remove %s"), akc_attachment_get_name (attachment));
  gtk_widget_set_tooltip_text (remove, remove_name);
  gtk_widget_add_css_class (remove, "flat");
  gtk_widget_add_css_class (remove, "circular");
  gtk_accessible_update_property (GTK_ACCESSIBLE (remove),
                                  GTK_ACCESSIBLE_PROPERTY_LABEL, remove_name,
                                  -1);
  g_object_set_data_full (G_OBJECT (remove), "akc-attachment", g_object_ref (attachment), g_object_unref);
  g_signal_connect_object (remove, "clicked", G_CALLBACK (on_remove_clicked), self, 0);
  gtk_box_append (GTK_BOX (chip), remove);

  child = gtk_flow_box_child_new ();
  gtk_flow_box_child_set_child (GTK_FLOW_BOX_CHILD (child), chip);
  gtk_widget_set_focusable (child, FALSE);
  gtk_accessible_update_property (GTK_ACCESSIBLE (child),
                                  GTK_ACCESSIBLE_PROPERTY_LABEL, akc_attachment_get_name (attachment),
                                  GTK_ACCESSIBLE_PROPERTY_DESCRIPTION, description,
                                  -1);

  return child;
}

static void
on_attachments_changed (AkcComposer *self)
{
  gtk_widget_set_visible (self->attachments_box, akc_composer_has_attachments (self));
  akc_composer_update_state (self);
}

typedef struct
{
  AkcComposer   *self;       /* a reference */
  GCancellable  *loading;    /* the batch it belongs to */
  gboolean       done;
  AkcAttachment *attachment; /* once done: what was read, or */
  GError        *error;      /* why it could not be */
} Load;

static void
load_free (Load *load)
{
  g_clear_object (&load->attachment);
  g_clear_error (&load->error);
  g_object_unref (load->loading);
  g_object_unref (load->self);
  g_free (load);
}

/* A read file joins the attachments, or is refused saying why. */
static void
akc_composer_add_loaded (AkcComposer *self,
                         Load        *load)
{
  AkcAttachment *attachment = load->attachment;

  self->n_loading--;
  if (attachment != NULL && !akc_composer_takes (self, akc_attachment_get_kind (attachment)))
    {
      g_autofree char *refusal = NULL;

      /* Translators: %s is a file name */
      refusal = g_strdup_printf (akc_attachment_get_kind (attachment) == AKC_ATTACHMENT_KIND_IMAGE
                                   ? _("The model of this conversation does not take images, so “%s” was not attached.")
                                   : _("This conversation does not take files, so “%s” was not attached."),
                                 akc_attachment_get_name (attachment));
      set_attach_error (self, refusal);
    }
  else if (attachment != NULL &&
           g_list_model_get_n_items (G_LIST_MODEL (self->attachments)) >= AKC_ATTACHMENT_MAX_PER_MESSAGE)
    {
      g_autofree char *refusal = NULL;

      /* Translators: %u is a number of attachments, %s a file name */
      refusal = g_strdup_printf (_("A message takes at most %u attachments, so “%s” was not attached."),
                                 (guint) AKC_ATTACHMENT_MAX_PER_MESSAGE, akc_attachment_get_name (attachment));
      set_attach_error (self, refusal);
    }
  else if (attachment != NULL)
    g_list_store_append (self->attachments, attachment);
  else
    set_attach_error (self, load->error->message);
}

static void
on_loaded (GObject      *source_object,
           GAsyncResult *result,
           gpointer      user_data)
{
  Load *load = user_data;
  AkcComposer *self = load->self;

  load->attachment = akc_attachment_load_finish (result, &load->error);
  load->done = TRUE;
  if (g_cancellable_is_cancelled (load->loading))
    {
      load_free (load);
      return;
    }

  /* A small file is read before a big one attached before it: the
   * attachments keep the order they were attached in, the order the
   * model reads them and the message shows them. */
  while (!g_queue_is_empty (&self->loads) && ((Load *) g_queue_peek_head (&self->loads))->done)
    {
      Load *head = g_queue_pop_head (&self->loads);

      akc_composer_add_loaded (self, head);
      load_free (head);
    }
  akc_composer_update_state (self);
}

static Load *
new_load (AkcComposer *self)
{
  Load *load = g_new0 (Load, 1);

  if (self->loading == NULL)
    self->loading = g_cancellable_new ();
  load->self = g_object_ref (self);
  load->loading = g_object_ref (self->loading);
  g_queue_push_tail (&self->loads, load);
  self->n_loading++;
  set_attach_error (self, NULL);
  akc_composer_update_state (self);

  return load;
}

/**
 * akc_composer_attach_file:
 * @self: a #AkcComposer
 * @file: an image or a text file
 *
 * Reads @file on a worker thread and adds it to the attachments of the
 * next message, as the Attach button, a drop and a paste do. A file that
 * cannot be sent is refused with a message shown in the composer.
 *
 * Since: 0.1
 */
void
akc_composer_attach_file (AkcComposer *self,
                          GFile       *file)
{
  Load *load;

  g_return_if_fail (AKC_IS_COMPOSER (self));
  g_return_if_fail (G_IS_FILE (file));

  load = new_load (self);
  akc_attachment_load_file_async (file, load->loading, on_loaded, load);
}

static void
attach_texture (AkcComposer *self,
                GdkTexture  *texture)
{
  g_autoptr(GBytes) png = gdk_texture_save_to_png_bytes (texture);
  Load *load = new_load (self);

  akc_attachment_load_bytes_async (_("Pasted image.png"), png, load->loading, on_loaded, load);
}

/**
 * akc_composer_get_attachments:
 * @self: a #AkcComposer
 *
 * Gets the attachments that go with the next message.
 *
 * Returns: (transfer none): a #GListModel of [class@Akc.Attachment]
 *
 * Since: 0.1
 */
GListModel *
akc_composer_get_attachments (AkcComposer *self)
{
  g_return_val_if_fail (AKC_IS_COMPOSER (self), NULL);

  return G_LIST_MODEL (self->attachments);
}

/**
 * akc_composer_get_n_loading:
 * @self: a #AkcComposer
 *
 * Gets how many files are still being read (or downscaled); the draft is
 * sent only once they are ready.
 *
 * Returns: the number of files being read
 *
 * Since: 0.1
 */
guint
akc_composer_get_n_loading (AkcComposer *self)
{
  g_return_val_if_fail (AKC_IS_COMPOSER (self), 0);

  return self->n_loading;
}

static void
on_chooser_response (GtkNativeDialog *chooser,
                     int              response,
                     AkcComposer     *self)
{
  if (response == GTK_RESPONSE_ACCEPT)
    {
      g_autoptr(GListModel) files = gtk_file_chooser_get_files (GTK_FILE_CHOOSER (chooser));
      guint n = g_list_model_get_n_items (files);

      for (guint i = 0; i < n; i++)
        {
          g_autoptr(GFile) file = g_list_model_get_item (files, i);

          akc_composer_attach_file (self, file);
        }
    }
  gtk_widget_grab_focus (GTK_WIDGET (self->text_view));
}

static void
attach_action (GtkWidget  *widget,
               const char *action_name,
               GVariant   *parameter)
{
  AkcComposer *self = AKC_COMPOSER (widget);
  GtkRoot *root = gtk_widget_get_root (widget);
  g_autoptr(GtkFileFilter) filter = gtk_file_filter_new ();

  if (self->chooser == NULL)
    {
      self->chooser = GTK_NATIVE_DIALOG (gtk_file_chooser_native_new (_("Attach Images or Text Files"),
                                                                      GTK_IS_WINDOW (root) ? GTK_WINDOW (root) : NULL,
                                                                      GTK_FILE_CHOOSER_ACTION_OPEN,
                                                                      _("_Attach"), NULL));
      gtk_file_chooser_set_select_multiple (GTK_FILE_CHOOSER (self->chooser), TRUE);
      gtk_file_filter_set_name (filter, _("Images and text files"));
      gtk_file_filter_add_mime_type (filter, "image/png");
      gtk_file_filter_add_mime_type (filter, "image/jpeg");
      gtk_file_filter_add_mime_type (filter, "image/webp");
      gtk_file_filter_add_mime_type (filter, "text/*");
      gtk_file_filter_add_mime_type (filter, "application/json");
      gtk_file_chooser_add_filter (GTK_FILE_CHOOSER (self->chooser), filter);
      g_signal_connect_object (self->chooser, "response", G_CALLBACK (on_chooser_response), self, 0);
    }
  gtk_native_dialog_show (self->chooser);
}

static gboolean
on_drop (GtkDropTarget *target,
         const GValue  *value,
         double         x,
         double         y,
         AkcComposer   *self)
{
  if (!akc_composer_can_attach (self))
    return FALSE;

  if (G_VALUE_HOLDS (value, GDK_TYPE_FILE_LIST))
    {
      for (GSList *l = g_value_get_boxed (value); l != NULL; l = l->next)
        akc_composer_attach_file (self, l->data);
      return TRUE;
    }
  if (G_VALUE_HOLDS (value, GDK_TYPE_TEXTURE))
    {
      attach_texture (self, g_value_get_object (value));
      return TRUE;
    }

  return FALSE;
}

static void
on_clipboard_files (GObject      *source_object,
                    GAsyncResult *result,
                    gpointer      user_data)
{
  g_autoptr(AkcComposer) self = user_data;
  g_autoptr(GError) error = NULL;
  const GValue *value = gdk_clipboard_read_value_finish (GDK_CLIPBOARD (source_object), result, &error);

  if (value == NULL || gtk_widget_get_root (GTK_WIDGET (self)) == NULL)
    return;
  for (GSList *l = g_value_get_boxed (value); l != NULL; l = l->next)
    akc_composer_attach_file (self, l->data);
}

static void
on_clipboard_texture (GObject      *source_object,
                      GAsyncResult *result,
                      gpointer      user_data)
{
  g_autoptr(AkcComposer) self = user_data;
  g_autoptr(GError) error = NULL;
  g_autoptr(GdkTexture) texture = gdk_clipboard_read_texture_finish (GDK_CLIPBOARD (source_object), result, &error);

  if (texture == NULL || gtk_widget_get_root (GTK_WIDGET (self)) == NULL)
    return;
  attach_texture (self, texture);
}

/* Files and images on the clipboard are attached; text is pasted. */
static void
on_paste_clipboard (GtkTextView *text_view,
                    AkcComposer *self)
{
  GdkClipboard *clipboard = gtk_widget_get_clipboard (GTK_WIDGET (text_view));
  GdkContentFormats *formats = gdk_clipboard_get_formats (clipboard);

  if (!akc_composer_can_attach (self))
    return;

  if (gdk_content_formats_contain_gtype (formats, GDK_TYPE_FILE_LIST))
    {
      g_signal_stop_emission_by_name (text_view, "paste-clipboard");
      gdk_clipboard_read_value_async (clipboard, GDK_TYPE_FILE_LIST, G_PRIORITY_DEFAULT, NULL,
                                      on_clipboard_files, g_object_ref (self));
    }
  else if (gdk_content_formats_contain_gtype (formats, GDK_TYPE_TEXTURE) &&
           !gdk_content_formats_contain_gtype (formats, G_TYPE_STRING))
    {
      g_signal_stop_emission_by_name (text_view, "paste-clipboard");
      gdk_clipboard_read_texture_async (clipboard, NULL, on_clipboard_texture, g_object_ref (self));
    }
}

static void
send_action (GtkWidget  *widget,
             const char *action_name,
             GVariant   *parameter)
{
  akc_composer_send (AKC_COMPOSER (widget));
}

static void
stop_action (GtkWidget  *widget,
             const char *action_name,
             GVariant   *parameter)
{
  AkcComposer *self = AKC_COMPOSER (widget);

  if (self->source != NULL)
    akc_chat_source_stop (self->source);
}

static gboolean
akc_composer_grab_focus (GtkWidget *widget)
{
  AkcComposer *self = AKC_COMPOSER (widget);

  return gtk_widget_grab_focus (GTK_WIDGET (self->text_view));
}

static void
akc_composer_dispose (GObject *object)
{
  AkcComposer *self = (AkcComposer *)object;

  GtkWidget *child;

  akc_composer_set_source (self, NULL);
  if (self->loading != NULL)
    g_cancellable_cancel (self->loading);
  g_clear_object (&self->loading);
  /* Those still being read free themselves once cancelled. */
  while (!g_queue_is_empty (&self->loads))
    {
      Load *load = g_queue_pop_head (&self->loads);

      if (load->done)
        load_free (load);
    }
  if (self->chooser != NULL)
    gtk_native_dialog_destroy (self->chooser);
  g_clear_object (&self->chooser);
  if (self->attachments_box != NULL)
    gtk_flow_box_bind_model (GTK_FLOW_BOX (self->attachments_box), NULL, NULL, NULL, NULL);
  g_clear_object (&self->attachments);
  gtk_widget_dispose_template (GTK_WIDGET (self), AKC_TYPE_COMPOSER);
  while ((child = gtk_widget_get_first_child (GTK_WIDGET (self))) != NULL)
    gtk_widget_unparent (child);

  G_OBJECT_CLASS (akc_composer_parent_class)->dispose (object);
}

static void
akc_composer_get_property (GObject    *object,
                           guint       prop_id,
                           GValue     *value,
                           GParamSpec *pspec)
{
  AkcComposer *self = AKC_COMPOSER (object);

  switch (prop_id)
    {
    case PROP_SOURCE:
      g_value_set_object (value, self->source);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
akc_composer_set_property (GObject      *object,
                           guint         prop_id,
                           const GValue *value,
                           GParamSpec   *pspec)
{
  AkcComposer *self = AKC_COMPOSER (object);

  switch (prop_id)
    {
    case PROP_SOURCE:
      akc_composer_set_source (self, g_value_get_object (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
akc_composer_class_init (AkcComposerClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = akc_composer_dispose;
  object_class->get_property = akc_composer_get_property;
  object_class->set_property = akc_composer_set_property;

  widget_class->grab_focus = akc_composer_grab_focus;

  /**
   * AkcComposer:source:
   *
   * The conversation the composer sends to.
   *
   * Since: 0.1
   */
  props[PROP_SOURCE] =
    g_param_spec_object ("source", NULL, NULL,
                         AKC_TYPE_CHAT_SOURCE,
                         (G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));

  g_object_class_install_properties (object_class, N_PROPS, props);

  gtk_widget_class_set_template_from_resource (widget_class, "/io/agentskit/AkcGtk/akc-composer.ui");
  gtk_widget_class_bind_template_child (widget_class, AkcComposer, text_view);
  gtk_widget_class_bind_template_child (widget_class, AkcComposer, placeholder);
  gtk_widget_class_bind_template_child (widget_class, AkcComposer, hint);
  gtk_widget_class_bind_template_child (widget_class, AkcComposer, send_button);
  gtk_widget_class_bind_template_child (widget_class, AkcComposer, stop_button);
  gtk_widget_class_bind_template_child (widget_class, AkcComposer, attach_button);
  gtk_widget_class_bind_template_child (widget_class, AkcComposer, attachments_box);
  gtk_widget_class_bind_template_child (widget_class, AkcComposer, attach_error);
  gtk_widget_class_bind_template_callback (widget_class, on_key_pressed);

  gtk_widget_class_install_action (widget_class, "composer.send", NULL, send_action);
  gtk_widget_class_install_action (widget_class, "composer.stop", NULL, stop_action);
  gtk_widget_class_install_action (widget_class, "composer.attach", NULL, attach_action);

  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
  gtk_widget_class_set_css_name (widget_class, "composer");
  gtk_widget_class_set_accessible_role (widget_class, GTK_ACCESSIBLE_ROLE_GROUP);
}

static void
akc_composer_init (AkcComposer *self)
{
  akc_gtk_init ();
  gtk_widget_init_template (GTK_WIDGET (self));

  self->buffer = gtk_text_view_get_buffer (self->text_view);
  g_signal_connect_object (self->buffer, "changed",
                           G_CALLBACK (on_buffer_changed),
                           self, G_CONNECT_SWAPPED);

  self->attachments = g_list_store_new (AKC_TYPE_ATTACHMENT);
  gtk_flow_box_bind_model (GTK_FLOW_BOX (self->attachments_box), G_LIST_MODEL (self->attachments),
                           new_chip, self, NULL);
  g_signal_connect_object (self->attachments, "items-changed",
                           G_CALLBACK (on_attachments_changed),
                           self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->text_view, "paste-clipboard",
                           G_CALLBACK (on_paste_clipboard),
                           self, 0);
  {
    GtkDropTarget *drop = gtk_drop_target_new (G_TYPE_INVALID, GDK_ACTION_COPY);

    gtk_drop_target_set_gtypes (drop, (GType[]) { GDK_TYPE_FILE_LIST, GDK_TYPE_TEXTURE }, 2);
    g_signal_connect_object (drop, "drop", G_CALLBACK (on_drop), self, 0);
    gtk_widget_add_controller (GTK_WIDGET (self), GTK_EVENT_CONTROLLER (drop));
  }

  gtk_accessible_update_property (GTK_ACCESSIBLE (self),
                                  GTK_ACCESSIBLE_PROPERTY_LABEL, _("Composer"),
                                  -1);
  gtk_accessible_update_property (GTK_ACCESSIBLE (self->text_view),
                                  GTK_ACCESSIBLE_PROPERTY_LABEL, _("Message"),
                                  GTK_ACCESSIBLE_PROPERTY_PLACEHOLDER, _("Type a message..."),
                                  GTK_ACCESSIBLE_PROPERTY_MULTI_LINE, TRUE,
                                  -1);

  akc_composer_update_state (self);
}

/**
 * akc_composer_new:
 *
 * Creates a composer with no conversation.
 *
 * Returns: (transfer none): a new floating #AkcComposer
 *
 * Since: 0.1
 */
GtkWidget *
akc_composer_new (void)
{
  return g_object_new (AKC_TYPE_COMPOSER, NULL);
}

/**
 * akc_composer_get_source:
 * @self: a #AkcComposer
 *
 * Gets the conversation the composer sends to.
 *
 * Returns: (transfer none) (nullable): the source
 *
 * Since: 0.1
 */
AkcChatSource *
akc_composer_get_source (AkcComposer *self)
{
  g_return_val_if_fail (AKC_IS_COMPOSER (self), NULL);

  return self->source;
}

/**
 * akc_composer_set_source:
 * @self: a #AkcComposer
 * @source: (nullable): the conversation to send to
 *
 * Sets the conversation the composer sends to. The composer shows the
 * source's draft and follows its status.
 *
 * Since: 0.1
 */
void
akc_composer_set_source (AkcComposer   *self,
                         AkcChatSource *source)
{
  g_return_if_fail (AKC_IS_COMPOSER (self));
  g_return_if_fail (source == NULL || AKC_IS_CHAT_SOURCE (source));

  if (self->source == source)
    return;

  if (self->source != NULL)
    {
      g_clear_signal_handler (&self->status_handler, self->source);
      g_clear_signal_handler (&self->input_handler, self->source);
      g_clear_object (&self->source);
    }

  if (source != NULL)
    {
      /* What was typed before there was a conversation goes to the first
       * one, after its own draft. */
      if (self->typed_without_source)
        {
          g_autofree char *typed = akc_composer_dup_text (self);
          g_autofree char *input = akc_chat_source_dup_input (source);
          g_autofree char *text = g_strconcat (input != NULL ? input : "", typed, NULL);

          self->typed_without_source = FALSE;
          akc_chat_source_set_input (source, text);
        }
      self->source = g_object_ref (source);
      self->status_handler = g_signal_connect_object (source, "notify::status",
                                                      G_CALLBACK (on_status_changed),
                                                      self, G_CONNECT_SWAPPED);
      self->input_handler = g_signal_connect_object (source, "notify::input",
                                                     G_CALLBACK (on_source_input_changed),
                                                     self, G_CONNECT_SWAPPED);
      on_source_input_changed (self);
    }

  akc_composer_update_state (self);
  g_object_notify_by_pspec (G_OBJECT (self), props[PROP_SOURCE]);

  /* Enter was pressed before: it sends now (or, while the conversation
   * streams a reply, the draft waits as it would have). */
  if (source != NULL && self->send_with_source)
    {
      self->send_with_source = FALSE;
      akc_composer_send (self);
    }
}

/**
 * akc_composer_dup_text:
 * @self: a #AkcComposer
 *
 * Gets a copy of the draft.
 *
 * Returns: (transfer full): the text in the entry
 *
 * Since: 0.1
 */
char *
akc_composer_dup_text (AkcComposer *self)
{
  GtkTextIter start, end;

  g_return_val_if_fail (AKC_IS_COMPOSER (self), NULL);

  gtk_text_buffer_get_bounds (self->buffer, &start, &end);

  return gtk_text_buffer_get_text (self->buffer, &start, &end, FALSE);
}

/**
 * akc_composer_set_text:
 * @self: a #AkcComposer
 * @text: (nullable): the new draft
 *
 * Replaces the draft.
 *
 * Since: 0.1
 */
void
akc_composer_set_text (AkcComposer *self,
                       const char  *text)
{
  g_return_if_fail (AKC_IS_COMPOSER (self));

  gtk_text_buffer_set_text (self->buffer, text != NULL ? text : "", -1);
}

/**
 * akc_composer_send:
 * @self: a #AkcComposer
 *
 * Sends the draft, with its attachments, as Enter does, and empties the
 * entry. Nothing happens when the draft is blank and has no attachment, a
 * reply is streaming, or an attachment is still being read: the draft
 * stays in the entry then, as it does when the conversation refuses it.
 *
 * Returns: %TRUE if the draft was sent
 *
 * Since: 0.1
 */
gboolean
akc_composer_send (AkcComposer *self)
{
  g_autofree char *text = NULL;
  g_autoptr(GError) error = NULL;
  gboolean has_attachments;

  g_return_val_if_fail (AKC_IS_COMPOSER (self), FALSE);

  has_attachments = akc_composer_has_attachments (self);
  if (self->source == NULL || akc_composer_is_streaming (self) || self->n_loading > 0 ||
      (!akc_composer_has_text (self) && !has_attachments))
    return FALSE;

  text = akc_composer_dup_text (self);
  /* The line breaks Enter left at the end while a reply streamed. */
  for (gsize end = strlen (text); end > 0 && text[end - 1] == '\n'; end--)
    text[end - 1] = '\0';
  if (has_attachments && !akc_composer_can_attach (self))
    {
      set_attach_error (self, _("This conversation cannot take attachments. Remove them to send the message."));
      return FALSE;
    }
  if (has_attachments)
    {
      guint n = g_list_model_get_n_items (G_LIST_MODEL (self->attachments));
      g_autoptr(GPtrArray) items = g_ptr_array_new_with_free_func (g_object_unref);

      for (guint i = 0; i < n; i++)
        g_ptr_array_add (items, g_list_model_get_item (G_LIST_MODEL (self->attachments), i));
      if (!akc_chat_send_with_attachments (AKC_CHAT (self->source), text,
                                           (AkcAttachment **) items->pdata, items->len, &error))
        {
          g_debug ("Draft not sent: %s", error->message);
          return FALSE;
        }
      g_list_store_remove_all (self->attachments);
    }
  else if (!akc_chat_source_send (self->source, text, &error))
    {
      g_debug ("Draft not sent: %s", error->message);
      return FALSE;
    }

  set_attach_error (self, NULL);
  akc_composer_set_text (self, NULL);

  return TRUE;
}
