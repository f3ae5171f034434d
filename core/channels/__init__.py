"""The ways a message leaves: the LINE Messaging API client (line) with its client-side rate limits
(ratelimit) and the reachability check (line_reach), SMTP e-mail (email) with the MIME draft it sends
(email_draft), the Slack-compatible alert webhook (webhook), and what their clients share (net).
Each renders a kind's channel-neutral message in its own form (line_render, email_render, the
webhook's text) to the address it finds (addressing), raising what stops a message (build_errors).
Each implements the one channel interface (base) and is registered in the registry (register_channel,
which also gives the roster its address rules); each speaks the
outbox policy's terms (core.outbox.policy) for what a result means. It may import the outbox,
messages, the roster, the store and the foundation modules; never planning, publication or sending.
"""
