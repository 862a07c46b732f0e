/* akc-chat-view-announce.c: what the transcript says to assistive technologies
 *
 * SPDX-License-Identifier: MIT
 */

#include "config.h"

#include <string.h>
#include <glib/gi18n-lib.h>

#include "akc-chat-view-private.h"
#include "akc-component-view.h"
#include "akc-gtk-main.h"
#include "akc-markdown-private.h"
#include "akc-message-row-private.h"
#include "akc-message-window-private.h"
#include "akc-theme-css-private.h"

#if !GTK_CHECK_VERSION (4, 14, 0)
static gboolean
clear_announcement (gpointer user_data)
{
  AkcChatView *self = user_data;
  g_autoptr(GtkWidget) target = g_weak_ref_get (&self->announce_target);

  self->announce_timeout = 0;
  if (target != NULL)
    gtk_accessible_reset_property (GTK_ACCESSIBLE (target), GTK_ACCESSIBLE_PROPERTY_DESCRIPTION);
  g_weak_ref_set (&self->announce_target, NULL);

  return G_SOURCE_REMOVE;
}

/* Whether the description of @focus is free to carry an announcement:
 * text entries, and the widgets of this view outside components, never
 * have a description of their own. */
static gboolean
may_describe (AkcChatView *self,
              GtkWidget   *focus)
{
  if (GTK_IS_TEXT_VIEW (focus) || GTK_IS_TEXT (focus))
    return TRUE;

  return gtk_widget_is_ancestor (focus, GTK_WIDGET (self)) &&
         gtk_widget_get_ancestor (focus, AKC_TYPE_COMPONENT_VIEW) == NULL;
}
#endif

/* Says @message to assistive technologies, once, politely. */
void
akc_chat_view_announce (AkcChatView *self,
                        const char  *message)
{
#if GTK_CHECK_VERSION (4, 14, 0)
  gtk_accessible_announce (GTK_ACCESSIBLE (self), message,
                           GTK_ACCESSIBLE_ANNOUNCEMENT_PRIORITY_MEDIUM);
#else
  /* GTK 4.8 has no gtk_accessible_announce() and no live-region property,
   * and a label whose text changes out of the focus is not read by Orca.
   * What Orca does read, in every version since 3.x, is a change of the
   * accessible description of the object that has the focus: its default
   * script presents object:property-change:accessible-description events
   * whose source is the locus of focus (Orca 43, in Debian 12, requires
   * exactly that object; newer versions also take an ancestor of it).
   *
   * So the announcement becomes, for a moment, the description of the
   * focused widget, when that widget has no description of its own (the
   * composer's entry, the inline editor, this view's own buttons and
   * labels; see may_describe()); otherwise, or when nothing has the
   * focus, of the window, which newer Orca reads as an ancestor of the
   * focus. The description is taken away again after ANNOUNCE_CLEAR_MS,
   * long enough for the event to have been delivered (Orca speaks the
   * event's own copy of the text), so that it is not read again as part
   * of the widget later; clearing it is never spoken (Orca ignores an
   * empty description). */
  GtkRoot *root = gtk_widget_get_root (GTK_WIDGET (self));
  GtkWidget *focus, *target;

  if (root == NULL)
    return;

  if (self->announce_timeout != 0)
    {
      g_clear_handle_id (&self->announce_timeout, g_source_remove);
      clear_announcement (self);
    }

  focus = gtk_root_get_focus (root);
  target = focus != NULL && may_describe (self, focus) ? focus : GTK_WIDGET (root);

  gtk_accessible_update_property (GTK_ACCESSIBLE (target),
                                  GTK_ACCESSIBLE_PROPERTY_DESCRIPTION, message,
                                  -1);
  g_weak_ref_set (&self->announce_target, target);
  self->announce_timeout = g_timeout_add (ANNOUNCE_CLEAR_MS, clear_announcement, self);
#endif
}

static char *
truncate_for_speech (const char *text)
{
  const char *end;

  if (g_utf8_strlen (text, -1) <= ANNOUNCE_MAX_CHARS)
    return g_strdup (text);

  end = g_utf8_offset_to_pointer (text, ANNOUNCE_MAX_CHARS);
  return g_strdup_printf ("%.*s…", (int) (end - text), text);
}

/* The text of a finished reply, as it is read out: its text runs without
 * Markdown, and the fallback of its components. */
static char *
reply_speech_text (AkcChatView *self,
                   AkcMessage  *message)
{
  g_autoptr(GListModel) presentations = akc_present_message (message, self->manifest);
  g_autoptr(GString) speech = g_string_new (NULL);
  guint n = g_list_model_get_n_items (presentations);

  for (guint i = 0; i < n; i++)
    {
      g_autoptr(AkcPresentation) presentation = g_list_model_get_item (presentations, i);
      g_autofree char *part = NULL;
      gsize length;
      const char *text = akc_presentation_get_text (presentation, &length);

      if (akc_presentation_get_kind (presentation) == AKC_PRESENTATION_MESSAGE)
        part = akc_markdown_to_plain_text (text, length);
      else
        part = akc_display_text (text, (gssize) length);

      if (*part == '\0')
        continue;
      if (speech->len > 0)
        g_string_append_c (speech, '\n');
      g_string_append (speech, part);
    }

  return g_string_free (g_steal_pointer (&speech), FALSE);
}

gboolean
akc_chat_view_announce_turn_end (gpointer user_data)
{
  AkcChatView *self = user_data;
  g_autoptr(AkcMessage) last = NULL;
  g_autofree char *text = NULL;
  g_autofree char *shown = NULL;
  g_autofree char *announcement = NULL;
  AkcDiagnostic *error;
  guint n;

  self->announce_idle = 0;

  if (self->messages == NULL || (n = g_list_model_get_n_items (self->messages)) == 0)
    return G_SOURCE_REMOVE;

  last = g_list_model_get_item (self->messages, n - 1);
  if (akc_message_get_role (last) != AKC_MESSAGE_ROLE_ASSISTANT)
    return G_SOURCE_REMOVE;

  error = akc_chat_source_get_error (self->source);
  if (akc_message_get_status (last) == AKC_MESSAGE_STATUS_ERROR || error != NULL)
    {
      /* Translators: read out when a reply fails; %s is why. */
      announcement = g_strdup_printf (_("The reply failed: %s"),
                                      error != NULL ? akc_diagnostic_get_message (error) : _("No answer"));
    }
  else if (akc_message_get_stopped (last))
    {
      announcement = g_strdup (_("Reply stopped"));
    }
  else
    {
      text = reply_speech_text (self, last);
      if (*text == '\0')
        return G_SOURCE_REMOVE;
      shown = truncate_for_speech (text);
      /* Translators: read out when a reply is finished; %s is its text. */
      announcement = g_strdup_printf (_("Assistant: %s"), shown);
    }

  akc_chat_view_announce (self, announcement);

  return G_SOURCE_REMOVE;
}

/* Takes back what is being announced, when the view goes. */
void
akc_chat_view_clear_announcements (AkcChatView *self)
{
#if !GTK_CHECK_VERSION (4, 14, 0)
  if (self->announce_timeout != 0)
    {
      g_clear_handle_id (&self->announce_timeout, g_source_remove);
      clear_announcement (self);
    }
#endif
}
