// claude-code.test.mjs runs the real Claude Code CLI (npm
// @anthropic-ai/claude-code, pinned in package.json) against `acode-lsp mcp`,
// with a scripted stand-in for the Anthropic Messages API on 127.0.0.1 as the
// model. The scripted model calls pack_context, then count_tokens, then
// answers; the stand-in logs every request, so the test reads the exact
// tool_result blocks Claude Code put in front of the model and checks what
// DESIGN.md ("Model Context Protocol", "What reaches the model") promises:
// the model sees the packed code — not a JSON metadata blob — within budget
// + 40 o200k tokens (tiktoken), and count_tokens reaches it as JSON with
// `tokens`.
//
// Claude Code gets no account and no internet: ANTHROPIC_BASE_URL and any
// ANTHROPIC_API_KEY, telemetry/auto-update/non-essential traffic off, a
// private HOME, and HTTP(S)_PROXY pointing at a proxy on 127.0.0.1 that
// forwards nothing and answers nothing (an offline network that hangs):
// the run must finish under its deadline and try no outside host.
//
// Run by `make test-agents` (ACODE_BIN = the binary, ACODE_NET_HTTP =
// GOROOT's src/net/http).
import { test, after } from "node:test";
import assert from "node:assert/strict";
import { existsSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { startStandin, toolResults, toolUses, resultText } from "./anthropic-standin.mjs";
import { bin, claudeBin, count, copySample, netHTTP, privateHome, run, scratch, startOfflineProxy } from "./harness.mjs";

const tmp = scratch("acode-claude-");
after(() => rmSync(tmp, { recursive: true, force: true }));

const BUDGET = 8000;
// The summary line pack_context adds to the packed context (DESIGN: ≤ 40 tokens).
const SUMMARY = 40;

// Each case is a workspace, a question as a user would type it, and a line
// of code the answer cannot do without (the function the question is about)
// with the file that holds it.
const cases = [
  {
    name: "testdata/sample",
    root: () => copySample(tmp),
    prompt: "Why does checkout fail for an empty cart?",
    query: "why does checkout fail for empty carts",
    file: "cart/service.go",
    mustShow: "func (s *CheckoutService) Checkout(ctx context.Context, c *Cart) (*Order, error) {",
  },
  {
    name: "GOROOT/src/net/http",
    root: netHTTP,
    prompt: "Fix the Transport retry of requests on reused connections.",
    query:
      "net/http: Transport should retry a request on a reused keep-alive connection the server closed; when does shouldRetryRequest allow the retry",
    file: "transport.go",
    mustShow: "func (pc *persistConn) shouldRetryRequest(req *Request, err error) bool {",
  },
];

// splitReminders separates what the tool returned from the <system-reminder>
// blocks Claude Code appends to a tool_result on its own.
function splitReminders(text) {
  const reminders = [];
  const own = text.replace(/\n*<system-reminder>[\s\S]*?<\/system-reminder>\n*/g, (m) => {
    reminders.push(m);
    return "";
  });
  return { own, reminders };
}

for (const c of cases) {
  test(`Claude Code: pack_context on ${c.name} reaches the model as code within budget + ${SUMMARY}`, { timeout: 180_000 }, async () => {
    const root = c.root();
    assert.ok(readFileSync(join(root, c.file), "utf8").includes(c.mustShow), `${c.file} of ${root} lacks ${c.mustShow}`);
    const countText = "func Checkout() error { return ErrEmptyCart } // 🎉 日本語";
    const standin = await startStandin({
      turns: [
        { tool: "mcp__acode__pack_context", input: { query: c.query, budget: BUDGET } },
        { tool: "mcp__acode__count_tokens", input: { text: countText } },
        { text: "The answer, from the packed code." },
      ],
    });
    const proxy = await startOfflineProxy();
    const dir = scratch("acode-claude-run-");
    try {
      const env = privateHome(dir);
      const cfg = join(dir, "mcp.json");
      writeFileSync(
        cfg,
        JSON.stringify({ mcpServers: { acode: { type: "stdio", command: bin, args: ["mcp", "--root", root] } } }),
      );
      const res = await run(
        claudeBin,
        [
          "-p",
          c.prompt,
          "--mcp-config",
          cfg,
          "--strict-mcp-config",
          "--allowedTools",
          "mcp__acode__pack_context,mcp__acode__count_tokens",
          "--output-format",
          "stream-json",
          "--verbose",
        ],
        {
          cwd: env.HOME,
          timeoutMs: 150_000,
          env: {
            ...env,
            ANTHROPIC_BASE_URL: standin.url,
            ANTHROPIC_API_KEY: "sk-ant-standin-no-account",
            ENABLE_TOOL_SEARCH: "false",
            DISABLE_TELEMETRY: "1",
            DISABLE_AUTOUPDATER: "1",
            DISABLE_ERROR_REPORTING: "1",
            CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: "1",
            HTTPS_PROXY: proxy.url,
            HTTP_PROXY: proxy.url,
            https_proxy: proxy.url,
            http_proxy: proxy.url,
            NO_PROXY: "127.0.0.1,localhost",
            no_proxy: "127.0.0.1,localhost",
          },
        },
      );
      const diag = () => `exit ${res.code} after ${res.ms} ms\nstderr: ${res.stderr.slice(-2000)}\nstdout: ${res.stdout.slice(-2000)}`;
      console.log(`${c.name}: Claude Code ran ${res.ms} ms, ${standin.requests.length} API requests, outside attempts: ${proxy.attempts.length}`);
      assert.equal(res.timedOut, false, `Claude Code hung: ${diag()}`);
      assert.equal(res.code, 0, diag());
      assert.deepEqual(proxy.attempts, [], "Claude Code tried to reach the internet");

      // The run ended with the scripted final answer after both tool calls.
      const events = res.stdout.split("\n").filter(Boolean).map((l) => JSON.parse(l));
      const result = events.find((e) => e.type === "result");
      assert.ok(result && result.subtype === "success" && !result.is_error, diag());
      assert.equal(result.result, "The answer, from the packed code.");
      const init = events.find((e) => e.type === "system" && e.subtype === "init");
      assert.ok(init?.mcp_servers?.some((s) => s.name === "acode" && s.status === "connected"), `MCP server: ${JSON.stringify(init?.mcp_servers)}`);

      // The last agent request carries both tool results as the model reads them.
      const turns = standin.agentRequests();
      assert.ok(turns.length >= 3, `${turns.length} agent requests`);
      const last = turns.at(-1).body;
      assert.ok(last.stream === true, "Claude Code streams");
      assert.ok(last.tools.some((t) => t.name === "mcp__acode__pack_context"), "pack_context is offered directly (not behind ToolSearch)");
      const uses = toolUses(last);
      const results = toolResults(last);
      assert.equal(results.length, 2, JSON.stringify(results).slice(0, 500));
      const byID = Object.fromEntries(results.map((r) => [r.tool_use_id, r]));

      // pack_context: the packed code, not JSON, within budget + summary.
      const packUse = uses.find((u) => u.name === "mcp__acode__pack_context");
      assert.deepEqual(packUse.input, { query: c.query, budget: BUDGET });
      const pack = byID[packUse.id];
      assert.ok(pack, "no tool_result for pack_context");
      const packText = resultText(pack);
      assert.notEqual(pack.is_error, true, packText.slice(0, 500));
      const { own } = splitReminders(packText);
      assert.ok(!/^\s*[{[]/.test(own), `the model got JSON, not code: ${own.slice(0, 300)}`);
      assert.throws(() => JSON.parse(own), "the model got a JSON document");
      assert.ok(own.includes(c.mustShow), `the model did not see ${c.mustShow}; it got: ${own.slice(0, 400)}`);
      // Every file the context names is a file of the workspace, and the
      // line the question needs is that file's line.
      const headers = [...own.matchAll(/^## File: (\S+)/gm)].map((m) => m[1]);
      assert.ok(headers.length > 0, "no `## File:` section");
      for (const p of headers) assert.ok(existsSync(join(root, p)), `context names ${p}, not in the workspace`);
      const hit = headers.find((p) => readFileSync(join(root, p), "utf8").includes(c.mustShow));
      assert.ok(hit, `no packed file holds ${c.mustShow}`);
      const tokens = count(own);
      console.log(`${c.name}: the model got ${tokens} o200k tokens of packed code for budget ${BUDGET} (${headers.length} files)`);
      assert.ok(tokens <= BUDGET + SUMMARY, `${tokens} tokens > budget ${BUDGET} + ${SUMMARY}`);

      // count_tokens: JSON with the tiktoken count.
      const countUse = uses.find((u) => u.name === "mcp__acode__count_tokens");
      const counted = byID[countUse.id];
      assert.ok(counted, "no tool_result for count_tokens");
      const countJSON = JSON.parse(splitReminders(resultText(counted)).own.trim());
      assert.equal(countJSON.tokens, count(countText));
      assert.equal(countJSON.encoding, "o200k_base");
    } finally {
      await standin.close();
      await proxy.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
}
