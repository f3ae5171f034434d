"""Each teacher's shifts in their phone's calendar: the iCalendar text (ics), its private address on the
relay (feeds) and what the teachers' page hands over (feed). docs/calendar.md."""
