window.nosniffLog = window.nosniffLog || [];
window.nosniffLog.push('css-without-nosniff');
