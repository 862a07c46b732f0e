#!/usr/bin/python3
# check-docs.py GIR... — every public symbol of the GIR files has a doc
# comment, every parameter and return value is described, and every symbol
# says since when it exists (a `Since:` line).
#
# gi-docgen itself (run by the build with --fatal-warnings) checks the links
# in the comments; this checks what it does not. Each problem is printed on a
# line of its own, naming the symbol, its C name, the header it is declared
# in and what its doc comment lacks, so whoever added it can fix it:
#
#   src/libakc/core/akc-chat.h:57: akc_chat_get_status (Akc.Chat.get_status): no `Since:` line
#
# Exit status: 0 when nothing is missing, 1 otherwise.

import sys
import xml.etree.ElementTree as ET

CORE = '{http://www.gtk.org/introspection/core/1.0}'
C = '{http://www.gtk.org/introspection/c/1.0}'
GLIB = '{http://www.gtk.org/introspection/glib/1.0}'

CALLABLES = ('function', 'method', 'constructor')
TYPES = ('class', 'interface', 'record', 'union', 'enumeration', 'bitfield',
         'callback', 'alias')

problems = []


def where(el, parent=None):
    pos = el.find(CORE + 'source-position')
    if pos is None:
        pos = el.find(CORE + 'doc')
    if pos is None and parent is not None:
        return where(parent)
    if pos is None:
        return '<unknown>'
    return f"{pos.get('filename')}:{pos.get('line')}"


def report(el, parent, c_name, gi_name, what):
    problems.append((where(el, parent), c_name, gi_name, what))


def has_doc(el):
    doc = el.find(CORE + 'doc')
    return doc is not None and (doc.text or '').strip() != ''


def check_callable(el, owner, ns, parent=None):
    c_name = el.get(C + 'identifier') or el.get('name')
    gi_name = '.'.join(x for x in (ns, owner, el.get('name')) if x)
    if not has_doc(el):
        report(el, parent, c_name, gi_name, 'no doc comment')
    params = el.find(CORE + 'parameters')
    if params is not None:
        for p in params:
            if p.tag not in (CORE + 'parameter', CORE + 'instance-parameter'):
                continue
            if not has_doc(p):
                report(el, parent, c_name, gi_name,
                       f"parameter @{p.get('name')} is not described")
    rv = el.find(CORE + 'return-value')
    if rv is not None:
        t = rv.find(CORE + 'type')
        void = t is not None and t.get('name') == 'none'
        if not void and not has_doc(rv):
            report(el, parent, c_name, gi_name, 'the return value is not described (`Returns:`)')
    if el.tag != CORE + 'callback' and el.get('version') is None:
        report(el, parent, c_name, gi_name, 'no `Since:` line')


def check_type(el, ns):
    tag = el.tag.replace(CORE, '')
    name = el.get('name')
    c_name = el.get(C + 'type') or el.get(GLIB + 'type-name') or name
    gi_name = f'{ns}.{name}'
    # Class and interface structs are documented by their type.
    if el.get(GLIB + 'is-gtype-struct-for') is not None:
        return
    if not has_doc(el):
        report(el, None, c_name, gi_name, 'no doc comment')
    if el.get('version') is None:
        report(el, None, c_name, gi_name, 'no `Since:` line')
    if tag == 'callback':
        params = el.find(CORE + 'parameters')
        for p in (params if params is not None else []):
            if not has_doc(p):
                report(el, None, c_name, gi_name, f"parameter @{p.get('name')} is not described")
        return
    for member in el.findall(CORE + 'member'):
        if not has_doc(member):
            report(el, None, member.get(C + 'identifier'), f"{gi_name}.{member.get('name')}",
                   'the value is not described')
    for child in el:
        if child.tag.replace(CORE, '') in CALLABLES:
            check_callable(child, name, ns, el)
        elif child.tag == CORE + 'property':
            pname = f'{c_name}:{child.get("name")}'
            if not has_doc(child):
                report(child, el, pname, f'{gi_name}:{child.get("name")}', 'no doc comment')
            if child.get('version') is None:
                report(child, el, pname, f'{gi_name}:{child.get("name")}', 'no `Since:` line')
        elif child.tag == GLIB + 'signal':
            sname = f'{c_name}::{child.get("name")}'
            if not has_doc(child):
                report(child, el, sname, f'{gi_name}::{child.get("name")}', 'no doc comment')
            params = child.find(CORE + 'parameters')
            for p in (params if params is not None else []):
                if not has_doc(p):
                    report(child, el, sname, f'{gi_name}::{child.get("name")}',
                           f"parameter @{p.get('name')} is not described")
            if child.get('version') is None:
                report(child, el, sname, f'{gi_name}::{child.get("name")}', 'no `Since:` line')


for path in sys.argv[1:]:
    root = ET.parse(path).getroot()
    ns_el = root.find(CORE + 'namespace')
    ns = ns_el.get('name')
    for el in ns_el:
        tag = el.tag.replace(CORE, '')
        if tag in TYPES:
            check_type(el, ns)
        elif tag in CALLABLES or tag == 'function-macro':
            check_callable(el, None, ns)
        elif tag == 'constant':
            c_name = el.get(C + 'type') or el.get('name')
            if not has_doc(el):
                report(el, None, c_name, f"{ns}.{el.get('name')}", 'no doc comment')
            if el.get('version') is None:
                report(el, None, c_name, f"{ns}.{el.get('name')}", 'no `Since:` line')

for w, c_name, gi_name, what in sorted(set(problems)):
    print(f'{w}: {c_name} ({gi_name}): {what}')

if problems:
    n = len(set(problems))
    print(f'check-docs: {n} {"problem" if n == 1 else "problems"} in the doc comments of '
          f'{", ".join(sys.argv[1:])}: complete the doc comments of the symbols above '
          f'(a public symbol new in this release says `Since: 0.1`)', file=sys.stderr)
    sys.exit(1)
print(f'check-docs: every public symbol is documented, with `Since:`')
