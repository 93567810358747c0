# A user relation: a bucket → the bucket its access logs go to, annotated with
# the log prefix (an explicit relation; a bucket is named by id or by name).
package relations

import data.snyk
import rego.v1

relations contains {
	"name": "corpus.logs_to",
	"explicit": [[source, target, l.target_prefix] |
		some l in snyk.resources("aws_s3_bucket_logging")
		some source in snyk.resources("aws_s3_bucket")
		l.bucket in {source.id, source.bucket}
		some target in snyk.resources("aws_s3_bucket")
		l.target_bucket in {target.id, target.bucket}
	],
}
