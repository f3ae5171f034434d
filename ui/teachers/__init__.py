"""The teachers: the table opened from the Shifts area, one teacher's details and how they are reached, picking a LINE
user ID from the account's friends, and asking LINE about a teacher."""
