#!/usr/bin/python3
"""Out-of-process accessibility test of the main window (TAP).

Starts agentskit-chat, reads its tree over AT-SPI, checks the roles and
names of the transcript, composer, send and stop buttons, then drives the
conversation with real key presses: types a message and presses Enter
(send) and waits for the streamed reply, which is announced; /slow and
Escape stop a reply; Ctrl+R retries it; Ctrl+E opens the inline editor,
where new text and Enter answer the edited message again; Ctrl+Shift+R
regenerates an answer (to /slow, so it is seen streaming); /fail checks the accessible error.
"""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import akc_atspi as ui  # noqa: E402
import pyatspi  # noqa: E402
from gi.repository import GLib  # noqa: E402

checks = []
tap = os.fdopen(int(os.environ["AKC_TAP_FD"]), "w") if "AKC_TAP_FD" in os.environ else sys.stdout


def check(ok, description):
    checks.append((bool(ok), description))
    print(f"{'ok' if ok else 'not ok'} {len(checks)} - {description}", file=tap, flush=True)


def main():
    exe = sys.argv[1]
    proc = ui.start_app(exe)
    try:
        app = ui.find_app(proc)
        # Issue 14 item 9: the window is named after its conversation; the
        # first one is a new chat until its first message titles it.
        frame = ui.wait_for(lambda: ui.find(app, role="frame", name="New Chat"), what="the main window")
        check(frame is not None and frame.name == "New Chat",
              f"main window is a frame named after its conversation, 'New Chat' (got {frame.name!r})")

        entry = ui.wait_for(lambda: ui.find(app, role="text", name="Message"), what="entry")
        check(entry is not None, "composer entry has role 'text' and name 'Message'")
        send = ui.find(app, role="push button", name="Send")
        check(send is not None, "send button has role 'push button' and name 'Send'")
        check(ui.find(app, role="push button", name="New Chat") is not None, "new chat button is labelled")
        check(ui.find(app, role="push button", name="Main Menu") is not None or
              ui.find(app, role="toggle button", name="Main Menu") is not None, "main menu button is labelled")

        # A finished reply is announced: on GTK 4.8 as a change of the
        # accessible description of the focused entry (what Orca speaks).
        announcements = []

        def on_description(event):
            if event.any_data:
                announcements.append(str(event.any_data))

        pyatspi.Registry.registerEventListener(on_description, "object:property-change:accessible-description")

        def pump(predicate):
            def run():
                context = GLib.MainContext.default()
                while context.iteration(False):
                    pass
                return predicate()
            return run

        ui.type_and_send(app, "hello")
        log = ui.wait_for(lambda: ui.find(app, role="log", name="Messages"), what="the transcript")
        check(log is not None, "transcript has role 'log' and name 'Messages'")
        reply = ui.wait_for(lambda: "AgentsKit received: hello" in ui.texts_under(log), what="the streamed reply")
        check(reply, "Enter sends the message and the streamed reply arrives in the transcript")
        check("hello" in ui.texts_under(log), "the user message is in the transcript")
        check(ui.find(log, name="You") is not None and ui.find(log, name="Assistant") is not None,
              "message rows are named after their author")
        try:
            ui.wait_for(pump(lambda: "Assistant: AgentsKit received: hello" in announcements),
                        what="the announcement")
        except ui.Timeout:
            pass
        check("Assistant: AgentsKit received: hello" in announcements,
              f"the finished reply is announced (got {announcements!r})")
        check(ui.wait_for(lambda: ui.find(log, role="push button", name="Retry response") and
                          ui.find(log, role="push button", name="Regenerate response") and
                          ui.find(log, role="push button", name="Edit last message"),
                          what="the response actions"),
              "the response actions are named 'Retry response', 'Regenerate response', 'Edit last message'")

        ui.type_and_send(app, "/slow")
        stop = ui.wait_for(lambda: ui.find(app, role="push button", name="Stop"), what="the stop button")
        check(stop is not None, "stop button has role 'push button' and name 'Stop' while streaming")
        check(ui.wait_for(lambda: ui.find(log, role="status", name="Thinking...") or
                          ui.find(log, role="status bar", name="Thinking..."), what="the thinking indicator"),
              "a 'Thinking...' status is shown while the reply streams")
        ui.press_escape()
        stopped = ui.wait_for(lambda: "Stopped" in ui.texts_under(log), what="the stopped reply")
        check(stopped, "Escape stops the reply, which is marked 'Stopped'")

        # Ctrl+R: the stopped reply is answered again (it streams: /slow).
        ui.wait_for(lambda: ui.find(app, role="push button", name="Send"), what="the send button")
        ui.press_with_modifiers(ord("r"))
        retried = ui.wait_for(lambda: ui.find(app, role="push button", name="Stop") and
                              "Stopped" not in ui.texts_under(log), what="the retried reply")
        check(retried, "Ctrl+R retries the reply")
        ui.press_escape()
        ui.wait_for(lambda: "Stopped" in ui.texts_under(log), what="the stopped retry")

        # Ctrl+E: the inline editor, with the last user message, and the focus.
        ui.press_with_modifiers(ord("e"))
        editor = ui.wait_for(lambda: ui.find(log, role="text", name="Edit message"), what="the inline editor")
        check(editor is not None and ui.text_of(editor) == "/slow",
              "Ctrl+E opens the inline editor 'Edit message' with the last user message")
        ui.wait_for(lambda: editor.getState().contains(pyatspi.STATE_FOCUSED), what="the editor to take the focus")
        check(ui.find(log, role="push button", name="Save edit") is not None and
              ui.find(log, role="push button", name="Cancel edit") is not None,
              "the editor offers 'Save edit' and 'Cancel edit'")
        ui.press_with_modifiers(ord("a"))
        ui.type_text("edited")
        ui.wait_for(lambda: ui.text_of(editor) == "edited", what="the edited text")
        ui.press_return()
        edited = ui.wait_for(lambda: "AgentsKit received: edited" in ui.texts_under(log), what="the edited answer")
        check(edited and ui.find(log, role="text", name="Edit message") is None,
              "Enter saves the edit, closes the editor and the edited message is answered")

        # Ctrl+Shift+R regenerates the answer. A reply to /slow streams until
        # it is stopped, so the regenerated reply is seen however fast the
        # machine is (an echo reply can come and go between two looks).
        ui.wait_for(lambda: ui.find(app, role="push button", name="Send"), what="the reply to finish")
        ui.type_and_send(app, "/slow")
        ui.wait_for(lambda: ui.find(app, role="push button", name="Stop"), what="the slow reply")
        ui.press_escape()
        ui.wait_for(lambda: ui.find(app, role="push button", name="Send"), what="the slow reply to stop")
        ui.press_with_modifiers(ord("r"), shift=True)
        regenerated = ui.wait_for(lambda: ui.find(app, role="push button", name="Stop"),
                                  what="the regenerated reply to start")
        ui.press_escape()
        ui.wait_for(lambda: ui.find(app, role="push button", name="Send"), what="the regenerated reply to stop")
        check(regenerated, "Ctrl+Shift+R regenerates the answer")

        ui.type_and_send(app, "/fail")
        alert = ui.wait_for(lambda: ui.find(app, role="alert"), what="the error alert")
        texts = ui.texts_under(alert)
        check("The deterministic adapter failed as requested." in texts,
              f"/fail shows the error in an element with role 'alert' (got {texts!r})")
        check(ui.find(alert, role="push button", name="Retry response") is not None,
              "the error offers 'Retry response'")
    except ui.Timeout as e:
        check(False, str(e))
    finally:
        ui.stop_app(proc)

    print(f"1..{len(checks)}", file=tap, flush=True)
    return 0 if all(ok for ok, _ in checks) else 1


if __name__ == "__main__":
    sys.exit(main())
