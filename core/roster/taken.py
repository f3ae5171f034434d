"""The names and addresses teachers already use, held in memory to check many new teachers at once.

Making one teacher asks the database whether their name or an address is taken (core/roster/rules.py).
An import of hundreds of thousands of rows would ask twice a row; `Taken` reads the roster once and
answers from memory instead, and learns each name and address as a teacher is made through it, so the
rule stays the same: a name names one teacher, an address one teacher per channel.
"""

from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy import select
from sqlalchemy.orm import Session

from core.store.models import Teacher, TeacherContact


@dataclass(slots=True)
class Taken:
    names: set[str]
    owners: dict[tuple[str, str], str]  # (channel, address) → the display name of its teacher

    @classmethod
    def load(cls, session: Session) -> Taken:
        names = {name for name in session.scalars(select(Teacher.name)) if name is not None}
        rows = session.execute(select(TeacherContact.channel, TeacherContact.address, Teacher.name)
                               .join(Teacher, Teacher.id == TeacherContact.teacher_id)
                               .where(TeacherContact.address.is_not(None)))
        # A deleted teacher has no contacts left (core/roster/rules.py erase_teacher), so every owner has a name.
        owners = {(channel, address): name for channel, address, name in rows if address is not None and name}
        return cls(names, owners)

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
