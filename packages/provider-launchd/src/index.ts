import { launchdProvider } from "./launchd-provider.js";

export default launchdProvider;
export { launchdProvider };
export { serializePlist, type PlistDict } from "./serialize-plist.js";
export { calendarIntervals, calendarEntryCount, type CalendarInterval } from "./calendar-intervals.js";
