#!/usr/bin/python3
"""API consistency (#16 item 12), checked on the generated GIR (TAP).

Every wire decoder has one shape: `akc_<thing>_decode (text, length, …,
diagnostic)`, its binding form `_decode_utf8 (text, …, diagnostic)` and,
where a parsed value can be decoded, `_decode_value (value, …, diagnostic)`;
the diagnostic is an out AkcDiagnostic, never a GError. Actions a source or
a memory does not offer fail in the library's own domain. The helpers only
akc-server uses are not public API."""

import os
import sys
import xml.etree.ElementTree as ET

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from tap import check, finish  # noqa: E402

CORE = "{http://www.gtk.org/introspection/core/1.0}"
C = "{http://www.gtk.org/introspection/c/1.0}"

# The one decoder without a diagnostic, and why: an invalid Ask record is
# inert, it has none (protocol §6.1). The stream decoders of whole buffers
# (akc_ask_events_decode) return arrays and are not record decoders.
NO_DIAGNOSTIC = {"akc_ask_event_decode", "akc_ask_event_decode_utf8"}
STREAMS = {"akc_ask_events_decode", "akc_ask_events_decode_utf8"}
# Helpers of the turn server, private to the library and akc-server.
SERVER_ONLY = {"akc_turn_create_snapshot_event"}
# Public functions nothing used, removed (#16 item 12: no dead public
# functions); a new one that comes back is found here.
DEAD = {"akc_provider_adapter_dup_request_url"}

root = ET.parse(sys.argv[1]).getroot()
namespace = root.find(CORE + "namespace")
functions = {f.get(C + "identifier"): f for f in namespace.iter(CORE + "function")}


def parameters(function):
    params = function.find(CORE + "parameters")
    return [] if params is None else params.findall(CORE + "parameter")


def type_name(param):
    t = param.find(CORE + "type")
    return t.get("name") if t is not None else None


def c_type(param):
    t = param.find(CORE + "type")
    return t.get(C + "type") if t is not None else None


def ends_with_diagnostic(function):
    params = parameters(function)
    return (params and type_name(params[-1]) == "Diagnostic" and params[-1].get("direction") == "out"
            and function.get("throws") != "1")


decoders = sorted(n for n in functions if n.endswith("_decode") and n not in STREAMS)
check(f"there are decoders to check ({len(decoders)})", len(decoders) >= 10)

bad = []
for name in decoders:
    params = parameters(functions[name])
    shape = (len(params) >= 2 and c_type(params[0]) == "const char*" and c_type(params[1]) == "gssize"
             and (name in NO_DIAGNOSTIC or ends_with_diagnostic(functions[name])))
    if not shape:
        bad.append(name)
check(f"every _decode takes (text, length, …, diagnostic) (not: {bad})", not bad)

bad = []
for name in decoders:
    utf8 = functions.get(name + "_utf8")
    if utf8 is None or c_type(parameters(utf8)[0]) != "const char*" \
       or (name not in NO_DIAGNOSTIC and not ends_with_diagnostic(utf8)):
        bad.append(name)
check(f"every _decode has its _decode_utf8 form for bindings (not: {bad})", not bad)

values = sorted(n for n in functions if n.endswith("_decode_value"))
bad = [n for n in values
       if type_name(parameters(functions[n])[0]) != "JsonValue" or not ends_with_diagnostic(functions[n])]
check(f"every _decode_value takes (value, …, diagnostic) (not: {bad})", values and not bad)

bad = [n for n, f in functions.items()
       if n.endswith("_parse") and parameters(f) and type_name(parameters(f)[0]) == "JsonValue"]
check(f"no decoder of a parsed value is called _parse (found: {bad})", not bad)
check("the controlled snapshot decodes as the others do",
      {"akc_controlled_snapshot_decode", "akc_controlled_snapshot_decode_utf8",
       "akc_controlled_snapshot_decode_value"} <= set(functions))

present = sorted(SERVER_ONLY & set(functions))
check(f"the helpers only akc-server uses are not public (found: {present})", not present)
present = sorted(DEAD & set(functions))
check(f"the removed dead functions stay removed (found: {present})", not present)


def enum_members(name):
    for enum in namespace.iter(CORE + "enumeration"):
        if enum.get("name") == name:
            return {m.get(C + "identifier") for m in enum.iter(CORE + "member")}
    return set()


check("an action a source does not offer fails with AKC_CHAT_ERROR_NOT_SUPPORTED",
      "AKC_CHAT_ERROR_NOT_SUPPORTED" in enum_members("ChatError"))
check("an optional method of a chat memory fails with AKC_CHAT_MEMORY_ERROR_NOT_SUPPORTED",
      "AKC_CHAT_MEMORY_ERROR_NOT_SUPPORTED" in enum_members("ChatMemoryError"))
check("a tool function that fails without an error fails with AKC_ERROR_TOOL_FAILED",
      "AKC_ERROR_TOOL_FAILED" in enum_members("Error"))

sys.exit(finish())
