window.nosniffLog = window.nosniffLog || [];
window.nosniffLog.push('second-value');
