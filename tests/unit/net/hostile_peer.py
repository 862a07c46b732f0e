# hostile_peer.py: a loopback HTTP peer that misbehaves on purpose, and
# helpers to run `akc` against it on a pipe or a pseudo-terminal
#
# SPDX-License-Identifier: MIT
#
# Shared by the `akc ask` and `akc turn` hostile tests. The peer listens on
# 127.0.0.1 on a free port, reads each request (head and Content-Length
# body) and answers with the raw bytes a route scripts: a route is a
# function (request, connection) that writes whatever it wants, so a test
# can send malformed chunk sizes, endless bodies, redirects or escape
# sequences that no well-behaved server would. Every write is bounded by
# the test's own timeout; the peer stops with the test.

import os
import pty
import select
import signal
import socket
import subprocess
import threading
import time


def turn_snapshot(session, sequence, status, reply):
    """A server.turn.snapshot event (protocol.md §2.3) of one exchange:
    the user's "hello" and the assistant's @reply."""
    return {
        "protocol": "agentskit.chat.turn", "version": 1, "eventId": f"e{sequence}", "sessionId": session,
        "turnId": "t1", "sequence": sequence, "emittedAt": "2026-07-11T00:00:00.000Z",
        "event": "server.turn.snapshot",
        "payload": {"messages": [
            {"id": "u1", "role": "user", "content": "hello", "status": "complete",
             "createdAt": "2026-07-11T00:00:00.000Z"},
            {"id": "a1", "role": "assistant", "content": reply, "status": status,
             "createdAt": "2026-07-11T00:00:01.000Z"}],
            "status": status, "lineage": {"operation": "submit"},
            "usage": {"promptTokens": 1, "completionTokens": 2, "totalTokens": 3}}}


def cli_env(folder):
    """The environment akc runs in: C.UTF-8, no display, no D-Bus, and
    libsecret's file backend in @folder (so no real keyring is touched)."""
    env = dict(os.environ, LC_ALL="C.UTF-8", LANGUAGE="", SECRET_BACKEND="file",
               SECRET_FILE_TEST_PATH=os.path.join(folder, "keyring"),
               SECRET_FILE_TEST_PASSWORD="akc-file-backend-password")
    env.pop("DBUS_SESSION_BUS_ADDRESS", None)
    env.pop("DISPLAY", None)
    return env


class Request:
    def __init__(self, line, headers, body):
        self.line = line
        self.method, self.path = line.split(" ")[:2]
        self.headers = headers
        self.body = body


class Peer:
    """A threaded raw HTTP peer. routes maps a path (without query) to a
    function (peer, request, sock); the function writes the reply and
    returns; the connection is then closed."""

    def __init__(self, routes):
        self.routes = routes
        self.requests = []
        self.sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        self.sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self.sock.bind(("127.0.0.1", 0))
        self.sock.listen(16)
        self.port = self.sock.getsockname()[1]
        self.base = f"http://127.0.0.1:{self.port}"
        self.stopping = threading.Event()
        self.thread = threading.Thread(target=self._serve, daemon=True)
        self.thread.start()

    def _serve(self):
        self.sock.settimeout(0.2)
        while not self.stopping.is_set():
            try:
                conn, _ = self.sock.accept()
            except socket.timeout:
                continue
            except OSError:
                return
            threading.Thread(target=self._handle, args=(conn,), daemon=True).start()

    def _handle(self, conn):
        try:
            conn.settimeout(30)
            data = b""
            while b"\r\n\r\n" not in data:
                piece = conn.recv(65536)
                if not piece:
                    return
                data += piece
            head, _, body = data.partition(b"\r\n\r\n")
            lines = head.decode("latin-1").split("\r\n")
            headers = {}
            for line in lines[1:]:
                name, _, value = line.partition(":")
                headers[name.strip().lower()] = value.strip()
            length = int(headers.get("content-length", "0"))
            while len(body) < length:
                piece = conn.recv(65536)
                if not piece:
                    break
                body += piece
            request = Request(lines[0], headers, body)
            self.requests.append(request)
            route = self.routes.get(request.path.split("?")[0])
            if route is None:
                conn.sendall(b"HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\nConnection: close\r\n\r\n")
            else:
                route(self, request, conn)
        except OSError:
            pass
        finally:
            try:
                conn.close()
            except OSError:
                pass

    def stop(self):
        self.stopping.set()
        self.sock.close()
        self.thread.join(5)


def chunked(status, content_type, chunks, extra=b""):
    """A chunked HTTP/1.1 response, each item one chunk."""
    out = b"HTTP/1.1 %d X\r\n" % status
    if content_type is not None:
        out += b"Content-Type: " + content_type.encode() + b"\r\n"
    out += b"Transfer-Encoding: chunked\r\nConnection: close\r\n" + extra + b"\r\n"
    for chunk in chunks:
        out += b"%x\r\n%s\r\n" % (len(chunk), chunk)
    return out + b"0\r\n\r\n"


def sized(status, content_type, body, extra=b""):
    """A Content-Length HTTP/1.1 response."""
    out = b"HTTP/1.1 %d X\r\n" % status
    if content_type is not None:
        out += b"Content-Type: " + content_type.encode() + b"\r\n"
    return out + b"Content-Length: %d\r\nConnection: close\r\n%s\r\n%s" % (len(body), extra, body)


def hold_open(conn, seconds=60):
    """Keeps the connection open until the client closes it (or the bound)."""
    conn.settimeout(seconds)
    try:
        while conn.recv(65536):
            pass
    except OSError:
        pass


class Run:
    def __init__(self, returncode, stdout, stderr, seconds):
        self.returncode = returncode
        self.stdout = stdout
        self.stderr = stderr
        self.seconds = seconds


def _ignore_sigint():
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def run(argv, env, timeout=60, interrupt_when=None, ignore_sigint=False):
    """Runs argv with stdout and stderr on pipes. interrupt_when: a
    function of the output so far; when it returns True, SIGINT is sent.
    ignore_sigint: start the program with SIGINT ignored, as a shell's
    background job inherits it."""
    start = time.monotonic()
    proc = subprocess.Popen(argv, env=env, stdin=subprocess.DEVNULL,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            preexec_fn=_ignore_sigint if ignore_sigint else None)
    out, err = b"", b""
    interrupted = False
    deadline = start + timeout
    streams = {proc.stdout.fileno(): "out", proc.stderr.fileno(): "err"}
    while streams and time.monotonic() < deadline:
        ready, _, _ = select.select(list(streams), [], [], 0.1)
        for fd in ready:
            piece = os.read(fd, 65536)
            if not piece:
                del streams[fd]
            elif streams[fd] == "out":
                out += piece
            else:
                err += piece
        if interrupt_when is not None and not interrupted and interrupt_when(out, err):
            proc.send_signal(signal.SIGINT)
            interrupted = True
    if streams:
        proc.kill()
        proc.wait()
        return Run(None, out, err, time.monotonic() - start)
    proc.wait()
    return Run(proc.returncode, out, err, time.monotonic() - start)


def run_on_terminal(argv, env, timeout=60):
    """Runs argv with stdout and stderr on one pseudo-terminal (no output
    processing, so bytes arrive as written) and returns what the terminal
    received."""
    start = time.monotonic()
    master, slave = pty.openpty()
    import tty
    tty.setraw(slave)
    proc = subprocess.Popen(argv, env=env, stdin=subprocess.DEVNULL, stdout=slave, stderr=slave)
    os.close(slave)
    out = b""
    deadline = start + timeout
    while time.monotonic() < deadline:
        ready, _, _ = select.select([master], [], [], 0.1)
        if ready:
            try:
                piece = os.read(master, 65536)
            except OSError:
                break
            if not piece:
                break
            out += piece
        elif proc.poll() is not None:
            # drain what is left
            try:
                while True:
                    ready, _, _ = select.select([master], [], [], 0.05)
                    if not ready:
                        break
                    piece = os.read(master, 65536)
                    if not piece:
                        break
                    out += piece
            except OSError:
                pass
            break
    if proc.poll() is None:
        proc.kill()
    proc.wait()
    os.close(master)
    return Run(proc.returncode, out, b"", time.monotonic() - start)


class Tap:
    def __init__(self):
        self.count = 0
        self.failed = 0

    def check(self, name, condition, detail=""):
        self.count += 1
        if condition:
            print(f"ok {self.count} - {name}", flush=True)
        else:
            self.failed += 1
            print(f"not ok {self.count} - {name}", flush=True)
            for line in str(detail).splitlines()[:20]:
                print(f"# {line}", flush=True)

    def finish(self):
        print(f"1..{self.count}", flush=True)
        return 1 if self.failed else 0
