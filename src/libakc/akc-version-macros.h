/* akc-version-macros.h
 *
 * SPDX-License-Identifier: MIT
 */

#pragma once

#if !defined(__AKC_INSIDE__) && !defined(AKC_COMPILATION)
#error "Only <akc.h> can be included directly."
#endif

#include <glib.h>

#ifndef _AKC_EXTERN
# define _AKC_EXTERN __attribute__((visibility("default"))) extern
#endif

/**
 * AKC_AVAILABLE_IN_ALL:
 *
 * Marks a symbol as part of the public, exported API of libakc.
 */
#define AKC_AVAILABLE_IN_ALL _AKC_EXTERN
