"""Teachers paired over LINE with their consent time, proposed LINE groups, and 了解 acknowledgements.

New tables (line_group_proposals, pairing_codes) and nullable columns only: SQLite adds the columns in
place, so no table is rebuilt. Existing opt-ins keep line_opt_in_at NULL: nobody recorded when (or
whether) those teachers consented on LINE themselves.

Revision ID: 0007_pairing_and_acks
Revises: 0006_webhook_events
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = '0007_pairing_and_acks'
down_revision = '0006_webhook_events'
branch_labels = None
depends_on = None

_COLUMNS = (('teachers', 'line_opt_in_at'), ('deliveries', 'acknowledged_at'))


def upgrade() -> None:
    for table, column in _COLUMNS:
        op.add_column(table, sa.Column(column, sa.DateTime(), nullable=True))
    op.create_table('line_group_proposals',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('group_id', sa.String(length=33), nullable=False),
    sa.Column('name', sa.String(length=200), nullable=True),
    sa.Column('member_count', sa.Integer(), nullable=True),
    sa.Column('picture_url', sa.Text(), nullable=True),
    sa.Column('joined_at', sa.DateTime(), nullable=False),
    sa.Column('left_at', sa.DateTime(), nullable=True),
    sa.Column('accepted_at', sa.DateTime(), nullable=True),
    sa.Column('classroom_id', sa.Integer(), nullable=True),
    sa.ForeignKeyConstraint(['classroom_id'], ['classrooms.id'],
                            name=op.f('fk_line_group_proposals_classroom_id_classrooms')),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_line_group_proposals')),
    sa.UniqueConstraint('group_id', name=op.f('uq_line_group_proposals_group_id'))
    )
    op.create_table('pairing_codes',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('code', sa.String(length=8), nullable=False),
    sa.Column('teacher_id', sa.Integer(), nullable=False),
    sa.Column('classroom_id', sa.Integer(), nullable=True),
    sa.Column('issued_at', sa.DateTime(), nullable=False),
    sa.Column('expires_at', sa.DateTime(), nullable=False),
    sa.Column('used_at', sa.DateTime(), nullable=True),
    sa.Column('used_by', sa.String(length=33), nullable=True),
    sa.ForeignKeyConstraint(['classroom_id'], ['classrooms.id'], name=op.f('fk_pairing_codes_classroom_id_classrooms')),
    sa.ForeignKeyConstraint(['teacher_id'], ['teachers.id'], name=op.f('fk_pairing_codes_teacher_id_teachers')),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_pairing_codes')),
    sa.UniqueConstraint('code', name=op.f('uq_pairing_codes_code'))
    )
    op.create_index(op.f('ix_pairing_codes_teacher_id'), 'pairing_codes', ['teacher_id'], unique=False)


def downgrade() -> None:
    op.drop_index(op.f('ix_pairing_codes_teacher_id'), table_name='pairing_codes')
    op.drop_table('pairing_codes')
    op.drop_table('line_group_proposals')
    for table, column in reversed(_COLUMNS):
        if op.get_bind().dialect.name == 'sqlite':
            op.execute(f'ALTER TABLE {table} DROP COLUMN {column}')  # in place (SQLite 3.35+)
        else:
            op.drop_column(table, column)
