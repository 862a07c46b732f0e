/* akc-trace-capture.h: why a turn, a policy decision or an action happened
 * (application.md §10.1)
 *
 * SPDX-License-Identifier: MIT
 */

#pragma once

#if !defined(__AKC_INSIDE__) && !defined(AKC_COMPILATION)
#error "Only <akc.h> can be included directly."
#endif

#include <glib-object.h>

#include "akc-action-confirmation.h"
#include "akc-adapter.h"
#include "akc-capability-policy.h"
#include "akc-clock.h"
#include "akc-confirmation-record.h"
#include "akc-json.h"
#include "akc-policy-trace.h"
#include "akc-route.h"
#include "akc-session.h"
#include "akc-turn-client.h"
#include "akc-version-macros.h"

G_BEGIN_DECLS

/**
 * AkcTraceCategory:
 * @AKC_TRACE_CATEGORY_ROUTE: `route`: a deterministic route answered
 * @AKC_TRACE_CATEGORY_AGENT: `agent`: the model answered
 * @AKC_TRACE_CATEGORY_REPAIR: `repair`: a route answered a repaired turn
 * @AKC_TRACE_CATEGORY_FALLBACK: `fallback`: a fallback route answered
 * @AKC_TRACE_CATEGORY_POLICY: `policy`: a capability policy decided
 * @AKC_TRACE_CATEGORY_ACTION: `action`: a typed action changed status
 * @AKC_TRACE_CATEGORY_LIFECYCLE: `lifecycle`: anything else a host records
 *
 * What a trace record is about (application.md §10.1). The wire strings
 * are those of [func@TraceCategory.to_string].
 *
 * Since: 0.1
 */
typedef enum
{
  AKC_TRACE_CATEGORY_ROUTE,
  AKC_TRACE_CATEGORY_AGENT,
  AKC_TRACE_CATEGORY_REPAIR,
  AKC_TRACE_CATEGORY_FALLBACK,
  AKC_TRACE_CATEGORY_POLICY,
  AKC_TRACE_CATEGORY_ACTION,
  AKC_TRACE_CATEGORY_LIFECYCLE,
} AkcTraceCategory;

AKC_AVAILABLE_IN_ALL
const char *akc_trace_category_to_string   (AkcTraceCategory  category);
AKC_AVAILABLE_IN_ALL
gboolean    akc_trace_category_from_string (const char       *string,
                                            AkcTraceCategory *category);

/**
 * AKC_TRACE_ERROR:
 *
 * The error domain of trace capture, replay fixtures and renderer parity
 * (application.md §10).
 *
 * Since: 0.1
 */
#define AKC_TRACE_ERROR (akc_trace_error_quark ())

/**
 * AkcTraceError:
 * @AKC_TRACE_ERROR_INVALID_DETAIL: a record's category, detail or time is
 *   not valid
 * @AKC_TRACE_ERROR_INVALID_PARENT: a parent id does not name an earlier
 *   record
 * @AKC_TRACE_ERROR_TOO_LARGE: a replay fixture is over 16 MiB
 * @AKC_TRACE_ERROR_ENVELOPE_INVALID: a replay fixture's envelope or traces
 *   are not valid
 * @AKC_TRACE_ERROR_CASSETTE_VERSION: a cassette has another version than 1
 * @AKC_TRACE_ERROR_CASSETTE_INVALID: a cassette is not valid
 * @AKC_TRACE_ERROR_INVALID_INPUT: renderer outcomes are not valid
 * @AKC_TRACE_ERROR_REPLAY_EXHAUSTED: a replay was asked for more turns than
 *   its cassette has
 *
 * Errors of [class@TraceCapture], [struct@ReplayFixture] and
 * [func@renderer_outcomes_compare].
 *
 * Since: 0.1
 */
typedef enum
{
  AKC_TRACE_ERROR_INVALID_DETAIL,
  AKC_TRACE_ERROR_INVALID_PARENT,
  AKC_TRACE_ERROR_TOO_LARGE,
  AKC_TRACE_ERROR_ENVELOPE_INVALID,
  AKC_TRACE_ERROR_CASSETTE_VERSION,
  AKC_TRACE_ERROR_CASSETTE_INVALID,
  AKC_TRACE_ERROR_INVALID_INPUT,
  AKC_TRACE_ERROR_REPLAY_EXHAUSTED,
} AkcTraceError;

AKC_AVAILABLE_IN_ALL
GQuark akc_trace_error_quark (void);

#define AKC_TYPE_TRACE_RECORD (akc_trace_record_get_type ())

typedef struct _AkcTraceRecord AkcTraceRecord;

AKC_AVAILABLE_IN_ALL
GType             akc_trace_record_get_type      (void) G_GNUC_CONST;
AKC_AVAILABLE_IN_ALL
AkcTraceRecord   *akc_trace_record_new_from_json (AkcJsonValue         *value,
                                                  GError              **error);
AKC_AVAILABLE_IN_ALL
AkcTraceRecord   *akc_trace_record_ref           (AkcTraceRecord       *self);
AKC_AVAILABLE_IN_ALL
void              akc_trace_record_unref         (AkcTraceRecord       *self);
AKC_AVAILABLE_IN_ALL
const char       *akc_trace_record_get_id        (const AkcTraceRecord *self);
AKC_AVAILABLE_IN_ALL
guint             akc_trace_record_get_sequence  (const AkcTraceRecord *self);
AKC_AVAILABLE_IN_ALL
const char       *akc_trace_record_get_at        (const AkcTraceRecord *self);
AKC_AVAILABLE_IN_ALL
AkcTraceCategory  akc_trace_record_get_category  (const AkcTraceRecord *self);
AKC_AVAILABLE_IN_ALL
const char       *akc_trace_record_get_parent_id (const AkcTraceRecord *self);
AKC_AVAILABLE_IN_ALL
AkcJsonValue     *akc_trace_record_get_detail    (const AkcTraceRecord *self);
AKC_AVAILABLE_IN_ALL
AkcJsonValue     *akc_trace_record_to_json       (const AkcTraceRecord *self);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (AkcTraceRecord, akc_trace_record_unref)

#define AKC_TYPE_TRACE_CAPTURE (akc_trace_capture_get_type ())

AKC_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (AkcTraceCapture, akc_trace_capture, AKC, TRACE_CAPTURE, GObject)

AKC_AVAILABLE_IN_ALL
AkcTraceCapture *akc_trace_capture_new                (const char * const    *redact_fields);
AKC_AVAILABLE_IN_ALL
void             akc_trace_capture_set_clock          (AkcTraceCapture       *self,
                                                       AkcClockFunc           func,
                                                       gpointer               user_data,
                                                       GDestroyNotify         destroy);
AKC_AVAILABLE_IN_ALL
const char * const *akc_trace_capture_get_redact_fields (AkcTraceCapture     *self);
AKC_AVAILABLE_IN_ALL
const char      *akc_trace_capture_get_decided_by     (AkcTraceCapture       *self);
AKC_AVAILABLE_IN_ALL
void             akc_trace_capture_set_decided_by     (AkcTraceCapture       *self,
                                                       const char            *backend);
AKC_AVAILABLE_IN_ALL
AkcJsonValue    *akc_trace_capture_redact             (AkcTraceCapture       *self,
                                                       AkcJsonValue          *value);
AKC_AVAILABLE_IN_ALL
AkcTraceRecord  *akc_trace_capture_append             (AkcTraceCapture       *self,
                                                       AkcTraceCategory       category,
                                                       AkcJsonValue          *detail,
                                                       const char            *parent_id,
                                                       const char            *at,
                                                       GError               **error);
AKC_AVAILABLE_IN_ALL
AkcTraceRecord  *akc_trace_capture_capture_turn       (AkcTraceCapture       *self,
                                                       AkcTraceKind           kind,
                                                       const char            *route_id,
                                                       const char            *from_state,
                                                       const char            *to_state,
                                                       const char            *parent_id,
                                                       GError               **error);
AKC_AVAILABLE_IN_ALL
AkcTraceRecord  *akc_trace_capture_capture_policy     (AkcTraceCapture       *self,
                                                       const AkcPolicyTrace  *trace,
                                                       const char            *parent_id,
                                                       GError               **error);
AKC_AVAILABLE_IN_ALL
AkcTraceRecord  *akc_trace_capture_capture_action     (AkcTraceCapture       *self,
                                                       const AkcConfirmationRecord *record,
                                                       const char            *parent_id,
                                                       GError               **error);
AKC_AVAILABLE_IN_ALL
GPtrArray       *akc_trace_capture_snapshot           (AkcTraceCapture       *self);
AKC_AVAILABLE_IN_ALL
guint            akc_trace_capture_get_n_records      (AkcTraceCapture       *self);
AKC_AVAILABLE_IN_ALL
const char      *akc_trace_capture_get_current_turn   (AkcTraceCapture       *self);
AKC_AVAILABLE_IN_ALL
void             akc_trace_capture_clear              (AkcTraceCapture       *self);
AKC_AVAILABLE_IN_ALL
void             akc_trace_capture_watch_session      (AkcTraceCapture       *self,
                                                       AkcSession            *session);
AKC_AVAILABLE_IN_ALL
void             akc_trace_capture_watch_policy       (AkcTraceCapture       *self,
                                                       AkcCapabilityPolicy   *policy);
AKC_AVAILABLE_IN_ALL
void             akc_trace_capture_watch_confirmation (AkcTraceCapture       *self,
                                                       AkcActionConfirmation *confirmation);

/**
 * AKC_TRACE_CAPTURE_DEFAULT_MAX_WIRE_EVENTS:
 *
 * How many wire events a [class@TraceCapture] keeps unless told otherwise.
 *
 * Since: 0.1
 */
#define AKC_TRACE_CAPTURE_DEFAULT_MAX_WIRE_EVENTS 500

AKC_AVAILABLE_IN_ALL
AkcJsonValue    *akc_trace_capture_add_wire_event     (AkcTraceCapture       *self,
                                                       const char            *source,
                                                       const char            *direction,
                                                       AkcJsonValue          *event);
AKC_AVAILABLE_IN_ALL
GPtrArray       *akc_trace_capture_dup_wire_events    (AkcTraceCapture       *self);
AKC_AVAILABLE_IN_ALL
guint            akc_trace_capture_get_n_wire_events  (AkcTraceCapture       *self);
AKC_AVAILABLE_IN_ALL
guint            akc_trace_capture_get_max_wire_events (AkcTraceCapture      *self);
AKC_AVAILABLE_IN_ALL
void             akc_trace_capture_set_max_wire_events (AkcTraceCapture      *self,
                                                       guint                  max_events);
AKC_AVAILABLE_IN_ALL
void             akc_trace_capture_watch_turn_client  (AkcTraceCapture       *self,
                                                       AkcTurnClient         *client);
AKC_AVAILABLE_IN_ALL
AkcAdapter      *akc_trace_capture_wrap_adapter       (AkcTraceCapture       *self,
                                                       AkcAdapter            *adapter,
                                                       const char            *source);

G_END_DECLS
