#!/usr/bin/python3
# test-cli-credentials.py: `akc credentials set|clear` keeps a secret in the
# keyring (libsecret's file backend), read from standard input or from the
# terminal with echo off, never echoed (TAP).
#
# SPDX-License-Identifier: MIT
#
#   test-cli-credentials.py PATH-TO-AKC

import os
import pty
import select
import subprocess
import sys
import tempfile
import time

import gi

gi.require_version("Akc", "1")
from gi.repository import Akc  # noqa: E402
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "lib"))
from tap import check, finish  # noqa: E402

AKC = sys.argv[1]
KEY = "sk-cli-credentials-key-9b21"
TYPED = "typed-secret-4412"
ENDPOINT = "http://127.0.0.1:8080/v1"


folder = tempfile.TemporaryDirectory()
secret_env = {"SECRET_BACKEND": "file", "SECRET_FILE_TEST_PATH": os.path.join(folder.name, "keyring"),
              "SECRET_FILE_TEST_PASSWORD": "akc-file-backend-password"}
env = dict(os.environ, LC_ALL="C.UTF-8", LANGUAGE="", **secret_env)
env.pop("DBUS_SESSION_BUS_ADDRESS", None)
env.pop("DISPLAY", None)


def akc(*args, input=None):
    return subprocess.run([AKC, "credentials", *args], env=env, input=input,
                          stdin=subprocess.DEVNULL if input is None else None,
                          capture_output=True, text=True, timeout=60)


LOOKUP = """
import sys, gi
gi.require_version("Akc", "1")
from gi.repository import Akc, GLib
store = Akc.CredentialStore.new()
loop = GLib.MainLoop()
out = []
store.lookup_async(sys.argv[1], Akc.CredentialKind(int(sys.argv[2])), None,
                   lambda s, r: (out.append(s.lookup_finish(r)), loop.quit()))
loop.run()
print("" if out[0] is None else out[0], end="")
"""


def stored(endpoint, kind):
    """What the keyring holds, read by a new process (libsecret's file
    backend keeps what it read once)."""
    result = subprocess.run([sys.executable, "-c", LOOKUP, endpoint, str(int(kind))], env=env,
                            capture_output=True, text=True, timeout=60)
    return result.stdout if result.stdout else None


result = akc("set", "--endpoint", ENDPOINT, "--kind", "api-key", input=KEY + "\n")
check("set reads the key from standard input and stores it under the endpoint, kind api-key",
      result.returncode == 0 and stored(ENDPOINT, Akc.CredentialKind.API_KEY) == KEY
      and stored(ENDPOINT, Akc.CredentialKind.BEARER_TOKEN) is None, result.stderr)
check("the key is in no output", KEY not in result.stdout + result.stderr)
check("the endpoint is normalised: the same key is found for another spelling",
      stored("HTTP://127.0.0.1:8080/v1?x=1", Akc.CredentialKind.API_KEY) == KEY)

# A terminal: a prompt, with echo off.
master, slave = pty.openpty()
process = subprocess.Popen([AKC, "credentials", "set", "--endpoint", ENDPOINT, "--kind", "bearer-token"], env=env,
                           stdin=slave, stdout=slave, stderr=slave)
os.close(slave)
seen = b""
deadline = time.monotonic() + 30
while b"Token for" not in seen and time.monotonic() < deadline:
    if select.select([master], [], [], 1)[0]:
        seen += os.read(master, 4096)
os.write(master, (TYPED + "\n").encode())
process.wait(timeout=30)
try:
    while select.select([master], [], [], 0.2)[0]:
        seen += os.read(master, 4096)
except OSError:
    pass
os.close(master)
check("on a terminal the secret is asked for and not echoed",
      process.returncode == 0 and b"Token for" in seen and TYPED.encode() not in seen
      and stored(ENDPOINT, Akc.CredentialKind.BEARER_TOKEN) == TYPED, seen)

result = akc("clear", "--endpoint", ENDPOINT, "--kind", "api-key")
check("clear removes the key and keeps the token",
      result.returncode == 0 and stored(ENDPOINT, Akc.CredentialKind.API_KEY) is None
      and stored(ENDPOINT, Akc.CredentialKind.BEARER_TOKEN) == TYPED, result.stderr)

check("an empty secret is refused (usage)", akc("set", "--endpoint", ENDPOINT, "--kind", "api-key", input="").returncode == 2)
check("a secret of two lines is refused",
      akc("set", "--endpoint", ENDPOINT, "--kind", "api-key", input="a\nb\n").returncode == 2)
check("an unknown kind is a usage error", akc("set", "--endpoint", ENDPOINT, "--kind", "password", input="x").returncode == 2)
check("a bad endpoint is a usage error", akc("set", "--endpoint", "ftp://x/", "--kind", "api-key", input="x").returncode == 2)
check("a missing verb is a usage error", akc("--endpoint", ENDPOINT, "--kind", "api-key").returncode == 2)

sys.exit(finish())
