// The profile's part for official accounts (contract section 20): the linked ones, one per source, each with its
// official skin to import once and an unlink; and the walk that links one: name it, download the challenge skin,
// wear it at the source, verify, then put your own skin back. Shown only while the service offers the link.
import { useEffect, useState } from 'preact/hooks';
import { api, ApiError, type UserDetail } from '../api.ts';
import { Field, Form } from '../components.tsx';
import { t } from '../i18n.ts';

export type Link = UserDetail['PremiumLinks'][number];
type Challenge = { token: string; skin: string; source: string; name: string };

/** The sources one may link an account of; [] while the service offers no link (MOJANG_FALLBACK off), null before. */
export function usePremiumSources(): string[] | null {
  const [sources, setSources] = useState<string[] | null>(null);
  useEffect(() => {
    api.get<{ sources: string[] }>('/api/home/premium').then(
      (reply) => setSources(reply.data.sources),
      // 404: MOJANG_FALLBACK is off, and the card is not shown.
      (error) => setSources(error instanceof ApiError && error.status === 404 ? [] : null),
    );
  }, []);
  return sources;
}

export function PremiumLinks(props: { profile: UserDetail; onChange: () => Promise<void> }) {
  const sources = usePremiumSources();
  const [linked, setLinked] = useState<Link | null>(null);
  const [note, setNote] = useState<string | null>(null);
  if (!sources || sources.length === 0) return null;
  const links = props.profile.PremiumLinks;
  const free = sources.filter((source) => !links.some((link) => link.source === source));

  const verify = async (current: Challenge) => {
    const reply = await api.post<Link>('/api/home/premium/verify', { name: current.name, token: current.token, source: current.source });
    setLinked(reply.data);
    await props.onChange();
  };
  const importSkin = async (link: Link) => {
    await api.post('/api/home/skins/import-premium', { source: link.source });
    setNote(t('premium.imported', { source: link.source }));
    await props.onChange();
  };
  const unlink = async (link: Link) => {
    await api.delete(`/api/home/premium?source=${encodeURIComponent(link.source)}`);
    setNote(t('premium.unlinkedNote', { name: link.name, source: link.source }));
    await props.onChange();
  };

  return (
    <section class="card" aria-labelledby="premium-title">
      <h3 id="premium-title">{t('premium.title')}</h3>
      <p class="muted">{t('premium.text')}</p>
      {links.length > 0 && (
        <ul class="items">
          {links.map((link) => (
            <li key={link.source}>
              <strong>{link.name}</strong> <span class="muted">{t('premium.at', { source: link.source })}</span>
              <button
                type="button"
                class="small secondary"
                onClick={() => void importSkin(link).catch((error) => setNote(String(error.message)))}
              >
                {t('premium.importSkin')}
              </button>
              <button
                type="button"
                class="small secondary"
                onClick={() => void unlink(link).catch((error) => setNote(String(error.message)))}
              >
                {t('premium.unlink')}
              </button>
            </li>
          ))}
        </ul>
      )}
      {linked && (
        <p role="status">
          {t('premium.linkedNow', { name: linked.name, source: linked.source })} {t('premium.putBack', { source: linked.source })}
        </p>
      )}
      {free.length > 0 && (
        <ChallengeWalk
          sources={free}
          onBegin={() => {
            setLinked(null);
            setNote(null);
          }}
          onVerify={verify}
        />
      )}
      {note && <p role="status">{note}</p>}
    </section>
  );
}

/**
 * Registration's step 3 with an existing account (PREMIUM_IMPORT): name it, wear the challenge skin there, and the
 * new profile gets that account's name and UUID. Shown only while the service offers it.
 */
export function PremiumJoin(props: { onDone: (next: string | null) => void }) {
  const [sources, setSources] = useState<string[] | null>(null);
  useEffect(() => {
    api.get<{ sources: string[]; import: boolean }>('/api/home/premium').then(
      (reply) => setSources(reply.data.import ? reply.data.sources : null),
      () => setSources(null),
    );
  }, []);
  if (!sources || sources.length === 0) return null;
  return (
    <details class="card">
      <summary>{t('premium.join')}</summary>
      <p class="muted">{t('premium.joinText')}</p>
      <ChallengeWalk
        sources={sources}
        onVerify={async (challenge) => {
          const premium = { name: challenge.name, token: challenge.token, source: challenge.source };
          const reply = await api.post('/api/home/registerfinish', { premium });
          props.onDone(reply.url);
        }}
      />
    </details>
  );
}

/**
 * The walk both share: name the account (and its source, when several are offered), download the challenge skin, wear
 * it there, then verify (`onVerify`: the profile's link, or registration's step 3); cancel starts again.
 */
function ChallengeWalk(props: { sources: string[]; onBegin?: () => void; onVerify: (challenge: Challenge) => Promise<void> }) {
  const [challenge, setChallenge] = useState<Challenge | null>(null);
  const begin = async (fields: Record<string, string>) => {
    const source = fields.source ?? props.sources[0]!;
    const reply = await api.post<Omit<Challenge, 'name'>>('/api/home/premium/challenge', { name: fields.name, source });
    props.onBegin?.();
    setChallenge({ ...reply.data, name: fields.name! });
  };
  if (!challenge)
    return (
      <Form submitLabel={t('premium.begin')} submit={begin}>
        {props.sources.length > 1 && (
          <label>
            {t('premium.source')}
            <select name="source">
              {props.sources.map((source) => (
                <option key={source} value={source}>
                  {source}
                </option>
              ))}
            </select>
          </label>
        )}
        <Field label={t('premium.name')} name="name" required autocomplete="off" />
      </Form>
    );
  return (
    <div>
      <ol>
        <li>
          <a href={challenge.skin} download={`challenge-${challenge.name}.png`}>
            {t('premium.download')}
          </a>
        </li>
        <li>{t('premium.wear', { name: challenge.name, source: challenge.source })}</li>
        <li>{t('premium.verifyStep')}</li>
        <li>{t('premium.putBack', { source: challenge.source })}</li>
      </ol>
      <Form
        submitLabel={t('premium.verify')}
        submit={async () => {
          await props.onVerify(challenge);
          setChallenge(null);
        }}
      >
        <p class="muted">{t('premium.expires')}</p>
      </Form>
      <button type="button" class="secondary" onClick={() => setChallenge(null)}>
        {t('common.cancel')}
      </button>
    </div>
  );
}
