// mcp.test.mjs drives `acode-lsp mcp` with the official MCP TypeScript SDK
// over stdio, as an agent would: it lists the tools, packs a workspace and
// recounts the text with OpenAI's tiktoken core, pages a large tool result
// and a workspace file, trims a conversation, follows the client's roots,
// cancels a pack, and hits every error path. What reaches the model
// (docs/agents.md): pack_context and fit_tool_result are text only;
// count_tokens and trim_conversation are structured content and the same
// JSON as text. Run by `make test-mcp` (ACODE_BIN = the binary).
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, mkdirSync, writeFileSync, rmSync, realpathSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { ListRootsRequestSchema } from "@modelcontextprotocol/sdk/types.js";

const here = dirname(fileURLToPath(import.meta.url));
const bin = resolve(process.env.ACODE_BIN ?? join(here, "../../bin/acode-lsp"));
// OpenAI's tiktoken core, installed once for the repository in tools/tiktoken-ref.
const { get_encoding } = createRequire(join(here, "../tiktoken-ref/package.json"))("tiktoken");
const o200k = get_encoding("o200k_base");
const count = (text) => o200k.encode_ordinary(text).length;

const tmp = realpathSync(mkdtempSync(join(tmpdir(), "acode-mcp-")));
const ws = join(tmp, "ws");
const other = join(tmp, "other");
const big = join(tmp, "big");

function writeTree(root, files) {
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, name)), { recursive: true });
    writeFileSync(join(root, name), text);
  }
}

before(() => {
  writeTree(ws, {
    "cart/service.go": "package cart\n\nimport \"errors\"\n\n// ErrEmptyCart is returned by Checkout for a cart without items.\nvar ErrEmptyCart = errors.New(\"empty cart\")\n\n// Checkout charges the cart.\nfunc Checkout(items []string) error {\n\tif len(items) == 0 {\n\t\treturn ErrEmptyCart\n\t}\n\treturn nil\n}\n",
    "cart/service_test.go": "package cart\n\nimport \"testing\"\n\nfunc TestCheckoutEmpty(t *testing.T) {\n\tif Checkout(nil) != ErrEmptyCart {\n\t\tt.Fatal(\"want ErrEmptyCart\")\n\t}\n}\n",
    "docs/readme.md": "# Cart\n\nThe cart service checks out items.\n\n## Errors\n\nAn empty cart fails with ErrEmptyCart. Emoji 🎉 and 日本語 count too.\n",
    ".env": "STRIPE_KEY=sk_live_51HqLyjWDarjtT1zdp7dcXyZ0123456789abcdef\n",
    ".gitignore": "debug.log\n",
    "debug.log": "ignored by gitignore\n",
    "gen/mock.go": "package gen // excluded by context.exclude\n",
    ".agent/config.yml": "context:\n  exclude: [\"gen/**\"]\n",
  });
  writeTree(other, { "other.go": "package other\n\n// Other lives in another root.\nfunc Other() {}\n" });
  const files = {};
  for (let i = 0; i < 300; i++) {
    files[`pkg${i % 20}/f${i}.go`] = `package pkg\n\n// F${i} does things.\nfunc F${i}() int {\n${"\tx := 1\n\t_ = x\n".repeat(150)}\treturn ${i}\n}\n`;
  }
  writeTree(big, files);
});

after(() => {
  o200k.free();
  rmSync(tmp, { recursive: true, force: true });
});

// connect starts `acode-lsp mcp ARGS` and connects a client; roots, when
// given, are offered to the server (roots capability + roots/list).
async function connect(args, { roots } = {}) {
  const transport = new StdioClientTransport({ command: bin, args: ["mcp", ...args], stderr: "pipe" });
  let stderr = "";
  transport.stderr?.on("data", (d) => (stderr += d));
  const errors = [];
  const client = new Client({ name: "acode-test", version: "1.0.0" }, { capabilities: roots ? { roots: { listChanged: true } } : {} });
  client.onerror = (e) => errors.push(e);
  if (roots) {
    client.setRequestHandler(ListRootsRequestSchema, async () => ({ roots: roots.map((r) => ({ uri: pathToFileURL(r).href })) }));
  }
  await client.connect(transport);
  return {
    client,
    errors,
    stderr: () => stderr,
    call: (name, args, opts) => client.callTool({ name, arguments: args }, undefined, opts),
    close: () => client.close(),
  };
}

const text = (res) => res.content.filter((c) => c.type === "text").map((c) => c.text).join("");

// splitPack splits pack_context's text into the packed context and its
// summary line.
function splitPack(t) {
  const i = t.lastIndexOf("\n[acode-lsp: ");
  assert.ok(i >= 0 && t.endsWith("]"), `no summary line in ${t.slice(-200)}`);
  return [t.slice(0, i), t.slice(i + 1)];
}

// everything counts what a client may pass a model of a result: its text
// blocks and its structured content as JSON.
const everything = (res) => count(text(res)) + (res.structuredContent ? count(JSON.stringify(res.structuredContent)) : 0);

test("tools/list: the three default tools, small schemas, no output schema", async () => {
  const s = await connect(["--root", ws]);
  try {
    const res = await s.client.listTools();
    assert.deepEqual(res.tools.map((t) => t.name).sort(), ["count_tokens", "fit_tool_result", "pack_context"]);
    for (const t of res.tools) assert.equal(t.outputSchema, undefined, `${t.name} has an output schema`);
    const cost = count(JSON.stringify(res));
    console.log(`tools/list costs ${cost} o200k tokens (tiktoken)`);
    assert.ok(cost <= 1200, `tools/list costs ${cost} tokens`);
    assert.deepEqual(s.errors, []);
  } finally {
    await s.close();
  }
  const all = await connect(["--root", ws, "--tools", "pack_context,count_tokens,fit_tool_result,trim_conversation"]);
  try {
    const res = await all.client.listTools();
    assert.equal(res.tools.length, 4);
  } finally {
    await all.close();
  }
});

test("pack_context: fits the budget, recounted with tiktoken; no secret, ignored or excluded file", async () => {
  const s = await connect(["--root", ws, "--log-level", "debug"]);
  try {
    for (const budget of [40, 150, 3000, undefined]) {
      const args = { query: "why does checkout fail for an empty cart" };
      if (budget) args.budget = budget;
      const res = await s.call("pack_context", args);
      assert.ok(!res.isError, text(res));
      assert.equal(res.structuredContent, undefined, "pack_context is text only");
      const t = text(res);
      const [context, summary] = splitPack(t);
      const n = count(context);
      assert.ok(n <= (budget ?? 16000), `${n} tokens over budget ${budget}`);
      assert.ok(count(t) <= (budget ?? 16000) + 40, `${count(t)} tokens with the summary`);
      assert.ok(count(summary) <= 40, `summary of ${count(summary)} tokens`);
      assert.ok(summary.includes(`${n.toLocaleString("en-US")} tokens`), summary);
      if (budget !== 40) assert.ok(context.includes("func Checkout(items []string) error {"), "the model sees the code");
      for (const leak of ["sk_live_", "ignored by gitignore", "excluded by context.exclude"]) assert.ok(!t.includes(leak), leak);
    }
    const k = await s.call("pack_context", { query: "empty cart", budget: "1k" });
    const thousand = await s.call("pack_context", { query: "empty cart", budget: 1000 });
    assert.equal(text(k), text(thousand), 'budget "1k" is budget 1000');
    const res = await s.call("pack_context", { query: "empty cart", paths: ["docs/**"], search: "ErrEmptyCart", budget: 2000 });
    assert.ok(text(res).includes("## File: docs/readme.md"), text(res));
    assert.ok(text(res).includes("var ErrEmptyCart"), "the search's match is packed");
    assert.ok(s.stderr().includes('"msg":"pack stages"') && s.stderr().includes('"request":"mcp-'), "debug log with request ids on stderr");
    assert.ok(!s.stderr().includes("sk_live_"), "no content in the log");
    assert.deepEqual(s.errors, [], "stdout carried only protocol");
  } finally {
    await s.close();
  }
});

test("pack_context: format xml fits the budget too", async () => {
  const s = await connect(["--root", ws]);
  try {
    const res = await s.call("pack_context", { query: "empty cart checkout", format: "xml", budget: 500 });
    assert.ok(!res.isError, text(res));
    const [t] = splitPack(text(res));
    assert.ok(count(t) <= 500);
    assert.ok(t.includes('<file path="cart/service.go"') && !t.includes("## File:"), t);
    assert.ok(!t.includes("sk_live_"));
  } finally {
    await s.close();
  }
});

test("pack_context: a budget above --max-result-tokens is capped and says so", async () => {
  const s = await connect(["--root", ws, "--max-result-tokens", "200"]);
  try {
    const res = await s.call("pack_context", { query: "checkout", budget: 100000 });
    assert.ok(!res.isError, text(res));
    const n = everything(res);
    assert.ok(n > 0 && n <= 200, `${n} tokens`);
    const [, summary] = splitPack(text(res));
    assert.ok(summary.includes("budget 100,000 capped to"), summary);
  } finally {
    await s.close();
  }
});

test("roots: the client's roots replace --root and confine every tool", async () => {
  const s = await connect(["--root", ws], { roots: [other] });
  try {
    const res = await s.call("pack_context", { query: "other" });
    assert.ok(!res.isError, text(res));
    assert.ok(text(res).includes("other.go") && !text(res).includes("cart/service.go"), text(res));
    const outside = await s.call("count_tokens", { path: join(ws, "cart/service.go") });
    assert.ok(outside.isError && text(outside).includes("outside_workspace"), text(outside));
  } finally {
    await s.close();
  }
});

test("fit_tool_result: a large output is paged under --max-result-tokens", async () => {
  const s = await connect(["--root", ws, "--max-result-tokens", "300"]);
  try {
    const output = Array.from({ length: 500 }, (_, i) => `internal/pkg${i % 37}/file${i}.go`).join("\n") + "\n";
    let cursor;
    let joined = "";
    let pages = 0;
    do {
      const res = await s.call("fit_tool_result", { tool: "project_files", content: output, maxTokens: 100000, ...(cursor ? { cursor } : {}) });
      assert.ok(!res.isError, text(res));
      assert.equal(res.structuredContent, undefined, "fit_tool_result is text only");
      const n = everything(res);
      assert.ok(n <= 300, `page of ${n} tokens`);
      const t = text(res);
      const i = t.lastIndexOf("\n[");
      joined += t.slice(0, i);
      cursor = /Use cursor (\S+) to continue/.exec(t.slice(i))?.[1];
      pages++;
      assert.ok(pages < 100);
    } while (cursor);
    assert.ok(pages > 1);
    assert.equal(joined, output, "the pages give the output back");
    // A workspace file the agent has not loaded, paged by path (default
    // maxTokens 8,000).
    const f = await s.call("fit_tool_result", { path: "cart/service.go" });
    assert.ok(!f.isError && text(f).includes("func Checkout(items []string) error {"), text(f));
  } finally {
    await s.close();
  }
});

test("trim_conversation and count_tokens: structured and the same JSON as text", async () => {
  const s = await connect(["--root", ws, "--tools", "pack_context,count_tokens,fit_tool_result,trim_conversation"]);
  try {
    const messages = [{ role: "system", content: "You are helpful." }];
    for (let i = 0; i < 6; i++) messages.push({ role: "user", content: `question ${i}` }, { role: "assistant", content: "answer ".repeat(40) });
    const res = await s.call("trim_conversation", { messages, maxContextTokens: 250, preserveRecentTurns: 1 });
    assert.ok(!res.isError, text(res));
    assert.equal(res.structuredContent.truncated, true);
    assert.ok(res.structuredContent.finalTokens <= 250 && res.structuredContent.droppedCount > 0);
    assert.equal(res.structuredContent.messages[0].role, "system");
    assert.deepEqual(JSON.parse(text(res)), res.structuredContent);

    const c = await s.call("count_tokens", { text: "hello world 🎉 日本語" });
    assert.equal(c.structuredContent.tokens, count("hello world 🎉 日本語"));
    assert.equal(c.structuredContent.encoding, "o200k_base");
    assert.equal(c.structuredContent.exact, true);
    assert.deepEqual(JSON.parse(text(c)), c.structuredContent);
  } finally {
    await s.close();
  }
});

test("every error path is an isError result with the ACODE code or the field", async () => {
  const s = await connect(["--root", ws, "--max-result-tokens", "400", "--tools", "pack_context,count_tokens,fit_tool_result,trim_conversation"]);
  const long = "word ".repeat(2000);
  const cases = [
    ["pack_context", {}, "invalid params: query: is required"],
    ["pack_context", { query: null }, "invalid params: query: is required"],
    ["pack_context", { query: "q", budget: true }, "invalid params: budget: must be a number of tokens"],
    ["pack_context", { query: "q", budget: 0 }, "budget"],
    ["pack_context", { query: "q", paths: ["../x/*.go"] }, "invalid params: paths[0]"],
    ["pack_context", { query: "q", paths: ["/etc/*"] }, "invalid params: paths[0]"],
    ["pack_context", { query: "q", paths: ["a/[b"] }, "invalid params: paths[0]"],
    ["pack_context", { query: "q", paths: ["nothing/**"] }, "ACODE-CTX-004: no content to pack"],
    ["pack_context", { query: "q", paths: [".env"] }, "ACODE-CTX-004: no content to pack: every input was excluded (secret: 1)"],
    ["pack_context", { query: "q", search: "  " }, "invalid params: search"],
    ["pack_context", { query: "q", format: "html" }, "format"],
    ["pack_context", { query: "q", encoding: "bogus" }, "encoding"],
    ["pack_context", { query: "q", sources: [{ type: "file" }] }, "type"],
    ["pack_context", { query: "q", sources: [{ type: "reference", uri: "https://x/y.go" }] }, "invalid params: sources[0].uri"],
    ["pack_context", { query: "q", sources: [{ type: "tool_result" }] }, "invalid params: sources[0].content"],
    ["pack_context", { query: "q", sources: [{ type: "open_file", content: "x", relevance: 2 }] }, "relevance"],
    ["count_tokens", {}, "invalid params: text: required (or path)"],
    ["count_tokens", { text: "a", path: "x.go" }, "invalid params: path: give text or path, not both"],
    ["count_tokens", { path: ".env" }, "ACODE-CTX-002: .env was not read: secret"],
    ["count_tokens", { path: "debug.log" }, "ACODE-CTX-002: debug.log was not read: ignored"],
    ["count_tokens", { path: join(other, "other.go") }, "was not read: outside_workspace"],
    ["count_tokens", { path: "nope.go" }, "ACODE-CTX-002: nope.go was not read: unreadable"],
    ["count_tokens", { text: "a", encoding: "bogus" }, "encoding"],
    ["fit_tool_result", { tool: "read_file", content: "a", maxTokens: 0 }, "maxTokens"],
    ["fit_tool_result", { tool: "read_file", content: "a\nb\n", maxTokens: 10, cursor: "nope" }, "invalid params: cursor"],
    ["fit_tool_result", { tool: "read_file", content: "a", maxTokens: 10, mode: "all" }, "mode"],
    ["trim_conversation", {}, "messages"],
    ["trim_conversation", { messages: [{ role: "robot", content: "x" }], maxContextTokens: 100 }, "role"],
    ["trim_conversation", { messages: [{ role: "system", content: long }, { role: "user", content: "hi" }], maxContextTokens: 500 }, "ACODE-CTX-003"],
    ["trim_conversation", { messages: [{ role: "user", content: long }], maxContextTokens: 100000 }, "ACODE-CTX-003: the result is"],
  ];
  try {
    for (const [tool, args, want] of cases) {
      const res = await s.call(tool, args);
      assert.equal(res.isError, true, `${tool} ${JSON.stringify(args)}: not an error: ${text(res).slice(0, 200)}`);
      assert.ok(text(res).includes(want), `${tool} ${JSON.stringify(args)}: ${text(res)} lacks ${want}`);
    }
    // An invalid config is reported by every call, with its code.
    writeTree(other, { ".agent/config.yml": "context:\n  budgett: {}\n" });
    const bad = await connect(["--root", other]);
    try {
      const res = await bad.call("pack_context", { query: "q" });
      assert.equal(res.isError, true);
      assert.ok(text(res).startsWith("ACODE-CFG-001: ") && text(res).includes("budgett"), text(res));
    } finally {
      await bad.close();
      rmSync(join(other, ".agent"), { recursive: true, force: true });
    }
  } finally {
    await s.close();
  }
});

test("cancellation: an aborted pack ends and the server keeps serving", async () => {
  const s = await connect(["--root", big]);
  try {
    const ac = new AbortController();
    const pending = s.call("pack_context", { query: "things", budget: 20000 }, { signal: ac.signal });
    setTimeout(() => ac.abort(), 5);
    await assert.rejects(pending);
    const res = await s.call("count_tokens", { text: "still serving" });
    assert.ok(!res.isError);
    const packed = await s.call("pack_context", { query: "F7 does things", budget: 1000 });
    assert.ok(!packed.isError && count(text(packed)) <= 1040);
  } finally {
    await s.close();
  }
});
