--- The acode.View of sources.lua over the running Neovim: the current buffer,
--- the open buffers, and the buffer's other language servers (every attached
--- client but acode) for definitions, references and document symbols.
local async = require('acode.async')
local sources = require('acode.sources')

local M = {}

--- file_buffer tells whether a buffer is an open file worth packing.
local function file_buffer(bufnr)
  return vim.api.nvim_buf_is_loaded(bufnr)
    and vim.bo[bufnr].buflisted
    and vim.bo[bufnr].buftype == ''
    and vim.api.nvim_buf_get_name(bufnr) ~= ''
end

--- other_clients lists the clients attached to bufnr, acode excepted, that
--- have the capability.
local function other_clients(bufnr, capability)
  local out = {}
  for _, c in ipairs(vim.lsp.get_clients({ bufnr = bufnr })) do
    if c.name ~= 'acode' and c.server_capabilities and c.server_capabilities[capability] then
      table.insert(out, c)
    end
  end
  return out
end

---@param bufnr integer the buffer to pack from
---@param opts {range?: {integer, integer}, timeout_ms: integer} range: 1-based lines of the selection
---@return acode.View
function M.new(bufnr, opts)
  local win = vim.fn.bufwinid(bufnr)
  local uri = vim.uri_from_bufnr(bufnr)
  local view = {}

  function view.active()
    if not file_buffer(bufnr) then
      return nil
    end
    local cursor = { line = 0, character = 0 }
    local word
    if win ~= -1 then
      local pos = vim.api.nvim_win_get_cursor(win)
      cursor = { line = pos[1] - 1, character = pos[2] }
      word = vim.api.nvim_win_call(win, function()
        return vim.fn.expand('<cword>')
      end)
    end
    local active = { uri = uri, cursor = cursor, word = (word ~= '' and word) or nil }
    if opts.range then
      active.selection = sources.whole_lines(opts.range[1] - 1, opts.range[2] - 1)
    end
    return active
  end

  function view.open_uris()
    local out = {}
    if file_buffer(bufnr) then
      table.insert(out, uri)
    end
    for _, b in ipairs(vim.api.nvim_list_bufs()) do
      if b ~= bufnr and file_buffer(b) then
        table.insert(out, vim.uri_from_bufnr(b))
      end
    end
    return out
  end

  -- locations asks every other client with the capability and joins the answers.
  local function locations(method, capability, extra)
    local all, errs = {}, {}
    for _, client in ipairs(other_clients(bufnr, capability)) do
      local params
      if win ~= -1 then
        params = vim.lsp.util.make_position_params(win, client.offset_encoding)
      else
        params = { textDocument = { uri = uri }, position = { line = 0, character = 0 } }
      end
      params = vim.tbl_extend('force', params, extra or {})
      local result, err = async.request(client, method, params, bufnr, opts.timeout_ms)
      if err then
        table.insert(errs, err)
      elseif result then
        if result.uri or result.targetUri then
          result = { result }
        end
        for _, l in ipairs(result) do
          local loc = sources.to_location(l)
          if loc.uri and loc.uri:match('^file:') and loc.range then
            table.insert(all, loc)
          end
        end
      end
    end
    return all, (#errs > 0 and table.concat(errs, '; ') or nil)
  end

  function view.definitions()
    return locations('textDocument/definition', 'definitionProvider')
  end

  function view.references()
    return locations('textDocument/references', 'referencesProvider', { context = { includeDeclaration = false } })
  end

  function view.symbols(target)
    local errs = {}
    for _, client in ipairs(other_clients(bufnr, 'documentSymbolProvider')) do
      local result, err = async.request(
        client,
        'textDocument/documentSymbol',
        { textDocument = { uri = target } },
        bufnr,
        opts.timeout_ms
      )
      if err then
        table.insert(errs, err)
      elseif result and #result > 0 then
        local out = {}
        for _, s in ipairs(result) do
          table.insert(out, sources.to_symbol(s))
        end
        return out, nil
      end
    end
    return {}, (#errs > 0 and table.concat(errs, '; ') or nil)
  end

  return view
end

return M
