"""Settings → Image hosting: the S3-compatible bucket the roster images are uploaded to, because
LINE shows pictures only from a public web address. The secret key lives in the keyring."""

from __future__ import annotations

from PySide6.QtWidgets import QGroupBox, QLineEdit, QPushButton, QSpinBox, QWidget

from core.setup import hosting as hosting_setup
from core.texts import Text
from ui.common import i18n
from ui.common.widgets import (
    StatusLabel,
    form,
    note,
    report,
    row,
    sentence,
    stack,
)
from ui.common.wrapped_text import keep_text_visible
from ui.services.context import AppContext


class HostingSection(QGroupBox):
    def __init__(self, ctx: AppContext, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setTitle(self.tr("Image hosting"))
        self.ctx = ctx
        layout = form(self)
        self.demo_note = note(self.tr(
            "Demo mode: images are served by the demo's own little web server, so nothing here is used."), self)
        self.demo_note.hide()
        layout.addRow(stack(note(self.tr(
            "LINE shows pictures only from a public web address, so Shiftcast uploads each month's roster "
            "image to a storage bucket of yours: Cloudflare R2, Amazon S3, MinIO or another S3-compatible "
            "service. Your provider's console shows the values below when you create the bucket and an "
            "access key for it."), self), self.demo_note))

        self.endpoint = self._field("hostingEndpoint", "https://<account>.r2.cloudflarestorage.com")
        layout.addRow(self.tr("Endpoint address:"), self.endpoint)
        self.bucket = self._field("hostingBucket", "")
        layout.addRow(self.tr("Bucket:"), self.bucket)
        self.region = self._field("hostingRegion", "auto")
        layout.addRow(self.tr("Region:"), stack(self.region, note(self.tr(
            "R2 uses “auto”; on Amazon S3 it is the bucket's region, such as ap-northeast-1."), self)))
        self.key_id = self._field("hostingKeyId", "")
        layout.addRow(self.tr("Access key ID:"), self.key_id)
        self.secret = self._field("hostingSecret", self.tr("Type to replace the saved key"))
        self.secret.setEchoMode(QLineEdit.EchoMode.Password)
        self.secret_state = StatusLabel(self)
        self.secret_state.setObjectName("hostingSecretState")
        layout.addRow(self.tr("Secret access key:"), stack(self.secret, self.secret_state))

        self.public_url = self._field("hostingPublicUrl", self.tr("Optional, e.g. https://pub-….r2.dev"))
        self.public_url.textChanged.connect(self._public_changed)
        layout.addRow(self.tr("Public address:"), self.public_url)
        self.days = QSpinBox(self)
        self.days.setObjectName("hostingDays")
        self.days.setRange(1, hosting_setup.MAX_DAYS)
        self.days.setSuffix(self.tr(" days"))
        layout.addRow(self.tr("Links stay valid for:"), stack(row(self.days, stretch_last=True), note(self.tr(
            "If the bucket is published at a public address, links to it never expire. Otherwise each link is "
            "signed and stops working after at most 7 days (a limit of S3), so older rosters can no longer "
            "be opened from LINE."), self)))

        self.save = QPushButton(self.tr("Save"), self)
        self.save.setObjectName("saveHosting")
        self.save.clicked.connect(self._save)
        self.test = QPushButton(self.tr("Test upload"), self)
        self.test.setObjectName("testUpload")
        self.test.clicked.connect(self._test)
        self.status = StatusLabel(self)
        self.status.setObjectName("hostingStatus")
        layout.addRow("", stack(row(self.save, self.test, stretch_last=True), self.status))
        keep_text_visible(self)  # Qt's form layout would cut long notes and answers mid-sentence
        self.reload()

    def _field(self, name: str, placeholder: str) -> QLineEdit:
        edit = QLineEdit(self)
        edit.setObjectName(name)
        edit.setPlaceholderText(placeholder)
        return edit

    def draft(self) -> hosting_setup.HostingDraft:
        return hosting_setup.HostingDraft(self.endpoint.text(), self.bucket.text(), self.region.text(),
                                          self.key_id.text(), self.public_url.text(), self.days.value())

    def reload(self) -> None:
        self.ctx.tasks.run(lambda: hosting_setup.load(self.ctx.db), self._loaded,
                           lambda exc: report(self, self.status, exc, self.ctx.paths), owner=self)

    def _loaded(self, state: hosting_setup.HostingState) -> None:
        draft = state.draft
        for edit, value in ((self.endpoint, draft.endpoint), (self.bucket, draft.bucket), (self.region, draft.region),
                            (self.key_id, draft.access_key_id), (self.public_url, draft.public_base_url)):
            edit.setText(value)
        self.days.setValue(draft.presign_days)
        self.demo_note.setVisible(state.demo_folder)
        if state.demo_folder:  # the demo uses no bucket, so no key either
            self.secret_state.clear_status()
        else:
            self._show_secret_state(state.secret_saved, state.keyring_problem)

    def _show_secret_state(self, saved: bool, problem: Text | str | None) -> None:
        if problem:
            self.secret_state.problem(sentence(i18n.render(problem)))
        elif saved:
            self.secret_state.ok(self.tr("✓ A secret access key is saved in this computer's keyring."))
        else:
            self.secret_state.ok(self.tr("No secret access key is saved yet."))

    def _public_changed(self, text: str) -> None:
        self.days.setEnabled(not text.strip())

    def _save(self) -> None:
        draft, secret = self.draft(), self.secret.text()
        self.save.setEnabled(False)
        self.status.busy(self.tr("Saving…"))
        self.ctx.tasks.run(lambda: hosting_setup.save(self.ctx.db, draft, secret),
                           self._saved, self._failed, owner=self)

    def _saved(self, _result: None) -> None:
        self.save.setEnabled(True)
        self.secret.clear()
        self.status.ok(self.tr("Saved."))
        self.ctx.bridge.settings_changed.emit()
        self.reload()

    def _test(self) -> None:
        draft, secret = self.draft(), self.secret.text()
        self.test.setEnabled(False)
        self.status.busy(self.tr("Uploading a small test file…"))
        self.ctx.tasks.run(lambda: hosting_setup.upload_test_file(draft, secret),
                           self._tested, self._failed, owner=self)

    def _tested(self, url: str) -> None:
        self.test.setEnabled(True)
        self.status.link(self.tr("✓ Uploaded. LINE will load images from links like this one:"), url)

    def _failed(self, exc: BaseException) -> None:
        self.save.setEnabled(True)
        self.test.setEnabled(True)
        report(self, self.status, exc, self.ctx.paths)
