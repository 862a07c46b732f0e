#!/usr/bin/python3
# test-cli-ask-endpoint.py: `akc ask` against a loopback Ask server (TAP)
#
# SPDX-License-Identifier: MIT
#
#   test-cli-ask-endpoint.py PATH-TO-AKC
#
# The server (http.server, HTTP/1.1 chunked) answers NDJSON, NDJSON
# labelled text/plain, plain text and a §11.2 error body, and records
# every request. The token comes from libsecret's file backend in a
# temporary file, stored there the way AkcCredentialStore stores it.

import json
import os
import subprocess
import sys
import tempfile
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "lib"))
from tap import check, finish  # noqa: E402

AKC = sys.argv[1]
TMP = tempfile.mkdtemp(prefix="akc-cli-ask-")
KEYRING = os.path.join(TMP, "test.keyring")

# libsecret reads its backend from the environment once: set it before
# the first use, here and for every akc run.
os.environ["SECRET_BACKEND"] = "file"
os.environ["SECRET_FILE_TEST_PATH"] = KEYRING
os.environ["SECRET_FILE_TEST_PASSWORD"] = "akc-cli-test-password"
ENV = dict(os.environ, LC_ALL="C.UTF-8", LANGUAGE="")

PREFIX = "\u001eagentskit.chat.content/1\n"
TOKEN = "akc-cli-token-0123456789"

requests = []


NDJSON = [
    b'{"type":"text","delta":"Hello "}\n',
    b'{"type":"text","delta":"world"}\n{"type":"tool","id":"cite","name":"cite",'
    b'"args":{"sources":[{"title":"Docs","path":"/docs"}]}}\n',
    b'{"type":"done","model":"m"}\n',
]

ERROR_BODY = (b'{"error":{"code":"ASK_UNAUTHORIZED","message":"A valid bearer token is required.",'
              b'"retryable":false}}')


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass

    def send_chunks(self, status, content_type, chunks):
        self.send_response(status)
        if content_type is not None:
            self.send_header("Content-Type", content_type)
        self.send_header("Transfer-Encoding", "chunked")
        self.end_headers()
        for chunk in chunks:
            self.wfile.write(b"%x\r\n%s\r\n" % (len(chunk), chunk))
            self.wfile.flush()
        self.wfile.write(b"0\r\n\r\n")
        self.wfile.flush()

    def do_POST(self):
        length = int(self.headers.get("Content-Length", "0"))
        body = self.rfile.read(length)
        requests.append({"path": self.path, "headers": dict(self.headers), "body": body})
        path = self.path.split("?")[0]
        if path == "/ndjson":
            self.send_chunks(200, "application/x-ndjson; charset=utf-8", NDJSON)
        elif path == "/labelled":
            self.send_chunks(200, "text/plain; charset=utf-8", NDJSON)
        elif path == "/plain":
            self.send_chunks(200, "text/plain", [b"Just ", "prose \u00e9.".encode()])
        elif path == "/unauthorized":
            self.send_response(401)
            self.send_header("Content-Type", "application/json; charset=utf-8")
            self.send_header("Content-Length", str(len(ERROR_BODY)))
            self.end_headers()
            self.wfile.write(ERROR_BODY)
        else:
            self.send_response(404)
            self.send_header("Content-Length", "0")
            self.end_headers()


server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
threading.Thread(target=server.serve_forever, daemon=True).start()
BASE = f"http://127.0.0.1:{server.server_address[1]}"


def akc(*args):
    return subprocess.run([AKC, "ask", *args], env=ENV, stdin=subprocess.DEVNULL,
                          capture_output=True, timeout=60)


# Text output: text as it arrives, the source list as its fallback text.
r = akc("--endpoint", BASE + "/ndjson", "--corpus", "docs", "--persona", "my guide",
        "--session", "s-1", "What?")
out = r.stdout.decode()
check("text: exit 0", r.returncode == 0, r.stderr.decode())
check("text: answer then the component's fallback",
      out == "Hello world\n[unsupported visual: source-list] Sources: Docs.\n", repr(out))

req = requests[-1]
check("request: URL with corpus and persona", req["path"] == "/ndjson?corpus=docs&persona=my+guide",
      req["path"])
check("request: canonical body",
      req["body"] == b'{"protocol":"agentskit.chat.ask","version":1,"sessionId":"s-1",'
                     b'"messages":[{"role":"user","content":"What?"}]}', req["body"])
check("request: JSON content type", req["headers"].get("Content-Type") == "application/json",
      req["headers"])
check("request: no token when the keyring has none", "Authorization" not in req["headers"],
      req["headers"])

# --json: every chunk the adapter yields, one line each.
r = akc("--endpoint", BASE + "/ndjson", "--json", "What?")
lines = [json.loads(line) for line in r.stdout.decode().splitlines()]
frame = ('{"kind":"component","frame":{"protocol":"agentskit.chat.component","version":1,'
         '"type":"render","componentKey":"source-list","instanceId":"cite","props":{"label":"Sources",'
         '"sources":[{"id":"source-1","title":"Docs","url":"/docs"}]},"fallback":{"kind":"source-list",'
         '"summary":"Sources: Docs."}}}\n')
expected = [
    {"type": "text", "content": PREFIX + '{"kind":"text","text":"Hello "}\n'},
    {"type": "text", "content": '{"kind":"text","text":"world"}\n'},
    {"type": "text", "content": frame},
    {"type": "done"},
]
check("json: exit 0", r.returncode == 0, r.stderr.decode())
check("json: the reference chunk shapes", lines == expected, json.dumps(lines, indent=1))

# NDJSON labelled text/plain is sniffed; prose stays prose.
r = akc("--endpoint", BASE + "/labelled", "What?")
check("labelled text/plain NDJSON is decoded",
      r.stdout.decode() == "Hello world\n[unsupported visual: source-list] Sources: Docs.\n",
      repr(r.stdout))
r = akc("--endpoint", BASE + "/plain", "What?")
check("plain text is shown as it is", r.stdout.decode() == "Just prose \u00e9.\n", repr(r.stdout))

# A §11.2 error body.
r = akc("--endpoint", BASE + "/unauthorized", "What?")
err = r.stderr.decode()
check("error: exit 1", r.returncode == 1, r.returncode)
check("error: status and the server's message",
      "Ask request failed (401)." in err and "A valid bearer token is required." in err, err)
r = akc("--endpoint", BASE + "/unauthorized", "--json", "What?")
lines = [json.loads(line) for line in r.stdout.decode().splitlines()]
check("error: json chunk with the error body as metadata",
      lines == [{"type": "error", "content": "Ask request failed (401).", "code": "ASK_UNAUTHORIZED",
                 "metadata": {"status": 401, "error": {"code": "ASK_UNAUTHORIZED",
                                                       "message": "A valid bearer token is required.",
                                                       "retryable": False}}}],
      lines)

# The token from the keyring, stored as AkcCredentialStore stores it.
import gi  # noqa: E402
gi.require_version("Secret", "1")
from gi.repository import Secret  # noqa: E402

schema = Secret.Schema.new("io.agentskit.Chat.Credential", Secret.SchemaFlags.NONE,
                           {"endpoint": Secret.SchemaAttributeType.STRING,
                            "kind": Secret.SchemaAttributeType.STRING})
Secret.password_store_sync(schema, {"endpoint": BASE + "/ndjson", "kind": "bearer-token"},
                           Secret.COLLECTION_DEFAULT, "test token", TOKEN, None)
r = akc("--endpoint", BASE + "/ndjson", "What?")
req = requests[-1]
check("token: sent as a bearer token", req["headers"].get("Authorization") == "Bearer " + TOKEN,
      req["headers"])
check("token: never printed", TOKEN not in r.stdout.decode() + r.stderr.decode())

# Usage errors.
r = akc("What?")
check("usage: --endpoint is required", r.returncode == 2, r.returncode)
r = akc("--endpoint", "ftp://example.org/", "What?")
check("usage: the endpoint must be http(s)", r.returncode == 2, r.returncode)

server.shutdown()
try:
    os.unlink(KEYRING)
except FileNotFoundError:
    pass
os.rmdir(TMP)

sys.exit(finish())
