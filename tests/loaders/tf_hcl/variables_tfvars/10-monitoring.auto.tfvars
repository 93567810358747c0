enable_monitoring = true
environment       = "prod"
