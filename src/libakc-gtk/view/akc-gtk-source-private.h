/* akc-gtk-source-private.h: GtkSourceView, loaded when first used
 *
 * SPDX-License-Identifier: MIT
 *
 * Internal to libakc-gtk (not installed, not scanned).
 */

#pragma once

#include <gtksourceview/gtksource.h>

G_BEGIN_DECLS

/* The GtkSourceView functions the code blocks call. libakc-gtk does not
 * link GtkSourceView: a process that shows no code block never loads it
 * (its relocations and its start cost about 300 KiB resident). */
typedef struct
{
  GtkSourceLanguageManager    *(*language_manager_get_default)      (void);
  GtkSourceLanguage           *(*language_manager_get_language)     (GtkSourceLanguageManager *manager,
                                                                     const char               *id);
  GtkSourceLanguage           *(*language_manager_guess_language)   (GtkSourceLanguageManager *manager,
                                                                     const char               *filename,
                                                                     const char               *content_type);
  const char                  *(*language_get_id)                   (GtkSourceLanguage        *language);
  GtkSourceStyleSchemeManager *(*style_scheme_manager_get_default)  (void);
  GtkSourceStyleScheme        *(*style_scheme_manager_get_scheme)   (GtkSourceStyleSchemeManager *manager,
                                                                     const char                  *scheme_id);
  GtkSourceBuffer             *(*buffer_new_with_language)          (GtkSourceLanguage        *language);
  void                         (*buffer_set_highlight_matching_brackets) (GtkSourceBuffer *buffer,
                                                                          gboolean         highlight);
  void                         (*buffer_set_highlight_syntax)       (GtkSourceBuffer          *buffer,
                                                                     gboolean                  highlight);
  void                         (*buffer_set_style_scheme)           (GtkSourceBuffer          *buffer,
                                                                     GtkSourceStyleScheme     *scheme);
  void                         (*buffer_ensure_highlight)           (GtkSourceBuffer          *buffer,
                                                                     const GtkTextIter        *start,
                                                                     const GtkTextIter        *end);
  GtkSourceLanguage           *(*buffer_get_language)               (GtkSourceBuffer          *buffer);
} AkcGtkSource;

const AkcGtkSource *akc_gtk_source_get (void);

G_END_DECLS
