#!/usr/bin/python3
"""Bindings-friendly signatures (#16 item 4), checked on the generated GIR and
used from Python (TAP): no text parameter is a byte array, no string comes
back with a length out-parameter only, every function hidden from bindings
has an introspectable equivalent, and a sample of the text API takes and
gives Python strings."""

import os
import sys
import xml.etree.ElementTree as ET

import gi

gi.require_version("Akc", "1")
from gi.repository import Akc, GLib  # noqa: E402
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from tap import check, finish  # noqa: E402

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

check(f"the GIR files list the API ({len(callables)} callables)", len(callables) > 500)
check(f"text parameters are strings, not byte arrays {byte_text}", not byte_text)
check(f"no string comes back with only a length out-parameter {length_only}", not length_only)
check(f"the functions hidden from bindings are the known ones {hidden}", sorted(hidden) == sorted(EQUIVALENTS))
check("each has an introspectable equivalent",
      all(name in callables and bindable(callables[name]) for name in EQUIVALENTS.values()))

# The text API from Python: strings in, strings out.
value = Akc.JsonValue.parse('{"b":"h\u00e9","a":[1,true]}')
check("Akc.JsonValue.parse takes a str; get_string and to_canonical give one", value.to_canonical() == '{"b":"h\u00e9","a":[1,true]}' and value.get_member("b").get_string() == "h\u00e9"
      and value.get_member_name(0) == "b")
check("Akc.JsonValue.new_string takes a str", Akc.JsonValue.new_string("caf\u00e9").get_string() == "caf\u00e9")
event, diagnostic = Akc.turn_event_decode("{")
check("Akc.turn_event_decode takes a str",
      event is None and diagnostic.get_message() == "Turn event is not valid JSON.")
record = Akc.MessageRecord.new("m1", "user", "\u00e7a va", "complete", GLib.DateTime.new_now_utc())
check("Akc.MessageRecord gives its content as a str", record.get_content() == "\u00e7a va" and record.get_id() == "m1")
check("Akc.Chunk.new_text and get_text use str", Akc.Chunk.new_text("tok\u00e9n").get_text() == "tok\u00e9n")
check("Akc.derive_conversation_title takes a str", Akc.derive_conversation_title("  Hello\nthere  ") == "Hello there")
encoder = Akc.AssistantContentEncoder.new(True)
content = encoder.encode_text("hi")
parts, complete, diagnostic = Akc.assistant_content_decode(content)
check("ordered content is encoded and decoded as str",
      content.startswith("\x1e") and complete and diagnostic is None and parts.get_length() == 1)

sys.exit(finish())
