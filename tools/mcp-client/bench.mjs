// bench.mjs times pack_context of `acode-lsp mcp` against `acode-lsp pack`
// on the same tree, in one run (make bench-mcp):
//
//   node bench.mjs --dir DIR [--runs N] [--query Q] [--budget B]
//
// cold CLI: `acode-lsp pack DIR` per run (process start included);
// cold MCP: spawn `acode-lsp mcp --root DIR`, initialize, one pack_context, close;
// warm MCP: further pack_context calls in one running server.
// Medians are printed with their ratios to the cold CLI, and the
// tools/list cost in o200k tokens (tiktoken).
import { spawnSync } from "node:child_process";
import { createRequire } from "node:module";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";

const here = dirname(fileURLToPath(import.meta.url));
const bin = resolve(process.env.ACODE_BIN ?? join(here, "../../bin/acode-lsp"));
const opt = (name, def) => {
  const i = process.argv.indexOf(name);
  return i > 0 ? process.argv[i + 1] : def;
};
const dir = resolve(opt("--dir", "."));
const runs = Number(opt("--runs", "7"));
const query = opt("--query", "how are request headers parsed and validated");
const budget = Number(opt("--budget", "16000"));
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

async function connect() {
  const client = new Client({ name: "acode-bench", version: "1.0.0" });
  await client.connect(new StdioClientTransport({ command: bin, args: ["mcp", "--root", dir], stderr: "ignore" }));
  return client;
}
const pack = (client) => client.callTool({ name: "pack_context", arguments: { query, budget } });

const cli = [];
let cliTokens = 0;
const cold = [];
const warm = [];
let mcpTokens = 0;
let listCost = 0;
for (let r = 0; r < runs; r++) {
  let t = performance.now();
  const out = spawnSync(bin, ["pack", dir, "--root", dir, "--query", query, "--budget", String(budget), "--system-reserve", "0", "--response-reserve", "0", "--json"], { maxBuffer: 1 << 28 });
  cli.push(performance.now() - t);
  if (out.status !== 0) throw new Error(`acode-lsp pack: ${out.stderr}`);
  cliTokens = JSON.parse(out.stdout).tokenCount;

  t = performance.now();
  const client = await connect();
  const res = await pack(client);
  cold.push(performance.now() - t);
  if (res.isError) throw new Error(res.content[0].text);
  mcpTokens = res.structuredContent.tokenCount;
  for (let w = 0; w < 3; w++) {
    t = performance.now();
    await pack(client);
    warm.push(performance.now() - t);
  }
  if (r === 0) {
    const { get_encoding } = createRequire(join(here, "../tiktoken-ref/package.json"))("tiktoken");
    const enc = get_encoding("o200k_base");
    listCost = enc.encode_ordinary(JSON.stringify(await client.listTools())).length;
    enc.free();
  }
  await client.close();
}
const c = median(cli);
const result = {
  dir, runs, budget,
  cliColdMs: +c.toFixed(1), mcpColdMs: +median(cold).toFixed(1), mcpWarmMs: +median(warm).toFixed(1),
  coldRatio: +(median(cold) / c).toFixed(2), warmRatio: +(median(warm) / c).toFixed(2),
  cliTokens, mcpTokens, toolsListTokens: listCost,
};
console.log(JSON.stringify(result));
