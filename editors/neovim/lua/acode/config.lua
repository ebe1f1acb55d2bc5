--- Defaults of acode.nvim, their merge with the user's options, and the
--- pieces of the language server config (command, root, settings).
local M = {}

---@class acode.Settings Sent to acode-lsp as init_options and settings.acode.
---@field model? string
---@field encoding? string
---@field budget? {totalTokens?: integer, systemReserve?: integer, responseReserve?: integer, categories?: table<string, number>, redistribute?: boolean}
---@field exclude? string[]

---@class acode.Options
---@field cmd? string[] Command that starts acode-lsp; nil: found on PATH, $GOBIN, ~/go/bin…
---@field root_markers string[] Files or folders that mark the workspace root.
---@field filetypes? string[] Filetypes to attach to; nil: every file buffer.
---@field settings acode.Settings
---@field codelens {enabled: boolean, events: string[]}
---@field statusline {highlight: boolean, prefix: string}
---@field pack {register: string, max_references: integer, context_lines: integer, max_symbol_lines: integer, timeout_ms: integer, open: 'tab'|'split'|'current'}

---@type acode.Options
M.defaults = {
  cmd = nil,
  root_markers = { '.agent/config.yml', '.git' },
  filetypes = nil,
  settings = {},
  codelens = {
    enabled = true,
    events = { 'BufEnter', 'BufWritePost', 'InsertLeave', 'CursorHold' },
  },
  statusline = {
    highlight = false,
    prefix = 'acode',
  },
  pack = {
    register = '+',
    max_references = 30,
    context_lines = 3,
    max_symbol_lines = 300,
    timeout_ms = 5000,
    open = 'tab',
  },
}

---@type acode.Options
M.options = vim.deepcopy(M.defaults)

--- merge sets M.options to the defaults overridden by opts.
---@param opts? table
---@return acode.Options
function M.merge(opts)
  if opts ~= nil and type(opts) ~= 'table' then
    error(('acode: setup() takes a table of options, got %s'):format(type(opts)), 3)
  end
  M.options = vim.tbl_deep_extend('force', vim.deepcopy(M.defaults), opts or {})
  return M.options
end

--- candidates lists where acode-lsp is looked for: PATH, then where `go
--- install` and `make install` put it.
---@return string[]
function M.candidates()
  local out = {}
  local exe = vim.fn.exepath('acode-lsp')
  if exe ~= '' then
    table.insert(out, exe)
  end
  local home = vim.uv.os_homedir() or ''
  local dirs = { vim.env.GOBIN }
  for gopath in vim.gsplit(vim.env.GOPATH or '', ':', { plain = true }) do
    if gopath ~= '' then
      table.insert(dirs, gopath .. '/bin')
    end
  end
  vim.list_extend(dirs, { home .. '/go/bin', home .. '/.local/bin', '/usr/local/bin' })
  for _, dir in pairs(dirs) do
    if dir and dir ~= '' then
      table.insert(out, dir .. '/acode-lsp')
    end
  end
  return out
end

--- cmd returns the command that starts acode-lsp: the configured one, else
--- the first executable candidate, else the bare name (health explains).
---@return string[]
function M.cmd()
  if M.options.cmd then
    return M.options.cmd
  end
  for _, p in ipairs(M.candidates()) do
    if vim.fn.executable(p) == 1 then
      return { p }
    end
  end
  return { 'acode-lsp' }
end

--- root returns the workspace root of a buffer: the nearest folder holding
--- the first of root_markers, else the second, …; else the current directory
--- when the file is under it, else the file's folder.
---@param bufnr integer
---@return string?
function M.root(bufnr)
  local name = vim.api.nvim_buf_get_name(bufnr)
  if name == '' or name:match('^%a[%w+.-]*://') then
    return nil
  end
  local file = vim.fs.normalize(vim.fn.fnamemodify(name, ':p'))
  local root = M.marked_root(vim.fs.dirname(file))
  if root then
    return root
  end
  local cwd = vim.fs.normalize(vim.fn.getcwd())
  if file:sub(1, #cwd + 1) == cwd .. '/' then
    return cwd
  end
  return vim.fs.dirname(file)
end

--- marked_root returns the nearest folder at or above dir holding the first
--- of root_markers, else the second, …; nil when none does.
---@param dir string
---@return string?
function M.marked_root(dir)
  for _, marker in ipairs(M.options.root_markers) do
    -- vim.fs.root would answer .agent/ for the marker .agent/config.yml: strip the marker instead.
    local found = vim.fs.find(marker, { upward = true, path = dir, limit = 1 })[1]
    if found then
      return found:sub(1, #found - #marker - 1)
    end
  end
  return nil
end

return M
