window.charsetLog = window.charsetLog || [];
window.charsetLog.push("bogus:" + "œæ¹¿Ÿ");
