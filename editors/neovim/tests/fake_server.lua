-- An in-process fake language server for Go, standing for gopls in the
-- end-to-end test: it answers textDocument/definition, /references and
-- /documentSymbol by scanning the workspace's .go files for `func Name`
-- declarations and `Name(` uses, and records the methods it was asked.
-- Started with vim.lsp.start({cmd = fake_server.cmd(root, log)}): a cmd
-- function is how Neovim (0.10+) runs a server inside the editor.
local M = {}

local function go_files(root)
  return vim.fs.find(function(name)
    return name:match('%.go$') ~= nil
  end, { path = root, type = 'file', limit = math.huge })
end

local function read(path)
  local bufnr = vim.fn.bufnr(path)
  if bufnr ~= -1 and vim.api.nvim_buf_is_loaded(bufnr) then
    return vim.api.nvim_buf_get_lines(bufnr, 0, -1, false)
  end
  return vim.fn.readfile(path)
end

--- decls returns the top-level funcs of a file: {name, first, last} (0-based lines).
function M.decls(lines)
  local out = {}
  for i, line in ipairs(lines) do
    local name = line:match('^func%s+([%w_]+)%s*%(') or line:match('^func%s+%b()%s*([%w_]+)%s*%(')
    if name then
      local last = i - 1
      for j = i, #lines do
        if lines[j]:match('^}') then
          last = j - 1
          break
        end
      end
      table.insert(out, { name = name, first = i - 1, last = last })
    end
  end
  return out
end

local function word_at(lines, pos)
  local line = lines[pos.line + 1] or ''
  local col = pos.character + 1
  local s, e = col, col
  while s > 1 and line:sub(s - 1, s - 1):match('[%w_]') do
    s = s - 1
  end
  while e <= #line and line:sub(e, e):match('[%w_]') do
    e = e + 1
  end
  return line:sub(s, e - 1)
end

local function range(line, s, e)
  return { start = { line = line, character = s }, ['end'] = { line = line, character = e } }
end

--- cmd returns the cmd function of vim.lsp.start for a workspace root.
---@param root string
---@param asked string[] receives every method asked
function M.cmd(root, asked)
  return function(dispatchers)
    local closing = false
    local id = 0
    local handlers = {}
    function handlers.initialize()
      return {
        capabilities = {
          definitionProvider = true,
          referencesProvider = true,
          documentSymbolProvider = true,
          textDocumentSync = 1,
        },
        serverInfo = { name = 'fakels' },
      }
    end
    function handlers.shutdown()
      return vim.NIL
    end
    handlers['textDocument/definition'] = function(p)
      local word = word_at(read(vim.uri_to_fname(p.textDocument.uri)), p.position)
      local out = {}
      for _, f in ipairs(go_files(root)) do
        for _, d in ipairs(M.decls(read(f))) do
          if d.name == word then
            local col = (read(f)[d.first + 1]):find(word, 1, true) - 1
            table.insert(out, { uri = vim.uri_from_fname(f), range = range(d.first, col, col + #word) })
          end
        end
      end
      return out
    end
    handlers['textDocument/references'] = function(p)
      local word = word_at(read(vim.uri_to_fname(p.textDocument.uri)), p.position)
      local out = {}
      if word == '' then
        return out
      end
      for _, f in ipairs(go_files(root)) do
        for i, line in ipairs(read(f)) do
          local s = line:find(word .. '(', 1, true)
          if s and not line:match('^func') then
            table.insert(out, { uri = vim.uri_from_fname(f), range = range(i - 1, s - 1, s - 1 + #word) })
          end
        end
      end
      return out
    end
    handlers['textDocument/documentSymbol'] = function(p)
      local out = {}
      for _, d in ipairs(M.decls(read(vim.uri_to_fname(p.textDocument.uri)))) do
        local r = { start = { line = d.first, character = 0 }, ['end'] = { line = d.last + 1, character = 1 } }
        table.insert(out, {
          name = d.name,
          kind = vim.lsp.protocol.SymbolKind.Function,
          range = r,
          selectionRange = r,
        })
      end
      return out
    end
    return {
      request = function(method, params, callback)
        table.insert(asked, method)
        id = id + 1
        local h = handlers[method]
        vim.schedule(function()
          if h then
            callback(nil, h(params))
          else
            callback({ code = -32601, message = 'fakels: no ' .. method }, nil)
          end
        end)
        return true, id
      end,
      notify = function(method)
        if method == 'exit' then
          closing = true
          vim.schedule(function()
            dispatchers.on_exit(0, 0)
          end)
        end
        return true
      end,
      is_closing = function()
        return closing
      end,
      terminate = function()
        closing = true
      end,
    }
  end
end

return M
