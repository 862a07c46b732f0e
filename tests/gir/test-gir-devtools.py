#!/usr/bin/python3
"""A Python host follows a conversation with Akc.TraceCapture (issue 19):
the wire events of a chat whose adapter the capture wraps, redacted, in a
bounded ring, and the turn records (TAP)."""

import os
import sys

import gi

gi.require_version("Akc", "1")
from gi.repository import Akc  # noqa: E402
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from tap import check, finish  # noqa: E402
from akc_gi import run_until_idle  # noqa: E402


capture = Akc.TraceCapture.new(["Private"])
added = []
capture.connect("wire-event-added", lambda _capture, event: added.append(event.to_canonical()))

event = Akc.JsonValue.parse('{"type":"thing","token":"t-1","payload":{"input":"typed","private":1,"kept":"yes"}}')
kept = capture.add_wire_event("turn", "received", event)
text = kept.to_canonical()
check(f"a wire event is kept redacted: token, input and the capture's own fields ({text})",
      "t-1" not in text and "typed" not in text and text.count("[REDACTED]") == 3 and '"kept":"yes"' in text)
check("the host's event is not modified", event.to_canonical().count("[REDACTED]") == 0)
check("wire-event-added gives the event as kept", len(added) == 1 and added[0] == text)

echo = Akc.EchoAdapter.new()
echo.set_chunk_interval(0)
traced = capture.wrap_adapter(echo, "provider")
chat = Akc.Chat.new(traced)
chat.send("from python")
run_until_idle(chat)
check("a chat answers through the wrapped adapter as through the adapter itself",
      chat.get_messages().get_item(1).get_content() == "AgentsKit received: from python")
events = [e.to_canonical() for e in capture.dup_wire_events()]
check("the request (without its text) and the reply's chunks are wire events",
      any('"direction":"sent"' in e and '"type":"request"' in e for e in events)
      and any('"type":"done"' in e for e in events) and not any("from python" in e for e in events if '"sent"' in e))
records = capture.snapshot()
check("the turn is an agent record",
      len(records) == 1 and records[0].get_category() == Akc.TraceCategory.AGENT)

capture.set_max_wire_events(2)
check("the ring keeps its bound", capture.get_n_wire_events() == 2 and capture.get_max_wire_events() == 2)

sys.exit(finish())
