/* akc-message-record-private.h: message records of the turn protocol
 * (protocol §2.9: structural limits, record, MessageTimestamp,
 * projection, parts, tool calls)
 *
 * SPDX-License-Identifier: MIT
 *
 * Internal to libakc. The reference delegates these rules to
 * `@agentskit/core` (validateMemoryRecord over `{"version":1,"messages":…}`);
 * here they are one table (akc_message_record_table) plus the wrapper's
 * structural limits, split so that the incremental snapshot decoder
 * (akc-turn-decoder.c) can check a single record on its own and add up the
 * global count itself:
 *
 *   whole array valid  ⇔  array length ≤ max_array_len
 *                       ∧ Σ raw_values (records) + 3 ≤ max_values
 *                       ∧ every record passes akc_message_record_check_limits()
 *                       ∧ every record passes akc_message_record_table
 *
 * (the 3 are the wrapper object, its `version` number and the `messages`
 * array, all of which the reference counts).
 */

#pragma once

#include <glib.h>

#include "akc-json-private.h"
#include "akc-message-record.h"
#include "akc-schema-private.h"

G_BEGIN_DECLS

/* Values of the `{"version":1,"messages":[…]}` wrapper that are not records:
 * the wrapper object, `version` and the array. */
#define AKC_MESSAGE_WRAPPER_VALUES 3u
/* Depth of a record inside the wrapper (wrapper 0, array 1, record 2). */
#define AKC_MESSAGE_RECORD_DEPTH   2u

/* §2.9.3: the fields of a valid MessageTimestamp. */
typedef struct {
  int year;
  int month;
  int day;
  int hour;
  int minute;
  int second;
  int millisecond;
} AkcMessageTimestamp;

/* §2.9.3 `^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$` and a real instant
 * (proleptic Gregorian, year 0000 leap) whose ISO rendering is the input.
 * @out is nullable. */
gboolean      akc_message_timestamp_parse       (const char                *s,
                                                 gsize                      len,
                                                 AkcMessageTimestamp       *out);
gboolean      akc_message_timestamp_is_valid    (const char                *s,
                                                 gsize                      len);

/* One message record (§2.9.2, open) with its parts (§2.9.5) and tool calls
 * (§2.9.6); validation projects it into canonical order (§2.9.4). */
extern const AkcSchemaTable akc_message_record_table;

/* §2.9.1 rules that concern one record alone: finite numbers, record depth
 * within the wrapper, containers and member names, and its value count
 * within what the wrapper leaves. Pure, O(size of the record). */
gboolean      akc_message_record_check_limits   (const AkcJsonValue        *record);

/* The whole `messages` array: §2.9.1 over the wrapper, then every record
 * against akc_message_record_table. @out (nullable) receives the array of
 * projected records (transfer full). */
/* After akc_message_records_validate() failed: appends `[i]` and the
 * path of the first failing field of record i to @path and says why. */
char         *akc_message_records_explain       (AkcJsonValue              *messages,
                                                 GString                   *path);
gboolean      akc_message_records_validate      (AkcJsonValue              *messages,
                                                 AkcJsonValue             **out);

/* The memory record `{"version":1,"messages":[…]}` (§2.9): the wrapper's
 * table over akc_message_records_validate(). Returns the projected
 * messages (transfer full), or NULL when @record is not one. */
AkcJsonValue *akc_message_memory_record_decode  (AkcJsonValue              *record);

/* The global part of §2.9.1 given the per-record sums. */
gboolean      akc_message_records_check_totals  (gsize                      n_records,
                                                 guint64                    sum_raw_values);

/* Wraps an already validated, projected record (takes a reference).
 * Fails (NULL, @error set) only when its createdAt cannot be held by a
 * GDateTime (year 0000). */
AkcMessageRecord *akc_message_record_new_validated (AkcJsonValue           *record,
                                                    GError                **error);

G_END_DECLS
