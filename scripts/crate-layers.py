#!/usr/bin/env python3
"""The workspace's crates on their floors: each may depend only on crates of a lower floor, so nothing
depends upward (ARCHITECTURE.md, "What may import what"). Reads `cargo metadata`; every dependency kind counts (normal,
dev, build). A submission (a crate under fixtures/submissions/ or templates/) depends on `npuzzle` alone.
Prints every dependency out of place and exits 1 when there is one; a workspace crate on no floor is one too.
`make lint` runs it. Usage: crate-layers.py [WORKSPACE_DIR]"""
import json, os, subprocess, sys

# Lowest first. npuzzle, the student API, is the ground floor: the answer key and every adapter build on it.
FLOORS = [
    ["npuzzle"],
    ["reference"],
    ["npuzzle-harness", "corpus"],
    ["grader"],
]
SUBMISSION_DIRS = ("fixtures/submissions/", "templates/")
STUDENT_API = "npuzzle"

root = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else ".")
metadata = json.loads(subprocess.run(
    ["cargo", "metadata", "--no-deps", "--format-version", "1", "--offline"],
    cwd=root, check=True, capture_output=True, text=True).stdout)
floor = {name: level for level, names in enumerate(FLOORS) for name in names}
members = {p["name"]: p for p in metadata["packages"]}
problems = []
for name, package in sorted(members.items()):
    where = os.path.relpath(package["manifest_path"], root)
    local = sorted({d["name"] for d in package["dependencies"] if d["name"] in members or d.get("path")})
    if where.startswith(SUBMISSION_DIRS):
        problems += [f"{where}: a submission depends on `{d}` (only `{STUDENT_API}`)" for d in local if d != STUDENT_API]
    elif name not in floor:
        problems.append(f"{where}: `{name}` is on no floor: add it to FLOORS in {sys.argv[0]}")
    else:
        problems += [f"{where}: `{name}` (floor {floor[name]}) depends on `{d}` (floor {floor.get(d, '?')})"
                     for d in local if floor.get(d, len(FLOORS)) >= floor[name]]
print(f"{len(members)} crates, {len(FLOORS)} floors; dependencies out of place: {len(problems)}")
for problem in problems:
    print("  " + problem)
sys.exit(1 if problems else 0)
