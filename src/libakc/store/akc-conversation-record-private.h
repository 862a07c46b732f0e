/* akc-conversation-record-private.h: a whole stored conversation as
 * plain data, and its export formats
 *
 * SPDX-License-Identifier: MIT
 *
 * Internal to libakc (not installed, not scanned).
 */

#pragma once

#include <glib.h>

#include "akc-stored-message-private.h"
#include "akc-usage.h"

G_BEGIN_DECLS

/* One row of component_resolutions. */
typedef struct
{
  char   *instance_id;
  char   *message_id;
  char   *event;
  char   *value;        /* canonical JSON, or NULL */
  gint64  resolved_at;  /* microseconds since the Unix epoch, UTC */
} AkcStoredResolution;

/* Every field of a conversation, read in one transaction or parsed from
 * an export. */
typedef struct
{
  char      *id;
  char      *assistant_id;
  char      *title;
  gboolean   pinned;
  gint64     created_at;
  gint64     updated_at;
  AkcUsage   usage;
  char      *provider_kind; /* nullable: the model provider it is held with */
  char      *provider_url;  /* nullable */
  char      *model;         /* nullable */
  GPtrArray *messages;     /* AkcStoredMessage */
  GPtrArray *resolutions;  /* AkcStoredResolution */
} AkcConversationRecord;

/* The bounds of an import (docs/conversation-format.md). */
#define AKC_CONVERSATION_IMPORT_MAX_BYTES        (256 * 1024 * 1024)
#define AKC_CONVERSATION_IMPORT_MAX_DEPTH        64
#define AKC_CONVERSATION_IMPORT_MAX_MESSAGES     100000
#define AKC_CONVERSATION_IMPORT_MAX_RESOLUTIONS  10000
#define AKC_CONVERSATION_IMPORT_MAX_TOOL_CALLS   256
#define AKC_CONVERSATION_IMPORT_MAX_TITLE_BYTES  4096
#define AKC_CONVERSATION_IMPORT_MAX_ID_BYTES     256

/* The name and version an export carries. */
#define AKC_CONVERSATION_FORMAT_NAME    "agentskit.chat.conversation"
#define AKC_CONVERSATION_FORMAT_VERSION 1

AkcConversationRecord *akc_conversation_record_new        (void);
void                   akc_conversation_record_free       (AkcConversationRecord *record);
void                   akc_stored_resolution_free         (AkcStoredResolution   *resolution);

void                   akc_conversation_record_write_json (const AkcConversationRecord *record,
                                                           GString                     *out);
void                   akc_conversation_record_write_markdown (const AkcConversationRecord *record,
                                                               GString                     *out);
/* Parses and checks an export as untrusted input: NULL with an
 * AKC_CHAT_MEMORY_ERROR_INVALID naming the field path on any problem. */
AkcConversationRecord *akc_conversation_record_parse_json (const char                  *data,
                                                           gsize                        length,
                                                           GError                     **error);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (AkcConversationRecord, akc_conversation_record_free)

G_END_DECLS
