#!/usr/bin/python3
"""A Python host registers the native widget of a custom component on an
AkcGtk.ChatView (application.md §12.10): the view draws it instead of the
semantic fallback, and its event answers the instance once (§12.7) (TAP)."""

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
from akc_gi import wait_for  # noqa: E402


def find(widget, predicate):
    if predicate(widget):
        return widget
    child = widget.get_first_child()
    while child is not None:
        found = find(child, predicate)
        if found is not None:
            return found
        child = child.get_next_sibling()
    return None


FRAME = {
    "protocol": "agentskit.chat.component", "version": 1, "type": "render",
    "componentKey": "map-view", "instanceId": "where", "props": {"center": "Europe"},
    "fallback": {"kind": "map-view", "summary": "A map of Europe."},
}
CONTENT = "\x1eagentskit.chat.content/1\n" + json.dumps({"kind": "component", "frame": FRAME}) + "\n"
SNAPSHOT = {
    "sessionId": "python-host", "status": "idle", "input": "", "error": None,
    "usage": {"promptTokens": 1, "completionTokens": 1, "totalTokens": 2},
    "messages": [
        {"id": "u0", "role": "user", "content": "Where?", "status": "complete",
         "createdAt": "2026-07-14T00:00:00.000Z"},
        {"id": "a0", "role": "assistant", "content": CONTENT, "status": "complete",
         "createdAt": "2026-07-14T00:00:01.000Z"},
    ],
}

Gtk.init()

definitions = [Akc.ComponentDefinition.get_standard(key) for key in Akc.ComponentDefinition.get_standard_keys()]
map_view = Akc.ComponentDefinition.new("map-view", [Akc.ComponentEvent.new("pick", Akc.ComponentValueKind.ID)],
                                       "region", True, Akc.ComponentLive.NONE,
                                       Akc.ComponentCapabilities.DISPLAY | Akc.ComponentCapabilities.SELECTION,
                                       None, None)
manifest = Akc.ComponentManifest.new(definitions + [map_view])

built = []
events = []


def build_map(component_view, component):
    built.append(component.get_component_key())
    button = Gtk.Button(label="Pick Paris", name="python-map")
    button.connect("clicked", lambda _button: component_view.emit_event("pick", Akc.JsonValue.new_string("paris")))
    return button


view = AkcGtk.ChatView.new()
view.register_component("map-view", build_map)
view.set_manifest(manifest)
view.connect("component-interaction", lambda _view, _component, event: events.append(event.to_canonical()))
source = Akc.ControlledSource.new()
view.set_source(source)
scrolled = Gtk.ScrolledWindow(vexpand=True)
scrolled.set_child(view)
window = Gtk.Window(default_width=480, default_height=600)
window.set_child(scrolled)
window.present()

source.set_snapshot_text(json.dumps(SNAPSHOT))

button = None


def shown():
    global button
    button = find(view, lambda widget: widget.get_name() == "python-map")
    return button is not None


check("the view shows the Python host's widget for the custom key", wait_for(shown))
component_view = button.get_ancestor(AkcGtk.ComponentView) if button is not None else None
check("the frame resolved as the custom definition, not the fallback",
      built == ["map-view"] and component_view is not None and not component_view.props.is_fallback
      and component_view.get_component_key() == "map-view")

if button is not None:
    button.emit("clicked")
    button.emit("clicked")
check(f"the widget's event reaches component-interaction once ({events})",
      len(events) == 1 and '"value":"paris"' in events[0] and '"instanceId":"where"' in events[0])
check("the instance is resolved and its widget insensitive",
      component_view is not None and component_view.props.resolved and not button.get_sensitive())
check("the factory can be removed",
      view.unregister_component("map-view") and not view.unregister_component("map-view"))

thinking = []


def build_thinking(_view):
    thinking.append(True)
    return Gtk.Label(label="…", name="python-thinking")


view.set_thinking_factory(build_thinking)
streaming = dict(SNAPSHOT, status="streaming")
streaming["messages"] = SNAPSHOT["messages"] + [
    {"id": "a1", "role": "assistant", "content": "", "status": "streaming",
     "createdAt": "2026-07-14T00:00:02.000Z"}]
source.set_snapshot_text(json.dumps(streaming))
slot = None


def thinking_shown():
    global slot
    label = find(view, lambda widget: widget.get_name() == "python-thinking")
    slot = label.get_parent() if label is not None else None
    return slot is not None


check("the Python host's thinking indicator is shown inside a status",
      wait_for(thinking_shown) and slot.get_accessible_role() == Gtk.AccessibleRole.STATUS)
view.set_thinking_factory(None)

window.destroy()

# The standard renderers, the message row and the composer (§12.10): a
# Python host replaces the choice list and the rows of the person's
# messages, and binds its own composer.
CHOICES = {
    "protocol": "agentskit.chat.component", "version": 1, "type": "render",
    "componentKey": "choice-list", "instanceId": "pick",
    "props": {"prompt": "Where to?", "choices": [{"id": "docs", "label": "Docs"}, {"id": "demo", "label": "Demo"}]},
    "fallback": {"kind": "choice-list", "summary": "Where to?"},
}
CHOICE_CONTENT = "\x1eagentskit.chat.content/1\n" + json.dumps({"kind": "component", "frame": CHOICES}) + "\n"
CHOICE_SNAPSHOT = dict(SNAPSHOT, sessionId="python-host-2")
CHOICE_SNAPSHOT["messages"] = [
    dict(SNAPSHOT["messages"][0], content="Where should I go?"),
    dict(SNAPSHOT["messages"][1], content=CHOICE_CONTENT),
]
selections = []
rows = []


def build_choices(component_view, component):
    box = Gtk.Box(name="python-choices")
    for choice in ("docs", "demo"):
        choice_button = Gtk.Button(label=choice, name="python-" + choice)
        choice_button.connect("clicked", lambda _b, c=choice: component_view.emit_event("select", Akc.JsonValue.new_string(c)))
        box.append(choice_button)
    return box


def build_row(_view, message):
    if message.get_role() != Akc.MessageRole.USER:
        return None
    rows.append(message.get_id())
    return Gtk.Label(label="» " + message.get_content(), name="python-row")


view = AkcGtk.ChatView.new()
view.replace_component("choice-list", build_choices)
view.set_message_factory(build_row)
view.set_manifest(manifest)
view.connect("component-selection", lambda _view, _component, event: selections.append(event.to_canonical()))
source = Akc.ControlledSource.new()
view.set_source(source)
entry = Gtk.Entry()
view.set_composer(entry)
box = Gtk.Box(orientation=Gtk.Orientation.VERTICAL)
scrolled = Gtk.ScrolledWindow(vexpand=True)
scrolled.set_child(view)
box.append(scrolled)
box.append(entry)
window = Gtk.Window(default_width=480, default_height=600)
window.set_child(box)
window.present()
source.set_snapshot_json(json.dumps(CHOICE_SNAPSHOT))

choices = None


def choices_shown():
    global choices
    choices = find(view, lambda widget: widget.get_name() == "python-choices")
    return choices is not None


check("the Python host's choice list is shown inside a group",
      wait_for(choices_shown) and choices.get_parent().get_accessible_role() == Gtk.AccessibleRole.GROUP
      and choices.get_parent().has_css_class("component-slot"))
row = find(view, lambda widget: widget.get_name() == "python-row")
check("the Python host's row of the person's message is a focusable group; the assistant's keeps the view's own",
      row is not None and row.get_label() == "» Where should I go?" and rows == ["u0"] * len(rows) and rows
      and row.get_parent().get_accessible_role() == Gtk.AccessibleRole.GROUP and row.get_parent().get_focusable())
if choices is not None:
    find(choices, lambda widget: widget.get_name() == "python-docs").emit("clicked")
    find(choices, lambda widget: widget.get_name() == "python-demo").emit("clicked")
check(f"a choice of the host's list answers the instance once ({selections})",
      len(selections) == 1 and '"docs"' in selections[0])
check("the host's composer is bound to the view", view.get_composer() == entry)
view.set_composer(None)
check("the composer can be unbound and the view's own choice list restored",
      view.get_composer() is None and view.restore_component("choice-list") and not view.restore_component("choice-list"))
view.set_message_factory(None)
view.set_confirmation_factory(None)

window.destroy()
sys.exit(finish())
