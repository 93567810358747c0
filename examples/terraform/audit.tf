resource "aws_kms_key" "audit" {
  description         = "CloudTrail and audit bucket encryption"
  enable_key_rotation = true
  tags                = local.tags
}

resource "aws_cloudtrail" "main" {
  name                          = "${local.prefix}-trail"
  s3_bucket_name                = aws_s3_bucket.audit.id
  kms_key_id                    = aws_kms_key.audit.arn
  is_multi_region_trail         = true
  enable_log_file_validation    = true
  include_global_service_events = true
}
