; GPU Assistant: the Windows installer (Inno Setup 6.3 or newer).
;
; Build on Windows, from the repository root, after the PyInstaller build:
;   py -m venv build\venv-build
;   build\venv-build\Scripts\pip install -r requirements-build.txt
;   build\venv-build\Scripts\pyinstaller --noconfirm --clean --distpath dist --workpath build\pyinstaller installer\gpu_assistant.spec
;   dist\gpu-assistant\gpu-assistant-cli.exe --self-test
;   "%ProgramFiles(x86)%\Inno Setup 6\ISCC.exe" /DAppVersion=0.1.0 installer\windows\gpu_assistant.iss
; Result: dist\GPU-Assistant-Setup-0.1.0.exe
;
; It installs for the current user only (no administrator rights, no UAC prompt), into
; %LOCALAPPDATA%\Programs\GPU Assistant. The only registry value it may write is the optional
; "start with Windows" entry under HKCU\...\Run, which the uninstaller removes again.
; The NVIDIA NVML library is not in the bundle: the app loads the driver's own nvml.dll.

#ifndef AppVersion
  #define AppVersion "0.1.0"
#endif
#define AppName "GPU Assistant"
#define AppExe "gpu-assistant.exe"
#define BundleDir "..\..\dist\gpu-assistant"
; Inno Setup ships its Chinese (Simplified) messages only in recent versions: use them when present.
#define ZhIsl AddBackslash(CompilerPath) + "Languages\ChineseSimplified.isl"

[Setup]
; Never change AppId: it is how Windows recognises later versions and the uninstaller.
AppId={{5B7F2C4E-9A1D-4E3B-8C6F-2D4A7E9B1C30}
AppName={#AppName}
AppVersion={#AppVersion}
AppVerName={#AppName} {#AppVersion}
AppPublisher=The GPU Assistant developers
DefaultDirName={autopf}\{#AppName}
DisableProgramGroupPage=yes
PrivilegesRequired=lowest
ArchitecturesAllowed=x64compatible
ArchitecturesInstallIn64BitMode=x64compatible
MinVersion=10.0
OutputDir=..\..\dist
OutputBaseFilename=GPU-Assistant-Setup-{#AppVersion}
SetupIconFile=..\..\resources\icons\gpu-assistant.ico
UninstallDisplayIcon={app}\{#AppExe}
UninstallDisplayName={#AppName}
WizardStyle=modern
Compression=lzma2
SolidCompression=yes
; Close a running copy (it may sit in the tray) before files are replaced.
CloseApplications=yes

[Languages]
Name: "english"; MessagesFile: "compiler:Default.isl"
#ifexist ZhIsl
Name: "chinesesimplified"; MessagesFile: "{#ZhIsl}"
#endif

[CustomMessages]
english.StartWithWindows=Start {#AppName} with Windows, in the tray
english.StartGroup=Starting:
#ifexist ZhIsl
chinesesimplified.StartWithWindows=开机时启动 GPU Assistant（最小化到托盘）
chinesesimplified.StartGroup=启动：
#endif

[Tasks]
Name: "desktopicon"; Description: "{cm:CreateDesktopIcon}"; GroupDescription: "{cm:AdditionalIcons}"; Flags: unchecked
Name: "startup"; Description: "{cm:StartWithWindows}"; GroupDescription: "{cm:StartGroup}"; Flags: unchecked

[Files]
; The whole PyInstaller folder: gpu-assistant.exe, gpu-assistant-cli.exe and _internal\.
Source: "{#BundleDir}\*"; DestDir: "{app}"; Flags: ignoreversion recursesubdirs createallsubdirs
; Optional: run the metrics exporter at log-on as a scheduled task (see the README's exporter section).
Source: "exporter-task.ps1"; DestDir: "{app}"; Flags: ignoreversion

[Icons]
Name: "{autoprograms}\{#AppName}"; Filename: "{app}\{#AppExe}"
Name: "{autodesktop}\{#AppName}"; Filename: "{app}\{#AppExe}"; Tasks: desktopicon

[Registry]
; Start with Windows (ticked task only): hidden in the tray, see the --minimized flag of main.py.
Root: HKCU; Subkey: "Software\Microsoft\Windows\CurrentVersion\Run"; ValueType: string; ValueName: "{#AppName}"; ValueData: """{app}\{#AppExe}"" --minimized"; Flags: uninsdeletevalue; Tasks: startup

[Run]
Filename: "{app}\{#AppExe}"; Description: "{cm:LaunchProgram,{#AppName}}"; Flags: nowait postinstall skipifsilent

[UninstallRun]
; A copy running in the tray holds its files open: stop it before they are removed.
Filename: "{sys}\taskkill.exe"; Parameters: "/F /T /IM {#AppExe}"; Flags: runhidden; RunOnceId: "StopGpuAssistant"
; The exporter's scheduled task, if the user registered it (harmless when there is none).
Filename: "powershell.exe"; Parameters: "-NoProfile -ExecutionPolicy Bypass -File ""{app}\exporter-task.ps1"" -Remove"; Flags: runhidden; RunOnceId: "RemoveExporterTask"
