--- Gathering of the sources sent with acode/packContext: a tool result, the
--- selection, the definitions and references of the symbol under the cursor
--- (asked from the buffer's other language servers) and the open buffers.
--- The same rules as the VS Code extension (editors/vscode/src/sources.ts).
---
--- gather() runs inside a coroutine; a view's methods may yield (the LSP view
--- below does) or answer at once (the tests' fakes do).
local M = {}

M.relevance = { selection = 1, definition = 0.9, reference = 0.7 }

--- end_of_line is a character past the end of any line. LSP clamps it to
--- the line's length, so {line = n, character = end_of_line} ends at the end
--- of line n under the standard reading, and acode-lsp (which reads
--- range.end.line as the last line, see docs/design.md) takes line n too.
M.end_of_line = 2147483647

--- whole_lines is the LSP range of lines first..last (0-based, both included).
---@return lsp.Range
function M.whole_lines(first, last)
  return { start = { line = first, character = 0 }, ['end'] = { line = last, character = M.end_of_line } }
end

--- last_line is the last line a range touches (an end at character 0 does not touch its line).
---@param r lsp.Range
function M.last_line(r)
  if r['end'].line > r.start.line and r['end'].character == 0 then
    return r['end'].line - 1
  end
  return r['end'].line
end

local function contains(r, line)
  return line >= r.start.line and line <= M.last_line(r)
end

local function span(r)
  return M.last_line(r) - r.start.line
end

---@class acode.Symbol
---@field name string
---@field container boolean functions, methods, types: worth sending whole
---@field range lsp.Range
---@field children acode.Symbol[]

--- innermost returns the narrowest symbol whose range holds line, among
--- containers only when containers_only. Nested and flat lists alike.
---@param symbols acode.Symbol[]
---@return acode.Symbol?
function M.innermost(symbols, line, containers_only)
  local best
  local function visit(list)
    for _, s in ipairs(list or {}) do
      if contains(s.range, line) then
        if (not containers_only or s.container) and (not best or span(s.range) <= span(best.range)) then
          best = s
        end
        visit(s.children)
      end
    end
  end
  visit(symbols)
  return best
end

local function expand(loc, symbols, containers_only, context, max_lines)
  local line = loc.range.start.line
  local sym = M.innermost(symbols, line, containers_only)
  if sym then
    local first, last = sym.range.start.line, M.last_line(sym.range)
    if last - first + 1 <= max_lines then
      return M.whole_lines(first, last)
    end
  end
  local extra = sym and math.floor(max_lines / 2) or context
  local last = math.max(M.last_line(loc.range), line) + extra
  return M.whole_lines(math.max(0, line - extra), last)
end

--- sort_locations orders locations by URI then position.
function M.sort_locations(locs)
  local out = vim.list_extend({}, locs)
  table.sort(out, function(a, b)
    if a.uri ~= b.uri then
      return a.uri < b.uri
    end
    if a.range.start.line ~= b.range.start.line then
      return a.range.start.line < b.range.start.line
    end
    return a.range.start.character < b.range.start.character
  end)
  return out
end

---@class acode.View
---@field active fun(): {uri: string, cursor: lsp.Position, selection?: lsp.Range, word?: string}?
---@field open_uris fun(): string[]
---@field definitions fun(uri: string, pos: lsp.Position): (table[]?, string?) locations or nil, error
---@field references fun(uri: string, pos: lsp.Position): (table[]?, string?)
---@field symbols fun(uri: string): (acode.Symbol[]?, string?)

---@class acode.GatherOpts
---@field tool_result? {label: string, content: string}
---@field max_references? integer
---@field context_lines? integer
---@field max_symbol_lines? integer
---@field open_buffers? boolean

--- gather builds the sources of a packContext request. Failed requests to the
--- other servers are skipped and passed to on_error.
---@param view acode.View
---@param opts? acode.GatherOpts
---@param on_error? fun(what: string, err: string)
---@return table[] sources
function M.gather(view, opts, on_error)
  opts = opts or {}
  on_error = on_error or function() end
  local max_refs = opts.max_references or 30
  local context = opts.context_lines or 3
  local max_lines = opts.max_symbol_lines or 300
  local out = {}

  local tool = opts.tool_result
  if tool and tool.content and vim.trim(tool.content) ~= '' then
    table.insert(out, { type = 'tool_result', label = tool.label, content = tool.content })
  end

  local active = view.active()
  if active and active.selection then
    local sel = active.selection
    if not (sel.start.line == sel['end'].line and sel.start.character == sel['end'].character) then
      table.insert(out, {
        type = 'open_file',
        label = 'selection',
        uri = active.uri,
        range = M.whole_lines(sel.start.line, M.last_line(sel)),
        relevance = M.relevance.selection,
      })
    end
  end

  if active then
    local symbol_cache = {}
    local function symbols_of(uri)
      if symbol_cache[uri] == nil then
        local syms, err = view.symbols(uri)
        if err then
          on_error('document symbols of ' .. uri, err)
        end
        symbol_cache[uri] = syms or {}
      end
      return symbol_cache[uri]
    end
    local what = active.word and (' ' .. active.word) or ''
    local seen, taken = {}, {}

    local defs, derr = view.definitions(active.uri, active.cursor)
    if derr then
      on_error('definitions', derr)
    end
    for _, def in ipairs(defs or {}) do
      local range = expand(def, symbols_of(def.uri), false, context, max_lines)
      local key = ('%s#%d-%d'):format(def.uri, range.start.line, range['end'].line)
      if not seen[key] then
        seen[key] = true
        table.insert(taken, { uri = def.uri, range = range })
        table.insert(out, {
          type = 'reference',
          label = 'definition of' .. what,
          uri = def.uri,
          range = range,
          relevance = M.relevance.definition,
        })
      end
    end

    local refs, rerr = view.references(active.uri, active.cursor)
    if rerr then
      on_error('references', rerr)
    end
    local sent = 0
    for _, ref in ipairs(M.sort_locations(refs or {})) do
      if sent >= max_refs then
        break
      end
      local inside = false
      for _, t in ipairs(taken) do
        if t.uri == ref.uri and contains(t.range, ref.range.start.line) then
          inside = true
          break
        end
      end
      if not inside then
        local range = expand(ref, symbols_of(ref.uri), true, context, max_lines)
        local key = ('%s#%d-%d'):format(ref.uri, range.start.line, range['end'].line)
        if not seen[key] then
          seen[key] = true
          table.insert(taken, { uri = ref.uri, range = range })
          table.insert(out, {
            type = 'reference',
            label = 'reference to' .. what,
            uri = ref.uri,
            range = range,
            relevance = M.relevance.reference,
          })
          sent = sent + 1
        end
      end
    end
  end

  if opts.open_buffers ~= false then
    local seen = {}
    for _, uri in ipairs(view.open_uris()) do
      if not seen[uri] then
        seen[uri] = true
        table.insert(out, { type = 'open_file', uri = uri })
      end
    end
  end
  return out
end

--- to_location turns a Location or LocationLink into {uri, range}; a link's
--- targetRange (the whole definition) is preferred to its name.
function M.to_location(l)
  if l.targetUri then
    return { uri = l.targetUri, range = l.targetRange or l.targetSelectionRange }
  end
  return { uri = l.uri, range = l.range }
end

local container_kinds = {
  [vim.lsp.protocol.SymbolKind.Function] = true,
  [vim.lsp.protocol.SymbolKind.Method] = true,
  [vim.lsp.protocol.SymbolKind.Constructor] = true,
  [vim.lsp.protocol.SymbolKind.Class] = true,
  [vim.lsp.protocol.SymbolKind.Struct] = true,
  [vim.lsp.protocol.SymbolKind.Interface] = true,
  [vim.lsp.protocol.SymbolKind.Enum] = true,
}

--- to_symbol turns a DocumentSymbol or SymbolInformation into an acode.Symbol.
---@return acode.Symbol
function M.to_symbol(s)
  local children = {}
  for _, c in ipairs(s.children or {}) do
    table.insert(children, M.to_symbol(c))
  end
  return {
    name = s.name,
    container = container_kinds[s.kind] or false,
    range = s.location and s.location.range or s.range,
    children = children,
  }
end

return M
