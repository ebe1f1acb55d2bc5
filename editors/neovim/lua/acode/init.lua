--- acode.nvim: the token budget of acode-lsp in the statusline, token cost
--- code lenses, and :AcodePack to pack context for an LLM prompt.
---
--- Start with require('acode').setup(opts) (see :help acode). On Neovim 0.11+
--- it registers the server with vim.lsp.config/vim.lsp.enable (lsp/acode.lua
--- holds the base config); on 0.10 it starts the client itself on FileType.
local config = require('acode.config')
local status = require('acode.status')

local M = {}

local group = vim.api.nvim_create_augroup('acode', { clear = true })

--- budget_handler handles the acode/budget notification.
local function budget_handler(_, result, ctx)
  status.update(ctx.client_id, result)
end

--- server_config returns the language server config (a vim.lsp.Config)
--- built from the options: command, settings, handlers. root_dir is left to
--- the caller: a function on 0.11+, a string on 0.10.
---@return table
function M.server_config()
  local o = config.options
  local settings = vim.deepcopy(o.settings or {})
  if vim.tbl_isempty(settings) then
    -- vim.json encodes {} as [], which the server rejects as settings.
    settings = vim.empty_dict()
  end
  return {
    name = 'acode',
    cmd = config.cmd(),
    filetypes = o.filetypes,
    init_options = settings,
    settings = { acode = settings },
    handlers = { ['acode/budget'] = budget_handler },
    on_exit = function(_, _, client_id)
      vim.schedule(function()
        status.forget(client_id)
      end)
    end,
  }
end

--- start attaches acode-lsp to a buffer (the 0.10 path; on 0.11+ vim.lsp.enable does it).
---@param bufnr integer
---@return integer? client_id
function M.start(bufnr)
  if not vim.api.nvim_buf_is_valid(bufnr) or vim.bo[bufnr].buftype ~= '' then
    return nil
  end
  local fts = config.options.filetypes
  if fts and not vim.tbl_contains(fts, vim.bo[bufnr].filetype) then
    return nil
  end
  local root = config.root(bufnr)
  if not root then
    return nil
  end
  local cfg = M.server_config()
  cfg.root_dir = root
  cfg.workspace_folders = { { uri = vim.uri_from_fname(root), name = root } }
  return vim.lsp.start(cfg, { bufnr = bufnr })
end

local function enable_codelens(bufnr)
  local o = config.options.codelens
  if not o.enabled or vim.b[bufnr].acode_codelens then
    return
  end
  vim.b[bufnr].acode_codelens = true
  if vim.lsp.codelens.enable then
    -- Neovim 0.12+: enabled lenses refresh themselves (refresh() is deprecated).
    vim.lsp.codelens.enable(true, { bufnr = bufnr })
    return
  end
  vim.lsp.codelens.refresh({ bufnr = bufnr })
  vim.api.nvim_create_autocmd(o.events, {
    group = group,
    buffer = bufnr,
    desc = 'acode: refresh code lenses',
    callback = function()
      vim.lsp.codelens.refresh({ bufnr = bufnr })
    end,
  })
end

--- setup merges opts with the defaults and starts acode-lsp for file buffers.
---@param opts? table see :help acode-options
function M.setup(opts)
  config.merge(opts)
  vim.api.nvim_clear_autocmds({ group = group })
  for name, link in pairs({
    AcodeBudgetNormal = 'StatusLine',
    AcodeBudgetWarning = 'WarningMsg',
    AcodeBudgetCritical = 'ErrorMsg',
  }) do
    vim.api.nvim_set_hl(0, name, { link = link, default = true })
  end
  require('acode.commands').create()
  -- Clicking (running) acode-lsp's what-if lenses: :lua vim.lsp.codelens.run().
  for name, fn in pairs(require('acode.pack').lens_commands) do
    vim.lsp.commands[name] = fn
  end

  vim.api.nvim_create_autocmd('LspAttach', {
    group = group,
    desc = 'acode: code lenses',
    callback = function(args)
      local client = vim.lsp.get_client_by_id(args.data.client_id)
      if client and client.name == 'acode' then
        enable_codelens(args.buf)
      end
    end,
  })

  if vim.fn.has('nvim-0.11') == 1 then
    local cfg = M.server_config()
    cfg.root_dir = function(bufnr, on_dir)
      local root = config.root(bufnr)
      if root and vim.bo[bufnr].buftype == '' then
        on_dir(root)
      end
    end
    vim.lsp.config('acode', cfg)
    vim.lsp.enable('acode')
    -- vim.lsp.enable starts on FileType, which files of no known type never
    -- fire: start those here, so that every file gets its lenses.
    vim.api.nvim_create_autocmd({ 'BufReadPost', 'BufNewFile' }, {
      group = group,
      desc = 'acode: start acode-lsp for files of no known type',
      callback = function(args)
        vim.schedule(function()
          if vim.api.nvim_buf_is_valid(args.buf) and vim.bo[args.buf].filetype == '' then
            M.start(args.buf)
          end
        end)
      end,
    })
    return
  end

  vim.api.nvim_create_autocmd({ 'FileType', 'BufReadPost', 'BufNewFile' }, {
    group = group,
    desc = 'acode: start acode-lsp',
    callback = function(args)
      M.start(args.buf)
    end,
  })
  -- Buffers opened before setup().
  for _, bufnr in ipairs(vim.api.nvim_list_bufs()) do
    if vim.api.nvim_buf_is_loaded(bufnr) and vim.api.nvim_buf_get_name(bufnr) ~= '' then
      M.start(bufnr)
    end
  end
end

--- statusline returns the budget as a statusline item, e.g. `acode 12.3K/90K
--- 14%` (`≈` when estimated, the level when not normal), or '' before the
--- first acode/budget. The result is statusline format (its `%` doubled):
--- use it as `%{%v:lua.require'acode'.statusline()%}` or as a lualine
--- component. With {highlight = true} it is wrapped in the level's highlight
--- group (AcodeBudgetNormal/Warning/Critical).
---@param opts? {highlight?: boolean, prefix?: string, bufnr?: integer}
---@return string
function M.statusline(opts)
  opts = vim.tbl_extend('force', config.options.statusline, opts or {})
  local s = status.get(opts.bufnr)
  if not s then
    return ''
  end
  local text = status.text(s, opts.prefix):gsub('%%', '%%%%')
  if opts.highlight then
    return ('%%#%s#%s%%*'):format(status.highlight(s.level), text)
  end
  return text
end

--- status returns the last acode/budget payload that applies to a buffer.
---@param bufnr? integer
---@return acode.BudgetStatus?
function M.status(bufnr)
  return status.get(bufnr)
end

--- estimate says what the budget's count is when it is not exact, e.g.
--- `estimated upper bound: o200k_base × 1.25, not calibrated (0 samples)`
--- (nil when exact or before the first acode/budget): for a statusline
--- component beside statusline(), or a tooltip where the UI has one.
---@param bufnr? integer
---@return string?
function M.estimate(bufnr)
  local s = status.get(bufnr)
  return s and require('acode.calibrate').estimate_text(s) or nil
end

M.pack = function(opts)
  return require('acode.pack').pack(opts)
end
M.count = function(opts)
  return require('acode.pack').count(opts)
end
M.budget = function(opts)
  return require('acode.pack').budget(opts)
end
M.report_usage = function(opts)
  return require('acode.pack').report_usage(opts)
end

return M
