"""The Deliveries area: the outbox as a live table that stays smooth at 100,000 rows, its filters and counts, and the
selected delivery in full with every attempt."""
