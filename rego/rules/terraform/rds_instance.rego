# RDS instances encrypt storage and are not publicly accessible: one result
# per setting.
package rules.tf_aws_rds_instance

import data.snyk
import rego.v1

input_type := "tf"

metadata := {
	"id": "RE-AWS-018",
	"title": "RDS instances are encrypted and not publicly accessible",
	"description": "storage_encrypted protects the database's storage, backups and snapshots at rest; publicly_accessible gives the instance a public DNS name that resolves to a public IP address.",
	"platform": ["AWS"],
	"category": "Data protection",
	"service_group": "RDS",
	"severity": "high",
	"remediation": {
		"terraform": "Set storage_encrypted = true (optionally with kms_key_id) and publicly_accessible = false on the aws_db_instance.",
		"console": "Encrypt by restoring from an encrypted snapshot copy; under Connectivity, set Public access to No.",
	},
	"references": [
		"https://docs.aws.amazon.com/AmazonRDS/latest/UserGuide/Overview.Encryption.html",
		"https://docs.aws.amazon.com/AmazonRDS/latest/UserGuide/USER_VPC.WorkingWithRDSInstanceinaVPC.html#USER_VPC.Hiding",
	],
}

deny contains info if {
	some db in snyk.resources("aws_db_instance")
	object.get(db, "storage_encrypted", false) != true
	info := {"resource": db, "result_tag": "storage_encrypted", "message": "Storage is not encrypted.", "attributes": [["storage_encrypted"]]}
}

deny contains info if {
	some db in snyk.resources("aws_db_instance")
	db.publicly_accessible == true
	info := {"resource": db, "result_tag": "publicly_accessible", "message": "The instance is publicly accessible.", "attributes": [["publicly_accessible"]]}
}

resources contains {"resource": db, "result_tag": tag} if {
	some db in snyk.resources("aws_db_instance")
	some tag in ["storage_encrypted", "publicly_accessible"]
}
