#!/usr/bin/python3
"""Akc and AkcGtk from Python through GObject Introspection (TAP)."""

import os
import sys
import tempfile

import gi

gi.require_version("Akc", "1")
gi.require_version("AkcGtk", "1")
gi.require_version("Gtk", "4.0")
from gi.repository import Akc, AkcGtk, Gio, GLib, GObject, Gtk  # noqa: E402
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from tap import check, finish  # noqa: E402
from akc_gi import run_until_idle  # noqa: E402


check(f"Akc.get_version() is the project version ({Akc.get_version()})", Akc.get_version() == sys.argv[1])

# A chat answered by the demo adapter, streamed chunk by chunk.
adapter = Akc.EchoAdapter.new()
adapter.set_chunk_interval(0)
chat = Akc.Chat.new(adapter)
chunks = []
chat.send("from python")
reply = chat.get_messages().get_item(1)
reply.connect("notify::content", lambda message, _pspec: chunks.append(message.get_content()))
run_until_idle(chat)
check("Akc.Chat streams the echo reply", reply.get_content() == "AgentsKit received: from python")
check(f"the reply arrived in several chunks ({len(chunks)})", len(chunks) > 1)
check("message role and status enums map",
      reply.get_role() == Akc.MessageRole.ASSISTANT and reply.props.status == Akc.MessageStatus.COMPLETE)

chat.send("/fail")
run_until_idle(chat)
error = chat.get_error()
check("a failed turn is a retryable Akc.Diagnostic",
      chat.get_status() == Akc.ChatStatus.ERROR and error.get_code() == "AK_ADAPTER_FAILED"
      and error.get_retryable() and chat.props.error.get_message() == "The deterministic adapter failed as requested.")

# The scripted adapter drives tool calls, confirmation, lineage and usage.
script = Akc.ScriptedAdapter.new()
script.begin_turn()
script.add_text("Looking.", 0)
script.add_tool_call("call-1", "lookup", '{"q":"x"}', 0)
script.add_usage(3, 5, 8, 0)
script.add_done(0)
script.begin_turn()
script.add_text("Found.", 0)
script.add_done(0)
chat = Akc.Chat.new(script)
chat.add_tool(Akc.Tool.new("lookup", True,
                           lambda _tool, arguments, _data: "found: " + arguments.get_member("q").get_string(), None))
ranges = []
chat.get_messages().connect("items-changed", lambda _model, *change: ranges.append(change))
chat.send("find x")
run_until_idle(chat)
reply = chat.get_messages().get_item(1)
call = reply.get_tool_calls().get_item(0)
check("a tool call waits for confirmation; the reply has its lineage and usage accumulates",
      call.props.status == Akc.ToolCallStatus.REQUIRES_CONFIRMATION
      and Akc.tool_call_status_to_string(call.get_status()) == "requires_confirmation"
      and reply.get_lineage().get_operation() == Akc.LineageOperation.SUBMIT
      and chat.get_usage().total_tokens == 8 and chat.props.usage.prompt_tokens == 3)
check("Akc.ChatSource.approve() runs a Python tool", chat.approve("call-1") and call.get_result() == "found: x")
run_until_idle(chat)
tool_message = chat.get_messages().get_item(2)
check("the continuation appends a tool message and a reply for the same user message",
      tool_message.get_tool_call_id() == "call-1" and chat.get_messages().get_item(3).get_content() == "Found."
      and script.get_call_input(1) == "find x" and ranges == [(0, 0, 2), (2, 0, 2)])
try:
    chat.propose_tool_call("call-2", "unknown", None)
    check("proposing an unknown tool raises", False)
except GLib.Error as error:
    check("proposing an unknown tool is TOOL_NOT_FOUND", error.matches(Akc.error_quark(), Akc.Error.TOOL_NOT_FOUND))


# An adapter written in Python plugs into the controller.
class PythonAdapter(GObject.Object, Akc.Adapter):
    def do_stream(self, request, stream):
        text = request.get_latest_user_message().get_content()
        stream.push_text(text.upper() + " " + (request.get_session_id() or "unscoped"))
        stream.finish()


chat = Akc.Chat(adapter=PythonAdapter(), session_id="py-session")
chat.send("shout")
run_until_idle(chat)
check("an adapter implemented in Python answers, with the request's session",
      chat.get_messages().get_item(1).get_content() == "SHOUT py-session")

# Deterministic routes written in Python drive a session (application.md §3).
class GreetRoute(Akc.Route):
    def do_match(self, text):
        if text == "boom":
            raise GLib.Error("matcher failed")
        return text.startswith("hello")

    def do_respond(self, text, session_id, message_id):
        return f"hi {message_id or session_id}"


routes_conversation = Akc.Conversation.new("idle")
routes_conversation.add_state("idle", ["greet"])
routes_conversation.add_state("greeted", None)
routes_conversation.add_transition("idle", "greet", "greeted")
routes_conversation.add_route(GreetRoute(id="greet", event="greet"))
routes_conversation.add_route(Akc.Route(id="bye", command="/bye", event="greet", response="bye",
                                        trace_kind=Akc.TraceKind.FALLBACK))
routes_definition = Akc.Definition.new("python-demo", PythonAdapter())
routes_definition.set_conversation(routes_conversation)
routes_session = Akc.Session.new(routes_definition, "py-1")
routes_traces = []
routes_session.connect("trace", lambda _s, kind, route, from_state, to_state:
                       routes_traces.append((kind, route, from_state, to_state)))
routes_chat = routes_session.create_chat()
routes_chat.send("hello there")
run_until_idle(routes_chat)
check("a Python route answers without the model and fires its event",
      routes_chat.get_messages().get_item(1).get_content().startswith("hi ") and routes_session.get_state() == "greeted"
      and routes_traces == [(Akc.TraceKind.DETERMINISTIC, "greet", "idle", "greeted")])
routes_snapshot = routes_session.get_conversation_snapshot()
check("Akc.Session.get_conversation_snapshot()",
      routes_snapshot.get_member("state").get_string() == "greeted"
      and routes_snapshot.get_member("events").get_length() == 0)
routes_chat.clear()
routes_chat.send("boom")
run_until_idle(routes_chat)
check("a Python matcher that raises gives the error stream",
      routes_chat.get_error().get_message() == "Deterministic route failed." and routes_session.get_state() == "idle")
routes_chat.send("other")
run_until_idle(routes_chat)
check("an unmatched turn goes to the upstream adapter with the session id",
      routes_chat.get_messages().get_item(3).get_content() == "OTHER py-1"
      and routes_traces[-1][0] == Akc.TraceKind.AGENTIC)
routes_storage = Akc.MemorySessionStorage.new()
routes_loop = GLib.MainLoop()
routes_resumed = []


def on_resumed(_source, result):
    routes_resumed.append(Akc.Session.resume_finish(result))
    routes_loop.quit()


Akc.Session.resume_async(routes_definition, "py-2", routes_storage, None, on_resumed)
routes_loop.run()
check("Akc.Session.resume_async() with a storage",
      routes_resumed[0].get_id() == "py-2" and routes_resumed[0].get_cursor() == 0)

# The component catalog: resolve a frame, create an interaction.
FRAME = ('{"protocol":"agentskit.chat.component","version":1,"type":"render","componentKey":"button-group",'
         '"instanceId":"actions","props":{"label":"Actions","buttons":[{"id":"save","label":"Save"}]},'
         '"fallback":{"kind":"button-group","summary":"Choose Save."}}')
manifest = Akc.ComponentManifest.new_standard()
resolved, diagnostic = manifest.resolve_text(FRAME)
check("Akc.ComponentManifest resolves a frame", diagnostic is None and resolved.get_component_key() == "button-group"
      and resolved.dup_description() == "Actions: Save.")
event = resolved.create_interaction("select", Akc.JsonValue.new_string("save"))
check("Akc.ResolvedComponent.create_interaction() builds the interaction event",
      event.get_member("type").get_string() == "interact" and event.get_member("value").get_string() == "save")
try:
    manifest.create_interaction(Akc.JsonValue.parse(FRAME), "submit", None)
    check("an undeclared interaction raises", False)
except GLib.Error as error:
    check("an undeclared interaction is Akc.Error.CONFIG_INVALID",
          error.matches(Akc.error_quark(), Akc.Error.CONFIG_INVALID)
          and error.message == "Component interaction is not declared by the resolved component.")
unresolved, diagnostic = manifest.resolve_text("{bad")
check("a bad frame gives a diagnostic", unresolved is None and diagnostic.get_code() == "COMPONENT_INVALID_FRAME")

# Input ownership: the latest unresolved interactive component owns input.
conversation = Gio.ListStore.new(Akc.Message)
conversation.append(Akc.Message.new("a1", Akc.MessageRole.ASSISTANT, FRAME, Akc.MessageStatus.COMPLETE))
conversation.append(Akc.Message.new("u1", Akc.MessageRole.USER, FRAME.replace("actions", "typed"),
                                    Akc.MessageStatus.COMPLETE))
ownership = Akc.InputOwnership.new()
changes = []
ownership.connect("changed", lambda _ownership, instance_id: changes.append(instance_id))
active, message_position, presentation_position = ownership.find_active(conversation, manifest)
check("Akc.InputOwnership.find_active() skips user messages and finds the assistant's component",
      active.get_resolved().get_instance_id() == "actions" and (message_position, presentation_position) == (0, 0))
check("without a manifest nothing owns input", ownership.find_active(conversation, None)[0] is None)
check("a resolved instance gives input back to the composer",
      ownership.mark_resolved("actions") and not ownership.mark_resolved("actions")
      and ownership.find_active(conversation, manifest)[0] is None)
check("un-marking makes it active again, with a changed signal each time", ownership.unmark_resolved("actions") and ownership.find_active(conversation, manifest)[0] is not None
      and changes == ["actions", "actions"])

# The turn protocol: streamed snapshots through the cursor's incremental decoder.
SNAPSHOT = ('{"protocol":"agentskit.chat.turn","version":1,"eventId":"e%d","sessionId":"s1","turnId":"t1",'
            '"sequence":%d,"emittedAt":"2026-07-11T03:00Z","event":"server.turn.snapshot","payload":{"messages":['
            '{"id":"a","role":"user","content":"hi","status":"complete","createdAt":"2026-07-11T03:00:00.000Z"},'
            '{"id":"b","role":"assistant","content":"%s","status":"streaming","createdAt":"2026-07-11T03:00:01.000Z"}],'
            '"status":"streaming","usage":{"promptTokens":1,"completionTokens":1,"totalTokens":2}}}')
cursor = Akc.TurnCursor.new("s1")
applied = [cursor.apply_text(SNAPSHOT % (n, n, "x" * n))[0] for n in (1, 2, 2, 1)]
check("Akc.TurnCursor applies newer snapshots and ignores duplicates and stale ones",
      applied == [True, True, False, False] and cursor.get_sequence() == 2)
records = Akc.turn_snapshot_messages(cursor.props.snapshot)
check("Akc.turn_snapshot_messages() gives Akc.MessageRecords with GLib.DateTimes",
      [r.get_content() for r in records] == ["hi", "xx"] and records[1].get_created_at().get_second() == 1)
applied, event, diagnostic = cursor.apply_text("{")
check("an invalid turn event gives a diagnostic",
      not applied and event is None and diagnostic.get_message() == "Turn event is not valid JSON.")
try:
    Akc.TurnCursor.new("not safe")
    check("a cursor for an unsafe session id raises", False)
except GLib.Error as error:
    check("a cursor for an unsafe session id raises", error.matches(Akc.error_quark(), Akc.Error.CONFIG_INVALID))
session, diagnostic = Akc.Session.snapshot_decode('{"version":9}')
check("Akc.Session.snapshot_decode()", session is None and diagnostic.get_code() == "SESSION_UNSUPPORTED_VERSION")

# The history: an SQLite memory in a temporary folder, asynchronous calls
# waited for on the main context.
def wait(start):
    results = []
    start(lambda *args: results.append(args[1]))
    context = GLib.MainContext.default()
    while not results:
        context.iteration(True)
    return results[0]


with tempfile.TemporaryDirectory() as folder:
    path = os.path.join(folder, "history.sqlite3")
    memory = Akc.SqliteChatMemory.new_finish(wait(lambda cb: Akc.SqliteChatMemory.new_async(path, None, cb)))
    check("Akc.SqliteChatMemory opens a history", memory.get_path() == path and isinstance(memory, Akc.ChatMemory))
    info = memory.create_conversation_finish(
        wait(lambda cb: memory.create_conversation_async("py", "From Python", None, cb)))
    check("create_conversation gives an Akc.ConversationInfo", info.get_id() == "py" and info.get_title() == "From Python")

    stored = Akc.Message.new("m1", Akc.MessageRole.USER, None, Akc.MessageStatus.COMPLETE)
    stored.append_content("stored text \U0001F600")
    check("splice_messages takes a list of messages",
          memory.splice_messages_finish(wait(lambda cb: memory.splice_messages_async("py", 0, 0, [stored], None, cb))))
    loaded = memory.load_messages_finish(wait(lambda cb: memory.load_messages_async("py", None, cb)))
    check("load_messages gives the messages back",
          loaded.get_n_items() == 1 and loaded.get_item(0).get_id() == "m1" and
          loaded.get_item(0).get_content_length() == len("stored text \U0001F600".encode()))
    listed = memory.list_conversations_finish(wait(lambda cb: memory.list_conversations_async(None, cb)))
    check("list_conversations", listed.get_n_items() == 1 and listed.get_item(0).get_n_messages() == 1)
    try:
        memory.load_messages_finish(wait(lambda cb: memory.load_messages_async("missing", None, cb)))
        check("loading a missing conversation raises", False)
    except GLib.Error as error:
        check("loading a missing conversation raises Akc.ChatMemoryError.NOT_FOUND",
              error.matches(Akc.chat_memory_error_quark(), Akc.ChatMemoryError.NOT_FOUND))

    echo = Akc.EchoAdapter.new()
    echo.set_chunk_interval(0)
    kept = Akc.Chat.new(echo)
    history = Akc.ChatHistory.new(kept, memory, "py")
    check("Akc.ChatHistory reads the stored conversation into a chat",
          history.load_finish(wait(lambda cb: history.load_async(None, cb))) and kept.get_messages().get_n_items() == 1)
    kept.send("more")
    run_until_idle(kept)
    check("Akc.ChatHistory.flush", history.flush_finish(wait(lambda cb: history.flush_async(None, cb))))
    loaded = memory.load_messages_finish(wait(lambda cb: memory.load_messages_async("py", None, cb)))
    check("and writes what the chat says",
          loaded.get_n_items() == 3 and loaded.get_item(2).get_content() == "AgentsKit received: more")

    # Many conversations (issue 14): an assistant's conversations, a pin,
    # pages and the list model, notified in place.
    changed = []
    memory.connect("conversation-changed", lambda _memory, conversation_id: changed.append(conversation_id))
    second = memory.create_conversation_full_finish(
        wait(lambda cb: memory.create_conversation_full_async("py-2", "support", None, None, cb)))
    check("create_conversation_full records the assistant and tells conversation-changed",
          second.get_assistant_id() == "support" and second.props.assistant_id == "support"
          and not second.get_pinned() and changed == ["py-2"])
    check("set_conversation_pinned", memory.set_conversation_pinned_finish(
        wait(lambda cb: memory.set_conversation_pinned_async("py", True, None, cb))))
    page = memory.list_conversations_page_finish(
        wait(lambda cb: memory.list_conversations_page_async(0, 10, None, cb)))
    check("list_conversations_page lists pinned first", [page.get_item(i).get_id() for i in range(page.get_n_items())] == ["py", "py-2"]
          and page.get_item(0).props.pinned)
    conversations = Akc.ConversationList.new(memory)
    context = GLib.MainContext.default()
    while conversations.get_loading():
        context.iteration(True)
    first = conversations.get_item(0)
    titles = []
    first.connect("notify::title", lambda info, _pspec: titles.append(info.get_title()))
    memory.update_conversation_finish(wait(lambda cb: memory.update_conversation_async("py", "Renamed", None, None, cb)))
    while conversations.get_loading():
        context.iteration(True)
    check("Akc.ConversationList follows a rename in place",
          conversations.get_n_items() == 2 and conversations.props.complete and titles == ["Renamed"])
    check("Akc.derive_conversation_title", Akc.derive_conversation_title("  Hello\nthere  ") == "Hello there")

    # Search, export and import.
    matches = memory.search_finish(wait(lambda cb: memory.search_async("receiv", 10, None, cb)))
    hit = matches.get_item(0)
    found, start, end = hit.get_match(0)
    check("search gives Akc.SearchResult with a snippet and the match's offsets",
          matches.get_n_items() == 1 and hit.get_conversation_id() == "py" and hit.get_message_id() is not None
          and found and hit.get_snippet()[start:end].lower() == "received")
    exported = memory.export_finish(wait(lambda cb: memory.export_async("py", Akc.ConversationFormat.JSON, None, cb)))
    imported = memory.import_finish(wait(lambda cb: memory.import_async(exported, None, cb)))
    check("export (JSON) and import round-trip a conversation",
          imported.get_id() != "py" and imported.get_n_messages() == 3 and imported.get_title() == "Renamed")
    markdown = memory.export_finish(
        wait(lambda cb: memory.export_async("py", Akc.ConversationFormat.MARKDOWN, None, cb))).get_data().decode()
    check("export as Markdown", markdown.startswith("# Renamed\n"))
    del history, kept, memory, conversations, first

# Typed actions: a capability policy installed on a chat, and a confirmation
# proposed and approved asynchronously.
granted = []
policy = Akc.CapabilityPolicy.new("py", Akc.JsonValue.parse('{"send-email":["email.send"]}'))
policy.set_context_func(lambda _policy: Akc.policy_context_new("py", granted))
reasons = []
policy.connect("trace", lambda _policy, trace: reasons.append(Akc.policy_reason_to_string(trace.get_reason())))
allowed, reason = policy.authorize_tool_call("c0", "send-email", Akc.ToolPhase.PROPOSE)
check("Akc.CapabilityPolicy decides from the host's context and emits its trace",
      not allowed and reason == Akc.PolicyReason.MISSING_CAPABILITY and reasons == ["missing-capability"])
acting_script = Akc.ScriptedAdapter.new()
acting = Akc.Chat.new(acting_script)
sent = []
acting.add_tool(Akc.Tool.new("send-email", True, lambda _tool, _arguments, _data: sent.append(1) or "sent", None))
policy.install(acting)
coordinator = Akc.ActionConfirmation.new("py", acting, Akc.ACTION_CONFIRMATION_DEFAULT_TTL_MS, None, None)
try:
    coordinator.propose_finish(wait(lambda cb: coordinator.propose_async("send-email", None, None, cb)))
    check("a proposal without the capability raises", False)
except GLib.Error as error:
    check("a proposal without the capability is Akc.Error.TOOL_FORBIDDEN",
          error.matches(Akc.error_quark(), Akc.Error.TOOL_FORBIDDEN) and error.message == "missing-capability")
granted.append("email.send")
record = coordinator.propose_finish(
    wait(lambda cb: coordinator.propose_async("send-email", Akc.JsonValue.parse('{"to":"ada"}'), None, cb)))
check("Akc.ActionConfirmation.propose_async() records a pending confirmation and runs nothing", record.get_status() == Akc.ConfirmationStatus.PENDING and record.get_token().startswith("confirm-")
      and not sent)
acting_script.begin_turn()
acting_script.add_text("Sent.", 0)
acting_script.add_done(0)
approved = coordinator.approve_finish(wait(lambda cb: coordinator.approve_async(record.get_token(), "py", None, cb)))
check("approve_async() runs the tool once, authorized again before it runs",
      approved.get_status() == Akc.ConfirmationStatus.APPROVED and sent == [1]
      and coordinator.get_by_tool_call(record.get_tool_call_id()).get_status() == Akc.ConfirmationStatus.APPROVED
      and [trace.get_id() for trace in policy.get_trace()][-1] == "policy-4")
run_until_idle(acting)


def unavailable(_policy):
    raise GLib.Error("context unavailable")


policy.set_context_func(unavailable)
check("a context getter that raises is a policy failure",
      policy.authorize_tool_call("c9", "send-email", Akc.ToolPhase.EXECUTE)[1] == Akc.PolicyReason.POLICY_FAILURE)
del coordinator, acting, policy

# AkcGtk widgets bound to the chat.
Gtk.init()
composer = AkcGtk.Composer.new()
composer.set_source(chat)
composer.set_text("typed")
check("the composer keeps the draft in the source's input", chat.props.input == "typed")
check("AkcGtk.Composer.send() sends the draft", composer.send() and chat.get_messages().get_n_items() == 4)
run_until_idle(chat)

row = AkcGtk.MessageRow.new()
row.set_message(chat.get_messages().get_item(3))
check("AkcGtk.MessageRow shows its message", row.get_text() == "TYPED py-session")
factory = AkcGtk.MessageRow.factory_new()
check("AkcGtk.MessageRow.factory_new() returns a Gtk.ListItemFactory", isinstance(factory, Gtk.ListItemFactory))

row.set_manifest(manifest)
check("AkcGtk.MessageRow has the manifest frames resolve against", row.props.manifest == manifest)



# The deterministic answer plane in front of a Python adapter: an artifact
# that is missing never answers, the question escalates to the backend with
# the escalation in the request metadata, and the backend's capabilities
# show through.
class BackendAdapter(GObject.Object, Akc.Adapter):
    def do_stream(self, request, stream):
        escalation = request.get_metadata().get_member("agentskit.chat.escalation")
        stream.push_text("backend: " + escalation.get_member("reason").get_string())
        stream.finish()

    def do_get_capabilities(self):
        return Akc.JsonValue.parse('{"streaming":true}')


decisions = []
deterministic = Akc.DeterministicAdapter.new(None, None, None, Akc.DeterministicFallbackMode.BACKEND,
                                             BackendAdapter())
deterministic.set_clock(lambda *_: 0)
deterministic.connect("decision", lambda _a, envelope: decisions.append(envelope.get_member("outcome").get_string()))
deterministic_chat = Akc.Chat(adapter=deterministic)
deterministic_chat.send("install cli")
run_until_idle(deterministic_chat)
check("Akc.DeterministicAdapter escalates to a Python backend and reports its decisions",
      deterministic_chat.get_messages().get_item(1).get_content() == "backend: corrupt" and
      decisions == ["escalation", "answer"] and not deterministic.get_resolver().is_verified() and
      deterministic.get_capabilities().get_member("streaming").get_boolean() and
      deterministic.get_capabilities().get_member("structuredOutput") is None and
      deterministic.get_reservations().get_n_sessions() == 0)

transcript = AkcGtk.ChatView.new()
transcript.set_manifest(manifest)
transcript.set_source(chat)
check("AkcGtk.ChatView is a Gtk.Scrollable bound to the chat",
      isinstance(transcript, Gtk.Scrollable) and transcript.get_source() == chat and
      transcript.get_manifest() == manifest and not transcript.props.input_owned and
      not transcript.get_editing() and transcript.get_action_error() is None)

view = AkcGtk.ComponentView.new(Akc.JsonValue.parse(FRAME), manifest)
view.set_active(False)
check("an inactive AkcGtk.ComponentView stays interactive but takes no focus",
      view.props.interactive and not view.props.active and not view.grab_focus())

sys.exit(finish())
