package pack

// Unwrapper is a FileIndex that wraps another (a running server's memo of
// the index's answers, missterms.go and termmemo.go): what the wrapped
// index can do besides FileIndex (answer a search's filter, remember
// refused files, know clean texts) is found through Unwrap, so that every
// door gets it whatever memo it puts in front.
type Unwrapper interface {
	Unwrap() FileIndex
}

// IndexAs returns the first of idx and the indexes it wraps (through
// [Unwrapper]) that is a T; false when none is.
func IndexAs[T any](idx FileIndex) (T, bool) {
	for idx != nil {
		if t, ok := idx.(T); ok {
			return t, true
		}
		u, ok := idx.(Unwrapper)
		if !ok {
			break
		}
		idx = u.Unwrap()
	}
	var zero T
	return zero, false
}

// Unwrap implements [Unwrapper].
func (t *keptTerms) Unwrap() FileIndex { return t.FileIndex }

// Unwrap implements [Unwrapper].
func (t *missedTerms) Unwrap() FileIndex { return t.FileIndex }
