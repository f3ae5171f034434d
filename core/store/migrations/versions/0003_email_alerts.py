"""E-mail channel and alerts: each teacher's channel choice, LINE reachability, the alerts table, and
the link from an alert's deliveries to their incident.

Revision ID: 0003_email_alerts
Revises: 0002_outbox
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = '0003_email_alerts'
down_revision = '0002_outbox'
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table('alerts',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('kind', sa.Enum('dead_letter', 'channel_held', 'quota_exhausted', 'queue_stalled', name='alertkind', native_enum=False, length=32, create_constraint=False), nullable=False),
    sa.Column('scope', sa.String(length=32), nullable=False),
    sa.Column('open_key', sa.String(length=100), nullable=True),
    sa.Column('title', sa.String(length=300), nullable=False),
    sa.Column('detail', sa.Text(), nullable=False),
    sa.Column('opened_at', sa.DateTime(), nullable=False),
    sa.Column('last_seen_at', sa.DateTime(), nullable=False),
    sa.Column('cleared_at', sa.DateTime(), nullable=True),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_alerts')),
    sa.UniqueConstraint('open_key', name=op.f('uq_alerts_open_key'))
    )

    # New columns only: SQLite adds them in place, so existing rows stay untouched and no table is rebuilt.
    with op.batch_alter_table('teachers', schema=None) as batch_op:
        batch_op.add_column(sa.Column('channel', sa.Enum('line', 'email', 'both', 'line_fallback', name='channelchoice', native_enum=False, length=32, create_constraint=False), server_default='line', nullable=False))
        batch_op.add_column(sa.Column('line_unreachable_at', sa.DateTime(), nullable=True))

    if op.get_bind().dialect.name == 'sqlite':
        # SQLite can add a column with a REFERENCES clause in place. Rebuilding `deliveries` instead (batch
        # mode) would drop a table that delivery_attempts points at, which foreign_keys=ON refuses.
        op.execute('ALTER TABLE deliveries ADD COLUMN alert_id INTEGER '
                   'CONSTRAINT fk_deliveries_alert_id_alerts REFERENCES alerts (id)')
    else:
        op.add_column('deliveries', sa.Column('alert_id', sa.Integer(), nullable=True))
        op.create_foreign_key(op.f('fk_deliveries_alert_id_alerts'), 'deliveries', 'alerts', ['alert_id'], ['id'])


def downgrade() -> None:
    if op.get_bind().dialect.name == 'sqlite':
        # In place as well (SQLite 3.35+): rebuilding `deliveries` or `teachers` would drop a table
        # that other tables' foreign keys point at, which foreign_keys=ON refuses.
        for table, column in (('deliveries', 'alert_id'), ('teachers', 'line_unreachable_at'), ('teachers', 'channel')):
            op.execute(f'ALTER TABLE {table} DROP COLUMN {column}')
    else:
        op.drop_constraint(op.f('fk_deliveries_alert_id_alerts'), 'deliveries', type_='foreignkey')
        op.drop_column('deliveries', 'alert_id')
        op.drop_column('teachers', 'line_unreachable_at')
        op.drop_column('teachers', 'channel')
    op.drop_table('alerts')
