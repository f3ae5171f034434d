"""The store: where everything Shiftcast knows is kept. The SQLAlchemy engine and its two session
scopes (db), the typed ORM tables (models) and the string enums they store (kinds), Alembic
migrations run at start-up with a backup first (migrate, migrations/), each database's typed events
delivered after commit (events) and the change counters that carry them to other processes (changes),
non-secret settings read and written through typed declarations (settings, and every key declared
once in setting_keys; one alone in its own transaction: setting_values), what an operation answered and
the events it committed (changes_made), credentials in the OS keyring (secrets), the data folder (paths) and opening
all of it the same way in every mode (bootstrap). It may import only the foundation modules
(core.errors, core.logs, core.resources, core.version); every other package imports it.
"""
