package collector

import (
	"bytes"
	"path"
	"strings"
)

// envTemplates are the .env variants that hold placeholders by convention;
// they are let in (and redacted like any ordinary file).
var envTemplates = map[string]bool{
	".env.example":  true,
	".env.sample":   true,
	".env.template": true,
	".env.dist":     true,
}

// secretNames are exact file names (lower case) that hold credentials.
var secretNames = map[string]string{
	".npmrc":           "package registry credentials (.npmrc)",
	".pypirc":          "package registry credentials (.pypirc)",
	".netrc":           "login credentials (.netrc)",
	"_netrc":           "login credentials (_netrc)",
	".git-credentials": "git credentials (.git-credentials)",
	".htpasswd":        "password file (.htpasswd)",
	".pgpass":          "database password file (.pgpass)",
	".envrc":           "environment file (.envrc)",
}

// secretExts are file extensions (lower case) of key and certificate stores.
var secretExts = map[string]string{
	".pem":      "key or certificate file (*.pem)",
	".key":      "private key file (*.key)",
	".p12":      "key store (*.p12)",
	".pfx":      "key store (*.pfx)",
	".keystore": "key store (*.keystore)",
	".jks":      "Java key store (*.jks)",
	".ppk":      "PuTTY private key (*.ppk)",
	".tfstate":  "Terraform state, which holds secrets in clear (*.tfstate)",
}

// sshKeyPrefixes are the default names of SSH key files (public halves
// included: they are never useful context and sit next to the private ones).
var sshKeyPrefixes = []string{"id_rsa", "id_ed25519", "id_ecdsa", "id_dsa"}

// configExts are the extensions of data and configuration files. A file
// whose name mentions credentials or secrets is a secret file only with one
// of these (or no) extension, so source code such as credentials.go stays in.
var configExts = map[string]bool{
	"": true, ".json": true, ".yaml": true, ".yml": true, ".toml": true,
	".ini": true, ".cfg": true, ".conf": true, ".xml": true, ".properties": true,
	".txt": true, ".csv": true, ".env": true, ".plist": true,
}

// IsSecretPath reports whether a file, by its workspace-relative path alone,
// is a secret file that must never be read, and why. Names are compared
// case-insensitively. The rules, documented in docs/security.md:
//
//   - .env and .env.* (except the templates .env.example, .env.sample,
//     .env.template and .env.dist), .envrc;
//   - keys and key stores: *.pem, *.key, *.p12, *.pfx, *.keystore, *.jks,
//     *.ppk, SSH keys id_rsa*, id_ed25519*, id_ecdsa*, id_dsa*;
//   - credential files: .npmrc, .pypirc, .netrc, .git-credentials,
//     .htpasswd, .pgpass, .aws/credentials, .docker/config.json,
//     .kube/config, and data or config files (no extension, .json, .yaml,
//     .ini, ...) whose name contains "credentials" or is "secrets";
//   - Terraform state (*.tfstate, *.tfstate.backup).
func IsSecretPath(rel string) (bool, string) {
	rel = strings.ReplaceAll(rel, `\`, "/")
	// The checks look at the name and its directory's name only, so only
	// those are lowered (a walk asks about every file: issue 24).
	lower := strings.ToLower(secretPathTail(rel))
	base := path.Base(lower)
	if base == ".env" || strings.HasPrefix(base, ".env.") {
		if envTemplates[base] {
			return false, ""
		}
		return true, "environment file (.env*)"
	}
	for _, check := range secretPathChecks {
		if why := check(base, lower); why != "" {
			return true, why
		}
	}
	return false, ""
}

// secretPathTail is the end of the slash-separated path rel that holds its
// last two elements, when path.Base and path.Base(path.Dir(…)) of it are
// those of rel: the last element is not empty and the one before it is a
// name (not "", "." or ".."; path.Dir cleans the path, which could
// otherwise reach further back). Else it is rel itself.
func secretPathTail(rel string) string {
	i := strings.LastIndexByte(rel, '/')
	if i <= 0 || i == len(rel)-1 {
		return rel
	}
	j := strings.LastIndexByte(rel[:i], '/')
	if parent := rel[j+1 : i]; parent == "" || parent == "." || parent == ".." {
		return rel
	}
	return rel[j+1:]
}

// secretPathChecks decide a file's name (base, lower case) and path
// (lower, slashes): the reason it is a secret, or "".
var secretPathChecks = []func(base, lower string) string{
	func(base, _ string) string { return secretNames[base] },
	func(base, _ string) string {
		for _, p := range sshKeyPrefixes {
			if strings.HasPrefix(base, p) {
				return "SSH key (" + p + "*)"
			}
		}
		return ""
	},
	func(base, _ string) string {
		if strings.HasSuffix(base, ".tfstate.backup") {
			return secretExts[".tfstate"]
		}
		return secretExts[path.Ext(base)]
	},
	func(base, lower string) string {
		if !homeCredentialNames[base] {
			return "" // no key ends in this name: no directory to join it to
		}
		return homeCredentials[path.Base(path.Dir(lower))+"/"+base]
	},
	func(base, _ string) string {
		ext := path.Ext(base)
		if !configExts[ext] {
			return ""
		}
		switch stem := strings.TrimSuffix(base, ext); {
		case strings.Contains(stem, "credentials"):
			return "credentials file (*credentials*)"
		case stem == "secrets" || stem == ".secrets":
			return "secrets file (secrets.*)"
		}
		return ""
	},
}

// homeCredentials are credential files known by their directory and name.
var homeCredentials = map[string]string{
	".aws/credentials":    "AWS credentials (.aws/credentials)",
	".docker/config.json": "Docker registry credentials (.docker/config.json)",
	".kube/config":        "Kubernetes credentials (.kube/config)",
}

// homeCredentialNames are the names that end homeCredentials' keys.
var homeCredentialNames = func() map[string]bool {
	m := map[string]bool{}
	for k := range homeCredentials {
		m[k[strings.LastIndexByte(k, '/')+1:]] = true
	}
	return m
}()

// pemPrivateKeyStart reports whether data begins (after leading white space)
// with a PEM private key block, which makes the whole file a secret.
func pemPrivateKeyStart(data []byte) bool {
	t := bytes.TrimLeft(data, " \t\r\n\ufeff")
	if !bytes.HasPrefix(t, []byte("-----BEGIN ")) {
		return false
	}
	first, _, _ := bytes.Cut(t, []byte("\n"))
	return bytes.Contains(first, []byte("PRIVATE KEY-----"))
}
