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
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from tap import check, finish  # noqa: E402


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
        check("the history passes integrity_check",
              connection.execute("PRAGMA integrity_check").fetchone()[0] == "ok")
        return connection.execute("SELECT role, content FROM messages WHERE conversation_id = 'demo' "
                                  "ORDER BY position").fetchall()


def run(exe, env, body):
    proc = ui.start_app(exe, env)
    try:
        body(proc, ui.find_app(proc))
    except ui.Timeout as e:
        check(str(e), False)
    finally:
        if proc.poll() is None:
            ui.stop_app(proc)


def main():
    exe = sys.argv[1]
    with tempfile.TemporaryDirectory(prefix="akc-history-") as data:
        env = {"XDG_DATA_HOME": data}
        db = os.path.join(data, "agentskit-chat", "history.sqlite3")

        def first(proc, app):
            check("a first message is answered", send_and_wait(app, "remember me"))
            check("a second message is answered", send_and_wait(app, "and me"))
            ui.press_with_modifiers(ord("q"))
            check("Ctrl+Q quits", proc.wait(timeout=20) == 0)

        run(exe, env, first)
        check("the history is a file in $XDG_DATA_HOME/agentskit-chat", os.path.isfile(db))
        check("the history holds the demo conversation",
              stored_demo(db) == [("user", "remember me"), ("assistant", "AgentsKit received: remember me"),
                                  ("user", "and me"), ("assistant", "AgentsKit received: and me")])

        def second(proc, app):
            log = transcript(app)
            expected = ["remember me", "AgentsKit received: remember me", "and me", "AgentsKit received: and me"]
            check("after a restart, the transcript shows the conversation as it was",
                  ui.wait_for(lambda: all(t in ui.texts_under(log) for t in expected), what="the stored conversation"))
            check("the reopened conversation goes on", send_and_wait(app, "after restart"))
            proc.terminate()
            check("SIGTERM quits as Ctrl+Q does", proc.wait(timeout=20) == 0)

        run(exe, env, second)
        rows = stored_demo(db)
        check(f"what was said before SIGTERM is stored too ({len(rows)} messages)",
              len(rows) == 6 and rows[-1] == ("assistant", "AgentsKit received: after restart"))

        # A damaged history: the application starts anyway, and says so.
        for suffix in ("-wal", "-shm"):
            if os.path.exists(db + suffix):
                os.unlink(db + suffix)
        with open(db, "wb") as f:
            f.write(b"This is not a database at all, not even nearly." * 100)

        def damaged(proc, app):
            frame = ui.wait_for(lambda: ui.find(app, role="frame"), what="the main window")
            check("with a damaged history, the main window still opens", frame is not None)
            notice = ui.wait_for(lambda: [t for t in ui.texts_under(frame)
                                          if t.startswith("The conversation is not being saved.")],
                                 what="the notice")
            check(f"it says the conversation is not being saved, and why ({notice!r})", notice and "damaged" in notice[0])
            check("and the conversation works", send_and_wait(app, "still here"))

        run(exe, env, damaged)
        with open(db, "rb") as f:
            check("the damaged file is left as it was", f.read().startswith(b"This is not a database"))

    return finish()


if __name__ == "__main__":
    sys.exit(main())
