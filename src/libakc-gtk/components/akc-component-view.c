/* akc-component-view.c
 *
 * SPDX-License-Identifier: MIT
 */

#include "config.h"

#include <glib/gi18n-lib.h>

#include "akc-component-view.h"
#include "akc-component-widget-private.h"
#include "akc-gtk-main.h"
#include "akc-chat-view.h"
#include "akc-chat-view-slots-private.h"

/**
 * AkcComponentView:
 *
 * Presents one component render frame ([application §2.1](../Akc-1/wire-formats.html#application-2)) natively.
 *
 * The view resolves its frame against a [class@Akc.ComponentManifest]
 * (the standard catalog when none is given) and shows:
 *
 * - for a resolved standard component, its native, accessible widget
 *   (§12.6), built from the props the catalog validated and described by
 *   the definition fallback (§2.9);
 * - for an unknown key, invalid props, or a resolved custom key, the
 *   semantic fallback `[unsupported visual: «kind»] «summary»` (§12.5),
 *   which never emits events;
 * - for a frame that does not decode, an alert with the diagnostic message
 *   (the code is its tooltip).
 *
 * What the person does becomes a wire event through the catalog only:
 * [signal@ComponentView::interaction] carries the event of
 * [method@Akc.ResolvedComponent.create_interaction] and
 * [signal@ComponentView::selection] the choice-list selection of
 * [method@Akc.ResolvedComponent.select_choice]. Instances are single-shot
 * (§12.7): the view marks itself [property@ComponentView:resolved] before
 * emitting, a resolved view is insensitive and ignores further input, and
 * [method@ComponentView.fail] reports a failure of the host's handling,
 * un-resolving the instance where §12.7 says so and showing the message.
 *
 * Source lists and link cards are navigation, not questions
 * (docs/port-decisions.md, §12.4): their `open` event is emitted once per
 * instance, but they are never resolved by it, and their links keep
 * working: every activation of a link emits
 * [signal@ComponentView::link-activated], the first one after the event.
 *
 * Links never navigate by themselves, with one exception (§12.7): when
 * nobody handles [signal@ComponentView::interaction], a source-list link
 * with an absolute http(s) URL is opened, every time it is activated (the
 * first time after its `open` event), through
 * [signal@ComponentView::open-uri].
 *
 * ## Keyboard
 *
 * [method@Gtk.Widget.grab_focus] moves the focus to the first action,
 * choice or field. Interactive components follow §12.4: ↑/↓ move between
 * actions (clamped) and Enter activates; a choice list also takes digits
 * (a two-digit buffer) and Enter selects the choice they name; a form
 * confirms a field with Enter, blocks on an empty required field, cycles
 * a select with ↑/↓ and submits from its last field.
 *
 * In a transcript only the active component reacts to keys (§12.4): the
 * host finds it with [method@Akc.InputOwnership.find_active], sets
 * [property@ComponentView:active] to %FALSE on every other view and gives
 * the active one the focus with [method@Gtk.Widget.grab_focus] (or the
 * composer, when there is none). An inactive view cannot take the focus —
 * not by Tab, not by a click, not by `grab_focus()` — so no key reaches
 * it, yet it stays sensitive and fully readable by assistive technologies,
 * and pointer clicks still work (§14, B1).
 *
 * ## CSS nodes
 *
 * `AkcComponentView` has a main CSS node named `componentview`, holding the
 * component widget (`buttongroup`, `choicelist`, `componentform`,
 * `confirmation`, `componentprogress`, `sourcelist`, `linkcard`,
 * `errornotice`, `toolcall`, `approvalrequest`, `componenttable`,
 * `fileattachment`, each with the style class `.component`, or
 * `componentfallback`) and a `label.component-error`.
 *
 * ## Accessibility
 *
 * The component widget has the role of its definition (group, form,
 * progress-bar, list, link, alert, status, table), its name, its state
 * (disabled once resolved, busy, checked, invalid, value) and the
 * definition fallback as description. The error is an alert.
 *
 * Since: 0.1
 */

struct _AkcComponentView
{
  GtkWidget             parent_instance;

  GtkBox               *box;
  GtkLabel             *error_label;

  GtkWidget            *content;
  AkcJsonValue         *frame;
  AkcJsonValue         *decoded;
  AkcComponentManifest *manifest;
  AkcResolvedComponent *resolved_component;
  AkcComponentResolution *resolution;
  char                 *error_message;

  guint                 resolved : 1;
  guint                 is_fallback : 1;
  guint                 had_focus : 1;
  guint                 active : 1;
  guint                 opened : 1;
  guint                 custom_tried : 1;
};

G_DEFINE_FINAL_TYPE (AkcComponentView, akc_component_view, GTK_TYPE_WIDGET)

G_DEFINE_ENUM_TYPE (AkcComponentFailure, akc_component_failure,
  G_DEFINE_ENUM_VALUE (AKC_COMPONENT_FAILURE_INTERACTION, "interaction"),
  G_DEFINE_ENUM_VALUE (AKC_COMPONENT_FAILURE_SELECTION, "selection"),
  G_DEFINE_ENUM_VALUE (AKC_COMPONENT_FAILURE_ACTION_PROPOSAL, "action-proposal"),
  G_DEFINE_ENUM_VALUE (AKC_COMPONENT_FAILURE_SUBMISSION_AUTHORIZATION, "submission-authorization"),
  G_DEFINE_ENUM_VALUE (AKC_COMPONENT_FAILURE_SUBMISSION_EXPIRED, "submission-expired"),
  G_DEFINE_ENUM_VALUE (AKC_COMPONENT_FAILURE_SUBMISSION, "submission"),
  G_DEFINE_ENUM_VALUE (AKC_COMPONENT_FAILURE_SETTLEMENT, "settlement"))

enum {
  PROP_0,
  PROP_FRAME,
  PROP_MANIFEST,
  PROP_RESOLVED_COMPONENT,
  PROP_COMPONENT_KEY,
  PROP_INSTANCE_ID,
  PROP_IS_FALLBACK,
  PROP_INTERACTIVE,
  PROP_RESOLVED,
  PROP_ACTIVE,
  PROP_ERROR_MESSAGE,
  N_PROPS
};

static GParamSpec *props[N_PROPS];

enum {
  INTERACTION,
  SELECTION,
  OPEN_URI,
  LINK_ACTIVATED,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

/* §12.7 and Appendix A: the message of each failure and whether the
 * instance becomes usable again. */
static const struct {
  const char *message;
  gboolean    unresolve;
} failures[] = {
  [AKC_COMPONENT_FAILURE_INTERACTION] = { N_("Component interaction callback failed."), TRUE },
  [AKC_COMPONENT_FAILURE_SELECTION] = { N_("Component selection callback failed."), FALSE },
  [AKC_COMPONENT_FAILURE_ACTION_PROPOSAL] = { N_("Action proposal failed."), TRUE },
  [AKC_COMPONENT_FAILURE_SUBMISSION_AUTHORIZATION] = { N_("Choice submission authorization failed."), TRUE },
  [AKC_COMPONENT_FAILURE_SUBMISSION_EXPIRED] = { N_("This deterministic choice expired. Select it again after asking the question once more."), TRUE },
  [AKC_COMPONENT_FAILURE_SUBMISSION] = { N_("Choice submission failed."), TRUE },
  [AKC_COMPONENT_FAILURE_SETTLEMENT] = { N_("Choice submission settlement failed."), FALSE },
};

static const char *
frame_string (AkcJsonValue *frame,
              const char   *name)
{
  return frame != NULL ? akc_props_get_string (frame, name) : NULL;
}

static gboolean
is_key (AkcComponentView *self,
        const char       *key)
{
  return g_strcmp0 (akc_component_view_get_component_key (self), key) == 0;
}

static void
set_error (AkcComponentView *self,
           const char       *message,
           const char       *tooltip)
{
  if (g_strcmp0 (self->error_message, message) == 0)
    return;

  g_free (self->error_message);
  self->error_message = g_strdup (message);

  gtk_label_set_text (self->error_label, message != NULL ? message : "");
  gtk_widget_set_tooltip_text (GTK_WIDGET (self->error_label), tooltip);
  gtk_widget_set_visible (GTK_WIDGET (self->error_label), message != NULL);

  g_object_notify_by_pspec (G_OBJECT (self), props[PROP_ERROR_MESSAGE]);
}

/* GTK only marks the widget made insensitive as disabled for assistive
 * technologies, not its children: an AT would still offer the buttons of
 * a resolved component. Mirror the effective sensitivity below @widget. */
static void
sync_disabled_state (GtkWidget *widget,
                     gboolean   resolved)
{
  for (GtkWidget *child = gtk_widget_get_first_child (widget);
       child != NULL;
       child = gtk_widget_get_next_sibling (child))
    {
      gtk_accessible_update_state (GTK_ACCESSIBLE (child),
                                   GTK_ACCESSIBLE_STATE_DISABLED, resolved || !gtk_widget_get_sensitive (child),
                                   -1);
      sync_disabled_state (child, resolved);
    }
}

/* A source list or a link card: navigation, not a question
 * (docs/port-decisions.md, §12.4). Tab reaches its links whether or not
 * it is the active component; it never takes the keyboard itself. */
static gboolean
is_navigation (AkcComponentView *self)
{
  const char *key;

  if (self->resolved_component == NULL || !akc_resolved_component_is_standard (self->resolved_component))
    return FALSE;
  key = akc_resolved_component_get_component_key (self->resolved_component);
  return g_strcmp0 (key, "source-list") == 0 || g_strcmp0 (key, "link-card") == 0;
}

/* Whether Tab and a click may give the keyboard to the content. */
static void
sync_can_focus (AkcComponentView *self)
{
  gtk_widget_set_can_focus (self->content, self->active || (is_navigation (self) && !self->is_fallback));
}

static gboolean
focus_is_inside (AkcComponentView *self)
{
  GtkRoot *root = gtk_widget_get_root (GTK_WIDGET (self));
  GtkWidget *focus = root != NULL ? gtk_root_get_focus (root) : NULL;

  return focus != NULL && gtk_widget_is_ancestor (focus, GTK_WIDGET (self));
}

/* The URL of the source-list source @id, when it may be opened natively:
 * only absolute http(s) URLs (root-relative ones have no base, §14 B2). */
static const char *
source_url_to_open (AkcComponentView *self,
                    AkcJsonValue     *id)
{
  AkcJsonValue *sources = akc_props_get_array (akc_resolved_component_get_props (self->resolved_component), "sources");
  const char *wanted = akc_json_value_get_string (id, NULL);
  gsize n = akc_props_get_length (sources);

  for (gsize i = 0; i < n; i++)
    {
      AkcJsonValue *source = akc_props_get_object_at (sources, i);
      const char *url = akc_props_get_string (source, "url");
      g_autoptr(GUri) uri = NULL;
      const char *scheme;

      if (g_strcmp0 (akc_props_get_string (source, "id"), wanted) != 0 || url == NULL)
        continue;

      uri = g_uri_parse (url, G_URI_FLAGS_NONE, NULL);
      if (uri == NULL)
        return NULL;
      scheme = g_uri_get_scheme (uri);
      if ((g_ascii_strcasecmp (scheme, "http") != 0 && g_ascii_strcasecmp (scheme, "https") != 0) ||
          g_uri_get_host (uri) == NULL || *g_uri_get_host (uri) == '\0')
        return NULL;
      return url;
    }

  return NULL;
}

static void
on_request (AkcComponentWidget *widget,
            const char         *event,
            AkcJsonValue       *value,
            AkcComponentView   *self)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(AkcJsonValue) wire_event = NULL;
  g_autoptr(AkcComponentView) hold = NULL;
  const char *url = NULL;
  gboolean selection;

  /* §12.7 step 1: a resolved instance ignores everything. */
  if (self->resolved || self->resolved_component == NULL)
    return;

  selection = is_key (self, AKC_CHOICE_LIST_COMPONENT_KEY);
  if (selection)
    {
      const char *choice_id = value != NULL && akc_json_value_get_kind (value) == AKC_JSON_KIND_STRING
                              ? akc_json_value_get_string (value, NULL) : "";

      wire_event = akc_resolved_component_select_choice (self->resolved_component, choice_id, &error);
    }
  else
    {
      wire_event = akc_resolved_component_create_interaction (self->resolved_component, event, value, &error);
    }

  if (wire_event == NULL)
    {
      /* The catalog refused the value: the instance stays open. Only a
       * form can get here through what was typed (a number field). */
      if (is_key (self, "form"))
        set_error (self, _("Some values are not valid. Check the form and try again."), error->message);
      else
        set_error (self, error->message, NULL);
      return;
    }

  hold = g_object_ref (self);

  /* Navigation: the `open` event once per instance, the link every time;
   * nothing is resolved. */
  if (!selection && g_strcmp0 (event, "open") == 0 && (is_key (self, "source-list") || is_key (self, "link-card")))
    {
      gboolean first = !self->opened;

      set_error (self, NULL, NULL);
      if (is_key (self, "source-list") && !g_signal_has_handler_pending (self, signals[INTERACTION], 0, FALSE))
        url = source_url_to_open (self, value);

      self->opened = TRUE;
      if (first)
        g_signal_emit (self, signals[INTERACTION], 0, wire_event);
      g_signal_emit (self, signals[LINK_ACTIVATED], 0, value);

      if (url != NULL)
        g_signal_emit (self, signals[OPEN_URI], 0, url);
      return;
    }

  /* §12.7 step 2: resolved before the host hears of it. */
  self->had_focus = focus_is_inside (self);
  akc_component_view_set_resolved (self, TRUE);
  set_error (self, NULL, NULL);

  g_signal_emit (self, signals[selection ? SELECTION : INTERACTION], 0, wire_event);
}

static void
akc_component_view_real_open_uri (AkcComponentView *self,
                                  const char       *uri)
{
  GtkRoot *root = gtk_widget_get_root (GTK_WIDGET (self));
  GtkWindow *parent = GTK_IS_WINDOW (root) ? GTK_WINDOW (root) : NULL;

  /* Goes through the OpenURI portal when sandboxed. */
#if GTK_CHECK_VERSION (4, 10, 0)
  {
    g_autoptr(GtkUriLauncher) launcher = gtk_uri_launcher_new (uri);

    gtk_uri_launcher_launch (launcher, parent, NULL, NULL, NULL);
  }
#else
  gtk_show_uri (parent, uri, GDK_CURRENT_TIME);
#endif
}

static void
akc_component_view_build (AkcComponentView *self)
{
  g_autoptr(AkcDiagnostic) diagnostic = NULL;
  g_autofree char *fallback = NULL;

  if (self->manifest == NULL)
    self->manifest = akc_component_manifest_new_standard ();

  if (self->frame == NULL)
    return;

  self->decoded = akc_component_frame_decode_value (self->frame, &diagnostic);
  if (self->decoded == NULL)
    {
      /* §12.2, §12.5: only the diagnostic message, the code as tooltip. */
      set_error (self, akc_diagnostic_get_message (diagnostic), akc_diagnostic_get_code (diagnostic));
      return;
    }

  self->resolved_component = akc_component_manifest_resolve (self->manifest, self->decoded, NULL);

  if (self->resolved_component != NULL && akc_resolved_component_is_standard (self->resolved_component))
    {
      self->content = akc_component_widget_new (akc_resolved_component_get_component_key (self->resolved_component),
                                                akc_resolved_component_get_props (self->resolved_component));
    }

  if (self->content != NULL)
    {
      g_autofree char *description = akc_resolved_component_dup_description (self->resolved_component);

      if (description != NULL)
        gtk_accessible_update_property (GTK_ACCESSIBLE (self->content),
                                        GTK_ACCESSIBLE_PROPERTY_DESCRIPTION, description,
                                        -1);
      g_signal_connect_object (self->content, "request", G_CALLBACK (on_request), self, 0);
    }
  else
    {
      /* Unknown key, invalid props, or a custom key we cannot draw. An
       * invalid fallback is not rendered. */
      fallback = akc_component_frame_dup_fallback_text (self->decoded);
      if (fallback == NULL)
        return;
      self->content = akc_fallback_view_new (fallback);
      self->is_fallback = TRUE;
    }

  sync_can_focus (self);
  gtk_box_prepend (self->box, self->content);
}

/* A custom key resolved against the manifest is drawn by the widget the
 * host registered for it on the chat view the instance is shown in, in
 * place of the semantic fallback, and a standard key the host replaced
 * by the host's widget in place of the view's own (§12.10). */
static void
akc_component_view_use_custom_widget (AkcComponentView *self)
{
  GtkWidget *chat_view;
  g_autoptr(GtkWidget) widget = NULL;
  g_autofree char *description = NULL;

  if (self->custom_tried || self->resolved_component == NULL)
    return;

  chat_view = gtk_widget_get_ancestor (GTK_WIDGET (self), AKC_TYPE_CHAT_VIEW);
  if (chat_view == NULL)
    return;

  self->custom_tried = TRUE;
  /* A standard key the host replaced is drawn by its widget too, in a box
   * with the role and name of the view's own. */
  if (akc_resolved_component_is_standard (self->resolved_component))
    widget = akc_chat_view_slots_create_standard (AKC_CHAT_VIEW (chat_view), self, self->content);
  else
    widget = akc_chat_view_slots_create_component (AKC_CHAT_VIEW (chat_view), self);
  if (widget == NULL)
    return;

  if (self->content != NULL)
    gtk_box_remove (self->box, self->content);
  self->content = widget;
  self->is_fallback = FALSE;

  description = akc_resolved_component_dup_description (self->resolved_component);
  if (description != NULL)
    gtk_accessible_update_property (GTK_ACCESSIBLE (self->content),
                                    GTK_ACCESSIBLE_PROPERTY_DESCRIPTION, description,
                                    -1);
  sync_can_focus (self);
  gtk_widget_set_sensitive (self->content, !self->resolved);
  sync_disabled_state (self->content, self->resolved);
  gtk_box_prepend (self->box, self->content);

  g_object_notify_by_pspec (G_OBJECT (self), props[PROP_IS_FALLBACK]);
}

static void
akc_component_view_root (GtkWidget *widget)
{
  GTK_WIDGET_CLASS (akc_component_view_parent_class)->root (widget);

  akc_component_view_use_custom_widget (AKC_COMPONENT_VIEW (widget));
}

static gboolean
akc_component_view_grab_focus (GtkWidget *widget)
{
  AkcComponentView *self = AKC_COMPONENT_VIEW (widget);

  if (!self->active || self->content == NULL || !gtk_widget_is_sensitive (self->content))
    return FALSE;

  return gtk_widget_grab_focus (self->content);
}

static void
akc_component_view_constructed (GObject *object)
{
  G_OBJECT_CLASS (akc_component_view_parent_class)->constructed (object);

  akc_component_view_build (AKC_COMPONENT_VIEW (object));
}

static void
akc_component_view_dispose (GObject *object)
{
  AkcComponentView *self = AKC_COMPONENT_VIEW (object);

  gtk_widget_dispose_template (GTK_WIDGET (self), AKC_TYPE_COMPONENT_VIEW);
  akc_component_unparent_children (GTK_WIDGET (self));
  self->content = NULL;
  g_clear_object (&self->resolved_component);
  g_clear_object (&self->resolution);
  g_clear_object (&self->manifest);

  G_OBJECT_CLASS (akc_component_view_parent_class)->dispose (object);
}

static void
akc_component_view_finalize (GObject *object)
{
  AkcComponentView *self = AKC_COMPONENT_VIEW (object);

  g_clear_pointer (&self->frame, akc_json_value_unref);
  g_clear_pointer (&self->decoded, akc_json_value_unref);
  g_clear_pointer (&self->error_message, g_free);

  G_OBJECT_CLASS (akc_component_view_parent_class)->finalize (object);
}

static void
akc_component_view_get_property (GObject    *object,
                                 guint       prop_id,
                                 GValue     *value,
                                 GParamSpec *pspec)
{
  AkcComponentView *self = AKC_COMPONENT_VIEW (object);

  switch (prop_id)
    {
    case PROP_FRAME:
      g_value_set_boxed (value, self->frame);
      break;
    case PROP_MANIFEST:
      g_value_set_object (value, self->manifest);
      break;
    case PROP_RESOLVED_COMPONENT:
      g_value_set_object (value, self->resolved_component);
      break;
    case PROP_COMPONENT_KEY:
      g_value_set_string (value, akc_component_view_get_component_key (self));
      break;
    case PROP_INSTANCE_ID:
      g_value_set_string (value, akc_component_view_get_instance_id (self));
      break;
    case PROP_IS_FALLBACK:
      g_value_set_boolean (value, self->is_fallback);
      break;
    case PROP_INTERACTIVE:
      g_value_set_boolean (value, akc_component_view_get_interactive (self));
      break;
    case PROP_RESOLVED:
      g_value_set_boolean (value, self->resolved);
      break;
    case PROP_ACTIVE:
      g_value_set_boolean (value, self->active);
      break;
    case PROP_ERROR_MESSAGE:
      g_value_set_string (value, self->error_message);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
akc_component_view_set_property (GObject      *object,
                                 guint         prop_id,
                                 const GValue *value,
                                 GParamSpec   *pspec)
{
  AkcComponentView *self = AKC_COMPONENT_VIEW (object);

  switch (prop_id)
    {
    case PROP_FRAME:
      self->frame = g_value_dup_boxed (value);
      break;
    case PROP_MANIFEST:
      self->manifest = g_value_dup_object (value);
      break;
    case PROP_RESOLVED:
      akc_component_view_set_resolved (self, g_value_get_boolean (value));
      break;
    case PROP_ACTIVE:
      akc_component_view_set_active (self, g_value_get_boolean (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
akc_component_view_class_init (AkcComponentViewClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->constructed = akc_component_view_constructed;
  object_class->dispose = akc_component_view_dispose;
  object_class->finalize = akc_component_view_finalize;
  object_class->get_property = akc_component_view_get_property;
  object_class->set_property = akc_component_view_set_property;

  widget_class->grab_focus = akc_component_view_grab_focus;
  widget_class->root = akc_component_view_root;

  /**
   * AkcComponentView:frame:
   *
   * The render frame the view presents: any JSON value, decoded and
   * resolved by the view.
   *
   * Since: 0.1
   */
  props[PROP_FRAME] =
    g_param_spec_boxed ("frame", NULL, NULL,
                        AKC_TYPE_JSON_VALUE,
                        (G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS));

  /**
   * AkcComponentView:manifest:
   *
   * The manifest the frame is resolved against; the standard catalog when
   * none was given at construction.
   *
   * Since: 0.1
   */
  props[PROP_MANIFEST] =
    g_param_spec_object ("manifest", NULL, NULL,
                         AKC_TYPE_COMPONENT_MANIFEST,
                         (G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS));

  /**
   * AkcComponentView:resolved-component:
   *
   * The frame resolved against the manifest, or %NULL when it did not
   * resolve.
   *
   * Since: 0.1
   */
  props[PROP_RESOLVED_COMPONENT] =
    g_param_spec_object ("resolved-component", NULL, NULL,
                         AKC_TYPE_RESOLVED_COMPONENT,
                         (G_PARAM_READABLE | G_PARAM_STATIC_STRINGS));

  /**
   * AkcComponentView:component-key:
   *
   * The frame's component key, or %NULL when the frame did not decode.
   *
   * Since: 0.1
   */
  props[PROP_COMPONENT_KEY] =
    g_param_spec_string ("component-key", NULL, NULL,
                         NULL,
                         (G_PARAM_READABLE | G_PARAM_STATIC_STRINGS));

  /**
   * AkcComponentView:instance-id:
   *
   * The frame's instance id, which keys single-shot resolution, or %NULL
   * when the frame did not decode.
   *
   * Since: 0.1
   */
  props[PROP_INSTANCE_ID] =
    g_param_spec_string ("instance-id", NULL, NULL,
                         NULL,
                         (G_PARAM_READABLE | G_PARAM_STATIC_STRINGS));

  /**
   * AkcComponentView:is-fallback:
   *
   * Whether the view shows the semantic fallback text instead of a
   * native widget.
   *
   * Since: 0.1
   */
  props[PROP_IS_FALLBACK] =
    g_param_spec_boolean ("is-fallback", NULL, NULL,
                          FALSE,
                          (G_PARAM_READABLE | G_PARAM_STATIC_STRINGS));

  /**
   * AkcComponentView:interactive:
   *
   * Whether the view can own input now ([application §12.4](../Akc-1/wire-formats.html#application-12)): it shows a
   * native widget whose definition declares events, and its instance is
   * not resolved. Display-only components (progress, tool-call, table) are
   * never interactive.
   *
   * Since: 0.1
   */
  props[PROP_INTERACTIVE] =
    g_param_spec_boolean ("interactive", NULL, NULL,
                          FALSE,
                          (G_PARAM_READABLE | G_PARAM_STATIC_STRINGS));

  /**
   * AkcComponentView:resolved:
   *
   * Whether the instance is resolved ([application §12.7](../Akc-1/wire-formats.html#application-12)): set by the
   * view before it emits an event, cleared by [method@ComponentView.fail]
   * where §12.7 un-resolves, and settable by the host, which keeps the set
   * of resolved instance ids. A resolved view is insensitive and emits
   * nothing.
   *
   * Since: 0.1
   */
  props[PROP_RESOLVED] =
    g_param_spec_boolean ("resolved", NULL, NULL,
                          FALSE,
                          (G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));

  /**
   * AkcComponentView:active:
   *
   * Whether the view may react to keys ([application §12.4](../Akc-1/wire-formats.html#application-12)). A host
   * showing several components sets it to %TRUE on the active component
   * only ([method@Akc.InputOwnership.find_active]) and %FALSE on every
   * other: an inactive view cannot take the keyboard focus (it drops the
   * focus if it has it), so it is inert to keys, while it stays sensitive
   * and readable by assistive technologies and still takes pointer clicks.
   *
   * It does not move the focus to an active view: call
   * [method@Gtk.Widget.grab_focus] for that. %TRUE by default, for a view
   * shown on its own.
   *
   * Since: 0.1
   */
  props[PROP_ACTIVE] =
    g_param_spec_boolean ("active", NULL, NULL,
                          TRUE,
                          (G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));

  /**
   * AkcComponentView:error-message:
   *
   * The message the view shows as an alert: the diagnostic of a frame that
   * did not decode, or the last failure; %NULL when there is none.
   *
   * Since: 0.1
   */
  props[PROP_ERROR_MESSAGE] =
    g_param_spec_string ("error-message", NULL, NULL,
                         NULL,
                         (G_PARAM_READABLE | G_PARAM_STATIC_STRINGS));

  g_object_class_install_properties (object_class, N_PROPS, props);

  /**
   * AkcComponentView::interaction:
   * @self: the view
   * @event: the interaction event ([application §2.5](../Akc-1/wire-formats.html#application-2)): `protocol`,
   *   `version`, `type` (`interact`), `componentKey`, `instanceId`,
   *   `event` and, when there is one, `value`
   *
   * The person interacted with the component. The event was created and
   * validated by the catalog, and the instance is already resolved; if
   * handling it fails, call [method@ComponentView.fail] with
   * %AKC_COMPONENT_FAILURE_INTERACTION.
   *
   * Since: 0.1
   */
  signals[INTERACTION] =
    g_signal_new ("interaction",
                  G_TYPE_FROM_CLASS (klass),
                  G_SIGNAL_RUN_LAST,
                  0,
                  NULL, NULL,
                  NULL,
                  G_TYPE_NONE, 1,
                  AKC_TYPE_JSON_VALUE | G_SIGNAL_TYPE_STATIC_SCOPE);

  /**
   * AkcComponentView::selection:
   * @self: the view
   * @event: the selection event ([application §2.6](../Akc-1/wire-formats.html#application-2)): `protocol`,
   *   `version`, `type` (`select`), `componentKey`, `instanceId` and
   *   `choiceId`
   *
   * The person selected a choice of a choice list. The instance is already
   * resolved. The host proposes the choice's typed action, if any
   * ([method@Akc.ResolvedComponent.get_choice_action]), or runs the choice
   * submission hook, and reports failures with [method@ComponentView.fail].
   *
   * Since: 0.1
   */
  signals[SELECTION] =
    g_signal_new ("selection",
                  G_TYPE_FROM_CLASS (klass),
                  G_SIGNAL_RUN_LAST,
                  0,
                  NULL, NULL,
                  NULL,
                  G_TYPE_NONE, 1,
                  AKC_TYPE_JSON_VALUE | G_SIGNAL_TYPE_STATIC_SCOPE);

  /**
   * AkcComponentView::open-uri:
   * @self: the view
   * @uri: an absolute http or https URL
   *
   * Emitted when a source-list link is activated and nobody handles
   * [signal@ComponentView::interaction] ([application §12.7](../Akc-1/wire-formats.html#application-12)): after its
   * `open` event the first time, and at every later activation.
   * The default handler opens @uri with the desktop's browser (through
   * the portal when sandboxed); stop the emission to prevent that.
   *
   * Since: 0.1
   */
  signals[OPEN_URI] =
    g_signal_new_class_handler ("open-uri",
                                G_TYPE_FROM_CLASS (klass),
                                G_SIGNAL_RUN_LAST,
                                G_CALLBACK (akc_component_view_real_open_uri),
                                NULL, NULL,
                                NULL,
                                G_TYPE_NONE, 1,
                                G_TYPE_STRING);

  /**
   * AkcComponentView::link-activated:
   * @self: the view
   * @value: (nullable): the activated link's value, validated by the
   *   catalog: a source-list source's id or a link card's `href`
   *
   * The person activated a link of a source list or a link card. These
   * are navigation (docs/port-decisions.md): the `open` event of
   * [signal@ComponentView::interaction] is emitted once per instance, just
   * before the first of these, and the view is never resolved by it, so
   * its links keep working. A host opens the link here, at every
   * activation.
   *
   * Since: 0.1
   */
  signals[LINK_ACTIVATED] =
    g_signal_new ("link-activated",
                  G_TYPE_FROM_CLASS (klass),
                  G_SIGNAL_RUN_LAST,
                  0,
                  NULL, NULL,
                  NULL,
                  G_TYPE_NONE, 1,
                  AKC_TYPE_JSON_VALUE | G_SIGNAL_TYPE_STATIC_SCOPE);

  gtk_widget_class_set_template_from_resource (widget_class, "/io/agentskit/AkcGtk/akc-component-view.ui");
  gtk_widget_class_bind_template_child (widget_class, AkcComponentView, box);
  gtk_widget_class_bind_template_child (widget_class, AkcComponentView, error_label);

  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
  gtk_widget_class_set_css_name (widget_class, "componentview");
  gtk_widget_class_set_accessible_role (widget_class, GTK_ACCESSIBLE_ROLE_GENERIC);
}

static void
akc_component_view_init (AkcComponentView *self)
{
  self->active = TRUE;

  akc_gtk_init ();
  gtk_widget_init_template (GTK_WIDGET (self));
}

/**
 * akc_component_view_new:
 * @frame: a render frame: any JSON value
 * @manifest: (nullable): the manifest to resolve it against, or %NULL for
 *   the standard catalog
 *
 * Creates a view presenting @frame.
 *
 * Returns: (transfer none): a new floating #AkcComponentView
 *
 * Since: 0.1
 */
GtkWidget *
akc_component_view_new (AkcJsonValue         *frame,
                        AkcComponentManifest *manifest)
{
  g_return_val_if_fail (frame != NULL, NULL);
  g_return_val_if_fail (manifest == NULL || AKC_IS_COMPONENT_MANIFEST (manifest), NULL);

  return g_object_new (AKC_TYPE_COMPONENT_VIEW,
                       "frame", frame,
                       "manifest", manifest,
                       NULL);
}

/**
 * akc_component_view_get_frame:
 * @self: a #AkcComponentView
 *
 * Gets the frame the view presents.
 *
 * Returns: (transfer none) (nullable): the frame
 *
 * Since: 0.1
 */
AkcJsonValue *
akc_component_view_get_frame (AkcComponentView *self)
{
  g_return_val_if_fail (AKC_IS_COMPONENT_VIEW (self), NULL);

  return self->frame;
}

/**
 * akc_component_view_get_manifest:
 * @self: a #AkcComponentView
 *
 * Gets the manifest the frame was resolved against.
 *
 * Returns: (transfer none): the manifest
 *
 * Since: 0.1
 */
AkcComponentManifest *
akc_component_view_get_manifest (AkcComponentView *self)
{
  g_return_val_if_fail (AKC_IS_COMPONENT_VIEW (self), NULL);

  return self->manifest;
}

/**
 * akc_component_view_get_resolved_component:
 * @self: a #AkcComponentView
 *
 * Gets the frame resolved against the manifest.
 *
 * Returns: (transfer none) (nullable): the resolved component, or %NULL
 *   when the frame did not resolve
 *
 * Since: 0.1
 */
AkcResolvedComponent *
akc_component_view_get_resolved_component (AkcComponentView *self)
{
  g_return_val_if_fail (AKC_IS_COMPONENT_VIEW (self), NULL);

  return self->resolved_component;
}

/**
 * akc_component_view_get_component_key:
 * @self: a #AkcComponentView
 *
 * Gets the component key of the frame.
 *
 * Returns: (nullable): the key, or %NULL when the frame did not decode
 *
 * Since: 0.1
 */
const char *
akc_component_view_get_component_key (AkcComponentView *self)
{
  g_return_val_if_fail (AKC_IS_COMPONENT_VIEW (self), NULL);

  return frame_string (self->decoded, "componentKey");
}

/**
 * akc_component_view_get_instance_id:
 * @self: a #AkcComponentView
 *
 * Gets the instance id of the frame.
 *
 * Returns: (nullable): the instance id, or %NULL when the frame did not
 *   decode
 *
 * Since: 0.1
 */
const char *
akc_component_view_get_instance_id (AkcComponentView *self)
{
  g_return_val_if_fail (AKC_IS_COMPONENT_VIEW (self), NULL);

  return frame_string (self->decoded, "instanceId");
}

/**
 * akc_component_view_get_is_fallback:
 * @self: a #AkcComponentView
 *
 * Gets whether the view shows the semantic fallback.
 *
 * Returns: %TRUE for the semantic fallback
 *
 * Since: 0.1
 */
gboolean
akc_component_view_get_is_fallback (AkcComponentView *self)
{
  g_return_val_if_fail (AKC_IS_COMPONENT_VIEW (self), FALSE);

  return self->is_fallback;
}

/**
 * akc_component_view_get_content:
 * @self: a #AkcComponentView
 *
 * Gets the widget that presents the component: the native component
 * widget, the semantic fallback, or nothing.
 *
 * Returns: (transfer none) (nullable): the widget
 *
 * Since: 0.1
 */
GtkWidget *
akc_component_view_get_content (AkcComponentView *self)
{
  g_return_val_if_fail (AKC_IS_COMPONENT_VIEW (self), NULL);

  return self->content;
}

/**
 * akc_component_view_get_interactive:
 * @self: a #AkcComponentView
 *
 * Gets whether the view can own input now ([application §12.4](../Akc-1/wire-formats.html#application-12)).
 *
 * Returns: %TRUE if the view is interactive
 *
 * Since: 0.1
 */
gboolean
akc_component_view_get_interactive (AkcComponentView *self)
{
  g_return_val_if_fail (AKC_IS_COMPONENT_VIEW (self), FALSE);

  return self->resolved_component != NULL &&
         self->content != NULL &&
         !self->is_fallback &&
         !self->resolved &&
         akc_resolved_component_is_interactive (self->resolved_component);
}

/**
 * akc_component_view_get_resolved:
 * @self: a #AkcComponentView
 *
 * Gets whether the instance is resolved.
 *
 * Returns: %TRUE if resolved
 *
 * Since: 0.1
 */
gboolean
akc_component_view_get_resolved (AkcComponentView *self)
{
  g_return_val_if_fail (AKC_IS_COMPONENT_VIEW (self), FALSE);

  return self->resolved;
}

/* Tells the widget whether it is resolved and how it was answered. */
static void
show_answer (AkcComponentView *self)
{
  if (self->content != NULL && !self->is_fallback && AKC_IS_COMPONENT_WIDGET (self->content))
    akc_component_widget_show_answer (AKC_COMPONENT_WIDGET (self->content), self->resolved,
                                      self->resolved ? self->resolution : NULL);
}

/**
 * akc_component_view_set_resolved:
 * @self: a #AkcComponentView
 * @resolved: whether the instance is resolved
 *
 * Marks the instance resolved (inert and insensitive) or usable again.
 * Hosts use it to apply their set of resolved instance ids, and to reset
 * it when the session changes.
 *
 * Since: 0.1
 */
void
akc_component_view_set_resolved (AkcComponentView *self,
                                 gboolean          resolved)
{
  g_return_if_fail (AKC_IS_COMPONENT_VIEW (self));

  resolved = !!resolved;
  if (self->resolved == resolved)
    return;

  self->resolved = resolved;
  if (self->content != NULL && !self->is_fallback)
    {
      /* The keyboard leaves first, while the content can still hear it:
       * GTK takes the focus off a widget made insensitive without its
       * focus-out, so the entry of a form submitted with Enter kept its
       * cursor blinking ("GtkText - did not receive a focus-out event"). */
      if (resolved && focus_is_inside (self))
        gtk_root_set_focus (gtk_widget_get_root (GTK_WIDGET (self)), NULL);
      gtk_widget_set_sensitive (self->content, !resolved);
      sync_disabled_state (self->content, resolved);
    }
  show_answer (self);

  g_object_notify_by_pspec (G_OBJECT (self), props[PROP_RESOLVED]);
  g_object_notify_by_pspec (G_OBJECT (self), props[PROP_INTERACTIVE]);
}

/**
 * akc_component_view_set_resolution:
 * @self: a #AkcComponentView
 * @resolution: (nullable): how the instance was answered, or %NULL
 *
 * Shows how a resolved instance was answered ([application §12.7](../Akc-1/wire-formats.html#application-12)), such
 * as the chosen option of a choice list ("You chose: …"), for example an
 * answer read back from the history after a restart. It is shown while
 * the view is [property@ComponentView:resolved]. A resolution of another
 * instance is ignored.
 *
 * Since: 0.1
 */
void
akc_component_view_set_resolution (AkcComponentView       *self,
                                   AkcComponentResolution *resolution)
{
  const char *instance_id;

  g_return_if_fail (AKC_IS_COMPONENT_VIEW (self));
  g_return_if_fail (resolution == NULL || AKC_IS_COMPONENT_RESOLUTION (resolution));

  instance_id = akc_component_view_get_instance_id (self);
  if (resolution != NULL &&
      g_strcmp0 (akc_component_resolution_get_instance_id (resolution), instance_id) != 0)
    return;

  if (g_set_object (&self->resolution, resolution))
    show_answer (self);
}

/**
 * akc_component_view_get_resolution:
 * @self: a #AkcComponentView
 *
 * Gets how the instance was answered, as set by
 * [method@ComponentView.set_resolution].
 *
 * Returns: (transfer none) (nullable): the resolution, or %NULL
 *
 * Since: 0.1
 */
AkcComponentResolution *
akc_component_view_get_resolution (AkcComponentView *self)
{
  g_return_val_if_fail (AKC_IS_COMPONENT_VIEW (self), NULL);

  return self->resolution;
}

/**
 * akc_component_view_get_active:
 * @self: a #AkcComponentView
 *
 * Gets whether the view may react to keys.
 *
 * Returns: %TRUE if the view is active
 *
 * Since: 0.1
 */
gboolean
akc_component_view_get_active (AkcComponentView *self)
{
  g_return_val_if_fail (AKC_IS_COMPONENT_VIEW (self), FALSE);

  return self->active;
}

/**
 * akc_component_view_set_active:
 * @self: a #AkcComponentView
 * @active: whether the view may react to keys
 *
 * Makes the view the one that may react to keys, or inert to keys
 * ([application §12.4](../Akc-1/wire-formats.html#application-12)); see [property@ComponentView:active]. Making it
 * inactive while the focus is inside it drops the focus, which the host
 * then gives to the active component or the composer.
 *
 * Since: 0.1
 */
void
akc_component_view_set_active (AkcComponentView *self,
                               gboolean          active)
{
  g_return_if_fail (AKC_IS_COMPONENT_VIEW (self));

  active = !!active;
  if (self->active == active)
    return;

  self->active = active;
  if (self->content != NULL)
    {
      /* can-focus covers the whole subtree: Tab skips it and
       * gtk_widget_grab_focus() (a click included) is refused. It does
       * not take away a focus already inside. Navigation stays
       * reachable. */
      sync_can_focus (self);
      if (!active && !is_navigation (self) && focus_is_inside (self))
        gtk_root_set_focus (gtk_widget_get_root (GTK_WIDGET (self)), NULL);
    }

  g_object_notify_by_pspec (G_OBJECT (self), props[PROP_ACTIVE]);
}

/**
 * akc_component_view_get_error_message:
 * @self: a #AkcComponentView
 *
 * Gets the message the view shows as an alert.
 *
 * Returns: (nullable): the message
 *
 * Since: 0.1
 */
const char *
akc_component_view_get_error_message (AkcComponentView *self)
{
  g_return_val_if_fail (AKC_IS_COMPONENT_VIEW (self), NULL);

  return self->error_message;
}

/**
 * akc_component_view_fail:
 * @self: a #AkcComponentView
 * @failure: what failed
 * @message: (nullable): the error message, or %NULL for the default of
 *   @failure
 *
 * Reports that the host's handling of the last event failed
 * ([application §12.7](../Akc-1/wire-formats.html#application-12)): shows @message (or the default message of
 * @failure) as an alert and, for every failure but
 * %AKC_COMPONENT_FAILURE_SELECTION and %AKC_COMPONENT_FAILURE_SETTLEMENT,
 * un-resolves the instance so the person can try again; the keyboard
 * focus returns to the component when it was there.
 *
 * Since: 0.1
 */
void
akc_component_view_fail (AkcComponentView    *self,
                         AkcComponentFailure  failure,
                         const char          *message)
{
  g_return_if_fail (AKC_IS_COMPONENT_VIEW (self));
  g_return_if_fail ((guint) failure < G_N_ELEMENTS (failures));

  if (failure == AKC_COMPONENT_FAILURE_SUBMISSION_EXPIRED || message == NULL || *message == '\0')
    message = _(failures[failure].message);

  if (failures[failure].unresolve)
    {
      akc_component_view_set_resolved (self, FALSE);
      if (self->had_focus)
        gtk_widget_grab_focus (GTK_WIDGET (self));
    }

  set_error (self, message, NULL);
}

/**
 * akc_component_view_emit_event:
 * @self: a #AkcComponentView
 * @event: the name of an event the component's definition declares
 * @value: (nullable): the value of the event, as its definition describes
 *   it, or %NULL for none
 *
 * Emits an event of the component as the person caused it: the widget a
 * host registered with [method@ChatView.register_component] calls it when
 * the person acts on it.
 *
 * The event goes the way the events of the standard widgets go (§12.7):
 * a resolved instance ignores it; the catalog turns it into the wire
 * event with [method@Akc.ResolvedComponent.create_interaction] (a value
 * the definition refuses is shown as the view's error and the instance
 * stays open); otherwise the view becomes
 * [property@ComponentView:resolved] before
 * [signal@ComponentView::interaction] is emitted, so an instance answers
 * once.
 *
 * Since: 0.1
 */
void
akc_component_view_emit_event (AkcComponentView *self,
                               const char       *event,
                               AkcJsonValue     *value)
{
  g_return_if_fail (AKC_IS_COMPONENT_VIEW (self));
  g_return_if_fail (event != NULL);

  on_request (NULL, event, value, self);
}
