"""A classroom's closed days: `classroom_closed_days`, the manager's word on single days.

A row marks a day closed (with a note), or open on a national holiday, which is closed otherwise
(core/roster/closed_days.py has the rule). Existing classrooms start without rows, so their closed
days are Japan's holidays and nothing else until the manager says more. A new table: no existing
table is rebuilt, and going down drops it alone.

Revision ID: 0018_closed_days
Revises: 0017_teacher_position
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = '0018_closed_days'
down_revision = '0017_teacher_position'
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table('classroom_closed_days',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('classroom_id', sa.Integer(), nullable=False),
    sa.Column('local_date', sa.Date(), nullable=False),
    sa.Column('closed', sa.Boolean(), nullable=False),
    sa.Column('note', sa.String(length=200), nullable=False),
    sa.ForeignKeyConstraint(['classroom_id'], ['classrooms.id'],
                            name=op.f('fk_classroom_closed_days_classroom_id_classrooms')),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_classroom_closed_days')),
    sa.UniqueConstraint('classroom_id', 'local_date', name=op.f('uq_classroom_closed_days_classroom_id_local_date'))
    )
    with op.batch_alter_table('classroom_closed_days') as batch:
        batch.create_index(batch.f('ix_classroom_closed_days_classroom_id'), ['classroom_id'], unique=False)


def downgrade() -> None:
    with op.batch_alter_table('classroom_closed_days') as batch:
        batch.drop_index(batch.f('ix_classroom_closed_days_classroom_id'))
    op.drop_table('classroom_closed_days')
