"""The Settings tab: one scrolling page whose sections each live in their own module (language and data folder, LINE,
e-mail and alerts, image hosting, classrooms, database, start at login)."""
