// End-to-end test of the extension in real VS Code: installs the .vsix into
// code-server, opens a copy of the sample workspace in headless chromium
// (driven by playwright-core) with acode-lsp on PATH and nothing configured,
// and checks what a user sees: the budget in the status bar, `… tokens` code
// lenses on a Go file, and "Acode: Pack Context…" producing a context whose
// token count fits its budget. Keeps screenshots in --artifacts.
//
// Usage: node out/e2e/vscode.e2e.js --code-server BIN --vsix FILE
//        --server-dir DIR --sample DIR --artifacts DIR [--screenshot PNG]
// Prints "N passed, N failed" and exits non-zero on failure.

import * as cp from 'child_process';
import * as fs from 'fs';
import * as net from 'net';
import * as os from 'os';
import * as path from 'path';
import { chromium, type Browser, type Page } from 'playwright-core';

interface Args {
  codeServer: string;
  vsix: string;
  serverDir: string;
  sample: string;
  artifacts: string;
  screenshot?: string;
  chromium: string;
}

function parseArgs(argv: string[]): Args {
  const get = (name: string): string | undefined => {
    const i = argv.indexOf(`--${name}`);
    return i >= 0 ? argv[i + 1] : undefined;
  };
  const need = (name: string): string => {
    const v = get(name);
    if (!v) {
      throw new Error(`vscode.e2e: missing --${name}`);
    }
    return path.resolve(v);
  };
  return {
    codeServer: need('code-server'),
    vsix: need('vsix'),
    serverDir: need('server-dir'),
    sample: need('sample'),
    artifacts: need('artifacts'),
    screenshot: get('screenshot') ? path.resolve(get('screenshot')!) : undefined,
    chromium: get('chromium') ?? '/usr/bin/chromium',
  };
}

const results: Array<{ name: string; err?: unknown }> = [];

let failureShot: ((file: string) => Promise<unknown>) | undefined;
let artifactsDir = '.';

async function check(name: string, fn: () => Promise<void>): Promise<void> {
  try {
    await fn();
    results.push({ name });
    console.log(`ok   ${name}`);
  } catch (err) {
    results.push({ name, err });
    await failureShot?.(path.join(artifactsDir, `failure-${results.length}.png`)).catch(() => {});
    console.log(`FAIL ${name}\n${err instanceof Error ? err.stack ?? err.message : String(err)}`);
  }
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.listen(0, '127.0.0.1', () => {
      const port = (srv.address() as net.AddressInfo).port;
      srv.close(() => resolve(port));
    });
    srv.on('error', reject);
  });
}

async function waitHealthy(url: string, child: cp.ChildProcess, ms: number): Promise<void> {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) {
      throw new Error(`code-server exited with ${child.exitCode}`);
    }
    try {
      const res = await fetch(url);
      if (res.ok) {
        return;
      }
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`code-server not healthy at ${url} after ${ms} ms`);
}

/** findGoFile returns a .go file of the workspace, relative to it (shortest path first). */
function findGoFiles(root: string): string[] {
  const out: string[] = [];
  const walk = (dir: string): void => {
    for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
      if (e.name.startsWith('.') || e.name === 'node_modules' || e.name === 'vendor') {
        continue;
      }
      const p = path.join(dir, e.name);
      if (e.isDirectory()) {
        walk(p);
      } else if (e.name.endsWith('.go') && !e.name.endsWith('_test.go') && !e.name.includes('.generated.')) {
        out.push(path.relative(root, p));
      }
    }
  };
  walk(root);
  return out.sort((a, b) => a.split(path.sep).length - b.split(path.sep).length || a.localeCompare(b));
}

/** findFiles lists the workspace files with an extension, relative, sorted. */
function findFiles(root: string, ext: string): string[] {
  const out: string[] = [];
  const walk = (dir: string): void => {
    for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
      if (e.name.startsWith('.') || e.name === 'node_modules' || e.name === 'dist') {
        continue;
      }
      const p = path.join(dir, e.name);
      if (e.isDirectory()) {
        walk(p);
      } else if (e.name.endsWith(ext)) {
        out.push(path.relative(root, p));
      }
    }
  };
  walk(root);
  return out.sort();
}

/** importedUse finds the first use of a named import: 1-based line and column. */
function importedUse(text: string): { line: number; col: number; name: string } | undefined {
  const m = /import\s*\{\s*([A-Za-z_$][\w$]*)/.exec(text);
  if (!m) {
    return undefined;
  }
  const name = m[1];
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    if (/^\s*import\b/.test(lines[i])) {
      continue;
    }
    const col = lines[i].search(new RegExp(`\\b${name.replace(/\$/g, '\\$')}\\b`));
    if (col >= 0) {
      return { line: i + 1, col: col + 2, name };
    }
  }
  return undefined;
}

async function gotoLine(page: Page, line: number, col: number): Promise<void> {
  await page.keyboard.press('Control+G');
  const input = page.locator('.quick-input-widget input');
  await input.waitFor({ state: 'visible', timeout: 10000 });
  await input.fill(`:${line}:${col}`);
  // Enter only goes to the line once the widget has taken the value in.
  await page.locator(`.quick-input-widget input[aria-label^="Go to line ${line}"]`).waitFor({ timeout: 10000 });
  for (let i = 0; i < 5 && (await input.isVisible()); i++) {
    await page.keyboard.press('Enter');
    await input.waitFor({ state: 'hidden', timeout: 2000 }).catch(() => {});
  }
  await input.waitFor({ state: 'hidden', timeout: 10000 }); // slow under load
}

async function runCommand(page: Page, title: string): Promise<void> {
  const input = page.locator('.quick-input-widget input');
  // F1 toggles the command palette: pressed while a quick input is still
  // closing it can leave the input hidden (seen under load in CI), so a
  // palette that does not come up is dismissed and asked for again.
  for (let attempt = 1; ; attempt++) {
    await page.keyboard.press('F1');
    try {
      await input.waitFor({ state: 'visible', timeout: 10000 });
      await input.fill(`>${title}`, { timeout: 10000 });
      break;
    } catch (err) {
      if (attempt >= 3) {
        throw err;
      }
      await page.keyboard.press('Escape');
      await page.waitForTimeout(500);
    }
  }
  // Click the command whose label is exactly the title (Enter would run the top match).
  const exact = new RegExp(`^\\s*${title.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(\\s|$)`);
  const row = page.locator('.quick-input-list .monaco-list-row', { has: page.locator('.label-name', { hasText: exact }) });
  await row.first().waitFor({ timeout: 10000 });
  await row.first().click();
}

async function openFile(page: Page, rel: string): Promise<void> {
  await page.keyboard.press('Control+P');
  const input = page.locator('.quick-input-widget input');
  await input.waitFor({ state: 'visible', timeout: 10000 });
  await input.fill(rel);
  const row = page
    .locator('.quick-input-list .monaco-list-row', { hasText: path.basename(rel) })
    .filter({ hasText: path.dirname(rel) === '.' ? '' : path.dirname(rel) })
    .first();
  await row.waitFor({ timeout: 15000 });
  await row.click();
  await page.locator('.tab.active', { hasText: path.basename(rel) }).waitFor({ timeout: 10000 });
}

/** editorText reads the visible lines of the editor whose tab has the given label. */
async function editorText(page: Page, group: number): Promise<string> {
  const lines = page.locator('.editor-group-container').nth(group).locator('.view-lines .view-line');
  const texts = await lines.allInnerTexts();
  // Monaco renders lines absolutely positioned: order them by their top offset.
  const tops = await lines.evaluateAll((els) => els.map((e) => parseFloat((e as HTMLElement).style.top || '0')));
  return texts
    .map((t, i) => ({ t: t.replace(/\u00a0/g, ' '), top: tops[i] }))
    .sort((a, b) => a.top - b.top)
    .map((x) => x.t)
    .join('\n');
}

/**
 * previewText waits for a rendered markdown preview (a webview: frames in
 * frames) whose text contains needle, and returns that text.
 */
async function previewText(page: Page, needle: string | RegExp, ms = 30000): Promise<string> {
  const deadline = Date.now() + ms;
  let seen: string[] = [];
  for (;;) {
    seen = [];
    for (const f of page.frames()) {
      const text = await f.evaluate(() => document.body?.innerText ?? '').catch(() => '');
      if (text !== '') {
        seen.push(text);
      }
      if (typeof needle === 'string' ? text.includes(needle) : needle.test(text)) {
        return text;
      }
    }
    if (Date.now() > deadline) {
      throw new Error(`no preview shows ${String(needle)}; frames show:\n${seen.map((t) => t.slice(0, 300)).join('\n---\n')}`);
    }
    await new Promise((r) => setTimeout(r, 250));
  }
}

/** lensTitles reads the code lens titles of the visible editor. */
async function lensTitles(page: Page): Promise<string[]> {
  return (await page.locator('.codelens-decoration').allInnerTexts()).map((t) => t.replace(/\u00a0/g, ' ').trim());
}

function parseCount(s: string): number {
  const m = /^([\d.]+)([KMG]?)$/.exec(s.trim());
  if (!m) {
    throw new Error(`not a count: ${s}`);
  }
  return parseFloat(m[1]) * ({ '': 1, K: 1e3, M: 1e6, G: 1e9 } as Record<string, number>)[m[2]];
}

/**
 * availableOf reads total_tokens − system_prompt_reserve − response_reserve
 * from a workspace config (docs/design.md defaults for what it leaves out).
 */
function availableOf(configFile: string): number {
  const text = fs.existsSync(configFile) ? fs.readFileSync(configFile, 'utf8') : '';
  const num = (key: string, def: number): number => {
    const m = new RegExp(`^\\s*${key}:\\s*(\\d+)`, 'm').exec(text);
    return m ? Number(m[1]) : def;
  };
  return num('total_tokens', 100000) - num('system_prompt_reserve', 2000) - num('response_reserve', 8000);
}

async function main(): Promise<number> {
  const args = parseArgs(process.argv.slice(2));
  for (const [what, p] of [
    ['code-server', args.codeServer],
    ['vsix', args.vsix],
    ['acode-lsp', path.join(args.serverDir, 'acode-lsp')],
    ['sample workspace', args.sample],
    ['chromium', args.chromium],
  ]) {
    if (!fs.existsSync(p)) {
      throw new Error(`vscode.e2e: ${what} not found at ${p} (run the make target, which installs it)`);
    }
  }
  fs.mkdirSync(args.artifacts, { recursive: true });
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'acode-vscode-e2e-'));
  const ws = path.join(tmp, 'workspace');
  fs.cpSync(args.sample, ws, { recursive: true });
  const userDir = path.join(tmp, 'user');
  const extDir = path.join(tmp, 'exts');
  fs.mkdirSync(path.join(userDir, 'User'), { recursive: true });
  fs.writeFileSync(
    path.join(userDir, 'User', 'settings.json'),
    JSON.stringify(
      {
        'workbench.startupEditor': 'none',
        'workbench.tips.enabled': false,
        'workbench.enableExperiments': false,
        'security.workspace.trust.enabled': false,
        'extensions.autoCheckUpdates': false,
        'extensions.autoUpdate': false,
        'telemetry.telemetryLevel': 'off',
        'update.mode': 'none',
        'git.enabled': false,
        'editor.codeLens': true,
        'workbench.editor.enablePreview': false,
        // One view line per report line, so that the test reads whole lines.
        '[markdown]': { 'editor.wordWrap': 'off' },
        'window.restoreWindows': 'none',
        'workbench.colorTheme': 'Default Dark Modern',
      },
      null,
      2,
    ),
  );
  // Nothing is configured: acode-lsp is found where `go install` puts it,
  // ~/go/bin (code-server's extension host takes PATH from a login shell, so
  // a PATH set here would not reach it).
  const home = path.join(tmp, 'home');
  fs.mkdirSync(path.join(home, 'go', 'bin'), { recursive: true });
  fs.symlinkSync(path.join(args.serverDir, 'acode-lsp'), path.join(home, 'go', 'bin', 'acode-lsp'));
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    HOME: home,
    XDG_CONFIG_HOME: path.join(tmp, 'xdg-config'),
    XDG_DATA_HOME: path.join(tmp, 'xdg-data'),
    XDG_CACHE_HOME: path.join(tmp, 'xdg-cache'),
  };
  const log = fs.openSync(path.join(args.artifacts, 'code-server.log'), 'w');
  const install = cp.spawnSync(
    args.codeServer,
    ['--user-data-dir', userDir, '--extensions-dir', extDir, '--install-extension', args.vsix],
    { env, encoding: 'utf8', timeout: 120000 },
  );
  fs.writeSync(log, `${install.stdout}\n${install.stderr}\n`);
  if (install.status !== 0) {
    throw new Error(`vscode.e2e: installing the extension failed:\n${install.stdout}\n${install.stderr}`);
  }

  const port = await freePort();
  const server = cp.spawn(
    args.codeServer,
    [
      '--auth',
      'none',
      '--bind-addr',
      `127.0.0.1:${port}`,
      '--disable-telemetry',
      '--disable-update-check',
      '--disable-workspace-trust',
      '--disable-getting-started-override',
      '--user-data-dir',
      userDir,
      '--extensions-dir',
      extDir,
      ws,
    ],
    { env, detached: true, stdio: ['ignore', log, log] },
  );
  let browser: Browser | undefined;
  try {
    await waitHealthy(`http://127.0.0.1:${port}/healthz`, server, 60000);
    browser = await chromium.launch({
      executablePath: args.chromium,
      args: [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--no-first-run',
      ],
    });
    const page = await browser.newPage({ viewport: { width: 1400, height: 860 } });
    failureShot = (file) => page.screenshot({ path: file });
    artifactsDir = args.artifacts;
    // The first load of a fresh code-server (a CI machine, a busy one) takes
    // well over playwright's default 30 s to fire "load"; the status bar
    // wait below is what matters.
    await page.goto(`http://127.0.0.1:${port}/?folder=${encodeURIComponent(ws)}`, { waitUntil: 'domcontentloaded', timeout: 120000 });
    await page.locator('#workbench\\.parts\\.statusbar').waitFor({ timeout: 60000 });
    const item = page.locator('[id="acode-lsp.acode.acode.budget"]');

    await check('status bar shows the budget from acode-lsp', async () => {
      await item.waitFor({ timeout: 60000 });
      await page.waitForFunction(
        () => /\/\s*[\d.]+[KMG]?/.test(document.getElementById('acode-lsp.acode.acode.budget')?.innerText ?? ''),
        undefined,
        { timeout: 60000 },
      );
      const text = (await item.innerText()).trim();
      const m = /^≈?([\d.]+[KMG]?)\s*\/\s*([\d.]+[KMG]?)$/.exec(text);
      if (!m) {
        throw new Error(`status bar text ${JSON.stringify(text)} is not "<used> / <available>"`);
      }
      // The sample's .agent/config.yml sets the window and reserves.
      const want = availableOf(path.join(ws, '.agent', 'config.yml'));
      const got = parseCount(m[2]);
      if (Math.abs(got - want) > want * 0.01) {
        throw new Error(`status bar shows ${m[2]} available, the workspace config gives ${want}`);
      }
    });

    await check('clicking the status bar opens the budget report, rendered', async () => {
      await item.click();
      await page.locator('.tab', { hasText: /Preview budget\.md/ }).waitFor({ timeout: 20000 });
      const report = await previewText(page, 'Acode budget');
      // Rendered: no markdown syntax left in the text.
      if (!/Model: [^\n]+ · encoding [a-z0-9_]+ · (exact|estimated) count/.test(report) || report.includes('**')) {
        throw new Error(`the budget report is not rendered markdown with a model line:\n${report}`);
      }
      await runCommand(page, 'View: Close Editor');
    });

    const goFiles = findGoFiles(ws);
    await check('a Go file shows "… tokens" code lenses', async () => {
      if (goFiles.length === 0) {
        throw new Error(`no .go file in ${args.sample}`);
      }
      await openFile(page, goFiles[0]);
      const lenses = page.locator('.codelens-decoration');
      await lenses.filter({ hasText: /tokens/ }).first().waitFor({ timeout: 60000 });
      // The what-if part comes from the background computation, then a refresh.
      await lenses.filter({ hasText: /✓ in context|to fit/ }).first().waitFor({ timeout: 60000 });
      const titles = await lensTitles(page);
      const whatIf = '( · ✓ in context| · \\+[\\d,]+ to fit| · not packed: .+)';
      if (!titles.some((t) => new RegExp(`^≈?[\\d,]+ tokens · [\\d.]+% of budget${whatIf}$`).test(t))) {
        throw new Error(`no "<N> tokens · <P>% of budget · <what-if>" lens among ${JSON.stringify(titles)}`);
      }
      if (!titles.some((t) => new RegExp(`^≈?[\\d,]+ tokens${whatIf}$`).test(t))) {
        throw new Error(`no per-symbol "<N> tokens · <what-if>" lens among ${JSON.stringify(titles)}`);
      }
      // The status bar follows the open file.
      await page.waitForFunction(
        () => !/^\s*≈?0\s*\//.test(document.getElementById('acode-lsp.acode.acode.budget')?.innerText ?? ''),
        undefined,
        { timeout: 30000 },
      );
    });
    await page.screenshot({ path: path.join(args.artifacts, 'vscode-lenses.png') });

    await check('clicking a "✓ in context" lens shows its chunk report', async () => {
      await page.locator('.codelens-decoration a', { hasText: /✓ in context/ }).first().click();
      await page.locator('.tab', { hasText: /Preview chunk-report\.md/ }).waitFor({ timeout: 20000 });
      const text = await previewText(page, /What if: ✓ in context/);
      if (!/Tokens: [\d,]+/.test(text)) {
        throw new Error(`chunk report without tokens:\n${text}`);
      }
      await runCommand(page, 'View: Close Editor');
    });

    await check('"Acode: Count Tokens in Selection" counts with the server\'s tokenizer', async () => {
      await page.locator('.monaco-editor .view-lines').first().click();
      await page.keyboard.press('Control+A');
      await runCommand(page, 'Acode: Count Tokens in Selection');
      const toast = page.locator('.notifications-toasts', { hasText: /Acode: Selection: ≈?[\d,]+ tokens \([a-z0-9_]+, (exact|estimated)\)/ });
      await toast.waitFor({ timeout: 20000 });
      const text = await toast.innerText();
      const n = Number(/Selection: ≈?([\d,]+) tokens/.exec(text)?.[1].replace(/,/g, ''));
      if (!(n > 0)) {
        throw new Error(`no token count in ${JSON.stringify(text)}`);
      }
      await page.keyboard.press('Escape');
    });

    // The other language server: VS Code's built-in TypeScript support. With
    // the cursor on a symbol defined in another file, the pack gathers its
    // definition and references through vscode.executeDefinitionProvider.
    const tsFile = findFiles(ws, '.ts').find((f) => /import .* from/.test(fs.readFileSync(path.join(ws, f), 'utf8')));
    let tsTarget: { line: number; col: number; name: string } | undefined;
    if (tsFile) {
      tsTarget = importedUse(fs.readFileSync(path.join(ws, tsFile), 'utf8'));
    }
    await check('the TypeScript language server answers definitions (the pack\'s other server)', async () => {
      if (!tsFile || !tsTarget) {
        throw new Error(`no .ts file using an imported symbol in ${args.sample}`);
      }
      await openFile(page, tsFile);
      await gotoLine(page, tsTarget.line, tsTarget.col);
      // tsserver starts lazily: peek the definition until it shows the other file.
      const deadline = Date.now() + 60000;
      for (;;) {
        // The command only shows once the TypeScript extension has registered its provider.
        const ran = await runCommand(page, 'Peek Definition').then(() => true, () => false);
        const peeked = ran && await page
          .locator('.peekview-widget', { hasText: /\.ts\b/ })
          .first()
          .waitFor({ timeout: 3000 })
          .then(() => true, () => false);
        await page.keyboard.press('Escape');
        if (peeked) {
          break;
        }
        if (Date.now() > deadline) {
          throw new Error(`no definition peeked from ${tsFile}:${tsTarget.line}:${tsTarget.col}`);
        }
      }
      await page.locator('.peekview-widget').first().waitFor({ state: 'hidden', timeout: 10000 });
      await page.locator('.tab.active', { hasText: path.basename(tsFile) }).waitFor({ timeout: 10000 });
    });

    await check('"Acode: Pack Context…" opens a context that fits, with its report', async () => {
      await runCommand(page, 'Acode: Pack Context…');
      const input = page.locator('.quick-input-widget input');
      await page.locator('.quick-input-widget', { hasText: 'Describe the task' }).waitFor({ timeout: 10000 });
      await input.fill('how are token budgets computed');
      await page.keyboard.press('Enter');
      await page.locator('.quick-input-list .monaco-list-row', { hasText: 'No tool output' }).waitFor({ timeout: 10000 });
      await input.fill('No tool output');
      await page.keyboard.press('Enter');
      // The budget of this pack: a preset smaller than the window.
      await page.locator('.quick-input-widget', { hasText: 'budget for this context' }).waitFor({ timeout: 10000 });
      // Exactly "2,000 tokens" (the window's row may read "12,000 tokens").
      await page
        .locator('.quick-input-list .monaco-list-row', { has: page.locator('.label-name', { hasText: /^\s*2,000 tokens\s*$/ }) })
        .first()
        .click();
      await page.locator('.tab', { hasText: /Preview context-report\.md/ }).waitFor({ timeout: 60000 });
      await page.locator('.tab', { hasText: 'context.md' }).first().waitFor({ timeout: 10000 });
      const report = await previewText(page, 'Acode context report');
      const m = /Tokens: ([\d,]+) of ([\d,]+) available — (fits|DOES NOT FIT)/.exec(report);
      if (!m) {
        throw new Error(`no token line in the report:\n${report}`);
      }
      const used = Number(m[1].replace(/,/g, ''));
      const available = Number(m[2].replace(/,/g, ''));
      if (!(used > 0 && used <= available && m[3] === 'fits' && available === 2000)) {
        throw new Error(`packed ${used} tokens for ${available} available (${m[3]}); the pick was 2,000`);
      }
      if (tsTarget && !/Included: .*\breference [1-9]/.test(report)) {
        throw new Error(`no reference source (definition of ${tsTarget.name}) included:\n${report}`);
      }
      const context = await editorText(page, 0);
      if (!/^## (File|Tool): /m.test(context)) {
        throw new Error(`the context document has no "## File:" section:\n${context.slice(0, 2000)}`);
      }
      await page.locator('.notifications-toasts', { hasText: /Packed [\d,]+ tokens — fits/ }).waitFor({ timeout: 10000 });
    });
    // The pack beside its rendered report, without the toast over the table.
    await runCommand(page, 'Notifications: Clear All Notifications').catch(() => {});
    await page.keyboard.press('Escape');
    await page.screenshot({ path: path.join(args.artifacts, 'vscode-pack.png') });

    await check('a "+N to fit" lens pins its chunk for the next pack', async () => {
      // A window that leaves 300 tokens: most chunks no longer fit (the
      // server reloads the workspace config when it changes).
      const configFile = path.join(ws, '.agent', 'config.yml');
      const config = fs.readFileSync(configFile, 'utf8');
      fs.writeFileSync(configFile, config.replace(/total_tokens: \d+/, 'total_tokens: 4300'));
      await page.keyboard.press('Escape');
      await runCommand(page, 'View: Close All Editor Groups');
      const goFile = goFiles.find((f) => f.includes('service')) ?? goFiles[0];
      await openFile(page, goFile);
      // The file's lens, on line 1 (always in view): the whole file no longer fits.
      const lens = page
        .locator('.codelens-decoration a', { hasText: /^≈?[\d,]+ tokens · [\d.]+% of budget · \+[\d,]+ to fit$/ })
        .first();
      await lens.waitFor({ timeout: 60000 });
      await lens.click();
      const toast = page.locator('.notifications-toasts', { hasText: /pinned .*the next pack sends it as a reference/ });
      await toast.waitFor({ timeout: 20000 });
      await toast.locator('a.monaco-button', { hasText: 'Pack Now' }).first().click();
      const input = page.locator('.quick-input-widget input');
      await page.locator('.quick-input-widget', { hasText: 'Describe the task' }).waitFor({ timeout: 10000 });
      await input.fill('checkout');
      await page.keyboard.press('Enter');
      await page.locator('.quick-input-list .monaco-list-row', { hasText: 'No tool output' }).waitFor({ timeout: 10000 });
      await input.fill('No tool output');
      await page.keyboard.press('Enter');
      await page.locator('.quick-input-widget', { hasText: 'budget for this context' }).waitFor({ timeout: 10000 });
      await page.locator('.quick-input-list .monaco-list-row', { hasText: 'Custom' }).first().click();
      await page.locator('.quick-input-widget', { hasText: 'Tokens the packed context may take' }).waitFor({ timeout: 10000 });
      await input.fill('8k');
      await page.keyboard.press('Enter');
      const report = await previewText(page, /Tokens: [\d,]+ of 8,000 available/, 60000);
      // The pinned chunk was sent as a reference: included as one, or merged
      // into the open editor's chunk of the same lines (then listed as merged).
      const rel = goFile.split(path.sep).join('/');
      if (!new RegExp(`reference\\s+${rel.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\s`).test(report)) {
        throw new Error(`the pinned chunk of ${rel} is not a reference of the pack:\n${report}`);
      }
      fs.writeFileSync(configFile, config);
    });

    await check('the "Acode" output shows the server\'s log for people, not JSON lines', async () => {
      await runCommand(page, 'Output: Show Output Channels...');
      const input = page.locator('.quick-input-widget input');
      await input.waitFor({ state: 'visible', timeout: 10000 });
      await input.fill('Acode');
      await page
        .locator('.quick-input-list .monaco-list-row', { has: page.locator('.label-name', { hasText: /^\s*Acode\s*$/ }) })
        .first()
        .click();
      const panel = page.locator('.part.panel .view-lines');
      await panel.locator('.view-line', { hasText: /info\s+initialize/ }).first().waitFor({ timeout: 20000 });
      const text = (await panel.first().innerText()).replace(/\u00a0/g, ' ');
      if (/^\s*\{"level"/m.test(text)) {
        throw new Error(`JSON log lines in the Acode output:\n${text.slice(0, 2000)}`);
      }
      if (!/^\d\d:\d\d:\d\d info\s+configuration applied — /m.test(text)) {
        throw new Error(`no readable "configuration applied" line in the Acode output:\n${text.slice(0, 2000)}`);
      }
      await runCommand(page, 'View: Hide Panel');
    });

    // The picture for the docs: the Go file with its lenses, and the budget.
    await page.keyboard.press('Escape');
    await runCommand(page, 'View: Close All Editor Groups');
    await page.locator('.tab').first().waitFor({ state: 'detached', timeout: 10000 });
    await openFile(page, goFiles.find((f) => f.includes('service')) ?? goFiles[0] ?? '');
    await page.locator('.codelens-decoration', { hasText: /tokens/ }).first().waitFor({ timeout: 30000 });
    await item.hover();
    await page.locator('.monaco-hover, .workbench-hover', { hasText: 'Acode context budget' }).first().waitFor({ timeout: 10000 }).catch(() => {});
    const shot = path.join(args.artifacts, 'vscode.png');
    await page.screenshot({ path: shot });
    if (args.screenshot) {
      fs.mkdirSync(path.dirname(args.screenshot), { recursive: true });
      fs.copyFileSync(shot, args.screenshot);
      // The pack beside its rendered report, next to it.
      fs.copyFileSync(path.join(args.artifacts, 'vscode-pack.png'), path.join(path.dirname(args.screenshot), 'vscode-pack.png'));
    }
  } catch (err) {
    const pages = browser?.contexts().flatMap((c) => c.pages()) ?? [];
    await pages[0]?.screenshot({ path: path.join(args.artifacts, 'vscode-failure.png') }).catch(() => {});
    throw err;
  } finally {
    await browser?.close().catch(() => {});
    try {
      if (server.pid) {
        process.kill(-server.pid, 'SIGTERM');
      }
    } catch {
      // already gone
    }
    fs.closeSync(log);
    fs.rmSync(tmp, { recursive: true, force: true });
  }
  const failed = results.filter((r) => r.err !== undefined).length;
  console.log(`${results.length - failed} passed, ${failed} failed`);
  return failed === 0 ? 0 : 1;
}

main().then(
  (code) => process.exit(code),
  (err) => {
    console.error(err instanceof Error ? err.stack ?? err.message : String(err));
    console.log(`${results.filter((r) => !r.err).length} passed, ${results.filter((r) => r.err).length + 1} failed`);
    process.exit(1);
  },
);
