/* akc-app-session.c: the application's conversations and assistants
 *
 * SPDX-License-Identifier: MIT
 */

#include "config.h"

#include <string.h>
#include <glib/gi18n.h>

#include "akc-app-session.h"
#include "akc-conversation-model.h"
#include "akc-demo.h"
#include "akc-provider-page.h"

/* The conversations the previous releases kept, one per assistant: they
 * stay each assistant's first conversation. */
#define LEGACY_DEMO_ID "demo"
#define DEFAULT_DEMO   "hello-world"

/* The most matches a search of the sidebar reads. */
#define SEARCH_LIMIT 500

/* The local Ollama answers at once or not at all. */
#define LOCAL_OLLAMA_TIMEOUT_MS 2000
/* Ollama's port, for an address that names none. */
#define LOCAL_OLLAMA_PORT 11434

/* The remembered local knowledge: file paths, never their contents. */
#define SETTING_SITE_CONFIG "knowledge-site-config"
#define SETTING_ARTIFACT    "knowledge-artifact"

/**
 * AkcAppSession:
 *
 * What the application talks to and what it talked about, shared by all
 * of its windows (GNOME Text Editor's `EditorSession` is the pattern): the
 * assistants (the offline demos, the Ask service, the turn server, the
 * model provider, with their backends and local knowledge), and the
 * conversations of the history, newest first and pinned on top, read in
 * pages (an [class@ConversationModel] over the history's
 * [class@Akc.ConversationList]), with the turn server's. A window
 * shows one conversation of it; two windows showing the same one show the
 * same messages.
 *
 * Removing conversations hides them at once and keeps them until
 * [method@AppSession.purge] (or [method@AppSession.close]): a crash in
 * between keeps them in the history.
 */
struct _AkcAppSession
{
  GObject              parent_instance;

  GSettings           *settings;
  AkcCredentialStore  *credentials;
  AkcBackend          *ask_backend;
  AkcBackend          *turn_backend;
  AkcBackend          *provider_backend;
  AkcKnowledgeLayer   *knowledge;       /* in front of the demos' model */
  AkcKnowledgeLayer   *ask_knowledge;   /* in front of the Ask service */

  GListStore          *assistants;
  AkcConversationModel *conversations;  /* AkcConversationItem, sorted, paged */
  AkcConversationList *stored;          /* the history's pages */
  AkcConversationItem *turn;            /* the turn server's, not stored */
  GHashTable          *removals;        /* id → GPtrArray of items */
  guint                last_removal;

  AkcChatMemory       *memory;
  GError              *memory_error;
  GCancellable        *cancellable;
  gboolean             ready;
  gboolean             first_run;       /* the history held nothing */

  /* Whether an Ollama answers on this computer: asked once for all the
   * windows. */
  GCancellable        *ollama_probe;    /* the question in flight */
  char                *ollama_model;    /* its first model, once it answered */
  gboolean             ollama_probed;
};

G_DEFINE_FINAL_TYPE (AkcAppSession, akc_app_session, G_TYPE_OBJECT)

G_DEFINE_QUARK (akc-app-session-error-quark, akc_app_session_error)

enum {
  PROP_0,
  PROP_READY,
  PROP_LOCAL_OLLAMA_MODEL,
  PROP_PROBING_LOCAL_OLLAMA,
  N_PROPS
};

static GParamSpec *props[N_PROPS];

enum {
  HISTORY_ERROR,
  CONVERSATION_REMOVED,
  CONVERSATION_RESTORED,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

static void attach_history (AkcAppSession *self, AkcConversationItem *item);

static AkcAssistant *
assistant_at (AkcAppSession *self,
              guint          i)
{
  g_autoptr(AkcAssistant) assistant = g_list_model_get_item (G_LIST_MODEL (self->assistants), i);

  return assistant;
}

/* The assistant a stored conversation belongs to: new ones are
 * "«assistant»:«uuid»", the previous releases' "demo", "demo-«id»",
 * "ask" and "provider". */
static AkcAssistant *
assistant_of_id (AkcAppSession *self,
                 const char    *id)
{
  const char *colon = strchr (id, ':');
  g_autofree char *assistant = NULL;

  if (colon != NULL)
    assistant = g_strndup (id, colon - id);
  else if (g_str_equal (id, LEGACY_DEMO_ID))
    assistant = g_strdup (DEFAULT_DEMO);
  else if (g_str_has_prefix (id, LEGACY_DEMO_ID "-"))
    assistant = g_strdup (id + strlen (LEGACY_DEMO_ID "-"));
  else
    assistant = g_strdup (id);

  return akc_app_session_lookup_assistant (self, assistant);
}

static char *
legacy_id (AkcAssistant *assistant)
{
  const char *id = akc_assistant_get_id (assistant);

  if (akc_assistant_get_kind (assistant) != AKC_ASSISTANT_KIND_DEMO)
    return g_strdup (id);
  if (g_str_equal (id, DEFAULT_DEMO))
    return g_strdup (LEGACY_DEMO_ID);
  return g_strconcat (LEGACY_DEMO_ID, "-", id, NULL);
}

static gboolean
find_item (AkcAppSession       *self,
           AkcConversationItem *item,
           guint               *position)
{
  return akc_conversation_model_find (self->conversations, item, position);
}

/* Back in its place after a change of time or pin. */
static void
resort (AkcAppSession       *self,
        AkcConversationItem *item)
{
  if (find_item (self, item, NULL))
    akc_conversation_model_resort (self->conversations);
}

static void
store_title (AkcAppSession       *self,
             AkcConversationItem *item)
{
  if (self->memory == NULL || akc_conversation_item_get_title (item) == NULL ||
      akc_conversation_item_get_history (item) == NULL)
    return;

  akc_chat_memory_update_conversation_async (self->memory, akc_conversation_item_get_id (item),
                                             akc_conversation_item_get_title (item), NULL,
                                             NULL, NULL, NULL);
}

/* A title from the first message the person wrote, when there is none. */
static void
take_title (AkcAppSession       *self,
            AkcConversationItem *item)
{
  GListModel *messages;

  if (akc_conversation_item_get_title (item) != NULL)
    return;

  messages = akc_chat_source_get_messages (akc_conversation_item_get_source (item));
  for (guint i = 0; i < g_list_model_get_n_items (messages); i++)
    {
      g_autoptr(AkcMessage) message = g_list_model_get_item (messages, i);
      g_autofree char *title = NULL;

      if (akc_message_get_role (message) != AKC_MESSAGE_ROLE_USER)
        continue;
      title = akc_derive_conversation_title (akc_message_get_content (message), -1);
      if (title == NULL || title[0] == '\0')
        continue;
      akc_conversation_item_set_title (item, title);
      store_title (self, item);
      return;
    }
}

static void
on_item_messages_changed (AkcConversationItem *item,
                          guint                position,
                          guint                removed,
                          guint                added,
                          GListModel          *messages)
{
  AkcAppSession *self = g_object_get_data (G_OBJECT (item), "akc-app-session");
  AkcChatHistory *history = akc_conversation_item_get_history (item);

  if (self == NULL)
    return;

  /* The stored messages coming in are not a change. */
  if (history == NULL || akc_chat_history_get_loaded (history))
    {
      g_autoptr(GDateTime) now = g_date_time_new_now_utc ();

      if (added > 0 || removed > 0)
        {
          akc_conversation_item_set_updated_at (item, now);
          resort (self, item);
        }
    }
  take_title (self, item);
}

static void
on_model_stored (GObject      *source,
                 GAsyncResult *result,
                 gpointer      user_data)
{
  g_autoptr(GError) error = NULL;

  if (!akc_chat_memory_set_conversation_model_finish (AKC_CHAT_MEMORY (source), result, &error) &&
      !g_error_matches (error, AKC_CHAT_MEMORY_ERROR, AKC_CHAT_MEMORY_ERROR_NOT_FOUND) &&
      !g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    g_message ("History: %s", error->message);
}

/* Keeps the conversation's provider and model with it in the history,
 * once the history holds the conversation (its load creates it); until
 * then, the load stores it. */
static void
store_model (AkcAppSession       *self,
             AkcConversationItem *item)
{
  AkcChatHistory *history = akc_conversation_item_get_history (item);

  if (self->memory == NULL || history == NULL || !akc_chat_history_get_loaded (history))
    {
      g_object_set_data (G_OBJECT (item), "akc-model-unsaved", GINT_TO_POINTER (TRUE));
      return;
    }

  g_object_set_data (G_OBJECT (item), "akc-model-unsaved", NULL);
  akc_chat_memory_set_conversation_model_async (self->memory, akc_conversation_item_get_id (item),
                                                akc_conversation_item_get_provider_kind (item),
                                                akc_conversation_item_get_provider_url (item),
                                                akc_conversation_item_get_model (item),
                                                NULL, on_model_stored, NULL);
}

static void
on_history_notify_error (AkcAppSession  *self,
                         GParamSpec     *pspec,
                         AkcChatHistory *history)
{
  const GError *error = akc_chat_history_get_error (history);

  if (error != NULL)
    g_signal_emit (self, signals[HISTORY_ERROR], 0, error);
}

static void
on_session_attached (GObject      *source,
                     GAsyncResult *result,
                     gpointer      user_data)
{
  g_autoptr(AkcAppSession) self = user_data;
  g_autoptr(GError) error = NULL;

  /* A session that cannot be read or kept goes on without it: say so. */
  if (!akc_demo_attach_storage_finish (AKC_DEMO (source), result, &error) &&
      !g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    g_signal_emit (self, signals[HISTORY_ERROR], 0, error);
}

/* A demo's session (its state, routes and confirmations) is kept with its
 * conversation, once the history holds the conversation: a restart goes
 * on from where it was (issue 13), and deleting the conversation deletes
 * it. */
static void
attach_session (AkcAppSession       *self,
                AkcConversationItem *item)
{
  AkcDemo *demo = akc_conversation_item_get_demo (item);
  g_autoptr(AkcSqliteSessionStorage) storage = NULL;

  if (demo == NULL || !AKC_IS_SQLITE_CHAT_MEMORY (self->memory) ||
      akc_session_get_storage (akc_demo_get_session (demo)) != NULL ||
      g_object_get_data (G_OBJECT (item), "akc-session-attaching") != NULL)
    return;

  g_object_set_data (G_OBJECT (item), "akc-session-attaching", GINT_TO_POINTER (TRUE));
  storage = akc_sqlite_session_storage_new_for_conversation (AKC_SQLITE_CHAT_MEMORY (self->memory),
                                                             akc_conversation_item_get_id (item));
  akc_demo_attach_storage_async (demo, AKC_SESSION_STORAGE (storage), self->cancellable,
                                 on_session_attached, g_object_ref (self));
}

/* ------------------------------------------------------------------ */
/* Drafts                                                              */
/* ------------------------------------------------------------------ */

/* What the person typed in a conversation's composer and did not send
 * (its chat's AkcChatSource:input) is kept with the conversation in the
 * history: written a moment after the last keystroke, at once when the
 * conversation is left or the application quits, and put back into the
 * composer when the conversation is opened again. Only the text: the
 * attachments of the composer are not kept. */
#define DRAFT_SAVE_DELAY_MS 500

typedef struct
{
  AkcAppSession       *session;  /* unowned: the items are its own */
  AkcConversationItem *item;     /* unowned: holds the draft */
  AkcChatSource       *source;
  gulong               handler;
  guint                timeout;
  char                *stored;   /* as last handed to the history */
} Draft;

static void
draft_free (gpointer data)
{
  Draft *draft = data;

  g_clear_signal_handler (&draft->handler, draft->source);
  g_clear_handle_id (&draft->timeout, g_source_remove);
  g_clear_object (&draft->source);
  g_free (draft->stored);
  g_free (draft);
}

static void
on_draft_saved (GObject      *source,
                GAsyncResult *result,
                gpointer      user_data)
{
  g_autoptr(AkcAppSession) self = user_data;
  g_autoptr(GError) error = NULL;

  if (!akc_sqlite_chat_memory_save_draft_finish (AKC_SQLITE_CHAT_MEMORY (source), result, &error))
    g_signal_emit (self, signals[HISTORY_ERROR], 0, error);
}

/* Hands the draft to the history unless it holds it already; the write
 * runs on the history's thread, and quitting waits for it. */
static void
draft_save (Draft *draft)
{
  AkcAppSession *self = draft->session;
  g_autofree char *input = NULL;

  g_clear_handle_id (&draft->timeout, g_source_remove);
  if (!AKC_IS_SQLITE_CHAT_MEMORY (self->memory))
    return;

  input = akc_chat_source_dup_input (draft->source);
  if (g_strcmp0 (input, draft->stored) == 0)
    return;

  akc_sqlite_chat_memory_save_draft_async (AKC_SQLITE_CHAT_MEMORY (self->memory),
                                           akc_conversation_item_get_id (draft->item), input,
                                           NULL, on_draft_saved, g_object_ref (self));
  g_free (draft->stored);
  draft->stored = g_steal_pointer (&input);
}

static gboolean
on_draft_timeout (gpointer user_data)
{
  Draft *draft = user_data;

  draft->timeout = 0;
  draft_save (draft);

  return G_SOURCE_REMOVE;
}

static void
on_draft_input_changed (Draft *draft)
{
  g_clear_handle_id (&draft->timeout, g_source_remove);
  draft->timeout = g_timeout_add (DRAFT_SAVE_DELAY_MS, on_draft_timeout, draft);
}

static void
on_draft_loaded (GObject      *source,
                 GAsyncResult *result,
                 gpointer      user_data)
{
  g_autoptr(AkcConversationItem) item = user_data;
  AkcAppSession *self = g_object_get_data (G_OBJECT (item), "akc-app-session");
  AkcChatSource *chat = akc_conversation_item_get_source (item);
  g_autoptr(GError) error = NULL;
  g_autofree char *text = NULL;
  g_autofree char *input = NULL;
  Draft *draft;

  text = akc_sqlite_chat_memory_load_draft_finish (AKC_SQLITE_CHAT_MEMORY (source), result, &error);
  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED) || self == NULL ||
      self->memory == NULL || !AKC_IS_CHAT (chat) ||
      g_object_get_data (G_OBJECT (item), "akc-draft") != NULL)
    return;
  if (text == NULL)
    g_signal_emit (self, signals[HISTORY_ERROR], 0, error);

  draft = g_new0 (Draft, 1);
  draft->session = self;
  draft->item = item;
  draft->source = g_object_ref (chat);
  draft->stored = g_steal_pointer (&text);
  g_object_set_data_full (G_OBJECT (item), "akc-draft", draft, draft_free);

  /* What was typed while the draft was read wins over it. */
  input = akc_chat_source_dup_input (chat);
  if (*input == '\0' && draft->stored != NULL && *draft->stored != '\0')
    akc_chat_source_set_input (chat, draft->stored);
  else if (g_strcmp0 (input, draft->stored) != 0)
    on_draft_input_changed (draft);

  draft->handler = g_signal_connect_swapped (chat, "notify::input",
                                             G_CALLBACK (on_draft_input_changed), draft);
}

/* Once the history holds the conversation (its load creates it). */
static void
load_draft (AkcAppSession       *self,
            AkcConversationItem *item)
{
  if (!AKC_IS_SQLITE_CHAT_MEMORY (self->memory) ||
      g_object_get_data (G_OBJECT (item), "akc-draft") != NULL)
    return;

  akc_sqlite_chat_memory_load_draft_async (AKC_SQLITE_CHAT_MEMORY (self->memory),
                                           akc_conversation_item_get_id (item), self->cancellable,
                                           on_draft_loaded, g_object_ref (item));
}

/**
 * akc_app_session_keep_draft:
 * @self: a #AkcAppSession
 * @item: a conversation
 *
 * The conversation is left (another is shown, its window closes): its
 * draft is handed to the history now rather than a moment later.
 */
void
akc_app_session_keep_draft (AkcAppSession       *self,
                            AkcConversationItem *item)
{
  AkcChatSource *source;
  Draft *draft;

  g_return_if_fail (AKC_IS_APP_SESSION (self));
  g_return_if_fail (AKC_IS_CONVERSATION_ITEM (item));

  draft = g_object_get_data (G_OBJECT (item), "akc-draft");
  if (draft != NULL)
    {
      draft_save (draft);
      return;
    }

  /* Left before its stored draft was read back: what was typed replaces
   * it (as it would once read), and nothing typed leaves it as it is.
   * The history's load, which creates the conversation, was queued
   * before. */
  source = akc_conversation_item_get_source (item);
  if (AKC_IS_SQLITE_CHAT_MEMORY (self->memory) && AKC_IS_CHAT (source) &&
      akc_conversation_item_get_history (item) != NULL)
    {
      g_autofree char *input = akc_chat_source_dup_input (source);

      if (*input != '\0')
        akc_sqlite_chat_memory_save_draft_async (AKC_SQLITE_CHAT_MEMORY (self->memory),
                                                 akc_conversation_item_get_id (item), input,
                                                 NULL, on_draft_saved, g_object_ref (self));
    }
}

static void
on_history_loaded (GObject      *source,
                   GAsyncResult *result,
                   gpointer      user_data)
{
  g_autoptr(AkcConversationItem) item = user_data;
  AkcAppSession *self = g_object_get_data (G_OBJECT (item), "akc-app-session");

  /* A failure is the history's error, reported by on_history_notify_error. */
  if (akc_chat_history_load_finish (AKC_CHAT_HISTORY (source), result, NULL) && self != NULL)
    {
      take_title (self, item);
      if (g_object_get_data (G_OBJECT (item), "akc-model-unsaved") != NULL)
        store_model (self, item);
      attach_session (self, item);
      load_draft (self, item);
    }
}

static void
on_resolutions_loaded (GObject      *source,
                       GAsyncResult *result,
                       gpointer      user_data)
{
  g_autoptr(AkcAppSession) self = user_data;
  g_autoptr(GError) error = NULL;

  /* Answers that cannot be read are the history's failure: say so. */
  if (!akc_interaction_controller_load_finish (AKC_INTERACTION_CONTROLLER (source), result, &error) &&
      !g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    g_signal_emit (self, signals[HISTORY_ERROR], 0, error);
}

/* Keeps an opened conversation in the history, once there is one. The
 * turn server keeps its own. */
static void
attach_history (AkcAppSession       *self,
                AkcConversationItem *item)
{
  AkcChatSource *source = akc_conversation_item_get_source (item);
  AkcInteractionController *interaction = akc_conversation_item_get_interaction (item);
  g_autoptr(AkcChatHistory) history = NULL;
  const char *id = akc_conversation_item_get_id (item);

  if (self->memory == NULL || source == NULL || item == self->turn ||
      akc_conversation_item_get_history (item) != NULL || !AKC_IS_CHAT (source))
    return;

  history = g_object_new (AKC_TYPE_CHAT_HISTORY,
                          "chat", source,
                          "memory", self->memory,
                          "conversation-id", id,
                          "assistant-id", akc_assistant_get_id (akc_conversation_item_get_assistant (item)),
                          NULL);
  g_signal_connect_object (history, "notify::error",
                           G_CALLBACK (on_history_notify_error), self, G_CONNECT_SWAPPED);
  akc_conversation_item_set_history (item, history);
  akc_chat_history_load_async (history, self->cancellable, on_history_loaded, g_object_ref (item));

  /* The answers of its cards are kept with its messages: a card answered
   * before a restart stays answered (§12.7). */
  if (AKC_IS_SQLITE_CHAT_MEMORY (self->memory))
    {
      akc_interaction_controller_set_history (interaction, AKC_SQLITE_CHAT_MEMORY (self->memory), id);
      akc_interaction_controller_load_async (interaction, self->cancellable,
                                             on_resolutions_loaded, g_object_ref (self));
    }
}

/* Whether a conversation of that id waits for its deletion. */
static gboolean
is_removed (AkcAppSession *self,
            const char    *id)
{
  GHashTableIter iter;
  gpointer value;

  g_hash_table_iter_init (&iter, self->removals);
  while (g_hash_table_iter_next (&iter, NULL, &value))
    {
      GPtrArray *removed = value;

      for (guint i = 0; i < removed->len; i++)
        if (g_str_equal (akc_conversation_item_get_id (g_ptr_array_index (removed, i)), id))
          return TRUE;
    }

  return FALSE;
}

static AkcConversationItem *
add_item (AkcAppSession *self,
          const char    *id,
          AkcAssistant  *assistant,
          const char    *title,
          GDateTime     *created_at,
          GDateTime     *updated_at)
{
  g_autoptr(AkcConversationItem) item = akc_conversation_item_new (id, assistant, title, created_at, updated_at);

  g_object_set_data (G_OBJECT (item), "akc-app-session", self);
  akc_conversation_model_add (self->conversations, item);

  return item;
}

/* The item of a conversation the history lists. */
static AkcConversationItem *
item_for_info (AkcConversationInfo *info,
               gpointer             user_data)
{
  AkcAppSession *self = user_data;
  const char *id = akc_conversation_info_get_id (info);
  const char *assistant_id = akc_conversation_info_get_assistant_id (info);
  AkcAssistant *assistant = assistant_id != NULL && assistant_id[0] != '\0'
                            ? akc_app_session_lookup_assistant (self, assistant_id)
                            : assistant_of_id (self, id);
  AkcConversationItem *item;

  /* What this release cannot open (another program's) is not listed. */
  if (assistant == NULL || akc_assistant_get_kind (assistant) == AKC_ASSISTANT_KIND_TURN)
    return NULL;

  item = akc_conversation_item_new (id, assistant, akc_conversation_info_get_title (info),
                                    akc_conversation_info_get_created_at (info),
                                    akc_conversation_info_get_updated_at (info));
  akc_conversation_item_set_n_messages (item, akc_conversation_info_get_n_messages (info));
  akc_conversation_item_set_pinned (item, akc_conversation_info_get_pinned (info));
  akc_conversation_item_set_model (item, akc_conversation_info_get_provider_kind (info),
                                   akc_conversation_info_get_provider_url (info),
                                   akc_conversation_info_get_model (info));
  g_object_set_data (G_OBJECT (item), "akc-app-session", self);

  return item;
}

static void
set_ready (AkcAppSession *self)
{
  if (self->ready)
    return;

  self->ready = TRUE;
  g_object_notify_by_pspec (G_OBJECT (self), props[PROP_READY]);
}

/* The first page of the history is read (or could not be): a window
 * can choose what to show. */
static void
on_stored_changed (AkcAppSession *self)
{
  const GError *error;

  if (self->ready || self->stored == NULL || akc_conversation_list_get_loading (self->stored))
    return;

  error = akc_conversation_list_get_error (self->stored);
  if (error != NULL)
    g_signal_emit (self, signals[HISTORY_ERROR], 0, error);
  self->first_run = error == NULL && g_list_model_get_n_items (G_LIST_MODEL (self->stored)) == 0;
  /* The first page listed before anyone looks. */
  akc_conversation_model_resort (self->conversations);
  set_ready (self);
}

static void
akc_app_session_dispose (GObject *object)
{
  AkcAppSession *self = AKC_APP_SESSION (object);

  akc_app_session_close (self);
  g_cancellable_cancel (self->ollama_probe);
  g_clear_object (&self->ollama_probe);
  g_clear_pointer (&self->ollama_model, g_free);
  g_clear_object (&self->turn);
  g_clear_object (&self->assistants);
  g_clear_object (&self->ask_knowledge);
  g_clear_object (&self->knowledge);
  g_clear_object (&self->provider_backend);
  g_clear_object (&self->turn_backend);
  g_clear_object (&self->ask_backend);
  g_clear_object (&self->credentials);
  g_clear_object (&self->settings);
  g_clear_object (&self->cancellable);
  g_clear_error (&self->memory_error);

  G_OBJECT_CLASS (akc_app_session_parent_class)->dispose (object);
}

static void
akc_app_session_finalize (GObject *object)
{
  AkcAppSession *self = AKC_APP_SESSION (object);

  g_clear_pointer (&self->removals, g_hash_table_unref);
  g_clear_object (&self->conversations);
  g_clear_object (&self->stored);

  G_OBJECT_CLASS (akc_app_session_parent_class)->finalize (object);
}

static void
akc_app_session_get_property (GObject    *object,
                              guint       prop_id,
                              GValue     *value,
                              GParamSpec *pspec)
{
  AkcAppSession *self = AKC_APP_SESSION (object);

  switch (prop_id)
    {
    case PROP_READY:
      g_value_set_boolean (value, self->ready);
      break;
    case PROP_LOCAL_OLLAMA_MODEL:
      g_value_set_string (value, self->ollama_model);
      break;
    case PROP_PROBING_LOCAL_OLLAMA:
      g_value_set_boolean (value, self->ollama_probe != NULL);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
akc_app_session_class_init (AkcAppSessionClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->dispose = akc_app_session_dispose;
  object_class->finalize = akc_app_session_finalize;
  object_class->get_property = akc_app_session_get_property;

  /**
   * AkcAppSession:ready:
   *
   * Whether the conversations of the history are listed (or there is no
   * history to list): a window waits for it before it chooses one.
   */
  props[PROP_READY] = g_param_spec_boolean ("ready", NULL, NULL, TRUE,
                                            G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);

  /**
   * AkcAppSession:local-ollama-model:
   *
   * The first model of the Ollama that answered on this computer
   * ([method@AppSession.probe_local_ollama]), or %NULL when none did (or
   * it has no model, or it was not asked yet).
   */
  props[PROP_LOCAL_OLLAMA_MODEL] =
    g_param_spec_string ("local-ollama-model", NULL, NULL, NULL,
                         G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);

  /**
   * AkcAppSession:probing-local-ollama:
   *
   * Whether the session is still asking whether an Ollama answers on this
   * computer.
   */
  props[PROP_PROBING_LOCAL_OLLAMA] =
    g_param_spec_boolean ("probing-local-ollama", NULL, NULL, FALSE,
                          G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, props);

  /**
   * AkcAppSession::history-error:
   * @self: the session
   * @error: what went wrong
   *
   * The history failed to read or write a conversation.
   */
  signals[HISTORY_ERROR] =
    g_signal_new ("history-error", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL, G_TYPE_NONE, 1, G_TYPE_ERROR | G_SIGNAL_TYPE_STATIC_SCOPE);

  /**
   * AkcAppSession::conversation-removed:
   * @self: the session
   * @item: the conversation
   *
   * A conversation was removed from the list (it may come back with
   * [method@AppSession.restore]): a window showing it shows another.
   */
  signals[CONVERSATION_REMOVED] =
    g_signal_new ("conversation-removed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL, G_TYPE_NONE, 1, AKC_TYPE_CONVERSATION_ITEM);

  /**
   * AkcAppSession::conversation-restored:
   * @self: the session
   * @item: the conversation
   *
   * A removed conversation is back ([method@AppSession.restore]), though
   * its page of the list may not be read yet (a search found it).
   */
  signals[CONVERSATION_RESTORED] =
    g_signal_new ("conversation-restored", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL, G_TYPE_NONE, 1, AKC_TYPE_CONVERSATION_ITEM);
}

static void
akc_app_session_init (AkcAppSession *self)
{
  self->ready = TRUE;
  self->conversations = akc_conversation_model_new (item_for_info, self);
  self->assistants = g_list_store_new (AKC_TYPE_ASSISTANT);
  self->removals = g_hash_table_new_full (g_direct_hash, g_direct_equal, NULL,
                                          (GDestroyNotify) g_ptr_array_unref);
  self->cancellable = g_cancellable_new ();
}

/* What the Developer Tools show of a conversation of a backend: its
 * turns and its wire events, redacted with the fields the preferences
 * name (the wire view always hides tokens, input, session ids and API
 * keys too). */
static AkcTraceCapture *
new_trace_capture (AkcAppSession *self)
{
  g_auto(GStrv) fields = g_settings_get_strv (self->settings, "replay-redact-fields");

  return akc_trace_capture_new ((const char * const *) fields);
}

static void
on_turn_client_changed (AkcAppSession *self)
{
  AkcChatSource *client = akc_backend_get_turn_client (self->turn_backend);

  if (self->turn == NULL)
    return;

  /* Listed with the others while there is a turn server to talk to. */
  if (client == NULL)
    {
      if (find_item (self, self->turn, NULL))
        akc_conversation_model_hide (self->conversations, self->turn);
      return;
    }
  if (!find_item (self, self->turn, NULL) && !is_removed (self, "turn"))
    {
      akc_conversation_model_unhide (self->conversations, self->turn);
      akc_conversation_model_add (self->conversations, self->turn);
    }

  /* A new endpoint or session is a new conversation on the turn server. */
  if (client != akc_conversation_item_get_source (self->turn))
    {
      g_autoptr(AkcInteractionController) interaction = akc_interaction_controller_new (client);
      g_autoptr(AkcComponentManifest) standard = akc_component_manifest_new_standard ();
      g_autoptr(AkcTraceCapture) capture = new_trace_capture (self);

      akc_interaction_controller_set_manifest (interaction, standard);
      /* A new session on the server: titled from its first message. */
      if (akc_conversation_item_get_source (self->turn) != NULL)
        {
          g_autoptr(GDateTime) now = g_date_time_new_now_utc ();

          akc_conversation_item_set_title (self->turn, NULL);
          akc_conversation_item_set_updated_at (self->turn, now);
          akc_conversation_model_resort (self->conversations);
        }
      akc_trace_capture_watch_turn_client (capture, AKC_TURN_CLIENT (client));
      akc_conversation_item_set_trace_capture (self->turn, capture);
      akc_conversation_item_open (self->turn, client, NULL, interaction, NULL);
      g_signal_connect_object (akc_chat_source_get_messages (client), "items-changed",
                               G_CALLBACK (on_item_messages_changed), self->turn, G_CONNECT_SWAPPED);
    }
}

/**
 * akc_app_session_new:
 * @settings: the application's settings
 *
 * Creates the assistants (with the backends @settings set up, and the
 * local knowledge it remembers) and an empty list of conversations.
 *
 * Returns: (transfer full): a new #AkcAppSession
 */
AkcAppSession *
akc_app_session_new (GSettings *settings)
{
  g_autoptr(AkcAdapter) echo = NULL;
  g_autoptr(GFile) site_config = NULL;
  g_autoptr(GFile) artifact = NULL;
  g_autofree char *site_path = NULL;
  g_autofree char *artifact_path = NULL;
  const char * const *demos = akc_demo_get_ids ();
  AkcAppSession *self;
  struct {
    const char *id;
    AkcAssistantKind kind;
    const char *title;
    const char *icon;
  } backends[] = {
    { "ask", AKC_ASSISTANT_KIND_ASK, N_("Ask Service"), "system-search-symbolic" },
    { "turn", AKC_ASSISTANT_KIND_TURN, N_("Turn Server"), "network-server-symbolic" },
    { "provider", AKC_ASSISTANT_KIND_PROVIDER, N_("Model Provider"), "applications-science-symbolic" },
  };

  g_return_val_if_fail (G_IS_SETTINGS (settings), NULL);

  self = g_object_new (AKC_TYPE_APP_SESSION, NULL);
  self->settings = g_object_ref (settings);

  /* The demos' stand-in model: no network, no model. Local knowledge,
   * when the person chose some, answers exact questions in front of it,
   * and in front of the Ask service. */
  echo = akc_echo_adapter_new ();
  self->knowledge = akc_knowledge_layer_new (echo);
  self->credentials = akc_credential_store_new ();
  self->ask_backend = akc_backend_new (AKC_BACKEND_KIND_ASK, settings, self->credentials);
  self->turn_backend = akc_backend_new (AKC_BACKEND_KIND_TURN, settings, self->credentials);
  self->provider_backend = akc_backend_new (AKC_BACKEND_KIND_PROVIDER, settings, self->credentials);
  self->ask_knowledge = akc_knowledge_layer_new (AKC_ADAPTER (self->ask_backend));
  g_signal_connect_object (self->turn_backend, "notify::turn-client",
                           G_CALLBACK (on_turn_client_changed), self, G_CONNECT_SWAPPED);

  site_path = g_settings_get_string (settings, SETTING_SITE_CONFIG);
  artifact_path = g_settings_get_string (settings, SETTING_ARTIFACT);
  if (site_path[0] != '\0' && artifact_path[0] != '\0')
    {
      site_config = g_file_new_for_commandline_arg (site_path);
      artifact = g_file_new_for_commandline_arg (artifact_path);
      akc_knowledge_layer_load (self->knowledge, site_config, artifact);
      akc_knowledge_layer_load (self->ask_knowledge, site_config, artifact);
    }

  for (guint i = 0; demos[i] != NULL; i++)
    {
      g_autoptr(AkcAssistant) assistant = akc_assistant_new (demos[i], AKC_ASSISTANT_KIND_DEMO,
                                                             akc_demo_get_title_for (demos[i]),
                                                             "io.agentskit.Chat-symbolic");

      g_list_store_append (self->assistants, assistant);
    }
  for (guint i = 0; i < G_N_ELEMENTS (backends); i++)
    {
      g_autoptr(AkcAssistant) assistant = akc_assistant_new (backends[i].id, backends[i].kind,
                                                             _(backends[i].title), backends[i].icon);

      g_list_store_append (self->assistants, assistant);
    }

  self->turn = akc_conversation_item_new ("turn", akc_app_session_lookup_assistant (self, "turn"),
                                          NULL, NULL, NULL);
  g_object_set_data (G_OBJECT (self->turn), "akc-app-session", self);
  on_turn_client_changed (self);

  return self;
}

/**
 * akc_app_session_get_settings:
 * @self: a #AkcAppSession
 *
 * Returns: (transfer none): the application's settings
 */
GSettings *
akc_app_session_get_settings (AkcAppSession *self)
{
  g_return_val_if_fail (AKC_IS_APP_SESSION (self), NULL);

  return self->settings;
}

/**
 * akc_app_session_get_backend:
 * @self: a #AkcAppSession
 * @kind: which backend
 *
 * Returns: (transfer none): the backend the preferences set up
 */
AkcBackend *
akc_app_session_get_backend (AkcAppSession  *self,
                             AkcBackendKind  kind)
{
  g_return_val_if_fail (AKC_IS_APP_SESSION (self), NULL);

  if (kind == AKC_BACKEND_KIND_PROVIDER)
    return self->provider_backend;
  return kind == AKC_BACKEND_KIND_ASK ? self->ask_backend : self->turn_backend;
}

/**
 * akc_app_session_get_knowledge:
 * @self: a #AkcAppSession
 * @kind: the kind of assistant
 *
 * Returns: (transfer none) (nullable): the local knowledge in front of an
 *   assistant of @kind: one for the demos, one for the Ask service, none
 *   for the others
 */
AkcKnowledgeLayer *
akc_app_session_get_knowledge (AkcAppSession    *self,
                               AkcAssistantKind  kind)
{
  g_return_val_if_fail (AKC_IS_APP_SESSION (self), NULL);

  switch (kind)
    {
    case AKC_ASSISTANT_KIND_DEMO:
      return self->knowledge;
    case AKC_ASSISTANT_KIND_ASK:
      return self->ask_knowledge;
    case AKC_ASSISTANT_KIND_TURN:
    case AKC_ASSISTANT_KIND_PROVIDER:
    default:
      return NULL;
    }
}

static char *
file_setting (GFile *file)
{
  char *path = g_file_get_path (file);

  return path != NULL ? path : g_file_get_uri (file);
}

/**
 * akc_app_session_use_knowledge:
 * @self: a #AkcAppSession
 * @site_config: (nullable): the site configuration file, or %NULL to stop
 *   using local knowledge
 * @artifact: (nullable): the knowledge artifact file the configuration pins
 *
 * Answers exact questions of the demos and of the Ask service from the
 * local knowledge in @artifact, verified against @site_config; the two
 * paths are remembered for the next start.
 */
void
akc_app_session_use_knowledge (AkcAppSession *self,
                               GFile         *site_config,
                               GFile         *artifact)
{
  g_autofree char *site_path = NULL;
  g_autofree char *artifact_path = NULL;

  g_return_if_fail (AKC_IS_APP_SESSION (self));
  g_return_if_fail (site_config == NULL || G_IS_FILE (site_config));
  g_return_if_fail ((site_config == NULL) == (artifact == NULL));

  if (site_config != NULL)
    {
      site_path = file_setting (site_config);
      artifact_path = file_setting (artifact);
    }

  g_settings_delay (self->settings);
  g_settings_set_string (self->settings, SETTING_SITE_CONFIG, site_path != NULL ? site_path : "");
  g_settings_set_string (self->settings, SETTING_ARTIFACT, artifact_path != NULL ? artifact_path : "");
  g_settings_apply (self->settings);

  if (site_config != NULL)
    {
      akc_knowledge_layer_load (self->knowledge, site_config, artifact);
      akc_knowledge_layer_load (self->ask_knowledge, site_config, artifact);
    }
  else
    {
      akc_knowledge_layer_clear (self->knowledge);
      akc_knowledge_layer_clear (self->ask_knowledge);
    }
}

/**
 * akc_app_session_get_assistants:
 * @self: a #AkcAppSession
 *
 * Returns: (transfer none): the assistants, a list of #AkcAssistant in the
 *   order New Chat offers them
 */
GListModel *
akc_app_session_get_assistants (AkcAppSession *self)
{
  g_return_val_if_fail (AKC_IS_APP_SESSION (self), NULL);

  return G_LIST_MODEL (self->assistants);
}

/**
 * akc_app_session_lookup_assistant:
 * @self: a #AkcAppSession
 * @id: an assistant's id
 *
 * Returns: (transfer none) (nullable): the assistant, or %NULL
 */
AkcAssistant *
akc_app_session_lookup_assistant (AkcAppSession *self,
                                  const char    *id)
{
  g_return_val_if_fail (AKC_IS_APP_SESSION (self), NULL);

  for (guint i = 0; id != NULL && i < g_list_model_get_n_items (G_LIST_MODEL (self->assistants)); i++)
    {
      AkcAssistant *assistant = assistant_at (self, i);

      if (g_str_equal (akc_assistant_get_id (assistant), id))
        return assistant;
    }

  return NULL;
}

/**
 * akc_app_session_get_conversations:
 * @self: a #AkcAppSession
 *
 * Returns: (transfer none): the conversations, a list of
 *   #AkcConversationItem, pinned first, then the newest first
 */
GListModel *
akc_app_session_get_conversations (AkcAppSession *self)
{
  g_return_val_if_fail (AKC_IS_APP_SESSION (self), NULL);

  return G_LIST_MODEL (self->conversations);
}

/**
 * akc_app_session_lookup_conversation:
 * @self: a #AkcAppSession
 * @id: a conversation's id
 *
 * Returns: (transfer none) (nullable): the listed conversation, or %NULL
 */
AkcConversationItem *
akc_app_session_lookup_conversation (AkcAppSession *self,
                                     const char    *id)
{
  g_return_val_if_fail (AKC_IS_APP_SESSION (self), NULL);

  if (g_strcmp0 (id, "turn") == 0)
    return self->turn;

  return akc_conversation_model_lookup (self->conversations, id);
}

/**
 * akc_app_session_expect_memory:
 * @self: a #AkcAppSession
 *
 * The history is being opened: [property@AppSession:ready] is %FALSE until
 * it is, and its conversations are listed.
 */
void
akc_app_session_expect_memory (AkcAppSession *self)
{
  g_return_if_fail (AKC_IS_APP_SESSION (self));

  if (self->memory != NULL || !self->ready)
    return;

  self->ready = FALSE;
  g_object_notify_by_pspec (G_OBJECT (self), props[PROP_READY]);
}

/**
 * akc_app_session_set_memory:
 * @self: a #AkcAppSession
 * @memory: the open history
 *
 * Keeps the conversations in @memory and lists the ones it holds. A
 * conversation opened before is read from it (what was typed meanwhile
 * comes after). It is set once.
 */
void
akc_app_session_set_memory (AkcAppSession *self,
                            AkcChatMemory *memory)
{
  guint n;

  g_return_if_fail (AKC_IS_APP_SESSION (self));
  g_return_if_fail (AKC_IS_CHAT_MEMORY (memory));

  if (self->memory != NULL)
    return;

  self->memory = g_object_ref (memory);
  n = g_list_model_get_n_items (G_LIST_MODEL (self->conversations));
  for (guint i = 0; i < n; i++)
    attach_history (self, akc_conversation_model_peek_item (self->conversations, i));

  /* Read in pages on the history's worker, the first one now. */
  self->stored = akc_conversation_list_new (memory);
  g_signal_connect_object (self->stored, "items-changed", G_CALLBACK (on_stored_changed), self,
                           G_CONNECT_SWAPPED | G_CONNECT_AFTER);
  g_signal_connect_object (self->stored, "notify::complete", G_CALLBACK (on_stored_changed), self,
                           G_CONNECT_SWAPPED | G_CONNECT_AFTER);
  g_signal_connect_object (self->stored, "notify::error", G_CALLBACK (on_stored_changed), self,
                           G_CONNECT_SWAPPED | G_CONNECT_AFTER);
  akc_conversation_model_set_list (self->conversations, self->stored);
}

/**
 * akc_app_session_set_memory_error:
 * @self: a #AkcAppSession
 * @error: why the history could not be opened
 *
 * The application runs without saving.
 */
void
akc_app_session_set_memory_error (AkcAppSession *self,
                                  const GError  *error)
{
  g_return_if_fail (AKC_IS_APP_SESSION (self));
  g_return_if_fail (error != NULL);

  g_clear_error (&self->memory_error);
  self->memory_error = g_error_copy (error);
  g_signal_emit (self, signals[HISTORY_ERROR], 0, error);
  set_ready (self);
}

/**
 * akc_app_session_get_memory:
 * @self: a #AkcAppSession
 *
 * Returns: (transfer none) (nullable): the history, once open
 */
AkcChatMemory *
akc_app_session_get_memory (AkcAppSession *self)
{
  g_return_val_if_fail (AKC_IS_APP_SESSION (self), NULL);

  return self->memory;
}

/**
 * akc_app_session_get_memory_error:
 * @self: a #AkcAppSession
 *
 * Returns: (nullable): why the history could not be opened, or %NULL
 */
const GError *
akc_app_session_get_memory_error (AkcAppSession *self)
{
  g_return_val_if_fail (AKC_IS_APP_SESSION (self), NULL);

  return self->memory_error;
}

/**
 * akc_app_session_get_ready:
 * @self: a #AkcAppSession
 *
 * Returns: whether the conversations of the history are listed
 */
gboolean
akc_app_session_get_ready (AkcAppSession *self)
{
  g_return_val_if_fail (AKC_IS_APP_SESSION (self), FALSE);

  return self->ready;
}

/**
 * akc_app_session_get_first_run:
 * @self: a #AkcAppSession
 *
 * Returns: whether the history held no conversation when it was listed:
 *   the application runs for the first time
 */
gboolean
akc_app_session_get_first_run (AkcAppSession *self)
{
  g_return_val_if_fail (AKC_IS_APP_SESSION (self), FALSE);

  return self->first_run;
}

/* ------------------------------------------------------------------ */
/* A local Ollama, the first time                                      */

static void
on_local_ollama_models (GObject      *source,
                        GAsyncResult *result,
                        gpointer      user_data)
{
  g_autoptr(AkcAppSession) self = user_data;
  g_autoptr(GError) error = NULL;
  g_auto(GStrv) models = akc_provider_adapter_list_models_finish (AKC_PROVIDER_ADAPTER (source), result, &error);

  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    return;
  g_clear_object (&self->ollama_probe);
  /* Nothing answers, or it has no model to talk to: no offer. */
  if (models != NULL && models[0] != NULL)
    {
      g_free (self->ollama_model);
      self->ollama_model = g_strdup (models[0]);
      g_object_notify_by_pspec (G_OBJECT (self), props[PROP_LOCAL_OLLAMA_MODEL]);
    }
  g_object_notify_by_pspec (G_OBJECT (self), props[PROP_PROBING_LOCAL_OLLAMA]);
}

/* Something listens where a local Ollama would: ask it for its models.
 * Nothing does (the usual answer, at once on this computer): no offer,
 * and no HTTP client is made for it. */
static void
on_local_ollama_connected (GObject      *source,
                           GAsyncResult *result,
                           gpointer      user_data)
{
  g_autoptr(AkcAppSession) self = user_data;
  g_autoptr(GSocketConnection) connection = NULL;
  g_autoptr(AkcProviderAdapter) adapter = NULL;
  g_autoptr(GError) error = NULL;

  connection = g_socket_client_connect_to_uri_finish (G_SOCKET_CLIENT (source), result, &error);
  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    return;
  if (connection != NULL)
    {
      g_io_stream_close (G_IO_STREAM (connection), NULL, NULL);
      adapter = akc_provider_adapter_new (AKC_PROVIDER_KIND_OLLAMA, akc_provider_page_get_local_ollama_url (),
                                          NULL, NULL);
    }
  if (adapter == NULL)
    {
      g_clear_object (&self->ollama_probe);
      g_object_notify_by_pspec (G_OBJECT (self), props[PROP_PROBING_LOCAL_OLLAMA]);
      return;
    }
  akc_provider_adapter_set_connect_timeout (adapter, LOCAL_OLLAMA_TIMEOUT_MS);
  akc_provider_adapter_list_models_async (adapter, self->ollama_probe, on_local_ollama_models, g_object_ref (self));
}

/**
 * akc_app_session_probe_local_ollama:
 * @self: a #AkcAppSession
 *
 * With no model provider set up, asks (without waiting for the answer,
 * with a short connection deadline) whether an Ollama answers on this
 * computer, once for the whole application: every window calls it, and
 * only the first call asks. The answer is
 * [property@AppSession:local-ollama-model].
 */
void
akc_app_session_probe_local_ollama (AkcAppSession *self)
{
  g_autoptr(GSocketClient) client = NULL;

  g_return_if_fail (AKC_IS_APP_SESSION (self));

  if (self->ollama_probed || akc_backend_get_configured (self->provider_backend))
    return;
  self->ollama_probed = TRUE;

  /* First a connection alone (no proxy: it is this computer), which
   * nothing accepts unless an Ollama runs. */
  client = g_socket_client_new ();
  g_socket_client_set_enable_proxy (client, FALSE);
  g_socket_client_set_timeout (client, (LOCAL_OLLAMA_TIMEOUT_MS + 999) / 1000);
  self->ollama_probe = g_cancellable_new ();
  g_socket_client_connect_to_uri_async (client, akc_provider_page_get_local_ollama_url (), LOCAL_OLLAMA_PORT,
                                        self->ollama_probe, on_local_ollama_connected, g_object_ref (self));
  g_object_notify_by_pspec (G_OBJECT (self), props[PROP_PROBING_LOCAL_OLLAMA]);
}

/**
 * akc_app_session_get_local_ollama_model:
 * @self: a #AkcAppSession
 *
 * Returns: (nullable): [property@AppSession:local-ollama-model]
 */
const char *
akc_app_session_get_local_ollama_model (AkcAppSession *self)
{
  g_return_val_if_fail (AKC_IS_APP_SESSION (self), NULL);

  return self->ollama_model;
}

/**
 * akc_app_session_get_probing_local_ollama:
 * @self: a #AkcAppSession
 *
 * Returns: [property@AppSession:probing-local-ollama]
 */
gboolean
akc_app_session_get_probing_local_ollama (AkcAppSession *self)
{
  g_return_val_if_fail (AKC_IS_APP_SESSION (self), FALSE);

  return self->ollama_probe != NULL;
}

/**
 * akc_app_session_check_assistant:
 * @self: a #AkcAppSession
 * @assistant_id: an assistant's id
 * @error: return location for a #GError
 *
 * Checks that a conversation with the assistant can be opened: it exists,
 * and its backend is set up in the preferences.
 *
 * Returns: %TRUE when it can, or %FALSE with @error set
 */
gboolean
akc_app_session_check_assistant (AkcAppSession  *self,
                                 const char     *assistant_id,
                                 GError        **error)
{
  AkcAssistant *assistant;

  g_return_val_if_fail (AKC_IS_APP_SESSION (self), FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  assistant = akc_app_session_lookup_assistant (self, assistant_id);
  if (assistant == NULL)
    {
      g_set_error (error, AKC_APP_SESSION_ERROR, AKC_APP_SESSION_ERROR_UNKNOWN_ASSISTANT,
                   /* Translators: %s is the id of a demo that does not exist. */
                   _("There is no demo named “%s”."), assistant_id != NULL ? assistant_id : "");
      return FALSE;
    }

  switch (akc_assistant_get_kind (assistant))
    {
    case AKC_ASSISTANT_KIND_ASK:
      if (!akc_backend_get_configured (self->ask_backend))
        {
          g_set_error_literal (error, AKC_APP_SESSION_ERROR, AKC_APP_SESSION_ERROR_NOT_SET_UP,
                               _("The Ask service is not set up yet. Enter its URL in Preferences."));
          return FALSE;
        }
      break;
    case AKC_ASSISTANT_KIND_TURN:
      if (akc_backend_get_turn_client (self->turn_backend) == NULL)
        {
          g_set_error_literal (error, AKC_APP_SESSION_ERROR, AKC_APP_SESSION_ERROR_NOT_SET_UP,
                               _("The turn server is not set up yet. Enter its URL in Preferences."));
          return FALSE;
        }
      break;
    case AKC_ASSISTANT_KIND_PROVIDER:
      if (!akc_backend_get_configured (self->provider_backend) ||
          akc_backend_get_model (self->provider_backend) == NULL)
        {
          g_set_error_literal (error, AKC_APP_SESSION_ERROR, AKC_APP_SESSION_ERROR_NOT_SET_UP,
                               _("The model provider is not set up yet. Enter its base URL and model in Preferences."));
          return FALSE;
        }
      break;
    case AKC_ASSISTANT_KIND_DEMO:
    default:
      break;
    }

  return TRUE;
}

/**
 * akc_app_session_get_default_conversation:
 * @self: a #AkcAppSession
 * @assistant_id: an assistant's id
 * @error: return location for a #GError
 *
 * Gets the conversation to show for an assistant: its newest, or its first
 * one when it has none yet (for the turn server, the server's).
 *
 * Returns: (transfer none) (nullable): the conversation, or %NULL with
 *   @error set when the assistant cannot be talked to
 */
AkcConversationItem *
akc_app_session_get_default_conversation (AkcAppSession  *self,
                                          const char     *assistant_id,
                                          GError        **error)
{
  AkcAssistant *assistant;
  GListModel *list;
  AkcConversationItem *newest = NULL;
  g_autofree char *id = NULL;

  g_return_val_if_fail (AKC_IS_APP_SESSION (self), NULL);

  if (!akc_app_session_check_assistant (self, assistant_id, error))
    return NULL;

  assistant = akc_app_session_lookup_assistant (self, assistant_id);
  if (akc_assistant_get_kind (assistant) == AKC_ASSISTANT_KIND_TURN)
    return self->turn;

  list = G_LIST_MODEL (self->conversations);
  for (guint i = 0; i < g_list_model_get_n_items (list); i++)
    {
      g_autoptr(AkcConversationItem) item = g_list_model_get_item (list, i);

      if (akc_conversation_item_get_assistant (item) != assistant)
        continue;
      if (newest == NULL || g_date_time_compare (akc_conversation_item_get_updated_at (item),
                                                 akc_conversation_item_get_updated_at (newest)) > 0)
        newest = item;
    }
  if (newest != NULL)
    return newest;

  /* Its first conversation is the one the previous releases kept, unless
   * that one was just deleted (its undo is still offered). */
  id = legacy_id (assistant);
  if (is_removed (self, id))
    {
      g_autofree char *uuid = g_uuid_string_random ();

      g_free (id);
      id = g_strconcat (akc_assistant_get_id (assistant), ":", uuid, NULL);
    }
  return add_item (self, id, assistant, NULL, NULL, NULL);
}

/* How many of an assistant's newest conversations the history is asked
 * for: the newest that is not deleted (its undo offered) among them. */
#define DEFAULT_LOOKUP_LIMIT 16

/**
 * akc_app_session_get_complete:
 * @self: a #AkcAppSession
 *
 * Returns: whether every conversation of the history is listed (or there is
 *   no history to list more from): then
 *   [method@AppSession.get_default_conversation] knows them all
 */
gboolean
akc_app_session_get_complete (AkcAppSession *self)
{
  g_return_val_if_fail (AKC_IS_APP_SESSION (self), TRUE);

  return !AKC_IS_SQLITE_CHAT_MEMORY (self->memory) || akc_conversation_model_get_complete (self->conversations);
}

static void
on_assistant_listed (GObject      *source,
                     GAsyncResult *result,
                     gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  AkcAppSession *self = g_task_get_source_object (task);
  const char *assistant_id = g_task_get_task_data (task);
  g_autoptr(GListModel) infos = NULL;
  g_autoptr(GError) error = NULL;
  AkcConversationItem *item = NULL;

  infos = akc_sqlite_chat_memory_list_assistant_finish (AKC_SQLITE_CHAT_MEMORY (source), result, &error);
  if (g_task_return_error_if_cancelled (task))
    return;
  /* A history that cannot be read now: what is listed is all there is. */
  if (infos == NULL)
    g_debug ("The conversations of %s could not be read: %s", assistant_id, error->message);
  g_clear_error (&error);

  for (guint i = 0; infos != NULL && i < g_list_model_get_n_items (infos) && item == NULL; i++)
    {
      g_autoptr(AkcConversationInfo) info = g_list_model_get_item (infos, i);
      const char *id = akc_conversation_info_get_id (info);

      if (is_removed (self, id) || self->conversations == NULL)
        continue;
      item = akc_app_session_lookup_conversation (self, id);
      /* On a page not read yet: listed now. */
      if (item == NULL)
        item = akc_conversation_model_take_info (self->conversations, info);
    }

  if (item == NULL)
    item = akc_app_session_get_default_conversation (self, assistant_id, &error);
  if (item == NULL)
    g_task_return_error (task, g_steal_pointer (&error));
  else
    g_task_return_pointer (task, g_object_ref (item), g_object_unref);
}

/**
 * akc_app_session_find_default_conversation_async:
 * @self: a #AkcAppSession
 * @assistant_id: an assistant's id
 * @cancellable: (nullable): a #GCancellable
 * @callback: (scope async): called with the conversation
 * @user_data: data for @callback
 *
 * Finds the conversation to show for an assistant as
 * [method@AppSession.get_default_conversation] does, among every
 * conversation of the history, also those on pages of the list not read
 * yet: its newest is looked up in the history's index (on its worker
 * thread) and listed.
 */
void
akc_app_session_find_default_conversation_async (AkcAppSession       *self,
                                                 const char          *assistant_id,
                                                 GCancellable        *cancellable,
                                                 GAsyncReadyCallback  callback,
                                                 gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;
  g_autoptr(GError) error = NULL;
  AkcAssistant *assistant;

  g_return_if_fail (AKC_IS_APP_SESSION (self));
  g_return_if_fail (assistant_id != NULL);

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, akc_app_session_find_default_conversation_async);
  g_task_set_task_data (task, g_strdup (assistant_id), g_free);

  if (!akc_app_session_check_assistant (self, assistant_id, &error))
    {
      g_task_return_error (task, g_steal_pointer (&error));
      return;
    }
  assistant = akc_app_session_lookup_assistant (self, assistant_id);
  if (akc_assistant_get_kind (assistant) == AKC_ASSISTANT_KIND_TURN || akc_app_session_get_complete (self))
    {
      AkcConversationItem *item = akc_app_session_get_default_conversation (self, assistant_id, &error);

      if (item == NULL)
        g_task_return_error (task, g_steal_pointer (&error));
      else
        g_task_return_pointer (task, g_object_ref (item), g_object_unref);
      return;
    }

  akc_sqlite_chat_memory_list_assistant_async (AKC_SQLITE_CHAT_MEMORY (self->memory), assistant_id,
                                               DEFAULT_LOOKUP_LIMIT, cancellable, on_assistant_listed,
                                               g_steal_pointer (&task));
}

/**
 * akc_app_session_find_default_conversation_finish:
 * @self: a #AkcAppSession
 * @result: the result
 * @error: return location for a #GError
 *
 * Returns: (transfer full): the conversation, or %NULL with @error set
 *   when the assistant cannot be talked to
 */
AkcConversationItem *
akc_app_session_find_default_conversation_finish (AkcAppSession  *self,
                                                  GAsyncResult   *result,
                                                  GError        **error)
{
  g_return_val_if_fail (g_task_is_valid (result, self), NULL);

  return g_task_propagate_pointer (G_TASK (result), error);
}

/**
 * akc_app_session_new_conversation:
 * @self: a #AkcAppSession
 * @assistant_id: an assistant's id
 * @error: return location for a #GError
 *
 * Starts a new conversation with an assistant; nothing is erased. A
 * conversation of it that is still empty is reused rather than a second
 * one made. The turn server's new conversation is a new session on the
 * server (which keeps the previous one).
 *
 * Returns: (transfer none) (nullable): the conversation, or %NULL with
 *   @error set when the assistant cannot be talked to
 */
AkcConversationItem *
akc_app_session_new_conversation (AkcAppSession  *self,
                                  const char     *assistant_id,
                                  GError        **error)
{
  AkcAssistant *assistant;
  GListModel *list;
  g_autofree char *uuid = NULL;
  g_autofree char *id = NULL;

  g_return_val_if_fail (AKC_IS_APP_SESSION (self), NULL);

  if (!akc_app_session_check_assistant (self, assistant_id, error))
    return NULL;

  assistant = akc_app_session_lookup_assistant (self, assistant_id);
  if (akc_assistant_get_kind (assistant) == AKC_ASSISTANT_KIND_TURN)
    {
      akc_backend_new_turn_session (self->turn_backend);
      return self->turn;
    }

  list = G_LIST_MODEL (self->conversations);
  for (guint i = 0; i < g_list_model_get_n_items (list); i++)
    {
      g_autoptr(AkcConversationItem) item = g_list_model_get_item (list, i);

      if (akc_conversation_item_get_assistant (item) == assistant &&
          akc_conversation_item_get_n_messages (item) == 0 &&
          akc_conversation_item_get_title (item) == NULL)
        return item;
    }

  uuid = g_uuid_string_random ();
  id = g_strconcat (assistant_id, ":", uuid, NULL);
  return add_item (self, id, assistant, NULL, NULL, NULL);
}

static void
on_item_model_changed (AkcConversationItem *item,
                       GParamSpec          *pspec,
                       AkcProviderRoute    *route)
{
  akc_provider_route_set_model (route, akc_conversation_item_get_provider_kind (item),
                                akc_conversation_item_get_provider_url (item),
                                akc_conversation_item_get_model (item));
}

/**
 * akc_app_session_set_conversation_model:
 * @self: a #AkcAppSession
 * @item: a model provider's conversation of @self
 * @model: (nullable): the model its next turns ask for
 *
 * Holds the conversation with @model of the provider set up now, from its
 * next turn on, and records both with it in the history: opening it again
 * (after a restart too) asks the same model.
 */
void
akc_app_session_set_conversation_model (AkcAppSession       *self,
                                        AkcConversationItem *item,
                                        const char          *model)
{
  g_return_if_fail (AKC_IS_APP_SESSION (self));
  g_return_if_fail (AKC_IS_CONVERSATION_ITEM (item));

  if (akc_assistant_get_kind (akc_conversation_item_get_assistant (item)) != AKC_ASSISTANT_KIND_PROVIDER)
    return;

  if (akc_conversation_item_set_model (item, akc_backend_get_provider_kind (self->provider_backend),
                                       akc_backend_get_endpoint (self->provider_backend),
                                       model != NULL && model[0] != '\0' ? model : NULL))
    store_model (self, item);
}

/**
 * akc_app_session_open:
 * @self: a #AkcAppSession
 * @item: a conversation of @self
 * @error: return location for a #GError
 *
 * Makes the conversation's messages ready to show: its demo, or a chat
 * with its backend, read from the history. Once opened, it stays open.
 *
 * Returns: %TRUE when it is open, or %FALSE with @error set
 */
gboolean
akc_app_session_open (AkcAppSession        *self,
                      AkcConversationItem  *item,
                      GError              **error)
{
  AkcAssistant *assistant;
  g_autoptr(AkcInteractionController) interaction = NULL;
  g_autoptr(AkcComponentManifest) standard = NULL;
  g_autoptr(GObject) owner = NULL;
  g_autoptr(AkcTraceCapture) capture = NULL;
  g_autoptr(AkcAdapter) traced = NULL;
  AkcChatSource *source = NULL;

  g_return_val_if_fail (AKC_IS_APP_SESSION (self), FALSE);
  g_return_val_if_fail (AKC_IS_CONVERSATION_ITEM (item), FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  assistant = akc_conversation_item_get_assistant (item);
  if (item == self->turn)
    on_turn_client_changed (self);
  if (akc_conversation_item_get_source (item) != NULL)
    return TRUE;
  if (!akc_app_session_check_assistant (self, akc_assistant_get_id (assistant), error))
    return FALSE;

  switch (akc_assistant_get_kind (assistant))
    {
    case AKC_ASSISTANT_KIND_DEMO:
      {
        AkcDemo *demo = akc_demo_new_full (akc_assistant_get_id (assistant), NULL, NULL,
                                           AKC_ADAPTER (self->knowledge), error);

        if (demo == NULL)
          return FALSE;
        owner = G_OBJECT (demo);
        source = AKC_CHAT_SOURCE (akc_demo_get_chat (demo));
        interaction = g_object_ref (akc_demo_get_interaction (demo));
        capture = g_object_ref (akc_demo_get_trace_capture (demo));
      }
      break;
    case AKC_ASSISTANT_KIND_ASK:
      capture = new_trace_capture (self);
      /* The Ask service's routes and policy are its own, not traced here. */
      akc_trace_capture_set_decided_by (capture, "ask");
      traced = akc_trace_capture_wrap_adapter (capture, AKC_ADAPTER (self->ask_knowledge), "ask");
      owner = G_OBJECT (akc_chat_new (traced));
      source = AKC_CHAT_SOURCE (owner);
      break;
    case AKC_ASSISTANT_KIND_PROVIDER:
      {
        g_autoptr(AkcProviderRoute) route = akc_provider_route_new (self->provider_backend);

        /* A new conversation (or one from before models were recorded)
         * is held with the default model; one that has its model asks
         * that one again. */
        if (akc_conversation_item_get_model (item) == NULL)
          akc_app_session_set_conversation_model (self, item, akc_backend_get_model (self->provider_backend));
        akc_provider_route_set_model (route, akc_conversation_item_get_provider_kind (item),
                                      akc_conversation_item_get_provider_url (item),
                                      akc_conversation_item_get_model (item));
        g_signal_connect_object (item, "notify::model", G_CALLBACK (on_item_model_changed), route, 0);
        capture = new_trace_capture (self);
        traced = akc_trace_capture_wrap_adapter (capture, AKC_ADAPTER (route), "provider");
        owner = G_OBJECT (akc_chat_new (traced));
        source = AKC_CHAT_SOURCE (owner);
        /* The tools the model is offered run here (open_link once the
         * person approved it). */
        {
          GPtrArray *tools = akc_backend_get_tools (self->provider_backend);

          for (guint i = 0; tools != NULL && i < tools->len; i++)
            akc_chat_add_tool (AKC_CHAT (owner), g_ptr_array_index (tools, i));
        }
      }
      break;
    case AKC_ASSISTANT_KIND_TURN:
    default:
      g_assert_not_reached ();
    }

  if (interaction == NULL)
    {
      standard = akc_component_manifest_new_standard ();
      interaction = akc_interaction_controller_new (source);
      akc_interaction_controller_set_manifest (interaction, standard);
    }

  akc_conversation_item_set_trace_capture (item, capture);
  akc_conversation_item_open (item, source, owner, interaction, NULL);
  g_signal_connect_object (akc_chat_source_get_messages (source), "items-changed",
                           G_CALLBACK (on_item_messages_changed), item, G_CONNECT_SWAPPED);
  attach_history (self, item);

  return TRUE;
}

/**
 * akc_app_session_rename:
 * @self: a #AkcAppSession
 * @item: a conversation of @self
 * @title: its new title; white space around it is dropped, and an empty
 *   title keeps the old one
 *
 * Renames the conversation, in the history too.
 */
void
akc_app_session_rename (AkcAppSession       *self,
                        AkcConversationItem *item,
                        const char          *title)
{
  g_autofree char *clean = NULL;

  g_return_if_fail (AKC_IS_APP_SESSION (self));
  g_return_if_fail (AKC_IS_CONVERSATION_ITEM (item));

  clean = title != NULL ? akc_derive_conversation_title (title, -1) : NULL;
  if (clean == NULL || clean[0] == '\0' || item == self->turn)
    return;

  akc_conversation_item_set_title (item, clean);
  if (self->memory != NULL)
    akc_chat_memory_update_conversation_async (self->memory, akc_conversation_item_get_id (item),
                                               clean, NULL, NULL, NULL, NULL);
}

static void
on_pinned (GObject      *source,
           GAsyncResult *result,
           gpointer      user_data)
{
  g_autoptr(GError) error = NULL;

  /* Never stored yet (empty): it is pinned for this run. */
  if (!akc_chat_memory_set_conversation_pinned_finish (AKC_CHAT_MEMORY (source), result, &error) &&
      !g_error_matches (error, AKC_CHAT_MEMORY_ERROR, AKC_CHAT_MEMORY_ERROR_NOT_FOUND))
    g_message ("History: %s", error->message);
}

/**
 * akc_app_session_set_pinned:
 * @self: a #AkcAppSession
 * @item: a conversation of @self
 * @pinned: whether it is listed above the others
 *
 * Pins or unpins the conversation.
 */
void
akc_app_session_set_pinned (AkcAppSession       *self,
                            AkcConversationItem *item,
                            gboolean             pinned)
{
  g_return_if_fail (AKC_IS_APP_SESSION (self));
  g_return_if_fail (AKC_IS_CONVERSATION_ITEM (item));

  if (akc_conversation_item_get_pinned (item) == !!pinned)
    return;

  akc_conversation_item_set_pinned (item, pinned);
  resort (self, item);
  if (self->memory != NULL)
    akc_chat_memory_set_conversation_pinned_async (self->memory, akc_conversation_item_get_id (item),
                                                   pinned, NULL, on_pinned, NULL);
}

/**
 * akc_app_session_remove:
 * @self: a #AkcAppSession
 * @items: (array length=n_items): conversations of @self
 * @n_items: how many
 *
 * Takes the conversations out of the list at once; the history keeps them
 * until [method@AppSession.purge], and [method@AppSession.restore] brings
 * them back.
 *
 * Returns: the removal's id, for [method@AppSession.restore] and
 *   [method@AppSession.purge], or 0 when nothing was removed
 */
guint
akc_app_session_remove (AkcAppSession        *self,
                        AkcConversationItem **items,
                        guint                 n_items)
{
  g_autoptr(GPtrArray) removed = g_ptr_array_new_with_free_func (g_object_unref);

  g_return_val_if_fail (AKC_IS_APP_SESSION (self), 0);

  for (guint i = 0; i < n_items; i++)
    {
      /* Listed, or known from a search (its page not read yet). */
      if (akc_app_session_lookup_conversation (self, akc_conversation_item_get_id (items[i])) != items[i])
        continue;
      g_ptr_array_add (removed, g_object_ref (items[i]));
      akc_conversation_model_hide (self->conversations, items[i]);
    }

  if (removed->len == 0)
    return 0;

  g_hash_table_insert (self->removals, GUINT_TO_POINTER (++self->last_removal), g_ptr_array_ref (removed));
  for (guint i = 0; i < removed->len; i++)
    g_signal_emit (self, signals[CONVERSATION_REMOVED], 0, g_ptr_array_index (removed, i));

  return self->last_removal;
}

/**
 * akc_app_session_restore:
 * @self: a #AkcAppSession
 * @removal: what [method@AppSession.remove] returned
 *
 * Brings removed conversations back into the list, as they were.
 */
void
akc_app_session_restore (AkcAppSession *self,
                         guint          removal)
{
  g_autoptr(GPtrArray) removed = NULL;

  g_return_if_fail (AKC_IS_APP_SESSION (self));

  if (!g_hash_table_steal_extended (self->removals, GUINT_TO_POINTER (removal), NULL, (gpointer *) &removed))
    return;

  for (guint i = 0; i < removed->len; i++)
    akc_conversation_model_unhide (self->conversations, g_ptr_array_index (removed, i));
  for (guint i = 0; i < removed->len; i++)
    g_signal_emit (self, signals[CONVERSATION_RESTORED], 0, g_ptr_array_index (removed, i));
}

static void
on_deleted (GObject      *source,
            GAsyncResult *result,
            gpointer      user_data)
{
  g_autoptr(GError) error = NULL;

  /* One that was never stored is not there to delete. */
  if (!akc_chat_memory_delete_conversation_finish (AKC_CHAT_MEMORY (source), result, &error) &&
      !g_error_matches (error, AKC_CHAT_MEMORY_ERROR, AKC_CHAT_MEMORY_ERROR_NOT_FOUND))
    g_message ("History: %s", error->message);
}

/**
 * akc_app_session_purge:
 * @self: a #AkcAppSession
 * @removal: what [method@AppSession.remove] returned
 *
 * Deletes removed conversations from the history, for good.
 */
void
akc_app_session_purge (AkcAppSession *self,
                       guint          removal)
{
  g_autoptr(GPtrArray) removed = NULL;

  g_return_if_fail (AKC_IS_APP_SESSION (self));

  if (!g_hash_table_steal_extended (self->removals, GUINT_TO_POINTER (removal), NULL, (gpointer *) &removed))
    return;

  for (guint i = 0; i < removed->len; i++)
    {
      AkcConversationItem *item = g_ptr_array_index (removed, i);

      /* The server keeps the turn server's conversation: deleting it here
       * starts a new one there, listed in its place. */
      if (item == self->turn)
        {
          akc_conversation_model_unhide (self->conversations, item);
          akc_backend_new_turn_session (self->turn_backend);
          continue;
        }

      /* Its last writes go first: operations complete in order. */
      g_object_set_data (G_OBJECT (item), "akc-app-session", NULL);
      if (akc_conversation_item_get_source (item) != NULL)
        akc_chat_source_stop (akc_conversation_item_get_source (item));
      akc_conversation_model_forget (self->conversations, item);
      g_object_run_dispose (G_OBJECT (item));
      if (self->memory != NULL)
        akc_chat_memory_delete_conversation_async (self->memory, akc_conversation_item_get_id (item),
                                                   NULL, on_deleted, NULL);
    }
}

/* A search: what it found, and the conversations of it still to read. */
typedef struct
{
  GHashTable *found;
  guint       pending;
} Search;

static void
search_free (gpointer data)
{
  Search *search = data;

  g_clear_pointer (&search->found, g_hash_table_unref);
  g_free (search);
}

static void
search_done (GTask *task)
{
  Search *search = g_task_get_task_data (task);

  if (search->pending == 0)
    g_task_return_pointer (task, g_steal_pointer (&search->found), (GDestroyNotify) g_hash_table_unref);
}

static void
on_found_read (GObject      *source,
               GAsyncResult *result,
               gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  AkcAppSession *self = g_task_get_source_object (task);
  Search *search = g_task_get_task_data (task);
  g_autoptr(AkcConversationInfo) info = NULL;
  g_autoptr(GError) error = NULL;

  info = akc_chat_memory_get_conversation_finish (AKC_CHAT_MEMORY (source), result, &error);
  /* Deleted meanwhile, or another program's: not found after all. */
  if (info != NULL && self->conversations != NULL &&
      akc_conversation_model_take_info (self->conversations, info) == NULL)
    g_hash_table_remove (search->found, akc_conversation_info_get_id (info));
  search->pending--;
  search_done (task);
}

static void
on_searched (GObject      *source,
             GAsyncResult *result,
             gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  AkcAppSession *self = g_task_get_source_object (task);
  g_autoptr(GListModel) results = NULL;
  g_autoptr(GError) error = NULL;
  Search *search;

  results = akc_sqlite_chat_memory_search_finish (AKC_SQLITE_CHAT_MEMORY (source), result, &error);
  if (results == NULL)
    {
      g_task_return_error (task, g_steal_pointer (&error));
      return;
    }

  search = g_new0 (Search, 1);
  search->found = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  g_task_set_task_data (task, search, search_free);
  for (guint i = 0; i < g_list_model_get_n_items (results); i++)
    {
      g_autoptr(AkcSearchResult) match = g_list_model_get_item (results, i);
      const char *id = akc_search_result_get_conversation_id (match);

      /* The best match of each conversation: the first. */
      if (g_hash_table_contains (search->found, id))
        continue;
      g_hash_table_insert (search->found, g_strdup (id), g_strdup (akc_search_result_get_snippet (match)));
      /* One on a page not read yet is read now (its title, assistant and
       * time), so it can be shown among the results. */
      if (akc_app_session_lookup_conversation (self, id) == NULL && !is_removed (self, id) && self->memory != NULL)
        {
          search->pending++;
          akc_chat_memory_get_conversation_async (self->memory, id, g_task_get_cancellable (task),
                                                  on_found_read, g_object_ref (task));
        }
    }
  search_done (task);
}

/**
 * akc_app_session_search_async:
 * @self: a #AkcAppSession
 * @text: what the person typed
 * @cancellable: (nullable): a #GCancellable
 * @callback: (scope async): called with the conversations found
 * @user_data: data for @callback
 *
 * Searches the titles and the messages of the conversations in the history
 * (its full-text index, off the main thread). Each conversation found has
 * an item ([method@AppSession.lookup_conversation]) when the search
 * completes, though its page of the list may not be read yet.
 */
void
akc_app_session_search_async (AkcAppSession       *self,
                              const char          *text,
                              GCancellable        *cancellable,
                              GAsyncReadyCallback  callback,
                              gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;

  g_return_if_fail (AKC_IS_APP_SESSION (self));
  g_return_if_fail (text != NULL);

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, akc_app_session_search_async);
  if (!AKC_IS_SQLITE_CHAT_MEMORY (self->memory))
    {
      /* No history to search: the titles are all there is. */
      g_task_return_pointer (task, g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free),
                             (GDestroyNotify) g_hash_table_unref);
      return;
    }
  akc_sqlite_chat_memory_search_async (AKC_SQLITE_CHAT_MEMORY (self->memory), text, SEARCH_LIMIT,
                                       cancellable, on_searched, g_steal_pointer (&task));
}

/**
 * akc_app_session_search_finish:
 * @self: a #AkcAppSession
 * @result: the result
 * @error: return location for a #GError
 *
 * Returns: (transfer full) (element-type utf8 utf8): the ids of the
 *   conversations found, each with a snippet of its best match (%NULL
 *   when its title matched), or %NULL with @error set
 */
GHashTable *
akc_app_session_search_finish (AkcAppSession  *self,
                               GAsyncResult   *result,
                               GError        **error)
{
  g_return_val_if_fail (g_task_is_valid (result, self), NULL);

  return g_task_propagate_pointer (G_TASK (result), error);
}

static void
on_exported (GObject      *source,
             GAsyncResult *result,
             gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  g_autoptr(GError) error = NULL;
  GBytes *bytes = akc_sqlite_chat_memory_export_finish (AKC_SQLITE_CHAT_MEMORY (source), result, &error);

  if (bytes == NULL)
    g_task_return_error (task, g_steal_pointer (&error));
  else
    g_task_return_pointer (task, bytes, (GDestroyNotify) g_bytes_unref);
}

static void
on_flushed_for_export (GObject      *source,
                       GAsyncResult *result,
                       gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  AkcAppSession *self = g_task_get_source_object (task);
  AkcConversationItem *item = g_task_get_task_data (task);
  gboolean markdown = GPOINTER_TO_INT (g_object_get_data (G_OBJECT (task), "akc-markdown"));
  g_autoptr(GError) error = NULL;

  if (source != NULL && !akc_chat_history_flush_finish (AKC_CHAT_HISTORY (source), result, &error))
    {
      g_task_return_error (task, g_steal_pointer (&error));
      return;
    }
  akc_sqlite_chat_memory_export_async (AKC_SQLITE_CHAT_MEMORY (self->memory), akc_conversation_item_get_id (item),
                                       markdown ? AKC_CONVERSATION_FORMAT_MARKDOWN : AKC_CONVERSATION_FORMAT_JSON,
                                       g_task_get_cancellable (task), on_exported, g_object_ref (task));
}

static gboolean
check_history (AkcAppSession  *self,
               GError        **error)
{
  if (AKC_IS_SQLITE_CHAT_MEMORY (self->memory))
    return TRUE;

  g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_NOT_SUPPORTED,
                       _("There is no history to export from or import into."));
  return FALSE;
}

/**
 * akc_app_session_export_async:
 * @self: a #AkcAppSession
 * @item: a conversation of @self
 * @markdown: %TRUE for Markdown, %FALSE for the JSON format
 *   (`docs/conversation-format.md`)
 * @cancellable: (nullable): a #GCancellable
 * @callback: (scope async): called with the text
 * @user_data: data for @callback
 *
 * Exports the conversation as the history has it (its last changes are
 * written first).
 */
void
akc_app_session_export_async (AkcAppSession       *self,
                              AkcConversationItem *item,
                              gboolean             markdown,
                              GCancellable        *cancellable,
                              GAsyncReadyCallback  callback,
                              gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;
  g_autoptr(GError) error = NULL;

  g_return_if_fail (AKC_IS_APP_SESSION (self));
  g_return_if_fail (AKC_IS_CONVERSATION_ITEM (item));

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, akc_app_session_export_async);
  if (!check_history (self, &error))
    {
      g_task_return_error (task, g_steal_pointer (&error));
      return;
    }
  g_task_set_task_data (task, g_object_ref (item), g_object_unref);
  g_object_set_data (G_OBJECT (task), "akc-markdown", GINT_TO_POINTER (markdown));
  if (akc_conversation_item_get_history (item) != NULL)
    {
      /* Its last changes first (a reply still streaming is written as
       * far as it got). */
      akc_chat_history_flush_async (akc_conversation_item_get_history (item), cancellable,
                                    on_flushed_for_export, g_steal_pointer (&task));
      return;
    }
  on_flushed_for_export (NULL, NULL, g_steal_pointer (&task));
}

/**
 * akc_app_session_export_finish:
 * @self: a #AkcAppSession
 * @result: the result
 * @error: return location for a #GError
 *
 * Returns: (transfer full): the UTF-8 text of the export, or %NULL with
 *   @error set
 */
GBytes *
akc_app_session_export_finish (AkcAppSession  *self,
                               GAsyncResult   *result,
                               GError        **error)
{
  g_return_val_if_fail (g_task_is_valid (result, self), NULL);

  return g_task_propagate_pointer (G_TASK (result), error);
}

static void
on_imported (GObject      *source,
             GAsyncResult *result,
             gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  AkcAppSession *self = g_task_get_source_object (task);
  g_autoptr(AkcConversationInfo) info = NULL;
  g_autoptr(GError) error = NULL;
  const char *assistant_id;
  AkcAssistant *assistant;
  AkcConversationItem *item;

  info = akc_sqlite_chat_memory_import_finish (AKC_SQLITE_CHAT_MEMORY (source), result, &error);
  if (info == NULL)
    {
      g_task_return_error (task, g_steal_pointer (&error));
      return;
    }

  assistant_id = akc_conversation_info_get_assistant_id (info);
  assistant = akc_app_session_lookup_assistant (self, assistant_id);
  if (assistant == NULL || akc_assistant_get_kind (assistant) == AKC_ASSISTANT_KIND_TURN)
    {
      /* Kept in the history, but nothing here can go on with it. */
      g_task_return_new_error (task, AKC_APP_SESSION_ERROR, AKC_APP_SESSION_ERROR_UNKNOWN_ASSISTANT,
                               /* Translators: %s is the id of an assistant, such as support. */
                               _("The conversation was imported, but this version cannot talk to its assistant “%s”."),
                               assistant_id != NULL ? assistant_id : "");
      return;
    }

  /* The history may list it already. */
  item = akc_conversation_model_lookup (self->conversations, akc_conversation_info_get_id (info));
  if (item == NULL)
    item = add_item (self, akc_conversation_info_get_id (info), assistant, akc_conversation_info_get_title (info),
                     akc_conversation_info_get_created_at (info), akc_conversation_info_get_updated_at (info));
  akc_conversation_item_set_n_messages (item, akc_conversation_info_get_n_messages (info));
  akc_conversation_item_set_model (item, akc_conversation_info_get_provider_kind (info),
                                   akc_conversation_info_get_provider_url (info),
                                   akc_conversation_info_get_model (info));
  g_task_return_pointer (task, g_object_ref (item), g_object_unref);
}

/**
 * akc_app_session_import_async:
 * @self: a #AkcAppSession
 * @data: a JSON export
 * @cancellable: (nullable): a #GCancellable
 * @callback: (scope async): called with the new conversation
 * @user_data: data for @callback
 *
 * Reads an export into a new conversation of the history (checked whole:
 * nothing is half-imported) and lists it.
 */
void
akc_app_session_import_async (AkcAppSession       *self,
                              GBytes              *data,
                              GCancellable        *cancellable,
                              GAsyncReadyCallback  callback,
                              gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;
  g_autoptr(GError) error = NULL;

  g_return_if_fail (AKC_IS_APP_SESSION (self));
  g_return_if_fail (data != NULL);

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, akc_app_session_import_async);
  if (!check_history (self, &error))
    {
      g_task_return_error (task, g_steal_pointer (&error));
      return;
    }
  akc_sqlite_chat_memory_import_async (AKC_SQLITE_CHAT_MEMORY (self->memory), data, cancellable,
                                       on_imported, g_steal_pointer (&task));
}

/**
 * akc_app_session_import_finish:
 * @self: a #AkcAppSession
 * @result: the result
 * @error: return location for a #GError
 *
 * Returns: (transfer full): the imported conversation, or %NULL with
 *   @error set
 */
AkcConversationItem *
akc_app_session_import_finish (AkcAppSession  *self,
                               GAsyncResult   *result,
                               GError        **error)
{
  g_return_val_if_fail (g_task_is_valid (result, self), NULL);

  return g_task_propagate_pointer (G_TASK (result), error);
}

/**
 * akc_app_session_close:
 * @self: a #AkcAppSession
 *
 * The application quits: removed conversations and hidden messages are
 * deleted from the history, every conversation hands its last changes to it, and the
 * session lets go of it.
 */
void
akc_app_session_close (AkcAppSession *self)
{
  g_autofree gpointer *removals = NULL;
  guint n_removals = 0;

  g_return_if_fail (AKC_IS_APP_SESSION (self));

  if (self->removals != NULL)
    {
      removals = g_hash_table_get_keys_as_array (self->removals, &n_removals);
      for (guint i = 0; i < n_removals; i++)
        akc_app_session_purge (self, GPOINTER_TO_UINT (removals[i]));
    }

  /* Messages deleted with their undo still offered go too (a crash would
   * have kept them). */
  if (self->conversations != NULL)
    {
      GListModel *list = G_LIST_MODEL (self->conversations);

      for (guint i = 0; i < g_list_model_get_n_items (list); i++)
        {
          g_autoptr(AkcConversationItem) item = g_list_model_get_item (list, i);
          AkcChatSource *source = akc_conversation_item_get_source (item);

          if (AKC_IS_CHAT (source))
            akc_chat_delete_hidden_messages (AKC_CHAT (source));
          /* The last keystrokes are kept before the history closes, and
           * nothing is written after. */
          akc_app_session_keep_draft (self, item);
          g_object_set_data (G_OBJECT (item), "akc-draft", NULL);
        }
    }

  g_cancellable_cancel (self->cancellable);
  if (self->conversations != NULL)
    akc_conversation_model_clear (self->conversations);
  /* Its reads stop, and it lets go of the history. */
  if (self->stored != NULL)
    {
      g_signal_handlers_disconnect_by_data (self->stored, self);
      g_object_run_dispose (G_OBJECT (self->stored));
      g_clear_object (&self->stored);
    }
  if (self->turn != NULL)
    g_object_run_dispose (G_OBJECT (self->turn));
  g_clear_object (&self->memory);
}
