"""Teachers' weekly patterns: `weekly_patterns`, a teacher's fixed slot at a classroom on one weekday.

What "Fill month from patterns" makes draft shifts of (core/roster/patterns.py). A new table: every
teacher starts without patterns, nothing else changes, and going down drops it alone.

Revision ID: 0019_weekly_patterns
Revises: 0018_closed_days
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = '0019_weekly_patterns'
down_revision = '0018_closed_days'
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table('weekly_patterns',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('teacher_id', sa.Integer(), nullable=False),
    sa.Column('classroom_id', sa.Integer(), nullable=False),
    sa.Column('weekday', sa.Integer(), nullable=False),
    sa.Column('start_time', sa.Time(), nullable=False),
    sa.Column('end_time', sa.Time(), nullable=False),
    sa.Column('valid_from', sa.Date(), nullable=False),
    sa.Column('valid_until', sa.Date(), nullable=True),
    sa.ForeignKeyConstraint(['classroom_id'], ['classrooms.id'], name=op.f('fk_weekly_patterns_classroom_id_classrooms')),
    sa.ForeignKeyConstraint(['teacher_id'], ['teachers.id'], name=op.f('fk_weekly_patterns_teacher_id_teachers')),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_weekly_patterns'))
    )
    with op.batch_alter_table('weekly_patterns') as batch:
        batch.create_index(batch.f('ix_weekly_patterns_classroom_id'), ['classroom_id'], unique=False)
        batch.create_index(batch.f('ix_weekly_patterns_teacher_id'), ['teacher_id'], unique=False)


def downgrade() -> None:
    with op.batch_alter_table('weekly_patterns') as batch:
        batch.drop_index(batch.f('ix_weekly_patterns_teacher_id'))
        batch.drop_index(batch.f('ix_weekly_patterns_classroom_id'))
    op.drop_table('weekly_patterns')
