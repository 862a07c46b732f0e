#!/usr/bin/python3
# test-cli-chat.py: `akc credentials`, `akc chat` and `akc models` against
# loopback providers, with the key in libsecret's file backend (TAP).
#
# SPDX-License-Identifier: MIT
#
#   test-cli-chat.py PATH-TO-AKC

import base64
import json
import struct
import os
import pty
import select
import signal
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import provider_server as ps  # noqa: E402
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "lib"))
from tap import check, finish  # noqa: E402

AKC = sys.argv[1]
KEY = "sk-cli-provider-key-81c2"


server = ps.ProviderServer()
base = server.base + "/v1"
folder = tempfile.TemporaryDirectory()
env = dict(os.environ, LC_ALL="C.UTF-8", LANGUAGE="", SECRET_BACKEND="file",
           SECRET_FILE_TEST_PATH=os.path.join(folder.name, "keyring"),
           SECRET_FILE_TEST_PASSWORD="akc-file-backend-password")
env.pop("DBUS_SESSION_BUS_ADDRESS", None)
env.pop("DISPLAY", None)


def akc(*args, stdin=subprocess.DEVNULL, input=None):
    return subprocess.run([AKC, *args], env=env, stdin=stdin if input is None else None, input=input,
                          capture_output=True, text=True, timeout=60)


# akc credentials: the key from standard input when it is not a terminal.
result = akc("credentials", "set", "--endpoint", base, "--kind", "api-key", input=KEY + "\n")
check("akc credentials set stores the key read from standard input",
      result.returncode == 0 and KEY not in result.stdout + result.stderr, result.stderr)

server.add("POST", "/v1/chat/completions", ps.openai_text(["Hello", " from", " \x1b]0;pwned\x07the model"]))
result = akc("chat", "--endpoint", base, "--api", "openai", "--model", "m", "--system", "be brief", "say", "hello")
request = server.last()
check("akc chat streams the reply and exits 0", result.returncode == 0
      and result.stdout.startswith("Hello from") and result.stdout.endswith("the model\n"), result)
check("the stored key is sent, the words of the prompt are one message after the system prompt",
      request.headers.get("Authorization") == "Bearer " + KEY
      and request.json["messages"] == [{"role": "system", "content": "be brief"}, {"role": "user", "content": "say hello"}],
      request.raw)
check("the key is in no output", KEY not in result.stdout + result.stderr)

server.add("POST", "/v1/chat/completions", ps.openai_text(["a", "b"]))
result = akc("chat", "--endpoint", base, "--api", "openai", "--model", "m", "--json", "hi")
lines = [json.loads(line) for line in result.stdout.splitlines()]
check("--json prints each chunk as one JSON line: text, usage, done",
      result.returncode == 0 and lines == [
          {"type": "text", "content": "a"}, {"type": "text", "content": "b"},
          {"type": "usage", "promptTokens": 7, "completionTokens": 3, "totalTokens": 10},
          {"type": "done", "metadata": {"finishReason": "stop"}}], result.stdout)

server.add("POST", "/v1/chat/completions",
           ps.json_response(404, {"error": {"message": "The model `m` does not exist", "code": "model_not_found"}}))
result = akc("chat", "--endpoint", base, "--api", "openai", "--model", "m", "--json", "hi")
line = json.loads(result.stdout.splitlines()[-1])
check("--json errors carry their code, exit 1", result.returncode == 1 and line["type"] == "error"
      and line["code"] == "PROVIDER_MODEL_NOT_FOUND" and "“m”" in line["content"] and line["metadata"] == {"status": 404},
      result.stdout)

# --attach: an image and a text file go with the prompt, in the provider's
# format; a file that is neither is refused before anything is sent.
with open(os.path.join(folder.name, "dot.png"), "wb") as f:
    f.write(ps.png(3, 2))
with open(os.path.join(folder.name, "notes.txt"), "w", encoding="utf-8") as f:
    f.write("Grüße\n")
with open(os.path.join(folder.name, "blob.bin"), "wb") as f:
    f.write(b"\x00\xff\x00binary")
for api, path, reply, where in (("openai", "/v1/chat/completions", ps.openai_text, base),
                                ("anthropic", "/v1/messages", ps.anthropic_text, server.base)):
    server.add("POST", path, reply(["Seen."]))
    result = akc("chat", "--endpoint", where, "--api", api, "--model", "m",
                 "--attach", os.path.join(folder.name, "dot.png"), "--attach", os.path.join(folder.name, "notes.txt"),
                 "what", "is", "this")
    sent = json.dumps(server.last().json, ensure_ascii=False) if server.last() and server.last().json else ""
    check(f"{api}: --attach sends the image and the text file with the prompt",
          result.returncode == 0 and result.stdout == "Seen.\n"
          and base64.b64encode(ps.png(3, 2)).decode() in sent and "File: notes.txt" in sent and "Grüße" in sent
          and "what is this" in sent, (result, sent[:800]))
# An image larger than 2048 pixels on a side is made smaller first, as the
# app's composer does: a photo is sent, not refused.
with open(os.path.join(folder.name, "photo.png"), "wb") as f:
    f.write(ps.png(3000, 1500))
server.add("POST", "/v1/chat/completions", ps.openai_text(["Seen."]))
result = akc("chat", "--endpoint", base, "--api", "openai", "--model", "m",
             "--attach", os.path.join(folder.name, "photo.png"), "and", "this")
parts = server.last().json["messages"][-1]["content"] if server.last() and server.last().json else []
urls = [p["image_url"]["url"] for p in parts if isinstance(p, dict) and p.get("type") == "image_url"]
image = base64.b64decode(urls[0].split(",", 1)[1]) if urls else b""
size = None
if image[:2] == b"\xff\xd8":
    i = 2
    while i + 9 < len(image) and size is None:
        if image[i + 1] in (0xC0, 0xC1, 0xC2):
            height, width = struct.unpack(">HH", image[i + 5:i + 9])
            size = (width, height)
        else:
            i += 2 + struct.unpack(">H", image[i + 2:i + 4])[0]
check("--attach of an image of 3000 × 1500 pixels sends it made smaller, 2048 × 1024, as a JPEG",
      result.returncode == 0 and result.stdout == "Seen.\n" and len(urls) == 1
      and urls[0].startswith("data:image/jpeg;base64,") and size == (2048, 1024), (result, size, [u[:40] for u in urls]))
# Ollama says whether a model reads images (/api/show), as the app asks: an
# image for one that does not is refused, saying so, and nothing is sent;
# one that does gets it.
server.reset()
server.add("POST", "/api/show", ps.json_response(200, {"capabilities": ["completion", "tools"]}))
result = akc("chat", "--endpoint", server.base, "--api", "ollama", "--model", "llama3.2",
             "--attach", os.path.join(folder.name, "dot.png"), "look")
check("ollama: --attach of an image for a model that reads none: exit 1, says so, no chat request",
      result.returncode == 1 and "llama3.2 does not take images" in result.stderr
      and [r.path for r in server.requests] == ["/api/show"] and server.requests[0].json == {"model": "llama3.2"},
      (result, [r.path for r in server.requests]))
server.reset()
server.add("POST", "/api/show", ps.json_response(200, {"capabilities": ["completion", "vision"]}))
server.add("POST", "/api/chat", ps.ollama_text(["Seen."]))
result = akc("chat", "--endpoint", server.base, "--api", "ollama", "--model", "llava",
             "--attach", os.path.join(folder.name, "dot.png"), "look")
check("ollama: --attach of an image for a model with vision sends it in images",
      result.returncode == 0 and result.stdout == "Seen.\n" and server.last().path == "/api/chat"
      and server.last().json["messages"][-1].get("images") == [base64.b64encode(ps.png(3, 2)).decode()],
      (result, [r.path for r in server.requests]))
n = len(server.requests)
result = akc("chat", "--endpoint", base, "--api", "openai", "--model", "m",
             "--attach", os.path.join(folder.name, "blob.bin"), "hi")
check("--attach of a file that is neither an image nor text: exit 2, says why, nothing sent",
      result.returncode == 2 and "blob.bin" in result.stderr and "can not be sent" in result.stderr
      and len(server.requests) == n, result)

server.add("POST", "/v1/chat/completions", ps.sse([ps.openai_chunk(content="par")], end="drop"))
result = akc("chat", "--endpoint", base, "--api", "openai", "--model", "m", "hi")
check("a reply cut off is an error on standard error, exit 1",
      result.returncode == 1 and result.stdout == "par\n" and "cut off" in result.stderr, result)

# Ctrl+C stops: the connection closes and akc exits 130.
server.reset()
server.add("POST", "/v1/chat/completions",
           ps.endless(server, "text/event-stream", b'data: {"choices":[{"delta":{"content":"tok"}}]}\n\n',
                      b'data: {"choices":[{"delta":{"content":" more"}}]}\n\n'))
process = subprocess.Popen([AKC, "chat", "--endpoint", base, "--api", "openai", "--model", "m", "go"], env=env,
                           stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
first = process.stdout.read(3)
process.send_signal(signal.SIGINT)
try:
    process.communicate(timeout=30)
except subprocess.TimeoutExpired:
    process.kill()
    process.communicate()
check("SIGINT stops the reply: exit 130", first == b"tok" and process.returncode == 130, process.returncode)
check("and the provider sees the connection close", server.disconnected.wait(10))

# On a terminal, the server's controls are shown, never obeyed.
server.add("POST", "/v1/chat/completions", ps.openai_text(["safe \x1b]0;pwned\x07 \u202e text"]))
master, slave = pty.openpty()
process = subprocess.Popen([AKC, "chat", "--endpoint", base, "--api", "openai", "--model", "m", "hi"], env=env,
                           stdin=subprocess.DEVNULL, stdout=slave, stderr=slave)
os.close(slave)
seen = b""
while True:
    try:
        if not select.select([master], [], [], 30)[0]:
            break
        data = os.read(master, 4096)
    except OSError:
        break
    if not data:
        break
    seen += data
process.wait(timeout=30)
os.close(master)
check("on a terminal the reply's escape sequences and bidi overrides are rendered visibly",
      process.returncode == 0 and b"\x1b" not in seen and b"\\x1b]0;pwned" in seen and b"<U+202E>" in seen, seen)

# Tools: the app's, behind the same confirmation, asked on the terminal.
# open_link prints the link (a terminal may have no browser); --yes
# approves; without a terminal to ask on, the call is denied. The result
# goes back in each provider's format and the follow-up reply streams.
LINK = "https://example.org/docs"


def tool_result_sent(api, request):
    """The result of the last tool call in @request's body, as that
    provider carries it."""
    messages = request.json["messages"] if request and request.json else []
    if api == "openai":
        found = [m for m in messages if m.get("role") == "tool"]
        return (found[-1]["tool_call_id"], found[-1]["content"]) if found else None
    if api == "ollama":
        found = [m for m in messages if m.get("role") == "tool"]
        return (found[-1]["tool_name"], found[-1]["content"]) if found else None
    blocks = [b for m in messages if m["role"] == "user" and isinstance(m["content"], list)
              for b in m["content"] if b.get("type") == "tool_result"]
    if not blocks:
        return None
    content = blocks[-1]["content"]
    if isinstance(content, list):
        content = "".join(part.get("text", "") for part in content)
    return (blocks[-1]["tool_use_id"], content)


for api, path, where, call, reply, call_key in (
        ("openai", "/v1/chat/completions", base,
         ps.openai_tool_call("call_L1", "open_link", {"url": LINK}, text="Opening it."), ps.openai_text,
         "call_L1"),
        ("ollama", "/api/chat", server.base,
         ps.ollama_tool_call("open_link", {"url": LINK}, text="Opening it."), ps.ollama_text, "open_link"),
        ("anthropic", "/v1/messages", server.base,
         ps.anthropic_tool_use("toolu_L1", "open_link", {"url": LINK}, text="Opening it."), ps.anthropic_text,
         "toolu_L1")):
    server.reset()
    server.add("POST", path, call, reply(["It is open."]))
    result = akc("chat", "--endpoint", where, "--api", api, "--model", "m", "--yes", "--json", "open", "the", "docs")
    lines = [json.loads(line) for line in result.stdout.splitlines()]
    kinds = [line["type"] for line in lines]
    first = server.requests[0].json if server.requests and server.requests[0].json else {}
    offered = json.dumps(first.get("tools", []))
    results = [line for line in lines if line["type"] == "tool-result"]
    sent = tool_result_sent(api, server.last()) if len(server.requests) == 2 else None
    check(f"{api}: akc chat offers the app's tools", "\"open_link\"" in offered and "\"get_current_time\"" in offered,
          offered[:400])
    check(f"{api}: --yes approves open_link: tool-call and tool-result lines, the result goes back in the provider's "
          f"format, the follow-up reply streams, exit 0",
          result.returncode == 0 and kinds.count("tool-call") == 1 and len(results) == 1
          and results[0]["status"] == "complete" and LINK in results[0]["content"]
          and kinds.index("tool-call") < kinds.index("tool-result")
          and sent is not None and sent[0] == call_key and LINK in sent[1]
          and {"type": "text", "content": "It is open."} in lines and kinds[-1] == "done",
          (result, sent))
    check(f"{api}: the link is printed for the person, and the question said it was approved by --yes",
          LINK in result.stderr and "Allow the assistant to show you the link" in result.stderr
          and "yes (--yes)" in result.stderr, result.stderr)

# Without --yes and without a terminal: denied, and the model hears it.
server.reset()
server.add("POST", "/v1/chat/completions", ps.openai_tool_call("call_D1", "open_link", {"url": LINK}),
           ps.openai_text(["As you wish."]))
result = akc("chat", "--endpoint", base, "--api", "openai", "--model", "m", "open", "the", "docs")
sent = tool_result_sent("openai", server.last()) if len(server.requests) == 2 else None
check("without a terminal and --yes the call is denied, the model is told, its reply streams, exit 0",
      result.returncode == 0 and result.stdout == "As you wish.\n" and LINK not in result.stdout
      and "standard input is not a terminal" in result.stderr and "did not run" in result.stderr
      and sent == ("call_D1", "Permission denied: user denied access"), (result, sent))

# The clock runs at once, without asking; the model hears the time.
server.reset()
server.add("POST", "/v1/chat/completions", ps.openai_tool_call("call_T1", "get_current_time", {}),
           ps.openai_text(["It is late."]))
result = akc("chat", "--endpoint", base, "--api", "openai", "--model", "m", "--json", "what", "time")
lines = [json.loads(line) for line in result.stdout.splitlines()]
results = [line for line in lines if line["type"] == "tool-result"]
sent = tool_result_sent("openai", server.last()) if len(server.requests) == 2 else None
check("get_current_time runs at once, its result goes back, the answer follows",
      result.returncode == 0 and len(results) == 1 and results[0]["status"] == "complete"
      and '"timeZone"' in results[0]["content"] and sent is not None and sent[0] == "call_T1" and '"now"' in sent[1]
      and "Allow" not in result.stderr and {"type": "text", "content": "It is late."} in lines, (result, sent))


# Ollama gives its calls no ids: a second call in the conversation is not
# taken for the first (an id made up per turn was "call_1" each time, and
# the second call was dropped).
server.reset()
server.add("POST", "/api/chat", ps.ollama_tool_call("get_current_time", {}), ps.ollama_tool_call("get_current_time", {}),
           ps.ollama_text(["Twice."]))
result = akc("chat", "--endpoint", server.base, "--api", "ollama", "--model", "m", "--json", "time", "twice")
lines = [json.loads(line) for line in result.stdout.splitlines()]
results = [line for line in lines if line["type"] == "tool-result"]
check("ollama: a second call in the conversation runs too, each result goes back, the answer follows",
      result.returncode == 0 and len(results) == 2 and results[0]["id"] != results[1]["id"]
      and len(server.requests) == 3 and {"type": "text", "content": "Twice."} in lines
      and [m["role"] for m in server.last().json["messages"]].count("tool") == 2, (result.stdout, len(server.requests)))

def chat_on_terminal(answer):
    """akc chat with standard input, output and error on a terminal;
    @answer typed at the question. Returns (exit status, what was shown)."""
    master, slave = pty.openpty()
    process = subprocess.Popen([AKC, "chat", "--endpoint", base, "--api", "openai", "--model", "m", "open", "it"],
                               env=env, stdin=slave, stdout=slave, stderr=slave)
    os.close(slave)
    shown = b""
    deadline = time.monotonic() + 30
    while b"[y/N]" not in shown and time.monotonic() < deadline:
        if select.select([master], [], [], 1)[0]:
            shown += os.read(master, 4096)
    os.write(master, answer)
    try:
        while process.poll() is None or select.select([master], [], [], 0.2)[0]:
            if select.select([master], [], [], 1)[0]:
                shown += os.read(master, 4096)
    except OSError:
        pass
    process.wait(timeout=30)
    os.close(master)
    return process.returncode, shown


for answer, approved in ((b"y\n", True), (b"\n", False)):
    server.reset()
    server.add("POST", "/v1/chat/completions", ps.openai_tool_call("call_P1", "open_link", {"url": LINK}),
               ps.openai_text(["Fine."]))
    status, shown = chat_on_terminal(answer)
    sent = tool_result_sent("openai", server.last()) if len(server.requests) == 2 else None
    check(f"on a terminal the question is asked, and {answer!r} {'approves' if approved else 'denies'} it",
          status == 0 and f"Allow the assistant to show you the link {LINK}? [y/N]".encode() in shown
          and b"Fine." in shown and sent is not None
          and (LINK in sent[1] if approved else sent[1].startswith("Permission denied"))
          and (b"the link: " + LINK.encode() in shown) == approved, (status, shown, sent))

# Ollama and Anthropic.
server.reset()
server.add("POST", "/api/chat", ps.ollama_text(["Hi"]))
result = akc("chat", "--endpoint", server.base, "--api", "ollama", "--model", "llama3.2", "hello")
check("akc chat --api ollama", result.returncode == 0 and result.stdout == "Hi\n"
      and server.last().path == "/api/chat", result)
server.add("POST", "/v1/messages", ps.anthropic_text(["Bonjour"]))
result = akc("chat", "--endpoint", server.base, "--api", "anthropic", "--model", "claude", "salut")
check("akc chat --api anthropic", result.returncode == 0 and result.stdout == "Bonjour\n"
      and server.last().headers.get("anthropic-version") == "2023-06-01", result)

# akc models.
server.add("GET", "/v1/models", ps.json_response(200, {"data": [{"id": "b-model"}, {"id": "a-model"}]}))
result = akc("models", "--endpoint", base, "--api", "openai")
check("akc models lists the models, one a line, with the key",
      result.returncode == 0 and result.stdout == "a-model\nb-model\n"
      and server.last().headers.get("Authorization") == "Bearer " + KEY, result)
server.add("GET", "/api/tags", ps.json_response(401, {"error": "unauthorized"}))
result = akc("models", "--endpoint", server.base, "--api", "ollama")
check("akc models says why it failed, exit 1", result.returncode == 1 and "401" in result.stderr, result)

# Usage errors.
check("an unknown --api is a usage error",
      akc("chat", "--endpoint", base, "--api", "bard", "--model", "m", "hi").returncode == 2)
check("a bad endpoint is a usage error",
      akc("chat", "--endpoint", "ftp://x/", "--api", "openai", "--model", "m", "hi").returncode == 2)
check("the model is required", akc("chat", "--endpoint", base, "--api", "openai", "hi").returncode == 2)

# A secret typed on a terminal is not echoed; clear removes it.
master, slave = pty.openpty()
process = subprocess.Popen([AKC, "credentials", "set", "--endpoint", base, "--kind", "bearer-token"], env=env,
                           stdin=slave, stdout=slave, stderr=slave)
os.close(slave)
seen = b""
deadline = time.monotonic() + 30
while b"Token for" not in seen and time.monotonic() < deadline:
    if select.select([master], [], [], 1)[0]:
        seen += os.read(master, 4096)
os.write(master, b"typed-secret-4412\n")
process.wait(timeout=30)
try:
    while select.select([master], [], [], 0.2)[0]:
        seen += os.read(master, 4096)
except OSError:
    pass
os.close(master)
check("on a terminal the secret is asked for with echo off",
      process.returncode == 0 and b"Token for" in seen and b"typed-secret-4412" not in seen, seen)

result = akc("credentials", "clear", "--endpoint", base, "--kind", "api-key")
server.add("POST", "/v1/chat/completions", ps.openai_text(["x"]))
after = akc("chat", "--endpoint", base, "--api", "openai", "--model", "m", "hi")
check("akc credentials clear removes the key", result.returncode == 0
      and "Authorization" not in server.last().headers and after.returncode == 0, (result, after))
check("an empty secret is refused", akc("credentials", "set", "--endpoint", base, "--kind", "api-key",
                                        input="").returncode == 2)

server.close()
sys.exit(finish())
