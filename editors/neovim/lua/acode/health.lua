--- :checkhealth acode — Neovim version, the acode-lsp binary, the workspace
--- root, the running clients and the yank register.
local M = {}

local health = vim.health

function M.check()
  local config = require('acode.config')
  health.start('acode.nvim')
  if vim.fn.has('nvim-0.10') == 1 then
    local v = vim.version()
    health.ok(('Neovim %d.%d.%d'):format(v.major, v.minor, v.patch))
  else
    health.error('Neovim 0.10 or newer is needed', { 'Upgrade Neovim.' })
  end

  health.start('acode-lsp')
  local cmd = config.cmd()
  if vim.fn.executable(cmd[1]) == 1 then
    local exe = vim.fn.exepath(cmd[1])
    local res = vim.system({ exe, 'version' }, { text = true }):wait(5000)
    local version = vim.trim((res.stdout or '') .. (res.stderr or ''))
    if res.code == 0 then
      health.ok(('%s: %s'):format(exe, version))
    else
      health.warn(('%s version exited with %s: %s'):format(exe, tostring(res.code), version))
    end
  else
    health.error(('acode-lsp not found (tried %s)'):format(table.concat(config.candidates(), ', ')), {
      (require('acode.surface').install_hint:gsub('^%l', string.upper)),
      "or set the path: require('acode').setup({ cmd = { '/path/to/acode-lsp' } })",
    })
  end

  -- :checkhealth runs in its own buffer: the workspace is that of the
  -- current directory.
  health.start('workspace')
  local cwd = vim.fs.normalize(vim.fn.getcwd())
  local root = config.marked_root(cwd)
  if root then
    health.ok('root: ' .. root)
    if vim.uv.fs_stat(root .. '/.agent/config.yml') then
      health.ok('config: ' .. root .. '/.agent/config.yml')
    else
      health.info('no .agent/config.yml: the defaults apply (gpt-4o, 100000 tokens)')
    end
  else
    health.info(('no %s above %s: files are packed relative to the current directory'):format(
      table.concat(config.options.root_markers, ' or '),
      cwd
    ))
  end

  health.start('clients')
  local clients = vim.lsp.get_clients({ name = 'acode' })
  if #clients == 0 then
    health.warn('acode-lsp is not running', {
      "call require('acode').setup() in your config, then open a file",
      'see :LspLog for its errors',
    })
  end
  for _, client in ipairs(clients) do
    local s = require('acode.status').by_client[client.id]
    local budget = s and require('acode.status').text(s, 'budget') or 'no acode/budget received yet'
    health.ok(('client %d, root %s: %s'):format(client.id, client.root_dir or '?', budget))
  end

  health.start('yank register')
  local reg = config.options.pack.register
  local used = require('acode.pack').register()
  if used == reg then
    health.ok(('packed context is yanked to register %s'):format(reg))
  else
    health.warn(('register %s needs a clipboard provider; yanking to %s instead'):format(reg, used), {
      'install xclip, xsel or wl-clipboard, or set pack.register',
    })
  end
end

return M
