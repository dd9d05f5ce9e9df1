"""Stage 3, the coefficients, computed from the counts."""
