/* akc-chat-view-private.h: what the parts of an AkcChatView share, and
 * what the tests reach in one
 *
 * SPDX-License-Identifier: MIT
 *
 * Internal to libakc-gtk (not installed, not scanned). The view is split
 * by job, the way GNOME Text Editor splits its window:
 *
 *   akc-chat-view.c           the type, its properties, the source
 *   akc-chat-view-announce.c  what is said to assistive technologies
 *   akc-chat-view-scroll.c    sticky scrolling, paging in history
 *   akc-chat-view-input.c     input ownership (§12.4)
 *   akc-chat-view-actions.c   the chat.* actions and confirmations
 *   akc-chat-view-keyboard.c  the transcript as a focus stop
 *   akc-chat-view-rows.c      the list factory, the rows below messages
 *   akc-chat-view-theme.c     the semantic theme
 *   akc-chat-view-find.c      finding text in the transcript
 *   akc-chat-view-messages.c  the actions of one message
 */

#pragma once

#include "akc-chat-view.h"
#include "akc-component-view.h"
#include "akc-message-row.h"
#include "akc-message-window-private.h"
#include "akc-tool-confirmation-row-private.h"

G_BEGIN_DECLS

/* Spinners appear only when a wait is noticeable. */
#define THINKING_DELAY_MS 150
/* How long an announcement stays in a description (GTK < 4.14). */
#define ANNOUNCE_CLEAR_MS 1500
/* How much of a reply is read out when it is finished. */
#define ANNOUNCE_MAX_CHARS 2000
/* Messages given to the list view at first, about a window's height, and
 * added each time the reader nears the top (see AkcMessageWindow). */
#define FIRST_PAGE 6
#define HISTORY_PAGE 10
/* Pixels from the end that still count as "at the end". */
#define BOTTOM_SLACK 2.0
#define JUMP_BUTTON_MARGIN 12

/* The kinds of rows below the messages, as the strings of their items. */
#define EXTRA_THINKING "thinking"
#define EXTRA_ERROR "error"
#define EXTRA_ACTIONS "actions"

/* The find in the transcript (akc-chat-view-find.c). */
typedef struct _AkcChatViewFind AkcChatViewFind;

struct _AkcChatView
{
  GtkWidget             parent_instance;

  GtkListView          *list_view;
  GtkWidget            *jump_button;
  GtkWidget            *focus_hint;
  GHashTable           *items;          /* bound row → the object it shows */
  GObject              *focus_pending;  /* the object whose row is to take the focus */
  guint                 focus_pending_idle;
  guint                 refocus_idle;
  GtkWidget            *last_focus;     /* weak: the focus before the latest change */
  GtkWidget            *parked_from;    /* weak: the focus GTK moved to the list */
  guint                 parked_idle;
  GtkWidget            *unseen_focus;   /* weak: the focus GTK took from a row out of sight */
  GtkWidget            *unseen_parking; /* weak: where GTK put it meanwhile */
  gulong                unseen_map_handler;
  guint                 unseen_idle;
  gboolean              leaving;
  /* The component that owns input had the keyboard (owner_focus, in the
   * row owner_item) and GTK took it away without anybody moving it (its
   * row went out of sight or was made anew): it is the component's again
   * once it is on screen. */
  gboolean              owner_focused;
  gboolean              owner_lost;
  GtkWidget            *owner_focus;    /* weak */
  GtkWidget            *owner_item;     /* weak */
  guint                 reclaim_idle;
  GtkRoot              *focus_root;     /* whose focus-widget is followed */
  gulong                focus_handler;

  AkcChatSource        *source;
  GListModel           *messages;
  AkcMessageWindow     *window;
  /* The messages of the window a person needs to read (issue 13 item 6). */
  GtkFilterListModel   *shown;
  GtkFilter            *shown_filter;
  guint                 deferred_idle;
  gulong                after_paint_handler;
  gboolean              extend_pending;
  gboolean              scan_pending;
  AkcComponentManifest *manifest;
  AkcActionConfirmation *confirmation;
  /* A call whose confirmation takes the keyboard once it is shown (one
   * proposed from a choice of this view, or the one a reply ended with):
   * akc_chat_view_focus_confirmation(). */
  char                 *focus_call_id;
  AkcInputOwnership    *ownership;     /* the interaction controller's */
  AkcInteractionController *interaction;

  GListStore           *extras;       /* AkcToolCall, GtkStringObject */
  GListStore           *sections;     /* the messages, then the extras */
  GtkFlattenListModel  *model;
  GtkListItemFactory   *factory;
  GHashTable           *rows;         /* bound AkcMessageRow → itself */
  GtkStringObject      *thinking_item;
  GtkStringObject      *error_item;
  GtkStringObject      *actions_item;
  gboolean              actions_retry;  /* whether actions_item offers Retry */

  /* Errors stay where they happened: the message the current error came
   * with, and the errors of earlier turns by message id. */
  char                 *error_message_id;
  char                 *error_shown;
  GHashTable           *past_errors;    /* message id → error text */

  gulong                items_handler;
  gulong                status_handler;
  gulong                error_handler;
  gulong                hidden_handler;
  gulong                ownership_handler;
  AkcChatStatus         status;

  /* Tool calls that may change what is confirmed: those of the last
   * message and those waiting for a confirmation. */
  AkcMessage           *watched_message;
  GPtrArray            *watched_calls;
  GPtrArray            *pending_calls;   /* AkcToolCall awaiting confirmation, in order */

  GtkAdjustment        *vadjustment;
  gulong                value_handler;
  gulong                changed_handler;
  gboolean              stick_to_bottom;
  gboolean              at_bottom;
  guint                 follow_tick;
  gboolean              allocating;

  AkcMessage           *active_message;
  char                 *active_instance_id;
  int                   active_presentation;
  gboolean              focus_active_pending;
  guint                 active_idle;

  char                 *action_error;
  gboolean              editing;
  char                 *edit_message_id;
  char                 *edit_draft;
  gboolean              focus_editor_pending;
  GWeakRef              editor;
  guint                 focus_idle;

  guint                 thinking_timeout;
  gboolean              thinking_shown;
  guint                 announce_idle;
  GWeakRef              announce_target;
  guint                 announce_timeout;

  guint                 n_binds;

  AkcTheme             *theme;
  char                 *theme_class;    /* "akc-theme-N", unique to this view */
  GtkCssProvider       *theme_provider;
  GdkDisplay           *theme_display;  /* where theme_provider is installed */

  AkcChatViewFind      *find;           /* NULL until something is found */
};

enum {
  PROP_0,
  PROP_SOURCE,
  PROP_MANIFEST,
  PROP_INPUT_OWNED,
  PROP_AT_BOTTOM,
  PROP_EDITING,
  PROP_ACTION_ERROR,
  PROP_THEME,
  PROP_CONFIRMATION,
  PROP_INTERACTION,
  PROP_SEARCH_TEXT,
  PROP_N_MATCHES,
  PROP_MATCH_POSITION,
  N_PROPS,

  PROP_HADJUSTMENT = N_PROPS,
  PROP_VADJUSTMENT,
  PROP_HSCROLL_POLICY,
  PROP_VSCROLL_POLICY,
};

extern GParamSpec *akc_chat_view_props[N_PROPS];

enum {
  COMPONENT_INTERACTION,
  COMPONENT_SELECTION,
  MESSAGE_DELETED,
  N_SIGNALS
};

extern guint akc_chat_view_signals[N_SIGNALS];

/* akc-chat-view.c */
gboolean           akc_chat_view_is_streaming        (AkcChatView *self);
void               akc_chat_view_sync                (AkcChatView *self);
void               akc_chat_view_scan_conversation   (AkcChatView *self);

/* akc-chat-view-announce.c */
void               akc_chat_view_announce            (AkcChatView *self,
                                                      const char  *message);
gboolean           akc_chat_view_announce_turn_end   (gpointer     user_data);
void               akc_chat_view_clear_announcements (AkcChatView *self);

/* akc-chat-view-scroll.c */
void               akc_chat_view_set_at_bottom       (AkcChatView *self,
                                                      gboolean     at_bottom);
void               akc_chat_view_scroll_to_end       (AkcChatView *self);
void               akc_chat_view_defer               (AkcChatView *self);
void               akc_chat_view_on_after_paint      (AkcChatView *self);
void               akc_chat_view_track_vadjustment   (AkcChatView *self);

/* akc-chat-view-input.c */
void               akc_chat_view_apply_active_to_row (AkcChatView   *self,
                                                      AkcMessageRow *row);
gboolean           akc_chat_view_focus_active_idle   (gpointer       user_data);
void               akc_chat_view_sync_ownership      (AkcChatView   *self);
void               akc_chat_view_sync_focus_hint     (AkcChatView   *self);
void               akc_chat_view_follow_focus        (AkcChatView   *self,
                                                      GtkRoot       *root);

/* akc-chat-view-actions.c */
void               akc_chat_view_class_install_actions (GtkWidgetClass *widget_class);
void               akc_chat_view_set_action_error    (AkcChatView  *self,
                                                      const char   *message);
gboolean           akc_chat_view_lifecycle_targets   (AkcChatView  *self,
                                                      char        **user_id,
                                                      char        **assistant_id);
void               akc_chat_view_sync_actions        (AkcChatView  *self);
void               akc_chat_view_set_editing         (AkcChatView  *self,
                                                      gboolean      editing,
                                                      const char   *message_id,
                                                      const char   *draft);
void               akc_chat_view_on_row_selection    (AkcMessageRow    *row,
                                                      AkcComponentView *view,
                                                      AkcJsonValue     *event,
                                                      AkcChatView      *self);
void               akc_chat_view_on_row_interaction  (AkcMessageRow    *row,
                                                      AkcComponentView *view,
                                                      AkcJsonValue     *event,
                                                      AkcChatView      *self);
void               akc_chat_view_on_row_link_activated (AkcMessageRow    *row,
                                                        AkcComponentView *view,
                                                        AkcJsonValue     *value,
                                                        AkcChatView      *self);

/* akc-chat-view-rows.c */
GtkListItemFactory *akc_chat_view_create_factory     (AkcChatView *self);
gboolean           akc_chat_view_message_is_shown    (AkcMessage  *message,
                                                      AkcChatView *self);
void               akc_chat_view_refilter            (AkcChatView *self);
guint              akc_chat_view_get_shown_position  (AkcChatView *self,
                                                      AkcMessage  *message);
void               akc_chat_view_sync_extras         (AkcChatView *self);
void               akc_chat_view_sync_error          (AkcChatView *self);

/* akc-chat-view-keyboard.c */
void               akc_chat_view_focus_moved         (AkcChatView *self);
void               akc_chat_view_forget_owner_focus  (AkcChatView *self);
void               akc_chat_view_show_focus          (GtkWidget   *widget);
void               akc_chat_view_forget_unseen_focus (AkcChatView *self);
void               akc_chat_view_leave_decided       (AkcChatView *self);
void               akc_chat_view_sync_thinking       (AkcChatView *self);
void               akc_chat_view_scan_tool_calls     (AkcChatView *self);
void               akc_chat_view_sync_row_calls      (AkcChatView   *self,
                                                      AkcMessageRow *row);
void               akc_chat_view_sync_rows_calls     (AkcChatView *self);
void               akc_chat_view_unwatch_calls       (AkcChatView *self);
void               akc_chat_view_watch_last_message  (AkcChatView *self,
                                                      AkcMessage  *last);
void               akc_chat_view_focus_when_mapped   (GtkWidget   *widget);

/* akc-chat-view-actions.c: the confirmation of @call_id takes the
 * keyboard on Deny once it is on screen, unless the person is writing
 * (the same for an action chosen in a component and for a model's call
 * a reply ended with). */
void               akc_chat_view_focus_confirmation  (AkcChatView *self,
                                                      const char  *call_id);

/* akc-chat-view-keyboard.c */
void               akc_chat_view_init_keyboard       (AkcChatView      *self);
gboolean           akc_chat_view_move_focus          (AkcChatView      *self,
                                                      GtkDirectionType  direction,
                                                      gboolean         *handled);
void               akc_chat_view_item_bound          (AkcChatView      *self,
                                                      GtkWidget        *item,
                                                      GObject          *object);
gboolean           akc_chat_view_focus_pending_idle  (gpointer          user_data);
void               akc_chat_view_item_unbound        (AkcChatView      *self,
                                                      GtkWidget        *item);

/* akc-chat-view-theme.c */
void               akc_chat_view_install_theme_provider   (AkcChatView *self);
void               akc_chat_view_uninstall_theme_provider (AkcChatView *self);

/* akc-chat-view-messages.c */
void               akc_chat_view_class_install_message_actions (GtkWidgetClass *widget_class);
void               akc_chat_view_sync_message_actions (AkcChatView   *self);
char              *akc_chat_view_message_text         (AkcChatView   *self,
                                                       AkcMessage    *message,
                                                       gboolean       plain);

/* akc-chat-view-find.c */
void               akc_chat_view_find_class_init      (GObjectClass  *object_class);
void               akc_chat_view_find_dispose         (AkcChatView   *self);
void               akc_chat_view_find_messages_changed (AkcChatView  *self);
void               akc_chat_view_find_source_changed  (AkcChatView   *self);
void               akc_chat_view_find_bind_row        (AkcChatView   *self,
                                                       AkcMessageRow *row);

/* For the tests. */
GtkListView       *akc_chat_view_get_list_view   (AkcChatView *self);
GtkWidget         *akc_chat_view_get_jump_button (AkcChatView *self);
guint              akc_chat_view_get_n_binds     (AkcChatView *self);
AkcMessageRow     *akc_chat_view_get_row         (AkcChatView *self,
                                                  AkcMessage  *message);
AkcInputOwnership *akc_chat_view_get_ownership   (AkcChatView *self);
GtkCssProvider    *akc_chat_view_get_theme_provider (AkcChatView *self);
const char        *akc_chat_view_get_theme_class (AkcChatView *self);

G_END_DECLS
