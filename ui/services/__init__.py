"""What every screen is given and shares: the context passed in (database, paths, tasks, bridge), the
background-work helper, core's callbacks as Qt signals, the way other threads reach the UI thread, and
where file dialogs open (file_places).
Feature packages import these, never the shell: the shell (the app's entry, its window and tray)
imports the features, so services kept apart leave no import cycle between ui packages."""
