// Standing in the game on the profile (contract section 24): a ban that holds now, with its reason in the game's words
// and its end, and the players this player blocked (the game hides their chat), blocked and unblocked by name.
import { useEffect, useState } from 'preact/hooks';
import { api } from '../api.ts';
import { Field, Form, Notice, messageOf, useAction } from '../components.tsx';
import { dateTime, t } from '../i18n.ts';
import type { PlayerBan } from '../../../src/http/shapes/ban.ts';

interface BlockedPlayer {
  uuid: string;
  name: string;
}

/** The reason in the game's own English text, translated (home.json standing.reasons; `other`: the admin's words). */
export const banReasonText = (reason: string) => t(`standing.reasons.${reason}`);

/** The current bans, in a card that says what the game does about them; nothing when there is none. */
export function CurrentBans() {
  const [bans, setBans] = useState<PlayerBan[]>([]);
  useEffect(() => {
    api.get<PlayerBan[]>('/api/home/bans').then(
      (reply) => setBans(reply.data),
      () => setBans([]),
    );
  }, []);
  if (bans.length === 0) return null;
  return (
    <section class="card ban-card" aria-labelledby="ban-title">
      <h3 id="ban-title">{t('standing.banTitle')}</h3>
      {bans.map((ban) => (
        <div key={ban.id} role="alert">
          <p>
            <strong>{t(`standing.scope.${ban.scope}`)}</strong>
          </p>
          <p>{t('standing.reason', { reason: banReasonText(ban.reason) })}</p>
          {ban.message && <p>{t('standing.message', { message: ban.message })}</p>}
          <p>{ban.expires === null ? t('standing.permanent') : t('standing.until', { when: dateTime(ban.expires) })}</p>
        </div>
      ))}
    </section>
  );
}

/** The players this player blocked: add by name, remove each. */
export function BlockList() {
  const [blocked, setBlocked] = useState<BlockedPlayer[] | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const action = useAction();
  const load = () =>
    api.get<BlockedPlayer[]>('/api/home/blocks').then(
      (reply) => setBlocked(reply.data),
      (error) => setFailure(messageOf(error)),
    );
  useEffect(() => void load(), []);
  return (
    <section class="card" aria-labelledby="blocks-title">
      <h3 id="blocks-title">{t('standing.blocksTitle')}</h3>
      <p class="muted">{t('standing.blocksText')}</p>
      {failure && <Notice kind="error">{failure}</Notice>}
      {blocked && blocked.length === 0 && <p>{t('standing.noBlocks')}</p>}
      {blocked && blocked.length > 0 && (
        <ul class="items" aria-label={t('standing.blocksTitle')}>
          {blocked.map((player) => (
            <li key={player.uuid}>
              <div class="grow">
                <strong>{player.name}</strong>
              </div>
              <button
                type="button"
                class="secondary"
                aria-label={t('standing.unblockNamed', { name: player.name })}
                disabled={action.busy}
                onClick={() =>
                  void action.run(async () => {
                    const reply = await api.delete(`/api/home/blocks/${player.uuid}`);
                    await load();
                    return reply.msg;
                  })
                }
              >
                {t('standing.unblock')}
              </button>
            </li>
          ))}
        </ul>
      )}
      <div aria-live="polite">{action.outcome}</div>
      <Form
        submitLabel={t('standing.block')}
        resetOnSuccess
        submit={async (fields) => {
          const reply = await api.post('/api/home/blocks', { name: fields.name });
          await load();
          return reply.msg;
        }}
      >
        <Field label={t('standing.blockName')} name="name" required autocomplete="off" />
      </Form>
    </section>
  );
}
