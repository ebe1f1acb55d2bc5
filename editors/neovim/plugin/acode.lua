-- acode.nvim: defines the commands; require('acode').setup() starts the server.
if vim.g.loaded_acode then
  return
end
vim.g.loaded_acode = true
if vim.fn.has('nvim-0.10') == 0 then
  return
end
require('acode.commands').create()
