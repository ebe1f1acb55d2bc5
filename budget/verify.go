package budget

// Fit renders the selected items and counts the whole text exactly
// (docs/design.md#rule-3: BPE counts are not additive, so only the final string
// counts). While the count exceeds available it drops the lowest-ranked item
// and renders again. selected must be in rank order; it returns the final
// text, its exact count, the items kept and the items dropped.
func Fit(selected []*Item, available int, render func([]*Item) (string, error), count func(string) int) (text string, tokens int, kept, dropped []*Item, err error) {
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
