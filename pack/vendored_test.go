package pack

import (
	"fmt"
	"path/filepath"
	"reflect"
	"slices"
	"testing"
)

func TestVendoredDirs(t *testing.T) {
	paths := []string{
		"requests/__init__.py",
		"requests/api.py",
		"requests/packages/__init__.py",
		"requests/packages/urllib3/LICENSE.txt", // a copy inside the package: vendored
		"requests/packages/urllib3/poolmanager.py",
		"requests/packages/urllib3/util/retry.py",
		"gson/LICENSE", // a module's own licence at the top: not
		"gson/pom.xml",
		"gson/src/main/java/Gson.java",
		"packages/core/LICENSE", // a monorepo package: its parent holds no code
		"packages/core/index.js",
		"examples/tutorial/LICENSE", // an example app: its parent holds no code
		"examples/tutorial/setup.py",
		"LICENSE",
		"setup.py",
	}
	want := []string{"requests/packages/urllib3"}
	got := vendoredDirs(paths)
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("vendoredDirs = %q, want %q", got, want)
	}
	for p, w := range map[string]bool{
		"requests/packages/urllib3/util/retry.py": true,
		"requests/packages/urllib3x/a.py":         false,
		"requests/packages/urllib3":               false,
		"requests/api.py":                         false,
	} {
		if inVendored(p, got) != w {
			t.Errorf("inVendored(%q) = %v, want %v", p, !w, w)
		}
	}
}

// A vendored copy that holds every word of the query ranks below the
// project's own code that holds fewer; without the prior it ranks first.
func TestVendoredCopyWeighsLess(t *testing.T) {
	root := t.TempDir()
	writeFile(t, filepath.Join(root, "requests", "__init__.py"), []byte("from .adapters import HTTPAdapter\n"))
	writeFile(t, filepath.Join(root, "requests", "adapters.py"), []byte(
		"class HTTPAdapter:\n    def send(self, request):\n        # retry the request once when the pool is closed\n        return self.pool.urlopen(request)\n"))
	writeFile(t, filepath.Join(root, "requests", "packages", "__init__.py"), []byte("import urllib3\n"))
	writeFile(t, filepath.Join(root, "requests", "packages", "urllib3", "LICENSE.txt"), []byte("MIT License\n"))
	writeFile(t, filepath.Join(root, "requests", "packages", "urllib3", "retry.py"), []byte(
		"class Retry:\n    \"\"\"Retry a request on a closed pool: retry, retry, retry.\"\"\"\n    def increment(self, pool, request):\n        return Retry(pool=pool, request=request)\n"))
	top := func(ablate []string) string {
		res := packTree(t, root, Request{Query: "retry the request when the pool is closed"}, ablate, nil)
		best, path := -1.0, ""
		for _, e := range res.Included {
			if e.Score > best {
				best, path = e.Score, e.Path
			}
		}
		return path
	}
	if got := top([]string{"+" + featVendored}); got != "requests/adapters.py" {
		t.Errorf("with the vendored prior the best item is %q, want requests/adapters.py", got)
	}
	if got := top([]string{featVendored}); got != "requests/packages/urllib3/retry.py" {
		t.Errorf("without the prior the best item is %q, want the copy (the test would not show the prior)", got)
	}
}

// TestVendoredDirsRemembered: a long list asked again gets the answer
// remembered for it; a list that differs in one path, or whose answer was
// changed by its caller, gets its own.
func TestVendoredDirsRemembered(t *testing.T) {
	var paths []string
	for i := range vendoredMemoMin {
		paths = append(paths, fmt.Sprintf("app/pkg%d/file.go", i))
	}
	paths = append(paths, "app/pkg1/lib/LICENSE", "app/pkg1/lib/x.go")
	want := []string{"app/pkg1/lib"}
	first := vendoredDirs(paths)
	if !reflect.DeepEqual(first, want) {
		t.Fatalf("vendoredDirs = %q, want %q", first, want)
	}
	first[0] = "changed by the caller"
	if got := vendoredDirs(slices.Clone(paths)); !reflect.DeepEqual(got, want) {
		t.Fatalf("asked again: %q, want %q", got, want)
	}
	other := slices.Clone(paths)
	other[len(other)-2] = "app/pkg1/lib/README"
	if got := vendoredDirs(other); len(got) != 0 {
		t.Fatalf("a list without the licence: %q, want none", got)
	}
}
