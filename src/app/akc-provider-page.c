/* akc-provider-page.c: the Providers page of the preferences
 *
 * SPDX-License-Identifier: MIT
 */

#include "config.h"

#include <string.h>

#include <glib/gi18n.h>

#include "akc-provider-page.h"

/*
 * AkcProviderPage:
 *
 * Where the person connects a model: the kind of provider, its base URL
 * (checked before it is saved), the API key (to the keyring and nowhere
 * else; empty removes it), the default model (and, for an OpenAI-compatible
 * or Anthropic provider, which do not say it, whether it takes images),
 * and “Test Connection”, which asks the provider for its models and lists them, or says exactly what
 * failed. Every field is applied with Enter or its apply button.
 *
 * With no provider set up, the page asks whether an Ollama answers on this
 * computer (http://127.0.0.1:11434, a short connection deadline); when one
 * does, it offers “Connect to a local Ollama”, which sets the kind, the
 * base URL and its first model in one step.
 */

#define LOCAL_OLLAMA_URL "http://127.0.0.1:11434"
/* The local Ollama answers at once or not at all. */
#define LOCAL_OLLAMA_TIMEOUT_MS 2000

static char *local_ollama_url;

#define MAX_LISTED_MODELS 12

static const char * const kinds[] = { "openai", "ollama", "anthropic" };

struct _AkcProviderPage
{
  AdwPreferencesPage  parent_instance;

  AdwComboRow        *kind_row;
  AdwEntryRow        *url_row;
  AdwActionRow       *url_error;
  AdwEntryRow        *key_row;
  AdwEntryRow        *model_row;
  AdwActionRow       *images_row;
  GtkSwitch          *images_switch;
  gboolean            showing_images;
  AdwActionRow       *test_row;
  GtkButton          *test_button;
  AdwActionRow       *status_row;
  AdwActionRow       *ollama_row;

  char               *ollama_model;   /* the local Ollama's first model */

  GSettings          *settings;
  AkcBackend         *provider;
  GCancellable       *cancellable;
  GCancellable       *test;
};

G_DEFINE_FINAL_TYPE (AkcProviderPage, akc_provider_page, ADW_TYPE_PREFERENCES_PAGE)

static void
set_row_text (AdwEntryRow *row,
              const char  *text)
{
  adw_entry_row_set_show_apply_button (row, FALSE);
  gtk_editable_set_text (GTK_EDITABLE (row), text != NULL ? text : "");
  adw_entry_row_set_show_apply_button (row, TRUE);
}

static void
say (AdwActionRow *row,
     const char   *text,
     const char   *icon)
{
  adw_action_row_set_subtitle (row, text);
  adw_action_row_set_icon_name (row, icon);
  gtk_accessible_update_property (GTK_ACCESSIBLE (row), GTK_ACCESSIBLE_PROPERTY_DESCRIPTION, text, -1);
}

static void
toast (AkcProviderPage *self,
       const char      *text)
{
  GtkWidget *window = gtk_widget_get_ancestor (GTK_WIDGET (self), ADW_TYPE_PREFERENCES_WINDOW);

  if (window != NULL)
    adw_preferences_window_add_toast (ADW_PREFERENCES_WINDOW (window), adw_toast_new (text));
}

static void
on_kind_selected (AkcProviderPage *self)
{
  guint selected = adw_combo_row_get_selected (self->kind_row);

  if (self->settings != NULL && selected < G_N_ELEMENTS (kinds))
    g_settings_set_string (self->settings, "provider-kind", kinds[selected]);
}

static void
show_url_error (AkcProviderPage *self,
                const char      *error)
{
  if (error != NULL)
    {
      adw_preferences_row_set_title (ADW_PREFERENCES_ROW (self->url_error), error);
      gtk_accessible_update_property (GTK_ACCESSIBLE (self->url_error), GTK_ACCESSIBLE_PROPERTY_LABEL, error, -1);
      gtk_widget_add_css_class (GTK_WIDGET (self->url_row), "error");
      gtk_accessible_update_state (GTK_ACCESSIBLE (self->url_row), GTK_ACCESSIBLE_STATE_INVALID,
                                   GTK_ACCESSIBLE_INVALID_TRUE, -1);
      gtk_accessible_update_property (GTK_ACCESSIBLE (self->url_row), GTK_ACCESSIBLE_PROPERTY_DESCRIPTION, error, -1);
    }
  else
    {
      gtk_widget_remove_css_class (GTK_WIDGET (self->url_row), "error");
      gtk_accessible_reset_state (GTK_ACCESSIBLE (self->url_row), GTK_ACCESSIBLE_STATE_INVALID);
      gtk_accessible_reset_property (GTK_ACCESSIBLE (self->url_row), GTK_ACCESSIBLE_PROPERTY_DESCRIPTION);
    }
  gtk_widget_set_visible (GTK_WIDGET (self->url_error), error != NULL);
}

static void
on_url_changed (AkcProviderPage *self)
{
  show_url_error (self, NULL);
}

static void
on_url_apply (AkcProviderPage *self)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *url = akc_backend_check_endpoint (gtk_editable_get_text (GTK_EDITABLE (self->url_row)), &error);

  if (url == NULL)
    {
      show_url_error (self, error->message);
      return;
    }
  show_url_error (self, NULL);
  g_settings_set_string (self->settings, "provider-url", url);
}

/* Whether the default model takes images: the person says it for an
 * OpenAI-compatible or Anthropic model. */
static void
update_images (AkcProviderPage *self)
{
  const char *model = akc_backend_get_model (self->provider);
  gboolean settable = model != NULL && akc_backend_get_images_settable (self->provider);

  gtk_widget_set_visible (GTK_WIDGET (self->images_row), settable);
  if (!settable)
    return;
  self->showing_images = TRUE;
  gtk_switch_set_active (self->images_switch, akc_backend_get_model_takes_images (self->provider, model));
  self->showing_images = FALSE;
}

static void
on_images_toggled (AkcProviderPage *self)
{
  const char *model;

  if (self->showing_images || self->provider == NULL)
    return;
  model = akc_backend_get_model (self->provider);
  if (model != NULL)
    akc_backend_set_model_takes_images (self->provider, model, gtk_switch_get_active (self->images_switch));
}

static void
on_model_apply (AkcProviderPage *self)
{
  g_autofree char *model = g_strstrip (g_strdup (gtk_editable_get_text (GTK_EDITABLE (self->model_row))));

  g_settings_set_string (self->settings, "provider-model", model);
}

static void
on_key_saved (GObject      *source,
              GAsyncResult *result,
              gpointer      user_data)
{
  AkcProviderPage *self = user_data;
  g_autoptr(GError) error = NULL;

  if (!akc_backend_save_token_finish (AKC_BACKEND (source), result, &error))
    {
      if (!g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        toast (self, error->message);
      return;
    }
  toast (self, akc_backend_get_has_token (AKC_BACKEND (source))
               ? _("The API key is stored in the keyring.")
               : _("The API key was removed from the keyring."));
}

static void
on_key_apply (AkcProviderPage *self)
{
  akc_backend_save_token_async (self->provider, gtk_editable_get_text (GTK_EDITABLE (self->key_row)),
                                self->cancellable, on_key_saved, self);
}

static void
on_models (GObject      *source,
           GAsyncResult *result,
           gpointer      user_data)
{
  AkcProviderPage *self = user_data;
  g_autoptr(GError) error = NULL;
  g_auto(GStrv) models = NULL;
  g_autoptr(GString) text = NULL;
  guint n;

  models = akc_provider_adapter_list_models_finish (AKC_PROVIDER_ADAPTER (source), result, &error);
  if (models == NULL && g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    return;

  g_clear_object (&self->test);
  gtk_widget_set_sensitive (GTK_WIDGET (self->test_button), TRUE);

  if (models == NULL)
    {
      say (self->test_row, error->message, "dialog-warning-symbolic");
      return;
    }

  n = g_strv_length (models);
  if (n == 0)
    {
      say (self->test_row, _("Connected, but the provider offers no models. Install or pull one first."),
           "dialog-warning-symbolic");
      return;
    }

  text = g_string_new (NULL);
  /* Translators: %u is a number of models, a list of their names follows */
  g_string_append_printf (text, g_dngettext (GETTEXT_PACKAGE, "Connected: %u model.", "Connected: %u models.", n), n);
  g_string_append_c (text, ' ');
  for (guint i = 0; i < n && i < MAX_LISTED_MODELS; i++)
    {
      if (i > 0)
        g_string_append (text, ", ");
      g_string_append (text, models[i]);
    }
  if (n > MAX_LISTED_MODELS)
    g_string_append (text, ", …");
  say (self->test_row, text->str, "emblem-ok-symbolic");

  /* A first connection chooses the default model when none is set. */
  {
    g_autofree char *model = g_settings_get_string (self->settings, "provider-model");

    if (model[0] == '\0')
      {
        g_settings_set_string (self->settings, "provider-model", models[0]);
        set_row_text (self->model_row, models[0]);
      }
  }
}

static void
on_test_clicked (AkcProviderPage *self)
{
  AkcProviderAdapter *adapter = akc_backend_get_provider_adapter (self->provider);

  if (adapter == NULL)
    {
      say (self->test_row, _("Enter and apply the base URL first."), "dialog-warning-symbolic");
      return;
    }

  g_cancellable_cancel (self->test);
  g_clear_object (&self->test);
  self->test = g_cancellable_new ();
  gtk_widget_set_sensitive (GTK_WIDGET (self->test_button), FALSE);
  say (self->test_row, _("Asking the provider for its models…"), "content-loading-symbolic");
  akc_provider_adapter_list_models_async (adapter, self->test, on_models, self);
}

/* ------------------------------------------------------------------ */
/* A local Ollama                                                      */
/* ------------------------------------------------------------------ */

void
akc_provider_page_set_local_ollama_url (const char *url)
{
  g_free (local_ollama_url);
  local_ollama_url = g_strdup (url);
}

/* Where a local Ollama is looked for: http://127.0.0.1:11434, or where a
 * test set it. */
const char *
akc_provider_page_get_local_ollama_url (void)
{
  return local_ollama_url != NULL ? local_ollama_url : LOCAL_OLLAMA_URL;
}

static const char *
get_local_ollama_url (void)
{
  return akc_provider_page_get_local_ollama_url ();
}

static void
on_local_models (GObject      *source,
                 GAsyncResult *result,
                 gpointer      user_data)
{
  g_autoptr(AkcProviderPage) self = user_data;
  g_auto(GStrv) models = akc_provider_adapter_list_models_finish (AKC_PROVIDER_ADAPTER (source), result, NULL);
  g_autofree char *url = NULL;
  g_autofree char *subtitle = NULL;

  /* Nothing answers, or there is nothing to talk to: no offer. */
  if (models == NULL || models[0] == NULL || self->settings == NULL)
    return;
  /* Set up meanwhile: no offer either. */
  url = g_settings_get_string (self->settings, "provider-url");
  if (url[0] != '\0')
    return;

  g_free (self->ollama_model);
  self->ollama_model = g_strdup (models[0]);
  /* Translators: %s is an address such as http://127.0.0.1:11434, then a model name */
  subtitle = g_strdup_printf (_("Connect to it at %s and talk to %s. You can change both below."),
                              get_local_ollama_url (), models[0]);
  say (self->ollama_row, subtitle, "computer-symbolic");
  gtk_widget_set_visible (GTK_WIDGET (self->ollama_row), TRUE);
}

static void
probe_local_ollama (AkcProviderPage *self)
{
  g_autoptr(AkcProviderAdapter) adapter = akc_provider_adapter_new (AKC_PROVIDER_KIND_OLLAMA, get_local_ollama_url (),
                                                                    NULL, NULL);

  if (adapter == NULL)
    return;
  akc_provider_adapter_set_connect_timeout (adapter, LOCAL_OLLAMA_TIMEOUT_MS);
  akc_provider_adapter_list_models_async (adapter, self->cancellable, on_local_models, g_object_ref (self));
}

static void
on_ollama_clicked (AkcProviderPage *self)
{
  g_autofree char *subtitle = NULL;

  if (self->ollama_model == NULL)
    return;

  adw_combo_row_set_selected (self->kind_row, 1);
  g_settings_set_string (self->settings, "provider-kind", "ollama");
  g_settings_set_string (self->settings, "provider-url", get_local_ollama_url ());
  g_settings_set_string (self->settings, "provider-model", self->ollama_model);
  set_row_text (self->url_row, get_local_ollama_url ());
  set_row_text (self->model_row, self->ollama_model);
  show_url_error (self, NULL);
  gtk_widget_set_visible (GTK_WIDGET (self->ollama_row), FALSE);
  /* Translators: %s is a model name */
  subtitle = g_strdup_printf (_("Connected to the Ollama on this computer, with the model %s."), self->ollama_model);
  toast (self, subtitle);
}

static void
on_state_changed (AkcProviderPage *self)
{
  AkcBackendState state = akc_backend_get_state (self->provider);
  const char *icon;
  g_autofree char *key = NULL;
  GtkEditable *delegate;

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
  say (self->status_row, akc_backend_get_status (self->provider), icon);

  /* The key the keyring gave, masked, unless the person is typing one. */
  delegate = gtk_editable_get_delegate (GTK_EDITABLE (self->key_row));
  if (state == AKC_BACKEND_STATE_LOOKING_UP || (delegate != NULL && gtk_widget_has_focus (GTK_WIDGET (delegate))))
    return;
  key = akc_backend_dup_token (self->provider);
  if (g_strcmp0 (key != NULL ? key : "", gtk_editable_get_text (GTK_EDITABLE (self->key_row))) != 0)
    set_row_text (self->key_row, key);
  if (key != NULL)
    explicit_bzero (key, strlen (key));
}

static void
akc_provider_page_dispose (GObject *object)
{
  AkcProviderPage *self = AKC_PROVIDER_PAGE (object);

  g_cancellable_cancel (self->cancellable);
  g_cancellable_cancel (self->test);
  gtk_widget_dispose_template (GTK_WIDGET (self), AKC_TYPE_PROVIDER_PAGE);
  g_clear_object (&self->cancellable);
  g_clear_object (&self->test);
  g_clear_object (&self->provider);
  g_clear_object (&self->settings);
  g_clear_pointer (&self->ollama_model, g_free);

  G_OBJECT_CLASS (akc_provider_page_parent_class)->dispose (object);
}

static void
akc_provider_page_class_init (AkcProviderPageClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = akc_provider_page_dispose;

  gtk_widget_class_set_template_from_resource (widget_class, "/io/agentskit/Chat/akc-provider-page.ui");
  gtk_widget_class_bind_template_child (widget_class, AkcProviderPage, kind_row);
  gtk_widget_class_bind_template_child (widget_class, AkcProviderPage, url_row);
  gtk_widget_class_bind_template_child (widget_class, AkcProviderPage, url_error);
  gtk_widget_class_bind_template_child (widget_class, AkcProviderPage, key_row);
  gtk_widget_class_bind_template_child (widget_class, AkcProviderPage, model_row);
  gtk_widget_class_bind_template_child (widget_class, AkcProviderPage, images_row);
  gtk_widget_class_bind_template_child (widget_class, AkcProviderPage, images_switch);
  gtk_widget_class_bind_template_child (widget_class, AkcProviderPage, test_row);
  gtk_widget_class_bind_template_child (widget_class, AkcProviderPage, test_button);
  gtk_widget_class_bind_template_child (widget_class, AkcProviderPage, status_row);
  gtk_widget_class_bind_template_child (widget_class, AkcProviderPage, ollama_row);
  gtk_widget_class_bind_template_callback (widget_class, on_kind_selected);
  gtk_widget_class_bind_template_callback (widget_class, on_url_apply);
  gtk_widget_class_bind_template_callback (widget_class, on_url_changed);
  gtk_widget_class_bind_template_callback (widget_class, on_key_apply);
  gtk_widget_class_bind_template_callback (widget_class, on_model_apply);
  gtk_widget_class_bind_template_callback (widget_class, on_images_toggled);
  gtk_widget_class_bind_template_callback (widget_class, on_test_clicked);
  gtk_widget_class_bind_template_callback (widget_class, on_ollama_clicked);
}

static void
label_row (GtkWidget  *row,
           const char *label)
{
  gtk_accessible_reset_relation (GTK_ACCESSIBLE (row), GTK_ACCESSIBLE_RELATION_LABELLED_BY);
  gtk_accessible_update_property (GTK_ACCESSIBLE (row), GTK_ACCESSIBLE_PROPERTY_LABEL, label, -1);
}

static void
akc_provider_page_init (AkcProviderPage *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
  self->cancellable = g_cancellable_new ();

  label_row (GTK_WIDGET (self->url_row), _("Model Provider Base URL"));
  label_row (GTK_WIDGET (self->key_row), _("Model Provider API Key"));
  label_row (GTK_WIDGET (self->model_row), _("Model Provider Default Model"));
  label_row (GTK_WIDGET (self->status_row), _("Model Provider Connection"));
}

/**
 * akc_provider_page_new:
 * @settings: the application's settings
 * @provider: the provider backend
 *
 * Returns: (transfer full): a new page
 */
AkcProviderPage *
akc_provider_page_new (GSettings  *settings,
                       AkcBackend *provider)
{
  AkcProviderPage *self;
  g_autofree char *kind = NULL;
  g_autofree char *url = NULL;
  g_autofree char *model = NULL;

  g_return_val_if_fail (G_IS_SETTINGS (settings), NULL);
  g_return_val_if_fail (AKC_IS_BACKEND (provider), NULL);

  self = g_object_new (AKC_TYPE_PROVIDER_PAGE, NULL);

  kind = g_settings_get_string (settings, "provider-kind");
  for (guint i = 0; i < G_N_ELEMENTS (kinds); i++)
    if (g_str_equal (kind, kinds[i]))
      adw_combo_row_set_selected (self->kind_row, i);
  /* Set after the kind, so showing it saves nothing. */
  self->settings = g_object_ref (settings);
  self->provider = g_object_ref (provider);

  url = g_settings_get_string (settings, "provider-url");
  set_row_text (self->url_row, url);
  model = g_settings_get_string (settings, "provider-model");
  set_row_text (self->model_row, model);
  say (self->test_row, _("Lists the models the provider offers, or says what failed."), NULL);

  g_signal_connect_object (provider, "notify::state", G_CALLBACK (on_state_changed), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (provider, "notify::status", G_CALLBACK (on_state_changed), self, G_CONNECT_SWAPPED);
  on_state_changed (self);
  g_signal_connect_object (provider, "notify::model", G_CALLBACK (update_images), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (provider, "notify::endpoint", G_CALLBACK (update_images), self, G_CONNECT_SWAPPED);
  update_images (self);

  if (url[0] == '\0')
    probe_local_ollama (self);

  return self;
}
