#!/usr/bin/python3
"""Takes the sidebar screenshots of the metainfo (see build-aux/screenshot-sidebar).

Drives the app with keys like a person: a few conversations with the offline
demos (New Chat With… from the main menu), one pinned; then spreads their
times over the last weeks in the history, as a history of a few weeks
looks, and captures the window at full width and at 360 px, where the
sidebar is the whole window.
"""

import os
import sqlite3
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests", "ui"))

import akc_atspi as ui  # noqa: E402

KEY_F10 = 0xFFC7
KEY_MENU_SHIFT_F10 = 0xFFC7


def key(keysym):
    ui.Atspi.generate_keyboard_event(keysym, None, ui.Atspi.KeySynthType.SYM)


def reply(app, text, answer):
    ui.type_and_send(app, text)
    log = ui.wait_for(lambda: ui.find(app, role="log", name="Messages"), what="the transcript")
    ui.wait_for(lambda: any(answer in t for t in ui.texts_under(log)) and
                ui.find(app, role="push button", name="Send"), what=f"the reply to {text!r}")


def new_chat_with(app, mnemonic, title):
    key(KEY_F10)
    ui.wait_for(lambda: ui.find(app, role="menu item", name=title), what=f"the menu item {title!r}")
    key(ord(mnemonic))
    ui.wait_for(lambda: ui.find(app, role="frame", name="New Chat"), what=f"a new chat with {title}")


def settings_dir(width, height):
    folder = tempfile.mkdtemp(prefix="akc-shot-config-")
    os.makedirs(os.path.join(folder, "glib-2.0", "settings"))
    with open(os.path.join(folder, "glib-2.0", "settings", "keyfile"), "w") as f:
        f.write(f"[io/agentskit/Chat]\nwindow-width={width}\nwindow-height={height}\n")
    return folder


def capture(title, out):
    tree = subprocess.run(["xwininfo", "-root", "-tree"], check=True, capture_output=True, text=True).stdout
    window = next(line.split()[0] for line in tree.splitlines() if f'"{title}"' in line)
    subprocess.run(["import", "-window", window, out], check=True)


def main():
    exe, full, narrow = sys.argv[1], sys.argv[2], sys.argv[3]
    data = tempfile.mkdtemp(prefix="akc-shot-data-")
    env = {"XDG_DATA_HOME": data, "GSETTINGS_BACKEND": "keyfile", "XDG_CONFIG_HOME": settings_dir(1000, 680)}

    proc = ui.start_app(exe, env)
    try:
        app = ui.find_app(proc)
        ui.wait_for(lambda: ui.find(app, role="frame", name="New Chat"), what="the window")
        reply(app, "What can you do offline?", "AgentsKit received")
        new_chat_with(app, "s", "Support")
        reply(app, "My order never arrived", "AgentsKit received")
        new_chat_with(app, "g", "Grounded Answers")
        reply(app, "What is AgentsKit Chat?", "AgentsKit Chat overview")
        new_chat_with(app, "o", "Onboarding")
        reply(app, "Help me set up my workspace", "AgentsKit received")
        new_chat_with(app, "p", "Operations")
        reply(app, "Is checkout-api healthy?", "AgentsKit received")
        new_chat_with(app, "h", "Hello World")
        reply(app, "Plan a trip to Lisbon", "AgentsKit received")
        ui.press_with_modifiers(ord("q"))
        proc.wait(timeout=20)
    finally:
        if proc.poll() is None:
            ui.stop_app(proc)

    # A history of a few weeks: the conversations' last changes spread out.
    db = os.path.join(data, "agentskit-chat", "history.sqlite3")
    now = int(time.time() * 1_000_000)
    day = 86_400 * 1_000_000
    ages = {"My order never arrived": 1, "What is AgentsKit Chat?": 3, "Help me set up my workspace": 5,
            "Is checkout-api healthy?": 40}
    with sqlite3.connect(db) as connection:
        for title, days in ages.items():
            connection.execute("UPDATE conversations SET updated_at = ? WHERE title = ?", (now - days * day, title))

    for (width, height, out, title) in ((1000, 680, full, "Plan a trip to Lisbon"), (360, 640, narrow, "Plan a trip to Lisbon")):
        env["XDG_CONFIG_HOME"] = settings_dir(width, height)
        proc = ui.start_app(exe, env)
        try:
            app = ui.find_app(proc)
            ui.wait_for(lambda: ui.find(app, role="frame", name=title), what="the window")
            if width > 500:
                # Pin the oldest conversation: search it, then its menu.
                entry = ui.wait_for(lambda: ui.find(app, role="text", name="Message"), what="the composer")
                ui.wait_for(lambda: ui.click(entry) or entry.getState().contains(ui.pyatspi.STATE_FOCUSED),
                            what="the keyboard")
                ui.press_with_modifiers(ord("f"))
                ui.wait_for(lambda: ui.find(app, role="entry", name="Search Conversations").getState()
                            .contains(ui.pyatspi.STATE_FOCUSED), what="the search")
                ui.type_text("checkout")
                time.sleep(0.5)
                ui.press_return()
                ui.wait_for(lambda: ui.find(app, role="frame", name="Is checkout-api healthy?"), what="the result")
                ui.press_with_modifiers(KEY_MENU_SHIFT_F10, control=False, shift=True)
                ui.wait_for(lambda: ui.find(app, role="menu item", name="Pin"), what="the row's menu")
                key(0xFF54)  # from Rename… down to Pin
                ui.press_return()
                ui.press_with_modifiers(ord("f"))
                ui.press_escape()
                ui.wait_for(lambda: ui.find(app, name="Pinned"), what="the pinned heading")
                # Back to the newest one.
                ui.press_with_modifiers(ord("f"))
                ui.type_text("Lisbon")
                time.sleep(0.5)
                ui.press_return()
                ui.press_with_modifiers(ord("f"))
                ui.press_escape()
                title = "Plan a trip to Lisbon"
                ui.wait_for(lambda: ui.find(app, role="frame", name=title), what="the newest conversation")
            time.sleep(1.0)
            capture(title, out)
            ui.press_with_modifiers(ord("q"))
            proc.wait(timeout=20)
        finally:
            if proc.poll() is None:
                ui.stop_app(proc)


if __name__ == "__main__":
    main()
