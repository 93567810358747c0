package diff.time.calendar

import rego.v1

created := 1706659200000000000 # 2024-01-31T00:00:00Z

nanos := 1700000000123456789

formats := {layout: time.format([nanos, "UTC", layout]) |
	some layout in [
		"RFC3339", "RFC3339Nano", "ANSIC", "UnixDate", "RubyDate", "RFC822", "RFC822Z",
		"RFC850", "RFC1123", "RFC1123Z", "Kitchen", "3:04PM", "2006-01-02",
		"Monday, January 2 2006 15:04:05.000000", "__2 002 .999 ,000000 Z0700 -07:00:00 pm",
	]
}

default_format := [time.format(created), time.format(nanos), time.format(0), time.format(-1)]

zoned := {tz: time.format([nanos, tz, "2006-01-02T15:04:05.999Z07:00 MST"]) |
	some tz in [
		"UTC", "", "Local", "America/New_York", "Europe/London", "Asia/Kolkata",
		"Asia/Kathmandu", "Australia/Lord_Howe", "Pacific/Chatham", "America/St_Johns",
		"Etc/GMT+3", "Europe/Istanbul",
	]
}

local_mean_time := time.format([-3755000000000000000, "America/New_York", "2006-01-02 15:04:05 Z07:00:00 MST"])

unknown_zone := time.format([nanos, "Mars/Olympus_Mons"])

relative_zone_path := time.format([nanos, "../../etc/passwd"])

calendar := {tz: {"date": time.date([created, tz]), "clock": time.clock([created, tz]), "weekday": time.weekday([created, tz])} |
	some tz in ["UTC", "America/Los_Angeles", "Asia/Tokyo", "Pacific/Kiritimati", "Pacific/Pago_Pago"]
}

extremes := [
	time.date(9223372036854775807), time.clock(9223372036854775807),
	time.date(-9223372036854775808), time.weekday(-9223372036854775808),
]

too_big := time.date(9223372036854775808)

fractional_ns := time.clock(1.5)

# Go's AddDate normalises overflowing dates: Jan 31 + 1 month is Mar 2 (leap year).
add_month := time.format([time.add_date(created, 0, 1, 0), "UTC", "2006-01-02"])

add_month_2023 := time.format([time.add_date(created - 31536000000000000, 0, 1, 0), "UTC", "2006-01-02"])

expiry_dates := [time.format([time.add_date(created, y, m, d), "UTC", "2006-01-02"]) |
	some [y, m, d] in [[1, 0, 0], [0, 0, 90], [0, -1, 0], [0, 13, -1], [-1, 0, 366], [0, 0, -31]]
]

add_date_out_of_range := time.add_date(created, 300, 0, 0)

add_date_fraction := time.add_date(created, 0, 0, 0.5)

# [ns, tz] reaches add_date at runtime (the type checker only sees input).
add_day_across_dst := time.format([time.add_date(input.ny_before_dst, 0, 0, 1), "America/New_York"])

add_day_into_gap := time.format([time.add_date(input.ny_in_gap_minus_day, 0, 0, 1), "America/New_York"])

add_date_bad_zone := time.add_date(input.bad_zone, 0, 0, 1)

# Age of resources as [years, months, days, hours, minutes, seconds].
ages := {name: time.diff(time.parse_rfc3339_ns(ts), created) |
	some name, ts in {
		"leap": "2023-02-28T12:30:45Z",
		"month_end": "2023-12-31T23:59:59Z",
		"future": "2025-03-01T00:00:00Z",
		"same": "2024-01-31T00:00:00Z",
	}
}

diff_in_zone := time.diff([created, "Asia/Tokyo"], [1709164800000000000, "America/New_York"])

diff_borrow_february := time.diff(1709164800000000000, 1711843200000000000)

stale_resources contains name if {
	some name, ts in input.last_seen
	[years, months, _, _, _, _] := time.diff(time.parse_rfc3339_ns(ts), created)
	years * 12 + months >= 6
}

weekend_changes := [day |
	some ts in input.change_times
	day := time.weekday([time.parse_rfc3339_ns(ts), "Europe/Berlin"])
	day in {"Saturday", "Sunday"}
]

business_hours if {
	[hour, _, _] := time.clock([created + 10 * 3600000000000, "Europe/Berlin"])
	hour >= 9
	hour < 18
}

# now_ns is frozen for one evaluation: test properties, never the value.
now_is_int if is_number(time.now_ns())

now_is_stable if time.now_ns() == time.now_ns()

now_after_2024 if time.now_ns() > created

wrong_type_format := time.format(input.bad_zone[1])

wrong_type_array := time.date(input.strings)
