module "vpc" {
  source  = "terraform-aws-modules/vpc/aws"
  version = "5.1.0"

  name = "prod-vpc"
  cidr = "10.0.0.0/16"
}

module "not_downloaded" {
  source = "git::https://example.com/modules/thing.git?ref=v1.0.0"
  name   = "missing"
}

resource "aws_flow_log" "vpc" {
  vpc_id          = module.vpc.vpc_id
  traffic_type    = "ALL"
  log_destination = module.not_downloaded.arn
}
