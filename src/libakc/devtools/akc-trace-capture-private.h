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

G_END_DECLS
