#!/usr/bin/python3
"""A Python host follows a conversation with Akc.TraceCapture (issue 19):
the wire events of a chat whose adapter the capture wraps, redacted, in a
bounded ring, and the turn records (TAP)."""

import sys

import gi

gi.require_version("Akc", "1")
from gi.repository import Akc, GLib  # noqa: E402

results = []


def check(ok, description):
    results.append(bool(ok))
    print(f"{'ok' if ok else 'not ok'} {len(results)} - {description}", flush=True)


def run_until_idle(chat):
    context = GLib.MainContext.default()
    while chat.get_status() == Akc.ChatStatus.STREAMING:
        context.iteration(True)


capture = Akc.TraceCapture.new(["Private"])
added = []
capture.connect("wire-event-added", lambda _capture, event: added.append(event.to_canonical()))

event = Akc.JsonValue.parse('{"type":"thing","token":"t-1","payload":{"input":"typed","private":1,"kept":"yes"}}')
kept = capture.add_wire_event("turn", "received", event)
text = kept.to_canonical()
check("t-1" not in text and "typed" not in text and text.count("[REDACTED]") == 3 and '"kept":"yes"' in text,
      f"a wire event is kept redacted: token, input and the capture's own fields ({text})")
check(event.to_canonical().count("[REDACTED]") == 0, "the host's event is not modified")
check(len(added) == 1 and added[0] == text, "wire-event-added gives the event as kept")

echo = Akc.EchoAdapter.new()
echo.set_chunk_interval(0)
traced = capture.wrap_adapter(echo, "provider")
chat = Akc.Chat.new(traced)
chat.send("from python")
run_until_idle(chat)
check(chat.get_messages().get_item(1).get_content() == "AgentsKit received: from python",
      "a chat answers through the wrapped adapter as through the adapter itself")
events = [e.to_canonical() for e in capture.dup_wire_events()]
check(any('"direction":"sent"' in e and '"type":"request"' in e for e in events)
      and any('"type":"done"' in e for e in events) and not any("from python" in e for e in events if '"sent"' in e),
      "the request (without its text) and the reply's chunks are wire events")
records = capture.snapshot()
check(len(records) == 1 and records[0].get_category() == Akc.TraceCategory.AGENT,
      "the turn is an agent record")

capture.set_max_wire_events(2)
check(capture.get_n_wire_events() == 2 and capture.get_max_wire_events() == 2, "the ring keeps its bound")

print(f"1..{len(results)}")
sys.exit(0 if all(results) else 1)
