"""The database's identity, the computers that sent from it, and each delivery's retry-key generation.

Retry keys were random, so two copies of one data folder (a restored backup, a folder moved to a new
computer while the old one still ran) each issued their own key for the same delivery and LINE
delivered both. Keys are now derived from a random identity the database gets once, here for an
existing database and at creation for a new one, so every copy presents the same key.

Revision ID: 0005_database_identity
Revises: 0004_error_at_recipient
"""

from __future__ import annotations

import datetime as dt
import uuid

import sqlalchemy as sa
from alembic import op

revision = '0005_database_identity'
down_revision = '0004_error_at_recipient'
branch_labels = None
depends_on = None


def upgrade() -> None:
    identity = op.create_table('database_identity',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('identity', sa.String(length=36), nullable=False),
    sa.Column('created_at', sa.DateTime(), nullable=False),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_database_identity'))
    )
    op.create_table('sending_machines',
    sa.Column('machine_id', sa.String(length=36), nullable=False),
    sa.Column('host', sa.String(length=255), nullable=False),
    sa.Column('first_sent_at', sa.DateTime(), nullable=False),
    sa.Column('last_sent_at', sa.DateTime(), nullable=False),
    sa.PrimaryKeyConstraint('machine_id', name=op.f('pk_sending_machines'))
    )
    # Made here, once, from the OS's randomness: every copy of this file from now on shares it.
    op.bulk_insert(identity, [{'id': 1, 'identity': str(uuid.uuid4()),
                               'created_at': dt.datetime.now(dt.UTC).replace(tzinfo=None)}])
    # A new column only: SQLite adds it in place (delivery_attempts points at deliveries).
    op.add_column('deliveries', sa.Column('retry_key_generation', sa.Integer(), server_default='0', nullable=False))


def downgrade() -> None:
    if op.get_bind().dialect.name == 'sqlite':
        op.execute('ALTER TABLE deliveries DROP COLUMN retry_key_generation')  # in place (SQLite 3.35+)
    else:
        op.drop_column('deliveries', 'retry_key_generation')
    op.drop_table('sending_machines')
    op.drop_table('database_identity')
