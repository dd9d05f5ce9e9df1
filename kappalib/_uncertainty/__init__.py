"""Stage 4, uncertainty: standard errors, intervals, tests, the bootstrap."""
