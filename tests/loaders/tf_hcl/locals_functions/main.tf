variable "project" {
  default = "Payments"
}

variable "azs" {
  default = ["us-west-2a", "us-west-2b", "us-west-2c"]
}

locals {
  name_prefix = "${lower(var.project)}-${terraform.workspace}"
  common_tags = {
    Project   = var.project
    ManagedBy = "terraform"
    Prefix    = local.name_prefix
  }
  subnet_cidrs = [for i, az in var.azs : cidrsubnet("10.20.0.0/16", 8, i)]
  az_letters   = join(",", [for az in var.azs : substr(az, -1, 1)])
  ports        = distinct(concat([80, 443], [443, 8080]))
  is_large     = length(var.azs) > 2 ? "large" : "small"
}

resource "aws_vpc" "main" {
  cidr_block           = "10.20.0.0/16"
  enable_dns_hostnames = true
  tags                 = merge(local.common_tags, { Name = "${local.name_prefix}-vpc" })
}

resource "aws_ssm_parameter" "config" {
  name  = format("/%s/%s/config", local.name_prefix, "db")
  type  = "SecureString"
  value = jsonencode({
    subnets = local.subnet_cidrs
    letters = local.az_letters
    ports   = local.ports
    size    = local.is_large
    upper   = upper(var.project)
  })
  description = <<-EOT
    Configuration for ${var.project}.
    %{ for az in var.azs ~}
    - ${az}
    %{ endfor ~}
  EOT
  tier = coalesce("", null, "Standard")
  tags = {
    Keys  = join("+", keys(local.common_tags))
    First = element(var.azs, 3)
    Half  = tostring(floor(7 / 2))
  }
}
