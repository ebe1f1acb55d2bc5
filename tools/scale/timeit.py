#!/usr/bin/env python3
"""timeit.py: times one command the way run.sh reports it.

    tools/scale/timeit.py [--timeout S] [--tree] OUT ERR CMD...

Runs CMD in a new session (its own process group) with its standard output
copied to OUT and its standard error to ERR, and prints one tab-separated
line:

    answer  exit  cpu  rss  tree_rss  status

answer   seconds until CMD's standard output closed (a pack closes it once
         the answer is written and finishes its index after)
exit     seconds until CMD exited
cpu      user+sys seconds of CMD and every descendant it waited for
rss      peak resident set in MB of the largest single process (getrusage's
         ru_maxrss of the children, as /usr/bin/time -v reports it)
tree_rss with --tree: the peak of the summed resident sets of every process
         of the group, sampled every 0.25 s (a program that works in child
         processes, like repomix, is more than its largest process; pages
         shared between them are counted once per process); "-" without
status   CMD's exit code, or "timeout" when it ran longer than --timeout
         seconds (the whole group is then killed: TERM, then KILL after 5 s)

It never fails because CMD did: run.sh decides what a failure means.
"""
import os
import resource
import signal
import subprocess
import sys
import threading
import time


def group_rss(pgid):
    """The summed resident set in bytes of the processes of group pgid."""
    page = os.sysconf("SC_PAGE_SIZE")
    total = 0
    for name in os.listdir("/proc"):
        if not name.isdigit():
            continue
        try:
            with open(f"/proc/{name}/stat", "rb") as f:
                stat = f.read()
            # Fields after the command's closing parenthesis: state ppid pgrp …
            fields = stat[stat.rindex(b")") + 2:].split()
            if int(fields[2]) != pgid:
                continue
            with open(f"/proc/{name}/statm", "rb") as f:
                total += int(f.read().split()[1]) * page
        except (OSError, ValueError, IndexError):
            continue  # the process ended between the listing and the read
    return total


def kill_group(pgid, sig):
    try:
        os.killpg(pgid, sig)
    except ProcessLookupError:
        pass


def parse_args(argv):
    timeout, tree = None, False
    while argv and argv[0].startswith("--"):
        if argv[0] == "--timeout" and len(argv) > 1:
            timeout = float(argv[1])
            argv = argv[2:]
        elif argv[0] == "--tree":
            tree = True
            argv = argv[1:]
        else:
            sys.exit(f"timeit.py: unknown option {argv[0]}")
    if len(argv) < 3:
        sys.exit("usage: timeit.py [--timeout S] [--tree] OUT ERR CMD...")
    return timeout, tree, argv[0], argv[1], argv[2:]


def main(argv):
    timeout, tree, out, err, cmd = parse_args(argv)
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    answered = []
    t0 = time.monotonic()
    with open(out, "wb") as fout, open(err, "wb") as ferr:
        p = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=ferr, start_new_session=True)

        def copy():
            while True:
                b = p.stdout.read(1 << 16)
                if not b:
                    break
                fout.write(b)
            answered.append(time.monotonic())

        reader = threading.Thread(target=copy, daemon=True)
        reader.start()
        status, peak = None, 0
        while status is None:
            try:
                status = p.wait(timeout=0.25 if tree else 0.05)
            except subprocess.TimeoutExpired:
                pass
            if tree and status is None:
                peak = max(peak, group_rss(p.pid))
            if status is None and timeout is not None and time.monotonic() - t0 > timeout:
                kill_group(p.pid, signal.SIGTERM)
                try:
                    p.wait(timeout=5)
                except subprocess.TimeoutExpired:
                    kill_group(p.pid, signal.SIGKILL)
                    p.wait()
                status = "timeout"
        exited = time.monotonic()
        # A descendant left running may still hold the output open.
        reader.join(10)
        if reader.is_alive():
            kill_group(p.pid, signal.SIGKILL)
            reader.join(5)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    answer = min(answered[0] if answered else exited, exited) - t0
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    tree_mb = f"{peak // (1 << 20)}" if tree else "-"
    print(f"{answer:.2f}\t{exited - t0:.2f}\t{cpu:.2f}\t{after.ru_maxrss // 1024}\t{tree_mb}\t{status}")


if __name__ == "__main__":
    main(sys.argv[1:])
