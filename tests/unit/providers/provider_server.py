# provider_server.py: a loopback HTTP server that answers as model
# providers document their APIs (OpenAI-compatible Chat Completions,
# Ollama, Anthropic Messages), with their quirks and hostile variants.
#
# SPDX-License-Identifier: MIT
#
# Each route (method, path) holds a queue of responders; a responder is a
# function (handler, request) that writes the whole response itself, so a
# test can send exactly the bytes it wants (bad chunk sizes, a connection
# dropped in the middle, a body that never ends). Every request is
# recorded: method, path, headers and the JSON body.

import json
import socket
import struct
import zlib
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer


class Request:
    def __init__(self, method, path, headers, body):
        self.method = method
        self.path = path
        self.headers = headers
        self.raw = body
        try:
            self.json = json.loads(body) if body else None
        except ValueError:
            self.json = None


class ProviderServer:
    def __init__(self):
        self.routes = {}
        self.requests = []
        self.disconnected = threading.Event()
        self.lock = threading.Lock()
        server = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *args):
                pass

            def handle_any(self, method):
                length = int(self.headers.get("Content-Length", "0") or "0")
                body = self.rfile.read(length) if length > 0 else b""
                path = self.path
                request = Request(method, path, dict(self.headers), body)
                with server.lock:
                    server.requests.append(request)
                    queue = server.routes.get((method, path.split("?")[0]))
                    responder = queue.pop(0) if queue else None
                if responder is None:
                    json_response(404, {"error": "no such route"})(self, request)
                else:
                    responder(self, request)

            def do_POST(self):
                self.handle_any("POST")

            def do_GET(self):
                self.handle_any("GET")

        class Server(ThreadingHTTPServer):
            def handle_error(self, request, client_address):
                # A client that goes away (a stop, a bound hit) is the
                # point of many tests, not a failure.
                pass

        self.httpd = Server(("127.0.0.1", 0), Handler)
        self.httpd.daemon_threads = True
        self.port = self.httpd.server_address[1]
        self.base = f"http://127.0.0.1:{self.port}"
        self.thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)
        self.thread.start()

    def add(self, method, path, *responders):
        with self.lock:
            self.routes.setdefault((method, path), []).extend(responders)

    def last(self):
        with self.lock:
            return self.requests[-1] if self.requests else None

    def reset(self):
        with self.lock:
            self.routes.clear()
            self.requests.clear()
        self.disconnected.clear()

    def close(self):
        self.httpd.shutdown()
        self.httpd.server_close()


# ------------------------------------------------------------------
# Responders
# ------------------------------------------------------------------

def head(handler, status, content_type, headers=None, length=None, chunked=False, close=False):
    handler.send_response(status)
    if content_type is not None:
        handler.send_header("Content-Type", content_type)
    for name, value in (headers or {}).items():
        handler.send_header(name, value)
    if length is not None:
        handler.send_header("Content-Length", str(length))
    if chunked:
        handler.send_header("Transfer-Encoding", "chunked")
    if close:
        handler.send_header("Connection", "close")
        handler.close_connection = True
    handler.end_headers()


def write_chunk(handler, data):
    handler.wfile.write(b"%x\r\n" % len(data) + data + b"\r\n")
    handler.wfile.flush()


def json_response(status, value, headers=None):
    def respond(handler, request):
        data = json.dumps(value).encode() if not isinstance(value, bytes) else value
        head(handler, status, "application/json", headers, length=len(data))
        handler.wfile.write(data)
    return respond


def raw_response(status, content_type, data, headers=None):
    def respond(handler, request):
        head(handler, status, content_type, headers, length=len(data))
        handler.wfile.write(data)
    return respond


def stream(content_type, pieces, status=200, end="complete", headers=None):
    """Writes @pieces (bytes) as HTTP chunks; @end: complete (the last
    chunk), drop (close without it), bad-chunk (an invalid chunk size)."""
    def respond(handler, request):
        head(handler, status, content_type, headers, chunked=True)
        for piece in pieces:
            write_chunk(handler, piece)
        if end == "complete":
            handler.wfile.write(b"0\r\n\r\n")
        elif end == "bad-chunk":
            handler.wfile.write(b"zz\r\nxx\r\n")
            handler.wfile.flush()
            handler.close_connection = True
        else:
            handler.wfile.flush()
            handler.close_connection = True
            handler.connection.shutdown(socket.SHUT_RDWR)
    return respond


def sse(events, **kwargs):
    """@events: strings (each a whole event block, its blank line added) or
    dicts (sent as `data: JSON`)."""
    pieces = []
    for event in events:
        if isinstance(event, bytes):
            pieces.append(event)
        elif isinstance(event, str):
            pieces.append((event + "\n\n").encode())
        else:
            pieces.append(("data: " + json.dumps(event) + "\n\n").encode())
    return stream("text/event-stream", pieces, **kwargs)


def anthropic_events(events, **kwargs):
    pieces = []
    for event in events:
        pieces.append(f"event: {event['type']}\ndata: {json.dumps(event)}\n\n".encode())
    return stream("text/event-stream", pieces, **kwargs)


def ndjson(objects, **kwargs):
    return stream("application/x-ndjson", [(json.dumps(o) + "\n").encode() for o in objects], **kwargs)


def endless(server, content_type, first, every):
    """Writes @first, then @every until the client goes away; sets
    server.disconnected then."""
    def respond(handler, request):
        head(handler, 200, content_type, chunked=True)
        try:
            write_chunk(handler, first)
            deadline = time.monotonic() + 60
            while time.monotonic() < deadline:
                time.sleep(0.02)
                write_chunk(handler, every)
        except OSError:
            server.disconnected.set()
        handler.close_connection = True
    return respond


def hang(seconds=30):
    def respond(handler, request):
        time.sleep(seconds)
        handler.close_connection = True
    return respond


def endless_error_body(status):
    """A failed answer whose body never ends."""
    def respond(handler, request):
        head(handler, status, "application/json", chunked=True)
        try:
            write_chunk(handler, b'{"error":{"message":"key refused"')
            deadline = time.monotonic() + 30
            while time.monotonic() < deadline:
                write_chunk(handler, b" " * 4096)
                time.sleep(0.01)
        except OSError:
            pass
        handler.close_connection = True
    return respond


def png(width, height):
    """A real PNG of @width × @height grey pixels."""
    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))
    raw = b"".join(b"\x00" + b"\x80" * width for _ in range(height))
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 0, 0, 0, 0))
            + chunk(b"IDAT", zlib.compress(raw)) + chunk(b"IEND", b""))


# ------------------------------------------------------------------
# The providers' own answers
# ------------------------------------------------------------------

def openai_chunk(content=None, finish=None, tool_calls=None, role=None):
    delta = {}
    if role is not None:
        delta["role"] = role
    if content is not None:
        delta["content"] = content
    if tool_calls is not None:
        delta["tool_calls"] = tool_calls
    return {"id": "chatcmpl-1", "object": "chat.completion.chunk", "created": 1, "model": "m",
            "choices": [{"index": 0, "delta": delta, "finish_reason": finish}]}


def openai_text(words, usage=(7, 3, 10)):
    events = [": keep-alive", openai_chunk(content="", role="assistant")]
    events += [openai_chunk(content=w) for w in words]
    events.append(openai_chunk(finish="stop"))
    events.append({"id": "chatcmpl-1", "object": "chat.completion.chunk", "choices": [],
                   "usage": {"prompt_tokens": usage[0], "completion_tokens": usage[1],
                             "total_tokens": usage[2]}})
    events.append("data: [DONE]")
    return sse(events)


def ollama_text(words, counts=(26, 5)):
    objects = [{"model": "m", "created_at": "2025-01-01T00:00:00Z",
                "message": {"role": "assistant", "content": w}, "done": False} for w in words]
    objects.append({"model": "m", "message": {"role": "assistant", "content": ""}, "done": True,
                    "done_reason": "stop", "prompt_eval_count": counts[0], "eval_count": counts[1]})
    return ndjson(objects)


def anthropic_text(words, input_tokens=12, output_tokens=6):
    events = [{"type": "message_start", "message": {"id": "msg_1", "type": "message", "role": "assistant",
                                                    "content": [], "model": "claude", "stop_reason": None,
                                                    "usage": {"input_tokens": input_tokens, "output_tokens": 1}}},
              {"type": "content_block_start", "index": 0, "content_block": {"type": "text", "text": ""}},
              {"type": "ping"}]
    events += [{"type": "content_block_delta", "index": 0, "delta": {"type": "text_delta", "text": w}}
               for w in words]
    events += [{"type": "content_block_stop", "index": 0},
               {"type": "message_delta", "delta": {"stop_reason": "end_turn", "stop_sequence": None},
                "usage": {"output_tokens": output_tokens}},
               {"type": "message_stop"}]
    return anthropic_events(events)


def openai_tool_call(call_id, name, arguments, text=None):
    """A reply that calls @name with @arguments (a dict), after @text."""
    events = [openai_chunk(role="assistant", content=text or "")]
    events.append(openai_chunk(tool_calls=[{"index": 0, "id": call_id, "type": "function",
                                            "function": {"name": name, "arguments": json.dumps(arguments)}}]))
    events += [openai_chunk(finish="tool_calls"), "data: [DONE]"]
    return sse(events)


def ollama_tool_call(name, arguments, text=None):
    objects = [{"model": "m", "message": {"role": "assistant", "content": text or "",
                                          "tool_calls": [{"function": {"name": name, "arguments": arguments}}]},
                "done": False},
               {"model": "m", "message": {"role": "assistant", "content": ""}, "done": True, "done_reason": "stop",
                "prompt_eval_count": 20, "eval_count": 4}]
    return ndjson(objects)


def anthropic_tool_use(call_id, name, arguments, text=None):
    events = [{"type": "message_start", "message": {"id": "msg_2", "type": "message", "role": "assistant",
                                                    "content": [], "model": "claude", "stop_reason": None,
                                                    "usage": {"input_tokens": 30, "output_tokens": 1}}}]
    index = 0
    if text:
        events += [{"type": "content_block_start", "index": 0, "content_block": {"type": "text", "text": ""}},
                   {"type": "content_block_delta", "index": 0, "delta": {"type": "text_delta", "text": text}},
                   {"type": "content_block_stop", "index": 0}]
        index = 1
    encoded = json.dumps(arguments)
    events += [{"type": "content_block_start", "index": index,
                "content_block": {"type": "tool_use", "id": call_id, "name": name, "input": {}}},
               {"type": "content_block_delta", "index": index,
                "delta": {"type": "input_json_delta", "partial_json": encoded[:5]}},
               {"type": "content_block_delta", "index": index,
                "delta": {"type": "input_json_delta", "partial_json": encoded[5:]}},
               {"type": "content_block_stop", "index": index},
               {"type": "message_delta", "delta": {"stop_reason": "tool_use", "stop_sequence": None},
                "usage": {"output_tokens": 9}},
               {"type": "message_stop"}]
    return anthropic_events(events)
