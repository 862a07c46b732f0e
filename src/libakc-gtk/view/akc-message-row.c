/* akc-message-row.c
 *
 * SPDX-License-Identifier: MIT
 */

#include "config.h"

#include <glib/gi18n-lib.h>

#include "akc-gtk-main.h"
#include "akc-message-row.h"

/**
 * AkcMessageRow:
 *
 * Presents one [class@Akc.Message] of a transcript as a bubble.
 *
 * The row follows its message: while a reply streams in, the text is
 * updated at most once per frame however many chunks arrive, and it is
 * flushed at once when the message stops streaming. User and assistant
 * messages are told apart by the style classes `.user` and `.assistant`
 * and by the accessible label of the row ("You" or "Assistant").
 *
 * Rows are built by [func@MessageRow.factory_new] for a
 * [class@Gtk.ListView] over [property@Akc.ChatSource:messages].
 *
 * ## CSS nodes
 *
 * `AkcMessageRow` has a main CSS node named `messagerow` with a child node
 * `bubble`, and the style classes `.user`, `.assistant`, `.system`, `.tool`
 * after its role, and `.streaming`, `.failed` or `.cancelled` after its
 * status.
 */

struct _AkcMessageRow
{
  GtkWidget   parent_instance;

  GtkWidget  *bubble;
  GtkLabel   *author;
  GtkLabel   *text;
  GtkLabel   *note;

  AkcMessage *message;
  gulong      content_handler;
  gulong      status_handler;
  guint       tick_id;
};

G_DEFINE_FINAL_TYPE (AkcMessageRow, akc_message_row, GTK_TYPE_WIDGET)

enum {
  PROP_0,
  PROP_MESSAGE,
  N_PROPS
};

static GParamSpec *props[N_PROPS];

static const char * const role_classes[] = { "system", "user", "assistant", "tool" };
static const char * const status_classes[] = { "pending", "streaming", "complete", "failed", "cancelled" };

static const char *
role_name (AkcMessageRole role)
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

static void
akc_message_row_sync_text (AkcMessageRow *self)
{
  const char *content = self->message != NULL ? akc_message_get_content (self->message) : "";

  gtk_label_set_text (self->text, content);
  gtk_widget_set_visible (GTK_WIDGET (self->text), *content != '\0');
}

static gboolean
akc_message_row_tick (GtkWidget     *widget,
                      GdkFrameClock *frame_clock,
                      gpointer       user_data)
{
  AkcMessageRow *self = AKC_MESSAGE_ROW (widget);

  self->tick_id = 0;
  akc_message_row_sync_text (self);

  return G_SOURCE_REMOVE;
}

static void
akc_message_row_flush (AkcMessageRow *self)
{
  if (self->tick_id != 0)
    {
      gtk_widget_remove_tick_callback (GTK_WIDGET (self), self->tick_id);
      self->tick_id = 0;
    }

  akc_message_row_sync_text (self);
}

static void
on_content_changed (AkcMessageRow *self)
{
  /* Coalesce chunks: one label update per frame. An unmapped row has no
   * frame clock and is updated at once (it is cheap: nothing is drawn). */
  if (self->tick_id != 0)
    return;

  if (gtk_widget_get_mapped (GTK_WIDGET (self)))
    self->tick_id = gtk_widget_add_tick_callback (GTK_WIDGET (self), akc_message_row_tick, NULL, NULL);
  else
    akc_message_row_sync_text (self);
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
      /* A stopped reply is complete, as on the wire, and says it stopped. */
      stopped = akc_message_get_stopped (self->message);
    }

  for (guint i = 0; i < G_N_ELEMENTS (status_classes); i++)
    gtk_widget_remove_css_class (GTK_WIDGET (self), status_classes[i]);
  gtk_widget_add_css_class (GTK_WIDGET (self), stopped ? "cancelled" : status_classes[status]);

  if (stopped)
    note = _("Stopped");

  switch (status)
    {
    case AKC_MESSAGE_STATUS_ERROR:
      note = _("No answer");
      break;
    case AKC_MESSAGE_STATUS_PENDING:
    case AKC_MESSAGE_STATUS_STREAMING:
    case AKC_MESSAGE_STATUS_COMPLETE:
    default:
      break;
    }

  gtk_label_set_text (self->note, note != NULL ? note : "");
  gtk_widget_set_visible (GTK_WIDGET (self->note), note != NULL);

  gtk_accessible_update_state (GTK_ACCESSIBLE (self),
                               GTK_ACCESSIBLE_STATE_BUSY,
                               status == AKC_MESSAGE_STATUS_PENDING || status == AKC_MESSAGE_STATUS_STREAMING,
                               -1);

  /* The last chunks of a finished reply are shown at once. */
  if (status != AKC_MESSAGE_STATUS_STREAMING)
    akc_message_row_flush (self);
}

static void
akc_message_row_dispose (GObject *object)
{
  AkcMessageRow *self = (AkcMessageRow *)object;

  akc_message_row_set_message (self, NULL);
  gtk_widget_dispose_template (GTK_WIDGET (self), AKC_TYPE_MESSAGE_ROW);

  G_OBJECT_CLASS (akc_message_row_parent_class)->dispose (object);
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
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
akc_message_row_class_init (AkcMessageRowClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = akc_message_row_dispose;
  object_class->get_property = akc_message_row_get_property;
  object_class->set_property = akc_message_row_set_property;

  /**
   * AkcMessageRow:message:
   *
   * The message the row presents.
   */
  props[PROP_MESSAGE] =
    g_param_spec_object ("message", NULL, NULL,
                         AKC_TYPE_MESSAGE,
                         (G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));

  g_object_class_install_properties (object_class, N_PROPS, props);

  gtk_widget_class_set_template_from_resource (widget_class, "/io/agentskit/AkcGtk/akc-message-row.ui");
  gtk_widget_class_bind_template_child (widget_class, AkcMessageRow, bubble);
  gtk_widget_class_bind_template_child (widget_class, AkcMessageRow, author);
  gtk_widget_class_bind_template_child (widget_class, AkcMessageRow, text);
  gtk_widget_class_bind_template_child (widget_class, AkcMessageRow, note);

  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
  gtk_widget_class_set_css_name (widget_class, "messagerow");
  gtk_widget_class_set_accessible_role (widget_class, GTK_ACCESSIBLE_ROLE_GROUP);
}

static void
akc_message_row_init (AkcMessageRow *self)
{
  akc_gtk_init ();
  gtk_widget_init_template (GTK_WIDGET (self));
}

/**
 * akc_message_row_new:
 *
 * Creates a row with no message.
 *
 * Returns: (transfer full): a new #AkcMessageRow
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
 */
void
akc_message_row_set_message (AkcMessageRow *self,
                             AkcMessage    *message)
{
  AkcMessageRole role;
  const char *author;

  g_return_if_fail (AKC_IS_MESSAGE_ROW (self));
  g_return_if_fail (message == NULL || AKC_IS_MESSAGE (message));

  if (self->message == message)
    return;

  if (self->message != NULL)
    {
      g_clear_signal_handler (&self->content_handler, self->message);
      g_clear_signal_handler (&self->status_handler, self->message);
      g_clear_object (&self->message);
    }

  if (self->tick_id != 0)
    {
      gtk_widget_remove_tick_callback (GTK_WIDGET (self), self->tick_id);
      self->tick_id = 0;
    }

  if (message != NULL)
    {
      self->message = g_object_ref (message);
      self->content_handler = g_signal_connect_object (message, "notify::content",
                                                       G_CALLBACK (on_content_changed),
                                                       self, G_CONNECT_SWAPPED);
      self->status_handler = g_signal_connect_object (message, "notify::status",
                                                      G_CALLBACK (akc_message_row_sync_status),
                                                      self, G_CONNECT_SWAPPED);
    }

  role = message != NULL ? akc_message_get_role (message) : AKC_MESSAGE_ROLE_ASSISTANT;
  for (guint i = 0; i < G_N_ELEMENTS (role_classes); i++)
    gtk_widget_remove_css_class (GTK_WIDGET (self), role_classes[i]);
  gtk_widget_add_css_class (GTK_WIDGET (self), role_classes[role]);

  author = role_name (role);
  gtk_label_set_text (self->author, author);
  gtk_accessible_update_property (GTK_ACCESSIBLE (self),
                                  GTK_ACCESSIBLE_PROPERTY_LABEL, author,
                                  -1);

  gtk_widget_set_halign (self->bubble, role == AKC_MESSAGE_ROLE_USER ? GTK_ALIGN_END : GTK_ALIGN_START);

  akc_message_row_sync_text (self);
  akc_message_row_sync_status (self);

  g_object_notify_by_pspec (G_OBJECT (self), props[PROP_MESSAGE]);
}

/**
 * akc_message_row_get_text:
 * @self: a #AkcMessageRow
 *
 * Gets the text the row shows now. While a reply streams in it may lag
 * the message by up to one frame.
 *
 * Returns: (transfer none): the shown text
 */
const char *
akc_message_row_get_text (AkcMessageRow *self)
{
  g_return_val_if_fail (AKC_IS_MESSAGE_ROW (self), NULL);

  return gtk_label_get_text (self->text);
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
