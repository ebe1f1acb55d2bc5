// ansi2png.js renders a terminal capture (tmux capture-pane -e -p: text with
// SGR colour codes) as HTML and screenshots it with Debian's chromium
// through playwright-core (from editors/vscode/node_modules).
//
// Usage: node ansi2png.js CAPTURE.ansi OUT.png [COLUMNS]
'use strict';

const fs = require('fs');
const path = require('path');
const { chromium } = require(path.join(__dirname, '..', 'vscode', 'node_modules', 'playwright-core'));

const base16 = [
  '#1e1e2e', '#f38ba8', '#a6e3a1', '#f9e2af', '#89b4fa', '#f5c2e7', '#94e2d5', '#bac2de',
  '#585b70', '#f38ba8', '#a6e3a1', '#f9e2af', '#89b4fa', '#f5c2e7', '#94e2d5', '#a6adc8',
];

function color256(n) {
  if (n < 16) {
    return base16[n];
  }
  if (n < 232) {
    const v = [0, 95, 135, 175, 215, 255];
    const i = n - 16;
    return `rgb(${v[Math.floor(i / 36)]},${v[Math.floor(i / 6) % 6]},${v[i % 6]})`;
  }
  const g = 8 + (n - 232) * 10;
  return `rgb(${g},${g},${g})`;
}

function escapeHtml(s) {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

// toHtml turns SGR-coloured lines into spans.
function toHtml(text) {
  let st = { fg: null, bg: null, bold: false, italic: false, underline: false, reverse: false };
  const out = [];
  const re = /\x1b\[([\d;:]*)m/g;
  for (const line of text.replace(/\n$/, '').split('\n')) {
    let html = '';
    let last = 0;
    const emit = (s) => {
      if (s === '') {
        return;
      }
      let fg = st.fg;
      let bg = st.bg;
      if (st.reverse) {
        [fg, bg] = [bg || '#1e1e2e', fg || '#cdd6f4'];
      }
      const css = [];
      if (fg) css.push(`color:${fg}`);
      if (bg) css.push(`background:${bg}`);
      if (st.bold) css.push('font-weight:bold');
      if (st.italic) css.push('font-style:italic');
      if (st.underline) css.push('text-decoration:underline');
      html += css.length ? `<span style="${css.join(';')}">${escapeHtml(s)}</span>` : escapeHtml(s);
    };
    let m;
    re.lastIndex = 0;
    while ((m = re.exec(line))) {
      emit(line.slice(last, m.index));
      last = re.lastIndex;
      const p = m[1] === '' ? [0] : m[1].split(/[;:]/).map(Number);
      for (let i = 0; i < p.length; i++) {
        const c = p[i];
        if (c === 0) st = { fg: null, bg: null, bold: false, italic: false, underline: false, reverse: false };
        else if (c === 1) st.bold = true;
        else if (c === 3) st.italic = true;
        else if (c === 4) st.underline = true;
        else if (c === 7) st.reverse = true;
        else if (c === 22) st.bold = false;
        else if (c === 23) st.italic = false;
        else if (c === 24) st.underline = false;
        else if (c === 27) st.reverse = false;
        else if (c >= 30 && c <= 37) st.fg = base16[c - 30];
        else if (c >= 90 && c <= 97) st.fg = base16[c - 90 + 8];
        else if (c >= 40 && c <= 47) st.bg = base16[c - 40];
        else if (c >= 100 && c <= 107) st.bg = base16[c - 100 + 8];
        else if (c === 39) st.fg = null;
        else if (c === 49) st.bg = null;
        else if ((c === 38 || c === 48) && p[i + 1] === 5) {
          st[c === 38 ? 'fg' : 'bg'] = color256(p[i + 2]);
          i += 2;
        } else if ((c === 38 || c === 48) && p[i + 1] === 2) {
          st[c === 38 ? 'fg' : 'bg'] = `rgb(${p[i + 2]},${p[i + 3]},${p[i + 4]})`;
          i += 4;
        }
      }
    }
    emit(line.slice(last));
    out.push(html || ' ');
  }
  return out.join('\n');
}

async function main() {
  const [capture, png, cols = '160'] = process.argv.slice(2);
  if (!capture || !png) {
    throw new Error('usage: node ansi2png.js CAPTURE.ansi OUT.png [COLUMNS]');
  }
  const body = toHtml(fs.readFileSync(capture, 'utf8'));
  const page = `<!doctype html><meta charset="utf-8"><style>
    body { margin: 0; background: #1e1e2e; }
    pre { margin: 0; padding: 10px; color: #cdd6f4; background: #1e1e2e;
          font: 14px/1.3 "DejaVu Sans Mono", "Liberation Mono", monospace; width: ${Number(cols)}ch; }
  </style><pre>${body}</pre>`;
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--no-first-run'],
  });
  try {
    const p = await browser.newPage({ viewport: { width: 800, height: 400 } });
    await p.setContent(page);
    await p.locator('pre').screenshot({ path: png });
  } finally {
    await browser.close();
  }
}

main().catch((err) => {
  console.error(err instanceof Error ? err.message : String(err));
  process.exit(1);
});
