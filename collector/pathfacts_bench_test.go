package collector

import (
	"math/rand"
	"strings"
	"testing"
)

// benchPaths are workspace-relative paths shaped like the 100K scale
// tree's (a project, a few directories, a file; mixed case).
func benchPaths() []string {
	dirs := []string{"apache+kafka", "clients", "src", "main", "java", "org", "apache", "kafka", "common",
		"internals", "test", "resources", "docs", "pkg", "util", "Storage", "k8s.io", "client-go"}
	files := []string{"KafkaConsumer.java", "record_batch.go", "README.md", "index.ts", "Makefile",
		"config_test.go", "SaslAuthenticator.java", "helpers.py", "build.gradle", "package.json"}
	rng := rand.New(rand.NewSource(24))
	out := make([]string, 4096)
	for i := range out {
		parts := make([]string, 2+rng.Intn(7))
		for j := range parts {
			parts[j] = dirs[rng.Intn(len(dirs))]
		}
		parts[len(parts)-1] = files[rng.Intn(len(files))]
		out[i] = strings.Join(parts, "/")
	}
	return out
}

// BenchmarkPathFacts times the per-file checks a directory loader runs
// on every listed path (walkfacts.go prepare): ns/op is per path.
func BenchmarkPathFacts(b *testing.B) {
	paths := benchPaths()
	b.Run("IsSecretPath", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			IsSecretPath(paths[i%len(paths)])
		}
	})
	b.Run("IsSecretPathWhole", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			isSecretPathWhole(paths[i%len(paths)])
		}
	})
	b.Run("DisplayPath", func(b *testing.B) {
		b.ReportAllocs()
		for i := 0; i < b.N; i++ {
			DisplayPath(paths[i%len(paths)])
		}
	})
}
