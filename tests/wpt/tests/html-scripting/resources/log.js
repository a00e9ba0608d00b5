window.externalLog = window.externalLog || [];
window.externalLog.push(new URL(document.currentScript.src).search.slice(1));
