/* test-composer.c: attachments in the composer (issue 15 item 3): files
 * read and downscaled off the main thread, chips with a remove button,
 * clear refusals, and the message they go with
 *
 * SPDX-License-Identifier: MIT
 */

#include "config.h"

#include <glib/gstdio.h>
#include <gtk/gtk.h>

#include "akc.h"
#include "akc-gtk.h"
#include "akc-test-ui.h"

static char *folder;

/* An adapter that sends attachments (images when asked to), in front of a
 * scripted one. */
#define TEST_TYPE_ADAPTER (test_adapter_get_type ())
G_DECLARE_FINAL_TYPE (TestAdapter, test_adapter, TEST, ADAPTER, GObject)

struct _TestAdapter
{
  GObject     parent_instance;
  AkcAdapter *script;
  gboolean    images;
};

static void test_adapter_iface_init (AkcAdapterInterface *iface);

G_DEFINE_FINAL_TYPE_WITH_CODE (TestAdapter, test_adapter, G_TYPE_OBJECT,
                               G_IMPLEMENT_INTERFACE (AKC_TYPE_ADAPTER, test_adapter_iface_init))

static void
test_adapter_stream (AkcAdapter        *adapter,
                     AkcAdapterRequest *request,
                     AkcStream         *stream)
{
  akc_adapter_stream (TEST_ADAPTER (adapter)->script, request, stream);
}

static AkcJsonValue *
test_adapter_get_capabilities (AkcAdapter *adapter)
{
  g_autofree char *text = g_strdup_printf ("{\"attachments\":{\"images\":%s,\"text\":true}}",
                                           TEST_ADAPTER (adapter)->images ? "true" : "false");

  return akc_json_value_parse (text, -1, NULL);
}

static void
test_adapter_iface_init (AkcAdapterInterface *iface)
{
  iface->stream = test_adapter_stream;
  iface->get_capabilities = test_adapter_get_capabilities;
}

static void
test_adapter_finalize (GObject *object)
{
  g_clear_object (&TEST_ADAPTER (object)->script);
  G_OBJECT_CLASS (test_adapter_parent_class)->finalize (object);
}

static void
test_adapter_class_init (TestAdapterClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = test_adapter_finalize;
}

static void
test_adapter_init (TestAdapter *self)
{
  self->script = akc_scripted_adapter_new ();
  self->images = TRUE;
}

static GFile *
write_file (const char   *name,
            const guint8 *data,
            gsize         length)
{
  g_autofree char *path = g_build_filename (folder, name, NULL);
  g_autoptr(GError) error = NULL;

  g_file_set_contents (path, (const char *) data, length, &error);
  g_assert_no_error (error);

  return g_file_new_for_path (path);
}

static GFile *
write_picture (const char *name,
               int         width,
               int         height,
               gboolean    alpha)
{
  g_autoptr(GdkPixbuf) pixbuf = gdk_pixbuf_new (GDK_COLORSPACE_RGB, alpha, 8, width, height);
  g_autofree char *path = g_build_filename (folder, name, NULL);
  g_autoptr(GError) error = NULL;

  gdk_pixbuf_fill (pixbuf, 0x3366ccff);
  gdk_pixbuf_save (pixbuf, path, "png", &error, NULL);
  g_assert_no_error (error);

  return g_file_new_for_path (path);
}

static void
wait_loaded (AkcComposer *composer)
{
  WAIT_UNTIL (akc_composer_get_n_loading (composer) <= 0);
}

static AkcAttachment *
attachment_named (GListModel *model,
                  const char *name)
{
  guint n = g_list_model_get_n_items (model);

  for (guint i = 0; i < n; i++)
    {
      g_autoptr(AkcAttachment) attachment = g_list_model_get_item (model, i);

      if (g_strcmp0 (akc_attachment_get_name (attachment), name) == 0)
        return attachment;
    }
  return NULL;
}

static void
test_attachments (void)
{
  g_autoptr(TestAdapter) front = g_object_new (TEST_TYPE_ADAPTER, NULL);
  AkcAdapter *adapter = front->script;
  g_autoptr(AkcChat) chat = akc_chat_new (AKC_ADAPTER (front));
  g_autoptr(AkcChat) plain = NULL;
  GtkWidget *window = gtk_window_new ();
  AkcComposer *composer = AKC_COMPOSER (akc_composer_new ());
  g_autoptr(GFile) big = write_picture ("big.png", 3000, 1500, FALSE);
  g_autoptr(GFile) clear = write_picture ("clear.png", 4096, 100, TRUE);
  g_autoptr(GFile) small = write_picture ("small.png", 10, 10, FALSE);
  g_autoptr(GFile) notes = write_file ("notes.txt", (const guint8 *) "Grüße\n", strlen ("Grüße\n"));
  g_autoptr(GFile) pdf = write_file ("report.pdf", (const guint8 *) "%PDF-1.7\n\xff\xfe\x00", 12);
  g_autoptr(GBytes) small_bytes = NULL;
  GListModel *attachments = akc_composer_get_attachments (composer);
  GtkWidget *error_label = find_widget (GTK_WIDGET (composer), has_css_class, "composer-attach-error");
  GtkWidget *remove;
  AkcAttachment *attachment;
  GListModel *sent;
  g_autoptr(AkcMessage) question = NULL;

  gtk_window_set_child (GTK_WINDOW (window), GTK_WIDGET (composer));
  gtk_window_present (GTK_WINDOW (window));

  /* No conversation, or one whose adapter sends no attachments: no Attach. */
  g_assert_false (gtk_widget_is_sensitive (find_widget (GTK_WIDGET (composer), is_button_with_tooltip, "Attach Images or Text Files")));
  plain = akc_chat_new (adapter);
  akc_composer_set_source (composer, AKC_CHAT_SOURCE (plain));
  g_assert_false (gtk_widget_is_sensitive (find_widget (GTK_WIDGET (composer), is_button_with_tooltip, "Attach Images or Text Files")));
  akc_composer_set_source (composer, AKC_CHAT_SOURCE (chat));
  g_assert_true (gtk_widget_is_sensitive (find_widget (GTK_WIDGET (composer), is_button_with_tooltip, "Attach Images or Text Files")));

  akc_composer_attach_file (composer, big);
  akc_composer_attach_file (composer, clear);
  akc_composer_attach_file (composer, small);
  akc_composer_attach_file (composer, notes);
  /* Sending waits for the files. */
  g_assert_false (akc_composer_send (composer));
  wait_loaded (composer);
  g_assert_cmpuint (g_list_model_get_n_items (attachments), ==, 4);

  /* A big photo is downscaled to 2048 px on its long side, as JPEG; one
   * with transparency stays PNG; a small one is sent as it is. */
  attachment = attachment_named (attachments, "big.png");
  g_assert_cmpuint (akc_attachment_get_width (attachment), ==, 2048);
  g_assert_cmpuint (akc_attachment_get_height (attachment), ==, 1024);
  g_assert_cmpstr (akc_attachment_get_mime_type (attachment), ==, "image/jpeg");
  attachment = attachment_named (attachments, "clear.png");
  g_assert_cmpuint (akc_attachment_get_width (attachment), ==, 2048);
  g_assert_cmpuint (akc_attachment_get_height (attachment), ==, 50);
  g_assert_cmpstr (akc_attachment_get_mime_type (attachment), ==, "image/png");
  attachment = attachment_named (attachments, "small.png");
  small_bytes = g_file_load_bytes (small, NULL, NULL, NULL);
  g_assert_true (g_bytes_equal (akc_attachment_get_data (attachment), small_bytes));
  g_assert_cmpint (akc_attachment_get_kind (attachment_named (attachments, "notes.txt")), ==, AKC_ATTACHMENT_KIND_TEXT);

  /* Each is a chip with its name and a remove button. */
  g_assert_nonnull (find_widget (GTK_WIDGET (composer), is_visible_label, "notes.txt"));
  g_assert_nonnull (find_widget (GTK_WIDGET (composer), is_visible_label, "big.png"));
  g_assert_false (gtk_widget_get_visible (error_label));

  /* A file that cannot be sent is refused, by name; nothing else changes. */
  akc_composer_attach_file (composer, pdf);
  wait_loaded (composer);
  g_assert_true (gtk_widget_get_visible (error_label));
  g_assert_nonnull (strstr (gtk_label_get_text (GTK_LABEL (error_label)), "report.pdf"));
  g_assert_cmpuint (g_list_model_get_n_items (attachments), ==, 4);
  gtk_test_accessible_assert_role (GTK_ACCESSIBLE (error_label), GTK_ACCESSIBLE_ROLE_ALERT);

  /* A model that takes no images: an image is refused as it comes, a
   * text file is taken. */
  front->images = FALSE;
  akc_composer_attach_file (composer, small);
  wait_loaded (composer);
  g_assert_nonnull (strstr (gtk_label_get_text (GTK_LABEL (error_label)), "does not take images"));
  g_assert_cmpuint (g_list_model_get_n_items (attachments), ==, 4);
  front->images = TRUE;

  remove = find_widget (GTK_WIDGET (composer), is_button_with_tooltip, "Remove clear.png");
  g_assert_nonnull (remove);
  gtk_test_accessible_assert_property (GTK_ACCESSIBLE (remove), GTK_ACCESSIBLE_PROPERTY_LABEL, "Remove clear.png");
  g_signal_emit_by_name (remove, "clicked");
  g_assert_cmpuint (g_list_model_get_n_items (attachments), ==, 3);
  g_assert_null (attachment_named (attachments, "clear.png"));

  /* No words: the attachments alone are a message. */
  akc_scripted_adapter_begin_turn (AKC_SCRIPTED_ADAPTER (adapter));
  akc_scripted_adapter_add_text (AKC_SCRIPTED_ADAPTER (adapter), "Seen.", 0);
  akc_scripted_adapter_add_done (AKC_SCRIPTED_ADAPTER (adapter), 0);
  g_assert_true (akc_composer_send (composer));
  g_assert_cmpuint (g_list_model_get_n_items (attachments), ==, 0);
  g_assert_false (gtk_widget_get_visible (error_label));
  g_assert_null (find_widget (GTK_WIDGET (composer), is_visible_label, "notes.txt"));
  WAIT_UNTIL (akc_chat_source_get_status (AKC_CHAT_SOURCE (chat)) != AKC_CHAT_STATUS_STREAMING);

  question = g_list_model_get_item (akc_chat_source_get_messages (AKC_CHAT_SOURCE (chat)), 0);
  sent = akc_message_get_attachments (question);
  g_assert_cmpuint (g_list_model_get_n_items (sent), ==, 3);
  g_assert_nonnull (attachment_named (sent, "big.png"));
  g_assert_nonnull (attachment_named (sent, "notes.txt"));
  {
    g_autoptr(AkcMessage) asked = g_list_model_get_item (akc_scripted_adapter_get_call_messages (AKC_SCRIPTED_ADAPTER (adapter), 0), 0);

    /* The adapter got the person's message with them. */
    g_assert_cmpuint (g_list_model_get_n_items (akc_message_get_attachments (asked)), ==, 3);
  }

  /* The message shows them as chips too. */
  {
    GtkWidget *row = akc_message_row_new ();

    gtk_window_set_child (GTK_WINDOW (window), row);
    akc_message_row_set_message (AKC_MESSAGE_ROW (row), question);
    g_assert_nonnull (find_widget (row, is_visible_label, "notes.txt"));
    g_assert_nonnull (find_widget (row, is_visible_label, "big.png"));
    find_by_type (row, GTK_TYPE_IMAGE);

    /* On the person's side, and read in the order they were attached
     * and sent: left to right, on one line in a row that has room. */
    gtk_widget_set_size_request (row, 900, -1);
    wait_frames (window, 3);
    {
      const char *order[] = { "big.png", "small.png", "notes.txt" };
      graphene_point_t origin = GRAPHENE_POINT_INIT (0, 0);
      graphene_point_t end = GRAPHENE_POINT_INIT (0, 0);
      float previous = -1;

      for (guint i = 0; i < G_N_ELEMENTS (order); i++)
        {
          GtkWidget *label = find_widget (row, is_visible_label, order[i]);
          graphene_point_t at;

          g_assert_cmpstr (akc_attachment_get_name (g_list_model_get_item (sent, i)), ==, order[i]);
          g_object_unref (g_list_model_get_item (sent, i));
          g_assert_true (gtk_widget_compute_point (label, row, &origin, &at));
          g_test_message ("%s at %.0f", order[i], at.x);
          g_assert_cmpfloat (at.x, >, previous);
          previous = at.x;
        }
      /* The last chip ends at the row's end, the person's side, where
       * the bubble of their words does. */
      {
        GtkWidget *chip = gtk_widget_get_parent (find_widget (row, is_visible_label, "notes.txt"));
        /* (the flow box child's padding apart) */
        int room = 10;

        g_assert_true (gtk_widget_has_css_class (chip, "attachment-chip"));
        g_assert_true (gtk_widget_compute_point (chip, row, &GRAPHENE_POINT_INIT (gtk_widget_get_width (chip), 0), &end));
        g_test_message ("row %d wide, the last chip ends at %.0f", gtk_widget_get_width (row), end.x);
        g_assert_cmpfloat (end.x, >=, gtk_widget_get_width (row) - room);
      }
    }
  }

  gtk_window_destroy (GTK_WINDOW (window));
}

static gboolean
has_webp_loader (void)
{
  GSList *formats = gdk_pixbuf_get_formats ();
  gboolean webp = FALSE;

  for (GSList *l = formats; l != NULL; l = l->next)
    {
      g_autofree char *name = gdk_pixbuf_format_get_name (l->data);

      webp |= g_strcmp0 (name, "webp") == 0;
    }
  g_slist_free (formats);
  return webp;
}

/* A lossless WebP's header (RIFF, VP8L) of @width x @height: what the
 * composer reads the size from. */
static GFile *
write_webp_header (const char *name,
                   guint32     width,
                   guint32     height)
{
  guint8 data[30] = { 'R', 'I', 'F', 'F', 22, 0, 0, 0, 'W', 'E', 'B', 'P',
                      'V', 'P', '8', 'L', 10, 0, 0, 0, 0x2f };
  guint32 bits = (width - 1) | ((height - 1) << 14);

  data[21] = bits & 0xff;
  data[22] = (bits >> 8) & 0xff;
  data[23] = (bits >> 16) & 0xff;
  data[24] = (bits >> 24) & 0xff;
  return write_file (name, data, sizeof data);
}

/* A WebP over 2048 px is made smaller where GdkPixbuf has a WebP loader;
 * without one (Debian 12's default) it is refused, saying why and what to
 * do, and nothing else changes. */
static void
test_big_webp (void)
{
  g_autoptr(TestAdapter) front = g_object_new (TEST_TYPE_ADAPTER, NULL);
  g_autoptr(AkcChat) chat = akc_chat_new (AKC_ADAPTER (front));
  GtkWidget *window = gtk_window_new ();
  AkcComposer *composer = AKC_COMPOSER (akc_composer_new ());
  GListModel *attachments = akc_composer_get_attachments (composer);
  GtkWidget *error_label = find_widget (GTK_WIDGET (composer), has_css_class, "composer-attach-error");
  g_autoptr(GFile) fits = write_webp_header ("fits.webp", 2048, 30);
  g_autoptr(GFile) big = NULL;

  gtk_window_set_child (GTK_WINDOW (window), GTK_WIDGET (composer));
  gtk_window_present (GTK_WINDOW (window));
  akc_composer_set_source (composer, AKC_CHAT_SOURCE (chat));

  /* Within the bound: sent as it is, loader or not. */
  akc_composer_attach_file (composer, fits);
  wait_loaded (composer);
  g_assert_cmpuint (g_list_model_get_n_items (attachments), ==, 1);
  g_assert_cmpstr (akc_attachment_get_mime_type (attachment_named (attachments, "fits.webp")), ==, "image/webp");

  if (has_webp_loader ())
    {
      g_autoptr(GdkPixbuf) pixbuf = gdk_pixbuf_new (GDK_COLORSPACE_RGB, FALSE, 8, 3000, 60);
      g_autofree char *path = g_build_filename (folder, "big.webp", NULL);
      g_autoptr(GError) error = NULL;
      AkcAttachment *attachment;

      gdk_pixbuf_fill (pixbuf, 0x3366ccff);
      gdk_pixbuf_save (pixbuf, path, "webp", &error, NULL);
      g_assert_no_error (error);
      big = g_file_new_for_path (path);
      akc_composer_attach_file (composer, big);
      wait_loaded (composer);
      g_assert_cmpuint (g_list_model_get_n_items (attachments), ==, 2);
      attachment = attachment_named (attachments, "big.webp");
      g_assert_cmpuint (akc_attachment_get_width (attachment), ==, 2048);
      g_assert_false (gtk_widget_get_visible (error_label));
    }
  else
    {
      const char *text;

      big = write_webp_header ("big.webp", 4000, 3000);
      akc_composer_attach_file (composer, big);
      wait_loaded (composer);
      g_assert_cmpuint (g_list_model_get_n_items (attachments), ==, 1);
      g_assert_true (gtk_widget_get_visible (error_label));
      text = gtk_label_get_text (GTK_LABEL (error_label));
      g_assert_nonnull (strstr (text, "big.webp"));
      g_assert_nonnull (strstr (text, "2048 pixels"));
      g_assert_nonnull (strstr (text, "no WebP image loader"));
      g_assert_nonnull (strstr (text, "PNG or JPEG"));
    }

  gtk_window_destroy (GTK_WINDOW (window));
}

/* Enter on @widget, as its key controllers (or its parents') see it. */
static gboolean
press_return (GtkWidget *widget)
{
  for (; widget != NULL; widget = gtk_widget_get_parent (widget))
    {
      g_autoptr(GListModel) controllers = gtk_widget_observe_controllers (widget);

      for (guint i = 0; i < g_list_model_get_n_items (controllers); i++)
        {
          g_autoptr(GObject) controller = g_list_model_get_item (controllers, i);
          gboolean handled = FALSE;

          if (!GTK_IS_EVENT_CONTROLLER_KEY (controller))
            continue;
          g_signal_emit_by_name (controller, "key-pressed", GDK_KEY_Return, 0, 0, &handled);
          if (handled)
            return TRUE;
        }
    }

  return FALSE;
}

/* What is typed before the composer has a conversation (an application
 * still opening its history) is not dropped: the entry takes it, and the
 * first conversation gets it, after its own draft (issue 13 item 1). */
static void
test_typed_before_a_source (void)
{
  g_autoptr(AkcAdapter) adapter = akc_scripted_adapter_new ();
  g_autoptr(AkcChat) chat = akc_chat_new (adapter);
  g_autoptr(AkcChat) drafted = akc_chat_new (adapter);
  GtkWidget *window = gtk_window_new ();
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 0);
  AkcComposer *composer = AKC_COMPOSER (akc_composer_new ());
  AkcComposer *second = AKC_COMPOSER (akc_composer_new ());
  GtkWidget *text_view = find_widget (GTK_WIDGET (composer), is_type, GSIZE_TO_POINTER (GTK_TYPE_TEXT_VIEW));
  GtkTextBuffer *buffer = gtk_text_view_get_buffer (GTK_TEXT_VIEW (text_view));
  g_autofree char *text = NULL;
  g_autofree char *input = NULL;

  gtk_box_append (GTK_BOX (box), GTK_WIDGET (composer));
  gtk_box_append (GTK_BOX (box), GTK_WIDGET (second));
  gtk_window_set_child (GTK_WINDOW (window), box);
  gtk_window_present (GTK_WINDOW (window));

  g_assert_true (gtk_widget_is_sensitive (text_view));
  g_assert_true (gtk_widget_grab_focus (GTK_WIDGET (composer)));
  gtk_text_buffer_insert_at_cursor (buffer, "hello", -1);
  akc_composer_set_source (composer, AKC_CHAT_SOURCE (chat));
  text = akc_composer_dup_text (composer);
  input = akc_chat_source_dup_input (AKC_CHAT_SOURCE (chat));
  g_assert_cmpstr (text, ==, "hello");
  g_assert_cmpstr (input, ==, "hello");
  g_clear_pointer (&text, g_free);
  g_clear_pointer (&input, g_free);
  g_assert_true (akc_composer_send (composer));
  wait_until_idle (AKC_CHAT_SOURCE (chat));
  text = akc_composer_dup_text (composer);
  g_assert_cmpstr (text, ==, "");
  g_clear_pointer (&text, g_free);

  /* Enter before there is a conversation is not lost either: the draft
   * goes as soon as there is one. */
  akc_composer_set_source (composer, NULL);
  akc_composer_set_text (composer, NULL);
  gtk_text_buffer_insert_at_cursor (buffer, "sent at once", -1);
  g_assert_true (gtk_widget_grab_focus (GTK_WIDGET (composer)));
  g_assert_true (press_return (text_view));
  {
    g_autoptr(AkcChat) later = akc_chat_new (adapter);
    GListModel *messages = akc_chat_source_get_messages (AKC_CHAT_SOURCE (later));
    g_autoptr(AkcMessage) first = NULL;

    akc_composer_set_source (composer, AKC_CHAT_SOURCE (later));
    g_assert_cmpuint (g_list_model_get_n_items (messages), >=, 1);
    first = g_list_model_get_item (messages, 0);
    g_assert_cmpstr (akc_message_get_content (first), ==, "sent at once");
    wait_until_idle (AKC_CHAT_SOURCE (later));
    text = akc_composer_dup_text (composer);
    g_assert_cmpstr (text, ==, "");
    g_clear_pointer (&text, g_free);
    akc_composer_set_source (composer, NULL);
  }

  /* A conversation with a draft of its own keeps it, and what was typed
   * follows it. */
  akc_chat_source_set_input (AKC_CHAT_SOURCE (drafted), "Draft, ");
  text_view = find_widget (GTK_WIDGET (second), is_type, GSIZE_TO_POINTER (GTK_TYPE_TEXT_VIEW));
  gtk_text_buffer_insert_at_cursor (gtk_text_view_get_buffer (GTK_TEXT_VIEW (text_view)), "then more", -1);
  akc_composer_set_source (second, AKC_CHAT_SOURCE (drafted));
  text = akc_composer_dup_text (second);
  g_assert_cmpstr (text, ==, "Draft, then more");

  gtk_window_destroy (GTK_WINDOW (window));
}

typedef struct
{
  GtkTextView *text_view;
  guint        typed;
} TypedInFrame;

/* A key typed into the entry as GTK does it (the text at the cursor, then
 * the cursor brought into sight), inside a frame, before its layout. Keys
 * reach the entry inside a frame when they come faster than frames: GDK
 * hands the key events that came meanwhile over at the start of the next
 * frame (its flush-events phase, just before before-paint). */
static void
type_in_frame (GdkFrameClock *clock,
               TypedInFrame  *typed)
{
  GtkTextBuffer *buffer = gtk_text_view_get_buffer (typed->text_view);

  if (typed->typed++ > 0)
    return;
  gtk_text_buffer_insert_at_cursor (buffer, "typed in a frame\n", -1);
  gtk_text_view_scroll_mark_onscreen (typed->text_view, gtk_text_buffer_get_insert (buffer));
}

static gboolean
cursor_in_sight (GtkTextView *text_view)
{
  GdkRectangle cursor, visible;

  gtk_text_view_get_cursor_locations (text_view, NULL, &cursor, NULL);
  gtk_text_view_get_visible_rect (text_view, &visible);

  return cursor.y >= visible.y && cursor.y + cursor.height <= visible.y + visible.height;
}

/* The draft is laid out, taller than the entry, and the entry scrolled to
 * the cursor: cursor_in_sight() alone holds before the text view has laid
 * anything out (an empty visible area and a cursor at its top), and the
 * text view lays a draft out from an idle below the frames' priority, so
 * a number of frames is no sign of it (the scrollbar was not there yet
 * two frames later on a loaded machine). */
static gboolean
scrolls_to_cursor (GtkTextView *text_view)
{
  GtkWidget *scroller = gtk_widget_get_ancestor (GTK_WIDGET (text_view), GTK_TYPE_SCROLLED_WINDOW);
  GtkAdjustment *vadjustment = gtk_scrolled_window_get_vadjustment (GTK_SCROLLED_WINDOW (scroller));

  return gtk_widget_get_mapped (gtk_scrolled_window_get_vscrollbar (GTK_SCROLLED_WINDOW (scroller))) &&
         gtk_adjustment_get_upper (vadjustment) > gtk_adjustment_get_page_size (vadjustment) &&
         gtk_adjustment_get_value (vadjustment) > 0 &&
         cursor_in_sight (text_view);
}

/* Text typed into a composer that scrolls (its draft is taller than the
 * entry's largest height) during a frame is laid out in that frame, before
 * it is drawn: the scrollbar is drawn with an allocation (no "Trying to
 * snapshot GtkGizmo without a current allocation", fatal here), and the
 * entry scrolls to the cursor (issue #16 item 13). */
static void
test_typed_in_a_frame (void)
{
  GtkWidget *window = gtk_window_new ();
  AkcComposer *composer = AKC_COMPOSER (akc_composer_new ());
  GtkWidget *text_view = find_widget (GTK_WIDGET (composer), is_type, GSIZE_TO_POINTER (GTK_TYPE_TEXT_VIEW));
  GtkWidget *scroller = find_widget (GTK_WIDGET (composer), is_type, GSIZE_TO_POINTER (GTK_TYPE_SCROLLED_WINDOW));
  GtkTextBuffer *buffer = gtk_text_view_get_buffer (GTK_TEXT_VIEW (text_view));
  GtkAdjustment *vadjustment = gtk_scrolled_window_get_vadjustment (GTK_SCROLLED_WINDOW (scroller));
  g_autoptr(GString) draft = g_string_new (NULL);
  TypedInFrame typed = { GTK_TEXT_VIEW (text_view), 0 };
  g_autofree char *text = NULL;
  GdkFrameClock *clock;
  gulong handler;
  double scrolled;

  /* Without animations: a running CSS transition (the overlay
   * scrollbar's, for a while after it shows) restyles the scrollbar in
   * every frame, which allocates the scrolled window again and hides what
   * is tested here; and the entry scrolls at once. */
  g_object_set (gtk_settings_get_default (), "gtk-enable-animations", FALSE, NULL);
  for (guint i = 1; i <= 30; i++)
    g_string_append_printf (draft, "line %u\n", i);
  gtk_window_set_default_size (GTK_WINDOW (window), 480, 400);
  {
    GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 0);
    GtkWidget *above = gtk_label_new ("Above");

    gtk_widget_set_vexpand (above, TRUE);
    gtk_box_append (GTK_BOX (box), above);
    gtk_box_append (GTK_BOX (box), GTK_WIDGET (composer));
    gtk_window_set_child (GTK_WINDOW (window), box);
  }
  gtk_window_present (GTK_WINDOW (window));
  akc_composer_set_text (composer, draft->str);
  g_assert_true (gtk_widget_grab_focus (GTK_WIDGET (composer)));
  /* The cursor at the end, in sight (asked for while the new text is
   * not laid out yet: the text view scrolls when it lays it out). */
  {
    GtkTextIter end;

    gtk_text_buffer_get_end_iter (buffer, &end);
    gtk_text_buffer_place_cursor (buffer, &end);
    gtk_text_view_scroll_mark_onscreen (GTK_TEXT_VIEW (text_view), gtk_text_buffer_get_insert (buffer));
  }
  WAIT_FOR (scrolls_to_cursor, text_view);
  wait_frames (window, 2);
  g_assert_true (gtk_widget_get_mapped (gtk_scrolled_window_get_vscrollbar (GTK_SCROLLED_WINDOW (scroller))));
  g_assert_cmpfloat (gtk_adjustment_get_upper (vadjustment), >, gtk_adjustment_get_page_size (vadjustment));

  clock = gtk_widget_get_frame_clock (window);
  handler = g_signal_connect (clock, "before-paint", G_CALLBACK (type_in_frame), &typed);
  gtk_widget_queue_draw (text_view);
  wait_frames (window, 3);
  g_signal_handler_disconnect (clock, handler);

  g_assert_cmpuint (typed.typed, >, 0);
  text = akc_composer_dup_text (composer);
  g_assert_true (g_str_has_suffix (text, "line 30\ntyped in a frame\n"));
  WAIT_FOR (cursor_in_sight, text_view);

  /* And the entry still scrolls, back to a cursor at the start. */
  scrolled = gtk_adjustment_get_value (vadjustment);
  g_assert_cmpfloat (scrolled, >, 0);
  {
    GtkTextIter start;

    gtk_text_buffer_get_start_iter (buffer, &start);
    gtk_text_buffer_place_cursor (buffer, &start);
    gtk_text_view_scroll_mark_onscreen (GTK_TEXT_VIEW (text_view), gtk_text_buffer_get_insert (buffer));
  }
  WAIT_FOR (cursor_in_sight, text_view);
  g_assert_cmpfloat (gtk_adjustment_get_value (vadjustment), <, scrolled);

  gtk_window_destroy (GTK_WINDOW (window));
  g_object_set (gtk_settings_get_default (), "gtk-enable-animations", TRUE, NULL);
}

int
main (int   argc,
      char *argv[])
{
  int status;

  gtk_test_init (&argc, &argv, NULL);
  folder = g_dir_make_tmp ("akc-test-composer-XXXXXX", NULL);
  g_assert_nonnull (folder);

  g_test_add_func ("/composer/attachments", test_attachments);
  g_test_add_func ("/composer/big-webp", test_big_webp);
  g_test_add_func ("/composer/typed-before-a-source", test_typed_before_a_source);
  g_test_add_func ("/composer/typed-in-a-frame", test_typed_in_a_frame);
  status = g_test_run ();

  {
    g_autoptr(GDir) dir = g_dir_open (folder, 0, NULL);
    const char *name;

    while (dir != NULL && (name = g_dir_read_name (dir)) != NULL)
      {
        g_autofree char *path = g_build_filename (folder, name, NULL);

        g_unlink (path);
      }
    g_rmdir (folder);
  }
  g_free (folder);

  return status;
}
