/* akc-lifecycle.c
 *
 * SPDX-License-Identifier: MIT
 */

#include "config.h"

#include "akc-lifecycle.h"
#include "akc-message.h"

static AkcMessageRole
role_at (GListModel *messages,
         guint       position)
{
  g_autoptr(AkcMessage) message = g_list_model_get_item (messages, position);

  return akc_message_get_role (message);
}

static char *
dup_id_at (GListModel *messages,
           guint       position)
{
  g_autoptr(AkcMessage) message = g_list_model_get_item (messages, position);

  return g_strdup (akc_message_get_id (message));
}

/**
 * akc_get_lifecycle_targets:
 * @messages: the conversation, a list of [class@Message]
 * @user_id: (out) (optional) (nullable) (transfer full): the user message
 *   that Retry and Edit act on
 * @assistant_id: (out) (optional) (nullable) (transfer full): the
 *   assistant message that Regenerate acts on
 *
 * Finds the targets of the lifecycle controls (`getLifecycleTargets`,
 * [application §12.3](wire-formats.html#application-12)). There are targets only when the last message is
 * an assistant message and an earlier message is a user message; then
 * @assistant_id is the last message and @user_id the nearest earlier user
 * message (tool and assistant messages in between are skipped). The
 * “Response actions” group is shown when a user target exists and the
 * conversation is not streaming.
 *
 * Returns: %TRUE when there are targets; otherwise both ids are %NULL
 *
 * Since: 0.1
 */
gboolean
akc_get_lifecycle_targets (GListModel  *messages,
                           char       **user_id,
                           char       **assistant_id)
{
  guint n;

  g_return_val_if_fail (G_IS_LIST_MODEL (messages), FALSE);
  g_return_val_if_fail (g_type_is_a (g_list_model_get_item_type (messages), AKC_TYPE_MESSAGE), FALSE);

  if (user_id != NULL)
    *user_id = NULL;
  if (assistant_id != NULL)
    *assistant_id = NULL;

  n = g_list_model_get_n_items (messages);
  if (n == 0 || role_at (messages, n - 1) != AKC_MESSAGE_ROLE_ASSISTANT)
    return FALSE;

  for (guint i = n - 1; i > 0; i--)
    {
      if (role_at (messages, i - 1) != AKC_MESSAGE_ROLE_USER)
        continue;

      if (user_id != NULL)
        *user_id = dup_id_at (messages, i - 1);
      if (assistant_id != NULL)
        *assistant_id = dup_id_at (messages, n - 1);
      return TRUE;
    }

  return FALSE;
}
