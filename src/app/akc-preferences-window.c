/* akc-preferences-window.c: the backends of the conversations
 *
 * SPDX-License-Identifier: MIT
 */

#include "config.h"

#include <string.h>

#include <glib/gi18n.h>

#include "akc-preferences-window.h"
#include "akc-provider-page.h"

/*
 * AkcPreferencesWindow:
 *
 * Where the person sets up the Ask service and the turn server: each
 * endpoint URL (checked before it is saved; an invalid one is never saved
 * and the row says what to fix), the Ask corpus and persona, and each
 * bearer token, which goes to the keyring and nowhere else (an empty token
 * removes it). Every field is applied with Enter or its apply button. The
 * connection state of each backend is shown, and read by screen readers,
 * as the description of its “Connection” row.
 */

struct _AkcPreferencesWindow
{
  AdwPreferencesWindow  parent_instance;

  AdwEntryRow          *ask_url_row;
  AdwActionRow         *ask_url_error;
  AdwEntryRow          *ask_corpus_row;
  AdwEntryRow          *ask_persona_row;
  AdwEntryRow          *ask_token_row;
  AdwActionRow         *ask_status_row;
  AdwEntryRow          *turn_url_row;
  AdwActionRow         *turn_url_error;
  AdwEntryRow          *turn_token_row;
  AdwActionRow         *turn_status_row;

  GSettings            *settings;
  AkcBackend           *ask;
  AkcBackend           *turn;
  GCancellable         *cancellable;
};

G_DEFINE_FINAL_TYPE (AkcPreferencesWindow, akc_preferences_window, ADW_TYPE_PREFERENCES_WINDOW)

/* Sets a row's text as saved, without offering to apply it. */
static void
set_row_text (AdwEntryRow *row,
              const char  *text)
{
  adw_entry_row_set_show_apply_button (row, FALSE);
  gtk_editable_set_text (GTK_EDITABLE (row), text != NULL ? text : "");
  adw_entry_row_set_show_apply_button (row, TRUE);
}

/* Each row is named after its group too, for whoever reads one alone:
 * its own name replaces the title the row is labelled by. */
static void
label_row (GtkWidget  *row,
           const char *label)
{
  gtk_accessible_reset_relation (GTK_ACCESSIBLE (row), GTK_ACCESSIBLE_RELATION_LABELLED_BY);
  gtk_accessible_update_property (GTK_ACCESSIBLE (row), GTK_ACCESSIBLE_PROPERTY_LABEL, label, -1);
}

static void
describe_row (AdwEntryRow *row,
              const char  *error)
{
  GtkEditable *delegate = gtk_editable_get_delegate (GTK_EDITABLE (row));
  GtkAccessible *targets[] = { GTK_ACCESSIBLE (row), delegate != NULL ? GTK_ACCESSIBLE (delegate) : NULL };

  for (guint i = 0; i < G_N_ELEMENTS (targets); i++)
    {
      if (targets[i] == NULL)
        continue;
      if (error != NULL)
        {
          gtk_accessible_update_state (targets[i], GTK_ACCESSIBLE_STATE_INVALID, GTK_ACCESSIBLE_INVALID_TRUE, -1);
          gtk_accessible_update_property (targets[i], GTK_ACCESSIBLE_PROPERTY_DESCRIPTION, error, -1);
        }
      else
        {
          gtk_accessible_reset_state (targets[i], GTK_ACCESSIBLE_STATE_INVALID);
          gtk_accessible_reset_property (targets[i], GTK_ACCESSIBLE_PROPERTY_DESCRIPTION);
        }
    }
}

static void
show_url_error (AdwEntryRow  *row,
                AdwActionRow *error_row,
                const char   *error)
{
  if (error != NULL)
    {
      adw_preferences_row_set_title (ADW_PREFERENCES_ROW (error_row), error);
      gtk_accessible_update_property (GTK_ACCESSIBLE (error_row), GTK_ACCESSIBLE_PROPERTY_LABEL, error, -1);
      gtk_widget_add_css_class (GTK_WIDGET (row), "error");
    }
  else
    {
      gtk_widget_remove_css_class (GTK_WIDGET (row), "error");
    }
  gtk_widget_set_visible (GTK_WIDGET (error_row), error != NULL);
  describe_row (row, error);
}

static void
on_url_changed (AkcPreferencesWindow *self,
                GtkEditable          *editable)
{
  AdwEntryRow *row = ADW_ENTRY_ROW (editable);

  show_url_error (row, row == self->ask_url_row ? self->ask_url_error : self->turn_url_error, NULL);
}

static void
on_url_apply (AkcPreferencesWindow *self,
              AdwEntryRow          *row)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *endpoint = NULL;
  gboolean ask = row == self->ask_url_row;

  endpoint = akc_backend_check_endpoint (gtk_editable_get_text (GTK_EDITABLE (row)), &error);
  if (endpoint == NULL)
    {
      show_url_error (row, ask ? self->ask_url_error : self->turn_url_error, error->message);
      return;
    }

  show_url_error (row, ask ? self->ask_url_error : self->turn_url_error, NULL);
  g_settings_set_string (self->settings, ask ? "ask-endpoint" : "turn-endpoint", endpoint);
}

static void
on_option_apply (AkcPreferencesWindow *self,
                 AdwEntryRow          *row)
{
  /* Used as given (application.md §8.1): not trimmed. */
  g_settings_set_string (self->settings, row == self->ask_corpus_row ? "ask-corpus" : "ask-persona",
                         gtk_editable_get_text (GTK_EDITABLE (row)));
}

static void
on_token_saved (GObject      *source,
                GAsyncResult *result,
                gpointer      user_data)
{
  AkcPreferencesWindow *self = user_data;
  g_autoptr(GError) error = NULL;
  AdwToast *toast;

  if (!akc_backend_save_token_finish (AKC_BACKEND (source), result, &error))
    {
      if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        return;
      toast = adw_toast_new (error->message);
      adw_toast_set_timeout (toast, 0);
    }
  else
    {
      toast = adw_toast_new (akc_backend_get_has_token (AKC_BACKEND (source))
                             ? _("The token is stored in the keyring.")
                             : _("The token was removed from the keyring."));
    }
  adw_preferences_window_add_toast (ADW_PREFERENCES_WINDOW (self), toast);
}

static void
on_token_apply (AkcPreferencesWindow *self,
                AdwEntryRow          *row)
{
  AkcBackend *backend = row == self->ask_token_row ? self->ask : self->turn;

  akc_backend_save_token_async (backend, gtk_editable_get_text (GTK_EDITABLE (row)),
                                self->cancellable, on_token_saved, self);
}

/* The token the keyring gave, masked; empty when there is none. */
static void
show_token (AkcPreferencesWindow *self,
            AkcBackend           *backend)
{
  AdwEntryRow *row = backend == self->ask ? self->ask_token_row : self->turn_token_row;
  g_autofree char *token = NULL;

  if (akc_backend_get_state (backend) == AKC_BACKEND_STATE_LOOKING_UP)
    return;

  token = akc_backend_dup_token (backend);
  if (g_strcmp0 (token != NULL ? token : "", gtk_editable_get_text (GTK_EDITABLE (row))) != 0)
    set_row_text (row, token);
  if (token != NULL)
    explicit_bzero (token, strlen (token));
}

static void
on_state_changed (AkcPreferencesWindow *self,
                  GParamSpec           *pspec,
                  AkcBackend           *backend)
{
  AdwActionRow *row = backend == self->ask ? self->ask_status_row : self->turn_status_row;
  const char *status = akc_backend_get_status (backend);
  AkcBackendState state = akc_backend_get_state (backend);
  const char *icon;

  switch (state)
    {
    case AKC_BACKEND_STATE_CONNECTED:
      icon = "emblem-ok-symbolic";
      break;
    case AKC_BACKEND_STATE_UNAUTHORIZED:
    case AKC_BACKEND_STATE_FORBIDDEN:
    case AKC_BACKEND_STATE_FAILED:
    case AKC_BACKEND_STATE_NO_KEYRING:
      icon = "dialog-warning-symbolic";
      break;
    default:
      icon = "network-idle-symbolic";
    }

  adw_action_row_set_subtitle (row, status);
  adw_action_row_set_icon_name (row, icon);
  gtk_accessible_update_property (GTK_ACCESSIBLE (row),
                                  GTK_ACCESSIBLE_PROPERTY_DESCRIPTION, status,
                                  -1);

  /* A token row that still shows what the person typed keeps it. */
  if (g_strcmp0 (pspec != NULL ? pspec->name : "state", "state") == 0 && state != AKC_BACKEND_STATE_LOOKING_UP)
    {
      AdwEntryRow *token_row = backend == self->ask ? self->ask_token_row : self->turn_token_row;
      GtkEditable *text = gtk_editable_get_delegate (GTK_EDITABLE (token_row));

      if (text == NULL || !gtk_widget_has_focus (GTK_WIDGET (text)))
        show_token (self, backend);
    }
}

static void
akc_preferences_window_dispose (GObject *object)
{
  AkcPreferencesWindow *self = AKC_PREFERENCES_WINDOW (object);

  g_cancellable_cancel (self->cancellable);
  gtk_widget_dispose_template (GTK_WIDGET (self), AKC_TYPE_PREFERENCES_WINDOW);
  g_clear_object (&self->cancellable);
  g_clear_object (&self->ask);
  g_clear_object (&self->turn);
  g_clear_object (&self->settings);

  G_OBJECT_CLASS (akc_preferences_window_parent_class)->dispose (object);
}

static void
akc_preferences_window_class_init (AkcPreferencesWindowClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = akc_preferences_window_dispose;

  gtk_widget_class_set_template_from_resource (widget_class, "/io/agentskit/Chat/akc-preferences-window.ui");
  gtk_widget_class_bind_template_child (widget_class, AkcPreferencesWindow, ask_url_row);
  gtk_widget_class_bind_template_child (widget_class, AkcPreferencesWindow, ask_url_error);
  gtk_widget_class_bind_template_child (widget_class, AkcPreferencesWindow, ask_corpus_row);
  gtk_widget_class_bind_template_child (widget_class, AkcPreferencesWindow, ask_persona_row);
  gtk_widget_class_bind_template_child (widget_class, AkcPreferencesWindow, ask_token_row);
  gtk_widget_class_bind_template_child (widget_class, AkcPreferencesWindow, ask_status_row);
  gtk_widget_class_bind_template_child (widget_class, AkcPreferencesWindow, turn_url_row);
  gtk_widget_class_bind_template_child (widget_class, AkcPreferencesWindow, turn_url_error);
  gtk_widget_class_bind_template_child (widget_class, AkcPreferencesWindow, turn_token_row);
  gtk_widget_class_bind_template_child (widget_class, AkcPreferencesWindow, turn_status_row);
  /* Escape closes the preferences; every field was applied already. */
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Escape, 0, "window.close", NULL);

  gtk_widget_class_bind_template_callback (widget_class, on_url_apply);
  gtk_widget_class_bind_template_callback (widget_class, on_url_changed);
  gtk_widget_class_bind_template_callback (widget_class, on_option_apply);
  gtk_widget_class_bind_template_callback (widget_class, on_token_apply);
}

static void
akc_preferences_window_init (AkcPreferencesWindow *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
  self->cancellable = g_cancellable_new ();

  label_row (GTK_WIDGET (self->ask_url_row), _("Ask Service URL"));
  label_row (GTK_WIDGET (self->ask_corpus_row), _("Ask Service Corpus"));
  label_row (GTK_WIDGET (self->ask_persona_row), _("Ask Service Persona"));
  label_row (GTK_WIDGET (self->ask_token_row), _("Ask Service Token"));
  label_row (GTK_WIDGET (self->ask_status_row), _("Ask Service Connection"));
  label_row (GTK_WIDGET (self->turn_url_row), _("Turn Server URL"));
  label_row (GTK_WIDGET (self->turn_token_row), _("Turn Server Token"));
  label_row (GTK_WIDGET (self->turn_status_row), _("Turn Server Connection"));
}

/* ------------------------------------------------------------------ */
/* Developer: the Developer Tools in the menu, and what a replay fixture */
/* never holds                                                          */
/* ------------------------------------------------------------------ */

static char *
joined_fields (GSettings *settings)
{
  g_auto(GStrv) fields = g_settings_get_strv (settings, "replay-redact-fields");

  return g_strjoinv (", ", fields);
}

/* "token, apiKey ,, secret" → ["token", "apiKey", "secret"]. */
static void
on_redact_apply (AdwEntryRow          *row,
                 AkcPreferencesWindow *self)
{
  g_auto(GStrv) parts = g_strsplit (gtk_editable_get_text (GTK_EDITABLE (row)), ",", -1);
  g_autoptr(GStrvBuilder) builder = g_strv_builder_new ();
  g_auto(GStrv) fields = NULL;
  g_autofree char *shown = NULL;

  for (guint i = 0; parts[i] != NULL; i++)
    {
      g_strstrip (parts[i]);
      if (parts[i][0] != '\0')
        g_strv_builder_add (builder, parts[i]);
    }
  fields = g_strv_builder_end (builder);
  g_settings_set_strv (self->settings, "replay-redact-fields", (const char * const *) fields);

  shown = joined_fields (self->settings);
  set_row_text (row, shown);
}

static void
add_developer_page (AkcPreferencesWindow *self)
{
  AdwPreferencesPage *page = ADW_PREFERENCES_PAGE (adw_preferences_page_new ());
  AdwPreferencesGroup *group = ADW_PREFERENCES_GROUP (adw_preferences_group_new ());
  AdwActionRow *tools = ADW_ACTION_ROW (adw_action_row_new ());
  GtkWidget *toggle = gtk_switch_new ();
  AdwEntryRow *redact = ADW_ENTRY_ROW (adw_entry_row_new ());
  g_autofree char *fields = joined_fields (self->settings);

  adw_preferences_page_set_title (page, _("Developer"));
  adw_preferences_page_set_icon_name (page, "utilities-terminal-symbolic");
  adw_preferences_group_set_title (group, _("Developer Tools"));
  adw_preferences_group_set_description (group,
                                         _("Why the conversation did what it did, its redacted wire events, and a replay fixture of it. Ctrl+Shift+D opens them either way."));

  adw_preferences_row_set_title (ADW_PREFERENCES_ROW (tools), _("Show in the Main Menu"));
  gtk_widget_set_valign (toggle, GTK_ALIGN_CENTER);
  adw_action_row_add_suffix (tools, toggle);
  adw_action_row_set_activatable_widget (tools, toggle);
  g_settings_bind (self->settings, "developer-tools", toggle, "active", G_SETTINGS_BIND_DEFAULT);
  gtk_accessible_update_property (GTK_ACCESSIBLE (toggle), GTK_ACCESSIBLE_PROPERTY_LABEL,
                                  _("Show the Developer Tools in the Main Menu"), -1);
  adw_preferences_group_add (group, GTK_WIDGET (tools));

  adw_preferences_row_set_title (ADW_PREFERENCES_ROW (redact), _("Fields Redacted from Replay Fixtures"));
  set_row_text (redact, fields);
  adw_entry_row_set_show_apply_button (redact, TRUE);
  gtk_widget_set_tooltip_text (GTK_WIDGET (redact),
                               _("Member names, separated by commas, whose values become “[REDACTED]” at any depth in traces and saved replay fixtures"));
  label_row (GTK_WIDGET (redact), _("Fields Redacted from Replay Fixtures, separated by commas"));
  g_signal_connect_object (redact, "apply", G_CALLBACK (on_redact_apply), self, 0);
  adw_preferences_group_add (group, GTK_WIDGET (redact));

  adw_preferences_page_add (page, group);
  adw_preferences_window_add (ADW_PREFERENCES_WINDOW (self), page);
}

static void
show_setting (AkcPreferencesWindow *self,
              AdwEntryRow          *row,
              const char           *key)
{
  g_autofree char *value = g_settings_get_string (self->settings, key);

  set_row_text (row, value);
}

/**
 * akc_preferences_window_new:
 * @settings: the application's settings
 * @ask: the Ask backend
 * @turn: the turn backend
 * @provider: the model provider backend
 *
 * Returns: (transfer full): new preferences
 */
AkcPreferencesWindow *
akc_preferences_window_new (GSettings  *settings,
                            AkcBackend *ask,
                            AkcBackend *turn,
                            AkcBackend *provider)
{
  AkcPreferencesWindow *self;

  g_return_val_if_fail (G_IS_SETTINGS (settings), NULL);
  g_return_val_if_fail (AKC_IS_BACKEND (ask), NULL);
  g_return_val_if_fail (AKC_IS_BACKEND (turn), NULL);
  g_return_val_if_fail (AKC_IS_BACKEND (provider), NULL);

  self = g_object_new (AKC_TYPE_PREFERENCES_WINDOW, NULL);
  self->settings = g_object_ref (settings);
  self->ask = g_object_ref (ask);
  self->turn = g_object_ref (turn);

  show_setting (self, self->ask_url_row, "ask-endpoint");
  show_setting (self, self->ask_corpus_row, "ask-corpus");
  show_setting (self, self->ask_persona_row, "ask-persona");
  show_setting (self, self->turn_url_row, "turn-endpoint");
  adw_preferences_window_add (ADW_PREFERENCES_WINDOW (self),
                              ADW_PREFERENCES_PAGE (akc_provider_page_new (settings, provider)));
  add_developer_page (self);

  for (guint i = 0; i < 2; i++)
    {
      AkcBackend *backend = i == 0 ? ask : turn;

      g_signal_connect_object (backend, "notify::state", G_CALLBACK (on_state_changed), self, G_CONNECT_SWAPPED);
      g_signal_connect_object (backend, "notify::status", G_CALLBACK (on_state_changed), self, G_CONNECT_SWAPPED);
      on_state_changed (self, NULL, backend);
    }

  return self;
}
