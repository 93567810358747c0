package differential.wasm_library_routes

# Builtins OPA's Wasm library answers differently from topdown, routed to the host.

replace_empty_pattern := replace(input.s, "", "-")
replace_empty_pattern_empty_text := replace("", "", "x")
replace_empty_pattern_runes := replace("日本", "", "|")
replace_empty_everything := replace(input.empty, input.empty, input.empty)
replace_plain := replace(input.s, "b", "BB")
replace_overlapping := replace("aaaa", "aa", "b")
replace_absent := replace(input.s, "zz", "y")
replace_to_empty := replace(input.s, "a", "")
replace_not_a_string := replace(input.n, "a", "b")

union_n_empty := object.union_n([])
union_n_empty_from_input := object.union_n(input.none)
union_n_one := object.union_n([{"a": 1}])
union_n_nested := object.union_n([{"a": {"b": 1, "c": 2}}, {"a": {"c": 3}}, {"d": 4}])
union_n_overwrite_freezes := object.union_n([{"x": {"p": 1}}, {"x": 2}, {"x": {"q": 3}}])
union_n_later_wins := object.union_n([{"a": 1}, {"a": {"b": 2}}, {"a": 3}])
union_n_non_string_keys := object.union_n([{1: "a"}, {1: "b", 2: "c"}])
union_n_not_objects := object.union_n(input.mixed)

indexof_empty := indexof(input.s, input.empty)
indexof_found := indexof("日本語", "語")
indexof_absent := indexof(input.s, "z")

format_int_past_64_bits := format_int(1e21, 10)
format_int_negative_past_64_bits := format_int(-1e21, 16)
format_int_huge := format_int(1.5e300, 10)
format_int_fraction := format_int(-15.5, 16)
format_int_binary := format_int(input.n, 2)
format_int_octal := format_int(8, 8)
format_int_bad_base := format_int(input.n, input.n)

base64_unpadded := base64.decode(input.unpadded)
base64_padded := base64.decode("YQ==")
base64_line_breaks := base64.decode("YW\nJj")
base64_invalid_chars := base64.decode("Y*==")
base64_valid_unpadded := base64.is_valid(input.unpadded)
base64_valid_padded := base64.is_valid("YQ==")
base64_valid_empty := base64.is_valid("")

json_valid_trailing_comma := json.is_valid(input.trailing_comma)
json_valid_object := json.is_valid("{\"a\": [1, 2.5e3, null]}")
json_valid_nan := json.is_valid("NaN")
json_valid_two_values := json.is_valid("1 2")
json_valid_empty := json.is_valid("")
