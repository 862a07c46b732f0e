/* akc-error.c
 *
 * SPDX-License-Identifier: MIT
 */

#include "config.h"

#include "akc-error.h"

/**
 * akc_error_quark:
 *
 * Gets the error domain of [error@Error], the quark %AKC_ERROR
 * stands for.
 *
 * Returns: the error quark
 *
 * Since: 0.1
 */
G_DEFINE_QUARK (akc-error-quark, akc_error)
