"""Settings → Database: this computer's file, or a PostgreSQL server shared by several managers.

The chosen server is kept in database.json in the data folder (read before any database opens) and
its password in the keyring; the switch takes effect when Shiftcast starts again. Testing the
connection and copying this computer's data up run on the task pool: both wait on the network.
"""

from __future__ import annotations

import atexit
import os
import subprocess
import sys

from PySide6.QtCore import QCoreApplication
from PySide6.QtWidgets import (
    QGroupBox,
    QLineEdit,
    QMessageBox,
    QPushButton,
    QRadioButton,
    QSpinBox,
    QWidget,
)

from core.setup.database import DEFAULT_PORT, SchemaState, ServerAddress, ServerCheck, check_server
from core.store import copy_up as copying
from core.store import migrate
from core.store.copy_up import CopyReport
from core.store.db import Database
from core.store.paths import DB_URL_ENV, read_database_choice, write_database_choice
from core.store.secrets import DATABASE_PASSWORD, get_secret, set_secret
from ui.common import i18n
from ui.common.widgets import StatusLabel, form, note, report, row, stack
from ui.services.context import AppContext


def restart_app() -> None:
    """Quit, and start Shiftcast again with the same arguments once this process has let go of its
    data folder (atexit: after the window, the sender and the single-instance socket are closed)."""
    command = [sys.executable, *sys.argv] if not getattr(sys, "frozen", False) else [sys.executable, *sys.argv[1:]]
    atexit.register(lambda: subprocess.Popen(command, start_new_session=True, close_fds=True))
    QCoreApplication.quit()


class DatabaseSection(QGroupBox):
    def __init__(self, ctx: AppContext, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setTitle(self.tr("Database"))
        self.ctx = ctx
        layout = form(self)
        self.local = QRadioButton(self.tr("This computer (a file in the data folder)"), self)
        self.local.setObjectName("databaseLocal")
        self.server = QRadioButton(self.tr("A PostgreSQL server shared by several computers"), self)
        self.server.setObjectName("databaseServer")
        self.local.setChecked(True)
        self.host = QLineEdit(self)
        self.host.setObjectName("databaseHost")
        self.port = QSpinBox(self)
        self.port.setObjectName("databasePort")
        self.port.setRange(1, 65535)
        self.port.setValue(DEFAULT_PORT)
        self.name = QLineEdit(self)
        self.name.setObjectName("databaseName")
        self.name.setText("shiftcast")
        self.user = QLineEdit(self)
        self.user.setObjectName("databaseUser")
        self.password = QLineEdit(self)
        self.password.setObjectName("databasePassword")
        self.password.setEchoMode(QLineEdit.EchoMode.Password)
        self.test = QPushButton(self.tr("Test connection"), self)
        self.test.setObjectName("databaseTest")
        self.copy = QPushButton(self.tr("Copy this computer's data to the server…"), self)
        self.copy.setObjectName("databaseCopy")
        self.use = QPushButton(self.tr("Save and restart…"), self)
        self.use.setObjectName("databaseUse")
        self.status = StatusLabel(self)
        self.status.setObjectName("databaseStatus")
        self.fields: tuple[QWidget, ...] = (self.host, self.port, self.name, self.user, self.password, self.test, self.copy)

        layout.addRow(self.tr("Keep the roster in:"), stack(self.local, self.server))
        layout.addRow(self.tr("Server:"), stack(row(self.host, self.port)))
        layout.addRow(self.tr("Database:"), self.name)
        layout.addRow(self.tr("User:"), self.user)
        layout.addRow(self.tr("Password:"), stack(self.password, note(self.tr(
            "The password is kept in this computer's keyring, never in the data folder."), self)))
        layout.addRow("", stack(row(self.test, self.copy, self.use, stretch_last=True), self.status, note(self.tr(
            "A change takes effect when Shiftcast starts again. Before a server's database is upgraded, "
            "it is saved with pg_dump into the “backups” folder when pg_dump is installed; otherwise "
            "the server's own backups apply."), self)))
        self.overridden = bool(os.environ.get(DB_URL_ENV, "").strip())
        if self.overridden:
            layout.addRow("", note(self.tr(
                "The environment variable {0} is set: it decides the database, whatever is chosen here.")
                .format(DB_URL_ENV), self))
        self.local.toggled.connect(self._mode_changed)
        self.test.clicked.connect(self._test)
        self.copy.clicked.connect(self._copy)
        self.use.clicked.connect(self._use)
        self._mode_changed()
        ctx.tasks.run(self._load, self._loaded, lambda exc: report(self, self.status, exc, self.ctx.paths), owner=self)

    # ----- loading -----

    def _load(self) -> tuple[ServerAddress | None, str]:
        saved = read_database_choice(self.ctx.paths)
        address = ServerAddress.from_url(saved) if saved else None
        return address, (get_secret(DATABASE_PASSWORD) or "") if address else ""

    def _loaded(self, result: tuple[ServerAddress | None, str]) -> None:
        address, password = result
        if address is not None:
            self.server.setChecked(True)
            self.host.setText(address.host)
            self.port.setValue(address.port)
            self.name.setText(address.database)
            self.user.setText(address.user)
            self.password.setText(password)

    def _mode_changed(self) -> None:
        for field in self.fields:
            field.setEnabled(self.server.isChecked())

    def address(self) -> ServerAddress:
        return ServerAddress(self.host.text().strip(), self.port.value(), self.name.text().strip(), self.user.text().strip())

    # ----- testing -----

    def _test(self) -> None:
        address, password = self.address(), self.password.text()
        self.status.busy(self.tr("Connecting…"))
        self.test.setEnabled(False)
        self.ctx.tasks.run(lambda: check_server(address, password), self._tested, self._failed, owner=self)

    def _tested(self, check: ServerCheck) -> None:
        self.test.setEnabled(True)
        self._show(check)

    def _show(self, check: ServerCheck) -> None:
        text = i18n.render(check.message)
        if check.usable:
            self.status.ok(text)
        else:
            self.status.problem(text)

    def _failed(self, exc: BaseException) -> None:
        for button in (self.test, self.copy, self.use):
            button.setEnabled(True)
        self._mode_changed()
        report(self, self.status, exc, self.ctx.paths)

    # ----- copying up -----

    def _copy(self) -> None:
        answer = QMessageBox.question(self, self.tr("Copy to the server"), self.tr(
            "Copy every classroom, teacher, shift and delivery on this computer to the server's database? "
            "The server's database must be empty; if anything goes wrong, nothing is copied."))
        if answer != QMessageBox.StandardButton.Yes:
            return
        address, password = self.address(), self.password.text()
        self.status.busy(self.tr("Copying…"))
        self.copy.setEnabled(False)
        self.ctx.tasks.run(lambda: self._copy_up(address, password), self._copied, self._failed, owner=self)

    def _copy_up(self, address: ServerAddress, password: str) -> CopyReport | ServerCheck:
        check = check_server(address, password)
        if check.state not in (SchemaState.EMPTY, SchemaState.CURRENT):
            return check  # unreachable, refused, or a schema this copy would not match: said as checked
        local_url = self.ctx.paths.local_database_url()
        source = self.ctx.db if self.ctx.db.url == local_url else Database(local_url)
        target = Database(address.url(), password=password or None)
        try:
            migrate.upgrade(target)  # an empty database gets the schema first; a current one is left as is
            return copying.copy_up(source, target)
        finally:
            target.dispose()
            if source is not self.ctx.db:
                source.dispose()

    def _copied(self, result: CopyReport | ServerCheck) -> None:
        self.copy.setEnabled(True)
        if isinstance(result, ServerCheck):
            self._show(result)
            return
        self.status.ok(self.tr("Copied {0} rows to the server. Choose “Save and restart” to use it.").format(result.total))

    # ----- switching -----

    def _use(self) -> None:
        if not self.server.isChecked():
            self.ctx.tasks.run(lambda: write_database_choice(self.ctx.paths, None), self._saved, self._failed, owner=self)
            return
        address, password = self.address(), self.password.text()
        self.status.busy(self.tr("Connecting…"))
        self.use.setEnabled(False)
        self.ctx.tasks.run(lambda: self._save_server(address, password), self._saved, self._failed, owner=self)

    def _save_server(self, address: ServerAddress, password: str) -> ServerCheck | None:
        """Saved only when the server answers with a schema this app can use (a newer one is refused)."""
        check = check_server(address, password)
        if not check.usable:
            return check
        set_secret(DATABASE_PASSWORD, password)
        write_database_choice(self.ctx.paths, address.url())
        return None

    def _saved(self, refused: ServerCheck | None) -> None:
        self.use.setEnabled(True)
        if refused is not None:
            self._show(refused)
            return
        self.status.ok(self.tr("Saved. Shiftcast uses the new database from its next start."))
        box = QMessageBox(self)
        box.setWindowTitle(self.tr("Database"))
        box.setText(self.tr("The new database is used from the next start. Restart Shiftcast now?"))
        restart = box.addButton(self.tr("Restart now"), QMessageBox.ButtonRole.AcceptRole)
        box.addButton(self.tr("Later"), QMessageBox.ButtonRole.RejectRole)
        box.exec()
        if box.clickedButton() is restart:
            restart_app()
