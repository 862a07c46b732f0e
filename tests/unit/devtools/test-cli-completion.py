#!/usr/bin/python3
# test-cli-completion.py: `akc completion bash|zsh|fish` offers every command
# of `akc --help`, and the bash script completes in a real bash (TAP).
#
# SPDX-License-Identifier: MIT
#
#   test-cli-completion.py PATH-TO-AKC

import os
import re
import subprocess
import sys
import tempfile
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "lib"))
from tap import check, finish  # noqa: E402

AKC = sys.argv[1]
ENV = dict(os.environ, LC_ALL="C.UTF-8", LANGUAGE="")


def akc(*args):
    return subprocess.run([AKC, *args], capture_output=True, env=ENV, timeout=30)


help_text = akc("--help").stdout.decode()
commands = re.findall(r"^  ([a-z-]+) ", help_text.split("Options:")[0], re.M)
check("akc --help lists commands", "replay" in commands and "completion" in commands, help_text)

scripts = {shell: akc("completion", shell) for shell in ("bash", "zsh", "fish")}
for shell, r in scripts.items():
    out = r.stdout.decode()
    check(f"{shell}: a script", r.returncode == 0 and out.startswith(("#", "complete")), r)
    missing = [c for c in commands if c not in out]
    check(f"{shell}: offers every command", not missing, missing)

with tempfile.NamedTemporaryFile("w", suffix=".bash", delete=False) as f:
    f.write(scripts["bash"].stdout.decode())
    bash_script = f.name


def complete(*words):
    line = " ".join(f"'{w}'" for w in words)
    r = subprocess.run(["bash", "-c", f"source {bash_script}; COMP_WORDS=(akc {line}); "
                        f"COMP_CWORD={len(words)}; _akc; printf '%s\\n' \"${{COMPREPLY[@]}}\""],
                       capture_output=True, env=ENV, timeout=30)
    return r.stdout.decode().split()


check("bash -n accepts the script", subprocess.run(["bash", "-n", bash_script]).returncode == 0)
check("bash: a command from its prefix", complete("rep") == ["replay"], complete("rep"))
check("bash: every command from nothing", sorted(complete("")) == sorted(commands + ["--help", "--version"]),
      complete(""))
check("bash: a subcommand", "verify" in complete("knowledge", "ver"), complete("knowledge", "ver"))
check("bash: an option", complete("replay", "--def") == ["--definition"], complete("replay", "--def"))
os.unlink(bash_script)

r = akc("completion", "tcsh")
check("an unknown shell is a usage error", r.returncode == 2 and b"bash|zsh|fish" in r.stderr, r)

sys.exit(finish())
