"""Planning: when a reminder goes out, quiet hours and lateness as pure functions (reminder_times),
reminders and corrections from the roster into the outbox (planner), LINE-to-e-mail fallback
(fallback), a publication's e-mail copies (mailed_publication) and the dry run with its LINE quota
forecast (forecast). It may import channels, the outbox, messages, the roster, the store and the
foundation modules.
"""
