/* akc-stored-message-private.h: a message as a row of the history
 *
 * SPDX-License-Identifier: MIT
 *
 * Internal to libakc (not installed, not scanned).
 */

#pragma once

#include <glib.h>

#include "akc-message.h"

G_BEGIN_DECLS

/* A copy of every field of an AkcMessage in the form the history stores,
 * taken on the main thread when a change is handed to the store, so the
 * writer thread never touches a live message. Plain data: no GObject. */
typedef struct
{
  char       *id;
  const char *role;          /* wire string, static */
  const char *status;        /* wire string, static */
  gboolean    stopped;
  char       *content;       /* NUL-terminated, may hold U+0000 */
  gsize       content_length;
  gint64      created_at;    /* microseconds since the Unix epoch, UTC */
  char       *tool_call_id;  /* nullable */
  char       *tool_calls;    /* JSON array (protocol.md §2.9.6), nullable */
  char       *lineage;       /* JSON object (protocol.md §2.5), nullable */
  GPtrArray  *attachments;   /* AkcAttachment (immutable values), nullable */
  gboolean    has_usage;
  AkcUsage    usage;
  char       *error_code;    /* why its turn failed (AkcMessage:error), nullable */
  char       *error_message; /* set when error_code is */
} AkcStoredMessage;

AkcStoredMessage *akc_stored_message_new_from_message (AkcMessage             *message);
void              akc_stored_message_free             (AkcStoredMessage       *stored);

/* Builds a new message from a stored row. The row came from disk: every
 * field is checked, and a row that does not describe a message fails
 * with AKC_CHAT_MEMORY_ERROR_CORRUPT (its text is never echoed). */
AkcMessage       *akc_stored_message_to_message       (const AkcStoredMessage *stored,
                                                       GError                **error);

/* The static wire string of a role or status read from a row (which the
 * row owns), or NULL when it is none. */
const char       *akc_stored_message_intern_role      (const char             *role);
const char       *akc_stored_message_intern_status    (const char             *status);

/* Microseconds since the Unix epoch, and back (NULL outside GDateTime's
 * range). */
gint64            akc_stored_time_from_date_time      (GDateTime              *date_time);
GDateTime        *akc_stored_time_to_date_time        (gint64                  usec);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (AkcStoredMessage, akc_stored_message_free)

G_END_DECLS
