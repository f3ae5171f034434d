"""The frame around the areas: starting the app in its modes (window, tray, demo, smoke check, screenshots), the main
window with its tabs, banners and menus, the tray, one instance per data folder and where the window opens. What
every screen is handed (the context, the background-work helper, core's events as Qt signals) is ui/services."""
