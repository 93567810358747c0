environment = "prod"
admin_cidrs = ["10.0.0.0/8", "0.0.0.0/0"]
buckets = {
  assets  = { encrypted = true }
  uploads = { encrypted = false }
}
