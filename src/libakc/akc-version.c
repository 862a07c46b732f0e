/* akc-version.c
 *
 * SPDX-License-Identifier: MIT
 */

#include "config.h"

#include "akc-version.h"

/**
 * akc_get_version:
 *
 * Returns the version of the libakc library that the program is running
 * against, for example `"0.1.0"`.
 *
 * Returns: (transfer none): the version string
 *
 * Since: 0.1
 */
const char *
akc_get_version (void)
{
  return PACKAGE_VERSION;
}
