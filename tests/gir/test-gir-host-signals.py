#!/usr/bin/python3
"""A Python host hears the person in one place: choices and answers made in an
AkcGtk.ChatWidget arrive as signals of its Akc.ControlledSource, and a
snapshot without a draft keeps the one being typed (TAP)."""

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
from akc_gi import button_labelled, wait_for  # noqa: E402


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
check("the transcript shows the choice list", wait_for(lambda: button_labelled(widget, "Large") is not None))
button_labelled(widget, "Large").emit("clicked")
check("a choice reaches the source", wait_for(lambda: heard))
check(f"choice-selected carries the frame, the choice id and its label ({heard})",
      heard[:1] == [("choice", "size-choice", "large", "Large")])

try:
    source.select_choice(Akc.JsonValue.parse(json.dumps(FRAME)), "medium")
    check("a choice the list does not hold is refused", False)
except GLib.Error as error:
    check("a choice the list does not hold is refused", error.message == "Selected choice is not present in the ChoiceList.")

composer = widget.get_composer()
composer.set_text("half-written")
source.set_snapshot_json(snapshot())
check("a snapshot without input keeps the draft",
      source.props.input == "half-written" and composer.dup_text() == "half-written")
check("and the snapshot the source holds has it",
      source.get_snapshot().get_member("input").get_string() == "half-written")
source.set_snapshot_json(snapshot(with_input="from the host"))
check("a snapshot with input still sets it", composer.dup_text() == "from the host")

window.destroy()
sys.exit(finish())
