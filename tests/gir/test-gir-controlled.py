#!/usr/bin/python3
"""A Python host drives AkcGtk.ChatView in controlled mode (application.md §7, §12.9) (TAP)."""

import json
import sys

import gi

gi.require_version("Akc", "1")
gi.require_version("AkcGtk", "1")
gi.require_version("Gtk", "4.0")
from gi.repository import Akc, AkcGtk, GLib, Gtk  # noqa: E402

results = []


def check(ok, description):
    results.append(bool(ok))
    print(f"{'ok' if ok else 'not ok'} {len(results)} - {description}", flush=True)


def message(id_, role, content, status="complete", second=0):
    return {"id": id_, "role": role, "content": content, "status": status,
            "createdAt": f"2026-07-14T00:00:{second:02d}.000Z"}


def snapshot(messages, status="idle", input_="", error=None):
    return {"sessionId": "python-host", "messages": messages, "status": status, "input": input_,
            "error": error, "usage": {"promptTokens": 1, "completionTokens": 1, "totalTokens": 2}}


def rows(widget):
    """The texts of the message rows the view shows, in order."""
    found = []
    child = widget.get_first_child()
    while child is not None:
        if isinstance(child, AkcGtk.MessageRow) and child.get_mapped():
            found.append(child.get_text())
        found.extend(rows(child))
        child = child.get_next_sibling()
    return found


def wait_for(predicate, timeout_s=20):
    context = GLib.MainContext.default()
    deadline = GLib.get_monotonic_time() + timeout_s * 1_000_000
    while not predicate() and GLib.get_monotonic_time() < deadline:
        context.iteration(False) or GLib.usleep(1000)
    return predicate()


class Host:
    """Owns the conversation: answers every send with a new snapshot."""

    def __init__(self, source):
        self.source = source
        self.messages = [message("a0", "assistant", "Hello from Python.")]
        self.actions = []
        for name in ("send", "stop", "retry", "regenerate", "edit", "set-input", "clear",
                     "propose-tool-call", "approve", "deny"):
            source.connect(name, self.on_action, name)

    def publish(self, **kwargs):
        self.source.set_snapshot_text(json.dumps(snapshot(self.messages, **kwargs)))

    def on_action(self, _source, *args):
        name, values = args[-1], args[:-1]
        self.actions.append((name,) + tuple(values))
        if name == "send":
            n = len(self.messages)
            self.messages.append(message(f"u{n}", "user", values[0], second=n))
            self.messages.append(message(f"a{n}", "assistant", "You said: " + values[0], second=n + 1))
            GLib.idle_add(lambda: self.publish() and False)


Gtk.init()
source = Akc.ControlledSource.new()
host = Host(source)
check(Akc.controlled_snapshot_get_callback_names() ==
      ["send", "stop", "retry", "edit", "regenerate", "setInput", "clear", "proposeToolCall", "approve", "deny"],
      "the §7.3 callback names")

view = AkcGtk.ChatView.new()
view.set_source(source)
composer = AkcGtk.Composer.new()
composer.set_source(source)
box = Gtk.Box(orientation=Gtk.Orientation.VERTICAL)
scrolled = Gtk.ScrolledWindow(vexpand=True)
scrolled.set_child(view)
box.append(scrolled)
box.append(composer)
window = Gtk.Window(default_width=480, default_height=600)
window.set_child(box)
window.present()

host.publish(input_="draft from host")
check(source.get_session_id() == "python-host" and source.get_messages().get_n_items() == 1,
      "the host's snapshot is the source's state")
check(wait_for(lambda: rows(view) == ["Hello from Python."]), f"the view shows the host's message ({rows(view)})")
check(composer.dup_text() == "draft from host" and source.props.input == "draft from host",
      "the composer shows the host's draft")

first = source.get_messages().get_item(0)
composer.set_text("What time is it?")
check(("set-input", "What time is it?") in host.actions, "typing reaches the host as set-input")
check(composer.send(), "the composer sends")
check(("send", "What time is it?") in host.actions, "the send reached the Python handler")
check(source.get_messages().get_n_items() == 1, "nothing changes before the host answers")
check(wait_for(lambda: rows(view) == ["Hello from Python.", "What time is it?", "You said: What time is it?"]),
      f"the host's answer is shown ({rows(view)})")
check(source.get_messages().get_item(0) == first, "the unchanged message keeps its object")

try:
    source.set_snapshot_text(json.dumps(dict(snapshot(host.messages), status="pending")))
    check(False, "an invalid snapshot raises")
except GLib.Error as error:
    check(error.message == "Controlled chat snapshot is invalid.", "an invalid snapshot raises its diagnostic")
check(source.get_messages().get_n_items() == 3 and source.get_status() == Akc.ChatStatus.IDLE,
      "and the previous state is kept")

host.publish(status="error", error={"message": "The host failed.", "code": "HOST_FAILED"})
check(source.get_status() == Akc.ChatStatus.ERROR and source.get_error().get_code() == "HOST_FAILED"
      and source.get_error().get_message() == "The host failed.", "the host's error is the source's error")

window.destroy()
print(f"1..{len(results)}")
sys.exit(0 if all(results) else 1)
