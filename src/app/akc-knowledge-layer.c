/* akc-knowledge-layer.c: a conversation's local knowledge
 *
 * SPDX-License-Identifier: MIT
 */

#include "config.h"

#include <glib/gi18n.h>

#include "akc-knowledge-layer.h"

/*
 * AkcKnowledgeLayer:
 *
 * The adapter of a conversation that may use local knowledge
 * (application.md §9): a site configuration and the knowledge artifact it
 * pins, read from files the person chose. While they are in use, an
 * AkcDeterministicAdapter answers exact questions offline and sits in
 * front of the backend adapter; otherwise the backend answers everything.
 *
 * The files are read and the artifact verified against the configuration
 * (content hash and site id) when they are loaded. A configuration that
 * cannot be read or decoded is not used; an artifact that cannot be read,
 * fails verification or has expired never answers. In each case
 * [property@KnowledgeLayer:warning] says why, for the window to show, and
 * questions escalate to the backend as the configuration's fallback mode
 * says. An artifact that expires while in use is noticed at the next
 * question.
 *
 * The choices the deterministic adapter offers are remembered in
 * reservations that outlive a reload, for the window's choice-submission
 * hook.
 */

struct _AkcKnowledgeLayer
{
  GObject                    parent_instance;

  AkcAdapter                *backend;
  AkcDeterministicAdapter   *adapter;      /* NULL when no knowledge is used */
  AkcChoiceReservations     *reservations;
  AkcKnowledgeState          state;
  char                      *warning;
  char                      *artifact_name;
  char                      *artifact_id;
  AkcDeterministicFallbackMode mode;

  AkcDeterministicClockFunc  clock;
  gpointer                   clock_data;
};

static void akc_knowledge_layer_iface_init (AkcAdapterInterface *iface);

G_DEFINE_FINAL_TYPE_WITH_CODE (AkcKnowledgeLayer, akc_knowledge_layer, G_TYPE_OBJECT,
                               G_IMPLEMENT_INTERFACE (AKC_TYPE_ADAPTER, akc_knowledge_layer_iface_init))

G_DEFINE_ENUM_TYPE (AkcKnowledgeState, akc_knowledge_state,
  G_DEFINE_ENUM_VALUE (AKC_KNOWLEDGE_STATE_NONE, "none"),
  G_DEFINE_ENUM_VALUE (AKC_KNOWLEDGE_STATE_READY, "ready"),
  G_DEFINE_ENUM_VALUE (AKC_KNOWLEDGE_STATE_STALE, "stale"),
  G_DEFINE_ENUM_VALUE (AKC_KNOWLEDGE_STATE_CORRUPT, "corrupt"),
  G_DEFINE_ENUM_VALUE (AKC_KNOWLEDGE_STATE_INVALID, "invalid"))

enum {
  PROP_0,
  PROP_BACKEND,
  PROP_STATE,
  PROP_WARNING,
  N_PROPS
};

static GParamSpec *props[N_PROPS];

static const char *
member_string (AkcJsonValue *object,
               const char   *name)
{
  AkcJsonValue *v = object != NULL ? akc_json_value_get_member (object, name) : NULL;

  return v != NULL && akc_json_value_get_kind (v) == AKC_JSON_KIND_STRING
         ? akc_json_value_get_string (v, NULL) : NULL;
}

/* What happens to questions the artifact cannot answer. */
static const char *
consequence (AkcKnowledgeLayer *self)
{
  if (self->adapter == NULL || self->mode == AKC_DETERMINISTIC_FALLBACK_BACKEND)
    return _("Questions go to the backend.");
  return _("The site configuration allows no backend, so questions get no answer.");
}

/* Takes @reason. */
static void
set_state (AkcKnowledgeLayer *self,
           AkcKnowledgeState  state,
           char              *reason)
{
  g_free (self->warning);
  self->warning = reason != NULL ? g_strdup_printf ("%s %s", reason, consequence (self)) : NULL;
  self->state = state;
  g_free (reason);

  g_object_notify_by_pspec (G_OBJECT (self), props[PROP_STATE]);
  g_object_notify_by_pspec (G_OBJECT (self), props[PROP_WARNING]);
}

static gint64
layer_now (AkcKnowledgeLayer *self)
{
  return self->clock != NULL ? self->clock (self->clock_data) : g_get_real_time () / 1000;
}

static char *
stale_reason (AkcKnowledgeLayer *self)
{
  /* Translators: %s is a file name. */
  return g_strdup_printf (_("The knowledge artifact “%s” has expired and no longer answers."),
                          self->artifact_name);
}

static AkcAdapter *
current_adapter (AkcKnowledgeLayer *self)
{
  return self->adapter != NULL ? AKC_ADAPTER (self->adapter) : self->backend;
}

static void
akc_knowledge_layer_stream (AkcAdapter        *adapter,
                            AkcAdapterRequest *request,
                            AkcStream         *stream)
{
  AkcKnowledgeLayer *self = AKC_KNOWLEDGE_LAYER (adapter);

  /* An artifact may expire while it is in use. */
  if (self->state == AKC_KNOWLEDGE_STATE_READY &&
      akc_knowledge_resolver_is_stale (akc_deterministic_adapter_get_resolver (self->adapter), layer_now (self)))
    set_state (self, AKC_KNOWLEDGE_STATE_STALE, stale_reason (self));

  akc_adapter_stream (current_adapter (self), request, stream);
}

static AkcJsonValue *
akc_knowledge_layer_get_capabilities (AkcAdapter *adapter)
{
  return akc_adapter_get_capabilities (current_adapter (AKC_KNOWLEDGE_LAYER (adapter)));
}

static void
akc_knowledge_layer_iface_init (AkcAdapterInterface *iface)
{
  iface->stream = akc_knowledge_layer_stream;
  iface->get_capabilities = akc_knowledge_layer_get_capabilities;
}

static void
akc_knowledge_layer_finalize (GObject *object)
{
  AkcKnowledgeLayer *self = AKC_KNOWLEDGE_LAYER (object);

  g_clear_object (&self->backend);
  g_clear_object (&self->adapter);
  g_clear_object (&self->reservations);
  g_clear_pointer (&self->warning, g_free);
  g_clear_pointer (&self->artifact_name, g_free);
  g_clear_pointer (&self->artifact_id, g_free);

  G_OBJECT_CLASS (akc_knowledge_layer_parent_class)->finalize (object);
}

static void
akc_knowledge_layer_get_property (GObject    *object,
                                  guint       prop_id,
                                  GValue     *value,
                                  GParamSpec *pspec)
{
  AkcKnowledgeLayer *self = AKC_KNOWLEDGE_LAYER (object);

  switch (prop_id)
    {
    case PROP_BACKEND:
      g_value_set_object (value, self->backend);
      break;
    case PROP_STATE:
      g_value_set_enum (value, self->state);
      break;
    case PROP_WARNING:
      g_value_set_string (value, self->warning);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
akc_knowledge_layer_set_property (GObject      *object,
                                  guint         prop_id,
                                  const GValue *value,
                                  GParamSpec   *pspec)
{
  AkcKnowledgeLayer *self = AKC_KNOWLEDGE_LAYER (object);

  switch (prop_id)
    {
    case PROP_BACKEND:
      self->backend = g_value_dup_object (value);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
akc_knowledge_layer_class_init (AkcKnowledgeLayerClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->finalize = akc_knowledge_layer_finalize;
  object_class->get_property = akc_knowledge_layer_get_property;
  object_class->set_property = akc_knowledge_layer_set_property;

  props[PROP_BACKEND] =
    g_param_spec_object ("backend", NULL, NULL,
                         AKC_TYPE_ADAPTER,
                         (G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS));
  props[PROP_STATE] =
    g_param_spec_enum ("state", NULL, NULL,
                       AKC_TYPE_KNOWLEDGE_STATE, AKC_KNOWLEDGE_STATE_NONE,
                       (G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));
  props[PROP_WARNING] =
    g_param_spec_string ("warning", NULL, NULL,
                         NULL,
                         (G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));

  g_object_class_install_properties (object_class, N_PROPS, props);
}

static void
akc_knowledge_layer_init (AkcKnowledgeLayer *self)
{
  self->reservations = akc_choice_reservations_new ();
}

AkcKnowledgeLayer *
akc_knowledge_layer_new (AkcAdapter *backend)
{
  g_return_val_if_fail (AKC_IS_ADAPTER (backend), NULL);

  return g_object_new (AKC_TYPE_KNOWLEDGE_LAYER, "backend", backend, NULL);
}

AkcAdapter *
akc_knowledge_layer_get_backend (AkcKnowledgeLayer *self)
{
  g_return_val_if_fail (AKC_IS_KNOWLEDGE_LAYER (self), NULL);

  return self->backend;
}

AkcKnowledgeState
akc_knowledge_layer_get_state (AkcKnowledgeLayer *self)
{
  g_return_val_if_fail (AKC_IS_KNOWLEDGE_LAYER (self), AKC_KNOWLEDGE_STATE_NONE);

  return self->state;
}

/* Why the knowledge is not used, and what happens instead; NULL while it
 * is not in use or answers. */
const char *
akc_knowledge_layer_get_warning (AkcKnowledgeLayer *self)
{
  g_return_val_if_fail (AKC_IS_KNOWLEDGE_LAYER (self), NULL);

  return self->warning;
}

const char *
akc_knowledge_layer_get_artifact_id (AkcKnowledgeLayer *self)
{
  g_return_val_if_fail (AKC_IS_KNOWLEDGE_LAYER (self), NULL);

  return self->artifact_id;
}

AkcDeterministicAdapter *
akc_knowledge_layer_get_adapter (AkcKnowledgeLayer *self)
{
  g_return_val_if_fail (AKC_IS_KNOWLEDGE_LAYER (self), NULL);

  return self->adapter;
}

AkcChoiceReservations *
akc_knowledge_layer_get_reservations (AkcKnowledgeLayer *self)
{
  g_return_val_if_fail (AKC_IS_KNOWLEDGE_LAYER (self), NULL);

  return self->reservations;
}

static gint64
layer_clock (gpointer data)
{
  return layer_now (data);
}

static void
reset (AkcKnowledgeLayer *self)
{
  g_clear_object (&self->adapter);
  g_clear_pointer (&self->artifact_name, g_free);
  g_clear_pointer (&self->artifact_id, g_free);
  self->mode = AKC_DETERMINISTIC_FALLBACK_BACKEND;
}

/* Loads @site_config and the @artifact it pins (application.md §9.2),
 * replacing whatever was in use. Never fails: when something cannot be
 * used, the state and the warning say why. */
void
akc_knowledge_layer_load (AkcKnowledgeLayer *self,
                          GFile             *site_config,
                          GFile             *artifact)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(AkcDiagnostic) diagnostic = NULL;
  g_autoptr(AkcJsonValue) config = NULL;
  g_autoptr(AkcKnowledgeResolver) resolver = NULL;
  g_autofree char *config_text = NULL;
  g_autofree char *artifact_text = NULL;
  g_autofree char *config_name = NULL;
  gsize config_len = 0, artifact_len = 0;
  const char *site_id, *content_hash;

  g_return_if_fail (AKC_IS_KNOWLEDGE_LAYER (self));
  g_return_if_fail (G_IS_FILE (site_config));
  g_return_if_fail (G_IS_FILE (artifact));

  reset (self);
  config_name = g_file_get_basename (site_config);
  self->artifact_name = g_file_get_basename (artifact);

  if (!g_file_load_contents (site_config, NULL, &config_text, &config_len, NULL, &error))
    {
      /* Translators: the first %s is a file name, the second says why. */
      set_state (self, AKC_KNOWLEDGE_STATE_INVALID,
                 g_strdup_printf (_("The site configuration “%s” cannot be read: %s"),
                                  config_name, error->message));
      return;
    }

  config = akc_site_config_decode (config_text, config_len, &diagnostic);
  if (config == NULL)
    {
      /* Translators: the first %s is a file name, the second says why. */
      set_state (self, AKC_KNOWLEDGE_STATE_INVALID,
                 g_strdup_printf (_("The site configuration “%s” is not valid: %s"),
                                  config_name, akc_diagnostic_get_message (diagnostic)));
      return;
    }

  site_id = member_string (config, "siteId");
  content_hash = member_string (akc_json_value_get_member (config, "artifact"), "contentHash");
  if (g_strcmp0 (member_string (akc_json_value_get_member (config, "fallback"), "mode"), "disabled") == 0)
    self->mode = AKC_DETERMINISTIC_FALLBACK_DISABLED;

  /* An artifact that cannot be read is corrupt: it never answers. */
  if (g_file_load_contents (artifact, NULL, &artifact_text, &artifact_len, NULL, &error))
    resolver = akc_knowledge_resolver_new_from_text (artifact_text, artifact_len, content_hash, site_id);
  else
    resolver = akc_knowledge_resolver_new (NULL, content_hash, site_id);

  self->adapter = akc_deterministic_adapter_new_with_resolver (resolver, self->mode, self->backend);
  akc_deterministic_adapter_set_reservations (self->adapter, self->reservations);
  akc_deterministic_adapter_set_clock (self->adapter, layer_clock, self, NULL);

  if (error != NULL)
    {
      /* Translators: the first %s is a file name, the second says why. */
      set_state (self, AKC_KNOWLEDGE_STATE_CORRUPT,
                 g_strdup_printf (_("The knowledge artifact “%s” cannot be read: %s"),
                                  self->artifact_name, error->message));
    }
  else if (!akc_knowledge_resolver_is_verified (resolver))
    {
      AkcDiagnostic *why = akc_knowledge_resolver_get_diagnostic (resolver);

      /* Translators: the first %s is a file name, the second says why. */
      set_state (self, AKC_KNOWLEDGE_STATE_CORRUPT,
                 g_strdup_printf (_("The knowledge artifact “%s” failed verification and never answers: %s"),
                                  self->artifact_name,
                                  why != NULL ? akc_diagnostic_get_message (why) : ""));
    }
  else
    {
      self->artifact_id = g_strdup (member_string (akc_knowledge_resolver_get_artifact (resolver), "artifactId"));
      if (akc_knowledge_resolver_is_stale (resolver, layer_now (self)))
        set_state (self, AKC_KNOWLEDGE_STATE_STALE, stale_reason (self));
      else
        set_state (self, AKC_KNOWLEDGE_STATE_READY, NULL);
    }
}

/* Stops using local knowledge: the backend answers everything. */
void
akc_knowledge_layer_clear (AkcKnowledgeLayer *self)
{
  g_return_if_fail (AKC_IS_KNOWLEDGE_LAYER (self));

  reset (self);
  set_state (self, AKC_KNOWLEDGE_STATE_NONE, NULL);
}

/* Sets the clock the artifact's expiry is checked against (for tests);
 * %NULL for the real time. */
void
akc_knowledge_layer_set_clock (AkcKnowledgeLayer         *self,
                               AkcDeterministicClockFunc  func,
                               gpointer                   user_data)
{
  g_return_if_fail (AKC_IS_KNOWLEDGE_LAYER (self));

  self->clock = func;
  self->clock_data = user_data;
}
