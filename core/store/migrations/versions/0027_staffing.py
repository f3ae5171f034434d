"""Staffing needs per lesson slot, and each teacher's limits and slots: what a draft month is made from.

`staffing_needs`: how many teachers a classroom needs in a lesson slot on a weekday, or on one date
(which overrides the weekday). `teacher_limits`: one optional row per teacher with the month's ceilings
(shifts, minutes, weekend days, days in a row), a promised minimum and a relative share of the work.
`teacher_slots`: the lesson slots a teacher can teach (none for a classroom: all of its slots). Every
existing row stays as it was: a database before this revision has no needs and no limits. The change
counter of `webhook_events_handled` (LINE events handled by whichever receiver of the data) is seeded
here with the others' (core/store/events.py).

Revision ID: 0027_staffing
Revises: 0026_relay_upload_confirmed
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = '0027_staffing'
down_revision = '0026_relay_upload_confirmed'
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        'staffing_needs',
        sa.Column('id', sa.Integer(), nullable=False),
        sa.Column('classroom_id', sa.Integer(), nullable=False),
        sa.Column('slot_id', sa.Integer(), nullable=False),
        sa.Column('weekday', sa.Integer(), nullable=True),
        sa.Column('local_date', sa.Date(), nullable=True),
        sa.Column('count', sa.Integer(), nullable=False),
        sa.CheckConstraint('(weekday IS NULL) <> (local_date IS NULL)', name=op.f('ck_staffing_needs_weekday_or_date')),
        sa.CheckConstraint('count >= 0', name=op.f('ck_staffing_needs_count_not_negative')),
        sa.ForeignKeyConstraint(['classroom_id'], ['classrooms.id'], name=op.f('fk_staffing_needs_classroom_id_classrooms')),
        sa.ForeignKeyConstraint(['slot_id'], ['lesson_slots.id'], name=op.f('fk_staffing_needs_slot_id_lesson_slots'),
                                ondelete='CASCADE'),
        sa.PrimaryKeyConstraint('id', name=op.f('pk_staffing_needs')),
        sa.UniqueConstraint('slot_id', 'weekday', name=op.f('uq_staffing_needs_slot_id_weekday')),
        sa.UniqueConstraint('slot_id', 'local_date', name=op.f('uq_staffing_needs_slot_id_local_date')),
    )
    op.create_index(op.f('ix_staffing_needs_classroom_id'), 'staffing_needs', ['classroom_id'])
    op.create_index(op.f('ix_staffing_needs_slot_id'), 'staffing_needs', ['slot_id'])
    op.create_table(
        'teacher_limits',
        sa.Column('teacher_id', sa.Integer(), nullable=False),
        sa.Column('max_shifts', sa.Integer(), nullable=True),
        sa.Column('max_minutes', sa.Integer(), nullable=True),
        sa.Column('min_minutes', sa.Integer(), nullable=True),
        sa.Column('max_days_in_a_row', sa.Integer(), nullable=True),
        sa.Column('max_weekend_days', sa.Integer(), nullable=True),
        sa.Column('target_share', sa.Integer(), nullable=True),
        sa.ForeignKeyConstraint(['teacher_id'], ['teachers.id'], name=op.f('fk_teacher_limits_teacher_id_teachers'),
                                ondelete='CASCADE'),
        sa.PrimaryKeyConstraint('teacher_id', name=op.f('pk_teacher_limits')),
    )
    op.create_table(
        'teacher_slots',
        sa.Column('id', sa.Integer(), nullable=False),
        sa.Column('teacher_id', sa.Integer(), nullable=False),
        sa.Column('slot_id', sa.Integer(), nullable=False),
        sa.ForeignKeyConstraint(['teacher_id'], ['teachers.id'], name=op.f('fk_teacher_slots_teacher_id_teachers'),
                                ondelete='CASCADE'),
        sa.ForeignKeyConstraint(['slot_id'], ['lesson_slots.id'], name=op.f('fk_teacher_slots_slot_id_lesson_slots'),
                                ondelete='CASCADE'),
        sa.PrimaryKeyConstraint('id', name=op.f('pk_teacher_slots')),
        sa.UniqueConstraint('teacher_id', 'slot_id', name=op.f('uq_teacher_slots_teacher_id_slot_id')),
    )
    op.create_index(op.f('ix_teacher_slots_teacher_id'), 'teacher_slots', ['teacher_id'])
    op.create_index(op.f('ix_teacher_slots_slot_id'), 'teacher_slots', ['slot_id'])
    op.execute(sa.text("INSERT INTO changes (topic, seq) SELECT 'webhook_events_handled', 0 WHERE NOT EXISTS"
                       " (SELECT 1 FROM changes WHERE topic = 'webhook_events_handled')"))


def downgrade() -> None:
    op.execute(sa.text("DELETE FROM changes WHERE topic = 'webhook_events_handled'"))
    op.drop_table('teacher_slots')
    op.drop_table('teacher_limits')
    op.drop_table('staffing_needs')
