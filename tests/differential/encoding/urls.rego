package diff.encoding.urls

endpoints := [
	"https://api.example.com:8443/v1/users?limit=10&offset=20#top",
	"http://[::1]:8080/health",
	"postgres://user:secret@db.internal:5432/app?sslmode=require",
	"s3://my-bucket/path/to/object.json",
	"/relative/path?x=1",
	"mailto:ops@example.com",
	"https://example.com/a%2Fb/c%20d",
]

parsed := [uri.parse(u) | some u in endpoints]

hosts := {p.hostname | some u in endpoints; p := uri.parse(u); p.hostname}

insecure := [u | some u in endpoints; uri.parse(u).scheme == "http"]

query_params := urlquery.decode_object(uri.parse(endpoints[0]).raw_query)

validity := {u: uri.is_valid(u) | some u in ["https://ok.example", "", "http://bad host", "%zz", "http://x:port/", "a/b:c"]}

parse_error := uri.parse("http://x/%zz")

encoded := urlquery.encode("name=John Doe & co/?")

decoded := urlquery.decode("name%3DJohn+Doe+%26+co%2F%3F")

decode_error := urlquery.decode("100%")

query_string := urlquery.encode_object({"q": "rego policy", "tags": ["a&b", "c"], "ids": {"2", "1"}})

decode_object_error := urlquery.decode_object("a=1;b=2")

decoded_object := urlquery.decode_object("scope=read+write&scope=admin&empty=&flag")

all_valid if {
	every u in endpoints {
		uri.is_valid(u)
	}
}
