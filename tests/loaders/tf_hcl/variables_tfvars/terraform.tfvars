environment   = "staging"
instance_type = "t3.large"
allowed_cidrs = ["10.1.0.0/16", "10.2.0.0/16"]
