/* akc-ask-projection-private.h: the pure parts of the Ask client
 * (application §8.1, §8.2, §8.4)
 *
 * SPDX-License-Identifier: MIT
 *
 * Internal to libakc (not installed, not scanned).
 */

#pragma once

#include <gio/gio.h>

#include "akc-json.h"

G_BEGIN_DECLS

/* The endpoint used when none is configured (§8.1). */
#define AKC_ASK_DEFAULT_ENDPOINT "https://ask.agentskit.io/v1/ask"

/* The session id of an adapter called without a session (§4.6). */
#define AKC_ASK_UNSCOPED_SESSION "unscoped"

typedef enum
{
  AKC_ASK_PROJECTION_NONE,
  AKC_ASK_PROJECTION_TEXT,
  AKC_ASK_PROJECTION_COMPONENT,
  AKC_ASK_PROJECTION_ERROR,
  AKC_ASK_PROJECTION_DONE,
} AkcAskProjectionKind;

typedef struct
{
  AkcAskProjectionKind  kind;
  const char           *text;     /* TEXT, ERROR: borrowed from the event */
  gsize                 length;
  const char           *code;     /* ERROR: the event's code, nullable */
  AkcJsonValue         *frame;    /* COMPONENT: owned, a valid render frame */
} AkcAskProjection;

/* The host's projectTool hook: returns (transfer full) a candidate frame
 * for a tool event, or NULL ("throws" or declines). */
typedef AkcJsonValue *(*AkcAskToolProjector) (AkcJsonValue *event,
                                              gpointer      user_data);

void          akc_ask_projection_clear   (AkcAskProjection    *projection);

/* §8.4: projects one valid Ask event. */
void          akc_ask_project_event      (AkcJsonValue        *event,
                                          AkcAskToolProjector  projector,
                                          gpointer             projector_data,
                                          AkcAskProjection    *projection);

/* §8.4 safeHref. @anchor is used when non-NULL. Returns NULL when unsafe. */
char         *akc_ask_safe_href          (const char          *path,
                                          gsize                path_len,
                                          const char          *anchor,
                                          gsize                anchor_len);

/* §0.3 sanitising into an identifier. */
char         *akc_ask_sanitize_id        (const char          *value,
                                          gsize                len,
                                          const char          *fallback);

/* §8.2: the history projection of @messages (a list of AkcMessage), as a
 * JSON array of {role, content}. */
AkcJsonValue *akc_ask_project_messages   (GListModel          *messages);

/* §8.2 for one assistant content. */
char         *akc_ask_flatten_assistant  (const char          *content,
                                          gsize                length,
                                          gsize               *out_length);

/* §8.1: the request URL for @endpoint (NULL: the default). */
char         *akc_ask_request_url        (const char          *endpoint,
                                          const char          *corpus,
                                          const char          *persona);

/* §8.1: the canonical request body. @session_id NULL or "unscoped" omits
 * it; @metadata may hold a valid escalation. */
char         *akc_ask_request_body       (const char          *session_id,
                                          AkcJsonValue        *messages,
                                          AkcJsonValue        *metadata,
                                          gsize               *length);

G_END_DECLS
