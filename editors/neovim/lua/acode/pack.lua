--- :AcodePack, :AcodeCount and :AcodeBudget: gather the sources, ask
--- acode-lsp, show the result in scratch markdown buffers.
local async = require('acode.async')
local config = require('acode.config')
local report = require('acode.report')
local sources = require('acode.sources')

local M = {}

---@type {result: table, query: string}?
M.last = nil

--- client returns the acode client for a buffer (or any acode client).
---@param bufnr integer
---@return vim.lsp.Client?
function M.client(bufnr)
  local clients = vim.lsp.get_clients({ bufnr = bufnr, name = 'acode' })
  if #clients == 0 then
    clients = vim.lsp.get_clients({ name = 'acode' })
  end
  return clients[1]
end

local function not_running()
  vim.notify(
    'acode: acode-lsp is not running for this buffer; see :checkhealth acode and :LspLog',
    vim.log.levels.ERROR
  )
end

--- Names of the scratch buffers: no slashes, so that statuslines that
--- shorten paths (pathshorten, lualine) show them whole.
M.names = {
  context = '[acode] context',
  report = '[acode] report',
  budget = '[acode] budget',
  chunk = '[acode] chunk',
}

---@type table<string, integer> scratch buffers by name
local scratch_bufs = {}

--- quiet_markdown keeps markdown's syntax from flagging the underscores of
--- identifiers (open_file, over_budget) as errors (markdownError) in a
--- report buffer, now and whenever its syntax is loaded again.
local function quiet_markdown(bufnr)
  local clear = function()
    vim.api.nvim_buf_call(bufnr, function()
      vim.cmd('silent! syntax clear markdownError')
    end)
  end
  clear()
  if not vim.b[bufnr].acode_quiet_markdown then
    vim.b[bufnr].acode_quiet_markdown = true
    vim.api.nvim_create_autocmd('Syntax', { buffer = bufnr, desc = 'acode: no markdownError in reports', callback = clear })
  end
end

--- scratch fills (creating it once) the scratch buffer called name: a
--- markdown buffer that is not a file (buftype=nofile).
---@param name string one of M.names
---@param lines string[]
---@return integer bufnr
function M.scratch(name, lines)
  local bufnr = scratch_bufs[name]
  if not (bufnr and vim.api.nvim_buf_is_valid(bufnr)) then
    bufnr = vim.api.nvim_create_buf(false, true)
    vim.bo[bufnr].buftype = 'nofile'
    vim.api.nvim_buf_set_name(bufnr, name)
    scratch_bufs[name] = bufnr
  end
  vim.bo[bufnr].buftype = 'nofile'
  vim.bo[bufnr].bufhidden = 'hide'
  vim.bo[bufnr].swapfile = false
  vim.bo[bufnr].modifiable = true
  vim.api.nvim_buf_set_lines(bufnr, 0, -1, false, lines)
  vim.bo[bufnr].modified = false
  if vim.bo[bufnr].filetype ~= 'markdown' then
    vim.bo[bufnr].filetype = 'markdown'
  end
  quiet_markdown(bufnr)
  return bufnr
end

--- buffer returns the scratch buffer called name, if it exists.
---@param name string one of M.names
---@return integer?
function M.buffer(name)
  local b = scratch_bufs[name]
  return (b and vim.api.nvim_buf_is_valid(b)) and b or nil
end

--- register returns the register to yank to: the configured one, or the
--- unnamed register when it is a clipboard register without a provider.
function M.register()
  local reg = config.options.pack.register
  if (reg == '+' or reg == '*') and vim.fn.has('clipboard') == 0 then
    return '"'
  end
  return reg
end

--- show opens the context in a scratch buffer with the report beside it and
--- yanks the context. Returns the two buffers.
---@return integer context_buf, integer report_buf
function M.show(result, query, tool_label)
  M.last = { result = result, query = query, tool_label = tool_label }
  local ctx = M.scratch(M.names.context, vim.split(result.content, '\n', { plain = true }))
  local rep = M.scratch(M.names.report, report.pack_report(result, query, tool_label))
  local open = config.options.pack.open
  if open == 'tab' then
    vim.cmd('tab sbuffer ' .. ctx)
  elseif open == 'split' then
    vim.cmd('sbuffer ' .. ctx)
  else
    vim.api.nvim_set_current_buf(ctx)
  end
  vim.cmd('rightbelow vertical sbuffer ' .. rep)
  vim.cmd('wincmd p')
  local reg = M.register()
  vim.fn.setreg(reg, result.content)
  vim.notify(('acode: %s; yanked to register %s'):format(report.summary(result), reg), vim.log.levels.INFO)
  if tool_label then
    local where = report.tool_placement(result, tool_label)
    if not where.included then
      vim.notify('acode: ' .. report.tool_line(where):gsub('%*%*', ''), vim.log.levels.WARN)
    end
  end
  return ctx, rep
end

--- parse_budget reads a number of tokens as a person types it: 8000,
--- 8,000, 8k, 8K, 1.5m. Returns the whole number of tokens, or nil and
--- what is wrong.
---@param text string
---@return integer? tokens, string? err
function M.parse_budget(text)
  local s = vim.trim(text or ''):gsub('[,_]', '')
  local num, unit = s:match('^(%d+%.?%d*)([kKmM]?)$')
  if not num then
    return nil, ('%q is not a number of tokens: write e.g. 8000, 8k or 1.5m'):format(text or '')
  end
  local n = tonumber(num) * ({ [''] = 1, k = 1e3, m = 1e6 })[unit:lower()]
  n = math.floor(n + 0.5)
  if n <= 0 or n > 2 ^ 31 then
    return nil, ('%q: a budget must be from 1 to 2,147,483,648 tokens'):format(text)
  end
  return n, nil
end

--- split_budget splits :AcodePack's arguments into a leading budget and the
--- task: "8k why does it fail" → 8000, "why does it fail". The first word is
--- a budget when it has a k/m suffix or is a number of at least 100 (so "2
--- bugs in checkout" stays a task).
---@param args string
---@return integer? budget, string task
function M.split_budget(args)
  local first, rest = (args or ''):match('^%s*(%S+)%s*(.-)%s*$')
  if not first then
    return nil, ''
  end
  local n = M.parse_budget(first)
  if n and (first:match('[kKmM]$') or n >= 100) then
    return n, rest
  end
  return nil, vim.trim(args)
end

--- pack_budget is acode/packContext's budget for a pack whose context may
--- take room tokens: the room is the whole budget, no reserves taken from it
--- (DESIGN rule 2: an editor's per-pack budget is the room).
---@param room integer
function M.pack_budget(room)
  return { totalTokens = room, systemReserve = 0, responseReserve = 0 }
end

--- The budget typed at the last prompt, offered again at the next.
M.last_budget = ''

--- ask_budget asks for the pack's budget (vim.ui.input). An empty answer
--- keeps the configured window (cb(false)); a cancelled one cb(nil); a bad
--- one is an error message and cb(nil).
---@param cb fun(room: integer|false|nil)
function M.ask_budget(cb)
  vim.ui.input({
    prompt = 'Acode budget — tokens the context may take (8k, 20000; empty: the whole window): ',
    default = M.last_budget,
  }, function(text)
    if text == nil then
      return cb(nil)
    end
    if vim.trim(text) == '' then
      return cb(false)
    end
    local n, err = M.parse_budget(text)
    if not n then
      vim.notify('acode: ' .. err, vim.log.levels.ERROR)
      return cb(nil)
    end
    M.last_budget = vim.trim(text)
    cb(n)
  end)
end

---@class acode.PackOpts
---@field query? string the task; asked with vim.ui.input when nil
---@field budget? integer|false tokens the context may take; nil: asked when pack.ask_budget, false: the configured window
---@field range? {integer, integer} 1-based first and last line of the selection
---@field tool_result? {label: string, content: string}
---@field bufnr? integer
---@field on_done? fun(result: table?, err: string?) called after the result is shown

--- pack gathers the sources, sends acode/packContext and shows the result.
---@param opts? acode.PackOpts
function M.pack(opts)
  opts = opts or {}
  local bufnr = opts.bufnr or vim.api.nvim_get_current_buf()
  local done = opts.on_done or function() end
  local client = M.client(bufnr)
  if not client then
    not_running()
    return done(nil, 'acode-lsp is not running')
  end
  if not opts.query then
    return vim.ui.input({ prompt = 'Acode task: ' }, function(query)
      if query then
        M.pack(vim.tbl_extend('force', opts, { query = query }))
      end
    end)
  end
  local o = config.options.pack
  if opts.budget == nil then
    if not o.ask_budget then
      opts.budget = false
    else
      return M.ask_budget(function(room)
        if room == nil then
          return done(nil, 'cancelled')
        end
        M.pack(vim.tbl_extend('force', opts, { budget = room }))
      end)
    end
  end
  async.run(function()
    local view = require('acode.view').new(bufnr, { range = opts.range, timeout_ms = o.timeout_ms })
    local srcs = sources.gather(view, {
      tool_result = opts.tool_result,
      max_references = o.max_references,
      context_lines = o.context_lines,
      max_symbol_lines = o.max_symbol_lines,
    }, function(what, err)
      vim.notify(('acode: %s: %s'):format(what, err), vim.log.levels.WARN)
    end)
    vim.list_extend(srcs, M.take_pinned())
    local params = { query = opts.query, includeOpenFiles = false, sources = srcs }
    if opts.budget then
      params.budget = M.pack_budget(opts.budget)
    end
    local result, err = async.request(client, 'acode/packContext', params, bufnr, math.max(o.timeout_ms, 60000))
    if err then
      vim.notify('acode: packing failed: ' .. err, vim.log.levels.ERROR)
      return done(nil, err)
    end
    M.show(result, opts.query, opts.tool_result and opts.tool_result.label or nil)
    done(result, nil)
  end)
end

--- ask_tool_result asks which tool output to pack (for :AcodePack!): the
--- quickfix list (e.g. after :make), a register, or a shell command run now.
---@param cb fun(tool: {label: string, content: string}?)
function M.ask_tool_result(cb)
  local items = { 'Quickfix list', 'Register "', 'Run a command…' }
  vim.ui.select(items, { prompt = 'Acode: tool output to pack' }, function(choice)
    if choice == 'Quickfix list' then
      local lines = {}
      for _, item in ipairs(vim.fn.getqflist()) do
        local name = item.bufnr > 0 and vim.fn.bufname(item.bufnr) or ''
        table.insert(lines, ('%s:%d: %s'):format(name, item.lnum, item.text))
      end
      cb({ label = vim.fn.getqflist({ title = 1 }).title or 'quickfix', content = table.concat(lines, '\n') })
    elseif choice == 'Register "' then
      cb({ label = 'register', content = vim.fn.getreg('"') })
    elseif choice == 'Run a command…' then
      vim.ui.input({ prompt = 'Command: ', default = 'go test ./...' }, function(cmd)
        if not cmd or cmd == '' then
          return cb(nil)
        end
        vim.system({ vim.o.shell, vim.o.shellcmdflag, cmd }, { text = true }, function(res)
          vim.schedule(function()
            cb({
              label = cmd,
              content = ('$ %s\n%s%s\n(exit status %d)\n'):format(cmd, res.stdout or '', res.stderr or '', res.code),
            })
          end)
        end)
      end)
    else
      cb(nil)
    end
  end)
end

--- count counts the tokens of lines line1..line2 (1-based) of a buffer, or
--- of all of it, and reports the count.
---@param opts {bufnr?: integer, line1?: integer, line2?: integer, on_done?: fun(result: table?, err: string?)}
function M.count(opts)
  local bufnr = opts.bufnr or vim.api.nvim_get_current_buf()
  local done = opts.on_done or function() end
  local client = M.client(bufnr)
  if not client then
    not_running()
    return done(nil, 'acode-lsp is not running')
  end
  local first, last = (opts.line1 or 1) - 1, opts.line2 or -1
  local text = table.concat(vim.api.nvim_buf_get_lines(bufnr, first, last, false), '\n')
  async.run(function()
    local result, err = async.request(client, 'acode/countTokens', { text = text }, bufnr, 30000)
    if err then
      vim.notify('acode: ' .. err, vim.log.levels.ERROR)
      return done(nil, err)
    end
    vim.notify(
      ('acode: %s%s tokens (%s, %s)'):format(
        result.exact and '' or '≈',
        report.number(result.tokens),
        result.encoding,
        result.exact and 'exact' or 'estimated'
      ),
      vim.log.levels.INFO
    )
    done(result, nil)
  end)
end

--- budget opens the budget report (acode/budgetStatus, acode/packStats and the last pack).
---@param opts? {bufnr?: integer, on_done?: fun(bufnr: integer?, err: string?)}
function M.budget(opts)
  opts = opts or {}
  local bufnr = opts.bufnr or vim.api.nvim_get_current_buf()
  local done = opts.on_done or function() end
  local client = M.client(bufnr)
  if not client then
    not_running()
    return done(nil, 'acode-lsp is not running')
  end
  async.run(function()
    local s, err = async.request(client, 'acode/budgetStatus', {}, bufnr, 30000)
    if err then
      vim.notify('acode: ' .. err, vim.log.levels.ERROR)
      return done(nil, err)
    end
    require('acode.status').update(client.id, s)
    -- A server without acode/packStats (older) leaves the section out.
    local stats = async.request(client, 'acode/packStats', vim.empty_dict(), bufnr, 30000)
    local buf = M.scratch(M.names.budget, report.budget_report(s, M.last, stats))
    vim.cmd('sbuffer ' .. buf)
    done(buf, nil)
  end)
end

--- report_usage sends acode/reportUsage: the provider's real token count
--- (actual, as typed) for the last packed context (its buffer, as it may have
--- been edited), or, before any pack or with a range, for the lines of the
--- buffer; the server calibrates its estimate for the model and the answer
--- (the factor and its samples) is notified.
---@param opts {actual: string|integer, range?: {integer, integer}, bufnr?: integer, on_done?: fun(result: table?, err: string?)}
function M.report_usage(opts)
  local calibrate = require('acode.calibrate')
  local bufnr = opts.bufnr or vim.api.nvim_get_current_buf()
  local done = opts.on_done or function() end
  local actual, perr = calibrate.parse_actual(tostring(opts.actual or ''))
  if not actual then
    vim.notify('acode: ' .. perr, vim.log.levels.ERROR)
    return done(nil, perr)
  end
  local src = {}
  if M.last and not opts.range then
    local content = M.last.result.content
    local ctx = M.buffer(M.names.context)
    if ctx then
      content = table.concat(vim.api.nvim_buf_get_lines(ctx, 0, -1, false), '\n')
    end
    src.last_pack = { content = content, model = M.last.result.model }
  else
    local first, last = 0, -1
    if opts.range then
      first, last = opts.range[1] - 1, opts.range[2]
    end
    src.lines = table.concat(vim.api.nvim_buf_get_lines(bufnr, first, last, false), '\n')
    src.what = opts.range and 'the selected lines' or 'the buffer'
  end
  local client = M.client(bufnr)
  if not client then
    not_running()
    return done(nil, 'acode-lsp is not running')
  end
  async.run(function()
    if not (src.last_pack and src.last_pack.model) then
      local s, err = async.request(client, 'acode/budgetStatus', {}, bufnr, 30000)
      if err then
        vim.notify('acode: ' .. err, vim.log.levels.ERROR)
        return done(nil, err)
      end
      src.model = s.model
    end
    local req = calibrate.usage_request(src, actual)
    if not req then
      local msg = 'nothing to report usage for: the text is empty'
      vim.notify('acode: ' .. msg, vim.log.levels.WARN)
      return done(nil, msg)
    end
    local result, err = async.request(client, 'acode/reportUsage', req.params, bufnr, 30000)
    if err then
      vim.notify('acode: ' .. err, vim.log.levels.ERROR)
      return done(nil, err)
    end
    vim.notify(calibrate.result_text(result, actual, report.number), vim.log.levels.INFO)
    done(result, nil)
  end)
end

--- Chunks pinned from what-if lenses for the next pack, in pinning order.
---@type table[]
M.pinned = {}

--- is_chunk_args checks the argument of a what-if lens command.
function M.is_chunk_args(a)
  return type(a) == 'table'
    and type(a.uri) == 'string'
    and type(a.startLine) == 'number'
    and type(a.endLine) == 'number'
    and a.startLine >= 1
    and a.endLine >= a.startLine
end

--- pin keeps a chunk for the next pack; false when it was pinned already.
function M.pin(a)
  for _, p in ipairs(M.pinned) do
    if p.uri == a.uri and p.startLine == a.startLine and p.endLine == a.endLine then
      return false
    end
  end
  table.insert(M.pinned, a)
  return true
end

--- pinned_source is a pinned chunk as a packContext source: its lines, read
--- by the server, as a reference with relevance 1.
function M.pinned_source(a)
  return {
    type = 'reference',
    uri = a.uri,
    range = { start = { line = a.startLine - 1, character = 0 }, ['end'] = { line = a.endLine, character = 0 } },
    relevance = 1,
  }
end

--- take_pinned returns the pinned chunks as sources and forgets them.
function M.take_pinned()
  local out = vim.tbl_map(M.pinned_source, M.pinned)
  M.pinned = {}
  return out
end

--- chunk_name is "cart/service.go lines 10–41" (the path alone for a whole file).
local function chunk_name(a)
  local rel = vim.fn.fnamemodify(vim.uri_to_fname(a.uri), ':~:.')
  if a.wholeFile then
    return rel
  end
  return ('%s lines %d–%d'):format(rel, a.startLine, a.endLine)
end

--- Lens commands of acode-lsp's what-if lenses (vim.lsp.commands): clicking
--- (running) a "+N to fit" lens pins its chunk for the next :AcodePack; a
--- "✓ in context" or "not packed" lens shows what a pack does with it.
M.lens_commands = {
  ['acode.pinChunk'] = function(command)
    local a = command.arguments and command.arguments[1]
    if not M.is_chunk_args(a) then
      return vim.notify('acode: acode.pinChunk without a chunk', vim.log.levels.WARN)
    end
    if M.pin(a) then
      vim.notify(
        ('acode: pinned %s — the next :AcodePack sends it as a reference (%d pinned)'):format(chunk_name(a), #M.pinned),
        vim.log.levels.INFO
      )
    else
      vim.notify(('acode: %s is already pinned for the next :AcodePack'):format(chunk_name(a)), vim.log.levels.INFO)
    end
  end,
  ['acode.showChunkReport'] = function(command)
    local a = command.arguments and command.arguments[1]
    if not M.is_chunk_args(a) then
      return vim.notify('acode: acode.showChunkReport without a chunk', vim.log.levels.WARN)
    end
    local buf = M.scratch(M.names.chunk, report.chunk_report(a, chunk_name(a), M.last))
    if vim.fn.bufwinid(buf) == -1 then
      vim.cmd('rightbelow sbuffer ' .. buf)
    end
  end,
}

return M
