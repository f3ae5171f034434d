"""The names and addresses teachers already use, held in memory to check many new teachers at once.

Making one teacher asks the database whether their name or an address is taken (core/roster/rules.py).
An import of hundreds of thousands of rows would ask twice a row; `Taken` reads, for a batch of rows,
which of their names and addresses are in use, in a few queries, answers from memory, and learns each
name and address as a teacher is made through it, so the rule stays the same: a name names one
teacher, an address one teacher per channel.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass

from sqlalchemy import select
from sqlalchemy.orm import Session

from core.store.models import Teacher, TeacherContact


@dataclass(slots=True)
class Taken:
    names: set[str]
    owners: dict[tuple[str, str], str]  # (channel, address) → the display name of its teacher

    @classmethod
    def among(cls, session: Session, names: Iterable[str], addresses: Iterable[str]) -> Taken:
        """What of these names and addresses teachers use now: all a batch of new teachers needs to know,
        read in a few queries however large the roster (a batch, not the whole roster, in memory)."""
        found: set[str] = set()
        owners: dict[tuple[str, str], str] = {}
        for chunk in _chunks(sorted(set(names))):
            found.update(name for name in session.scalars(select(Teacher.name).where(Teacher.name.in_(chunk))) if name)
        for chunk in _chunks(sorted(set(addresses))):
            rows = session.execute(select(TeacherContact.channel, TeacherContact.address, Teacher.name)
                                   .join(Teacher, Teacher.id == TeacherContact.teacher_id)
                                   .where(TeacherContact.address.in_(chunk)))
            # A deleted teacher has no contacts left (core/roster/rules.py erase_teacher): every owner has a name.
            owners.update(((channel, address), name) for channel, address, name in rows if address is not None and name)
        return cls(found, owners)

    def owner(self, channel: str, address: str) -> str | None:
        return self.owners.get((channel, address))

    def update(self, name: str, addresses: dict[str, str]) -> None:
        """A teacher's addresses are now these: what they gave up is free for a teacher made after."""
        for key in [key for key, owner in self.owners.items() if owner == name]:
            del self.owners[key]
        self.take(name, addresses)

    def take(self, name: str, addresses: dict[str, str]) -> None:
        """A new teacher of this name with these addresses (by channel) was made."""
        self.names.add(name)
        for channel, address in addresses.items():
            self.owners[(channel, address)] = name


_CHUNK = 900  # SQLite's bound parameters per statement, with room to spare


def _chunks(values: list[str]) -> Iterator[list[str]]:
    for start in range(0, len(values), _CHUNK):
        yield values[start:start + _CHUNK]
