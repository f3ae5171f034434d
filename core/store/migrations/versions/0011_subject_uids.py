"""Each shift and publication gets a random uid, which the retry keys of its LINE messages name.

A retry key named its subject by the row's id. Two copies of one data folder that went apart after
the copy can each make a new shift (or publication) that gets the same id, version and teacher in
both; the two different reminders then shared one key, LINE answered the second copy 409, and that
teacher never got it. A uid is drawn when the row is made, so rows made apart differ and rows that
existed when the folder was copied keep one uid in both copies.

Every existing row gets its uid here, derived from the database's identity (migration 0005) and the
row's id rather than drawn: two copies of a folder made before this upgrade and upgraded each on its
own must give a row they share one uid, or every message both still hold would be sent by each. The
price is the rows the copies made apart *before* the upgrade under one id: they share a uid, as they
shared a key before. Rows made from now on draw theirs. The column is added in place: rebuilding `shifts` or
`publications` (batch mode) would drop a table that deliveries and revisions point at, which
foreign_keys=ON refuses. SQLite adds a NOT NULL column in place only with a constant default, so
there it keeps an empty default that nothing of Shiftcast relies on: every insert names the uid
(core/store/models.py); PostgreSQL drops it.

Revision ID: 0011_subject_uids
Revises: 0010_pairing_limits
"""

from __future__ import annotations

import uuid

import sqlalchemy as sa
from alembic import op

revision = '0011_subject_uids'
down_revision = '0010_pairing_limits'
branch_labels = None
depends_on = None

TABLES = ('shifts', 'publications')


def upgrade() -> None:
    bind = op.get_bind()
    identity = bind.execute(sa.text('SELECT identity FROM database_identity WHERE id = 1')).scalar()
    namespace = uuid.UUID(identity) if identity else uuid.uuid4()
    for table in TABLES:
        op.add_column(table, sa.Column('uid', sa.String(length=36), server_default='', nullable=False))
        ids = bind.execute(sa.text(f'SELECT id FROM {table}')).scalars().all()
        if ids:
            bind.execute(sa.text(f'UPDATE {table} SET uid = :uid WHERE id = :id'),
                         [{'uid': str(uuid.uuid5(namespace, f'{table}:{i}')), 'id': i} for i in ids])
        if bind.dialect.name != 'sqlite':
            op.alter_column(table, 'uid', server_default=None, existing_type=sa.String(length=36),
                            existing_nullable=False)


def downgrade() -> None:
    for table in TABLES:
        if op.get_bind().dialect.name == 'sqlite':
            op.execute(f'ALTER TABLE {table} DROP COLUMN uid')  # in place (SQLite 3.35+)
        else:
            op.drop_column(table, 'uid')
