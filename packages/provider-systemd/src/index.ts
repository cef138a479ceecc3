import { systemdProvider } from "./systemd-provider.js";

export default systemdProvider;
export { systemdProvider };
export { renderServiceUnit } from "./render-service-unit.js";
export { renderTimerUnits } from "./render-timer-units.js";
export { toOnCalendar } from "./on-calendar.js";
