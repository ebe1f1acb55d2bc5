// forwarding.test.mjs checks what reaches a model through the two ways MCP
// clients forward a tool result (DESIGN.md, "What reaches the model"):
//
//   - text only: the text blocks, the rest dropped (Cursor, Zed, Cline, …);
//   - structured when present: JSON.stringify(structuredContent) alone when
//     the result has one, else the text blocks (VS Code, Claude Code).
//
// A client built on the official MCP TypeScript SDK (pinned) calls the tools
// of `acode-lsp mcp`, and each result is passed through both views: in both
// the model must get the packed code within budget + 40 o200k tokens
// (tiktoken), a page of a file for fit_tool_result, the JSON count for
// count_tokens, and nothing over --max-result-tokens.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { bin, count, copySample, netHTTP, privateHome, scratch } from "./harness.mjs";

/** textOnly is what a client that forwards only text blocks gives the model. */
const textOnly = (res) => res.content.filter((c) => c.type === "text").map((c) => c.text).join("\n");
/** structuredFirst is what VS Code and Claude Code give the model. */
const structuredFirst = (res) => (res.structuredContent !== undefined ? JSON.stringify(res.structuredContent) : textOnly(res));
const views = { "text-only client": textOnly, "structured-first client": structuredFirst };

const tmp = scratch("acode-fwd-");
let sample;
let env;
before(() => {
  sample = copySample(tmp);
  env = privateHome(tmp);
});
after(() => rmSync(tmp, { recursive: true, force: true }));

async function connect(args) {
  const transport = new StdioClientTransport({ command: bin, args: ["mcp", ...args], env: { PATH: process.env.PATH, ...env }, stderr: "pipe" });
  const client = new Client({ name: "acode-forwarding-test", version: "1.0.0" });
  await client.connect(transport);
  return {
    call: (name, args) => client.callTool({ name, arguments: args }, undefined, { timeout: 120_000 }),
    close: () => client.close(),
  };
}

const BUDGET = 8000;
const SUMMARY = 40;
const CHECKOUT = "func (s *CheckoutService) Checkout(ctx context.Context, c *Cart) (*Order, error) {";

test("pack_context: both kinds of client give the model the packed code within budget + 40", { timeout: 120_000 }, async () => {
  assert.ok(readFileSync(join(sample, "cart/service.go"), "utf8").includes(CHECKOUT));
  const s = await connect(["--root", sample]);
  try {
    const res = await s.call("pack_context", { query: "why does checkout fail for empty carts", budget: BUDGET });
    assert.notEqual(res.isError, true, textOnly(res));
    for (const [name, view] of Object.entries(views)) {
      const seen = view(res);
      assert.ok(seen.includes(CHECKOUT), `${name}: the model does not see the code: ${seen.slice(0, 300)}`);
      assert.ok(/^## File: cart\/service\.go/m.test(seen), `${name}: no file section`);
      assert.ok(!/^\s*[{[]/.test(seen), `${name}: the model gets JSON: ${seen.slice(0, 200)}`);
      const n = count(seen);
      console.log(`pack_context, ${name}: ${n} o200k tokens for budget ${BUDGET}`);
      assert.ok(n <= BUDGET + SUMMARY, `${name}: ${n} tokens > ${BUDGET} + ${SUMMARY}`);
    }
    // "8k" is the same budget as 8000.
    const k = await s.call("pack_context", { query: "why does checkout fail for empty carts", budget: "8k" });
    assert.notEqual(k.isError, true, textOnly(k));
    assert.equal(textOnly(k), textOnly(res), 'budget "8k" packs what 8000 packs');
  } finally {
    await s.close();
  }
});

test("a budget over --max-result-tokens is capped in every view", { timeout: 120_000 }, async () => {
  const cap = 1500;
  const s = await connect(["--root", netHTTP(), "--max-result-tokens", String(cap)]);
  try {
    const res = await s.call("pack_context", { query: "Transport retries a request on a closed keep-alive connection", budget: 100000 });
    assert.notEqual(res.isError, true, textOnly(res));
    for (const [name, view] of Object.entries(views)) {
      const n = count(view(res));
      assert.ok(n > 0 && n <= cap, `${name}: ${n} tokens, cap ${cap}`);
      assert.ok(view(res).includes("## File: "), `${name}: no code`);
    }
  } finally {
    await s.close();
  }
});

test("fit_tool_result by path: both kinds of client get the first page of the file", { timeout: 120_000 }, async () => {
  const root = netHTTP();
  const file = readFileSync(join(root, "transport.go"), "utf8");
  assert.ok(count(file) > 8000, "transport.go is larger than one page");
  const s = await connect(["--root", root]);
  try {
    const res = await s.call("fit_tool_result", { tool: "read_file", path: "transport.go" });
    assert.notEqual(res.isError, true, textOnly(res));
    for (const [name, view] of Object.entries(views)) {
      const seen = view(res);
      // DESIGN: the largest leading page of whole lines that fits maxTokens
      // (default 8,000), then the continuation note (one line naming the cursor).
      const m = seen.match(/^([\s\S]*?)\n*(\[[^\n]*cursor[^\n]*\])\s*$/);
      assert.ok(m, `${name}: no continuation note at the end: ${seen.slice(-300)}`);
      const [, page, note] = m;
      assert.ok(page.length > 0 && file.startsWith(page.replace(/\n*$/, "\n")), `${name}: the page is not the file's first lines: ${page.slice(0, 200)}`);
      const n = count(page);
      console.log(`fit_tool_result, ${name}: a page of ${n} o200k tokens + a note of ${count(note)} (default maxTokens 8000)`);
      assert.ok(n <= 8000, `${name}: a page of ${n} tokens over the default maxTokens`);
      assert.ok(n > 8000 * 0.9, `${name}: a page of ${n} tokens is not the largest that fits 8000`);
    }
  } finally {
    await s.close();
  }
});

test("count_tokens: both kinds of client get JSON with tokens", { timeout: 60_000 }, async () => {
  const s = await connect(["--root", sample]);
  try {
    const text = "func Checkout() error { return ErrEmptyCart } // 🎉 日本語";
    const res = await s.call("count_tokens", { text });
    assert.notEqual(res.isError, true, textOnly(res));
    for (const [name, view] of Object.entries(views)) {
      const got = JSON.parse(view(res));
      assert.equal(got.tokens, count(text), name);
      assert.equal(got.encoding, "o200k_base", name);
    }
  } finally {
    await s.close();
  }
});
