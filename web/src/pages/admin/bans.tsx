// A user's bans in the console's user editor (contract section 24): every ban, newest first, with its scope, reason,
// end and who banned; a form that bans from multiplayer or the account with one of the game's reasons and a duration
// (1, 7 or 30 days, permanent, or an end of one's own); a lift, after a confirmation, for each ban that holds.
import { useEffect, useState } from 'preact/hooks';
import { api } from '../../api.ts';
import { Field, Form, Notice, useAction } from '../../components.tsx';
import { Confirmation } from '../../editing.tsx';
import { dateTime, useT } from '../../i18n.ts';
import type { BanRecord } from '../../../../src/http/shapes/ban.ts';
import { BAN_REASONS, BAN_SCOPES } from '../../../../src/shared/ban-reasons.ts';
import { banReasonText } from '../standing.tsx';
import { plainMessage } from './names.tsx';

/** The duration presets, in days; `permanent` and `custom` (an end of one's own) besides. */
const PRESET_DAYS = [1, 7, 30] as const;

/** Whether the admin may ban: admins and owners above the user's perms (the API checks it again). */
export function UserBans(props: { userId: number; name: string; mayBan: boolean; onChanged: () => Promise<void> }) {
  const t = useT();
  const [bans, setBans] = useState<BanRecord[] | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const [duration, setDuration] = useState<string>('7');
  const [reason, setReason] = useState<string>(BAN_REASONS[0]!);
  const [asking, setAsking] = useState<BanRecord | null>(null);
  const lift = useAction();
  const path = `/api/admin/user/${props.userId}/bans`;
  const load = () =>
    api.get<BanRecord[]>(path).then(
      (reply) => setBans(reply.data),
      (error) => setFailure(plainMessage(error)),
    );
  useEffect(() => void load(), [props.userId]);
  const ends = (ban: BanRecord) =>
    ban.lifted !== null
      ? t('admin:bans.liftedAt', { when: dateTime(ban.lifted) })
      : ban.expires === null
        ? t('admin:bans.permanent')
        : t(ban.active ? 'admin:bans.until' : 'admin:bans.ended', { when: dateTime(ban.expires) });
  return (
    <section class="bans" aria-labelledby="bans-heading">
      <h3 id="bans-heading">{t('admin:bans.heading')}</h3>
      {failure && <Notice kind="error">{failure}</Notice>}
      {bans && bans.length === 0 && <p class="muted">{t('admin:bans.none')}</p>}
      {bans && bans.length > 0 && (
        <ul class="items" aria-label={t('admin:bans.heading')}>
          {bans.map((ban) => (
            <li key={ban.id}>
              <div class="grow">
                <strong>
                  {t(`admin:bans.scope.${ban.scope}`)}: {banReasonText(ban.reason)}
                </strong>
                {ban.message && <small>{ban.message}</small>}
                <small>
                  {t('admin:bans.by', { by: ban.by, when: dateTime(ban.created) })} · {ends(ban)}
                </small>
              </div>
              {ban.active && props.mayBan && (
                <button
                  type="button"
                  class="secondary"
                  aria-label={t('admin:bans.liftNamed', { reason: banReasonText(ban.reason) })}
                  disabled={lift.busy || asking !== null}
                  onClick={() => setAsking(ban)}
                >
                  {t('admin:bans.lift')}
                </button>
              )}
              {asking === ban && (
                <Confirmation
                  confirmLabel={t('admin:bans.liftNow')}
                  onConfirm={() => {
                    setAsking(null);
                    void lift.run(async () => {
                      try {
                        await api.delete(`${path}/${ban.id}`);
                      } catch (error) {
                        throw new Error(plainMessage(error));
                      }
                      await load();
                      await props.onChanged();
                      return t('admin:bans.lifted', { name: props.name });
                    });
                  }}
                  onCancel={() => setAsking(null)}
                >
                  {t('admin:bans.liftQuestion', { name: props.name })}
                </Confirmation>
              )}
            </li>
          ))}
        </ul>
      )}
      <div aria-live="polite">{lift.outcome}</div>
      {props.mayBan && (
        <Form
          submitLabel={t('admin:bans.ban')}
          resetOnSuccess
          submit={async (fields) => {
            const body: Record<string, unknown> = { scope: fields.scope, reason: fields.reason };
            if (fields.message?.trim()) body.message = fields.message.trim();
            if (duration === 'custom') {
              const end = Date.parse(fields.end ?? '');
              if (!Number.isFinite(end)) throw new Error(t('admin:bans.endNeeded'));
              body.expires = Math.floor(end / 1000);
            } else if (duration !== 'permanent') body.expires = Math.floor(Date.now() / 1000) + Number(duration) * 86400;
            try {
              await api.post(path, body);
            } catch (error) {
              throw new Error(plainMessage(error));
            }
            await load();
            await props.onChanged();
            return t('admin:bans.banned', { name: props.name });
          }}
        >
          <h4>{t('admin:bans.newHeading')}</h4>
          <div class="fields">
            <div class="field">
              <label for="ban-scope">{t('admin:bans.scopeLabel')}</label>
              <select id="ban-scope" name="scope">
                {BAN_SCOPES.map((scope) => (
                  <option key={scope} value={scope}>
                    {t(`admin:bans.scope.${scope}`)}
                  </option>
                ))}
              </select>
            </div>
            <div class="field">
              <label for="ban-reason">{t('admin:bans.reasonLabel')}</label>
              <select id="ban-reason" name="reason" value={reason} onChange={(event) => setReason(event.currentTarget.value)}>
                {BAN_REASONS.map((each) => (
                  <option key={each} value={each}>
                    {banReasonText(each)}
                  </option>
                ))}
              </select>
            </div>
            <div class="field">
              <label for="ban-duration">{t('admin:bans.durationLabel')}</label>
              <select id="ban-duration" name="duration" value={duration} onChange={(event) => setDuration(event.currentTarget.value)}>
                {PRESET_DAYS.map((days) => (
                  <option key={days} value={String(days)}>
                    {t('admin:bans.days', { count: days })}
                  </option>
                ))}
                <option value="permanent">{t('admin:bans.permanentOption')}</option>
                <option value="custom">{t('admin:bans.customOption')}</option>
              </select>
            </div>
            {duration === 'custom' && <Field label={t('admin:bans.endLabel')} name="end" type="datetime-local" required />}
          </div>
          <Field
            label={t(reason === 'other' ? 'admin:bans.messageRequired' : 'admin:bans.messageLabel')}
            name="message"
            required={reason === 'other'}
            hint={t('admin:bans.messageHint')}
          />
        </Form>
      )}
    </section>
  );
}
