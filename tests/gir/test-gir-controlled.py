#!/usr/bin/python3
"""A Python host drives AkcGtk.ChatView in controlled mode (application.md §7, §12.9) (TAP)."""

import json
import os
import sys

import gi

gi.require_version("Akc", "1")
gi.require_version("AkcGtk", "1")
gi.require_version("Gtk", "4.0")
from gi.repository import Akc, AkcGtk, GLib, Gtk  # noqa: E402
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from tap import check, finish  # noqa: E402
from akc_gi import rows, wait_for  # noqa: E402


def message(id_, role, content, status="complete", second=0):
    return {"id": id_, "role": role, "content": content, "status": status,
            "createdAt": f"2026-07-14T00:00:{second:02d}.000Z"}


def snapshot(messages, status="idle", input_="", error=None):
    return {"sessionId": "python-host", "messages": messages, "status": status, "input": input_,
            "error": error, "usage": {"promptTokens": 1, "completionTokens": 1, "totalTokens": 2}}


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
check("the §7.3 callback names",
      Akc.controlled_snapshot_get_callback_names() ==
      ["send", "stop", "retry", "edit", "regenerate", "setInput", "clear", "proposeToolCall", "approve", "deny"])

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
check("the host's snapshot is the source's state",
      source.get_session_id() == "python-host" and source.get_messages().get_n_items() == 1)
check("the view shows the host's message", wait_for(lambda: rows(view) == ["Hello from Python."]), rows(view))
check("the composer shows the host's draft",
      composer.dup_text() == "draft from host" and source.props.input == "draft from host")

first = source.get_messages().get_item(0)
composer.set_text("What time is it?")
check("typing reaches the host as set-input", ("set-input", "What time is it?") in host.actions)
check("the composer sends", composer.send())
check("the send reached the Python handler", ("send", "What time is it?") in host.actions)
check("nothing changes before the host answers", source.get_messages().get_n_items() == 1)
check("the host's answer is shown",
      wait_for(lambda: rows(view) == ["Hello from Python.", "What time is it?", "You said: What time is it?"]),
      rows(view))
check("the unchanged message keeps its object", source.get_messages().get_item(0) == first)

try:
    source.set_snapshot_text(json.dumps(dict(snapshot(host.messages), status="pending")))
    check("an invalid snapshot raises", False)
except GLib.Error as error:
    check("an invalid snapshot raises its diagnostic", error.message == "Controlled chat snapshot is invalid.")
check("and the previous state is kept",
      source.get_messages().get_n_items() == 3 and source.get_status() == Akc.ChatStatus.IDLE)

host.publish(status="error", error={"message": "The host failed.", "code": "HOST_FAILED"})
check("the host's error is the source's error", source.get_status() == Akc.ChatStatus.ERROR and source.get_error().get_code() == "HOST_FAILED"
      and source.get_error().get_message() == "The host failed.")

window.destroy()
sys.exit(finish())
