#!/usr/bin/python3
"""Bindings-friendly signatures (#16 item 4), checked on the generated GIR and
used from Python (TAP): no text parameter is a byte array, no string comes
back with a length out-parameter only, every function hidden from bindings
has an introspectable equivalent, and a sample of the text API takes and
gives Python strings."""

import sys
import xml.etree.ElementTree as ET

import gi

gi.require_version("Akc", "1")
from gi.repository import Akc, GLib  # noqa: E402

CORE = "{http://www.gtk.org/introspection/core/1.0}"
C = "{http://www.gtk.org/introspection/c/1.0}"
CALLABLES = {CORE + t for t in ("function", "method", "constructor")}

# Bytes that are not text: the next piece of an HTTP body may end inside a
# character, so the Ask stream decoder takes it as bytes.
BYTE_PARAMETERS = {"akc_ask_event_decoder_feed", "akc_ask_event_decoder_feed_into"}
# Functions only C can call, and what bindings call instead.
EQUIVALENTS = {
    "akc_route_new": "akc_route_new_full",
    "akc_choice_reservations_submission_func": "akc_definition_set_choice_reservations",
}

results = []


def check(ok, description):
    results.append(bool(ok))
    print(f"{'ok' if ok else 'not ok'} {len(results)} - {description}", flush=True)


callables = {}
for path in sys.argv[1:]:
    for element in ET.parse(path).iter():
        if element.tag in CALLABLES:
            callables[element.get(C + "identifier")] = element


def bindable(element):
    return element.get("introspectable") != "0" and element.get("shadowed-by") is None


byte_text, length_only, hidden = [], [], []
for name, element in sorted(callables.items()):
    if element.get("introspectable") == "0" and element.get("shadowed-by") is None:
        hidden.append(name)
    if not bindable(element):
        continue
    parameters = element.find(CORE + "parameters")
    for parameter in parameters.findall(CORE + "parameter") if parameters is not None else []:
        array = parameter.find(CORE + "array")
        item = array.find(CORE + "type") if array is not None else None
        if item is not None and item.get("name") == "guint8" and name not in BYTE_PARAMETERS:
            byte_text.append(f"{name}({parameter.get('name')})")
        kind = parameter.find(CORE + "type")
        returned = element.find(CORE + "return-value/" + CORE + "type")
        if (parameter.get("direction") == "out" and kind is not None and kind.get("name") == "gsize"
                and returned is not None and returned.get("name") == "utf8"):
            length_only.append(f"{name}({parameter.get('name')})")

check(len(callables) > 500, f"the GIR files list the API ({len(callables)} callables)")
check(not byte_text, f"text parameters are strings, not byte arrays {byte_text}")
check(not length_only, f"no string comes back with only a length out-parameter {length_only}")
check(sorted(hidden) == sorted(EQUIVALENTS), f"the functions hidden from bindings are the known ones {hidden}")
check(all(name in callables and bindable(callables[name]) for name in EQUIVALENTS.values()),
      "each has an introspectable equivalent")

# The text API from Python: strings in, strings out.
value = Akc.JsonValue.parse('{"b":"h\u00e9","a":[1,true]}')
check(value.to_canonical() == '{"b":"h\u00e9","a":[1,true]}' and value.get_member("b").get_string() == "h\u00e9"
      and value.get_member_name(0) == "b", "Akc.JsonValue.parse takes a str; get_string and to_canonical give one")
check(Akc.JsonValue.new_string("caf\u00e9").get_string() == "caf\u00e9", "Akc.JsonValue.new_string takes a str")
event, diagnostic = Akc.turn_event_decode("{")
check(event is None and diagnostic.get_message() == "Turn event is not valid JSON.",
      "Akc.turn_event_decode takes a str")
record = Akc.MessageRecord.new("m1", "user", "\u00e7a va", "complete", GLib.DateTime.new_now_utc())
check(record.get_content() == "\u00e7a va" and record.get_id() == "m1", "Akc.MessageRecord gives its content as a str")
check(Akc.Chunk.new_text("tok\u00e9n").get_text() == "tok\u00e9n", "Akc.Chunk.new_text and get_text use str")
check(Akc.derive_conversation_title("  Hello\nthere  ") == "Hello there", "Akc.derive_conversation_title takes a str")
encoder = Akc.AssistantContentEncoder.new(True)
content = encoder.encode_text("hi")
parts, complete, diagnostic = Akc.assistant_content_decode(content)
check(content.startswith("\x1e") and complete and diagnostic is None and parts.get_length() == 1,
      "ordered content is encoded and decoded as str")

print(f"1..{len(results)}")
sys.exit(0 if all(results) else 1)
