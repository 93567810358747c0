package diff.core.strings

import rego.v1

concat_join := concat("/", ["a", "b", "c"])
split_parts := split("us-east-1a", "-")
trimmed := trim_space("  padded\t")
trim_chars := trim("xxhixx", "x")
prefix_trimmed := trim_prefix("arn:aws:s3:::bucket", "arn:aws:s3:::")
upper_lower := [upper("MiXeD"), lower("MiXeD")]
replaced := replace("a.b.c", ".", "-")
contains_check := [contains("hello", "ell"), startswith("hello", "he"), endswith("hello", "lo")]
index_of := [indexof("hello", "l"), indexof("hello", "z")]
substr_unicode := substring("héllo wörld", 1, 4)
format_ints := [format_int(255, 16), format_int(8, 2), format_int(-42, 10)]
to_num := [to_number("42"), to_number("-3.5"), to_number(true)]
reversed := strings.reverse("stressed")
interpolated := $"bucket {input.name} in {input.region}"
unicode_len := count("日本語")
sprintf_basic := sprintf("%s has %d items costing %.2f", ["cart", 3, 9.5])
sprintf_values := sprintf("%v | %v | %v", [{"b": 1, "a": [1, "x"]}, {3, 1}, null])
sprintf_quoted := sprintf("%q %x %5s|%-5s|", ["q\"uote", 255, "r", "l"])
