"""The relay: what the app handed it, and which attempts the relay made.

- `relay_uploads`: one row per delivery the app uploaded to the relay (docs/relay.md), with the subject
  version it was uploaded under and when a cancel for it followed, so a sync uploads each delivery and
  each cancel once;
- `delivery_attempts.via`: who made an attempt; NULL is this app's sender (every attempt before this
  revision), "relay" one the relay made and the app pulled as an outcome.

Both are added in place: rebuilding `delivery_attempts` (batch mode) would copy the whole attempt
history for one nullable column. Going down drops them again, in place on SQLite (3.35+) too.

Revision ID: 0021_relay_uploads
Revises: 0020_lesson_slots
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = '0021_relay_uploads'
down_revision = '0020_lesson_slots'
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column('delivery_attempts', sa.Column('via', sa.String(length=16), nullable=True))
    op.create_table(
        'relay_uploads',
        sa.Column('delivery_id', sa.Integer(), nullable=False),
        sa.Column('subject_version', sa.Integer(), nullable=False),
        sa.Column('uploaded_at', sa.DateTime(), nullable=False),
        sa.Column('canceled_at', sa.DateTime(), nullable=True),
        sa.ForeignKeyConstraint(['delivery_id'], ['deliveries.id']),
        sa.PrimaryKeyConstraint('delivery_id'),
    )


def downgrade() -> None:
    op.drop_table('relay_uploads')
    if op.get_bind().dialect.name == 'sqlite':
        op.execute('ALTER TABLE delivery_attempts DROP COLUMN via')
    else:
        op.drop_column('delivery_attempts', 'via')
