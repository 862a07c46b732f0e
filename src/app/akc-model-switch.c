/* akc-model-switch.c: the model of a provider conversation, in the
 * header bar, and the models it can switch to
 *
 * SPDX-License-Identifier: MIT
 */

#include "config.h"

#include <glib/gi18n.h>
#include <adwaita.h>

#include "akc-backend.h"
#include "akc-model-switch.h"
#include "akc-application.h"

/*
 * AkcModelSwitch:
 *
 * A menu button in the header bar, under the conversation's title as its
 * subtitle, that shows the model a model provider's conversation is held
 * with; its tooltip and accessible name say the model whole. Opening it (a click, or Enter or
 * Space when it has the keyboard) asks the provider for its models
 * (`GET /models`, `/api/tags` or Anthropic's list, through
 * akc_provider_adapter_list_models_async()) and lists them; the arrow
 * keys move through them and Enter (or a click) switches the
 * conversation to one, for its next turn and every later one: the
 * session records it with the conversation. When the list cannot be
 * fetched, the popover says why, in words that say what to do, and
 * offers to try again; the model in use stays.
 *
 * The popover also says whether the model takes images: a switch for an
 * OpenAI-compatible or Anthropic model (those providers do not say it;
 * akc_backend_set_model_takes_images()), what Ollama said for an Ollama
 * model.
 */

struct _AkcModelSwitch
{
  GtkWidget            parent_instance;

  GtkMenuButton       *button;
  GtkLabel            *button_label;
  GtkPopover          *popover;
  GtkLabel            *provider_label;
  GtkLabel            *note_label;
  GtkWidget           *images_box;
  GtkSwitch           *images_switch;
  GtkLabel            *images_label;
  gulong               images_handler;
  GtkWidget           *loading;
  GtkLabel            *error_label;
  GtkWidget           *retry;
  GtkWidget           *scroller;
  GtkListBox          *list;

  AkcAppSession       *session;
  AkcConversationItem *item;
  gulong               model_handler;
  GCancellable        *listing;
};

G_DEFINE_FINAL_TYPE (AkcModelSwitch, akc_model_switch, GTK_TYPE_WIDGET)

enum {
  CHOSEN,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

static AkcBackend *
backend_of (AkcModelSwitch *self)
{
  return self->session != NULL ? akc_app_session_get_backend (self->session, AKC_BACKEND_KIND_PROVIDER) : NULL;
}

/* The provider the conversation was held with is not the one set up now. */
static gboolean
provider_changed (AkcModelSwitch *self)
{
  AkcBackend *backend = backend_of (self);
  const char *url = self->item != NULL ? akc_conversation_item_get_provider_url (self->item) : NULL;

  return url != NULL && backend != NULL && g_strcmp0 (url, akc_backend_get_endpoint (backend)) != 0;
}

static void
update_button (AkcModelSwitch *self)
{
  const char *model = self->item != NULL ? akc_conversation_item_get_model (self->item) : NULL;
  g_autofree char *name = NULL;
  g_autofree char *tooltip = NULL;

  gtk_label_set_text (self->button_label, model != NULL ? model : _("Choose a Model"));
  /* Short names whole; a long one is cut at its end (the popover, the
   * tooltip and the accessible name have it whole), but never shorter
   * than 6 characters: with more, the header of a long name no longer
   * fits the window's narrow 360 px (16 made it 443 px). */
  gtk_label_set_width_chars (self->button_label,
                             (int) MIN (g_utf8_strlen (gtk_label_get_text (self->button_label), -1), 6));
  /* Translators: the accessible name of the header's model button; %s is
   * a model name such as llama3.2 */
  name = model != NULL ? g_strdup_printf (_("Model: %s"), model) : g_strdup (_("Choose a Model"));
  gtk_accessible_update_property (GTK_ACCESSIBLE (self->button), GTK_ACCESSIBLE_PROPERTY_LABEL, name, -1);
  tooltip = g_strdup_printf ("%s\n%s", name, _("Switch the Model of This Conversation"));
  gtk_widget_set_tooltip_text (GTK_WIDGET (self->button), tooltip);
}

static void
show_error (AkcModelSwitch *self,
            const char     *message)
{
  gtk_label_set_text (self->error_label, message != NULL ? message : "");
  gtk_widget_set_visible (GTK_WIDGET (self->error_label), message != NULL);
  gtk_widget_set_visible (self->retry, message != NULL);
}

static void
clear_list (AkcModelSwitch *self)
{
  GtkWidget *child;

  while ((child = gtk_widget_get_first_child (GTK_WIDGET (self->list))) != NULL)
    gtk_list_box_remove (self->list, child);
  gtk_widget_set_visible (self->scroller, FALSE);
}

static GtkWidget *
model_row (const char *model,
           gboolean    current)
{
  GtkWidget *row = gtk_list_box_row_new ();
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 12);
  GtkWidget *label = gtk_label_new (model);
  GtkWidget *check = gtk_image_new_from_icon_name ("object-select-symbolic");
  g_autofree char *name = NULL;

  gtk_label_set_xalign (GTK_LABEL (label), 0);
  gtk_label_set_ellipsize (GTK_LABEL (label), PANGO_ELLIPSIZE_MIDDLE);
  gtk_widget_set_hexpand (label, TRUE);
  gtk_widget_set_visible (check, current);
  gtk_accessible_update_property (GTK_ACCESSIBLE (check), GTK_ACCESSIBLE_PROPERTY_LABEL, _("In use"), -1);
  gtk_box_append (GTK_BOX (box), label);
  gtk_box_append (GTK_BOX (box), check);
  gtk_widget_set_margin_start (box, 6);
  gtk_widget_set_margin_end (box, 6);
  gtk_widget_set_margin_top (box, 6);
  gtk_widget_set_margin_bottom (box, 6);
  gtk_list_box_row_set_child (GTK_LIST_BOX_ROW (row), box);
  g_object_set_data_full (G_OBJECT (row), "akc-model", g_strdup (model), g_free);
  /* Translators: a model of the header's list for a screen reader, the
   * one in use; %s is its name */
  name = current ? g_strdup_printf (_("%s, in use"), model) : g_strdup (model);
  gtk_accessible_update_property (GTK_ACCESSIBLE (row), GTK_ACCESSIBLE_PROPERTY_LABEL, name, -1);

  return row;
}

static void
on_models (GObject      *source,
           GAsyncResult *result,
           gpointer      user_data)
{
  g_autoptr(AkcModelSwitch) self = user_data;
  g_autoptr(GError) error = NULL;
  g_auto(GStrv) models = akc_provider_adapter_list_models_finish (AKC_PROVIDER_ADAPTER (source), result, &error);
  const char *current;
  GtkWidget *focus = NULL;

  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    return;
  g_clear_object (&self->listing);
  gtk_widget_set_visible (self->loading, FALSE);

  if (models == NULL)
    {
      /* Translators: %s says what failed and what to do, as sentences. */
      g_autofree char *message = g_strdup_printf (_("The models could not be listed. %s"), error->message);

      show_error (self, message);
      return;
    }
  if (models[0] == NULL)
    {
      show_error (self, _("The provider offers no models. Install or enable one there (for Ollama: ollama pull llama3.2), then try again."));
      return;
    }

  current = self->item != NULL && !provider_changed (self) ? akc_conversation_item_get_model (self->item) : NULL;
  for (guint i = 0; models[i] != NULL; i++)
    {
      GtkWidget *row = model_row (models[i], g_strcmp0 (models[i], current) == 0);

      gtk_list_box_append (self->list, row);
      if (focus == NULL || g_strcmp0 (models[i], current) == 0)
        focus = row;
    }
  gtk_widget_set_visible (self->scroller, TRUE);
  if (gtk_widget_get_visible (GTK_WIDGET (self->popover)))
    gtk_widget_grab_focus (focus);
}

static void
list_models (AkcModelSwitch *self)
{
  AkcBackend *backend = backend_of (self);
  AkcProviderAdapter *adapter = backend != NULL ? akc_backend_get_provider_adapter (backend) : NULL;

  g_cancellable_cancel (self->listing);
  g_clear_object (&self->listing);
  clear_list (self);
  show_error (self, NULL);

  if (adapter == NULL)
    {
      gtk_widget_set_visible (self->loading, FALSE);
      show_error (self, _("No model provider is set up. Set one up in Preferences (Ctrl+,), on the Providers page."));
      gtk_widget_set_visible (self->retry, FALSE);
      return;
    }

  gtk_widget_set_visible (self->loading, TRUE);
  self->listing = g_cancellable_new ();
  akc_provider_adapter_list_models_async (adapter, self->listing, on_models, g_object_ref (self));
}

static void
update_popover (AkcModelSwitch *self)
{
  AkcBackend *backend = backend_of (self);
  g_autofree char *provider = NULL;
  g_autofree char *note = NULL;

  if (backend != NULL && akc_backend_get_endpoint (backend) != NULL)
    /* Translators: the provider in the model popover: its kind (such as
     * Ollama), then its base URL */
    provider = g_strdup_printf (_("%s at %s"), akc_backend_get_provider_title (backend),
                                akc_backend_get_endpoint (backend));
  gtk_label_set_text (self->provider_label, provider != NULL ? provider : "");
  gtk_widget_set_visible (GTK_WIDGET (self->provider_label), provider != NULL);

  if (provider_changed (self))
    /* Translators: the first %s is a model name, the second a URL */
    note = g_strdup_printf (_("This conversation was held with %s at %s, which is no longer set up. Choose a model to continue it with the provider set up now."),
                            akc_conversation_item_get_model (self->item) != NULL
                            ? akc_conversation_item_get_model (self->item) : "?",
                            akc_conversation_item_get_provider_url (self->item));
  gtk_label_set_text (self->note_label, note != NULL ? note : "");
  gtk_widget_set_visible (GTK_WIDGET (self->note_label), note != NULL);
}

static void
update_images (AkcModelSwitch *self)
{
  AkcBackend *backend = backend_of (self);
  const char *model = self->item != NULL ? akc_conversation_item_get_model (self->item) : NULL;
  gboolean settable, takes;

  if (backend == NULL || model == NULL || provider_changed (self) ||
      akc_backend_get_provider_adapter (backend) == NULL)
    {
      gtk_widget_set_visible (self->images_box, FALSE);
      return;
    }

  settable = akc_backend_get_images_settable (backend);
  takes = akc_backend_get_model_takes_images (backend, model);
  g_signal_handler_block (self->images_switch, self->images_handler);
  gtk_switch_set_active (self->images_switch, takes);
  g_signal_handler_unblock (self->images_switch, self->images_handler);
  gtk_widget_set_sensitive (GTK_WIDGET (self->images_switch), settable);
  if (settable)
    gtk_label_set_text (self->images_label,
                        takes ? _("Images are sent to this model. Turn this off if it cannot read them: the composer then refuses them.")
                              : _("Images are refused for this model. Turn this on if it reads them."));
  else
    gtk_label_set_text (self->images_label,
                        takes ? _("Ollama says this model reads images (or says nothing of it).")
                              : _("Ollama says this model does not read images: they are refused."));
  gtk_accessible_update_property (GTK_ACCESSIBLE (self->images_switch), GTK_ACCESSIBLE_PROPERTY_DESCRIPTION,
                                  gtk_label_get_text (self->images_label), -1);
  gtk_widget_set_visible (self->images_box, TRUE);
}

static void
on_images_toggled (AkcModelSwitch *self)
{
  AkcBackend *backend = backend_of (self);
  const char *model = self->item != NULL ? akc_conversation_item_get_model (self->item) : NULL;

  if (backend == NULL || model == NULL)
    return;
  akc_backend_set_model_takes_images (backend, model, gtk_switch_get_active (self->images_switch));
  update_images (self);
}

static void
on_popover_show (AkcModelSwitch *self)
{
  update_popover (self);
  update_images (self);
  list_models (self);
}

static void
on_popover_closed (AkcModelSwitch *self)
{
  g_cancellable_cancel (self->listing);
  g_clear_object (&self->listing);
  gtk_widget_set_visible (self->loading, FALSE);
}

static void
on_row_activated (AkcModelSwitch *self,
                  GtkListBoxRow  *row)
{
  const char *model = g_object_get_data (G_OBJECT (row), "akc-model");
  AkcConversationItem *item = self->item;

  if (model == NULL || item == NULL || self->session == NULL)
    return;

  gtk_popover_popdown (self->popover);
  akc_app_session_set_conversation_model (self->session, item, model);
  update_images (self);
  g_signal_emit (self, signals[CHOSEN], 0, model);
}

static void
akc_model_switch_dispose (GObject *object)
{
  AkcModelSwitch *self = AKC_MODEL_SWITCH (object);

  g_cancellable_cancel (self->listing);
  g_clear_object (&self->listing);
  if (self->item != NULL)
    g_clear_signal_handler (&self->model_handler, self->item);
  g_clear_object (&self->item);
  g_clear_object (&self->session);
  if (self->button != NULL)
    {
      gtk_widget_unparent (GTK_WIDGET (self->button));
      self->button = NULL;
    }

  G_OBJECT_CLASS (akc_model_switch_parent_class)->dispose (object);
}

static void
akc_model_switch_class_init (AkcModelSwitchClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = akc_model_switch_dispose;
  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);

  /**
   * AkcModelSwitch::chosen:
   * @self: the switch
   * @model: the model the person chose
   *
   * Emitted when the person chose a model for the conversation (the
   * window gives the composer the keyboard back).
   */
  signals[CHOSEN] = g_signal_new ("chosen", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                                  0, NULL, NULL, NULL, G_TYPE_NONE, 1, G_TYPE_STRING);
}

/* The popover, built the first time the button opens or a test asks for
 * its parts: the switch is hidden unless a provider conversation is
 * shown, and building the popover with the window (4.2 M instructions)
 * stood in the way of its first frame. */
static void
ensure_popover (AkcModelSwitch *self)
{
  GtkWidget *box;
  GtkWidget *clamp;
  GtkWidget *heading;
  GtkWidget *spinner;
  GtkWidget *waiting;

  if (self->popover != NULL)
    return;

  box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 6);
  heading = gtk_label_new (_("Model of This Conversation"));
  spinner = gtk_spinner_new ();
  waiting = gtk_label_new (_("Asking the provider for its models…"));

  gtk_widget_add_css_class (heading, "heading");
  gtk_label_set_xalign (GTK_LABEL (heading), 0);
  gtk_box_append (GTK_BOX (box), heading);

  self->provider_label = GTK_LABEL (gtk_label_new (NULL));
  gtk_label_set_xalign (self->provider_label, 0);
  gtk_label_set_wrap (self->provider_label, TRUE);
  gtk_label_set_wrap_mode (self->provider_label, PANGO_WRAP_WORD_CHAR);
  gtk_label_set_max_width_chars (self->provider_label, 36);
  gtk_widget_add_css_class (GTK_WIDGET (self->provider_label), "dim-label");
  gtk_widget_add_css_class (GTK_WIDGET (self->provider_label), "caption");
  gtk_box_append (GTK_BOX (box), GTK_WIDGET (self->provider_label));

  self->note_label = GTK_LABEL (gtk_label_new (NULL));
  gtk_label_set_xalign (self->note_label, 0);
  gtk_label_set_wrap (self->note_label, TRUE);
  gtk_label_set_max_width_chars (self->note_label, 36);
  gtk_widget_set_visible (GTK_WIDGET (self->note_label), FALSE);
  gtk_box_append (GTK_BOX (box), GTK_WIDGET (self->note_label));

  /* Whether the model takes images. */
  {
    GtkWidget *row = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 12);
    GtkWidget *title = gtk_label_new (_("Takes Images"));

    gtk_label_set_xalign (GTK_LABEL (title), 0);
    gtk_widget_set_hexpand (title, TRUE);
    self->images_switch = GTK_SWITCH (gtk_switch_new ());
    gtk_widget_set_valign (GTK_WIDGET (self->images_switch), GTK_ALIGN_CENTER);
    gtk_accessible_update_relation (GTK_ACCESSIBLE (self->images_switch), GTK_ACCESSIBLE_RELATION_LABELLED_BY,
                                    title, NULL, -1);
    self->images_handler = g_signal_connect_object (self->images_switch, "notify::active",
                                                    G_CALLBACK (on_images_toggled), self, G_CONNECT_SWAPPED);
    gtk_box_append (GTK_BOX (row), title);
    gtk_box_append (GTK_BOX (row), GTK_WIDGET (self->images_switch));
    self->images_label = GTK_LABEL (gtk_label_new (NULL));
    gtk_label_set_xalign (self->images_label, 0);
    gtk_label_set_wrap (self->images_label, TRUE);
    gtk_label_set_max_width_chars (self->images_label, 36);
    gtk_widget_add_css_class (GTK_WIDGET (self->images_label), "dim-label");
    gtk_widget_add_css_class (GTK_WIDGET (self->images_label), "caption");
    self->images_box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 2);
    gtk_box_append (GTK_BOX (self->images_box), row);
    gtk_box_append (GTK_BOX (self->images_box), GTK_WIDGET (self->images_label));
    gtk_widget_set_visible (self->images_box, FALSE);
    gtk_box_append (GTK_BOX (box), self->images_box);
  }

  self->loading = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 6);
  gtk_spinner_set_spinning (GTK_SPINNER (spinner), TRUE);
  gtk_box_append (GTK_BOX (self->loading), spinner);
  gtk_box_append (GTK_BOX (self->loading), waiting);
  gtk_widget_set_visible (self->loading, FALSE);
  gtk_box_append (GTK_BOX (box), self->loading);

  self->error_label = g_object_new (GTK_TYPE_LABEL,
                                    "accessible-role", GTK_ACCESSIBLE_ROLE_ALERT,
                                    "xalign", 0.0f,
                                    "wrap", TRUE,
                                    "wrap-mode", PANGO_WRAP_WORD_CHAR,
                                    "max-width-chars", 36,
                                    "selectable", TRUE,
                                    "visible", FALSE,
                                    NULL);
  gtk_widget_add_css_class (GTK_WIDGET (self->error_label), "error");
  gtk_widget_add_css_class (GTK_WIDGET (self->error_label), "model-switch-error");
  gtk_box_append (GTK_BOX (box), GTK_WIDGET (self->error_label));

  self->retry = gtk_button_new_with_mnemonic (_("_Try Again"));
  gtk_widget_set_halign (self->retry, GTK_ALIGN_START);
  gtk_widget_set_visible (self->retry, FALSE);
  g_signal_connect_object (self->retry, "clicked", G_CALLBACK (list_models), self, G_CONNECT_SWAPPED);
  gtk_box_append (GTK_BOX (box), self->retry);

  self->list = GTK_LIST_BOX (gtk_list_box_new ());
  gtk_list_box_set_selection_mode (self->list, GTK_SELECTION_NONE);
  gtk_list_box_set_activate_on_single_click (self->list, TRUE);
  gtk_widget_add_css_class (GTK_WIDGET (self->list), "boxed-list");
  gtk_accessible_update_property (GTK_ACCESSIBLE (self->list), GTK_ACCESSIBLE_PROPERTY_LABEL, _("Models"), -1);
  g_signal_connect_object (self->list, "row-activated", G_CALLBACK (on_row_activated), self, G_CONNECT_SWAPPED);
  self->scroller = gtk_scrolled_window_new ();
  gtk_scrolled_window_set_policy (GTK_SCROLLED_WINDOW (self->scroller), GTK_POLICY_NEVER, GTK_POLICY_AUTOMATIC);
  gtk_scrolled_window_set_propagate_natural_height (GTK_SCROLLED_WINDOW (self->scroller), TRUE);
  gtk_scrolled_window_set_max_content_height (GTK_SCROLLED_WINDOW (self->scroller), 320);
  gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (self->scroller), GTK_WIDGET (self->list));
  gtk_widget_set_visible (self->scroller, FALSE);
  gtk_box_append (GTK_BOX (box), self->scroller);

  gtk_widget_set_size_request (box, 240, -1);
  /* GTK 4.8's popover asks its child for its height at a width wider than
   * the one it then gives it (by its shadow and padding, about 40 px), so
   * the wrapped labels took fewer lines when measured than when drawn and
   * the list of models was cut short (its last model in half). A clamp
   * asks the labels for their height at the width they are drawn at. */
  clamp = adw_clamp_new ();
  adw_clamp_set_maximum_size (ADW_CLAMP (clamp), 280);
  adw_clamp_set_tightening_threshold (ADW_CLAMP (clamp), 280);
  adw_clamp_set_child (ADW_CLAMP (clamp), box);
  self->popover = GTK_POPOVER (gtk_popover_new ());
  akc_application_add_accels_to_popover (self->popover);
  gtk_popover_set_child (self->popover, clamp);
  g_signal_connect_object (self->popover, "show", G_CALLBACK (on_popover_show), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->popover, "closed", G_CALLBACK (on_popover_closed), self, G_CONNECT_SWAPPED);
  gtk_menu_button_set_popover (self->button, GTK_WIDGET (self->popover));
}

static void
create_popup (GtkMenuButton *button,
              gpointer       user_data)
{
  ensure_popover (AKC_MODEL_SWITCH (user_data));
}

static void
akc_model_switch_init (AkcModelSwitch *self)
{
  GtkWidget *content = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 6);

  self->button_label = GTK_LABEL (gtk_label_new (NULL));
  gtk_label_set_ellipsize (self->button_label, PANGO_ELLIPSIZE_END);
  gtk_label_set_max_width_chars (self->button_label, 24);
  gtk_box_append (GTK_BOX (content), GTK_WIDGET (self->button_label));
  gtk_box_append (GTK_BOX (content), gtk_image_new_from_icon_name ("pan-down-symbolic"));

  self->button = GTK_MENU_BUTTON (gtk_menu_button_new ());
  gtk_menu_button_set_child (self->button, content);
  gtk_widget_add_css_class (GTK_WIDGET (self->button), "flat");
  gtk_widget_add_css_class (GTK_WIDGET (self->button), "model-switch");
  gtk_menu_button_set_create_popup_func (self->button, create_popup, self, NULL);
  gtk_widget_set_parent (GTK_WIDGET (self->button), GTK_WIDGET (self));

  gtk_widget_set_visible (GTK_WIDGET (self), FALSE);
  update_button (self);
}

/**
 * akc_model_switch_new:
 *
 * Returns: (transfer none): a new, hidden #AkcModelSwitch
 */
GtkWidget *
akc_model_switch_new (void)
{
  return g_object_new (AKC_TYPE_MODEL_SWITCH, NULL);
}

/**
 * akc_model_switch_set_conversation:
 * @self: a #AkcModelSwitch
 * @session: (nullable): the session the conversation belongs to
 * @item: (nullable): the conversation shown, or %NULL
 *
 * Shows the model of @item when it is a model provider's conversation,
 * and nothing otherwise.
 */
void
akc_model_switch_set_conversation (AkcModelSwitch      *self,
                                   AkcAppSession       *session,
                                   AkcConversationItem *item)
{
  gboolean provider;

  g_return_if_fail (AKC_IS_MODEL_SWITCH (self));

  provider = item != NULL &&
             akc_assistant_get_kind (akc_conversation_item_get_assistant (item)) == AKC_ASSISTANT_KIND_PROVIDER;
  if (!provider)
    item = NULL;

  if (item != self->item)
    {
      if (self->popover != NULL)
        gtk_popover_popdown (self->popover);
      if (self->item != NULL)
        g_clear_signal_handler (&self->model_handler, self->item);
      g_set_object (&self->item, item);
      if (item != NULL)
        self->model_handler = g_signal_connect_object (item, "notify::model", G_CALLBACK (update_button),
                                                       self, G_CONNECT_SWAPPED);
    }
  g_set_object (&self->session, session);

  update_button (self);
  gtk_widget_set_visible (GTK_WIDGET (self), item != NULL);
}

/**
 * akc_model_switch_popup:
 * @self: a #AkcModelSwitch
 *
 * Opens the list of models, as activating the button does.
 */
void
akc_model_switch_popup (AkcModelSwitch *self)
{
  g_return_if_fail (AKC_IS_MODEL_SWITCH (self));

  if (self->item != NULL)
    gtk_menu_button_popup (self->button);
}

/* For tests: the list of models, the error line (the popover is built
 * if it was not yet), and whether the list is being fetched. */
GtkWidget *
akc_model_switch_get_list (AkcModelSwitch *self)
{
  g_return_val_if_fail (AKC_IS_MODEL_SWITCH (self), NULL);

  ensure_popover (self);
  return GTK_WIDGET (self->list);
}

GtkSwitch *
akc_model_switch_get_images_switch (AkcModelSwitch *self)
{
  g_return_val_if_fail (AKC_IS_MODEL_SWITCH (self), NULL);

  ensure_popover (self);
  return self->images_switch;
}

GtkLabel *
akc_model_switch_get_status (AkcModelSwitch *self)
{
  g_return_val_if_fail (AKC_IS_MODEL_SWITCH (self), NULL);

  ensure_popover (self);
  return self->error_label;
}

gboolean
akc_model_switch_get_loading (AkcModelSwitch *self)
{
  g_return_val_if_fail (AKC_IS_MODEL_SWITCH (self), FALSE);

  return self->listing != NULL;
}
