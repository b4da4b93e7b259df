#!/usr/bin/env python3
"""Module graph of a Rust crate from its `use` lines and inline `crate::`/`super::`/`self::` paths.
Prints every cycle (strongly connected component of more than one file) and the edges inside it, and exits 1
when there is one. `make lint` runs it over grader/src, whose modules form a one-way flow (ARCHITECTURE.md):
a child importing from its parent, or two files importing each other, is a cycle here.
A crude reader (regular expressions, comments and strings blanked): a crate whose lib.rs re-exports names
that its modules then import through `crate::` shows false cycles, so it is run on the grader only.
Usage: module-cycles.py SRC_DIR [PREFIX] [-v]   (PREFIX: only report components within modules starting with it)"""
import os, re, sys
args = [a for a in sys.argv[1:] if a != "-v"]
src = args[0]; only = args[1] if len(args) > 1 else ""
mods = {}  # module path -> file
for dp, _, fs in os.walk(src):
    for f in fs:
        if not f.endswith(".rs"): continue
        rel = os.path.relpath(os.path.join(dp, f), src)[:-3].split(os.sep)
        if rel[-1] in ("mod", "lib", "main"): rel = rel[:-1]
        if rel and rel[0] == "bin": continue
        mods["::".join(["crate"] + rel)] = os.path.join(dp, f)
def parent(m): return m.rsplit("::", 1)[0]
def resolve(cur, path):
    parts = path.split("::")
    base = cur
    if parts[0] == "crate": base, parts = "crate", parts[1:]
    else:
        while parts and parts[0] in ("super", "self"):
            base = parent(base) if parts[0] == "super" else base
            parts = parts[1:]
    full = base
    best = base if base in mods else None
    for p in parts:
        full += "::" + p
        if full in mods: best = full
        else: break
    return best
def expand(tree):  # "a::{b, c::{d, self}}" -> ["a::b", "a::c::d", "a::c"]
    tree = tree.strip()
    m = re.match(r"^(.*?)::\{(.*)\}$", tree, re.S)
    if not m: return [re.sub(r"\s+as\s+\w+$", "", tree)]
    head, body = m.group(1), m.group(2)
    out, depth, cur = [], 0, ""
    for ch in body + ",":
        if ch == "{": depth += 1
        if ch == "}": depth -= 1
        if ch == "," and depth == 0:
            if cur.strip(): out += [head if x == "self" else head + "::" + x for x in expand(cur)]
            cur = ""
        else: cur += ch
    return out
edges = {}
for m, f in mods.items():
    text = open(f).read()
    # blank out comments and strings crudely
    text = re.sub(r"//[^\n]*", "", text)
    text = re.sub(r"'(?:\\.|[^'\\])'", "' '", text)  # char literals such as '"'
    text = re.sub(r'"(?:\\.|[^"\\])*"', '""', text, flags=re.S)
    lines = text.split("\n")
    inline = None  # (indent) of an inline `mod x {` block: `super` there means this file
    cur_lines = []
    for ln in lines:
        if inline is None and re.match(r"^mod \w+ \{", ln): inline = True; continue
        if inline and ln.startswith("}"): inline = None; continue
        cur_lines.append((ln, inline))
    body = "\n".join(("\x00" if i else "") + l for l, i in cur_lines)
    targets = set()
    for stmt in re.finditer(r"(\x00?)[^\n]*?\buse\s+((?:crate|super|self)[^;]*);", body, re.S):
        ctx = m + "::__inline" if stmt.group(1) else m
        for p in expand(stmt.group(2)):
            t = resolve(ctx, p.replace("\x00", ""))
            if t: targets.add(t)
    for l, i in cur_lines:
        ctx = m + "::__inline" if i else m
        for p in re.finditer(r"(?<![\w:])((?:crate|super|self)(?:::\w+)+)", re.sub(r"^\s*(pub\s+)?use\s.*", "", l)):
            t = resolve(ctx, p.group(1))
            if t: targets.add(t)
    children = [c for c in mods if parent(c) == m and c != m]
    for c in children:
        name = c.rsplit("::", 1)[1]
        for l, i in cur_lines:
            if re.search(r"(?<![\w:])" + name + r"::\w", re.sub(r"^\s*(pub\s+)?mod\s.*", "", l)):
                targets.add(c)
                break
    targets.discard(m)
    edges[m] = targets
# Tarjan
index, low, stack, on, comps, n = {}, {}, [], set(), [], [0]
sys.setrecursionlimit(10000)
def sc(v):
    index[v] = low[v] = n[0]; n[0] += 1; stack.append(v); on.add(v)
    for w in edges[v]:
        if w not in index: sc(w); low[v] = min(low[v], low[w])
        elif w in on: low[v] = min(low[v], index[w])
    if low[v] == index[v]:
        c = []
        while True:
            w = stack.pop(); on.discard(w); c.append(w)
            if w == v: break
        comps.append(c)
for v in mods:
    if v not in index: sc(v)
cyc = [sorted(c) for c in comps if len(c) > 1 and any(x.startswith(only) for x in c)]
print(f"{len(mods)} modules, {sum(len(e) for e in edges.values())} edges; cycles{' touching ' + only if only else ''}: {len(cyc)}")
for c in cyc:
    print("cycle:", " ".join(c))
    for a in c:
        for b in sorted(edges[a]):
            if b in c: print(f"    {a} -> {b}")
if "-v" in sys.argv:
    for a in sorted(edges):
        if a.startswith(only): print(a, "->", ", ".join(sorted(edges[a])))
sys.exit(1 if cyc else 0)
