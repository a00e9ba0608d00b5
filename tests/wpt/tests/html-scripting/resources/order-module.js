window.orderLog = window.orderLog || [];
window.orderLog.push("module" + new URL(import.meta.url).search);
