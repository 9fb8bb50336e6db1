// The console's user editor: a player's linked official accounts (contract section 20), apart from the profile's and
// registration's premium-account.tsx so that the console's question (editing.tsx) stays out of the login page's chunk.
import { useState } from 'preact/hooks';
import { api } from '../../api.ts';
import { useAction } from '../../components.tsx';
import { Confirmation } from '../../editing.tsx';
import { t } from '../../i18n.ts';
import { usePremiumSources, type Link } from '../premium-account.tsx';

/**
 * The admin console's user editor: the player's linked official accounts (shown while the service offers the link, or
 * while any is left), each with an unlink, after a confirmation, for an admin above the player's level.
 */
export function AdminPremiumLinks(props: {
  userId: number;
  name: string;
  links: Link[];
  mayUnlink: boolean;
  onChanged: () => Promise<void>;
}) {
  const sources = usePremiumSources();
  const [asking, setAsking] = useState<Link | null>(null);
  const action = useAction();
  const unlink = (link: Link) =>
    action.run(async () => {
      setAsking(null);
      await api.delete(`/api/admin/user/${props.userId}/premium?source=${encodeURIComponent(link.source)}`);
      await props.onChanged();
      return t('admin:premium.unlinked', { premium: link.name, source: link.source, name: props.name });
    });
  if (props.links.length === 0 && !sources?.length) return null;
  return (
    <div role="group" aria-labelledby="user-premium-heading">
      <h3 id="user-premium-heading">{t('admin:premium.title')}</h3>
      {props.links.length === 0 ? (
        <p class="muted">{t('admin:premium.none')}</p>
      ) : (
        <ul class="items">
          {props.links.map((link) => (
            <li key={link.source}>
              {t('admin:premium.linked', { name: link.name, source: link.source, uuid: link.uuid })}
              {props.mayUnlink && (
                <button type="button" class="secondary small" disabled={asking !== null || action.busy} onClick={() => setAsking(link)}>
                  {t('admin:premium.unlink')}
                </button>
              )}
            </li>
          ))}
        </ul>
      )}
      {asking && (
        <Confirmation confirmLabel={t('admin:premium.unlink')} onConfirm={() => void unlink(asking)} onCancel={() => setAsking(null)}>
          {t('admin:premium.question', { premium: asking.name, source: asking.source, name: props.name })}
        </Confirmation>
      )}
      <div aria-live="polite">{action.outcome}</div>
    </div>
  );
}
