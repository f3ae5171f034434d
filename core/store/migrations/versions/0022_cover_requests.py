"""Cover requests (代講): a teacher asks for cover of a confirmed shift, teachers volunteer, the manager decides.

New tables only (cover_requests, cover_request_steps, cover_volunteers), so every existing row stays
as it was and no table is rebuilt, and a change counter for the requests (`changes` row
`cover_requests`, core/store/events.py), so the window hears a request another process recorded.
Going down drops them with the requests they hold; the roster itself never depended on them (an
assignment is an ordinary shift edit).

Revision ID: 0022_cover_requests
Revises: 0021_relay_uploads
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = '0022_cover_requests'
down_revision = '0021_relay_uploads'
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table('cover_requests',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('shift_id', sa.Integer(), nullable=False),
    sa.Column('shift_version', sa.Integer(), nullable=False),
    sa.Column('teacher_id', sa.Integer(), nullable=False),
    sa.Column('reason', sa.Text(), nullable=False),
    sa.Column('state', sa.Enum('open', 'calling', 'assigned', 'withdrawn', 'declined', name='coverstate',
                               native_enum=False, create_constraint=False, length=32), nullable=False),
    sa.Column('assigned_teacher_id', sa.Integer(), nullable=True),
    sa.Column('created_at', sa.DateTime(), nullable=False),
    sa.Column('updated_at', sa.DateTime(), nullable=False),
    sa.ForeignKeyConstraint(['assigned_teacher_id'], ['teachers.id'],
                            name=op.f('fk_cover_requests_assigned_teacher_id_teachers')),
    sa.ForeignKeyConstraint(['shift_id'], ['shifts.id'], name=op.f('fk_cover_requests_shift_id_shifts')),
    sa.ForeignKeyConstraint(['teacher_id'], ['teachers.id'], name=op.f('fk_cover_requests_teacher_id_teachers')),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_cover_requests'))
    )
    op.create_index(op.f('ix_cover_requests_shift_id'), 'cover_requests', ['shift_id'], unique=False)
    op.create_table('cover_request_steps',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('request_id', sa.Integer(), nullable=False),
    sa.Column('step', sa.Enum('asked', 'called', 'volunteered', 'refused', 'assigned', 'withdrawn', 'declined',
                              name='coverstep', native_enum=False, create_constraint=False, length=32),
              nullable=False),
    sa.Column('teacher_id', sa.Integer(), nullable=True),
    sa.Column('at', sa.DateTime(), nullable=False),
    sa.ForeignKeyConstraint(['request_id'], ['cover_requests.id'],
                            name=op.f('fk_cover_request_steps_request_id_cover_requests')),
    sa.ForeignKeyConstraint(['teacher_id'], ['teachers.id'], name=op.f('fk_cover_request_steps_teacher_id_teachers')),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_cover_request_steps'))
    )
    op.create_index(op.f('ix_cover_request_steps_request_id'), 'cover_request_steps', ['request_id'], unique=False)
    op.create_table('cover_volunteers',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('request_id', sa.Integer(), nullable=False),
    sa.Column('teacher_id', sa.Integer(), nullable=False),
    sa.Column('at', sa.DateTime(), nullable=False),
    sa.ForeignKeyConstraint(['request_id'], ['cover_requests.id'],
                            name=op.f('fk_cover_volunteers_request_id_cover_requests')),
    sa.ForeignKeyConstraint(['teacher_id'], ['teachers.id'], name=op.f('fk_cover_volunteers_teacher_id_teachers')),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_cover_volunteers')),
    sa.UniqueConstraint('request_id', 'teacher_id', name=op.f('uq_cover_volunteers_request_id_teacher_id'))
    )
    op.create_index(op.f('ix_cover_volunteers_request_id'), 'cover_volunteers', ['request_id'], unique=False)
    op.execute(sa.text("INSERT INTO changes (topic, seq) SELECT 'cover_requests', 0 WHERE NOT EXISTS"
                       " (SELECT 1 FROM changes WHERE topic = 'cover_requests')"))


def downgrade() -> None:
    op.execute(sa.text("DELETE FROM changes WHERE topic = 'cover_requests'"))
    op.drop_index(op.f('ix_cover_volunteers_request_id'), table_name='cover_volunteers')
    op.drop_table('cover_volunteers')
    op.drop_index(op.f('ix_cover_request_steps_request_id'), table_name='cover_request_steps')
    op.drop_table('cover_request_steps')
    op.drop_index(op.f('ix_cover_requests_shift_id'), table_name='cover_requests')
    op.drop_table('cover_requests')
