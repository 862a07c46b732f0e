/* akc-test-gated-source.h: a chat source for the tests of tool-call
 * confirmation that does what no real source does
 *
 * SPDX-License-Identifier: MIT
 *
 * It fails approvals and denials on demand, gives proposed calls an id of
 * its own (the vectors' upstreamToolCallId), can propose calls that do not
 * wait for confirmation, and counts what it is asked. Its state and
 * properties are the sources' own (AkcChatSourceState); the actions it does
 * not offer are AkcChatSource's defaults. Built on libakc's private
 * headers: for tests linked with libakc's static library.
 */

#pragma once

#include <akc.h>

#include "akc-chat-source-state-private.h"

G_BEGIN_DECLS

#define AKC_TEST_TYPE_GATED_SOURCE (akc_test_gated_source_get_type ())
G_DECLARE_FINAL_TYPE (AkcTestGatedSource, akc_test_gated_source, AKC_TEST, GATED_SOURCE, GObject)

struct _AkcTestGatedSource
{
  GObject            parent_instance;

  AkcChatSourceState state;
  GHashTable        *calls;             /* id → AkcToolCall, every call proposed */
  guint              proposes;
  guint              approves;
  guint              denies;
  guint              approve_failures;  /* how many approvals to come fail */
  guint              deny_failures;     /* how many denials to come fail */
  gboolean           ungated;           /* proposals do not wait for confirmation */
  char              *last_reason;       /* of the last denial */
  char              *call_id;           /* the id calls get, if not the proposal's */
  char              *approve_failure;   /* the message of the approval failures */
};

AkcTestGatedSource *akc_test_gated_source_new              (void);
/* The next approval fails with @message (G_IO_ERROR_FAILED). */
void                akc_test_gated_source_fail_approval    (AkcTestGatedSource *self,
                                                            const char         *message);

G_END_DECLS
