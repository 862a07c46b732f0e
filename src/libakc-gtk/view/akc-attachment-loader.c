/* akc-attachment-loader.c: files and pasted images made into attachments,
 * off the main thread
 *
 * SPDX-License-Identifier: MIT
 */

#include "config.h"

#include <string.h>

#include <glib/gi18n-lib.h>

#include "akc-attachment-loader-private.h"

typedef struct
{
  GFile  *file;    /* nullable */
  char   *name;
  GBytes *bytes;   /* nullable: read from the file */
} Job;

static void
job_free (Job *job)
{
  g_clear_object (&job->file);
  g_free (job->name);
  g_clear_pointer (&job->bytes, g_bytes_unref);
  g_free (job);
}

static gboolean
is_image (GBytes *bytes)
{
  gsize length;
  const guint8 *data = g_bytes_get_data (bytes, &length);

  return (length >= 8 && memcmp (data, "\x89PNG\r\n\x1a\n", 8) == 0) ||
         (length >= 3 && data[0] == 0xff && data[1] == 0xd8 && data[2] == 0xff) ||
         (length >= 12 && memcmp (data, "RIFF", 4) == 0 && memcmp (data + 8, "WEBP", 4) == 0);
}

/* Decodes, turns upright, downscales to the bound and encodes again. */
static AkcAttachment *
downscale (const char  *name,
           GBytes      *bytes,
           GError     **error)
{
  g_autoptr(GdkPixbufLoader) loader = gdk_pixbuf_loader_new ();
  g_autoptr(GdkPixbuf) upright = NULL;
  g_autoptr(GdkPixbuf) scaled = NULL;
  g_autoptr(GError) local_error = NULL;
  g_autofree char *buffer = NULL;
  gsize buffer_size = 0;
  GdkPixbuf *decoded;
  int width, height, long_side;
  double scale;
  gboolean alpha;

  if (!gdk_pixbuf_loader_write_bytes (loader, bytes, &local_error) ||
      !gdk_pixbuf_loader_close (loader, &local_error))
    {
      /* Translators: %s is a file name */
      g_set_error (error, AKC_ATTACHMENT_ERROR, AKC_ATTACHMENT_ERROR_INVALID,
                   _("“%s” could not be read as an image, so it could not be made smaller."), name);
      return NULL;
    }

  decoded = gdk_pixbuf_loader_get_pixbuf (loader);
  upright = gdk_pixbuf_apply_embedded_orientation (decoded);
  width = gdk_pixbuf_get_width (upright);
  height = gdk_pixbuf_get_height (upright);
  long_side = MAX (width, height);
  scale = long_side > AKC_ATTACHMENT_MAX_IMAGE_SIDE ? (double) AKC_ATTACHMENT_MAX_IMAGE_SIDE / long_side : 1.0;
  scaled = gdk_pixbuf_scale_simple (upright, MAX (1, (int) (width * scale + 0.5)),
                                    MAX (1, (int) (height * scale + 0.5)), GDK_INTERP_BILINEAR);
  alpha = gdk_pixbuf_get_has_alpha (scaled);

  if (alpha ? !gdk_pixbuf_save_to_buffer (scaled, &buffer, &buffer_size, "png", &local_error, NULL)
            : !gdk_pixbuf_save_to_buffer (scaled, &buffer, &buffer_size, "jpeg", &local_error,
                                          "quality", "90", NULL))
    {
      g_set_error (error, AKC_ATTACHMENT_ERROR, AKC_ATTACHMENT_ERROR_INVALID,
                   _("“%s” could not be made smaller: %s"), name, local_error->message);
      return NULL;
    }

  {
    g_autoptr(GBytes) encoded = g_bytes_new_take (g_steal_pointer (&buffer), buffer_size);

    return akc_attachment_new_image (name, encoded, error);
  }
}

static AkcAttachment *
make_attachment (const char  *name,
                 GBytes      *bytes,
                 GError     **error)
{
  g_autoptr(GError) local_error = NULL;
  AkcAttachment *attachment;
  gsize length;
  const guint8 *data = g_bytes_get_data (bytes, &length);

  if (!is_image (bytes))
    return akc_attachment_new_for_bytes (name, bytes, error);

  /* Within the bounds: sent as it is. */
  attachment = akc_attachment_new_image (name, bytes, &local_error);
  if (attachment != NULL)
    return attachment;
  if (!g_error_matches (local_error, AKC_ATTACHMENT_ERROR, AKC_ATTACHMENT_ERROR_TOO_LARGE))
    {
      g_propagate_error (error, g_steal_pointer (&local_error));
      return NULL;
    }

  /* GdkPixbuf reads PNG and JPEG; WebP only with a loader this system may
   * not have. */
  if (length >= 12 && memcmp (data, "RIFF", 4) == 0)
    {
      GSList *formats = gdk_pixbuf_get_formats ();
      gboolean webp = FALSE;

      for (GSList *l = formats; l != NULL; l = l->next)
        {
          g_autofree char *format_name = gdk_pixbuf_format_get_name (l->data);

          webp |= g_strcmp0 (format_name, "webp") == 0;
        }
      g_slist_free (formats);
      if (!webp)
        {
          /* Translators: the first %s is a file name, %u a number of
           * pixels (2048); webp-pixbuf-loader is a package name. */
          g_set_error (error, AKC_ATTACHMENT_ERROR, AKC_ATTACHMENT_ERROR_TOO_LARGE,
                       _("“%s” is a WebP image larger than %u pixels on its long side. Larger images are made smaller before they are sent, but this system has no WebP image loader to do it (webp-pixbuf-loader adds one). Send it as a PNG or JPEG, or make it smaller first."),
                       name, (guint) AKC_ATTACHMENT_MAX_IMAGE_SIDE);
          return NULL;
        }
    }

  return downscale (name, bytes, error);
}

static void
load_in_thread (GTask        *task,
                gpointer      source_object,
                gpointer      task_data,
                GCancellable *cancellable)
{
  Job *job = task_data;
  g_autoptr(GError) error = NULL;
  AkcAttachment *attachment;

  if (job->bytes == NULL)
    {
      g_autoptr(GFileInfo) info = NULL;
      char *contents = NULL;
      gsize length = 0;

      info = g_file_query_info (job->file, G_FILE_ATTRIBUTE_STANDARD_SIZE "," G_FILE_ATTRIBUTE_STANDARD_TYPE,
                                G_FILE_QUERY_INFO_NONE, cancellable, &error);
      if (info == NULL)
        {
          g_task_return_error (task, g_steal_pointer (&error));
          return;
        }
      if (g_file_info_get_file_type (info) != G_FILE_TYPE_REGULAR)
        {
          g_task_return_new_error (task, AKC_ATTACHMENT_ERROR, AKC_ATTACHMENT_ERROR_UNSUPPORTED,
                                   _("“%s” is not a file."), job->name);
          return;
        }
      if (g_file_info_get_size (info) > AKC_ATTACHMENT_LOADER_MAX_FILE_BYTES)
        {
          g_task_return_new_error (task, AKC_ATTACHMENT_ERROR, AKC_ATTACHMENT_ERROR_TOO_LARGE,
                                   _("“%s” is larger than %u MiB."), job->name,
                                   (guint) (AKC_ATTACHMENT_LOADER_MAX_FILE_BYTES / (1024 * 1024)));
          return;
        }
      if (!g_file_load_contents (job->file, cancellable, &contents, &length, NULL, &error))
        {
          g_task_return_error (task, g_steal_pointer (&error));
          return;
        }
      job->bytes = g_bytes_new_take (contents, length);
    }

  attachment = make_attachment (job->name, job->bytes, &error);
  if (attachment == NULL)
    g_task_return_error (task, g_steal_pointer (&error));
  else
    g_task_return_pointer (task, attachment, g_object_unref);
}

static void
start (Job                 *job,
       GCancellable        *cancellable,
       GAsyncReadyCallback  callback,
       gpointer             user_data)
{
  g_autoptr(GTask) task = g_task_new (NULL, cancellable, callback, user_data);

  g_task_set_source_tag (task, akc_attachment_load_file_async);
  g_task_set_name (task, "[akc] attachment");
  g_task_set_task_data (task, job, (GDestroyNotify) job_free);
  g_task_run_in_thread (task, load_in_thread);
}

void
akc_attachment_load_file_async (GFile               *file,
                                GCancellable        *cancellable,
                                GAsyncReadyCallback  callback,
                                gpointer             user_data)
{
  Job *job = g_new0 (Job, 1);

  job->file = g_object_ref (file);
  job->name = g_file_get_basename (file);
  if (job->name == NULL)
    job->name = g_strdup (_("file"));
  start (job, cancellable, callback, user_data);
}

void
akc_attachment_load_bytes_async (const char          *name,
                                 GBytes              *bytes,
                                 GCancellable        *cancellable,
                                 GAsyncReadyCallback  callback,
                                 gpointer             user_data)
{
  Job *job = g_new0 (Job, 1);

  job->name = g_strdup (name);
  job->bytes = g_bytes_ref (bytes);
  start (job, cancellable, callback, user_data);
}

AkcAttachment *
akc_attachment_load_finish (GAsyncResult  *result,
                            GError       **error)
{
  return g_task_propagate_pointer (G_TASK (result), error);
}
