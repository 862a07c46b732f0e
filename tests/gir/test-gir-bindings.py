#!/usr/bin/python3
"""Bindings-friendly forms of the C-only API (TAP): routes with a Python
matcher and responder (Akc.Route.new_full, Akc.Route.new_command), the
choice reservations as a definition's submission hook, and messages built
without JSON (Akc.MessageBuilder, Akc.MessageRecord.new_text)."""

import json
import sys

import gi

gi.require_version("Akc", "1")
from gi.repository import Akc, GLib  # noqa: E402

results = []


def check(ok, description):
    results.append(bool(ok))
    print(f"{'ok' if ok else 'not ok'} {len(results)} - {description}", flush=True)


seen = []
# PyGObject passes each function's data as a tuple of extra arguments.
route = Akc.Route.new_full("greet", "greet", None, Akc.TraceKind.DETERMINISTIC,
                           lambda _route, text, *_data: text.startswith("hello"), (),
                           lambda _route, text, session_id, message_id, *_data: f"hi {message_id or session_id}", ())
check(route.match("hello there") and not route.match("bye"), "Akc.Route.new_full takes a Python matcher")
check(route.respond("hello there", "s1", "m1") == "hi m1", "and a Python responder")

command = Akc.Route.new_command("bye", "/bye", "leave", None, Akc.TraceKind.FALLBACK,
                                lambda _route, text, session_id, message_id, *_data: seen.append(text) or "bye")
check(command.match("/bye") and not command.match("/bye now") and command.respond("/bye", "s1", None) == "bye"
      and seen == ["/bye"], "Akc.Route.new_command takes a Python responder")
try:
    Akc.Route.new_command("empty", "", "leave", None, Akc.TraceKind.FALLBACK, lambda *_args: "x")
    check(False, "an empty command is refused")
except GLib.Error as error:
    check(error.message == "Conversation command cannot be empty.", "an empty command is refused")

FRAME = Akc.JsonValue.parse(json.dumps({
    "protocol": "agentskit.chat.component", "version": 1, "type": "render",
    "componentKey": "choice-list", "instanceId": "deterministic-choices-size-1",
    "props": {"prompt": "Which size?", "choices": [{"id": "small", "label": "Small"}]},
    "fallback": {"kind": "choice-list", "summary": "Small."},
}))
reservations = Akc.ChoiceReservations.new()
definition = Akc.Definition.new("bindings", Akc.EchoAdapter.new())
check(not definition.has_choice_submission(), "a definition starts without a submission hook")
definition.set_choice_reservations(reservations)
check(definition.has_choice_submission(), "Akc.Definition.set_choice_reservations installs the reservations")
stale = definition.submit_choice(FRAME, "small", "s1")
check(stale is not None and stale.get_kind() == Akc.ChoiceSubmissionKind.UNAVAILABLE,
      "a choice list the reservations never saw is stale")
reservations.remember("s1", FRAME)
submission = definition.submit_choice(FRAME, "small", "s1")
check(submission is not None and submission.get_kind() == Akc.ChoiceSubmissionKind.RESERVATION
      and submission.get_value() == "Small",
      "a remembered choice list is answered through the hook")
definition.set_choice_reservations(None)
check(not definition.has_choice_submission(), "and None removes the hook")

created = GLib.DateTime.new_utc(2026, 7, 14, 8, 30, 15.25)
record = Akc.MessageRecord.new_text("u1", Akc.MessageRole.USER, "héllo", Akc.MessageStatus.COMPLETE, created)
check(record.get_content() == "héllo" and record.get_role() == "user"
      and record.get_created_at().format_iso8601() == "2026-07-14T08:30:15.250000Z",
      "Akc.MessageRecord.new_text takes a str and a GLib.DateTime")
builder = Akc.MessageBuilder.new("a1", Akc.MessageRole.ASSISTANT)
builder.add_text("Pick one:")
builder.add_frame(FRAME)
builder.add_tool_call("c1", "lookup", None, Akc.ToolCallStatus.PENDING)
built = builder.build()
content = built.get_content()
check(content.startswith("\x1eagentskit.chat.content/1\n") and built.get_tool_calls().get_length() == 1,
      "Akc.MessageBuilder writes the ordered envelope and the tool calls")
try:
    Akc.MessageBuilder.new("u2", Akc.MessageRole.USER).add_frame(FRAME)
    check(False, "a frame in a user message is refused")
except GLib.Error:
    check(True, "a frame in a user message is refused")

print(f"1..{len(results)}")
sys.exit(0 if all(results) else 1)
