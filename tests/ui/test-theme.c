/* test-theme.c: a semantic theme applied to AkcChatView (application.md
 * §6.4), in process
 *
 * SPDX-License-Identifier: MIT
 */

#include "config.h"

#include <string.h>
#include <locale.h>
#include <akc-gtk.h>

#include "akc-chat-view-private.h"
#include "akc-theme-css-private.h"
#include "akc-test-ui.h"

static AkcTheme *
theme_from (const char *json)
{
  g_autoptr(GError) error = NULL;
  AkcTheme *theme = akc_theme_resolve_text (json, -1, &error);

  g_assert_no_error (error);
  return theme;
}

/* The computed style of @widget (GTK 4.8 has no gtk_widget_get_color ()). */
G_GNUC_BEGIN_IGNORE_DEPRECATIONS
static GdkRGBA
color_of (GtkWidget *widget)
{
  GdkRGBA rgba;

  gtk_style_context_get_color (gtk_widget_get_style_context (widget), &rgba);
  return rgba;
}

static GtkBorder
padding_of (GtkWidget *widget)
{
  GtkBorder border;

  gtk_style_context_get_padding (gtk_widget_get_style_context (widget), &border);
  return border;
}
G_GNUC_END_IGNORE_DEPRECATIONS

static void
assert_color (GtkWidget  *widget,
              const char *expected)
{
  GdkRGBA actual = color_of (widget);
  GdkRGBA want;
  g_autofree char *actual_text = gdk_rgba_to_string (&actual);

  g_assert_true (gdk_rgba_parse (&want, expected));
  if (!gdk_rgba_equal (&actual, &want))
    g_error ("%s: colour %s, expected %s", G_OBJECT_TYPE_NAME (widget), actual_text, expected);
}

/* ------------------------------------------------------------------ */
/* A window with a chat view                                           */
/* ------------------------------------------------------------------ */

typedef struct {
  GtkWidget          *window;
  AkcChatView        *view;
  AkcChat            *chat;
  AkcScriptedAdapter *script;
} Fixture;

/* A chat of two messages and its view, in a scroller (returned). */
static GtkWidget *
fixture_make_view (Fixture *fixture)
{
  AkcAdapter *adapter = akc_scripted_adapter_new ();
  g_autoptr(AkcMessage) question = akc_message_new ("m0", AKC_MESSAGE_ROLE_USER, "Question?", AKC_MESSAGE_STATUS_COMPLETE);
  g_autoptr(AkcMessage) answer = akc_message_new ("m1", AKC_MESSAGE_ROLE_ASSISTANT, "Answer.", AKC_MESSAGE_STATUS_COMPLETE);
  AkcMessage *messages[] = { question, answer };
  GtkWidget *scroller;

  fixture->script = AKC_SCRIPTED_ADAPTER (adapter);
  fixture->chat = akc_chat_new (adapter);
  g_object_unref (adapter);
  akc_chat_restore (fixture->chat, messages, G_N_ELEMENTS (messages));

  fixture->view = AKC_CHAT_VIEW (akc_chat_view_new ());
  akc_chat_view_set_source (fixture->view, AKC_CHAT_SOURCE (fixture->chat));

  scroller = gtk_scrolled_window_new ();
  gtk_scrolled_window_set_policy (GTK_SCROLLED_WINDOW (scroller), GTK_POLICY_NEVER, GTK_POLICY_AUTOMATIC);
  gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (scroller), GTK_WIDGET (fixture->view));
  gtk_widget_set_hexpand (scroller, TRUE);

  return scroller;
}

static void
fixture_init (Fixture *fixture)
{
  GtkWidget *scroller = fixture_make_view (fixture);

  fixture->window = gtk_window_new ();
  gtk_window_set_default_size (GTK_WINDOW (fixture->window), 500, 400);
  gtk_window_set_child (GTK_WINDOW (fixture->window), scroller);
  gtk_window_present (GTK_WINDOW (fixture->window));
  wait_frames (fixture->window, 3);
}

/* Two views side by side in one window. */
static void
fixture_init_pair (Fixture *a,
                   Fixture *b)
{
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 0);

  gtk_box_append (GTK_BOX (box), fixture_make_view (a));
  gtk_box_append (GTK_BOX (box), fixture_make_view (b));
  a->window = b->window = gtk_window_new ();
  gtk_window_set_default_size (GTK_WINDOW (a->window), 800, 400);
  gtk_window_set_child (GTK_WINDOW (a->window), box);
  gtk_window_present (GTK_WINDOW (a->window));
  wait_frames (a->window, 3);
}

static void
fixture_clear (Fixture *fixture)
{
  if (fixture->window != NULL)
    gtk_window_destroy (GTK_WINDOW (fixture->window));
  spin ();
  g_assert_finalize_object (fixture->chat);
}

static AkcMessage *
message_at (Fixture *fixture,
            guint    position)
{
  g_autoptr(AkcMessage) message = g_list_model_get_item (akc_chat_source_get_messages (AKC_CHAT_SOURCE (fixture->chat)),
                                                         position);

  return message;   /* the model keeps it alive */
}

static gboolean
has_row (Fixture *fixture)
{
  guint n = g_list_model_get_n_items (akc_chat_source_get_messages (AKC_CHAT_SOURCE (fixture->chat)));

  return n > 0 && akc_chat_view_get_row (fixture->view, message_at (fixture, n - 1)) != NULL;
}

/* The `.bubble` of the row of the message at @position. */
static GtkWidget *
bubble_at (Fixture *fixture,
           guint    position)
{
  GtkWidget *row = GTK_WIDGET (akc_chat_view_get_row (fixture->view, message_at (fixture, position)));
  GPtrArray *stack = g_ptr_array_new ();
  GtkWidget *found = NULL;

  g_assert_nonnull (row);
  g_ptr_array_add (stack, row);
  while (stack->len > 0 && found == NULL)
    {
      GtkWidget *w = g_ptr_array_steal_index (stack, stack->len - 1);

      if (gtk_widget_has_css_class (w, "bubble"))
        found = w;
      for (GtkWidget *c = gtk_widget_get_first_child (w); c != NULL; c = gtk_widget_get_next_sibling (c))
        g_ptr_array_add (stack, c);
    }
  g_ptr_array_unref (stack);

  g_assert_nonnull (found);
  return found;
}

#define THEME_A \
  "{\"colors\":{\"text\":\"#112233\",\"accent\":\"#abcdef\",\"onAccent\":\"#010203\",\"background\":\"#fefefe\"}," \
  "\"spacing\":{\"medium\":20}}"
#define THEME_B \
  "{\"colors\":{\"text\":\"#e6edf3\",\"accent\":\"#6157ff\",\"onAccent\":\"#ffffff\",\"background\":\"#0d1117\"," \
  "\"surface\":\"#161b22\"},\"spacing\":{\"medium\":6},\"fontFamily\":\"Cantarell\"}"

/* ------------------------------------------------------------------ */
/* Tests                                                               */
/* ------------------------------------------------------------------ */

static void
test_theme_applies (void)
{
  Fixture fixture = { 0 };
  g_autoptr(AkcTheme) theme = theme_from (THEME_A);
  g_autofree char *css = NULL;
  GdkRGBA platform;
  GtkBorder padding;

  fixture_init (&fixture);
  g_assert_null (akc_chat_view_get_theme (fixture.view));
  g_assert_null (akc_chat_view_get_theme_provider (fixture.view));
  platform = color_of (bubble_at (&fixture, 0));

  akc_chat_view_set_theme (fixture.view, theme);
  g_assert_true (akc_chat_view_get_theme (fixture.view) == theme);
  g_assert_true (gtk_widget_has_css_class (GTK_WIDGET (fixture.view), akc_chat_view_get_theme_class (fixture.view)));
  wait_frames (fixture.window, 2);

  /* The view, the user bubble and the assistant bubble take the tokens. */
  assert_color (GTK_WIDGET (fixture.view), "#112233");
  assert_color (bubble_at (&fixture, 0), "#010203");
  assert_color (bubble_at (&fixture, 1), "#112233");
  g_assert_false (gdk_rgba_equal (&platform, &(GdkRGBA) { 0x01 / 255.0, 0x02 / 255.0, 0x03 / 255.0, 1 }));
  padding = padding_of (bubble_at (&fixture, 1));
  g_assert_cmpint (padding.top, ==, 20);
  g_assert_cmpint (padding.left, ==, 20);

  /* The style sheet: named colours of this view, no font for `system`. */
  css = gtk_css_provider_to_string (akc_chat_view_get_theme_provider (fixture.view));
  g_assert_nonnull (strstr (css, "akc_theme_"));
  g_assert_nonnull (strstr (css, "rgb(171,205,239)"));
  g_assert_null (strstr (css, "font-family"));

  fixture_clear (&fixture);
}

static void
count_notify (GObject    *object,
              GParamSpec *pspec,
              guint      *count)
{
  (*count)++;
}

static void
test_theme_replaces (void)
{
  Fixture fixture = { 0 };
  g_autoptr(AkcTheme) first = theme_from (THEME_A);
  g_autoptr(AkcTheme) second = theme_from (THEME_B);
  g_autoptr(AkcTheme) same = theme_from (THEME_B);
  GtkCssProvider *provider;
  g_autofree char *css = NULL;
  GdkRGBA platform;
  guint notified = 0;

  fixture_init (&fixture);
  platform = color_of (GTK_WIDGET (fixture.view));
  g_signal_connect (fixture.view, "notify::theme", G_CALLBACK (count_notify), &notified);

  akc_chat_view_set_theme (fixture.view, first);
  provider = akc_chat_view_get_theme_provider (fixture.view);
  g_assert_cmpuint (notified, ==, 1);

  /* The second theme replaces the first in the same provider. */
  g_object_set (fixture.view, "theme", second, NULL);
  g_assert_cmpuint (notified, ==, 2);
  g_assert_true (akc_chat_view_get_theme_provider (fixture.view) == provider);
  wait_frames (fixture.window, 2);
  assert_color (GTK_WIDGET (fixture.view), "#e6edf3");
  assert_color (bubble_at (&fixture, 0), "#ffffff");
  assert_color (bubble_at (&fixture, 1), "#e6edf3");
  g_assert_cmpint (padding_of (bubble_at (&fixture, 1)).top, ==, 6);
  css = gtk_css_provider_to_string (provider);
  g_assert_null (strstr (css, "rgb(171,205,239)"));
  g_assert_nonnull (strstr (css, "Cantarell"));

  /* An equal theme changes nothing. */
  akc_chat_view_set_theme (fixture.view, same);
  g_assert_cmpuint (notified, ==, 2);
  g_assert_true (akc_chat_view_get_theme (fixture.view) == second);

  /* No theme: the platform's style again. */
  akc_chat_view_set_theme (fixture.view, NULL);
  g_assert_cmpuint (notified, ==, 3);
  g_assert_null (akc_chat_view_get_theme_provider (fixture.view));
  g_assert_false (gtk_widget_has_css_class (GTK_WIDGET (fixture.view), akc_chat_view_get_theme_class (fixture.view)));
  wait_frames (fixture.window, 2);
  {
    GdkRGBA now = color_of (GTK_WIDGET (fixture.view));

    g_assert_true (gdk_rgba_equal (&now, &platform));
  }

  fixture_clear (&fixture);
}

static void
test_theme_invalid_keeps_previous (void)
{
  Fixture fixture = { 0 };
  g_autoptr(AkcTheme) theme = theme_from (THEME_A);
  g_autoptr(GError) error = NULL;
  g_autoptr(AkcTheme) invalid = NULL;

  fixture_init (&fixture);
  akc_chat_view_set_theme (fixture.view, theme);

  /* Resolution is where a bad theme fails; the view keeps its theme. */
  invalid = akc_theme_resolve_text ("{\"colors\":{\"text\":\"red\"}}", -1, &error);
  g_assert_error (error, AKC_ERROR, AKC_ERROR_CONFIG_INVALID);
  g_assert_null (invalid);
  if (invalid != NULL)
    akc_chat_view_set_theme (fixture.view, invalid);
  wait_frames (fixture.window, 2);
  g_assert_true (akc_chat_view_get_theme (fixture.view) == theme);
  assert_color (GTK_WIDGET (fixture.view), "#112233");

  fixture_clear (&fixture);
}

static gboolean
reply_is_done (Fixture *fixture)
{
  GListModel *messages = akc_chat_source_get_messages (AKC_CHAT_SOURCE (fixture->chat));
  guint n = g_list_model_get_n_items (messages);

  return n == 4 &&
         akc_chat_source_get_status (AKC_CHAT_SOURCE (fixture->chat)) == AKC_CHAT_STATUS_IDLE &&
         g_strcmp0 (akc_message_get_content (message_at (fixture, n - 1)), "Themed reply.") == 0;
}

static void
test_theme_view_stays_usable (void)
{
  Fixture fixture = { 0 };
  g_autoptr(AkcTheme) theme = theme_from (THEME_B);
  g_autoptr(GError) error = NULL;
  guint n;

  fixture_init (&fixture);
  akc_chat_view_set_theme (fixture.view, theme);
  wait_frames (fixture.window, 2);

  /* A new turn under the theme: new rows are themed too. */
  akc_scripted_adapter_begin_turn (fixture.script);
  akc_scripted_adapter_add_text (fixture.script, "Themed reply.", 0);
  akc_scripted_adapter_add_done (fixture.script, 0);
  g_assert_true (akc_chat_source_send (AKC_CHAT_SOURCE (fixture.chat), "Another question", &error));
  g_assert_no_error (error);
  WAIT_FOR (reply_is_done, &fixture);
  WAIT_FOR (has_row, &fixture);
  wait_frames (fixture.window, 2);
  n = g_list_model_get_n_items (akc_chat_source_get_messages (AKC_CHAT_SOURCE (fixture.chat)));
  g_assert_cmpuint (n, ==, 4);
  assert_color (bubble_at (&fixture, n - 2), "#ffffff");
  assert_color (bubble_at (&fixture, n - 1), "#e6edf3");

  /* The actions still act, and the view still takes the focus. */
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (fixture.view), "chat.edit", NULL));
  spin ();
  g_assert_true (akc_chat_view_get_editing (fixture.view));
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (fixture.view), "chat.cancel-edit", NULL));
  spin ();
  g_assert_false (akc_chat_view_get_editing (fixture.view));

  fixture_clear (&fixture);
}

static gboolean
editor_shown (Fixture *fixture)
{
  return find_widget (GTK_WIDGET (fixture->view), is_mapped_type, GSIZE_TO_POINTER (GTK_TYPE_TEXT_VIEW)) != NULL;
}

/* In the platform's dark style, a light theme keeps its own text colours
 * everywhere it sets a fill, the inline editor included. */
static void
test_theme_dark_style (void)
{
  Fixture fixture = { 0 };
  g_autoptr(AkcTheme) theme = theme_from (THEME_A);
  GtkSettings *settings = gtk_settings_get_default ();
  GdkRGBA light_text;
  GdkRGBA dark_text;

  fixture_init (&fixture);
  light_text = color_of (GTK_WIDGET (fixture.view));
  g_object_set (settings, "gtk-application-prefer-dark-theme", TRUE, NULL);
  wait_frames (fixture.window, 2);
  dark_text = color_of (GTK_WIDGET (fixture.view));
  /* The platform's text did turn light. */
  g_assert_false (gdk_rgba_equal (&light_text, &dark_text));
  g_assert_cmpfloat (dark_text.red + dark_text.green + dark_text.blue, >, 1.5);

  akc_chat_view_set_theme (fixture.view, theme);
  wait_frames (fixture.window, 2);
  assert_color (GTK_WIDGET (fixture.view), "#112233");
  assert_color (bubble_at (&fixture, 0), "#010203");
  assert_color (bubble_at (&fixture, 1), "#112233");

  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (fixture.view), "chat.edit", NULL));
  WAIT_FOR (editor_shown, &fixture);
  wait_frames (fixture.window, 2);
  assert_color (find_widget (GTK_WIDGET (fixture.view), is_mapped_type, GSIZE_TO_POINTER (GTK_TYPE_TEXT_VIEW)), "#112233");

  g_object_set (settings, "gtk-application-prefer-dark-theme", FALSE, NULL);
  fixture_clear (&fixture);
}

static void
test_theme_two_views (void)
{
  Fixture a = { 0 };
  Fixture b = { 0 };
  g_autoptr(AkcTheme) light = theme_from (THEME_A);
  g_autoptr(AkcTheme) dark = theme_from (THEME_B);

  fixture_init_pair (&a, &b);
  akc_chat_view_set_theme (a.view, light);
  akc_chat_view_set_theme (b.view, dark);
  g_assert_cmpstr (akc_chat_view_get_theme_class (a.view), !=, akc_chat_view_get_theme_class (b.view));
  wait_frames (a.window, 2);

  /* Each view keeps its own theme. */
  assert_color (GTK_WIDGET (a.view), "#112233");
  assert_color (GTK_WIDGET (b.view), "#e6edf3");
  assert_color (bubble_at (&a, 0), "#010203");
  assert_color (bubble_at (&b, 0), "#ffffff");

  fixture_clear (&a);
  b.window = NULL;   /* destroyed with a's */
  fixture_clear (&b);
}

static void
count_parsing_error (GtkCssProvider *provider,
                     GtkCssSection  *section,
                     const GError   *error,
                     guint          *count)
{
  g_autofree char *where = gtk_css_section_to_string (section);

  g_test_message ("%s: %s", where, error->message);
  (*count)++;
}

static void
test_theme_css_tokens (void)
{
  g_autoptr(AkcTheme) theme = theme_from ("{\"colors\":{\"accent\":\"#abcd\",\"danger\":\"#AbCdEf80\"},"
                                          "\"spacing\":{\"small\":4.5,\"large\":0.0001},\"radius\":{\"large\":1000},"
                                          "\"fontFamily\":\"Source Sans 3_Pro-X\"}");
  g_autofree char *css = akc_theme_css_generate (theme, "akc-theme-7");
  g_autoptr(GtkCssProvider) provider = gtk_css_provider_new ();
  guint parse_errors = 0;

  /* Four- and eight-digit colours keep their alpha. */
  g_assert_nonnull (strstr (css, "@define-color akc_theme_7_accent rgba(170,187,204,0.866667);"));
  g_assert_nonnull (strstr (css, "@define-color akc_theme_7_danger rgba(171,205,239,0.501961);"));
  g_assert_nonnull (strstr (css, "@define-color akc_theme_7_on_accent rgb(255,255,255);"));
  g_assert_nonnull (strstr (css, "font-family: \"Source Sans 3_Pro-X\";"));
  g_assert_nonnull (strstr (css, "padding: 4.5px 0px;"));
  g_assert_nonnull (strstr (css, "border-radius: 1000px;"));
  g_assert_nonnull (strstr (css, "chatview.akc-theme-7 messagerow.user .bubble {"));

  /* GTK parses all of it. */
  g_signal_connect (provider, "parsing-error", G_CALLBACK (count_parsing_error), &parse_errors);
  gtk_css_provider_load_from_data (provider, css, -1);
  g_assert_cmpuint (parse_errors, ==, 0);
}

int
main (int   argc,
      char *argv[])
{
  setlocale (LC_ALL, "");
  gtk_test_init (&argc, &argv, NULL);

  g_test_add_func ("/theme/css-tokens", test_theme_css_tokens);
  g_test_add_func ("/theme/applies", test_theme_applies);
  g_test_add_func ("/theme/replaces", test_theme_replaces);
  g_test_add_func ("/theme/invalid-keeps-previous", test_theme_invalid_keeps_previous);
  g_test_add_func ("/theme/view-stays-usable", test_theme_view_stays_usable);
  g_test_add_func ("/theme/two-views", test_theme_two_views);
  g_test_add_func ("/theme/dark-style", test_theme_dark_style);

  return g_test_run ();
}
