package diff.regex.patterns

# Realistic uses of regex.find_n, regex.split, regex.replace,
# regex.template_match and regex.globs_match, with Go/RE2 edge cases.

images := [
	"registry.example.com/team/api:1.4.2",
	"docker.io/library/nginx:latest",
	"ghcr.io/org/worker@sha256:0123abcd",
	"busybox",
]

# Registry host of each image (empty when none is given).
image_registries := [r |
	some img in images
	found := regex.find_n(`^[a-z0-9.-]+\.[a-z]{2,}(:[0-9]+)?/`, img, 1)
	r := concat("", found)
]

# All semver-looking tags in a changelog line, at most three.
changelog_versions := regex.find_n(`v?[0-9]+\.[0-9]+\.[0-9]+`, "fixed in v1.2.3, backported to 1.1.9 and 1.0.12; see 2.0.0", 3)

all_digits := regex.find_n(`[0-9]+`, "a1b22c333d4444", -1)

no_matches := regex.find_n(`z+`, "abc", -1)

zero_limit := regex.find_n(`a`, "aaa", 0)

# Go reports an empty match at the start but not right after a non-empty match.
empty_matches := regex.find_n(`a*`, "baaac", -1)

unicode_words := regex.find_n(`\pL+`, "héllo wörld 42 ñandú", -1)

# Splitting headers and lists.
header_values := regex.split(`\s*,\s*`, "gzip , deflate,br ,  zstd")

path_segments := [s | some s in regex.split(`/+`, "/api//v1/users/"); s != ""]

split_every_rune := regex.split(``, "añb")

split_empty_input := regex.split(`,`, "")

split_empty_both := regex.split(``, "")

split_star := regex.split(`x*`, "axbxxc")

# Rewriting with $1 / ${name} expansion.
masked_email := regex.replace("alice.smith@example.com", `^(.).*(@.*)$`, "$1***$2")

normalized_hostname := regex.replace("API..Example...COM", `\.+`, ".")

swapped := regex.replace("key=value; other=thing", `(?P<k>\w+)=(?P<v>\w+)`, "${v}=${k}")

# "$1x" names group "1x", which does not exist: it expands to nothing.
greedy_name := regex.replace("abc", `(b)`, "[$1x]")

literal_dollar := regex.replace("price: 10", `(\d+)`, "$$$1.00")

replace_empty_pattern := regex.replace("abc", ``, "-")

anchored_once := regex.replace("foo foo", `^foo`, "bar")

unmatched_group := regex.replace("ab", `(x)?b`, "<$1>")

# Templates, as used for resource names with embedded patterns.
arn_ok := regex.template_match("arn:aws:s3:::{[a-z0-9.-]+}/logs/{.*}", "arn:aws:s3:::my-bucket/logs/2024/01", "{", "}")

arn_bad := regex.template_match("arn:aws:s3:::{[a-z0-9.-]+}/logs/{.*}", "arn:aws:s3:::My_Bucket/logs/x", "{", "}")

angle_template := regex.template_match("urn:<[a-z]+>:<[0-9]{2,4}>", "urn:foo:123", "<", ">")

template_literal_dots := regex.template_match("a.b", "axb", "{", "}")

# Glob intersection for overlapping allow-lists.
globs_overlap := regex.globs_match("api.*.example.com", "api.prod.*")

globs_disjoint := regex.globs_match("[a-c]+", "[x-z]+")

globs_star := regex.globs_match("a.*", "ab+")

allowed_hosts := {"api.example.com", "web.example.com", "db.internal"}

host_patterns := {h: regex.find_n(`^[a-z]+`, h, 1)[0] | some h in allowed_hosts}

every_host_has_dot if {
	every h in allowed_hosts {
		count(regex.split(`\.`, h)) > 1
	}
}

# Error cases: each makes its rule undefined.
bad_pattern_find := regex.find_n(`(`, "abc", -1)

bad_pattern_split := regex.split(`[a-`, "abc")

bad_pattern_replace := regex.replace("abc", `*`, "x")

go_rejects_any_byte := regex.find_n(`\C`, "abc", -1)

go_rejects_unicode_group_name := regex.replace("abc", `(?P<é>b)`, "$é")

bad_template := regex.template_match("urn:{.*", "urn:x", "{", "}")

bad_template_delim := regex.template_match("urn:{.*}", "urn:x", "{{", "}")

bad_glob := regex.globs_match("*.example.com", "a.example.com")

bad_limit := regex.find_n(`a`, "aaa", 1.5)
