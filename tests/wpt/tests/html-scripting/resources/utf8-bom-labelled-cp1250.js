window.charsetLog = window.charsetLog || [];
window.charsetLog.push("bom:" + "śćążź");
