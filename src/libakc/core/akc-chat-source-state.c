/* akc-chat-source-state.c: the state every chat source shares
 *
 * SPDX-License-Identifier: MIT
 */

#include "config.h"

#include "akc-chat-source-state-private.h"
#include "akc-message.h"

static const char * const prop_names[AKC_CHAT_SOURCE_N_PROPS] = {
  [AKC_CHAT_SOURCE_PROP_MESSAGES] = "messages",
  [AKC_CHAT_SOURCE_PROP_STATUS] = "status",
  [AKC_CHAT_SOURCE_PROP_ERROR] = "error",
  [AKC_CHAT_SOURCE_PROP_INPUT] = "input",
  [AKC_CHAT_SOURCE_PROP_USAGE] = "usage",
};

void
akc_chat_source_state_override_properties (GObjectClass *klass,
                                           guint         first_prop_id,
                                           GParamSpec   *pspecs[AKC_CHAT_SOURCE_N_PROPS])
{
  for (guint i = 0; i < AKC_CHAT_SOURCE_N_PROPS; i++)
    {
      g_object_class_override_property (klass, first_prop_id + i, prop_names[i]);
      pspecs[i] = g_object_class_find_property (klass, prop_names[i]);
    }
}

void
akc_chat_source_state_init (AkcChatSourceState  *self,
                            GObject             *owner,
                            GParamSpec         **pspecs)
{
  g_assert (G_IS_OBJECT (owner));
  g_assert (pspecs != NULL && pspecs[0] != NULL);

  self->owner = owner;
  self->pspecs = pspecs;
  self->messages = g_list_store_new (AKC_TYPE_MESSAGE);
  self->status = AKC_CHAT_STATUS_IDLE;
  self->error = NULL;
  self->usage = (AkcUsage) { 0, 0, 0 };
  self->input = g_strdup ("");
}

void
akc_chat_source_state_clear (AkcChatSourceState *self)
{
  g_clear_object (&self->messages);
  g_clear_pointer (&self->error, akc_diagnostic_unref);
  g_clear_pointer (&self->input, g_free);
  self->owner = NULL;
}

static void
notify (AkcChatSourceState *self,
        AkcChatSourceProp   prop)
{
  g_object_notify_by_pspec (self->owner, self->pspecs[prop]);
}

gboolean
akc_chat_source_state_set_status (AkcChatSourceState *self,
                                  AkcChatStatus       status)
{
  if (self->status == status)
    return FALSE;

  self->status = status;
  notify (self, AKC_CHAT_SOURCE_PROP_STATUS);
  return TRUE;
}

gboolean
akc_chat_source_state_take_error (AkcChatSourceState *self,
                                  AkcDiagnostic      *error)
{
  if ((self->error == NULL && error == NULL) ||
      (self->error != NULL && error != NULL && akc_diagnostic_equal (self->error, error)))
    {
      g_clear_pointer (&error, akc_diagnostic_unref);
      return FALSE;
    }

  g_clear_pointer (&self->error, akc_diagnostic_unref);
  self->error = error;
  notify (self, AKC_CHAT_SOURCE_PROP_ERROR);
  return TRUE;
}

gboolean
akc_chat_source_state_set_usage (AkcChatSourceState *self,
                                 const AkcUsage     *usage)
{
  if (akc_usage_equal (&self->usage, usage))
    return FALSE;

  self->usage = *usage;
  notify (self, AKC_CHAT_SOURCE_PROP_USAGE);
  return TRUE;
}

gboolean
akc_chat_source_state_set_input (AkcChatSourceState *self,
                                 const char         *input)
{
  if (input == NULL)
    input = "";
  if (g_strcmp0 (self->input, input) == 0)
    return FALSE;

  g_free (self->input);
  self->input = g_strdup (input);
  notify (self, AKC_CHAT_SOURCE_PROP_INPUT);
  return TRUE;
}

/* (transfer none) */
static gpointer
peek (GListModel *model,
      guint       position)
{
  gpointer item = g_list_model_get_item (model, position);

  g_object_unref (item);
  return item;
}

void
akc_list_store_splice_minimal (GListStore *store,
                               guint       position,
                               guint       n_removals,
                               gpointer   *additions,
                               guint       n_additions)
{
  GListModel *model = G_LIST_MODEL (store);
  guint prefix = 0;
  guint suffix = 0;

  g_assert (position + n_removals <= g_list_model_get_n_items (model));

  while (prefix < n_removals && prefix < n_additions &&
         additions[prefix] == peek (model, position + prefix))
    prefix++;
  while (suffix < n_removals - prefix && suffix < n_additions - prefix &&
         additions[n_additions - 1 - suffix] == peek (model, position + n_removals - 1 - suffix))
    suffix++;

  if (prefix + suffix == n_removals && prefix + suffix == n_additions)
    return;

  g_list_store_splice (store, position + prefix, n_removals - prefix - suffix,
                       additions + prefix, n_additions - prefix - suffix);
}

void
akc_chat_source_state_splice (AkcChatSourceState *self,
                              guint               position,
                              guint               n_removals,
                              gpointer           *additions,
                              guint               n_additions)
{
  akc_list_store_splice_minimal (self->messages, position, n_removals, additions, n_additions);
}

gboolean
akc_chat_source_state_get_property (AkcChatSourceState *self,
                                    guint               prop_id,
                                    guint               first_prop_id,
                                    GValue             *value)
{
  if (prop_id < first_prop_id || prop_id >= first_prop_id + AKC_CHAT_SOURCE_N_PROPS)
    return FALSE;

  switch ((AkcChatSourceProp) (prop_id - first_prop_id))
    {
    case AKC_CHAT_SOURCE_PROP_MESSAGES:
      g_value_set_object (value, self->messages);
      break;
    case AKC_CHAT_SOURCE_PROP_STATUS:
      g_value_set_enum (value, self->status);
      break;
    case AKC_CHAT_SOURCE_PROP_ERROR:
      g_value_set_boxed (value, self->error);
      break;
    case AKC_CHAT_SOURCE_PROP_INPUT:
      g_value_set_string (value, self->input);
      break;
    case AKC_CHAT_SOURCE_PROP_USAGE:
      g_value_set_boxed (value, &self->usage);
      break;
    case AKC_CHAT_SOURCE_N_PROPS:
    default:
      g_assert_not_reached ();
    }

  return TRUE;
}
