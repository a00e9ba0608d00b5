window.charsetLog = window.charsetLog || [];
window.charsetLog.push("unlabelled:" + "œæ¹¿Ÿ");
