#!/usr/bin/env python3
"""answer.py: times one command as its reader sees it.

    tools/scale/answer.py OUT CMD...

Runs CMD with its standard output on a pipe, copies what it prints to OUT,
and prints the seconds until the end of that output (the answer is
complete), until the process exits, its CPU (user+sys) and its peak RSS in MB, tab-separated.
A pack closes its output once the answer is written and finishes the
workspace index after (docs/benchmarks.md, "First and warm query packs").
"""
import os
import resource
import subprocess
import sys
import time

out, cmd = sys.argv[1], sys.argv[2:]
t0 = time.monotonic()
p = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
with open(out, "wb") as f:
    while True:
        b = p.stdout.read(1 << 16)
        if not b:
            break
        f.write(b)
t1 = time.monotonic()
code = p.wait()
t2 = time.monotonic()
ru = resource.getrusage(resource.RUSAGE_CHILDREN)
if code != 0:
    sys.exit(f"answer.py: {cmd[0]} exited {code}")
print(f"{t1 - t0:.2f}\t{t2 - t0:.2f}\t{ru.ru_utime + ru.ru_stime:.2f}\t{ru.ru_maxrss // 1024}")
