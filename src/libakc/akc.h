/* akc.h: the umbrella header of libakc
 *
 * SPDX-License-Identifier: MIT
 */

#pragma once

#define __AKC_INSIDE__

#include "akc-version-macros.h"
#include "akc-version.h"

/* protocol/ */
#include "akc-answer.h"
#include "akc-ask-backend.h"
#include "akc-ask-events.h"
#include "akc-assistant-content.h"
#include "akc-component-frame.h"
#include "akc-json.h"
#include "akc-diagnostic.h"
#include "akc-knowledge-artifact.h"
#include "akc-knowledge-key.h"
#include "akc-message-record.h"
#include "akc-session-snapshot.h"
#include "akc-site-config.h"
#include "akc-turn-cursor.h"
#include "akc-turn-decoder.h"
#include "akc-turn.h"

/* core/ */
#include "akc-enum-types.h"
#include "akc-adapter.h"
#include "akc-adapter-request.h"
#include "akc-chat.h"
#include "akc-chat-source.h"
#include "akc-chunk.h"
#include "akc-controlled-source.h"
#include "akc-echo-adapter.h"
#include "akc-error.h"
#include "akc-json-schema.h"
#include "akc-lineage.h"
#include "akc-message.h"
#include "akc-message-builder.h"
#include "akc-scripted-adapter.h"
#include "akc-stream.h"
#include "akc-tool.h"
#include "akc-tool-call.h"
#include "akc-usage.h"
#include "akc-attachment.h"
#include "akc-text-search.h"

/* components/ */
#include "akc-component-enum-types.h"
#include "akc-choice-list.h"
#include "akc-choice-submission.h"
#include "akc-component-definition.h"
#include "akc-component-manifest.h"
#include "akc-component-resolution.h"
#include "akc-component-text.h"
#include "akc-input-ownership.h"
#include "akc-lifecycle.h"
#include "akc-presentation.h"
#include "akc-resolved-component.h"
#include "akc-theme.h"

/* store/ */
#include "akc-chat-history.h"
#include "akc-chat-memory.h"
#include "akc-conversation-info.h"
#include "akc-conversation-list.h"
#include "akc-conversation-title.h"
#include "akc-search-result.h"
#include "akc-sqlite-chat-memory.h"
#include "akc-sqlite-session-storage.h"

/* answers/ */
#include "akc-choice-reservations.h"
#include "akc-deterministic-adapter.h"
#include "akc-knowledge-resolver.h"

/* net/ */
#include "akc-net-enum-types.h"
#include "akc-ask-adapter.h"
#include "akc-ask-session-memory.h"
#include "akc-credential-store.h"
#include "akc-provider-adapter.h"
#include "akc-turn-client.h"

/* conversation/ */
#include "akc-conversation-enum-types.h"
#include "akc-conversation.h"
#include "akc-definition.h"
#include "akc-memory-session-storage.h"
#include "akc-route.h"
#include "akc-session.h"
#include "akc-session-storage.h"

/* actions/ */
#include "akc-action-enum-types.h"
#include "akc-action-confirmation.h"
#include "akc-capability-policy.h"
#include "akc-clock.h"
#include "akc-confirmation-record.h"
#include "akc-confirmation-store.h"
#include "akc-policy-trace.h"

/* interaction/ */
#include "akc-interaction-controller.h"

/* devtools/ */
#include "akc-devtools-enum-types.h"
#include "akc-renderer-parity.h"
#include "akc-replay-fixture.h"
#include "akc-trace-capture.h"

#undef __AKC_INSIDE__
