-- Unit tests of acode.nvim's pure logic and of setup() without a server.
-- Run: nvim --headless -u NONE -l editors/neovim/tests/unit_spec.lua
local t = dofile(vim.fn.fnamemodify(debug.getinfo(1, 'S').source:sub(2), ':p:h') .. '/harness.lua')
t.use_plugin()

local status = require('acode.status')
local report = require('acode.report')
local sources = require('acode.sources')
local config = require('acode.config')

local base = {
  model = 'gpt-4o',
  encoding = 'o200k_base',
  exact = true,
  total = 100000,
  available = 90000,
  used = 12345,
  percent = 13.7,
  level = 'normal',
  openFiles = 3,
}

for _, c in ipairs({
  { 0, '0' },
  { 999, '999' },
  { 1000, '1K' },
  { 1099, '1K' },
  { 1100, '1.1K' },
  { 12345, '12.3K' },
  { 90000, '90K' },
  { 99960, '99.9K' },
  { 128000, '128K' },
  { 1250000, '1.2M' },
  { -1500, '-1.5K' },
  { 0 / 0, '?' },
}) do
  t.run('format_count ' .. tostring(c[1]), function()
    t.eq(c[2], status.format_count(c[1]))
  end)
end

for _, c in ipairs({
  { name = 'normal', s = {}, want = 'acode 12.3K/90K 14%' },
  { name = 'estimated', s = { exact = false }, want = 'acode ≈12.3K/90K 14%' },
  { name = 'warning', s = { used = 73000, percent = 81.1, level = 'warning' }, want = 'acode 73K/90K 81% warning' },
  { name = 'critical', s = { used = 88000, percent = 97.8, level = 'critical' }, want = 'acode 88K/90K 98% critical' },
}) do
  t.run('status.text ' .. c.name, function()
    t.eq(c.want, status.text(vim.tbl_extend('force', base, c.s), 'acode'))
  end)
end

t.run('status.highlight', function()
  t.eq(
    { 'AcodeBudgetNormal', 'AcodeBudgetWarning', 'AcodeBudgetCritical', 'AcodeBudgetNormal' },
    { status.highlight('normal'), status.highlight('warning'), status.highlight('critical'), status.highlight('?') }
  )
end)

for _, c in ipairs({ { 0, '0' }, { 999, '999' }, { 1000, '1,000' }, { 1234567, '1,234,567' }, { -12345, '-12,345' } }) do
  t.run('report.number ' .. c[1], function()
    t.eq(c[2], report.number(c[1]))
  end)
end

local result = {
  content = '## File: a.go (lines 1-3)\n```go\npackage a\n```\n',
  tokenCount = 11873,
  model = 'gpt-4o',
  encoding = 'o200k_base',
  exact = true,
  budget = {
    total = 16000,
    systemReserve = 1000,
    responseReserve = 3000,
    available = 12000,
    categories = { tool_results = { allocated = 4800, used = 4700 }, open_files = { allocated = 3600, used = 0 } },
  },
  included = { { type = 'reference', path = 'cart/service.go', startLine = 10, endLine = 41, tokens = 512, score = 0.834 } },
  excluded = {
    { type = 'open_file', path = '.env', reason = 'secret' },
    { type = 'search_result', path = 'a|b.go', startLine = 1, endLine = 80, tokens = 900, score = 0.31, reason = 'over_budget' },
  },
  dedup = { exactRemoved = 2, overlapsMerged = 1, tokensSaved = 830 },
  warnings = { 'model `x` unknown' },
}

t.run('report.pack_report lines', function()
  local lines = report.pack_report(result, 'why does checkout fail')
  local want = {
    '**Task:** `why does checkout fail`',
    '**Tokens:** 11,873 of 12,000 available — fits',
    '**Included:** 1 chunk — reference 1',
    '**Left out:** 2 chunks — over_budget 1, secret 1',
    '**Model:** `gpt-4o` · encoding `o200k_base` · exact count',
    '| open_files | 3,600 | 0 |',
    '| tool_results | 4,800 | 4,700 |',
    '## Included (1)',
    '| reference | cart/service.go | 10–41 | 512 | 0.83 |',
    '## Left out (2)',
    '### over_budget (1, 900 tokens)',
    '| search_result | a\\|b.go | 1–80 | 900 | 0.31 |',
    '### secret (1)',
    '| open_file | .env |  |  |  |',
    '2 exact duplicates removed, 1 overlaps merged, 830 tokens saved.',
    '- ``model `x` unknown``',
  }
  for _, line in ipairs(want) do
    t.truthy(vim.tbl_contains(lines, line), ('report lacks %q:\n%s'):format(line, table.concat(lines, '\n')))
  end
end)

for _, c in ipairs({
  { name = 'fits', r = {}, fits = true, summary = 'packed 11,873 tokens — fits the 12,000 available (1 chunks included, 2 left out)' },
  { name = 'full, estimated', r = { tokenCount = 12000, exact = false }, fits = true, summary = 'packed ≈12,000 tokens — fits the 12,000 available (1 chunks included, 2 left out)' },
  { name = 'over', r = { tokenCount = 12001 }, fits = false, summary = 'packed 12,001 tokens — DOES NOT FIT the 12,000 available (1 chunks included, 2 left out)' },
}) do
  t.run('report.summary ' .. c.name, function()
    local r = vim.tbl_extend('force', result, c.r)
    t.eq(c.fits, report.fits(r), 'fits')
    t.eq(c.summary, report.summary(r), 'summary')
  end)
end

t.run('report.budget_report', function()
  local s = vim.tbl_extend('force', base, { level = 'warning', exact = false, percent = 90 })
  local without = table.concat(report.budget_report(s), '\n')
  -- The thresholds are configurable: without them in the status the label says the use.
  t.contains(without, '**Level:** warning (90.0 % used)')
  t.contains(without, '**Open files:** 3 using 12,345 of 90,000 available tokens (90.0 %)')
  t.contains(without, 'estimated count')
  t.contains(without, 'No context packed yet')
  local with = table.concat(report.budget_report(s, { result = result, query = 'q' }), '\n')
  t.contains(with, '# Last packed context')
end)

t.run('report.level_label', function()
  local th = { warningPercent = 60, criticalPercent = 75, minRemainingTokens = 5000 }
  t.eq('normal', report.level_label({ level = 'normal', percent = 10 }))
  t.eq('warning (82.3 % used)', report.level_label({ level = 'warning', percent = 82.34 }))
  t.eq('warning (60–75 % used, or under 5,000 tokens left)', report.level_label({ level = 'warning', percent = 61, thresholds = th }))
  t.eq('critical (over 75 % used)', report.level_label({ level = 'critical', percent = 80, thresholds = th }))
end)

t.run('async.error_text names the ACODE code and its meaning', function()
  local async = require('acode.async')
  t.eq('boom', async.error_text('boom'))
  t.eq('no content (ACODE-CTX-004: nothing to pack)', async.error_text({ message = 'no content', data = { code = 'ACODE-CTX-004' } }))
  t.eq('x (ACODE-NEW-009)', async.error_text({ message = 'x', data = { code = 'ACODE-NEW-009' } }))
  t.eq('bad (ACODE-CFG-001)', async.error_text({ message = 'bad (ACODE-CFG-001)', data = { code = 'ACODE-CFG-001' } }))
end)

t.run('pack.parse_budget and split_budget', function()
  local pack = require('acode.pack')
  for text, want in pairs({ ['8000'] = 8000, ['8,000'] = 8000, ['8k'] = 8000, ['8K'] = 8000, ['1.5m'] = 1500000, [' 12k '] = 12000 }) do
    t.eq(want, pack.parse_budget(text), text)
  end
  for _, text in ipairs({ '', '0', '-5', 'lots', '8kb', '1e9' }) do
    local n, err = pack.parse_budget(text)
    t.eq(nil, n, text)
    t.truthy(err and err:match('token'), 'no error for ' .. text)
  end
  local cases = {
    { '8k why does checkout fail', 8000, 'why does checkout fail' },
    { '20000 explain', 20000, 'explain' },
    { '2 bugs in checkout', nil, '2 bugs in checkout' },
    { 'why does it fail', nil, 'why does it fail' },
    { '1.5k', 1500, '' },
    { '', nil, '' },
  }
  for _, c in ipairs(cases) do
    local b, q = pack.split_budget(c[1])
    t.eq({ c[2], c[3] }, { b, q }, c[1])
  end
  t.eq({ totalTokens = 8000, systemReserve = 0, responseReserve = 0 }, pack.pack_budget(8000))
end)

t.run('config.check_settings names unknown settings and wrong types from the generated table', function()
  t.eq({}, config.check_settings({ model = 'gpt-4', encoding = 'gemma3', budget = { totalTokens = 16000, categories = { open_files = 100 } }, exclude = { 'x' } }))
  local got = config.check_settings({ modle = 'x', budget = { total = 1, totalTokens = 'lots' }, encoding = 'o300k' })
  t.eq(4, #got, vim.inspect(got))
  t.truthy(got[1]:match('^settings%.budget%.total is not a setting'), got[1])
  t.truthy(got[2]:match('^settings%.budget%.totalTokens must be an integer, got string'), got[2])
  t.truthy(got[3]:match('^settings%.encoding = "o300k" is not one of o200k_base, .*gemma3'), got[3])
  t.truthy(got[4]:match('^settings%.modle is not a setting'), got[4])
  t.eq(
    { 'settings.budget.categories.open_file is not one of tool_results, open_files, search_results, references', 'settings.budget.totalTokens = 0 must be at least 1' },
    config.check_settings({ budget = { totalTokens = 0, categories = { open_file = 100 } } })
  )
end)

t.run('report.budget_report with an estimate says what it is and how to calibrate it', function()
  t.eq(nil, table.concat(report.budget_report(base), '\n'):find('Estimate', 1, true), 'exact: no estimate line')
  local s = vim.tbl_extend('force', base, {
    exact = false,
    model = 'claude-sonnet-4-5',
    estimate = { basis = 'o200k_base', factor = 1.25, calibrated = false, samples = 0 },
  })
  local text = table.concat(report.budget_report(s), '\n')
  t.contains(text, '**Estimate:** upper bound: o200k_base × 1.25, not calibrated (0 samples). To calibrate it, run :AcodeReportUsage {tokens}')
end)

local calibrate = require('acode.calibrate')

for _, c in ipairs({
  { name = 'exact', s = { exact = true }, want = nil },
  { name = 'older server', s = { exact = false }, want = 'estimated count' },
  {
    name = 'not calibrated',
    s = { exact = false, estimate = { basis = 'o200k_base', factor = 1.25, calibrated = false, samples = 0 } },
    want = 'estimated upper bound: o200k_base × 1.25, not calibrated (0 samples)',
  },
  {
    name = 'calibrated',
    s = { exact = false, estimate = { basis = 'o200k_base', factor = 1.43725, calibrated = true, samples = 1 } },
    want = 'estimated upper bound: o200k_base × 1.437, calibrated (1 sample)',
  },
  {
    name = 'round factor',
    s = { exact = false, estimate = { basis = 'o200k_base', factor = 2, calibrated = true, samples = 6 } },
    want = 'estimated upper bound: o200k_base × 2, calibrated (6 samples)',
  },
}) do
  t.run('calibrate.estimate_text ' .. c.name, function()
    t.eq(c.want, calibrate.estimate_text(c.s))
  end)
end

t.run('require("acode").estimate() reads the current status', function()
  status.update(4242, vim.tbl_extend('force', base, {
    exact = false,
    estimate = { basis = 'o200k_base', factor = 1.55, calibrated = false, samples = 0 },
  }))
  t.eq('estimated upper bound: o200k_base × 1.55, not calibrated (0 samples)', require('acode').estimate())
  t.contains(require('acode').statusline(), '≈12.3K/90K')
  status.update(4242, base)
  t.eq(nil, require('acode').estimate())
  status.forget(4242)
end)

for _, c in ipairs({
  { '12345', 12345 },
  { ' 12,345 ', 12345 },
  { '1 234 567', 1234567 },
  { '12_000', 12000 },
  { '', nil, 'give the input token count' },
  { '12k', nil, 'not 12k' },
  { '-5', nil, 'not a whole number' },
  { '1.5', nil, 'not a whole number' },
  { '0', nil, 'positive' },
}) do
  t.run('calibrate.parse_actual ' .. vim.inspect(c[1]), function()
    local n, err = calibrate.parse_actual(c[1])
    t.eq(c[2], n)
    if c[3] then
      t.contains(err, c[3])
    else
      t.eq(nil, err)
    end
  end)
end

for _, c in ipairs({
  {
    name = 'last pack, with its model',
    src = { last_pack = { content = 'packed', model = 'claude-sonnet-4-5' }, lines = 'buf', model = 'gpt-4o' },
    want = { params = { model = 'claude-sonnet-4-5', text = 'packed', actualTokens = 1234 }, what = 'the last packed context' },
  },
  {
    name = 'no pack: the lines, the current model',
    src = { lines = 'buf', model = 'claude-opus-4-7', what = 'the buffer' },
    want = { params = { model = 'claude-opus-4-7', text = 'buf', actualTokens = 1234 }, what = 'the buffer' },
  },
  { name = 'empty buffer', src = { lines = '', model = 'm' }, want = nil },
  { name = 'no model', src = { lines = 'buf' }, want = nil },
}) do
  t.run('calibrate.usage_request ' .. c.name, function()
    t.eq(c.want, calibrate.usage_request(c.src, 1234))
  end)
end

for _, c in ipairs({
  { r = { model = 'claude-sonnet-4-5', factor = 1.3125, samples = 1 }, has = 'claude-sonnet-4-5 estimates are now o200k_base × 1.313 (calibrated from 1 report)' },
  { r = { model = 'm', factor = 1.6, samples = 3 }, has = 'from 3 reports' },
  { r = { model = 'gpt-4o', factor = 1, samples = 0, exact = true, match = true }, has = 'the provider agrees (12,000 tokens)' },
  { r = { model = 'gpt-4o', factor = 1, samples = 0, exact = true, match = false }, has = 'nothing learned' },
}) do
  t.run('calibrate.result_text ' .. c.has, function()
    t.contains(calibrate.result_text(c.r, 12000, report.number), c.has)
  end)
end

-- :AcodeReportUsage against a fake client: the params it sends.
t.run(':AcodeReportUsage sends acode/reportUsage with the model, the text and the count', function()
  local pack = require('acode.pack')
  local sent = {}
  local fake_client = { id = 77, name = 'acode' }
  fake_client.request = function(...)
    local args = { ... }
    if args[1] == fake_client then -- client:request on 0.11+
      table.remove(args, 1)
    end
    local method, params, handler = args[1], args[2], args[3]
    table.insert(sent, { method = method, params = params })
    if method == 'acode/budgetStatus' then
      handler(nil, vim.tbl_extend('force', base, { model = 'claude-opus-4-7' }))
    else
      handler(nil, { model = params.model, factor = 1.62, samples = 1 })
    end
    return true, #sent
  end
  local saved_client, saved_notify, saved_last = pack.client, vim.notify, pack.last
  local notes = {}
  pack.client = function()
    return fake_client
  end
  vim.notify = function(msg)
    table.insert(notes, msg)
  end
  local ok, err = pcall(function()
    local buf = vim.api.nvim_create_buf(true, false)
    vim.api.nvim_set_current_buf(buf)
    vim.api.nvim_buf_set_lines(buf, 0, -1, false, { 'one', 'two', 'three' })
    pack.last = nil
    -- Before any pack, with a range: those lines, the server's model.
    vim.cmd('2,3AcodeReportUsage 1,234')
    t.wait(2000, function()
      return #notes > 0
    end, 'the answer')
    t.eq({
      { method = 'acode/budgetStatus', params = {} },
      { method = 'acode/reportUsage', params = { model = 'claude-opus-4-7', text = 'two\nthree', actualTokens = 1234 } },
    }, sent)
    t.contains(notes[1], 'claude-opus-4-7 estimates are now o200k_base × 1.62 (calibrated from 1 report)')
    -- After a pack: the context, with the model it was packed for.
    sent, notes = {}, {}
    pack.last = { result = { content = 'packed context', model = 'claude-sonnet-4-5' }, query = 'q' }
    vim.cmd('AcodeReportUsage 99')
    t.wait(2000, function()
      return #notes > 0
    end, 'the answer')
    t.eq({ { method = 'acode/reportUsage', params = { model = 'claude-sonnet-4-5', text = 'packed context', actualTokens = 99 } } }, sent)
    -- A bad number is refused before anything is sent.
    sent, notes = {}, {}
    vim.cmd('AcodeReportUsage 12k')
    t.eq({}, sent)
    t.contains(notes[1], 'not 12k')
  end)
  pack.client, vim.notify, pack.last = saved_client, saved_notify, saved_last
  if not ok then
    error(err, 0)
  end
end)

-- Fake views for sources.gather: fixed answers.
local function r(sl, sc, el, ec)
  return { start = { line = sl, character = sc }, ['end'] = { line = el, character = ec } }
end
local function sym(name, range, container, children)
  return { name = name, range = range, container = container ~= false, children = children or {} }
end
local A, B = 'file:///ws/a.go', 'file:///ws/b.go'
local b_symbols = {
  sym('Cart', r(2, 0, 10, 1), true, { sym('Total', r(4, 0, 8, 1)), sym('items', r(3, 1, 3, 20), false) }),
  sym('Use', r(12, 0, 20, 1)),
  sym('limit', r(22, 0, 22, 15), false),
}
local function fake(active, tabs, defs, refs, syms)
  local asked = {}
  return {
    asked = asked,
    active = function()
      return active
    end,
    open_uris = function()
      return tabs or {}
    end,
    definitions = function(uri)
      table.insert(asked, 'definitions ' .. uri)
      if type(defs) == 'string' then
        return nil, defs
      end
      return defs or {}
    end,
    references = function(uri)
      table.insert(asked, 'references ' .. uri)
      if type(refs) == 'string' then
        return nil, refs
      end
      return refs or {}
    end,
    symbols = function(uri)
      table.insert(asked, 'symbols ' .. uri)
      return (syms or {})[uri] or {}
    end,
  }
end
local W = sources.whole_lines
local rel = sources.relevance

for _, c in ipairs({
  {
    name = 'no editor: open buffers, deduplicated',
    view = fake(nil, { A, B, A }),
    want = { { type = 'open_file', uri = A }, { type = 'open_file', uri = B } },
  },
  {
    name = 'tool result first; blank one dropped',
    view = fake(nil, {}),
    opts = { tool_result = { label = 'go test ./cart', content = '--- FAIL' } },
    want = { { type = 'tool_result', label = 'go test ./cart', content = '--- FAIL' } },
  },
  { name = 'blank tool result', view = fake(nil, {}), opts = { tool_result = { label = 'x', content = ' \n' } }, want = {} },
  {
    name = 'selection as whole lines',
    view = fake({ uri = A, cursor = { line = 7, character = 3 }, selection = r(5, 4, 7, 3) }),
    opts = { open_buffers = false },
    want = { { type = 'open_file', label = 'selection', uri = A, range = W(5, 7), relevance = rel.selection } },
  },
  {
    name = 'definition widened to its symbol; references to their function or a window',
    view = fake({ uri = A, cursor = { line = 1, character = 5 }, word = 'Total' }, { A }, { { uri = B, range = r(4, 15, 4, 20) } }, {
      { uri = B, range = r(15, 2, 15, 7) },
      { uri = B, range = r(22, 8, 22, 13) },
      { uri = B, range = r(6, 2, 6, 7) },
      { uri = B, range = r(16, 2, 16, 7) },
      { uri = A, range = r(1, 5, 1, 10) },
    }, { [B] = b_symbols }),
    want = {
      { type = 'reference', label = 'definition of Total', uri = B, range = W(4, 8), relevance = rel.definition },
      { type = 'reference', label = 'reference to Total', uri = A, range = W(0, 4), relevance = rel.reference },
      { type = 'reference', label = 'reference to Total', uri = B, range = W(12, 20), relevance = rel.reference },
      { type = 'reference', label = 'reference to Total', uri = B, range = W(19, 25), relevance = rel.reference },
      { type = 'open_file', uri = A },
    },
  },
  {
    name = 'references capped',
    view = fake({ uri = A, cursor = { line = 0, character = 0 } }, {}, {}, {
      { uri = A, range = r(10, 0, 10, 3) },
      { uri = A, range = r(20, 0, 20, 3) },
      { uri = A, range = r(30, 0, 30, 3) },
    }),
    opts = { max_references = 2, context_lines = 1 },
    want = {
      { type = 'reference', label = 'reference to', uri = A, range = W(9, 11), relevance = rel.reference },
      { type = 'reference', label = 'reference to', uri = A, range = W(19, 21), relevance = rel.reference },
    },
  },
  {
    name = 'failing servers skipped and reported',
    view = fake({ uri = A, cursor = { line = 0, character = 0 } }, { A }, 'no definition provider', 'boom'),
    want = { { type = 'open_file', uri = A } },
    errors = { 'definitions: no definition provider', 'references: boom' },
  },
}) do
  t.run('sources.gather ' .. c.name, function()
    local errors = {}
    local got = sources.gather(c.view, c.opts, function(what, err)
      table.insert(errors, what .. ': ' .. err)
    end)
    t.eq(c.want, got, 'sources')
    t.eq(c.errors or {}, errors, 'errors')
  end)
end

t.run('sources.gather asks for symbols once per document', function()
  local view = fake({ uri = A, cursor = { line = 0, character = 0 } }, {}, { { uri = B, range = r(4, 0, 4, 3) } }, {
    { uri = B, range = r(13, 0, 13, 3) },
    { uri = B, range = r(22, 0, 22, 3) },
  }, { [B] = b_symbols })
  sources.gather(view)
  t.eq({ 'definitions ' .. A, 'symbols ' .. B, 'references ' .. A }, view.asked)
end)

t.run('sources.whole_lines spans first..last, both included', function()
  t.eq({ start = { line = 5, character = 0 }, ['end'] = { line = 7, character = 2147483647 } }, sources.whole_lines(5, 7))
  t.eq(7, sources.last_line(sources.whole_lines(5, 7)))
  t.eq(4, sources.last_line(r(3, 2, 5, 0)))
end)

t.run('settings are sent as JSON objects, also when empty', function()
  config.merge({})
  local cfg = require('acode').server_config()
  t.eq('{"acode":{}}', vim.json.encode(cfg.settings))
  t.eq('{}', vim.json.encode(cfg.init_options))
  config.merge({ settings = { model = 'gpt-4', budget = { totalTokens = 16000 } } })
  cfg = require('acode').server_config()
  t.eq({ model = 'gpt-4', budget = { totalTokens = 16000 } }, vim.json.decode(vim.json.encode(cfg.init_options)))
  t.eq({ acode = { model = 'gpt-4', budget = { totalTokens = 16000 } } }, vim.json.decode(vim.json.encode(cfg.settings)))
  config.merge({})
end)

t.run('sources.to_location and to_symbol', function()
  t.eq({ uri = B, range = r(1, 0, 9, 1) }, sources.to_location({ targetUri = B, targetRange = r(1, 0, 9, 1), targetSelectionRange = r(1, 5, 1, 9) }))
  t.eq({ uri = A, range = r(2, 0, 2, 4) }, sources.to_location({ uri = A, range = r(2, 0, 2, 4) }))
  local kinds = vim.lsp.protocol.SymbolKind
  t.eq(
    { name = 'T', container = true, range = r(0, 0, 5, 0), children = { { name = 'f', container = false, range = r(1, 0, 1, 9), children = {} } } },
    sources.to_symbol({ name = 'T', kind = kinds.Struct, range = r(0, 0, 5, 0), children = { { name = 'f', kind = kinds.Field, range = r(1, 0, 1, 9) } } })
  )
  t.eq({ name = 'g', container = true, range = r(3, 0, 4, 0), children = {} }, sources.to_symbol({ name = 'g', kind = kinds.Function, location = { uri = A, range = r(3, 0, 4, 0) } }))
end)

t.run('config.merge keeps defaults', function()
  local o = config.merge({ settings = { model = 'gpt-4' }, pack = { register = 'a' } })
  t.eq('gpt-4', o.settings.model)
  t.eq('a', o.pack.register)
  t.eq(30, o.pack.max_references)
  t.eq({ '.agent/config.yml', '.git' }, o.root_markers)
  config.merge({})
  t.eq('+', config.options.pack.register)
end)

t.run('config.merge rejects options that are not a table', function()
  local ok, err = pcall(config.merge, 'gpt-4')
  t.eq(false, ok)
  t.contains(err, 'acode: setup() takes a table of options, got string')
end)

t.run('config.cmd prefers the option, then PATH', function()
  config.merge({ cmd = { '/opt/x/acode-lsp', '--log-file', '/tmp/l' } })
  t.eq({ '/opt/x/acode-lsp', '--log-file', '/tmp/l' }, config.cmd())
  config.merge({})
  local dir = vim.fn.tempname()
  vim.fn.mkdir(dir, 'p')
  vim.fn.writefile({ '#!/bin/sh' }, dir .. '/acode-lsp')
  vim.fn.setfperm(dir .. '/acode-lsp', 'rwxr-xr-x')
  local path = vim.env.PATH
  vim.env.PATH = dir .. ':' .. path
  local got = config.cmd()
  vim.env.PATH = path
  t.eq({ dir .. '/acode-lsp' }, got)
end)

t.run('config.root finds .agent/config.yml, else .git, else cwd', function()
  local ws = vim.fn.resolve(vim.fn.tempname())
  vim.fn.mkdir(ws .. '/proj/.agent', 'p')
  vim.fn.mkdir(ws .. '/proj/sub/.git', 'p')
  vim.fn.writefile({ 'context: {}' }, ws .. '/proj/.agent/config.yml')
  vim.fn.writefile({ 'x' }, ws .. '/proj/sub/a.txt')
  vim.fn.mkdir(ws .. '/other', 'p')
  vim.fn.writefile({ 'x' }, ws .. '/other/b.txt')
  config.merge({})
  vim.cmd('edit ' .. ws .. '/proj/sub/a.txt')
  -- The first marker in the list wins over a nearer second one.
  t.eq(ws .. '/proj', config.root(0))
  vim.cmd('cd ' .. ws)
  vim.cmd('edit ' .. ws .. '/other/b.txt')
  t.eq(ws, config.root(0))
  vim.cmd('cd /')
  t.eq(ws .. '/other', config.root(0))
  vim.cmd('enew')
  t.eq(nil, config.root(0))
end)

t.run('lsp/acode.lua is a vim.lsp.Config', function()
  local cfg = dofile(t.plugin_root .. '/lsp/acode.lua')
  t.truthy(type(cfg.root_dir) == 'function', 'root_dir')
  t.truthy(type(cfg.cmd) == 'table' and cfg.cmd[1]:match('acode%-lsp$'), vim.inspect(cfg.cmd))
  t.truthy(type(cfg.handlers['acode/budget']) == 'function', 'acode/budget handler')
end)

t.run('setup defines the commands and the statusline is empty before a budget', function()
  vim.cmd('silent %bwipeout!')
  require('acode').setup({ cmd = { '/nonexistent/acode-lsp' } })
  local cmds = vim.api.nvim_get_commands({})
  for _, name in ipairs({ 'AcodePack', 'AcodeCount', 'AcodeBudget' }) do
    t.truthy(cmds[name], name .. ' missing')
  end
  t.eq('', require('acode').statusline())
end)

t.run('statusline follows acode/budget, with the level and highlight', function()
  local acode = require('acode')
  local handler = acode.server_config().handlers['acode/budget']
  handler(nil, vim.tbl_extend('force', base, { used = 85000, percent = 94.4, level = 'critical' }), { client_id = 99 })
  t.eq('acode 85K/90K 94%% critical', acode.statusline())
  t.eq('%#AcodeBudgetCritical#acode 85K/90K 94%% critical%*', acode.statusline({ highlight = true }))
  vim.o.laststatus = 2
  vim.o.statusline = "%{%v:lua.require'acode'.statusline({'highlight': v:true})%}"
  local got = vim.api.nvim_eval_statusline(vim.o.statusline, { fillchar = ' ', maxwidth = 60 })
  t.eq('acode 85K/90K 94% critical', vim.trim(got.str))
  require('acode.status').forget(99)
  t.eq('', acode.statusline())
end)

t.run('budget report with packing statistics (acode/packStats)', function()
  local st = {
    packs = 2,
    failed = 1,
    latencyMs = { p50 = 3.383, p95 = 7.95, max = 7.95 },
    chunks = { considered = 12, included = 10 },
    tokens = { packed = 992, available = 6000, utilization = 0.1653 },
    dedup = { exactRemoved = 2, overlapsMerged = 0, tokensSaved = 118 },
    cache = { hits = 116, misses = 54, evictions = 0, entries = 54, hitRate = 0.6824 },
  }
  local text = table.concat(report.budget_report(base, nil, st), '\n')
  for _, want in ipairs({
    '## Packing since the server started',
    '- **Packs:** 2 answered, 1 failed',
    '- **Latency:** p50 3.4 ms · p95 8.0 ms · max 8.0 ms',
    '- **Chunks:** 10 included of 12 considered',
    '- **Tokens:** 992 packed of 6,000 available (16.5 %)',
    '- **Dedup:** 2 duplicates removed, 0 overlaps merged, 118 tokens saved',
    '- **Count cache:** 68.2 % hits (116 hits, 54 misses, 0 evictions, 54 entries)',
  }) do
    t.contains(text, want)
  end
  t.eq(nil, table.concat(report.budget_report(base, nil), '\n'):find('Packing since', 1, true))
end)

t.run('doc/acode.txt has help tags for every command, without duplicates', function()
  local dir = vim.fn.tempname()
  vim.fn.mkdir(dir, 'p')
  vim.fn.writefile(vim.fn.readfile(t.plugin_root .. '/doc/acode.txt'), dir .. '/acode.txt')
  vim.cmd('helptags ' .. vim.fn.fnameescape(dir)) -- E154 on a duplicate tag
  local tags = table.concat(vim.fn.readfile(dir .. '/tags'), '\n')
  for _, tag in ipairs({ ':AcodePack', ':AcodeCount', ':AcodeBudget', ':AcodeReportUsage', 'acode-options', 'acode-statusline', 'acode-health' }) do
    t.contains(tags, tag .. '\t', 'tags')
  end
  vim.fn.delete(dir, 'rf')
end)

t.run('report.left_out_tables caps each reason and sums up the rest', function()
  local chunks = {}
  for i = 1, 790 do
    table.insert(chunks, { type = 'open_file', path = ('bin/%d.so'):format(i), reason = 'binary' })
  end
  for i = 1, 3 do
    table.insert(chunks, { type = 'open_file', path = ('a%d.go'):format(i), startLine = 1, endLine = 9, tokens = 100, reason = 'over_budget' })
  end
  local lines = {}
  report.left_out_tables(lines, chunks)
  local text = table.concat(lines, '\n')
  t.truthy(vim.tbl_contains(lines, '### binary (790)'), text)
  t.truthy(vim.tbl_contains(lines, '### over_budget (3, 300 tokens)'), text)
  t.truthy(vim.tbl_contains(lines, ('_… and %d more._'):format(790 - report.max_rows_per_reason)), text)
  local rows = vim.tbl_filter(function(l)
    return vim.startswith(l, '| open_file | bin/')
  end, lines)
  t.eq(report.max_rows_per_reason, #rows, 'rows of binary')
end)

t.run('report.tool_placement and tool_line', function()
  local r = vim.tbl_extend('force', result, {
    content = '## File: a.go (lines 1-3)\n```go\nx\n```\n\n## Tool: go test ./cart\n```\nFAIL\n```\n',
    included = { { type = 'tool_result', label = 'go test ./cart', startLine = 1, endLine = 1, tokens = 40, score = 0.5 } },
  })
  local p = report.tool_placement(r, 'go test ./cart')
  t.eq({ label = 'go test ./cart', included = true, section = 2, sections = 2, tokens = 40 }, p, 'placement')
  t.eq(
    '**Tool output:** `go test ./cart` — included, 40 tokens, section 2 of 2 (sections are ordered by score)',
    report.tool_line(p),
    'line'
  )
  local left = vim.tbl_extend('force', result, { excluded = { { type = 'tool_result', label = 'make', reason = 'over_budget' } } })
  t.eq('**Tool output:** `make` — LEFT OUT (over_budget)', report.tool_line(report.tool_placement(left, 'make')), 'left out')
  t.truthy(vim.tbl_contains(report.pack_report(left, 'q', 'make'), '**Tool output:** `make` — LEFT OUT (over_budget)'))
end)

local lens_arg = {
  uri = 'file:///ws/cart/service.go',
  path = '/ws/cart/service.go',
  startLine = 44,
  endLine = 80,
  tokens = 1247,
  inContext = false,
  toFit = 34099,
  budgetTotal = 16000,
  budgetAvailable = 12000,
}

t.run('report.chunk_report', function()
  local lines = report.chunk_report(lens_arg, 'cart/service.go lines 44–80', {
    query = 'q',
    result = vim.tbl_extend('force', result, {
      included = { { type = 'open_file', path = 'cart/service.go', startLine = 40, endLine = 60, tokens = 300, score = 0.5 } },
      excluded = {},
    }),
  })
  for _, want in ipairs({
    '# cart/service.go lines 44–80',
    '**Tokens:** 1,247',
    '**What if:** +34,099 to fit — a pack of the open files at the configured budget (16,000 total, 12,000 available) leaves it out; with a total of 50,099 it goes in.',
    '- included: lines 40–60, 300 tokens, score 0.50',
  }) do
    t.truthy(vim.tbl_contains(lines, want), ('chunk report lacks %q:\n%s'):format(want, table.concat(lines, '\n')))
  end
  local inside = report.chunk_report(vim.tbl_extend('force', lens_arg, { inContext = true, toFit = nil, score = 0.734 }), 'x.go')
  t.contains(table.concat(inside, '\n'), '**What if:** ✓ in context')
  t.contains(table.concat(inside, '\n'), '**Score:** 0.73')
end)

t.run('pack.pin keeps chunks once and take_pinned hands them over as references', function()
  local pack = require('acode.pack')
  pack.pinned = {}
  t.eq(true, pack.pin(lens_arg), 'first pin')
  t.eq(false, pack.pin(vim.deepcopy(lens_arg)), 'same chunk again')
  t.eq({
    {
      type = 'reference',
      uri = 'file:///ws/cart/service.go',
      range = { start = { line = 43, character = 0 }, ['end'] = { line = 80, character = 0 } },
      relevance = 1,
    },
  }, pack.take_pinned(), 'sources')
  t.eq({}, pack.pinned, 'pinned after take')
  t.eq(false, pack.is_chunk_args({ uri = 'x', startLine = 3, endLine = 2 }), 'end before start')
end)

t.run('setup registers the lens commands', function()
  require('acode').setup({})
  t.eq('function', type(vim.lsp.commands['acode.pinChunk']), 'acode.pinChunk')
  t.eq('function', type(vim.lsp.commands['acode.showChunkReport']), 'acode.showChunkReport')
  local pack = require('acode.pack')
  pack.pinned = {}
  vim.lsp.commands['acode.pinChunk']({ title = 'x', command = 'acode.pinChunk', arguments = { lens_arg } }, {})
  t.eq(1, #pack.pinned, 'pinned by the lens command')
  pack.pinned = {}
end)

t.run('report buffers: names without slashes, markdown without markdownError', function()
  local pack = require('acode.pack')
  vim.cmd('syntax on')
  local buf = pack.scratch(pack.names.report, report.pack_report(result, 'q'))
  vim.api.nvim_set_current_buf(buf)
  t.eq('[acode] report', vim.fn.bufname(buf), 'name')
  t.eq('[acode] report', vim.fn.pathshorten(vim.fn.bufname(buf)), 'shortened name')
  t.eq('markdown', vim.bo[buf].filetype, 'filetype')
  t.eq('nofile', vim.bo[buf].buftype, 'buftype')
  local lines = vim.api.nvim_buf_get_lines(buf, 0, -1, false)
  local errors = {}
  for i, l in ipairs(lines) do
    for col in l:gmatch('()_') do
      local name = vim.fn.synIDattr(vim.fn.synID(i, col, 1), 'name')
      if name == 'markdownError' then
        table.insert(errors, ('%d:%d %s'):format(i, col, l))
      end
    end
  end
  t.eq({}, errors, 'underscores highlighted as markdownError')
  -- Reloading the syntax (a colorscheme, :set syntax=markdown) keeps it quiet.
  vim.cmd('set syntax=markdown')
  local row = vim.iter(ipairs(lines)):find(function(_, l)
    return l:find('over_budget', 1, true)
  end)
  local col = lines[row]:find('over_budget', 1, true) + 4
  t.truthy(vim.fn.synIDattr(vim.fn.synID(row, col, 1), 'name') ~= 'markdownError', 'markdownError after reloading the syntax')
  t.eq(buf, pack.scratch(pack.names.report, { 'again' }), 'the same buffer is reused')
  vim.cmd('syntax off')
end)

t.run('health check runs', function()
  vim.cmd('checkhealth acode')
  local text = table.concat(vim.api.nvim_buf_get_lines(0, 0, -1, false), '\n')
  t.contains(text, 'acode-lsp not found')
  -- The module is not published: the hint is a clone's `make install`, never `go install …@latest`.
  t.contains(text, 'Build it from a clone of acode-lsp with `make install`')
  t.eq(nil, text:find('go install', 1, true), 'go install in the hint')
end)

t.finish()
