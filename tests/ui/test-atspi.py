#!/usr/bin/python3
"""Out-of-process accessibility test of the main window (TAP).

Starts agentskit-chat, reads its tree over AT-SPI, checks the roles and
names of the transcript, composer, send and stop buttons, then types a
message, presses Enter and waits for the streamed reply; /slow and Escape
check that Stop cancels a reply; /fail checks the accessible error.
"""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import akc_atspi as ui  # noqa: E402

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
        frame = ui.wait_for(lambda: ui.find(app, role="frame"), what="the main window")
        check(frame.name == "AgentsKit Chat", f"main window is a frame named 'AgentsKit Chat' (got {frame.name!r})")

        entry = ui.wait_for(lambda: ui.find(app, role="text", name="Message"), what="entry")
        check(entry is not None, "composer entry has role 'text' and name 'Message'")
        send = ui.find(app, role="push button", name="Send")
        check(send is not None, "send button has role 'push button' and name 'Send'")
        check(ui.find(app, role="push button", name="New Chat") is not None, "new chat button is labelled")
        check(ui.find(app, role="push button", name="Main Menu") is not None or
              ui.find(app, role="toggle button", name="Main Menu") is not None, "main menu button is labelled")

        ui.type_and_send(app, "hello")
        log = ui.wait_for(lambda: ui.find(app, role="log", name="Messages"), what="the transcript")
        check(log is not None, "transcript has role 'log' and name 'Messages'")
        reply = ui.wait_for(lambda: "AgentsKit received: hello" in ui.texts_under(log), what="the streamed reply")
        check(reply, "Enter sends the message and the streamed reply arrives in the transcript")
        check("hello" in ui.texts_under(log), "the user message is in the transcript")
        check(ui.find(log, name="You") is not None and ui.find(log, name="Assistant") is not None,
              "message rows are named after their author")

        ui.type_and_send(app, "/slow")
        stop = ui.wait_for(lambda: ui.find(app, role="push button", name="Stop"), what="the stop button")
        check(stop is not None, "stop button has role 'push button' and name 'Stop' while streaming")
        ui.press_escape()
        stopped = ui.wait_for(lambda: "Stopped" in ui.texts_under(log), what="the stopped reply")
        check(stopped, "Escape stops the reply, which is marked 'Stopped'")

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
