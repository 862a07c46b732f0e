/* akc-presentation.c
 *
 * SPDX-License-Identifier: MIT
 */

#include "config.h"

#include <string.h>

#include "akc-assistant-content.h"
#include "akc-component-frame.h"
#include "akc-json-private.h"
#include "akc-presentation.h"

/**
 * AkcPresentation:
 *
 * One thing a view shows for a message: a text bubble, a diagnostic
 * alert, or a component ([application §12.2](wire-formats.html#application-12)). A message has zero or
 * more presentations, in order; make them with [func@present_message].
 *
 * Immutable.
 *
 * Since: 0.1
 */
struct _AkcPresentation
{
  GObject                parent_instance;

  AkcPresentationKind    kind;
  AkcComponentRendering  rendering;
  char                  *text;
  gsize                  text_length;
  AkcDiagnostic         *diagnostic;
  AkcJsonValue          *frame;
  AkcResolvedComponent  *resolved;
};

G_DEFINE_FINAL_TYPE (AkcPresentation, akc_presentation, G_TYPE_OBJECT)

static void
akc_presentation_finalize (GObject *object)
{
  AkcPresentation *self = AKC_PRESENTATION (object);

  g_clear_pointer (&self->text, g_free);
  g_clear_pointer (&self->diagnostic, akc_diagnostic_unref);
  g_clear_pointer (&self->frame, akc_json_value_unref);
  g_clear_object (&self->resolved);

  G_OBJECT_CLASS (akc_presentation_parent_class)->finalize (object);
}

static void
akc_presentation_class_init (AkcPresentationClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->finalize = akc_presentation_finalize;
}

static void
akc_presentation_init (AkcPresentation *self)
{
}

static AkcPresentation *
presentation_new (AkcPresentationKind kind)
{
  AkcPresentation *self = g_object_new (AKC_TYPE_PRESENTATION, NULL);

  self->kind = kind;

  return self;
}

static void
add_message (GListStore *presentations,
             const char *text,
             gsize       length)
{
  AkcPresentation *self = presentation_new (AKC_PRESENTATION_MESSAGE);

  /* Message text may hold U+0000: keep every byte. */
  self->text = g_malloc (length + 1);
  memcpy (self->text, text, length);
  self->text[length] = '\0';
  self->text_length = length;
  g_list_store_append (presentations, self);
  g_object_unref (self);
}

/* Takes @diagnostic. */
static void
add_diagnostic (GListStore    *presentations,
                AkcDiagnostic *diagnostic)
{
  AkcPresentation *self = presentation_new (AKC_PRESENTATION_DIAGNOSTIC);

  self->diagnostic = diagnostic;
  self->text = g_strdup (akc_diagnostic_get_message (diagnostic));
  self->text_length = strlen (self->text);
  g_list_store_append (presentations, self);
  g_object_unref (self);
}

/* A decoded @frame, resolved against @manifest when there is one. */
static void
add_component (GListStore           *presentations,
               AkcJsonValue         *frame,
               AkcComponentManifest *manifest)
{
  AkcPresentation *self = presentation_new (AKC_PRESENTATION_COMPONENT);

  self->frame = akc_json_value_ref (frame);
  self->text = akc_component_frame_dup_fallback_text (frame);
  self->text_length = strlen (self->text);
  self->rendering = AKC_COMPONENT_RENDERING_FALLBACK;

  if (manifest != NULL)
    {
      self->resolved = akc_component_manifest_resolve (manifest, frame, &self->diagnostic);
      if (self->resolved != NULL)
        self->rendering = akc_resolved_component_is_standard (self->resolved)
                          ? AKC_COMPONENT_RENDERING_STANDARD
                          : AKC_COMPONENT_RENDERING_CUSTOM;
    }

  g_list_store_append (presentations, self);
  g_object_unref (self);
}

/* §12.2 rule 2: ordered content. Runs of text parts become one bubble;
 * component parts stay in place. */
static void
present_ordered (GListStore           *presentations,
                 const char           *content,
                 gsize                 length,
                 AkcComponentManifest *manifest)
{
  g_autoptr(AkcDiagnostic) diagnostic = NULL;
  g_autoptr(AkcJsonValue) parts = NULL;
  g_autoptr(GString) run = NULL;
  gboolean complete = FALSE;

  parts = akc_assistant_content_decode (content, (gssize) length, &complete, &diagnostic);
  if (parts == NULL)
    {
      add_diagnostic (presentations, g_steal_pointer (&diagnostic));
      return;
    }

  for (gsize i = 0; i < AKC_JSON_LEN (parts); i++)
    {
      AkcJsonValue *part = AKC_JSON_ELEMENT (parts, i);
      AkcJsonValue *text = akc_json_object_lookup (part, "text", 4, NULL);

      if (akc_json_string_equals (akc_json_object_lookup (part, "kind", 4, NULL), "text"))
        {
          if (run == NULL)
            run = g_string_new (NULL);
          g_string_append_len (run, AKC_JSON_STR (text), AKC_JSON_STR_LEN (text));
          continue;
        }

      if (run != NULL)
        {
          add_message (presentations, run->str, run->len);
          g_string_free (g_steal_pointer (&run), TRUE);
        }
      add_component (presentations, akc_json_object_lookup (part, "frame", 5, NULL), manifest);
    }

  if (run != NULL)
    add_message (presentations, run->str, run->len);
}

/**
 * akc_present_content:
 * @role: who wrote the message
 * @content: the message
 *   content, UTF-8
 * @length: the length of @content in bytes, or -1 if it is NUL-terminated
 * @manifest: (nullable): the manifest components resolve against, or
 *   %NULL when none is configured
 *
 * Decides what a view shows for one message ([application §12.2](wire-formats.html#application-12)), in
 * this order:
 *
 * 1. user, system and tool content is one plain message, even when it
 *    looks like a frame (never decoded: a security property);
 * 2. assistant content starting with U+001E is ordered content
 *    ([application §2.10](wire-formats.html#application-2)): an envelope that does not decode is one
 *    diagnostic (never the raw content); otherwise each run of
 *    consecutive text parts is one message and each component part one
 *    component, in order; a partial prefix gives nothing;
 * 3. assistant content that is a component frame candidate (a JSON
 *    object whose `protocol` is `agentskit.chat.component`) is decoded:
 *    a diagnostic on failure, else one component;
 * 4. anything else, including JSON of another protocol, is one plain
 *    message.
 *
 * Every component presentation is resolved against @manifest and carries
 * its [enum@ComponentRendering] and its semantic fallback text.
 *
 * Returns: (transfer full): a list of [class@Presentation], in order;
 *   possibly empty
 *
 * Since: 0.1
 */
GListModel *
akc_present_content (AkcMessageRole        role,
                     const char           *content,
                     gssize                length,
                     AkcComponentManifest *manifest)
{
  g_autoptr(GListStore) presentations = NULL;
  g_autoptr(AkcJsonValue) candidate = NULL;
  gsize len;

  g_return_val_if_fail (content != NULL || length == 0, NULL);
  g_return_val_if_fail (manifest == NULL || AKC_IS_COMPONENT_MANIFEST (manifest), NULL);

  len = length < 0 ? strlen (content) : (gsize) length;
  presentations = g_list_store_new (AKC_TYPE_PRESENTATION);

  /* Rule 1 */
  if (role != AKC_MESSAGE_ROLE_ASSISTANT)
    {
      add_message (presentations, content, len);
      return G_LIST_MODEL (g_steal_pointer (&presentations));
    }

  /* Rule 2 */
  if (akc_assistant_content_is_candidate (content, (gssize) len))
    {
      present_ordered (presentations, content, len, manifest);
      return G_LIST_MODEL (g_steal_pointer (&presentations));
    }

  /* Rule 3 */
  candidate = akc_json_parse (content, len, NULL, NULL, NULL);
  if (candidate != NULL && akc_component_frame_is_candidate_value (candidate))
    {
      g_autoptr(AkcDiagnostic) diagnostic = NULL;
      g_autoptr(AkcJsonValue) frame = akc_component_frame_decode_value (candidate, &diagnostic);

      if (frame == NULL)
        add_diagnostic (presentations, g_steal_pointer (&diagnostic));
      else
        add_component (presentations, frame, manifest);
      return G_LIST_MODEL (g_steal_pointer (&presentations));
    }

  /* Rule 4 */
  add_message (presentations, content, len);
  return G_LIST_MODEL (g_steal_pointer (&presentations));
}

/**
 * akc_present_content_utf8: (rename-to akc_present_content)
 * @role: who wrote the message
 * @content: the message
 *   content, UTF-8
 * @manifest: (nullable): the manifest components resolve against, or
 *   %NULL when none is configured
 *
 * Does what akc_present_content() does, for NUL-terminated @content:
 * the form bindings see.
 *
 * Returns: (transfer full): a list of [class@Presentation], in order;
 *   possibly empty
 *
 * Since: 0.1
 */
GListModel *
akc_present_content_utf8 (AkcMessageRole        role,
                          const char           *content,
                          AkcComponentManifest *manifest)
{
  return akc_present_content (role, content, -1, manifest);
}

/**
 * akc_present_message:
 * @message: a message
 * @manifest: (nullable): the manifest components resolve against
 *
 * [func@present_content] for the role and current content of @message.
 *
 * Returns: (transfer full): a list of [class@Presentation], in order;
 *   possibly empty
 *
 * Since: 0.1
 */
GListModel *
akc_present_message (AkcMessage           *message,
                     AkcComponentManifest *manifest)
{
  g_return_val_if_fail (AKC_IS_MESSAGE (message), NULL);
  g_return_val_if_fail (manifest == NULL || AKC_IS_COMPONENT_MANIFEST (manifest), NULL);

  return akc_present_content (akc_message_get_role (message),
                              akc_message_get_content (message),
                              (gssize) akc_message_get_content_length (message),
                              manifest);
}

/**
 * akc_presentation_get_kind:
 * @self: a presentation
 *
 * Gets what @self is.
 *
 * Returns: what @self is
 *
 * Since: 0.1
 */
AkcPresentationKind
akc_presentation_get_kind (AkcPresentation *self)
{
  g_return_val_if_fail (AKC_IS_PRESENTATION (self), AKC_PRESENTATION_MESSAGE);

  return self->kind;
}

/**
 * akc_presentation_get_text:
 * @self: a presentation
 * @length: (out) (optional): return location for the length of the text in
 *   bytes (message text may hold U+0000)
 *
 * The text to show: the (merged) message text of a message presentation;
 * the diagnostic message of a diagnostic; and for a component, its
 * semantic fallback `[unsupported visual: «kind»] «summary»`
 * ([application §12.5](wire-formats.html#application-12)), shown when it is not rendered as a widget.
 *
 * Returns: the text
 *
 * Since: 0.1
 */
const char *
akc_presentation_get_text (AkcPresentation *self,
                           gsize           *length)
{
  g_return_val_if_fail (AKC_IS_PRESENTATION (self), NULL);

  if (length != NULL)
    *length = self->text_length;
  return self->text;
}

/**
 * akc_presentation_get_text_utf8: (rename-to akc_presentation_get_text)
 * @self: a presentation
 *
 * Does what akc_presentation_get_text() does, without the
 * length out-parameter: the form bindings see. The text ends at its
 * first U+0000.
 *
 * Returns: the text
 *
 * Since: 0.1
 */
const char *
akc_presentation_get_text_utf8 (AkcPresentation *self)
{
  return akc_presentation_get_text (self, NULL);
}

/**
 * akc_presentation_get_diagnostic:
 * @self: a presentation
 *
 * The diagnostic of a diagnostic presentation. For a component
 * presentation that did not resolve against the manifest, why it did not
 * (`COMPONENT_UNKNOWN` or `COMPONENT_INVALID_PROPS`): a renderer shows the
 * semantic fallback then, and may put the code into a tooltip.
 *
 * Returns: (transfer none) (nullable): the diagnostic, or %NULL
 *
 * Since: 0.1
 */
AkcDiagnostic *
akc_presentation_get_diagnostic (AkcPresentation *self)
{
  g_return_val_if_fail (AKC_IS_PRESENTATION (self), NULL);

  return self->diagnostic;
}

/**
 * akc_presentation_get_frame:
 * @self: a presentation
 *
 * Gets the render frame of a component presentation.
 *
 * Returns: (transfer none) (nullable): the decoded render frame of a
 *   component presentation, %NULL otherwise
 *
 * Since: 0.1
 */
AkcJsonValue *
akc_presentation_get_frame (AkcPresentation *self)
{
  g_return_val_if_fail (AKC_IS_PRESENTATION (self), NULL);

  return self->frame;
}

/**
 * akc_presentation_get_rendering:
 * @self: a presentation
 *
 * Gets how a component presentation is drawn.
 *
 * Returns: how a component presentation is drawn;
 *   %AKC_COMPONENT_RENDERING_NONE for the other kinds
 *
 * Since: 0.1
 */
AkcComponentRendering
akc_presentation_get_rendering (AkcPresentation *self)
{
  g_return_val_if_fail (AKC_IS_PRESENTATION (self), AKC_COMPONENT_RENDERING_NONE);

  return self->rendering;
}

/**
 * akc_presentation_get_resolved:
 * @self: a presentation
 *
 * Gets the resolved component of a component presentation.
 *
 * Returns: (transfer none) (nullable): the resolved component of a
 *   component presentation that resolved against the manifest, %NULL
 *   otherwise
 *
 * Since: 0.1
 */
AkcResolvedComponent *
akc_presentation_get_resolved (AkcPresentation *self)
{
  g_return_val_if_fail (AKC_IS_PRESENTATION (self), NULL);

  return self->resolved;
}
