/* akc-chat-view-actions.c: the chat.* actions, confirmations and proposed choices
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

void
akc_chat_view_set_action_error (AkcChatView *self,
                                const char  *message)
{
  if (g_strcmp0 (self->action_error, message) == 0)
    return;

  g_free (self->action_error);
  self->action_error = g_strdup (message);
  g_object_notify_by_pspec (G_OBJECT (self), akc_chat_view_props[PROP_ACTION_ERROR]);
  akc_chat_view_sync_extras (self);

  if (message != NULL)
    akc_chat_view_announce (self, message);
}

/* §12.3: the error of a failed lifecycle operation, or the fixed text. */
static void
fail_action (AkcChatView  *self,
             const GError *error,
             const char   *fallback)
{
  akc_chat_view_set_action_error (self, error != NULL && error->message != NULL && *error->message != '\0'
                          ? error->message : fallback);
}

gboolean
akc_chat_view_lifecycle_targets (AkcChatView  *self,
                                 char        **user_id,
                                 char        **assistant_id)
{
  if (self->messages == NULL)
    return FALSE;

  return akc_get_lifecycle_targets (self->messages, user_id, assistant_id) &&
         user_id != NULL && *user_id != NULL;
}

void
akc_chat_view_sync_actions (AkcChatView *self)
{
  g_autofree char *user_id = NULL;
  g_autofree char *assistant_id = NULL;
  gboolean streaming = akc_chat_view_is_streaming (self);
  gboolean has_user = !streaming && akc_chat_view_lifecycle_targets (self, &user_id, &assistant_id);

  gtk_widget_action_set_enabled (GTK_WIDGET (self), "chat.stop", streaming);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "chat.retry", has_user && !self->editing);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "chat.regenerate",
                                 has_user && assistant_id != NULL && !self->editing);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "chat.edit", has_user && !self->editing);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "chat.save-edit", self->editing);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "chat.cancel-edit", self->editing);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "chat.approve", self->source != NULL);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "chat.deny", self->source != NULL);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "chat.set-aside",
                                 !streaming && self->active_instance_id != NULL);
  akc_chat_view_sync_message_actions (self);
}

void
akc_chat_view_set_editing (AkcChatView *self,
                           gboolean     editing,
                           const char  *message_id,
                           const char  *draft)
{
  if (!editing && !self->editing)
    return;

  self->editing = editing;
  g_free (self->edit_message_id);
  self->edit_message_id = g_strdup (editing ? message_id : NULL);
  g_free (self->edit_draft);
  self->edit_draft = g_strdup (editing ? draft : NULL);
  self->focus_editor_pending = editing;

  /* A new item: the row is made again, as the editor or the buttons. */
  g_clear_object (&self->actions_item);
  g_object_notify_by_pspec (G_OBJECT (self), akc_chat_view_props[PROP_EDITING]);
  akc_chat_view_sync (self);

  if (editing)
    {
      self->stick_to_bottom = TRUE;
      akc_chat_view_scroll_to_end (self);
    }
}

static void
stop_action (GtkWidget  *widget,
             const char *action_name,
             GVariant   *parameter)
{
  AkcChatView *self = AKC_CHAT_VIEW (widget);

  akc_chat_source_stop (self->source);
}

static void
retry_action (GtkWidget  *widget,
              const char *action_name,
              GVariant   *parameter)
{
  AkcChatView *self = AKC_CHAT_VIEW (widget);
  g_autoptr(GError) error = NULL;

  akc_chat_view_set_action_error (self, NULL);
  if (!akc_chat_source_retry (self->source, &error))
    fail_action (self, error, _("Lifecycle operation failed."));
}

static void
regenerate_action (GtkWidget  *widget,
                   const char *action_name,
                   GVariant   *parameter)
{
  AkcChatView *self = AKC_CHAT_VIEW (widget);
  g_autofree char *user_id = NULL;
  g_autofree char *assistant_id = NULL;
  g_autoptr(GError) error = NULL;

  akc_chat_view_set_action_error (self, NULL);
  if (!akc_chat_view_lifecycle_targets (self, &user_id, &assistant_id) || assistant_id == NULL)
    {
      fail_action (self, NULL, _("Lifecycle operation failed."));
      return;
    }

  if (!akc_chat_source_regenerate (self->source, assistant_id, &error))
    fail_action (self, error, _("Lifecycle operation failed."));
}

static AkcMessage *
find_message (AkcChatView *self,
              const char  *id)
{
  guint n = g_list_model_get_n_items (self->messages);

  for (guint i = n; i > 0; i--)
    {
      g_autoptr(AkcMessage) message = g_list_model_get_item (self->messages, i - 1);

      if (g_strcmp0 (akc_message_get_id (message), id) == 0)
        return g_steal_pointer (&message);
    }

  return NULL;
}

static void
edit_action (GtkWidget  *widget,
             const char *action_name,
             GVariant   *parameter)
{
  AkcChatView *self = AKC_CHAT_VIEW (widget);
  g_autofree char *user_id = NULL;
  g_autoptr(AkcMessage) message = NULL;
  g_autofree char *draft = NULL;

  akc_chat_view_set_action_error (self, NULL);
  if (!akc_chat_view_lifecycle_targets (self, &user_id, NULL) || (message = find_message (self, user_id)) == NULL)
    return;

  draft = akc_display_text (akc_message_get_content (message), (gssize) akc_message_get_content_length (message));
  akc_chat_view_set_editing (self, TRUE, user_id, draft);
}

static void
save_edit_action (GtkWidget  *widget,
                  const char *action_name,
                  GVariant   *parameter)
{
  AkcChatView *self = AKC_CHAT_VIEW (widget);
  g_autoptr(GError) error = NULL;
  g_autofree char *message_id = NULL;
  g_autofree char *text = NULL;

  /* §12.3: saving blank text is ignored (the editor stays open). */
  if (!self->editing || akc_is_blank_input (self->edit_draft))
    return;

  message_id = g_strdup (self->edit_message_id);
  text = g_strdup (self->edit_draft);

  akc_chat_view_set_action_error (self, NULL);
  akc_chat_view_set_editing (self, FALSE, NULL, NULL);
  if (!akc_chat_source_edit (self->source, message_id, text, &error))
    fail_action (self, error, _("Lifecycle operation failed."));
}

static void
cancel_edit_action (GtkWidget  *widget,
                    const char *action_name,
                    GVariant   *parameter)
{
  akc_chat_view_set_editing (AKC_CHAT_VIEW (widget), FALSE, NULL, NULL);
}

/* To the newest message: with the focus too when it is in the transcript
 * (Ctrl+End, from anywhere in it). */
static void
jump_action (GtkWidget  *widget,
             const char *action_name,
             GVariant   *parameter)
{
  GtkRoot *root = gtk_widget_get_root (widget);
  GtkWidget *focus = root != NULL ? gtk_root_get_focus (root) : NULL;

  akc_chat_view_scroll_to_bottom (AKC_CHAT_VIEW (widget));
  if (focus != NULL && gtk_widget_is_ancestor (focus, widget))
    akc_chat_view_focus_newest (AKC_CHAT_VIEW (widget));
}

typedef struct
{
  AkcChatView *view;
  gboolean     approve;
} Resolution;

static void
on_tool_call_decided (GObject      *source,
                      GAsyncResult *result,
                      gpointer      user_data)
{
  Resolution *resolution = user_data;
  AkcInteractionController *interaction = AKC_INTERACTION_CONTROLLER (source);
  g_autoptr(GError) error = NULL;
  gboolean ok;

  ok = resolution->approve
       ? akc_interaction_controller_approve_finish (interaction, result, &error)
       : akc_interaction_controller_deny_finish (interaction, result, &error);
  if (!ok)
    fail_action (resolution->view, error,
                 resolution->approve ? _("Action approval failed.") : _("Action rejection failed."));

  g_object_unref (resolution->view);
  g_free (resolution);
}

/* §12.8, through the interaction controller: the coordinator when it
 * proposed the call, the source's own approve and deny otherwise. */
static void
resolve_tool_call (AkcChatView *self,
                   const char  *tool_call_id,
                   gboolean     approve)
{
  Resolution *resolution;

  akc_chat_view_set_action_error (self, NULL);
  if (self->interaction == NULL)
    return;

  akc_chat_view_leave_decided (self);
  resolution = g_new0 (Resolution, 1);
  resolution->view = g_object_ref (self);
  resolution->approve = approve;
  if (approve)
    akc_interaction_controller_approve_async (self->interaction, tool_call_id, NULL,
                                              on_tool_call_decided, resolution);
  else
    /* No reason: the controller records the upstream default (§12.8). */
    akc_interaction_controller_deny_async (self->interaction, tool_call_id, NULL, NULL,
                                           on_tool_call_decided, resolution);
}

/* Escape on a component that owns input sets it aside without an answer:
 * it becomes inert, as if resolved, and input returns to the host (the
 * composer). A choice whose action was denied can be left this way. */
static void
set_aside_action (GtkWidget  *widget,
                  const char *action_name,
                  GVariant   *parameter)
{
  AkcChatView *self = AKC_CHAT_VIEW (widget);
  g_autofree char *instance_id = g_strdup (self->active_instance_id);

  if (instance_id != NULL && self->interaction != NULL)
    akc_interaction_controller_set_aside (self->interaction, instance_id);
}

static void
approve_action (GtkWidget  *widget,
                const char *action_name,
                GVariant   *parameter)
{
  resolve_tool_call (AKC_CHAT_VIEW (widget), g_variant_get_string (parameter, NULL), TRUE);
}

static void
deny_action (GtkWidget  *widget,
             const char *action_name,
             GVariant   *parameter)
{
  resolve_tool_call (AKC_CHAT_VIEW (widget), g_variant_get_string (parameter, NULL), FALSE);
}

typedef struct
{
  AkcChatView      *view;
  AkcComponentView *component;
} Proposal;

static void
proposal_free (Proposal *proposal)
{
  g_object_unref (proposal->component);
  g_object_unref (proposal->view);
  g_free (proposal);
}

/* The Deny button of the confirmation of @call_id, if it is built. */
static GtkWidget *
find_deny_button (GtkWidget  *widget,
                  const char *call_id)
{
  if (GTK_IS_ACTIONABLE (widget) &&
      g_strcmp0 (gtk_actionable_get_action_name (GTK_ACTIONABLE (widget)), "chat.deny") == 0)
    {
      GVariant *target = gtk_actionable_get_action_target_value (GTK_ACTIONABLE (widget));

      if (target != NULL && g_strcmp0 (g_variant_get_string (target, NULL), call_id) == 0)
        return widget;
    }

  for (GtkWidget *child = gtk_widget_get_first_child (widget);
       child != NULL;
       child = gtk_widget_get_next_sibling (child))
    {
      GtkWidget *found = find_deny_button (child, call_id);

      if (found != NULL)
        return found;
    }

  return NULL;
}

/* The confirmation of @call_id takes the keyboard on Deny, the safe
 * choice: Tab reaches Approve, Enter (or Space) answers the button that
 * has it, Escape leaves it pending and goes back to the composer. At once
 * when its Deny is built and on screen, else when it is
 * (build_confirmation() in akc-chat-view-rows.c); either way not while
 * the person is writing in a text field (akc_chat_view_focus_when_mapped()),
 * so no keystroke of theirs lands on it. The one path for every
 * confirmation the view gives the keyboard to: that of an action the
 * person chose in a component (the demos), and the one a model's reply
 * ended with (on_status_changed() in akc-chat-view.c). */
void
akc_chat_view_focus_confirmation (AkcChatView *self,
                                  const char  *call_id)
{
  GtkWidget *deny;

  g_return_if_fail (AKC_IS_CHAT_VIEW (self));
  g_return_if_fail (call_id != NULL);

  deny = find_deny_button (GTK_WIDGET (self), call_id);
  g_clear_pointer (&self->focus_call_id, g_free);
  if (deny != NULL)
    akc_chat_view_focus_when_mapped (deny);
  else
    self->focus_call_id = g_strdup (call_id);
}

/* What the controller's failures are for the component (§12.7): whether
 * it is un-resolved, and what it says. */
static void
fail_component (AkcComponentView *component,
                const GError     *error)
{
  static const struct {
    AkcInteractionError code;
    AkcComponentFailure failure;
  } failures[] = {
    { AKC_INTERACTION_ERROR_ACTION_PROPOSAL, AKC_COMPONENT_FAILURE_ACTION_PROPOSAL },
    { AKC_INTERACTION_ERROR_SUBMISSION_AUTHORIZATION, AKC_COMPONENT_FAILURE_SUBMISSION_AUTHORIZATION },
    { AKC_INTERACTION_ERROR_SUBMISSION_EXPIRED, AKC_COMPONENT_FAILURE_SUBMISSION_EXPIRED },
    { AKC_INTERACTION_ERROR_SUBMISSION, AKC_COMPONENT_FAILURE_SUBMISSION },
    { AKC_INTERACTION_ERROR_SETTLEMENT, AKC_COMPONENT_FAILURE_SETTLEMENT },
    { AKC_INTERACTION_ERROR_STORAGE, AKC_COMPONENT_FAILURE_INTERACTION },
  };

  /* Answered already (here or by another program): it stays answered. */
  if (error->domain != AKC_INTERACTION_ERROR ||
      error->code == AKC_INTERACTION_ERROR_RESOLVED)
    return;

  for (gsize i = 0; i < G_N_ELEMENTS (failures); i++)
    if ((int) failures[i].code == error->code)
      {
        akc_component_view_fail (component, failures[i].failure, error->message);
        return;
      }

  akc_component_view_fail (component, AKC_COMPONENT_FAILURE_INTERACTION, error->message);
}

static void
on_choice_selected (GObject      *source,
                    GAsyncResult *result,
                    gpointer      user_data)
{
  Proposal *proposal = user_data;
  g_autoptr(AkcConfirmationRecord) record = NULL;
  g_autoptr(GError) error = NULL;

  if (!akc_interaction_controller_select_finish (AKC_INTERACTION_CONTROLLER (source), result, &record, &error))
    fail_component (proposal->component, error);
  else if (record != NULL && akc_confirmation_record_get_status (record) == AKC_CONFIRMATION_STATUS_PENDING)
    {
      /* The person chose the action: its confirmation is the next step,
       * shown already or about to be. */
      akc_chat_view_focus_confirmation (proposal->view, akc_confirmation_record_get_tool_call_id (record));
    }

  proposal_free (proposal);
}

/* A controlled source's host hears the person where it hears everything
 * else: on the source ([signal@Akc.ControlledSource::choice-selected] and
 * [signal@Akc.ControlledSource::component-interaction]), whatever widget
 * shows the transcript. */
static void
tell_controlled_source (AkcChatView  *self,
                        AkcJsonValue *frame,
                        const char   *choice_id,
                        const char   *event,
                        AkcJsonValue *value)
{
  g_autoptr(GError) error = NULL;
  gboolean told;

  if (!AKC_IS_CONTROLLED_SOURCE (self->source) || frame == NULL)
    return;

  told = choice_id != NULL
         ? akc_controlled_source_select_choice (AKC_CONTROLLED_SOURCE (self->source), frame, choice_id, &error)
         : akc_controlled_source_interact (AKC_CONTROLLED_SOURCE (self->source), frame, event, value, &error);
  if (!told)
    g_debug ("An answer did not reach the host: %s", error->message);
}

/* §12.7 selection: the host's handlers hear of it first; then the
 * interaction controller acts on it (a typed action is proposed through
 * the confirmation coordinator, a deterministic choice is sent once) and
 * keeps the answer. */
void
akc_chat_view_on_row_selection (AkcMessageRow    *row,
                                AkcComponentView *view,
                                AkcJsonValue     *event,
                                AkcChatView      *self)
{
  AkcJsonValue *choice = akc_json_value_get_member (event, "choiceId");
  AkcJsonValue *frame = akc_component_view_get_frame (view);
  Proposal *proposal;

  g_signal_emit (self, akc_chat_view_signals[COMPONENT_SELECTION], 0, view, event);

  if (!akc_component_view_get_resolved (view) || choice == NULL ||
      akc_json_value_get_kind (choice) != AKC_JSON_KIND_STRING)
    return;

  tell_controlled_source (self, frame, akc_json_value_get_string (choice, NULL), NULL, NULL);

  if (self->interaction == NULL || frame == NULL)
    return;

  akc_chat_view_set_action_error (self, NULL);
  proposal = g_new0 (Proposal, 1);
  proposal->view = g_object_ref (self);
  proposal->component = g_object_ref (view);
  akc_interaction_controller_select_async (self->interaction, akc_message_row_get_message (row), frame,
                                           akc_json_value_get_string (choice, NULL),
                                           NULL, on_choice_selected, proposal);
}

static void
on_interaction_done (GObject      *source,
                     GAsyncResult *result,
                     gpointer      user_data)
{
  Proposal *proposal = user_data;
  g_autoptr(GError) error = NULL;

  if (!akc_interaction_controller_interact_finish (AKC_INTERACTION_CONTROLLER (source), result, &error))
    fail_component (proposal->component, error);

  proposal_free (proposal);
}

/* §12.7 interaction: the host's handlers hear of it first; a source the
 * person opens is a link for the host, any other answer goes to the
 * interaction controller, which keeps it. */
void
akc_chat_view_on_row_interaction (AkcMessageRow    *row,
                                  AkcComponentView *view,
                                  AkcJsonValue     *event,
                                  AkcChatView      *self)
{
  AkcJsonValue *name = akc_json_value_get_member (event, "event");
  AkcJsonValue *value = akc_json_value_get_member (event, "value");
  AkcJsonValue *frame = akc_component_view_get_frame (view);
  const char *key = akc_component_view_get_component_key (view);
  Proposal *proposal;

  g_signal_emit (self, akc_chat_view_signals[COMPONENT_INTERACTION], 0, view, event);

  /* Source lists and link cards are navigation: their `open` is not an
   * answer, and the link is opened by link-activated, every time. */
  if ((g_strcmp0 (key, "source-list") == 0 || g_strcmp0 (key, "link-card") == 0) &&
      name != NULL && akc_json_value_get_kind (name) == AKC_JSON_KIND_STRING &&
      g_strcmp0 (akc_json_value_get_string (name, NULL), "open") == 0)
    return;

  /* A host handler that failed the interaction un-resolved it: nothing
   * more happens (§12.7 interaction step 3). */
  if (!akc_component_view_get_resolved (view) || name == NULL ||
      akc_json_value_get_kind (name) != AKC_JSON_KIND_STRING)
    return;

  tell_controlled_source (self, frame, NULL, akc_json_value_get_string (name, NULL), value);

  if (self->interaction == NULL || frame == NULL)
    return;

  proposal = g_new0 (Proposal, 1);
  proposal->view = g_object_ref (self);
  proposal->component = g_object_ref (view);
  akc_interaction_controller_interact_async (self->interaction, akc_message_row_get_message (row), frame,
                                             akc_json_value_get_string (name, NULL), value,
                                             NULL, on_interaction_done, proposal);
}

/* A link of a source list or a link card, at every activation: the
 * interaction controller asks the host to open it. */
void
akc_chat_view_on_row_link_activated (AkcMessageRow    *row,
                                     AkcComponentView *view,
                                     AkcJsonValue     *value,
                                     AkcChatView      *self)
{
  AkcJsonValue *frame = akc_component_view_get_frame (view);

  if (self->interaction != NULL && frame != NULL)
    akc_interaction_controller_open_link (self->interaction, frame, value);
}

/**
 * akc_chat_view_get_editing:
 * @self: a #AkcChatView
 *
 * Gets whether the inline editor of the last user message is open.
 *
 * Returns: %TRUE while editing
 *
 * Since: 0.1
 */
gboolean
akc_chat_view_get_editing (AkcChatView *self)
{
  g_return_val_if_fail (AKC_IS_CHAT_VIEW (self), FALSE);

  return self->editing;
}

/**
 * akc_chat_view_get_action_error:
 * @self: a #AkcChatView
 *
 * Gets the message of the last failed local action.
 *
 * Returns: (nullable): the message, or %NULL
 *
 * Since: 0.1
 */
const char *
akc_chat_view_get_action_error (AkcChatView *self)
{
  g_return_val_if_fail (AKC_IS_CHAT_VIEW (self), NULL);

  return self->action_error;
}

void
akc_chat_view_class_install_actions (GtkWidgetClass *widget_class)
{
  gtk_widget_class_install_action (widget_class, "chat.stop", NULL, stop_action);
  gtk_widget_class_install_action (widget_class, "chat.set-aside", NULL, set_aside_action);
  gtk_widget_class_install_action (widget_class, "chat.retry", NULL, retry_action);
  gtk_widget_class_install_action (widget_class, "chat.regenerate", NULL, regenerate_action);
  gtk_widget_class_install_action (widget_class, "chat.edit", NULL, edit_action);
  gtk_widget_class_install_action (widget_class, "chat.save-edit", NULL, save_edit_action);
  gtk_widget_class_install_action (widget_class, "chat.cancel-edit", NULL, cancel_edit_action);
  gtk_widget_class_install_action (widget_class, "chat.jump-to-newest", NULL, jump_action);
  gtk_widget_class_install_action (widget_class, "chat.approve", "s", approve_action);
  gtk_widget_class_install_action (widget_class, "chat.deny", "s", deny_action);
  akc_chat_view_class_install_message_actions (widget_class);
}
