#!/usr/bin/python3
"""Bindings-friendly forms of the C-only API (TAP): routes with a Python
matcher and responder (Akc.Route.new_full, Akc.Route.new_command), the
choice reservations as a definition's submission hook, and messages built
without JSON (Akc.MessageBuilder, Akc.MessageRecord.new_text)."""

import json
import os
import sys

import gi

gi.require_version("Akc", "1")
from gi.repository import Akc, GLib  # noqa: E402
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from tap import check, finish  # noqa: E402


seen = []
# PyGObject passes each function's data as a tuple of extra arguments.
route = Akc.Route.new_full("greet", "greet", None, Akc.TraceKind.DETERMINISTIC,
                           lambda _route, text, *_data: text.startswith("hello"), (),
                           lambda _route, text, session_id, message_id, *_data: f"hi {message_id or session_id}", ())
check("Akc.Route.new_full takes a Python matcher", route.match("hello there") and not route.match("bye"))
check("and a Python responder", route.respond("hello there", "s1", "m1") == "hi m1")

command = Akc.Route.new_command("bye", "/bye", "leave", None, Akc.TraceKind.FALLBACK,
                                lambda _route, text, session_id, message_id, *_data: seen.append(text) or "bye")
check("Akc.Route.new_command takes a Python responder", command.match("/bye") and not command.match("/bye now") and command.respond("/bye", "s1", None) == "bye"
      and seen == ["/bye"])
try:
    Akc.Route.new_command("empty", "", "leave", None, Akc.TraceKind.FALLBACK, lambda *_args: "x")
    check("an empty command is refused", False)
except GLib.Error as error:
    check("an empty command is refused", error.message == "Conversation command cannot be empty.")

FRAME = Akc.JsonValue.parse(json.dumps({
    "protocol": "agentskit.chat.component", "version": 1, "type": "render",
    "componentKey": "choice-list", "instanceId": "deterministic-choices-size-1",
    "props": {"prompt": "Which size?", "choices": [{"id": "small", "label": "Small"}]},
    "fallback": {"kind": "choice-list", "summary": "Small."},
}))
reservations = Akc.ChoiceReservations.new()
definition = Akc.Definition.new("bindings", Akc.EchoAdapter.new())
check("a definition starts without a submission hook", not definition.has_choice_submission())
definition.set_choice_reservations(reservations)
check("Akc.Definition.set_choice_reservations installs the reservations", definition.has_choice_submission())
stale = definition.submit_choice(FRAME, "small", "s1")
check("a choice list the reservations never saw is stale",
      stale is not None and stale.get_kind() == Akc.ChoiceSubmissionKind.UNAVAILABLE)
reservations.remember("s1", FRAME)
submission = definition.submit_choice(FRAME, "small", "s1")
check("a remembered choice list is answered through the hook",
      submission is not None and submission.get_kind() == Akc.ChoiceSubmissionKind.RESERVATION
      and submission.get_value() == "Small")
definition.set_choice_reservations(None)
check("and None removes the hook", not definition.has_choice_submission())

created = GLib.DateTime.new_utc(2026, 7, 14, 8, 30, 15.25)
record = Akc.MessageRecord.new_text("u1", Akc.MessageRole.USER, "héllo", Akc.MessageStatus.COMPLETE, created)
check("Akc.MessageRecord.new_text takes a str and a GLib.DateTime",
      record.get_content() == "héllo" and record.get_role() == "user"
      and record.get_created_at().format_iso8601() == "2026-07-14T08:30:15.250000Z")
builder = Akc.MessageBuilder.new("a1", Akc.MessageRole.ASSISTANT)
builder.add_text("Pick one:")
builder.add_frame(FRAME)
builder.add_tool_call("c1", "lookup", None, Akc.ToolCallStatus.PENDING)
built = builder.build()
content = built.get_content()
check("Akc.MessageBuilder writes the ordered envelope and the tool calls",
      content.startswith("\x1eagentskit.chat.content/1\n") and built.get_tool_calls().get_length() == 1)
try:
    Akc.MessageBuilder.new("u2", Akc.MessageRole.USER).add_frame(FRAME)
    check("a frame in a user message is refused", False)
except GLib.Error:
    check("a frame in a user message is refused", True)

sys.exit(finish())
