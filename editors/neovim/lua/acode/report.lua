--- Markdown reports: what a packed context holds and leaves out (shown
--- beside it), the budget report of :AcodeBudget, and the one-line summary.
local M = {}

--- number writes n with thousands separators: 12,345.
function M.number(n)
  local s = tostring(math.floor((tonumber(n) or 0) + 0.5))
  local sign, digits = s:match('^(-?)(%d+)$')
  if not digits then
    return s
  end
  digits = digits:reverse():gsub('(%d%d%d)', '%1,'):reverse():gsub('^,', '')
  return sign .. digits
end

--- fits tells whether a packed context is within its available budget.
function M.fits(r)
  return r.tokenCount <= r.budget.available
end

--- summary is the one-line notice after packing.
function M.summary(r)
  return ('packed %s%s tokens — %s the %s available (%d chunks included, %d left out)'):format(
    r.exact and '' or '≈',
    M.number(r.tokenCount),
    M.fits(r) and 'fits' or 'DOES NOT FIT',
    M.number(r.budget.available),
    #(r.included or {}),
    #(r.excluded or {})
  )
end

local function cell(text)
  return (tostring(text or ''):gsub('[\r\n]+', ' '):gsub('\\', '\\\\'):gsub('|', '\\|'))
end

local function inline(text)
  local clean = tostring(text or ''):gsub('[\r\n]+', ' ')
  local longest = 0
  for run in clean:gmatch('`+') do
    longest = math.max(longest, #run)
  end
  local fence = ('`'):rep(longest + 1)
  local pad = (clean:sub(1, 1) == '`' or clean:sub(-1) == '`') and ' ' or ''
  return fence .. pad .. clean .. pad .. fence
end
M.inline = inline

--- tally counts chunks by a key: "5 chunks — open_file 3, reference 2" (keys sorted).
function M.tally(chunks, key)
  if #chunks == 0 then
    return 'nothing'
  end
  local counts = {}
  for _, c in ipairs(chunks) do
    local k = key(c)
    counts[k] = (counts[k] or 0) + 1
  end
  local keys = vim.tbl_keys(counts)
  table.sort(keys)
  local parts = {}
  for _, k in ipairs(keys) do
    table.insert(parts, k .. ' ' .. counts[k])
  end
  return ('%d %s — %s'):format(#chunks, #chunks == 1 and 'chunk' or 'chunks', table.concat(parts, ', '))
end

local function chunk_table(lines, chunks, with_reason)
  if #chunks == 0 then
    vim.list_extend(lines, { '_none_', '' })
    return
  end
  if with_reason then
    vim.list_extend(lines, { '| reason | type | source | lines | tokens | score |', '|---|---|---|---|---:|---:|' })
  else
    vim.list_extend(lines, { '| type | source | lines | tokens | score |', '|---|---|---|---:|---:|' })
  end
  for _, c in ipairs(chunks) do
    local cols = {
      cell(c.type),
      cell(c.path or c.label or ''),
      (c.startLine and c.endLine) and ('%d–%d'):format(c.startLine, c.endLine) or '',
      c.tokens and M.number(c.tokens) or '',
      c.score and ('%.2f'):format(c.score) or '',
    }
    if with_reason then
      table.insert(cols, 1, cell(c.reason))
    end
    table.insert(lines, '| ' .. table.concat(cols, ' | ') .. ' |')
  end
  table.insert(lines, '')
end

--- max_rows_per_reason caps each reason's table of left-out chunks.
M.max_rows_per_reason = 20

--- left_out_tables appends the left-out chunks to lines, one table per
--- reason (reasons sorted), at most max_rows_per_reason rows each, with a
--- line that sums up the rest.
function M.left_out_tables(lines, chunks)
  if #chunks == 0 then
    vim.list_extend(lines, { '_none_', '' })
    return
  end
  local by, reasons = {}, {}
  for _, c in ipairs(chunks) do
    local k = c.reason or 'unknown'
    if not by[k] then
      by[k] = {}
      table.insert(reasons, k)
    end
    table.insert(by[k], c)
  end
  table.sort(reasons)
  for _, reason in ipairs(reasons) do
    local all = by[reason]
    local tokens = 0
    for _, c in ipairs(all) do
      tokens = tokens + (c.tokens or 0)
    end
    table.insert(
      lines,
      ('### %s (%d%s)'):format(cell(reason), #all, tokens > 0 and (', %s tokens'):format(M.number(tokens)) or '')
    )
    table.insert(lines, '')
    chunk_table(lines, vim.list_slice(all, 1, M.max_rows_per_reason), false)
    if #all > M.max_rows_per_reason then
      local rest = 0
      for i = M.max_rows_per_reason + 1, #all do
        rest = rest + (all[i].tokens or 0)
      end
      table.insert(lines, #lines, '')
      table.insert(
        lines,
        #lines,
        ('_… and %d more%s._'):format(
          #all - M.max_rows_per_reason,
          rest > 0 and (' (%s tokens)'):format(M.number(rest)) or ''
        )
      )
    end
  end
end

--- tool_placement finds the tool output labelled label in a pack result:
--- whether it was included, the position of its "## Tool:" section among
--- the sections (which the pack orders by score), or why it was left out.
function M.tool_placement(r, label)
  local one = tostring(label):gsub('[\r\n]+', ' ')
  local sections, section = 0, nil
  for _, l in ipairs(vim.split(r.content or '', '\n', { plain = true })) do
    if l:match('^## File: ') or l:match('^## Tool: ') then
      sections = sections + 1
      if not section and (l == '## Tool: ' .. one or vim.startswith(l, '## Tool: ' .. one .. ' (lines ')) then
        section = sections
      end
    end
  end
  local tokens, included = 0, false
  for _, c in ipairs(r.included or {}) do
    if c.type == 'tool_result' and c.label == label then
      included = true
      tokens = tokens + (c.tokens or 0)
    end
  end
  local reason
  if not included then
    reason = 'not in the result'
    for _, c in ipairs(r.excluded or {}) do
      if c.type == 'tool_result' and c.label == label then
        reason = c.reason or reason
        break
      end
    end
  end
  return { label = label, included = included, section = section, sections = sections, tokens = tokens, reason = reason }
end

--- tool_line is the report's line about the tool output.
function M.tool_line(p)
  if p.included then
    local where = p.section and ('section %d of %d (sections are ordered by score)'):format(p.section, p.sections)
      or 'in the context'
    return ('**Tool output:** %s — included, %s tokens, %s'):format(inline(p.label), M.number(p.tokens), where)
  end
  return ('**Tool output:** %s — LEFT OUT (%s)'):format(inline(p.label), p.reason)
end

--- chunk_report renders what a pack does with a what-if lens's chunk (its
--- command argument), and what the last pack did with its lines.
---@return string[]
function M.chunk_report(a, name, last)
  local lines = { '# ' .. name, '', '**Tokens:** ' .. M.number(a.tokens or 0), '' }
  local budget = ('a pack of the open files at the configured budget (%s total, %s available)'):format(
    M.number(a.budgetTotal or 0),
    M.number(a.budgetAvailable or 0)
  )
  if a.inContext then
    vim.list_extend(lines, { ('**What if:** ✓ in context — %s includes every line of it.'):format(budget), '' })
    if a.score then
      vim.list_extend(lines, { ('**Score:** %.2f'):format(a.score), '' })
    end
  elseif a.toFit then
    vim.list_extend(lines, {
      ('**What if:** +%s to fit — %s leaves it out; with a total of %s it goes in.'):format(
        M.number(a.toFit),
        budget,
        M.number((a.budgetTotal or 0) + a.toFit)
      ),
      '',
    })
  elseif a.reason then
    vim.list_extend(lines, { ('**What if:** not packed at any budget — %s.'):format(a.reason), '' })
  end
  if last then
    local rel = name:gsub(' lines .*$', '')
    vim.list_extend(lines, { '## In the last pack', '' })
    local any = false
    local function mine(c)
      return c.path == rel and (c.startLine or 0) <= a.endLine and (c.endLine or 0) >= a.startLine
    end
    for _, c in ipairs(last.result.included or {}) do
      if mine(c) then
        any = true
        table.insert(
          lines,
          ('- included: lines %d–%d, %s tokens, score %.2f'):format(c.startLine, c.endLine, M.number(c.tokens or 0), c.score or 0)
        )
      end
    end
    for _, c in ipairs(last.result.excluded or {}) do
      if mine(c) then
        any = true
        table.insert(
          lines,
          ('- left out (%s): lines %d–%d, %s tokens'):format(c.reason or 'unknown', c.startLine, c.endLine, M.number(c.tokens or 0))
        )
      end
    end
    if not any then
      table.insert(lines, '_Not among its sources._')
    end
    table.insert(lines, '')
  end
  return lines
end

--- pack_report renders a packContext result as markdown lines.
---@return string[]
function M.pack_report(r, query, tool_label)
  local lines = { '# Acode context report', '' }
  if query and query ~= '' then
    vim.list_extend(lines, { '**Task:** ' .. inline(query), '' })
  end
  local b = r.budget
  vim.list_extend(lines, {
    ('**Tokens:** %s of %s available — %s'):format(
      M.number(r.tokenCount),
      M.number(b.available),
      M.fits(r) and 'fits' or 'DOES NOT FIT'
    ),
    '',
    '**Included:** ' .. M.tally(r.included or {}, function(c)
      return tostring(c.type)
    end),
    '',
    '**Left out:** ' .. M.tally(r.excluded or {}, function(c)
      return c.reason or 'unknown'
    end),
    '',
  })
  if tool_label then
    vim.list_extend(lines, { M.tool_line(M.tool_placement(r, tool_label)), '' })
  end
  vim.list_extend(lines, {
    ('**Model:** %s · encoding %s · %s count'):format(
      inline(r.model),
      inline(r.encoding),
      r.exact and 'exact' or 'estimated'
    ),
    '',
    ('**Window:** %s total − %s system reserve − %s response reserve'):format(
      M.number(b.total),
      M.number(b.systemReserve),
      M.number(b.responseReserve)
    ),
    '',
  })
  local names = vim.tbl_keys(b.categories or {})
  table.sort(names)
  if #names > 0 then
    vim.list_extend(lines, { '## Budget by category', '', '| category | allocated | used |', '|---|---:|---:|' })
    for _, name in ipairs(names) do
      local c = b.categories[name]
      table.insert(lines, ('| %s | %s | %s |'):format(cell(name), M.number(c.allocated), M.number(c.used)))
    end
    table.insert(lines, '')
  end
  vim.list_extend(lines, { ('## Included (%d)'):format(#(r.included or {})), '' })
  chunk_table(lines, r.included or {}, false)
  vim.list_extend(lines, { ('## Left out (%d)'):format(#(r.excluded or {})), '' })
  M.left_out_tables(lines, r.excluded or {})
  if r.dedup then
    vim.list_extend(lines, {
      '## Deduplication',
      '',
      ('%d exact duplicates removed, %d overlaps merged, %s tokens saved.'):format(
        r.dedup.exactRemoved or 0,
        r.dedup.overlapsMerged or 0,
        M.number(r.dedup.tokensSaved or 0)
      ),
      '',
    })
  end
  if r.warnings and #r.warnings > 0 then
    vim.list_extend(lines, { '## Warnings', '' })
    for _, w in ipairs(r.warnings) do
      table.insert(lines, '- ' .. inline(w))
    end
    table.insert(lines, '')
  end
  return lines
end

--- level_label names a budget level for people. The thresholds are
--- configurable (context.budget.warnings): the label states them only when
--- the status carries them (s.thresholds), otherwise how much is used.
---@param s {level: string, percent?: number, thresholds?: {warningPercent: number, criticalPercent: number, minRemainingTokens: integer}}
---@return string
function M.level_label(s)
  local t = s.thresholds
  if type(t) == 'table' and s.level == 'warning' then
    return ('warning (%s–%s %% used, or under %s tokens left)'):format(t.warningPercent, t.criticalPercent, M.number(t.minRemainingTokens))
  elseif type(t) == 'table' and s.level == 'critical' then
    return ('critical (over %s %% used)'):format(t.criticalPercent)
  end
  if s.level == 'normal' or tonumber(s.percent) == nil then
    return tostring(s.level)
  end
  return ('%s (%.1f %% used)'):format(s.level, tonumber(s.percent))
end

--- stats_report renders an acode/packStats answer (packing since the server
--- started) as markdown lines.
---@return string[]
function M.stats_report(st)
  local function ms(v)
    return ('%.1f ms'):format(tonumber(v) or 0)
  end
  local function pct(v)
    return ('%.1f %%'):format((tonumber(v) or 0) * 100)
  end
  local lat, ch, tok, dd, c = st.latencyMs or {}, st.chunks or {}, st.tokens or {}, st.dedup or {}, st.cache or {}
  return {
    '## Packing since the server started',
    '',
    ('- **Packs:** %s answered, %s failed'):format(M.number(st.packs), M.number(st.failed)),
    ('- **Latency:** p50 %s · p95 %s · max %s'):format(ms(lat.p50), ms(lat.p95), ms(lat.max)),
    ('- **Chunks:** %s included of %s considered'):format(M.number(ch.included), M.number(ch.considered)),
    ('- **Tokens:** %s packed of %s available (%s)'):format(M.number(tok.packed), M.number(tok.available), pct(tok.utilization)),
    ('- **Dedup:** %s duplicates removed, %s overlaps merged, %s tokens saved'):format(
      M.number(dd.exactRemoved),
      M.number(dd.overlapsMerged),
      M.number(dd.tokensSaved)
    ),
    ('- **Count cache:** %s hits (%s hits, %s misses, %s evictions, %s entries)'):format(
      pct(c.hitRate),
      M.number(c.hits),
      M.number(c.misses),
      M.number(c.evictions),
      M.number(c.entries)
    ),
    '',
  }
end

--- budget_report renders an acode/budgetStatus answer (with the acode/packStats
--- answer and the last pack, when given) as markdown lines.
---@return string[]
function M.budget_report(s, last, stats)
  local lines = {
    '# Acode budget',
    '',
    '**Level:** ' .. M.level_label(s),
    '',
    ('**Open files:** %d using %s of %s available tokens (%.1f %%)'):format(
      s.openFiles or 0,
      M.number(s.used),
      M.number(s.available),
      tonumber(s.percent) or 0
    ),
    '',
    ('**Model:** %s · encoding %s · %s count'):format(
      inline(s.model),
      inline(s.encoding),
      s.exact and 'exact' or 'estimated'
    ),
    '',
  }
  local calibrate = require('acode.calibrate')
  local est = calibrate.estimate_text(s)
  if est and type(s.estimate) == 'table' then
    vim.list_extend(lines, { ('**Estimate:** %s. %s'):format(est:gsub('^estimated ', ''), calibrate.hint), '' })
  end
  vim.list_extend(lines, { ('**Window:** %s tokens'):format(M.number(s.total)), '' })
  if stats then
    vim.list_extend(lines, M.stats_report(stats))
  end
  if last then
    local pack = M.pack_report(last.result, last.query, last.tool_label)
    pack[1] = '# Last packed context'
    vim.list_extend(lines, { '---', '' })
    vim.list_extend(lines, pack)
  else
    vim.list_extend(lines, { '_No context packed yet: run :AcodePack._', '' })
  end
  return lines
end

return M
