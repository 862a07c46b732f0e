/* akc-server-util.h: strict reading of akc-server's JSON files
 *
 * SPDX-License-Identifier: MIT
 */

#pragma once

#include <akc.h>
#include <libsoup/soup.h>

G_BEGIN_DECLS

/* Errors in a configuration or script file, all AKC_SERVER_CONFIG_ERROR_INVALID
 * with a message naming the member at fault. */
#define AKC_SERVER_CONFIG_ERROR (akc_server_config_error_quark ())

typedef enum
{
  AKC_SERVER_CONFIG_ERROR_INVALID,
  AKC_SERVER_CONFIG_ERROR_READ,
} AkcServerConfigError;

GQuark        akc_server_config_error_quark (void);

AkcJsonValue *akc_server_read_json      (const char          *path,
                                         GError             **error);
gboolean      akc_server_check_object   (AkcJsonValue        *value,
                                         const char          *where,
                                         const char * const  *allowed,
                                         const char * const  *required,
                                         GError             **error);
const char   *akc_server_get_string     (AkcJsonValue        *object,
                                         const char          *member,
                                         const char          *where,
                                         gboolean             optional,
                                         GError             **error);
gboolean      akc_server_get_integer    (AkcJsonValue        *object,
                                         const char          *member,
                                         const char          *where,
                                         gint64               min,
                                         gint64               max,
                                         gint64              *value,
                                         GError             **error);
gboolean      akc_server_get_array      (AkcJsonValue        *object,
                                         const char          *member,
                                         const char          *where,
                                         AkcJsonValue       **array,
                                         GError             **error);

/* Shared by the handlers: `YYYY-MM-DDTHH:mm:ss.sssZ` of epoch milliseconds,
 * the `application/json` prefix test of §11.1/§11.2 (case-insensitive), and
 * the positive safe integers their options must be. */
char         *akc_server_format_time              (gint64               ms);
gboolean      akc_server_is_json_type             (const char          *content_type);
gboolean      akc_server_is_positive_safe_integer (double               value);

/* The checks both handlers make before a body is read (§11.1 steps 1–3,
 * §11.2 steps 1–3): libsoup keeps nothing of the body (the handler keeps
 * what it reads, and a refused body is read to its end and dropped); the
 * method is POST; the raw Content-Type has the `application/json` prefix;
 * the host's authentication gives the trusted context, or has answered
 * the request itself (its response verbatim, 401 when it set no status).
 * The handler answers METHOD and MEDIA_TYPE in its own wire format. */
typedef enum
{
  AKC_SERVER_ADMIT_OK,
  AKC_SERVER_ADMIT_METHOD,
  AKC_SERVER_ADMIT_MEDIA_TYPE,
  AKC_SERVER_ADMIT_REFUSED,
} AkcServerAdmit;

typedef AkcJsonValue *(*AkcServerAuthFunc) (SoupServerMessage *message,
                                            gpointer           user_data);

AkcServerAdmit akc_server_admit            (SoupServerMessage   *message,
                                            AkcServerAuthFunc    auth,
                                            gpointer             auth_data,
                                            AkcJsonValue       **context);
/* Whether the declared Content-Length is over @max_bytes. */
gboolean       akc_server_declared_over    (SoupServerMessage   *message,
                                            gint64               max_bytes);
/* Appends @chunk to @body; FALSE, with @body emptied, when that would make
 * it longer than @max_bytes (the 413: nothing more is kept). */
gboolean       akc_server_body_append      (GByteArray          *body,
                                            GBytes              *chunk,
                                            gint64               max_bytes);
/* The stores' worker threads: runs @func on a GTask of @source that owns
 * @data; a compare-and-set save returns its outcome with
 * g_task_return_int() (TRUE when it won), which
 * akc_server_propagate_saved() gives back. */
void           akc_server_run_in_thread    (gpointer             source,
                                            gpointer             data,
                                            GDestroyNotify       data_free,
                                            GTaskThreadFunc      func,
                                            GCancellable        *cancellable,
                                            GAsyncReadyCallback  callback,
                                            gpointer             user_data);
gboolean       akc_server_propagate_saved  (GAsyncResult        *result,
                                            gboolean            *saved,
                                            GError             **error);

/* While a handler waits for its adapter nothing is written, so libsoup
 * would not notice a client that went away until a deadline: the socket
 * is watched, and an end of input calls @gone once. Data (a pipelined
 * request) stops the watch. Freeing the watch stops it. */
typedef void (*AkcServerGoneFunc) (gpointer user_data);
typedef struct _AkcServerHangup AkcServerHangup;

AkcServerHangup *akc_server_hangup_watch (SoupServerMessage   *message,
                                          AkcServerGoneFunc    gone,
                                          gpointer             user_data);
void             akc_server_hangup_free  (AkcServerHangup     *watch);

/* The body as JSON when it is UTF-8 and parses, else NULL. */
AkcJsonValue  *akc_server_parse_body       (GByteArray          *body);

G_END_DECLS
