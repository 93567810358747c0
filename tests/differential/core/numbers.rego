package diff.core.numbers

import rego.v1

arithmetic := [1 + 2, 7 - 10, 6 * 7, 7 / 2, 7 % 3, -7 % 3]
big_int := 123456789012345678901234567890 + 1
big_product := 99999999999 * 99999999999
float_math := [0.1 + 0.2, 1.5 * 2, 10 / 4]
rounding := [round(2.5), round(-2.5), ceil(1.2), floor(-1.2), abs(-3)]
comparisons := [1 < 2, 2.0 == 2, "a" < "b", [1, 2] < [1, 3], null < false]
aggregates := [sum([1, 2, 3.5]), product([2, 3, 4]), max([3, 9, 1]), min({5, 2, 8})]
ranges := [numbers.range(1, 5), numbers.range(3, -1)]
div_by_zero := 1 / 0
is_checks := [is_number(1), is_string("x"), is_boolean(false), is_null(null), is_array([]), is_set(set()), is_object({})]
type_names := [type_name(1), type_name("x"), type_name([]), type_name({}), type_name(set()), type_name(null), type_name(true)]
sorted_mixed := sort([3, "b", null, [1], true, "a", 1.5, {"k": 1}])
