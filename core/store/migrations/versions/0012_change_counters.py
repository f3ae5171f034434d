"""Change counters: one row per kind of change (shifts, deliveries, acknowledgements), bumped by every
transaction that makes one, so a process hears what another process (or computer) committed.

A new table; no existing row changes. Its rows start at 0: a process compares a counter only with the
value it read itself, so the start value means nothing.

Revision ID: 0012_change_counters
Revises: 0011_subject_uids
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = '0012_change_counters'
down_revision = '0011_subject_uids'
branch_labels = None
depends_on = None

TOPICS = ('shifts', 'deliveries', 'acknowledgements')


def upgrade() -> None:
    changes = op.create_table('changes',
    sa.Column('topic', sa.String(length=40), nullable=False),
    sa.Column('seq', sa.Integer(), nullable=False),
    sa.PrimaryKeyConstraint('topic', name=op.f('pk_changes'))
    )
    op.bulk_insert(changes, [{'topic': topic, 'seq': 0} for topic in TOPICS])


def downgrade() -> None:
    op.drop_table('changes')
