#!/usr/bin/python3
# test-provider-adapter.py: AkcProviderAdapter against loopback servers that
# speak OpenAI-compatible Chat Completions, Ollama and Anthropic Messages as
# their documentation says, with their quirks and hostile variants; and a
# Python host that chats through the adapter with AkcChat (TAP).
#
# SPDX-License-Identifier: MIT

import json
import os
import socket
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import gi  # noqa: E402

gi.require_version("Akc", "1")
from gi.repository import Akc, Gio, GLib  # noqa: E402

import provider_server as ps  # noqa: E402
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "lib"))
from tap import check, finish  # noqa: E402

KEY = "sk-test-provider-key-5e1b"


def spin_until(predicate, seconds=20):
    """Iterates the main context until @predicate holds (a guard against a
    hang, not a timing: every wait ends on an event)."""
    context = GLib.MainContext.default()
    deadline = time.monotonic() + seconds
    while not predicate() and time.monotonic() < deadline:
        context.iteration(False)
        if not predicate():
            time.sleep(0.002)
    return predicate()


def messages(*pairs):
    model = Gio.ListStore.new(Akc.Message)
    for i, (role, text) in enumerate(pairs):
        model.append(Akc.Message.new(f"m{i}", role, text, Akc.MessageStatus.COMPLETE))
    return model


def describe(chunk):
    kind = chunk.get_kind()
    if kind == Akc.ChunkKind.TEXT:
        return ("text", chunk.get_text())
    if kind == Akc.ChunkKind.TOOL_CALL:
        return ("tool", chunk.get_tool_call_id(), chunk.get_tool_name(), chunk.get_arguments())
    if kind == Akc.ChunkKind.METADATA:
        ok, usage = chunk.get_usage()
        return ("usage", usage.prompt_tokens, usage.completion_tokens, usage.total_tokens)
    metadata = chunk.get_metadata()
    meta = json.loads(metadata.to_canonical()) if metadata is not None else None
    if kind == Akc.ChunkKind.DONE:
        return ("done", meta)
    return ("error", chunk.get_error_code(), chunk.get_text(), meta)


def turn(adapter, *pairs, system=None, on_chunk=None):
    stream = Akc.Stream.new()
    chunks = []

    def got(_stream, chunk):
        chunks.append(describe(chunk))
        if on_chunk is not None:
            on_chunk(stream, chunk)

    stream.connect("chunk", got)
    request = Akc.AdapterRequest.new(messages(*pairs), None, system, None)
    adapter.stream(request, stream)
    spin_until(stream.is_closed)
    return chunks


def text_of(chunks):
    return "".join(c[1] for c in chunks if c[0] == "text")


def last(chunks):
    return chunks[-1] if chunks else None


def error_of(chunks):
    c = last(chunks)
    return c if c is not None and c[0] == "error" else ("none", "", "", None)


U = Akc.MessageRole.USER
A = Akc.MessageRole.ASSISTANT

server = ps.ProviderServer()


def adapter(kind, base=None, model="test-model", key=KEY, timeout=5000):
    a = Akc.ProviderAdapter.new(kind, base or server.base + ("/v1" if kind == Akc.ProviderKind.OPENAI else ""),
                                model)
    if key is not None:
        a.set_api_key(key)
    a.set_connect_timeout(timeout)
    return a


# ------------------------------------------------------------------
# OpenAI-compatible
# ------------------------------------------------------------------

openai = adapter(Akc.ProviderKind.OPENAI)
server.add("POST", "/v1/chat/completions", ps.openai_text(["Hel", "lo ", "wörld"]))
chunks = turn(openai, (U, "Say hello"), system="You are terse.")
request = server.last()
check("openai: text streams in order, then usage and done with its finish reason",
      text_of(chunks) == "Hello wörld" and chunks[-2] == ("usage", 7, 3, 10)
      and chunks[-1] == ("done", {"finishReason": "stop"}), chunks)
check("openai: the request is POST /v1/chat/completions with stream, include_usage, the model, the system prompt first",
      request.path == "/v1/chat/completions" and request.json["stream"] is True
      and request.json["stream_options"] == {"include_usage": True} and request.json["model"] == "test-model"
      and request.json["messages"] == [{"role": "system", "content": "You are terse."},
                                       {"role": "user", "content": "Say hello"}], request.raw)
check("openai: the key goes in the Authorization header only",
      request.headers.get("Authorization") == "Bearer " + KEY and KEY.encode() not in request.raw
      and request.headers.get("Accept") == "text/event-stream", request.headers)

# Models.
server.add("GET", "/v1/models", ps.json_response(200, {"object": "list", "data": [
    {"id": "qwen2.5-7b", "object": "model"}, {"id": "llama-3.1-8b", "object": "model"}]}))
result = []
openai.list_models_async(None, lambda a, r: result.append(a.list_models_finish(r)))
spin_until(lambda: result)
check("openai: models come from GET /v1/models, sorted",
      result == [["llama-3.1-8b", "qwen2.5-7b"]] and server.last().path == "/v1/models"
      and server.last().headers.get("Authorization") == "Bearer " + KEY, result)

# A Python host chats through the adapter with AkcChat, and a tool call
# behind confirmation goes back to the model in OpenAI's format.
server.reset()
weather_calls = []
tool = Akc.Tool.new("get_weather", True,
                    lambda _tool, arguments, _data: weather_calls.append(arguments.to_canonical()) or "sunny, 21 °C",
                    None)
tool.set_argument_schema(Akc.JsonSchema.new_from_string(
    '{"type":"object","properties":{"city":{"type":"string"}},"required":["city"]}'))
openai.add_tool(tool, "Gets the weather of a city")
server.add("POST", "/v1/chat/completions",
           ps.sse([ps.openai_chunk(role="assistant", content=None, tool_calls=[
               {"index": 0, "id": "call_W1", "type": "function", "function": {"name": "get_weather", "arguments": ""}}]),
               ps.openai_chunk(tool_calls=[{"index": 0, "function": {"arguments": '{"city": "Z'}}]),
               ps.openai_chunk(tool_calls=[{"index": 0, "function": {"arguments": 'ürich"}'}}]),
               ps.openai_chunk(finish="tool_calls"), "data: [DONE]"]),
           ps.openai_text(["It is sunny."], usage=(40, 5, 45)))
chat = Akc.Chat(adapter=openai, system_prompt="Be brief.")
chat.add_tool(tool)
chat.send("Weather in Zürich?")
spin_until(lambda: chat.get_status() != Akc.ChatStatus.STREAMING)
reply = chat.get_messages().get_item(1)
call = reply.get_tool_calls().get_item(0) if reply.get_tool_calls().get_n_items() else None
check("openai via AkcChat: the assembled tool call waits for confirmation",
      call is not None and call.get_id() == "call_W1" and call.get_name() == "get_weather"
      and call.get_status() == Akc.ToolCallStatus.REQUIRES_CONFIRMATION
      and call.get_arguments().to_canonical() == '{"city":"Zürich"}', call and call.get_status())
first = server.last().json
check("openai: the tools are offered with their schema and description",
      first["tools"] == [{"type": "function", "function": {
          "name": "get_weather", "description": "Gets the weather of a city",
          "parameters": {"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]}}}],
      first.get("tools"))
chat.approve("call_W1")
spin_until(lambda: chat.get_status() != Akc.ChatStatus.STREAMING)
second = server.last().json
check("openai: approving runs the tool and sends its result back as a tool message",
      weather_calls == ['{"city":"Zürich"}'] and second["messages"] == [
          {"role": "system", "content": "Be brief."},
          {"role": "user", "content": "Weather in Zürich?"},
          {"role": "assistant", "content": None, "tool_calls": [
              {"id": "call_W1", "type": "function",
               "function": {"name": "get_weather", "arguments": '{"city":"Zürich"}'}}]},
          {"role": "tool", "tool_call_id": "call_W1", "content": "sunny, 21 °C"}],
      json.dumps(second.get("messages"), ensure_ascii=False))
n = chat.get_messages().get_n_items()
check("openai via AkcChat: the final reply streams and usage adds up",
      chat.get_status() == Akc.ChatStatus.IDLE and chat.get_messages().get_item(n - 1).get_content() == "It is sunny."
      and chat.get_usage().total_tokens == 45, (chat.get_status(), n))

# A call whose arguments break the tool's schema never runs.
server.reset()
server.add("POST", "/v1/chat/completions",
           ps.sse([ps.openai_chunk(tool_calls=[{"index": 0, "id": "call_BAD", "type": "function",
                                                "function": {"name": "get_weather", "arguments": '{"town": 5}'}}]),
                   ps.openai_chunk(finish="tool_calls"), "data: [DONE]"]),
           ps.openai_text(["Which city?"]))
chat = Akc.Chat(adapter=openai)
chat.add_tool(tool)
chat.send("Weather?")
spin_until(lambda: chat.get_status() != Akc.ChatStatus.STREAMING)
call = chat.get_messages().get_item(1).get_tool_calls().get_item(0)
check("openai via AkcChat: a tool call that breaks the tool's JSON Schema is an error, not a confirmation",
      call.get_status() == Akc.ToolCallStatus.ERROR and "schema" in call.get_error() and len(weather_calls) == 1,
      (call.get_status(), call.get_error()))
told = server.last().json["messages"][-1] if len(server.requests) == 2 else None
n = chat.get_messages().get_n_items()
check("openai via AkcChat: the model hears at once that its call broke the schema, and answers",
      told is not None and told["role"] == "tool" and told["tool_call_id"] == "call_BAD" and "schema" in told["content"]
      and chat.get_status() == Akc.ChatStatus.IDLE and chat.get_messages().get_item(n - 1).get_content() == "Which city?",
      (told, chat.get_status()))

# A tool that needs no confirmation runs at once, and its result goes back
# to the model at once (finish_reason tool_calls), whose answer ends the
# turn; a model that keeps calling it is asked at most 8 times in a row.
server.reset()
clock_calls = []
clock = Akc.Tool.new("get_current_time", False,
                     lambda _tool, arguments, _data: clock_calls.append(1) or '{"now":"2026-12-02T21:00:00Z"}', None)
clock.set_argument_schema(Akc.JsonSchema.new_from_string('{"type":"object","properties":{}}'))
clock_model = adapter(Akc.ProviderKind.OPENAI)
clock_model.add_tool(clock, "Reads the clock")


def clock_call(n):
    return ps.sse([ps.openai_chunk(tool_calls=[{"index": 0, "id": f"call_T{n}", "type": "function",
                                                "function": {"name": "get_current_time", "arguments": "{}"}}]),
                   ps.openai_chunk(finish="tool_calls"), "data: [DONE]"])


server.add("POST", "/v1/chat/completions", clock_call(1), ps.openai_text(["It is 21:00."]))
chat = Akc.Chat(adapter=clock_model)
chat.add_tool(clock)
chat.send("What time is it?")
spin_until(lambda: chat.get_status() != Akc.ChatStatus.STREAMING and len(server.requests) >= 2)
second = server.last().json["messages"] if len(server.requests) == 2 else []
n = chat.get_messages().get_n_items()
check("openai via AkcChat: a tool run at once sends its result back by itself, and the answer follows",
      clock_calls == [1] and second[-1] == {"role": "tool", "tool_call_id": "call_T1", "content": '{"now":"2026-12-02T21:00:00Z"}'}
      and chat.get_status() == Akc.ChatStatus.IDLE and chat.get_messages().get_item(n - 1).get_content() == "It is 21:00.",
      (second, chat.get_status(), n))
server.reset()
server.add("POST", "/v1/chat/completions", *[clock_call(n) for n in range(1, 13)])
chat = Akc.Chat(adapter=clock_model)
chat.add_tool(clock)
chat.send("Time, again and again")
# A continuation starts in the done of the reply before: idle is the end.
spin_until(lambda: chat.get_status() != Akc.ChatStatus.STREAMING and len(server.requests) >= 8)
check("openai via AkcChat: a model that keeps calling tools is asked at most 8 times after the person's message",
      len(server.requests) == 8 and chat.get_status() == Akc.ChatStatus.IDLE, (len(server.requests), chat.get_status()))

# Some OpenAI-compatible servers number the calls of each reply ("call_0"):
# the model's call of a later turn bears the id of an earlier one. It is a
# call all the same: it runs, and its result goes back under an id of its
# own, the one its call is sent back with.
server.reset()
clock_calls = []
server.add("POST", "/v1/chat/completions", clock_call(1), ps.openai_text(["It is 21:00."]),
           clock_call(1), ps.openai_text(["Still 21:00."]))
chat = Akc.Chat(adapter=clock_model)
chat.add_tool(clock)
chat.send("What time is it?")
spin_until(lambda: chat.get_status() != Akc.ChatStatus.STREAMING and len(server.requests) >= 2)
chat.send("And now?")
spin_until(lambda: chat.get_status() != Akc.ChatStatus.STREAMING and len(server.requests) >= 4)
fourth = server.last().json["messages"] if len(server.requests) == 4 else []
calls = [m for m in fourth if m.get("tool_calls")]
results = [m for m in fourth if m["role"] == "tool"]
n = chat.get_messages().get_n_items()
check("openai via AkcChat: a call whose id an earlier turn's call bears runs too, its result sent back under an id of its own",
      clock_calls == [1, 1] and len(calls) == 2 and len(results) == 2
      and calls[0]["tool_calls"][0]["id"] == results[0]["tool_call_id"] == "call_T1"
      and calls[1]["tool_calls"][0]["id"] == results[1]["tool_call_id"] != "call_T1"
      and chat.get_status() == Akc.ChatStatus.IDLE and chat.get_messages().get_item(n - 1).get_content() == "Still 21:00.",
      (fourth, clock_calls, chat.get_status()))

# ------------------------------------------------------------------
# Errors that say what to do
# ------------------------------------------------------------------

plain = adapter(Akc.ProviderKind.OPENAI, key=None, timeout=1500)
cases = [
    ("401", ps.json_response(401, {"error": {"message": "Incorrect API key provided: sk-***", "type": "invalid_request_error",
                                             "code": "invalid_api_key"}}),
     "PROVIDER_UNAUTHORIZED", "Incorrect API key provided", {"status": 401}),
    ("404 model", ps.json_response(404, {"error": {"message": "The model `test-model` does not exist", "code": "model_not_found"}}),
     "PROVIDER_MODEL_NOT_FOUND", "“test-model”", {"status": 404}),
    ("429", ps.json_response(429, {"error": {"message": "Rate limit reached", "type": "requests"}}, {"Retry-After": "20"}),
     "PROVIDER_RATE_LIMITED", "20 seconds", {"status": 429, "retryAfter": 20}),
    ("context", ps.json_response(400, {"error": {"message": "This model's maximum context length is 4096 tokens",
                                                 "code": "context_length_exceeded"}}),
     "PROVIDER_CONTEXT_LENGTH", "too long", {"status": 400}),
    ("503", ps.raw_response(503, "text/plain", b"upstream busy"), "PROVIDER_SERVER_ERROR", "upstream busy", {"status": 503}),
    ("redirect", ps.raw_response(302, "text/plain", b"", {"Location": "http://127.0.0.9:9/elsewhere?token=x"}),
     "PROVIDER_REDIRECT", "http://127.0.0.9:9", {"status": 302}),
    ("html", ps.raw_response(200, "text/html", b"<html>login</html>"), "PROVIDER_INVALID_RESPONSE", "web page", None),
    ("garbage", ps.sse(["data: {not json at all", b"\x00\xff garbage\n\n"]), "PROVIDER_INVALID_RESPONSE",
     "The provider sent an event that is not a JSON object. The stream of the provider at http://127.0.0.1:"
     f"{server.port} is not in the format of the openai API: check the provider’s base URL and kind.", None),
    ("cut off", ps.sse([ps.openai_chunk(content="partial")], end="drop"), "PROVIDER_CUT_OFF", "cut off", None),
    ("bad chunk", ps.sse([ps.openai_chunk(content="partial")], end="bad-chunk"), "PROVIDER_CUT_OFF", "cut off", None),
    ("ended without [DONE]", ps.sse([ps.openai_chunk(content="partial")]), "PROVIDER_CUT_OFF", "before it was complete", None),
    ("mid-stream error", ps.sse([ps.openai_chunk(content="a"), {"error": {"message": "model crashed", "type": "server_error"}}]),
     "PROVIDER_STREAM_ERROR", "model crashed", None),
    ("endless line", ps.stream("text/event-stream", [b"data: " + b"x" * 65536] * 20, end="drop"),
     "PROVIDER_TOO_LARGE", "sent a line longer than 1 MiB; it may not be a chat server, or it may be misbehaving. "
     "Check the provider’s base URL.", None),
    ("huge error body", ps.raw_response(400, "application/json", b'{"error":{"message":"' + b"e" * 200000 + b'"}}'),
     "PROVIDER_REQUEST_REFUSED", "(400)", {"status": 400}),
    ("endless 403 body", ps.endless_error_body(403), "PROVIDER_FORBIDDEN", "(403)", {"status": 403}),
    ("endless 401 body", ps.endless_error_body(401), "PROVIDER_UNAUTHORIZED", "(401)", {"status": 401}),
]
for name, responder, code, part, meta in cases:
    server.reset()
    server.add("POST", "/v1/chat/completions", responder)
    started = time.monotonic()
    chunks = turn(plain, (U, "hi"))
    kind, got_code, message, got_meta = error_of(chunks)
    check(f"openai {name}: {code}, saying what happened",
          kind == "error" and got_code == code and part in message and got_meta == meta
          and KEY not in message, (chunks[-3:], time.monotonic() - started))

# Nothing listens: connection refused, named.
free = socket.socket()
free.bind(("127.0.0.1", 0))
closed_port = free.getsockname()[1]
free.close()
refused = adapter(Akc.ProviderKind.OPENAI, base=f"http://127.0.0.1:{closed_port}/v1")
kind, code, message, _ = error_of(turn(refused, (U, "hi")))
check("openai: connection refused names the address and asks whether the server runs",
      code == "PROVIDER_CONNECTION_FAILED" and f"127.0.0.1:{closed_port}" in message and "running" in message, message)

# The deadline covers the headers only.
server.reset()
server.add("POST", "/v1/chat/completions", ps.hang(10))
slow = adapter(Akc.ProviderKind.OPENAI, timeout=300)
kind, code, message, _ = error_of(turn(slow, (U, "hi")))
check("openai: no headers within the connect timeout is PROVIDER_TIMEOUT", code == "PROVIDER_TIMEOUT", message)

# Stop closes the connection at once: the server sees it go.
server.reset()
server.add("POST", "/v1/chat/completions",
           ps.endless(server, "text/event-stream",
                      ("data: " + json.dumps(ps.openai_chunk(content="tok ")) + "\n\n").encode(),
                      ("data: " + json.dumps(ps.openai_chunk(content="more ")) + "\n\n").encode()))
stopped = []


def stop_after_first(stream, chunk):
    if not stopped:
        stopped.append(True)
        stream.cancel()


chunks = turn(openai, (U, "go on forever"), on_chunk=stop_after_first)
check("openai: stop ends the turn silently", chunks and chunks[0][0] == "text"
      and not any(c[0] in ("error", "done") for c in chunks), chunks)
check("openai: stop closes the connection, so the server stops generating",
      spin_until(server.disconnected.is_set, 10))

# ------------------------------------------------------------------
# Ollama
# ------------------------------------------------------------------

server.reset()
ollama = adapter(Akc.ProviderKind.OLLAMA, model="llama3.2", key=None)
server.add("POST", "/api/chat", ps.ollama_text(["Hi", " there"]))
chunks = turn(ollama, (U, "hello"), (A, "earlier answer"), (U, "again"), system="sys")
request = server.last()
check("ollama: NDJSON text, then usage from prompt_eval_count and eval_count, and done",
      text_of(chunks) == "Hi there" and ("usage", 26, 5, 31) in chunks and chunks[-1] == ("done", {"finishReason": "stop"}),
      chunks)
check("ollama: POST /api/chat with the conversation and no key when none is set",
      request.path == "/api/chat" and request.json["stream"] is True and request.json["model"] == "llama3.2"
      and request.json["messages"] == [{"role": "system", "content": "sys"}, {"role": "user", "content": "hello"},
                                       {"role": "assistant", "content": "earlier answer"},
                                       {"role": "user", "content": "again"}]
      and "Authorization" not in request.headers, request.raw)

server.add("POST", "/api/chat", ps.json_response(404, {"error": "model 'llama3.2' not found, try pulling it first"}))
kind, code, message, _ = error_of(turn(ollama, (U, "hello")))
check("ollama: an unknown model is named, with how to get it",
      code == "PROVIDER_MODEL_NOT_FOUND" and "ollama pull llama3.2" in message, message)

server.add("GET", "/api/tags", ps.json_response(200, {"models": [{"name": "qwen3:8b", "model": "qwen3:8b"},
                                                                 {"name": "llama3.2:latest", "model": "llama3.2:latest"}]}))
result = []
ollama.list_models_async(None, lambda a, r: result.append(a.list_models_finish(r)))
spin_until(lambda: result)
check("ollama: models come from GET /api/tags", result == [["llama3.2:latest", "qwen3:8b"]], result)

# What Ollama says about a model sets accepts-images (issue 15 item 5).
def describe_model(a):
    done = []

    def finished(source, res):
        try:
            done.append(source.describe_model_finish(res))
        except GLib.Error as e:
            done.append(e)
    a.describe_model_async(None, finished)
    spin_until(lambda: done)
    return done[0]


server.add("POST", "/api/show", ps.json_response(200, {"capabilities": ["completion", "tools"],
                                                        "details": {"family": "llama"}}))
said = describe_model(ollama)
request = server.last()
check("ollama: /api/show without vision: the model takes no images",
      said is True and ollama.get_accepts_images() is False
      and request.path == "/api/show" and request.json == {"model": "llama3.2"}, (said, request.raw))
server.add("POST", "/api/show", ps.json_response(200, {"capabilities": ["completion", "vision"]}))
said = describe_model(ollama)
check("ollama: /api/show with vision: the model takes images", said is True and ollama.get_accepts_images() is True, said)
server.add("POST", "/api/show", ps.json_response(200, {"modelfile": "FROM llama3.2"}))
ollama.set_accepts_images(False)
said = describe_model(ollama)
check("ollama: an older Ollama that lists no capabilities changes nothing",
      said is False and ollama.get_accepts_images() is False, said)
ollama.set_accepts_images(True)
server.add("POST", "/api/show", ps.json_response(404, {"error": "model 'llama3.2' not found"}))
said = describe_model(ollama)
check("ollama: an unknown model is an error that names it, and changes nothing",
      isinstance(said, GLib.Error) and "llama3.2" in said.message and ollama.get_accepts_images() is True, said)
requests = len(server.requests)
said = describe_model(openai)
check("openai: the model list says nothing about images: nothing is asked",
      said is False and len(server.requests) == requests and openai.get_accepts_images() is True, said)

# Tool results go back in Ollama's format.
server.reset()
server.add("POST", "/api/chat",
           ps.ndjson([{"message": {"role": "assistant", "content": "", "tool_calls": [
               {"function": {"name": "get_weather", "arguments": {"city": "Paris"}}}]}, "done": False},
               {"message": {"role": "assistant", "content": ""}, "done": True, "done_reason": "stop",
                "prompt_eval_count": 3, "eval_count": 4}]),
           ps.ollama_text(["Sunny."]))
ollama.add_tool(tool, None)
chat = Akc.Chat.new(ollama)
chat.add_tool(tool)
chat.send("Weather in Paris?")
spin_until(lambda: chat.get_status() != Akc.ChatStatus.STREAMING)
call = chat.get_messages().get_item(1).get_tool_calls().get_item(0)
chat.approve(call.get_id())
spin_until(lambda: chat.get_status() != Akc.ChatStatus.STREAMING)
sent = server.last().json["messages"]
check("ollama: the tool result goes back as a tool message with the tool's name",
      sent[1]["tool_calls"] == [{"function": {"name": "get_weather", "arguments": {"city": "Paris"}}}]
      and sent[2]["role"] == "tool" and sent[2]["tool_name"] == "get_weather"
      and chat.get_messages().get_item(chat.get_messages().get_n_items() - 1).get_content() == "Sunny.",
      json.dumps(sent))

# ------------------------------------------------------------------
# Anthropic Messages
# ------------------------------------------------------------------

server.reset()
anthropic = adapter(Akc.ProviderKind.ANTHROPIC, model="claude-test")
server.add("POST", "/v1/messages", ps.anthropic_text(["Bon", "jour"]))
chunks = turn(anthropic, (U, "Salut"), system="Réponds en français.")
request = server.last()
check("anthropic: text deltas, usage from message_start and message_delta, done",
      text_of(chunks) == "Bonjour" and ("usage", 12, 6, 18) in chunks and chunks[-1] == ("done", {"finishReason": "stop"}),
      chunks)
check("anthropic: POST /v1/messages with x-api-key, anthropic-version, max_tokens and a top-level system",
      request.path == "/v1/messages" and request.headers.get("x-api-key") == KEY
      and request.headers.get("anthropic-version") == "2023-06-01" and "Authorization" not in request.headers
      and request.json["max_tokens"] == 4096 and request.json["system"] == "Réponds en français."
      and request.json["messages"] == [{"role": "user", "content": [{"type": "text", "text": "Salut"}]}], request.raw)

server.add("POST", "/v1/messages",
           ps.anthropic_events([{"type": "message_start", "message": {"usage": {"input_tokens": 5, "output_tokens": 1}}},
                                {"type": "content_block_start", "index": 0,
                                 "content_block": {"type": "tool_use", "id": "toolu_01", "name": "get_weather", "input": {}}},
                                {"type": "content_block_delta", "index": 0,
                                 "delta": {"type": "input_json_delta", "partial_json": '{"city": "Be'}},
                                {"type": "content_block_delta", "index": 0,
                                 "delta": {"type": "input_json_delta", "partial_json": 'rlin"}'}},
                                {"type": "content_block_stop", "index": 0},
                                {"type": "message_delta", "delta": {"stop_reason": "tool_use"}, "usage": {"output_tokens": 9}},
                                {"type": "message_stop"}]),
           ps.anthropic_text(["Cloudy."]))
anthropic.add_tool(tool, "Weather")
chat = Akc.Chat.new(anthropic)
chat.add_tool(tool)
chat.send("Weather in Berlin?")
spin_until(lambda: chat.get_status() != Akc.ChatStatus.STREAMING)
call = chat.get_messages().get_item(1).get_tool_calls().get_item(0)
check("anthropic: tool_use with input_json_delta becomes a tool call",
      call.get_id() == "toolu_01" and call.get_arguments().to_canonical() == '{"city":"Berlin"}', call.get_id())
chat.approve("toolu_01")
spin_until(lambda: chat.get_status() != Akc.ChatStatus.STREAMING)
body = server.last().json
check("anthropic: tools as input_schema, the tool_use and its tool_result block go back",
      body["tools"][0]["name"] == "get_weather" and "input_schema" in body["tools"][0]
      and body["messages"] == [
          {"role": "user", "content": [{"type": "text", "text": "Weather in Berlin?"}]},
          {"role": "assistant", "content": [{"type": "tool_use", "id": "toolu_01", "name": "get_weather",
                                             "input": {"city": "Berlin"}}]},
          {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "toolu_01", "content": "sunny, 21 °C"}]}]
      and chat.get_messages().get_item(chat.get_messages().get_n_items() - 1).get_content() == "Cloudy.",
      json.dumps(body.get("messages"), ensure_ascii=False))

server.add("POST", "/v1/messages",
           ps.anthropic_events([{"type": "message_start", "message": {"usage": {"input_tokens": 5}}},
                                {"type": "error", "error": {"type": "overloaded_error", "message": "Overloaded"}}]))
kind, code, message, _ = error_of(turn(anthropic, (U, "hi")))
check("anthropic: an error event mid-stream ends the turn with what to do",
      code == "PROVIDER_SERVER_ERROR" and "Overloaded" in message and "later" in message, message)

server.add("GET", "/v1/models", ps.json_response(401, {"type": "error", "error": {
    "type": "authentication_error", "message": "invalid x-api-key"}}))
result = []


def finished(a, r):
    try:
        result.append(a.list_models_finish(r))
    except GLib.Error as e:
        result.append(e)


anthropic.list_models_async(None, finished)
spin_until(lambda: result)
check("anthropic: a refused key while listing models is PROVIDER_UNAUTHORIZED with what the server said",
      isinstance(result[0], GLib.Error) and result[0].matches(Akc.provider_error_quark(), Akc.ProviderError.UNAUTHORIZED)
      and "invalid x-api-key" in result[0].message, result)

server.close()
sys.exit(finish())
