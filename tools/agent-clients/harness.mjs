// harness.mjs holds what the agent-client tests share: the paths of the
// binaries, OpenAI's tiktoken core for recounting, a bounded way to run a
// client in its own process group, a private HOME, a copy of the sample
// workspace, and a proxy on 127.0.0.1 that stands for "offline".
import { spawn, execFileSync } from "node:child_process";
import { cpSync, existsSync, mkdtempSync, mkdirSync, readFileSync, realpathSync } from "node:fs";
import { createServer } from "node:net";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

export const here = dirname(fileURLToPath(import.meta.url));
export const repo = resolve(here, "../..");
export const bin = resolve(process.env.ACODE_BIN ?? join(repo, "bin/acode-lsp"));
export const claudeBin = join(here, "node_modules/.bin/claude");
export const inspectorBin = join(here, "node_modules/.bin/mcp-inspector");
export const codexBin = join(here, "node_modules/.bin/codex");

// OpenAI's tiktoken core, installed once for the repository in
// tools/tiktoken-ref (make tokenizer-ref).
const { get_encoding } = createRequire(join(repo, "tools/tiktoken-ref/package.json"))("tiktoken");
const o200k = get_encoding("o200k_base");
/** count is the o200k_base token count of text, by tiktoken. */
export const count = (text) => o200k.encode_ordinary(text).length;

/** netHTTP is GOROOT's src/net/http, used read-only as a real workspace. */
export function netHTTP() {
  if (process.env.ACODE_NET_HTTP) return process.env.ACODE_NET_HTTP;
  const goroot = execFileSync("go", ["env", "GOROOT"], { encoding: "utf8" }).trim();
  return join(goroot, "src/net/http");
}

/**
 * packCases are the workspaces the agents pack, each with a question as a
 * user would type it, the query the scripted model sends, and a line of code
 * the answer cannot do without (the function the question is about) with
 * the file that holds it. root(dir) gives the workspace (a copy under dir, or
 * a read-only tree).
 */
export const packCases = [
  {
    name: "testdata/sample",
    root: (dir) => copySample(dir),
    prompt: "Why does checkout fail for an empty cart?",
    query: "why does checkout fail for empty carts",
    file: "cart/service.go",
    mustShow: "func (s *CheckoutService) Checkout(ctx context.Context, c *Cart) (*Order, error) {",
  },
  {
    name: "GOROOT/src/net/http",
    root: () => netHTTP(),
    prompt: "Fix the Transport retry of requests on reused connections.",
    query:
      "net/http: Transport should retry a request on a reused keep-alive connection the server closed; when does shouldRetryRequest allow the retry",
    file: "transport.go",
    mustShow: "func (pc *persistConn) shouldRetryRequest(req *Request, err error) bool {",
  },
];

/**
 * checkPackedCode asserts that text — what a model was given of a
 * pack_context result — is packed code of root, not a JSON document: it has
 * `## File:` sections naming files of the workspace, shows c.mustShow, and
 * costs at most budget + 40 o200k tokens (the summary line). It returns the
 * token count and the number of files.
 */
export function checkPackedCode(assert, text, root, c, budget) {
  assert.ok(!/^\s*[{[]/.test(text), `the model got JSON, not code: ${text.slice(0, 300)}`);
  assert.throws(() => JSON.parse(text), "the model got a JSON document");
  assert.ok(text.includes(c.mustShow), `the model did not see ${c.mustShow}; it got: ${text.slice(0, 400)}`);
  const headers = [...text.matchAll(/^## File: (\S+)/gm)].map((m) => m[1]);
  assert.ok(headers.length > 0, "no `## File:` section");
  for (const p of headers) assert.ok(existsSync(join(root, p)), `the context names ${p}, not a file of the workspace`);
  assert.ok(
    headers.some((p) => readFileSync(join(root, p), "utf8").includes(c.mustShow)),
    `no packed file holds ${c.mustShow}`,
  );
  const tokens = count(text);
  assert.ok(tokens <= budget + 40, `${tokens} tokens > budget ${budget} + 40`);
  return { tokens, files: headers.length };
}

/** scratch makes a fresh temporary folder (real path: macOS /tmp is a link). */
export function scratch(prefix) {
  return realpathSync(mkdtempSync(join(tmpdir(), prefix)));
}

/** copySample copies testdata/sample into dir/sample and returns its path. */
export function copySample(dir) {
  const dst = join(dir, "sample");
  cpSync(join(repo, "testdata/sample"), dst, { recursive: true });
  return dst;
}

/**
 * privateHome makes an empty HOME (with its XDG folders) under dir: nothing
 * of the user's configuration is read, the index cache of acode-lsp and
 * everything Claude Code writes stay there.
 */
export function privateHome(dir) {
  const home = join(dir, "home");
  for (const d of [".cache", ".config", ".local/share"]) mkdirSync(join(home, d), { recursive: true });
  return {
    HOME: home,
    XDG_CACHE_HOME: join(home, ".cache"),
    XDG_CONFIG_HOME: join(home, ".config"),
    XDG_DATA_HOME: join(home, ".local/share"),
  };
}

/**
 * run starts cmd in its own process group with exactly env (plus PATH) and
 * resolves to {code, signal, stdout, stderr, ms, timedOut}. After timeoutMs
 * the whole group is killed (SIGTERM, then SIGKILL), so no client, MCP
 * server or helper outlives a test.
 */
export function run(cmd, args, { env = {}, cwd, timeoutMs = 90_000 } = {}) {
  return new Promise((resolvePromise, reject) => {
    const t0 = Date.now();
    const child = spawn(cmd, args, {
      cwd,
      env: { PATH: process.env.PATH, ...env },
      stdio: ["ignore", "pipe", "pipe"],
      detached: true,
    });
    let stdout = "";
    let stderr = "";
    let timedOut = false;
    child.stdout.on("data", (d) => (stdout += d));
    child.stderr.on("data", (d) => (stderr += d));
    const killGroup = (sig) => {
      try {
        process.kill(-child.pid, sig);
      } catch {
        /* already gone */
      }
    };
    const timer = setTimeout(() => {
      timedOut = true;
      killGroup("SIGTERM");
      setTimeout(() => killGroup("SIGKILL"), 3000).unref();
    }, timeoutMs);
    child.on("error", (err) => {
      clearTimeout(timer);
      reject(err);
    });
    child.on("close", (code, signal) => {
      clearTimeout(timer);
      // The client is done: whatever it left behind in its group goes too.
      killGroup("SIGKILL");
      resolvePromise({ code, signal, stdout, stderr, ms: Date.now() - t0, timedOut });
    });
  });
}

/**
 * startOfflineProxy starts an HTTP(S) proxy on 127.0.0.1 that forwards
 * nothing: every request or CONNECT is recorded (its host) and then left
 * hanging, as a network without a route does. A client pointed at it with
 * HTTPS_PROXY/HTTP_PROXY (NO_PROXY=127.0.0.1) shows whether it tries the
 * internet and whether it finishes when nothing answers.
 */
export async function startOfflineProxy() {
  const attempts = [];
  const sockets = new Set();
  const server = createServer((sock) => {
    sockets.add(sock);
    sock.on("close", () => sockets.delete(sock));
    sock.on("error", () => {});
    let head = "";
    sock.on("data", (d) => {
      if (head.includes("\r\n")) return;
      head += d.toString("latin1");
      const line = head.split("\r\n")[0];
      if (head.includes("\r\n")) attempts.push(line.split(" ").slice(0, 2).join(" "));
    });
  });
  await new Promise((r, j) => {
    server.once("error", j);
    server.listen(0, "127.0.0.1", r);
  });
  return {
    url: `http://127.0.0.1:${server.address().port}`,
    attempts,
    close: () =>
      new Promise((r) => {
        for (const s of sockets) s.destroy();
        server.close(() => r());
      }),
  };
}

