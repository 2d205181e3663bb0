import { useEffect, useState } from 'preact/hooks';
import { api } from '../api.js';
import { describe, Problem } from '../form.js';
import { shopZone } from '../format.js';
import type { Hours } from '../hours.js';
import { HoursEditor } from './hours-editor.js';
import { HoursTable } from './hours-table.js';
import { LiveSign } from './live-sign.js';
import { SignEmbed } from './sign-embed.js';
import { SignOverrideCard } from './sign-override.js';

type Organization = { name: string; role: 'owner' | 'admin' | 'staff'; time_zone: string };

/**
 * `/o/:handle/open-sign`: the shop's open sign as customers see it (badge and words), its hours edited by an
 * owner or admin (a row per weekday, special days), the sign changed by hand for a while, and the badge's code
 * for the shop's own web site. Staff see the hours read only.
 */
export function OpenSignPage({ handle }: { handle: string }) {
  const [org, setOrg] = useState<Organization | null>(null);
  const [hours, setHours] = useState<Hours | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  // Counts the saves, for the sign to be read again after each.
  const [version, setVersion] = useState(0);
  useEffect(() => {
    const path = encodeURIComponent(handle);
    Promise.all([api<Organization>(`/api/v1/organizations/${path}`), api<Hours>(`/api/v1/orgs/${path}/hours`)]).then(
      ([read, kept]) => (setOrg(read), setHours(kept)),
      (error) => setProblem(describe(error)),
    );
  }, [handle]);
  const saved = (answer: Hours) => {
    setHours(answer);
    setVersion((n) => n + 1);
  };
  const zone = hours?.time_zone ?? org?.time_zone ?? shopZone();
  return (
    <>
      <h1>Open sign</h1>
      <p>
        Tell customers whether you are open right now: on your own web site with the badge below, and wherever your catalog is listed. Set
        your hours once and the sign follows them.
      </p>
      <Problem problem={problem} />
      <LiveSign handle={handle} version={version} />
      {org && hours && org.role !== 'staff' && (
        // A shop with no hours yet starts with them; after that, changing the sign for a while is the everyday task.
        <>
          {hours.regular.length + hours.special.length > 0 && (
            <SignOverrideCard handle={handle} zone={zone} saved={hours} onSaved={saved} />
          )}
          <HoursEditor handle={handle} saved={hours} onSaved={saved} />
          {hours.regular.length + hours.special.length === 0 && (
            <SignOverrideCard handle={handle} zone={zone} saved={hours} onSaved={saved} />
          )}
        </>
      )}
      {org && hours && org.role === 'staff' && <HoursTable hours={hours} />}
      {org && <SignEmbed handle={handle} name={org.name} />}
    </>
  );
}
