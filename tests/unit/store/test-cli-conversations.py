#!/usr/bin/python3
# test-cli-conversations.py: `akc conversations`, `akc export` and
# `akc import` against a history in a private data folder (TAP).
#
# SPDX-License-Identifier: MIT
#
#   test-cli-conversations.py PATH-TO-AKC

import json
import os
import pty
import select
import stat
import subprocess
import sys
import tempfile
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "lib"))
from tap import check, finish  # noqa: E402

AKC = sys.argv[1]


folder = tempfile.TemporaryDirectory()
env = dict(os.environ, LC_ALL="C.UTF-8", LANGUAGE="", XDG_DATA_HOME=os.path.join(folder.name, "data"),
           HOME=folder.name)
env.pop("DBUS_SESSION_BUS_ADDRESS", None)
env.pop("DISPLAY", None)
history = os.path.join(folder.name, "data", "agentskit-chat", "history.sqlite3")


def akc(*args, input=None):
    return subprocess.run([AKC, *args], env=env, input=input, capture_output=True, timeout=60,
                          stdin=None if input is not None else subprocess.DEVNULL)


def on_terminal(*args):
    master, slave = pty.openpty()
    process = subprocess.Popen([AKC, *args], env=env, stdin=subprocess.DEVNULL, stdout=slave, stderr=slave)
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
    return process.returncode, seen


export = {
    "format": "agentskit.chat.conversation",
    "version": 1,
    "conversation": {
        "id": "from-elsewhere",
        "assistantId": "support",
        "title": "Printer \x1b[2Jtrouble",
        "pinned": True,
        "createdAt": "2026-11-30T10:00:00.250000Z",
        "updatedAt": "2026-11-30T10:05:00Z",
        "usage": {"promptTokens": 3, "completionTokens": 5, "totalTokens": 8},
        "messages": [
            {"id": "m1", "role": "user", "status": "complete", "stopped": False,
             "content": "My printer is jammed \u202e again", "createdAt": "2026-11-30T10:00:01Z"},
            {"id": "m2", "role": "assistant", "status": "complete", "stopped": False,
             "content": "Open the tray.", "createdAt": "2026-11-30T10:00:02Z",
             "toolCalls": [{"id": "call-1", "name": "lookup", "args": {"q": "jam"}, "status": "complete",
                            "result": "found"}]},
        ],
        "resolutions": [],
    },
}
source = os.path.join(folder.name, "export.json")
with open(source, "w", encoding="utf-8") as f:
    json.dump(export, f)

# akc import creates the history the app uses and prints the new id.
result = akc("import", source)
new_id = result.stdout.decode().strip()
check("akc import prints the id of the new conversation", result.returncode == 0 and len(new_id) == 36
      and os.path.exists(history), result.stderr)

result = akc("import", "-", input=json.dumps(export).encode())
second_id = result.stdout.decode().strip()
check("akc import - reads standard input", result.returncode == 0 and second_id not in ("", new_id), result.stderr)

# akc conversations: tab-separated, pinned first, the title on one line.
result = akc("conversations")
lines = result.stdout.decode().splitlines()
fields = [line.split("\t") for line in lines]
check("akc conversations lists both", result.returncode == 0 and len(lines) == 2
      and {f[0] for f in fields} == {new_id, second_id}, result.stdout + result.stderr)
check("with assistant, time, count, pin and title", all(
    f[1] == "support" and f[2] == "2026-11-30 10:05" and f[3] == "2" and f[4] == "pinned"
    and f[5] == "Printer [2Jtrouble" for f in fields), fields)
result = akc("conversations", "--offset", "1", "--limit", "5")
check("--offset and --limit page the list", result.returncode == 0 and len(result.stdout.splitlines()) == 1,
      result.stdout)

# akc export --format json gives the file back, but for the id.
result = akc("export", "--conversation", new_id, "--format", "json")
check("akc export --format json", result.returncode == 0, result.stderr)
exported = json.loads(result.stdout)
expected = json.loads(json.dumps(export))
expected["conversation"]["id"] = new_id
check("round-trips every field", exported == expected, json.dumps(exported, indent=1))
check("to a pipe, the exact bytes", b"\\u001b[2J" in result.stdout and "\u202e".encode() in result.stdout,
      result.stdout)

# akc export --format md --output FILE: private, readable.
output = os.path.join(folder.name, "out.md")
result = akc("export", "--conversation", new_id, "--format", "md", "--output", output)
mode = stat.S_IMODE(os.stat(output).st_mode) if os.path.exists(output) else None
text = open(output, encoding="utf-8").read() if os.path.exists(output) else ""
check("akc export --format md --output writes a private file", result.returncode == 0 and mode == 0o600
      and result.stdout == b"", (result.stderr, mode))
check("in Markdown", text.startswith("# Printer \x1b\\[2Jtrouble\n") and "## You · 2026-11-30 10:00" in text
      and "Open the tray." in text and "> Tool call: `lookup` (complete)" in text, text)

# On a terminal the conversation's controls are shown, never obeyed.
rc, seen = on_terminal("export", "--conversation", new_id, "--format", "md")
check("on a terminal, escape sequences and bidi overrides are rendered visibly",
      rc == 0 and b"\x1b" not in seen and b"\\x1b\\[2J" in seen and b"<U+202E>" in seen, seen)

# Refused input: exit 1, the field named, nothing added.
bad = json.loads(json.dumps(export))
bad["conversation"]["messages"][1]["role"] = "robot"
result = akc("import", "-", input=json.dumps(bad).encode())
check("an invalid file is refused with the field's path", result.returncode == 1
      and b"$.conversation.messages[1].role" in result.stderr and result.stdout == b"", result.stderr)
result = akc("import", "-", input=b"not json")
check("so is a file that is not JSON", result.returncode == 1 and b"not JSON" in result.stderr, result.stderr)
result = akc("conversations")
check("and nothing of them was added", len(result.stdout.splitlines()) == 2, result.stdout)

result = akc("export", "--conversation", "missing", "--format", "json")
check("exporting a missing conversation fails", result.returncode == 1 and b"no such conversation" in result.stderr,
      result.stderr)
result = akc("import", os.path.join(folder.name, "nope.json"))
check("importing a missing file fails", result.returncode == 1, result.stderr)

# Usage.
for args in (["export"], ["export", "--conversation", new_id], ["export", "--conversation", new_id, "--format", "pdf"],
             ["import"], ["conversations", "--limit", "x"], ["conversations", "extra"]):
    result = akc(*args)
    check(f"akc {' '.join(args)} is a usage error (2)", result.returncode == 2 and b"Usage:" in result.stderr,
          result.stderr)
for command in ("conversations", "export", "import"):
    result = akc(command, "--help")
    check(f"akc {command} --help", result.returncode == 0 and b"Usage: akc " + command.encode() in result.stdout)

# A history written by a newer version is left alone.
subprocess.run(["/usr/bin/python3", "-c", "import sqlite3, sys; c = sqlite3.connect(sys.argv[1]); "
                "c.execute('PRAGMA user_version = 999'); c.commit()", history], check=True)
result = akc("conversations")
check("a newer history is refused, not changed", result.returncode == 1 and b"newer version" in result.stderr,
      result.stderr)

sys.exit(finish())
