--- Budget state fed by acode/budget notifications, and its statusline text.
local M = {}

---@class acode.BudgetStatus
---@field model string
---@field encoding string
---@field exact boolean
---@field total integer
---@field available integer
---@field used integer
---@field percent number
---@field level 'normal'|'warning'|'critical'
---@field openFiles integer
---@field estimate? {basis: string, factor: number, calibrated: boolean, samples: integer} when not exact

---@type table<integer, acode.BudgetStatus> by client id
M.by_client = {}
---@type integer? client that sent the last status
M.last_client = nil

--- format_count writes a count compactly: 950, 12.3K, 90K, 1.2M (rounded
--- down, so 99,960 reads 99.9K, never 100K).
---@param n number
---@return string
function M.format_count(n)
  if type(n) ~= 'number' or n ~= n then
    return '?'
  end
  local sign = n < 0 and '-' or ''
  local abs = math.floor(math.abs(n) + 0.5)
  for _, unit in ipairs({ { 1e9, 'G' }, { 1e6, 'M' }, { 1e3, 'K' } }) do
    if abs >= unit[1] then
      local v = abs / unit[1]
      local text
      if v >= 100 then
        text = tostring(math.floor(v))
      else
        text = string.format('%.1f', math.floor(v * 10) / 10):gsub('%.0$', '')
      end
      return sign .. text .. unit[2]
    end
  end
  return sign .. tostring(abs)
end

--- text is the statusline text of a status: `acode 12.3K/90K 14%`, with `≈`
--- before an estimated count and the level after it when not normal.
---@param s acode.BudgetStatus
---@param prefix? string
---@return string
function M.text(s, prefix)
  local parts = {}
  if prefix and prefix ~= '' then
    table.insert(parts, prefix)
  end
  local approx = s.exact and '' or '≈'
  table.insert(parts, approx .. M.format_count(s.used) .. '/' .. M.format_count(s.available))
  table.insert(parts, string.format('%d%%', math.floor((tonumber(s.percent) or 0) + 0.5)))
  if s.level and s.level ~= 'normal' then
    table.insert(parts, s.level)
  end
  return table.concat(parts, ' ')
end

--- highlight names the highlight group of a level.
---@param level string
---@return string
function M.highlight(level)
  if level == 'critical' then
    return 'AcodeBudgetCritical'
  elseif level == 'warning' then
    return 'AcodeBudgetWarning'
  end
  return 'AcodeBudgetNormal'
end

--- update records a status from a client and tells the UI.
---@param client_id integer
---@param s acode.BudgetStatus
function M.update(client_id, s)
  if type(s) ~= 'table' then
    return
  end
  M.by_client[client_id] = s
  M.last_client = client_id
  vim.schedule(function()
    vim.cmd('redrawstatus!')
    vim.api.nvim_exec_autocmds('User', { pattern = 'AcodeBudget', modeline = false, data = s })
  end)
end

--- forget drops the status of a client that stopped.
---@param client_id integer
function M.forget(client_id)
  M.by_client[client_id] = nil
  if M.last_client == client_id then
    M.last_client = next(M.by_client)
  end
end

--- get returns the status that applies to a buffer: that of the acode client
--- attached to it, else the last one received.
---@param bufnr? integer
---@return acode.BudgetStatus?
function M.get(bufnr)
  bufnr = bufnr or vim.api.nvim_get_current_buf()
  for _, client in ipairs(vim.lsp.get_clients({ bufnr = bufnr, name = 'acode' })) do
    if M.by_client[client.id] then
      return M.by_client[client.id]
    end
  end
  return M.last_client and M.by_client[M.last_client] or nil
end

return M
