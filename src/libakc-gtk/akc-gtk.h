/* akc-gtk.h: the umbrella header of libakc-gtk
 *
 * SPDX-License-Identifier: MIT
 */

#pragma once

#include <gtk/gtk.h>
#include <akc.h>

#define __AKC_GTK_INSIDE__

#include "akc-gtk-version-macros.h"
#include "akc-gtk-main.h"

/* components/ */
#include "akc-component-view.h"

/* view/ */
#include "akc-chat-view.h"
#include "akc-chat-view-slots.h"
#include "akc-composer.h"
#include "akc-message-row.h"
#include "akc-find-bar.h"

/* the ready chat widget */
#include "akc-chat-widget.h"

#undef __AKC_GTK_INSIDE__
