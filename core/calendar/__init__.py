"""Each teacher's shifts in their phone's calendar (docs/calendar.md): the iCalendar text (ics), the
private address on the relay (feeds), the calendars handed to the relay for the teachers' page (feed),
the address as the teacher dialog shows and renews it (addresses), and the teacher a command names
(teachers). It imports the store, the roster and the texts, and core.pages for the shape of a document;
core.pages imports it back for a person's calendar address, so the two sit on one layer."""
