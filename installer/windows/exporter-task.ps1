# Run the GPU Assistant metrics exporter headless at log-on, as a scheduled task
# of the current user (no administrator rights needed).
#
#   powershell -ExecutionPolicy Bypass -File installer\windows\exporter-task.ps1            # install
#   powershell -ExecutionPolicy Bypass -File installer\windows\exporter-task.ps1 -Remove    # undo
#
# Check: Invoke-WebRequest http://127.0.0.1:9400/metrics -UseBasicParsing | Select-Object -Expand Content
param(
    [string]$Exe = "$env:LOCALAPPDATA\Programs\GPU Assistant\gpu-assistant.exe",
    [int]$Port = 9400,
    [switch]$Remove
)
$TaskName = "GPU Assistant exporter"
if ($Remove) {
    Unregister-ScheduledTask -TaskName $TaskName -Confirm:$false
    Write-Host "Removed scheduled task '$TaskName'."
    exit 0
}
if (-not (Test-Path $Exe)) {
    Write-Error "Not found: $Exe (pass -Exe with the path of gpu-assistant.exe)"
    exit 2
}
$action = New-ScheduledTaskAction -Execute $Exe -Argument "exporter --host 127.0.0.1 --port $Port"
$trigger = New-ScheduledTaskTrigger -AtLogOn -User $env:USERNAME
$settings = New-ScheduledTaskSettingsSet -AllowStartIfOnBatteries -DontStopIfGoingOnBatteries `
    -ExecutionTimeLimit ([TimeSpan]::Zero) -RestartCount 3 -RestartInterval (New-TimeSpan -Minutes 1)
# -Force: running the script again replaces the task instead of failing.
# The windowed gpu-assistant.exe has no console, so the exporter's output goes nowhere; that is fine
# for a background service (check it with the Invoke-WebRequest line above).
Register-ScheduledTask -TaskName $TaskName -Action $action -Trigger $trigger -Settings $settings -Force `
    -Description "Serves GPU metrics for Prometheus on 127.0.0.1:$Port" | Out-Null
Start-ScheduledTask -TaskName $TaskName
Write-Host "Installed and started '$TaskName': http://127.0.0.1:$Port/metrics"
