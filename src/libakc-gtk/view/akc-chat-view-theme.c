/* akc-chat-view-theme.c: the semantic theme of a view
 *
 * SPDX-License-Identifier: MIT
 */

#include "config.h"

#include <string.h>
#include <glib/gi18n-lib.h>

#include "akc-chat-view-private.h"
#include "akc-component-view.h"
#include "akc-gtk-main.h"
#include "akc-markdown-private.h"
#include "akc-message-row-private.h"
#include "akc-message-window-private.h"
#include "akc-theme-css-private.h"

/* The theme's provider is added to the display the view is on, and goes
 * with it if the view moves to another. */
void
akc_chat_view_uninstall_theme_provider (AkcChatView *self)
{
  if (self->theme_display == NULL)
    return;

  gtk_style_context_remove_provider_for_display (self->theme_display,
                                                 GTK_STYLE_PROVIDER (self->theme_provider));
  g_clear_object (&self->theme_display);
}

void
akc_chat_view_install_theme_provider (AkcChatView *self)
{
  GdkDisplay *display = gtk_widget_get_display (GTK_WIDGET (self));

  if (self->theme_provider == NULL || display == self->theme_display)
    return;

  akc_chat_view_uninstall_theme_provider (self);
  if (display == NULL)
    return;
  gtk_style_context_add_provider_for_display (display,
                                              GTK_STYLE_PROVIDER (self->theme_provider),
                                              GTK_STYLE_PROVIDER_PRIORITY_APPLICATION);
  self->theme_display = g_object_ref (display);
}


/**
 * akc_chat_view_get_theme:
 * @self: a #AkcChatView
 *
 * Gets the semantic theme of @self.
 *
 * Returns: (transfer none) (nullable): the theme, or %NULL when the view
 *   follows the platform's style
 *
 * Since: 0.1
 */
AkcTheme *
akc_chat_view_get_theme (AkcChatView *self)
{
  g_return_val_if_fail (AKC_IS_CHAT_VIEW (self), NULL);

  return self->theme;
}

/**
 * akc_chat_view_set_theme:
 * @self: a #AkcChatView
 * @theme: (nullable): a resolved theme, or %NULL to follow the platform's
 *   style
 *
 * Draws @self with @theme ([application §6.4](../Akc-1/wire-formats.html#application-6)), replacing the theme it
 * had. See [property@ChatView:theme].
 *
 * Since: 0.1
 */
void
akc_chat_view_set_theme (AkcChatView *self,
                         AkcTheme    *theme)
{
  static guint n_themed_views;

  g_return_if_fail (AKC_IS_CHAT_VIEW (self));

  if (self->theme == theme ||
      (self->theme != NULL && theme != NULL && akc_theme_equal (self->theme, theme)))
    return;

  g_clear_pointer (&self->theme, akc_theme_unref);
  if (theme != NULL)
    {
      g_autofree char *css = NULL;

      self->theme = akc_theme_ref (theme);
      if (self->theme_class == NULL)
        self->theme_class = g_strdup_printf ("akc-theme-%u", ++n_themed_views);
      if (self->theme_provider == NULL)
        self->theme_provider = gtk_css_provider_new ();

      css = akc_theme_css_generate (theme, self->theme_class);
      gtk_css_provider_load_from_data (self->theme_provider, css, -1);
      akc_chat_view_install_theme_provider (self);
      gtk_widget_add_css_class (GTK_WIDGET (self), self->theme_class);
    }
  else
    {
      gtk_widget_remove_css_class (GTK_WIDGET (self), self->theme_class);
      akc_chat_view_uninstall_theme_provider (self);
      g_clear_object (&self->theme_provider);
    }

  g_object_notify_by_pspec (G_OBJECT (self), akc_chat_view_props[PROP_THEME]);
}

GtkCssProvider *
akc_chat_view_get_theme_provider (AkcChatView *self)
{
  g_return_val_if_fail (AKC_IS_CHAT_VIEW (self), NULL);

  return self->theme_provider;
}

const char *
akc_chat_view_get_theme_class (AkcChatView *self)
{
  g_return_val_if_fail (AKC_IS_CHAT_VIEW (self), NULL);

  return self->theme_class;
}
