package diff.time.parsing

import rego.v1

# Certificate / token validity windows as infra policies write them.
cert := {
	"not_before": "2024-01-31T08:00:00Z",
	"not_after": "2025-01-31T07:59:59.999999999+00:00",
}

validity_ns := time.parse_rfc3339_ns(cert.not_after) - time.parse_rfc3339_ns(cert.not_before)

validity_over_a_year := validity_ns > time.parse_duration_ns("8760h")

offsets_normalised := [time.parse_rfc3339_ns(ts) |
	some ts in [
		"2024-06-01T12:00:00Z",
		"2024-06-01T14:00:00+02:00",
		"2024-06-01T06:30:00-05:30",
		"2024-06-01T12:00:00.5Z",
		"2024-06-01T12:00:00,25Z",
	]
]

same_instant if {
	time.parse_rfc3339_ns("2024-06-01T12:00:00Z") == time.parse_rfc3339_ns("2024-06-01T21:00:00+09:00")
}

# Malformed timestamps make the call (and so the rule) undefined.
bad_rfc3339 := time.parse_rfc3339_ns("2024-02-30T00:00:00Z")

lowercase_t := time.parse_rfc3339_ns("2024-01-31t00:00:00z")

out_of_range := time.parse_rfc3339_ns("2262-04-12T00:00:00Z")

parsed_valid := {ts: valid |
	some ts in ["2024-01-31T00:00:00Z", "2024-13-01T00:00:00Z", "not a time", "2024-01-31T00:00:00+24:00"]
	valid := count([1 | time.parse_rfc3339_ns(ts)]) == 1
}

# Layout constants OPA knows, and Go reference layouts.
layouts := {name: time.parse_ns(name, value) |
	some [name, value] in [
		["RFC3339", "2024-01-31T12:00:00-08:00"],
		["RFC3339Nano", "2024-01-31T12:00:00.123456789Z"],
		["RFC1123", "Wed, 31 Jan 2024 12:00:00 UTC"],
		["RFC1123Z", "Wed, 31 Jan 2024 12:00:00 +0100"],
		["RFC822Z", "31 Jan 24 12:00 -0700"],
		["RFC850", "Wednesday, 31-Jan-24 12:00:00 UTC"],
		["ANSIC", "Wed Jan  3 15:04:05 2024"],
		["UnixDate", "Wed Jan  3 15:04:05 UTC 2024"],
		["RubyDate", "Wed Jan 03 15:04:05 +0530 2024"],
		["2006-01-02", "2024-02-29"],
		["02/01/2006 15:04:05.000", "31/01/2024 23:59:59.250"],
		["Jan _2, 2006 at 3:04pm (MST)", "Feb  9, 2024 at 11:04pm (UTC)"],
		["2006.002", "2024.366"],
		["20060102T150405Z0700", "20240131T120000+0200"],
	]
}

# Kitchen is not one of OPA's constants: the name is a literal layout.
kitchen_literal := time.parse_ns("Kitchen", "Kitchen")

kitchen_layout := time.parse_ns("2006-01-02 3:04PM", "2024-01-31 3:04PM")

unknown_zone_abbreviation := time.parse_ns("2006-01-02 15:04 MST", "2024-01-31 10:00 CET")

gmt_offset_zone := time.parse_ns("2006-01-02 15:04 MST", "2024-01-31 10:00 GMT+3")

two_digit_years := [time.parse_ns("02 Jan 06", d) | some d in ["01 Jan 68", "01 Jan 69", "31 Dec 99"]]

layout_mismatch := time.parse_ns("2006-01-02", "31/01/2024")

day_out_of_range := time.parse_ns("2006-01-02", "2023-02-29")

# Durations: Go syntax plus OPA's d/w/y units.
durations := {d: time.parse_duration_ns(d) |
	some d in [
		"1h30m", "1.5h", "300ms", "-1.5us", "1µs", "2h45m30.5s", "0", "+15m",
		"1d", "1.5d", "2w", "1y", "1y2w3d4h", "0.1y",
	]
}

bad_durations := [d |
	some d in ["", "1", "1D", "1 h", "5 minutes", "1mo", "293y", "2562047h47m16.854775808s", ".s"]
	not time.parse_duration_ns(d)
]

max_duration := time.parse_duration_ns("2562047h47m16.854775807s")

min_duration := time.parse_duration_ns("-2562047h47m16.854775808s")

session_timeout_ok if {
	timeout := time.parse_duration_ns("45m")
	timeout <= time.parse_duration_ns("1h")
}

every_retention_at_least_a_week if {
	every r in ["7d", "2w", "720h", "1y"] {
		time.parse_duration_ns(r) >= time.parse_duration_ns("168h")
	}
}

# Runtime operand type errors (values from input are untyped for the checker).
wrong_type_layout := time.parse_ns(input.number, "2024")

wrong_type_duration := time.parse_duration_ns(input.number)

wrong_type_rfc3339 := time.parse_rfc3339_ns(input.strings)
