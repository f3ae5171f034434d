"""Each teacher's private calendar address: the token of their shifts' iCalendar feed on the relay.

`calendar_feeds`: at most one row per teacher, its token (43 characters of base64url) and when it was
made; a new address replaces the token. Every existing row stays as it was: a database before this
revision has no addresses, and a teacher gets one when the teachers' page hands their calendar over.

Revision ID: 0029_calendar_feeds
Revises: 0028_classroom_rooms
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = '0029_calendar_feeds'
down_revision = '0028_classroom_rooms'
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        'calendar_feeds',
        sa.Column('id', sa.Integer(), nullable=False),
        sa.Column('teacher_id', sa.Integer(), nullable=False),
        sa.Column('token', sa.String(length=43), nullable=False),
        sa.Column('created_at', sa.DateTime(), nullable=False),
        sa.ForeignKeyConstraint(['teacher_id'], ['teachers.id'], name=op.f('fk_calendar_feeds_teacher_id_teachers'),
                                ondelete='CASCADE'),
        sa.PrimaryKeyConstraint('id', name=op.f('pk_calendar_feeds')),
        sa.UniqueConstraint('teacher_id', name=op.f('uq_calendar_feeds_teacher_id')),
        sa.UniqueConstraint('token', name=op.f('uq_calendar_feeds_token')),
    )


def downgrade() -> None:
    op.drop_table('calendar_feeds')
