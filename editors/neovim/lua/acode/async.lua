--- Coroutine helpers: LSP requests that a coroutine can wait on, with a
--- timeout, on Neovim 0.10 (client.request) and 0.11+ (client:request).
local M = {}

--- run starts fn in a coroutine; an error in it is reported with vim.notify.
---@param fn fun()
function M.run(fn)
  M.resume(coroutine.create(fn))
end

--- resume resumes co with the given values and reports an error it raises.
function M.resume(co, ...)
  local ok, err = coroutine.resume(co, ...)
  if not ok then
    vim.notify('acode: ' .. tostring(err), vim.log.levels.ERROR)
  end
end

--- send sends a request with the calling convention of this Neovim.
---@return boolean ok, integer? request_id
function M.send(client, method, params, handler, bufnr)
  if vim.fn.has('nvim-0.11') == 1 then
    return client:request(method, params, handler, bufnr)
  end
  return client.request(method, params, handler, bufnr)
end

--- request sends a request and waits for its answer inside a coroutine.
--- Returns the result, or nil and an error message (also on timeout).
---@param client vim.lsp.Client
---@param method string
---@param params table
---@param bufnr? integer
---@param timeout_ms integer
---@return any result, string? err
function M.request(client, method, params, bufnr, timeout_ms)
  local co = coroutine.running()
  assert(co, 'acode: async.request must run in a coroutine')
  local done = false
  local request_id
  local function finish(err, result)
    if done then
      return
    end
    done = true
    vim.schedule(function()
      M.resume(co, err, result)
    end)
  end
  local ok
  ok, request_id = M.send(client, method, params, function(err, result)
    finish(err, result)
  end, bufnr)
  if not ok then
    return nil, ('%s: %s is not running'):format(method, client.name)
  end
  local timer = vim.defer_fn(function()
    if not done and request_id then
      if vim.fn.has('nvim-0.11') == 1 then
        client:cancel_request(request_id)
      else
        client.cancel_request(request_id)
      end
    end
    finish({ message = ('timed out after %d ms'):format(timeout_ms) }, nil)
  end, timeout_ms)
  local err, result = coroutine.yield()
  if timer and not timer:is_closing() then
    timer:stop()
    timer:close()
  end
  if err then
    return nil, ('%s from %s: %s'):format(method, client.name, M.error_text(err))
  end
  return result, nil
end

--- error_text is the message of a request error, with "(ACODE-…: meaning)"
--- when its data carries a code (the generated table of acode/surface.lua).
---@param err any
---@return string
function M.error_text(err)
  local msg = type(err) == 'table' and (err.message or vim.inspect(err)) or tostring(err)
  local code = type(err) == 'table' and type(err.data) == 'table' and err.data.code or nil
  if type(code) ~= 'string' or msg:find(code, 1, true) then
    return msg
  end
  local meaning = require('acode.surface').error_codes[code]
  return meaning and ('%s (%s: %s)'):format(msg, code, meaning) or ('%s (%s)'):format(msg, code)
end

return M
