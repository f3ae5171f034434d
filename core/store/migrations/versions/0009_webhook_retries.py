"""Webhook events whose handlers failed are retried with backoff while the receiver runs.

- `handle_failures`: how many times the handlers failed on the event;
- `retry_at`: when the receiver tries it again (NULL: not failed, or given up);
- `handle_error`: the last failure, short, for the manager and the log;
- `given_up_at`: the tries ran out; an alert stays open while such an event is unhandled.

Revision ID: 0009_webhook_retries
Revises: 0008_senders
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = '0009_webhook_retries'
down_revision = '0008_senders'
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column('webhook_event', sa.Column('handle_failures', sa.Integer(), nullable=False, server_default='0'))
    op.add_column('webhook_event', sa.Column('retry_at', sa.DateTime(), nullable=True))
    op.add_column('webhook_event', sa.Column('handle_error', sa.String(length=200), nullable=True))
    op.add_column('webhook_event', sa.Column('given_up_at', sa.DateTime(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table('webhook_event') as batch:
        batch.drop_column('given_up_at')
        batch.drop_column('handle_error')
        batch.drop_column('retry_at')
        batch.drop_column('handle_failures')
