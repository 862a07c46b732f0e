/* akc-gtk-version-macros.h
 *
 * SPDX-License-Identifier: MIT
 */

#pragma once

#if !defined(__AKC_GTK_INSIDE__) && !defined(AKC_GTK_COMPILATION)
#error "Only <akc-gtk.h> can be included directly."
#endif

#include <glib.h>

#ifndef _AKC_GTK_EXTERN
# define _AKC_GTK_EXTERN __attribute__((visibility("default"))) extern
#endif

/**
 * AKC_GTK_AVAILABLE_IN_ALL:
 *
 * Marks a symbol as part of the public, exported API of libakc-gtk.
 */
#define AKC_GTK_AVAILABLE_IN_ALL _AKC_GTK_EXTERN
