#!/usr/bin/env python3
"""The import graph of a crate's modules, and its strongly connected
components (cycles): `python3 tools/import_cycles.py components/script/src`.

A module is a source file; an edge A -> B is a path `crate::...` in A
(in `use` declarations or in code) that names module B or an item of it,
resolved to the longest module prefix that is a file. Prints the number
of modules, the size of the largest cycle, and its members."""
import os
import re
import sys


def modules(src):
    """Module path (tuple) -> file, for every .rs file under src."""
    out = {}
    for dirpath, _, files in os.walk(src):
        for f in files:
            if not f.endswith(".rs"):
                continue
            rel = os.path.relpath(os.path.join(dirpath, f), src)
            parts = rel[:-3].split(os.sep)
            if parts[-1] in ("mod", "lib", "main"):
                parts = parts[:-1]
            out[tuple(parts)] = os.path.join(dirpath, f)
    return out


PATH = re.compile(r"\bcrate((?:::[A-Za-z_][A-Za-z0-9_]*)+)")
GROUP = re.compile(r"\buse\s+crate::((?:[A-Za-z_][A-Za-z0-9_]*::)*)\{([^;]*)\};", re.S)


def references(text):
    """Every `crate::a::b::...` path in text, as tuples (groups expanded)."""
    refs = [tuple(m.group(1).split("::")[1:]) for m in PATH.finditer(text)]
    for m in GROUP.finditer(text):
        prefix = [p for p in m.group(1).split("::") if p]
        for item in re.split(r"[,{}\s]+", m.group(2)):
            if item and item not in ("self", "as"):
                refs.append(tuple(prefix + item.split("::")))
    return refs


def graph(src):
    mods = modules(src)
    edges = {m: set() for m in mods}
    for m, path in mods.items():
        with open(path, encoding="utf-8") as f:
            text = f.read()
        text = re.sub(r"//[^\n]*", "", text)
        for ref in references(text):
            for n in range(len(ref), 0, -1):
                target = ref[:n]
                if target in mods:
                    if target != m and target != ():
                        edges[m].add(target)
                    break
    return edges


def sccs(edges):
    index, low, on, stack, out = {}, {}, set(), [], []
    counter = [0]
    sys.setrecursionlimit(100000)

    def visit(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in edges[v]:
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            out.append(comp)

    for v in edges:
        if v not in index:
            visit(v)
    return out


def main():
    src = sys.argv[1]
    edges = graph(src)
    comps = sorted(sccs(edges), key=len, reverse=True)
    largest = comps[0]
    print(f"modules: {len(edges)}")
    print(f"edges: {sum(len(e) for e in edges.values())}")
    print(f"largest cycle: {len(largest)} modules")
    print("cycles over 1 module:", [len(c) for c in comps if len(c) > 1])
    if "-v" in sys.argv:
        for m in sorted("::".join(p) for p in largest):
            print("  ", m)


if __name__ == "__main__":
    main()
