// codex.test.mjs runs the real Codex CLI (npm @openai/codex, pinned in
// package.json; `codex exec`, non-interactive) against `acode-lsp mcp`, with
// a scripted stand-in for the OpenAI Responses API on 127.0.0.1 as the
// model, reached through a custom model provider (-c model_providers…). The
// scripted model calls pack_context, then count_tokens, then answers; the
// stand-in logs every request, so the test reads the exact
// function_call_output items Codex gave the model and checks, as for Claude
// Code, that the model sees the packed code within budget + 40 o200k tokens
// and the count as JSON with `tokens`.
//
// Codex gets no account and no internet: a private HOME and CODEX_HOME, the
// user's config ignored, analytics and plugin sync off, and HTTP(S)_PROXY
// pointing at a proxy on 127.0.0.1 that forwards nothing and answers nothing
// (an offline network that hangs): the run must finish under its deadline
// and try no outside host.
//
// Run by `make test-agents` (ACODE_BIN, ACODE_NET_HTTP).
import { test, after } from "node:test";
import assert from "node:assert/strict";
import { mkdirSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { functionCalls, functionOutputs, outputText, startResponsesStandin } from "./openai-standin.mjs";
import { bin, checkPackedCode, codexBin, count, packCases, privateHome, run, scratch, startOfflineProxy } from "./harness.mjs";

const tmp = scratch("acode-codex-");
after(() => rmSync(tmp, { recursive: true, force: true }));

const BUDGET = 8000;

// Codex puts a header of its own before an MCP tool's output.
const CODEX_HEADER = /^Wall time: [0-9.]+ seconds\nOutput:\n/;

// toml quotes a string as a TOML basic string (JSON's escapes are TOML's).
const toml = (s) => JSON.stringify(s);

for (const c of packCases) {
  test(`Codex: pack_context on ${c.name} reaches the model as code within budget + 40`, { timeout: 180_000 }, async () => {
    const root = c.root(tmp);
    assert.ok(readFileSync(join(root, c.file), "utf8").includes(c.mustShow), `${c.file} of ${root} lacks ${c.mustShow}`);
    const countText = "func Checkout() error { return ErrEmptyCart } // 🎉 日本語";
    const standin = await startResponsesStandin({
      turns: [
        { namespace: "mcp__acode", tool: "pack_context", input: { query: c.query, budget: BUDGET } },
        { namespace: "mcp__acode", tool: "count_tokens", input: { text: countText } },
        { text: "The answer, from the packed code." },
      ],
    });
    const proxy = await startOfflineProxy();
    const dir = scratch("acode-codex-run-");
    try {
      const env = privateHome(dir);
      const codexHome = join(env.HOME, ".codex");
      mkdirSync(codexHome);
      const set = (kv) => ["-c", kv];
      const res = await run(
        codexBin,
        [
          "exec",
          "--json",
          "--skip-git-repo-check",
          "--ephemeral",
          "--ignore-user-config",
          ...set('model_provider="standin"'),
          ...set(`model_providers.standin={name="standin", base_url=${toml(standin.url)}, wire_api="responses", env_key="STANDIN_API_KEY"}`),
          ...set("check_for_update_on_startup=false"),
          // Otherwise Codex sends analytics to ab.chatgpt.com (and waits ~10 s
          // for it when offline) and syncs plugins from github.com.
          ...set("analytics.enabled=false"),
          "--disable",
          "plugins",
          ...set(`mcp_servers.acode.command=${toml(bin)}`),
          ...set(`mcp_servers.acode.args=[${["mcp", "--root", root].map(toml).join(", ")}]`),
          ...set('mcp_servers.acode.default_tools_approval_mode="approve"'),
          ...set("mcp_servers.acode.tool_timeout_sec=120"),
          // Codex's default model (no -m): its metadata sets how much of a tool
          // output Codex keeps (see docs/agent-clients.md).
          c.prompt,
        ],
        {
          cwd: env.HOME,
          timeoutMs: 150_000,
          env: {
            ...env,
            CODEX_HOME: codexHome,
            STANDIN_API_KEY: "sk-standin-no-account",
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
      console.log(`${c.name}: Codex ran ${res.ms} ms, ${standin.requests.length} API requests, outside attempts: ${proxy.attempts.length}`);
      assert.equal(res.timedOut, false, `Codex hung: ${diag()}`);
      assert.equal(res.code, 0, diag());
      assert.deepEqual(proxy.attempts, [], "Codex tried to reach the internet");
      assert.deepEqual(
        standin.requests.filter((r) => r.path !== "/v1/responses").map((r) => `${r.method} ${r.path}`),
        [],
        "requests the stand-in does not serve",
      );

      const events = res.stdout.split("\n").filter((l) => l.startsWith("{")).map((l) => JSON.parse(l));
      assert.ok(events.some((e) => e.type === "turn.completed"), diag());
      const calls = events.filter((e) => e.type === "item.completed" && e.item?.type === "mcp_tool_call");
      assert.deepEqual(calls.map((e) => [e.item.server, e.item.tool, e.item.status]), [
        ["acode", "pack_context", "completed"],
        ["acode", "count_tokens", "completed"],
      ]);
      const answer = events.find((e) => e.type === "item.completed" && e.item?.type === "agent_message");
      assert.equal(answer?.item.text, "The answer, from the packed code.");

      const last = standin.requests.at(-1).body;
      const byCall = Object.fromEntries(functionOutputs(last).map((o) => [o.call_id, o]));
      const [packCall, countCall] = functionCalls(last);
      assert.equal(packCall.name, "pack_context");

      // pack_context: the packed code, not JSON, within budget + summary.
      const packOut = outputText(byCall[packCall.call_id]);
      assert.match(packOut, CODEX_HEADER, "Codex's output header");
      const own = packOut.replace(CODEX_HEADER, "");
      assert.ok(!/…\d+ tokens truncated…/.test(own), `Codex cut the output (model ${last.model})`);
      const { tokens, files } = checkPackedCode(assert, own, root, c, BUDGET);
      console.log(`${c.name}: the model got ${tokens} o200k tokens of packed code for budget ${BUDGET} (${files} files; Codex's header ${count(packOut) - tokens} more)`);

      // count_tokens: JSON with the tiktoken count.
      assert.equal(countCall.name, "count_tokens");
      const counted = JSON.parse(outputText(byCall[countCall.call_id]).replace(CODEX_HEADER, ""));
      assert.equal(counted.tokens, count(countText));
      assert.equal(counted.encoding, "o200k_base");
    } finally {
      await standin.close();
      await proxy.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
}
