variable "dr_region" {
  default = "us-west-2"
}

provider "aws" {
  region = "us-east-1"
}

provider "aws" {
  alias  = "dr"
  region = var.dr_region
}

provider "google" {
  project = "acme-prod"
}

resource "aws_s3_bucket" "primary" {
  bucket = "acme-primary"
}

resource "aws_s3_bucket" "dr" {
  provider = aws.dr
  bucket   = "acme-dr"
}

resource "google_storage_bucket" "archive" {
  name     = "acme-archive"
  location = "EU"
  uniform_bucket_level_access = true
}

module "logs_dr" {
  source = "./modules/logs"
  providers = {
    aws = aws.dr
  }
  name = "dr"
}

module "logs" {
  source = "./modules/logs"
  name   = "primary"
}
