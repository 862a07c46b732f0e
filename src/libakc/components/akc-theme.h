/* akc-theme.h: the semantic theme (application §6)
 *
 * SPDX-License-Identifier: MIT
 */

#pragma once

#if !defined(__AKC_INSIDE__) && !defined(AKC_COMPILATION)
#error "Only <akc.h> can be included directly."
#endif

#include <glib-object.h>

#include "akc-json.h"
#include "akc-version-macros.h"

G_BEGIN_DECLS

/**
 * AkcThemeColor:
 * @AKC_THEME_COLOR_BACKGROUND: `colors.background`, behind the transcript
 * @AKC_THEME_COLOR_SURFACE: `colors.surface`, assistant bubbles and cards
 * @AKC_THEME_COLOR_BORDER: `colors.border`, outlines of cards and choices
 * @AKC_THEME_COLOR_TEXT: `colors.text`, body text
 * @AKC_THEME_COLOR_MUTED: `colors.muted`, secondary text
 * @AKC_THEME_COLOR_ACCENT: `colors.accent`, user bubbles, buttons, links
 * @AKC_THEME_COLOR_ON_ACCENT: `colors.onAccent`, text on @AKC_THEME_COLOR_ACCENT
 * @AKC_THEME_COLOR_DANGER: `colors.danger`, errors
 *
 * The colour tokens of a semantic theme ([application §6.1](wire-formats.html#application-6)), in the
 * schema's order.
 *
 * Since: 0.1
 */
typedef enum {
  AKC_THEME_COLOR_BACKGROUND,
  AKC_THEME_COLOR_SURFACE,
  AKC_THEME_COLOR_BORDER,
  AKC_THEME_COLOR_TEXT,
  AKC_THEME_COLOR_MUTED,
  AKC_THEME_COLOR_ACCENT,
  AKC_THEME_COLOR_ON_ACCENT,
  AKC_THEME_COLOR_DANGER,
} AkcThemeColor;

/**
 * AkcThemeSpacing:
 * @AKC_THEME_SPACING_SMALL: `spacing.small`
 * @AKC_THEME_SPACING_MEDIUM: `spacing.medium`
 * @AKC_THEME_SPACING_LARGE: `spacing.large`
 *
 * The spacing tokens of a semantic theme ([application §6.1](wire-formats.html#application-6)), in pixels.
 *
 * Since: 0.1
 */
typedef enum {
  AKC_THEME_SPACING_SMALL,
  AKC_THEME_SPACING_MEDIUM,
  AKC_THEME_SPACING_LARGE,
} AkcThemeSpacing;

/**
 * AkcThemeRadius:
 * @AKC_THEME_RADIUS_MEDIUM: `radius.medium`
 * @AKC_THEME_RADIUS_LARGE: `radius.large`
 *
 * The corner radius tokens of a semantic theme ([application §6.1](wire-formats.html#application-6)), in
 * pixels.
 *
 * Since: 0.1
 */
typedef enum {
  AKC_THEME_RADIUS_MEDIUM,
  AKC_THEME_RADIUS_LARGE,
} AkcThemeRadius;

/**
 * AKC_THEME_FONT_FAMILY_SYSTEM:
 *
 * The `fontFamily` value that keeps the platform's font.
 *
 * Since: 0.1
 */
#define AKC_THEME_FONT_FAMILY_SYSTEM "system"

typedef struct _AkcTheme AkcTheme;

#define AKC_TYPE_THEME (akc_theme_get_type ())

AKC_AVAILABLE_IN_ALL
GType         akc_theme_get_type                (void) G_GNUC_CONST;

AKC_AVAILABLE_IN_ALL
AkcTheme     *akc_theme_new_default             (void);
AKC_AVAILABLE_IN_ALL
AkcTheme     *akc_theme_resolve                 (AkcJsonValue    *input,
                                                 GError         **error);
AKC_AVAILABLE_IN_ALL
AkcTheme     *akc_theme_resolve_text            (const char      *text,
                                                 gssize           length,
                                                 GError         **error);
AKC_AVAILABLE_IN_ALL
AkcTheme *akc_theme_resolve_text_utf8 (const char  *text,
                                       GError     **error);

AKC_AVAILABLE_IN_ALL
AkcTheme     *akc_theme_ref                     (AkcTheme        *self);
AKC_AVAILABLE_IN_ALL
void          akc_theme_unref                   (AkcTheme        *self);

AKC_AVAILABLE_IN_ALL
const char   *akc_theme_get_color               (const AkcTheme  *self,
                                                 AkcThemeColor    token);
AKC_AVAILABLE_IN_ALL
double        akc_theme_get_spacing             (const AkcTheme  *self,
                                                 AkcThemeSpacing  token);
AKC_AVAILABLE_IN_ALL
double        akc_theme_get_radius              (const AkcTheme  *self,
                                                 AkcThemeRadius   token);
AKC_AVAILABLE_IN_ALL
const char   *akc_theme_get_font_family         (const AkcTheme  *self);
AKC_AVAILABLE_IN_ALL
gboolean      akc_theme_uses_system_font        (const AkcTheme  *self);

AKC_AVAILABLE_IN_ALL
gboolean      akc_theme_equal                   (const AkcTheme  *a,
                                                 const AkcTheme  *b);
AKC_AVAILABLE_IN_ALL
AkcJsonValue *akc_theme_to_json                 (const AkcTheme  *self);
AKC_AVAILABLE_IN_ALL
char         *akc_theme_to_canonical            (const AkcTheme  *self,
                                                 gsize           *length);
AKC_AVAILABLE_IN_ALL
char *akc_theme_to_canonical_utf8 (const AkcTheme *self);
AKC_AVAILABLE_IN_ALL
AkcJsonValue *akc_theme_dup_dom_css_variables   (const AkcTheme  *self);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (AkcTheme, akc_theme_unref)

G_END_DECLS
