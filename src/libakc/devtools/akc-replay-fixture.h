/* akc-replay-fixture.h: recorded conversations to replay
 * (application.md §10.2)
 *
 * SPDX-License-Identifier: MIT
 */

#pragma once

#if !defined(__AKC_INSIDE__) && !defined(AKC_COMPILATION)
#error "Only <akc.h> can be included directly."
#endif

#include <glib-object.h>

#include "akc-adapter.h"
#include "akc-chunk.h"
#include "akc-json.h"
#include "akc-trace-capture.h"
#include "akc-version-macros.h"

G_BEGIN_DECLS

/**
 * AKC_REPLAY_FIXTURE_MAX_BYTES:
 *
 * The largest replay fixture text read, in bytes (16 MiB), checked before
 * parsing.
 *
 * Since: 0.1
 */
#define AKC_REPLAY_FIXTURE_MAX_BYTES 16777216

/**
 * AKC_REPLAY_FIXTURE_MAX_TRACES:
 *
 * The most trace records a replay fixture holds.
 *
 * Since: 0.1
 */
#define AKC_REPLAY_FIXTURE_MAX_TRACES 10000

#define AKC_TYPE_REPLAY_FIXTURE (akc_replay_fixture_get_type ())

typedef struct _AkcReplayFixture AkcReplayFixture;

AKC_AVAILABLE_IN_ALL
GType             akc_replay_fixture_get_type          (void) G_GNUC_CONST;
AKC_AVAILABLE_IN_ALL
AkcReplayFixture *akc_replay_fixture_parse             (const char        *text,
                                                        gssize             length,
                                                        GError           **error);
AKC_AVAILABLE_IN_ALL
AkcReplayFixture *akc_replay_fixture_parse_utf8 (const char  *text,
                                                 GError     **error);
AKC_AVAILABLE_IN_ALL
AkcReplayFixture *akc_replay_fixture_new               (AkcJsonValue      *cassette,
                                                        GPtrArray         *traces,
                                                        GError           **error);
AKC_AVAILABLE_IN_ALL
AkcReplayFixture *akc_replay_fixture_new_from_messages (GListModel       *messages,
                                                        AkcTraceCapture  *capture,
                                                        GError          **error);
AKC_AVAILABLE_IN_ALL
AkcReplayFixture *akc_replay_fixture_ref               (AkcReplayFixture  *self);
AKC_AVAILABLE_IN_ALL
void              akc_replay_fixture_unref             (AkcReplayFixture  *self);
AKC_AVAILABLE_IN_ALL
char             *akc_replay_fixture_serialize         (AkcReplayFixture  *self);
AKC_AVAILABLE_IN_ALL
AkcJsonValue     *akc_replay_fixture_get_cassette      (AkcReplayFixture  *self);
AKC_AVAILABLE_IN_ALL
GPtrArray        *akc_replay_fixture_get_traces        (AkcReplayFixture  *self);
AKC_AVAILABLE_IN_ALL
guint             akc_replay_fixture_get_n_entries     (AkcReplayFixture  *self);
AKC_AVAILABLE_IN_ALL
AkcJsonValue     *akc_replay_fixture_get_entry_messages (AkcReplayFixture *self,
                                                        guint              index_);
AKC_AVAILABLE_IN_ALL
AkcJsonValue     *akc_replay_fixture_get_entry_chunks  (AkcReplayFixture  *self,
                                                        guint              index_);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (AkcReplayFixture, akc_replay_fixture_unref)

AKC_AVAILABLE_IN_ALL
AkcJsonValue     *akc_chunk_to_replay_json             (AkcChunk          *chunk);
AKC_AVAILABLE_IN_ALL
AkcChunk         *akc_chunk_new_from_replay_json       (AkcJsonValue      *value,
                                                        GError           **error);

#define AKC_TYPE_REPLAY_ADAPTER (akc_replay_adapter_get_type ())

AKC_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (AkcReplayAdapter, akc_replay_adapter, AKC, REPLAY_ADAPTER, GObject)

AKC_AVAILABLE_IN_ALL
AkcAdapter       *akc_replay_adapter_new               (AkcReplayFixture  *fixture);
AKC_AVAILABLE_IN_ALL
AkcReplayFixture *akc_replay_adapter_get_fixture       (AkcReplayAdapter  *self);
AKC_AVAILABLE_IN_ALL
guint             akc_replay_adapter_get_position      (AkcReplayAdapter  *self);
AKC_AVAILABLE_IN_ALL
void              akc_replay_adapter_set_position      (AkcReplayAdapter  *self,
                                                        guint              position);

G_END_DECLS
