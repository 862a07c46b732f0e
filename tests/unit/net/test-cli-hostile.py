#!/usr/bin/python3
# test-cli-hostile.py: `akc ask` and `akc turn` against hostile loopback
# peers (issue #12), as a person runs them: on a terminal and on pipes (TAP)
#
# SPDX-License-Identifier: MIT
#
#   test-cli-hostile.py PATH-TO-AKC
#
# Each case asserts that akc ends by itself (bounded time), with a clear
# message and the right exit status, and that a terminal never receives a
# control character other than tab, line feed and carriage return (added
# by nothing: the pty does no output processing), nor a bidi or invisible
# format character.

import json
import os
import sys
import tempfile
import unicodedata

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import hostile_peer  # noqa: E402
from hostile_peer import chunked, sized, hold_open  # noqa: E402

AKC = sys.argv[1]
tap = hostile_peer.Tap()
folder = tempfile.TemporaryDirectory()
ENV = hostile_peer.cli_env(folder.name)

# What a server can use to take over a terminal.
HOSTILE = ("\x1b[2J\x1b[H\x1b[6n\x1b]0;owned\x07\x1b]8;;https://evil.example/\x1b\\link\x1b]8;;\x1b\\"
           "\u009b31m\u202egnp.exe\u2066\u200b\ufeff\r\x08\x7f")
SESSION = "hostile-session"


def terminal_is_safe(data):
    """No byte or character a terminal obeys: C0 but tab and line feed,
    DEL, C1, and no bidi or invisible format character."""
    text = data.decode("utf-8", errors="replace")
    for c in text:
        if c in "\t\n":
            continue
        o = ord(c)
        if o < 0x20 or o == 0x7F or 0x80 <= o <= 0x9F or o in (0x2028, 0x2029):
            return False, f"U+{o:04X}"
        if unicodedata.category(c) == "Cf" and o not in (0x200C, 0x200D):
            return False, f"U+{o:04X}"
    return True, ""


def ndjson(*events):
    return "".join(json.dumps(e) + "\n" for e in events).encode()


def snapshot(sequence, status, reply):
    return hostile_peer.turn_snapshot(SESSION, sequence, status, reply)


def diagnostic(sequence, code, message):
    return {
        "protocol": "agentskit.chat.turn", "version": 1, "eventId": f"d{sequence}", "sessionId": SESSION,
        "turnId": "t1", "sequence": sequence, "emittedAt": "2026-07-11T00:00:00.000Z",
        "event": "server.turn.diagnostic",
        "payload": {"version": 1, "code": code, "message": message, "retryable": False}}


def send(data):
    def route(peer, request, conn):
        conn.sendall(data)
    return route


ESCAPES_ASK = ndjson({"type": "text", "delta": "Answer " + HOSTILE + "\n"},
                     {"type": "tool", "id": "cite", "name": "cite",
                      "args": {"sources": [{"title": "Title " + HOSTILE, "path": "/docs"}]}},
                     {"type": "error", "code": "ASK_INTERNAL", "message": "Failed " + HOSTILE})
ESCAPES_TURN = ndjson(snapshot(1, "streaming", "Reply " + HOSTILE),
                      diagnostic(2, "TURN_FAILED", "Diagnostic " + HOSTILE))


def big_error(size, length=True):
    def route(peer, request, conn):
        body = b"e" * size
        if length:
            conn.sendall(sized(500, "text/plain", body))
        else:
            conn.sendall(b"HTTP/1.1 500 X\r\nContent-Type: text/plain\r\nConnection: close\r\n\r\n" + body)
            hold_open(conn)
    return route


routes = {
    "/escapes-ask": send(chunked(200, "application/x-ndjson", [ESCAPES_ASK])),
    "/escapes-ask-error": send(sized(500, "application/json", json.dumps(
        {"error": {"code": "ASK_INTERNAL", "message": "Server " + HOSTILE, "retryable": False}}).encode())),
    "/escapes-turn": send(chunked(200, "application/x-ndjson", [ESCAPES_TURN])),
    "/nul": send(chunked(200, "application/x-ndjson",
                         [b'{"type":"text","delta":"a\\u0000b"}\n{"type":"done"}\n'])),
    "/nul-plain": send(chunked(200, "text/plain", [b"raw \x00 nul"])),
    "/error-65535": big_error(65535),
    "/error-65536": big_error(65536),
    "/error-1mib-open": big_error(1024 * 1024, length=False),
}


def redirect(status, location):
    def route(peer, request, conn):
        target = location(peer) if callable(location) else location
        conn.sendall(b"HTTP/1.1 %d X\r\nLocation: %s\r\nContent-Length: 0\r\nConnection: close\r\n\r\n"
                     % (status, target.encode()))
    return route


def unauthorized_without_body(peer, request, conn):
    conn.sendall(b"HTTP/1.1 401 Unauthorized\r\nContent-Type: text/plain\r\nContent-Length: 100\r\n\r\n")
    hold_open(conn)


def streaming_forever(peer, request, conn):
    first = ESCAPES_TURN.split(b"\n")[0] + b"\n"
    conn.sendall(b"HTTP/1.1 200 OK\r\nContent-Type: application/x-ndjson\r\nTransfer-Encoding: chunked\r\n\r\n"
                 + b"%x\r\n%s\r\n" % (len(first), first))
    hold_open(conn)


# The other origin a redirect points to: it would answer, if asked.
other = hostile_peer.Peer({
    "/elsewhere": send(chunked(200, "text/plain", [b"Answer from elsewhere"])),
})
for code in (301, 302, 303, 307, 308):
    routes[f"/redirect-{code}"] = redirect(code, other.base + "/elsewhere")
routes["/redirect-loop"] = redirect(302, "/redirect-loop")
routes["/redirect-file"] = redirect(302, "file:///etc/passwd")
routes["/unauthorized-without-body"] = unauthorized_without_body
routes["/streaming-forever"] = streaming_forever

IN_STREAM_CODES = ("ASK_TIMEOUT", "ASK_GENERATION_FAILED", "ASK_INTERNAL", "ASK_PERSISTENCE_CONFLICT")
for code in IN_STREAM_CODES:
    routes[f"/in-stream-{code}"] = send(chunked(200, "application/x-ndjson", [ndjson(
        {"type": "text", "delta": "Partial"}, {"type": "error", "code": code, "message": "It failed."})]))
EVENT = b'{"type":"text","delta":"one event"}\n'
for name, size in (("zz", b"zz"), ("negative", b"-5"), ("max", b"ffffffffffffffff")):
    routes[f"/chunk-{name}"] = send(b"HTTP/1.1 200 OK\r\nContent-Type: application/x-ndjson\r\n"
                                    b"Transfer-Encoding: chunked\r\n\r\n%x\r\n%s\r\n%s\r\ngarbage\r\n"
                                    % (len(EVENT), EVENT, size))
    line = ndjson(snapshot(1, "streaming", "partial"))
    routes[f"/turn-chunk-{name}"] = send(b"HTTP/1.1 200 OK\r\nContent-Type: application/x-ndjson\r\n"
                                         b"Transfer-Encoding: chunked\r\n\r\n%x\r\n%s\r\n%s\r\ngarbage\r\n"
                                         % (len(line), line, size))
routes["/no-done"] = send(chunked(200, "application/x-ndjson", [EVENT]))
routes["/done"] = send(chunked(200, "application/x-ndjson", [EVENT + b'{"type":"done"}\n']))
routes["/plain-end"] = send(chunked(200, "text/plain", [b"Prose has no protocol end."]))

peer = hostile_peer.Peer(routes)


def ask(path, *args, terminal=False, timeout=60):
    argv = [AKC, "ask", "--endpoint", peer.base + path, *args, "Question?"]
    if terminal:
        return hostile_peer.run_on_terminal(argv, ENV, timeout=timeout)
    return hostile_peer.run(argv, ENV, timeout=timeout)


def turn(path, *args, terminal=False, timeout=60):
    argv = [AKC, "turn", "--endpoint", peer.base + path, "--session", SESSION, *args, "hello"]
    if terminal:
        return hostile_peer.run_on_terminal(argv, ENV, timeout=timeout)
    return hostile_peer.run(argv, ENV, timeout=timeout)


# --- Item 4: escape sequences reach a terminal only as visible text.
r = ask("/escapes-ask", terminal=True)
safe, what = terminal_is_safe(r.stdout)
tap.check("ask on a terminal: no control or format character", safe, what + "\n" + repr(r.stdout))
shown = r.stdout.decode()
tap.check("ask on a terminal: controls are shown visibly",
          "\\x1b[2J" in shown and "\\x1b]0;owned\\x07" in shown and "<U+202E>" in shown and
          "<U+009B>" in shown and "<U+200B>" in shown, shown)
tap.check("ask on a terminal: the source title and the error are rendered too",
          "Title \\x1b[2J" in shown and "Failed \\x1b[2J" in shown, shown)
tap.check("ask on a terminal: the error ends the answer (exit 1)", r.returncode == 1, r.returncode)

r = ask("/escapes-ask-error", terminal=True)
safe, what = terminal_is_safe(r.stdout)
tap.check("ask error body on a terminal: the server's message is rendered",
          safe and "Server \\x1b[2J" in r.stdout.decode(), what + "\n" + repr(r.stdout))

r = ask("/escapes-ask")
tap.check("ask on a pipe: the answer's bytes are unchanged",
          ("Answer " + HOSTILE).encode() in r.stdout and ("Failed " + HOSTILE).encode() in r.stderr,
          repr(r.stdout) + repr(r.stderr))

r = ask("/escapes-ask", "--json", terminal=True)
safe, what = terminal_is_safe(r.stdout)
tap.check("ask --json on a terminal: no control or format character", safe, what + "\n" + repr(r.stdout))

r = turn("/escapes-turn", terminal=True)
safe, what = terminal_is_safe(r.stdout)
tap.check("turn on a terminal: snapshots, the diagnostic and the Status line are rendered",
          safe and "Status: error" in r.stdout.decode() and "Diagnostic \\x1b[2J" in r.stdout.decode(),
          what + "\n" + repr(r.stdout))
r = turn("/escapes-turn", "--json", terminal=True)
safe, what = terminal_is_safe(r.stdout)
tap.check("turn --json on a terminal: no control or format character", safe, what + "\n" + repr(r.stdout))

# --- Item 1: U+0000 is kept, never a crash.
r = ask("/nul", "--json")
lines = [json.loads(line) for line in r.stdout.decode().splitlines()]
tap.check("ask: an escaped U+0000 is kept and re-escaped (exit 0)",
          r.returncode == 0 and lines[0]["type"] == "text" and '"a\\u0000b"' in lines[0]["content"],
          repr(r.returncode) + repr(r.stdout) + repr(r.stderr))
r = ask("/nul", terminal=True)
tap.check("ask on a terminal: U+0000 is shown as \\x00", r.returncode == 0 and b"a\\x00b" in r.stdout,
          repr(r.stdout))
r = ask("/nul-plain", "--json")
tap.check("ask: a raw NUL in text/plain is kept (exit 0)",
          r.returncode == 0 and '"raw \\u0000 nul"' in json.loads(r.stdout.decode().splitlines()[0])["content"],
          repr(r.stdout) + repr(r.stderr))

# --- Item 2: an error body of 65 536 bytes or more ends the turn with its status.
for path in ("/error-65535", "/error-65536", "/error-1mib-open"):
    r = ask(path, timeout=20)
    tap.check(f"ask {path}: ends with the status (exit 1)",
              r.returncode == 1 and b"Ask request failed (500)." in r.stderr and b"CRITICAL" not in r.stderr,
              repr(r.returncode) + repr(r.stderr))

# --- Item 5: redirects are errors that name the status and where they point.
for code in (301, 302, 303, 307, 308):
    r = ask(f"/redirect-{code}", timeout=20)
    err = r.stderr.decode()
    tap.check(f"ask: a {code} is not followed and names the other origin",
              r.returncode == 1 and f"({code})" in err and other.base in err and not other.requests
              and b"elsewhere" not in r.stdout, repr(r.returncode) + err + repr(r.stdout))
    r = turn(f"/redirect-{code}", timeout=20)
    out = r.stdout.decode()
    tap.check(f"turn: a {code} is not followed and names the other origin",
              r.returncode == 1 and "HTTP_REDIRECT" in out and f"HTTP {code}" in out and other.base in out
              and not other.requests, repr(r.returncode) + out + r.stderr.decode())
n = len(peer.requests)
r = ask("/redirect-loop", timeout=20)
tap.check("ask: a redirect loop is one request and an error",
          r.returncode == 1 and len(peer.requests) == n + 1 and b"(302)" in r.stderr, repr(r.stderr))
r = ask("/redirect-file", timeout=20)
tap.check("ask: a redirect to file: is named, not followed",
          r.returncode == 1 and b"file:" in r.stderr and b"redirected" in r.stderr, repr(r.stderr))
r = turn("/redirect-file", timeout=20)
tap.check("turn: a redirect to file: is named, not followed",
          r.returncode == 1 and b"file:" in r.stdout and b"HTTP_REDIRECT" in r.stdout, repr(r.stdout))

# --- Item 7: akc turn stops on SIGINT, even when SIGINT was inherited as ignored.
for ignored in (False, True):
    argv = [AKC, "turn", "--endpoint", peer.base + "/streaming-forever", "--session", SESSION, "hello"]
    r = hostile_peer.run(argv, ENV, timeout=20, interrupt_when=lambda out, err: b"Reply" in out,
                         ignore_sigint=ignored)
    tap.check(f"turn: SIGINT{' (inherited as ignored)' if ignored else ''} stops the turn, exit 130",
              r.returncode == 130, repr(r.returncode) + repr(r.stdout) + repr(r.stderr))
argv = [AKC, "ask", "--endpoint", peer.base + "/streaming-forever", "--connect-timeout", "0", "Question?"]
n = len(peer.requests)
# Once the request arrived, the handler is installed.
r = hostile_peer.run(argv, ENV, timeout=20, interrupt_when=lambda out, err: len(peer.requests) > n,
                     ignore_sigint=True)
tap.check("ask: SIGINT inherited as ignored still stops it, exit 130", r.returncode == 130,
          repr(r.returncode) + repr(r.stderr))

# --- Item 7: a 401 whose body never comes is reported as a 401.
r = ask("/unauthorized-without-body", "--connect-timeout", "1000", timeout=20)
tap.check("ask: a 401 without its body says 401", r.returncode == 1 and b"(401)" in r.stderr, repr(r.stderr))

# --- Item 11: the code of an in-stream Ask error is printed.
for code in IN_STREAM_CODES:
    r = ask(f"/in-stream-{code}", "--json", timeout=20)
    lines = [json.loads(line) for line in r.stdout.decode().splitlines()]
    tap.check(f"ask --json: the error line has its code {code}",
              r.returncode == 1 and lines[-1] == {"type": "error", "content": "It failed.", "code": code},
              repr(lines))
    r = ask(f"/in-stream-{code}", timeout=20)
    tap.check(f"ask: the error message names {code}", r.returncode == 1 and code.encode() in r.stderr,
              repr(r.stderr))

# --- Item 6: an NDJSON answer that ends without done was cut off (exit 1).
for path in ("/chunk-zz", "/chunk-negative", "/chunk-max", "/no-done"):
    r = ask(path, timeout=20)
    tap.check(f"ask {path}: cut off, what arrived is shown, exit 1",
              r.returncode == 1 and b"cut off" in r.stderr and r.stdout == b"one event\n",
              repr(r.returncode) + repr(r.stdout) + repr(r.stderr))
r = ask("/chunk-zz", "--json", timeout=20)
lines = [json.loads(line) for line in r.stdout.decode().splitlines()]
tap.check("ask --json: the done of a cut-off answer is marked synthetic, exit 1",
          r.returncode == 1 and lines[-1] == {"type": "done", "metadata": {"synthetic": True}}, repr(lines))
for path in ("/done", "/plain-end"):
    r = ask(path, timeout=20)
    tap.check(f"ask {path}: a finished answer exits 0", r.returncode == 0 and not r.stderr, repr(r.stderr))
for name in ("zz", "negative", "max"):
    r = turn(f"/turn-chunk-{name}", timeout=20)
    tap.check(f"turn /turn-chunk-{name}: the turn is incomplete, exit 1",
              r.returncode == 1 and b"TURN_INCOMPLETE" in r.stdout, repr(r.returncode) + repr(r.stdout))

peer.stop()
other.stop()
sys.exit(tap.finish())
