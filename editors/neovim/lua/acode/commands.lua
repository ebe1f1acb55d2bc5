--- User commands: :AcodePack[!] [query], :[range]AcodeCount, :AcodeBudget.
local M = {}

--- create defines the commands (again, harmlessly, when called twice).
function M.create()
  vim.api.nvim_create_user_command('AcodePack', function(args)
    local pack = require('acode.pack')
    local opts = {
      query = args.args ~= '' and args.args or nil,
      range = args.range > 0 and { args.line1, args.line2 } or nil,
    }
    if args.bang then
      pack.ask_tool_result(function(tool)
        opts.tool_result = tool
        pack.pack(opts)
      end)
    else
      pack.pack(opts)
    end
  end, {
    nargs = '*',
    range = true,
    bang = true,
    desc = 'Pack context for a task (! asks for tool output; a range packs the selection first)',
  })
  vim.api.nvim_create_user_command('AcodeCount', function(args)
    require('acode.pack').count({ line1 = args.line1, line2 = args.line2 })
  end, { range = '%', desc = 'Count the tokens of a range (default: the whole buffer)' })
  vim.api.nvim_create_user_command('AcodeBudget', function()
    require('acode.pack').budget()
  end, { desc = 'Show the token budget report' })
end

return M
