"""Pairing codes that cannot be guessed: longer codes, and the wrong codes and lockouts that limit guessing.

- `pairing_codes.code` holds 9 characters now (16 allowed); SQLite rebuilds that small table, which
  no other table points at.
- Codes issued before are 6 characters, too few to stay unguessed for their 7 days at the rate the
  limits allow (core/receiving/pairing.py has the arithmetic), so the unused ones expire now: the
  Connect LINE wizard issues those teachers new codes, and a teacher who sends an old one is answered
  that it could not be matched and to ask the manager for a new one. Used codes stay as the record.
- `pairing_failures` (every code that bound nobody, by LINE user and time) and `pairing_lockouts`
  (who is ignored until when), so a restart of the receiver lifts no lockout.

Revision ID: 0010_pairing_limits
Revises: 0009_webhook_retries
"""

from __future__ import annotations

import datetime as dt

import sqlalchemy as sa
from alembic import op

revision = '0010_pairing_limits'
down_revision = '0009_webhook_retries'
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table('pairing_codes') as batch:
        batch.alter_column('code', existing_type=sa.String(length=8), type_=sa.String(length=16),
                           existing_nullable=False)
    now = dt.datetime.now(dt.UTC).replace(tzinfo=None)  # stored as naive UTC, as every instant is
    op.execute(sa.text('UPDATE pairing_codes SET expires_at = :now WHERE used_at IS NULL AND expires_at > :now')
               .bindparams(sa.bindparam('now', now, type_=sa.DateTime())))
    op.create_table('pairing_failures',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('line_user_id', sa.String(length=33), nullable=False),
    sa.Column('at', sa.DateTime(), nullable=False),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_pairing_failures'))
    )
    op.create_index(op.f('ix_pairing_failures_at'), 'pairing_failures', ['at'], unique=False)
    op.create_index('ix_pairing_failures_user_at', 'pairing_failures', ['line_user_id', 'at'], unique=False)
    op.create_table('pairing_lockouts',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('scope', sa.String(length=33), nullable=False),
    sa.Column('locked_at', sa.DateTime(), nullable=False),
    sa.Column('locked_until', sa.DateTime(), nullable=False),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_pairing_lockouts')),
    sa.UniqueConstraint('scope', name=op.f('uq_pairing_lockouts_scope'))
    )


def downgrade() -> None:
    op.drop_table('pairing_lockouts')
    op.drop_index('ix_pairing_failures_user_at', table_name='pairing_failures')
    op.drop_index(op.f('ix_pairing_failures_at'), table_name='pairing_failures')
    op.drop_table('pairing_failures')
    # The earlier code neither reads nor fits the longer codes.
    op.execute(sa.text('DELETE FROM pairing_codes WHERE length(code) > 8'))
    with op.batch_alter_table('pairing_codes') as batch:
        batch.alter_column('code', existing_type=sa.String(length=16), type_=sa.String(length=8),
                           existing_nullable=False)
