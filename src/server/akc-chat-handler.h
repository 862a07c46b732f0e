/* akc-chat-handler.h: the chat turn handler (application.md §11.1)
 *
 * SPDX-License-Identifier: MIT
 */

#pragma once

#include <akc.h>
#include <libsoup/soup.h>

G_BEGIN_DECLS

#define AKC_SERVER_ERROR (akc_server_error_quark ())

/* Errors of the server's handlers; each has the wire code, message and
 * status of application.md §11 (akc_server_error_get_code ()). */
typedef enum
{
  AKC_SERVER_ERROR_INVALID_CONFIG,   /* SERVER_INVALID_CONFIG, 500 */
  AKC_SERVER_ERROR_ASK_INVALID_CONFIG, /* ASK_INTERNAL, 500 */
  AKC_SERVER_ERROR_INTERNAL,         /* SERVER_INTERNAL, 500 */
} AkcServerError;

GQuark      akc_server_error_quark    (void);
const char *akc_server_error_get_code (const GError *error,
                                       guint        *status);

/* Options of one handler; the numbers are JSON numbers, validated by
 * akc_chat_handler_new () (positive safe integers). */
typedef struct
{
  double timeout_ms;          /* 30000 */
  double cleanup_timeout_ms;  /* 5000 */
  double max_body_bytes;      /* 65536 */
} AkcChatHandlerOptions;

void akc_chat_handler_options_init (AkcChatHandlerOptions *options);

/* The host's authentication: returns a new reference to the trusted
 * context (a JSON object) when @message may go on; otherwise returns NULL
 * after setting the response @message gets, which is sent verbatim. */
typedef AkcJsonValue *(*AkcChatHandlerAuthFunc) (SoupServerMessage *message,
                                                 gpointer           user_data);

/* Which definition answers @session_id for @context. */
typedef AkcDefinition *(*AkcChatHandlerResolveFunc) (AkcJsonValue  *context,
                                                     const char    *session_id,
                                                     gpointer       user_data,
                                                     GError       **error);

/* Prepares the chat of a turn before it runs (the host installs what the
 * definition needs, such as its capability policy for @context); FALSE
 * with @error set fails the turn with SERVER_INTERNAL. */
typedef gboolean (*AkcChatHandlerChatFunc) (AkcChat        *chat,
                                            AkcDefinition  *definition,
                                            AkcJsonValue   *context,
                                            const char     *session_id,
                                            gpointer        user_data,
                                            GError        **error);

/* Milliseconds since the Unix epoch, and new event ids (`createId`). */
typedef gint64 (*AkcChatHandlerNowFunc)      (gpointer user_data);
typedef char  *(*AkcChatHandlerCreateIdFunc) (gpointer user_data);

#define AKC_TYPE_CHAT_HANDLER (akc_chat_handler_get_type ())

G_DECLARE_FINAL_TYPE (AkcChatHandler, akc_chat_handler, AKC, CHAT_HANDLER, GObject)

AkcChatHandler *akc_chat_handler_new              (const AkcChatHandlerOptions *options,
                                                   AkcSessionStorage           *storage,
                                                   AkcChatHandlerResolveFunc    resolve,
                                                   gpointer                     resolve_data,
                                                   GError                     **error);
void            akc_chat_handler_set_auth         (AkcChatHandler              *self,
                                                   AkcChatHandlerAuthFunc       func,
                                                   gpointer                     user_data);
void            akc_chat_handler_set_chat_setup   (AkcChatHandler              *self,
                                                   AkcChatHandlerChatFunc       func,
                                                   gpointer                     user_data);
void            akc_chat_handler_set_clock        (AkcChatHandler              *self,
                                                   AkcChatHandlerNowFunc        now,
                                                   AkcChatHandlerCreateIdFunc   create_id,
                                                   gpointer                     user_data);
void            akc_chat_handler_attach           (AkcChatHandler              *self,
                                                   SoupServer                  *server,
                                                   const char                  *path);
void            akc_chat_handler_drain            (AkcChatHandler              *self);
guint           akc_chat_handler_get_n_active     (AkcChatHandler              *self);
guint           akc_chat_handler_get_n_cleanups   (AkcChatHandler              *self);
void            akc_chat_handler_set_manual_deadlines (AkcChatHandler          *self,
                                                   gboolean                     manual);
void            akc_chat_handler_expire           (AkcChatHandler              *self);
guint           akc_chat_handler_get_n_lines      (AkcChatHandler              *self);

G_END_DECLS
