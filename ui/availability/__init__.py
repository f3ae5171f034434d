"""The Availability dialog (Shifts → Availability…): who answered the month's availability request,
late or not at all, with Ask… and Remind."""
