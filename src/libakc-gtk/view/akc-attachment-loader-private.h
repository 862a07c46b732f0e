/* akc-attachment-loader-private.h: files and pasted images made into
 * attachments, off the main thread
 *
 * SPDX-License-Identifier: MIT
 *
 * Internal to libakc-gtk (not installed, not scanned).
 */

#pragma once

/* GdkPixbuf and GIO only: akc chat, which has no GTK, uses it too. */
#include <gdk-pixbuf/gdk-pixbuf.h>
#include <gio/gio.h>

#include "akc.h"

G_BEGIN_DECLS

/* The largest file read to make an attachment: an image this large is
 * downscaled; anything else this large is refused without reading it. */
#define AKC_ATTACHMENT_LOADER_MAX_FILE_BYTES (64 * 1024 * 1024)

/* Reads @file on a worker thread and makes an AkcAttachment of it: a PNG
 * or JPEG over AKC_ATTACHMENT_MAX_IMAGE_SIDE pixels on its long side (or
 * over the byte bound) is decoded, turned upright, downscaled to that
 * side and encoded again (PNG when it has transparency, JPEG otherwise);
 * a smaller image, or a WebP within the bound, is kept as it is; other
 * files are UTF-8 text or refused with an AKC_ATTACHMENT_ERROR. */
void           akc_attachment_load_file_async    (GFile               *file,
                                                  GCancellable        *cancellable,
                                                  GAsyncReadyCallback  callback,
                                                  gpointer             user_data);
/* The same for an image's encoded bytes (a pasted texture saved as PNG). */
void           akc_attachment_load_bytes_async   (const char          *name,
                                                  GBytes              *bytes,
                                                  GCancellable        *cancellable,
                                                  GAsyncReadyCallback  callback,
                                                  gpointer             user_data);
AkcAttachment *akc_attachment_load_finish        (GAsyncResult        *result,
                                                  GError             **error);

G_END_DECLS
