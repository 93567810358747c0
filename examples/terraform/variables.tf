variable "environment" {
  type    = string
  default = "dev"
}

variable "admin_cidrs" {
  description = "Networks allowed to reach the bastion over SSH."
  type        = list(string)
  default     = ["10.0.0.0/8"]
}

variable "buckets" {
  description = "Application buckets, by purpose."
  type        = map(object({ encrypted = bool }))
  default     = {}
}
