"""Hours for payroll: the dialog that shows a month's hours per teacher (core/roster/hours.py) for all
classrooms or one, saves them as a CSV for Excel and prints them as a one-page summary."""
