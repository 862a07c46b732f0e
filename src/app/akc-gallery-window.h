/* akc-gallery-window.h
 *
 * SPDX-License-Identifier: MIT
 */

#pragma once

#include <adwaita.h>

G_BEGIN_DECLS

#define AKC_TYPE_GALLERY_WINDOW (akc_gallery_window_get_type ())

G_DECLARE_FINAL_TYPE (AkcGalleryWindow, akc_gallery_window, AKC, GALLERY_WINDOW, AdwApplicationWindow)

AkcGalleryWindow *akc_gallery_window_new (AdwApplication *application);

G_END_DECLS
