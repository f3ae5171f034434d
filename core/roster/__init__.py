"""The roster: classrooms, teachers and shifts and their rules (rules), CSV import and export, all or
nothing (csv_files), copying a shift to other days (copying), a month as teachers see it (month),
wall time ↔ UTC (clock), identifier formats (ids), a teacher's contacts and which of them are used
(contacts), the words for a teacher's choice of channels (channel_choice) and a teacher's reading
(ふりがな) with the one order teachers are listed in (reading), the manager's own order of them (order:
moving a teacher, back to the order by reading), and a month's hours per teacher for payroll (hours:
the rule and the count; hours_table: the table, the CSV for Excel).
What screens read, as frozen values: classrooms and teachers (queries); an undoable step's edits in
one transaction (edits; a shift edit is a typed rules.ShiftChange); the screens' operations, each taking
the Database and committing its own transaction (csv_transfer, classroom_setup, teacher_list,
availability_entry, cover_board, hours_month). It may import the store and the
foundation modules, nothing above them.
"""
