"""Roster: settings, classrooms, teachers, shifts and their revisions.

Revision ID: 0001_roster
Revises: None
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = '0001_roster'
down_revision = None
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table('settings',
    sa.Column('key', sa.String(length=100), nullable=False),
    sa.Column('value', sa.Text(), nullable=False),
    sa.PrimaryKeyConstraint('key', name=op.f('pk_settings'))
    )

    op.create_table('classrooms',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('name', sa.String(length=200), nullable=False),
    sa.Column('timezone', sa.String(length=64), nullable=False),
    sa.Column('line_group_id', sa.String(length=33), nullable=True),
    sa.Column('reminder_lead_minutes', sa.Integer(), nullable=False),
    sa.Column('quiet_hours_enabled', sa.Boolean(), nullable=False),
    sa.Column('quiet_start', sa.Time(), nullable=False),
    sa.Column('quiet_end', sa.Time(), nullable=False),
    sa.Column('language', sa.String(length=8), nullable=False),
    sa.Column('liff_id', sa.String(length=100), nullable=True),
    sa.Column('created_at', sa.DateTime(), nullable=False),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_classrooms')),
    sa.UniqueConstraint('name', name=op.f('uq_classrooms_name'))
    )

    op.create_table('teachers',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('name', sa.String(length=200), nullable=True),
    sa.Column('line_user_id', sa.String(length=33), nullable=True),
    sa.Column('email', sa.String(length=320), nullable=True),
    sa.Column('line_opt_in', sa.Boolean(), nullable=False),
    sa.Column('email_opt_in', sa.Boolean(), nullable=False),
    sa.Column('active', sa.Boolean(), nullable=False),
    sa.Column('erased_at', sa.DateTime(), nullable=True),
    sa.Column('created_at', sa.DateTime(), nullable=False),
    sa.Column('updated_at', sa.DateTime(), nullable=False),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_teachers')),
    sa.UniqueConstraint('line_user_id', name=op.f('uq_teachers_line_user_id')),
    sa.UniqueConstraint('name', name=op.f('uq_teachers_name'))
    )

    op.create_table('shifts',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('classroom_id', sa.Integer(), nullable=False),
    sa.Column('teacher_id', sa.Integer(), nullable=False),
    sa.Column('local_date', sa.Date(), nullable=False),
    sa.Column('start_time', sa.Time(), nullable=False),
    sa.Column('end_time', sa.Time(), nullable=False),
    sa.Column('ends_next_day', sa.Boolean(), nullable=False),
    sa.Column('note', sa.Text(), nullable=False),
    sa.Column('status', sa.Enum('draft', 'confirmed', 'canceled', name='shiftstatus', native_enum=False, length=32, create_constraint=False), nullable=False),
    sa.Column('version', sa.Integer(), nullable=False),
    sa.Column('created_at', sa.DateTime(), nullable=False),
    sa.Column('updated_at', sa.DateTime(), nullable=False),
    sa.ForeignKeyConstraint(['classroom_id'], ['classrooms.id'], name=op.f('fk_shifts_classroom_id_classrooms')),
    sa.ForeignKeyConstraint(['teacher_id'], ['teachers.id'], name=op.f('fk_shifts_teacher_id_teachers')),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_shifts'))
    )
    with op.batch_alter_table('shifts', schema=None) as batch_op:
        batch_op.create_index('ix_shifts_classroom_date', ['classroom_id', 'local_date'], unique=False)
        batch_op.create_index('ix_shifts_teacher_date', ['teacher_id', 'local_date'], unique=False)

    op.create_table('shift_revisions',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('shift_id', sa.Integer(), nullable=False),
    sa.Column('version', sa.Integer(), nullable=False),
    sa.Column('classroom_id', sa.Integer(), nullable=False),
    sa.Column('teacher_id', sa.Integer(), nullable=False),
    sa.Column('local_date', sa.Date(), nullable=False),
    sa.Column('start_time', sa.Time(), nullable=False),
    sa.Column('end_time', sa.Time(), nullable=False),
    sa.Column('ends_next_day', sa.Boolean(), nullable=False),
    sa.Column('status', sa.Enum('draft', 'confirmed', 'canceled', name='shiftstatus', native_enum=False, length=32, create_constraint=False), nullable=False),
    sa.Column('recorded_at', sa.DateTime(), nullable=False),
    sa.ForeignKeyConstraint(['classroom_id'], ['classrooms.id'], name=op.f('fk_shift_revisions_classroom_id_classrooms')),
    sa.ForeignKeyConstraint(['shift_id'], ['shifts.id'], name=op.f('fk_shift_revisions_shift_id_shifts')),
    sa.ForeignKeyConstraint(['teacher_id'], ['teachers.id'], name=op.f('fk_shift_revisions_teacher_id_teachers')),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_shift_revisions')),
    sa.UniqueConstraint('shift_id', 'version', name=op.f('uq_shift_revisions_shift_id_version'))
    )


def downgrade() -> None:
    op.drop_table('shift_revisions')
    op.drop_table('shifts')
    op.drop_table('teachers')
    op.drop_table('classrooms')
    op.drop_table('settings')
