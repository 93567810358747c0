package diff.strings.sprintf

import rego.v1

resources := [
	{"type": "aws_s3_bucket", "name": "logs", "region": "eu-west-1", "size_gb": 12.5, "versions": 3, "tags": {"env": "prod", "team": "core"}},
	{"type": "aws_s3_bucket", "name": "tmp", "region": "us-east-1", "size_gb": 0.25, "versions": 0, "tags": {}},
	{"type": "aws_iam_role", "name": "deployer", "region": "global", "size_gb": 0, "versions": 12, "tags": {"env": "dev"}},
]

# Typical deny messages.
deny contains msg if {
	some r in resources
	r.type == "aws_s3_bucket"
	not r.tags.env
	msg := sprintf("%s '%s' in %s is missing the 'env' tag", [r.type, r.name, r.region])
}

deny contains msg if {
	some r in resources
	r.versions > 10
	msg := sprintf("%s has %d versions (max %d)", [r.name, r.versions, 10])
}

summaries := [sprintf("%-10s|%8.2f GB|%03d", [r.name, r.size_gb, r.versions]) | some r in resources]

by_name := {r.name: sprintf("%v", [r.tags]) | some r in resources}

tag_dumps := {sprintf("%s=%q", [k, v]) | some r in resources; some k, v in r.tags}

every_message_nonempty if {
	every m in deny {
		count(m) > 0
	}
}

composite_values := sprintf("%v | %v | %v | %v | %s", [{"b": 1, "a": [1, "x"]}, {3, 1, 2}, set(), null, [true, {"k": "é\t"}]])

numbers := sprintf("%d %v %v %v %v %.3f %e %g", [42, 1.5, 1e6, 123456789.0, 0.00001, 2.0 / 3, 12345.678, 0.000123])

big_numbers := sprintf("%d %v %x %T %T", [99999999999999999999, 12345678901234567890123, 99999999999999999999, 99999999999999999999, 7])

padding := sprintf("[%5d] [%-5d] [%05d] [%+d] [% d] [%8.3f] [%-8.2f] [%08.2f]", [42, 42, -42, 7, 7, 3.14159, 2.5, -2.5])

hex_and_friends := sprintf("%x %X %#x %o %#o %b %c %U %#U %q", [255, 255, 255, 8, 8, 5, 9731, 9731, 9731, 65])

strings_verbs := sprintf("%q %+q %#q %x % X %.3s %10.2s|", ["quote\"d\n", "héllo", "raw", "hi", "hi", "truncate", "width"])

star_args := sprintf("%*d|%-*d|%.*f|%*.*f", [6, 1, 6, 2, 1, 3.14159, 8, 2, 2.71828])

indexed := sprintf("%[2]s-%[1]s-%[2]s", ["a", "b"])

type_names := sprintf("%T %T %T %T %T %T", [1, 1.5, "s", true, [1], {"a": 1}])

error_forms := sprintf("%d %s %!", ["str", 5, 1, 2])

missing_arg := sprintf("%s and %s", ["only one"])

extra_args := sprintf("done", [1, "two", {"three": 3}])

bad_index := sprintf("%[5]d %[0]d", [1])

no_verb := sprintf("100%", [])

percent := sprintf("100%% of %d%%", [50])

bad_width := sprintf("%*d", ["wide", 1])

bool_verb := sprintf("%t", [true])

float_as_int := sprintf("%d|%d", [3.0, 2.5])

# A non-array second operand is a builtin error: the rule is undefined.
not_an_array := sprintf("%s", json.unmarshal(`"x"`))

arns := [sprintf("arn:aws:s3:::%s/%s", [r.name, "*"]) | some r in resources; r.type == "aws_s3_bucket"]

ports_report := concat(", ", [sprintf("%s:%d/%s", [h, p, proto]) | some [h, p, proto] in [["web", 443, "tcp"], ["dns", 53, "udp"]]])

f(x) := sprintf("<%v>", [x])

via_function := [f(1), f("s"), f([1, {2}]), f({"a": null})]
