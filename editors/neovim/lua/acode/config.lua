--- Defaults of acode.nvim, their merge with the user's options, and the
--- pieces of the language server config (command, root, settings).
local M = {}

-- acode.Settings (what is sent to acode-lsp) is declared in the generated
-- acode/surface.lua.

---@class acode.Options
---@field cmd? string[] Command that starts acode-lsp; nil: found on PATH, $GOBIN, ~/go/bin…
---@field root_markers string[] Files or folders that mark the workspace root.
---@field filetypes? string[] Filetypes to attach to; nil: every file buffer.
---@field settings acode.Settings
---@field codelens {enabled: boolean, events: string[]}
---@field statusline {highlight: boolean, prefix: string}
---@field pack {register: string, max_references: integer, context_lines: integer, max_symbol_lines: integer, timeout_ms: integer, open: 'tab'|'split'|'current', ask_budget: boolean}

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
    ask_budget = true,
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
  for _, problem in ipairs(M.check_settings(M.options.settings)) do
    vim.notify('acode: ' .. problem, vim.log.levels.WARN)
  end
  return M.options
end

local json_types = { string = 'string', integer = 'number', boolean = 'boolean', object = 'table', array = 'table' }

--- check_settings names what acode-lsp will not read in settings: unknown
--- keys (a misspelt setting changes nothing) and values of the wrong type,
--- from the generated table of acode/surface.lua.
---@param settings table
---@return string[]
function M.check_settings(settings)
  local known = {}
  for _, s in ipairs(require('acode.surface').settings) do
    known[s.key] = s
  end
  local out = {}
  local function walk(tbl, prefix)
    for k, v in pairs(tbl) do
      local key = prefix .. tostring(k)
      local s = known[key]
      if s then
        local ok = type(v) == json_types[s.type] and (s.type ~= 'integer' or v == math.floor(v))
        if s.enum and ok and not vim.tbl_contains(s.enum, v) then
          table.insert(out, ('settings.%s = %q is not one of %s'):format(key, v, table.concat(s.enum, ', ')))
        elseif ok and s.min and v < s.min then
          table.insert(out, ('settings.%s = %s must be at least %d'):format(key, v, s.min))
        elseif ok and s.properties then
          for name in pairs(v) do
            if not vim.tbl_contains(s.properties, name) then
              table.insert(out, ('settings.%s.%s is not one of %s'):format(key, name, table.concat(s.properties, ', ')))
            end
          end
        elseif not ok then
          table.insert(out, ('settings.%s must be a%s %s, got %s'):format(key, s.type == 'integer' and 'n' or '', s.type, type(v)))
        end
      elseif type(v) == 'table' and known[key .. '.'] == nil and vim.iter(known):any(function(kk)
        return vim.startswith(kk, key .. '.')
      end) then
        walk(v, key .. '.')
      else
        table.insert(out, ('settings.%s is not a setting acode-lsp reads (it reads %s)'):format(key, table.concat(vim.tbl_keys(known), ', ')))
      end
    end
  end
  walk(settings or {}, '')
  table.sort(out)
  return out
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
