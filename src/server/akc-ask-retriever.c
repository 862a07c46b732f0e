/* akc-ask-retriever.c: where the Ask handler finds its sources, and where
 * it keeps its sessions
 *
 * SPDX-License-Identifier: MIT
 */

#include "config.h"

#include <glib/gi18n-lib.h>
#include <string.h>

#include "akc-ask-retriever.h"
#include "akc-server-util.h"

G_DEFINE_INTERFACE (AkcAskRetriever, akc_ask_retriever, G_TYPE_OBJECT)

static void
akc_ask_retriever_default_init (AkcAskRetrieverInterface *iface)
{
}

void
akc_ask_retriever_retrieve_async (AkcAskRetriever     *self,
                                  const char          *question,
                                  guint                limit,
                                  GCancellable        *cancellable,
                                  GAsyncReadyCallback  callback,
                                  gpointer             user_data)
{
  g_return_if_fail (AKC_IS_ASK_RETRIEVER (self));

  AKC_ASK_RETRIEVER_GET_IFACE (self)->retrieve_async (self, question, limit, cancellable, callback, user_data);
}

AkcJsonValue *
akc_ask_retriever_retrieve_finish (AkcAskRetriever  *self,
                                   GAsyncResult     *result,
                                   GError          **error)
{
  g_return_val_if_fail (AKC_IS_ASK_RETRIEVER (self), NULL);

  return AKC_ASK_RETRIEVER_GET_IFACE (self)->retrieve_finish (self, result, error);
}

G_DEFINE_INTERFACE (AkcAskStore, akc_ask_store, G_TYPE_OBJECT)

static void
akc_ask_store_default_init (AkcAskStoreInterface *iface)
{
}

void
akc_ask_store_load_async (AkcAskStore         *self,
                          const char          *key,
                          GCancellable        *cancellable,
                          GAsyncReadyCallback  callback,
                          gpointer             user_data)
{
  g_return_if_fail (AKC_IS_ASK_STORE (self));

  AKC_ASK_STORE_GET_IFACE (self)->load_async (self, key, cancellable, callback, user_data);
}

/* Returns the record, or a JSON null when there is none. */
AkcJsonValue *
akc_ask_store_load_finish (AkcAskStore   *self,
                           GAsyncResult  *result,
                           GError       **error)
{
  g_return_val_if_fail (AKC_IS_ASK_STORE (self), NULL);

  return AKC_ASK_STORE_GET_IFACE (self)->load_finish (self, result, error);
}

void
akc_ask_store_save_async (AkcAskStore         *self,
                          const char          *key,
                          AkcJsonValue        *record,
                          gint64               expected_revision,
                          GCancellable        *cancellable,
                          GAsyncReadyCallback  callback,
                          gpointer             user_data)
{
  g_return_if_fail (AKC_IS_ASK_STORE (self));

  AKC_ASK_STORE_GET_IFACE (self)->save_async (self, key, record, expected_revision, cancellable, callback, user_data);
}

gboolean
akc_ask_store_save_finish (AkcAskStore   *self,
                           GAsyncResult  *result,
                           gboolean      *saved,
                           GError       **error)
{
  g_return_val_if_fail (AKC_IS_ASK_STORE (self), FALSE);

  return AKC_ASK_STORE_GET_IFACE (self)->save_finish (self, result, saved, error);
}

/* In memory --------------------------------------------------------- */

struct _AkcAskMemoryStore
{
  GObject     parent_instance;

  GHashTable *records;  /* key → AkcJsonValue */
  GPtrArray  *refused;  /* session ids */
};

static void akc_ask_memory_store_iface_init (AkcAskStoreInterface *iface);

G_DEFINE_FINAL_TYPE_WITH_CODE (AkcAskMemoryStore, akc_ask_memory_store, G_TYPE_OBJECT,
                               G_IMPLEMENT_INTERFACE (AKC_TYPE_ASK_STORE, akc_ask_memory_store_iface_init))

static void
memory_load_async (AkcAskStore *store, const char *key, GCancellable *cancellable,
                   GAsyncReadyCallback callback, gpointer user_data)
{
  AkcAskMemoryStore *self = AKC_ASK_MEMORY_STORE (store);
  g_autoptr(GTask) task = g_task_new (self, cancellable, callback, user_data);
  AkcJsonValue *record = g_hash_table_lookup (self->records, key);

  g_task_return_pointer (task, record != NULL ? akc_json_value_ref (record) : akc_json_value_new_null (),
                         (GDestroyNotify) akc_json_value_unref);
}

static AkcJsonValue *
memory_load_finish (AkcAskStore *store, GAsyncResult *result, GError **error)
{
  return g_task_propagate_pointer (G_TASK (result), error);
}

static gboolean
refused (AkcAskMemoryStore *self,
         const char        *key)
{
  const char *session = strrchr (key, ':');

  session = session != NULL ? session + 1 : key;
  for (guint i = 0; i < self->refused->len; i++)
    if (strcmp (g_ptr_array_index (self->refused, i), session) == 0)
      return TRUE;
  return FALSE;
}

static void
memory_save_async (AkcAskStore *store, const char *key, AkcJsonValue *record, gint64 expected_revision,
                   GCancellable *cancellable, GAsyncReadyCallback callback, gpointer user_data)
{
  AkcAskMemoryStore *self = AKC_ASK_MEMORY_STORE (store);
  g_autoptr(GTask) task = g_task_new (self, cancellable, callback, user_data);
  AkcJsonValue *current = g_hash_table_lookup (self->records, key);
  gint64 revision = current != NULL
                    ? (gint64) akc_json_value_get_number (akc_json_value_get_member (current, "revision")) : 0;

  if (refused (self, key) || revision != expected_revision)
    {
      g_task_return_int (task, FALSE);
      return;
    }
  g_hash_table_replace (self->records, g_strdup (key), akc_json_value_ref (record));
  g_task_return_int (task, TRUE);
}

static gboolean
memory_save_finish (AkcAskStore *store, GAsyncResult *result, gboolean *saved, GError **error)
{
  return akc_server_propagate_saved (result, saved, error);
}

static void
akc_ask_memory_store_iface_init (AkcAskStoreInterface *iface)
{
  iface->load_async = memory_load_async;
  iface->load_finish = memory_load_finish;
  iface->save_async = memory_save_async;
  iface->save_finish = memory_save_finish;
}

static void
akc_ask_memory_store_finalize (GObject *object)
{
  AkcAskMemoryStore *self = AKC_ASK_MEMORY_STORE (object);

  g_hash_table_unref (self->records);
  g_ptr_array_unref (self->refused);
  G_OBJECT_CLASS (akc_ask_memory_store_parent_class)->finalize (object);
}

static void
akc_ask_memory_store_class_init (AkcAskMemoryStoreClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = akc_ask_memory_store_finalize;
}

static void
akc_ask_memory_store_init (AkcAskMemoryStore *self)
{
  self->records = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, (GDestroyNotify) akc_json_value_unref);
  self->refused = g_ptr_array_new_with_free_func (g_free);
}

AkcAskStore *
akc_ask_memory_store_new (void)
{
  return g_object_new (AKC_TYPE_ASK_MEMORY_STORE, NULL);
}

void
akc_ask_memory_store_refuse (AkcAskMemoryStore *self,
                             const char        *session_id)
{
  g_return_if_fail (AKC_IS_ASK_MEMORY_STORE (self));

  g_ptr_array_add (self->refused, g_strdup (session_id));
}

void
akc_ask_memory_store_put (AkcAskMemoryStore *self,
                          const char        *key,
                          AkcJsonValue      *record)
{
  g_return_if_fail (AKC_IS_ASK_MEMORY_STORE (self));

  g_hash_table_replace (self->records, g_strdup (key), akc_json_value_ref (record));
}

/* Every record, as one object keyed like the store. */
AkcJsonValue *
akc_ask_memory_store_dup_all (AkcAskMemoryStore *self)
{
  g_autoptr(GPtrArray) names = g_ptr_array_new ();
  g_autoptr(GPtrArray) values = g_ptr_array_new ();
  GHashTableIter iter;
  gpointer key, value;

  g_return_val_if_fail (AKC_IS_ASK_MEMORY_STORE (self), NULL);

  g_hash_table_iter_init (&iter, self->records);
  while (g_hash_table_iter_next (&iter, &key, &value))
    {
      g_ptr_array_add (names, key);
      g_ptr_array_add (values, value);
    }
  return akc_json_value_new_object ((const char * const *) names->pdata, (AkcJsonValue * const *) values->pdata,
                                    names->len);
}

/* Scripted ---------------------------------------------------------- */

typedef struct
{
  char         *contains;   /* NULL: the default rule */
  AkcJsonValue *documents;  /* NULL: fails */
} Rule;

struct _AkcAskScriptRetriever
{
  GObject  parent_instance;

  GArray  *rules;
};

static void akc_ask_script_retriever_iface_init (AkcAskRetrieverInterface *iface);

G_DEFINE_FINAL_TYPE_WITH_CODE (AkcAskScriptRetriever, akc_ask_script_retriever, G_TYPE_OBJECT,
                               G_IMPLEMENT_INTERFACE (AKC_TYPE_ASK_RETRIEVER, akc_ask_script_retriever_iface_init))

static void
rule_clear (gpointer data)
{
  Rule *rule = data;

  g_free (rule->contains);
  g_clear_pointer (&rule->documents, akc_json_value_unref);
}

static void
script_retrieve_async (AkcAskRetriever *retriever, const char *question, guint limit, GCancellable *cancellable,
                       GAsyncReadyCallback callback, gpointer user_data)
{
  AkcAskScriptRetriever *self = AKC_ASK_SCRIPT_RETRIEVER (retriever);
  g_autoptr(GTask) task = g_task_new (self, cancellable, callback, user_data);

  for (guint i = 0; i < self->rules->len; i++)
    {
      Rule *rule = &g_array_index (self->rules, Rule, i);

      if (rule->contains != NULL && strstr (question, rule->contains) == NULL)
        continue;
      if (rule->documents == NULL)
        g_task_return_new_error (task, G_IO_ERROR, G_IO_ERROR_FAILED, "The scripted retriever failed as asked.");
      else
        g_task_return_pointer (task, akc_json_value_ref (rule->documents), (GDestroyNotify) akc_json_value_unref);
      return;
    }
  g_task_return_pointer (task, akc_json_value_new_array (NULL, 0), (GDestroyNotify) akc_json_value_unref);
}

static AkcJsonValue *
script_retrieve_finish (AkcAskRetriever *retriever, GAsyncResult *result, GError **error)
{
  return g_task_propagate_pointer (G_TASK (result), error);
}

static void
akc_ask_script_retriever_iface_init (AkcAskRetrieverInterface *iface)
{
  iface->retrieve_async = script_retrieve_async;
  iface->retrieve_finish = script_retrieve_finish;
}

static void
akc_ask_script_retriever_finalize (GObject *object)
{
  g_array_unref (AKC_ASK_SCRIPT_RETRIEVER (object)->rules);
  G_OBJECT_CLASS (akc_ask_script_retriever_parent_class)->finalize (object);
}

static void
akc_ask_script_retriever_class_init (AkcAskScriptRetrieverClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = akc_ask_script_retriever_finalize;
}

static void
akc_ask_script_retriever_init (AkcAskScriptRetriever *self)
{
  self->rules = g_array_new (FALSE, TRUE, sizeof (Rule));
  g_array_set_clear_func (self->rules, rule_clear);
}

/* {"protocol": "agentskit.chat.server-retriever", "version": 1,
 *  "rules": [{"contains"?: S, "documents": [...]} | {"contains"?: S, "fail": true}]}
 * The first rule whose `contains` is in the question answers; a rule
 * without one answers every question. */
AkcAskRetriever *
akc_ask_script_retriever_new_from_file (const char  *path,
                                        GError     **error)
{
  static const char * const allowed[] = { "protocol", "version", "rules", NULL };
  static const char * const rule_allowed[] = { "contains", "documents", "fail", NULL };
  g_autoptr(AkcJsonValue) root = akc_server_read_json (path, error);
  g_autoptr(AkcAskScriptRetriever) self = NULL;
  g_autofree char *where = NULL;
  AkcJsonValue *rules;
  const char *protocol;
  gint64 version = 0;

  if (root == NULL)
    return NULL;
  where = g_filename_display_name (path);
  if (!akc_server_check_object (root, where, allowed, allowed, error) ||
      (protocol = akc_server_get_string (root, "protocol", where, FALSE, error)) == NULL ||
      !akc_server_get_integer (root, "version", where, 1, 1, &version, error) ||
      !akc_server_get_array (root, "rules", where, &rules, error))
    return NULL;
  if (strcmp (protocol, "agentskit.chat.server-retriever") != 0)
    {
      g_set_error (error, AKC_SERVER_CONFIG_ERROR, AKC_SERVER_CONFIG_ERROR_INVALID,
                   _("%s is not an akc-server retriever script (protocol “agentskit.chat.server-retriever”)."),
                   where);
      return NULL;
    }

  self = g_object_new (AKC_TYPE_ASK_SCRIPT_RETRIEVER, NULL);
  for (gsize i = 0; i < akc_json_value_get_length (rules); i++)
    {
      AkcJsonValue *item = akc_json_value_get_element (rules, i);
      g_autofree char *in = g_strdup_printf (_("rule %u of %s"), (guint) i + 1, where);
      AkcJsonValue *documents, *fail;
      const char *contains;
      Rule rule = { 0, };

      if (!akc_server_check_object (item, in, rule_allowed, NULL, error) ||
          !akc_server_get_array (item, "documents", in, &documents, error))
        return NULL;
      contains = akc_server_get_string (item, "contains", in, TRUE, error);
      if (contains == NULL && akc_json_value_get_member (item, "contains") != NULL)
        return NULL;
      fail = akc_json_value_get_member (item, "fail");
      if ((documents == NULL) == (fail == NULL) ||
          (fail != NULL && (akc_json_value_get_kind (fail) != AKC_JSON_KIND_BOOLEAN || !akc_json_value_get_boolean (fail))))
        {
          g_set_error (error, AKC_SERVER_CONFIG_ERROR, AKC_SERVER_CONFIG_ERROR_INVALID,
                       _("%s must have either “documents” or “fail”: true."), in);
          return NULL;
        }
      rule.contains = g_strdup (contains);
      rule.documents = documents != NULL ? akc_json_value_ref (documents) : NULL;
      g_array_append_val (self->rules, rule);
    }
  return AKC_ASK_RETRIEVER (g_steal_pointer (&self));
}
