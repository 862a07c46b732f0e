#!/usr/bin/python3
"""Errors that say what is wrong, from Python (#16 item 5, TAP): the
diagnostics of the decoders a host calls name the field that failed
(Akc.Diagnostic.get_field_path), which a binding can read, while the wire
diagnostic keeps the reference's fixed message and never carries the path."""

import json
import os
import sys

import gi

gi.require_version("Akc", "1")
from gi.repository import Akc, GLib  # noqa: E402
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from tap import check, finish  # noqa: E402


EVENT = {
    "protocol": "agentskit.chat.turn", "version": 1, "eventId": "e1", "sessionId": "s1", "turnId": "t1",
    "sequence": 1, "emittedAt": "2026-07-11T03:00Z", "event": "server.turn.snapshot",
    "payload": {"messages": [
        {"id": "a", "role": "user", "content": "hi", "status": "complete", "createdAt": "2026-07-11T03:00:00.000Z"},
        {"id": "b", "role": "assistant", "content": "x", "status": "streaming", "createdAt": "2026-07-11T03:00:01Z"}],
        "status": "streaming", "usage": {"promptTokens": 1, "completionTokens": 1, "totalTokens": 2}},
}

event, diagnostic = Akc.turn_event_decode(json.dumps(EVENT))
check("a turn event with a bad message record keeps the reference's message",
      event is None and diagnostic.get_message() == "Turn event payload is invalid.")
check(f"and names the field inside the payload ({diagnostic.get_field_path()})",
      diagnostic.get_field_path() == "payload.messages[1].createdAt: not a UTC timestamp with milliseconds")
check("the wire diagnostic does not carry the path", diagnostic.to_canonical() == '{"code":"PROTOCOL_INVALID_PAYLOAD","message":"Turn event payload is invalid.",'
      '"retryable":false,"eventId":"e1"}')
value = Akc.JsonValue.parse(json.dumps(dict(EVENT, sequence=-1)))
event, diagnostic = Akc.turn_event_decode_value(value)
check("the value form names the field too",
      diagnostic.get_field_path() == "sequence: not an integer of 0 to 9007199254740991")
event, diagnostic = Akc.turn_event_decode("{")
check("text that is not JSON has no field to name",
      diagnostic.get_message() == "Turn event is not valid JSON." and diagnostic.get_field_path() is None)

request, diagnostic = Akc.ask_backend_request_decode('{"messages":[{"role":"owner","content":"x"}]}')
check(f"an Ask request names its bad field ({diagnostic.get_field_path()})",
      request is None and diagnostic.get_code() == "ASK_INVALID_REQUEST"
      and diagnostic.get_message() == "The Ask request payload is invalid."
      and diagnostic.get_field_path() == "messages[0].role: not one of user, assistant")
request, diagnostic = Akc.ask_backend_request_decode('{"messages":[{"role":"user","content":"hi"}]}')
check("a valid Ask request decodes", request is not None and diagnostic is None)

artifact, diagnostic = Akc.knowledge_artifact_decode('{"protocol":"agentskit.chat.knowledge","version":1}', None, None)
check("a knowledge artifact names what it lacks", artifact is None and diagnostic.get_message() == "Deterministic payload is invalid."
      and diagnostic.get_field_path() == "artifactId: missing")
answer, diagnostic = Akc.answer_decode('{"protocol":"agentskit.chat.deterministic","version":1}')
check("so does an answer envelope", answer is None and diagnostic.get_field_path() is not None)

session, diagnostic = Akc.Session.snapshot_decode('{"protocol":"agentskit.chat.session","version":1,"sessionId":"s"}')
check("a session snapshot names what it lacks", session is None and diagnostic.get_message() == "Session snapshot payload is invalid."
      and diagnostic.get_field_path() == "definitionId: missing")
frame, diagnostic = Akc.component_frame_decode(
    '{"protocol":"agentskit.chat.component","version":1,"type":"render","componentKey":"choice-list"}')
check("a component frame names what it lacks", frame is None and diagnostic.get_field_path() == "instanceId: missing")

manifest = Akc.ComponentManifest.new_standard()
resolved, diagnostic = manifest.resolve_text(json.dumps({
    "protocol": "agentskit.chat.component", "version": 1, "type": "render", "componentKey": "choice-list",
    "instanceId": "c1", "props": {"prompt": "Q", "choices": [{"id": "a", "label": ""}]},
    "fallback": {"kind": "choice-list", "summary": "s"}}))
check(f"props a component definition refuses name their field ({diagnostic.get_field_path()})",
      resolved is None and diagnostic.get_message() == "Component props are invalid."
      and diagnostic.get_field_path() == "props.choices[0].label: not a string of UTF-16 length of 1 to 256")

SNAPSHOT = {"sessionId": "x", "status": "idle", "input": "", "error": None,
            "usage": {"promptTokens": 0, "completionTokens": 0, "totalTokens": 0},
            "messages": [{"id": "m", "role": "user", "content": "x", "status": "complete", "createdAt": "2026"}]}
source = Akc.ControlledSource.new()
try:
    source.set_snapshot_text(json.dumps(SNAPSHOT))
    check("a controlled source refuses the snapshot", False)
except GLib.Error as error:
    check("a controlled source refuses the snapshot", error.message == "Serialized message record is invalid.")
parsed, diagnostic = Akc.controlled_snapshot_decode(json.dumps(SNAPSHOT))
check("and Akc.controlled_snapshot_decode tells a binding why",
      parsed is None and diagnostic.get_message() == "Serialized message record is invalid."
      and diagnostic.get_field_path() == "messages[0].createdAt: not a UTC timestamp with milliseconds")

sys.exit(finish())
