/* akc-conversation-test.h: conversation definitions written as data
 * (application/README.md "Conversation definition data"), a fake model
 * adapter, and JSON helpers for the conversation and session tests.
 *
 * SPDX-License-Identifier: MIT
 */

#pragma once

#include "akc.h"
#include "akc-fixture.h"
#include "akc-test.h"

G_BEGIN_DECLS

/* The fixtures' model: streams "AgentsKit received: «latest user
 * content»" then done, one chunk per main-loop iteration, and counts its
 * calls and the session ids it was called with. It declares the
 * capabilities {"streaming": true}. */
#define AKC_TYPE_TEST_UPSTREAM (akc_test_upstream_get_type ())
G_DECLARE_FINAL_TYPE (AkcTestUpstream, akc_test_upstream, AKC, TEST_UPSTREAM, GObject)

AkcTestUpstream *akc_test_upstream_new            (void);
guint            akc_test_upstream_get_n_calls    (AkcTestUpstream *self);
const char      *akc_test_upstream_get_session_id (AkcTestUpstream *self);

/* Builds the definition @data describes, answered by @upstream (nullable).
 * Fails like the reference's definition helpers (an empty command). */
AkcDefinition   *akc_test_definition_new          (AkcJsonValue    *data,
                                                   AkcAdapter      *upstream,
                                                   GError         **error);

/* The normative messages of application.md Appendix A (§3, §4): compared
 * exactly; any other expected message is informative. */
gboolean         akc_test_message_is_normative    (const char      *message);

/* A user/assistant message list from [{id, role, content}]. */
GListModel      *akc_test_messages_new            (AkcJsonValue    *messages);

/* Runs @stream's adapter turn to its end and returns the chunks as
 * [{type, content?}]. */
AkcJsonValue    *akc_test_run_stream              (AkcAdapter      *adapter,
                                                   AkcAdapterRequest *request);

/* Collects traces as JSON {kind, routeId?, fromState, toState}. */
void             akc_test_collect_traces          (AkcSession      *session,
                                                   GPtrArray       *traces);
AkcJsonValue    *akc_test_take_array              (GPtrArray       *values);

/* Iterates the default main context until @session has nothing to save. */
void             akc_test_wait_persisted          (AkcSession      *session);

/* JSON builders (they take ownership of the values given). */
AkcJsonValue    *akc_test_str                     (const char      *s);
AkcJsonValue    *akc_test_object                  (const char      *first_name,
                                                   ...) G_GNUC_NULL_TERMINATED;

G_END_DECLS
