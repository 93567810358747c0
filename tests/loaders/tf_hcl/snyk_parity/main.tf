terraform {
  required_providers {
    aws = {
      source  = "hashicorp/aws"
      version = "~> 5.40"
    }
    google = {
      source = "hashicorp/google"
    }
  }
}

provider "aws" {
  region      = "eu-west-3"
  max_retries = 3
}

provider "aws" {
  alias  = "backup"
  region = "eu-central-1"
}

provider "google" {}

resource "aws_sqs_queue" "jobs" {
  name                       = "jobs"
  visibility_timeout_seconds = 60
}

resource "google_pubsub_topic" "events" {
  name = "events"
}

resource "azurerm_resource_group" "main" {
  name     = "main"
  location = "westeurope"
}
