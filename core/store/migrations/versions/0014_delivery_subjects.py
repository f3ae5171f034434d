"""A delivery names what it is about generically: `subject_type` + `subject_id` (+ `subject_version`).

Deliveries had one column per kind of subject (`shift_id` with `shift_version`, `publication_id`,
`alert_id`), so a message kind about anything else needed a new column. Every row is carried across
exactly: a shift's id and version, a publication's or an alert's id, each with its type; a row about
nothing keeps none. The dedup keys and retry keys already issued are left as they are (the retry keys
name the subject's uid, which does not move). The old columns and their foreign keys go; one index on
(type, id, version) serves the planner's and the cancel paths' look-ups by subject.

SQLite cannot drop a column a foreign key names, so `deliveries` is rebuilt (batch mode). Dropping the
old table while rows point at it is refused under foreign_keys=ON: the attempts are set aside in a
plain copy first and put back into a table made from their own stored definition, and the links
between deliveries (a fallback copy's `linked_delivery_id`, which in the new table would point at the
old one) are cleared for the rebuild and written back after it. The indexes of both tables (the
partial claimable index among them) are remade from their stored definitions, word for word.

Revision ID: 0014_delivery_subjects
Revises: 0013_teacher_contacts
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = '0014_delivery_subjects'
down_revision = '0013_teacher_contacts'
branch_labels = None
depends_on = None

# (subject type, its id column, its version column or None, the table its id points at)
OLD = (('shift', 'shift_id', 'shift_version', 'shifts'),
       ('publication', 'publication_id', None, 'publications'),
       ('alert', 'alert_id', None, 'alerts'))
SUBJECT_INDEX = 'ix_deliveries_subject'
SHIFT_INDEX = 'ix_deliveries_shift'
ATTEMPTS_ASIDE = '_delivery_attempts_0012'


def _fk(column: str, table: str) -> str:
    return f'fk_deliveries_{column}_{table}'


def upgrade() -> None:
    bind = op.get_bind()
    op.add_column('deliveries', sa.Column('subject_type', sa.String(length=32), nullable=True))
    op.add_column('deliveries', sa.Column('subject_id', sa.Integer(), nullable=True))
    op.add_column('deliveries', sa.Column('subject_version', sa.Integer(), nullable=True))
    # First match wins; no row was ever about two subjects (a fallback copy carries its LINE twin's one).
    for subject, column, version, _ in OLD:
        bind.execute(sa.text(
            f"UPDATE deliveries SET subject_type = :subject, subject_id = {column},"
            f" subject_version = {version or 'NULL'} WHERE subject_type IS NULL AND {column} IS NOT NULL"),
            {'subject': subject})
    if bind.dialect.name == 'sqlite':
        _drop_old_columns_sqlite()
    else:
        op.drop_index(SHIFT_INDEX, table_name='deliveries')
        for _, column, version, table in OLD:
            op.drop_constraint(_fk(column, table), 'deliveries', type_='foreignkey')
            op.drop_column('deliveries', column)
            if version:
                op.drop_column('deliveries', version)
    op.create_index(SUBJECT_INDEX, 'deliveries', ['subject_type', 'subject_id', 'subject_version'], unique=False)


def _definitions(table: str) -> tuple[str, list[tuple[str, str]]]:
    rows = op.get_bind().execute(sa.text(
        "SELECT type, name, sql FROM sqlite_master WHERE tbl_name = :t AND sql IS NOT NULL"), {'t': table}).all()
    created = next(sql for kind, _, sql in rows if kind == 'table')
    return created, [(name, sql) for kind, name, sql in rows if kind == 'index']


def _drop_old_columns_sqlite() -> None:
    attempts_table, attempts_indexes = _definitions('delivery_attempts')
    _, delivery_indexes = _definitions('deliveries')
    bind = op.get_bind()
    links = [{'id': i, 'linked': linked} for i, linked in bind.execute(sa.text(
        'SELECT id, linked_delivery_id FROM deliveries WHERE linked_delivery_id IS NOT NULL'))]
    op.execute('UPDATE deliveries SET linked_delivery_id = NULL WHERE linked_delivery_id IS NOT NULL')
    op.execute(f'CREATE TABLE {ATTEMPTS_ASIDE} AS SELECT * FROM delivery_attempts')
    op.execute('DROP TABLE delivery_attempts')
    for name, _ in delivery_indexes:
        op.execute(f'DROP INDEX {name}')
    with op.batch_alter_table('deliveries') as batch:
        for _, column, version, _ in OLD:
            batch.drop_column(column)  # its foreign key goes with it
            if version:
                batch.drop_column(version)
    for name, sql in delivery_indexes:
        if name != SHIFT_INDEX:
            op.execute(sql)
    if links:
        bind.execute(sa.text('UPDATE deliveries SET linked_delivery_id = :linked WHERE id = :id'), links)
    op.execute(attempts_table)
    op.execute(f'INSERT INTO delivery_attempts SELECT * FROM {ATTEMPTS_ASIDE}')
    op.execute(f'DROP TABLE {ATTEMPTS_ASIDE}')
    for _, sql in attempts_indexes:
        op.execute(sql)


def downgrade() -> None:
    # Rows about a subject the old columns cannot name (a kind registered later) keep none.
    bind = op.get_bind()
    sqlite = bind.dialect.name == 'sqlite'
    op.drop_index(SUBJECT_INDEX, table_name='deliveries')
    for subject, column, version, table in OLD:
        if sqlite:  # in place, with the foreign key as a column constraint, as 0003 added alert_id
            op.execute(f'ALTER TABLE deliveries ADD COLUMN {column} INTEGER'
                       f' CONSTRAINT {_fk(column, table)} REFERENCES {table} (id)')
        else:
            op.add_column('deliveries', sa.Column(column, sa.Integer(), nullable=True))
            op.create_foreign_key(_fk(column, table), 'deliveries', table, [column], ['id'])
        if version:
            op.add_column('deliveries', sa.Column(version, sa.Integer(), nullable=True))
        bind.execute(sa.text(
            f"UPDATE deliveries SET {column} = subject_id{f', {version} = subject_version' if version else ''}"
            " WHERE subject_type = :subject"), {'subject': subject})
    op.create_index(SHIFT_INDEX, 'deliveries', ['shift_id', 'shift_version'], unique=False)
    for column in ('subject_version', 'subject_id', 'subject_type'):
        if sqlite:
            op.execute(f'ALTER TABLE deliveries DROP COLUMN {column}')  # in place (SQLite 3.35+)
        else:
            op.drop_column('deliveries', column)
