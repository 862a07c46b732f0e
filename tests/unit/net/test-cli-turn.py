#!/usr/bin/python3
# test-cli-turn.py: `akc turn` against a loopback turn server, with the token
# from the keyring (libsecret's file backend) or from a prompt on a
# terminal, never from argv or the environment (TAP).
#
# SPDX-License-Identifier: MIT
#
#   test-cli-turn.py PATH-TO-AKC

import json
import os
import pty
import select
import subprocess
import sys
import tempfile
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import gi

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from hostile_peer import cli_env, turn_snapshot  # noqa: E402

gi.require_version("Akc", "1")
from gi.repository import Akc, GLib  # noqa: E402
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "lib"))
from tap import check, finish  # noqa: E402

AKC = sys.argv[1]
TOKEN = "akc-cli-turn-token-7d1f"
PROMPTED = "akc-cli-prompted-token-3c9a"
SESSION = "cli-session"


def snapshot(sequence, status, reply, session=SESSION):
    return json.dumps(turn_snapshot(session, sequence, status, reply))


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    requests = []
    mode = "ok"

    def log_message(self, *args):
        pass

    def do_POST(self):
        body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
        Handler.requests.append({"headers": dict(self.headers), "body": body.decode()})
        if Handler.mode == "busy":
            data = json.dumps({"error": {"version": 1, "code": "SESSION_BUSY",
                                         "message": "Another turn is active for this session.",
                                         "retryable": True}}).encode()
            self.send_response(409)
            self.send_header("Content-Type", "application/json; charset=utf-8")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)
            return
        lines = [snapshot(2, "streaming", ""), snapshot(3, "streaming", "Hel"),
                 snapshot(3, "streaming", "duplicate"), snapshot(1, "streaming", "stale"),
                 snapshot(9, "complete", "foreign", session="other"), snapshot(4, "complete", "Hello!")]
        self.send_response(200)
        self.send_header("Content-Type", "application/x-ndjson; charset=utf-8")
        self.send_header("Transfer-Encoding", "chunked")
        self.end_headers()
        for line in lines:
            data = (line + "\n").encode()
            self.wfile.write(b"%x\r\n%s\r\n" % (len(data), data))
            self.wfile.flush()
        self.wfile.write(b"0\r\n\r\n")


server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
threading.Thread(target=server.serve_forever, daemon=True).start()
endpoint = f"http://127.0.0.1:{server.server_address[1]}/turn"

folder = tempfile.TemporaryDirectory()
env = cli_env(folder.name)


def run(*args, stdin=subprocess.DEVNULL):
    return subprocess.run([AKC, "turn", *args], env=env, stdin=stdin, capture_output=True, text=True, timeout=60)


# No token anywhere, no terminal: the turn goes out without one.
result = run("--endpoint", endpoint, "--session", SESSION, "--json", "hello")
check("without a token the turn is submitted without Authorization",
      result.returncode == 0 and "Authorization" not in Handler.requests[-1]["headers"], result.stderr)

# The token from the keyring (libsecret's file backend, as the library stores it).
os.environ.update({k: env[k] for k in ("SECRET_BACKEND", "SECRET_FILE_TEST_PATH", "SECRET_FILE_TEST_PASSWORD")})
os.environ.pop("DBUS_SESSION_BUS_ADDRESS", None)
store = Akc.CredentialStore.new()
stored = []
loop = GLib.MainLoop()
store.store_async(endpoint, Akc.CredentialKind.BEARER_TOKEN, TOKEN, None,
                  lambda s, r: (stored.append(s.store_finish(r)), loop.quit()))
loop.run()
check("the token is in the keyring", stored == [True])

result = run("--endpoint", endpoint, "--session", SESSION, "--json", "hello")
lines = result.stdout.splitlines()
request = Handler.requests[-1]
check("akc turn exits 0", result.returncode == 0, result.stderr)
check("the keyring's token is sent as a bearer token",
      request["headers"].get("Authorization") == "Bearer " + TOKEN, request["headers"])
submitted = json.loads(request["body"])
check("the body is a client.turn.submit of the session with the input",
      submitted["event"] == "client.turn.submit" and submitted["sessionId"] == SESSION
      and submitted["payload"] == {"input": "hello"} and submitted["protocol"] == "agentskit.chat.turn",
      request["body"])
snapshots = [json.loads(line) for line in lines[:-1]]
check("every accepted snapshot is one JSON line (duplicate, stale and foreign ones are not)",
      [s["sequence"] for s in snapshots] == [2, 3, 4]
      and [s["payload"]["messages"][1]["content"] for s in snapshots] == ["", "Hel", "Hello!"], result.stdout)
check("then the final status as JSON", json.loads(lines[-1]) == {"status": "complete", "error": None}, lines[-1:])
check("the token is in no output", TOKEN not in result.stdout and TOKEN not in result.stderr)

result = run("--endpoint", endpoint, "--session", SESSION, "hello")
check("without --json the final status is text", result.returncode == 0
      and result.stdout.splitlines()[-1] == "Status: complete", result.stdout)

Handler.mode = "busy"
result = run("--endpoint", endpoint, "--session", SESSION, "--json", "hello")
final = json.loads(result.stdout.splitlines()[-1])
check("a §11.1 error body is the final status, exit 1",
      result.returncode == 1 and final["status"] == "error" and final["error"]["code"] == "SESSION_BUSY"
      and final["error"]["message"] == "Another turn is active for this session.", result.stdout)
Handler.mode = "ok"

# No token in the keyring and a terminal: a prompt, without echo.
env["SECRET_FILE_TEST_PATH"] = os.path.join(folder.name, "empty-keyring")
master, slave = pty.openpty()
process = subprocess.Popen([AKC, "turn", "--endpoint", endpoint, "--session", SESSION, "--json", "hello"], env=env,
                           stdin=slave, stdout=subprocess.PIPE, stderr=slave, text=True)
os.close(slave)
seen = b""
while b"Access token" not in seen:
    ready, _, _ = select.select([master], [], [], 30)
    if not ready:
        break
    seen += os.read(master, 4096)
os.write(master, (PROMPTED + "\n").encode())
try:
    output, _ = process.communicate(timeout=60)
except subprocess.TimeoutExpired:
    process.kill()
    output, _ = process.communicate()
try:
    while select.select([master], [], [], 0.2)[0]:
        seen += os.read(master, 4096)
except OSError:
    pass
os.close(master)
check("on a terminal the token is prompted for", b"Access token" in seen and process.returncode == 0, seen)
check("the prompted token is sent", Handler.requests[-1]["headers"].get("Authorization") == "Bearer " + PROMPTED)
check("and never echoed or printed", PROMPTED.encode() not in seen and PROMPTED not in output, seen)

result = run("--endpoint", "ftp://example.com/", "--session", SESSION, "hello")
check("a bad endpoint is a usage error", result.returncode == 2 and "http" in result.stderr, result.stderr)
result = run("--endpoint", endpoint, "hello")
check("the session is required", result.returncode == 2)

server.shutdown()
sys.exit(finish())
