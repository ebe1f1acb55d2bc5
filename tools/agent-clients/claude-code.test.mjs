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
import { readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { startStandin, toolResults, toolUses, resultText } from "./anthropic-standin.mjs";
import { bin, checkPackedCode, claudeBin, count, packCases, privateHome, run, scratch, startOfflineProxy } from "./harness.mjs";

const tmp = scratch("acode-claude-");
after(() => rmSync(tmp, { recursive: true, force: true }));

const BUDGET = 8000;

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

for (const c of packCases) {
  test(`Claude Code: pack_context on ${c.name} reaches the model as code within budget + 40`, { timeout: 180_000 }, async () => {
    const root = c.root(tmp);
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
      assert.deepEqual(
        standin.requests.filter((r) => r.unserved).map((r) => `${r.method} ${r.path}`),
        [],
        "requests the stand-in does not serve",
      );

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
      const { tokens, files } = checkPackedCode(assert, own, root, c, BUDGET);
      console.log(`${c.name}: the model got ${tokens} o200k tokens of packed code for budget ${BUDGET} (${files} files)`);

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
