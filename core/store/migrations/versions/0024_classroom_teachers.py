"""Classrooms' own teachers: `classroom_teachers`, who belongs to which classroom and since when.

A new table, so no existing table is rebuilt. It starts with what the roster already says: every
teacher (not erased) belongs to each classroom they have a shift in, and — so that no one leaves a
Shifts grid they were in — to every classroom when there is only one, or when they have no shift at
all. Going down drops the table alone; the roster never depended on it.

Revision ID: 0024_classroom_teachers
Revises: 0023_availability
"""

from __future__ import annotations

import datetime as dt

import sqlalchemy as sa
from alembic import op

revision = '0024_classroom_teachers'
down_revision = '0023_availability'
branch_labels = None
depends_on = None

# Each classroom a teacher has any shift in (canceled ones too: the classroom was theirs).
WITH_SHIFTS = """
INSERT INTO classroom_teachers (classroom_id, teacher_id, since)
SELECT DISTINCT s.classroom_id, s.teacher_id, :now
FROM shifts s JOIN teachers t ON t.id = s.teacher_id
WHERE t.erased_at IS NULL
"""
# Every classroom, for a teacher of a single-classroom roster or one without any shift yet.
EVERYWHERE = """
INSERT INTO classroom_teachers (classroom_id, teacher_id, since)
SELECT c.id, t.id, :now
FROM classrooms c CROSS JOIN teachers t
WHERE t.erased_at IS NULL
  AND ((SELECT count(*) FROM classrooms) = 1
       OR NOT EXISTS (SELECT 1 FROM shifts s WHERE s.teacher_id = t.id))
  AND NOT EXISTS (SELECT 1 FROM classroom_teachers m WHERE m.classroom_id = c.id AND m.teacher_id = t.id)
"""


def upgrade() -> None:
    op.create_table('classroom_teachers',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('classroom_id', sa.Integer(), nullable=False),
    sa.Column('teacher_id', sa.Integer(), nullable=False),
    sa.Column('since', sa.DateTime(), nullable=False),
    sa.ForeignKeyConstraint(['classroom_id'], ['classrooms.id'],
                            name=op.f('fk_classroom_teachers_classroom_id_classrooms')),
    sa.ForeignKeyConstraint(['teacher_id'], ['teachers.id'], name=op.f('fk_classroom_teachers_teacher_id_teachers')),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_classroom_teachers')),
    sa.UniqueConstraint('classroom_id', 'teacher_id', name=op.f('uq_classroom_teachers_classroom_id_teacher_id'))
    )
    op.create_index(op.f('ix_classroom_teachers_classroom_id'), 'classroom_teachers', ['classroom_id'], unique=False)
    op.create_index(op.f('ix_classroom_teachers_teacher_id'), 'classroom_teachers', ['teacher_id'], unique=False)
    now = dt.datetime.now(dt.UTC).replace(tzinfo=None)  # stored as naive UTC, as every instant
    for statement in (WITH_SHIFTS, EVERYWHERE):
        op.execute(sa.text(statement).bindparams(sa.bindparam('now', now, type_=sa.DateTime())))


def downgrade() -> None:
    op.drop_index(op.f('ix_classroom_teachers_teacher_id'), table_name='classroom_teachers')
    op.drop_index(op.f('ix_classroom_teachers_classroom_id'), table_name='classroom_teachers')
    op.drop_table('classroom_teachers')
