"""Planning: when a reminder goes out, quiet hours and lateness as pure functions (reminder_times),
the planning context every kind plans through (context), the run over the kinds (planner), the
reminders and corrections from the roster into the outbox (reminders, corrections), a teacher's
next channel when one cannot reach them (fallback), a publication's e-mail copies
(mailed_publication), the dry run with
its LINE quota forecast (forecast), and the Shifts area's month as frozen values with each shift's
了解 marks (month_grid). It may import the message kinds' registry, channels, the outbox, messages,
the roster, the store and the foundation modules.
"""
