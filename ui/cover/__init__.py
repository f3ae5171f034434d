"""The Cover requests dialog (代講): teachers' requests for cover, their volunteers, and the manager's answer."""
