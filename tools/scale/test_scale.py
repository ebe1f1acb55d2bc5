#!/usr/bin/env python3
"""Tests of report.py and timeit.py (python3 -m unittest discover -s tools/scale)."""
import os
import subprocess
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import report  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))

SERVERBENCH = """tree /usr/local/go/src, 5 runs
cli pack (warm index):     min 312ms  median 1.25s
mcp pack_context, first:   1m2.5s
mcp pack_context, warm:    min 50ms  median 125ms
ratio warm server / cli:   min 0.16  median 0.10
CPU (user+sys), median:    cli 400ms  server 60ms  ratio 0.15
server CPU of each warm call: 60ms 70ms
server memory after the first call: RSS 102400 kB, peak 110000 kB (RssAnon 1 kB)
server memory after the calls: RSS 204800 kB, peak 307200 kB (RssAnon 1 kB, RssFile 2 kB)
"""

LSPBENCH = """first: wall 2.95s  cpu 2.9s  (13792 tokens)
warm (5): wall min 40ms median 160ms  cpu min 30ms median 140ms
server memory: RSS 51200 kB, peak 61440 kB
"""


class GoDuration(unittest.TestCase):
    def test_values(self):
        for text, want in [("312ms", 0.312), ("1.25s", 1.25), ("1m2.5s", 62.5), ("0s", 0.0), ("850µs", 0.00085), ("1h0m1s", 3601.0)]:
            self.assertAlmostEqual(report.go_duration(text), want, places=9, msg=text)

    def test_rejects(self):
        for text in ["", "12", "1.2x", "ms", "1s2"]:
            with self.assertRaises(ValueError, msg=text):
                report.go_duration(text)


class Parse(unittest.TestCase):
    def test_serverbench(self):
        r = report.parse_serverbench(SERVERBENCH)
        self.assertEqual(r["cli_median"], 1.25)
        self.assertEqual(r["first"], 62.5)
        self.assertEqual((r["warm_min"], r["warm_median"]), (0.05, 0.125))
        self.assertEqual((r["cli_cpu_median"], r["cpu_median"]), (0.4, 0.06))
        self.assertEqual((r["rss"], r["peak"]), (200, 300))  # after the calls, not after the first
        self.assertNotIn("differs", r)
        self.assertEqual(report.parse_serverbench(SERVERBENCH + "serverbench: WARNING: the server's context of call 2 differs from the CLI's\n")["differs"], 1)

    def test_lspbench(self):
        r = report.parse_lspbench(LSPBENCH)
        self.assertEqual((r["first"], r["warm_median"], r["cpu_median"], r["rss"]), (2.95, 0.16, 0.14, 50))

    def test_failed(self):
        self.assertEqual(report.parse_serverbench("serverbench: mcp: broken pipe\nserverbench: exit 1\n"), {})


class TargetsTable(unittest.TestCase):
    def rows(self, res, name="b"):
        return {r.split(" | ")[0].lstrip("| "): r for r in report.targets_of(res, name)}

    def test_ratio_to_count(self):
        res = {"b/nethttp/count/exit": 0.2, "b/nethttp/count/cpu": 0.2,
               "b/nethttp/n-none/answer": 0.28, "b/nethttp/n-none/cpu": 0.3,
               "b/nethttp/n-first/answer": 0.32, "b/nethttp/n-first/cpu": 0.3,
               "b/nethttp/n-warm/answer": 0.11, "b/nethttp/n-warm/cpu": 0.1}
        rows = self.rows(res)
        cold = rows["net/http no query, cold ≤ 1.5× `count`"]
        self.assertIn("n-first 0.32 s = 1.60×", cold)
        self.assertTrue(cold.endswith("**missed** |"), cold)  # the slower of none and first counts
        res["b/nethttp/n-first/answer"] = 0.30
        self.assertTrue(self.rows(res)["net/http no query, cold ≤ 1.5× `count`"].endswith("**met** |"))
        self.assertTrue(rows["net/http no query, warm ≤ 0.5× `count`"].endswith("**missed** |"))
        self.assertTrue(rows["net/http query, cold ≤ 1.2× `count`"].endswith("not measured |"))

    def test_floors_of_build_dash(self):
        res = {"-/gosrc/read/exit": 0.5, "b/gosrc/q-first/answer": 0.74, "-/gosrc/read-evicted/exit": 1.0,
               "b/gosrc/q-first-evicted/answer": 1.6}
        rows = self.rows(res)
        self.assertTrue(rows["Go's `src` first query pack ≤ 1.5× the read floor (page cache)"].endswith("**met** |"))
        self.assertTrue(rows["Go's `src` first query pack ≤ 1.5× the read floor (evicted)"].endswith("**missed** |"))

    def test_servers_and_rss(self):
        res = {"b/gosrc/mcp/warm_median": 0.2, "b/gosrc/mcp/cpu_median": 0.1, "b/gosrc/mcp/cli_median": 1.0,
               "b/gosrc/mcp/cli_cpu_median": 0.5, "b/gosrc/lsp/warm_median": 0.1, "b/gosrc/lsp/cpu_median": 0.1,
               "b/gosrc/q-first/rss": 120.0, "b/gosrc/n-first/rss": 151.0}
        rows = self.rows(res)
        mcp = rows["Go's `src` warm ≤ 0.15 s in a running MCP server"]
        self.assertIn("CPU within the target", mcp)
        self.assertTrue(mcp.endswith("**missed** |"))
        self.assertTrue(rows["Go's `src` warm ≤ 0.15 s in a running language server"].endswith("**met** |"))
        rss = rows["Go's `src` RSS ≤ 150 MB (every CLI pack)"]
        self.assertIn("largest 151 MB (n-first)", rss)
        self.assertTrue(rss.endswith("**missed** |"))
        self.assertTrue(rows["warm MCP pack_context ≤ 0.2× a CLI pack (gosrc)"].endswith("**met** |"))

    def test_servers_command(self):
        with tempfile.TemporaryDirectory() as d:
            sb, lb, res = (os.path.join(d, n) for n in ("sb", "lb", "res"))
            with open(sb, "w") as f:
                f.write(SERVERBENCH)
            with open(lb, "w") as f:
                f.write("lspbench: initialize: EOF\nlspbench: exit 1\n")
            out = subprocess.run([sys.executable, os.path.join(HERE, "report.py"), "servers", "b", "gosrc", sb, lb, res],
                                 capture_output=True, text=True, check=True).stdout
            self.assertIn("| b MCP pack_context gosrc warm | 0.125 s median", out)
            self.assertIn("| b LSP acode/packContext gosrc | **failed** | | | | lspbench: initialize: EOF (lspbench: exit 1) |", out)
            got = report.load(res)
            self.assertEqual(got["b/gosrc/mcp/warm_median"], 0.125)
            self.assertNotIn("b/gosrc/lsp/warm_median", got)
            row = self.rows(got)["Go's `src` warm ≤ 0.15 s in a running language server"]
            self.assertTrue(row.endswith("**missed** |"), row)  # a failed pack misses, it is not "not measured"


class TimeIt(unittest.TestCase):
    def run_timeit(self, *args):
        with tempfile.TemporaryDirectory() as d:
            out, err = os.path.join(d, "out"), os.path.join(d, "err")
            line = subprocess.run([sys.executable, os.path.join(HERE, "timeit.py"), *args[:-1], out, err, *args[-1]],
                                  capture_output=True, text=True, check=True).stdout
            with open(out) as f, open(err) as g:
                return line.split("\t"), f.read(), g.read()

    def test_answer_before_exit(self):
        f, out, _ = self.run_timeit(["sh", "-c", "echo hi; exec >&-; sleep 0.6"])
        answer, exit_, status = float(f[0]), float(f[1]), f[5].strip()
        self.assertEqual(out, "hi\n")
        self.assertLess(answer, 0.5)
        self.assertGreaterEqual(exit_, 0.6)
        self.assertEqual(status, "0")

    def test_failure_and_stderr(self):
        f, _, err = self.run_timeit(["sh", "-c", "echo oops >&2; exit 3"])
        self.assertEqual(f[5].strip(), "3")
        self.assertEqual(err, "oops\n")

    def test_timeout_kills_the_group(self):
        with tempfile.TemporaryDirectory() as d:
            mark = os.path.join(d, "mark")
            f, _, _ = self.run_timeit("--timeout", "0.5", "--tree", ["sh", "-c", f"(sleep 3; touch {mark}) & sleep 30"])
            self.assertEqual(f[5].strip(), "timeout")
            self.assertLess(float(f[1]), 10)
            self.assertNotEqual(f[4], "-")
            subprocess.run(["sleep", "3.5"])
            self.assertFalse(os.path.exists(mark), "a process of the group outlived the timeout")


if __name__ == "__main__":
    unittest.main()
