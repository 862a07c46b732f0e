#!/usr/bin/python3
"""Out-of-process keyboard test of the transcript and the composer (TAP).

Drives agentskit-chat with real key presses over AT-SPI, as a person
without a pointer would (issue 13):

* the composer stays editable while a reply streams: text typed then is
  kept, Enter keeps it (Stop shows instead of Send, and a hint says what
  Enter does), and it is sent once the reply ended;
* a burst of messages typed and sent without waiting loses no keystroke:
  what the history stored plus what is left in the entry is exactly what
  was typed;
* a component that has the keyboard never locks the composer: it stays
  enabled, a hint says how to leave the component, and a click on the
  composer and typing set the component aside;
* the transcript is a focus stop between the header and the composer:
  Tab and Shift+Tab reach it, the arrow keys and Home/End move between its
  messages, a focused message is announced with its author and a preview,
  Tab reaches a message's own controls, Escape returns to the composer;
* the keys of the shortcuts window work from the composer (Ctrl+N), and
  from an open menu: Ctrl+, (one of the main menu's items) opens the
  preferences and closes the menu, and Ctrl+Q (none of its items) ends the
  application.
"""

import os
import sqlite3
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import akc_atspi as ui  # noqa: E402
import pyatspi  # noqa: E402
from gi.repository import Atspi, GLib  # noqa: E402
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from tap import check, finish  # noqa: E402


TAB = 0xFF09
UP = 0xFF52
DOWN = 0xFF54
HOME = 0xFF50
END = 0xFF57
F10 = 0xFFC7
HINT = ("Your message waits until the reply is finished: Enter starts a new line until then, and sends it after. "
        "Escape stops the reply.")
COMPONENT_HINT = ("A question in the transcript has the keyboard: answer it, or press Escape or type a "
                  "message to set it aside.")


def press(keysym):
    Atspi.generate_keyboard_event(keysym, None, Atspi.KeySynthType.SYM)


def focused(app):
    """The object that has the keyboard focus, or None."""
    return pyatspi.findDescendant(app, lambda a: a.getState().contains(pyatspi.STATE_FOCUSED))


def focused_is(app, role=None, name=None):
    def test():
        acc = focused(app)
        return acc is not None and (role is None or acc.getRoleName() == role) and \
            (name is None or acc.name == name)
    return test


def within(acc, ancestor):
    """Whether acc is ancestor or below it."""
    while acc is not None:
        if acc == ancestor:
            return True
        acc = acc.parent
    return False


def pump(predicate):
    """predicate() after the pending AT-SPI events were dispatched."""
    def run():
        context = GLib.MainContext.default()
        while context.iteration(False):
            pass
        return predicate()
    return run


def stored(db, role="user"):
    with sqlite3.connect(db) as connection:
        return [row[0] for row in connection.execute(
            "SELECT content FROM messages WHERE conversation_id = 'demo' AND role = ? ORDER BY position",
            (role,))]


def idle(app):
    return ui.find(app, role="push button", name="Send") is not None


def typing_during_a_reply(app, entry, log):
    ui.type_and_send(app, "/slow")
    ui.wait_for(lambda: ui.find(app, role="push button", name="Stop"), what="the slow reply")
    check("while a reply streams, the composer's entry stays enabled and editable",
          entry.getState().contains(pyatspi.STATE_SENSITIVE) and
          entry.getState().contains(pyatspi.STATE_EDITABLE))
    ui.wait_for(focused_is(app, role="text", name="Message"), what="the entry to keep the focus")
    ui.type_text("typed while streaming")
    check("text typed while a reply streams stays in the entry",
          ui.wait_for(lambda: ui.text_of(entry) == "typed while streaming", timeout=30,
                      what="the text typed during the reply"))
    ui.press_return()
    hint = ui.wait_for(lambda: ui.find(app, name=HINT), timeout=30, what="the hint of the composer")
    text = ui.wait_for(lambda: ui.text_of(entry) == "typed while streaming\n" and ui.text_of(entry), timeout=30,
                       what="the new line")
    check(f"Enter during a reply keeps the draft and starts a new line in it, Stop stays, and a hint says "
          f"what Enter does (draft {text!r})",
          hint is not None and text == "typed while streaming\n" and
          ui.find(app, role="push button", name="Stop") is not None)
    ui.press_escape()
    ui.wait_for(lambda: idle(app), what="the reply to stop")
    check("the draft survives the end of the reply", ui.text_of(entry) == "typed while streaming\n")
    ui.press_return()
    check("once the reply ended, Enter sends the kept draft",
          ui.wait_for(lambda: "AgentsKit received: typed while streaming" in ui.texts_under(log),
                      what="the kept draft to be answered"))


def burst(app, entry, db, count=25):
    ui.wait_for(lambda: idle(app), what="the composer to be idle")
    before = stored(db)
    typed = []
    for i in range(1, count + 1):
        text = f"message {i}"
        typed.append(text)
        ui.type_text(text)
        ui.press_return()
    # Whatever was typed while a reply streamed waits in the entry; the
    # last Enter may have come while one did.
    ui.wait_for(lambda: idle(app) and len(stored(db, "assistant")) >= len(before) + 1, timeout=120,
                what="the burst to settle")
    if ui.text_of(entry) != "":
        ui.press_return()
        ui.wait_for(lambda: ui.text_of(entry) == "" and idle(app), timeout=60, what="the rest of the burst to be sent")
    ui.wait_for(lambda: idle(app) and len(stored(db, "assistant")) == len(stored(db)), timeout=60, what="every reply")
    sent = stored(db)[len(before):]
    check(f"{count} messages typed and sent without waiting lose no keystroke "
          f"({len(sent)} sends; first {sent[:3]!r})",
          "".join(sent).replace("\n", "") == "".join(typed))
    check("each message typed during a reply stays on a line of its own (none runs into the next)",
          "\n".join(sent).split("\n") == typed, repr(sent[:5]))


def components_leave_the_composer_free(app, entry, log):
    ui.wait_for(lambda: idle(app), what="the composer to be idle")
    ui.type_and_send(app, "/restricted")
    choice = ui.wait_for(lambda: ui.find(app, role="push button", name="Run restricted action"),
                         what="the choice of /restricted")
    ui.wait_for(lambda: choice.getState().contains(pyatspi.STATE_FOCUSED), what="the choice to take the keyboard")
    check("while a choice has the keyboard, the composer stays enabled",
          entry.getState().contains(pyatspi.STATE_SENSITIVE) and entry.getState().contains(pyatspi.STATE_EDITABLE))
    hint = ui.wait_for(lambda: (h := ui.find(app, role="label", name=COMPONENT_HINT)) is not None and
                       h.getState().contains(pyatspi.STATE_VISIBLE) and h, timeout=30, what="the hint of the choice")
    check("a visible hint says the choice has the keyboard and how to leave it", hint is not None)
    # A click on the composer and typing: the choice is set aside, the text is kept.
    ui.wait_for(lambda: ui.click(entry) or entry.getState().contains(pyatspi.STATE_FOCUSED),
                what="the entry to take the focus")
    ui.type_text("mine")
    check("a click on the composer takes the keyboard from the choice, and what is typed stays",
          ui.wait_for(lambda: ui.text_of(entry) == "mine", timeout=30, what="the text typed after the click"))
    check("typing into the composer sets the choice aside",
          ui.wait_for(lambda: not choice.getState().contains(pyatspi.STATE_SENSITIVE) or
                      not choice.getState().contains(pyatspi.STATE_ENABLED), timeout=30, what="the choice set aside"))
    check("the hint goes with the choice",
          ui.wait_for(lambda: ui.find(app, role="label", name=COMPONENT_HINT) is None or
                      not ui.find(app, role="label", name=COMPONENT_HINT).getState().contains(pyatspi.STATE_VISIBLE),
                      timeout=30, what="the hint to go"))
    ui.press_return()
    check("the message typed over the choice is sent and answered",
          ui.wait_for(lambda: "AgentsKit received: mine" in ui.texts_under(log), what="the reply to 'mine'"))


def transcript_focus(app, entry, log):
    ui.wait_for(lambda: idle(app), what="the composer to be idle")
    ui.wait_for(lambda: ui.click(entry) or entry.getState().contains(pyatspi.STATE_FOCUSED),
                what="the entry to take the focus")
    announcements = []

    def on_description(event):
        if event.any_data:
            announcements.append(str(event.any_data))

    pyatspi.Registry.registerEventListener(on_description, "object:property-change:accessible-description")
    try:
        # Shift+Tab from the entry goes up into the transcript, on the newest message.
        ui.press_with_modifiers(TAB, control=False, shift=True)
        newest = ui.wait_for(focused_is(app, name="Assistant"), timeout=30, what="Shift+Tab into the transcript")
        check("Shift+Tab from the composer focuses the newest message of the transcript", newest)
        ui.wait_for(pump(lambda: any(a.startswith("Assistant: AgentsKit received:") for a in announcements)),
                    timeout=30, what="the announcement of the focused message")
        check(f"the focused message is announced with its author and a preview (got {announcements[-3:]!r})",
              any(a.startswith("Assistant: AgentsKit received:") for a in announcements))

        press(UP)
        check("Up moves to the previous message",
              ui.wait_for(focused_is(app, name="You"), timeout=30, what="Up to the previous message"))
        press(DOWN)
        check("Down moves to the next message",
              ui.wait_for(focused_is(app, name="Assistant"), timeout=30, what="Down to the next message"))
        press(HOME)
        check("Home moves to the first message",
              ui.wait_for(focused_is(app, name="You"), timeout=30, what="Home to the first message"))
        press(END)
        check("End moves to the last message",
              ui.wait_for(focused_is(app, name="Assistant"), timeout=30, what="End to the last message"))
        press(HOME)
        ui.wait_for(focused_is(app, name="You"), timeout=30, what="Home to the first message")
        ui.press_with_modifiers(END)
        check("Ctrl+End moves to the newest message",
              ui.wait_for(focused_is(app, name="Assistant"), timeout=30, what="Ctrl+End to the newest message"))

        # Tab goes into the message, to its own text and controls.
        message = focused(app)
        press(TAB)
        inside = ui.wait_for(lambda: (f := focused(app)) is not None and f != message and
                             within(f, message) and f, timeout=30, what="Tab into the message")
        check(f"Tab from a message reaches its own content ({inside.getRoleName()!r})", inside is not None)
        # Down goes on to the response actions below the reply, and Tab to their buttons.
        press(DOWN)
        ui.wait_for(focused_is(app, name="Response actions"), timeout=30, what="Down to the response actions")
        press(TAB)
        check("Down from the reply reaches the response actions, and Tab their first button",
              ui.wait_for(focused_is(app, role="push button", name="Retry response"), timeout=30,
                          what="Tab to Retry"))

        ui.press_escape()
        check("Escape in the transcript returns to the composer",
              ui.wait_for(focused_is(app, role="text", name="Message"), timeout=30, what="Escape to the composer"))

        # Tab from the header goes to the transcript, then to the composer.
        ui.press_with_modifiers(TAB, control=False, shift=True)
        ui.wait_for(focused_is(app, name="Assistant"), timeout=30, what="Shift+Tab into the transcript")
        ui.press_with_modifiers(TAB, control=False, shift=True)
        header = ui.wait_for(lambda: (f := focused(app)) is not None and f.getRoleName() in ("push button",
                                                                                             "toggle button") and f,
                             timeout=30, what="Shift+Tab out to the header")
        check(f"Shift+Tab from the transcript reaches the header (got {header.name!r})",
              header is not None and header.name in ("Main Menu", "New Chat"))
        if header.name == "New Chat":
            press(TAB)
            ui.wait_for(focused_is(app, name="Main Menu"), timeout=30, what="Tab to the main menu")
        press(TAB)
        check("Tab from the header enters the transcript",
              ui.wait_for(focused_is(app, name="Assistant"), timeout=30, what="Tab into the transcript"))
    finally:
        pyatspi.Registry.deregisterEventListener(on_description, "object:property-change:accessible-description")


def menu_open(app):
    return ui.find_all(app, role="menu")


def keys_from_the_main_menu(app, proc):
    """The application's keys pressed while the main menu has the keyboard
    (GTK 4.8 gives a popover's keys to the popover only: a menu answers the
    keys of its items, and the others did nothing there)."""
    press(F10)
    check("F10 opens the main menu", ui.wait_for(lambda: menu_open(app), timeout=10, what="the main menu"))
    ui.press_with_modifiers(ord(","))
    check("Ctrl+, in the open main menu opens the preferences",
          ui.wait_for(lambda: ui.find(app, role="frame", name="Preferences"), timeout=10,
                      what="the preferences from the menu"))
    check("and closes the menu", ui.wait_for(lambda: not menu_open(app), timeout=10, what="the menu closed"))
    ui.press_escape()
    ui.wait_for(lambda: not ui.find(app, role="frame", name="Preferences"), timeout=10,
                what="the preferences closed")
    press(F10)
    ui.wait_for(lambda: menu_open(app), timeout=10, what="the main menu again")
    ui.press_with_modifiers(ord("q"))
    try:
        status = proc.wait(timeout=20)
    except Exception:
        status = None
    check("Ctrl+Q in the open main menu ends the application (status %s)" % status, status == 0)


def main():
    exe = sys.argv[1]
    with tempfile.TemporaryDirectory(prefix="akc-keyboard-") as data:
        db = os.path.join(data, "agentskit-chat", "history.sqlite3")
        proc = ui.start_app(exe, {"XDG_DATA_HOME": data})
        try:
            app = ui.find_app(proc)
            entry = ui.wait_for(lambda: ui.find(app, role="text", name="Message"), what="the entry")
            log = ui.wait_for(lambda: ui.find(app, role="log", name="Messages"), what="the transcript")
            only = os.environ.get("AKC_TEST_PARTS")
            if not only or "typing" in only:
                typing_during_a_reply(app, entry, log)
            if not only or "burst" in only:
                burst(app, entry, db)
            if not only or "components" in only:
                components_leave_the_composer_free(app, entry, log)
            if not only or "transcript" in only:
                ui.type_and_send(app, "first words")
                ui.wait_for(lambda: "AgentsKit received: first words" in ui.texts_under(log) and idle(app),
                            what="the reply to 'first words'")
                transcript_focus(app, entry, log)
            ui.press_with_modifiers(ord("n"))
            check("Ctrl+N starts a new chat",
                  ui.wait_for(lambda: ui.find(app, role="push button", name="Send") and
                              not ui.find(app, name="You"), timeout=10, what="Ctrl+N to start a new chat"))
            keys_from_the_main_menu(app, proc)
        except ui.Timeout as e:
            check(str(e), False)
        finally:
            ui.stop_app(proc)

    return finish()


if __name__ == "__main__":
    sys.exit(main())
