#!/usr/bin/env python3
"""ARCHITECTURE.md's module tree against the files on disk, so the map cannot drift from the code.

The tree is the ```tree fenced blocks of ARCHITECTURE.md. In a block, each line is indented by two spaces a
level; a name ending in `/` is a directory (the rest of the line describes it), any other name is a file,
followed by its size in lines and a few words on what it owns:

    grader/src/                        the CLI and its library
      runner/                          the processes and the conversation with them
        ask.rs                   190   typed requests

A line at indentation 0 is a directory relative to the repository's root (a tree's root). Checked:
- every `.rs` file under a tree's root appears in the tree exactly once (other files may be left out);
- every file the tree lists exists;
- every listed size is within 30% or 40 lines (whichever is larger) of the file's size, where a `.rs`
  file's size leaves out its inline test modules (a top-level `#[cfg(test)]` `mod NAME { ... }`) and any
  other file's is its whole line count.

Prints each problem and what to do, and exits 1 when there is one; prints a one-line summary and exits 0
otherwise. `--write` rewrites the listed sizes in place (rounded to the nearest 10) and nothing else.
`--self-test` checks the parser and the counting on a small example. `make lint` runs it.
Usage: architecture-tree.py [--write | --self-test] [REPO_DIR]"""
import os, re, sys, tempfile

DOC = "ARCHITECTURE.md"
COMPLETE_EXT = ".rs"  # every file with this ending under a tree's root must be listed
TOLERANCE_SHARE, TOLERANCE_LINES = 0.30, 40
WRITE_HINT = "run `python3 scripts/architecture-tree.py --write` to refresh the sizes"
ENTRY = re.compile(r"^(?P<indent> *)(?P<name>\S+)(?:(?P<gap>\s+)(?P<size>\d+)(?=\s|$))?")


def size_of(path):
    """The lines of a file, without a Rust file's top-level `#[cfg(test)]` inline modules."""
    with open(path, encoding="utf-8") as f:
        lines = f.read().splitlines()
    if not path.endswith(".rs"):
        return len(lines)
    kept, i = 0, 0
    while i < len(lines):
        if lines[i].startswith("#[cfg(test)]"):
            j = i + 1
            while j < len(lines) and lines[j].startswith("#["):
                j += 1
            if j < len(lines) and re.match(r"^(pub(\([\w:]+\))? )?mod \w+ \{", lines[j]):
                k = j + 1
                while k < len(lines) and not lines[k].startswith("}"):
                    k += 1
                i = k + 1
                continue
        kept += 1
        i += 1
    return kept


def rounded(n):
    return max(10, int(round(n / 10.0)) * 10)


def parse(text):
    """The tree's entries: (line index, path, listed size or None for a directory), the roots, problems."""
    entries, roots, problems = [], [], []
    lines = text.split("\n")
    in_tree, stack = False, []  # stack: (indent, directory path)
    for n, line in enumerate(lines):
        if line.startswith("```"):
            in_tree = (not in_tree) and line.strip() == "```tree"
            stack = []
            continue
        if not in_tree or not line.strip():
            continue
        m = ENTRY.match(line)
        indent, name = len(m.group("indent")), m.group("name")
        where = f"{DOC}:{n + 1}"
        if indent % 2:
            problems.append(f"{where}: indentation of {indent} spaces is not a multiple of 2: indent by two a level")
            continue
        while stack and stack[-1][0] >= indent:
            stack.pop()
        if indent and not stack:
            problems.append(f"{where}: `{name}` is indented but under no directory: start a tree at indentation 0")
            continue
        if stack and indent != stack[-1][0] + 2:
            problems.append(f"{where}: `{name}` is indented {indent - stack[-1][0]} past its directory: use 2")
            continue
        path = (stack[-1][1] if stack else "") + name
        if name.endswith("/"):
            if not stack:
                roots.append(path)
            stack.append((indent, path))
            entries.append((n, path, None))
        elif m.group("size") is None:
            problems.append(f"{where}: the file `{path}` has no size: write its lines after its name (or {WRITE_HINT} "
                            "after writing 0)")
        elif not stack:
            problems.append(f"{where}: the file `{path}` is under no directory: start a tree with a directory")
        else:
            entries.append((n, path, int(m.group("size"))))
    return entries, roots, problems


def files_under(repo, root):
    found = []
    for dirpath, dirnames, filenames in os.walk(os.path.join(repo, root)):
        dirnames[:] = sorted(d for d in dirnames if d not in ("target", "snapshots") and not d.startswith("."))
        found += [os.path.relpath(os.path.join(dirpath, f), repo) for f in filenames if f.endswith(COMPLETE_EXT)]
    return sorted(found)


def check(repo, text):
    entries, roots, problems = parse(text)
    if not roots:
        problems.append(f"{DOC}: no ```tree block found: the module tree is a fenced block opened with ```tree")
    files = [(n, path, size) for n, path, size in entries if size is not None]
    seen = {}
    for n, path, size in files:
        seen.setdefault(path, []).append(n + 1)
    for path, where in sorted(seen.items()):
        if len(where) > 1:
            problems.append(f"{DOC}: `{path}` is listed {len(where)} times (lines {', '.join(map(str, where))}): "
                            "keep one")
    for root in roots:
        if not os.path.isdir(os.path.join(repo, root)):
            problems.append(f"{DOC}: the tree's root `{root}` is not a directory: fix its path or remove the tree")
            continue
        for path in files_under(repo, root):
            if path not in seen:
                problems.append(f"{DOC}: `{path}` is on disk but not in the tree: add a line for it under its "
                                "directory (its size, and what it owns from its `//!` doc)")
    stale = 0
    for n, path, size in files:
        full = os.path.join(repo, path)
        if not os.path.isfile(full):
            problems.append(f"{DOC}:{n + 1}: `{path}` is listed but not on disk: fix its path or remove its line")
            continue
        real = size_of(full)
        if abs(real - size) > max(TOLERANCE_LINES, TOLERANCE_SHARE * real):
            stale += 1
            problems.append(f"{DOC}:{n + 1}: `{path}` is listed at {size} lines but has {real}")
    if stale:
        problems.append(f"{stale} size(s) out of date: {WRITE_HINT}")
    dirs = sum(1 for _, _, size in entries if size is None)
    return problems, f"{len(files)} files in {dirs} directories under {len(roots)} roots"


def write(repo, text):
    """The text with every listed file's size replaced by its real size, rounded; nothing else changes."""
    entries, _, _ = parse(text)
    lines = text.split("\n")
    for n, path, size in entries:
        full = os.path.join(repo, path)
        if size is None or not os.path.isfile(full):
            continue
        m = ENTRY.match(lines[n])
        new = str(rounded(size_of(full)))
        old = m.group("size")
        gap = m.group("gap")
        # Keep the description's column: a longer number takes spaces from the gap before it (one stays).
        pad = len(gap) + len(old) - len(new)
        gap = " " * max(1, pad)
        lines[n] = lines[n][:m.start("gap")] + gap + new + lines[n][m.end("size"):]
    return "\n".join(lines)


def self_test():
    with tempfile.TemporaryDirectory() as repo:
        os.makedirs(os.path.join(repo, "c/src/m"))
        body = "//! doc\nfn a() {}\n#[cfg(test)]\n#[path = \"x.rs\"]\nmod tests {\n    fn t() {}\n}\n"
        for name, text in {"c/src/lib.rs": body, "c/src/m/mod.rs": "x\n" * 95, "c/src/m/extra.rs": ""}.items():
            with open(os.path.join(repo, name), "w") as f:
                f.write(text)
        assert size_of(os.path.join(repo, "c/src/lib.rs")) == 2
        doc = "x\n```tree\nc/src/      the crate\n  lib.rs     10  root\n  m/\n    mod.rs    20  a module\n" \
              "  gone.rs   10  missing\n```\n"
        problems, _ = check(repo, doc)
        assert any("`c/src/m/extra.rs` is on disk but not in the tree" in p for p in problems), problems
        assert any("`c/src/gone.rs` is listed but not on disk" in p for p in problems), problems
        assert any("listed at 20 lines but has 95" in p for p in problems), problems
        assert not any("lib.rs" in p for p in problems), problems
        rewritten = write(repo, doc)
        assert "    mod.rs   100  a module" in rewritten, rewritten
        assert rewritten.replace("100", " 20", 1) == doc
        bad, _ = check(repo, "```tree\nc/src/\n   lib.rs 10\n```\n")
        assert any("not a multiple of 2" in p for p in bad), bad
    print("architecture-tree.py: self-test passed")


def main(argv):
    flags = [a for a in argv if a.startswith("--")]
    args = [a for a in argv if not a.startswith("--")]
    if set(flags) - {"--write", "--self-test"}:
        sys.exit(__doc__)
    if "--self-test" in flags:
        return self_test()
    repo = os.path.abspath(args[0] if args else os.path.join(os.path.dirname(__file__), ".."))
    path = os.path.join(repo, DOC)
    with open(path, encoding="utf-8") as f:
        text = f.read()
    if "--write" in flags:
        new = write(repo, text)
        if new != text:
            with open(path, "w", encoding="utf-8") as f:
                f.write(new)
    problems, summary = check(repo, new if "--write" in flags else text)
    for problem in problems:
        print(problem)
    print(f"{DOC} module tree: {summary}; problems: {len(problems)}")
    sys.exit(1 if problems else 0)


if __name__ == "__main__":
    main(sys.argv[1:])
