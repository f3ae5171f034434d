"""A hand-over to the relay is recorded before it is uploaded: `relay_uploads.confirmed_at`.

A sync records each delivery it is about to hand over in the same transaction that picks it, then
uploads, then sets `confirmed_at` once the relay answered. A cancel of a delivery so recorded reaches the
relay even when the upload's answer was lost or the app stopped before it, and a hand-over not
confirmed is uploaded again (the relay ignores an equal subject version). Every row written before this
revision was recorded after the relay's answer: it is confirmed as of its upload. The column is added
in place, as 0021 added the table; going down drops it again, in place on SQLite (3.35+) too.

Revision ID: 0026_relay_upload_confirmed
Revises: 0025_cover_decline_reason
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = '0026_relay_upload_confirmed'
down_revision = '0025_cover_decline_reason'
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column('relay_uploads', sa.Column('confirmed_at', sa.DateTime(), nullable=True))
    op.execute('UPDATE relay_uploads SET confirmed_at = uploaded_at')


def downgrade() -> None:
    if op.get_bind().dialect.name == 'sqlite':
        op.execute('ALTER TABLE relay_uploads DROP COLUMN confirmed_at')
    else:
        op.drop_column('relay_uploads', 'confirmed_at')
