package collector

import "context"

type progressKey struct{}

// WithProgress returns a context under which Walk (and Search, which walks)
// calls fn after each file it meets, with the files met and the bytes of
// text gathered so far — for a progress display while a big tree is read.
// fn is called from the walking goroutine and must be quick.
func WithProgress(ctx context.Context, fn func(files int, bytes int64)) context.Context {
	return context.WithValue(ctx, progressKey{}, fn)
}

func progressOf(ctx context.Context) func(int, int64) {
	fn, _ := ctx.Value(progressKey{}).(func(int, int64))
	return fn
}
