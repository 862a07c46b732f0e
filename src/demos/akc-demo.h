/* akc-demo.h: the offline demo applications of application.md §13
 *
 * SPDX-License-Identifier: MIT
 */

#pragma once

#include <akc.h>

G_BEGIN_DECLS

#define AKC_TYPE_DEMO (akc_demo_get_type ())

G_DECLARE_FINAL_TYPE (AkcDemo, akc_demo, AKC, DEMO, GObject)

const char * const    *akc_demo_get_ids             (void);
const char            *akc_demo_get_title_for       (const char             *id);
const char            *akc_demo_get_summary_for     (const char             *id);

AkcDemo               *akc_demo_new                 (const char             *id,
                                                     GError                **error);
AkcDemo               *akc_demo_new_full            (const char             *id,
                                                     const char             *session_id,
                                                     const char * const     *capabilities,
                                                     AkcAdapter             *model,
                                                     GError                **error);
AkcDemo               *akc_demo_new_with_capabilities (const char           *id,
                                                     const char * const     *capabilities,
                                                     GError                **error);

void                   akc_demo_attach_storage_async  (AkcDemo              *self,
                                                     AkcSessionStorage      *storage,
                                                     GCancellable           *cancellable,
                                                     GAsyncReadyCallback     callback,
                                                     gpointer                user_data);
gboolean               akc_demo_attach_storage_finish (AkcDemo              *self,
                                                     GAsyncResult           *result,
                                                     GError                **error);

const char            *akc_demo_get_id              (AkcDemo                *self);
const char            *akc_demo_get_session_id      (AkcDemo                *self);
AkcChat               *akc_demo_get_chat            (AkcDemo                *self);
AkcSession            *akc_demo_get_session         (AkcDemo                *self);
const char            *akc_demo_get_state           (AkcDemo                *self);
AkcCapabilityPolicy   *akc_demo_get_policy          (AkcDemo                *self);
AkcJsonValue          *akc_demo_dup_host_context    (AkcDemo                *self,
                                                     const char             *session_id,
                                                     const char             *customer_id);
AkcCapabilityPolicy   *akc_demo_new_policy          (AkcDemo                *self,
                                                     const char             *session_id,
                                                     const char             *customer_id,
                                                     GError                **error);
AkcActionConfirmation *akc_demo_get_confirmation    (AkcDemo                *self);
AkcInteractionController *akc_demo_get_interaction (AkcDemo              *self);
GPtrArray             *akc_demo_get_audit           (AkcDemo                *self);
AkcTraceCapture       *akc_demo_get_trace_capture   (AkcDemo                *self);
void                   akc_demo_set_reply_interval  (AkcDemo                *self,
                                                     guint                   interval_ms);

gboolean               akc_demo_interact            (AkcDemo                *self,
                                                     AkcJsonValue           *frame,
                                                     const char             *event,
                                                     AkcJsonValue           *value);
gboolean               akc_demo_select              (AkcDemo                *self,
                                                     AkcJsonValue           *frame,
                                                     const char             *choice_id);

G_END_DECLS
