/* akc-test-gated-source.c: a chat source that fails on demand
 *
 * SPDX-License-Identifier: MIT
 */

#include "akc-test-gated-source.h"

static void akc_test_gated_source_source_init (AkcChatSourceInterface *iface);

G_DEFINE_FINAL_TYPE_WITH_CODE (AkcTestGatedSource, akc_test_gated_source, G_TYPE_OBJECT,
                               G_IMPLEMENT_INTERFACE (AKC_TYPE_CHAT_SOURCE, akc_test_gated_source_source_init))

enum {
  PROP_0,
  PROP_MESSAGES,
};

static GParamSpec *source_props[AKC_CHAT_SOURCE_N_PROPS];

AKC_CHAT_SOURCE_STATE_DEFINE_GETTERS (gated, AKC_TEST_GATED_SOURCE, state)

static AkcToolCall *
gated_propose (AkcChatSource  *source,
               const char     *id,
               const char     *name,
               AkcJsonValue   *arguments,
               GError        **error)
{
  AkcTestGatedSource *self = AKC_TEST_GATED_SOURCE (source);
  AkcToolCall *call;

  self->proposes++;
  if (self->call_id != NULL)
    id = self->call_id;
  call = akc_tool_call_new (id, name, arguments,
                            self->ungated ? AKC_TOOL_CALL_STATUS_PENDING
                                          : AKC_TOOL_CALL_STATUS_REQUIRES_CONFIRMATION);
  g_hash_table_insert (self->calls, g_strdup (id), g_object_ref (call));

  return call;
}

static gboolean
gated_approve (AkcChatSource  *source,
               const char     *tool_call_id,
               GError        **error)
{
  AkcTestGatedSource *self = AKC_TEST_GATED_SOURCE (source);

  self->approves++;
  g_assert_true (g_hash_table_contains (self->calls, tool_call_id));
  if (self->approve_failures > 0)
    {
      self->approve_failures--;
      g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_FAILED,
                           self->approve_failure != NULL ? self->approve_failure : "temporary");
      return FALSE;
    }

  return TRUE;
}

static gboolean
gated_deny (AkcChatSource  *source,
            const char     *tool_call_id,
            const char     *reason,
            GError        **error)
{
  AkcTestGatedSource *self = AKC_TEST_GATED_SOURCE (source);

  self->denies++;
  g_assert_true (g_hash_table_contains (self->calls, tool_call_id));
  g_free (self->last_reason);
  self->last_reason = g_strdup (reason);
  if (self->deny_failures > 0)
    {
      self->deny_failures--;
      g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_FAILED, "temporary");
      return FALSE;
    }

  return TRUE;
}

static void
akc_test_gated_source_source_init (AkcChatSourceInterface *iface)
{
  gated_state_iface_init (iface);
  iface->propose_tool_call = gated_propose;
  iface->approve = gated_approve;
  iface->deny = gated_deny;
}

static void
akc_test_gated_source_get_property (GObject    *object,
                                    guint       prop_id,
                                    GValue     *value,
                                    GParamSpec *pspec)
{
  if (!akc_chat_source_state_get_property (&AKC_TEST_GATED_SOURCE (object)->state, prop_id, PROP_MESSAGES, value))
    G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
}

static void
akc_test_gated_source_set_property (GObject      *object,
                                    guint         prop_id,
                                    const GValue *value,
                                    GParamSpec   *pspec)
{
  akc_chat_source_state_set_input (&AKC_TEST_GATED_SOURCE (object)->state, g_value_get_string (value));
}

static void
akc_test_gated_source_finalize (GObject *object)
{
  AkcTestGatedSource *self = AKC_TEST_GATED_SOURCE (object);

  akc_chat_source_state_clear (&self->state);
  g_clear_pointer (&self->calls, g_hash_table_unref);
  g_clear_pointer (&self->last_reason, g_free);
  g_clear_pointer (&self->call_id, g_free);
  g_clear_pointer (&self->approve_failure, g_free);

  G_OBJECT_CLASS (akc_test_gated_source_parent_class)->finalize (object);
}

static void
akc_test_gated_source_class_init (AkcTestGatedSourceClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->get_property = akc_test_gated_source_get_property;
  object_class->set_property = akc_test_gated_source_set_property;
  object_class->finalize = akc_test_gated_source_finalize;

  akc_chat_source_state_override_properties (object_class, PROP_MESSAGES, source_props);
}

static void
akc_test_gated_source_init (AkcTestGatedSource *self)
{
  akc_chat_source_state_init (&self->state, G_OBJECT (self), source_props);
  self->calls = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_object_unref);
}

AkcTestGatedSource *
akc_test_gated_source_new (void)
{
  return g_object_new (AKC_TEST_TYPE_GATED_SOURCE, NULL);
}

void
akc_test_gated_source_fail_approval (AkcTestGatedSource *self,
                                     const char         *message)
{
  self->approve_failures = 1;
  g_free (self->approve_failure);
  self->approve_failure = g_strdup (message);
}
