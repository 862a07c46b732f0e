#!/usr/bin/python3
"""A Python host hears the person in one place with a bare AkcGtk.ChatView, not
only with AkcGtk.ChatWidget: a choice made in the transcript reaches the
Akc.ControlledSource's choice-selected, and the interaction controller's
choice-selected, both with the frame, the choice id and its label (TAP)."""

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


def wait_for(predicate, timeout_s=20):
    context = GLib.MainContext.default()
    deadline = GLib.get_monotonic_time() + timeout_s * 1_000_000
    while not predicate() and GLib.get_monotonic_time() < deadline:
        context.iteration(False) or GLib.usleep(1000)
    return predicate()


def descendants(widget):
    child = widget.get_first_child()
    while child is not None:
        yield child
        yield from descendants(child)
        child = child.get_next_sibling()


def button_labelled(widget, text):
    for candidate in descendants(widget):
        if isinstance(candidate, Gtk.Button) and candidate.get_mapped() and any(
                isinstance(label, Gtk.Label) and label.get_label() == text for label in descendants(candidate)):
            return candidate
    return None


FRAME = {
    "protocol": "agentskit.chat.component", "version": 1, "type": "render",
    "componentKey": "choice-list", "instanceId": "size-choice",
    "props": {"prompt": "Which size?", "choices": [
        {"id": "small", "label": "Small"}, {"id": "large", "label": "Large size"}]},
    "fallback": {"kind": "choice-list", "summary": "Small or large."},
}
SNAPSHOT = json.dumps({
    "sessionId": "one-place", "status": "idle", "error": None, "input": "",
    "usage": {"promptTokens": 0, "completionTokens": 0, "totalTokens": 0},
    "messages": [{"id": "a1", "role": "assistant", "content": json.dumps(FRAME),
                  "status": "complete", "createdAt": "2026-07-14T00:00:00.000Z"}]})

source = Akc.ControlledSource.new()
manifest = Akc.ComponentManifest.new_standard()
heard = []
source.connect("choice-selected", lambda _s, frame, choice_id, label: heard.append(
    ("source", frame.get_member("instanceId").get_string(), choice_id, label)))

controller = Akc.InteractionController.new(source)
controller.set_manifest(manifest)


def on_controller_choice(_controller, frame, choice_id, label):
    heard.append(("controller", frame.get_member("instanceId").get_string(), choice_id, label))
    return True  # the host keeps the choice


controller.connect("choice-selected", on_controller_choice)

view = AkcGtk.ChatView.new()
view.set_source(source)
view.set_manifest(manifest)
view.set_interaction(controller)
window = Gtk.Window(default_width=480, default_height=640,
                    child=Gtk.ScrolledWindow(child=view, vexpand=True))
window.present()

source.set_snapshot_text(SNAPSHOT)
check(wait_for(lambda: button_labelled(view, "Large size") is not None), "the bare view shows the choice list")
button_labelled(view, "Large size").emit("clicked")
check(wait_for(lambda: len(heard) >= 2), f"the choice reaches both the source and the controller ({heard})")
check(("source", "size-choice", "large", "Large size") in heard,
      "the source's choice-selected carries the frame, the choice id and its label")
check(("controller", "size-choice", "large", "Large size") in heard,
      "the interaction controller's choice-selected carries the label too")
check(len(heard) == 2, "each hears the choice once")

window.destroy()
print(f"1..{len(results)}")
sys.exit(0 if all(results) else 1)
