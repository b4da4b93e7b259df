#!/usr/bin/env python3
"""One grade of scripts/bench-overhead.sh: GRADER LABEL SUBMISSION CORPUS-NAME FIXTURES -> one result line.

The whole process tree's CPU: getrusage of the reaped children, or the grader's own CPU plus its descendants'
polled from /proc every 50 ms, whichever is larger (a process that the sandbox's PID namespace kills rather
than reaps never reaches getrusage's children totals, so `/usr/bin/time` alone can miss a JVM).
"""
import json
import os
import re
import resource
import subprocess
import sys
import tempfile
import time

grader, label, sub, name, fixtures = sys.argv[1:]
fd, report = tempfile.mkstemp(suffix=".json")
os.close(fd)
hz = os.sysconf("SC_CLK_TCK")
started = time.time()
p = subprocess.Popen(
    [grader, "grade", sub, "--fixtures", fixtures, "--timings", "--quiet", "--format", "json", "--output", report],
    stderr=subprocess.PIPE,
    text=True,
)
root = str(p.pid)
seen = {}


def poll():
    table = {}
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            stat = open(f"/proc/{pid}/stat").read()
        except OSError:
            continue
        fields = stat[stat.rindex(")") + 2 :].split()
        table[pid] = (fields[1], int(fields[11]) + int(fields[12]))
    for pid, (_, ticks) in table.items():
        q, hops = pid, 0
        while q in table and q != root and hops < 64:
            q, hops = table[q][0], hops + 1
        if q == root and pid != root:
            seen[pid] = max(seen.get(pid, 0), ticks)


while p.poll() is None:
    poll()
    time.sleep(0.05)
err = p.stderr.read()
wall = time.time() - started
usage = resource.getrusage(resource.RUSAGE_CHILDREN)
reaped = usage.ru_utime + usage.ru_stime
polled = sum(seen.values()) / hz
found = re.search(r"\), grader ([\d.]+) s", err)
grader_cpu = float(found.group(1)) if found else 0.0
requests = float(re.search(r"requests ([\d.]+) s", err).group(1))
found = re.search(r"counting ([\d.]+) s", err)
counting = float(found.group(1)) if found else 0.0
total = max(reaped, polled + grader_cpu)
student = requests - counting
score = json.load(open(report))["score"]
os.unlink(report)
print(
    f"{label} {sub.rstrip('/').split('/')[-1]} {name} total={total:.2f} requests={requests:.2f} "
    f"counting={counting:.2f} overhead={total - student:.2f} ratio={100 * (total - student) / student:.0f}% "
    f"wall={wall:.1f} score={score} (reaped {reaped:.2f}, polled {polled:.2f} + grader {grader_cpu:.2f})",
    flush=True,
)
