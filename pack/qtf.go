package pack

// Query-term frequency (issue 23 fifth pass): a term a query says more
// than once (a commit message's subject repeated in its body, the name
// the whole message is about) weighs more, saturating as BM25's k3:
// w(t) × (k3 + 1) · qtf / (k3 + qtf). queryTerms keeps each term once;
// the honest baseline counts repeats. Measured on the evaluation and off
// by default (docs/quality.md "fifth pass", round 7): "+qtf" turns it on.
const (
	featQTF = "qtf"
	// qtfK3 is the saturation ("qtfk=x").
	qtfK3 = 1.5
)

// applyQTF scales the weights w of terms (queryTerms of text) by their
// saturated frequency in text.
func applyQTF(text string, terms []string, w []float64, k3 float64) {
	if k3 <= 0 {
		return
	}
	idx := make(map[string]int, len(terms))
	for i, t := range terms {
		idx[t] = i
	}
	n := make([]int, len(terms))
	scanTerms(text, true, nil, func(t []byte) {
		if i, ok := idx[string(t)]; ok {
			n[i]++
		}
	})
	for i := range w {
		if f := float64(max(1, n[i])); f > 1 {
			w[i] *= (k3 + 1) * f / (k3 + f) // 1 at qtf = 1
		}
	}
}
