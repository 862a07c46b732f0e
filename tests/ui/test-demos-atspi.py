#!/usr/bin/python3
"""Every offline demo run to completion from the keyboard alone (TAP).

Starts agentskit-chat over AT-SPI and drives it with synthesized key presses
only: F10 and a mnemonic pick each demo from the main menu; messages are
typed into the composer and sent with Enter; a choice list, which takes the
keyboard when it appears (application.md §12.4), is answered with Enter,
or set aside with Escape; a form is filled field by field (Down cycles a
select, Enter confirms a field and submits on the last one); Shift+the
confirmation of a chosen action takes the keyboard on Deny, and Tab reaches
Approve. The transcripts
follow application.md §13.

The pointer is only moved over the window once, so that the X server (there
is no window manager) gives it the keyboard.
"""

import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import akc_atspi as ui  # noqa: E402
import pyatspi  # noqa: E402
from gi.repository import Atspi  # noqa: E402
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from tap import check, finish  # noqa: E402


KEY_RETURN = 0xFF0D
KEY_ESCAPE = 0xFF1B
KEY_TAB = 0xFF09
KEY_DOWN = 0xFF54
KEY_F10 = 0xFFC7
ISO_LEFT_TAB = 0xFE20


def shot(name):
    """With AKC_TEST_SHOTS=DIR, saves the screen as DIR/NAME.png."""
    folder = os.environ.get("AKC_TEST_SHOTS")
    if folder:
        subprocess.run(["import", "-window", "root", os.path.join(folder, name + ".png")], check=False)


def key(keysym):
    Atspi.generate_keyboard_event(keysym, None, Atspi.KeySynthType.SYM)


def focused(acc):
    try:
        return acc.getState().contains(pyatspi.STATE_FOCUSED)
    except Exception:
        return False


class Demo:
    def __init__(self, app):
        self.app = app

    def entry(self):
        return ui.wait_for(lambda: ui.find(self.app, role="text", name="Message"), what="the message entry")

    def log(self):
        return ui.wait_for(lambda: ui.find(self.app, role="log", name="Messages"), what="the transcript")

    def texts(self):
        """The text of every label, and the names of alerts and groups."""
        try:
            out = ui.texts_under(self.app)
            for role in ("alert", "panel", "group"):
                out += [acc.name for acc in ui.find_all(self.app, role=role) if acc.name]
            return out
        except Exception:
            return []

    def has_text(self, text):
        return any(text in t for t in self.texts())

    def wait_text(self, text, what=None):
        return ui.wait_for(lambda: self.has_text(text), timeout=30.0, what=what or repr(text))

    def idle(self):
        """Waits until no reply streams (Send is back)."""
        ui.wait_for(lambda: ui.find(self.app, role="push button", name="Send"), timeout=30.0,
                    what="the reply to finish")

    def send(self, message):
        """Types message into the composer, which must have the keyboard,
        and presses Enter."""
        entry = self.entry()
        ui.wait_for(lambda: entry.getState().contains(pyatspi.STATE_SENSITIVE) and focused(entry),
                    timeout=30.0, what="the composer to take the keyboard")
        ui.type_text(message)
        ui.wait_for(lambda: ui.text_of(entry) == message, what="the typed text in the entry")
        key(KEY_RETURN)

    def pick_demo(self, mnemonic, title):
        """F10 opens the main menu; the mnemonic picks the demo."""
        key(F10_KEY)
        ui.wait_for(lambda: ui.find(self.app, role="menu item", name=title) or
                    ui.find(self.app, role="radio menu item", name=title) or
                    ui.find(self.app, role="check menu item", name=title),
                    what=f"the menu item {title!r}")
        key(ord(mnemonic))
        ui.wait_for(lambda: ui.find(self.app, role="label", name=title) is not None and
                    focused(self.entry()), what=f"the {title} demo")

    def component_has_focus(self, name):
        """The button named name, inside the component that owns input,
        has the keyboard."""
        button = ui.wait_for(lambda: ui.find(self.app, role="push button", name=name) or
                             ui.find(self.app, role="radio button", name=name) or
                             ui.find(self.app, role="toggle button", name=name),
                             timeout=30.0, what=f"the choice {name!r}")
        return ui.wait_for(lambda: focused(button) or self._focus_inside(button), what=f"{name!r} to take the keyboard")

    def _focus_inside(self, acc):
        return pyatspi.findDescendant(acc, focused) is not None

    def approve(self, title):
        """The confirmation of the chosen action, named by the tool's title
        (not its id), takes the keyboard on Deny; Tab reaches Approve, and
        Enter approves."""
        group = ui.wait_for(lambda: ui.find(self.app, role="panel", name=title), timeout=30.0,
                            what=f"the confirmation {title!r}")
        deny = ui.find(group, role="push button", name="Deny")
        approve = ui.find(group, role="push button", name="Approve")
        ui.wait_for(lambda: focused(deny), what="Deny to take the keyboard")
        key(KEY_TAB)
        ui.wait_for(lambda: focused(approve), what="Tab to reach Approve")
        key(KEY_RETURN)
        ui.wait_for(lambda: ui.find(self.app, role="panel", name=title) is None, timeout=30.0,
                    what=f"the confirmation {title!r} to go")
        return True


F10_KEY = KEY_F10


def run_hello_world(demo):
    demo.send("/restricted")
    demo.idle()
    check("hello-world: /restricted offers a choice that takes the keyboard",
          demo.component_has_focus("Run restricted action"))
    key(KEY_RETURN)
    denial = "This action needs a signed-in account, and there is none."
    demo.wait_text(denial, "the denial")
    check("hello-world: choosing the restricted action is denied by the policy (missing-context), said as a sentence in an alert",
          ui.find(demo.app, role="alert") is not None and demo.has_text(denial) and not demo.has_text("missing-context"))
    key(KEY_ESCAPE)
    check("hello-world: Escape sets the choice aside and the composer takes the keyboard",
          ui.wait_for(lambda: focused(demo.entry()), what="the composer"))
    demo.send("/start")
    check("hello-world: /start asks for the name", demo.wait_text("What is your name?"))
    demo.idle()
    demo.send("/name Ada")
    check("hello-world: /name Ada welcomes Ada", demo.wait_text("Welcome, Ada."))
    demo.idle()
    demo.send("hello")
    check("hello-world: other messages get the echo reply", demo.wait_text("AgentsKit received: hello"))
    demo.idle()


def run_support(demo):
    demo.pick_demo("s", "Support")
    check("support: F10 and S open the support demo", True)
    demo.send("/support")
    demo.idle()
    check("support: /support offers a ticket, and the choice list takes the keyboard",
          demo.component_has_focus("Open support ticket"))
    key(KEY_RETURN)
    check("support: the ticket waits for confirmation, which takes the keyboard; Tab reaches Approve and Enter approves",
          demo.approve("Create a support ticket"))
    check("support: the ticket SUP-1 is created once", demo.wait_text("Ticket SUP-1 created for follow-up."))
    demo.idle()
    demo.send("/start")
    demo.wait_text("What is your name?")
    demo.idle()
    demo.send("/name Ada")
    check("support: /start then /name Ada welcomes Ada", demo.wait_text("Welcome, Ada."))
    demo.idle()


def run_onboarding(demo):
    demo.pick_demo("o", "Onboarding")
    demo.send("/onboarding")
    demo.idle()
    role = ui.wait_for(lambda: ui.find(demo.app, role="combo box", name="Primary role"),
                       timeout=30.0, what="the form")
    # The select itself must hold the keyboard before the arrow key goes out:
    # any other focused widget (the composer letting go, a row) would take it.
    ui.wait_for(lambda: focused(role) or demo._focus_inside(role),
                what="the form's first field to take the keyboard")
    check("onboarding: /onboarding shows the form, which takes the keyboard", role is not None)
    key(KEY_DOWN)        # Primary role: Engineering
    key(KEY_RETURN)      # to First goal
    goal = ui.wait_for(lambda: ui.find(demo.app, role="text", name="First goal"), what="the goal field")
    ui.wait_for(lambda: focused(goal), what="the goal field to take the keyboard")
    ui.type_text("Automate handoffs")
    ui.wait_for(lambda: ui.text_of(goal) == "Automate handoffs", what="the typed goal")
    key(KEY_RETURN)      # the last field: submit
    ui.wait_for(lambda: focused(demo.entry()), what="the composer after the form")
    check("onboarding: the form is filled and submitted from the keyboard", True)
    demo.send("/recommend")
    check("onboarding: /recommend recommends the engineering starter", demo.wait_text("engineering starter"))
    demo.idle()
    demo.component_has_focus("Use this setup")
    key(KEY_RETURN)
    ui.wait_for(lambda: focused(demo.entry()), what="the composer after the recommendation")
    demo.send("/accept")
    demo.idle()
    check("onboarding: /accept asks to complete onboarding", demo.component_has_focus("Complete onboarding"))
    key(KEY_RETURN)
    check("onboarding: completing waits for confirmation and is approved", demo.approve("Complete onboarding"))
    check("onboarding: the completion ran", demo.wait_text("Onboarding confirmed."))
    demo.idle()
    demo.send("/done")
    check("onboarding: /done completes the onboarding",
          demo.wait_text("Onboarding complete. Your guided workspace is ready."))
    demo.idle()


def run_operations(demo):
    demo.pick_demo("p", "Operations")
    demo.send("/operations")
    demo.idle()
    check("operations: /operations offers status and restart", demo.component_has_focus("Read status"))
    key(KEY_RETURN)
    check("operations: reading the status is confirmed", demo.approve("Read the service status"))
    check("operations: checkout-api is healthy", demo.wait_text("checkout-api is healthy at revision 1."))
    demo.idle()


def run_rag(demo):
    demo.pick_demo("g", "Grounded Answers")
    demo.send("What is AgentsKit Chat?")
    check("rag: the question is answered with its source", demo.wait_text("AgentsKit Chat overview"))
    demo.idle()
    # The source list is navigation, not a question: the composer keeps the
    # keyboard (docs/port-decisions.md, §12.4).
    check("rag: the source list does not take the keyboard from the composer",
          focused(demo.entry()) and demo.has_text("AgentsKit Chat overview"))
    demo.send("something unknown")
    check("rag: a question without sources says so",
          demo.wait_text("No grounded sources were found for this question."))
    demo.idle()


def main():
    exe = sys.argv[1]
    proc = ui.start_app(exe)
    try:
        app = ui.find_app(proc)
        frame = ui.wait_for(lambda: ui.find(app, role="frame"), what="the main window")
        demo = Demo(app)
        # No window manager: the window under the pointer gets the keyboard.
        extents = frame.queryComponent().getExtents(pyatspi.WINDOW_COORDS)
        Atspi.generate_mouse_event(extents.x + extents.width // 2, extents.y + 10, "abs")
        ui.wait_for(lambda: focused(demo.entry()), what="the composer to have the keyboard")
        check("the app opens on the hello-world demo", ui.find(app, role="label", name="Hello World") is not None)

        only = os.environ.get("AKC_TEST_DEMOS")
        for run in (run_hello_world, run_support, run_onboarding, run_operations, run_rag):
            if only and run.__name__[4:] not in only.split(","):
                continue
            try:
                run(demo)
            except ui.Timeout as e:
                shot(run.__name__)
                check(f"{run.__name__}: {e}", False)
    finally:
        ui.stop_app(proc)

    return finish()


if __name__ == "__main__":
    sys.exit(main())
