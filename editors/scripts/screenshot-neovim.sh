#!/usr/bin/env bash
# screenshot-neovim.sh runs Neovim with acode.nvim on a copy of the sample
# workspace inside tmux (as a user would see it: statusline budget, code
# lenses, a packed context beside its report), captures the screen with its
# colours and renders it to a PNG with chromium.
#
# Usage: screenshot-neovim.sh NVIM ACODE_LSP SAMPLE_DIR OUT.png
set -euo pipefail

nvim=$1 server=$2 sample=$3 out=$4
here=$(cd "$(dirname "$0")" && pwd)
plugin=$(cd "$here/../neovim" && pwd)
tmp=$(mktemp -d)
session=acode-shot
sock=acode-shot-$$
cleanup() {
	tmux -L "$sock" kill-server 2>/dev/null || true
	rm -rf "$tmp"
}
trap cleanup EXIT

cp -R "$sample" "$tmp/workspace"
cat >"$tmp/init.lua" <<LUA
vim.opt.runtimepath:prepend('$plugin')
vim.o.termguicolors = true
vim.o.swapfile = false
vim.o.laststatus = 2
vim.o.number = true
vim.o.statusline = "%f %m%=%{%v:lua.require'acode'.statusline({'highlight': v:true})%}  %l:%c "
vim.cmd('runtime plugin/acode.lua')
require('acode').setup({})

-- The picture: the Go file with its lenses on the left, the packed context
-- (top) and its report (bottom) on the right, the pack's summary below.
function AcodeShotLayout()
  local pack = require('acode.pack')
  vim.cmd('tabonly | only')
  vim.cmd('edit cart/service.go')
  vim.cmd('rightbelow vertical sbuffer ' .. pack.buffer(pack.names.context))
  vim.cmd('rightbelow sbuffer ' .. pack.buffer(pack.names.report))
  for _, win in ipairs(vim.api.nvim_tabpage_list_wins(0)) do
    if vim.api.nvim_win_get_buf(win) ~= vim.fn.bufnr('cart/service.go') then
      vim.wo[win].wrap = false
      vim.wo[win].number = false
    end
  end
  vim.cmd('wincmd h')
  vim.cmd('redraw')
  vim.api.nvim_echo({ { 'acode: ' .. require('acode.report').summary(pack.last.result) } }, false, {})
end
LUA

cols=200 rows=50
cd "$tmp/workspace"
tmux -L "$sock" new-session -d -s "$session" -x $cols -y $rows \
	"PATH=$(dirname "$server"):\$PATH $nvim -u $tmp/init.lua cart/service.go"
tmux -L "$sock" set-option -t "$session" -g default-terminal "tmux-256color" >/dev/null 2>&1 || true
tmux -L "$sock" set-option -t "$session" -ga terminal-overrides ",*:Tc" >/dev/null 2>&1 || true

# Wait for the budget in the statusline and the lenses with their what-if state.
for _ in $(seq 1 100); do
	if tmux -L "$sock" capture-pane -p -t "$session" | grep -q 'in context' &&
		tmux -L "$sock" capture-pane -p -t "$session" | grep -Eq 'acode [0-9.]+K?/'; then
		break
	fi
	sleep 0.2
done
tmux -L "$sock" capture-pane -p -t "$session" | grep -q 'tokens ·' || { echo "screenshot-neovim: no lenses on screen" >&2; exit 1; }
tmux -L "$sock" send-keys -t "$session" ':AcodePack 8k why does checkout fail for empty carts' Enter
for _ in $(seq 1 100); do
	tmux -L "$sock" capture-pane -p -t "$session" | grep -q 'Acode context report' && break
	sleep 0.2
done
tmux -L "$sock" send-keys -t "$session" ':lua AcodeShotLayout()' Enter
sleep 1
tmux -L "$sock" capture-pane -e -p -t "$session" >"$tmp/screen.ansi"
node "$here/ansi2png.js" "$tmp/screen.ansi" "$out" "$cols"
echo "wrote $out" >&2
