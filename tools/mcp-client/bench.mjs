// bench.mjs times pack_context of `acode-lsp mcp` against `acode-lsp pack`
// on the same tree, in one run (make bench-mcp):
//
//   node bench.mjs --dir DIR [--runs N] [--query Q] [--budget B]
//
// cold CLI: `acode-lsp pack DIR` per run (process start included);
// cold MCP: spawn `acode-lsp mcp --root DIR`, initialize, one pack_context, close;
// warm MCP: further pack_context calls in one running server.
// Medians of wall time and of CPU time (user + system, from /proc) are
// printed with their ratios to the cold CLI, and the tools/list cost in
// o200k tokens (tiktoken).
import { spawnSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
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
// CPU time (user + system, ms) from /proc: of a running process, or of this
// process's waited-for children (cutime + cstime). The machine is shared and
// loaded, so CPU time is the steadier measure; wall time is printed too.
const ticks = 100;
const stat = (pid) => readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1].split(" ");
const cpuOf = (pid) => { const f = stat(pid); return ((+f[11]) + (+f[12])) * 1000 / ticks; };
const childCPU = () => { const f = stat("self"); return ((+f[13]) + (+f[14])) * 1000 / ticks; };
const waitExit = async (pid) => { while (existsSync(`/proc/${pid}`)) await new Promise((r) => setTimeout(r, 5)); };

async function connect() {
  const client = new Client({ name: "acode-bench", version: "1.0.0" });
  const transport = new StdioClientTransport({ command: bin, args: ["mcp", "--root", dir], stderr: "ignore" });
  await client.connect(transport);
  return { client, pid: transport.pid };
}
const pack = (client) => client.callTool({ name: "pack_context", arguments: { query, budget } });

const cli = [], cliCPU = [];
let cliTokens = 0;
const cold = [], coldCPU = [];
const warm = [], warmCPU = [];
let mcpTokens = 0;
let listCost = 0;
for (let r = 0; r < runs; r++) {
  let cpu = childCPU();
  let t = performance.now();
  const out = spawnSync(bin, ["pack", dir, "--root", dir, "--query", query, "--budget", String(budget), "--json"], { maxBuffer: 1 << 28 });
  cli.push(performance.now() - t);
  cliCPU.push(childCPU() - cpu);
  if (out.status !== 0) throw new Error(`acode-lsp pack: ${out.stderr}`);
  cliTokens = JSON.parse(out.stdout).tokenCount;

  cpu = childCPU();
  t = performance.now();
  const { client, pid } = await connect();
  const res = await pack(client);
  cold.push(performance.now() - t);
  const coldServerCPU = cpuOf(pid); // the server's CPU up to its first answer
  if (res.isError) throw new Error(res.content[0].text);
  // pack_context is text only: the context, then "[acode-lsp: N tokens · …]".
  const text = res.content.filter((x) => x.type === "text").map((x) => x.text).join("");
  mcpTokens = Number(/\n\[acode-lsp: ≈?([\d,]+) tokens/.exec(text)?.[1]?.replaceAll(",", "") ?? NaN);
  coldCPU.push(coldServerCPU);
  for (let w = 0; w < 3; w++) {
    const c0 = cpuOf(pid);
    t = performance.now();
    await pack(client);
    warm.push(performance.now() - t);
    warmCPU.push(cpuOf(pid) - c0);
  }
  if (r === 0) {
    const { get_encoding } = createRequire(join(here, "../tiktoken-ref/package.json"))("tiktoken");
    const enc = get_encoding("o200k_base");
    listCost = enc.encode_ordinary(JSON.stringify(await client.listTools())).length;
    enc.free();
  }
  await client.close();
  await waitExit(pid);
}
const c = median(cli), cc = median(cliCPU);
const result = {
  dir, runs, budget,
  wallMs: { cliCold: +c.toFixed(1), mcpCold: +median(cold).toFixed(1), mcpWarm: +median(warm).toFixed(1) },
  wallRatio: { cold: +(median(cold) / c).toFixed(2), warm: +(median(warm) / c).toFixed(2) },
  cpuMs: { cliCold: cc, mcpCold: median(coldCPU), mcpWarm: median(warmCPU) },
  cpuRatio: { cold: +(median(coldCPU) / cc).toFixed(2), warm: +(median(warmCPU) / cc).toFixed(2) },
  cliTokens, mcpTokens, toolsListTokens: listCost,
};
console.log(JSON.stringify(result));
