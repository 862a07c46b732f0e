#!/usr/bin/python3
# gi-docgen-strict.py [--fatal] SOURCE_ROOT GI-DOCGEN generate ARGS...
#
# Runs gi-docgen and, with --fatal, fails when it warns, as
# --fatal-warnings would, but only
# after it has said everything: each warning is printed with the place in
# the sources it comes from (the doc comment or topic page holding the link
# that does not resolve), so whoever wrote it can fix it:
#
#   src/libakc/store/akc-chat-memory.c:394: [method@ChatMemory.splice_messages]:
#     Unable to find method 'Akc.ChatMemory.splice_messages'

import os
import re
import subprocess
import sys

args = sys.argv[1:]
fatal = args[0] == '--fatal'
if fatal:
    args = args[1:]
root, cmd = args[0], args[1:]
env = dict(os.environ, TERM='dumb')
proc = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, env=env, text=True)
lines = re.sub(r'\x1b\[[0-9;]*m', '', proc.stdout).split('\n')

LINK = re.compile(r'\[[a-z_]+@[^\]]+\]')
sources = []
for top in ('src', 'docs'):
    for dirpath, _, names in os.walk(os.path.join(root, top)):
        for name in names:
            if name.endswith(('.c', '.h', '.md')):
                sources.append(os.path.join(dirpath, name))


def places(link):
    found = []
    for path in sources:
        with open(path, encoding='utf-8', errors='replace') as f:
            for n, text in enumerate(f, 1):
                if link in text:
                    found.append(f'{os.path.relpath(path, root)}:{n}')
    return found


warnings = []
i = 0
while i < len(lines):
    line = lines[i]
    if line.startswith('WARNING: '):
        message = line[len('WARNING: '):]
        context = lines[i + 1] if i + 1 < len(lines) else ''
        m = LINK.search(context) if not context.startswith(('WARNING', 'INFO')) else None
        if m:
            where = places(m.group(0)) or ['<unknown place>']
            for w in where:
                warnings.append(f'{w}: {m.group(0)}: {message}')
            i += 3
            continue
        warnings.append(message)
    elif line.strip() and not line.startswith('INFO: '):
        print(line)
    i += 1

for w in sorted(set(warnings)):
    print(w, file=sys.stderr)
if proc.returncode != 0:
    sys.exit(proc.returncode)
if warnings and fatal:
    print(f'gi-docgen-strict: {len(set(warnings))} warnings: fix the doc comments named above',
          file=sys.stderr)
    sys.exit(1)
