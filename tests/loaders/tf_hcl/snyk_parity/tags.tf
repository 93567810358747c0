# tags of autoscaling groups (tag blocks) and google resources (labels, network tags)
resource "aws_autoscaling_group" "web" {
  max_size = 1
  min_size = 1
  tag {
    key                 = "Stage"
    value               = "Dev"
    propagate_at_launch = true
  }
  tag {
    key                 = "Team"
    value               = "web"
    propagate_at_launch = false
  }
}

resource "google_compute_instance" "vm" {
  name   = "vm"
  labels = { stage = "prod", size = 3 }
  tags   = ["ssh", "web"]
}
