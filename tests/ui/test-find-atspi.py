#!/usr/bin/python3
"""The find in a conversation and the actions of a message, with real keys
(issue 14 items 5 and 7; TAP, over AT-SPI).

Runs agentskit-chat on a history of its own, sends a few messages, then:
Ctrl+F in the conversation opens the find bar with the keyboard in it;
typing finds the word in the transcript and says "N of M"; Enter,
Shift+Enter, Ctrl+G and Ctrl+Shift+G move between the matches; Escape
closes the bar and gives the keyboard back to the composer.

With AKC_SCREENSHOT_DIR set, the window is captured there with the find
bar open.
"""

import os
import re
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import akc_atspi as ui  # noqa: E402

KEY_RETURN = 0xFF0D

checks = []
tap = os.fdopen(int(os.environ["AKC_TAP_FD"]), "w") if "AKC_TAP_FD" in os.environ else sys.stdout


def check(ok, description):
    checks.append((bool(ok), description))
    print(f"{'ok' if ok else 'not ok'} {len(checks)} - {description}", file=tap, flush=True)


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


def main():
    exe = sys.argv[1]
    with tempfile.TemporaryDirectory(prefix="akc-find-") as data:
        env = {"XDG_DATA_HOME": data}
        env.update({k: v for k, v in os.environ.items() if k.startswith("ADW_DEBUG")})
        proc = ui.start_app(exe, env)
        try:
            app = ui.find_app(proc)
            for text in ("apple pie", "banana split", "apple tart"):
                check(send_and_wait(app, text), f"{text!r} is answered")

            # The keyboard is in the composer: Ctrl+F finds in the conversation.
            ui.press_with_modifiers(ord("f"))
            entry = ui.wait_for(lambda: ui.find(app, name="Find in Conversation", role="entry"),
                                what="the find entry")
            check(ui.wait_for(lambda: focused(entry)), "Ctrl+F in the conversation puts the keyboard in its find bar")
            check(ui.find(app, name="Search Conversations", role="entry") is None or
                  not focused(ui.find(app, name="Search Conversations", role="entry")),
                  "the sidebar's search is not the one opened")

            ui.type_text("APPLE")
            found = ui.wait_for(lambda: count(app), what="the count of matches")
            # Each of the two messages and each reply that repeats it.
            check(found[1] >= 4, f"the word is found in the whole transcript, any case (got {found})")
            total = found[1]
            check(found[0] == total, f"the current match is the newest one (got {found})")
            screenshot("find.png")

            ui.press_return()
            check(ui.wait_for(lambda: count(app) == (1, total)), "Enter goes on to the next match, round to the first")
            ui.press_with_modifiers(KEY_RETURN, control=False, shift=True)
            check(ui.wait_for(lambda: count(app) == (total, total)), "Shift+Enter goes back")
            ui.press_with_modifiers(ord("g"))
            check(ui.wait_for(lambda: count(app) == (1, total)), "Ctrl+G goes to the next match")
            ui.press_with_modifiers(ord("g"), shift=True)
            check(ui.wait_for(lambda: count(app) == (total, total)), "Ctrl+Shift+G to the previous one")

            ui.type_text("zzz")
            check(ui.wait_for(lambda: ui.find(app, role="label", name="No matches")), "a word not there: No matches")

            ui.press_escape()
            composer = ui.find(app, role="text", name="Message")
            check(ui.wait_for(lambda: focused(composer)), "Escape closes the find and gives the keyboard back to the composer")
            check(ui.wait_for(lambda: count(app) is None and not ui.find(app, role="label", name="No matches")),
                  "with the bar closed, nothing is counted")
        except ui.Timeout as e:
            check(False, str(e))
        finally:
            if proc.poll() is None:
                ui.stop_app(proc)

    print(f"1..{len(checks)}", file=tap, flush=True)
    return 0 if all(ok for ok, _ in checks) else 1


if __name__ == "__main__":
    sys.exit(main())
