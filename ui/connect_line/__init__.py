"""The "Connect LINE" wizard: the first-start welcome and Settings → LINE → Connect LINE…, one page per step of core's
LINE setup, including the group and the teachers' codes."""
