"""The pieces every stage shares and none computes a statistic with: errors, message
formatting, the undefined-value policy, the distributions, the report's words."""
