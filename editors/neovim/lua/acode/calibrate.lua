--- Estimates and their calibration: what a count that is not exact is (for
--- :AcodeBudget and require('acode').estimate()), and the pure logic of
--- :AcodeReportUsage (which text, which model, which acode/reportUsage
--- params, what the answer means).
local M = {}

--- format_factor writes a factor with at most three decimals: 1.25, 1.312.
---@param f number
---@return string
function M.format_factor(f)
  if type(f) ~= 'number' or f ~= f or f == math.huge or f == -math.huge then
    return '?'
  end
  local s = string.format('%.3f', math.floor(f * 1000 + 0.5) / 1000)
  s = s:gsub('0+$', ''):gsub('%.$', '')
  return s
end

--- estimate_text says what an estimate is, e.g. `estimated upper bound:
--- o200k_base × 1.25, not calibrated (0 samples)`; nil for an exact count.
--- A result that is not exact but has no estimate object (an older server)
--- gives `estimated count`.
---@param s {exact: boolean, estimate?: {basis: string, factor: number, calibrated: boolean, samples: integer}}
---@return string?
function M.estimate_text(s)
  if s.exact then
    return nil
  end
  local e = s.estimate
  if type(e) ~= 'table' then
    return 'estimated count'
  end
  local samples = e.samples == 1 and '1 sample' or ('%d samples'):format(tonumber(e.samples) or 0)
  return ('estimated upper bound: %s × %s, %s (%s)'):format(
    tostring(e.basis),
    M.format_factor(e.factor),
    e.calibrated and 'calibrated' or 'not calibrated',
    samples
  )
end

--- hint says how to calibrate an estimate.
M.hint =
  "To calibrate it, run :AcodeReportUsage {tokens} with the input token count your provider's response showed for the last packed context."

--- parse_actual reads the count a provider showed: a positive integer,
--- thousands separators (`,` `_` `'` or spaces) allowed; 12k is refused,
--- calibration needs the exact number.
---@param text string
---@return integer? tokens, string? err
function M.parse_actual(text)
  local s = (text or ''):gsub("[,_' ]", '')
  if s == '' then
    return nil, 'give the input token count the provider reported, e.g. :AcodeReportUsage 12345'
  end
  if not s:match('^%d+$') then
    return nil, ('%q is not a whole number of tokens: give it exactly as the provider reported it (12345, not 12k)'):format(text)
  end
  local n = tonumber(s)
  if not n or n <= 0 or n > 2 ^ 53 then
    return nil, 'the token count must be a positive whole number'
  end
  return math.floor(n), nil
end

--- usage_request builds the acode/reportUsage params: the last packed
--- context with the model it was packed for; without one (or with a range)
--- the given lines with the server's current model. Returns nil when there
--- is no text or no model.
---@param src {last_pack?: {content: string, model: string}, lines?: string, model?: string, what?: string}
---@param actual integer
---@return {params: table, what: string}?
function M.usage_request(src, actual)
  local text, model, what
  if src.last_pack and src.last_pack.content ~= '' then
    text, model, what = src.last_pack.content, src.last_pack.model or src.model, 'the last packed context'
  else
    text, model, what = src.lines, src.model, src.what or 'the buffer'
  end
  if not text or text == '' or not model or model == '' then
    return nil
  end
  return { params = { model = model, text = text, actualTokens = actual }, what = what }
end

--- result_text says what a report changed.
---@param r {model: string, factor: number, samples: integer, exact?: boolean, match?: boolean}
---@param actual integer
---@param number fun(n: number): string thousands separators
---@return string
function M.result_text(r, actual, number)
  if r.exact then
    if r.match then
      return ('acode: %s counts exactly, and the provider agrees (%s tokens); nothing to calibrate'):format(r.model, number(actual))
    end
    return ('acode: %s counts exactly; the provider said %s tokens, which differs — nothing learned (a provider\'s count often includes a chat template or system prompt)'):format(
      r.model,
      number(actual)
    )
  end
  local reports = r.samples == 1 and '1 report' or ('%d reports'):format(r.samples or 0)
  return ('acode: %s estimates are now o200k_base × %s (calibrated from %s)'):format(r.model, M.format_factor(r.factor), reports)
end

return M
