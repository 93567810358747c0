package diff.strings.matching

import rego.v1

allowed_registries := {"gcr.io/company/", "registry.internal/", "docker.io/library/"}

images := [
	"gcr.io/company/api:1.4.2",
	"docker.io/library/nginx:1.25",
	"quay.io/evil/miner:latest",
	"registry.internal/tools/jq@sha256:abc",
]

untrusted_images := [img | some img in images; not strings.any_prefix_match(img, allowed_registries)]

any_trusted := strings.any_prefix_match(images, allowed_registries)

no_match_empty := strings.any_prefix_match([], allowed_registries)

domains := {"api.example.com", "example.org", "internal.corp.local"}

corp_domain := strings.any_suffix_match(domains, [".local", ".corp"])

suffix_single := strings.any_suffix_match("report.tar.gz", ".gz")

suffix_none := strings.any_suffix_match(domains, set())

# A non-string element is a builtin error: undefined.
prefix_bad_element := strings.any_prefix_match(json.unmarshal(`["a", 1]`), "a")

path_depth := strings.count("/var/lib/docker/overlay2", "/")

empty_substring_count := strings.count("日本語", "")

non_overlapping := strings.count("aaaa", "aa")

arn_parts := strings.split_n("arn:aws:iam::123456789012:role/deployer", ":", 3)

arn_tail := strings.split_n("arn:aws:iam::123456789012:role/deployer", ":", -2)

split_zero := strings.split_n("a,b,c", ",", 0)

split_runes := strings.split_n("héllo", "", 2)

split_float_n := strings.split_n("a,b,c", ",", 1.5)

comma_positions := indexof_n("a,b,,c", ",")

overlapping := indexof_n("aaaa", "aa")

unicode_positions := indexof_n("日本語日本", "本")

empty_needle := indexof_n("abc", "")

quoted_glob := glob.quote_meta("*.example.com")

quoted_all := glob.quote_meta("a[b]{c}?\\!-,d")

quoted_matches if glob.match(glob.quote_meta("file[1].txt"), [], "file[1].txt")

images_per_registry := {reg: n |
	some reg in allowed_registries
	n := count([img | some img in images; startswith(img, reg)])
}

every_image_tagged if {
	every img in images {
		strings.count(img, ":") + strings.count(img, "@") >= 1
	}
}
