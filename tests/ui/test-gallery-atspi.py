#!/usr/bin/python3
"""Out-of-process accessibility test of the component gallery (TAP).

Starts `agentskit-chat --gallery` and reads its tree over AT-SPI: every
standard component, the semantic fallback and the event log are listed
with the AT-SPI role GTK 4.8 exports for them and their name and
description. GTK 4.8 exports the group role as 'panel' (like several other
roles), so for the four group components the name is what tells them
apart; form, progress bar, list, link, alert, status bar, table, log and
label are distinct AT-SPI roles and are asserted as such.

Then it operates components as assistive technologies and keyboards do:
the accessible "click" action resolves a button group exactly once (a
second click is ignored and the buttons become insensitive), and real key
presses synthesized on the display select a choice by its number.
"""

import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import akc_atspi as ui  # noqa: E402
import pyatspi  # noqa: E402
import gi  # noqa: E402

gi.require_version("Atspi", "2.0")
from gi.repository import Atspi  # noqa: E402
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from tap import check, finish  # noqa: E402


# (component key, exported AT-SPI role, accessible name, accessible description)
COMPONENTS = [
    ("button-group", "panel", "How should I handle this ticket?",
     "How should I handle this ticket?: Resolve, Snooze, Escalate, Close."),
    ("choice-list", "panel", "Where should we go next?",
     "Where should we go next? Documentation, Live demo, Pricing."),
    ("form", "form", "Book a demo",
     "Book a demo: Name, Work email, Seats, Plan, Send me product updates."),
    ("confirmation", "panel", "Delete this conversation?",
     "Delete this conversation?: All 24 messages will be removed. This cannot be undone."),
    ("progress", "progress bar", "Indexing documents", "Indexing documents: 68%."),
    ("source-list", "list", "Sources",
     "Sources: AgentsKit component guide, Release notes 0.4, Team wiki (not linked)."),
    ("link-card", "link", "Component guide",
     "Component guide: Roles, keys and events of the twelve standard components."),
    ("error-notice", "alert", "Couldn't reach the knowledge base",
     "Couldn't reach the knowledge base: The request timed out after 30 seconds."),
    ("tool-call", "status bar", "search_docs", "search_docs: complete."),
    ("approval-request", "panel", "Send this email?",
     "Send this email?: The assistant wants to send the meeting summary to team@example.com."),
    ("table", "table", "Open tickets", "Open tickets: 40 rows."),
    ("file-attachment", "panel", "quarterly-report.pdf", "quarterly-report.pdf (application/pdf)."),
]

FALLBACK = "[unsupported visual: revenue-chart] Revenue grew 12% quarter over quarter."


def sensitive(acc):
    return acc.getState().contains(pyatspi.STATE_SENSITIVE)


def log_entries(log):
    return [t for t in ui.texts_under(log) if t.startswith("{")]


def press_key(keysym):
    Atspi.generate_keyboard_event(keysym, None, Atspi.KeySynthType.SYM)


def main():
    exe = sys.argv[1]
    env = dict(os.environ)
    env.pop("GTK_A11Y", None)  # the AT-SPI backend is the default
    proc = subprocess.Popen([exe, "--gallery"], env=ui.app_environment(env), stdin=subprocess.DEVNULL)
    try:
        app = ui.find_app(proc)
        frame = ui.wait_for(lambda: ui.find(app, role="frame", name="Component Gallery"), what="the gallery window")
        check("--gallery opens a frame named 'Component Gallery'", frame is not None)
        ui.wait_for(lambda: ui.find(frame, role="table", name="Open tickets"), what="the components")

        # Every component, with the role GTK 4.8 exports and its name.
        for key, role, name, description in COMPONENTS:
            found = ui.find_all(frame, role=role, name=name)
            check(f"{key}: one element with role '{role}' and name {name!r} (found {len(found)})", len(found) == 1)
            if found:
                got = found[0].description
                check(f"{key}: described by the definition fallback {description!r} (got {got!r})", got == description)

        # Distinct roles are not only present but unique to their component.
        for role in ("form", "progress bar", "alert", "status bar", "table"):
            found = ui.find_all(frame, role=role)
            check(f"exactly one element has role '{role}' (found {len(found)})", len(found) == 1)
        # (GtkColumnView's row list inside the table is a list too.)
        table = ui.find(frame, role="table", name="Open tickets")
        lists = [acc for acc in ui.find_all(frame, role="list") if acc not in ui.find_all(table, role="list")]
        check(f"outside the table, the source list is the only list (found {[acc.name for acc in lists]})",
              len(lists) == 1 and lists[0].name == "Sources")

        fallback = ui.find(frame, role="label", name=FALLBACK)
        check("the unknown component shows the semantic fallback as a label", fallback is not None)
        log = ui.find(frame, role="log", name="Event log")
        check("the event log has role 'log' and name 'Event log'", log is not None)

        # Inner elements.
        group = ui.find(frame, role="panel", name="How should I handle this ticket?")
        escalate = ui.find(group, role="push button", name="Escalate")
        check("the disabled button is exported insensitive", escalate is not None and not sensitive(escalate))
        attachment = ui.find(frame, role="panel", name="quarterly-report.pdf")
        check("the file attachment opens through a link 'Open'", ui.find(attachment, role="link", name="Open") is not None)
        sources = ui.find(frame, role="list", name="Sources")
        items = ui.find_all(sources, role="list item")
        links = ui.find_all(sources, role="link")
        check(f"the source list has 3 list items and 2 links (got {len(items)}, {len(links)})",
              len(items) == 3 and len(links) == 2)
        form = ui.find(frame, role="form", name="Book a demo")
        check("form fields are labelled entries", ui.find(form, role="text", name="Work email") is not None)
        check("the checkbox field is a labelled check box",
              ui.find(form, role="check box", name="Send me product updates") is not None)

        # The accessible click action: exactly one event, then inert.
        resolve = ui.find(group, role="push button", name="Resolve")
        resolve.queryAction().doAction(0)
        ui.wait_for(lambda: len(log_entries(log)) == 1, what="the first event in the log")
        entries = log_entries(log)
        check(f"clicking 'Resolve' logs the select event (got {entries[0]!r})",
              '"componentKey":"button-group"' in entries[0] and '"event":"select","value":"resolve"' in entries[0])
        ui.wait_for(lambda: not sensitive(resolve), what="the resolved button group")
        check("the resolved button group is insensitive", not sensitive(resolve))
        resolve.queryAction().doAction(0)
        snooze = ui.find(group, role="push button", name="Snooze")
        snooze.queryAction().doAction(0)
        # A later event proves the earlier clicks were processed first.
        guide = ui.find(frame, role="link", name="Component guide")
        guide.queryAction().doAction(0)
        ui.wait_for(lambda: len(log_entries(log)) >= 2, what="the link card event")
        entries = log_entries(log)
        check(f"a second click on the resolved group emits nothing (log has {len(entries)} events)",
              len(entries) == 2 and '"componentKey":"link-card"' in entries[1])

        # Real keys: the choice list takes a digit and Enter.
        choices = ui.find(frame, role="panel", name="Where should we go next?")
        first = ui.find(choices, role="push button", name="Documentation")
        ui.click(ui.find(choices, role="label", name="Where should we go next?") or choices)  # focus the window
        # GTK 4.8 has no Component.GrabFocus: Tab there, as a keyboard user does.
        for _ in range(40):
            if first.getState().contains(pyatspi.STATE_FOCUSED):
                break
            press_key(0xFF09)  # Tab
            try:
                ui.wait_for(lambda: first.getState().contains(pyatspi.STATE_FOCUSED), timeout=0.3)
            except ui.Timeout:
                pass
        check("Tab reaches the first choice", first.getState().contains(pyatspi.STATE_FOCUSED))
        press_key(ord("2"))
        press_key(0xFF0D)  # Return
        ui.wait_for(lambda: len(log_entries(log)) >= 3, what="the selection event")
        entries = log_entries(log)
        check(f"typing 2 then Enter selects the second choice (got {entries[2]!r})",
              '"type":"select","componentKey":"choice-list"' in entries[2] and '"choiceId":"demo"' in entries[2])
        check("the resolved choice list is insensitive", not sensitive(first))
    except ui.Timeout as e:
        check(str(e), False)
    finally:
        ui.stop_app(proc)

    return finish()


if __name__ == "__main__":
    sys.exit(main())
