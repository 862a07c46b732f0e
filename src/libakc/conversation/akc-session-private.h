/* akc-session-private.h: what the confirmation stores of a session use
 *
 * SPDX-License-Identifier: MIT
 */

#pragma once

#include "akc-session.h"

G_BEGIN_DECLS

/* Replaces the session's confirmations with @confirmations (an array of
 * stored confirmations, without session ids) and saves, awaited: on
 * failure the previous list is restored and the error returned; on
 * success ::confirmations-changed is emitted. */
void     akc_session_replace_confirmations_async  (AkcSession           *self,
                                                   AkcJsonValue         *confirmations,
                                                   GCancellable         *cancellable,
                                                   GAsyncReadyCallback   callback,
                                                   gpointer              user_data);
gboolean akc_session_replace_confirmations_finish (AkcSession           *self,
                                                   GAsyncResult         *result,
                                                   GError              **error);

G_END_DECLS
