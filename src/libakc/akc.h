/* akc.h: the umbrella header of libakc
 *
 * SPDX-License-Identifier: MIT
 */

#pragma once

#define __AKC_INSIDE__

#include "akc-version-macros.h"
#include "akc-version.h"

/* protocol/ */
#include "akc-ask-events.h"
#include "akc-assistant-content.h"
#include "akc-component-frame.h"
#include "akc-json.h"
#include "akc-diagnostic.h"
#include "akc-knowledge-key.h"

/* core/ */
#include "akc-enum-types.h"
#include "akc-adapter.h"
#include "akc-chat.h"
#include "akc-chat-source.h"
#include "akc-chunk.h"
#include "akc-echo-adapter.h"
#include "akc-message.h"
#include "akc-stream.h"

#undef __AKC_INSIDE__
