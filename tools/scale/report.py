#!/usr/bin/env python3
"""report.py: the parts of run.sh's record that need parsing or arithmetic.

    report.py servers NAME TREE SERVERBENCH_OUT LSPBENCH_OUT RESULTS
        reads the outputs of tools/serverbench (MCP) and tools/lspbench (the
        language server), prints their rows of run.sh's table and appends
        their numbers to RESULTS
    report.py targets RESULTS
        prints, for each build in RESULTS, issue 24's targets with the
        ratios of this run and whether each is met

RESULTS holds "KEY VALUE" lines, KEY = BIN/TREE/WHAT/FIELD (BIN "-" for the
floors and repomix). Nothing here is a verdict written in advance: every
"met"/"missed" is a comparison of a measured number with its target.
"""
import re
import sys

_UNITS = {"h": 3600.0, "m": 60.0, "s": 1.0, "ms": 1e-3, "µs": 1e-6, "us": 1e-6, "ns": 1e-9}
_DUR = re.compile(r"(\d+(?:\.\d+)?)(ms|µs|us|ns|h|m|s)")


def go_duration(text):
    """Seconds of a Go time.Duration string such as 1m2.5s, 312ms or 0s."""
    parts = _DUR.findall(text)
    if not parts or "".join(n + u for n, u in parts) != text:
        raise ValueError(f"not a duration: {text!r}")
    return sum(float(n) * _UNITS[u] for n, u in parts)


def _kb(text):
    m = re.search(r"RSS (\d+) kB, peak (\d+) kB", text)
    return (int(m.group(1)) // 1024, int(m.group(2)) // 1024) if m else (None, None)


def parse_serverbench(text):
    """The numbers of one serverbench run (empty when it failed)."""
    r = {}
    for line in text.splitlines():
        if m := re.match(r"cli pack \(warm index\):\s+min (\S+)\s+median (\S+)", line):
            r["cli_min"], r["cli_median"] = go_duration(m[1]), go_duration(m[2])
        elif m := re.match(r"mcp pack_context, first:\s+(\S+)", line):
            r["first"] = go_duration(m[1])
        elif m := re.match(r"mcp pack_context, warm:\s+min (\S+)\s+median (\S+)", line):
            r["warm_min"], r["warm_median"] = go_duration(m[1]), go_duration(m[2])
        elif m := re.match(r"CPU \(user\+sys\), median:\s+cli (\S+)\s+server (\S+)", line):
            r["cli_cpu_median"], r["cpu_median"] = go_duration(m[1]), go_duration(m[2])
        elif line.startswith("server memory after the calls:"):
            r["rss"], r["peak"] = _kb(line)
        elif "WARNING" in line:
            r["differs"] = 1
    return r


def parse_lspbench(text):
    """The numbers of one lspbench run (empty when it failed)."""
    r = {}
    for line in text.splitlines():
        if m := re.match(r"first: wall (\S+)\s+cpu (\S+)", line):
            r["first"] = go_duration(m[1])
        elif m := re.match(r"warm \(\d+\): wall min (\S+) median (\S+)\s+cpu min (\S+) median (\S+)", line):
            r["warm_min"], r["warm_median"] = go_duration(m[1]), go_duration(m[2])
            r["cpu_median"] = go_duration(m[4])
        elif line.startswith("server memory:"):
            r["rss"], r["peak"] = _kb(line)
        elif "WARNING" in line:
            r["differs"] = 1
    return r


def _last_line(text):
    """What a failed tool said last, with run.sh's "TOOL: exit N" after it."""
    lines = [x for x in text.splitlines() if x.strip()]
    said = [x for x in lines if not re.fullmatch(r"\w+: exit \d+", x)]
    exits = [x for x in lines if re.fullmatch(r"\w+: exit \d+", x)]
    msg = said[-1] if said else "no output"
    if exits:
        msg += f" ({exits[-1]})"
    return msg.replace("|", "/")[:300]


def servers(name, tree, sb_path, lb_path, results_path):
    with open(sb_path, encoding="utf-8", errors="replace") as f:
        sb_text = f.read()
    with open(lb_path, encoding="utf-8", errors="replace") as f:
        lb_text = f.read()
    sb, lb = parse_serverbench(sb_text), parse_lspbench(lb_text)
    rows = []
    if "warm_median" in sb and "cli_median" in sb:
        note = "; **its context differs from the CLI's**" if sb.get("differs") else ""
        rows.append(f"| {name} CLI pack {tree} warm (serverbench, budget as the servers') | {sb['cli_median']:.3f} s median "
                    f"(min {sb['cli_min']:.3f}) | | {sb['cli_cpu_median']:.3f} s median | | |")
        rows.append(f"| {name} MCP pack_context {tree} warm | {sb['warm_median']:.3f} s median (min {sb['warm_min']:.3f}) | "
                    f"first call {sb['first']:.3f} s | {sb['cpu_median']:.3f} s median | {sb['rss']} MB (peak {sb['peak']}) | "
                    f"÷ CLI: {sb['warm_median'] / sb['cli_median']:.2f} wall, {sb['cpu_median'] / sb['cli_cpu_median']:.2f} CPU{note} |")
    else:
        sb = {"failed": 1}
        rows.append(f"| {name} MCP pack_context {tree} | **failed** | | | | {_last_line(sb_text)} |")
    if "warm_median" in lb:
        note = "; **a warm result differs from the first**" if lb.get("differs") else ""
        rows.append(f"| {name} LSP acode/packContext {tree} warm | {lb['warm_median']:.3f} s median (min {lb['warm_min']:.3f}) | "
                    f"first call {lb['first']:.3f} s | {lb['cpu_median']:.3f} s median | {lb['rss']} MB (peak {lb['peak']}) | {note.lstrip('; ')} |")
    else:
        lb = {"failed": 1}
        rows.append(f"| {name} LSP acode/packContext {tree} | **failed** | | | | {_last_line(lb_text)} |")
    print("\n".join(rows))
    with open(results_path, "a", encoding="utf-8") as f:
        for what, r in (("mcp", sb), ("lsp", lb)):
            for k, v in r.items():
                if v is not None:
                    f.write(f"{name}/{tree}/{what}/{k} {v}\n")


def load(path):
    res = {}
    with open(path, encoding="utf-8") as f:
        for line in f:
            key, _, value = line.rstrip("\n").partition(" ")
            try:
                res[key] = float(value)
            except ValueError:
                res[key] = value
    return res


class Targets:
    """The rows of the targets table of one build."""

    def __init__(self, res, name):
        self.res, self.name, self.rows = res, name, []

    def get(self, tree, what, field, build=None):
        return self.res.get(f"{build or self.name}/{tree}/{what}/{field}")

    def row(self, target, measured, ok):
        verdict = "not measured" if ok is None else ("**met**" if ok else "**missed**")
        self.rows.append(f"| {target} | {measured} | {verdict} |")

    def ratio(self, target, tree, whats, field, floor_key, limit, floor_name):
        """Each pack of whats (the slowest counts) against a floor."""
        floor = self.get(tree, *floor_key)
        vals = [(w, self.get(tree, w, field)) for w in whats]
        vals = [(w, v) for w, v in vals if isinstance(v, float)]
        if not isinstance(floor, float) or not vals or floor <= 0:
            return self.row(target, "—", None)
        text = ", ".join(f"{w} {v:.2f} s = {v / floor:.2f}×" for w, v in vals)
        worst = max(v for _, v in vals) / floor
        measured = f"{text} {floor_name} {floor:.2f} s"
        fcpu = self.get(tree, floor_key[0], "cpu", *floor_key[2:])
        cpus = [(w, self.get(tree, w, "cpu")) for w, _ in vals]
        if isinstance(fcpu, float) and fcpu > 0 and floor_key[0] == "count" and all(isinstance(c, float) for _, c in cpus):
            # count and the packs do the same kind of work: their CPU compares
            # better than their wall on a loaded machine.
            measured += " (CPU: " + ", ".join(f"{w} {c / fcpu:.2f}×" for w, c in cpus) + f" of {fcpu:.2f} s)"
        self.row(target, measured, worst <= limit)

    def absolute(self, target, tree, what, field, limit, unit="s"):
        v = self.get(tree, what, field)
        if not isinstance(v, float):
            return self.row(target, "—", None)
        self.row(target, f"{what} {v:.2f} {unit}" if unit == "s" else f"{what} {v:.0f} {unit}", v <= limit)

    def server(self, target, tree, what, limit):
        wall, cpu = self.get(tree, what, "warm_median"), self.get(tree, what, "cpu_median")
        if self.get(tree, what, "failed"):
            return self.row(target, "the server's pack failed (its row above says why)", False)
        if not isinstance(wall, float):
            return self.row(target, "—", None)
        measured = f"wall median {wall * 1000:.0f} ms, CPU median {cpu * 1000:.0f} ms"
        if wall > limit and isinstance(cpu, float) and cpu <= limit:
            measured += " (CPU within the target, wall not: load)"
        self.row(target, measured, wall <= limit)

    def rss(self, target, tree, limit):
        packs = ["q-none", "q-first", "q-first-evicted", "q-warm", "n-none", "n-first", "n-warm"]
        vals = [(w, self.get(tree, w, "rss")) for w in packs]
        vals = [(w, v) for w, v in vals if isinstance(v, float)]
        if not vals:
            return self.row(target, "—", None)
        w, v = max(vals, key=lambda x: x[1])
        self.row(target, f"largest {v:.0f} MB ({w}); " + ", ".join(f"{x} {y:.0f}" for x, y in vals), v <= limit)

    def mcp_ratio(self, tree, limit):
        target = f"warm MCP pack_context ≤ {limit}× a CLI pack ({tree})"
        srv, cli = self.get(tree, "mcp", "warm_median"), self.get(tree, "mcp", "cli_median")
        scpu, ccpu = self.get(tree, "mcp", "cpu_median"), self.get(tree, "mcp", "cli_cpu_median")
        if not isinstance(srv, float) or not isinstance(cli, float):
            return self.row(target, "—", None)
        measured = f"{srv * 1000:.0f} ms ÷ {cli * 1000:.0f} ms = {srv / cli:.2f}× wall"
        if isinstance(scpu, float) and isinstance(ccpu, float) and ccpu > 0:
            measured += f", {scpu / ccpu:.2f}× CPU"
        self.row(target, measured, srv / cli <= limit)


def targets_of(res, name):
    t = Targets(res, name)
    count = ("count", "exit")
    t.ratio("net/http no query, cold ≤ 1.5× `count`", "nethttp", ["n-none", "n-first"], "answer", count, 1.5, "÷ count")
    t.ratio("net/http no query, warm ≤ 0.5× `count`", "nethttp", ["n-warm"], "answer", count, 0.5, "÷ count")
    t.ratio("net/http query, cold ≤ 1.2× `count`", "nethttp", ["q-none", "q-first"], "answer", count, 1.2, "÷ count")
    for tree, label, limit in (("gosrc", "Go's `src`", 1.5), ("tree100k", "100K tree", 1.3)):
        floor = ("read", "exit", "-")
        t.ratio(f"{label} first query pack ≤ {limit}× the read floor (page cache)", tree, ["q-first"], "answer",
                ("read", "exit", "-"), limit, "÷ cat")
        t.ratio(f"{label} first query pack ≤ {limit}× the read floor (evicted)", tree, ["q-first-evicted"], "answer",
                ("read-evicted", "exit", "-"), limit, "÷ evicted cat")
        t.ratio(f"{label} first pack without a query ≤ {limit}× the read floor (page cache)", tree, ["n-first"], "answer",
                floor, limit, "÷ cat")
    t.absolute("Go's `src` warm ≤ 0.3 s CLI (query)", "gosrc", "q-warm", "answer", 0.3)
    t.absolute("Go's `src` warm ≤ 0.3 s CLI (no query)", "gosrc", "n-warm", "answer", 0.3)
    t.server("Go's `src` warm ≤ 0.15 s in a running MCP server", "gosrc", "mcp", 0.15)
    t.server("Go's `src` warm ≤ 0.15 s in a running language server", "gosrc", "lsp", 0.15)
    t.rss("Go's `src` RSS ≤ 150 MB (every CLI pack)", "gosrc", 150)
    t.absolute("100K warm ≤ 1.5 s CLI (query)", "tree100k", "q-warm", "answer", 1.5)
    t.ratio("100K warm ≤ 2× the stat floor (query)", "tree100k", ["q-warm"], "answer", ("stat", "exit", "-"), 2.0, "÷ find")
    t.server("100K warm ≤ 0.5 s in a running MCP server", "tree100k", "mcp", 0.5)
    t.server("100K warm ≤ 0.5 s in a running language server", "tree100k", "lsp", 0.5)
    t.absolute("100K no-query pack ≤ 5 s warm", "tree100k", "n-warm", "answer", 5.0)
    t.rss("100K RSS ≤ 300 MB (every CLI pack)", "tree100k", 300)
    for tree in ("nethttp", "gosrc", "tree100k"):
        t.mcp_ratio(tree, 0.2)
    return t.rows


def repomix_rows(res, names):
    rows = []
    for tree in ("nethttp", "gosrc", "tree100k"):
        status = res.get(f"-/{tree}/repomix/status")
        if status is None:
            continue
        ok = "succeeded" if status == 0.0 else f"**failed** (exit {status:.0f})" if isinstance(status, float) else f"**failed** ({status})"
        rx = (f"{res[f'-/{tree}/repomix/exit']:.2f} s, {res[f'-/{tree}/repomix/cpu']:.2f} s CPU, "
              f"{res[f'-/{tree}/repomix/rss']:.0f} MB (all processes {res.get(f'-/{tree}/repomix/tree_rss'):.0f} MB), {ok}")
        for name in names:
            packs = []
            for what, label in (("q-first", "first query"), ("q-warm", "warm query"), ("n-first", "first map"), ("n-warm", "warm map")):
                a, r = res.get(f"{name}/{tree}/{what}/answer"), res.get(f"{name}/{tree}/{what}/rss")
                if isinstance(a, float):
                    packs.append(f"{label} {a:.2f} s / {r:.0f} MB")
            rows.append(f"| {tree} | {rx} | {name}: {', '.join(packs) or '—'} |")
    return rows


def targets(results_path):
    res = load(results_path)
    names = sorted({k.split("/")[0] for k in res if not k.startswith("-/")})
    for name in names:
        print(f"Issue 24's targets, {name}, this run (wall of the fastest run; `answer` for packs):")
        print()
        print("| target | measured | |")
        print("|---|---|---|")
        print("\n".join(targets_of(res, name)))
        print()
    rows = repomix_rows(res, names)
    if rows:
        print("repomix on the same trees (one run each):")
        print()
        print("| tree | repomix | acode-lsp |")
        print("|---|---|---|")
        print("\n".join(rows))
    print()
    print("Not measured by this run: the hostile dedup case, 100,000 chunks of one file, lens refresh and 200 open files "
          "(their Go benchmarks, docs/benchmarks.md).")


def main(argv):
    if len(argv) == 6 and argv[0] == "servers":
        servers(*argv[1:])
    elif len(argv) == 2 and argv[0] == "targets":
        targets(argv[1])
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    main(sys.argv[1:])
