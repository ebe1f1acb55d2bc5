package collector

import (
	"strconv"
	"strings"
)

var (
	// puttyLinesRe is the "Private-Lines: N" header of a PuTTY key file.
	puttyLinesRe = lazyRegexp(`^[ \t]*(?:#+ ?|//+ ?)?["']?Private-Lines:[ \t]*([0-9]{1,3})`)
	// puttyMACRe is the MAC line after the private lines.
	puttyMACRe = lazyRegexp(`^([ \t]*(?:#+ ?|//+ ?)?["']?Private-(?:MAC|Hash):[ \t]*)([0-9a-fA-F]{20,})`)
	// envNameRe is "- name: NAME" of a Kubernetes env list (or Compose,
	// GitHub Actions, ECS task definitions), the value on a following line.
	envNameRe = lazyRegexp(`^[ \t]*-?[ \t]*["']?name["']?[ \t]*:[ \t]*["']?([A-Za-z_][A-Za-z0-9_.\-]*)["']?[ \t]*,?[ \t]*\r?$`)
	// envValueRe is the "value: …" line that follows.
	envValueRe = lazyRegexp(`^[ \t]*["']?value["']?[ \t]*:[ \t]*(?:"([^"]*)"|'([^']*)'|([^\s"'#][^\s#]*))`)
)

// redactBlocks redacts the secrets that span lines, in place: private key
// blocks (PEM, OpenSSH, PGP) and PuTTY private lines, and the value line of
// "- name: DB_PASSWORD / value: …" environment entries. It returns the
// number of secrets replaced.
func redactBlocks(text string, lines []string) int {
	n := 0
	for _, b := range blockRules {
		if b.possible(text) {
			n += b.redact(lines)
		}
	}
	return n
}

// blockRules are the secrets that span lines: a cheap test of the whole
// text, then the pass over its lines.
var blockRules = []struct {
	possible func(text string) bool
	redact   func(lines []string) int
}{
	{func(t string) bool { return strings.Contains(t, "PRIVATE KEY") }, redactPEMBlocks},
	{func(t string) bool { return strings.Contains(t, "variable \"") && strings.Contains(t, "default") }, redactTerraformDefaults},
	{k8sSecretPossible, redactK8sSecretData},
	{func(t string) bool { return strings.Contains(t, "Private-Lines:") }, redactPuTTYKeys},
	{func(t string) bool {
		return strings.Contains(t, "value:") || strings.Contains(t, "value\":") || strings.Contains(t, "value':")
	}, redactEnvEntries},
}

// redactPuTTYKeys redacts the private lines of every PuTTY key.
func redactPuTTYKeys(lines []string) int {
	n := 0
	for i, l := range lines {
		if strings.Contains(l, "Private-Lines:") {
			n += redactPuTTY(lines, i)
		}
	}
	return n
}

// redactEnvEntries redacts the values of "- name: NAME" entries whose
// value is on one of the two lines below.
func redactEnvEntries(lines []string) int {
	n := 0
	for i := 0; i+1 < len(lines); i++ {
		if strings.Contains(lines[i], "name") && (strings.Contains(lines[i+1], "value") || i+2 < len(lines) && strings.Contains(lines[i+2], "value")) {
			n += redactEnvEntry(lines, i)
		}
	}
	return n
}

// redactEnvEntry redacts the value of a "- name: NAME" entry at line i,
// on one of the two lines below (value: …), when NAME is a secret's or
// a provider's credential.
func redactEnvEntry(lines []string, i int) int {
	m := envNameRe().FindStringSubmatch(lines[i])
	if m == nil {
		return 0
	}
	if nameKind(m[1]) == notSecret && !keyedName(m[1], flagProvider) {
		return 0
	}
	n := 0
	for j := i + 1; j < len(lines) && j <= i+2; j++ {
		vm := envValueRe().FindStringSubmatchIndex(lines[j])
		if vm == nil {
			continue
		}
		for gi := 1; gi <= 3; gi++ {
			if vm[2*gi] < 0 {
				continue
			}
			v := lines[j][vm[2*gi]:vm[2*gi+1]]
			if v != redacted && namedValue(m[1], v) {
				lines[j] = lines[j][:vm[2*gi]] + redacted + lines[j][vm[2*gi+1]:]
				n++
			}
		}
		break
	}
	return n
}

var (
	// k8sSecretKindRe is the kind of a Kubernetes Secret manifest.
	k8sSecretKindRe = lazyRegexp(`(?i)^[ \t]*kind:[ \t]*["']?secret["']?[ \t]*\r?$`)
	// k8sDataRe opens its data or stringData map.
	k8sDataRe = lazyRegexp(`^([ \t]*)(data|stringData):[ \t]*\r?$`)
	// k8sEntryRe is one entry of the map.
	k8sEntryRe = lazyRegexp(`^([ \t]+)["']?[A-Za-z0-9_.\-]+["']?[ \t]*:[ \t]*["']?([^"'\s]+)["']?[ \t]*\r?$`)
	// k8sBase64Re is a data value.
	k8sBase64Re = lazyRegexp(`^[A-Za-z0-9+/]{4,}={0,2}$`)
)

// k8sSecretPossible is the cheap gate of redactK8sSecretData.
func k8sSecretPossible(text string) bool {
	return strings.Contains(text, "kind:") && strings.Contains(text, "ata:") && (strings.Contains(text, "Secret") || strings.Contains(text, "secret"))
}

// redactK8sSecretData redacts the values of the data and stringData maps
// of a Kubernetes Secret manifest (base64 or clear text: every value is a
// secret, whatever its key), also a value in a block scalar (| or >) on
// the lines below its key.
func redactK8sSecretData(lines []string) int {
	if !k8sSecretKind(lines) {
		return 0
	}
	n := 0
	for i := 0; i < len(lines); i++ {
		if m := k8sDataRe().FindStringSubmatch(lines[i]); m != nil {
			n += redactK8sDataMap(lines, i+1, len(m[1]), m[2] == "stringData")
		}
	}
	return n
}

// k8sSecretKind reports a manifest of kind Secret.
func k8sSecretKind(lines []string) bool {
	for _, l := range lines {
		if k8sSecretKindRe().MatchString(l) {
			return true
		}
	}
	return false
}

// k8sBlockRe is a block scalar's header: | or >, a chomping and an
// indentation indicator.
var k8sBlockRe = lazyRegexp(`^[|>][+-]?[1-9]?[+-]?$`)

// redactK8sDataMap redacts the entries of the map that starts at line
// from, whose key is indented by indent.
func redactK8sDataMap(lines []string, from, indent int, clear bool) int {
	n := 0
	for j := from; j < len(lines); j++ {
		l := lines[j]
		if strings.TrimSpace(l) == "" {
			continue
		}
		em := k8sEntryRe().FindStringSubmatchIndex(l)
		if em == nil || em[3]-em[2] <= indent && !strings.Contains(l[em[2]:em[3]], "\t") {
			return n
		}
		v := l[em[4]:em[5]]
		if k8sBlockRe().MatchString(v) {
			var k int
			k, j = redactIndented(lines, j+1, em[3]-em[2])
			n += k
			continue
		}
		if v == redacted || isPlaceholder(v) || (!clear && !k8sBase64Re().MatchString(v)) || clear && len(v) < 4 {
			continue
		}
		lines[j] = l[:em[4]] + redacted + l[em[5]:]
		n++
	}
	return n
}

// redactIndented redacts the lines from from on that are indented deeper
// than indent (a block scalar's text): the first becomes [REDACTED], the
// others are emptied. It returns the count (0 or 1) and the last line of
// the block.
func redactIndented(lines []string, from, indent int) (int, int) {
	j, n := from, 0
	for ; j < len(lines); j++ {
		l := lines[j]
		t := strings.TrimLeft(l, " \t")
		if strings.TrimSpace(t) == "" {
			continue
		}
		if len(l)-len(t) <= indent {
			break
		}
		if t == redacted {
			continue
		}
		if n == 0 {
			lines[j] = l[:len(l)-len(t)] + redacted
			n = 1
		} else {
			lines[j] = ""
		}
	}
	return n, j - 1
}

// redactPuTTY redacts the N private lines after "Private-Lines: N" at i,
// and the MAC line after them.
func redactPuTTY(lines []string, i int) int {
	m := puttyLinesRe().FindStringSubmatch(lines[i])
	if m == nil {
		return 0
	}
	count, _ := strconv.Atoi(m[1])
	first := true
	for j := i + 1; j < len(lines) && j <= i+count; j++ {
		lines[j] = redactRuns(lines[j], &first)
	}
	if j := i + count + 1; j < len(lines) {
		if mm := puttyMACRe().FindStringSubmatchIndex(lines[j]); mm != nil {
			lines[j] = lines[j][:mm[4]] + redacted + lines[j][mm[5]:]
		}
	}
	if first {
		return 0
	}
	return 1
}
