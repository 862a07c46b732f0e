/* akc-attachment.h: an image or a text file sent with a message
 *
 * SPDX-License-Identifier: MIT
 */

#pragma once

#if !defined(__AKC_INSIDE__) && !defined(AKC_COMPILATION)
#error "Only <akc.h> can be included directly."
#endif

#include <gio/gio.h>

#include "akc-version-macros.h"

G_BEGIN_DECLS

/**
 * AKC_ATTACHMENT_MAX_IMAGE_SIDE:
 *
 * The longest side of an image attachment, in pixels.
 *
 * Since: 0.1
 */
#define AKC_ATTACHMENT_MAX_IMAGE_SIDE 2048

/**
 * AKC_ATTACHMENT_MAX_IMAGE_BYTES:
 *
 * The largest encoded image attachment, in bytes (16 MiB: a 2048 × 2048
 * PNG of a photograph fits).
 *
 * Since: 0.1
 */
#define AKC_ATTACHMENT_MAX_IMAGE_BYTES (16 * 1024 * 1024)

/**
 * AKC_ATTACHMENT_MAX_TEXT_BYTES:
 *
 * The largest text file attachment, in bytes (1 MiB).
 *
 * Since: 0.1
 */
#define AKC_ATTACHMENT_MAX_TEXT_BYTES (1024 * 1024)

/**
 * AKC_ATTACHMENT_MAX_PER_MESSAGE:
 *
 * The most attachments one message takes. With the size bounds, a message
 * holds at most 8 × 16 MiB of images, and that is what the history keeps
 * of it.
 *
 * Since: 0.1
 */
#define AKC_ATTACHMENT_MAX_PER_MESSAGE 8

/**
 * AKC_ATTACHMENT_MAX_NAME_BYTES:
 *
 * The longest attachment name, in bytes; longer names are cut at a
 * character boundary.
 *
 * Since: 0.1
 */
#define AKC_ATTACHMENT_MAX_NAME_BYTES 255

/**
 * AkcAttachmentKind:
 * @AKC_ATTACHMENT_KIND_IMAGE: a PNG, JPEG or WebP image
 * @AKC_ATTACHMENT_KIND_TEXT: a UTF-8 text file
 *
 * What an [class@Attachment] holds.
 *
 * Since: 0.1
 */
typedef enum
{
  AKC_ATTACHMENT_KIND_IMAGE,
  AKC_ATTACHMENT_KIND_TEXT,
} AkcAttachmentKind;

/**
 * AKC_ATTACHMENT_ERROR:
 *
 * The error domain of attachments: what a file cannot be sent as.
 *
 * Since: 0.1
 */
#define AKC_ATTACHMENT_ERROR (akc_attachment_error_quark ())

/**
 * AkcAttachmentError:
 * @AKC_ATTACHMENT_ERROR_UNSUPPORTED: not a PNG, JPEG or WebP image, nor
 *   UTF-8 text
 * @AKC_ATTACHMENT_ERROR_TOO_LARGE: over the size bound of its kind
 * @AKC_ATTACHMENT_ERROR_NOT_UTF8: a text file that is not UTF-8 (or holds
 *   U+0000)
 * @AKC_ATTACHMENT_ERROR_INVALID: an image whose header does not decode
 *
 * Why a file cannot be an attachment.
 *
 * Since: 0.1
 */
typedef enum
{
  AKC_ATTACHMENT_ERROR_UNSUPPORTED,
  AKC_ATTACHMENT_ERROR_TOO_LARGE,
  AKC_ATTACHMENT_ERROR_NOT_UTF8,
  AKC_ATTACHMENT_ERROR_INVALID,
} AkcAttachmentError;

AKC_AVAILABLE_IN_ALL
GQuark akc_attachment_error_quark (void);

#define AKC_TYPE_ATTACHMENT (akc_attachment_get_type ())

AKC_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (AkcAttachment, akc_attachment, AKC, ATTACHMENT, GObject)

AKC_AVAILABLE_IN_ALL
AkcAttachment     *akc_attachment_new_image      (const char     *name,
                                                  GBytes         *data,
                                                  GError        **error);
AKC_AVAILABLE_IN_ALL
AkcAttachment     *akc_attachment_new_text       (const char     *name,
                                                  GBytes         *data,
                                                  GError        **error);
AKC_AVAILABLE_IN_ALL
AkcAttachment     *akc_attachment_new_for_bytes  (const char     *name,
                                                  GBytes         *data,
                                                  GError        **error);
AKC_AVAILABLE_IN_ALL
AkcAttachmentKind  akc_attachment_get_kind       (AkcAttachment  *self);
AKC_AVAILABLE_IN_ALL
const char        *akc_attachment_get_name       (AkcAttachment  *self);
AKC_AVAILABLE_IN_ALL
const char        *akc_attachment_get_mime_type  (AkcAttachment  *self);
AKC_AVAILABLE_IN_ALL
GBytes            *akc_attachment_get_data       (AkcAttachment  *self);
AKC_AVAILABLE_IN_ALL
guint              akc_attachment_get_width      (AkcAttachment  *self);
AKC_AVAILABLE_IN_ALL
guint              akc_attachment_get_height     (AkcAttachment  *self);
AKC_AVAILABLE_IN_ALL
char              *akc_attachment_dup_base64     (AkcAttachment  *self);
AKC_AVAILABLE_IN_ALL
char              *akc_attachment_dup_data_url   (AkcAttachment  *self);

G_END_DECLS
