; Inno Setup 6 script for Shiftcast: a per-user install that needs no administrator rights.
;
; Build (on Windows, after `pyinstaller --noconfirm --clean --distpath dist --workpath build\pyinstaller
; packaging\shiftcast.spec` has produced dist\Shiftcast\Shiftcast.exe):
;
;     "%ProgramFiles(x86)%\Inno Setup 6\ISCC.exe" packaging\windows\shiftcast.iss
;
; The result is dist\shiftcast-<version>-windows-x64-setup.exe. The version is read from the executable's
; version resource, which the spec writes from core/version.py, so it is never typed here.
;
; Where things go:
;   program files   {app} = %LOCALAPPDATA%\Programs\Shiftcast (replaced on every upgrade)
;   user data       %LOCALAPPDATA%\Shiftcast (database, images, logs, backups) - never under {app}; an
;                   upgrade never touches it, and an uninstall keeps it unless the user ticks the box

#if Ver < EncodeVer(6, 3, 0)
  #error Inno Setup 6.3 or newer is needed (ArchitecturesAllowed=x64compatible)
#endif

#define AppName "Shiftcast"
#define AppExeName "Shiftcast.exe"
#define BuildDir AddBackslash(SourcePath) + "..\..\dist\Shiftcast"
#ifndef AppVersion
  #define AppVersion GetStringFileInfo(BuildDir + "\" + AppExeName, "ProductVersion")
#endif
#if AppVersion == ""
  #error dist\Shiftcast\Shiftcast.exe has no version: build it with packaging\shiftcast.spec first
#endif

[Setup]
; The AppId identifies Shiftcast to Windows across versions: never change it, or upgrades install side by side.
AppId={{7FD093E8-ADD3-4AAE-80E5-82499A70F763}
AppName={#AppName}
AppVersion={#AppVersion}
AppVerName={#AppName} {#AppVersion}
AppPublisher=Shiftcast
VersionInfoVersion={#AppVersion}
; Per user, no UAC prompt: {autopf} is %LOCALAPPDATA%\Programs in this mode.
PrivilegesRequired=lowest
DefaultDirName={autopf}\{#AppName}
DefaultGroupName={#AppName}
DisableProgramGroupPage=yes
UsePreviousAppDir=yes
ArchitecturesAllowed=x64compatible
ArchitecturesInstallIn64BitMode=x64compatible
MinVersion=10.0
SetupIconFile=..\..\resources\icons\shiftcast.ico
UninstallDisplayIcon={app}\{#AppExeName}
UninstallDisplayName={#AppName}
OutputDir=..\..\dist
OutputBaseFilename=shiftcast-{#AppVersion}-windows-x64-setup
Compression=lzma2/max
SolidCompression=yes
WizardStyle=modern
; A running Shiftcast (window or tray) holds its files open: close it through the Restart Manager.
CloseApplications=yes
RestartApplications=no
ShowLanguageDialog=auto

[Languages]
Name: "english"; MessagesFile: "compiler:Default.isl"
Name: "japanese"; MessagesFile: "compiler:Languages\Japanese.isl"

[CustomMessages]
english.StartAtLogin=Start Shiftcast in the notification area when I sign in (sends reminders in the background)
japanese.StartAtLogin=サインイン時に Shiftcast を通知領域で起動する (リマインダーをバックグラウンドで送信)
english.DesktopIcon=Create a desktop shortcut
japanese.DesktopIcon=デスクトップにショートカットを作成する
english.Launch=Open Shiftcast now
japanese.Launch=Shiftcast を起動する
english.UninstallTitle=Uninstall Shiftcast
japanese.UninstallTitle=Shiftcast のアンインストール
english.UninstallKeepsData=Shiftcast will be removed from this computer. Your rosters, delivery history and backups in %1 are kept, so a later install finds them again.
japanese.UninstallKeepsData=Shiftcast をこのコンピューターから削除します。シフト表・送信履歴・バックアップ (%1) は残り、再インストールするとそのまま使えます。
english.UninstallDeleteData=Also delete my Shiftcast data (cannot be undone)
japanese.UninstallDeleteData=Shiftcast のデータも削除する (元に戻せません)

[Tasks]
Name: "startatlogin"; Description: "{cm:StartAtLogin}"
Name: "desktopicon"; Description: "{cm:DesktopIcon}"; Flags: unchecked

[InstallDelete]
; Upgrades replace the whole bundle so no file of an older version lingers (user data is elsewhere).
Type: filesandordirs; Name: "{app}\_internal"

[Files]
Source: "{#BuildDir}\*"; DestDir: "{app}"; Flags: ignoreversion recursesubdirs createallsubdirs

[Icons]
Name: "{autoprograms}\{#AppName}"; Filename: "{app}\{#AppExeName}"; WorkingDir: "{app}"
Name: "{autodesktop}\{#AppName}"; Filename: "{app}\{#AppExeName}"; WorkingDir: "{app}"; Tasks: desktopicon

[Registry]
; The same value core/app/autostart.py writes when start at login is switched on in the app's Settings.
Root: HKCU; Subkey: "Software\Microsoft\Windows\CurrentVersion\Run"; ValueType: string; ValueName: "Shiftcast"; ValueData: """{app}\Shiftcast.exe"" tray"; Tasks: startatlogin; Flags: uninsdeletevalue

[Run]
Filename: "{app}\{#AppExeName}"; Description: "{cm:Launch}"; Flags: nowait postinstall skipifsilent

[UninstallDelete]
Type: dirifempty; Name: "{app}"

[Code]
var
  DeleteUserData: Boolean;

{ The data folder core/store/paths.py uses on Windows: platformdirs' user_data_dir("Shiftcast", roaming=False). }
function UserDataDir: String;
begin
  Result := ExpandConstant('{localappdata}\Shiftcast');
end;

{ Before anything is removed: say that the data stays, and offer a box (unticked) to delete it too.
  A silent uninstall (/SILENT, /VERYSILENT) always keeps the data. }
function InitializeUninstall: Boolean;
var
  Form: TSetupForm;
  Intro: TNewStaticText;
  Box: TNewCheckBox;
  OkButton, CancelButton: TNewButton;
begin
  Result := True;
  DeleteUserData := False;
  if UninstallSilent or not DirExists(UserDataDir) then
    Exit;
#if Ver >= EncodeVer(6, 6, 0)
  Form := CreateCustomForm(440, 180, False, True);
#else
  Form := CreateCustomForm;
  Form.ClientWidth := ScaleX(440);
  Form.ClientHeight := ScaleY(180);
#endif
  try
    Form.Caption := CustomMessage('UninstallTitle');

    Intro := TNewStaticText.Create(Form);
    Intro.Parent := Form;
    Intro.AutoSize := False;
    Intro.WordWrap := True;
    Intro.Left := ScaleX(12);
    Intro.Top := ScaleY(12);
    Intro.Width := Form.ClientWidth - ScaleX(24);
    Intro.Height := ScaleY(72);
    Intro.Caption := FmtMessage(CustomMessage('UninstallKeepsData'), [UserDataDir]);

    Box := TNewCheckBox.Create(Form);
    Box.Parent := Form;
    Box.Left := ScaleX(12);
    Box.Top := ScaleY(96);
    Box.Width := Form.ClientWidth - ScaleX(24);
    Box.Height := ScaleY(20);
    Box.Caption := CustomMessage('UninstallDeleteData');
    Box.Checked := False;

    OkButton := TNewButton.Create(Form);
    OkButton.Parent := Form;
    OkButton.Width := ScaleX(80);
    OkButton.Height := ScaleY(24);
    OkButton.Left := Form.ClientWidth - ScaleX(12 + 80 + 8 + 80);
    OkButton.Top := Form.ClientHeight - ScaleY(12 + 24);
    OkButton.Caption := SetupMessage(msgButtonOK);
    OkButton.ModalResult := mrOk;
    OkButton.Default := True;

    CancelButton := TNewButton.Create(Form);
    CancelButton.Parent := Form;
    CancelButton.Width := ScaleX(80);
    CancelButton.Height := ScaleY(24);
    CancelButton.Left := Form.ClientWidth - ScaleX(12 + 80);
    CancelButton.Top := OkButton.Top;
    CancelButton.Caption := SetupMessage(msgButtonCancel);
    CancelButton.ModalResult := mrCancel;
    CancelButton.Cancel := True;

    Form.ActiveControl := OkButton;
    if Form.ShowModal() = mrOk then
      DeleteUserData := Box.Checked
    else
      Result := False; { changed their mind: nothing is uninstalled }
  finally
    Form.Free();
  end;
end;

procedure CurUninstallStepChanged(CurUninstallStep: TUninstallStep);
begin
  if CurUninstallStep = usUninstall then
    { Start at login may also have been switched on from the app's Settings rather than by the task. }
    RegDeleteValue(HKEY_CURRENT_USER, 'Software\Microsoft\Windows\CurrentVersion\Run', 'Shiftcast');
  if (CurUninstallStep = usPostUninstall) and DeleteUserData then
    DelTree(UserDataDir, True, True, True);
end;
