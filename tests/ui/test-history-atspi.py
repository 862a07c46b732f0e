#!/usr/bin/python3
"""The demo conversation reopens after a restart (TAP, over AT-SPI).

Runs agentskit-chat on a history of its own ($XDG_DATA_HOME in a temporary
folder): sends two messages with real key presses and quits with Ctrl+Q;
starts it again and finds the conversation in the transcript; adds a
message, ends it with SIGTERM (as a session logout does) and finds that
one too. Then damages the history file: the application still starts,
says the conversation is not being saved, and answers.
"""

import os
import sqlite3
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import akc_atspi as ui  # noqa: E402

checks = []
tap = os.fdopen(int(os.environ["AKC_TAP_FD"]), "w") if "AKC_TAP_FD" in os.environ else sys.stdout


def check(ok, description):
    checks.append((bool(ok), description))
    print(f"{'ok' if ok else 'not ok'} {len(checks)} - {description}", file=tap, flush=True)


def transcript(app):
    return ui.wait_for(lambda: ui.find(app, role="log", name="Messages"), what="the transcript")


def send_and_wait(app, text):
    ui.type_and_send(app, text)
    log = transcript(app)
    return ui.wait_for(lambda: f"AgentsKit received: {text}" in ui.texts_under(log) and
                       ui.find(app, role="push button", name="Send"), what=f"the reply to {text!r}")


def stored_demo(db):
    """The stored demo conversation, (role, content) in order, read directly."""
    with sqlite3.connect(db) as connection:
        check(connection.execute("PRAGMA integrity_check").fetchone()[0] == "ok",
              "the history passes integrity_check")
        return connection.execute("SELECT role, content FROM messages WHERE conversation_id = 'demo' "
                                  "ORDER BY position").fetchall()


def run(exe, env, body):
    proc = ui.start_app(exe, env)
    try:
        body(proc, ui.find_app(proc))
    except ui.Timeout as e:
        check(False, str(e))
    finally:
        if proc.poll() is None:
            ui.stop_app(proc)


def main():
    exe = sys.argv[1]
    with tempfile.TemporaryDirectory(prefix="akc-history-") as data:
        env = {"XDG_DATA_HOME": data}
        db = os.path.join(data, "agentskit-chat", "history.sqlite3")

        def first(proc, app):
            check(send_and_wait(app, "remember me"), "a first message is answered")
            check(send_and_wait(app, "and me"), "a second message is answered")
            ui.press_with_modifiers(ord("q"))
            check(proc.wait(timeout=20) == 0, "Ctrl+Q quits")

        run(exe, env, first)
        check(os.path.isfile(db), "the history is a file in $XDG_DATA_HOME/agentskit-chat")
        check(stored_demo(db) == [("user", "remember me"), ("assistant", "AgentsKit received: remember me"),
                                  ("user", "and me"), ("assistant", "AgentsKit received: and me")],
              "the history holds the demo conversation")

        def second(proc, app):
            log = transcript(app)
            expected = ["remember me", "AgentsKit received: remember me", "and me", "AgentsKit received: and me"]
            check(ui.wait_for(lambda: all(t in ui.texts_under(log) for t in expected), what="the stored conversation"),
                  "after a restart, the transcript shows the conversation as it was")
            check(send_and_wait(app, "after restart"), "the reopened conversation goes on")
            proc.terminate()
            check(proc.wait(timeout=20) == 0, "SIGTERM quits as Ctrl+Q does")

        run(exe, env, second)
        rows = stored_demo(db)
        check(len(rows) == 6 and rows[-1] == ("assistant", "AgentsKit received: after restart"),
              f"what was said before SIGTERM is stored too ({len(rows)} messages)")

        # A damaged history: the application starts anyway, and says so.
        for suffix in ("-wal", "-shm"):
            if os.path.exists(db + suffix):
                os.unlink(db + suffix)
        with open(db, "wb") as f:
            f.write(b"This is not a database at all, not even nearly." * 100)

        def damaged(proc, app):
            frame = ui.wait_for(lambda: ui.find(app, role="frame"), what="the main window")
            check(frame is not None, "with a damaged history, the main window still opens")
            notice = ui.wait_for(lambda: [t for t in ui.texts_under(frame)
                                          if t.startswith("The conversation is not being saved.")],
                                 what="the notice")
            check(notice and "damaged" in notice[0], f"it says the conversation is not being saved, and why ({notice!r})")
            check(send_and_wait(app, "still here"), "and the conversation works")

        run(exe, env, damaged)
        with open(db, "rb") as f:
            check(f.read().startswith(b"This is not a database"), "the damaged file is left as it was")

    print(f"1..{len(checks)}", file=tap, flush=True)
    return 0 if all(ok for ok, _ in checks) else 1


if __name__ == "__main__":
    sys.exit(main())
