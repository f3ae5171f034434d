"""Availability requests (シフト希望): `availability_requests`, `availability_asked`, `availability_answers`.

New tables only, so every existing row stays as it is, and the `availability` change counter
(core/store/events.py: other processes hear that teachers answered); going down drops them (and the
answers with them, which no earlier version reads).

Revision ID: 0023_availability
Revises: 0022_cover_requests
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = '0023_availability'
down_revision = '0022_cover_requests'
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table('availability_requests',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('classroom_id', sa.Integer(), nullable=False),
    sa.Column('year', sa.Integer(), nullable=False),
    sa.Column('month', sa.Integer(), nullable=False),
    sa.Column('deadline', sa.Date(), nullable=False),
    sa.Column('remind_days_before', sa.Integer(), nullable=True),
    sa.Column('created_at', sa.DateTime(), nullable=False),
    sa.ForeignKeyConstraint(['classroom_id'], ['classrooms.id'],
                            name=op.f('fk_availability_requests_classroom_id_classrooms')),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_availability_requests'))
    )
    op.create_index('ix_availability_requests_month', 'availability_requests', ['classroom_id', 'year', 'month'],
                    unique=False)
    op.create_table('availability_asked',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('request_id', sa.Integer(), nullable=False),
    sa.Column('teacher_id', sa.Integer(), nullable=False),
    sa.Column('asked_at', sa.DateTime(), nullable=False),
    sa.Column('reminded_at', sa.DateTime(), nullable=True),
    sa.ForeignKeyConstraint(['request_id'], ['availability_requests.id'],
                            name=op.f('fk_availability_asked_request_id_availability_requests')),
    sa.ForeignKeyConstraint(['teacher_id'], ['teachers.id'], name=op.f('fk_availability_asked_teacher_id_teachers')),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_availability_asked')),
    sa.UniqueConstraint('request_id', 'teacher_id', name=op.f('uq_availability_asked_request_id_teacher_id'))
    )
    op.create_table('availability_answers',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('request_id', sa.Integer(), nullable=False),
    sa.Column('teacher_id', sa.Integer(), nullable=False),
    sa.Column('local_date', sa.Date(), nullable=False),
    sa.Column('answer', sa.String(length=16), nullable=False),
    sa.Column('start_time', sa.Time(), nullable=True),
    sa.Column('end_time', sa.Time(), nullable=True),
    sa.Column('answered_at', sa.DateTime(), nullable=False),
    sa.Column('late', sa.Boolean(), nullable=False),
    sa.Column('source', sa.String(length=16), nullable=False),
    sa.Column('replaced_at', sa.DateTime(), nullable=True),
    sa.ForeignKeyConstraint(['request_id'], ['availability_requests.id'],
                            name=op.f('fk_availability_answers_request_id_availability_requests')),
    sa.ForeignKeyConstraint(['teacher_id'], ['teachers.id'], name=op.f('fk_availability_answers_teacher_id_teachers')),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_availability_answers'))
    )
    op.create_index('ix_availability_answers_request', 'availability_answers',
                    ['request_id', 'teacher_id', 'local_date'], unique=False)
    op.execute(sa.text("INSERT INTO changes (topic, seq) VALUES ('availability', 0)"))


def downgrade() -> None:
    op.execute(sa.text("DELETE FROM changes WHERE topic = 'availability'"))
    op.drop_index('ix_availability_answers_request', table_name='availability_answers')
    op.drop_table('availability_answers')
    op.drop_table('availability_asked')
    op.drop_index('ix_availability_requests_month', table_name='availability_requests')
    op.drop_table('availability_requests')
