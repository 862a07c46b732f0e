#!/usr/bin/env python3
# Runs a TAP test program against a real gnome-keyring in a private D-Bus
# session with a temporary HOME, so the user's keyring is never touched.
#
#   run-keyring-test.py PROGRAM [ARGS...]
#
# SPDX-License-Identifier: MIT

import os
import shutil
import subprocess
import sys
import tempfile

INNER = "AKC_KEYRING_TEST_INNER"


def skip(reason):
    print("1..0 # SKIP " + reason, flush=True)
    return 0


def outer(argv):
    for tool in ("dbus-run-session", "gnome-keyring-daemon"):
        if shutil.which(tool) is None:
            return skip(tool + " is not installed")
    with tempfile.TemporaryDirectory(prefix="akc-keyring-") as tmp:
        home = os.path.join(tmp, "home")
        runtime = os.path.join(tmp, "runtime")
        os.mkdir(home, 0o700)
        os.mkdir(runtime, 0o700)
        env = dict(os.environ)
        for name in ("DBUS_SESSION_BUS_ADDRESS", "DISPLAY", "WAYLAND_DISPLAY",
                     "SECRET_BACKEND", "SECRET_FILE_TEST_PATH",
                     "SECRET_FILE_TEST_PASSWORD", "GNOME_KEYRING_CONTROL"):
            env.pop(name, None)
        env.update(HOME=home, XDG_RUNTIME_DIR=runtime,
                   XDG_DATA_HOME=os.path.join(home, ".local", "share"),
                   XDG_CONFIG_HOME=os.path.join(home, ".config"),
                   XDG_CACHE_HOME=os.path.join(home, ".cache"))
        env[INNER] = "1"
        return subprocess.call(["dbus-run-session", "--", sys.executable,
                                os.path.abspath(__file__)] + argv, env=env)


def inner(argv):
    # The daemon is not under test: the suite's G_DEBUG=fatal-warnings and
    # MALLOC_PERTURB_ would make it abort on its own warnings.
    daemon_env = {k: v for k, v in os.environ.items()
                  if k not in ("G_DEBUG", "MALLOC_PERTURB_", "G_SLICE", INNER)}
    daemon = subprocess.run(
        ["gnome-keyring-daemon", "--unlock", "--components=secrets"],
        input=b"akc-keyring-test-password", stdout=subprocess.PIPE,
        env=daemon_env, timeout=30, check=True)
    env = dict(os.environ)
    del env[INNER]
    for line in daemon.stdout.decode().splitlines():
        name, sep, value = line.partition("=")
        if sep:
            env[name] = value
    return subprocess.call(argv, env=env)


def main():
    if len(sys.argv) < 2:
        print("usage: run-keyring-test.py PROGRAM [ARGS...]", file=sys.stderr)
        return 2
    if os.environ.get(INNER):
        return inner(sys.argv[1:])
    return outer(sys.argv[1:])


if __name__ == "__main__":
    sys.exit(main())
