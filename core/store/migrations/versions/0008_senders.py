"""Senders that know about each other, and an outbox that stays cheap to claim from on PostgreSQL.

- `senders`: every sender registers itself (host, pid, data folder, since when) and keeps a
  heartbeat, so `main.py senders` and the Deliveries view can say who sends from where.
- A partial index over the rows a claim can take, so a claim costs the same with a million rows of
  history (what PostgreSQL claims through; SQLite keeps using its status index).
- On PostgreSQL only: autovacuum settings for the outbox tables, whose rows are updated
  several times each and then deleted by the purge (docs/postgresql.md says why these numbers).

Revision ID: 0008_senders
Revises: 0007_pairing_and_acks
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = '0008_senders'
down_revision = '0007_pairing_and_acks'
branch_labels = None
depends_on = None

# Vacuum after 2 % of a table changed (the default waits for 20 %), and analyze after 1 %, so dead row
# versions from status changes and purges are reclaimed while the table is still small.
AUTOVACUUM = {
    'deliveries': 'autovacuum_vacuum_scale_factor = 0.02, autovacuum_analyze_scale_factor = 0.01, '
                  'autovacuum_vacuum_threshold = 1000, fillfactor = 90',
    'delivery_attempts': 'autovacuum_vacuum_scale_factor = 0.05, autovacuum_analyze_scale_factor = 0.02',
    'senders': 'autovacuum_vacuum_scale_factor = 0.0, autovacuum_vacuum_threshold = 200',
}


def upgrade() -> None:
    op.create_table('senders',
    sa.Column('id', sa.String(length=80), nullable=False),
    sa.Column('host', sa.String(length=255), nullable=False),
    sa.Column('pid', sa.Integer(), nullable=False),
    sa.Column('home', sa.Text(), nullable=False),
    sa.Column('app', sa.String(length=32), nullable=False),
    sa.Column('started_at', sa.DateTime(), nullable=False),
    sa.Column('heartbeat_at', sa.DateTime(), nullable=False),
    sa.Column('stopped_at', sa.DateTime(), nullable=True),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_senders'))
    )
    claimable = sa.text("status IN ('pending', 'queued', 'processing')")
    op.create_index('ix_deliveries_claimable', 'deliveries', ['next_attempt_at', 'id'], unique=False,
                    postgresql_where=claimable, sqlite_where=claimable)
    if op.get_bind().dialect.name == 'postgresql':
        for table, options in AUTOVACUUM.items():
            op.execute(f'ALTER TABLE {table} SET ({options})')


def downgrade() -> None:
    if op.get_bind().dialect.name == 'postgresql':
        for table, options in AUTOVACUUM.items():
            if table != 'senders':
                names = ', '.join(option.split('=')[0].strip() for option in options.split(','))
                op.execute(f'ALTER TABLE {table} RESET ({names})')
    op.drop_index('ix_deliveries_claimable', table_name='deliveries')
    op.drop_table('senders')
