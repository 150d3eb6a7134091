#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""The layers' include rules (docs/design.md, "Layers"), checked on the
source tree. The build enforces them first: each layer's library is
compiled with its own include directory and those below it only, so an
upward #include "dmk-x.h" does not compile. This check covers what the
include path cannot: a relative path out of a folder ("../ui/dmk-app.h",
which the compiler finds beside the including file), and GLib in the
chart renderer (Cairo's pkg-config file puts GLib's include directory on
its path). Prints TAP; usage: check_layers.py SOURCE_ROOT."""

import os
import re
import sys

# Each layer and the layers it may include, lowest first.
ALLOWED = {
    'platform': {'platform'},
    'core': {'core', 'platform'},
    'chart': {'chart', 'core', 'platform'},
    'ui': {'ui', 'chart', 'core', 'platform'},
    'app': {'app', 'chart', 'core', 'platform'},
}
# The GUI's main is the one file of app/ that starts ui/; the build tool
# that writes drivemark(1) reads the window's options there too.
EXTRA = {'app/drivemark.c': {'ui'}, 'app/dmk-gen-gui-docs.c': {'ui'}}
# Generated headers: the layer whose build directory holds them.
GENERATED = {'dmk-version.h': 'core', 'dmk-resources.h': 'ui', 'dmk-backend-list.h': 'platform'}
# System headers a layer must not include: no GLib below ui/ (the engine
# and the CLI cross-build without it), no Cairo below chart/.
GLIB = re.compile(r'^(glib|gio|gobject|gtk|gdk|pango|graphene)')
CAIRO = re.compile(r'^cairo')
FORBIDDEN = {
    'platform': [GLIB, CAIRO],
    'core': [GLIB, CAIRO],
    'chart': [GLIB],
    'app': [GLIB],
}
INCLUDE = re.compile(r'^\s*#\s*include\s*([<"])([^">]+)[">]')


def layer_of(root, path):
    rel = os.path.relpath(path, root)
    top = rel.split(os.sep)[0]
    return top if top in ALLOWED else None


def resolve(root, src, name):
    """The file the compiler takes for #include "name" in src: beside src
    first, then on the layers' include paths (all of them: the rule, not
    the build, decides here)."""
    here = os.path.join(os.path.dirname(src), name)
    if os.path.isfile(here):
        return here
    for layer in ALLOWED:
        there = os.path.join(root, layer, name)
        if os.path.isfile(there):
            return there
    return None


def check_file(root, src):
    rel = os.path.relpath(src, root).replace(os.sep, '/')
    layer = layer_of(root, src)
    allowed = ALLOWED[layer] | EXTRA.get(rel, set())
    problems = []
    with open(src, encoding='utf-8') as f:
        for number, line in enumerate(f, 1):
            m = INCLUDE.match(line)
            if not m:
                continue
            kind, name = m.groups()
            close = '>' if kind == '<' else '"'
            where = f'{rel}:{number}: #include {kind}{name}{close}'
            if kind == '<':
                for pattern in FORBIDDEN.get(layer, []):
                    if rel not in EXTRA and pattern.match(name):
                        problems.append(f'{where}: {layer}/ may not include it')
                continue
            if '..' in name.split('/'):
                problems.append(f'{where}: a path out of the folder')
                continue
            if name in GENERATED:
                target = GENERATED[name]
            else:
                found = resolve(root, src, name)
                if not found:
                    problems.append(f'{where}: no such header in the tree')
                    continue
                target = layer_of(root, found)
            if target not in allowed:
                problems.append(f'{where}: a {target}/ header in {layer}/')
    return problems


def main():
    root = os.path.abspath(sys.argv[1])
    sources = []
    for layer in ALLOWED:
        for folder, _, files in os.walk(os.path.join(root, layer)):
            sources += [os.path.join(folder, f) for f in sorted(files)
                        if f.endswith(('.c', '.h'))]
    sources.sort()
    print(f'1..{len(sources)}')
    failed = 0
    for i, src in enumerate(sources, 1):
        problems = check_file(root, src)
        rel = os.path.relpath(src, root)
        print(f'{"not ok" if problems else "ok"} {i} {rel}')
        for p in problems:
            print(f'# {p}')
        failed += bool(problems)
    return 1 if failed else 0


if __name__ == '__main__':
    sys.exit(main())
