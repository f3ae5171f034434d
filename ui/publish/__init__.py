"""The Publish area: a classroom's month as the image teachers will get, what changed since the last revision and what
it costs, publishing it and following its deliveries."""
