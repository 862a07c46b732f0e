/* akc-trace-capture-private.h
 *
 * SPDX-License-Identifier: MIT
 */

#pragma once

#include "akc-json-private.h"
#include "akc-trace-capture.h"

G_BEGIN_DECLS

/* Writes @self as its wire record (for fixtures, without a parse). */
void          akc_trace_record_write    (const AkcTraceRecord *self,
                                         AkcJsonWriter        *w);

/* A copy of @value with the capture's redact fields replaced at any
 * depth (a new reference to @value when nothing matches). */
AkcJsonValue *akc_trace_capture_redact  (AkcTraceCapture      *self,
                                         AkcJsonValue         *value);

G_END_DECLS
