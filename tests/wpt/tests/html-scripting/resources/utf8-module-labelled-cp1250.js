window.charsetLog = window.charsetLog || [];
window.charsetLog.push("module:" + "śćążź");
