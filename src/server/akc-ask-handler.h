/* akc-ask-handler.h: the Ask service handler (application.md §11.2, §11.3)
 *
 * SPDX-License-Identifier: MIT
 */

#pragma once

#include "akc-ask-retriever.h"
#include "akc-chat-handler.h"

G_BEGIN_DECLS

typedef struct
{
  double max_body_bytes;        /* 65536 */
  double bootstrap_timeout_ms;  /* 30000 */
} AkcAskHandlerOptions;

void akc_ask_handler_options_init (AkcAskHandlerOptions *options);

/* The trusted site (`agentskit.chat.backend-site` v1, validated by the
 * handler) and subject id of an authenticated context. */
typedef AkcJsonValue *(*AkcAskSiteFunc)      (AkcJsonValue  *context,
                                              gpointer       user_data,
                                              GError       **error);
typedef char         *(*AkcAskSubjectFunc)   (AkcJsonValue  *context,
                                              gpointer       user_data);
/* TRUE when the request may go on; otherwise @retry_after is the seconds
 * to wait, or -1 for no `retry-after`. */
typedef gboolean      (*AkcAskRateLimitFunc) (AkcJsonValue  *context,
                                              AkcJsonValue  *site,
                                              gint64        *retry_after,
                                              gpointer       user_data);
/* One metric record (§11.3), already validated. */
typedef void          (*AkcAskMetricFunc)    (AkcJsonValue  *metric,
                                              gpointer       user_data);

#define AKC_TYPE_ASK_HANDLER (akc_ask_handler_get_type ())

G_DECLARE_FINAL_TYPE (AkcAskHandler, akc_ask_handler, AKC, ASK_HANDLER, GObject)

AkcAskHandler *akc_ask_handler_new            (const AkcAskHandlerOptions *options,
                                               AkcAskSiteFunc              site,
                                               AkcAskSubjectFunc           subject,
                                               gpointer                    host_data,
                                               GError                    **error);
void           akc_ask_handler_set_auth       (AkcAskHandler              *self,
                                               AkcChatHandlerAuthFunc      func,
                                               gpointer                    user_data);
void           akc_ask_handler_set_retrievers (AkcAskHandler              *self,
                                               AkcAskRetriever            *local,
                                               AkcAskRetriever            *federated);
void           akc_ask_handler_set_generator  (AkcAskHandler              *self,
                                               AkcAdapter                 *generator);
void           akc_ask_handler_set_store      (AkcAskHandler              *self,
                                               AkcAskStore                *store);
void           akc_ask_handler_set_rate_limit (AkcAskHandler              *self,
                                               AkcAskRateLimitFunc         func,
                                               gpointer                    user_data);
void           akc_ask_handler_set_metrics    (AkcAskHandler              *self,
                                               AkcAskMetricFunc            func,
                                               gpointer                    user_data);
void           akc_ask_handler_set_clock      (AkcAskHandler              *self,
                                               AkcChatHandlerNowFunc       now,
                                               AkcChatHandlerCreateIdFunc  create_id,
                                               gpointer                    user_data);
void           akc_ask_handler_attach         (AkcAskHandler              *self,
                                               SoupServer                 *server,
                                               const char                 *path);
void           akc_ask_handler_drain          (AkcAskHandler              *self);
guint          akc_ask_handler_get_n_active   (AkcAskHandler              *self);

G_END_DECLS
