/* akc-attachment.c: an image or a text file sent with a message
 *
 * SPDX-License-Identifier: MIT
 */

#include "config.h"

#include <string.h>

#include <glib/gi18n-lib.h>

#include "akc-attachment.h"

/**
 * AkcAttachment:
 *
 * An image or a text file a person sends with a message.
 *
 * An image is a PNG, JPEG or WebP of at most
 * %AKC_ATTACHMENT_MAX_IMAGE_SIDE pixels on its long side and
 * %AKC_ATTACHMENT_MAX_IMAGE_BYTES bytes: its type and size are read from
 * its own header, whatever its name says. A host downscales larger
 * pictures first (the composer of libakc-gtk does, on a worker thread). A
 * text file is valid UTF-8 without U+0000, of at most
 * %AKC_ATTACHMENT_MAX_TEXT_BYTES bytes, and is sent to a model as text
 * with its name.
 *
 * Attachments are immutable values; [class@Message] holds them in
 * [method@Message.get_attachments], and the provider adapters send them
 * in each provider's format (OpenAI `image_url` data URLs, Ollama
 * `images`, Anthropic `image` blocks).
 *
 * Since: 0.1
 */

struct _AkcAttachment
{
  GObject            parent_instance;

  AkcAttachmentKind  kind;
  char              *name;
  const char        *mime_type;
  GBytes            *data;
  guint              width;
  guint              height;
};

G_DEFINE_FINAL_TYPE (AkcAttachment, akc_attachment, G_TYPE_OBJECT)

/**
 * akc_attachment_error_quark:
 *
 * Gets the error domain of [error@AttachmentError], the quark
 * %AKC_ATTACHMENT_ERROR stands for.
 *
 * Returns: the error quark
 *
 * Since: 0.1
 */
G_DEFINE_QUARK (akc-attachment-error-quark, akc_attachment_error)

static void
akc_attachment_finalize (GObject *object)
{
  AkcAttachment *self = AKC_ATTACHMENT (object);

  g_clear_pointer (&self->name, g_free);
  g_clear_pointer (&self->data, g_bytes_unref);

  G_OBJECT_CLASS (akc_attachment_parent_class)->finalize (object);
}

static void
akc_attachment_class_init (AkcAttachmentClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->finalize = akc_attachment_finalize;
}

static void
akc_attachment_init (AkcAttachment *self)
{
}

/* The name as shown and sent: valid UTF-8, no control characters, no
 * folders, at most AKC_ATTACHMENT_MAX_NAME_BYTES bytes. */
static char *
clean_name (const char *name)
{
  g_autofree char *valid = NULL;
  g_autofree char *base = NULL;
  GString *out;

  if (name == NULL || name[0] == '\0')
    return g_strdup (_("file"));

  valid = g_utf8_make_valid (name, -1);
  base = g_path_get_basename (valid);
  out = g_string_new (NULL);
  for (const char *p = base; *p != '\0'; p = g_utf8_next_char (p))
    {
      gunichar c = g_utf8_get_char (p);
      gsize before = out->len;

      if (g_unichar_iscntrl (c) || c == 0x2028 || c == 0x2029)
        c = ' ';
      g_string_append_unichar (out, c);
      if (out->len > AKC_ATTACHMENT_MAX_NAME_BYTES)
        {
          g_string_truncate (out, before);
          break;
        }
    }
  if (out->len == 0 || strcmp (out->str, ".") == 0 || strcmp (out->str, "/") == 0)
    {
      g_string_free (out, TRUE);
      return g_strdup (_("file"));
    }

  return g_string_free (out, FALSE);
}

static guint
be16 (const guint8 *p)
{
  return ((guint) p[0] << 8) | p[1];
}

static guint
be32 (const guint8 *p)
{
  return ((guint) p[0] << 24) | ((guint) p[1] << 16) | ((guint) p[2] << 8) | p[3];
}

static guint
le16 (const guint8 *p)
{
  return p[0] | ((guint) p[1] << 8);
}

static guint
le24 (const guint8 *p)
{
  return p[0] | ((guint) p[1] << 8) | ((guint) p[2] << 16);
}

/* The type of an image from its first bytes, or NULL. */
static const char *
sniff_image (const guint8 *data,
             gsize         length)
{
  if (length >= 8 && memcmp (data, "\x89PNG\r\n\x1a\n", 8) == 0)
    return "image/png";
  if (length >= 3 && data[0] == 0xff && data[1] == 0xd8 && data[2] == 0xff)
    return "image/jpeg";
  if (length >= 12 && memcmp (data, "RIFF", 4) == 0 && memcmp (data + 8, "WEBP", 4) == 0)
    return "image/webp";
  return NULL;
}

/* The size of an image from its header. */
static gboolean
image_size (const char   *mime_type,
            const guint8 *data,
            gsize         length,
            guint        *width,
            guint        *height)
{
  if (strcmp (mime_type, "image/png") == 0)
    {
      if (length < 24 || memcmp (data + 12, "IHDR", 4) != 0)
        return FALSE;
      *width = be32 (data + 16);
      *height = be32 (data + 20);
      return TRUE;
    }

  if (strcmp (mime_type, "image/jpeg") == 0)
    {
      gsize pos = 2;

      while (pos + 4 <= length)
        {
          guint8 marker;
          guint segment;

          if (data[pos] != 0xff)
            return FALSE;
          marker = data[pos + 1];
          if (marker == 0xff)
            {
              pos++;
              continue;
            }
          if (marker == 0x01 || (marker >= 0xd0 && marker <= 0xd7))
            {
              pos += 2;
              continue;
            }
          segment = be16 (data + pos + 2);
          if (segment < 2)
            return FALSE;
          if (marker >= 0xc0 && marker <= 0xcf && marker != 0xc4 && marker != 0xc8 && marker != 0xcc)
            {
              if (pos + 9 > length)
                return FALSE;
              *height = be16 (data + pos + 5);
              *width = be16 (data + pos + 7);
              return TRUE;
            }
          if (marker == 0xd9 || marker == 0xda)
            return FALSE;
          pos += 2 + segment;
        }
      return FALSE;
    }

  /* WebP: the first chunk says. */
  if (length >= 30 && memcmp (data + 12, "VP8 ", 4) == 0)
    {
      if (data[23] != 0x9d || data[24] != 0x01 || data[25] != 0x2a)
        return FALSE;
      *width = le16 (data + 26) & 0x3fff;
      *height = le16 (data + 28) & 0x3fff;
      return TRUE;
    }
  if (length >= 25 && memcmp (data + 12, "VP8L", 4) == 0)
    {
      guint32 bits;

      if (data[20] != 0x2f)
        return FALSE;
      bits = data[21] | ((guint32) data[22] << 8) | ((guint32) data[23] << 16) | ((guint32) data[24] << 24);
      *width = (bits & 0x3fff) + 1;
      *height = ((bits >> 14) & 0x3fff) + 1;
      return TRUE;
    }
  if (length >= 30 && memcmp (data + 12, "VP8X", 4) == 0)
    {
      *width = le24 (data + 24) + 1;
      *height = le24 (data + 27) + 1;
      return TRUE;
    }

  return FALSE;
}

/**
 * akc_attachment_new_image:
 * @name: (nullable): the file name shown and sent (folders are dropped)
 * @data: the encoded image: PNG, JPEG or WebP
 * @error: return location for a #GError
 *
 * Makes an image attachment. Its type and size come from its header; an
 * image over %AKC_ATTACHMENT_MAX_IMAGE_SIDE pixels on a side or
 * %AKC_ATTACHMENT_MAX_IMAGE_BYTES bytes is refused (downscale it first).
 *
 * Returns: (transfer full): the attachment, or %NULL with @error set
 *
 * Since: 0.1
 */
AkcAttachment *
akc_attachment_new_image (const char  *name,
                          GBytes      *data,
                          GError     **error)
{
  g_autofree char *clean = NULL;
  AkcAttachment *self;
  const guint8 *bytes;
  const char *mime_type;
  gsize length;
  guint width = 0, height = 0;

  g_return_val_if_fail (data != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  clean = clean_name (name);
  bytes = g_bytes_get_data (data, &length);
  mime_type = sniff_image (bytes, length);
  if (mime_type == NULL)
    {
      g_set_error (error, AKC_ATTACHMENT_ERROR, AKC_ATTACHMENT_ERROR_UNSUPPORTED,
                   _("“%s” is not a PNG, JPEG or WebP image."), clean);
      return NULL;
    }
  if (length > AKC_ATTACHMENT_MAX_IMAGE_BYTES)
    {
      g_set_error (error, AKC_ATTACHMENT_ERROR, AKC_ATTACHMENT_ERROR_TOO_LARGE,
                   _("“%s” is larger than %u MiB."), clean,
                   (guint) (AKC_ATTACHMENT_MAX_IMAGE_BYTES / (1024 * 1024)));
      return NULL;
    }
  if (!image_size (mime_type, bytes, length, &width, &height) || width == 0 || height == 0)
    {
      g_set_error (error, AKC_ATTACHMENT_ERROR, AKC_ATTACHMENT_ERROR_INVALID,
                   _("“%s” is not a readable image."), clean);
      return NULL;
    }
  if (width > AKC_ATTACHMENT_MAX_IMAGE_SIDE || height > AKC_ATTACHMENT_MAX_IMAGE_SIDE)
    {
      g_set_error (error, AKC_ATTACHMENT_ERROR, AKC_ATTACHMENT_ERROR_TOO_LARGE,
                   _("“%s” is %u × %u pixels; images are sent at %u pixels on their long side at most."),
                   clean, width, height, (guint) AKC_ATTACHMENT_MAX_IMAGE_SIDE);
      return NULL;
    }

  self = g_object_new (AKC_TYPE_ATTACHMENT, NULL);
  self->kind = AKC_ATTACHMENT_KIND_IMAGE;
  self->name = g_steal_pointer (&clean);
  self->mime_type = mime_type;
  self->data = g_bytes_ref (data);
  self->width = width;
  self->height = height;

  return self;
}

/**
 * akc_attachment_new_text:
 * @name: (nullable): the file name shown and sent (folders are dropped)
 * @data: the text: UTF-8 without U+0000, at most
 *   %AKC_ATTACHMENT_MAX_TEXT_BYTES bytes
 * @error: return location for a #GError
 *
 * Makes a text file attachment.
 *
 * Returns: (transfer full): the attachment, or %NULL with @error set
 *
 * Since: 0.1
 */
AkcAttachment *
akc_attachment_new_text (const char  *name,
                         GBytes      *data,
                         GError     **error)
{
  g_autofree char *clean = NULL;
  AkcAttachment *self;
  const char *bytes;
  gsize length;

  g_return_val_if_fail (data != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  clean = clean_name (name);
  bytes = g_bytes_get_data (data, &length);
  if (length > AKC_ATTACHMENT_MAX_TEXT_BYTES)
    {
      g_set_error (error, AKC_ATTACHMENT_ERROR, AKC_ATTACHMENT_ERROR_TOO_LARGE,
                   _("“%s” is larger than 1 MiB; text files are sent up to 1 MiB."), clean);
      return NULL;
    }
  if (length > 0 && !g_utf8_validate_len (bytes, length, NULL))
    {
      g_set_error (error, AKC_ATTACHMENT_ERROR, AKC_ATTACHMENT_ERROR_NOT_UTF8,
                   _("“%s” is not UTF-8 text."), clean);
      return NULL;
    }

  self = g_object_new (AKC_TYPE_ATTACHMENT, NULL);
  self->kind = AKC_ATTACHMENT_KIND_TEXT;
  self->name = g_steal_pointer (&clean);
  self->mime_type = "text/plain";
  self->data = g_bytes_ref (data);

  return self;
}

/**
 * akc_attachment_new_for_bytes:
 * @name: (nullable): the file name shown and sent
 * @data: the file's bytes
 * @error: return location for a #GError
 *
 * Makes an image attachment when @data is a PNG, JPEG or WebP image (by
 * its header, not its name), a text attachment otherwise; a file that is
 * neither (a PDF, an archive) is refused with
 * %AKC_ATTACHMENT_ERROR_UNSUPPORTED.
 *
 * Returns: (transfer full): the attachment, or %NULL with @error set
 *
 * Since: 0.1
 */
AkcAttachment *
akc_attachment_new_for_bytes (const char  *name,
                              GBytes      *data,
                              GError     **error)
{
  g_autoptr(GError) local_error = NULL;
  AkcAttachment *self;
  gsize length;
  const guint8 *bytes;

  g_return_val_if_fail (data != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  bytes = g_bytes_get_data (data, &length);
  if (sniff_image (bytes, length) != NULL)
    return akc_attachment_new_image (name, data, error);

  self = akc_attachment_new_text (name, data, &local_error);
  if (self == NULL && g_error_matches (local_error, AKC_ATTACHMENT_ERROR, AKC_ATTACHMENT_ERROR_NOT_UTF8))
    {
      g_autofree char *clean = clean_name (name);

      g_set_error (error, AKC_ATTACHMENT_ERROR, AKC_ATTACHMENT_ERROR_UNSUPPORTED,
                   _("“%s” can not be sent: only PNG, JPEG and WebP images and UTF-8 text files can."), clean);
      return NULL;
    }
  if (self == NULL)
    g_propagate_error (error, g_steal_pointer (&local_error));

  return self;
}

/**
 * akc_attachment_get_kind:
 * @self: an attachment
 *
 * Gets whether the attachment is an image or a text file.
 *
 * Returns: the kind
 *
 * Since: 0.1
 */
AkcAttachmentKind
akc_attachment_get_kind (AkcAttachment *self)
{
  g_return_val_if_fail (AKC_IS_ATTACHMENT (self), AKC_ATTACHMENT_KIND_TEXT);

  return self->kind;
}

/**
 * akc_attachment_get_name:
 * @self: an attachment
 *
 * Gets the file name, without folders.
 *
 * Returns: (transfer none): the name
 *
 * Since: 0.1
 */
const char *
akc_attachment_get_name (AkcAttachment *self)
{
  g_return_val_if_fail (AKC_IS_ATTACHMENT (self), NULL);

  return self->name;
}

/**
 * akc_attachment_get_mime_type:
 * @self: an attachment
 *
 * Gets the type: `image/png`, `image/jpeg`, `image/webp` or `text/plain`.
 *
 * Returns: (transfer none): the type
 *
 * Since: 0.1
 */
const char *
akc_attachment_get_mime_type (AkcAttachment *self)
{
  g_return_val_if_fail (AKC_IS_ATTACHMENT (self), NULL);

  return self->mime_type;
}

/**
 * akc_attachment_get_data:
 * @self: an attachment
 *
 * Gets the bytes: the encoded image, or the UTF-8 text.
 *
 * Returns: (transfer none): the bytes
 *
 * Since: 0.1
 */
GBytes *
akc_attachment_get_data (AkcAttachment *self)
{
  g_return_val_if_fail (AKC_IS_ATTACHMENT (self), NULL);

  return self->data;
}

/**
 * akc_attachment_get_width:
 * @self: an attachment
 *
 * Gets the width of an image.
 *
 * Returns: pixels, 0 for a text file
 *
 * Since: 0.1
 */
guint
akc_attachment_get_width (AkcAttachment *self)
{
  g_return_val_if_fail (AKC_IS_ATTACHMENT (self), 0);

  return self->width;
}

/**
 * akc_attachment_get_height:
 * @self: an attachment
 *
 * Gets the height of an image.
 *
 * Returns: pixels, 0 for a text file
 *
 * Since: 0.1
 */
guint
akc_attachment_get_height (AkcAttachment *self)
{
  g_return_val_if_fail (AKC_IS_ATTACHMENT (self), 0);

  return self->height;
}

/**
 * akc_attachment_dup_base64:
 * @self: an attachment
 *
 * Encodes the bytes in Base64 (RFC 4648, with padding).
 *
 * Returns: (transfer full): the Base64 text
 *
 * Since: 0.1
 */
char *
akc_attachment_dup_base64 (AkcAttachment *self)
{
  gsize length;
  const guint8 *data;

  g_return_val_if_fail (AKC_IS_ATTACHMENT (self), NULL);

  data = g_bytes_get_data (self->data, &length);
  return g_base64_encode (data, length);
}

/**
 * akc_attachment_dup_data_url:
 * @self: an attachment
 *
 * Makes the `data:` URL of the bytes (RFC 2397), as OpenAI-compatible
 * servers take images: `data:image/png;base64,…`.
 *
 * Returns: (transfer full): the URL
 *
 * Since: 0.1
 */
char *
akc_attachment_dup_data_url (AkcAttachment *self)
{
  g_autofree char *base64 = NULL;

  g_return_val_if_fail (AKC_IS_ATTACHMENT (self), NULL);

  base64 = akc_attachment_dup_base64 (self);
  return g_strconcat ("data:", self->mime_type, ";base64,", base64, NULL);
}
