--- User commands: :AcodePack[!] [budget] [query], :[range]AcodeCount, :AcodeBudget,
--- :[range]AcodeReportUsage {tokens}.
local M = {}

--- create defines the commands (again, harmlessly, when called twice).
function M.create()
  vim.api.nvim_create_user_command('AcodePack', function(args)
    local pack = require('acode.pack')
    local budget, query = pack.split_budget(args.args)
    local opts = {
      query = query ~= '' and query or nil,
      budget = budget,
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
    desc = 'Pack context for a task within a budget (:AcodePack 8k why …; ! asks for tool output; a range packs the selection first)',
  })
  vim.api.nvim_create_user_command('AcodeCount', function(args)
    require('acode.pack').count({ line1 = args.line1, line2 = args.line2 })
  end, { range = '%', desc = 'Count the tokens of a range (default: the whole buffer)' })
  vim.api.nvim_create_user_command('AcodeBudget', function()
    require('acode.pack').budget()
  end, { desc = 'Show the token budget report' })
  vim.api.nvim_create_user_command('AcodeReportUsage', function(args)
    require('acode.pack').report_usage({
      actual = args.args,
      range = args.range > 0 and { args.line1, args.line2 } or nil,
    })
  end, {
    nargs = '*',
    range = true,
    desc = "Report the provider's input token count for the last packed context (a range: those lines) to calibrate estimates",
  })
end

return M
