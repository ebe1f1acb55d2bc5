-- A small test harness for `nvim --headless -u NONE -l`: t.run(name, fn)
-- records a pass or a failure (with the error), t.finish() prints the
-- summary line "N passed, N failed" and exits non-zero on any failure.
local t = { passed = 0, failed = 0, failures = {} }

--- plugin_root is editors/neovim, found from this file's path.
t.plugin_root = vim.fn.fnamemodify(debug.getinfo(1, 'S').source:sub(2), ':p:h:h')

--- use_plugin puts the plugin on the runtimepath, as a plugin manager would.
function t.use_plugin()
  vim.opt.runtimepath:prepend(t.plugin_root)
  vim.cmd('runtime plugin/acode.lua')
end

local function out(msg)
  io.stdout:write(msg .. '\n')
  io.stdout:flush()
end
t.log = out

--- run runs one named test.
function t.run(name, fn)
  local ok, err = xpcall(fn, debug.traceback)
  if ok then
    t.passed = t.passed + 1
    out('ok   ' .. name)
  else
    t.failed = t.failed + 1
    table.insert(t.failures, name)
    out('FAIL ' .. name .. '\n' .. tostring(err))
  end
end

--- eq fails with a (-want +got) report unless want and got are deeply equal.
function t.eq(want, got, what)
  if not vim.deep_equal(want, got) then
    error(('%s mismatch (-want +got):\n- %s\n+ %s'):format(what or 'value', vim.inspect(want), vim.inspect(got)), 2)
  end
end

--- truthy fails with msg unless v is truthy.
function t.truthy(v, msg)
  if not v then
    error(msg or 'expected a true value', 2)
  end
  return v
end

--- contains fails unless the string s contains sub (plain).
function t.contains(s, sub, what)
  if type(s) ~= 'string' or not s:find(sub, 1, true) then
    error(('%s: %s does not contain %s'):format(what or 'text', vim.inspect(s), vim.inspect(sub)), 2)
  end
end

--- wait waits up to ms for cond() to be truthy, failing with msg.
function t.wait(ms, cond, msg)
  local ok = vim.wait(ms, cond, 20)
  if not ok then
    error(('timed out after %d ms waiting for %s'):format(ms, msg), 2)
  end
end

--- finish prints the summary and exits.
function t.finish()
  out(('%d passed, %d failed'):format(t.passed, t.failed))
  if t.failed > 0 then
    out('failed: ' .. table.concat(t.failures, ', '))
  end
  vim.cmd((t.failed > 0 and 'cquit 1') or 'qall!')
end

return t
