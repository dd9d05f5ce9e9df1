"""Stage 5, the reports and the command line: every number from the stages below."""
