"""Stage 1, read and check the input: matrices, options, label vectors, ratings, count
tables, weightings."""
