"""Sending: the sender loop — claim, check, build, send, record (sender, composed of turn, prepare,
submit and record, sharing config) —, every message builder in one table (builders: line_builders,
email_builders, alert_builders, outgoing), the send-time rules they share with the lean reminder
query (send_rules, reminder_batch), the scheduler, the engine that starts both, and the one-sender
lock (lock). It reaches the channels only through their drivers (core/channels/base.py). It may
import alerts, publication, planning, channels, the outbox and everything below; never setup, app,
cli or ui.
"""
