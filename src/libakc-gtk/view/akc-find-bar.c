/* akc-find-bar.c
 *
 * SPDX-License-Identifier: MIT
 */

#include "config.h"

#include <glib/gi18n-lib.h>

#include "akc-find-bar.h"
#include "akc-gtk-main.h"

/**
 * AkcFindBar:
 *
 * The find bar of a conversation: a search entry that finds its text in
 * the transcript of a [class@ChatView], says where the current match is
 * ("3 of 12") and moves between the matches.
 *
 * The bar is hidden until [property@FindBar:search-mode-enabled] is set,
 * for example by Ctrl+F in the application. Then the entry has the
 * keyboard, with what was searched before selected. While it shows, the
 * view highlights every match ([method@ChatView.set_search_text]) and
 * brings the current one into sight.
 *
 * Keys: Enter and Ctrl+G go to the next match, Shift+Enter and
 * Ctrl+Shift+G to the previous one (Ctrl+G and Ctrl+Shift+G anywhere in
 * the window while the bar shows); Escape closes the bar, ends the find
 * and gives the keyboard back to where it was before the bar opened.
 *
 * ## Accessibility
 *
 * The bar is a search landmark named "Find in Conversation"; the entry
 * has that name too, and its description says where the current match
 * is, as the label next to it does ("3 of 12", "No matches"). The
 * buttons are "Previous Match", "Next Match" and "Close Find Bar".
 *
 * ## CSS nodes
 *
 * `AkcFindBar` has a CSS node named `findbar`, with a `searchbar` inside.
 *
 * Since: 0.1
 */

struct _AkcFindBar
{
  GtkWidget       parent_instance;

  GtkSearchBar   *search_bar;
  GtkSearchEntry *entry;
  GtkLabel       *count;
  GtkWidget      *previous_button;
  GtkWidget      *next_button;

  AkcChatView    *view;
  gulong          n_handler;
  gulong          position_handler;
  GWeakRef        return_focus;   /* the focus before the bar opened */
  gboolean        search_mode;
};

G_DEFINE_FINAL_TYPE (AkcFindBar, akc_find_bar, GTK_TYPE_WIDGET)

enum {
  PROP_0,
  PROP_VIEW,
  PROP_SEARCH_MODE_ENABLED,
  N_PROPS
};

static GParamSpec *props[N_PROPS];

static void
sync_count (AkcFindBar *self)
{
  const char *text = self->entry != NULL ? gtk_editable_get_text (GTK_EDITABLE (self->entry)) : NULL;
  guint n = self->view != NULL ? akc_chat_view_get_n_matches (self->view) : 0;
  guint position = self->view != NULL ? akc_chat_view_get_match_position (self->view) : 0;
  g_autofree char *shown = NULL;

  gtk_widget_action_set_enabled (GTK_WIDGET (self), "find.next", self->search_mode && n > 0);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "find.previous", self->search_mode && n > 0);
  /* Not built yet: nothing shows. */
  if (self->entry == NULL)
    return;

  if (!self->search_mode || text == NULL || *text == '\0')
    shown = g_strdup ("");
  else if (n == 0)
    shown = g_strdup (_("No matches"));
  else
    /* Translators: where the current match of a find is: "3 of 12" */
    shown = g_strdup_printf (_("%u of %u"), position, n);

  gtk_label_set_text (self->count, shown);
  gtk_widget_set_visible (GTK_WIDGET (self->count), *shown != '\0');
  if (*shown != '\0')
    gtk_accessible_update_property (GTK_ACCESSIBLE (self->entry),
                                    GTK_ACCESSIBLE_PROPERTY_DESCRIPTION, shown,
                                    -1);
  else
    gtk_accessible_reset_property (GTK_ACCESSIBLE (self->entry), GTK_ACCESSIBLE_PROPERTY_DESCRIPTION);

  gtk_widget_set_sensitive (self->previous_button, n > 0);
  gtk_widget_set_sensitive (self->next_button, n > 0);
}

static void
apply_text (AkcFindBar *self)
{
  if (self->view != NULL)
    akc_chat_view_set_search_text (self->view, self->search_mode
                                   ? gtk_editable_get_text (GTK_EDITABLE (self->entry))
                                   : NULL);
  sync_count (self);
}

static void
on_search_changed (AkcFindBar *self)
{
  if (self->search_mode)
    apply_text (self);
}

static void
next_action (GtkWidget  *widget,
             const char *action_name,
             GVariant   *parameter)
{
  AkcFindBar *self = AKC_FIND_BAR (widget);

  /* What was typed counts even before the entry's delay is over. */
  apply_text (self);
  if (self->view != NULL)
    akc_chat_view_find_next (self->view);
}

static void
previous_action (GtkWidget  *widget,
                 const char *action_name,
                 GVariant   *parameter)
{
  AkcFindBar *self = AKC_FIND_BAR (widget);

  apply_text (self);
  if (self->view != NULL)
    akc_chat_view_find_previous (self->view);
}

static void
close_action (GtkWidget  *widget,
              const char *action_name,
              GVariant   *parameter)
{
  akc_find_bar_set_search_mode (AKC_FIND_BAR (widget), FALSE);
}

static void
on_activate (AkcFindBar *self)
{
  gtk_widget_activate_action (GTK_WIDGET (self), "find.next", NULL);
}

static void
on_next_match (AkcFindBar *self)
{
  gtk_widget_activate_action (GTK_WIDGET (self), "find.next", NULL);
}

static void
on_previous_match (AkcFindBar *self)
{
  gtk_widget_activate_action (GTK_WIDGET (self), "find.previous", NULL);
}

static void
on_stop_search (AkcFindBar *self)
{
  akc_find_bar_set_search_mode (self, FALSE);
}

/* Shift+Enter: the match before. */
static gboolean
on_entry_key_pressed (GtkEventControllerKey *controller,
                      guint                  keyval,
                      guint                  keycode,
                      GdkModifierType        state,
                      AkcFindBar            *self)
{
  if ((keyval == GDK_KEY_Return || keyval == GDK_KEY_KP_Enter || keyval == GDK_KEY_ISO_Enter) &&
      (state & (GDK_SHIFT_MASK | GDK_CONTROL_MASK | GDK_ALT_MASK)) == GDK_SHIFT_MASK)
    {
      gtk_widget_activate_action (GTK_WIDGET (self), "find.previous", NULL);
      return GDK_EVENT_STOP;
    }

  return GDK_EVENT_PROPAGATE;
}

static void
on_bar_mode_changed (AkcFindBar *self)
{
  /* The bar's own close button. */
  if (!gtk_search_bar_get_search_mode (self->search_bar) && self->search_mode)
    akc_find_bar_set_search_mode (self, FALSE);
}

static void
on_view_matches (AkcFindBar *self)
{
  sync_count (self);
}

static void
akc_find_bar_dispose (GObject *object)
{
  AkcFindBar *self = AKC_FIND_BAR (object);

  akc_find_bar_set_view (self, NULL);
  g_clear_pointer ((GtkWidget **) &self->search_bar, gtk_widget_unparent);

  G_OBJECT_CLASS (akc_find_bar_parent_class)->dispose (object);
}

static void
akc_find_bar_finalize (GObject *object)
{
  AkcFindBar *self = AKC_FIND_BAR (object);

  g_weak_ref_clear (&self->return_focus);

  G_OBJECT_CLASS (akc_find_bar_parent_class)->finalize (object);
}

static void
akc_find_bar_get_property (GObject    *object,
                           guint       prop_id,
                           GValue     *value,
                           GParamSpec *pspec)
{
  AkcFindBar *self = AKC_FIND_BAR (object);

  switch (prop_id)
    {
    case PROP_VIEW:
      g_value_set_object (value, self->view);
      break;
    case PROP_SEARCH_MODE_ENABLED:
      g_value_set_boolean (value, self->search_mode);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
akc_find_bar_set_property (GObject      *object,
                           guint         prop_id,
                           const GValue *value,
                           GParamSpec   *pspec)
{
  AkcFindBar *self = AKC_FIND_BAR (object);

  switch (prop_id)
    {
    case PROP_VIEW:
      akc_find_bar_set_view (self, g_value_get_object (value));
      break;
    case PROP_SEARCH_MODE_ENABLED:
      akc_find_bar_set_search_mode (self, g_value_get_boolean (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
add_shortcut (GtkShortcutController *controller,
              guint                  keyval,
              GdkModifierType        modifiers,
              const char            *action)
{
  gtk_shortcut_controller_add_shortcut (controller,
                                        gtk_shortcut_new (gtk_keyval_trigger_new (keyval, modifiers),
                                                          gtk_named_action_new (action)));
}

static void
akc_find_bar_class_init (AkcFindBarClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = akc_find_bar_dispose;
  object_class->finalize = akc_find_bar_finalize;
  object_class->get_property = akc_find_bar_get_property;
  object_class->set_property = akc_find_bar_set_property;

  /**
   * AkcFindBar:view:
   *
   * The chat view whose transcript the bar finds text in.
   *
   * Since: 0.1
   */
  props[PROP_VIEW] =
    g_param_spec_object ("view", NULL, NULL,
                         AKC_TYPE_CHAT_VIEW,
                         (G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));

  /**
   * AkcFindBar:search-mode-enabled:
   *
   * Whether the bar shows and finds; see
   * [method@FindBar.set_search_mode].
   *
   * Since: 0.1
   */
  props[PROP_SEARCH_MODE_ENABLED] =
    g_param_spec_boolean ("search-mode-enabled", NULL, NULL,
                          FALSE,
                          (G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));

  g_object_class_install_properties (object_class, N_PROPS, props);

  gtk_widget_class_install_action (widget_class, "find.next", NULL, next_action);
  gtk_widget_class_install_action (widget_class, "find.previous", NULL, previous_action);
  gtk_widget_class_install_action (widget_class, "find.close", NULL, close_action);

  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
  gtk_widget_class_set_css_name (widget_class, "findbar");
  gtk_widget_class_set_accessible_role (widget_class, GTK_ACCESSIBLE_ROLE_SEARCH);
}

static GtkWidget *
icon_button (const char *icon_name,
             const char *label,
             const char *action)
{
  GtkWidget *button = g_object_new (GTK_TYPE_BUTTON,
                                    "icon-name", icon_name,
                                    "tooltip-text", label,
                                    "action-name", action,
                                    "valign", GTK_ALIGN_CENTER,
                                    NULL);

  gtk_widget_add_css_class (button, "flat");
  gtk_accessible_update_property (GTK_ACCESSIBLE (button),
                                  GTK_ACCESSIBLE_PROPERTY_LABEL, label,
                                  -1);

  return button;
}

/* The search bar, its entry and its buttons are built the first time
 * they are needed (the bar shown, or its entry asked for), not with the
 * window: a bar that is hidden takes no room, and building and measuring
 * it stood in the way of the window's first frame. */
static void
ensure_built (AkcFindBar *self)
{
  GtkWidget *box;
  GtkEventController *keys;

  if (self->search_bar != NULL)
    return;

  /* A group inside the search landmark, and a close button with a name
   * (the bar's own is an unnamed image on GTK 4.8). */
  self->search_bar = g_object_new (GTK_TYPE_SEARCH_BAR,
                                   "accessible-role", GTK_ACCESSIBLE_ROLE_GROUP,
                                   "show-close-button", FALSE,
                                   NULL);
  gtk_widget_set_parent (GTK_WIDGET (self->search_bar), GTK_WIDGET (self));

  box = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 6);
  self->entry = GTK_SEARCH_ENTRY (gtk_search_entry_new ());
  gtk_widget_set_hexpand (GTK_WIDGET (self->entry), TRUE);
  gtk_widget_set_size_request (GTK_WIDGET (self->entry), 120, -1);
  g_object_set (self->entry, "placeholder-text", _("Find in Conversation"), NULL);
  gtk_accessible_update_property (GTK_ACCESSIBLE (self->entry),
                                  GTK_ACCESSIBLE_PROPERTY_LABEL, _("Find in Conversation"),
                                  -1);
  gtk_box_append (GTK_BOX (box), GTK_WIDGET (self->entry));

  self->count = GTK_LABEL (gtk_label_new (NULL));
  gtk_widget_add_css_class (GTK_WIDGET (self->count), "dim-label");
  gtk_widget_add_css_class (GTK_WIDGET (self->count), "numeric");
  gtk_widget_set_visible (GTK_WIDGET (self->count), FALSE);
  gtk_box_append (GTK_BOX (box), GTK_WIDGET (self->count));

  self->previous_button = icon_button ("go-up-symbolic", _("Previous Match"), "find.previous");
  self->next_button = icon_button ("go-down-symbolic", _("Next Match"), "find.next");
  gtk_box_append (GTK_BOX (box), self->previous_button);
  gtk_box_append (GTK_BOX (box), self->next_button);
  gtk_box_append (GTK_BOX (box), icon_button ("window-close-symbolic", _("Close Find Bar"), "find.close"));

  /* Not connected to the bar as its entry: the bar would empty it when
   * it closes, and the last search comes back when it opens again. */
  gtk_search_bar_set_child (self->search_bar, box);

  g_signal_connect_object (self->entry, "search-changed", G_CALLBACK (on_search_changed), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->entry, "activate", G_CALLBACK (on_activate), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->entry, "next-match", G_CALLBACK (on_next_match), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->entry, "previous-match", G_CALLBACK (on_previous_match), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->entry, "stop-search", G_CALLBACK (on_stop_search), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->search_bar, "notify::search-mode-enabled",
                           G_CALLBACK (on_bar_mode_changed), self, G_CONNECT_SWAPPED);

  keys = gtk_event_controller_key_new ();
  gtk_event_controller_set_propagation_phase (keys, GTK_PHASE_CAPTURE);
  g_signal_connect_object (keys, "key-pressed", G_CALLBACK (on_entry_key_pressed), self, 0);
  gtk_widget_add_controller (GTK_WIDGET (self->entry), keys);

  sync_count (self);
}

static void
akc_find_bar_init (AkcFindBar *self)
{
  GtkEventController *shortcuts;

  akc_gtk_init ();
  g_weak_ref_init (&self->return_focus, NULL);

  /* Ctrl+G and Ctrl+Shift+G from anywhere in the window while the bar
   * shows (the actions are disabled otherwise, so the keys pass). */
  shortcuts = gtk_shortcut_controller_new ();
  gtk_shortcut_controller_set_scope (GTK_SHORTCUT_CONTROLLER (shortcuts), GTK_SHORTCUT_SCOPE_GLOBAL);
  add_shortcut (GTK_SHORTCUT_CONTROLLER (shortcuts), GDK_KEY_g, GDK_CONTROL_MASK, "find.next");
  add_shortcut (GTK_SHORTCUT_CONTROLLER (shortcuts), GDK_KEY_G, GDK_CONTROL_MASK | GDK_SHIFT_MASK, "find.previous");
  gtk_widget_add_controller (GTK_WIDGET (self), shortcuts);

  gtk_accessible_update_property (GTK_ACCESSIBLE (self),
                                  GTK_ACCESSIBLE_PROPERTY_LABEL, _("Find in Conversation"),
                                  -1);
  sync_count (self);
}

/**
 * akc_find_bar_new:
 *
 * Creates a find bar, hidden, with no view.
 *
 * Returns: (transfer none): a new floating #AkcFindBar
 *
 * Since: 0.1
 */
GtkWidget *
akc_find_bar_new (void)
{
  return g_object_new (AKC_TYPE_FIND_BAR, NULL);
}

/**
 * akc_find_bar_get_view:
 * @self: a #AkcFindBar
 *
 * Gets the chat view the bar finds text in.
 *
 * Returns: (transfer none) (nullable): the view
 *
 * Since: 0.1
 */
AkcChatView *
akc_find_bar_get_view (AkcFindBar *self)
{
  g_return_val_if_fail (AKC_IS_FIND_BAR (self), NULL);

  return self->view;
}

/**
 * akc_find_bar_set_view:
 * @self: a #AkcFindBar
 * @view: (nullable): a #AkcChatView
 *
 * Sets the chat view whose transcript the bar finds text in. The view
 * the bar had before stops finding.
 *
 * Since: 0.1
 */
void
akc_find_bar_set_view (AkcFindBar  *self,
                       AkcChatView *view)
{
  g_return_if_fail (AKC_IS_FIND_BAR (self));
  g_return_if_fail (view == NULL || AKC_IS_CHAT_VIEW (view));

  if (self->view == view)
    return;

  if (self->view != NULL)
    {
      g_clear_signal_handler (&self->n_handler, self->view);
      g_clear_signal_handler (&self->position_handler, self->view);
      akc_chat_view_set_search_text (self->view, NULL);
      g_clear_object (&self->view);
    }

  if (view != NULL)
    {
      self->view = g_object_ref (view);
      self->n_handler = g_signal_connect_object (view, "notify::n-matches",
                                                 G_CALLBACK (on_view_matches), self, G_CONNECT_SWAPPED);
      self->position_handler = g_signal_connect_object (view, "notify::match-position",
                                                        G_CALLBACK (on_view_matches), self, G_CONNECT_SWAPPED);
    }

  apply_text (self);
  g_object_notify_by_pspec (G_OBJECT (self), props[PROP_VIEW]);
}

/**
 * akc_find_bar_get_search_mode:
 * @self: a #AkcFindBar
 *
 * Gets whether the bar shows and finds.
 *
 * Returns: %TRUE while it does
 *
 * Since: 0.1
 */
gboolean
akc_find_bar_get_search_mode (AkcFindBar *self)
{
  g_return_val_if_fail (AKC_IS_FIND_BAR (self), FALSE);

  return self->search_mode;
}

/**
 * akc_find_bar_set_search_mode:
 * @self: a #AkcFindBar
 * @search_mode: whether the bar shows
 *
 * Shows the bar with the keyboard in its entry and what was searched
 * before selected, so typing replaces it; or hides it, ends the find in
 * the view and gives the keyboard back to the widget that had it before
 * the bar was shown (the view, when that widget is gone). Showing a bar
 * that shows already gives its entry the keyboard again.
 *
 * Since: 0.1
 */
void
akc_find_bar_set_search_mode (AkcFindBar *self,
                              gboolean    search_mode)
{
  GtkRoot *root;
  GtkWidget *focus;

  g_return_if_fail (AKC_IS_FIND_BAR (self));

  search_mode = !!search_mode;
  root = gtk_widget_get_root (GTK_WIDGET (self));
  focus = root != NULL ? gtk_root_get_focus (root) : NULL;

  if (search_mode)
    {
      if (focus != NULL && !gtk_widget_is_ancestor (focus, GTK_WIDGET (self)))
        g_weak_ref_set (&self->return_focus, focus);

      ensure_built (self);
      if (!self->search_mode)
        {
          self->search_mode = TRUE;
          gtk_search_bar_set_search_mode (self->search_bar, TRUE);
          apply_text (self);
          g_object_notify_by_pspec (G_OBJECT (self), props[PROP_SEARCH_MODE_ENABLED]);
        }
      gtk_widget_grab_focus (GTK_WIDGET (self->entry));
      gtk_editable_select_region (GTK_EDITABLE (self->entry), 0, -1);
      return;
    }

  if (!self->search_mode)
    return;

  self->search_mode = FALSE;
  gtk_search_bar_set_search_mode (self->search_bar, FALSE);
  apply_text (self);

  /* The keyboard goes back where it was, if it was taken here. */
  if (focus == NULL || gtk_widget_is_ancestor (focus, GTK_WIDGET (self)) ||
      !gtk_widget_get_mapped (focus))
    {
      g_autoptr(GtkWidget) back = g_weak_ref_get (&self->return_focus);

      if (back == NULL || gtk_widget_get_root (back) != root || !gtk_widget_get_mapped (back) ||
          !gtk_widget_grab_focus (back))
        {
          if (self->view != NULL)
            gtk_widget_grab_focus (GTK_WIDGET (self->view));
        }
    }
  g_weak_ref_set (&self->return_focus, NULL);
  g_object_notify_by_pspec (G_OBJECT (self), props[PROP_SEARCH_MODE_ENABLED]);
}

/**
 * akc_find_bar_get_entry:
 * @self: a #AkcFindBar
 *
 * Gets the entry of the bar, where the text to find is typed.
 *
 * Returns: (transfer none): the entry
 *
 * Since: 0.1
 */
GtkEditable *
akc_find_bar_get_entry (AkcFindBar *self)
{
  g_return_val_if_fail (AKC_IS_FIND_BAR (self), NULL);

  ensure_built (self);

  return GTK_EDITABLE (self->entry);
}
