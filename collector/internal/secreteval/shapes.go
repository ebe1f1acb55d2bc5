package secreteval

import (
	"encoding/base64"
	"strings"
)

// pemBody is a random key body in 64-character lines.
func (g gen) pemBody(n int) []string {
	raw := base64.StdEncoding.EncodeToString([]byte(g.s(n, alnum)))
	var lines []string
	for len(raw) > 64 {
		lines = append(lines, raw[:64])
		raw = raw[64:]
	}
	return append(lines, raw)
}

func begin(kind string) string { return "-----BEGIN " + kind + "-----" }
func end(kind string) string   { return "-----END " + kind + "-----" }

// shape is a hostile shape: a generator of one file with its secrets.
type shape struct {
	name, path string
	make       func(g gen) (string, []string)
}

// keyBlock is a PEM block of kind with each line passed through wrap.
func keyBlock(g gen, kind string, wrap func(string) string) (string, []string) {
	body := g.pemBody(600)
	var b strings.Builder
	b.WriteString(wrap(begin(kind)) + "\n")
	for _, l := range body {
		b.WriteString(wrap(l) + "\n")
	}
	b.WriteString(wrap(end(kind)) + "\n")
	return b.String(), body[:len(body)-1] // the last line may be short
}

var shapeList = []shape{
	{"pem-rsa", "server.txt", func(g gen) (string, []string) {
		return keyBlock(g, "RSA PRIVATE KEY", func(s string) string { return s })
	}},
	{"pem-pkcs8", "notes.txt", func(g gen) (string, []string) {
		t, s := keyBlock(g, "PRIVATE KEY", func(s string) string { return s })
		return "here is the key:\n" + t, s
	}},
	{"pem-ec", "README.md", func(g gen) (string, []string) {
		t, s := keyBlock(g, "EC PRIVATE KEY", func(s string) string { return s })
		return "```\n" + t + "```\n", s
	}},
	{"pem-encrypted", "key.txt", func(g gen) (string, []string) {
		body := g.pemBody(600)
		return begin("RSA PRIVATE KEY") + "\nProc-Type: 4,ENCRYPTED\nDEK-Info: AES-128-CBC," + g.hex(32) + "\n\n" + strings.Join(body, "\n") + "\n" + end("RSA PRIVATE KEY") + "\n", body[:len(body)-1]
	}},
	{"openssh-key", "deploy_key.txt", func(g gen) (string, []string) {
		return keyBlock(g, "OPENSSH PRIVATE KEY", func(s string) string { return s })
	}},
	{"pgp-private-key", "signing.asc", func(g gen) (string, []string) {
		body := g.pemBody(900)
		return begin("PGP PRIVATE KEY BLOCK") + "\nComment: release key\n\n" + strings.Join(body, "\n") + "\n=" + g.mixed(4, alnum) + "\n" + end("PGP PRIVATE KEY BLOCK") + "\n", body[:len(body)-1]
	}},
	{"pem-in-comment", "keys.py", func(g gen) (string, []string) {
		return keyBlock(g, "PRIVATE KEY", func(s string) string { return "# " + s })
	}},
	{"pem-in-slash-comment", "keys.go", func(g gen) (string, []string) {
		t, s := keyBlock(g, "RSA PRIVATE KEY", func(s string) string { return "// " + s })
		return "package keys\n\n" + t, s
	}},
	{"pem-yaml-list", "keys.yaml", func(g gen) (string, []string) {
		t, s := keyBlock(g, "PRIVATE KEY", func(s string) string { return "  - \"" + s + "\"" })
		return "lines:\n" + t, s
	}},
	{"pem-yaml-block", "tls.yaml", func(g gen) (string, []string) {
		t, s := keyBlock(g, "EC PRIVATE KEY", func(s string) string { return "    " + s })
		return "tls:\n  key: |\n" + t, s
	}},
	{"pem-go-concat", "testkey.go", func(g gen) (string, []string) {
		t, s := keyBlock(g, "RSA PRIVATE KEY", func(s string) string { return "\t\"" + s + "\\n\" +" })
		return "package k\n\nconst key = \"\" +\n" + t + "\t\"\"\n", s
	}},
	{"pem-json-escaped", "sa.json", func(g gen) (string, []string) {
		body := g.pemBody(600)
		pk := begin("PRIVATE KEY") + "\\n" + strings.Join(body, "\\n") + "\\n" + end("PRIVATE KEY") + "\\n"
		id := g.hex(40)
		return "{\n  \"type\": \"service_account\",\n  \"project_id\": \"acme-prod\",\n  \"private_key_id\": \"" + id + "\",\n  \"private_key\": \"" + pk + "\",\n  \"client_email\": \"ci@acme-prod.iam.gserviceaccount.com\"\n}\n", append(body[:len(body)-1], id)
	}},
	{"pem-python-triple", "fixtures.py", func(g gen) (string, []string) {
		t, s := keyBlock(g, "PRIVATE KEY", func(s string) string { return s })
		return "KEY = \"\"\"" + t + "\"\"\"\n", s
	}},
	{"putty-key", "id.txt", func(g gen) (string, []string) {
		pub, priv := g.pemBody(200), g.pemBody(400)
		mac := g.hex(64)
		return "PuTTY-User-Key-File-3: ssh-rsa\nEncryption: none\nComment: rsa-key\nPublic-Lines: " + itoa(len(pub)) + "\n" + strings.Join(pub, "\n") + "\nPrivate-Lines: " + itoa(len(priv)) + "\n" + strings.Join(priv, "\n") + "\nPrivate-MAC: " + mac + "\n", append(priv[:len(priv)-1], mac)
	}},
	{"kubeconfig", "cluster.yaml", func(g gen) (string, []string) {
		key := base64.StdEncoding.EncodeToString([]byte(begin("RSA PRIVATE KEY") + g.s(300, alnum)))
		tok := g.mixed(32, lower+digits)
		return "apiVersion: v1\nkind: Config\nusers:\n- name: admin\n  user:\n    client-certificate-data: " + g.b64(30) + "\n    client-key-data: " + key + "\n    token: " + tok + "\n", []string{key, tok}
	}},
	{"k8s-secret-stringdata", "secret.yaml", func(g gen) (string, []string) {
		pw := g.password()
		return "apiVersion: v1\nkind: Secret\nstringData:\n  DB_PASSWORD: " + pw + "\n", []string{pw}
	}},
	{"k8s-env-json", "task.json", func(g gen) (string, []string) {
		pw := g.password()
		return "{\"environment\": [{\"name\": \"DB_PASSWORD\", \"value\": \"" + pw + "\"}]}\n", []string{pw}
	}},
	{"k8s-env-value-unquoted", "job.yaml", func(g gen) (string, []string) {
		v := g.mixed(32, alnum)
		return "env:\n  - name: API_TOKEN\n    value: " + v + "\n", []string{v}
	}},
	{"netrc-one-line", "machines", func(g gen) (string, []string) {
		pw := g.password()
		return "machine api.example.com login deploy password " + pw + "\n", []string{pw}
	}},
	{"netrc-multi-line", "auth.conf", func(g gen) (string, []string) {
		pw := g.mixed(20, alnum)
		return "machine git.example.com\n  login ci\n  password " + pw + "\n", []string{pw}
	}},
	{"curl-user", "fetch.sh", func(g gen) (string, []string) {
		pw := g.password()
		return "curl -u admin:" + pw + " https://api.example.com/v1/export\n", []string{pw}
	}},
	{"curl-user-long", "Makefile", func(g gen) (string, []string) {
		pw := g.mixed(24, alnum)
		return "upload:\n\tcurl --user \"deploy:" + pw + "\" -T dist.tgz https://repo.example.com/\n", []string{pw}
	}},
	{"mysql-p", "backup.sh", func(g gen) (string, []string) {
		pw := g.mixed(14, alnum)
		return "mysqldump -u root -p" + pw + " shop > shop.sql\n", []string{pw}
	}},
	{"mysql-p-quoted", "restore.sh", func(g gen) (string, []string) {
		pw := g.password()
		return "mysql -h db -u app -p'" + pw + "' shop < shop.sql\n", []string{pw}
	}},
	{"sshpass", "ssh.sh", func(g gen) (string, []string) {
		pw := g.password()
		return "sshpass -p '" + pw + "' ssh deploy@host\n", []string{pw}
	}},
	{"cli-password-flag", "login.sh", func(g gen) (string, []string) {
		pw := g.mixed(20, alnum)
		return "docker login registry.example.com --username ci --password " + pw + "\n", []string{pw}
	}},
	{"auth-basic", "req.http", func(g gen) (string, []string) {
		v := base64.StdEncoding.EncodeToString([]byte("admin:" + g.password()))
		return "GET /v1 HTTP/1.1\nAuthorization: Basic " + v + "\n", []string{v}
	}},
	{"auth-bearer", "call.sh", func(g gen) (string, []string) {
		v := g.mixed(40, alnum)
		return "curl -H \"Authorization: Bearer " + v + "\" https://api.example.com\n", []string{v}
	}},
	{"auth-token", "api.http", func(g gen) (string, []string) {
		v := g.hex(40)
		return "GET /user HTTP/1.1\nAuthorization: Token " + v + "\n", []string{v}
	}},
	{"auth-header-go", "client.go", func(g gen) (string, []string) {
		v := g.mixed(40, alnum)
		return "package c\n\nfunc f(r *http.Request) {\n\tr.Header.Set(\"Authorization\", \"Bearer " + v + "\")\n}\n", []string{v}
	}},
	{"xml-password", "pom.xml", func(g gen) (string, []string) {
		pw := g.password()
		return "<settings>\n  <server>\n    <id>nexus</id>\n    <password>" + pw + "</password>\n  </server>\n</settings>\n", []string{pw}
	}},
	{"xml-property", "context.xml", func(g gen) (string, []string) {
		pw := g.password()
		return "<bean>\n  <property name=\"password\" value=\"" + pw + "\"/>\n</bean>\n", []string{pw}
	}},
	{"db-url-postgres", "db.go", func(g gen) (string, []string) {
		pw := g.mixed(16, alnum)
		return "package db\n\nconst dsn = \"postgres://app:" + pw + "@db.internal:5432/app?sslmode=require\"\n", []string{pw}
	}},
	{"db-url-at-in-password", "config.yml", func(g gen) (string, []string) {
		pw := g.mixed(6, alnum) + "@" + g.mixed(6, alnum) + "/" + g.mixed(4, alnum)
		return "database_url: mysql://root:" + pw + "@mysql.internal:3306/shop\n", []string{pw}
	}},
	{"db-url-redis-no-user", "cache.py", func(g gen) (string, []string) {
		pw := g.mixed(20, alnum)
		return "REDIS_URL = \"redis://:" + pw + "@cache:6379/0\"\n", []string{pw}
	}},
	{"db-url-mongodb-srv", "mongo.ts", func(g gen) (string, []string) {
		pw := g.mixed(18, alnum)
		return "const uri = `mongodb+srv://svc:" + pw + "@cluster0.abcde.mongodb.net/app?retryWrites=true`;\n", []string{pw}
	}},
	{"db-url-amqp", "queue.env.txt", func(g gen) (string, []string) {
		pw := g.password()
		return "BROKER=amqp://worker:" + pw + "@rabbit:5672/\n", []string{pw}
	}},
	{"jdbc-password-param", "jdbc.properties", func(g gen) (string, []string) {
		pw := g.mixed(16, alnum)
		return "url=jdbc:postgresql://db:5432/app?user=app&password=" + pw + "\n", []string{pw}
	}},
	{"python-kwarg", "connect.py", func(g gen) (string, []string) {
		pw := g.password()
		return "conn = psycopg2.connect(host=\"db\", user=\"app\", password=\"" + pw + "\")\n", []string{pw}
	}},
	{"go-setenv", "env_test.go", func(g gen) (string, []string) {
		v := g.mixed(32, alnum)
		return "package e\n\nfunc init() { os.Setenv(\"SERVICE_API_TOKEN\", \"" + v + "\") }\n", []string{v}
	}},
	{"jwt-in-cookie", "session.txt", func(g gen) (string, []string) {
		v := g.jwt()
		return "Set-Cookie: session=" + v + "; Path=/; HttpOnly\n", []string{v}
	}},
	{"aws-credentials-format", "aws.cfg", func(g gen) (string, []string) {
		id, sec := "AKIA"+g.mixed(16, b32), g.mixed(40, b64)
		return "[default]\naws_access_key_id = " + id + "\naws_secret_access_key = " + sec + "\n", []string{id, sec}
	}},
	{"npmrc-format", "npm.cfg", func(g gen) (string, []string) {
		v := g.mixed(36, alnum)
		return "//registry.npmjs.org/:_authToken=npm_" + v + "\n", []string{v}
	}},
	{"docker-auths", "registry.json", func(g gen) (string, []string) {
		v := base64.StdEncoding.EncodeToString([]byte("ci:" + g.password()))
		return "{\"auths\": {\"ghcr.io\": {\"auth\": \"" + v + "\"}}}\n", []string{v}
	}},
	{"secret-in-url-query", "links.md", func(g gen) (string, []string) {
		v := g.mixed(32, alnum)
		return "See https://api.example.com/v1/report?api_key=" + v + "&format=csv\n", []string{v}
	}},
}

func itoa(n int) string {
	if n == 0 {
		return "0"
	}
	var b []byte
	for n > 0 {
		b = append([]byte{byte('0' + n%10)}, b...)
		n /= 10
	}
	return string(b)
}

// shapes generates one case per hostile shape.
func shapes(g gen) []Case {
	var out []Case
	for _, s := range shapeList {
		text, secrets := s.make(g)
		out = append(out, Case{Family: "shape:" + s.name, Form: "shape", Path: s.path, Text: text, Secrets: secrets})
	}
	return out
}
