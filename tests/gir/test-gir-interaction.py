#!/usr/bin/python3
"""A Python host drives Akc.InteractionController without GTK: a choice proposes its
action, the person approves it, the tool runs once, and after a restart the card is
answered and cannot be chosen again (application.md §12.7, §12.8) (TAP)."""

import json
import os
import sys
import tempfile

import gi

gi.require_version("Akc", "1")
from gi.repository import Akc, GLib  # noqa: E402
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from tap import check, finish  # noqa: E402
from akc_gi import wait_for  # noqa: E402

assert "gi.repository.Gtk" not in sys.modules



def call(start, finish, *args):
    """Runs one async call to its end and returns what finish returns (or raises)."""
    box = []
    start(*args, None, lambda source, result: box.append(result))
    wait_for(lambda: box)
    return finish(box[0])


FRAME = {
    "protocol": "agentskit.chat.component", "version": 1, "type": "render",
    "componentKey": "choice-list", "instanceId": "ticket-choice-1",
    "props": {"prompt": "Would you like a human to follow up?", "choices": [
        {"id": "create", "label": "Open support ticket",
         "action": {"name": "create-ticket", "input": {"subject": "Follow-up"}}},
        {"id": "continue", "label": "Keep chatting"}]},
    "fallback": {"kind": "choice-list", "summary": "Open a ticket or keep chatting."},
}
CONTENT = "\x1eagentskit.chat.content/1\n" + json.dumps({"kind": "component", "frame": FRAME}) + "\n"


class Conversation:
    """One run of the app: a chat over a scripted model, a tool that needs
    confirmation, its coordinator, the history, and the controller."""

    def __init__(self, memory, tickets):
        self.adapter = Akc.ScriptedAdapter.new()
        self.adapter.begin_turn()
        self.adapter.add_text(CONTENT, 0)
        self.adapter.add_done(0)
        self.adapter.begin_turn()
        self.adapter.add_text("The ticket is open.", 0)
        self.adapter.add_done(0)
        self.chat = Akc.Chat.new(self.adapter)
        self.tickets = tickets
        self.chat.add_tool(Akc.Tool.new("create-ticket", True, self.create_ticket))
        self.confirmation = Akc.ActionConfirmation.new("python-host", self.chat, 60000, None, None)
        self.history = Akc.ChatHistory.new(self.chat, memory, "support")
        call(self.history.load_async, self.history.load_finish)
        self.controller = Akc.InteractionController.new(self.chat)
        self.controller.set_manifest(Akc.ComponentManifest.new_standard())
        self.controller.set_confirmation(self.confirmation)
        self.controller.set_history(memory, "support")
        call(self.controller.load_async, self.controller.load_finish)

    def create_ticket(self, tool, arguments, *user_data):
        self.tickets.append(arguments.get_member("subject").get_string())
        return f"Ticket SUP-{len(self.tickets)} created."

    def idle(self):
        return wait_for(lambda: self.chat.get_status() != Akc.ChatStatus.STREAMING)

    def messages(self):
        model = self.chat.get_messages()
        return [model.get_item(i) for i in range(model.get_n_items())]

    def card(self):
        manifest = self.controller.get_manifest()
        for message in reversed(self.messages()):
            presentations = Akc.present_message(message, manifest)
            for i in range(presentations.get_n_items()):
                resolved = presentations.get_item(i).get_resolved()
                if resolved is not None and resolved.get_component_key() == "choice-list":
                    return message, resolved.get_frame()
        return None, None

    def select(self, message, frame, choice):
        return call(lambda *a: self.controller.select_async(message, frame, choice, *a),
                    self.controller.select_finish)

    def close(self):
        call(self.history.flush_async, self.history.flush_finish)


def open_memory(path):
    return call(lambda *a: Akc.SqliteChatMemory.new_async(path, *a), Akc.SqliteChatMemory.new_finish)


def interaction_error(error, code):
    return error.domain == "akc-interaction-error-quark" and error.code == code


folder = tempfile.mkdtemp(prefix="akc-gir-interaction-")
path = os.path.join(folder, "history.sqlite3")
tickets = []

memory = open_memory(path)
first = Conversation(memory, tickets)
first.chat.send("/support")
check("the model's reply with the card arrived", first.idle())
message, frame = first.card()
check("the reply presents a choice list", frame is not None)

links = []
first.controller.connect("link-requested", lambda controller, uri: links.append(uri))

ok, record = first.select(message, frame, "create")
check("choosing 'create' proposes its action through the coordinator",
      ok and record is not None and record.get_status() == Akc.ConfirmationStatus.PENDING)
check("the card is resolved at once", first.controller.is_resolved("ticket-choice-1"))
resolution = first.controller.get_resolution("ticket-choice-1")
check("the resolution says which choice, on which message",
      resolution.get_choice_id() == "create" and resolution.get_message_id() == message.get_id())
first.idle()
waiting = [call_ for m in first.messages() for call_ in
           [m.get_tool_calls().get_item(i) for i in range(m.get_tool_calls().get_n_items())]
           if call_.get_status() == Akc.ToolCallStatus.REQUIRES_CONFIRMATION]
check("the tool call waits for the person's approval, nothing ran yet",
      len(waiting) == 1 and waiting[0].get_name() == "create-ticket" and tickets == [])

try:
    first.select(message, frame, "continue")
    check("a second choice is refused", False)
except GLib.Error as error:
    check("a second choice is refused", interaction_error(error, Akc.InteractionError.RESOLVED))

check("approving through the controller succeeds", call(lambda *a: first.controller.approve_async(record.get_tool_call_id(), *a),
           first.controller.approve_finish))
check("the tool ran once, with the choice's input", wait_for(lambda: tickets == ["Follow-up"]) and first.idle())

first.close()
del first, message, frame, record, resolution, waiting
memory = None

# Restart: a new chat, coordinator and controller on the same history.
memory = open_memory(path)
second = Conversation(memory, tickets)
message, frame = second.card()
check("after a restart the card is shown answered",
      frame is not None and second.controller.is_resolved("ticket-choice-1"))
check("and knows the chosen option",
      second.controller.get_resolution("ticket-choice-1").get_choice_id() == "create")
try:
    second.select(message, frame, "create")
    check("choosing again after the restart is refused", False)
except GLib.Error as error:
    check("choosing again after the restart is refused", interaction_error(error, Akc.InteractionError.RESOLVED))
second.idle()
check("no second ticket", tickets == ["Follow-up"])

sources = json.loads(json.dumps(FRAME))
sources.update(componentKey="source-list", instanceId="sources-1",
               props={"sources": [{"id": "a", "title": "A", "url": "https://example.org/a"}]})
second.controller.connect("link-requested", lambda controller, uri: links.append(uri))
value = Akc.JsonValue.parse(json.dumps(sources))
check("opening a source requests its link",
      second.controller.open_source(value, "a") and links == ["https://example.org/a"])

second.close()
sys.exit(finish())
