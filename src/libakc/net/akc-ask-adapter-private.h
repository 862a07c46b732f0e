/* akc-ask-adapter-private.h: test hooks of AkcAskAdapter
 *
 * SPDX-License-Identifier: MIT
 *
 * Internal to libakc (not installed, not scanned).
 */

#pragma once

#include "akc-ask-adapter.h"

G_BEGIN_DECLS

/* Called with each transport read of a response body, before it is
 * decoded, and with NULL at the end of the body. */
typedef void (*AkcAskReadObserver) (GBytes   *read,
                                     gpointer  user_data);

void  akc_ask_adapter_set_read_observer     (AkcAskAdapter      *self,
                                             AkcAskReadObserver  observer,
                                             gpointer            user_data);

/* Turns still holding transport work. */
guint akc_ask_adapter_get_n_turns           (AkcAskAdapter      *self);

/* Bytes the turns in flight hold for decoding, summed. */
gsize akc_ask_adapter_get_retained_size     (AkcAskAdapter      *self);

G_END_DECLS
