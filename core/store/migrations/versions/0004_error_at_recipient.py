"""Whether a delivery's last error points at the recipient, as a column instead of inside the message.

The e-mail fallback decided this by searching the stored error message for LINE's "to: " detail.
The sender now records it from LINE's answer itself (deliveries.last_error_at_recipient). Rows
recorded before this column are converted once, here, by the rule the old code applied at every
read: a LINE 404, or a LINE 400 whose message carries a detail about "to".

Revision ID: 0004_error_at_recipient
Revises: 0003_email_alerts
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = '0004_error_at_recipient'
down_revision = '0003_email_alerts'
branch_labels = None
depends_on = None


def upgrade() -> None:
    # A new column only: SQLite adds it in place, so no table is rebuilt (delivery_attempts points at
    # deliveries, and foreign_keys=ON would refuse dropping it).
    op.add_column('deliveries', sa.Column('last_error_at_recipient', sa.Boolean(), server_default=sa.false(),
                                          nullable=False))
    op.execute(sa.text(
        "UPDATE deliveries SET last_error_at_recipient = :yes WHERE channel = 'line' AND ("
        "last_error_code = 'LINE_404' OR (last_error_code = 'LINE_400' AND ("
        "last_error_message LIKE 'to: %' OR last_error_message LIKE '%; to: %')))").bindparams(yes=True))


def downgrade() -> None:
    if op.get_bind().dialect.name == 'sqlite':
        op.execute('ALTER TABLE deliveries DROP COLUMN last_error_at_recipient')  # in place (SQLite 3.35+)
    else:
        op.drop_column('deliveries', 'last_error_at_recipient')
