console.log("3 deferred.js, readyState =", document.readyState);
