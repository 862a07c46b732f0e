#!/usr/bin/python3
"""The find in a conversation and the actions of a message, with real keys
(issue 14 items 5 and 7; TAP, over AT-SPI).

Runs agentskit-chat on a history of its own, sends a few messages, then:
Ctrl+F in the conversation opens the find bar with the keyboard in it;
typing finds the word in the transcript and says "N of M"; Enter,
Shift+Enter, Ctrl+G and Ctrl+Shift+G move between the matches; Escape
closes the bar and gives the keyboard back to the composer.

Then the actions of a message, from the keyboard: Shift+Tab to the
newest message, Up to the one before, Shift+F10 opens its context menu;
Delete Message deletes it and the reply that answered it with a toast
offering Undo; Undo brings both back; deleted again, they stay deleted
after a restart. Edit and Send
Again on an earlier message of the person opens it in the editor; Enter
sends it again and replaces the messages after it, after a restart too.
A kill -9 while the toast of a deleted message offers Undo keeps the
message and its reply in the history: the next start shows them.

With AKC_SCREENSHOT_DIR set, the window is captured there with the find
bar open.
"""

import os
import re
import signal
import sqlite3
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import akc_atspi as ui  # noqa: E402
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from tap import check, finish  # noqa: E402

KEY_RETURN = 0xFF0D
KEY_TAB = 0xFF09
KEY_UP = 0xFF52
KEY_DOWN = 0xFF54
KEY_F10 = 0xFFC7



def send_and_wait(app, text):
    ui.type_and_send(app, text)
    log = ui.wait_for(lambda: ui.find(app, role="log", name="Messages"), what="the transcript")
    return ui.wait_for(lambda: f"AgentsKit received: {text}" in ui.texts_under(log) and
                       ui.find(app, role="push button", name="Send"), what=f"the reply to {text!r}")


def focused(acc):
    try:
        return acc.getState().contains(ui.pyatspi.STATE_FOCUSED)
    except Exception:
        return False


def key(keysym):
    ui.Atspi.generate_keyboard_event(keysym, None, ui.Atspi.KeySynthType.SYM)


def stored(db):
    """The stored messages, oldest first, as (role, content)."""
    with sqlite3.connect(db) as connection:
        return connection.execute("SELECT role, content FROM messages ORDER BY position").fetchall()


def transcript_texts(app):
    log = ui.find(app, role="log", name="Messages")
    return ui.texts_under(log) if log is not None else []


def open_menu(app):
    """Shift+F10 on the focused message: its context menu."""
    ui.press_with_modifiers(KEY_F10, control=False, shift=True)
    return ui.wait_for(lambda: ui.find(app, role="menu item", name="Copy Message"), what="the context menu")


def focused_item(app):
    for item in ui.find_all(app, role="menu item"):
        if focused(item):
            return item.name
    return None


def choose(app, name):
    """Down through the open menu to the item named name, then Enter."""
    for _ in range(8):
        current = ui.wait_for(lambda: focused_item(app), what="a menu item with the keyboard")
        if current == name:
            ui.press_return()
            return True
        key(KEY_DOWN)
        ui.wait_for(lambda: focused_item(app) not in (None, current), what="the next menu item")
    return False


COUNT = re.compile(r"^(\d+) of (\d+)$")


def count(app):
    """The "N of M" of the find bar, as (N, M), or None."""
    bar = ui.find(app, name="Find in Conversation", role="form")
    if bar is None:
        return None
    for label in ui.find_all(bar, role="label"):
        try:
            found = COUNT.match(label.name or "")
        except Exception:
            continue
        if found:
            return int(found.group(1)), int(found.group(2))
    return None


def screenshot(name):
    folder = os.environ.get("AKC_SCREENSHOT_DIR")
    if not folder:
        return
    os.makedirs(folder, exist_ok=True)
    tree = subprocess.run(["xwininfo", "-root", "-tree"], check=True, capture_output=True, text=True).stdout
    window = next(line.split()[0] for line in tree.splitlines()
                  if '"agentskit-chat"' in line and "x" in line.split(":")[-1])
    subprocess.run(["import", "-window", window, os.path.join(folder, name)], check=True)


def key_shift_tab():
    ui.press_with_modifiers(KEY_TAB, control=False, shift=True)


def click_message(app, text):
    """Clicks the bubble of a message (the keyboard goes to its row)."""
    log = ui.find(app, role="log", name="Messages")
    for label in ui.find_all(log, role="label"):
        try:
            if ui.text_of(label) == text:
                ui.click(label)
                return True
        except Exception:
            continue
    return False


def focused_editor(app):
    editor = ui.find(app, role="text", name="Edit message")
    if editor is None:
        for acc in ui.find_all(app, role="text"):
            if focused(acc) and acc.name != "Message":
                return acc
        return None
    return editor if focused(editor) else None


def main():
    exe = sys.argv[1]
    with tempfile.TemporaryDirectory(prefix="akc-find-") as data:
        env = {"XDG_DATA_HOME": data}
        env.update({k: v for k, v in os.environ.items() if k.startswith("ADW_DEBUG")})
        proc = ui.start_app(exe, env)
        try:
            app = ui.find_app(proc)
            for text in ("apple pie", "banana split", "apple tart"):
                check(f"{text!r} is answered", send_and_wait(app, text))

            # The keyboard is in the composer: Ctrl+F finds in the conversation.
            ui.press_with_modifiers(ord("f"))
            entry = ui.wait_for(lambda: ui.find(app, name="Find in Conversation", role="entry"),
                                what="the find entry")
            check("Ctrl+F in the conversation puts the keyboard in its find bar", ui.wait_for(lambda: focused(entry)))
            bar = ui.find(app, name="Find in Conversation", role="form")
            check("the find bar is a search landmark with named buttons",
                  all(ui.find(bar, role="push button", name=n) for n in ("Previous Match", "Next Match", "Close Find Bar")))
            check("the sidebar's search is not the one opened",
                  ui.find(app, name="Search Conversations", role="entry") is None or
                  not focused(ui.find(app, name="Search Conversations", role="entry")))

            ui.type_text("APPLE")
            found = ui.wait_for(lambda: count(app), what="the count of matches")
            # Each of the two messages and each reply that repeats it.
            check(f"the word is found in the whole transcript, any case (got {found})", found[1] >= 4)
            total = found[1]
            check(f"the current match is the newest one (got {found})", found[0] == total)
            screenshot("find.png")

            ui.press_return()
            check("Enter goes on to the next match, round to the first", ui.wait_for(lambda: count(app) == (1, total)))
            ui.press_with_modifiers(KEY_RETURN, control=False, shift=True)
            check("Shift+Enter goes back", ui.wait_for(lambda: count(app) == (total, total)))
            ui.press_with_modifiers(ord("g"))
            check("Ctrl+G goes to the next match", ui.wait_for(lambda: count(app) == (1, total)))
            ui.press_with_modifiers(ord("g"), shift=True)
            check("Ctrl+Shift+G to the previous one", ui.wait_for(lambda: count(app) == (total, total)))

            ui.type_text("zzz")
            check("a word not there: No matches", ui.wait_for(lambda: ui.find(app, role="label", name="No matches")))

            ui.press_escape()
            composer = ui.find(app, role="text", name="Message")
            check("Escape closes the find and gives the keyboard back to the composer", ui.wait_for(lambda: focused(composer)))
            check("with the bar closed, nothing is counted",
                  ui.wait_for(lambda: count(app) is None and not ui.find(app, role="label", name="No matches")))

            # The actions of a message. Shift+Tab: the newest message (the
            # last reply); Up: "apple tart", the person's.
            db = os.path.join(data, "agentskit-chat", "history.sqlite3")
            key_shift_tab()
            ui.wait_for(lambda: not focused(composer), what="the keyboard in the transcript")
            key(KEY_UP)
            open_menu(app)
            check("Shift+F10 on the person's message opens its menu, with Edit and Send Again",
                  ui.find(app, role="menu item", name="Edit and Send Again") is not None)
            check("the menu is gone through with the arrow keys", choose(app, "Delete Message"))
            # The toast lives 5 s, and on a loaded machine each look over
            # AT-SPI can take a second: its button (GTK 4.8 names it
            # "_Undo Undo") is found in the same look as the toast and
            # clicked at once; what the deletion did is checked after.
            reply = "AgentsKit received: apple tart"

            def toast_undo():
                texts = transcript_texts(app)
                if not ui.find(app, name="Message and its reply deleted") or "apple tart" in texts or reply in texts:
                    return None
                return next((b for b in ui.find_all(app, role="push button") if "Undo" in (b.name or "")), None)
            undo = ui.wait_for(toast_undo, what="the toast with its Undo, the message and its reply gone")
            check("Delete Message on the person's message takes it and its reply out of the transcript and "
                  "shows the toast Message and its reply deleted, with Undo", undo is not None)
            check("the history keeps both while the undo is offered",
                  ("user", "apple tart") in stored(db) and ("assistant", reply) in stored(db))
            ui.click(undo)
            check("Undo brings both back",
                  ui.wait_for(lambda: "apple tart" in transcript_texts(app) and reply in transcript_texts(app)))
            check("into the history too", ui.wait_for(lambda: ("user", "apple tart") in stored(db)))
            check("where they were", stored(db).index(("user", "apple tart")) == 4 and
                  stored(db).index(("assistant", reply)) == 5)

            # Delete it for good: a restart does not bring it back.
            ui.wait_for(lambda: click_message(app, "apple tart"), what="the message clicked")
            open_menu(app)
            choose(app, "Delete Message")
            ui.wait_for(lambda: ("user", "apple tart") not in stored(db), what="the deletion stored")
            check("the toast gone, the message and its reply are deleted for good",
                  ui.wait_for(lambda: ("assistant", reply) not in stored(db)))

            # Edit the first message: the messages after it are replaced.
            ui.wait_for(lambda: click_message(app, "apple pie"), what="the first message clicked")
            open_menu(app)
            check("Edit and Send Again on an earlier message", choose(app, "Edit and Send Again"))
            editor = ui.wait_for(lambda: focused_editor(app), what="the editor with the keyboard")
            check(f"the editor has its text (got {ui.text_of(editor)!r})", ui.text_of(editor) == "apple pie")
            ui.press_with_modifiers(ord("a"))
            ui.type_text("cherry pie")
            ui.wait_for(lambda: ui.text_of(editor) == "cherry pie", what="the new text")
            ui.press_return()
            check("Enter sends it again: a new reply",
                  ui.wait_for(lambda: "AgentsKit received: cherry pie" in transcript_texts(app) and
                              ui.find(app, role="push button", name="Send")))
            check("the messages after it are gone",
                  ui.wait_for(lambda: "banana split" not in transcript_texts(app)))
            ui.press_with_modifiers(ord("q"))
            check("Ctrl+Q quits", proc.wait(timeout=20) == 0)
        except ui.Timeout as e:
            check(str(e), False)
        finally:
            if proc.poll() is None:
                ui.stop_app(proc)

        after = [m for m in stored(db)]
        check(f"after a restart the history has the edited message only (got {after})",
              [c for r, c in after if r == "user"] == ["cherry pie"])
        proc = ui.start_app(exe, env)
        try:
            app = ui.find_app(proc)
            check("the app reopens on the edited message", ui.wait_for(lambda: "cherry pie" in transcript_texts(app)))
            texts = transcript_texts(app)
            check("neither the deleted nor the replaced messages come back",
                  "apple pie" not in texts and "apple tart" not in texts and "banana split" not in texts)

            # Delete the message again, and crash while its undo is offered.
            ui.wait_for(lambda: click_message(app, "cherry pie"), what="the message clicked")
            open_menu(app)
            choose(app, "Delete Message")
            ui.wait_for(lambda: "cherry pie" not in transcript_texts(app), what="the message to leave the transcript")
            check("while the undo is offered the history still holds the message and its reply",
                  ("user", "cherry pie") in stored(db) and ("assistant", "AgentsKit received: cherry pie") in stored(db))
            os.kill(proc.pid, signal.SIGKILL)
            proc.wait(timeout=20)
        except ui.Timeout as e:
            check(str(e), False)
        finally:
            if proc.poll() is None:
                ui.stop_app(proc)

        check("a kill -9 during the undo window keeps the message and its reply",
              ("user", "cherry pie") in stored(db) and ("assistant", "AgentsKit received: cherry pie") in stored(db))
        proc = ui.start_app(exe, env)
        try:
            app = ui.find_app(proc)
            check("after the crash the message and its reply are in the conversation again",
                  ui.wait_for(lambda: "cherry pie" in transcript_texts(app) and
                              "AgentsKit received: cherry pie" in transcript_texts(app)))
        except ui.Timeout as e:
            check(str(e), False)
        finally:
            if proc.poll() is None:
                ui.stop_app(proc)

    return finish()


if __name__ == "__main__":
    sys.exit(main())
