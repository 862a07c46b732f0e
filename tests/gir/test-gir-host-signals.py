#!/usr/bin/python3
"""A Python host hears the person in one place: choices and answers made in an
AkcGtk.ChatWidget arrive as signals of its Akc.ControlledSource, and a
snapshot without a draft keeps the one being typed (TAP)."""

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
        {"id": "small", "label": "Small"}, {"id": "large", "label": "Large"}]},
    "fallback": {"kind": "choice-list", "summary": "Small or large."},
}


def snapshot(with_input=None):
    shell = {"sessionId": "signals", "status": "idle", "error": None,
             "usage": {"promptTokens": 0, "completionTokens": 0, "totalTokens": 0},
             "messages": [{"id": "a1", "role": "assistant", "content": json.dumps(FRAME),
                           "status": "complete", "createdAt": "2026-07-14T00:00:00.000Z"}]}
    if with_input is not None:
        shell["input"] = with_input
    return json.dumps(shell)


source = Akc.ControlledSource.new()
heard = []
source.connect("choice-selected", lambda _s, frame, choice_id, label: heard.append(
    ("choice", frame.get_member("instanceId").get_string(), choice_id, label)))
source.connect("component-interaction", lambda _s, frame, event, value: heard.append(("interaction", event)))

widget = AkcGtk.ChatWidget.new(source)
widget.set_manifest(Akc.ComponentManifest.new_standard())
window = Gtk.Window(default_width=480, default_height=640, child=widget)
window.present()

source.set_snapshot_json(snapshot(with_input=""))
check(wait_for(lambda: button_labelled(widget, "Large") is not None), "the transcript shows the choice list")
button_labelled(widget, "Large").emit("clicked")
check(wait_for(lambda: heard), "a choice reaches the source")
check(heard[:1] == [("choice", "size-choice", "large", "Large")],
      f"choice-selected carries the frame, the choice id and its label ({heard})")

try:
    source.select_choice(Akc.JsonValue.parse(json.dumps(FRAME)), "medium")
    check(False, "a choice the list does not hold is refused")
except GLib.Error as error:
    check(error.message == "Selected choice is not present in the ChoiceList.", "a choice the list does not hold is refused")

composer = widget.get_composer()
composer.set_text("half-written")
source.set_snapshot_json(snapshot())
check(source.props.input == "half-written" and composer.dup_text() == "half-written",
      "a snapshot without input keeps the draft")
check(source.get_snapshot().get_member("input").get_string() == "half-written",
      "and the snapshot the source holds has it")
source.set_snapshot_json(snapshot(with_input="from the host"))
check(composer.dup_text() == "from the host", "a snapshot with input still sets it")

window.destroy()
print(f"1..{len(results)}")
sys.exit(0 if all(results) else 1)
