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
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from tap import check, finish  # noqa: E402


def main():
    exe = sys.argv[1]
    proc = ui.start_app(exe)
    try:
        app = ui.find_app(proc)
        # Issue 14 item 9: the window is named after its conversation; the
        # first one is a new chat until its first message titles it.
        frame = ui.wait_for(lambda: ui.find(app, role="frame", name="New Chat"), what="the main window")
        check(f"main window is a frame named after its conversation, 'New Chat' (got {frame.name!r})",
              frame is not None and frame.name == "New Chat")

        entry = ui.wait_for(lambda: ui.find(app, role="text", name="Message"), what="entry")
        check("composer entry has role 'text' and name 'Message'", entry is not None)
        send = ui.find(app, role="push button", name="Send")
        check("send button has role 'push button' and name 'Send'", send is not None)
        check("new chat button is labelled", ui.find(app, role="push button", name="New Chat") is not None)
        check("main menu button is labelled", ui.find(app, role="push button", name="Main Menu") is not None or
              ui.find(app, role="toggle button", name="Main Menu") is not None)

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
        check("transcript has role 'log' and name 'Messages'", log is not None)
        reply = ui.wait_for(lambda: "AgentsKit received: hello" in ui.texts_under(log), what="the streamed reply")
        check("Enter sends the message and the streamed reply arrives in the transcript", reply)
        check("the user message is in the transcript", "hello" in ui.texts_under(log))
        check("message rows are named after their author",
              ui.find(log, name="You") is not None and ui.find(log, name="Assistant") is not None)
        try:
            ui.wait_for(pump(lambda: "Assistant: AgentsKit received: hello" in announcements),
                        what="the announcement")
        except ui.Timeout:
            pass
        check(f"the finished reply is announced (got {announcements!r})",
              "Assistant: AgentsKit received: hello" in announcements)
        check("the response actions are named 'Retry response', 'Regenerate response', 'Edit last message'",
              ui.wait_for(lambda: ui.find(log, role="push button", name="Retry response") and
                          ui.find(log, role="push button", name="Regenerate response") and
                          ui.find(log, role="push button", name="Edit last message"),
                          what="the response actions"))

        ui.type_and_send(app, "/slow")
        stop = ui.wait_for(lambda: ui.find(app, role="push button", name="Stop"), what="the stop button")
        check("stop button has role 'push button' and name 'Stop' while streaming", stop is not None)
        check("a 'Thinking...' status is shown while the reply streams",
              ui.wait_for(lambda: ui.find(log, role="status", name="Thinking...") or
                          ui.find(log, role="status bar", name="Thinking..."), what="the thinking indicator"))
        ui.press_escape()
        stopped = ui.wait_for(lambda: "Stopped" in ui.texts_under(log), what="the stopped reply")
        check("Escape stops the reply, which is marked 'Stopped'", stopped)

        # Ctrl+R: the stopped reply is answered again (it streams: /slow).
        ui.wait_for(lambda: ui.find(app, role="push button", name="Send"), what="the send button")
        ui.press_with_modifiers(ord("r"))
        retried = ui.wait_for(lambda: ui.find(app, role="push button", name="Stop") and
                              "Stopped" not in ui.texts_under(log), what="the retried reply")
        check("Ctrl+R retries the reply", retried)
        ui.press_escape()
        ui.wait_for(lambda: "Stopped" in ui.texts_under(log), what="the stopped retry")

        # Ctrl+E: the inline editor, with the last user message, and the focus.
        ui.press_with_modifiers(ord("e"))
        editor = ui.wait_for(lambda: ui.find(log, role="text", name="Edit message"), what="the inline editor")
        check("Ctrl+E opens the inline editor 'Edit message' with the last user message",
              editor is not None and ui.text_of(editor) == "/slow")
        ui.wait_for(lambda: editor.getState().contains(pyatspi.STATE_FOCUSED), what="the editor to take the focus")
        check("the editor offers 'Save edit' and 'Cancel edit'",
              ui.find(log, role="push button", name="Save edit") is not None and
              ui.find(log, role="push button", name="Cancel edit") is not None)
        ui.press_with_modifiers(ord("a"))
        ui.type_text("edited")
        ui.wait_for(lambda: ui.text_of(editor) == "edited", what="the edited text")
        ui.press_return()
        edited = ui.wait_for(lambda: "AgentsKit received: edited" in ui.texts_under(log), what="the edited answer")
        check("Enter saves the edit, closes the editor and the edited message is answered",
              edited and ui.find(log, role="text", name="Edit message") is None)

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
        check("Ctrl+Shift+R regenerates the answer", regenerated)

        ui.type_and_send(app, "/fail")
        alert = ui.wait_for(lambda: ui.find(app, role="alert"), what="the error alert")
        texts = ui.texts_under(alert)
        check(f"/fail shows the error in an element with role 'alert' (got {texts!r})",
              "The deterministic adapter failed as requested." in texts)
        check("the error offers 'Retry response'",
              ui.find(alert, role="push button", name="Retry response") is not None)
    except ui.Timeout as e:
        check(str(e), False)
    finally:
        ui.stop_app(proc)

    return finish()


if __name__ == "__main__":
    sys.exit(main())
