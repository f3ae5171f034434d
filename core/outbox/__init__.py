"""The outbox, which is the queue: enqueue (idempotent), atomic claim under a lease and guarded
transitions (queue), the outcome policy — classification, backoff, retry-key validity (policy) —,
channel holds (holds), the manager's operations on deliveries (deliveries), the rows the Deliveries
table shows (rows), one delivery in full for its detail pane (detail), what waits to be sent soon
(waiting) and retention. It may import the roster, messages, the store and the foundation modules;
it knows no channel and sends nothing.
"""
