// HTML Standard
// https://html.spec.whatwg.org/multipage/workers.html#the-workernavigator-object
// (the mixins are in Navigator.webidl; see the deviations there).

[Exposed=Worker]
interface WorkerNavigator {};
WorkerNavigator includes NavigatorID;
WorkerNavigator includes NavigatorLanguage;
WorkerNavigator includes NavigatorOnLine;
WorkerNavigator includes NavigatorConcurrentHardware;
