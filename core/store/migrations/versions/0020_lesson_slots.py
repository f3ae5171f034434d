"""A classroom's lesson slots (コマ): `lesson_slots`, a named period such as 1限 16:50–18:10.

The shift dialog enters a shift's times by slot (core/roster/lesson_slots.py); shifts keep their times,
so nothing else changes. A new table: every classroom starts without slots, and going down drops it alone.

Revision ID: 0020_lesson_slots
Revises: 0019_weekly_patterns
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = '0020_lesson_slots'
down_revision = '0019_weekly_patterns'
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table('lesson_slots',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('classroom_id', sa.Integer(), nullable=False),
    sa.Column('name', sa.String(length=40), nullable=False),
    sa.Column('start_time', sa.Time(), nullable=False),
    sa.Column('end_time', sa.Time(), nullable=False),
    sa.ForeignKeyConstraint(['classroom_id'], ['classrooms.id'], name=op.f('fk_lesson_slots_classroom_id_classrooms')),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_lesson_slots')),
    sa.UniqueConstraint('classroom_id', 'name', name=op.f('uq_lesson_slots_classroom_id_name'))
    )
    with op.batch_alter_table('lesson_slots') as batch:
        batch.create_index(batch.f('ix_lesson_slots_classroom_id'), ['classroom_id'], unique=False)


def downgrade() -> None:
    with op.batch_alter_table('lesson_slots') as batch:
        batch.drop_index(batch.f('ix_lesson_slots_classroom_id'))
    op.drop_table('lesson_slots')
