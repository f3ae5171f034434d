"""Each classroom's room on a channel other than LINE: where its month is posted on LINE WORKS.

`classroom_rooms`: one row per classroom and channel with the channel's own ID of the room (a LINE
WORKS channel ID). LINE's group stays the classroom's `line_group_id`. Every existing row stays as it
was: a database before this revision has no rooms, so its months go to the LINE groups as before.

Revision ID: 0028_classroom_rooms
Revises: 0027_staffing
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = '0028_classroom_rooms'
down_revision = '0027_staffing'
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        'classroom_rooms',
        sa.Column('classroom_id', sa.Integer(), nullable=False),
        sa.Column('channel', sa.String(length=32), nullable=False),
        sa.Column('room_id', sa.String(length=200), nullable=False),
        sa.ForeignKeyConstraint(['classroom_id'], ['classrooms.id'], name=op.f('fk_classroom_rooms_classroom_id_classrooms'),
                                ondelete='CASCADE'),
        sa.PrimaryKeyConstraint('classroom_id', 'channel', name=op.f('pk_classroom_rooms')),
    )


def downgrade() -> None:
    op.drop_table('classroom_rooms')
