import type { ComponentChildren } from 'preact';

/** Two calendar dates, from and to (both included), the first never after the second; `children` sit beside them. */
export function DateRange({
  from,
  to,
  onFrom,
  onTo,
  children,
}: {
  from: string;
  to: string;
  onFrom: (date: string) => void;
  onTo: (date: string) => void;
  children?: ComponentChildren;
}) {
  return (
    <div class="range">
      <label class="field">
        <span>From</span>
        <input type="date" value={from} max={to} onChange={(event) => onFrom((event.target as HTMLInputElement).value)} />
      </label>
      <label class="field">
        <span>To</span>
        <input type="date" value={to} min={from} onChange={(event) => onTo((event.target as HTMLInputElement).value)} />
      </label>
      {children}
    </div>
  );
}
