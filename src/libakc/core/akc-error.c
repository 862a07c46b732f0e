/* akc-error.c
 *
 * SPDX-License-Identifier: MIT
 */

#include "config.h"

#include "akc-error.h"

G_DEFINE_QUARK (akc-error-quark, akc_error)
