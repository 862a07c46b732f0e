/* akc-interaction-controller-transcript.c: what a transcript asks of the
 * controller: which messages add nothing to read, and the links of
 * navigation components
 *
 * SPDX-License-Identifier: MIT
 */

#include "config.h"

#include "akc-interaction-controller-private.h"
#include "akc-knowledge-key.h"
#include "akc-presentation.h"
#include "akc-resolved-component.h"

/* How far back a replayed card is looked for: a continuation replays the
 * card of the turn it continues (§3.6), a few messages before it. */
#define REPLAY_LOOKBACK 6

/* The instance ids of the components @message presents, or NULL when it
 * presents anything else too (text, a diagnostic). */
static GPtrArray *
component_instances (AkcInteractionController *self,
                     AkcMessage               *message)
{
  g_autoptr(GListModel) presentations = NULL;
  g_autoptr(GPtrArray) ids = g_ptr_array_new_with_free_func (g_free);
  guint n;

  if (akc_message_get_role (message) != AKC_MESSAGE_ROLE_ASSISTANT || self->manifest == NULL)
    return NULL;

  presentations = akc_present_message (message, self->manifest);
  n = g_list_model_get_n_items (presentations);
  for (guint i = 0; i < n; i++)
    {
      g_autoptr(AkcPresentation) presentation = g_list_model_get_item (presentations, i);
      AkcResolvedComponent *resolved = akc_presentation_get_resolved (presentation);

      if (akc_presentation_get_kind (presentation) != AKC_PRESENTATION_COMPONENT || resolved == NULL)
        return NULL;
      g_ptr_array_add (ids, g_strdup (akc_resolved_component_get_instance_id (resolved)));
    }

  return ids->len > 0 ? g_steal_pointer (&ids) : NULL;
}

/**
 * akc_interaction_controller_is_redundant:
 * @self: a #AkcInteractionController
 * @message: a message of the source
 *
 * Gets whether @message adds nothing a person needs to read (issue 13
 * item 6: one settled card per interaction): the result of a tool call
 * that an earlier assistant message carries (the call's settled card
 * says it), or a continuation right after a tool's result that only
 * replays cards an earlier message of the last few already shows
 * ([application §3.6](wire-formats.html#application-3)). Other copies of an instance are not redundant
 * (§14, A14). A view may leave redundant messages out.
 *
 * Returns: %TRUE if @message is redundant
 *
 * Since: 0.1
 */
gboolean
akc_interaction_controller_is_redundant (AkcInteractionController *self,
                                         AkcMessage               *message)
{
  GListModel *messages;
  g_autoptr(GPtrArray) ids = NULL;
  const char *call_id;
  guint n, position = G_MAXUINT;

  g_return_val_if_fail (AKC_IS_INTERACTION_CONTROLLER (self), FALSE);
  g_return_val_if_fail (AKC_IS_MESSAGE (message), FALSE);

  if (akc_message_get_status (message) == AKC_MESSAGE_STATUS_PENDING ||
      akc_message_get_status (message) == AKC_MESSAGE_STATUS_STREAMING)
    return FALSE;

  messages = akc_chat_source_get_messages (self->source);
  n = g_list_model_get_n_items (messages);
  for (guint i = n; i > 0 && position == G_MAXUINT; i--)
    {
      g_autoptr(AkcMessage) item = g_list_model_get_item (messages, i - 1);

      if (item == message)
        position = i - 1;
    }
  if (position == G_MAXUINT)
    return FALSE;

  if (akc_message_get_role (message) == AKC_MESSAGE_ROLE_TOOL)
    {
      call_id = akc_message_get_tool_call_id (message);
      if (call_id == NULL)
        return FALSE;

      for (guint i = position; i > 0; i--)
        {
          g_autoptr(AkcMessage) earlier = g_list_model_get_item (messages, i - 1);

          if (akc_message_get_role (earlier) == AKC_MESSAGE_ROLE_ASSISTANT &&
              akc_message_find_tool_call (earlier, call_id) != NULL)
            return TRUE;
        }
      return FALSE;
    }

  /* A replay is a continuation: it comes right after a tool's result.
   * Copies of an instance elsewhere stay (§14, A14). */
  if (position == 0)
    return FALSE;
  {
    g_autoptr(AkcMessage) before = g_list_model_get_item (messages, position - 1);

    if (akc_message_get_role (before) != AKC_MESSAGE_ROLE_TOOL)
      return FALSE;
  }

  ids = component_instances (self, message);
  if (ids == NULL)
    return FALSE;

  for (guint i = position; i > 0 && position - i < REPLAY_LOOKBACK; i--)
    {
      g_autoptr(AkcMessage) earlier = g_list_model_get_item (messages, i - 1);
      g_autoptr(GPtrArray) shown = component_instances (self, earlier);
      gboolean all = shown != NULL;

      for (guint j = 0; all && j < ids->len; j++)
        all = g_ptr_array_find_with_equal_func (shown, g_ptr_array_index (ids, j), g_str_equal, NULL);
      if (all)
        return TRUE;
    }

  return FALSE;
}

/* The address a link of a source list (@value: a source id) or a link
 * card (@value: its href, or NULL) leads to, or NULL. */
static const char *
link_address (AkcJsonValue *frame,
              AkcJsonValue *value)
{
  AkcJsonValue *key = akc_json_value_get_member (frame, "componentKey");
  AkcJsonValue *frame_props = akc_json_value_get_member (frame, "props");
  const char *wanted = value != NULL && akc_json_value_get_kind (value) == AKC_JSON_KIND_STRING
                       ? akc_json_value_get_string (value, NULL) : NULL;
  const char *component_key;

  if (key == NULL || akc_json_value_get_kind (key) != AKC_JSON_KIND_STRING ||
      frame_props == NULL || akc_json_value_get_kind (frame_props) != AKC_JSON_KIND_OBJECT)
    return NULL;
  component_key = akc_json_value_get_string (key, NULL);

  if (g_strcmp0 (component_key, "link-card") == 0)
    {
      AkcJsonValue *href = akc_json_value_get_member (frame_props, "href");

      if (href == NULL || akc_json_value_get_kind (href) != AKC_JSON_KIND_STRING ||
          (value != NULL && g_strcmp0 (wanted, akc_json_value_get_string (href, NULL)) != 0))
        return NULL;
      return akc_json_value_get_string (href, NULL);
    }

  if (g_strcmp0 (component_key, "source-list") == 0 && wanted != NULL)
    {
      AkcJsonValue *sources = akc_json_value_get_member (frame_props, "sources");

      if (sources == NULL || akc_json_value_get_kind (sources) != AKC_JSON_KIND_ARRAY)
        return NULL;

      for (gsize i = 0; i < akc_json_value_get_length (sources); i++)
        {
          AkcJsonValue *source = akc_json_value_get_element (sources, i);
          AkcJsonValue *id = akc_json_value_get_member (source, "id");
          AkcJsonValue *url = akc_json_value_get_member (source, "url");

          if (id != NULL && url != NULL &&
              akc_json_value_get_kind (id) == AKC_JSON_KIND_STRING &&
              akc_json_value_get_kind (url) == AKC_JSON_KIND_STRING &&
              g_strcmp0 (akc_json_value_get_string (id, NULL), wanted) == 0)
            return akc_json_value_get_string (url, NULL);
        }
    }

  return NULL;
}

/**
 * akc_interaction_controller_open_link:
 * @self: a #AkcInteractionController
 * @frame: the decoded frame of a source list or a link card
 * @value: (nullable): the link's value: the id of one of the source
 *   list's sources, or the link card's `href` (%NULL: the card's own)
 *
 * The person activated a link of a source list or a link card. These are
 * navigation, not answers (docs/port-decisions.md): nothing is resolved
 * and a link works every time. When the link's address is an absolute
 * http or https SafeHref (no credentials, [application §0.5](wire-formats.html#application-0)),
 * [signal@InteractionController::link-requested] asks the host to open
 * it.
 *
 * Returns: %TRUE if a link was requested
 *
 * Since: 0.1
 */
gboolean
akc_interaction_controller_open_link (AkcInteractionController *self,
                                      AkcJsonValue             *frame,
                                      AkcJsonValue             *value)
{
  const char *address;

  g_return_val_if_fail (AKC_IS_INTERACTION_CONTROLLER (self), FALSE);
  g_return_val_if_fail (frame != NULL, FALSE);

  /* A root-relative address is a SafeHref too, but has no base here
   * (§14 B2). */
  address = link_address (frame, value);
  if (address == NULL || !akc_is_safe_href (address) ||
      (g_ascii_strncasecmp (address, "https://", 8) != 0 && g_ascii_strncasecmp (address, "http://", 7) != 0))
    return FALSE;

  g_signal_emit (self, akc_interaction_controller_signals[LINK_REQUESTED], 0, address);
  return TRUE;
}

/**
 * akc_interaction_controller_open_source:
 * @self: a #AkcInteractionController
 * @frame: a source list's decoded frame
 * @source_id: the id of one of its sources
 *
 * The person opened a source of a source list: see
 * [method@InteractionController.open_link].
 *
 * Returns: %TRUE if a link was requested
 *
 * Since: 0.1
 */
gboolean
akc_interaction_controller_open_source (AkcInteractionController *self,
                                        AkcJsonValue             *frame,
                                        const char               *source_id)
{
  g_autoptr(AkcJsonValue) value = NULL;
  AkcJsonValue *key;

  g_return_val_if_fail (AKC_IS_INTERACTION_CONTROLLER (self), FALSE);
  g_return_val_if_fail (frame != NULL, FALSE);
  g_return_val_if_fail (source_id != NULL, FALSE);

  key = akc_json_value_get_member (frame, "componentKey");
  if (key == NULL || akc_json_value_get_kind (key) != AKC_JSON_KIND_STRING ||
      g_strcmp0 (akc_json_value_get_string (key, NULL), "source-list") != 0)
    return FALSE;

  value = akc_json_value_new_string (source_id, -1);
  return akc_interaction_controller_open_link (self, frame, value);
}
