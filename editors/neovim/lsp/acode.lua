-- acode-lsp for Neovim 0.11+: `vim.lsp.enable('acode')` uses this config
-- (require('acode').setup() does that, with your options merged in).
-- The root is the nearest folder with .agent/config.yml, else with .git
-- (root_markers would stop at .agent/ itself).
---@type vim.lsp.Config
return {
  cmd = require('acode.config').cmd(),
  root_dir = function(bufnr, on_dir)
    local root = require('acode.config').root(bufnr)
    if root and vim.bo[bufnr].buftype == '' then
      on_dir(root)
    end
  end,
  init_options = vim.empty_dict(),
  settings = { acode = vim.empty_dict() },
  handlers = {
    ['acode/budget'] = function(_, result, ctx)
      require('acode.status').update(ctx.client_id, result)
    end,
  },
}
