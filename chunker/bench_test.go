package chunker

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// netHTTPSource concatenates the non-test Go files of $GOROOT/src/net/http
// up to n bytes (whole files).
func netHTTPSource(b *testing.B, n int) []byte {
	b.Helper()
	files, err := filepath.Glob(filepath.Join(runtime.GOROOT(), "src", "net", "http", "*.go"))
	if err != nil || len(files) == 0 {
		b.Fatalf("no net/http sources under GOROOT: %v", err)
	}
	var buf bytes.Buffer
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		data, err := os.ReadFile(f)
		if err != nil {
			b.Fatal(err)
		}
		if buf.Len()+len(data) > n {
			continue
		}
		buf.Write(data)
	}
	return buf.Bytes()
}

// BenchmarkSplit1MB chunks about 1 MB of Go (net/http) with default options
// and the test counter.
func BenchmarkSplit1MB(b *testing.B) {
	src := netHTTPSource(b, 1<<20)
	b.SetBytes(int64(len(src)))
	opts := Options{PreferStructural: true}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Split(context.Background(), "http.go", src, quarter, opts); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkSplitLines1MB cuts the same source into line windows.
func BenchmarkSplitLines1MB(b *testing.B) {
	src := netHTTPSource(b, 1<<20)
	b.SetBytes(int64(len(src)))
	b.ReportAllocs()
	for b.Loop() {
		SplitLines(src, 1, 1<<30, quarter, Options{})
	}
}

// BenchmarkDocumentUpdate1MB re-chunks 1 MB of Go after a one-line edit,
// re-parsing incrementally.
func BenchmarkDocumentUpdate1MB(b *testing.B) {
	src := netHTTPSource(b, 1<<20)
	edited := bytes.Replace(src, []byte("\nfunc "), []byte("\n// edited\nfunc "), 1)
	opts := Options{PreferStructural: true}
	d := NewDocument("http.go")
	defer d.Close()
	b.SetBytes(int64(len(src)))
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		text := src
		if i%2 == 1 {
			text = edited
		}
		if _, err := d.Update(context.Background(), text, quarter, opts); err != nil {
			b.Fatal(err)
		}
	}
}

// netHTTPFiles reads the Go files of $GOROOT/src/net/http (tests too).
func netHTTPFiles(b *testing.B) map[string][]byte {
	b.Helper()
	files, err := filepath.Glob(filepath.Join(runtime.GOROOT(), "src", "net", "http", "*.go"))
	if err != nil || len(files) == 0 {
		b.Fatalf("no net/http sources under GOROOT: %v", err)
	}
	out := map[string][]byte{}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			b.Fatal(err)
		}
		out[f] = data
	}
	return out
}

// BenchmarkSplitOutline chunks every Go file of net/http: Split alone,
// SplitOutline (chunks and outline from one parse) and Split then
// Outline (two parses), to show what the outline costs on a parse.
func BenchmarkSplitOutline(b *testing.B) {
	files := netHTTPFiles(b)
	opts := Options{PreferStructural: true}
	ctx := context.Background()
	for _, tt := range []struct {
		name string
		cut  func(path string, src []byte) error
	}{
		{"split", func(path string, src []byte) error { _, err := Split(ctx, path, src, quarter, opts); return err }},
		{"splitoutline", func(path string, src []byte) error {
			_, _, _, err := SplitOutline(ctx, path, src, quarter, opts)
			return err
		}},
		{"split+outline", func(path string, src []byte) error {
			if _, err := Split(ctx, path, src, quarter, opts); err != nil {
				return err
			}
			_, err := Outline(ctx, path, src)
			return err
		}},
	} {
		b.Run(tt.name, func(b *testing.B) {
			for b.Loop() {
				for path, src := range files {
					if err := tt.cut(path, src); err != nil {
						b.Fatal(err)
					}
				}
			}
		})
	}
}
