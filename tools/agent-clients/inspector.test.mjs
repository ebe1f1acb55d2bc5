// inspector.test.mjs drives `acode-lsp mcp` with a third-party client, the
// MCP Inspector's command line (npm @modelcontextprotocol/inspector, pinned;
// `npx @modelcontextprotocol/inspector --cli …` is the same program), as a
// person trying the server by hand would (docs/agent-clients.md): tools/list,
// then pack_context with a budget typed as "8k".
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { rmSync } from "node:fs";
import { bin, count, copySample, inspectorBin, privateHome, run, scratch } from "./harness.mjs";

const tmp = scratch("acode-inspector-");
let sample;
let env;
before(() => {
  sample = copySample(tmp);
  env = privateHome(tmp);
});
after(() => rmSync(tmp, { recursive: true, force: true }));

// inspect runs the Inspector CLI against `acode-lsp mcp --root sample` and
// returns the JSON it prints.
async function inspect(...args) {
  const res = await run(
    inspectorBin,
    ["--cli", "-e", `XDG_CACHE_HOME=${env.XDG_CACHE_HOME}`, bin, "mcp", "--root", sample, ...args],
    { env, cwd: tmp, timeoutMs: 60_000 },
  );
  assert.equal(res.timedOut, false, `the Inspector hung: ${res.stderr}`);
  assert.equal(res.code, 0, `exit ${res.code}: ${res.stderr}\n${res.stdout}`);
  return JSON.parse(res.stdout);
}

test("MCP Inspector CLI: tools/list offers the default tools", { timeout: 90_000 }, async () => {
  const list = await inspect("--method", "tools/list");
  assert.deepEqual(list.tools.map((t) => t.name).sort(), ["count_tokens", "fit_tool_result", "pack_context"]);
  for (const t of list.tools) assert.ok(t.description && t.inputSchema?.type === "object", t.name);
});

test('MCP Inspector CLI: pack_context with budget=8k returns the packed code as text', { timeout: 90_000 }, async () => {
  const res = await inspect(
    "--method",
    "tools/call",
    "--tool-name",
    "pack_context",
    "--tool-arg",
    "query=why does checkout fail for empty carts",
    "--tool-arg",
    "budget=8k",
  );
  assert.notEqual(res.isError, true, JSON.stringify(res).slice(0, 500));
  assert.equal(res.structuredContent, undefined, "pack_context is text only");
  const text = res.content.filter((c) => c.type === "text").map((c) => c.text).join("\n");
  assert.ok(text.includes("func (s *CheckoutService) Checkout(ctx context.Context, c *Cart) (*Order, error) {"), text.slice(0, 300));
  const n = count(text);
  console.log(`Inspector: pack_context budget=8k gave ${n} o200k tokens`);
  assert.ok(n <= 8000 + 40, `${n} tokens`);
});
