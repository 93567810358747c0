provider "aws" {
  region = "eu-west-1"
}

module "network" {
  source     = "./modules/network"
  cidr_block = "10.50.0.0/16"
  name       = "core"
}

module "app_bucket" {
  for_each = toset(["web", "api"])
  source   = "./modules/network/subnet"
  vpc_id   = module.network.vpc_id
  cidr     = module.network.first_subnet_cidr
  name     = each.key
}

resource "aws_route53_zone" "internal" {
  name = "internal.example.com"
  vpc {
    vpc_id = module.network.vpc_id
  }
}
