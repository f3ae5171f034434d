"""Sending: the sender loop — claim, check, build, send, record (sender, composed of turn, prepare,
submit and record, sharing config) —, the kinds of message, one module each (kinds: the one message
each composes, which every channel's driver renders, and an override where one channel alone has
something), the send-time build (builders) and what the kinds share (message_facts, outgoing), the send-time checks every kind shares (send_checks) and the rules under
them, also run by the lean reminder query (send_rules, reminder_batch), the scheduler, the engine
that starts both, and the one-sender lock (lock). It reaches the channels only through their drivers (core/channels/base.py). It may
import alerts, publication, planning, channels, the outbox and everything below; never setup, app,
cli or ui.
"""
