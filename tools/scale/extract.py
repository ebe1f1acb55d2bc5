#!/usr/bin/env python3
"""extract.py GITDIR DEST: writes HEAD's tree of a bare mirror into DEST, skipping blobs the mirror lacks."""
import os, subprocess, sys
gitdir, dest = sys.argv[1], sys.argv[2]
ls = subprocess.run(["git", "--git-dir", gitdir, "ls-tree", "-r", "-z", "HEAD"], check=True, capture_output=True).stdout
entries = []
for rec in ls.split(b"\0"):
    if not rec:
        continue
    meta, path = rec.split(b"\t", 1)
    mode, typ, oid = meta.split()
    if typ != b"blob":
        continue
    entries.append((mode, oid, path))
p = subprocess.Popen(["git", "--git-dir", gitdir, "cat-file", "--batch"], stdin=subprocess.PIPE, stdout=subprocess.PIPE)
missing = 0
for mode, oid, path in entries:
    p.stdin.write(oid + b"\n"); p.stdin.flush()
    head = p.stdout.readline().split()
    if len(head) < 3 or head[1] == b"missing":
        missing += 1
        continue
    data = p.stdout.read(int(head[2])); p.stdout.read(1)
    out = os.path.join(dest.encode(), path)
    os.makedirs(os.path.dirname(out), exist_ok=True)
    if mode == b"120000":
        try: os.symlink(data, out)
        except FileExistsError: pass
        continue
    with open(out, "wb") as f:
        f.write(data)
    if mode == b"100755":
        os.chmod(out, 0o755)
p.stdin.close(); p.wait()
print(f"{gitdir}: {len(entries)-missing} files, {missing} missing blobs skipped", file=sys.stderr)
