#!/usr/bin/python3
"""A Python host hears the person in one place with a bare AkcGtk.ChatView, not
only with AkcGtk.ChatWidget: a choice made in the transcript reaches the
Akc.ControlledSource's choice-selected, and the interaction controller's
choice-selected, both with the frame, the choice id and its label (TAP)."""

import json
import os
import sys

import gi

gi.require_version("Akc", "1")
gi.require_version("AkcGtk", "1")
gi.require_version("Gtk", "4.0")
from gi.repository import Akc, AkcGtk, Gtk  # noqa: E402
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from tap import check, finish  # noqa: E402
from akc_gi import button_labelled, wait_for  # noqa: E402


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
check("the bare view shows the choice list", wait_for(lambda: button_labelled(view, "Large size") is not None))
button_labelled(view, "Large size").emit("clicked")
check("the choice reaches both the source and the controller", wait_for(lambda: len(heard) >= 2), heard)
check("the source's choice-selected carries the frame, the choice id and its label",
      ("source", "size-choice", "large", "Large size") in heard)
check("the interaction controller's choice-selected carries the label too",
      ("controller", "size-choice", "large", "Large size") in heard)
check("each hears the choice once", len(heard) == 2)

window.destroy()
sys.exit(finish())
