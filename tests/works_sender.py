"""`python -m tests.works_sender sender …`: the app's sender with LINE WORKS' reminder builder registered
(tests/worksfixtures.py), for the tests that kill a sender process sending on LINE WORKS."""

from __future__ import annotations

import sys

from core.channels import registry
from main import main
from tests.worksfixtures import ReminderWorksDriver

if __name__ == "__main__":
    registry.register_channel(ReminderWorksDriver())
    sys.exit(main(sys.argv[1:]))
