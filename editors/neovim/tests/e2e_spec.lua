-- End-to-end test: real Neovim, real acode-lsp, a copy of the sample
-- workspace. Setup from a clean `-u NONE` exactly as a user's config would
-- do it (acode-lsp found on PATH, nothing configured); then the statusline,
-- the code lenses, :AcodePack with definitions/references from a second
-- language server attached to the buffer, :AcodeCount and :AcodeBudget.
--
-- Run: ACODE_LSP=bin/acode-lsp ACODE_SAMPLE=testdata/sample \
--      nvim --headless -u NONE -l editors/neovim/tests/e2e_spec.lua
local here = vim.fn.fnamemodify(debug.getinfo(1, 'S').source:sub(2), ':p:h')
local t = dofile(here .. '/harness.lua')
local fake = dofile(here .. '/fake_server.lua')

local server = vim.env.ACODE_LSP and vim.fn.fnamemodify(vim.env.ACODE_LSP, ':p') or ''
local sample = vim.env.ACODE_SAMPLE and vim.fn.fnamemodify(vim.env.ACODE_SAMPLE, ':p'):gsub('/$', '') or ''
if vim.fn.executable(server) ~= 1 or vim.fn.isdirectory(sample) ~= 1 then
  t.log(('e2e: set ACODE_LSP (an acode-lsp binary, got %q) and ACODE_SAMPLE (a workspace, got %q); `make test-neovim-e2e` does'):format(server, sample))
  t.failed = 1
  t.finish()
end

-- The workspace: a copy, so the test never touches the tree.
local ws = vim.fn.resolve(vim.fn.tempname()) .. '/workspace'
vim.fn.mkdir(vim.fs.dirname(ws), 'p')
local out = vim.fn.system({ 'cp', '-R', sample, ws })
assert(vim.v.shell_error == 0, out)
vim.cmd('cd ' .. vim.fn.fnameescape(ws))

-- Calibration state (acode/reportUsage) goes to a private state folder.
vim.env.XDG_STATE_HOME = vim.fs.dirname(ws) .. '/state'

-- As a user: acode-lsp on PATH, the plugin on the runtimepath, setup{}.
vim.env.PATH = vim.fs.dirname(server) .. ':' .. vim.env.PATH
vim.o.swapfile = false
vim.cmd('filetype plugin on') -- as Neovim does by default without -u NONE
t.use_plugin()
-- Messages are kept for the checks (headless Neovim would print them without newlines).
local messages = {}
vim.notify = function(msg)
  table.insert(messages, msg)
end
require('acode').setup({})

-- Pick a Go function declared in one file and called from another, so that
-- definitions and references lead elsewhere.
local function pick_target()
  local files = vim.fs.find(function(name)
    return name:match('%.go$') ~= nil
  end, { path = ws, type = 'file', limit = math.huge })
  table.sort(files)
  local decl_file = {}
  for _, f in ipairs(files) do
    for _, d in ipairs(fake.decls(vim.fn.readfile(f))) do
      decl_file[d.name] = decl_file[d.name] or f
    end
  end
  for _, f in ipairs(files) do
    for i, line in ipairs(vim.fn.readfile(f)) do
      if not line:match('^func') and not line:match('^%s*//') then
        for name in line:gmatch('([%a_][%w_]*)%(') do
          if decl_file[name] and decl_file[name] ~= f then
            return { file = f, line = i, col = line:find(name .. '(', 1, true) - 1, name = name, decl = decl_file[name] }
          end
        end
      end
    end
  end
  return files[1] and { file = files[1], line = 1, col = 0 } or nil
end
local target = pick_target()
if not target then
  t.log('e2e: no .go file in ' .. sample)
  t.failed = 1
  t.finish()
end
t.log(('e2e: workspace %s, opening %s'):format(ws, target.file:sub(#ws + 2)))

vim.cmd('edit ' .. vim.fn.fnameescape(target.file))
local bufnr = vim.api.nvim_get_current_buf()
vim.api.nvim_win_set_cursor(0, { target.line, target.col })

local acode
t.run('acode-lsp starts from PATH and attaches with the workspace root', function()
  t.wait(20000, function()
    acode = vim.lsp.get_clients({ bufnr = bufnr, name = 'acode' })[1]
    return acode ~= nil and acode.initialized
  end, 'the acode client')
  t.eq(ws, acode.root_dir, 'root_dir')
  t.truthy(acode.server_capabilities.codeLensProvider, 'codeLensProvider')
end)
if not acode then
  t.finish()
end

t.run('statusline shows the budget from acode/budget', function()
  t.wait(20000, function()
    local s = require('acode').status(bufnr)
    return s and s.openFiles >= 1 and s.used > 0
  end, 'an acode/budget with the open file')
  local s = require('acode').status(bufnr)
  t.truthy(s.available > 0 and s.total >= s.available, vim.inspect(s))
  t.truthy(vim.tbl_contains({ 'normal', 'warning', 'critical' }, s.level), 'level ' .. tostring(s.level))
  vim.o.laststatus = 2
  vim.o.statusline = "%f %= %{%v:lua.require'acode'.statusline()%}"
  local got = vim.api.nvim_eval_statusline(vim.o.statusline, { fillchar = ' ', maxwidth = 120 }).str
  local status = require('acode.status')
  local want = status.text(s, 'acode')
  t.truthy(vim.endswith(vim.trim(got), want), ('statusline %q does not end with %q'):format(got, want))
  t.truthy(
    want:gsub('≈', ''):match('^acode [%d.]+[KMG]?/[%d.]+[KMG]? %d+%%'),
    ('statusline text %q is not "acode <used>/<available> <pct>%%"'):format(want)
  )
  -- The same numbers as acode/budgetStatus answers.
  local res
  if vim.fn.has('nvim-0.11') == 1 then
    res = acode:request_sync('acode/budgetStatus', vim.empty_dict(), 5000, bufnr)
  else
    res = acode.request_sync('acode/budgetStatus', vim.empty_dict(), 5000, bufnr)
  end
  t.truthy(res and res.result, 'acode/budgetStatus: ' .. vim.inspect(res))
  t.eq(s.available, res.result.available, 'available')
  t.eq(s.used, res.result.used, 'used')
end)

t.run('code lenses show the token cost of the file and its top-level symbols', function()
  local titles
  -- Neovim 0.12 returns {client_id, lens} items and refreshes by itself.
  local function lenses()
    if vim.lsp.codelens.enable then
      return vim.tbl_map(function(item)
        return item.lens
      end, vim.lsp.codelens.get({ bufnr = bufnr }))
    end
    vim.lsp.codelens.refresh({ bufnr = bufnr })
    vim.wait(200)
    return vim.lsp.codelens.get(bufnr)
  end
  t.wait(20000, function()
    titles = {}
    for _, lens in ipairs(lenses()) do
      if lens.command then
        table.insert(titles, { line = lens.range.start.line, title = lens.command.title })
      end
    end
    return #titles >= 2
  end, 'code lenses')
  local file_lens, symbol_lens
  for _, l in ipairs(titles) do
    local title = l.title:gsub('^≈', '') -- (a multibyte ≈ cannot take a pattern's ?)
    title = title:gsub(' · ✓ in context$', ''):gsub(' · %+[%d,]+ to fit$', '')
    if l.line == 0 and title:match('^[%d,]+ tokens · [%d.]+%% of budget$') then
      file_lens = l
    elseif title:match('^[%d,]+ tokens$') then
      symbol_lens = l
    end
  end
  t.truthy(file_lens, 'no "<N> tokens · <P>% of budget" lens on line 0: ' .. vim.inspect(titles))
  t.truthy(symbol_lens, 'no "<N> tokens" symbol lens: ' .. vim.inspect(titles))
end)

--- lenses_now returns the buffer's lenses that have a command.
local function lenses_now(buf)
  local out = {}
  local got
  if vim.lsp.codelens.enable then
    got = vim.tbl_map(function(item)
      return item.lens
    end, vim.lsp.codelens.get({ bufnr = buf }))
  else
    got = vim.lsp.codelens.get(buf)
  end
  for _, lens in ipairs(got) do
    if lens.command then
      table.insert(out, lens)
    end
  end
  return out
end

--- wait_lens waits until a lens title matches pattern (refreshing on 0.10).
local function wait_lens(buf, pattern, what)
  local found
  t.wait(30000, function()
    if not vim.lsp.codelens.enable then
      vim.lsp.codelens.refresh({ bufnr = buf })
      vim.wait(100)
    end
    for _, lens in ipairs(lenses_now(buf)) do
      if lens.command.title:match(pattern) then
        found = lens
        return true
      end
    end
    return false
  end, what)
  return found
end

--- run_lens runs the lens on its line as a user does (:lua vim.lsp.codelens.run()).
local function run_lens(buf, lens)
  vim.api.nvim_set_current_buf(buf)
  vim.api.nvim_win_set_cursor(0, { lens.range.start.line + 1, 0 })
  local select = vim.ui.select
  vim.ui.select = function(items, opts, on_choice) -- several lenses on the line: pick this one
    for i, item in ipairs(items) do
      local title = (opts.format_item and opts.format_item(item)) or vim.inspect(item)
      if title:find(lens.command.title, 1, true) then
        return on_choice(item, i)
      end
    end
    on_choice(items[1], 1)
  end
  vim.lsp.codelens.run()
  vim.ui.select = select
end

local function notify_settings(settings)
  if vim.fn.has('nvim-0.11') == 1 then
    acode:notify('workspace/didChangeConfiguration', { settings = settings })
  else
    acode.notify('workspace/didChangeConfiguration', { settings = settings })
  end
end

t.run('what-if lenses: "✓ in context" shows the chunk report when run', function()
  local lens = wait_lens(bufnr, ' · ✓ in context$', 'a "✓ in context" lens')
  t.eq('acode.showChunkReport', lens.command.command, 'command')
  run_lens(bufnr, lens)
  local pack = require('acode.pack')
  t.wait(5000, function()
    return pack.buffer(pack.names.chunk) ~= nil
  end, 'the chunk report buffer')
  local buf = pack.buffer(pack.names.chunk)
  local text = table.concat(vim.api.nvim_buf_get_lines(buf, 0, -1, false), '\n')
  t.contains(text, '**What if:** ✓ in context', 'chunk report')
  t.truthy(vim.fn.bufwinid(buf) ~= -1, 'chunk report not shown')
  vim.cmd('bwipeout ' .. buf)
  vim.api.nvim_set_current_buf(bufnr)
end)

local pinned_lens
t.run('what-if lenses: a small budget makes "+N to fit" lenses, and running one pins the chunk', function()
  notify_settings({ acode = { budget = { totalTokens = 4300 } } }) -- 300 tokens available
  pinned_lens = wait_lens(bufnr, '^[%d,]+ tokens · %+[%d,]+ to fit$', 'a "+N to fit" symbol lens')
  t.eq('acode.pinChunk', pinned_lens.command.command, 'command')
  local pack = require('acode.pack')
  pack.pinned = {}
  messages = {}
  run_lens(bufnr, pinned_lens)
  t.eq(1, #pack.pinned, 'pinned chunks')
  t.eq(pinned_lens.range.start.line + 1, pack.pinned[1].startLine, 'pinned start line')
  t.truthy(messages[1] and messages[1]:match('^acode: pinned .* — the next :AcodePack sends it as a reference'), vim.inspect(messages))
  notify_settings({ acode = vim.empty_dict() }) -- back to the workspace's budget
  wait_lens(bufnr, ' · ✓ in context$', 'lenses back in context at the workspace budget')
end)

t.run('the budget follows the files opened and closed', function()
  local before = vim.deepcopy(require('acode').status(bufnr))
  local other = target.decl or vim.fs.find(function(name)
    return name:match('%.md$') ~= nil
  end, { path = ws, type = 'file' })[1]
  vim.cmd('split ' .. vim.fn.fnameescape(other))
  local other_buf = vim.api.nvim_get_current_buf()
  t.wait(20000, function()
    local s = require('acode').status(bufnr)
    return s.openFiles == before.openFiles + 1
  end, 'acode/budget with one more open file')
  local s = require('acode').status(bufnr)
  t.truthy(s.used > before.used, ('used %d did not grow from %d'):format(s.used, before.used))
  vim.cmd('bwipeout ' .. other_buf)
  t.wait(20000, function()
    local after = require('acode').status(bufnr)
    return after.openFiles == before.openFiles and after.used == before.used
  end, 'acode/budget back to one file after closing the other')
  vim.api.nvim_set_current_buf(bufnr)
  vim.api.nvim_win_set_cursor(0, { target.line, target.col })
end)

-- A second language server on the buffer, for definitions and references.
local asked = {}
local fake_id = vim.lsp.start({ name = 'fakels', cmd = fake.cmd(ws, asked), root_dir = ws }, { bufnr = bufnr })
t.wait(5000, function()
  local c = vim.lsp.get_client_by_id(fake_id)
  return c ~= nil and c.initialized
end, 'the fake language server')

local result
t.run(':AcodePack 8k packs a context that fits 8,000 tokens, with the other server\'s definitions and references', function()
  vim.api.nvim_set_current_buf(bufnr)
  vim.api.nvim_win_set_cursor(0, { target.line, target.col })
  local pack = require('acode.pack')
  pack.last = nil
  vim.cmd('AcodePack 8k how is ' .. (target.name or 'this') .. ' used')
  t.wait(30000, function()
    return pack.last ~= nil
  end, 'the packed context')
  result = pack.last.result
  t.eq('how is ' .. (target.name or 'this') .. ' used', pack.last.query, 'query')
  -- The per-pack budget is the room the context may take (DESIGN rule 2).
  t.eq({ 8000, 0, 0, 8000 }, { result.budget.total, result.budget.systemReserve, result.budget.responseReserve, result.budget.available }, 'budget')
  t.truthy(result.tokenCount > 0, 'empty context')
  t.truthy(
    result.tokenCount <= result.budget.available,
    ('%d tokens over the %d available'):format(result.tokenCount, result.budget.available)
  )
  t.truthy(vim.tbl_contains(asked, 'textDocument/definition'), 'definitions not asked: ' .. vim.inspect(asked))
  t.truthy(vim.tbl_contains(asked, 'textDocument/references'), 'references not asked: ' .. vim.inspect(asked))
  if target.decl then
    local rel = target.decl:sub(#ws + 2)
    local found = false
    for _, c in ipairs(vim.list_extend(vim.deepcopy(result.included), result.excluded)) do
      if c.type == 'reference' and c.path == rel then
        found = true
      end
    end
    t.truthy(found, ('no reference source from %s in %s'):format(rel, vim.inspect({ result.included, result.excluded })))
  end
  -- The chunk pinned from its lens went in as a reference.
  if pinned_lens then
    local a = pinned_lens.command.arguments[1]
    local rel = target.file:sub(#ws + 2)
    -- Sent as a reference: included as one, or merged into the open
    -- buffer's chunk of the same lines (then left out as merged).
    local function pinned(c)
      return c.type == 'reference' and c.path == rel and c.startLine <= a.endLine and c.endLine >= a.startLine
    end
    t.truthy(
      vim.iter(result.included):any(pinned) or vim.iter(result.excluded):any(function(c)
        return pinned(c) and c.reason == 'merged'
      end),
      ('the pinned chunk %s:%d-%d is not a reference of the pack: %s'):format(rel, a.startLine, a.endLine, vim.inspect(result))
    )
    t.eq({}, pack.pinned, 'pinned chunks after the pack')
  end
  -- The context buffer, the report beside it, and the register.
  local ctx = pack.buffer(pack.names.context)
  local rep = pack.buffer(pack.names.report)
  t.truthy(ctx and rep, 'scratch buffers missing')
  t.eq('[acode] context', vim.fn.bufname(ctx), 'context buffer name')
  t.eq('[acode] report', vim.fn.bufname(rep), 'report buffer name')
  t.eq(vim.split(result.content, '\n', { plain = true }), vim.api.nvim_buf_get_lines(ctx, 0, -1, false), 'context buffer')
  t.eq('markdown', vim.bo[ctx].filetype, 'filetype')
  t.truthy(vim.fn.bufwinid(ctx) ~= -1 and vim.fn.bufwinid(rep) ~= -1, 'context and report not both shown')
  t.truthy(result.content:match('## File: '), 'no "## File:" section')
  local report = table.concat(vim.api.nvim_buf_get_lines(rep, 0, -1, false), '\n')
  t.contains(report, ('**Tokens:** %s of %s available — fits'):format(
    require('acode.report').number(result.tokenCount),
    require('acode.report').number(result.budget.available)
  ), 'report')
  t.eq(result.content, vim.fn.getreg(pack.register()), 'register ' .. pack.register())
  t.truthy(vim.iter(messages):any(function(m)
    return m:match('^acode: packed [%d,]+ tokens — fits')
  end), 'no summary message: ' .. vim.inspect(messages))
end)

t.run(':AcodePack with a range packs the selection first, asking for the budget', function()
  vim.cmd('tabclose')
  vim.api.nvim_set_current_buf(bufnr)
  local pack = require('acode.pack')
  pack.last = nil
  -- No budget typed: it is asked; the user answers 3k.
  local input, prompts = vim.ui.input, {}
  vim.ui.input = function(opts, on_confirm)
    table.insert(prompts, opts.prompt)
    on_confirm('3k')
  end
  local ok, err = pcall(vim.cmd, '1,3AcodePack explain the header')
  vim.ui.input = input
  assert(ok, err)
  t.wait(30000, function()
    return pack.last ~= nil
  end, 'the packed context')
  t.eq(1, #prompts, 'prompts: ' .. vim.inspect(prompts))
  t.truthy(prompts[1]:match('^Acode budget'), prompts[1])
  local r = pack.last.result
  t.eq(3000, r.budget.available, 'the budget answered')
  t.truthy(r.tokenCount <= r.budget.available, 'over budget')
  local rel = target.file:sub(#ws + 2)
  t.truthy(r.content:find('## File: ' .. rel, 1, true), ('%s not in the context'):format(rel))
end)

t.run(':AcodePack! packs the output of a command as a tool result', function()
  vim.cmd('tabclose')
  vim.api.nvim_set_current_buf(bufnr)
  local pack = require('acode.pack')
  pack.last = nil
  -- The user picks "Run a command…" and types the command.
  local select, input = vim.ui.select, vim.ui.input
  vim.ui.select = function(items, _, on_choice)
    on_choice(items[#items])
  end
  vim.ui.input = function(opts, on_confirm)
    if opts.prompt:match('^Acode budget') then
      return on_confirm('') -- empty: the whole window of the configuration
    end
    on_confirm('printf "FAIL: TestCheckout empty cart\\n"')
  end
  -- The budget is asked after the command ran (asynchronously): the
  -- answers stay in place until the pack is done.
  local ok, err = pcall(vim.cmd, 'AcodePack! why does the test fail')
  if ok then
    ok, err = pcall(t.wait, 30000, function()
      return pack.last ~= nil
    end, 'the packed context')
  end
  vim.ui.select, vim.ui.input = select, input
  assert(ok, err)
  local r = pack.last.result
  t.truthy(r.tokenCount <= r.budget.available, 'over budget')
  t.eq({ 16000, 12000 }, { r.budget.total, r.budget.available }, 'an empty budget answer packs at the configured window (the sample config)')
  t.contains(r.content, '## Tool: printf', 'context')
  t.contains(r.content, 'FAIL: TestCheckout empty cart', 'context')
  local tool = vim.iter(r.included):find(function(c)
    return c.type == 'tool_result'
  end)
  t.truthy(tool, 'no tool_result included: ' .. vim.inspect(r.included))
  -- Where the pack's order says: sections by their best chunk's score,
  -- highest first (ties: tool output, priority 100, before files; then by path).
  local best = {}
  for _, c in ipairs(r.included) do
    local key = c.type == 'tool_result' and ('\0' .. c.label) or c.path
    best[key] = math.max(best[key] or -math.huge, c.score or 0)
  end
  local keys = vim.tbl_keys(best)
  table.sort(keys, function(a, b)
    if best[a] ~= best[b] then
      return best[a] > best[b]
    end
    return a < b
  end)
  local want
  for i, k in ipairs(keys) do
    if k == '\0' .. tool.label then
      want = i
    end
  end
  local headers = vim.tbl_filter(function(l)
    return l:match('^## File: ') or l:match('^## Tool: ')
  end, vim.split(r.content, '\n', { plain = true }))
  t.truthy(headers[want] and vim.startswith(headers[want], '## Tool: printf'), ('tool section not number %d: %s'):format(want, vim.inspect(headers)))
  local report = table.concat(vim.api.nvim_buf_get_lines(pack.buffer(pack.names.report), 0, -1, false), '\n')
  t.contains(report, ('— included, %s tokens, section %d of %d (sections are ordered by score)'):format(
    require('acode.report').number(tool.tokens), want, #headers), 'report')
end)

t.run(':AcodeCount counts a range with the server\'s tokenizer', function()
  vim.cmd('tabclose')
  vim.api.nvim_set_current_buf(bufnr)
  messages = {}
  vim.cmd('1,2AcodeCount')
  t.wait(10000, function()
    return #messages > 0
  end, 'the count message')
  local n, enc = messages[1]:gsub('≈', ''):match('^acode: ([%d,]+) tokens %(([%w_]+), ')
  t.truthy(n and tonumber((n:gsub(',', ''))) > 0, 'message ' .. messages[1])
  local s = require('acode').status(bufnr)
  t.eq(s.encoding, enc, 'encoding')
end)

t.run(':AcodeBudget shows the budget report', function()
  vim.cmd('AcodeBudget')
  local pack = require('acode.pack')
  t.wait(10000, function()
    return pack.buffer(pack.names.budget) ~= nil
  end, 'the budget report')
  t.eq('[acode] budget', vim.fn.bufname(pack.buffer(pack.names.budget)), 'buffer name')
  local text = table.concat(vim.api.nvim_buf_get_lines(pack.buffer(pack.names.budget), 0, -1, false), '\n')
  t.contains(text, '# Acode budget')
  t.contains(text, '## Packing since the server started')
  t.truthy(not text:find('- **Packs:** 0 answered', 1, true), 'packs counted: ' .. text)
  t.contains(text, '# Last packed context')
end)

t.run(':AcodeReportUsage calibrates the estimate of a Claude model', function()
  local function call(method, ...)
    if vim.fn.has('nvim-0.11') == 1 then
      return acode[method](acode, ...)
    end
    return acode[method](...)
  end
  local status = require('acode.status')
  vim.cmd('edit ' .. vim.fn.fnameescape(target.file))
  call('notify', 'workspace/didChangeConfiguration', { settings = { acode = { model = 'claude-sonnet-4-5' } } })
  t.wait(10000, function()
    local s = status.get(bufnr)
    return s and s.model == 'claude-sonnet-4-5'
  end, 'the budget of claude-sonnet-4-5')
  local s = status.get(bufnr)
  t.eq(false, s.exact, 'exact')
  t.eq({ basis = 'o200k_base', factor = 1.25, calibrated = false, samples = 0 }, s.estimate, 'estimate')
  t.contains(vim.api.nvim_eval_statusline(require('acode').statusline(), { fillchar = ' ' }).str, '≈')
  t.eq('estimated upper bound: o200k_base × 1.25, not calibrated (0 samples)', require('acode').estimate(bufnr))
  -- The provider's count: 1.5 × the o200k count of the buffer, above the default factor.
  local text = table.concat(vim.api.nvim_buf_get_lines(bufnr, 0, -1, false), '\n')
  local res = call('request_sync', 'acode/countTokens', { text = text, encoding = 'o200k_base' }, 10000, bufnr)
  local o200k = t.truthy(res and res.result and res.result.tokens, 'o200k count: ' .. vim.inspect(res))
  local actual = math.ceil(o200k * 1.5)
  messages = {}
  vim.cmd('%AcodeReportUsage ' .. actual)
  local note
  t.wait(10000, function()
    for _, m in ipairs(messages) do
      if m:find('estimates are now', 1, true) then
        note = m
      end
    end
    return note ~= nil
  end, 'the factor in a message (got ' .. vim.inspect(messages) .. ')')
  local factor = tonumber(note:match('× ([%d.]+)'))
  t.truthy(factor and factor >= 1.5 and factor <= 1.55, 'factor ≈ 1.52: ' .. note)
  t.contains(note, 'calibrated from 1 report')
  -- The status bar follows: calibrated, the new factor.
  t.wait(10000, function()
    local st = status.get(bufnr)
    return st and st.estimate and st.estimate.calibrated
  end, 'a calibrated acode/budget')
  t.contains(require('acode').estimate(bufnr), ', calibrated (1 sample)')
  -- Kept in the state folder, without the text.
  local state = table.concat(vim.fn.readfile(vim.env.XDG_STATE_HOME .. '/acode-lsp/calibration.json'), '\n')
  t.contains(state, 'claude-sonnet-4-5')
  t.eq(nil, state:find(vim.api.nvim_buf_get_lines(bufnr, 0, 1, false)[1], 1, true), 'text in the state file')
  call('notify', 'workspace/didChangeConfiguration', { settings = { acode = vim.empty_dict() } })
end)

t.run(':checkhealth acode finds the binary and the running client', function()
  vim.cmd('checkhealth acode')
  local text = table.concat(vim.api.nvim_buf_get_lines(0, 0, -1, false), '\n')
  t.contains(text, 'OK ' .. vim.fn.exepath(server))
  t.contains(text, 'root: ' .. ws)
  t.contains(text, ('client %d, root %s: budget '):format(acode.id, ws))
end)

t.run('the server stops cleanly', function()
  for _, client in ipairs(vim.lsp.get_clients()) do
    if vim.fn.has('nvim-0.11') == 1 then
      client:stop()
    else
      client.stop()
    end
  end
  t.wait(10000, function()
    return #vim.lsp.get_clients() == 0
  end, 'the clients to stop')
end)

vim.fn.delete(vim.fs.dirname(ws), 'rf')
t.finish()
