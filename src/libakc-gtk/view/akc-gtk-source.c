/* akc-gtk-source.c: GtkSourceView, loaded when first used
 *
 * SPDX-License-Identifier: MIT
 */

#include "config.h"

#include <gmodule.h>

#include "akc-gtk-source-private.h"

static gboolean
load (AkcGtkSource *source)
{
  const struct { const char *name; gpointer *slot; } symbols[] = {
    { "gtk_source_language_manager_get_default", (gpointer *) &source->language_manager_get_default },
    { "gtk_source_language_manager_get_language", (gpointer *) &source->language_manager_get_language },
    { "gtk_source_language_manager_guess_language", (gpointer *) &source->language_manager_guess_language },
    { "gtk_source_language_get_id", (gpointer *) &source->language_get_id },
    { "gtk_source_style_scheme_manager_get_default", (gpointer *) &source->style_scheme_manager_get_default },
    { "gtk_source_style_scheme_manager_get_scheme", (gpointer *) &source->style_scheme_manager_get_scheme },
    { "gtk_source_buffer_new_with_language", (gpointer *) &source->buffer_new_with_language },
    { "gtk_source_buffer_set_highlight_matching_brackets",
      (gpointer *) &source->buffer_set_highlight_matching_brackets },
    { "gtk_source_buffer_set_highlight_syntax", (gpointer *) &source->buffer_set_highlight_syntax },
    { "gtk_source_buffer_set_style_scheme", (gpointer *) &source->buffer_set_style_scheme },
    { "gtk_source_buffer_ensure_highlight", (gpointer *) &source->buffer_ensure_highlight },
    { "gtk_source_buffer_get_language", (gpointer *) &source->buffer_get_language },
  };
  void (*init) (void) = NULL;
  GModule *module;

  /* The library meson found at build time, by its soname: where the
   * system's loader finds it, as it would have as a link dependency. */
  module = g_module_open (AKC_GTKSOURCEVIEW_SONAME, G_MODULE_BIND_LAZY | G_MODULE_BIND_LOCAL);
  if (module == NULL)
    {
      g_warning ("Code blocks are not highlighted: %s", g_module_error ());
      return FALSE;
    }

  for (guint i = 0; i < G_N_ELEMENTS (symbols); i++)
    if (!g_module_symbol (module, symbols[i].name, symbols[i].slot))
      {
        g_warning ("Code blocks are not highlighted: %s", g_module_error ());
        g_module_close (module);
        return FALSE;
      }
  if (!g_module_symbol (module, "gtk_source_init", (gpointer *) &init))
    {
      g_warning ("Code blocks are not highlighted: %s", g_module_error ());
      g_module_close (module);
      return FALSE;
    }

  /* Its types and resources stay registered: never unloaded. */
  g_module_make_resident (module);
  init ();

  return TRUE;
}

/* GtkSourceView's functions, loaded (and gtk_source_init() called) on the
 * first call; %NULL, with a warning once, when it cannot be loaded: the
 * code blocks then show their code without colours. Main thread only. */
const AkcGtkSource *
akc_gtk_source_get (void)
{
  static AkcGtkSource source;
  static gboolean tried, available;

  if (!tried)
    {
      tried = TRUE;
      available = load (&source);
    }

  return available ? &source : NULL;
}
