"""A teacher's ways of being reached become rows: `teacher_contacts`, and a rule on the teacher.

Until now each channel had its own columns on `teachers` (line_user_id, email, line_opt_in,
line_opt_in_at, email_opt_in, line_unreachable_at) and a closed choice among four (`channel`), so a new
channel meant new columns. Now a contact is (teacher, channel, address, agreed_at, agreed_by_teacher,
unreachable_since, rank) and `teachers.contact_rule` says how they are used: every ranked contact the
teacher agreed to, or the first that can reach them, then the next.

Each teacher is reached exactly as before:

- LINE: the LINE contact ranked, e-mail kept unranked;  EMAIL: the other way round;
- BOTH: LINE then e-mail, every one;  LINE_FALLBACK: LINE then e-mail, the first that reaches them.

Consent carries across as a time: LINE's own (`line_opt_in_at`, the teacher's pairing code, which
stays marked as theirs), else the row's last change for a manager's tick, which had no time of its
own. An erased teacher has no contact data left, so gets no contact. The unique LINE user ID is now
unique per (channel, address).

On SQLite `teachers` is rebuilt by hand rather than in batch mode: the UNIQUE line_user_id cannot be
dropped in place, and batch mode's DROP TABLE + RENAME leaves the rows that point at teachers
(shifts, deliveries, codes) counted as broken by foreign_keys=ON. With the checks deferred to the
commit, the rows inserted again into the new `teachers` satisfy them.

Revision ID: 0013_teacher_contacts
Revises: 0012_change_counters
"""

from __future__ import annotations

from typing import Any

import sqlalchemy as sa
from alembic import op

revision = '0013_teacher_contacts'
down_revision = '0012_change_counters'
branch_labels = None
depends_on = None

KEPT = ('id', 'name', 'active', 'erased_at', 'created_at', 'updated_at')
OLD = ('line_user_id', 'email', 'line_opt_in', 'line_opt_in_at', 'email_opt_in', 'channel', 'line_unreachable_at')
# The old choice → (the ranks of LINE and e-mail, the rule).
CHOICES: dict[str, tuple[int | None, int | None, str]] = {
    'line': (0, None, 'every'),
    'email': (None, 0, 'every'),
    'both': (0, 1, 'every'),
    'line_fallback': (0, 1, 'first'),
}


def _teacher_columns(old: bool) -> list[sa.Column[Any]]:
    columns: list[sa.Column[Any]] = [
        sa.Column('id', sa.Integer(), nullable=False),
        sa.Column('name', sa.String(length=200), nullable=True),
    ]
    if old:
        columns += [
            sa.Column('line_user_id', sa.String(length=33), nullable=True),
            sa.Column('email', sa.String(length=320), nullable=True),
            sa.Column('line_opt_in', sa.Boolean(), nullable=False),
            sa.Column('email_opt_in', sa.Boolean(), nullable=False),
        ]
    columns += [
        sa.Column('active', sa.Boolean(), nullable=False),
        sa.Column('erased_at', sa.DateTime(), nullable=True),
        sa.Column('created_at', sa.DateTime(), nullable=False),
        sa.Column('updated_at', sa.DateTime(), nullable=False),
    ]
    if old:
        columns += [
            sa.Column('channel', sa.Enum('line', 'email', 'both', 'line_fallback', name='channelchoice',
                                         native_enum=False, length=32, create_constraint=False),
                      server_default='line', nullable=False),
            sa.Column('line_unreachable_at', sa.DateTime(), nullable=True),
            sa.Column('line_opt_in_at', sa.DateTime(), nullable=True),
        ]
    else:
        columns.append(sa.Column('contact_rule', sa.Enum('every', 'first', name='contactrule', native_enum=False,
                                                         length=32, create_constraint=False),
                                 server_default='every', nullable=False))
    return columns


def _rebuild_teachers_on_sqlite(old: bool, copied: tuple[str, ...]) -> None:
    """Make `teachers` anew with the other columns, keeping every row and whatever points at it."""
    op.execute('PRAGMA defer_foreign_keys = ON')  # until the commit; the rows are back by then
    names = ', '.join(copied)
    op.execute(f'CREATE TABLE _teachers_before AS SELECT {names} FROM teachers')
    op.execute('DROP TABLE teachers')
    constraints: list[Any] = [sa.PrimaryKeyConstraint('id', name='pk_teachers'),
                              sa.UniqueConstraint('name', name='uq_teachers_name')]
    if old:
        constraints.append(sa.UniqueConstraint('line_user_id', name='uq_teachers_line_user_id'))
    op.create_table('teachers', *_teacher_columns(old), *constraints)
    # The old opt-ins have no default; they are false until the downgrade fills them in.
    flags, falses = (', line_opt_in, email_opt_in', ', 0, 0') if old else ('', '')
    op.execute(f'INSERT INTO teachers ({names}{flags}) SELECT {names}{falses} FROM _teachers_before')
    op.execute('DROP TABLE _teachers_before')


def upgrade() -> None:
    bind = op.get_bind()
    teachers = bind.execute(sa.text(f"SELECT {', '.join(KEPT + OLD)} FROM teachers")).mappings().all()

    op.create_table('teacher_contacts',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('teacher_id', sa.Integer(), nullable=False),
    sa.Column('channel', sa.String(length=32), nullable=False),
    sa.Column('address', sa.String(length=320), nullable=True),
    sa.Column('agreed_at', sa.DateTime(), nullable=True),
    sa.Column('agreed_by_teacher', sa.Boolean(), server_default=sa.false(), nullable=False),
    sa.Column('unreachable_since', sa.DateTime(), nullable=True),
    sa.Column('rank', sa.Integer(), nullable=True),
    sa.ForeignKeyConstraint(['teacher_id'], ['teachers.id'], name=op.f('fk_teacher_contacts_teacher_id_teachers')),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_teacher_contacts')),
    sa.UniqueConstraint('channel', 'address', name=op.f('uq_teacher_contacts_channel_address')),
    sa.UniqueConstraint('teacher_id', 'channel', name=op.f('uq_teacher_contacts_teacher_id_channel'))
    )

    contacts, rules = [], []
    for row in teachers:
        line_rank, email_rank, rule = CHOICES.get(row['channel'] or 'line', CHOICES['line'])
        rules.append({'id': row['id'], 'rule': rule})
        if row['erased_at'] is not None:
            continue  # nothing of theirs is left to reach them by
        if row['line_user_id'] or row['line_opt_in'] or row['line_unreachable_at'] or line_rank is not None:
            contacts.append({
                'teacher': row['id'], 'channel': 'line', 'address': row['line_user_id'] or None,
                'agreed': (row['line_opt_in_at'] or row['updated_at']) if row['line_opt_in'] else None,
                'own': bool(row['line_opt_in'] and row['line_opt_in_at'] is not None),
                'unreachable': row['line_unreachable_at'], 'rank': line_rank,
            })
        if row['email'] or row['email_opt_in'] or email_rank is not None:
            contacts.append({
                'teacher': row['id'], 'channel': 'email', 'address': row['email'] or None,
                'agreed': row['updated_at'] if row['email_opt_in'] else None, 'own': False,
                'unreachable': None, 'rank': email_rank,
            })

    if bind.dialect.name == 'sqlite':
        _rebuild_teachers_on_sqlite(False, KEPT)
    else:
        op.add_column('teachers', sa.Column('contact_rule', sa.Enum('every', 'first', name='contactrule',
                                                                    native_enum=False, length=32,
                                                                    create_constraint=False),
                                            server_default='every', nullable=False))
        op.drop_constraint('uq_teachers_line_user_id', 'teachers', type_='unique')
        for column in OLD:
            op.drop_column('teachers', column)
    if rules:
        bind.execute(sa.text('UPDATE teachers SET contact_rule = :rule WHERE id = :id'), rules)
    if contacts:
        bind.execute(sa.text(
            'INSERT INTO teacher_contacts (teacher_id, channel, address, agreed_at, agreed_by_teacher,'
            ' unreachable_since, rank) VALUES (:teacher, :channel, :address, :agreed, :own, :unreachable, :rank)'),
            contacts)


def downgrade() -> None:
    bind = op.get_bind()
    rules: dict[Any, Any] = dict(bind.execute(sa.text('SELECT id, contact_rule FROM teachers')).all())
    old: dict[int, dict[str, Any]] = {
        teacher: {'id': teacher, 'line_user_id': None, 'email': None, 'line_opt_in': False, 'line_opt_in_at': None,
                  'email_opt_in': False, 'line_unreachable_at': None, 'line': None, 'mail': None}
        for teacher in rules
    }
    for row in bind.execute(sa.text(
            "SELECT teacher_id, channel, address, agreed_at, agreed_by_teacher, unreachable_since, rank"
            " FROM teacher_contacts WHERE channel IN ('line', 'email')")).mappings():
        values = old[row['teacher_id']]
        if row['channel'] == 'line':
            values.update(line_user_id=row['address'], line_opt_in=row['agreed_at'] is not None,
                          line_opt_in_at=row['agreed_at'] if row['agreed_by_teacher'] else None,
                          line_unreachable_at=row['unreachable_since'], line=row['rank'])
        else:
            values.update(email=row['address'], email_opt_in=row['agreed_at'] is not None, mail=row['rank'])
    for teacher, values in old.items():
        line, mail = values.pop('line') is not None, values.pop('mail') is not None
        values['channel'] = ('line_fallback' if rules[teacher] == 'first' and line and mail else
                             'both' if line and mail else 'email' if mail else 'line')
    op.drop_table('teacher_contacts')
    if bind.dialect.name == 'sqlite':
        _rebuild_teachers_on_sqlite(True, KEPT)
    else:
        for column in _teacher_columns(True):
            if column.name in OLD:
                if not column.nullable and column.server_default is None:
                    column.server_default = sa.DefaultClause(sa.false())
                op.add_column('teachers', column)
        for flag in ('line_opt_in', 'email_opt_in'):
            op.alter_column('teachers', flag, server_default=None, existing_type=sa.Boolean(), existing_nullable=False)
        op.create_unique_constraint('uq_teachers_line_user_id', 'teachers', ['line_user_id'])
        op.drop_column('teachers', 'contact_rule')
    if old:
        bind.execute(sa.text(
            'UPDATE teachers SET line_user_id = :line_user_id, email = :email, line_opt_in = :line_opt_in,'
            ' line_opt_in_at = :line_opt_in_at, email_opt_in = :email_opt_in, channel = :channel,'
            ' line_unreachable_at = :line_unreachable_at WHERE id = :id'), list(old.values()))
