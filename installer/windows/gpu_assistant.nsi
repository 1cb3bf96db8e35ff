; GPU Assistant: the Windows installer (NSIS 3, built on Linux or Windows with makensis).
;
;   makensis -DVERSION=0.1.0 -DBUNDLE=dist/windows/gpu-assistant -DOUTFILE=dist/GPU-Assistant-Setup-0.1.0.exe \
;            installer/windows/gpu_assistant.nsi
;
; installer/build_windows.py builds the bundle (PyInstaller under the Windows Python), runs this and
; checks the result; .ci/windows-lane.sh installs it silently (/S) under Wine, self-tests the
; installed copy in English and Chinese, and uninstalls it silently.
;
; Per user, no administrator rights, no UAC prompt: files go to %LOCALAPPDATA%\Programs\GPU Assistant,
; the Start-menu shortcut to the user's Start menu, the uninstall entry to HKCU. The uninstaller
; removes exactly what was installed and leaves the user's data (%LOCALAPPDATA%\gpu-assistant:
; settings and recordings) alone. The NVIDIA NVML library is not in the bundle: the app loads the
; driver's own nvml.dll.

Unicode true
; Debian's Wine runs 64-bit programs only, and the bundle is 64-bit.
Target amd64-unicode
SetCompressor /SOLID lzma
RequestExecutionLevel user
ManifestDPIAware true

!ifndef VERSION
  !define VERSION "0.1.0"
!endif
!ifndef BUNDLE
  !define BUNDLE "..\..\dist\windows\gpu-assistant"
!endif
!ifndef OUTFILE
  !define OUTFILE "..\..\dist\GPU-Assistant-Setup-${VERSION}.exe"
!endif
!define APPNAME "GPU Assistant"
!define APPEXE "gpu-assistant.exe"
!define CLIEXE "gpu-assistant-cli.exe"
; Never change this key name: it is how Windows finds the uninstaller of every later version.
!define UNINSTKEY "Software\Microsoft\Windows\CurrentVersion\Uninstall\GPU Assistant"
!define RUNKEY "Software\Microsoft\Windows\CurrentVersion\Run"

Name "${APPNAME}"
OutFile "${OUTFILE}"
InstallDir "$LOCALAPPDATA\Programs\${APPNAME}"
InstallDirRegKey HKCU "${UNINSTKEY}" "InstallLocation"
Icon "..\..\resources\icons\gpu-assistant.ico"
UninstallIcon "..\..\resources\icons\gpu-assistant.ico"
VIProductVersion "${VERSION}.0"
VIAddVersionKey /LANG=0 "ProductName" "${APPNAME}"
VIAddVersionKey /LANG=0 "FileVersion" "${VERSION}"
VIAddVersionKey /LANG=0 "ProductVersion" "${VERSION}"
VIAddVersionKey /LANG=0 "CompanyName" "The GPU Assistant developers"
VIAddVersionKey /LANG=0 "FileDescription" "${APPNAME} installer"
VIAddVersionKey /LANG=0 "LegalCopyright" "The GPU Assistant developers"

!include "MUI2.nsh"
!include "LogicLib.nsh"
!define MUI_ICON "..\..\resources\icons\gpu-assistant.ico"
!define MUI_UNICON "..\..\resources\icons\gpu-assistant.ico"
!define MUI_ABORTWARNING
!define MUI_FINISHPAGE_RUN "$INSTDIR\${APPEXE}"
!insertmacro MUI_PAGE_DIRECTORY
!insertmacro MUI_PAGE_COMPONENTS
!insertmacro MUI_PAGE_INSTFILES
!insertmacro MUI_PAGE_FINISH
!insertmacro MUI_UNPAGE_CONFIRM
!insertmacro MUI_UNPAGE_INSTFILES
!insertmacro MUI_LANGUAGE "English"
!insertmacro MUI_LANGUAGE "SimpChinese"

LangString SecAppName ${LANG_ENGLISH} "${APPNAME}"
LangString SecAppName ${LANG_SIMPCHINESE} "${APPNAME}"
LangString SecStartName ${LANG_ENGLISH} "Start ${APPNAME} with Windows, in the tray"
LangString SecStartName ${LANG_SIMPCHINESE} "开机时启动 ${APPNAME}（最小化到托盘）"
LangString SecDesktopName ${LANG_ENGLISH} "Desktop shortcut"
LangString SecDesktopName ${LANG_SIMPCHINESE} "桌面快捷方式"

Function .onInit
  ; The installer speaks Chinese on a Chinese Windows (the user's UI language), English elsewhere.
  System::Call 'kernel32::GetUserDefaultUILanguage() h .r0'
  IntOp $0 $0 & 0x3FF
  ${If} $0 == 0x04
    StrCpy $LANGUAGE ${LANG_SIMPCHINESE}
  ${EndIf}
FunctionEnd

Function un.onInit
  SetShellVarContext current
FunctionEnd

Section "!$(SecAppName)" SecApp
  SectionIn RO
  SetShellVarContext current
  ; A copy running in the tray holds its files open: stop it before files are replaced.
  nsExec::Exec '"$SYSDIR\taskkill.exe" /F /T /IM ${APPEXE}'
  Pop $0
  SetOutPath "$INSTDIR"
  File /r "${BUNDLE}\*.*"
  ; Optional: run the metrics exporter at log-on as a scheduled task (README, exporter section).
  File "exporter-task.ps1"
  WriteUninstaller "$INSTDIR\uninstall.exe"
  CreateShortcut "$SMPROGRAMS\${APPNAME}.lnk" "$INSTDIR\${APPEXE}" "" "$INSTDIR\${APPEXE}" 0
  WriteRegStr HKCU "${UNINSTKEY}" "DisplayName" "${APPNAME}"
  WriteRegStr HKCU "${UNINSTKEY}" "DisplayVersion" "${VERSION}"
  WriteRegStr HKCU "${UNINSTKEY}" "Publisher" "The GPU Assistant developers"
  WriteRegStr HKCU "${UNINSTKEY}" "DisplayIcon" "$INSTDIR\${APPEXE}"
  WriteRegStr HKCU "${UNINSTKEY}" "InstallLocation" "$INSTDIR"
  WriteRegStr HKCU "${UNINSTKEY}" "UninstallString" '"$INSTDIR\uninstall.exe"'
  WriteRegStr HKCU "${UNINSTKEY}" "QuietUninstallString" '"$INSTDIR\uninstall.exe" /S'
  WriteRegDWORD HKCU "${UNINSTKEY}" "NoModify" 1
  WriteRegDWORD HKCU "${UNINSTKEY}" "NoRepair" 1
SectionEnd

Section /o "$(SecStartName)" SecStartup
  ; Hidden in the tray: see main.py --minimized.
  WriteRegStr HKCU "${RUNKEY}" "${APPNAME}" '"$INSTDIR\${APPEXE}" --minimized'
SectionEnd

Section /o "$(SecDesktopName)" SecDesktop
  SetShellVarContext current
  CreateShortcut "$DESKTOP\${APPNAME}.lnk" "$INSTDIR\${APPEXE}" "" "$INSTDIR\${APPEXE}" 0
SectionEnd

Section "Uninstall"
  nsExec::Exec '"$SYSDIR\taskkill.exe" /F /T /IM ${APPEXE}'
  Pop $0
  ; The exporter's scheduled task, if the user registered it (harmless when there is none).
  nsExec::Exec 'powershell.exe -NoProfile -ExecutionPolicy Bypass -File "$INSTDIR\exporter-task.ps1" -Remove'
  Pop $0
  ; Only what the installer put there: never a recursive delete of a folder the user may have chosen
  ; (an install into Documents must not take Documents with it). Settings and recordings live in
  ; %LOCALAPPDATA%\gpu-assistant and stay.
  RMDir /r "$INSTDIR\_internal"
  Delete "$INSTDIR\${APPEXE}"
  Delete "$INSTDIR\${CLIEXE}"
  Delete "$INSTDIR\exporter-task.ps1"
  Delete "$INSTDIR\uninstall.exe"
  RMDir "$INSTDIR"
  Delete "$SMPROGRAMS\${APPNAME}.lnk"
  Delete "$DESKTOP\${APPNAME}.lnk"
  DeleteRegValue HKCU "${RUNKEY}" "${APPNAME}"
  DeleteRegKey HKCU "${UNINSTKEY}"
SectionEnd
