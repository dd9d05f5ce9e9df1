"""Stage 2, count: label vectors to a confusion matrix, long count tables, ratings to a
units x categories table and to coincidences."""
