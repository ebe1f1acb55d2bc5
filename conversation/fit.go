package conversation

import (
	"context"
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/acode-lsp/acode-lsp/internal/errcode"
)

// Fit modes.
const (
	ModePage    = "page"    // the default: the next page of whole items
	ModeHistory = "history" // a compressed summary for a work log
)

// History-mode defaults (seed 004): a work-log entry is at most 500
// characters, and the whole work history at most 12,000 tokens.
const (
	DefaultHistoryEntryChars = 500
	DefaultHistoryCap        = 12000
)

// FitRequest is the params object of acode/fitToolResult. MaxTokens 0
// (absent) means [DefaultToolTokens]. Path (optional) names the file of a
// read_file output in history summaries, Pattern the searched pattern of a
// search_content output; Model (or TokenizerFile, a Hugging Face
// tokenizer.json) lets the server pick the tokenizer.
//
// History mode only: MaxChars caps the summary's characters (absent:
// [DefaultHistoryEntryChars]; 0 turns the cap off); HistoryTokens is what
// the work history already holds (absent: the session's count, else 0)
// and HistoryCap its cap (0: [DefaultHistoryCap]) — the result says how
// full the history is with this entry.
type FitRequest struct {
	Tool          string `json:"tool"`
	Content       string `json:"content"`
	MaxTokens     int    `json:"maxTokens"`
	Cursor        string `json:"cursor,omitempty"`
	Mode          string `json:"mode,omitempty"`
	Path          string `json:"path,omitempty"`
	Model         string `json:"model,omitempty"`
	Pattern       string `json:"pattern,omitempty"`
	MaxChars      *int   `json:"maxChars,omitempty"`
	HistoryTokens *int   `json:"historyTokens,omitempty"`
	HistoryCap    int    `json:"historyCap,omitempty"`
	SessionID     string `json:"sessionId,omitempty"`
	TokenizerFile string `json:"tokenizerFile,omitempty"`

	// Outline lists the top-level declarations of a file ("func Checkout",
	// "type Cart") for read_file history summaries; nil lists none. The
	// server and the CLI pass the chunker's (package conversation does not
	// parse code).
	Outline func(ctx context.Context, path, content string) []string `json:"-"`
}

// FitResult is the result of acode/fitToolResult. Content is an exact
// slice of the tool output (a page) or a summary (history mode); Tokens is
// its exact count. Returned counts the items completed by this page and
// Total the items of the whole output, so the Returned of all pages add up
// to Total. Continuation is null on the last page. MaxTokens is the
// default limit used when the request gave none (absent otherwise). In
// history mode
// HistoryTokens is the work history's size with this entry, HistoryCap its
// cap and HistoryOver how far over the cap it is (drop that many tokens of
// the oldest entries).
type FitResult struct {
	Content       string  `json:"content"`
	Tokens        int     `json:"tokens"`
	Returned      int     `json:"returned"`
	Total         int     `json:"total"`
	Continuation  *string `json:"continuation"`
	Note          string  `json:"note,omitempty"`
	MaxTokens     int     `json:"maxTokens,omitempty"`
	HistoryTokens *int    `json:"historyTokens,omitempty"`
	HistoryCap    int     `json:"historyCap,omitempty"`
	HistoryOver   int     `json:"historyOver,omitempty"`
}

// FitToolResult fits a tool output into req.MaxTokens. In page mode it
// returns the largest leading page of whole items (lines, files, matches,
// hunks, commits; see the tool kinds) from the cursor on whose exact count
// fits, and a continuation that resumes exactly where the page ended:
// concatenating the pages gives back the output byte for byte, with no item
// lost or repeated. An item too large for maxTokens on its own is split
// across pages, at a line break when it has one. In history mode it returns
// a summary of the output for a work log (see [Compress]).
func FitToolResult(ctx context.Context, c Counter, req FitRequest) (*FitResult, error) {
	defaulted := 0
	if req.MaxTokens == 0 {
		req.MaxTokens, defaulted = DefaultToolTokens, DefaultToolTokens
	}
	if req.MaxTokens < 0 {
		return nil, paramErrorf("maxTokens", "must be positive, got %d (leave it out for the default %d)", req.MaxTokens, DefaultToolTokens)
	}
	switch req.Mode {
	case "", ModePage:
	case ModeHistory:
		req.MaxTokens -= defaulted // Compress applies (and reports) the default itself
		return Compress(ctx, c, req)
	default:
		return nil, paramErrorf("mode", "unknown mode %q (%q or %q)", req.Mode, ModePage, ModeHistory)
	}
	kind := itemKind(req.Tool)
	items := splitItems(kind, req.Content)
	hash := fingerprint(kind, req.Content)
	start := cursor{V: cursorVersion, Hash: hash}
	if req.Cursor != "" {
		var err error
		if start, err = decodeCursor(req.Cursor, hash, items); err != nil {
			return nil, err
		}
	}
	if len(items) == 0 {
		return &FitResult{Content: "", Note: "the output is empty", MaxTokens: defaulted}, nil
	}
	p, err := nextPage(ctx, c, req.Content, items, start, req.MaxTokens)
	if err != nil {
		return nil, err
	}
	res := &FitResult{
		Content:   req.Content[start.Off:p.end],
		Tokens:    p.tokens,
		Returned:  p.completed - start.Item,
		Total:     len(items),
		MaxTokens: defaulted,
	}
	noun := itemNoun(kind)
	first, last := start.Item+1, p.completed
	if p.end < items[len(items)-1].end {
		next := cursor{V: cursorVersion, Item: p.completed, Off: p.end, Hash: hash}.encode()
		res.Continuation = &next
		if p.end > items[p.completed].start { // the page ends inside an oversized item
			last = p.completed + 1
		}
		res.Note = fmt.Sprintf("Use cursor %s to continue (items %s shown; items are %s)", next, itemRange(first, last, len(items)), noun)
		if last > p.completed {
			res.Note += fmt.Sprintf("; item %d is larger than maxTokens and continues on the next page", last)
		}
	} else {
		res.Note = fmt.Sprintf("Items %s shown, nothing more (items are %s)", itemRange(first, last, len(items)), noun)
	}
	return res, nil
}

func itemRange(first, last, total int) string {
	if first >= last {
		return fmt.Sprintf("%d of %d", last, total)
	}
	return fmt.Sprintf("%d–%d of %d", first, last, total)
}

// page is where a page ends: the byte offset end, the number of items
// completed by then (an item index: the item containing end, or len(items)),
// and the page's exact token count.
type page struct {
	end, completed, tokens int
}

// nextPage finds the largest page starting at from that fits maxTokens.
func nextPage(ctx context.Context, c Counter, content string, items []span, from cursor, maxTokens int) (page, error) {
	i := from.Item
	count := func(k int) int { // tokens of the page through item i+k-1
		return c.Count(content[from.Off:items[i+k-1].end])
	}
	// The rest of item i does not fit on its own: split it.
	if n := count(1); n > maxTokens {
		return splitItem(ctx, c, content, items, from, maxTokens)
	}
	// Estimate from per-item counts, then settle on exact counts of the
	// joined text (BPE counts are not additive).
	est, sum := 1, c.Count(content[from.Off:items[i].end])
	for est < len(items)-i {
		if est%256 == 0 {
			if err := ctx.Err(); err != nil {
				return page{}, fmt.Errorf("conversation: fit: %w", err)
			}
		}
		n := c.Count(content[items[i+est].start:items[i+est].end])
		if sum+n > maxTokens {
			break
		}
		sum += n
		est++
	}
	lo, hi := 1, len(items)-i+1 // count(lo) fits; hi is past the largest that can fit
	if est > lo {
		if count(est) <= maxTokens {
			lo = est
		} else {
			hi = est
		}
	}
	// Gallop outward from lo, then bisect.
	for step := 1; lo+step < hi; step *= 2 {
		if err := ctx.Err(); err != nil {
			return page{}, fmt.Errorf("conversation: fit: %w", err)
		}
		if count(lo+step) <= maxTokens {
			lo += step
		} else {
			hi = lo + step
			break
		}
	}
	for hi-lo > 1 {
		mid := lo + (hi-lo)/2
		if count(mid) <= maxTokens {
			lo = mid
		} else {
			hi = mid
		}
	}
	return page{end: items[i+lo-1].end, completed: i + lo, tokens: count(lo)}, nil
}

// splitItem returns the largest prefix of the rest of item from.Item that
// fits, cut after its last line break when it has one, else at a rune
// boundary.
func splitItem(ctx context.Context, c Counter, content string, items []span, from cursor, maxTokens int) (page, error) {
	it := items[from.Item]
	rest := content[from.Off:it.end]
	lo, hi := 0, len(rest) // rest[:lo] fits, rest[:hi] does not
	for hi-lo > 1 {
		if err := ctx.Err(); err != nil {
			return page{}, fmt.Errorf("conversation: fit: %w", err)
		}
		mid := runeStart(rest, lo+(hi-lo)/2)
		if mid <= lo {
			mid = lo + utf8RuneLenAt(rest, lo)
			if mid >= hi {
				break
			}
		}
		if c.Count(rest[:mid]) <= maxTokens {
			lo = mid
		} else {
			hi = mid
		}
	}
	if nl := strings.LastIndexByte(rest[:lo], '\n'); nl >= 0 {
		lo = nl + 1
	}
	if lo == 0 {
		return page{}, &Error{
			Code:    errcode.Budget,
			Message: fmt.Sprintf("maxTokens %d is too small to show any of item %d: raise maxTokens", maxTokens, from.Item+1),
			Data:    map[string]any{"code": string(errcode.Budget), "currentTokens": c.Count(rest[:utf8RuneLenAt(rest, 0)]), "maxTokens": maxTokens},
		}
	}
	end := from.Off + lo
	completed := from.Item
	if end == it.end {
		completed++
	}
	return page{end: end, completed: completed, tokens: c.Count(rest[:lo])}, nil
}

// runeStart moves i back to the start of the rune it falls in.
func runeStart(s string, i int) int {
	for i > 0 && i < len(s) && !utf8.RuneStart(s[i]) {
		i--
	}
	return i
}

func utf8RuneLenAt(s string, i int) int {
	_, n := utf8.DecodeRuneInString(s[i:])
	return n
}
