"""Events LINE posts to the webhook receiver, one row per webhookEventId.

Revision ID: 0006_webhook_events
Revises: 0005_database_identity
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = '0006_webhook_events'
down_revision = '0005_database_identity'
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table('webhook_event',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('event_id', sa.String(length=64), nullable=False),
    sa.Column('type', sa.String(length=32), nullable=False),
    sa.Column('source_type', sa.String(length=16), nullable=True),
    sa.Column('source_user_id', sa.String(length=33), nullable=True),
    sa.Column('source_group_id', sa.String(length=33), nullable=True),
    sa.Column('source_room_id', sa.String(length=33), nullable=True),
    sa.Column('is_redelivery', sa.Boolean(), nullable=False),
    sa.Column('occurred_at', sa.DateTime(), nullable=True),
    sa.Column('received_at', sa.DateTime(), nullable=False),
    sa.Column('raw_json', sa.Text(), nullable=False),
    sa.Column('handled_at', sa.DateTime(), nullable=True),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_webhook_event')),
    sa.UniqueConstraint('event_id', name=op.f('uq_webhook_event_event_id'))
    )


def downgrade() -> None:
    op.drop_table('webhook_event')
