/* akc.h: the umbrella header of libakc
 *
 * SPDX-License-Identifier: MIT
 */

#pragma once

#define __AKC_INSIDE__

#include "akc-version-macros.h"
#include "akc-version.h"

/* protocol/ */

/* core/ */

#undef __AKC_INSIDE__
