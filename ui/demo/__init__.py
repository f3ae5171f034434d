"""What only the demo shows: the teachers' LINE inbox fed by the built-in LINE simulator, and the documentation's
screenshots taken from the demo data."""
