data "aws_caller_identity" "current" {}

data "aws_iam_policy_document" "assume" {
  statement {
    effect  = "Allow"
    actions = ["sts:AssumeRole"]

    principals {
      type        = "Service"
      identifiers = ["lambda.amazonaws.com"]
    }
  }
}

resource "aws_iam_role" "lambda" {
  name               = "lambda-exec"
  assume_role_policy = data.aws_iam_policy_document.assume.json
  description        = "Role in account ${data.aws_caller_identity.current.account_id}"
}

resource "aws_lambda_function" "handler" {
  function_name = "handler"
  role          = aws_iam_role.lambda.arn
  runtime       = "python3.12"
  handler       = "app.handler"
  filename      = "build/handler.zip"
  source_code_hash = filebase64("build/handler.zip")

  environment {
    variables = {
      ROLE_NAME = aws_iam_role.lambda.name
    }
  }

  tracing_config {
    mode = "Active"
  }
}
