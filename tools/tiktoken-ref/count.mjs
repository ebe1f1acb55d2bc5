// count.mjs prints token counts from OpenAI's tiktoken core (the npm
// "tiktoken" package, a WASM build of the Rust core) for acode-lsp's tests
// and benchmarks.
//
//   node count.mjs -e o200k_base,cl100k_base FILE...
//       one JSON line per file: {"path":…,"counts":{"o200k_base":N,…}}
//   node count.mjs -e o200k_base --jsonl < strings.jsonl
//       one JSON line per input line (a JSON string): {"counts":{…}}
//   node count.mjs -e o200k_base --bench N FILE...
//       counts the concatenated files N times and prints
//       {"tokens":…,"bytes":…,"bestMs":…,"loadMs":…} per encoding
//
// Files are decoded with a WHATWG TextDecoder (each maximal ill-formed
// subsequence becomes U+FFFD; a leading BOM is kept as text), the way an
// editor or HTTP client turns bytes into the string it sends. Text is
// encoded with encode_ordinary, so text that spells a special token
// ("<|endoftext|>") is counted as ordinary text, as the OpenAI APIs do for
// user content.
import { readFileSync } from "node:fs";
import { createInterface } from "node:readline";
import { get_encoding } from "tiktoken";

const args = process.argv.slice(2);
let encodings = ["o200k_base", "cl100k_base"];
let jsonl = false;
let bench = 0;
const files = [];
for (let i = 0; i < args.length; i++) {
  const a = args[i];
  if (a === "-e") encodings = args[++i].split(",");
  else if (a === "--jsonl") jsonl = true;
  else if (a === "--bench") bench = Number(args[++i]);
  else files.push(a);
}

const decoder = new TextDecoder("utf-8", { fatal: false, ignoreBOM: true });
const decode = (path) => decoder.decode(readFileSync(path));

const loaded = {};
const loadMs = {};
for (const name of encodings) {
  const t0 = performance.now();
  loaded[name] = get_encoding(name);
  loaded[name].encode_ordinary("warm up");
  loadMs[name] = performance.now() - t0;
}

const counts = (text) => {
  const out = {};
  for (const name of encodings) out[name] = loaded[name].encode_ordinary(text).length;
  return out;
};

if (bench > 0) {
  const text = files.map(decode).join("");
  const bytes = Buffer.byteLength(text, "utf8");
  for (const name of encodings) {
    const enc = loaded[name];
    let tokens = 0;
    let best = Infinity;
    for (let r = 0; r < bench; r++) {
      const t0 = performance.now();
      tokens = enc.encode_ordinary(text).length;
      best = Math.min(best, performance.now() - t0);
    }
    console.log(JSON.stringify({ encoding: name, tokens, bytes, bestMs: best, loadMs: loadMs[name] }));
  }
} else if (jsonl) {
  const rl = createInterface({ input: process.stdin, crlfDelay: Infinity });
  const out = [];
  for await (const line of rl) {
    if (line === "") continue;
    out.push(JSON.stringify({ counts: counts(JSON.parse(line)) }));
  }
  process.stdout.write(out.join("\n") + (out.length ? "\n" : ""));
} else {
  const out = [];
  for (const path of files) out.push(JSON.stringify({ path, counts: counts(decode(path)) }));
  process.stdout.write(out.join("\n") + (out.length ? "\n" : ""));
}
for (const enc of Object.values(loaded)) enc.free();
