"""`make bench`: throughput and latency of the sender, measured next to peers; see docs/performance.md."""
