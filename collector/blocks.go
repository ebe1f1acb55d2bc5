package collector

import (
	"regexp"
	"strconv"
	"strings"
)

var (
	// puttyLinesRe is the "Private-Lines: N" header of a PuTTY key file.
	puttyLinesRe = regexp.MustCompile(`^[ \t]*(?:#+ ?|//+ ?)?["']?Private-Lines:[ \t]*([0-9]{1,3})`)
	// puttyMACRe is the MAC line after the private lines.
	puttyMACRe = regexp.MustCompile(`^([ \t]*(?:#+ ?|//+ ?)?["']?Private-(?:MAC|Hash):[ \t]*)([0-9a-fA-F]{20,})`)
	// envNameRe is "- name: NAME" of a Kubernetes env list (or Compose,
	// GitHub Actions, ECS task definitions), the value on a following line.
	envNameRe = regexp.MustCompile(`^[ \t]*-?[ \t]*["']?name["']?[ \t]*:[ \t]*["']?([A-Za-z_][A-Za-z0-9_.\-]*)["']?[ \t]*,?[ \t]*\r?$`)
	// envValueRe is the "value: …" line that follows.
	envValueRe = regexp.MustCompile(`^[ \t]*["']?value["']?[ \t]*:[ \t]*(?:"([^"]*)"|'([^']*)'|([^\s"'#][^\s#]*))`)
)

// redactBlocks redacts the secrets that span lines, in place: private key
// blocks (PEM, OpenSSH, PGP) and PuTTY private lines, and the value line of
// "- name: DB_PASSWORD / value: …" environment entries. It returns the
// number of secrets replaced.
func redactBlocks(text string, lines []string) int {
	n := 0
	if strings.Contains(text, "PRIVATE KEY") {
		n += redactPEMBlocks(lines)
	}
	if strings.Contains(text, "variable") && strings.Contains(text, "default") {
		n += redactTerraformDefaults(lines)
	}
	putty := strings.Contains(text, "Private-Lines:")
	env := strings.Contains(text, "value:") || strings.Contains(text, "value\":") || strings.Contains(text, "value':")
	if !putty && !env {
		return n
	}
	for i := 0; i < len(lines); i++ {
		l := lines[i]
		if putty && strings.Contains(l, "Private-Lines:") {
			n += redactPuTTY(lines, i)
			continue
		}
		if !env {
			continue
		}
		if i+1 < len(lines) && strings.Contains(l, "name") && (strings.Contains(lines[i+1], "value") || i+2 < len(lines) && strings.Contains(lines[i+2], "value")) {
			m := envNameRe.FindStringSubmatch(l)
			if m == nil {
				continue
			}
			k := nameKind(m[1])
			keyed := k == notSecret && keyedName(m[1], flagProvider)
			if k == notSecret && !keyed {
				continue
			}
			for j := i + 1; j < len(lines) && j <= i+2; j++ {
				vm := envValueRe.FindStringSubmatchIndex(lines[j])
				if vm == nil {
					continue
				}
				for gi := 1; gi <= 3; gi++ {
					if vm[2*gi] >= 0 {
						v := lines[j][vm[2*gi]:vm[2*gi+1]]
						if v != redacted && (!keyed && markupValue(v, k == passwordName) || keyed && providerValue(v, true)) {
							lines[j] = lines[j][:vm[2*gi]] + redacted + lines[j][vm[2*gi+1]:]
							n++
						}
					}
				}
				break
			}
		}
	}
	return n
}

// redactPuTTY redacts the N private lines after "Private-Lines: N" at i,
// and the MAC line after them.
func redactPuTTY(lines []string, i int) int {
	m := puttyLinesRe.FindStringSubmatch(lines[i])
	if m == nil {
		return 0
	}
	count, _ := strconv.Atoi(m[1])
	first := true
	for j := i + 1; j < len(lines) && j <= i+count; j++ {
		lines[j] = redactRuns(lines[j], &first)
	}
	if j := i + count + 1; j < len(lines) {
		if mm := puttyMACRe.FindStringSubmatchIndex(lines[j]); mm != nil {
			lines[j] = lines[j][:mm[4]] + redacted + lines[j][mm[5]:]
		}
	}
	if first {
		return 0
	}
	return 1
}
