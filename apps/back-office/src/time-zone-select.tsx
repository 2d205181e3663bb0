import { TIME_ZONE } from './format.js';

/** Every IANA time zone this browser knows, UTC first. */
const ZONES = ['UTC', ...Intl.supportedValuesOf('timeZone').filter((zone) => zone !== 'UTC')];

/** The time zone the shop's books and pages show days and hours in: its own, or this device's to start with. */
export function TimeZoneSelect({ value }: { value?: string | null }) {
  const chosen = value ?? TIME_ZONE;
  return (
    <label class="field">
      <span>Time zone</span>
      <select name="time_zone">
        {(ZONES.includes(chosen) ? ZONES : [chosen, ...ZONES]).map((zone) => (
          <option value={zone} key={zone} selected={zone === chosen}>
            {zone.replaceAll('_', ' ')}
          </option>
        ))}
      </select>
    </label>
  );
}
