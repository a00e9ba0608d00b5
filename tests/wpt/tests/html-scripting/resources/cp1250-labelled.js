window.charsetLog = window.charsetLog || [];
window.charsetLog.push("labelled:" + "œæ¹¿Ÿ");
