package budget

import (
	"context"
	"errors"
)

// PackOptions configure [Pack]: how each selection is made, and how the
// selected items become text.
type PackOptions struct {
	// SelectOptions configure every selection. Count is required: it
	// also counts the final text exactly.
	SelectOptions
	// Render formats items, given in rank order, into the final text
	// (headers, fences and gap markers included). Required; Pack returns
	// its error as it is.
	Render func([]*Item) (string, error)
	// BeforeRender, when not nil, is called once, after the first
	// selection and before the first render (the engine times its stages
	// and reports progress there).
	BeforeRender func()
}

// Packed is the outcome of [Pack].
type Packed struct {
	// Text is the final text and Tokens its exact count (Count(Text)),
	// never above the allocation's Available. Text is Render(Kept), or ""
	// when not even an empty rendering fits.
	Text   string
	Tokens int
	// Kept holds the items rendered into Text, in rank order.
	Kept []*Item
	// Dropped holds what did not fit: the selection's over-budget
	// candidates, then the lowest-ranked selected items that the exact
	// count of the text dropped.
	Dropped []*Item
	// Recounted is how many items at the end of Dropped the exact count
	// dropped (rule 3's drop): each ranks below every item of Kept.
	Recounted int
	// Covered holds candidates whose every line a better-ranked item
	// brought already.
	Covered []*Item
	// TrimmedTokens counts the tokens of the lines of partly covered
	// candidates that were not emitted again (Selection.TrimmedTokens).
	TrimmedTokens int
}

// maxReselections bounds the selections after the first (each costs a
// render and an exact count of the whole text).
const maxReselections = 3

// fullPercent is how full (exact tokens, in percent of Available) a text
// must be for Pack to stop re-selecting.
const fullPercent = 97

// Pack chooses what of cands goes into one text of at most
// alloc.Available tokens, and renders it (docs/design.md#rule-3 and
// #rule-7). cands must be in rank order ([Less]). The stages are:
//
//  1. select: [Select] with alloc, on per-item estimates (content plus
//     the formatting opts.Overhead predicts);
//  2. render and count exactly: opts.Render joins the selection and
//     opts.Count counts the whole text, since BPE counts are not additive;
//  3. re-select: the estimates overshoot the exact count (headers are
//     estimated high, and tokens merge across chunk borders), so while
//     candidates are waiting and the text is under 97 % of Available,
//     select again (at most 3 times) with the allocation scaled by the
//     measured overshoot, keeping a new text only when it holds more
//     tokens;
//  4. drop: while the exact count is over Available, the lowest-ranked
//     kept item is dropped and the text rendered and counted again.
//
// Pack returns ctx's error when ctx is done between stages or renderings.
func Pack(ctx context.Context, cands []*Item, alloc Allocation, opts PackOptions) (Packed, error) {
	if opts.Count == nil || opts.Render == nil {
		return Packed{}, errors.New("budget: Pack needs Count and Render")
	}
	available := int(alloc.Available)
	sel := Select(cands, alloc, opts.SelectOptions)
	if err := ctx.Err(); err != nil {
		return Packed{}, err
	}
	if opts.BeforeRender != nil {
		opts.BeforeRender()
	}
	best, err := render(ctx, sel, available, opts)
	if err != nil {
		return Packed{}, err
	}
	for n := 0; n < maxReselections && best.roomLeft(available); n++ {
		if err := ctx.Err(); err != nil {
			return Packed{}, err
		}
		next, err := render(ctx, Select(cands, scaled(alloc, best.overshoot(available)), opts.SelectOptions), available, opts)
		if err != nil {
			return Packed{}, err
		}
		if next.tokens <= best.tokens {
			break
		}
		best = next
	}
	return best.packed(), nil
}

// attempt is one selection, rendered and counted.
type attempt struct {
	sel           Selection
	text          string
	tokens        int
	kept, dropped []*Item // dropped by the exact count
}

// render renders sel and counts it exactly, dropping the lowest-ranked
// items while the count is over available; it returns ctx's error when ctx
// is done before a rendering.
func render(ctx context.Context, sel Selection, available int, opts PackOptions) (attempt, error) {
	checked := func(items []*Item) (string, error) {
		if err := ctx.Err(); err != nil {
			return "", err
		}
		return opts.Render(items)
	}
	text, tokens, kept, dropped, err := fit(sel.Selected, available, checked, opts.Count)
	if err != nil {
		return attempt{}, err
	}
	return attempt{sel: sel, text: text, tokens: tokens, kept: kept, dropped: dropped}, nil
}

// roomLeft reports whether selecting again may fill more of available:
// candidates wait, and the text is not empty and under fullPercent.
func (a attempt) roomLeft(available int) bool {
	return len(a.sel.OverBudget) > 0 && a.tokens > 0 && a.tokens < available*fullPercent/100
}

// overshoot is the factor to scale the allocation by for the next
// selection: the selection's estimated cost over the exact count of its
// text, or, when the estimates did not overshoot, available over the count.
func (a attempt) overshoot(available int) float64 {
	var est int64
	for _, u := range a.sel.Used {
		est += u
	}
	factor := float64(est) / float64(a.tokens)
	if factor <= 1.0 {
		factor = float64(available) / float64(a.tokens)
	}
	return factor
}

// packed is the outcome of the attempt Pack keeps.
func (a attempt) packed() Packed {
	return Packed{
		Text: a.text, Tokens: a.tokens, Kept: a.kept,
		Dropped:       append(append([]*Item(nil), a.sel.OverBudget...), a.dropped...),
		Recounted:     len(a.dropped),
		Covered:       a.sel.Covered,
		TrimmedTokens: a.sel.TrimmedTokens,
	}
}

// scaled returns a copy of a with the available tokens and every
// category's allocation multiplied by factor.
func scaled(a Allocation, factor float64) Allocation {
	out := a
	out.Available = int64(float64(a.Available) * factor)
	out.Tokens = make(map[string]int64, len(a.Tokens))
	for c, v := range a.Tokens {
		out.Tokens[c] = int64(float64(v) * factor)
	}
	return out
}

// fit renders the selected items and counts the whole text exactly
// (docs/design.md#rule-3: BPE counts are not additive, so only the final string
// counts). While the count exceeds available it drops the lowest-ranked item
// and renders again. selected must be in rank order; it returns the final
// text, its exact count, the items kept and the items dropped.
func fit(selected []*Item, available int, render func([]*Item) (string, error), count func(string) int) (text string, tokens int, kept, dropped []*Item, err error) {
	kept = append([]*Item(nil), selected...)
	for {
		text, err = render(kept)
		if err != nil {
			return "", 0, nil, nil, err
		}
		tokens = count(text)
		if tokens <= available || len(kept) == 0 {
			break
		}
		dropped = append(dropped, kept[len(kept)-1])
		kept = kept[:len(kept)-1]
	}
	if tokens > available {
		// Nothing left and still over: an empty context always fits.
		return "", 0, kept, dropped, nil
	}
	return text, tokens, kept, dropped, nil
}
