"""Outbox: publications, deliveries and delivery attempts.

Revision ID: 0002_outbox
Revises: 0001_roster
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = '0002_outbox'
down_revision = '0001_roster'
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table('publications',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('classroom_id', sa.Integer(), nullable=False),
    sa.Column('year', sa.Integer(), nullable=False),
    sa.Column('month', sa.Integer(), nullable=False),
    sa.Column('revision', sa.Integer(), nullable=False),
    sa.Column('document_id', sa.String(length=64), nullable=False),
    sa.Column('is_update', sa.Boolean(), nullable=False),
    sa.Column('image_sha256', sa.String(length=64), nullable=False),
    sa.Column('image_bytes', sa.Integer(), nullable=False),
    sa.Column('image_width', sa.Integer(), nullable=False),
    sa.Column('image_height', sa.Integer(), nullable=False),
    sa.Column('preview_sha256', sa.String(length=64), nullable=False),
    sa.Column('preview_bytes', sa.Integer(), nullable=False),
    sa.Column('snapshot_json', sa.Text(), nullable=False),
    sa.Column('changes_json', sa.Text(), nullable=False),
    sa.Column('original_key', sa.String(length=300), nullable=True),
    sa.Column('preview_key', sa.String(length=300), nullable=True),
    sa.Column('uploaded_at', sa.DateTime(), nullable=True),
    sa.Column('created_at', sa.DateTime(), nullable=False),
    sa.ForeignKeyConstraint(['classroom_id'], ['classrooms.id'], name=op.f('fk_publications_classroom_id_classrooms')),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_publications')),
    sa.UniqueConstraint('classroom_id', 'year', 'month', 'revision', name=op.f('uq_publications_classroom_id_year_month_revision')),
    sa.UniqueConstraint('document_id', name=op.f('uq_publications_document_id'))
    )

    op.create_table('deliveries',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('kind', sa.Enum('shift_publication', 'shift_reminder', 'shift_correction', name='deliverykind', native_enum=False, length=32, create_constraint=False), nullable=False),
    sa.Column('channel', sa.Enum('line', 'email', name='channel', native_enum=False, length=32, create_constraint=False), nullable=False),
    sa.Column('dedup_key', sa.String(length=200), nullable=False),
    sa.Column('recipient', sa.String(length=320), nullable=True),
    sa.Column('teacher_id', sa.Integer(), nullable=True),
    sa.Column('classroom_id', sa.Integer(), nullable=True),
    sa.Column('shift_id', sa.Integer(), nullable=True),
    sa.Column('shift_version', sa.Integer(), nullable=True),
    sa.Column('publication_id', sa.Integer(), nullable=True),
    sa.Column('linked_delivery_id', sa.Integer(), nullable=True),
    sa.Column('status', sa.Enum('pending', 'queued', 'processing', 'sent', 'failed', 'canceled', name='deliverystatus', native_enum=False, length=32, create_constraint=False), nullable=False),
    sa.Column('cancel_reason', sa.String(length=64), nullable=True),
    sa.Column('dead_lettered_at', sa.DateTime(), nullable=True),
    sa.Column('attempt_count', sa.Integer(), nullable=False),
    sa.Column('due_at', sa.DateTime(), nullable=False),
    sa.Column('next_attempt_at', sa.DateTime(), nullable=False),
    sa.Column('lease_owner', sa.String(length=64), nullable=True),
    sa.Column('lease_expires_at', sa.DateTime(), nullable=True),
    sa.Column('retry_key', sa.String(length=36), nullable=True),
    sa.Column('retry_key_issued_at', sa.DateTime(), nullable=True),
    sa.Column('last_error_code', sa.String(length=64), nullable=True),
    sa.Column('last_error_message', sa.Text(), nullable=True),
    sa.Column('line_request_id', sa.String(length=64), nullable=True),
    sa.Column('accepted_request_id', sa.String(length=64), nullable=True),
    sa.Column('late_seconds', sa.Integer(), nullable=True),
    sa.Column('created_at', sa.DateTime(), nullable=False),
    sa.Column('first_attempt_at', sa.DateTime(), nullable=True),
    sa.Column('sent_at', sa.DateTime(), nullable=True),
    sa.Column('updated_at', sa.DateTime(), nullable=False),
    sa.ForeignKeyConstraint(['classroom_id'], ['classrooms.id'], name=op.f('fk_deliveries_classroom_id_classrooms')),
    sa.ForeignKeyConstraint(['linked_delivery_id'], ['deliveries.id'], name=op.f('fk_deliveries_linked_delivery_id_deliveries')),
    sa.ForeignKeyConstraint(['publication_id'], ['publications.id'], name=op.f('fk_deliveries_publication_id_publications')),
    sa.ForeignKeyConstraint(['shift_id'], ['shifts.id'], name=op.f('fk_deliveries_shift_id_shifts')),
    sa.ForeignKeyConstraint(['teacher_id'], ['teachers.id'], name=op.f('fk_deliveries_teacher_id_teachers')),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_deliveries')),
    sa.UniqueConstraint('dedup_key', name=op.f('uq_deliveries_dedup_key'))
    )
    with op.batch_alter_table('deliveries', schema=None) as batch_op:
        batch_op.create_index('ix_deliveries_created', ['created_at'], unique=False)
        batch_op.create_index('ix_deliveries_shift', ['shift_id', 'shift_version'], unique=False)
        batch_op.create_index('ix_deliveries_status_next_attempt', ['status', 'next_attempt_at'], unique=False)

    op.create_table('delivery_attempts',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('delivery_id', sa.Integer(), nullable=False),
    sa.Column('number', sa.Integer(), nullable=False),
    sa.Column('started_at', sa.DateTime(), nullable=False),
    sa.Column('duration_ms', sa.Integer(), nullable=True),
    sa.Column('http_status', sa.Integer(), nullable=True),
    sa.Column('request_id', sa.String(length=64), nullable=True),
    sa.Column('accepted_request_id', sa.String(length=64), nullable=True),
    sa.Column('retry_key', sa.String(length=36), nullable=True),
    sa.Column('outcome', sa.String(length=32), nullable=False),
    sa.Column('error_code', sa.String(length=64), nullable=True),
    sa.Column('error_message', sa.Text(), nullable=True),
    sa.ForeignKeyConstraint(['delivery_id'], ['deliveries.id'], name=op.f('fk_delivery_attempts_delivery_id_deliveries')),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_delivery_attempts'))
    )
    with op.batch_alter_table('delivery_attempts', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_delivery_attempts_delivery_id'), ['delivery_id'], unique=False)


def downgrade() -> None:
    op.drop_table('delivery_attempts')
    op.drop_table('deliveries')
    op.drop_table('publications')
