/* akc-gtk-main.c
 *
 * SPDX-License-Identifier: MIT
 */

#include "config.h"

#include <glib/gi18n-lib.h>

#include "akc-gtk-main.h"

static GtkCssProvider *style_provider;

/**
 * akc_gtk_init:
 *
 * Initializes libakc-gtk: binds its translations and adds its style sheet
 * to the default display.
 *
 * Widgets of the library call it themselves when they are created, so a
 * host only needs it to style the display before any widget exists. It is
 * safe to call more than once; it must be called after gtk_init().
 *
 * Since: 0.1
 */
void
akc_gtk_init (void)
{
  GdkDisplay *display;

  if (style_provider != NULL)
    return;

  bindtextdomain (GETTEXT_PACKAGE, LOCALEDIR);
  bind_textdomain_codeset (GETTEXT_PACKAGE, "UTF-8");

  display = gdk_display_get_default ();
  if (display == NULL)
    return;

  style_provider = gtk_css_provider_new ();
  gtk_css_provider_load_from_resource (style_provider, "/io/agentskit/AkcGtk/style.css");
  gtk_style_context_add_provider_for_display (display,
                                              GTK_STYLE_PROVIDER (style_provider),
                                              GTK_STYLE_PROVIDER_PRIORITY_APPLICATION - 1);
}
