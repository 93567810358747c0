# RDS instances encrypt storage and are not publicly accessible: one result
# per setting.
package rules.cfn_rds_instance

import data.shipped_lib.aws
import data.snyk
import rego.v1

input_type := "cfn"

metadata := {
	"id": "RE-CFN-008",
	"title": "RDS instances are encrypted and not publicly accessible",
	"description": "StorageEncrypted protects the database's storage, backups and snapshots at rest; PubliclyAccessible gives the instance a DNS name that resolves to a public IP address.",
	"platform": ["AWS"],
	"category": "Data protection",
	"service_group": "RDS",
	"severity": "high",
	"remediation": {
		"cloudformation": "Set StorageEncrypted: true (optionally KmsKeyId) and PubliclyAccessible: false on the AWS::RDS::DBInstance.",
		"console": "Encrypt by restoring from an encrypted snapshot copy; under Connectivity, set Public access to No.",
	},
	"references": [
		"https://docs.aws.amazon.com/AmazonRDS/latest/UserGuide/Overview.Encryption.html",
		"https://docs.aws.amazon.com/AWSCloudFormation/latest/UserGuide/aws-resource-rds-dbinstance.html",
	],
}

deny contains info if {
	some db in snyk.resources("AWS::RDS::DBInstance")
	not aws.cfn_true(object.get(db, "StorageEncrypted", false))
	info := {"resource": db, "result_tag": "StorageEncrypted", "message": "Storage is not encrypted.", "attributes": [["StorageEncrypted"]]}
}

deny contains info if {
	some db in snyk.resources("AWS::RDS::DBInstance")
	aws.cfn_true(object.get(db, "PubliclyAccessible", false))
	info := {"resource": db, "result_tag": "PubliclyAccessible", "message": "The instance is publicly accessible.", "attributes": [["PubliclyAccessible"]]}
}

resources contains {"resource": db, "result_tag": tag} if {
	some db in snyk.resources("AWS::RDS::DBInstance")
	some tag in ["StorageEncrypted", "PubliclyAccessible"]
}
