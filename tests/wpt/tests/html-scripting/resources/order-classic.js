window.orderLog = window.orderLog || [];
window.orderLog.push("classic" + new URL(document.currentScript.src).search);
