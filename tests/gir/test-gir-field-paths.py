#!/usr/bin/python3
"""Errors that say what is wrong, from Python (#16 item 5, TAP): the
diagnostics of the decoders a host calls name the field that failed
(Akc.Diagnostic.get_field_path), which a binding can read, while the wire
diagnostic keeps the reference's fixed message and never carries the path."""

import json
import sys

import gi

gi.require_version("Akc", "1")
from gi.repository import Akc, GLib  # noqa: E402

results = []


def check(ok, description):
    results.append(bool(ok))
    print(f"{'ok' if ok else 'not ok'} {len(results)} - {description}", flush=True)


EVENT = {
    "protocol": "agentskit.chat.turn", "version": 1, "eventId": "e1", "sessionId": "s1", "turnId": "t1",
    "sequence": 1, "emittedAt": "2026-07-11T03:00Z", "event": "server.turn.snapshot",
    "payload": {"messages": [
        {"id": "a", "role": "user", "content": "hi", "status": "complete", "createdAt": "2026-07-11T03:00:00.000Z"},
        {"id": "b", "role": "assistant", "content": "x", "status": "streaming", "createdAt": "2026-07-11T03:00:01Z"}],
        "status": "streaming", "usage": {"promptTokens": 1, "completionTokens": 1, "totalTokens": 2}},
}

event, diagnostic = Akc.turn_event_decode(json.dumps(EVENT))
check(event is None and diagnostic.get_message() == "Turn event payload is invalid.",
      "a turn event with a bad message record keeps the reference's message")
check(diagnostic.get_field_path() == "payload.messages[1].createdAt: not a UTC timestamp with milliseconds",
      f"and names the field inside the payload ({diagnostic.get_field_path()})")
check(diagnostic.to_canonical() == '{"code":"PROTOCOL_INVALID_PAYLOAD","message":"Turn event payload is invalid.",'
      '"retryable":false,"eventId":"e1"}', "the wire diagnostic does not carry the path")
value = Akc.JsonValue.parse(json.dumps(dict(EVENT, sequence=-1)))
event, diagnostic = Akc.turn_event_decode_value(value)
check(diagnostic.get_field_path() == "sequence: not an integer of 0 to 9007199254740991",
      "the value form names the field too")
event, diagnostic = Akc.turn_event_decode("{")
check(diagnostic.get_message() == "Turn event is not valid JSON." and diagnostic.get_field_path() is None,
      "text that is not JSON has no field to name")

request, diagnostic = Akc.ask_backend_request_decode('{"messages":[{"role":"owner","content":"x"}]}')
check(request is None and diagnostic.get_code() == "ASK_INVALID_REQUEST"
      and diagnostic.get_message() == "The Ask request payload is invalid."
      and diagnostic.get_field_path() == "messages[0].role: not one of user, assistant",
      f"an Ask request names its bad field ({diagnostic.get_field_path()})")
request, diagnostic = Akc.ask_backend_request_decode('{"messages":[{"role":"user","content":"hi"}]}')
check(request is not None and diagnostic is None, "a valid Ask request decodes")

artifact, diagnostic = Akc.knowledge_artifact_decode('{"protocol":"agentskit.chat.knowledge","version":1}', None, None)
check(artifact is None and diagnostic.get_message() == "Deterministic payload is invalid."
      and diagnostic.get_field_path() == "artifactId: missing", "a knowledge artifact names what it lacks")
answer, diagnostic = Akc.answer_decode('{"protocol":"agentskit.chat.deterministic","version":1}')
check(answer is None and diagnostic.get_field_path() is not None, "so does an answer envelope")

session, diagnostic = Akc.Session.snapshot_decode('{"protocol":"agentskit.chat.session","version":1,"sessionId":"s"}')
check(session is None and diagnostic.get_message() == "Session snapshot payload is invalid."
      and diagnostic.get_field_path() == "definitionId: missing", "a session snapshot names what it lacks")
frame, diagnostic = Akc.component_frame_decode(
    '{"protocol":"agentskit.chat.component","version":1,"type":"render","componentKey":"choice-list"}')
check(frame is None and diagnostic.get_field_path() == "instanceId: missing", "a component frame names what it lacks")

manifest = Akc.ComponentManifest.new_standard()
resolved, diagnostic = manifest.resolve_text(json.dumps({
    "protocol": "agentskit.chat.component", "version": 1, "type": "render", "componentKey": "choice-list",
    "instanceId": "c1", "props": {"prompt": "Q", "choices": [{"id": "a", "label": ""}]},
    "fallback": {"kind": "choice-list", "summary": "s"}}))
check(resolved is None and diagnostic.get_message() == "Component props are invalid."
      and diagnostic.get_field_path() == "props.choices[0].label: not a string of UTF-16 length of 1 to 256",
      f"props a component definition refuses name their field ({diagnostic.get_field_path()})")

SNAPSHOT = {"sessionId": "x", "status": "idle", "input": "", "error": None,
            "usage": {"promptTokens": 0, "completionTokens": 0, "totalTokens": 0},
            "messages": [{"id": "m", "role": "user", "content": "x", "status": "complete", "createdAt": "2026"}]}
source = Akc.ControlledSource.new()
try:
    source.set_snapshot_text(json.dumps(SNAPSHOT))
    check(False, "a controlled source refuses the snapshot")
except GLib.Error as error:
    check(error.message == "Serialized message record is invalid.", "a controlled source refuses the snapshot")
parsed, diagnostic = Akc.controlled_snapshot_parse(Akc.JsonValue.parse(json.dumps(SNAPSHOT)))
check(parsed is None and diagnostic.get_message() == "Serialized message record is invalid."
      and diagnostic.get_field_path() == "messages[0].createdAt: not a UTC timestamp with milliseconds",
      "and Akc.controlled_snapshot_parse tells a binding why")

print(f"1..{len(results)}")
sys.exit(0 if all(results) else 1)
